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
 *  - After an error every message up to Sync is discarded, and a
 *    transaction block becomes failed. Portals live until their transaction
 *    ends: Sync closes them all outside a block (the implicit transaction
 *    ends) and keeps them inside one, so that Execute with a row limit can
 *    go on after a Sync (a driver's fetch size with autocommit off).
 *  - Parameters and results may be text or binary (pgwire_binary.c): a
 *    binary parameter is decoded into text at Bind, a binary result column
 *    is encoded from its text as its DataRow goes out; the types Parse
 *    declares go with the parameters to the binder. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/sl_assert.h"
#include "server/pgwire_binary.h"
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
    sess_txn_error(c->sess);
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
    return prep_find(sess_prepared(c->sess), name);
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
    free(p->param_types);
    free(p->resfmts);
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
    cursor_clear(&c->qcur);
    if (c->wait_stmt) prep_free(c->wait_stmt);
    c->wait_stmt = NULL;
    pgw_copy_release(c);
}

/* ---- encoding replies -------------------------------------------------------- */

static void send_result_notices(pgw_conn_t *c, const sess_result_t *r)
{
    for (int i = 0; i < r->nnotices; i++) {
        const sl_error_t *n = &r->notices[i];
        int warning = strcmp(n->sqlstate, SL_ERR_SUCCESS) != 0;
        if (sess_wants_notice(c->sess, warning))
            pgw_msg_error(&c->out, warning ? "WARNING" : "NOTICE", n);
    }
}

static void send_notices(pgw_conn_t *c, const sess_reply_t *reply)
{
    for (const sess_result_t *r = reply->first; r; r = r->next) send_result_notices(c, r);
}

static void report_setting(void *arg, const char *name, const char *value)
{
    pgw_conn_t *c = arg;
    pgw_msg_parameter_status(&c->out, name, value);
}

/* idle_in_transaction_session_timeout / idle_session_timeout passed. */
static void on_idle_timeout(uv_timer_t *t)
{
    pgw_conn_t *c = t->data;
    if (sess_txn_status(c->sess) != 'I')
        pgw_conn_fatal(c, SL_ERR_IDLE_IN_TRANSACTION_SESSION_TIMEOUT,
                       "terminating connection due to idle-in-transaction timeout");
    else
        pgw_conn_fatal(c, SL_ERR_IDLE_SESSION_TIMEOUT,
                       "terminating connection due to idle-session timeout");
}

void pgw_query_ready(pgw_conn_t *c)
{
    sess_report_settings(c->sess, report_setting, c);
    char status = sess_txn_status(c->sess);
    if (status == 'I') portals_drop_all(c);
    pgw_msg_ready(&c->out, status);
    int64_t idle_ms = sess_idle_timeout_ms(c->sess);
    if (idle_ms > 0 && !c->closing)
        uv_timer_start(&c->timer, on_idle_timeout, (uint64_t)idle_ms, 0);
}

/* One DataRow with the portal's binary columns encoded; on failure the
 * row is dropped, an ErrorResponse sent, and the rest of the result skipped. */
static int send_binary_row(pgw_conn_t *c, pgw_cursor_t *cur, const pgw_portal_t *p, size_t n)
{
    const sess_result_t *r = cur->res;
    sl_error_t err;
    size_t at = pgw_msg_begin(&c->out, 'D');
    if (pgw_bin_datarow(&c->out, r->rows.data + cur->off, n, r->ncols, r->cols, p->resfmts,
                        p->nresfmts, &err) < 0) {
        sl_buf_truncate(&c->out, at);
        ext_error(c, &err);
        return -1;
    }
    pgw_msg_end(&c->out, at);
    return 0;
}

/* True when the portal asks for any column in binary. */
static int wants_binary(const pgw_portal_t *p)
{
    for (int i = 0; p && i < p->nresfmts; i++)
        if (p->resfmts[i] == PGW_FORMAT_BINARY) return 1;
    return 0;
}

/* Sends DataRows from the cursor until the rows end or `limit` (0 = none)
 * rows went out in this call (counted in *sent), in the formats of portal
 * `p` (NULL: simple query, text). Returns 0 when it paused because the
 * client is not reading fast enough, -1 after an encoding error (sent),
 * else 1. */
static int send_rows(pgw_conn_t *c, pgw_cursor_t *cur, const pgw_portal_t *p, int64_t limit,
                     uint64_t *sent)
{
    int binary = wants_binary(p);
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
        if (!binary) pgw_msg_datarow(&c->out, rows->data + cur->off, n);
        else if (send_binary_row(c, cur, p, n) < 0) return -1;
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
            if (!cur->in_rows) send_result_notices(c, r);
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
            send_result_notices(c, r);
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
        if (!send_rows(c, cur, NULL, 0, &sent)) return 0;
        pgw_msg_command_complete(&c->out, r->tag);
        cur->res = r->next;
        cur->in_rows = 0;
    }
    cursor_clear(cur);
    pgw_query_ready(c);
    c->job = 0;
    return 1;
}

/* After an Execute's rows: PortalSuspended when rows remain, else
 * CommandComplete with the count sent by this Execute. */
static void execute_rows_end(pgw_conn_t *c, const pgw_portal_t *p, const sess_result_t *r)
{
    if (p->cur.off < r->rows.len) {
        pgw_msg_simple(&c->out, 's');
    } else if (!strncmp(r->tag, "SELECT ", 7)) {
        char tag[64];
        snprintf(tag, sizeof tag, "SELECT %llu", (unsigned long long)c->xsent);
        pgw_msg_command_complete(&c->out, tag);
    } else {
        pgw_msg_command_complete(&c->out, r->tag);
    }
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
        int rc = send_rows(c, &p->cur, p, c->xlimit, &c->xsent);
        if (rc == 0) return 0;
        if (rc > 0) execute_rows_end(c, p, r);
        else p->cur.off = r->rows.len; /* the encoding error ended the result */
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
    if (r && r->kind == SESS_RES_ROWS)
        pgw_msg_row_description_fmt(&c->out, r->ncols, r->cols, p->resfmts, p->nresfmts);
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
    pgw_conn_t *c = arg;
    pgw_wait_t w = c->wait;
    SL_ASSERT(!c->closing && c->sess == s); /* never called after sess_close */
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
    } else {
        SL_ASSERT(w == PGW_WAIT_EXECUTE); /* a reply only comes for a submission */
        portal_ran(c, c->wait_portal, reply);
        c->job = 2;
    }
    c->wait_portal = NULL;
    pgw_conn_process(c);
}

static void submit(pgw_conn_t *c, const sess_request_t *req, pgw_wait_t wait)
{
    SL_ASSERT(c->wait == PGW_WAIT_NONE && !sess_busy(c->sess));
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
    sess_request_t req = {.sql = p->sql,
                          .len = p->len,
                          .single = 1,
                          .nparams = p->nparams,
                          .params = (const char *const *)p->params,
                          .param_lens = p->param_lens,
                          .param_types = p->param_types};
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
        pgw_query_ready(c);
        return;
    }
    portal_drop(c, ""); /* as PostgreSQL: a simple Query replaces the unnamed portal */
    sess_request_t req = {.sql = sql, .len = strlen(sql)};
    submit(c, &req, PGW_WAIT_QUERY);
}

void pgw_query_run(pgw_conn_t *c, const char *sql)
{
    sess_request_t req = {.sql = sql, .len = strlen(sql)};
    submit(c, &req, PGW_WAIT_QUERY);
}

/* ---- Parse ------------------------------------------------------------------------- */

/* The declared types of $1..$n (Parse gave the first s->ntypes; 0 after). */
static uint32_t *stmt_param_types(const pgw_stmt_t *s, int n)
{
    uint32_t *t = sl_xcalloc((size_t)n + 1, sizeof *t);
    for (int i = 0; i < n && i < s->ntypes; i++) t[i] = s->types[i];
    return t;
}

/* The type of $n (1-based) as ParameterDescription reports it and a
 * binary value is read: declared, else inferred, else 0. */
static uint32_t stmt_param_type(const pgw_stmt_t *s, int n)
{
    if (n <= s->ntypes && s->types[n - 1]) return s->types[n - 1];
    return s->inferred && n <= s->nparams ? s->inferred[n - 1] : 0;
}

/* Describes a new statement. The binder wants a value for every $n, and
 * Parse comes before any: describe with `nnull` NULL placeholders. */
static void parse_describe(pgw_conn_t *c, pgw_stmt_t *s, int nnull)
{
    const char **nulls = sl_xcalloc((size_t)nnull + 1, sizeof *nulls);
    int *lens = sl_xcalloc((size_t)nnull + 1, sizeof *lens);
    uint32_t *types = stmt_param_types(s, nnull);
    sess_request_t req = {.sql = s->sql,
                          .len = s->len,
                          .single = 1,
                          .describe_only = 1,
                          .nparams = nnull,
                          .params = nulls,
                          .param_lens = lens,
                          .param_types = types};
    s->nparams = nnull;
    c->wait_stmt = s;
    submit(c, &req, PGW_WAIT_PARSE); /* the session copies the request */
    free(nulls);
    free(lens);
    free(types);
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
        ext_errorf(c, SL_ERR_DUPLICATE_PSTATEMENT, "prepared statement \"%s\" already exists",
                   name);
        return;
    }
    if (!name[0]) prep_drop(sess_prepared(c->sess), "");
    pgw_stmt_t *s = prep_new(name, sql, strlen(sql), n);
    for (int i = 0; i < n; i++) s->types[i] = sl_get_u32be(oids + 4 * i);
    parse_describe(c, s, n);
}

/* Keeps the types inferred for the statement's parameters (the reply has
 * one per described placeholder and per $n used, at least). */
static void stmt_keep_inferred(pgw_stmt_t *s, const sess_reply_t *reply)
{
    int n = reply->nparams > s->nparams ? reply->nparams : s->nparams;
    s->inferred = sl_xcalloc((size_t)n + 1, sizeof *s->inferred);
    for (int i = 0; reply->param_types && i < n; i++) s->inferred[i] = reply->param_types[i];
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
        prep_free(s);
    } else {
        stmt_keep_inferred(s, reply);
        s->nparams = reply->nparams > s->ntypes ? reply->nparams : s->ntypes;
        s->ncols = -1;
        if (r && r->kind == SESS_RES_ROWS) prep_keep_columns(s, r->ncols, r->cols);
        prep_add(sess_prepared(c->sess), s);
        pgw_msg_simple(&c->out, '1');
    }
    sess_reply_free(reply);
}

/* ---- Bind ------------------------------------------------------------------------- */

typedef struct bind_msg {
    const char *portal, *stmt;
    int nfmt, nparams, nres;
    const char *fmts, *resfmts; /* int16 arrays */
    const char **vals;          /* into the message or `decoded`; NULL = SQL NULL */
    int *lens;
    char **decoded;  /* owned text of the binary parameters */
    uint32_t *types; /* the type each value binds as: declared, or for a
                                   binary value the one it was read as (0 = by use) */
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

/* Format codes: 0 text, 1 binary, anything else malformed. */
static int check_formats(pgw_conn_t *c, const char *fmts, int n)
{
    for (int i = 0; i < n; i++) {
        int f = (int16_t)sl_get_u16be(fmts + 2 * i);
        if (f == PGW_FORMAT_TEXT || f == PGW_FORMAT_BINARY) continue;
        ext_errorf(c, SL_ERR_PROTOCOL_VIOLATION, "unsupported format code: %d", f);
        return -1;
    }
    return 0;
}

static int format_at(const char *fmts, int n, int i)
{
    return n == 0 ? PGW_FORMAT_TEXT : (int16_t)sl_get_u16be(fmts + 2 * (n == 1 ? 0 : i));
}

/* Result formats: as many codes as columns (or 0 or 1), and binary only
 * for types that have a binary form. */
static int check_result_formats(pgw_conn_t *c, const bind_msg_t *m, const pgw_stmt_t *s)
{
    int ncols = s->ncols > 0 ? s->ncols : 0;
    if (m->nres > 1 && m->nres != ncols) {
        ext_errorf(c, SL_ERR_PROTOCOL_VIOLATION,
                   "bind message has %d result formats but query has %d columns", m->nres, ncols);
        return -1;
    }
    for (int i = 0; m->nres > 0 && i < ncols; i++) {
        if (format_at(m->resfmts, m->nres, i) != PGW_FORMAT_BINARY ||
            pgw_bin_can_send(s->cols[i].type_oid))
            continue;
        ext_errorf(c, SL_ERR_UNDEFINED_FUNCTION,
                   "no binary output function available for type with OID %u", s->cols[i].type_oid);
        return -1;
    }
    return 0;
}

/* Decodes the binary parameters into text (PostgreSQL numbers them from 1),
 * reading an undeclared one as the type sluice inferred for it. */
static int bind_decode(pgw_conn_t *c, bind_msg_t *m, const pgw_stmt_t *s)
{
    m->decoded = sl_xcalloc((size_t)m->nparams + 1, sizeof *m->decoded);
    m->types = stmt_param_types(s, m->nparams);
    for (int i = 0; i < m->nparams; i++) {
        if (!m->vals[i] || format_at(m->fmts, m->nfmt, i) != PGW_FORMAT_BINARY) continue;
        sl_buf_t text = SL_BUF_INIT;
        sl_error_t err;
        uint32_t oid = m->types[i] = stmt_param_type(s, i + 1);
        if (pgw_bin_decode_param(oid, m->vals[i], (size_t)m->lens[i], i + 1, &text, &err) < 0) {
            sl_buf_free(&text);
            ext_error(c, &err);
            return -1;
        }
        m->lens[i] = (int)text.len;
        m->vals[i] = m->decoded[i] = text.data ? sl_buf_steal(&text) : sl_xstrdup("");
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
        ext_errorf(c, SL_ERR_PROTOCOL_VIOLATION,
                   "bind message has %d parameter formats but %d parameters", m->nfmt, m->nparams);
        return -1;
    }
    if (m->nparams != s->nparams) {
        ext_errorf(c, SL_ERR_PROTOCOL_VIOLATION,
                   "bind message supplies %d parameters, but prepared statement \"%s\" requires %d",
                   m->nparams, m->stmt, s->nparams);
        return -1;
    }
    if (check_formats(c, m->fmts, m->nfmt) < 0 || check_formats(c, m->resfmts, m->nres) < 0 ||
        check_result_formats(c, m, s) < 0)
        return -1;
    if (m->portal[0] && portal_find(c, m->portal)) {
        ext_errorf(c, SL_ERR_DUPLICATE_CURSOR, "cursor \"%s\" already exists", m->portal);
        return -1;
    }
    return 0;
}

/* A portal from a checked and decoded Bind; it takes m->types. */
static void portal_create(pgw_conn_t *c, bind_msg_t *m, const pgw_stmt_t *s)
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
    p->param_types = m->types;
    m->types = NULL;
    p->nresfmts = m->nres;
    p->resfmts = sl_xcalloc((size_t)m->nres + 1, sizeof *p->resfmts);
    for (int i = 0; i < m->nres; i++) p->resfmts[i] = (int16_t)sl_get_u16be(m->resfmts + 2 * i);
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
        if (bind_check(c, &m, s) == 0 && bind_decode(c, &m, s) == 0) {
            portal_create(c, &m, s);
            pgw_msg_simple(&c->out, '2');
        }
    }
    for (int i = 0; m.decoded && i < m.nparams; i++) free(m.decoded[i]);
    free(m.decoded);
    free(m.types);
    free(m.vals);
    free(m.lens);
}

/* ---- Describe, Execute, Close, Sync ------------------------------------------------ */

static void describe_statement(pgw_conn_t *c, const pgw_stmt_t *s)
{
    size_t at = pgw_msg_begin(&c->out, 't');
    sl_buf_put_u16be(&c->out, (uint16_t)s->nparams);
    for (int i = 0; i < s->nparams; i++) {
        uint32_t oid = stmt_param_type(s, i + 1);
        sl_buf_put_u32be(&c->out, oid ? oid : PGW_OID_UNKNOWN_AS_TEXT);
    }
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
        else
            ext_errorf(c, SL_ERR_INVALID_SQL_STATEMENT_NAME,
                       "prepared statement \"%s\" does not exist", name);
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
    if (p->cur.reply && sess_txn_status(c->sess) == 'E') {
        ext_errorf(c, SL_ERR_IN_FAILED_SQL_TRANSACTION,
                   "current transaction is aborted, commands "
                   "ignored until end of transaction block");
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
    if (kind[0] == 'S') prep_drop(sess_prepared(c->sess), name);
    else portal_drop(c, name);
    pgw_msg_simple(&c->out, '3');
}

static void sync_message(pgw_conn_t *c)
{
    c->skip_till_sync = 0;
    pgw_query_ready(c);
}

void pgw_query_message(pgw_conn_t *c, char type, const char *body, size_t len)
{
    if (!c->closing) uv_timer_stop(&c->timer); /* the idle timeout: the client spoke */
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
    case 'd':
    case 'c':
    case 'f': break; /* COPY data after a failed COPY: ignored, as PostgreSQL does */
    case 'F': {
        sl_error_t err;
        sl_error_set(&err, SL_ERR_FEATURE_NOT_SUPPORTED, "function call protocol is not supported");
        pgw_msg_error(&c->out, "ERROR", &err);
        pgw_query_ready(c);
        break;
    }
    default:
        pgw_conn_fatal(c, SL_ERR_PROTOCOL_VIOLATION, "invalid frontend message type %d",
                       (int)(unsigned char)type);
    }
}
