/* exec aggregate kernels: update (argument values into buffers), merge
 * (buffers into buffers) and finalize (buffers to results), vectorised.
 *
 * Each entry point switches once on the aggregate and the type, then runs
 * a tight loop over the rows: `g = gids[r]; buf[g] op= x[r]`. String
 * results of min/max/first/last are first stored as views of the input and
 * copied into the state's arena once per group at the end of the call
 * (fixup_strings), so a batch costs at most one copy per group touched. */
#include <math.h>
#include <string.h>

#include "common/hash.h"
#include "exec/agg.h"
#include "model/decimal.h"
#include "exec/hashtable.h"
#include "model/row.h"

/* Walks rows: r = rows[k] for k < n, or r = 0..n-1 without rows. */
#define FOR_ROWS(BODY)                            \
    do {                                          \
        if (rows) {                               \
            for (uint32_t k_ = 0; k_ < n; k_++) { \
                uint32_t r = rows[k_];            \
                BODY                              \
            }                                     \
        } else {                                  \
            for (uint32_t r = 0; r < n; r++) {    \
                BODY                              \
            }                                     \
        }                                         \
    } while (0)

/* Seed folded into value hashes for HyperLogLog, so that a task whose keys
 * were routed by hash % partitions does not see constrained register bits. */
#define HLL_SEED 0x4c4c48ULL

static int overflow_error(const exec_agg_t *f, sl_error_t *err)
{
    if (f->buf_types[0].id == EXEC_TYPE_DECIMAL) {
        sl_error_set(err, SL_ERR_NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow");
        return sl_error_detail(err, "The %s of a DECIMAL(%d,%d) column exceeds %d digits.", f->name,
                               f->arg_type.precision, f->arg_type.scale, f->buf_types[0].precision);
    }
    sl_error_set(err, SL_ERR_NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");
    return sl_error_detail(err, "The %s of the values exceeds the range of BIGINT.", f->name);
}

static bool is_null(const exec_vec_t *v, uint32_t r)
{
    return v->type.id == EXEC_TYPE_NULL || (v->nulls && v->nulls[r]);
}

/* ---- count ---- */

static void count_update(exec_agg_state_t *st, const exec_vec_t *arg, bool star,
                         const uint32_t *rows, uint32_t n, const uint32_t *gids)
{
    int64_t *c = st->v[0].data;
    if (!star && arg->type.id == EXEC_TYPE_NULL) return;
    const uint8_t *nl = star ? NULL : arg->nulls;
    if (nl) FOR_ROWS(c[gids[r]] += !nl[r];);
    else FOR_ROWS(c[gids[r]]++;);
}

/* ---- sum and avg ---- */

/* Adds x[r] (as int64) into s[g]; flags overflow. */
#define SUM_INT_LOOP(T)                                                                     \
    do {                                                                                    \
        const T *x = arg->data;                                                             \
        if (nl)                                                                             \
            FOR_ROWS(if (!nl[r]) {                                                          \
                uint32_t g = gids[r];                                                       \
                ovf |= __builtin_add_overflow(s[g], (int64_t)x[r], &s[g]);                  \
                e[g] = 0;                                                                   \
            });                                                                             \
        else                                                                                \
            FOR_ROWS(uint32_t g = gids[r];                                                  \
                     ovf |= __builtin_add_overflow(s[g], (int64_t)x[r], &s[g]); e[g] = 0;); \
    } while (0)

static int sum_update_int(const exec_agg_t *f, exec_agg_state_t *st, const exec_vec_t *arg,
                          const uint32_t *rows, uint32_t n, const uint32_t *gids, sl_error_t *err)
{
    int64_t *s = st->v[0].data;
    uint8_t *e = st->v[1].data;
    const uint8_t *nl = arg->nulls;
    bool ovf = false;
    if (arg->type.id == EXEC_TYPE_INT) SUM_INT_LOOP(int32_t);
    else SUM_INT_LOOP(int64_t);
    return ovf ? overflow_error(f, err) : 0;
}

static void sum_update_double(exec_agg_state_t *st, const exec_vec_t *arg, const uint32_t *rows,
                              uint32_t n, const uint32_t *gids)
{
    double *s = st->v[0].data;
    uint8_t *e = st->v[1].data;
    const double *x = arg->data;
    const uint8_t *nl = arg->nulls;
    if (nl)
        FOR_ROWS(if (!nl[r]) {
            s[gids[r]] += x[r];
            e[gids[r]] = 0;
        });
    else FOR_ROWS(uint32_t g = gids[r]; s[g] += x[r]; e[g] = 0;);
}

/* Decimal sums: 128-bit adds, then the result precision's bound. */
static int sum_update_dec(const exec_agg_t *f, exec_agg_state_t *st, const exec_vec_t *arg,
                          const uint32_t *rows, uint32_t n, const uint32_t *gids, sl_error_t *err)
{
    exec_dec_t *s = st->v[0].data, lim = exec_dec_pow10(f->buf_types[0].precision);
    uint8_t *e = st->v[1].data;
    const exec_dec_t *x = arg->data;
    const uint8_t *nl = arg->nulls;
    bool ovf = false;
    FOR_ROWS(if (!nl || !nl[r]) {
        uint32_t g = gids[r];
        ovf |= __builtin_add_overflow(s[g], x[r], &s[g]);
        ovf |= s[g] >= lim || s[g] <= -lim;
        e[g] = 0;
    });
    return ovf ? overflow_error(f, err) : 0;
}

static int sum_update(const exec_agg_t *f, exec_agg_state_t *st, const exec_vec_t *arg,
                      const uint32_t *rows, uint32_t n, const uint32_t *gids, sl_error_t *err)
{
    switch (arg->type.id) {
    case EXEC_TYPE_INT:
    case EXEC_TYPE_BIGINT: return sum_update_int(f, st, arg, rows, n, gids, err);
    case EXEC_TYPE_DOUBLE: sum_update_double(st, arg, rows, n, gids); return 0;
    default: return sum_update_dec(f, st, arg, rows, n, gids, err);
    }
}

#define AVG_LOOP(T)                                                         \
    do {                                                                    \
        const T *x = arg->data;                                             \
        if (nl)                                                             \
            FOR_ROWS(if (!nl[r]) {                                          \
                s[gids[r]] += (double)x[r];                                 \
                c[gids[r]]++;                                               \
            });                                                             \
        else FOR_ROWS(uint32_t g = gids[r]; s[g] += (double)x[r]; c[g]++;); \
    } while (0)

static int avg_update(const exec_agg_t *f, exec_agg_state_t *st, const exec_vec_t *arg,
                      const uint32_t *rows, uint32_t n, const uint32_t *gids, sl_error_t *err)
{
    int64_t *c = st->v[1].data;
    const uint8_t *nl = arg->nulls;
    if (arg->type.id == EXEC_TYPE_DECIMAL) {
        exec_dec_t *s = st->v[0].data, lim = exec_dec_pow10(f->buf_types[0].precision);
        const exec_dec_t *x = arg->data;
        bool ovf = false;
        FOR_ROWS(if (!nl || !nl[r]) {
            uint32_t g = gids[r];
            ovf |= __builtin_add_overflow(s[g], x[r], &s[g]);
            ovf |= s[g] >= lim || s[g] <= -lim;
            c[g]++;
        });
        return ovf ? overflow_error(f, err) : 0;
    }
    double *s = st->v[0].data;
    if (arg->type.id == EXEC_TYPE_INT) AVG_LOOP(int32_t);
    else if (arg->type.id == EXEC_TYPE_BIGINT) AVG_LOOP(int64_t);
    else AVG_LOOP(double);
    return 0;
}

/* ---- min and max ---- */

/* True when a sorts before b (NaN above every number, -0 = 0). */
static inline bool dbl_lt(double a, double b)
{
    if (isnan(b)) return !isnan(a);
    return !isnan(a) && a < b;
}

static inline bool str_lt(exec_str_t a, exec_str_t b)
{
    uint32_t m = a.len < b.len ? a.len : b.len;
    int c = m ? memcmp(a.ptr, b.ptr, m) : 0;
    return c < 0 || (c == 0 && a.len < b.len);
}

#define LT_PLAIN(a, b) ((a) < (b))

/* state[g] = x[r] when state[g] is NULL or x[r] is better (BETTER(x, s)). */
#define MINMAX_LOOP(T, BETTER)                  \
    do {                                        \
        T *s = st->v[0].data;                   \
        const T *x = src->data;                 \
        FOR_ROWS(if (!snl || !snl[r]) {         \
            uint32_t g = gids[r];               \
            if (dnl[g] || BETTER(x[r], s[g])) { \
                s[g] = x[r];                    \
                dnl[g] = 0;                     \
            }                                   \
        });                                     \
    } while (0)

static void minmax_generic(exec_agg_state_t *st, const exec_vec_t *src, bool is_min,
                           const uint32_t *rows, uint32_t n, const uint32_t *gids)
{
    uint8_t *dnl = st->v[0].nulls;
    const uint8_t *snl = src->nulls;
    size_t w = exec_type_width(src->type);
    char *s = st->v[0].data;
    const char *x = src->data;
    FOR_ROWS(if (!snl || !snl[r]) {
        uint32_t g = gids[r];
        int c = dnl[g] ? -1 : exec_cell_compare(src->type, x + w * r, s + w * g);
        if (dnl[g] || (is_min ? c < 0 : c > 0)) {
            memcpy(s + w * g, x + w * r, w);
            dnl[g] = 0;
        }
    });
}

/* Makes the strings of groups whose value is a view of src row r owned by
 * the state (one copy per group). */
static void fixup_strings(exec_agg_state_t *st, const exec_vec_t *src, const uint32_t *rows,
                          uint32_t n, const uint32_t *gids)
{
    if (!exec_type_is_varlen(st->v[0].type)) return;
    exec_str_t *s = st->v[0].data;
    const exec_str_t *x = src->data;
    const uint8_t *dnl = st->v[0].nulls;
    FOR_ROWS(uint32_t g = gids[r];
             if (!dnl[g] && s[g].ptr == x[r].ptr && s[g].len == x[r].len && x[r].len) {
                 s[g].ptr = sl_strndup(st->arena, x[r].ptr, x[r].len);
             } else if (!dnl[g] && s[g].len == 0) s[g]
                 .ptr = "";);
}

/* Folds src (values of the buffer's type) into min/max buffers. */
static void minmax_fold(exec_agg_state_t *st, const exec_vec_t *src, bool is_min,
                        const uint32_t *rows, uint32_t n, const uint32_t *gids)
{
    if (src->type.id == EXEC_TYPE_NULL) return;
    uint8_t *dnl = st->v[0].nulls;
    const uint8_t *snl = src->nulls;
#define MM(T, LT)                       \
    do {                                \
        if (is_min) MINMAX_LOOP(T, LT); \
        else MINMAX_LOOP(T, REV_##LT);  \
    } while (0)
#define REV_LT_PLAIN(a, b) LT_PLAIN(b, a)
#define REV_dbl_lt(a, b) dbl_lt(b, a)
#define REV_str_lt(a, b) str_lt(b, a)
    switch (src->type.id) {
    case EXEC_TYPE_BOOLEAN: MM(uint8_t, LT_PLAIN); break;
    case EXEC_TYPE_INT:
    case EXEC_TYPE_DATE: MM(int32_t, LT_PLAIN); break;
    case EXEC_TYPE_BIGINT:
    case EXEC_TYPE_TIMESTAMP: MM(int64_t, LT_PLAIN); break;
    case EXEC_TYPE_DOUBLE: MM(double, dbl_lt); break;
    case EXEC_TYPE_DECIMAL: MM(exec_dec_t, LT_PLAIN); break;
    case EXEC_TYPE_STRING:
    case EXEC_TYPE_BINARY:
        MM(exec_str_t, str_lt);
        fixup_strings(st, src, rows, n, gids);
        break;
    default: minmax_generic(st, src, is_min, rows, n, gids); break;
    }
#undef MM
}

/* ---- first and last ---- */

/* Takes value row r of src into group g (NULL included), marking it set. */
static inline void take_value(exec_agg_state_t *st, const exec_vec_t *src, size_t w, uint32_t r,
                              uint32_t g)
{
    uint8_t *set = st->v[1].data;
    set[g] = 1;
    if (is_null(src, r)) {
        st->v[0].nulls[g] = 1;
        return;
    }
    st->v[0].nulls[g] = 0;
    memcpy((char *)st->v[0].data + w * g, (const char *)src->data + w * r, w);
}

/* Folds values (update: `has` NULL = every row offers a value) or buffers
 * (merge: has = the source's valueSet) into first/last buffers. */
static void firstlast_fold(const exec_agg_t *f, exec_agg_state_t *st, const exec_vec_t *src,
                           const uint8_t *has, const uint32_t *rows, uint32_t n,
                           const uint32_t *gids)
{
    const uint8_t *set = st->v[1].data;
    size_t w = exec_type_width(src->type);
    bool first = f->kind == EXEC_AGG_FIRST, skip_nulls = f->ignore_nulls;
    FOR_ROWS(uint32_t g = gids[r];
             bool offers = has ? has[r] != 0 : !(skip_nulls && is_null(src, r));
             if (offers && (!first || !set[g])) take_value(st, src, w, r, g););
    fixup_strings(st, src, rows, n, gids);
}

/* ---- approx_count_distinct ---- */

static uint8_t *sketch_of(exec_agg_state_t *st, const exec_agg_t *f, uint32_t g)
{
    exec_str_t *s = &((exec_str_t *)st->v[0].data)[g];
    if (st->v[0].nulls[g]) {
        s->len = 1u << f->hll_p;
        s->ptr = sl_alloc0(st->arena, s->len);
        st->v[0].nulls[g] = 0;
    }
    return (uint8_t *)s->ptr;
}

static void hll_update(const exec_agg_t *f, exec_agg_state_t *st, const exec_vec_t *arg,
                       const uint32_t *rows, uint32_t n, const uint32_t *gids, sl_arena_t *scratch)
{
    if (n == 0 || arg->type.id == EXEC_TYPE_NULL) return;
    uint32_t cap = rows ? rows[n - 1] + 1 : n;
    exec_batch_t b = {
        .ncols = 1, .cols = (exec_vec_t *)arg, .nrows = cap, .sel = (uint32_t *)rows, .nsel = n};
    uint64_t *h = sl_alloc(scratch, sizeof *h * cap);
    int col = 0;
    exec_hash_rows(&b, &col, 1, h);
    FOR_ROWS(if (!is_null(arg, r)) {
        uint32_t idx;
        uint8_t rho;
        exec_hll_place(sl_hash_u64(h[r], HLL_SEED), f->hll_p, &idx, &rho);
        uint8_t *regs = sketch_of(st, f, gids[r]);
        if (rho > regs[idx]) regs[idx] = rho;
    });
}

static void hll_merge(const exec_agg_t *f, exec_agg_state_t *st, const exec_vec_t *src,
                      const uint32_t *rows, uint32_t n, const uint32_t *gids)
{
    uint32_t m = 1u << f->hll_p;
    FOR_ROWS(if (!is_null(src, r) && EXEC_VEC_AT(src, exec_str_t, r).len == m) {
        const uint8_t *o = (const uint8_t *)EXEC_VEC_AT(src, exec_str_t, r).ptr;
        uint8_t *regs = sketch_of(st, f, gids[r]);
        for (uint32_t i = 0; i < m; i++)
            if (o[i] > regs[i]) regs[i] = o[i];
    });
}

/* ---- DISTINCT ---- */

/* The rows whose (group, value) pair was not seen before, in order. */
static uint32_t distinct_rows(exec_agg_state_t *st, const exec_vec_t *arg, const uint32_t *rows,
                              uint32_t n, const uint32_t *gids, sl_arena_t *scratch, uint32_t **out)
{
    uint32_t cap = n == 0 ? 1 : rows ? rows[n - 1] + 1 : n;
    exec_vec_t cols[2] = {exec_vec_new(scratch, exec_type_of(EXEC_TYPE_INT), cap), *arg};
    FOR_ROWS(EXEC_VEC_AT(&cols[0], int32_t, r) = (int32_t)gids[r];);
    exec_batch_t b = {.ncols = 2, .cols = cols, .nrows = cap, .sel = (uint32_t *)rows, .nsel = n};
    uint64_t *h = sl_alloc(scratch, sizeof *h * cap);
    uint32_t *ids = sl_alloc(scratch, sizeof *ids * cap);
    int kc[2] = {0, 1};
    exec_hash_rows(&b, kc, 2, h);
    uint32_t next = exec_ht_size(st->seen), m = 0;
    exec_ht_upsert(st->seen, &b, kc, h, ids);
    uint32_t *keep = sl_alloc(scratch, sizeof *keep * (n ? n : 1));
    /* New ids are handed out in row order: a pair's first row gets the next one. */
    FOR_ROWS(if (ids[r] == next) {
        keep[m++] = r;
        next++;
    });
    *out = keep;
    return m;
}

/* ---- entry points ---- */

static int update_rows(const exec_agg_t *f, exec_agg_state_t *st, const exec_vec_t *arg,
                       const uint32_t *rows, uint32_t n, const uint32_t *gids, sl_arena_t *scratch,
                       sl_error_t *err)
{
    switch (f->kind) {
    case EXEC_AGG_COUNT_STAR: count_update(st, arg, true, rows, n, gids); return 0;
    case EXEC_AGG_COUNT: count_update(st, arg, false, rows, n, gids); return 0;
    case EXEC_AGG_SUM: return sum_update(f, st, arg, rows, n, gids, err);
    case EXEC_AGG_AVG: return avg_update(f, st, arg, rows, n, gids, err);
    case EXEC_AGG_MIN:
    case EXEC_AGG_MAX: minmax_fold(st, arg, f->kind == EXEC_AGG_MIN, rows, n, gids); return 0;
    case EXEC_AGG_FIRST:
    case EXEC_AGG_LAST: firstlast_fold(f, st, arg, NULL, rows, n, gids); return 0;
    case EXEC_AGG_APPROX_COUNT_DISTINCT: hll_update(f, st, arg, rows, n, gids, scratch); return 0;
    }
    return 0;
}

int exec_agg_update(const exec_agg_t *f, exec_agg_state_t *st, const exec_vec_t *arg,
                    const uint32_t *rows, uint32_t n, const uint32_t *gids, sl_arena_t *scratch,
                    sl_error_t *err)
{
    if (f->distinct && f->kind != EXEC_AGG_COUNT_STAR) {
        uint32_t *keep;
        n = distinct_rows(st, arg, rows, n, gids, scratch, &keep);
        rows = keep;
    }
    return update_rows(f, st, arg, rows, n, gids, scratch, err);
}

/* Adds src sums (any of BIGINT, DOUBLE, DECIMAL) and ANDs isEmpty / adds counts. */
static int sum_merge(const exec_agg_t *f, exec_agg_state_t *st, const exec_vec_t *src,
                     const uint32_t *rows, uint32_t n, const uint32_t *gids, sl_error_t *err)
{
    bool ovf = false, avg = f->kind == EXEC_AGG_AVG;
    const uint8_t *snl = src[0].nulls;
    switch (src[0].type.id) {
    case EXEC_TYPE_BIGINT: {
        int64_t *s = st->v[0].data;
        const int64_t *x = src[0].data;
        FOR_ROWS(if (!snl || !snl[r]) ovf |=
                 __builtin_add_overflow(s[gids[r]], x[r], &s[gids[r]]););
        break;
    }
    case EXEC_TYPE_DOUBLE: {
        double *s = st->v[0].data;
        const double *x = src[0].data;
        FOR_ROWS(if (!snl || !snl[r]) s[gids[r]] += x[r];);
        break;
    }
    default: {
        exec_dec_t *s = st->v[0].data, lim = exec_dec_pow10(f->buf_types[0].precision);
        const exec_dec_t *x = src[0].data;
        FOR_ROWS(if (!snl || !snl[r]) {
            uint32_t g = gids[r];
            ovf |= __builtin_add_overflow(s[g], x[r], &s[g]);
            ovf |= s[g] >= lim || s[g] <= -lim;
        });
    }
    }
    if (avg) {
        int64_t *c = st->v[1].data;
        const int64_t *y = src[1].data;
        FOR_ROWS(c[gids[r]] += y[r];);
    } else {
        uint8_t *e = st->v[1].data;
        const uint8_t *y = src[1].data;
        FOR_ROWS(e[gids[r]] &= y[r];);
    }
    return ovf ? overflow_error(f, err) : 0;
}

int exec_agg_merge(const exec_agg_t *f, exec_agg_state_t *st, const exec_vec_t *src,
                   const uint32_t *rows, uint32_t n, const uint32_t *gids, sl_error_t *err)
{
    switch (f->kind) {
    case EXEC_AGG_COUNT_STAR:
    case EXEC_AGG_COUNT: {
        int64_t *c = st->v[0].data;
        const int64_t *x = src[0].data;
        FOR_ROWS(c[gids[r]] += x[r];);
        return 0;
    }
    case EXEC_AGG_SUM:
    case EXEC_AGG_AVG: return sum_merge(f, st, src, rows, n, gids, err);
    case EXEC_AGG_MIN:
    case EXEC_AGG_MAX: minmax_fold(st, &src[0], f->kind == EXEC_AGG_MIN, rows, n, gids); return 0;
    case EXEC_AGG_FIRST:
    case EXEC_AGG_LAST: firstlast_fold(f, st, &src[0], src[1].data, rows, n, gids); return 0;
    case EXEC_AGG_APPROX_COUNT_DISTINCT: hll_merge(f, st, &src[0], rows, n, gids); return 0;
    }
    return 0;
}

/* ---- finalize ---- */

/* out = a copy of v's first n rows (data and null map). */
static void copy_vec(const exec_vec_t *v, uint32_t n, exec_vec_t *out, sl_arena_t *a)
{
    *out = exec_vec_new(a, v->type, n);
    size_t w = exec_type_width(v->type);
    if (w && n) memcpy(out->data, v->data, w * n);
    if (v->nulls && v->type.id != EXEC_TYPE_NULL) {
        exec_vec_make_nulls(a, out, n);
        memcpy(out->nulls, v->nulls, n);
    }
}

static int avg_finalize(const exec_agg_t *f, const exec_vec_t *buf, uint32_t n, exec_vec_t *out,
                        sl_arena_t *a, sl_error_t *err)
{
    const int64_t *c = buf[1].data;
    uint8_t *nl = exec_vec_make_nulls(a, out, n);
    for (uint32_t r = 0; r < n; r++) nl[r] = c[r] == 0;
    if (f->result_type.id == EXEC_TYPE_DOUBLE) {
        const double *s = buf[0].data;
        double *o = out->data;
        for (uint32_t r = 0; r < n; r++) o[r] = c[r] ? s[r] / (double)c[r] : 0;
        return 0;
    }
    const exec_dec_t *s = buf[0].data;
    exec_dec_t *o = out->data;
    int ss = buf[0].type.scale, rs = f->result_type.scale, rp = f->result_type.precision;
    for (uint32_t r = 0; r < n; r++) {
        if (!c[r]) continue;
        if (!exec_dec_div(s[r], ss, (exec_dec_t)c[r], 0, rs, &o[r]) || !exec_dec_fits(o[r], rp)) {
            sl_error_set(err, SL_ERR_NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow");
            return sl_error_detail(err, "The average does not fit in DECIMAL(%d,%d).", rp, rs);
        }
    }
    return 0;
}

int exec_agg_finalize(const exec_agg_t *f, const exec_vec_t *buf, uint32_t n, exec_vec_t *out,
                      sl_arena_t *a, sl_error_t *err)
{
    switch (f->kind) {
    case EXEC_AGG_SUM: {
        copy_vec(&buf[0], n, out, a);
        uint8_t *nl = exec_vec_make_nulls(a, out, n);
        const uint8_t *e = buf[1].data;
        for (uint32_t r = 0; r < n; r++) nl[r] = e[r] || (buf[0].nulls && buf[0].nulls[r]);
        return 0;
    }
    case EXEC_AGG_AVG:
        *out = exec_vec_new(a, f->result_type, n);
        return avg_finalize(f, buf, n, out, a, err);
    case EXEC_AGG_APPROX_COUNT_DISTINCT: {
        *out = exec_vec_new(a, f->result_type, n);
        int64_t *o = out->data;
        for (uint32_t r = 0; r < n; r++)
            o[r] = is_null(&buf[0], r)
                       ? 0
                       : (int64_t)llround(exec_hll_estimate(
                             (const uint8_t *)EXEC_VEC_AT(&buf[0], exec_str_t, r).ptr, f->hll_p));
        return 0;
    }
    default: copy_vec(&buf[0], n, out, a); return 0;
    }
}
