/* The task pool: a fixed set of worker threads that run the partitions of a
 * micro-batch (and of an ad-hoc SELECT) in parallel. A caller hands over a
 * group of tasks and waits for all of them; the calling thread runs tasks of
 * its own group too, so a group submitted from inside a task (or from a
 * thread that is itself a worker elsewhere) always makes progress. */
#ifndef SL_EXEC_POOL_H
#define SL_EXEC_POOL_H

typedef struct exec_pool exec_pool_t;
typedef void (*exec_task_fn)(void *arg, int index);

/* Starts `nthreads` workers (at least 1). */
exec_pool_t *exec_pool_new(int nthreads);
/* Stops the workers; no group may be running. */
void exec_pool_free(exec_pool_t *p);
/* Runs fn(arg, i) for every i in [0, n) and returns when all have finished.
 * Tasks run in any order and concurrently. Thread-safe. */
void exec_pool_run(exec_pool_t *p, exec_task_fn fn, void *arg, int n);
int exec_pool_size(const exec_pool_t *p);

#endif
