/* The prepared statements of a session: one namespace for the statements
 * the extended protocol's Parse creates and those of SQL's PREPARE, as in
 * PostgreSQL (Bind and SQL's EXECUTE run either kind; Close and DEALLOCATE
 * drop either kind). The session owns the list; pgwire reads and changes it
 * on the loop thread between submissions, the PREPARE/EXECUTE/DEALLOCATE
 * statements on the worker that runs them. */
#ifndef SL_PREPARED_H
#define SL_PREPARED_H

#include <stddef.h>
#include <stdint.h>

#include "server/session.h"

/* A prepared statement: its text and what describing it learnt. */
typedef struct prep_stmt {
    char *name; /* "" = the unnamed statement (the protocol's only) */
    char *sql;
    size_t len;
    int ntypes; /* parameter types declared (0 = unspecified) */
    uint32_t *types;
    int nparams;        /* max(ntypes, highest $n) */
    uint32_t *inferred; /* nparams OIDs sluice inferred for undeclared $n (0 = none) */
    int ncols;          /* -1: no rows (NoData) */
    sess_col_t *cols;   /* names point into the same allocation */
    int from_sql;       /* made by PREPARE (else by Parse) */
    char
        *statement; /* the text pg_prepared_statements shows: the whole PREPARE, or Parse's query */
    int64_t prepare_time; /* microseconds since the epoch (UTC) */
    struct prep_stmt *next;
} prep_stmt_t;

typedef struct prep_list {
    prep_stmt_t *first;
} prep_list_t;

prep_stmt_t *prep_find(prep_list_t *l, const char *name);
/* A new statement `name` of text sql[0..len), prepared now, with room for
 * `ntypes` declared types (all 0); the other fields are the caller's. */
prep_stmt_t *prep_new(const char *name, const char *sql, size_t len, int ntypes);
/* Adds `s` (its name not yet in the list); the list owns it from now on. */
void prep_add(prep_list_t *l, prep_stmt_t *s);
/* Drops the statement `name`; -1 when there is none. */
int prep_drop(prep_list_t *l, const char *name);
/* Drops every named statement (DEALLOCATE ALL, DISCARD ALL). */
void prep_drop_named(prep_list_t *l);
/* Drops every statement (the session ends). */
void prep_clear(prep_list_t *l);
void prep_free(prep_stmt_t *s);
/* Copies the columns of a ROWS result into one allocation owned by `s`. */
void prep_keep_columns(prep_stmt_t *s, int ncols, const sess_col_t *cols);

/* The session's prepared statements. Loop thread between submissions, or
 * the statement running in the session. */
prep_list_t *sess_prepared(sess_t *s);

#endif
