/* Unit tests of SORT (exec/op_sort.c): ASC/DESC with NULLS FIRST/LAST and
 * PostgreSQL's defaults on every type, multi-key ordering, stability,
 * limits, top-N (ORDER BY ... LIMIT keeping only the best rows, checked
 * against the full sort), and a 1 M-row run (sortedness, stability, time). */
#include <time.h>

#include "exec/op_sort.h"
#include "test_exec_join_util.h"

static sl_arena_t *A;

/* Sorts one column of the given values (rows separated by ';') and
 * renders the output cells joined by '|'. */
static char *sort_col(exec_type_t t, const char *values, int desc, int nulls_first)
{
    const char *names[] = {"c"};
    exec_pnode_t *in = op_input_plan(A, 1, names, &t, "s");
    op_sort_key_t key = {0, desc, nulls_first};
    sl_error_t err = {0};
    exec_pnode_t *s = op_sort_plan(A, op_exchange_plan(A, in, NULL, 0, 1, 0), &key, 1, -1, &err);
    CHECK(s != NULL);
    exec_plan_number(s);
    tj_input_t ti = {0};
    tj_add(&ti, tj_batch(A, 1, &t, values));
    exec_input_t ins[] = {{in, tj_produce, &ti, 0}};
    op_ctx_t ctx = tj_ctx(0, NULL, NULL, 1);
    char *out = tj_run_ctx(s, &ctx, ins, 1, NULL);
    for (char *p = out; *p; p++)
        if (*p == '\n') *p = '|';
    return out;
}

/* The expected text for each variant from the ascending order of the
 * non-NULL values (asc, '|'-separated, no ties) and whether NULL is in. */
static char *variant(const char *asc, int desc, int nulls_first)
{
    char *items[64];
    int n = 0;
    char *copy = sl_strdup(A, asc);
    for (char *p = copy;;) {
        char *bar = strchr(p, '|');
        if (!bar) break;
        *bar = 0;
        items[n++] = p;
        p = bar + 1;
    }
    sl_buf_t b = SL_BUF_INIT;
    if (nulls_first) sl_buf_puts(&b, "NULL|");
    for (int i = 0; i < n; i++) sl_buf_printf(&b, "%s|", items[desc ? n - 1 - i : i]);
    if (!nulls_first) sl_buf_puts(&b, "NULL|");
    char *s = sl_xstrdup(b.data);
    sl_buf_free(&b);
    return s;
}

/* Checks the four explicit variants and the two defaults. */
static void check_type(exec_type_t t, const char *values, const char *asc)
{
    for (int desc = 0; desc < 2; desc++) {
        for (int nf = 0; nf < 2; nf++) {
            char *want = variant(asc, desc, nf);
            TJ_CHECK_TEXT(sort_col(t, values, desc, nf), want);
            free(want);
        }
        char *want = variant(asc, desc, desc); /* default: NULLS LAST for ASC, FIRST for DESC */
        TJ_CHECK_TEXT(sort_col(t, values, desc, -1), want);
        free(want);
    }
}

TEST(sort_every_scalar_type_nulls_first_and_last)
{
    A = sl_arena_new("test");
    check_type(exec_type_of(EXEC_TYPE_BOOLEAN), "true;NULL;false", "f|t|");
    check_type(exec_type_of(EXEC_TYPE_INT), "3;-1;NULL;0;2147483647;-2147483648",
               "-2147483648|-1|0|3|2147483647|");
    check_type(exec_type_of(EXEC_TYPE_BIGINT),
               "9223372036854775807;-5;NULL;-9223372036854775808;256;255",
               "-9223372036854775808|-5|255|256|9223372036854775807|");
    check_type(exec_type_of(EXEC_TYPE_DOUBLE), "1.5;-0.5;NaN;Infinity;-Infinity;NULL;0;-2.5;1e300",
               "-Infinity|-2.5|-0.5|0|1.5|1e+300|Infinity|NaN|");
    check_type(exec_type_decimal(10, 2), "1.50;-2.25;NULL;0.00;10.00;-10.01",
               "-10.01|-2.25|0.00|1.50|10.00|");
    check_type(exec_type_of(EXEC_TYPE_STRING), "b;a;NULL;ab;;B;a\xc3\xa9", "|B|a|ab|a\xc3\xa9|b|");
    check_type(exec_type_of(EXEC_TYPE_BINARY), "\\x01;\\x00ff;\\x;NULL;\\x0100",
               "\\x|\\x00ff|\\x01|\\x0100|");
    check_type(exec_type_of(EXEC_TYPE_TIMESTAMP),
               "2024-01-02 00:00:00;1970-01-01 00:00:00;NULL;1969-12-31 23:59:59.999999",
               "1969-12-31 23:59:59.999999|1970-01-01 00:00:00|2024-01-02 00:00:00|");
    check_type(exec_type_of(EXEC_TYPE_DATE), "2024-01-02;1970-01-01;NULL;1969-12-31",
               "1969-12-31|1970-01-01|2024-01-02|");
    check_type(exec_type_of(EXEC_TYPE_INTERVAL), "1 day;03:00:00;NULL;1 mon;-1 days",
               "-1 days|03:00:00|1 day|1 mon|");
}

/* Window structs, built cell by cell (their JSON text has commas). */
TEST(sort_struct_windows)
{
    A = sl_arena_new("test");
    exec_type_t t = exec_type_window();
    const char *names[] = {"w"};
    exec_pnode_t *in = op_input_plan(A, 1, names, &t, "s");
    const char *w[] = {"{\"start\":\"2024-01-01 11:00:00\",\"end\":\"2024-01-01 12:00:00\"}", NULL,
                       "{\"start\":\"2024-01-01 10:00:00\",\"end\":\"2024-01-01 11:00:00\"}",
                       "{\"start\":\"2024-01-01 10:00:00\",\"end\":\"2024-01-01 10:30:00\"}"};
    exec_builder_t bld;
    exec_builder_init(&bld, A, 1, &t, 0);
    sl_error_t err = {0};
    for (int i = 0; i < 4; i++) {
        uint32_t r = exec_builder_add_row(&bld);
        if (!w[i]) exec_builder_set_null(&bld, 0, r);
        else CHECK(exec_builder_set_text(&bld, 0, r, w[i], strlen(w[i]), &err) == 0);
    }
    tj_input_t ti = {0};
    tj_add(&ti, exec_builder_finish(&bld));
    exec_input_t ins[] = {{in, tj_produce, &ti, 0}};
    op_sort_key_t key = {0, 1, -1};
    exec_pnode_t *s = op_sort_plan(A, op_exchange_plan(A, in, NULL, 0, 1, 0), &key, 1, -1, &err);
    exec_plan_number(s);
    op_ctx_t ctx = tj_ctx(0, NULL, NULL, 1);
    TJ_CHECK_TEXT(
        tj_run_ctx(s, &ctx, ins, 1, NULL),
        "NULL\n"
        "{\"start\":\"2024-01-01T11:00:00.000Z\",\"end\":\"2024-01-01T12:00:00.000Z\"}\n"
        "{\"start\":\"2024-01-01T10:00:00.000Z\",\"end\":\"2024-01-01T11:00:00.000Z\"}\n"
        "{\"start\":\"2024-01-01T10:00:00.000Z\",\"end\":\"2024-01-01T10:30:00.000Z\"}\n");
}

/* (a INT, b STRING, id INT) ORDER BY a, b DESC NULLS LAST: ties keep input order. */
static exec_pnode_t *multi_plan(exec_pnode_t **in, int64_t limit)
{
    const char *names[] = {"a", "b", "id"};
    exec_type_t ty[] = {exec_type_of(EXEC_TYPE_INT), exec_type_of(EXEC_TYPE_STRING),
                        exec_type_of(EXEC_TYPE_INT)};
    *in = op_input_plan(A, 3, names, ty, "s");
    op_sort_key_t keys[] = {{0, 0, -1}, {1, 1, 0}};
    sl_error_t err = {0};
    exec_pnode_t *s =
        op_sort_plan(A, op_exchange_plan(A, *in, NULL, 0, 1, 0), keys, 2, limit, &err);
    exec_plan_number(s);
    return s;
}

static char *multi_run(int64_t limit)
{
    exec_pnode_t *in;
    exec_pnode_t *s = multi_plan(&in, limit);
    exec_type_t ty[] = {exec_type_of(EXEC_TYPE_INT), exec_type_of(EXEC_TYPE_STRING),
                        exec_type_of(EXEC_TYPE_INT)};
    tj_input_t t1 = {0}, t2 = {0};
    tj_add(&t1, tj_batch(A, 3, ty, "2,x,1;1,y,2;2,NULL,3;1,y,4"));
    tj_add(&t1, tj_batch(A, 3, ty, "NULL,z,5;2,x,6"));
    tj_add(&t2, tj_batch(A, 3, ty, "1,z,7;1,y,8;NULL,a,9"));
    exec_input_t ins[] = {{in, tj_produce, &t1, 0}, {in, tj_produce, &t2, 1}};
    op_ctx_t ctx = tj_ctx(0, NULL, NULL, 1);
    char *out = tj_run_ctx(s, &ctx, ins, 2, NULL);
    sl_buf_t b = SL_BUF_INIT;
    for (char *p = strtok(out, "\n"); p; p = strtok(NULL, "\n"))
        sl_buf_printf(&b, "%s ", strrchr(p, ',') + 1);
    free(out);
    char *ids = sl_xstrdup(b.data ? b.data : "");
    sl_buf_free(&b);
    return ids;
}

TEST(sort_multi_key_stable)
{
    A = sl_arena_new("test");
    /* a=1: b z(7) then y(2,4,8 in input order); a=2: x(1,6), NULL(3); a NULL last: z(5), a(9) */
    TJ_CHECK_TEXT(multi_run(-1), "7 2 4 8 1 6 3 5 9 ");
    TJ_CHECK_TEXT(multi_run(3), "7 2 4 ");
    TJ_CHECK_TEXT(multi_run(0), "");
}

TEST(sort_explain_and_errors)
{
    A = sl_arena_new("test");
    exec_pnode_t *in;
    exec_pnode_t *s = multi_plan(&in, 10);
    sl_buf_t b = SL_BUF_INIT;
    s->ops->explain(s, &b);
    CHECK_STR(b.data, " a ASC NULLS LAST, b DESC NULLS LAST limit 10");
    sl_buf_free(&b);
    op_sort_key_t bad = {3, 0, -1};
    sl_error_t err = {0};
    CHECK(!op_sort_plan(A, in, &bad, 1, -1, &err));
    CHECK_STR(err.sqlstate, "22023");
}

/* ---- 1 M rows ---- */

static int64_t now_us(clockid_t clk)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

#define BIG_ROWS 1000000

/* Rows (key, id) with keys from a fixed LCG, 1000 distinct values per
 * 65536 so that there are many ties. */
static void big_inputs(tj_input_t *in, exec_type_t kt)
{
    exec_type_t ty[] = {kt, exec_type_of(EXEC_TYPE_INT)};
    uint64_t x = 42;
    char buf[32];
    for (int b = 0; b * 16384 < BIG_ROWS; b++) {
        exec_builder_t bld;
        exec_builder_init(&bld, A, 2, ty, 16384);
        for (int i = 0; i < 16384 && b * 16384 + i < BIG_ROWS; i++) {
            uint32_t r = exec_builder_add_row(&bld);
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            int64_t k = (int64_t)(x >> 33) % 100000 - 50000;
            if (kt.id == EXEC_TYPE_BIGINT) {
                exec_builder_set_bigint(&bld, 0, r, k);
            } else {
                int n = snprintf(buf, sizeof buf, "key-%06lld", (long long)(k + 50000));
                exec_builder_set_str(&bld, 0, r, buf, (size_t)n);
            }
            exec_builder_set_int(&bld, 1, r, b * 16384 + i);
        }
        tj_add(in, exec_builder_finish(&bld));
    }
}

/* Sorts the 1 M rows of big_inputs with `limit` into *r; the wall time in ms. */
static double big_run(exec_type_t kt, int desc, int64_t limit, exec_result_t *r)
{
    const char *names[] = {"k", "id"};
    exec_type_t ty[] = {kt, exec_type_of(EXEC_TYPE_INT)};
    exec_pnode_t *in = op_input_plan(A, 2, names, ty, "s");
    op_sort_key_t key = {0, desc, -1};
    sl_error_t err = {0};
    exec_pnode_t *s = op_sort_plan(A, in, &key, 1, limit, &err);
    exec_plan_number(s);
    static tj_input_t ti;
    memset(&ti, 0, sizeof ti);
    big_inputs(&ti, kt);
    exec_input_t ins[] = {{in, tj_produce, &ti, 0}};
    op_ctx_t ctx = tj_ctx(0, NULL, NULL, 1);
    exec_pool_t *pool = exec_pool_new(1);
    int64_t t0 = now_us(CLOCK_MONOTONIC);
    CHECK(exec_run(s, &ctx, 0, NULL, pool, ins, 1, r, &err) == 0);
    int64_t t1 = now_us(CLOCK_MONOTONIC);
    exec_pool_free(pool);
    return (double)(t1 - t0) / 1000.0;
}

static void big_sort(exec_type_t kt, int desc)
{
    A = sl_arena_new("test");
    exec_result_t r;
    double ms = big_run(kt, desc, -1, &r);
    CHECK_INT(r.nrows, BIG_ROWS);
    exec_value_t prev = {0};
    int32_t prev_id = -1;
    int64_t seen = 0;
    for (int i = 0; i < r.nbatches; i++) {
        const exec_batch_t *b = r.batches[i];
        for (uint32_t k = 0; k < b->nrows; k++, seen++) {
            exec_value_t v;
            exec_vec_get_value(&b->cols[0], k, A, &v);
            int32_t id = EXEC_VEC_AT(&b->cols[1], int32_t, k);
            if (seen) {
                int c = exec_value_compare(&prev, &v);
                if (desc ? c < 0 : c > 0)
                    unit_fail(__FILE__, __LINE__, "out of order at row %lld", (long long)seen);
                if (c == 0 && id < prev_id)
                    unit_fail(__FILE__, __LINE__, "unstable at row %lld", (long long)seen);
            }
            prev = v;
            prev_id = id;
        }
    }
    fprintf(stderr, "    sort of %d rows on %s %s: %.0f ms (exec_run, with input and output)\n",
            BIG_ROWS, exec_type_pg_name(kt), desc ? "DESC" : "ASC", ms);
    CHECK(ms < 20000); /* generous: the machines are shared */
    exec_result_free(&r);
}

TEST_TIMEOUT(sort_one_million_bigint_rows, 120)
{
    big_sort(exec_type_of(EXEC_TYPE_BIGINT), 0);
}

TEST_TIMEOUT(sort_one_million_string_rows_desc, 120)
{
    big_sort(exec_type_of(EXEC_TYPE_STRING), 1);
}

/* ---- top-N: ORDER BY ... LIMIT over 1 M rows ---- */

/* Row i of a result: its batch and row. */
static void result_row(const exec_result_t *r, int64_t i, const exec_batch_t **b, uint32_t *k)
{
    int j = 0;
    while (i >= r->batches[j]->nrows) i -= r->batches[j++]->nrows;
    *b = r->batches[j];
    *k = (uint32_t)i;
}

/* The top `limit` rows equal the first `limit` of the full sort, ties in
 * input order; keep_top() runs when 2 * limit rows (at least 65536) are
 * buffered, so both small and large limits compact several times. */
static void top_n(exec_type_t kt, int desc, int64_t limit)
{
    A = sl_arena_new("test");
    exec_result_t full, top;
    double full_ms = big_run(kt, desc, -1, &full), top_ms = big_run(kt, desc, limit, &top);
    CHECK_INT(top.nrows, limit);
    for (int64_t i = 0; i < limit; i++) {
        const exec_batch_t *fb, *tb;
        uint32_t fk, tk;
        result_row(&full, i, &fb, &fk);
        result_row(&top, i, &tb, &tk);
        exec_value_t fv, tv;
        exec_vec_get_value(&fb->cols[0], fk, A, &fv);
        exec_vec_get_value(&tb->cols[0], tk, A, &tv);
        if (exec_value_compare(&fv, &tv) != 0 ||
            EXEC_VEC_AT(&fb->cols[1], int32_t, fk) != EXEC_VEC_AT(&tb->cols[1], int32_t, tk))
            unit_fail(__FILE__, __LINE__, "row %lld differs from the full sort", (long long)i);
    }
    fprintf(stderr, "    %s %s LIMIT %lld of %d rows: %.0f ms; full sort %.0f ms\n",
            exec_type_pg_name(kt), desc ? "DESC" : "ASC", (long long)limit, BIG_ROWS, top_ms,
            full_ms);
    exec_result_free(&full);
    exec_result_free(&top);
}

TEST_TIMEOUT(sort_top_n_bigint, 120)
{
    top_n(exec_type_of(EXEC_TYPE_BIGINT), 0, 10);
    top_n(exec_type_of(EXEC_TYPE_BIGINT), 1, 100000);
}

TEST_TIMEOUT(sort_top_n_strings, 120)
{
    top_n(exec_type_of(EXEC_TYPE_STRING), 1, 1000);
    top_n(exec_type_of(EXEC_TYPE_STRING), 0, 40000);
}
