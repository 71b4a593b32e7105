/* HASH AGGREGATION, batch phases (BATCH, PARTIAL, FINAL) and the planning
 * constructors of every phase (the STREAMING phase runs in agg_stream.c).
 *
 * State: a hash table (exec/hashtable.h) from the group key to a dense
 * group id, and per aggregate call its buffer vectors indexed by group id
 * (exec_agg_state_t), all in the task arena. push(): hash the key columns
 * (exec_hash_rows), get a group id per row, then per call one vectorised
 * update (rows in) or merge (buffer columns in) over the batch. finish():
 * emit every group once — keys + buffers (PARTIAL) or keys + finalized
 * results (BATCH, FINAL) — in slices of EXEC_BATCH_ROWS rows. Nothing is
 * kept between micro-batches. */
#include <string.h>

#include "exec/agg_int.h"
#include "exec/op_exchange.h"
#include "model/row.h"

/* ---- shared helpers ---- */

exec_agg_state_t *agg_states_new(const agg_config_t *cfg, sl_arena_t *a)
{
    exec_agg_state_t *st = SL_NEW_ARRAY(a, exec_agg_state_t, cfg->naggs > 0 ? cfg->naggs : 1);
    for (int i = 0; i < cfg->naggs; i++) exec_agg_state_init(&cfg->aggs[i], &st[i], a);
    return st;
}

agg_run_t *agg_run_new(op_t *op)
{
    const agg_config_t *cfg = op->node->config;
    agg_run_t *run = SL_NEW(op->ctx->arena, agg_run_t);
    run->ht = exec_ht_new(op->ctx->arena, cfg->nkeys, cfg->key_types, 0);
    run->st = agg_states_new(cfg, op->ctx->arena);
    op->state = run;
    return run;
}

static void resize_states(const agg_config_t *cfg, agg_run_t *run, uint32_t n)
{
    for (int i = 0; i < cfg->naggs; i++) exec_agg_state_resize(&cfg->aggs[i], &run->st[i], n);
}

uint32_t *agg_group_ids(op_t *op, const exec_batch_t *b, const int *cols)
{
    const agg_config_t *cfg = op->node->config;
    agg_run_t *run = op->state;
    sl_arena_t *scratch = op->ctx->ectx->arena;
    uint32_t cap = b->nrows ? b->nrows : 1;
    uint32_t *gids = sl_alloc(scratch, sizeof *gids * cap);
    if (cfg->nkeys == 0) {
        memset(gids, 0, sizeof *gids * cap);
        resize_states(cfg, run, 1);
        return gids;
    }
    uint64_t *h = sl_alloc(scratch, sizeof *h * cap);
    exec_hash_rows(b, cols, cfg->nkeys, h);
    resize_states(cfg, run, exec_ht_upsert(run->ht, b, cols, h, gids));
    return gids;
}

int agg_merge_batch(op_t *op, const exec_batch_t *b, const uint32_t *gids, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    agg_run_t *run = op->state;
    for (int i = 0; i < cfg->naggs; i++)
        if (exec_agg_merge(&cfg->aggs[i], &run->st[i], &b->cols[cfg->nkeys + cfg->buf_off[i]],
                           b->sel, exec_batch_count(b), gids, err) < 0)
            return -1;
    return 0;
}

exec_vec_t *agg_state_bufs(const agg_config_t *cfg, exec_agg_state_t *st, sl_arena_t *a)
{
    exec_vec_t *v = SL_NEW_ARRAY(a, exec_vec_t, cfg->nbuf > 0 ? cfg->nbuf : 1);
    for (int i = 0; i < cfg->naggs; i++)
        for (int j = 0; j < cfg->aggs[i].nbuf; j++) v[cfg->buf_off[i] + j] = st[i].v[j];
    return v;
}

/* Hands the n rows of `cols` to the parent in slices. */
static int emit_slices(op_t *op, exec_vec_t *cols, int ncols, uint32_t n, sl_error_t *err)
{
    exec_batch_t *all = SL_NEW(op->ctx->arena, exec_batch_t);
    all->ncols = ncols;
    all->cols = cols;
    all->nrows = n;
    all->arena = op->ctx->arena;
    for (uint32_t first = 0; first < n; first += EXEC_BATCH_ROWS) {
        uint32_t cnt = n - first < EXEC_BATCH_ROWS ? n - first : EXEC_BATCH_ROWS;
        if (op_emit(op, first == 0 && cnt == n ? all : exec_batch_slice(all, first, cnt), err) < 0)
            return -1;
    }
    return 0;
}

int agg_emit_final(op_t *op, exec_vec_t *keys, exec_vec_t *bufs, uint32_t n, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    int ncols = cfg->nkeys + cfg->naggs;
    exec_vec_t *cols = SL_NEW_ARRAY(op->ctx->arena, exec_vec_t, ncols > 0 ? ncols : 1);
    for (int k = 0; k < cfg->nkeys; k++) cols[k] = keys[k];
    for (int i = 0; i < cfg->naggs; i++)
        if (exec_agg_finalize(&cfg->aggs[i], &bufs[cfg->buf_off[i]], n, &cols[cfg->nkeys + i],
                              op->ctx->arena, err) < 0)
            return -1;
    return emit_slices(op, cols, ncols, n, err);
}

/* ---- batch phases ---- */

static int agg_open(op_t *op, sl_error_t *err)
{
    (void)err;
    agg_run_new(op);
    return 0;
}

static int agg_update_batch(op_t *op, const exec_batch_t *b, const uint32_t *gids, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    agg_run_t *run = op->state;
    exec_vec_t none = exec_vec_new(op->ctx->ectx->arena, exec_type_of(EXEC_TYPE_NULL), 0);
    for (int i = 0; i < cfg->naggs; i++) {
        const exec_vec_t *arg = cfg->args[i] >= 0 ? &b->cols[cfg->args[i]] : &none;
        if (exec_agg_update(&cfg->aggs[i], &run->st[i], arg, b->sel, exec_batch_count(b), gids,
                            op->ctx->ectx->arena, err) < 0)
            return -1;
    }
    return 0;
}

static int agg_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    (void)input;
    const agg_config_t *cfg = op->node->config;
    uint32_t n = exec_batch_count(b);
    op->metrics->rows_in += n;
    if (n == 0) return 0;
    uint32_t *gids = agg_group_ids(op, b, cfg->keys);
    if (cfg->phase == OP_AGG_FINAL) return agg_merge_batch(op, b, gids, err);
    return agg_update_batch(op, b, gids, err);
}

static int agg_finish(op_t *op, sl_error_t *err)
{
    const agg_config_t *cfg = op->node->config;
    agg_run_t *run = op->state;
    uint32_t n = cfg->nkeys ? exec_ht_size(run->ht) : run->st[0].n;
    if (cfg->nkeys == 0 && cfg->phase != OP_AGG_PARTIAL && n == 0) {
        resize_states(cfg, run, 1); /* one row even without input */
        n = 1;
    }
    if (cfg->nkeys == 0 && cfg->naggs == 0) return 0;
    exec_batch_t *keys = exec_ht_keys(run->ht, op->ctx->arena);
    exec_vec_t *bufs = agg_state_bufs(cfg, run->st, op->ctx->arena);
    op->metrics->memory_used_bytes = (int64_t)exec_ht_memory(run->ht);
    if (n == 0) return 0;
    if (cfg->phase != OP_AGG_PARTIAL) return agg_emit_final(op, keys->cols, bufs, n, err);
    int ncols = cfg->nkeys + cfg->nbuf;
    exec_vec_t *cols = SL_NEW_ARRAY(op->ctx->arena, exec_vec_t, ncols > 0 ? ncols : 1);
    for (int k = 0; k < cfg->nkeys; k++) cols[k] = keys->cols[k];
    for (int j = 0; j < cfg->nbuf; j++) cols[cfg->nkeys + j] = bufs[j];
    return emit_slices(op, cols, ncols, n, err);
}

static void agg_close(op_t *op)
{
    (void)op;
}

/* ---- EXPLAIN ---- */

static void explain_list(sl_buf_t *out, const char *label, const char *const *items, int n)
{
    sl_buf_printf(out, " %s=[", label);
    for (int i = 0; i < n; i++) sl_buf_printf(out, "%s%s", i ? ", " : "", items[i]);
    sl_buf_putc(out, ']');
}

void agg_explain(const exec_pnode_t *node, sl_buf_t *out)
{
    const agg_config_t *cfg = node->config;
    static const char *const phase_names[] = {"", "batch", "partial", "final", "streaming"};
    if (cfg->phase <= OP_AGG_STREAMING) sl_buf_printf(out, " (%s)", phase_names[cfg->phase]);
    explain_list(out, "keys", cfg->key_names, cfg->nkeys);
    explain_list(out, "functions", cfg->call_text, cfg->naggs);
    if (cfg->session_key >= 0)
        sl_buf_printf(out, " session=%s (merged per other keys where sessions overlap or touch)",
                      cfg->key_names[cfg->session_key]);
    if (cfg->phase != OP_AGG_STREAMING && cfg->phase != OP_AGG_SESSION_STREAMING) return;
    static const char *const modes[] = {"query's", "append", "update", "complete"};
    sl_buf_printf(out, " state=%d mode=%s", node->op_id, modes[cfg->mode]);
    if (cfg->event_key >= 0)
        sl_buf_printf(out, " event-time=%s (late rows dropped, state evicted by watermark)",
                      cfg->key_names[cfg->event_key]);
    else sl_buf_puts(out, " (no event-time key: state is never evicted)");
}

const op_ops_t op_agg_ops = {
    .name = "HashAggregate",
    .open = agg_open,
    .push = agg_push,
    .finish = agg_finish,
    .close = agg_close,
    .explain = agg_explain,
};

const op_ops_t op_agg_streaming_ops = {
    .name = "stateStoreSave",
    .stateful = 1,
    .open = agg_stream_open,
    .push = agg_stream_push,
    .finish = agg_stream_finish,
    .close = agg_stream_close,
    .explain = agg_explain,
    .wants_nodata_batch = agg_stream_wants_nodata_batch,
    .state_schema = agg_stream_state_schema,
};

/* ---- planning ---- */

static int bad_index(const char *what, int i, sl_error_t *err)
{
    return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "aggregation %s %d is out of range",
                        what, i);
}

/* Resolves the calls against the argument types. */
static int resolve_calls(sl_arena_t *a, agg_config_t *cfg, const exec_pnode_t *child,
                         const op_agg_spec_t *spec, sl_error_t *err)
{
    cfg->naggs = spec->ncalls;
    cfg->aggs = SL_NEW_ARRAY(a, exec_agg_t, spec->ncalls + 1);
    cfg->args = SL_NEW_ARRAY(a, int, spec->ncalls + 1);
    cfg->buf_off = SL_NEW_ARRAY(a, int, spec->ncalls + 1);
    cfg->call_text = SL_NEW_ARRAY(a, const char *, spec->ncalls + 1);
    for (int i = 0; i < spec->ncalls; i++) {
        const op_agg_call_t *c = &spec->calls[i];
        if (c->arg >= child->ncols || c->arg < -1) return bad_index("argument column", c->arg, err);
        exec_type_t t = c->arg >= 0 ? child->types[c->arg] : exec_type_of(EXEC_TYPE_NULL);
        exec_agg_opts_t o = {c->ignore_nulls != 0, c->relative_sd};
        if (exec_agg_lookup(c->func, c->distinct != 0, c->arg < 0, t, &o, &cfg->aggs[i], err) < 0)
            return -1;
        cfg->args[i] = c->arg;
        cfg->buf_off[i] = cfg->nbuf;
        cfg->nbuf += cfg->aggs[i].nbuf;
        cfg->call_text[i] = c->arg < 0
                                ? sl_printf(a, "%s(*)", cfg->aggs[i].name)
                                : sl_printf(a, "%s(%s%s)", cfg->aggs[i].name,
                                            c->distinct ? "DISTINCT " : "", child->names[c->arg]);
    }
    cfg->buf_types = SL_NEW_ARRAY(a, exec_type_t, cfg->nbuf + 1);
    for (int i = 0; i < cfg->naggs; i++)
        for (int j = 0; j < cfg->aggs[i].nbuf; j++)
            cfg->buf_types[cfg->buf_off[i] + j] = cfg->aggs[i].buf_types[j];
    return 0;
}

static void copy_spec(sl_arena_t *a, agg_config_t *cfg, const op_agg_spec_t *spec)
{
    op_agg_spec_t *s = &cfg->spec;
    *s = *spec;
    int *keys = SL_NEW_ARRAY(a, int, spec->nkeys + 1);
    for (int k = 0; k < spec->nkeys; k++) keys[k] = spec->keys[k];
    s->keys = keys;
    op_agg_call_t *calls = SL_NEW_ARRAY(a, op_agg_call_t, spec->ncalls + 1);
    for (int i = 0; i < spec->ncalls; i++) {
        calls[i] = spec->calls[i];
        calls[i].func = sl_strdup(a, spec->calls[i].func);
    }
    s->calls = calls;
    const char **names = SL_NEW_ARRAY(a, const char *, spec->nkeys + spec->ncalls + 1);
    for (int i = 0; i < spec->nkeys + spec->ncalls; i++) names[i] = sl_strdup(a, spec->names[i]);
    s->names = names;
}

/* Checks and records the keys (input columns `cols` of `child`). */
static int set_keys(sl_arena_t *a, agg_config_t *cfg, const exec_pnode_t *child, const int *cols,
                    int n, sl_error_t *err)
{
    cfg->nkeys = n;
    cfg->keys = SL_NEW_ARRAY(a, int, n + 1);
    cfg->key_types = SL_NEW_ARRAY(a, exec_type_t, n + 1);
    cfg->key_names = SL_NEW_ARRAY(a, const char *, n + 1);
    for (int k = 0; k < n; k++) {
        if (cols[k] < 0 || cols[k] >= child->ncols) return bad_index("key column", cols[k], err);
        cfg->keys[k] = cols[k];
        cfg->key_types[k] = child->types[cols[k]];
        cfg->key_names[k] = cfg->spec.names[k];
    }
    return 0;
}

static exec_pnode_t *make_node(sl_arena_t *a, exec_pnode_t *child, agg_config_t *cfg)
{
    bool partial = cfg->phase == OP_AGG_PARTIAL;
    int ncols = cfg->nkeys + (partial ? cfg->nbuf : cfg->naggs);
    const op_ops_t *ops = cfg->phase == OP_AGG_STREAMING           ? &op_agg_streaming_ops
                          : cfg->phase == OP_AGG_SESSION           ? &op_agg_session_ops
                          : cfg->phase == OP_AGG_SESSION_STREAMING ? &op_agg_session_streaming_ops
                                                                   : &op_agg_ops;
    exec_pnode_t *n = exec_pnode_new(a, ops, ncols, cfg);
    for (int k = 0; k < cfg->nkeys; k++) {
        n->names[k] = cfg->key_names[k];
        n->types[k] = cfg->key_types[k];
    }
    for (int i = 0; i < cfg->naggs; i++) {
        const exec_agg_t *f = &cfg->aggs[i];
        if (!partial) {
            n->names[cfg->nkeys + i] = cfg->spec.names[cfg->nkeys + i];
            n->types[cfg->nkeys + i] = f->result_type;
            continue;
        }
        for (int j = 0; j < f->nbuf; j++) {
            int c = cfg->nkeys + cfg->buf_off[i] + j;
            n->names[c] = sl_printf(a, "%s.%s", cfg->spec.names[cfg->nkeys + i], f->buf_names[j]);
            n->types[c] = f->buf_types[j];
        }
    }
    n->nchildren = 1;
    n->children[0] = child;
    return n;
}

exec_pnode_t *op_agg_plan_phase(sl_arena_t *a, exec_pnode_t *child, op_agg_phase_t phase,
                                const op_agg_spec_t *spec, sl_error_t *err)
{
    agg_config_t *cfg = SL_NEW(a, agg_config_t);
    cfg->phase = phase;
    cfg->event_key = -1;
    cfg->session_key = -1;
    copy_spec(a, cfg, spec);
    if (set_keys(a, cfg, child, spec->keys, spec->nkeys, err) < 0) return NULL;
    if (resolve_calls(a, cfg, child, spec, err) < 0) return NULL;
    for (int i = 0; i < cfg->naggs; i++)
        if (cfg->aggs[i].distinct && phase != OP_AGG_BATCH) {
            sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                         "%s cannot be computed in partial aggregation", cfg->call_text[i]);
            sl_error_hint(
                err, "Aggregate a DISTINCT call in one phase, after an exchange on the group key.");
            return NULL;
        }
    return make_node(a, child, cfg);
}

exec_pnode_t *op_agg_plan_merge(sl_arena_t *a, exec_pnode_t *child, const exec_pnode_t *partial,
                                op_agg_phase_t phase, sl_error_t *err)
{
    const agg_config_t *pc = partial->config;
    agg_config_t *cfg = SL_NEW(a, agg_config_t);
    *cfg = *pc;
    cfg->phase = phase;
    cfg->event_key = -1;
    cfg->keys = SL_NEW_ARRAY(a, int, pc->nkeys + 1);
    for (int k = 0; k < pc->nkeys; k++) cfg->keys[k] = k;
    if (child->ncols != pc->nkeys + pc->nbuf) {
        sl_error_set(err, SL_ERR_INTERNAL_ERROR,
                     "final aggregation over a child that is not a partial one");
        return NULL;
    }
    bool sessions = phase == OP_AGG_SESSION || phase == OP_AGG_SESSION_STREAMING;
    bool stateful = phase == OP_AGG_STREAMING || phase == OP_AGG_SESSION_STREAMING;
    if (sessions && agg_session_config(a, cfg, pc->spec.session_key, err) < 0) return NULL;
    if (stateful) {
        cfg->mode = pc->spec.mode;
        if (agg_stream_config(a, cfg, pc->spec.event_key, err) < 0) return NULL;
    }
    if (phase == OP_AGG_SESSION_STREAMING) agg_session_stream_config(a, cfg);
    exec_pnode_t *n = make_node(a, child, cfg);
    if (stateful) n->op_id = pc->spec.op_id;
    return n;
}

static bool has_distinct(const op_agg_spec_t *spec)
{
    for (int i = 0; i < spec->ncalls; i++)
        if (spec->calls[i].distinct) return true;
    return false;
}

/* PARTIAL -> EXCHANGE(keys but the session) -> SESSION[_STREAMING]. */
static exec_pnode_t *plan_sessions(sl_arena_t *a, exec_pnode_t *child, const op_agg_spec_t *spec,
                                   int npartitions, int streaming, sl_error_t *err)
{
    if (has_distinct(spec)) {
        sl_error_set(
            err, SL_ERR_FEATURE_NOT_SUPPORTED,
            "count(DISTINCT) and other DISTINCT aggregates are not supported with session_window");
        sl_error_hint(
            err,
            "Sessions merge partial aggregates, which DISTINCT cannot; use approx_count_distinct().");
        return NULL;
    }
    exec_pnode_t *p = op_agg_plan_phase(a, child, OP_AGG_PARTIAL, spec, err);
    if (!p) return NULL;
    int *keys = SL_NEW_ARRAY(a, int, spec->nkeys), n = 0;
    for (int k = 0; k < spec->nkeys; k++)
        if (k != spec->session_key) keys[n++] = k;
    exec_pnode_t *x =
        op_exchange_plan(a, p, keys, n, n == 0 || npartitions < 1 ? 1 : npartitions, 0);
    return op_agg_plan_merge(a, x, p, streaming ? OP_AGG_SESSION_STREAMING : OP_AGG_SESSION, err);
}

exec_pnode_t *op_agg_plan(sl_arena_t *a, exec_pnode_t *child, const op_agg_spec_t *spec,
                          int npartitions, int streaming, sl_error_t *err)
{
    if (spec->session_key >= 0) return plan_sessions(a, child, spec, npartitions, streaming, err);
    int nparts = spec->nkeys == 0 || npartitions < 1 ? 1 : npartitions;
    if (streaming && has_distinct(spec)) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                     "count(DISTINCT) and other DISTINCT aggregates are not supported on streams");
        sl_error_hint(err,
                      "Use approx_count_distinct(), which keeps a mergeable sketch per group.");
        return NULL;
    }
    if (has_distinct(spec)) {
        exec_pnode_t *x = op_exchange_plan(a, child, spec->keys, spec->nkeys, nparts, 0);
        return op_agg_plan_phase(a, x, OP_AGG_BATCH, spec, err);
    }
    exec_pnode_t *p = op_agg_plan_phase(a, child, OP_AGG_PARTIAL, spec, err);
    if (!p) return NULL;
    int *keys = SL_NEW_ARRAY(a, int, spec->nkeys + 1);
    for (int k = 0; k < spec->nkeys; k++) keys[k] = k;
    exec_pnode_t *x = op_exchange_plan(a, p, keys, spec->nkeys, nparts, 0);
    return op_agg_plan_merge(a, x, p, streaming ? OP_AGG_STREAMING : OP_AGG_FINAL, err);
}

const char *op_agg_value_schema(const exec_pnode_t *node)
{
    return ((const agg_config_t *)node->config)->value_schema;
}
