/* Unit tests of the sinks: memory (append, complete, update with key
 * upserts and retractions, idempotent batch ids, compaction, snapshots,
 * reopen and drop), file (manifest bytes, data file names and contents,
 * skip of a committed batch, overwrite of an unfinished attempt, crashes
 * at the failpoints, compaction, the table reader honouring the manifest),
 * console (Spark's table layout in the log) and noop. */
#include "test_connectors_util.h"

#include <sys/wait.h>

#include "connectors/format.h"
#include "connectors/memtable.h"
#include "connectors/sink.h"
#include "connectors/validate.h"
#include "common/pool.h"
#include "common/failpoint.h"

/* ---- helpers ------------------------------------------------------------------- */

typedef struct schema {
    conn_stream_t *rel;
    sink_schema_t s;
} schema_t;

static schema_t schema_of(sl_arena_t *a, const char *text, int nkeys, const int *keys)
{
    schema_t sc;
    sc.rel = tc_rel(a, "file", CONN_SOURCE, text, "path", "/x", NULL);
    sc.s = (sink_schema_t){.ncols = sc.rel->ncols,
                           .names = sc.rel->col_names,
                           .types = sc.rel->col_types,
                           .keyed = nkeys > 0,
                           .nkeys = nkeys,
                           .keys = keys};
    return sc;
}

static int keep_batch(void *arg, exec_batch_t *b, sl_error_t *err)
{
    (void)err;
    *(exec_batch_t **)arg = b;
    return 0;
}

/* One batch of the schema's columns from CSV text ("" gives an empty batch). */
static exec_batch_t *batch_of(sl_arena_t *a, const schema_t *sc, const char *csv)
{
    format_options_t o = {.kind = FORMAT_CSV, .sep = ','};
    sl_error_t err;
    const format_decoder_t *d =
        format_decoder_new(&o, sc->rel->ncols, sc->rel->col_names, sc->rel->col_types, a, &err);
    exec_batch_t *b = NULL;
    format_reader_t r;
    format_reader_init(&r, d, a, keep_batch, &b);
    format_pos_t pos = {"file", "t", "line", 0};
    CHECK(format_reader_text(&r, csv, strlen(csv), &pos, &err) == 0);
    CHECK(format_reader_flush(&r, &err) == 0);
    format_reader_done(&r);
    if (!b) b = exec_batch_new(a, sc->rel->ncols, sc->rel->col_types, 0);
    return b;
}

static sink_t *make_sink(sl_arena_t *a, const char *name, const schema_t *sc, output_mode_t mode,
                         memtable_registry_t *reg, const char *data_dir, ...)
{
    va_list ap;
    va_start(ap, data_dir);
    conn_kv_t kv[8];
    int n = 0;
    for (const char *k; (k = va_arg(ap, const char *));)
        kv[n++] = (conn_kv_t){k, va_arg(ap, const char *)};
    va_end(ap);
    sl_error_t err;
    const conn_desc_t *d = conn_lookup(name, CONN_SINK, &err);
    CHECK(d != NULL);
    sink_env_t env = {reg};
    sink_t *s;
    if (sink_create(d, "q", data_dir, mode, &sc->s, kv, n, &env, a, &s, &err) < 0)
        unit_fail(__FILE__, __LINE__, "sink_create: %s", err.message);
    return s;
}

static void add(sink_t *s, int64_t id, exec_batch_t *b)
{
    sl_error_t err;
    if (s->ops->add_batch(s, id, &b, 1, NULL, &err) < 0)
        unit_fail(__FILE__, __LINE__, "add_batch: %s", err.message);
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The memory table's rows, sorted, joined by '\n'; "(none)" when missing. */
static const char *table_rows(sl_arena_t *a, memtable_registry_t *reg, const char *name)
{
    int ncols, nb;
    const char **names;
    exec_type_t *types;
    exec_batch_t **batches;
    if (!memtable_snapshot(reg, name, a, &ncols, &names, &types, &batches, &nb)) return "(none)";
    tc_rows_t r = {.a = a};
    for (int i = 0; i < nb; i++) tc_rows_add_batch(&r, batches[i]);
    if (r.n) qsort(r.rows, (size_t)r.n, sizeof *r.rows, cmp_str);
    return tc_join(&r);
}

/* ---- memory sink ------------------------------------------------------------------ */

TEST(memory_append_is_idempotent_per_batch)
{
    sl_arena_t *a = sl_arena_new("t");
    memtable_registry_t *reg = memtable_registry_new();
    schema_t sc = schema_of(a, "k STRING, v BIGINT", 0, NULL);
    sink_t *s = make_sink(a, "memory", &sc, OUTPUT_APPEND, reg, NULL, NULL);
    CHECK_STR(table_rows(a, reg, "q"), "");
    add(s, 0, batch_of(a, &sc, "a,1\nb,2\n"));
    CHECK_INT(s->last_output_rows, 2);
    add(s, 1, batch_of(a, &sc, "a,3\n"));
    add(s, 1, batch_of(a, &sc, "a,3\n")); /* the replay of batch 1 */
    CHECK_INT(s->last_output_rows, 0);
    add(s, 0, batch_of(a, &sc, "z,9\n"));
    CHECK_STR(table_rows(a, reg, "q"), "a|1\na|3\nb|2");
    CHECK_STR(table_rows(a, reg, "other"), "(none)");
    sl_buf_t d = SL_BUF_INIT;
    s->ops->describe(s, &d);
    CHECK_STR(d.data, "MemorySink");
    sl_buf_free(&d);
    /* the table outlives the sink (a stopped query stays readable) */
    s->ops->destroy(s);
    CHECK_STR(table_rows(a, reg, "q"), "a|1\na|3\nb|2");
    memtable_registry_free(reg);
    sl_arena_free(a);
}

TEST(memory_complete_replaces)
{
    sl_arena_t *a = sl_arena_new("t");
    memtable_registry_t *reg = memtable_registry_new();
    schema_t sc = schema_of(a, "k STRING, n BIGINT", 0, NULL);
    sink_t *s = make_sink(a, "memory", &sc, OUTPUT_COMPLETE, reg, NULL, NULL);
    add(s, 0, batch_of(a, &sc, "a,1\nb,1\n"));
    add(s, 1, batch_of(a, &sc, "a,2\nb,1\nc,5\n"));
    CHECK_STR(table_rows(a, reg, "q"), "a|2\nb|1\nc|5");
    add(s, 2, batch_of(a, &sc, ""));
    CHECK_STR(table_rows(a, reg, "q"), "");
    s->ops->destroy(s);
    memtable_registry_free(reg);
    sl_arena_free(a);
}

TEST(memory_update_upserts_by_key)
{
    sl_arena_t *a = sl_arena_new("t");
    memtable_registry_t *reg = memtable_registry_new();
    static const int keys[] = {0, 1};
    schema_t sc = schema_of(a, "k STRING, w INT, n BIGINT", 2, keys);
    sink_t *s = make_sink(a, "memory", &sc, OUTPUT_UPDATE, reg, NULL, NULL);
    add(s, 0, batch_of(a, &sc, "a,1,1\nb,1,1\na,2,7\n"));
    add(s, 1, batch_of(a, &sc, "a,1,2\nc,1,1\n"));
    CHECK_STR(table_rows(a, reg, "q"), "a|1|2\na|2|7\nb|1|1\nc|1|1");
    /* the same key twice in one batch: the later row wins; NULL keys work */
    add(s, 2, batch_of(a, &sc, "b,1,5\nb,1,6\n,,3\n"));
    add(s, 3, batch_of(a, &sc, ",,4\n"));
    CHECK_STR(table_rows(a, reg, "q"), "a|1|2\na|2|7\nb|1|6\nc|1|1\n∅|∅|4");
    /* a retraction (change -1) deletes its key */
    exec_batch_t *b = batch_of(a, &sc, "a,2,7\nd,1,1\n");
    exec_builder_t bld;
    exec_builder_init(&bld, a, sc.rel->ncols, sc.rel->col_types, 2);
    exec_builder_append_batch(&bld, b);
    exec_builder_set_change(&bld, 0, -1);
    add(s, 4, exec_builder_finish(&bld));
    CHECK_STR(table_rows(a, reg, "q"), "a|1|2\nb|1|6\nc|1|1\nd|1|1\n∅|∅|4");
    s->ops->destroy(s);
    memtable_registry_free(reg);
    sl_arena_free(a);
}

/* Grouping columns the query does not select: hidden key columns after the
 * visible ones key the table, through compactions, and are never shown. */
TEST(memory_update_keys_by_hidden_columns)
{
    sl_arena_t *a = sl_arena_new("t");
    memtable_registry_t *reg = memtable_registry_new();
    static const int keys[] = {2};
    schema_t sc = schema_of(a, "shown INT, n BIGINT, k STRING", 1, keys);
    sc.s.ncols = 2;
    sc.s.nhidden = 1;
    sink_t *s = make_sink(a, "memory", &sc, OUTPUT_UPDATE, reg, NULL, NULL);
    add(s, 0, batch_of(a, &sc, "1,1,a\n1,1,b\n"));
    add(s, 1, batch_of(a, &sc, "1,2,a\n"));
    CHECK_STR(table_rows(a, reg, "q"), "1|1\n1|2");
    for (int i = 2; i < 400; i++) add(s, i, batch_of(a, &sc, "1,5,b\n1,6,a\n"));
    CHECK_STR(table_rows(a, reg, "q"), "1|5\n1|6");
    int ncols;
    const char **names;
    exec_type_t *types;
    CHECK_INT(memtable_columns(reg, "q", a, &ncols, &names, &types), 1);
    CHECK_INT(ncols, 2);
    s->ops->destroy(s);
    memtable_registry_free(reg);
    sl_arena_free(a);
}

/* An aggregation without GROUP BY: a keyed table with an empty key holds
 * one row. */
TEST(memory_update_empty_key_is_one_row)
{
    sl_arena_t *a = sl_arena_new("t");
    memtable_registry_t *reg = memtable_registry_new();
    schema_t sc = schema_of(a, "n BIGINT", 0, NULL);
    sc.s.keyed = 1;
    sink_t *s = make_sink(a, "memory", &sc, OUTPUT_UPDATE, reg, NULL, NULL);
    add(s, 0, batch_of(a, &sc, "2\n"));
    add(s, 1, batch_of(a, &sc, "3\n"));
    CHECK_STR(table_rows(a, reg, "q"), "3");
    s->ops->destroy(s);
    memtable_registry_free(reg);
    sl_arena_free(a);
}

TEST(memory_update_compacts_dead_rows)
{
    sl_arena_t *a = sl_arena_new("t");
    memtable_registry_t *reg = memtable_registry_new();
    static const int keys[] = {0};
    schema_t sc = schema_of(a, "k STRING, n BIGINT", 1, keys);
    memtable_t *t = memtable_open(reg, "q", &sc.s);
    sl_buf_t csv = SL_BUF_INIT;
    for (int i = 0; i < 600; i++) {
        sl_buf_clear(&csv);
        for (int k = 0; k < 10; k++) sl_buf_printf(&csv, "key%d,%d\n", k, i);
        exec_batch_t *b = batch_of(a, &sc, csv.data);
        CHECK_INT(memtable_add_batch(t, i, OUTPUT_UPDATE, &b, 1, NULL), 1);
        CHECK_INT(memtable_count(t), 10);
    }
    CHECK_INT(memtable_last_batch(t), 599);
    const char *rows = table_rows(a, reg, "q");
    CHECK(!strncmp(rows, "key0|599\nkey1|599\n", 18));
    sl_buf_free(&csv);
    memtable_release(t);
    memtable_registry_free(reg);
    sl_arena_free(a);
}

TEST(memtable_snapshot_batches_reopen_and_drop)
{
    sl_arena_t *a = sl_arena_new("t");
    memtable_registry_t *reg = memtable_registry_new();
    schema_t sc = schema_of(a, "v BIGINT", 0, NULL);
    memtable_t *t = memtable_open(reg, "q", &sc.s);
    exec_builder_t bld;
    exec_builder_init(&bld, a, 1, sc.rel->col_types, 16);
    for (int i = 0; i < 10000; i++) exec_builder_set_bigint(&bld, 0, exec_builder_add_row(&bld), i);
    exec_batch_t *b = exec_builder_finish(&bld);
    CHECK_INT(memtable_add_batch(t, 0, OUTPUT_APPEND, &b, 1, NULL), 1);
    int ncols, nb;
    const char **names;
    exec_type_t *types;
    exec_batch_t **batches;
    CHECK_INT(memtable_snapshot(reg, "q", a, &ncols, &names, &types, &batches, &nb), 1);
    CHECK_INT(ncols, 1);
    CHECK_STR(names[0], "v");
    CHECK_INT(types[0].id, EXEC_TYPE_BIGINT);
    CHECK_INT(nb, 3);
    CHECK_INT(batches[0]->nrows + batches[1]->nrows + batches[2]->nrows, 10000);
    CHECK_INT(batches[0]->nrows, 4096);
    /* a restarted query with the same columns continues the table */
    memtable_release(t);
    t = memtable_open(reg, "q", &sc.s);
    CHECK_INT(memtable_count(t), 10000);
    CHECK_INT(memtable_last_batch(t), 0);
    /* other columns: a new empty table */
    schema_t sc2 = schema_of(a, "v BIGINT, w INT", 0, NULL);
    memtable_t *t2 = memtable_open(reg, "q", &sc2.s);
    CHECK_INT(memtable_count(t2), 0);
    CHECK_INT(memtable_last_batch(t2), -1);
    /* DROP QUERY: gone for readers; holders may still write harmlessly */
    CHECK_INT(memtable_drop(reg, "q"), 1);
    CHECK_INT(memtable_drop(reg, "q"), 0);
    CHECK_INT(memtable_snapshot(reg, "q", a, &ncols, &names, &types, &batches, &nb), 0);
    exec_batch_t *b2 = batch_of(a, &sc2, "1,2\n");
    CHECK_INT(memtable_add_batch(t2, 0, OUTPUT_APPEND, &b2, 1, NULL), 1);
    memtable_release(t2);
    memtable_release(t);
    memtable_registry_free(reg);
    sl_arena_free(a);
}

/* ---- file sink -------------------------------------------------------------------- */

static const char *manifest_line(sl_arena_t *a, const char *dir, const char *name)
{
    struct stat st;
    char *p = sl_printf(a, "%s/%s", dir, name);
    CHECK(stat(p, &st) == 0);
    return sl_printf(a,
                     "{\"path\":\"file://%s\",\"size\":%lld,\"isDir\":false,\"modificationTime\":"
                     "%lld,\"blockReplication\":1,\"blockSize\":33554432,\"action\":\"add\"}",
                     p, (long long)st.st_size,
                     (long long)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000);
}

static const char *read_output(sl_arena_t *a, const char *dir, const char *fmt, const char *schema)
{
    conn_stream_t *rel = tc_rel(a, fmt, CONN_TABLE, schema, "path", dir, "header", "true", NULL);
    tc_rows_t r = {.a = a};
    sl_error_t err;
    if (format_read_path(rel, a, tc_emit, &r, &err) < 0)
        unit_fail(__FILE__, __LINE__, "read: %s", err.message);
    return tc_join(&r);
}

TEST(file_sink_manifest_and_files)
{
    sl_arena_t *a = sl_arena_new("t");
    char *root = tc_tmpdir(a);
    char *out = sl_printf(a, "%s/out", root);
    schema_t sc = schema_of(a, "k STRING, v BIGINT", 0, NULL);
    sink_t *s = make_sink(a, "file", &sc, OUTPUT_APPEND, NULL, root, "path", out, NULL);
    add(s, 0, batch_of(a, &sc, "a,1\n\"x,y\",\n"));
    CHECK_INT(s->last_output_rows, 2);
    CHECK_STR(tc_read(a, sl_printf(a, "%s/part-00000-00000.json", out)),
              "{\"k\":\"a\",\"v\":1}\n{\"k\":\"x,y\"}\n");
    CHECK_STR(tc_read(a, sl_printf(a, "%s/_sluice_metadata/0", out)),
              sl_printf(a, "v1\n%s", manifest_line(a, out, "part-00000-00000.json")));
    /* an empty batch is committed with an empty manifest */
    add(s, 1, batch_of(a, &sc, ""));
    CHECK_STR(tc_read(a, sl_printf(a, "%s/_sluice_metadata/1", out)), "v1");
    CHECK(!tc_exists(sl_printf(a, "%s/part-00001-00000.json", out)));
    add(s, 2, batch_of(a, &sc, "b,2\n"));
    CHECK_STR(read_output(a, out, "json", "k STRING, v BIGINT"), "a|1\nx,y|∅\nb|2");
    sl_buf_t d = SL_BUF_INIT;
    s->ops->describe(s, &d);
    CHECK_STR(d.data, sl_printf(a, "FileSink[%s]", out));
    sl_buf_free(&d);
    tc_rmtree(root);
    sl_arena_free(a);
}

/* The write-ahead barrier: the sink has its data file durable and its
 * manifest staged, not published, when it waits; an error from the wait
 * fails the batch with nothing published. */
typedef struct barrier_probe {
    const char *data, *manifest; /* paths to look at */
    int calls, data_seen, manifest_seen;
    int fail;
} barrier_probe_t;

static int probe_wait(void *arg, sl_error_t *err)
{
    barrier_probe_t *p = arg;
    p->calls++;
    p->data_seen = tc_exists(p->data);
    p->manifest_seen = tc_exists(p->manifest);
    if (p->fail) return sl_error_set(err, SL_ERR_IO_ERROR, "offsets could not be written");
    return 0;
}

TEST(file_sink_publishes_only_after_the_write_ahead)
{
    sl_arena_t *a = sl_arena_new("t");
    char *root = tc_tmpdir(a);
    char *out = sl_printf(a, "%s/out", root);
    schema_t sc = schema_of(a, "k STRING, v BIGINT", 0, NULL);
    exec_pool_t *io = exec_pool_new(2);
    const conn_desc_t *d = conn_lookup("file", CONN_SINK, &(sl_error_t){0});
    conn_kv_t kv[] = {{"path", out}};
    sink_env_t env = {.io_pool = io};
    sink_t *s;
    sl_error_t err;
    CHECK(sink_create(d, "q", root, OUTPUT_APPEND, &sc.s, kv, 1, &env, a, &s, &err) == 0);
    barrier_probe_t p = {sl_printf(a, "%s/part-00000-00000.json", out),
                         sl_printf(a, "%s/_sluice_metadata/0", out),
                         0,
                         0,
                         0,
                         1};
    sink_ahead_t ahead = {probe_wait, &p};
    exec_batch_t *b = batch_of(a, &sc, "a,1\n");
    CHECK(s->ops->add_batch(s, 0, &b, 1, &ahead, &err) < 0);
    CHECK_STR(err.message, "offsets could not be written");
    CHECK_INT(p.calls, 1);
    CHECK_INT(p.data_seen, 1);
    CHECK_INT(p.manifest_seen, 0);
    CHECK(!tc_exists(p.manifest));
    /* the batch again, the write-ahead durable this time */
    p.fail = 0;
    CHECK(s->ops->add_batch(s, 0, &b, 1, &ahead, &err) == 0);
    CHECK_INT(p.calls, 2);
    CHECK_INT(p.manifest_seen, 0);
    CHECK_STR(tc_read(a, p.manifest),
              sl_printf(a, "v1\n%s", manifest_line(a, out, "part-00000-00000.json")));
    CHECK_STR(read_output(a, out, "json", "k STRING, v BIGINT"), "a|1");
    exec_pool_free(io);
    tc_rmtree(root);
    sl_arena_free(a);
}

TEST(file_sink_skips_committed_and_overwrites_unfinished)
{
    sl_arena_t *a = sl_arena_new("t");
    char *root = tc_tmpdir(a);
    schema_t sc = schema_of(a, "k STRING, v BIGINT", 0, NULL);
    /* default path: <data_dir>/output/<query>, CSV with a header */
    sink_t *s = make_sink(a, "file", &sc, OUTPUT_APPEND, NULL, root, "format", "csv", "header",
                          "true", NULL);
    char *out = sl_printf(a, "%s/output/q", root);
    add(s, 0, batch_of(a, &sc, "a,1\n"));
    char *before = tc_read(a, sl_printf(a, "%s/part-00000-00000.csv", out));
    CHECK_STR(before, "k,v\na,1\n");
    /* a new sink (a restarted query) replays batch 0: skipped */
    s = make_sink(a, "file", &sc, OUTPUT_APPEND, NULL, root, "format", "csv", "header", "true",
                  NULL);
    add(s, 0, batch_of(a, &sc, "DIFFERENT,9\n"));
    CHECK_INT(s->last_output_rows, 0);
    CHECK_STR(tc_read(a, sl_printf(a, "%s/part-00000-00000.csv", out)), before);
    /* leftovers of an unfinished attempt of batch 1 (a torn part file under
     * its final name too): replaced or removed by the restarted sink */
    tc_write(out, "part-00001-00000.csv", "k,v\ngarbage,0\n");
    tc_write(out, "part-00001-00003.csv", "k,v\nstale,0\n");
    tc_write(out, "stray.csv", "k,v\nstray,0\n");
    add(s, 1, batch_of(a, &sc, "b,2\nc,3\n"));
    CHECK_STR(tc_read(a, sl_printf(a, "%s/part-00001-00000.csv", out)), "k,v\nb,2\nc,3\n");
    CHECK(!tc_exists(sl_printf(a, "%s/part-00001-00003.csv", out)));
    /* the reader reads what the manifest lists: not the stray file */
    CHECK_STR(read_output(a, out, "csv", "k STRING, v BIGINT"), "a|1\nb|2\nc|3");
    tc_rmtree(root);
    sl_arena_free(a);
}

/* Runs add_batch(id) in a child that dies at `failpoint`; returns its exit code. */
static int crash_at(sl_arena_t *a, const schema_t *sc, const char *out, int64_t id,
                    const char *rows, const char *failpoint)
{
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        failpoint_set(failpoint);
        sink_t *s = make_sink(a, "file", sc, OUTPUT_APPEND, NULL, NULL, "path", out, NULL);
        add(s, id, batch_of(a, sc, rows));
        _exit(0);
    }
    int st;
    CHECK(waitpid(pid, &st, 0) == pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(file_sink_crash_at_failpoints)
{
    sl_arena_t *a = sl_arena_new("t");
    char *root = tc_tmpdir(a);
    char *out = sl_printf(a, "%s/out", root);
    schema_t sc = schema_of(a, "k STRING, v BIGINT", 0, NULL);
    CHECK_INT(crash_at(a, &sc, out, 0, "a,1\n", "sink.file.before_manifest"), FAILPOINT_EXIT_CODE);
    CHECK(tc_exists(sl_printf(a, "%s/part-00000-00000.json", out)));
    CHECK(!tc_exists(sl_printf(a, "%s/_sluice_metadata/0", out)));
    CHECK_STR(read_output(a, out, "json", "k STRING, v BIGINT"), ""); /* not committed */
    /* the re-run writes batch 0 again, once */
    sink_t *s = make_sink(a, "file", &sc, OUTPUT_APPEND, NULL, NULL, "path", out, NULL);
    add(s, 0, batch_of(a, &sc, "a,1\n"));
    CHECK_STR(read_output(a, out, "json", "k STRING, v BIGINT"), "a|1");
    /* dying right after the manifest: the re-run skips the batch */
    CHECK_INT(crash_at(a, &sc, out, 1, "b,2\n", "sink.file.after_manifest"), FAILPOINT_EXIT_CODE);
    s = make_sink(a, "file", &sc, OUTPUT_APPEND, NULL, NULL, "path", out, NULL);
    add(s, 1, batch_of(a, &sc, "b,2\n"));
    CHECK_INT(s->last_output_rows, 0);
    CHECK_STR(read_output(a, out, "json", "k STRING, v BIGINT"), "a|1\nb|2");
    tc_rmtree(root);
    sl_arena_free(a);
}

TEST(file_sink_compacts_every_ten_batches)
{
    sl_arena_t *a = sl_arena_new("t");
    char *root = tc_tmpdir(a);
    char *out = sl_printf(a, "%s/out", root);
    schema_t sc = schema_of(a, "v BIGINT", 0, NULL);
    sink_t *s = make_sink(a, "file", &sc, OUTPUT_APPEND, NULL, NULL, "path", out, NULL);
    sl_buf_t want = SL_BUF_INIT;
    for (int i = 0; i < 12; i++) {
        add(s, i, batch_of(a, &sc, sl_printf(a, "%d\n", i)));
        sl_buf_printf(&want, "%s%d", i ? "\n" : "", i);
    }
    char *meta = sl_printf(a, "%s/_sluice_metadata", out);
    CHECK(!tc_exists(sl_printf(a, "%s/9", meta)));
    char *compact = tc_read(a, sl_printf(a, "%s/9.compact", meta));
    CHECK(compact != NULL);
    sl_buf_t lines = SL_BUF_INIT;
    sl_buf_puts(&lines, "v1");
    for (int i = 0; i < 10; i++)
        sl_buf_printf(&lines, "\n%s",
                      manifest_line(a, out, sl_printf(a, "part-%05d-00000.json", i)));
    CHECK_STR(compact, lines.data);
    CHECK_STR(read_output(a, out, "json", "v BIGINT"), want.data);
    /* the sink knows 11 is committed after a restart */
    s = make_sink(a, "file", &sc, OUTPUT_APPEND, NULL, NULL, "path", out, NULL);
    add(s, 9, batch_of(a, &sc, "99\n"));
    CHECK_INT(s->last_output_rows, 0);
    sl_buf_free(&want);
    sl_buf_free(&lines);
    tc_rmtree(root);
    sl_arena_free(a);
}

TEST(sink_option_validation)
{
    sl_arena_t *a = sl_arena_new("t");
    schema_t sc = schema_of(a, "v BIGINT", 0, NULL);
    sl_error_t err;
    const conn_desc_t *file = conn_lookup("file", CONN_SINK, &err);
    const conn_desc_t *console = conn_lookup("console", CONN_SINK, &err);
    CHECK(sink_validate(file, OUTPUT_UPDATE, &sc.s, NULL, 0, &err) < 0);
    CHECK_STR(err.sqlstate, "0A000");
    CHECK_STR(err.message, "the file sink supports only append output mode");
    conn_kv_t fmt[] = {{"format", "parquet"}};
    CHECK(sink_validate(file, OUTPUT_APPEND, &sc.s, fmt, 1, &err) < 0);
    CHECK_STR(err.message, "invalid value \"parquet\" for option \"format\"");
    CHECK_STR(err.hint, "Accepted values: json, csv.");
    conn_kv_t rows[] = {{"numRows", "many"}};
    CHECK(sink_validate(console, OUTPUT_COMPLETE, &sc.s, rows, 1, &err) < 0);
    CHECK_STR(err.sqlstate, "22023");
    conn_kv_t unknown[] = {{"colour", "red"}};
    CHECK(sink_validate(console, OUTPUT_APPEND, &sc.s, unknown, 1, &err) < 0);
    CHECK_STR(err.message, "unknown option \"colour\" for console sink");
    /* the kafka sink checks its options, then that the result has a payload */
    const conn_desc_t *kafka = conn_lookup("kafka", CONN_SINK, &err);
    conn_kv_t kopts[] = {{"kafka.bootstrap.servers", "h:9092"}, {"topic", "t"}};
    CHECK(sink_validate(kafka, OUTPUT_APPEND, &sc.s, kopts, 1, &err) < 0);
    CHECK_STR(err.message, "kafka sink requires option \"topic\"");
    CHECK(sink_validate(kafka, OUTPUT_APPEND, &sc.s, kopts, 2, &err) < 0);
    CHECK_STR(err.sqlstate, "42703");
    CHECK_STR(err.message, "a kafka sink needs a column named \"value\"");
    sl_arena_free(a);
}

/* ---- console and noop ------------------------------------------------------------- */

/* The messages of the log lines in `path` that follow "console: query=q ". */
static const char *console_lines(sl_arena_t *a, const char *path)
{
    char *text = tc_read(a, path);
    sl_buf_t b = SL_BUF_INIT;
    const char *tag = "console: query=q ";
    for (char *p = text; (p = strstr(p, tag));) {
        p += strlen(tag);
        char *e = strchr(p, '\n');
        sl_buf_append(&b, p, (size_t)(e - p + 1));
        p = e;
    }
    const char *s = sl_strdup(a, b.data ? b.data : "");
    sl_buf_free(&b);
    return s;
}

TEST(console_sink_prints_like_spark)
{
    sl_arena_t *a = sl_arena_new("t");
    char *dir = tc_tmpdir(a);
    char *log = sl_printf(a, "%s/log", dir);
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK(fd >= 0 && dup2(fd, 2) == 2);
    schema_t sc = schema_of(a, "word STRING, n BIGINT, ok BOOLEAN", 0, NULL);
    sink_t *s = make_sink(a, "console", &sc, OUTPUT_COMPLETE, NULL, NULL, "numRows", "2", NULL);
    add(s, 3, batch_of(a, &sc, "hello,1,true\nan extremely long word indeed,22,\nc,3,false\n"));
    CHECK_INT(s->last_output_rows, 3);
    sink_t *s2 =
        make_sink(a, "console", &sc, OUTPUT_COMPLETE, NULL, NULL, "truncate", "false", NULL);
    add(s2, 4, batch_of(a, &sc, "an extremely long word indeed,22,\n"));
    add(s2, 5, batch_of(a, &sc, ""));
    fflush(stderr);
    CHECK_STR(console_lines(a, log), "-------------------------------------------\n"
                                     "Batch: 3\n"
                                     "-------------------------------------------\n"
                                     "+--------------------+---+----+\n"
                                     "|                word|  n|  ok|\n"
                                     "+--------------------+---+----+\n"
                                     "|               hello|  1|true|\n"
                                     "|an extremely long...| 22|null|\n"
                                     "+--------------------+---+----+\n"
                                     "only showing top 2 rows\n"
                                     "-------------------------------------------\n"
                                     "Batch: 4\n"
                                     "-------------------------------------------\n"
                                     "+-----------------------------+---+----+\n"
                                     "|word                         |n  |ok  |\n"
                                     "+-----------------------------+---+----+\n"
                                     "|an extremely long word indeed|22 |null|\n"
                                     "+-----------------------------+---+----+\n"
                                     "-------------------------------------------\n"
                                     "Batch: 5\n"
                                     "-------------------------------------------\n"
                                     "+----+---+---+\n"
                                     "|word|n  |ok |\n"
                                     "+----+---+---+\n"
                                     "+----+---+---+\n");
    tc_rmtree(dir);
    sl_arena_free(a);
}

TEST(noop_sink_counts)
{
    sl_arena_t *a = sl_arena_new("t");
    schema_t sc = schema_of(a, "v BIGINT", 0, NULL);
    sink_t *s = make_sink(a, "noop", &sc, OUTPUT_UPDATE, NULL, NULL, NULL);
    exec_batch_t *b[2] = {batch_of(a, &sc, "1\n2\n"), batch_of(a, &sc, "3\n")};
    sl_error_t err;
    CHECK(s->ops->add_batch(s, 0, b, 2, NULL, &err) == 0);
    CHECK_INT(s->last_output_rows, 3);
    sl_arena_free(a);
}
