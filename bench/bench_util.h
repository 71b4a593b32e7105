/* What the bench programs share: rows built in memory before the clock
 * starts and a producer that hands them to a plan, clocks, and medians. */
#ifndef SL_BENCH_UTIL_H
#define SL_BENCH_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exec/stage.h"

typedef struct bench_data {
    exec_batch_t **batches;
    int n;
} bench_data_t;

/* `rows` rows of two BIGINT columns in full batches: row i holds
 * (i * 2654435761) % mod0 (scattered keys) and i % mod1. */
static inline bench_data_t bench_two_bigints(sl_arena_t *a, int64_t rows, int64_t mod0,
                                             int64_t mod1)
{
    exec_type_t t[2] = {exec_type_of(EXEC_TYPE_BIGINT), exec_type_of(EXEC_TYPE_BIGINT)};
    bench_data_t d = {.n = (int)((rows + EXEC_BATCH_ROWS - 1) / EXEC_BATCH_ROWS)};
    d.batches = SL_NEW_ARRAY(a, exec_batch_t *, d.n + 1);
    for (int b = 0; b < d.n; b++) {
        int64_t first = (int64_t)b * EXEC_BATCH_ROWS;
        uint32_t n = (uint32_t)(rows - first < EXEC_BATCH_ROWS ? rows - first : EXEC_BATCH_ROWS);
        exec_batch_t *batch = exec_batch_new(a, 2, t, n);
        for (uint32_t r = 0; r < n; r++) {
            int64_t i = first + r;
            EXEC_VEC_AT(&batch->cols[0], int64_t, r) = (i * 2654435761LL) % mod0;
            EXEC_VEC_AT(&batch->cols[1], int64_t, r) = i % mod1;
        }
        d.batches[b] = batch;
    }
    return d;
}

/* exec_produce_fn over a bench_data_t: emits every batch, in order. */
static inline int bench_produce(void *arg, sl_arena_t *a, exec_emit_fn emit, void *emit_arg,
                                sl_error_t *err)
{
    (void)a;
    bench_data_t *d = arg;
    for (int i = 0; i < d->n; i++)
        if (emit(emit_arg, d->batches[i], err) < 0) return -1;
    return 0;
}

/* Seconds on clock `id` (CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID). */
static inline double bench_clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[0..n) (sorts v). */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return v[n / 2];
}

/* -r N: runs, clamped to 1..32 (the programs keep 32 timings). */
static inline int bench_repeats(const char *s)
{
    int n = atoi(s);
    return n < 1 ? 1 : n > 32 ? 32 : n;
}

/* A comma-separated list of integers (modified by strtok) into out[0..max);
 * returns the count. */
static inline int bench_int_list(char *s, int64_t *out, int max)
{
    int n = 0;
    for (char *p = strtok(s, ","); p && n < max; p = strtok(NULL, ",")) out[n++] = atoll(p);
    return n;
}

#endif
