/* Unit tests of the streaming aggregation (exec/agg_stream.c) and the
 * window expansion (exec/op_window.c): the programming guide's worked
 * example (10-minute windows sliding 5 minutes, watermark delay 10
 * minutes, the late (12:09, cat) and the too-late (12:04, donkey)) in
 * append, update and complete mode over both state providers, with the
 * plan rebuilt before every batch (a restart: stores are reopened from
 * their files), a re-run batch, eviction and drop counts, aggregation
 * without an event-time key, a TIMESTAMP event-time key, and the refusal
 * of a changed query by the state schema check. */
#include "test_exec_agg_util.h"

#include <stdio.h>
#include <stdlib.h>

#include "exec/op_agg.h"
#include "exec/op_window.h"
#include "exec/store_cache.h"
#include "model/text_io.h"
#include "state/state_int.h"

#define MIN_US (60LL * 1000000)

static char tmp_root[64];
/* When set, batches keep their stores open in this cache (as the runner
 * does); when NULL every batch reopens them from files (a restart). */
static exec_store_cache_t *cache;

static const char *tmpdir(void)
{
    if (!tmp_root[0]) {
        snprintf(tmp_root, sizeof tmp_root, "/tmp/sluice-agg-XXXXXX");
        CHECK(mkdtemp(tmp_root) != NULL);
    }
    return tmp_root;
}

static void rm_tmp(void)
{
    sl_error_t err;
    CHECK_INT(sl_fs_rmtree(tmp_root, &err), 0);
    tmp_root[0] = '\0';
}

/* Milliseconds of 2024-05-01 12:mm UTC. */
static int64_t at(int hh, int mm)
{
    return (exec_days_from_civil(2024, 5, 1) * 86400 + hh * 3600 + mm * 60) * 1000;
}

/* ---- the word-count query: INPUT(ts, word) -> WINDOW(10 min, 5 min) -> agg ---- */

typedef struct wq {
    sl_arena_t *a;
    exec_pnode_t *leaf, *root;
    exec_type_t types[2];
} wq_t;

/* Builds SELECT window, word, <func>(*) ... GROUP BY window, word (or only
 * word when !windowed) as a fresh plan, as a restarted query would. */
static void wq_build(wq_t *q, output_mode_t mode, const char *func, bool windowed)
{
    q->a = sl_arena_new("plan");
    q->types[0] = exec_type_of(EXEC_TYPE_TIMESTAMP);
    q->types[1] = exec_type_of(EXEC_TYPE_STRING);
    const char *names[] = {"ts", "word"};
    q->leaf = op_input_plan(q->a, 2, names, q->types, "stream words");
    sl_error_t err;
    exec_pnode_t *w = op_window_plan(q->a, q->leaf, 0, 10 * MIN_US, 5 * MIN_US, 0, "window", &err);
    CHECK(w != NULL);
    op_agg_call_t call = {.func = func, .arg = !strcmp(func, "count") ? -1 : 1};
    int keys_w[] = {2, 1}, keys_nw[] = {1};
    const char *out_w[] = {"window", "word", "n"}, *out_nw[] = {"word", "n"};
    op_agg_spec_t spec = {.nkeys = windowed ? 2 : 1,
                          .keys = windowed ? keys_w : keys_nw,
                          .ncalls = 1,
                          .calls = &call,
                          .names = windowed ? out_w : out_nw,
                          .event_key = windowed ? 0 : -1,
                          .session_key = -1,
                          .mode = mode,
                          .op_id = 0};
    q->root = op_agg_plan(q->a, windowed ? w : q->leaf, &spec, 2, 1, &err);
    if (!q->root) unit_fail(__FILE__, __LINE__, "plan: %s", err.message);
}

typedef struct wrow {
    int hh, mm;
    const char *word;
} wrow_t;

/* Runs micro-batch `id` over rows; returns the sorted output rows and the
 * stateStoreSave node's metrics in *m. */
static char *wq_run(wq_t *q, const char *provider, int64_t id, int64_t late_ms, int64_t evict_ms,
                    output_mode_t mode, const wrow_t *rows, int n, op_metrics_t *m, sl_error_t *err)
{
    const char **cells = SL_NEW_ARRAY(q->a, const char *, 2 * n + 2);
    for (int i = 0; i < n; i++) {
        cells[2 * i] = sl_printf(q->a, "2024-05-01 %02d:%02d:00", rows[i].hh, rows[i].mm);
        cells[2 * i + 1] = rows[i].word;
    }
    tb_input_t in = {.n = n > 0};
    in.batches = SL_NEW_ARRAY(q->a, exec_batch_t *, 1);
    if (n > 0) in.batches[0] = tb_batch(q->a, 2, q->types, n, cells);
    op_ctx_t base = tb_ctx();
    base.batch_id = id;
    op_wm_t wm = {late_ms, evict_ms}; /* the plan's one stateful node, op_id 0 */
    base.wm = &wm;
    base.mode = mode;
    base.state_dir = tmpdir();
    base.state_provider = provider;
    base.stores = cache;
    exec_result_t res;
    char *s = tb_run(q->root, q->leaf, &in, 1, &base, &res, err);
    if (!s) return NULL;
    *m = res.metrics[q->root->id];
    exec_result_free(&res);
    return s;
}

static void wq_free(wq_t *q)
{
    sl_arena_free(q->a);
}

/* One batch on a freshly built plan; fails the test on error. */
static char *batch(const char *provider, output_mode_t mode, int64_t id, int64_t late,
                   int64_t evict, const wrow_t *rows, int n, op_metrics_t *m)
{
    wq_t q;
    wq_build(&q, mode, "count", true);
    sl_error_t err;
    char *s = wq_run(&q, provider, id, late, evict, mode, rows, n, m, &err);
    if (!s)
        unit_fail(__FILE__, __LINE__, "batch %lld: %s (%s)", (long long)id, err.message,
                  err.detail);
    wq_free(&q);
    return s;
}

#define W(a, b) "{\"start\":\"2024-05-01T" a ":00.000Z\",\"end\":\"2024-05-01T" b ":00.000Z\"}"

static const wrow_t b0[] = {{12, 7, "dog"}, {12, 8, "owl"}};
static const wrow_t b1[] = {{12, 14, "dog"}};
static const wrow_t b2[] = {{12, 9, "cat"}, {12, 15, "cat"}, {12, 21, "owl"}};
static const wrow_t b4[] = {{12, 4, "donkey"}};

/* Watermarks of the example: batch N evicts by the watermark computed at
 * the end of N-1 (max event time - 10 min) and drops late rows by the one
 * before it. */
static void worked_example(const char *provider, output_mode_t mode, const char *const *expect)
{
    op_metrics_t m;
    char *s;
    s = batch(provider, mode, 0, 0, 0, b0, 2, &m);
    CHECK_STR(s, expect[0]);
    free(s);
    CHECK_INT(m.num_state_store_instances, 2);
    CHECK_INT(m.num_rows_total, 4);
    s = batch(provider, mode, 1, 0, at(11, 58), b1, 1, &m);
    CHECK_STR(s, expect[1]);
    free(s);
    s = batch(provider, mode, 2, at(11, 58), at(12, 4), b2, 3, &m);
    CHECK_STR(s, expect[2]);
    free(s);
    CHECK_INT(m.num_rows_dropped_by_watermark, 0); /* (12:09, cat) is late but not too late */
    CHECK_INT(m.num_rows_total, 11);
    /* a no-data batch: the watermark moved to 12:11 */
    s = batch(provider, mode, 3, at(12, 4), at(12, 11), NULL, 0, &m);
    CHECK_STR(s, expect[3]);
    free(s);
    CHECK_INT(m.num_rows_removed, mode == OUTPUT_COMPLETE ? 0 : 3);
    CHECK_INT(m.num_rows_total, mode == OUTPUT_COMPLETE ? 11 : 8);
    s = batch(provider, mode, 4, at(12, 11), at(12, 11), b4, 1, &m);
    CHECK_STR(s, expect[4]);
    free(s);
    CHECK_INT(m.num_rows_dropped_by_watermark, mode == OUTPUT_COMPLETE ? 0 : 2);
    CHECK_INT(m.num_rows_updated, mode == OUTPUT_COMPLETE ? 2 : 0);
    if (cache) { /* close the cached stores before their files go */
        exec_store_cache_free(cache);
        cache = exec_store_cache_new();
    }
    rm_tmp();
}

static const char *const append_expect[] = {
    "", "", "",
    W("12:00", "12:10") "|cat|1\n" W("12:00", "12:10") "|dog|1\n" W("12:00", "12:10") "|owl|1", ""};

static const char *const update_expect[] = {
    W("12:00", "12:10") "|dog|1\n" W("12:00", "12:10") "|owl|1\n" W("12:05", "12:15") "|dog|1\n" W(
        "12:05", "12:15") "|owl|1",
    W("12:05", "12:15") "|dog|2\n" W("12:10", "12:20") "|dog|1",
    W("12:00", "12:10") "|cat|1\n" W("12:05", "12:15") "|cat|1\n" W("12:10", "12:20") "|cat|1\n" W(
        "12:15", "12:25") "|cat|1\n" W("12:15", "12:25") "|owl|1\n" W("12:20", "12:30") "|owl|1",
    "", ""};

#define ALL_AFTER_B2                                                                                                                          \
    W("12:00", "12:10")                                                                                                                       \
    "|cat|1\n" W("12:00", "12:10") "|dog|1\n" W("12:00", "12:10") "|owl|1\n" W("12:05", "12:15") "|cat|1\n" W("12:05", "12:15") "|dog|2\n" W( \
        "12:05",                                                                                                                              \
        "12:15") "|owl|1\n" W("12:10",                                                                                                        \
                              "12:20") "|cat|1\n" W("12:10",                                                                                  \
                                                    "12:20") "|dog|1\n" W("12:15",                                                            \
                                                                          "12:25") "|cat|1\n" W("12:15",                                      \
                                                                                                "12:25") "|owl|1\n" W("12:20",                \
                                                                                                                      "12:30") "|owl|1"

static const char *const complete_expect[] = {
    W("12:00", "12:10") "|dog|1\n" W("12:00", "12:10") "|owl|1\n" W("12:05", "12:15") "|dog|1\n" W(
        "12:05", "12:15") "|owl|1",
    W("12:00", "12:10") "|dog|1\n" W("12:00", "12:10") "|owl|1\n" W("12:05", "12:15") "|dog|2\n" W(
        "12:05", "12:15") "|owl|1\n" W("12:10", "12:20") "|dog|1",
    ALL_AFTER_B2, ALL_AFTER_B2,
    /* complete mode drops nothing: the donkey counts */
    W("11:55", "12:05") "|donkey|1\n" W("12:00", "12:10") "|cat|1\n" W("12:00", "12:10") "|dog|1\n" W("12:00", "12:10") "|donkey|1\n" W("12:00", "12:10") "|owl|1\n" W(
        "12:05",
        "12:15") "|cat|1\n" W("12:05",
                              "12:15") "|dog|2\n" W("12:05",
                                                    "12:15") "|owl|1\n" W("12:10",
                                                                          "12:20") "|cat|1\n" W("12:10",
                                                                                                "12:20") "|dog|1\n" W("12:15",
                                                                                                                      "12:25") "|cat|1\n" W("12:15",
                                                                                                                                            "12:25") "|owl|1\n" W("12:20",
                                                                                                                                                                  "12:30") "|owl|1"};

TEST(stream_worked_example_append_memory)
{
    worked_example("memory", OUTPUT_APPEND, append_expect);
}
TEST(stream_worked_example_append_rocksdb)
{
    worked_example("rocksdb", OUTPUT_APPEND, append_expect);
}
TEST(stream_worked_example_update_memory)
{
    worked_example("memory", OUTPUT_UPDATE, update_expect);
}
TEST(stream_worked_example_update_rocksdb)
{
    worked_example("rocksdb", OUTPUT_UPDATE, update_expect);
}
TEST(stream_worked_example_complete_memory)
{
    worked_example("memory", OUTPUT_COMPLETE, complete_expect);
}
TEST(stream_worked_example_complete_rocksdb)
{
    worked_example("rocksdb", OUTPUT_COMPLETE, complete_expect);
}

TEST(stream_worked_example_cached_stores)
{
    cache = exec_store_cache_new();
    worked_example("memory", OUTPUT_APPEND, append_expect);
    exec_store_cache_free(cache);
    cache = exec_store_cache_new();
    worked_example("rocksdb", OUTPUT_UPDATE, update_expect);
    exec_store_cache_free(cache);
    cache = NULL;
}

TEST(stream_rerun_batch_after_crash)
{
    /* batch 1 ran and committed state version 2, but the query "crashed"
     * before its commit log: the runner re-runs batch 1 against version 1. */
    op_metrics_t m;
    char *s = batch("memory", OUTPUT_UPDATE, 0, 0, 0, b0, 2, &m);
    free(s);
    char *first = batch("memory", OUTPUT_UPDATE, 1, 0, at(11, 58), b1, 1, &m);
    char *again = batch("memory", OUTPUT_UPDATE, 1, 0, at(11, 58), b1, 1, &m);
    CHECK_STR(again, first);
    CHECK_STR(again, update_expect[1]);
    free(first);
    free(again);
    rm_tmp();
}

TEST(stream_no_event_key_never_evicts)
{
    const wrow_t r0[] = {{12, 1, "a"}, {12, 2, "b"}, {12, 3, "a"}};
    const wrow_t r1[] = {{12, 30, "a"}, {12, 31, "c"}};
    const char *want[] = {"a|2\nb|1", "a|3\nc|1"};
    const wrow_t *rs[] = {r0, r1};
    int ns[] = {3, 2};
    for (int i = 0; i < 2; i++) {
        wq_t q;
        wq_build(&q, OUTPUT_UPDATE, "count", false);
        op_metrics_t m;
        sl_error_t err;
        /* a far watermark: still nothing is dropped or evicted without an event-time key */
        char *s =
            wq_run(&q, "rocksdb", i, at(13, 0), at(13, 0), OUTPUT_UPDATE, rs[i], ns[i], &m, &err);
        CHECK(s != NULL);
        CHECK_STR(s, want[i]);
        CHECK_INT(m.num_rows_total, i == 0 ? 2 : 3);
        CHECK_INT(m.num_rows_removed, 0);
        CHECK_INT(m.num_rows_dropped_by_watermark, 0);
        free(s);
        wq_free(&q);
    }
    rm_tmp();
}

TEST(stream_changed_query_refused)
{
    op_metrics_t m;
    char *s = batch("memory", OUTPUT_APPEND, 0, 0, 0, b0, 2, &m);
    free(s);
    wq_t q;
    wq_build(&q, OUTPUT_APPEND, "max", true); /* max(word) instead of count(*) */
    sl_error_t err;
    CHECK(wq_run(&q, "memory", 1, 0, 0, OUTPUT_APPEND, b1, 1, &m, &err) == NULL);
    CHECK_STR(err.sqlstate, "55000");
    CHECK(strstr(err.message, "value schema") != NULL);
    CHECK(strstr(err.detail, "count(*)") != NULL);
    wq_free(&q);
    rm_tmp();
}

/* GROUP BY ts (a TIMESTAMP event-time key) with sum and min over strings,
 * append mode: a key is final once the watermark reaches its time. */
TEST(stream_timestamp_key_append)
{
    sl_arena_t *a = sl_arena_new("plan");
    exec_type_t types[2] = {exec_type_of(EXEC_TYPE_TIMESTAMP), exec_type_of(EXEC_TYPE_STRING)};
    const char *names[] = {"ts", "word"};
    exec_pnode_t *leaf = op_input_plan(a, 2, names, types, "s");
    op_agg_call_t calls[2] = {{.func = "min", .arg = 1}, {.func = "count", .arg = 1}};
    int key = 0;
    const char *out[] = {"ts", "first_word", "n"};
    op_agg_spec_t spec = {.nkeys = 1,
                          .keys = &key,
                          .ncalls = 2,
                          .calls = calls,
                          .names = out,
                          .event_key = 0,
                          .session_key = -1,
                          .mode = OUTPUT_APPEND,
                          .op_id = 3};
    sl_error_t err;
    exec_pnode_t *root = op_agg_plan(a, leaf, &spec, 3, 1, &err);
    CHECK(root != NULL);
    const char *c0[] = {"2024-05-01 12:00:00", "pear", "2024-05-01 12:00:00", "apple",
                        "2024-05-01 12:05:00", "x",    "2024-05-01 12:05:00", NULL};
    const char *c1[] = {"2024-05-01 12:00:00", "aardvark", "2024-05-01 12:05:00", "b"};
    tb_input_t in0 = {.n = 1, .batches = (exec_batch_t *[]){tb_batch(a, 2, types, 4, c0)}};
    tb_input_t in1 = {.n = 1, .batches = (exec_batch_t *[]){tb_batch(a, 2, types, 2, c1)}};
    op_ctx_t base = tb_ctx();
    base.mode = OUTPUT_APPEND;
    base.state_dir = tmpdir();
    op_wm_t wm[4] = {[3] = {0, 0}}; /* the aggregation is op_id 3 */
    base.wm = wm;
    exec_result_t res;
    char *s = tb_run(root, leaf, &in0, 1, &base, &res, &err);
    CHECK_STR(s, "");
    free(s);
    exec_result_free(&res);
    /* batch 1: (12:00, aardvark) arrives before the watermark reaches 12:00; then 12:00 is final */
    base.batch_id = 1;
    wm[3].evict_ms = at(12, 0);
    s = tb_run(root, leaf, &in1, 1, &base, &res, &err);
    CHECK_STR(s, "2024-05-01 12:00:00|aardvark|3");
    free(s);
    CHECK_INT(res.metrics[root->id].num_rows_removed, 1);
    CHECK_INT(res.metrics[root->id].num_state_store_instances, 3);
    exec_result_free(&res);
    /* batch 2: the 12:00 key is late now (dropped); 12:05 becomes final */
    base.batch_id = 2;
    wm[3] = (op_wm_t){at(12, 0), at(12, 5)};
    s = tb_run(root, leaf, &in1, 1, &base, &res, &err);
    CHECK_STR(s, "2024-05-01 12:05:00|b|3");
    free(s);
    CHECK_INT(res.metrics[root->id].num_rows_dropped_by_watermark, 1);
    CHECK_INT(res.metrics[root->id].num_rows_total, 0);
    exec_result_free(&res);
    sl_arena_free(a);
    rm_tmp();
}

TEST(window_expand_spark_windows)
{
    sl_arena_t *a = sl_arena_new("t");
    exec_type_t types[1] = {exec_type_of(EXEC_TYPE_TIMESTAMP)};
    const char *names[] = {"ts"};
    exec_pnode_t *leaf = op_input_plan(a, 1, names, types, "s");
    sl_error_t err;
    /* 10-minute windows sliding 4 minutes, starting 1 minute past: up to 3 windows per row */
    exec_pnode_t *w = op_window_plan(a, leaf, 0, 10 * MIN_US, 4 * MIN_US, 1 * MIN_US, "w", &err);
    CHECK(w != NULL);
    const char *c[] = {"2024-05-01 12:09:00", NULL, "1969-12-31 23:59:00"};
    tb_input_t in = {.n = 1, .batches = (exec_batch_t *[]){tb_batch(a, 1, types, 3, c)}};
    op_ctx_t base = tb_ctx();
    exec_result_t res;
    char *s = tb_run(w, leaf, &in, 1, &base, &res, &err);
    /* 23:49-23:59 does not contain 23:59 (the end is exclusive) */
    CHECK_STR(
        s,
        "1969-12-31 23:59:00|{\"start\":\"1969-12-31T23:53:00.000Z\",\"end\":\"1970-01-01T00:03:00.000Z\"}\n"
        "1969-12-31 23:59:00|{\"start\":\"1969-12-31T23:57:00.000Z\",\"end\":\"1970-01-01T00:07:00.000Z\"}\n"
        "2024-05-01 12:09:00|{\"start\":\"2024-05-01T12:01:00.000Z\",\"end\":\"2024-05-01T12:11:00.000Z\"}\n"
        "2024-05-01 12:09:00|{\"start\":\"2024-05-01T12:05:00.000Z\",\"end\":\"2024-05-01T12:15:00.000Z\"}\n"
        "2024-05-01 12:09:00|{\"start\":\"2024-05-01T12:09:00.000Z\",\"end\":\"2024-05-01T12:19:00.000Z\"}");
    free(s);
    exec_result_free(&res);
    CHECK(op_window_plan(a, leaf, 0, 10 * MIN_US, 11 * MIN_US, 0, "w", &err) == NULL);
    CHECK_STR(err.sqlstate, "22023");
    sl_arena_free(a);
}

/* A streaming plan run without a state directory (as a batch) acts as the
 * FINAL phase: a global aggregate still has its one row, and EXPLAIN names
 * the state operator. */
TEST(stream_plan_without_state_dir_is_final)
{
    sl_arena_t *a = sl_arena_new("t");
    exec_type_t types[1] = {exec_type_of(EXEC_TYPE_BIGINT)};
    const char *names[] = {"x"};
    exec_pnode_t *leaf = op_input_plan(a, 1, names, types, "s");
    op_agg_call_t calls[2] = {{.func = "count", .arg = -1}, {.func = "sum", .arg = 0}};
    const char *out[] = {"n", "s"};
    op_agg_spec_t spec = {
        .ncalls = 2, .calls = calls, .names = out, .event_key = -1, .session_key = -1, .op_id = 1};
    sl_error_t err;
    exec_pnode_t *root = op_agg_plan(a, leaf, &spec, 4, 1, &err);
    CHECK(root != NULL);
    CHECK_STR(root->ops->name, "stateStoreSave");
    CHECK(root->ops->stateful);
    CHECK_INT(root->op_id, 1);
    sl_buf_t ex = SL_BUF_INIT;
    root->ops->explain(root, &ex);
    CHECK_STR(ex.data, " (streaming) keys=[] functions=[count(*), sum(x)] state=1 mode=query's "
                       "(no event-time key: state is never evicted)");
    sl_buf_free(&ex);
    CHECK_STR(op_agg_value_schema(root),
              "count(*) AS n: count BIGINT; sum(x) AS s: sum BIGINT, isEmpty BOOLEAN");
    tb_input_t none = {.n = 0};
    op_ctx_t base = tb_ctx();
    exec_result_t res;
    char *s = tb_run(root, leaf, &none, 1, &base, &res, &err);
    CHECK_STR(s, "0|NULL");
    free(s);
    exec_result_free(&res);
    const char *c[] = {"5", NULL, "7"};
    tb_input_t one = {.n = 1, .batches = (exec_batch_t *[]){tb_batch(a, 1, types, 3, c)}};
    s = tb_run(root, leaf, &one, 1, &base, &res, &err);
    CHECK_STR(s, "3|12");
    free(s);
    exec_result_free(&res);
    sl_arena_free(a);
}
