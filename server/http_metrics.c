/* GET /metrics: Prometheus text exposition format 0.0.4.
 *
 * Every query's figures come from its last StreamingQueryProgress document
 * (parsed with jansson), so /metrics, /progress and SHOW PROGRESS never
 * disagree; only the lifecycle state and the descriptive labels come from the
 * query manager's snapshot. Samples of one family are written together, with
 * one # HELP and # TYPE per family, labelled query="<name>" (plus operator
 * and op for state operators, source for sources). A figure the last
 * progress does not hold (a rate Spark omits, a watermark the plan lacks) is
 * left out rather than written as 0. Process metrics follow the names of
 * Prometheus' client libraries. */
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "server/http_int.h"
#include "server/qm.h"

/* One query: its snapshot, parsed last progress (NULL before the first) and label text. */
typedef struct mquery {
    const qm_info_t *info;
    json_t *p;
    const char *labels; /* query="name" */
} mquery_t;

/* ---- text format ---- */

/* Appends a label value with \\, \" and \n escaped. */
static void label_value(sl_buf_t *b, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '\\') sl_buf_puts(b, "\\\\");
        else if (*s == '"') sl_buf_puts(b, "\\\"");
        else if (*s == '\n') sl_buf_puts(b, "\\n");
        else sl_buf_putc(b, *s);
    }
}

static void family(sl_buf_t *b, const char *name, const char *type, const char *help)
{
    sl_buf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* name{labels} value; labels may be "" (no braces then). */
static void sample(sl_buf_t *b, const char *name, const char *labels, double v)
{
    if (!isfinite(v)) return;
    sl_buf_puts(b, name);
    if (labels && *labels) sl_buf_printf(b, "{%s}", labels);
    if (fabs(v) < 1e15 && v == (double)(long long)v) sl_buf_printf(b, " %lld\n", (long long)v);
    else sl_buf_printf(b, " %.15g\n", v);
}

/* ---- reading the progress document ---- */

/* A number member (or a numeric string, as Spark's source metrics hold). */
static int num(json_t *o, const char *key, double *v)
{
    json_t *x = o ? json_object_get(o, key) : NULL;
    if (json_is_number(x)) {
        *v = json_number_value(x);
        return 1;
    }
    if (json_is_string(x)) {
        char *end;
        *v = strtod(json_string_value(x), &end);
        return end != json_string_value(x) && !*end;
    }
    return 0;
}

/* Seconds since the epoch of Spark's timestamp text 2016-12-05T20:54:20.827Z. */
static int iso_seconds(json_t *s, double *out)
{
    int y, mo, d, h, mi, sec, ms;
    if (!json_is_string(s) || sscanf(json_string_value(s), "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ", &y, &mo,
                                     &d, &h, &mi, &sec, &ms) != 7)
        return 0;
    struct tm tm = {.tm_year = y - 1900,
                    .tm_mon = mo - 1,
                    .tm_mday = d,
                    .tm_hour = h,
                    .tm_min = mi,
                    .tm_sec = sec};
    *out = (double)timegm(&tm) + ms / 1000.0;
    return 1;
}

static json_t *watermark_of(const mquery_t *q)
{
    json_t *et = q->p ? json_object_get(q->p, "eventTime") : NULL;
    return et ? json_object_get(et, "watermark") : NULL;
}

/* ---- per-query families ---- */

/* Gauges read from one member of the progress document (sub: inside that member). */
static const struct scalar {
    const char *name, *help, *key, *sub;
    double scale;
} scalars[] = {
    {"sluice_query_input_rows_per_second",
     "Rows per second arriving, over the time since the previous trigger (inputRowsPerSecond).",
     "inputRowsPerSecond", NULL, 1},
    {"sluice_query_processed_rows_per_second",
     "Rows per second processed during the last trigger (processedRowsPerSecond).",
     "processedRowsPerSecond", NULL, 1},
    {"sluice_query_last_batch_duration_seconds",
     "Duration of the last trigger in seconds (batchDuration, which is in milliseconds).",
     "batchDuration", NULL, 0.001},
    {"sluice_query_last_batch_id", "Id of the batch of the last progress report (batchId).",
     "batchId", NULL, 1},
    {"sluice_query_last_batch_input_rows", "Input rows of the last trigger (numInputRows).",
     "numInputRows", NULL, 1},
    {"sluice_query_last_batch_output_rows",
     "Rows the sink received in the last trigger (sink.numOutputRows; absent when unknown).",
     "sink", "numOutputRows", 1},
};

static void scalar_family(sl_buf_t *b, const struct scalar *s, mquery_t *qs, int n)
{
    family(b, s->name, "gauge", s->help);
    for (int i = 0; i < n; i++) {
        json_t *o = qs[i].p;
        if (o && s->sub) o = json_object_get(o, s->key);
        double v;
        if (num(o, s->sub ? s->sub : s->key, &v) && v >= 0)
            sample(b, s->name, qs[i].labels, v * s->scale);
    }
}

static const char *const statuses[] = {"ACTIVE", "STOPPED", "FAILED", "FINISHED"};

static void status_family(sl_buf_t *b, sl_arena_t *a, mquery_t *qs, int n)
{
    const char *name = "sluice_query_status";
    family(b, name, "gauge", "1 for the query's lifecycle state (label status), 0 for the others.");
    for (int i = 0; i < n; i++)
        for (size_t k = 0; k < sizeof statuses / sizeof statuses[0]; k++)
            sample(b, name, sl_printf(a, "%s,status=\"%s\"", qs[i].labels, statuses[k]),
                   !strcmp(qs[i].info->status_name, statuses[k]));
}

static void triggers_family(sl_buf_t *b, mquery_t *qs, int n)
{
    const char *name = "sluice_query_triggers_total";
    family(b, name, "counter",
           "Triggers the query has begun since the daemon started, with new data or not (an idle "
           "query that waits on its sources' change notification adds one per 10 s).");
    for (int i = 0; i < n; i++) sample(b, name, qs[i].labels, (double)qs[i].info->triggers);
}

static void info_family(sl_buf_t *b, mquery_t *qs, int n)
{
    family(b, "sluice_query_info", "gauge",
           "Always 1; labels describe the query (id, run_id, sink, output_mode, trigger).");
    for (int i = 0; i < n; i++) {
        const qm_info_t *q = qs[i].info;
        sl_buf_printf(b, "sluice_query_info{%s,id=\"", qs[i].labels);
        label_value(b, q->id);
        sl_buf_puts(b, "\",run_id=\"");
        label_value(b, q->run_id);
        sl_buf_puts(b, "\",sink=\"");
        label_value(b, q->sink);
        sl_buf_puts(b, "\",output_mode=\"");
        label_value(b, q->output_mode);
        sl_buf_puts(b, "\",trigger=\"");
        label_value(b, q->trigger);
        sl_buf_puts(b, "\"} 1\n");
    }
}

/* Watermark (as a timestamp) and its lag behind the wall clock; left out
 * while the watermark is still at the epoch (no event seen yet). */
static void watermark_families(sl_buf_t *b, mquery_t *qs, int n)
{
    double now = (double)sl_now_ms() / 1000.0, wm;
    family(b, "sluice_query_watermark_timestamp_seconds", "gauge",
           "Event-time watermark used by the last trigger, in seconds since the epoch.");
    for (int i = 0; i < n; i++)
        if (iso_seconds(watermark_of(&qs[i]), &wm) && wm > 0)
            sample(b, "sluice_query_watermark_timestamp_seconds", qs[i].labels, wm);
    family(b, "sluice_query_watermark_lag_seconds", "gauge",
           "Seconds between now and the event-time watermark (how far event time lags).");
    for (int i = 0; i < n; i++)
        if (iso_seconds(watermark_of(&qs[i]), &wm) && wm > 0)
            sample(b, "sluice_query_watermark_lag_seconds", qs[i].labels,
                   round((now - wm) * 1000) / 1000);
}

/* Families of every element of an array member (stateOperators, sources). */
static const struct element {
    const char *array, *name, *help, *key, *in; /* in: member object holding key, or NULL */
} elements[] = {
    {"stateOperators", "sluice_query_state_rows",
     "Rows in the state of a stateful operator (numRowsTotal).", "numRowsTotal", NULL},
    {"stateOperators", "sluice_query_state_rows_updated",
     "State rows updated by the last trigger (numRowsUpdated).", "numRowsUpdated", NULL},
    {"stateOperators", "sluice_query_state_memory_bytes",
     "Memory used by a stateful operator's state stores (memoryUsedBytes).", "memoryUsedBytes",
     NULL},
    {"stateOperators", "sluice_query_rows_dropped_by_watermark",
     "Late rows a stateful operator dropped in the last trigger (numRowsDroppedByWatermark).",
     "numRowsDroppedByWatermark", NULL},
    {"sources", "sluice_query_source_malformed_records",
     "Malformed records a source met (its numMalformedRecords metric).", "numMalformedRecords",
     "metrics"},
    {"sources", "sluice_query_source_offsets_behind_latest",
     "Offsets the source lags behind the latest available (its maxOffsetsBehindLatest metric).",
     "maxOffsetsBehindLatest", "metrics"},
};

static const char *element_labels(sl_arena_t *a, const mquery_t *q, const struct element *e,
                                  json_t *el, size_t idx)
{
    if (strcmp(e->array, "stateOperators") != 0)
        return sl_printf(a, "%s,source=\"%zu\"", q->labels, idx);
    sl_buf_t v = SL_BUF_INIT;
    json_t *op = json_object_get(el, "operatorName");
    label_value(&v, json_is_string(op) ? json_string_value(op) : "");
    const char *s =
        sl_printf(a, "%s,operator=\"%s\",op=\"%zu\"", q->labels, v.data ? v.data : "", idx);
    sl_buf_free(&v);
    return s;
}

static void element_family(sl_buf_t *b, sl_arena_t *a, const struct element *e, mquery_t *qs, int n)
{
    family(b, e->name, "gauge", e->help);
    for (int i = 0; i < n; i++) {
        json_t *arr = qs[i].p ? json_object_get(qs[i].p, e->array) : NULL;
        size_t idx;
        json_t *el;
        json_array_foreach(arr, idx, el)
        {
            double v;
            json_t *o = e->in ? json_object_get(el, e->in) : el;
            if (num(o, e->key, &v)) sample(b, e->name, element_labels(a, &qs[i], e, el, idx), v);
        }
    }
}

/* ---- the HTTP server and the process ---- */

static void http_families(sl_buf_t *b, http_server_t *hs)
{
    static const char *const codes[] = {
#define HTTP_CODE_NAME(c) #c,
        HTTP_CODES(HTTP_CODE_NAME)
#undef HTTP_CODE_NAME
            "other"};
    family(b, "sluice_http_responses_total", "counter",
           "HTTP responses sent by the API, metrics and UI handlers, by status code.");
    for (int i = 0; i < HTTP_NCODES; i++)
        sl_buf_printf(b, "sluice_http_responses_total{code=\"%s\"} %llu\n", codes[i],
                      (unsigned long long)atomic_load(&hs->responses[i]));
}

/* Fields of /proc/self/stat after the command name: utime stime starttime vsize rss. */
static int proc_stat(double *cpu_s, double *start_ticks, double *vsize, double *rss_pages)
{
    char buf[1024];
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    unsigned long long ut, st, start, vs, rss;
    /* fields 3..24: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
     * utime stime cutime cstime priority nice threads itrealvalue starttime vsize rss */
    if (!p || sscanf(p + 2,
                     "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d %*d %*d %*d "
                     "%*d %*d %llu %llu %llu",
                     &ut, &st, &start, &vs, &rss) != 5)
        return 0;
    double tick = (double)sysconf(_SC_CLK_TCK);
    *cpu_s = (double)(ut + st) / tick;
    *start_ticks = (double)start / tick;
    *vsize = (double)vs;
    *rss_pages = (double)rss;
    return 1;
}

static double boot_time(void)
{
    FILE *f = fopen("/proc/stat", "r");
    char line[256];
    double bt = NAN;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "btime ", 6)) bt = strtod(line + 6, NULL);
    if (f) fclose(f);
    return bt;
}

static double open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d) return NAN;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n - 1; /* the directory being read */
}

static void process_families(sl_buf_t *b)
{
    double cpu = NAN, start = NAN, vsize = NAN, rss = NAN;
    proc_stat(&cpu, &start, &vsize, &rss);
    struct rlimit rl;
    family(b, "process_cpu_seconds_total", "counter",
           "Total user and system CPU time spent in seconds.");
    sample(b, "process_cpu_seconds_total", "", cpu);
    family(b, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.");
    sample(b, "process_resident_memory_bytes", "", rss * (double)sysconf(_SC_PAGESIZE));
    family(b, "process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.");
    sample(b, "process_virtual_memory_bytes", "", vsize);
    family(b, "process_open_fds", "gauge", "Number of open file descriptors.");
    sample(b, "process_open_fds", "", open_fds());
    family(b, "process_max_fds", "gauge", "Maximum number of open file descriptors.");
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        sample(b, "process_max_fds", "", (double)rl.rlim_cur);
    family(b, "process_start_time_seconds", "gauge",
           "Start time of the process since unix epoch in seconds.");
    sample(b, "process_start_time_seconds", "", boot_time() + start);
}

/* ---- the document ---- */

static void query_families(sl_buf_t *b, sl_arena_t *a, mquery_t *qs, int n)
{
    info_family(b, qs, n);
    status_family(b, a, qs, n);
    triggers_family(b, qs, n);
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
        scalar_family(b, &scalars[i], qs, n);
    watermark_families(b, qs, n);
    for (size_t i = 0; i < sizeof elements / sizeof elements[0]; i++)
        element_family(b, a, &elements[i], qs, n);
}

void http_metrics(http_req_t *rq, http_resp_t *r)
{
    qm_info_t *infos;
    int n = qm_list(rq->hs->srv->qm, rq->arena, &infos);
    mquery_t *qs = SL_NEW_ARRAY(rq->arena, mquery_t, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) {
        sl_buf_t l = SL_BUF_INIT;
        sl_buf_puts(&l, "query=\"");
        label_value(&l, infos[i].name);
        sl_buf_putc(&l, '"');
        qs[i].info = &infos[i];
        qs[i].labels = sl_strdup(rq->arena, l.data);
        sl_buf_free(&l);
        qs[i].p = infos[i].last_progress ? json_loads(infos[i].last_progress, 0, NULL) : NULL;
    }
    r->status = 200;
    r->type = HTTP_PROM_TYPE;
    http_header(r, "Cache-Control", "no-store");
    query_families(&r->body, rq->arena, qs, n);
    http_families(&r->body, rq->hs);
    process_families(&r->body);
    for (int i = 0; i < n; i++) json_decref(qs[i].p);
}
