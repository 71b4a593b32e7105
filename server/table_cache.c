/* The columnar copy of static tables (table_cache.h): a short list of
 * entries under one mutex (a daemon has few tables), LRU by a use counter. */
#include "server/table_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/sl_assert.h"

struct tcache_entry {
    tcache_entry_t *next; /* in the cache's list, while listed */
    char *name;
    uint64_t gen;      /* the store's write generation it was read at */
    sl_arena_t *arena; /* the batches and their vectors */
    exec_batch_t **batches;
    int nbatches, cap;
    int refs;      /* readers (the builder is one), plus one while listed */
    uint64_t used; /* the cache's use counter at the last get */
    size_t bytes;  /* arena bytes, fixed at install */
};

struct tcache {
    pthread_mutex_t lock;
    tcache_entry_t *head;
    size_t budget, bytes;
    uint64_t uses;
};

tcache_t *tcache_new(size_t budget)
{
    tcache_t *c = sl_xcalloc(1, sizeof *c);
    pthread_mutex_init(&c->lock, NULL);
    c->budget = budget;
    return c;
}

static void entry_free(tcache_entry_t *e)
{
    sl_arena_free(e->arena);
    free(e->batches);
    free(e->name);
    free(e);
}

/* Drops the list's reference on `e`; caller holds the lock and has
 * unlinked it. Returns the entry when it must be freed now. */
static tcache_entry_t *unlist_locked(tcache_t *c, tcache_entry_t *e)
{
    c->bytes -= e->bytes;
    return --e->refs == 0 ? e : NULL;
}

void tcache_free(tcache_t *c)
{
    if (!c) return;
    for (tcache_entry_t *e = c->head, *next; e; e = next) {
        next = e->next;
        SL_ASSERT(e->refs == 1); /* no reader outlives the store */
        entry_free(e);
    }
    pthread_mutex_destroy(&c->lock);
    free(c);
}

/* Unlinks `e` from the list (caller holds the lock). */
static void unlink_locked(tcache_t *c, tcache_entry_t *e)
{
    for (tcache_entry_t **p = &c->head; *p; p = &(*p)->next)
        if (*p == e) {
            *p = e->next;
            e->next = NULL;
            return;
        }
}

tcache_entry_t *tcache_get(tcache_t *c, const char *name, uint64_t gen)
{
    tcache_entry_t *hit = NULL;
    pthread_mutex_lock(&c->lock);
    for (tcache_entry_t *e = c->head; e && !hit; e = e->next)
        if (!strcmp(e->name, name) && e->gen == gen) hit = e;
    if (hit) {
        hit->refs++;
        hit->used = ++c->uses;
    }
    pthread_mutex_unlock(&c->lock);
    return hit;
}

int tcache_batches(const tcache_entry_t *e, exec_batch_t *const **batches)
{
    *batches = e->batches;
    return e->nbatches;
}

void tcache_release(tcache_t *c, tcache_entry_t *e)
{
    pthread_mutex_lock(&c->lock);
    int last = --e->refs == 0;
    pthread_mutex_unlock(&c->lock);
    if (last) entry_free(e);
}

tcache_entry_t *tcache_build(const char *name, uint64_t gen)
{
    tcache_entry_t *e = sl_xcalloc(1, sizeof *e);
    e->name = sl_xstrdup(name);
    e->gen = gen;
    e->refs = 1; /* the builder's */
    e->arena = sl_arena_new("table cache");
    return e;
}

sl_arena_t *tcache_arena(tcache_entry_t *e)
{
    return e->arena;
}

void tcache_add(tcache_entry_t *e, exec_batch_t *b)
{
    if (e->nbatches == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 16;
        e->batches = sl_xrealloc(e->batches, sizeof *e->batches * (size_t)e->cap);
    }
    e->batches[e->nbatches++] = b;
}

/* Evicts unreferenced entries, least recently used first, until `need` more
 * bytes fit; entries a reader holds stay. Caller holds the lock; the evicted
 * entries are chained on *dead for freeing outside it. */
static void make_room_locked(tcache_t *c, size_t need, tcache_entry_t **dead)
{
    while (c->bytes + need > c->budget) {
        tcache_entry_t *victim = NULL;
        for (tcache_entry_t *e = c->head; e; e = e->next)
            if (e->refs == 1 && (!victim || e->used < victim->used)) victim = e;
        if (!victim) return;
        unlink_locked(c, victim);
        if (unlist_locked(c, victim)) {
            victim->next = *dead;
            *dead = victim;
        }
    }
}

void tcache_install(tcache_t *c, tcache_entry_t *e, uint64_t current_gen)
{
    e->bytes = sl_arena_used(e->arena);
    tcache_entry_t *dead = NULL;
    pthread_mutex_lock(&c->lock);
    int keep = e->gen == current_gen && e->bytes <= c->budget;
    for (tcache_entry_t *o = c->head, *next; keep && o; o = next) {
        next = o->next;
        if (strcmp(o->name, e->name)) continue;
        unlink_locked(c, o); /* an older copy of the same table */
        if (unlist_locked(c, o)) {
            o->next = dead;
            dead = o;
        }
    }
    if (keep) make_room_locked(c, e->bytes, &dead);
    keep = keep && c->bytes + e->bytes <= c->budget;
    if (keep) {
        e->refs++;
        e->used = ++c->uses;
        e->next = c->head;
        c->head = e;
        c->bytes += e->bytes;
    }
    pthread_mutex_unlock(&c->lock);
    for (tcache_entry_t *next; dead; dead = next) {
        next = dead->next;
        entry_free(dead);
    }
}

void tcache_stats(tcache_t *c, int *entries, size_t *bytes)
{
    pthread_mutex_lock(&c->lock);
    int n = 0;
    for (tcache_entry_t *e = c->head; e; e = e->next) n++;
    *entries = n;
    *bytes = c->bytes;
    pthread_mutex_unlock(&c->lock);
}
