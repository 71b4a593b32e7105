/* Unit tests of the stream-stream join (exec/op_join_stream.c): inner and
 * outer joins over several micro-batches with watermarks — late rows,
 * key-based and value-based eviction, outer rows emitted exactly once after
 * the watermark passes — restarts from the state store (every batch opens
 * it anew) and re-runs of a batch, with both state providers. */
#include "exec/op_join.h"
#include "exec/store_cache.h"
#include "test_exec_join_util.h"

static sl_arena_t *A;
static exec_type_t T_INT, T_STR, T_TS;
static const char *PROVIDER = "memory";
static exec_store_cache_t *CACHE; /* stores kept open across batches, as the runner does */

static void setup(void)
{
    A = sl_arena_new("test");
    T_INT = exec_type_of(EXEC_TYPE_INT);
    T_STR = exec_type_of(EXEC_TYPE_STRING);
    T_TS = exec_type_of(EXEC_TYPE_TIMESTAMP);
}

/* Milliseconds of '2024-01-01 HH:MM:00'. */
static int64_t ms(const char *hhmm)
{
    exec_value_t v;
    sl_error_t err = {0};
    char text[64];
    snprintf(text, sizeof text, "2024-01-01 %s:00", hhmm);
    CHECK(exec_value_parse(T_TS, text, strlen(text), A, &v, &err) == 0);
    return v.u.i64 / 1000;
}

typedef struct sjt {
    exec_pnode_t *l, *r, *join;
    exec_type_t ltypes[3], rtypes[3];
    char *dir;
} sjt_t;

/* L(k INT, lt TIMESTAMP, a STRING) and R(k INT, rt TIMESTAMP, b STRING),
 * each hashed on its key columns into 2 partitions. */
static void sjt_inputs(sjt_t *t)
{
    const char *ln[] = {"k", "lt", "a"}, *rn[] = {"k", "rt", "b"};
    exec_type_t ty[] = {T_INT, T_TS, T_STR};
    memcpy(t->ltypes, ty, sizeof ty);
    memcpy(t->rtypes, ty, sizeof ty);
    t->l = op_input_plan(A, 3, ln, ty, "l");
    t->r = op_input_plan(A, 3, rn, ty, "r");
    t->dir = tj_tmpdir();
}

static void sjt_plan(sjt_t *t, op_stream_join_spec_t *spec)
{
    sl_error_t err = {0};
    exec_pnode_t *lx = op_exchange_plan(A, t->l, spec->left_keys, spec->nkeys, 2, 0);
    exec_pnode_t *rx = op_exchange_plan(A, t->r, spec->right_keys, spec->nkeys, 2, 0);
    t->join = op_stream_join_plan(A, lx, rx, spec, &err);
    if (!t->join) unit_fail(__FILE__, __LINE__, "plan: %s", err.message);
    exec_plan_number(t->join);
}

/* Runs micro-batch `id` with the given rows of each side ("" for none). */
static char *sjt_batch(sjt_t *t, int64_t id, int64_t wm_late, int64_t wm_evict, const char *lrows,
                       const char *rrows, op_metrics_t *m)
{
    tj_input_t lin = {0}, rin = {0};
    if (*lrows) tj_add(&lin, tj_batch(A, 3, t->ltypes, lrows));
    if (*rrows) tj_add(&rin, tj_batch(A, 3, t->rtypes, rrows));
    exec_input_t ins[] = {{t->l, tj_produce, &lin, 0}, {t->r, tj_produce, &rin, 0}};
    char sd[512];
    snprintf(sd, sizeof sd, "%s/state", t->dir);
    op_ctx_t ctx = tj_ctx(id, sd, PROVIDER, 2);
    op_wm_t wm[TJ_MAX_OPS];
    tj_set_wm(&ctx, wm, wm_late, wm_evict);
    ctx.stores = CACHE;
    exec_result_t r;
    char *s = tj_run_ctx(t->join, &ctx, ins, 2, &r);
    if (m) *m = r.metrics[t->join->id];
    exec_result_free(&r);
    return tj_sorted(s);
}

static const int K_KT[] = {0, 1}; /* (k, time) */
static const int K_K[] = {0};

/* LEFT OUTER on (k, time) with key-based eviction on the time key. */
static void left_outer_key_based(void)
{
    setup();
    sjt_t t;
    sjt_inputs(&t);
    op_stream_join_spec_t spec = {.type = OP_JOIN_LEFT,
                                  .nkeys = 2,
                                  .left_keys = K_KT,
                                  .right_keys = K_KT,
                                  .left_time = 1,
                                  .right_time = 1,
                                  .evict_key = 1,
                                  .op_id = 0};
    sjt_plan(&t, &spec);
    op_metrics_t m;
    const int64_t NONE = INT64_MIN;
    /* b0: a1 joins b1; the NULL-key left row can never match: out at once. */
    TJ_CHECK_TEXT(
        sjt_batch(&t, 0, NONE, NONE,
                  "1,2024-01-01 10:00:00,a1;2,2024-01-01 10:00:00,a2;3,2024-01-01 11:00:00,a3;"
                  "NULL,2024-01-01 10:00:00,an",
                  "1,2024-01-01 10:00:00,b1", &m),
        "1,2024-01-01 10:00:00,a1,1,2024-01-01 10:00:00,b1\n"
        "NULL,2024-01-01 10:00:00,an,NULL,NULL,NULL\n");
    CHECK_INT(m.num_rows_total, 4);
    CHECK_INT(m.num_state_store_instances, 4); /* 2 stores x 2 partitions */
    /* b1: b2 arrives in time to match a2, so a2 is never null-extended. */
    TJ_CHECK_TEXT(sjt_batch(&t, 1, NONE, ms("10:30"), "", "2,2024-01-01 10:00:00,b2", &m),
                  "2,2024-01-01 10:00:00,a2,2,2024-01-01 10:00:00,b2\n");
    CHECK_INT(m.num_rows_total, 1); /* a3 */
    CHECK_INT(m.num_rows_removed, 4);
    /* b2: late rows dropped and counted; a3 passes the watermark unmatched. */
    TJ_CHECK_TEXT(sjt_batch(&t, 2, ms("10:30"), ms("11:00"), "4,2024-01-01 10:15:00,a4",
                            "3,2024-01-01 10:20:00,b3", &m),
                  "3,2024-01-01 11:00:00,a3,NULL,NULL,NULL\n");
    CHECK_INT(m.num_rows_dropped_by_watermark, 2);
    CHECK_INT(m.num_rows_total, 0);
    /* b3: nothing left; the outer row is not emitted twice. */
    TJ_CHECK_TEXT(sjt_batch(&t, 3, ms("11:00"), ms("12:00"), "", "", &m), "");
    /* Re-running b2 against state version 2 gives the same answer. */
    TJ_CHECK_TEXT(sjt_batch(&t, 2, ms("10:30"), ms("11:00"), "4,2024-01-01 10:15:00,a4",
                            "3,2024-01-01 10:20:00,b3", &m),
                  "3,2024-01-01 11:00:00,a3,NULL,NULL,NULL\n");
}

TEST(stream_join_left_outer_key_based_memory)
{
    PROVIDER = "memory";
    left_outer_key_based();
}

TEST(stream_join_left_outer_key_based_rocksdb)
{
    PROVIDER = "rocksdb";
    left_outer_key_based();
}

/* lt BETWEEN rt AND rt + 1 hour over (k, lt, a, k, rt, b). */
static exec_expr_t *range_cond(void)
{
    sl_error_t err = {0};
    exec_value_t hour = exec_value_interval((exec_interval_t){0, 0, INT64_C(3600000000)});
    exec_expr_t *lt = exec_expr_column(A, 1, T_TS, "lt"), *rt = exec_expr_column(A, 4, T_TS, "rt");
    exec_expr_t *hi = exec_expr_arith(A, EXEC_OP_ADD, rt, exec_expr_const(A, &hour), &err);
    exec_expr_t *e = exec_expr_between(A, lt, rt, hi, false, &err);
    if (!e) unit_fail(__FILE__, __LINE__, "expr: %s", err.message);
    return e;
}

/* FULL OUTER on k with the range condition: value-based eviction, left
 * state watermark = wm, right = wm - 1 hour. */
static void full_outer_value_based(void)
{
    setup();
    sjt_t t;
    sjt_inputs(&t);
    op_stream_join_spec_t spec = {.type = OP_JOIN_FULL,
                                  .nkeys = 1,
                                  .left_keys = K_K,
                                  .right_keys = K_K,
                                  .residual = range_cond(),
                                  .left_time = 1,
                                  .right_time = 1,
                                  .evict_key = -1,
                                  .left_has_bound = 1,
                                  .left_bound_ms = 0,
                                  .right_has_bound = 1,
                                  .right_bound_ms = -3600000,
                                  .op_id = 3};
    sjt_plan(&t, &spec);
    op_metrics_t m;
    const int64_t NONE = INT64_MIN;
    TJ_CHECK_TEXT(sjt_batch(&t, 0, NONE, NONE, "1,2024-01-01 10:00:00,a1;1,2024-01-01 12:00:00,a2",
                            "1,2024-01-01 09:30:00,b1;2,2024-01-01 09:00:00,b2", &m),
                  "1,2024-01-01 10:00:00,a1,1,2024-01-01 09:30:00,b1\n");
    CHECK_INT(m.num_state_store_instances, 8); /* rows + time index, both sides, 2 partitions */
    CHECK_INT(m.num_rows_total, 4);
    /* b1: b3 matches a2; eviction: left lt <= 11:00 (a1, matched), right
     * rt <= 10:00 (b1 matched, b2 not: null-extended). */
    TJ_CHECK_TEXT(sjt_batch(&t, 1, NONE, ms("11:00"), "", "1,2024-01-01 11:30:00,b3", &m),
                  "1,2024-01-01 12:00:00,a2,1,2024-01-01 11:30:00,b3\n"
                  "NULL,NULL,NULL,2,2024-01-01 09:00:00,b2\n");
    CHECK_INT(m.num_rows_total, 2);
    /* b2: a9 is late; a5 is already past the left bound but is not late:
     * stored, then evicted and emitted null-extended in the same batch. */
    TJ_CHECK_TEXT(sjt_batch(&t, 2, ms("11:00"), ms("13:00"),
                            "1,2024-01-01 10:45:00,a9;5,2024-01-01 12:30:00,a5", "", &m),
                  "5,2024-01-01 12:30:00,a5,NULL,NULL,NULL\n");
    CHECK_INT(m.num_rows_dropped_by_watermark, 1);
    CHECK_INT(m.num_rows_total, 0);
    TJ_CHECK_TEXT(sjt_batch(&t, 3, ms("13:00"), ms("14:00"), "", "", &m), "");
}

TEST(stream_join_left_outer_key_based_cached_stores)
{
    PROVIDER = "rocksdb";
    CACHE = exec_store_cache_new();
    left_outer_key_based();
    exec_store_cache_free(CACHE);
}

TEST(stream_join_full_outer_value_based_cached_stores)
{
    PROVIDER = "memory";
    CACHE = exec_store_cache_new();
    full_outer_value_based();
    exec_store_cache_free(CACHE);
}

TEST(stream_join_full_outer_value_based_memory)
{
    PROVIDER = "memory";
    full_outer_value_based();
}

TEST(stream_join_full_outer_value_based_rocksdb)
{
    PROVIDER = "rocksdb";
    full_outer_value_based();
}

/* A right row of the same micro-batch matches a left row that is already
 * past the left state bound: storing every non-late row keeps the match. */
TEST(stream_join_same_batch_match_past_bound)
{
    setup();
    sjt_t t;
    sjt_inputs(&t);
    op_stream_join_spec_t spec = {.type = OP_JOIN_LEFT,
                                  .nkeys = 1,
                                  .left_keys = K_K,
                                  .right_keys = K_K,
                                  .residual = range_cond(),
                                  .left_time = 1,
                                  .right_time = 1,
                                  .evict_key = -1,
                                  .left_has_bound = 1,
                                  .left_bound_ms = 0,
                                  .right_has_bound = 1,
                                  .right_bound_ms = -3600000,
                                  .op_id = 0};
    sjt_plan(&t, &spec);
    TJ_CHECK_TEXT(sjt_batch(&t, 0, ms("09:00"), ms("11:00"), "1,2024-01-01 10:00:00,a1",
                            "1,2024-01-01 09:30:00,b1", NULL),
                  "1,2024-01-01 10:00:00,a1,1,2024-01-01 09:30:00,b1\n");
    TJ_CHECK_TEXT(sjt_batch(&t, 1, ms("11:00"), ms("12:00"), "", "", NULL), "");
}

/* INNER without eviction: state grows, duplicates join pairwise across
 * batches, NULL keys never match, nothing is emitted on eviction. */
TEST(stream_join_inner_duplicates_across_batches)
{
    setup();
    sjt_t t;
    sjt_inputs(&t);
    op_stream_join_spec_t spec = {.type = OP_JOIN_INNER,
                                  .nkeys = 1,
                                  .left_keys = K_K,
                                  .right_keys = K_K,
                                  .left_time = -1,
                                  .right_time = -1,
                                  .evict_key = -1,
                                  .op_id = 1};
    sjt_plan(&t, &spec);
    op_metrics_t m;
    const int64_t NONE = INT64_MIN;
    TJ_CHECK_TEXT(
        sjt_batch(&t, 0, NONE, NONE,
                  "7,2024-01-01 10:00:00,a1;7,2024-01-01 10:01:00,a2;NULL,2024-01-01 10:00:00,an",
                  "NULL,2024-01-01 10:00:00,bn", &m),
        "");
    CHECK_INT(m.num_rows_total, 2);
    TJ_CHECK_TEXT(sjt_batch(&t, 1, NONE, ms("23:00"), "",
                            "7,2024-01-01 10:02:00,b1;7,2024-01-01 10:03:00,b2", &m),
                  "7,2024-01-01 10:00:00,a1,7,2024-01-01 10:02:00,b1\n"
                  "7,2024-01-01 10:00:00,a1,7,2024-01-01 10:03:00,b2\n"
                  "7,2024-01-01 10:01:00,a2,7,2024-01-01 10:02:00,b1\n"
                  "7,2024-01-01 10:01:00,a2,7,2024-01-01 10:03:00,b2\n");
    CHECK_INT(m.num_rows_total, 4);
    TJ_CHECK_TEXT(sjt_batch(&t, 2, NONE, NONE, "7,2024-01-01 10:04:00,a3", "", &m),
                  "7,2024-01-01 10:04:00,a3,7,2024-01-01 10:02:00,b1\n"
                  "7,2024-01-01 10:04:00,a3,7,2024-01-01 10:03:00,b2\n");
    CHECK_INT(m.num_rows_total, 5);
}

/* RIGHT OUTER: matched flags of stored right rows are set by later left
 * rows, so only the never-matched right row comes back null-extended. */
TEST(stream_join_right_outer_flag_set_by_later_row)
{
    setup();
    sjt_t t;
    sjt_inputs(&t);
    op_stream_join_spec_t spec = {.type = OP_JOIN_RIGHT,
                                  .nkeys = 2,
                                  .left_keys = K_KT,
                                  .right_keys = K_KT,
                                  .left_time = 1,
                                  .right_time = 1,
                                  .evict_key = 1,
                                  .op_id = 0};
    sjt_plan(&t, &spec);
    const int64_t NONE = INT64_MIN;
    TJ_CHECK_TEXT(
        sjt_batch(&t, 0, NONE, NONE, "", "1,2024-01-01 10:00:00,b1;2,2024-01-01 10:00:00,b2", NULL),
        "");
    TJ_CHECK_TEXT(sjt_batch(&t, 1, NONE, NONE, "1,2024-01-01 10:00:00,a1", "", NULL),
                  "1,2024-01-01 10:00:00,a1,1,2024-01-01 10:00:00,b1\n");
    TJ_CHECK_TEXT(sjt_batch(&t, 2, NONE, ms("10:00"), "", "", NULL),
                  "NULL,NULL,NULL,2,2024-01-01 10:00:00,b2\n");
}

/* Thousands of rows of one key: candidates span several builder batches
 * and the pair count is exact. */
TEST(stream_join_many_candidates)
{
    setup();
    sjt_t t;
    sjt_inputs(&t);
    op_stream_join_spec_t spec = {.type = OP_JOIN_LEFT,
                                  .nkeys = 1,
                                  .left_keys = K_K,
                                  .right_keys = K_K,
                                  .left_time = 1,
                                  .right_time = 1,
                                  .evict_key = -1,
                                  .left_has_bound = 1,
                                  .left_bound_ms = 0,
                                  .op_id = 0};
    sjt_plan(&t, &spec);
    sl_buf_t rb = SL_BUF_INIT;
    for (int i = 0; i < 5000; i++)
        sl_buf_printf(&rb, "%s1,2024-01-01 10:00:00,r%d", i ? ";" : "", i);
    op_metrics_t m;
    free(sjt_batch(&t, 0, INT64_MIN, INT64_MIN, "", rb.data, &m));
    sl_buf_free(&rb);
    char *s = sjt_batch(&t, 1, INT64_MIN, INT64_MIN,
                        "1,2024-01-01 10:00:00,a;2,2024-01-01 10:00:00,z", "", &m);
    CHECK_INT(m.rows_out, 5000);
    free(s);
    /* a matched; z did not and leaves null-extended once its time passes. */
    TJ_CHECK_TEXT(sjt_batch(&t, 2, INT64_MIN, ms("10:00"), "", "", &m),
                  "2,2024-01-01 10:00:00,z,NULL,NULL,NULL\n");
}

/* Joining on a window: rows are evicted by the window's end. */
TEST(stream_join_window_key_evicts_by_window_end)
{
    setup();
    const char *names[] = {"w", "v"};
    exec_type_t ty[] = {exec_type_window(), T_STR};
    sjt_t t = {0};
    t.l = op_input_plan(A, 2, names, ty, "l");
    t.r = op_input_plan(A, 2, names, ty, "r");
    t.dir = tj_tmpdir();
    const int K[] = {0};
    op_stream_join_spec_t spec = {.type = OP_JOIN_LEFT,
                                  .nkeys = 1,
                                  .left_keys = K,
                                  .right_keys = K,
                                  .left_time = 0,
                                  .right_time = 0,
                                  .evict_key = 0,
                                  .op_id = 0};
    sl_error_t err = {0};
    exec_pnode_t *lx = op_exchange_plan(A, t.l, K, 1, 2, 0),
                 *rx = op_exchange_plan(A, t.r, K, 1, 2, 0);
    t.join = op_stream_join_plan(A, lx, rx, &spec, &err);
    CHECK(t.join != NULL);
    exec_plan_number(t.join);
    /* Rows are built directly: the text helper splits cells on commas. */
    exec_builder_t lb;
    exec_builder_init(&lb, A, 2, ty, 0);
    const char *lw[] = {"{\"start\":\"2024-01-01 10:00:00\",\"end\":\"2024-01-01 11:00:00\"}",
                        "{\"start\":\"2024-01-01 11:00:00\",\"end\":\"2024-01-01 12:00:00\"}"};
    for (int i = 0; i < 2; i++) {
        uint32_t r = exec_builder_add_row(&lb);
        CHECK(exec_builder_set_text(&lb, 0, r, lw[i], strlen(lw[i]), &err) == 0);
        exec_builder_set_str(&lb, 1, r, i ? "late-window" : "early-window", i ? 11 : 12);
    }
    tj_input_t lin = {0}, rin = {0};
    tj_add(&lin, exec_builder_finish(&lb));
    exec_input_t ins[] = {{t.l, tj_produce, &lin, 0}, {t.r, tj_produce, &rin, 0}};
    char sd[512];
    snprintf(sd, sizeof sd, "%s/state", t.dir);
    op_ctx_t ctx = tj_ctx(0, sd, "memory", 2);
    TJ_CHECK_TEXT(tj_run_ctx(t.join, &ctx, ins, 2, NULL), "");
    /* Watermark 11:30: the first window (end 11:00) is final, the second is not. */
    tj_input_t none = {0};
    exec_input_t ins2[] = {{t.l, tj_produce, &none, 0}, {t.r, tj_produce, &none, 0}};
    op_wm_t wm[TJ_MAX_OPS];
    ctx = tj_ctx(1, sd, "memory", 2);
    tj_set_wm(&ctx, wm, INT64_MIN, ms("11:30"));
    TJ_CHECK_TEXT(
        tj_run_ctx(t.join, &ctx, ins2, 2, NULL),
        "{\"start\":\"2024-01-01T10:00:00.000Z\",\"end\":\"2024-01-01T11:00:00.000Z\"},early-window,NULL,NULL\n");
    ctx = tj_ctx(2, sd, "memory", 2);
    tj_set_wm(&ctx, wm, INT64_MIN, ms("12:00"));
    TJ_CHECK_TEXT(
        tj_run_ctx(t.join, &ctx, ins2, 2, NULL),
        "{\"start\":\"2024-01-01T11:00:00.000Z\",\"end\":\"2024-01-01T12:00:00.000Z\"},late-window,NULL,NULL\n");
}

TEST(stream_join_refuses_bad_specs)
{
    setup();
    sjt_t t;
    sjt_inputs(&t);
    sl_error_t err = {0};
    exec_pnode_t *lx = op_exchange_plan(A, t.l, K_K, 1, 2, 0),
                 *rx = op_exchange_plan(A, t.r, K_K, 1, 2, 0);
    op_stream_join_spec_t spec = {.type = OP_JOIN_LEFT,
                                  .nkeys = 1,
                                  .left_keys = K_K,
                                  .right_keys = K_K,
                                  .left_time = -1,
                                  .right_time = -1,
                                  .evict_key = -1,
                                  .left_has_bound = 1};
    CHECK(!op_stream_join_plan(A, lx, rx, &spec, &err));
    CHECK_STR(err.sqlstate, "22023");
    spec.left_has_bound = 0;
    spec.left_time = 2; /* a STRING */
    CHECK(!op_stream_join_plan(A, lx, rx, &spec, &err));
    CHECK_STR(err.sqlstate, "42804");
    spec.left_time = 1;
    spec.evict_key = 0; /* k is an INT */
    CHECK(!op_stream_join_plan(A, lx, rx, &spec, &err));
    CHECK_STR(err.sqlstate, "42804");
    spec.evict_key = -1;
    exec_pnode_t *j = op_stream_join_plan(A, lx, rx, &spec, &err);
    CHECK(j != NULL);
    CHECK(j->ops->stateful);
    CHECK_STR(j->ops->name, "symmetricHashJoin");
}

/* Restarting with a different row schema is refused. */
TEST(stream_join_schema_change_refused)
{
    setup();
    sjt_t t;
    sjt_inputs(&t);
    op_stream_join_spec_t spec = {.type = OP_JOIN_INNER,
                                  .nkeys = 1,
                                  .left_keys = K_K,
                                  .right_keys = K_K,
                                  .left_time = -1,
                                  .right_time = -1,
                                  .evict_key = -1,
                                  .op_id = 0};
    sjt_plan(&t, &spec);
    free(sjt_batch(&t, 0, INT64_MIN, INT64_MIN, "1,2024-01-01 10:00:00,a", "", NULL));
    /* Same checkpoint, right side now (k, rt) only. */
    const char *rn[] = {"k", "rt"};
    exec_type_t rt[] = {T_INT, T_TS};
    exec_pnode_t *r2 = op_input_plan(A, 2, rn, rt, "r");
    sl_error_t err = {0};
    exec_pnode_t *lx = op_exchange_plan(A, t.l, K_K, 1, 2, 0),
                 *rx = op_exchange_plan(A, r2, K_K, 1, 2, 0);
    exec_pnode_t *j = op_stream_join_plan(A, lx, rx, &spec, &err);
    exec_plan_number(j);
    tj_input_t none = {0};
    exec_input_t ins[] = {{t.l, tj_produce, &none, 0}, {r2, tj_produce, &none, 0}};
    char sd[512];
    snprintf(sd, sizeof sd, "%s/state", t.dir);
    op_ctx_t ctx = tj_ctx(1, sd, "memory", 2);
    exec_result_t r;
    exec_pool_t *pool = exec_pool_new(2);
    CHECK(exec_run(j, &ctx, 0, NULL, pool, ins, 2, &r, &err) < 0);
    CHECK_STR(err.sqlstate, "55000");
    exec_pool_free(pool);
}

TEST(stream_join_explain_names_eviction)
{
    setup();
    sjt_t t;
    sjt_inputs(&t);
    op_stream_join_spec_t spec = {.type = OP_JOIN_FULL,
                                  .nkeys = 1,
                                  .left_keys = K_K,
                                  .right_keys = K_K,
                                  .residual = range_cond(),
                                  .left_time = 1,
                                  .right_time = 1,
                                  .evict_key = -1,
                                  .left_has_bound = 1,
                                  .left_bound_ms = 0,
                                  .right_has_bound = 1,
                                  .right_bound_ms = -3600000,
                                  .op_id = 3};
    sjt_plan(&t, &spec);
    sl_buf_t b = SL_BUF_INIT;
    t.join->ops->explain(t.join, &b);
    CHECK_STR(b.data,
              " FULL OUTER (k = k) filter ((lt >= rt) AND (lt <= (rt + INTERVAL '01:00:00')))"
              " state evicted: left lt <= watermark, right rt <= watermark - 01:00:00");
    sl_buf_free(&b);
    op_stream_join_spec_t kspec = {.type = OP_JOIN_INNER,
                                   .nkeys = 2,
                                   .left_keys = K_KT,
                                   .right_keys = K_KT,
                                   .left_time = 1,
                                   .right_time = 1,
                                   .evict_key = 1,
                                   .op_id = 0};
    sjt_plan(&t, &kspec);
    t.join->ops->explain(t.join, &b);
    CHECK_STR(b.data, " INNER (k = k, lt = rt) state evicted: key lt <= watermark");
    sl_buf_free(&b);
}
