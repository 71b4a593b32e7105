/* Internals of the query manager shared by qm.c (registry, lifecycle,
 * snapshots), qm_driver.c (the driver thread of a query) and qm_await.c
 * (AWAIT QUERY waits). One mutex (qm->lock) guards every field marked
 * [lock]; the driver's own fields are touched by its thread only. */
#ifndef SL_QM_INT_H
#define SL_QM_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "server/qm.h"

#define QM_RECENT 100

typedef struct qm_query qm_query_t;
typedef struct qm_wait qm_wait_t;

struct qm_query {
    qm_t *qm;
    char *name;                               /* owned */
    char *sql;                                /* [lock] CREATE QUERY text */
    qm_status_t status;                       /* [lock] */
    char *last_error;                         /* [lock] */
    char last_error_state[6];                 /* [lock] its SQLSTATE */
    char *id, *run_id;                        /* [lock] */
    char *sink, *mode, *trigger, *checkpoint; /* [lock] from the definition */
    int64_t last_batch_id;                    /* [lock] */
    double in_rate, proc_rate;                /* [lock] */
    int has_watermark;                        /* [lock] */
    int64_t watermark_ms;                     /* [lock] */
    char *status_msg;                         /* [lock] */
    int data_available, trigger_active;       /* [lock] */
    char *recent[QM_RECENT];                  /* [lock] progress ring, oldest at recent_head */
    int nrecent, recent_head;                 /* [lock] */
    int64_t triggers_started;                 /* [lock] triggers begun since the manager started */
    int64_t last_done; /* [lock] number (triggers_started at its start) of the
                                     last completed trigger */
    int caught_up;     /* [lock] after the last trigger */
    bool ends_itself;  /* [lock] ONCE or AVAILABLE NOW: AWAIT waits for the end */
    /* the driver thread */
    pthread_t thread;
    bool thread_live;    /* [lock] started and not joined */
    bool exited;         /* [lock] the driver returned (finished, failed, stopped) */
    bool stop;           /* [lock] asked to stop at the next batch boundary */
    bool wake;           /* [lock] skip the wait before the next trigger */
    pthread_cond_t cond; /* signalled on stop/wake [lock] (qm_wake_locked) */
    int wake_fd;         /* eventfd written with each signal: wakes a driver that
                                     sleeps on its sources' change descriptors */
    atomic_int cancel;   /* set with `stop`: abandons a batch that is computing (its
                                     offsets are logged, its commit is not: the next
                                     start runs it again, as after a crash) */
    atomic_int stopping; /* mirrors `stop` for code that polls without the lock
                                     (a continuous epoch ends early) */
    bool dropped;        /* [lock] removed from the registry */
    int refs;            /* [lock] registry + live driver */
};

struct qm_wait {
    uint64_t id;
    qm_query_t *q;       /* [lock] */
    int64_t min_trigger; /* satisfied by a caught-up trigger >= this */
    qm_await_cb cb;
    void *arg;
    int done; /* result ready: queued for delivery */
    sl_error_t result;
    qm_wait_t *next;
};

struct qm {
    srv_t *srv;
    pthread_mutex_t lock;
    qm_query_t **queries;  /* [lock] sorted by name */
    int nqueries, cap;     /* [lock] */
    qm_wait_t *waits;      /* [lock] pending and done waits */
    uint64_t next_wait_id; /* [lock] */
    uv_async_t deliver;    /* wakes the loop to deliver finished waits */
    bool closing;
    void (*shutdown_done)(srv_t *srv);
};

/* Registry (lock held). */
qm_query_t *qm_find_locked(qm_t *qm, const char *name);
void qm_query_unref_locked(qm_query_t *q);
/* Wakes the query's driver from its wait between triggers (stop, await). */
void qm_wake_locked(qm_query_t *q);
/* Marks the query FAILED by `err`: status, last error, its SQLSTATE and the
 * status message (lock held). */
void qm_fail_locked(qm_query_t *q, const sl_error_t *err);
/* Starts the driver thread of a query (lock held, no thread live). */
int qm_driver_start_locked(qm_query_t *q, sl_error_t *err);
/* Waits (lock held): settle after a trigger or when the query ends. */
void qm_waits_on_trigger_locked(qm_query_t *q);
void qm_waits_on_end_locked(qm_query_t *q);

#endif
