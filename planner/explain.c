/* EXPLAIN of logical plans: one node per line, children indented, with
 * the expressions, keys, watermarks and state each node implies. */
#include <string.h>

#include "model/text_io.h"
#include "planner/plan.h"

static void put_cols(sl_buf_t *out, const plan_node_t *n)
{
    sl_buf_puts(out, " [");
    int first = 1;
    for (int i = 0; i < n->ncols; i++) {
        if (n->cols[i].hidden) continue;
        sl_buf_printf(out, "%s%s", first ? "" : ", ", n->cols[i].name);
        first = 0;
    }
    sl_buf_putc(out, ']');
}

static void put_delay(sl_buf_t *out, int64_t ms)
{
    exec_interval_t iv = {0, 0, ms * 1000};
    exec_format_interval(iv, out);
}

static const char *join_name(plan_join_t t)
{
    switch (t) {
    case PLAN_JOIN_LEFT: return "LeftOuter";
    case PLAN_JOIN_RIGHT: return "RightOuter";
    case PLAN_JOIN_FULL: return "FullOuter";
    case PLAN_JOIN_CROSS: return "Cross";
    default: return "Inner";
    }
}

static void explain_aggregate(const plan_node_t *n, sl_buf_t *out)
{
    const plan_node_t *in = n->children[0];
    sl_buf_puts(out, "Aggregate keys [");
    for (int i = 0; i < n->agg.nkeys; i++)
        sl_buf_printf(out, "%s%s", i ? ", " : "", in->cols[n->agg.keys[i]].name);
    sl_buf_puts(out, "] aggregates [");
    for (int i = 0; i < n->agg.naggs; i++)
        sl_buf_printf(out, "%s%s", i ? ", " : "", n->agg.aggs[i].text);
    sl_buf_putc(out, ']');
    if (n->agg.session_key >= 0)
        sl_buf_printf(out, " sessions on %s", in->cols[n->agg.keys[n->agg.session_key]].name);
    if (!n->streaming) return;
    sl_buf_puts(out, " (stateful");
    if (n->agg.event_key >= 0)
        sl_buf_printf(out, ", watermark on %s: late rows dropped, final %s evicted",
                      in->cols[n->agg.keys[n->agg.event_key]].name,
                      n->agg.session_key >= 0 ? "sessions" : "groups");
    else sl_buf_puts(out, ", no watermark: state grows with the keys");
    sl_buf_putc(out, ')');
}

static void explain_join(const plan_node_t *n, sl_buf_t *out)
{
    const plan_node_t *l = n->children[0], *r = n->children[1];
    sl_buf_printf(out, "Join %s", join_name(n->join.type));
    for (int k = 0; k < n->join.nkeys; k++)
        sl_buf_printf(out, "%s%s = %s", k ? " AND " : " on ", l->cols[n->join.lkeys[k]].name,
                      r->cols[n->join.rkeys[k]].name);
    if (n->join.residual) {
        sl_buf_puts(out, n->join.nkeys ? " AND " : " on ");
        exec_expr_format(n->join.residual, out);
    }
    if (l->streaming && r->streaming) sl_buf_puts(out, " (stream-stream, stateful)");
    else if (l->streaming || r->streaming)
        sl_buf_puts(out, " (stream-static: the table is re-read every batch)");
}

static void explain_line(const plan_node_t *n, sl_buf_t *out)
{
    switch (n->kind) {
    case LP_SCAN: {
        static const char *const k[] = {"", "stream", "table", "memory table"};
        sl_buf_printf(out, "Scan %s %s", k[n->scan.rel->kind], n->scan.rel->stream.name);
        put_cols(out, n);
        return;
    }
    case LP_VALUES: sl_buf_printf(out, "Values (%d rows)", n->values.nrows); return;
    case LP_WATERMARK:
        sl_buf_printf(out, "Watermark %s delay ", n->cols[n->watermark.col].name);
        put_delay(out, n->watermark.delay_ms);
        return;
    case LP_FILTER:
        sl_buf_puts(out, "Filter ");
        exec_expr_format(n->filter.pred, out);
        return;
    case LP_PROJECT:
        sl_buf_puts(out, "Project");
        put_cols(out, n);
        return;
    case LP_WINDOW:
        sl_buf_printf(out, "Window %s size %lld ms slide %lld ms",
                      n->children[0]->cols[n->window.ts_col].name,
                      (long long)(n->window.size_us / 1000),
                      (long long)(n->window.slide_us / 1000));
        return;
    case LP_AGGREGATE: explain_aggregate(n, out); return;
    case LP_JOIN: explain_join(n, out); return;
    case LP_UNION: sl_buf_puts(out, "Union All"); return;
    case LP_DEDUP:
        sl_buf_printf(out, "Deduplicate on %d key%s%s%s", n->dedup.nkeys,
                      n->dedup.nkeys == 1 ? "" : "s",
                      n->dedup.within_watermark ? " within watermark" : "",
                      n->streaming ? " (stateful)" : "");
        return;
    case LP_SORT:
        sl_buf_printf(out, "Sort %d key%s", n->sort.nkeys, n->sort.nkeys == 1 ? "" : "s");
        return;
    case LP_LIMIT:
        sl_buf_printf(out, "Limit %lld", (long long)n->limit.limit);
        if (n->limit.offset) sl_buf_printf(out, " offset %lld", (long long)n->limit.offset);
        return;
    }
}

static void explain_node(const plan_node_t *n, int depth, sl_buf_t *out)
{
    for (int i = 0; i < depth; i++) sl_buf_puts(out, "  ");
    explain_line(n, out);
    sl_buf_putc(out, '\n');
    for (int i = 0; i < n->nchildren; i++) explain_node(n->children[i], depth + 1, out);
}

void plan_explain_logical(const plan_node_t *n, sl_buf_t *out)
{
    explain_node(n, 1, out);
}
