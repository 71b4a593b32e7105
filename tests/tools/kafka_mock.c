/* kafka_mock: a Kafka-protocol broker for tests, librdkafka's mock cluster
 * in a process of its own. It prints the bootstrap servers on stdout (one
 * line, flushed) once the cluster is up, then stays up until stdin reaches
 * end of file or it gets SIGTERM/SIGINT.
 *
 *   kafka_mock [-b BROKERS] [-t TOPIC:PARTITIONS]...
 *
 * -b   number of brokers (default 1)
 * -t   a topic to create before printing the servers (repeatable)
 *
 * While it runs, stdin takes one command per line, each answered on stdout
 * with "ok" or "error: <why>":
 *   create TOPIC PARTITIONS   create a topic (the way to add partitions to a
 *                             subscription: the mock cannot grow a topic)
 *   down BROKER_ID | up BROKER_ID   take a broker down or bring it back
 *   fail-produce COUNT ERROR  the next COUNT produce requests fail with the
 *                             Kafka error code ERROR (e.g. 29, topic
 *                             authorization failed: not retried)
 *   clear-produce             forget the produce errors not yet used
 *
 * The mock is a real broker for clients (kcat, sluiced) but keeps only the
 * newest ~50,000 messages of a partition and does not hide aborted
 * transactions from read_committed readers (TESTING.md). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#define MAX_TOPICS 64

static volatile sig_atomic_t g_stop;

static void on_signal(int sig)
{
    (void)sig;
    g_stop = 1;
}

/* One -t argument: "name:partitions". */
typedef struct topic_arg {
    char name[256]; /* topic name */
    int partitions; /* partition count, >= 1 */
} topic_arg_t;

static int usage(void)
{
    fprintf(stderr, "usage: kafka_mock [-b BROKERS] [-t TOPIC:PARTITIONS]...\n");
    return 2;
}

static int parse_topic(const char *arg, topic_arg_t *t)
{
    const char *colon = strrchr(arg, ':');
    size_t n = colon ? (size_t)(colon - arg) : strlen(arg);
    if (n == 0 || n >= sizeof t->name) return -1;
    memcpy(t->name, arg, n);
    t->name[n] = 0;
    t->partitions = colon ? atoi(colon + 1) : 1;
    return t->partitions > 0 ? 0 : -1;
}

/* The handle that hosts the cluster (a producer that never produces). */
static rd_kafka_t *host_handle(void)
{
    char errstr[512];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "log_level", "3", errstr, sizeof errstr);
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
    if (!rk) fprintf(stderr, "kafka_mock: %s\n", errstr);
    return rk;
}

static void reply(rd_kafka_resp_err_t e)
{
    if (e) printf("error: %s\n", rd_kafka_err2str(e));
    else printf("ok\n");
    fflush(stdout);
}

/* The next `n` Produce requests (API key 0) fail with Kafka error `code`. */
static rd_kafka_resp_err_t fail_produce(rd_kafka_mock_cluster_t *mc, int n, int code)
{
    if (n <= 0 || n > 100000) return RD_KAFKA_RESP_ERR__INVALID_ARG;
    rd_kafka_resp_err_t *errs = malloc(sizeof *errs * (size_t)n);
    if (!errs) return RD_KAFKA_RESP_ERR__FAIL;
    for (int i = 0; i < n; i++) errs[i] = (rd_kafka_resp_err_t)code;
    rd_kafka_mock_push_request_errors_array(mc, 0, (size_t)n, errs);
    free(errs);
    return RD_KAFKA_RESP_ERR_NO_ERROR;
}

/* Runs one stdin command. */
static void command(rd_kafka_mock_cluster_t *mc, char *line)
{
    char what[16], name[256];
    int n, code;
    if (sscanf(line, "%15s %255s %d", what, name, &n) == 3 && !strcmp(what, "create"))
        reply(n > 0 ? rd_kafka_mock_topic_create(mc, name, n, 1) : RD_KAFKA_RESP_ERR__INVALID_ARG);
    else if (sscanf(line, "%15s %d %d", what, &n, &code) == 3 && !strcmp(what, "fail-produce"))
        reply(fail_produce(mc, n, code));
    else if (sscanf(line, "%15s", what) == 1 && !strcmp(what, "clear-produce")) {
        rd_kafka_mock_clear_request_errors(mc, 0);
        reply(RD_KAFKA_RESP_ERR_NO_ERROR);
    } else if (sscanf(line, "%15s %d", what, &n) == 2 && !strcmp(what, "down"))
        reply(rd_kafka_mock_broker_set_down(mc, n));
    else if (sscanf(line, "%15s %d", what, &n) == 2 && !strcmp(what, "up"))
        reply(rd_kafka_mock_broker_set_up(mc, n));
    else if (line[strspn(line, " \t\r\n")]) {
        printf("error: unknown command\n");
        fflush(stdout);
    }
}

/* Reads commands until end of file or a signal. */
static void serve(rd_kafka_mock_cluster_t *mc)
{
    char buf[4096];
    size_t len = 0;
    while (!g_stop) {
        struct pollfd p = {.fd = 0, .events = POLLIN};
        int r = poll(&p, 1, 200);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) continue;
        ssize_t got = read(0, buf + len, sizeof buf - 1 - len);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return;
        len += (size_t)got;
        buf[len] = 0;
        char *nl;
        while ((nl = strchr(buf, '\n'))) {
            *nl = 0;
            command(mc, buf);
            len -= (size_t)(nl + 1 - buf);
            memmove(buf, nl + 1, len + 1);
        }
        if (len == sizeof buf - 1) len = 0; /* an overlong line is dropped */
    }
}

int main(int argc, char **argv)
{
    int brokers = 1, ntopics = 0, c;
    static topic_arg_t topics[MAX_TOPICS];
    while ((c = getopt(argc, argv, "b:t:")) != -1) {
        if (c == 'b' && (brokers = atoi(optarg)) > 0) continue;
        if (c == 't' && ntopics < MAX_TOPICS && parse_topic(optarg, &topics[ntopics]) == 0) {
            ntopics++;
            continue;
        }
        return usage();
    }
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    rd_kafka_t *rk = host_handle();
    rd_kafka_mock_cluster_t *mc = rk ? rd_kafka_mock_cluster_new(rk, brokers) : NULL;
    if (!mc) {
        fprintf(stderr, "kafka_mock: could not start the mock cluster\n");
        if (rk) rd_kafka_destroy(rk);
        return 1;
    }
    for (int i = 0; i < ntopics; i++) {
        rd_kafka_resp_err_t e =
            rd_kafka_mock_topic_create(mc, topics[i].name, topics[i].partitions, 1);
        if (e) fprintf(stderr, "kafka_mock: topic %s: %s\n", topics[i].name, rd_kafka_err2str(e));
    }
    printf("%s\n", rd_kafka_mock_cluster_bootstraps(mc));
    fflush(stdout);
    serve(mc);
    rd_kafka_mock_cluster_destroy(mc);
    rd_kafka_destroy(rk);
    return 0;
}
