/* UNION ALL: forwards every batch of either input to the parent. The arms
 * may be in the same stage (two INPUT leaves: each input task feeds one
 * arm) or behind exchanges; either way the operator keeps nothing. */
#include "exec/op_union.h"

static int union_open(op_t *op, sl_error_t *err)
{
    (void)op;
    (void)err;
    return 0;
}

static int union_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    (void)input;
    op->metrics->rows_in += exec_batch_count(b);
    return op_emit(op, b, err);
}

static int union_finish(op_t *op, sl_error_t *err)
{
    (void)op;
    (void)err;
    return 0;
}

static void union_close(op_t *op)
{
    (void)op;
}

static void union_explain(const exec_pnode_t *node, sl_buf_t *out)
{
    (void)node;
    sl_buf_puts(out, " ALL");
}

const op_ops_t op_union_ops = {
    .name = "Union",
    .open = union_open,
    .push = union_push,
    .finish = union_finish,
    .close = union_close,
    .explain = union_explain,
};

exec_pnode_t *op_union_plan(sl_arena_t *a, exec_pnode_t *left, exec_pnode_t *right, sl_error_t *err)
{
    if (left->ncols != right->ncols) {
        sl_error_set(err, SL_ERR_SYNTAX_ERROR,
                     "each UNION query must have the same number of columns");
        return NULL;
    }
    for (int i = 0; i < left->ncols; i++)
        if (!exec_type_equal(left->types[i], right->types[i])) {
            sl_error_set(err, SL_ERR_DATATYPE_MISMATCH, "UNION types %s and %s cannot be matched",
                         exec_type_pg_name(left->types[i]), exec_type_pg_name(right->types[i]));
            return NULL;
        }
    exec_pnode_t *n = exec_pnode_new(a, &op_union_ops, left->ncols, NULL);
    exec_pnode_set_schema(a, n, left->names, left->types);
    n->nchildren = 2;
    n->children[0] = left;
    n->children[1] = right;
    return n;
}
