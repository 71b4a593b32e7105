/* exec expressions: arithmetic kernels. One function per (operator, type),
 * each with loops specialised for the operand shapes (vector/vector,
 * vector/constant, constant/vector), for selections and for NULLs. Kernels
 * that can fail skip NULL rows (their cells hold garbage) and report
 * overflow (22003) or division by zero (22012) after the loop. */
#include <math.h>
#include <string.h>

#include "model/decimal.h"
#include "exec/expr_int.h"
#include "model/text_io.h"

/* A binary kernel. PRE declares what BODY needs; BODY(x, y, r) computes
 * r from x and y and may set `bad`; CHECKED kernels skip NULL rows. */
#define ARITH_KERNEL(NAME, TA, TB, TO, CHECKED, PRE, BODY, FAIL)                    \
    static int NAME(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)        \
    {                                                                               \
        const exec_vec_t *va = st->in[0] >= 0 ? &ev->regs[st->in[0]] : NULL;        \
        const exec_vec_t *vb = st->in[1] >= 0 ? &ev->regs[st->in[1]] : NULL;        \
        exec_vec_t *o = exec_step_out(st, ev);                                      \
        o->nulls = exec_nulls_or(ev, va ? va->nulls : NULL, vb ? vb->nulls : NULL); \
        const exec_sel_t *s = &ev->sels[st->sel];                                   \
        const uint8_t *skip = (CHECKED) ? o->nulls : NULL;                          \
        TO *out = o->data;                                                          \
        bool bad = false;                                                           \
        PRE;                                                                        \
        if (st->shape == EXEC_SHAPE_VV) {                                           \
            const TA *A = va->data;                                                 \
            const TB *B = vb->data;                                                 \
            FOR_SEL_VALID(s, skip, BODY(A[i], B[i], out[i]));                       \
        } else if (st->shape == EXEC_SHAPE_VC) {                                    \
            const TA *A = va->data;                                                 \
            const TB kb = STEP_CONST(TB, st);                                       \
            FOR_SEL_VALID(s, skip, BODY(A[i], kb, out[i]));                         \
        } else {                                                                    \
            const TA ka = STEP_CONST(TA, st);                                       \
            const TB *B = vb->data;                                                 \
            FOR_SEL_VALID(s, skip, BODY(ka, B[i], out[i]));                         \
        }                                                                           \
        if (bad) return FAIL;                                                       \
        (void)err;                                                                  \
        return 0;                                                                   \
    }

static int overflow_int(sl_error_t *err)
{
    return sl_error_set(err, SL_ERR_NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
}
static int overflow_bigint(sl_error_t *err)
{
    return sl_error_set(err, SL_ERR_NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");
}
static int div_zero(sl_error_t *err)
{
    return sl_error_set(err, SL_ERR_DIVISION_BY_ZERO, "division by zero");
}

/* ---- integers ------------------------------------------------------------------ */

/* Overflow tests by sign bits: branch-free, so the plain loop vectorises. */
#define ADD32(x, y, r)                                         \
    do {                                                       \
        int32_t r_ = (int32_t)((uint32_t)(x) + (uint32_t)(y)); \
        bad |= (((x) ^ r_) & ((y) ^ r_)) < 0;                  \
        r = r_;                                                \
    } while (0)
#define SUB32(x, y, r)                                         \
    do {                                                       \
        int32_t r_ = (int32_t)((uint32_t)(x) - (uint32_t)(y)); \
        bad |= (((x) ^ (y)) & ((x) ^ r_)) < 0;                 \
        r = r_;                                                \
    } while (0)
#define ADD64(x, y, r)                                         \
    do {                                                       \
        int64_t r_ = (int64_t)((uint64_t)(x) + (uint64_t)(y)); \
        bad |= (((x) ^ r_) & ((y) ^ r_)) < 0;                  \
        r = r_;                                                \
    } while (0)
#define SUB64(x, y, r)                                         \
    do {                                                       \
        int64_t r_ = (int64_t)((uint64_t)(x) - (uint64_t)(y)); \
        bad |= (((x) ^ (y)) & ((x) ^ r_)) < 0;                 \
        r = r_;                                                \
    } while (0)
#define MULOV(x, y, r) bad |= __builtin_mul_overflow(x, y, &(r))
#define MODINT(x, y, r)                     \
    do {                                    \
        if ((y) == 0) bad = true;           \
        else r = (y) == -1 ? 0 : (x) % (y); \
    } while (0)

ARITH_KERNEL(add_i32, int32_t, int32_t, int32_t, true, , ADD32, overflow_int(err))
ARITH_KERNEL(sub_i32, int32_t, int32_t, int32_t, true, , SUB32, overflow_int(err))
ARITH_KERNEL(mul_i32, int32_t, int32_t, int32_t, true, , MULOV, overflow_int(err))
ARITH_KERNEL(mod_i32, int32_t, int32_t, int32_t, true, , MODINT, div_zero(err))
ARITH_KERNEL(add_i64, int64_t, int64_t, int64_t, true, , ADD64, overflow_bigint(err))
ARITH_KERNEL(sub_i64, int64_t, int64_t, int64_t, true, , SUB64, overflow_bigint(err))
ARITH_KERNEL(mul_i64, int64_t, int64_t, int64_t, true, , MULOV, overflow_bigint(err))
ARITH_KERNEL(mod_i64, int64_t, int64_t, int64_t, true, , MODINT, div_zero(err))

/* ---- doubles --------------------------------------------------------------------- */

#define FADD(x, y, r) r = (x) + (y)
#define FSUB(x, y, r) r = (x) - (y)
#define FMUL(x, y, r) r = (x) * (y)
#define FDIV(x, y, r)    \
    do {                 \
        bad |= (y) == 0; \
        r = (x) / (y);   \
    } while (0)
#define FMOD(x, y, r)             \
    do {                          \
        if ((y) == 0) bad = true; \
        else r = fmod(x, y);      \
    } while (0)

ARITH_KERNEL(add_f64, double, double, double, false, , FADD, 0)
ARITH_KERNEL(sub_f64, double, double, double, false, , FSUB, 0)
ARITH_KERNEL(mul_f64, double, double, double, false, , FMUL, 0)
ARITH_KERNEL(div_f64, double, double, double, true, , FDIV, div_zero(err))
ARITH_KERNEL(mod_f64, double, double, double, true, , FMOD, div_zero(err))

/* ---- decimals -------------------------------------------------------------------- */

static int dec_overflow(exec_type_t t, sl_error_t *err)
{
    return exec_text_error(t, EXEC_PARSE_RANGE, "", 0, err);
}

/* The scales of both operands and the result's precision and scale. */
#define DEC_PRE                                                            \
    int sa = va ? va->type.scale : st->k.type.scale;                       \
    int sb = vb ? vb->type.scale : st->k.type.scale;                       \
    int so = st->type.scale, po = st->type.precision;                      \
    int sm = sa > sb ? sa : sb;                                            \
    exec_dec_t fa = exec_dec_pow10(sm - sa), fb = exec_dec_pow10(sm - sb); \
    bool zero = false;                                                     \
    (void)fa, (void)fb, (void)zero

/* x +/- y: exact at the larger scale sm (x * fa, y * fb), then rounded to
 * the result scale; when that does not fit 128 bits, both sides are rounded
 * to the result scale first. */
static inline bool dec_addsub(exec_dec_t x, exec_dec_t fa, int sa, exec_dec_t y, exec_dec_t fb,
                              int sb, int sm, int so, int po, bool sub, exec_dec_t *r)
{
    exec_dec_t xs, ys, v;
    if (__builtin_mul_overflow(x, fa, &xs) || __builtin_mul_overflow(y, fb, &ys) ||
        (sub ? __builtin_sub_overflow(xs, ys, &v) : __builtin_add_overflow(xs, ys, &v))) {
        if (!exec_dec_rescale(x, sa, so, &xs) || !exec_dec_rescale(y, sb, so, &ys)) return false;
        if (sub ? __builtin_sub_overflow(xs, ys, &v) : __builtin_add_overflow(xs, ys, &v))
            return false;
        sm = so;
    }
    return exec_dec_rescale(v, sm, so, r) && exec_dec_fits(*r, po);
}

#define DADD(x, y, r) bad |= !dec_addsub(x, fa, sa, y, fb, sb, sm, so, po, false, &(r))
#define DSUB(x, y, r) bad |= !dec_addsub(x, fa, sa, y, fb, sb, sm, so, po, true, &(r))
#define DMUL(x, y, r) bad |= !exec_dec_mul(x, sa, y, sb, so, &(r)) || !exec_dec_fits(r, po)
#define DDIV(x, y, r)                                                               \
    do {                                                                            \
        if ((y) == 0) zero = bad = true;                                            \
        else bad |= !exec_dec_div(x, sa, y, sb, so, &(r)) || !exec_dec_fits(r, po); \
    } while (0)
#define DMOD(x, y, r)                                                               \
    do {                                                                            \
        if ((y) == 0) zero = bad = true;                                            \
        else bad |= !exec_dec_mod(x, sa, y, sb, so, &(r)) || !exec_dec_fits(r, po); \
    } while (0)

ARITH_KERNEL(add_dec, exec_dec_t, exec_dec_t, exec_dec_t, true, DEC_PRE, DADD,
             dec_overflow(st->type, err))
ARITH_KERNEL(sub_dec, exec_dec_t, exec_dec_t, exec_dec_t, true, DEC_PRE, DSUB,
             dec_overflow(st->type, err))
ARITH_KERNEL(mul_dec, exec_dec_t, exec_dec_t, exec_dec_t, true, DEC_PRE, DMUL,
             dec_overflow(st->type, err))
ARITH_KERNEL(div_dec, exec_dec_t, exec_dec_t, exec_dec_t, true, DEC_PRE, DDIV,
             (zero ? div_zero(err) : dec_overflow(st->type, err)))
ARITH_KERNEL(mod_dec, exec_dec_t, exec_dec_t, exec_dec_t, true, DEC_PRE, DMOD,
             (zero ? div_zero(err) : dec_overflow(st->type, err)))

/* ---- dates, timestamps, intervals ------------------------------------------------------- */

static int ts_range(sl_error_t *err)
{
    return sl_error_set(err, SL_ERR_DATETIME_FIELD_OVERFLOW, "timestamp out of range");
}
static int date_range(sl_error_t *err)
{
    return sl_error_set(err, SL_ERR_DATETIME_FIELD_OVERFLOW, "date out of range");
}
static int iv_range(sl_error_t *err)
{
    return sl_error_set(err, SL_ERR_INTERVAL_FIELD_OVERFLOW, "interval out of range");
}

static exec_interval_t iv_neg(exec_interval_t v)
{
    exec_interval_t r = {-v.months, -v.days, -v.micros};
    return r;
}

#define TSADD(x, y, r) bad |= exec_timestamp_add_interval(x, y, &(r)) != EXEC_PARSE_OK
#define TSSUB(x, y, r) bad |= exec_timestamp_add_interval(x, iv_neg(y), &(r)) != EXEC_PARSE_OK
#define DADDI(x, y, r)                                    \
    do {                                                  \
        int64_t r_ = (int64_t)(x) + (y);                  \
        bad |= r_ < EXEC_DATE_MIN || r_ >= EXEC_DATE_END; \
        r = (int32_t)r_;                                  \
    } while (0)
#define DSUBI(x, y, r)                                    \
    do {                                                  \
        int64_t r_ = (int64_t)(x) - (y);                  \
        bad |= r_ < EXEC_DATE_MIN || r_ >= EXEC_DATE_END; \
        r = (int32_t)r_;                                  \
    } while (0)
#define DDIFF(x, y, r) r = (x) - (y)
#define TSDIFF(x, y, r)                              \
    do {                                             \
        int64_t d_;                                  \
        bad |= __builtin_sub_overflow(x, y, &d_);    \
        r.months = 0;                                \
        r.days = (int32_t)(d_ / EXEC_USECS_PER_DAY); \
        r.micros = d_ % EXEC_USECS_PER_DAY;          \
    } while (0)
#define IVADD(x, y, r)                                                      \
    do {                                                                    \
        bad |= __builtin_add_overflow((x).months, (y).months, &(r).months); \
        bad |= __builtin_add_overflow((x).days, (y).days, &(r).days);       \
        bad |= __builtin_add_overflow((x).micros, (y).micros, &(r).micros); \
    } while (0)
#define IVSUB(x, y, r)                                                      \
    do {                                                                    \
        bad |= __builtin_sub_overflow((x).months, (y).months, &(r).months); \
        bad |= __builtin_sub_overflow((x).days, (y).days, &(r).days);       \
        bad |= __builtin_sub_overflow((x).micros, (y).micros, &(r).micros); \
    } while (0)

ARITH_KERNEL(add_ts_iv, int64_t, exec_interval_t, int64_t, true, , TSADD, ts_range(err))
ARITH_KERNEL(sub_ts_iv, int64_t, exec_interval_t, int64_t, true, , TSSUB, ts_range(err))
ARITH_KERNEL(add_date_int, int32_t, int32_t, int32_t, true, , DADDI, date_range(err))
ARITH_KERNEL(sub_date_int, int32_t, int32_t, int32_t, true, , DSUBI, date_range(err))
ARITH_KERNEL(sub_date_date, int32_t, int32_t, int32_t, false, , DDIFF, 0)
ARITH_KERNEL(sub_ts_ts, int64_t, int64_t, exec_interval_t, true, , TSDIFF, iv_range(err))
ARITH_KERNEL(add_iv_iv, exec_interval_t, exec_interval_t, exec_interval_t, true, , IVADD,
             iv_range(err))
ARITH_KERNEL(sub_iv_iv, exec_interval_t, exec_interval_t, exec_interval_t, true, , IVSUB,
             iv_range(err))

/* ---- strings ---------------------------------------------------------------------------- */

static int concat_str(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    const exec_vec_t *va = &ev->regs[st->in[0]], *vb = &ev->regs[st->in[1]];
    exec_vec_t *o = exec_step_out(st, ev);
    o->nulls = exec_nulls_or(ev, va->nulls, vb->nulls);
    const exec_str_t *A = va->data, *B = vb->data;
    exec_str_t *out = o->data;
    bool bad = false;
    FOR_SEL_VALID(&ev->sels[st->sel], o->nulls, {
        uint64_t n = (uint64_t)A[i].len + B[i].len;
        if (n > UINT32_MAX) {
            bad = true;
            break;
        }
        char *p = sl_alloc(ev->a, n ? n : 1);
        if (A[i].len) memcpy(p, A[i].ptr, A[i].len);
        if (B[i].len) memcpy(p + A[i].len, B[i].ptr, B[i].len);
        out[i].ptr = p;
        out[i].len = (uint32_t)n;
    });
    if (bad) return sl_error_set(err, SL_ERR_PROGRAM_LIMIT_EXCEEDED, "string too long");
    return 0;
}

/* ---- negation ---------------------------------------------------------------------------- */

#define NEG_KERNEL(NAME, T, BODY, FAIL)                                      \
    static int NAME(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err) \
    {                                                                        \
        const exec_vec_t *x = &ev->regs[st->in[0]];                          \
        exec_vec_t *o = exec_step_out(st, ev);                               \
        o->nulls = x->nulls;                                                 \
        const T *X = x->data;                                                \
        T *out = o->data;                                                    \
        bool bad = false;                                                    \
        FOR_SEL_VALID(&ev->sels[st->sel], o->nulls, BODY(X[i], out[i]));     \
        if (bad) return FAIL;                                                \
        (void)err;                                                           \
        return 0;                                                            \
    }

#define NEGI(x, r) bad |= __builtin_sub_overflow(0, x, &(r))
#define NEGF(x, r) r = -(x)
#define NEGIV(x, r)                                                \
    do {                                                           \
        bad |= __builtin_sub_overflow(0, (x).months, &(r).months); \
        bad |= __builtin_sub_overflow(0, (x).days, &(r).days);     \
        bad |= __builtin_sub_overflow(0, (x).micros, &(r).micros); \
    } while (0)

NEG_KERNEL(neg_i32, int32_t, NEGI, overflow_int(err))
NEG_KERNEL(neg_i64, int64_t, NEGI, overflow_bigint(err))
NEG_KERNEL(neg_f64, double, NEGF, 0)
NEG_KERNEL(neg_dec, exec_dec_t, NEGF, 0)
NEG_KERNEL(neg_iv, exec_interval_t, NEGIV, iv_range(err))

exec_step_fn exec_neg_kernel(exec_type_t t, const char **name)
{
    *name = "neg";
    switch (t.id) {
    case EXEC_TYPE_INT: return neg_i32;
    case EXEC_TYPE_BIGINT: return neg_i64;
    case EXEC_TYPE_DOUBLE: return neg_f64;
    case EXEC_TYPE_DECIMAL: return neg_dec;
    case EXEC_TYPE_INTERVAL: return neg_iv;
    default: return NULL;
    }
}

/* ---- selection ----------------------------------------------------------------------------- */

typedef struct arith_entry {
    exec_step_fn fn[5]; /* + - * / % */
} arith_entry_t;

static const arith_entry_t arith_int = {{add_i32, sub_i32, mul_i32, NULL, mod_i32}};
static const arith_entry_t arith_bigint = {{add_i64, sub_i64, mul_i64, NULL, mod_i64}};
static const arith_entry_t arith_double = {{add_f64, sub_f64, mul_f64, div_f64, mod_f64}};
static const arith_entry_t arith_decimal = {{add_dec, sub_dec, mul_dec, div_dec, mod_dec}};

static const char *const arith_names[] = {"add", "sub", "mul", "div", "mod", "concat"};

/* Date/time operators (shape VV only). */
static exec_step_fn time_kernel(exec_arith_op_t op, exec_type_t l, exec_type_t r, exec_type_t out)
{
    bool add = op == EXEC_OP_ADD;
    if (op != EXEC_OP_ADD && op != EXEC_OP_SUB) return NULL;
    if (out.id == EXEC_TYPE_TIMESTAMP) return add ? add_ts_iv : sub_ts_iv;
    if (out.id == EXEC_TYPE_DATE) return add ? add_date_int : sub_date_int;
    if (out.id == EXEC_TYPE_INT && l.id == EXEC_TYPE_DATE) return add ? NULL : sub_date_date;
    if (out.id == EXEC_TYPE_INTERVAL && l.id == EXEC_TYPE_TIMESTAMP) return add ? NULL : sub_ts_ts;
    if (out.id == EXEC_TYPE_INTERVAL) return add ? add_iv_iv : sub_iv_iv;
    (void)r;
    return NULL;
}

exec_step_fn exec_arith_kernel(exec_arith_op_t op, exec_type_t l, exec_type_t r, exec_type_t out,
                               exec_shape_t shape, const char **name)
{
    *name = arith_names[op];
    if (op == EXEC_OP_CONCAT) return shape == EXEC_SHAPE_VV ? concat_str : NULL;
    const arith_entry_t *e = NULL;
    if (l.id == out.id || (exec_type_is_numeric(l) && out.id == EXEC_TYPE_DECIMAL)) {
        switch (out.id) {
        case EXEC_TYPE_INT: e = &arith_int; break;
        case EXEC_TYPE_BIGINT: e = &arith_bigint; break;
        case EXEC_TYPE_DOUBLE: e = &arith_double; break;
        case EXEC_TYPE_DECIMAL: e = &arith_decimal; break;
        default: break;
        }
    }
    if (e) return e->fn[op];
    return shape == EXEC_SHAPE_VV ? time_kernel(op, l, r, out) : NULL;
}
