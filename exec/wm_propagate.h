/* Watermark propagation: the input watermarks of each stateful operator of
 * a physical plan, as Spark 3.5 computes them for queries with several
 * stateful operators (PropagateWatermarkSimulator).
 *
 * The query has one watermark (the min or max over its WATERMARK nodes,
 * kept in the offset log). It enters the plan at the WATERMARK nodes and
 * flows up, children first:
 *   - a WATERMARK node outputs the query's watermark;
 *   - any other node's input watermark is the smallest of its children's
 *     outputs, leaving out children no watermark reaches (static tables);
 *   - a stateless node outputs its input watermark;
 *   - a stateful node records its input watermark (never below 0, as in
 *     Spark) and outputs what ops->output_watermark makes of it — the
 *     stream-stream join the smaller of its sides' state watermarks, since
 *     it may still emit rows that old; others their input watermark.
 * A stateful node no watermark reaches gets INT64_MIN (none).
 *
 * Each batch runs it twice over the same plan: from the previous batch's
 * watermark for late rows, and from this batch's for eviction. */
#ifndef SL_EXEC_WM_PROPAGATE_H
#define SL_EXEC_WM_PROPAGATE_H

#include "exec/op.h"

/* Fills wm[op_id].late_ms (propagated from late_origin_ms) and
 * wm[op_id].evict_ms (from evict_origin_ms) for every stateful node of the
 * plan under root; wm has one entry per op_id. */
void exec_wm_propagate(const exec_pnode_t *root, int64_t late_origin_ms, int64_t evict_origin_ms,
                       op_wm_t *wm);

#endif
