/* SHOW STREAMS / SHOW TABLES / SHOW <setting> and DESCRIBE of streams and
 * tables. Query listings (SHOW QUERIES, SHOW [RECENT] PROGRESS, DESCRIBE of
 * a query) are in stmt_query_show.c. */
#include <stdio.h>
#include <string.h>

#include "common/redact.h"
#include "model/text_io.h"
#include "server/catalog.h"
#include "server/objects.h"
#include "server/stmt_int.h"

/* "a INT, b STRING" */
static const char *columns_text(stmt_ctx_t *ctx, const plan_relation_t *r)
{
    sl_buf_t b = SL_BUF_INIT;
    for (int i = 0; i < r->stream.ncols; i++) {
        sl_buf_printf(&b, "%s%s ", i ? ", " : "", r->stream.col_names[i]);
        exec_type_format(r->stream.col_types[i], &b);
    }
    const char *s = sl_strdup(ctx->arena, b.data ? b.data : "");
    sl_buf_free(&b);
    return s;
}

/* "key 'value', ..." in the statement's own order, secrets redacted */
static const char *options_text(stmt_ctx_t *ctx, const plan_relation_t *r)
{
    sl_buf_t b = SL_BUF_INIT;
    for (int i = 0; i < r->stream.nopts; i++)
        sl_buf_printf(&b, "%s%s '%s'", i ? ", " : "", r->stream.opts[i].key,
                      sl_redact_value(r->stream.opts[i].key, r->stream.opts[i].value));
    const char *s = sl_strdup(ctx->arena, b.data ? b.data : "");
    sl_buf_free(&b);
    return s;
}

/* "event_time, delay 00:15:00" or NULL */
static const char *watermark_text(stmt_ctx_t *ctx, const plan_relation_t *r)
{
    if (r->wm_col < 0) return NULL;
    sl_buf_t b = SL_BUF_INIT;
    exec_interval_t iv = {0, 0, r->wm_delay_ms * 1000};
    sl_buf_printf(&b, "%s, delay ", r->stream.col_names[r->wm_col]);
    exec_format_interval(iv, &b);
    const char *s = sl_strdup(ctx->arena, b.data);
    sl_buf_free(&b);
    return s;
}

/* Describes every catalog object of a kind; unreadable entries are listed with their error. */
static int list_relations(stmt_ctx_t *ctx, sess_result_t *res, cat_kind_t kind)
{
    cat_entry_t *entries;
    int n = cat_list(ctx->srv->cat, kind, ctx->arena, &entries);
    for (int i = 0; i < n; i++) {
        plan_relation_t r;
        sl_error_t err;
        if (obj_lookup(ctx->srv->cat, entries[i].name, ctx->arena, &r, &err) <= 0) continue;
        const char *conn = r.stream.connector ? r.stream.connector->name : "catalog";
        if (kind == CAT_STREAM) {
            const char *row[] = {r.stream.name, conn, columns_text(ctx, &r),
                                 watermark_text(ctx, &r), options_text(ctx, &r)};
            stmt_result_row(res, row);
        } else {
            const char *row[] = {r.stream.name, conn, columns_text(ctx, &r), options_text(ctx, &r)};
            stmt_result_row(res, row);
        }
    }
    return 0;
}

STMT_HANDLER(stmt_show)
{
    switch (stmt->show.what) {
    case AST_SHOW_STREAMS: {
        const char *names[] = {"name", "connector", "columns", "watermark", "options"};
        stmt_result_columns(ctx, res, 5, names, NULL);
        return ctx->describe_only ? 0 : list_relations(ctx, res, CAT_STREAM);
    }
    case AST_SHOW_TABLES: {
        const char *names[] = {"name", "storage", "columns", "options"};
        stmt_result_columns(ctx, res, 4, names, NULL);
        return ctx->describe_only ? 0 : list_relations(ctx, res, CAT_TABLE);
    }
    case AST_SHOW_QUERIES: return stmt_show_queries(ctx, stmt, res, err);
    case AST_SHOW_PROGRESS:
    case AST_SHOW_RECENT_PROGRESS: return stmt_show_progress(ctx, stmt, res, err);
    case AST_SHOW_VARIABLE: return stmt_show_variable(ctx, stmt, res, err);
    }
    return stmt_error_at(err, stmt->pos, SL_ERR_FEATURE_NOT_SUPPORTED, "unknown SHOW form");
}

static void describe_row(sess_result_t *res, const char *a, const char *b, const char *c)
{
    const char *row[] = {a, b, c};
    stmt_result_row(res, row);
}

/* DESCRIBE of a stream or table: its columns, then its definition (Spark's layout). */
static void describe_relation(stmt_ctx_t *ctx, sess_result_t *res, const plan_relation_t *r,
                              const char *kind)
{
    for (int i = 0; i < r->stream.ncols; i++) {
        const char *note = i == r->wm_col ? sl_printf(ctx->arena, "watermark, %s",
                                                      strchr(watermark_text(ctx, r), ' ') + 1)
                                          : "";
        describe_row(res, r->stream.col_names[i],
                     exec_type_text(r->stream.col_types[i], ctx->arena), note);
    }
    describe_row(res, "", "", "");
    describe_row(res, "# Detailed Information", "", "");
    describe_row(res, "Name", r->stream.name, "");
    describe_row(res, "Kind", kind, "");
    describe_row(res, r->kind == PLAN_REL_STREAM ? "Connector" : "Storage",
                 r->stream.connector ? r->stream.connector->name : "catalog", "");
    for (int i = 0; i < r->stream.nopts; i++)
        describe_row(res, "Option", r->stream.opts[i].key,
                     sl_redact_value(r->stream.opts[i].key, r->stream.opts[i].value));
}

STMT_HANDLER(stmt_describe)
{
    const char *names[] = {"col_name", "data_type", "comment"};
    stmt_result_columns(ctx, res, 3, names, NULL);
    if (ctx->describe_only) return 0;
    const ast_ident_t *id = stmt->object_name;
    cat_entry_t e;
    if (!cat_lookup(ctx->srv->cat, id->name, ctx->arena, &e))
        return stmt_error_at(err, id->pos, SL_ERR_UNDEFINED_TABLE, "relation \"%s\" does not exist",
                             id->name);
    if (e.kind == CAT_QUERY) return stmt_describe_query(ctx, &e, res, err);
    plan_relation_t r;
    if (obj_lookup(ctx->srv->cat, id->name, ctx->arena, &r, err) < 0) return -1;
    describe_relation(ctx, res, &r, cat_kind_name(e.kind));
    return 0;
}
