/* DEDUPLICATE (Spark's StreamingDeduplicateExec and
 * StreamingDeduplicateWithinWatermarkExec; batch DISTINCT ON).
 *
 * Output is always a shallow copy of the pushed batch with a narrower
 * selection: kept rows are never copied, and keep their input order.
 *
 * BATCH: an exec_ht_t over the key columns in the task arena; a row is new
 * when its key got the next fresh id (ids are handed out in row order), so
 * exactly the first row of each key in input order is kept.
 *
 * STREAMING (ctx->state_dir set): store state/<op_id>/<partition>.
 *   key   = memcomparable key columns (exec_key_encode), the evict_key
 *           column first so that eviction is a range scan;
 *   value = empty (dedupe), or be64(expiry µs, sign-flipped) where expiry =
 *           the first occurrence's event time + delay (within watermark;
 *           never extended by later duplicates).
 * push(): a row whose event time <= wm_late is dropped and counted
 * (num_rows_dropped_by_watermark); else a key present in the store drops
 * the row (custom metric numDroppedDuplicateRows), an absent one is put and
 * the row kept — so duplicates within one batch drop too.
 * finish(): with an eviction watermark, dedupe removes keys whose event-time
 * key (TIMESTAMP, or a window's end) <= wm_evict by a range scan;
 * dedupeWithinWatermark scans every key and removes those whose expiry <=
 * wm_evict (the expiry is not part of the key). Then commits version
 * batch_id + 1. NULL event times are never late and never expire. */
#include "exec/op_dedup.h"

#include <string.h>

#include "exec/hashtable.h"
#include "exec/op_join_util.h"
#include "model/row.h"

typedef struct dd_config {
    int nkeys;
    int *keys; /* state key order: evict key first */
    int *orig_keys;
    int time_col, time_field;
    int evict_key;      /* index into orig_keys, -1 */
    int key_time_field; /* of the evict key column */
    int within_watermark;
    int64_t delay_ms;
    const char *key_schema, *value_schema;
} dd_config_t;

typedef struct dd_state {
    exec_ht_t *ht;  /* batch mode */
    store_t *store; /* streaming */
    sl_buf_t key;   /* encoder (heap; freed in close) */
    int64_t dropped_dups;
} dd_state_t;

static int dd_open(op_t *op, sl_error_t *err)
{
    const dd_config_t *cfg = op->node->config;
    dd_state_t *st = SL_NEW(op->ctx->arena, dd_state_t);
    op->state = st;
    if (!op->ctx->state_dir) {
        exec_type_t *types = SL_NEW_ARRAY(op->ctx->arena, exec_type_t, cfg->nkeys);
        for (int i = 0; i < cfg->nkeys; i++) types[i] = op->node->types[cfg->keys[i]];
        st->ht = exec_ht_new(op->ctx->arena, cfg->nkeys, types, 0);
        return 0;
    }
    st->store = op_join_store_open(op, NULL, cfg->key_schema, cfg->value_schema, err);
    return st->store ? 0 : -1;
}

static void dd_close(op_t *op)
{
    dd_state_t *st = op->state;
    if (!st) return;
    op_join_store_release(op, st->store);
    sl_buf_free(&st->key);
}

/* True when the row is late (counted). */
static bool dd_late(op_t *op, const exec_batch_t *b, uint32_t row, int64_t *us, bool *has_time)
{
    const dd_config_t *cfg = op->node->config;
    *has_time =
        cfg->time_col >= 0 && op_join_event_time(&b->cols[cfg->time_col], cfg->time_field, row, us);
    if (!*has_time || !op_join_at_or_before(*us, op->wm.late_ms)) return false;
    op->metrics->num_rows_dropped_by_watermark++;
    return true;
}

/* BATCH: the rows of b whose key is new, in order. */
static uint32_t dd_batch_keep(op_t *op, const exec_batch_t *b, uint32_t *keep)
{
    const dd_config_t *cfg = op->node->config;
    dd_state_t *st = op->state;
    sl_arena_t *scratch = op->ctx->ectx->arena;
    uint32_t n = exec_batch_count(b), m = 0, nn = b->nrows ? b->nrows : 1;
    uint64_t *hashes = sl_alloc(scratch, sizeof *hashes * nn);
    uint32_t *ids = sl_alloc(scratch, sizeof *ids * nn);
    uint32_t next = exec_ht_size(st->ht);
    exec_hash_rows(b, cfg->keys, cfg->nkeys, hashes);
    exec_ht_upsert(st->ht, b, cfg->keys, hashes, ids);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = exec_batch_row(b, k);
        if (ids[row] == next) {
            keep[m++] = row;
            next++;
        } else {
            st->dropped_dups++;
        }
    }
    return m;
}

/* STREAMING: 1 when the row's key is new (and now stored), 0 when not. */
static int dd_stream_row(op_t *op, const exec_batch_t *b, uint32_t row, int64_t us, bool has_time,
                         sl_error_t *err)
{
    const dd_config_t *cfg = op->node->config;
    dd_state_t *st = op->state;
    sl_buf_clear(&st->key);
    exec_key_encode(b, row, cfg->keys, cfg->nkeys, &st->key);
    const void *v;
    size_t vlen;
    int rc = store_get(st->store, st->key.data, st->key.len, &v, &vlen, err);
    if (rc != 0) {
        if (rc > 0) st->dropped_dups++;
        return rc > 0 ? 0 : -1;
    }
    unsigned char val[8];
    size_t n = 0;
    if (cfg->within_watermark) {
        int64_t expiry = has_time ? us + cfg->delay_ms * 1000 : INT64_MAX;
        uint64_t e = op_join_time_key(expiry);
        for (int i = 0; i < 8; i++) val[i] = (unsigned char)(e >> (56 - 8 * i));
        n = 8;
    }
    return store_put(st->store, st->key.data, st->key.len, val, n, err) < 0 ? -1 : 1;
}

static int dd_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    (void)input;
    dd_state_t *st = op->state;
    uint32_t n = exec_batch_count(b), m = 0;
    op->metrics->rows_in += n;
    sl_arena_t *scratch = op->ctx->ectx->arena;
    uint32_t *keep = sl_alloc(scratch, sizeof *keep * (n ? n : 1));
    if (st->ht) {
        m = dd_batch_keep(op, b, keep);
    } else {
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = exec_batch_row(b, k);
            int64_t us = 0;
            bool has_time;
            if (dd_late(op, b, row, &us, &has_time)) continue;
            int rc = dd_stream_row(op, b, row, us, has_time, err);
            if (rc < 0) return -1;
            if (rc) keep[m++] = row;
        }
    }
    exec_batch_t *out = exec_batch_shallow_copy(b, scratch);
    out->sel = keep;
    out->nsel = m;
    return op_emit(op, out, err);
}

/* dropDuplicatesWithinWatermark: removes keys whose expiry <= bound. */
static int dd_evict_expired(dd_state_t *st, int64_t bound_us, sl_error_t *err)
{
    store_iter_t *it = store_iter_range(st->store, NULL, 0, NULL, 0, err);
    if (!it) return -1;
    const void *k, *v;
    size_t klen, vlen;
    int rc;
    while ((rc = store_iter_next(it, &k, &klen, &v, &vlen, err)) > 0) {
        if (vlen != 8) continue;
        int64_t expiry = (int64_t)(op_join_get_be64(v) ^ (UINT64_C(1) << 63));
        if (expiry <= bound_us && (rc = store_delete(st->store, k, klen, err)) < 0) break;
    }
    store_iter_close(it);
    return rc < 0 ? -1 : 0;
}

static int dd_finish(op_t *op, sl_error_t *err)
{
    const dd_config_t *cfg = op->node->config;
    dd_state_t *st = op->state;
    op_metric_set(op->metrics, "numDroppedDuplicateRows", st->dropped_dups);
    if (!st->store) return 0;
    int64_t wm = op->wm.evict_ms;
    if (wm != INT64_MIN && cfg->within_watermark && dd_evict_expired(st, wm * 1000, err) < 0)
        return -1;
    if (wm != INT64_MIN && !cfg->within_watermark && cfg->evict_key >= 0 &&
        op_join_evict_by_key_time(st->store, cfg->key_time_field, wm * 1000, NULL, NULL, err) < 0)
        return -1;
    return op_join_store_commit(op, &st->store, 1, 1, err);
}

static void dd_explain(const exec_pnode_t *node, sl_buf_t *out)
{
    const dd_config_t *cfg = node->config;
    sl_buf_puts(out, " on (");
    for (int i = 0; i < cfg->nkeys; i++)
        sl_buf_printf(out, "%s%s", i ? ", " : "", node->names[cfg->orig_keys[i]]);
    sl_buf_putc(out, ')');
    if (cfg->within_watermark)
        sl_buf_printf(out, " within watermark on %s delay %lld ms", node->names[cfg->time_col],
                      (long long)cfg->delay_ms);
    else if (cfg->evict_key >= 0)
        sl_buf_printf(out, " state evicted by %s <= watermark",
                      node->names[cfg->orig_keys[cfg->evict_key]]);
}

/* Always, as Spark: the next batch's late-row bound moves up too. */
static int dd_wants_nodata_batch(const exec_pnode_t *node, output_mode_t mode)
{
    (void)node, (void)mode;
    return 1;
}

static int dd_state_schema(const exec_pnode_t *node, int i, const char **name, const char **key,
                           const char **value)
{
    const dd_config_t *cfg = node->config;
    if (i > 0) return 0;
    *name = NULL;
    *key = cfg->key_schema;
    *value = cfg->value_schema;
    return 1;
}

const op_ops_t op_dedup_ops = {
    .name = "dedupe",
    .stateful = 1,
    .open = dd_open,
    .push = dd_push,
    .finish = dd_finish,
    .close = dd_close,
    .explain = dd_explain,
    .wants_nodata_batch = dd_wants_nodata_batch,
    .state_schema = dd_state_schema,
};

const op_ops_t op_dedup_within_wm_ops = {
    .name = "dedupeWithinWatermark",
    .stateful = 1,
    .open = dd_open,
    .push = dd_push,
    .finish = dd_finish,
    .close = dd_close,
    .explain = dd_explain,
    .wants_nodata_batch = dd_wants_nodata_batch,
    .state_schema = dd_state_schema,
};

static int dd_check(const exec_pnode_t *child, const op_dedup_spec_t *sp, dd_config_t *cfg,
                    sl_error_t *err)
{
    if (sp->nkeys < 1)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "DISTINCT ON needs a key");
    for (int i = 0; i < sp->nkeys; i++)
        if (sp->keys[i] < 0 || sp->keys[i] >= child->ncols)
            return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                                "DISTINCT ON key %d names no column", i + 1);
    if (sp->evict_key >= sp->nkeys || (sp->within_watermark && sp->time_col < 0))
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "deduplication eviction needs an event-time column");
    cfg->time_field = -1;
    if (sp->time_col >= child->ncols) cfg->time_field = -2;
    else if (sp->time_col >= 0) cfg->time_field = op_join_time_field(child->types[sp->time_col]);
    cfg->key_time_field =
        sp->evict_key >= 0 ? op_join_key_time_field(child->types[sp->keys[sp->evict_key]]) : -1;
    if (cfg->time_field == -2 || cfg->key_time_field == -2)
        return sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                            "event-time column of a deduplication must be a timestamp or a window");
    return 0;
}

exec_pnode_t *op_dedup_plan(sl_arena_t *a, exec_pnode_t *child, const op_dedup_spec_t *spec,
                            sl_error_t *err)
{
    dd_config_t *cfg = SL_NEW(a, dd_config_t);
    if (dd_check(child, spec, cfg, err) < 0) return NULL;
    cfg->nkeys = spec->nkeys;
    cfg->orig_keys = op_join_copy_ints(a, spec->keys, spec->nkeys);
    cfg->keys = SL_NEW_ARRAY(a, int, spec->nkeys);
    int j = 0;
    if (spec->evict_key >= 0) cfg->keys[j++] = spec->keys[spec->evict_key];
    for (int i = 0; i < spec->nkeys; i++)
        if (i != spec->evict_key) cfg->keys[j++] = spec->keys[i];
    cfg->time_col = spec->time_col;
    cfg->evict_key = spec->evict_key;
    cfg->within_watermark = spec->within_watermark;
    cfg->delay_ms = spec->delay_ms;
    cfg->key_schema = op_join_schema_text(a, child, cfg->keys, cfg->nkeys);
    cfg->value_schema = spec->within_watermark ? "expires_at TIMESTAMP" : "";
    const op_ops_t *ops = spec->within_watermark ? &op_dedup_within_wm_ops : &op_dedup_ops;
    exec_pnode_t *n = exec_pnode_new(a, ops, child->ncols, cfg);
    exec_pnode_set_schema(a, n, child->names, child->types);
    n->nchildren = 1;
    n->children[0] = child;
    n->op_id = spec->op_id;
    return n;
}
