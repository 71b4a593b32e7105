/* libFuzzer target for the SQL endpoint as a whole. The real pgwire
 * listener runs inside this process — three of them, with trust, password
 * and scram-sha-256 authentication, each a server with its own catalog in a
 * temporary directory, all on one libuv loop in a thread of their own, with
 * real sessions and statement execution behind them — and each input is one
 * client connection: frames written to a loopback socket, then the
 * connection ended at a point and in a way the input chooses.
 *
 * Input:
 *   byte 0  flags. Bits 0-1, how the connection ends: 0 drain (shut the
 *           write side, read until the server closes), 1 close (FIN), 2 reset
 *           (SO_LINGER 0), 3 wait for an answer, then reset. Bits 2-3, the
 *           server: 1 password, 2 scram-sha-256, else trust. Bit 4, raw
 *           start: the harness sends no StartupMessage (the frames bring
 *           their own, or an SSLRequest, a CancelRequest, garbage).
 *   byte 1  cut: the connection ends after this many frames (255: all).
 *   frames  a type byte, a length byte, then that many body bytes:
 *           - a message letter (Q P B D E S H C X d c f p F, or any other):
 *             sent with its length word. A Query or Parse whose body starts
 *             with a byte below 0x20 takes its statement from MENU instead
 *             (a Parse: the rest of the body is the statement's name, a
 *             NUL, then the parameter type count and types).
 *           - 0x00: the body sent as it is, without type or length word.
 *           - 0x01: a CancelRequest for this connection, from a second one.
 *           - 0x02: wait (at most 50 ms) for the server to send something.
 *
 * Invariants (abort, and libFuzzer keeps the input): no crash or sanitizer
 * report in the server; a client that shuts its side down is answered and
 * closed within 10 s; after every input a new connection logs in and runs
 * SELECT 1; every connection object is freed within 10 s of its client
 * leaving. Bytes that could touch files or the network, create objects or
 * run long (connector and path options, CREATE, COPY, sleeps, ...) are not
 * sent (FORBIDDEN); the menu's statements reach parameters, many rows, AWAIT
 * QUERY, errors and a short sleep. `make test` replays
 * tests/fuzz/corpus/pgwire. */
#include "tests/fuzz/fuzz.h"
#include <arpa/inet.h>
#include <ftw.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/log.h"
#include "connectors/memtable.h"
#include "common/pool.h"
#include "server/catalog.h"
#include "server/pgwire.h"
#include "server/pgwire_int.h"
#include "server/qm.h"
#include "server/table_store.h"

#define FZ_NSERVERS 3
#define FZ_DEADLINE_MS 10000
#define FZ_WAIT_MS 50
#define FZ_QUIET_MS 10
#define FZ_TAIL 16 /* bytes of earlier frames the filter also looks at */

static const char *const MENU[] = {
    "SELECT 1",
    "SELECT $1",
    "SELECT $1::int + $2::int",
    "SELECT a, b FROM fz_t WHERE a > $1::int",
    "SELECT a + x FROM fz_t, (VALUES (1), (2), (3), (4), (5), (6), (7), (8)) AS v (x)",
    "AWAIT QUERY fz_q",
    "AWAIT QUERY fz_q TIMEOUT '1 millisecond'",
    "SELECT pg_sleep(0.02)",
    "SHOW QUERIES",
    "SELEKT 1",
    "",
    "SELECT 1; SELECT 2",
    "SET application_name = 'fz'",
    "SELECT $2",
    ("WITH t (x) AS (VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10)) "
     "SELECT a.x, b.x, c.x, d.x FROM t a, t b, t c, t d"), /* 10,000 rows */
    "BEGIN",
    "COMMIT",
    "SELECT 1 / $1::int",
    "DESCRIBE fz_q",
    "SELECT 1; AWAIT QUERY fz_q; SELECT b FROM fz_t",
};
#define FZ_NMENU (sizeof MENU / sizeof *MENU)

static const char *const FORBIDDEN[] = {
    "file",  "kafka",  "path",    "checkpoint", "sleep",  "copy",   "query", "stream",
    "table", "insert", "delete",  "drop",       "create", "start",  "stop",  "into",
    "with",  "dir",    "nexmark", "rate",       "sink",   "option",
};

static const char *const SETUP[] = {
    "CREATE TABLE fz_t (a INT, b STRING)",
    "INSERT INTO fz_t VALUES (1, 'one'), (2, NULL)",
    "CREATE STREAM fz_rate USING rate OPTIONS (rowsPerSecond '5')",
    "CREATE QUERY fz_q TRIGGER PROCESSING TIME '1 hour' AS SELECT value FROM fz_rate",
};

static srv_t SRV[FZ_NSERVERS];
static int PORT[FZ_NSERVERS];
static uv_loop_t LOOP;
static uv_async_t COUNT_ASYNC;
static atomic_int NCONNS;
static atomic_int LOOP_READY; /* the servers listen */
static char DIR_[64];

static _Noreturn void fz_fatal(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_pgwire: %s: %s\n", what, detail);
    abort();
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- the servers, on their own loop thread -------------------------------------- */

static void srv_conf(srv_t *s, int i)
{
    static const srv_auth_t auth[FZ_NSERVERS] = {AUTH_TRUST, AUTH_PASSWORD, AUTH_SCRAM};
    static const char *const name[FZ_NSERVERS] = {"trust", "password", "scram-sha-256"};
    char arg[5][160] = {"port=0", "listen_addresses=127.0.0.1"};
    snprintf(arg[2], sizeof arg[2], "data_directory=%s/%d", DIR_, i);
    snprintf(arg[3], sizeof arg[3], "authentication=%s", name[i]);
    snprintf(arg[4], sizeof arg[4], "password_file=%s/passwd", DIR_); /* user fuzz, password fuzz */
    s->conf = conf_new();
    sl_error_t err;
    for (int k = 0; k < 5; k++)
        if (conf_set_arg(s->conf, arg[k], &err) < 0) fz_fatal(arg[k], err.message);
    s->auth = auth[i];
    mkdir(s->conf->data_directory, 0700);
}

static void srv_up(srv_t *s, int i, exec_pool_t *pool, exec_pool_t *io_pool)
{
    sl_error_t err;
    srv_conf(s, i);
    s->loop = &LOOP;
    s->worker_threads = 2;
    s->pool = pool;
    s->io_pool = io_pool;
    if (!(s->cat = cat_open(s->conf->data_directory, &err))) fz_fatal("catalog", err.message);
    if (!(s->tstore =
              tstore_open(s->conf->data_directory, (size_t)s->conf->table_cache_mb << 20, &err)))
        fz_fatal("table store", err.message);
    s->memtables = memtable_registry_new();
    s->qm = qm_new(s);
    if (pgw_start(s, &err) < 0) fz_fatal("pgw_start", err.message);
    PORT[i] = pgw_port(s);
}

static void on_count(uv_async_t *h)
{
    (void)h;
    int n = 0;
    for (int i = 0; i < FZ_NSERVERS; i++) n += SRV[i].pgw->nconns;
    atomic_store(&NCONNS, n);
}

static void *loop_main(void *arg)
{
    (void)arg;
    uv_loop_init(&LOOP);
    uv_async_init(&LOOP, &COUNT_ASYNC, on_count);
    exec_pool_t *pool = exec_pool_new(2), *io_pool = exec_pool_new_named(1, "sl-io");
    for (int i = 0; i < FZ_NSERVERS; i++) srv_up(&SRV[i], i, pool, io_pool);
    atomic_store(&LOOP_READY, 1);
    uv_run(&LOOP, UV_RUN_DEFAULT); /* the listeners keep it running until exit */
    return NULL;
}

/* Connection objects alive in all three servers (asked on the loop thread). */
static int conns_alive(void)
{
    atomic_store(&NCONNS, -1);
    uv_async_send(&COUNT_ASYNC);
    int n;
    while ((n = atomic_load(&NCONNS)) < 0) usleep(100);
    return n;
}

/* ---- the client side -------------------------------------------------------------------- */

static int fz_connect(int server)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)PORT[server])};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0)
        fz_fatal("connect", "the server is gone");
    return fd;
}

static void send_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
        if (w <= 0) return; /* the server closed: the rest is lost, as for any client */
        c += w;
        n -= (size_t)w;
    }
}

/* One read of what arrived within `ms`; returns bytes read, 0 at the
 * server's close (or reset), -1 when nothing came. */
static ssize_t read_some(int fd, sl_buf_t *in, int ms)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    if (poll(&p, 1, ms) <= 0) return -1;
    char buf[65536];
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return 0;
    sl_buf_append(in, buf, (size_t)n);
    return n;
}

/* The body of the first complete backend message of `type` after `from`. */
static const char *find_msg(const sl_buf_t *in, size_t from, char type, size_t *len)
{
    for (size_t off = from; in->len - off >= 5;) {
        uint32_t n = sl_get_u32be(in->data + off + 1);
        if (n < 4 || in->len - off - 1 < n) return NULL;
        if (in->data[off] == type) {
            *len = n - 4;
            return in->data + off + 5;
        }
        off += 1 + n;
    }
    return NULL;
}

/* Reads until a message of `type` (or an ErrorResponse, when `or_error`)
 * arrived after `from`, the server closed, or the deadline passed; 1 when found. */
static int read_until_msg(int fd, sl_buf_t *in, size_t from, char type, int or_error)
{
    int64_t deadline = now_ms() + FZ_DEADLINE_MS;
    size_t len;
    while (!find_msg(in, from, type, &len) && !(or_error && find_msg(in, from, 'E', &len))) {
        int left = (int)(deadline - now_ms());
        if (left <= 0 || read_some(fd, in, left) == 0) return 0;
    }
    return find_msg(in, from, type, &len) != NULL;
}

static void put_msg(sl_buf_t *b, char type, const void *body, size_t len)
{
    sl_buf_putc(b, type);
    sl_buf_put_u32be(b, (uint32_t)(len + 4));
    sl_buf_append(b, body, len);
}

static void send_startup(int fd)
{
    sl_buf_t b = SL_BUF_INIT;
    sl_buf_put_u32be(&b, 0);
    sl_buf_put_u32be(&b, PGW_CODE_PROTO_30);
    static const char params[] = "user\0fuzz\0database\0fuzz\0application_name\0fz\0";
    sl_buf_append(&b, params, sizeof params);
    sl_buf_set_u32be(&b, 0, (uint32_t)b.len);
    send_all(fd, b.data, b.len);
    sl_buf_free(&b);
}

/* One simple query on a logged-in trust connection; its answer's start in *at. */
static int simple_query(int fd, sl_buf_t *in, const char *sql, size_t *at)
{
    sl_buf_t b = SL_BUF_INIT;
    put_msg(&b, 'Q', sql, strlen(sql) + 1);
    *at = in->len;
    send_all(fd, b.data, b.len);
    sl_buf_free(&b);
    size_t len;
    return read_until_msg(fd, in, *at, 'Z', 0) && !find_msg(in, *at, 'E', &len);
}

/* A trust login that must succeed; returns the socket. */
static int login(sl_buf_t *in)
{
    int fd = fz_connect(0);
    send_startup(fd);
    if (!read_until_msg(fd, in, 0, 'Z', 1)) fz_fatal("login", "no ReadyForQuery");
    return fd;
}

/* The daemon still serves: a new connection runs SELECT 1, then leaves. */
static void probe(void)
{
    sl_buf_t in = SL_BUF_INIT;
    int fd = login(&in);
    size_t at, len;
    const char *row;
    if (!simple_query(fd, &in, "SELECT 1", &at) || !(row = find_msg(&in, at, 'D', &len)) ||
        len != 7 || row[6] != '1')
        fz_fatal("probe", "SELECT 1 did not answer 1");
    send_all(fd, "X\0\0\0\4", 5);
    close(fd);
    sl_buf_free(&in);
    int64_t deadline = now_ms() + FZ_DEADLINE_MS;
    while (conns_alive() > 0)
        if (now_ms() > deadline)
            fz_fatal("teardown", "a connection object outlived its client by 10 s");
        else usleep(200);
}

/* ---- one input ---------------------------------------------------------------------- */

typedef struct fz_conn {
    int fd, server;
    sl_buf_t in;          /* what the server sent */
    uint32_t pid, secret; /* from BackendKeyData, once seen */
    char tail[FZ_TAIL];   /* the last bytes sent, for the filter */
    size_t ntail;
} fz_conn_t;

/* True when the bytes (after the tail of what was sent) hold a FORBIDDEN word. */
static int forbidden(fz_conn_t *c, const char *p, size_t n)
{
    char *low = malloc(c->ntail + n + 1);
    memcpy(low, c->tail, c->ntail);
    memcpy(low + c->ntail, p, n);
    size_t len = c->ntail + n;
    for (size_t i = 0; i < len; i++)
        low[i] = (char)((low[i] >= 'A' && low[i] <= 'Z') ? low[i] + 32 : low[i]);
    int bad = 0;
    for (size_t i = 0; i < sizeof FORBIDDEN / sizeof *FORBIDDEN && !bad; i++)
        bad = memmem(low, len, FORBIDDEN[i], strlen(FORBIDDEN[i])) != NULL;
    free(low);
    return bad;
}

/* Sends bytes that the filter lets through (a menu statement is trusted). */
static void conn_send(fz_conn_t *c, const sl_buf_t *b, int trusted)
{
    if (!trusted && forbidden(c, b->data, b->len)) return;
    send_all(c->fd, b->data, b->len);
    if (trusted) { /* the menu's words must not taint what follows */
        c->ntail = 0;
        return;
    }
    size_t keep = b->len < FZ_TAIL ? b->len : FZ_TAIL;
    if (c->ntail + keep > FZ_TAIL) {
        size_t drop = c->ntail + keep - FZ_TAIL;
        memmove(c->tail, c->tail + drop, c->ntail - drop);
        c->ntail -= drop;
    }
    memcpy(c->tail + c->ntail, b->data + b->len - keep, keep);
    c->ntail += keep;
}

/* A Query or Parse body whose first byte picks a MENU statement. */
static void menu_body(sl_buf_t *b, char type, const uint8_t *body, size_t len)
{
    const char *sql = MENU[body[0] % FZ_NMENU];
    if (type == 'Q') {
        sl_buf_append(b, sql, strlen(sql) + 1);
        return;
    }
    const uint8_t *nul = memchr(body + 1, '\0', len - 1);
    size_t name = nul ? (size_t)(nul - body - 1) : len - 1;
    sl_buf_append(b, body + 1, name);
    sl_buf_putc(b, '\0');
    sl_buf_append(b, sql, strlen(sql) + 1);
    if (nul && (size_t)(nul + 1 - body) < len)
        sl_buf_append(b, nul + 1, len - (size_t)(nul + 1 - body));
    else sl_buf_put_u16be(b, 0);
}

static void send_message(fz_conn_t *c, char type, const uint8_t *body, size_t len)
{
    sl_buf_t msg = SL_BUF_INIT, b = SL_BUF_INIT;
    int menu = (type == 'Q' || type == 'P') && len > 0 && body[0] < 0x20;
    if (menu) menu_body(&b, type, body, len);
    else sl_buf_append(&b, body, len);
    put_msg(&msg, type, b.data, b.len);
    conn_send(c, &msg, menu);
    sl_buf_free(&msg);
    sl_buf_free(&b);
}

static void send_raw(fz_conn_t *c, const uint8_t *body, size_t len)
{
    sl_buf_t b = SL_BUF_INIT;
    sl_buf_append(&b, body, len);
    conn_send(c, &b, 0);
    sl_buf_free(&b);
}

/* Reads what arrives within `ms` (until the server is quiet for
 * FZ_QUIET_MS after its first bytes), and remembers the backend key. */
static void conn_wait(fz_conn_t *c, int ms)
{
    int64_t deadline = now_ms() + ms;
    int left = ms;
    while (read_some(c->fd, &c->in, left) > 0) {
        left = (int)(deadline - now_ms());
        if (left > FZ_QUIET_MS) left = FZ_QUIET_MS;
        if (left <= 0) break;
    }
    size_t len;
    const char *k = find_msg(&c->in, 0, 'K', &len);
    if (k && len == 8) {
        c->pid = sl_get_u32be(k);
        c->secret = sl_get_u32be(k + 4);
    }
}

/* A CancelRequest naming this connection, on a connection of its own. */
static void send_cancel(fz_conn_t *c)
{
    conn_wait(c, 0);
    int fd = fz_connect(c->server);
    sl_buf_t req = SL_BUF_INIT;
    sl_buf_put_u32be(&req, 16);
    sl_buf_put_u32be(&req, PGW_CODE_CANCEL);
    sl_buf_put_u32be(&req, c->pid);
    sl_buf_put_u32be(&req, c->secret);
    send_all(fd, req.data, req.len);
    sl_buf_free(&req);
    sl_buf_t in = SL_BUF_INIT;
    while (read_some(fd, &in, FZ_DEADLINE_MS) > 0) {
    } /* the server closes it without an answer */
    sl_buf_free(&in);
    close(fd);
}

/* Sends frames until the input or the cut ends them. */
static void run_frames(fz_conn_t *c, const uint8_t *p, size_t n, int cut)
{
    for (int k = 0; n >= 2 && k != cut; k++) {
        uint8_t type = p[0];
        size_t len = p[1] < n - 2 ? p[1] : n - 2;
        const uint8_t *body = p + 2;
        p += 2 + len;
        n -= 2 + len;
        if (type == 0x00) send_raw(c, body, len);
        else if (type == 0x01) send_cancel(c);
        else if (type == 0x02) conn_wait(c, FZ_WAIT_MS);
        else send_message(c, (char)type, body, len);
    }
}

static void conn_reset(int fd)
{
    struct linger l = {.l_onoff = 1, .l_linger = 0};
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    close(fd);
}

/* Ends the connection the way the flags say. */
static void conn_end(fz_conn_t *c, int how)
{
    if (how == 1) {
        close(c->fd);
    } else if (how == 2) {
        conn_reset(c->fd);
    } else if (how == 3) {
        conn_wait(c, FZ_WAIT_MS);
        conn_reset(c->fd);
    } else {
        shutdown(c->fd, SHUT_WR);
        int64_t deadline = now_ms() + FZ_DEADLINE_MS;
        for (;;) {
            int left = (int)(deadline - now_ms());
            if (left <= 0)
                fz_fatal("drain", "the server did not close a connection its client ended");
            ssize_t r = read_some(c->fd, &c->in, left);
            if (r == 0) break;
            if (c->in.len > (1 << 20)) sl_buf_clear(&c->in);
        }
        close(c->fd);
    }
}

/* FUZZ_PGWIRE_TRACE=1: the server logs at debug level, and each input
 * ends with the types of the messages the server sent (as far as they
 * were read), for writing seeds. */
static void trace(const fz_conn_t *c)
{
    static int on = -1;
    if (on < 0) on = getenv("FUZZ_PGWIRE_TRACE") != NULL;
    if (!on) return;
    char types[256];
    size_t n = 0, off = 0;
    while (c->in.len - off >= 5 && n + 1 < sizeof types) {
        uint32_t len = sl_get_u32be(c->in.data + off + 1);
        if (len < 4 || c->in.len - off - 1 < len) break;
        types[n++] = c->in.data[off];
        off += 1 + len;
    }
    types[n] = '\0';
    fprintf(stderr, "fuzz_pgwire: server %d answered %s%s\n", c->server, types,
            off < c->in.len ? " ..." : "");
}

/* ---- setup ---------------------------------------------------------------------------- */

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static void remove_dir(void)
{
    sl_log_set_level(SL_LOG_FATAL); /* a batch still running loses its files: not news */
    nftw(DIR_, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void setup_objects(void)
{
    sl_buf_t in = SL_BUF_INIT;
    int fd = login(&in);
    for (size_t i = 0; i < sizeof SETUP / sizeof *SETUP; i++) {
        size_t at;
        if (!simple_query(fd, &in, SETUP[i], &at)) fz_fatal("setup", SETUP[i]);
    }
    size_t at; /* the query's first batch ends now, not while the process exits */
    if (!simple_query(fd, &in, "AWAIT QUERY fz_q", &at)) fz_fatal("setup", "AWAIT QUERY fz_q");
    close(fd);
    sl_buf_free(&in);
}

static void setup(void)
{
    snprintf(DIR_, sizeof DIR_, "/tmp/sluice-fuzz-pgwire-XXXXXX");
    if (!mkdtemp(DIR_)) fz_fatal("mkdtemp", DIR_);
    atexit(remove_dir);
    char path[128];
    snprintf(path, sizeof path, "%s/passwd", DIR_);
    FILE *f = fopen(path, "w");
    if (!f) fz_fatal("password file", path);
    fputs("fuzz:fuzz\n", f);
    fclose(f);
    signal(SIGPIPE,
           SIG_IGN); /* as sluiced does: a write to a closed socket is an error, not a kill */
    sl_log_set_level(getenv("FUZZ_PGWIRE_TRACE") ? SL_LOG_DEBUG : SL_LOG_ERROR);
    setenv("UV_THREADPOOL_SIZE", "4", 0);
    pthread_t t;
    if (pthread_create(&t, NULL, loop_main, NULL) != 0) fz_fatal("thread", "cannot start the loop");
    pthread_detach(t);
    while (atomic_load(&LOOP_READY) == 0) usleep(1000);
    setup_objects();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, setup);
    if (size < 2) return 0;
    int server = (data[0] >> 2) & 3;
    fz_conn_t c = {.server = server == 3 ? 0 : server, .in = SL_BUF_INIT};
    c.fd = fz_connect(c.server);
    if (!(data[0] & 0x10)) {
        send_startup(c.fd);
        read_until_msg(c.fd, &c.in, 0, c.server ? 'R' : 'Z', 1);
        conn_wait(&c, 0);
    }
    run_frames(&c, data + 2, size - 2, data[1] == 255 ? -1 : data[1]);
    conn_end(&c, data[0] & 3);
    trace(&c);
    sl_buf_free(&c.in);
    probe();
    return 0;
}
