/* Query messages after authentication: the simple Query, the extended
 * protocol (Parse, Bind, Describe, Execute, Close, Sync, Flush), and the
 * encoding of session replies with output backpressure.
 *
 * Extended protocol notes:
 *  - Parse runs a describe_only submission, so syntax and binding errors are
 *    reported at Parse (as PostgreSQL does) and Describe of a statement is
 *    answered from what Parse learnt, without another submission.
 *  - Describe of a portal runs the portal and keeps the reply; the Execute
 *    that follows sends from it, so Describe+Execute runs a statement once.
 *  - Execute with a row limit sends PortalSuspended and continues from the
 *    kept reply on the next Execute.
 *  - After an error every message up to Sync is discarded; Sync closes all
 *    portals (the implicit transaction ends) and sends ReadyForQuery.
 *  - Parameters and results are text format only (0A000 otherwise). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "server/pgwire_int.h"

#define PGW_OID_UNKNOWN_AS_TEXT PG_OID_TEXT

/* ---- reading message bodies ------------------------------------------------ */

typedef struct rd {
    const char *p, *end;
    int bad; /* set when a read ran past the end */
} rd_t;

static const char *rd_str(rd_t *r)
{
    const char *nul = r->bad ? NULL : memchr(r->p, '\0', (size_t)(r->end - r->p));
    if (!nul) {
        r->bad = 1;
        return "";
    }
    const char *s = r->p;
    r->p = nul + 1;
    return s;
}

static int32_t rd_i32(rd_t *r)
{
    if (r->bad || r->end - r->p < 4) {
        r->bad = 1;
        return 0;
    }
    int32_t v = (int32_t)sl_get_u32be(r->p);
    r->p += 4;
    return v;
}

static int rd_i16(rd_t *r)
{
    if (r->bad || r->end - r->p < 2) {
        r->bad = 1;
        return 0;
    }
    int v = (int16_t)sl_get_u16be(r->p);
    r->p += 2;
    return v;
}

static const char *rd_bytes(rd_t *r, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = 1;
        return NULL;
    }
    const char *s = r->p;
    r->p += n;
    return s;
}

/* True when the body was read exactly to its end. */
static int rd_ok(const rd_t *r)
{
    return !r->bad && r->p == r->end;
}

/* ---- errors ---------------------------------------------------------------- */

/* An error in the extended protocol: report it and skip to the next Sync. */
static void ext_error(pgw_conn_t *c, const sl_error_t *err)
{
    pgw_msg_error(&c->out, "ERROR", err);
    c->skip_till_sync = 1;
}

static void ext_errorf(pgw_conn_t *c, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void ext_errorf(pgw_conn_t *c, const char *sqlstate, const char *fmt, ...)
{
    sl_error_t err;
    va_list ap;
    va_start(ap, fmt);
    sl_error_setv(&err, sqlstate, fmt, ap);
    va_end(ap);
    ext_error(c, &err);
}

/* ---- statements and portals ------------------------------------------------ */

static pgw_stmt_t *stmt_find(pgw_conn_t *c, const char *name)
{
    for (pgw_stmt_t *s = c->stmts; s; s = s->next)
        if (!strcmp(s->name, name)) return s;
    return NULL;
}

static void stmt_free(pgw_stmt_t *s)
{
    free(s->name);
    free(s->sql);
    free(s->types);
    free(s->cols);
    free(s);
}

static void stmt_drop(pgw_conn_t *c, const char *name)
{
    for (pgw_stmt_t **pp = &c->stmts; *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->name, name)) continue;
        pgw_stmt_t *s = *pp;
        *pp = s->next;
        stmt_free(s);
        return;
    }
}

static pgw_portal_t *portal_find(pgw_conn_t *c, const char *name)
{
    for (pgw_portal_t *p = c->portals; p; p = p->next)
        if (!strcmp(p->name, name)) return p;
    return NULL;
}

static void cursor_clear(pgw_cursor_t *cur)
{
    if (cur->reply) sess_reply_free(cur->reply);
    memset(cur, 0, sizeof *cur);
}

static void portal_free(pgw_portal_t *p)
{
    for (int i = 0; i < p->nparams; i++) free(p->params[i]);
    free(p->params);
    free(p->param_lens);
    cursor_clear(&p->cur);
    free(p->name);
    free(p->sql);
    free(p);
}

static void portal_drop(pgw_conn_t *c, const char *name)
{
    for (pgw_portal_t **pp = &c->portals; *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->name, name)) continue;
        pgw_portal_t *p = *pp;
        *pp = p->next;
        portal_free(p);
        return;
    }
}

/* The implicit transaction ended: every portal goes. */
static void portals_drop_all(pgw_conn_t *c)
{
    while (c->portals) {
        pgw_portal_t *p = c->portals;
        c->portals = p->next;
        portal_free(p);
    }
}

void pgw_query_release(pgw_conn_t *c)
{
    portals_drop_all(c);
    while (c->stmts) {
        pgw_stmt_t *s = c->stmts;
        c->stmts = s->next;
        stmt_free(s);
    }
    cursor_clear(&c->qcur);
    if (c->wait_stmt) stmt_free(c->wait_stmt);
    c->wait_stmt = NULL;
    pgw_copy_release(c);
}

/* ---- encoding replies -------------------------------------------------------- */

static void send_notices(pgw_conn_t *c, const sess_reply_t *reply)
{
    for (const sess_result_t *r = reply->first; r; r = r->next)
        for (int i = 0; i < r->nnotices; i++) pgw_msg_error(&c->out, "NOTICE", &r->notices[i]);
}

/* Sends DataRows from the cursor until the rows end or `limit` (0 = none)
 * rows went out in this call (counted in *sent). Returns 0 when it paused
 * because the client is not reading fast enough, else 1. */
static int send_rows(pgw_conn_t *c, pgw_cursor_t *cur, int64_t limit, uint64_t *sent)
{
    const sl_buf_t *rows = &cur->res->rows;
    while (cur->off < rows->len) {
        if (limit > 0 && *sent >= (uint64_t)limit) return 1;
        if (c->out.len >= PGW_OUT_CHUNK) {
            pgw_conn_flush(c);
            if (pgw_conn_backlog(c) > PGW_OUT_HIGH || c->handles_closing) return 0;
        }
        size_t n = pgw_datarow_len(rows->data + cur->off, rows->len - cur->off);
        if (n == 0) { /* invariant: the session writes whole rows */
            SL_ERROR("pgwire", "malformed row in a result; rows dropped");
            cur->off = rows->len;
            break;
        }
        pgw_msg_datarow(&c->out, rows->data + cur->off, n);
        cur->off += n;
        (*sent)++;
    }
    return 1;
}

/* The message that ends a result other than a row set. */
static void send_outcome(pgw_conn_t *c, const sess_result_t *r, int extended)
{
    if (!r || r->kind == SESS_RES_EMPTY) pgw_msg_simple(&c->out, 'I');
    else if (r->kind == SESS_RES_COMMAND) pgw_msg_command_complete(&c->out, r->tag);
    else if (!extended) pgw_msg_error(&c->out, "ERROR", &r->error);
    else ext_error(c, &r->error);
}

/* Simple query: every result of the reply, then ReadyForQuery. */
static int query_resume(pgw_conn_t *c)
{
    pgw_cursor_t *cur = &c->qcur;
    while (cur->res) {
        sess_result_t *r = cur->res;
        if (r->kind == SESS_RES_COPY_OUT || r->kind == SESS_RES_COPY_IN) {
            if (!cur->in_rows)
                for (int i = 0; i < r->nnotices; i++) pgw_msg_error(&c->out, "NOTICE", &r->notices[i]);
            if (r->kind == SESS_RES_COPY_IN) { /* ReadyForQuery comes when the COPY ends */
                pgw_copy_in_start(c, r, 0);
                cursor_clear(cur);
                c->job = 0;
                return 1;
            }
            if (!pgw_copy_out_resume(c, cur)) return 0;
            cur->res = r->next;
            continue;
        }
        if (!cur->in_rows) {
            for (int i = 0; i < r->nnotices; i++) pgw_msg_error(&c->out, "NOTICE", &r->notices[i]);
            if (r->kind != SESS_RES_ROWS) {
                send_outcome(c, r, 0);
                cur->res = r->next;
                continue;
            }
            pgw_msg_row_description(&c->out, r->ncols, r->cols);
            cur->in_rows = 1;
            cur->off = 0;
        }
        uint64_t sent = 0;
        if (!send_rows(c, cur, 0, &sent)) return 0;
        pgw_msg_command_complete(&c->out, r->tag);
        cur->res = r->next;
        cur->in_rows = 0;
    }
    cursor_clear(cur);
    pgw_msg_ready(&c->out);
    c->job = 0;
    return 1;
}

/* Execute: rows up to the limit, then PortalSuspended or CommandComplete. */
static int execute_resume(pgw_conn_t *c)
{
    pgw_portal_t *p = c->xportal;
    sess_result_t *r = p->cur.res;
    if (r && r->kind == SESS_RES_COPY_OUT) { /* a row limit does not apply to COPY */
        if (!pgw_copy_out_resume(c, &p->cur)) return 0;
        p->cur.res = r->next;
    } else if (r && r->kind == SESS_RES_COPY_IN) {
        pgw_copy_in_start(c, r, 1);
        p->cur.res = r->next;
    } else if (r && r->kind == SESS_RES_ROWS) {
        if (!send_rows(c, &p->cur, c->xlimit, &c->xsent)) return 0;
        if (p->cur.off < r->rows.len) {
            pgw_msg_simple(&c->out, 's');
        } else if (!strncmp(r->tag, "SELECT ", 7)) {
            char tag[64];
            snprintf(tag, sizeof tag, "SELECT %llu", (unsigned long long)c->xsent);
            pgw_msg_command_complete(&c->out, tag);
        } else {
            pgw_msg_command_complete(&c->out, r->tag);
        }
    } else {
        send_outcome(c, r, 1);
    }
    c->job = 0;
    c->xportal = NULL;
    return 1;
}

int pgw_query_resume(pgw_conn_t *c)
{
    if (c->job == 1) return query_resume(c);
    if (c->job == 2) return execute_resume(c);
    return 1;
}

/* Describe of a portal that ran: RowDescription, NoData, or its error. */
static void describe_portal_reply(pgw_conn_t *c, pgw_portal_t *p)
{
    const sess_result_t *r = p->cur.res;
    if (r && r->kind == SESS_RES_ROWS) pgw_msg_row_description(&c->out, r->ncols, r->cols);
    else if (r && r->kind == SESS_RES_ERROR) ext_error(c, &r->error);
    else pgw_msg_simple(&c->out, 'n');
}

/* ---- submissions --------------------------------------------------------------- */

static void parse_done(pgw_conn_t *c, pgw_stmt_t *s, sess_reply_t *reply);

static void portal_ran(pgw_conn_t *c, pgw_portal_t *p, sess_reply_t *reply)
{
    p->cur.reply = reply;
    p->cur.res = reply->first;
    p->cur.off = 0;
    send_notices(c, reply);
}

static void on_reply(sess_t *s, sess_reply_t *reply, void *arg)
{
    (void)s;
    pgw_conn_t *c = arg;
    pgw_wait_t w = c->wait;
    c->wait = PGW_WAIT_NONE;
    if (w == PGW_WAIT_QUERY) {
        c->qcur.reply = reply;
        c->qcur.res = reply->first;
        c->job = 1;
    } else if (w == PGW_WAIT_PARSE) {
        pgw_stmt_t *st = c->wait_stmt;
        c->wait_stmt = NULL;
        parse_done(c, st, reply);
    } else if (w == PGW_WAIT_DESCRIBE) {
        portal_ran(c, c->wait_portal, reply);
        describe_portal_reply(c, c->wait_portal);
    } else if (w == PGW_WAIT_EXECUTE) {
        portal_ran(c, c->wait_portal, reply);
        c->job = 2;
    } else { /* invariant: a reply only comes for a submission */
        sess_reply_free(reply);
    }
    c->wait_portal = NULL;
    pgw_conn_process(c);
}

static void submit(pgw_conn_t *c, const sess_request_t *req, pgw_wait_t wait)
{
    if (sess_submit(c->sess, req, on_reply, c) < 0) { /* invariant: one message at a time */
        sl_error_t err;
        sl_error_set(&err, SL_ERR_INTERNAL_ERROR, "a statement is already running");
        pgw_conn_fatal_err(c, &err);
        return;
    }
    c->wait = wait;
}

static void submit_portal(pgw_conn_t *c, pgw_portal_t *p, pgw_wait_t wait)
{
    sess_request_t req = {.sql = p->sql, .len = p->len, .single = 1, .nparams = p->nparams,
                          .params = (const char *const *)p->params, .param_lens = p->param_lens};
    c->wait_portal = p;
    submit(c, &req, wait);
}

/* ---- simple query ------------------------------------------------------------------ */

static void simple_query(pgw_conn_t *c, const char *body, size_t len)
{
    rd_t r = {body, body + len, 0};
    const char *sql = rd_str(&r);
    if (!rd_ok(&r)) {
        sl_error_t err;
        sl_error_set(&err, SL_ERR_PROTOCOL_VIOLATION, "invalid message format");
        pgw_msg_error(&c->out, "ERROR", &err);
        pgw_msg_ready(&c->out);
        return;
    }
    portals_drop_all(c);
    sess_request_t req = {.sql = sql, .len = strlen(sql)};
    submit(c, &req, PGW_WAIT_QUERY);
}

void pgw_query_run(pgw_conn_t *c, const char *sql)
{
    sess_request_t req = {.sql = sql, .len = strlen(sql)};
    submit(c, &req, PGW_WAIT_QUERY);
}

/* ---- Parse ------------------------------------------------------------------------- */

/* Describes a new statement. The binder wants a value for every $n, and
 * Parse comes before any: describe with `nnull` NULL placeholders. */
static void parse_describe(pgw_conn_t *c, pgw_stmt_t *s, int nnull)
{
    const char **nulls = sl_xcalloc((size_t)nnull + 1, sizeof *nulls);
    int *lens = sl_xcalloc((size_t)nnull + 1, sizeof *lens);
    sess_request_t req = {.sql = s->sql, .len = s->len, .single = 1, .describe_only = 1,
                          .nparams = nnull, .params = nulls, .param_lens = lens};
    s->nparams = nnull;
    c->wait_stmt = s;
    submit(c, &req, PGW_WAIT_PARSE); /* the session copies the request */
    free(nulls);
    free(lens);
}

static void parse_message(pgw_conn_t *c, const char *body, size_t len)
{
    rd_t r = {body, body + len, 0};
    const char *name = rd_str(&r), *sql = rd_str(&r);
    int n = rd_i16(&r);
    const char *oids = n > 0 ? rd_bytes(&r, (size_t)n * 4) : NULL;
    if (!rd_ok(&r) || n < 0) {
        ext_errorf(c, SL_ERR_PROTOCOL_VIOLATION, "invalid message format");
        return;
    }
    if (name[0] && stmt_find(c, name)) {
        ext_errorf(c, SL_ERR_DUPLICATE_PSTATEMENT, "prepared statement \"%s\" already exists", name);
        return;
    }
    if (!name[0]) stmt_drop(c, "");
    pgw_stmt_t *s = sl_xcalloc(1, sizeof *s);
    s->name = sl_xstrdup(name);
    s->len = strlen(sql);
    s->sql = sl_xstrndup(sql, s->len);
    s->ntypes = n;
    s->types = sl_xcalloc((size_t)n + 1, sizeof *s->types);
    for (int i = 0; i < n; i++) s->types[i] = sl_get_u32be(oids + 4 * i);
    parse_describe(c, s, n);
}

/* Copies the result columns into one allocation owned by the statement. */
static void stmt_keep_columns(pgw_stmt_t *s, const sess_result_t *r)
{
    size_t names = 0;
    for (int i = 0; i < r->ncols; i++) names += strlen(r->cols[i].name ? r->cols[i].name : "") + 1;
    s->ncols = r->ncols;
    s->cols = sl_xmalloc(sizeof *s->cols * (size_t)r->ncols + names);
    char *p = (char *)(s->cols + r->ncols);
    for (int i = 0; i < r->ncols; i++) {
        s->cols[i] = r->cols[i];
        size_t n = strlen(r->cols[i].name ? r->cols[i].name : "") + 1;
        memcpy(p, r->cols[i].name ? r->cols[i].name : "", n);
        s->cols[i].name = p;
        p += n;
    }
}

static void parse_done(pgw_conn_t *c, pgw_stmt_t *s, sess_reply_t *reply)
{
    const sess_result_t *r = reply->first;
    if (r && r->kind == SESS_RES_ERROR && !strcmp(r->error.sqlstate, SL_ERR_UNDEFINED_PARAMETER) &&
        reply->nparams > s->nparams) { /* more $n than Parse declared: placeholders for all */
        int n = reply->nparams;
        sess_reply_free(reply);
        parse_describe(c, s, n);
        return;
    }
    if (r && r->kind == SESS_RES_ERROR) {
        ext_error(c, &r->error);
        stmt_free(s);
    } else {
        s->nparams = reply->nparams > s->ntypes ? reply->nparams : s->ntypes;
        s->ncols = -1;
        if (r && r->kind == SESS_RES_ROWS) stmt_keep_columns(s, r);
        s->next = c->stmts;
        c->stmts = s;
        pgw_msg_simple(&c->out, '1');
    }
    sess_reply_free(reply);
}

/* ---- Bind ------------------------------------------------------------------------- */

typedef struct bind_msg {
    const char *portal, *stmt;
    int nfmt, nparams, nres;
    const char *fmts, *resfmts; /* int16 arrays */
    const char **vals;          /* into the message; NULL = SQL NULL */
    int *lens;
} bind_msg_t;

static int bind_read(rd_t *r, bind_msg_t *m)
{
    m->portal = rd_str(r);
    m->stmt = rd_str(r);
    m->nfmt = rd_i16(r);
    m->fmts = m->nfmt > 0 ? rd_bytes(r, (size_t)m->nfmt * 2) : NULL;
    m->nparams = rd_i16(r);
    if (r->bad || m->nfmt < 0 || m->nparams < 0) return -1;
    m->vals = sl_xcalloc((size_t)m->nparams + 1, sizeof *m->vals);
    m->lens = sl_xcalloc((size_t)m->nparams + 1, sizeof *m->lens);
    for (int i = 0; i < m->nparams && !r->bad; i++) {
        int32_t n = rd_i32(r);
        if (n < -1) return -1;
        m->lens[i] = n < 0 ? 0 : n;
        m->vals[i] = n < 0 ? NULL : rd_bytes(r, (size_t)n);
    }
    m->nres = rd_i16(r);
    m->resfmts = m->nres > 0 ? rd_bytes(r, (size_t)m->nres * 2) : NULL;
    return rd_ok(r) && m->nres >= 0 ? 0 : -1;
}

/* Format codes: 0 text, 1 binary (refused), anything else malformed. */
static int check_formats(pgw_conn_t *c, const char *fmts, int n, const char *what)
{
    for (int i = 0; i < n; i++) {
        int f = (int16_t)sl_get_u16be(fmts + 2 * i);
        if (f == 0) continue;
        if (f == 1) {
            ext_errorf(c, SL_ERR_FEATURE_NOT_SUPPORTED, "binary %s format is not supported", what);
            return -1;
        }
        ext_errorf(c, SL_ERR_PROTOCOL_VIOLATION, "unsupported format code: %d", f);
        return -1;
    }
    return 0;
}

static int bind_check(pgw_conn_t *c, const bind_msg_t *m, const pgw_stmt_t *s)
{
    if (!s) {
        ext_errorf(c, SL_ERR_INVALID_SQL_STATEMENT_NAME, "prepared statement \"%s\" does not exist",
                   m->stmt);
        return -1;
    }
    if (m->nfmt > 1 && m->nfmt != m->nparams) {
        ext_errorf(c, SL_ERR_PROTOCOL_VIOLATION, "bind message has %d parameter formats but %d parameters",
                   m->nfmt, m->nparams);
        return -1;
    }
    if (m->nparams != s->nparams) {
        ext_errorf(c, SL_ERR_PROTOCOL_VIOLATION,
                   "bind message supplies %d parameters, but prepared statement \"%s\" requires %d",
                   m->nparams, m->stmt, s->nparams);
        return -1;
    }
    if (check_formats(c, m->fmts, m->nfmt, "parameter") < 0 ||
        check_formats(c, m->resfmts, m->nres, "result") < 0)
        return -1;
    if (m->portal[0] && portal_find(c, m->portal)) {
        ext_errorf(c, SL_ERR_DUPLICATE_CURSOR, "cursor \"%s\" already exists", m->portal);
        return -1;
    }
    return 0;
}

static void portal_create(pgw_conn_t *c, const bind_msg_t *m, const pgw_stmt_t *s)
{
    if (!m->portal[0]) portal_drop(c, "");
    pgw_portal_t *p = sl_xcalloc(1, sizeof *p);
    p->name = sl_xstrdup(m->portal);
    p->sql = sl_xstrndup(s->sql, s->len);
    p->len = s->len;
    p->nparams = m->nparams;
    p->params = sl_xcalloc((size_t)m->nparams + 1, sizeof *p->params);
    p->param_lens = sl_xcalloc((size_t)m->nparams + 1, sizeof *p->param_lens);
    for (int i = 0; i < m->nparams; i++) {
        if (!m->vals[i]) continue;
        p->params[i] = sl_xstrndup(m->vals[i], (size_t)m->lens[i]);
        p->param_lens[i] = m->lens[i];
    }
    p->next = c->portals;
    c->portals = p;
}

static void bind_message(pgw_conn_t *c, const char *body, size_t len)
{
    rd_t r = {body, body + len, 0};
    bind_msg_t m = {0};
    if (bind_read(&r, &m) < 0) {
        ext_errorf(c, SL_ERR_PROTOCOL_VIOLATION, "invalid message format");
    } else {
        pgw_stmt_t *s = stmt_find(c, m.stmt);
        if (bind_check(c, &m, s) == 0) {
            portal_create(c, &m, s);
            pgw_msg_simple(&c->out, '2');
        }
    }
    free(m.vals);
    free(m.lens);
}

/* ---- Describe, Execute, Close, Sync ------------------------------------------------ */

static void describe_statement(pgw_conn_t *c, const pgw_stmt_t *s)
{
    size_t at = pgw_msg_begin(&c->out, 't');
    sl_buf_put_u16be(&c->out, (uint16_t)s->nparams);
    for (int i = 0; i < s->nparams; i++)
        sl_buf_put_u32be(&c->out, i < s->ntypes && s->types[i] ? s->types[i]
                                                               : PGW_OID_UNKNOWN_AS_TEXT);
    pgw_msg_end(&c->out, at);
    if (s->ncols >= 0) pgw_msg_row_description(&c->out, s->ncols, s->cols);
    else pgw_msg_simple(&c->out, 'n');
}

static void describe_message(pgw_conn_t *c, const char *body, size_t len)
{
    rd_t r = {body, body + len, 0};
    const char *kind = rd_bytes(&r, 1), *name = rd_str(&r);
    if (!rd_ok(&r) || (kind[0] != 'S' && kind[0] != 'P')) {
        ext_errorf(c, SL_ERR_PROTOCOL_VIOLATION, "invalid DESCRIBE message");
        return;
    }
    if (kind[0] == 'S') {
        pgw_stmt_t *s = stmt_find(c, name);
        if (s) describe_statement(c, s);
        else ext_errorf(c, SL_ERR_INVALID_SQL_STATEMENT_NAME, "prepared statement \"%s\" does not exist", name);
        return;
    }
    pgw_portal_t *p = portal_find(c, name);
    if (!p) ext_errorf(c, SL_ERR_INVALID_CURSOR_NAME, "portal \"%s\" does not exist", name);
    else if (p->cur.reply) describe_portal_reply(c, p);
    else submit_portal(c, p, PGW_WAIT_DESCRIBE);
}

static void execute_message(pgw_conn_t *c, const char *body, size_t len)
{
    rd_t r = {body, body + len, 0};
    const char *name = rd_str(&r);
    int32_t maxrows = rd_i32(&r);
    if (!rd_ok(&r)) {
        ext_errorf(c, SL_ERR_PROTOCOL_VIOLATION, "invalid message format");
        return;
    }
    pgw_portal_t *p = portal_find(c, name);
    if (!p) {
        ext_errorf(c, SL_ERR_INVALID_CURSOR_NAME, "portal \"%s\" does not exist", name);
        return;
    }
    c->xportal = p;
    c->xlimit = maxrows > 0 ? maxrows : 0;
    c->xsent = 0;
    if (p->cur.reply) c->job = 2;
    else submit_portal(c, p, PGW_WAIT_EXECUTE);
}

static void close_message(pgw_conn_t *c, const char *body, size_t len)
{
    rd_t r = {body, body + len, 0};
    const char *kind = rd_bytes(&r, 1), *name = rd_str(&r);
    if (!rd_ok(&r) || (kind[0] != 'S' && kind[0] != 'P')) {
        ext_errorf(c, SL_ERR_PROTOCOL_VIOLATION, "invalid CLOSE message");
        return;
    }
    if (kind[0] == 'S') stmt_drop(c, name);
    else portal_drop(c, name);
    pgw_msg_simple(&c->out, '3');
}

static void sync_message(pgw_conn_t *c)
{
    c->skip_till_sync = 0;
    portals_drop_all(c);
    pgw_msg_ready(&c->out);
}

void pgw_query_message(pgw_conn_t *c, char type, const char *body, size_t len)
{
    if (c->copy) {
        pgw_copy_message(c, type, body, len);
        return;
    }
    if (c->skip_till_sync && type != 'S' && type != 'X') return;
    switch (type) {
    case 'Q': simple_query(c, body, len); break;
    case 'P': parse_message(c, body, len); break;
    case 'B': bind_message(c, body, len); break;
    case 'D': describe_message(c, body, len); break;
    case 'E': execute_message(c, body, len); break;
    case 'C': close_message(c, body, len); break;
    case 'S': sync_message(c); break;
    case 'H': pgw_conn_flush(c); break;
    case 'X': pgw_conn_close(c); break;
    case 'd': case 'c': case 'f': break; /* COPY data after a failed COPY: ignored, as PostgreSQL does */
    case 'F': {
        sl_error_t err;
        sl_error_set(&err, SL_ERR_FEATURE_NOT_SUPPORTED, "function call protocol is not supported");
        pgw_msg_error(&c->out, "ERROR", &err);
        pgw_msg_ready(&c->out);
        break;
    }
    default:
        pgw_conn_fatal(c, SL_ERR_PROTOCOL_VIOLATION, "invalid frontend message type %d",
                       (int)(unsigned char)type);
    }
}
