/* Time bounds of stream-stream joins: how far behind the watermark a row of
 * one side can still find a match, read from the range conditions of the
 * join (Spark's StreamingJoinHelper.getStateValueWatermark). The streaming
 * checks use it to accept outer joins, the physical planner to evict
 * state by value. */
#ifndef SL_PLAN_JOIN_BOUND_H
#define SL_PLAN_JOIN_BOUND_H

#include "planner/plan.h"

/* The state value bound of side `side` (0 left, 1 right) of the LP_JOIN
 * node `join`: among the conjuncts of its residual that compare a time of
 * that side with a watermarked time of the other side, each as a column
 * plus or minus a constant interval (a < b, a <= b, a > b, a >= b), those
 * that bound the side's time from below give an offset such that its rows
 * with time <= watermark + offset can no longer match. Returns 1 and the
 * smallest such offset in *offset_ms, 1 ms lower for <= and >= (a row
 * exactly on the bound stays one batch longer, as in Spark), or 0 when no
 * conjunct bounds the side. `col` >= 0 restricts the side's term to that
 * column of the side's child; -1 accepts any column. */
int plan_join_state_bound(const plan_node_t *join, int side, int col, int64_t *offset_ms);

#endif
