/* Physical planning of UNION ALL, DISTINCT ON, ORDER BY and LIMIT. */
#include <string.h>

#include "exec/op_dedup.h"
#include "exec/op_exchange.h"
#include "exec/op_limit.h"
#include "exec/op_sort.h"
#include "exec/op_union.h"
#include "exec/stage.h"
#include "planner/physical_int.h"

static exec_pnode_t *at(sl_error_t *err, const plan_node_t *n, exec_pnode_t *p)
{
    if (!p && !err->position) err->position = n->pos + 1;
    return p;
}

/* How a node's stage is fed: -1 by inputs (source splits, tables), else the
 * partitions of the exchanges below it. */
static int stage_feed(const exec_pnode_t *n)
{
    if (n->ops == &op_input_ops) return -1;
    if (op_is_exchange(n)) return ((const op_exchange_config_t *)n->config)->npartitions;
    int feed = 0;
    for (int i = 0; i < n->nchildren; i++) {
        const exec_pnode_t *c = n->children[i];
        if (op_is_exchange(c) && ((const op_exchange_config_t *)c->config)->broadcast) continue;
        int f = stage_feed(c);
        if (f) feed = f;
    }
    return feed;
}

/* A stage is fed either by inputs or by exchanges of one partition count:
 * the arms of a union are made to agree. */
exec_pnode_t *phys_union(phys_t *ps, const plan_node_t *n, sl_error_t *err)
{
    exec_pnode_t *l = phys_node(ps, n->children[0], err);
    exec_pnode_t *r = l ? phys_node(ps, n->children[1], err) : NULL;
    if (!r) return NULL;
    int lf = stage_feed(l), rf = stage_feed(r);
    if (lf != rf) {
        int np = lf > 0 ? lf : rf;
        if (lf != np) l = op_exchange_plan(ps->a, l, NULL, 0, np, 0);
        if (rf != np) r = op_exchange_plan(ps->a, r, NULL, 0, np, 0);
    }
    return at(err, n, op_union_plan(ps->a, l, r, err));
}

static int first_event_col(const plan_node_t *n)
{
    for (int i = 0; i < n->ncols; i++)
        if (n->cols[i].wm_delay_ms >= 0) return i;
    return -1;
}

exec_pnode_t *phys_dedup(phys_t *ps, const plan_node_t *n, exec_pnode_t *child, sl_error_t *err)
{
    const plan_node_t *in = n->children[0];
    int streaming = ps->opts->streaming && n->streaming;
    exec_pnode_t *x =
        op_exchange_plan(ps->a, child, n->dedup.keys, n->dedup.nkeys, ps->opts->npartitions, 0);
    op_dedup_spec_t spec = {
        .nkeys = n->dedup.nkeys,
        .keys = n->dedup.keys,
        .time_col = -1,
        .evict_key = -1,
        .within_watermark = n->dedup.within_watermark,
        .op_id = streaming ? ps->out->nstateful : -1,
    };
    if (streaming) {
        spec.time_col = first_event_col(in);
        if (spec.time_col >= 0) spec.delay_ms = in->cols[spec.time_col].wm_delay_ms;
        for (int k = 0; k < n->dedup.nkeys && spec.evict_key < 0; k++)
            if (in->cols[n->dedup.keys[k]].wm_delay_ms >= 0) spec.evict_key = k;
    }
    exec_pnode_t *d = op_dedup_plan(ps->a, x, &spec, err);
    if (!d) return at(err, n, NULL);
    if (streaming) phys_add_stateful(ps, d);
    return d;
}

exec_pnode_t *phys_sort(phys_t *ps, const plan_node_t *n, exec_pnode_t *child, sl_error_t *err)
{
    return phys_sort_limit(ps, n, child, -1, err);
}

/* SORT, emitting at most `limit` rows (-1: all) when a LIMIT sits above it. */
exec_pnode_t *phys_sort_limit(phys_t *ps, const plan_node_t *n, exec_pnode_t *child, int64_t limit,
                              sl_error_t *err)
{
    op_sort_key_t *keys = SL_NEW_ARRAY(ps->a, op_sort_key_t, n->sort.nkeys);
    for (int i = 0; i < n->sort.nkeys; i++) {
        keys[i].column = n->sort.keys[i].col;
        keys[i].desc = n->sort.keys[i].desc;
        keys[i].nulls_first = n->sort.keys[i].nulls_first;
    }
    exec_pnode_t *g = op_exchange_plan(ps->a, child, NULL, 0, 1, 0);
    return at(err, n, op_sort_plan(ps->a, g, keys, n->sort.nkeys, limit, err));
}

exec_pnode_t *phys_limit(phys_t *ps, const plan_node_t *n, exec_pnode_t *child, sl_error_t *err)
{
    int streaming = ps->opts->streaming && n->streaming;
    exec_pnode_t *g =
        child->ops == &op_sort_ops ? child : op_exchange_plan(ps->a, child, NULL, 0, 1, 0);
    if (!streaming || ps->opts->mode == OUTPUT_COMPLETE)
        return at(err, n, op_limit_plan(ps->a, g, n->limit.limit, n->limit.offset, err));
    if (n->limit.offset > 0) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED, "OFFSET is not supported on a stream");
        sl_error_hint(err, "A stream has no first rows to skip; use LIMIT alone.");
        return at(err, n, NULL);
    }
    if (n->limit.limit < 0) return child; /* LIMIT ALL */
    exec_pnode_t *l = op_global_limit_plan(ps->a, g, n->limit.limit, ps->out->nstateful, err);
    if (!l) return at(err, n, NULL);
    phys_add_stateful(ps, l);
    return l;
}
