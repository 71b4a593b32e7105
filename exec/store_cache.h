/* State stores kept open across micro-batches. A stateful operator
 * instance lives for one batch, but its store (state/<op>/<part>[/<name>])
 * should not: reopening costs a reload from files (memory provider) or a
 * database open (RocksDB) every batch. The runner owns one cache per query;
 * operators acquire their stores through it and release them at close, and
 * the store stays open, loaded at its last committed version, for the next
 * batch. Without a cache (ctx->stores NULL: tests, batch plans) acquire
 * opens and release closes. Thread-safe: tasks of different partitions
 * acquire concurrently; one (op, part, name) is used by one task at a time. */
#ifndef SL_STORE_CACHE_H
#define SL_STORE_CACHE_H

#include "exec/op.h"
#include "state/store.h"

typedef struct exec_store_cache exec_store_cache_t;

exec_store_cache_t *exec_store_cache_new(void);
/* Closes every cached store. */
void exec_store_cache_free(exec_store_cache_t *c);

/* The store (op->node->op_id, op->ctx->partition, name) under ctx->state_dir. */
store_t *exec_store_acquire(op_t *op, const char *name, const store_options_t *opt,
                            sl_error_t *err);
/* Gives the store back (closes it when there is no cache). NULL is ignored. */
void exec_store_release(op_t *op, store_t *s);

#endif
