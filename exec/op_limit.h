/* LIMIT / OFFSET.
 *
 *   LIMIT ("Limit"): batch LIMIT n OFFSET m over the rows of its single
 *     task (the planner gathers into one partition first, usually after a
 *     SORT), and per micro-batch in complete-mode streaming queries. No
 *     state.
 *   GLOBAL LIMIT (Spark's StreamingGlobalLimitExec, operatorName
 *     "globalLimit"): streaming LIMIT n in append mode. The count of rows
 *     emitted so far lives in the state store, so across micro-batches and
 *     restarts the query never emits more than n rows in total. Behind a
 *     single-partition exchange (the planner's job). OFFSET is not
 *     supported on streams (the planner refuses it, as Spark does). */
#ifndef SL_OP_LIMIT_H
#define SL_OP_LIMIT_H

#include "exec/op.h"

extern const op_ops_t op_limit_ops, op_global_limit_ops;

/* LIMIT limit OFFSET offset over child: skips the first `offset` rows,
 * then passes at most `limit` (-1 = no limit). 22023 for negative values. */
exec_pnode_t *op_limit_plan(sl_arena_t *a, exec_pnode_t *child, int64_t limit, int64_t offset,
                            sl_error_t *err);
/* Streaming LIMIT limit (limit >= 0) with its count in state/<op_id>/0. */
exec_pnode_t *op_global_limit_plan(sl_arena_t *a, exec_pnode_t *child, int64_t limit, int op_id,
                                   sl_error_t *err);

#endif
