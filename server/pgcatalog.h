/* pg_catalog and information_schema: the relations PostgreSQL tools read to
 * learn what a database holds (psql's \d, drivers' metadata calls, GUI
 * tools), generated from sluice's own catalog at statement time.
 *
 * Each relation is one row of the table in pgcatalog_rels.c: its schema,
 * name, column list (name and type) and the function that fills its rows
 * (none: the relation is empty, the honest answer where sluice has no such
 * objects — indexes, constraints, triggers, rules, ...). The binder reaches
 * them through plan_catalog_t.lookup_system (planner/bind_from.c resolves
 * schemas: a bare name in pg_catalog first, then public).
 *
 * How sluice's objects appear (docs/compatibility.md, "The catalog"):
 *   static table   relkind 'r'  table_type 'BASE TABLE'
 *   stream         relkind 'v'  table_type 'VIEW' (its definition is the
 *                               CREATE STREAM text; it cannot be SELECTed ad hoc)
 *   query table    relkind 'm'  (a continuous query's memory sink: a
 *                               materialized view of the query; not in
 *                               information_schema.tables, as in PostgreSQL)
 *   catalog rels   relkind 'r' in pg_catalog, 'v' in information_schema
 * OIDs: schemas pg_catalog 11, public 2200, information_schema
 * PGCAT_OID_INFO_SCHEMA; the connected role 10; the database 1; a sluice
 * object PGCAT_OID_USER_BASE + its catalog row id; catalog relations
 * PGCAT_OID_SYSTEM_BASE + their index; types their PostgreSQL OIDs. */
#ifndef SL_PGCATALOG_H
#define SL_PGCATALOG_H

#include "planner/relation.h"
#include "server/server.h"

struct sess;

#define PGCAT_OID_PG_CATALOG 11
#define PGCAT_OID_PUBLIC 2200
#define PGCAT_OID_INFO_SCHEMA 13000
#define PGCAT_OID_ROLE 10
#define PGCAT_OID_DATABASE 1
#define PGCAT_OID_SYSTEM_BASE 12000
#define PGCAT_OID_USER_BASE 16384

/* Who is asking: the catalog relations show the connected role and database. */
typedef struct pgcat_session {
    srv_t *srv;
    struct sess *sess; /* NULL: no session (a continuous query's binder, which only
                                     learns the relations exist to refuse them): no rows */
    const char *user;
    const char *database;
} pgcat_session_t;

/* plan_catalog_t.lookup_system (sys_ctx is a pgcat_session_t): describes
 * the relation and builds its rows in `a`. 1 found, 0 not, -1 error. */
int pgcat_lookup(void *sys_ctx, const char *schema, const char *name, sl_arena_t *a,
                 plan_relation_t *out, sl_error_t *err);
/* Fills the system lookups of `cat` (lookup_system, regclass, sys_ctx = s). */
void pgcat_plan_catalog(pgcat_session_t *s, plan_catalog_t *cat);
/* The OID of a relation named `name` as 'name'::regclass resolves it
 * (pg_catalog first, then public; "schema.name" qualified), or 0. */
int64_t pgcat_regclass(const pgcat_session_t *s, const char *name, sl_arena_t *a);
/* pgcat_regclass as plan_catalog_t.regclass. */
int64_t pgcat_regclass_cb(void *sys_ctx, const char *name, sl_arena_t *a);

#endif
