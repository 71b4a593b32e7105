/* Where a window function call (f(...) OVER (...)) may appear, decided
 * while binding, before any window is computed:
 *   - not in WHERE, GROUP BY or HAVING (42P20, PostgreSQL's words), and
 *     not inside an aggregate's argument (42803);
 *   - not over a stream (0A000): Spark's rule "Non-time-based windows are
 *     not supported on streaming DataFrames/Datasets", with the fix (a time
 *     window in GROUP BY, or dedup / a top-N per key).
 * The window functions sluice computes (bind_window_rows.c) are listed here
 * (the aggregates in bind_window_agg.c) and bound only after these checks pass. */
#include <string.h>

#include "planner/bind_from.h"
#include "planner/bind_int.h"
#include "planner/plan_const.h"

static const struct {
    const char *name;
    int min_args, max_args;
} computed[] = {
    {"row_number", 0, 0},  {"rank", 0, 0},       {"dense_rank", 0, 0}, {"percent_rank", 0, 0},
    {"cume_dist", 0, 0},   {"ntile", 1, 1},      {"lag", 1, 3},        {"lead", 1, 3},
    {"first_value", 1, 1}, {"last_value", 1, 1}, {"nth_value", 2, 2},
};

int bind_window_is_computed(const char *name, int nargs)
{
    for (size_t i = 0; i < sizeof computed / sizeof *computed; i++)
        if (!strcmp(name, computed[i].name))
            return nargs < 0 || (nargs >= computed[i].min_args && nargs <= computed[i].max_args);
    return 0;
}

int bind_window_is_ranking(const char *name)
{
    for (size_t i = 0; i < sizeof computed / sizeof *computed; i++)
        if (!strcmp(name, computed[i].name)) return computed[i].max_args == 0;
    return 0;
}

void bind_window_hint_computed(sl_error_t *err)
{
    sl_error_hint(err, "The window functions sluice computes are row_number(), rank(), "
                       "dense_rank(), percent_rank(), cume_dist(), ntile(n), lag(x [, off [, "
                       "default]]), lead(...), first_value(x), last_value(x), nth_value(x, n) "
                       "and the aggregates sum, count, avg, min and max.");
}

/* The clauses in which PostgreSQL refuses window functions. */
static int clause_refuses_windows(const char *clause)
{
    static const char *const refused[] = {"WHERE", "GROUP BY", "HAVING", "DISTINCT ON", "FILTER"};
    for (size_t i = 0; clause && i < sizeof refused / sizeof *refused; i++)
        if (!strcmp(clause, refused[i])) return 1;
    return 0;
}

static int refuse_on_stream(const ast_expr_t *call, sl_error_t *err)
{
    sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                 "window function %s() OVER (...) is not supported on a stream", call->name->name);
    sl_error_detail(err,
                    "Non-time-based windows are not supported on streaming DataFrames/Datasets "
                    "(Spark's rule): a partition of a stream never ends, so a rank or an "
                    "offset over it would never be final.");
    sl_error_hint(err, "Aggregate over a time window instead, GROUP BY window(ts, '5 minutes') "
                       "and a key; to keep one row per key use SELECT DISTINCT ON (key) ... WITHIN "
                       "WATERMARK (dedup); for a top-N per key, run the window function over the "
                       "query's result table in an ad-hoc SELECT.");
    return bind_at(err, call->pos);
}

int bind_window_check_call(const binder_t *b, const ast_expr_t *call, sl_error_t *err)
{
    if (b->clause && !strcmp(b->clause, "window")) {
        sl_error_set(err, SL_ERR_GROUPING_ERROR, "window function calls cannot be nested");
        return bind_at(err, call->pos);
    }
    if (b->clause && !strcmp(b->clause, "aggregate")) {
        sl_error_set(err, SL_ERR_GROUPING_ERROR,
                     "aggregate function calls cannot contain window function calls");
        return bind_at(err, call->pos);
    }
    if (clause_refuses_windows(b->clause)) {
        sl_error_set(err, SL_ERR_WINDOWING_ERROR, "window functions are not allowed in %s",
                     b->clause);
        return bind_at(err, call->pos);
    }
    if (b->input && b->input->streaming) return refuse_on_stream(call, err);
    return 0;
}

/* ---- WINDOW name AS (...) ---- */

/* The definition of window `name` among q's first `before` ones, or -1. */
static int named_window(const ast_select_t *q, const char *name, int before)
{
    for (int i = 0; i < before && i < q->windows.n; i++)
        if (!strcmp(q->windows.items[i]->name->name, name)) return i;
    return -1;
}

static int window_error(sl_error_t *err, int pos, const char *fmt, const char *name)
{
    sl_error_set(err, SL_ERR_WINDOWING_ERROR, fmt, name);
    return bind_at(err, pos);
}

/* w over the resolved window `base` it names, as PostgreSQL copies it:
 * base's PARTITION BY, base's ORDER BY unless w has its own (not both),
 * w's frame (base must have none). */
static int copy_window(sl_arena_t *a, const ast_window_t *w, const ast_window_t *base,
                       const ast_window_t **out, sl_error_t *err)
{
    const char *name = w->ref->name;
    if (w->partition.n)
        return window_error(err, w->ref->pos,
                            "cannot override PARTITION BY clause of window \"%s\"", name);
    if (w->order.n && base->order.n)
        return window_error(err, w->ref->pos, "cannot override ORDER BY clause of window \"%s\"",
                            name);
    if (base->frame.unit != AST_FRAME_NONE) {
        window_error(err, w->ref->pos, "cannot copy window \"%s\" because it has a frame clause",
                     name);
        sl_error_hint(err, "Omit the parentheses in this OVER clause.");
        return -1;
    }
    ast_window_t *m = SL_NEW(a, ast_window_t);
    *m = *w;
    m->ref = NULL;
    m->partition = base->partition;
    if (!w->order.n) m->order = base->order;
    *out = m;
    return 0;
}

/* w with the named window it starts from (one of q's first `before`
 * definitions) resolved. */
static int resolve_window(sl_arena_t *a, const ast_select_t *q, const ast_window_t *w, int before,
                          const ast_window_t **out, sl_error_t *err)
{
    *out = w;
    if (!w->ref) return 0;
    int i = named_window(q, w->ref->name, before);
    if (i < 0) {
        sl_error_set(err, SL_ERR_UNDEFINED_OBJECT, "window \"%s\" does not exist", w->ref->name);
        return bind_at(err, w->ref->pos);
    }
    const ast_window_t *base;
    if (resolve_window(a, q, q->windows.items[i]->window, i, &base, err) < 0) return -1;
    if (w->ref_only) {
        *out = base;
        return 0;
    }
    return copy_window(a, w, base, out, err);
}

int bind_window_resolve(sl_arena_t *a, const ast_select_t *q, const ast_window_t *w,
                        const ast_window_t **out, sl_error_t *err)
{
    return resolve_window(a, q, w, q->windows.n, out, err);
}

/* Offset of one frame bound: a constant, not negative (22013). */
static int bound_offset(plan_ctx_t *pc, const ast_frame_t *f, const ast_frame_bound_t *b,
                        int64_t *out, sl_error_t *err)
{
    *out = 0;
    if (!b->offset) return 0;
    if (f->unit == AST_FRAME_RANGE) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                     "RANGE with offset PRECEDING/FOLLOWING is not supported");
        sl_error_hint(err, "Use ROWS BETWEEN n PRECEDING AND ..., or RANGE with UNBOUNDED and "
                           "CURRENT ROW bounds.");
        return bind_at(err, f->pos);
    }
    exec_expr_t *x = plan_bind_constant(pc, b->offset, err);
    exec_value_t v;
    if (!x || plan_eval_constant(pc->arena, x, exec_type_of(EXEC_TYPE_BIGINT), &v, err) < 0)
        return -1;
    if (v.is_null || v.u.i64 < 0) {
        sl_error_set(err, SL_ERR_INVALID_PRECEDING_OR_FOLLOWING_SIZE,
                     v.is_null ? "frame %s offset must not be null"
                               : "frame %s offset must not be negative",
                     b == &f->start ? "starting" : "ending");
        return bind_at(err, b->offset->pos);
    }
    *out = v.u.i64;
    return 0;
}

/* PostgreSQL's message for bounds that cannot make a frame, or NULL. */
static const char *bad_bounds(const ast_frame_t *f)
{
    ast_bound_kind_t s = f->start.kind, e = f->end.kind;
    if (s == AST_BOUND_UNBOUNDED_FOLLOWING) return "frame start cannot be UNBOUNDED FOLLOWING";
    if (e == AST_BOUND_UNBOUNDED_PRECEDING) return "frame end cannot be UNBOUNDED PRECEDING";
    if (s == AST_BOUND_CURRENT_ROW && e == AST_BOUND_PRECEDING)
        return "frame starting from current row cannot have preceding rows";
    if (s == AST_BOUND_FOLLOWING && e == AST_BOUND_PRECEDING)
        return "frame starting from following row cannot have preceding rows";
    if (s == AST_BOUND_FOLLOWING && e == AST_BOUND_CURRENT_ROW)
        return "frame starting from following row cannot end with current row";
    return NULL;
}

int bind_window_frame_offsets(plan_ctx_t *pc, const ast_frame_t *f, int64_t off[2], sl_error_t *err)
{
    off[0] = off[1] = 0;
    if (f->unit == AST_FRAME_NONE) return 0;
    const char *bad = bad_bounds(f);
    if (bad) {
        sl_error_set(err, SL_ERR_WINDOWING_ERROR, "%s", bad);
        return bind_at(err, f->pos);
    }
    if (bound_offset(pc, f, &f->start, &off[0], err) < 0) return -1;
    return bound_offset(pc, f, &f->end, &off[1], err);
}

/* The row a bound names for row r: ROWS counts rows, RANGE's CURRENT ROW
 * is the peer group's first row (start) or last row (end). */
static int64_t bound_row(const ast_frame_t *f, const ast_frame_bound_t *b, int64_t off, int is_end,
                         int64_t r, int64_t gfirst, int64_t glast, int64_t n)
{
    switch (b->kind) {
    case AST_BOUND_UNBOUNDED_PRECEDING: return 0;
    case AST_BOUND_PRECEDING: return r - off;
    case AST_BOUND_FOLLOWING: return r + off;
    case AST_BOUND_UNBOUNDED_FOLLOWING: return n - 1;
    case AST_BOUND_CURRENT_ROW: break;
    }
    if (f->unit == AST_FRAME_ROWS) return r;
    return is_end ? glast : gfirst;
}

void bind_window_frame_rows(const ast_frame_t *f, const int64_t off[2], int64_t r, int64_t gfirst,
                            int64_t glast, int64_t n, int64_t *first, int64_t *last)
{
    if (f->unit == AST_FRAME_NONE) { /* RANGE UNBOUNDED PRECEDING .. CURRENT ROW */
        *first = 0;
        *last = glast;
        return;
    }
    int64_t a = bound_row(f, &f->start, off[0], 0, r, gfirst, glast, n);
    int64_t b = bound_row(f, &f->end, off[1], 1, r, gfirst, glast, n);
    *first = a < 0 ? 0 : a;
    *last = b > n - 1 ? n - 1 : b;
}
