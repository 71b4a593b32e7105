/* The sink interface: where a query's result rows go, batch by batch.
 *
 * add_batch(N, rows) must be idempotent per batch id: after a crash the
 * runner replays an uncommitted batch N with exactly the same input, and a
 * sink that already durably holds batch N skips it (the file sink knows from
 * its manifest, the memory sink from its last batch id, Kafka with
 * exactlyOnce from the transaction it committed). Sinks that cannot tell
 * (console, Kafka without exactlyOnce) are at-least-once.
 *
 * Write-ahead: the runner makes batch N's write-ahead records durable
 * (offsets/N, the sources' logs) while the batch runs, so add_batch(N) may
 * start before they are. A sink must call sink_await_ahead() before any of
 * batch N becomes visible or committed; it may stage output before that
 * (data files no manifest lists yet, messages of an open transaction).
 *
 * Output modes: APPEND rows are new result rows; COMPLETE rows are the whole
 * result table (replace); UPDATE rows are changed result rows, upserted by
 * the key columns (an aggregation's grouping key). */
#ifndef SL_SINK_H
#define SL_SINK_H

#include <stdint.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/sl_error.h"
#include "connectors/connector.h"
#include "model/batch.h"
#include "model/output_mode.h"

typedef struct sink sink_t;

/* Waits until batch N's write-ahead records are durable: 0, or -1 with the
 * error that writing them met (the batch then fails). */
typedef struct sink_ahead {
    int (*wait)(void *arg, sl_error_t *err);
    void *arg;
} sink_ahead_t;

/* Calls ahead->wait; nothing to wait for when `ahead` is NULL. */
static inline int sink_await_ahead(const sink_ahead_t *ahead, sl_error_t *err)
{
    return ahead && ahead->wait ? ahead->wait(ahead->arg, err) : 0;
}

typedef struct sink_ops {
    const char *name;
    /* Writes batch `batch_id` (all its output batches), awaiting `ahead`
     * before it publishes anything. Driver thread. */
    int (*add_batch)(sink_t *s, int64_t batch_id, exec_batch_t *const *batches, int n,
                     const sink_ahead_t *ahead, sl_error_t *err);
    /* Appends Spark's description ("MemorySink", "FileSink[/path]"). */
    void (*describe)(sink_t *s, sl_buf_t *out);
    /* Appends progress metrics as JSON object members, or nothing; optional. */
    void (*metrics)(sink_t *s, sl_buf_t *out);
    void (*destroy)(sink_t *s);
} sink_ops_t;

/* The result table a sink receives. Its batches have ncols + nhidden
 * columns: the result's, then hidden key columns (grouping columns the
 * query does not select as they are), which sinks never write. */
typedef struct sink_schema {
    int ncols;
    int nhidden;
    const char *const *names; /* ncols + nhidden */
    const exec_type_t *types; /* ncols + nhidden */
    int keyed;                /* UPDATE mode: rows are upserted by the key (else appended) */
    int nkeys;                /* keyed: columns (< ncols + nhidden) that identify a result
                               row; 0 = the result is one row (no GROUP BY) */
    const int *keys;
} sink_schema_t;

struct sink {
    const sink_ops_t *ops;
    const char *query_name;
    const char *data_dir; /* the daemon's data directory (default output paths) */
    output_mode_t mode;
    sink_schema_t schema;
    int nopts;
    const conn_kv_t *opts;
    int64_t last_output_rows; /* rows written by the last add_batch (-1 = unknown) */
    void *impl;
};

/* Context the daemon gives sinks that need shared services (the memory sink
 * registers its table where SELECT finds it). */
typedef struct sink_env {
    void *memtables;           /* memtable_registry_t * (connectors/memtable.h) */
    struct exec_pool *io_pool; /* threads for a batch's fsyncs (common/pool.h), or NULL */
    const char *checkpoint;    /* the query's checkpoint directory: its metadata (query
                                id) and sink/, where a sink keeps records of its own */
} sink_env_t;

/* Creates the sink `desc` for a query; -1 with err (bad options, I/O). */
int sink_create(const conn_desc_t *desc, const char *query_name, const char *data_dir,
                output_mode_t mode, const sink_schema_t *schema, const conn_kv_t *opts, int nopts,
                const sink_env_t *env, sl_arena_t *a, sink_t **out, sl_error_t *err);

#endif
