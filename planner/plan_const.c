/* Constants in plans: plan-time evaluation, VALUES, clause intervals. */
#include "planner/plan_const.h"

#include <stdint.h>
#include <string.h>

#include "model/cast.h"
#include "model/text_io.h"
#include "planner/bind_from.h"
#include "planner/bind_int.h"

int plan_eval_constant(sl_arena_t *a, const exec_expr_t *e, exec_type_t type, exec_value_t *out,
                       sl_error_t *err)
{
    if (type.id != EXEC_TYPE_NULL && !exec_type_equal(e->type, type)) {
        e = exec_expr_cast(a, (exec_expr_t *)e, type, err);
        if (!e) return -1;
    }
    exec_prog_t *p = exec_expr_compile(a, e, err);
    if (!p) return -1;
    sl_arena_t *scratch = sl_arena_new("constant");
    exec_batch_t *b = exec_batch_new(scratch, 0, NULL, 1);
    exec_ctx_t ctx = {.arena = scratch};
    exec_vec_t v;
    int rc = exec_prog_eval(p, &ctx, b, &v, err);
    if (rc == 0) {
        exec_value_t tmp;
        exec_vec_get_value(&v, 0, scratch, &tmp);
        *out = exec_value_copy(a, &tmp);
    }
    sl_arena_free(scratch);
    return rc;
}

exec_expr_t *plan_bind_constant(plan_ctx_t *pc, const ast_expr_t *e, sl_error_t *err)
{
    binder_t b = {.pc = pc, .clause = "this context"};
    return bind_expr(&b, e, err);
}

plan_node_t *plan_values_one_row(sl_arena_t *a, int pos)
{
    plan_node_t *n = plan_node_new(a, LP_VALUES, 0, pos);
    n->values.nrows = 1;
    n->values.rows = SL_NEW_ARRAY(a, exec_value_t *, 1);
    n->values.rows[0] = SL_NEW_ARRAY(a, exec_value_t, 1);
    return n;
}

/* Binds every cell and settles the common type of each column. */
static exec_expr_t ***bind_cells(plan_ctx_t *pc, const ast_select_t *q, int ncols,
                                 exec_type_t *types, sl_error_t *err)
{
    binder_t b = {.pc = pc, .clause = "VALUES"};
    exec_expr_t ***cells = SL_NEW_ARRAY(pc->arena, exec_expr_t **, q->rows.n);
    for (int r = 0; r < q->rows.n; r++) {
        const ast_expr_list_t *row = q->rows.items[r];
        if (row->n != ncols) {
            sl_error_set(err, SL_ERR_SYNTAX_ERROR, "VALUES lists must all be the same length");
            bind_at(err, row->n ? row->items[0]->pos : q->pos);
            return NULL;
        }
        cells[r] = SL_NEW_ARRAY(pc->arena, exec_expr_t *, ncols);
        for (int c = 0; c < ncols; c++) {
            if (!(cells[r][c] = bind_expr(&b, row->items[c], err))) return NULL;
            exec_type_t t = cells[r][c]->type;
            if (r > 0 && exec_common_type(types[c], t, "VALUES", &t, err) < 0) {
                bind_at(err, row->items[c]->pos);
                return NULL;
            }
            types[c] = t;
        }
    }
    return cells;
}

plan_node_t *plan_bind_values(plan_ctx_t *pc, const ast_select_t *q, sl_error_t *err)
{
    int ncols = q->rows.n ? q->rows.items[0]->n : 0;
    exec_type_t *types = SL_NEW_ARRAY(pc->arena, exec_type_t, ncols > 0 ? ncols : 1);
    exec_expr_t ***cells = bind_cells(pc, q, ncols, types, err);
    if (!cells) return NULL;
    plan_node_t *n = plan_node_new(pc->arena, LP_VALUES, ncols, q->pos);
    for (int c = 0; c < ncols; c++) {
        n->cols[c].name = sl_printf(pc->arena, "column%d", c + 1);
        n->cols[c].type = types[c].id == EXEC_TYPE_NULL ? exec_type_of(EXEC_TYPE_STRING) : types[c];
        n->cols[c].wm_delay_ms = -1;
    }
    n->values.nrows = q->rows.n;
    n->values.rows = SL_NEW_ARRAY(pc->arena, exec_value_t *, q->rows.n);
    for (int r = 0; r < q->rows.n; r++) {
        n->values.rows[r] = SL_NEW_ARRAY(pc->arena, exec_value_t, ncols > 0 ? ncols : 1);
        for (int c = 0; c < ncols; c++)
            if (plan_eval_constant(pc->arena, cells[r][c], n->cols[c].type, &n->values.rows[r][c],
                                   err) < 0)
                return bind_at(err, q->rows.items[r]->items[c]->pos), NULL;
    }
    return n;
}

int plan_interval_ms(const ast_expr_t *e, const char *what, int64_t *ms, sl_error_t *err)
{
    if (e->kind != AST_EXPR_LITERAL || !e->text ||
        (e->lit != AST_LIT_INTERVAL && e->lit != AST_LIT_STRING)) {
        sl_error_set(err, SL_ERR_SYNTAX_ERROR, "%s must be an interval such as '15 minutes'", what);
        return bind_at(err, e->pos);
    }
    exec_interval_t iv;
    size_t n = strlen(e->text);
    exec_parse_status_t st = e->unit ? exec_parse_interval_unit(e->text, n, e->unit, &iv)
                                     : exec_parse_interval(e->text, n, &iv);
    if (st != EXEC_PARSE_OK) {
        sl_error_set(err, SL_ERR_INVALID_TEXT_REPRESENTATION, "invalid interval for %s: \"%s%s%s\"",
                     what, e->text, e->unit ? " " : "", e->unit ? e->unit : "");
        sl_error_hint(err, "Write an interval such as '10 seconds', '15 minutes' or '1 hour'.");
        return bind_at(err, e->pos);
    }
    if (iv.months != 0) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "%s cannot use months or years", what);
        sl_error_hint(err, "Months differ in length; write the interval in days or smaller units.");
        return bind_at(err, e->pos);
    }
    int64_t v = (int64_t)iv.days * 86400000 + iv.micros / 1000;
    if (v < 0) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "%s must not be negative", what);
        return bind_at(err, e->pos);
    }
    if (v > INT64_MAX / 1000) { /* times are microseconds */
        sl_error_set(err, SL_ERR_DATETIME_FIELD_OVERFLOW, "%s is out of range", what);
        return bind_at(err, e->pos);
    }
    *ms = v;
    return 0;
}

exec_expr_t *plan_bind_condition(plan_ctx_t *pc, const plan_relation_t *rel, const ast_expr_t *e,
                                 const char *clause, sl_error_t *err)
{
    plan_col_t *cols =
        SL_NEW_ARRAY(pc->arena, plan_col_t, rel->stream.ncols > 0 ? rel->stream.ncols : 1);
    for (int i = 0; i < rel->stream.ncols; i++) {
        cols[i].name = rel->stream.col_names[i];
        cols[i].qual = rel->stream.name;
        cols[i].type = rel->stream.col_types[i];
        cols[i].wm_delay_ms = -1;
    }
    binder_t b = {.pc = pc, .ncols = rel->stream.ncols, .cols = cols, .clause = clause};
    exec_expr_t *x = bind_expr(&b, e, err);
    if (x && x->type.id != EXEC_TYPE_BOOLEAN && x->type.id != EXEC_TYPE_NULL) {
        sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                     "argument of %s must be type boolean, not type %s", clause,
                     exec_type_pg_name(x->type));
        bind_at(err, e->pos);
        return NULL;
    }
    return x;
}
