/* Operators: the contract every physical operator implements (one file per
 * operator, exec/op_<name>.c, in the manner of PostgreSQL's executor nodes),
 * and the physical plan node they are built from.
 *
 * PHYSICAL PLAN. The planner builds a tree of exec_pnode_t (read-only once
 * built, shared by every task and every micro-batch). A node names its
 * implementation (`ops`) and carries the operator's configuration (`config`,
 * the operator's own struct, made by its planning constructor in
 * exec/op_<name>.h). EXCHANGE nodes split the tree into stages: a stage is
 * the subtree under an EXCHANGE or the root, down to its leaves (INPUT
 * nodes, which receive source splits or table batches, and EXCHANGE nodes
 * of earlier stages, read back partition by partition).
 *
 * TASKS. A stage runs as tasks on the worker pool: one per input split for
 * a stage over sources, one per partition for a stage over exchanges. Each
 * task instantiates every operator of its stage (op_t, private state), pushes
 * its input into the leaves, then calls finish() on every operator, children
 * before parents, and close(). So an operator sees: open, push* (any number
 * of batches, from input 0 and, for joins, input 1), finish, close.
 *
 * PUSH. push(op, input, batch) consumes a batch and hands results to its
 * parent with op_emit(); batches may be emitted from push or from finish.
 * A batch and its vectors live in the task arena (ctx->arena) until the
 * micro-batch ends; an operator keeps nothing from a pushed batch after
 * push returns unless it copies it (state lives in state stores, not in
 * operator memory, between micro-batches).
 *
 * STATE. Stateful operators (aggregation, deduplication, stream-stream join,
 * limit) run only in stages over exchanges, so that one task owns one
 * partition of their state: they open state/<op_id>/<partition> through
 * state/store.h with ctx->state_dir, load version ctx->batch_id, and commit
 * version batch_id + 1 in finish(). In batch mode (ad-hoc SELECT)
 * ctx->state_dir is NULL and they keep everything in the task arena.
 *
 * WATERMARKS. Each stateful operator instance has its own input watermarks
 * (op->wm), as in Spark 3.5 with several stateful operators: the runner
 * propagates the query's watermark through the plan (exec/wm_propagate.h),
 * so an operator above a stream-stream join sees the join's output
 * watermark, which may lag the query's. op->wm.late_ms (propagated from the
 * previous batch's watermark) decides which input rows are late (event time
 * <= it); op->wm.evict_ms (from this batch's watermark) which state is
 * final (emitted in append mode) and evicted. */
#ifndef SL_EXEC_OP_H
#define SL_EXEC_OP_H

#include <stdatomic.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/sl_assert.h"
#include "common/sl_error.h"
#include "exec/expr.h"
#include "model/batch.h"
#include "model/output_mode.h"

typedef struct op op_t;
typedef struct exec_pnode exec_pnode_t;

/* Counters of one operator instance (one task); the runner sums the tasks
 * of an operator into Spark's StateOperatorProgress. */
typedef struct op_metrics {
    int64_t rows_in, rows_out;
    int64_t num_rows_total; /* state rows after commit */
    int64_t num_rows_updated;
    int64_t num_rows_removed;
    int64_t num_rows_dropped_by_watermark;
    int64_t memory_used_bytes;
    int64_t all_updates_time_ms, all_removals_time_ms, commit_time_ms;
    int64_t num_state_store_instances;
    int ncustom; /* custom metrics (name -> value), sorted by name */
    const char *custom_names[32];
    int64_t custom_values[32];
    /* event time seen by a WATERMARK node (ms): for eventTime{} and the next watermark */
    int64_t et_count, et_min, et_max;
    double et_sum;
} op_metrics_t;

/* The input watermarks of a stateful operator in one micro-batch (ms). */
typedef struct op_wm {
    int64_t late_ms;  /* rows with event time <= this are late; INT64_MIN = none */
    int64_t evict_ms; /* state at or before this is final; INT64_MIN = none */
} op_wm_t;

/* What an operator instance knows of its task. */
typedef struct op_ctx {
    sl_arena_t *arena;               /* task memory; lives until the micro-batch ends */
    exec_ctx_t *ectx;                /* expression context of this task (scratch reset per push) */
    int64_t batch_id;                /* micro-batch id; 0 for ad-hoc SELECT */
    int task;                        /* this task's number within its stage (0..ntasks-1) */
    int partition;                   /* the partition this task works on: the shuffle partition
                                    in a stage over exchanges, the input's partition else */
    int npartitions;                 /* partitions of exchanges (the query's shuffle partitions) */
    const op_wm_t *wm;               /* per op_id (exec_pnode_t.op_id, 0 .. stateful nodes - 1):
                                    the input watermarks of each stateful node; NULL = none */
    output_mode_t mode;              /* output mode of the query (batch SELECT: COMPLETE) */
    const char *state_dir;           /* <checkpoint>/state, or NULL in batch mode */
    const char *state_provider;      /* "memory" | "rocksdb" */
    int is_replay;                   /* re-running a batch logged before a crash */
    void *run;                       /* the execution this task belongs to (exec/stage.h) */
    struct exec_store_cache *stores; /* state stores kept open across batches (exec/store_cache.h),
                                        NULL: open and close per batch */
} op_ctx_t;

typedef struct op_ops {
    const char *name; /* EXPLAIN name; stateful ones use Spark's operatorName
                          ("stateStoreSave", "dedupe", "symmetricHashJoin", ...) */
    int stateful;     /* 1: needs an exchange in front and a state directory */
    int (*open)(op_t *op, sl_error_t *err);
    int (*push)(op_t *op, int input, exec_batch_t *b, sl_error_t *err);
    int (*finish)(op_t *op, sl_error_t *err);
    void (*close)(op_t *op);
    /* Appends the EXPLAIN line of the node (after its name): keys, exprs,
     * state, watermark use. */
    void (*explain)(const exec_pnode_t *node, sl_buf_t *out);
    /* Stateful nodes (Spark's shouldRunAnotherBatch): whether the node has
     * work in a batch without new rows once the watermark moved past its
     * last eviction, in output mode `mode`. NULL: never. */
    int (*wants_nodata_batch)(const exec_pnode_t *node, output_mode_t mode);
    /* Stateful nodes that may emit rows older than their input watermark
     * (Spark's produceOutputWatermark; the stream-stream join): the
     * watermark of their output given their input watermark (ms). NULL:
     * the input watermark. */
    int64_t (*output_watermark)(const exec_pnode_t *node, int64_t input_ms);
    /* Stateful nodes: the schema record of their store number `i` (0, 1,
     * ...), the texts open() records in or compares with
     * <state>/<op_id>/_metadata (state/store.h store_schema_check), so that
     * a start can compare them before any batch runs. Returns 1 with *name
     * (NULL: the default store), *key and *value set, 0 past the last
     * store. NULL: the node records none. */
    int (*state_schema)(const exec_pnode_t *node, int i, const char **name, const char **key,
                        const char **value);
} op_ops_t;

/* A physical plan node. */
struct exec_pnode {
    const op_ops_t *ops;
    int ncols; /* output columns */
    const char **names;
    exec_type_t *types;
    int nchildren; /* 0 (INPUT), 1, or 2 (joins, union arms use a list below) */
    exec_pnode_t *children[2];
    int op_id;    /* stateful operators: state/<op_id>; else -1 */
    int id;       /* node number, unique in the plan (metrics index) */
    void *config; /* the operator's own configuration */
};

/* An operator instance in a task. */
struct op {
    const op_ops_t *ops;
    const exec_pnode_t *node;
    op_ctx_t *ctx;
    op_t *parent;          /* receives op_emit(); NULL at a stage root */
    int parent_input;      /* which input of the parent this feeds */
    op_metrics_t *metrics; /* this instance's counters */
    op_wm_t wm;            /* stateful nodes: ctx->wm[node->op_id]; else none */
    void *state;           /* the operator's private data */
};

/* Hands a batch to the parent. */
static inline int op_emit(op_t *op, exec_batch_t *b, sl_error_t *err)
{
    SL_ASSERT(op->parent != NULL);
    SL_ASSERT(b->ncols == op->node->ncols); /* a node's batches have its schema's columns */
    if (exec_batch_count(b) == 0) return 0;
    op->metrics->rows_out += exec_batch_count(b);
    return op->parent->ops->push(op->parent, op->parent_input, b, err);
}

/* Allocates a node with `ncols` output columns in `a`. */
exec_pnode_t *exec_pnode_new(sl_arena_t *a, const op_ops_t *ops, int ncols, void *config);
/* Copies names and types into the node. */
void exec_pnode_set_schema(sl_arena_t *a, exec_pnode_t *n, const char *const *names,
                           const exec_type_t *types);
/* Sets a custom metric (kept sorted by name). */
void op_metric_set(op_metrics_t *m, const char *name, int64_t value);

#endif
