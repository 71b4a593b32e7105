/* exec aggregates: the aggregate function catalogue (count, sum, avg, min,
 * max, first, last, approx_count_distinct, and f(DISTINCT x)), their result
 * types, their BUFFER SCHEMAS and vectorised kernels.
 *
 * BUFFERS. Each aggregate keeps its running state as a short row of typed
 * columns (Spark's aggBufferAttributes), the same columns in every place:
 *   count(*), count(x)      {count BIGINT}                       init 0
 *   sum(x)                  {sum T, isEmpty BOOLEAN}             init 0, true
 *                           T = BIGINT for INT/BIGINT, DOUBLE, DECIMAL(min(38,p+10),s)
 *   avg(x)                  {sum T, count BIGINT}                init 0, 0
 *                           T = DOUBLE, or DECIMAL(min(38,p+10),s) for DECIMAL(p,s)
 *   min(x), max(x)          {min|max X}                          init NULL
 *   first(x), last(x)       {first|last X, valueSet BOOLEAN}     init NULL, false
 *   approx_count_distinct   {sketch BINARY}                      init NULL (= all registers 0)
 * In the hash aggregation the buffers of all groups are column vectors
 * indexed by group id (exec_agg_state_t); a PARTIAL aggregation emits them
 * as columns; the streaming aggregation stores them per key as an encoded
 * row (model/row.h) and decodes them back into vectors. So update, merge and
 * finalize all work on vectors, never on one value at a time.
 *
 * SEMANTICS (Spark SQL, ANSI mode):
 * - count(x) counts non-NULL x; count(*) every row; count(DISTINCT x)
 *   distinct non-NULL values. DISTINCT works with every function, in a
 *   single-phase (BATCH) aggregation only: its buffers cannot be merged.
 * - sum over no non-NULL value is NULL; an INT/BIGINT sum outside BIGINT,
 *   or a DECIMAL sum outside its result precision, fails with 22003.
 * - avg = sum / count: DOUBLE, or DECIMAL(p+4, s+4) (at most 38 digits,
 *   rounded half up) for DECIMAL(p, s); NULL without values.
 * - min/max over any scalar type (strings bytewise, doubles with NaN
 *   largest); NULLs skipped.
 * - first(x)/last(x) take the first/last value in input order INCLUDING
 *   NULL, as Spark's default (ignoreNulls = false); with ignore_nulls they
 *   take the first/last non-NULL value. Input order is the order rows
 *   reach the task; across partial buffers, the earlier buffer wins for
 *   first and the later for last (as Spark, not deterministic across
 *   partitions).
 * - approx_count_distinct(x[, relativeSD]): HyperLogLog++ as Spark sizes
 *   it (p = ceil(2 log2(1.106 / relativeSD)), default relativeSD 0.05 ->
 *   p = 9, 512 registers; one byte per register in the buffer) over a
 *   64-bit hash of the value, with Ertl's improved raw estimator (2017)
 *   standing in for HLL++'s empirical bias tables: unbiased over the whole
 *   range, standard error about 1.04 / sqrt(2^p). NULLs are not counted.
 *
 * Lookup errors: 42883 `function sum(boolean) does not exist` with a hint
 * listing the accepted argument types; 22023 for a bad relativeSD. */
#ifndef EXEC_AGG_H
#define EXEC_AGG_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/sl_error.h"
#include "model/batch.h"

typedef enum exec_agg_kind {
    EXEC_AGG_COUNT_STAR = 1,
    EXEC_AGG_COUNT,
    EXEC_AGG_SUM,
    EXEC_AGG_AVG,
    EXEC_AGG_MIN,
    EXEC_AGG_MAX,
    EXEC_AGG_FIRST,
    EXEC_AGG_LAST,
    EXEC_AGG_APPROX_COUNT_DISTINCT,
} exec_agg_kind_t;

/* Most buffer columns any aggregate has. */
#define EXEC_AGG_MAX_BUF 2

/* Spark's default relativeSD of approx_count_distinct. */
#define EXEC_AGG_HLL_DEFAULT_RSD 0.05

/* A resolved aggregate call: what the kernels need. Made by
 * exec_agg_lookup; read-only afterwards (shared by every task). */
typedef struct exec_agg {
    exec_agg_kind_t kind;
    const char *name;     /* lower-case function name (static) */
    bool distinct;        /* f(DISTINCT x): batch (single-phase) only */
    bool ignore_nulls;    /* first/last: skip NULLs */
    exec_type_t arg_type; /* the argument's type; NULL type for count(*) */
    exec_type_t result_type;
    int nbuf; /* buffer columns (1..EXEC_AGG_MAX_BUF) */
    exec_type_t buf_types[EXEC_AGG_MAX_BUF];
    const char *buf_names[EXEC_AGG_MAX_BUF]; /* Spark's names: "sum", "isEmpty", ... */
    int hll_p;                               /* approx_count_distinct: log2 of the register count */
} exec_agg_t;

/* Options a call may carry beyond its argument. */
typedef struct exec_agg_opts {
    bool ignore_nulls;  /* first/last(x) IGNORE NULLS */
    double relative_sd; /* approx_count_distinct; 0 = EXEC_AGG_HLL_DEFAULT_RSD */
} exec_agg_opts_t;

/* Resolves `name`(arg) (case-insensitive name; star = count(*), arg
 * ignored; opts may be NULL). 42883 for an unknown aggregate or an
 * argument type it does not take (hint: the accepted types); 22023 for a
 * relativeSD outside [0.0043, 0.39]. */
int exec_agg_lookup(const char *name, bool distinct, bool star, exec_type_t arg,
                    const exec_agg_opts_t *opts, exec_agg_t *out, sl_error_t *err);
/* The result type of name(arg) for the binder (same errors). */
int exec_agg_result_type(const char *func, int distinct, int star, exec_type_t arg,
                         exec_type_t *out, sl_error_t *err);

/* ---- buffers of many groups ---------------------------------------------- */

/* The buffers of one aggregate for groups 0..n-1: nbuf vectors with room
 * for `cap` groups. Vector data is heap memory released when the arena
 * given to exec_agg_state_init is reset; strings and sketches live in that
 * arena. */
typedef struct exec_agg_state {
    exec_vec_t v[EXEC_AGG_MAX_BUF];
    uint32_t n;           /* groups with initialised buffers */
    uint32_t cap;         /* groups the vectors have room for */
    sl_arena_t *arena;    /* where kept strings and sketches go */
    struct exec_ht *seen; /* DISTINCT: (group, value) pairs seen */
} exec_agg_state_t;

/* Prepares an empty state (no groups) whose memory belongs to `a`. */
void exec_agg_state_init(const exec_agg_t *f, exec_agg_state_t *st, sl_arena_t *a);
/* Makes room for n groups, initialising the buffers of groups st->n..n-1. */
void exec_agg_state_resize(const exec_agg_t *f, exec_agg_state_t *st, uint32_t n);

/* Folds argument values into the buffers: for every k < n, row r =
 * rows ? rows[k] : k, the value arg[r] goes to group gids[r] (gids indexed
 * by physical row; every group < st->n). arg is ignored for count(*).
 * `scratch` is for temporaries. 22003 on sum overflow. */
int exec_agg_update(const exec_agg_t *f, exec_agg_state_t *st, const exec_vec_t *arg,
                    const uint32_t *rows, uint32_t n, const uint32_t *gids, sl_arena_t *scratch,
                    sl_error_t *err);
/* Merges other buffers (f->nbuf vectors, as a PARTIAL aggregation emits
 * them or as decoded from state) into the groups: row r of src goes into
 * group gids[r], the same row walk as exec_agg_update. The source counts
 * as the LATER input (first keeps the group's value if set, last takes the
 * source's). 22003 on sum overflow. Not for DISTINCT aggregates. */
int exec_agg_merge(const exec_agg_t *f, exec_agg_state_t *st, const exec_vec_t *src,
                   const uint32_t *rows, uint32_t n, const uint32_t *gids, sl_error_t *err);
/* The results of rows 0..n-1 of buffer vectors `buf` (f->nbuf of them: a
 * state's st->v, or decoded buffers) into *out, a new vector of
 * f->result_type allocated in `a`. 22003 when an avg result does not fit. */
int exec_agg_finalize(const exec_agg_t *f, const exec_vec_t *buf, uint32_t n, exec_vec_t *out,
                      sl_arena_t *a, sl_error_t *err);

/* Appends one line per buffer column, `name type`, for schema records and
 * EXPLAIN ("sum BIGINT, isEmpty BOOLEAN"). */
void exec_agg_format_buffer(const exec_agg_t *f, sl_buf_t *out);

/* ---- HyperLogLog++ (exposed for tests) ---- */

/* The estimate of a sketch of 2^p one-byte registers. */
double exec_hll_estimate(const uint8_t *regs, int p);
/* Register index and value of a 64-bit hash in a sketch of 2^p registers. */
void exec_hll_place(uint64_t h, int p, uint32_t *idx, uint8_t *rho);

#endif
