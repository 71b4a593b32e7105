/* bench_sort: ORDER BY ... LIMIT (top-N) and a full sort, single thread.
 *
 *   build/obj/bench/bench_sort [-n rows] [-l limit[,limit...]] [-r repeats]
 *
 * Data (the same formula bench/duckdb/sort.mjs uses): for i in 0..rows-1,
 * k = (i * 2654435761) % 1000003 and v = i % 1000, BIGINT columns in
 * batches of 4096 rows built before the clock starts. Query: SELECT k, v
 * ORDER BY k, v LIMIT n, for each n given (-1: no limit, every row sorted
 * and emitted). Each is run `repeats` times on a one-thread pool; the
 * median wall and process CPU times are printed with a checksum (rows, sum
 * of k, sum of v of the result) to compare with DuckDB's. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench_util.h"
#include "exec/op_sort.h"

static void run(exec_pool_t *pool, bench_data_t *d, int64_t rows, int64_t limit, int repeats)
{
    sl_arena_t *a = sl_arena_new("plan");
    exec_type_t t[2] = {exec_type_of(EXEC_TYPE_BIGINT), exec_type_of(EXEC_TYPE_BIGINT)};
    const char *cols[] = {"k", "v"};
    exec_pnode_t *leaf = op_input_plan(a, 2, cols, t, "data");
    op_sort_key_t keys[2] = {{0, 0, -1}, {1, 0, -1}};
    sl_error_t err;
    exec_pnode_t *root = op_sort_plan(a, leaf, keys, 2, limit, &err);
    if (!root) {
        fprintf(stderr, "plan: %s\n", err.message);
        exit(1);
    }
    exec_plan_number(root);
    op_ctx_t base;
    memset(&base, 0, sizeof base);
    base.npartitions = 1;
    exec_input_t in = {leaf, bench_produce, d, 0};
    double times[32], cpu[32];
    int64_t nrows = 0, sum_k = 0, sum_v = 0;
    for (int i = 0; i < repeats; i++) {
        exec_result_t res;
        double t0 = bench_clock_s(CLOCK_MONOTONIC), c0 = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID);
        if (exec_run(root, &base, 0, NULL, pool, &in, 1, &res, &err) < 0) {
            fprintf(stderr, "run: %s\n", err.message);
            exit(1);
        }
        times[i] = bench_clock_s(CLOCK_MONOTONIC) - t0;
        cpu[i] = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
        nrows = sum_k = sum_v = 0;
        for (int j = 0; j < res.nbatches; j++) {
            const exec_batch_t *b = res.batches[j];
            for (uint32_t k = 0; k < b->nrows; k++) {
                sum_k += EXEC_VEC_AT(&b->cols[0], int64_t, k);
                sum_v += EXEC_VEC_AT(&b->cols[1], int64_t, k);
            }
            nrows += b->nrows;
        }
        exec_result_free(&res);
    }
    double med = bench_median(times, repeats), mcpu = bench_median(cpu, repeats);
    printf("sluice  limit=%-8" PRId64 " rows=%" PRId64 "  median wall %.3f s  cpu %.3f s  "
           "result rows=%" PRId64 " sum(k)=%" PRId64 " sum(v)=%" PRId64 "\n",
           limit, rows, med, mcpu, nrows, sum_k, sum_v);
    sl_arena_free(a);
}

int main(int argc, char **argv)
{
    int64_t rows = 10000000;
    int64_t limits[8] = {10, 10000, -1};
    int nlimits = 3, repeats = 5, c;
    while ((c = getopt(argc, argv, "n:l:r:")) != -1) {
        if (c == 'n') rows = atoll(optarg);
        if (c == 'r') repeats = bench_repeats(optarg);
        if (c == 'l') nlimits = bench_int_list(optarg, limits, 8);
    }
    exec_pool_t *pool = exec_pool_new(1);
    sl_arena_t *a = sl_arena_new("data");
    bench_data_t d = bench_two_bigints(a, rows, 1000003, 1000);
    for (int l = 0; l < nlimits; l++) run(pool, &d, rows, limits[l], repeats);
    sl_arena_free(a);
    exec_pool_free(pool);
    return 0;
}
