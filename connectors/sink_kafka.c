/* The Kafka sink: each result row becomes one message of `topic`, its
 * `value` column (STRING or BINARY) the payload, an optional `key` column
 * the key and an optional `partition` INT column the partition (NULL or
 * absent: librdkafka's partitioner). Works in every output mode.
 *
 * At-least-once (default): add_batch produces every row asynchronously
 * (idempotent producer, so the client's own retries add no duplicates),
 * then waits for every delivery report; any failed delivery fails the
 * batch, which the query re-runs after a restart. A crash after delivery
 * but before the checkpoint commits the batch re-sends it: duplicates, no
 * loss.
 *
 * Exactly-once ('exactlyOnce' 'true'): one Kafka transaction per batch,
 * with transactional.id "sluice-<query id>" (the id of the checkpoint's
 * metadata, stable across restarts, so a restarted query fences the
 * process it replaces; `kafka.transactional.id` overrides it). Every
 * message carries the headers sluice.batch (the batch id) and sluice.txn
 * (the transactional id). The sink records its progress in the
 * checkpoint, `<checkpoint>/sink/batch`:
 *   v1\n{"transactionalId":..,"batchId":N,"status":"pending"|"committed",
 *        "topic":..,"partition":P,"offset":O}
 * where (P, O) is where the first message of batch N landed. add_batch(N):
 *   begin; produce; wait for every delivery; write the record "pending";
 *   [failpoint sink.kafka.before_commit] commit the transaction;
 *   [failpoint sink.kafka.after_commit] write the record "committed".
 * The runner replays only the newest batch after a crash, so the first
 * add_batch(N) of a process decides whether N is already in Kafka:
 *   - no record for N, or another transactional id: write it;
 *   - "committed": skip it;
 *   - "pending" (the crash came between the two writes): initialise the
 *     transactional producer (this fences the old one and makes the broker
 *     finish its transaction, committed or aborted), then read the message
 *     at (P, O) with isolation.level=read_committed: visible and carrying
 *     sluice.batch = N, the transaction committed (skip); not visible, it
 *     was aborted (write the batch again).
 * A batch without rows writes nothing and starts no transaction.
 *
 * librdkafka's mock cluster accepts transactions but shows aborted messages
 * to read_committed readers, so against it a "pending" batch always reads
 * as committed; the decision above is right against a real broker. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "common/clock.h"
#include "common/json_write.h"
#include "common/log.h"
#include "connectors/conn_int.h"
#include "connectors/kafka_int.h"
#include "common/failpoint.h"

/* Longest wait for delivery reports and transaction calls. */
#define KAFKA_SINK_TIMEOUT_MS 120000

/* kafka.* options the sink sets itself (transactional.id: see validate). */
static const char *const sink_forbidden[] = {"dr_msg_cb", NULL};

typedef struct kafka_sink {
    const char *topic;                     /* the topic option */
    bool exactly_once;                     /* the exactlyOnce option */
    int col_value, col_key, col_partition; /* result columns, -1 when absent */
    const char *checkpoint;                /* exactlyOnce: the query's checkpoint directory */
    const char *state_dir;                 /* exactlyOnce: where the batch record lives */
    const char *txn_id;                    /* exactlyOnce: decided at the first add_batch */
    rd_kafka_t *rk;                        /* the producer, created at the first add_batch */
    rd_kafka_topic_t *rkt;                 /* the topic's handle on rk */
    bool txn_ready;                        /* init_transactions done */
    bool checked;                          /* the first add_batch's replay decision was made */
    sl_arena_t *keep;                      /* lives as long as the sink */
    /* delivery reports of the batch being written (served on the driver thread) */
    int64_t delivered, failed;     /* messages acknowledged / failed */
    rd_kafka_resp_err_t first_err; /* the first failure's error */
    int32_t first_part;            /* where the batch's first message landed, -1 */
    int64_t first_off;             /* its offset (the lowest delivered in first_part) */
} kafka_sink_t;

/* ---- validation -------------------------------------------------------------------- */

/* Column `name` of the result: its index or -1; 42804 when its type is not
 * one of `a` / `b`. */
static int result_column(const sink_schema_t *sc, const char *name, exec_type_id_t a,
                         exec_type_id_t b, int *out, sl_error_t *err)
{
    *out = -1;
    for (int i = 0; i < sc->ncols; i++) {
        if (strcasecmp(sc->names[i], name)) continue;
        if (sc->types[i].id != a && sc->types[i].id != b) {
            sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                         "column \"%s\" of a kafka sink must be %s%s%s, "
                         "not %s",
                         name, exec_type_pg_name(exec_type_of(a)), a != b ? " or " : "",
                         a != b ? exec_type_pg_name(exec_type_of(b)) : "",
                         exec_type_pg_name(sc->types[i]));
            return sl_error_hint(err, "Cast it, e.g. CAST(x AS STRING) AS %s, or use to_json(...).",
                                 name);
        }
        *out = i;
    }
    return 0;
}

static int sink_columns(const sink_schema_t *sc, kafka_sink_t *k, sl_error_t *err)
{
    if (result_column(sc, "value", EXEC_TYPE_STRING, EXEC_TYPE_BINARY, &k->col_value, err) < 0 ||
        result_column(sc, "key", EXEC_TYPE_STRING, EXEC_TYPE_BINARY, &k->col_key, err) < 0 ||
        result_column(sc, "partition", EXEC_TYPE_INT, EXEC_TYPE_INT, &k->col_partition, err) < 0)
        return -1;
    if (k->col_value >= 0) return 0;
    sl_error_set(err, SL_ERR_UNDEFINED_COLUMN, "a kafka sink needs a column named \"value\"");
    return sl_error_hint(err, "Name the message payload: SELECT to_json(struct(...)) AS value, or "
                              "CAST(x AS STRING) AS value; a \"key\" column is optional.");
}

static int sink_options(const conn_kv_t *o, int n, kafka_sink_t *k, sl_error_t *err)
{
    k->topic = conn_option(NULL, o, n, "topic");
    if (!k->topic || !*k->topic)
        return conn_bad_option(err, "topic", k->topic ? k->topic : "", "It must name a topic.");
    k->exactly_once = false;
    if (conn_opt_bool(NULL, o, n, "exactlyOnce", &k->exactly_once, err) < 0 ||
        kafka_conf_check(o, n, sink_forbidden, err) < 0)
        return -1;
    if (!k->exactly_once && kafka_conf_option(o, n, "transactional.id"))
        return conn_bad_option(err, "kafka.transactional.id",
                               kafka_conf_option(o, n, "transactional.id"),
                               "Transactions are used only with 'exactlyOnce' 'true'.");
    return 0;
}

int sink_kafka_validate(const conn_desc_t *desc, output_mode_t mode, const sink_schema_t *schema,
                        const conn_kv_t *opts, int nopts, sl_error_t *err)
{
    (void)desc, (void)mode;
    kafka_sink_t k;
    if (sink_options(opts, nopts, &k, err) < 0) return -1;
    return sink_columns(schema, &k, err);
}

/* ---- the producer --------------------------------------------------------------------- */

static void on_delivery(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque)
{
    (void)rk;
    kafka_sink_t *k = opaque;
    if (m->err) {
        if (!k->failed++) k->first_err = m->err;
        return;
    }
    k->delivered++;
    if (k->first_part < 0) {
        k->first_part = m->partition;
        k->first_off = m->offset;
    } else if (m->partition == k->first_part && m->offset < k->first_off) {
        k->first_off = m->offset;
    }
}

static int producer_new(sink_t *s, sl_error_t *err)
{
    kafka_sink_t *k = s->impl;
    const char *client = sl_printf(k->keep, "sluice-%s-sink", s->query_name);
    const char *const defaults[] = {"client.id", client, "enable.idempotence", "true", NULL};
    const char *const txn[] = {"transactional.id", k->txn_id, NULL};
    bool own_txn = k->exactly_once && !kafka_conf_option(s->opts, s->nopts, "transactional.id");
    rd_kafka_conf_t *conf = kafka_conf_new(s->opts, s->nopts, defaults, own_txn ? txn : NULL, err);
    if (!conf) return -1;
    rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
    rd_kafka_conf_set_opaque(conf, k);
    char why[512];
    if (!(k->rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, why, sizeof why))) {
        rd_kafka_conf_destroy(conf);
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "could not create a kafka producer");
        return sl_error_detail(err, "librdkafka: %s.", why);
    }
    k->rkt = rd_kafka_topic_new(k->rk, k->topic, NULL);
    return 0;
}

static void producer_drop(kafka_sink_t *k)
{
    if (k->rkt) rd_kafka_topic_destroy(k->rkt);
    if (k->rk) rd_kafka_destroy(k->rk);
    k->rkt = NULL;
    k->rk = NULL;
    k->txn_ready = false;
}

/* Turns a transaction error into err (08006); a fatal one drops the
 * producer (a new one is made at the next batch). */
static int txn_error(kafka_sink_t *k, rd_kafka_error_t *e, const char *what, sl_error_t *err)
{
    sl_error_set(err, SL_ERR_CONNECTION_FAILURE, "kafka transaction failed to %s: %s", what,
                 rd_kafka_error_string(e));
    sl_error_detail(err, "Transactional id \"%s\".", k->txn_id);
    bool fatal = rd_kafka_error_is_fatal(e);
    rd_kafka_error_destroy(e);
    if (fatal) producer_drop(k);
    return -1;
}

/* The producer, with init_transactions done in exactlyOnce mode. */
static int producer_ready(sink_t *s, sl_error_t *err)
{
    kafka_sink_t *k = s->impl;
    if (!k->rk && producer_new(s, err) < 0) return -1;
    if (!k->exactly_once || k->txn_ready) return 0;
    rd_kafka_error_t *e = rd_kafka_init_transactions(k->rk, KAFKA_SINK_TIMEOUT_MS);
    if (e) return txn_error(k, e, "initialise", err);
    k->txn_ready = true;
    return 0;
}

/* ---- producing ------------------------------------------------------------------------ */

/* The bytes of a STRING/BINARY cell, NULL for a NULL. */
static const char *cell_bytes(const exec_batch_t *b, int col, uint32_t row, size_t *n)
{
    *n = 0;
    if (col < 0 || exec_vec_is_null(&b->cols[col], row)) return NULL;
    exec_str_t v = EXEC_VEC_AT(&b->cols[col], exec_str_t, row);
    *n = v.len;
    return v.ptr ? v.ptr : "";
}

static rd_kafka_resp_err_t produce_once(kafka_sink_t *k, const exec_batch_t *b, uint32_t row,
                                        const char *batch_text)
{
    size_t vn, kn;
    const char *v = cell_bytes(b, k->col_value, row, &vn);
    const char *key = cell_bytes(b, k->col_key, row, &kn);
    int32_t part = RD_KAFKA_PARTITION_UA;
    if (k->col_partition >= 0 && !exec_vec_is_null(&b->cols[k->col_partition], row))
        part = EXEC_VEC_AT(&b->cols[k->col_partition], int32_t, row);
    if (!k->exactly_once)
        return rd_kafka_producev(k->rk, RD_KAFKA_V_RKT(k->rkt), RD_KAFKA_V_PARTITION(part),
                                 RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                 RD_KAFKA_V_VALUE((void *)v, vn), RD_KAFKA_V_KEY(key, kn),
                                 RD_KAFKA_V_END);
    return rd_kafka_producev(k->rk, RD_KAFKA_V_RKT(k->rkt), RD_KAFKA_V_PARTITION(part),
                             RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                             RD_KAFKA_V_VALUE((void *)v, vn), RD_KAFKA_V_KEY(key, kn),
                             RD_KAFKA_V_HEADER("sluice.batch", batch_text, -1),
                             RD_KAFKA_V_HEADER("sluice.txn", k->txn_id, -1), RD_KAFKA_V_END);
}

/* Queues one row, waiting for room when the client's queue is full. */
static int produce_row(kafka_sink_t *k, const exec_batch_t *b, uint32_t row, const char *batch_text,
                       sl_error_t *err)
{
    rd_kafka_resp_err_t e;
    int64_t deadline = sl_mono_ms() + KAFKA_SINK_TIMEOUT_MS;
    while ((e = produce_once(k, b, row, batch_text)) == RD_KAFKA_RESP_ERR__QUEUE_FULL &&
           sl_mono_ms() < deadline)
        rd_kafka_poll(k->rk, 50);
    if (e) return kafka_error(err, e, "could not send a message to kafka topic \"%s\"", k->topic);
    return 0;
}

/* Produces every row and waits for every delivery report. */
static int produce_all(kafka_sink_t *k, exec_batch_t *const *batches, int n, int64_t batch_id,
                       int64_t *rows, sl_error_t *err)
{
    char batch_text[24];
    snprintf(batch_text, sizeof batch_text, "%lld", (long long)batch_id);
    k->delivered = k->failed = 0;
    k->first_err = RD_KAFKA_RESP_ERR_NO_ERROR;
    k->first_part = -1;
    *rows = 0;
    for (int i = 0; i < n; i++)
        for (uint32_t j = 0; j < exec_batch_count(batches[i]); j++, (*rows)++)
            if (produce_row(k, batches[i], exec_batch_row(batches[i], j), batch_text, err) < 0)
                return -1;
    int64_t deadline = sl_mono_ms() + KAFKA_SINK_TIMEOUT_MS;
    while (k->delivered + k->failed < *rows && sl_mono_ms() < deadline) rd_kafka_flush(k->rk, 200);
    if (k->failed)
        return kafka_error(err, k->first_err,
                           "%lld of %lld messages could not be delivered to "
                           "kafka topic \"%s\"",
                           (long long)k->failed, (long long)*rows, k->topic);
    if (k->delivered < *rows)
        return kafka_error(err, RD_KAFKA_RESP_ERR__TIMED_OUT,
                           "messages to kafka topic \"%s\" were "
                           "not delivered",
                           k->topic);
    return 0;
}

/* ---- the batch record (exactlyOnce) ------------------------------------------------------ */

/* The sink's record of its newest transaction (the file `batch`). */
typedef struct batch_record {
    const char *txn_id; /* the transactional id that wrote it */
    int64_t batch_id;   /* the batch */
    bool committed;     /* "committed" (else "pending": commit may not have happened) */
    int32_t partition;  /* where the batch's first message landed */
    int64_t offset;
} batch_record_t;

/* Writes the record of batch `batch_id` whose first message is at
 * (k->first_part, k->first_off). */
static int record_write(kafka_sink_t *k, int64_t batch_id, bool committed, sl_error_t *err)
{
    sl_buf_t b = SL_BUF_INIT;
    sl_buf_puts(&b, "v1\n{\"transactionalId\":");
    sl_json_escape(&b, k->txn_id, strlen(k->txn_id));
    sl_buf_printf(&b, ",\"batchId\":%lld,\"status\":\"%s\",\"topic\":", (long long)batch_id,
                  committed ? "committed" : "pending");
    sl_json_escape(&b, k->topic, strlen(k->topic));
    sl_buf_printf(&b, ",\"partition\":%d,\"offset\":%lld}", k->first_part, (long long)k->first_off);
    int rc = sl_fs_mkdirs(k->state_dir, 0755, err) < 0
                 ? -1
                 : sl_fs_write_file(k->state_dir, "batch", b.data, b.len, 0, NULL, NULL, err);
    sl_buf_free(&b);
    return rc;
}

/* Reads the record: 1 with it, 0 when there is none, -1. */
static int record_read(kafka_sink_t *k, sl_arena_t *a, batch_record_t *out, sl_error_t *err)
{
    char *path = conn_path_join(a, k->state_dir, "batch");
    sl_buf_t b = SL_BUF_INIT;
    int rc = sl_fs_read_file(path, &b, err);
    json_t *j =
        rc > 0 && b.len > 3 && !memcmp(b.data, "v1\n", 3) ? json_loads(b.data + 3, 0, NULL) : NULL;
    const char *txn = json_string_value(json_object_get(j, "transactionalId"));
    const char *status = json_string_value(json_object_get(j, "status"));
    if (rc > 0 && (!txn || !status || !json_is_integer(json_object_get(j, "batchId"))))
        rc = sl_error_set(err, SL_ERR_IO_ERROR, "malformed kafka sink record \"%s\"", path);
    else if (rc > 0) {
        *out =
            (batch_record_t){sl_strdup(a, txn), json_integer_value(json_object_get(j, "batchId")),
                             !strcmp(status, "committed"),
                             (int32_t)json_integer_value(json_object_get(j, "partition")),
                             json_integer_value(json_object_get(j, "offset"))};
    }
    json_decref(j);
    sl_buf_free(&b);
    return rc;
}

/* ---- reading back a pending batch ---------------------------------------------------------- */

/* True when message `m` carries header `name` with the text `want`. */
static bool header_is(const rd_kafka_message_t *m, const char *name, const char *want)
{
    rd_kafka_headers_t *h = NULL;
    const void *v;
    size_t n;
    if (rd_kafka_message_headers(m, &h) || rd_kafka_header_get_last(h, name, &v, &n)) return false;
    return n == strlen(want) && !memcmp(v, want, n);
}

/* Reading back the first message of a pending batch. */
typedef struct readback {
    const batch_record_t *rec; /* what to look for */
    const char *txn_id;        /* the sink's transactional id */
    int verdict;               /* -1 undecided, 0 not committed, 1 committed */
} readback_t;

static void on_readback(rd_kafka_message_t *m, void *arg)
{
    readback_t *rb = arg;
    char want[24];
    if (rb->verdict >= 0) return;
    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        if (m->offset > rb->rec->offset) rb->verdict = 0; /* past it: the message is not visible */
        return;
    }
    if (m->err || m->offset < rb->rec->offset) return;
    snprintf(want, sizeof want, "%lld", (long long)rb->rec->batch_id);
    rb->verdict = m->offset == rb->rec->offset && header_is(m, "sluice.batch", want) &&
                  header_is(m, "sluice.txn", rb->txn_id);
}

/* Whether the transaction of the pending record committed: the first
 * message of the batch is visible to a read_committed reader. */
static int readback(sink_t *s, const batch_record_t *rec, bool *committed, sl_error_t *err)
{
    kafka_sink_t *k = s->impl;
    const char *const forced[] = {"isolation.level",
                                  "read_committed",
                                  "enable.partition.eof",
                                  "true",
                                  "enable.auto.commit",
                                  "false",
                                  "auto.offset.reset",
                                  "earliest",
                                  NULL};
    rd_kafka_conf_t *conf = kafka_conf_new(s->opts, s->nopts, NULL, forced, err);
    char why[512];
    rd_kafka_t *rk = conf ? rd_kafka_new(RD_KAFKA_CONSUMER, conf, why, sizeof why) : NULL;
    if (!rk) {
        if (conf) rd_kafka_conf_destroy(conf);
        return conf ? kafka_error(err, RD_KAFKA_RESP_ERR__INVALID_ARG,
                                  "could not create a kafka "
                                  "consumer: %s",
                                  why)
                    : -1;
    }
    rd_kafka_topic_t *rkt = rd_kafka_topic_new(rk, k->topic, NULL);
    rd_kafka_queue_t *q = rd_kafka_queue_new(rk);
    readback_t rb = {rec, k->txn_id, -1};
    int rc = rd_kafka_consume_start_queue(rkt, rec->partition, rec->offset, q);
    int64_t deadline = sl_mono_ms() + KAFKA_SINK_TIMEOUT_MS;
    while (rc == 0 && rb.verdict < 0 && sl_mono_ms() < deadline)
        rd_kafka_consume_callback_queue(q, 100, on_readback, &rb);
    if (rc == 0) rd_kafka_consume_stop(rkt, rec->partition);
    rd_kafka_queue_destroy(q);
    rd_kafka_topic_destroy(rkt);
    rd_kafka_destroy(rk);
    if (rb.verdict < 0)
        return kafka_error(err, RD_KAFKA_RESP_ERR__TIMED_OUT,
                           "could not tell whether batch %lld "
                           "was committed to kafka topic \"%s\"",
                           (long long)rec->batch_id, k->topic);
    *committed = rb.verdict == 1;
    return 0;
}

/* The first add_batch(N) of a process: whether N is already in Kafka. */
static int replayed(sink_t *s, int64_t batch_id, bool *skip, sl_error_t *err)
{
    kafka_sink_t *k = s->impl;
    batch_record_t rec;
    sl_arena_t *tmp = sl_arena_new("kafka sink record");
    *skip = false;
    int rc = record_read(k, tmp, &rec, err);
    if (rc > 0 && rec.batch_id == batch_id && !strcmp(rec.txn_id, k->txn_id)) {
        *skip = rec.committed;
        if (!rec.committed) {
            rc = producer_ready(s, err) < 0 ? -1 : readback(s, &rec, skip, err);
            SL_INFO("sink.kafka", "query=%s batch %lld was pending at the crash: %s", s->query_name,
                    (long long)batch_id,
                    rc < 0  ? "undecided"
                    : *skip ? "committed"
                            : "aborted");
            k->first_part = rec.partition;
            k->first_off = rec.offset;
            if (rc >= 0 && *skip) rc = record_write(k, batch_id, true, err);
        }
    }
    sl_arena_free(tmp);
    return rc < 0 ? -1 : 0;
}

/* ---- add_batch ------------------------------------------------------------------------------ */

static int add_at_least_once(sink_t *s, int64_t batch_id, exec_batch_t *const *batches, int n,
                             const sink_ahead_t *ahead, sl_error_t *err)
{
    kafka_sink_t *k = s->impl;
    int64_t rows;
    if (sink_await_ahead(ahead, err) < 0 || producer_ready(s, err) < 0 ||
        produce_all(k, batches, n, batch_id, &rows, err) < 0)
        return -1;
    s->last_output_rows = rows;
    return 0;
}

static int64_t count_rows(exec_batch_t *const *batches, int n)
{
    int64_t rows = 0;
    for (int i = 0; i < n; i++) rows += exec_batch_count(batches[i]);
    return rows;
}

/* One transaction: begin, produce, (the write-ahead is durable), record
 * "pending", commit, record "committed". */
static int transaction(sink_t *s, int64_t batch_id, exec_batch_t *const *batches, int n,
                       const sink_ahead_t *ahead, int64_t *rows, sl_error_t *err)
{
    kafka_sink_t *k = s->impl;
    rd_kafka_error_t *e = rd_kafka_begin_transaction(k->rk);
    if (e) return txn_error(k, e, "begin", err);
    if (produce_all(k, batches, n, batch_id, rows, err) < 0 || sink_await_ahead(ahead, err) < 0 ||
        record_write(k, batch_id, false, err) < 0) {
        if ((e = rd_kafka_abort_transaction(k->rk, KAFKA_SINK_TIMEOUT_MS))) {
            sl_error_t ignored;
            txn_error(k, e, "abort", &ignored);
        }
        return -1;
    }
    failpoint_hit("sink.kafka.before_commit");
    if ((e = rd_kafka_commit_transaction(k->rk, KAFKA_SINK_TIMEOUT_MS))) {
        bool abort = rd_kafka_error_txn_requires_abort(e);
        txn_error(k, e, "commit", err);
        if (abort && k->rk && (e = rd_kafka_abort_transaction(k->rk, KAFKA_SINK_TIMEOUT_MS)))
            rd_kafka_error_destroy(e);
        return -1;
    }
    failpoint_hit("sink.kafka.after_commit");
    return record_write(k, batch_id, true, err);
}

/* The transactional id: kafka.transactional.id, else "sluice-" and the
 * query id in the checkpoint's metadata (written before the first batch). */
static const char *transactional_id(sink_t *s, sl_error_t *err)
{
    kafka_sink_t *k = s->impl;
    const char *opt = kafka_conf_option(s->opts, s->nopts, "transactional.id");
    if (opt) return sl_strdup(k->keep, opt);
    sl_buf_t b = SL_BUF_INIT;
    char *meta = conn_path_join(k->keep, k->checkpoint, "metadata");
    int rc = sl_fs_read_file(meta, &b, err);
    json_t *j = rc > 0 ? json_loads(b.data, 0, NULL) : NULL;
    const char *id = json_string_value(json_object_get(j, "id"));
    const char *txn = id ? sl_printf(k->keep, "sluice-%s", id) : NULL;
    json_decref(j);
    sl_buf_free(&b);
    if (!txn && rc >= 0)
        sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                     "checkpoint metadata \"%s\" holds no query id", meta);
    return txn;
}

static int add_exactly_once(sink_t *s, int64_t batch_id, exec_batch_t *const *batches, int n,
                            const sink_ahead_t *ahead, sl_error_t *err)
{
    kafka_sink_t *k = s->impl;
    if (!k->txn_id && !(k->txn_id = transactional_id(s, err))) return -1;
    if (!k->checked) {
        bool skip;
        if (replayed(s, batch_id, &skip, err) < 0) return -1;
        k->checked = true;
        if (skip) {
            SL_INFO("sink.kafka", "skipping already committed batch %lld query=%s",
                    (long long)batch_id, s->query_name);
            s->last_output_rows = 0;
            return 0;
        }
    }
    int64_t rows = count_rows(batches, n);
    s->last_output_rows = 0;
    if (!rows) return 0;
    if (producer_ready(s, err) < 0 || transaction(s, batch_id, batches, n, ahead, &rows, err) < 0)
        return -1;
    s->last_output_rows = rows;
    return 0;
}

static int kafka_add(sink_t *s, int64_t batch_id, exec_batch_t *const *batches, int n,
                     const sink_ahead_t *ahead, sl_error_t *err)
{
    const kafka_sink_t *k = s->impl;
    return k->exactly_once ? add_exactly_once(s, batch_id, batches, n, ahead, err)
                           : add_at_least_once(s, batch_id, batches, n, ahead, err);
}

static void kafka_describe(sink_t *s, sl_buf_t *out)
{
    const kafka_sink_t *k = s->impl;
    sl_buf_printf(out, "KafkaSink[%s]", k->topic);
}

static void kafka_destroy(sink_t *s)
{
    kafka_sink_t *k = s->impl;
    if (!k) return;
    if (k->rk) rd_kafka_flush(k->rk, 5000);
    producer_drop(k);
    sl_arena_free(k->keep);
    s->impl = NULL;
}

static const sink_ops_t kafka_ops = {
    .name = "kafka",
    .add_batch = kafka_add,
    .describe = kafka_describe,
    .destroy = kafka_destroy,
};

int sink_kafka_create(sink_t *s, const sink_env_t *env, sl_arena_t *a, sl_error_t *err)
{
    kafka_sink_t *k = SL_NEW(a, kafka_sink_t);
    if (sink_options(s->opts, s->nopts, k, err) < 0 || sink_columns(&s->schema, k, err) < 0)
        return -1;
    if (k->exactly_once && (!env || !env->checkpoint))
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "an exactly-once kafka sink needs the query's checkpoint");
    k->topic = sl_strdup(a, k->topic);
    k->keep = sl_arena_new("kafka sink");
    if (k->exactly_once) {
        k->checkpoint = sl_strdup(k->keep, env->checkpoint);
        k->state_dir = conn_path_join(k->keep, k->checkpoint, "sink");
    }
    k->first_part = -1;
    s->impl = k;
    s->ops = &kafka_ops;
    return 0;
}
