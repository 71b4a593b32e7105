/* PROJECT: evaluates one compiled expression per output column over each
 * batch. A column reference costs nothing (the output vector aliases the
 * input's); computed vectors live in scratch memory. The selection and the
 * change column pass through. Stateless. */
#include <string.h>

#include "exec/op_basic.h"

typedef struct project_config {
    int n;
    exec_prog_t **progs;
    exec_expr_t *const *exprs;
} project_config_t;

static int project_open(op_t *op, sl_error_t *err)
{
    (void)op;
    (void)err;
    return 0;
}

static int project_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    (void)input;
    const project_config_t *cfg = op->node->config;
    sl_arena_t *scratch = op->ctx->ectx->arena;
    op->metrics->rows_in += exec_batch_count(b);
    exec_batch_t *out = SL_NEW(scratch, exec_batch_t);
    out->ncols = cfg->n;
    out->cols = SL_NEW_ARRAY(scratch, exec_vec_t, cfg->n > 0 ? cfg->n : 1);
    out->nrows = b->nrows;
    out->sel = b->sel;
    out->nsel = b->nsel;
    out->change = b->change;
    out->arena = scratch;
    for (int i = 0; i < cfg->n; i++)
        if (exec_prog_eval(cfg->progs[i], op->ctx->ectx, b, &out->cols[i], err) < 0) return -1;
    return op_emit(op, out, err);
}

static int project_finish(op_t *op, sl_error_t *err)
{
    (void)op;
    (void)err;
    return 0;
}

static void project_close(op_t *op)
{
    (void)op;
}

static void project_explain(const exec_pnode_t *node, sl_buf_t *out)
{
    const project_config_t *cfg = node->config;
    for (int i = 0; i < cfg->n; i++) {
        sl_buf_puts(out, i ? ", " : " ");
        exec_expr_format(cfg->exprs[i], out);
        const exec_expr_t *e = cfg->exprs[i];
        if (e->kind != EXEC_EXPR_COLUMN || !e->name || strcmp(e->name, node->names[i]))
            sl_buf_printf(out, " AS %s", node->names[i]);
    }
}

const op_ops_t op_project_ops = {
    .name = "Project",
    .open = project_open,
    .push = project_push,
    .finish = project_finish,
    .close = project_close,
    .explain = project_explain,
};

exec_pnode_t *op_project_plan(sl_arena_t *a, exec_pnode_t *child, exec_expr_t *const *exprs,
                              const char *const *names, int n, sl_error_t *err)
{
    project_config_t *cfg = SL_NEW(a, project_config_t);
    cfg->n = n;
    cfg->exprs = exprs;
    cfg->progs = SL_NEW_ARRAY(a, exec_prog_t *, n > 0 ? n : 1);
    exec_pnode_t *node = exec_pnode_new(a, &op_project_ops, n, cfg);
    for (int i = 0; i < n; i++) {
        if (!(cfg->progs[i] = exec_expr_compile(a, exprs[i], err))) return NULL;
        node->names[i] = sl_strdup(a, names[i]);
        node->types[i] = exprs[i]->type;
    }
    node->nchildren = 1;
    node->children[0] = child;
    return node;
}
