/* FILTER: narrows each batch's selection to the rows where the compiled
 * predicate is true. Stateless; the batch's vectors are shared, only the
 * selection is new (allocated in scratch memory). */
#include "exec/op_basic.h"

typedef struct filter_config {
    exec_prog_t *prog;
    const exec_expr_t *expr;
} filter_config_t;

static int filter_open(op_t *op, sl_error_t *err)
{
    (void)op;
    (void)err;
    return 0;
}

static int filter_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    (void)input;
    const filter_config_t *cfg = op->node->config;
    op->metrics->rows_in += exec_batch_count(b);
    exec_batch_t *out = exec_batch_shallow_copy(b, op->ctx->ectx->arena);
    out->arena = op->ctx->ectx->arena;
    if (exec_prog_filter(cfg->prog, op->ctx->ectx, out, err) < 0) return -1;
    return op_emit(op, out, err);
}

static int filter_finish(op_t *op, sl_error_t *err)
{
    (void)op;
    (void)err;
    return 0;
}

static void filter_close(op_t *op)
{
    (void)op;
}

static void filter_explain(const exec_pnode_t *node, sl_buf_t *out)
{
    const filter_config_t *cfg = node->config;
    sl_buf_putc(out, ' ');
    exec_expr_format(cfg->expr, out);
}

const op_ops_t op_filter_ops = {
    .name = "Filter",
    .open = filter_open,
    .push = filter_push,
    .finish = filter_finish,
    .close = filter_close,
    .explain = filter_explain,
};

exec_pnode_t *op_filter_plan(sl_arena_t *a, exec_pnode_t *child, const exec_expr_t *pred,
                             sl_error_t *err)
{
    filter_config_t *cfg = SL_NEW(a, filter_config_t);
    cfg->expr = pred;
    if (!(cfg->prog = exec_expr_compile(a, pred, err))) return NULL;
    exec_pnode_t *n = exec_pnode_new(a, &op_filter_ops, child->ncols, cfg);
    exec_pnode_set_schema(a, n, child->names, child->types);
    n->nchildren = 1;
    n->children[0] = child;
    return n;
}
