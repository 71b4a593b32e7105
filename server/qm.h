/* The query manager: every continuous query of the daemon — its lifecycle
 * (ACTIVE, STOPPED, FAILED, FINISHED), its driver thread running the
 * micro-batch loop, the ring of its last progress reports, and the waits of
 * AWAIT QUERY.
 *
 * Threads: statements call it from worker threads, the HTTP server from its
 * own thread, drivers from theirs; everything here is thread-safe (one
 * mutex). Snapshot functions copy what they return into the caller's arena
 * and never wait for a batch. */
#ifndef SL_QM_H
#define SL_QM_H

#include <stdint.h>

#include "common/arena.h"
#include "common/sl_error.h"
#include "server/server.h"

typedef struct qm qm_t;

typedef enum { QM_ACTIVE = 1, QM_STOPPED, QM_FAILED, QM_FINISHED } qm_status_t;

/* A copy of what is known about one query. */
typedef struct qm_info {
    const char *name;
    const char *id;     /* stable across restarts (checkpoint metadata) */
    const char *run_id; /* new on every start; NULL before the first start */
    qm_status_t status;
    const char *status_name;      /* "ACTIVE", ... */
    const char *last_error;       /* FAILED: the reason; else NULL */
    const char *sql;              /* the CREATE QUERY statement */
    const char *sink;             /* sink connector name */
    const char *output_mode;      /* "append" | "update" | "complete" */
    const char *trigger;          /* "default", "processing time 1 minute", "once", ... */
    const char *checkpoint;       /* checkpoint directory */
    int64_t last_batch_id;        /* -1 before the first batch */
    int64_t triggers;             /* triggers begun since the daemon started, idle or not */
    double input_rows_per_second; /* of the last progress, NaN when unknown */
    double processed_rows_per_second;
    const char *watermark; /* ISO timestamp, or NULL without a watermark */
    /* StreamingQueryStatus */
    const char *status_message;
    int is_data_available;
    int is_trigger_active;
    const char *last_progress; /* StreamingQueryProgress JSON, or NULL */
} qm_info_t;

/* Creates the manager on the loop (loop thread). */
qm_t *qm_new(srv_t *srv);
/* Stops every query at a batch boundary (their desired state stays as it
 * was, so a restart resumes them) and closes the manager's loop handle;
 * `done` runs on the loop when everything is closed. Loop thread. */
void qm_shutdown(qm_t *qm, void (*done)(srv_t *srv));
/* Frees a shut-down manager. */
void qm_free(qm_t *qm);
/* Starts every query whose desired state in the catalog is ACTIVE (daemon
 * start). Failures are logged and leave that query FAILED. */
void qm_resume_all(qm_t *qm);

/* Every query, ordered by name; returns the count. */
int qm_list(qm_t *qm, sl_arena_t *a, qm_info_t **out);
/* One query: 1 found, 0 not. */
int qm_get(qm_t *qm, const char *name, sl_arena_t *a, qm_info_t *out);
/* Progress reports of a query, oldest first (at most 100); `recent` = 0
 * gives only the last one. Returns the count, -1 (42P01) for an unknown query. */
int qm_progress(qm_t *qm, const char *name, int recent, sl_arena_t *a, const char ***out,
                sl_error_t *err);

/* Registers a new query (its catalog entry exists) and starts it. */
int qm_launch(qm_t *qm, const char *name, sl_error_t *err);
/* DROP QUERY: stops the query and forgets it (the catalog entry is the caller's). */
int qm_drop(qm_t *qm, const char *name, sl_error_t *err);

/* AWAIT QUERY. cb runs on the loop thread, exactly once unless the wait is
 * cancelled first: with err NULL when every row available at the call was
 * processed and committed (including due no-data batches) or the query
 * stopped or finished; with an error when it failed. Starts a trigger at
 * once if the query is waiting for its next one. */
typedef void (*qm_await_cb)(void *arg, const sl_error_t *err);
int qm_await(qm_t *qm, const char *name, qm_await_cb cb, void *arg, uint64_t *wait_id,
             sl_error_t *err);
/* Forgets a wait; its callback will not run. Loop thread. */
void qm_await_cancel(qm_t *qm, uint64_t wait_id);
/* STOP QUERY: asks the driver to stop at the next batch boundary and waits
 * for it; the desired state becomes STOPPED. 1 when it was running, 0 when
 * it was not. */
int qm_stop(qm_t *qm, const char *name, sl_error_t *err);
/* START QUERY: resumes a STOPPED, FAILED or FINISHED query from its
 * checkpoint. 1 when started, 0 when it was already active. */
int qm_start(qm_t *qm, const char *name, sl_error_t *err);

/* ALTER QUERY: the query's CREATE text becomes `sql` (the catalog's is
 * the caller's), used from its next start. 0, or -1 (42P01). */
int qm_set_sql(qm_t *qm, const char *name, const char *sql, sl_error_t *err);
/* ALTER: restarts an ACTIVE query at its batch boundary so that its next
 * batch runs the changed definition (a stopped one just starts with it
 * later). 1 restarted, 0 not active, -1 when it could not start again (the
 * query is FAILED with the reason). */
int qm_restart(qm_t *qm, const char *name, sl_error_t *err);

#endif
