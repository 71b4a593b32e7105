/* The SQL endpoint: PostgreSQL protocol v3 over TCP on the libuv loop, with
 * TLS (OpenSSL, memory BIOs), authentication (trust, password,
 * scram-sha-256), simple and extended query, cancel requests. Each
 * connection owns one session (server/session.h) that runs its statements. */
#ifndef SL_PGWIRE_H
#define SL_PGWIRE_H

#include "common/sl_error.h"
#include "server/server.h"

/* Loads TLS material and the password file, binds every listen address
 * (port 0 picks a free port) and logs "listening addr=... port=...".
 * Sets srv->pgw. Runs on the loop thread before uv_run. */
int pgw_start(srv_t *srv, sl_error_t *err);
/* The port actually bound (after port = 0). */
int pgw_port(const srv_t *srv);
/* Stops accepting, sends every connection a FATAL 57P01 "terminating
 * connection due to administrator command" and closes them; statements in
 * flight finish on their worker first. `done_cb` runs on the loop when every
 * handle is closed. */
void pgw_stop(srv_t *srv, void (*done_cb)(srv_t *srv));

#endif
