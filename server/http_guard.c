/* Protections of the HTTP endpoint against other web sites: the names the
 * server answers to (the Host header, against DNS rebinding), and the rule
 * that a request a browser could send from another site never acts.
 *
 * Host: every request but /healthz must name one of http_allowed_hosts
 * (default: the listen address, localhost, 127.0.0.1 and [::1]). An entry
 * without a port matches that name with the server's own port or none (a
 * proxy that keeps the Host header); "name:port" matches exactly; "*"
 * accepts any name. A page on evil.example whose name was rebound to
 * 127.0.0.1 still sends "Host: evil.example:4040", and is answered 421.
 *
 * POST: an Origin header, when present, must be an origin of the server:
 * the Host the request itself names, or an allowed name with the server's
 * port (so the UI loaded as localhost may act on 127.0.0.1). And the API's
 * POSTs must carry what a browser sends cross-site only after a CORS
 * preflight, which sluice never grants (OPTIONS is answered 405, and no
 * response carries Access-Control-Allow-*): `Content-Type:
 * application/json`, the header X-Sluice-Request, or a bearer token. A
 * form or a no-cors fetch from another page therefore never stops or
 * starts a query. The sign-in form (POST /login) is a form by nature; it
 * passes the Origin check only, and acts only with the right token. */
#include "server/http_int.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/config.h"

#define HTTP_MARK_HEADER "X-Sluice-Request"

/* ---- the allowed names ---- */

static void host_add(http_server_t *hs, const char *name, size_t n)
{
    hs->hosts = sl_xrealloc(hs->hosts, sizeof *hs->hosts * (size_t)(hs->nhosts + 1));
    char *h = sl_xcalloc(1, n + 1);
    for (size_t i = 0; i < n; i++) h[i] = (char)tolower((unsigned char)name[i]);
    hs->hosts[hs->nhosts++] = h;
}

/* The defaults: the listen address (an IPv6 literal in brackets), localhost
 * and the loopback addresses. */
static void hosts_default(http_server_t *hs, const char *listen)
{
    if (strchr(listen, ':')) {
        char b[INET6_ADDRSTRLEN + 2];
        int n = snprintf(b, sizeof b, "[%s]", listen);
        host_add(hs, b, (size_t)n < sizeof b ? (size_t)n : sizeof b - 1);
    } else {
        host_add(hs, listen, strlen(listen));
    }
    static const char *const loopback[] = {"localhost", "127.0.0.1", "[::1]"};
    for (size_t i = 0; i < sizeof loopback / sizeof *loopback; i++)
        host_add(hs, loopback[i], strlen(loopback[i]));
}

/* A name as a Host header carries it: letters, digits, '-', '.', '_', an
 * IPv6 literal in brackets, then optionally ":port". */
static bool entry_valid(const char *s, size_t n)
{
    if (n == 0) return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!isalnum(c) && !strchr("-._:[]", c)) return false;
    }
    return true;
}

int http_guard_init(http_server_t *hs, const conf_t *c, sl_error_t *err)
{
    const char *list = c->http_allowed_hosts;
    if (!*list) {
        hosts_default(hs, c->http_listen_address);
        return 0;
    }
    for (const char *p = list;;) {
        while (*p == ' ' || *p == '\t') p++;
        size_t n = strcspn(p, ",");
        size_t len = n;
        while (len && (p[len - 1] == ' ' || p[len - 1] == '\t')) len--;
        if (len == 1 && *p == '*') hs->any_host = true;
        else if (entry_valid(p, len)) host_add(hs, p, len);
        else
            return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                                "invalid entry \"%.*s\" in http_allowed_hosts: expected host "
                                "names or name:port separated by commas, or *",
                                (int)len, p);
        if (!p[n]) return 0;
        p += n + 1;
    }
}

void http_guard_free(http_server_t *hs)
{
    for (int i = 0; i < hs->nhosts; i++) free(hs->hosts[i]);
    free(hs->hosts);
}

/* ---- matching ---- */

/* Length of the name part of "name[:port]" ("[v6]" stays whole). */
static size_t name_len(const char *h)
{
    if (*h == '[') {
        const char *e = strchr(h, ']');
        return e ? (size_t)(e - h) + 1 : strlen(h);
    }
    return strcspn(h, ":");
}

/* The port after the name: 0 when absent, -1 when malformed. */
static long port_of(const char *h, size_t nlen)
{
    if (!h[nlen]) return 0;
    if (h[nlen] != ':' || !isdigit((unsigned char)h[nlen + 1])) return -1;
    char *end;
    long p = strtol(h + nlen + 1, &end, 10);
    return *end || p <= 0 || p > 65535 ? -1 : p;
}

/* Whether "name[:port]" names this server: an entry with a port matches
 * exactly; one without matches the name with `port` or, when `bare_ok`,
 * with no port at all. */
static bool names_server(const http_server_t *hs, const char *h, int port, bool bare_ok)
{
    size_t n = name_len(h);
    long p = port_of(h, n);
    if (p < 0) return false;
    for (int i = 0; i < hs->nhosts; i++) {
        const char *e = hs->hosts[i];
        size_t en = name_len(e);
        if (e[en]) {
            if (!strcasecmp(e, h)) return true;
        } else if (en == n && !strncasecmp(e, h, n) && (p == port || (p == 0 && bare_ok))) {
            return true;
        }
    }
    return false;
}

static const char *header(http_req_t *rq, const char *name)
{
    return MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, name);
}

bool http_guard_host(http_req_t *rq, http_resp_t *r)
{
    const char *host = header(rq, MHD_HTTP_HEADER_HOST);
    /* an HTTP/1.0 client may send none; a browser always does */
    if (!host || rq->hs->any_host || names_server(rq->hs, host, rq->local_port, true)) return true;
    http_error(r, MHD_HTTP_MISDIRECTED_REQUEST, NULL,
               "this server does not answer to host \"%.200s\"; http_allowed_hosts lists the "
               "names it answers to",
               host);
    return false;
}

/* The Origin is one of the server's: the scheme http or https, and the
 * host part either what the request's Host names or an allowed name with
 * the server's port. */
static bool origin_ok(http_req_t *rq, const char *origin)
{
    const char *rest = !strncasecmp(origin, "http://", 7)    ? origin + 7
                       : !strncasecmp(origin, "https://", 8) ? origin + 8
                                                             : NULL;
    if (!rest || !*rest || strchr(rest, '/')) return false;
    const char *host = header(rq, MHD_HTTP_HEADER_HOST);
    if (host && !strcasecmp(rest, host)) return true;
    return names_server(rq->hs, rest, rq->local_port, false);
}

/* The media type of Content-Type is application/json (parameters aside). */
static bool json_typed(http_req_t *rq)
{
    const char *ct = header(rq, MHD_HTTP_HEADER_CONTENT_TYPE);
    if (!ct) return false;
    while (*ct == ' ') ct++;
    size_t n = strcspn(ct, "; \t");
    return n == 16 && !strncasecmp(ct, "application/json", 16);
}

/* Carries something a browser sends cross-site only after a preflight. */
static bool not_simple(http_req_t *rq)
{
    const char *auth = header(rq, MHD_HTTP_HEADER_AUTHORIZATION);
    return json_typed(rq) || header(rq, HTTP_MARK_HEADER) ||
           (auth && !strncasecmp(auth, "Bearer ", 7));
}

bool http_guard_post(http_req_t *rq, bool form_ok, http_resp_t *r)
{
    const char *origin = header(rq, "Origin");
    if (origin && !origin_ok(rq, origin)) {
        http_error(r, MHD_HTTP_FORBIDDEN, NULL,
                   "cross-origin request refused: origin \"%.200s\" is not this server's", origin);
        return false;
    }
    if (form_ok || not_simple(rq)) return true;
    http_error(r, MHD_HTTP_FORBIDDEN, NULL,
               "%s %.200s needs the header " HTTP_MARK_HEADER " or Content-Type: "
               "application/json (a request any web page could send is refused)",
               rq->method, rq->path);
    return false;
}
