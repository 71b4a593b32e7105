/* COPY FROM STDIN's load (the contract is in copy_in.h): jobs that split
 * the bytes received so far into records, turn each field into a value of
 * its column (exec_builder_set_text: INSERT's conversions and errors),
 * insert full batches through the session's connection, and end the
 * statement after the last chunk or a failure. Errors carry
 * PostgreSQL's COPY context ("COPY t, line 3, column a: "x"") as detail.
 *
 * Memory: the object's arena holds the relation and the options for its
 * whole life; each job's batches live in a job arena reset per batch. */
#include "server/copy_in.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "model/batch.h"
#include "server/catalog.h"
#include "server/objects.h"
#include "server/stmt.h"
#include "server/table_store.h"
#include "server/txn.h"

#define COPY_CONTEXT_MAX 100 /* bytes of a line or value quoted in an error, as PostgreSQL */

struct copy_in {
    srv_t *srv;
    sess_t *sess; /* whose transaction the rows join (sess_copy_begin) */
    txn_t *txn;
    tstore_conn_t *conn; /* the session's connection, holding the write lock */
    int open;            /* the statement has not ended */
    int started;         /* a job ran (check_writer) */
    sl_arena_t *arena;   /* relation, options, names */
    plan_relation_t rel;
    copy_opts_t opts;
    copy_null_rules_t rules;
    int nfields;
    int *target;
    unsigned char *is_target; /* per table column: some field fills it */
    /* parsing state, touched by the job only */
    sl_buf_t pending; /* bytes received and not yet parsed (a partial record) */
    uint64_t line;    /* records read, the header included */
    int header_left;  /* the header line is still to be skipped */
    int ended;        /* the "\." line was read: the rest is ignored */
    sl_buf_t scratch;
    copy_field_t *fields;
    int fields_cap;
    /* the job */
    uv_work_t work;
    int busy, closed, last; /* closed: loop thread only */
    atomic_int abort;       /* copy_in_abort: the next job only ends the statement */
    sl_error_t err;
    int failed;
    int64_t added;
    copy_in_cb cb;
    void *cb_arg;
};

/* ---- creation ---------------------------------------------------------------- */

static unsigned char *copy_flags(sl_arena_t *a, const unsigned char *src, int n)
{
    if (!src) return NULL;
    unsigned char *f = SL_NEW_ARRAY(a, unsigned char, n > 0 ? n : 1);
    memcpy(f, src, (size_t)n);
    return f;
}

static void copy_in_free(copy_in_t *ci)
{
    sl_buf_free(&ci->pending);
    sl_buf_free(&ci->scratch);
    free(ci->fields);
    sl_arena_free(ci->arena);
    free(ci);
}

copy_in_t *copy_in_new(srv_t *srv, sess_t *sess, const copy_in_spec_t *spec, sl_error_t *err)
{
    copy_in_t *ci = sl_xcalloc(1, sizeof *ci);
    ci->srv = srv;
    ci->arena = sl_arena_new("copy in");
    ci->work.data = ci;
    if (obj_lookup(srv->cat, spec->table, ci->arena, &ci->rel, err) != 1) {
        if (!sl_error_isset(err))
            sl_error_set(err, SL_ERR_UNDEFINED_TABLE, "relation \"%s\" does not exist",
                         spec->table);
        copy_in_free(ci);
        return NULL;
    }
    ci->txn = sess_txn(sess);
    if (!(ci->conn = txn_writer(ci->txn, "COPY FROM", err))) { /* nothing was read yet */
        copy_in_free(ci);
        return NULL;
    }
    ci->sess = sess;
    ci->open = 1;
    sess_copy_begin(sess);
    ci->opts = spec->opts;
    ci->opts.null_str = sl_strdup(ci->arena, spec->opts.null_str);
    ci->nfields = spec->nfields;
    ci->target = SL_NEW_ARRAY(ci->arena, int, spec->nfields > 0 ? spec->nfields : 1);
    ci->is_target =
        SL_NEW_ARRAY(ci->arena, unsigned char, ci->rel.stream.ncols > 0 ? ci->rel.stream.ncols : 1);
    for (int i = 0; i < spec->nfields; i++) {
        ci->target[i] = spec->target[i];
        ci->is_target[spec->target[i]] = 1;
    }
    ci->rules.n = spec->nfields;
    ci->rules.force_not_null = copy_flags(ci->arena, spec->force_not_null, spec->nfields);
    ci->rules.force_null = copy_flags(ci->arena, spec->force_null, spec->nfields);
    ci->header_left = spec->opts.header != COPY_HEADER_NONE;
    return ci;
}

/* ---- errors with COPY's context ------------------------------------------------ */

/* Appends `"text"`, cut at COPY_CONTEXT_MAX bytes with "...". */
static void quote_limited(char *out, size_t cap, const char *p, size_t n)
{
    int cut = n > COPY_CONTEXT_MAX;
    snprintf(out, cap, "\"%.*s%s\"", (int)(cut ? COPY_CONTEXT_MAX : n), p, cut ? "..." : "");
}

/* Detail "COPY t, line N: "<record>"". */
static void context_line(copy_in_t *ci, const char *rec, size_t n)
{
    char q[COPY_CONTEXT_MAX + 8];
    quote_limited(q, sizeof q, rec, n);
    sl_error_detail(&ci->err, "COPY %s, line %llu: %s", ci->rel.stream.name,
                    (unsigned long long)ci->line, q);
}

/* Detail "COPY t, line N, column c: "<value>"". */
static void context_column(copy_in_t *ci, int field, const copy_field_t *f)
{
    char q[COPY_CONTEXT_MAX + 8];
    quote_limited(q, sizeof q, f->p, f->n);
    sl_error_detail(&ci->err, "COPY %s, line %llu, column %s: %s", ci->rel.stream.name,
                    (unsigned long long)ci->line, ci->rel.stream.col_names[ci->target[field]], q);
}

static int fail_line(copy_in_t *ci, const char *rec, size_t n, const char *sqlstate,
                     const char *msg, const char *arg)
{
    sl_error_set(&ci->err, sqlstate, msg, arg);
    context_line(ci, rec, n);
    ci->failed = 1;
    return -1;
}

/* ---- one record ------------------------------------------------------------------ */

static int check_encoding(copy_in_t *ci, const char *rec, size_t n)
{
    size_t bad = copy_utf8_check(rec, n, 0);
    if (bad == n) return 0;
    sl_error_set(&ci->err, SL_ERR_CHARACTER_NOT_IN_REPERTOIRE,
                 "invalid byte sequence for encoding \"UTF8\": 0x%02x", (unsigned char)rec[bad]);
    sl_error_detail(&ci->err, "COPY %s, line %llu", ci->rel.stream.name,
                    (unsigned long long)ci->line); /* no text: it is not UTF-8 */
    ci->failed = 1;
    return -1;
}

/* HEADER MATCH: the names must be the columns', in order. */
static int check_header(copy_in_t *ci, const char *rec, size_t n, int nf)
{
    if (nf != ci->nfields) {
        sl_error_set(&ci->err, SL_ERR_BAD_COPY_FILE_FORMAT,
                     "wrong number of fields in header line: got %d, expected %d", nf, ci->nfields);
        context_line(ci, rec, n);
        ci->failed = 1;
        return -1;
    }
    for (int i = 0; i < nf; i++) {
        const copy_field_t *f = &ci->fields[i];
        const char *want = ci->rel.stream.col_names[ci->target[i]];
        if (!f->null && f->n == strlen(want) && !memcmp(f->p, want, f->n)) continue;
        sl_error_set(&ci->err, SL_ERR_BAD_COPY_FILE_FORMAT,
                     "column name mismatch in header line field %d: got \"%.*s\", expected \"%s\"",
                     i + 1, f->null ? 0 : (int)f->n, f->p, want);
        context_line(ci, rec, n);
        ci->failed = 1;
        return -1;
    }
    return 0;
}

/* Fills one builder row from the decoded fields. */
static int record_to_row(copy_in_t *ci, exec_builder_t *bld, const char *rec, size_t n, int nf)
{
    if (nf > ci->nfields)
        return fail_line(ci, rec, n, SL_ERR_BAD_COPY_FILE_FORMAT, "%s",
                         "extra data after last expected column");
    if (nf < ci->nfields)
        return fail_line(ci, rec, n, SL_ERR_BAD_COPY_FILE_FORMAT, "missing data for column \"%s\"",
                         ci->rel.stream.col_names[ci->target[nf]]);
    uint32_t row = exec_builder_add_row(bld);
    for (int c = 0; c < ci->rel.stream.ncols; c++)
        if (!ci->is_target[c]) exec_builder_set_null(bld, c, row);
    for (int i = 0; i < nf; i++) {
        const copy_field_t *f = &ci->fields[i];
        if (f->null) {
            exec_builder_set_null(bld, ci->target[i], row);
            continue;
        }
        if (exec_builder_set_text(bld, ci->target[i], row, f->p, f->n, &ci->err) < 0) {
            context_column(ci, i, f);
            ci->failed = 1;
            return -1;
        }
    }
    return 0;
}

static int handle_record(copy_in_t *ci, exec_builder_t *bld, const char *rec, size_t n)
{
    ci->line++;
    if (copy_is_end_marker(rec, n)) {
        ci->ended = 1;
        return 0;
    }
    if (check_encoding(ci, rec, n) < 0) return -1;
    int nf = copy_decode_record(&ci->opts, &ci->rules, rec, n, &ci->scratch, &ci->fields,
                                &ci->fields_cap, &ci->err);
    if (nf < 0) {
        context_line(ci, rec, n);
        ci->failed = 1;
        return -1;
    }
    if (ci->header_left) {
        ci->header_left = 0;
        return ci->opts.header == COPY_HEADER_MATCH ? check_header(ci, rec, n, nf) : 0;
    }
    return record_to_row(ci, bld, rec, n, nf);
}

/* ---- jobs --------------------------------------------------------------------------- */

/* Inserts the builder's rows, if any, and starts a new batch. */
static int flush_batch(copy_in_t *ci, exec_builder_t *bld, sl_arena_t *a)
{
    if (bld->batch->nrows == 0) return 0;
    exec_batch_t *b = exec_builder_finish(bld);
    if (tstore_insert(ci->srv->tstore, ci->conn, &ci->rel, b, &ci->err) < 0) {
        ci->failed = 1;
        return -1;
    }
    ci->added += b->nrows;
    sl_arena_reset(a);
    exec_builder_init(bld, a, ci->rel.stream.ncols, ci->rel.stream.col_types, EXEC_BATCH_ROWS);
    return 0;
}

/* Parses the whole records of ci->pending (all of it when last). */
static void parse_pending(copy_in_t *ci)
{
    sl_arena_t *a = sl_arena_new("copy batch");
    exec_builder_t bld;
    exec_builder_init(&bld, a, ci->rel.stream.ncols, ci->rel.stream.col_types, EXEC_BATCH_ROWS);
    size_t off = 0, len, used;
    const char *p = ci->pending.data;
    while (!ci->failed && !ci->ended &&
           (used = copy_next_record(&ci->opts, p + off, ci->pending.len - off, ci->last, &len)) >
               0) {
        if (handle_record(ci, &bld, p + off, len) < 0) break;
        off += used;
        if (bld.batch->nrows >= EXEC_BATCH_ROWS && flush_batch(ci, &bld, a) < 0) break;
    }
    if (!ci->failed) flush_batch(ci, &bld, a);
    if (ci->ended) off = ci->pending.len;
    sl_buf_consume(&ci->pending, off);
    sl_arena_free(a);
}

/* Before the first rows: the statement's write transaction is still open,
 * unless other statements of the session ran between the COPY statement
 * and its data (a COPY portal that Describe ran, then other statements
 * before its Execute) and ended it; then it begins again, without waiting
 * for the lock. */
static int check_writer(copy_in_t *ci)
{
    if (ci->started) return 0;
    ci->started = 1;
    if ((ci->conn = txn_writer(ci->txn, "COPY FROM", &ci->err))) return 0;
    txn_lock_busy(ci->txn); /* no statement runs again for it */
    ci->failed = 1;
    return -1;
}

/* Ends the statement: outside a transaction block its rows are committed
 * (ok) or rolled back; inside one they stay in the block's transaction
 * (a failed COPY fails the block: copy_in.h). */
static void end_statement(copy_in_t *ci, int ok)
{
    if (!ci->open) return;
    ci->open = 0;
    if (ok && ci->added > 0) txn_touched(ci->txn, ci->rel.stream.name);
    if (txn_statement_end(ci->txn, ok, &ci->err) < 0) ci->failed = 1;
    if (!ok || ci->failed) ci->added = 0;
}

static void work_cb(uv_work_t *w)
{
    copy_in_t *ci = w->data;
    if (atomic_load(&ci->abort)) { /* the client gave up */
        end_statement(ci, 0);
        return;
    }
    if (check_writer(ci) == 0 && !ci->ended) parse_pending(ci);
    if (ci->ended) sl_buf_clear(&ci->pending); /* what follows "\." is ignored */
    if (ci->failed) end_statement(ci, 0);
    else if (ci->last) end_statement(ci, 1);
}

static void after_work_cb(uv_work_t *w, int status);

static void queue_job(copy_in_t *ci)
{
    ci->busy = 1;
    uv_queue_work(ci->srv->loop, &ci->work, work_cb, after_work_cb);
}

static void after_work_cb(uv_work_t *w, int status)
{
    (void)status;
    copy_in_t *ci = w->data;
    ci->busy = 0;
    tstore_wake(ci->srv->tstore); /* sessions waiting for a lock the statement released */
    if (ci->closed) {
        copy_in_close(ci);
        return;
    }
    int abort = atomic_load(&ci->abort);
    if (abort && ci->open) { /* the abort came while this job ran */
        queue_job(ci);
        return;
    }
    ci->cb(ci->cb_arg, ci->failed && !abort ? &ci->err : NULL, (uint64_t)ci->added);
}

int copy_in_busy(const copy_in_t *ci)
{
    return ci->busy;
}

void copy_in_feed(copy_in_t *ci, sl_buf_t *data, int last, copy_in_cb cb, void *arg)
{
    if (ci->pending.len == 0) {
        sl_buf_free(&ci->pending);
        ci->pending = *data;
        *data = (sl_buf_t)SL_BUF_INIT;
    } else {
        sl_buf_append(&ci->pending, data->data, data->len);
        sl_buf_clear(data);
    }
    ci->last = last;
    ci->cb = cb;
    ci->cb_arg = arg;
    queue_job(ci);
}

void copy_in_abort(copy_in_t *ci, copy_in_cb cb, void *arg)
{
    ci->cb = cb;
    ci->cb_arg = arg;
    atomic_store(&ci->abort, 1);
    if (!ci->busy) queue_job(ci); /* else after_work_cb queues it */
}

void copy_in_close(copy_in_t *ci)
{
    if (!ci) return;
    ci->closed = 1;
    if (ci->busy) return; /* after_work_cb comes back here */
    sess_t *sess = ci->sess;
    int open = ci->open;
    copy_in_free(ci);
    sess_copy_end(sess, open);
}
