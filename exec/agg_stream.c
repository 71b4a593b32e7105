/* HASH AGGREGATION, streaming phase (Spark's StateStoreRestore +
 * StateStoreSave; operatorName "stateStoreSave").
 *
 * STATE. One store per task = shuffle partition: state/<op_id>/<partition>
 * under ctx->state_dir, provider ctx->state_provider, version
 * ctx->batch_id loaded in open() and version batch_id + 1 committed in
 * finish(). Key: the memcomparable encoding (model/row.h) of the group key
 * with the EVENT-TIME KEY FIRST, so the keys at or before a watermark are
 * a range scan from the start. Value: the row encoding of every call's
 * buffer columns (exec/agg.h), in call order. The key and value schema
 * texts are recorded at the first run (store_schema_check): a restart
 * whose query changed the keys, their names or types, or the aggregates
 * is refused.
 *
 * PER BATCH. push(): rows are PARTIAL buffers (keys + buffer columns).
 * In append and update mode, rows whose event time (TIMESTAMP key) or
 * window end (window key) is at or before op->wm.late_ms are dropped and
 * counted in numRowsDroppedByWatermark; the rest are merged per key into a
 * hash table of this batch's groups. finish(): for each group of the batch
 * one store get and one put (stored buffers merged with the batch's:
 * stored first); then by mode:
 *   APPEND    scan keys up to op->wm.evict_ms; emit the final row of each
 *             whose event time / window end <= it, and delete it.
 *   UPDATE    emit every group updated in this batch (current values),
 *             then delete the keys at or before the eviction watermark
 *             without emitting.
 *   COMPLETE  emit the whole state; never drop or evict.
 * Without an event-time key nothing is dropped or evicted. finish() runs
 * in no-data batches too (the task of every partition runs), so eviction
 * and append output follow a new watermark without input.
 *
 * MEMORY. The batch's groups live in the task arena; rows decoded from the
 * store in the scratch arena (finish runs once per task). The store comes
 * from the query's store cache (exec/store_cache.h) in open() and goes back
 * in close(), staying loaded for the next batch; a batch that fails is
 * re-run from store_load(batch_id), which drops its uncommitted changes. */
#include <string.h>

#include "common/log.h"
#include "exec/agg_int.h"
#include "model/row.h"
#include "exec/store_cache.h"

#define US_PER_MS 1000

/* ---- configuration ---- */

static bool is_window_type(exec_type_t t)
{
    return exec_type_equal(t, exec_type_window());
}

static const char *make_key_schema(sl_arena_t *a, const agg_config_t *cfg)
{
    sl_buf_t b = SL_BUF_INIT;
    for (int j = 0; j < cfg->nkeys; j++) {
        int k = cfg->state_order[j];
        sl_buf_printf(&b, "%s%s ", j ? ", " : "", cfg->key_names[k]);
        exec_type_format(cfg->key_types[k], &b);
    }
    const char *s = sl_strdup(a, b.data ? b.data : "");
    sl_buf_free(&b);
    return s;
}

static const char *make_value_schema(sl_arena_t *a, const agg_config_t *cfg)
{
    sl_buf_t b = SL_BUF_INIT;
    for (int i = 0; i < cfg->naggs; i++) {
        sl_buf_printf(&b, "%s%s AS %s: ", i ? "; " : "", cfg->call_text[i],
                      cfg->spec.names[cfg->nkeys + i]);
        exec_agg_format_buffer(&cfg->aggs[i], &b);
    }
    const char *s = sl_strdup(a, b.data ? b.data : "");
    sl_buf_free(&b);
    return s;
}

int agg_stream_config(sl_arena_t *a, agg_config_t *cfg, int event_key, sl_error_t *err)
{
    if (event_key >= cfg->nkeys || event_key < -1)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "event-time key %d is out of range", event_key);
    if (event_key >= 0) {
        exec_type_t t = cfg->key_types[event_key];
        if (t.id != EXEC_TYPE_TIMESTAMP && !is_window_type(t)) {
            sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                         "event-time key %s must be a timestamp or a window",
                         cfg->key_names[event_key]);
            return sl_error_detail(err, "It is of type %s.", exec_type_text(t, a));
        }
        cfg->event_is_window = t.id != EXEC_TYPE_TIMESTAMP;
    }
    cfg->event_key = event_key;
    cfg->state_order = SL_NEW_ARRAY(a, int, cfg->nkeys + 1);
    int j = 0;
    if (event_key >= 0) cfg->state_order[j++] = event_key;
    for (int k = 0; k < cfg->nkeys; k++)
        if (k != event_key) cfg->state_order[j++] = k;
    cfg->key_schema = make_key_schema(a, cfg);
    cfg->value_schema = make_value_schema(a, cfg);
    return 0;
}

output_mode_t agg_stream_mode(const op_t *op)
{
    const agg_config_t *cfg = op->node->config;
    return cfg->mode ? cfg->mode : op->ctx->mode;
}

int agg_stream_wants_nodata_batch(const exec_pnode_t *node, output_mode_t mode)
{
    const agg_config_t *cfg = node->config;
    if (cfg->mode) mode = cfg->mode;
    return mode != OUTPUT_COMPLETE;
}

int agg_stream_state_schema(const exec_pnode_t *node, int i, const char **name, const char **key,
                            const char **value)
{
    const agg_config_t *cfg = node->config;
    if (i > 0) return 0;
    *name = NULL;
    *key = cfg->key_schema;
    *value = cfg->value_schema;
    return 1;
}

/* ---- open ---- */

/* Records or compares the state schema. Tasks of several partitions may
 * race to write the record at the first run: the loser's write is refused,
 * and its second check reads the winner's record. */
static int check_schema(op_t *op, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    const char *root = op->ctx->state_dir;
    if (store_schema_check(root, op->node->op_id, NULL, cfg->key_schema, cfg->value_schema, err) >=
        0)
        return 0;
    return store_schema_check(root, op->node->op_id, NULL, cfg->key_schema, cfg->value_schema,
                              err) < 0
               ? -1
               : 0;
}

int agg_stream_open(op_t *op, sl_error_t *err)
{
    agg_run_t *run = agg_run_new(op);
    if (!op->ctx->state_dir) return 0;
    run->streaming = 1;
    if (check_schema(op, err) < 0) return -1;
    store_options_t opt = {.provider = op->ctx->state_provider};
    run->store = exec_store_acquire(op, NULL, &opt, err);
    if (!run->store) return -1;
    op->metrics->num_state_store_instances = 1;
    return store_load(run->store, op->ctx->batch_id, err);
}

/* ---- push: late rows, then merge ---- */

/* The event-time vector (µs) of the event key column: the TIMESTAMP itself
 * or the window's end. *outer gets the window struct's own null map. */
static const exec_vec_t *event_vec(const agg_config_t *cfg, const exec_batch_t *b,
                                   const exec_vec_t **outer)
{
    const exec_vec_t *v = &b->cols[cfg->keys[cfg->event_key]];
    *outer = cfg->event_is_window ? v : NULL;
    return cfg->event_is_window ? &v->children[1] : v;
}

/* A copy of b without the rows at or before the late watermark. */
exec_batch_t *agg_stream_drop_late(op_t *op, exec_batch_t *b)
{
    const agg_config_t *cfg = op->node->config;
    sl_arena_t *scratch = op->ctx->ectx->arena;
    int64_t wm_us = op->wm.late_ms * US_PER_MS;
    const exec_vec_t *outer, *et = event_vec(cfg, b, &outer);
    uint32_t n = exec_batch_count(b), m = 0;
    uint32_t *sel = sl_alloc(scratch, sizeof *sel * (n ? n : 1));
    for (uint32_t k = 0; k < n; k++) {
        uint32_t r = exec_batch_row(b, k);
        bool null = (outer && exec_vec_is_null(outer, r)) || exec_vec_is_null(et, r);
        if (null || EXEC_VEC_AT(et, int64_t, r) > wm_us) sel[m++] = r;
    }
    op->metrics->num_rows_dropped_by_watermark += n - m;
    if (m == n) return b;
    exec_batch_t *out = exec_batch_shallow_copy(b, scratch);
    out->sel = sel;
    out->nsel = m;
    return out;
}

static bool filters_late(const op_t *op)
{
    const agg_config_t *cfg = op->node->config;
    return cfg->event_key >= 0 && agg_stream_mode(op) != OUTPUT_COMPLETE &&
           op->wm.late_ms != INT64_MIN;
}

int agg_stream_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    (void)input;
    const agg_config_t *cfg = op->node->config;
    agg_run_t *run = op->state;
    op->metrics->rows_in += exec_batch_count(b);
    if (run->streaming && filters_late(op)) b = agg_stream_drop_late(op, b);
    if (exec_batch_count(b) == 0) return 0;
    uint32_t *gids = agg_group_ids(op, b, cfg->keys);
    return agg_merge_batch(op, b, gids, err);
}

/* ---- finish: save the batch's groups ---- */

/* Encodes the state keys of groups 0..n-1 into one buffer; offs[g]..offs[g+1]. */
static size_t *encode_keys(op_t *op, const exec_batch_t *keys, uint32_t n, sl_buf_t *kb)
{
    const agg_config_t *cfg = op->node->config;
    size_t *offs = sl_alloc(op->ctx->ectx->arena, sizeof *offs * (n + 1));
    for (uint32_t g = 0; g < n; g++) {
        offs[g] = kb->len;
        exec_key_encode(keys, g, cfg->state_order, cfg->nkeys, kb);
    }
    offs[n] = kb->len;
    return offs;
}

/* The stored buffers of the groups that have any, decoded into a batch;
 * gmap[row] = the group of each decoded row. */
static exec_batch_t *load_stored(op_t *op, const sl_buf_t *kb, const size_t *offs, uint32_t n,
                                 uint32_t **gmap, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    agg_run_t *run = op->state;
    sl_arena_t *scratch = op->ctx->ectx->arena;
    exec_builder_t bld;
    exec_builder_init(&bld, scratch, cfg->nbuf, cfg->buf_types, 64);
    *gmap = sl_alloc(scratch, sizeof **gmap * (n + 1));
    for (uint32_t g = 0; g < n; g++) {
        const void *val;
        size_t vlen;
        int rc = store_get(run->store, kb->data + offs[g], offs[g + 1] - offs[g], &val, &vlen, err);
        if (rc < 0) return NULL;
        if (rc == 0) continue;
        uint32_t row = exec_builder_add_row(&bld);
        if (exec_row_decode(val, vlen, &bld, row, 0, cfg->nbuf, err) < 0) return NULL;
        (*gmap)[row] = g;
    }
    return exec_builder_finish(&bld);
}

/* Fresh buffers = stored (older) merged with this batch's (newer). */
static exec_agg_state_t *merge_with_stored(op_t *op, const exec_batch_t *old, const uint32_t *gmap,
                                           uint32_t n, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    agg_run_t *run = op->state;
    exec_agg_state_t *s = agg_states_new(cfg, op->ctx->arena);
    uint32_t *ident = sl_alloc(op->ctx->ectx->arena, sizeof *ident * (n + 1));
    for (uint32_t g = 0; g < n; g++) ident[g] = g;
    exec_vec_t *now = agg_state_bufs(cfg, run->st, op->ctx->ectx->arena);
    for (int i = 0; i < cfg->naggs; i++) {
        const exec_agg_t *f = &cfg->aggs[i];
        exec_agg_state_resize(f, &s[i], n);
        if (exec_agg_merge(f, &s[i], &old->cols[cfg->buf_off[i]], NULL, old->nrows, gmap, err) <
                0 ||
            exec_agg_merge(f, &s[i], &now[cfg->buf_off[i]], NULL, n, ident, err) < 0)
            return NULL;
    }
    return s;
}

static int put_groups(op_t *op, const sl_buf_t *kb, const size_t *offs, exec_vec_t *bufs,
                      uint32_t n, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    agg_run_t *run = op->state;
    exec_batch_t vb = {.ncols = cfg->nbuf, .cols = bufs, .nrows = n};
    int *cols = sl_alloc(op->ctx->ectx->arena, sizeof *cols * (cfg->nbuf + 1));
    for (int j = 0; j < cfg->nbuf; j++) cols[j] = j;
    sl_buf_t val = SL_BUF_INIT;
    int rc = 0;
    for (uint32_t g = 0; g < n && rc == 0; g++) {
        sl_buf_clear(&val);
        exec_row_encode(&vb, g, cols, cfg->nbuf, &val);
        rc = store_put(run->store, kb->data + offs[g], offs[g + 1] - offs[g],
                       val.data ? val.data : "", val.len, err);
    }
    sl_buf_free(&val);
    return rc;
}

/* One get and one put per group of the batch; emits them in update mode. */
static int save_groups(op_t *op, bool emit, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    agg_run_t *run = op->state;
    uint32_t n = cfg->nkeys ? exec_ht_size(run->ht) : run->st[0].n;
    if (n == 0) return 0;
    exec_batch_t *keys = exec_ht_keys(run->ht, op->ctx->arena);
    sl_buf_t kb = SL_BUF_INIT;
    size_t *offs = encode_keys(op, keys, n, &kb);
    uint32_t *gmap;
    exec_batch_t *old = load_stored(op, &kb, offs, n, &gmap, err);
    exec_agg_state_t *s = old ? merge_with_stored(op, old, gmap, n, err) : NULL;
    exec_vec_t *bufs = s ? agg_state_bufs(cfg, s, op->ctx->arena) : NULL;
    int rc = bufs ? put_groups(op, &kb, offs, bufs, n, err) : -1;
    sl_buf_free(&kb);
    if (rc == 0 && emit) rc = agg_emit_final(op, keys->cols, bufs, n, err);
    return rc;
}

/* ---- finish: scans of the state (eviction, complete output) ---- */

static int64_t read_be64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    return (int64_t)(v ^ (UINT64_C(1) << 63));
}

/* The event time (µs) a state key starts with: the TIMESTAMP, or the end
 * of the window (STRUCT marker, start marker + 8 bytes, end marker + 8
 * bytes). False when it is NULL or the key is too short. */
static bool key_event_time(const agg_config_t *cfg, const unsigned char *k, size_t n, int64_t *out)
{
    if (!cfg->event_is_window) {
        if (n < 9 || k[0] != 1) return false;
        *out = read_be64(k + 1);
        return true;
    }
    if (n < 19 || k[0] != 1 || k[10] != 1) return false;
    *out = read_be64(k + 11);
    return true;
}

/* Rows decoded from the state: [keys in state order | buffers]. */
typedef struct scan_out {
    exec_builder_t bld;
    bool started;
} scan_out_t;

static int scan_flush(op_t *op, scan_out_t *so, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    if (!so->started) return 0;
    exec_batch_t *e = exec_builder_finish(&so->bld);
    so->started = false;
    exec_vec_t *keys = SL_NEW_ARRAY(op->ctx->arena, exec_vec_t, cfg->nkeys + 1);
    for (int j = 0; j < cfg->nkeys; j++) keys[cfg->state_order[j]] = e->cols[j];
    return agg_emit_final(op, keys, &e->cols[cfg->nkeys], e->nrows, err);
}

static int scan_add(op_t *op, scan_out_t *so, const void *k, size_t kl, const void *v, size_t vl,
                    sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    if (!so->started) {
        int nc = cfg->nkeys + cfg->nbuf;
        exec_type_t *t = SL_NEW_ARRAY(op->ctx->arena, exec_type_t, nc + 1);
        for (int j = 0; j < cfg->nkeys; j++) t[j] = cfg->key_types[cfg->state_order[j]];
        for (int j = 0; j < cfg->nbuf; j++) t[cfg->nkeys + j] = cfg->buf_types[j];
        exec_builder_init(&so->bld, op->ctx->arena, nc, t, EXEC_BATCH_ROWS);
        so->started = true;
    }
    uint32_t row = exec_builder_add_row(&so->bld);
    size_t used;
    if (exec_key_decode(k, kl, &so->bld, row, 0, cfg->nkeys, &used, err) < 0 ||
        exec_row_decode(v, vl, &so->bld, row, cfg->nkeys, cfg->nbuf, err) < 0)
        return -1;
    return so->bld.batch->nrows >= EXEC_BATCH_ROWS ? scan_flush(op, so, err) : 0;
}

/* Walks the keys in [lo, hi): with `evict`, only those whose event time is
 * at or before wm_us, deleting them; with `emit`, emitting their rows. */
static int scan_state(op_t *op, const sl_buf_t *lo, const sl_buf_t *hi, bool evict, int64_t wm_us,
                      bool emit, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    agg_run_t *run = op->state;
    store_iter_t *it = store_iter_range(run->store, lo ? lo->data : NULL, lo ? lo->len : 0,
                                        hi ? hi->data : NULL, hi ? hi->len : 0, err);
    if (!it) return -1;
    scan_out_t so = {.started = false};
    const void *k, *v;
    size_t kl, vl;
    int rc;
    while ((rc = store_iter_next(it, &k, &kl, &v, &vl, err)) == 1) {
        int64_t et;
        if (evict && !(key_event_time(cfg, k, kl, &et) && et <= wm_us)) continue;
        if (emit && scan_add(op, &so, k, kl, v, vl, err) < 0) break;
        if (evict && store_delete(run->store, k, kl, err) < 0) break;
    }
    store_iter_close(it);
    if (rc != 0) return -1;
    return scan_flush(op, &so, err);
}

/* Deletes (and in append mode emits) the keys at or before the eviction
 * watermark: a range scan from the first non-NULL event time up to it. */
static int evict(op_t *op, bool emit, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    int64_t wm_us = op->wm.evict_ms * US_PER_MS;
    sl_buf_t lo = SL_BUF_INIT, hi = SL_BUF_INIT;
    sl_buf_putc(&lo, 1);
    exec_value_t bound;
    if (cfg->event_is_window) {
        sl_buf_putc(&hi, 1); /* window end <= wm implies start < wm */
        bound = exec_value_timestamp(wm_us);
    } else {
        bound = exec_value_timestamp(wm_us + 1); /* event time <= wm */
    }
    exec_key_encode_value(&bound, &hi);
    int rc = scan_state(op, &lo, &hi, true, wm_us, emit, err);
    sl_buf_free(&lo);
    sl_buf_free(&hi);
    return rc;
}

static void fill_metrics(op_t *op)
{
    agg_run_t *run = op->state;
    store_metrics_t m;
    store_metrics(run->store, &m);
    op_metrics_t *om = op->metrics;
    om->num_rows_total = m.num_keys;
    om->num_rows_updated = m.num_rows_updated;
    om->num_rows_removed = m.num_rows_removed;
    om->memory_used_bytes = m.memory_used_bytes + (int64_t)exec_ht_memory(run->ht);
    om->commit_time_ms = m.commit_time_ms;
    om->all_updates_time_ms = m.all_updates_time_ms;
    om->all_removals_time_ms = m.all_removals_time_ms;
    for (int i = 0; i < m.ncustom; i++) op_metric_set(om, m.custom[i].name, m.custom[i].value);
}

int agg_stream_finish(op_t *op, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    agg_run_t *run = op->state;
    if (!run->streaming) { /* a streaming plan run as a batch: FINAL */
        uint32_t n = cfg->nkeys ? exec_ht_size(run->ht) : run->st[0].n;
        if (cfg->nkeys == 0 && n == 0) {
            for (int i = 0; i < cfg->naggs; i++)
                exec_agg_state_resize(&cfg->aggs[i], &run->st[i], 1);
            n = 1; /* one row even without input */
        }
        if (n == 0) return 0;
        exec_batch_t *keys = exec_ht_keys(run->ht, op->ctx->arena);
        return agg_emit_final(op, keys->cols, agg_state_bufs(cfg, run->st, op->ctx->arena), n, err);
    }
    output_mode_t mode = agg_stream_mode(op);
    if (save_groups(op, mode == OUTPUT_UPDATE, err) < 0) return -1;
    if (cfg->event_key >= 0 && mode != OUTPUT_COMPLETE && op->wm.evict_ms != INT64_MIN &&
        evict(op, mode == OUTPUT_APPEND, err) < 0)
        return -1;
    if (mode == OUTPUT_COMPLETE && scan_state(op, NULL, NULL, false, 0, true, err) < 0) return -1;
    return agg_stream_commit(op, err);
}

int agg_stream_commit(op_t *op, sl_error_t *err)
{
    agg_run_t *run = op->state;
    if (store_commit(run->store, err) < 0) return -1;
    fill_metrics(op);
    sl_error_t merr;
    if (store_maintenance(run->store, &merr) < 0)
        SL_WARN("exec", "state maintenance of operator %d partition %d failed: %s", op->node->op_id,
                op->ctx->partition, merr.message);
    return 0;
}

void agg_stream_close(op_t *op)
{
    agg_run_t *run = op->state;
    if (run) exec_store_release(op, run->store);
}
