/* The statement handlers (one per family of statements, in stmt_*.c) and
 * helpers they share. Internal to server/. */
#ifndef SL_STMT_INT_H
#define SL_STMT_INT_H

#include "server/stmt.h"

#define STMT_HANDLER(name) \
    int name(stmt_ctx_t *ctx, const ast_stmt_t *stmt, sess_result_t *res, sl_error_t *err)

STMT_HANDLER(stmt_select);
STMT_HANDLER(stmt_create_stream);
STMT_HANDLER(stmt_create_table);
STMT_HANDLER(stmt_create_query);
STMT_HANDLER(stmt_drop);
STMT_HANDLER(stmt_alter);
STMT_HANDLER(stmt_insert);
STMT_HANDLER(stmt_delete);
STMT_HANDLER(stmt_show);
STMT_HANDLER(stmt_describe);
STMT_HANDLER(stmt_explain);
STMT_HANDLER(stmt_start_query);
STMT_HANDLER(stmt_stop_query);
STMT_HANDLER(stmt_await_query);
STMT_HANDLER(stmt_transaction);
STMT_HANDLER(stmt_set);
STMT_HANDLER(stmt_drop_query);
STMT_HANDLER(stmt_copy);
STMT_HANDLER(stmt_prepare);
STMT_HANDLER(stmt_execute_prepared);
STMT_HANDLER(stmt_deallocate);
int stmt_show_queries(stmt_ctx_t *ctx, const ast_stmt_t *stmt, sess_result_t *res, sl_error_t *err);
int stmt_show_progress(stmt_ctx_t *ctx, const ast_stmt_t *stmt, sess_result_t *res,
                       sl_error_t *err);
/* SHOW name / SHOW ALL (stmt_session.c). */
int stmt_show_variable(stmt_ctx_t *ctx, const ast_stmt_t *stmt, sess_result_t *res,
                       sl_error_t *err);
struct cat_entry;
int stmt_describe_query(stmt_ctx_t *ctx, const struct cat_entry *e, sess_result_t *res,
                        sl_error_t *err);

/* The transaction rules, before any statement runs: 25P02 in a failed
 * block (but ROLLBACK and COMMIT), 25001 for the statements a block cannot
 * hold (stream and query statements). */
int stmt_txn_check(stmt_ctx_t *ctx, const ast_stmt_t *stmt, sl_error_t *err);
struct plan_settings;
/* The session settings current_setting() and set_config() reach (in ctx->arena). */
const struct plan_settings *stmt_settings(stmt_ctx_t *ctx);

/* Sets err with a position at byte offset `byte_pos` of the statement text. Returns -1. */
int stmt_error_at(sl_error_t *err, int byte_pos, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

struct plan_relation;
/* The catalog-stored table `id` names (described into rel), or an error
 * saying why rows cannot be added ("cannot <verb> stream ..."). */
int stmt_writable_table(stmt_ctx_t *ctx, const ast_ident_t *id, const char *verb,
                        struct plan_relation *rel, sl_error_t *err);

/* Sets err->position (1-based bytes) when unset; returns -1. */
int bind_error_at(sl_error_t *err, int pos);

struct plan_physical;
struct exec_result;
struct plan_catalog;
struct plan_ctx;
/* The binder context of a batch statement: the catalog (filled into `cat`),
 * the statement's parameters, and a runner for its subqueries. */
void stmt_plan_ctx(stmt_ctx_t *ctx, struct plan_catalog *cat, struct plan_ctx *pc);
/* Binds and plans a SELECT for batch execution (SELECT, INSERT ... SELECT). */
struct plan_physical *stmt_plan_select(stmt_ctx_t *ctx, const ast_select_t *q, sl_error_t *err);
/* Runs a batch plan on the task pool; the caller frees the result. */
int stmt_run_plan(stmt_ctx_t *ctx, const struct plan_physical *p, struct exec_result *out,
                  sl_error_t *err);

#endif
