/* Joins: the planning constructors of the three join operators.
 *
 *   HASH JOIN (op_join_hash.c, "HashJoin"): equi-join with an optional
 *     residual predicate; stateless. Two shapes, chosen by the build child:
 *     - BROADCAST: build = op_exchange_plan(..., broadcast=1). Every probe
 *       task reads all build rows in open() (exec_broadcast_batches) and
 *       builds its own hash table; probe rows stream through push(). This is
 *       the stream-static join (the static table is re-read every
 *       micro-batch, so its changes are seen from the next batch on) and
 *       the batch join with a small side.
 *     - PARTITIONED: probe and build are both hash exchanges on their keys
 *       into the same number of partitions. Each task buffers its partition
 *       of both sides and joins them in finish(). Any join type; the shape
 *       for batch joins of two large inputs and for RIGHT/FULL joins.
 *   NESTED-LOOP JOIN (op_join_nl.c, "NestedLoopJoin"): CROSS JOIN and ON
 *     conditions without equalities, over a broadcast build; stateless, so
 *     it also serves stream-static joins (INNER, or LEFT with the stream
 *     on the left).
 *   STREAM-STREAM JOIN (op_join_stream.c, Spark's "symmetricHashJoin"):
 *     stateful; see op_stream_join_spec_t.
 *
 * OUTPUT is always the left side's columns then the right side's. For the
 * hash and nested-loop joins the planner says which side is the probe
 * (children[0]) with `probe_is_left`: a RIGHT join is best planned with the
 * right side as the probe (probe_is_left = 0), so the preserved side
 * streams. When the BUILD side is preserved (RIGHT with a left probe, FULL,
 * or LEFT with a right probe) its unmatched rows are emitted in finish(),
 * which needs every probe row in the same task: with a broadcast build the
 * probe child must then be a single-partition exchange (gather,
 * op_exchange_plan(child, NULL, 0, 1, 0)); the partitioned shape needs
 * nothing more. The constructors refuse other shapes (0A000).
 *
 * NULL join keys never match (an outer join still emits their rows with
 * the other side NULL). Key columns are given as column indexes of each
 * child (the planner projects computed keys into columns first); the two
 * columns of a key pair must have the same type (the planner casts first).
 * Residual predicates are BOOLEAN expressions over the output row (left
 * columns then right columns), compiled by the constructors. */
#ifndef SL_OP_JOIN_H
#define SL_OP_JOIN_H

#include "exec/op.h"

typedef enum op_join_type {
    OP_JOIN_INNER = 1,
    OP_JOIN_LEFT,  /* LEFT OUTER: every left row at least once */
    OP_JOIN_RIGHT, /* RIGHT OUTER */
    OP_JOIN_FULL,  /* FULL OUTER */
    OP_JOIN_CROSS, /* nested-loop only: INNER without a predicate */
} op_join_type_t;

extern const op_ops_t op_hash_join_ops, op_nl_join_ops, op_stream_join_ops;

/* "INNER", "LEFT OUTER", "RIGHT OUTER", "FULL OUTER", "CROSS". */
const char *op_join_type_name(op_join_type_t t);

/* HASH JOIN of probe (children[0]) with build (children[1]: a broadcast
 * exchange, or a hash exchange when probe is one too) on probe_keys[i] =
 * build_keys[i] (nkeys >= 1) and the optional residual (NULL = none).
 * Errors: 42804 when a key pair's types differ or the residual is not
 * BOOLEAN; 0A000 for a shape the header essay rules out. */
exec_pnode_t *op_hash_join_plan(sl_arena_t *a, exec_pnode_t *probe, exec_pnode_t *build,
                                const int *probe_keys, const int *build_keys, int nkeys,
                                op_join_type_t type, int probe_is_left, const exec_expr_t *residual,
                                sl_error_t *err);

/* NESTED-LOOP JOIN of probe (children[0]) with build (children[1], a
 * broadcast exchange): every pair for which pred (NULL for CROSS) is true.
 * Same errors as op_hash_join_plan. */
exec_pnode_t *op_nl_join_plan(sl_arena_t *a, exec_pnode_t *probe, exec_pnode_t *build,
                              op_join_type_t type, int probe_is_left, const exec_expr_t *pred,
                              sl_error_t *err);

/* What the planner decides for a stream-stream join.
 *
 * Children: left = children[0] and right = children[1], each a hash
 * exchange on its key columns into the query's shuffle partitions.
 *
 * State: per partition a store per side ("left", "right") holding the
 * side's rows as a multimap: key = memcomparable join key (the evict_key
 * column first) + the batch id and a sequence number, value = a matched
 * flag + the encoded row. A side with value-based eviction also keeps an
 * index store ("left_time", "right_time"): key = event time + the row's
 * key, so eviction is a range scan. num_state_store_instances counts every
 * store (2 to 4 per partition).
 *
 * Per input row: dropped and counted when late (its side's event time <=
 * op->wm.late_ms); a row with a NULL key can never match and is emitted at
 * once with the other side NULL when its side is preserved (dropped
 * otherwise); else it joins with the other side's state (residual applied)
 * and is stored with its matched flag. Every non-late row is stored, even
 * one already past its side's eviction bound: a row of the other side in
 * the same micro-batch may still match it; finish() evicts it.
 *
 * finish(): evicts state by the eviction predicate — key-based when
 * evict_key >= 0 (rows whose key time, a TIMESTAMP or a window's end, is
 * <= op->wm.evict_ms, both sides), else value-based per side with a bound
 * (rows whose event time <= op->wm.evict_ms + bound_ms) — and emits the
 * unmatched evicted rows of the preserved side(s) null-extended (LEFT:
 * left rows, RIGHT: right rows, FULL: both; INNER evicts silently). Then
 * commits every store. Append mode only (the planner checks). */
typedef struct op_stream_join_spec {
    op_join_type_t type;         /* INNER, LEFT, RIGHT or FULL */
    int nkeys;                   /* >= 1 */
    const int *left_keys;        /* key columns of the left child (copied) */
    const int *right_keys;       /* key columns of the right child, same types */
    const exec_expr_t *residual; /* BOOLEAN over left ++ right, or NULL */
    int left_time, right_time;   /* event-time column of each side (TIMESTAMP, or a window
                                      STRUCT whose end counts) for late rows; -1 = none */
    int evict_key;               /* index into the key lists of a watermarked key column
                                      (TIMESTAMP or window): key-based eviction; -1 = none */
    int left_has_bound;          /* value-based eviction of left rows (needs left_time) */
    int64_t left_bound_ms;       /* left state watermark = op->wm.evict_ms + left_bound_ms */
    int right_has_bound;         /* the same for the right side */
    int64_t right_bound_ms;
    int op_id; /* state/<op_id>/ */
} op_stream_join_spec_t;

/* STREAM-STREAM JOIN. Errors: 42804 for key type mismatches, a residual
 * that is not BOOLEAN, or event-time columns that are neither TIMESTAMP
 * nor a window; 22023 for a value bound without an event-time column or
 * an evict_key out of range. */
exec_pnode_t *op_stream_join_plan(sl_arena_t *a, exec_pnode_t *left, exec_pnode_t *right,
                                  const op_stream_join_spec_t *spec, sl_error_t *err);

#endif
