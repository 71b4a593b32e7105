/* Correlated subqueries in batch statements — `(SELECT ... WHERE d.x =
 * outer.y)`, EXISTS, IN and ARRAY(SELECT ...) — as PostgreSQL tools' catalog queries use
 * them (psql's \d, SQLAlchemy's inspector).
 *
 * The binder computes them before the query runs, like the uncorrelated
 * ones (bind_subquery.c), once per distinct value of the outer columns
 * they read: the rows of the enclosing query's input (its FROM after
 * WHERE) are run first; for each, the subquery is bound with those
 * columns as constants and run; the expression becomes
 *   CASE WHEN col IS NOT DISTINCT FROM v1 [AND ...] THEN result1 ... END
 * over the columns read. This bounds the enclosing input to
 * BIND_CORRELATED_MAX_ROWS rows (0A000 beyond: a join is the way to
 * compute such a subquery over a large input). Only the innermost
 * enclosing query's columns can be read; a subquery inside an aggregate
 * query keeps the 0A000 of bind_check_correlated. A subquery over an
 * enclosing input without rows is never computed (never_computed). */
#include <string.h>

#include "planner/bind_from.h"
#include "planner/bind_int.h"

exec_expr_t *bind_outer_value(const binder_t *b, const ast_expr_t *e)
{
    const plan_scope_t *s = b->pc->outer;
    if (!s || !s->values) return NULL;
    const ast_ident_list_t *p = &e->names;
    for (int i = 0; i < s->ncols; i++) {
        const plan_col_t *c = &s->cols[i];
        int qualified = p->n == 2 && c->qual && !strcmp(c->qual, p->items[0]->name) &&
                        !strcmp(c->name, p->items[1]->name);
        int plain = p->n == 1 && !c->hidden && !strcmp(c->name, p->items[0]->name);
        if (!qualified && !plain) continue;
        s->used[i] = 1;
        exec_value_t v = s->values[i];
        if (v.is_null) v = exec_value_null(c->type);
        return exec_expr_const(b->pc->arena, &v);
    }
    return NULL;
}

/* Binds e->query with the outer columns set to `values`; pc->memo is set
 * aside, as its results hold for one outer row only. */
static plan_node_t *bind_for_row(binder_t *b, const ast_expr_t *e, plan_scope_t *scope,
                                 const exec_value_t *values, sl_error_t *err)
{
    plan_ctx_t *pc = b->pc;
    struct plan_subq_memo *memo = pc->memo;
    scope->values = values;
    pc->outer = scope;
    pc->memo = NULL;
    plan_node_t *q = plan_bind(pc, e->query, err);
    pc->outer = scope->up;
    pc->memo = memo;
    return q;
}

int bind_input_rows(binder_t *b, int64_t max, exec_value_t **rows, int64_t *n, sl_error_t *err)
{
    sl_arena_t *a = b->pc->arena;
    exec_expr_t **cols = SL_NEW_ARRAY(a, exec_expr_t *, b->ncols);
    const char **names = SL_NEW_ARRAY(a, const char *, b->ncols);
    for (int i = 0; i < b->ncols; i++) {
        cols[i] = exec_expr_column(a, i, b->cols[i].type, NULL);
        names[i] = sl_printf(a, "c%d", i);
    }
    exec_expr_t *row = exec_expr_struct(a, cols, names, b->ncols, err);
    const char *name = "row";
    if (!row) return -1;
    plan_node_t *p = plan_project(a, b->input, &row, &name, 1);
    plan_node_t *l = plan_node_new(a, LP_LIMIT, 1, p->pos);
    l->cols[0] = p->cols[0];
    l->limit.limit = max + 1;
    plan_set_child(l, 0, p);
    if (b->pc->subqueries->run(b->pc->subqueries->ctx, l, a, rows, n, err) < 0) return -1;
    if (*n <= max) return 0;
    return sl_error_set(
        err, SL_ERR_FEATURE_NOT_SUPPORTED,
        "correlated subqueries and select-list functions are computed for at most %lld rows "
        "of the enclosing query",
        (long long)max);
}

/* The subquery's value for one outer row, as an expression: its one value
 * (scalar), whether it has a row (EXISTS), or x IN (its values). */
static exec_expr_t *row_result(binder_t *b, const ast_expr_t *e, plan_node_t *q, exec_expr_t *x,
                               sl_error_t *err)
{
    plan_ctx_t *pc = b->pc;
    int64_t limit = e->kind == AST_EXPR_EXISTS ? 1 : e->kind == AST_EXPR_SUBQUERY ? 2 : -1;
    if (e->kind == AST_EXPR_ARRAY) limit = -1;
    if (limit >= 0) {
        plan_node_t *l = plan_node_new(pc->arena, LP_LIMIT, q->ncols, q->pos);
        memcpy(l->cols, q->cols, sizeof *l->cols * (size_t)q->ncols);
        l->limit.limit = limit;
        plan_set_child(l, 0, q);
        q = l;
    }
    exec_value_t *v;
    int64_t n;
    if (pc->subqueries->run(pc->subqueries->ctx, q, pc->arena, &v, &n, err) < 0) return NULL;
    exec_value_t r;
    if (e->kind == AST_EXPR_ARRAY) return bind_array_value(pc->arena, v, n);
    if (e->kind == AST_EXPR_EXISTS) {
        r = exec_value_bool(n > 0);
    } else if (e->kind == AST_EXPR_SUBQUERY) {
        if (n > 1) {
            sl_error_set(err, SL_ERR_CARDINALITY_VIOLATION,
                         "more than one row returned by a subquery used as an expression");
            return NULL;
        }
        r = n ? v[0] : exec_value_null(q->cols[0].type);
    } else {
        if (n == 0)
            return exec_expr_const(pc->arena, &(exec_value_t){exec_type_of(EXEC_TYPE_BOOLEAN),
                                                              false,
                                                              {.b = (uint8_t)e->negated}});
        exec_expr_t **list = SL_NEW_ARRAY(pc->arena, exec_expr_t *, n);
        for (int64_t i = 0; i < n; i++) list[i] = exec_expr_const(pc->arena, &v[i]);
        return exec_expr_in(pc->arena, x, list, (int)n, e->negated, err);
    }
    if (r.is_null) r = exec_value_null(q->cols[0].type);
    return exec_expr_const(pc->arena, &r);
}

/* col1 IS NOT DISTINCT FROM v1 AND ... over the used columns. */
static exec_expr_t *key_match(binder_t *b, const plan_scope_t *s, const exec_value_t *row,
                              sl_error_t *err)
{
    sl_arena_t *a = b->pc->arena;
    exec_expr_t *m = NULL;
    for (int i = 0; i < s->ncols; i++) {
        if (!s->used[i]) continue;
        exec_value_t v = row[i].is_null ? exec_value_null(s->cols[i].type) : row[i];
        exec_expr_t *eq =
            exec_expr_distinct(a, exec_expr_column(a, i, s->cols[i].type, s->cols[i].name),
                               exec_expr_const(a, &v), true, err);
        m = !eq ? NULL : m ? exec_expr_and(a, m, eq, err) : eq;
        if (!m) return NULL;
    }
    return m;
}

/* True when rows r and k have equal values in the used columns. */
static int same_key(const plan_scope_t *s, const exec_value_t *r, const exec_value_t *k)
{
    for (int i = 0; i < s->ncols; i++)
        if (s->used[i] &&
            (r[i].is_null != k[i].is_null || (!r[i].is_null && !exec_value_equal(&r[i], &k[i]))))
            return 0;
    return 1;
}

/* The result without an outer row (describing a statement): NULL, false,
 * or false / true for [NOT] IN. */
static exec_expr_t *no_row_result(binder_t *b, const ast_expr_t *e, plan_node_t *probe)
{
    if (e->kind == AST_EXPR_ARRAY) return bind_array_value(b->pc->arena, NULL, 0);
    exec_value_t v = e->kind == AST_EXPR_SUBQUERY ? exec_value_null(probe->cols[0].type)
                     : e->kind == AST_EXPR_EXISTS ? exec_value_bool(false)
                                                  : exec_value_bool(e->negated);
    return exec_expr_const(b->pc->arena, &v);
}

static exec_expr_t *build_case(binder_t *b, const ast_expr_t *e, plan_scope_t *s,
                               plan_node_t *probe, exec_expr_t *x, const exec_value_t *rows,
                               int64_t n, sl_error_t *err)
{
    sl_arena_t *a = b->pc->arena;
    exec_expr_t **whens = SL_NEW_ARRAY(a, exec_expr_t *, n > 0 ? n : 1);
    exec_expr_t **thens = SL_NEW_ARRAY(a, exec_expr_t *, n > 0 ? n : 1);
    const exec_value_t **keys = SL_NEW_ARRAY(a, const exec_value_t *, n > 0 ? n : 1);
    int nk = 0;
    for (int64_t r = 0; r < n; r++) {
        const exec_value_t *row = rows[r].u.fields;
        int seen = 0;
        for (int k = 0; k < nk && !seen; k++) seen = same_key(s, row, keys[k]);
        if (seen) continue;
        plan_node_t *q = bind_for_row(b, e, s, row, err);
        if (!q || !(thens[nk] = row_result(b, e, q, x, err)) ||
            !(whens[nk] = key_match(b, s, row, err)))
            return NULL;
        keys[nk++] = row;
    }
    exec_expr_t *els = no_row_result(b, e, probe);
    return nk ? exec_expr_case(a, NULL, whens, thens, nk, els, err) : els;
}

/* A subquery that does not bind (a function or construct sluice lacks)
 * is still answered when the enclosing query has no row to compute it for,
 * as PostgreSQL's catalog queries about objects sluice has none of need:
 * the value of no row (NULL typed as text for a scalar). Else the error. */
static int never_computed(binder_t *b, const ast_expr_t *e, exec_expr_t **out, sl_error_t *err)
{
    sl_error_t saved = *err, ignored = {0};
    exec_value_t *rows;
    int64_t n;
    if (bind_input_rows(b, BIND_CORRELATED_MAX_ROWS, &rows, &n, &ignored) < 0 || n > 0) {
        *err = saved;
        return -1;
    }
    memset(err, 0, sizeof *err);
    if (e->kind == AST_EXPR_ARRAY) {
        *out = bind_array_value(b->pc->arena, NULL, 0);
        return 1;
    }
    exec_value_t v = e->kind == AST_EXPR_SUBQUERY ? exec_value_null(exec_type_of(EXEC_TYPE_STRING))
                     : e->kind == AST_EXPR_EXISTS ? exec_value_bool(false)
                                                  : exec_value_bool(e->negated);
    *out = exec_expr_const(b->pc->arena, &v);
    return 1;
}

int bind_correlated(binder_t *b, const ast_expr_t *e, exec_expr_t **out, sl_error_t *err)
{
    *out = NULL;
    if (!b->input || b->agg || !b->pc->subqueries) return 0;
    plan_ctx_t *pc = b->pc;
    plan_scope_t scope = {b->ncols, b->cols, pc->outer, NULL,
                          SL_NEW_ARRAY(pc->arena, uint8_t, b->ncols + 1)};
    exec_value_t *nulls = SL_NEW_ARRAY(pc->arena, exec_value_t, b->ncols + 1);
    for (int i = 0; i < b->ncols; i++) nulls[i] = exec_value_null(b->cols[i].type);
    plan_node_t *probe = bind_for_row(b, e, &scope, nulls, err);
    if (!probe) return never_computed(b, e, out, err);
    int used = 0;
    for (int i = 0; i < b->ncols; i++) used |= scope.used[i];
    if (!used) return 0;
    if (e->kind != AST_EXPR_EXISTS && plan_visible_columns(probe) != 1) {
        sl_error_set(err, SL_ERR_SYNTAX_ERROR, "subquery has too many columns");
        return bind_at(err, e->query->pos);
    }
    exec_expr_t *x = NULL;
    if (e->kind == AST_EXPR_IN && !(x = bind_expr(b, e->arg, err))) return -1;
    exec_value_t *rows;
    int64_t n;
    if (bind_input_rows(b, BIND_CORRELATED_MAX_ROWS, &rows, &n, err) < 0)
        return bind_at(err, e->pos);
    *out = build_case(b, e, &scope, probe, x, rows, n, err);
    return *out ? 1 : bind_at(err, e->pos);
}
