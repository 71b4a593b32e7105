/* The source interface: what the micro-batch runner asks of every stream
 * connector (Spark's MicroBatchStream / Source, reduced to C).
 *
 * Offsets are JSON text exactly as Spark writes them in offsets/N (Kafka
 * `{"topic":{"0":42}}`, file `{"logOffset":3}`, rate and nexmark a bare
 * number). The runner owns the protocol: it asks for the latest offset,
 * has the batch (start, end] planned, then writes offsets/N and calls
 * write_ahead on worker threads while the batch is read — split into
 * partitions read in parallel — and waits for both before the sink
 * publishes the batch; once offsets/N is durable it calls commit(end) with
 * the end of the batch committed before (Spark's source.commit). On
 * restart it re-reads a logged batch with exactly the logged offsets, so
 * read_split must be deterministic for a given (start, end].
 *
 * Lifecycle: create (from the stream's definition) → latest/plan/read for
 * each batch → destroy. Everything but read_split and write_ahead runs on
 * the query's driver thread; read_split runs concurrently for different
 * splits, and with write_ahead. read_split allocates only from the arena
 * it is given (its task's); write_ahead allocates from no arena and only
 * reads what plan left for it (common/arena.h: one owner thread per arena). */
#ifndef SL_SOURCE_H
#define SL_SOURCE_H

#include <stdatomic.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/sl_error.h"
#include "model/batch.h"
#include "connectors/connector.h"

typedef struct source source_t;

/* One independently readable piece of a batch (a Kafka partition's offset
 * range, a file, a slice of generated rows). Opaque to the runner. */
typedef struct source_split {
    int partition; /* which input partition (for ordering and metrics) */
    void *data;    /* the source's description of the piece, in the batch arena */
} source_split_t;

/* Receives each batch a split produces (columns = the stream's columns, in
 * order). Returns -1 with err to stop reading. */
typedef int (*source_emit_fn)(void *arg, exec_batch_t *batch, sl_error_t *err);

/* What the runner tells a source about how much to take. */
typedef enum {
    SOURCE_LIMIT_DEFAULT = 0, /* the stream's own options (maxOffsetsPerTrigger, ...) */
    SOURCE_LIMIT_ALL          /* everything available (TRIGGER ONCE) */
} source_limit_t;

typedef struct source_ops {
    const char *name; /* connector name, as in the registry */
    /* Progress shows the latest offset as latestOffset (Spark: sources that
     * implement reportLatestOffset, such as Kafka's); 0 = null there, as
     * Spark's FileStreamSource reports. latest_offset's `latest` is asked of
     * every source all the same: it tells whether the query is caught up. */
    int reports_latest;
    /* The offset a new query starts from (startingOffsets), as JSON. A
     * source that must remember it (Kafka's resolved "latest") writes it to
     * its checkpoint directory and returns the same text on every call. */
    int (*initial_offset)(source_t *s, sl_arena_t *a, const char **out, sl_error_t *err);
    /* The end offset of the next batch starting at `start` within the limit
     * (== start when there is nothing new), and the latest offset available
     * (for progress). */
    int (*latest_offset)(source_t *s, const char *start, source_limit_t limit, sl_arena_t *a,
                         const char **end, const char **latest, sl_error_t *err);
    /* AVAILABLE NOW: fixes the end point to what is available now; later
     * latest_offset calls never go past it. May be NULL (nothing to fix). */
    int (*prepare_available_now)(source_t *s, sl_error_t *err);
    /* Splits (start, end] into pieces read in parallel. No durable write:
     * what the batch took is logged by write_ahead. */
    int (*plan)(source_t *s, int64_t batch_id, const char *start, const char *end, sl_arena_t *a,
                source_split_t **splits, int *nsplits, sl_error_t *err);
    /* Makes durable what the last plan decided that is not on disk yet (the
     * file source's sources/<i>/<K>). Runs on a worker thread concurrently
     * with read_split of the same batch; optional. */
    int (*write_ahead)(source_t *s, int64_t batch_id, sl_error_t *err);
    /* Reads one split, handing batches (allocated in `a`) to `emit`. Worker
     * thread. Malformed records follow the stream's mode option; counts go
     * to the source's atomic counters below. */
    int (*read_split)(source_t *s, const source_split_t *split, sl_arena_t *a, source_emit_fn emit,
                      void *emit_arg, sl_error_t *err);
    /* A descriptor that becomes readable when data may have arrived since
     * the last latest_offset (the file source's directory watch), or -1
     * when the runner must poll for it; optional (NULL: poll). An idle
     * query sleeps on it. */
    int (*change_fd)(source_t *s);
    /* The query committed everything up to `end`; optional. */
    void (*commit)(source_t *s, const char *end);
    /* Appends Spark's description ("KafkaV2[Subscribe[t]]", "RateStream[...]"). */
    void (*describe)(source_t *s, sl_buf_t *out);
    /* Appends the progress metrics as JSON object members ("\"k\":\"v\",...")
     * without braces, or nothing; optional. */
    void (*metrics)(source_t *s, const char *end, const char *latest, sl_buf_t *out);
    void (*destroy)(source_t *s);
} source_ops_t;

struct source {
    const source_ops_t *ops;
    const conn_stream_t *rel; /* the stream: columns, options (lives in the query arena) */
    int index;                /* source id in plan order */
    const char *dir;          /* <checkpoint>/sources/<index>, created by the runner */
    const char *query_name;
    int64_t (*now_ms)(void); /* clock (tests may pin it) */
    atomic_llong malformed;  /* records that failed to parse (all modes) */
    atomic_llong dropped;    /* records dropped (DROPMALFORMED) */
    void *impl;
};

/* Creates the running source of a stream; -1 with err (bad options, I/O). */
int source_create(const conn_stream_t *rel, int index, const char *dir, const char *query_name,
                  sl_arena_t *a, source_t **out, sl_error_t *err);

#endif
