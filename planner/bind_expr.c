/* Binding expressions: AST expressions to typed exec_expr_t trees over the
 * binder's input columns — literals, column and struct-field references,
 * operators, functions, and, over an aggregate, GROUP BY keys and aggregate
 * calls. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "exec/func.h"
#include "model/text_io.h"
#include "planner/bind_int.h"
#include "planner/bind_pg.h"
#include "planner/plan_const.h"

int bind_at(sl_error_t *err, int pos)
{
    if (err->position == 0) err->position = pos + 1;
    return -1;
}

static exec_expr_t *fail_at(sl_error_t *err, int pos)
{
    bind_at(err, pos);
    return NULL;
}

const char *bind_expr_text(sl_arena_t *a, const exec_expr_t *e)
{
    sl_buf_t b = SL_BUF_INIT;
    exec_expr_format(e, &b);
    const char *s = sl_strdup(a, b.data ? b.data : "");
    sl_buf_free(&b);
    return s;
}

/* Appends a canonical form of the tree that tells apart everything that
 * changes its value: column indexes (a.n and b.n differ even when both
 * print as "n"), constants with their types, operators and functions. */
static void sig(sl_buf_t *b, const exec_expr_t *e)
{
    if (e->kind == EXEC_EXPR_COLUMN) {
        sl_buf_printf(b, "$%d", e->column);
        return;
    }
    if (e->kind == EXEC_EXPR_CONST) {
        sl_buf_printf(b, "k%d:", (int)e->type.id);
        if (!exec_value_format(&e->value, b)) sl_buf_puts(b, "NULL");
        sl_buf_putc(b, ';');
        return;
    }
    sl_buf_printf(b, "(%d.%d.%d.%d.%d", (int)e->kind, e->op, (int)e->negated, e->column,
                  (int)e->type.id);
    if (e->kind == EXEC_EXPR_CALL && e->name) sl_buf_printf(b, ".%s", e->name);
    if (e->kind == EXEC_EXPR_CAST) {
        sl_buf_putc(b, '.');
        exec_type_format(e->type, b);
    }
    for (int i = 0; i < e->nargs; i++) {
        sl_buf_putc(b, ' ');
        sig(b, e->args[i]);
    }
    sl_buf_putc(b, ')');
}

const char *bind_expr_sig(sl_arena_t *a, const exec_expr_t *e)
{
    sl_buf_t b = SL_BUF_INIT;
    sig(&b, e);
    const char *s = sl_strdup(a, b.data ? b.data : "");
    sl_buf_free(&b);
    return s;
}

/* ---- literals ---- */

static exec_expr_t *const_expr(binder_t *b, exec_value_t v)
{
    return exec_expr_const(b->pc->arena, &v);
}

static exec_expr_t *bind_integer(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    size_t n = strlen(e->text);
    int32_t i32;
    int64_t i64;
    exec_dec_t d;
    if (exec_parse_int32(e->text, n, &i32) == EXEC_PARSE_OK)
        return const_expr(b, exec_value_int(i32));
    if (exec_parse_int64(e->text, n, &i64) == EXEC_PARSE_OK)
        return const_expr(b, exec_value_bigint(i64));
    if (exec_parse_decimal(e->text, n, 38, 0, &d) == EXEC_PARSE_OK)
        return const_expr(b, exec_value_decimal(d, 38, 0));
    sl_error_set(err, SL_ERR_NUMERIC_VALUE_OUT_OF_RANGE, "integer literal %s is out of range",
                 e->text);
    return fail_at(err, e->pos);
}

/* 1.5 is DECIMAL(2,1) as in Spark; an exponent makes a DOUBLE. `pos` is
 * the byte offset that errors point at. */
static exec_expr_t *bind_numeric_text(binder_t *b, const char *t, int pos, sl_error_t *err)
{
    size_t n = strlen(t);
    int digits = 0, scale = 0, after = 0;
    for (const char *p = t; *p; p++) {
        if (*p == 'e' || *p == 'E') digits = 99;
        if (*p == '.') after = 1;
        else if (*p >= '0' && *p <= '9') {
            digits++;
            scale += after;
        }
    }
    exec_dec_t d;
    if (digits <= 38 &&
        exec_parse_decimal(t, n, digits < 1 ? 1 : digits, scale, &d) == EXEC_PARSE_OK)
        return const_expr(b, exec_value_decimal(d, digits < 1 ? 1 : digits, scale));
    double v;
    if (exec_parse_double(t, n, &v) == EXEC_PARSE_OK) return const_expr(b, exec_value_double(v));
    sl_error_set(err, SL_ERR_INVALID_TEXT_REPRESENTATION, "invalid numeric literal %s", t);
    return fail_at(err, pos);
}

static exec_expr_t *bind_numeric(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    return bind_numeric_text(b, e->text, e->pos, err);
}

static exec_expr_t *bind_typed_literal(binder_t *b, const ast_expr_t *e, exec_type_t t,
                                       sl_error_t *err)
{
    exec_value_t v;
    size_t n = strlen(e->text);
    if (t.id == EXEC_TYPE_INTERVAL && e->unit) {
        exec_interval_t iv;
        exec_parse_status_t st = exec_parse_interval_unit(e->text, n, e->unit, &iv);
        if (st != EXEC_PARSE_OK) {
            exec_text_error(t, st, e->text, n, err);
            return fail_at(err, e->pos);
        }
        return const_expr(b, exec_value_interval(iv));
    }
    if (exec_value_parse(t, e->text, n, b->pc->arena, &v, err) < 0) return fail_at(err, e->pos);
    return const_expr(b, v);
}

static exec_expr_t *bind_literal(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    switch (e->lit) {
    case AST_LIT_NULL: return const_expr(b, exec_value_null(exec_type_of(EXEC_TYPE_NULL)));
    case AST_LIT_BOOL: return const_expr(b, exec_value_bool(!strcmp(e->text, "true")));
    case AST_LIT_INTEGER: return bind_integer(b, e, err);
    case AST_LIT_NUMERIC: return bind_numeric(b, e, err);
    case AST_LIT_STRING: return const_expr(b, exec_value_cstr(b->pc->arena, e->text));
    case AST_LIT_TIMESTAMP: return bind_typed_literal(b, e, exec_type_of(EXEC_TYPE_TIMESTAMP), err);
    case AST_LIT_DATE: return bind_typed_literal(b, e, exec_type_of(EXEC_TYPE_DATE), err);
    case AST_LIT_INTERVAL: return bind_typed_literal(b, e, exec_type_of(EXEC_TYPE_INTERVAL), err);
    }
    sl_error_set(err, SL_ERR_INTERNAL_ERROR, "unknown literal kind");
    return fail_at(err, e->pos);
}

/* The declared type of $n (EXEC_TYPE_NULL: undeclared). */
static exec_type_id_t param_type_declared(const plan_ctx_t *pc, int n)
{
    return pc->param_types && n >= 1 && n <= pc->nparams ? pc->param_types[n - 1] : EXEC_TYPE_NULL;
}

/* A NULL of the declared type; a declared numeric is unconstrained in
 * PostgreSQL, here the widest DECIMAL with room for a fraction. */
static exec_expr_t *typed_null(binder_t *b, exec_type_id_t t)
{
    exec_type_t type = t == EXEC_TYPE_DECIMAL ? exec_type_decimal(EXEC_DECIMAL_MAX_PRECISION, 18)
                                              : exec_type_of(t);
    return const_expr(b, exec_value_null(type));
}

void plan_infer_param(plan_ctx_t *pc, const ast_expr_t *e, exec_type_t t)
{
    if (!pc->param_inferred || e->kind != AST_EXPR_PARAM || e->param < 1) return;
    if (t.id == EXEC_TYPE_NULL || t.id == EXEC_TYPE_STRUCT) return;
    if (param_type_declared(pc, e->param)) return;
    if (pc->param_inferred[e->param - 1].id == EXEC_TYPE_NULL) pc->param_inferred[e->param - 1] = t;
}

/* $n of the extended protocol: a text value, typed by its declared type,
 * or else by its use like a string literal. */
static exec_expr_t *bind_param(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    exec_type_id_t t = param_type_declared(b->pc, e->param);
    if (e->param >= 1 && b->pc->params_unbound) return typed_null(b, t);
    if (e->param < 1 || e->param > b->pc->nparams) {
        sl_error_set(err, SL_ERR_UNDEFINED_PARAMETER, "there is no parameter $%d", e->param);
        return fail_at(err, e->pos);
    }
    const char *v = b->pc->params[e->param - 1];
    if (!v) return typed_null(b, t);
    if (t == EXEC_TYPE_NULL) return const_expr(b, exec_value_cstr(b->pc->arena, v));
    if (t == EXEC_TYPE_DECIMAL) return bind_numeric_text(b, v, e->pos, err);
    exec_value_t val;
    if (exec_value_parse(exec_type_of(t), v, strlen(v), b->pc->arena, &val, err) < 0)
        return fail_at(err, e->pos);
    return const_expr(b, val);
}

/* ---- column references ---- */

/* Applies struct field names parts[from..n) to x. */
static exec_expr_t *bind_fields(binder_t *b, exec_expr_t *x, const ast_ident_list_t *parts,
                                int from, sl_error_t *err)
{
    for (int i = from; x && i < parts->n; i++) {
        const ast_ident_t *f = parts->items[i];
        int idx = x->type.id == EXEC_TYPE_STRUCT ? exec_type_field_index(x->type, f->name) : -1;
        if (idx < 0) {
            sl_error_set(err, SL_ERR_UNDEFINED_COLUMN, "column \"%s\" has no field \"%s\"",
                         parts->items[i - 1]->name, f->name);
            if (x->type.id == EXEC_TYPE_STRUCT)
                sl_error_detail(err, "Its type is %s.", exec_type_text(x->type, b->pc->arena));
            return fail_at(err, f->pos);
        }
        x = exec_expr_field(b->pc->arena, x, idx, err);
    }
    return x;
}

/* Finds columns named `name` (with qualifier `qual` when non-NULL); returns
 * the match count and the first match in *col. */
static int find_columns(const binder_t *b, const char *qual, const char *name, int *col)
{
    int n = 0;
    for (int i = 0; i < b->ncols; i++) {
        const plan_col_t *c = &b->cols[i];
        if (strcmp(c->name, name)) continue;
        if (qual && (!c->qual || strcmp(c->qual, qual))) continue;
        if (!qual && c->hidden) continue; /* JOIN ... USING's right copy answers to t.col only */
        if (n++ == 0) *col = i;
    }
    return n;
}

static exec_expr_t *column_ref(binder_t *b, int col)
{
    const plan_col_t *c = &b->cols[col];
    return exec_expr_column(b->pc->arena, col, c->type, c->name);
}

static exec_expr_t *ambiguous(sl_error_t *err, const char *name, int pos)
{
    sl_error_set(err, SL_ERR_AMBIGUOUS_COLUMN, "column reference \"%s\" is ambiguous", name);
    return fail_at(err, pos);
}

static exec_expr_t *bind_column_plain(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    const ast_ident_list_t *p = &e->names;
    int col = -1;
    if (p->n >= 2) {
        int n = find_columns(b, p->items[0]->name, p->items[1]->name, &col);
        if (n > 1) return ambiguous(err, p->items[1]->name, e->pos);
        if (n == 1) return bind_fields(b, column_ref(b, col), p, 2, err);
    }
    int n = find_columns(b, NULL, p->items[0]->name, &col);
    if (n > 1) return ambiguous(err, p->items[0]->name, e->pos);
    if (n == 1) return bind_fields(b, column_ref(b, col), p, 1, err);
    if (p->n == 1 && !p->items[0]->quoted && !strcmp(p->items[0]->name, "current_timestamp"))
        return exec_expr_call(b->pc->arena, "current_timestamp", NULL, NULL, 0,
                              err);          /* SQL's bare form */
    if (p->n == 1 && !p->items[0]->quoted) { /* current_user, current_date, ... (bind_pg.c) */
        exec_expr_t *v = bind_pg_value(b, p->items[0]->name, err);
        if (v || err->sqlstate[0]) return v ? v : fail_at(err, e->pos);
    }
    exec_expr_t *outer = bind_outer_value(b, e); /* a correlated subquery bound for one row */
    if (outer) return outer;
    if (bind_check_correlated(b, e, err)) return fail_at(err, e->pos);
    if (p->n >= 2)
        sl_error_set(err, SL_ERR_UNDEFINED_COLUMN, "column %s.%s does not exist", p->items[0]->name,
                     p->items[1]->name);
    else
        sl_error_set(err, SL_ERR_UNDEFINED_COLUMN, "column \"%s\" does not exist",
                     p->items[0]->name);
    return fail_at(err, e->pos);
}

/* ---- aggregate context ---- */

static exec_expr_t *key_ref(binder_t *b, int k)
{
    const bind_key_t *key = &b->agg->keys[k];
    return exec_expr_column(b->pc->arena, k, key->expr->type, key->name);
}

/* A column leaf over an aggregate: a GROUP BY key's name (`window.start`), else an error. */
static exec_expr_t *bind_column_agg(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    const ast_ident_list_t *p = &e->names;
    for (int k = 0; k < b->agg->nkeys; k++)
        if (!strcmp(b->agg->keys[k].name, p->items[0]->name) && b->agg->keys[k].is_window)
            return bind_fields(b, key_ref(b, k), p, 1, err);
    binder_t plain = *b;
    plain.agg = NULL;
    sl_error_t ignored;
    if (!bind_column_plain(&plain, e, &ignored)) return bind_column_plain(&plain, e, err);
    sl_error_set(
        err, SL_ERR_GROUPING_ERROR,
        "column \"%s\" must appear in the GROUP BY clause or be used in an aggregate function",
        p->items[p->n - 1]->name);
    return fail_at(err, e->pos);
}

/* The GROUP BY key whose text equals the plain binding of e, or -1. */
static int match_key(binder_t *b, const ast_expr_t *e)
{
    binder_t plain = *b;
    plain.agg = NULL;
    sl_error_t ignored;
    sl_error_clear(&ignored);
    exec_expr_t *x = bind_expr(&plain, e, &ignored);
    if (!x) return -1;
    const char *t = bind_expr_sig(b->pc->arena, x);
    for (int k = 0; k < b->agg->nkeys; k++)
        if (!strcmp(t, b->agg->keys[k].sig)) return k;
    return -1;
}

static exec_expr_t *add_aggregate(binder_t *b, const ast_expr_t *e, exec_expr_t *arg,
                                  const exec_value_t *opt, sl_error_t *err)
{
    bind_agg_t *ag = b->agg;
    const char *fname = e->name->name;
    sl_buf_t t = SL_BUF_INIT;
    sl_buf_printf(&t, "%s(%s", fname, e->distinct ? "DISTINCT " : "");
    if (arg) exec_expr_format(arg, &t);
    else sl_buf_putc(&t, '*');
    sl_buf_putc(&t, ')');
    const char *text = sl_strdup(b->pc->arena, t.data);
    sl_buf_free(&t);
    const char *key = sl_printf(b->pc->arena, "%s %d %s %s", fname, e->distinct,
                                arg ? bind_expr_sig(b->pc->arena, arg) : "*",
                                opt->is_null ? "" : exec_value_text(opt, b->pc->arena));
    for (int i = 0; i < ag->naggs; i++)
        if (!strcmp(ag->texts[i], key))
            return exec_expr_column(b->pc->arena, ag->nkeys + i, ag->aggs[i].type, fname);
    exec_type_t type;
    if (bind_agg_type(fname, e->distinct, e->star, arg ? arg->type : exec_type_of(EXEC_TYPE_NULL),
                      &type, err) < 0)
        return fail_at(err, e->pos);
    if (ag->naggs == ag->cap) {
        int cap = ag->cap ? ag->cap * 2 : 8;
        ag->aggs = sl_arena_realloc(b->pc->arena, ag->aggs, sizeof *ag->aggs * (size_t)ag->cap,
                                    sizeof *ag->aggs * (size_t)cap);
        ag->args = sl_arena_realloc(b->pc->arena, ag->args, sizeof *ag->args * (size_t)ag->cap,
                                    sizeof *ag->args * (size_t)cap);
        ag->texts = sl_arena_realloc(b->pc->arena, ag->texts, sizeof *ag->texts * (size_t)ag->cap,
                                     sizeof *ag->texts * (size_t)cap);
        ag->cap = cap;
    }
    plan_agg_t *p = &ag->aggs[ag->naggs];
    memset(p, 0, sizeof *p);
    p->func = sl_strdup(b->pc->arena, fname);
    p->distinct = e->distinct;
    p->star = e->star || !arg;
    p->type = type;
    p->text = text;
    if (!opt->is_null && opt->type.id == EXEC_TYPE_BOOLEAN) p->ignore_nulls = opt->u.b;
    if (!opt->is_null && opt->type.id == EXEC_TYPE_DOUBLE) p->relative_sd = opt->u.f64;
    ag->args[ag->naggs] = arg;
    ag->texts[ag->naggs] = key;
    ag->naggs++;
    return exec_expr_column(b->pc->arena, ag->nkeys + ag->naggs - 1, type, fname);
}

/* The constant second argument of first/last (ignore nulls, BOOLEAN) or
 * approx_count_distinct (relative standard deviation, DOUBLE). */
static int agg_option(binder_t *b, const ast_expr_t *e, exec_value_t *out, sl_error_t *err)
{
    const ast_expr_t *x = e->args.items[1];
    int is_bool = strcmp(e->name->name, "approx_count_distinct") != 0;
    exec_type_t t = exec_type_of(is_bool ? EXEC_TYPE_BOOLEAN : EXEC_TYPE_DOUBLE);
    binder_t plain = {.pc = b->pc, .clause = "aggregate"};
    exec_expr_t *v = bind_expr(&plain, x, err);
    if (!v) return -1;
    if (!exec_expr_is_foldable(v) || plan_eval_constant(b->pc->arena, v, t, out, err) < 0 ||
        out->is_null) {
        if (!sl_error_isset(err) || out->is_null)
            sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                         "the second argument of %s must be a %s constant", e->name->name,
                         is_bool ? "boolean" : "numeric");
        return bind_at(err, x->pos);
    }
    if (!is_bool && out->u.f64 <= 0) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                     "relativeSD of approx_count_distinct must be positive");
        return bind_at(err, x->pos);
    }
    return 0;
}

/* count(DISTINCT a, b, ...): the distinct tuples with no NULL member, as
 * Spark counts them — count(DISTINCT x) of x = CASE WHEN a IS NULL OR b IS
 * NULL ... THEN NULL ELSE struct(a, b, ...) END. */
static exec_expr_t *distinct_tuple(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    sl_arena_t *a = b->pc->arena;
    int n = e->args.n;
    exec_expr_t **args = SL_NEW_ARRAY(a, exec_expr_t *, n);
    const char **names = SL_NEW_ARRAY(a, const char *, n);
    exec_expr_t *any_null = NULL;
    for (int i = 0; i < n; i++) {
        if (!(args[i] = bind_expr(b, e->args.items[i], err))) return NULL;
        names[i] = sl_printf(a, "col%d", i + 1);
        exec_expr_t *isnull = exec_expr_is_null(a, args[i], false);
        if (!(any_null = any_null ? exec_expr_or(a, any_null, isnull, err) : isnull)) return NULL;
    }
    exec_expr_t *tuple = exec_expr_struct(a, args, names, n, err);
    if (!tuple) return NULL;
    exec_value_t null = exec_value_null(tuple->type);
    exec_expr_t *none = exec_expr_const(a, &null);
    return exec_expr_case(a, NULL, &any_null, &none, 1, tuple, err);
}

static exec_expr_t *bind_aggregate(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    if (!b->agg || !b->allow_aggs) {
        if (b->clause && !strcmp(b->clause, "aggregate"))
            sl_error_set(err, SL_ERR_GROUPING_ERROR, "aggregate function calls cannot be nested");
        else
            sl_error_set(err, SL_ERR_GROUPING_ERROR, "aggregate functions are not allowed in %s",
                         b->clause ? b->clause : "this context");
        return fail_at(err, e->pos);
    }
    int two = !strcmp(e->name->name, "first") || !strcmp(e->name->name, "last") ||
              !strcmp(e->name->name, "approx_count_distinct");
    int tuple = e->distinct && !e->star && e->args.n > 1 && !strcmp(e->name->name, "count");
    int bad_args = !e->star && (e->args.n < 1 || e->args.n > 1 + two) && !tuple;
    if (bad_args || (e->star && strcmp(e->name->name, "count"))) {
        sl_error_set(err, SL_ERR_UNDEFINED_FUNCTION, "function %s takes %s", e->name->name,
                     two ? "one or two arguments" : "exactly one argument");
        return fail_at(err, e->pos);
    }
    exec_value_t opt = exec_value_null(exec_type_of(EXEC_TYPE_NULL));
    if (!tuple && e->args.n == 2 && agg_option(b, e, &opt, err) < 0) return NULL;
    exec_expr_t *arg = NULL;
    binder_t inner = *b;
    inner.agg = NULL;
    inner.clause = "aggregate";
    inner.allow_aggs = 0;
    if (!e->star) {
        arg = tuple ? distinct_tuple(&inner, e, err) : bind_expr(&inner, e->args.items[0], err);
        if (!arg) return NULL;
    }
    if (!e->filter) return add_aggregate(b, e, arg, &opt, err);
    ast_expr_t counted = *e; /* count(*) FILTER (...) counts the kept rows' 1s */
    counted.star = 0;
    if (!(arg = bind_filter_arg(&inner, e, arg, err))) return NULL;
    return add_aggregate(b, &counted, arg, &opt, err);
}

exec_expr_t *bind_filter_arg(binder_t *b, const ast_expr_t *e, exec_expr_t *arg, sl_error_t *err)
{
    sl_arena_t *a = b->pc->arena;
    const char *clause = b->clause;
    b->clause = "FILTER";
    exec_expr_t *cond = bind_expr(b, e->filter, err);
    b->clause = clause;
    if (!cond) return NULL;
    if (cond->type.id != EXEC_TYPE_BOOLEAN && cond->type.id != EXEC_TYPE_NULL) {
        sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                     "argument of FILTER must be type boolean, not type %s",
                     exec_type_pg_name(cond->type));
        return fail_at(err, e->filter->pos);
    }
    if (!arg) {
        exec_value_t one = exec_value_int(1);
        arg = exec_expr_const(a, &one);
    }
    exec_expr_t *x = exec_expr_case(a, NULL, &cond, &arg, 1, NULL, err);
    return x ? x : fail_at(err, e->pos);
}

/* ---- operators and functions ---- */

static exec_expr_t *bind_func(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    exec_expr_t *pg; /* session functions of PostgreSQL clients (bind_pg.c) */
    int handled = bind_pg_func(b, e, &pg, err);
    if (handled) return handled > 0 ? pg : fail_at(err, e->pos);
    if (exec_func_is_aggregate(e->name->name)) return bind_aggregate(b, e, err);
    if (e->filter) {
        sl_error_set(err, SL_ERR_WRONG_OBJECT_TYPE,
                     "FILTER specified, but %s is not an aggregate function", e->name->name);
        return fail_at(err, e->pos);
    }
    if (e->distinct || e->star) {
        sl_error_set(err, SL_ERR_WRONG_OBJECT_TYPE, "%s is not an aggregate function",
                     e->name->name);
        return fail_at(err, e->pos);
    }
    int n = e->args.n;
    exec_expr_t **args = SL_NEW_ARRAY(b->pc->arena, exec_expr_t *, n > 0 ? n : 1);
    const char **names = SL_NEW_ARRAY(b->pc->arena, const char *, n > 0 ? n : 1);
    int is_struct = !strcmp(e->name->name, "struct");
    for (int i = 0; i < n; i++) {
        const ast_expr_t *x = e->args.items[i];
        if (!(args[i] = bind_expr(b, x, err))) return NULL;
        /* struct(a, 1, x AS b): fields a, col2 and b, as Spark names them */
        names[i] = x->alias ? x->alias->name
                   : !is_struct || x->kind == AST_EXPR_COLUMN || x->kind == AST_EXPR_FIELD
                       ? bind_default_name(b->pc->arena, x)
                       : sl_printf(b->pc->arena, "col%d", i + 1);
    }
    if (b->pc->settings && bind_is_settings_call(e->name->name))
        return bind_settings_call(b->pc, e, args, n, err);
    exec_expr_t *x = exec_expr_call(b->pc->arena, e->name->name, args, names, n, err);
    return x ? x : fail_at(err, e->pos);
}

static exec_expr_t *bind_cast(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    exec_expr_t *pg; /* oid and the reg* types (bind_pg.c) */
    int handled = bind_pg_cast(b, e, &pg, err);
    if (handled) return handled > 0 ? pg : fail_at(err, e->pos);
    exec_expr_t *x = bind_expr(b, e->arg, err);
    if (!x) return NULL;
    exec_type_t t;
    const ast_type_t *at = e->type;
    if (exec_type_parse(b->pc->sql + at->pos, (size_t)(at->end - at->pos), b->pc->arena, &t, err) <
        0)
        return fail_at(err, at->pos);
    /* the name decides: BINARY is Spark's (a string's own bytes), BYTEA PostgreSQL's (bytea input) */
    x = t.id == EXEC_TYPE_BINARY && !strcmp(at->name, "binary")
            ? exec_expr_cast_binary(b->pc->arena, x, err)
            : exec_expr_cast(b->pc->arena, x, t, err);
    return x ? x : fail_at(err, e->pos);
}

static exec_expr_t *bind_case(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    int n = e->whens.n;
    exec_expr_t *operand = NULL, *els = NULL;
    if (e->arg && !(operand = bind_expr(b, e->arg, err))) return NULL;
    exec_expr_t **whens = SL_NEW_ARRAY(b->pc->arena, exec_expr_t *, n);
    exec_expr_t **thens = SL_NEW_ARRAY(b->pc->arena, exec_expr_t *, n);
    for (int i = 0; i < n; i++) {
        if (!(whens[i] = bind_expr(b, e->whens.items[i]->cond, err))) return NULL;
        if (!(thens[i] = bind_expr(b, e->whens.items[i]->result, err))) return NULL;
    }
    if (e->else_expr && !(els = bind_expr(b, e->else_expr, err))) return NULL;
    exec_expr_t *x = exec_expr_case(b->pc->arena, operand, whens, thens, n, els, err);
    return x ? x : fail_at(err, e->pos);
}

static exec_expr_t *bind_unary(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    exec_expr_t *x = bind_expr(b, e->arg, err);
    if (!x) return NULL;
    if (e->op == AST_OP_PLUS) return x;
    x = e->op == AST_OP_NEG ? exec_expr_neg(b->pc->arena, x, err)
                            : exec_expr_not(b->pc->arena, x, err);
    return x ? x : fail_at(err, e->pos);
}

static exec_expr_t *bind_binary(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    if (bind_pg_operator_schema(e, err)) return NULL; /* OPERATOR(schema.op) (bind_pg.c) */
    exec_expr_t *l = bind_expr(b, e->left, err), *r = l ? bind_expr(b, e->right, err) : NULL;
    if (!r) return NULL;
    plan_infer_param(b->pc, e->left, r->type);
    plan_infer_param(b->pc, e->right, l->type);
    sl_arena_t *a = b->pc->arena;
    exec_expr_t *x = NULL;
    switch (e->op) {
    case AST_OP_ADD: x = exec_expr_arith(a, EXEC_OP_ADD, l, r, err); break;
    case AST_OP_SUB: x = exec_expr_arith(a, EXEC_OP_SUB, l, r, err); break;
    case AST_OP_MUL: x = exec_expr_arith(a, EXEC_OP_MUL, l, r, err); break;
    case AST_OP_DIV: x = exec_expr_arith(a, EXEC_OP_DIV, l, r, err); break;
    case AST_OP_MOD: x = exec_expr_arith(a, EXEC_OP_MOD, l, r, err); break;
    case AST_OP_CONCAT: x = exec_expr_arith(a, EXEC_OP_CONCAT, l, r, err); break;
    case AST_OP_EQ: x = exec_expr_cmp(a, EXEC_CMP_EQ, l, r, err); break;
    case AST_OP_NE: x = exec_expr_cmp(a, EXEC_CMP_NE, l, r, err); break;
    case AST_OP_LT: x = exec_expr_cmp(a, EXEC_CMP_LT, l, r, err); break;
    case AST_OP_LE: x = exec_expr_cmp(a, EXEC_CMP_LE, l, r, err); break;
    case AST_OP_GT: x = exec_expr_cmp(a, EXEC_CMP_GT, l, r, err); break;
    case AST_OP_GE: x = exec_expr_cmp(a, EXEC_CMP_GE, l, r, err); break;
    case AST_OP_AND: x = exec_expr_and(a, l, r, err); break;
    case AST_OP_OR: x = exec_expr_or(a, l, r, err); break;
    case AST_OP_IS_DISTINCT: x = exec_expr_distinct(a, l, r, false, err); break;
    case AST_OP_IS_NOT_DISTINCT: x = exec_expr_distinct(a, l, r, true, err); break;
    case AST_OP_REGEX:
    case AST_OP_NREGEX:
    case AST_OP_IREGEX:
    case AST_OP_NIREGEX: x = bind_pg_regex(b, e->op, l, r, err); break;
    default: sl_error_set(err, SL_ERR_SYNTAX_ERROR, "unexpected operator %s", ast_op_name(e->op));
    }
    return x ? x : fail_at(err, e->pos);
}

static exec_expr_t *bind_is(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    exec_expr_t *x = bind_expr(b, e->arg, err);
    if (!x) return NULL;
    if (e->is_what == AST_IS_NULL) return exec_expr_is_null(b->pc->arena, x, e->negated);
    exec_expr_t *t = const_expr(b, exec_value_bool(e->is_what == AST_IS_TRUE));
    /* x IS TRUE = x IS NOT DISTINCT FROM TRUE; IS NOT TRUE = IS DISTINCT FROM TRUE */
    x = exec_expr_distinct(b->pc->arena, x, t, !e->negated, err);
    return x ? x : fail_at(err, e->pos);
}

static exec_expr_t *bind_in(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    if (e->query) return bind_subquery_expr(b, e, err);
    exec_expr_t *x = bind_expr(b, e->arg, err);
    if (!x) return NULL;
    int n = e->list.n;
    exec_expr_t **list = SL_NEW_ARRAY(b->pc->arena, exec_expr_t *, n);
    for (int i = 0; i < n; i++) {
        if (!(list[i] = bind_expr(b, e->list.items[i], err))) return NULL;
        plan_infer_param(b->pc, e->list.items[i], x->type);
    }
    x = exec_expr_in(b->pc->arena, x, list, n, e->negated, err);
    return x ? x : fail_at(err, e->pos);
}

static exec_expr_t *bind_between(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    exec_expr_t *x = bind_expr(b, e->arg, err);
    exec_expr_t *lo = x ? bind_expr(b, e->lo, err) : NULL;
    exec_expr_t *hi = lo ? bind_expr(b, e->hi, err) : NULL;
    if (!hi) return NULL;
    plan_infer_param(b->pc, e->lo, x->type);
    plan_infer_param(b->pc, e->hi, x->type);
    x = exec_expr_between(b->pc->arena, x, lo, hi, e->negated, err);
    return x ? x : fail_at(err, e->pos);
}

static exec_expr_t *bind_like(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    exec_expr_t *x = bind_expr(b, e->arg, err);
    exec_expr_t *p = x ? bind_expr(b, e->pattern, err) : NULL;
    exec_expr_t *esc = NULL;
    if (!p || (e->escape && !(esc = bind_expr(b, e->escape, err)))) return NULL;
    x = exec_expr_like(b->pc->arena, x, p, esc, e->icase, e->negated, err);
    if (x) return x;
    /* 42883 is about the operands' types, "LIKE pattern ..." about the
     * pattern, the others about the escape */
    if (!strncmp(err->message, "LIKE pattern", 12)) return fail_at(err, e->pattern->pos);
    int at_escape = e->escape && strcmp(err->sqlstate, SL_ERR_UNDEFINED_FUNCTION) != 0;
    return fail_at(err, at_escape ? e->escape->pos : e->pos);
}

static exec_expr_t *bind_field(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    exec_expr_t *x = bind_expr(b, e->arg, err);
    if (!x) return NULL;
    int idx = x->type.id == EXEC_TYPE_STRUCT ? exec_type_field_index(x->type, e->field->name) : -1;
    if (idx < 0) {
        sl_error_set(err, SL_ERR_UNDEFINED_COLUMN, "field \"%s\" does not exist in type %s",
                     e->field->name, exec_type_text(x->type, b->pc->arena));
        return fail_at(err, e->field->pos);
    }
    x = exec_expr_field(b->pc->arena, x, idx, err);
    return x ? x : fail_at(err, e->pos);
}

static exec_expr_t *bind_node(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    switch (e->kind) {
    case AST_EXPR_LITERAL: return bind_literal(b, e, err);
    case AST_EXPR_COLUMN: return b->agg ? bind_column_agg(b, e, err) : bind_column_plain(b, e, err);
    case AST_EXPR_PARAM: return bind_param(b, e, err);
    case AST_EXPR_FUNC: return bind_func(b, e, err);
    case AST_EXPR_CAST: return bind_cast(b, e, err);
    case AST_EXPR_CASE: return bind_case(b, e, err);
    case AST_EXPR_UNARY: return bind_unary(b, e, err);
    case AST_EXPR_BINARY: return bind_binary(b, e, err);
    case AST_EXPR_IS: return bind_is(b, e, err);
    case AST_EXPR_IN: return bind_in(b, e, err);
    case AST_EXPR_BETWEEN: return bind_between(b, e, err);
    case AST_EXPR_LIKE: return bind_like(b, e, err);
    case AST_EXPR_FIELD: return bind_field(b, e, err);
    case AST_EXPR_SUBQUERY:
    case AST_EXPR_EXISTS:
    case AST_EXPR_ARRAY: return bind_subquery_expr(b, e, err);
    case AST_EXPR_COLLATE: return bind_pg_collate(b, e, err);
    case AST_EXPR__COUNT: break;
    }
    sl_error_set(err, SL_ERR_INTERNAL_ERROR, "unknown expression kind");
    return fail_at(err, e->pos);
}

exec_expr_t *bind_expr(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    if (b->agg && e->kind != AST_EXPR_LITERAL && e->kind != AST_EXPR_PARAM &&
        !bind_has_aggregate(e)) {
        int k = match_key(b, e);
        if (k >= 0) return key_ref(b, k);
    }
    return bind_node(b, e, err);
}

int bind_has_aggregate(const ast_expr_t *e)
{
    if (!e) return 0;
    if (e->kind == AST_EXPR_FUNC && !e->over && exec_func_is_aggregate(e->name->name)) return 1;
    for (int i = 0; i < e->args.n; i++)
        if (bind_has_aggregate(e->args.items[i])) return 1;
    for (int i = 0; i < e->list.n; i++)
        if (bind_has_aggregate(e->list.items[i])) return 1;
    for (int i = 0; i < e->whens.n; i++)
        if (bind_has_aggregate(e->whens.items[i]->cond) ||
            bind_has_aggregate(e->whens.items[i]->result))
            return 1;
    return bind_has_aggregate(e->arg) || bind_has_aggregate(e->left) ||
           bind_has_aggregate(e->right) || bind_has_aggregate(e->else_expr) ||
           bind_has_aggregate(e->lo) || bind_has_aggregate(e->hi) ||
           bind_has_aggregate(e->pattern) || bind_has_aggregate(e->escape);
}

const char *bind_default_name(sl_arena_t *a, const ast_expr_t *e)
{
    switch (e->kind) {
    case AST_EXPR_COLUMN: return e->names.items[e->names.n - 1]->name;
    case AST_EXPR_FUNC: return e->name->name;
    case AST_EXPR_FIELD: return e->field->name;
    case AST_EXPR_CASE: return "case";
    case AST_EXPR_EXISTS: return "exists";
    case AST_EXPR_ARRAY: return "array";
    case AST_EXPR_SUBQUERY: { /* PostgreSQL's: the name of its one column */
        const ast_select_t *q = e->query;
        while (q->kind == AST_SELECT_UNION) q = q->arms.items[0];
        if (q->kind != AST_SELECT_SIMPLE || q->items.n != 1 || q->items.items[0]->star)
            return "?column?";
        const ast_select_item_t *it = q->items.items[0];
        return it->alias ? it->alias->name : bind_default_name(a, it->expr);
    }
    case AST_EXPR_COLLATE: return bind_default_name(a, e->arg);
    case AST_EXPR_CAST: {
        const char *inner = bind_default_name(a, e->arg);
        return strcmp(inner, "?column?") ? inner : sl_strdup(a, e->type->name);
    }
    case AST_EXPR_LITERAL:
        if (e->lit == AST_LIT_TIMESTAMP) return "timestamp";
        if (e->lit == AST_LIT_DATE) return "date";
        if (e->lit == AST_LIT_INTERVAL) return "interval";
        return "?column?";
    default: return "?column?";
    }
}
