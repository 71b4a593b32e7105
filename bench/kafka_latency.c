/* kafka_latency: end-to-end latency through Kafka. A producer writes
 * messages at a steady rate to IN, each message's value its send time
 * (microseconds since the epoch, decimal digits); a read_committed
 * consumer reads OUT and records, for every message received, its receive
 * time minus the send time in the first run of 13 or more digits of its
 * value (a query that passes the value through, or one that outputs the
 * largest send time of what it aggregated). With IN = OUT and no query in
 * between this is the broker's own floor.
 *
 *   kafka_latency -b BROKERS -i IN -o OUT [-r RATE] [-d SECONDS] [-w WARMUP]
 *                 [-P key=value]... [-C key=value]...
 *
 * -r   messages per second (default 10000), sent in steps of 1 ms
 * -d   seconds measured (default 10), after -w seconds of warm-up (default 3)
 * -P   a librdkafka property of the producer (default linger.ms=0)
 * -C   a property of the consumer (default fetch.wait.max.ms=5,
 *      isolation.level=read_committed)
 *
 * Prints one line: messages sent in the measured window, messages
 * received for it, and p50/p90/p99/max of the latency in milliseconds.
 * Only messages sent in the measured window count; the consumer reads for
 * 3 s after the last one was sent. */
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <librdkafka/rdkafka.h>

#define MAX_PROPS 32
#define DRAIN_US 3000000

typedef struct opts {
    const char *brokers, *in, *out;
    int64_t rate, seconds, warmup;
    const char *pprops[MAX_PROPS], *cprops[MAX_PROPS];
    int npprops, ncprops;
} opts_t;

/* What the consumer thread collects. */
typedef struct samples {
    int64_t from_us, to_us; /* the measured window of send times */
    int64_t *lat_us;        /* latencies of messages sent in it */
    int64_t n, cap;
    atomic_int stop;
    rd_kafka_t *rk;
} samples_t;

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void die(const char *what, const char *why)
{
    fprintf(stderr, "kafka_latency: %s: %s\n", what, why);
    exit(1);
}

static void set_prop(rd_kafka_conf_t *c, const char *kv)
{
    char key[256], why[512];
    const char *eq = strchr(kv, '=');
    if (!eq || (size_t)(eq - kv) >= sizeof key) die("property", kv);
    memcpy(key, kv, (size_t)(eq - kv));
    key[eq - kv] = 0;
    if (rd_kafka_conf_set(c, key, eq + 1, why, sizeof why) != RD_KAFKA_CONF_OK) die(kv, why);
}

static rd_kafka_t *client_new(rd_kafka_type_t type, const opts_t *o, const char *const *defaults,
                              const char *const *props, int nprops)
{
    rd_kafka_conf_t *c = rd_kafka_conf_new();
    char why[512];
    if (rd_kafka_conf_set(c, "bootstrap.servers", o->brokers, why, sizeof why) != RD_KAFKA_CONF_OK)
        die("bootstrap.servers", why);
    for (int i = 0; defaults[i]; i++) set_prop(c, defaults[i]);
    for (int i = 0; i < nprops; i++) set_prop(c, props[i]);
    rd_kafka_t *rk = rd_kafka_new(type, c, why, sizeof why);
    if (!rk) die("client", why);
    return rk;
}

/* The send time in a message's value: its first run of >= 13 digits. */
static int64_t sent_at(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        int64_t v = 0;
        while (j < n && p[j] >= '0' && p[j] <= '9') v = v * 10 + (p[j++] - '0');
        if (j - i >= 13) return v;
        if (j > i) i = j;
    }
    return -1;
}

static void record(samples_t *s, const rd_kafka_message_t *m, int64_t recv)
{
    int64_t t = sent_at(m->payload, m->len);
    if (t < s->from_us || t > s->to_us) return;
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 1 << 16;
        s->lat_us = realloc(s->lat_us, sizeof *s->lat_us * (size_t)s->cap);
        if (!s->lat_us) die("memory", "out of memory");
    }
    s->lat_us[s->n++] = recv - t;
}

/* Assigns every partition of the topic from its end. */
static void assign_end(rd_kafka_t *rk, const char *topic)
{
    rd_kafka_topic_t *rkt = rd_kafka_topic_new(rk, topic, NULL);
    const struct rd_kafka_metadata *md;
    rd_kafka_resp_err_t e = rd_kafka_metadata(rk, 0, rkt, &md, 10000);
    if (e || md->topic_cnt != 1 || md->topics[0].partition_cnt < 1)
        die("metadata", e ? rd_kafka_err2str(e) : "no such topic");
    int np = md->topics[0].partition_cnt;
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(np);
    for (int p = 0; p < np; p++)
        rd_kafka_topic_partition_list_add(l, topic, md->topics[0].partitions[p].id)->offset =
            RD_KAFKA_OFFSET_END;
    rd_kafka_metadata_destroy(md);
    rd_kafka_topic_destroy(rkt);
    if ((e = rd_kafka_assign(rk, l))) die("assign", rd_kafka_err2str(e));
    rd_kafka_topic_partition_list_destroy(l);
}

static void *consumer_main(void *arg)
{
    samples_t *s = arg;
    while (!atomic_load(&s->stop)) {
        rd_kafka_message_t *m = rd_kafka_consumer_poll(s->rk, 50);
        if (!m) continue;
        if (!m->err) record(s, m, now_us());
        rd_kafka_message_destroy(m);
    }
    return NULL;
}

static void pause_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

/* Sends at the rate until the window ends; the count sent in the window. */
static int64_t produce(const opts_t *o, rd_kafka_t *rk, const samples_t *s)
{
    rd_kafka_topic_t *rkt = rd_kafka_topic_new(rk, o->in, NULL);
    int64_t t0 = now_us(), sent = 0, in_window = 0;
    for (;;) {
        int64_t now = now_us();
        if (now > s->to_us) break;
        int64_t due = (now - t0) * o->rate / 1000000;
        for (; sent < due; sent++) {
            char v[32];
            int64_t t = now_us();
            int n = snprintf(v, sizeof v, "%" PRId64, t);
            while (rd_kafka_produce(rkt, RD_KAFKA_PARTITION_UA, RD_KAFKA_MSG_F_COPY, v, (size_t)n,
                                    NULL, 0, NULL) < 0)
                rd_kafka_poll(rk, 1);
            in_window += t >= s->from_us && t <= s->to_us;
        }
        rd_kafka_poll(rk, 0);
        pause_us(1000 - (long)(now_us() - now) % 1000);
    }
    rd_kafka_flush(rk, 10000);
    rd_kafka_topic_destroy(rkt);
    return in_window;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static double pct_ms(const samples_t *s, double p)
{
    if (!s->n) return 0;
    int64_t i = (int64_t)(p * (double)(s->n - 1) + 0.5);
    return (double)s->lat_us[i] / 1000.0;
}

static void parse_args(int argc, char **argv, opts_t *o)
{
    *o = (opts_t){.rate = 10000, .seconds = 10, .warmup = 3};
    int c;
    while ((c = getopt(argc, argv, "b:i:o:r:d:w:P:C:")) != -1) {
        if (c == 'b') o->brokers = optarg;
        else if (c == 'i') o->in = optarg;
        else if (c == 'o') o->out = optarg;
        else if (c == 'r') o->rate = atoll(optarg);
        else if (c == 'd') o->seconds = atoll(optarg);
        else if (c == 'w') o->warmup = atoll(optarg);
        else if (c == 'P' && o->npprops < MAX_PROPS) o->pprops[o->npprops++] = optarg;
        else if (c == 'C' && o->ncprops < MAX_PROPS) o->cprops[o->ncprops++] = optarg;
        else
            die("usage", "kafka_latency -b BROKERS -i IN -o OUT [-r RATE] [-d S] [-w S] "
                         "[-P k=v]... [-C k=v]...");
    }
    if (!o->brokers || !o->in || !o->out || o->rate < 1 || o->seconds < 1 || o->warmup < 0)
        die("usage", "-b, -i and -o are required; -r and -d positive");
}

int main(int argc, char **argv)
{
    opts_t o;
    parse_args(argc, argv, &o);
    const char *const cdefs[] = {"group.id=sluice-kafka-latency", "enable.auto.commit=false",
                                 "fetch.wait.max.ms=5", "isolation.level=read_committed", NULL};
    const char *const pdefs[] = {"linger.ms=0", NULL};
    samples_t s = {0};
    s.rk = client_new(RD_KAFKA_CONSUMER, &o, cdefs, o.cprops, o.ncprops);
    assign_end(s.rk, o.out);
    rd_kafka_t *prod = client_new(RD_KAFKA_PRODUCER, &o, pdefs, o.pprops, o.npprops);
    pthread_t th;
    if (pthread_create(&th, NULL, consumer_main, &s)) die("thread", "cannot start the consumer");
    s.from_us = now_us() + o.warmup * 1000000;
    s.to_us = s.from_us + o.seconds * 1000000;
    int64_t sent = produce(&o, prod, &s);
    int64_t drain_end = now_us() + DRAIN_US;
    while (now_us() < drain_end) pause_us(100000);
    atomic_store(&s.stop, 1);
    pthread_join(th, NULL);
    qsort(s.lat_us, (size_t)s.n, sizeof *s.lat_us, cmp_i64);
    printf("sent=%" PRId64 " received=%" PRId64 " p50=%.1f p90=%.1f p99=%.1f max=%.1f ms\n", sent,
           s.n, pct_ms(&s, 0.50), pct_ms(&s, 0.90), pct_ms(&s, 0.99), pct_ms(&s, 1.0));
    rd_kafka_destroy(prod);
    rd_kafka_consumer_close(s.rk);
    rd_kafka_destroy(s.rk);
    free(s.lat_us);
    return s.n ? 0 : 1;
}
