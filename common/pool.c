/* The task pool: groups of tasks in a FIFO; workers and the submitting
 * thread claim task indexes from a group with an atomic counter. A group
 * lives on the submitter's stack (exec_pool_run) or on the heap until its
 * join (exec_pool_start). Idle workers sleep on a semaphore, and a
 * submitter posts it once per sleeping worker it needs, after it has let go
 * of the lock: a condition variable's signal can block the signaller until
 * the thread it woke runs (glibc), and with the lock held that stalls every
 * worker behind it. */
#include "common/pool.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/arena.h"

typedef struct pool_group {
    exec_task_fn fn;
    void *arg;
    int n;
    atomic_int next;         /* next task index to claim */
    int done;                /* finished tasks, under the pool lock */
    int users;               /* workers inside group_drain, under the pool lock */
    pthread_cond_t finished; /* signalled when done == n */
    struct pool_group *link; /* queue of groups with unclaimed tasks */
} pool_group_t;

struct exec_pool {
    pthread_mutex_t lock;
    sem_t wake;   /* one post per worker woken: a group was queued, or shutdown */
    int sleeping; /* workers in sem_wait, under the lock */
    int woken;    /* posts not yet taken by a sleeping worker, under the lock */
    pool_group_t *head, *tail;
    int stopping;
    int nthreads;
    char name[16]; /* the workers' thread name (top -H, perf) */
    pthread_t *threads;
};

/* Claims and runs tasks of g until none is left; returns how many ran. The
 * caller has counted itself in g->users under the lock, so g (which lives on
 * the submitter's stack) stays valid until this returns. */
static int group_drain(exec_pool_t *p, pool_group_t *g)
{
    int ran = 0;
    for (;;) {
        int i = atomic_fetch_add(&g->next, 1);
        if (i >= g->n) break;
        g->fn(g->arg, i);
        ran++;
    }
    pthread_mutex_lock(&p->lock);
    g->done += ran;
    g->users--;
    if (g->done == g->n && g->users == 0) pthread_cond_broadcast(&g->finished);
    pthread_mutex_unlock(&p->lock);
    return ran;
}

/* Removes g from the queue if it is still there. Lock held. */
static void queue_remove(exec_pool_t *p, pool_group_t *g)
{
    pool_group_t **pp = &p->head, *prev = NULL;
    while (*pp && *pp != g) {
        prev = *pp;
        pp = &(*pp)->link;
    }
    if (!*pp) return;
    *pp = g->link;
    if (p->tail == g) p->tail = prev;
}

/* Wakes up to `n` sleeping workers that no earlier post is already waking.
 * Lock held; the caller posts the returned count after unlocking. */
static int wake_count(exec_pool_t *p, int n)
{
    int idle = p->sleeping - p->woken;
    int k = n < idle ? n : idle;
    p->woken += k;
    return k;
}

static void post(exec_pool_t *p, int k)
{
    while (k-- > 0) sem_post(&p->wake);
}

/* The first queued group with a task left to claim; fully claimed groups
 * are unqueued on the way. Lock held. */
static pool_group_t *claimable(exec_pool_t *p)
{
    while (p->head && atomic_load(&p->head->next) >= p->head->n) queue_remove(p, p->head);
    return p->head;
}

static void *worker_main(void *arg)
{
    exec_pool_t *p = arg;
    pthread_setname_np(pthread_self(), p->name);
    pthread_mutex_lock(&p->lock);
    while (!p->stopping) {
        pool_group_t *g = claimable(p);
        if (g) {
            g->users++;
            pthread_mutex_unlock(&p->lock);
            group_drain(p, g);
            pthread_mutex_lock(&p->lock);
            continue;
        }
        p->sleeping++;
        pthread_mutex_unlock(&p->lock);
        while (sem_wait(&p->wake) < 0 && errno == EINTR) continue;
        pthread_mutex_lock(&p->lock);
        p->sleeping--;
        p->woken--;
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

exec_pool_t *exec_pool_new(int nthreads)
{
    return exec_pool_new_named(nthreads, "sl-worker");
}

exec_pool_t *exec_pool_new_named(int nthreads, const char *name)
{
    exec_pool_t *p = sl_xcalloc(1, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    pthread_mutex_init(&p->lock, NULL);
    sem_init(&p->wake, 0, 0);
    p->nthreads = nthreads < 1 ? 1 : nthreads;
    p->threads = sl_xcalloc((size_t)p->nthreads, sizeof *p->threads);
    for (int i = 0; i < p->nthreads; i++) pthread_create(&p->threads[i], NULL, worker_main, p);
    return p;
}

void exec_pool_free(exec_pool_t *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    p->stopping = 1;
    int k = wake_count(p, p->nthreads);
    pthread_mutex_unlock(&p->lock);
    post(p, k);
    for (int i = 0; i < p->nthreads; i++) pthread_join(p->threads[i], NULL);
    sem_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p->threads);
    free(p);
}

/* Queues g with the calling thread counted as one of its users. */
static void group_queue(exec_pool_t *p, pool_group_t *g, exec_task_fn fn, void *arg, int n)
{
    g->fn = fn;
    g->arg = arg;
    g->n = n;
    atomic_init(&g->next, 0);
    pthread_cond_init(&g->finished, NULL);
    pthread_mutex_lock(&p->lock);
    if (p->tail) p->tail->link = g;
    else p->head = g;
    p->tail = g;
    g->users = 1;             /* the submitting thread, until it joins */
    int k = wake_count(p, n); /* no more than have a task */
    pthread_mutex_unlock(&p->lock);
    post(p, k);
}

/* Runs what is left of g here, then waits for the tasks workers took. */
static void group_join(exec_pool_t *p, pool_group_t *g)
{
    group_drain(p, g);
    pthread_mutex_lock(&p->lock);
    queue_remove(p, g);
    while (g->done < g->n || g->users > 0) pthread_cond_wait(&g->finished, &p->lock);
    pthread_mutex_unlock(&p->lock);
    pthread_cond_destroy(&g->finished);
}

void exec_pool_run(exec_pool_t *p, exec_task_fn fn, void *arg, int n)
{
    if (n <= 0) return;
    if (n == 1) { /* nothing to share: run inline */
        fn(arg, 0);
        return;
    }
    pool_group_t g = {0};
    group_queue(p, &g, fn, arg, n);
    group_join(p, &g);
}

struct exec_pool_job {
    pool_group_t g;
};

exec_pool_job_t *exec_pool_start(exec_pool_t *p, exec_task_fn fn, void *arg, int n)
{
    if (!p) { /* no pool: the tasks run now, on this thread */
        for (int i = 0; i < n; i++) fn(arg, i);
        return NULL;
    }
    exec_pool_job_t *j = sl_xcalloc(1, sizeof *j);
    group_queue(p, &j->g, fn, arg, n < 0 ? 0 : n);
    return j;
}

void exec_pool_join(exec_pool_t *p, exec_pool_job_t *j)
{
    if (!j) return;
    group_join(p, &j->g);
    free(j);
}
