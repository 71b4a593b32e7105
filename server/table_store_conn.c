/* The table store's connections of sessions: opening one on tables.db,
 * its write transaction and savepoints (BEGIN IMMEDIATE never waits: a held
 * write lock is TSTORE_BUSY, and every end of a write transaction counts
 * for the wake-up list), and the choice of connection that each read or
 * write of table_store_rows.c makes. The rule they follow is in
 * table_store.h. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#include "server/table_store.h"
#include "server/table_store_int.h"

tstore_conn_t *tstore_conn_open(tstore_t *t, sl_error_t *err)
{
    tstore_conn_t *c = sl_xcalloc(1, sizeof *c);
    c->store = t;
    pthread_mutex_init(&c->lock, NULL);
    if (sqlite3_open_v2(t->path, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, NULL) !=
        SQLITE_OK) {
        sl_error_set(err, SL_ERR_IO_ERROR, "could not open table storage \"%s\": %s", t->path,
                     c->db ? sqlite3_errmsg(c->db) : "out of memory");
        tstore_conn_close(c);
        return NULL;
    }
    sqlite3_exec(c->db, "PRAGMA synchronous = FULL", NULL, NULL, NULL);
    return c;
}

void tstore_conn_close(tstore_conn_t *c)
{
    if (!c) return;
    tstore_conn_rollback(c);
    if (c->db) sqlite3_close(c->db);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

/* Runs one statement of transaction control; errors name what failed.
 * With `busy_ok`, a held lock is TSTORE_BUSY rather than an error. */
static int run(tstore_conn_t *c, const char *sql, int busy_ok, sl_error_t *err)
{
    pthread_mutex_lock(&c->lock);
    int rc = sqlite3_exec(c->db, sql, NULL, NULL, NULL);
    pthread_mutex_unlock(&c->lock);
    if (rc == SQLITE_OK) return 0;
    if (rc == SQLITE_BUSY && busy_ok) return TSTORE_BUSY;
    return sl_error_set(err, SL_ERR_IO_ERROR, "table storage: %s failed: %s", sql,
                        sqlite3_errmsg(c->db));
}

int tstore_conn_begin(tstore_conn_t *c, sl_error_t *err)
{
    if (c->in_txn) return 0;
    int rc = run(c, "BEGIN IMMEDIATE", 1, err);
    if (rc == 0) c->in_txn = 1;
    return rc;
}

int tstore_conn_in_txn(const tstore_conn_t *c)
{
    return c && c->in_txn;
}

int tstore_conn_commit(tstore_conn_t *c, sl_error_t *err)
{
    if (!c->in_txn) return 0;
    if (run(c, "COMMIT", 0, err) < 0) {
        tstore_conn_rollback(c);
        return -1;
    }
    c->in_txn = 0;
    tstore_released(c->store);
    return 0;
}

void tstore_conn_rollback(tstore_conn_t *c)
{
    if (!c->in_txn) return;
    sl_error_t ignored;
    run(c, "ROLLBACK", 0, &ignored);
    c->in_txn = 0;
    tstore_released(c->store);
}

static int savepoint_cmd(tstore_conn_t *c, const char *verb, int level, sl_error_t *err)
{
    char sql[64];
    snprintf(sql, sizeof sql, "%s sp%d", verb, level);
    return run(c, sql, 0, err);
}

int tstore_conn_savepoint(tstore_conn_t *c, int level, sl_error_t *err)
{
    return savepoint_cmd(c, "SAVEPOINT", level, err);
}

int tstore_conn_release(tstore_conn_t *c, int level, sl_error_t *err)
{
    return savepoint_cmd(c, "RELEASE", level, err);
}

int tstore_conn_rollback_to(tstore_conn_t *c, int level, sl_error_t *err)
{
    return savepoint_cmd(c, "ROLLBACK TO", level, err);
}

/* ---- the connection of each call ------------------------------------------------ */

int tstore_use_write(tstore_t *t, tstore_conn_t *c, tstore_use_t *u, sl_error_t *err)
{
    if (c) {
        assert(c->in_txn); /* the session begins the transaction before it writes */
        *u = (tstore_use_t){c->db, &c->lock, 0, c->store};
        pthread_mutex_lock(u->lock);
        return 0;
    }
    *u = (tstore_use_t){t->db, &t->lock, 1, t};
    pthread_mutex_lock(u->lock);
    if (sqlite3_exec(u->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK) return 0;
    sl_error_set(err, SL_ERR_IO_ERROR, "table storage: %s", sqlite3_errmsg(u->db));
    pthread_mutex_unlock(u->lock);
    return -1;
}

int tstore_use_end(tstore_use_t *u, int ok, sl_error_t *err)
{
    int rc = ok ? 0 : -1;
    if (u->own_txn && ok && sqlite3_exec(u->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        sl_error_set(err, SL_ERR_IO_ERROR, "table storage: %s", sqlite3_errmsg(u->db));
        rc = -1;
    }
    if (u->own_txn && rc < 0) sqlite3_exec(u->db, "ROLLBACK", NULL, NULL, NULL);
    pthread_mutex_unlock(u->lock);
    if (u->own_txn) tstore_released(u->store);
    return rc;
}
