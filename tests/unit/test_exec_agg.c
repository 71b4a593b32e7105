/* Unit tests of exec/agg*.c and exec/op_agg.c in batch plans: every
 * aggregate function with NULLs, empty input with and without keys,
 * overflow, decimal result types, strings, DISTINCT, first/last order,
 * the PARTIAL -> EXCHANGE -> FINAL shape over several input tasks, lookup
 * errors, and the HyperLogLog++ error bounds. */
#include "test_exec_agg_util.h"

#include <math.h>

#include "common/hash.h"
#include "exec/agg.h"
#include "exec/op_agg.h"
#include "exec/op_basic.h"
#include "exec/op_exchange.h"

/* ---- a small query runner: INPUT(k STRING, x <type>) -> aggregation ---- */

typedef struct q {
    sl_arena_t *a;
    exec_type_t types[3];
    const char *names[3];
    int ncols;
    tb_input_t ins[4];
    int nins;
} q_t;

static void q_init(q_t *q, exec_type_t xt)
{
    memset(q, 0, sizeof *q);
    q->a = sl_arena_new("test");
    q->types[0] = exec_type_of(EXEC_TYPE_STRING);
    q->types[1] = xt;
    q->names[0] = "k";
    q->names[1] = "x";
    q->ncols = 2;
}

/* Adds an input task producing one batch of rows (k, x) given as text. */
static void q_task(q_t *q, int nrows, const char *const *cells)
{
    tb_input_t *in = &q->ins[q->nins++];
    in->batches = SL_NEW_ARRAY(q->a, exec_batch_t *, 1);
    in->n = nrows > 0 ? 1 : 0;
    if (nrows > 0) in->batches[0] = tb_batch(q->a, q->ncols, q->types, nrows, cells);
}

/* Runs SELECT [k,] f1(x), ... GROUP BY [k] with calls "name" or "name*"
 * (count(*)) or "name!" (DISTINCT); returns the sorted rows or NULL + err. */
static char *q_run(q_t *q, int by_key, const char *const *funcs, int nf, sl_error_t *err)
{
    exec_pnode_t *leaf = op_input_plan(q->a, q->ncols, q->names, q->types, "t");
    op_agg_call_t calls[12];
    const char *names[13];
    CHECK(nf <= 12);
    int key = 0;
    if (by_key) names[0] = "k";
    for (int i = 0; i < nf; i++) {
        size_t len = strlen(funcs[i]);
        char last = funcs[i][len - 1];
        calls[i] = (op_agg_call_t){
            .func = sl_strndup(q->a, funcs[i], last == '*' || last == '!' ? len - 1 : len),
            .distinct = last == '!',
            .arg = last == '*' ? -1 : 1};
        names[by_key + i] = funcs[i];
    }
    op_agg_spec_t spec = {.nkeys = by_key,
                          .keys = &key,
                          .ncalls = nf,
                          .calls = calls,
                          .names = names,
                          .event_key = -1,
                          .session_key = -1};
    exec_pnode_t *root = op_agg_plan(q->a, leaf, &spec, 3, 0, err);
    if (!root) return NULL;
    op_ctx_t base = tb_ctx();
    base.npartitions = 3;
    exec_result_t res;
    char *rows = tb_run(root, leaf, q->ins, q->nins, &base, &res, err);
    if (rows) exec_result_free(&res);
    return rows;
}

static char *q_ok(q_t *q, int by_key, const char *const *funcs, int nf)
{
    sl_error_t err;
    char *s = q_run(q, by_key, funcs, nf, &err);
    if (!s)
        unit_fail(__FILE__, __LINE__, "query failed: %s (%s) %s", err.message, err.detail,
                  err.hint);
    return s;
}

#define FUNCS(...)                        \
    ((const char *const[]){__VA_ARGS__}), \
        (int)(sizeof((const char *const[]){__VA_ARGS__}) / sizeof(char *))

/* ---- functions over INT with NULLs, across 2 tasks ---- */

TEST(agg_int_functions_with_nulls_grouped)
{
    q_t q;
    q_init(&q, exec_type_of(EXEC_TYPE_INT));
    const char *t1[] = {"a", "1", "a", NULL, "b", "5", "c", NULL, "a", "3"};
    const char *t2[] = {"b", "-2", "a", "7", "c", NULL, "b", "5"};
    q_task(&q, 5, t1);
    q_task(&q, 4, t2);
    char *s = q_ok(
        &q, 1,
        FUNCS("count*", "count", "sum", "avg", "min", "max", "count!", "approx_count_distinct"));
    CHECK_STR(s, "a|4|3|11|3.6666666666666665|1|7|3|3\n"
                 "b|3|3|8|2.6666666666666665|-2|5|2|2\n"
                 "c|2|0|NULL|NULL|NULL|NULL|0|0");
    free(s);
    sl_arena_free(q.a);
}

TEST(agg_no_keys_empty_input_one_row)
{
    q_t q;
    q_init(&q, exec_type_of(EXEC_TYPE_BIGINT));
    q_task(&q, 0, NULL);
    q_task(&q, 0, NULL);
    char *s = q_ok(&q, 0,
                   FUNCS("count*", "count", "sum", "avg", "min", "max", "first", "last",
                         "approx_count_distinct"));
    CHECK_STR(s, "0|0|NULL|NULL|NULL|NULL|NULL|NULL|0");
    free(s);
    sl_arena_free(q.a);
}

TEST(agg_keys_empty_input_no_rows)
{
    q_t q;
    q_init(&q, exec_type_of(EXEC_TYPE_BIGINT));
    q_task(&q, 0, NULL);
    char *s = q_ok(&q, 1, FUNCS("count*", "sum"));
    CHECK_STR(s, "");
    free(s);
    sl_arena_free(q.a);
}

TEST(agg_no_keys_over_tasks)
{
    q_t q;
    q_init(&q, exec_type_of(EXEC_TYPE_BIGINT));
    const char *t1[] = {"a", "10", "b", NULL};
    const char *t2[] = {"c", "20", "d", "30"};
    q_task(&q, 2, t1);
    q_task(&q, 2, t2);
    char *s = q_ok(&q, 0, FUNCS("count*", "count", "sum", "avg", "max"));
    CHECK_STR(s, "4|3|60|20|30");
    free(s);
    sl_arena_free(q.a);
}

TEST(agg_sum_bigint_overflow_22003)
{
    q_t q;
    q_init(&q, exec_type_of(EXEC_TYPE_BIGINT));
    const char *t1[] = {"a", "9223372036854775807", "a", "1"};
    q_task(&q, 2, t1);
    sl_error_t err;
    CHECK(q_run(&q, 1, FUNCS("sum"), &err) == NULL);
    CHECK_STR(err.sqlstate, "22003");
    /* avg sums in DOUBLE: no overflow */
    char *s = q_ok(&q, 1, FUNCS("avg"));
    CHECK_STR(s, "a|4.611686018427388e+18");
    free(s);
    sl_arena_free(q.a);
}

TEST(agg_sum_overflow_across_partials)
{
    /* Each task's partial sum fits; the final merge overflows. */
    q_t q;
    q_init(&q, exec_type_of(EXEC_TYPE_BIGINT));
    const char *t1[] = {"a", "9223372036854775000"};
    const char *t2[] = {"a", "9223372036854775000"};
    q_task(&q, 1, t1);
    q_task(&q, 1, t2);
    sl_error_t err;
    CHECK(q_run(&q, 1, FUNCS("sum"), &err) == NULL);
    CHECK_STR(err.sqlstate, "22003");
    sl_arena_free(q.a);
}

TEST(agg_decimal_sum_avg_types)
{
    q_t q;
    q_init(&q, exec_type_decimal(5, 2));
    const char *t1[] = {"a", "1.25", "a", "2.50", "a", NULL, "b", "-999.99"};
    const char *t2[] = {"a", "0.01", "b", "999.99"};
    q_task(&q, 4, t1);
    q_task(&q, 2, t2);
    char *s = q_ok(&q, 1, FUNCS("sum", "avg", "min", "max"));
    CHECK_STR(s, "a|3.76|1.253333|0.01|2.50\nb|0.00|0.000000|-999.99|999.99");
    free(s);
    exec_type_t t;
    sl_error_t err;
    CHECK_INT(exec_agg_result_type("sum", 0, 0, exec_type_decimal(5, 2), &t, &err), 0);
    CHECK(exec_type_equal(t, exec_type_decimal(15, 2)));
    CHECK_INT(exec_agg_result_type("avg", 0, 0, exec_type_decimal(5, 2), &t, &err), 0);
    CHECK(exec_type_equal(t, exec_type_decimal(9, 6)));
    CHECK_INT(exec_agg_result_type("sum", 0, 0, exec_type_decimal(36, 4), &t, &err), 0);
    CHECK(exec_type_equal(t, exec_type_decimal(38, 4)));
    CHECK_INT(exec_agg_result_type("avg", 0, 0, exec_type_decimal(38, 36), &t, &err), 0);
    CHECK(exec_type_equal(t, exec_type_decimal(38, 38)));
    CHECK_INT(exec_agg_result_type("sum", 0, 0, exec_type_of(EXEC_TYPE_INT), &t, &err), 0);
    CHECK_INT(t.id, EXEC_TYPE_BIGINT);
    CHECK_INT(exec_agg_result_type("avg", 0, 0, exec_type_of(EXEC_TYPE_BIGINT), &t, &err), 0);
    CHECK_INT(t.id, EXEC_TYPE_DOUBLE);
    sl_arena_free(q.a);
}

TEST(agg_decimal_sum_overflow)
{
    q_t q;
    q_init(&q, exec_type_decimal(38, 0));
    const char *t1[] = {"a", "99999999999999999999999999999999999999", "a", "1"};
    q_task(&q, 2, t1);
    sl_error_t err;
    CHECK(q_run(&q, 1, FUNCS("sum"), &err) == NULL);
    CHECK_STR(err.sqlstate, "22003");
    sl_arena_free(q.a);
}

TEST(agg_double_sum_nan_min_max)
{
    q_t q;
    q_init(&q, exec_type_of(EXEC_TYPE_DOUBLE));
    const char *t1[] = {"a", "1.5", "a", "NaN", "a", "-0.5", "b", "2"};
    q_task(&q, 4, t1);
    char *s = q_ok(&q, 1, FUNCS("min", "max", "sum", "count"));
    CHECK_STR(s, "a|-0.5|NaN|NaN|3\nb|2|2|2|1");
    free(s);
    sl_arena_free(q.a);
}

TEST(agg_strings_min_max_first_last)
{
    q_t q;
    q_init(&q, exec_type_of(EXEC_TYPE_STRING));
    const char *t1[] = {"a",     "pear", "a",  NULL, "a",  "apple", "a",
                        "zebra", "a",    NULL, "b",  NULL, "b",     "kiwi"};
    q_task(&q, 7, t1);
    char *s = q_ok(&q, 1, FUNCS("min", "max", "first", "last", "count", "count!"));
    /* first/last take NULLs too (Spark's default) */
    CHECK_STR(s, "a|apple|zebra|pear|NULL|3|3\nb|kiwi|kiwi|NULL|kiwi|1|1");
    free(s);
    sl_arena_free(q.a);
}

TEST(agg_first_last_ignore_nulls_and_merge_order)
{
    sl_arena_t *a = sl_arena_new("t");
    exec_agg_t f, l;
    sl_error_t err;
    exec_agg_opts_t o = {.ignore_nulls = true};
    exec_type_t it = exec_type_of(EXEC_TYPE_INT);
    CHECK_INT(exec_agg_lookup("first", false, false, it, &o, &f, &err), 0);
    CHECK_INT(exec_agg_lookup("LAST", false, false, it, &o, &l, &err), 0);
    const char *cells[] = {NULL, "4", NULL, "6", NULL};
    exec_batch_t *b = tb_batch(a, 1, &it, 5, cells);
    uint32_t gids[5] = {0, 0, 0, 0, 0};
    exec_agg_state_t fs, ls;
    exec_agg_state_init(&f, &fs, a);
    exec_agg_state_init(&l, &ls, a);
    exec_agg_state_resize(&f, &fs, 1);
    exec_agg_state_resize(&l, &ls, 1);
    CHECK_INT(exec_agg_update(&f, &fs, &b->cols[0], NULL, 5, gids, a, &err), 0);
    CHECK_INT(exec_agg_update(&l, &ls, &b->cols[0], NULL, 5, gids, a, &err), 0);
    CHECK_INT(EXEC_VEC_AT(&fs.v[0], int32_t, 0), 4);
    CHECK_INT(EXEC_VEC_AT(&ls.v[0], int32_t, 0), 6);
    /* merging a later buffer: first keeps its value, last takes the later one */
    exec_agg_state_t f2, l2;
    exec_agg_state_init(&f, &f2, a);
    exec_agg_state_init(&l, &l2, a);
    exec_agg_state_resize(&f, &f2, 1);
    exec_agg_state_resize(&l, &l2, 1);
    const char *later[] = {"9"};
    exec_batch_t *b2 = tb_batch(a, 1, &it, 1, later);
    CHECK_INT(exec_agg_update(&f, &f2, &b2->cols[0], NULL, 1, gids, a, &err), 0);
    CHECK_INT(exec_agg_update(&l, &l2, &b2->cols[0], NULL, 1, gids, a, &err), 0);
    CHECK_INT(exec_agg_merge(&f, &fs, f2.v, NULL, 1, gids, &err), 0);
    CHECK_INT(exec_agg_merge(&l, &ls, l2.v, NULL, 1, gids, &err), 0);
    CHECK_INT(EXEC_VEC_AT(&fs.v[0], int32_t, 0), 4);
    CHECK_INT(EXEC_VEC_AT(&ls.v[0], int32_t, 0), 9);
    sl_arena_free(a);
}

TEST(agg_timestamps_min_max)
{
    q_t q;
    q_init(&q, exec_type_of(EXEC_TYPE_TIMESTAMP));
    const char *t1[] = {"a", "2024-05-01 12:00:00", "a", "2023-01-01 00:00:00", "a", NULL};
    q_task(&q, 3, t1);
    char *s = q_ok(&q, 1, FUNCS("min", "max", "count"));
    CHECK_STR(s, "a|2023-01-01 00:00:00|2024-05-01 12:00:00|2");
    free(s);
    sl_arena_free(q.a);
}

TEST(agg_distinct_sum_and_count)
{
    q_t q;
    q_init(&q, exec_type_of(EXEC_TYPE_INT));
    const char *t1[] = {"a", "1", "a", "1", "a", "2", "b", NULL, "a", NULL};
    const char *t2[] = {"a", "2", "b", "3", "b", "3", "a", "5"};
    q_task(&q, 5, t1);
    q_task(&q, 4, t2);
    char *s = q_ok(&q, 1, FUNCS("count!", "sum!", "count*", "sum"));
    CHECK_STR(s, "a|3|8|6|11\nb|1|3|3|6");
    free(s);
    sl_arena_free(q.a);
}

TEST(agg_lookup_errors)
{
    exec_type_t t;
    sl_error_t err;
    CHECK_INT(exec_agg_result_type("sum", 0, 0, exec_type_of(EXEC_TYPE_BOOLEAN), &t, &err), -1);
    CHECK_STR(err.sqlstate, "42883");
    CHECK_STR(err.message, "function sum(boolean) does not exist");
    CHECK(strstr(err.hint, "sum(numeric)") != NULL);
    CHECK_INT(exec_agg_result_type("avg", 0, 0, exec_type_of(EXEC_TYPE_STRING), &t, &err), -1);
    CHECK_STR(err.sqlstate, "42883");
    CHECK_INT(exec_agg_result_type("median", 0, 0, exec_type_of(EXEC_TYPE_INT), &t, &err), -1);
    CHECK_STR(err.sqlstate, "42883");
    CHECK_INT(exec_agg_result_type("sum", 0, 1, exec_type_of(EXEC_TYPE_NULL), &t, &err), -1);
    CHECK_STR(err.message, "function sum(*) does not exist");
    CHECK_INT(exec_agg_result_type("count", 0, 1, exec_type_of(EXEC_TYPE_NULL), &t, &err), 0);
    CHECK_INT(t.id, EXEC_TYPE_BIGINT);
    CHECK_INT(exec_agg_result_type("max", 0, 0, exec_type_of(EXEC_TYPE_STRING), &t, &err), 0);
    CHECK_INT(t.id, EXEC_TYPE_STRING);
    CHECK_INT(exec_agg_result_type("approx_count_distinct", 0, 0, exec_type_window(), &t, &err), 0);
    CHECK_INT(t.id, EXEC_TYPE_BIGINT);
    exec_agg_t f;
    exec_agg_opts_t o = {.relative_sd = 0.5};
    CHECK_INT(exec_agg_lookup("approx_count_distinct", false, false, exec_type_of(EXEC_TYPE_INT),
                              &o, &f, &err),
              -1);
    CHECK_STR(err.sqlstate, "22023");
    o.relative_sd = 0.01;
    CHECK_INT(exec_agg_lookup("approx_count_distinct", false, false, exec_type_of(EXEC_TYPE_INT),
                              &o, &f, &err),
              0);
    CHECK_INT(f.hll_p, 14); /* Spark: ceil(2 log2(1.106 / 0.01)) */
    CHECK_INT(exec_agg_lookup("approx_count_distinct", false, false, exec_type_of(EXEC_TYPE_INT),
                              NULL, &f, &err),
              0);
    CHECK_INT(f.hll_p, 9);
}

TEST(agg_distinct_refused_on_streams)
{
    sl_arena_t *a = sl_arena_new("t");
    exec_type_t types[2] = {exec_type_of(EXEC_TYPE_STRING), exec_type_of(EXEC_TYPE_INT)};
    const char *names[] = {"k", "x"};
    exec_pnode_t *leaf = op_input_plan(a, 2, names, types, "s");
    op_agg_call_t c = {.func = "count", .distinct = 1, .arg = 1};
    const char *out[] = {"k", "n"};
    int key = 0;
    op_agg_spec_t spec = {.nkeys = 1,
                          .keys = &key,
                          .ncalls = 1,
                          .calls = &c,
                          .names = out,
                          .event_key = -1,
                          .session_key = -1};
    sl_error_t err;
    CHECK(op_agg_plan(a, leaf, &spec, 2, 1, &err) == NULL);
    CHECK_STR(err.sqlstate, "0A000");
    CHECK(op_agg_plan(a, leaf, &spec, 2, 0, &err) != NULL);
    /* an event-time key must be a timestamp or a window */
    c.distinct = 0;
    spec.event_key = 0;
    CHECK(op_agg_plan(a, leaf, &spec, 2, 1, &err) == NULL);
    CHECK_STR(err.sqlstate, "42804");
    sl_arena_free(a);
}

TEST(agg_many_groups_partial_final)
{
    /* 50 000 BIGINT keys over 3 tasks: every group's count and sum. */
    sl_arena_t *a = sl_arena_new("t");
    exec_type_t types[2] = {exec_type_of(EXEC_TYPE_BIGINT), exec_type_of(EXEC_TYPE_BIGINT)};
    const char *names[] = {"k", "x"};
    exec_pnode_t *leaf = op_input_plan(a, 2, names, types, "t");
    tb_input_t ins[3];
    for (int t = 0; t < 3; t++) {
        ins[t].n = 10;
        ins[t].batches = SL_NEW_ARRAY(a, exec_batch_t *, 10);
        for (int i = 0; i < 10; i++) {
            exec_batch_t *b = exec_batch_new(a, 2, types, 5000);
            for (int r = 0; r < 5000; r++) {
                EXEC_VEC_AT(&b->cols[0], int64_t, r) = (i * 5000 + r) % 50000;
                EXEC_VEC_AT(&b->cols[1], int64_t, r) = t + 1;
            }
            ins[t].batches[i] = b;
        }
    }
    op_agg_call_t calls[2] = {{.func = "count", .arg = -1}, {.func = "sum", .arg = 1}};
    const char *out[] = {"k", "n", "s"};
    int key = 0;
    op_agg_spec_t spec = {.nkeys = 1,
                          .keys = &key,
                          .ncalls = 2,
                          .calls = calls,
                          .names = out,
                          .event_key = -1,
                          .session_key = -1};
    sl_error_t err;
    exec_pnode_t *root = op_agg_plan(a, leaf, &spec, 4, 0, &err);
    CHECK(root != NULL);
    op_ctx_t base = tb_ctx();
    exec_result_t res;
    exec_plan_number(root);
    exec_input_t inputs[3];
    for (int t = 0; t < 3; t++) inputs[t] = (exec_input_t){leaf, tb_produce, &ins[t], t};
    CHECK_INT(exec_run(root, &base, 0, NULL, tb_pool(), inputs, 3, &res, &err), 0);
    CHECK_INT(res.nrows, 50000);
    static uint8_t seen[50000];
    for (int i = 0; i < res.nbatches; i++) {
        exec_batch_t *b = res.batches[i];
        for (uint32_t r = 0; r < b->nrows; r++) {
            int64_t k = EXEC_VEC_AT(&b->cols[0], int64_t, r);
            CHECK(k >= 0 && k < 50000 && !seen[k]);
            seen[k] = 1;
            CHECK_INT(EXEC_VEC_AT(&b->cols[1], int64_t, r), 3);
            CHECK_INT(EXEC_VEC_AT(&b->cols[2], int64_t, r), 6);
        }
    }
    exec_result_free(&res);
    sl_arena_free(a);
}

/* ---- HyperLogLog++ ---- */

static double hll_of(int p, uint64_t from, uint64_t n, uint8_t *regs)
{
    memset(regs, 0, 1u << p);
    for (uint64_t i = from; i < from + n; i++) {
        uint32_t idx;
        uint8_t rho;
        exec_hll_place(sl_hash_u64(sl_hash_u64(i, SL_HASH_SEED), 0x4c4c48ULL), p, &idx, &rho);
        if (rho > regs[idx]) regs[idx] = rho;
    }
    return exec_hll_estimate(regs, p);
}

TEST_TIMEOUT(agg_hll_error_within_bounds, 120)
{
    static uint8_t regs[1 << 14];
    CHECK(exec_hll_estimate(regs, 9) == 0);
    const uint64_t ns[] = {1, 10, 100, 300, 500, 1000, 2000, 5000, 20000, 100000, 1000000};
    double sd = 1.04 / sqrt(512.0), sum_abs = 0;
    int trials = 0;
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        for (uint64_t t = 0; t < 5; t++) {
            double e = hll_of(9, t * 10000000, ns[i], regs);
            double rel = fabs(e - (double)ns[i]) / (double)ns[i];
            if (ns[i] <= 10)
                CHECK(fabs(e - (double)ns[i]) < 1.5); /* at most one register collision */
            if (rel > 4 * sd)
                unit_fail(__FILE__, __LINE__, "n=%llu estimate %.1f", (unsigned long long)ns[i], e);
            sum_abs += rel;
            trials++;
        }
    CHECK(sum_abs / trials < 1.5 * sd);
    /* a finer sketch (relativeSD 0.01, p = 14) */
    double e = hll_of(14, 0, 200000, regs);
    CHECK(fabs(e - 200000) / 200000 < 4 * 1.04 / sqrt(16384.0));
}

TEST(agg_approx_count_distinct_merges_like_union)
{
    q_t q;
    q_init(&q, exec_type_of(EXEC_TYPE_BIGINT));
    /* the same 3000 values in both tasks, plus 1000 more in the second: ~4000 distinct */
    enum { N = 3000 };
    static const char *c1[2 * N], *c2[2 * (N + 1000)];
    static char bufs[N + 1000][12];
    for (int i = 0; i < N + 1000; i++) snprintf(bufs[i], sizeof bufs[i], "%d", i * 7);
    for (int i = 0; i < N; i++) {
        c1[2 * i] = "a";
        c1[2 * i + 1] = bufs[i];
    }
    for (int i = 0; i < N + 1000; i++) {
        c2[2 * i] = "a";
        c2[2 * i + 1] = bufs[i];
    }
    q_task(&q, N, c1);
    q_task(&q, N + 1000, c2);
    char *s = q_ok(&q, 1, FUNCS("approx_count_distinct", "count!"));
    long est = strtol(s + 2, NULL, 10);
    CHECK(strstr(s, "|4000") != NULL);
    CHECK(labs(est - 4000) < 4000 * 4 * 1.04 / sqrt(512.0));
    free(s);
    sl_arena_free(q.a);
}
