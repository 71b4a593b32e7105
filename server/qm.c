/* The query manager: the registry of queries, their lifecycle (launch,
 * stop, start, drop, shutdown) and the snapshots statements and the HTTP
 * server read. The driver thread is in qm_driver.c, AWAIT in qm_await.c. */
#include "server/qm_int.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/log.h"
#include "server/catalog.h"
#include "server/query_plan.h"

static const char *const status_names[] = {"", "ACTIVE", "STOPPED", "FAILED", "FINISHED"};

static void on_deliver(uv_async_t *h);

qm_t *qm_new(srv_t *srv)
{
    qm_t *qm = sl_xcalloc(1, sizeof *qm);
    qm->srv = srv;
    pthread_mutex_init(&qm->lock, NULL);
    uv_async_init(srv->loop, &qm->deliver, on_deliver);
    qm->deliver.data = qm;
    return qm;
}

qm_query_t *qm_find_locked(qm_t *qm, const char *name)
{
    for (int i = 0; i < qm->nqueries; i++)
        if (!strcmp(qm->queries[i]->name, name)) return qm->queries[i];
    return NULL;
}

static void query_free(qm_query_t *q)
{
    for (int i = 0; i < q->nrecent; i++) free(q->recent[(q->recent_head + i) % QM_RECENT]);
    free(q->name);
    free(q->sql);
    free(q->last_error);
    free(q->id);
    free(q->run_id);
    free(q->sink);
    free(q->mode);
    free(q->trigger);
    free(q->checkpoint);
    free(q->status_msg);
    pthread_cond_destroy(&q->cond);
    if (q->wake_fd >= 0) close(q->wake_fd);
    free(q);
}

void qm_query_unref_locked(qm_query_t *q)
{
    if (--q->refs == 0) query_free(q);
}

void qm_wake_locked(qm_query_t *q)
{
    pthread_cond_broadcast(&q->cond);
    uint64_t one = 1; /* a full counter (EAGAIN) wakes the driver just the same */
    if (q->wake_fd >= 0 && write(q->wake_fd, &one, sizeof one) < 0 && errno != EAGAIN)
        SL_WARN("qm", "query=%s could not wake its driver: %s", q->name, strerror(errno));
}

static void registry_add_locked(qm_t *qm, qm_query_t *q)
{
    if (qm->nqueries == qm->cap) {
        qm->cap = qm->cap ? qm->cap * 2 : 16;
        qm->queries = sl_xrealloc(qm->queries, sizeof *qm->queries * (size_t)qm->cap);
    }
    int i = qm->nqueries;
    while (i > 0 && strcmp(qm->queries[i - 1]->name, q->name) > 0) {
        qm->queries[i] = qm->queries[i - 1];
        i--;
    }
    qm->queries[i] = q;
    qm->nqueries++;
}

static void registry_remove_locked(qm_t *qm, qm_query_t *q)
{
    for (int i = 0; i < qm->nqueries; i++)
        if (qm->queries[i] == q) {
            memmove(&qm->queries[i], &qm->queries[i + 1],
                    sizeof *qm->queries * (size_t)(qm->nqueries - i - 1));
            qm->nqueries--;
            return;
        }
}

static qm_query_t *query_new(qm_t *qm, const char *name, const char *sql)
{
    qm_query_t *q = sl_xcalloc(1, sizeof *q);
    q->qm = qm;
    q->name = sl_xstrdup(name);
    q->sql = sl_xstrdup(sql);
    q->status = QM_STOPPED;
    q->last_batch_id = -1;
    q->in_rate = q->proc_rate = NAN;
    q->status_msg = sl_xstrdup("Stopped");
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&q->cond, &attr);
    pthread_condattr_destroy(&attr);
    q->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    atomic_init(&q->cancel, 0);
    atomic_init(&q->stopping, 0);
    q->refs = 1;
    return q;
}

/* Registers a query from its catalog entry and, if it should run, starts it. */
static int register_query(qm_t *qm, const char *name, const char *sql, const char *state,
                          sl_error_t *err)
{
    pthread_mutex_lock(&qm->lock);
    int rc = 0;
    qm_query_t *q = qm_find_locked(qm, name);
    if (!q) {
        q = query_new(qm, name, sql);
        registry_add_locked(qm, q);
    }
    if (!strcmp(state, "FINISHED")) q->status = QM_FINISHED;
    if (!strcmp(state, "FAILED") && q->status != QM_FAILED) {
        q->status = QM_FAILED;
        free(q->last_error);
        q->last_error =
            sl_xstrdup("the query failed before the daemon restarted; START QUERY retries it");
        q->last_error_state[0] = '\0'; /* the cause is not known */
    }
    if (!strcmp(state, "ACTIVE") && !q->thread_live) rc = qm_driver_start_locked(q, err);
    pthread_mutex_unlock(&qm->lock);
    return rc;
}

void qm_resume_all(qm_t *qm)
{
    sl_arena_t *a = sl_arena_new("qm");
    cat_entry_t *e;
    int n = cat_list(qm->srv->cat, CAT_QUERY, a, &e);
    for (int i = 0; i < n; i++) {
        sl_error_t err;
        if (register_query(qm, e[i].name, e[i].sql, e[i].state, &err) < 0)
            SL_ERROR("qm", "query=%s could not start: %s", e[i].name, err.message);
        else if (!strcmp(e[i].state, "ACTIVE")) SL_INFO("qm", "query=%s resumed", e[i].name);
    }
    sl_arena_free(a);
}

int qm_launch(qm_t *qm, const char *name, sl_error_t *err)
{
    sl_arena_t *a = sl_arena_new("qm");
    cat_entry_t e;
    int rc = cat_lookup(qm->srv->cat, name, a, &e)
                 ? register_query(qm, name, e.sql, "ACTIVE", err)
                 : sl_error_set(err, SL_ERR_UNDEFINED_TABLE, "query \"%s\" does not exist", name);
    sl_arena_free(a);
    return rc;
}

/* Asks a running driver to stop and joins it. Called without the lock. */
static void stop_and_join(qm_t *qm, qm_query_t *q)
{
    pthread_mutex_lock(&qm->lock);
    if (!q->thread_live) {
        pthread_mutex_unlock(&qm->lock);
        return;
    }
    q->stop = true;
    atomic_store(&q->stopping, 1);
    atomic_store(&q->cancel, 1);
    qm_wake_locked(q);
    pthread_t t = q->thread;
    pthread_mutex_unlock(&qm->lock);
    pthread_join(t, NULL);
    pthread_mutex_lock(&qm->lock);
    q->thread_live = false;
    q->stop = false;
    atomic_store(&q->stopping, 0);
    atomic_store(&q->cancel, 0);
    qm_query_unref_locked(q); /* the driver's reference */
    pthread_mutex_unlock(&qm->lock);
}

static qm_query_t *find_ref(qm_t *qm, const char *name, sl_error_t *err)
{
    pthread_mutex_lock(&qm->lock);
    qm_query_t *q = qm_find_locked(qm, name);
    if (q) q->refs++;
    pthread_mutex_unlock(&qm->lock);
    if (!q) sl_error_set(err, SL_ERR_UNDEFINED_TABLE, "query \"%s\" does not exist", name);
    return q;
}

static void unref(qm_t *qm, qm_query_t *q)
{
    pthread_mutex_lock(&qm->lock);
    qm_query_unref_locked(q);
    pthread_mutex_unlock(&qm->lock);
}

int qm_stop(qm_t *qm, const char *name, sl_error_t *err)
{
    qm_query_t *q = find_ref(qm, name, err);
    if (!q) return -1;
    pthread_mutex_lock(&qm->lock);
    int was_active = q->status == QM_ACTIVE;
    pthread_mutex_unlock(&qm->lock);
    stop_and_join(qm, q);
    unref(qm, q);
    if (cat_set_state(qm->srv->cat, name, "STOPPED", err) < 0) return -1;
    return was_active;
}

/* Plans a stopped query's definition and compares it with its checkpoint,
 * so that START refuses what the driver would fail on before any batch. */
static int check_startable(qm_t *qm, qm_query_t *q, sl_error_t *err)
{
    pthread_mutex_lock(&qm->lock);
    char *sql = sl_xstrdup(q->sql);
    pthread_mutex_unlock(&qm->lock);
    sl_arena_t *a = sl_arena_new("qm-start");
    qplan_t plan;
    int rc = qplan_from_text(qm->srv, sql, a, &plan, err) < 0 ||
                     qplan_check_checkpoint(&plan, a, err) < 0
                 ? -1
                 : 0;
    sl_arena_free(a);
    free(sql);
    if (rc < 0) {
        pthread_mutex_lock(&qm->lock);
        if (!q->thread_live) qm_fail_locked(q, err);
        pthread_mutex_unlock(&qm->lock);
        sl_error_t ignored;
        cat_set_state(qm->srv->cat, q->name, "FAILED", &ignored);
    }
    return rc;
}

int qm_start(qm_t *qm, const char *name, sl_error_t *err)
{
    qm_query_t *q = find_ref(qm, name, err);
    if (!q) return -1;
    pthread_mutex_lock(&qm->lock);
    bool reap = q->thread_live && q->exited;
    pthread_mutex_unlock(&qm->lock);
    if (reap) stop_and_join(qm, q); /* a finished or failed run: collect its thread */
    pthread_mutex_lock(&qm->lock);
    bool live = q->thread_live;
    pthread_mutex_unlock(&qm->lock);
    if (!live && check_startable(qm, q, err) < 0) {
        unref(qm, q);
        return -1;
    }
    pthread_mutex_lock(&qm->lock);
    int rc = 1;
    if (q->thread_live) rc = 0;
    else if (qm_driver_start_locked(q, err) < 0) rc = -1;
    qm_query_unref_locked(q);
    pthread_mutex_unlock(&qm->lock);
    if (rc == 1 && cat_set_state(qm->srv->cat, name, "ACTIVE", err) < 0) return -1;
    return rc;
}

int qm_set_sql(qm_t *qm, const char *name, const char *sql, sl_error_t *err)
{
    pthread_mutex_lock(&qm->lock);
    qm_query_t *q = qm_find_locked(qm, name);
    if (q) {
        free(q->sql);
        q->sql = sl_xstrdup(sql);
    }
    pthread_mutex_unlock(&qm->lock);
    if (!q) return sl_error_set(err, SL_ERR_UNDEFINED_TABLE, "query \"%s\" does not exist", name);
    return 0;
}

int qm_restart(qm_t *qm, const char *name, sl_error_t *err)
{
    qm_query_t *q = find_ref(qm, name, err);
    if (!q) return -1;
    pthread_mutex_lock(&qm->lock);
    bool active = q->thread_live && !q->exited;
    pthread_mutex_unlock(&qm->lock);
    int rc = 0;
    if (active) {
        stop_and_join(qm, q);
        rc = check_startable(qm, q, err);
        pthread_mutex_lock(&qm->lock);
        if (rc == 0 && !q->thread_live) rc = qm_driver_start_locked(q, err);
        pthread_mutex_unlock(&qm->lock);
    }
    unref(qm, q);
    return rc < 0 ? -1 : active;
}

int qm_drop(qm_t *qm, const char *name, sl_error_t *err)
{
    qm_query_t *q = find_ref(qm, name, err);
    if (!q) return -1;
    stop_and_join(qm, q);
    pthread_mutex_lock(&qm->lock);
    if (!q->dropped) {
        q->dropped = true;
        registry_remove_locked(qm, q);
        qm_query_unref_locked(q); /* the registry's reference */
    }
    qm_query_unref_locked(q);
    pthread_mutex_unlock(&qm->lock);
    return 0;
}

static void on_deliver_closed(uv_handle_t *h)
{
    qm_t *qm = h->data;
    qm->shutdown_done(qm->srv);
}

void qm_shutdown(qm_t *qm, void (*done)(srv_t *srv))
{
    pthread_mutex_lock(&qm->lock);
    int n = qm->nqueries;
    qm_query_t **all = sl_xcalloc((size_t)(n ? n : 1), sizeof *all);
    for (int i = 0; i < n; i++) {
        all[i] = qm->queries[i];
        all[i]->refs++;
    }
    pthread_mutex_unlock(&qm->lock);
    for (int i = 0; i < n; i++) stop_and_join(qm, all[i]);
    for (int i = 0; i < n; i++) unref(qm, all[i]);
    free(all);
    qm->closing = true;
    qm->shutdown_done = done;
    uv_close((uv_handle_t *)&qm->deliver, on_deliver_closed);
}

void qm_free(qm_t *qm)
{
    if (!qm) return;
    for (int i = 0; i < qm->nqueries; i++) qm_query_unref_locked(qm->queries[i]);
    while (qm->waits) {
        qm_wait_t *w = qm->waits;
        qm->waits = w->next;
        free(w);
    }
    free(qm->queries);
    pthread_mutex_destroy(&qm->lock);
    free(qm);
}

/* ---- snapshots ---- */

static const char *arena_dup(sl_arena_t *a, const char *s)
{
    return s ? sl_strdup(a, s) : NULL;
}

static void info_locked(const qm_query_t *q, sl_arena_t *a, qm_info_t *out)
{
    memset(out, 0, sizeof *out);
    out->name = arena_dup(a, q->name);
    out->id = arena_dup(a, q->id);
    out->run_id = arena_dup(a, q->run_id);
    out->status = q->status;
    out->status_name = status_names[q->status];
    out->last_error = arena_dup(a, q->last_error);
    out->sql = arena_dup(a, q->sql);
    out->sink = arena_dup(a, q->sink);
    out->output_mode = arena_dup(a, q->mode);
    out->trigger = arena_dup(a, q->trigger);
    out->checkpoint = arena_dup(a, q->checkpoint);
    out->last_batch_id = q->last_batch_id;
    out->triggers = q->triggers_started;
    out->input_rows_per_second = q->in_rate;
    out->processed_rows_per_second = q->proc_rate;
    if (q->has_watermark) {
        char ts[32];
        sl_format_iso_ms(q->watermark_ms, ts);
        out->watermark = sl_strdup(a, ts);
    }
    out->status_message = arena_dup(a, q->status_msg);
    out->is_data_available = q->data_available;
    out->is_trigger_active = q->trigger_active;
    if (q->nrecent)
        out->last_progress = arena_dup(a, q->recent[(q->recent_head + q->nrecent - 1) % QM_RECENT]);
}

int qm_list(qm_t *qm, sl_arena_t *a, qm_info_t **out)
{
    pthread_mutex_lock(&qm->lock);
    int n = qm->nqueries;
    qm_info_t *v = SL_NEW_ARRAY(a, qm_info_t, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) info_locked(qm->queries[i], a, &v[i]);
    pthread_mutex_unlock(&qm->lock);
    *out = v;
    return n;
}

int qm_get(qm_t *qm, const char *name, sl_arena_t *a, qm_info_t *out)
{
    pthread_mutex_lock(&qm->lock);
    qm_query_t *q = qm_find_locked(qm, name);
    if (q) info_locked(q, a, out);
    pthread_mutex_unlock(&qm->lock);
    return q != NULL;
}

int qm_progress(qm_t *qm, const char *name, int recent, sl_arena_t *a, const char ***out,
                sl_error_t *err)
{
    pthread_mutex_lock(&qm->lock);
    qm_query_t *q = qm_find_locked(qm, name);
    int n = -1;
    if (!q) {
        sl_error_set(err, SL_ERR_UNDEFINED_TABLE, "query \"%s\" does not exist", name);
    } else {
        int first = recent ? 0 : (q->nrecent ? q->nrecent - 1 : 0);
        n = q->nrecent - first;
        const char **v = SL_NEW_ARRAY(a, const char *, n > 0 ? n : 1);
        for (int i = 0; i < n; i++)
            v[i] = sl_strdup(a, q->recent[(q->recent_head + first + i) % QM_RECENT]);
        *out = v;
    }
    pthread_mutex_unlock(&qm->lock);
    return n;
}

static void on_deliver(uv_async_t *h)
{
    qm_t *qm = h->data;
    for (;;) {
        pthread_mutex_lock(&qm->lock);
        qm_wait_t **pp = &qm->waits, *w = NULL;
        while (*pp && !(*pp)->done) pp = &(*pp)->next;
        if (*pp) {
            w = *pp;
            *pp = w->next;
        }
        pthread_mutex_unlock(&qm->lock);
        if (!w) break;
        w->cb(w->arg, sl_error_isset(&w->result) ? &w->result : NULL);
        free(w);
    }
}
