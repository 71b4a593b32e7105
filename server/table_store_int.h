/* Internals of the static table store shared by its files. */
#ifndef SL_TABLE_STORE_INT_H
#define SL_TABLE_STORE_INT_H

#include <pthread.h>
#include <sqlite3.h>

#include "common/buf.h"
#include "server/table_cache.h"
#include "server/table_store.h"

struct tstore {
    char *path; /* tables.db, for the connections of sessions */
    sqlite3 *db;
    pthread_mutex_t lock;
    atomic_uint_fast64_t releases; /* write transactions ended (tstore_released) */
    uint64_t woken_at;             /* loop thread: releases when the waiters were last woken */
    tstore_waiter_t *waiters;      /* loop thread: sessions parked until the lock is released */
    tcache_t *cache;               /* columnar copies of committed rows; NULL: off */
};

struct tstore_conn {
    tstore_t *store;
    sqlite3 *db;
    pthread_mutex_t lock;
    int in_txn;
};

/* The connection and mutex a call uses: `c`'s, or the store's. */
typedef struct tstore_use {
    sqlite3 *db;
    pthread_mutex_t *lock;
    int own_txn; /* the call began the transaction and ends it */
    tstore_t *store;
} tstore_use_t;

/* Locks and, without `c`, begins a transaction on the store's connection. */
int tstore_use_write(tstore_t *t, tstore_conn_t *c, tstore_use_t *u, sl_error_t *err);
/* Commits (ok) or rolls back a transaction the call began, and unlocks. */
int tstore_use_end(tstore_use_t *u, int ok, sl_error_t *err);

/* A write transaction ended (committed or rolled back), or a change made
 * outside one: counts for tstore_wake. Any thread. */
void tstore_released(tstore_t *t);

/* Moves the tables that older versions kept in <dir>/catalog.db into the
 * store (table_store_move.c). */
int tstore_move_from_catalog(tstore_t *t, const char *dir, sl_error_t *err);
/* SQLite column affinity used for a sluice type. */
const char *tstore_affinity(exec_type_t type);
/* Binds cell `row` of vector `v` to parameter `param` (tmp: scratch for text). */
void tstore_bind_cell(sqlite3_stmt *st, int param, const exec_vec_t *v, uint32_t row,
                      sl_buf_t *tmp);
/* Appends the quoted SQLite name of a table's storage. */
void tstore_table_name(sl_buf_t *b, const char *name);

#endif
