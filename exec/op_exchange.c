/* EXCHANGE, producing side.
 *
 * push: hashes the key columns of every present row (exec_hash_rows, the
 * same function on every machine and version: partitioning is part of the
 * checkpoint, since state partition p holds the keys hashed to p), groups
 * the rows by partition and copies each group column by column into a new
 * batch in the task arena (string bytes too), so the pushed batch may be
 * freed. finish: hands the batches to the run's exchange buffer. A
 * broadcast or a single partition skips hashing. No state between batches. */
#include "exec/op_exchange.h"

#include <string.h>

#include "model/row.h"
#include "exec/stage_int.h"

typedef struct exchange_state {
    exchange_buf_t *buf;
    int task;            /* slot of this task in buf */
    exec_batch_t ***out; /* per partition: batches copied so far */
    int *nout, *capout;
} exchange_state_t;

static void add_output(op_t *op, int p, exec_batch_t *b)
{
    exchange_state_t *st = op->state;
    if (st->nout[p] == st->capout[p]) {
        int cap = st->capout[p] ? st->capout[p] * 2 : 4;
        st->out[p] = sl_arena_realloc(op->ctx->arena, st->out[p],
                                      sizeof(exec_batch_t *) * (size_t)st->capout[p],
                                      sizeof(exec_batch_t *) * (size_t)cap);
        st->capout[p] = cap;
    }
    st->out[p][st->nout[p]++] = b;
}

static int exchange_open(op_t *op, sl_error_t *err)
{
    (void)err;
    const op_exchange_config_t *cfg = op->node->config;
    int np = cfg->broadcast ? 1 : cfg->npartitions;
    exchange_state_t *st = SL_NEW(op->ctx->arena, exchange_state_t);
    st->out = SL_NEW_ARRAY(op->ctx->arena, exec_batch_t **, np);
    st->nout = SL_NEW_ARRAY(op->ctx->arena, int, np);
    st->capout = SL_NEW_ARRAY(op->ctx->arena, int, np);
    st->buf = exec_run_xbuf(op, op->node);
    st->task = op->ctx->task;
    op->state = st;
    return 0;
}

/* Splits the present rows by partition (a counting sort that keeps input
 * order within a partition, so the consumer sees a deterministic order) and
 * copies each partition's rows column by column into the task arena. */
static int exchange_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    (void)input;
    (void)err;
    const op_exchange_config_t *cfg = op->node->config;
    sl_arena_t *scratch = op->ctx->ectx->arena;
    uint32_t n = exec_batch_count(b);
    op->metrics->rows_in += n;
    int np = cfg->broadcast ? 1 : cfg->npartitions;
    uint32_t *rows = sl_alloc(scratch, sizeof *rows * (n ? n : 1));
    if (np == 1) {
        for (uint32_t k = 0; k < n; k++) rows[k] = exec_batch_row(b, k);
        if (n) add_output(op, 0, exec_batch_gather(b, rows, n, op->ctx->arena));
        return 0;
    }
    uint64_t *hashes = sl_alloc(scratch, sizeof *hashes * (b->nrows ? b->nrows : 1));
    exec_hash_rows(b, cfg->keys, cfg->nkeys, hashes);
    uint32_t *part = sl_alloc(scratch, sizeof *part * (n ? n : 1));
    uint32_t *start = SL_NEW_ARRAY(scratch, uint32_t, np + 1);
    for (uint32_t k = 0; k < n; k++) {
        part[k] = (uint32_t)(hashes[exec_batch_row(b, k)] % (uint64_t)np);
        start[part[k] + 1]++;
    }
    for (int p = 0; p < np; p++) start[p + 1] += start[p];
    uint32_t *fill = SL_NEW_ARRAY(scratch, uint32_t, np);
    for (uint32_t k = 0; k < n; k++) rows[start[part[k]] + fill[part[k]]++] = exec_batch_row(b, k);
    for (int p = 0; p < np; p++) {
        uint32_t cnt = start[p + 1] - start[p];
        if (cnt) add_output(op, p, exec_batch_gather(b, rows + start[p], cnt, op->ctx->arena));
    }
    return 0;
}

static int exchange_finish(op_t *op, sl_error_t *err)
{
    (void)err;
    exchange_state_t *st = op->state;
    exchange_buf_t *buf = st->buf;
    for (int p = 0; p < buf->nparts; p++) {
        int slot = st->task * buf->nparts + p;
        buf->lists[slot] = st->out[p];
        buf->counts[slot] = st->nout[p];
        for (int i = 0; i < st->nout[p]; i++) op->metrics->rows_out += st->out[p][i]->nrows;
    }
    return 0;
}

static void exchange_close(op_t *op)
{
    (void)op;
}

static void exchange_explain(const exec_pnode_t *node, sl_buf_t *out)
{
    const op_exchange_config_t *cfg = node->config;
    if (cfg->broadcast) {
        sl_buf_puts(out, " broadcast");
        return;
    }
    if (cfg->nkeys == 0) {
        sl_buf_printf(out, " gather into %d partition%s", cfg->npartitions,
                      cfg->npartitions == 1 ? "" : "s");
        return;
    }
    sl_buf_puts(out, " hash(");
    for (int i = 0; i < cfg->nkeys; i++)
        sl_buf_printf(out, "%s%s", i ? ", " : "", node->children[0]->names[cfg->keys[i]]);
    sl_buf_printf(out, ") into %d partitions", cfg->npartitions);
}

const op_ops_t op_exchange_ops = {
    .name = "Exchange",
    .open = exchange_open,
    .push = exchange_push,
    .finish = exchange_finish,
    .close = exchange_close,
    .explain = exchange_explain,
};

exec_pnode_t *op_exchange_plan(sl_arena_t *a, exec_pnode_t *child, const int *keys, int nkeys,
                               int npartitions, int broadcast)
{
    op_exchange_config_t *cfg = SL_NEW(a, op_exchange_config_t);
    int *k = SL_NEW_ARRAY(a, int, nkeys > 0 ? nkeys : 1);
    if (nkeys) memcpy(k, keys, sizeof *k * (size_t)nkeys);
    cfg->keys = k;
    cfg->nkeys = nkeys;
    cfg->npartitions = broadcast ? 1 : npartitions;
    cfg->broadcast = broadcast;
    exec_pnode_t *n = exec_pnode_new(a, &op_exchange_ops, child->ncols, cfg);
    exec_pnode_set_schema(a, n, child->names, child->types);
    n->nchildren = 1;
    n->children[0] = child;
    return n;
}

int op_is_exchange(const exec_pnode_t *n)
{
    return n->ops == &op_exchange_ops;
}
