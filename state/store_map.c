/* Skip list + hash index for the memory state store (see store_map.h).
 *
 * Skip list: levels chosen with p = 1/4 (expected 1.33 links per entry),
 * at most SMAP_MAX_LEVEL. Hash index: open addressing with linear probing,
 * slots hold the 64-bit hash and the entry, load factor kept under 0.7,
 * deletion by backward shifting (no tombstones).
 *
 * Lazy ordering: an insert puts the entry in the hash index and on the
 * pending list only; the first ordered operation after it (seek, range
 * delete) sorts the pending entries and links them into the skip list in
 * one pass (order_pending). Point gets, updates and inserts are so O(1)
 * however large the map, and a batch that inserts k keys before its scan
 * pays one O(k log k) sort plus one merge walk instead of k O(log n)
 * searches. */
#include "state/store_map.h"

#include <stdlib.h>
#include <string.h>

#include "common/arena.h"

#define SMAP_MAX_LEVEL 24
#define SMAP_MIN_SLOTS 64

struct smap_node {
    uint32_t klen;
    uint32_t vlen;
    uint32_t vcap;       /* room for the value where it is now: inline or vext */
    uint32_t icap;       /* inline room allocated after the key */
    uint32_t level;      /* number of links in next[] */
    uint32_t pending;    /* 1 + index in the pending list; 0 = linked in the skip list */
    char *vext;          /* value buffer once the value outgrew the inline room */
    smap_node_t *next[]; /* then: key bytes, inline value room */
};

typedef struct smap_slot {
    uint64_t hash;
    smap_node_t *node; /* NULL = empty */
} smap_slot_t;

struct smap {
    smap_node_t *head; /* sentinel with SMAP_MAX_LEVEL links */
    int level;         /* highest level in use */
    uint64_t rng;
    smap_slot_t *slots;
    size_t mask; /* slots - 1 */
    size_t count;
    size_t mem;  /* bytes allocated */
    size_t data; /* key + value bytes */
    uint64_t mods;
    /* Last node per level, kept while the map is only appended to (bulk
     * loads of sorted files); tail_valid drops on any other change. */
    smap_node_t *tail[SMAP_MAX_LEVEL];
    int tail_valid;
    smap_node_t **pending; /* inserted, not linked yet (in no order) */
    size_t npending, pending_cap;
};

/* ---- keys and hashing ---- */

int smap_keycmp(const void *a, size_t alen, const void *b, size_t blen)
{
    size_t n = alen < blen ? alen : blen;
    int c = n ? memcmp(a, b, n) : 0;
    if (c) return c;
    return (alen > blen) - (alen < blen);
}

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

static uint64_t key_hash(const void *key, size_t len)
{
    const unsigned char *p = key;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (len * 0x100000001b3ULL);
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ mix64(w)) * 0x9e3779b97f4a7c15ULL;
        p += 8;
        len -= 8;
    }
    uint64_t w = 0;
    if (len) memcpy(&w, p, len);
    return mix64(h ^ w ^ ((uint64_t)len << 56));
}

static char *node_key(const smap_node_t *n)
{
    return (char *)&n->next[n->level];
}

static char *node_val(const smap_node_t *n)
{
    return n->vext ? n->vext : node_key(n) + n->klen;
}

const void *smap_key(const smap_node_t *n, size_t *klen)
{
    *klen = n->klen;
    return node_key(n);
}

const void *smap_value(const smap_node_t *n, size_t *vlen)
{
    *vlen = n->vlen;
    return node_val(n);
}

static size_t node_size(uint32_t level, size_t klen, size_t vcap)
{
    return sizeof(smap_node_t) + sizeof(smap_node_t *) * level + klen + vcap;
}

/* ---- construction ---- */

static void slots_alloc(smap_t *m, size_t n)
{
    m->slots = sl_xcalloc(n, sizeof *m->slots);
    m->mask = n - 1;
    m->mem += n * sizeof *m->slots;
}

/* An empty map: every level ends at the head. */
static void reset_tails(smap_t *m)
{
    for (int l = 0; l < SMAP_MAX_LEVEL; l++) m->tail[l] = m->head;
    m->tail_valid = 1;
}

smap_t *smap_new(uint64_t seed)
{
    smap_t *m = sl_xcalloc(1, sizeof *m);
    m->head = sl_xcalloc(1, node_size(SMAP_MAX_LEVEL, 0, 0));
    m->head->level = SMAP_MAX_LEVEL;
    m->level = 1;
    m->rng = seed ? seed : 0x2545f4914f6cdd1dULL;
    slots_alloc(m, SMAP_MIN_SLOTS);
    reset_tails(m);
    return m;
}

static void free_entries(smap_t *m)
{
    for (size_t i = 0; i < m->npending; i++) {
        free(m->pending[i]->vext);
        free(m->pending[i]);
    }
    m->npending = 0;
    smap_node_t *n = m->head->next[0];
    while (n) {
        smap_node_t *next = n->next[0];
        free(n->vext);
        free(n);
        n = next;
    }
    memset(m->head->next, 0, sizeof(smap_node_t *) * SMAP_MAX_LEVEL);
}

void smap_clear(smap_t *m)
{
    free_entries(m);
    m->mem = m->pending_cap * sizeof *m->pending;
    free(m->slots);
    slots_alloc(m, SMAP_MIN_SLOTS);
    m->level = 1;
    m->count = m->data = 0;
    m->mods++;
    reset_tails(m);
}

void smap_free(smap_t *m)
{
    if (!m) return;
    free_entries(m);
    free(m->head);
    free(m->slots);
    free(m->pending);
    free(m);
}

size_t smap_count(const smap_t *m)
{
    return m->count;
}

size_t smap_memory(const smap_t *m)
{
    return m->mem;
}

size_t smap_data_bytes(const smap_t *m)
{
    return m->data;
}

uint64_t smap_modcount(const smap_t *m)
{
    return m->mods;
}

/* ---- hash index ---- */

static smap_slot_t *slot_find(const smap_t *m, uint64_t h, const void *key, size_t klen)
{
    for (size_t i = h & m->mask;; i = (i + 1) & m->mask) {
        smap_slot_t *s = &m->slots[i];
        if (!s->node) return NULL;
        if (s->hash == h && s->node->klen == klen &&
            (klen == 0 || !memcmp(node_key(s->node), key, klen)))
            return s;
    }
}

static void slot_put(smap_slot_t *slots, size_t mask, uint64_t h, smap_node_t *n)
{
    size_t i = h & mask;
    while (slots[i].node) i = (i + 1) & mask;
    slots[i].hash = h;
    slots[i].node = n;
}

static void slots_grow(smap_t *m)
{
    size_t old_n = m->mask + 1;
    smap_slot_t *old = m->slots;
    m->mem -= old_n * sizeof *old;
    slots_alloc(m, old_n * 2);
    for (size_t i = 0; i < old_n; i++)
        if (old[i].node) slot_put(m->slots, m->mask, old[i].hash, old[i].node);
    free(old);
}

/* Empties slot `s`, shifting back later entries of its probe run. */
static void slot_remove(smap_t *m, smap_slot_t *s)
{
    size_t i = (size_t)(s - m->slots);
    for (size_t j = (i + 1) & m->mask; m->slots[j].node; j = (j + 1) & m->mask) {
        size_t home = m->slots[j].hash & m->mask;
        int movable = i <= j ? (home <= i || home > j) : (home <= i && home > j);
        if (!movable) continue;
        m->slots[i] = m->slots[j];
        i = j;
    }
    m->slots[i].node = NULL;
}

/* ---- skip list ---- */

static void order_pending(smap_t *m);

static uint32_t random_level(smap_t *m)
{
    m->rng ^= m->rng << 13;
    m->rng ^= m->rng >> 7;
    m->rng ^= m->rng << 17;
    uint64_t r = m->rng | (1ULL << (2 * (SMAP_MAX_LEVEL - 1)));
    return 1 + (uint32_t)__builtin_ctzll(r) / 2;
}

/* Fills prev[] with, per level, the last node whose key is < key (or <= key
 * with `after`). Returns the level-0 successor. */
static smap_node_t *find_prev(smap_t *m, const void *key, size_t klen, int after,
                              smap_node_t **prev)
{
    smap_node_t *x = m->head;
    for (int l = m->level - 1; l >= 0; l--) {
        for (smap_node_t *n = x->next[l]; n; n = x->next[l]) {
            int c = smap_keycmp(node_key(n), n->klen, key, klen);
            if (c > 0 || (c == 0 && !after)) break;
            x = n;
        }
        if (prev) prev[l] = x;
    }
    return x->next[0];
}

smap_node_t *smap_find(smap_t *m, const void *key, size_t klen)
{
    smap_slot_t *s = slot_find(m, key_hash(key, klen), key, klen);
    return s ? s->node : NULL;
}

smap_node_t *smap_seek(smap_t *m, const void *key, size_t klen, int after)
{
    order_pending(m);
    if (!key) return m->head->next[0];
    return find_prev(m, key, klen, after, NULL);
}

smap_node_t *smap_next(const smap_node_t *n)
{
    return n->next[0];
}

void smap_set(smap_t *m, smap_node_t *n, const void *val, size_t vlen)
{
    m->mods++;
    m->data += vlen;
    m->data -= n->vlen;
    if (vlen > n->vcap) {
        size_t cap = vlen > 2 * (size_t)n->vcap ? vlen : 2 * (size_t)n->vcap;
        if (n->vext) m->mem -= n->vcap;
        free(n->vext);
        n->vext = sl_xmalloc(cap);
        n->vcap = (uint32_t)cap;
        m->mem += cap;
    }
    if (vlen) memcpy(node_val(n), val, vlen);
    n->vlen = (uint32_t)vlen;
}

/* Allocates an entry and enters it in the hash index, not linked yet. */
static smap_node_t *node_new(smap_t *m, const void *key, size_t klen, const void *val, size_t vlen)
{
    uint32_t level = random_level(m);
    size_t size = node_size(level, klen, vlen);
    smap_node_t *n = sl_xmalloc(size);
    n->klen = (uint32_t)klen;
    n->vlen = n->vcap = n->icap = (uint32_t)vlen;
    n->level = level;
    n->pending = 0;
    n->vext = NULL;
    if (klen) memcpy(node_key(n), key, klen);
    if (vlen) memcpy(node_val(n), val, vlen);
    if ((m->count + 1) * 10 > (m->mask + 1) * 7) slots_grow(m);
    slot_put(m->slots, m->mask, key_hash(key, klen), n);
    m->count++;
    m->mem += size;
    m->data += klen + vlen;
    m->mods++;
    return n;
}

/* Links `n` after prev[l] on each of its levels (prev[] must cover the
 * levels in use; levels above them start at the head). */
static void node_link(smap_t *m, smap_node_t *n, smap_node_t **prev)
{
    for (int l = m->level; l < (int)n->level; l++) prev[l] = m->head;
    if ((int)n->level > m->level) m->level = (int)n->level;
    for (uint32_t l = 0; l < n->level; l++) {
        n->next[l] = prev[l]->next[l];
        prev[l]->next[l] = n;
    }
}

static void pending_add(smap_t *m, smap_node_t *n)
{
    if (m->npending == m->pending_cap) {
        size_t cap = m->pending_cap ? 2 * m->pending_cap : 64;
        m->pending = sl_xrealloc(m->pending, cap * sizeof *m->pending);
        m->mem += (cap - m->pending_cap) * sizeof *m->pending;
        m->pending_cap = cap;
    }
    m->pending[m->npending++] = n;
    n->pending = (uint32_t)m->npending;
}

/* Takes `n` off the pending list (the last entry moves into its place). */
static void pending_remove(smap_t *m, smap_node_t *n)
{
    size_t i = n->pending - 1;
    m->pending[i] = m->pending[--m->npending];
    m->pending[i]->pending = (uint32_t)(i + 1);
    n->pending = 0;
}

/* A pending entry with its key's first 8 bytes as a big-endian number, so
 * that most comparisons while sorting need not touch the entry. */
typedef struct sort_ent {
    uint64_t prefix;
    smap_node_t *node;
} sort_ent_t;

static uint64_t key_prefix(const smap_node_t *n)
{
    const unsigned char *k = (const unsigned char *)node_key(n);
    uint64_t p = 0;
    for (uint32_t i = 0; i < 8; i++) p = p << 8 | (i < n->klen ? k[i] : 0);
    return p;
}

static int sort_ent_cmp(const void *a, const void *b)
{
    const sort_ent_t *x = a, *y = b;
    if (x->prefix != y->prefix) return x->prefix < y->prefix ? -1 : 1;
    return smap_keycmp(node_key(x->node), x->node->klen, node_key(y->node), y->node->klen);
}

/* Links the sorted entries e[0..k) in one forward walk: per level, the
 * search for the next key starts where the previous one stopped, so the
 * whole merge visits each linked node at most once per level. */
static void merge_sorted(smap_t *m, const sort_ent_t *e, size_t k)
{
    smap_node_t *prev[SMAP_MAX_LEVEL];
    for (int l = 0; l < SMAP_MAX_LEVEL; l++) prev[l] = m->head;
    for (size_t i = 0; i < k; i++) {
        smap_node_t *n = e[i].node;
        const char *key = node_key(n);
        for (int l = m->level - 1; l >= 0; l--) {
            smap_node_t *x = prev[l];
            for (smap_node_t *y = x->next[l];
                 y && smap_keycmp(node_key(y), y->klen, key, n->klen) < 0; y = x->next[l])
                x = y;
            prev[l] = x;
        }
        node_link(m, n, prev);
        for (uint32_t l = 0; l < n->level; l++) prev[l] = n;
    }
}

/* Links every pending entry into the skip list: one search each when they
 * are few beside the linked ones, else a sort and one merge walk. */
static void order_pending(smap_t *m)
{
    size_t k = m->npending;
    if (!k) return;
    m->npending = 0;
    size_t linked = m->count - k;
    if (k * 32 < linked) {
        smap_node_t *prev[SMAP_MAX_LEVEL];
        for (size_t i = 0; i < k; i++) {
            smap_node_t *n = m->pending[i];
            n->pending = 0;
            find_prev(m, node_key(n), n->klen, 0, prev);
            node_link(m, n, prev);
        }
        return;
    }
    sort_ent_t *e = sl_xmalloc(k * sizeof *e);
    for (size_t i = 0; i < k; i++) {
        e[i].node = m->pending[i];
        e[i].prefix = key_prefix(e[i].node);
        e[i].node->pending = 0;
    }
    qsort(e, k, sizeof *e, sort_ent_cmp);
    merge_sorted(m, e, k);
    free(e);
}

smap_node_t *smap_insert(smap_t *m, const void *key, size_t klen, const void *val, size_t vlen)
{
    m->tail_valid = 0;
    smap_node_t *n = node_new(m, key, klen, val, vlen);
    pending_add(m, n);
    return n;
}

void smap_append(smap_t *m, const void *key, size_t klen, const void *val, size_t vlen)
{
    smap_node_t *last = m->tail[0];
    if (!m->tail_valid ||
        (last != m->head && smap_keycmp(node_key(last), last->klen, key, klen) >= 0)) {
        smap_put(m, key, klen, val, vlen); /* not in order: the general path */
        return;
    }
    smap_node_t *n = node_new(m, key, klen, val, vlen);
    node_link(m, n, m->tail);
    for (uint32_t l = 0; l < n->level; l++) m->tail[l] = n;
}

void smap_put(smap_t *m, const void *key, size_t klen, const void *val, size_t vlen)
{
    smap_node_t *n = smap_find(m, key, klen);
    if (n) smap_set(m, n, val, vlen);
    else smap_insert(m, key, klen, val, vlen);
}

/* Unlinks `n` (whose predecessors are prev[]; NULL for an entry not
 * linked yet) and frees it. */
static void remove_node(smap_t *m, smap_node_t *n, smap_node_t **prev)
{
    m->tail_valid = 0;
    for (uint32_t l = 0; prev && l < n->level; l++)
        if (prev[l]->next[l] == n) prev[l]->next[l] = n->next[l];
    while (m->level > 1 && !m->head->next[m->level - 1]) m->level--;
    slot_remove(m, slot_find(m, key_hash(node_key(n), n->klen), node_key(n), n->klen));
    m->count--;
    m->mem -= node_size(n->level, n->klen, n->icap) + (n->vext ? n->vcap : 0);
    m->data -= n->klen + n->vlen;
    m->mods++;
    free(n->vext);
    free(n);
}

int smap_delete(smap_t *m, const void *key, size_t klen)
{
    smap_node_t *p = smap_find(m, key, klen);
    if (!p) return 0;
    if (p->pending) {
        pending_remove(m, p);
        remove_node(m, p, NULL);
        return 1;
    }
    smap_node_t *prev[SMAP_MAX_LEVEL];
    smap_node_t *n = find_prev(m, key, klen, 0, prev);
    remove_node(m, n, prev);
    return 1;
}

int64_t smap_delete_range(smap_t *m, const void *lo, size_t lolen, const void *hi, size_t hilen,
                          void (*cb)(void *arg, const void *key, size_t klen), void *arg)
{
    order_pending(m);
    smap_node_t *prev[SMAP_MAX_LEVEL];
    smap_node_t *n = lo ? find_prev(m, lo, lolen, 0, prev) : m->head->next[0];
    if (!lo)
        for (int l = 0; l < SMAP_MAX_LEVEL; l++) prev[l] = m->head;
    int64_t removed = 0;
    /* Every entry of the range directly follows prev[l] at each of its
     * levels, so unlinking them in order keeps prev[] valid. */
    while (n && (!hi || smap_keycmp(node_key(n), n->klen, hi, hilen) < 0)) {
        smap_node_t *next = n->next[0];
        if (cb) cb(arg, node_key(n), n->klen);
        remove_node(m, n, prev);
        removed++;
        n = next;
    }
    return removed;
}
