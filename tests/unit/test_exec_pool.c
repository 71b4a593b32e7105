/* Unit tests of common/pool.c: every task runs once, nested groups finish,
 * started jobs overlap the caller's own groups and finish at their join. */
#include "unit.h"

#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "common/pool.h"

static atomic_int counts[1000];

static void count_task(void *arg, int i)
{
    (void)arg;
    atomic_fetch_add(&counts[i], 1);
}

TEST(pool_runs_each_task_once)
{
    exec_pool_t *p = exec_pool_new(3);
    for (int round = 0; round < 50; round++) exec_pool_run(p, count_task, NULL, 1000);
    for (int i = 0; i < 1000; i++) CHECK_INT(atomic_load(&counts[i]), 50);
    exec_pool_free(p);
}

static exec_pool_t *nested_pool;
static atomic_int leaf_runs;

static void leaf(void *arg, int i)
{
    (void)arg;
    (void)i;
    atomic_fetch_add(&leaf_runs, 1);
}

static void parent(void *arg, int i)
{
    (void)arg;
    (void)i;
    exec_pool_run(nested_pool, leaf, NULL, 8);
}

TEST(pool_nested_groups_do_not_deadlock)
{
    nested_pool = exec_pool_new(2);
    exec_pool_run(nested_pool, parent, NULL, 16);
    CHECK_INT(atomic_load(&leaf_runs), 16 * 8);
    exec_pool_free(nested_pool);
}

/* A task that blocks until the caller says so: the job must run while the
 * caller goes on with other groups, and join must wait for it. */
static atomic_int gate, job_runs;

static void gated(void *arg, int i)
{
    (void)arg;
    (void)i;
    while (!atomic_load(&gate)) sched_yield();
    atomic_fetch_add(&job_runs, 1);
}

TEST(pool_started_job_overlaps_the_caller)
{
    exec_pool_t *p = exec_pool_new(2);
    exec_pool_job_t *j = exec_pool_start(p, gated, NULL, 1);
    memset(counts, 0, sizeof counts);
    exec_pool_run(p, count_task, NULL, 1000); /* the gated task holds one worker */
    for (int i = 0; i < 1000; i++) CHECK_INT(atomic_load(&counts[i]), 1);
    CHECK_INT(atomic_load(&job_runs), 0);
    atomic_store(&gate, 1);
    exec_pool_join(p, j);
    CHECK_INT(atomic_load(&job_runs), 1);
    /* a job no worker took runs at its join; an empty job joins at once */
    exec_pool_job_t *k = exec_pool_start(p, count_task, NULL, 1000);
    exec_pool_join(p, k);
    for (int i = 0; i < 1000; i++) CHECK_INT(atomic_load(&counts[i]), 2);
    exec_pool_join(p, exec_pool_start(p, count_task, NULL, 0));
    exec_pool_free(p);
}

/* Tasks that each wait until all `n` have started: they finish only if as
 * many workers woke for the group as it has tasks. */
static atomic_int arrived;
static int rendezvous_n;

/* Waits (yielding, 10 s at most) until `arrived` reaches `n`. */
static void await_arrivals(int n)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        if (atomic_load(&arrived) >= n) return;
        sched_yield();
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while (t.tv_sec - t0.tv_sec < 10);
}

static void rendezvous(void *arg, int i)
{
    (void)arg;
    (void)i;
    atomic_fetch_add(&arrived, 1);
    await_arrivals(rendezvous_n);
}

TEST(pool_started_job_wakes_a_worker_per_task)
{
    exec_pool_t *p = exec_pool_new(3);
    rendezvous_n = 3;
    for (int round = 0; round < 300; round++) {
        atomic_store(&arrived, 0);
        exec_pool_job_t *j = exec_pool_start(p, rendezvous, NULL, 3);
        await_arrivals(3); /* no join until the workers alone have met */
        CHECK_INT(atomic_load(&arrived), 3);
        exec_pool_join(p, j);
        if (round % 3 == 0) exec_pool_run(p, count_task, NULL, 100); /* workers busy in between */
    }
    exec_pool_free(p);
}
