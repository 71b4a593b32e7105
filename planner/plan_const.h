/* Constants in plans: evaluating constant expressions at plan time, VALUES
 * lists, intervals of clauses (watermark delays, triggers, timeouts). */
#ifndef SL_PLAN_CONST_H
#define SL_PLAN_CONST_H

#include "planner/plan.h"

/* Evaluates a column-free expression, cast to `type` (NULL type: keep its
 * own), into `out` (strings in a). */
int plan_eval_constant(sl_arena_t *a, const exec_expr_t *e, exec_type_t type, exec_value_t *out,
                       sl_error_t *err);
/* One row of no columns (SELECT without FROM). */
plan_node_t *plan_values_one_row(sl_arena_t *a, int pos);
/* VALUES (...), (...): constant rows of one common type per column. */
plan_node_t *plan_bind_values(plan_ctx_t *pc, const ast_select_t *q, sl_error_t *err);

#endif
