/* HASH AGGREGATION: GROUP BY key columns with aggregate calls, in Spark's
 * plan shape, batch and streaming (Spark's HashAggregate, StateStoreRestore
 * and StateStoreSave).
 *
 * PHASES (one node each; output columns are always the keys first):
 *   BATCH      rows in -> keys + results. Single phase: every row of a
 *              group must reach the same task (an exchange on the keys in
 *              front, or one task). The only phase that takes DISTINCT.
 *   PARTIAL    rows in -> keys + BUFFER columns (exec/agg.h), one row per
 *              group of the task's input, emitted in finish(); it cuts the
 *              rows an exchange moves to one per group and task.
 *   FINAL      keys + buffers in (a PARTIAL's output through an exchange on
 *              the keys) -> keys + results.
 *   STREAMING  keys + buffers in -> keys + results, per output mode, with
 *              the groups' buffers kept across micro-batches in the state
 *              store state/<op_id>/<partition> (operatorName
 *              "stateStoreSave"; see op_agg.c for keys, late rows,
 *              eviction and what each mode emits). With ctx->state_dir
 *              NULL (a streaming plan run as a batch) it acts as FINAL.
 *   SESSION    keys + buffers in, one key a session window (each row's
 *              initial session, session_window()) -> keys + results, with
 *              the sessions of equal other keys that overlap or touch
 *              merged into one (Spark's MergingSessionsExec; agg_session.c).
 *   SESSION_STREAMING  the same, with each key's open sessions and their
 *              buffers kept in state (Spark's SessionWindowStateStoreSave,
 *              operatorName "sessionWindowStateStoreSaveExec";
 *              agg_session_stream.c): append mode emits a session once the
 *              watermark passes its end, complete mode every session every
 *              batch. With ctx->state_dir NULL it acts as SESSION.
 * With no group keys, BATCH and FINAL emit exactly one row even for no
 * input (count(*) = 0): their input must then be gathered into one task.
 *
 * The planner normally calls op_agg_plan(), which builds the whole shape:
 *   streaming:          PARTIAL -> EXCHANGE(hash keys) -> STREAMING
 *   batch:              PARTIAL -> EXCHANGE(hash keys) -> FINAL
 *   batch with DISTINCT:           EXCHANGE(hash keys) -> BATCH
 *   session window:     PARTIAL -> EXCHANGE(hash keys but the session)
 *                               -> SESSION or SESSION_STREAMING
 * (no keys: the exchange gathers into one partition). */
#ifndef SL_OP_AGG_H
#define SL_OP_AGG_H

#include "exec/agg.h"
#include "exec/op.h"

typedef enum op_agg_phase {
    OP_AGG_BATCH = 1,
    OP_AGG_PARTIAL,
    OP_AGG_FINAL,
    OP_AGG_STREAMING,
    OP_AGG_SESSION,
    OP_AGG_SESSION_STREAMING,
} op_agg_phase_t;

/* One aggregate call as the planner gives it. */
typedef struct op_agg_call {
    const char *func;   /* count, sum, avg, min, max, first, last, approx_count_distinct */
    int distinct;       /* f(DISTINCT x): batch plans only */
    int arg;            /* input column of the argument; -1 for count(*) */
    int ignore_nulls;   /* first/last IGNORE NULLS (default 0: Spark's) */
    double relative_sd; /* approx_count_distinct; 0 = 0.05 */
} op_agg_call_t;

/* An aggregation as the planner describes it (everything is copied). */
typedef struct op_agg_spec {
    int nkeys;
    const int *keys; /* input columns of the group key, in output order */
    int ncalls;
    const op_agg_call_t *calls;
    const char *const *names; /* nkeys + ncalls output column names */
    int event_key;            /* streaming: index INTO keys[] of the event-time key (a
                                  TIMESTAMP column or a window STRUCT<start, end>), or -1 */
    int session_key;          /* index INTO keys[] of a session window key (a window
                                  STRUCT holding each row's initial session), or -1 */
    output_mode_t mode;       /* streaming: output mode; 0 = the query's (ctx->mode) */
    int op_id;                /* streaming: state operator id (state/<op_id>/...) */
} op_agg_spec_t;

extern const op_ops_t op_agg_ops;                   /* "HashAggregate": BATCH, PARTIAL, FINAL */
extern const op_ops_t op_agg_streaming_ops;         /* "stateStoreSave": STREAMING (stateful) */
extern const op_ops_t op_agg_session_ops;           /* "MergingSessions": SESSION */
extern const op_ops_t op_agg_session_streaming_ops; /* "sessionWindowStateStoreSaveExec":
                                                       SESSION_STREAMING (stateful) */

/* The whole aggregation over `child` (see the shapes above): a streaming
 * one when `streaming`, with an exchange into `npartitions` partitions
 * (gather into 1 without keys). Errors: exec_agg_lookup's 42883/22023;
 * 0A000 for DISTINCT in a streaming or session aggregation; 42804 for an
 * event-time key that is neither TIMESTAMP nor a window, or a session key
 * that is not a window; 22023 for bad indexes. */
exec_pnode_t *op_agg_plan(sl_arena_t *a, exec_pnode_t *child, const op_agg_spec_t *spec,
                          int npartitions, int streaming, sl_error_t *err);

/* One BATCH or PARTIAL node over `child` (columns of spec relative to it). */
exec_pnode_t *op_agg_plan_phase(sl_arena_t *a, exec_pnode_t *child, op_agg_phase_t phase,
                                const op_agg_spec_t *spec, sl_error_t *err);
/* One FINAL, STREAMING, SESSION or SESSION_STREAMING node over `child`,
 * whose columns are those of the PARTIAL node `partial` (usually an
 * exchange over it). */
exec_pnode_t *op_agg_plan_merge(sl_arena_t *a, exec_pnode_t *child, const exec_pnode_t *partial,
                                op_agg_phase_t phase, sl_error_t *err);

/* The buffer schema text a STREAMING or SESSION_STREAMING node records in
 * its checkpoint (buffer columns per call), for EXPLAIN and tests. */
const char *op_agg_value_schema(const exec_pnode_t *node);

#endif
