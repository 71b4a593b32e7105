/* Binding SELECT: the select list, WHERE, GROUP BY/HAVING with aggregates
 * and windows, DISTINCT [ON], ORDER BY, LIMIT/OFFSET, VALUES and UNION. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sl_assert.h"
#include "model/cast.h"
#include "exec/func.h"
#include "model/text_io.h"
#include "planner/bind_from.h"
#include "planner/bind_int.h"
#include "planner/plan_const.h"

int plan_visible_columns(const plan_node_t *n)
{
    int v = 0;
    for (int i = 0; i < n->ncols; i++) v += !n->cols[i].hidden;
    return v;
}

/* A PROJECT node over `child` with the given expressions and names. */
static plan_node_t *make_project(sl_arena_t *a, plan_node_t *child, exec_expr_t **exprs,
                                 const char **names, int n, int pos)
{
    plan_node_t *p = plan_node_new(a, LP_PROJECT, n, pos);
    p->project.exprs = exprs;
    for (int i = 0; i < n; i++) {
        p->cols[i].name = names[i];
        p->cols[i].type = exprs[i]->type;
        p->cols[i].wm_delay_ms = -1;
        if (exprs[i]->kind == EXEC_EXPR_COLUMN) { /* a plain reference keeps its metadata */
            const plan_col_t *c = &child->cols[exprs[i]->column];
            p->cols[i].wm_delay_ms = c->wm_delay_ms;
            p->cols[i].is_window = c->is_window;
            p->cols[i].qual = c->qual;
        }
    }
    plan_set_child(p, 0, child);
    return p;
}

plan_node_t *plan_project(sl_arena_t *a, plan_node_t *child, exec_expr_t **exprs,
                          const char **names, int n)
{
    return make_project(a, child, exprs, names, n, child->pos);
}

plan_node_t *plan_project_visible(sl_arena_t *a, plan_node_t *n)
{
    int nv = plan_visible_columns(n), k = 0;
    exec_expr_t **exprs = SL_NEW_ARRAY(a, exec_expr_t *, nv > 0 ? nv : 1);
    const char **names = SL_NEW_ARRAY(a, const char *, nv > 0 ? nv : 1);
    for (int i = 0; i < n->ncols; i++) {
        if (n->cols[i].hidden) continue;
        exprs[k] = exec_expr_column(a, i, n->cols[i].type, n->cols[i].name);
        names[k++] = n->cols[i].name;
    }
    return make_project(a, n, exprs, names, nv, n->pos);
}

/* ---- select list ---- */

typedef struct out_list {
    int n, cap;
    exec_expr_t **exprs;
    const char **names;
    int *hidden;
} out_list_t;

static void out_add(sl_arena_t *a, out_list_t *o, exec_expr_t *e, const char *name, int hidden)
{
    if (o->n == o->cap) {
        int cap = o->cap ? o->cap * 2 : 16;
        o->exprs = sl_arena_realloc(a, o->exprs, sizeof *o->exprs * (size_t)o->cap,
                                    sizeof *o->exprs * (size_t)cap);
        o->names = sl_arena_realloc(a, o->names, sizeof *o->names * (size_t)o->cap,
                                    sizeof *o->names * (size_t)cap);
        o->hidden = sl_arena_realloc(a, o->hidden, sizeof *o->hidden * (size_t)o->cap,
                                     sizeof *o->hidden * (size_t)cap);
        o->cap = cap;
    }
    o->exprs[o->n] = e;
    o->names[o->n] = name;
    o->hidden[o->n] = hidden;
    o->n++;
}

/* (x).* or s.*: one output column per field of the struct x, named by the
 * field, as Spark expands a star over a struct. */
static int expand_struct(binder_t *b, const ast_expr_t *x, out_list_t *o, sl_error_t *err)
{
    sl_arena_t *a = b->pc->arena;
    exec_expr_t *s = bind_expr(b, x, err);
    if (!s) return -1;
    if (s->type.id != EXEC_TYPE_STRUCT) {
        sl_buf_t name = SL_BUF_INIT;
        exec_type_format(s->type, &name);
        sl_error_set(err, SL_ERR_WRONG_OBJECT_TYPE, "type %s is not a struct", name.data);
        sl_buf_free(&name);
        sl_error_hint(err, "Only a struct's fields can be expanded with .*.");
        return bind_at(err, x->pos);
    }
    for (int i = 0; i < s->type.nfields; i++) {
        exec_expr_t *f = exec_expr_field(a, s, i, err);
        if (!f) return bind_at(err, x->pos);
        out_add(a, o, f, s->type.fields[i].name, 0);
    }
    return 0;
}

/* Whether some input column belongs to the table (or alias) `qual`. */
static int has_qualifier(const binder_t *b, const char *qual)
{
    for (int i = 0; i < b->ncols; i++)
        if (b->cols[i].qual && !strcmp(b->cols[i].qual, qual)) return 1;
    return 0;
}

/* s.* (or t.s.*) where s is no table but a struct column: its fields. */
static int expand_struct_column(binder_t *b, const ast_select_item_t *it, out_list_t *o,
                                sl_error_t *err)
{
    ast_expr_t *col = SL_NEW(b->pc->arena, ast_expr_t);
    col->kind = AST_EXPR_COLUMN;
    col->names = it->qualifier;
    col->pos = it->pos;
    col->end = it->qualifier.items[it->qualifier.n - 1]->end;
    col->height = 1;
    return expand_struct(b, col, o, err);
}

/* `*` or `t.*` over the binder's input columns. */
static int expand_star(binder_t *b, const ast_select_item_t *it, out_list_t *o, sl_error_t *err)
{
    const char *qual = it->qualifier.n ? it->qualifier.items[it->qualifier.n - 1]->name : NULL;
    int added = 0;
    if (it->expr) return expand_struct(b, it->expr, o, err);
    if (qual && (it->qualifier.n > 1 || !has_qualifier(b, qual))) {
        if (expand_struct_column(b, it, o, err) == 0) return 0;
        sl_error_clear(err); /* no struct column either: the table's error below */
    }
    if (b->agg) {
        sl_error_set(err, SL_ERR_GROUPING_ERROR,
                     "SELECT * is not allowed with GROUP BY or aggregates");
        sl_error_hint(err, "List the grouping columns and aggregates.");
        return bind_at(err, it->pos);
    }
    for (int i = 0; i < b->ncols; i++) {
        const plan_col_t *c = &b->cols[i];
        /* t.* includes t's hidden columns: the keys of JOIN ... USING */
        if (qual ? !c->qual || strcmp(c->qual, qual) : c->hidden) continue;
        out_add(b->pc->arena, o, exec_expr_column(b->pc->arena, i, c->type, c->name), c->name, 0);
        added++;
    }
    if (qual && !added) {
        sl_error_set(err, SL_ERR_UNDEFINED_TABLE, "missing FROM-clause entry for table \"%s\"",
                     qual);
        return bind_at(err, it->pos);
    }
    return 0;
}

static int bind_items(binder_t *b, const ast_select_item_list_t *items, out_list_t *o,
                      sl_error_t *err)
{
    for (int i = 0; i < items->n; i++) {
        const ast_select_item_t *it = items->items[i];
        if (it->star) {
            if (expand_star(b, it, o, err) < 0) return -1;
            continue;
        }
        exec_expr_t *e = bind_expr(b, it->expr, err);
        if (!e) return -1;
        const char *name = it->alias ? it->alias->name : bind_item_name(b, it->expr);
        out_add(b->pc->arena, o, e, name, 0);
    }
    return 0;
}

/* ---- GROUP BY ---- */

static plan_node_t *add_filter(sl_arena_t *a, plan_node_t *n, exec_expr_t *pred, int pos);

/* window(ts, size, slide[, start]) with slide != size: several rows per input row. */
static int is_sliding_window(const ast_expr_t *e)
{
    return e->kind == AST_EXPR_FUNC && !strcmp(e->name->name, "window") && e->args.n >= 3;
}

/* Inserts an LP_WINDOW below the aggregate for a sliding window key; the key
 * becomes the appended window column. */
static exec_expr_t *bind_sliding_window(binder_t *b, plan_node_t **input, const ast_expr_t *e,
                                        sl_error_t *err)
{
    int n = e->args.n;
    exec_expr_t **args = SL_NEW_ARRAY(b->pc->arena, exec_expr_t *, n);
    for (int i = 0; i < n; i++)
        if (!(args[i] = bind_expr(b, e->args.items[i], err))) return NULL;
    exec_window_spec_t spec;
    if (exec_window_spec(args, n, &spec, err) < 0 || args[0]->kind != EXEC_EXPR_COLUMN) {
        if (!sl_error_isset(err))
            sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                         "the time column of a sliding window must be a column");
        bind_at(err, e->pos);
        return NULL;
    }
    if (spec.slide_us == spec.size_us)
        return exec_expr_call(b->pc->arena, "window", args, NULL, n, err);
    plan_node_t *in = *input;
    plan_node_t *w = plan_node_new(b->pc->arena, LP_WINDOW, in->ncols + 1, e->pos);
    memcpy(w->cols, in->cols, sizeof *w->cols * (size_t)in->ncols);
    plan_col_t *wc = &w->cols[in->ncols];
    wc->name = "window";
    wc->type = exec_type_window();
    wc->is_window = 1;
    wc->wm_delay_ms = in->cols[args[0]->column].wm_delay_ms;
    wc->hidden = 1;
    w->window.ts_col = args[0]->column;
    w->window.size_us = spec.size_us;
    w->window.slide_us = spec.slide_us;
    w->window.start_us = spec.start_us;
    plan_set_child(w, 0, in);
    *input = w;
    b->ncols = w->ncols;
    b->cols = w->cols;
    return exec_expr_column(b->pc->arena, in->ncols, wc->type, "window");
}

/* GROUP BY 2 or GROUP BY alias: the select item it names. */
static const ast_expr_t *group_item_ast(const ast_select_t *q, const ast_expr_t *g,
                                        const binder_t *b)
{
    if (g->kind == AST_EXPR_LITERAL && g->lit == AST_LIT_INTEGER) {
        int k = atoi(g->text);
        if (k >= 1 && k <= q->items.n && q->items.items[k - 1]->expr)
            return q->items.items[k - 1]->expr;
        return NULL;
    }
    if (g->kind == AST_EXPR_COLUMN && g->names.n == 1) {
        for (int i = 0; i < b->ncols; i++)
            if (!strcmp(b->cols[i].name, g->names.items[0]->name)) return g;
        for (int i = 0; i < q->items.n; i++) {
            const ast_select_item_t *it = q->items.items[i];
            if (it->alias && !strcmp(it->alias->name, g->names.items[0]->name)) return it->expr;
        }
    }
    return g;
}

/* Event-time metadata of a key: a watermarked column, or a window over one. */
static void key_watermark(const binder_t *b, bind_key_t *k)
{
    k->wm_delay_ms = -1;
    k->is_window = k->is_session = 0; /* the slot may hold a duplicate key's */
    const exec_expr_t *e = k->expr;
    if (e->kind == EXEC_EXPR_COLUMN) {
        k->wm_delay_ms = b->cols[e->column].wm_delay_ms;
        k->is_window = b->cols[e->column].is_window;
    } else if (e->kind == EXEC_EXPR_CALL &&
               (!strcmp(e->name, "window") || !strcmp(e->name, "session_window"))) {
        if (e->args[0]->kind == EXEC_EXPR_COLUMN)
            k->wm_delay_ms = b->cols[e->args[0]->column].wm_delay_ms;
        k->is_window = 1;
        k->is_session = !strcmp(e->name, "session_window");
    }
    if (k->is_window) k->name = k->is_session ? "session_window" : "window";
}

/* Rows without a window are dropped before the plan computes one, as
 * Spark's TimeWindowing and SessionWindowing do wherever window(ts, size)
 * or session_window(ts, gap) appears: a NULL time, and for a session with a
 * per-row gap, one that is NULL or not positive (end <= start). */
static int add_window_filter(binder_t *b, plan_node_t **input, exec_expr_t *w, int pos,
                             sl_error_t *err)
{
    sl_arena_t *a = b->pc->arena;
    exec_expr_t *pred;
    if (!strcmp(w->name, "window") ||
        (w->const_args & 2u)) { /* a constant gap, checked positive when bound */
        pred = exec_expr_is_null(a, w->args[0], true);
    } else {
        exec_expr_t *start = exec_expr_field(a, w, 0, err),
                    *end = start ? exec_expr_field(a, w, 1, err) : NULL;
        pred = end ? exec_expr_cmp(a, EXEC_CMP_GT, end, start, err) : NULL;
    }
    if (!pred) return bind_at(err, pos);
    *input = add_filter(a, *input, pred, pos);
    return 0;
}

static bool is_window_call(const exec_expr_t *e)
{
    return e->kind == EXEC_EXPR_CALL &&
           (!strcmp(e->name, "window") || !strcmp(e->name, "session_window"));
}

/* add_window_filter for every window call in e (select items of a query
 * without aggregation). */
static int filter_windows_in(binder_t *b, plan_node_t **input, exec_expr_t *e, int pos,
                             sl_error_t *err)
{
    if (is_window_call(e)) return add_window_filter(b, input, e, pos, err);
    for (int i = 0; i < e->nargs; i++)
        if (filter_windows_in(b, input, e->args[i], pos, err) < 0) return -1;
    return 0;
}

/* A session window is the only window of its GROUP BY (Spark refuses more
 * than one window expression). */
static int check_session_keys(const bind_agg_t *ag, int pos, sl_error_t *err)
{
    int windows = 0, sessions = 0;
    for (int i = 0; i < ag->nkeys; i++) {
        windows += ag->keys[i].is_window;
        sessions += ag->keys[i].is_session;
    }
    if (sessions == 0 || windows == 1) return 0;
    sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                 "session_window cannot be combined with another window in GROUP BY");
    sl_error_hint(err,
                  "Group by one session_window(ts, gap), with other keys that are not windows.");
    return bind_at(err, pos);
}

static int bind_group_keys(binder_t *b, const ast_select_t *q, plan_node_t **input, bind_agg_t *ag,
                           sl_error_t *err)
{
    int n = q->group_by.n, session_pos = q->pos;
    ag->keys = SL_NEW_ARRAY(b->pc->arena, bind_key_t, n > 0 ? n : 1);
    b->clause = "GROUP BY";
    for (int i = 0; i < n; i++) {
        const ast_expr_t *g = group_item_ast(q, q->group_by.items[i], b);
        if (!g) {
            sl_error_set(err, SL_ERR_INVALID_COLUMN_REFERENCE,
                         "GROUP BY position %s is not in select list", q->group_by.items[i]->text);
            return bind_at(err, q->group_by.items[i]->pos);
        }
        bind_key_t *k = &ag->keys[ag->nkeys];
        k->expr =
            is_sliding_window(g) ? bind_sliding_window(b, input, g, err) : bind_expr(b, g, err);
        if (!k->expr) return -1;
        k->sig = bind_expr_sig(b->pc->arena, k->expr);
        k->name = bind_default_name(b->pc->arena, g);
        key_watermark(b, k);
        int dup = 0;
        for (int j = 0; j < ag->nkeys; j++) dup |= !strcmp(ag->keys[j].sig, k->sig);
        if (dup) continue;
        if (k->is_session) session_pos = g->pos;
        if (is_window_call(k->expr) && add_window_filter(b, input, k->expr, g->pos, err) < 0)
            return -1;
        ag->nkeys++;
    }
    return check_session_keys(ag, session_pos, err);
}

/* PROJECT(keys, aggregate arguments) -> AGGREGATE. */
static plan_node_t *build_aggregate(sl_arena_t *a, plan_node_t *input, bind_agg_t *ag, int pos)
{
    int nk = ag->nkeys, np = nk;
    for (int i = 0; i < ag->naggs; i++) np += ag->args[i] != NULL;
    exec_expr_t **exprs = SL_NEW_ARRAY(a, exec_expr_t *, np > 0 ? np : 1);
    const char **names = SL_NEW_ARRAY(a, const char *, np > 0 ? np : 1);
    for (int i = 0; i < nk; i++) {
        exprs[i] = ag->keys[i].expr;
        names[i] = ag->keys[i].name;
    }
    for (int i = 0, k = nk; i < ag->naggs; i++) {
        ag->aggs[i].arg = ag->args[i] ? k : -1;
        if (!ag->args[i]) continue;
        exprs[k] = ag->args[i];
        names[k++] = bind_expr_text(a, ag->args[i]); /* the argument, as EXPLAIN shows it */
    }
    plan_node_t *pre = make_project(a, input, exprs, names, np, pos);
    for (int i = 0; i < nk; i++) {
        pre->cols[i].wm_delay_ms = ag->keys[i].wm_delay_ms;
        pre->cols[i].is_window = ag->keys[i].is_window;
    }
    plan_node_t *agg = plan_node_new(a, LP_AGGREGATE, nk + ag->naggs, pos);
    agg->agg.nkeys = nk;
    agg->agg.keys = SL_NEW_ARRAY(a, int, nk > 0 ? nk : 1);
    agg->agg.event_key = -1;
    agg->agg.session_key = -1;
    for (int i = 0; i < nk; i++) {
        agg->agg.keys[i] = i;
        agg->cols[i] = pre->cols[i];
        agg->cols[i].qual = NULL;
        if (ag->keys[i].is_session) agg->agg.session_key = i;
        if (ag->keys[i].wm_delay_ms >= 0 && agg->agg.event_key < 0) agg->agg.event_key = i;
    }
    /* sessions are evicted and late by their own end only */
    if (agg->agg.session_key >= 0)
        agg->agg.event_key =
            ag->keys[agg->agg.session_key].wm_delay_ms >= 0 ? agg->agg.session_key : -1;
    agg->agg.naggs = ag->naggs;
    agg->agg.aggs = ag->aggs;
    for (int i = 0; i < ag->naggs; i++) {
        agg->cols[nk + i].name = ag->aggs[i].func;
        agg->cols[nk + i].type = ag->aggs[i].type;
        agg->cols[nk + i].wm_delay_ms = -1;
    }
    plan_set_child(agg, 0, pre);
    return agg;
}

/* ---- ORDER BY ---- */

/* The output column an ORDER BY item names: ordinal, output alias, or an
 * equal expression; else a new hidden column. */
static int bind_sort_item(binder_t *b, const ast_sort_t *s, out_list_t *o, sl_error_t *err)
{
    const ast_expr_t *e = s->expr;
    if (e->kind == AST_EXPR_LITERAL && e->lit == AST_LIT_INTEGER) {
        int k = atoi(e->text);
        int visible = 0;
        for (int i = 0; i < o->n; i++)
            if (!o->hidden[i] && ++visible == k) return i;
        sl_error_set(err, SL_ERR_INVALID_COLUMN_REFERENCE,
                     "ORDER BY position %s is not in select list", e->text);
        return bind_at(err, e->pos);
    }
    if (e->kind == AST_EXPR_COLUMN && e->names.n == 1)
        for (int i = 0; i < o->n; i++)
            if (!o->hidden[i] && !strcmp(o->names[i], e->names.items[0]->name)) return i;
    exec_expr_t *x = bind_expr(b, e, err);
    if (!x) return -1;
    const char *t = bind_expr_sig(b->pc->arena, x);
    for (int i = 0; i < o->n; i++)
        if (!strcmp(bind_expr_sig(b->pc->arena, o->exprs[i]), t)) return i;
    out_add(b->pc->arena, o, x, "?sort?", 1);
    return o->n - 1;
}

static int bind_order(binder_t *b, const ast_sort_list_t *l, out_list_t *o, plan_sort_key_t **keys,
                      sl_error_t *err)
{
    b->clause = "ORDER BY";
    *keys = SL_NEW_ARRAY(b->pc->arena, plan_sort_key_t, l->n > 0 ? l->n : 1);
    for (int i = 0; i < l->n; i++) {
        int col = bind_sort_item(b, l->items[i], o, err);
        if (col < 0) return -1;
        (*keys)[i].col = col;
        (*keys)[i].desc = l->items[i]->desc;
        (*keys)[i].nulls_first = l->items[i]->nulls == AST_NULLS_DEFAULT
                                     ? l->items[i]->desc
                                     : l->items[i]->nulls == AST_NULLS_FIRST;
    }
    return 0;
}

static plan_node_t *make_sort(sl_arena_t *a, plan_node_t *child, plan_sort_key_t *keys, int n,
                              int pos)
{
    plan_node_t *s = plan_node_new(a, LP_SORT, child->ncols, pos);
    memcpy(s->cols, child->cols, sizeof *s->cols * (size_t)child->ncols);
    s->sort.keys = keys;
    s->sort.nkeys = n;
    plan_set_child(s, 0, child);
    return s;
}

/* LIMIT / OFFSET: constant non-negative integers. */
static int bind_count(plan_ctx_t *pc, const ast_expr_t *e, const char *what, int64_t *out,
                      sl_error_t *err)
{
    exec_value_t v;
    exec_expr_t *x = plan_bind_constant(pc, e, err);
    if (!x || plan_eval_constant(pc->arena, x, exec_type_of(EXEC_TYPE_BIGINT), &v, err) < 0)
        return bind_at(err, e->pos);
    if (v.is_null) {
        *out = -1;
        return 0;
    }
    if (v.u.i64 < 0) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "%s must not be negative", what);
        return bind_at(err, e->pos);
    }
    *out = v.u.i64;
    return 0;
}

static plan_node_t *add_order_limit(plan_ctx_t *pc, const ast_select_t *q, plan_node_t *n,
                                    plan_sort_key_t *keys, sl_error_t *err)
{
    if (q->order_by.n) n = make_sort(pc->arena, n, keys, q->order_by.n, q->order_by.items[0]->pos);
    if (q->limit || q->offset) {
        plan_node_t *l =
            plan_node_new(pc->arena, LP_LIMIT, n->ncols, q->limit ? q->limit->pos : q->offset->pos);
        memcpy(l->cols, n->cols, sizeof *l->cols * (size_t)n->ncols);
        l->limit.limit = -1;
        if (q->limit && bind_count(pc, q->limit, "LIMIT", &l->limit.limit, err) < 0) return NULL;
        if (q->offset && bind_count(pc, q->offset, "OFFSET", &l->limit.offset, err) < 0)
            return NULL;
        if (l->limit.offset < 0) l->limit.offset = 0;
        plan_set_child(l, 0, n);
        n = l;
    }
    return n;
}

/* ---- DISTINCT ---- */

/* SELECT DISTINCT: group by every visible output column. */
static plan_node_t *add_distinct_all(sl_arena_t *a, plan_node_t *n)
{
    plan_node_t *agg = plan_node_new(a, LP_AGGREGATE, n->ncols, n->pos);
    memcpy(agg->cols, n->cols, sizeof *agg->cols * (size_t)n->ncols);
    agg->agg.nkeys = n->ncols;
    agg->agg.keys = SL_NEW_ARRAY(a, int, n->ncols > 0 ? n->ncols : 1);
    agg->agg.event_key = -1;
    agg->agg.session_key = -1;
    for (int i = 0; i < n->ncols; i++) {
        agg->agg.keys[i] = i;
        if (agg->agg.event_key < 0 && n->cols[i].wm_delay_ms >= 0) agg->agg.event_key = i;
    }
    plan_set_child(agg, 0, n);
    return agg;
}

/* DISTINCT ON (exprs): hidden key columns, then a DEDUP on them. */
static int add_distinct_on(binder_t *b, const ast_select_t *q, out_list_t *o, int **keys,
                           sl_error_t *err)
{
    b->clause = "DISTINCT ON";
    *keys = SL_NEW_ARRAY(b->pc->arena, int, q->distinct_on.n);
    for (int i = 0; i < q->distinct_on.n; i++) {
        ast_sort_t s = {.expr = q->distinct_on.items[i]};
        int col = bind_sort_item(b, &s, o, err);
        if (col < 0) return -1;
        (*keys)[i] = col;
    }
    return 0;
}

/* ---- SELECT core ---- */

static plan_node_t *bind_from_list(plan_ctx_t *pc, const ast_select_t *q, sl_error_t *err)
{
    if (q->from.n == 0) return plan_values_one_row(pc->arena, q->pos);
    plan_node_t *n = plan_bind_from_item(pc, q->from.items[0], err);
    for (int i = 1; n && i < q->from.n; i++) {
        plan_node_t *r = plan_bind_from_item(pc, q->from.items[i], err);
        if (!r) return NULL;
        n = plan_join(pc->arena, n, r, PLAN_JOIN_CROSS, q->from.items[i]->pos);
    }
    return n;
}

static plan_node_t *bind_where(plan_ctx_t *pc, plan_node_t *n, const ast_expr_t *w, sl_error_t *err)
{
    binder_t b = {.pc = pc, .ncols = n->ncols, .cols = n->cols, .clause = "WHERE", .input = n};
    exec_expr_t *pred = bind_expr(&b, w, err);
    if (!pred) return NULL;
    if (pred->type.id != EXEC_TYPE_BOOLEAN && pred->type.id != EXEC_TYPE_NULL) {
        sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                     "argument of WHERE must be type boolean, not type %s",
                     exec_type_pg_name(pred->type));
        bind_at(err, w->pos);
        return NULL;
    }
    plan_node_t *f = plan_node_new(pc->arena, LP_FILTER, n->ncols, w->pos);
    memcpy(f->cols, n->cols, sizeof *f->cols * (size_t)n->ncols);
    f->filter.pred = pred;
    plan_set_child(f, 0, n);
    return f;
}

static plan_node_t *add_filter(sl_arena_t *a, plan_node_t *n, exec_expr_t *pred, int pos)
{
    plan_node_t *f = plan_node_new(a, LP_FILTER, n->ncols, pos);
    memcpy(f->cols, n->cols, sizeof *f->cols * (size_t)n->ncols);
    f->filter.pred = pred;
    plan_set_child(f, 0, n);
    return f;
}

static int query_has_aggregates(const ast_select_t *q)
{
    if (q->group_by.n || q->having) return 1;
    for (int i = 0; i < q->items.n; i++)
        if (q->items.items[i]->expr && bind_has_aggregate(q->items.items[i]->expr)) return 1;
    return 0;
}

static plan_node_t *bind_tail(plan_ctx_t *pc, const ast_select_t *q, plan_node_t *n,
                              sl_error_t *err);

/* With GROUP BY, window calls see the groups: their keys and arguments
 * are bound over the aggregate's output, and every aggregate of the query
 * is found first (a pass over the select list, HAVING and ORDER BY whose
 * result is dropped), so that the windows' columns can follow the
 * aggregate's (w->base). */
static int bind_grouped_windows(binder_t *b, const ast_select_t *q, bind_windows_t *w,
                                sl_error_t *err)
{
    if (bind_windows_bind(b, q, w, err) < 0) return -1;
    binder_t scratch = *b;
    out_list_t o = {0};
    plan_sort_key_t *keys = NULL;
    scratch.clause = "SELECT";
    if (bind_items(&scratch, &q->items, &o, err) < 0) return -1;
    scratch.clause = "HAVING";
    if (q->having && !bind_expr(&scratch, q->having, err)) return -1;
    if (q->order_by.n && bind_order(&scratch, &q->order_by, &o, &keys, err) < 0) return -1;
    w->base = b->agg->nkeys + b->agg->naggs;
    return 0;
}

static plan_node_t *bind_simple(plan_ctx_t *pc, const ast_select_t *q, sl_error_t *err)
{
    plan_node_t *n = bind_from_list(pc, q, err);
    if (n && q->where) n = bind_where(pc, n, q->where, err);
    if (!n) return NULL;
    if (plan_select_has_srf(q) &&
        !query_has_aggregates(q)) { /* unnest(...) in the list (bind_srf.c) */
        n = plan_bind_srf_select(pc, q, n, err);
        return n ? bind_tail(pc, q, n, err) : NULL;
    }
    bind_windows_t windows = {0}; /* bind_window_rows.c */
    int nwindows = bind_windows_collect(pc->arena, q, &windows);
    binder_t b = {.pc = pc, .ncols = n->ncols, .cols = n->cols, .input = n, .windows = &windows};
    if (nwindows && !query_has_aggregates(q)) {
        if (bind_windows_bind(&b, q, &windows, err) < 0 ||
            !(n = bind_windows_run(n, &windows, q->pos, err)))
            return NULL;
        b = (binder_t){
            .pc = pc, .ncols = n->ncols, .cols = n->cols, .input = n, .windows = &windows};
    }
    bind_agg_t ag = {0};
    exec_expr_t *having = NULL;
    if (query_has_aggregates(q)) {
        if (bind_group_keys(&b, q, &n, &ag, err) < 0) return NULL;
        b.agg = &ag;
        b.allow_aggs = 1;
        if (nwindows && bind_grouped_windows(&b, q, &windows, err) < 0) return NULL;
    }
    out_list_t o = {0};
    b.clause = "SELECT";
    if (bind_items(&b, &q->items, &o, err) < 0) return NULL;
    for (int i = 0; !b.agg && i < o.n; i++)
        if (filter_windows_in(&b, &n, o.exprs[i], q->pos, err) < 0) return NULL;
    if (q->having) {
        b.clause = "HAVING";
        if (!(having = bind_expr(&b, q->having, err))) return NULL;
    }
    plan_sort_key_t *keys = NULL;
    int *dkeys = NULL;
    if (q->distinct == AST_DISTINCT_ON && add_distinct_on(&b, q, &o, &dkeys, err) < 0) return NULL;
    if (q->order_by.n && bind_order(&b, &q->order_by, &o, &keys, err) < 0) return NULL;
    if (b.agg) {
        n = build_aggregate(pc->arena, n, &ag, q->group_by.n ? q->group_by.items[0]->pos : q->pos);
        if (having) n = add_filter(pc->arena, n, having, q->having->pos);
        SL_ASSERT(!nwindows ||
                  n->ncols == windows.base); /* bind_grouped_windows found every aggregate */
        if (nwindows && !(n = bind_windows_run(n, &windows, q->pos, err))) return NULL;
    }
    n = make_project(pc->arena, n, o.exprs, o.names, o.n, q->pos);
    for (int i = 0; i < o.n; i++) n->cols[i].hidden = o.hidden[i];
    if (q->distinct == AST_DISTINCT_ALL) n = add_distinct_all(pc->arena, n);
    if (q->distinct == AST_DISTINCT_ON) {
        plan_node_t *d = plan_node_new(pc->arena, LP_DEDUP, n->ncols, q->pos);
        memcpy(d->cols, n->cols, sizeof *d->cols * (size_t)n->ncols);
        d->dedup.keys = dkeys;
        d->dedup.nkeys = q->distinct_on.n;
        d->dedup.within_watermark = q->within_watermark;
        plan_set_child(d, 0, n);
        n = d;
    }
    return add_order_limit(pc, q, n, keys, err);
}

/* ORDER BY / LIMIT / OFFSET over a node's own columns (UNION and VALUES). */
static plan_node_t *bind_tail(plan_ctx_t *pc, const ast_select_t *q, plan_node_t *n,
                              sl_error_t *err)
{
    if (!q->order_by.n && !q->limit && !q->offset) return n;
    int ncols = plan_visible_columns(n);
    out_list_t o = {0};
    for (int c = 0; c < ncols; c++)
        out_add(pc->arena, &o, exec_expr_column(pc->arena, c, n->cols[c].type, n->cols[c].name),
                n->cols[c].name, 0);
    binder_t b = {.pc = pc, .ncols = n->ncols, .cols = n->cols};
    plan_sort_key_t *keys = NULL;
    if (q->order_by.n && bind_order(&b, &q->order_by, &o, &keys, err) < 0) return NULL;
    if (o.n != ncols) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                     "ORDER BY on a UNION or VALUES result must use its output columns");
        bind_at(err, q->order_by.items[0]->pos);
        return NULL;
    }
    return add_order_limit(pc, q, n, keys, err);
}

/* ---- UNION ---- */

/* Casts the columns of n to `types` where they differ. */
static plan_node_t *coerce_columns(plan_ctx_t *pc, plan_node_t *n, const exec_type_t *types,
                                   sl_error_t *err)
{
    int nv = plan_visible_columns(n), differs = nv != n->ncols;
    for (int i = 0; i < n->ncols; i++) differs |= !exec_type_equal(n->cols[i].type, types[i]);
    if (!differs) return n;
    exec_expr_t **exprs = SL_NEW_ARRAY(pc->arena, exec_expr_t *, nv);
    const char **names = SL_NEW_ARRAY(pc->arena, const char *, nv);
    for (int i = 0; i < nv; i++) {
        exec_expr_t *c = exec_expr_column(pc->arena, i, n->cols[i].type, n->cols[i].name);
        if (!(exprs[i] = exec_expr_coerce(pc->arena, c, types[i], err))) return NULL;
        names[i] = n->cols[i].name;
    }
    return make_project(pc->arena, n, exprs, names, nv, n->pos);
}

/* The watermark delay of a UNION ALL column from its arms': an event-time
 * column when it is one in every arm. The query's watermark is one, combined
 * from all its WATERMARK nodes (sluice.multipleWatermarkPolicy), so the arms'
 * delays may differ; the union keeps the longest, which is what a
 * DISTINCT ON ... WITHIN WATERMARK above it then keeps rows for. */
static int64_t union_delay(int64_t a, int64_t b)
{
    if (a < 0 || b < 0) return -1;
    return a > b ? a : b;
}

static plan_node_t *bind_union(plan_ctx_t *pc, const ast_select_t *q, sl_error_t *err)
{
    int narms = q->arms.n;
    plan_node_t **arms = SL_NEW_ARRAY(pc->arena, plan_node_t *, narms);
    for (int i = 0; i < narms; i++)
        if (!(arms[i] = plan_bind(pc, q->arms.items[i], err))) return NULL;
    int ncols = plan_visible_columns(arms[0]);
    exec_type_t *types = SL_NEW_ARRAY(pc->arena, exec_type_t, ncols > 0 ? ncols : 1);
    for (int c = 0; c < ncols; c++) types[c] = arms[0]->cols[c].type;
    for (int i = 1; i < narms; i++) {
        if (plan_visible_columns(arms[i]) != ncols) {
            sl_error_set(err, SL_ERR_SYNTAX_ERROR,
                         "each UNION query must have the same number of columns");
            bind_at(err, q->arms.items[i]->pos);
            return NULL;
        }
        for (int c = 0; c < ncols; c++)
            if (exec_common_type(types[c], arms[i]->cols[c].type, "UNION", &types[c], err) < 0) {
                bind_at(err, q->arms.items[i]->pos);
                return NULL;
            }
    }
    plan_node_t *n = NULL;
    for (int i = 0; i < narms; i++) {
        plan_node_t *arm = coerce_columns(pc, arms[i], types, err);
        if (!arm) return NULL;
        if (!n) {
            n = arm;
            continue;
        }
        plan_node_t *u = plan_node_new(pc->arena, LP_UNION, ncols, q->arms.items[i]->pos);
        memcpy(u->cols, n->cols, sizeof *u->cols * (size_t)ncols);
        for (int c = 0; c < ncols; c++) {
            u->cols[c].qual = NULL;
            u->cols[c].wm_delay_ms = union_delay(u->cols[c].wm_delay_ms, arm->cols[c].wm_delay_ms);
        }
        plan_set_child(u, 0, n);
        plan_set_child(u, 1, arm);
        n = u;
    }
    if (!q->union_all) n = add_distinct_all(pc->arena, n);
    return bind_tail(pc, q, n, err);
}

plan_node_t *plan_bind(plan_ctx_t *pc, const ast_select_t *q, sl_error_t *err)
{
    if (q->with.n) return plan_bind_with(pc, q, err);
    switch (q->kind) {
    case AST_SELECT_SIMPLE: return bind_simple(pc, q, err);
    case AST_SELECT_VALUES: {
        plan_node_t *n = plan_bind_values(pc, q, err);
        return n ? bind_tail(pc, q, n, err) : NULL;
    }
    case AST_SELECT_UNION: return bind_union(pc, q, err);
    }
    sl_error_set(err, SL_ERR_INTERNAL_ERROR, "unknown query kind");
    return NULL;
}
