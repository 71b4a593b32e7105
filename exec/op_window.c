/* WINDOW EXPAND (see op_window.h): per input batch, lists the (input row,
 * window) pairs with exec_window_bounds, then gathers every input column
 * by that row list and fills the window column from the pairs. */
#include "exec/op_window.h"

#include <string.h>

#include "model/text_io.h"

static int window_open(op_t *op, sl_error_t *err)
{
    (void)op;
    (void)err;
    return 0;
}

/* out = src's cells at rows idx[0..n) (strings stay views). */
static void gather(sl_arena_t *a, const exec_vec_t *src, const uint32_t *idx, uint32_t n,
                   exec_vec_t *out)
{
    *out = exec_vec_new(a, src->type, n);
    size_t w = exec_type_width(src->type);
    if (w) {
        char *d = out->data;
        const char *s = src->data;
        for (uint32_t k = 0; k < n; k++) memcpy(d + w * k, s + w * idx[k], w);
    }
    if (src->nulls && src->type.id != EXEC_TYPE_NULL) {
        uint8_t *nl = exec_vec_make_nulls(a, out, n);
        for (uint32_t k = 0; k < n; k++) nl[k] = src->nulls[idx[k]];
    }
    for (int f = 0; src->children && f < src->type.nfields; f++)
        gather(a, &src->children[f], idx, n, &out->children[f]);
}

/* Lists the windows of every present row: idx[k] = input row, se[2k],
 * se[2k+1] = window start, end. Returns the count. */
static uint32_t list_windows(const op_window_config_t *cfg, const exec_batch_t *b, sl_arena_t *a,
                             uint32_t **idx, int64_t **se)
{
    const exec_vec_t *ts = &b->cols[cfg->ts_col];
    uint32_t n = exec_batch_count(b);
    int per = (int)((cfg->spec.size_us + cfg->spec.slide_us - 1) / cfg->spec.slide_us);
    *idx = sl_alloc(a, sizeof **idx * ((size_t)n * per + 1));
    *se = sl_alloc(a, sizeof **se * 2 * ((size_t)n * per + 1));
    uint32_t m = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t r = exec_batch_row(b, k);
        if (exec_vec_is_null(ts, r)) continue;
        int c =
            exec_window_bounds(EXEC_VEC_AT(ts, int64_t, r), &cfg->spec, *se + 2 * (size_t)m, per);
        for (int i = 0; i < c && i < per; i++) (*idx)[m++] = r;
    }
    return m;
}

static int window_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    (void)input;
    const op_window_config_t *cfg = op->node->config;
    sl_arena_t *scratch = op->ctx->ectx->arena;
    op->metrics->rows_in += exec_batch_count(b);
    uint32_t *idx;
    int64_t *se;
    uint32_t m = list_windows(cfg, b, scratch, &idx, &se);
    exec_batch_t *out = SL_NEW(scratch, exec_batch_t);
    out->ncols = b->ncols + 1;
    out->cols = SL_NEW_ARRAY(scratch, exec_vec_t, out->ncols);
    out->nrows = m;
    out->arena = scratch;
    for (int c = 0; c < b->ncols; c++) gather(scratch, &b->cols[c], idx, m, &out->cols[c]);
    exec_vec_t *w = &out->cols[b->ncols];
    *w = exec_vec_new(scratch, exec_type_window(), m);
    for (uint32_t k = 0; k < m; k++) {
        EXEC_VEC_AT(&w->children[0], int64_t, k) = se[2 * k];
        EXEC_VEC_AT(&w->children[1], int64_t, k) = se[2 * k + 1];
    }
    if (b->change) {
        out->change = sl_alloc(scratch, m + 1);
        for (uint32_t k = 0; k < m; k++) out->change[k] = b->change[idx[k]];
    }
    return op_emit(op, out, err);
}

static int window_finish(op_t *op, sl_error_t *err)
{
    (void)op;
    (void)err;
    return 0;
}

static void window_close(op_t *op)
{
    (void)op;
}

static void window_explain(const exec_pnode_t *node, sl_buf_t *out)
{
    const op_window_config_t *cfg = node->config;
    exec_interval_t size = {0, 0, cfg->spec.size_us}, slide = {0, 0, cfg->spec.slide_us};
    sl_buf_printf(out, " %s = window(%s, '", node->names[node->ncols - 1],
                  node->children[0]->names[cfg->ts_col]);
    exec_format_interval(size, out);
    sl_buf_puts(out, "', '");
    exec_format_interval(slide, out);
    sl_buf_putc(out, '\'');
    if (cfg->spec.start_us) {
        exec_interval_t start = {0, 0, cfg->spec.start_us};
        sl_buf_puts(out, ", '");
        exec_format_interval(start, out);
        sl_buf_putc(out, '\'');
    }
    sl_buf_putc(out, ')');
}

const op_ops_t op_window_ops = {
    .name = "WindowExpand",
    .open = window_open,
    .push = window_push,
    .finish = window_finish,
    .close = window_close,
    .explain = window_explain,
};

exec_pnode_t *op_window_plan(sl_arena_t *a, exec_pnode_t *child, int ts_col, int64_t size_us,
                             int64_t slide_us, int64_t start_us, const char *name, sl_error_t *err)
{
    if (ts_col < 0 || ts_col >= child->ncols || child->types[ts_col].id != EXEC_TYPE_TIMESTAMP) {
        sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                     "the time column of window() must be a timestamp");
        return NULL;
    }
    if (size_us <= 0 || slide_us <= 0 || slide_us > size_us || start_us <= -slide_us ||
        start_us >= slide_us) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "invalid window() size, slide or start");
        sl_error_detail(
            err, "The size and slide must be positive, the slide at most the size, and the start "
                 "shorter than the slide.");
        return NULL;
    }
    op_window_config_t *cfg = SL_NEW(a, op_window_config_t);
    cfg->ts_col = ts_col;
    cfg->spec.size_us = size_us;
    cfg->spec.slide_us = slide_us;
    cfg->spec.start_us = exec_floor_mod(start_us, slide_us);
    exec_pnode_t *n = exec_pnode_new(a, &op_window_ops, child->ncols + 1, cfg);
    for (int c = 0; c < child->ncols; c++) {
        n->names[c] = child->names[c];
        n->types[c] = child->types[c];
    }
    n->names[child->ncols] = sl_strdup(a, name ? name : "window");
    n->types[child->ncols] = exec_type_window();
    n->nchildren = 1;
    n->children[0] = child;
    return n;
}
