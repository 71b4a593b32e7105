/* Set-returning functions in FROM, computed by the binder into constant
 * rows (their arguments are constants, or columns of an enclosing query
 * bound for one of its rows):
 *   generate_series(start, stop[, step])  integers from start to stop
 *                                         (INT when every argument is, else
 *                                         BIGINT); no rows when an argument
 *                                         is NULL; 22023 for a zero step
 *   unnest(array)                         the elements of an array's text
 *                                         form ({a,b}; sluice has no array
 *                                         type), as text
 * The one column is named after the alias, else the function. Other names
 * are 42883; more than BIND_SRF_MAX_ROWS rows is 54000. */
#include <string.h>

#include "planner/bind_from.h"
#include "planner/bind_int.h"
#include "planner/plan_const.h"

#define BIND_SRF_MAX_ROWS 1000000

typedef struct srf_rows {
    int64_t n, cap;
    exec_value_t **rows;
} srf_rows_t;

static void add_row(sl_arena_t *a, srf_rows_t *r, exec_value_t v)
{
    if (r->n == r->cap) {
        int64_t cap = r->cap ? r->cap * 2 : 16;
        exec_value_t **rows = SL_NEW_ARRAY(a, exec_value_t *, cap);
        if (r->n) memcpy(rows, r->rows, sizeof *rows * (size_t)r->n);
        r->rows = rows;
        r->cap = cap;
    }
    r->rows[r->n] = SL_NEW(a, exec_value_t);
    *r->rows[r->n++] = v;
}

/* Argument i evaluated as type t. */
static int arg_value(plan_ctx_t *pc, const ast_from_t *f, int i, exec_type_t t, exec_value_t *out, sl_error_t *err)
{
    exec_expr_t *x = plan_bind_constant(pc, f->func_args.items[i], err);
    if (!x || plan_eval_constant(pc->arena, x, t, out, err) < 0) return bind_at(err, f->func_args.items[i]->pos);
    return 0;
}

static int series(plan_ctx_t *pc, const ast_from_t *f, exec_type_t *t, srf_rows_t *r, sl_error_t *err)
{
    int n = f->func_args.n, all_int = 1;
    if (n < 2 || n > 3) return 0;
    for (int i = 0; i < n; i++) {
        exec_expr_t *x = plan_bind_constant(pc, f->func_args.items[i], err);
        if (!x) return -1;
        all_int &= x->type.id == EXEC_TYPE_INT || x->type.id == EXEC_TYPE_NULL;
    }
    *t = exec_type_of(all_int ? EXEC_TYPE_INT : EXEC_TYPE_BIGINT);
    exec_value_t v[3] = {exec_value_bigint(0), exec_value_bigint(0), exec_value_bigint(1)};
    for (int i = 0; i < n; i++)
        if (arg_value(pc, f, i, exec_type_of(EXEC_TYPE_BIGINT), &v[i], err) < 0) return -1;
    if (v[0].is_null || v[1].is_null || v[2].is_null) return 1;
    int64_t step = v[2].u.i64;
    if (step == 0) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "step size cannot equal zero");
        return bind_at(err, f->pos);
    }
    for (int64_t x = v[0].u.i64; step > 0 ? x <= v[1].u.i64 : x >= v[1].u.i64; x += step) {
        if (r->n >= BIND_SRF_MAX_ROWS) {
            sl_error_set(err, SL_ERR_PROGRAM_LIMIT_EXCEEDED, "generate_series in FROM gives at most %d rows",
                         BIND_SRF_MAX_ROWS);
            return bind_at(err, f->pos);
        }
        add_row(pc->arena, r, all_int ? exec_value_int((int32_t)x) : exec_value_bigint(x));
    }
    return 1;
}

/* The elements of {a,"b c",NULL}. */
static void split_array(sl_arena_t *a, exec_str_t s, srf_rows_t *r)
{
    uint32_t k = s.len && s.ptr[0] == '{' ? 1 : 0;
    while (k < s.len && s.ptr[k] != '}') {
        sl_buf_t e = SL_BUF_INIT;
        int quoted = s.ptr[k] == '"';
        for (k += quoted; k < s.len; k++) {
            char ch = s.ptr[k];
            if (quoted && ch == '\\' && k + 1 < s.len) ch = s.ptr[++k];
            else if (quoted && ch == '"') { k++; break; }
            else if (!quoted && (ch == ',' || ch == '}')) break;
            sl_buf_putc(&e, ch);
        }
        int null = !quoted && e.len == 4 && !memcmp(e.data, "NULL", 4);
        char *z = sl_strndup(a, e.data ? e.data : "", e.len);
        add_row(a, r, null ? exec_value_null(exec_type_of(EXEC_TYPE_STRING)) : exec_value_cstr(a, z));
        sl_buf_free(&e);
        if (k < s.len && s.ptr[k] == ',') k++;
    }
}

static int unnest(plan_ctx_t *pc, const ast_from_t *f, exec_type_t *t, srf_rows_t *r, sl_error_t *err)
{
    if (f->func_args.n != 1) return 0;
    *t = exec_type_of(EXEC_TYPE_STRING);
    exec_value_t v;
    if (arg_value(pc, f, 0, *t, &v, err) < 0) return -1;
    if (!v.is_null) split_array(pc->arena, v.u.str, r);
    return 1;
}

plan_node_t *plan_bind_from_function(plan_ctx_t *pc, const ast_from_t *f, sl_error_t *err)
{
    const char *name = f->name->name;
    exec_type_t t;
    srf_rows_t r = {0};
    int rc = !strcmp(name, "generate_series") ? series(pc, f, &t, &r, err)
             : !strcmp(name, "unnest")        ? unnest(pc, f, &t, &r, err)
                                              : 0;
    if (rc < 0) return NULL;
    if (rc == 0) {
        sl_error_set(err, SL_ERR_UNDEFINED_FUNCTION, "function %s with %d arguments does not exist in FROM", name,
                     f->func_args.n);
        sl_error_hint(err, "The set-returning functions in FROM are generate_series(start, stop[, step]) and "
                           "unnest(array).");
        bind_at(err, f->name->pos);
        return NULL;
    }
    plan_node_t *n = plan_node_new(pc->arena, LP_VALUES, 1, f->pos);
    const char *col = f->alias ? f->alias->name : name;
    n->cols[0] = (plan_col_t){.name = col, .qual = col, .type = t, .wm_delay_ms = -1};
    n->values.nrows = (int)r.n;
    n->values.rows = r.n ? r.rows : SL_NEW_ARRAY(pc->arena, exec_value_t *, 1);
    if (f->alias_cols.n && plan_rename_columns(n, &f->alias_cols, "function", name, err) < 0) return NULL;
    return n;
}
