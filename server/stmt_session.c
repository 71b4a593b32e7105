/* Session commands: BEGIN/COMMIT/ROLLBACK (accepted, there are no
 * transactions), SET/RESET/DISCARD, and SHOW of a setting — the session
 * parameters drivers ask for, and the daemon's configuration keys. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/version.h"
#include "server/stmt_int.h"

/* Session parameters with their defaults (PostgreSQL's names, lower case). */
static const struct {
    const char *name;
    const char *value;
    const char *doc;
} session_params[] = {
    {"application_name", "", "Name of the client application."},
    {"client_encoding", "UTF8", "Client character set (always UTF8)."},
    {"datestyle", "ISO, MDY", "Display format of dates and times."},
    {"integer_datetimes", "on", "Timestamps are 64-bit integers."},
    {"intervalstyle", "postgres", "Display format of intervals."},
    {"is_superuser", "on", "Every user may do everything."},
    {"max_identifier_length", "63", "Longest identifier."},
    {"search_path", "public", "Accepted for compatibility; there are no schemas."},
    {"server_encoding", "UTF8", "Server character set."},
    {"server_version", SL_PG_SERVER_VERSION, "Protocol-compatible PostgreSQL version."},
    {"server_version_num", SL_PG_SERVER_VERSION_NUM, "server_version as a number."},
    {"standard_conforming_strings", "on", "Backslashes are literal in strings."},
    {"timezone", "UTC", "Time zone of timestamps (always UTC)."},
    {"transaction_isolation", "read committed", "Accepted for compatibility."},
};
#define NPARAMS (sizeof session_params / sizeof session_params[0])

/* Config keys that SHOW must not reveal. */
static int is_secret(const char *key)
{
    return !strcmp(key, "http_token");
}

STMT_HANDLER(stmt_transaction)
{
    (void)ctx;
    (void)err;
    stmt_result_command(res, stmt->kind == AST_STMT_BEGIN    ? "BEGIN"
                             : stmt->kind == AST_STMT_COMMIT ? "COMMIT"
                                                             : "ROLLBACK");
    return 0;
}

static int param_index(const char *name)
{
    for (size_t i = 0; i < NPARAMS; i++)
        if (!strcasecmp(session_params[i].name, name)) return (int)i;
    return -1;
}

/* The text of a SET value list: literals joined with ", ". */
static const char *set_value_text(stmt_ctx_t *ctx, const ast_set_stmt_t *set)
{
    sl_buf_t b = SL_BUF_INIT;
    for (int i = 0; i < set->values.n; i++) {
        const ast_expr_t *v = set->values.items[i];
        const char *text = v->text ? v->text
                           : v->kind == AST_EXPR_COLUMN ? v->names.items[0]->name : "";
        sl_buf_printf(&b, "%s%s", i ? ", " : "", text);
    }
    const char *out = sl_strdup(ctx->arena, b.data ? b.data : "");
    sl_buf_free(&b);
    return out;
}

STMT_HANDLER(stmt_set)
{
    const ast_set_stmt_t *set = &stmt->set;
    if (stmt->kind == AST_STMT_DISCARD) {
        stmt_result_command(res, "DISCARD ALL");
        return 0;
    }
    if (stmt->kind == AST_STMT_RESET) {
        if (strcmp(set->name, "all")) {
            int i = param_index(set->name);
            if (i >= 0) sess_setting_set(ctx->sess, set->name, session_params[i].value);
        }
        stmt_result_command(res, "RESET");
        return 0;
    }
    const char *value = set->is_default ? NULL : set_value_text(ctx, set);
    int i = param_index(set->name);
    if (i < 0 && !strchr(set->name, '.'))
        return stmt_error_at(err, stmt->pos, SL_ERR_UNDEFINED_OBJECT,
                             "unrecognized configuration parameter \"%s\"", set->name);
    if (!strcasecmp(set->name, "timezone") && value && strcasecmp(value, "UTC") &&
        strcasecmp(value, "GMT") && strcmp(value, "0")) {
        stmt_error_at(err, stmt->pos, SL_ERR_FEATURE_NOT_SUPPORTED,
                      "time zone \"%s\" is not supported", value);
        return sl_error_hint(err, "sluice keeps every timestamp in UTC.");
    }
    sess_setting_set(ctx->sess, set->name, value ? value : i >= 0 ? session_params[i].value : "");
    stmt_result_command(res, "SET");
    return 0;
}

static void show_all(stmt_ctx_t *ctx, sess_result_t *res)
{
    const char *names[] = {"name", "setting", "description"};
    stmt_result_columns(ctx, res, 3, names, NULL);
    for (size_t i = 0; i < NPARAMS; i++) {
        const char *v = sess_setting_get(ctx->sess, session_params[i].name);
        const char *row[] = {session_params[i].name, v ? v : session_params[i].value,
                             session_params[i].doc};
        stmt_result_row(res, row);
    }
}

/* SHOW name: a session parameter, then a configuration key of the daemon. */
int stmt_show_variable(stmt_ctx_t *ctx, const ast_stmt_t *stmt, sess_result_t *res,
                       sl_error_t *err)
{
    const char *name = stmt->show.name->name;
    if (!strcmp(name, "all")) {
        show_all(ctx, res);
        return 0;
    }
    const char *value = sess_setting_get(ctx->sess, name);
    int i = param_index(name);
    char tmp[64];
    if (!value && i >= 0) value = session_params[i].value;
    if (!value && !is_secret(name)) value = conf_get_text(ctx->srv->conf, name, tmp, sizeof tmp);
    if (!value)
        return stmt_error_at(err, stmt->show.name->pos, SL_ERR_UNDEFINED_OBJECT,
                             "unrecognized configuration parameter \"%s\"", name);
    const char *names[] = {name};
    stmt_result_columns(ctx, res, 1, names, NULL);
    const char *row[] = {value};
    stmt_result_row(res, row);
    snprintf(res->tag, sizeof res->tag, "SHOW");
    return 0;
}

/* ---- settings as rows (pg_catalog.pg_settings) ---- */

void stmt_session_settings(sess_t *s, stmt_setting_cb row, void *arg)
{
    for (size_t i = 0; i < NPARAMS; i++) {
        const char *v = sess_setting_get(s, session_params[i].name);
        row(arg, session_params[i].name, v ? v : session_params[i].value, session_params[i].doc);
    }
}
