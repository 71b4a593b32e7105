/* The process-wide context of sluiced: configuration, the libuv loop and the
 * long-lived services hanging off it. Exactly one srv_t exists per process;
 * it is created by main() and passed explicitly (no globals elsewhere). */
#ifndef SL_SERVER_H
#define SL_SERVER_H

#include <stdatomic.h>
#include <uv.h>

#include "server/config.h"

struct cat;
struct tstore;
struct exec_pool;
struct memtable_registry;
struct qm;
struct pgw_server;
struct http_server;

typedef enum { AUTH_TRUST, AUTH_PASSWORD, AUTH_SCRAM } srv_auth_t;

typedef struct srv {
    conf_t *conf;
    uv_loop_t *loop;                     /* the one event loop; owned by main() */
    struct cat *cat;                     /* catalog (SQLite) */
    struct tstore *tstore;               /* rows of static tables (SQLite) */
    struct exec_pool *pool;              /* worker threads for partitions of batches and SELECTs */
    struct exec_pool *io_pool;           /* threads for the durable writes of batches (fsync) */
    struct memtable_registry *memtables; /* tables of memory sinks, read by SELECT */
    struct qm *qm;                       /* query manager */
    struct pgw_server *pgw;              /* SQL endpoint */
    struct http_server *http;            /* HTTP endpoint */
    srv_auth_t auth;          /* authentication resolved from conf (auto -> trust/scram) */
    int worker_threads;       /* size of the libuv thread pool */
    atomic_int shutting_down; /* set once SIGTERM/SIGINT arrived */
} srv_t;

#endif
