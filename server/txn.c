/* Transaction state of a session: the block's state machine, its
 * savepoints (mirrored as SQLite savepoints once the block writes), the
 * session's table store connection, and the tables whose catalog version
 * is bumped when their changes commit. See txn.h for the model. */
#include "server/txn.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "server/catalog.h"

struct txn {
    srv_t *srv;
    guc_t *guc;
    txn_state_t state;
    int nsp;
    char **sp;           /* savepoint names, outermost first */
    tstore_conn_t *conn; /* opened at the session's first change to a table */
    int lock_busy;       /* the statement found the write lock held (txn_lock_busy) */
    int ddl_own;         /* txn_ddl_conn began a transaction for the statement */
    int ntouched;
    char **touched; /* tables changed by the open transaction */
    int ncreated;
    struct txn_created {
        char *name;
        int level; /* savepoints open when it was created; -1: drop at the end */
    } * created;   /* tables CREATE TABLE made in the block */
};

txn_t *txn_new(srv_t *srv, guc_t *guc)
{
    txn_t *t = sl_xcalloc(1, sizeof *t);
    t->srv = srv;
    t->guc = guc;
    return t;
}

static void savepoints_pop_to(txn_t *t, int n)
{
    while (t->nsp > n) free(t->sp[--t->nsp]);
}

static void touched_clear(txn_t *t, int bump)
{
    for (int i = 0; i < t->ntouched; i++) {
        sl_error_t ignored;
        if (bump) cat_touch(t->srv->cat, t->touched[i], &ignored);
        free(t->touched[i]);
    }
    free(t->touched);
    t->touched = NULL;
    t->ntouched = 0;
}

static void created_remove(txn_t *t, int i)
{
    free(t->created[i].name);
    t->created[i] = t->created[--t->ncreated];
}

/* Drops the tables made after savepoint `level` (all for -1): now when the
 * block holds no write lock, else when it ends. `storage`: their storage
 * too (a session being freed on the loop thread leaves it; outside a
 * transaction the drop does not wait for the write lock, and another
 * session holding it leaves it too; a later CREATE TABLE replaces it). */
static void created_undo(txn_t *t, int level, int now, int storage)
{
    for (int i = t->ncreated - 1; i >= 0; i--) {
        if (t->created[i].level >= 0 && t->created[i].level <= level) continue;
        if (!now) {
            t->created[i].level = -1;
            continue;
        }
        sl_error_t ignored;
        cat_drop(t->srv->cat, CAT_TABLE, t->created[i].name, &ignored);
        if (storage) tstore_drop(t->srv->tstore, t->conn, t->created[i].name);
        created_remove(t, i);
    }
}

/* The block ended: tables to drop are dropped; the rest stay. */
static void created_end(txn_t *t, int committed, int storage)
{
    created_undo(t, committed ? INT_MAX : -1, 1, storage);
    while (t->ncreated) created_remove(t, t->ncreated - 1);
}

void txn_created_table(txn_t *t, const char *name)
{
    if (t->state == TXN_IDLE) return;
    t->created = sl_xrealloc(t->created, sizeof *t->created * (size_t)(t->ncreated + 1));
    t->created[t->ncreated++] = (struct txn_created){sl_xstrdup(name), t->nsp};
}

void txn_dropped_table(txn_t *t, const char *name)
{
    for (int i = t->ncreated - 1; i >= 0; i--)
        if (!strcmp(t->created[i].name, name)) created_remove(t, i);
}

void txn_free(txn_t *t)
{
    if (!t) return;
    tstore_conn_close(t->conn);
    t->conn = NULL;
    created_end(t, 0, 0);
    free(t->created);
    savepoints_pop_to(t, 0);
    free(t->sp);
    touched_clear(t, 0);
    free(t);
}

txn_state_t txn_state(const txn_t *t)
{
    return t->state;
}

char txn_status(const txn_t *t)
{
    return t->state == TXN_IDLE ? 'I' : t->state == TXN_BLOCK ? 'T' : 'E';
}

void txn_fail(txn_t *t)
{
    if (t->state == TXN_BLOCK) t->state = TXN_FAILED;
}

void txn_begin(txn_t *t, const char *isolation, const char *read_only, const char *deferrable)
{
    t->state = TXN_BLOCK;
    guc_txn_begin(t->guc);
    guc_txn_property(t->guc, GUC_TRANSACTION_ISOLATION,
                     isolation ? isolation : guc_value(t->guc, GUC_DEFAULT_TRANSACTION_ISOLATION));
    guc_txn_property(t->guc, GUC_TRANSACTION_READ_ONLY,
                     read_only ? read_only : guc_value(t->guc, GUC_DEFAULT_TRANSACTION_READ_ONLY));
    guc_txn_property(t->guc, GUC_TRANSACTION_DEFERRABLE,
                     deferrable ? deferrable
                                : guc_value(t->guc, GUC_DEFAULT_TRANSACTION_DEFERRABLE));
}

/* The end of a block: the table changes were committed (or not). */
static void block_end(txn_t *t, int committed)
{
    touched_clear(t, committed);
    created_end(t, committed, 1);
    savepoints_pop_to(t, 0);
    guc_txn_end(t->guc, committed);
    t->state = TXN_IDLE;
}

int txn_commit(txn_t *t, sl_error_t *err)
{
    if (t->state == TXN_FAILED) {
        txn_rollback(t);
        return 1;
    }
    if (t->conn && tstore_conn_commit(t->conn, err) < 0) {
        block_end(t, 0);
        return -1;
    }
    block_end(t, 1);
    return 0;
}

void txn_rollback(txn_t *t)
{
    if (t->conn) tstore_conn_rollback(t->conn);
    block_end(t, 0);
}

int txn_savepoint(txn_t *t, const char *name, sl_error_t *err)
{
    if (tstore_conn_in_txn(t->conn) && tstore_conn_savepoint(t->conn, t->nsp, err) < 0) return -1;
    t->sp = sl_xrealloc(t->sp, sizeof *t->sp * (size_t)(t->nsp + 1));
    t->sp[t->nsp++] = sl_xstrdup(name);
    guc_txn_savepoint(t->guc);
    return 0;
}

int txn_find_savepoint(const txn_t *t, const char *name)
{
    for (int i = t->nsp - 1; i >= 0; i--)
        if (!strcmp(t->sp[i], name)) return i;
    return -1;
}

int txn_release(txn_t *t, int level, sl_error_t *err)
{
    if (tstore_conn_in_txn(t->conn) && tstore_conn_release(t->conn, level, err) < 0) return -1;
    for (int i = 0; i < t->ncreated; i++)
        if (t->created[i].level > level) t->created[i].level = level;
    savepoints_pop_to(t, level);
    guc_txn_release(t->guc, level);
    return 0;
}

int txn_rollback_to(txn_t *t, int level, sl_error_t *err)
{
    if (tstore_conn_in_txn(t->conn) && tstore_conn_rollback_to(t->conn, level, err) < 0) return -1;
    created_undo(t, level, !tstore_conn_in_txn(t->conn), 1);
    savepoints_pop_to(t, level + 1);
    guc_txn_rollback_to(t->guc, level);
    t->state = TXN_BLOCK;
    return 0;
}

/* BEGIN IMMEDIATE on the session's connection; a held lock fails the
 * statement, which has changed nothing, and marks it for txn_lock_busy. */
static int begin_conn(txn_t *t, sl_error_t *err)
{
    int rc = tstore_conn_begin(t->conn, err);
    if (rc != TSTORE_BUSY) return rc;
    t->lock_busy = 1;
    return sl_error_set(err, SL_ERR_LOCK_NOT_AVAILABLE,
                        "could not obtain the write lock on table data");
}

/* Begins the connection's transaction, with the block's open savepoints. */
static int begin_writes(txn_t *t, sl_error_t *err)
{
    if (tstore_conn_in_txn(t->conn)) return 0;
    if (begin_conn(t, err) < 0) return -1;
    for (int i = 0; i < t->nsp; i++)
        if (tstore_conn_savepoint(t->conn, i, err) < 0) {
            tstore_conn_rollback(t->conn);
            return -1;
        }
    return 0;
}

tstore_conn_t *txn_writer(txn_t *t, const char *verb, sl_error_t *err)
{
    if (guc_int(t->guc, t->state == TXN_IDLE ? GUC_DEFAULT_TRANSACTION_READ_ONLY
                                             : GUC_TRANSACTION_READ_ONLY)) {
        sl_error_set(err, SL_ERR_READ_ONLY_SQL_TRANSACTION,
                     "cannot execute %s in a read-only transaction", verb);
        return NULL;
    }
    if (!t->conn && !(t->conn = tstore_conn_open(t->srv->tstore, err))) return NULL;
    return begin_writes(t, err) < 0 ? NULL : t->conn;
}

tstore_conn_t *txn_ddl_conn(txn_t *t, sl_error_t *err)
{
    if (!t->conn && !(t->conn = tstore_conn_open(t->srv->tstore, err))) return NULL;
    if (tstore_conn_in_txn(t->conn)) return t->conn;
    if (begin_conn(t, err) < 0) return NULL;
    t->ddl_own = 1;
    return t->conn;
}

int txn_ddl_end(txn_t *t, int ok, sl_error_t *err)
{
    if (!t->ddl_own) return 0;
    t->ddl_own = 0;
    if (ok) return tstore_conn_commit(t->conn, err);
    tstore_conn_rollback(t->conn);
    return 0;
}

int txn_lock_busy(txn_t *t)
{
    int busy = t->lock_busy;
    t->lock_busy = 0;
    return busy;
}

tstore_conn_t *txn_reader(const txn_t *t)
{
    return tstore_conn_in_txn(t->conn) ? t->conn : NULL;
}

void txn_touched(txn_t *t, const char *name)
{
    for (int i = 0; i < t->ntouched; i++)
        if (!strcmp(t->touched[i], name)) return;
    t->touched = sl_xrealloc(t->touched, sizeof *t->touched * (size_t)(t->ntouched + 1));
    t->touched[t->ntouched++] = sl_xstrdup(name);
}

int txn_statement_end(txn_t *t, int ok, sl_error_t *err)
{
    if (t->state != TXN_IDLE) return 0;
    int rc = 0;
    if (tstore_conn_in_txn(t->conn)) {
        if (ok) rc = tstore_conn_commit(t->conn, err);
        else tstore_conn_rollback(t->conn);
    }
    touched_clear(t, ok && rc == 0);
    return rc;
}
