/* bench_groupby: hash aggregation throughput, single thread.
 *
 *   build/obj/bench/bench_groupby [-n rows] [-g groups[,groups...]] [-r repeats]
 *
 * Data (the same formula bench/duckdb/groupby.mjs uses, so both engines see
 * identical rows): for i in 0..rows-1, k = (i * 2654435761) % groups and
 * v = i % 100, as BIGINT columns in batches of 4096 rows built before the
 * clock starts. Query: SELECT k, sum(v), count(*), avg(v) GROUP BY k.
 * Two plans are timed:
 *   single   INPUT -> HashAggregate(batch)            (one phase)
 *   planned  INPUT -> HashAggregate(partial) -> Exchange(1) -> HashAggregate(final)
 *            (what the planner builds for an ad-hoc SELECT)
 * Each is run `repeats` times on a one-thread pool; the median wall time,
 * rows/s and the median process CPU time (steadier than wall time on a
 * shared machine) are printed with a checksum of the result (sum of the sums,
 * of the counts and of the averages) to compare with DuckDB's. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench_util.h"
#include "exec/op_agg.h"

/* Builds the plan: single phase, or the planner's partial -> exchange -> final. */
static exec_pnode_t *build(sl_arena_t *a, exec_pnode_t *leaf, int planned)
{
    static const op_agg_call_t calls[3] = {
        {.func = "sum", .arg = 1}, {.func = "count", .arg = -1}, {.func = "avg", .arg = 1}};
    static const char *const names[] = {"k", "s", "c", "a"};
    int key = 0;
    op_agg_spec_t spec = {.nkeys = 1,
                          .keys = &key,
                          .ncalls = 3,
                          .calls = calls,
                          .names = names,
                          .event_key = -1,
                          .session_key = -1};
    sl_error_t err;
    exec_pnode_t *root = planned ? op_agg_plan(a, leaf, &spec, 1, 0, &err)
                                 : op_agg_plan_phase(a, leaf, OP_AGG_BATCH, &spec, &err);
    if (!root) {
        fprintf(stderr, "plan: %s\n", err.message);
        exit(1);
    }
    exec_plan_number(root);
    return root;
}

typedef struct sums {
    int64_t rows, sum, count;
    double avg;
} sums_t;

static sums_t checksum(const exec_result_t *r)
{
    sums_t s = {0};
    for (int i = 0; i < r->nbatches; i++) {
        const exec_batch_t *b = r->batches[i];
        for (uint32_t k = 0; k < b->nrows; k++) {
            s.sum += EXEC_VEC_AT(&b->cols[1], int64_t, k);
            s.count += EXEC_VEC_AT(&b->cols[2], int64_t, k);
            s.avg += EXEC_VEC_AT(&b->cols[3], double, k);
        }
        s.rows += b->nrows;
    }
    return s;
}

static void run(exec_pool_t *pool, bench_data_t *d, int64_t rows, int64_t groups, int planned,
                int repeats)
{
    sl_arena_t *a = sl_arena_new("plan");
    exec_type_t t[2] = {exec_type_of(EXEC_TYPE_BIGINT), exec_type_of(EXEC_TYPE_BIGINT)};
    const char *cols[] = {"k", "v"};
    exec_pnode_t *leaf = op_input_plan(a, 2, cols, t, "data");
    exec_pnode_t *root = build(a, leaf, planned);
    op_ctx_t base;
    memset(&base, 0, sizeof base);
    base.mode = OUTPUT_COMPLETE;
    base.npartitions = 1;
    exec_input_t in = {leaf, bench_produce, d, 0};
    double times[32], cpu[32];
    sums_t s = {0};
    for (int i = 0; i < repeats; i++) {
        exec_result_t res;
        sl_error_t err;
        double t0 = bench_clock_s(CLOCK_MONOTONIC), c0 = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID);
        if (exec_run(root, &base, 0, NULL, pool, &in, 1, &res, &err) < 0) {
            fprintf(stderr, "run: %s\n", err.message);
            exit(1);
        }
        s = checksum(&res);
        times[i] = bench_clock_s(CLOCK_MONOTONIC) - t0;
        cpu[i] = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
        exec_result_free(&res);
    }
    double med = bench_median(times, repeats), mcpu = bench_median(cpu, repeats);
    printf("sluice  %-7s groups=%-8" PRId64 " rows=%" PRId64
           "  median wall %.3f s (%.1f M rows/s)  cpu %.3f s  "
           "result rows=%" PRId64 " sum(s)=%" PRId64 " sum(c)=%" PRId64 " sum(a)=%.6f\n",
           planned ? "planned" : "single", groups, rows, med, (double)rows / med / 1e6, mcpu,
           s.rows, s.sum, s.count, s.avg);
    sl_arena_free(a);
}

int main(int argc, char **argv)
{
    int64_t rows = 10000000;
    int64_t groups[8] = {1000, 1000000};
    int ngroups = 2, repeats = 5, c;
    while ((c = getopt(argc, argv, "n:g:r:")) != -1) {
        if (c == 'n') rows = atoll(optarg);
        if (c == 'r') repeats = bench_repeats(optarg);
        if (c == 'g') ngroups = bench_int_list(optarg, groups, 8);
    }
    exec_pool_t *pool = exec_pool_new(1);
    for (int g = 0; g < ngroups; g++) {
        sl_arena_t *a = sl_arena_new("data");
        bench_data_t d = bench_two_bigints(a, rows, groups[g], 100);
        run(pool, &d, rows, groups[g], 0, repeats);
        run(pool, &d, rows, groups[g], 1, repeats);
        sl_arena_free(a);
    }
    exec_pool_free(pool);
    return 0;
}
