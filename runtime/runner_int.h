/* Internals of the micro-batch runner shared by runner.c (the protocol) and
 * runner_progress.c (StreamingQueryProgress). */
#ifndef SL_RUNNER_INT_H
#define SL_RUNNER_INT_H

#include "common/json_write.h"
#include "runtime/runner.h"
#include "state/checkpoint.h"

/* Batches in a row that must add state and drop none, with no watermark,
 * before a stateful operator is warned about (runner_state_guard.c). */
#define RUNNER_GROWTH_BATCHES 10

/* The recent growth of one stateful operator's state. */
typedef struct runner_growth {
    int64_t rows, bytes; /* numRowsTotal and memoryUsedBytes after the last batch */
    int streak;          /* batches in a row that grew it with no watermark */
    int warned;          /* the log has the warning of this streak */
} runner_growth_t;

/* Durations of the phases of one trigger (ms), Spark's durationMs keys. */
typedef struct runner_durations {
    int64_t latest_offset, wal_commit, get_batch, query_planning, add_batch, commit_offsets;
    int64_t trigger_execution;
    int ran_wal, ran_batch; /* which phases happened */
} runner_durations_t;

/* What one trigger saw, for its progress report. */
typedef struct runner_trigger_info {
    int64_t start_ms; /* trigger start (wall clock) */
    int64_t batch_id;
    int ran;                     /* a batch executed */
    const char **start;          /* per source offsets (NULL = none) */
    const char **reported_start; /* startOffset in progress: NULL before the first commit */
    const char **end;
    const char **latest;
    int64_t *rows; /* per source input rows */
    int64_t total_rows;
    int64_t output_rows;   /* sink numOutputRows */
    int64_t batch_wm_ms;   /* watermark the batch used */
    op_metrics_t *metrics; /* per node id, of the batch (NULL when idle) */
    ckpt_staged_t *commit; /* commits/N staged by runner_run_batch, or NULL */
    runner_durations_t d;
} runner_trigger_info_t;

struct runner {
    runner_spec_t spec;
    sl_arena_t *arena;         /* lives with the runner; driver thread only */
    sl_arena_t *trigger_arena; /* reset at each trigger; driver thread only */
    ckpt_t *ckpt;
    struct exec_store_cache *stores; /* stateful operators' stores, open across batches */
    char run_id[37];
    int64_t next_batch;
    int rerun; /* the next trigger re-runs next_batch over rerun_end */
    const char **rerun_end;
    int64_t rerun_ts;
    const char **committed; /* per source: end of the last committed batch, or NULL */
    int64_t watermark_ms;   /* batchWatermarkMs of the next batch */
    int64_t prev_batch_wm;  /* watermark of the last executed batch (late-row filter) */
    int64_t evicted_wm;     /* watermark stateful operators last evicted by, -1 none */
    int64_t *node_wm;       /* per WATERMARK node */
    int caught_up;
    int data_available;
    int64_t last_sink_id;       /* continuous: the last batch id given to the sink */
    const char *status;         /* StreamingQueryStatus message */
    int64_t last_trigger_start; /* wall ms of the previous trigger, 0 = none */
    int64_t last_idle_report;   /* wall ms of the last idle report or executed batch */
    op_metrics_t *last_metrics; /* of the last executed batch (idle reports reuse them) */
    int last_nnodes;
    sl_buf_t progress;         /* last report (compact JSON) */
    double in_rate, proc_rate; /* its rates (NaN when not finite) */
    int progress_new;
    runner_growth_t *growth; /* per stateful node (spec.stateful order) */
};

/* The settings pinned in every offsets/N (in the trigger arena). */
ckpt_conf_entry_t *runner_pinned_conf(runner_t *r, int *n);

/* Pieces of a trigger, shared by the micro-batch protocol (runner.c) and
 * continuous epochs (runner_continuous.c). */
void runner_trigger_init(runner_t *r, runner_trigger_info_t *t);
/* The start offset of source i: the last committed end, else its initial offset. */
int runner_source_start(runner_t *r, int i, const char **out, sl_error_t *err);
/* Writes offsets/<t->batch_id> over t->end; lets sources drop what is committed. */
int runner_write_ahead(runner_t *r, runner_trigger_info_t *t, int64_t ts, sl_error_t *err);
/* Runs the plan over (t->start, t->end] into the sink as `sink_batch_id`;
 * adds the rows read and written to t. The batch's write-ahead records —
 * offsets/<t->batch_id> with RUNNER_BATCH_OFFSETS, and the sources'
 * write_ahead — are written while it runs and are durable before the sink
 * publishes it; with RUNNER_BATCH_COMMIT commits/<t->batch_id> is staged
 * (t->commit) while the sink commits. */
#define RUNNER_BATCH_OFFSETS 1
#define RUNNER_BATCH_COMMIT 2
int runner_run_batch(runner_t *r, runner_trigger_info_t *t, int64_t ts, int64_t sink_batch_id,
                     int flags, sl_error_t *err);
/* Writes commits/<t->batch_id> (publishes t->commit when staged); the
 * committed offsets become t->end. */
int runner_commit_batch(runner_t *r, runner_trigger_info_t *t, sl_error_t *err);
/* Times the trigger and builds its report when one is due. */
void runner_finish_report(runner_t *r, runner_trigger_info_t *t, int64_t mono0);

/* sluice.stateStore.maxMemory over the batch's metrics `m` (per node id):
 * 0, or -1 with a 53200 error naming the largest operator. */
int runner_check_state_memory(const runner_t *r, const op_metrics_t *m, sl_error_t *err);
/* Follows each stateful operator's state size over batches (`wm`: the
 * batch's operator watermarks, NULL = none); logs a warning when it keeps
 * growing with no watermark. */
void runner_watch_state_growth(runner_t *r, const op_metrics_t *m, const op_wm_t *wm);
/* Appends "warnings": [...] for the operators runner_watch_state_growth
 * warns about, or nothing. */
void runner_growth_warnings(const runner_t *r, sl_json_t *j);

/* Records sink/options (runner_check.c) when the checkpoint has none yet. */
int runner_record_sink_options(const runner_spec_t *spec, sl_error_t *err);

/* Builds the trigger's StreamingQueryProgress into r->progress. */
void runner_progress_build(runner_t *r, const runner_trigger_info_t *t);

#endif
