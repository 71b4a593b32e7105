/* The noop sink: discards every row and counts them (Spark's "noop"
 * format, for benchmarks). Idempotent trivially: nothing is kept. */
#include "connectors/conn_int.h"

typedef struct noop {
    int64_t total_rows; /* rows discarded since the sink was created */
} noop_t;

static int noop_add(sink_t *s, int64_t batch_id, exec_batch_t *const *batches, int n,
                    const sink_ahead_t *ahead, sl_error_t *err)
{
    (void)batch_id, (void)ahead, (void)err; /* nothing is published: nothing to wait for */
    noop_t *x = s->impl;
    int64_t rows = 0;
    for (int i = 0; i < n; i++) rows += exec_batch_count(batches[i]);
    x->total_rows += rows;
    s->last_output_rows = rows;
    return 0;
}

static void noop_describe(sink_t *s, sl_buf_t *out)
{
    (void)s;
    sl_buf_puts(out, "NoopSink");
}

static void noop_destroy(sink_t *s)
{
    (void)s;
}

static const sink_ops_t noop_ops = {
    .name = "noop",
    .add_batch = noop_add,
    .describe = noop_describe,
    .destroy = noop_destroy,
};

int sink_noop_create(sink_t *s, const sink_env_t *env, sl_arena_t *a, sl_error_t *err)
{
    (void)env, (void)err;
    s->impl = SL_NEW(a, noop_t);
    s->ops = &noop_ops;
    return 0;
}
