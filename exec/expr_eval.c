/* exec expressions: the evaluation loop and the control kernels (column
 * loads, constants, selections, lazy AND/OR, CASE/COALESCE assembly,
 * casts, struct access and function calls). */
#include <stdatomic.h>
#include <string.h>

#include "model/cast.h"
#include "exec/expr_int.h"

/* ---- helpers ------------------------------------------------------------ */

exec_vec_t *exec_step_out(const exec_step_t *st, exec_eval_t *ev)
{
    exec_vec_t *v = &ev->regs[st->out];
    *v = exec_vec_new(ev->a, st->type, ev->nrows);
    return v;
}

uint8_t *exec_nulls_or(exec_eval_t *ev, const uint8_t *a, const uint8_t *b)
{
    if (!a || !b) return (uint8_t *)(a ? a : b);
    uint32_t n = ev->nrows;
    uint8_t *o = sl_alloc(ev->a, n ? n : 1);
    for (uint32_t i = 0; i < n; i++) o[i] = a[i] | b[i];
    return o;
}

uint8_t *exec_nulls_copy(exec_eval_t *ev, const uint8_t *nl)
{
    uint32_t n = ev->nrows ? ev->nrows : 1;
    uint8_t *o = sl_alloc(ev->a, n);
    if (nl) memcpy(o, nl, ev->nrows);
    else memset(o, 0, n);
    return o;
}

uint32_t *exec_sel_alloc(exec_eval_t *ev, uint32_t n)
{
    return sl_alloc(ev->a, sizeof(uint32_t) * (n ? n : 1));
}

static exec_sel_t *sel_of(const exec_step_t *st, exec_eval_t *ev)
{
    return &ev->sels[st->sel];
}

static void set_sel(exec_eval_t *ev, int which, const uint32_t *idx, uint32_t n)
{
    ev->sels[which].idx = idx;
    ev->sels[which].n = n;
}

/* ---- loads and constants -------------------------------------------------- */

/* A column reference: the batch's vector itself (no copy). The plan and the
 * batch must agree on the column's number and type; a mismatch is a
 * planner bug, reported rather than read out of bounds. */
int exec_k_load(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    const exec_batch_t *b = ev->batch;
    if (st->op < 0 || st->op >= b->ncols || b->cols[st->op].type.id != st->type.id)
        return sl_error_set(err, SL_ERR_INTERNAL_ERROR,
                            "expression reads column %d (%s) of a %d-column batch", st->op,
                            exec_type_pg_name(st->type), b->ncols);
    ev->regs[st->out] = b->cols[st->op];
    return 0;
}

/* Writes value v into cell i of vector o (which has a null map when v can be NULL). */
static void put_value(exec_vec_t *o, uint32_t i, const exec_value_t *v)
{
    if (v->is_null || v->type.id == EXEC_TYPE_NULL) {
        if (o->nulls) o->nulls[i] = 1;
        return;
    }
    if (o->nulls) o->nulls[i] = 0;
    if (o->type.id == EXEC_TYPE_STRUCT) {
        for (int f = 0; f < o->type.nfields; f++) put_value(&o->children[f], i, &v->u.fields[f]);
        return;
    }
    size_t w = exec_type_width(o->type);
    memcpy((char *)o->data + (size_t)i * w, &v->u, w);
}

/* Gives o and (for structs) its children zeroed null maps. */
static void make_all_nulls(exec_eval_t *ev, exec_vec_t *o)
{
    if (!o->nulls) o->nulls = exec_nulls_copy(ev, NULL);
    for (int f = 0; o->children && f < o->type.nfields; f++) make_all_nulls(ev, &o->children[f]);
}

int exec_k_broadcast(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    (void)err;
    exec_vec_t *o = exec_step_out(st, ev);
    const exec_value_t *v = &st->k;
    if (v->is_null || o->type.id == EXEC_TYPE_NULL) {
        o->nulls = sl_alloc(ev->a, ev->nrows ? ev->nrows : 1);
        memset(o->nulls, 1, ev->nrows ? ev->nrows : 1);
        return 0;
    }
    exec_sel_t *s = sel_of(st, ev);
    switch (exec_type_width(o->type)) {
    case 1: FOR_SEL(s, ((uint8_t *)o->data)[i] = v->u.b); break;
    case 4: FOR_SEL(s, ((int32_t *)o->data)[i] = v->u.i32); break;
    case 8: FOR_SEL(s, ((int64_t *)o->data)[i] = v->u.i64); break;
    default:
        if (o->type.id == EXEC_TYPE_STRUCT) make_all_nulls(ev, o);
        FOR_SEL(s, put_value(o, i, v));
    }
    return 0;
}

/* ---- selections -------------------------------------------------------- */

/* sel_out = rows of the step's selection where EXPR (over data d and null map nl). */
#define SEL_WHERE(EXPR_NULLS, EXPR_NONULLS)                \
    do {                                                   \
        const exec_vec_t *v = &ev->regs[st->in[0]];        \
        const uint8_t *d = v->data, *nl = v->nulls;        \
        exec_sel_t *s = sel_of(st, ev);                    \
        uint32_t *idx = exec_sel_alloc(ev, s->n), m = 0;   \
        if (nl) FOR_SEL(s, idx[m] = i; m += (EXPR_NULLS)); \
        else FOR_SEL(s, idx[m] = i; m += (EXPR_NONULLS));  \
        set_sel(ev, st->sel_out, idx, m);                  \
        (void)err;                                         \
        return 0;                                          \
    } while (0)

/* A NULL-typed register has no data: every row is NULL. */
static bool all_null(const exec_step_t *st, exec_eval_t *ev)
{
    return ev->regs[st->in[0]].type.id == EXEC_TYPE_NULL;
}

static int sel_all_or_none(const exec_step_t *st, exec_eval_t *ev, bool all)
{
    exec_sel_t *s = sel_of(st, ev);
    if (all) set_sel(ev, st->sel_out, s->idx, s->n);
    else set_sel(ev, st->sel_out, NULL, 0);
    return 0;
}

int exec_k_sel_true(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    if (all_null(st, ev)) return sel_all_or_none(st, ev, false);
    SEL_WHERE(d[i] & !nl[i], d[i]);
}

int exec_k_sel_false(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    if (all_null(st, ev)) return sel_all_or_none(st, ev, false);
    SEL_WHERE((!d[i]) & !nl[i], !d[i]);
}

int exec_k_sel_not_false(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    if (all_null(st, ev)) return sel_all_or_none(st, ev, true);
    SEL_WHERE((d[i] != 0) | (nl[i] != 0), d[i]); /* cells under NULL hold any byte */
}

int exec_k_sel_not_true(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    if (all_null(st, ev)) return sel_all_or_none(st, ev, true);
    SEL_WHERE((!d[i]) | (nl[i] != 0), !d[i]);
}

int exec_k_sel_none(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    (void)err;
    return sel_all_or_none(st, ev, false);
}

/* Rows of the step's selection not in selection st->op (a subset of it):
 * the subset's rows are marked in a byte map, then the selection is
 * compacted without branches (no loop-carried load, unlike a merge). */
int exec_k_sel_diff(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    (void)err;
    exec_sel_t *s = sel_of(st, ev), *sub = &ev->sels[st->op];
    uint32_t *idx = exec_sel_alloc(ev, s->n), m = 0;
    uint8_t *mark = exec_nulls_copy(ev, NULL);
    FOR_SEL(sub, mark[i] = 1);
    FOR_SEL(s, idx[m] = i; m += mark[i] ^ 1);
    set_sel(ev, st->sel_out, idx, m);
    return 0;
}

/* Merge of two disjoint increasing selections. */
int exec_k_sel_union(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    (void)err;
    const exec_sel_t *x = &ev->sels[st->in[0]], *y = &ev->sels[st->in[1]];
    uint32_t *idx = exec_sel_alloc(ev, x->n + y->n), m = 0, i = 0, j = 0;
    while (i < x->n && j < y->n) {
        uint32_t a = x->idx ? x->idx[i] : i, b = y->idx ? y->idx[j] : j;
        if (a < b) idx[m++] = a, i++;
        else idx[m++] = b, j++;
    }
    for (; i < x->n; i++) idx[m++] = x->idx ? x->idx[i] : i;
    for (; j < y->n; j++) idx[m++] = y->idx ? y->idx[j] : j;
    set_sel(ev, st->sel_out, idx, m);
    return 0;
}

/* ---- three-valued logic ------------------------------------------------------ */

typedef struct tv {
    const uint8_t *d, *nl;
    bool all_null;
} tv_t;

static tv_t tv_of(const exec_vec_t *v)
{
    tv_t t = {v->data, v->nulls, v->type.id == EXEC_TYPE_NULL};
    return t;
}

static inline int tv_get(const tv_t *t, uint32_t i) /* 0 false, 1 true, 2 NULL */
{
    if (t->all_null || (t->nl && t->nl[i])) return 2;
    return t->d[i] ? 1 : 0;
}

/* AND / OR: l over the step's selection, r over the undecided rows (st->op). */
static int logic_combine(const exec_step_t *st, exec_eval_t *ev, bool and)
{
    exec_vec_t *o = exec_step_out(st, ev);
    tv_t l = tv_of(&ev->regs[st->in[0]]), r = tv_of(&ev->regs[st->in[1]]);
    uint8_t *d = o->data, *nl = NULL;
    if (l.all_null || r.all_null || l.nl || r.nl) nl = o->nulls = exec_nulls_copy(ev, NULL);
    int decisive = and? 0 : 1;
    FOR_SEL(
        sel_of(st, ev), int a = tv_get(&l, i); int res; if (a == decisive) res = decisive; else {
            int b = tv_get(&r, i);
            res = b == decisive ? decisive : (a == 2 || b == 2) ? 2 : !decisive;
        } d[i] = res == 1;
        if (nl) nl[i] = res == 2);
    return 0;
}

int exec_k_and(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    (void)err;
    return logic_combine(st, ev, true);
}

int exec_k_or(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    (void)err;
    return logic_combine(st, ev, false);
}

int exec_k_not(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    (void)err;
    const exec_vec_t *x = &ev->regs[st->in[0]];
    exec_vec_t *o = exec_step_out(st, ev);
    if (x->type.id == EXEC_TYPE_NULL) {
        o->nulls = x->nulls;
        return 0;
    }
    const uint8_t *d = x->data;
    uint8_t *od = o->data;
    FOR_SEL(sel_of(st, ev), od[i] = !d[i]);
    o->nulls = x->nulls;
    return 0;
}

int exec_k_is_null(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    (void)err;
    const exec_vec_t *x = &ev->regs[st->in[0]];
    exec_vec_t *o = exec_step_out(st, ev);
    uint8_t *od = o->data, neg = (uint8_t)st->op;
    const uint8_t *nl = x->nulls;
    if (nl) FOR_SEL(sel_of(st, ev), od[i] = (nl[i] != 0) ^ neg);
    else FOR_SEL(sel_of(st, ev), od[i] = neg);
    return 0;
}

/* ---- CASE / COALESCE assembly ---------------------------------------------------- */

/* The result register of CASE / COALESCE; st->op = 1 when no branch can
 * be NULL (all are non-NULL constants of a scalar type): no null map. */
int exec_k_init(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    (void)err;
    exec_vec_t *o = exec_step_out(st, ev);
    if (!st->op) make_all_nulls(ev, o);
    return 0;
}

/* Copies cell i of src into dst (same type), NULLs included. */
static void copy_cell(exec_vec_t *dst, const exec_vec_t *src, uint32_t i)
{
    bool null = src->type.id == EXEC_TYPE_NULL || (src->nulls && src->nulls[i]);
    dst->nulls[i] = null;
    if (null) return;
    if (dst->type.id == EXEC_TYPE_STRUCT) {
        for (int f = 0; f < dst->type.nfields; f++)
            copy_cell(&dst->children[f], &src->children[f], i);
        return;
    }
    size_t w = exec_type_width(dst->type);
    memcpy((char *)dst->data + (size_t)i * w, (const char *)src->data + (size_t)i * w, w);
}

int exec_k_scatter(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    (void)err;
    exec_vec_t *dst = &ev->regs[st->out];
    const exec_vec_t *src = &ev->regs[st->in[0]];
    exec_sel_t *s = sel_of(st, ev);
    size_t w = exec_type_width(dst->type);
    if (!src->nulls && dst->type.id != EXEC_TYPE_STRUCT && src->type.id != EXEC_TYPE_NULL) {
        FOR_SEL(s, dst->nulls[i] = 0; memcpy((char *)dst->data + (size_t)i * w,
                                             (const char *)src->data + (size_t)i * w, w));
        return 0;
    }
    FOR_SEL(s, copy_cell(dst, src, i));
    return 0;
}

int exec_k_scatter_const(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    (void)err;
    exec_vec_t *dst = &ev->regs[st->out];
    const exec_value_t *v = &st->k;
    exec_sel_t *s = sel_of(st, ev);
    if (v->is_null || v->type.id == EXEC_TYPE_NULL) {
        FOR_SEL(s, dst->nulls[i] = 1);
        return 0;
    }
    if (exec_type_is_varlen(dst->type)) {
        exec_str_t *d = dst->data, k = v->u.str;
        if (dst->nulls) FOR_SEL(s, dst->nulls[i] = 0; d[i] = k);
        else FOR_SEL(s, d[i] = k);
        return 0;
    }
    if (!dst->nulls) { /* a result every branch of which is a non-NULL constant */
        FOR_SEL(s, put_value(dst, i, v));
        return 0;
    }
    FOR_SEL(s, put_value(dst, i, v));
    return 0;
}

/* Rows with a non-NULL value are copied; the others become sel_out. */
int exec_k_coalesce_take(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    (void)err;
    exec_vec_t *dst = &ev->regs[st->out];
    const exec_vec_t *src = &ev->regs[st->in[0]];
    exec_sel_t *s = sel_of(st, ev);
    uint32_t *idx = exec_sel_alloc(ev, s->n), m = 0;
    bool none = src->type.id == EXEC_TYPE_NULL;
    FOR_SEL(s, if (none || (src->nulls && src->nulls[i])) idx[m++] = i;
            else copy_cell(dst, src, i));
    set_sel(ev, st->sel_out, idx, m);
    return 0;
}

/* ---- casts, structs --------------------------------------------------------------- */

int exec_k_cast(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    const exec_cast_aux_t *ca = st->aux;
    const exec_vec_t *x = &ev->regs[st->in[0]];
    exec_vec_t *o = exec_step_out(st, ev);
    exec_sel_t *s = sel_of(st, ev);
    if (ca->fn(x, o, s->idx, s->n, ev->a, err)) return -1;
    o->nulls = x->nulls;
    return 0;
}

int exec_k_field(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    (void)err;
    const exec_vec_t *x = &ev->regs[st->in[0]];
    exec_vec_t *o = &ev->regs[st->out];
    *o = x->children[st->op];
    o->nulls = exec_nulls_or(ev, x->nulls, o->nulls);
    return 0;
}

int exec_k_struct(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    (void)err;
    exec_vec_t *o = &ev->regs[st->out];
    o->type = st->type;
    o->data = NULL;
    o->nulls = NULL;
    o->children = SL_NEW_ARRAY(ev->a, exec_vec_t, st->nin ? st->nin : 1);
    for (int f = 0; f < st->nin; f++) {
        o->children[f] = ev->regs[st->ins[f]];
        o->children[f].type = st->type.fields[f].type;
    }
    return 0;
}

/* ---- function calls ------------------------------------------------------------------ */

/* For strict functions: the result's NULL map (a private copy) and the rows
 * with no NULL argument. */
static void strict_rows(const exec_step_t *st, exec_eval_t *ev, const exec_vec_t **args,
                        exec_vec_t *o, const uint32_t **rows, uint32_t *n)
{
    exec_sel_t *s = sel_of(st, ev);
    *rows = s->idx;
    *n = s->n;
    bool any = false;
    for (int a = 0; a < st->nin; a++) any |= args[a] && args[a]->nulls;
    if (!any) return;
    o->nulls = exec_nulls_copy(ev, NULL);
    uint32_t *idx = exec_sel_alloc(ev, s->n), m = 0;
    FOR_SEL(s, uint8_t null = 0; for (int a = 0; a < st->nin; a++) null |=
                                 args[a] && args[a]->nulls && args[a]->nulls[i];
            o->nulls[i] = null; if (!null) idx[m++] = i);
    *rows = idx;
    *n = m;
}

int exec_k_call(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    const exec_call_aux_t *ca = st->aux;
    const exec_vec_t **args = SL_NEW_ARRAY(ev->a, const exec_vec_t *, st->nin ? st->nin : 1);
    for (int a = 0; a < st->nin; a++) args[a] = st->ins[a] >= 0 ? &ev->regs[st->ins[a]] : NULL;
    exec_vec_t *o = exec_step_out(st, ev);
    exec_fcall_t call = {.args = args,
                         .nargs = st->nin,
                         .out = o,
                         .cap = ev->nrows,
                         .aux = ca->aux,
                         .ctx = ev->ctx,
                         .arena = ev->a};
    if (ca->func->flags & EXEC_FUNC_STRICT) {
        strict_rows(st, ev, args, o, &call.rows, &call.nrows);
    } else {
        call.rows = sel_of(st, ev)->idx;
        call.nrows = sel_of(st, ev)->n;
    }
    return ca->kernel(&call, err);
}

/* ---- programs ---------------------------------------------------------------------------- */

static int run(const exec_step_t *steps, int n, exec_eval_t *ev, sl_error_t *err)
{
    for (int i = 0; i < n; i++)
        if (steps[i].fn(&steps[i], ev, err)) return -1;
    return 0;
}

static int start(const exec_prog_t *p, exec_ctx_t *ctx, const exec_batch_t *b, exec_eval_t *ev,
                 sl_error_t *err)
{
    if (ctx->cancel && atomic_load(ctx->cancel))
        return sl_error_set(err, SL_ERR_QUERY_CANCELED, "canceling statement due to user request");
    ev->a = ctx->arena;
    ev->ctx = ctx;
    ev->batch = b;
    ev->nrows = b->nrows;
    ev->regs = SL_NEW_ARRAY(ctx->arena, exec_vec_t, p->nregs ? p->nregs : 1);
    ev->sels = SL_NEW_ARRAY(ctx->arena, exec_sel_t, p->nsels ? p->nsels : 1);
    ev->sels[0].idx = b->sel;
    ev->sels[0].n = exec_batch_count(b);
    return 0;
}

int exec_prog_eval(const exec_prog_t *p, exec_ctx_t *ctx, const exec_batch_t *b, exec_vec_t *out,
                   sl_error_t *err)
{
    exec_eval_t ev;
    if (start(p, ctx, b, &ev, err) || run(p->steps, p->nsteps, &ev, err)) return -1;
    *out = ev.regs[p->result];
    return 0;
}

int exec_prog_filter(const exec_prog_t *p, exec_ctx_t *ctx, exec_batch_t *b, sl_error_t *err)
{
    if (p->type.id != EXEC_TYPE_BOOLEAN)
        return sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                            "argument of WHERE must be type boolean, not type %s",
                            exec_type_pg_name(p->type));
    exec_eval_t ev;
    if (start(p, ctx, b, &ev, err) || run(p->fsteps, p->nfsteps, &ev, err)) return -1;
    const exec_sel_t *s = &ev.sels[p->fresult];
    if (s->n == exec_batch_count(b)) return 0; /* every row passed (a subset of equal size) */
    uint32_t *sel = sl_alloc(b->arena, sizeof(uint32_t) * (s->n ? s->n : 1));
    if (s->idx) memcpy(sel, s->idx, sizeof(uint32_t) * s->n);
    else
        for (uint32_t i = 0; i < s->n; i++) sel[i] = i;
    b->sel = sel;
    b->nsel = s->n;
    return 0;
}
