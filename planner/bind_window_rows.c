/* Window function calls anywhere in a select list or its ORDER BY
 * (`x - lag(x) OVER (...)`, `rank() OVER w + 1`), computed over the rows
 * of the FROM (after WHERE), or with GROUP BY over the groups (after
 * HAVING), when the statement is bound, as bind_srf.c computes
 * set-returning functions:
 *   1. every call is collected from the AST (not inside subqueries, not
 *      inside another call's arguments: binding those refuses a nested
 *      call, 42803);
 *   2. every call's partition keys, order keys and arguments are bound
 *      (bind_windows_bind: over the FROM's columns, or the aggregate's
 *      output), then one projection of the input computes them beside the
 *      input columns; it runs once (bind_windows_run, bind_input_rows, at
 *      most BIND_WINDOW_MAX_ROWS rows);
 *   3. per call, the rows are sorted by partition then order keys and each
 *      partition is numbered (ranking), read (bind_window_values.c) or
 *      aggregated over its frames (bind_window_agg.c);
 *   4. the result is a VALUES node of the input columns and one hidden
 *      column per call, over which the select list and ORDER BY are bound:
 *      a call binds to its column (bind_window_column).
 * The frames: bind_window.c. */
#include <stdlib.h>
#include <string.h>

#include "exec/agg.h"
#include "planner/bind_from.h"
#include "planner/bind_int.h"

#define BIND_WINDOW_MAX_ROWS 2000000 /* input rows a window is computed over */

/* ---- 1. the calls ---- */

static void add_call(sl_arena_t *a, bind_windows_t *w, const ast_expr_t *call)
{
    const ast_expr_t **calls = SL_NEW_ARRAY(a, const ast_expr_t *, w->n + 1);
    if (w->n) memcpy(calls, w->calls, sizeof *calls * (size_t)w->n);
    calls[w->n++] = call;
    w->calls = calls;
}

static void collect(sl_arena_t *a, const ast_expr_t *e, bind_windows_t *w)
{
    if (!e) return;
    if (e->kind == AST_EXPR_FUNC && e->over) {
        add_call(a, w, e);
        return;
    }
    for (int i = 0; i < e->args.n; i++) collect(a, e->args.items[i], w);
    for (int i = 0; i < e->list.n; i++) collect(a, e->list.items[i], w);
    for (int i = 0; i < e->whens.n; i++) {
        collect(a, e->whens.items[i]->cond, w);
        collect(a, e->whens.items[i]->result, w);
    }
    const ast_expr_t *kids[] = {e->arg, e->left, e->right,   e->else_expr,
                                e->lo,  e->hi,   e->pattern, e->escape};
    for (size_t i = 0; i < sizeof kids / sizeof *kids; i++) collect(a, kids[i], w);
}

int bind_windows_collect(sl_arena_t *a, const ast_select_t *q, bind_windows_t *w)
{
    memset(w, 0, sizeof *w);
    for (int i = 0; i < q->items.n; i++) collect(a, q->items.items[i]->expr, w);
    for (int i = 0; i < q->order_by.n; i++) collect(a, q->order_by.items[i]->expr, w);
    return w->n;
}

/* ---- 2. the projection of keys and arguments ---- */

/* What one call computes: its type, its aggregate, its values per row. */
typedef struct window_call {
    const ast_expr_t *call;
    const ast_window_t *w;
    exec_type_t type;
    exec_agg_t agg; /* kind 0 unless an aggregate */
    int first;      /* column of its first key in the projected rows, after the input's */
} window_call_t;

struct window_rows {
    plan_ctx_t *pc;
    int ninput, ncalls;
    window_call_t *calls;
    exec_expr_t **exprs; /* every call's keys and args, over the input */
    int nexprs;
    exec_value_t **out;  /* per input row: input values, then one value per call */
    exec_value_t **keys; /* per input row: the projected values */
    int64_t n;
};
typedef struct window_rows window_rows_t;

int bind_window_column(const binder_t *b, const ast_expr_t *call, exec_expr_t **out)
{
    const bind_windows_t *w = b->windows;
    for (int i = 0; w && i < w->n; i++)
        if (w->calls[i] == call) {
            *out = exec_expr_column(b->pc->arena, w->base + i, w->rows->calls[i].type,
                                    call->name->name);
            return 1;
        }
    return 0;
}

static void add_expr(window_rows_t *s, exec_expr_t *x)
{
    exec_expr_t **exprs = SL_NEW_ARRAY(s->pc->arena, exec_expr_t *, s->nexprs + 1);
    if (s->nexprs) memcpy(exprs, s->exprs, sizeof *exprs * (size_t)s->nexprs);
    exprs[s->nexprs++] = x;
    s->exprs = exprs;
}

/* 0 when call may be computed: a known function, no DISTINCT. */
static int check_call(const binder_t *b, const ast_expr_t *call, sl_error_t *err)
{
    const char *n = call->name->name;
    if (bind_window_check_call(b, call, err) < 0) return -1;
    if (call->distinct) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                     "DISTINCT is not implemented for window functions");
        return bind_at(err, call->pos);
    }
    int aggregate = bind_window_is_aggregate(n, call->args.n, call->star);
    if (call->filter && !aggregate) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                     "FILTER is not implemented for non-aggregate window functions");
        return bind_at(err, call->pos);
    }
    if (aggregate || (!call->star && bind_window_is_computed(n, call->args.n))) return 0;
    sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED, "window function %s is not supported", n);
    bind_window_hint_computed(err);
    return bind_at(err, call->pos);
}

/* The type argument j of a call is computed as: lag's and lead's offset
 * and ntile's count bigint, lag's and lead's default x's type. */
static exec_expr_t *coerce_arg(sl_arena_t *a, const window_call_t *c, int j, exec_expr_t *x,
                               exec_type_t x0, sl_error_t *err)
{
    const char *name = c->call->name->name;
    int ntile = !strcmp(name, "ntile");
    if (bind_window_is_aggregate(name, c->call->args.n, 0)) return x;
    if (j == 1 || ntile) return exec_expr_coerce(a, x, exec_type_of(EXEC_TYPE_BIGINT), err);
    if (j == 2) return exec_expr_coerce(a, x, x0, err);
    if (x->type.id == EXEC_TYPE_NULL)
        return exec_expr_coerce(a, x, exec_type_of(EXEC_TYPE_STRING), err);
    return x;
}

/* The call's result type: ranking bigint (percent_rank, cume_dist double
 * precision), ntile bigint, aggregates as in GROUP BY, the others x's. */
static int call_type(window_call_t *c, exec_type_t x0, sl_error_t *err)
{
    const char *n = c->call->name->name;
    if (c->call->star || bind_window_is_aggregate(n, c->call->args.n, 0)) {
        int star = c->call->star && !c->call->filter; /* count(*) FILTER counts its 1s */
        if (exec_agg_lookup(n, false, star, x0, NULL, &c->agg, err) < 0)
            return bind_at(err, c->call->pos);
        c->type = c->agg.result_type;
    } else if (bind_window_is_ranking(n) || !strcmp(n, "ntile")) {
        int dbl = !strcmp(n, "percent_rank") || !strcmp(n, "cume_dist");
        c->type = exec_type_of(dbl ? EXEC_TYPE_DOUBLE : EXEC_TYPE_BIGINT);
    } else {
        c->type = x0;
    }
    return 0;
}

/* Binds one call's keys and arguments into the projection. */
static int bind_call(window_rows_t *s, binder_t *b, window_call_t *c, sl_error_t *err)
{
    const ast_window_t *w = c->w;
    c->first = s->nexprs;
    b->clause = "window";
    for (int j = 0; j < w->partition.n + w->order.n; j++) {
        const ast_expr_t *e =
            j < w->partition.n ? w->partition.items[j] : w->order.items[j - w->partition.n]->expr;
        exec_expr_t *x = bind_expr(b, e, err);
        if (!x) return -1;
        add_expr(s, x);
    }
    exec_type_t x0 = exec_type_of(EXEC_TYPE_NULL);
    for (int j = 0; j < c->call->args.n; j++) {
        exec_expr_t *x = bind_expr(b, c->call->args.items[j], err);
        if (!x) return -1;
        if (!(x = coerce_arg(s->pc->arena, c, j, x, x0, err)))
            return bind_at(err, c->call->args.items[j]->pos);
        if (j == 0 && c->call->filter && !(x = bind_filter_arg(b, c->call, x, err))) return -1;
        if (j == 0) x0 = x->type;
        add_expr(s, x);
    }
    if (c->call->star &&
        c->call->filter) { /* count(*) FILTER (WHERE c): count(CASE WHEN c THEN 1 END) */
        exec_expr_t *x = bind_filter_arg(b, c->call, NULL, err);
        if (!x) return -1;
        x0 = x->type;
        add_expr(s, x);
    }
    return call_type(c, x0, err);
}

/* Runs the projection over the input: s->keys, and s->out's input part. */
static int project_rows(window_rows_t *s, plan_node_t *input, sl_error_t *err)
{
    sl_arena_t *a = s->pc->arena;
    int n = s->ninput + s->nexprs;
    exec_expr_t **exprs = SL_NEW_ARRAY(a, exec_expr_t *, n);
    const char **names = SL_NEW_ARRAY(a, const char *, n);
    for (int i = 0; i < n; i++) {
        names[i] = sl_printf(a, "w%d", i);
        exprs[i] = i >= s->ninput
                       ? s->exprs[i - s->ninput]
                       : exec_expr_column(a, i, input->cols[i].type, input->cols[i].name);
    }
    plan_node_t *p = plan_project(a, input, exprs, names, n);
    binder_t pb = {.pc = s->pc, .ncols = p->ncols, .cols = p->cols, .input = p};
    exec_value_t *rows = NULL;
    if (bind_input_rows(&pb, BIND_WINDOW_MAX_ROWS, &rows, &s->n, err) < 0) return -1;
    s->keys = SL_NEW_ARRAY(a, exec_value_t *, s->n > 0 ? s->n : 1);
    s->out = SL_NEW_ARRAY(a, exec_value_t *, s->n > 0 ? s->n : 1);
    for (int64_t r = 0; r < s->n; r++) {
        s->keys[r] = rows[r].u.fields;
        s->out[r] = SL_NEW_ARRAY(a, exec_value_t, s->ninput + s->ncalls);
        memcpy(s->out[r], rows[r].u.fields, sizeof(exec_value_t) * (size_t)s->ninput);
    }
    return 0;
}

/* ---- 3. sorting and numbering ---- */

typedef struct window_sort {
    const window_call_t *c;
    exec_value_t **keys;
    int ninput; /* the input's columns before the keys in each row */
} window_sort_t;

static int compare_key(const exec_value_t *x, const exec_value_t *y, int desc, ast_nulls_t nulls)
{
    if (x->is_null || y->is_null) {
        if (x->is_null && y->is_null) return 0;
        int nulls_first = nulls == AST_NULLS_FIRST || (nulls == AST_NULLS_DEFAULT && desc);
        return (x->is_null ? -1 : 1) * (nulls_first ? 1 : -1);
    }
    int c = exec_value_compare(x, y);
    return desc ? -c : c;
}

static exec_value_t *row_keys(const window_sort_t *ws, int64_t r)
{
    return ws->keys[r] + ws->ninput + ws->c->first;
}

static int compare_rows(const void *pa, const void *pb, void *arg)
{
    const window_sort_t *ws = arg;
    int64_t ra = *(const int64_t *)pa, rb = *(const int64_t *)pb;
    const exec_value_t *x = row_keys(ws, ra), *y = row_keys(ws, rb);
    const ast_window_t *w = ws->c->w;
    int np = w->partition.n;
    for (int j = 0; j < np + w->order.n; j++) {
        const ast_sort_t *o = j < np ? NULL : w->order.items[j - np];
        int c = compare_key(&x[j], &y[j], o && o->desc, o ? o->nulls : AST_NULLS_DEFAULT);
        if (c) return c;
    }
    return ra < rb ? -1 : 1; /* stable */
}

/* True when rows k and prev agree on keys from..to-1. */
static int same_keys(const exec_value_t *k, const exec_value_t *prev, int from, int to)
{
    for (int j = from; j < to; j++)
        if (compare_key(&k[j], &prev[j], 0, AST_NULLS_DEFAULT)) return 0;
    return 1;
}

/* End (exclusive) of the run of sorted rows from `from` equal on the
 * partition keys (peers = 0) or on partition and order keys (peers = 1). */
static int64_t run_end(const window_sort_t *ws, const int64_t *idx, int64_t from, int64_t n,
                       int peers)
{
    const ast_window_t *w = ws->c->w;
    int lo = peers ? w->partition.n : 0, hi = w->partition.n + (peers ? w->order.n : 0);
    int64_t e = from + 1;
    while (e < n && same_keys(row_keys(ws, idx[e]), row_keys(ws, idx[from]), lo, hi)) e++;
    return e;
}

/* The value of ranking function `name` for a row of a partition of n rows:
 * its row number, its peer group's first row number (rank) and ordinal
 * (dense_rank) and the row number of the group's last row (for cume_dist),
 * all from 1. */
typedef struct rank_pos {
    int64_t n, row, first, group, last;
} rank_pos_t;

static exec_value_t ranking_value(const char *name, const rank_pos_t *p)
{
    if (!strcmp(name, "rank")) return exec_value_bigint(p->first);
    if (!strcmp(name, "dense_rank")) return exec_value_bigint(p->group);
    if (!strcmp(name, "percent_rank"))
        return exec_value_double(p->n > 1 ? (double)(p->first - 1) / (double)(p->n - 1) : 0.0);
    if (!strcmp(name, "cume_dist")) return exec_value_double((double)p->last / (double)p->n);
    return exec_value_bigint(p->row);
}

/* The sorted rows [start, end) of a partition, keys first. */
static bind_window_part_t partition_rows(const window_rows_t *s, const window_sort_t *ws,
                                         const int64_t *idx, int64_t start, int64_t end)
{
    exec_value_t **rows = SL_NEW_ARRAY(s->pc->arena, exec_value_t *, end - start);
    for (int64_t r = start; r < end; r++) rows[r - start] = row_keys(ws, idx[r]);
    const ast_window_t *w = ws->c->w;
    return (bind_window_part_t){rows, end - start, w->partition.n + w->order.n,
                                ws->c->call->args.n};
}

/* Every row's frame in a partition [start, end) of sorted rows. */
static void partition_frames(const window_sort_t *ws, const int64_t *idx, int64_t start,
                             int64_t end, const int64_t off[2], int64_t *first, int64_t *last)
{
    for (int64_t g = start; g < end;) {
        int64_t gend = run_end(ws, idx, g, end, 1);
        for (int64_t r = g; r < gend; r++)
            bind_window_frame_rows(&ws->c->w->frame, off, r - start, g - start, gend - start - 1,
                                   end - start, &first[r - start], &last[r - start]);
        g = gend;
    }
}

/* Aggregates the frames of one partition [start, end) into column col. */
static int aggregate_partition(window_rows_t *s, int col, const window_sort_t *ws,
                               const int64_t *idx, int64_t start, int64_t end, const int64_t off[2],
                               sl_error_t *err)
{
    sl_arena_t *a = s->pc->arena;
    int64_t n = end - start;
    int64_t *first = SL_NEW_ARRAY(a, int64_t, n), *last = SL_NEW_ARRAY(a, int64_t, n);
    partition_frames(ws, idx, start, end, off, first, last);
    bind_window_part_t part = partition_rows(s, ws, idx, start, end);
    exec_value_t *v = SL_NEW_ARRAY(a, exec_value_t, n);
    if (bind_window_agg_values(a, &ws->c->agg, &part, first, last, v, err) < 0)
        return bind_at(err, ws->c->call->pos);
    for (int64_t r = start; r < end; r++) s->out[idx[r]][col] = v[r - start];
    return 0;
}

/* Numbers or reads the sorted rows of one partition [start, end) into column col. */
static int number_partition(window_rows_t *s, int col, const window_sort_t *ws, const int64_t *idx,
                            int64_t start, int64_t end, const int64_t off[2], sl_error_t *err)
{
    const window_call_t *c = ws->c;
    if (c->agg.kind) return aggregate_partition(s, col, ws, idx, start, end, off, err);
    const char *name = c->call->name->name;
    int ranking = bind_window_is_ranking(name);
    bind_window_part_t part = partition_rows(s, ws, idx, start, end);
    rank_pos_t p = {.n = end - start};
    for (int64_t g = start; g < end;) {
        int64_t gend = run_end(ws, idx, g, end, 1);
        p.first = g - start + 1;
        p.group++;
        p.last = gend - start;
        for (int64_t r = g; r < gend; r++) {
            p.row = r - start + 1;
            exec_value_t v = exec_value_null(c->type);
            bind_window_frame_rows(&c->w->frame, off, r - start, g - start, gend - start - 1,
                                   end - start, &part.frame_first, &part.frame_last);
            if (ranking) v = ranking_value(name, &p);
            else if (bind_window_value(name, &part, r - start, &v, err) < 0)
                return bind_at(err, c->call->pos);
            s->out[idx[r]][col] = v;
        }
        g = gend;
    }
    return 0;
}

/* Sorts the rows by call i's partition and order keys and computes each
 * partition. */
static int compute_call(window_rows_t *s, int i, sl_error_t *err)
{
    int64_t *idx = SL_NEW_ARRAY(s->pc->arena, int64_t, s->n > 0 ? s->n : 1);
    for (int64_t r = 0; r < s->n; r++) idx[r] = r;
    window_sort_t ws = {&s->calls[i], s->keys, s->ninput};
    int64_t off[2];
    if (bind_window_frame_offsets(s->pc, &ws.c->w->frame, off, err) < 0) return -1;
    qsort_r(idx, (size_t)s->n, sizeof *idx, compare_rows, &ws);
    for (int64_t start = 0; start < s->n;) {
        int64_t end = run_end(&ws, idx, start, s->n, 0);
        if (number_partition(s, s->ninput + i, &ws, idx, start, end, off, err) < 0) return -1;
        start = end;
    }
    return 0;
}

/* ---- 4. the node ---- */

static plan_node_t *values_node(const window_rows_t *s, const plan_node_t *input, int pos)
{
    plan_node_t *v = plan_node_new(s->pc->arena, LP_VALUES, s->ninput + s->ncalls, pos);
    memcpy(v->cols, input->cols, sizeof *v->cols * (size_t)s->ninput);
    for (int i = 0; i < s->ncalls; i++)
        v->cols[s->ninput + i] = (plan_col_t){.name = s->calls[i].call->name->name,
                                              .type = s->calls[i].type,
                                              .wm_delay_ms = -1,
                                              .hidden = 1};
    v->values.nrows = (int)s->n;
    v->values.rows = s->n ? s->out : SL_NEW_ARRAY(s->pc->arena, exec_value_t *, 1);
    return v;
}

int bind_windows_bind(const binder_t *b, const ast_select_t *q, bind_windows_t *w, sl_error_t *err)
{
    sl_arena_t *a = b->pc->arena;
    window_rows_t *s = SL_NEW(a, window_rows_t);
    *s = (window_rows_t){.pc = b->pc, .ncalls = w->n};
    s->calls = SL_NEW_ARRAY(a, window_call_t, w->n);
    binder_t kb = *b;
    kb.clause = "SELECT";
    for (int i = 0; i < w->n; i++)
        if (check_call(&kb, w->calls[i], err) < 0) return -1;
    for (int i = 0; i < w->n; i++) {
        s->calls[i] = (window_call_t){.call = w->calls[i]};
        if (bind_window_resolve(a, q, w->calls[i]->over, &s->calls[i].w, err) < 0 ||
            bind_call(s, &kb, &s->calls[i], err) < 0)
            return -1;
    }
    w->rows = s;
    return 0;
}

plan_node_t *bind_windows_run(plan_node_t *input, bind_windows_t *w, int pos, sl_error_t *err)
{
    window_rows_t *s = w->rows;
    s->ninput = input->ncols;
    if (project_rows(s, input, err) < 0) return NULL;
    for (int i = 0; i < w->n; i++)
        if (compute_call(s, i, err) < 0) return NULL;
    w->base = input->ncols;
    return values_node(s, input, pos);
}
