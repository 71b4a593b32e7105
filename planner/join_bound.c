/* Time bounds of stream-stream joins (see join_bound.h). */
#include "planner/join_bound.h"

/* `x` as column c [+/- constant interval]: sets *col and *offset_ms. */
static int time_term(const exec_expr_t *x, int *col, int64_t *offset_ms)
{
    if (x->kind == EXEC_EXPR_COLUMN) {
        *col = x->column;
        *offset_ms = 0;
        return 1;
    }
    if (x->kind != EXEC_EXPR_ARITH || (x->op != EXEC_OP_ADD && x->op != EXEC_OP_SUB)) return 0;
    const exec_expr_t *c = x->args[0], *k = x->args[1];
    if (c->kind != EXEC_EXPR_COLUMN || k->kind != EXEC_EXPR_CONST || k->value.is_null ||
        k->value.type.id != EXEC_TYPE_INTERVAL || k->value.u.iv.months)
        return 0;
    int64_t ms = (int64_t)k->value.u.iv.days * 86400000 + k->value.u.iv.micros / 1000;
    *col = c->column;
    *offset_ms = x->op == EXEC_OP_ADD ? ms : -ms;
    return 1;
}

typedef struct bound_search {
    const plan_node_t *join;
    int side, col;
    int found;
    int64_t offset_ms;
} bound_search_t;

/* Residual column c (left columns, then right) as a column of side s:
 * its index in that side's child, or -1. */
static int side_col(const plan_node_t *join, int s, int c)
{
    int nleft = join->children[0]->ncols;
    if (s == 0) return c < nleft ? c : -1;
    return c >= nleft ? c - nleft : -1;
}

/* One conjunct hi >= lo (strict: hi > lo). */
static void bound_from(bound_search_t *bs, const exec_expr_t *lo, const exec_expr_t *hi, int strict)
{
    int c1, c2;
    int64_t o1, o2;
    if (!time_term(hi, &c1, &o1) || !time_term(lo, &c2, &o2)) return;
    const plan_node_t *other = bs->join->children[1 - bs->side];
    int mine = side_col(bs->join, bs->side, c1), theirs = side_col(bs->join, 1 - bs->side, c2);
    if (mine < 0 || (bs->col >= 0 && mine != bs->col)) return;
    if (theirs < 0 || other->cols[theirs].wm_delay_ms < 0) return;
    /* c1 + o1 >= c2 + o2, so c1 >= c2 + (o2 - o1): once the other side's
     * watermark is W, a row of this side with c1 <= W + (o2 - o1) has no
     * match left to come. */
    int64_t off = o2 - o1 - (strict ? 0 : 1);
    if (!bs->found || off < bs->offset_ms) bs->offset_ms = off;
    bs->found = 1;
}

static void collect(bound_search_t *bs, const exec_expr_t *e)
{
    if (!e) return;
    if (e->kind == EXEC_EXPR_AND) {
        collect(bs, e->args[0]);
        collect(bs, e->args[1]);
        return;
    }
    if (e->kind != EXEC_EXPR_CMP) return;
    if (e->op == EXEC_CMP_GE || e->op == EXEC_CMP_GT)
        bound_from(bs, e->args[1], e->args[0], e->op == EXEC_CMP_GT);
    if (e->op == EXEC_CMP_LE || e->op == EXEC_CMP_LT)
        bound_from(bs, e->args[0], e->args[1], e->op == EXEC_CMP_LT);
}

int plan_join_state_bound(const plan_node_t *join, int side, int col, int64_t *offset_ms)
{
    bound_search_t bs = {.join = join, .side = side, .col = col};
    collect(&bs, join->join.residual);
    if (bs.found) *offset_ms = bs.offset_ms;
    return bs.found;
}
