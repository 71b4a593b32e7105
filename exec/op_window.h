/* WINDOW EXPAND: Spark's sliding-window expansion (TimeWindowing) for
 * GROUP BY window(ts, size, slide[, start]) with slide < size. Each input
 * row becomes one row per window that contains its timestamp (start <= ts
 * < end), latest window first, as Spark generates them
 * (exec_window_bounds); the window is appended as a last column of type
 * STRUCT<start: TIMESTAMP, end: TIMESTAMP>. Rows whose timestamp is NULL
 * produce no row (Spark filters them). Stateless; the input's columns are
 * gathered into scratch memory (strings stay views of the input). */
#ifndef SL_OP_WINDOW_H
#define SL_OP_WINDOW_H

#include "exec/func.h"
#include "exec/op.h"

typedef struct op_window_config {
    int ts_col;              /* TIMESTAMP column of the child */
    exec_window_spec_t spec; /* size, slide, start (µs), as exec_window_spec checks them */
} op_window_config_t;

extern const op_ops_t op_window_ops;

/* WINDOW EXPAND over `child`: its columns, then the window column named
 * `name`. 42804 when ts_col is not a TIMESTAMP; 22023 for a size or slide
 * that is not positive, a slide larger than the size, or a start outside
 * (-slide, slide) (normalised into [0, slide) as Spark does). */
exec_pnode_t *op_window_plan(sl_arena_t *a, exec_pnode_t *child, int ts_col, int64_t size_us,
                             int64_t slide_us, int64_t start_us, const char *name, sl_error_t *err);

#endif
