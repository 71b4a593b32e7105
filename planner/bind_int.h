/* Internals of the binder shared by its files: the binder state, GROUP BY
 * keys and collected aggregate calls. */
#ifndef SL_BIND_INT_H
#define SL_BIND_INT_H

#include "planner/plan.h"

/* A GROUP BY key: the expression over the aggregate's input, and its text
 * for matching select-list expressions against it. */
typedef struct bind_key {
    exec_expr_t *expr;
    const char *sig;     /* canonical form (bind_expr_sig) */
    const char *name;    /* output column name ("window" for window(...),
                             "session_window" for session_window(...)) */
    int64_t wm_delay_ms; /* >= 0 when an event-time key (column or window of one) */
    int is_window;       /* a window struct (window(...), session_window(...)) */
    int is_session;      /* session_window(...): sessions are merged per other key */
} bind_key_t;

/* Aggregate context: expressions are bound over the aggregate's output
 * (keys, then one column per distinct aggregate call). */
typedef struct bind_agg {
    int nkeys;
    bind_key_t *keys;
    int naggs, cap;
    plan_agg_t *aggs;
    exec_expr_t **args; /* per aggregate: its argument over the input, or NULL */
    const char **texts; /* per aggregate: canonical form, for reuse of equal calls */
} bind_agg_t;

typedef struct binder {
    plan_ctx_t *pc;
    int ncols;
    const plan_col_t *cols; /* input columns */
    bind_agg_t *agg;        /* set while binding over an aggregate's output */
    const char *clause;     /* "WHERE", "GROUP BY", ... (aggregates refused when !allow_aggs) */
    int allow_aggs;
    plan_node_t *input;                 /* the node whose rows `cols` describe (WHERE and the select
                                 list of a simple select), for correlated subqueries; or NULL */
    const struct bind_windows *windows; /* window calls computed into cols, or NULL */
} binder_t;

/* A WITH query in scope; `prev` is the scope its own body sees (the WITH
 * queries before it, and enclosing ones), as WITH is not recursive. */
typedef struct plan_cte {
    const ast_cte_t *def;
    const struct plan_cte *prev;
    const struct plan_scope *outer; /* pc->outer where it was defined */
    int *used;                      /* set when referenced (arena int) */
} plan_cte_t;

/* The input columns of the queries enclosing a subquery, innermost first:
 * a name that resolves only there makes the subquery correlated. */
typedef struct plan_scope {
    int ncols;
    const plan_col_t *cols;
    const struct plan_scope *up;
    /* Binding a correlated subquery for one row of the enclosing query
     * (bind_correlated.c): the row's values, which references to these
     * columns become, and the columns referenced (set here). NULL otherwise. */
    const exec_value_t *values;
    uint8_t *used;
} plan_scope_t;

/* The result of a subquery already run (a subquery may be bound twice, as
 * a GROUP BY match is tried first), by its AST node. */
typedef struct plan_subq_memo {
    const ast_select_t *q;
    exec_type_t type; /* its first column's type */
    int64_t nrows;
    exec_value_t *values; /* the first column of every row */
    struct plan_subq_memo *next;
} plan_subq_memo_t;

exec_expr_t *bind_expr(binder_t *b, const ast_expr_t *e, sl_error_t *err);
/* (SELECT ...), EXISTS (SELECT ...) and x [NOT] IN (SELECT ...): uncorrelated
 * subqueries, run once at bind time and replaced by constants
 * (bind_subquery.c). */
exec_expr_t *bind_subquery_expr(binder_t *b, const ast_expr_t *e, sl_error_t *err);
/* The text form of an array of n values ({a,"b c",NULL}), as a constant
 * STRING: ARRAY(SELECT ...)'s value. */
exec_expr_t *bind_array_value(sl_arena_t *a, const exec_value_t *v, int64_t n);
/* 0A000 naming the column when `e` (a column reference that did not
 * resolve) names a column of an enclosing query; else 0. */
int bind_check_correlated(const binder_t *b, const ast_expr_t *e, sl_error_t *err);
/* A reference to a column of an enclosing query being bound for one of
 * its rows (bind_correlated.c): that row's value as a constant; NULL when
 * `e` names no such column. */
exec_expr_t *bind_outer_value(const binder_t *b, const ast_expr_t *e);
/* A correlated subquery expression (scalar, EXISTS or IN) of a binder with
 * an input: run for every distinct value of the outer columns it reads,
 * then a CASE over those values. Returns 0 with *out NULL when the
 * subquery is not correlated. */
int bind_correlated(binder_t *b, const ast_expr_t *e, exec_expr_t **out, sl_error_t *err);
/* The most rows of an enclosing input the binder computes a correlated
 * subquery for (each distinct outer value binds and runs it once). */
#define BIND_CORRELATED_MAX_ROWS 1000
/* Every row of b->input as a STRUCT of its columns (run now, at most
 * `max`: 0A000 beyond). */
int bind_input_rows(binder_t *b, int64_t max, exec_value_t **rows, int64_t *n, sl_error_t *err);
/* The argument of aggregate call e with a FILTER (WHERE c): CASE WHEN c
 * THEN arg END, or CASE WHEN c THEN 1 END for count(*) (arg NULL); NULL
 * with 42804 when c is not boolean (bind_expr.c). */
exec_expr_t *bind_filter_arg(binder_t *b, const ast_expr_t *e, exec_expr_t *arg, sl_error_t *err);
/* True when the AST contains an aggregate call (outside nested selects;
 * an aggregate OVER (...) is a window function, not one). */
int bind_has_aggregate(const ast_expr_t *e);
/* The output name PostgreSQL gives an unaliased select item. */
const char *bind_default_name(sl_arena_t *a, const ast_expr_t *e);
/* A select item's name when it has no alias (bind_names.c): Spark's for an
 * aggregate call when pc->spark_names (sum(amount), count(1)), else
 * bind_default_name's. */
const char *bind_item_name(const binder_t *b, const ast_expr_t *e);
/* Text of a bound expression (for names and EXPLAIN). */
const char *bind_expr_text(sl_arena_t *a, const exec_expr_t *e);
/* Canonical form of a bound expression: equal for trees that compute the
 * same value from the same columns (for matching keys and repeated calls). */
const char *bind_expr_sig(sl_arena_t *a, const exec_expr_t *e);
/* Sets err->position to the node's position when unset; returns -1. */
int bind_at(sl_error_t *err, int pos);
/* 0 when a window function call may be bound in b's clause and over b's
 * input; else -1 with 42P20 (WHERE, GROUP BY, HAVING), 42803 (inside an
 * aggregate) or 0A000 (over a stream) at the call (bind_window.c). */
int bind_window_check_call(const binder_t *b, const ast_expr_t *call, sl_error_t *err);
/* True for the window functions bind_window_rows.c computes called with n
 * arguments (bind_window.c). */
int bind_window_is_computed(const char *name, int nargs);
/* True for the ranking ones (no arguments, from row positions only). */
int bind_window_is_ranking(const char *name);
/* The sorted rows of one partition for a window function reading other
 * rows: each row its keys, then from argbase the call's nargs arguments. */
typedef struct bind_window_part {
    exec_value_t *const *rows;
    int64_t n;
    int argbase, nargs;
    int64_t frame_first,
        frame_last; /* the current row's frame (inclusive; empty if first > last) */
} bind_window_part_t;
/* *out = the value of window function `name` on row r of p (*out left as
 * is for NULL); 0, or -1 with 2201G / 22016 for a bad argument
 * (bind_window_values.c). */
int bind_window_value(const char *name, const bind_window_part_t *p, int64_t r, exec_value_t *out,
                      sl_error_t *err);
/* A window's frame offsets, checked: 0, or -1 with 42P20 (a start of
 * UNBOUNDED FOLLOWING, an end of UNBOUNDED PRECEDING, an end before the
 * start: CURRENT ROW or n FOLLOWING to n PRECEDING, n FOLLOWING to
 * CURRENT ROW), 0A000 (RANGE with
 * an offset) or 22013 (a negative or NULL offset) (bind_window.c). */
int bind_window_frame_offsets(plan_ctx_t *pc, const ast_frame_t *f, int64_t off[2],
                              sl_error_t *err);
/* The frame of row r (0-based) of a partition of n rows whose peer group
 * is rows gfirst..glast: rows *first..*last, clamped to the partition. */
void bind_window_frame_rows(const ast_frame_t *f, const int64_t off[2], int64_t r, int64_t gfirst,
                            int64_t glast, int64_t n, int64_t *first, int64_t *last);
/* True for the aggregate window functions: sum, count, avg, min, max of
 * one argument, and count(*) (bind_window_agg.c). */
int bind_window_is_aggregate(const char *name, int nargs, int star);
struct exec_agg;
/* out[r] = aggregate f over rows first[r]..last[r] of p (argument 0 of
 * each), for every row r of p; 0, or -1 with 22003 on overflow
 * (bind_window_agg.c). */
int bind_window_agg_values(sl_arena_t *a, const struct exec_agg *f, const bind_window_part_t *p,
                           const int64_t *first, const int64_t *last, exec_value_t *out,
                           sl_error_t *err);
/* The window function calls of a select list and its ORDER BY, and the
 * first of the columns their values are computed into. */
typedef struct bind_windows {
    int n;
    const ast_expr_t **calls;
    int base;
    struct window_rows *rows; /* what bind_windows_bind bound (bind_window_rows.c) */
} bind_windows_t;
/* Collects q's window calls into *w; their number (bind_window_rows.c). */
int bind_windows_collect(sl_arena_t *a, const ast_select_t *q, bind_windows_t *w);
/* Binds every call of w, its partition and order keys and its arguments,
 * with b (over the rows the windows will see: the FROM's, or the groups'
 * when b->agg is set); 0, or -1 with the call's error (42803 nested, 0A000
 * on a stream or not computed, 42704 / 42P20 named windows, 42P20 / 22013
 * frames). */
int bind_windows_bind(const binder_t *b, const ast_select_t *q, bind_windows_t *w, sl_error_t *err);
/* The rows of input (those w was bound over) with one hidden column more
 * per call of w, its value (w->base = input->ncols); NULL with 2201G /
 * 22016 for bad arguments, 0A000 over more than 2,000,000 rows. */
plan_node_t *bind_windows_run(plan_node_t *input, bind_windows_t *w, int pos, sl_error_t *err);
/* *out = window w with the WINDOW clause's named window it starts from
 * (OVER w, OVER (w ORDER BY ...)) resolved; 0, or -1 with 42704 (no such
 * window) or 42P20 (PARTITION BY or ORDER BY overridden, a frame copied),
 * PostgreSQL's messages (bind_window.c). */
int bind_window_resolve(sl_arena_t *a, const ast_select_t *q, const ast_window_t *w,
                        const ast_window_t **out, sl_error_t *err);
/* 1 and *out = the column of b's input holding call's value, when b's
 * input has computed it; else 0. */
int bind_window_column(const binder_t *b, const ast_expr_t *call, exec_expr_t **out);
/* Sets err's hint to the list of the window functions sluice computes. */
void bind_window_hint_computed(sl_error_t *err);
/* Result type of an aggregate call; 42883 with a hint when the argument type is not accepted. */
int bind_agg_type(const char *func, int distinct, int star, exec_type_t arg, exec_type_t *out,
                  sl_error_t *err);
/* current_setting(name [, missing_ok]) and set_config(name, value,
 * is_local) (bind_settings.c): true for those names. */
int bind_is_settings_call(const char *name);
/* The call evaluated now through pc->settings, as a text constant. */
exec_expr_t *bind_settings_call(plan_ctx_t *pc, const ast_expr_t *e, exec_expr_t *const *args,
                                int n, sl_error_t *err);

#endif
