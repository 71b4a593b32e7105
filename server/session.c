/* Sessions: copying a submission, running it on the worker pool (parse, then
 * each statement in turn), and handing the reply back on the loop thread. */
#include "server/session.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "parser/parser.h"
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
    int in_flight;            /* a submission is queued or running */
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
    sess_done_cb cb;
    void *cb_arg;
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
    for (int i = 0; i < s->req.nparams; i++) free(s->params[i]);
    free(s->params);
    free(s->param_lens);
    free(s->sql);
    s->params = NULL;
    s->param_lens = NULL;
    s->sql = NULL;
}

static void sess_free(sess_t *s)
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

void sess_reply_free(sess_reply_t *reply)
{
    if (!reply) return;
    for (sess_result_t *r = reply->first; r; r = r->next) sl_buf_free(&r->rows);
    sl_arena_free(reply->arena);
}

static sess_result_t *result_append(sess_reply_t *reply, sess_result_t **tail)
{
    sess_result_t *r = SL_NEW(reply->arena, sess_result_t);
    if (*tail) (*tail)->next = r;
    else reply->first = r;
    *tail = r;
    return r;
}

/* A statement error: converts its byte position into characters. */
static void result_error(sess_t *s, sess_result_t *r, const sl_error_t *err)
{
    r->kind = SESS_RES_ERROR;
    sl_error_copy(&r->error, err);
    if (err->position > 0)
        r->error.position = parse_char_position(s->sql, s->len, (size_t)err->position - 1);
    if (!r->error.sqlstate[0]) snprintf(r->error.sqlstate, 6, "%s", SL_ERR_INTERNAL_ERROR);
}

static void run_statements(sess_t *s, const ast_stmt_list_t *list, sess_reply_t *reply)
{
    sess_result_t *tail = NULL;
    stmt_ctx_t ctx = {
        .srv = s->srv, .sess = s, .arena = sl_arena_new("statement"),
        .reply_arena = reply->arena, .sql = s->sql, .len = s->len,
        .nparams = s->req.nparams, .params = (const char *const *)s->params,
        .param_lens = s->param_lens, .cancel = &s->cancel, .describe_only = s->req.describe_only,
    };
    for (int i = 0; i < list->n; i++) {
        sess_result_t *r = result_append(reply, &tail);
        sl_error_t err;
        sl_error_clear(&err);
        if (atomic_load(&s->cancel))
            sl_error_set(&err, SL_ERR_QUERY_CANCELED, "canceling statement due to user request");
        if (sl_error_isset(&err) || stmt_execute(&ctx, list->items[i], r, &err) < 0) {
            sl_buf_free(&r->rows);
            r->nrows = 0;
            result_error(s, r, &err);
            break;
        }
        sl_arena_reset(ctx.arena);
    }
    sl_arena_free(ctx.arena);
}

static void work_cb(uv_work_t *w)
{
    sess_t *s = w->data;
    sess_reply_t *reply = sl_xcalloc(1, sizeof *reply);
    reply->arena = sl_arena_new("reply");
    s->reply = reply;
    sl_arena_t *parse_arena = sl_arena_new("parse");
    ast_stmt_list_t list;
    sl_error_t err;
    sl_error_clear(&err);
    sess_result_t *tail = NULL;
    if (parse_sql(s->sql, s->len, parse_arena, &list, &err) < 0) {
        sess_result_t *r = result_append(reply, &tail);
        r->kind = SESS_RES_ERROR;
        sl_error_copy(&r->error, &err); /* the parser reports character positions */
    } else if (list.n == 0) {
        result_append(reply, &tail)->kind = SESS_RES_EMPTY;
    } else if (s->req.single && list.n > 1) {
        sl_error_set(&err, SL_ERR_SYNTAX_ERROR,
                     "cannot insert multiple commands into a prepared statement");
        result_error(s, result_append(reply, &tail), &err);
    } else {
        reply->nparams = list.max_param;
        run_statements(s, &list, reply);
    }
    sl_arena_free(parse_arena);
}

static void after_work_cb(uv_work_t *w, int status)
{
    (void)status;
    sess_t *s = w->data;
    sess_reply_t *reply = s->reply;
    s->reply = NULL;
    s->in_flight = 0;
    submission_free(s);
    if (s->closing) {
        sess_reply_free(reply);
        free(reply);
        sess_free(s);
        return;
    }
    s->cb(s, reply, s->cb_arg);
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
}

int sess_busy(const sess_t *s)
{
    return s->in_flight;
}

void sess_close(sess_t *s)
{
    if (!s) return;
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
