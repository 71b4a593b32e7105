/* exec expressions: compilation of a tree into a flat program of steps
 * (expr_int.h), with constant folding. Two programs come out of one tree:
 * the value program (a vector per node) and, for BOOLEAN trees, the filter
 * program, where AND/OR/NOT and comparisons narrow selections directly. */
#include <stdio.h>
#include <string.h>

#include "model/cast.h"
#include "exec/expr_int.h"

typedef struct cc {
    sl_arena_t *a;
    exec_str_t *strs; /* distinct string constants of the program (interned) */
    int nstrs, capstrs;
    exec_step_t *steps;
    int nsteps, cap;
    int nregs, nsels;
    sl_error_t *err;
} cc_t;

/* Appends a step running under `sel`; returns its index (the array moves). */
static int add_step(cc_t *c, exec_step_fn fn, const char *name, int sel)
{
    if (c->nsteps == c->cap) {
        int nc = c->cap ? c->cap * 2 : 16;
        c->steps = sl_arena_realloc(c->a, c->steps, sizeof(exec_step_t) * (size_t)c->cap,
                                    sizeof(exec_step_t) * (size_t)nc);
        c->cap = nc;
    }
    exec_step_t *st = &c->steps[c->nsteps];
    memset(st, 0, sizeof *st);
    st->fn = fn;
    st->name = name;
    st->sel = sel;
    st->out = st->sel_out = st->sel_out2 = -1;
    st->in[0] = st->in[1] = -1;
    return c->nsteps++;
}

#define STEP(i) (&c->steps[i])

static int new_reg(cc_t *c)
{
    return c->nregs++;
}

/* Equal string constants of one program share one pointer, so a string
 * produced by a constant branch and compared with an equal literal is
 * recognised by address. */
static exec_value_t intern(cc_t *c, exec_value_t v)
{
    if (v.is_null || (v.type.id != EXEC_TYPE_STRING && v.type.id != EXEC_TYPE_BINARY)) return v;
    for (int i = 0; i < c->nstrs; i++)
        if (c->strs[i].len == v.u.str.len &&
            (!v.u.str.len || !memcmp(c->strs[i].ptr, v.u.str.ptr, v.u.str.len))) {
            v.u.str.ptr = c->strs[i].ptr;
            return v;
        }
    if (c->nstrs == c->capstrs) {
        int nc = c->capstrs ? 2 * c->capstrs : 8;
        c->strs = sl_arena_realloc(c->a, c->strs, sizeof(exec_str_t) * (size_t)c->capstrs,
                                   sizeof(exec_str_t) * (size_t)nc);
        c->capstrs = nc;
    }
    c->strs[c->nstrs++] = v.u.str;
    return v;
}
static int new_sel(cc_t *c)
{
    return c->nsels++;
}

/* A step writing a fresh register of type t. */
static int reg_step(cc_t *c, exec_step_fn fn, const char *name, int sel, exec_type_t t)
{
    int s = add_step(c, fn, name, sel);
    STEP(s)->out = new_reg(c);
    STEP(s)->type = t;
    return s;
}

static int cv(cc_t *c, const exec_expr_t *e, int sel);
static int cf(cc_t *c, const exec_expr_t *e, int sel);

static int broadcast(cc_t *c, const exec_value_t *v, exec_type_t t, int sel)
{
    int s = reg_step(c, exec_k_broadcast, "const", sel, t);
    STEP(s)->k = intern(c, *v);
    STEP(s)->k.type = t;
    return STEP(s)->out;
}

static int broadcast_null(cc_t *c, exec_type_t t, int sel)
{
    exec_value_t v = exec_value_null(t);
    return broadcast(c, &v, t, sel);
}

static bool is_null_const(const exec_expr_t *e)
{
    return e->kind == EXEC_EXPR_CONST && (e->value.is_null || e->type.id == EXEC_TYPE_NULL);
}

/* ---- binary kernels: choose the shape ------------------------------------ */

typedef exec_step_fn (*kernel_pick_fn)(const exec_expr_t *e, exec_shape_t shape, const char **name);

static exec_step_fn pick_arith(const exec_expr_t *e, exec_shape_t shape, const char **name)
{
    return exec_arith_kernel(e->op, e->args[0]->type, e->args[1]->type, e->type, shape, name);
}

static exec_step_fn pick_cmp_value(const exec_expr_t *e, exec_shape_t shape, const char **name)
{
    return exec_cmp_kernel(e->args[0]->type, shape, false, name);
}

static exec_step_fn pick_cmp_filter(const exec_expr_t *e, exec_shape_t shape, const char **name)
{
    return exec_cmp_kernel(e->args[0]->type, shape, true, name);
}

/* Emits e's binary kernel, specialised on a constant side when possible.
 * Returns the step index, or -1. */
static int binary(cc_t *c, const exec_expr_t *e, kernel_pick_fn pick, int sel)
{
    const exec_expr_t *l = e->args[0], *r = e->args[1];
    const char *name = "?";
    exec_step_fn fn;
    exec_shape_t shape = EXEC_SHAPE_VV;
    if (r->kind == EXEC_EXPR_CONST && (fn = pick(e, EXEC_SHAPE_VC, &name))) shape = EXEC_SHAPE_VC;
    else if (l->kind == EXEC_EXPR_CONST && (fn = pick(e, EXEC_SHAPE_CV, &name)))
        shape = EXEC_SHAPE_CV;
    else fn = pick(e, EXEC_SHAPE_VV, &name);
    if (!fn)
        return sl_error_set(c->err, SL_ERR_INTERNAL_ERROR, "no kernel for %s",
                            exec_type_pg_name(l->type));
    int a = shape == EXEC_SHAPE_CV ? -1 : cv(c, l, sel);
    int b = shape == EXEC_SHAPE_VC ? -1 : cv(c, r, sel);
    if ((shape != EXEC_SHAPE_CV && a < 0) || (shape != EXEC_SHAPE_VC && b < 0)) return -1;
    int s = add_step(c, fn, name, sel);
    STEP(s)->in[0] = a;
    STEP(s)->in[1] = b;
    STEP(s)->shape = shape;
    STEP(s)->op = e->op;
    STEP(s)->type = e->type;
    if (shape == EXEC_SHAPE_VC) STEP(s)->k = intern(c, r->value);
    if (shape == EXEC_SHAPE_CV) STEP(s)->k = intern(c, l->value);
    return s;
}

static int binary_value(cc_t *c, const exec_expr_t *e, kernel_pick_fn pick, int sel)
{
    if (is_null_const(e->args[0]) || is_null_const(e->args[1]))
        return broadcast_null(c, e->type, sel);
    int s = binary(c, e, pick, sel);
    if (s < 0) return -1;
    STEP(s)->out = new_reg(c);
    return STEP(s)->out;
}

/* One-operand kernel writing a register of e's type. */
static int unary(cc_t *c, const exec_expr_t *e, exec_step_fn fn, const char *name, int sel)
{
    int x = cv(c, e->args[0], sel);
    if (x < 0) return -1;
    int s = reg_step(c, fn, name, sel, e->type);
    STEP(s)->in[0] = x;
    STEP(s)->op = e->kind == EXEC_EXPR_FIELD ? e->column : e->negated;
    return STEP(s)->out;
}

/* ---- lazy AND / OR (value form) ------------------------------------------- */

static int logic_value(cc_t *c, const exec_expr_t *e, int sel)
{
    bool and = e->kind == EXEC_EXPR_AND;
    int l = cv(c, e->args[0], sel);
    if (l < 0) return -1;
    int s = add_step(c, and? exec_k_sel_not_false : exec_k_sel_not_true,
                     and? "sel_not_false" : "sel_not_true", sel);
    STEP(s)->in[0] = l;
    int undecided = STEP(s)->sel_out = new_sel(c);
    int r = cv(c, e->args[1], undecided);
    if (r < 0) return -1;
    s = reg_step(c, and? exec_k_and : exec_k_or, and? "and" : "or", sel, e->type);
    STEP(s)->in[0] = l;
    STEP(s)->in[1] = r;
    STEP(s)->op = undecided;
    return STEP(s)->out;
}

/* ---- CASE and COALESCE ------------------------------------------------------- */

/* The result register of CASE / COALESCE (`never_null`: every branch is a
 * non-NULL scalar constant, so the result needs no null map). */
static int init_result(cc_t *c, exec_type_t t, int sel, bool never_null)
{
    int s = reg_step(c, exec_k_init, "init", sel, t);
    STEP(s)->op = never_null;
    return STEP(s)->out;
}

static bool non_null_scalar_const(const exec_expr_t *e)
{
    return e->kind == EXEC_EXPR_CONST && !e->value.is_null && e->type.id != EXEC_TYPE_NULL &&
           e->type.id != EXEC_TYPE_STRUCT;
}

/* Copies branch value `e` into register dst for the rows of sel. */
static int scatter(cc_t *c, const exec_expr_t *e, int dst, int sel)
{
    if (e->kind == EXEC_EXPR_CONST) {
        int s = add_step(c, exec_k_scatter_const, "scatter_const", sel);
        STEP(s)->out = dst;
        STEP(s)->k = intern(c, e->value);
        STEP(s)->type = e->type;
        return 0;
    }
    int v = cv(c, e, sel);
    if (v < 0) return -1;
    int s = add_step(c, exec_k_scatter, "scatter", sel);
    STEP(s)->out = dst;
    STEP(s)->in[0] = v;
    STEP(s)->type = e->type;
    return 0;
}

/* rows of `sel` not in `sub` (a subset of it) */
static int sel_diff(cc_t *c, int sel, int sub)
{
    int s = add_step(c, exec_k_sel_diff, "sel_diff", sel);
    STEP(s)->op = sub;
    return STEP(s)->sel_out = new_sel(c);
}

static int case_value(cc_t *c, const exec_expr_t *e, int sel)
{
    bool never_null = true;
    for (int i = 1; i < e->nargs; i += 2) never_null &= non_null_scalar_const(e->args[i]);
    never_null &= non_null_scalar_const(e->args[e->nargs - 1]);
    int dst = init_result(c, e->type, sel, never_null), rest = sel;
    for (int i = 0; i + 1 < e->nargs; i += 2) {
        int hit = cf(c, e->args[i], rest);
        if (hit < 0 || scatter(c, e->args[i + 1], dst, hit)) return -1;
        rest = sel_diff(c, rest, hit);
    }
    return scatter(c, e->args[e->nargs - 1], dst, rest) ? -1 : dst;
}

static int coalesce_value(cc_t *c, const exec_expr_t *e, int sel)
{
    int dst = init_result(c, e->type, sel, false), rest = sel;
    for (int i = 0; i + 1 < e->nargs; i++) {
        int v = cv(c, e->args[i], rest);
        if (v < 0) return -1;
        int s = add_step(c, exec_k_coalesce_take, "coalesce_take", rest);
        STEP(s)->out = dst;
        STEP(s)->in[0] = v;
        rest = STEP(s)->sel_out = new_sel(c);
    }
    return scatter(c, e->args[e->nargs - 1], dst, rest) ? -1 : dst;
}

/* ---- other nodes -------------------------------------------------------------- */

static int cast_value(cc_t *c, const exec_expr_t *e, int sel)
{
    exec_cast_aux_t *ca = SL_NEW(c->a, exec_cast_aux_t);
    ca->fn = e->op == EXEC_CAST_OWN_BYTES ? exec_cast_bytes_kernel()
                                          : exec_cast_kernel(e->args[0]->type, e->type);
    if (!ca->fn) return sl_error_set(c->err, SL_ERR_INTERNAL_ERROR, "no cast kernel");
    int x = cv(c, e->args[0], sel);
    if (x < 0) return -1;
    int s = reg_step(c, exec_k_cast, "cast", sel, e->type);
    STEP(s)->in[0] = x;
    STEP(s)->aux = ca;
    return STEP(s)->out;
}

/* Registers for args (skipping a call's bind-time constants). */
static int *arg_regs(cc_t *c, const exec_expr_t *e, int sel)
{
    int *ins = SL_NEW_ARRAY(c->a, int, e->nargs ? e->nargs : 1);
    for (int i = 0; i < e->nargs; i++) {
        ins[i] = -1;
        if (e->kind == EXEC_EXPR_CALL && (e->const_args >> i & 1)) continue;
        if ((ins[i] = cv(c, e->args[i], sel)) < 0) return NULL;
    }
    return ins;
}

static int varargs_value(cc_t *c, const exec_expr_t *e, exec_step_fn fn, const char *name, int sel)
{
    int *ins = arg_regs(c, e, sel);
    if (!ins) return -1;
    int s = reg_step(c, fn, name, sel, e->type);
    STEP(s)->ins = ins;
    STEP(s)->nin = e->nargs;
    STEP(s)->aux = e->aux;
    return STEP(s)->out;
}

static int in_value(cc_t *c, const exec_expr_t *e, int sel)
{
    exec_value_t *vals = SL_NEW_ARRAY(c->a, exec_value_t, e->nargs);
    for (int i = 1; i < e->nargs; i++) vals[i - 1] = e->args[i]->value;
    int x = cv(c, e->args[0], sel);
    if (x < 0) return -1;
    int s = reg_step(c, exec_in_set_kernel, "in_set", sel, e->type);
    STEP(s)->in[0] = x;
    STEP(s)->op = e->negated;
    STEP(s)->aux = exec_in_set_build(c->a, e->args[0]->type, vals, e->nargs - 1);
    return STEP(s)->out;
}

static int like_value(cc_t *c, const exec_expr_t *e, int sel)
{
    if (is_null_const(e->args[1])) return broadcast_null(c, e->type, sel);
    if (e->aux) {
        int r = unary(c, e, exec_like_const_kernel, "like", sel);
        if (r >= 0) c->steps[c->nsteps - 1].aux = e->aux;
        return r;
    }
    exec_like_dyn_aux_t *la = SL_NEW(c->a, exec_like_dyn_aux_t);
    la->escape = e->op;
    la->ilike = e->kind == EXEC_EXPR_ILIKE;
    int x = cv(c, e->args[0], sel), p = x < 0 ? -1 : cv(c, e->args[1], sel);
    if (p < 0) return -1;
    int s = reg_step(c, exec_like_dyn_kernel, "like_dyn", sel, e->type);
    STEP(s)->in[0] = x;
    STEP(s)->in[1] = p;
    STEP(s)->op = e->negated;
    STEP(s)->aux = la;
    return STEP(s)->out;
}

static int distinct_value(cc_t *c, const exec_expr_t *e, int sel)
{
    int l = cv(c, e->args[0], sel), r = l < 0 ? -1 : cv(c, e->args[1], sel);
    if (r < 0) return -1;
    int s = reg_step(c, exec_distinct_kernel(e->args[0]->type), "distinct", sel, e->type);
    STEP(s)->in[0] = l;
    STEP(s)->in[1] = r;
    STEP(s)->op = e->negated;
    return STEP(s)->out;
}

static int neg_value(cc_t *c, const exec_expr_t *e, int sel)
{
    const char *name;
    exec_step_fn fn = exec_neg_kernel(e->type, &name);
    return unary(c, e, fn, name, sel);
}

/* The value program of e under sel: returns the register, or -1. */
static int cv(cc_t *c, const exec_expr_t *e, int sel)
{
    switch (e->kind) {
    case EXEC_EXPR_CONST: return broadcast(c, &e->value, e->type, sel);
    case EXEC_EXPR_COLUMN: {
        int s = reg_step(c, exec_k_load, "column", sel, e->type);
        STEP(s)->op = e->column;
        return STEP(s)->out;
    }
    case EXEC_EXPR_ARITH: return binary_value(c, e, pick_arith, sel);
    case EXEC_EXPR_CMP: return binary_value(c, e, pick_cmp_value, sel);
    case EXEC_EXPR_NEG: return neg_value(c, e, sel);
    case EXEC_EXPR_AND:
    case EXEC_EXPR_OR: return logic_value(c, e, sel);
    case EXEC_EXPR_NOT: return unary(c, e, exec_k_not, "not", sel);
    case EXEC_EXPR_IS_NULL: return unary(c, e, exec_k_is_null, "is_null", sel);
    case EXEC_EXPR_DISTINCT: return distinct_value(c, e, sel);
    case EXEC_EXPR_IN: return in_value(c, e, sel);
    case EXEC_EXPR_LIKE:
    case EXEC_EXPR_ILIKE: return like_value(c, e, sel);
    case EXEC_EXPR_CASE: return case_value(c, e, sel);
    case EXEC_EXPR_CAST: return cast_value(c, e, sel);
    case EXEC_EXPR_COALESCE: return coalesce_value(c, e, sel);
    case EXEC_EXPR_FIELD: return unary(c, e, exec_k_field, "field", sel);
    case EXEC_EXPR_STRUCT: return varargs_value(c, e, exec_k_struct, "struct", sel);
    case EXEC_EXPR_CALL: return varargs_value(c, e, exec_k_call, e->name, sel);
    }
    return sl_error_set(c->err, SL_ERR_INTERNAL_ERROR, "unknown expression kind %d", (int)e->kind);
}

/* ---- filter program -------------------------------------------------------------- */

static int sel_from_value(cc_t *c, const exec_expr_t *e, int sel, bool want_true)
{
    int v = cv(c, e, sel);
    if (v < 0) return -1;
    int s = add_step(c, want_true ? exec_k_sel_true : exec_k_sel_false,
                     want_true ? "sel_true" : "sel_false", sel);
    STEP(s)->in[0] = v;
    return STEP(s)->sel_out = new_sel(c);
}

static int sel_none(cc_t *c, int sel)
{
    int s = add_step(c, exec_k_sel_none, "sel_none", sel);
    return STEP(s)->sel_out = new_sel(c);
}

static int filter_or(cc_t *c, const exec_expr_t *e, int sel)
{
    int s1 = cf(c, e->args[0], sel);
    if (s1 < 0) return -1;
    int rest = sel_diff(c, sel, s1);
    int s2 = cf(c, e->args[1], rest);
    if (s2 < 0) return -1;
    int s = add_step(c, exec_k_sel_union, "sel_union", sel);
    STEP(s)->in[0] = s1;
    STEP(s)->in[1] = s2;
    return STEP(s)->sel_out = new_sel(c);
}

static const exec_cmp_op_t negated_cmp[] = {EXEC_CMP_NE, EXEC_CMP_EQ, EXEC_CMP_GE,
                                            EXEC_CMP_GT, EXEC_CMP_LE, EXEC_CMP_LT};

/* NOT x in filter form: comparisons flip, De Morgan through AND/OR. */
static int filter_not(cc_t *c, const exec_expr_t *e, int sel)
{
    const exec_expr_t *x = e->args[0];
    exec_expr_t tmp;
    exec_expr_t *kids[2];
    switch (x->kind) {
    case EXEC_EXPR_NOT: return cf(c, x->args[0], sel);
    case EXEC_EXPR_CMP:
        tmp = *x;
        tmp.op = negated_cmp[x->op];
        return cf(c, &tmp, sel);
    case EXEC_EXPR_AND:
    case EXEC_EXPR_OR: {
        exec_expr_t n0 = *e, n1 = *e;
        n0.args = &kids[0];
        n1.args = &kids[1];
        kids[0] = x->args[0];
        kids[1] = x->args[1];
        exec_expr_t *parts[2] = {&n0, &n1};
        tmp = *x;
        tmp.kind = x->kind == EXEC_EXPR_AND ? EXEC_EXPR_OR : EXEC_EXPR_AND;
        tmp.args = parts;
        return cf(c, &tmp, sel);
    }
    default: return sel_from_value(c, x, sel, false);
    }
}

/* The filter program of e under sel: returns the selection of rows where e
 * is true, or -1. */
static int cf(cc_t *c, const exec_expr_t *e, int sel)
{
    switch (e->kind) {
    case EXEC_EXPR_CONST: return !e->value.is_null && e->value.u.b ? sel : sel_none(c, sel);
    case EXEC_EXPR_AND: {
        int s1 = cf(c, e->args[0], sel);
        return s1 < 0 ? -1 : cf(c, e->args[1], s1);
    }
    case EXEC_EXPR_OR: return filter_or(c, e, sel);
    case EXEC_EXPR_NOT: return filter_not(c, e, sel);
    case EXEC_EXPR_CMP: {
        if (is_null_const(e->args[0]) || is_null_const(e->args[1])) return sel_none(c, sel);
        int s = binary(c, e, pick_cmp_filter, sel);
        return s < 0 ? -1 : (STEP(s)->sel_out = new_sel(c));
    }
    default: return sel_from_value(c, e, sel, true);
    }
}

/* ---- folding ---------------------------------------------------------------------- */

/* Evaluates a foldable tree once (compiled without folding, on a one-row
 * batch with no columns). */
static int eval_const(sl_arena_t *a, const exec_expr_t *e, exec_value_t *out, sl_error_t *err)
{
    sl_arena_t *tmp = sl_arena_new("fold");
    cc_t c = {.a = tmp, .nsels = 1, .err = err};
    int r = cv(&c, e, 0), rc = -1;
    if (r >= 0) {
        exec_prog_t p = {.type = e->type,
                         .steps = c.steps,
                         .nsteps = c.nsteps,
                         .result = r,
                         .nregs = c.nregs,
                         .nsels = c.nsels};
        exec_ctx_t ctx = {.arena = tmp};
        exec_batch_t *b = exec_batch_new(tmp, 0, NULL, 1);
        exec_vec_t v;
        if (!exec_prog_eval(&p, &ctx, b, &v, err)) {
            exec_value_t tv;
            exec_vec_get_value(&v, 0, tmp, &tv);
            *out = exec_value_copy(a, &tv);
            rc = 0;
        }
    }
    sl_arena_free(tmp);
    return rc;
}

/* Replaces the largest foldable subtrees by constants; a subtree whose
 * evaluation fails is kept (its error belongs to the rows that reach it). */
static const exec_expr_t *fold(sl_arena_t *a, const exec_expr_t *e)
{
    if (e->kind == EXEC_EXPR_CONST || e->kind == EXEC_EXPR_COLUMN) return e;
    if (exec_expr_is_foldable(e)) {
        sl_error_t err;
        exec_value_t v;
        if (!eval_const(a, e, &v, &err)) return exec_expr_const(a, &v);
    }
    exec_expr_t *c = NULL;
    for (int i = 0; i < e->nargs; i++) {
        const exec_expr_t *f = fold(a, e->args[i]);
        if (f == e->args[i]) continue;
        if (!c) {
            c = SL_NEW(a, exec_expr_t);
            *c = *e;
            c->args = SL_NEW_ARRAY(a, exec_expr_t *, e->nargs);
            memcpy(c->args, e->args, sizeof(exec_expr_t *) * (size_t)e->nargs);
        }
        c->args[i] = (exec_expr_t *)f;
    }
    return c ? c : e;
}

exec_prog_t *exec_expr_compile(sl_arena_t *a, const exec_expr_t *e, sl_error_t *err)
{
    e = fold(a, e);
    exec_prog_t *p = SL_NEW(a, exec_prog_t);
    p->type = e->type;
    cc_t c = {.a = a, .nsels = 1, .err = err};
    if ((p->result = cv(&c, e, 0)) < 0) return NULL;
    p->steps = c.steps;
    p->nsteps = c.nsteps;
    if (e->type.id == EXEC_TYPE_BOOLEAN) {
        cc_t f = {.a = a,
                  .nsels = 1,
                  .nregs = c.nregs,
                  .err = err,
                  .strs = c.strs,
                  .nstrs = c.nstrs,
                  .capstrs = c.capstrs};
        if ((p->fresult = cf(&f, e, 0)) < 0) return NULL;
        p->fsteps = f.steps;
        p->nfsteps = f.nsteps;
        c.nsels = c.nsels > f.nsels ? c.nsels : f.nsels;
        c.nregs = f.nregs;
    }
    p->nregs = c.nregs;
    p->nsels = c.nsels;
    return p;
}

static void dump_steps(const exec_step_t *steps, int n, sl_buf_t *buf)
{
    for (int i = 0; i < n; i++) {
        const exec_step_t *st = &steps[i];
        sl_buf_printf(buf, "%d: %s", i, st->name);
        if (st->out >= 0) sl_buf_printf(buf, " r%d", st->out);
        if (st->sel_out >= 0) sl_buf_printf(buf, " s%d", st->sel_out);
        sl_buf_printf(buf, " <-");
        for (int k = 0; k < 2; k++)
            if (st->in[k] >= 0) sl_buf_printf(buf, " r%d", st->in[k]);
        if (st->in[0] < 0 && st->in[1] >= 0) sl_buf_puts(buf, " const");
        if (st->in[0] >= 0 && st->in[1] < 0 && st->shape == EXEC_SHAPE_VC)
            sl_buf_puts(buf, " const");
        sl_buf_printf(buf, " [s%d]\n", st->sel);
    }
}

void exec_prog_dump(const exec_prog_t *p, sl_buf_t *buf)
{
    sl_buf_puts(buf, "value:\n");
    dump_steps(p->steps, p->nsteps, buf);
    sl_buf_printf(buf, "result r%d\n", p->result);
    if (p->type.id == EXEC_TYPE_BOOLEAN) {
        sl_buf_puts(buf, "filter:\n");
        dump_steps(p->fsteps, p->nfsteps, buf);
        sl_buf_printf(buf, "result s%d\n", p->fresult);
    }
}
