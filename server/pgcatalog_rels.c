/* The catalog relations: one row per relation with its column list (the
 * columns of PostgreSQL 15's relation of that name, in its order) and the
 * function that fills it. Relations without a fill function are empty:
 * sluice has no indexes, constraints, defaults, comments, triggers, rules,
 * policies, inheritance, extensions, enums, ranges, sequences,
 * publications, conversions, event triggers, foreign servers, text search
 * configurations, per-role settings or dependencies between catalog rows. */
#include "server/pgcatalog_int.h"

#define PG "pg_catalog"
#define IS "information_schema"

static const pgcat_rel_t rels[] = {
    {PG, "pg_namespace", "oid:o nspname:t nspowner:o nspacl:a", pgcat_fill_namespace},
    {PG, "pg_class",
     "oid:o relname:t relnamespace:o reltype:o reloftype:o relowner:o relam:o relfilenode:o "
     "reltablespace:o relpages:i reltuples:f relallvisible:i reltoastrelid:o relhasindex:b "
     "relisshared:b relpersistence:c relkind:c relnatts:h relchecks:h relhasrules:b "
     "relhastriggers:b relhassubclass:b relrowsecurity:b relforcerowsecurity:b relispopulated:b "
     "relreplident:c relispartition:b relrewrite:o relfrozenxid:t relminmxid:t relacl:a "
     "reloptions:a relpartbound:t",
     pgcat_fill_class},
    {PG, "pg_attribute",
     "attrelid:o attname:t atttypid:o attstattarget:i attlen:h attnum:h attndims:i "
     "attcacheoff:i atttypmod:i attbyval:b attalign:c attstorage:c attcompression:c "
     "attnotnull:b atthasdef:b atthasmissing:b attidentity:c attgenerated:c attisdropped:b "
     "attislocal:b attinhcount:i attcollation:o attacl:a attoptions:a attfdwoptions:a "
     "attmissingval:a",
     pgcat_fill_attribute},
    {PG, "pg_type",
     "oid:o typname:t typnamespace:o typowner:o typlen:h typbyval:b typtype:c typcategory:c "
     "typispreferred:b typisdefined:b typdelim:c typrelid:o typsubscript:t typelem:o "
     "typarray:o typinput:t typoutput:t typreceive:t typsend:t typmodin:t typmodout:t "
     "typanalyze:t typalign:c typstorage:c typnotnull:b typbasetype:o typtypmod:i typndims:i "
     "typcollation:o typdefaultbin:t typdefault:t typacl:a",
     pgcat_fill_type},
    {PG, "pg_attrdef", "oid:o adrelid:o adnum:h adbin:t", NULL},
    {PG, "pg_index",
     "indexrelid:o indrelid:o indnatts:h indnkeyatts:h indisunique:b indnullsnotdistinct:b "
     "indisprimary:b indisexclusion:b indimmediate:b indisclustered:b indisvalid:b "
     "indcheckxmin:b indisready:b indislive:b indisreplident:b indkey:a indcollation:a "
     "indclass:a indoption:a indexprs:t indpred:t",
     NULL},
    {PG, "pg_constraint",
     "oid:o conname:t connamespace:o contype:c condeferrable:b condeferred:b convalidated:b "
     "conrelid:o contypid:o conindid:o conparentid:o confrelid:o confupdtype:c confdeltype:c "
     "confmatchtype:c conislocal:b coninhcount:i connoinherit:b conkey:a confkey:a "
     "conpfeqop:a conppeqop:a conffeqop:a confdelsetcols:a conexclop:a conbin:t",
     NULL},
    {PG, "pg_description", "objoid:o classoid:o objsubid:i description:t", NULL},
    {PG, "pg_shdescription", "objoid:o classoid:o description:t", NULL},
    {PG, "pg_database",
     "oid:o datname:t datdba:o encoding:i datlocprovider:c datistemplate:b datallowconn:b "
     "datconnlimit:i datfrozenxid:t datminmxid:t dattablespace:o datcollate:t datctype:t "
     "daticulocale:t datcollversion:t datacl:a",
     pgcat_fill_database},
    {PG, "pg_roles",
     "rolname:t rolsuper:b rolinherit:b rolcreaterole:b rolcreatedb:b rolcanlogin:b "
     "rolreplication:b rolconnlimit:i rolpassword:t rolvaliduntil:x rolbypassrls:b "
     "rolconfig:a oid:o",
     pgcat_fill_roles},
    {PG, "pg_authid",
     "oid:o rolname:t rolsuper:b rolinherit:b rolcreaterole:b rolcreatedb:b rolcanlogin:b "
     "rolreplication:b rolbypassrls:b rolconnlimit:i rolpassword:t rolvaliduntil:x",
     pgcat_fill_authid},
    {PG, "pg_user",
     "usename:t usesysid:o usecreatedb:b usesuper:b userepl:b usebypassrls:b passwd:t "
     "valuntil:x useconfig:a",
     pgcat_fill_user},
    {PG, "pg_auth_members", "roleid:o member:o grantor:o admin_option:b", NULL},
    {PG, "pg_settings",
     "name:t setting:t unit:t category:t short_desc:t extra_desc:t context:t vartype:t "
     "source:t min_val:t max_val:t enumvals:a boot_val:t reset_val:t sourcefile:t "
     "sourceline:i pending_restart:b",
     pgcat_fill_settings},
    {PG, "pg_prepared_statements",
     "name:t statement:t prepare_time:x parameter_types:a from_sql:b generic_plans:l custom_plans:l",
     pgcat_fill_prepared_statements},
    {PG, "pg_proc",
     "oid:o proname:t pronamespace:o proowner:o prolang:o procost:f prorows:f provariadic:o "
     "prosupport:t prokind:c prosecdef:b proleakproof:b proisstrict:b proretset:b "
     "provolatile:c proparallel:c pronargs:h pronargdefaults:h prorettype:o proargtypes:a "
     "proallargtypes:a proargmodes:a proargnames:a proargdefaults:t protrftypes:a prosrc:t "
     "probin:t prosqlbody:t proconfig:a proacl:a",
     pgcat_fill_proc},
    {PG, "pg_am", "oid:o amname:t amhandler:t amtype:c", NULL},
    {PG, "pg_collation",
     "oid:o collname:t collnamespace:o collowner:o collprovider:c collisdeterministic:b "
     "collencoding:i collcollate:t collctype:t colliculocale:t collversion:t",
     pgcat_fill_collation},
    {PG, "pg_inherits", "inhrelid:o inhparent:o inhseqno:i inhdetachpending:b", NULL},
    {PG, "pg_tablespace", "oid:o spcname:t spcowner:o spcacl:a spcoptions:a",
     pgcat_fill_tablespace},
    {PG, "pg_extension",
     "oid:o extname:t extowner:o extnamespace:o extrelocatable:b extversion:t extconfig:a "
     "extcondition:a",
     NULL},
    {PG, "pg_enum", "oid:o enumtypid:o enumsortorder:f enumlabel:t", NULL},
    {PG, "pg_range",
     "rngtypid:o rngsubtype:o rngmultitypid:o rngcollation:o rngsubopc:o rngcanonical:t "
     "rngsubdiff:t",
     NULL},
    {PG, "pg_trigger",
     "oid:o tgrelid:o tgparentid:o tgname:t tgfoid:o tgtype:h tgenabled:c tgisinternal:b "
     "tgconstrrelid:o tgconstrindid:o tgconstraint:o tgdeferrable:b tginitdeferred:b "
     "tgnargs:h tgattr:a tgargs:t tgqual:t tgoldtable:t tgnewtable:t",
     NULL},
    {PG, "pg_rewrite",
     "oid:o rulename:t ev_class:o ev_type:c ev_enabled:c is_instead:b ev_qual:t ev_action:t", NULL},
    {PG, "pg_policy",
     "oid:o polname:t polrelid:o polcmd:c polpermissive:b polroles:a polqual:t polwithcheck:t",
     NULL},
    {PG, "pg_statistic_ext",
     "oid:o stxrelid:o stxname:t stxnamespace:o stxowner:o stxstattarget:i stxkeys:a "
     "stxkind:a stxexprs:t",
     NULL},
    {PG, "pg_publication",
     "oid:o pubname:t pubowner:o puballtables:b pubinsert:b pubupdate:b pubdelete:b "
     "pubtruncate:b pubviaroot:b",
     NULL},
    {PG, "pg_publication_namespace", "oid:o pnpubid:o pnnspid:o", NULL},
    {PG, "pg_publication_rel", "oid:o prpubid:o prrelid:o prqual:t prattrs:a", NULL},
    {PG, "pg_sequence",
     "seqrelid:o seqtypid:o seqstart:l seqincrement:l seqmax:l seqmin:l seqcache:l seqcycle:b",
     NULL},
    {PG, "pg_depend",
     "classid:o objid:o objsubid:i refclassid:o refobjid:o refobjsubid:i deptype:c", NULL},
    {PG, "pg_foreign_table", "ftrelid:o ftserver:o ftoptions:a", NULL},
    {PG, "pg_partitioned_table",
     "partrelid:o partstrat:c partnatts:h partdefid:o partattrs:a partclass:a partcollation:a "
     "partexprs:t",
     NULL},
    {PG, "pg_conversion",
     "oid:o conname:t connamespace:o conowner:o conforencoding:i contoencoding:i conproc:t condefault:b",
     NULL},
    {PG, "pg_event_trigger",
     "oid:o evtname:t evtevent:t evtowner:o evtfoid:o evtenabled:c evttags:a", NULL},
    {PG, "pg_language",
     "oid:o lanname:t lanowner:o lanispl:b lanpltrusted:b lanplcallfoid:o laninline:o lanvalidator:o lanacl:a",
     pgcat_fill_language},
    {PG, "pg_db_role_setting", "setdatabase:o setrole:o setconfig:a", NULL},
    {PG, "pg_foreign_server",
     "oid:o srvname:t srvowner:o srvfdw:o srvtype:t srvversion:t srvacl:a srvoptions:a", NULL},
    {PG, "pg_foreign_data_wrapper",
     "oid:o fdwname:t fdwowner:o fdwhandler:o fdwvalidator:o fdwacl:a fdwoptions:a", NULL},
    {PG, "pg_ts_config", "oid:o cfgname:t cfgnamespace:o cfgowner:o cfgparser:o", NULL},
    {PG, "pg_tables",
     "schemaname:t tablename:t tableowner:t tablespace:t hasindexes:b hasrules:b "
     "hastriggers:b rowsecurity:b",
     pgcat_fill_tables},
    {PG, "pg_views", "schemaname:t viewname:t viewowner:t definition:t", pgcat_fill_views},
    {PG, "pg_matviews",
     "schemaname:t matviewname:t matviewowner:t tablespace:t hasindexes:b ispopulated:b "
     "definition:t",
     pgcat_fill_matviews},
    {IS, "schemata",
     "catalog_name:t schema_name:t schema_owner:t default_character_set_catalog:t "
     "default_character_set_schema:t default_character_set_name:t sql_path:t",
     pgcat_fill_info_schemata},
    {IS, "tables",
     "table_catalog:t table_schema:t table_name:t table_type:t self_referencing_column_name:t "
     "reference_generation:t user_defined_type_catalog:t user_defined_type_schema:t "
     "user_defined_type_name:t is_insertable_into:t is_typed:t commit_action:t",
     pgcat_fill_info_tables},
    {IS, "columns",
     "table_catalog:t table_schema:t table_name:t column_name:t ordinal_position:n "
     "column_default:t is_nullable:t data_type:t character_maximum_length:n "
     "character_octet_length:n numeric_precision:n numeric_precision_radix:n numeric_scale:n "
     "datetime_precision:n interval_type:t interval_precision:n character_set_catalog:t "
     "character_set_schema:t character_set_name:t collation_catalog:t collation_schema:t "
     "collation_name:t domain_catalog:t domain_schema:t domain_name:t udt_catalog:t "
     "udt_schema:t udt_name:t scope_catalog:t scope_schema:t scope_name:t "
     "maximum_cardinality:n dtd_identifier:t is_self_referencing:t is_identity:t "
     "identity_generation:t identity_start:t identity_increment:t identity_maximum:t "
     "identity_minimum:t identity_cycle:t is_generated:t generation_expression:t "
     "is_updatable:t",
     pgcat_fill_info_columns},
    {IS, "views",
     "table_catalog:t table_schema:t table_name:t view_definition:t check_option:t "
     "is_updatable:t is_insertable_into:t is_trigger_updatable:t is_trigger_deletable:t "
     "is_trigger_insertable_into:t",
     pgcat_fill_info_views},
    {IS, "key_column_usage",
     "constraint_catalog:t constraint_schema:t constraint_name:t table_catalog:t "
     "table_schema:t table_name:t column_name:t ordinal_position:n "
     "position_in_unique_constraint:n",
     NULL},
    {IS, "table_constraints",
     "constraint_catalog:t constraint_schema:t constraint_name:t table_catalog:t "
     "table_schema:t table_name:t constraint_type:t is_deferrable:t initially_deferred:t "
     "enforced:t nulls_distinct:t",
     NULL},
    {IS, "referential_constraints",
     "constraint_catalog:t constraint_schema:t constraint_name:t "
     "unique_constraint_catalog:t unique_constraint_schema:t unique_constraint_name:t "
     "match_option:t update_rule:t delete_rule:t",
     NULL},
    {IS, "constraint_column_usage",
     "table_catalog:t table_schema:t table_name:t column_name:t constraint_catalog:t "
     "constraint_schema:t constraint_name:t",
     NULL},
};

int pgcat_rel_count(void)
{
    return (int)(sizeof rels / sizeof rels[0]);
}

const pgcat_rel_t *pgcat_rel_at(int i)
{
    return &rels[i];
}
