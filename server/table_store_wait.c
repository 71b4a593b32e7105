/* The table store's wake-up list: sessions parked on the loop thread until
 * the write lock they found held is released. Write transactions end on any
 * thread and count themselves (tstore_released); the loop thread, after
 * each statement run, wakes every parked session when the count moved
 * (tstore_wake). The rule is in table_store.h. */
#include "server/table_store.h"
#include "server/table_store_int.h"

void tstore_released(tstore_t *t)
{
    atomic_fetch_add(&t->releases, 1);
}

uint64_t tstore_releases(tstore_t *t)
{
    return atomic_load(&t->releases);
}

void tstore_wait_add(tstore_t *t, tstore_waiter_t *w, void (*cb)(void *arg), void *arg)
{
    w->cb = cb;
    w->arg = arg;
    w->prev = NULL;
    w->next = t->waiters;
    if (t->waiters) t->waiters->prev = w;
    t->waiters = w;
    w->listed = 1;
}

void tstore_wait_remove(tstore_t *t, tstore_waiter_t *w)
{
    if (!w->listed) return;
    if (w->prev) w->prev->next = w->next;
    else t->waiters = w->next;
    if (w->next) w->next->prev = w->prev;
    w->prev = w->next = NULL;
    w->listed = 0;
}

void tstore_wake(tstore_t *t)
{
    uint64_t now = tstore_releases(t);
    if (now == t->woken_at) return;
    t->woken_at = now;
    tstore_waiter_t *w = t->waiters;
    t->waiters = NULL;
    while (w) { /* detached first: a callback may park its session again */
        tstore_waiter_t *next = w->next;
        w->prev = w->next = NULL;
        w->listed = 0;
        w->cb(w->arg);
        w = next;
    }
}
