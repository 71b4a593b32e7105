/* The Kafka source: Spark's KafkaMicroBatchStream on librdkafka. This file
 * holds the options, the offsets protocol and the progress figures;
 * kafka_read.c consumes the splits.
 *
 * Offsets are `{"topic":{"0":42}}`, the next offset to read per
 * topic-partition, kept only in the query's checkpoint: nothing is
 * committed to Kafka (no consumer group joins, no offset commits).
 *
 * initial_offset resolves startingOffsets (earliest, latest, or JSON with
 * -2 = earliest and -1 = latest per partition) once, against the
 * partitions that exist then, and writes the result to `sources/<i>/0` as
 * Spark's KafkaSourceInitialOffsetWriter does: a zero byte, "v1\n", the
 * JSON. Every later call (and every restart) returns that text.
 *
 * latest_offset lists the partitions of the subscribed topics (metadata at
 * most once a second; a new partition or topic starts at its earliest
 * offset) and their latest offsets (one ListOffsets request per broker),
 * reports partitions that vanished or went back as possible data loss,
 * then applies the read limits: minOffsetsPerTrigger delays the batch
 * (end = start) until that many offsets are available or maxTriggerDelay
 * has passed since the last batch began (for the first batch: since the
 * first trigger); maxOffsetsPerTrigger splits the total over the
 * partitions in proportion to what each has available, Spark's rule
 * (floor, but at least one offset for a partition that has any, never past
 * its latest). TRIGGER ONCE takes everything; AVAILABLE NOW fixes the
 * latest offsets at its start.
 *
 * The watcher lets an idle query sleep until data arrives instead of
 * polling (change_fd): a third consumer handle, started at the first
 * change_fd call, follows every partition from the latest offsets the
 * last latest_offset saw, into one queue
 * whose librdkafka I/O event writes to a pipe when the queue turns
 * non-empty. latest_offset empties the pipe and the queue before it lists
 * the offsets, so a message the listing misses arrives in the queue after
 * and wakes the query; the watcher's copies of the messages are dropped
 * (the splits read the data). A change of the partition set restarts it
 * from the new latest offsets.
 *
 * plan gives one split per partition with a non-empty [start, end); a
 * partition in end but not in start (new) starts at its earliest offset,
 * fetched at plan time as Spark does. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/json_write.h"
#include "common/log.h"
#include "connectors/conn_int.h"
#include "connectors/kafka_int.h"

/* Partition metadata is refreshed at most this often. */
#define KAFKA_METADATA_REFRESH_MS 1000

/* kafka.* options the source sets itself. */
static const char *const src_forbidden[] = {"enable.auto.commit",
                                            "enable.auto.offset.store",
                                            "auto.commit.enable",
                                            "auto.offset.reset",
                                            "enable.partition.eof",
                                            "offset.store.method",
                                            NULL};

/* ---- data loss ------------------------------------------------------------------ */

int kafka_data_loss(const source_t *s, sl_error_t *err, const char *fmt, ...)
{
    const kafka_src_t *k = s->impl;
    char what[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (!k->fail_on_data_loss) {
        SL_WARN("source.kafka",
                "query=%s possible data loss: %s (failOnDataLoss is false: "
                "continuing)",
                s->query_name, what);
        return 0;
    }
    sl_error_set(err, SL_ERR_DATA_EXCEPTION, "kafka data may have been lost: %s", what);
    sl_error_detail(err, "Offsets were deleted (retention) or a topic or partition was removed "
                         "or recreated before the query read them.");
    return sl_error_hint(err, "Set the stream's option failOnDataLoss to 'false' to continue "
                              "from the earliest offsets available.");
}

/* ---- options --------------------------------------------------------------------- */

/* subscribe: comma-separated topics, spaces trimmed, empty names dropped. */
static int parse_subscribe(const char *v, sl_arena_t *a, kafka_src_t *k, sl_error_t *err)
{
    int cap = 1;
    for (const char *p = v; *p; p++) cap += *p == ',';
    k->topics = SL_NEW_ARRAY(a, const char *, cap);
    k->ntopics = 0;
    for (const char *p = v; *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        while (n && (*p == ' ' || *p == '\t')) p++, n--;
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t')) n--;
        if (n) k->topics[k->ntopics++] = sl_strndup(a, p, n);
        p = e ? e + 1 : p + strlen(p);
    }
    if (!k->ntopics)
        return conn_bad_option(err, "subscribe", v, "It must list topics, separated by commas.");
    return 0;
}

/* assign: the partitions, and their distinct topics. */
static int parse_assign(const char *v, sl_arena_t *a, kafka_src_t *k, sl_error_t *err)
{
    if (kafka_partitions_parse(v, a, &k->assign, err) < 0) return -1;
    k->is_assign = true;
    k->topics = SL_NEW_ARRAY(a, const char *, k->assign.n);
    for (int i = 0; i < k->assign.n; i++)
        if (!i || strcmp(k->assign.v[i].topic, k->assign.v[i - 1].topic))
            k->topics[k->ntopics++] = k->assign.v[i].topic;
    return 0;
}

/* The partitions of two sorted maps are the same set. */
static bool same_partitions(const kafka_offsets_t *x, const kafka_offsets_t *y)
{
    if (x->n != y->n) return false;
    for (int i = 0; i < x->n; i++)
        if (strcmp(x->v[i].topic, y->v[i].topic) || x->v[i].partition != y->v[i].partition)
            return false;
    return true;
}

static int parse_starting(const char *v, sl_arena_t *a, kafka_src_t *k, sl_error_t *err)
{
    if (!strcasecmp(v, "earliest")) k->starting = KAFKA_START_EARLIEST;
    else if (!strcasecmp(v, "latest")) k->starting = KAFKA_START_LATEST;
    else if (kafka_offsets_parse(v, "startingOffsets", -2, a, &k->start_spec, err) < 0) return -1;
    else k->starting = KAFKA_START_SPECIFIC;
    if (k->starting == KAFKA_START_SPECIFIC && k->is_assign &&
        !same_partitions(&k->start_spec, &k->assign))
        return conn_bad_option(
            err, "startingOffsets", v,
            "It must give an offset (or -2 for "
            "earliest, -1 for latest) for every partition of assign, and no other.");
    return 0;
}

static int parse_limits(const conn_desc_t *d, const conn_kv_t *o, int n, kafka_src_t *k,
                        sl_error_t *err)
{
    int64_t delay_s = 900;
    bool headers = false;
    k->fail_on_data_loss = true;
    if (conn_opt_int64(d, o, n, "maxOffsetsPerTrigger", 1, INT64_MAX, &k->max_offsets, err) < 0 ||
        conn_opt_int64(d, o, n, "minOffsetsPerTrigger", 1, INT64_MAX, &k->min_offsets, err) < 0 ||
        conn_opt_seconds(d, o, n, "maxTriggerDelay", &delay_s, err) < 0 ||
        conn_opt_bool(d, o, n, "failOnDataLoss", &k->fail_on_data_loss, err) < 0 ||
        conn_opt_bool(d, o, n, "includeHeaders", &headers, err) < 0)
        return -1;
    if (k->max_offsets && k->min_offsets > k->max_offsets)
        return conn_bad_option(err, "minOffsetsPerTrigger",
                               conn_option(d, o, n, "minOffsetsPerTrigger"),
                               "It must not be more than maxOffsetsPerTrigger.");
    if (headers) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED, "kafka headers are not supported yet");
        return sl_error_hint(err, "Leave includeHeaders at 'false'.");
    }
    k->max_delay_ms = delay_s * 1000;
    return 0;
}

/* Every option of a Kafka stream into `k` (allocations in `a`). */
static int src_options(const conn_stream_t *rel, sl_arena_t *a, kafka_src_t *k, sl_error_t *err)
{
    const conn_desc_t *d = rel->connector;
    const conn_kv_t *o = rel->opts;
    int n = rel->nopts;
    const char *sub = conn_option(d, o, n, "subscribe"), *asg = conn_option(d, o, n, "assign");
    if (!sub == !asg) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                     "a kafka stream needs exactly one of the options subscribe and assign");
        return sl_error_hint(err, "subscribe 'topic1,topic2' reads every partition of the topics; "
                                  "assign '{\"topic\":[0,1]}' reads the partitions listed.");
    }
    if ((sub ? parse_subscribe(sub, a, k, err) : parse_assign(asg, a, k, err)) < 0 ||
        parse_starting(conn_option(d, o, n, "startingOffsets"), a, k, err) < 0 ||
        parse_limits(d, o, n, k, err) < 0 || format_options_parse(d, o, n, NULL, &k->fmt, err) < 0)
        return -1;
    return kafka_conf_check(o, n, src_forbidden, err);
}

/* Whether the stream has the fixed raw columns (format raw, or no column
 * list); fills raw_cols. */
static bool raw_columns(const conn_stream_t *rel, kafka_src_t *k)
{
    static const char *const names[KAFKA_NCOLS] = {"key",       "value",  "topic",
                                                   "partition", "offset", "timestamp"};
    static const exec_type_id_t types[KAFKA_NCOLS] = {EXEC_TYPE_BINARY, EXEC_TYPE_BINARY,
                                                      EXEC_TYPE_STRING, EXEC_TYPE_INT,
                                                      EXEC_TYPE_BIGINT, EXEC_TYPE_TIMESTAMP};
    if (rel->ncols != KAFKA_NCOLS && k->fmt.kind != FORMAT_RAW) return false;
    for (int c = 0; c < KAFKA_NCOLS; c++) {
        k->raw_cols[c] = -1;
        for (int i = 0; i < rel->ncols; i++)
            if (!strcasecmp(rel->col_names[i], names[c]) && rel->col_types[i].id == types[c])
                k->raw_cols[c] = i;
        if (k->raw_cols[c] < 0 && k->fmt.kind != FORMAT_RAW) return false;
    }
    return true;
}

int source_kafka_validate(const conn_stream_t *rel, sl_error_t *err)
{
    sl_arena_t *tmp = sl_arena_new("kafka source check");
    kafka_src_t *k = SL_NEW(tmp, kafka_src_t);
    int rc = src_options(rel, tmp, k, err);
    if (rc == 0 && !raw_columns(rel, k) &&
        !format_decoder_new(&k->fmt, rel->ncols, rel->col_names, rel->col_types, tmp, err))
        rc = -1;
    sl_arena_free(tmp);
    return rc;
}

/* ---- partitions and offsets ------------------------------------------------------------ */

/* The partitions to read now (refreshed at most once a second unless
 * `force`): every partition of the subscribed topics, or the assigned
 * ones that exist. The result is a copy in `a`. */
static int current_partitions(source_t *s, bool force, sl_arena_t *a, kafka_offsets_t *out,
                              sl_error_t *err)
{
    kafka_src_t *k = s->impl;
    int64_t now = sl_mono_ms();
    if (force || k->parts_ms < 0 || now - k->parts_ms >= KAFKA_METADATA_REFRESH_MS) {
        kafka_offsets_t all;
        sl_arena_reset(k->parts_arena);
        k->parts_ms = -1;
        if (kafka_topic_partitions(k->rk_meta, k->topics, k->ntopics, k->parts_arena, &all, err) <
            0)
            return -1;
        int n = 0;
        for (int i = 0; i < all.n; i++)
            if (!k->is_assign || kafka_offsets_find(&k->assign, all.v[i].topic, all.v[i].partition))
                all.v[n++] = all.v[i];
        all.n = n;
        k->parts = all;
        k->parts_ms = now;
    }
    *out = kafka_offsets_copy(&k->parts, a);
    return 0;
}

/* Earliest or latest offsets of every partition of `o` (in place); a
 * partition the brokers do not answer for is an error. */
static int list_offsets(source_t *s, kafka_offsets_t *o, bool latest, sl_error_t *err)
{
    kafka_src_t *k = s->impl;
    int missing;
    if (kafka_list_offsets(k->rk_meta, o, latest, &missing, err) < 0) return -1;
    for (int i = 0; missing && i < o->n; i++)
        if (o->v[i].offset < 0)
            return kafka_error(err, RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION,
                               "could not list the %s offset of kafka partition %s-%d",
                               latest ? "latest" : "earliest", o->v[i].topic, o->v[i].partition);
    return 0;
}

/* The entries of `x` whose partition `y` lacks, copied into `a`. */
static kafka_offsets_t offsets_minus(const kafka_offsets_t *x, const kafka_offsets_t *y,
                                     sl_arena_t *a)
{
    kafka_offsets_t d = {SL_NEW_ARRAY(a, kafka_tp_t, x->n ? x->n : 1), 0};
    for (int i = 0; i < x->n; i++)
        if (!kafka_offsets_find(y, x->v[i].topic, x->v[i].partition)) d.v[d.n++] = x->v[i];
    return d;
}

/* ---- initial offsets --------------------------------------------------------------------- */

/* Resolves a startingOffsets JSON against the partitions and their
 * earliest and latest offsets (Spark requires every partition, no other). */
static int resolve_specific(source_t *s, const kafka_offsets_t *parts, const kafka_offsets_t *lo,
                            const kafka_offsets_t *hi, sl_arena_t *a, kafka_offsets_t *out,
                            sl_error_t *err)
{
    const kafka_src_t *k = s->impl;
    if (!same_partitions(&k->start_spec, parts)) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                     "startingOffsets does not list the partitions of the stream's topics");
        sl_error_detail(err, "The topics have the partitions %s.", kafka_offsets_json(parts, a));
        return sl_error_hint(err, "Give an offset (or -2 for earliest, -1 for latest) for every "
                                  "partition, and no other.");
    }
    *out = kafka_offsets_copy(&k->start_spec, a);
    for (int i = 0; i < out->n; i++) {
        kafka_tp_t *t = &out->v[i];
        if (t->offset == -2) t->offset = lo->v[i].offset;
        else if (t->offset == -1) t->offset = hi->v[i].offset;
        else if (t->offset < lo->v[i].offset) {
            if (kafka_data_loss(s, err,
                                "startingOffsets asks for offset %lld of %s-%d but its "
                                "earliest offset is %lld",
                                (long long)t->offset, t->topic, t->partition,
                                (long long)lo->v[i].offset) < 0)
                return -1;
            t->offset = lo->v[i].offset;
        }
    }
    return 0;
}

static int resolve_initial(source_t *s, sl_arena_t *a, const char **out, sl_error_t *err)
{
    const kafka_src_t *k = s->impl;
    kafka_offsets_t parts, lo, hi, res;
    if (current_partitions(s, true, a, &parts, err) < 0) return -1;
    lo = kafka_offsets_copy(&parts, a);
    hi = kafka_offsets_copy(&parts, a);
    if (list_offsets(s, &lo, false, err) < 0 || list_offsets(s, &hi, true, err) < 0) return -1;
    if (k->starting == KAFKA_START_EARLIEST) res = lo;
    else if (k->starting == KAFKA_START_LATEST) res = hi;
    else if (resolve_specific(s, &parts, &lo, &hi, a, &res, err) < 0) return -1;
    *out = kafka_offsets_json(&res, a);
    return 0;
}

/* Reads `dir`/0: 1 with the JSON in *json, 0 when absent, -1. */
static int initial_read(const char *dir, sl_arena_t *a, const char **json, sl_error_t *err)
{
    char *path = conn_path_join(a, dir, "0");
    sl_buf_t b = SL_BUF_INIT;
    int rc = sl_fs_read_file(path, &b, err);
    if (rc > 0) {
        size_t skip = b.len && b.data[0] == 0 ? 1 : 0; /* Spark's leading zero byte */
        kafka_offsets_t o;
        if (b.len < skip + 3 || memcmp(b.data + skip, "v1\n", 3) ||
            kafka_offsets_parse(b.data + skip + 3, "initial offsets", 0, a, &o, err) < 0)
            rc = sl_error_set(err, SL_ERR_IO_ERROR, "malformed kafka initial offsets file \"%s\"",
                              path);
        else *json = sl_strdup(a, b.data + skip + 3);
    }
    sl_buf_free(&b);
    return rc;
}

static int initial_write(const char *dir, const char *json, sl_error_t *err)
{
    sl_buf_t b = SL_BUF_INIT;
    sl_buf_putc(&b, 0);
    sl_buf_puts(&b, "v1\n");
    sl_buf_puts(&b, json);
    int rc = sl_fs_mkdirs(dir, 0755, err) < 0
                 ? -1
                 : sl_fs_write_file(dir, "0", b.data, b.len, 0, NULL, NULL, err);
    sl_buf_free(&b);
    return rc;
}

static int kafka_initial(source_t *s, sl_arena_t *a, const char **out, sl_error_t *err)
{
    kafka_src_t *k = s->impl;
    if (!k->initial) {
        const char *json = NULL;
        int rc = s->dir ? initial_read(s->dir, a, &json, err) : 0;
        if (rc < 0) return -1;
        if (rc == 0 && (resolve_initial(s, a, &json, err) < 0 ||
                        (s->dir && initial_write(s->dir, json, err) < 0)))
            return -1;
        if (rc == 0) SL_INFO("source.kafka", "query=%s initial offsets %s", s->query_name, json);
        k->initial = sl_strdup(k->keep, json);
    }
    *out = sl_strdup(a, k->initial);
    return 0;
}

/* ---- the watcher ------------------------------------------------------------------------- */

static rd_kafka_t *consumer_new(const source_t *s, const char *role, bool eof, sl_arena_t *a,
                                sl_error_t *err);

static void watch_stop(kafka_src_t *k)
{
    for (int i = 0; k->wtopics && i < k->watched.n; i++) {
        rd_kafka_consume_stop(k->wtopics[i], k->watched.v[i].partition);
        rd_kafka_topic_destroy(k->wtopics[i]);
    }
    free(k->wtopics);
    k->wtopics = NULL;
    k->watched.n = 0;
    if (k->wq) rd_kafka_queue_destroy(k->wq);
    k->wq = NULL;
    if (k->rk_watch) rd_kafka_destroy(k->rk_watch);
    k->rk_watch = NULL;
}

static void discard_message(rd_kafka_message_t *m, void *arg)
{
    (void)m;
    (void)arg;
}

/* Empties the pipe, then the queue: what arrives after wakes the query. */
static void watch_drain(kafka_src_t *k)
{
    if (!k->wq) return;
    char buf[64];
    while (read(k->wake[0], buf, sizeof buf) > 0) continue;
    while (rd_kafka_consume_callback_queue(k->wq, 0, discard_message, NULL) > 0) continue;
}

static int wake_pipe(kafka_src_t *k)
{
    if (k->wake[0] >= 0) return 0;
    if (pipe2(k->wake, O_NONBLOCK | O_CLOEXEC) < 0) {
        k->wake[0] = k->wake[1] = -1;
        return -1;
    }
    return 0;
}

/* Follows the partitions of `hi` from its offsets. Failing leaves the
 * query polling (change_fd -1), with a warning. */
static void watch_start(source_t *s, const kafka_offsets_t *hi)
{
    kafka_src_t *k = s->impl;
    sl_error_t err;
    watch_stop(k);
    sl_arena_reset(k->watch_arena);
    if (!hi->n || wake_pipe(k) < 0 ||
        !(k->rk_watch = consumer_new(s, "watch", false, k->watch_arena, &err)))
        return;
    k->wq = rd_kafka_queue_new(k->rk_watch);
    rd_kafka_queue_io_event_enable(k->wq, k->wake[1], "w", 1);
    k->watched = kafka_offsets_copy(hi, k->watch_arena);
    k->wtopics = calloc((size_t)hi->n, sizeof *k->wtopics);
    for (int i = 0; k->wtopics && i < hi->n; i++) {
        const kafka_tp_t *t = &hi->v[i];
        k->wtopics[i] = rd_kafka_topic_new(k->rk_watch, t->topic, NULL);
        if (!k->wtopics[i] ||
            rd_kafka_consume_start_queue(k->wtopics[i], t->partition, t->offset, k->wq) < 0) {
            SL_WARN("source.kafka", "query=%s cannot watch kafka partition %s-%d: %s",
                    s->query_name, t->topic, t->partition, rd_kafka_err2str(rd_kafka_last_error()));
            if (k->wtopics[i]) rd_kafka_topic_destroy(k->wtopics[i]);
            k->watched.n = i;
            watch_stop(k);
            return;
        }
    }
    if (!k->wtopics) watch_stop(k);
}

/* After a listing of the latest offsets `hi`: kept for the watcher's
 * start; a running watcher restarts when the partitions changed. */
static void watch_update(source_t *s, const kafka_offsets_t *hi)
{
    kafka_src_t *k = s->impl;
    sl_arena_reset(k->seen_arena);
    k->seen = kafka_offsets_copy(hi, k->seen_arena);
    if (k->rk_watch && !same_partitions(&k->watched, hi)) watch_start(s, hi);
}

/* The watcher starts when a query first sleeps on it (an idle default
 * trigger, a continuous epoch), from the last listing's offsets; a query
 * that never does (a fixed interval) does not pay for it. */
static int kafka_change_fd(source_t *s)
{
    kafka_src_t *k = s->impl;
    if (!k->rk_watch && k->seen.n) watch_start(s, &k->seen);
    return k->wq ? k->wake[0] : -1;
}

/* ---- latest offsets and read limits -------------------------------------------------------- */

/* Reports partitions of `start` that are gone or whose latest offset is
 * below the start (the topic was recreated). */
static int check_gone(source_t *s, const kafka_offsets_t *start, const kafka_offsets_t *latest,
                      sl_error_t *err)
{
    for (int i = 0; i < start->n; i++) {
        const kafka_tp_t *t = &start->v[i];
        const kafka_tp_t *l = kafka_offsets_find(latest, t->topic, t->partition);
        if (!l &&
            kafka_data_loss(s, err, "kafka partition %s-%d is gone", t->topic, t->partition) < 0)
            return -1;
        if (l && l->offset < t->offset &&
            kafka_data_loss(s, err,
                            "the latest offset of kafka partition %s-%d went back from %lld "
                            "to %lld",
                            t->topic, t->partition, (long long)t->offset, (long long)l->offset) < 0)
            return -1;
    }
    return 0;
}

/* The latest offsets of the current partitions, bounded by AVAILABLE NOW. */
static int latest_offsets(source_t *s, sl_arena_t *a, kafka_offsets_t *out, sl_error_t *err)
{
    kafka_src_t *k = s->impl;
    if (current_partitions(s, false, a, out, err) < 0 || list_offsets(s, out, true, err) < 0)
        return -1;
    if (!k->has_cap) return 0;
    int n = 0;
    for (int i = 0; i < out->n; i++) {
        const kafka_tp_t *c = kafka_offsets_find(&k->cap, out->v[i].topic, out->v[i].partition);
        if (!c) continue;
        out->v[n] = out->v[i];
        if (out->v[n].offset > c->offset) out->v[n].offset = c->offset;
        n++;
    }
    out->n = n;
    return 0;
}

/* minOffsetsPerTrigger: true when the batch waits (Spark's delayBatch). */
static bool delay_batch(source_t *s, const kafka_offsets_t *start, const kafka_offsets_t *latest)
{
    kafka_src_t *k = s->impl;
    int64_t now = s->now_ms();
    if (k->last_trigger_ms < 0) k->last_trigger_ms = now; /* the first trigger starts the wait */
    if (now - k->last_trigger_ms >= k->max_delay_ms) {
        k->last_trigger_ms = now;
        return false;
    }
    double avail = 0;
    for (int i = 0; i < latest->n; i++) {
        const kafka_tp_t *t = kafka_offsets_find(start, latest->v[i].topic, latest->v[i].partition);
        avail += (double)(latest->v[i].offset - (t ? t->offset : 0));
    }
    if (avail < (double)k->min_offsets) return true;
    k->last_trigger_ms = now;
    return false;
}

/* maxOffsetsPerTrigger: Spark's rateLimit over `latest` into *end (in `a`). */
static int rate_limit(source_t *s, const kafka_offsets_t *start, const kafka_offsets_t *latest,
                      sl_arena_t *a, kafka_offsets_t *end, sl_error_t *err)
{
    const kafka_src_t *k = s->impl;
    kafka_offsets_t fresh = offsets_minus(latest, start, a);
    if (fresh.n && list_offsets(s, &fresh, false, err) < 0) return -1;
    int64_t *size = SL_NEW_ARRAY(a, int64_t, latest->n ? latest->n : 1);
    int64_t *begin = SL_NEW_ARRAY(a, int64_t, latest->n ? latest->n : 1);
    double total = 0;
    for (int i = 0; i < latest->n; i++) {
        const kafka_tp_t *l = &latest->v[i];
        const kafka_tp_t *b = kafka_offsets_find(start, l->topic, l->partition);
        if (!b) b = kafka_offsets_find(&fresh, l->topic, l->partition);
        begin[i] = b ? b->offset : l->offset;
        size[i] = l->offset - begin[i] > 0 ? l->offset - begin[i] : 0;
        total += (double)size[i];
    }
    *end = kafka_offsets_copy(latest, a);
    if (total < 1) return 0;
    for (int i = 0; i < latest->n; i++) {
        if (!size[i]) continue;
        double prorate = (double)k->max_offsets * ((double)size[i] / total);
        int64_t take = (int64_t)(prorate < 1 ? ceil(prorate) : floor(prorate));
        int64_t off = take > INT64_MAX - begin[i] ? INT64_MAX : begin[i] + take;
        if (off < end->v[i].offset) end->v[i].offset = off;
    }
    return 0;
}

static int kafka_latest(source_t *s, const char *start, source_limit_t limit, sl_arena_t *a,
                        const char **end, const char **latest, sl_error_t *err)
{
    kafka_src_t *k = s->impl;
    kafka_offsets_t from, hi, to;
    rd_kafka_poll(k->rk, 0); /* serves the clients' error events */
    rd_kafka_poll(k->rk_meta, 0);
    watch_drain(k);
    if (kafka_offsets_parse(start, "start offset", 0, a, &from, err) < 0 ||
        latest_offsets(s, a, &hi, err) < 0 || check_gone(s, &from, &hi, err) < 0)
        return -1;
    if (!k->has_cap) watch_update(s, &hi);
    *latest = kafka_offsets_json(&hi, a);
    to = hi;
    if (limit != SOURCE_LIMIT_ALL && k->min_offsets && delay_batch(s, &from, &hi)) {
        *end = start;
        return 0;
    }
    if (limit != SOURCE_LIMIT_ALL && k->max_offsets && rate_limit(s, &from, &hi, a, &to, err) < 0)
        return -1;
    *end = kafka_offsets_json(&to, a);
    return 0;
}

static int kafka_available_now(source_t *s, sl_error_t *err)
{
    kafka_src_t *k = s->impl;
    kafka_offsets_t hi;
    sl_arena_reset(k->cap_arena);
    k->has_cap = false;
    if (current_partitions(s, true, k->cap_arena, &hi, err) < 0 ||
        list_offsets(s, &hi, true, err) < 0)
        return -1;
    k->cap = hi;
    k->has_cap = true;
    return 0;
}

/* ---- planning ------------------------------------------------------------------------------ */

/* The start of every partition new in `end` (its earliest offset, -1 when
 * it is gone), with Spark's data loss reports. */
static int new_partitions(source_t *s, const kafka_offsets_t *start, const kafka_offsets_t *end,
                          sl_arena_t *a, kafka_offsets_t *out, sl_error_t *err)
{
    kafka_src_t *k = s->impl;
    *out = offsets_minus(end, start, a);
    if (kafka_list_offsets(k->rk_meta, out, false, NULL, err) < 0) return -1;
    for (int i = 0; i < out->n; i++) {
        const kafka_tp_t *t = &out->v[i];
        if (t->offset < 0 && kafka_data_loss(s, err,
                                             "cannot find the earliest offset of new kafka "
                                             "partition %s-%d",
                                             t->topic, t->partition) < 0)
            return -1;
        if (t->offset > 0 && kafka_data_loss(s, err,
                                             "new kafka partition %s-%d starts at offset "
                                             "%lld instead of 0",
                                             t->topic, t->partition, (long long)t->offset) < 0)
            return -1;
    }
    return 0;
}

static void add_split(sl_arena_t *a, const kafka_tp_t *t, int64_t from, source_split_t *splits,
                      int *n)
{
    kafka_split_t *sp = SL_NEW(a, kafka_split_t);
    *sp = (kafka_split_t){t->topic, t->partition, from, t->offset};
    splits[*n] = (source_split_t){*n, sp};
    (*n)++;
}

static int kafka_plan(source_t *s, int64_t batch_id, const char *start, const char *end,
                      sl_arena_t *a, source_split_t **splits, int *nsplits, sl_error_t *err)
{
    (void)batch_id;
    kafka_offsets_t from, to, fresh;
    *splits = NULL;
    *nsplits = 0;
    if (kafka_offsets_parse(start, "start offset", 0, a, &from, err) < 0 ||
        kafka_offsets_parse(end, "end offset", 0, a, &to, err) < 0 ||
        new_partitions(s, &from, &to, a, &fresh, err) < 0)
        return -1;
    kafka_offsets_t gone = offsets_minus(&from, &to, a);
    for (int i = 0; i < gone.n; i++)
        if (kafka_data_loss(s, err, "kafka partition %s-%d is gone", gone.v[i].topic,
                            gone.v[i].partition) < 0)
            return -1;
    *splits = SL_NEW_ARRAY(a, source_split_t, to.n ? to.n : 1);
    for (int i = 0; i < to.n; i++) {
        const kafka_tp_t *t = &to.v[i];
        const kafka_tp_t *f = kafka_offsets_find(&from, t->topic, t->partition);
        if (!f) f = kafka_offsets_find(&fresh, t->topic, t->partition);
        if (!f || f->offset < 0) continue;
        if (t->offset < f->offset &&
            kafka_data_loss(s, err,
                            "the offset of kafka partition %s-%d went back from %lld to "
                            "%lld",
                            t->topic, t->partition, (long long)f->offset, (long long)t->offset) < 0)
            return -1;
        if (t->offset > f->offset) add_split(a, t, f->offset, *splits, nsplits);
    }
    return 0;
}

/* ---- progress ------------------------------------------------------------------------------- */

static void kafka_describe(source_t *s, sl_buf_t *out)
{
    const kafka_src_t *k = s->impl;
    sl_buf_puts(out, k->is_assign ? "KafkaV2[Assign[" : "KafkaV2[Subscribe[");
    int n = k->is_assign ? k->assign.n : k->ntopics;
    for (int i = 0; i < n; i++) {
        if (i) sl_buf_puts(out, ", ");
        if (k->is_assign)
            sl_buf_printf(out, "%s-%d", k->assign.v[i].topic, k->assign.v[i].partition);
        else sl_buf_puts(out, k->topics[i]);
    }
    sl_buf_puts(out, "]]");
}

/* Spark's offsets-behind-latest trio: per partition of `latest`, latest
 * minus the batch's end, as strings (the average as Java prints a double);
 * then the malformed-record figures. */
static void kafka_metrics(source_t *s, const char *end, const char *latest, sl_buf_t *out)
{
    const kafka_src_t *k = s->impl;
    if (!end || !latest) {
        conn_metric_bad_records(s, k->bad, out);
        return;
    }
    sl_arena_t *tmp = sl_arena_new("kafka metrics");
    kafka_offsets_t e, l;
    sl_error_t err;
    if (kafka_offsets_parse(end, "end", 0, tmp, &e, &err) == 0 &&
        kafka_offsets_parse(latest, "latest", 0, tmp, &l, &err) == 0 && l.n) {
        int64_t lo = INT64_MAX, hi = INT64_MIN, n = 0;
        double sum = 0;
        for (int i = 0; i < l.n; i++) {
            const kafka_tp_t *t = kafka_offsets_find(&e, l.v[i].topic, l.v[i].partition);
            int64_t behind = l.v[i].offset - (t ? t->offset : 0);
            lo = behind < lo ? behind : lo;
            hi = behind > hi ? behind : hi;
            sum += (double)behind;
            n++;
        }
        sl_buf_puts(out, "\"avgOffsetsBehindLatest\":\"");
        sl_json_format_double(out, sum / (double)n);
        sl_buf_printf(out,
                      "\",\"maxOffsetsBehindLatest\":\"%lld\",\"minOffsetsBehindLatest\":"
                      "\"%lld\"",
                      (long long)hi, (long long)lo);
    }
    sl_arena_free(tmp);
    conn_metric_bad_records(s, k->bad, out);
}

static void kafka_destroy(source_t *s)
{
    kafka_src_t *k = s->impl;
    if (!k) return;
    watch_stop(k);
    for (int i = 0; i < 2; i++)
        if (k->wake[i] >= 0) close(k->wake[i]);
    sl_arena_free(k->watch_arena);
    sl_arena_free(k->seen_arena);
    if (k->rk) rd_kafka_destroy(k->rk);
    if (k->rk_meta) rd_kafka_destroy(k->rk_meta);
    format_bad_records_close(k->bad);
    sl_arena_free(k->parts_arena);
    sl_arena_free(k->cap_arena);
    sl_arena_free(k->keep);
    s->impl = NULL;
}

static const source_ops_t kafka_ops = {
    .name = "kafka",
    .reports_latest = 1,
    .initial_offset = kafka_initial,
    .latest_offset = kafka_latest,
    .prepare_available_now = kafka_available_now,
    .plan = kafka_plan,
    .read_split = kafka_read_split,
    .change_fd = kafka_change_fd,
    .describe = kafka_describe,
    .metrics = kafka_metrics,
    .destroy = kafka_destroy,
};

/* ---- creation ------------------------------------------------------------------------------- */

/* A consumer handle of the source (`role` names it in the client id;
 * `eof`: end-of-partition events, which end a split whose last offsets are
 * transaction markers, and mark the reading handles; the watcher has
 * none). A fetch with less than fetch.min.bytes (1) waits at most
 * fetch.wait.max.ms: 1 ms for the reading handles, which fetch only while a
 * split is read (librdkafka's mock broker holds a short fetch that long),
 * 10 ms for the watcher, which fetches all the time (a real broker answers
 * its waiting fetch as soon as data arrives). kafka.fetch.wait.max.ms sets
 * both. */
static rd_kafka_t *consumer_new(const source_t *s, const char *role, bool eof, sl_arena_t *a,
                                sl_error_t *err)
{
    const char *client = sl_printf(a, "sluice-%s-source%d-%s", s->query_name, s->index, role);
    const char *const defaults[] = {"client.id",
                                    client,
                                    "queued.min.messages",
                                    "20000",
                                    "fetch.wait.max.ms",
                                    eof ? "1" : "10",
                                    "fetch.min.bytes",
                                    "1",
                                    NULL};
    const char *const forced[] = {"enable.partition.eof",
                                  eof ? "true" : "false",
                                  "enable.auto.commit",
                                  "false",
                                  "enable.auto.offset.store",
                                  "false",
                                  "auto.offset.reset",
                                  "earliest",
                                  NULL};
    rd_kafka_conf_t *conf = kafka_conf_new(s->rel->opts, s->rel->nopts, defaults, forced, err);
    if (!conf) return NULL;
    char why[512];
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, why, sizeof why);
    if (!rk) {
        rd_kafka_conf_destroy(conf);
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "could not create a kafka consumer");
        sl_error_detail(err, "librdkafka: %s.", why);
    }
    return rk;
}

int source_kafka_create(source_t *s, sl_arena_t *a, sl_error_t *err)
{
    const conn_stream_t *rel = s->rel;
    kafka_src_t *k = SL_NEW(a, kafka_src_t);
    if (src_options(rel, a, k, err) < 0) return -1;
    if (!raw_columns(rel, k) &&
        !(k->dec = format_decoder_new(&k->fmt, rel->ncols, rel->col_names, rel->col_types, a, err)))
        return -1;
    if (!(k->rk = consumer_new(s, "read", true, a, err))) return -1;
    if (!(k->rk_meta = consumer_new(s, "meta", true, a, err))) {
        rd_kafka_destroy(k->rk);
        k->rk = NULL;
        return -1;
    }
    if (k->fmt.bad_records_dir)
        k->bad = format_bad_records_open(
            k->fmt.bad_records_dir, sl_printf(a, "%s-source%d.json", s->query_name, s->index),
            k->fmt.bad_records_max_bytes, k->fmt.bad_records_max_files);
    k->keep = sl_arena_new("kafka source");
    k->parts_arena = sl_arena_new("kafka partitions");
    k->cap_arena = sl_arena_new("kafka available now");
    k->watch_arena = sl_arena_new("kafka watcher");
    k->seen_arena = sl_arena_new("kafka seen offsets");
    k->wake[0] = k->wake[1] = -1;
    k->parts_ms = -1;
    k->last_trigger_ms = -1;
    s->impl = k;
    s->ops = &kafka_ops;
    return 0;
}
