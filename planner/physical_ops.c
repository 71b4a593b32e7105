/* Physical planning of windows, aggregations and joins. */
#include <string.h>

#include "exec/op_agg.h"
#include "exec/op_exchange.h"
#include "exec/op_join.h"
#include "exec/op_window.h"
#include "planner/join_bound.h"
#include "planner/physical_int.h"

static exec_pnode_t *refuse(sl_error_t *err, const plan_node_t *n, const char *msg,
                            const char *hint)
{
    sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED, "%s", msg);
    if (hint) sl_error_hint(err, "%s", hint);
    if (!err->position) err->position = n->pos + 1;
    return NULL;
}

static exec_pnode_t *at(sl_error_t *err, const plan_node_t *n, exec_pnode_t *p)
{
    if (!p && !err->position) err->position = n->pos + 1;
    return p;
}

exec_pnode_t *phys_window(phys_t *ps, const plan_node_t *n, exec_pnode_t *child, sl_error_t *err)
{
    return at(err, n,
              op_window_plan(ps->a, child, n->window.ts_col, n->window.size_us, n->window.slide_us,
                             n->window.start_us, n->cols[n->ncols - 1].name, err));
}

exec_pnode_t *phys_aggregate(phys_t *ps, const plan_node_t *n, exec_pnode_t *child, sl_error_t *err)
{
    int streaming = ps->opts->streaming && n->streaming;
    op_agg_call_t *calls = SL_NEW_ARRAY(ps->a, op_agg_call_t, n->agg.naggs + 1);
    for (int i = 0; i < n->agg.naggs; i++) {
        calls[i].func = n->agg.aggs[i].func;
        calls[i].distinct = n->agg.aggs[i].distinct;
        calls[i].arg = n->agg.aggs[i].arg;
        calls[i].ignore_nulls = n->agg.aggs[i].ignore_nulls;
        calls[i].relative_sd = n->agg.aggs[i].relative_sd;
    }
    const char **names;
    exec_type_t *types;
    phys_schema(ps, n, &names, &types);
    op_agg_spec_t spec = {
        .nkeys = n->agg.nkeys,
        .keys = n->agg.keys,
        .ncalls = n->agg.naggs,
        .calls = calls,
        .names = names,
        .event_key = streaming ? n->agg.event_key : -1,
        .session_key = n->agg.session_key,
        .op_id = streaming ? ps->out->nstateful : -1,
    };
    exec_pnode_t *p = op_agg_plan(ps->a, child, &spec, ps->opts->npartitions, streaming, err);
    if (!p) return at(err, n, NULL);
    if (streaming) phys_add_stateful(ps, p);
    return p;
}

/* ---- joins ---- */

static op_join_type_t join_type(plan_join_t t)
{
    switch (t) {
    case PLAN_JOIN_LEFT: return OP_JOIN_LEFT;
    case PLAN_JOIN_RIGHT: return OP_JOIN_RIGHT;
    case PLAN_JOIN_FULL: return OP_JOIN_FULL;
    case PLAN_JOIN_CROSS: return OP_JOIN_CROSS;
    default: return OP_JOIN_INNER;
    }
}

static int first_event_col(const plan_node_t *n)
{
    for (int i = 0; i < n->ncols; i++)
        if (n->cols[i].wm_delay_ms >= 0) return i;
    return -1;
}

static exec_pnode_t *stream_join(phys_t *ps, const plan_node_t *n, exec_pnode_t *l, exec_pnode_t *r,
                                 sl_error_t *err)
{
    if (n->join.nkeys == 0)
        return refuse(err, n, "a join of two streams needs an equality between their columns",
                      "Join on at least one column of each stream: ON l.k = r.k.");
    const plan_node_t *L = n->children[0], *R = n->children[1];
    int np = ps->opts->npartitions;
    exec_pnode_t *le = op_exchange_plan(ps->a, l, n->join.lkeys, n->join.nkeys, np, 0);
    exec_pnode_t *re = op_exchange_plan(ps->a, r, n->join.rkeys, n->join.nkeys, np, 0);
    op_stream_join_spec_t spec = {
        .type = join_type(n->join.type),
        .nkeys = n->join.nkeys,
        .left_keys = n->join.lkeys,
        .right_keys = n->join.rkeys,
        .residual = n->join.residual,
        .left_time = first_event_col(L),
        .right_time = first_event_col(R),
        .evict_key = -1,
        .op_id = ps->out->nstateful,
    };
    for (int k = 0; k < n->join.nkeys && spec.evict_key < 0; k++)
        if (L->cols[n->join.lkeys[k]].wm_delay_ms >= 0 ||
            R->cols[n->join.rkeys[k]].wm_delay_ms >= 0)
            spec.evict_key = k;
    /* Without a watermarked key, a side with an event-time column drops
     * rows by its state value bound (Spark: only a side with a watermark,
     * here its time compared in ON with the other side's watermarked one). */
    if (spec.evict_key < 0) {
        spec.left_has_bound =
            spec.left_time >= 0 && plan_join_state_bound(n, 0, spec.left_time, &spec.left_bound_ms);
        spec.right_has_bound = spec.right_time >= 0 &&
                               plan_join_state_bound(n, 1, spec.right_time, &spec.right_bound_ms);
    }
    exec_pnode_t *j = op_stream_join_plan(ps->a, le, re, &spec, err);
    if (!j) return at(err, n, NULL);
    phys_add_stateful(ps, j);
    return j;
}

/* A join with one side read whole (static, or the smaller batch side):
 * the other side streams through as the probe. */
static exec_pnode_t *broadcast_join(phys_t *ps, const plan_node_t *n, exec_pnode_t *probe,
                                    exec_pnode_t *build, int probe_is_left, sl_error_t *err)
{
    op_join_type_t t = join_type(n->join.type);
    int build_preserved = t == OP_JOIN_FULL || (t == OP_JOIN_RIGHT && probe_is_left) ||
                          (t == OP_JOIN_LEFT && !probe_is_left);
    if (build_preserved) probe = op_exchange_plan(ps->a, probe, NULL, 0, 1, 0);
    exec_pnode_t *bx = op_exchange_plan(ps->a, build, NULL, 0, 1, 1);
    const int *pk = probe_is_left ? n->join.lkeys : n->join.rkeys;
    const int *bk = probe_is_left ? n->join.rkeys : n->join.lkeys;
    exec_pnode_t *j =
        n->join.nkeys ? op_hash_join_plan(ps->a, probe, bx, pk, bk, n->join.nkeys, t, probe_is_left,
                                          n->join.residual, err)
                      : op_nl_join_plan(ps->a, probe, bx, t, probe_is_left, n->join.residual, err);
    return at(err, n, j);
}

exec_pnode_t *phys_join(phys_t *ps, const plan_node_t *n, sl_error_t *err)
{
    exec_pnode_t *l = phys_node(ps, n->children[0], err);
    exec_pnode_t *r = l ? phys_node(ps, n->children[1], err) : NULL;
    if (!r) return NULL;
    int ls = ps->opts->streaming && n->children[0]->streaming;
    int rs = ps->opts->streaming && n->children[1]->streaming;
    if (ls && rs) return stream_join(ps, n, l, r, err);
    if (rs) return broadcast_join(ps, n, r, l, 0, err);
    /* a stream on the left, or a batch join: the left side probes, unless a
     * RIGHT join wants its preserved side streaming */
    if (!ls && n->join.type == PLAN_JOIN_RIGHT) return broadcast_join(ps, n, r, l, 0, err);
    return broadcast_join(ps, n, l, r, 1, err);
}
