/* Helpers for the operator tests (test_exec_join*.c, test_exec_ops*.c):
 * batches from text, INPUT producers, running a hand-built plan with
 * exec_run, and rendering its output as text.
 *
 * Row text: rows separated by ';', cells by ',', the word NULL for a NULL
 * cell; each cell is parsed by the column's type (exec_builder_set_text).
 * Result text: the same form, one row per line in output order, or sorted
 * (tj_sorted) when the order across tasks does not matter. */
#ifndef TEST_EXEC_JOIN_UTIL_H
#define TEST_EXEC_JOIN_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/arena.h"
#include "common/buf.h"
#include "exec/op_exchange.h"
#include "exec/stage.h"
#include "unit.h"

/* One input task: the batches it produces. */
typedef struct tj_input {
    exec_batch_t *batches[64];
    int n;
} tj_input_t;

static inline exec_batch_t *tj_batch(sl_arena_t *a, int ncols, const exec_type_t *types,
                                     const char *rows)
{
    exec_builder_t bld;
    exec_builder_init(&bld, a, ncols, types, 0);
    const char *p = rows;
    while (p && *p) {
        const char *end = strchr(p, ';');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        uint32_t r = exec_builder_add_row(&bld);
        const char *c = p;
        for (int col = 0; col < ncols; col++) {
            const char *ce = memchr(c, ',', (size_t)(p + len - c));
            size_t cl = ce ? (size_t)(ce - c) : (size_t)(p + len - c);
            sl_error_t err = {0};
            if (cl == 4 && !memcmp(c, "NULL", 4)) exec_builder_set_null(&bld, col, r);
            else if (exec_builder_set_text(&bld, col, r, c, cl, &err) < 0)
                unit_fail(__FILE__, __LINE__, "bad cell %.*s: %s", (int)cl, c, err.message);
            c = ce ? ce + 1 : p + len;
        }
        p = end ? end + 1 : NULL;
    }
    return exec_builder_finish(&bld);
}

static inline void tj_add(tj_input_t *in, exec_batch_t *b)
{
    CHECK(in->n < 64);
    in->batches[in->n++] = b;
}

static inline int tj_produce(void *arg, sl_arena_t *a, exec_emit_fn emit, void *emit_arg,
                             sl_error_t *err)
{
    (void)a;
    tj_input_t *in = arg;
    for (int i = 0; i < in->n; i++)
        if (emit(emit_arg, in->batches[i], err) < 0) return -1;
    return 0;
}

/* A context for batch mode (no state) or streaming (state_dir set). */
static inline op_ctx_t tj_ctx(int64_t batch_id, const char *state_dir, const char *provider,
                              int npartitions)
{
    op_ctx_t c;
    memset(&c, 0, sizeof c);
    c.batch_id = batch_id;
    c.npartitions = npartitions;
    c.mode = state_dir ? OUTPUT_APPEND : OUTPUT_COMPLETE;
    c.state_dir = state_dir;
    c.state_provider = provider;
    return c;
}

/* Gives every stateful operator of a test plan (op_id < TJ_MAX_OPS) the
 * watermarks late / evict, through `table`, which must outlive the run. */
#define TJ_MAX_OPS 8
static inline void tj_set_wm(op_ctx_t *c, op_wm_t *table, int64_t late, int64_t evict)
{
    for (int i = 0; i < TJ_MAX_OPS; i++) table[i] = (op_wm_t){late, evict};
    c->wm = table;
}

/* Renders every output row, one per line. */
static inline char *tj_render(const exec_result_t *r)
{
    sl_buf_t b = SL_BUF_INIT;
    for (int i = 0; i < r->nbatches; i++) {
        const exec_batch_t *bt = r->batches[i];
        uint32_t n = exec_batch_count(bt);
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = exec_batch_row(bt, k);
            for (int c = 0; c < bt->ncols; c++) {
                if (c) sl_buf_putc(&b, ',');
                if (!exec_vec_text(&bt->cols[c], row, &b)) sl_buf_puts(&b, "NULL");
            }
            sl_buf_putc(&b, '\n');
        }
    }
    char *s = sl_xstrdup(b.data ? b.data : "");
    sl_buf_free(&b);
    return s;
}

static inline int tj_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of s sorted (s is changed; the result is malloc'd). */
static inline char *tj_sorted(char *s)
{
    char *lines[100000];
    int n = 0;
    for (char *p = strtok(s, "\n"); p && n < 100000; p = strtok(NULL, "\n")) lines[n++] = p;
    qsort(lines, (size_t)n, sizeof *lines, tj_cmp_str);
    sl_buf_t b = SL_BUF_INIT;
    for (int i = 0; i < n; i++) {
        sl_buf_puts(&b, lines[i]);
        sl_buf_putc(&b, '\n');
    }
    char *out = sl_xstrdup(b.data ? b.data : "");
    sl_buf_free(&b);
    return out;
}

/* Runs the plan; fails the test on an error. Output text (malloc'd). */
static inline char *tj_run_ctx(exec_pnode_t *root, const op_ctx_t *ctx, const exec_input_t *ins,
                               int nins, exec_result_t *keep)
{
    static exec_pool_t *pool;
    if (!pool) pool = exec_pool_new(3);
    exec_result_t r;
    sl_error_t err = {0};
    if (exec_run(root, ctx, 0, NULL, pool, ins, nins, &r, &err) < 0)
        unit_fail(__FILE__, __LINE__, "exec_run: %s: %s (%s)", err.sqlstate, err.message,
                  err.detail);
    char *s = tj_render(&r);
    if (keep) *keep = r;
    else exec_result_free(&r);
    return s;
}

/* A fresh temporary directory (malloc'd path). */
static inline char *tj_tmpdir(void)
{
    char *d = sl_xstrdup("/tmp/sluice-test-XXXXXX");
    CHECK(mkdtemp(d) != NULL);
    return d;
}

#define TJ_CHECK_TEXT(got, want)                                                              \
    do {                                                                                      \
        char *g_ = (got);                                                                     \
        const char *w_ = (want);                                                              \
        if (strcmp(g_, w_)) unit_fail(__FILE__, __LINE__, "got:\n%s\nexpected:\n%s", g_, w_); \
        free(g_);                                                                             \
    } while (0)

#endif
