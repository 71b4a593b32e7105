/* exec hash table: open addressing over caller-supplied row hashes, with an
 * inline-key layout for a single integer key and a tag + key-vector layout
 * for everything else (see hashtable.h). */
#include "exec/hashtable.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/sl_assert.h"

/* One slot. Inline layout: word = the key (as int64), hi = hash >> 32.
 * Generic layout: word = the full hash. id1 = id + 1; 0 = empty slot. */
typedef struct ht_slot {
    uint64_t word;
    uint32_t id1;
    uint32_t hi;
} ht_slot_t;

struct exec_ht {
    int nkeys;
    exec_type_t *types;
    exec_builder_t keys; /* generic layout: key columns, row = id */
    exec_vec_t ikeys;    /* inline layout: the key column (heap data and null map) */
    uint32_t icap;       /* inline layout: rows ikeys has room for */
    uint32_t n;          /* keys in the table (rows of `keys`) */
    uint32_t cap;        /* slots, a power of two, >= 16 */
    int shift;           /* 64 - log2(cap): slot = hash >> shift */
    bool inline_key;     /* single INT/DATE (4 bytes) or BIGINT/TIMESTAMP (8 bytes) key */
    bool narrow;         /* inline key of 4 bytes */
    uint32_t null_id;    /* inline: id of the NULL key, or EXEC_HT_NONE */
    ht_slot_t *slots;    /* heap; freed when the arena resets */
};

/* ---- slots ---- */

static void ht_free_slots(void *arg)
{
    exec_ht_t *ht = arg;
    free(ht->slots);
    free(ht->ikeys.data);
    free(ht->ikeys.nulls);
    ht->slots = NULL;
    ht->ikeys.data = NULL;
    ht->ikeys.nulls = NULL;
}

/* Asks for transparent huge pages on the 2 MiB-aligned part of a large
 * block: a table of millions of keys then costs a page fault per 2 MiB
 * instead of per 4 KiB. Advice only; failure is harmless. */
static void advise_huge(void *p, size_t n)
{
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1), hi = ((uintptr_t)p + n) & ~(huge - 1);
    if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}

static int log2_of(uint32_t cap)
{
    int b = 0;
    while ((1u << b) < cap) b++;
    return b;
}

static void ht_alloc_slots(exec_ht_t *ht, uint32_t cap)
{
    SL_ASSERT(cap >= 2 && (cap & (cap - 1)) == 0); /* slots are found by shifting the hash */
    ht->cap = cap;
    ht->shift = 64 - log2_of(cap);
    ht->slots = sl_xcalloc(cap, sizeof(ht_slot_t));
    advise_huge(ht->slots, (size_t)cap * sizeof(ht_slot_t));
}

/* The full-width hash a slot was placed with (its top 32 bits suffice:
 * cap <= 2^32 so shift >= 32). */
static uint64_t slot_hash(const exec_ht_t *ht, const ht_slot_t *s)
{
    return ht->inline_key ? (uint64_t)s->hi << 32 : s->word;
}

/* Doubles the slot array and re-places every slot. */
static void ht_grow(exec_ht_t *ht)
{
    ht_slot_t *old = ht->slots;
    uint32_t oldcap = ht->cap;
    ht_alloc_slots(ht, oldcap * 2);
    uint32_t mask = ht->cap - 1;
    for (uint32_t i = 0; i < oldcap; i++) {
        if (!old[i].id1) continue;
        uint32_t s = (uint32_t)(slot_hash(ht, &old[i]) >> ht->shift);
        while (ht->slots[s].id1) s = (s + 1) & mask;
        ht->slots[s] = old[i];
    }
    free(old);
}

static void ht_maybe_grow(exec_ht_t *ht)
{
    if (ht->n * 2 > ht->cap) ht_grow(ht);
}

exec_ht_t *exec_ht_new(sl_arena_t *a, int nkeys, const exec_type_t *types, uint32_t expected)
{
    exec_ht_t *ht = SL_NEW(a, exec_ht_t);
    ht->nkeys = nkeys;
    ht->types = SL_NEW_ARRAY(a, exec_type_t, nkeys > 0 ? nkeys : 1);
    for (int c = 0; c < nkeys; c++) ht->types[c] = types[c];
    exec_builder_init(&ht->keys, a, nkeys, ht->types, expected > 64 ? expected : 64);
    ht->null_id = EXEC_HT_NONE;
    if (nkeys == 1) {
        exec_type_id_t id = types[0].id;
        ht->narrow = id == EXEC_TYPE_INT || id == EXEC_TYPE_DATE;
        ht->inline_key = ht->narrow || id == EXEC_TYPE_BIGINT || id == EXEC_TYPE_TIMESTAMP;
        ht->ikeys.type = types[0];
    }
    uint32_t cap = 16;
    while (cap < 2u * expected && cap < (1u << 30)) cap *= 2;
    ht_alloc_slots(ht, cap);
    sl_arena_on_reset(a, ht_free_slots, ht);
    return ht;
}

/* ---- cell equality (generic layout) ---- */

static bool cell_null(const exec_vec_t *v, uint32_t row)
{
    return v->type.id == EXEC_TYPE_NULL || exec_vec_is_null(v, row);
}

static bool cell_eq(const exec_vec_t *x, uint32_t i, const exec_vec_t *y, uint32_t j)
{
    bool xn = cell_null(x, i), yn = cell_null(y, j);
    if (xn || yn) return xn == yn;
    if (x->type.id == EXEC_TYPE_STRUCT) {
        for (int f = 0; f < x->type.nfields; f++)
            if (!cell_eq(&x->children[f], i, &y->children[f], j)) return false;
        return true;
    }
    size_t w = exec_type_width(x->type);
    return exec_cell_equal(x->type, (const char *)x->data + (size_t)i * w,
                           (const char *)y->data + (size_t)j * w);
}

static bool keys_equal(const exec_ht_t *ht, uint32_t id, const exec_batch_t *b, const int *cols,
                       uint32_t row)
{
    for (int c = 0; c < ht->nkeys; c++)
        if (!cell_eq(&ht->keys.batch->cols[c], id, &b->cols[cols[c]], row)) return false;
    return true;
}

/* Appends the key of `row` as a new id. */
static uint32_t add_key(exec_ht_t *ht, const exec_batch_t *b, const int *cols, uint32_t row)
{
    uint32_t id = exec_builder_add_row(&ht->keys);
    for (int c = 0; c < ht->nkeys; c++)
        exec_builder_copy_cell(&ht->keys, c, id, &b->cols[cols[c]], row);
    ht->n++;
    return id;
}

/* ---- generic layout ---- */

/* Finds the key of `row`; inserts it when `insert`. EXEC_HT_NONE when absent. */
static uint32_t generic_find(exec_ht_t *ht, const exec_batch_t *b, const int *cols, uint64_t h,
                             uint32_t row, bool insert)
{
    uint32_t mask = ht->cap - 1, s = (uint32_t)(h >> ht->shift);
    for (;;) {
        ht_slot_t *sl = &ht->slots[s];
        if (!sl->id1) {
            if (!insert) return EXEC_HT_NONE;
            uint32_t id = add_key(ht, b, cols, row);
            sl->word = h;
            sl->id1 = id + 1;
            ht_maybe_grow(ht);
            return id;
        }
        if (sl->word == h && keys_equal(ht, sl->id1 - 1, b, cols, row)) return sl->id1 - 1;
        s = (s + 1) & mask;
    }
}

/* ---- inline layout ---- */

static inline int64_t inline_value(const exec_vec_t *v, uint32_t row, bool narrow)
{
    return narrow ? (int64_t)EXEC_VEC_AT(v, int32_t, row) : EXEC_VEC_AT(v, int64_t, row);
}

/* Appends a row to the inline key column (heap memory, grown by doubling). */
static uint32_t inline_add_row(exec_ht_t *ht)
{
    if (ht->n == ht->icap) {
        uint32_t cap = ht->icap ? ht->icap * 2 : 1024;
        size_t w = exec_type_width(ht->ikeys.type);
        ht->ikeys.data = sl_xrealloc(ht->ikeys.data, w * cap);
        advise_huge(ht->ikeys.data, w * cap);
        if (ht->ikeys.nulls) {
            ht->ikeys.nulls = sl_xrealloc(ht->ikeys.nulls, cap);
            memset(ht->ikeys.nulls + ht->icap, 0, cap - ht->icap);
        }
        ht->icap = cap;
    }
    return ht->n++;
}

static uint32_t inline_insert(exec_ht_t *ht, ht_slot_t *sl, int64_t x, uint64_t h)
{
    uint32_t id = inline_add_row(ht);
    if (ht->narrow) EXEC_VEC_AT(&ht->ikeys, int32_t, id) = (int32_t)x;
    else EXEC_VEC_AT(&ht->ikeys, int64_t, id) = x;
    sl->word = (uint64_t)x;
    sl->hi = (uint32_t)(h >> 32);
    sl->id1 = id + 1;
    ht_maybe_grow(ht);
    return id;
}

static uint32_t inline_null(exec_ht_t *ht, bool insert)
{
    if (ht->null_id != EXEC_HT_NONE || !insert) return ht->null_id;
    uint32_t id = inline_add_row(ht);
    if (!ht->ikeys.nulls) ht->ikeys.nulls = sl_xcalloc(ht->icap, 1);
    ht->ikeys.nulls[id] = 1;
    ht->null_id = id;
    return id;
}

static inline uint32_t inline_find(exec_ht_t *ht, int64_t x, uint64_t h, bool insert)
{
    uint32_t mask = ht->cap - 1, s = (uint32_t)(h >> ht->shift);
    for (;;) {
        ht_slot_t *sl = &ht->slots[s];
        if (!sl->id1) return insert ? inline_insert(ht, sl, x, h) : EXEC_HT_NONE;
        if (sl->word == (uint64_t)x) return sl->id1 - 1;
        s = (s + 1) & mask;
    }
}

/* Prefetches the home slots of the batch's rows when the table is larger
 * than the caches, so the probes of a batch overlap their misses. */
static void prefetch_slots(const exec_ht_t *ht, const exec_batch_t *b, const uint64_t *hashes)
{
    if (ht->cap < (1u << 15)) return;
    uint32_t n = exec_batch_count(b);
    for (uint32_t k = 0; k < n; k++)
        __builtin_prefetch(&ht->slots[hashes[exec_batch_row(b, k)] >> ht->shift]);
}

static void inline_run(exec_ht_t *ht, const exec_batch_t *b, int col, const uint64_t *hashes,
                       uint32_t *ids, bool insert)
{
    const exec_vec_t *v = &b->cols[col];
    uint32_t n = exec_batch_count(b);
    bool narrow = ht->narrow;
    prefetch_slots(ht, b, hashes);
    if (!v->nulls && !b->sel) {
        for (uint32_t row = 0; row < n; row++)
            ids[row] = inline_find(ht, inline_value(v, row, narrow), hashes[row], insert);
        return;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = exec_batch_row(b, k);
        ids[row] = exec_vec_is_null(v, row)
                       ? inline_null(ht, insert)
                       : inline_find(ht, inline_value(v, row, narrow), hashes[row], insert);
    }
}

/* ---- public ---- */

uint32_t exec_ht_upsert(exec_ht_t *ht, const exec_batch_t *b, const int *cols,
                        const uint64_t *hashes, uint32_t *ids)
{
    if (ht->inline_key) {
        inline_run(ht, b, cols[0], hashes, ids, true);
        return ht->n;
    }
    uint32_t n = exec_batch_count(b);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = exec_batch_row(b, k);
        ids[row] = generic_find(ht, b, cols, hashes[row], row, true);
    }
    return ht->n;
}

void exec_ht_probe(const exec_ht_t *ht, const exec_batch_t *b, const int *cols,
                   const uint64_t *hashes, uint32_t *ids)
{
    /* Probing never inserts, so the casts below never lead to a write. */
    exec_ht_t *t = (exec_ht_t *)ht;
    if (ht->inline_key) {
        inline_run(t, b, cols[0], hashes, ids, false);
        return;
    }
    uint32_t n = exec_batch_count(b);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = exec_batch_row(b, k);
        ids[row] = generic_find(t, b, cols, hashes[row], row, false);
    }
}

uint32_t exec_ht_size(const exec_ht_t *ht)
{
    return ht->n;
}

const exec_vec_t *exec_ht_key(const exec_ht_t *ht, int c)
{
    return ht->inline_key ? &ht->ikeys : &ht->keys.batch->cols[c];
}

exec_batch_t *exec_ht_keys(const exec_ht_t *ht, sl_arena_t *a)
{
    exec_batch_t *b = exec_batch_shallow_copy(ht->keys.batch, a);
    if (ht->inline_key) b->cols[0] = ht->ikeys;
    b->nrows = ht->n;
    b->sel = NULL;
    b->change = NULL;
    return b;
}

size_t exec_ht_memory(const exec_ht_t *ht)
{
    size_t per_key = 0;
    for (int c = 0; c < ht->nkeys; c++) per_key += exec_type_width(ht->types[c]) + 1;
    return (size_t)ht->cap * sizeof(ht_slot_t) +
           (size_t)(ht->inline_key ? ht->icap : ht->keys.cap) * per_key;
}
