/* exec functions: the one function catalogue. Every SQL function name
 * sluice knows is a row of the table in func.c: its kind, its argument
 * count, the signatures shown in hints, a bind step (argument type rules,
 * implicit casts, result type, constant arguments prepared once) and a
 * kernel (a loop over a batch).
 *
 * Scalar functions: lower, upper, substring/substr, concat, length/
 * char_length, position/locate, trim, btrim, ltrim, rtrim, abs, round,
 * coalesce, date_trunc, extract/date_part, to_timestamp,
 * current_timestamp/now, current_date, from_json, to_json, struct, named_struct, window
 * (tumbling, or sliding with slide = size), session_window (a row's
 * initial session [ts, ts + gap)), pg_sleep, version, and those PostgreSQL
 * clients' catalog queries call (func_pg.c: format_type, the privilege and
 * visibility tests, regular expression matches, text-form array helpers ...).
 * Aggregates (count, sum, avg, min, max, first, last, approx_count_distinct)
 * are named here so lookups can say what they are; the aggregate operator
 * implements them. window() with a slide smaller than its size is the
 * planner's (it makes several rows; exec_window_spec / exec_window_bounds
 * serve its operator); in GROUP BY, the planner merges the initial
 * sessions session_window() gives into sessions (exec/session.h).
 *
 * Lookup errors (PostgreSQL's wording):
 *   42883 function foo(integer) does not exist        (unknown name, or no
 *         signature takes those argument types; the hint lists the accepted
 *         signatures)
 *   42809 count is an aggregate function               (scalar use of an aggregate) */
#ifndef EXEC_FUNC_H
#define EXEC_FUNC_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/sl_error.h"
#include "model/batch.h"
#include "exec/expr.h"
#include "model/types.h"

typedef enum exec_func_kind {
    EXEC_FUNC_SCALAR,
    EXEC_FUNC_AGGREGATE, /* reserved: computed by the aggregate operator */
} exec_func_kind_t;

/* Flags of a catalogue entry. */
#define EXEC_FUNC_STRICT \
    1u                        /* NULL in any evaluated argument gives NULL (the kernel sees only
                                  rows without NULL arguments) */
#define EXEC_FUNC_VOLATILE 2u /* never folded at compile time (current_timestamp, pg_sleep) */

/* What a kernel gets for one batch. */
typedef struct exec_fcall {
    const exec_vec_t *const *args; /* one vector per argument; NULL for const_args */
    int nargs;
    exec_vec_t *out;      /* allocated with the result type over nrows rows; set
                                       out->nulls (exec_vec_make_nulls) to return NULLs */
    const uint32_t *rows; /* rows to compute (NULL: rows 0..nrows-1) */
    uint32_t nrows;       /* entries in rows, or the row count */
    uint32_t cap;         /* physical rows of every vector */
    const void *aux;      /* what bind prepared */
    struct exec_ctx *ctx; /* current_timestamp, cancel flag */
    sl_arena_t *arena;    /* for result strings (ctx->arena) */
} exec_fcall_t;

typedef int (*exec_func_kernel_t)(const exec_fcall_t *c, sl_error_t *err);

/* What bind sees and fills. */
typedef struct exec_bind {
    sl_arena_t *arena; /* the tree's arena (for aux and casts) */
    const struct exec_func *func;
    int nargs;
    exec_expr_t **args;        /* may be replaced by coerced trees */
    const char *const *names;  /* argument column names, or NULL */
    bool check_only;           /* exec_func_lookup: args are typed placeholders; skip
                                      checks that need constant values */
    exec_type_t type;          /* out: result type */
    void *aux;                 /* out: kernel data */
    uint32_t const_args;       /* out: bit i = args[i] was consumed here (not evaluated) */
    exec_func_kernel_t kernel; /* out: the kernel (preset to the entry's) */
} exec_bind_t;

typedef struct exec_func {
    const char *name; /* lowercase */
    exec_func_kind_t kind;
    int8_t min_args, max_args; /* max_args -1: any number */
    unsigned flags;            /* EXEC_FUNC_* */
    const char *signatures;    /* for hints: "lower(string)" ("; " between forms) */
    int (*bind)(exec_bind_t *b, sl_error_t *err); /* NULL for reserved names */
    exec_func_kernel_t kernel;
} exec_func_t;

/* The entry named `name` (case-insensitive), or NULL. */
const exec_func_t *exec_func_find(const char *name);
/* The catalogue's entries, for listing (pg_catalog.pg_proc): their
 * number and entry i (0 <= i < count). */
int exec_func_count(void);
/* pg_catalog.pg_proc's OID of entry i: EXEC_FUNC_OID_BASE + i. */
#define EXEC_FUNC_OID_BASE 14000
const exec_func_t *exec_func_at(int i);
/* True for the aggregate names (count, sum, avg, min, max, first, last,
 * approx_count_distinct). */
bool exec_func_is_aggregate(const char *name);
/* Resolves a scalar call from argument types alone: *out = the entry and
 * *ret = the result type (a STRUCT type's fields are allocated in `a`; for
 * from_json and named_struct, whose fields come from constant arguments,
 * a STRUCT with no fields). Errors as listed above. */
int exec_func_lookup(sl_arena_t *a, const char *name, int argc, const exec_type_t *argtypes,
                     const exec_func_t **out, exec_type_t *ret, sl_error_t *err);
/* Fills err with 42883 `function name(types) does not exist` and the hint
 * listing f's signatures (f may be NULL for an unknown name). */
int exec_func_no_match(const exec_func_t *f, const char *name, int argc,
                       const exec_type_t *argtypes, sl_error_t *err);
/* Runs the catalogue's bind step (used by exec_expr_call). */
int exec_func_bind(exec_bind_t *b, sl_error_t *err);

/* ---- time windows (Spark's TimeWindow) ---- */

typedef struct exec_window_spec {
    int64_t size_us;  /* window length, > 0 */
    int64_t slide_us; /* 0 < slide <= size (tumbling: slide == size) */
    int64_t start_us; /* offset of window starts from the epoch, 0 <= start < slide */
} exec_window_spec_t;

/* Reads window(ts, size[, slide[, start]])'s constant arguments (INTERVAL
 * or STRING like '10 minutes'; no months): 42804 for a non-TIMESTAMP
 * first argument, 22023 for a size, slide or start that is not a positive
 * fixed duration, a slide larger than the size, or more than
 * EXEC_WINDOW_MAX_OVERLAP windows per row. args[0] is not read. */
int exec_window_spec(exec_expr_t *const *args, int nargs, exec_window_spec_t *out, sl_error_t *err);
/* The most sliding windows a row may fall into (size / slide, rounded up):
 * more is refused (22023) rather than multiplying every row that much. */
#define EXEC_WINDOW_MAX_OVERLAP 1000
/* The windows containing ts (start <= ts < end), latest start first, as
 * Spark generates them: writes up to `max` [start, end) pairs into out
 * (out[2k] start, out[2k+1] end) and returns how many there are
 * (ceil(size / slide) at most). */
int exec_window_bounds(int64_t ts, const exec_window_spec_t *w, int64_t *out, int max);

#endif
