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

#endif
