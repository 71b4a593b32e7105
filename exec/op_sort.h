/* SORT: ORDER BY over every row of its task, stable (rows with equal keys
 * keep their input order). The planner gathers the input into a single
 * partition first (op_exchange_plan(child, NULL, 0, 1, 0)) so the output
 * is globally ordered. Used by batch SELECTs and, per micro-batch, by
 * complete-mode streaming queries (it sorts each batch's complete output;
 * no state). Output columns are the input's. */
#ifndef SL_OP_SORT_H
#define SL_OP_SORT_H

#include "exec/op.h"

extern const op_ops_t op_sort_ops;

/* One ORDER BY item. */
typedef struct op_sort_key {
    int column;      /* column of the child (the planner projects computed keys first) */
    int desc;        /* 1 = DESC */
    int nulls_first; /* 1 = NULLS FIRST, 0 = NULLS LAST, -1 = PostgreSQL's default
                         (LAST for ASC, FIRST for DESC) */
} op_sort_key_t;

/* SORT child by keys[0..nkeys) (copied). limit >= 0 emits only the first
 * `limit` rows (the planner passes LIMIT + OFFSET and keeps a LIMIT node
 * above); -1 = every row. 22023 for a key column out of range. */
exec_pnode_t *op_sort_plan(sl_arena_t *a, exec_pnode_t *child, const op_sort_key_t *keys, int nkeys,
                           int64_t limit, sl_error_t *err);

#endif
