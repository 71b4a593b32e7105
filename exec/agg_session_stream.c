/* SESSION WINDOW AGGREGATION, streaming phase (Spark's
 * SessionWindowStateStoreRestoreExec, MergingSessionsExec and
 * SessionWindowStateStoreSaveExec in one operator; operatorName
 * "sessionWindowStateStoreSaveExec").
 *
 * STATE. One store per task = shuffle partition, state/<op_id>/<partition>,
 * opened, loaded (version batch_id) and committed (batch_id + 1) as the
 * time-window aggregation's (agg_stream.c). One entry per open session:
 *   key   = the memcomparable encoding (model/row.h) of [other keys in key
 *           order | session start], so the sessions of one key are one
 *           prefix scan, in start order (Spark's prefix-scan key);
 *   value = the session end (8 bytes, big-endian) then the row encoding of
 *           every call's buffer columns.
 * The schema texts ("k STRING, session_window.start TIMESTAMP" /
 * "session_window.end TIMESTAMP; count(*) AS n: count BIGINT") are
 * recorded at the first run; a restart of a changed query is refused.
 *
 * PER BATCH. push(): rows are PARTIAL groups (keys with their initial
 * session + buffers). When the session time column has a watermark, a row
 * whose session end is at or before op->wm.late_ms is late: dropped and
 * counted in numRowsDroppedByWatermark — in every output mode, as Spark's
 * restore step filters before merging. The rest merge into the batch's
 * hash table of (keys, session) groups (agg_session.c). finish(): for each
 * other key of the batch, its stored sessions (one prefix scan) and the
 * batch's become entries (stored first), which merge into sessions — a
 * new row may bridge two stored sessions, whose buffers then merge. As
 * Spark's updateSessions, every session of a touched key is put again
 * (numRowsUpdated counts them) and stored sessions whose start no longer
 * starts a session are deleted. Then by output mode:
 *   APPEND    one scan over the whole state emits and deletes every session
 *             whose end <= op->wm.evict_ms (Spark's removeByValueCondition;
 *             a session is final once the watermark passes its end);
 *   COMPLETE  one scan emits every session; nothing is evicted.
 * UPDATE is refused by the planner, as by Spark's checker: a session
 * emitted as changed could later merge into another and vanish. Without a
 * watermark on the session, nothing is late and nothing evicted. finish()
 * runs in no-data batches too, so sessions close as the watermark moves.
 *
 * MEMORY. Stored sessions are decoded into scratch; merged sessions and
 * emitted rows live in the task arena. The store comes from the query's
 * store cache and stays loaded for the next batch. */
#include <string.h>

#include "exec/agg_int.h"
#include "model/row.h"

#define US_PER_MS 1000

/* ---- configuration ---- */

void agg_session_stream_config(sl_arena_t *a, agg_config_t *cfg)
{
    const char *sw = cfg->key_names[cfg->session_key];
    sl_buf_t b = SL_BUF_INIT;
    for (int j = 0; j < cfg->nkeys - 1; j++) {
        int k = cfg->other_keys[j];
        sl_buf_printf(&b, "%s ", cfg->key_names[k]);
        exec_type_format(cfg->key_types[k], &b);
        sl_buf_puts(&b, ", ");
    }
    sl_buf_printf(&b, "%s.start TIMESTAMP", sw);
    cfg->key_schema = sl_strdup(a, b.data);
    sl_buf_clear(&b);
    sl_buf_printf(&b, "%s.end TIMESTAMP", sw);
    for (int i = 0; i < cfg->naggs; i++) {
        sl_buf_printf(&b, "; %s AS %s: ", cfg->call_text[i], cfg->spec.names[cfg->nkeys + i]);
        exec_agg_format_buffer(&cfg->aggs[i], &b);
    }
    cfg->value_schema = sl_strdup(a, b.data);
    sl_buf_free(&b);
}

static int session_wants_nodata_batch(const exec_pnode_t *node, output_mode_t mode)
{
    const agg_config_t *cfg = node->config;
    return (cfg->mode ? cfg->mode : mode) == OUTPUT_APPEND; /* Spark: append or update */
}

/* ---- entries in state ---- */

static void put_be64(sl_buf_t *b, int64_t v)
{
    for (int i = 7; i >= 0; i--) sl_buf_putc(b, (char)(((uint64_t)v >> (8 * i)) & 0xff));
}

static int64_t get_be64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    return (int64_t)v;
}

static int corrupt(sl_error_t *err)
{
    return sl_error_set(err, SL_ERR_INTERNAL_ERROR, "corrupt session state entry");
}

/* Appends a stored session (key and value bytes) to an entries builder. */
static int decode_entry(const agg_config_t *cfg, exec_builder_t *bld, const void *k, size_t kl,
                        const void *v, size_t vl, sl_error_t *err)
{
    if (vl < 8) return corrupt(err);
    uint32_t row = exec_builder_add_row(bld);
    size_t used;
    if (exec_key_decode(k, kl, bld, row, 0, cfg->nkeys, &used, err) < 0) return -1;
    if (used != kl) return corrupt(err);
    exec_builder_set_bigint(bld, AGG_SESSION_END(cfg), row, get_be64(v));
    return exec_row_decode((const char *)v + 8, vl - 8, bld, row, AGG_SESSION_BUF(cfg), cfg->nbuf,
                           err);
}

static int *iota(sl_arena_t *a, int from, int n)
{
    int *c = SL_NEW_ARRAY(a, int, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) c[i] = from + i;
    return c;
}

/* The stored sessions of every group of the batch, then the batch's own
 * entries, as one entries batch; *group gets each entry's group and
 * *nstored the number of stored ones (the first rows). */
static exec_batch_t *gather_entries(op_t *op, uint32_t **group, uint32_t *nstored, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    agg_run_t *run = op->state;
    sl_arena_t *scratch = op->ctx->ectx->arena;
    exec_batch_t *fresh = agg_session_batch_entries(op);
    uint32_t ngroups;
    exec_batch_t *gkeys;
    uint32_t *fgroup = agg_session_groups(op, fresh, &ngroups, &gkeys);
    exec_builder_t bld;
    exec_builder_init(&bld, scratch, AGG_SESSION_BUF(cfg) + cfg->nbuf,
                      agg_session_entry_types(cfg, scratch), fresh->nrows * 2);
    uint32_t *bound =
        SL_NEW_ARRAY(scratch, uint32_t, ngroups + 1); /* group g: rows bound[g]..bound[g+1] */
    int *cols = iota(scratch, 0, cfg->nkeys - 1);
    sl_buf_t prefix = SL_BUF_INIT;
    int rc = 0;
    for (uint32_t g = 0; g < ngroups && rc == 0; g++) {
        bound[g] = bld.batch->nrows;
        sl_buf_clear(&prefix);
        if (gkeys) exec_key_encode(gkeys, g, cols, cfg->nkeys - 1, &prefix);
        store_iter_t *it = store_iter_prefix(run->store, prefix.data, prefix.len, err);
        if (!it) rc = -1;
        const void *k, *v;
        size_t kl, vl;
        while (it && (rc = store_iter_next(it, &k, &kl, &v, &vl, err)) == 1)
            if (decode_entry(cfg, &bld, k, kl, v, vl, err) < 0) rc = -1;
        if (it) store_iter_close(it);
    }
    sl_buf_free(&prefix);
    if (rc < 0) return NULL;
    bound[ngroups] = *nstored = bld.batch->nrows;
    exec_builder_append_batch(&bld, fresh);
    exec_batch_t *e = exec_builder_finish(&bld);
    *group = sl_alloc(scratch, sizeof **group * (e->nrows ? e->nrows : 1));
    for (uint32_t g = 0; g < ngroups; g++)
        for (uint32_t r = bound[g]; r < bound[g + 1]; r++) (*group)[r] = g;
    if (fresh->nrows) memcpy(*group + *nstored, fgroup, sizeof *fgroup * fresh->nrows);
    return e;
}

/* Deletes the stored sessions merged into a session that starts earlier,
 * then puts every session (Spark's putRows: replace rather than delete
 * where the start is kept). */
static int save_sessions(op_t *op, const exec_batch_t *e, uint32_t nstored,
                         const exec_sessions_t *ss, const exec_batch_t *s, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    agg_run_t *run = op->state;
    sl_arena_t *scratch = op->ctx->ectx->arena;
    int *kcols = iota(scratch, 0, cfg->nkeys),
        *vcols = iota(scratch, AGG_SESSION_BUF(cfg), cfg->nbuf);
    const int64_t *start = e->cols[AGG_SESSION_START(cfg)].data,
                  *end = s->cols[AGG_SESSION_END(cfg)].data;
    sl_buf_t key = SL_BUF_INIT, val = SL_BUF_INIT;
    int rc = 0;
    for (uint32_t i = 0; i < nstored && rc == 0; i++) {
        if (start[i] == ss->start[ss->sid[i]]) continue;
        sl_buf_clear(&key);
        exec_key_encode(e, i, kcols, cfg->nkeys, &key);
        rc = store_delete(run->store, key.data, key.len, err) < 0 ? -1 : 0;
    }
    for (uint32_t r = 0; r < s->nrows && rc == 0; r++) {
        sl_buf_clear(&key);
        sl_buf_clear(&val);
        exec_key_encode(s, r, kcols, cfg->nkeys, &key);
        put_be64(&val, end[r]);
        exec_row_encode(s, r, vcols, cfg->nbuf, &val);
        rc = store_put(run->store, key.data, key.len, val.data, val.len, err);
    }
    sl_buf_free(&key);
    sl_buf_free(&val);
    return rc;
}

static int merge_batch(op_t *op, sl_error_t *err)
{
    uint32_t *group, nstored;
    exec_batch_t *e = gather_entries(op, &group, &nstored, err);
    if (!e) return -1;
    exec_sessions_t ss;
    exec_batch_t *s = agg_session_merge(op, e, group, &ss, err);
    return s ? save_sessions(op, e, nstored, &ss, s, err) : -1;
}

/* ---- scans of the whole state ---- */

/* Emits the sessions gathered so far (if any) and restarts the builder. */
static int flush(op_t *op, exec_builder_t *bld, bool *started, sl_error_t *err)
{
    if (!*started) return 0;
    *started = false;
    return agg_session_emit(op, exec_builder_finish(bld), err);
}

/* Emits every session (evict: only those whose end <= wm_us, deleting them). */
static int scan_sessions(op_t *op, bool evict, int64_t wm_us, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    agg_run_t *run = op->state;
    store_iter_t *it = store_iter_range(run->store, NULL, 0, NULL, 0, err);
    if (!it) return -1;
    exec_builder_t bld;
    bool started = false;
    const void *k, *v;
    size_t kl, vl;
    int rc;
    while ((rc = store_iter_next(it, &k, &kl, &v, &vl, err)) == 1) {
        if (vl < 8) {
            rc = corrupt(err);
            break;
        }
        if (evict && get_be64(v) > wm_us) continue;
        if (!started)
            exec_builder_init(&bld, op->ctx->arena, AGG_SESSION_BUF(cfg) + cfg->nbuf,
                              agg_session_entry_types(cfg, op->ctx->arena), 64);
        started = true;
        if (decode_entry(cfg, &bld, k, kl, v, vl, err) < 0 ||
            (evict && store_delete(run->store, k, kl, err) < 0) ||
            (bld.batch->nrows >= EXEC_BATCH_ROWS && flush(op, &bld, &started, err) < 0)) {
            rc = -1;
            break;
        }
    }
    store_iter_close(it);
    if (rc != 0) return -1;
    return flush(op, &bld, &started, err);
}

static int session_stream_finish(op_t *op, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    agg_run_t *run = op->state;
    if (!run->streaming)
        return agg_session_finish_batch(op, err); /* a streaming plan run as a batch */
    if (exec_ht_size(run->ht) > 0 && merge_batch(op, err) < 0) return -1;
    if (agg_stream_mode(op) == OUTPUT_COMPLETE) {
        if (scan_sessions(op, false, 0, err) < 0) return -1;
    } else if (cfg->event_key >= 0 && op->wm.evict_ms != INT64_MIN) {
        if (scan_sessions(op, true, op->wm.evict_ms * US_PER_MS, err) < 0) return -1;
    }
    return agg_stream_commit(op, err);
}

const op_ops_t op_agg_session_streaming_ops = {
    .name = "sessionWindowStateStoreSaveExec",
    .stateful = 1,
    .open = agg_stream_open,
    .push = agg_session_push,
    .finish = session_stream_finish,
    .close = agg_stream_close,
    .explain = agg_explain,
    .wants_nodata_batch = session_wants_nodata_batch,
};
