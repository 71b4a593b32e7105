/* Static tables kept in SQLite (CREATE TABLE without USING): one SQLite table
 * per sluice table inside catalog.db, named "table:<name>", with columns
 * c0..cN in the declared order and rows in insertion order (rowid). Values
 * are stored as SQLite integers (BOOLEAN, INT, BIGINT, DATE, TIMESTAMP),
 * reals (DOUBLE), blobs (BINARY) or PostgreSQL text (DECIMAL, STRING,
 * INTERVAL, STRUCT as JSON). Thread-safe: one connection behind a mutex. */
#ifndef SL_TABLE_STORE_H
#define SL_TABLE_STORE_H

#include "common/sl_error.h"
#include "planner/relation.h"

typedef struct tstore tstore_t;

tstore_t *tstore_open(const char *dir, sl_error_t *err);
void tstore_close(tstore_t *t);
/* Creates the storage of a new table (replacing leftovers of an old one). */
int tstore_create(tstore_t *t, const plan_relation_t *rel, sl_error_t *err);
/* Removes a table's storage; a missing one is not an error. */
void tstore_drop(tstore_t *t, const char *name);



#include "exec/batch.h"

/* Appends the present rows of `b` (columns in the table's order and types)
 * in one transaction. */
int tstore_insert(tstore_t *t, const plan_relation_t *rel, const exec_batch_t *b, sl_error_t *err);
/* Hands the table's rows to `emit` in batches of up to EXEC_BATCH_ROWS rows
 * (in insertion order, allocated in `a`). With `with_rowid` each batch has
 * one more BIGINT column: the row's id for tstore_delete. */
int tstore_scan(tstore_t *t, const plan_relation_t *rel, int with_rowid, sl_arena_t *a,
                int (*emit)(void *arg, exec_batch_t *b, sl_error_t *err), void *arg,
                sl_error_t *err);
/* Deletes rows by id in one transaction. */
int tstore_delete(tstore_t *t, const char *name, const int64_t *rowids, int64_t n, sl_error_t *err);
#endif
