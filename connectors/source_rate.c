/* The rate source: Spark's RateStreamMicroBatchStream in C.
 *
 * Columns `timestamp TIMESTAMP, value BIGINT`. The offset is the number of
 * whole seconds since the query's start time, which is written once to
 * the source's checkpoint directory (`<dir>/0` = "v1\n<ms>", as Spark's
 * rate source keeps it) so that a replay after a crash regenerates the
 * same rows. Second s ends at value valueAtSecond(s) (rowsPerSecond per
 * second, ramping linearly up to it over rampUpTime); batch (start, end]
 * holds the values [valueAtSecond(start), valueAtSecond(end)), value v
 * stamped startTime + start seconds + round((v - first) * msPerValue) ms,
 * spread evenly over the batch's seconds. Split p of numPartitions holds
 * the values with v % numPartitions == p. Rows are a pure function of the
 * offsets and the persisted start time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "connectors/conn_int.h"

typedef struct rate {
    int64_t rows_per_sec;
    int64_t ramp_s;
    int nparts;
    int col_ts, col_val; /* stream columns, -1 when not declared */
    int64_t start_ms;    /* -1 until read or written */
    int64_t last_ms;     /* latest clock reading used (never goes back) */
    int64_t max_seconds; /* offsets beyond overflow a BIGINT value */
    int64_t avail_now;   /* AVAILABLE NOW: offset cap, else -1 */
} rate_t;

/* One split: the values of [first, end) with v % n == p. */
typedef struct rate_split {
    int64_t first, end;
    int p, n;
    int64_t start_ms; /* time of the batch's first second */
    double ms_per_value;
} rate_split_t;

/* The value where second `s` ends (Spark's valueAtSecond). */
static int64_t value_at_second(int64_t s, int64_t rps, int64_t ramp)
{
    int64_t delta = rps / (ramp + 1);
    if (s <= ramp) return s % 2 == 1 ? (s + 1) / 2 * delta * s : s / 2 * delta * (s + 1);
    return value_at_second(ramp, rps, ramp) + (s - ramp) * rps;
}

static int rate_options(const conn_desc_t *d, const conn_kv_t *o, int n, rate_t *r, sl_error_t *err)
{
    int64_t parts = 1;
    r->rows_per_sec = 1;
    r->ramp_s = 0;
    if (conn_opt_int64(d, o, n, "rowsPerSecond", 1, INT64_MAX, &r->rows_per_sec, err) < 0 ||
        conn_opt_seconds(d, o, n, "rampUpTime", &r->ramp_s, err) < 0 ||
        conn_opt_int64(d, o, n, "numPartitions", 1, 4096, &parts, err) < 0)
        return -1;
    r->nparts = (int)parts;
    r->max_seconds = INT64_MAX / r->rows_per_sec;
    if (r->ramp_s > r->max_seconds)
        return conn_bad_option(err, "rampUpTime", conn_option(d, o, n, "rampUpTime"),
                               "With rowsPerSecond %lld it can be at most %lld seconds.",
                               (long long)r->rows_per_sec, (long long)r->max_seconds);
    return 0;
}

static int rate_columns(const conn_stream_t *rel, rate_t *r, sl_error_t *err)
{
    if (conn_stream_column(rel, "timestamp", EXEC_TYPE_TIMESTAMP, &r->col_ts, err) < 0 ||
        conn_stream_column(rel, "value", EXEC_TYPE_BIGINT, &r->col_val, err) < 0)
        return -1;
    for (int i = 0; i < rel->ncols; i++)
        if (i != r->col_ts && i != r->col_val) {
            sl_error_set(err, SL_ERR_INVALID_OBJECT_DEFINITION,
                         "a rate stream has no column \"%s\"", rel->col_names[i]);
            return sl_error_hint(err, "Its columns are: timestamp TIMESTAMP, value BIGINT.");
        }
    return 0;
}

int source_rate_validate(const conn_stream_t *rel, sl_error_t *err)
{
    rate_t r;
    if (rate_options(rel->connector, rel->opts, rel->nopts, &r, err) < 0) return -1;
    return rate_columns(rel, &r, err);
}

/* Reads or persists the start time (first use). */
static int rate_start(source_t *s, sl_error_t *err)
{
    rate_t *r = s->impl;
    if (r->start_ms >= 0) return 0;
    if (conn_start_time(s->dir, s->now_ms(), &r->start_ms, err) < 0) return -1;
    r->last_ms = r->start_ms;
    return 0;
}

static int rate_initial(source_t *s, sl_arena_t *a, const char **out, sl_error_t *err)
{
    if (rate_start(s, err) < 0) return -1;
    *out = conn_offset_long(a, 0);
    return 0;
}

static int64_t rate_now_seconds(source_t *s)
{
    rate_t *r = s->impl;
    int64_t now = s->now_ms();
    if (now > r->last_ms) r->last_ms = now;
    int64_t sec = (r->last_ms - r->start_ms) / 1000;
    return r->avail_now >= 0 && sec > r->avail_now ? r->avail_now : sec;
}

static int rate_latest(source_t *s, const char *start, source_limit_t limit, sl_arena_t *a,
                       const char **end, const char **latest, sl_error_t *err)
{
    (void)limit;
    int64_t from = 0;
    if (rate_start(s, err) < 0 || (start && conn_offset_parse_long(start, &from, err) < 0))
        return -1;
    int64_t sec = rate_now_seconds(s);
    if (sec < from) sec = from;
    *end = *latest = conn_offset_long(a, sec);
    return 0;
}

static int rate_available_now(source_t *s, sl_error_t *err)
{
    rate_t *r = s->impl;
    if (rate_start(s, err) < 0) return -1;
    r->avail_now = -1;
    r->avail_now = rate_now_seconds(s);
    return 0;
}

static int rate_plan(source_t *s, int64_t batch_id, const char *start, const char *end,
                     sl_arena_t *a, source_split_t **splits, int *nsplits, sl_error_t *err)
{
    (void)batch_id;
    rate_t *r = s->impl;
    int64_t from = 0, to;
    *splits = NULL;
    *nsplits = 0;
    if (rate_start(s, err) < 0 || (start && conn_offset_parse_long(start, &from, err) < 0) ||
        conn_offset_parse_long(end, &to, err) < 0)
        return -1;
    if (from < 0 || to < from)
        return sl_error_set(err, SL_ERR_INTERNAL_ERROR, "rate offsets go backwards: %s to %s",
                            start ? start : "0", end);
    if (to > r->max_seconds)
        return sl_error_set(err, SL_ERR_NUMERIC_VALUE_OUT_OF_RANGE,
                            "rate source offset %lld overflows its values", (long long)to);
    if (r->last_ms < r->start_ms + to * 1000) r->last_ms = r->start_ms + to * 1000;
    int64_t first = value_at_second(from, r->rows_per_sec, r->ramp_s);
    int64_t stop = value_at_second(to, r->rows_per_sec, r->ramp_s);
    if (first == stop) return 0;
    *splits = SL_NEW_ARRAY(a, source_split_t, r->nparts);
    for (int p = 0; p < r->nparts; p++) {
        rate_split_t *sp = SL_NEW(a, rate_split_t);
        *sp = (rate_split_t){first,
                             stop,
                             p,
                             r->nparts,
                             r->start_ms + from * 1000,
                             (double)((to - from) * 1000) / (double)(stop - first)};
        (*splits)[p] = (source_split_t){p, sp};
    }
    *nsplits = r->nparts;
    return 0;
}

static int rate_read(source_t *s, const source_split_t *split, sl_arena_t *a, source_emit_fn emit,
                     void *emit_arg, sl_error_t *err)
{
    const rate_t *r = s->impl;
    const rate_split_t *sp = split->data;
    int64_t v = sp->first + ((sp->p - sp->first % sp->n) % sp->n + sp->n) % sp->n;
    while (v < sp->end) {
        int64_t left = (sp->end - v + sp->n - 1) / sp->n;
        uint32_t cap = left < EXEC_BATCH_ROWS ? (uint32_t)left : EXEC_BATCH_ROWS;
        exec_builder_t bld;
        exec_builder_init(&bld, a, s->rel->ncols, s->rel->col_types, cap);
        for (uint32_t k = 0; k < cap; k++, v += sp->n) {
            uint32_t row = exec_builder_add_row(&bld);
            int64_t ms = sp->start_ms + llround((double)(v - sp->first) * sp->ms_per_value);
            if (r->col_ts >= 0) exec_builder_set_bigint(&bld, r->col_ts, row, ms * 1000);
            if (r->col_val >= 0) exec_builder_set_bigint(&bld, r->col_val, row, v);
        }
        if (emit(emit_arg, exec_builder_finish(&bld), err) < 0) return -1;
    }
    return 0;
}

static void rate_describe(source_t *s, sl_buf_t *out)
{
    const rate_t *r = s->impl;
    sl_buf_printf(out, "RateStreamV2[rowsPerSecond=%lld, rampUpTimeSeconds=%lld, numPartitions=%d]",
                  (long long)r->rows_per_sec, (long long)r->ramp_s, r->nparts);
}

static void rate_destroy(source_t *s)
{
    (void)s;
}

static const source_ops_t rate_ops = {
    .name = "rate",
    .reports_latest = 1,
    .initial_offset = rate_initial,
    .latest_offset = rate_latest,
    .prepare_available_now = rate_available_now,
    .plan = rate_plan,
    .read_split = rate_read,
    .describe = rate_describe,
    .destroy = rate_destroy,
};

int source_rate_create(source_t *s, sl_arena_t *a, sl_error_t *err)
{
    rate_t *r = SL_NEW(a, rate_t);
    if (rate_options(s->rel->connector, s->rel->opts, s->rel->nopts, r, err) < 0 ||
        rate_columns(s->rel, r, err) < 0)
        return -1;
    r->start_ms = -1;
    r->avail_now = -1;
    s->impl = r;
    s->ops = &rate_ops;
    return 0;
}
