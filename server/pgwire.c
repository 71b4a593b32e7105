/* The SQL endpoint's transport: listeners on every configured address,
 * connection objects with their two libuv handles, the read path (through
 * TLS when negotiated), message framing with length caps, the write path
 * with backpressure, closing, and shutdown (pgw_stop).
 *
 * Handle lifetime: each connection owns a uv_tcp_t and a uv_timer_t; it is
 * freed in the close callback of the second one. Listeners are heap handles
 * freed in their close callbacks. pgw_stop's done callback runs when every
 * one of these is closed. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/rand.h>

#include "common/log.h"
#include "common/sl_assert.h"
#include "server/pgwire_int.h"
#include "common/failpoint.h"

typedef struct pgw_write {
    uv_write_t req;
    pgw_conn_t *c;
    char *data;
} pgw_write_t;

static void conn_close_handles(pgw_conn_t *c);
static void server_maybe_done(pgw_server_t *ps);

/* ---- output ---------------------------------------------------------------- */

static void on_write(uv_write_t *req, int status)
{
    pgw_write_t *w = (pgw_write_t *)req;
    pgw_conn_t *c = w->c;
    free(w->data);
    free(w);
    c->writes_pending--;
    if (status < 0) {
        if (status != UV_ECANCELED)
            SL_DEBUG("pgwire", "write failed peer=%s: %s", c->peer, uv_strerror(status));
        conn_close_handles(c);
    } else if (c->closing) {
        if (c->writes_pending == 0) conn_close_handles(c);
    } else {
        pgw_conn_process(c); /* a reply paused on backpressure may go on */
    }
}

/* Queues the bytes of b on the socket and empties b. */
static void conn_write(pgw_conn_t *c, sl_buf_t *b)
{
    if (b->len == 0) return;
    pgw_write_t *w = sl_xmalloc(sizeof *w);
    size_t len = b->len;
    w->c = c;
    w->data = sl_buf_steal(b);
    uv_buf_t ub = uv_buf_init(w->data, (unsigned int)len);
    int rc = uv_write(&w->req, (uv_stream_t *)&c->tcp, &ub, 1, on_write);
    if (rc < 0) {
        free(w->data);
        free(w);
        conn_close_handles(c);
        return;
    }
    c->writes_pending++;
}

void pgw_conn_flush(pgw_conn_t *c)
{
    if (c->handles_closing) {
        sl_buf_clear(&c->out);
        return;
    }
    if (!c->tls) {
        conn_write(c, &c->out);
        return;
    }
    sl_error_t err;
    if (c->out.len && tls_conn_established(c->tls) &&
        tls_conn_write(c->tls, c->out.data, c->out.len, &err) < 0) {
        SL_INFO("pgwire", "closing connection peer=%s: %s", c->peer, err.message);
        sl_buf_clear(&c->out);
        conn_close_handles(c);
        return;
    }
    sl_buf_clear(&c->out);
    sl_buf_t cipher = SL_BUF_INIT;
    tls_conn_take_output(c->tls, &cipher);
    conn_write(c, &cipher);
    sl_buf_free(&cipher);
}

size_t pgw_conn_backlog(pgw_conn_t *c)
{
    return uv_stream_get_write_queue_size((uv_stream_t *)&c->tcp) + c->out.len;
}

/* ---- closing --------------------------------------------------------------- */

static void conn_free(pgw_conn_t *c)
{
    pgw_server_t *ps = c->srv;
    /* conn_detach ran: no session, no password check and no write refers to c */
    SL_ASSERT(c->handles_closing && !c->sess && !c->pwcheck && c->writes_pending == 0);
    if (c->prev) c->prev->next = c->next;
    else ps->conns = c->next;
    if (c->next) c->next->prev = c->prev;
    ps->nconns--;
    if (c->counted) ps->nbackends--;
    pgw_query_release(c);
    if (c->scram_active) auth_scram_free(&c->scram);
    tls_conn_free(c->tls);
    sl_buf_free(&c->in);
    sl_buf_free(&c->out);
    free(c->user);
    free(c->database);
    sl_buf_free(&c->gucs);
    free(c);
    server_maybe_done(ps);
}

static void on_conn_handle_closed(uv_handle_t *h)
{
    pgw_conn_t *c = h->data;
    if (--c->handles_open == 0) conn_free(c);
}

/* Ends the session (dropping a submission in flight) and stops all work.
 * What the connection still owns (statements, portals, a reply being sent,
 * the statement a Parse was describing) is freed with it in conn_free. */
static void conn_detach(pgw_conn_t *c)
{
    SL_ASSERT(pgw_on_loop(c->srv));
    c->closing = 1;
    if (c->reading) uv_read_stop((uv_stream_t *)&c->tcp);
    c->reading = 0;
    if (c->sess) sess_close(c->sess);
    c->sess = NULL;
    pgw_auth_detach(c); /* a password check in flight finishes without us */
    c->wait = PGW_WAIT_NONE;
    c->wait_portal = NULL;
    c->job = 0;
    c->xportal = NULL;
}

static void conn_close_handles(pgw_conn_t *c)
{
    if (c->handles_closing) return;
    conn_detach(c);
    c->handles_closing = 1;
    uv_close((uv_handle_t *)&c->tcp, on_conn_handle_closed);
    uv_close((uv_handle_t *)&c->timer, on_conn_handle_closed);
}

static void on_close_timeout(uv_timer_t *t)
{
    pgw_conn_t *c = t->data;
    SL_DEBUG("pgwire", "peer=%s did not take its last output; closing", c->peer);
    conn_close_handles(c);
}

void pgw_conn_close(pgw_conn_t *c)
{
    if (c->closing) return;
    conn_detach(c);
    pgw_conn_flush(c); /* the last messages, then TLS's close_notify behind them */
    if (c->tls && tls_conn_established(c->tls) && !c->handles_closing) {
        tls_conn_shutdown(c->tls);
        pgw_conn_flush(c);
    }
    if (c->handles_closing) return;
    if (c->writes_pending == 0) {
        conn_close_handles(c);
        return;
    }
    uv_timer_stop(&c->timer);
    uv_timer_start(&c->timer, on_close_timeout, PGW_CLOSE_TIMEOUT_MS, 0);
}

void pgw_conn_fatal_err(pgw_conn_t *c, const sl_error_t *err)
{
    if (c->closing) return;
    SL_INFO("pgwire", "closing connection peer=%s user=%s sqlstate=%s: %s", c->peer,
            c->user ? c->user : "", err->sqlstate, err->message);
    if (c->can_send && (!c->tls || tls_conn_established(c->tls)))
        pgw_msg_error(&c->out, "FATAL", err);
    pgw_conn_close(c);
}

void pgw_conn_fatal(pgw_conn_t *c, const char *sqlstate, const char *fmt, ...)
{
    sl_error_t err;
    va_list ap;
    va_start(ap, fmt);
    sl_error_setv(&err, sqlstate, fmt, ap);
    va_end(ap);
    pgw_conn_fatal_err(c, &err);
}

/* ---- input ----------------------------------------------------------------- */

size_t pgw_conn_avail(const pgw_conn_t *c)
{
    return c->in.len - c->in_off;
}

/* Frames and dispatches one message; returns 1 if one was consumed. */
static int conn_dispatch_one(pgw_conn_t *c)
{
    size_t avail = pgw_conn_avail(c);
    if (avail == 0) return 0; /* in.data may be NULL: no pointer arithmetic on it */
    const char *p = c->in.data + c->in_off;
    if (c->state == PGW_ST_STARTUP) {
        if (avail < 4) return 0;
        uint32_t len = sl_get_u32be(p);
        if (len < PGW_STARTUP_MIN || len > PGW_STARTUP_MAX) {
            pgw_conn_fatal(c, SL_ERR_PROTOCOL_VIOLATION, "invalid length of startup packet");
            return 0;
        }
        if (avail < len) return 0;
        c->in_off += len;
        pgw_startup_packet(c, p + 4, len - 4);
        return 1;
    }
    if (avail < 5) return 0;
    char type = p[0];
    uint32_t len = sl_get_u32be(p + 1);
    size_t max =
        c->state == PGW_ST_READY ? (size_t)c->srv->srv->conf->max_message_bytes : PGW_AUTH_MSG_MAX;
    if (len < 4 || len > max) {
        pgw_conn_fatal(c, SL_ERR_PROTOCOL_VIOLATION,
                       "invalid message length %u for message type %d", len,
                       (int)(unsigned char)type);
        return 0;
    }
    if (avail - 1 < len) return 0;
    c->in_off += (size_t)len + 1;
    /* one message at a time: nothing in flight, no reply going out */
    SL_ASSERT(!c->closing && c->wait == PGW_WAIT_NONE && !c->job);
    if (c->state == PGW_ST_READY) {
        if (type == 'Q') failpoint_hit("pgwire.query"); /* tests crash the daemon here */
        pgw_query_message(c, type, p + 5, len - 4);
    } else {
        pgw_auth_message(c, type, p + 5, len - 4);
    }
    return 1;
}

/* Drops consumed input; gives back the memory of a large message once done. */
static void conn_compact_input(pgw_conn_t *c)
{
    if (c->in_off == 0) return;
    sl_buf_consume(&c->in, c->in_off);
    c->in_off = 0;
    if (c->in.len == 0 && c->in.cap > 4 * PGW_READ_CHUNK) sl_buf_free(&c->in);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    (void)suggested;
    pgw_conn_t *c = h->data;
    *buf = uv_buf_init(c->srv->rbuf, sizeof c->srv->rbuf);
}

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
    pgw_conn_t *c = s->data;
    if (nread == 0 || c->closing) return;
    if (nread < 0) {
        if (nread != UV_EOF)
            SL_DEBUG("pgwire", "read failed peer=%s: %s", c->peer, uv_strerror((int)nread));
        conn_close_handles(c);
        return;
    }
    if (!c->tls) {
        sl_buf_append(&c->in, buf->base, (size_t)nread);
    } else {
        sl_error_t err;
        int rc = tls_conn_feed(c->tls, buf->base, (size_t)nread, &c->in, &err);
        if (rc < 0) SL_INFO("pgwire", "closing connection peer=%s: %s", c->peer, err.message);
        if (rc != 0) {
            pgw_conn_close(c);
            return;
        }
    }
    pgw_conn_process(c);
}

static void conn_update_reading(pgw_conn_t *c)
{
    int want =
        !c->closing && c->wait == PGW_WAIT_NONE && !c->job && pgw_conn_backlog(c) <= PGW_OUT_HIGH;
    if (want && !c->reading) {
        if (uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read) == 0) c->reading = 1;
    } else if (!want && c->reading) {
        uv_read_stop((uv_stream_t *)&c->tcp);
        c->reading = 0;
    }
}

int pgw_on_loop(const pgw_server_t *ps)
{
    uv_thread_t self = uv_thread_self();
    return uv_thread_equal(&self, &ps->loop_thread);
}

void pgw_conn_process(pgw_conn_t *c)
{
    SL_ASSERT(pgw_on_loop(c->srv));
    if (c->processing || c->handles_closing) return;
    c->processing = 1;
    while (!c->closing) {
        if (c->job && !pgw_query_resume(c)) break;
        if (c->wait != PGW_WAIT_NONE || pgw_conn_backlog(c) > PGW_OUT_HIGH) break;
        if (!conn_dispatch_one(c)) break;
    }
    pgw_conn_flush(c);
    conn_compact_input(c);
    conn_update_reading(c);
    c->processing = 0;
}

/* ---- accepting ------------------------------------------------------------- */

static void on_auth_timeout(uv_timer_t *t)
{
    pgw_conn_t *c = t->data;
    if (c->state == PGW_ST_READY || c->closing) return;
    SL_INFO("pgwire", "closing connection peer=%s: authentication timeout", c->peer);
    pgw_conn_close(c);
}

static void conn_peer_name(pgw_conn_t *c)
{
    struct sockaddr_storage sa;
    int len = sizeof sa;
    char ip[48] = "?";
    int port = 0;
    if (uv_tcp_getpeername(&c->tcp, (struct sockaddr *)&sa, &len) == 0) {
        if (sa.ss_family == AF_INET6) {
            uv_ip6_name((struct sockaddr_in6 *)&sa, ip, sizeof ip);
            port = ntohs(((struct sockaddr_in6 *)&sa)->sin6_port);
        } else {
            uv_ip4_name((struct sockaddr_in *)&sa, ip, sizeof ip);
            port = ntohs(((struct sockaddr_in *)&sa)->sin_port);
        }
    }
    snprintf(c->peer, sizeof c->peer, "%s:%d", ip, port);
}

static pgw_conn_t *conn_new(pgw_server_t *ps)
{
    pgw_conn_t *c = sl_xcalloc(1, sizeof *c);
    c->srv = ps;
    uv_tcp_init(ps->srv->loop, &c->tcp);
    uv_timer_init(ps->srv->loop, &c->timer);
    c->tcp.data = c;
    c->timer.data = c;
    c->handles_open = 2;
    c->next = ps->conns;
    if (ps->conns) ps->conns->prev = c;
    ps->conns = c;
    ps->nconns++;
    return c;
}

static void on_connection(uv_stream_t *listener, int status)
{
    pgw_server_t *ps = listener->data;
    if (status < 0) {
        SL_WARN("pgwire", "accept failed: %s", uv_strerror(status));
        return;
    }
    pgw_conn_t *c = conn_new(ps);
    if (uv_accept(listener, (uv_stream_t *)&c->tcp) < 0 || ps->stopping) {
        conn_close_handles(c);
        return;
    }
    conn_peer_name(c);
    uv_tcp_nodelay(&c->tcp, 1);
    c->can_send = 1;
    SL_DEBUG("pgwire", "connection received peer=%s", c->peer);
    if (ps->nconns > ps->srv->conf->max_connections + PGW_HARD_CONN_SLACK) {
        pgw_conn_fatal(c, SL_ERR_TOO_MANY_CONNECTIONS, "sorry, too many clients already");
        return;
    }
    uv_timer_start(&c->timer, on_auth_timeout,
                   (uint64_t)ps->srv->conf->authentication_timeout * 1000, 0);
    pgw_conn_process(c);
}

/* ---- listening ------------------------------------------------------------- */

static void on_listener_closed(uv_handle_t *h)
{
    pgw_server_t *ps = h->data;
    free(h);
    ps->handles_open--;
    server_maybe_done(ps);
}

static int listen_one(pgw_server_t *ps, const char *addr, sl_error_t *err)
{
    struct sockaddr_storage sa;
    int v6 = strchr(addr, ':') != NULL;
    int port = ps->port > 0 ? ps->port : (int)ps->srv->conf->port;
    int rc = v6 ? uv_ip6_addr(addr, port, (struct sockaddr_in6 *)&sa)
                : uv_ip4_addr(addr, port, (struct sockaddr_in *)&sa);
    if (rc < 0)
        return sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR, "invalid listen address \"%s\"", addr);
    if (ps->nlisteners == PGW_MAX_LISTENERS)
        return sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR, "too many listen addresses");
    uv_tcp_t *t = sl_xcalloc(1, sizeof *t);
    uv_tcp_init(ps->srv->loop, t);
    t->data = ps;
    ps->listeners[ps->nlisteners++] = t;
    ps->handles_open++;
    rc = uv_tcp_bind(t, (struct sockaddr *)&sa, v6 ? UV_TCP_IPV6ONLY : 0);
    if (rc == 0) rc = uv_listen((uv_stream_t *)t, 511, on_connection);
    if (rc < 0)
        return sl_error_set(err, SL_ERR_IO_ERROR, "could not listen on %s port %d: %s", addr, port,
                            uv_strerror(rc));
    int len = sizeof sa;
    uv_tcp_getsockname(t, (struct sockaddr *)&sa, &len);
    ps->port =
        ntohs(v6 ? ((struct sockaddr_in6 *)&sa)->sin6_port : ((struct sockaddr_in *)&sa)->sin_port);
    SL_INFO("pgwire", "listening addr=%s port=%d", addr, ps->port);
    return 0;
}

/* Binds every address of listen_addresses ("*" = all IPv4 and IPv6). The
 * first bind decides the port when port = 0; the others reuse it. */
static int listen_all(pgw_server_t *ps, sl_error_t *err)
{
    char *list = sl_xstrdup(ps->srv->conf->listen_addresses), *save = NULL;
    int rc = 0, n = 0;
    for (char *a = strtok_r(list, ", \t", &save); a && rc == 0; a = strtok_r(NULL, ", \t", &save)) {
        if (!strcmp(a, "*")) {
            rc = listen_one(ps, "0.0.0.0", err);
            if (rc == 0) rc = listen_one(ps, "::", err);
        } else {
            rc = listen_one(ps, strcmp(a, "localhost") ? a : "127.0.0.1", err);
        }
        n++;
    }
    free(list);
    if (rc == 0 && n == 0)
        rc = sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR, "listen_addresses is empty");
    return rc;
}

/* ---- start and stop -------------------------------------------------------- */

static int load_tls(pgw_server_t *ps, const conf_t *cf, sl_error_t *err)
{
    int have_cert = cf->ssl_cert_file[0] != '\0', have_key = cf->ssl_key_file[0] != '\0';
    if (have_cert != have_key)
        return sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR,
                            "ssl_cert_file and ssl_key_file must be set together");
    if (!strcmp(cf->ssl, "require") && !have_cert)
        return sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR,
                            "ssl = require needs ssl_cert_file and ssl_key_file");
    if (!have_cert || !strcmp(cf->ssl, "off")) return 0;
    ps->tls = tls_ctx_new(cf->ssl_cert_file, cf->ssl_key_file, err);
    return ps->tls ? 0 : -1;
}

static int load_auth(pgw_server_t *ps, const conf_t *cf, sl_error_t *err)
{
    if (cf->password_file[0]) {
        ps->auth = auth_db_load(cf->password_file, err);
        if (!ps->auth) return -1;
    }
    if (ps->srv->auth != AUTH_TRUST && !ps->auth) {
        sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR, "authentication = %s requires password_file",
                     ps->srv->auth == AUTH_PASSWORD ? "password" : "scram-sha-256");
        return sl_error_hint(err, "Set password_file to a file of user:password lines, or set "
                                  "authentication = trust to let anyone who can connect in.");
    }
    return 0;
}

static void server_free(pgw_server_t *ps)
{
    tls_ctx_free(ps->tls);
    auth_db_free(ps->auth);
    free(ps);
}

static void server_maybe_done(pgw_server_t *ps)
{
    if (!ps->stopping || ps->handles_open > 0 || ps->nconns > 0 || !ps->done_cb) return;
    void (*done)(srv_t *) = ps->done_cb;
    srv_t *srv = ps->srv;
    ps->done_cb = NULL;
    srv->pgw = NULL;
    server_free(ps);
    SL_INFO("pgwire", "stopped");
    done(srv);
}

int pgw_start(srv_t *srv, sl_error_t *err)
{
    pgw_server_t *ps = sl_xcalloc(1, sizeof *ps);
    ps->srv = srv;
    ps->loop_thread = uv_thread_self(); /* pgw_start runs on the loop thread */
    uint32_t r = 0;
    RAND_bytes((unsigned char *)&r, sizeof r);
    ps->next_pid = (int32_t)(1000 + r % 1000000);
    if (load_tls(ps, srv->conf, err) < 0 || load_auth(ps, srv->conf, err) < 0 ||
        listen_all(ps, err) < 0) {
        for (int i = 0; i < ps->nlisteners; i++)
            uv_close((uv_handle_t *)ps->listeners[i], on_listener_closed);
        uv_run(srv->loop, UV_RUN_NOWAIT); /* runs the close callbacks, freeing the listeners */
        server_free(ps);
        return -1;
    }
    SL_INFO("pgwire", "ready tls=%s authentication=%s", ps->tls ? srv->conf->ssl : "off",
            srv->auth == AUTH_TRUST      ? "trust"
            : srv->auth == AUTH_PASSWORD ? "password"
                                         : "scram-sha-256");
    srv->pgw = ps;
    return 0;
}

int pgw_port(const srv_t *srv)
{
    return srv->pgw ? srv->pgw->port : -1;
}

void pgw_stop(srv_t *srv, void (*done_cb)(srv_t *srv))
{
    pgw_server_t *ps = srv->pgw;
    if (!ps) {
        done_cb(srv);
        return;
    }
    if (ps->stopping) return;
    ps->stopping = 1;
    ps->done_cb = done_cb;
    for (int i = 0; i < ps->nlisteners; i++)
        uv_close((uv_handle_t *)ps->listeners[i], on_listener_closed);
    for (pgw_conn_t *c = ps->conns; c; c = c->next) {
        if (c->state == PGW_ST_STARTUP) pgw_conn_close(c);
        else
            pgw_conn_fatal(c, SL_ERR_ADMIN_SHUTDOWN,
                           "terminating connection due to administrator command");
    }
    server_maybe_done(ps);
}
