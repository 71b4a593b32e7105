/* Statement dispatch: one handler per statement kind, and the helpers that
 * handlers use to fill results. */
#include "server/stmt.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "server/stmt_int.h"

typedef int (*stmt_handler_fn)(stmt_ctx_t *ctx, const ast_stmt_t *stmt, sess_result_t *res,
                               sl_error_t *err);

static const stmt_handler_fn handlers[AST_STMT__COUNT] = {
    [AST_STMT_CREATE_STREAM] = stmt_create_stream,
    [AST_STMT_CREATE_TABLE] = stmt_create_table,
    [AST_STMT_SELECT] = stmt_select,
    [AST_STMT_INSERT] = stmt_insert,
    [AST_STMT_DELETE] = stmt_delete,
    [AST_STMT_DROP] = stmt_drop,
    [AST_STMT_ALTER] = stmt_alter,
    [AST_STMT_CREATE_QUERY] = stmt_create_query,
    [AST_STMT_EXPLAIN] = stmt_explain,
    [AST_STMT_START_QUERY] = stmt_start_query,
    [AST_STMT_STOP_QUERY] = stmt_stop_query,
    [AST_STMT_AWAIT_QUERY] = stmt_await_query,
    [AST_STMT_SHOW] = stmt_show,
    [AST_STMT_DESCRIBE] = stmt_describe,
    [AST_STMT_BEGIN] = stmt_transaction,
    [AST_STMT_COMMIT] = stmt_transaction,
    [AST_STMT_ROLLBACK] = stmt_transaction,
    [AST_STMT_SAVEPOINT] = stmt_transaction,
    [AST_STMT_RELEASE] = stmt_transaction,
    [AST_STMT_SET_TRANSACTION] = stmt_transaction,
    [AST_STMT_SET] = stmt_set,
    [AST_STMT_RESET] = stmt_set,
    [AST_STMT_DISCARD] = stmt_set,
    [AST_STMT_COPY] = stmt_copy,
    [AST_STMT_PREPARE] = stmt_prepare,
    [AST_STMT_EXECUTE] = stmt_execute_prepared,
    [AST_STMT_DEALLOCATE] = stmt_deallocate,
};

int stmt_execute(stmt_ctx_t *ctx, const ast_stmt_t *stmt, sess_result_t *res, sl_error_t *err)
{
    stmt_handler_fn fn = (unsigned)stmt->kind < AST_STMT__COUNT ? handlers[stmt->kind] : NULL;
    if (!fn) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED, "%s is not supported",
                     ast_stmt_kind_name(stmt->kind));
        err->position = stmt->pos + 1;
        return -1;
    }
    if (stmt_txn_check(ctx, stmt, err) < 0) return -1;
    return fn(ctx, stmt, res, err);
}

int stmt_error_at(sl_error_t *err, int byte_pos, const char *sqlstate, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sl_error_setv(err, sqlstate, fmt, ap);
    va_end(ap);
    err->position = byte_pos + 1;
    return -1;
}

void stmt_result_command(sess_result_t *res, const char *tag)
{
    res->kind = SESS_RES_COMMAND;
    snprintf(res->tag, sizeof res->tag, "%s", tag);
}

void stmt_result_columns(stmt_ctx_t *ctx, sess_result_t *res, int ncols, const char *const *names,
                         const uint32_t *oids)
{
    res->kind = SESS_RES_ROWS;
    res->ncols = ncols;
    res->cols = SL_NEW_ARRAY(ctx->reply_arena, sess_col_t, ncols);
    for (int i = 0; i < ncols; i++) {
        res->cols[i].name = sl_strdup(ctx->reply_arena, names[i]);
        res->cols[i].type_oid = oids ? oids[i] : PG_OID_TEXT;
        res->cols[i].type_mod = -1;
        switch (res->cols[i].type_oid) {
        case PG_OID_BOOL: res->cols[i].type_len = 1; break;
        case PG_OID_INT4: res->cols[i].type_len = 4; break;
        case PG_OID_INT8:
        case PG_OID_FLOAT8:
        case PG_OID_TIMESTAMP: res->cols[i].type_len = 8; break;
        case PG_OID_DATE: res->cols[i].type_len = 4; break;
        case PG_OID_INTERVAL: res->cols[i].type_len = 16; break;
        default: res->cols[i].type_len = -1;
        }
    }
    stmt_result_select_tag(res);
}

void stmt_result_row(sess_result_t *res, const char *const *vals)
{
    sess_result_add_row(res, res->ncols, vals, NULL);
    stmt_result_select_tag(res);
}

void stmt_result_select_tag(sess_result_t *res)
{
    snprintf(res->tag, sizeof res->tag, "SELECT %llu", (unsigned long long)res->nrows);
}

/* Appends a notice with the given SQLSTATE (00000 = NOTICE, else WARNING). */
static void result_notice_v(stmt_ctx_t *ctx, sess_result_t *res, const char *sqlstate,
                            const char *fmt, va_list ap)
{
    sl_error_t *grown = SL_NEW_ARRAY(ctx->reply_arena, sl_error_t, res->nnotices + 1);
    if (res->nnotices) memcpy(grown, res->notices, sizeof *grown * (size_t)res->nnotices);
    sl_error_setv(&grown[res->nnotices], sqlstate, fmt, ap);
    res->notices = grown;
    res->nnotices++;
}

void stmt_result_notice(stmt_ctx_t *ctx, sess_result_t *res, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    result_notice_v(ctx, res, SL_ERR_SUCCESS, fmt, ap);
    va_end(ap);
}

void stmt_result_warning(stmt_ctx_t *ctx, sess_result_t *res, const char *sqlstate, const char *fmt,
                         ...)
{
    va_list ap;
    va_start(ap, fmt);
    result_notice_v(ctx, res, sqlstate, fmt, ap);
    va_end(ap);
}
