/* Stage execution: runs a physical plan once (one micro-batch, or one
 * ad-hoc SELECT) on the task pool.
 *
 * The plan is cut into stages at EXCHANGE nodes (op_exchange.h); stages run
 * one after another, producers first, and each stage runs as parallel tasks
 * (see exec/op.h). Inputs of INPUT leaves come from producers the caller
 * registers: one task per producer (a source split, a table scan, constant
 * rows). Output of the root is collected per task and concatenated in task
 * order, so a run over the same input yields the same output batches in the
 * same order (the file sink's exactly-once replay depends on it).
 *
 * Memory: every task has an arena that lives until exec_result_free() (input
 * batches, exchanged and output rows) and a scratch arena for expression
 * results, reset after each input batch has gone through the pipeline;
 * operators that keep rows beyond a push copy them into ctx->arena.
 *
 * Threads (common/arena.h's rule): a task creates both its arenas on the
 * thread that runs it and is their only owner while it runs; the stage's
 * shared state (exchange buffers, metrics, the "run" arena) is allocated by
 * the calling thread before the tasks start, and tasks only fill their own
 * slots of it. After the stage's join the calling thread reads the tasks'
 * rows, and exec_result_free() frees their arenas; it allocates from none
 * of them. */
/* A stage is fed either by INPUT leaves or by exchanges, never both: the
 * planner puts an exchange on the input side when a union or join would mix
 * them (a mixed stage would feed only its INPUT leaves). */
#ifndef SL_EXEC_STAGE_H
#define SL_EXEC_STAGE_H

#include "exec/op.h"
#include "common/pool.h"

/* Hands each batch a producer makes to the stage. */
typedef int (*exec_emit_fn)(void *arg, exec_batch_t *b, sl_error_t *err);
/* Produces the rows of one input task into `emit`; batches allocated in `a`. */
typedef int (*exec_produce_fn)(void *arg, sl_arena_t *a, exec_emit_fn emit, void *emit_arg,
                               sl_error_t *err);

typedef struct exec_input {
    const exec_pnode_t *leaf; /* the INPUT node fed */
    exec_produce_fn produce;
    void *arg;
    int partition; /* reported to operators as ctx->partition */
} exec_input_t;

typedef struct exec_result {
    exec_batch_t **batches; /* root output, task order then emit order */
    int nbatches;
    int64_t nrows;
    op_metrics_t *metrics; /* per node id (exec_pnode_t.id), summed over tasks */
    int nnodes;
    sl_arena_t **arenas; /* every task's arena; freed by exec_result_free */
    int narenas;
} exec_result_t;

/* Numbers the nodes of a plan (exec_pnode_t.id, pre-order); returns the
 * count. The planner calls it once; exec_run relies on the numbering. */
int exec_plan_number(exec_pnode_t *root);
/* Runs the plan. `base` gives batch id, watermarks, mode, state directory,
 * provider and partitions (arena, ectx, partition and run are per task).
 * On error every task's work is abandoned and the result freed. */
int exec_run(const exec_pnode_t *root, const op_ctx_t *base, int64_t batch_timestamp_ms,
             const atomic_int *cancel, exec_pool_t *pool, const exec_input_t *inputs, int ninputs,
             exec_result_t *out, sl_error_t *err);
void exec_result_free(exec_result_t *r);
/* Every value of column `col` of a result, in order, copied into `a`
 * (strings included, so they outlive the result); *n gets the count. */
exec_value_t *exec_result_column(const exec_result_t *r, int col, sl_arena_t *a, int64_t *n);

/* For operators that read a broadcast exchange (the build side of a join
 * with a static table): every batch it collected, in order. */
int exec_broadcast_batches(const op_t *op, const exec_pnode_t *exchange, exec_batch_t ***out);

/* The leaf node that receives input (ops of INPUT nodes, see op_input.c). */
extern const op_ops_t op_input_ops;
/* An INPUT leaf with the given output schema; `tag` (copied) names what
 * feeds it in EXPLAIN ("stream clicks", "table tiers"). */
exec_pnode_t *op_input_plan(sl_arena_t *a, int ncols, const char *const *names,
                            const exec_type_t *types, const char *tag);

#endif
