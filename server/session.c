/* Sessions: copying a submission, running it on the worker pool (parse, then
 * each statement in turn), pausing at AWAIT QUERY until the query manager
 * answers (on the loop thread, with a timer for its TIMEOUT), and handing
 * the reply back on the loop thread. */
#include "server/session.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "parser/parser.h"
#include "server/qm.h"
#include "server/stmt.h"

typedef struct sess_setting {
    char *name;
    char *value;
    struct sess_setting *next;
} sess_setting_t;

struct sess {
    srv_t *srv;
    char *user;
    char *database;
    uv_work_t work;
    int in_flight;            /* a submission is queued, running or awaiting */
    int closing;              /* sess_close() called while in flight */
    atomic_int cancel;
    sess_setting_t *settings; /* SET values, touched only by the running statement */
    /* the submission in flight */
    char *sql;
    size_t len;
    sess_request_t req;
    char **params;
    int *param_lens;
    sess_reply_t *reply;
    sess_result_t *tail;       /* last result of the reply */
    sess_done_cb cb;
    void *cb_arg;
    sl_arena_t *parse_arena;   /* the parsed statements, kept across an AWAIT */
    ast_stmt_list_t list;
    int next_stmt;             /* index of the next statement to run */
    /* AWAIT QUERY in progress (loop thread) */
    char await_name[256];
    int64_t await_timeout_ms;
    int awaiting;
    uint64_t wait_id;
    uv_timer_t timer;
    int timer_init;
};

sess_t *sess_new(srv_t *srv, const char *user, const char *database)
{
    sess_t *s = sl_xcalloc(1, sizeof *s);
    s->srv = srv;
    s->user = sl_xstrdup(user ? user : "");
    s->database = sl_xstrdup(database ? database : "");
    s->work.data = s;
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
    free(s->sql);
    sl_arena_free(s->parse_arena);
    s->parse_arena = NULL;
    s->params = NULL;
    s->param_lens = NULL;
    s->req.nparams = 0;
    s->sql = NULL;
}

static void sess_free_now(sess_t *s)
{
    submission_free(s);
    while (s->settings) {
        sess_setting_t *n = s->settings->next;
        free(s->settings->name);
        free(s->settings->value);
        free(s->settings);
        s->settings = n;
    }
    free(s->user);
    free(s->database);
    free(s);
}

static void on_timer_closed(uv_handle_t *h)
{
    sess_free_now(h->data);
}

/* Frees the session, after closing its timer handle when it has one. Loop thread. */
static void sess_free(sess_t *s)
{
    if (s->timer_init) uv_close((uv_handle_t *)&s->timer, on_timer_closed);
    else sess_free_now(s);
}

void sess_reply_free(sess_reply_t *reply)
{
    if (!reply) return;
    for (sess_result_t *r = reply->first; r; r = r->next) sl_buf_free(&r->rows);
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
    if (err->position > 0)
        r->error.position = parse_char_position(s->sql, s->len, (size_t)err->position - 1);
    if (!r->error.sqlstate[0]) snprintf(r->error.sqlstate, 6, "%s", SL_ERR_INTERNAL_ERROR);
}

/* Runs statements from s->next_stmt until the end, an error or an AWAIT. */
static void run_statements(sess_t *s)
{
    stmt_ctx_t ctx = {
        .srv = s->srv, .sess = s, .arena = sl_arena_new("statement"),
        .reply_arena = s->reply->arena, .sql = s->sql, .len = s->len,
        .nparams = s->req.nparams, .params = (const char *const *)s->params,
        .param_lens = s->param_lens, .cancel = &s->cancel, .describe_only = s->req.describe_only,
    };
    while (s->next_stmt < s->list.n) {
        sess_result_t *r = result_append(s);
        sl_error_t err;
        sl_error_clear(&err);
        ctx.await_query = NULL;
        if (atomic_load(&s->cancel))
            sl_error_set(&err, SL_ERR_QUERY_CANCELED, "canceling statement due to user request");
        if (sl_error_isset(&err) || stmt_execute(&ctx, s->list.items[s->next_stmt++], r, &err) < 0) {
            result_error(s, r, &err);
            s->next_stmt = s->list.n;
            break;
        }
        if (ctx.await_query) {
            snprintf(s->await_name, sizeof s->await_name, "%s", ctx.await_query);
            s->await_timeout_ms = ctx.await_timeout_ms;
            s->awaiting = 1;
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

static void work_cb(uv_work_t *w)
{
    sess_t *s = w->data;
    if (!s->reply) {
        s->reply = sl_xcalloc(1, sizeof *s->reply);
        s->reply->arena = sl_arena_new("reply");
        s->tail = NULL;
        s->next_stmt = 0;
        parse_submission(s);
    } else {
        /* after an AWAIT, on whichever pool thread libuv picked: the loop
         * thread's queueing hands the submission's arenas to this one */
        sl_arena_adopt(s->reply->arena);
        sl_arena_adopt(s->parse_arena);
    }
    run_statements(s);
}

/* Hands the reply over and ends the submission. Loop thread. */
static void finish_submission(sess_t *s)
{
    sess_reply_t *reply = s->reply;
    s->reply = NULL;
    s->in_flight = 0;
    submission_free(s);
    if (s->closing) {
        sess_reply_free(reply);
        sess_free(s);
        return;
    }
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
    sl_error_set(&err, SL_ERR_QUERY_CANCELED, "timed out waiting for query \"%s\" to process all "
                 "available data", s->await_name);
    sl_error_hint(&err, "SHOW PROGRESS %s shows what the query is doing.", s->await_name);
    await_done(s, &err);
}

static void start_await(sess_t *s)
{
    sl_error_t err;
    if (qm_await(s->srv->qm, s->await_name, on_await, s, &s->wait_id, &err) < 0) {
        await_done(s, &err);
        return;
    }
    if (s->await_timeout_ms < 0) return;
    if (!s->timer_init) {
        uv_timer_init(s->srv->loop, &s->timer);
        s->timer.data = s;
        s->timer_init = 1;
    }
    uv_timer_start(&s->timer, on_await_timeout, (uint64_t)s->await_timeout_ms, 0);
}

static void after_work_cb(uv_work_t *w, int status)
{
    (void)status;
    sess_t *s = w->data;
    if (s->awaiting && !s->closing) {
        start_await(s);
        return;
    }
    s->awaiting = 0;
    continue_submission(s);
}

int sess_submit(sess_t *s, const sess_request_t *req, sess_done_cb cb, void *arg)
{
    if (s->in_flight || s->closing) return -1;
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
    }
    s->req.params = NULL;
    s->req.param_lens = NULL;
    s->cb = cb;
    s->cb_arg = arg;
    s->in_flight = 1;
    atomic_store(&s->cancel, 0);
    uv_queue_work(s->srv->loop, &s->work, work_cb, after_work_cb);
    return 0;
}

void sess_cancel(sess_t *s)
{
    atomic_store(&s->cancel, 1);
    if (!s->awaiting || !s->wait_id) return;
    /* Loop thread: the session is parked in AWAIT, not on a worker. */
    qm_await_cancel(s->srv->qm, s->wait_id);
    sl_error_t err;
    sl_error_set(&err, SL_ERR_QUERY_CANCELED, "canceling statement due to user request");
    await_done(s, &err);
}

int sess_busy(const sess_t *s)
{
    return s->in_flight;
}

void sess_close(sess_t *s)
{
    if (!s) return;
    if (s->in_flight && s->awaiting && s->wait_id) {
        qm_await_cancel(s->srv->qm, s->wait_id);
        s->awaiting = 0;
        s->closing = 1;
        finish_submission(s);
        return;
    }
    if (s->in_flight) {
        s->closing = 1;
        atomic_store(&s->cancel, 1);
        return;
    }
    sess_free(s);
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

const char *sess_setting_get(sess_t *s, const char *name)
{
    for (sess_setting_t *p = s->settings; p; p = p->next)
        if (!strcmp(p->name, name)) return p->value;
    return NULL;
}

void sess_setting_set(sess_t *s, const char *name, const char *value)
{
    for (sess_setting_t *p = s->settings; p; p = p->next)
        if (!strcmp(p->name, name)) {
            free(p->value);
            p->value = sl_xstrdup(value);
            return;
        }
    sess_setting_t *p = sl_xcalloc(1, sizeof *p);
    p->name = sl_xstrdup(name);
    p->value = sl_xstrdup(value);
    p->next = s->settings;
    s->settings = p;
}
