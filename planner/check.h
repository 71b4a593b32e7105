/* The streaming checks (Spark's UnsupportedOperationChecker): whether a
 * bound query can run incrementally in an output mode and trigger. */
#ifndef SL_PLAN_CHECK_H
#define SL_PLAN_CHECK_H

#include "connectors/connector.h"
#include "exec/op.h"
#include "planner/plan.h"

/* 0, or -1 with a 0A000 error naming the operator, the clause (position)
 * and the fix. `sink` is the sink's descriptor (its output modes), or NULL. */
int plan_check_streaming(const plan_node_t *root, output_mode_t mode, int continuous,
                         const conn_desc_t *sink, sl_error_t *err);

#endif
