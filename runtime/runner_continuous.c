/* Continuous trigger (Spark's continuous processing, for map-like queries):
 * rows go through as soon as sources have them, in small steps that
 * write nothing to the checkpoint (between steps the runner sleeps on the
 * sources' change descriptors, so a step starts when data arrives; a
 * source without one is polled every CONTINUOUS_POLL_MS); every interval the epoch's end offsets
 * are written (offsets/E, then commits/E) and reported as one progress
 * event. A restart resumes from the last committed epoch, so rows after it
 * may reach the sink twice: at-least-once, as in Spark. The sink sees a
 * strictly increasing batch id per step (never one it has seen), so a sink
 * that skips replayed batch ids does not drop re-read rows. */
#include <poll.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "runtime/runner_int.h"

/* The pause between polls of a source without a change descriptor. */
#define CONTINUOUS_POLL_MS 2
/* Longest wait on change descriptors before the stop flag is looked at. */
#define CONTINUOUS_STOP_CHECK_MS 50
#define CONTINUOUS_MAX_FDS 64

/* A batch id for the sink above any it has seen, in this run or before. */
static int64_t next_sink_id(runner_t *r)
{
    int64_t id = sl_now_us();
    if (id <= r->last_sink_id) id = r->last_sink_id + 1;
    return r->last_sink_id = id;
}

/* Waits until a source may have new data: on the sources' change
 * descriptors (at most until the epoch ends, or CONTINUOUS_POLL_MS at a
 * time so a stop is seen), or CONTINUOUS_POLL_MS when a source can only be
 * polled. */
static void wait_for_data(const runner_t *r, int64_t left_ms)
{
    int fds[CONTINUOUS_MAX_FDS];
    struct pollfd p[CONTINUOUS_MAX_FDS];
    int n = runner_change_fds(r, fds, CONTINUOUS_MAX_FDS);
    if (n <= 0) {
        struct timespec ts = {0, CONTINUOUS_POLL_MS * 1000000L};
        nanosleep(&ts, NULL);
        return;
    }
    for (int i = 0; i < n; i++) p[i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
    int wait = left_ms < CONTINUOUS_STOP_CHECK_MS ? (int)left_ms : CONTINUOUS_STOP_CHECK_MS;
    poll(p, (nfds_t)n, wait > 0 ? wait : 0);
}

/* One polled step: whatever the sources have beyond `cur` goes through now. */
static int run_step(runner_t *r, runner_trigger_info_t *epoch, const char **cur, int *ran,
                    sl_error_t *err)
{
    int n = r->spec.nsources, data = 0;
    runner_trigger_info_t step = *epoch;
    step.start = cur;
    step.end = SL_NEW_ARRAY(r->trigger_arena, const char *, n + 1);
    for (int i = 0; i < n; i++) {
        source_t *s = r->spec.sources[i];
        if (s->ops->latest_offset(s, cur[i], SOURCE_LIMIT_DEFAULT, r->trigger_arena, &step.end[i],
                                  &epoch->latest[i], err) < 0)
            return -1;
        data |= strcmp(cur[i], step.end[i]) != 0;
    }
    *ran = data;
    if (!data) return 0;
    step.total_rows = step.output_rows = 0;
    step.rows = SL_NEW_ARRAY(r->trigger_arena, int64_t, n + 1);
    if (runner_run_batch(r, &step, sl_now_ms(), next_sink_id(r), 0, err) < 0) return -1;
    for (int i = 0; i < n; i++) {
        epoch->rows[i] += step.rows[i];
        cur[i] = step.end[i];
    }
    epoch->total_rows += step.total_rows;
    epoch->output_rows += step.output_rows;
    epoch->d.add_batch += step.d.add_batch;
    epoch->d.get_batch += step.d.get_batch;
    epoch->metrics = step.metrics;
    epoch->d.ran_batch = 1;
    return 0;
}

int runner_run_epoch(runner_t *r, int64_t interval_ms, const atomic_int *stop,
                     runner_outcome_t *outcome, sl_error_t *err)
{
    sl_arena_reset(r->trigger_arena);
    runner_trigger_info_t t;
    runner_trigger_init(r, &t);
    int64_t mono0 = sl_mono_ms();
    int n = r->spec.nsources;
    const char **cur = SL_NEW_ARRAY(r->trigger_arena, const char *, n + 1);
    for (int i = 0; i < n; i++) {
        if (runner_source_start(r, i, &t.start[i], err) < 0) return -1;
        t.reported_start[i] = r->committed[i];
        cur[i] = t.start[i];
    }
    r->status = "Processing new data";
    while (sl_mono_ms() - mono0 < interval_ms && !(stop && atomic_load(stop))) {
        int ran = 0;
        if (run_step(r, &t, cur, &ran, err) < 0) return -1;
        if (!ran) wait_for_data(r, interval_ms - (sl_mono_ms() - mono0));
    }
    for (int i = 0; i < n; i++) t.end[i] = cur[i];
    /* The epoch's checkpoint: its end offsets, then its commit. */
    if (runner_write_ahead(r, &t, t.start_ms, err) < 0 || runner_commit_batch(r, &t, err) < 0)
        return -1;
    t.ran = 1;
    r->caught_up = 1;
    r->status = "Waiting for data to arrive";
    *outcome = t.total_rows ? RUNNER_RAN : RUNNER_IDLE;
    runner_finish_report(r, &t, mono0);
    return 0;
}
