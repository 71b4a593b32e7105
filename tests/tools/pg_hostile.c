/* pg_hostile: a raw-socket PostgreSQL client that misbehaves in one named
 * way and checks how the server reacts (the expected ErrorResponse, then the
 * connection closed; or closed at the right moment). Exit status 0 when the
 * reaction is the expected one, 1 otherwise (with the reason on stderr).
 *
 *   pg_hostile HOST PORT SCENARIO [ARG]
 *
 * Scenarios: startup-len-0, startup-len-7, startup-len-10001,
 * startup-len-huge, garbage-before-startup, garbage-after-startup,
 * huge-query-length, ssl-pipelined (needs a server with TLS), gss-pipelined
 * (GSSENCRequest with a startup packet behind it: refused), bad-protocol,
 * startup-timeout SECONDS (the server's authentication_timeout),
 * cancel-unknown, hold (log in, print "ready", wait until the server closes
 * and print the SQLSTATE it sent), row-limit (Execute with a row limit:
 * PortalSuspended, then the rest on the next Execute), result-formats
 * (Bind with one result format code per column: RowDescription and
 * DataRow follow them; a wrong count or code is 08P01; binary rows across
 * an Execute with a row limit), teardown (a
 * Parse/Bind/Describe/Execute/Sync sequence with parameters, plain and with
 * a row limit, cut after each message and in the middle of each, the
 * connection closed with FIN or reset with SO_LINGER 0, right away or once
 * the server answered; after each cut the daemon must still answer),
 * backpressure (a large result left unread, the connection reset while
 * the server is still writing it, simple and extended). */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "common/buf.h"

#define TIMEOUT_MS 10000

static const char *g_host, *g_port;

static int fail(const char *fmt, const char *arg)
{
    fprintf(stderr, "pg_hostile: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    return 1;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int conn_open(void)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res;
    if (getaddrinfo(g_host, g_port, &hints, &res) != 0) return -1;
    int fd = socket(res->ai_family, SOCK_STREAM, 0);
    if (fd >= 0 && connect(fd, res->ai_addr, res->ai_addrlen) < 0) {
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    return fd;
}

static int send_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Reads until the peer closes (returns 1), the deadline passes (0), or
 * `until` (when not NULL) says the input is complete (2). */
static int read_until(int fd, int timeout_ms, sl_buf_t *in, int (*until)(const sl_buf_t *))
{
    int64_t deadline = now_ms() + timeout_ms;
    for (;;) {
        if (until && until(in)) return 2;
        int64_t left = deadline - now_ms();
        if (left <= 0) return 0;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, (int)left) <= 0) continue;
        char buf[8192];
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 1; /* EOF or reset: closed */
        sl_buf_append(in, buf, (size_t)n);
    }
}

/* ---- backend messages ------------------------------------------------------ */

/* Finds the first message of `type` in a stream of messages; returns its
 * body (and length) or NULL. */
static const char *find_msg(const sl_buf_t *in, char type, size_t *len)
{
    size_t off = 0;
    while (in->len - off >= 5) {
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

static int has_ready(const sl_buf_t *in)
{
    size_t n;
    return find_msg(in, 'Z', &n) != NULL || find_msg(in, 'E', &n) != NULL;
}

/* The value of field `code` of an ErrorResponse body, or "". */
static const char *error_field(const char *body, size_t len, char code)
{
    for (size_t i = 0; i < len && body[i];) {
        const char *v = body + i + 1;
        if (body[i] == code) return v;
        i += 1 + strlen(v) + 1;
    }
    return "";
}

/* The server must send an ErrorResponse with this SQLSTATE (and a message
 * containing `part`, when given), and nothing else, then close. */
static int expect_fatal(int fd, const sl_buf_t *already, const char *sqlstate, const char *part)
{
    sl_buf_t in = SL_BUF_INIT;
    if (already) sl_buf_append(&in, already->data, already->len);
    int64_t t0 = now_ms();
    if (read_until(fd, TIMEOUT_MS, &in, NULL) != 1)
        return fail("the server did not close the connection within %s ms", "10000");
    size_t len;
    const char *e = find_msg(&in, 'E', &len);
    if (!e)
        return fail("closed without an ErrorResponse (%s)", in.len ? "other bytes" : "no bytes");
    const char *code = error_field(e, len, 'C'), *msg = error_field(e, len, 'M');
    printf("closed after %lld ms: %s %s: %s\n", (long long)(now_ms() - t0),
           error_field(e, len, 'S'), code, msg);
    if (strcmp(code, sqlstate)) return fail("unexpected SQLSTATE %s", code);
    if (strcmp(error_field(e, len, 'S'), "FATAL"))
        return fail("severity %s, not FATAL", error_field(e, len, 'S'));
    if (part && !strstr(msg, part)) return fail("message lacks \"%s\"", part);
    if ((size_t)(e - in.data) != 5 || len + 5 != in.len)
        return fail("%s", "the server sent more than the ErrorResponse");
    sl_buf_free(&in);
    return 0;
}

/* ---- frontend messages ------------------------------------------------------- */

static void put_startup(sl_buf_t *b, uint32_t code, const char *user)
{
    size_t at = b->len;
    sl_buf_put_u32be(b, 0);
    sl_buf_put_u32be(b, code);
    if (user) {
        sl_buf_append(b, "user", 5);
        sl_buf_append(b, user, strlen(user) + 1);
        sl_buf_append(b, "database", 9);
        sl_buf_append(b, "sluice", 7);
    }
    sl_buf_putc(b, '\0');
    sl_buf_set_u32be(b, at, (uint32_t)(b->len - at));
}

/* Connects and logs in as "sluice" (the server must use trust). */
static int login(sl_buf_t *in)
{
    int fd = conn_open();
    if (fd < 0) return -1;
    sl_buf_t b = SL_BUF_INIT;
    put_startup(&b, 196608, "sluice");
    int rc = send_all(fd, b.data, b.len);
    sl_buf_free(&b);
    size_t len;
    if (rc < 0 || read_until(fd, TIMEOUT_MS, in, has_ready) != 2 || !find_msg(in, 'Z', &len)) {
        fail("%s", "login failed (does the server use authentication = trust?)");
        close(fd);
        return -1;
    }
    return fd;
}

/* ---- scenarios --------------------------------------------------------------- */

static int sc_startup_len(uint32_t len)
{
    int fd = conn_open();
    if (fd < 0) return fail("cannot connect to %s", g_host);
    unsigned char b[8] = {(unsigned char)(len >> 24),
                          (unsigned char)(len >> 16),
                          (unsigned char)(len >> 8),
                          (unsigned char)len,
                          0,
                          3,
                          0,
                          0};
    send_all(fd, b, sizeof b);
    int rc = expect_fatal(fd, NULL, "08P01", "invalid length of startup packet");
    close(fd);
    return rc;
}

static int sc_garbage_before_startup(void)
{
    int fd = conn_open();
    if (fd < 0) return fail("cannot connect to %s", g_host);
    const char *http = "GET / HTTP/1.1\r\nHost: sluice\r\n\r\n";
    send_all(fd, http, strlen(http));
    int rc = expect_fatal(fd, NULL, "08P01", "invalid length of startup packet");
    close(fd);
    return rc;
}

static int sc_garbage_after_startup(void)
{
    sl_buf_t in = SL_BUF_INIT;
    int fd = login(&in);
    if (fd < 0) {
        sl_buf_free(&in);
        return 1;
    }
    const unsigned char junk[] = {0x01, 0, 0, 0, 4, 0xde, 0xad, 0xbe, 0xef};
    send_all(fd, junk, sizeof junk);
    int rc = expect_fatal(fd, NULL, "08P01", "invalid frontend message type 1");
    close(fd);
    sl_buf_free(&in);
    return rc;
}

static int sc_huge_query_length(void)
{
    sl_buf_t in = SL_BUF_INIT;
    int fd = login(&in);
    if (fd < 0) {
        sl_buf_free(&in);
        return 1;
    }
    const unsigned char q[] = {'Q', 0x7f, 0xff, 0xff, 0xff, 'S', 'E', 'L', 'E', 'C', 'T'};
    send_all(fd, q, sizeof q);
    int rc = expect_fatal(fd, NULL, "08P01", "invalid message length");
    close(fd);
    sl_buf_free(&in);
    return rc;
}

/* SSLRequest and a plaintext startup packet in one write: the server must
 * not answer 'S' and then act on the plaintext that was already there. */
/* An encryption request (SSLRequest or GSSENCRequest) with a plaintext
 * startup packet pipelined behind it, in one write: the bytes behind the
 * request may have been injected by a man in the middle, so the server must
 * never process them (CVE-2021-23214); it may only close, or close after a
 * 08P01 error whose message is `want` (NULL: any). */
static int sc_request_pipelined(uint32_t code, const char *want)
{
    int fd = conn_open();
    if (fd < 0) return fail("cannot connect to %s", g_host);
    sl_buf_t b = SL_BUF_INIT;
    put_startup(&b, code, NULL);
    b.len -= 1; /* an encryption request has no parameter list */
    sl_buf_set_u32be(&b, 0, 8);
    put_startup(&b, 196608, "sluice");
    send_all(fd, b.data, b.len);
    sl_buf_free(&b);
    sl_buf_t in = SL_BUF_INIT;
    if (read_until(fd, TIMEOUT_MS, &in, NULL) != 1) return fail("%s", "connection not closed");
    if (code == 80877103 && in.len > 0 && in.data[0] == 'N')
        return fail("%s", "the server does not offer TLS");
    size_t len;
    if (find_msg(&in, 'R', &len) || find_msg(&in, 'Z', &len))
        return fail("%s", "the server processed the plaintext startup packet");
    int rc = 0;
    if (in.len > 0) { /* anything sent must be the protocol-violation error */
        const char *e = find_msg(&in, 'E', &len);
        if (!e || in.data[0] != 'E' || strcmp(error_field(e, len, 'C'), "08P01") ||
            (want && strcmp(error_field(e, len, 'M'), want)))
            rc = fail("%s", "unexpected answer to a pipelined encryption request");
        else printf("closed: %s\n", error_field(e, len, 'M'));
    } else if (want) {
        rc = fail("closed without the error \"%s\"", want);
    }
    close(fd);
    sl_buf_free(&in);
    return rc;
}

static int sc_bad_protocol(uint32_t code, const char *want)
{
    int fd = conn_open();
    if (fd < 0) return fail("cannot connect to %s", g_host);
    sl_buf_t b = SL_BUF_INIT;
    put_startup(&b, code, "sluice");
    send_all(fd, b.data, b.len);
    sl_buf_free(&b);
    int rc = expect_fatal(fd, NULL, "08P01", want);
    close(fd);
    return rc;
}

/* Half a startup packet, then silence: closed after about `secs` seconds. */
static int sc_startup_timeout(int secs)
{
    int fd = conn_open();
    if (fd < 0) return fail("cannot connect to %s", g_host);
    const unsigned char half[] = {0, 0, 0, 40, 0, 3, 0, 0, 'u', 's'};
    send_all(fd, half, sizeof half);
    int64_t t0 = now_ms();
    sl_buf_t in = SL_BUF_INIT;
    int rc = read_until(fd, secs * 1000 + 5000, &in, NULL);
    int64_t took = now_ms() - t0;
    close(fd);
    printf("closed=%d after %lld ms, %zu bytes\n", rc, (long long)took, in.len);
    if (rc != 1) return fail("still open %s s after the authentication timeout", "5");
    if (took < secs * 1000 - 300) return fail("%s", "closed before the authentication timeout");
    if (in.len) return fail("%s", "the server answered a half startup packet");
    return 0;
}

/* A CancelRequest naming no backend: closed without a reply. */
static int sc_cancel_unknown(void)
{
    int fd = conn_open();
    if (fd < 0) return fail("cannot connect to %s", g_host);
    const unsigned char req[] = {0,    0,    0,    16,   0x04, 0xd2, 0x16, 0x2e,
                                 0x7f, 0xff, 0xff, 0xf0, 1,    2,    3,    4};
    send_all(fd, req, sizeof req);
    sl_buf_t in = SL_BUF_INIT;
    int rc = read_until(fd, TIMEOUT_MS, &in, NULL);
    close(fd);
    if (rc != 1) return fail("%s", "cancel connection not closed");
    if (in.len) return fail("%s", "the server answered a cancel request");
    return 0;
}

static void put_msg(sl_buf_t *b, char type, const void *body, size_t len)
{
    sl_buf_putc(b, type);
    sl_buf_put_u32be(b, (uint32_t)(len + 4));
    sl_buf_append(b, body, len);
}

static void put_query(sl_buf_t *b, const char *sql)
{
    put_msg(b, 'Q', sql, strlen(sql) + 1);
}

static void put_execute(sl_buf_t *b, uint32_t maxrows)
{
    unsigned char body[5] = {0, (unsigned char)(maxrows >> 24), (unsigned char)(maxrows >> 16),
                             (unsigned char)(maxrows >> 8), (unsigned char)maxrows};
    put_msg(b, 'E', body, sizeof body);
}

/* Counts ReadyForQuery messages; complete when `want_ready` arrived. */
static int ready_count(const sl_buf_t *in)
{
    int n = 0;
    for (size_t off = 0; in->len - off >= 5;) {
        uint32_t len = sl_get_u32be(in->data + off + 1);
        if (in->len - off - 1 < len) break;
        n += in->data[off] == 'Z';
        off += 1 + len;
    }
    return n;
}
static int two_ready(const sl_buf_t *in)
{
    return ready_count(in) >= 2;
}

/* The message types of a stream of messages, as a string. */
static void message_types(const sl_buf_t *in, char *out, size_t cap)
{
    size_t n = 0;
    for (size_t off = 0; in->len - off >= 5 && n + 1 < cap;) {
        out[n++] = in->data[off];
        off += 1 + sl_get_u32be(in->data + off + 1);
    }
    out[n] = '\0';
}

/* Parse + Bind of SHOW STREAMS (three streams exist), Execute 2 rows,
 * Execute the rest, Sync: "12DDsDC...Z" with PortalSuspended after two rows. */
static int sc_row_limit(void)
{
    sl_buf_t in = SL_BUF_INIT, b = SL_BUF_INIT;
    int fd = login(&in);
    if (fd < 0) {
        sl_buf_free(&in);
        return 1;
    }
    put_query(&b, "CREATE STREAM rl_a USING rate; CREATE STREAM rl_b USING rate; "
                  "CREATE STREAM rl_c USING rate");
    put_msg(&b, 'P', "\0SHOW STREAMS\0\0", 16);
    put_msg(&b, 'B', "\0\0\0\0\0\0\0\0", 8);
    put_execute(&b, 2);
    put_execute(&b, 0);
    put_msg(&b, 'S', NULL, 0);
    sl_buf_clear(&in);
    send_all(fd, b.data, b.len);
    int rc = read_until(fd, TIMEOUT_MS, &in, two_ready);
    char types[256];
    message_types(&in, types, sizeof types);
    const char *ext = strchr(types, 'Z'); /* after the simple query's ReadyForQuery */
    printf("messages: %s\n", types);
    if (rc != 2 || !ext) rc = fail("%s", "no ReadyForQuery after Sync");
    else if (strncmp(ext + 1, "12DDsD", 6) || types[strlen(types) - 1] != 'Z' ||
             types[strlen(types) - 2] != 'C' || strchr(ext + 6, 's'))
        rc = fail("unexpected message sequence %s", ext + 1);
    else rc = 0;
    sl_buf_clear(&b);
    put_query(&b, "DROP STREAM rl_a; DROP STREAM rl_b; DROP STREAM rl_c");
    send_all(fd, b.data, b.len);
    close(fd);
    sl_buf_free(&in);
    sl_buf_free(&b);
    return rc;
}

/* A Bind of the unnamed statement to the unnamed portal with these result formats. */
static void put_bind_formats(sl_buf_t *b, int n, const int16_t *fmts)
{
    sl_buf_t body = SL_BUF_INIT;
    sl_buf_append(&body, "\0\0\0\0\0\0",
                  6); /* portal, statement, no parameter formats, no parameters */
    sl_buf_put_u16be(&body, (uint16_t)n);
    for (int i = 0; i < n; i++) sl_buf_put_u16be(&body, (uint16_t)fmts[i]);
    put_msg(b, 'B', body.data, body.len);
    sl_buf_free(&body);
}

/* The format codes of a RowDescription body, as a string of digits. */
static void row_formats(const char *body, size_t len, char *out)
{
    int n = sl_get_u16be(body);
    const char *p = body + 2;
    for (int i = 0; i < n && p < body + len; i++) {
        p += strlen(p) + 1 + 4 + 2 + 4 + 2 + 4;
        out[i] = (char)('0' + sl_get_u16be(p));
        p += 2;
    }
    out[n] = '\0';
}

/* The values of a DataRow body in hex, separated by '|'. */
static void row_hex(const char *body, char *out, size_t cap)
{
    int n = sl_get_u16be(body);
    const char *p = body + 2;
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        int32_t len = (int32_t)sl_get_u32be(p);
        p += 4;
        for (int j = 0; j < len && k + 3 < cap; j++)
            k += (size_t)snprintf(out + k, cap - k, "%02x", (unsigned char)p[j]);
        if (i + 1 < n && k + 2 < cap) out[k++] = '|';
        p += len > 0 ? len : 0;
    }
    out[k] = '\0';
}

/* "SQLSTATE message" of each ErrorResponse in the stream, separated by '|'. */
static void error_list(const sl_buf_t *in, char *out, size_t cap)
{
    size_t k = 0;
    out[0] = '\0';
    for (size_t off = 0; in->len - off >= 5;) {
        uint32_t n = sl_get_u32be(in->data + off + 1);
        if (in->data[off] == 'E')
            k += (size_t)snprintf(out + k, cap - k, "%s%s %s", k ? "|" : "",
                                  error_field(in->data + off + 5, n - 4, 'C'),
                                  error_field(in->data + off + 5, n - 4, 'M'));
        if (k >= cap) break;
        off += 1 + n;
    }
}

/* The body of the nth (from 0) message of `type`, or NULL. */
static const char *nth_msg(const sl_buf_t *in, char type, int nth)
{
    for (size_t off = 0; in->len - off >= 5;) {
        uint32_t n = sl_get_u32be(in->data + off + 1);
        if (n < 4 || in->len - off - 1 < n) return NULL;
        if (in->data[off] == type && nth-- == 0) return in->data + off + 5;
        off += 1 + n;
    }
    return NULL;
}

/* Two binary rows, one per Execute: "12DsDCZ", the values 1 and 2 in int4. */
static int binary_row_limit(int fd)
{
    sl_buf_t in = SL_BUF_INIT, b = SL_BUF_INIT;
    static const char parse[] = "\0SELECT * FROM (VALUES (1), (2)) AS t(a)\0\0";
    static const int16_t binary[] = {1};
    put_msg(&b, 'P', parse, sizeof parse);
    put_bind_formats(&b, 1, binary);
    put_execute(&b, 1);
    put_execute(&b, 0);
    put_msg(&b, 'S', NULL, 0);
    send_all(fd, b.data, b.len);
    int rc = read_until(fd, TIMEOUT_MS, &in, has_ready);
    char types[64], first[64] = "", second[64] = "";
    message_types(&in, types, sizeof types);
    const char *d1 = nth_msg(&in, 'D', 0), *d2 = nth_msg(&in, 'D', 1);
    if (d1) row_hex(d1, first, sizeof first);
    if (d2) row_hex(d2, second, sizeof second);
    printf("messages: %s rows: %s %s\n", types, first, second);
    if (rc != 2 || strcmp(types, "12DsDCZ")) rc = fail("unexpected message sequence %s", types);
    else if (strcmp(first, "00000001") || strcmp(second, "00000002")) rc = fail("rows %s", first);
    else rc = 0;
    sl_buf_free(&in);
    sl_buf_free(&b);
    return rc;
}

/* Result formats int4 binary, text text, numeric binary; then two codes
 * for three columns, then code 2. */
static int sc_result_formats(void)
{
    sl_buf_t in = SL_BUF_INIT, b = SL_BUF_INIT;
    int fd = login(&in);
    if (fd < 0) {
        sl_buf_free(&in);
        return 1;
    }
    static const char parse[] = "\0SELECT 42 AS a, 'x' AS b, CAST(1.5 AS DECIMAL(3,1)) AS c\0\0";
    static const int16_t per_column[] = {1, 0, 1}, two[] = {1, 1}, bad[] = {2};
    put_msg(&b, 'P', parse, sizeof parse);
    put_bind_formats(&b, 3, per_column);
    put_msg(&b, 'D', "P", 2);
    put_execute(&b, 0);
    put_bind_formats(&b, 2, two);
    put_msg(&b, 'S', NULL, 0);
    put_bind_formats(&b, 1, bad);
    put_msg(&b, 'S', NULL, 0);
    sl_buf_clear(&in);
    send_all(fd, b.data, b.len);
    int rc = read_until(fd, TIMEOUT_MS, &in, two_ready);
    char types[256], fmts[8] = "", vals[256] = "", errs[512];
    message_types(&in, types, sizeof types);
    error_list(&in, errs, sizeof errs);
    size_t tlen, dlen;
    const char *t = find_msg(&in, 'T', &tlen), *d = find_msg(&in, 'D', &dlen);
    if (t) row_formats(t, tlen, fmts);
    if (d) row_hex(d, vals, sizeof vals);
    printf("messages: %s formats: %s row: %s\n", types, fmts, vals);
    if (rc != 2 || strcmp(types, "12TDCEZEZ")) rc = fail("unexpected message sequence %s", types);
    else if (strcmp(fmts, "101")) rc = fail("RowDescription formats %s, not 101", fmts);
    else if (strcmp(vals, "0000002a|78|000200000000000100011388")) rc = fail("DataRow %s", vals);
    else if (strcmp(errs, "08P01 bind message has 2 result formats but query has 3 columns|"
                          "08P01 unsupported format code: 2"))
        rc = fail("errors: %s", errs);
    else rc = binary_row_limit(fd);
    close(fd);
    sl_buf_free(&in);
    sl_buf_free(&b);
    return rc;
}

/* ---- teardown at every point of an extended-protocol statement ------------------------ */

typedef struct seq {
    const char *name;
    int n;
    sl_buf_t msg[8]; /* one frontend message each */
    char answer[8];  /* the last backend message type each one brings */
} seq_t;

static void put_cstr(sl_buf_t *b, const char *s)
{
    sl_buf_append(b, s, strlen(s) + 1);
}

static void seq_add(seq_t *q, char answer, char type, const sl_buf_t *body)
{
    sl_buf_t *m = &q->msg[q->n];
    *m = (sl_buf_t)SL_BUF_INIT;
    put_msg(m, type, body ? body->data : NULL, body ? body->len : 0);
    q->answer[q->n++] = answer;
}

/* Parse "td" with declared types, Bind "tp" with text parameters, Describe
 * the portal, Execute (`maxrows` at a time, `executes` times), Sync. */
static void seq_build(seq_t *q, const char *name, const char *sql, int nparams,
                      const char *const *vals, uint32_t maxrows, int executes)
{
    memset(q, 0, sizeof *q);
    q->name = name;
    sl_buf_t b = SL_BUF_INIT;
    put_cstr(&b, "td");
    put_cstr(&b, sql);
    sl_buf_put_u16be(&b, (uint16_t)nparams);
    for (int i = 0; i < nparams; i++) sl_buf_put_u32be(&b, i == 0 ? 23 : 0);
    seq_add(q, '1', 'P', &b);
    sl_buf_clear(&b);
    put_cstr(&b, "tp");
    put_cstr(&b, "td");
    sl_buf_put_u16be(&b, 0);
    sl_buf_put_u16be(&b, (uint16_t)nparams);
    for (int i = 0; i < nparams; i++) {
        sl_buf_put_u32be(&b, (uint32_t)strlen(vals[i]));
        sl_buf_append(&b, vals[i], strlen(vals[i]));
    }
    sl_buf_put_u16be(&b, 0);
    seq_add(q, '2', 'B', &b);
    sl_buf_clear(&b);
    sl_buf_append(&b, "Ptp", 4);
    seq_add(q, 'T', 'D', &b);
    for (int i = 0; i < executes; i++) {
        sl_buf_clear(&b);
        put_cstr(&b, "tp");
        sl_buf_put_u32be(&b, maxrows);
        seq_add(q, maxrows ? 's' : 'C', 'E', &b);
    }
    seq_add(q, 'Z', 'S', NULL);
    sl_buf_free(&b);
}

static void seq_free(seq_t *q)
{
    for (int i = 0; i < q->n; i++) sl_buf_free(&q->msg[i]);
}

/* Closes: FIN (close), or RST (SO_LINGER 0, then close). */
static void close_mode(int fd, int rst)
{
    if (rst) {
        struct linger l = {.l_onoff = 1, .l_linger = 0};
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    }
    close(fd);
}

/* The daemon still answers: a new login runs SELECT 1. */
static int still_serving(const char *after)
{
    sl_buf_t in = SL_BUF_INIT, b = SL_BUF_INIT;
    int fd = login(&in);
    int rc = 1;
    if (fd >= 0) {
        sl_buf_clear(&in);
        put_query(&b, "SELECT 1");
        size_t len;
        const char *row;
        if (send_all(fd, b.data, b.len) == 0 && read_until(fd, TIMEOUT_MS, &in, has_ready) == 2 &&
            (row = find_msg(&in, 'D', &len)) && len == 7 && row[6] == '1')
            rc = 0;
        close(fd);
    }
    if (rc) fail("the daemon does not answer after %s", after);
    sl_buf_free(&in);
    sl_buf_free(&b);
    return rc;
}

/* True when the input holds a message of type `want` (set by cut_one). */
static char g_want;
static int has_want(const sl_buf_t *in)
{
    size_t n;
    return find_msg(in, g_want, &n) != NULL || find_msg(in, 'E', &n) != NULL;
}

/* One cut: log in, send the first `k` messages (and half of message k
 * when `mid`), optionally a Flush and wait for the answer to message
 * k-1, then close (FIN or RST) and check the daemon. */
static int cut_one(const seq_t *q, int k, int mid, int wait, int rst)
{
    char what[128];
    snprintf(what, sizeof what, "%s: %d message(s)%s%s, %s", q->name, k, mid ? " and a half" : "",
             wait ? " answered" : "", rst ? "reset" : "closed");
    sl_buf_t in = SL_BUF_INIT, b = SL_BUF_INIT;
    int fd = login(&in);
    if (fd < 0) {
        sl_buf_free(&in);
        return 1;
    }
    for (int i = 0; i < k; i++) sl_buf_append(&b, q->msg[i].data, q->msg[i].len);
    if (mid) sl_buf_append(&b, q->msg[k].data, q->msg[k].len / 2 + 1);
    if (wait) put_msg(&b, 'H', NULL, 0);
    int rc = send_all(fd, b.data, b.len) < 0 ? fail("send failed: %s", what) : 0;
    sl_buf_clear(&in);
    g_want = wait ? q->answer[k - 1] : 0;
    size_t len;
    if (rc == 0 && wait && read_until(fd, TIMEOUT_MS, &in, has_want) != 2)
        rc = fail("no answer: %s", what);
    else if (rc == 0 && wait && find_msg(&in, 'E', &len))
        rc = fail("an error instead of the answer: %s", what);
    close_mode(fd, rst);
    sl_buf_free(&in);
    sl_buf_free(&b);
    return rc || still_serving(what);
}

static int cut_everywhere(const seq_t *q)
{
    int rc = 0, n = 0;
    for (int rst = 0; rst < 2; rst++)
        for (int k = 0; k <= q->n; k++) {
            rc |= cut_one(q, k, 0, 0, rst);
            n++;
            if (k > 0) rc |= cut_one(q, k, 0, 1, rst), n++;
            if (k < q->n) rc |= cut_one(q, k, 1, 0, rst), n++;
        }
    printf("%s: %d cuts%s\n", q->name, n, rc ? ", FAILED" : ", the daemon answered after each");
    return rc;
}

static int sc_teardown(void)
{
    static const char *const two[2] = {"40", "2"}, *const one[1] = {"10"};
    seq_t q;
    seq_build(&q, "parameters", "SELECT $1::int + $2::int", 2, two, 0, 1);
    int rc = cut_everywhere(&q);
    seq_free(&q);
    seq_build(&q, "row limit", "SELECT a + $1::int FROM (VALUES (1), (2), (3)) AS v (a)", 1, one, 1,
              2);
    rc |= cut_everywhere(&q);
    seq_free(&q);
    return rc;
}

/* A million rows (about 30 MB) that the client never reads. */
#define BIG_SELECT                                                               \
    "WITH t (x) AS (VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10)), " \
    "k AS (SELECT a.x FROM t a, t b, t c) SELECT a.x, b.x, 'padding' FROM k a, k b"

/* Sends `b`, waits for the first bytes of the answer, then resets. */
static int reset_while_writing(const sl_buf_t *b, const char *what)
{
    sl_buf_t in = SL_BUF_INIT;
    int fd = login(&in);
    if (fd < 0) {
        sl_buf_free(&in);
        return 1;
    }
    int rc = send_all(fd, b->data, b->len) < 0 ? fail("send failed: %s", what) : 0;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    if (rc == 0 && poll(&p, 1, TIMEOUT_MS) != 1) rc = fail("no answer: %s", what);
    close_mode(fd, 1);
    sl_buf_free(&in);
    return rc || still_serving(what);
}

static int sc_backpressure(void)
{
    sl_buf_t b = SL_BUF_INIT;
    put_query(&b, BIG_SELECT);
    int rc = reset_while_writing(&b, "an unread simple-query result");
    static const char *const one[1] = {"1"};
    seq_t q;
    seq_build(&q, "big", BIG_SELECT " WHERE a.x > $1::int", 1, one, 0, 1);
    sl_buf_clear(&b);
    for (int i = 0; i < q.n; i++) sl_buf_append(&b, q.msg[i].data, q.msg[i].len);
    rc |= reset_while_writing(&b, "an unread Execute result");
    seq_free(&q);
    sl_buf_free(&b);
    if (rc == 0) printf("backpressure: the daemon answered after both resets\n");
    return rc;
}

/* Logs in, prints "ready", waits for the server to close; prints the
 * SQLSTATE of its ErrorResponse ("none" if it sent none). */
static int sc_hold(void)
{
    sl_buf_t in = SL_BUF_INIT;
    int fd = login(&in);
    if (fd < 0) {
        sl_buf_free(&in);
        return 1;
    }
    printf("ready\n");
    fflush(stdout);
    sl_buf_clear(&in);
    while (read_until(fd, 3600 * 1000, &in, NULL) == 0) {
    }
    size_t len;
    const char *e = find_msg(&in, 'E', &len);
    printf("closed sqlstate=%s\n", e ? error_field(e, len, 'C') : "none");
    close(fd);
    sl_buf_free(&in);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: pg_hostile HOST PORT SCENARIO [ARG]\n");
        return 2;
    }
    g_host = argv[1];
    g_port = argv[2];
    const char *s = argv[3];
    if (!strcmp(s, "startup-len-0")) return sc_startup_len(0);
    if (!strcmp(s, "startup-len-7")) return sc_startup_len(7);
    if (!strcmp(s, "startup-len-10001")) return sc_startup_len(10001);
    if (!strcmp(s, "startup-len-huge")) return sc_startup_len(0x7fffffff);
    if (!strcmp(s, "garbage-before-startup")) return sc_garbage_before_startup();
    if (!strcmp(s, "garbage-after-startup")) return sc_garbage_after_startup();
    if (!strcmp(s, "huge-query-length")) return sc_huge_query_length();
    if (!strcmp(s, "ssl-pipelined")) return sc_request_pipelined(80877103, NULL);
    if (!strcmp(s, "gss-pipelined"))
        return sc_request_pipelined(80877104,
                                    "received unencrypted data after GSSAPI encryption request");
    if (!strcmp(s, "bad-protocol"))
        return sc_bad_protocol(0x00020000,
                               "unsupported frontend protocol 2.0: server supports 3.0 to 3.0") ||
               sc_bad_protocol(0x00030001, "unsupported frontend protocol 3.1");
    if (!strcmp(s, "startup-timeout")) return sc_startup_timeout(argc > 4 ? atoi(argv[4]) : 60);
    if (!strcmp(s, "cancel-unknown")) return sc_cancel_unknown();
    if (!strcmp(s, "hold")) return sc_hold();
    if (!strcmp(s, "row-limit")) return sc_row_limit();
    if (!strcmp(s, "result-formats")) return sc_result_formats();
    if (!strcmp(s, "teardown")) return sc_teardown();
    if (!strcmp(s, "backpressure")) return sc_backpressure();
    fprintf(stderr, "pg_hostile: unknown scenario %s\n", s);
    return 2;
}
