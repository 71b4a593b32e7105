/* Helpers shared by the connector unit tests (test_connectors*.c):
 * temporary directories, files, relations built from a schema text,
 * collecting emitted batches as text rows, and driving a source through
 * one micro-batch the way the runner does. Header-only (static functions),
 * included once per test binary. */
#ifndef SL_TEST_CONNECTORS_UTIL_H
#define SL_TEST_CONNECTORS_UTIL_H

#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/arena.h"
#include "common/buf.h"
#include "connectors/connector.h"
#include "connectors/source.h"
#include "model/batch.h"
#include "model/types.h"
#include "unit.h"

/* ---- files ---------------------------------------------------------------- */

/* A new empty directory under /tmp (left behind when a test fails, for a look). */
static inline char *tc_tmpdir(sl_arena_t *a)
{
    char *p = sl_strdup(a, "/tmp/sluice-conn-XXXXXX");
    CHECK(mkdtemp(p) != NULL);
    return p;
}

static inline int tc_rm_cb(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(p);
}

static inline void tc_rmtree(const char *p)
{
    nftw(p, tc_rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

static inline void tc_write(const char *dir, const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fputs(text, f);
    fclose(f);
}

/* Sets a file's modification time to `sec` seconds after the epoch. */
static inline void tc_mtime(const char *dir, const char *name, long sec)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct timespec ts[2] = {{sec, 0}, {sec, 0}};
    CHECK(utimensat(AT_FDCWD, path, ts, 0) == 0);
}

/* The whole content of a file into `a`, NULL when it does not exist. */
static inline char *tc_read(sl_arena_t *a, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    sl_buf_t b = SL_BUF_INIT;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) sl_buf_append(&b, chunk, n);
    fclose(f);
    char *s = sl_strndup(a, b.data ? b.data : "", b.len);
    sl_buf_free(&b);
    return s;
}

static inline bool tc_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* ---- relations ------------------------------------------------------------ */

/* A relation of `schema` ("a INT, b STRING") using connector `conn` in
 * `role`, with options given as key, value, ..., NULL. */
static inline conn_stream_t *tc_rel_v(sl_arena_t *a, const char *conn, conn_role_t role,
                                      const char *schema, va_list ap)
{
    conn_stream_t *r = SL_NEW(a, conn_stream_t);
    sl_error_t err;
    r->name = "s";
    r->connector = conn_lookup(conn, role, &err);
    CHECK(r->connector != NULL);
    exec_type_t t;
    CHECK(exec_schema_parse(schema, strlen(schema), a, &t, &err) == 0);
    r->ncols = t.nfields;
    r->col_names = SL_NEW_ARRAY(a, const char *, t.nfields + 1);
    r->col_types = SL_NEW_ARRAY(a, exec_type_t, t.nfields + 1);
    for (int i = 0; i < t.nfields; i++) {
        r->col_names[i] = t.fields[i].name;
        r->col_types[i] = t.fields[i].type;
    }
    r->opts = SL_NEW_ARRAY(a, conn_kv_t, 16);
    for (const char *k; (k = va_arg(ap, const char *));) {
        r->opts[r->nopts].key = k;
        r->opts[r->nopts++].value = va_arg(ap, const char *);
    }
    return r;
}

static inline conn_stream_t *tc_rel(sl_arena_t *a, const char *conn, conn_role_t role,
                                    const char *schema, ...)
{
    va_list ap;
    va_start(ap, schema);
    conn_stream_t *r = tc_rel_v(a, conn, role, schema, ap);
    va_end(ap);
    return r;
}

/* ---- rows as text ------------------------------------------------------------ */

/* Emitted batches, kept; rows rendered as "c1|c2|..." with NULL as "∅". */
typedef struct tc_rows {
    sl_arena_t *a;
    int n, cap;
    const char **rows;
    int batches;
    uint32_t max_batch_rows;
} tc_rows_t;

static inline void tc_rows_add_batch(tc_rows_t *r, const exec_batch_t *b)
{
    r->batches++;
    if (exec_batch_count(b) > r->max_batch_rows) r->max_batch_rows = exec_batch_count(b);
    sl_buf_t line = SL_BUF_INIT;
    for (uint32_t k = 0; k < exec_batch_count(b); k++) {
        uint32_t row = exec_batch_row(b, k);
        sl_buf_clear(&line);
        for (int c = 0; c < b->ncols; c++) {
            if (c) sl_buf_putc(&line, '|');
            if (!exec_vec_text(&b->cols[c], row, &line)) sl_buf_puts(&line, "∅");
        }
        if (r->n == r->cap) {
            int nc = r->cap ? r->cap * 2 : 64;
            r->rows = sl_arena_realloc(r->a, r->rows, sizeof *r->rows * (size_t)r->cap,
                                       sizeof *r->rows * (size_t)nc);
            r->cap = nc;
        }
        r->rows[r->n++] = sl_strdup(r->a, line.data ? line.data : "");
    }
    sl_buf_free(&line);
}

static inline int tc_emit(void *arg, exec_batch_t *b, sl_error_t *err)
{
    (void)err;
    tc_rows_add_batch(arg, b);
    return 0;
}

/* All rows joined by '\n' (for CHECK_STR). */
static inline const char *tc_join(const tc_rows_t *r)
{
    sl_buf_t b = SL_BUF_INIT;
    for (int i = 0; i < r->n; i++) {
        if (i) sl_buf_putc(&b, '\n');
        sl_buf_puts(&b, r->rows[i]);
    }
    const char *s = sl_strdup(r->a, b.data ? b.data : "");
    sl_buf_free(&b);
    return s;
}

/* ---- driving a source ---------------------------------------------------------- */

/* Plans (start, end] as batch `batch_id` and reads every split into `out`
 * (a fresh tc_rows_t in `a`). Returns 0, or -1 with err from the source. */
static inline int tc_read_batch(source_t *s, int64_t batch_id, const char *start, const char *end,
                                sl_arena_t *a, tc_rows_t *out, sl_error_t *err)
{
    memset(out, 0, sizeof *out);
    out->a = a;
    source_split_t *splits;
    int n;
    if (s->ops->plan(s, batch_id, start, end, a, &splits, &n, err) < 0) return -1;
    if (s->ops->write_ahead && s->ops->write_ahead(s, batch_id, err) < 0) return -1;
    for (int i = 0; i < n; i++)
        if (s->ops->read_split(s, &splits[i], a, tc_emit, out, err) < 0) return -1;
    return 0;
}

/* One whole micro-batch: latest_offset from `start`, then read. *end gets the end offset. */
static inline int tc_next_batch(source_t *s, int64_t batch_id, const char *start,
                                source_limit_t limit, sl_arena_t *a, const char **end,
                                tc_rows_t *out, sl_error_t *err)
{
    const char *latest;
    if (s->ops->latest_offset(s, start, limit, a, end, &latest, err) < 0) return -1;
    return tc_read_batch(s, batch_id, start, *end, a, out, err);
}

/* A pinned clock for sources (tests set tc_now_ms). */
static int64_t tc_now_ms = 1700000000000;
static inline int64_t tc_clock(void)
{
    return tc_now_ms;
}

#endif
