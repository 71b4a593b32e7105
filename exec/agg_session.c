/* SESSION WINDOW AGGREGATION, batch phase (Spark's MergingSessionsExec;
 * planner node "MergingSessions") and what both session phases share:
 * entries, their grouping by the other keys, the merge and the output.
 *
 * INPUT. PARTIAL buffers through an exchange on the keys without the
 * session, so every row of one key reaches one task: keys (one of them the
 * session window struct, each PARTIAL group's initial session) + buffers.
 *
 * PER TASK. push(): (the streaming phase drops late rows first, see
 * agg_session_stream.c) as FINAL, rows with equal keys *and* equal sessions
 * merge into one group of a hash table (agg_group_ids), so identical
 * initial sessions cost one entry. finish(): the groups become ENTRIES
 * (agg_int.h), are grouped by their other keys, sorted by (key, start) and
 * merged where the next start <= the current end (exec/session.h); each
 * session's buffers are the merge of its entries' buffers in that order;
 * one output row per session: keys with the session [first start, last
 * end) and the finalized aggregates. All memory is the task arena and
 * scratch; nothing is kept between micro-batches. */
#include <string.h>

#include "exec/agg_int.h"
#include "model/row.h"

/* ---- configuration ---- */

int agg_session_config(sl_arena_t *a, agg_config_t *cfg, int session_key, sl_error_t *err)
{
    if (session_key < 0 || session_key >= cfg->nkeys)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "session key %d is out of range",
                            session_key);
    if (!exec_type_equal(cfg->key_types[session_key], exec_type_window()))
        return sl_error_set(err, SL_ERR_DATATYPE_MISMATCH, "session key %s must be a window",
                            cfg->key_names[session_key]);
    cfg->session_key = session_key;
    cfg->other_keys = SL_NEW_ARRAY(a, int, cfg->nkeys);
    for (int k = 0, j = 0; k < cfg->nkeys; k++)
        if (k != session_key) cfg->other_keys[j++] = k;
    return 0;
}

exec_type_t *agg_session_entry_types(const agg_config_t *cfg, sl_arena_t *a)
{
    exec_type_t *t = SL_NEW_ARRAY(a, exec_type_t, AGG_SESSION_BUF(cfg) + cfg->nbuf);
    for (int j = 0; j < cfg->nkeys - 1; j++) t[j] = cfg->key_types[cfg->other_keys[j]];
    t[AGG_SESSION_START(cfg)] = t[AGG_SESSION_END(cfg)] = exec_type_of(EXEC_TYPE_TIMESTAMP);
    for (int j = 0; j < cfg->nbuf; j++) t[AGG_SESSION_BUF(cfg) + j] = cfg->buf_types[j];
    return t;
}

/* ---- entries ---- */

exec_batch_t *agg_session_batch_entries(op_t *op)
{
    const agg_config_t *cfg = op->node->config;
    agg_run_t *run = op->state;
    sl_arena_t *a = op->ctx->arena;
    exec_batch_t *keys = exec_ht_keys(run->ht, a);
    exec_vec_t *bufs = agg_state_bufs(cfg, run->st, a);
    exec_batch_t *e = SL_NEW(a, exec_batch_t);
    e->ncols = AGG_SESSION_BUF(cfg) + cfg->nbuf;
    e->cols = SL_NEW_ARRAY(a, exec_vec_t, e->ncols);
    e->nrows = exec_ht_size(run->ht);
    e->arena = a;
    for (int j = 0; j < cfg->nkeys - 1; j++) e->cols[j] = keys->cols[cfg->other_keys[j]];
    const exec_vec_t *sw = &keys->cols[cfg->session_key];
    e->cols[AGG_SESSION_START(cfg)] = sw->children[0];
    e->cols[AGG_SESSION_END(cfg)] = sw->children[1];
    for (int j = 0; j < cfg->nbuf; j++) e->cols[AGG_SESSION_BUF(cfg) + j] = bufs[j];
    return e;
}

uint32_t *agg_session_groups(op_t *op, const exec_batch_t *e, uint32_t *ngroups,
                             exec_batch_t **gkeys)
{
    const agg_config_t *cfg = op->node->config;
    sl_arena_t *scratch = op->ctx->ectx->arena;
    uint32_t n = e->nrows, cap = n ? n : 1;
    int nother = cfg->nkeys - 1;
    uint32_t *ids = sl_alloc(scratch, sizeof *ids * cap);
    *gkeys = NULL;
    if (nother == 0) {
        memset(ids, 0, sizeof *ids * cap);
        *ngroups = n > 0;
        return ids;
    }
    int *cols = SL_NEW_ARRAY(scratch, int, nother);
    for (int j = 0; j < nother; j++) cols[j] = j;
    exec_ht_t *ht = exec_ht_new(scratch, nother, agg_session_entry_types(cfg, scratch), n);
    uint64_t *h = sl_alloc(scratch, sizeof *h * cap);
    exec_hash_rows(e, cols, nother, h);
    *ngroups = exec_ht_upsert(ht, e, cols, h, ids);
    *gkeys = exec_ht_keys(ht, scratch);
    return ids;
}

/* A new TIMESTAMP vector holding v[0..n). */
static exec_vec_t times_vec(sl_arena_t *a, const int64_t *v, uint32_t n)
{
    exec_vec_t out = exec_vec_new(a, exec_type_of(EXEC_TYPE_TIMESTAMP), n);
    if (n) memcpy(out.data, v, sizeof *v * n);
    return out;
}

exec_batch_t *agg_session_merge(op_t *op, const exec_batch_t *e, const uint32_t *group,
                                exec_sessions_t *ss, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    sl_arena_t *a = op->ctx->arena;
    exec_sessions_merge(op->ctx->ectx->arena, e->nrows, group, e->cols[AGG_SESSION_START(cfg)].data,
                        e->cols[AGG_SESSION_END(cfg)].data, ss);
    exec_batch_t keys = {.ncols = cfg->nkeys - 1, .cols = e->cols, .nrows = e->nrows};
    exec_batch_t *out = exec_batch_gather(&keys, ss->first, ss->n, a);
    out->ncols = AGG_SESSION_BUF(cfg) + cfg->nbuf;
    exec_vec_t *cols = SL_NEW_ARRAY(a, exec_vec_t, out->ncols);
    if (keys.ncols) memcpy(cols, out->cols, sizeof *cols * (size_t)keys.ncols);
    out->cols = cols;
    cols[AGG_SESSION_START(cfg)] = times_vec(a, ss->start, ss->n);
    cols[AGG_SESSION_END(cfg)] = times_vec(a, ss->end, ss->n);
    exec_agg_state_t *st = agg_states_new(cfg, a);
    for (int i = 0; i < cfg->naggs; i++) {
        exec_agg_state_resize(&cfg->aggs[i], &st[i], ss->n);
        if (exec_agg_merge(&cfg->aggs[i], &st[i], &e->cols[AGG_SESSION_BUF(cfg) + cfg->buf_off[i]],
                           ss->order, e->nrows, ss->sid, err) < 0)
            return NULL;
    }
    exec_vec_t *bufs = agg_state_bufs(cfg, st, a);
    for (int j = 0; j < cfg->nbuf; j++) cols[AGG_SESSION_BUF(cfg) + j] = bufs[j];
    return out;
}

int agg_session_emit(op_t *op, const exec_batch_t *e, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    sl_arena_t *a = op->ctx->arena;
    exec_vec_t *keys = SL_NEW_ARRAY(a, exec_vec_t, cfg->nkeys);
    for (int j = 0; j < cfg->nkeys - 1; j++) keys[cfg->other_keys[j]] = e->cols[j];
    exec_vec_t *sw = &keys[cfg->session_key];
    sw->type = exec_type_window();
    sw->children = SL_NEW_ARRAY(a, exec_vec_t, 2);
    sw->children[0] = e->cols[AGG_SESSION_START(cfg)];
    sw->children[1] = e->cols[AGG_SESSION_END(cfg)];
    return agg_emit_final(op, keys, &e->cols[AGG_SESSION_BUF(cfg)], e->nrows, err);
}

/* ---- the batch phase ---- */

static int session_open(op_t *op, sl_error_t *err)
{
    (void)err;
    agg_run_new(op);
    return 0;
}

int agg_session_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    (void)input;
    const agg_config_t *cfg = op->node->config;
    agg_run_t *run = op->state;
    op->metrics->rows_in += exec_batch_count(b);
    if (run->streaming && cfg->event_key >= 0 && op->wm.late_ms != INT64_MIN)
        b = agg_stream_drop_late(op, b);
    if (exec_batch_count(b) == 0) return 0;
    return agg_merge_batch(op, b, agg_group_ids(op, b, cfg->keys), err);
}

int agg_session_finish_batch(op_t *op, sl_error_t *err)
{
    agg_run_t *run = op->state;
    op->metrics->memory_used_bytes = (int64_t)exec_ht_memory(run->ht);
    exec_batch_t *e = agg_session_batch_entries(op);
    if (e->nrows == 0) return 0;
    uint32_t ngroups;
    exec_batch_t *gkeys;
    uint32_t *group = agg_session_groups(op, e, &ngroups, &gkeys);
    exec_sessions_t ss;
    exec_batch_t *s = agg_session_merge(op, e, group, &ss, err);
    return s ? agg_session_emit(op, s, err) : -1;
}

const op_ops_t op_agg_session_ops = {
    .name = "MergingSessions",
    .open = session_open,
    .push = agg_session_push,
    .finish = agg_session_finish_batch,
    .explain = agg_explain,
};
