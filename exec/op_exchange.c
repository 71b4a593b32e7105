/* EXCHANGE, producing side.
 *
 * push: hashes the key columns of every present row (exec_hash_rows, the
 * same function on every machine and version: partitioning is part of the
 * checkpoint, since state partition p holds the keys hashed to p) and
 * appends each row to its partition's builder in the task arena, deep
 * copying strings so the pushed batch may be freed. finish: hands the
 * builders' batches to the run's exchange buffer, in partition order. A
 * broadcast or a single partition skips hashing. No state between batches. */
#include "exec/op_exchange.h"

#include <string.h>

#include "exec/row.h"
#include "exec/stage_int.h"

typedef struct exchange_state {
    exec_builder_t *builders; /* one per partition */
    int *started;             /* builder p has rows */
    exchange_buf_t *buf;
    int task;                 /* slot of this task in buf */
    exec_batch_t ***out;      /* per partition: finished batches */
    int *nout, *capout;
} exchange_state_t;

static void add_output(op_t *op, int p, exec_batch_t *b)
{
    exchange_state_t *st = op->state;
    if (st->nout[p] == st->capout[p]) {
        int cap = st->capout[p] ? st->capout[p] * 2 : 4;
        st->out[p] = sl_arena_realloc(op->ctx->arena, st->out[p], sizeof(exec_batch_t *) * (size_t)st->capout[p],
                                      sizeof(exec_batch_t *) * (size_t)cap);
        st->capout[p] = cap;
    }
    st->out[p][st->nout[p]++] = b;
}

static exec_builder_t *builder_for(op_t *op, int p)
{
    exchange_state_t *st = op->state;
    const exec_pnode_t *n = op->node;
    if (!st->started[p]) {
        exec_builder_init(&st->builders[p], op->ctx->arena, n->ncols, n->types, EXEC_BATCH_ROWS);
        st->started[p] = 1;
    }
    return &st->builders[p];
}

static void flush_if_full(op_t *op, int p)
{
    exchange_state_t *st = op->state;
    if (st->builders[p].batch->nrows < EXEC_BATCH_ROWS) return;
    add_output(op, p, exec_builder_finish(&st->builders[p]));
    st->started[p] = 0;
}

static int exchange_open(op_t *op, sl_error_t *err)
{
    (void)err;
    const op_exchange_config_t *cfg = op->node->config;
    int np = cfg->broadcast ? 1 : cfg->npartitions;
    exchange_state_t *st = SL_NEW(op->ctx->arena, exchange_state_t);
    st->builders = SL_NEW_ARRAY(op->ctx->arena, exec_builder_t, np);
    st->started = SL_NEW_ARRAY(op->ctx->arena, int, np);
    st->out = SL_NEW_ARRAY(op->ctx->arena, exec_batch_t **, np);
    st->nout = SL_NEW_ARRAY(op->ctx->arena, int, np);
    st->capout = SL_NEW_ARRAY(op->ctx->arena, int, np);
    st->buf = exec_run_xbuf(op, op->node);
    st->task = op->ctx->task;
    op->state = st;
    return 0;
}

/* Appends rows of b whose partition is p (or all rows when parts is NULL). */
static void append_rows(op_t *op, exec_batch_t *b, const uint64_t *hashes, int np)
{
    uint32_t n = exec_batch_count(b);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = exec_batch_row(b, k);
        int p = hashes ? (int)(hashes[row] % (uint64_t)np) : 0;
        exec_builder_t *bld = builder_for(op, p);
        uint32_t out = exec_builder_add_row(bld);
        for (int c = 0; c < b->ncols; c++) exec_builder_copy_cell(bld, c, out, &b->cols[c], row);
        if (b->change) exec_builder_set_change(bld, out, b->change[row]);
        flush_if_full(op, p);
    }
}

static int exchange_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    (void)input;
    (void)err;
    const op_exchange_config_t *cfg = op->node->config;
    op->metrics->rows_in += exec_batch_count(b);
    int np = cfg->broadcast ? 1 : cfg->npartitions;
    uint64_t *hashes = NULL;
    if (np > 1) {
        hashes = sl_alloc(op->ctx->ectx->arena, sizeof *hashes * (b->nrows ? b->nrows : 1));
        exec_hash_rows(b, cfg->keys, cfg->nkeys, hashes);
    }
    append_rows(op, b, hashes, np);
    return 0;
}

static int exchange_finish(op_t *op, sl_error_t *err)
{
    (void)err;
    exchange_state_t *st = op->state;
    exchange_buf_t *buf = st->buf;
    for (int p = 0; p < buf->nparts; p++) {
        if (st->started[p] && st->builders[p].batch->nrows > 0)
            add_output(op, p, exec_builder_finish(&st->builders[p]));
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
    .name = "Exchange", .open = exchange_open, .push = exchange_push,
    .finish = exchange_finish, .close = exchange_close, .explain = exchange_explain,
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
