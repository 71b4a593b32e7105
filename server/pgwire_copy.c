/* The COPY sub-protocol of a connection.
 *
 * COPY TO STDOUT: CopyOutResponse (text format, every column text), one
 * CopyData per line of the statement's COPY_OUT result, CopyDone, then
 * CommandComplete "COPY n"; paused and resumed on output backpressure like
 * DataRows.
 *
 * COPY FROM STDIN: CopyInResponse, then the client's CopyData are gathered
 * into chunks of PGW_COPY_CHUNK bytes, each parsed and staged by a job of
 * the load (server/copy_in.h) while the next chunk fills; when a chunk is
 * full and the job still runs, the connection stops reading (c->wait =
 * PGW_WAIT_COPY), so a fast client is held back by TCP. CopyDone runs the
 * last job, which ends the statement (outside a transaction block it
 * commits): CommandComplete "COPY n". CopyFail (57014), a cancel (57014),
 * a bad value (22P02 ...) or any other message (08P01) end the COPY with
 * an ErrorResponse once the load has undone its rows (a job on the pool,
 * during which no input is read), and fail a transaction block; the
 * client's remaining copy messages are dropped (pgwire_query.c). Flush
 * and Sync are ignored meanwhile, as
 * PostgreSQL does. In a simple Query, ReadyForQuery follows the COPY (or
 * the statements after it run first); from Execute, the client's Sync
 * brings it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/copy_in.h"
#include "server/pgwire_int.h"

#define PGW_COPY_CHUNK (1024 * 1024) /* CopyData bytes handed to one load job */

struct pgw_copy {
    copy_in_t *load;
    sl_buf_t buf;  /* CopyData not yet handed to a job */
    int extended;  /* started by Execute */
    int done;      /* CopyDone came */
    int last_sent; /* the last job (the commit) was started */
    int failing;   /* the client ended the COPY with `error`: the load undoes its rows */
    sl_error_t error;
    char *rest; /* simple Query: the statements after the COPY, or NULL */
};

/* CopyInResponse ('G') or CopyOutResponse ('H'): text, ncols text columns. */
static void copy_response(pgw_conn_t *c, char type, int ncols)
{
    size_t at = pgw_msg_begin(&c->out, type);
    sl_buf_putc(&c->out, 0);
    sl_buf_put_u16be(&c->out, (uint16_t)ncols);
    for (int i = 0; i < ncols; i++) sl_buf_put_u16be(&c->out, 0);
    pgw_msg_end(&c->out, at);
}

/* ---- COPY TO STDOUT ---------------------------------------------------------------- */

int pgw_copy_out_resume(pgw_conn_t *c, pgw_cursor_t *cur)
{
    const sess_result_t *r = cur->res;
    if (!cur->in_rows) {
        copy_response(c, 'H', r->ncols);
        cur->in_rows = 1;
        cur->off = 0;
    }
    const sl_buf_t *lines = &r->rows;
    while (cur->off + 4 <= lines->len) {
        if (c->out.len >= PGW_OUT_CHUNK) {
            pgw_conn_flush(c);
            if (pgw_conn_backlog(c) > PGW_OUT_HIGH || c->handles_closing) return 0;
        }
        uint32_t n = sl_get_u32be(lines->data + cur->off);
        size_t at = pgw_msg_begin(&c->out, 'd');
        sl_buf_append(&c->out, lines->data + cur->off + 4, n);
        pgw_msg_end(&c->out, at);
        cur->off += 4 + (size_t)n;
    }
    pgw_msg_simple(&c->out, 'c');
    pgw_msg_command_complete(&c->out, r->tag);
    cur->in_rows = 0;
    return 1;
}

/* ---- COPY FROM STDIN ----------------------------------------------------------------- */

void pgw_copy_release(pgw_conn_t *c)
{
    pgw_copy_t *cp = c->copy;
    if (!cp) return;
    c->copy = NULL;
    copy_in_close(cp->load);
    sl_buf_free(&cp->buf);
    free(cp->rest);
    free(cp);
}

void pgw_copy_in_start(pgw_conn_t *c, sess_result_t *r, int extended)
{
    pgw_copy_t *cp = sl_xcalloc(1, sizeof *cp);
    cp->load = r->copy_in;
    r->copy_in = NULL;
    cp->extended = extended;
    if (r->rest) cp->rest = sl_xstrdup(r->rest);
    c->copy = cp;
    copy_response(c, 'G', r->ncols);
}

/* The COPY statement ended with an error, having added nothing: a block
 * fails. `err` may live in the load, which goes first: it is copied. */
static void copy_report_error(pgw_conn_t *c, const sl_error_t *err)
{
    int extended = c->copy->extended;
    sl_error_t e;
    sl_error_copy(&e, err);
    pgw_copy_release(c);
    c->wait = PGW_WAIT_NONE;
    sess_txn_error(c->sess);
    pgw_msg_error(&c->out, "ERROR", &e);
    if (extended) c->skip_till_sync = 1;
    else pgw_query_ready(c);
}

static void on_abort_done(void *arg, const sl_error_t *err, uint64_t nrows)
{
    (void)err;
    (void)nrows;
    pgw_conn_t *c = arg;
    if (c->closing) { /* the session is gone: nothing more to say */
        pgw_copy_release(c);
        return;
    }
    copy_report_error(c, &c->copy->error);
    pgw_conn_process(c);
}

/* The client's side ends the COPY with an error: reported once the load
 * has undone the rows; no input is read until then. */
static void copy_fail(pgw_conn_t *c, const sl_error_t *err)
{
    pgw_copy_t *cp = c->copy;
    sl_error_copy(&cp->error, err);
    cp->failing = 1;
    c->wait = PGW_WAIT_COPY;
    copy_in_abort(cp->load, on_abort_done, c);
}

static void copy_failf(pgw_conn_t *c, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void copy_failf(pgw_conn_t *c, const char *sqlstate, const char *fmt, ...)
{
    sl_error_t err;
    va_list ap;
    va_start(ap, fmt);
    sl_error_setv(&err, sqlstate, fmt, ap);
    va_end(ap);
    copy_fail(c, &err);
}

/* The last job committed: CommandComplete, then the rest of the Query. */
static void copy_succeed(pgw_conn_t *c, uint64_t nrows)
{
    char tag[64], *rest = c->copy->rest;
    int extended = c->copy->extended;
    c->copy->rest = NULL;
    pgw_copy_release(c);
    c->wait = PGW_WAIT_NONE;
    snprintf(tag, sizeof tag, "COPY %llu", (unsigned long long)nrows);
    pgw_msg_command_complete(&c->out, tag);
    if (rest) pgw_query_run(c, rest);
    else if (!extended) pgw_query_ready(c);
    free(rest);
}

static void on_job_done(void *arg, const sl_error_t *err, uint64_t nrows);

/* Starts the next job when one is due: a full chunk, or the end. */
static void copy_pump(pgw_conn_t *c)
{
    pgw_copy_t *cp = c->copy;
    if (copy_in_busy(cp->load)) {
        if (cp->done || cp->buf.len >= PGW_COPY_CHUNK) c->wait = PGW_WAIT_COPY;
        return;
    }
    if (cp->done) {
        cp->last_sent = 1;
        c->wait = PGW_WAIT_COPY;
        copy_in_feed(cp->load, &cp->buf, 1, on_job_done, c);
    } else if (cp->buf.len >= PGW_COPY_CHUNK) {
        copy_in_feed(cp->load, &cp->buf, 0, on_job_done, c);
    }
}

static void on_job_done(void *arg, const sl_error_t *err, uint64_t nrows)
{
    pgw_conn_t *c = arg;
    if (c->closing) { /* the session is gone: nothing more to say */
        pgw_copy_release(c);
        return;
    }
    if (err) copy_report_error(c, err); /* the load ended the statement */
    else if (c->copy->last_sent) copy_succeed(c, nrows);
    else {
        c->wait = PGW_WAIT_NONE;
        copy_pump(c);
    }
    pgw_conn_process(c);
}

void pgw_copy_cancel(pgw_conn_t *c)
{
    if (c->copy->last_sent || c->copy->failing) return;
    copy_failf(c, SL_ERR_QUERY_CANCELED, "canceling statement due to user request");
    pgw_conn_process(c);
}

void pgw_copy_message(pgw_conn_t *c, char type, const char *body, size_t len)
{
    pgw_copy_t *cp = c->copy;
    switch (type) {
    case 'd':
        sl_buf_append(&cp->buf, body, len);
        copy_pump(c);
        break;
    case 'c':
        cp->done = 1;
        copy_pump(c);
        break;
    case 'f':
        copy_failf(c, SL_ERR_QUERY_CANCELED, "COPY from stdin failed: %.*s",
                   (int)strnlen(body, len), body);
        break;
    case 'H':
    case 'S': break; /* ignored during COPY FROM STDIN, as PostgreSQL does */
    case 'X': pgw_conn_close(c); break;
    default:
        copy_failf(c, SL_ERR_PROTOCOL_VIOLATION,
                   "unexpected message type 0x%02X during COPY from stdin",
                   (unsigned)(unsigned char)type);
    }
}
