/* Internals shared by the join family (op_join_hash.c, op_join_nl.c,
 * op_join_stream.c) and by the dedup, sort and limit operators: gathering
 * rows into output vectors, the pair emitter that builds join output (with
 * the residual predicate and matched flags), the build-side hash table,
 * batch copies, event-time reading, and state-store plumbing (open,
 * load, schema record, commit, metrics).
 *
 * Not a public interface: the planner uses exec/op_join.h, op_dedup.h,
 * op_sort.h, op_limit.h and op_union.h. */
#ifndef SL_OP_JOIN_UTIL_H
#define SL_OP_JOIN_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "exec/hashtable.h"
#include "exec/op.h"
#include "state/store.h"

/* A row index meaning "no row": gathers a NULL cell. */
#define OP_JOIN_NO_ROW UINT32_MAX

/* ---- gathering ---------------------------------------------------------- */

/* A new vector in `a` of n rows whose row i is cell rows[i] of src (strings
 * stay views into src's memory); rows[i] == OP_JOIN_NO_ROW, or src == NULL,
 * gives NULL. t is src's type (or the type of the NULL vector). */
exec_vec_t op_join_gather_vec(sl_arena_t *a, exec_type_t t, const exec_vec_t *src,
                              const uint32_t *rows, uint32_t n);

/* Not-distinct equality of cell rx of x and cell ry of y (same type; structs
 * field by field; NULL equals NULL). Callers exclude top-level NULL keys. */
bool op_join_cells_equal(const exec_vec_t *x, uint32_t rx, const exec_vec_t *y, uint32_t ry);

/* True when any of columns cols[0..n) is NULL in physical row `row`. */
bool op_join_any_null(const exec_batch_t *b, uint32_t row, const int *cols, int n);

/* Copies the present rows of b into a new batch in `a` (no selection):
 * typed gathers, then string bytes copied into one block per column, so
 * the copy outlives b's memory. */
exec_batch_t *op_join_copy_batch(sl_arena_t *a, const exec_batch_t *b);
/* Gathers row rows[i] of batch batches[bidx[i]] for i < n into a new
 * vector in `a` (column `col` of nbatches >= 1 batches of one schema;
 * strings stay views into the batches). */
exec_vec_t op_join_gather_multi(sl_arena_t *a, exec_batch_t *const *batches, int nbatches, int col,
                                const uint32_t *bidx, const uint32_t *rows, uint32_t n);

/* ---- join output -------------------------------------------------------- */

/* Builds join output from pairs (row of side a, row of side b). Output
 * columns are left then right; side a is the left one when a_is_left. A
 * flush gathers the pending pairs into one batch in `arena`, keeps the
 * pairs that pass the residual, marks their rows in a_matched/b_matched,
 * and emits it. Sources (a, b) may change between flushes only. */
typedef struct op_join_emit {
    op_t *op;                    /* emits through op_emit(op, ...) */
    const exec_prog_t *residual; /* BOOLEAN over the output row; NULL = every pair joins */
    int a_is_left;               /* side a supplies the first output columns */
    int a_ncols, b_ncols;
    const exec_type_t *a_types; /* column types of side a */
    const exec_type_t *b_types;
    const exec_batch_t *a, *b; /* sources of the pending pairs' row numbers */
    uint8_t *a_matched;        /* per physical row of a: set when a pair joined; may be NULL */
    uint8_t *b_matched;        /* per physical row of b; may be NULL */
    uint32_t *arows, *brows;   /* pending pairs (EXEC_BATCH_ROWS of room) */
    uint32_t n;                /* pending pairs */
    sl_arena_t *arena;         /* where output batches are built (the task's scratch) */
    int reset_after_emit;      /* 1: reset `arena` after each emitted batch (finish()
                                      loops whose sources live elsewhere) */
} op_join_emit_t;

/* Sets up an emitter over the task's scratch arena; a_types/b_types must
 * outlive it (plan memory). */
void op_join_emit_init(op_join_emit_t *e, op_t *op, const exec_prog_t *residual, int a_is_left,
                       int a_ncols, const exec_type_t *a_types, int b_ncols,
                       const exec_type_t *b_types);
/* Queues the pair (arow of e->a, brow of e->b); flushes when full. */
int op_join_emit_pair(op_join_emit_t *e, uint32_t arow, uint32_t brow, sl_error_t *err);
/* Emits the pending pairs. */
int op_join_emit_flush(op_join_emit_t *e, sl_error_t *err);
/* Emits rows[0..n) of side a (side_b = 0) or side b (side_b = 1) with the
 * other side's columns NULL (outer-join rows; no residual). Flushes pending
 * pairs first so output keeps its order. */
int op_join_emit_outer(op_join_emit_t *e, int side_b, const uint32_t *rows, uint32_t n,
                       sl_error_t *err);

/* ---- join planning and setup ------------------------------------------- */

/* A join node: children[0] = probe, children[1] = build, output columns
 * the left side's then the right side's (probe_is_left says which is which). */
exec_pnode_t *op_join_node(sl_arena_t *a, const op_ops_t *ops, exec_pnode_t *probe,
                           exec_pnode_t *build, int probe_is_left, void *config);
/* Compiles a BOOLEAN predicate into *out (NULL for a NULL expression).
 * 42804 when it is not BOOLEAN. */
int op_join_compile_pred(sl_arena_t *a, const exec_expr_t *e, exec_prog_t **out, sl_error_t *err);
/* Checks key columns exist and pairs have one type (42804 / 22023). */
int op_join_check_keys(const exec_pnode_t *l, const int *lk, const exec_pnode_t *r, const int *rk,
                       int n, sl_error_t *err);
/* A copy of n ints in `a`. */
int *op_join_copy_ints(sl_arena_t *a, const int *v, int n);
/* True for a broadcast exchange node. */
bool op_join_is_broadcast(const exec_pnode_t *n);
/* True for a single-partition (gather) exchange node. */
bool op_join_is_gather(const exec_pnode_t *n);
/* Every row of a broadcast exchange as one batch without selection (the
 * exchange's own batch when there is one, else a copy in ctx->arena). */
exec_batch_t *op_join_broadcast_rows(op_t *op, const exec_pnode_t *exchange);
/* Appends " (l1 = r1, ...)" naming the key columns. */
void op_join_explain_keys(sl_buf_t *out, const exec_pnode_t *l, const int *lk,
                          const exec_pnode_t *r, const int *rk, int n);

/* Emits the present rows of b (side a when side_b is 0, else side b of the
 * emitter) whose matched[row] is 0, null-extended; row list in `a`. */
int op_join_emit_unmatched(op_join_emit_t *e, int side_b, const exec_batch_t *b,
                           const uint8_t *matched, sl_arena_t *a, sl_error_t *err);

/* ---- hash table over a build batch ------------------------------------ */

/* The build side of a hash join: exec/hashtable.h maps each distinct key to
 * an id; duplicates hang off it as a chain of build rows. Rows with a NULL
 * key are left out (they never match). Chains list rows in ascending order,
 * so matches come in build order. */
typedef struct op_join_ht {
    exec_ht_t *ht;
    uint32_t *head; /* key id -> first build row + 1 */
    uint32_t *next; /* build row -> next row of its chain + 1; 0 = end */
} op_join_ht_t;

/* Builds the table over every row of b (b->sel must be NULL) in `a`. */
void op_join_ht_build(op_join_ht_t *ht, sl_arena_t *a, const exec_batch_t *b, const int *keys,
                      int nkeys);
/* For every present row of b: first[row] = the first build row with an
 * equal key, or OP_JOIN_NO_ROW (always for NULL keys). first has b->nrows
 * entries; temporaries in `a`. */
void op_join_ht_probe(const op_join_ht_t *ht, sl_arena_t *a, const exec_batch_t *b, const int *keys,
                      int nkeys, uint32_t *first);
/* Build row after `row` in its chain, or OP_JOIN_NO_ROW. */
static inline uint32_t op_join_ht_next(const op_join_ht_t *ht, uint32_t row)
{
    return ht->next[row] - 1;
}

/* ---- event time --------------------------------------------------------- */

/* For an event-time column: -1 for TIMESTAMP, the index of field `end` for
 * a window STRUCT, -2 for any other type. */
int op_join_time_field(exec_type_t t);
/* Event time (microseconds) of cell `row`: the TIMESTAMP, or the window's
 * end when field >= 0. False when NULL. */
bool op_join_event_time(const exec_vec_t *v, int field, uint32_t row, int64_t *us);
/* For a key column that orders state by time (the first column of a state
 * key): -1 for TIMESTAMP, the index of `end` for a struct of TIMESTAMP
 * fields (a window), -2 otherwise. */
int op_join_key_time_field(exec_type_t t);
/* The time in a state key whose first column is such a column (field as
 * op_join_key_time_field gives it): a TIMESTAMP, or the window's end. False
 * when NULL or malformed. */
bool op_join_key_time(const uint8_t *k, size_t len, int field, int64_t *us);

/* Called for each state entry an eviction removes, before removal. */
typedef int (*op_join_evict_cb)(void *arg, const void *key, size_t klen, const void *val,
                                size_t vlen, sl_error_t *err);
/* Removes the entries of s whose key time (see op_join_key_time) is <=
 * bound_us, calling cb (may be NULL) for each first. A range scan: from
 * the first non-NULL time up to the bound (for a window, up to the first
 * start past it). */
int op_join_evict_by_key_time(store_t *s, int field, int64_t bound_us, op_join_evict_cb cb,
                              void *arg, sl_error_t *err);

/* A time at or before the watermark (ms; INT64_MIN = none) is late/final. */
static inline bool op_join_at_or_before(int64_t us, int64_t wm_ms)
{
    return wm_ms != INT64_MIN && us <= wm_ms * 1000;
}

/* ---- state stores ------------------------------------------------------- */

/* "name TYPE, ..." of columns cols[0..n) (all columns when cols is NULL). */
char *op_join_schema_text(sl_arena_t *a, const exec_pnode_t *node, const int *cols, int n);
/* Acquires store `name` (NULL = the default) of the node's operator for
 * the task's partition from the query's store cache (exec/store_cache.h;
 * opened with ctx->state_provider when not cached), records/checks its
 * schema (in the partition-0 task) and loads version ctx->batch_id. Counts
 * the instance in op->metrics. Give it back with op_join_store_release. */
store_t *op_join_store_open(op_t *op, const char *name, const char *key_schema,
                            const char *value_schema, sl_error_t *err);
/* Gives a store back to the cache at close (closes it without a cache).
 * Uncommitted changes are dropped by the next load. NULL is ignored. */
void op_join_store_release(op_t *op, store_t *s);
/* Commits stores[0..n) and fills op->metrics from them; numRowsTotal,
 * numRowsUpdated and numRowsRemoved count the first `nrows` stores only
 * (the others are indexes). */
int op_join_store_commit(op_t *op, store_t *const *stores, int n, int nrows, sl_error_t *err);

/* Big-endian helpers for state keys and values. */
void op_join_put_be64(sl_buf_t *b, uint64_t v);
uint64_t op_join_get_be64(const void *p);
/* The memcomparable form of a signed time (sign bit flipped, big-endian). */
static inline uint64_t op_join_time_key(int64_t us)
{
    return (uint64_t)us ^ (UINT64_C(1) << 63);
}

#endif
