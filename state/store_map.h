/* The memory provider's ordered map of byte-string keys: a skip list (for
 * ordered scans, seeks and range deletes in O(log n + k)) with a hash index
 * beside it (for point gets and updates in O(1), the aggregation hot path).
 * New keys are linked into the skip list lazily, by the first ordered
 * operation after their insert, so inserts are O(1) as well.
 *
 * Each entry is one allocation holding its skip-list links, the key and the
 * value inline; a value that outgrows its inline room moves to a separate
 * buffer that then grows geometrically, so updating a key in place never
 * allocates once its value size is stable. The map is used by one thread at
 * a time. */
#ifndef SL_STORE_MAP_H
#define SL_STORE_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct smap smap_t;
typedef struct smap_node smap_node_t;

/* Creates an empty map; `seed` drives the skip list's level choice. */
smap_t *smap_new(uint64_t seed);
void smap_free(smap_t *m);
/* Removes every entry. */
void smap_clear(smap_t *m);

size_t smap_count(const smap_t *m);
/* Bytes allocated by the map (entries, value buffers, hash index). */
size_t smap_memory(const smap_t *m);
/* Sum of key and value lengths of live entries. */
size_t smap_data_bytes(const smap_t *m);
/* Bumped by every insert, delete and value change (iterators use it to
 * know when to re-seek). */
uint64_t smap_modcount(const smap_t *m);

/* The entry of `key`, or NULL. */
smap_node_t *smap_find(smap_t *m, const void *key, size_t klen);
/* Replaces the value of an existing entry. */
void smap_set(smap_t *m, smap_node_t *n, const void *val, size_t vlen);
/* Inserts `key`, which must be absent. */
smap_node_t *smap_insert(smap_t *m, const void *key, size_t klen, const void *val, size_t vlen);
/* Inserts `key` when it sorts after every key in a map built only by
 * appends since the last clear (loading a sorted file) in O(1); any other
 * call falls back to smap_put. */
void smap_append(smap_t *m, const void *key, size_t klen, const void *val, size_t vlen);
/* Inserts or replaces. */
void smap_put(smap_t *m, const void *key, size_t klen, const void *val, size_t vlen);
/* Removes `key`; 1 when it existed. */
int smap_delete(smap_t *m, const void *key, size_t klen);
/* Removes every key in [lo, hi) (NULL = unbounded), calling cb(arg, key,
 * klen) for each before it is freed; returns how many. */
int64_t smap_delete_range(smap_t *m, const void *lo, size_t lolen, const void *hi, size_t hilen,
                          void (*cb)(void *arg, const void *key, size_t klen), void *arg);

/* The first entry whose key is >= `key` (the first entry when key is NULL),
 * or NULL. With `after`, the first entry strictly greater. */
smap_node_t *smap_seek(smap_t *m, const void *key, size_t klen, int after);
/* The entry after `n` in key order, or NULL. */
smap_node_t *smap_next(const smap_node_t *n);
const void *smap_key(const smap_node_t *n, size_t *klen);
const void *smap_value(const smap_node_t *n, size_t *vlen);

/* Bytewise comparison of two keys (memcmp, then the shorter first). */
int smap_keycmp(const void *a, size_t alen, const void *b, size_t blen);

#endif
