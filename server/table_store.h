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

/* A bulk load (COPY FROM): rows go to a staging table, in batches as they
 * arrive, without holding the store between batches; commit moves them
 * into the table in one transaction, so readers see all of them or none.
 * A load is used by one thread at a time. */
typedef struct tstore_load tstore_load_t;
/* Starts a load into `rel` (a catalog-stored table; copied). */
tstore_load_t *tstore_load_begin(tstore_t *t, const plan_relation_t *rel, sl_error_t *err);
/* Stages the present rows of `b` (the table's columns). */
int tstore_load_rows(tstore_load_t *l, const exec_batch_t *b, sl_error_t *err);
/* Moves the staged rows into the table and frees the load (also on error,
 * when nothing is moved). *nrows = rows added. */
int tstore_load_commit(tstore_load_t *l, int64_t *nrows, sl_error_t *err);
/* Drops the staged rows and frees the load. */
void tstore_load_abort(tstore_load_t *l);
#endif
