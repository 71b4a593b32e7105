/* The logical plan: what a SELECT means once names and types are resolved
 * (the binder's output), before it is made incremental or physical. Nodes
 * are read-only once built and live in the plan's arena; EXPLAIN, the
 * streaming checks and the physical planner all read the same tree. */
#ifndef SL_PLAN_H
#define SL_PLAN_H

#include <stdint.h>

#include "common/arena.h"
#include "common/sl_error.h"
#include "exec/expr.h"
#include "parser/ast.h"
#include "planner/relation.h"

typedef enum {
    LP_SCAN = 1,  /* a relation: stream, static table or memory sink */
    LP_VALUES,    /* constant rows (VALUES, SELECT without FROM) */
    LP_WATERMARK, /* marks an event-time column with a delay (Spark's withWatermark) */
    LP_FILTER,    /* rows where pred is true */
    LP_PROJECT,   /* one column per expression */
    LP_WINDOW,    /* sliding window(ts, size, slide): one row per window, appends the window */
    LP_AGGREGATE, /* group by key columns, aggregate calls; out = keys then results */
    LP_JOIN,      /* left ++ right columns */
    LP_UNION,     /* UNION ALL of two children with equal column types */
    LP_DEDUP,     /* DISTINCT ON (key columns): first row per key */
    LP_SORT,
    LP_LIMIT
} plan_kind_t;

/* A column of a node's output. */
typedef struct plan_col {
    const char *name;
    const char *qual; /* relation name or alias it is reachable under, or NULL */
    exec_type_t type;
    int64_t wm_delay_ms; /* >= 0: an event-time column under a watermark (or a window
                              of one: is_window); -1: no watermark */
    int is_window;       /* a window STRUCT<start, end> column */
    int hidden;          /* added by the binder (sort keys); not part of SELECT * */
    int result_key;      /* hidden: a grouping column kept as the result's key (result_key.c);
                              physical planning keeps it after the visible columns */
} plan_col_t;

/* One aggregate call of LP_AGGREGATE. */
typedef struct plan_agg {
    const char *func;   /* lower-case name: count, sum, ... */
    int distinct;       /* f(DISTINCT x) */
    int star;           /* count(*) */
    int arg;            /* input column of the argument (after the pre-projection), -1 for * */
    exec_type_t type;   /* result type */
    const char *text;   /* as written, for EXPLAIN and names */
    int ignore_nulls;   /* first/last(x, true) */
    double relative_sd; /* approx_count_distinct(x, rsd); 0 = the default */
} plan_agg_t;

typedef enum {
    PLAN_JOIN_INNER = 1,
    PLAN_JOIN_LEFT,
    PLAN_JOIN_RIGHT,
    PLAN_JOIN_FULL,
    PLAN_JOIN_CROSS
} plan_join_t;

typedef struct plan_sort_key {
    int col; /* input column */
    int desc;
    int nulls_first;
} plan_sort_key_t;

typedef struct plan_node plan_node_t;

struct plan_node {
    plan_kind_t kind;
    int ncols;
    plan_col_t *cols;
    int streaming; /* reads a stream somewhere below */
    int nchildren;
    plan_node_t *children[2];
    int pos; /* byte offset of the clause that made it, for messages */
    union {
        struct {
            const plan_relation_t *rel;
            const char *alias;
        } scan;
        struct {
            int nrows;
            exec_value_t **rows; /* nrows arrays of ncols values */
        } values;
        struct {
            int col;
            int64_t delay_ms;
        } watermark;
        struct {
            exec_expr_t *pred;
        } filter;
        struct {
            exec_expr_t **exprs; /* ncols */
        } project;
        struct {
            int ts_col; /* TIMESTAMP input column */
            int64_t size_us, slide_us, start_us;
        } window;
        struct {
            int nkeys;
            int *keys; /* input columns */
            int naggs;
            plan_agg_t *aggs;
            int event_key;   /* index into keys of the event-time/window key, or -1 */
            int session_key; /* index into keys of a session_window(...) key, or -1:
                                      rows of equal other keys whose sessions overlap or
                                      touch are aggregated as one session */
        } agg;
        struct {
            plan_join_t type;
            int nkeys;
            int *lkeys, *rkeys;    /* equi-join keys: left and right input columns */
            exec_expr_t *residual; /* over left ++ right, or NULL */
            exec_expr_t *cond;     /* the whole condition, for EXPLAIN and checks */
        } join;
        struct {
            int nkeys;
            int *keys;
            int within_watermark;
        } dedup;
        struct {
            int nkeys;
            plan_sort_key_t *keys;
        } sort;
        struct {
            int64_t limit; /* -1: none */
            int64_t offset;
        } limit;
    };
};

/* Runs the plan of an uncorrelated subquery for the binder (batch
 * statements only: the planner does no I/O itself). Returns the values of
 * the first output column of every row, in order, copied into `a`; -1 with
 * err on failure. */
typedef struct plan_subquery_runner {
    void *ctx;
    int (*run)(void *ctx, const plan_node_t *q, sl_arena_t *a, exec_value_t **values,
               int64_t *nrows, sl_error_t *err);
} plan_subquery_runner_t;

/* The session settings that current_setting() and set_config() read and
 * change; they are evaluated while binding, as the statement's constants.
 * get: 1 with *value, 0 when unknown and missing_ok, -1 with err (42704).
 * set: 0 with *value (the new value), -1 with err. */
typedef struct plan_settings {
    void *ctx;
    int (*get)(void *ctx, const char *name, int missing_ok, const char **value, sl_error_t *err);
    int (*set)(void *ctx, const char *name, const char *value, int is_local, const char **out,
               sl_error_t *err);
} plan_settings_t;

struct plan_cte;       /* bind_int.h: the WITH queries in scope */
struct plan_scope;     /* bind_int.h: the columns of enclosing queries */
struct plan_subq_memo; /* bind_int.h: subquery results already computed */

/* What binding needs from its caller. */
typedef struct plan_ctx {
    sl_arena_t *arena; /* the plan's lifetime */
    const plan_catalog_t *cat;
    const char *sql; /* the text AST positions refer to */
    int nparams;     /* extended-protocol parameters, text, NULL = SQL NULL */
    const char *const *params;
    /* NULL, or nparams declared types: $n's text is a value of that type
     * (DECIMAL: precision and scale from the text); EXEC_TYPE_NULL = a text
     * value typed by its use, like a string literal. */
    const exec_type_id_t *param_types;
    int params_unbound; /* describing a statement before Bind: $n are untyped NULLs */
    /* Describing: NULL, or one entry per $n of the statement (at least its
     * highest n) in which the binder records the
     * type an undeclared $n meets (the other operand of a comparison or
     * arithmetic, the column an INSERT stores it in), PostgreSQL's inference
     * for ParameterDescription; id EXEC_TYPE_NULL = nothing inferred. */
    exec_type_t *param_inferred; /* describing a statement before Bind: $n are untyped NULLs */
    int allow_streams;           /* 0 for an ad-hoc SELECT: reading a stream is refused */
    /* A continuous query's: unaliased aggregate calls are named as Spark
     * names them (sum(amount), count(1)), as the names reach its sink;
     * 0 keeps PostgreSQL's (sum, count) for an ad-hoc SELECT. */
    int spark_names;
    /* The session's role and database (current_user, current_database());
     * NULL outside a session (they are then "sluice"). */
    const char *user;
    const char *database;
    /* Evaluates subqueries in expressions before the query runs; NULL (a
     * continuous query) refuses them with 0A000. */
    const plan_subquery_runner_t *subqueries;
    /* current_setting() and set_config(); NULL (a continuous query): they
     * do not exist there. */
    const plan_settings_t *settings;
    int nrels; /* relations read, in plan order (filled by the binder) */
    const plan_relation_t **rels;
    /* binder state, zero at the start */
    const struct plan_cte *ctes;
    const struct plan_scope *outer;
    struct plan_subq_memo *memo;
} plan_ctx_t;

/* Describing: records `t` as the inferred type of `e` when e is an
 * undeclared $n with nothing inferred yet (see pc->param_inferred). */
void plan_infer_param(plan_ctx_t *pc, const ast_expr_t *e, exec_type_t t);

/* Binds a SELECT. Errors carry 1-based byte positions into pc->sql. */
plan_node_t *plan_bind(plan_ctx_t *pc, const ast_select_t *q, sl_error_t *err);
/* Binds a scalar expression over no columns (INSERT VALUES, LIMIT, options). */
exec_expr_t *plan_bind_constant(plan_ctx_t *pc, const ast_expr_t *e, sl_error_t *err);
/* Milliseconds of an interval literal or string ('15 minutes', INTERVAL '1'
 * HOUR); months are refused; `what` names the clause in errors. */
int plan_interval_ms(const ast_expr_t *e, const char *what, int64_t *ms, sl_error_t *err);
/* Binds a BOOLEAN condition over a relation's columns (DELETE ... WHERE). */
exec_expr_t *plan_bind_condition(plan_ctx_t *pc, const plan_relation_t *rel, const ast_expr_t *e,
                                 const char *clause, sl_error_t *err);
/* A PROJECT over `child` whose columns are `exprs` (INSERT's conversion to
 * the table's columns). */
plan_node_t *plan_project(sl_arena_t *a, plan_node_t *child, exec_expr_t **exprs,
                          const char **names, int n);
/* The result table's key (result_key.c): for an aggregated result, the
 * output columns that identify one row per group, one per grouping column
 * in key order, in *keys. A grouping column the projection does not keep
 * recognisably is carried by a hidden result_key column added to a copy of
 * the projection (*root is replaced; the tree below is shared). Returns the
 * key's column count (0: no GROUP BY, the result is one row), or -1 when
 * the result is not aggregated (no key). */
int plan_result_key(sl_arena_t *a, plan_node_t **root, int **keys);
/* The user-visible columns (not hidden) of a node. */
int plan_visible_columns(const plan_node_t *n);
/* Appends the logical plan as an indented tree (EXPLAIN). */
void plan_explain_logical(const plan_node_t *n, sl_buf_t *out);

#endif
