/* Unit tests of watermark propagation (exec/wm_propagate.c): a global limit
 * above a stream-stream join gets the join's output watermark — the input
 * watermark lowered by the sides' value-based state bounds, never below 0
 * as an operator's input — while the join gets the query's; inputs without
 * a WATERMARK node do not count, and without any an operator has none. */
#include "exec/op_basic.h"
#include "exec/op_exchange.h"
#include "exec/op_join.h"
#include "exec/op_limit.h"
#include "exec/stage.h"
#include "exec/wm_propagate.h"
#include "unit.h"

static sl_arena_t *A;
static const int KEY[] = {0}, KEY_T[] = {0, 1};
static const int64_t HOUR = 3600000;
static const int64_t NO_BOUND = INT64_MAX;

/* A stream (k INT, t TIMESTAMP), under a WATERMARK on t when `watermarked`. */
static exec_pnode_t *stream(int watermarked)
{
    const char *names[] = {"k", "t"};
    exec_type_t types[] = {exec_type_of(EXEC_TYPE_INT), exec_type_of(EXEC_TYPE_TIMESTAMP)};
    exec_pnode_t *n = op_input_plan(A, 2, names, types, "s");
    return watermarked ? op_watermark_plan(A, n, 1, 60000) : n;
}

/* LIMIT (op 1) over a join (op 0) of two streams, each watermarked or not:
 * on (k, t) evicting by the key t when `by_key`, else on k evicting by
 * value: left state watermark = watermark + lb, right = watermark + rb
 * (NO_BOUND: none). */
static exec_pnode_t *limit_over_join(int lwm, int rwm, int64_t lb, int64_t rb, int by_key)
{
    A = sl_arena_new("test");
    sl_error_t err = {0};
    const int *keys = by_key ? KEY_T : KEY;
    op_stream_join_spec_t spec = {.type = OP_JOIN_INNER,
                                  .nkeys = by_key ? 2 : 1,
                                  .left_keys = keys,
                                  .right_keys = keys,
                                  .left_time = lwm ? 1 : -1,
                                  .right_time = rwm ? 1 : -1,
                                  .evict_key = by_key ? 1 : -1,
                                  .left_has_bound = lb != NO_BOUND,
                                  .left_bound_ms = lb,
                                  .right_has_bound = rb != NO_BOUND,
                                  .right_bound_ms = rb,
                                  .op_id = 0};
    exec_pnode_t *l = op_exchange_plan(A, stream(lwm), keys, spec.nkeys, 2, 0);
    exec_pnode_t *r = op_exchange_plan(A, stream(rwm), keys, spec.nkeys, 2, 0);
    exec_pnode_t *j = op_stream_join_plan(A, l, r, &spec, &err);
    if (!j) unit_fail(__FILE__, __LINE__, "plan: %s", err.message);
    exec_pnode_t *top = op_global_limit_plan(A, op_exchange_plan(A, j, NULL, 0, 1, 0), 5, 1, &err);
    if (!top) unit_fail(__FILE__, __LINE__, "plan: %s", err.message);
    return top;
}

TEST(join_lowers_the_watermark_of_the_operator_above)
{
    exec_pnode_t *p = limit_over_join(1, 1, -HOUR - 1, -1, 0);
    op_wm_t wm[2];
    exec_wm_propagate(p, 5 * HOUR, 6 * HOUR, wm);
    CHECK_INT(wm[0].late_ms, 5 * HOUR);
    CHECK_INT(wm[0].evict_ms, 6 * HOUR);
    CHECK_INT(wm[1].late_ms, 4 * HOUR - 1);
    CHECK_INT(wm[1].evict_ms, 5 * HOUR - 1);
    sl_arena_free(A);
}

TEST(operator_input_watermark_is_never_negative)
{
    exec_pnode_t *p = limit_over_join(1, 1, -HOUR, 0, 0);
    op_wm_t wm[2];
    exec_wm_propagate(p, 0, HOUR / 2, wm);
    CHECK_INT(wm[0].late_ms, 0);
    CHECK_INT(wm[1].late_ms, 0);
    CHECK_INT(wm[1].evict_ms, 0);
    sl_arena_free(A);
}

TEST(key_based_join_passes_its_input_watermark)
{
    exec_pnode_t *p = limit_over_join(1, 1, NO_BOUND, NO_BOUND, 1);
    op_wm_t wm[2];
    exec_wm_propagate(p, HOUR, 2 * HOUR, wm);
    CHECK_INT(wm[1].late_ms, HOUR);
    CHECK_INT(wm[1].evict_ms, 2 * HOUR);
    sl_arena_free(A);
}

TEST(inputs_without_watermark_do_not_count)
{
    /* one side watermarked: the join and the limit get the query's watermark */
    exec_pnode_t *p = limit_over_join(0, 1, NO_BOUND, NO_BOUND, 0);
    op_wm_t wm[2];
    exec_wm_propagate(p, HOUR, 2 * HOUR, wm);
    CHECK_INT(wm[0].late_ms, HOUR);
    CHECK_INT(wm[1].evict_ms, 2 * HOUR);
    /* none: no watermark reaches either operator */
    sl_arena_free(A);
    p = limit_over_join(0, 0, NO_BOUND, NO_BOUND, 0);
    exec_wm_propagate(p, HOUR, 2 * HOUR, wm);
    CHECK_INT(wm[0].late_ms, INT64_MIN);
    CHECK_INT(wm[0].evict_ms, INT64_MIN);
    CHECK_INT(wm[1].late_ms, INT64_MIN);
    CHECK_INT(wm[1].evict_ms, INT64_MIN);
    sl_arena_free(A);
}
