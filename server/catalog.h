/* The catalog: every stream, table and query, kept in SQLite at
 * <data_directory>/catalog.db (WAL mode) so it survives restarts.
 *
 * Like SQLite's own sqlite_schema, an object is stored as the CREATE
 * statement that made it; whoever needs its columns or options re-parses
 * that text, so the statement is the single source of truth. Names share one
 * namespace (as PostgreSQL relations do) and are stored case-folded unless
 * they were quoted. Dependencies (a query on a stream, a join on a table) are
 * recorded so that DROP can refuse while something depends on an object.
 * All functions are thread-safe (one connection behind a mutex). */
#ifndef SL_CATALOG_H
#define SL_CATALOG_H

#include <stdint.h>

#include "common/arena.h"
#include "common/sl_error.h"

typedef struct cat cat_t;

typedef enum { CAT_STREAM = 1, CAT_TABLE = 2, CAT_QUERY = 3 } cat_kind_t;

typedef struct cat_entry {
    cat_kind_t kind;
    const char *name;
    const char *sql;    /* the CREATE statement as the user wrote it */
    const char *state;  /* queries: desired state ("ACTIVE", "STOPPED", "FINISHED"); else "" */
    int64_t created_at; /* microseconds since the epoch */
    int64_t version;    /* bumped by cat_touch() (table data changes) */
    int64_t id;         /* the object's row id, > 0, never reused while it exists (the
                               catalog relations' OIDs derive from it) */
} cat_entry_t;

/* Opens (creating if needed) <dir>/catalog.db. */
cat_t *cat_open(const char *dir, sl_error_t *err);
void cat_close(cat_t *c);
/* "stream", "table", "query". */
const char *cat_kind_name(cat_kind_t kind);

/* Adds an object; 42P07 when the name is taken (by any kind), 42P01 when a
 * dependency does not exist. `deps` are names the object reads. */
int cat_create(cat_t *c, cat_kind_t kind, const char *name, const char *sql, const char *state,
               const char *const *deps, int ndeps, sl_error_t *err);
/* Removes an object of that kind; 42P01 if unknown, 42809 if the name is
 * another kind, 2BP01 (naming the dependents) while something depends on it. */
int cat_drop(cat_t *c, cat_kind_t kind, const char *name, sl_error_t *err);
/* Finds an object; returns 1 and fills `out` (strings in `a`) or 0. */
int cat_lookup(cat_t *c, const char *name, sl_arena_t *a, cat_entry_t *out);
/* Every object of one kind (0 = all kinds) ordered by name; returns the count. */
int cat_list(cat_t *c, cat_kind_t kind, sl_arena_t *a, cat_entry_t **out);
/* Sets a query's desired state. */
int cat_set_state(cat_t *c, const char *name, const char *state, sl_error_t *err);
/* Bumps an object's version (a static table's rows changed). */
int cat_touch(cat_t *c, const char *name, sl_error_t *err);
/* Replaces an object's statement text (ALTER: the CREATE statement with the
 * change applied). */
int cat_set_sql(cat_t *c, const char *name, const char *sql, sl_error_t *err);
/* The names of the objects that depend on `name` (queries reading a
 * stream), sorted, into `a`; returns their count. */
int cat_dependents(cat_t *c, const char *name, sl_arena_t *a, const char ***out);

#endif
