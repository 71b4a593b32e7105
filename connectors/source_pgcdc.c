/* The postgres_cdc source: a PostgreSQL table's changes through logical
 * replication (pgoutput), after an initial snapshot.
 *
 * Columns: the stream declares the tables' columns it wants (matched by
 * name) and any of the metadata columns op STRING ('r' snapshot read,
 * 'c' insert, 'u' update, 'd' delete), sign INT (+1 insert or snapshot
 * row, -1 delete; an update is a -1 row of the row before it and a +1 row
 * of the row after it), lsn STRING (the transaction's commit end LSN) and
 * commit_time TIMESTAMP.
 *
 * Offsets are {"lsn":"X/Y"}. A query's first start creates the slot and,
 * with snapshot 'true', copies the tables as of the slot's consistent
 * point C into the checkpoint (source_pgcdc_pg.c); the initial offset is
 * then 0/0 and batch (0/0, C] is that snapshot, read from those files. A
 * later batch (S, E] is every transaction whose commit ends in (S, E],
 * whole transactions only.
 *
 * Threading rule: the replication connection is one stream, so only the
 * driver thread touches it. latest_offset reads what the stream has into
 * a buffer of changes (at most maxChangesPerTrigger whole changes beyond
 * the batch start, never splitting a transaction); plan moves the batch's
 * changes out of the buffer into the batch arena (reading the stream
 * until E first when a logged batch is replayed after a restart: the slot
 * replays from its confirmed position); read_split, on a worker, only
 * turns the split's copied changes into rows. commit(E) reports E to the
 * slot as flushed (confirmed_flush_lsn), so after a crash the slot still
 * holds every change of the batches that were not committed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "common/log.h"
#include "common/redact.h"
#include "connectors/source_pgcdc_int.h"

static const conn_desc_t *desc(void)
{
    return conn_lookup("postgres_cdc", CONN_SOURCE, NULL);
}

/* ---- options and columns ------------------------------------------------- */

/* Slot names are what PostgreSQL accepts: lower-case letters, digits, _. */
static int check_slot_name(const char *slot, sl_error_t *err)
{
    size_t n = strspn(slot, "abcdefghijklmnopqrstuvwxyz0123456789_");
    if (*slot && !slot[n] && n < 64) return 0;
    return conn_bad_option(err, "slot", slot,
                           "A slot name has 1 to 63 lower-case letters, digits and underscores.");
}

/* `tables`: comma-separated [schema.]name, schema defaulting to public. */
static int parse_tables(const char *text, pgcdc_t *c, sl_arena_t *a, sl_error_t *err)
{
    char *copy = sl_strdup(a, text), *save = NULL;
    c->tables = SL_NEW_ARRAY(a, char *, strlen(text) + 1);
    c->ntables = 0;
    for (char *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save))
        c->tables[c->ntables++] = strchr(t, '.') ? t : sl_printf(a, "public.%s", t);
    if (c->ntables) return 0;
    return conn_bad_option(err, "tables", text, "It must name at least one table.");
}

static int cdc_options(const conn_stream_t *rel, pgcdc_t *c, sl_arena_t *a, sl_error_t *err)
{
    const conn_desc_t *d = desc();
    const conn_kv_t *o = rel->opts;
    int n = rel->nopts;
    c->url = conn_option(d, o, n, "url");
    c->password = conn_option(d, o, n, "password");
    c->publication = conn_option(d, o, n, "publication");
    c->slot = conn_option(d, o, n, "slot");
    c->max_changes = 0;
    if (conn_opt_bool(d, o, n, "failOnDataLoss", &c->fail_on_loss, err) < 0 ||
        conn_opt_bool(d, o, n, "snapshot", &c->snapshot, err) < 0 ||
        conn_opt_int64(d, o, n, "maxChangesPerTrigger", 1, INT64_MAX, &c->max_changes, err) < 0 ||
        check_slot_name(c->slot, err) < 0 ||
        parse_tables(conn_option(d, o, n, "tables"), c, a, err) < 0)
        return -1;
    if (sl_secret_resolve(a, "url", c->url, &c->url, err) < 0) return -1;
    if (c->password && sl_secret_resolve(a, "password", c->password, &c->password, err) < 0)
        return -1;
    return 0;
}

static int cdc_columns(const conn_stream_t *rel, pgcdc_t *c, sl_error_t *err)
{
    c->rel = rel;
    if (conn_stream_column(rel, "op", EXEC_TYPE_STRING, &c->col_op, err) < 0 ||
        conn_stream_column(rel, "sign", EXEC_TYPE_INT, &c->col_sign, err) < 0 ||
        conn_stream_column(rel, "lsn", EXEC_TYPE_STRING, &c->col_lsn, err) < 0 ||
        conn_stream_column(rel, "commit_time", EXEC_TYPE_TIMESTAMP, &c->col_time, err) < 0)
        return -1;
    if (rel->ncols > 0) return 0;
    sl_error_set(err, SL_ERR_INVALID_OBJECT_DEFINITION,
                 "a postgres_cdc stream declares its columns");
    return sl_error_hint(err, "Declare the tables' columns you want, and any of op STRING, sign "
                              "INT, lsn STRING, commit_time TIMESTAMP.");
}

int source_pgcdc_validate(const conn_stream_t *rel, sl_error_t *err)
{
    pgcdc_t c;
    memset(&c, 0, sizeof c);
    sl_arena_t *a = sl_arena_new("pgcdc validate");
    int rc = cdc_options(rel, &c, a, err) < 0 || cdc_columns(rel, &c, err) < 0 ? -1 : 0;
    sl_arena_free(a);
    return rc;
}

/* ---- offsets --------------------------------------------------------------- */

static const char *offset_text(sl_arena_t *a, uint64_t lsn)
{
    char at[24];
    pgo_lsn_format(lsn, at, sizeof at);
    return sl_printf(a, "{\"lsn\":\"%s\"}", at);
}

static int offset_parse(const char *text, uint64_t *lsn, sl_error_t *err)
{
    json_t *j = json_loads(text, 0, NULL);
    const char *s = json_string_value(json_object_get(j, "lsn"));
    int rc = s && pgo_lsn_parse(s, lsn) == 0 ? 0 : -1;
    json_decref(j);
    if (rc == 0) return 0;
    sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "invalid postgres_cdc offset: %s", text);
    return sl_error_hint(err, "An offset is {\"lsn\":\"X/Y\"}.");
}

/* The offset a batch starts from: the logged start, or the initial one. */
static int start_lsn(source_t *s, const char *start, uint64_t *out, sl_error_t *err)
{
    pgcdc_t *c = s->impl;
    if (pgcdc_init(c, err) < 0) return -1;
    if (start) return offset_parse(start, out, err);
    *out = c->snapshot ? 0 : c->snap_lsn;
    return 0;
}

static int cdc_initial(source_t *s, sl_arena_t *a, const char **out, sl_error_t *err)
{
    uint64_t lsn;
    if (start_lsn(s, NULL, &lsn, err) < 0) return -1;
    *out = offset_text(a, lsn);
    return 0;
}

static bool is_snapshot_batch(const pgcdc_t *c, uint64_t start)
{
    return c->snapshot && start == 0;
}

/* Drops buffered changes of transactions ending at or before `lsn`. */
static void drop_through(pgcdc_t *c, uint64_t lsn)
{
    size_t k = 0;
    while (k < c->ncommitted && c->buf[k]->end_lsn <= lsn) k++;
    pgcdc_buffer_drop(c, k);
}

/* The end of the next batch from `start`: whole transactions, at most
 * `max` changes (0: all) unless one transaction alone is more, and not
 * past the AVAILABLE NOW point. */
static uint64_t choose_end(const pgcdc_t *c, uint64_t start, size_t max)
{
    uint64_t end = start;
    size_t count = 0, i = 0;
    while (i < c->ncommitted) {
        uint64_t e = c->buf[i]->end_lsn;
        size_t j = i;
        while (j < c->ncommitted && c->buf[j]->end_lsn == e) j++;
        if (c->avail_now && e > c->avail_now) break;
        if (max && end > start && count + (j - i) > max) break;
        end = e;
        count += j - i;
        i = j;
    }
    return end;
}

static int cdc_latest(source_t *s, const char *start, source_limit_t limit, sl_arena_t *a,
                      const char **end, const char **latest, sl_error_t *err)
{
    pgcdc_t *c = s->impl;
    uint64_t from;
    if (start_lsn(s, start, &from, err) < 0) return -1;
    if (is_snapshot_batch(c, from)) {
        *end = *latest = offset_text(a, c->snap_lsn);
        return 0;
    }
    size_t max = limit == SOURCE_LIMIT_ALL ? 0 : (size_t)c->max_changes;
    if (pgcdc_stream_start(c, from, err) < 0) return -1;
    drop_through(c, from);
    if (pgcdc_pump(c, c->avail_now, true, max, err) < 0) return -1;
    uint64_t e = choose_end(c, from, max);
    *end = offset_text(a, e);
    *latest = offset_text(a, c->resume > e ? c->resume : e);
    return 0;
}

static int cdc_available_now(source_t *s, sl_error_t *err)
{
    pgcdc_t *c = s->impl;
    return pgcdc_current_lsn(c, &c->avail_now, err);
}

/* ---- plan: the batch's changes, copied out of the buffer ------------------- */

typedef struct cdc_split {
    bool snapshot;
    const char *path; /* snapshot: dir/snapshot.<k> */
    uint64_t lsn;     /* snapshot: the slot's consistent point */
    int64_t us;
    cdc_change_t **changes;
    size_t n;
} cdc_split_t;

static cdc_change_t *change_copy(sl_arena_t *a, const cdc_change_t *ch, int ncols)
{
    cdc_change_t *out = SL_NEW(a, cdc_change_t);
    *out = *ch;
    out->vals = SL_NEW_ARRAY(a, const char *, ncols + 1);
    out->lens = SL_NEW_ARRAY(a, uint32_t, ncols + 1);
    for (int i = 0; i < ncols; i++) {
        out->lens[i] = ch->lens[i];
        out->vals[i] = ch->vals[i] ? sl_strndup(a, ch->vals[i], ch->lens[i]) : NULL;
    }
    return out;
}

static int plan_snapshot(source_t *s, sl_arena_t *a, source_split_t **splits, int *nsplits)
{
    pgcdc_t *c = s->impl;
    *splits = SL_NEW_ARRAY(a, source_split_t, c->ntables + 1);
    for (int k = 0; k < c->ntables; k++) {
        cdc_split_t *sp = SL_NEW(a, cdc_split_t);
        sp->snapshot = true;
        sp->path = sl_printf(a, "%s/snapshot.%d", c->dir, k);
        sp->lsn = c->snap_lsn;
        sp->us = c->snap_us;
        (*splits)[(*nsplits)++] = (source_split_t){k, sp};
    }
    return 0;
}

static int cdc_plan(source_t *s, int64_t batch_id, const char *start, const char *end,
                    sl_arena_t *a, source_split_t **splits, int *nsplits, sl_error_t *err)
{
    (void)batch_id;
    pgcdc_t *c = s->impl;
    uint64_t from, to;
    *splits = NULL;
    *nsplits = 0;
    if (start_lsn(s, start, &from, err) < 0 || offset_parse(end, &to, err) < 0) return -1;
    if (is_snapshot_batch(c, from)) return plan_snapshot(s, a, splits, nsplits);
    if (to <= from) return 0;
    if (pgcdc_stream_start(c, from, err) < 0) return -1;
    drop_through(c, from);
    if (pgcdc_pump(c, to, false, 0, err) < 0) return -1;
    size_t k = 0;
    while (k < c->ncommitted && c->buf[k]->end_lsn <= to) k++;
    if (k == 0) return 0;
    cdc_split_t *sp = SL_NEW(a, cdc_split_t);
    sp->changes = SL_NEW_ARRAY(a, cdc_change_t *, k);
    sp->n = k;
    for (size_t i = 0; i < k; i++) sp->changes[i] = change_copy(a, c->buf[i], s->rel->ncols);
    pgcdc_buffer_drop(c, k);
    *splits = SL_NEW(a, source_split_t);
    (*splits)[0] = (source_split_t){0, sp};
    *nsplits = 1;
    return 0;
}

/* ---- read_split: rows --------------------------------------------------------- */

/* The metadata columns of one row. */
static void set_meta(const pgcdc_t *c, exec_builder_t *b, uint32_t row, char op, int sign,
                     uint64_t lsn, int64_t us)
{
    char at[24];
    if (c->col_op >= 0) exec_builder_set_str(b, c->col_op, row, &op, 1);
    if (c->col_sign >= 0) exec_builder_set_int(b, c->col_sign, row, sign);
    if (c->col_lsn >= 0) {
        pgo_lsn_format(lsn, at, sizeof at);
        exec_builder_set_str(b, c->col_lsn, row, at, strlen(at));
    }
    if (c->col_time >= 0) exec_builder_set_bigint(b, c->col_time, row, us);
}

static bool column_is_data(const pgcdc_t *c, int i)
{
    return i != c->col_op && i != c->col_sign && i != c->col_lsn && i != c->col_time;
}

static int read_changes(source_t *s, const cdc_split_t *sp, sl_arena_t *a, source_emit_fn emit,
                        void *emit_arg, sl_error_t *err)
{
    const pgcdc_t *c = s->impl;
    for (size_t at = 0; at < sp->n;) {
        size_t cap = sp->n - at < EXEC_BATCH_ROWS ? sp->n - at : EXEC_BATCH_ROWS;
        exec_builder_t b;
        exec_builder_init(&b, a, s->rel->ncols, s->rel->col_types, (uint32_t)cap);
        for (size_t k = 0; k < cap; k++, at++) {
            const cdc_change_t *ch = sp->changes[at];
            uint32_t row = exec_builder_add_row(&b);
            for (int i = 0; i < s->rel->ncols; i++) {
                if (!column_is_data(c, i)) continue;
                if (!ch->vals[i]) exec_builder_set_null(&b, i, row);
                else if (exec_builder_set_text(&b, i, row, ch->vals[i], ch->lens[i], err) < 0)
                    return -1;
            }
            set_meta(c, &b, row, ch->op, ch->sign, ch->end_lsn, ch->commit_us);
        }
        if (emit(emit_arg, exec_builder_finish(&b), err) < 0) return -1;
    }
    return 0;
}

/* COPY text format: \N is NULL, backslash escapes (\t \n \\ \r ... octal). */
static size_t copy_unescape(char *s, size_t n)
{
    static const char from[] = "btnvfr", to[] = "\b\t\n\v\f\r";
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\' || i + 1 == n) {
            s[o++] = s[i];
            continue;
        }
        char e = s[++i];
        const char *k = strchr(from, e);
        if (k && e) {
            s[o++] = to[k - from];
        } else if (e >= '0' && e <= '7') {
            int v = 0;
            for (int d = 0; d < 3 && i < n && s[i] >= '0' && s[i] <= '7'; d++)
                v = v * 8 + s[i++] - '0';
            i--;
            s[o++] = (char)v;
        } else {
            s[o++] = e;
        }
    }
    return o;
}

/* The snapshot file's first line: the stream column of each COPY field. */
static int snapshot_header(FILE *f, int *cols, int ncols, int *nfields)
{
    char *line = NULL;
    size_t cap = 0;
    *nfields = 0;
    if (getline(&line, &cap, f) < 0) {
        free(line);
        return -1;
    }
    char *save = NULL;
    for (char *t = strtok_r(line, " \n", &save); t && *nfields < ncols;
         t = strtok_r(NULL, " \n", &save))
        cols[(*nfields)++] = atoi(t);
    free(line);
    return 0;
}

static int snapshot_row(const pgcdc_t *c, exec_builder_t *b, char *line, size_t len,
                        const int *cols, int nfields, const cdc_split_t *sp, sl_error_t *err)
{
    uint32_t row = exec_builder_add_row(b);
    for (int i = 0; i < c->rel->ncols; i++)
        if (column_is_data(c, i)) exec_builder_set_null(b, i, row);
    char *p = line, *stop = line + len;
    for (int f = 0; f < nfields && p <= stop; f++) {
        char *tab = memchr(p, '\t', (size_t)(stop - p));
        char *fend = tab ? tab : stop;
        size_t n = (size_t)(fend - p);
        if (!(n == 2 && p[0] == '\\' && p[1] == 'N')) {
            n = copy_unescape(p, n);
            if (exec_builder_set_text(b, cols[f], row, p, n, err) < 0) return -1;
        }
        p = fend + 1;
    }
    set_meta(c, b, row, 'r', 1, sp->lsn, sp->us);
    return 0;
}

static int read_snapshot(source_t *s, const cdc_split_t *sp, sl_arena_t *a, source_emit_fn emit,
                         void *emit_arg, sl_error_t *err)
{
    const pgcdc_t *c = s->impl;
    FILE *f = fopen(sp->path, "r");
    if (!f) return conn_io_error(err, "open", sp->path);
    int *cols = SL_NEW_ARRAY(a, int, s->rel->ncols + 1), nfields;
    int rc = snapshot_header(f, cols, s->rel->ncols, &nfields);
    if (rc < 0) rc = conn_io_error(err, "read", sp->path);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len = 0;
    while (rc == 0 && len >= 0) {
        exec_builder_t b;
        exec_builder_init(&b, a, s->rel->ncols, s->rel->col_types, EXEC_BATCH_ROWS);
        uint32_t rows = 0;
        while (rc == 0 && rows < EXEC_BATCH_ROWS && (len = getline(&line, &cap, f)) > 0) {
            if (line[len - 1] == '\n') len--;
            rc = snapshot_row(c, &b, line, (size_t)len, cols, nfields, sp, err);
            rows++;
        }
        if (rc == 0 && rows) rc = emit(emit_arg, exec_builder_finish(&b), err);
    }
    free(line);
    fclose(f);
    return rc;
}

static int cdc_read(source_t *s, const source_split_t *split, sl_arena_t *a, source_emit_fn emit,
                    void *emit_arg, sl_error_t *err)
{
    const cdc_split_t *sp = split->data;
    return sp->snapshot ? read_snapshot(s, sp, a, emit, emit_arg, err)
                        : read_changes(s, sp, a, emit, emit_arg, err);
}

/* ---- the rest of the interface --------------------------------------------- */

static int cdc_change_fd(source_t *s)
{
    pgcdc_t *c = s->impl;
    return c->repl ? PQsocket(c->repl) : -1;
}

static void cdc_commit(source_t *s, const char *end)
{
    pgcdc_t *c = s->impl;
    uint64_t lsn;
    sl_error_t err;
    if (offset_parse(end, &lsn, &err) < 0 || pgcdc_confirm(c, lsn, &err) < 0)
        SL_WARN("pgcdc", "could not confirm %s to slot \"%s\": %s", end, c->slot, err.message);
}

static void cdc_describe(source_t *s, sl_buf_t *out)
{
    const pgcdc_t *c = s->impl;
    sl_buf_printf(out, "PostgresCDC[slot=%s, publication=%s, tables=", c->slot, c->publication);
    for (int k = 0; k < c->ntables; k++) sl_buf_printf(out, "%s%s", k ? "," : "", c->tables[k]);
    sl_buf_putc(out, ']');
}

static void cdc_destroy(source_t *s)
{
    pgcdc_free(s->impl);
}

static const source_ops_t cdc_ops = {
    .name = "postgres_cdc",
    .reports_latest = 1,
    .initial_offset = cdc_initial,
    .latest_offset = cdc_latest,
    .prepare_available_now = cdc_available_now,
    .plan = cdc_plan,
    .read_split = cdc_read,
    .change_fd = cdc_change_fd,
    .commit = cdc_commit,
    .describe = cdc_describe,
    .destroy = cdc_destroy,
};

int source_pgcdc_create(source_t *s, sl_arena_t *a, sl_error_t *err)
{
    pgcdc_t *c = SL_NEW(a, pgcdc_t);
    if (cdc_options(s->rel, c, a, err) < 0 || cdc_columns(s->rel, c, err) < 0) return -1;
    c->dir = s->dir;
    s->impl = c;
    s->ops = &cdc_ops;
    return 0;
}
