/* The task pool: a fixed set of worker threads that run the partitions of a
 * micro-batch (and of an ad-hoc SELECT) in parallel. A caller hands over a
 * group of tasks and waits for all of them; the calling thread runs tasks of
 * its own group too, so a group submitted from inside a task (or from a
 * thread that is itself a worker elsewhere) always makes progress.
 *
 * Memory: a task never allocates from its submitter's arenas (an arena has
 * one owner thread, common/arena.h); it creates its own, or uses only
 * memory the submitter prepared before the start. The join orders the
 * tasks' writes before the submitter's reads. */
#ifndef SL_EXEC_POOL_H
#define SL_EXEC_POOL_H

typedef struct exec_pool exec_pool_t;
typedef void (*exec_task_fn)(void *arg, int index);

/* Starts `nthreads` workers (at least 1), named "sl-worker", or `name`
 * (15 characters at most are kept) as top -H and perf show them. */
exec_pool_t *exec_pool_new(int nthreads);
exec_pool_t *exec_pool_new_named(int nthreads, const char *name);
/* Stops the workers; no group may be running. */
void exec_pool_free(exec_pool_t *p);
/* Runs fn(arg, i) for every i in [0, n) and returns when all have finished.
 * Tasks run in any order and concurrently. Thread-safe. */
void exec_pool_run(exec_pool_t *p, exec_task_fn fn, void *arg, int n);

/* A group of tasks started without waiting: exec_pool_start queues fn(arg, i)
 * for every i in [0, n) and returns at once; exec_pool_join runs on the
 * calling thread whatever no worker has taken yet, waits for the rest and
 * frees the job. Every started job must be joined. For work that waits on
 * the disk while the caller computes (a batch's write-ahead records). With
 * a NULL pool, start runs the tasks on the calling thread at once. */
typedef struct exec_pool_job exec_pool_job_t;
exec_pool_job_t *exec_pool_start(exec_pool_t *p, exec_task_fn fn, void *arg, int n);
void exec_pool_join(exec_pool_t *p, exec_pool_job_t *j);

#endif
