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
#include <stdlib.h>
#include <string.h>

#include "model/text_io.h"
#include "planner/bind_from.h"
#include "planner/bind_int.h"
#include "planner/plan_const.h"

#define BIND_SRF_MAX_ROWS 1000000 /* rows a set-returning function or select list computes */

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
static int arg_value(plan_ctx_t *pc, const ast_from_t *f, int i, exec_type_t t, exec_value_t *out,
                     sl_error_t *err)
{
    exec_expr_t *x = plan_bind_constant(pc, f->func_args.items[i], err);
    if (!x || plan_eval_constant(pc->arena, x, t, out, err) < 0)
        return bind_at(err, f->func_args.items[i]->pos);
    return 0;
}

static int series(plan_ctx_t *pc, const ast_from_t *f, exec_type_t *t, srf_rows_t *r,
                  sl_error_t *err)
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
            sl_error_set(err, SL_ERR_PROGRAM_LIMIT_EXCEEDED,
                         "generate_series in FROM gives at most %d rows", BIND_SRF_MAX_ROWS);
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
        int null = !exec_text_array_element(s, &k, &e);
        char *z = sl_strndup(a, e.data ? e.data : "", e.len);
        add_row(a, r,
                null ? exec_value_null(exec_type_of(EXEC_TYPE_STRING)) : exec_value_cstr(a, z));
        sl_buf_free(&e);
        if (k < s.len && s.ptr[k] == ',') k++;
    }
}

static int unnest(plan_ctx_t *pc, const ast_from_t *f, exec_type_t *t, srf_rows_t *r,
                  sl_error_t *err)
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
    if (f->schema && strcmp(f->schema->name, "pg_catalog")) {
        sl_error_set(err, SL_ERR_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist",
                     f->schema->name);
        bind_at(err, f->schema->pos);
        return NULL;
    }
    exec_type_t t;
    srf_rows_t r = {0};
    int rc = !strcmp(name, "generate_series") ? series(pc, f, &t, &r, err)
             : !strcmp(name, "unnest")        ? unnest(pc, f, &t, &r, err)
                                              : 0;
    if (rc < 0) return NULL;
    if (rc == 0) {
        sl_error_set(err, SL_ERR_UNDEFINED_FUNCTION,
                     "function %s with %d arguments does not exist in FROM", name, f->func_args.n);
        sl_error_hint(
            err, "The set-returning functions in FROM are generate_series(start, stop[, step]) and "
                 "unnest(array).");
        bind_at(err, f->name->pos);
        return NULL;
    }
    plan_node_t *n = plan_node_new(pc->arena, LP_VALUES, 1, f->pos);
    const char *col = f->alias ? f->alias->name : name;
    n->cols[0] = (plan_col_t){.name = col, .qual = col, .type = t, .wm_delay_ms = -1};
    n->values.nrows = (int)r.n;
    n->values.rows = r.n ? r.rows : SL_NEW_ARRAY(pc->arena, exec_value_t *, 1);
    if (f->alias_cols.n && plan_rename_columns(n, &f->alias_cols, "function", name, err) < 0)
        return NULL;
    return n;
}

/* ---- set-returning functions in a select list ----
 * SELECT unnest(a), generate_subscripts(a, 1), (_pg_expandarray(a)).n,
 * other items FROM ...: computed by the binder for every row of the FROM
 * (after WHERE; at most BIND_CORRELATED_MAX_ROWS, bind_input_rows), the
 * functions' rows zipped as PostgreSQL does (the longest sets the count,
 * the others padded with NULL), into constant rows. The functions:
 *   unnest(array)                  its elements, text
 *   generate_subscripts(array, 1)  its subscripts (from 1; a vector's from 0)
 *   generate_series(start, stop)   as in FROM
 *   information_schema._pg_expandarray(array)
 *                                  (x, n): each element with its 1-based index
 * (window functions are not beside them: bind_window_rows.c computes
 * those). */

typedef enum { SRF_NONE, SRF_UNNEST, SRF_SUBSCRIPTS, SRF_SERIES, SRF_EXPAND } srf_kind_t;

/* The set-returning call an item is (possibly under one field access). */
static srf_kind_t item_srf(const ast_expr_t *e, const ast_expr_t **call)
{
    if (e && e->kind == AST_EXPR_FIELD) e = e->arg;
    if (!e || e->kind != AST_EXPR_FUNC) return SRF_NONE;
    *call = e;
    const char *n = e->name->name;
    if (e->over) return SRF_NONE; /* a window function: bind_window_rows.c */
    return !strcmp(n, "unnest")                ? SRF_UNNEST
           : !strcmp(n, "generate_subscripts") ? SRF_SUBSCRIPTS
           : !strcmp(n, "generate_series")     ? SRF_SERIES
           : !strcmp(n, "_pg_expandarray")     ? SRF_EXPAND
                                               : SRF_NONE;
}

int plan_select_has_srf(const ast_select_t *q)
{
    const ast_expr_t *call;
    for (int i = 0; i < q->items.n; i++)
        if (item_srf(q->items.items[i]->expr, &call) != SRF_NONE) return 1;
    return 0;
}

static exec_type_t expand_type(sl_arena_t *a)
{
    const char *names[] = {"x", "n"};
    exec_type_t types[] = {exec_type_of(EXEC_TYPE_STRING), exec_type_of(EXEC_TYPE_INT)};
    return exec_type_struct(a, 2, names, types);
}

/* The elements of an array's text form or of a vector ("1 2"). */
static void elements(sl_arena_t *a, exec_str_t s, srf_rows_t *r, int *from)
{
    *from = s.len && s.ptr[0] == '{' ? 1 : 0;
    if (*from) {
        split_array(a, s, r);
        return;
    }
    for (uint32_t k = 0; k < s.len;) {
        while (k < s.len && s.ptr[k] == ' ') k++;
        uint32_t start = k;
        while (k < s.len && s.ptr[k] != ' ') k++;
        if (k > start) add_row(a, r, exec_value_cstr(a, sl_strndup(a, s.ptr + start, k - start)));
    }
}

/* The values one call gives for the current outer row (bound in pc). */
static int srf_values(plan_ctx_t *pc, srf_kind_t k, const ast_expr_t *call, srf_rows_t *out,
                      sl_error_t *err)
{
    sl_arena_t *a = pc->arena;
    if (k == SRF_SERIES) {
        ast_from_t f = {.kind = AST_FROM_FUNCTION,
                        .pos = call->pos,
                        .name = call->name,
                        .func_args = call->args};
        exec_type_t t;
        return series(pc, &f, &t, out, err) < 0 ? -1 : 0;
    }
    if (call->args.n < 1)
        return sl_error_set(err, SL_ERR_UNDEFINED_FUNCTION, "function %s() does not exist",
                            call->name->name);
    exec_expr_t *x = plan_bind_constant(pc, call->args.items[0], err);
    exec_value_t v;
    if (!x || plan_eval_constant(a, x, exec_type_of(EXEC_TYPE_STRING), &v, err) < 0) return -1;
    if (v.is_null) return 0;
    srf_rows_t el = {0};
    int from;
    elements(a, v.u.str, &el, &from);
    for (int64_t i = 0; i < el.n; i++) {
        if (k == SRF_UNNEST) {
            add_row(a, out, *el.rows[i]);
        } else if (k == SRF_SUBSCRIPTS) {
            add_row(a, out, exec_value_int((int32_t)(i + from)));
        } else {
            exec_value_t *f = SL_NEW_ARRAY(a, exec_value_t, 2);
            f[0] = *el.rows[i];
            f[1] = exec_value_int((int32_t)(i + 1));
            add_row(a, out, exec_value_struct(expand_type(a), f));
        }
    }
    return 0;
}

static exec_type_t srf_type(sl_arena_t *a, srf_kind_t k)
{
    return k == SRF_UNNEST   ? exec_type_of(EXEC_TYPE_STRING)
           : k == SRF_EXPAND ? expand_type(a)
                             : exec_type_of(k == SRF_SERIES ? EXEC_TYPE_BIGINT : EXEC_TYPE_INT);
}

/* The field an item takes of its function's composite result, or -1. */
static int item_field(const ast_expr_t *e, exec_type_t t)
{
    if (e->kind != AST_EXPR_FIELD || t.id != EXEC_TYPE_STRUCT) return -1;
    return exec_type_field_index(t, e->field->name);
}

typedef struct srf_select {
    plan_ctx_t *pc;
    const ast_select_t *q;
    int nitems;
    srf_kind_t *kinds;
    const ast_expr_t **calls;
    exec_type_t *types;
    srf_rows_t out;
} srf_select_t;

/* Adds the rows one outer row gives (values bound in pc's outer scope). */
static int expand_row(srf_select_t *s, sl_error_t *err)
{
    sl_arena_t *a = s->pc->arena;
    srf_rows_t *sets = SL_NEW_ARRAY(a, srf_rows_t, s->nitems);
    exec_value_t *plain = SL_NEW_ARRAY(a, exec_value_t, s->nitems);
    int64_t most = 0;
    for (int i = 0; i < s->nitems; i++) {
        const ast_expr_t *e = s->q->items.items[i]->expr;
        if (s->kinds[i] != SRF_NONE) {
            if (srf_values(s->pc, s->kinds[i], s->calls[i], &sets[i], err) < 0) return -1;
            if (sets[i].n > most) most = sets[i].n;
            continue;
        }
        exec_expr_t *x = plan_bind_constant(s->pc, e, err);
        if (!x || plan_eval_constant(a, x, s->types[i], &plain[i], err) < 0) return -1;
    }
    for (int64_t r = 0; r < most; r++) {
        exec_value_t *row = SL_NEW_ARRAY(a, exec_value_t, s->nitems);
        for (int i = 0; i < s->nitems; i++) {
            if (s->kinds[i] == SRF_NONE) {
                row[i] = plain[i];
                continue;
            }
            exec_value_t v =
                r < sets[i].n ? *sets[i].rows[r] : exec_value_null(srf_type(a, s->kinds[i]));
            int f = item_field(s->q->items.items[i]->expr, srf_type(a, s->kinds[i]));
            row[i] = f < 0 ? v : v.is_null ? exec_value_null(s->types[i]) : v.u.fields[f];
        }
        add_row(a, &s->out, exec_value_null(exec_type_of(EXEC_TYPE_NULL)));
        s->out.rows[s->out.n - 1] = row;
    }
    return 0;
}

/* Item types and names, from binding the items once with NULL outer values. */
static int settle_types(srf_select_t *s, plan_node_t *v, sl_error_t *err)
{
    sl_arena_t *a = s->pc->arena;
    for (int i = 0; i < s->nitems; i++) {
        const ast_select_item_t *it = s->q->items.items[i];
        if (it->star) {
            sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                         "* is not supported beside set-returning functions");
            return bind_at(err, it->pos);
        }
        s->kinds[i] = item_srf(it->expr, &s->calls[i]);
        if (s->kinds[i] == SRF_NONE) {
            exec_expr_t *x = plan_bind_constant(s->pc, it->expr, err);
            if (!x) return -1;
            s->types[i] = x->type.id == EXEC_TYPE_NULL ? exec_type_of(EXEC_TYPE_STRING) : x->type;
        } else {
            exec_type_t t = srf_type(a, s->kinds[i]);
            int f = item_field(it->expr, t);
            s->types[i] = f >= 0 ? t.fields[f].type : t;
            if (it->expr->kind == AST_EXPR_FIELD && f < 0) {
                sl_error_set(err, SL_ERR_UNDEFINED_COLUMN, "column \"%s\" not found in data type",
                             it->expr->field->name);
                return bind_at(err, it->expr->pos);
            }
        }
        const char *name = it->alias ? it->alias->name : bind_default_name(a, it->expr);
        v->cols[i] = (plan_col_t){.name = name, .type = s->types[i], .wm_delay_ms = -1};
    }
    return 0;
}

plan_node_t *plan_bind_srf_select(plan_ctx_t *pc, const ast_select_t *q, plan_node_t *n,
                                  sl_error_t *err)
{
    bind_windows_t windows;
    if (bind_windows_collect(pc->arena, q, &windows)) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                     "window functions beside set-returning functions are not supported");
        bind_at(err, q->pos);
        return NULL;
    }
    binder_t b = {.pc = pc, .ncols = n->ncols, .cols = n->cols, .input = n};
    srf_select_t s = {.pc = pc, .q = q, .nitems = q->items.n};
    s.kinds = SL_NEW_ARRAY(pc->arena, srf_kind_t, s.nitems);
    s.calls = SL_NEW_ARRAY(pc->arena, const ast_expr_t *, s.nitems);
    s.types = SL_NEW_ARRAY(pc->arena, exec_type_t, s.nitems);
    plan_node_t *v = plan_node_new(pc->arena, LP_VALUES, s.nitems, q->pos);
    plan_scope_t scope = {n->ncols, n->cols, pc->outer, NULL,
                          SL_NEW_ARRAY(pc->arena, uint8_t, n->ncols + 1)};
    exec_value_t *nulls = SL_NEW_ARRAY(pc->arena, exec_value_t, n->ncols + 1);
    for (int i = 0; i < n->ncols; i++) nulls[i] = exec_value_null(n->cols[i].type);
    scope.values = nulls;
    pc->outer = &scope;
    int rc = settle_types(&s, v, err);
    exec_value_t *rows = NULL;
    int64_t nrows = 0;
    if (rc == 0) rc = bind_input_rows(&b, BIND_SRF_MAX_ROWS, &rows, &nrows, err);
    for (int64_t r = 0; rc == 0 && r < nrows; r++) {
        scope.values = rows[r].u.fields;
        rc = expand_row(&s, err);
    }
    pc->outer = scope.up;
    if (rc < 0) return NULL;
    v->values.nrows = (int)s.out.n;
    v->values.rows = s.out.n ? s.out.rows : SL_NEW_ARRAY(pc->arena, exec_value_t *, 1);
    return v;
}
