/* Internals of the catalog relations (server/pgcatalog*.c): the relation
 * table, the row generator the fill functions write through, and the list
 * of sluice's objects as the relations show them. */
#ifndef SL_PGCATALOG_INT_H
#define SL_PGCATALOG_INT_H

#include "model/batch.h"
#include "server/catalog.h"
#include "server/pgcatalog.h"

typedef struct pgcat_gen pgcat_gen_t;

/* One relation. `cols` is its column list, "name:t name:t ...", with the
 * type letters: o oid, i int4, h int2, l int8 (all integers), b boolean,
 * t text or name, c "char", a an array or vector (shown in its text form),
 * f float4, x timestamptz, n a nullable int4 (information_schema's
 * cardinal_number). Unset cells are 0 or false, text and n NULL. */
typedef struct pgcat_rel {
    const char *schema;
    const char *name;
    const char *cols;
    void (*fill)(pgcat_gen_t *g); /* NULL: the relation is empty */
} pgcat_rel_t;

/* The relation table (pgcatalog_rels.c). */
int pgcat_rel_count(void);
const pgcat_rel_t *pgcat_rel_at(int i);

/* A sluice object as the catalog relations show it. */
typedef struct pgcat_object {
    cat_entry_t entry;
    plan_relation_t rel; /* its columns */
    int64_t oid;
    char relkind; /* 'r' table, 'v' stream, 'm' query table */
} pgcat_object_t;

/* Generator state: the relation being built, the session asking, and the
 * objects (listed once per generator). */
struct pgcat_gen {
    const pgcat_session_t *sess;
    sl_arena_t *a;
    const pgcat_rel_t *rel;
    int ncols;
    const char **names;
    char *kinds; /* type letters */
    exec_type_t *types;
    exec_value_t *cells; /* the row being built */
    int in_row;
    exec_builder_t bld;
    int nobjects; /* -1 until listed */
    pgcat_object_t *objects;
};

/* Starts a row: every column 0, false or NULL until set. */
void pgcat_row(pgcat_gen_t *g);
/* Sets a column of the current row by name (text is copied; NULL sets
 * NULL). */
void pgcat_text(pgcat_gen_t *g, const char *col, const char *v);
void pgcat_int(pgcat_gen_t *g, const char *col, int64_t v);
void pgcat_bool(pgcat_gen_t *g, const char *col, int v);
/* sluice's relations: streams, tables and queries with a memory sink. */
int pgcat_objects(pgcat_gen_t *g, pgcat_object_t **out);
/* The sluice type that holds a column of type letter k. */
exec_type_t pgcat_kind_type(char k);

/* Fill functions (pgcatalog_pg.c, pgcatalog_info.c). */
void pgcat_fill_namespace(pgcat_gen_t *g);
void pgcat_fill_class(pgcat_gen_t *g);
void pgcat_fill_attribute(pgcat_gen_t *g);
void pgcat_fill_type(pgcat_gen_t *g);
void pgcat_fill_database(pgcat_gen_t *g);
void pgcat_fill_roles(pgcat_gen_t *g);
void pgcat_fill_user(pgcat_gen_t *g);
void pgcat_fill_authid(pgcat_gen_t *g);
void pgcat_fill_settings(pgcat_gen_t *g);
void pgcat_fill_prepared_statements(pgcat_gen_t *g);
void pgcat_fill_proc(pgcat_gen_t *g);
void pgcat_fill_collation(pgcat_gen_t *g);
void pgcat_fill_tablespace(pgcat_gen_t *g);
void pgcat_fill_language(pgcat_gen_t *g);
void pgcat_fill_tables(pgcat_gen_t *g);
void pgcat_fill_views(pgcat_gen_t *g);
void pgcat_fill_matviews(pgcat_gen_t *g);
void pgcat_fill_info_schemata(pgcat_gen_t *g);
void pgcat_fill_info_tables(pgcat_gen_t *g);
void pgcat_fill_info_columns(pgcat_gen_t *g);
void pgcat_fill_info_views(pgcat_gen_t *g);

#endif
