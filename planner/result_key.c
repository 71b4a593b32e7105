/* The result table's key: which output columns identify one row of an
 * aggregated query's result, whatever its projection does with the
 * grouping key.
 *
 * An aggregation's output has one row per group, so its grouping key
 * (GROUP BY's expressions, a time window among them) is the result's key.
 * For each grouping column the key column is, in this order of preference:
 *   1. an output column that is the grouping column itself (`SELECT k`,
 *      `SELECT window`);
 *   2. for a time window, an output column that is its start or its end
 *      (`SELECT window.start AS start`): the windows of one query all have
 *      the same size and slide, so either bound names exactly one window;
 *   3. else a hidden column that carries the grouping column (`SELECT k + 1`
 *      or `SELECT k % 2` over GROUP BY k, or k not selected at all): it
 *      follows the visible columns in the batches a sink receives, is
 *      marked result_key, and no sink writes it.
 * With no GROUP BY the key is empty: the result is one row. */
#include <string.h>

#include "planner/plan.h"

/* Output column of `root` that is a plain visible reference to column `col`
 * of `below` through projections and filters, or -1. */
static int output_of(const plan_node_t *root, const plan_node_t *below, int col)
{
    if (root == below) return col;
    if (root->kind == LP_FILTER || root->kind == LP_SORT || root->kind == LP_LIMIT)
        return output_of(root->children[0], below, col);
    if (root->kind != LP_PROJECT) return -1;
    for (int i = 0; i < root->ncols; i++) {
        const exec_expr_t *e = root->project.exprs[i];
        if (e->kind == EXEC_EXPR_COLUMN && !root->cols[i].hidden &&
            output_of(root->children[0], below, col) == e->column)
            return i;
    }
    return -1;
}

/* Output column of `root` (a projection) that is a bound of the window in
 * column `col` of `below` (`window.start`, `window.end`), or -1. */
static int window_bound_of(const plan_node_t *root, const plan_node_t *below, int col)
{
    if (root->kind != LP_PROJECT) return -1;
    int in = output_of(root->children[0], below, col);
    if (in < 0) return -1;
    for (int i = 0; i < root->ncols; i++) {
        const exec_expr_t *e = root->project.exprs[i];
        if (e->kind == EXEC_EXPR_FIELD && !root->cols[i].hidden &&
            e->args[0]->kind == EXEC_EXPR_COLUMN && e->args[0]->column == in)
            return i;
    }
    return -1;
}

static const plan_node_t *find_aggregate(const plan_node_t *n)
{
    while (n && n->kind != LP_AGGREGATE) {
        if (n->kind != LP_PROJECT && n->kind != LP_FILTER && n->kind != LP_SORT &&
            n->kind != LP_LIMIT)
            return NULL;
        n = n->children[0];
    }
    return n;
}

/* A copy of the chain from `n` down to `agg` in which output column *col
 * carries column `k` of `agg`: projections that do not pass it on get a
 * hidden result_key column; filters, sorts and limits pass their input's
 * columns through. Nodes below `agg` are shared, not copied. */
static plan_node_t *carry_key(sl_arena_t *a, const plan_node_t *n, const plan_node_t *agg, int k,
                              int *col)
{
    if (n == agg) {
        *col = k;
        return (plan_node_t *)n;
    }
    int in;
    plan_node_t *child = carry_key(a, n->children[0], agg, k, &in);
    plan_node_t *c = SL_NEW(a, plan_node_t);
    *c = *n;
    c->children[0] = child;
    if (n->kind != LP_PROJECT) {
        c->ncols = child->ncols;
        c->cols = child->cols;
        *col = in;
        return c;
    }
    for (int i = 0; i < n->ncols; i++) {
        const exec_expr_t *e = n->project.exprs[i];
        if (e->kind == EXEC_EXPR_COLUMN && e->column == in &&
            (!n->cols[i].hidden || n->cols[i].result_key)) {
            *col = i;
            return c;
        }
    }
    c->cols = SL_NEW_ARRAY(a, plan_col_t, n->ncols + 1);
    memcpy(c->cols, n->cols, sizeof *c->cols * (size_t)n->ncols);
    c->project.exprs = SL_NEW_ARRAY(a, exec_expr_t *, n->ncols + 1);
    memcpy(c->project.exprs, n->project.exprs, sizeof *c->project.exprs * (size_t)n->ncols);
    const plan_col_t *src = &child->cols[in];
    c->project.exprs[n->ncols] = exec_expr_column(a, in, src->type, src->name);
    c->cols[n->ncols] = (plan_col_t){.name = src->name,
                                     .type = src->type,
                                     .wm_delay_ms = -1,
                                     .is_window = src->is_window,
                                     .hidden = 1,
                                     .result_key = 1};
    *col = c->ncols++;
    return c;
}

int plan_result_key(sl_arena_t *a, plan_node_t **root, int **keys)
{
    const plan_node_t *agg = find_aggregate(*root);
    if (!agg) return -1;
    int nk = agg->agg.nkeys;
    *keys = SL_NEW_ARRAY(a, int, nk > 0 ? nk : 1);
    for (int k = 0; k < nk; k++) {
        int col = output_of(*root, agg, k);
        if (col < 0 && agg->cols[k].is_window && k != agg->agg.session_key)
            col = window_bound_of(*root, agg, k);
        if (col < 0) *root = carry_key(a, *root, agg, k, &col);
        (*keys)[k] = col;
    }
    return nk;
}
