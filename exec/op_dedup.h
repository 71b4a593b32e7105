/* DEDUPLICATE: SELECT DISTINCT ON (keys) * — keeps the first row of each
 * key (Spark's dropDuplicates, operatorName "dedupe") or, WITHIN WATERMARK,
 * the first row of each key while the key's first occurrence is younger
 * than the watermark delay (dropDuplicatesWithinWatermark,
 * "dedupeWithinWatermark"). Output columns are the input's.
 *
 * Batch mode (ctx->state_dir NULL): a hash set of keys (exec/hashtable.h)
 * per task; keys are compared as SQL grouping does (NULL equals NULL).
 * The planner gathers the input into one partition, or hash-partitions it
 * on the keys, first. "First" is the input order within the task.
 *
 * Streaming: the planner puts a hash exchange on the keys in front; each
 * task keeps its partition's keys in the state store state/<op_id>/<part>.
 * See op_dedup.c for the key layout, late rows and eviction. */
#ifndef SL_OP_DEDUP_H
#define SL_OP_DEDUP_H

#include "exec/op.h"

extern const op_ops_t op_dedup_ops, op_dedup_within_wm_ops;

typedef struct op_dedup_spec {
    int nkeys;            /* >= 1 */
    const int *keys;      /* DISTINCT ON columns of the child (copied) */
    int time_col;         /* the child's watermarked event-time column (TIMESTAMP or window)
                               when the input has a watermark, else -1: rows with time <=
                               op->wm.late_ms are dropped and counted */
    int evict_key;        /* dropDuplicates: index into keys of the event-time key column;
                               state of keys whose time <= op->wm.evict_ms is evicted;
                               -1 = no eviction (state grows with the keys) */
    int within_watermark; /* 1: dropDuplicatesWithinWatermark (needs time_col) */
    int64_t delay_ms;     /* within watermark: a key expires at first event time + delay */
    int op_id;            /* state/<op_id>/ (streaming) */
} op_dedup_spec_t;

/* DEDUPLICATE over child. Errors: 22023 for a key index out of range, an
 * evict_key out of range or WITHIN WATERMARK without time_col; 42804 when
 * time_col or the evict key column is neither a TIMESTAMP nor a window. */
exec_pnode_t *op_dedup_plan(sl_arena_t *a, exec_pnode_t *child, const op_dedup_spec_t *spec,
                            sl_error_t *err);

#endif
