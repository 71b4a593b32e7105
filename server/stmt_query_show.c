/* Listings of continuous queries: SHOW QUERIES, SHOW [RECENT] PROGRESS,
 * DESCRIBE of a query. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/redact.h"
#include "server/catalog.h"
#include "server/qm.h"
#include "server/query_plan.h"
#include "server/stmt_int.h"

static const char *rate_text(stmt_ctx_t *ctx, double v)
{
    return isnan(v) ? NULL : sl_printf(ctx->arena, "%.1f", v);
}

int stmt_show_queries(stmt_ctx_t *ctx, const ast_stmt_t *stmt, sess_result_t *res, sl_error_t *err)
{
    (void)stmt;
    (void)err;
    const char *names[] = {"name",
                           "id",
                           "status",
                           "batch",
                           "input_rows_per_second",
                           "processed_rows_per_second",
                           "watermark",
                           "last_error"};
    uint32_t oids[] = {PG_OID_TEXT,   PG_OID_TEXT,   PG_OID_TEXT, PG_OID_INT8,
                       PG_OID_FLOAT8, PG_OID_FLOAT8, PG_OID_TEXT, PG_OID_TEXT};
    stmt_result_columns(ctx, res, 8, names, oids);
    if (ctx->describe_only) return 0;
    qm_info_t *q;
    int n = qm_list(ctx->srv->qm, ctx->arena, &q);
    for (int i = 0; i < n; i++) {
        const char *batch = q[i].last_batch_id >= 0
                                ? sl_printf(ctx->arena, "%lld", (long long)q[i].last_batch_id)
                                : NULL;
        const char *row[] = {q[i].name,
                             q[i].id,
                             q[i].status_name,
                             batch,
                             rate_text(ctx, q[i].input_rows_per_second),
                             rate_text(ctx, q[i].processed_rows_per_second),
                             q[i].watermark,
                             q[i].last_error};
        stmt_result_row(res, row);
    }
    return 0;
}

int stmt_show_progress(stmt_ctx_t *ctx, const ast_stmt_t *stmt, sess_result_t *res, sl_error_t *err)
{
    const ast_ident_t *id = stmt->show.name;
    const char *names[] = {"progress"};
    uint32_t oids[] = {PG_OID_JSON};
    stmt_result_columns(ctx, res, 1, names, oids);
    if (ctx->describe_only) return 0;
    const char **docs;
    int n = qm_progress(ctx->srv->qm, id->name, stmt->show.what == AST_SHOW_RECENT_PROGRESS,
                        ctx->arena, &docs, err);
    if (n < 0) return bind_error_at(err, id->pos);
    for (int i = 0; i < n; i++) {
        const char *row[] = {docs[i]};
        stmt_result_row(res, row);
    }
    return 0;
}

static void row3(sess_result_t *res, const char *a, const char *b, const char *c)
{
    const char *row[] = {a, b, c};
    stmt_result_row(res, row);
}

/* DESCRIBE of a query: its result columns, then its definition, status and plan. */
/* Whether output column `col` is part of the result's key. */
static int is_key_column(const sink_schema_t *s, int col)
{
    for (int k = 0; k < s->nkeys; k++)
        if (s->keys[k] == col) return 1;
    return 0;
}

/* The "Result key" line: the key's columns in key order, hidden ones
 * marked; an update-mode aggregation without GROUP BY is one row. */
static void result_key_row(sess_result_t *res, const sink_schema_t *s, sl_arena_t *a)
{
    if (!s->keyed) return;
    sl_buf_t b = SL_BUF_INIT;
    for (int k = 0; k < s->nkeys; k++)
        sl_buf_printf(&b, "%s%s%s", k ? ", " : "", s->names[s->keys[k]],
                      s->keys[k] >= s->ncols ? " (hidden)" : "");
    const char *cols = s->nkeys ? sl_strdup(a, b.data) : "(none)";
    sl_buf_free(&b);
    row3(res, "Result key", cols,
         s->nkeys ? "update mode keeps one row per group: rows are upserted by these columns"
                  : "update mode keeps one row: the aggregation has no GROUP BY");
}

int stmt_describe_query(stmt_ctx_t *ctx, const cat_entry_t *e, sess_result_t *res, sl_error_t *err)
{
    qplan_t plan;
    if (qplan_from_text(ctx->srv, e->sql, ctx->arena, &plan, err) < 0) {
        err->position = 0; /* positions refer to the stored text */
        return -1;
    }
    const plan_physical_t *p = plan.phys;
    for (int i = 0; i < p->ncols; i++)
        row3(res, p->names[i], exec_type_text(p->types[i], ctx->arena),
             plan.schema.keyed && is_key_column(&plan.schema, i) ? "result key" : "");
    qm_info_t info;
    int known = qm_get(ctx->srv->qm, e->name, ctx->arena, &info);
    row3(res, "", "", "");
    row3(res, "# Detailed Information", "", "");
    row3(res, "Name", e->name, "");
    row3(res, "Kind", "query", "");
    if (known) {
        row3(res, "Id", info.id ? info.id : "", "");
        row3(res, "Status", info.status_name, info.last_error ? info.last_error : "");
    }
    row3(res, "Sink", plan.def.sink->name, "");
    for (int i = 0; i < plan.def.nsink_opts; i++)
        row3(res, "Sink option", plan.def.sink_opts[i].key,
             sl_redact_value(plan.def.sink_opts[i].key, plan.def.sink_opts[i].value));
    row3(res, "Output mode", output_mode_name(plan.def.mode), "");
    result_key_row(res, &plan.schema, ctx->arena);
    row3(res, "Trigger", qdef_trigger_text(&plan.def, ctx->arena), "");
    row3(res, "Checkpoint", plan.def.checkpoint, "");
    row3(res, "Definition", sl_redact_sql(ctx->arena, e->sql), "");
    sl_buf_t out = SL_BUF_INIT;
    qplan_explain(&plan, ctx->arena, &out);
    for (char *line = out.data, *nl; line && *line; line = nl + 1) {
        if (!(nl = strchr(line, '\n'))) nl = line + strlen(line) - 1;
        else *nl = '\0';
        row3(res, "Plan", line, "");
    }
    sl_buf_free(&out);
    return 0;
}
