/* HASH JOIN: equi-join of a probe side (children[0]) with a build side
 * (children[1]) plus an optional residual predicate; stateless.
 *
 * BROADCAST shape (build is a broadcast exchange): open() gathers every
 * build row into one batch (exec_broadcast_batches) and builds a chained
 * hash table over it in the task arena, so each micro-batch re-reads the
 * static table (exec/hashtable.h maps each distinct key to an id, duplicate
 * build rows chain off it). push() probes the table with the batch's keys
 * (exec_hash_rows, the same function for both sides), walks the chains and
 * queues (probe row, build row) pairs in an op_join_emit_t,
 * which gathers them into output batches in scratch memory, applies the
 * residual and records which rows joined. Unmatched probe rows of a
 * preserved probe side follow, null-extended, before push() returns.
 *
 * PARTITIONED shape (both children hash exchanges): push() copies its
 * partition of both sides into the task arena; finish() builds the table
 * over the build rows and probes the buffered probe batches, resetting a
 * private arena after each.
 *
 * finish() of both shapes emits the unmatched build rows when the build
 * side is preserved (RIGHT/FULL); the constructor ensures one task sees
 * every probe row that could match them (see exec/op_join.h). NULL keys
 * never match. Output order: per probe batch, pairs in probe row order and,
 * for one probe row, in build row order; then the unmatched probe rows. */
#include <string.h>

#include "exec/op_exchange.h"
#include "exec/op_join.h"
#include "exec/op_join_util.h"
#include "model/row.h"

typedef struct hj_config {
    op_join_type_t type;
    int nkeys;
    int *probe_keys, *build_keys;
    int probe_is_left;
    int partitioned;     /* both children hash exchanges; join in finish() */
    int probe_preserved; /* emit unmatched probe rows */
    int build_preserved; /* emit unmatched build rows in finish() */
    const exec_expr_t *residual;
    exec_prog_t *prog; /* compiled residual, or NULL */
} hj_config_t;

typedef struct hj_state {
    exec_batch_t *build; /* every build row, no selection */
    op_join_ht_t ht;
    uint8_t *build_matched;    /* per build row, when the build side is preserved */
    op_join_emit_t emit;       /* side a = probe, side b = build */
    exec_builder_t build_buf;  /* PARTITIONED: build rows so far */
    exec_batch_t **probe_bufs; /* PARTITIONED: copies of the probe batches */
    int nprobe, capprobe;
    sl_arena_t *tmp; /* finish(): per-probe-batch temporaries */
} hj_state_t;

const char *op_join_type_name(op_join_type_t t)
{
    switch (t) {
    case OP_JOIN_INNER: return "INNER";
    case OP_JOIN_LEFT: return "LEFT OUTER";
    case OP_JOIN_RIGHT: return "RIGHT OUTER";
    case OP_JOIN_FULL: return "FULL OUTER";
    case OP_JOIN_CROSS: return "CROSS";
    }
    return "?";
}

/* Makes the table (and the matched flags) over st->build. */
static void hj_prepare_build(op_t *op, hj_state_t *st)
{
    const hj_config_t *cfg = op->node->config;
    op_join_ht_build(&st->ht, op->ctx->arena, st->build, cfg->build_keys, cfg->nkeys);
    if (cfg->build_preserved)
        st->build_matched =
            SL_NEW_ARRAY(op->ctx->arena, uint8_t, st->build->nrows ? st->build->nrows : 1);
    st->emit.b = st->build;
    st->emit.b_matched = st->build_matched;
}

static int hj_open(op_t *op, sl_error_t *err)
{
    (void)err;
    const hj_config_t *cfg = op->node->config;
    const exec_pnode_t *probe = op->node->children[0], *build = op->node->children[1];
    hj_state_t *st = SL_NEW(op->ctx->arena, hj_state_t);
    op->state = st;
    op_join_emit_init(&st->emit, op, cfg->prog, cfg->probe_is_left, probe->ncols, probe->types,
                      build->ncols, build->types);
    if (cfg->partitioned) {
        exec_builder_init(&st->build_buf, op->ctx->arena, build->ncols, build->types, 0);
        return 0;
    }
    st->build = op_join_broadcast_rows(op, build);
    hj_prepare_build(op, st);
    return 0;
}

/* Joins one probe batch; temporaries in `a`. */
static int hj_probe(op_t *op, exec_batch_t *b, sl_arena_t *a, sl_error_t *err)
{
    const hj_config_t *cfg = op->node->config;
    hj_state_t *st = op->state;
    uint32_t n = exec_batch_count(b);
    uint32_t *first = sl_alloc(a, sizeof *first * (b->nrows ? b->nrows : 1));
    op_join_ht_probe(&st->ht, a, b, cfg->probe_keys, cfg->nkeys, first);
    uint8_t *matched = cfg->probe_preserved ? sl_alloc0(a, b->nrows ? b->nrows : 1) : NULL;
    st->emit.a = b;
    st->emit.a_matched = matched;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = exec_batch_row(b, k);
        for (uint32_t r = first[row]; r != OP_JOIN_NO_ROW; r = op_join_ht_next(&st->ht, r))
            if (op_join_emit_pair(&st->emit, row, r, err) < 0) return -1;
    }
    if (op_join_emit_flush(&st->emit, err) < 0) return -1;
    if (matched && op_join_emit_unmatched(&st->emit, 0, b, matched, a, err) < 0) return -1;
    st->emit.a = NULL;
    st->emit.a_matched = NULL;
    return 0;
}

/* PARTITIONED: keeps a copy of the pushed rows. */
static void hj_buffer(op_t *op, int input, exec_batch_t *b)
{
    hj_state_t *st = op->state;
    if (input == 1) {
        exec_builder_append_batch(&st->build_buf, b);
        return;
    }
    if (st->nprobe == st->capprobe) {
        int cap = st->capprobe ? st->capprobe * 2 : 8;
        st->probe_bufs = sl_arena_realloc(op->ctx->arena, st->probe_bufs,
                                          sizeof *st->probe_bufs * (size_t)st->capprobe,
                                          sizeof *st->probe_bufs * (size_t)cap);
        st->capprobe = cap;
    }
    st->probe_bufs[st->nprobe++] = op_join_copy_batch(op->ctx->arena, b);
}

static int hj_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    const hj_config_t *cfg = op->node->config;
    op->metrics->rows_in += exec_batch_count(b);
    if (cfg->partitioned) {
        hj_buffer(op, input, b);
        return 0;
    }
    return hj_probe(op, b, op->ctx->ectx->arena, err);
}

static int hj_finish(op_t *op, sl_error_t *err)
{
    const hj_config_t *cfg = op->node->config;
    hj_state_t *st = op->state;
    st->tmp = sl_arena_new("join");
    st->emit.reset_after_emit = 1;
    if (cfg->partitioned) {
        st->build = exec_builder_finish(&st->build_buf);
        hj_prepare_build(op, st);
        for (int i = 0; i < st->nprobe; i++) {
            if (hj_probe(op, st->probe_bufs[i], st->tmp, err) < 0) return -1;
            sl_arena_reset(st->tmp);
        }
    }
    if (!cfg->build_preserved) return 0;
    return op_join_emit_unmatched(&st->emit, 1, st->build, st->build_matched, st->tmp, err);
}

static void hj_close(op_t *op)
{
    hj_state_t *st = op->state;
    if (st) sl_arena_free(st->tmp);
}

static void hj_explain(const exec_pnode_t *node, sl_buf_t *out)
{
    const hj_config_t *cfg = node->config;
    sl_buf_printf(out, " %s", op_join_type_name(cfg->type));
    op_join_explain_keys(out, node->children[0], cfg->probe_keys, node->children[1],
                         cfg->build_keys, cfg->nkeys);
    if (cfg->residual) {
        sl_buf_puts(out, " filter ");
        exec_expr_format(cfg->residual, out);
    }
    sl_buf_printf(out, " probe %s, %s build", cfg->probe_is_left ? "left" : "right",
                  cfg->partitioned ? "partitioned" : "broadcast");
}

const op_ops_t op_hash_join_ops = {
    .name = "HashJoin",
    .open = hj_open,
    .push = hj_push,
    .finish = hj_finish,
    .close = hj_close,
    .explain = hj_explain,
};

/* Which sides the join type preserves, as (probe, build). */
static void preserved_sides(op_join_type_t type, int probe_is_left, int *probe, int *build)
{
    int left = type == OP_JOIN_LEFT || type == OP_JOIN_FULL;
    int right = type == OP_JOIN_RIGHT || type == OP_JOIN_FULL;
    *probe = probe_is_left ? left : right;
    *build = probe_is_left ? right : left;
}

/* Checks the children's shape; sets cfg->partitioned. */
static int hj_check_shape(hj_config_t *cfg, const exec_pnode_t *probe, const exec_pnode_t *build,
                          sl_error_t *err)
{
    if (op_join_is_broadcast(build)) {
        if (cfg->build_preserved && !op_join_is_gather(probe))
            return sl_error_set(
                err, SL_ERR_FEATURE_NOT_SUPPORTED,
                "%s join with a preserved broadcast side needs a single probe partition",
                op_join_type_name(cfg->type));
        return 0;
    }
    const op_exchange_config_t *pc = op_is_exchange(probe) ? probe->config : NULL;
    const op_exchange_config_t *bc = op_is_exchange(build) ? build->config : NULL;
    if (!pc || !bc || pc->broadcast || pc->npartitions != bc->npartitions ||
        pc->nkeys != cfg->nkeys || bc->nkeys != cfg->nkeys)
        return sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                            "hash join needs a broadcast build side or both sides hash-partitioned "
                            "on their keys into the same partitions");
    cfg->partitioned = 1;
    return 0;
}

exec_pnode_t *op_hash_join_plan(sl_arena_t *a, exec_pnode_t *probe, exec_pnode_t *build,
                                const int *probe_keys, const int *build_keys, int nkeys,
                                op_join_type_t type, int probe_is_left, const exec_expr_t *residual,
                                sl_error_t *err)
{
    if (nkeys < 1 || type == OP_JOIN_CROSS) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "hash join needs at least one key pair");
        return NULL;
    }
    if (op_join_check_keys(probe, probe_keys, build, build_keys, nkeys, err) < 0) return NULL;
    hj_config_t *cfg = SL_NEW(a, hj_config_t);
    cfg->type = type;
    cfg->nkeys = nkeys;
    cfg->probe_keys = op_join_copy_ints(a, probe_keys, nkeys);
    cfg->build_keys = op_join_copy_ints(a, build_keys, nkeys);
    cfg->probe_is_left = probe_is_left;
    cfg->residual = residual;
    preserved_sides(type, probe_is_left, &cfg->probe_preserved, &cfg->build_preserved);
    if (hj_check_shape(cfg, probe, build, err) < 0) return NULL;
    if (op_join_compile_pred(a, residual, &cfg->prog, err) < 0) return NULL;
    return op_join_node(a, &op_hash_join_ops, probe, build, probe_is_left, cfg);
}
