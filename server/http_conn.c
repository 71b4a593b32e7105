/* The HTTP connections of the server, tracked from accept to close, so
 * that a client that trickles its request cannot keep a connection, nor
 * take every slot of its address (slowloris).
 *
 * libmicrohttpd's own timeout (http_timeout) is an idle timeout: each byte
 * received restarts it, so one header byte a second keeps a connection
 * forever. Here each connection has a deadline: http_timeout after it was
 * accepted or after its previous response was sent, its request (line,
 * headers and body) must be complete. A timer thread sleeps until the
 * earliest deadline and cuts connections past theirs with shutdown(2):
 * libmicrohttpd sees the end of the stream at once and closes the
 * connection itself. While a complete request is being answered (a STOP
 * waiting for a batch boundary) there is no deadline.
 *
 * The caps on connections (http_per_ip_connections per client address,
 * http_max_connections in all) are kept here too, not by libmicrohttpd:
 * its answer to a full cap is to refuse the newcomer, which lets 32
 * trickling connections shut every other client of their address out (and
 * it splits http_max_connections between its threads, so one thread's
 * share filled up refuses clients the other could serve). Here a newcomer
 * past a cap takes the slot of the oldest connection that is still waiting
 * for its request and has waited at least HTTP_EVICT_AGE_MS; only when
 * there is none is the newcomer cut.
 *
 * Threads: the notify callback and the request hooks run on MHD's threads,
 * the timer on its own; everything here is guarded by hs->conn_lock. A
 * connection's fd stays valid until its CLOSED notification, which removes
 * it from the list under that lock, so the timer never shuts down an fd
 * that was closed and reused. */
#include "server/http_int.h"

#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "common/log.h"

/* A connection waiting for its request this long may lose its slot to a
 * newcomer of the same address (a client sends a request in milliseconds). */
#define HTTP_EVICT_AGE_MS 1000

struct http_conn {
    int fd;                 /* the socket (valid until the CLOSED notification) */
    int local_port;         /* the server port the client connected to */
    int family;             /* AF_INET / AF_INET6 */
    unsigned char addr[16]; /* the client address (4 or 16 bytes) */
    int64_t since_ms;       /* when the current request's window began */
    int64_t deadline_ms;    /* its request must be complete by then; 0 = being answered */
    bool cut;               /* shut down by us; closing */
    http_conn_t *prev, *next;
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Shuts the connection down (caller holds conn_lock). */
static void conn_cut(http_conn_t *hc, const char *why)
{
    hc->cut = true;
    if (shutdown(hc->fd, SHUT_RDWR) < 0 && errno != ENOTCONN)
        SL_DEBUG("http", "could not shut a connection down: %s", strerror(errno));
    SL_DEBUG("http", "connection cut: %s", why);
}

static bool same_address(const http_conn_t *a, const http_conn_t *b)
{
    return a->family == b->family && !memcmp(a->addr, b->addr, sizeof a->addr);
}

/* The oldest connection (of hc's address when `same`) still waiting for a
 * request after HTTP_EVICT_AGE_MS, or NULL; *n counts the open ones. */
static http_conn_t *conn_oldest_waiting(http_server_t *hs, const http_conn_t *hc, bool same,
                                        int64_t now, int *n)
{
    http_conn_t *oldest = NULL;
    *n = 0;
    for (http_conn_t *c = hs->conns; c; c = c->next) {
        if (c->cut || (same && !same_address(c, hc))) continue;
        (*n)++;
        /* <=: the list is newest first, so ties go to the earliest accepted */
        if (c->deadline_ms && c->since_ms <= now - HTTP_EVICT_AGE_MS &&
            (!oldest || c->since_ms <= oldest->since_ms))
            oldest = c;
    }
    return oldest;
}

/* Admits `hc` under the caps (caller holds conn_lock; hc not listed yet):
 * past http_per_ip_connections for its address, or http_max_connections
 * in all, the oldest connection waiting for its request makes room, else
 * hc itself is cut. */
static void conn_admit(http_server_t *hs, http_conn_t *hc, int64_t now)
{
    int n;
    http_conn_t *victim = NULL;
    const char *cap = NULL;
    if (hs->per_ip > 0) {
        victim = conn_oldest_waiting(hs, hc, true, now, &n);
        if (n >= hs->per_ip) cap = "http_per_ip_connections";
    }
    if (!cap) {
        victim = conn_oldest_waiting(hs, hc, false, now, &n);
        if (n >= hs->max_conns) cap = "http_max_connections";
    }
    if (!cap) return;
    conn_cut(victim ? victim : hc, cap);
}

/* The client address and the local port of a new connection. */
static void conn_addresses(http_conn_t *hc, struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *sa = ci ? ci->client_addr : NULL;
    if (sa && sa->sa_family == AF_INET) {
        hc->family = AF_INET;
        memcpy(hc->addr, &((const struct sockaddr_in *)sa)->sin_addr, 4);
    } else if (sa && sa->sa_family == AF_INET6) {
        hc->family = AF_INET6;
        memcpy(hc->addr, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
    }
    struct sockaddr_storage local;
    socklen_t len = sizeof local;
    if (getsockname(hc->fd, (struct sockaddr *)&local, &len) < 0) return;
    if (local.ss_family == AF_INET6)
        hc->local_port = ntohs(((struct sockaddr_in6 *)&local)->sin6_port);
    else hc->local_port = ntohs(((struct sockaddr_in *)&local)->sin_port);
}

/* Debug line of a new connection with the count of open ones (the tests
 * wait on it: a connection the kernel took may not be accepted yet). */
static void conn_log_opened(http_server_t *hs, const http_conn_t *hc)
{
    int open = 0;
    for (const http_conn_t *c = hs->conns; c; c = c->next) open += !c->cut;
    SL_DEBUG("http", "connection opened open=%d%s", open, hc->cut ? " (cut: at a cap)" : "");
}

static void conn_started(http_server_t *hs, struct MHD_Connection *conn, void **ctx)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    http_conn_t *hc = sl_xcalloc(1, sizeof *hc);
    hc->fd = ci ? ci->connect_fd : -1;
    conn_addresses(hc, conn);
    pthread_mutex_lock(&hs->conn_lock);
    int64_t now = now_ms();
    hc->since_ms = now;
    hc->deadline_ms = now + hs->timeout_ms;
    conn_admit(hs, hc, now);
    hc->next = hs->conns;
    if (hs->conns) hs->conns->prev = hc;
    hs->conns = hc;
    if (sl_log_get_level() == SL_LOG_DEBUG) conn_log_opened(hs, hc);
    pthread_cond_signal(&hs->conn_wake);
    pthread_mutex_unlock(&hs->conn_lock);
    *ctx = hc;
}

static void conn_closed(http_server_t *hs, http_conn_t *hc)
{
    pthread_mutex_lock(&hs->conn_lock);
    if (hc->prev) hc->prev->next = hc->next;
    else hs->conns = hc->next;
    if (hc->next) hc->next->prev = hc->prev;
    pthread_mutex_unlock(&hs->conn_lock);
    free(hc);
}

void http_conn_notify(void *cls, struct MHD_Connection *conn, void **ctx,
                      enum MHD_ConnectionNotificationCode code)
{
    http_server_t *hs = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        conn_started(hs, conn, ctx);
    } else if (*ctx) {
        conn_closed(hs, *ctx);
        *ctx = NULL; /* http_conn_of answers NULL from now on */
    }
}

http_conn_t *http_conn_of(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

int http_conn_local_port(const http_conn_t *hc)
{
    return hc ? hc->local_port : 0;
}

void http_conn_request_read(http_server_t *hs, http_conn_t *hc)
{
    if (!hc) return;
    pthread_mutex_lock(&hs->conn_lock);
    hc->deadline_ms = 0;
    pthread_mutex_unlock(&hs->conn_lock);
}

void http_conn_request_done(http_server_t *hs, http_conn_t *hc)
{
    if (!hc) return;
    pthread_mutex_lock(&hs->conn_lock);
    hc->since_ms = now_ms();
    hc->deadline_ms = hc->since_ms + hs->timeout_ms;
    pthread_cond_signal(&hs->conn_wake);
    pthread_mutex_unlock(&hs->conn_lock);
}

/* ---- the timer ---- */

/* Cuts connections past their deadline; returns the earliest deadline
 * left, 0 when none (caller holds conn_lock). */
static int64_t conn_sweep(http_server_t *hs, int64_t now)
{
    int64_t next = 0;
    for (http_conn_t *c = hs->conns; c; c = c->next) {
        if (c->cut || !c->deadline_ms) continue;
        if (c->deadline_ms <= now) conn_cut(c, "no complete request within http_timeout");
        else if (!next || c->deadline_ms < next) next = c->deadline_ms;
    }
    return next;
}

static void *timer_main(void *arg)
{
    http_server_t *hs = arg;
    pthread_setname_np(pthread_self(), "sl-http-timer");
    pthread_mutex_lock(&hs->conn_lock);
    while (!hs->timer_stop) {
        int64_t next = conn_sweep(hs, now_ms());
        if (!next) {
            pthread_cond_wait(&hs->conn_wake, &hs->conn_lock);
            continue;
        }
        struct timespec ts = {.tv_sec = next / 1000, .tv_nsec = (next % 1000) * 1000000};
        pthread_cond_timedwait(&hs->conn_wake, &hs->conn_lock, &ts);
    }
    pthread_mutex_unlock(&hs->conn_lock);
    return NULL;
}

int http_conn_start(http_server_t *hs, sl_error_t *err)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&hs->conn_wake, &attr);
    pthread_condattr_destroy(&attr);
    pthread_mutex_init(&hs->conn_lock, NULL);
    int rc = pthread_create(&hs->timer, NULL, timer_main, hs);
    if (rc == 0) return 0;
    pthread_cond_destroy(&hs->conn_wake);
    pthread_mutex_destroy(&hs->conn_lock);
    return sl_error_set(err, SL_ERR_IO_ERROR, "could not start the HTTP timer thread: %s",
                        strerror(rc));
}

void http_conn_stop(http_server_t *hs)
{
    pthread_mutex_lock(&hs->conn_lock);
    hs->timer_stop = true;
    pthread_cond_signal(&hs->conn_wake);
    pthread_mutex_unlock(&hs->conn_lock);
    pthread_join(hs->timer, NULL);
    pthread_cond_destroy(&hs->conn_wake);
    pthread_mutex_destroy(&hs->conn_lock);
}
