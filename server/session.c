/* Sessions: copying a submission, running it on the worker pool (parse, then
 * each statement in turn), pausing at AWAIT QUERY until the query manager
 * answers (on the loop thread, with a timer for its TIMEOUT), pausing a
 * statement that found the table store's write lock held until a writer's
 * transaction ends (on the loop thread, in the store's wake-up list, with
 * a backoff timer) to run it again, and handing the reply back on the loop
 * thread. */
#include "server/session.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/log.h"
#include "common/sl_assert.h"
#include "parser/parser.h"
#include "server/guc.h"
#include "server/prepared.h"
#include "server/copy_in.h"
#include "server/qm.h"
#include "server/stmt.h"
#include "server/table_store.h"
#include "server/txn.h"

/* Values of the cancel flag: why the running statement must stop. */
enum { CANCEL_NONE, CANCEL_USER, CANCEL_TIMEOUT };

/* The backoff of a statement waiting for the write lock: its fallback
 * retries, should no wake-up come (the wake-up list answers first). */
enum { LOCK_RETRY_FIRST_MS = 10, LOCK_RETRY_MAX_MS = 200 };

struct sess {
    srv_t *srv;
    char *user;
    char *database;
    uv_work_t work;
    int in_flight;        /* a submission is queued, running or awaiting */
    int closing;          /* sess_close() called while in flight */
    atomic_int cancel;    /* CANCEL_* */
    guc_t *guc;           /* settings, used by the running statement (guc.h) */
    txn_t *txn;           /* transaction state, likewise */
    prep_list_t prepared; /* prepared statements (Parse and PREPARE) */
    uv_timer_t stimer;    /* statement_timeout of the submission in flight */
    int stimer_init;
    int handles; /* timer handles not yet closed */
    /* the submission in flight */
    char *sql;
    size_t len;
    sess_request_t req;
    char **params;
    int *param_lens;
    uint32_t *param_types; /* NULL when the request declared none */
    sess_reply_t *reply;
    exec_type_t *inferred; /* describe_only: ninferred inferred types, in the reply arena */
    int ninferred;         /* max(req.nparams, highest $n) */
    sess_result_t *tail;   /* last result of the reply */
    sess_done_cb cb;
    void *cb_arg;
    sl_arena_t *parse_arena; /* the parsed statements, kept across an AWAIT */
    ast_stmt_list_t list;
    int next_stmt; /* index of the next statement to run */
    /* AWAIT QUERY: the worker asks for it, the loop thread parks on it */
    char await_name[256]; /* worker: set with await_next, read by after_work_cb */
    int64_t await_timeout_ms;
    int await_next; /* worker: the last statement run is an AWAIT */
    int awaiting;   /* loop thread: parked in qm_await, wait_id names the wait */
    uint64_t wait_id;
    uv_timer_t timer; /* AWAIT's TIMEOUT, or the lock wait's backoff */
    int timer_init;
    /* the write lock: the worker finds it held, the loop thread parks */
    int lock_next;          /* worker: statement next_stmt must run again */
    uint64_t lock_releases; /* worker: tstore_releases() before it ran */
    int lock_waiting;       /* loop thread: parked in the store's wake-up list */
    int64_t lock_since_ms;  /* when the statement first found the lock held; 0: it did not */
    int64_t lock_backoff_ms;
    tstore_waiter_t lock_waiter;
    int copies; /* COPY FROM loads using the transaction (sess_copy_begin) */
};

const char *sess_user(const sess_t *s)
{
    return s->user;
}

const char *sess_database(const sess_t *s)
{
    return s->database;
}

sess_t *sess_new(srv_t *srv, const char *user, const char *database)
{
    sess_t *s = sl_xcalloc(1, sizeof *s);
    s->srv = srv;
    s->user = sl_xstrdup(user ? user : "");
    s->database = sl_xstrdup(database ? database : "");
    s->work.data = s;
    s->guc = guc_new(s->user);
    s->txn = txn_new(srv, s->guc);
    return s;
}

static void submission_free(sess_t *s)
{
    /* s->params holds s->req.nparams entries only while it is not NULL: the
     * count is cleared with the array, so a second call (a session closed
     * after its last submission was freed) frees nothing. */
    if (s->params)
        for (int i = 0; i < s->req.nparams; i++) free(s->params[i]);
    free(s->params);
    free(s->param_lens);
    free(s->param_types);
    free(s->sql);
    sl_arena_free(s->parse_arena);
    s->parse_arena = NULL;
    s->params = NULL;
    s->param_lens = NULL;
    s->param_types = NULL;
    s->inferred = NULL;
    s->req.nparams = 0;
    s->sql = NULL;
}

static void sess_free_now(sess_t *s)
{
    submission_free(s);
    prep_clear(&s->prepared);
    txn_free(s->txn);
    tstore_wake(s->srv->tstore); /* its write lock, if it held it, is free */
    guc_free(s->guc);
    free(s->user);
    free(s->database);
    free(s);
}

static void on_timer_closed(uv_handle_t *h)
{
    sess_t *s = h->data;
    if (--s->handles == 0) sess_free_now(s);
}

/* Frees the session, after closing its timer handles. Loop thread. */
static void sess_free(sess_t *s)
{
    s->handles = s->timer_init + s->stimer_init;
    if (s->timer_init) uv_close((uv_handle_t *)&s->timer, on_timer_closed);
    if (s->stimer_init) uv_close((uv_handle_t *)&s->stimer, on_timer_closed);
    if (!s->handles) sess_free_now(s);
}

void sess_reply_free(sess_reply_t *reply)
{
    if (!reply) return;
    for (sess_result_t *r = reply->first; r; r = r->next) {
        sl_buf_free(&r->rows);
        if (r->copy_in) copy_in_close(r->copy_in);
    }
    sl_arena_free(reply->arena);
    free(reply);
}

static sess_result_t *result_append(sess_t *s)
{
    sess_result_t *r = SL_NEW(s->reply->arena, sess_result_t);
    if (s->tail) s->tail->next = r;
    else s->reply->first = r;
    s->tail = r;
    return r;
}

/* A statement error: converts its byte position into characters. */
static void result_error(sess_t *s, sess_result_t *r, const sl_error_t *err)
{
    sl_buf_free(&r->rows);
    r->nrows = 0;
    r->kind = SESS_RES_ERROR;
    sl_error_copy(&r->error, err);
    if (!strcmp(err->sqlstate, SL_ERR_QUERY_CANCELED) &&
        atomic_load(&s->cancel) == CANCEL_TIMEOUT) {
        sl_error_clear(&r->error);
        sl_error_set(&r->error, SL_ERR_QUERY_CANCELED,
                     "canceling statement due to statement timeout");
    }
    txn_fail(s->txn);
    if (err->position > 0)
        r->error.position = parse_char_position(s->sql, s->len, (size_t)err->position - 1);
    if (!r->error.sqlstate[0]) snprintf(r->error.sqlstate, 6, "%s", SL_ERR_INTERNAL_ERROR);
}

/* A result of a statement that runs again: as new. */
static sess_result_t *result_reset(sess_result_t *r)
{
    sl_buf_free(&r->rows);
    sess_result_t *next = r->next;
    memset(r, 0, sizeof *r);
    r->next = next;
    return r;
}

/* Runs statements from s->next_stmt until the end, an error, an AWAIT or
 * a statement that found the write lock held (it runs again later, into
 * the same result). */
static void run_statements(sess_t *s)
{
    stmt_ctx_t ctx = {
        .srv = s->srv,
        .sess = s,
        .arena = sl_arena_new("statement"),
        .reply_arena = s->reply->arena,
        .sql = s->sql,
        .len = s->len,
        .nparams = s->req.nparams,
        .params = (const char *const *)s->params,
        .param_lens = s->param_lens,
        .param_types = s->param_types,
        .param_inferred = s->inferred,
        .cancel = &s->cancel,
        .describe_only = s->req.describe_only,
    };
    while (s->next_stmt < s->list.n) {
        sess_result_t *r = s->lock_since_ms ? result_reset(s->tail) : result_append(s);
        sl_error_t err;
        sl_error_clear(&err);
        ctx.await_query = NULL;
        if (atomic_load(&s->cancel))
            sl_error_set(&err, SL_ERR_QUERY_CANCELED, "canceling statement due to user request");
        s->lock_releases = tstore_releases(s->srv->tstore);
        int ok = !sl_error_isset(&err) &&
                 stmt_execute(&ctx, s->list.items[s->next_stmt++], r, &err) == 0;
        if (txn_lock_busy(s->txn) && !ok) {
            result_reset(r);
            s->next_stmt--;
            s->lock_next = 1;
            break;
        }
        s->lock_since_ms = 0;
        /* a COPY FROM's statement ends with its data (server/copy_in.h) */
        if (!(ok && r->kind == SESS_RES_COPY_IN) && txn_statement_end(s->txn, ok, &err) < 0) ok = 0;
        if (!ok) {
            result_error(s, r, &err);
            s->next_stmt = s->list.n;
            break;
        }
        if (r->kind == SESS_RES_COPY_IN) { /* the connection runs the COPY, then the rest */
            if (s->next_stmt < s->list.n) {
                int at = s->list.items[s->next_stmt]->pos;
                r->rest = sl_strndup(s->reply->arena, s->sql + at, s->len - (size_t)at);
            }
            s->next_stmt = s->list.n;
            break;
        }
        if (ctx.await_query) {
            snprintf(s->await_name, sizeof s->await_name, "%s", ctx.await_query);
            s->await_timeout_ms = ctx.await_timeout_ms;
            s->await_next = 1;
            break;
        }
        sl_arena_reset(ctx.arena);
    }
    sl_arena_free(ctx.arena);
}

/* The first run of a submission: parse, then run. */
static void parse_submission(sess_t *s)
{
    sl_error_t err;
    sl_error_clear(&err);
    s->parse_arena = sl_arena_new("parse");
    if (parse_sql(s->sql, s->len, s->parse_arena, &s->list, &err) < 0) {
        sess_result_t *r = result_append(s);
        r->kind = SESS_RES_ERROR;
        sl_error_copy(&r->error, &err); /* the parser reports character positions */
        txn_fail(s->txn);
        s->list.n = 0;
    } else if (s->list.n == 0) {
        result_append(s)->kind = SESS_RES_EMPTY;
    } else if (s->req.single && s->list.n > 1) {
        sl_error_set(&err, SL_ERR_SYNTAX_ERROR,
                     "cannot insert multiple commands into a prepared statement");
        result_error(s, result_append(s), &err);
        s->list.n = 0;
    } else {
        s->reply->nparams = s->list.max_param;
    }
}

/* Describing: room for the type of every $n the statement uses. */
static void start_inference(sess_t *s)
{
    s->ninferred = s->req.nparams > s->reply->nparams ? s->req.nparams : s->reply->nparams;
    s->inferred = s->req.describe_only && s->ninferred > 0
                      ? SL_NEW_ARRAY(s->reply->arena, exec_type_t, s->ninferred)
                      : NULL;
}

/* Describing: the OIDs of the inferred parameter types, into the reply. */
static void report_inferred(sess_t *s)
{
    if (!s->inferred) return;
    s->reply->param_types = SL_NEW_ARRAY(s->reply->arena, uint32_t, s->ninferred);
    for (int i = 0; i < s->ninferred; i++)
        if (s->inferred[i].id != EXEC_TYPE_NULL)
            s->reply->param_types[i] = exec_type_pg(s->inferred[i]).oid;
}

static void work_cb(uv_work_t *w)
{
    sess_t *s = w->data;
    if (!s->reply) {
        s->reply = sl_xcalloc(1, sizeof *s->reply);
        s->reply->arena = sl_arena_new("reply");
        s->tail = NULL;
        s->next_stmt = 0;
        parse_submission(s);
        start_inference(s);
    } else {
        /* after an AWAIT, on whichever pool thread libuv picked: the loop
         * thread's queueing hands the submission's arenas to this one */
        sl_arena_adopt(s->reply->arena);
        sl_arena_adopt(s->parse_arena);
    }
    run_statements(s);
    report_inferred(s);
}

/* Hands the reply over and ends the submission. Loop thread. */
static void finish_submission(sess_t *s)
{
    SL_ASSERT(s->in_flight && !s->awaiting && !s->lock_waiting);
    sess_reply_t *reply = s->reply;
    s->reply = NULL;
    s->lock_since_ms = 0;
    if (s->stimer_init) uv_timer_stop(&s->stimer);
    submission_free(s);
    if (s->closing) {
        sess_reply_free(reply); /* in flight still: a COPY it holds ends without freeing s */
        s->in_flight = 0;
        if (!s->copies) sess_free(s);
        return;
    }
    s->in_flight = 0;
    s->cb(s, reply, s->cb_arg);
}

static void after_work_cb(uv_work_t *w, int status);

static void continue_submission(sess_t *s)
{
    if (s->next_stmt < s->list.n && !s->closing) {
        uv_queue_work(s->srv->loop, &s->work, work_cb, after_work_cb);
        return;
    }
    finish_submission(s);
}

/* The end of an AWAIT: its result, then the rest of the submission. */
static void await_done(sess_t *s, const sl_error_t *err)
{
    s->awaiting = 0;
    s->wait_id = 0;
    if (s->timer_init) uv_timer_stop(&s->timer);
    if (err) {
        result_error(s, s->tail, err);
        s->next_stmt = s->list.n;
    }
    continue_submission(s);
}

static void on_await(void *arg, const sl_error_t *err)
{
    await_done(arg, err);
}

static void on_await_timeout(uv_timer_t *t)
{
    sess_t *s = t->data;
    qm_await_cancel(s->srv->qm, s->wait_id);
    sl_error_t err;
    sl_error_set(&err, SL_ERR_QUERY_CANCELED,
                 "timed out waiting for query \"%s\" to process all "
                 "available data",
                 s->await_name);
    sl_error_hint(&err, "SHOW PROGRESS %s shows what the query is doing.", s->await_name);
    await_done(s, &err);
}

/* The session's timer (AWAIT's TIMEOUT, or the lock wait's backoff). */
static void timer_start(sess_t *s, uv_timer_cb cb, int64_t ms)
{
    if (!s->timer_init) {
        uv_timer_init(s->srv->loop, &s->timer);
        s->timer.data = s;
        s->timer_init = 1;
    }
    uv_timer_start(&s->timer, cb, (uint64_t)ms, 0);
}

static void start_await(sess_t *s)
{
    sl_error_t err;
    s->await_next = 0;
    if (qm_await(s->srv->qm, s->await_name, on_await, s, &s->wait_id, &err) < 0) {
        await_done(s, &err);
        return;
    }
    s->awaiting = 1; /* qm answers through its async handle, never from inside qm_await */
    if (s->await_timeout_ms >= 0) timer_start(s, on_await_timeout, s->await_timeout_ms);
}

/* Leaves the wake-up list and stops the backoff timer. */
static void lock_unpark(sess_t *s)
{
    s->lock_waiting = 0;
    tstore_wait_remove(s->srv->tstore, &s->lock_waiter);
    if (s->timer_init) uv_timer_stop(&s->timer);
}

/* The wait for the write lock ended without it: the statement fails. */
static void lock_wait_fail(sess_t *s, const sl_error_t *err)
{
    lock_unpark(s);
    s->lock_since_ms = 0;
    result_error(s, s->tail, err);
    s->next_stmt = s->list.n;
    continue_submission(s);
}

/* A writer's transaction ended, or the backoff passed: the statement that
 * waited runs again on a worker. */
static void lock_retry(sess_t *s)
{
    lock_unpark(s);
    uv_queue_work(s->srv->loop, &s->work, work_cb, after_work_cb);
}

static void on_lock_released(void *arg)
{
    lock_retry(arg);
}

static void on_lock_timer(uv_timer_t *t)
{
    lock_retry(t->data);
}

/* The statement found the write lock held: it parks until a writer's
 * transaction ends or its backoff passes, unless its lock_timeout passed or
 * a cancel came meanwhile. */
static void start_lock_wait(sess_t *s)
{
    s->lock_next = 0;
    int64_t now = sl_mono_ms();
    if (!s->lock_since_ms) {
        SL_DEBUG("session", "user=%s waits for the table write lock", s->user);
        s->lock_since_ms = now;
        s->lock_backoff_ms = LOCK_RETRY_FIRST_MS;
    }
    int64_t limit = guc_int(s->guc, GUC_LOCK_TIMEOUT), waited = now - s->lock_since_ms;
    sl_error_t err;
    if (limit > 0 && waited >= limit) {
        sl_error_set(&err, SL_ERR_LOCK_NOT_AVAILABLE, "canceling statement due to lock timeout");
        lock_wait_fail(s, &err);
        return;
    }
    if (atomic_load(&s->cancel)) { /* result_error names a statement timeout */
        sl_error_set(&err, SL_ERR_QUERY_CANCELED, "canceling statement due to user request");
        lock_wait_fail(s, &err);
        return;
    }
    if (tstore_releases(s->srv->tstore) != s->lock_releases) { /* released meanwhile */
        lock_retry(s);
        return;
    }
    s->lock_waiting = 1;
    tstore_wait_add(s->srv->tstore, &s->lock_waiter, on_lock_released, s);
    int64_t ms = s->lock_backoff_ms;
    if (limit > 0 && limit - waited < ms) ms = limit - waited;
    timer_start(s, on_lock_timer, ms);
    s->lock_backoff_ms =
        s->lock_backoff_ms * 2 > LOCK_RETRY_MAX_MS ? LOCK_RETRY_MAX_MS : s->lock_backoff_ms * 2;
}

static void after_work_cb(uv_work_t *w, int status)
{
    (void)status;
    sess_t *s = w->data;
    SL_ASSERT(s->in_flight && !s->awaiting && !s->lock_waiting);
    tstore_wake(s->srv->tstore); /* sessions waiting for a lock it released try again */
    if (s->lock_next && !s->closing) {
        start_lock_wait(s);
        return;
    }
    s->lock_next = 0;
    if (s->await_next && !s->closing) {
        start_await(s);
        return;
    }
    s->await_next = 0;
    continue_submission(s);
}

/* True when the submission waits in AWAIT on the loop thread, not on a
 * worker (which reads the cancel flag itself). Loop thread. */
static void on_statement_timeout(uv_timer_t *t)
{
    sess_t *s = t->data;
    atomic_store(&s->cancel, CANCEL_TIMEOUT);
    sl_error_t err;
    sl_error_set(&err, SL_ERR_QUERY_CANCELED, "canceling statement due to statement timeout");
    if (s->lock_waiting) {
        lock_wait_fail(s, &err);
        return;
    }
    if (!s->awaiting) return; /* a statement on a worker sees the flag */
    qm_await_cancel(s->srv->qm, s->wait_id);
    await_done(s, &err);
}

/* statement_timeout covers the whole submission, from the value in force
 * when it starts. Loop thread. */
static void start_statement_timer(sess_t *s)
{
    int64_t ms = guc_int(s->guc, GUC_STATEMENT_TIMEOUT);
    if (ms <= 0) return;
    if (!s->stimer_init) {
        uv_timer_init(s->srv->loop, &s->stimer);
        s->stimer.data = s;
        s->stimer_init = 1;
    }
    uv_timer_start(&s->stimer, on_statement_timeout, (uint64_t)ms, 0);
}

int sess_submit(sess_t *s, const sess_request_t *req, sess_done_cb cb, void *arg)
{
    if (s->in_flight || s->closing) return -1;
    SL_ASSERT(!s->awaiting && !s->params && !s->sql);
    s->req = *req;
    s->sql = sl_xstrndup(req->sql, req->len);
    s->len = req->len;
    s->req.sql = s->sql;
    if (req->nparams > 0) {
        s->params = sl_xcalloc((size_t)req->nparams, sizeof *s->params);
        s->param_lens = sl_xcalloc((size_t)req->nparams, sizeof *s->param_lens);
        for (int i = 0; i < req->nparams; i++) {
            if (!req->params[i]) continue;
            s->param_lens[i] = req->param_lens[i];
            s->params[i] = sl_xstrndup(req->params[i], (size_t)req->param_lens[i]);
        }
        if (req->param_types) {
            s->param_types = sl_xcalloc((size_t)req->nparams, sizeof *s->param_types);
            memcpy(s->param_types, req->param_types, sizeof *s->param_types * (size_t)req->nparams);
        }
    }
    s->req.params = NULL;
    s->req.param_lens = NULL;
    s->req.param_types = NULL;
    s->cb = cb;
    s->cb_arg = arg;
    s->in_flight = 1;
    atomic_store(&s->cancel, CANCEL_NONE);
    if (!req->describe_only) start_statement_timer(s);
    uv_queue_work(s->srv->loop, &s->work, work_cb, after_work_cb);
    return 0;
}

void sess_cancel(sess_t *s)
{
    atomic_store(&s->cancel, CANCEL_USER);
    sl_error_t err;
    sl_error_set(&err, SL_ERR_QUERY_CANCELED, "canceling statement due to user request");
    if (s->lock_waiting) { /* parked until the write lock is free */
        lock_wait_fail(s, &err);
        return;
    }
    if (!s->awaiting) return; /* a statement on a worker sees the flag */
    /* The session is parked in AWAIT, not on a worker. */
    qm_await_cancel(s->srv->qm, s->wait_id);
    await_done(s, &err);
}

int sess_busy(const sess_t *s)
{
    return s->in_flight;
}

void sess_close(sess_t *s)
{
    if (!s) return;
    SL_ASSERT(!s->closing);
    if (s->lock_waiting) { /* parked for the write lock: no worker holds the session */
        lock_unpark(s);
        s->closing = 1;
        finish_submission(s);
        return;
    }
    if (s->awaiting) { /* parked in AWAIT: no worker holds the session */
        SL_ASSERT(s->in_flight);
        qm_await_cancel(s->srv->qm, s->wait_id);
        s->awaiting = 0;
        s->wait_id = 0;
        s->closing = 1;
        finish_submission(s);
        return;
    }
    if (s->in_flight) {
        s->closing = 1;
        atomic_store(&s->cancel, CANCEL_USER);
        return;
    }
    if (s->copies) { /* a COPY's job may use the transaction: sess_copy_end frees */
        s->closing = 1;
        return;
    }
    sess_free(s);
}

void sess_copy_begin(sess_t *s)
{
    s->copies++;
}

void sess_copy_end(sess_t *s, int open)
{
    SL_ASSERT(s->copies > 0);
    s->copies--;
    if (s->closing) { /* txn_free rolls back what is open */
        if (!s->in_flight && !s->copies) sess_free(s);
        return;
    }
    if (!open) return;
    sl_error_t ignored; /* the COPY's data never came: it added nothing */
    txn_statement_end(s->txn, 0, &ignored);
    tstore_wake(s->srv->tstore);
}

void sess_result_add_row(sess_result_t *r, int ncols, const char *const *vals, const int *lens)
{
    sl_buf_put_u16be(&r->rows, (uint16_t)ncols);
    for (int i = 0; i < ncols; i++) {
        if (!vals[i]) {
            sl_buf_put_u32be(&r->rows, 0xFFFFFFFFu);
            continue;
        }
        size_t n = lens ? (size_t)lens[i] : strlen(vals[i]);
        sl_buf_put_u32be(&r->rows, (uint32_t)n);
        sl_buf_append(&r->rows, vals[i], n);
    }
    r->nrows++;
}

guc_t *sess_guc(sess_t *s)
{
    return s->guc;
}

txn_t *sess_txn(sess_t *s)
{
    return s->txn;
}

prep_list_t *sess_prepared(sess_t *s)
{
    return &s->prepared;
}

char sess_txn_status(const sess_t *s)
{
    return txn_status(s->txn);
}

int64_t sess_idle_timeout_ms(const sess_t *s)
{
    return guc_int(s->guc, txn_state(s->txn) == TXN_IDLE ? GUC_IDLE_SESSION_TIMEOUT
                                                         : GUC_IDLE_IN_TRANSACTION_SESSION_TIMEOUT);
}

int sess_wants_notice(const sess_t *s, int warning)
{
    const char *min = guc_value(s->guc, GUC_CLIENT_MIN_MESSAGES);
    if (!strcmp(min, "error")) return 0;
    return warning || strcmp(min, "warning");
}

void sess_txn_error(sess_t *s)
{
    txn_fail(s->txn);
}

int sess_startup_setting(sess_t *s, const char *name, const char *value, sl_error_t *err)
{
    return guc_set(s->guc, name, value, 0, 0, err) < 0 ? -1 : 0;
}

void sess_report_settings(sess_t *s, void (*cb)(void *arg, const char *name, const char *value),
                          void *arg)
{
    guc_report_changes(s->guc, cb, arg);
}
