/* The HTTP server: the libmicrohttpd daemon and its limits, the access
 * handler that takes a request through its phases (headers, body, action),
 * turning handler answers into responses, and the threads that run STOP and
 * START while their connection is suspended. Routing and authentication are
 * in http_route.c; the documents in http_api.c, http_metrics.c, http_ui.c.
 *
 * Threads: MHD's polling threads (a small pool) call the access handler;
 * they run at a lower CPU priority (http_nice), so that API and metrics
 * traffic yields to micro-batches. GET handlers copy snapshots from
 * the query manager and never wait for a batch. A STOP or START would wait
 * up to a batch boundary, so the connection is suspended and the work runs
 * on a thread of its own (started by a dispatcher at normal priority), which
 * resumes the connection with the response. Connection deadlines and the
 * per-address cap are in http_conn.c, the Host and cross-site checks in
 * http_guard.c. */
#include "server/http_int.h"
#include "server/http_route.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "common/json_write.h"
#include "common/log.h"

/* Threads polling connections; requests are short, so two are plenty and
 * leave the rest of the CPUs to micro-batches. */
#define HTTP_THREADS 2
/* Body bytes past http_max_request_bytes read (and dropped) so that a
 * chunked upload still gets its 413; a longer one is cut off unanswered. */
#define HTTP_DRAIN_BYTES (1 << 20)

/* ---- responses ---- */

void http_header(http_resp_t *r, const char *name, const char *value)
{
    if (r->nheaders == HTTP_MAX_HEADERS) return; /* never: handlers set at most 4 */
    r->headers[r->nheaders][0] = name;
    r->headers[r->nheaders][1] = value;
    r->nheaders++;
}

void http_json(http_resp_t *r)
{
    r->status = MHD_HTTP_OK;
    r->type = HTTP_JSON_TYPE;
    http_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
}

void http_error(http_resp_t *r, unsigned status, const char *sqlstate, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sl_buf_clear(&r->body);
    r->static_body = NULL;
    r->nheaders = 0; /* an error replaces whatever answer was under way */
    r->status = status;
    r->type = HTTP_JSON_TYPE;
    http_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    sl_json_t j;
    sl_json_init(&j, &r->body, false);
    sl_json_object_begin(&j);
    sl_json_kv_string(&j, "error", msg);
    sl_json_kv_int(&j, "status", status);
    if (sqlstate) sl_json_kv_string(&j, "sqlstate", sqlstate);
    sl_json_object_end(&j);
}

static int code_index(unsigned status)
{
    switch (status) {
#define HTTP_CODE_CASE(c) \
    case c: return HTTP_IDX_##c;
        HTTP_CODES(HTTP_CODE_CASE)
#undef HTTP_CODE_CASE
    default: return HTTP_IDX_OTHER;
    }
}

/* Builds the MHD response of r (taking its body) with the common headers. */
static struct MHD_Response *response_make(http_resp_t *r)
{
    struct MHD_Response *m;
    if (r->static_body) {
        m = MHD_create_response_from_buffer(r->static_len, (void *)r->static_body,
                                            MHD_RESPMEM_PERSISTENT);
    } else {
        size_t n = r->body.len;
        m = MHD_create_response_from_buffer(n, sl_buf_steal(&r->body), MHD_RESPMEM_MUST_FREE);
    }
    if (!m) return NULL;
    MHD_add_response_header(m, MHD_HTTP_HEADER_CONTENT_TYPE, r->type ? r->type : HTTP_TEXT_TYPE);
    MHD_add_response_header(m, "X-Content-Type-Options", "nosniff");
    for (int i = 0; i < r->nheaders; i++)
        MHD_add_response_header(m, r->headers[i][0], r->headers[i][1]);
    return m;
}

static enum MHD_Result response_queue(http_req_t *rq, struct MHD_Response *m, unsigned status)
{
    if (!m) return MHD_NO;
    atomic_fetch_add(&rq->hs->responses[code_index(status)], 1);
    enum MHD_Result rc = MHD_queue_response(rq->conn, status, m);
    MHD_destroy_response(m);
    return rc;
}

static enum MHD_Result respond(http_req_t *rq, http_resp_t *r)
{
    enum MHD_Result rc = response_queue(rq, response_make(r), r->status);
    sl_buf_free(&r->body);
    return rc;
}

/* ---- STOP / START on their own threads ----
 *
 * MHD's threads run at http_nice and every thread inherits its creator's
 * priority, so they must not create the threads that run STOP and START: a
 * START creates the query's driver thread, which would inherit the low
 * priority too. A dispatcher thread, created by http_start on the loop
 * thread at normal priority, takes queued requests and starts one thread per
 * action (so a STOP waiting for one query's batch boundary does not hold up
 * another query's). */

/* An action finished: its thread is gone or about to be. */
static void action_done(http_server_t *hs)
{
    pthread_mutex_lock(&hs->lock);
    if (--hs->actions == 0) pthread_cond_broadcast(&hs->idle);
    pthread_mutex_unlock(&hs->lock);
}

static void *action_main(void *arg)
{
    http_req_t *rq = arg;
    http_server_t *hs = rq->hs;
    http_resp_t r = {0};
    sl_arena_adopt(rq->arena); /* handed over through the dispatcher's queue */
    http_api_action(rq, rq->name, rq->action, &r);
    rq->ready_status = r.status;
    rq->ready = response_make(&r);
    sl_buf_free(&r.body);
    rq->phase = HTTP_REQ_READY;
    MHD_resume_connection(rq->conn); /* rq belongs to MHD's thread from here on */
    action_done(hs);
    return NULL;
}

/* Starts a detached thread for one action; runs it inline when none can be
 * created (slower, still correct). */
static void action_spawn(http_req_t *rq)
{
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&t, &attr, action_main, rq);
    pthread_attr_destroy(&attr);
    if (rc == 0) return;
    SL_WARN("http", "could not start a thread for %s (%s); running it in line", rq->path,
            strerror(rc));
    action_main(rq);
}

/* The dispatcher: until http_stop, starts a thread for each queued action. */
static void *dispatcher_main(void *arg)
{
    http_server_t *hs = arg;
    for (;;) {
        pthread_mutex_lock(&hs->lock);
        while (!hs->queue && !hs->stopping) pthread_cond_wait(&hs->work, &hs->lock);
        http_req_t *rq = hs->queue;
        if (rq) hs->queue = rq->next;
        pthread_mutex_unlock(&hs->lock);
        if (!rq) return NULL; /* stopping and nothing queued */
        action_spawn(rq);
    }
}

/* Suspends the connection and queues the action for the dispatcher; answers
 * 503 when too many are in flight or the server is stopping. */
static enum MHD_Result action_begin(http_req_t *rq)
{
    http_server_t *hs = rq->hs;
    pthread_mutex_lock(&hs->lock);
    bool busy = hs->stopping || hs->actions >= HTTP_MAX_ACTIONS;
    if (!busy) hs->actions++;
    pthread_mutex_unlock(&hs->lock);
    if (busy) {
        http_resp_t r = {0};
        http_error(&r, MHD_HTTP_SERVICE_UNAVAILABLE, NULL,
                   "too many STOP/START requests in flight; retry later");
        http_header(&r, "Retry-After", "1");
        return respond(rq, &r);
    }
    rq->phase = HTTP_REQ_ACTION;
    MHD_suspend_connection(rq->conn); /* before anyone may resume it */
    pthread_mutex_lock(&hs->lock);
    http_req_t **tail = &hs->queue;
    while (*tail) tail = &(*tail)->next;
    *tail = rq;
    pthread_cond_signal(&hs->work);
    pthread_mutex_unlock(&hs->lock);
    return MHD_YES;
}

/* ---- the access handler ---- */

static http_req_t *req_new(http_server_t *hs, struct MHD_Connection *conn, const char *url,
                           const char *method)
{
    sl_arena_t *a = sl_arena_new("http request");
    http_req_t *rq = SL_NEW(a, http_req_t);
    rq->hs = hs;
    rq->conn = conn;
    rq->arena = a;
    rq->method = sl_strdup(a, method);
    rq->path = sl_strdup(a, url);
    rq->local_port = http_conn_local_port(http_conn_of(conn));
    return rq;
}

/* The first call: headers only. Answers at once unless a body must be read. */
static enum MHD_Result req_begin(http_req_t *rq)
{
    http_resp_t r = {0};
    http_route_t route;
    int rc = http_route_check(rq, &route, &r);
    if (rc == 1) {
        rq->phase = HTTP_REQ_BODY; /* a POST: read (and cap) its body first */
        return MHD_YES;
    }
    http_conn_request_read(rq->hs, http_conn_of(rq->conn));
    if (rc == 0) http_route_run(rq, &route, &r);
    return respond(rq, &r);
}

/* Takes a chunk of body: keeps at most max_body bytes, counts the rest. */
static void req_body(http_req_t *rq, const char *data, size_t n)
{
    size_t room = rq->hs->max_body > rq->body_len ? rq->hs->max_body - rq->body_len : 0;
    if (n > room) rq->body_too_large = true;
    sl_buf_append(&rq->body, data, n < room ? n : room);
    rq->body_len += n;
}

/* The last call of a request with a body (all of it received). */
static enum MHD_Result req_end(http_req_t *rq)
{
    http_resp_t r = {0};
    http_conn_request_read(rq->hs, http_conn_of(rq->conn));
    if (rq->body_too_large) {
        http_error(&r, MHD_HTTP_CONTENT_TOO_LARGE, NULL,
                   "request body too large: at most %zu bytes are accepted", rq->hs->max_body);
        http_header(&r, MHD_HTTP_HEADER_CONNECTION, "close");
        return respond(rq, &r);
    }
    if (http_route_post(rq, &r) == 1) return action_begin(rq);
    return respond(rq, &r);
}

static enum MHD_Result on_access(void *cls, struct MHD_Connection *conn, const char *url,
                                 const char *method, const char *version, const char *upload,
                                 size_t *upload_size, void **con_cls)
{
    (void)version;
    http_server_t *hs = cls;
    http_req_t *rq = *con_cls;
    if (!rq) {
        *con_cls = rq = req_new(hs, conn, url, method);
        return req_begin(rq);
    }
    switch (rq->phase) {
    case HTTP_REQ_BODY:
        if (*upload_size == 0) return req_end(rq);
        req_body(rq, upload, *upload_size);
        *upload_size = 0;
        return rq->body_len > hs->max_body + HTTP_DRAIN_BYTES ? MHD_NO : MHD_YES;
    case HTTP_REQ_READY: {
        sl_arena_adopt(rq->arena); /* handed back by the action's resume */
        struct MHD_Response *m = rq->ready;
        rq->ready = NULL;
        return response_queue(rq, m, rq->ready_status);
    }
    default: return MHD_YES; /* suspended: nothing to do until the action resumes it */
    }
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode why)
{
    (void)why;
    http_conn_request_done(cls, http_conn_of(conn)); /* the next request's time starts */
    http_req_t *rq = *con_cls;
    if (!rq) return;
    if (rq->ready) MHD_destroy_response(rq->ready);
    sl_buf_free(&rq->body);
    sl_arena_free(rq->arena);
    *con_cls = NULL;
}

/* Leaves the path and arguments as sent: routing decodes each segment and
 * each argument itself, so that an escaped '/' stays inside a query name. */
static size_t on_unescape(void *cls, struct MHD_Connection *conn, char *s)
{
    (void)cls;
    (void)conn;
    return strlen(s);
}

static void on_mhd_log(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r')) msg[--n] = '\0';
    SL_DEBUG("http", "libmicrohttpd: %s", msg);
}

/* ---- start and stop ---- */

/* Resolves the listen address (numeric, or a name such as localhost). */
static int listen_addr(const char *host, int port, struct sockaddr_storage *ss, sl_error_t *err)
{
    struct addrinfo hints = {0}, *res = NULL;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    int rc = getaddrinfo(host, NULL, &hints, &res);
    if (rc != 0 || !res)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "invalid http_listen_address \"%s\": %s", host, gai_strerror(rc));
    memcpy(ss, res->ai_addr, res->ai_addrlen);
    freeaddrinfo(res);
    if (ss->ss_family == AF_INET6) ((struct sockaddr_in6 *)ss)->sin6_port = htons((uint16_t)port);
    else ((struct sockaddr_in *)ss)->sin_port = htons((uint16_t)port);
    return 0;
}

static struct MHD_Daemon *daemon_start(http_server_t *hs, struct sockaddr_storage *ss)
{
    const conf_t *c = hs->srv->conf;
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
    if (ss->ss_family == AF_INET6) flags |= MHD_USE_IPv6;
    return MHD_start_daemon(
        flags, 0, NULL, NULL, on_access, hs, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)ss,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)HTTP_THREADS,
        /* http_conn.c applies http_max_connections; MHD splits its limit
         * between its threads, so each thread may take them all */
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)(c->http_max_connections * HTTP_THREADS),
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)c->http_timeout, MHD_OPTION_NOTIFY_CONNECTION,
        http_conn_notify, hs, /* deadlines, per-address cap */
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, hs, MHD_OPTION_UNESCAPE_CALLBACK, on_unescape,
        hs, MHD_OPTION_EXTERNAL_LOGGER, on_mhd_log, hs, MHD_OPTION_END);
}

/* Starting the daemon from a thread of its own whose priority is lowered
 * first: on Linux nice is per thread and inherited by the threads a thread
 * creates, so every libmicrohttpd thread runs at http_nice from birth while
 * the loop thread keeps its own priority (which an unprivileged process
 * could not raise back). */
typedef struct daemon_start_arg {
    http_server_t *hs;
    struct sockaddr_storage *ss;
    struct MHD_Daemon *daemon; /* out */
    int error;                 /* out: errno when daemon is NULL */
} daemon_start_arg_t;

static void *daemon_start_main(void *arg)
{
    daemon_start_arg_t *a = arg;
    if (a->hs->nice > 0 && setpriority(PRIO_PROCESS, (id_t)gettid(), a->hs->nice) < 0)
        SL_WARN("http", "could not lower the priority of the HTTP threads: %s", strerror(errno));
    a->daemon = daemon_start(a->hs, a->ss);
    a->error = errno;
    return NULL;
}

static struct MHD_Daemon *daemon_start_niced(http_server_t *hs, struct sockaddr_storage *ss)
{
    daemon_start_arg_t a = {.hs = hs, .ss = ss};
    pthread_t t;
    int rc = pthread_create(&t, NULL, daemon_start_main, &a);
    if (rc != 0) {
        errno = rc;
        return NULL;
    }
    pthread_join(t, NULL);
    errno = a.error;
    return a.daemon;
}

static void server_free(http_server_t *hs)
{
    if (hs->timer_started) http_conn_stop(hs);
    http_guard_free(hs);
    pthread_cond_destroy(&hs->work);
    pthread_cond_destroy(&hs->idle);
    pthread_mutex_destroy(&hs->lock);
    free(hs);
}

int http_start(srv_t *srv, sl_error_t *err)
{
    const conf_t *c = srv->conf;
    struct sockaddr_storage ss = {0};
    if (listen_addr(c->http_listen_address, (int)c->http_port, &ss, err) < 0) return -1;
    http_server_t *hs = sl_xcalloc(1, sizeof *hs);
    hs->srv = srv;
    hs->max_body = (size_t)c->http_max_request_bytes;
    hs->nice = (int)c->http_nice;
    hs->has_token = c->http_token[0] != '\0';
    if (hs->has_token)
        EVP_Digest(c->http_token, strlen(c->http_token), hs->token_digest, NULL, EVP_sha256(),
                   NULL);
    hs->timeout_ms = c->http_timeout * 1000;
    hs->per_ip = (int)c->http_per_ip_connections;
    hs->max_conns = (int)c->http_max_connections;
    pthread_mutex_init(&hs->lock, NULL);
    pthread_cond_init(&hs->idle, NULL);
    pthread_cond_init(&hs->work, NULL);
    if (http_guard_init(hs, c, err) < 0 || http_conn_start(hs, err) < 0) {
        server_free(hs);
        return -1;
    }
    hs->timer_started = true;
    hs->daemon = daemon_start_niced(hs, &ss);
    if (!hs->daemon) {
        int e = errno;
        server_free(hs);
        return sl_error_set(err, SL_ERR_IO_ERROR, "could not listen for HTTP on %s port %ld: %s",
                            c->http_listen_address, c->http_port, strerror(e));
    }
    int rc = pthread_create(&hs->dispatcher, NULL, dispatcher_main, hs);
    if (rc != 0) {
        MHD_stop_daemon(hs->daemon);
        server_free(hs);
        return sl_error_set(err, SL_ERR_IO_ERROR, "could not start the HTTP dispatcher thread: %s",
                            strerror(rc));
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(hs->daemon, MHD_DAEMON_INFO_BIND_PORT);
    hs->port = info ? (int)info->port : (int)c->http_port;
    srv->http = hs;
    SL_INFO("http", "listening addr=%s port=%d", c->http_listen_address, hs->port);
    return 0;
}

int http_port(const srv_t *srv)
{
    return srv->http ? srv->http->port : 0;
}

void http_stop(srv_t *srv)
{
    http_server_t *hs = srv->http;
    if (!hs) return;
    pthread_mutex_lock(&hs->lock);
    hs->stopping = true;
    pthread_cond_signal(&hs->work);
    while (hs->actions > 0) pthread_cond_wait(&hs->idle, &hs->lock);
    pthread_mutex_unlock(&hs->lock);
    pthread_join(hs->dispatcher, NULL);
    MHD_stop_daemon(hs->daemon); /* every connection closed: the timer has nothing left */
    server_free(hs);
    srv->http = NULL;
    SL_INFO("http", "stopped");
}
