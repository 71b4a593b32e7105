/* Internals of the HTTP endpoint shared by http.c (daemon, limits, routing,
 * authentication, STOP/START threads), http_guard.c (Host and cross-site
 * checks), http_conn.c (connection deadlines and the per-address cap),
 * http_api.c (REST documents), http_metrics.c (Prometheus text) and
 * http_ui.c (embedded web UI). */
#ifndef SL_HTTP_INT_H
#define SL_HTTP_INT_H

#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/buf.h"
#include "server/http.h"

#define HTTP_JSON_TYPE "application/json; charset=utf-8"
#define HTTP_TEXT_TYPE "text/plain; charset=utf-8"
#define HTTP_PROM_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define HTTP_HTML_TYPE "text/html; charset=utf-8"

/* Most STOP/START requests running at once; more are answered 503. */
#define HTTP_MAX_ACTIONS 8
/* Most extra response headers a handler may set. */
#define HTTP_MAX_HEADERS 6

/* Status codes counted for sluice_http_responses_total (others count as "other"). */
#define HTTP_CODES(X) \
    X(200) X(303) X(400) X(401) X(403) X(404) X(405) X(409) X(413) X(421) X(500) X(503)
enum {
#define HTTP_CODE_IDX(c) HTTP_IDX_##c,
    HTTP_CODES(HTTP_CODE_IDX)
#undef HTTP_CODE_IDX
        HTTP_IDX_OTHER,
    HTTP_NCODES
};

/* A connection as http_conn.c tracks it (its deadline and address). */
typedef struct http_conn http_conn_t;

/* The one HTTP server of the process (srv->http). */
typedef struct http_server {
    srv_t *srv;
    struct MHD_Daemon *daemon;
    int port;                       /* bound port */
    bool has_token;                 /* http_token is set */
    unsigned char token_digest[32]; /* SHA-256 of http_token (compared in constant time) */
    size_t max_body;                /* http_max_request_bytes */
    int nice;                       /* http_nice, the priority of every MHD thread */
    pthread_mutex_t lock;           /* guards queue, actions and stopping */
    pthread_cond_t idle;            /* signalled when actions drops to 0 */
    pthread_cond_t work;            /* signalled when queue grows or stopping is set */
    pthread_t dispatcher;           /* starts the STOP/START threads (normal priority) */
    struct http_req *queue;         /* actions waiting for the dispatcher (linked by next) */
    int actions;                    /* STOP/START requests queued or running */
    bool stopping;                  /* http_stop began: no new actions */
    atomic_uint_fast64_t responses[HTTP_NCODES]; /* responses sent, per status code */
    char **hosts;                                /* http_allowed_hosts, lower case (http_guard.c) */
    int nhosts;
    bool any_host;             /* "*": any Host header */
    int64_t timeout_ms;        /* http_timeout: time to send a whole request */
    int per_ip;                /* http_per_ip_connections (0 = none) */
    int max_conns;             /* http_max_connections */
    pthread_mutex_t conn_lock; /* guards conns, every http_conn_t and timer_stop */
    pthread_cond_t conn_wake;  /* wakes the timer (a new deadline, or stop) */
    pthread_t timer;           /* cuts connections past their deadline */
    bool timer_started;
    bool timer_stop;
    http_conn_t *conns; /* open connections (http_conn.c) */
} http_server_t;

/* What a handler answers. Handlers fill it; http.c turns it into an MHD
 * response. */
typedef struct http_resp {
    unsigned status;                  /* HTTP status; 0 = not answered yet */
    const char *type;                 /* Content-Type (a literal or arena string) */
    sl_buf_t body;                    /* the body (heap; handed to MHD) */
    const unsigned char *static_body; /* or a body that outlives the daemon (UI assets) */
    size_t static_len;
    int nheaders; /* extra headers: name/value pairs */
    const char *headers[HTTP_MAX_HEADERS][2];
} http_resp_t;

/* Phases of a request across the access handler's calls. */
typedef enum {
    HTTP_REQ_NEW,    /* first call: headers only */
    HTTP_REQ_BODY,   /* receiving the body */
    HTTP_REQ_ACTION, /* connection suspended, an action thread runs */
    HTTP_REQ_READY   /* the action thread left its response in `ready` */
} http_req_phase_t;

/* One request, from its first header to its completion callback. */
typedef struct http_req {
    http_server_t *hs;
    struct MHD_Connection *conn;
    sl_arena_t *arena;  /* freed when the request completes; owned by
                                        * the MHD thread, by the action thread while
                                        * an action runs (common/arena.h) */
    const char *method; /* "GET", "POST", ... */
    const char *path;   /* raw path (not yet percent-decoded) */
    http_req_phase_t phase;
    size_t body_len;            /* bytes of body received so far */
    bool body_too_large;        /* more than max_body arrived */
    sl_buf_t body;              /* the body, up to max_body bytes */
    int action;                 /* for an action: 's'top or 's'tart */
    const char *name;           /* the query an action works on (decoded) */
    struct MHD_Response *ready; /* HTTP_REQ_READY: the response to queue */
    struct http_req *next;      /* in the server's action queue */
    unsigned ready_status;
    int local_port; /* the server port the client connected to */
} http_req_t;

/* ---- responses (http.c) ---- */

/* Replaces the answer (body and headers) with a JSON error body
 * {"error": msg, "status": status} (plus "sqlstate" when not NULL). */
void http_error(http_resp_t *r, unsigned status, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Adds a response header (names and values must outlive the response). */
void http_header(http_resp_t *r, const char *name, const char *value);
/* Makes r a 200 JSON response whose body the caller appends to r->body. */
void http_json(http_resp_t *r);
/* Percent-decodes n bytes of s into the arena ('+' becomes a space when
 * plus_space). NULL for a malformed escape or a decoded NUL. */
char *http_decode(sl_arena_t *a, const char *s, size_t n, bool plus_space);
/* The value of query parameter `key` (decoded), NULL when absent; *bad set
 * when present but malformed. */
const char *http_query_arg(http_req_t *rq, const char *key, bool *bad);

/* ---- cross-site protections (http_guard.c) ---- */

/* Reads http_allowed_hosts (or the defaults) into hs; 22023 for a bad entry. */
int http_guard_init(http_server_t *hs, const conf_t *c, sl_error_t *err);
void http_guard_free(http_server_t *hs);
/* The Host header names this server; else false with the 421 in r. */
bool http_guard_host(http_req_t *rq, http_resp_t *r);
/* A POST may act: its Origin (when sent) is the server's, and unless
 * `form_ok` it carries what only a preflighted cross-site request could;
 * else false with the 403 in r. */
bool http_guard_post(http_req_t *rq, bool form_ok, http_resp_t *r);

/* ---- connections and their deadlines (http_conn.c) ---- */

/* Starts the timer thread (and the lock); http_conn_stop after the daemon stopped. */
int http_conn_start(http_server_t *hs, sl_error_t *err);
void http_conn_stop(http_server_t *hs);
/* MHD_OPTION_NOTIFY_CONNECTION: tracks the connection from accept to close
 * and applies http_per_ip_connections. */
void http_conn_notify(void *cls, struct MHD_Connection *conn, void **ctx,
                      enum MHD_ConnectionNotificationCode code);
/* The tracked connection of conn (NULL once it closed). */
http_conn_t *http_conn_of(struct MHD_Connection *conn);
/* The server port the client connected to (0 for NULL). */
int http_conn_local_port(const http_conn_t *hc);
/* The whole request arrived: no deadline while it is answered. */
void http_conn_request_read(http_server_t *hs, http_conn_t *hc);
/* Its response was sent: the next request must be complete within http_timeout. */
void http_conn_request_done(http_server_t *hs, http_conn_t *hc);

/* ---- REST API (http_api.c) ---- */

/* GET /api/v1/queries */
void http_api_list(http_req_t *rq, http_resp_t *r);
/* GET /api/v1/queries/{name} */
void http_api_query(http_req_t *rq, const char *name, http_resp_t *r);
/* GET /api/v1/queries/{name}/progress (recent = 0) and .../progress/recent. */
void http_api_progress(http_req_t *rq, const char *name, int recent, http_resp_t *r);
/* POST .../stop ('x') or .../start ('s'): runs qm_stop / qm_start (blocking
 * up to a batch boundary) and answers the query's new state. Called on an
 * action thread. */
void http_api_action(http_req_t *rq, const char *name, int action, http_resp_t *r);
/* Appends the query document of `name` (what GET /api/v1/queries/{name}
 * answers); 0 when the query is unknown. */
int http_api_query_doc(http_req_t *rq, const char *name, sl_buf_t *out);

/* ---- metrics (http_metrics.c) ---- */

/* GET /metrics: Prometheus text exposition 0.0.4. */
void http_metrics(http_req_t *rq, http_resp_t *r);

/* ---- web UI (http_ui.c) ---- */

/* GET of a UI file (`path` "/" means /index.html); 0 when no such file. */
int http_ui_serve(const char *path, http_resp_t *r);
/* True for the paths of UI files (those may authenticate with the cookie). */
bool http_ui_is_asset(const char *path);
/* The 401 answer to a browser: the sign-in page, with `message` (HTML-safe
 * text, or NULL) shown above the form. */
void http_ui_login_page(http_resp_t *r, const char *message);

#endif
