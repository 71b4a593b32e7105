/* The console sink: logs each batch as Spark's ConsoleSink prints it —
 *
 *   -------------------------------------------
 *   Batch: 3
 *   -------------------------------------------
 *   +---+-----+
 *   |  a|    b|
 *   +---+-----+
 *   |  1|hello|
 *   +---+-----+
 *   only showing top 20 rows
 *
 * (Dataset.show: at most numRows rows; with truncate, cells longer than 20
 * characters cut to 17 and "...", and cells right-aligned; NULL as null)
 * through common/log.h at INFO, one log line per printed line, each tagged
 * query=<name>. At-least-once: a replayed batch is printed again. */
#include <string.h>

#include "common/log.h"
#include "connectors/conn_int.h"

#define CONSOLE_TRUNCATE 20

typedef struct console {
    int64_t num_rows;
    bool truncate;
} console_t;

/* The cells shown: a (1 + rows) x ncols grid of strings, header first. */
typedef struct grid {
    int ncols, nrows;
    const char **cells;
    size_t *width;
} grid_t;

static int console_options(const conn_desc_t *d, const conn_kv_t *o, int n, console_t *c,
                           sl_error_t *err)
{
    c->num_rows = 20;
    c->truncate = true;
    if (conn_opt_int64(d, o, n, "numRows", 0, INT32_MAX, &c->num_rows, err) < 0 ||
        conn_opt_bool(d, o, n, "truncate", &c->truncate, err) < 0)
        return -1;
    return 0;
}

int sink_console_validate(const conn_desc_t *desc, output_mode_t mode, const sink_schema_t *schema,
                          const conn_kv_t *opts, int nopts, sl_error_t *err)
{
    (void)mode, (void)schema;
    console_t c;
    return console_options(desc, opts, nopts, &c, err);
}

/* The shown text of one cell, truncated as Spark does. */
static const char *cell_text(const console_t *c, const exec_vec_t *v, uint32_t row, sl_arena_t *a)
{
    sl_buf_t b = SL_BUF_INIT;
    if (exec_vec_is_null(v, row)) sl_buf_puts(&b, "null");
    else if (v->type.id == EXEC_TYPE_BOOLEAN)
        sl_buf_puts(&b, EXEC_VEC_AT(v, uint8_t, row) ? "true" : "false");
    else if (!exec_vec_text(v, row, &b)) sl_buf_puts(&b, "null");
    if (c->truncate && b.len > CONSOLE_TRUNCATE) {
        b.len = CONSOLE_TRUNCATE - 3;
        sl_buf_puts(&b, "...");
    }
    const char *s = sl_strndup(a, b.data ? b.data : "", b.len);
    sl_buf_free(&b);
    return s;
}

static void grid_fill(const console_t *c, const sink_t *s, exec_batch_t *const *batches, int n,
                      grid_t *g, sl_arena_t *a)
{
    int64_t total = 0;
    for (int i = 0; i < n; i++) total += exec_batch_count(batches[i]);
    g->ncols = s->schema.ncols;
    g->nrows = (int)(total < c->num_rows ? total : c->num_rows);
    g->cells =
        SL_NEW_ARRAY(a, const char *, (size_t)(g->nrows + 1) * (size_t)(g->ncols ? g->ncols : 1));
    g->width = SL_NEW_ARRAY(a, size_t, g->ncols ? g->ncols : 1);
    for (int k = 0; k < g->ncols; k++) g->cells[k] = s->schema.names[k];
    int r = 1;
    for (int i = 0; i < n && r <= g->nrows; i++)
        for (uint32_t k = 0; k < exec_batch_count(batches[i]) && r <= g->nrows; k++, r++)
            for (int col = 0; col < g->ncols; col++)
                g->cells[(size_t)r * (size_t)g->ncols + (size_t)col] =
                    cell_text(c, &batches[i]->cols[col], exec_batch_row(batches[i], k), a);
    for (int col = 0; col < g->ncols; col++) {
        g->width[col] = 3;
        for (int row = 0; row <= g->nrows; row++) {
            size_t len = strlen(g->cells[(size_t)row * (size_t)g->ncols + (size_t)col]);
            if (len > g->width[col]) g->width[col] = len;
        }
    }
}

static void log_line(const sink_t *s, const char *line)
{
    SL_INFO("console", "query=%s %s", s->query_name, line);
}

static void grid_rule(const sink_t *s, const grid_t *g, sl_buf_t *b)
{
    sl_buf_clear(b);
    sl_buf_putc(b, '+');
    for (int col = 0; col < g->ncols; col++) {
        for (size_t i = 0; i < g->width[col]; i++) sl_buf_putc(b, '-');
        sl_buf_putc(b, '+');
    }
    log_line(s, b->data);
}

static void grid_row(const console_t *c, const sink_t *s, const grid_t *g, int row, sl_buf_t *b)
{
    sl_buf_clear(b);
    sl_buf_putc(b, '|');
    for (int col = 0; col < g->ncols; col++) {
        const char *cell = g->cells[(size_t)row * (size_t)g->ncols + (size_t)col];
        int pad = (int)(g->width[col] - strlen(cell));
        if (c->truncate) sl_buf_printf(b, "%*s%s|", pad, "", cell);
        else sl_buf_printf(b, "%s%*s|", cell, pad, "");
    }
    log_line(s, b->data);
}

static int console_add(sink_t *s, int64_t batch_id, exec_batch_t *const *batches, int n,
                       const sink_ahead_t *ahead, sl_error_t *err)
{
    if (sink_await_ahead(ahead, err) < 0) return -1;
    const console_t *c = s->impl;
    sl_arena_t *a = sl_arena_new("console sink");
    grid_t g;
    grid_fill(c, s, batches, n, &g, a);
    sl_buf_t b = SL_BUF_INIT;
    log_line(s, "-------------------------------------------");
    sl_buf_printf(&b, "Batch: %lld", (long long)batch_id);
    log_line(s, b.data);
    log_line(s, "-------------------------------------------");
    grid_rule(s, &g, &b);
    grid_row(c, s, &g, 0, &b);
    grid_rule(s, &g, &b);
    for (int r = 1; r <= g.nrows; r++) grid_row(c, s, &g, r, &b);
    grid_rule(s, &g, &b);
    int64_t total = 0;
    for (int i = 0; i < n; i++) total += exec_batch_count(batches[i]);
    if (total > g.nrows) {
        sl_buf_clear(&b);
        sl_buf_printf(&b, "only showing top %d row%s", g.nrows, g.nrows == 1 ? "" : "s");
        log_line(s, b.data);
    }
    s->last_output_rows = total;
    sl_buf_free(&b);
    sl_arena_free(a);
    return 0;
}

static void console_describe(sink_t *s, sl_buf_t *out)
{
    const console_t *c = s->impl;
    sl_buf_printf(out, "ConsoleSink[numRows=%lld, truncate=%s]", (long long)c->num_rows,
                  c->truncate ? "true" : "false");
}

static void console_destroy(sink_t *s)
{
    (void)s;
}

static const sink_ops_t console_ops = {
    .name = "console",
    .add_batch = console_add,
    .describe = console_describe,
    .destroy = console_destroy,
};

int sink_console_create(sink_t *s, const sink_env_t *env, sl_arena_t *a, sl_error_t *err)
{
    (void)env;
    console_t *c = SL_NEW(a, console_t);
    if (console_options(NULL, s->opts, s->nopts, c, err) < 0) return -1;
    s->impl = c;
    s->ops = &console_ops;
    return 0;
}
