/* Unit tests of exec/pool.c: every task runs once, nested groups finish. */
#include "unit.h"

#include <stdatomic.h>

#include "exec/pool.h"

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
