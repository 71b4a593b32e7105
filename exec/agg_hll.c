/* HyperLogLog++ sketches for approx_count_distinct: register placement of
 * a 64-bit hash and the cardinality estimate.
 *
 * Registers: the top p bits of the hash pick one of m = 2^p registers; the
 * register keeps the largest rank (leading zeros + 1) seen in the remaining
 * 64 - p bits. With a 64-bit hash no large-range correction is needed
 * (HLL++'s first change). For the small range, instead of HLL++'s
 * empirical bias tables, the estimate is Ertl's improved raw estimator
 * ("New cardinality estimation algorithms for HyperLogLog sketches", 2017,
 * algorithm 6): it folds the register histogram with the sigma and tau
 * series and is unbiased from 0 up to 2^64, with no switch-over point. */
#include <math.h>

#include "exec/agg.h"

void exec_hll_place(uint64_t h, int p, uint32_t *idx, uint8_t *rho)
{
    *idx = (uint32_t)(h >> (64 - p));
    uint64_t w = h << p;
    *rho = w == 0 ? (uint8_t)(64 - p + 1) : (uint8_t)(__builtin_clzll(w) + 1);
}

/* sigma(x) = x + sum_{k>=1} x^(2^k) 2^(k-1), for the empty registers. */
static double hll_sigma(double x)
{
    if (x == 1.0) return INFINITY;
    double y = 1, z = x, prev;
    do {
        x *= x;
        prev = z;
        z += x * y;
        y += y;
    } while (z != prev);
    return z;
}

/* tau(x) = (1 - x - sum_{k>=1} (1 - x^(2^-k))^2 2^-k) / 3, for saturated registers. */
static double hll_tau(double x)
{
    if (x == 0.0 || x == 1.0) return 0;
    double y = 1, z = 1 - x, prev;
    do {
        x = sqrt(x);
        prev = z;
        y *= 0.5;
        z -= (1 - x) * (1 - x) * y;
    } while (z != prev);
    return z / 3;
}

double exec_hll_estimate(const uint8_t *regs, int p)
{
    int q = 64 - p;
    uint32_t m = 1u << p;
    double c[66] = {0};
    for (uint32_t i = 0; i < m; i++) c[regs[i] > q + 1 ? q + 1 : regs[i]]++;
    double z = m * hll_tau(1.0 - c[q + 1] / m);
    for (int k = q; k >= 1; k--) z = 0.5 * (z + c[k]);
    z += m * hll_sigma(c[0] / m);
    const double alpha_inf = 0.5 / log(2.0);
    return alpha_inf * m * m / z;
}
