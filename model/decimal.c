/* exec decimals: scaled __int128 arithmetic with 256-bit intermediates and
 * Spark's decimal result types. */
#include "model/decimal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_write.h"

typedef unsigned __int128 u128;

/* A 256-bit unsigned magnitude. */
typedef struct u256 {
    u128 hi, lo;
} u256_t;

/* 10^0 .. 10^38 as constant expressions (no run-time initialisation). */
static const exec_dec_t pow10_table[39] = {
    (exec_dec_t)1ULL,
    (exec_dec_t)10ULL,
    (exec_dec_t)100ULL,
    (exec_dec_t)1000ULL,
    (exec_dec_t)10000ULL,
    (exec_dec_t)100000ULL,
    (exec_dec_t)1000000ULL,
    (exec_dec_t)10000000ULL,
    (exec_dec_t)100000000ULL,
    (exec_dec_t)1000000000ULL,
    (exec_dec_t)10000000000ULL,
    (exec_dec_t)100000000000ULL,
    (exec_dec_t)1000000000000ULL,
    (exec_dec_t)10000000000000ULL,
    (exec_dec_t)100000000000000ULL,
    (exec_dec_t)1000000000000000ULL,
    (exec_dec_t)10000000000000000ULL,
    (exec_dec_t)100000000000000000ULL,
    (exec_dec_t)1000000000000000000ULL,
    (exec_dec_t)10000000000000000000ULL,
    (exec_dec_t)10000000000000000000ULL * 10ULL,
    (exec_dec_t)10000000000000000000ULL * 100ULL,
    (exec_dec_t)10000000000000000000ULL * 1000ULL,
    (exec_dec_t)10000000000000000000ULL * 10000ULL,
    (exec_dec_t)10000000000000000000ULL * 100000ULL,
    (exec_dec_t)10000000000000000000ULL * 1000000ULL,
    (exec_dec_t)10000000000000000000ULL * 10000000ULL,
    (exec_dec_t)10000000000000000000ULL * 100000000ULL,
    (exec_dec_t)10000000000000000000ULL * 1000000000ULL,
    (exec_dec_t)10000000000000000000ULL * 10000000000ULL,
    (exec_dec_t)10000000000000000000ULL * 100000000000ULL,
    (exec_dec_t)10000000000000000000ULL * 1000000000000ULL,
    (exec_dec_t)10000000000000000000ULL * 10000000000000ULL,
    (exec_dec_t)10000000000000000000ULL * 100000000000000ULL,
    (exec_dec_t)10000000000000000000ULL * 1000000000000000ULL,
    (exec_dec_t)10000000000000000000ULL * 10000000000000000ULL,
    (exec_dec_t)10000000000000000000ULL * 100000000000000000ULL,
    (exec_dec_t)10000000000000000000ULL * 1000000000000000000ULL,
    (exec_dec_t)10000000000000000000ULL * 10000000000000000000ULL,
};

exec_dec_t exec_dec_pow10(int n)
{
    return pow10_table[n];
}

static u128 uabs(exec_dec_t v)
{
    return v < 0 ? -(u128)v : (u128)v;
}

bool exec_dec_fits(exec_dec_t v, int p)
{
    return uabs(v) < (u128)exec_dec_pow10(p);
}

/* Largest magnitude a 38-digit decimal may hold. */
static u128 max38(void)
{
    return (u128)exec_dec_pow10(38) - 1;
}

static u256_t mul128(u128 a, u128 b)
{
    uint64_t a0 = (uint64_t)a, a1 = (uint64_t)(a >> 64);
    uint64_t b0 = (uint64_t)b, b1 = (uint64_t)(b >> 64);
    u128 lo = (u128)a0 * b0, m1 = (u128)a0 * b1, m2 = (u128)a1 * b0, hi = (u128)a1 * b1;
    u128 mid = m1 + m2;
    u128 mid_carry = mid < m1 ? (u128)1 << 64 : 0;
    u256_t r;
    r.lo = lo + (mid << 64);
    u128 carry = r.lo < lo ? 1 : 0;
    r.hi = hi + (mid >> 64) + mid_carry + carry;
    return r;
}

static int cmp256(u256_t a, u256_t b)
{
    if (a.hi != b.hi) return a.hi < b.hi ? -1 : 1;
    if (a.lo != b.lo) return a.lo < b.lo ? -1 : 1;
    return 0;
}

/* n / d with d != 0, rounded half up; false when the quotient needs more
 * than 128 bits. Bitwise long division: the slow path of rare cases. */
static bool div256_round(u256_t n, u128 d, u128 *q)
{
    if (n.hi == 0) {
        u128 qq = n.lo / d, r = n.lo % d;
        if (r >= d - r) qq++;
        *q = qq;
        return true;
    }
    if (n.hi >= d) return false; /* quotient >= 2^128 */
    u128 r = n.hi, qq = 0;
    for (int i = 127; i >= 0; i--) {
        bool top = r >> 127;
        r = r << 1 | ((n.lo >> i) & 1);
        qq <<= 1;
        if (top || r >= d) {
            r -= d;
            qq |= 1;
        }
    }
    if (r >= d - r) {
        if (qq == ~(u128)0) return false;
        qq++;
    }
    *q = qq;
    return true;
}

/* Applies sign and the 38-digit bound. */
static bool finish(u128 mag, bool neg, exec_dec_t *out)
{
    if (mag > max38()) return false;
    *out = neg ? -(exec_dec_t)mag : (exec_dec_t)mag;
    return true;
}

bool exec_dec_rescale(exec_dec_t v, int from, int to, exec_dec_t *out)
{
    if (to == from) return finish(uabs(v), v < 0, out);
    if (to > from) {
        u256_t m = mul128(uabs(v), (u128)exec_dec_pow10(to - from));
        return m.hi == 0 && finish(m.lo, v < 0, out);
    }
    u128 d = (u128)exec_dec_pow10(from - to), mag = uabs(v);
    u128 q = mag / d, r = mag % d;
    if (r >= d - r) q++;
    return finish(q, v < 0, out);
}

bool exec_dec_mul(exec_dec_t a, int sa, exec_dec_t b, int sb, int to, exec_dec_t *out)
{
    bool neg = (a < 0) != (b < 0);
    u256_t p = mul128(uabs(a), uabs(b));
    int drop = sa + sb - to;
    if (drop < 0) {
        if (p.hi) return false;
        u256_t m = mul128(p.lo, (u128)exec_dec_pow10(-drop));
        return m.hi == 0 && finish(m.lo, neg, out);
    }
    u128 q;
    if (drop == 0) {
        if (p.hi) return false;
        q = p.lo;
    } else if (drop > 38) {
        /* Cannot happen with Spark's result types; the value rounds to 0 or overflows. */
        return false;
    } else if (!div256_round(p, (u128)exec_dec_pow10(drop), &q)) {
        return false;
    }
    return finish(q, neg, out);
}

bool exec_dec_div(exec_dec_t a, int sa, exec_dec_t b, int sb, int to, exec_dec_t *out)
{
    bool neg = (a < 0) != (b < 0);
    int k = to + sb - sa; /* a * 10^k / b */
    u128 q;
    if (k >= 0) {
        if (k > 38) return false;
        u256_t n = mul128(uabs(a), (u128)exec_dec_pow10(k));
        if (!div256_round(n, uabs(b), &q)) return false;
        return finish(q, neg, out);
    }
    if (-k > 38) {
        *out = 0;
        return true;
    }
    u256_t d = mul128(uabs(b), (u128)exec_dec_pow10(-k));
    u256_t twice_n = mul128(uabs(a), 2);
    if (d.hi) { /* the divisor exceeds every 38-digit dividend */
        q = cmp256(twice_n, d) >= 0 ? 1 : 0;
        return finish(q, neg, out);
    }
    if (!div256_round((u256_t){0, uabs(a)}, d.lo, &q)) return false;
    return finish(q, neg, out);
}

bool exec_dec_mod(exec_dec_t a, int sa, exec_dec_t b, int sb, int to, exec_dec_t *out)
{
    exec_dec_t x, y;
    if (!exec_dec_rescale(a, sa, to, &x) || !exec_dec_rescale(b, sb, to, &y)) return false;
    *out = x % y;
    return true;
}

double exec_dec_to_double(exec_dec_t v, int scale)
{
    u128 mag = uabs(v);
    if (mag < ((u128)1 << 53) && scale <= 22) {
        static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
        return (double)v / p10[scale];
    }
    /* Exact decimal text, then one correctly rounded conversion. */
    char buf[64];
    int n = 0;
    char digits[48];
    int nd = 0;
    do {
        digits[nd++] = (char)('0' + (int)(mag % 10));
        mag /= 10;
    } while (mag);
    if (v < 0) buf[n++] = '-';
    while (nd) buf[n++] = digits[--nd];
    snprintf(buf + n, sizeof buf - (size_t)n, "e-%d", scale);
    return strtod(buf, NULL);
}

bool exec_dec_from_double(double d, int p, int s, exec_dec_t *out)
{
    if (!isfinite(d)) return false;
    if (d == 0) {
        *out = 0;
        return true;
    }
    char dig[20];
    int e, n = sl_dtoa_shortest(d, dig, &e);
    /* |d| = 0.dig x 10^(e+1); at scale s the integer is dig x 10^(e+1-n+s). */
    int shift = e + 1 - n + s;
    u128 mag = 0;
    int keep = shift >= 0 ? n : n + shift; /* digits that stay before rounding */
    if (keep < 0) keep = -1;
    for (int i = 0; i < keep; i++) mag = mag * 10 + (u128)(dig[i] - '0');
    if (shift < 0) {
        if (keep >= 0 && keep < n && dig[keep] >= '5') mag++;
    } else {
        if (shift > 38) return false;
        u256_t m = mul128(mag, (u128)exec_dec_pow10(shift));
        if (m.hi) return false;
        mag = m.lo;
    }
    if (mag >= (u128)exec_dec_pow10(p)) return false;
    *out = d < 0 ? -(exec_dec_t)mag : (exec_dec_t)mag;
    return true;
}

exec_dec_t exec_dec_trunc(exec_dec_t v, int scale)
{
    return v / exec_dec_pow10(scale);
}

/* ---- result types ------------------------------------------------------ */

static int imax(int a, int b)
{
    return a > b ? a : b;
}
static int imin(int a, int b)
{
    return a < b ? a : b;
}

/* DecimalType.adjustPrecisionScale with allowPrecisionLoss. */
static exec_type_t bounded(int p, int s)
{
    if (p <= EXEC_DECIMAL_MAX_PRECISION) return exec_type_decimal(p, s);
    int int_digits = p - s;
    int min_scale = imin(s, 6);
    int ns = imax(EXEC_DECIMAL_MAX_PRECISION - int_digits, min_scale);
    return exec_type_decimal(EXEC_DECIMAL_MAX_PRECISION, ns);
}

exec_type_t exec_dec_type_of(exec_type_t t)
{
    if (t.id == EXEC_TYPE_INT) return exec_type_decimal(10, 0);
    if (t.id == EXEC_TYPE_BIGINT) return exec_type_decimal(20, 0);
    return t;
}

exec_type_t exec_dec_result_type(exec_dec_op_t op, exec_type_t a, exec_type_t b)
{
    a = exec_dec_type_of(a);
    b = exec_dec_type_of(b);
    int p1 = a.precision, s1 = a.scale, p2 = b.precision, s2 = b.scale;
    switch (op) {
    case EXEC_DEC_ADD:
    case EXEC_DEC_SUB: {
        int s = imax(s1, s2);
        return bounded(imax(p1 - s1, p2 - s2) + s + 1, s);
    }
    case EXEC_DEC_MUL: return bounded(p1 + p2 + 1, s1 + s2);
    case EXEC_DEC_DIV: {
        int s = imax(6, s1 + p2 + 1);
        return bounded(p1 - s1 + s2 + s, s);
    }
    case EXEC_DEC_MOD:
    default: {
        int s = imax(s1, s2);
        return bounded(imin(p1 - s1, p2 - s2) + s, s);
    }
    }
}

exec_type_t exec_dec_wider(exec_type_t a, exec_type_t b)
{
    a = exec_dec_type_of(a);
    b = exec_dec_type_of(b);
    int s = imax(a.scale, b.scale);
    int ints = imax(a.precision - a.scale, b.precision - b.scale);
    int p = imin(ints + s, EXEC_DECIMAL_MAX_PRECISION);
    if (s > p) s = p;
    return exec_type_decimal(p, s);
}
