/* WATERMARK (Spark's EventTimeWatermarkExec): passes every row through and
 * records min, max, sum and count of the event-time column (in ms, integer
 * division of microseconds, NULLs skipped) — including rows a stateful
 * operator will later drop as late, as Spark does. The runner turns the max
 * into the next watermark (max - delay) at the end of the batch. */
#include "exec/op_basic.h"

#include <stdint.h>

#include "model/text_io.h"

static int watermark_open(op_t *op, sl_error_t *err)
{
    (void)op;
    (void)err;
    return 0;
}

static int watermark_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    (void)input;
    const op_watermark_config_t *cfg = op->node->config;
    const exec_vec_t *v = &b->cols[cfg->column];
    op_metrics_t *m = op->metrics;
    uint32_t n = exec_batch_count(b);
    m->rows_in += n;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = exec_batch_row(b, k);
        if (exec_vec_is_null(v, row)) continue;
        int64_t ms = exec_floor_div(EXEC_VEC_AT(v, int64_t, row), 1000);
        if (!m->et_count || ms < m->et_min) m->et_min = ms;
        if (!m->et_count || ms > m->et_max) m->et_max = ms;
        m->et_sum += (double)ms;
        m->et_count++;
    }
    return op_emit(op, b, err);
}

static int watermark_finish(op_t *op, sl_error_t *err)
{
    (void)op;
    (void)err;
    return 0;
}

static void watermark_close(op_t *op)
{
    (void)op;
}

static void watermark_explain(const exec_pnode_t *node, sl_buf_t *out)
{
    const op_watermark_config_t *cfg = node->config;
    exec_interval_t iv = {0, 0, cfg->delay_ms * 1000};
    sl_buf_printf(out, " %s delay ", node->names[cfg->column]);
    exec_format_interval(iv, out);
}

const op_ops_t op_watermark_ops = {
    .name = "EventTimeWatermark",
    .open = watermark_open,
    .push = watermark_push,
    .finish = watermark_finish,
    .close = watermark_close,
    .explain = watermark_explain,
};

exec_pnode_t *op_watermark_plan(sl_arena_t *a, exec_pnode_t *child, int column, int64_t delay_ms)
{
    op_watermark_config_t *cfg = SL_NEW(a, op_watermark_config_t);
    cfg->column = column;
    cfg->delay_ms = delay_ms;
    exec_pnode_t *n = exec_pnode_new(a, &op_watermark_ops, child->ncols, cfg);
    exec_pnode_set_schema(a, n, child->names, child->types);
    n->nchildren = 1;
    n->children[0] = child;
    return n;
}
