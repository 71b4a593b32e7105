/* Subqueries in expressions: `(SELECT ...)` as a value, `EXISTS (SELECT
 * ...)` and `x [NOT] IN (SELECT ...)`. Correlated ones in WHERE and a
 * simple select list are bind_correlated.c's; the others here: the
 * subquery is bound with the enclosing queries' columns out of its scope
 * (a name that resolves only there is refused with 0A000, naming it), run
 * once before the query through the caller's plan_subquery_runner_t, and
 * replaced by constants, as Spark computes uncorrelated subqueries before
 * the query that uses them:
 *   scalar   its one value; NULL without rows; 21000 with more than one
 *   EXISTS   TRUE when it has a row
 *   ARRAY    ARRAY(SELECT ...): its values in an array's text form
 *            ({a,b}; sluice has no array type)
 *   IN       x [NOT] IN (its values), so SQL's NULL rules are those of
 *            exec_expr_in: a NULL among the values makes a miss NULL;
 *            an empty result makes IN false and NOT IN true, even for a
 *            NULL x.
 * A continuous query has no runner and refuses them (0A000). Results are
 * kept by AST node in pc->memo: an expression may be bound twice (GROUP BY
 * matching binds it first). */
#include <string.h>
#include <strings.h>

#include "planner/bind_from.h"
#include "planner/bind_int.h"

int bind_check_correlated(const binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    const ast_ident_list_t *p = &e->names;
    for (const plan_scope_t *s = b->pc->outer; s; s = s->up) {
        for (int i = 0; i < s->ncols; i++) {
            const plan_col_t *c = &s->cols[i];
            int qualified = p->n >= 2 && c->qual && !strcmp(c->qual, p->items[0]->name) &&
                            !strcmp(c->name, p->items[1]->name);
            int plain = !c->hidden && !strcmp(c->name, p->items[0]->name);
            if (!qualified && !plain) continue;
            const char *name =
                qualified ? sl_printf(b->pc->arena, "%s.%s", c->qual, c->name) : c->name;
            sl_error_set(
                err, SL_ERR_FEATURE_NOT_SUPPORTED,
                "correlated subqueries are not supported: \"%s\" is a column of an enclosing query",
                name);
            sl_error_hint(err,
                          "Compute the subquery for every value with a join or GROUP BY instead.");
            return 1;
        }
    }
    return 0;
}

static plan_node_t *limit_rows(sl_arena_t *a, plan_node_t *q, int64_t n)
{
    plan_node_t *l = plan_node_new(a, LP_LIMIT, q->ncols, q->pos);
    memcpy(l->cols, q->cols, sizeof *l->cols * (size_t)q->ncols);
    l->limit.limit = n;
    plan_set_child(l, 0, q);
    return l;
}

/* Binds e->query in a scope where b's columns are outer, and runs it (at
 * most `limit` rows when >= 0). `one_column`: the values are the result, so
 * it must have exactly one column. */
static plan_subq_memo_t *run_subquery(binder_t *b, const ast_expr_t *e, int64_t limit,
                                      int one_column, sl_error_t *err)
{
    plan_ctx_t *pc = b->pc;
    for (plan_subq_memo_t *m = pc->memo; m; m = m->next)
        if (m->q == e->query) return m;
    if (!pc->subqueries) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                     "subqueries in expressions are not supported in continuous queries");
        sl_error_hint(
            err,
            "Join the stream with the table instead: a stream-static join reads the table anew "
            "every micro-batch.");
        bind_at(err, e->pos);
        return NULL;
    }
    plan_scope_t scope = {b->ncols, b->cols, pc->outer};
    pc->outer = &scope;
    plan_node_t *q = plan_bind(pc, e->query, err);
    pc->outer = scope.up;
    if (!q) return NULL;
    int nv = plan_visible_columns(q);
    if (one_column && nv != 1) {
        sl_error_set(err, SL_ERR_SYNTAX_ERROR,
                     nv > 1 ? "subquery has too many columns" : "subquery has no columns");
        bind_at(err, e->query->pos);
        return NULL;
    }
    plan_subq_memo_t *m = SL_NEW(pc->arena, plan_subq_memo_t);
    m->q = e->query;
    m->type = q->cols[0].type;
    if (limit >= 0) q = limit_rows(pc->arena, q, limit);
    if (pc->subqueries->run(pc->subqueries->ctx, q, pc->arena, &m->values, &m->nrows, err) < 0) {
        bind_at(err, e->query->pos);
        return NULL;
    }
    m->next = pc->memo;
    pc->memo = m;
    return m;
}

static exec_expr_t *constant(binder_t *b, exec_value_t v)
{
    return exec_expr_const(b->pc->arena, &v);
}

static exec_expr_t *bind_scalar(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    plan_subq_memo_t *m = run_subquery(b, e, 2, 1, err);
    if (!m) return NULL;
    if (m->nrows > 1) {
        sl_error_set(err, SL_ERR_CARDINALITY_VIOLATION,
                     "more than one row returned by a subquery used as an expression");
        bind_at(err, e->pos);
        return NULL;
    }
    return constant(b, m->nrows ? m->values[0] : exec_value_null(m->type));
}

static exec_expr_t *bind_in_query(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    exec_expr_t *x = bind_expr(b, e->arg, err);
    plan_subq_memo_t *m = x ? run_subquery(b, e, -1, 1, err) : NULL;
    if (!m) return NULL;
    int64_t n = m->nrows;
    if (n > INT32_MAX) {
        sl_error_set(err, SL_ERR_PROGRAM_LIMIT_EXCEEDED, "IN subquery returned too many rows");
        bind_at(err, e->query->pos);
        return NULL;
    }
    /* without rows: a NULL of the column's type, to check the types */
    exec_expr_t **list = SL_NEW_ARRAY(b->pc->arena, exec_expr_t *, n > 0 ? n : 1);
    list[0] = constant(b, exec_value_null(m->type));
    for (int64_t i = 0; i < n; i++) list[i] = constant(b, m->values[i]);
    exec_expr_t *in = exec_expr_in(b->pc->arena, x, list, n > 0 ? (int)n : 1, e->negated, err);
    if (!in) {
        bind_at(err, e->pos);
        return NULL;
    }
    return n > 0 ? in : constant(b, exec_value_bool(e->negated));
}

exec_expr_t *bind_array_value(sl_arena_t *a, const exec_value_t *v, int64_t n)
{
    sl_buf_t buf = SL_BUF_INIT;
    sl_buf_putc(&buf, '{');
    for (int64_t i = 0; i < n; i++) {
        if (i) sl_buf_putc(&buf, ',');
        if (v[i].is_null) {
            sl_buf_puts(&buf, "NULL");
            continue;
        }
        const char *t = exec_value_text(&v[i], a);
        int quote = !*t || !strcasecmp(t, "null") || strpbrk(t, "{},\"\\ \t\n") != NULL;
        if (quote) sl_buf_putc(&buf, '"');
        for (const char *p = t; *p; p++) {
            if (quote && (*p == '"' || *p == '\\')) sl_buf_putc(&buf, '\\');
            sl_buf_putc(&buf, *p);
        }
        if (quote) sl_buf_putc(&buf, '"');
    }
    sl_buf_putc(&buf, '}');
    exec_value_t s = exec_value_string(buf.data, buf.len);
    exec_expr_t *x = exec_expr_const(a, &s);
    sl_buf_free(&buf);
    return x;
}

exec_expr_t *bind_subquery_expr(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    exec_expr_t *corr; /* correlated: computed per outer value (bind_correlated.c) */
    int rc = bind_correlated(b, e, &corr, err);
    if (rc) return rc > 0 ? corr : NULL;
    if (e->kind == AST_EXPR_IN) return bind_in_query(b, e, err);
    if (e->kind == AST_EXPR_SUBQUERY) return bind_scalar(b, e, err);
    if (e->kind == AST_EXPR_ARRAY) {
        plan_subq_memo_t *a = run_subquery(b, e, -1, 1, err);
        return a ? bind_array_value(b->pc->arena, a->values, a->nrows) : NULL;
    }
    plan_subq_memo_t *m = run_subquery(b, e, 1, 0, err);
    return m ? constant(b, exec_value_bool(m->nrows > 0)) : NULL;
}
