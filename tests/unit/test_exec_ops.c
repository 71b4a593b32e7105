/* Unit tests of DEDUPLICATE (batch and streaming, with eviction and late
 * rows, both state providers), LIMIT/OFFSET and the streaming GLOBAL LIMIT
 * (with re-runs of a batch), and UNION ALL. SORT has test_exec_ops_sort.c. */
#include "exec/op_dedup.h"
#include "exec/op_limit.h"
#include "exec/op_union.h"
#include "exec/store_cache.h"
#include "test_exec_join_util.h"

static sl_arena_t *A;
static exec_type_t T_INT, T_STR, T_TS;
static exec_type_t TY[3];

static void setup(void)
{
    A = sl_arena_new("test");
    T_INT = exec_type_of(EXEC_TYPE_INT);
    T_STR = exec_type_of(EXEC_TYPE_STRING);
    T_TS = exec_type_of(EXEC_TYPE_TIMESTAMP);
    TY[0] = T_INT;
    TY[1] = T_TS;
    TY[2] = T_STR;
}

static int64_t ms(const char *hhmm)
{
    exec_value_t v;
    sl_error_t err = {0};
    char text[64];
    snprintf(text, sizeof text, "2024-01-01 %s:00", hhmm);
    CHECK(exec_value_parse(T_TS, text, strlen(text), A, &v, &err) == 0);
    return v.u.i64 / 1000;
}

/* An INPUT leaf (k INT, t TIMESTAMP, v STRING). */
static exec_pnode_t *input3(const char *tag)
{
    const char *names[] = {"k", "t", "v"};
    return op_input_plan(A, 3, names, TY, tag);
}

/* Runs root over one input task per row text, into the given context. */
static char *run_rows(exec_pnode_t *root, exec_pnode_t *leaf, const op_ctx_t *ctx,
                      const char *const *rows, int n, op_metrics_t *m)
{
    tj_input_t in[8];
    exec_input_t ins[8];
    memset(in, 0, sizeof in);
    for (int i = 0; i < n; i++) {
        if (rows[i] && *rows[i]) tj_add(&in[i], tj_batch(A, 3, TY, rows[i]));
        ins[i] = (exec_input_t){leaf, tj_produce, &in[i], i};
    }
    exec_result_t r;
    char *s = tj_run_ctx(root, ctx, ins, n, &r);
    if (m) *m = r.metrics[root->id];
    exec_result_free(&r);
    return s;
}

static int64_t custom(const op_metrics_t *m, const char *name)
{
    for (int i = 0; i < m->ncustom; i++)
        if (!strcmp(m->custom_names[i], name)) return m->custom_values[i];
    return -1;
}

/* ---- dedup, batch ---- */

TEST(dedup_batch_keeps_first_row_per_key_in_input_order)
{
    setup();
    exec_pnode_t *in = input3("s");
    const int keys[] = {0};
    op_dedup_spec_t spec = {.nkeys = 1, .keys = keys, .time_col = -1, .evict_key = -1};
    sl_error_t err = {0};
    exec_pnode_t *x = op_exchange_plan(A, in, NULL, 0, 1, 0);
    exec_pnode_t *d = op_dedup_plan(A, x, &spec, &err);
    CHECK(d != NULL);
    exec_plan_number(d);
    op_ctx_t ctx = tj_ctx(0, NULL, NULL, 1);
    const char *rows[] = {
        "2,2024-01-01 10:00:00,first2;1,2024-01-01 10:00:00,first1;2,2024-01-01 10:00:00,dup2;"
        "NULL,2024-01-01 10:00:00,firstnull;NULL,2024-01-01 10:00:00,dupnull",
        "1,2024-01-01 10:00:00,dup1;3,2024-01-01 10:00:00,first3"};
    op_metrics_t m;
    TJ_CHECK_TEXT(run_rows(d, in, &ctx, rows, 2, &m),
                  "2,2024-01-01 10:00:00,first2\n1,2024-01-01 10:00:00,first1\n"
                  "NULL,2024-01-01 10:00:00,firstnull\n3,2024-01-01 10:00:00,first3\n");
    CHECK_INT(custom(&m, "numDroppedDuplicateRows"), 3);
}

TEST(dedup_batch_multi_key_partitioned)
{
    setup();
    exec_pnode_t *in = input3("s");
    const int keys[] = {0, 2};
    op_dedup_spec_t spec = {.nkeys = 2, .keys = keys, .time_col = -1, .evict_key = -1};
    sl_error_t err = {0};
    exec_pnode_t *d = op_dedup_plan(A, op_exchange_plan(A, in, keys, 2, 3, 0), &spec, &err);
    exec_plan_number(d);
    op_ctx_t ctx = tj_ctx(0, NULL, NULL, 3);
    const char *rows[] = {
        "1,2024-01-01 10:00:00,a;1,2024-01-01 10:01:00,b;1,2024-01-01 10:02:00,a",
        "2,2024-01-01 10:03:00,a;1,2024-01-01 10:04:00,b;NULL,2024-01-01 10:05:00,NULL",
        "NULL,2024-01-01 10:06:00,NULL"};
    TJ_CHECK_TEXT(tj_sorted(run_rows(d, in, &ctx, rows, 3, NULL)),
                  "1,2024-01-01 10:00:00,a\n1,2024-01-01 10:01:00,b\n2,2024-01-01 10:03:00,a\n"
                  "NULL,2024-01-01 10:05:00,NULL\n");
}

/* ---- dedup, streaming ---- */

typedef struct dstream {
    exec_pnode_t *in, *d;
    char state[512];
    const char *provider;
} dstream_t;

static exec_store_cache_t *CACHE; /* stores kept open across batches, as the runner does */

static void dstream_init(dstream_t *s, const op_dedup_spec_t *spec, const char *provider)
{
    s->in = input3("s");
    sl_error_t err = {0};
    s->d = op_dedup_plan(A, op_exchange_plan(A, s->in, spec->keys, spec->nkeys, 2, 0), spec, &err);
    if (!s->d) unit_fail(__FILE__, __LINE__, "plan: %s", err.message);
    exec_plan_number(s->d);
    snprintf(s->state, sizeof s->state, "%s/state", tj_tmpdir());
    s->provider = provider;
}

static char *dstream_batch(dstream_t *s, int64_t id, int64_t late, int64_t evict, const char *rows,
                           op_metrics_t *m)
{
    op_ctx_t ctx = tj_ctx(id, s->state, s->provider, 2);
    op_wm_t wm[TJ_MAX_OPS];
    tj_set_wm(&ctx, wm, late, evict);
    ctx.stores = CACHE;
    return tj_sorted(run_rows(s->d, s->in, &ctx, &rows, 1, m));
}

/* DISTINCT ON (k, t) with t watermarked: keys evicted once t <= watermark. */
static void dedup_stream_event_time_key(const char *provider)
{
    setup();
    const int keys[] = {0, 1};
    op_dedup_spec_t spec = {.nkeys = 2, .keys = keys, .time_col = 1, .evict_key = 1, .op_id = 0};
    dstream_t s;
    dstream_init(&s, &spec, provider);
    op_metrics_t m;
    const int64_t NONE = INT64_MIN;
    TJ_CHECK_TEXT(
        dstream_batch(&s, 0, NONE, NONE,
                      "1,2024-01-01 10:00:00,x1;1,2024-01-01 10:00:00,x2;2,2024-01-01 10:05:00,y1",
                      &m),
        "1,2024-01-01 10:00:00,x1\n2,2024-01-01 10:05:00,y1\n");
    CHECK_INT(custom(&m, "numDroppedDuplicateRows"), 1);
    CHECK_INT(m.num_rows_total, 2);
    CHECK_INT(m.num_rows_updated, 2);
    CHECK_INT(m.num_state_store_instances, 2);
    /* b1: still a duplicate while pushed; then (1, 10:00) is evicted. */
    TJ_CHECK_TEXT(dstream_batch(&s, 1, NONE, ms("10:00"), "1,2024-01-01 10:00:00,x3", &m), "");
    CHECK_INT(custom(&m, "numDroppedDuplicateRows"), 1);
    CHECK_INT(m.num_rows_total, 1);
    CHECK_INT(m.num_rows_removed, 1);
    /* b2: x4 is late and dropped (not a duplicate); (2, 10:05) evicted. */
    TJ_CHECK_TEXT(dstream_batch(&s, 2, ms("10:00"), ms("10:10"),
                                "1,2024-01-01 10:00:00,x4;3,2024-01-01 10:20:00,z", &m),
                  "3,2024-01-01 10:20:00,z\n");
    CHECK_INT(m.num_rows_dropped_by_watermark, 1);
    CHECK_INT(custom(&m, "numDroppedDuplicateRows"), 0);
    CHECK_INT(m.num_rows_total, 1);
    /* b3 re-run of b2 against version 2: same answer. */
    TJ_CHECK_TEXT(dstream_batch(&s, 2, ms("10:00"), ms("10:10"),
                                "1,2024-01-01 10:00:00,x4;3,2024-01-01 10:20:00,z", &m),
                  "3,2024-01-01 10:20:00,z\n");
    /* b3: a key evicted from state is new again when not late. */
    TJ_CHECK_TEXT(dstream_batch(&s, 3, ms("10:10"), ms("10:10"),
                                "2,2024-01-01 10:15:00,y2;3,2024-01-01 10:20:00,zz", &m),
                  "2,2024-01-01 10:15:00,y2\n");
}

TEST(dedup_stream_event_time_key_memory)
{
    dedup_stream_event_time_key("memory");
}

TEST(dedup_stream_event_time_key_rocksdb)
{
    dedup_stream_event_time_key("rocksdb");
}

TEST(dedup_stream_event_time_key_cached_stores)
{
    CACHE = exec_store_cache_new();
    dedup_stream_event_time_key("memory");
    exec_store_cache_free(CACHE);
}

/* DISTINCT ON (k) over a watermarked stream: late rows dropped, no eviction. */
TEST(dedup_stream_without_event_time_key_keeps_state)
{
    setup();
    const int keys[] = {0};
    op_dedup_spec_t spec = {.nkeys = 1, .keys = keys, .time_col = 1, .evict_key = -1, .op_id = 0};
    dstream_t s;
    dstream_init(&s, &spec, "memory");
    op_metrics_t m;
    TJ_CHECK_TEXT(dstream_batch(&s, 0, INT64_MIN, INT64_MIN, "1,2024-01-01 10:00:00,a", &m),
                  "1,2024-01-01 10:00:00,a\n");
    TJ_CHECK_TEXT(dstream_batch(&s, 1, ms("10:30"), ms("12:00"),
                                "1,2024-01-01 11:00:00,b;2,2024-01-01 10:20:00,late", &m),
                  "");
    CHECK_INT(m.num_rows_dropped_by_watermark, 1);
    CHECK_INT(m.num_rows_total, 1);
    CHECK_INT(m.num_rows_removed, 0);
}

/* dropDuplicatesWithinWatermark: a key is remembered until its first
 * occurrence's time + delay passes the watermark. */
static void dedup_within_watermark(const char *provider)
{
    setup();
    const int keys[] = {0};
    op_dedup_spec_t spec = {.nkeys = 1,
                            .keys = keys,
                            .time_col = 1,
                            .evict_key = -1,
                            .within_watermark = 1,
                            .delay_ms = 10 * 60000,
                            .op_id = 0};
    dstream_t s;
    dstream_init(&s, &spec, provider);
    CHECK_STR(s.d->ops->name, "dedupeWithinWatermark");
    op_metrics_t m;
    TJ_CHECK_TEXT(dstream_batch(&s, 0, INT64_MIN, INT64_MIN,
                                "1,2024-01-01 10:00:00,a;1,2024-01-01 10:30:00,b", &m),
                  "1,2024-01-01 10:00:00,a\n");
    /* expiry 10:10 <= watermark 10:10: evicted at the end of b1, after c is
     * dropped as a duplicate (expiry not extended by b). */
    TJ_CHECK_TEXT(dstream_batch(&s, 1, INT64_MIN, ms("10:10"), "1,2024-01-01 10:20:00,c", &m), "");
    CHECK_INT(m.num_rows_removed, 1);
    CHECK_INT(m.num_rows_total, 0);
    TJ_CHECK_TEXT(dstream_batch(&s, 2, ms("10:10"), ms("10:15"),
                                "1,2024-01-01 10:25:00,d;1,2024-01-01 10:05:00,e", &m),
                  "1,2024-01-01 10:25:00,d\n");
    CHECK_INT(m.num_rows_dropped_by_watermark, 1);
    CHECK_INT(m.num_rows_total, 1);
}

TEST(dedup_within_watermark_memory)
{
    dedup_within_watermark("memory");
}

TEST(dedup_within_watermark_rocksdb)
{
    dedup_within_watermark("rocksdb");
}

TEST(dedup_within_watermark_cached_stores)
{
    CACHE = exec_store_cache_new();
    dedup_within_watermark("rocksdb");
    exec_store_cache_free(CACHE);
}

TEST(dedup_refuses_bad_specs)
{
    setup();
    exec_pnode_t *in = input3("s");
    const int keys[] = {0};
    const int bad[] = {7};
    sl_error_t err = {0};
    op_dedup_spec_t spec = {.nkeys = 1, .keys = bad, .time_col = -1, .evict_key = -1};
    CHECK(!op_dedup_plan(A, in, &spec, &err));
    CHECK_STR(err.sqlstate, "22023");
    spec.keys = keys;
    spec.within_watermark = 1;
    CHECK(!op_dedup_plan(A, in, &spec, &err));
    CHECK_STR(err.sqlstate, "22023");
    spec.within_watermark = 0;
    spec.time_col = 2;
    CHECK(!op_dedup_plan(A, in, &spec, &err));
    CHECK_STR(err.sqlstate, "42804");
    spec.time_col = 1;
    spec.evict_key = 0; /* k is an INT */
    CHECK(!op_dedup_plan(A, in, &spec, &err));
    CHECK_STR(err.sqlstate, "42804");
}

/* ---- limit ---- */

static char *limit_run(int64_t limit, int64_t offset)
{
    exec_pnode_t *in = input3("s");
    sl_error_t err = {0};
    exec_pnode_t *l = op_limit_plan(A, op_exchange_plan(A, in, NULL, 0, 1, 0), limit, offset, &err);
    CHECK(l != NULL);
    exec_plan_number(l);
    op_ctx_t ctx = tj_ctx(0, NULL, NULL, 1);
    /* Three input tasks, gathered in task order: rows 1..10. */
    const char *rows[] = {
        "1,2024-01-01 10:00:00,a;2,2024-01-01 10:00:00,b",
        "3,2024-01-01 10:00:00,c;4,2024-01-01 10:00:00,d;5,2024-01-01 10:00:00,e;"
        "6,2024-01-01 10:00:00,f;7,2024-01-01 10:00:00,g",
        "8,2024-01-01 10:00:00,h;9,2024-01-01 10:00:00,i;10,2024-01-01 10:00:00,j"};
    char *s = run_rows(l, in, &ctx, rows, 3, NULL);
    /* keep only the k column */
    sl_buf_t b = SL_BUF_INIT;
    for (char *p = strtok(s, "\n"); p; p = strtok(NULL, "\n"))
        sl_buf_printf(&b, "%.*s ", (int)strcspn(p, ","), p);
    free(s);
    char *out = sl_xstrdup(b.data ? b.data : "");
    sl_buf_free(&b);
    return out;
}

TEST(limit_offset_batch)
{
    setup();
    TJ_CHECK_TEXT(limit_run(4, 3), "4 5 6 7 ");
    TJ_CHECK_TEXT(limit_run(3, 0), "1 2 3 ");
    TJ_CHECK_TEXT(limit_run(0, 0), "");
    TJ_CHECK_TEXT(limit_run(-1, 8), "9 10 ");
    TJ_CHECK_TEXT(limit_run(5, 20), "");
    TJ_CHECK_TEXT(limit_run(100, 0), "1 2 3 4 5 6 7 8 9 10 ");
    sl_error_t err = {0};
    CHECK(!op_limit_plan(A, input3("s"), 1, -1, &err));
    CHECK_STR(err.sqlstate, "22023");
}

static exec_store_cache_t *LCACHE;

static void global_limit(const char *provider)
{
    setup();
    exec_pnode_t *in = input3("s");
    sl_error_t err = {0};
    exec_pnode_t *l = op_global_limit_plan(A, op_exchange_plan(A, in, NULL, 0, 1, 0), 3, 5, &err);
    CHECK(l != NULL);
    CHECK_STR(l->ops->name, "globalLimit");
    CHECK(l->ops->stateful);
    CHECK_INT(l->op_id, 5);
    exec_plan_number(l);
    char state[512];
    snprintf(state, sizeof state, "%s/state", tj_tmpdir());
    const char *b0 = "1,2024-01-01 10:00:00,a;2,2024-01-01 10:00:00,b";
    const char *b1 = "3,2024-01-01 10:00:00,c;4,2024-01-01 10:00:00,d;5,2024-01-01 10:00:00,e";
    const char *b2 = "6,2024-01-01 10:00:00,f";
#define LCTX(id)                                \
    do {                                        \
        ctx = tj_ctx((id), state, provider, 1); \
        ctx.stores = LCACHE;                    \
    } while (0)
    op_ctx_t ctx;
    LCTX(0);
    op_metrics_t m;
    TJ_CHECK_TEXT(run_rows(l, in, &ctx, &b0, 1, &m),
                  "1,2024-01-01 10:00:00,a\n2,2024-01-01 10:00:00,b\n");
    CHECK_INT(m.num_state_store_instances, 1);
    LCTX(1);
    TJ_CHECK_TEXT(run_rows(l, in, &ctx, &b1, 1, NULL), "3,2024-01-01 10:00:00,c\n");
    /* A re-run of batch 1 (crash before its commit) emits the same row. */
    TJ_CHECK_TEXT(run_rows(l, in, &ctx, &b1, 1, NULL), "3,2024-01-01 10:00:00,c\n");
    LCTX(2);
    TJ_CHECK_TEXT(run_rows(l, in, &ctx, &b2, 1, NULL), "");
    LCTX(3);
    TJ_CHECK_TEXT(run_rows(l, in, &ctx, &b0, 1, NULL), "");
#undef LCTX
}

TEST(global_limit_across_batches_memory)
{
    global_limit("memory");
}

TEST(global_limit_across_batches_rocksdb)
{
    global_limit("rocksdb");
}

TEST(global_limit_across_batches_cached_stores)
{
    LCACHE = exec_store_cache_new();
    global_limit("rocksdb");
    exec_store_cache_free(LCACHE);
}

/* ---- union ---- */

TEST(union_all_forwards_both_arms)
{
    setup();
    exec_pnode_t *l = input3("l"), *r = input3("r");
    sl_error_t err = {0};
    exec_pnode_t *u = op_union_plan(A, l, r, &err);
    CHECK(u != NULL);
    exec_plan_number(u);
    tj_input_t li = {0}, ri = {0};
    tj_add(&li, tj_batch(A, 3, TY, "1,2024-01-01 10:00:00,a;1,2024-01-01 10:00:00,a"));
    tj_add(&ri, tj_batch(A, 3, TY, "2,2024-01-01 10:00:00,b;NULL,NULL,NULL"));
    exec_input_t ins[] = {{l, tj_produce, &li, 0}, {r, tj_produce, &ri, 1}};
    op_ctx_t ctx = tj_ctx(0, NULL, NULL, 1);
    TJ_CHECK_TEXT(
        tj_run_ctx(u, &ctx, ins, 2, NULL),
        "1,2024-01-01 10:00:00,a\n1,2024-01-01 10:00:00,a\n2,2024-01-01 10:00:00,b\nNULL,NULL,NULL\n");
    /* Behind exchanges too (a stage over two exchanges). */
    exec_pnode_t *u2 = op_union_plan(A, op_exchange_plan(A, l, NULL, 0, 1, 0),
                                     op_exchange_plan(A, r, NULL, 0, 1, 0), &err);
    exec_plan_number(u2);
    TJ_CHECK_TEXT(
        tj_run_ctx(u2, &ctx, ins, 2, NULL),
        "1,2024-01-01 10:00:00,a\n1,2024-01-01 10:00:00,a\n2,2024-01-01 10:00:00,b\nNULL,NULL,NULL\n");
}

TEST(union_refuses_mismatched_arms)
{
    setup();
    const char *n2[] = {"k", "t"};
    exec_type_t t2[] = {T_INT, T_STR};
    sl_error_t err = {0};
    CHECK(!op_union_plan(A, input3("l"), op_input_plan(A, 2, n2, t2, "r"), &err));
    CHECK_STR(err.sqlstate, "42601");
    const char *n3[] = {"k", "t", "v"};
    exec_type_t t3[] = {T_INT, T_STR, T_STR};
    CHECK(!op_union_plan(A, input3("l"), op_input_plan(A, 3, n3, t3, "r"), &err));
    CHECK_STR(err.sqlstate, "42804");
    CHECK(strstr(err.message, "timestamp and text") != NULL);
}
