/* The streaming checks (Spark's UnsupportedOperationChecker): whether a
 * bound query can run incrementally in an output mode and trigger. */
#ifndef SL_PLAN_CHECK_H
#define SL_PLAN_CHECK_H

#include "exec/op.h"
#include "planner/plan.h"

/* 0, or -1 with a 0A000 error naming the operator, the clause (position)
 * and the fix. `sink` is the sink connector's name. */
int plan_check_streaming(const plan_node_t *root, output_mode_t mode, int continuous,
                         const char *sink, sl_error_t *err);

#endif
