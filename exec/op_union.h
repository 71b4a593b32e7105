/* UNION ALL: the rows of both children, unchanged ("Union"). Both children
 * must have the same column types (the planner casts first); output names
 * are the left child's. UNION DISTINCT is this plus the aggregation's
 * DISTINCT. No state; each pushed batch is forwarded as it is, so rows of
 * one arm keep their order. */
#ifndef SL_OP_UNION_H
#define SL_OP_UNION_H

#include "exec/op.h"

extern const op_ops_t op_union_ops;

/* left UNION ALL right. 42601 when the column counts differ, 42804 when a
 * column's types differ. */
exec_pnode_t *op_union_plan(sl_arena_t *a, exec_pnode_t *left, exec_pnode_t *right,
                            sl_error_t *err);

#endif
