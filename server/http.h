/* The HTTP endpoint of sluiced: the REST API over the query manager's
 * snapshots (/api/v1/...), Prometheus metrics (/metrics), /healthz and the
 * embedded web UI, served by libmicrohttpd from its own threads. Those
 * threads only read snapshots and never wait for a batch; STOP and START
 * requests run on short-lived threads of their own while their connection
 * is suspended. */
#ifndef SL_HTTP_H
#define SL_HTTP_H

#include "common/sl_error.h"
#include "server/server.h"

/* Binds http_listen_address:http_port (0 picks a free port), applies the
 * connection limits of the configuration, logs "listening addr=... port=..."
 * and sets srv->http. Loop thread, after pgw_start. -1 with err filled when
 * the address cannot be bound. */
int http_start(srv_t *srv, sl_error_t *err);
/* The port actually bound (after http_port = 0); 0 when not started. */
int http_port(const srv_t *srv);
/* Stops accepting, waits for STOP/START requests in flight (each ends at a
 * batch boundary), closes every connection and frees the server; sets
 * srv->http to NULL. Blocking; loop thread, after pgw_stop and before the
 * query manager shuts down. A NULL srv->http is ignored. */
void http_stop(srv_t *srv);

#endif
