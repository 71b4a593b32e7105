/* bench_expr: single-thread throughput of sluice's vectorised expressions.
 *
 * Generates N rows (default 10 M) of a BIGINT, b BIGINT, c DOUBLE from a
 * deterministic hash of the row number (the same formula bench/duckdb/
 * bench.mjs evaluates in SQL, so both engines see identical data) into
 * batches of EXEC_BATCH_ROWS = 4096 rows, then times, over all batches:
 *
 *   (a) SELECT sum(a * 2 + b) FROM t WHERE a > 0          (~50% of rows pass)
 *   (b) SELECT sum(((CASE WHEN c < 0.25 THEN 'low' WHEN c < 0.75 THEN 'mid'
 *                    ELSE 'high' END) = 'mid')::INT) FROM t
 *
 * Each query: the compiled program(s) run batch by batch exactly as an
 * operator would run them (filter narrows the selection, projection
 * evaluates under it), with the per-batch scratch arena reset after every
 * batch; the final sum is a plain loop over the result vector (the DuckDB
 * side has the same aggregate). Data generation is not timed. Prints the
 * median and best of several runs, by wall clock and by process CPU time
 * (the fair figure on a loaded host), and checksums of data and results.
 *
 *   make benchmarks && build/obj/bench/bench_expr [--rows N] [--runs N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/arena.h"
#include "model/batch.h"
#include "exec/expr.h"

#define M31 2147483647LL

/* The data formula (kept in sync with bench/duckdb/bench.mjs). */
static int64_t mix(int64_t i, int64_t m1, int64_t m2)
{
    int64_t x = (i * m1 + 12345) % M31;
    x ^= x >> 13;
    x = (x * m2) % M31;
    x ^= x >> 7;
    return x;
}

typedef struct data {
    exec_batch_t **batches;
    int nbatches;
    double sum_a, sum_b, sum_c;
} data_t;

static void generate(sl_arena_t *a, int64_t rows, data_t *d)
{
    exec_type_t types[3] = {exec_type_of(EXEC_TYPE_BIGINT), exec_type_of(EXEC_TYPE_BIGINT),
                            exec_type_of(EXEC_TYPE_DOUBLE)};
    d->nbatches = (int)((rows + EXEC_BATCH_ROWS - 1) / EXEC_BATCH_ROWS);
    d->batches = calloc((size_t)d->nbatches, sizeof *d->batches);
    for (int k = 0; k < d->nbatches; k++) {
        int64_t first = (int64_t)k * EXEC_BATCH_ROWS;
        uint32_t n = (uint32_t)(rows - first < EXEC_BATCH_ROWS ? rows - first : EXEC_BATCH_ROWS);
        exec_batch_t *b = exec_batch_new(a, 3, types, n);
        int64_t *A = b->cols[0].data, *B = b->cols[1].data;
        double *C = b->cols[2].data;
        for (uint32_t r = 0; r < n; r++) {
            int64_t i = first + r;
            A[r] = mix(i, 48271, 69621) % 2000001 - 1000000;
            B[r] = mix(i, 16807, 40692) % 2000001 - 1000000;
            C[r] = (double)(mix(i, 39373, 50653) % 1000000) / 1000000.0;
            d->sum_a += (double)A[r];
            d->sum_b += (double)B[r];
            d->sum_c += C[r];
        }
        d->batches[k] = b;
    }
}

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double now_s(void)
{
    return clock_s(CLOCK_MONOTONIC);
}
/* CPU time of this process: unaffected by other load on a shared host. */
static double cpu_s(void)
{
    return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

static void die(const char *what, const sl_error_t *err)
{
    fprintf(stderr, "bench_expr: %s: %s %s\n", what, err->sqlstate, err->message);
    exit(1);
}

static exec_expr_t *col(sl_arena_t *a, int i, exec_type_id_t t)
{
    return exec_expr_column(a, i, exec_type_of(t), NULL);
}

static exec_expr_t *lit_i(sl_arena_t *a, int64_t v)
{
    exec_value_t x = exec_value_bigint(v);
    return exec_expr_const(a, &x);
}

static exec_expr_t *lit_d(sl_arena_t *a, double v)
{
    exec_value_t x = exec_value_double(v);
    return exec_expr_const(a, &x);
}

static exec_expr_t *lit_s(sl_arena_t *a, const char *s)
{
    exec_value_t x = exec_value_string(s, strlen(s));
    return exec_expr_const(a, &x);
}

/* (a): filter a > 0, projection a * 2 + b, summed. */
static int64_t run_a(const data_t *d, const exec_prog_t *where, const exec_prog_t *proj,
                     exec_ctx_t *ctx)
{
    int64_t sum = 0;
    sl_error_t err;
    for (int k = 0; k < d->nbatches; k++) {
        exec_batch_t *b = exec_batch_shallow_copy(d->batches[k], ctx->arena);
        exec_vec_t v;
        if (exec_prog_filter(where, ctx, b, &err) || exec_prog_eval(proj, ctx, b, &v, &err))
            die("query a", &err);
        const int64_t *x = v.data;
        uint32_t n = exec_batch_count(b);
        for (uint32_t j = 0; j < n; j++) sum += x[b->sel ? b->sel[j] : j];
        sl_arena_reset(ctx->arena);
    }
    return sum;
}

/* (b): a CASE producing strings compared with a string, counted. */
static int64_t run_b(const data_t *d, const exec_prog_t *proj, exec_ctx_t *ctx)
{
    int64_t count = 0;
    sl_error_t err;
    for (int k = 0; k < d->nbatches; k++) {
        exec_vec_t v;
        if (exec_prog_eval(proj, ctx, d->batches[k], &v, &err)) die("query b", &err);
        const uint8_t *x = v.data;
        uint32_t n = d->batches[k]->nrows;
        for (uint32_t j = 0; j < n; j++) count += x[j];
        sl_arena_reset(ctx->arena);
    }
    return count;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    int64_t rows = 10000000;
    int runs = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--rows")) rows = atoll(argv[i + 1]);
        else if (!strcmp(argv[i], "--runs")) runs = atoi(argv[i + 1]);
    }
    if (runs < 1 || runs > 99 || rows < 1) {
        fprintf(stderr, "usage: bench_expr [--rows N] [--runs 1..99]\n");
        return 2;
    }
    sl_arena_t *data_arena = sl_arena_new("bench data"), *plan = sl_arena_new("bench plan");
    data_t d = {0};
    double t0 = now_s();
    generate(data_arena, rows, &d);
    printf(
        "generated %lld rows in %d batches of %d (%.2f s); checksums sum(a)=%.0f sum(b)=%.0f sum(c)=%.6f\n",
        (long long)rows, d.nbatches, EXEC_BATCH_ROWS, now_s() - t0, d.sum_a, d.sum_b, d.sum_c);

    sl_error_t err;
    exec_expr_t *gt =
        exec_expr_cmp(plan, EXEC_CMP_GT, col(plan, 0, EXEC_TYPE_BIGINT), lit_i(plan, 0), &err);
    exec_expr_t *p2 =
        exec_expr_arith(plan, EXEC_OP_MUL, col(plan, 0, EXEC_TYPE_BIGINT), lit_i(plan, 2), &err);
    exec_expr_t *pa =
        p2 ? exec_expr_arith(plan, EXEC_OP_ADD, p2, col(plan, 1, EXEC_TYPE_BIGINT), &err) : NULL;
    exec_expr_t *whens[] = {
        exec_expr_cmp(plan, EXEC_CMP_LT, col(plan, 2, EXEC_TYPE_DOUBLE), lit_d(plan, 0.25), &err),
        exec_expr_cmp(plan, EXEC_CMP_LT, col(plan, 2, EXEC_TYPE_DOUBLE), lit_d(plan, 0.75), &err)};
    exec_expr_t *thens[] = {lit_s(plan, "low"), lit_s(plan, "mid")};
    exec_expr_t *cs = exec_expr_case(plan, NULL, whens, thens, 2, lit_s(plan, "high"), &err);
    exec_expr_t *pb = cs ? exec_expr_cmp(plan, EXEC_CMP_EQ, cs, lit_s(plan, "mid"), &err) : NULL;
    if (!gt || !pa || !pb) die("building expressions", &err);
    exec_prog_t *where = exec_expr_compile(plan, gt, &err),
                *proj_a = exec_expr_compile(plan, pa, &err),
                *proj_b = exec_expr_compile(plan, pb, &err);
    if (!where || !proj_a || !proj_b) die("compiling", &err);

    exec_ctx_t ctx = {.arena = sl_arena_new("bench scratch")};
    double wall[2][99], cpu[2][99];
    int64_t result[2] = {0, 0};
    for (int r = 0; r < runs; r++) {
        for (int q = 0; q < 2; q++) {
            double w = now_s(), c = cpu_s();
            result[q] = q == 0 ? run_a(&d, where, proj_a, &ctx) : run_b(&d, proj_b, &ctx);
            cpu[q][r] = cpu_s() - c;
            wall[q][r] = now_s() - w;
        }
    }
    static const char *names[2] = {"a", "b"};
    for (int q = 0; q < 2; q++) {
        qsort(wall[q], (size_t)runs, sizeof(double), cmp_double);
        qsort(cpu[q], (size_t)runs, sizeof(double), cmp_double);
        double mw = wall[q][runs / 2], mc = cpu[q][runs / 2];
        printf("(%s) result %lld: wall median %.3f s (%.1f M rows/s), best %.3f s; "
               "cpu median %.3f s (%.1f M rows/s), best %.3f s\n",
               names[q], (long long)result[q], mw, (double)rows / mw / 1e6, wall[q][0], mc,
               (double)rows / mc / 1e6, cpu[q][0]);
    }
    sl_arena_free(ctx.arena);
    sl_arena_free(plan);
    sl_arena_free(data_arena);
    free(d.batches);
    return 0;
}
