/* exec hash table: maps keys (one or more typed columns of a batch) to
 * dense ids 0, 1, 2 ... in the order keys are first seen, a batch at a
 * time. The aggregation uses the id as the row of its buffer arrays (the
 * "group id"); a hash join uses it to index its build rows.
 *
 * HASHES. The caller hashes the key columns with exec_hash_rows (model/row.h)
 * and passes the per-row hashes in, so a join probes with the very values
 * its build side inserted and an exchange's hash can be reused. Slots are
 * taken from the HIGH bits of the hash: the exchange in front of a stateful
 * operator routes rows by hash % partitions, which constrains the low bits
 * of every hash one task sees.
 *
 * KEY EQUALITY is SQL grouping equality (IS NOT DISTINCT FROM): NULL equals
 * NULL, -0 equals 0, NaN equals NaN, strings bytewise. Joins, where NULL
 * never matches, must drop rows with a NULL key before probing.
 *
 * LAYOUT. Open addressing with linear probing, load factor at most 1/2.
 * A single INT/BIGINT/DATE/TIMESTAMP key keeps its value inside the slot
 * (one cache line touched per probe; the NULL key has its own id outside
 * the table); other keys keep a 32-bit hash tag and the id in the slot and
 * the key values in column vectors indexed by id (strings copied into the
 * table's arena). The vectors are readable at any time through
 * exec_ht_key() / exec_ht_keys() — the aggregation emits its group keys
 * from them without copying.
 *
 * DUPLICATE KEYS (join build sides): the table holds distinct keys; keep
 * duplicates as a chain beside it — head[id] = first build row, next[row]
 * = the following one — filled from the ids exec_ht_upsert returns.
 *
 * MEMORY. Key vectors and strings come from the arena given to
 * exec_ht_new (the task arena); the slot array and the inline layout's key
 * column are heap memory (with huge-page advice when large) released when
 * that arena is reset or freed. Nothing is allocated per row. A table is
 * used by one thread at a time. */
#ifndef EXEC_HASHTABLE_H
#define EXEC_HASHTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "model/batch.h"

/* "No such key" in exec_ht_probe's output. */
#define EXEC_HT_NONE UINT32_MAX

typedef struct exec_ht exec_ht_t;

/* A table for keys of `nkeys` columns of the given types (copied), sized
 * for about `expected` keys (0 = small; it grows as needed). */
exec_ht_t *exec_ht_new(sl_arena_t *a, int nkeys, const exec_type_t *types, uint32_t expected);

/* For every present row of b: finds the id of the key in columns
 * cols[0..nkeys) (types as given to exec_ht_new), inserting the key when
 * it is new. ids[row] receives it (ids and hashes are indexed by physical
 * row and have b->nrows entries; rows not present are left alone).
 * Returns the number of keys in the table afterwards; new keys got the ids
 * from the previous count up, in row order. */
uint32_t exec_ht_upsert(exec_ht_t *ht, const exec_batch_t *b, const int *cols,
                        const uint64_t *hashes, uint32_t *ids);

/* Like exec_ht_upsert without inserting: ids[row] = the key's id or
 * EXEC_HT_NONE. Does not change the table (safe from several threads at
 * once when nobody inserts). */
void exec_ht_probe(const exec_ht_t *ht, const exec_batch_t *b, const int *cols,
                   const uint64_t *hashes, uint32_t *ids);

/* Keys in the table. */
uint32_t exec_ht_size(const exec_ht_t *ht);
/* Key column c of every key, indexed by id (exec_ht_size() rows). The
 * vector moves when the table grows: re-read it after exec_ht_upsert. */
const exec_vec_t *exec_ht_key(const exec_ht_t *ht, int c);
/* Every key column as a batch of exec_ht_size() rows, allocated in `a`
 * and sharing the table's vectors (valid until the next upsert). */
exec_batch_t *exec_ht_keys(const exec_ht_t *ht, sl_arena_t *a);
/* Bytes held by the table (slots and key vectors), for memory metrics. */
size_t exec_ht_memory(const exec_ht_t *ht);

#endif
