/* The per-query cache of open state stores. */
#include "exec/store_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct cache_entry {
    int op, part;
    char *name; /* NULL for the default store */
    store_t *store;
    struct cache_entry *next;
} cache_entry_t;

struct exec_store_cache {
    pthread_mutex_t lock;
    cache_entry_t *entries;
};

exec_store_cache_t *exec_store_cache_new(void)
{
    exec_store_cache_t *c = sl_xcalloc(1, sizeof *c);
    pthread_mutex_init(&c->lock, NULL);
    return c;
}

void exec_store_cache_free(exec_store_cache_t *c)
{
    if (!c) return;
    while (c->entries) {
        cache_entry_t *e = c->entries;
        c->entries = e->next;
        store_close(e->store);
        free(e->name);
        free(e);
    }
    pthread_mutex_destroy(&c->lock);
    free(c);
}

static int same_name(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

store_t *exec_store_acquire(op_t *op, const char *name, const store_options_t *opt, sl_error_t *err)
{
    exec_store_cache_t *c = op->ctx->stores;
    int opid = op->node->op_id, part = op->ctx->partition;
    if (!c) return store_open(op->ctx->state_dir, opid, part, name, opt, err);
    pthread_mutex_lock(&c->lock);
    cache_entry_t *e = c->entries;
    while (e && !(e->op == opid && e->part == part && same_name(e->name, name))) e = e->next;
    pthread_mutex_unlock(&c->lock);
    if (e) return e->store;
    store_t *s = store_open(op->ctx->state_dir, opid, part, name, opt, err);
    if (!s) return NULL;
    e = sl_xcalloc(1, sizeof *e);
    e->op = opid;
    e->part = part;
    e->name = name ? sl_xstrdup(name) : NULL;
    e->store = s;
    pthread_mutex_lock(&c->lock);
    e->next = c->entries;
    c->entries = e;
    pthread_mutex_unlock(&c->lock);
    return s;
}

void exec_store_release(op_t *op, store_t *s)
{
    if (!op->ctx->stores) store_close(s);
}
