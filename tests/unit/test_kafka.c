/* Unit tests of the Kafka connector: offset maps and their JSON, option
 * validation of streams and sinks, and the source driven step by step
 * against an in-process librdkafka mock cluster (initial offsets and their
 * file, Spark's maxOffsetsPerTrigger proration, minOffsetsPerTrigger with
 * a pinned clock, AVAILABLE NOW, exact and replayable reads, the progress
 * metrics and description, a vanished partition under failOnDataLoss). */
#include "test_connectors_util.h"

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include "connectors/kafka_int.h"
#include "connectors/sink.h"
#include "connectors/validate.h"

/* ---- offset maps ------------------------------------------------------------ */

TEST(offsets_json_sorted_round_trip)
{
    sl_arena_t *a = sl_arena_new("t");
    kafka_offsets_t o;
    sl_error_t err;
    CHECK(kafka_offsets_parse("{\"b\":{\"1\":5,\"0\":3},\"a\":{\"10\":1,\"2\":7}}", "x", 0, a, &o,
                              &err) == 0);
    CHECK_INT(o.n, 4);
    CHECK_STR(kafka_offsets_json(&o, a), "{\"a\":{\"2\":7,\"10\":1},\"b\":{\"0\":3,\"1\":5}}");
    CHECK(kafka_offsets_find(&o, "b", 1)->offset == 5);
    CHECK(kafka_offsets_find(&o, "b", 2) == NULL);
    CHECK(kafka_offsets_parse("{}", "x", 0, a, &o, &err) == 0 && o.n == 0);
    CHECK_STR(kafka_offsets_json(&o, a), "{}");
    CHECK(kafka_offsets_parse("{\"t\":{\"0\":-2,\"1\":-1}}", "startingOffsets", -2, a, &o, &err) ==
          0);
    static const char *const bad[] = {"",
                                      "[]",
                                      "{\"a\":[1]}",
                                      "{\"a\":{\"x\":1}}",
                                      "{\"a\":{\"0\":-3}}",
                                      "{\"a\":{\"0\":1.5}}",
                                      "{\"\":{\"0\":1}}",
                                      "{\"a\":{\"0\":1,\"0\":2}}",
                                      NULL};
    for (int i = 0; bad[i]; i++) {
        CHECK(kafka_offsets_parse(bad[i], "startingOffsets", -2, a, &o, &err) < 0);
        CHECK_STR(err.sqlstate, "22023");
    }
    CHECK(kafka_offsets_parse("{\"a\":{\"0\":-1}}", "start offset", 0, a, &o, &err) < 0);
    sl_arena_free(a);
}

TEST(partitions_json)
{
    sl_arena_t *a = sl_arena_new("t");
    kafka_offsets_t o;
    sl_error_t err;
    CHECK(kafka_partitions_parse("{\"t\":[1,0],\"s\":[2]}", a, &o, &err) == 0);
    CHECK_STR(kafka_offsets_json(&o, a), "{\"s\":{\"2\":0},\"t\":{\"0\":0,\"1\":0}}");
    static const char *const bad[] = {
        "{}", "{\"t\":[]}", "{\"t\":[-1]}", "{\"t\":[1,1]}", "{\"t\":{\"0\":1}}", "[1]", NULL};
    for (int i = 0; bad[i]; i++) CHECK(kafka_partitions_parse(bad[i], a, &o, &err) < 0);
    CHECK_STR(err.message, "invalid value \"[1]\" for option \"assign\"");
    sl_arena_free(a);
}

/* ---- validation ---------------------------------------------------------------- */

static void stream_invalid(const char *sqlstate, const char *message, ...)
{
    sl_arena_t *a = sl_arena_new("t");
    va_list ap;
    va_start(ap, message);
    conn_stream_t *rel = tc_rel_v(a, "kafka", CONN_SOURCE, "a INT", ap);
    va_end(ap);
    sl_error_t err;
    CHECK(source_validate(rel, &err) < 0);
    if (strcmp(err.sqlstate, sqlstate) || strcmp(err.message, message))
        unit_fail(__FILE__, __LINE__, "got %s \"%s\", expected %s \"%s\"", err.sqlstate,
                  err.message, sqlstate, message);
    sl_arena_free(a);
}

TEST(stream_option_validation)
{
    const char *b = "kafka.bootstrap.servers", *h = "127.0.0.1:9";
    stream_invalid("22023", "a kafka stream needs exactly one of the options subscribe and assign",
                   b, h, NULL);
    stream_invalid("22023", "a kafka stream needs exactly one of the options subscribe and assign",
                   b, h, "subscribe", "t", "assign", "{\"t\":[0]}", NULL);
    stream_invalid("22023", "invalid value \" , \" for option \"subscribe\"", b, h, "subscribe",
                   " , ", NULL);
    stream_invalid("22023", "invalid value \"{\"t\":{\"1\":0}}\" for option \"startingOffsets\"", b,
                   h, "assign", "{\"t\":[0]}", "startingOffsets", "{\"t\":{\"1\":0}}", NULL);
    stream_invalid("22023", "invalid value \"10\" for option \"minOffsetsPerTrigger\"", b, h,
                   "subscribe", "t", "minOffsetsPerTrigger", "10", "maxOffsetsPerTrigger", "5",
                   NULL);
    stream_invalid("22023", "invalid value \"0\" for option \"maxOffsetsPerTrigger\"", b, h,
                   "subscribe", "t", "maxOffsetsPerTrigger", "0", NULL);
    stream_invalid("0A000", "kafka headers are not supported yet", b, h, "subscribe", "t",
                   "includeHeaders", "true", NULL);
    stream_invalid("22023", "kafka option \"kafka.auto.offset.reset\" cannot be set", b, h,
                   "subscribe", "t", "kafka.auto.offset.reset", "latest", NULL);
    stream_invalid("22023", "invalid kafka option \"kafka.no.such\"", b, h, "subscribe", "t",
                   "kafka.no.such", "1", NULL);
    stream_invalid("22023", "invalid kafka option \"kafka.fetch.wait.max.ms\"", b, h, "subscribe",
                   "t", "kafka.fetch.wait.max.ms", "soon", NULL);
    sl_arena_t *a = sl_arena_new("t");
    sl_error_t err;
    CHECK(source_validate(tc_rel(a, "kafka", CONN_SOURCE, "a INT", b, h, "subscribe", "t",
                                 "startingOffsets", "{\"t\":{\"0\":-2}}", "kafka.fetch.wait.max.ms",
                                 "10", NULL),
                          &err) == 0);
    sl_arena_free(a);
}

/* sink_validate over a result schema ("value STRING, key INT") and options. */
static int sink_check(const char *schema, sl_error_t *err, ...)
{
    sl_arena_t *a = sl_arena_new("t");
    exec_type_t t;
    CHECK(exec_schema_parse(schema, strlen(schema), a, &t, err) == 0);
    const char **names = SL_NEW_ARRAY(a, const char *, t.nfields);
    exec_type_t *types = SL_NEW_ARRAY(a, exec_type_t, t.nfields);
    for (int i = 0; i < t.nfields; i++) names[i] = t.fields[i].name, types[i] = t.fields[i].type;
    sink_schema_t sc = {.ncols = t.nfields, .names = names, .types = types};
    conn_kv_t kv[8];
    int n = 0;
    va_list ap;
    va_start(ap, err);
    for (const char *k; (k = va_arg(ap, const char *));)
        kv[n++] = (conn_kv_t){k, va_arg(ap, const char *)};
    va_end(ap);
    sl_error_t e2;
    const conn_desc_t *d = conn_lookup("kafka", CONN_SINK, &e2);
    int rc = sink_validate(d, OUTPUT_APPEND, &sc, kv, n, err);
    sl_arena_free(a);
    return rc;
}

TEST(sink_schema_and_option_validation)
{
    sl_error_t err;
    const char *b = "kafka.bootstrap.servers", *h = "127.0.0.1:9";
    CHECK(sink_check("value STRING, key BINARY, partition INT, x DOUBLE", &err, b, h, "topic", "t",
                     NULL) == 0);
    CHECK(sink_check("value BINARY", &err, b, h, "topic", "t", "exactlyOnce", "true",
                     "kafka.transactional.id", "x", NULL) == 0);
    CHECK(sink_check("value INT", &err, b, h, "topic", "t", NULL) < 0);
    CHECK_STR(err.sqlstate, "42804");
    CHECK_STR(err.message, "column \"value\" of a kafka sink must be text or bytea, not integer");
    CHECK(sink_check("v STRING", &err, b, h, "topic", "t", NULL) < 0);
    CHECK_STR(err.sqlstate, "42703");
    CHECK(sink_check("value STRING, key BIGINT", &err, b, h, "topic", "t", NULL) < 0);
    CHECK_STR(err.sqlstate, "42804");
    CHECK(sink_check("value STRING, partition STRING", &err, b, h, "topic", "t", NULL) < 0);
    CHECK_STR(err.message, "column \"partition\" of a kafka sink must be integer, not text");
    CHECK(sink_check("value STRING", &err, b, h, "topic", "", NULL) < 0);
    CHECK_STR(err.message, "invalid value \"\" for option \"topic\"");
    CHECK(sink_check("value STRING", &err, b, h, "topic", "t", "exactlyOnce", "maybe", NULL) < 0);
    CHECK(sink_check("value STRING", &err, b, h, "topic", "t", "kafka.transactional.id", "x",
                     NULL) < 0);
    CHECK_STR(err.message, "invalid value \"x\" for option \"kafka.transactional.id\"");
}

/* ---- the source against a mock cluster ------------------------------------------- */

/* An in-process mock cluster and a producer writing to it. */
typedef struct mock {
    rd_kafka_t *host;            /* the handle the cluster lives in */
    rd_kafka_mock_cluster_t *mc; /* the cluster */
    const char *boot;            /* its bootstrap servers */
    rd_kafka_t *producer;        /* writes the test's messages */
} mock_t;

static mock_t mock_start(const char *topic, int partitions)
{
    char why[512];
    mock_t m;
    rd_kafka_conf_t *c = rd_kafka_conf_new();
    rd_kafka_conf_set(c, "log_level", "2", why, sizeof why);
    CHECK((m.host = rd_kafka_new(RD_KAFKA_PRODUCER, c, why, sizeof why)) != NULL);
    CHECK((m.mc = rd_kafka_mock_cluster_new(m.host, 1)) != NULL);
    CHECK(rd_kafka_mock_topic_create(m.mc, topic, partitions, 1) == 0);
    m.boot = rd_kafka_mock_cluster_bootstraps(m.mc);
    c = rd_kafka_conf_new();
    CHECK(rd_kafka_conf_set(c, "bootstrap.servers", m.boot, why, sizeof why) == 0);
    CHECK((m.producer = rd_kafka_new(RD_KAFKA_PRODUCER, c, why, sizeof why)) != NULL);
    return m;
}

/* Produces "v<first>".."v<last>" (key "k<i>") to one partition and waits. */
static void produce(mock_t *m, const char *topic, int partition, int first, int last)
{
    char v[32], k[32];
    for (int i = first; i <= last; i++) {
        snprintf(v, sizeof v, "v%d", i);
        snprintf(k, sizeof k, "k%d", i);
        CHECK(rd_kafka_producev(
                  m->producer, RD_KAFKA_V_TOPIC(topic), RD_KAFKA_V_PARTITION(partition),
                  RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_VALUE(v, strlen(v)),
                  RD_KAFKA_V_KEY(k, strlen(k)), RD_KAFKA_V_END) == 0);
    }
    CHECK(rd_kafka_flush(m->producer, 10000) == 0);
}

static void mock_stop(mock_t *m)
{
    rd_kafka_destroy(m->producer);
    rd_kafka_mock_cluster_destroy(m->mc);
    rd_kafka_destroy(m->host);
}

static void destroy_source(void *s)
{
    ((source_t *)s)->ops->destroy(s);
}

/* A raw Kafka source over `topic` with extra options (key, value, ..., NULL). */
static source_t *raw_source(sl_arena_t *a, const mock_t *m, const char *dir, ...)
{
    va_list ap;
    va_start(ap, dir);
    conn_stream_t *rel = tc_rel_v(a, "kafka", CONN_SOURCE, conn_kafka_raw_schema(), ap);
    va_end(ap);
    rel->opts[rel->nopts++] = (conn_kv_t){"kafka.bootstrap.servers", m->boot};
    source_t *s;
    sl_error_t err;
    if (source_create(rel, 0, dir, "q", a, &s, &err) < 0)
        unit_fail(__FILE__, __LINE__, "source_create: %s (%s)", err.message, err.detail);
    s->now_ms = tc_clock;
    sl_arena_on_reset(a, destroy_source, s);
    return s;
}

static const char *initial(source_t *s, sl_arena_t *a)
{
    const char *o;
    sl_error_t err;
    if (s->ops->initial_offset(s, a, &o, &err) < 0)
        unit_fail(__FILE__, __LINE__, "%s", err.message);
    return o;
}

static const char *next_end(source_t *s, const char *start, source_limit_t limit, sl_arena_t *a,
                            const char **latest)
{
    const char *end, *l;
    sl_error_t err;
    if (s->ops->latest_offset(s, start, limit, a, &end, latest ? latest : &l, &err) < 0)
        unit_fail(__FILE__, __LINE__, "latest_offset: %s", err.message);
    return end;
}

/* "partition:offset:key:value" of each row (raw columns), in read order. */
static const char *read_rows(source_t *s, const char *start, const char *end, sl_arena_t *a, int *n)
{
    tc_rows_t r;
    sl_error_t err;
    if (tc_read_batch(s, 0, start, end, a, &r, &err) < 0)
        unit_fail(__FILE__, __LINE__, "read: %s", err.message);
    *n = r.n;
    return tc_join(&r);
}

/* Drops each row's timestamp column (the last) so rows compare exactly. */
static const char *strip_ts(const char *rows, sl_arena_t *a)
{
    sl_buf_t b = SL_BUF_INIT;
    for (const char *p = rows; *p;) {
        const char *nl = strchr(p, '\n'), *e = nl ? nl : p + strlen(p);
        const char *bar = e;
        while (bar > p && bar[-1] != '|') bar--;
        sl_buf_append(&b, p, (size_t)(bar - p));
        if (nl) sl_buf_putc(&b, '\n');
        p = nl ? nl + 1 : e;
    }
    const char *s = sl_strdup(a, b.data ? b.data : "");
    sl_buf_free(&b);
    return s;
}

TEST(source_initial_offsets_are_resolved_once)
{
    sl_arena_t *a = sl_arena_new("t");
    mock_t m = mock_start("t", 2);
    produce(&m, "t", 0, 1, 5);
    produce(&m, "t", 1, 6, 8);
    char *dir = tc_tmpdir(a);
    source_t *s = raw_source(a, &m, dir, "subscribe", "t", NULL);
    CHECK_STR(initial(s, a), "{\"t\":{\"0\":5,\"1\":3}}"); /* latest by default */
    char path[1100];
    snprintf(path, sizeof path, "%s/0", dir);
    FILE *f = fopen(path, "rb");
    char buf[64] = {0};
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    CHECK_INT(n, 23);
    CHECK(buf[0] == 0 && !memcmp(buf + 1, "v1\n{\"t\":{\"0\":5,\"1\":3}}", 22));
    produce(&m, "t", 0, 9, 9);
    source_t *again = raw_source(a, &m, dir, "subscribe", "t", "startingOffsets", "earliest", NULL);
    CHECK_STR(initial(again, a), "{\"t\":{\"0\":5,\"1\":3}}"); /* the file wins on restarts */
    source_t *spec = raw_source(a, &m, tc_tmpdir(a), "subscribe", "t", "startingOffsets",
                                "{\"t\":{\"0\":-1,\"1\":-2}}", NULL);
    CHECK_STR(initial(spec, a), "{\"t\":{\"0\":6,\"1\":0}}");
    sl_error_t err;
    const char *o;
    source_t *wrong = raw_source(a, &m, tc_tmpdir(a), "subscribe", "t", "startingOffsets",
                                 "{\"t\":{\"0\":1}}", NULL);
    CHECK(wrong->ops->initial_offset(wrong, a, &o, &err) < 0);
    CHECK_STR(err.message, "startingOffsets does not list the partitions of the stream's topics");
    sl_arena_free(a);
    mock_stop(&m);
}

TEST(source_reads_exact_ranges_and_replays)
{
    sl_arena_t *a = sl_arena_new("t");
    mock_t m = mock_start("t", 2);
    produce(&m, "t", 0, 1, 4);
    produce(&m, "t", 1, 11, 12);
    source_t *s =
        raw_source(a, &m, tc_tmpdir(a), "subscribe", "t", "startingOffsets", "earliest", NULL);
    const char *start = initial(s, a), *latest;
    const char *end = next_end(s, start, SOURCE_LIMIT_DEFAULT, a, &latest);
    CHECK_STR(end, "{\"t\":{\"0\":4,\"1\":2}}");
    CHECK_STR(latest, end);
    int n;
    const char *rows =
        read_rows(s, "{\"t\":{\"0\":1,\"1\":0}}", "{\"t\":{\"0\":3,\"1\":2}}", a, &n);
    CHECK_INT(n, 4);
    /* key|value|topic|partition|offset|timestamp: check the first five columns */
    CHECK(strstr(rows, "\\x6b32|\\x7632|t|0|1|") != NULL); /* k2 / v2 at offset 1 */
    CHECK(strstr(rows, "\\x6b33|\\x7633|t|0|2|") != NULL);
    CHECK(strstr(rows, "\\x6b3131|\\x763131|t|1|0|") != NULL);
    CHECK(strstr(rows, "|t|0|3|") == NULL && strstr(rows, "|t|0|0|") == NULL);
    produce(&m, "t", 0, 5, 9); /* more data after the end does not change a replay */
    int n2;
    CHECK_STR(read_rows(s, "{\"t\":{\"0\":1,\"1\":0}}", "{\"t\":{\"0\":3,\"1\":2}}", a, &n2), rows);
    /* a partition new in end (absent from start) is read from its earliest offset */
    CHECK_STR(strip_ts(read_rows(s, "{\"t\":{\"0\":9}}", "{\"t\":{\"0\":9,\"1\":1}}", a, &n), a),
              "\\x6b3131|\\x763131|t|1|0|");
    sl_arena_free(a);
    mock_stop(&m);
}

TEST(source_max_offsets_prorated_as_spark)
{
    sl_arena_t *a = sl_arena_new("t");
    mock_t m = mock_start("t", 3);
    produce(&m, "t", 0, 1, 1000);
    produce(&m, "t", 1, 1, 600);
    produce(&m, "t", 2, 1, 1);
    source_t *s = raw_source(a, &m, tc_tmpdir(a), "subscribe", "t", "startingOffsets", "earliest",
                             "maxOffsetsPerTrigger", "300", NULL);
    const char *start = initial(s, a), *latest;
    /* 300 * 1000/1601 = 187.4 -> 187; 300 * 600/1601 = 112.4 -> 112; 0.19 -> ceil 1 */
    const char *end = next_end(s, start, SOURCE_LIMIT_DEFAULT, a, &latest);
    CHECK_STR(end, "{\"t\":{\"0\":187,\"1\":112,\"2\":1}}");
    CHECK_STR(latest, "{\"t\":{\"0\":1000,\"1\":600,\"2\":1}}");
    int n;
    read_rows(s, start, end, a, &n);
    CHECK_INT(n, 300);
    CHECK_STR(next_end(s, start, SOURCE_LIMIT_ALL, a, NULL), latest); /* TRIGGER ONCE */
    /* progress: offsets behind latest per partition 813, 488, 0 */
    sl_buf_t b = SL_BUF_INIT;
    s->ops->metrics(s, end, latest, &b);
    CHECK_STR(b.data, "\"avgOffsetsBehindLatest\":\"433.6666666666667\",\"maxOffsetsBehindLatest\":"
                      "\"813\",\"minOffsetsBehindLatest\":\"0\"");
    sl_buf_clear(&b);
    s->ops->describe(s, &b);
    CHECK_STR(b.data, "KafkaV2[Subscribe[t]]");
    sl_buf_free(&b);
    sl_arena_free(a);
    mock_stop(&m);
}

TEST(source_min_offsets_waits_for_data_or_delay)
{
    sl_arena_t *a = sl_arena_new("t");
    mock_t m = mock_start("t", 1);
    produce(&m, "t", 0, 1, 10);
    source_t *s = raw_source(a, &m, tc_tmpdir(a), "subscribe", "t", "startingOffsets", "earliest",
                             "minOffsetsPerTrigger", "50", "maxTriggerDelay", "30s", NULL);
    const char *start = initial(s, a);
    CHECK(next_end(s, start, SOURCE_LIMIT_DEFAULT, a, NULL) == start); /* 10 < 50: wait */
    tc_now_ms += 29000;
    CHECK(next_end(s, start, SOURCE_LIMIT_DEFAULT, a, NULL) == start);
    CHECK_STR(next_end(s, start, SOURCE_LIMIT_ALL, a, NULL), "{\"t\":{\"0\":10}}");
    tc_now_ms += 1000; /* maxTriggerDelay passed: take what there is */
    CHECK_STR(next_end(s, start, SOURCE_LIMIT_DEFAULT, a, NULL), "{\"t\":{\"0\":10}}");
    produce(&m, "t", 0, 11, 70);
    CHECK_STR(next_end(s, "{\"t\":{\"0\":10}}", SOURCE_LIMIT_DEFAULT, a, NULL),
              "{\"t\":{\"0\":70}}");
    sl_arena_free(a);
    mock_stop(&m);
}

TEST(source_available_now_fixes_the_end)
{
    sl_arena_t *a = sl_arena_new("t");
    mock_t m = mock_start("t", 2);
    produce(&m, "t", 0, 1, 10);
    source_t *s = raw_source(a, &m, tc_tmpdir(a), "assign", "{\"t\":[0,1]}", "startingOffsets",
                             "earliest", "maxOffsetsPerTrigger", "6", NULL);
    sl_error_t err;
    CHECK(s->ops->prepare_available_now(s, &err) == 0);
    produce(&m, "t", 0, 11, 20);
    produce(&m, "t", 1, 1, 5);
    const char *e1 = next_end(s, initial(s, a), SOURCE_LIMIT_DEFAULT, a, NULL);
    CHECK_STR(e1, "{\"t\":{\"0\":6,\"1\":0}}");
    CHECK_STR(next_end(s, e1, SOURCE_LIMIT_DEFAULT, a, NULL), "{\"t\":{\"0\":10,\"1\":0}}");
    CHECK_STR(next_end(s, "{\"t\":{\"0\":10,\"1\":0}}", SOURCE_LIMIT_DEFAULT, a, NULL),
              "{\"t\":{\"0\":10,\"1\":0}}");
    sl_buf_t b = SL_BUF_INIT;
    s->ops->describe(s, &b);
    CHECK_STR(b.data, "KafkaV2[Assign[t-0, t-1]]");
    sl_buf_free(&b);
    sl_arena_free(a);
    mock_stop(&m);
}

TEST(source_vanished_partition_is_data_loss)
{
    sl_arena_t *a = sl_arena_new("t");
    mock_t m = mock_start("t", 1);
    produce(&m, "t", 0, 1, 3);
    const char *start = "{\"t\":{\"0\":1,\"7\":4}}"; /* t-7 does not exist (any more) */
    source_t *strict = raw_source(a, &m, tc_tmpdir(a), "subscribe", "t", NULL);
    const char *end, *latest;
    sl_error_t err;
    CHECK(strict->ops->latest_offset(strict, start, SOURCE_LIMIT_DEFAULT, a, &end, &latest, &err) <
          0);
    CHECK_STR(err.sqlstate, "22000");
    CHECK_STR(err.message, "kafka data may have been lost: kafka partition t-7 is gone");
    source_t *lax =
        raw_source(a, &m, tc_tmpdir(a), "subscribe", "t", "failOnDataLoss", "false", NULL);
    CHECK_STR(next_end(lax, start, SOURCE_LIMIT_DEFAULT, a, NULL), "{\"t\":{\"0\":3}}");
    int n;
    CHECK_STR(strip_ts(read_rows(lax, start, "{\"t\":{\"0\":3}}", a, &n), a),
              "\\x6b32|\\x7632|t|0|1|\n\\x6b33|\\x7633|t|0|2|");
    sl_arena_free(a);
    mock_stop(&m);
}

TEST(source_json_records_and_modes)
{
    sl_arena_t *a = sl_arena_new("t");
    mock_t m = mock_start("j", 1);
    const char *recs[] = {"{\"id\":1,\"s\":\"a\"}", "{\"id\":", "{\"id\":3,\"s\":\"c\"}"};
    for (int i = 0; i < 3; i++)
        CHECK(rd_kafka_producev(m.producer, RD_KAFKA_V_TOPIC("j"), RD_KAFKA_V_PARTITION(0),
                                RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                RD_KAFKA_V_VALUE((void *)recs[i], strlen(recs[i])),
                                RD_KAFKA_V_END) == 0);
    CHECK(rd_kafka_flush(m.producer, 10000) == 0);
    static const char *const modes[] = {"PERMISSIVE", "DROPMALFORMED", "FAILFAST"};
    static const char *const want[] = {"1|a|∅\n∅|∅|{\"id\":\n3|c|∅", "1|a\n3|c", NULL};
    for (int i = 0; i < 3; i++) {
        conn_stream_t *rel =
            tc_rel(a, "kafka", CONN_SOURCE,
                   i ? "id INT, s STRING" : "id INT, s STRING, _corrupt_record STRING",
                   "kafka.bootstrap.servers", m.boot, "subscribe", "j", "mode", modes[i], NULL);
        source_t *s;
        sl_error_t err;
        CHECK(source_create(rel, 0, NULL, "q", a, &s, &err) == 0);
        sl_arena_on_reset(a, destroy_source, s);
        tc_rows_t r;
        int rc = tc_read_batch(s, 0, "{\"j\":{\"0\":0}}", "{\"j\":{\"0\":3}}", a, &r, &err);
        if (want[i]) {
            CHECK(rc == 0);
            CHECK_STR(tc_join(&r), want[i]);
        } else {
            CHECK(rc < 0);
            CHECK_STR(err.sqlstate, "22P02");
            CHECK_STR(err.message, "malformed record in topic partition \"j-0\" at offset 1");
        }
        CHECK_INT(atomic_load(&s->malformed), 1);
        CHECK_INT(atomic_load(&s->dropped), i == 1);
    }
    sl_arena_free(a);
    mock_stop(&m);
}
