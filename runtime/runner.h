/* The micro-batch runner: Spark's MicroBatchExecution for one query.
 *
 * It owns the offset/commit protocol (reference §3.6-3.7, SPEC §3):
 *   1. ask each source for its latest offset within the read limit;
 *   2. if there is new data, or a no-data batch is due (the watermark moved
 *      past what stateful operators last evicted by), write offsets/N
 *      (batchWatermarkMs, batchTimestampMs, the pinned settings, one end
 *      offset per source) — the write-ahead record of batch N;
 *   3. run batch N over (start, end] through the physical plan on the task
 *      pool (stateful operators load state version N, commit N+1; each
 *      gets its own watermarks, propagated through the plan from the
 *      query's watermark of batch N-1 and N: exec/wm_propagate.h);
 *   4. hand the output to the sink (idempotent per batch id);
 *   5. compute the next watermark and write commits/N.
 * On open it recovers: an uncommitted last batch is re-run over exactly its
 * logged offsets with its logged batchTimestampMs (so current_timestamp()
 * repeats), against state version N.
 *
 * One trigger at a time, on the caller's thread (the query's driver thread
 * in the query manager, which owns scheduling, stop and await). */
#ifndef SL_RUNNER_H
#define SL_RUNNER_H

#include <stdatomic.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/sl_error.h"
#include "connectors/sink.h"
#include "connectors/source.h"
#include "exec/op.h"
#include "common/pool.h"
#include "exec/stage.h"

typedef struct runner runner_t;

/* One INPUT leaf of the plan: a source (by index) or a static producer. */
typedef struct runner_input {
    const exec_pnode_t *leaf;
    int source;              /* >= 0: index into sources; -1: static */
    exec_produce_fn produce; /* static inputs */
    void *arg;
} runner_input_t;

typedef struct runner_spec {
    const char *name;         /* query name (progress "name") */
    const char *checkpoint;   /* checkpoint directory */
    const exec_pnode_t *root; /* numbered physical plan */
    int ninputs;
    const runner_input_t *inputs;
    int nsources;
    source_t **sources;
    sink_t *sink;
    const char *sink_name;        /* the sink connector ("file"), NULL: none pinned */
    int nsink_pinned;             /* the sink's options pinned by the checkpoint, */
    const conn_kv_t *sink_pinned; /* value NULL when not given (conn_desc_t.pinned) */
    int nwatermarks;              /* WATERMARK nodes and their delays */
    exec_pnode_t *const *watermarks;
    const int64_t *wm_delays;
    int nstateful; /* stateful nodes by op id */
    exec_pnode_t *const *stateful;
    output_mode_t mode;
    int npartitions;              /* shuffle partitions (pinned at the first run) */
    const char *state_provider;   /* "memory" | "rocksdb" (pinned) */
    const char *watermark_policy; /* "min" | "max" (pinned) */
    source_limit_t limit;         /* ONCE: everything available */
    int min_batches_to_retain;    /* log retention (Spark's default 100) */
    int64_t state_max_memory;     /* memory state store: bytes the state may hold; 0 = no limit */
    exec_pool_t *pool;            /* the batch's partitions */
    exec_pool_t *io_pool;         /* its durable writes, while the batch runs */
    const atomic_int *cancel;     /* set to abandon a running batch (stop / shutdown) */
} runner_spec_t;

/* What a trigger did. */
typedef enum {
    RUNNER_IDLE = 0, /* no new data and no batch due */
    RUNNER_RAN = 1   /* ran (or re-ran) a batch */
} runner_outcome_t;

/* The settings pinned by an existing checkpoint (at its latest offsets):
 * returns 1 and fills those found (others untouched), 0 when `dir` holds
 * no batch yet. Only reads: safe while the query runs (EXPLAIN, DESCRIBE). */
int runner_read_pinned(const char *dir, sl_arena_t *a, int *npartitions, const char **state_store,
                       const char **watermark_policy, sl_error_t *err);
/* Compares the spec with what its checkpoint recorded, reading only (the
 * query need not run, nor its sources and sink exist: name, checkpoint,
 * nsources, stateful and the sink fields are read): the number of sources,
 * the state schemas and the sink's pinned options. 0, or -1 with a 55000
 * error showing the recorded and the new value (runner_check.c). */
int runner_check_checkpoint(const runner_spec_t *spec, sl_error_t *err);
/* Opens the checkpoint, checks it (runner_check_checkpoint, the pinned
 * settings) against the spec before any batch runs, and
 * recovers the position (the first trigger re-runs an uncommitted batch). */
runner_t *runner_open(const runner_spec_t *spec, sl_error_t *err);
void runner_close(runner_t *r);
/* The query id (stable across restarts) and this run's id (new per open). */
const char *runner_query_id(const runner_t *r);
const char *runner_run_id(const runner_t *r);
/* Runs one trigger. On error the query must stop (FAILED); nothing past the
 * last commit is lost or duplicated. */
int runner_trigger(runner_t *r, runner_outcome_t *outcome, sl_error_t *err);
/* CONTINUOUS: runs one epoch of `interval_ms` (or until *stop), pushing rows
 * through as they arrive, then checkpoints the epoch (offsets/E, commits/E)
 * and reports it. At-least-once across restarts. */
int runner_run_epoch(runner_t *r, int64_t interval_ms, const atomic_int *stop,
                     runner_outcome_t *outcome, sl_error_t *err);
/* AVAILABLE NOW: fixes every source's end point now. */
int runner_prepare_available_now(runner_t *r, sl_error_t *err);
/* True when the last trigger's end offsets equal what the sources had
 * available and no no-data batch is due (processAllAvailable's condition). */
int runner_caught_up(const runner_t *r);
/* The descriptors an idle query can sleep on until data may have arrived
 * (one per source, at most `max`): their count, or -1 when a source can
 * only be polled. */
int runner_change_fds(const runner_t *r, int *fds, int max);
/* Id of the next batch to run; the last committed one is this - 1. */
int64_t runner_next_batch(const runner_t *r);
/* Watermark (ms) the next batch will use; 0 before it first advances. */
int64_t runner_watermark(const runner_t *r);
int runner_has_watermark(const runner_t *r);
/* The last trigger's StreamingQueryProgress as compact JSON (NULL before
 * the first trigger that reports), valid until the next trigger; and
 * whether the last trigger produced a new report (idle triggers report at
 * most every 10 s, as Spark). */
const char *runner_last_progress(const runner_t *r, int *is_new);
/* inputRowsPerSecond and processedRowsPerSecond of the last report (NaN when not finite). */
void runner_last_rates(const runner_t *r, double *input, double *processed);
/* StreamingQueryStatus pieces of the current state. */
const char *runner_status_message(const runner_t *r);
int runner_data_available(const runner_t *r);

#endif
