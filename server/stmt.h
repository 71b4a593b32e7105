/* Statement execution: the session hands each parsed statement to
 * stmt_execute(), which dispatches on its kind to one handler (stmt_*.c, one
 * file per family: DDL, SHOW/DESCRIBE, queries, SELECT, session commands).
 * Handlers run on a worker thread and fill a sess_result_t. */
#ifndef SL_STMT_H
#define SL_STMT_H

#include <stdatomic.h>

#include "common/arena.h"
#include "common/sl_error.h"
#include "model/types.h"
#include "parser/parser.h"
#include "server/server.h"
#include "server/session.h"

typedef struct stmt_ctx {
    srv_t *srv;
    sess_t *sess;
    sl_arena_t *arena;       /* statement lifetime: reset after each statement */
    sl_arena_t *reply_arena; /* lives as long as the reply (column names, tags) */
    const char *sql;         /* the whole submission text */
    size_t len;
    int nparams;               /* extended protocol parameters ($1..$n), text format */
    const char *const *params; /* NULL entry = SQL NULL */
    const int *param_lens;
    const uint32_t *param_types; /* NULL, or nparams declared type OIDs (0 = undeclared) */
    exec_type_t *param_inferred; /* describe_only: nparams types inferred for undeclared $n */
    atomic_int *cancel;          /* set when the client asked to cancel */
    int describe_only;           /* fill columns only; run nothing */
    /* Set by AWAIT QUERY: the session pauses after this statement until the
     * query manager says the query caught up (or ended), then resumes. */
    const char *await_query;  /* in arena */
    int64_t await_timeout_ms; /* -1: none */
    int exec_depth;           /* EXECUTEs this statement runs inside (stmt_prepare.c) */
} stmt_ctx_t;

/* Runs one statement into `res`. On error returns -1 with err filled; a
 * position in err counts 1-based BYTES of ctx->sql (the session converts it
 * to characters). */
int stmt_execute(stmt_ctx_t *ctx, const ast_stmt_t *stmt, sess_result_t *res, sl_error_t *err);

/* Result helpers for handlers. */
void stmt_result_command(sess_result_t *res, const char *tag);
/* Declares the columns of a ROWS result; names are copied into the reply arena. */
void stmt_result_columns(stmt_ctx_t *ctx, sess_result_t *res, int ncols, const char *const *names,
                         const uint32_t *oids);
/* Adds a row of text values (NULL = SQL NULL) to a ROWS result. */
void stmt_result_row(sess_result_t *res, const char *const *vals);
/* Adds a notice (severity NOTICE, SQLSTATE 00000) shown before the result. */
void stmt_result_notice(stmt_ctx_t *ctx, sess_result_t *res, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Adds a warning (severity WARNING, the given SQLSTATE) shown before the result. */
void stmt_result_warning(stmt_ctx_t *ctx, sess_result_t *res, const char *sqlstate, const char *fmt,
                         ...) __attribute__((format(printf, 4, 5)));
/* Sets the tag "SELECT n" from the row count. */
void stmt_result_select_tag(sess_result_t *res);

struct guc;
struct txn;
/* The session's settings and transaction state, for statement handlers. */
struct guc *sess_guc(sess_t *s);
struct txn *sess_txn(sess_t *s);
/* A COPY FROM load (server/copy_in.h) uses the session's transaction
 * after its statement's reply: from sess_copy_begin (in the statement)
 * until sess_copy_end (loop thread, between submissions or while the
 * session closes), sess_close leaves the freeing to sess_copy_end. With
 * `open`, the COPY statement had not ended (its data never came): outside
 * a block its write transaction is rolled back. */
void sess_copy_begin(sess_t *s);
void sess_copy_end(sess_t *s, int open);

/* The session's settings as SHOW ALL lists them, one call of `row` each
 * (pg_catalog.pg_settings reads them through this). */
typedef void (*stmt_setting_cb)(void *arg, const char *name, const char *setting, const char *doc);
void stmt_session_settings(sess_t *s, stmt_setting_cb row, void *arg);

#endif
