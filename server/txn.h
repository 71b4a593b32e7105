/* A session's transaction state as PostgreSQL clients see it: idle, in a
 * transaction block, or in a failed block (25P02 until ROLLBACK), with the
 * block's savepoints, and the table store connection through which the
 * session's changes to static tables go (server/table_store.h states the
 * rule). Outside a block each statement that changes a table is a
 * transaction of its own, committed when the statement ends; inside one,
 * changes become visible to others at COMMIT and ROLLBACK [TO SAVEPOINT]
 * undoes them. Session settings follow the block too (guc_txn_*).
 * CREATE TABLE in a block takes effect in the catalog at once and is
 * undone by dropping the table (its storage joins the block's transaction
 * when the block already changed rows); DROP TABLE takes effect at once and
 * is not undone; stream and query statements are refused in a block
 * (server/stmt_session.c).
 *
 * Only one session writes table data at a time (the table store's write
 * lock). A statement that needs the lock while another session holds it
 * fails at once, having changed nothing (txn_lock_busy tells): the session
 * gives its worker thread back, parks on the loop thread and runs the same
 * statement again when a writer's transaction ends, until it gets the lock
 * or its lock_timeout (55P03), statement_timeout or a cancel (57014) ends
 * the wait (server/session.c).
 *
 * Like the session's settings, used by the thread running the session's
 * statement, or the loop thread between statements. */
#ifndef SL_TXN_H
#define SL_TXN_H

#include "common/sl_error.h"
#include "server/guc.h"
#include "server/server.h"
#include "server/table_store.h"

typedef struct txn txn_t;

typedef enum { TXN_IDLE, TXN_BLOCK, TXN_FAILED } txn_state_t;

txn_t *txn_new(srv_t *srv, guc_t *guc);
/* Rolls back whatever is open. */
void txn_free(txn_t *t);

txn_state_t txn_state(const txn_t *t);
/* ReadyForQuery's status byte: 'I', 'T' or 'E'. */
char txn_status(const txn_t *t);
/* An error happened: a block becomes failed. */
void txn_fail(txn_t *t);

/* BEGIN with the block's isolation level, read-only and deferrable
 * properties (NULL: from the default_transaction_* settings). */
void txn_begin(txn_t *t, const char *isolation, const char *read_only, const char *deferrable);
/* COMMIT: returns 1 when the block had failed and was rolled back instead,
 * -1 when committing the table changes failed (rolled back, err set). */
int txn_commit(txn_t *t, sl_error_t *err);
void txn_rollback(txn_t *t);
int txn_savepoint(txn_t *t, const char *name, sl_error_t *err);
/* The innermost savepoint called `name`, or -1. */
int txn_find_savepoint(const txn_t *t, const char *name);
int txn_release(txn_t *t, int level, sl_error_t *err);
/* Undoes what followed savepoint `level`, which stays; a failed block is
 * usable again. */
int txn_rollback_to(txn_t *t, int level, sl_error_t *err);

/* The connection a statement that changes a table writes through, in a
 * transaction that holds the write lock (NULL with txn_lock_busy when
 * another session holds it). 25006 in a read-only transaction; `verb`
 * names the statement. Called before the statement changes anything. */
tstore_conn_t *txn_writer(txn_t *t, const char *verb, sl_error_t *err);
/* The connection CREATE/DROP TABLE's storage changes go through, holding
 * the write lock: the block's transaction when it holds it, else a
 * transaction of the statement's own that txn_ddl_end ends (NULL with
 * txn_lock_busy when another session holds the lock). Called before the
 * statement changes the catalog. */
tstore_conn_t *txn_ddl_conn(txn_t *t, sl_error_t *err);
/* Commits (ok) or rolls back the transaction txn_ddl_conn began, if it
 * began one; -1 with err when the commit failed. */
int txn_ddl_end(txn_t *t, int ok, sl_error_t *err);
/* True once after a statement failed only because another session holds
 * the write lock: it changed nothing and may run again. */
int txn_lock_busy(txn_t *t);
/* The connection a read goes through (NULL: the last committed rows). */
tstore_conn_t *txn_reader(const txn_t *t);
/* Table `name` changed: its catalog version is bumped once the change is
 * committed. */
void txn_touched(txn_t *t, const char *name);
/* The end of a statement: outside a block, commits (ok) or rolls back the
 * statement's changes. Returns -1 with err when the commit failed. */
int txn_statement_end(txn_t *t, int ok, sl_error_t *err);
/* CREATE TABLE ran in the block (it took effect at once): ROLLBACK, or a
 * ROLLBACK TO a savepoint set before it, drops the table again (when the
 * block ends, if the block holds the write lock then). */
void txn_created_table(txn_t *t, const char *name);
/* DROP TABLE ran in the block: nothing is left to undo for that table. */
void txn_dropped_table(txn_t *t, const char *name);

#endif
