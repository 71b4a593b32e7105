/* Binder internals for FROM items and plan node construction. */
#ifndef SL_BIND_FROM_H
#define SL_BIND_FROM_H

#include "planner/plan.h"

/* A node of `kind` with ncols columns (zeroed) in `a`. */
plan_node_t *plan_node_new(sl_arena_t *a, plan_kind_t kind, int ncols, int pos);
/* Sets child i and inherits its streaming flag. */
void plan_set_child(plan_node_t *n, int i, plan_node_t *child);
plan_node_t *plan_bind_from_item(plan_ctx_t *pc, const ast_from_t *f, sl_error_t *err);
plan_node_t *plan_watermark(sl_arena_t *a, plan_node_t *child, int col, int64_t delay_ms, int pos);
plan_node_t *plan_join(sl_arena_t *a, plan_node_t *l, plan_node_t *r, plan_join_t type, int pos);
/* A PROJECT keeping only the visible columns of n. */
plan_node_t *plan_project_visible(sl_arena_t *a, plan_node_t *n);
/* Sets j's equi-keys (left column = right column) and residual from cond. */
int plan_split_join_condition(plan_ctx_t *pc, plan_node_t *j, exec_expr_t *cond, int nleft,
                              sl_error_t *err);
/* Renames n's columns (all visible) to `names` (the column list of `AS t (a,
 * b)` or of a WITH query, `what` "table" or "WITH query" and `rel` its name
 * in the 42P10 error when the counts differ). */
int plan_rename_columns(plan_node_t *n, const ast_ident_list_t *names, const char *what,
                        const char *rel, sl_error_t *err);
/* JOIN ... USING (cols) or NATURAL JOIN over j = left ++ right (bind_using.c):
 * sets the condition and returns the join under Spark's output columns. */
plan_node_t *plan_join_using(plan_ctx_t *pc, plan_node_t *j, const ast_from_t *f, sl_error_t *err);
/* The WITH query named `name` in scope, or NULL (bind_cte.c). */
const struct plan_cte *plan_cte_find(const plan_ctx_t *pc, const char *name);
/* Binds a reference to a WITH query: its query, in its definition's scope,
 * with its column list applied (bind_cte.c). */
plan_node_t *plan_bind_cte_ref(plan_ctx_t *pc, const struct plan_cte *cte, sl_error_t *err);
/* A set-returning function in FROM, as constant rows (bind_srf.c). */
plan_node_t *plan_bind_from_function(plan_ctx_t *pc, const ast_from_t *f, sl_error_t *err);
/* A select list with set-returning functions (unnest, ...) over the
 * bound FROM `n`, as constant rows (bind_srf.c). */
int plan_select_has_srf(const ast_select_t *q);
plan_node_t *plan_bind_srf_select(plan_ctx_t *pc, const ast_select_t *q, plan_node_t *n,
                                  sl_error_t *err);
/* Binds a select with a WITH clause (bind_cte.c). */
plan_node_t *plan_bind_with(plan_ctx_t *pc, const ast_select_t *q, sl_error_t *err);

#endif
