/* The rows of pg_catalog's relations: schemas, relations and their
 * columns (sluice's objects and the catalog relations themselves), types
 * (model/pgtype.h), the database, the connected role, settings, functions
 * (the exec function catalogue), their language, collations, the tablespace, and the
 * pg_tables / pg_views / pg_matviews views. */
#include "server/pgcatalog_int.h"

#include <string.h>

#include "exec/func.h"
#include "model/pgtype.h"
#include "model/text_io.h"
#include "server/prepared.h"
#include "server/stmt.h"

/* ---- schemas ---- */

static void namespace_row(pgcat_gen_t *g, int64_t oid, const char *name)
{
    pgcat_row(g);
    pgcat_int(g, "oid", oid);
    pgcat_text(g, "nspname", name);
    pgcat_int(g, "nspowner", PGCAT_OID_ROLE);
}

void pgcat_fill_namespace(pgcat_gen_t *g)
{
    namespace_row(g, PGCAT_OID_PG_CATALOG, "pg_catalog");
    namespace_row(g, PGCAT_OID_PUBLIC, "public");
    namespace_row(g, PGCAT_OID_INFO_SCHEMA, "information_schema");
}

static int64_t schema_oid(const char *schema)
{
    return !strcmp(schema, "pg_catalog") ? PGCAT_OID_PG_CATALOG : PGCAT_OID_INFO_SCHEMA;
}

/* ---- pg_class ---- */

static void class_row(pgcat_gen_t *g, int64_t oid, const char *name, int64_t nsp, char kind,
                      int ncols)
{
    char k[2] = {kind, 0};
    pgcat_row(g);
    pgcat_int(g, "oid", oid);
    pgcat_text(g, "relname", name);
    pgcat_int(g, "relnamespace", nsp);
    pgcat_int(g, "relowner", PGCAT_OID_ROLE);
    pgcat_int(g, "relfilenode", oid);
    pgcat_int(g, "reltuples", -1);
    pgcat_text(g, "relpersistence", "p");
    pgcat_text(g, "relkind", k);
    pgcat_int(g, "relnatts", ncols);
    pgcat_bool(g, "relispopulated", 1);
    pgcat_text(g, "relreplident", kind == 'r' ? "d" : "n");
    pgcat_text(g, "relfrozenxid", "0");
    pgcat_text(g, "relminmxid", "0");
}

/* Columns in a catalog relation's column list. */
static int rel_ncols(const pgcat_rel_t *r)
{
    int n = 0;
    for (const char *p = r->cols; *p; p++) n += *p == ':';
    return n;
}

void pgcat_fill_class(pgcat_gen_t *g)
{
    for (int i = 0; i < pgcat_rel_count(); i++) {
        const pgcat_rel_t *r = pgcat_rel_at(i);
        int is_info = !strcmp(r->schema, "information_schema");
        class_row(g, PGCAT_OID_SYSTEM_BASE + i, r->name, schema_oid(r->schema), is_info ? 'v' : 'r',
                  rel_ncols(r));
    }
    pgcat_object_t *o;
    int n = pgcat_objects(g, &o);
    for (int i = 0; i < n; i++)
        class_row(g, o[i].oid, o[i].rel.stream.name, PGCAT_OID_PUBLIC, o[i].relkind,
                  o[i].rel.stream.ncols);
}

/* ---- pg_attribute ---- */

static void attribute_row(pgcat_gen_t *g, int64_t rel, int num, const char *name, exec_pg_type_t t)
{
    pgcat_row(g);
    pgcat_int(g, "attrelid", rel);
    pgcat_text(g, "attname", name);
    pgcat_int(g, "atttypid", t.oid);
    pgcat_int(g, "attstattarget", -1);
    pgcat_int(g, "attlen", t.len);
    pgcat_int(g, "attnum", num);
    pgcat_int(g, "attcacheoff", -1);
    pgcat_int(g, "atttypmod", t.typmod);
    pgcat_bool(g, "attbyval", t.len > 0 && t.len <= 8);
    pgcat_text(g, "attalign", t.len == 8 ? "d" : t.len == 1 ? "c" : "i");
    pgcat_text(g, "attstorage", t.len > 0 ? "p" : "x");
    pgcat_text(g, "attcompression", "");
    pgcat_text(g, "attidentity", "");
    pgcat_text(g, "attgenerated", "");
    pgcat_bool(g, "attislocal", 1);
    pgcat_int(g, "attcollation", t.oid == 25 ? 100 : 0);
}

/* A catalog relation's column types as RowDescription reports them. */
static void system_attributes(pgcat_gen_t *g, int i)
{
    const char *p = pgcat_rel_at(i)->cols;
    for (int num = 1; *p; num++) {
        while (*p == ' ') p++;
        const char *colon = strchr(p, ':');
        const char *name = sl_strndup(g->a, p, (size_t)(colon - p));
        attribute_row(g, PGCAT_OID_SYSTEM_BASE + i, num, name,
                      exec_type_pg(pgcat_kind_type(colon[1])));
        p = colon + 2;
    }
}

void pgcat_fill_attribute(pgcat_gen_t *g)
{
    for (int i = 0; i < pgcat_rel_count(); i++) system_attributes(g, i);
    pgcat_object_t *o;
    int n = pgcat_objects(g, &o);
    for (int i = 0; i < n; i++)
        for (int c = 0; c < o[i].rel.stream.ncols; c++)
            attribute_row(g, o[i].oid, c + 1, o[i].rel.stream.col_names[c],
                          exec_type_pg(o[i].rel.stream.col_types[c]));
}

/* ---- pg_type ---- */

static const char *io_name(pgcat_gen_t *g, const exec_pgtype_t *t, const char *suffix)
{
    const char *io = t->io;
    size_t n = strlen(io);
    if (t->elem_oid) return sl_printf(g->a, "array_%s", suffix);
    return sl_printf(g->a, "%.*s%s", (int)n, io, suffix);
}

static void type_row(pgcat_gen_t *g, const exec_pgtype_t *t)
{
    char cat[2] = {t->category, 0}, kind[2] = {t->type, 0};
    pgcat_row(g);
    pgcat_int(g, "oid", t->oid);
    pgcat_text(g, "typname", t->name);
    pgcat_int(g, "typnamespace", PGCAT_OID_PG_CATALOG);
    pgcat_int(g, "typowner", PGCAT_OID_ROLE);
    pgcat_int(g, "typlen", t->len);
    pgcat_bool(g, "typbyval", t->len > 0 && t->len <= 8 && t->oid != 19);
    pgcat_text(g, "typtype", kind);
    pgcat_text(g, "typcategory", cat);
    pgcat_bool(g, "typispreferred",
               t->oid == 25 || t->oid == 701 || t->oid == 1184 || t->oid == 1186 || t->oid == 16 ||
                   t->oid == 26);
    pgcat_bool(g, "typisdefined", 1);
    pgcat_text(g, "typdelim", ",");
    pgcat_text(g, "typsubscript", t->elem_oid ? "array_subscript_handler" : "-");
    pgcat_int(g, "typelem", t->elem_oid);
    pgcat_int(g, "typarray", t->array_oid);
    pgcat_text(g, "typinput", io_name(g, t, "in"));
    pgcat_text(g, "typoutput", io_name(g, t, "out"));
    pgcat_text(g, "typreceive", io_name(g, t, "recv"));
    pgcat_text(g, "typsend", io_name(g, t, "send"));
    pgcat_text(g, "typmodin", "-");
    pgcat_text(g, "typmodout", "-");
    pgcat_text(g, "typanalyze", "-");
    pgcat_text(g, "typalign", t->len == 8 ? "d" : t->len == 1 ? "c" : t->len == 2 ? "s" : "i");
    pgcat_text(g, "typstorage", t->len > 0 ? "p" : "x");
    pgcat_int(g, "typtypmod", -1);
    pgcat_int(g, "typcollation", t->category == 'S' && t->oid != 19 ? 100 : t->oid == 19 ? 950 : 0);
}

void pgcat_fill_type(pgcat_gen_t *g)
{
    for (int i = 0; i < exec_pgtype_count(); i++) type_row(g, exec_pgtype_at(i));
}

/* ---- database, roles, settings ---- */

void pgcat_fill_database(pgcat_gen_t *g)
{
    pgcat_row(g);
    pgcat_int(g, "oid", PGCAT_OID_DATABASE);
    pgcat_text(g, "datname", g->sess->database);
    pgcat_int(g, "datdba", PGCAT_OID_ROLE);
    pgcat_int(g, "encoding", 6);
    pgcat_text(g, "datlocprovider", "c");
    pgcat_bool(g, "datallowconn", 1);
    pgcat_int(g, "datconnlimit", -1);
    pgcat_text(g, "datfrozenxid", "0");
    pgcat_text(g, "datminmxid", "1");
    pgcat_int(g, "dattablespace", 1663);
    pgcat_text(g, "datcollate", "C");
    pgcat_text(g, "datctype", "C");
}

/* The role columns pg_roles and pg_authid share. */
static void role_row(pgcat_gen_t *g)
{
    pgcat_row(g);
    pgcat_int(g, "oid", PGCAT_OID_ROLE);
    pgcat_text(g, "rolname", g->sess->user);
    pgcat_bool(g, "rolsuper", 1);
    pgcat_bool(g, "rolinherit", 1);
    pgcat_bool(g, "rolcreaterole", 1);
    pgcat_bool(g, "rolcreatedb", 1);
    pgcat_bool(g, "rolcanlogin", 1);
    pgcat_bool(g, "rolbypassrls", 1);
    pgcat_int(g, "rolconnlimit", -1);
}

void pgcat_fill_roles(pgcat_gen_t *g)
{
    role_row(g);
    pgcat_text(g, "rolpassword", "********");
}

void pgcat_fill_authid(pgcat_gen_t *g)
{
    role_row(g);
}

void pgcat_fill_user(pgcat_gen_t *g)
{
    pgcat_row(g);
    pgcat_text(g, "usename", g->sess->user);
    pgcat_int(g, "usesysid", PGCAT_OID_ROLE);
    pgcat_bool(g, "usecreatedb", 1);
    pgcat_bool(g, "usesuper", 1);
    pgcat_bool(g, "usebypassrls", 1);
    pgcat_text(g, "passwd", "********");
}

static void setting_row(void *arg, const char *name, const char *value, const char *doc)
{
    pgcat_gen_t *g = arg;
    pgcat_row(g);
    pgcat_text(g, "name", name);
    pgcat_text(g, "setting", value);
    pgcat_text(g, "category", "Client Connection Defaults");
    pgcat_text(g, "short_desc", doc);
    pgcat_text(g, "context", "user");
    pgcat_text(g, "vartype", "string");
    pgcat_text(g, "source", "default");
    pgcat_text(g, "boot_val", value);
    pgcat_text(g, "reset_val", value);
}

void pgcat_fill_settings(pgcat_gen_t *g)
{
    stmt_session_settings(g->sess->sess, setting_row, g);
}

/* A regtype[] value: {integer,"timestamp without time zone"}. */
static void put_param_types(sl_buf_t *b, const prep_stmt_t *s)
{
    sl_buf_t name = SL_BUF_INIT;
    sl_buf_putc(b, '{');
    for (int i = 0; i < s->nparams; i++) {
        uint32_t oid = i < s->ntypes && s->types[i] ? s->types[i] : s->inferred[i];
        sl_buf_clear(&name);
        exec_pgtype_format(oid ? oid : PG_OID_TEXT, -1, &name);
        sl_buf_putc(&name, '\0');
        int quote = strchr(name.data, ' ') != NULL;
        if (i) sl_buf_putc(b, ',');
        if (quote) sl_buf_putc(b, '"');
        sl_buf_puts(b, name.data);
        if (quote) sl_buf_putc(b, '"');
    }
    sl_buf_putc(b, '}');
    sl_buf_free(&name);
}

/* pg_prepared_statements: the session's statements, from PREPARE and from
 * Parse (the unnamed one excepted, as in PostgreSQL). */
void pgcat_fill_prepared_statements(pgcat_gen_t *g)
{
    sl_buf_t b = SL_BUF_INIT;
    for (const prep_stmt_t *s = sess_prepared(g->sess->sess)->first; s; s = s->next) {
        if (!s->name[0]) continue;
        pgcat_row(g);
        pgcat_text(g, "name", s->name);
        pgcat_text(g, "statement", s->statement);
        sl_buf_clear(&b);
        exec_format_timestamp(s->prepare_time, &b);
        pgcat_text(g, "prepare_time", b.data);
        sl_buf_clear(&b);
        put_param_types(&b, s);
        pgcat_text(g, "parameter_types", b.data);
        pgcat_bool(g, "from_sql", s->from_sql);
        pgcat_int(g, "generic_plans", 0);
        pgcat_int(g, "custom_plans", 0);
    }
    sl_buf_free(&b);
}

/* ---- functions ---- */

/* pg_proc: every function name of the exec catalogue, in pg_catalog. Its
 * signatures are overloaded by argument type at bind time, so one row per
 * name carries the argument count range and no argument types. */
void pgcat_fill_proc(pgcat_gen_t *g)
{
    for (int i = 0; i < exec_func_count(); i++) {
        const exec_func_t *f = exec_func_at(i);
        pgcat_row(g);
        pgcat_int(g, "oid", EXEC_FUNC_OID_BASE + i);
        pgcat_text(g, "proname", f->name);
        pgcat_int(g, "pronamespace", PGCAT_OID_PG_CATALOG);
        pgcat_int(g, "proowner", PGCAT_OID_ROLE);
        pgcat_int(g, "prolang", 12);
        pgcat_int(g, "procost", 1);
        pgcat_text(g, "prosupport", "-");
        pgcat_text(g, "prokind", f->kind == EXEC_FUNC_AGGREGATE ? "a" : "f");
        pgcat_bool(g, "proisstrict", (f->flags & EXEC_FUNC_STRICT) != 0);
        pgcat_text(g, "provolatile", f->flags & EXEC_FUNC_VOLATILE ? "v" : "i");
        pgcat_text(g, "proparallel", "s");
        pgcat_int(g, "pronargs", f->min_args);
        pgcat_int(g, "pronargdefaults", f->max_args < 0 ? 0 : f->max_args - f->min_args);
        pgcat_text(g, "proargtypes", "");
        pgcat_text(g, "prosrc", f->name);
    }
}

/* ---- collations, tablespaces ---- */

static void collation_row(pgcat_gen_t *g, int64_t oid, const char *name, const char *provider,
                          const char *locale)
{
    pgcat_row(g);
    pgcat_int(g, "oid", oid);
    pgcat_text(g, "collname", name);
    pgcat_int(g, "collnamespace", PGCAT_OID_PG_CATALOG);
    pgcat_int(g, "collowner", PGCAT_OID_ROLE);
    pgcat_text(g, "collprovider", provider);
    pgcat_bool(g, "collisdeterministic", 1);
    pgcat_int(g, "collencoding", -1);
    pgcat_text(g, "collcollate", locale);
    pgcat_text(g, "collctype", locale);
}

/* sluice compares strings by bytes: the default collation is C. */
void pgcat_fill_collation(pgcat_gen_t *g)
{
    collation_row(g, 100, "default", "d", NULL);
    collation_row(g, 950, "C", "c", "C");
    collation_row(g, 951, "POSIX", "c", "POSIX");
}

void pgcat_fill_tablespace(pgcat_gen_t *g)
{
    pgcat_row(g);
    pgcat_int(g, "oid", 1663);
    pgcat_text(g, "spcname", "pg_default");
    pgcat_int(g, "spcowner", PGCAT_OID_ROLE);
}

/* sluice's functions are built in: language internal (12), as pg_proc says. */
void pgcat_fill_language(pgcat_gen_t *g)
{
    pgcat_row(g);
    pgcat_int(g, "oid", 12);
    pgcat_text(g, "lanname", "internal");
    pgcat_int(g, "lanowner", PGCAT_OID_ROLE);
}

/* ---- pg_tables, pg_views, pg_matviews ---- */

void pgcat_fill_tables(pgcat_gen_t *g)
{
    for (int i = 0; i < pgcat_rel_count(); i++) {
        const pgcat_rel_t *r = pgcat_rel_at(i);
        if (strcmp(r->schema, "pg_catalog")) continue;
        pgcat_row(g);
        pgcat_text(g, "schemaname", r->schema);
        pgcat_text(g, "tablename", r->name);
        pgcat_text(g, "tableowner", g->sess->user);
    }
    pgcat_object_t *o;
    int n = pgcat_objects(g, &o);
    for (int i = 0; i < n; i++) {
        if (o[i].relkind != 'r') continue;
        pgcat_row(g);
        pgcat_text(g, "schemaname", "public");
        pgcat_text(g, "tablename", o[i].rel.stream.name);
        pgcat_text(g, "tableowner", g->sess->user);
    }
}

void pgcat_fill_views(pgcat_gen_t *g)
{
    pgcat_object_t *o;
    int n = pgcat_objects(g, &o);
    for (int i = 0; i < n; i++) {
        if (o[i].relkind != 'v') continue;
        pgcat_row(g);
        pgcat_text(g, "schemaname", "public");
        pgcat_text(g, "viewname", o[i].rel.stream.name);
        pgcat_text(g, "viewowner", g->sess->user);
        pgcat_text(g, "definition", o[i].entry.sql);
    }
}

void pgcat_fill_matviews(pgcat_gen_t *g)
{
    pgcat_object_t *o;
    int n = pgcat_objects(g, &o);
    for (int i = 0; i < n; i++) {
        if (o[i].relkind != 'm') continue;
        pgcat_row(g);
        pgcat_text(g, "schemaname", "public");
        pgcat_text(g, "matviewname", o[i].rel.stream.name);
        pgcat_text(g, "matviewowner", g->sess->user);
        pgcat_bool(g, "ispopulated", 1);
        pgcat_text(g, "definition", o[i].entry.sql);
    }
}
