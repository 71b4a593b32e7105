/* Static tables kept in SQLite (CREATE TABLE without USING): one SQLite table
 * per sluice table in <data_directory>/tables.db (WAL mode; a file of its
 * own, so that a transaction holding its write lock never holds the
 * catalog's), named "table:<name>", with columns
 * c0..cN in the declared order and rows in insertion order (rowid). Values
 * are stored as SQLite integers (BOOLEAN, INT, BIGINT, DATE, TIMESTAMP),
 * reals (DOUBLE), blobs (BINARY) or PostgreSQL text (DECIMAL, STRING,
 * INTERVAL, STRUCT as JSON).
 *
 * Connections and transactions (the rule): the store's own connection,
 * behind a mutex, serves reads and the writes of callers without a
 * connection of their own (conn NULL: each call is its own transaction).
 * A session writes through a tstore_conn_t of its own, always inside a
 * transaction that holds SQLite's write lock (BEGIN IMMEDIATE) from its
 * first change until COMMIT or ROLLBACK: a statement outside a transaction
 * block commits when it ends, a block when it commits. In WAL mode other
 * sessions keep reading the last committed rows while a transaction is
 * open, and other writers wait for the lock. A session's connection never
 * waits for it inside SQLite (that would hold a worker thread, and with
 * more waiting writers than workers the holder's COMMIT would never run):
 * tstore_conn_begin answers TSTORE_BUSY at once, having changed nothing,
 * and the session parks on the loop thread in the store's wake-up list
 * (tstore_wait_add), to run its statement again when a write transaction
 * ends (tstore_wake) or its backoff timer fires; its cancel flag, lock
 * timeout and statement timeout end the wait (server/session.c). Reads of
 * a session inside its transaction go through its connection, so that it
 * sees its own changes. A connection is used by one session's statement at
 * a time; its mutex lets the partitions of one statement read through it
 * in parallel. */
#ifndef SL_TABLE_STORE_H
#define SL_TABLE_STORE_H

#include "common/sl_error.h"
#include "planner/relation.h"

typedef struct tstore tstore_t;

/* Opens <dir>/tables.db; `cache_bytes` bounds the columnar copy of the
 * tables' committed rows that reads are served from (server/table_cache.h;
 * 0: none). */
tstore_t *tstore_open(const char *dir, size_t cache_bytes, sl_error_t *err);
void tstore_close(tstore_t *t);
#include <stdatomic.h>

#include "model/batch.h"

typedef struct tstore_conn tstore_conn_t;

/* Creates the storage of a new table (replacing leftovers of an old one):
 * through a session's connection `c` (in its transaction when one is
 * open), or the store's when c is NULL. */
int tstore_create(tstore_t *t, tstore_conn_t *c, const plan_relation_t *rel, sl_error_t *err);
/* Removes a table's storage, likewise; a missing one is not an error, a
 * failure is logged (the storage is left over, and a CREATE TABLE of the
 * name replaces it). */
void tstore_drop(tstore_t *t, tstore_conn_t *c, const char *name);

/* A connection of a session's own. Any thread. */
tstore_conn_t *tstore_conn_open(tstore_t *t, sl_error_t *err);
/* Rolls back an open transaction and closes. */
void tstore_conn_close(tstore_conn_t *c);
/* tstore_conn_begin's answer when another connection holds the write lock. */
#define TSTORE_BUSY 1
/* BEGIN IMMEDIATE, without waiting: 0 with the write lock, TSTORE_BUSY
 * when another connection holds it (nothing changed), -1 with err. */
int tstore_conn_begin(tstore_conn_t *c, sl_error_t *err);
int tstore_conn_in_txn(const tstore_conn_t *c);
/* COMMIT (on failure the transaction is rolled back) and ROLLBACK. */
int tstore_conn_commit(tstore_conn_t *c, sl_error_t *err);
void tstore_conn_rollback(tstore_conn_t *c);
/* Savepoints by nesting level (0 = outermost) inside the transaction. */
int tstore_conn_savepoint(tstore_conn_t *c, int level, sl_error_t *err);
int tstore_conn_release(tstore_conn_t *c, int level, sl_error_t *err);
int tstore_conn_rollback_to(tstore_conn_t *c, int level, sl_error_t *err);

/* Appends the present rows of `b` (columns in the table's order and types):
 * through `c` (in its transaction), or on the store's connection in a
 * transaction of its own when c is NULL. */
int tstore_insert(tstore_t *t, tstore_conn_t *c, const plan_relation_t *rel, const exec_batch_t *b,
                  sl_error_t *err);
/* Hands the table's rows to `emit` in batches of up to EXEC_BATCH_ROWS rows
 * (in insertion order, allocated in `a`). With `with_rowid` each batch has
 * one more BIGINT column: the row's id for tstore_delete. Reads through `c`
 * when it is in a transaction, else the last committed rows. */
int tstore_scan(tstore_t *t, tstore_conn_t *c, const plan_relation_t *rel, int with_rowid,
                sl_arena_t *a, int (*emit)(void *arg, exec_batch_t *b, sl_error_t *err), void *arg,
                sl_error_t *err);
/* The committed rows of a table as one columnar copy (server/table_cache.h),
 * for a statement whose tasks read parts of it in parallel: 0 with *out
 * referenced (release it with tstore_snapshot_release) or NULL when the
 * store keeps no copies; -1 with err. */
struct tcache_entry;
int tstore_snapshot(tstore_t *t, const plan_relation_t *rel, struct tcache_entry **out,
                    sl_error_t *err);
void tstore_snapshot_release(tstore_t *t, struct tcache_entry *e);

/* Deletes rows by id: through `c` (in its transaction), or in a
 * transaction of its own when c is NULL. */
int tstore_delete(tstore_t *t, tstore_conn_t *c, const char *name, const int64_t *rowids, int64_t n,
                  sl_error_t *err);

/* The wake-up list of the write lock. A session that got TSTORE_BUSY
 * reads tstore_releases() before trying (any thread), and parks (loop
 * thread) only when the count has not moved since. tstore_wake (loop
 * thread, after each statement run and after a connection closes) calls,
 * and removes, every parked waiter when write transactions ended since its
 * last call. */
typedef struct tstore_waiter {
    struct tstore_waiter *prev, *next;
    int listed;
    void (*cb)(void *arg);
    void *arg;
} tstore_waiter_t;

uint64_t tstore_releases(tstore_t *t);
void tstore_wait_add(tstore_t *t, tstore_waiter_t *w, void (*cb)(void *arg), void *arg);
/* Nothing happens when `w` is not listed. */
void tstore_wait_remove(tstore_t *t, tstore_waiter_t *w);
void tstore_wake(tstore_t *t);
#endif
