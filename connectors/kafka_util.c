/* Kafka internals shared by the source and the sink (kafka_int.h): offset
 * maps and their JSON, librdkafka configuration from `kafka.*` options,
 * secret references in option values resolved as they reach librdkafka,
 * broker errors, and the cluster queries (partitions, earliest/latest). */
#include "connectors/kafka_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "common/json_write.h"
#include "common/log.h"
#include "common/redact.h"

#define KAFKA_PREFIX "kafka."

/* ---- offset maps ------------------------------------------------------------ */

static int tp_cmp(const void *a, const void *b)
{
    const kafka_tp_t *x = a, *y = b;
    int c = strcmp(x->topic, y->topic);
    return c ? c : (x->partition > y->partition) - (x->partition < y->partition);
}

void kafka_offsets_sort(kafka_offsets_t *o)
{
    if (o->n > 1) qsort(o->v, (size_t)o->n, sizeof *o->v, tp_cmp);
}

kafka_tp_t *kafka_offsets_find(const kafka_offsets_t *o, const char *topic, int32_t partition)
{
    kafka_tp_t key = {topic, partition, 0};
    return o->n ? bsearch(&key, o->v, (size_t)o->n, sizeof *o->v, tp_cmp) : NULL;
}

kafka_offsets_t kafka_offsets_copy(const kafka_offsets_t *o, sl_arena_t *a)
{
    kafka_offsets_t c = {SL_NEW_ARRAY(a, kafka_tp_t, o->n ? o->n : 1), o->n};
    for (int i = 0; i < o->n; i++) {
        c.v[i] = o->v[i];
        c.v[i].topic = (i && !strcmp(o->v[i].topic, o->v[i - 1].topic))
                           ? c.v[i - 1].topic
                           : sl_strdup(a, o->v[i].topic);
    }
    return c;
}

const char *kafka_offsets_json(const kafka_offsets_t *o, sl_arena_t *a)
{
    sl_buf_t b = SL_BUF_INIT;
    sl_buf_putc(&b, '{');
    for (int i = 0; i < o->n; i++) {
        bool first = i == 0 || strcmp(o->v[i].topic, o->v[i - 1].topic);
        if (first) {
            if (i) sl_buf_puts(&b, "},");
            sl_json_escape(&b, o->v[i].topic, strlen(o->v[i].topic));
            sl_buf_puts(&b, ":{");
        } else {
            sl_buf_putc(&b, ',');
        }
        sl_buf_printf(&b, "\"%d\":%lld", o->v[i].partition, (long long)o->v[i].offset);
    }
    sl_buf_puts(&b, o->n ? "}}" : "}");
    const char *s = sl_strndup(a, b.data, b.len);
    sl_buf_free(&b);
    return s;
}

static int bad_json(sl_error_t *err, const char *what, const char *json, const char *hint)
{
    sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "invalid value \"%s\" for option \"%s\"",
                 json, what);
    return sl_error_hint(err, "%s", hint);
}

/* A partition number written as a JSON key ("0", "12"). */
static bool parse_partition_key(const char *s, int32_t *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < 0 || v > INT32_MAX) return false;
    *out = (int32_t)v;
    return true;
}

/* Appends every member of a topic's object to `o` (capacity checked by caller). */
static bool offsets_topic(const char *topic, json_t *parts, int64_t min_offset, sl_arena_t *a,
                          kafka_offsets_t *o, int cap)
{
    const char *key;
    json_t *val;
    const char *t = sl_strdup(a, topic);
    json_object_foreach(parts, key, val)
    {
        int32_t p;
        if (o->n >= cap || !parse_partition_key(key, &p) || !json_is_integer(val) ||
            json_integer_value(val) < min_offset)
            return false;
        o->v[o->n++] = (kafka_tp_t){t, p, json_integer_value(val)};
    }
    return true;
}

static int count_members(json_t *root)
{
    int n = 0;
    const char *key;
    json_t *val;
    json_object_foreach(root, key, val) n += json_is_object(val)  ? (int)json_object_size(val)
                                             : json_is_array(val) ? (int)json_array_size(val)
                                                                  : 1;
    return n;
}

/* True when the sorted map has a topic-partition twice. */
static bool has_duplicates(const kafka_offsets_t *o)
{
    for (int i = 1; i < o->n; i++)
        if (!tp_cmp(&o->v[i - 1], &o->v[i])) return true;
    return false;
}

int kafka_offsets_parse(const char *json, const char *what, int64_t min_offset, sl_arena_t *a,
                        kafka_offsets_t *out, sl_error_t *err)
{
    static const char hint[] = "It must be a JSON object of topics, each an object of partition "
                               "numbers and offsets, such as {\"topic\":{\"0\":42}}.";
    json_t *root = json_loads(json ? json : "", JSON_REJECT_DUPLICATES, NULL);
    out->n = 0;
    bool ok = json_is_object(root);
    int cap = ok ? count_members(root) : 0;
    out->v = SL_NEW_ARRAY(a, kafka_tp_t, cap ? cap : 1);
    const char *key;
    json_t *val;
    if (ok) json_object_foreach(root, key, val)
        {
            if (!*key || !json_is_object(val) ||
                !offsets_topic(key, val, min_offset, a, out, cap)) {
                ok = false;
                break;
            }
        }
    json_decref(root);
    kafka_offsets_sort(out);
    if (!ok || has_duplicates(out)) return bad_json(err, what, json ? json : "", hint);
    return 0;
}

int kafka_partitions_parse(const char *json, sl_arena_t *a, kafka_offsets_t *out, sl_error_t *err)
{
    static const char hint[] = "It must be a JSON object of topics, each an array of partition "
                               "numbers, such as {\"topicA\":[0,1],\"topicB\":[2]}.";
    json_t *root = json_loads(json ? json : "", JSON_REJECT_DUPLICATES, NULL);
    bool ok = json_is_object(root) && json_object_size(root) > 0;
    int cap = ok ? count_members(root) : 0;
    out->n = 0;
    out->v = SL_NEW_ARRAY(a, kafka_tp_t, cap ? cap : 1);
    const char *key;
    json_t *val;
    if (ok) json_object_foreach(root, key, val)
        {
            size_t i;
            json_t *p;
            ok = *key && json_is_array(val) && json_array_size(val) > 0;
            const char *t = sl_strdup(a, key);
            if (ok) json_array_foreach(val, i, p)
                {
                    ok = ok && json_is_integer(p) && json_integer_value(p) >= 0 &&
                         json_integer_value(p) <= INT32_MAX && out->n < cap;
                    if (ok) out->v[out->n++] = (kafka_tp_t){t, (int32_t)json_integer_value(p), 0};
                }
            if (!ok) break;
        }
    json_decref(root);
    kafka_offsets_sort(out);
    if (!ok || has_duplicates(out)) return bad_json(err, "assign", json ? json : "", hint);
    return 0;
}

/* ---- configuration --------------------------------------------------------------- */

static bool is_passthrough(const char *key)
{
    return !strncasecmp(key, KAFKA_PREFIX, strlen(KAFKA_PREFIX)) && key[strlen(KAFKA_PREFIX)];
}

const char *kafka_conf_option(const conn_kv_t *opts, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (is_passthrough(opts[i].key) && !strcmp(opts[i].key + strlen(KAFKA_PREFIX), name))
            return opts[i].value;
    return NULL;
}

static int conf_refused(sl_error_t *err, const char *key)
{
    sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "kafka option \"%s\" cannot be set", key);
    return sl_error_hint(err, "sluice sets it itself: offsets live in the query's checkpoint "
                              "(use startingOffsets and failOnDataLoss), and the sink's delivery "
                              "follows exactlyOnce.");
}

/* Sets one `kafka.*` option, its value resolved first when it is a secret
 * reference ('env:NAME', 'file:/path'); the resolved value lives only in
 * librdkafka's configuration. */
static int conf_set_option(rd_kafka_conf_t *c, const conn_kv_t *o, char *why, size_t nwhy,
                           sl_error_t *err)
{
    sl_arena_t *a = sl_arena_new("kafka-conf");
    const char *value;
    int rc = sl_secret_resolve(a, o->key, o->value, &value, err);
    if (rc == 0 &&
        rd_kafka_conf_set(c, o->key + strlen(KAFKA_PREFIX), value, why, nwhy) != RD_KAFKA_CONF_OK)
        rc = 1;
    sl_arena_free(a);
    return rc;
}

int kafka_conf_check(const conn_kv_t *opts, int n, const char *const *forbidden, sl_error_t *err)
{
    rd_kafka_conf_t *c = rd_kafka_conf_new();
    int rc = 0;
    char why[512];
    for (int i = 0; i < n && rc == 0; i++) {
        if (!is_passthrough(opts[i].key)) continue;
        const char *name = opts[i].key + strlen(KAFKA_PREFIX);
        for (int f = 0; forbidden && forbidden[f] && rc == 0; f++)
            if (!strcmp(name, forbidden[f])) rc = conf_refused(err, opts[i].key);
        if (rc == 0 && (rc = conf_set_option(c, &opts[i], why, sizeof why, err)) > 0) {
            sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "invalid kafka option \"%s\"",
                         opts[i].key);
            sl_error_detail(err, "librdkafka: %s.", why);
            rc = sl_error_hint(err, "Options starting with \"kafka.\" are librdkafka's "
                                    "configuration properties, without the prefix.");
        }
    }
    rd_kafka_conf_destroy(c);
    return rc;
}

/* librdkafka's syslog levels to sluice's. */
static void kafka_log_cb(const rd_kafka_t *rk, int level, const char *fac, const char *buf)
{
    sl_log_level_t l = level <= 4 ? SL_LOG_WARN : level <= 6 ? SL_LOG_INFO : SL_LOG_DEBUG;
    sl_log(l, "kafka", "client=%s %s: %s", rd_kafka_name(rk), fac, buf);
}

static void kafka_error_cb(rd_kafka_t *rk, int e, const char *reason, void *opaque)
{
    (void)opaque;
    sl_log(SL_LOG_WARN, "kafka", "client=%s error=%s: %s", rd_kafka_name(rk),
           rd_kafka_err2name((rd_kafka_resp_err_t)e), reason);
}

/* Sets key=value pairs from a NULL-terminated list. */
static int conf_set_list(rd_kafka_conf_t *c, const char *const *kv, sl_error_t *err)
{
    char why[512];
    for (int i = 0; kv && kv[i]; i += 2)
        if (rd_kafka_conf_set(c, kv[i], kv[i + 1], why, sizeof why) != RD_KAFKA_CONF_OK) {
            sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "invalid kafka setting \"%s\"",
                         kv[i]);
            return sl_error_detail(err, "librdkafka: %s.", why);
        }
    return 0;
}

rd_kafka_conf_t *kafka_conf_new(const conn_kv_t *opts, int n, const char *const *defaults,
                                const char *const *forced, sl_error_t *err)
{
    rd_kafka_conf_t *c = rd_kafka_conf_new();
    char why[512];
    int rc = conf_set_list(c, defaults, err);
    for (int i = 0; i < n && rc == 0; i++) {
        if (!is_passthrough(opts[i].key)) continue;
        if ((rc = conf_set_option(c, &opts[i], why, sizeof why, err)) > 0) {
            sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "invalid kafka option \"%s\"",
                         opts[i].key);
            rc = sl_error_detail(err, "librdkafka: %s.", why);
        }
    }
    if (rc == 0) rc = conf_set_list(c, forced, err);
    if (rc < 0) {
        rd_kafka_conf_destroy(c);
        return NULL;
    }
    rd_kafka_conf_set_log_cb(c, kafka_log_cb);
    rd_kafka_conf_set_error_cb(c, kafka_error_cb);
    return c;
}

/* ---- errors ----------------------------------------------------------------------- */

int kafka_error(sl_error_t *err, rd_kafka_resp_err_t e, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    sl_error_set(err, SL_ERR_CONNECTION_FAILURE, "%s: %s", what, rd_kafka_err2str(e));
    return sl_error_hint(err, "Check that the brokers of kafka.bootstrap.servers are reachable.");
}

/* ---- cluster queries ------------------------------------------------------------------ */

/* Appends the partitions of one topic (none when it does not exist). */
static int topic_partitions(rd_kafka_t *rk, const char *topic, sl_arena_t *a, kafka_offsets_t *out,
                            int *cap, sl_error_t *err)
{
    rd_kafka_topic_t *rkt = rd_kafka_topic_new(rk, topic, NULL);
    if (!rkt)
        return kafka_error(err, rd_kafka_last_error(), "could not open kafka topic \"%s\"", topic);
    const struct rd_kafka_metadata *md = NULL;
    rd_kafka_resp_err_t e = rd_kafka_metadata(rk, 0, rkt, &md, KAFKA_QUERY_TIMEOUT_MS);
    rd_kafka_topic_destroy(rkt);
    if (e) return kafka_error(err, e, "could not read the metadata of kafka topic \"%s\"", topic);
    const struct rd_kafka_metadata_topic *t = md->topic_cnt == 1 ? &md->topics[0] : NULL;
    int np = t && !t->err ? t->partition_cnt : 0;
    if (out->n + np > *cap) {
        int nc = (out->n + np) * 2;
        out->v =
            sl_arena_realloc(a, out->v, sizeof *out->v * (size_t)*cap, sizeof *out->v * (size_t)nc);
        *cap = nc;
    }
    const char *name = np ? sl_strdup(a, topic) : NULL;
    for (int i = 0; i < np; i++) out->v[out->n++] = (kafka_tp_t){name, t->partitions[i].id, 0};
    rd_kafka_metadata_destroy(md);
    return 0;
}

int kafka_topic_partitions(rd_kafka_t *rk, const char *const *topics, int ntopics, sl_arena_t *a,
                           kafka_offsets_t *out, sl_error_t *err)
{
    int cap = 16;
    out->n = 0;
    out->v = SL_NEW_ARRAY(a, kafka_tp_t, cap);
    for (int i = 0; i < ntopics; i++)
        if (topic_partitions(rk, topics[i], a, out, &cap, err) < 0) return -1;
    kafka_offsets_sort(out);
    return 0;
}

int kafka_list_offsets(rd_kafka_t *rk, kafka_offsets_t *o, bool latest, int *missing,
                       sl_error_t *err)
{
    if (missing) *missing = 0;
    if (!o->n) return 0;
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(o->n);
    for (int i = 0; i < o->n; i++)
        rd_kafka_topic_partition_list_add(l, o->v[i].topic, o->v[i].partition)->offset =
            latest ? RD_KAFKA_OFFSET_END : RD_KAFKA_OFFSET_BEGINNING;
    rd_kafka_resp_err_t e = rd_kafka_offsets_for_times(rk, l, KAFKA_QUERY_TIMEOUT_MS);
    int rc = 0;
    if (e)
        rc = kafka_error(err, e, "could not list the %s offsets of kafka partitions",
                         latest ? "latest" : "earliest");
    for (int i = 0; rc == 0 && i < l->cnt; i++) {
        const rd_kafka_topic_partition_t *p = &l->elems[i];
        kafka_tp_t *tp = kafka_offsets_find(o, p->topic, p->partition);
        if (!tp) continue;
        tp->offset = p->err || p->offset < 0 ? -1 : p->offset;
        if (tp->offset < 0 && missing) (*missing)++;
    }
    rd_kafka_topic_partition_list_destroy(l);
    return rc;
}
