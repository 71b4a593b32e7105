/* Session commands: transaction control (BEGIN, COMMIT, ROLLBACK,
 * SAVEPOINT, RELEASE, ROLLBACK TO, SET TRANSACTION) over the session's
 * server/txn.h state, SET/RESET and SHOW over its server/guc.h settings
 * (then the daemon's configuration keys), DISCARD ALL (the settings and the
 * prepared statements), the rules of what may run in a transaction block,
 * and the settings that current_setting() and set_config() reach.
 * Messages and SQLSTATEs are PostgreSQL's (xact.c, guc.c). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "planner/plan.h"
#include "server/guc.h"
#include "server/prepared.h"
#include "server/stmt_int.h"
#include "server/txn.h"

/* Config keys that SHOW must not reveal. */
static int is_secret(const char *key)
{
    return !strcmp(key, "http_token");
}

static int in_block(stmt_ctx_t *ctx)
{
    return txn_state(sess_txn(ctx->sess)) != TXN_IDLE;
}

/* ---- what may run where -------------------------------------------------------- */

/* Statements with effects outside the table store, which a block could not
 * undo: the name PostgreSQL-style messages give them, or NULL. */
static const char *not_in_block(const ast_stmt_t *stmt)
{
    switch (stmt->kind) {
    case AST_STMT_CREATE_STREAM: return "CREATE STREAM";
    case AST_STMT_CREATE_QUERY: return "CREATE QUERY";
    case AST_STMT_START_QUERY: return "START QUERY";
    case AST_STMT_STOP_QUERY: return "STOP QUERY";
    case AST_STMT_DISCARD: return "DISCARD ALL";
    case AST_STMT_ALTER:
        return stmt->alter.object == AST_OBJ_STREAM ? "ALTER STREAM" : "ALTER QUERY";
    case AST_STMT_DROP:
        return stmt->drop.object == AST_OBJ_STREAM  ? "DROP STREAM"
               : stmt->drop.object == AST_OBJ_QUERY ? "DROP QUERY"
                                                    : NULL;
    default: return NULL;
    }
}

int stmt_txn_check(stmt_ctx_t *ctx, const ast_stmt_t *stmt, sl_error_t *err)
{
    txn_t *t = sess_txn(ctx->sess);
    if (txn_state(t) == TXN_FAILED && stmt->kind != AST_STMT_ROLLBACK &&
        stmt->kind != AST_STMT_COMMIT)
        return sl_error_set(err, SL_ERR_IN_FAILED_SQL_TRANSACTION,
                            "current transaction is aborted, commands ignored until end of "
                            "transaction block");
    if (txn_state(t) == TXN_IDLE || ctx->describe_only) return 0;
    const char *what = not_in_block(stmt);
    if (what) {
        sl_error_set(err, SL_ERR_ACTIVE_SQL_TRANSACTION, "%s cannot run inside a transaction block",
                     what);
        return sl_error_hint(err, "COMMIT or ROLLBACK first, or turn autocommit on in the client.");
    }
    return 0;
}

/* ---- transaction control ---------------------------------------------------------- */

static void warn_no_transaction(stmt_ctx_t *ctx, sess_result_t *res)
{
    stmt_result_warning(ctx, res, SL_ERR_NO_ACTIVE_SQL_TRANSACTION,
                        "there is no transaction in progress");
}

static int begin_block(stmt_ctx_t *ctx, const ast_stmt_t *stmt, sess_result_t *res)
{
    txn_t *t = sess_txn(ctx->sess);
    if (txn_state(t) != TXN_IDLE)
        stmt_result_warning(ctx, res, SL_ERR_ACTIVE_SQL_TRANSACTION,
                            "there is already a transaction in progress");
    else txn_begin(t, stmt->txn.isolation, stmt->txn.read_only, stmt->txn.deferrable);
    stmt_result_command(res, "BEGIN");
    return 0;
}

static int commit_block(stmt_ctx_t *ctx, sess_result_t *res, sl_error_t *err)
{
    txn_t *t = sess_txn(ctx->sess);
    if (txn_state(t) == TXN_IDLE) {
        warn_no_transaction(ctx, res);
        stmt_result_command(res, "COMMIT");
        return 0;
    }
    int rc = txn_commit(t, err);
    if (rc < 0) return -1;
    stmt_result_command(res, rc == 1 ? "ROLLBACK" : "COMMIT");
    return 0;
}

/* The savepoint a ROLLBACK TO or RELEASE names, or -1 with err. */
static int named_savepoint(stmt_ctx_t *ctx, const ast_stmt_t *stmt, const char *what,
                           sl_error_t *err)
{
    txn_t *t = sess_txn(ctx->sess);
    const ast_ident_t *name = stmt->txn.savepoint;
    if (txn_state(t) == TXN_IDLE)
        return sl_error_set(err, SL_ERR_NO_ACTIVE_SQL_TRANSACTION,
                            "%s can only be used in transaction blocks", what);
    int level = txn_find_savepoint(t, name->name);
    if (level < 0)
        return sl_error_set(err, SL_ERR_INVALID_SAVEPOINT_SPECIFICATION,
                            "savepoint \"%s\" does not exist", name->name);
    return level;
}

static int rollback_block(stmt_ctx_t *ctx, const ast_stmt_t *stmt, sess_result_t *res,
                          sl_error_t *err)
{
    txn_t *t = sess_txn(ctx->sess);
    if (stmt->txn.savepoint) {
        int level = named_savepoint(ctx, stmt, "ROLLBACK TO SAVEPOINT", err);
        if (level < 0 || txn_rollback_to(t, level, err) < 0) return -1;
    } else if (txn_state(t) == TXN_IDLE) {
        warn_no_transaction(ctx, res);
    } else {
        txn_rollback(t);
    }
    stmt_result_command(res, "ROLLBACK");
    return 0;
}

static int savepoint_stmt(stmt_ctx_t *ctx, const ast_stmt_t *stmt, sess_result_t *res,
                          sl_error_t *err)
{
    txn_t *t = sess_txn(ctx->sess);
    if (stmt->kind == AST_STMT_SAVEPOINT) {
        if (txn_state(t) == TXN_IDLE)
            return sl_error_set(err, SL_ERR_NO_ACTIVE_SQL_TRANSACTION,
                                "SAVEPOINT can only be used in transaction blocks");
        if (txn_savepoint(t, stmt->txn.savepoint->name, err) < 0) return -1;
        stmt_result_command(res, "SAVEPOINT");
        return 0;
    }
    int level = named_savepoint(ctx, stmt, "RELEASE SAVEPOINT", err);
    if (level < 0 || txn_release(t, level, err) < 0) return -1;
    stmt_result_command(res, "RELEASE");
    return 0;
}

/* SET TRANSACTION (this block) or SET SESSION CHARACTERISTICS AS TRANSACTION
 * (the default_transaction_* settings). */
static int set_transaction(stmt_ctx_t *ctx, const ast_stmt_t *stmt, sess_result_t *res,
                           sl_error_t *err)
{
    const ast_txn_stmt_t *m = &stmt->txn;
    static const struct {
        guc_id_t block, dflt;
    } ids[] = {{GUC_TRANSACTION_ISOLATION, GUC_DEFAULT_TRANSACTION_ISOLATION},
               {GUC_TRANSACTION_READ_ONLY, GUC_DEFAULT_TRANSACTION_READ_ONLY},
               {GUC_TRANSACTION_DEFERRABLE, GUC_DEFAULT_TRANSACTION_DEFERRABLE}};
    const char *vals[] = {m->isolation, m->read_only, m->deferrable};
    stmt_result_command(res, "SET");
    if (!m->session && !in_block(ctx)) {
        stmt_result_warning(ctx, res, SL_ERR_NO_ACTIVE_SQL_TRANSACTION,
                            "SET TRANSACTION can only be used in transaction blocks");
        return 0;
    }
    for (int i = 0; i < 3; i++) {
        if (!vals[i]) continue;
        if (!m->session) guc_txn_property(sess_guc(ctx->sess), ids[i].block, vals[i]);
        else if (guc_set(sess_guc(ctx->sess), guc_name(ids[i].dflt), vals[i], 0, in_block(ctx),
                         err) < 0)
            return -1;
    }
    return 0;
}

STMT_HANDLER(stmt_transaction)
{
    if (ctx->describe_only) {
        stmt_result_command(
            res, stmt->kind == AST_STMT_SET_TRANSACTION ? "SET" : ast_stmt_kind_name(stmt->kind));
        return 0;
    }
    switch (stmt->kind) {
    case AST_STMT_BEGIN: return begin_block(ctx, stmt, res);
    case AST_STMT_COMMIT: return commit_block(ctx, res, err);
    case AST_STMT_ROLLBACK: return rollback_block(ctx, stmt, res, err);
    case AST_STMT_SET_TRANSACTION: return set_transaction(ctx, stmt, res, err);
    default: return savepoint_stmt(ctx, stmt, res, err);
    }
}

/* ---- SET / RESET ------------------------------------------------------------------ */

/* A search_path element as PostgreSQL writes it: quoted unless a plain
 * lower-case name. */
static void put_path_element(sl_buf_t *b, const char *s)
{
    int plain = (*s >= 'a' && *s <= 'z') || *s == '_';
    for (const char *p = s; *p && plain; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_';
    if (plain) {
        sl_buf_puts(b, s);
        return;
    }
    sl_buf_putc(b, '"');
    for (const char *p = s; *p; p++) {
        if (*p == '"') sl_buf_putc(b, '"');
        sl_buf_putc(b, *p);
    }
    sl_buf_putc(b, '"');
}

/* The text of a SET value list: values joined with ", ". */
static const char *set_value_text(stmt_ctx_t *ctx, const ast_set_stmt_t *set)
{
    sl_buf_t b = SL_BUF_INIT;
    int path = !strcasecmp(set->name, "search_path");
    for (int i = 0; i < set->values.n; i++) {
        const ast_expr_t *v = set->values.items[i];
        const char *text = v->text                      ? v->text
                           : v->kind == AST_EXPR_COLUMN ? v->names.items[0]->name
                                                        : "";
        if (i) sl_buf_puts(&b, ", ");
        if (path) put_path_element(&b, text);
        else sl_buf_puts(&b, text);
    }
    const char *out = sl_strdup(ctx->arena, b.data ? b.data : "");
    sl_buf_free(&b);
    return out;
}

/* SET/RESET of one setting; warns where PostgreSQL does. */
static int set_one(stmt_ctx_t *ctx, const ast_stmt_t *stmt, const char *value, int local,
                   sess_result_t *res, sl_error_t *err)
{
    const char *name = stmt->set.name;
    int rc = guc_set(sess_guc(ctx->sess), name, value, local, in_block(ctx), err);
    if (rc < 0) return -1;
    if (rc == 1)
        stmt_result_warning(ctx, res, SL_ERR_NO_ACTIVE_SQL_TRANSACTION,
                            "%s can only be used in transaction blocks",
                            local ? "SET LOCAL" : "SET TRANSACTION");
    return 0;
}

STMT_HANDLER(stmt_set)
{
    const ast_set_stmt_t *set = &stmt->set;
    const char *tag = stmt->kind == AST_STMT_DISCARD ? "DISCARD ALL"
                      : stmt->kind == AST_STMT_RESET ? "RESET"
                                                     : "SET";
    stmt_result_command(res, tag);
    if (ctx->describe_only) return 0;
    if (stmt->kind != AST_STMT_SET && !strcmp(set->name, "all")) {
        guc_reset_all(sess_guc(ctx->sess));
        if (stmt->kind == AST_STMT_DISCARD) prep_drop_named(sess_prepared(ctx->sess));
        return 0;
    }
    if (stmt->kind == AST_STMT_RESET) return set_one(ctx, stmt, NULL, 0, res, err);
    const char *value = set->is_default ? NULL : set_value_text(ctx, set);
    return set_one(ctx, stmt, value, set->scope == AST_SET_LOCAL, res, err);
}

/* ---- SHOW ----------------------------------------------------------------------------- */

static void show_all(stmt_ctx_t *ctx, sess_result_t *res)
{
    const char *names[] = {"name", "setting", "description"};
    stmt_result_columns(ctx, res, 3, names, NULL);
    for (int i = 0; i < GUC__COUNT; i++) {
        const char *row[] = {guc_name((guc_id_t)i), guc_value(sess_guc(ctx->sess), (guc_id_t)i),
                             guc_description((guc_id_t)i)};
        stmt_result_row(res, row);
    }
}

/* SHOW name: a session setting, then a configuration key of the daemon. */
int stmt_show_variable(stmt_ctx_t *ctx, const ast_stmt_t *stmt, sess_result_t *res, sl_error_t *err)
{
    const char *name = stmt->show.name->name;
    if (!strcmp(name, "all")) {
        show_all(ctx, res);
        return 0;
    }
    const char *value = guc_get(sess_guc(ctx->sess), name);
    int id = guc_find(name);
    char tmp[64];
    if (!value && !is_secret(name)) value = conf_get_text(ctx->srv->conf, name, tmp, sizeof tmp);
    if (!value)
        return stmt_error_at(err, stmt->show.name->pos, SL_ERR_UNDEFINED_OBJECT,
                             "unrecognized configuration parameter \"%s\"", name);
    const char *names[] = {id >= 0 ? guc_name((guc_id_t)id) : name};
    stmt_result_columns(ctx, res, 1, names, NULL);
    const char *row[] = {value};
    stmt_result_row(res, row);
    snprintf(res->tag, sizeof res->tag, "SHOW");
    return 0;
}

/* ---- current_setting() and set_config() ------------------------------------------------ */

static int settings_get(void *arg, const char *name, int missing_ok, const char **value,
                        sl_error_t *err)
{
    stmt_ctx_t *ctx = arg;
    *value = guc_get(sess_guc(ctx->sess), name);
    if (*value) return 1;
    if (missing_ok) return 0;
    return sl_error_set(err, SL_ERR_UNDEFINED_OBJECT, "unrecognized configuration parameter \"%s\"",
                        name);
}

static int settings_set(void *arg, const char *name, const char *value, int is_local,
                        const char **out, sl_error_t *err)
{
    stmt_ctx_t *ctx = arg;
    if (guc_set(sess_guc(ctx->sess), name, value, is_local, in_block(ctx), err) < 0) return -1;
    *out = sl_strdup(ctx->arena, guc_get(sess_guc(ctx->sess), name));
    return 0;
}

const plan_settings_t *stmt_settings(stmt_ctx_t *ctx)
{
    plan_settings_t *s = SL_NEW(ctx->arena, plan_settings_t);
    *s = (plan_settings_t){ctx, settings_get, settings_set};
    return s;
}

/* ---- settings as rows (pg_catalog.pg_settings) ---- */

void stmt_session_settings(sess_t *s, stmt_setting_cb row, void *arg)
{
    for (int i = 0; i < GUC__COUNT; i++)
        row(arg, guc_name((guc_id_t)i), guc_value(sess_guc(s), (guc_id_t)i),
            guc_description((guc_id_t)i));
}
