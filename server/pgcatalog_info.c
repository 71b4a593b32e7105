/* The rows of information_schema's relations: schemata, tables, columns
 * and views, from sluice's objects. Static tables are 'BASE TABLE';
 * streams and query tables (relkind 'm') are 'VIEW'. PostgreSQL leaves its
 * materialized views out of information_schema (the standard has no such
 * kind), but a query's result table is what a sluice user reads most, so
 * it is shown as the standard's nearest kind: a derived, read-only table. */
#include "server/pgcatalog_int.h"

#include <string.h>

#include "model/pgtype.h"

static void schema_row(pgcat_gen_t *g, const char *name)
{
    pgcat_row(g);
    pgcat_text(g, "catalog_name", g->sess->database);
    pgcat_text(g, "schema_name", name);
    pgcat_text(g, "schema_owner", g->sess->user);
}

void pgcat_fill_info_schemata(pgcat_gen_t *g)
{
    schema_row(g, "pg_catalog");
    schema_row(g, "public");
    schema_row(g, "information_schema");
}

/* The objects information_schema shows: tables, streams and query tables. */
static int shown(const pgcat_object_t *o)
{
    return o->relkind == 'r' || o->relkind == 'v' || o->relkind == 'm';
}

void pgcat_fill_info_tables(pgcat_gen_t *g)
{
    pgcat_object_t *o;
    int n = pgcat_objects(g, &o);
    for (int i = 0; i < n; i++) {
        if (!shown(&o[i])) continue;
        pgcat_row(g);
        pgcat_text(g, "table_catalog", g->sess->database);
        pgcat_text(g, "table_schema", "public");
        pgcat_text(g, "table_name", o[i].rel.stream.name);
        pgcat_text(g, "table_type", o[i].relkind == 'r' ? "BASE TABLE" : "VIEW");
        pgcat_text(g, "is_insertable_into", o[i].relkind == 'r' ? "YES" : "NO");
        pgcat_text(g, "is_typed", "NO");
    }
}

/* numeric_precision, its radix and numeric_scale of a numeric type. */
static void numeric_facets(pgcat_gen_t *g, exec_pg_type_t t)
{
    int prec = 0, radix = 2, scale = 0;
    switch (t.oid) {
    case 21: prec = 16; break;
    case 23: prec = 32; break;
    case 20: prec = 64; break;
    case 700: prec = 24; break;
    case 701: prec = 53; break;
    case 1700:
        if (t.typmod < 4) return;
        prec = (t.typmod - 4) >> 16 & 0xffff, scale = (t.typmod - 4) & 0xffff, radix = 10;
        break;
    default: return;
    }
    pgcat_int(g, "numeric_precision", prec);
    pgcat_int(g, "numeric_precision_radix", radix);
    if (t.oid != 700 && t.oid != 701) pgcat_int(g, "numeric_scale", scale);
}

static void column_row(pgcat_gen_t *g, const pgcat_object_t *o, int c)
{
    exec_pg_type_t t = exec_type_pg(o->rel.stream.col_types[c]);
    const exec_pgtype_t *pt = exec_pgtype_by_oid(t.oid);
    pgcat_row(g);
    pgcat_text(g, "table_catalog", g->sess->database);
    pgcat_text(g, "table_schema", "public");
    pgcat_text(g, "table_name", o->rel.stream.name);
    pgcat_text(g, "column_name", o->rel.stream.col_names[c]);
    pgcat_int(g, "ordinal_position", c + 1);
    pgcat_text(g, "is_nullable", "YES");
    pgcat_text(g, "data_type", pt ? pt->sql_name : "USER-DEFINED");
    numeric_facets(g, t);
    if (t.oid == 25) pgcat_int(g, "character_octet_length", 1073741824);
    if (t.oid == 1114 || t.oid == 1184 || t.oid == 1186) pgcat_int(g, "datetime_precision", 6);
    if (t.oid == 1082) pgcat_int(g, "datetime_precision", 0);
    pgcat_text(g, "udt_catalog", g->sess->database);
    pgcat_text(g, "udt_schema", "pg_catalog");
    pgcat_text(g, "udt_name", pt ? pt->name : "");
    pgcat_text(g, "dtd_identifier", sl_printf(g->a, "%d", c + 1));
    pgcat_text(g, "is_self_referencing", "NO");
    pgcat_text(g, "is_identity", "NO");
    pgcat_text(g, "identity_cycle", "NO");
    pgcat_text(g, "is_generated", "NEVER");
    pgcat_text(g, "is_updatable", o->relkind == 'r' ? "YES" : "NO");
}

void pgcat_fill_info_columns(pgcat_gen_t *g)
{
    pgcat_object_t *o;
    int n = pgcat_objects(g, &o);
    for (int i = 0; i < n; i++)
        if (shown(&o[i]))
            for (int c = 0; c < o[i].rel.stream.ncols; c++) column_row(g, &o[i], c);
}

void pgcat_fill_info_views(pgcat_gen_t *g)
{
    pgcat_object_t *o;
    int n = pgcat_objects(g, &o);
    for (int i = 0; i < n; i++) {
        if (o[i].relkind != 'v' && o[i].relkind != 'm') continue;
        pgcat_row(g);
        pgcat_text(g, "table_catalog", g->sess->database);
        pgcat_text(g, "table_schema", "public");
        pgcat_text(g, "table_name", o[i].rel.stream.name);
        pgcat_text(g, "view_definition", o[i].entry.sql);
        pgcat_text(g, "check_option", "NONE");
        pgcat_text(g, "is_updatable", "NO");
        pgcat_text(g, "is_insertable_into", "NO");
        pgcat_text(g, "is_trigger_updatable", "NO");
        pgcat_text(g, "is_trigger_deletable", "NO");
        pgcat_text(g, "is_trigger_insertable_into", "NO");
    }
}
