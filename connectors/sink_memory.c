/* The memory sink: writes a query's result into the memory table named
 * after the query (memtable.h), which ad-hoc SELECT reads. Append appends,
 * complete replaces, update upserts by the key columns (without keys, as
 * for a query with no aggregation, update appends as Spark does); replays of a batch
 * already taken are skipped (the table remembers the last batch id). */
#include "connectors/conn_int.h"
#include "connectors/memtable.h"

static int memory_add(sink_t *s, int64_t batch_id, exec_batch_t *const *batches, int n,
                      const sink_ahead_t *ahead, sl_error_t *err)
{
    int64_t rows;
    if (sink_await_ahead(ahead, err) < 0) return -1;
    memtable_add_batch(s->impl, batch_id, s->mode, batches, n, &rows);
    s->last_output_rows = rows;
    return 0;
}

static void memory_describe(sink_t *s, sl_buf_t *out)
{
    (void)s;
    sl_buf_puts(out, "MemorySink");
}

static void memory_destroy(sink_t *s)
{
    memtable_release(s->impl);
    s->impl = NULL;
}

static const sink_ops_t memory_ops = {
    .name = "memory",
    .add_batch = memory_add,
    .describe = memory_describe,
    .destroy = memory_destroy,
};

int sink_memory_create(sink_t *s, const sink_env_t *env, sl_arena_t *a, sl_error_t *err)
{
    (void)a;
    if (!env || !env->memtables)
        return sl_error_set(err, SL_ERR_INTERNAL_ERROR, "the memory sink has no table registry");
    s->impl = memtable_open(env->memtables, s->query_name, &s->schema);
    s->ops = &memory_ops;
    return 0;
}
