/* A harness that drives the micro-batch runner (runtime/runner.h) without a
 * daemon, in the manner of Spark's StreamTest (AddData / StartStream /
 * StopStream / CheckAnswer): a scripted source, a sink that keeps each
 * batch in a file of its own, a query given as SQL over the stream
 * s(v BIGINT, ts TIMESTAMP) — row v has event time v seconds after the epoch,
 * and a watermark on ts with a delay the test chooses — and crash points:
 * a trigger run in a child process that a failpoint kills
 * (common/failpoint.h), after which the parent restarts the query on the
 * same checkpoint, as the daemon would after kill -9.
 *
 *   rh_t *h = rh_new("SELECT v FROM s WHERE v % 2 = 0", OUTPUT_APPEND);
 *   RH_ADD(h, 1, 2, 3, 4);                AddData
 *   rh_start(h);                          StartStream (opens the checkpoint)
 *   rh_process(h);                        processAllAvailable
 *   CHECK_STR(rh_answer(h), "2\n4");      CheckAnswer (sorted rows)
 *   rh_stop(h);                           StopStream
 *   CHECK_INT(rh_crash(h, "runner.before_commit"), 137);
 *
 * Header-only (static functions), included once per test binary. */
#ifndef SL_RUNNER_HARNESS_H
#define SL_RUNNER_HARNESS_H

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/durable.h"
#include "common/failpoint.h"
#include "common/pool.h"
#include "connectors/connector.h"
#include "connectors/sink.h"
#include "connectors/source.h"
#include "model/batch.h"
#include "parser/parser.h"
#include "planner/check.h"
#include "planner/physical.h"
#include "planner/plan.h"
#include "runtime/runner.h"
#include "unit.h"

typedef struct rh {
    sl_arena_t *a;
    const char *sql; /* the query's SELECT over s */
    output_mode_t mode;
    int64_t wm_delay_ms;    /* the stream's watermark delay; < 0: no watermark */
    int64_t max_per_batch;  /* rows a batch may take (maxOffsetsPerTrigger); 0: all */
    char *dir, *ckpt, *out; /* temp root, checkpoint, the sink's batch files */
    int64_t *rows;          /* the stream's rows: v */
    int nrows, cap;
    /* while started */
    sl_arena_t *run;
    plan_physical_t *phys;
    source_t *src;
    sink_t *sink;
    exec_pool_t *pool, *io;
    runner_t *runner;
    int batches_written, batches_skipped; /* by the sink, since the last start */
} rh_t;

/* ---- the scripted source: offsets are row counts ---------------------------- */

typedef struct rh_split {
    int64_t from, to; /* rows [from, to) */
} rh_split_t;

static inline int64_t rh_offset(const char *text)
{
    return text ? strtoll(text, NULL, 10) : 0;
}

static int rh_src_initial(source_t *s, sl_arena_t *a, const char **out, sl_error_t *err)
{
    (void)s, (void)err;
    *out = sl_strdup(a, "0");
    return 0;
}

static int rh_src_latest(source_t *s, const char *start, source_limit_t limit, sl_arena_t *a,
                         const char **end, const char **latest, sl_error_t *err)
{
    (void)err;
    const rh_t *h = s->impl;
    int64_t from = rh_offset(start), to = h->nrows;
    if (limit == SOURCE_LIMIT_DEFAULT && h->max_per_batch > 0 && to - from > h->max_per_batch)
        to = from + h->max_per_batch;
    *end = sl_printf(a, "%lld", (long long)to);
    *latest = sl_printf(a, "%lld", (long long)h->nrows);
    return 0;
}

static int rh_src_plan(source_t *s, int64_t batch_id, const char *start, const char *end,
                       sl_arena_t *a, source_split_t **splits, int *nsplits, sl_error_t *err)
{
    (void)s, (void)batch_id, (void)err;
    rh_split_t *sp = SL_NEW(a, rh_split_t);
    sp->from = rh_offset(start);
    sp->to = rh_offset(end);
    *splits = SL_NEW(a, source_split_t);
    (*splits)[0] = (source_split_t){.partition = 0, .data = sp};
    *nsplits = sp->to > sp->from ? 1 : 0;
    return 0;
}

static int rh_src_read(source_t *s, const source_split_t *split, sl_arena_t *a, source_emit_fn emit,
                       void *emit_arg, sl_error_t *err)
{
    const rh_t *h = s->impl;
    const rh_split_t *sp = split->data;
    exec_builder_t b;
    exec_builder_init(&b, a, s->rel->ncols, s->rel->col_types, (uint32_t)(sp->to - sp->from));
    for (int64_t i = sp->from; i < sp->to; i++) {
        uint32_t row = exec_builder_add_row(&b);
        exec_builder_set_bigint(&b, 0, row, h->rows[i]);
        exec_builder_set_bigint(&b, 1, row, h->rows[i] * 1000000); /* v seconds, in micros */
    }
    return emit(emit_arg, b.batch, err);
}

static void rh_src_describe(source_t *s, sl_buf_t *out)
{
    (void)s;
    sl_buf_puts(out, "ScriptedSource");
}

static const source_ops_t RH_SOURCE_OPS = {.name = "scripted",
                                           .initial_offset = rh_src_initial,
                                           .latest_offset = rh_src_latest,
                                           .plan = rh_src_plan,
                                           .read_split = rh_src_read,
                                           .describe = rh_src_describe};

/* ---- the sink: batch N in <out>/N, once --------------------------------------- */

static int rh_sink_add(sink_t *s, int64_t batch_id, exec_batch_t *const *batches, int n,
                       const sink_ahead_t *ahead, sl_error_t *err)
{
    rh_t *h = s->impl;
    char name[32];
    snprintf(name, sizeof name, "%lld", (long long)batch_id);
    char *path = sl_fs_path(h->out, name);
    int exists = sl_fs_exists(path);
    free(path);
    if (exists) { /* a replayed batch this sink already holds */
        h->batches_skipped++;
        return 0;
    }
    sl_buf_t text = SL_BUF_INIT;
    for (int i = 0; i < n; i++)
        for (uint32_t k = 0; k < exec_batch_count(batches[i]); k++) {
            uint32_t row = exec_batch_row(batches[i], k);
            for (int c = 0; c < s->schema.ncols; c++) {
                if (c) sl_buf_putc(&text, '|');
                if (!exec_vec_text(&batches[i]->cols[c], row, &text)) sl_buf_puts(&text, "NULL");
            }
            sl_buf_putc(&text, '\n');
        }
    int rc = sink_await_ahead(ahead, err);
    if (rc == 0)
        rc = sl_fs_write_file(h->out, name, text.data ? text.data : "", text.len, 0, NULL, NULL,
                              err);
    sl_buf_free(&text);
    if (rc == 0) h->batches_written++;
    return rc;
}

static void rh_sink_describe(sink_t *s, sl_buf_t *out)
{
    (void)s;
    sl_buf_puts(out, "BatchFileSink");
}

static const sink_ops_t RH_SINK_OPS = {
    .name = "batchfiles", .add_batch = rh_sink_add, .describe = rh_sink_describe};

/* ---- the stream as the planner sees it ------------------------------------------ */

static conn_stream_t rh_stream(sl_arena_t *a)
{
    exec_type_t *types = SL_NEW_ARRAY(a, exec_type_t, 2);
    types[0] = exec_type_of(EXEC_TYPE_BIGINT);
    types[1] = exec_type_of(EXEC_TYPE_TIMESTAMP);
    const char **names = SL_NEW_ARRAY(a, const char *, 2);
    names[0] = "v";
    names[1] = "ts";
    sl_error_t err;
    return (conn_stream_t){.name = "s",
                           .ncols = 2,
                           .col_names = names,
                           .col_types = types,
                           .connector = conn_lookup("rate", CONN_SOURCE, &err)};
}

static int rh_lookup(void *ctx, const char *name, sl_arena_t *a, plan_relation_t *out,
                     sl_error_t *err)
{
    (void)err;
    const rh_t *h = ctx;
    if (strcmp(name, "s")) return 0;
    *out = (plan_relation_t){.kind = PLAN_REL_STREAM,
                             .stream = rh_stream(a),
                             .wm_col = h->wm_delay_ms >= 0 ? 1 : -1,
                             .wm_delay_ms = h->wm_delay_ms > 0 ? h->wm_delay_ms : 0};
    return 1;
}

/* ---- the steps ---------------------------------------------------------------- */

static inline rh_t *rh_new(const char *select_sql, output_mode_t mode)
{
    sl_arena_t *a = sl_arena_new("runner harness");
    rh_t *h = SL_NEW(a, rh_t);
    h->a = a;
    h->sql = sl_strdup(a, select_sql);
    h->mode = mode;
    h->wm_delay_ms = -1;
    h->dir = sl_strdup(a, "/tmp/sluice-runner-XXXXXX");
    CHECK(mkdtemp(h->dir) != NULL);
    h->ckpt = sl_printf(a, "%s/checkpoint", h->dir);
    h->out = sl_printf(a, "%s/out", h->dir);
    sl_error_t err;
    CHECK(sl_fs_mkdirs(h->out, 0700, &err) == 0);
    return h;
}

/* AddData: appends rows (v values) to the stream. */
static inline void rh_add(rh_t *h, const int64_t *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (h->nrows == h->cap) {
            int nc = h->cap ? h->cap * 2 : 64;
            h->rows = sl_arena_realloc(h->a, h->rows, sizeof *h->rows * (size_t)h->cap,
                                       sizeof *h->rows * (size_t)nc);
            h->cap = nc;
        }
        h->rows[h->nrows++] = v[i];
    }
}
#define RH_ADD(h, ...)                          \
    rh_add((h), (const int64_t[]){__VA_ARGS__}, \
           (int)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))

static inline void rh_plan(rh_t *h, sl_arena_t *a)
{
    sl_error_t err;
    ast_stmt_list_t stmts;
    if (parse_sql(h->sql, strlen(h->sql), a, &stmts, &err) < 0 || stmts.n != 1 ||
        stmts.items[0]->kind != AST_STMT_SELECT)
        unit_fail(__FILE__, __LINE__, "the harness's query does not parse: %s", err.message);
    plan_catalog_t cat = {.ctx = h, .lookup = rh_lookup};
    plan_ctx_t pc = {.arena = a, .cat = &cat, .sql = h->sql, .allow_streams = 1};
    plan_node_t *lp = plan_bind(&pc, stmts.items[0]->select, &err);
    if (!lp ||
        plan_check_streaming(lp, h->mode, 0, conn_lookup("memory", CONN_SINK, &err), &err) < 0)
        unit_fail(__FILE__, __LINE__, "the harness's query is refused: %s", err.message);
    plan_phys_opts_t o = {.streaming = 1, .npartitions = 2, .mode = h->mode};
    if (!(h->phys = plan_physical(a, lp, &o, &err)))
        unit_fail(__FILE__, __LINE__, "no physical plan: %s", err.message);
}

/* StartStream: plans the query and opens the runner on the checkpoint (the
 * first trigger re-runs a batch a crash left uncommitted). 0, or -1 with err. */
static inline int rh_start_err(rh_t *h, sl_error_t *err)
{
    h->run = sl_arena_new("harness run");
    rh_plan(h, h->run);
    const plan_physical_t *p = h->phys;
    h->src = SL_NEW(h->run, source_t);
    conn_stream_t *st = SL_NEW(h->run, conn_stream_t);
    *st = rh_stream(h->run);
    *h->src =
        (source_t){.ops = &RH_SOURCE_OPS, .rel = st, .dir = h->ckpt, .query_name = "q", .impl = h};
    h->sink = SL_NEW(h->run, sink_t);
    *h->sink = (sink_t){.ops = &RH_SINK_OPS,
                        .query_name = "q",
                        .mode = h->mode,
                        .schema = {.ncols = p->ncols, .names = p->names, .types = p->types},
                        .impl = h};
    runner_input_t *in = SL_NEW_ARRAY(h->run, runner_input_t, p->ninputs + 1);
    int nin = 0;
    for (int i = 0; i < p->ninputs; i++)
        if (p->inputs[i].kind == PLAN_INPUT_STREAM)
            in[nin++] = (runner_input_t){.leaf = p->inputs[i].leaf, .source = 0};
    h->pool = exec_pool_new(2);
    h->io = exec_pool_new(2);
    h->batches_written = h->batches_skipped = 0;
    runner_spec_t spec = {.name = "q",
                          .checkpoint = h->ckpt,
                          .root = p->root,
                          .ninputs = nin,
                          .inputs = in,
                          .nsources = 1,
                          .sources = &h->src,
                          .sink = h->sink,
                          .nwatermarks = p->nwatermarks,
                          .watermarks = p->watermarks,
                          .wm_delays = p->wm_delays,
                          .nstateful = p->nstateful,
                          .stateful = p->stateful,
                          .mode = h->mode,
                          .npartitions = 2,
                          .state_provider = "memory",
                          .watermark_policy = "min",
                          .min_batches_to_retain = 100,
                          .pool = h->pool,
                          .io_pool = h->io};
    h->runner = runner_open(&spec, err);
    return h->runner ? 0 : -1;
}

static inline void rh_start(rh_t *h)
{
    sl_error_t err;
    if (rh_start_err(h, &err) < 0) unit_fail(__FILE__, __LINE__, "runner_open: %s", err.message);
}

/* StopStream. */
static inline void rh_stop(rh_t *h)
{
    runner_close(h->runner);
    exec_pool_free(h->pool);
    exec_pool_free(h->io);
    sl_arena_free(h->run);
    h->runner = NULL;
}

/* One trigger: 1 when a batch ran, 0 when idle, -1 with err. */
static inline int rh_trigger(rh_t *h, sl_error_t *err)
{
    runner_outcome_t out;
    if (runner_trigger(h->runner, &out, err) < 0) return -1;
    return out == RUNNER_RAN;
}

/* processAllAvailable: triggers until the runner has caught up. Returns the
 * number of batches that ran. */
static inline int rh_process(rh_t *h)
{
    int ran = 0;
    for (int i = 0; i < 1000; i++) {
        sl_error_t err;
        int rc = rh_trigger(h, &err);
        if (rc < 0) unit_fail(__FILE__, __LINE__, "trigger: %s", err.message);
        ran += rc;
        if (rc == 0 && runner_caught_up(h->runner)) return ran;
    }
    unit_fail(__FILE__, __LINE__, "the query never caught up");
}

/* Starts the query in a child process with `failpoint` armed (a spec of
 * failpoint_set) and processes everything; returns the child's exit status
 * (137 when the failpoint killed it, 0 when it was never reached). The
 * parent's own state is untouched: pools and runners do not survive fork. */
static inline int rh_crash(rh_t *h, const char *failpoint)
{
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        CHECK(failpoint_set(failpoint) == 0);
        rh_start(h);
        rh_process(h);
        rh_stop(h);
        _exit(0);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int rh_cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The text of batch file `id`, or NULL. */
static inline char *rh_batch_text(rh_t *h, int64_t id)
{
    char name[32];
    snprintf(name, sizeof name, "%lld", (long long)id);
    char *path = sl_fs_path(h->out, name);
    sl_buf_t b = SL_BUF_INIT;
    sl_error_t err;
    int rc = sl_fs_read_file(path, &b, &err);
    free(path);
    char *text = rc == 1 ? sl_strdup(h->a, b.data) : NULL;
    sl_buf_free(&b);
    return text;
}

/* The batch ids the sink holds, ascending (in h->a); their count. */
static inline int rh_batches(rh_t *h, int64_t **ids)
{
    sl_error_t err;
    int64_t *v;
    int n = sl_fs_list_ids(h->out, "", &v, &err);
    CHECK(n >= 0);
    *ids = SL_NEW_ARRAY(h->a, int64_t, n + 1);
    if (n) memcpy(*ids, v, sizeof *v * (size_t)n);
    free(v);
    return n;
}

/* CheckAnswer: the result table's rows, sorted, joined by '\n' — every
 * batch's rows (append), or the last batch's (complete). */
static inline const char *rh_answer(rh_t *h)
{
    int64_t *ids;
    int n = rh_batches(h, &ids);
    const char **rows = NULL;
    int nrows = 0, cap = 0;
    for (int i = h->mode == OUTPUT_COMPLETE && n ? n - 1 : 0; i < n; i++) {
        char *text = rh_batch_text(h, ids[i]);
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
            if (nrows == cap) {
                int nc = cap ? cap * 2 : 64;
                rows = sl_arena_realloc(h->a, rows, sizeof *rows * (size_t)cap,
                                        sizeof *rows * (size_t)nc);
                cap = nc;
            }
            rows[nrows++] = line;
        }
    }
    if (nrows) qsort(rows, (size_t)nrows, sizeof *rows, rh_cmp_str);
    sl_buf_t b = SL_BUF_INIT;
    for (int i = 0; i < nrows; i++) {
        if (i) sl_buf_putc(&b, '\n');
        sl_buf_puts(&b, rows[i]);
    }
    const char *s = sl_strdup(h->a, b.data ? b.data : "");
    sl_buf_free(&b);
    return s;
}

/* Removes the temporary directory and frees the harness. */
static inline void rh_free(rh_t *h)
{
    if (h->runner) rh_stop(h);
    sl_error_t err;
    sl_fs_rmtree(h->dir, &err);
    sl_arena_free(h->a);
}

#endif
