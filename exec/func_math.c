/* exec numeric functions: abs (22003 for the most negative integer) and
 * round(x[, d]) rounding half away from zero (Spark's HALF_UP): doubles
 * round their shortest decimal form (round(2.675, 2) = 2.68), decimals get
 * Spark's result type DECIMAL(p - s + 1 + min(s, d), min(s, d)). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_write.h"
#include "model/decimal.h"
#include "exec/func_int.h"

/* ---- abs ------------------------------------------------------------------------ */

int exec_bind_abs(exec_bind_t *b, sl_error_t *err)
{
    if (exec_bind_type(b, 0) == EXEC_TYPE_NULL &&
        exec_bind_arg(b, 0, exec_type_of(EXEC_TYPE_INT), false, err))
        return -1;
    if (!exec_type_is_numeric(b->args[0]->type)) return exec_bind_mismatch(b, err);
    b->type = b->args[0]->type;
    return 0;
}

int exec_fn_abs(const exec_fcall_t *c, sl_error_t *err)
{
    bool bad = false;
    switch (c->out->type.id) {
    case EXEC_TYPE_INT:
        FOR_ROWS(c, int32_t v = ARG(c, 0, int32_t, i); bad |= v == INT32_MIN;
                 OUT(c, int32_t, i) = (int32_t)(v < 0 ? 0u - (uint32_t)v : (uint32_t)v));
        break;
    case EXEC_TYPE_BIGINT:
        FOR_ROWS(c, int64_t v = ARG(c, 0, int64_t, i); bad |= v == INT64_MIN;
                 OUT(c, int64_t, i) = (int64_t)(v < 0 ? 0u - (uint64_t)v : (uint64_t)v));
        break;
    case EXEC_TYPE_DOUBLE: FOR_ROWS(c, OUT(c, double, i) = fabs(ARG(c, 0, double, i))); break;
    default:
        FOR_ROWS(c, exec_dec_t v = ARG(c, 0, exec_dec_t, i);
                 OUT(c, exec_dec_t, i) = v < 0 ? -v : v);
        break;
    }
    if (bad)
        return sl_error_set(err, SL_ERR_NUMERIC_VALUE_OUT_OF_RANGE, "%s out of range",
                            c->out->type.id == EXEC_TYPE_INT ? "integer" : "bigint");
    return 0;
}

/* ---- round ------------------------------------------------------------------------ */

typedef struct round_aux {
    int d;       /* digits after the point (negative: before) */
    bool null_d; /* round(x, NULL): every result is NULL */
} round_aux_t;

static int imin(int a, int b)
{
    return a < b ? a : b;
}

int exec_bind_round(exec_bind_t *b, sl_error_t *err)
{
    round_aux_t *ra = SL_NEW(b->arena, round_aux_t);
    if (exec_bind_type(b, 0) == EXEC_TYPE_NULL &&
        exec_bind_arg(b, 0, exec_type_of(EXEC_TYPE_INT), false, err))
        return -1;
    exec_type_t t = b->args[0]->type;
    if (!exec_type_is_numeric(t)) return exec_bind_mismatch(b, err);
    if (b->nargs == 2) {
        const exec_expr_t *d = b->args[1];
        ra->null_d = d->kind == EXEC_EXPR_CONST && d->value.is_null;
        if (d->type.id != EXEC_TYPE_INT && !ra->null_d) return exec_bind_mismatch(b, err);
        if (!b->check_only && d->kind != EXEC_EXPR_CONST)
            return sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                                "the scale argument of round must be a constant");
        ra->d = b->check_only || ra->null_d ? 0 : d->value.u.i32;
        exec_bind_consume(b, 1);
    }
    b->aux = ra;
    b->type = t;
    if (t.id == EXEC_TYPE_DECIMAL) {
        int ints = t.precision - t.scale + 1;
        if (ra->d < 0)
            b->type = exec_type_decimal(imin(ints - ra->d, EXEC_DECIMAL_MAX_PRECISION), 0);
        else
            b->type =
                exec_type_decimal(imin(ints + imin(t.scale, ra->d), EXEC_DECIMAL_MAX_PRECISION),
                                  imin(t.scale, ra->d));
    }
    return 0;
}

/* Rounds |v| to a multiple of 10^k (k > 0) half up; false on overflow. */
static bool round_int(int64_t v, int k, int64_t *out)
{
    if (k > 18) {
        *out = 0;
        return true;
    }
    __int128 m = 1;
    for (int i = 0; i < k; i++) m *= 10;
    __int128 a = v < 0 ? -(__int128)v : v;
    __int128 r = (a + m / 2) / m * m;
    r = v < 0 ? -r : r;
    if (r > INT64_MAX || r < INT64_MIN) return false;
    *out = (int64_t)r;
    return true;
}

/* Half-up rounding of a double's shortest decimal form at digit d. */
static double round_double(double x, int d)
{
    if (!isfinite(x) || x == 0) return x;
    char dig[20], text[64];
    int e, n = sl_dtoa_shortest(x, dig, &e);
    int keep = e + 1 + d; /* digits kept */
    if (keep >= n) return x;
    if (keep < 0) return 0.0;
    int carry = dig[keep] >= '5';
    for (int i = keep - 1; i >= 0 && carry; i--) {
        if (dig[i] == '9') dig[i] = '0';
        else dig[i]++, carry = 0;
    }
    if (keep == 0 && !carry) return 0.0;
    snprintf(text, sizeof text, "%s%s%.*se%d", x < 0 ? "-" : "", carry ? "1" : "", keep, dig,
             e + 1 - keep);
    /* The text is the digits as an integer times 10^(e + 1 - keep); a carry
     * adds a leading 1 (the digits became zeros). */
    return strtod(text, NULL);
}

static bool round_dec(exec_dec_t v, int s, int d, const exec_type_t *out_t, exec_dec_t *out)
{
    exec_dec_t r;
    if (d >= s)
        return exec_dec_rescale(v, s, out_t->scale, out) && exec_dec_fits(*out, out_t->precision);
    if (d >= 0) return exec_dec_rescale(v, s, d, out) && exec_dec_fits(*out, out_t->precision);
    if (!exec_dec_rescale(v, s, 0, &r) || -d > 38) return false;
    exec_dec_t m = exec_dec_pow10(-d);
    exec_dec_t a = r < 0 ? -r : r;
    a = (a + m / 2) / m * m;
    *out = r < 0 ? -a : a;
    return exec_dec_fits(*out, out_t->precision);
}

int exec_fn_round(const exec_fcall_t *c, sl_error_t *err)
{
    const round_aux_t *ra = c->aux;
    int d = ra->d;
    exec_type_t in = c->args[0]->type, ot = c->out->type;
    if (ra->null_d) {
        memset(exec_vec_make_nulls(c->arena, c->out, c->cap), 1, c->cap ? c->cap : 1);
        return 0;
    }
    bool bad = false;
    switch (in.id) {
    case EXEC_TYPE_INT:
        FOR_ROWS(c, int64_t r = ARG(c, 0, int32_t, i); if (d < 0) bad |= !round_int(r, -d, &r);
                 bad |= r < INT32_MIN || r > INT32_MAX; OUT(c, int32_t, i) = (int32_t)r);
        break;
    case EXEC_TYPE_BIGINT:
        FOR_ROWS(c, int64_t r = ARG(c, 0, int64_t, i); if (d < 0) bad |= !round_int(r, -d, &r);
                 OUT(c, int64_t, i) = r);
        break;
    case EXEC_TYPE_DOUBLE:
        FOR_ROWS(c, OUT(c, double, i) = round_double(ARG(c, 0, double, i), d));
        break;
    default:
        FOR_ROWS(c, bad |=
                    !round_dec(ARG(c, 0, exec_dec_t, i), in.scale, d, &ot, &OUT(c, exec_dec_t, i)));
        break;
    }
    if (bad) {
        if (ot.id == EXEC_TYPE_DECIMAL)
            return sl_error_set(err, SL_ERR_NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow");
        return sl_error_set(err, SL_ERR_NUMERIC_VALUE_OUT_OF_RANGE, "%s out of range",
                            ot.id == EXEC_TYPE_INT ? "integer" : "bigint");
    }
    return 0;
}
