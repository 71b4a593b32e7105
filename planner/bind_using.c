/* JOIN ... USING (cols) and NATURAL JOIN. The condition is the equality of
 * the same-named columns of both sides (NATURAL: every visible column name
 * the two sides share, in the left side's order; none makes a cross join).
 * The output columns are Spark's: each key once, first (the left side's
 * value for INNER and LEFT joins, the right side's for RIGHT, and
 * coalesce(left, right) for FULL), then the other columns of the left side
 * and of the right side. Both sides' copies of the keys stay reachable by
 * qualified name (`t.k`, `t.*`) as hidden columns of that projection. */
#include <string.h>

#include "planner/bind_from.h"
#include "planner/bind_int.h"

/* The one visible column named `name` in cols[from, to), -1 when none,
 * -2 (42702 set) when several. */
static int side_column(const plan_node_t *j, int from, int to, const ast_ident_t *id,
                       const char *side, sl_error_t *err)
{
    int found = -1;
    for (int i = from; i < to; i++) {
        if (j->cols[i].hidden || strcmp(j->cols[i].name, id->name)) continue;
        if (found >= 0) {
            sl_error_set(err, SL_ERR_AMBIGUOUS_COLUMN,
                         "common column name \"%s\" appears more than once in %s table", id->name,
                         side);
            bind_at(err, id->pos);
            return -2;
        }
        found = i;
    }
    return found;
}

/* NATURAL JOIN's keys: the left side's visible names the right side has. */
static ast_ident_list_t natural_keys(plan_ctx_t *pc, const plan_node_t *j, int nleft, int pos)
{
    ast_ident_list_t keys = {0, SL_NEW_ARRAY(pc->arena, ast_ident_t *, nleft > 0 ? nleft : 1)};
    for (int i = 0; i < nleft; i++) {
        if (j->cols[i].hidden) continue;
        int shared = 0, dup = 0;
        for (int k = nleft; k < j->ncols; k++)
            shared |= !j->cols[k].hidden && !strcmp(j->cols[k].name, j->cols[i].name);
        for (int k = 0; k < keys.n; k++) dup |= !strcmp(keys.items[k]->name, j->cols[i].name);
        if (!shared || dup) continue;
        ast_ident_t *id = SL_NEW(pc->arena, ast_ident_t);
        id->name = (char *)j->cols[i].name;
        id->pos = pos;
        keys.items[keys.n++] = id;
    }
    return keys;
}

/* The key value of the output: the side the join keeps, or both coalesced. */
static exec_expr_t *merged_key(plan_ctx_t *pc, const plan_node_t *j, int lc, int rc,
                               sl_error_t *err)
{
    exec_expr_t *l = exec_expr_column(pc->arena, lc, j->cols[lc].type, j->cols[lc].name);
    exec_expr_t *r = exec_expr_column(pc->arena, rc, j->cols[rc].type, j->cols[rc].name);
    if (j->join.type == PLAN_JOIN_RIGHT) return r;
    if (j->join.type != PLAN_JOIN_FULL) return l;
    exec_expr_t *both[2] = {l, r};
    return exec_expr_coalesce(pc->arena, both, 2, err);
}

/* PROJECT(keys, left columns, right columns) with the keys' copies hidden. */
static plan_node_t *using_output(plan_ctx_t *pc, plan_node_t *j, const ast_ident_list_t *keys,
                                 const int *lk, const int *rk, sl_error_t *err)
{
    int nk = keys->n, n = nk + j->ncols;
    exec_expr_t **exprs = SL_NEW_ARRAY(pc->arena, exec_expr_t *, n);
    const char **names = SL_NEW_ARRAY(pc->arena, const char *, n);
    for (int k = 0; k < nk; k++) {
        if (!(exprs[k] = merged_key(pc, j, lk[k], rk[k], err))) return NULL;
        names[k] = keys->items[k]->name;
    }
    for (int i = 0; i < j->ncols; i++) {
        exprs[nk + i] = exec_expr_column(pc->arena, i, j->cols[i].type, j->cols[i].name);
        names[nk + i] = j->cols[i].name;
    }
    plan_node_t *p = plan_project(pc->arena, j, exprs, names, n);
    for (int k = 0; k < nk; k++) {
        p->cols[k].qual = NULL;
        p->cols[nk + lk[k]].hidden = p->cols[nk + rk[k]].hidden = 1;
    }
    for (int i = 0; i < j->ncols; i++) p->cols[nk + i].hidden |= j->cols[i].hidden;
    return p;
}

plan_node_t *plan_join_using(plan_ctx_t *pc, plan_node_t *j, const ast_from_t *f, sl_error_t *err)
{
    int nleft = j->children[0]->ncols;
    ast_ident_list_t keys = f->natural ? natural_keys(pc, j, nleft, f->pos) : f->using_cols;
    int *lk = SL_NEW_ARRAY(pc->arena, int, keys.n > 0 ? keys.n : 1);
    int *rk = SL_NEW_ARRAY(pc->arena, int, keys.n > 0 ? keys.n : 1);
    exec_expr_t *cond = NULL;
    for (int k = 0; k < keys.n; k++) {
        const ast_ident_t *id = keys.items[k];
        if ((lk[k] = side_column(j, 0, nleft, id, "left", err)) == -2 ||
            (rk[k] = side_column(j, nleft, j->ncols, id, "right", err)) == -2)
            return NULL;
        if (lk[k] < 0 || rk[k] < 0) {
            sl_error_set(err, SL_ERR_UNDEFINED_COLUMN,
                         "column \"%s\" specified in USING clause does not exist in %s table",
                         id->name, lk[k] < 0 ? "left" : "right");
            bind_at(err, id->pos);
            return NULL;
        }
        exec_expr_t *l = exec_expr_column(pc->arena, lk[k], j->cols[lk[k]].type, id->name);
        exec_expr_t *r = exec_expr_column(pc->arena, rk[k], j->cols[rk[k]].type, id->name);
        exec_expr_t *eq = exec_expr_cmp(pc->arena, EXEC_CMP_EQ, l, r, err);
        if (!eq || !(cond = cond ? exec_expr_and(pc->arena, cond, eq, err) : eq)) {
            bind_at(err, id->pos);
            return NULL;
        }
    }
    if (!cond && j->join.type != PLAN_JOIN_INNER) { /* NATURAL without shared names: ON TRUE */
        exec_value_t t = exec_value_bool(true);
        cond = exec_expr_const(pc->arena, &t);
    }
    j->join.cond = cond;
    if (!cond) j->join.type = PLAN_JOIN_CROSS;
    if (cond && plan_split_join_condition(pc, j, cond, nleft, err) < 0) return NULL;
    return using_output(pc, j, &keys, lk, rk, err);
}
