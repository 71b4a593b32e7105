/* STREAM-STREAM JOIN (Spark's StreamingSymmetricHashJoinExec, operatorName
 * "symmetricHashJoin"): both inputs buffered in state, each new row joined
 * with the other side's state; append mode only.
 *
 * STATE (per partition; store names under state/<op>/<part>/):
 *   "left", "right"   one multimap per side. Key = memcomparable join key
 *                     (exec_key_encode; the evict_key column first so that
 *                     key-based eviction is a range scan) + be64(batch id)
 *                     + be32(sequence number within the batch and task), so
 *                     a prefix scan on the join key returns a key's rows in
 *                     arrival order. Value = matched flag byte (1 once the
 *                     row joined) + exec_row_encode of the side's columns.
 *   "left_time", "right_time"  only for a side with value-based eviction:
 *                     key = be64(sign-flipped event time) + the row's key,
 *                     value empty; eviction scans it up to the bound.
 *
 * push(input s): drops late rows (event time <= op->wm.late_ms, counted); a row
 * with a NULL key never matches: emitted at once null-extended when side s
 * is preserved, dropped otherwise. Every other row prefix-scans the other
 * side's store, decoding candidates into a builder of EXEC_BATCH_ROWS rows
 * in scratch memory; an op_join_emit_t pairs them with the row, applies the
 * residual and marks matches; matched flags of stored rows of a preserved
 * side are written back. Then each row is stored with its own flag. Rows
 * are stored even when already past their eviction bound: a row of the
 * other side later in this micro-batch (the stage pushes input 0 before
 * input 1) may still match it; finish() removes it.
 *
 * finish(): with an eviction watermark W = op->wm.evict_ms, removes state —
 * key-based (join key time, a TIMESTAMP or a window's end, <= W, both
 * sides) or value-based per side (event time <= W + bound, the side's state
 * watermark) — emitting the unmatched removed rows of a preserved side
 * null-extended (decoded into a private arena, output built in scratch and
 * reset per batch). Then commits every store (version batch_id + 1) and
 * fills the metrics; numRowsUpdated counts the rows stored, as Spark's.
 *
 * OUTPUT WATERMARK: a joined or null-extended row is no older than the
 * state it came from, so operators above the join get the smaller of the
 * input watermark and the sides' value-based state watermarks. */
#include <string.h>

#include "exec/op_join.h"
#include "exec/op_join_util.h"
#include "model/row.h"
#include "model/text_io.h"

static const char *const SIDE_NAME[2] = {"left", "right"};
static const char *const TIME_NAME[2] = {"left_time", "right_time"};

typedef struct sj_config {
    op_join_type_t type;
    int nkeys;
    int *keys[2];       /* key columns per side, evict key first */
    int *orig_keys[2];  /* as the planner gave them (EXPLAIN) */
    int *all_cols[2];   /* 0 .. ncols-1 of each side (row encoding) */
    int evict_key;      /* index into orig keys, -1 none */
    int key_time_field; /* evict key: -1 TIMESTAMP, else the window's end field */
    int time_col[2];    /* event-time column per side, -1 none */
    int time_field[2];  /* -1 TIMESTAMP, else the end field of a window */
    int has_bound[2];
    int64_t bound_ms[2];
    int preserved[2];
    const exec_expr_t *residual;
    exec_prog_t *prog;
    char *key_schema[2], *value_schema[2], *time_schema[2];
} sj_config_t;

/* Decoded rows of the other side, being paired with this side's rows. */
typedef struct sj_cands {
    exec_builder_t bld; /* EXEC_BATCH_ROWS rows at most */
    int started;
    uint8_t *matched; /* per decoded row: joined (set by the emitter) */
    uint8_t **keys;   /* per decoded row: copy of its store key (preserved side) */
    uint32_t *klens;
    uint8_t **vals; /* per decoded row: copy of its value */
    uint32_t *vlens;
} sj_cands_t;

typedef struct sj_state {
    store_t *rows[2];       /* "left", "right" */
    store_t *times[2];      /* "left_time", "right_time" or NULL */
    uint32_t seq[2];        /* next sequence number per side */
    int64_t appended;       /* rows stored in this batch (numRowsUpdated) */
    op_join_emit_t emit[2]; /* for input s: a = side s, b = the other side */
    sl_buf_t key, val;      /* encoders (heap; freed in close) */
    sj_cands_t cands;
    sl_arena_t *tmp; /* finish(): decoded evicted rows */
} sj_state_t;

/* ---- open / close ------------------------------------------------------- */

static int sj_open_stores(op_t *op, sj_state_t *st, sl_error_t *err)
{
    const sj_config_t *cfg = op->node->config;
    for (int s = 0; s < 2; s++) {
        st->rows[s] =
            op_join_store_open(op, SIDE_NAME[s], cfg->key_schema[s], cfg->value_schema[s], err);
        if (!st->rows[s]) return -1;
    }
    for (int s = 0; s < 2; s++) {
        if (!cfg->has_bound[s] || cfg->evict_key >= 0) continue;
        st->times[s] = op_join_store_open(op, TIME_NAME[s], cfg->time_schema[s], "", err);
        if (!st->times[s]) return -1;
    }
    return 0;
}

static int sj_open(op_t *op, sl_error_t *err)
{
    const sj_config_t *cfg = op->node->config;
    sj_state_t *st = SL_NEW(op->ctx->arena, sj_state_t);
    op->state = st;
    if (!op->ctx->state_dir)
        return sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                            "stream-stream join needs a state directory");
    for (int s = 0; s < 2; s++) {
        const exec_pnode_t *me = op->node->children[s], *other = op->node->children[1 - s];
        op_join_emit_init(&st->emit[s], op, cfg->prog, s == 0, me->ncols, me->types, other->ncols,
                          other->types);
    }
    return sj_open_stores(op, st, err);
}

static void sj_close(op_t *op)
{
    sj_state_t *st = op->state;
    if (!st) return;
    for (int s = 0; s < 2; s++) {
        op_join_store_release(op, st->rows[s]);
        op_join_store_release(op, st->times[s]);
    }
    sl_buf_free(&st->key);
    sl_buf_free(&st->val);
    sl_arena_free(st->tmp);
}

/* ---- push: joining with the other side's state -------------------------- */

static void cands_start(op_t *op, sj_cands_t *c, int other)
{
    sl_arena_t *scratch = op->ctx->ectx->arena;
    const exec_pnode_t *n = op->node->children[other];
    exec_builder_init(&c->bld, scratch, n->ncols, n->types, EXEC_BATCH_ROWS);
    c->matched = sl_alloc0(scratch, EXEC_BATCH_ROWS);
    c->keys = SL_NEW_ARRAY(scratch, uint8_t *, EXEC_BATCH_ROWS);
    c->klens = SL_NEW_ARRAY(scratch, uint32_t, EXEC_BATCH_ROWS);
    c->vals = SL_NEW_ARRAY(scratch, uint8_t *, EXEC_BATCH_ROWS);
    c->vlens = SL_NEW_ARRAY(scratch, uint32_t, EXEC_BATCH_ROWS);
    c->started = 1;
}

/* Rewrites the flag of stored rows of the other side that joined now. */
static int cands_write_back(op_t *op, sj_state_t *st, int other, sl_error_t *err)
{
    sj_cands_t *c = &st->cands;
    uint32_t n = c->bld.batch->nrows;
    for (uint32_t i = 0; i < n; i++) {
        if (!c->matched[i] || !c->vals[i] || c->vals[i][0]) continue;
        c->vals[i][0] = 1;
        if (store_put(st->rows[other], c->keys[i], c->klens[i], c->vals[i], c->vlens[i], err) < 0)
            return -1;
    }
    (void)op;
    return 0;
}

/* Emits the pending pairs and writes matched flags back; the candidates
 * builder starts over at the next candidate. */
static int cands_flush(op_t *op, sj_state_t *st, int s, sl_error_t *err)
{
    if (!st->cands.started) return 0;
    if (op_join_emit_flush(&st->emit[s], err) < 0) return -1;
    if (cands_write_back(op, st, 1 - s, err) < 0) return -1;
    st->cands.started = 0;
    return 0;
}

static uint8_t *copy_bytes(sl_arena_t *a, const void *p, size_t n)
{
    uint8_t *c = sl_alloc(a, n ? n : 1);
    if (n) memcpy(c, p, n);
    return c;
}

/* Decodes one stored row of the other side as a candidate for `row`. */
static int cands_add(op_t *op, sj_state_t *st, int s, uint32_t row, const void *k, size_t klen,
                     const uint8_t *v, size_t vlen, sl_error_t *err)
{
    const sj_config_t *cfg = op->node->config;
    sj_cands_t *c = &st->cands;
    if (c->started && c->bld.batch->nrows == EXEC_BATCH_ROWS && cands_flush(op, st, s, err) < 0)
        return -1;
    if (!c->started) {
        cands_start(op, c, 1 - s);
        st->emit[s].b = c->bld.batch;
        st->emit[s].b_matched = c->matched;
    }
    if (vlen < 1) return sl_error_set(err, SL_ERR_IO_ERROR, "corrupt join state row");
    uint32_t i = exec_builder_add_row(&c->bld);
    if (exec_row_decode(v + 1, vlen - 1, &c->bld, i, 0, c->bld.batch->ncols, err) < 0) return -1;
    if (cfg->preserved[1 - s] && !v[0]) {
        sl_arena_t *scratch = op->ctx->ectx->arena;
        c->keys[i] = copy_bytes(scratch, k, klen);
        c->klens[i] = (uint32_t)klen;
        c->vals[i] = copy_bytes(scratch, v, vlen);
        c->vlens[i] = (uint32_t)vlen;
    }
    return op_join_emit_pair(&st->emit[s], row, i, err);
}

/* Pairs `row` with every stored row of the other side with its key. */
static int sj_probe_row(op_t *op, sj_state_t *st, int s, const exec_batch_t *b, uint32_t row,
                        sl_error_t *err)
{
    const sj_config_t *cfg = op->node->config;
    sl_buf_clear(&st->key);
    exec_key_encode(b, row, cfg->keys[s], cfg->nkeys, &st->key);
    store_iter_t *it = store_iter_prefix(st->rows[1 - s], st->key.data, st->key.len, err);
    if (!it) return -1;
    const void *k, *v;
    size_t klen, vlen;
    int rc;
    while ((rc = store_iter_next(it, &k, &klen, &v, &vlen, err)) > 0)
        if ((rc = cands_add(op, st, s, row, k, klen, v, vlen, err)) < 0) break;
    store_iter_close(it);
    return rc < 0 ? -1 : 0;
}

/* ---- push: storing this side's rows ------------------------------------- */

/* Stores row `row` of side s with its matched flag (and its time index). */
static int sj_store_row(op_t *op, sj_state_t *st, int s, const exec_batch_t *b, uint32_t row,
                        uint8_t matched, sl_error_t *err)
{
    const sj_config_t *cfg = op->node->config;
    sl_buf_clear(&st->key);
    if (st->times[s]) {
        int64_t us;
        if (!op_join_event_time(&b->cols[cfg->time_col[s]], cfg->time_field[s], row, &us))
            us = INT64_MIN;
        op_join_put_be64(&st->key, op_join_time_key(us));
    }
    size_t off = st->key.len;
    exec_key_encode(b, row, cfg->keys[s], cfg->nkeys, &st->key);
    op_join_put_be64(&st->key, (uint64_t)op->ctx->batch_id);
    sl_buf_put_u32be(&st->key, st->seq[s]++);
    sl_buf_clear(&st->val);
    sl_buf_putc(&st->val, (char)matched);
    exec_row_encode(b, row, cfg->all_cols[s], op->node->children[s]->ncols, &st->val);
    if (store_put(st->rows[s], st->key.data + off, st->key.len - off, st->val.data, st->val.len,
                  err) < 0)
        return -1;
    st->appended++;
    /* A NULL event time never passes the bound: no index entry. */
    if (st->times[s] && op_join_get_be64(st->key.data) != op_join_time_key(INT64_MIN))
        return store_put(st->times[s], st->key.data, st->key.len, "", 0, err);
    return 0;
}

/* Sorts the present rows of b into late ones (counted), NULL-key ones and
 * joinable ones (*live, *nlive). Returns the NULL-key rows. */
static uint32_t *sj_classify(op_t *op, int s, const exec_batch_t *b, uint32_t **live,
                             uint32_t *nlive, uint32_t *nnull)
{
    const sj_config_t *cfg = op->node->config;
    sl_arena_t *scratch = op->ctx->ectx->arena;
    uint32_t n = exec_batch_count(b);
    uint32_t *nulls = sl_alloc(scratch, sizeof *nulls * (n ? n : 1));
    *live = sl_alloc(scratch, sizeof **live * (n ? n : 1));
    *nlive = *nnull = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = exec_batch_row(b, k);
        int64_t us;
        if (cfg->time_col[s] >= 0 &&
            op_join_event_time(&b->cols[cfg->time_col[s]], cfg->time_field[s], row, &us) &&
            op_join_at_or_before(us, op->wm.late_ms)) {
            op->metrics->num_rows_dropped_by_watermark++;
            continue;
        }
        if (op_join_any_null(b, row, cfg->keys[s], cfg->nkeys)) nulls[(*nnull)++] = row;
        else (*live)[(*nlive)++] = row;
    }
    return nulls;
}

static int sj_push(op_t *op, int s, exec_batch_t *b, sl_error_t *err)
{
    const sj_config_t *cfg = op->node->config;
    sj_state_t *st = op->state;
    op->metrics->rows_in += exec_batch_count(b);
    uint32_t *live, nlive, nnull;
    uint32_t *nulls = sj_classify(op, s, b, &live, &nlive, &nnull);
    uint8_t *matched = sl_alloc0(op->ctx->ectx->arena, b->nrows ? b->nrows : 1);
    op_join_emit_t *e = &st->emit[s];
    e->a = b;
    e->a_matched = matched;
    st->cands.started = 0;
    for (uint32_t i = 0; i < nlive; i++)
        if (sj_probe_row(op, st, s, b, live[i], err) < 0) return -1;
    if (cands_flush(op, st, s, err) < 0) return -1;
    if (cfg->preserved[s] && op_join_emit_outer(e, 0, nulls, nnull, err) < 0) return -1;
    for (uint32_t i = 0; i < nlive; i++)
        if (sj_store_row(op, st, s, b, live[i], matched[live[i]], err) < 0) return -1;
    e->a = e->b = NULL;
    e->a_matched = e->b_matched = NULL;
    return 0;
}

/* ---- finish: eviction ----------------------------------------------------- */

/* Collects evicted, unmatched rows of side s and emits them null-extended. */
typedef struct sj_outer {
    exec_builder_t bld;
    int started;
} sj_outer_t;

static int outer_flush(op_t *op, sj_state_t *st, int s, sj_outer_t *o, sl_error_t *err)
{
    if (!o->started || o->bld.batch->nrows == 0) return 0;
    exec_batch_t *b = exec_builder_finish(&o->bld);
    o->started = 0;
    uint32_t *rows = sl_alloc(st->tmp, sizeof *rows * b->nrows);
    for (uint32_t i = 0; i < b->nrows; i++) rows[i] = i;
    op_join_emit_t *e = &st->emit[s];
    e->a = b;
    e->b = NULL;
    e->a_matched = e->b_matched = NULL;
    e->reset_after_emit = 1;
    int rc = op_join_emit_outer(e, 0, rows, b->nrows, err);
    e->a = NULL;
    sl_arena_reset(st->tmp);
    (void)op;
    return rc;
}

/* Handles one evicted row: queues it for output when unmatched and its
 * side is preserved. */
static int outer_add(op_t *op, sj_state_t *st, int s, sj_outer_t *o, const uint8_t *v, size_t vlen,
                     sl_error_t *err)
{
    const sj_config_t *cfg = op->node->config;
    if (!cfg->preserved[s]) return 0;
    if (vlen < 1) return sl_error_set(err, SL_ERR_IO_ERROR, "corrupt join state row");
    if (v[0]) return 0;
    if (!o->started) {
        const exec_pnode_t *n = op->node->children[s];
        exec_builder_init(&o->bld, st->tmp, n->ncols, n->types, EXEC_BATCH_ROWS);
        o->started = 1;
    }
    uint32_t i = exec_builder_add_row(&o->bld);
    if (exec_row_decode(v + 1, vlen - 1, &o->bld, i, 0, o->bld.batch->ncols, err) < 0) return -1;
    if (o->bld.batch->nrows == EXEC_BATCH_ROWS) return outer_flush(op, st, s, o, err);
    return 0;
}

typedef struct sj_evict_arg {
    op_t *op;
    sj_state_t *st;
    int s;
    sj_outer_t *o;
} sj_evict_arg_t;

static int evict_key_cb(void *arg, const void *k, size_t klen, const void *v, size_t vlen,
                        sl_error_t *err)
{
    (void)k;
    (void)klen;
    sj_evict_arg_t *ea = arg;
    return outer_add(ea->op, ea->st, ea->s, ea->o, v, vlen, err);
}

/* Key-based eviction of side s: rows whose key time <= the watermark. */
static int evict_by_key(op_t *op, sj_state_t *st, int s, int64_t bound_us, sl_error_t *err)
{
    const sj_config_t *cfg = op->node->config;
    sj_outer_t o = {0};
    sj_evict_arg_t ea = {op, st, s, &o};
    if (op_join_evict_by_key_time(st->rows[s], cfg->key_time_field, bound_us, evict_key_cb, &ea,
                                  err) < 0)
        return -1;
    return outer_flush(op, st, s, &o, err);
}

/* Value-based eviction of side s through its time index. */
static int evict_by_value(op_t *op, sj_state_t *st, int s, int64_t bound_us, sl_error_t *err)
{
    unsigned char hi[8];
    uint64_t t = op_join_time_key(bound_us + 1);
    for (int i = 0; i < 8; i++) hi[i] = (unsigned char)(t >> (56 - 8 * i));
    store_iter_t *it = store_iter_range(st->times[s], NULL, 0, hi, 8, err);
    if (!it) return -1;
    sj_outer_t o = {0};
    const void *k, *v;
    size_t klen, vlen;
    int rc;
    while ((rc = store_iter_next(it, &k, &klen, &v, &vlen, err)) > 0) {
        const uint8_t *rk = (const uint8_t *)k + 8;
        size_t rklen = klen - 8;
        const void *rv;
        size_t rvlen;
        if (klen < 8 || (rc = store_get(st->rows[s], rk, rklen, &rv, &rvlen, err)) < 0) break;
        if (rc == 0) continue; /* defensive: index without row */
        if ((rc = outer_add(op, st, s, &o, rv, rvlen, err)) < 0) break;
        if ((rc = store_delete(st->rows[s], rk, rklen, err)) < 0) break;
    }
    store_iter_close(it);
    if (rc < 0 || store_delete_range(st->times[s], NULL, 0, hi, 8, err) < 0) return -1;
    return outer_flush(op, st, s, &o, err);
}

static int sj_evict(op_t *op, sj_state_t *st, sl_error_t *err)
{
    const sj_config_t *cfg = op->node->config;
    int64_t wm = op->wm.evict_ms;
    if (wm == INT64_MIN) return 0;
    for (int s = 0; s < 2; s++) {
        if (cfg->evict_key >= 0) {
            if (evict_by_key(op, st, s, wm * 1000, err) < 0) return -1;
        } else if (st->times[s]) {
            if (evict_by_value(op, st, s, (wm + cfg->bound_ms[s]) * 1000, err) < 0) return -1;
        }
    }
    return 0;
}

static int sj_finish(op_t *op, sl_error_t *err)
{
    sj_state_t *st = op->state;
    st->tmp = sl_arena_new("join-evict");
    if (sj_evict(op, st, err) < 0) return -1;
    store_t *all[4] = {st->rows[0], st->rows[1]};
    int n = 2;
    for (int s = 0; s < 2; s++)
        if (st->times[s]) all[n++] = st->times[s];
    if (op_join_store_commit(op, all, n, 2, err) < 0) return -1;
    /* Spark's numUpdatedStateRows counts the rows appended to state, not
     * the matched flags rewritten when a stored row first joins. */
    op->metrics->num_rows_updated = st->appended;
    return 0;
}

/* ---- plan --------------------------------------------------------------- */

static void sj_explain(const exec_pnode_t *node, sl_buf_t *out)
{
    const sj_config_t *cfg = node->config;
    sl_buf_printf(out, " %s", op_join_type_name(cfg->type));
    op_join_explain_keys(out, node->children[0], cfg->orig_keys[0], node->children[1],
                         cfg->orig_keys[1], cfg->nkeys);
    if (cfg->residual) {
        sl_buf_puts(out, " filter ");
        exec_expr_format(cfg->residual, out);
    }
    if (cfg->evict_key >= 0) {
        sl_buf_printf(out, " state evicted: key %s <= watermark",
                      node->children[0]->names[cfg->orig_keys[0][cfg->evict_key]]);
        return;
    }
    const char *sep = " state evicted:";
    for (int s = 0; s < 2; s++) {
        if (!cfg->has_bound[s]) continue;
        sl_buf_printf(out, "%s %s %s <= watermark", sep, SIDE_NAME[s],
                      node->children[s]->names[cfg->time_col[s]]);
        int64_t b = cfg->bound_ms[s];
        if (b) {
            exec_interval_t iv = {0, 0, (b < 0 ? -b : b) * 1000};
            sl_buf_puts(out, b < 0 ? " - " : " + ");
            exec_format_interval(iv, out);
        }
        sep = ",";
    }
}

/* A side with a key-based or value-based state watermark evicts state. */
static int sj_wants_nodata_batch(const exec_pnode_t *node, output_mode_t mode)
{
    (void)mode;
    const sj_config_t *cfg = node->config;
    return cfg->evict_key >= 0 || cfg->has_bound[0] || cfg->has_bound[1];
}

/* Spark's produceOutputWatermark: a joined row is no older than the state
 * it came from, so the output watermark is the smallest of the input
 * watermark and the sides' value-based state watermarks (key-based
 * eviction uses the input watermark itself). */
static int64_t sj_output_watermark(const exec_pnode_t *node, int64_t input_ms)
{
    const sj_config_t *cfg = node->config;
    int64_t out = input_ms;
    for (int s = 0; s < 2 && cfg->evict_key < 0; s++)
        if (cfg->has_bound[s] && input_ms + cfg->bound_ms[s] < out)
            out = input_ms + cfg->bound_ms[s];
    return out;
}

/* The stores sj_open_stores opens: both sides' rows, then the time
 * indexes of the sides that have them. */
static int sj_state_schema(const exec_pnode_t *node, int i, const char **name, const char **key,
                           const char **value)
{
    const sj_config_t *cfg = node->config;
    if (i < 2) {
        *name = SIDE_NAME[i];
        *key = cfg->key_schema[i];
        *value = cfg->value_schema[i];
        return 1;
    }
    int k = 2;
    for (int s = 0; s < 2; s++) {
        if (!cfg->has_bound[s] || cfg->evict_key >= 0 || k++ != i) continue;
        *name = TIME_NAME[s];
        *key = cfg->time_schema[s];
        *value = "";
        return 1;
    }
    return 0;
}

const op_ops_t op_stream_join_ops = {
    .name = "symmetricHashJoin",
    .stateful = 1,
    .open = sj_open,
    .push = sj_push,
    .finish = sj_finish,
    .close = sj_close,
    .explain = sj_explain,
    .wants_nodata_batch = sj_wants_nodata_batch,
    .output_watermark = sj_output_watermark,
    .state_schema = sj_state_schema,
};

/* Key columns with the evict key moved first. */
static int *reorder_keys(sl_arena_t *a, const int *keys, int n, int first)
{
    int *k = SL_NEW_ARRAY(a, int, n);
    int j = 0;
    if (first >= 0) k[j++] = keys[first];
    for (int i = 0; i < n; i++)
        if (i != first) k[j++] = keys[i];
    return k;
}

static int check_time_col(const exec_pnode_t *n, int col, int *field, sl_error_t *err)
{
    *field = -1;
    if (col < 0) return 0;
    if (col >= n->ncols || (*field = op_join_time_field(n->types[col])) == -2)
        return sl_error_set(
            err, SL_ERR_DATATYPE_MISMATCH,
            "event-time column of a stream-stream join must be a timestamp or a window");
    return 0;
}

/* The evict key must be a TIMESTAMP or a struct of TIMESTAMPs with an end. */
static int check_evict_key(sj_config_t *cfg, const exec_pnode_t *l, const op_stream_join_spec_t *sp,
                           sl_error_t *err)
{
    cfg->key_time_field = -1;
    if (sp->evict_key < 0) return 0;
    if (sp->evict_key >= sp->nkeys)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "evict key %d out of range",
                            sp->evict_key);
    cfg->key_time_field = op_join_key_time_field(l->types[sp->left_keys[sp->evict_key]]);
    if (cfg->key_time_field == -2)
        return sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                            "watermarked join key must be a timestamp or a window");
    return 0;
}

static void make_schemas(sl_arena_t *a, sj_config_t *cfg, exec_pnode_t *const kids[2])
{
    for (int s = 0; s < 2; s++) {
        const char *k = op_join_schema_text(a, kids[s], cfg->keys[s], cfg->nkeys);
        cfg->key_schema[s] = sl_printf(a, "%s, batch BIGINT, seq INT", k);
        cfg->value_schema[s] =
            sl_printf(a, "matched BOOLEAN, %s", op_join_schema_text(a, kids[s], NULL, 0));
        cfg->time_schema[s] = sl_printf(a, "time TIMESTAMP, %s", cfg->key_schema[s]);
    }
}

static int sj_configure(sl_arena_t *a, sj_config_t *cfg, exec_pnode_t *const kids[2],
                        const op_stream_join_spec_t *sp, sl_error_t *err)
{
    const int *keys[2] = {sp->left_keys, sp->right_keys};
    int times[2] = {sp->left_time, sp->right_time};
    cfg->has_bound[0] = sp->left_has_bound;
    cfg->has_bound[1] = sp->right_has_bound;
    cfg->bound_ms[0] = sp->left_bound_ms;
    cfg->bound_ms[1] = sp->right_bound_ms;
    for (int s = 0; s < 2; s++) {
        cfg->orig_keys[s] = op_join_copy_ints(a, keys[s], sp->nkeys);
        cfg->keys[s] = reorder_keys(a, keys[s], sp->nkeys, sp->evict_key);
        cfg->all_cols[s] = SL_NEW_ARRAY(a, int, kids[s]->ncols > 0 ? kids[s]->ncols : 1);
        for (int c = 0; c < kids[s]->ncols; c++) cfg->all_cols[s][c] = c;
        cfg->time_col[s] = times[s];
        if (check_time_col(kids[s], times[s], &cfg->time_field[s], err) < 0) return -1;
        if (cfg->has_bound[s] && times[s] < 0)
            return sl_error_set(
                err, SL_ERR_INVALID_PARAMETER_VALUE,
                "value-based state eviction of the %s side needs its event-time column",
                SIDE_NAME[s]);
    }
    cfg->preserved[0] = sp->type == OP_JOIN_LEFT || sp->type == OP_JOIN_FULL;
    cfg->preserved[1] = sp->type == OP_JOIN_RIGHT || sp->type == OP_JOIN_FULL;
    make_schemas(a, cfg, kids);
    return 0;
}

exec_pnode_t *op_stream_join_plan(sl_arena_t *a, exec_pnode_t *left, exec_pnode_t *right,
                                  const op_stream_join_spec_t *spec, sl_error_t *err)
{
    if (spec->nkeys < 1 || spec->type == OP_JOIN_CROSS) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                     "stream-stream join needs at least one key pair");
        return NULL;
    }
    if (op_join_check_keys(left, spec->left_keys, right, spec->right_keys, spec->nkeys, err) < 0)
        return NULL;
    sj_config_t *cfg = SL_NEW(a, sj_config_t);
    cfg->type = spec->type;
    cfg->nkeys = spec->nkeys;
    cfg->evict_key = spec->evict_key;
    cfg->residual = spec->residual;
    exec_pnode_t *kids[2] = {left, right};
    if (check_evict_key(cfg, left, spec, err) < 0 || sj_configure(a, cfg, kids, spec, err) < 0 ||
        op_join_compile_pred(a, spec->residual, &cfg->prog, err) < 0)
        return NULL;
    exec_pnode_t *n = op_join_node(a, &op_stream_join_ops, left, right, 1, cfg);
    n->op_id = spec->op_id;
    return n;
}
