/* The stateless row operators: FILTER (a predicate), PROJECT (a list of
 * expressions) and WATERMARK (Spark's EventTimeWatermark: passes rows
 * through and records the event times it sees, from which the runner
 * computes the next watermark). */
#ifndef SL_OP_BASIC_H
#define SL_OP_BASIC_H

#include "exec/op.h"

extern const op_ops_t op_filter_ops, op_project_ops, op_watermark_ops;

typedef struct op_watermark_config {
    int column;       /* TIMESTAMP column of the child */
    int64_t delay_ms; /* watermark = max(event time) - delay */
} op_watermark_config_t;

/* FILTER child WHERE pred (a BOOLEAN expression over the child's columns). */
exec_pnode_t *op_filter_plan(sl_arena_t *a, exec_pnode_t *child, const exec_expr_t *pred,
                             sl_error_t *err);
/* PROJECT: one output column per expression. */
exec_pnode_t *op_project_plan(sl_arena_t *a, exec_pnode_t *child, exec_expr_t *const *exprs,
                              const char *const *names, int n, sl_error_t *err);
/* WATERMARK on a TIMESTAMP column of the child. */
exec_pnode_t *op_watermark_plan(sl_arena_t *a, exec_pnode_t *child, int column, int64_t delay_ms);

#endif
