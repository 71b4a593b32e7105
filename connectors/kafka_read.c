/* Reading one split of the Kafka source: exactly the offsets [start, end)
 * of one partition, decoded into batches of the stream's columns.
 *
 * Every split uses the source's reading consumer handle with librdkafka's
 * per-partition consumer (consume_start on a queue of its own), so splits
 * of different partitions run concurrently on worker threads without a
 * consumer group. Messages are served by callback straight from
 * librdkafka's buffers: the raw columns and the record decoder copy what
 * they keep into the batch arena; nothing is allocated per message here.
 *
 * The split is done when the message at end - 1 has been read, or when the
 * partition's end (EOF) is at or past `end` (the last offsets may be
 * transaction markers or compacted away). Offsets past `end` that the
 * client prefetched are ignored, so the rows of a split depend only on
 * (start, end) and the log: a replay reads the same rows.
 *
 * Gaps: offsets below the partition's log start (deleted by retention) are
 * possible data loss, reported through kafka_data_loss (fail, or warn and
 * continue from what is left); other gaps (compaction, transaction
 * markers) are normal. A partition whose end stays below `end`, or that
 * is gone, is data loss too. A split that makes no progress for
 * KAFKA_STALL_MS fails with 08006. */
#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "common/log.h"
#include "connectors/kafka_int.h"

/* No message or event for this long: the split fails. */
#define KAFKA_STALL_MS 60000
/* The partition's end stays below the split's end for this long: data loss. */
#define KAFKA_SHORT_MS 10000
/* One wait for messages. */
#define KAFKA_POLL_MS 100

/* The state of one split's read (on the reading thread's stack). */
typedef struct reader {
    source_t *s;             /* the source */
    const kafka_src_t *k;    /* its options and handles */
    const kafka_split_t *sp; /* the range read */
    sl_arena_t *a;           /* batches are built here */
    source_emit_fn emit;     /* receives each batch */
    void *emit_arg;
    format_reader_t fr; /* json/csv records */
    exec_builder_t bld; /* raw columns */
    bool building;      /* bld holds an unfinished batch */
    format_pos_t pos;   /* "topic partition", "t-0", "offset", n */
    int64_t next;       /* next offset expected */
    int64_t eof_at;     /* the partition's end at the last EOF event, -1 */
    bool done;          /* the range is read */
    bool failed;        /* *err is set */
    sl_error_t *err;    /* the caller's error */
} reader_t;

/* ---- raw columns ---------------------------------------------------------- */

static int raw_flush(reader_t *r)
{
    if (!r->building || !r->bld.batch->nrows) return 0;
    r->building = false;
    return r->emit(r->emit_arg, exec_builder_finish(&r->bld), r->err);
}

static void set_bytes(exec_builder_t *b, int col, uint32_t row, const void *p, size_t n)
{
    if (col < 0) return;
    if (p) exec_builder_set_str(b, col, row, p, n);
    else exec_builder_set_null(b, col, row);
}

static int raw_row(reader_t *r, const rd_kafka_message_t *m)
{
    const int *c = r->k->raw_cols;
    if (!r->building) {
        int64_t left = r->sp->end - m->offset;
        uint32_t cap = left < EXEC_BATCH_ROWS ? (uint32_t)left : EXEC_BATCH_ROWS;
        exec_builder_init(&r->bld, r->a, r->s->rel->ncols, r->s->rel->col_types, cap);
        r->building = true;
    }
    exec_builder_t *b = &r->bld;
    uint32_t row = exec_builder_add_row(b);
    set_bytes(b, c[KAFKA_COL_KEY], row, m->key, m->key_len);
    set_bytes(b, c[KAFKA_COL_VALUE], row, m->payload, m->len);
    set_bytes(b, c[KAFKA_COL_TOPIC], row, r->sp->topic, strlen(r->sp->topic));
    if (c[KAFKA_COL_PARTITION] >= 0)
        exec_builder_set_int(b, c[KAFKA_COL_PARTITION], row, m->partition);
    if (c[KAFKA_COL_OFFSET] >= 0) exec_builder_set_bigint(b, c[KAFKA_COL_OFFSET], row, m->offset);
    int64_t ts = rd_kafka_message_timestamp(m, NULL);
    if (c[KAFKA_COL_TIMESTAMP] >= 0 && ts >= 0)
        exec_builder_set_bigint(b, c[KAFKA_COL_TIMESTAMP], row, ts * 1000);
    else if (c[KAFKA_COL_TIMESTAMP] >= 0) exec_builder_set_null(b, c[KAFKA_COL_TIMESTAMP], row);
    return b->batch->nrows >= EXEC_BATCH_ROWS ? raw_flush(r) : 0;
}

/* ---- messages ---------------------------------------------------------------- */

/* A jump from the expected offset to `off` (a message or the partition's
 * end): data loss when the log now starts after the expected offset. */
static int check_gap(reader_t *r, int64_t off)
{
    int64_t lo = -1, hi = -1;
    rd_kafka_get_watermark_offsets(r->k->rk, r->sp->topic, r->sp->partition, &lo, &hi);
    if (lo < 0 && rd_kafka_query_watermark_offsets(r->k->rk_meta, r->sp->topic, r->sp->partition,
                                                   &lo, &hi, KAFKA_QUERY_TIMEOUT_MS))
        lo = -1;
    if (lo <= r->next) return 0;
    int64_t last = (lo < off ? lo : off) - 1;
    if (last >= r->sp->end) last = r->sp->end - 1;
    return kafka_data_loss(r->s, r->err,
                           "offsets %lld to %lld of kafka partition %s-%d were "
                           "deleted before they were read",
                           (long long)r->next, (long long)last, r->sp->topic, r->sp->partition);
}

static int data_row(reader_t *r, const rd_kafka_message_t *m)
{
    if (!r->k->dec) return raw_row(r, m);
    if (!m->payload) return 0; /* a tombstone has no record to decode */
    r->pos.at = m->offset;
    return format_reader_record(&r->fr, m->payload, m->len, &r->pos, r->err);
}

/* An event (error or end of partition) delivered among the messages. */
static void on_event(reader_t *r, const rd_kafka_message_t *m)
{
    rd_kafka_resp_err_t e = m->err;
    if (e == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        r->eof_at = m->offset;
        if (m->offset > r->next && check_gap(r, m->offset) < 0) r->failed = true;
        else if (m->offset >= r->sp->end) r->done = true;
        return;
    }
    if (e == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART || e == RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION ||
        e == RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC) {
        if (kafka_data_loss(r->s, r->err,
                            "kafka partition %s-%d is gone (offsets %lld to %lld not "
                            "read)",
                            r->sp->topic, r->sp->partition, (long long)r->next,
                            (long long)r->sp->end - 1) < 0)
            r->failed = true;
        r->done = true;
        return;
    }
    SL_DEBUG("source.kafka", "partition=%s-%d event: %s", r->sp->topic, r->sp->partition,
             rd_kafka_message_errstr(m));
}

static void on_message(rd_kafka_message_t *m, void *arg)
{
    reader_t *r = arg;
    if (r->done || r->failed) return;
    if (m->err) {
        on_event(r, m);
        return;
    }
    if (m->offset < r->next) return;
    if (m->offset > r->next && check_gap(r, m->offset) < 0) {
        r->failed = true;
        return;
    }
    if (m->offset >= r->sp->end) {
        r->done = true;
        return;
    }
    if (data_row(r, m) < 0) {
        r->failed = true;
        return;
    }
    r->next = m->offset + 1;
    if (r->next >= r->sp->end) r->done = true;
}

/* ---- the split ------------------------------------------------------------------ */

/* No progress for a while: the partition ends early (data loss) or the
 * brokers do not answer. */
static int stalled(reader_t *r, int64_t idle_ms)
{
    if (r->eof_at >= 0 && r->eof_at < r->sp->end && idle_ms >= KAFKA_SHORT_MS) {
        if (kafka_data_loss(r->s, r->err,
                            "kafka partition %s-%d ends at offset %lld, before the "
                            "batch's end offset %lld",
                            r->sp->topic, r->sp->partition, (long long)r->eof_at,
                            (long long)r->sp->end) < 0)
            return -1;
        r->done = true;
        return 0;
    }
    if (idle_ms < KAFKA_STALL_MS) return 0;
    return kafka_error(r->err, RD_KAFKA_RESP_ERR__TIMED_OUT,
                       "no data from kafka partition %s-%d "
                       "for %d seconds (offset %lld of [%lld, %lld))",
                       r->sp->topic, r->sp->partition, KAFKA_STALL_MS / 1000, (long long)r->next,
                       (long long)r->sp->start, (long long)r->sp->end);
}

/* Serves the queue until the split is read. */
static int consume(reader_t *r, rd_kafka_queue_t *q)
{
    int64_t last = sl_mono_ms();
    while (!r->done && !r->failed) {
        int got = rd_kafka_consume_callback_queue(q, KAFKA_POLL_MS, on_message, r);
        int64_t now = sl_mono_ms();
        if (got > 0) last = now;
        else if (stalled(r, now - last) < 0) return -1;
    }
    return r->failed ? -1 : 0;
}

int kafka_read_split(source_t *s, const source_split_t *split, sl_arena_t *a, source_emit_fn emit,
                     void *emit_arg, sl_error_t *err)
{
    const kafka_src_t *k = s->impl;
    const kafka_split_t *sp = split->data;
    reader_t r = {.s = s,
                  .k = k,
                  .sp = sp,
                  .a = a,
                  .emit = emit,
                  .emit_arg = emit_arg,
                  .next = sp->start,
                  .eof_at = -1,
                  .err = err};
    r.pos = (format_pos_t){"topic partition", sl_printf(a, "%s-%d", sp->topic, sp->partition),
                           "offset", sp->start};
    if (k->dec) {
        format_reader_init(&r.fr, k->dec, a, emit, emit_arg);
        r.fr.malformed = &s->malformed;
        r.fr.dropped = &s->dropped;
        r.fr.bad = k->bad;
    }
    rd_kafka_topic_t *rkt = rd_kafka_topic_new(k->rk, sp->topic, NULL);
    rd_kafka_queue_t *q = rd_kafka_queue_new(k->rk);
    int rc = -1;
    if (!rkt || rd_kafka_consume_start_queue(rkt, sp->partition, sp->start, q) < 0)
        kafka_error(err, rd_kafka_last_error(), "could not start reading kafka partition %s-%d",
                    sp->topic, sp->partition);
    else {
        rc = consume(&r, q);
        rd_kafka_consume_stop(rkt, sp->partition);
    }
    if (rc == 0) rc = k->dec ? format_reader_flush(&r.fr, err) : raw_flush(&r);
    if (k->dec) format_reader_done(&r.fr);
    rd_kafka_queue_destroy(q);
    if (rkt) rd_kafka_topic_destroy(rkt);
    return rc;
}
