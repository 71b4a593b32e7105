/* The in-memory columnar copy of static tables: SQLite (server/table_store.h)
 * stays the durable store; a read of a table's committed rows is served from
 * batches kept here when the table has not changed since they were read, so
 * that a GROUP BY or a stream-static join over a catalog table runs at the
 * speed of the columnar kernels instead of decoding SQLite rows every time.
 *
 * Validity: an entry is stamped with the store's write generation
 * (tstore_releases: bumped after every write transaction ends and every
 * change outside one) read BEFORE its rows were read, and is served only
 * while the generation is unchanged. A reader that built a copy installs it
 * only if the generation still equals its stamp, so a copy that may have
 * missed a commit made while it was being read is never kept. Reads of a
 * session inside its own transaction never use the cache (they must see
 * their own changes).
 *
 * Threads (the rule): the cache is shared by every thread; its map, the
 * entries' reference counts and the byte count are guarded by one mutex.
 * An entry's batches are immutable once installed: readers take a
 * reference, hand out shallow copies (model/batch.h: vectors are never
 * written once built), and release it. An entry's arena was filled by the
 * thread that read the table and is freed by whichever thread drops the
 * last reference after the entry left the map.
 *
 * Memory: at most `budget` bytes of arenas; installing past it evicts
 * unreferenced entries, least recently used first, and a table larger than
 * the budget is not cached. budget 0 turns the cache off. */
#ifndef SL_TABLE_CACHE_H
#define SL_TABLE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "model/batch.h"

typedef struct tcache tcache_t;
typedef struct tcache_entry tcache_entry_t;

tcache_t *tcache_new(size_t budget);
void tcache_free(tcache_t *c);

/* The copy of table `name` valid at generation `gen`, referenced (release it
 * with tcache_release), or NULL. Any thread. */
tcache_entry_t *tcache_get(tcache_t *c, const char *name, uint64_t gen);
/* The entry's batches (in the table's row order). */
int tcache_batches(const tcache_entry_t *e, exec_batch_t *const **batches);
void tcache_release(tcache_t *c, tcache_entry_t *e);

/* Building a copy: a new entry, referenced by its builder, with an arena of
 * its own (owned by the calling thread) for the batches; add them in order,
 * then offer it to the cache (kept when `gen` is still `current_gen` and it
 * fits) and, once done reading it, tcache_release it like any reader. */
tcache_entry_t *tcache_build(const char *name, uint64_t gen);
sl_arena_t *tcache_arena(tcache_entry_t *e);
void tcache_add(tcache_entry_t *e, exec_batch_t *b);
void tcache_install(tcache_t *c, tcache_entry_t *e, uint64_t current_gen);

/* Entries and bytes held (for metrics and tests). */
void tcache_stats(tcache_t *c, int *entries, size_t *bytes);

#endif
