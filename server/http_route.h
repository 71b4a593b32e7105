/* Routing and authentication of HTTP requests: which endpoint a method and
 * path name, the checks every request passes before its handler runs
 * (request size, bearer token, known path, allowed method) and the sign-in
 * form that lets a browser use the UI when http_token is set. */
#ifndef SL_HTTP_ROUTE_H
#define SL_HTTP_ROUTE_H

#include "server/http_int.h"

typedef enum {
    HTTP_R_HEALTHZ,  /* GET /healthz */
    HTTP_R_METRICS,  /* GET /metrics */
    HTTP_R_LOGIN,    /* POST /login (the UI's sign-in form) */
    HTTP_R_LIST,     /* GET /api/v1/queries */
    HTTP_R_QUERY,    /* GET /api/v1/queries/{name} */
    HTTP_R_PROGRESS, /* GET /api/v1/queries/{name}/progress */
    HTTP_R_RECENT,   /* GET /api/v1/queries/{name}/progress/recent */
    HTTP_R_STOP,     /* POST /api/v1/queries/{name}/stop */
    HTTP_R_START,    /* POST /api/v1/queries/{name}/start */
    HTTP_R_UI        /* GET / and the UI's files */
} http_route_kind_t;

/* A matched route. */
typedef struct http_route {
    http_route_kind_t kind;
    const char *name; /* the decoded query name of /api/v1/queries/{name}/...; else NULL */
} http_route_t;

/* Checks a request on its first call (headers only): 0 = a GET route to run
 * now (route filled); 1 = a POST route that reads its body first (the route
 * is remembered in rq); -1 = refused, r holds the answer (400, 401, 403,
 * 404, 405, 413 or 421). */
int http_route_check(http_req_t *rq, http_route_t *route, http_resp_t *r);
/* Runs a GET route into r. */
void http_route_run(http_req_t *rq, const http_route_t *route, http_resp_t *r);
/* Finishes a POST route once its body arrived: 1 = run rq's action on a
 * thread (rq->action and rq->name set); 0 = r holds the answer. */
int http_route_post(http_req_t *rq, http_resp_t *r);

#endif
