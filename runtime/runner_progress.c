/* StreamingQueryProgress: the report of one trigger, as compact JSON with
 * Spark's field names, order and formats (reference §1): fixed field order,
 * maps with sorted keys and omitted when empty, rates omitted when not
 * finite, timestamps as yyyy-MM-dd'T'HH:mm:ss.SSS'Z'. */
#include <math.h>
#include <string.h>

#include "common/clock.h"
#include "common/json_write.h"
#include "runtime/runner_int.h"

static void kv_iso(sl_json_t *j, const char *key, int64_t ms)
{
    char ts[32];
    sl_format_iso_ms(ms, ts);
    sl_json_kv_string(j, key, ts);
}

/* A rate: omitted when NaN or infinite, as Spark's safeDoubleToJValue. */
static void kv_rate(sl_json_t *j, const char *key, double v)
{
    if (isfinite(v)) sl_json_kv_double(j, key, v);
}

/* An offset: embedded as JSON (every source's offsets are JSON text), null when absent. */
static void kv_offset(sl_json_t *j, const char *key, const char *offset)
{
    sl_json_key(j, key);
    if (offset) sl_json_raw(j, offset, strlen(offset));
    else sl_json_null(j);
}

static void durations(sl_json_t *j, const runner_trigger_info_t *t)
{
    const runner_durations_t *d = &t->d;
    sl_json_key(j, "durationMs");
    sl_json_object_begin(j);
    if (d->ran_batch) {
        sl_json_kv_int(j, "addBatch", d->add_batch);
        sl_json_kv_int(j, "commitOffsets", d->commit_offsets);
        sl_json_kv_int(j, "getBatch", d->get_batch);
    }
    sl_json_kv_int(j, "latestOffset", d->latest_offset);
    if (d->ran_batch) sl_json_kv_int(j, "queryPlanning", d->query_planning);
    sl_json_kv_int(j, "triggerExecution", d->trigger_execution);
    if (d->ran_wal) sl_json_kv_int(j, "walCommit", d->wal_commit);
    sl_json_object_end(j);
}

/* eventTime: max/min/avg of the first watermark node that saw rows, and the
 * batch's watermark; omitted without a watermark in the plan. */
static void event_time(sl_json_t *j, const runner_t *r, const runner_trigger_info_t *t)
{
    if (r->spec.nwatermarks == 0) return;
    const op_metrics_t *seen = NULL;
    for (int i = 0; t->ran && t->metrics && !seen && i < r->spec.nwatermarks; i++) {
        const op_metrics_t *m = &t->metrics[r->spec.watermarks[i]->id];
        if (m->et_count) seen = m;
    }
    sl_json_key(j, "eventTime");
    sl_json_object_begin(j);
    if (seen) {
        kv_iso(j, "avg", (int64_t)(seen->et_sum / (double)seen->et_count));
        kv_iso(j, "max", seen->et_max);
        kv_iso(j, "min", seen->et_min);
    }
    kv_iso(j, "watermark", t->batch_wm_ms);
    sl_json_object_end(j);
}

static void state_operator(sl_json_t *j, const runner_t *r, const exec_pnode_t *n,
                           const op_metrics_t *m, int ran)
{
    sl_json_object_begin(j);
    sl_json_kv_string(j, "operatorName", n->ops->name);
    sl_json_kv_int(j, "numRowsTotal", m->num_rows_total);
    sl_json_kv_int(j, "numRowsUpdated", ran ? m->num_rows_updated : 0);
    sl_json_kv_int(j, "allUpdatesTimeMs", m->all_updates_time_ms);
    sl_json_kv_int(j, "numRowsRemoved", m->num_rows_removed);
    sl_json_kv_int(j, "allRemovalsTimeMs", m->all_removals_time_ms);
    sl_json_kv_int(j, "commitTimeMs", m->commit_time_ms);
    sl_json_kv_int(j, "memoryUsedBytes", m->memory_used_bytes);
    sl_json_kv_int(j, "numRowsDroppedByWatermark", ran ? m->num_rows_dropped_by_watermark : 0);
    sl_json_kv_int(j, "numShufflePartitions", r->spec.npartitions);
    sl_json_kv_int(j, "numStateStoreInstances", m->num_state_store_instances);
    if (m->ncustom) {
        sl_json_key(j, "customMetrics");
        sl_json_object_begin(j);
        for (int i = 0; i < m->ncustom; i++)
            sl_json_kv_int(j, m->custom_names[i], m->custom_values[i]);
        sl_json_object_end(j);
    }
    sl_json_object_end(j);
}

static void state_operators(sl_json_t *j, const runner_t *r, const runner_trigger_info_t *t)
{
    static const op_metrics_t none;
    sl_json_key(j, "stateOperators");
    sl_json_array_begin(j);
    for (int i = 0; i < r->spec.nstateful; i++) {
        const exec_pnode_t *n = r->spec.stateful[i];
        state_operator(j, r, n, t->metrics ? &t->metrics[n->id] : &none, t->ran);
    }
    sl_json_array_end(j);
}

/* Appends `members` (JSON object members without braces) as an object under key. */
static void kv_members(sl_json_t *j, const char *key, sl_buf_t *members)
{
    if (!members->len) return;
    sl_buf_t obj = SL_BUF_INIT;
    sl_buf_putc(&obj, '{');
    sl_buf_append(&obj, members->data, members->len);
    sl_buf_putc(&obj, '}');
    sl_json_key(j, key);
    sl_json_raw(j, obj.data, obj.len);
    sl_buf_free(&obj);
}

static void sources(sl_json_t *j, const runner_t *r, const runner_trigger_info_t *t, double in_sec,
                    double proc_sec)
{
    sl_json_key(j, "sources");
    sl_json_array_begin(j);
    sl_buf_t tmp = SL_BUF_INIT;
    for (int i = 0; i < r->spec.nsources; i++) {
        source_t *s = r->spec.sources[i];
        sl_json_object_begin(j);
        sl_buf_clear(&tmp);
        s->ops->describe(s, &tmp);
        sl_json_kv_string(j, "description", tmp.data ? tmp.data : "");
        kv_offset(j, "startOffset", t->reported_start[i]);
        kv_offset(j, "endOffset", t->end[i]);
        kv_offset(j, "latestOffset", s->ops->reports_latest ? t->latest[i] : NULL);
        sl_json_kv_int(j, "numInputRows", t->rows[i]);
        kv_rate(j, "inputRowsPerSecond", (double)t->rows[i] / in_sec);
        kv_rate(j, "processedRowsPerSecond", (double)t->rows[i] / proc_sec);
        sl_buf_clear(&tmp);
        if (s->ops->metrics) s->ops->metrics(s, t->end[i], t->latest[i], &tmp);
        kv_members(j, "metrics", &tmp);
        sl_json_object_end(j);
    }
    sl_buf_free(&tmp);
    sl_json_array_end(j);
}

static void sink(sl_json_t *j, const runner_t *r, const runner_trigger_info_t *t)
{
    sink_t *k = r->spec.sink;
    sl_buf_t tmp = SL_BUF_INIT;
    sl_json_key(j, "sink");
    sl_json_object_begin(j);
    k->ops->describe(k, &tmp);
    sl_json_kv_string(j, "description", tmp.data ? tmp.data : "");
    sl_json_kv_int(j, "numOutputRows", t->ran ? t->output_rows : 0);
    sl_buf_clear(&tmp);
    if (k->ops->metrics) k->ops->metrics(k, &tmp);
    kv_members(j, "metrics", &tmp);
    sl_json_object_end(j);
    sl_buf_free(&tmp);
}

void runner_progress_build(runner_t *r, const runner_trigger_info_t *t)
{
    /* Rows per second as Spark computes them: input over the time since the
     * previous trigger started (infinite, so 0, on a run's first trigger),
     * processed over this trigger's duration (at least 1 ms). */
    double in_sec =
        r->last_trigger_start ? (double)(t->start_ms - r->last_trigger_start) / 1000.0 : INFINITY;
    double proc_sec = (double)(t->d.trigger_execution > 0 ? t->d.trigger_execution : 1) / 1000.0;
    r->in_rate = (double)t->total_rows / in_sec;
    r->proc_rate = (double)t->total_rows / proc_sec;
    if (!isfinite(r->in_rate)) r->in_rate = NAN;
    if (!isfinite(r->proc_rate)) r->proc_rate = NAN;
    sl_buf_clear(&r->progress);
    sl_json_t j;
    sl_json_init(&j, &r->progress, false);
    sl_json_object_begin(&j);
    sl_json_kv_string(&j, "id", runner_query_id(r));
    sl_json_kv_string(&j, "runId", r->run_id);
    sl_json_kv_string(&j, "name", r->spec.name);
    kv_iso(&j, "timestamp", t->start_ms);
    sl_json_kv_int(&j, "batchId", t->batch_id);
    sl_json_kv_int(&j, "batchDuration", t->d.trigger_execution);
    sl_json_kv_int(&j, "numInputRows", t->total_rows);
    kv_rate(&j, "inputRowsPerSecond", (double)t->total_rows / in_sec);
    kv_rate(&j, "processedRowsPerSecond", (double)t->total_rows / proc_sec);
    durations(&j, t);
    event_time(&j, r, t);
    state_operators(&j, r, t);
    sources(&j, r, t, in_sec, proc_sec);
    sink(&j, r, t);
    runner_growth_warnings(r, &j);
    sl_json_object_end(&j);
}
