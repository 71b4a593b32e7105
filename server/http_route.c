/* Routing and authentication: every request passes, in this order, the
 * Host check (421; /healthz exempt), the size cap (413), the bearer token
 * (401; /healthz and the sign-in form exempt), the path (404, or 400 for a
 * malformed escape), the method (405 with an Allow header) and, for a
 * POST, the cross-site checks (403; http_guard.c). Paths arrive undecoded;
 * each segment is percent-decoded here, so a query name may hold any
 * character, '/' included (as %2F).
 *
 * Tokens are compared in constant time: the SHA-256 digest of what the
 * client sent against that of http_token, with CRYPTO_memcmp. A browser
 * cannot send a bearer header when it loads a page, so the UI's files also
 * accept the cookie `sluice_token`, set by the sign-in form (POST /login);
 * the UI's script reads that cookie and sends it as a bearer token to the
 * API. The API and /metrics accept only the header, so a cross-site form
 * can never act with the cookie. */
#include "server/http_route.h"

#include <ctype.h>
#include <microhttpd.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#define COOKIE_NAME "sluice_token"
#define API_PREFIX "/api/v1/queries"

/* ---- decoding ---- */

static int hex_value(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    c = tolower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

char *http_decode(sl_arena_t *a, const char *s, size_t n, bool plus_space)
{
    char *out = sl_alloc(a, n + 1), *o = out;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)s[i];
        if (c == '%') {
            if (i + 2 >= n) return NULL;
            int h = hex_value((unsigned char)s[i + 1]), l = hex_value((unsigned char)s[i + 2]);
            if (h < 0 || l < 0) return NULL;
            c = h * 16 + l;
            i += 2;
        } else if (c == '+' && plus_space) {
            c = ' ';
        }
        if (c == 0) return NULL;
        *o++ = (char)c;
    }
    *o = '\0';
    return out;
}

const char *http_query_arg(http_req_t *rq, const char *key, bool *bad)
{
    const char *raw = MHD_lookup_connection_value(rq->conn, MHD_GET_ARGUMENT_KIND, key);
    if (!raw) return NULL;
    const char *v = http_decode(rq->arena, raw, strlen(raw), true);
    if (!v) *bad = true;
    return v;
}

/* Appends s percent-encoded (everything but unreserved characters). */
static void encode(sl_buf_t *b, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') sl_buf_putc(b, (char)c);
        else sl_buf_printf(b, "%%%02X", c);
    }
}

/* ---- authentication ---- */

static bool token_ok(const http_server_t *hs, const char *tok, size_t n)
{
    unsigned char d[32];
    if (!EVP_Digest(tok, n, d, NULL, EVP_sha256(), NULL)) return false;
    return CRYPTO_memcmp(d, hs->token_digest, sizeof d) == 0;
}

/* "Authorization: Bearer <token>" (scheme case-insensitive). */
static bool bearer_ok(http_req_t *rq)
{
    const char *h =
        MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    if (!h || strncasecmp(h, "Bearer ", 7) != 0) return false;
    h += 7;
    while (*h == ' ') h++;
    size_t n = strlen(h);
    while (n && (h[n - 1] == ' ' || h[n - 1] == '\t')) n--;
    return n > 0 && token_ok(rq->hs, h, n);
}

static bool cookie_ok(http_req_t *rq)
{
    const char *raw = MHD_lookup_connection_value(rq->conn, MHD_COOKIE_KIND, COOKIE_NAME);
    const char *tok = raw ? http_decode(rq->arena, raw, strlen(raw), false) : NULL;
    return tok && *tok && token_ok(rq->hs, tok, strlen(tok));
}

static bool is_get(const http_req_t *rq)
{
    return !strcmp(rq->method, "GET") || !strcmp(rq->method, "HEAD");
}

/* 401: browsers loading the UI get the sign-in page, everyone else JSON. */
static void unauthorized(http_req_t *rq, bool sent_token, http_resp_t *r)
{
    const char *p = rq->path;
    if (is_get(rq) && (!strcmp(p, "/") || !strcmp(p, "/index.html"))) {
        http_ui_login_page(r, NULL);
    } else {
        http_error(r, MHD_HTTP_UNAUTHORIZED, NULL,
                   sent_token ? "invalid bearer token" : "missing bearer token");
    }
    http_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE,
                sent_token ? "Bearer realm=\"sluice\", error=\"invalid_token\""
                           : "Bearer realm=\"sluice\"");
}

/* True when the request may proceed; else r holds the 401. */
static bool authorized(http_req_t *rq, http_resp_t *r)
{
    const char *p = rq->path;
    if (!rq->hs->has_token || !strcmp(p, "/healthz") || !strcmp(p, "/login")) return true;
    if (bearer_ok(rq)) return true;
    if (is_get(rq) && http_ui_is_asset(p) && cookie_ok(rq)) return true;
    bool sent = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND,
                                            MHD_HTTP_HEADER_AUTHORIZATION) != NULL;
    unauthorized(rq, sent, r);
    return false;
}

/* ---- matching ---- */

/* The part after /api/v1/queries/{name}: 1 matched, 0 unknown. */
static int match_query_tail(const char *tail, http_route_kind_t *kind)
{
    static const struct {
        const char *tail;
        http_route_kind_t kind;
    } tails[] = {
        {"", HTTP_R_QUERY},     {"/progress", HTTP_R_PROGRESS}, {"/progress/recent", HTTP_R_RECENT},
        {"/stop", HTTP_R_STOP}, {"/start", HTTP_R_START},
    };
    for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++)
        if (!strcmp(tail, tails[i].tail)) {
            *kind = tails[i].kind;
            return 1;
        }
    return 0;
}

/* /api/v1/queries/...: 1 matched, 0 unknown path, -1 malformed name (400 in r). */
static int match_api(http_req_t *rq, const char *rest, http_route_t *route, http_resp_t *r)
{
    if (!*rest) {
        route->kind = HTTP_R_LIST;
        return 1;
    }
    if (*rest != '/' || rest[1] == '/' || !rest[1]) return 0;
    rest++;
    size_t n = strcspn(rest, "/");
    if (!match_query_tail(rest + n, &route->kind)) return 0;
    route->name = http_decode(rq->arena, rest, n, false);
    if (route->name) return 1;
    http_error(r, MHD_HTTP_BAD_REQUEST, NULL, "malformed percent-escape in the query name");
    return -1;
}

/* 1 matched, 0 unknown path (404 in r), -1 bad request (400 in r). */
static int match(http_req_t *rq, http_route_t *route, http_resp_t *r)
{
    const char *p = rq->path;
    memset(route, 0, sizeof *route);
    int rc = 1;
    if (!strcmp(p, "/healthz")) route->kind = HTTP_R_HEALTHZ;
    else if (!strcmp(p, "/metrics")) route->kind = HTTP_R_METRICS;
    else if (!strcmp(p, "/login")) route->kind = HTTP_R_LOGIN;
    else if (!strncmp(p, API_PREFIX, strlen(API_PREFIX)))
        rc = match_api(rq, p + strlen(API_PREFIX), route, r);
    else if (http_ui_is_asset(p)) route->kind = HTTP_R_UI;
    else rc = 0;
    if (rc == 0) http_error(r, MHD_HTTP_NOT_FOUND, NULL, "no such path: %s", p);
    return rc;
}

static bool is_post_route(http_route_kind_t k)
{
    return k == HTTP_R_LOGIN || k == HTTP_R_STOP || k == HTTP_R_START;
}

/* 413 from the Content-Length header alone, before any byte of the body. */
static bool too_large(http_req_t *rq, http_resp_t *r)
{
    const char *cl =
        MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (!cl || strtoull(cl, NULL, 10) <= rq->hs->max_body) return false;
    http_error(r, MHD_HTTP_CONTENT_TOO_LARGE, NULL,
               "request body too large: at most %zu bytes are accepted", rq->hs->max_body);
    http_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
    return true;
}

int http_route_check(http_req_t *rq, http_route_t *route, http_resp_t *r)
{
    if (strcmp(rq->path, "/healthz") != 0 && !http_guard_host(rq, r)) return -1;
    if (too_large(rq, r) || !authorized(rq, r) || match(rq, route, r) <= 0) return -1;
    bool post = is_post_route(route->kind);
    if (post ? strcmp(rq->method, "POST") != 0 : !is_get(rq)) {
        http_error(r, MHD_HTTP_METHOD_NOT_ALLOWED, NULL, "method %s is not allowed on %s; use %s",
                   rq->method, rq->path, post ? "POST" : "GET");
        http_header(r, MHD_HTTP_HEADER_ALLOW, post ? "POST" : "GET, HEAD");
        return -1;
    }
    if (!post) return 0;
    if (!http_guard_post(rq, route->kind == HTTP_R_LOGIN, r)) return -1;
    rq->action = route->kind == HTTP_R_LOGIN ? 'l' : route->kind == HTTP_R_STOP ? 'x' : 's';
    rq->name = route->name;
    return 1;
}

/* GET /api/v1/queries/{name}/progress/recent?limit=N */
static void run_recent(http_req_t *rq, const char *name, http_resp_t *r)
{
    bool bad = false;
    const char *limit = http_query_arg(rq, "limit", &bad);
    if (limit) {
        char *end;
        long n = strtol(limit, &end, 10);
        if (bad || !*limit || *end || n < 1 || n > 100) {
            http_error(r, MHD_HTTP_BAD_REQUEST, NULL,
                       "invalid limit \"%s\": expected an integer from 1 to 100",
                       bad ? "(malformed)" : limit);
            return;
        }
        http_api_progress(rq, name, (int)n, r);
        return;
    }
    if (bad) http_error(r, MHD_HTTP_BAD_REQUEST, NULL, "malformed percent-escape in limit");
    else http_api_progress(rq, name, 100, r);
}

void http_route_run(http_req_t *rq, const http_route_t *route, http_resp_t *r)
{
    switch (route->kind) {
    case HTTP_R_HEALTHZ:
        r->status = MHD_HTTP_OK;
        r->type = HTTP_TEXT_TYPE;
        sl_buf_puts(&r->body, "ok\n");
        http_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
        return;
    case HTTP_R_METRICS: http_metrics(rq, r); return;
    case HTTP_R_LIST: http_api_list(rq, r); return;
    case HTTP_R_QUERY: http_api_query(rq, route->name, r); return;
    case HTTP_R_PROGRESS: http_api_progress(rq, route->name, 0, r); return;
    case HTTP_R_RECENT: run_recent(rq, route->name, r); return;
    case HTTP_R_UI:
        if (!http_ui_serve(rq->path, r)) http_error(r, MHD_HTTP_NOT_FOUND, NULL, "no such path");
        return;
    default: /* POST routes never come here */
        http_error(r, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL, "unroutable request");
        return;
    }
}

/* The token of a form body "token=...&..." (decoded), or NULL. */
static const char *form_token(http_req_t *rq)
{
    const char *b = rq->body.data ? rq->body.data : "";
    for (const char *p = b; *p;) {
        size_t n = strcspn(p, "&");
        if (!strncmp(p, "token=", 6)) return http_decode(rq->arena, p + 6, n - 6, true);
        p += n + (p[n] ? 1 : 0);
    }
    return NULL;
}

/* POST /login: a right token sets the cookie and goes back to the UI. */
static void run_login(http_req_t *rq, http_resp_t *r)
{
    const char *tok = form_token(rq);
    if (rq->hs->has_token && !(tok && *tok && token_ok(rq->hs, tok, strlen(tok)))) {
        http_ui_login_page(r, "That token is not valid.");
        http_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE,
                    "Bearer realm=\"sluice\", error=\"invalid_token\"");
        return;
    }
    r->status = MHD_HTTP_SEE_OTHER;
    r->type = HTTP_TEXT_TYPE;
    sl_buf_puts(&r->body, "signed in\n");
    http_header(r, MHD_HTTP_HEADER_LOCATION, "/");
    if (rq->hs->has_token) {
        sl_buf_t c = SL_BUF_INIT;
        sl_buf_puts(&c, COOKIE_NAME "=");
        encode(&c, tok);
        sl_buf_puts(&c, "; Path=/; SameSite=Strict");
        http_header(r, MHD_HTTP_HEADER_SET_COOKIE, sl_strdup(rq->arena, c.data));
        sl_buf_free(&c);
    }
}

int http_route_post(http_req_t *rq, http_resp_t *r)
{
    if (rq->action == 'l') {
        run_login(rq, r);
        return 0;
    }
    if (rq->body_len > 0) {
        http_error(r, MHD_HTTP_BAD_REQUEST, NULL, "%s takes no request body", rq->path);
        return 0;
    }
    return 1;
}
