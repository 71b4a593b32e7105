/* Watermark propagation through a physical plan (see wm_propagate.h). */
#include "exec/wm_propagate.h"

#include <stdint.h>

#include "exec/op_basic.h"

/* Walks the plan children first; returns n's output watermark (INT64_MIN:
 * none reaches n) and records the input watermark of each stateful node in
 * its wm entry (late_ms or evict_ms, by `late`). */
static int64_t propagate(const exec_pnode_t *n, int64_t origin, op_wm_t *wm, int late)
{
    int64_t in = INT64_MIN;
    for (int i = 0; i < n->nchildren; i++) {
        int64_t c = propagate(n->children[i], origin, wm, late);
        if (c != INT64_MIN && (in == INT64_MIN || c < in)) in = c;
    }
    if (n->ops == &op_watermark_ops) return origin;
    if (!n->ops->stateful || n->op_id < 0) return in;
    int64_t *field = late ? &wm[n->op_id].late_ms : &wm[n->op_id].evict_ms;
    *field = in == INT64_MIN ? INT64_MIN : in < 0 ? 0 : in;
    if (in == INT64_MIN || !n->ops->output_watermark) return in;
    return n->ops->output_watermark(n, in);
}

void exec_wm_propagate(const exec_pnode_t *root, int64_t late_origin_ms, int64_t evict_origin_ms,
                       op_wm_t *wm)
{
    propagate(root, late_origin_ms, wm, 1);
    propagate(root, evict_origin_ms, wm, 0);
}
