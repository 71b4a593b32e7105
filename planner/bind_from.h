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

#endif
