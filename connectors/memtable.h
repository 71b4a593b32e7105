/* Memory tables: the result tables of memory sinks, readable by ad-hoc
 * SELECT (Spark's MemorySink, named after the query).
 *
 * The daemon owns one registry (memtable_registry_t) and passes it to
 * sinks in sink_env_t.memtables and to the SELECT path. A table has its
 * columns, a read-write lock, its rows kept as compacted batches in its own
 * arena (no per-row malloc), and the id of the last batch it took:
 *   APPEND    each batch's rows are appended
 *   COMPLETE  the table's contents are replaced by the batch's rows
 *   UPDATE    rows are upserted by the key columns (a hash index maps each
 *             encoded key, model/row.h exec_key_encode, to its row); a row
 *             whose change is -1 (a retraction) deletes its key; key columns
 *             may be hidden ones (sink_schema_t nhidden), kept but never
 *             shown; an unkeyed schema (no aggregation) appends
 * add_batch is idempotent: a batch id <= the last one taken is skipped, so
 * a batch the runner replays after a failure is not added twice.
 * Replaced and deleted rows are dropped when the table next compacts
 * (when they outnumber the live ones).
 *
 * Lifetime: a table lives until memtable_drop (DROP QUERY) or the
 * registry is freed; a query that stops keeps its table readable, and a
 * restart of the query in the same daemon continues it. The rows do not
 * survive a daemon restart (as in Spark): after one, the table holds what
 * the query produces from its next batch on (a complete-mode query's next
 * batch brings the whole result back).
 *
 * Threads: every function is thread-safe. Readers copy rows out under the
 * read lock; the writer (the query's driver thread) holds the write lock
 * while it adds a batch. */
#ifndef SL_MEMTABLE_H
#define SL_MEMTABLE_H

#include <stdint.h>

#include "common/arena.h"
#include "connectors/sink.h"
#include "model/batch.h"

typedef struct memtable_registry memtable_registry_t;
typedef struct memtable memtable_t;

memtable_registry_t *memtable_registry_new(void);
/* Frees every table (no reference may be held any more). */
void memtable_registry_free(memtable_registry_t *r);

/* The table `name` for a sink writing `schema`: the existing table when
 * its columns (names and types) and keys are the same — keeping its rows
 * and last batch id — else a new empty table (replacing one of other
 * columns). The caller holds a reference until memtable_release. */
memtable_t *memtable_open(memtable_registry_t *r, const char *name, const sink_schema_t *schema);
void memtable_release(memtable_t *t);

/* Adds batch `batch_id` (n output batches) by `mode`. Returns 1 when added,
 * 0 when skipped because batch_id <= the last batch taken. *rows (may be
 * NULL) receives the rows taken (0 when skipped). */
int memtable_add_batch(memtable_t *t, int64_t batch_id, output_mode_t mode,
                       exec_batch_t *const *batches, int n, int64_t *rows);
/* The last batch id taken, -1 before the first. */
int64_t memtable_last_batch(memtable_t *t);
/* Live rows. */
int64_t memtable_count(memtable_t *t);

/* Copies table `name` into `a`: its columns (names, types) and its live
 * rows as batches (at most EXEC_BATCH_ROWS rows each, no selection).
 * Returns 1, or 0 when there is no such table (outputs untouched). */
int memtable_snapshot(memtable_registry_t *r, const char *name, sl_arena_t *a, int *ncols,
                      const char ***names, exec_type_t **types, exec_batch_t ***batches,
                      int *nbatches);
/* Table `name`'s columns only (no rows), into `a`: 1, or 0 when there is
 * no such table. */
int memtable_columns(memtable_registry_t *r, const char *name, sl_arena_t *a, int *ncols,
                     const char ***names, exec_type_t **types);
/* Removes table `name` (DROP QUERY); its memory goes when the last
 * reference is released. Returns 1 when it existed. */
int memtable_drop(memtable_registry_t *r, const char *name);

#endif
