/* The startup phase of a connection: SSLRequest and GSSENCRequest
 * negotiation, CancelRequest, the StartupMessage, the authentication
 * exchanges (trust, cleartext password, SCRAM-SHA-256) and the greeting that
 * follows AuthenticationOk. Messages follow PostgreSQL's
 * src/backend/postmaster/postmaster.c and libpq/auth.c, including their
 * error texts, so that clients report familiar errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/rand.h>

#include "common/log.h"
#include "server/pgwire_int.h"

#define AUTH_REQ_OK 0
#define AUTH_REQ_PASSWORD 3
#define AUTH_REQ_SASL 10
#define AUTH_REQ_SASL_CONTINUE 11
#define AUTH_REQ_SASL_FINAL 12

/* ---- requests that precede the startup message ---------------------------- */

static void unsupported_protocol(pgw_conn_t *c, uint32_t code)
{
    pgw_conn_fatal(c, SL_ERR_PROTOCOL_VIOLATION,
                   "unsupported frontend protocol %u.%u: server supports 3.0 to 3.0", code >> 16,
                   code & 0xffff);
}

/* Answers 'S' (and starts TLS) or 'N'. Bytes already behind the request
 * would be plaintext injected ahead of the handshake: refuse them. */
static void ssl_request(pgw_conn_t *c)
{
    c->ssl_done = 1;
    if (pgw_conn_avail(c) > 0) {
        pgw_conn_fatal(c, SL_ERR_PROTOCOL_VIOLATION, "received unencrypted data after SSL request");
        return;
    }
    if (!c->srv->tls) {
        sl_buf_putc(&c->out, 'N');
        return;
    }
    sl_buf_putc(&c->out, 'S');
    pgw_conn_flush(c); /* 'S' goes out in plaintext, everything after through TLS */
    c->tls = tls_conn_new(c->srv->tls);
}

/* Answers 'N': GSSAPI encryption is not offered. As after an SSLRequest,
 * bytes already behind the request were sent before the client could read
 * the answer and may have been injected: refuse them (PostgreSQL's fix of
 * CVE-2021-23214 covers both requests). */
static void gssenc_request(pgw_conn_t *c)
{
    c->gss_done = 1;
    if (pgw_conn_avail(c) > 0) {
        pgw_conn_fatal(c, SL_ERR_PROTOCOL_VIOLATION,
                       "received unencrypted data after GSSAPI encryption request");
        return;
    }
    sl_buf_putc(&c->out, 'N');
}

static pgw_conn_t *find_backend(pgw_server_t *ps, int32_t pid)
{
    for (pgw_conn_t *c = ps->conns; c; c = c->next)
        if (c->state == PGW_ST_READY && !c->closing && c->pid == pid) return c;
    return NULL;
}

/* CancelRequest: pid and secret key; never answered, the connection closes. */
static void cancel_request(pgw_conn_t *c, const char *body, size_t len)
{
    if (len != 12) {
        pgw_conn_fatal(c, SL_ERR_PROTOCOL_VIOLATION, "invalid length of cancel request");
        return;
    }
    int32_t pid = (int32_t)sl_get_u32be(body + 4);
    unsigned char key[4];
    memcpy(key, body + 8, 4);
    pgw_conn_t *target = find_backend(c->srv, pid);
    unsigned char want[4] = {0};
    if (target) {
        want[0] = (unsigned char)(target->secret >> 24);
        want[1] = (unsigned char)(target->secret >> 16);
        want[2] = (unsigned char)(target->secret >> 8);
        want[3] = (unsigned char)target->secret;
    }
    if (target && auth_ct_equal(key, want, 4)) {
        SL_DEBUG("pgwire", "cancel request for pid=%d", (int)pid);
        if (target->sess) sess_cancel(target->sess);
        if (target->copy) pgw_copy_cancel(target);
    } else {
        SL_INFO("pgwire", "cancel request peer=%s names no backend (pid=%d)", c->peer, (int)pid);
    }
    pgw_conn_close(c);
}

/* ---- the startup message --------------------------------------------------- */

static void startup_guc(pgw_conn_t *c, const char *name, size_t nlen, const char *value,
                        size_t vlen)
{
    sl_buf_append(&c->gucs, name, nlen);
    sl_buf_putc(&c->gucs, '\0');
    sl_buf_append(&c->gucs, value, vlen);
    sl_buf_putc(&c->gucs, '\0');
}

/* One word of `options`, with backslash escapes; returns the end of it. */
static const char *options_word(const char *p, sl_buf_t *w)
{
    sl_buf_clear(w);
    while (*p && *p != ' ' && *p != '\t') {
        if (*p == '\\' && p[1]) p++;
        sl_buf_putc(w, *p++);
    }
    sl_buf_putc(w, '\0');
    return p;
}

/* `options`: command-line switches, of which sluice takes PostgreSQL's
 * setting ones: -c name=value and --name=value. Returns -1 on another. */
static int startup_options(pgw_conn_t *c, const char *p)
{
    sl_buf_t w = SL_BUF_INIT;
    int rc = 0, want_setting = 0;
    while (rc == 0 && *p) {
        if (*p == ' ' || *p == '\t') {
            p++;
            continue;
        }
        p = options_word(p, &w);
        const char *s = w.data;
        if (!want_setting && !strcmp(s, "-c")) {
            want_setting = 1;
            continue;
        }
        if (!want_setting && !strncmp(s, "--", 2)) s += 2;
        else if (!want_setting && !strncmp(s, "-c", 2)) s += 2;
        else if (!want_setting) rc = -1;
        const char *eq = strchr(s, '=');
        if (rc == 0 && (!eq || eq == s)) rc = -1;
        if (rc == 0) startup_guc(c, s, (size_t)(eq - s), eq + 1, strlen(eq + 1));
        want_setting = 0;
    }
    if (want_setting) rc = -1;
    sl_buf_free(&w);
    return rc;
}

/* Reads name/value pairs; returns -1 on a malformed layout, -2 on bad options. */
static int startup_params(pgw_conn_t *c, const char *p, const char *end)
{
    while (p < end && *p) {
        const char *name = p, *nul = memchr(p, '\0', (size_t)(end - p));
        if (!nul || nul + 1 >= end) return -1;
        const char *value = nul + 1, *vnul = memchr(value, '\0', (size_t)(end - value));
        if (!vnul) return -1;
        char **slot = !strcmp(name, "user")       ? &c->user
                      : !strcmp(name, "database") ? &c->database
                                                  : NULL;
        if (slot) {
            free(*slot);
            *slot = sl_xstrdup(value);
        } else if (!strcmp(name, "options")) {
            if (startup_options(c, value) < 0) return -2;
        } else if (strcmp(name, "replication") && strncmp(name, "_pq_.", 5)) {
            startup_guc(c, name, (size_t)(nul - name), value, (size_t)(vnul - value));
        }
        p = vnul + 1;
    }
    return (p + 1 == end) ? 0 : -1; /* exactly one terminating NUL */
}

static void send_auth_request(pgw_conn_t *c)
{
    pgw_server_t *ps = c->srv;
    if (ps->srv->auth == AUTH_PASSWORD) {
        pgw_msg_auth(&c->out, AUTH_REQ_PASSWORD, NULL, 0);
        c->state = PGW_ST_AUTH_PASSWORD;
        return;
    }
    const unsigned char *cb = NULL;
    size_t cblen = (c->tls && ps->tls) ? tls_ctx_cbind(ps->tls, &cb) : 0;
    auth_scram_init(&c->scram, ps->auth, c->user, cb, cblen);
    c->scram_active = 1;
    sl_buf_t mechs = SL_BUF_INIT;
    auth_scram_mechanisms(&c->scram, &mechs);
    pgw_msg_auth(&c->out, AUTH_REQ_SASL, mechs.data, mechs.len);
    sl_buf_free(&mechs);
    c->state = PGW_ST_AUTH_SASL;
}

static void auth_ok(pgw_conn_t *c);

static void startup_message(pgw_conn_t *c, const char *body, size_t len)
{
    pgw_server_t *ps = c->srv;
    int rc = startup_params(c, body + 4, body + len);
    if (rc == -2) {
        pgw_conn_fatal(c, SL_ERR_PROTOCOL_VIOLATION,
                       "invalid command-line argument for server process in the options of the "
                       "startup packet");
        return;
    }
    if (rc < 0) {
        pgw_conn_fatal(c, SL_ERR_PROTOCOL_VIOLATION,
                       "invalid startup packet layout: expected terminator as last byte");
        return;
    }
    if (!c->user || !c->user[0]) {
        pgw_conn_fatal(c, SL_ERR_INVALID_AUTHORIZATION,
                       "no PostgreSQL user name specified in startup packet");
        return;
    }
    if (!c->database || !c->database[0]) {
        free(c->database);
        c->database = sl_xstrdup(c->user);
    }
    if (!strcmp(ps->srv->conf->ssl, "require") && !c->tls) {
        sl_error_t err;
        sl_error_set(&err, SL_ERR_INVALID_AUTHORIZATION,
                     "TLS is required: this server refuses unencrypted connections");
        sl_error_hint(&err, "Connect with sslmode=require (or verify-ca, verify-full).");
        pgw_conn_fatal_err(c, &err);
        return;
    }
    if (ps->nbackends >= ps->srv->conf->max_connections) {
        pgw_conn_fatal(c, SL_ERR_TOO_MANY_CONNECTIONS, "sorry, too many clients already");
        return;
    }
    c->counted = 1;
    ps->nbackends++;
    if (ps->srv->auth == AUTH_TRUST) auth_ok(c);
    else send_auth_request(c);
}

void pgw_startup_packet(pgw_conn_t *c, const char *body, size_t len)
{
    uint32_t code = sl_get_u32be(body);
    if (code == PGW_CODE_CANCEL) {
        cancel_request(c, body, len);
    } else if (code == PGW_CODE_SSL && !c->ssl_done && len == 4) {
        ssl_request(c);
    } else if (code == PGW_CODE_GSSENC && !c->gss_done && !c->tls && len == 4) {
        gssenc_request(c);
    } else if (code == PGW_CODE_PROTO_30) {
        startup_message(c, body, len);
    } else {
        unsupported_protocol(c, code);
    }
}

/* ---- authentication exchanges ---------------------------------------------- */

static void auth_failed(pgw_conn_t *c, const sl_error_t *err)
{
    pgw_conn_fatal_err(c, err);
}

/* A cleartext password check: PBKDF2 costs milliseconds, so it runs on the
 * thread pool, never on the loop. */
struct pgw_pwcheck {
    uv_work_t work;
    pgw_conn_t *c; /* NULL once the connection is gone */
    auth_verifier_t v;
    char *password;
    int known, ok;
};

static void pwcheck_work(uv_work_t *w)
{
    pgw_pwcheck_t *pc = w->data;
    pc->ok =
        auth_verifier_check_password(&pc->v, pc->password) & pc->known & (pc->password[0] != '\0');
}

static void pwcheck_free(pgw_pwcheck_t *pc)
{
    OPENSSL_cleanse(pc->password, strlen(pc->password));
    free(pc->password);
    OPENSSL_cleanse(pc, sizeof *pc);
    free(pc);
}

static void pwcheck_done(uv_work_t *w, int status)
{
    (void)status;
    pgw_pwcheck_t *pc = w->data;
    pgw_conn_t *c = pc->c;
    int ok = pc->ok;
    pwcheck_free(pc);
    if (!c) return;
    c->pwcheck = NULL;
    c->wait = PGW_WAIT_NONE;
    if (ok) {
        auth_ok(c);
    } else {
        sl_error_t err;
        auth_fail(&err, c->user);
        auth_failed(c, &err);
    }
    pgw_conn_process(c);
}

void pgw_auth_detach(pgw_conn_t *c)
{
    if (c->pwcheck) c->pwcheck->c = NULL;
    c->pwcheck = NULL;
}

/* PasswordMessage: the password, NUL-terminated. */
static void password_message(pgw_conn_t *c, const char *body, size_t len)
{
    if (len == 0 || body[len - 1] != '\0' || memchr(body, '\0', len) != body + len - 1) {
        pgw_conn_fatal(c, SL_ERR_PROTOCOL_VIOLATION, "invalid password packet size");
        return;
    }
    pgw_pwcheck_t *pc = sl_xcalloc(1, sizeof *pc);
    pc->work.data = pc;
    pc->c = c;
    pc->known = auth_db_lookup(c->srv->auth, c->user, &pc->v);
    pc->password = sl_xstrdup(body);
    c->pwcheck = pc;
    c->wait = PGW_WAIT_AUTH;
    uv_queue_work(c->srv->srv->loop, &pc->work, pwcheck_work, pwcheck_done);
}

/* SASLInitialResponse: mechanism, int32 length (-1 = none), client-first-message. */
static void sasl_initial(pgw_conn_t *c, const char *body, size_t len)
{
    sl_error_t err;
    const char *nul = memchr(body, '\0', len);
    if (!nul || (size_t)(body + len - (nul + 1)) < 4) {
        pgw_conn_fatal(c, SL_ERR_PROTOCOL_VIOLATION, "malformed SASL initial response");
        return;
    }
    const char *p = nul + 1;
    uint32_t n = sl_get_u32be(p);
    p += 4;
    if (n == 0xFFFFFFFFu || n != (size_t)(body + len - p)) {
        pgw_conn_fatal(c, SL_ERR_PROTOCOL_VIOLATION, "malformed SASL initial response");
        return;
    }
    sl_buf_t sf = SL_BUF_INIT;
    if (auth_scram_first(&c->scram, body, p, n, &sf, &err) < 0) {
        auth_failed(c, &err);
    } else {
        pgw_msg_auth(&c->out, AUTH_REQ_SASL_CONTINUE, sf.data, sf.len);
        c->state = PGW_ST_AUTH_SASL_CONT;
    }
    sl_buf_free(&sf);
}

static void sasl_response(pgw_conn_t *c, const char *body, size_t len)
{
    sl_error_t err;
    sl_buf_t sf = SL_BUF_INIT;
    if (auth_scram_final(&c->scram, body, len, &sf, &err) < 0) {
        auth_failed(c, &err);
    } else {
        pgw_msg_auth(&c->out, AUTH_REQ_SASL_FINAL, sf.data, sf.len);
        auth_ok(c);
    }
    sl_buf_free(&sf);
}

void pgw_auth_message(pgw_conn_t *c, char type, const char *body, size_t len)
{
    if (type == 'X') { /* e.g. psql closing to prompt for a password */
        pgw_conn_close(c);
        return;
    }
    if (type != 'p') {
        pgw_conn_fatal(c, SL_ERR_PROTOCOL_VIOLATION, "expected %s response, got message type %d",
                       c->state == PGW_ST_AUTH_PASSWORD ? "password" : "SASL",
                       (int)(unsigned char)type);
        return;
    }
    if (c->state == PGW_ST_AUTH_PASSWORD) password_message(c, body, len);
    else if (c->state == PGW_ST_AUTH_SASL) sasl_initial(c, body, len);
    else sasl_response(c, body, len);
}

/* ---- after authentication --------------------------------------------------- */

/* The startup packet's settings, applied as SET would (PostgreSQL ends the
 * connection with FATAL on a bad one). */
static int apply_settings(pgw_conn_t *c)
{
    const char *p = c->gucs.data, *end = p + c->gucs.len;
    while (p && p < end) {
        const char *name = p, *value = name + strlen(name) + 1;
        sl_error_t err;
        if (sess_startup_setting(c->sess, name, value, &err) < 0) {
            pgw_conn_fatal_err(c, &err);
            return -1;
        }
        p = value + strlen(value) + 1;
    }
    return 0;
}

static void report_setting(void *arg, const char *name, const char *value)
{
    pgw_conn_t *c = arg;
    pgw_msg_parameter_status(&c->out, name, value);
}

/* A pseudo process id no live connection uses, and a random secret. */
static void assign_backend_key(pgw_conn_t *c)
{
    pgw_server_t *ps = c->srv;
    do {
        ps->next_pid = ps->next_pid >= 0x7ffffff0 ? 1000 : ps->next_pid + 1;
    } while (find_backend(ps, ps->next_pid));
    c->pid = ps->next_pid;
    if (RAND_bytes((unsigned char *)&c->secret, sizeof c->secret) != 1)
        c->secret ^= (uint32_t)rand();
}

static void auth_ok(pgw_conn_t *c)
{
    if (c->scram_active) {
        auth_scram_free(&c->scram);
        c->scram_active = 0;
    }
    pgw_msg_auth(&c->out, AUTH_REQ_OK, NULL, 0);
    uv_timer_stop(&c->timer);
    c->sess = sess_new(c->srv->srv, c->user, c->database);
    if (apply_settings(c) < 0) return;
    sess_report_settings(c->sess, report_setting, c);
    assign_backend_key(c);
    size_t at = pgw_msg_begin(&c->out, 'K');
    sl_buf_put_u32be(&c->out, (uint32_t)c->pid);
    sl_buf_put_u32be(&c->out, c->secret);
    pgw_msg_end(&c->out, at);
    pgw_msg_ready(&c->out, 'I');
    c->state = PGW_ST_READY;
    SL_DEBUG("pgwire", "connection authorized peer=%s user=%s database=%s pid=%d tls=%s", c->peer,
             c->user, c->database, (int)c->pid, c->tls ? tls_conn_version(c->tls) : "off");
}
