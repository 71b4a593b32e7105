/* The micro-batch runner's protocol without a daemon (tests/unit/runner_harness.h):
 * batches as data arrives, state across batches and restarts, read limits,
 * watermarks, and a crash at each point of a batch's life followed by a
 * restart that loses and duplicates nothing. */
#include "tests/unit/runner_harness.h"

TEST(stateless_batches_follow_the_data)
{
    rh_t *h = rh_new("SELECT v FROM s WHERE v % 2 = 0", OUTPUT_APPEND);
    rh_start(h);
    CHECK_INT(rh_process(h), 0); /* nothing yet: no batch */
    RH_ADD(h, 1, 2, 3, 4);
    CHECK_INT(rh_process(h), 1);
    CHECK_STR(rh_answer(h), "2\n4");
    RH_ADD(h, 5, 6);
    CHECK_INT(rh_process(h), 1);
    CHECK_STR(rh_answer(h), "2\n4\n6");
    CHECK_INT(runner_next_batch(h->runner), 2);
    rh_free(h);
}

TEST(complete_mode_state_survives_a_restart)
{
    rh_t *h = rh_new("SELECT v % 3 AS k, count(*) AS n FROM s GROUP BY v % 3", OUTPUT_COMPLETE);
    rh_start(h);
    RH_ADD(h, 1, 2, 3);
    rh_process(h);
    CHECK_STR(rh_answer(h), "0|1\n1|1\n2|1");
    rh_stop(h);
    RH_ADD(h, 4, 5, 6, 7);
    rh_start(h);
    CHECK_INT(rh_process(h), 1); /* one batch over the four new rows, nothing re-run */
    CHECK_STR(rh_answer(h), "0|2\n1|3\n2|2");
    CHECK_INT(h->batches_skipped, 0);
    rh_free(h);
}

TEST(read_limit_splits_the_backlog)
{
    rh_t *h = rh_new("SELECT v FROM s", OUTPUT_APPEND);
    h->max_per_batch = 2;
    RH_ADD(h, 10, 11, 12, 13, 14);
    rh_start(h);
    CHECK_INT(rh_process(h), 3);
    int64_t *ids;
    CHECK_INT(rh_batches(h, &ids), 3);
    CHECK_STR(rh_batch_text(h, 0), "10\n11\n");
    CHECK_STR(rh_batch_text(h, 2), "14\n");
    rh_free(h);
}

TEST(append_windows_are_emitted_once_the_watermark_passes)
{
    rh_t *h = rh_new("SELECT window.start AS w, count(*) AS n FROM s "
                     "GROUP BY window(ts, '10 seconds')",
                     OUTPUT_APPEND);
    h->wm_delay_ms = 5000;
    rh_start(h);
    RH_ADD(h, 1, 2, 11);
    rh_process(h); /* watermark 11 - 5 = 6 s: no window is final */
    CHECK_STR(rh_answer(h), "");
    RH_ADD(h, 26);
    rh_process(h); /* watermark 21 s: [0, 10) and [10, 20) are final */
    CHECK_STR(rh_answer(h), "1970-01-01 00:00:00|2\n1970-01-01 00:00:10|1");
    RH_ADD(h, 3); /* behind the watermark: dropped */
    rh_process(h);
    CHECK_STR(rh_answer(h), "1970-01-01 00:00:00|2\n1970-01-01 00:00:10|1");
    rh_free(h);
}

/* A crash at `point` while batch 1 runs, then a restart: the answer is as if
 * nothing had happened, batch 1 is written to the sink once, and the re-run
 * finds it there `skipped` times (1 when the crash came after the sink had it
 * but before commits/1 was durable). */
static void crash_and_recover(const char *point, int skipped, output_mode_t mode, const char *sql,
                              const char *answer)
{
    rh_t *h = rh_new(sql, mode);
    RH_ADD(h, 1, 2, 3);
    rh_start(h);
    rh_process(h);
    rh_stop(h);
    RH_ADD(h, 4, 5, 6, 7);
    CHECK_INT(rh_crash(h, point), 137);
    rh_start(h);
    rh_process(h);
    CHECK_STR(rh_answer(h), answer);
    CHECK_INT(h->batches_skipped, skipped);
    CHECK_INT(runner_next_batch(h->runner), 2);
    int64_t *ids;
    CHECK_INT(rh_batches(h, &ids), 2);
    rh_free(h);
}

/* Every point of a batch's life, in order, with how often the restart finds
 * the batch already in the sink. */
static const struct {
    const char *name;
    int skipped;
} CRASH_POINTS[] = {{"offsets.before_rename", 0}, {"offsets.after_rename", 0},
                    {"runner.after_offsets", 0},  {"state.before_commit", 0},
                    {"state.after_commit", 0},    {"runner.before_commit", 1},
                    {"commits.before_rename", 1}, {"commits.after_rename", 0}};

TEST(a_crash_anywhere_in_a_stateless_batch_loses_and_duplicates_nothing)
{
    for (size_t i = 0; i < sizeof CRASH_POINTS / sizeof *CRASH_POINTS; i++) {
        if (strstr(CRASH_POINTS[i].name, "state.")) continue; /* no state store in this plan */
        crash_and_recover(CRASH_POINTS[i].name, CRASH_POINTS[i].skipped, OUTPUT_APPEND,
                          "SELECT v * 10 FROM s", "10\n20\n30\n40\n50\n60\n70");
    }
}

TEST(a_crash_anywhere_in_a_stateful_batch_loses_and_duplicates_nothing)
{
    for (size_t i = 0; i < sizeof CRASH_POINTS / sizeof *CRASH_POINTS; i++)
        crash_and_recover(CRASH_POINTS[i].name, CRASH_POINTS[i].skipped, OUTPUT_COMPLETE,
                          "SELECT v % 3 AS k, count(*) AS n FROM s GROUP BY v % 3",
                          "0|2\n1|3\n2|2");
}

/* A start over the checkpoint of another aggregation is refused before any
 * batch, with both value schemas; the original query resumes on it. */
TEST(a_changed_state_schema_is_refused_at_open)
{
    rh_t *h = rh_new("SELECT v % 3 AS k, count(*) AS n FROM s GROUP BY v % 3", OUTPUT_COMPLETE);
    rh_start(h);
    RH_ADD(h, 1, 2, 3);
    rh_process(h);
    rh_stop(h);
    rh_t *changed = rh_new("SELECT v % 3 AS k, sum(v) AS n FROM s GROUP BY v % 3", OUTPUT_COMPLETE);
    changed->ckpt = h->ckpt;
    sl_error_t err;
    CHECK_INT(rh_start_err(changed, &err), -1);
    CHECK_STR(err.sqlstate, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE);
    CHECK(strstr(err.message, "value schema of stateful operator 0 changed") != NULL);
    CHECK(strstr(err.message, "checkpoint (count(*)") && strstr(err.message, "query now (sum(v)"));
    rh_stop(changed);
    RH_ADD(h, 4);
    rh_start(h);
    CHECK_INT(rh_process(h), 1); /* batch 1: nothing of the refused start is in the checkpoint */
    CHECK_INT(runner_next_batch(h->runner), 2);
    CHECK_STR(rh_answer(h), "0|1\n1|2\n2|1");
    rh_free(changed);
    rh_free(h);
}
