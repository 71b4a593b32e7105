/* The driver thread of a continuous query (Spark's stream execution
 * thread): plans the query, creates its sources, sink and runner, then
 * runs triggers on schedule until it is stopped, finishes (ONCE, AVAILABLE
 * NOW) or fails, publishing status and progress after every trigger. */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/private_file.h"
#include "common/durable.h"
#include "common/clock.h"
#include "common/log.h"
#include "connectors/memtable.h"
#include "runtime/runner.h"
#include "server/catalog.h"
#include "server/inputs.h"
#include "server/qm_int.h"
#include "server/query_plan.h"

#define IDLE_POLL_MIN_MS 10
#define IDLE_POLL_MAX_MS 200
/* An idle query whose sources can tell when data arrives sleeps until
 * then, but triggers at least this often: its idle progress report (Spark
 * reports an idle query every 10 s). */
#define IDLE_SLEEP_MAX_MS 10000
#define MAX_WATCHED_SOURCES 64

typedef struct qrun {
    sl_arena_t *arena;
    qplan_t plan;
    int nsources;
    source_t **sources;
    sink_t *sink;
    runner_t *runner;
} qrun_t;

static int create_sources(qm_query_t *q, qrun_t *r, sl_error_t *err)
{
    const plan_physical_t *p = r->plan.phys;
    r->nsources = p->nsources;
    r->sources = SL_NEW_ARRAY(r->arena, source_t *, p->nsources + 1);
    for (int i = 0; i < p->nsources; i++) {
        const char *dir = sl_printf(r->arena, "%s/sources/%d", r->plan.def.checkpoint, i);
        if (sl_fs_mkdirs(dir, SL_PRIVATE_DIR_MODE, err) < 0) return -1;
        if (source_create(&p->sources[i]->stream, i, dir, q->name, r->arena, &r->sources[i], err) <
            0)
            return -1;
    }
    return 0;
}

/* Runner inputs: streams by source index, everything else from inputs.c. */
static runner_input_t *runner_inputs(srv_t *srv, qrun_t *r, int *n)
{
    const plan_physical_t *p = r->plan.phys;
    exec_input_t *statics;
    int ns = inputs_static(srv, NULL, p, 1, r->arena, &statics), k = 0;
    runner_input_t *v = SL_NEW_ARRAY(r->arena, runner_input_t, p->ninputs + 1);
    for (int i = 0; i < p->ninputs; i++)
        if (p->inputs[i].kind == PLAN_INPUT_STREAM)
            v[k++] = (runner_input_t){.leaf = p->inputs[i].leaf, .source = p->inputs[i].source};
    for (int i = 0; i < ns; i++)
        v[k++] = (runner_input_t){.leaf = statics[i].leaf,
                                  .source = -1,
                                  .produce = statics[i].produce,
                                  .arg = statics[i].arg};
    *n = k;
    return v;
}

static int qrun_setup(qm_query_t *q, const char *sql, qrun_t *r, sl_error_t *err)
{
    srv_t *srv = q->qm->srv;
    r->arena = sl_arena_new("query");
    if (qplan_from_text(srv, sql, r->arena, &r->plan, err) < 0 ||
        qplan_check_checkpoint(&r->plan, r->arena, err) < 0) /* before sources and sink exist */
        return -1;
    const qdef_t *d = &r->plan.def;
    if (sl_fs_mkdirs(d->checkpoint, SL_PRIVATE_DIR_MODE, err) < 0) return -1;
    if (create_sources(q, r, err) < 0) return -1;
    sink_env_t env = {
        .memtables = srv->memtables, .io_pool = srv->io_pool, .checkpoint = d->checkpoint};
    if (sink_create(d->sink, q->name, srv->conf->data_directory, d->mode, &r->plan.schema,
                    d->sink_opts, d->nsink_opts, &env, r->arena, &r->sink, err) < 0)
        return -1;
    runner_spec_t spec;
    qplan_checkpoint_spec(&r->plan, r->arena, &spec);
    spec.name = q->name;
    spec.root = r->plan.phys->root;
    spec.sources = r->sources;
    spec.sink = r->sink;
    spec.nwatermarks = r->plan.phys->nwatermarks;
    spec.watermarks = r->plan.phys->watermarks;
    spec.wm_delays = r->plan.phys->wm_delays;
    spec.mode = r->plan.mode;
    spec.npartitions = d->shuffle_partitions;
    spec.state_provider = d->state_store;
    spec.watermark_policy = d->watermark_policy;
    spec.limit = d->trigger == QTRIG_ONCE ? SOURCE_LIMIT_ALL : SOURCE_LIMIT_DEFAULT;
    spec.min_batches_to_retain = d->min_batches_to_retain;
    spec.state_max_memory = d->state_max_memory;
    spec.pool = srv->pool;
    spec.io_pool = srv->io_pool;
    spec.cancel = &q->cancel;
    spec.inputs = runner_inputs(srv, r, &spec.ninputs);
    if (!(r->runner = runner_open(&spec, err))) return -1;
    if (d->trigger == QTRIG_AVAILABLE_NOW && runner_prepare_available_now(r->runner, err) < 0)
        return -1;
    return 0;
}

static void qrun_teardown(qrun_t *r)
{
    runner_close(r->runner);
    for (int i = 0; i < r->nsources; i++)
        if (r->sources && r->sources[i] && r->sources[i]->ops->destroy)
            r->sources[i]->ops->destroy(r->sources[i]);
    if (r->sink && r->sink->ops->destroy) r->sink->ops->destroy(r->sink);
    sl_arena_free(r->arena);
    sl_heap_release_free(); /* the state held by the run, back to the system */
}

static void set_str(char **slot, const char *v)
{
    free(*slot);
    *slot = v ? sl_xstrdup(v) : NULL;
}

/* After setup: what SHOW QUERIES and the HTTP API show of the definition. */
static void publish_definition(qm_query_t *q, qrun_t *r)
{
    const qdef_t *d = &r->plan.def;
    set_str(&q->id, runner_query_id(r->runner));
    set_str(&q->run_id, runner_run_id(r->runner));
    set_str(&q->sink, d->sink->name);
    set_str(&q->mode, output_mode_name(d->mode));
    set_str(&q->trigger, qdef_trigger_text(d, r->arena));
    set_str(&q->checkpoint, d->checkpoint);
    q->has_watermark = runner_has_watermark(r->runner);
    q->watermark_ms = runner_watermark(r->runner);
    q->last_batch_id = runner_next_batch(r->runner) - 1;
}

static void publish_trigger(qm_query_t *q, qrun_t *r, int64_t index)
{
    int is_new;
    const char *p = runner_last_progress(r->runner, &is_new);
    if (p && is_new) {
        int slot = (q->recent_head + q->nrecent) % QM_RECENT;
        if (q->nrecent == QM_RECENT) {
            free(q->recent[q->recent_head]);
            q->recent_head = (q->recent_head + 1) % QM_RECENT;
        } else {
            q->nrecent++;
        }
        q->recent[slot] = sl_xstrdup(p);
        runner_last_rates(r->runner, &q->in_rate, &q->proc_rate);
    }
    q->last_batch_id = runner_next_batch(r->runner) - 1;
    q->watermark_ms = runner_watermark(r->runner);
    q->data_available = runner_data_available(r->runner);
    q->trigger_active = 0;
    set_str(&q->status_msg, runner_status_message(r->runner));
    q->caught_up = runner_caught_up(r->runner);
    q->last_done = index;
    qm_waits_on_trigger_locked(q);
}

void qm_fail_locked(qm_query_t *q, const sl_error_t *err)
{
    q->status = QM_FAILED;
    set_str(&q->last_error, err->message);
    snprintf(q->last_error_state, sizeof q->last_error_state, "%s", err->sqlstate);
    char msg[600];
    snprintf(msg, sizeof msg, "Terminated with exception: %s", err->message);
    set_str(&q->status_msg, msg);
    SL_ERROR("qm", "query=%s failed: %s", q->name, err->message);
}

/* How long to wait before the next trigger (ms), by the trigger kind. */
static int64_t next_delay(const qrun_t *r, runner_outcome_t out, int64_t start_ms, int64_t *idle_ms)
{
    const qdef_t *d = &r->plan.def;
    if (d->trigger == QTRIG_PROCESSING_TIME && d->interval_ms > 0) {
        int64_t next = (start_ms / d->interval_ms + 1) * d->interval_ms;
        int64_t now = sl_now_ms();
        if (now > next)
            SL_WARN("qm",
                    "query=%s current batch is falling behind: the trigger interval is %lld ms "
                    "but the batch took %lld ms",
                    d->name, (long long)d->interval_ms, (long long)(now - start_ms));
        return next > now ? next - now : 0;
    }
    if (out == RUNNER_RAN || d->trigger == QTRIG_CONTINUOUS) {
        *idle_ms = IDLE_POLL_MIN_MS;
        return 0;
    }
    int64_t w = *idle_ms;
    *idle_ms = w * 2 > IDLE_POLL_MAX_MS ? IDLE_POLL_MAX_MS : w * 2;
    return w;
}

/* Sleeps until the delay passes or the query is woken (stop, await). Lock held. */
static void wait_locked(qm_query_t *q, int64_t delay_ms)
{
    if (delay_ms <= 0 || q->stop || q->wake) return;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_sec += delay_ms / 1000;
    ts.tv_nsec += (delay_ms % 1000) * 1000000;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    while (!q->stop && !q->wake)
        if (pthread_cond_timedwait(&q->cond, &q->qm->lock, &ts) == ETIMEDOUT) break;
}

/* Sleeps until one of `fds` (the sources' change descriptors) is readable,
 * the query is woken (stop, await) or IDLE_SLEEP_MAX_MS pass. Lock held;
 * released while asleep. */
static void sleep_until_change_locked(qm_query_t *q, const int *fds, int n)
{
    if (q->stop || q->wake) return;
    struct pollfd p[MAX_WATCHED_SOURCES + 1];
    p[0] = (struct pollfd){.fd = q->wake_fd, .events = POLLIN};
    for (int i = 0; i < n; i++) p[i + 1] = (struct pollfd){.fd = fds[i], .events = POLLIN};
    pthread_mutex_unlock(&q->qm->lock);
    if (poll(p, (nfds_t)n + 1, IDLE_SLEEP_MAX_MS) < 0 && errno != EINTR)
        SL_WARN("qm", "query=%s poll: %s", q->name, strerror(errno));
    uint64_t v;
    if (read(q->wake_fd, &v, sizeof v) < 0 && errno != EAGAIN)
        SL_WARN("qm", "query=%s reading its wake counter: %s", q->name, strerror(errno));
    pthread_mutex_lock(&q->qm->lock);
}

/* The wait after a trigger: an idle query with sources that can notify
 * sleeps until data may have arrived; otherwise the trigger's delay. */
static void wait_next_locked(qm_query_t *q, qrun_t *r, runner_outcome_t out, int64_t delay_ms)
{
    int fds[MAX_WATCHED_SOURCES], n;
    if (out == RUNNER_IDLE && r->plan.def.trigger == QTRIG_DEFAULT && q->wake_fd >= 0 &&
        (n = runner_change_fds(r->runner, fds, MAX_WATCHED_SOURCES)) >= 0)
        sleep_until_change_locked(q, fds, n);
    else wait_locked(q, delay_ms);
}

/* The trigger loop; returns with the lock held. */
static void trigger_loop(qm_query_t *q, qrun_t *r)
{
    qm_t *qm = q->qm;
    int64_t idle_ms = IDLE_POLL_MIN_MS;
    qdef_trigger_t kind = r->plan.def.trigger;
    pthread_mutex_lock(&qm->lock);
    while (!q->stop) {
        int64_t index = ++q->triggers_started;
        q->wake = false;
        q->trigger_active = 1;
        pthread_mutex_unlock(&qm->lock);
        int64_t start = sl_now_ms();
        runner_outcome_t out;
        sl_error_t err;
        sl_error_clear(&err);
        int rc = kind == QTRIG_CONTINUOUS ? runner_run_epoch(r->runner, r->plan.def.interval_ms,
                                                             &q->stopping, &out, &err)
                                          : runner_trigger(r->runner, &out, &err);
        pthread_mutex_lock(&qm->lock);
        publish_trigger(q, r, index);
        if (rc < 0 && q->stop && !strcmp(err.sqlstate, SL_ERR_QUERY_CANCELED)) {
            SL_INFO("qm", "query=%s batch abandoned by the stop; it runs again at the next start",
                    q->name);
            return;
        }
        if (rc < 0) {
            qm_fail_locked(q, &err);
            return;
        }
        if (kind == QTRIG_ONCE || (kind == QTRIG_AVAILABLE_NOW && out == RUNNER_IDLE)) {
            q->status = QM_FINISHED;
            return;
        }
        wait_next_locked(q, r, out, next_delay(r, out, start, &idle_ms));
    }
}

static void *driver_main(void *arg)
{
    qm_query_t *q = arg;
    qm_t *qm = q->qm;
    char tname[16]; /* "q:<query>" as top -H and perf show the thread */
    snprintf(tname, sizeof tname, "q:%s", q->name);
    pthread_setname_np(pthread_self(), tname);
    pthread_mutex_lock(&qm->lock);
    char *sql = sl_xstrdup(q->sql);
    pthread_mutex_unlock(&qm->lock);
    qrun_t r = {0};
    sl_error_t err;
    sl_error_clear(&err);
    if (qrun_setup(q, sql, &r, &err) < 0) {
        pthread_mutex_lock(&qm->lock);
        qm_fail_locked(q, &err);
    } else {
        pthread_mutex_lock(&qm->lock);
        publish_definition(q, &r);
        q->ends_itself =
            r.plan.def.trigger == QTRIG_ONCE || r.plan.def.trigger == QTRIG_AVAILABLE_NOW;
        pthread_mutex_unlock(&qm->lock);
        SL_INFO("qm", "query=%s started id=%s run_id=%s", q->name, runner_query_id(r.runner),
                runner_run_id(r.runner));
        trigger_loop(q, &r);
    }
    qm_status_t st = q->status == QM_ACTIVE ? QM_STOPPED : q->status;
    q->status = st;
    q->trigger_active = 0;
    if (st == QM_STOPPED) set_str(&q->status_msg, "Stopped");
    q->exited = true;
    qm_waits_on_end_locked(q);
    pthread_mutex_unlock(&qm->lock);
    if (st == QM_FINISHED || st == QM_FAILED)
        cat_set_state(qm->srv->cat, q->name, st == QM_FINISHED ? "FINISHED" : "FAILED", &err);
    SL_INFO("qm", "query=%s %s", q->name,
            st == QM_STOPPED    ? "stopped"
            : st == QM_FINISHED ? "finished"
                                : "failed");
    qrun_teardown(&r);
    free(sql);
    return NULL;
}

int qm_driver_start_locked(qm_query_t *q, sl_error_t *err)
{
    q->status = QM_ACTIVE;
    q->stop = false;
    q->exited = false;
    q->wake = false;
    free(q->last_error);
    q->last_error = NULL;
    q->last_error_state[0] = '\0';
    set_str(&q->status_msg, "Initializing sources");
    q->refs++; /* the driver's */
    if (pthread_create(&q->thread, NULL, driver_main, q) != 0) {
        q->refs--;
        q->status = QM_FAILED;
        return sl_error_set(err, SL_ERR_INTERNAL_ERROR,
                            "could not start the driver thread of query \"%s\"", q->name);
    }
    q->thread_live = true;
    return 0;
}
