/* exec decimals: exact DECIMAL(p, s) arithmetic on scaled __int128 values,
 * with Spark's result-type rules.
 *
 * A DECIMAL(p, s) value v stands for v / 10^s and always satisfies
 * |v| < 10^p. Every operation rounds half away from zero (Spark's HALF_UP)
 * when it drops digits, and reports overflow instead of wrapping; products
 * and quotients are computed in 256 bits when 128 could overflow. */
#ifndef EXEC_DECIMAL_H
#define EXEC_DECIMAL_H

#include <stdbool.h>
#include <stdint.h>

#include "model/types.h"

/* 10^n for 0 <= n <= 38. */
exec_dec_t exec_dec_pow10(int n);
/* |v| < 10^p */
bool exec_dec_fits(exec_dec_t v, int p);
/* Changes the scale of v from `from` to `to` (rounding half up when
 * dropping digits). False when the result does not fit in 38 digits. */
bool exec_dec_rescale(exec_dec_t v, int from, int to, exec_dec_t *out);
/* a (scale sa) * b (scale sb) at scale `to`, rounded; false on overflow of 38 digits. */
bool exec_dec_mul(exec_dec_t a, int sa, exec_dec_t b, int sb, int to, exec_dec_t *out);
/* a / b at scale `to`, rounded; b != 0; false on overflow of 38 digits. */
bool exec_dec_div(exec_dec_t a, int sa, exec_dec_t b, int sb, int to, exec_dec_t *out);
/* Remainder with the dividend's sign, at scale max(sa, sb) = `to`; b != 0. */
bool exec_dec_mod(exec_dec_t a, int sa, exec_dec_t b, int sb, int to, exec_dec_t *out);
double exec_dec_to_double(exec_dec_t v, int scale);
/* A finite double to DECIMAL(p, s), rounded half up on its shortest decimal
 * form (0.125 -> 0.13 at scale 2). False when out of range or not finite. */
bool exec_dec_from_double(double d, int p, int s, exec_dec_t *out);
/* Truncates toward zero to an integer (the value at scale 0). */
exec_dec_t exec_dec_trunc(exec_dec_t v, int scale);

/* Arithmetic operators, for exec_dec_result_type. */
typedef enum { EXEC_DEC_ADD, EXEC_DEC_SUB, EXEC_DEC_MUL, EXEC_DEC_DIV, EXEC_DEC_MOD } exec_dec_op_t;

/* Spark's result type of `a op b` for two decimals (DecimalPrecision with
 * allowPrecisionLoss): + - : s = max(s1,s2), p = max(p1-s1,p2-s2) + s + 1;
 * * : p1+p2+1, s1+s2;  / : s = max(6, s1+p2+1), p = p1-s1+s2+s;
 * % : p = min(p1-s1,p2-s2) + max(s1,s2); then above 38 digits the integer
 * digits are kept and the scale cut down to no less than min(s, 6). */
exec_type_t exec_dec_result_type(exec_dec_op_t op, exec_type_t a, exec_type_t b);
/* The decimal type an integer or decimal type converts to losslessly:
 * INT -> DECIMAL(10,0), BIGINT -> DECIMAL(20,0); decimals unchanged. */
exec_type_t exec_dec_type_of(exec_type_t t);
/* The narrowest decimal holding both (Spark's widerDecimalType, capped at 38). */
exec_type_t exec_dec_wider(exec_type_t a, exec_type_t b);

#endif
