/* The micro-batch runner: recovery, pinned settings, each trigger's
 * decision (offsets, whether a batch is due) and its order of steps. A
 * batch's execution and durable writes are in runner_batch.c, progress
 * reports in runner_progress.c. */
#include "runtime/runner_int.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/log.h"
#include "common/uuid.h"
#include "exec/store_cache.h"
#include "common/failpoint.h"

#define IDLE_REPORT_INTERVAL_MS 10000

ckpt_conf_entry_t *runner_pinned_conf(runner_t *r, int *n)
{
    ckpt_conf_entry_t *c = SL_NEW_ARRAY(r->trigger_arena, ckpt_conf_entry_t, 3);
    c[0].key = CKPT_CONF_SHUFFLE_PARTITIONS;
    c[0].value = sl_printf(r->trigger_arena, "%d", r->spec.npartitions);
    c[1].key = CKPT_CONF_STATE_STORE;
    c[1].value = r->spec.state_provider;
    c[2].key = CKPT_CONF_WATERMARK_POLICY;
    c[2].value = r->spec.watermark_policy;
    *n = 3;
    return c;
}

/* A restart must run with the settings of the first run. */
static int check_pinned(runner_t *r, const ckpt_batch_meta_t *m, sl_error_t *err)
{
    int n;
    ckpt_conf_entry_t *mine = runner_pinned_conf(r, &n);
    for (int i = 0; i < n; i++) {
        const char *old = ckpt_conf_get(m, mine[i].key);
        if (old && strcmp(old, mine[i].value)) {
            sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                         "setting %s is %s in the checkpoint of query \"%s\" but %s now",
                         mine[i].key, old, r->spec.name, mine[i].value);
            return sl_error_hint(err, "Settings are pinned at the first run; use a new checkpoint "
                                      "to change them.");
        }
    }
    return 0;
}

static int recover(runner_t *r, sl_error_t *err)
{
    ckpt_recovery_t rec;
    if (ckpt_recover(r->ckpt, r->arena, &rec, err) < 0) return -1;
    if (rec.meta.nconf && check_pinned(r, &rec.meta, err) < 0) return -1;
    r->next_batch = rec.next_batch;
    r->watermark_ms = rec.meta.watermark_ms;
    r->prev_batch_wm = rec.meta.watermark_ms;
    r->evicted_wm = rec.meta.watermark_ms; /* no no-data batch before the watermark moves */
    r->committed = SL_NEW_ARRAY(r->arena, const char *, r->spec.nsources + 1);
    for (int i = 0; rec.has_start && i < r->spec.nsources && i < rec.start.nsources; i++)
        r->committed[i] = rec.start.sources[i];
    if (rec.has_start && rec.start.has_meta) {
        /* offsets/(next-1): the last committed batch; its watermark is the one
         * stateful operators last evicted by and the late-row bound of the next. */
        r->prev_batch_wm = rec.start.meta.watermark_ms;
        r->evicted_wm = rec.start.meta.watermark_ms;
    }
    r->rerun = rec.rerun;
    if (rec.rerun) {
        r->rerun_end = SL_NEW_ARRAY(r->arena, const char *, r->spec.nsources + 1);
        for (int i = 0; i < r->spec.nsources && i < rec.end.nsources; i++)
            r->rerun_end[i] = rec.end.sources[i];
        r->rerun_ts = rec.meta.timestamp_ms;
        SL_INFO("runner", "query=%s re-running batch %lld over its logged offsets", r->spec.name,
                (long long)rec.next_batch);
    }
    return 0;
}

/* Reads the checkpoint without touching it (a running query may be writing
 * to it): the pinned conf of the newest offsets file. */
int runner_read_pinned(const char *dir, sl_arena_t *a, int *npartitions, const char **state_store,
                       const char **watermark_policy, sl_error_t *err)
{
    ckpt_offsets_t o;
    int rc = ckpt_offsets_peek_latest(dir, a, &o, err);
    if (rc <= 0) return rc;
    const char *v;
    if ((v = ckpt_conf_get(&o.meta, CKPT_CONF_SHUFFLE_PARTITIONS))) *npartitions = atoi(v);
    if ((v = ckpt_conf_get(&o.meta, CKPT_CONF_STATE_STORE))) *state_store = v;
    if ((v = ckpt_conf_get(&o.meta, CKPT_CONF_WATERMARK_POLICY))) *watermark_policy = v;
    return 1;
}

runner_t *runner_open(const runner_spec_t *spec, sl_error_t *err)
{
    runner_t *r = sl_xcalloc(1, sizeof *r);
    r->spec = *spec;
    r->arena = sl_arena_new("runner");
    r->trigger_arena = sl_arena_new("trigger");
    r->status = "Initializing sources";
    r->node_wm = SL_NEW_ARRAY(r->arena, int64_t, spec->nwatermarks + 1);
    r->growth = SL_NEW_ARRAY(r->arena, runner_growth_t, spec->nstateful + 1);
    r->stores = exec_store_cache_new();
    if (sl_uuid_v4(r->run_id, err) < 0 || runner_check_checkpoint(spec, err) < 0 ||
        !(r->ckpt = ckpt_open(spec->checkpoint, err)) || recover(r, err) < 0 ||
        runner_record_sink_options(spec, err) < 0) {
        runner_close(r);
        return NULL;
    }
    r->status = "Waiting for data to arrive";
    return r;
}

void runner_close(runner_t *r)
{
    if (!r) return;
    exec_store_cache_free(r->stores);
    ckpt_close(r->ckpt);
    sl_arena_free(r->trigger_arena);
    sl_arena_free(r->arena);
    free(r->last_metrics);
    sl_buf_free(&r->progress);
    free(r);
}

const char *runner_query_id(const runner_t *r)
{
    return ckpt_query_id(r->ckpt);
}

const char *runner_run_id(const runner_t *r)
{
    return r->run_id;
}

int64_t runner_next_batch(const runner_t *r)
{
    return r->next_batch;
}

int64_t runner_watermark(const runner_t *r)
{
    return r->watermark_ms;
}

int runner_has_watermark(const runner_t *r)
{
    return r->spec.nwatermarks > 0;
}

int runner_caught_up(const runner_t *r)
{
    return r->caught_up;
}

int runner_change_fds(const runner_t *r, int *fds, int max)
{
    if (r->spec.nsources > max) return -1;
    for (int i = 0; i < r->spec.nsources; i++) {
        source_t *s = r->spec.sources[i];
        if (!s->ops->change_fd || (fds[i] = s->ops->change_fd(s)) < 0) return -1;
    }
    return r->spec.nsources;
}

const char *runner_status_message(const runner_t *r)
{
    return r->status;
}

int runner_data_available(const runner_t *r)
{
    return r->data_available;
}

const char *runner_last_progress(const runner_t *r, int *is_new)
{
    if (is_new) *is_new = r->progress_new;
    return r->progress.len ? r->progress.data : NULL;
}

void runner_last_rates(const runner_t *r, double *input, double *processed)
{
    *input = r->progress.len ? r->in_rate : NAN;
    *processed = r->progress.len ? r->proc_rate : NAN;
}

int runner_prepare_available_now(runner_t *r, sl_error_t *err)
{
    for (int i = 0; i < r->spec.nsources; i++) {
        source_t *s = r->spec.sources[i];
        if (s->ops->prepare_available_now && s->ops->prepare_available_now(s, err) < 0) return -1;
    }
    return 0;
}

/* ---- one trigger ---- */

/* The start offset of source i: the last committed end, else its initial offset. */
int runner_source_start(runner_t *r, int i, const char **out, sl_error_t *err)
{
    if (r->committed[i]) {
        *out = r->committed[i];
        return 0;
    }
    source_t *s = r->spec.sources[i];
    const char *init;
    if (s->ops->initial_offset(s, r->trigger_arena, &init, err) < 0) return -1;
    *out = init;
    return 0;
}

/* A no-data batch is due when the watermark moved past the last eviction
 * and a stateful operator has work then (Spark's shouldRunAnotherBatch:
 * not an aggregation in complete mode, nor a limit). */
static int nodata_batch_due(const runner_t *r)
{
    if (r->spec.nwatermarks == 0 || r->watermark_ms <= r->evicted_wm) return 0;
    for (int i = 0; i < r->spec.nstateful; i++) {
        const exec_pnode_t *n = r->spec.stateful[i];
        if (n->ops->wants_nodata_batch && n->ops->wants_nodata_batch(n, r->spec.mode)) return 1;
    }
    return 0;
}

static int offsets_equal(const char *a, const char *b)
{
    if (!a || !b) return a == b;
    return !strcmp(a, b);
}

/* Asks every source for the end of the next batch. */
static int fetch_offsets(runner_t *r, runner_trigger_info_t *t, sl_error_t *err)
{
    int64_t t0 = sl_mono_ms();
    int n = r->spec.nsources;
    r->status = "Getting offsets from sources";
    for (int i = 0; i < n; i++) {
        if (runner_source_start(r, i, &t->start[i], err) < 0) return -1;
        t->reported_start[i] = r->committed[i]; /* Spark: null until a batch is committed */
        if (r->rerun) {
            t->end[i] = r->rerun_end[i] ? r->rerun_end[i] : t->start[i];
            t->latest[i] = t->end[i];
            continue;
        }
        source_t *s = r->spec.sources[i];
        if (s->ops->latest_offset(s, t->start[i], r->spec.limit, r->trigger_arena, &t->end[i],
                                  &t->latest[i], err) < 0)
            return -1;
    }
    t->d.latest_offset = sl_mono_ms() - t0;
    return 0;
}

void runner_trigger_init(runner_t *r, runner_trigger_info_t *t)
{
    sl_arena_t *a = r->trigger_arena;
    int n = r->spec.nsources + 1;
    memset(t, 0, sizeof *t);
    t->start_ms = sl_now_ms();
    t->batch_id = r->next_batch;
    t->start = SL_NEW_ARRAY(a, const char *, n);
    t->reported_start = SL_NEW_ARRAY(a, const char *, n);
    t->end = SL_NEW_ARRAY(a, const char *, n);
    t->latest = SL_NEW_ARRAY(a, const char *, n);
    t->rows = SL_NEW_ARRAY(a, int64_t, n);
    t->batch_wm_ms = r->watermark_ms;
}

/* Decides whether the trigger runs a batch. */
static int has_work(runner_t *r, const runner_trigger_info_t *t)
{
    if (r->rerun) return 1;
    int data = 0;
    for (int i = 0; i < r->spec.nsources; i++) data |= !offsets_equal(t->start[i], t->end[i]);
    r->data_available = data;
    return data || nodata_batch_due(r);
}

static void note_caught_up(runner_t *r, const runner_trigger_info_t *t)
{
    int behind = 0;
    for (int i = 0; i < r->spec.nsources; i++) behind |= !offsets_equal(t->end[i], t->latest[i]);
    r->caught_up = !behind && !nodata_batch_due(r);
}

void runner_finish_report(runner_t *r, runner_trigger_info_t *t, int64_t mono0)
{
    t->d.trigger_execution = sl_mono_ms() - mono0;
    int report = t->ran || t->start_ms - r->last_idle_report >= IDLE_REPORT_INTERVAL_MS;
    r->progress_new = report;
    /* an executed batch restarts the idle-report interval too (Spark's
     * lastNoExecutionProgressEventTime), so the batch stays the last report */
    if (t->ran) r->last_idle_report = sl_now_ms();
    if (report) {
        if (!t->ran) r->last_idle_report = t->start_ms;
        if (!t->ran && r->last_metrics) t->metrics = r->last_metrics;
        runner_progress_build(r, t);
    }
    r->last_trigger_start = t->start_ms;
}

int runner_trigger(runner_t *r, runner_outcome_t *outcome, sl_error_t *err)
{
    sl_arena_reset(r->trigger_arena);
    runner_trigger_info_t t;
    runner_trigger_init(r, &t);
    int64_t mono0 = sl_mono_ms();
    *outcome = RUNNER_IDLE;
    if (fetch_offsets(r, &t, err) < 0) return -1;
    if (!has_work(r, &t)) {
        r->status = "Waiting for data to arrive";
        note_caught_up(r, &t);
        runner_finish_report(r, &t, mono0);
        return 0;
    }
    int64_t ts = r->rerun ? r->rerun_ts : t.start_ms;
    int flags = RUNNER_BATCH_COMMIT | (r->rerun ? 0 : RUNNER_BATCH_OFFSETS);
    if (runner_run_batch(r, &t, ts, t.batch_id, flags, err) < 0) return -1;
    failpoint_hit("runner.before_commit");
    if (runner_commit_batch(r, &t, err) < 0) return -1;
    t.ran = 1;
    *outcome = RUNNER_RAN;
    note_caught_up(r, &t);
    r->status = "Waiting for data to arrive";
    runner_finish_report(r, &t, mono0);
    return 0;
}
