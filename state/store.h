/* State stores: one versioned key-value store per (stateful operator,
 * partition[, store name]), living in <checkpoint>/state/<op>/<part>[/<name>]/.
 * Keys and values are opaque byte strings (encoded rows made by exec/); keys
 * are memcomparable, so bytewise order is the order scans return.
 *
 * Versions follow Spark: the operator in batch B calls store_load(B) (the
 * state as of the end of batch B-1; version 0 is empty), reads and changes
 * it, then store_commit() makes version B+1 durable. A batch that is re-run
 * after a crash loads B again and its commit replaces the earlier B+1.
 *
 *   store_t *s = store_open(state_root, op, part, NULL, &opt, &err);
 *   per batch B:  store_load(s, B) ; get/put/delete/iter ; store_commit(s)
 *                 (or store_abort(s) on failure) ; later store_maintenance(s)
 *   store_close(s)
 *
 * Two providers sit behind the store_ops_t vtable, chosen by name:
 *   "memory"  Spark's HDFS-backed design: the live version in memory (an
 *             ordered map), each commit writes <v>.delta, maintenance writes
 *             <v>.snapshot every few deltas; load(v) = newest snapshot <= v
 *             plus the deltas after it; loading the version just committed
 *             costs nothing.
 *   "rocksdb" a RocksDB instance per store; commit writes the changes and
 *             takes a RocksDB checkpoint (hard links) as <v>.ckpt/; load(v)
 *             restores the instance from it unless it is already at v.
 * state/README.md describes both layouts.
 *
 * Threads: a store is used by one task at a time (partitions of a batch run
 * in parallel on different stores); nothing is shared between stores.
 * Errors: functions returning int give -1 with `err` filled (58030 for I/O
 * and corrupt files, 55000 for misuse of the protocol). */
#ifndef SL_STORE_H
#define SL_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/sl_error.h"

typedef struct store store_t;
typedef struct store_iter store_iter_t;

#define STORE_DEFAULT_VERSIONS_TO_RETAIN 100 /* Spark's minBatchesToRetain */
#define STORE_DEFAULT_DELTAS_FOR_SNAPSHOT 10 /* Spark's minDeltasForSnapshot */
#define STORE_DEFAULT_ROCKSDB_CACHE_MB 8

/* Options of store_open; zero fields take the defaults above. */
typedef struct store_options {
    const char *provider;        /* "memory" (also when NULL) or "rocksdb" */
    int min_versions_to_retain;  /* maintenance keeps every version >= latest - N */
    int min_deltas_for_snapshot; /* memory: snapshot once this many deltas follow
                                    the newest snapshot */
    int rocksdb_block_cache_mb;  /* rocksdb: block cache of this store, MiB */
} store_options_t;

/* ---- metrics (Spark's StateOperatorProgress fields, per store) ---- */

#define STORE_MAX_CUSTOM_METRICS 32

typedef struct store_metric {
    const char *name; /* Spark's custom metric name, e.g. "rocksdbGetCount" (static) */
    int64_t value;
} store_metric_t;

typedef struct store_metrics {
    int64_t num_keys;             /* numRowsTotal: keys in the loaded version */
    int64_t num_rows_updated;     /* numRowsUpdated: puts since store_load */
    int64_t num_rows_removed;     /* numRowsRemoved: keys deleted since store_load */
    int64_t memory_used_bytes;    /* memoryUsedBytes: memory held by the store */
    int64_t commit_time_ms;       /* commitTimeMs: time in store_commit since store_load */
    int64_t all_updates_time_ms;  /* allUpdatesTimeMs: time in puts since store_load
                                     (extrapolated from one put in 8) */
    int64_t all_removals_time_ms; /* allRemovalsTimeMs: time in deletes and range
                                     deletes since store_load (same sampling) */
    int ncustom;                  /* entries in custom, sorted by name */
    store_metric_t custom[STORE_MAX_CUSTOM_METRICS];
    /* memory: loadedMapCacheHitCount, loadedMapCacheMissCount (since open),
     *         stateOnCurrentVersionSizeBytes;
     * rocksdb: the rocksdb* names of Spark 3.5 that apply (docs/checkpoints.md) */
} store_metrics_t;

/* ---- provider vtable ---- */

/* What a provider implements. `impl` is the provider's own object made by
 * open(); the generic functions below check the protocol (load before use,
 * no open iterators across load/commit/abort/close) and keep the metrics,
 * so providers do not. Return conventions are those of the store_* function
 * of the same name. */
typedef struct store_ops {
    const char *name;
    void *(*open)(const char *dir, const store_options_t *opt, sl_error_t *err);
    /* Makes `version` the working state, dropping uncommitted changes.
     * Sets *cache_hit when nothing had to be read back. */
    int (*load)(void *impl, int64_t version, int *cache_hit, sl_error_t *err);
    int (*get)(void *impl, const void *key, size_t klen, const void **val, size_t *vlen,
               sl_error_t *err);
    int (*put)(void *impl, const void *key, size_t klen, const void *val, size_t vlen,
               sl_error_t *err);
    int (*del)(void *impl, const void *key, size_t klen, sl_error_t *err);
    /* Deletes keys in [lo, hi) and returns how many; NULL = the generic
     * iterate-and-delete fallback. */
    int64_t (*delete_range)(void *impl, const void *lo, size_t lolen, const void *hi, size_t hilen,
                            sl_error_t *err);
    /* Iterates keys in [lo, hi) in bytewise order; NULL bound = unbounded. */
    void *(*iter_open)(void *impl, const void *lo, size_t lolen, const void *hi, size_t hilen,
                       sl_error_t *err);
    int (*iter_next)(void *it, const void **key, size_t *klen, const void **val, size_t *vlen,
                     sl_error_t *err);
    void (*iter_close)(void *it);
    /* Makes the working state durable as `version` (the loaded one + 1). */
    int (*commit)(void *impl, int64_t version, sl_error_t *err);
    void (*abort)(void *impl);
    /* Fills num_keys, memory_used_bytes and custom. */
    void (*metrics)(void *impl, store_metrics_t *m);
    int (*maintenance)(void *impl, sl_error_t *err);
    void (*close)(void *impl);
} store_ops_t;

/* The provider called `name` ("memory", "rocksdb"), or NULL. */
const store_ops_t *store_provider(const char *name);

/* ---- opening ---- */

/* The directory of a store: <state_root>/<op>/<part>, or .../<part>/<name>
 * when `name` is not NULL (stream-stream joins keep 4 named stores per
 * partition). malloc'd. */
char *store_dir_path(const char *state_root, int op, int part, const char *name);

/* Opens (creating the directory) the store of (op, part, name) under
 * `state_root` (ckpt_state_dir()). 22023 for an unknown provider. Nothing
 * is loaded yet. */
store_t *store_open(const char *state_root, int op, int part, const char *name,
                    const store_options_t *opt, sl_error_t *err);
/* The same on an explicit directory. */
store_t *store_open_dir(const char *dir, const store_options_t *opt, sl_error_t *err);
/* Closes the store, dropping uncommitted changes. NULL is ignored. */
void store_close(store_t *s);

const char *store_dir(const store_t *s);
/* "memory" or "rocksdb". */
const char *store_provider_name(const store_t *s);
/* The loaded version (after a commit: the committed one); -1 before load. */
int64_t store_version(const store_t *s);

/* ---- the per-batch protocol ---- */

/* Makes the state as of `version` current (0 = empty), dropping uncommitted
 * changes, and resets the per-batch metrics. Loading the version that is
 * already current reads nothing. 58030 when the version's files are missing
 * or corrupt. */
int store_load(store_t *s, int64_t version, sl_error_t *err);

/* Looks `key` up. Returns 1 and points *val, *vlen at the value (valid until
 * the next call on this store), 0 when absent, -1. */
int store_get(store_t *s, const void *key, size_t klen, const void **val, size_t *vlen,
              sl_error_t *err);
/* Inserts or replaces. Empty keys and values are allowed. */
int store_put(store_t *s, const void *key, size_t klen, const void *val, size_t vlen,
              sl_error_t *err);
/* Removes `key`. Returns 1 when it existed, 0 when not, -1. */
int store_delete(store_t *s, const void *key, size_t klen, sl_error_t *err);
/* Removes every key in [lo, hi) (NULL bound = unbounded); returns the count
 * or -1. Cheaper than iterating and deleting one by one. */
int64_t store_delete_range(store_t *s, const void *lo, size_t lolen, const void *hi, size_t hilen,
                           sl_error_t *err);

/* Makes the current state durable as version store_version()+1 and current.
 * Failpoints state.before_commit / state.after_commit. After a failure the
 * store is not loaded: call store_load() (or store_close()). */
int store_commit(store_t *s, sl_error_t *err);
/* Drops uncommitted changes; the next store_load() decides what is current
 * (the memory provider rebuilds from its files). */
void store_abort(store_t *s);

/* Fills `m` (see store_metrics_t). */
void store_metrics(store_t *s, store_metrics_t *m);
/* The custom metric called `name`, or -1 when absent. */
int64_t store_metric_get(const store_metrics_t *m, const char *name);

/* Off-the-hot-path work after a commit: memory writes a snapshot when
 * enough deltas piled up; both delete files of versions older than the
 * retention (keeping whatever the retained versions need). */
int store_maintenance(store_t *s, sl_error_t *err);

/* ---- ordered scans ---- */

/* Iterates keys in [lo, hi) in bytewise order (NULL bound = unbounded).
 * The store may be changed while iterating: the iterator resumes after the
 * last key it returned, seeing the store as it is at each step. Iterators
 * must be closed before store_load/commit/abort/close. */
store_iter_t *store_iter_range(store_t *s, const void *lo, size_t lolen, const void *hi,
                               size_t hilen, sl_error_t *err);
/* Iterates the keys that start with `prefix`. */
store_iter_t *store_iter_prefix(store_t *s, const void *prefix, size_t plen, sl_error_t *err);
/* Returns 1 with the next entry (key valid until the next call on the
 * iterator; value until then or the next change to the store), 0 at the
 * end, -1. Deleting the returned key through store_delete() is fine. */
int store_iter_next(store_iter_t *it, const void **key, size_t *klen, const void **val,
                    size_t *vlen, sl_error_t *err);
void store_iter_close(store_iter_t *it);

/* ---- schema records (<state_root>/<op>/_metadata/) ---- */

/* Records the key and value schema (opaque text, e.g. the planner's
 * rendering of column names and types) of operator `op`'s store `name`
 * (NULL = the default store) at the first run; on later runs compares them
 * exactly. Returns 1 when it wrote the record, 0 when it matched, -1 with a
 * 55000 error saying whether the key or the value schema changed, with the
 * old and new text. Safe to call from the tasks of every partition at once:
 * one writes, the others compare with what it wrote. */
int store_schema_check(const char *state_root, int op, const char *name, const char *key_schema,
                       const char *value_schema, sl_error_t *err);
/* Compares with the record without writing one (a start, before any
 * batch): 0 when there is none or it matches, -1 with store_schema_check's
 * 55000 error when it differs (or a read error). */
int store_schema_compare(const char *state_root, int op, const char *name, const char *key_schema,
                         const char *value_schema, sl_error_t *err);
/* Writes the record, refusing to replace an existing one (55000). */
int store_schema_write(const char *state_root, int op, const char *name, const char *key_schema,
                       const char *value_schema, sl_error_t *err);
/* Reads the record into `a`. Returns 1, 0 when there is none, -1. */
int store_schema_read(const char *state_root, int op, const char *name, sl_arena_t *a,
                      char **key_schema, char **value_schema, sl_error_t *err);

#endif
