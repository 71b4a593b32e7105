/* AWAIT QUERY (Spark's processAllAvailable): a wait is satisfied by the
 * first trigger that began after the call and ended caught up — every
 * source's end offset equal to what it had available, and no no-data
 * batch due — or by the query ending. A query that ends by itself (ONCE,
 * AVAILABLE NOW) is awaited to its end, as Spark's awaitTermination, so a
 * START right after the AWAIT finds it FINISHED and runs it again.
 * Results are delivered on the loop thread through the manager's async
 * handle. */
#include <stdlib.h>
#include <string.h>

#include "server/qm_int.h"

static void finish_locked(qm_t *qm, qm_wait_t *w, const sl_error_t *err)
{
    w->done = 1;
    w->q = NULL;
    if (err) sl_error_copy(&w->result, err);
    uv_async_send(&qm->deliver);
}

/* The result for a query that is no longer running: a failed query's
 * error carries its cause's SQLSTATE (22000 for Kafka data loss, 58030 for
 * an I/O error), or 55000 when the cause is not known (it failed before
 * the daemon restarted). */
static void end_result(const qm_query_t *q, sl_error_t *err)
{
    sl_error_clear(err);
    if (q->status != QM_FAILED) return;
    const char *state =
        q->last_error_state[0] ? q->last_error_state : SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE;
    sl_error_set(err, state, "query \"%s\" failed", q->name);
    sl_error_detail(err, "%s", q->last_error ? q->last_error : "unknown error");
    sl_error_hint(err, "SHOW QUERIES shows the error; fix the cause and START QUERY %s.", q->name);
}

void qm_waits_on_trigger_locked(qm_query_t *q)
{
    qm_t *qm = q->qm;
    for (qm_wait_t *w = qm->waits; w; w = w->next)
        if (w->q == q && !w->done && !q->ends_itself && q->caught_up &&
            q->last_done >= w->min_trigger)
            finish_locked(qm, w, NULL);
}

void qm_waits_on_end_locked(qm_query_t *q)
{
    qm_t *qm = q->qm;
    sl_error_t err;
    end_result(q, &err);
    for (qm_wait_t *w = qm->waits; w; w = w->next)
        if (w->q == q && !w->done) finish_locked(qm, w, sl_error_isset(&err) ? &err : NULL);
}

int qm_await(qm_t *qm, const char *name, qm_await_cb cb, void *arg, uint64_t *wait_id,
             sl_error_t *err)
{
    pthread_mutex_lock(&qm->lock);
    qm_query_t *q = qm_find_locked(qm, name);
    if (!q) {
        pthread_mutex_unlock(&qm->lock);
        return sl_error_set(err, SL_ERR_UNDEFINED_TABLE, "query \"%s\" does not exist", name);
    }
    qm_wait_t *w = sl_xcalloc(1, sizeof *w);
    w->id = ++qm->next_wait_id;
    w->cb = cb;
    w->arg = arg;
    w->q = q;
    w->min_trigger = q->triggers_started + 1;
    w->next = qm->waits;
    qm->waits = w;
    *wait_id = w->id;
    if (q->status != QM_ACTIVE || q->exited) {
        sl_error_t res;
        end_result(q, &res);
        finish_locked(qm, w, sl_error_isset(&res) ? &res : NULL);
    } else {
        q->wake = true; /* run the next trigger now rather than at its schedule */
        qm_wake_locked(q);
    }
    pthread_mutex_unlock(&qm->lock);
    return 0;
}

void qm_await_cancel(qm_t *qm, uint64_t wait_id)
{
    pthread_mutex_lock(&qm->lock);
    for (qm_wait_t **pp = &qm->waits; *pp; pp = &(*pp)->next)
        if ((*pp)->id == wait_id) {
            qm_wait_t *w = *pp;
            *pp = w->next;
            free(w);
            break;
        }
    pthread_mutex_unlock(&qm->lock);
}
