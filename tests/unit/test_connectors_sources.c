/* Unit tests of the sources: rate (offsets to rows, the persisted start
 * time and identical replays, partitions, ramp-up, AVAILABLE NOW), file
 * (each file once, order, maxFilesPerTrigger, latestFirst, dotfiles, the
 * source log's bytes, restart and crash windows, the three modes, bad
 * records and their rotation) and nexmark (proportions, determinism,
 * schema, availability, splits), plus option validation. */
#include "test_connectors_util.h"

#include <poll.h>
#include <stdlib.h>

#include "connectors/validate.h"

static void destroy_source(void *s)
{
    ((source_t *)s)->ops->destroy(s);
}

/* A source over `rel`, destroyed when `a` is freed (destroy is idempotent). */
static source_t *make_source(sl_arena_t *a, conn_stream_t *rel, const char *dir)
{
    source_t *s;
    sl_error_t err;
    if (source_create(rel, 0, dir, "q", a, &s, &err) < 0)
        unit_fail(__FILE__, __LINE__, "source_create: %s (%s)", err.message, err.hint);
    s->now_ms = tc_clock;
    sl_arena_on_reset(a, destroy_source, s);
    return s;
}

static const char *latest(source_t *s, const char *start, source_limit_t limit, sl_arena_t *a)
{
    const char *end, *lat;
    sl_error_t err;
    if (s->ops->latest_offset(s, start, limit, a, &end, &lat, &err) < 0)
        unit_fail(__FILE__, __LINE__, "latest_offset: %s", err.message);
    return end;
}

static tc_rows_t read_batch(source_t *s, int64_t id, const char *start, const char *end,
                            sl_arena_t *a)
{
    tc_rows_t r;
    sl_error_t err;
    if (tc_read_batch(s, id, start, end, a, &r, &err) < 0)
        unit_fail(__FILE__, __LINE__, "read: %s", err.message);
    return r;
}

static void check_invalid(sl_arena_t *a, conn_stream_t *rel, const char *sqlstate,
                          const char *message, const char *hint)
{
    sl_error_t err;
    CHECK(source_validate(rel, &err) < 0);
    CHECK_STR(err.sqlstate, sqlstate);
    CHECK_STR(err.message, message);
    if (hint) CHECK_STR(err.hint, hint);
    source_t *s;
    CHECK(source_create(rel, 0, "/nonexistent", "q", a, &s, &err) < 0);
    CHECK_STR(err.message, message);
}

/* ---- rate -------------------------------------------------------------------- */

#define RATE_SCHEMA "timestamp TIMESTAMP, value BIGINT"

TEST(rate_offsets_give_deterministic_rows)
{
    sl_arena_t *a = sl_arena_new("t");
    char *dir = tc_tmpdir(a);
    tc_now_ms = 1700000000000;
    conn_stream_t *rel = tc_rel(a, "rate", CONN_SOURCE, RATE_SCHEMA, "rowsPerSecond", "10", NULL);
    source_t *s = make_source(a, rel, dir);
    const char *init;
    sl_error_t err;
    CHECK(s->ops->initial_offset(s, a, &init, &err) == 0);
    CHECK_STR(init, "0");
    CHECK_STR(tc_read(a, sl_printf(a, "%s/0", dir)), "v1\n1700000000000");
    CHECK_STR(latest(s, "0", SOURCE_LIMIT_DEFAULT, a), "0");
    tc_now_ms += 2500;
    CHECK_STR(latest(s, "0", SOURCE_LIMIT_DEFAULT, a), "2");
    tc_rows_t r = read_batch(s, 0, "0", "2", a);
    CHECK_INT(r.n, 20);
    CHECK_STR(r.rows[0], "2023-11-14 22:13:20|0");
    CHECK_STR(r.rows[1], "2023-11-14 22:13:20.1|1");
    CHECK_STR(r.rows[19], "2023-11-14 22:13:21.9|19");
    r = read_batch(s, 1, "2", "3", a);
    CHECK_INT(r.n, 10);
    CHECK_STR(r.rows[0], "2023-11-14 22:13:22|20");
    /* the clock never goes back: an earlier reading keeps the offset */
    tc_now_ms -= 2000;
    CHECK_STR(latest(s, "3", SOURCE_LIMIT_DEFAULT, a), "3");
    sl_buf_t d = SL_BUF_INIT;
    s->ops->describe(s, &d);
    CHECK_STR(d.data, "RateStreamV2[rowsPerSecond=10, rampUpTimeSeconds=0, numPartitions=1]");
    sl_buf_free(&d);
    s->ops->destroy(s);
    tc_rmtree(dir);
    sl_arena_free(a);
}

TEST(rate_replay_after_restart_is_identical)
{
    sl_arena_t *a = sl_arena_new("t");
    char *dir = tc_tmpdir(a);
    tc_now_ms = 1700000000000;
    conn_stream_t *rel = tc_rel(a, "rate", CONN_SOURCE, RATE_SCHEMA, "rowsPerSecond", "7",
                                "numPartitions", "2", NULL);
    source_t *s = make_source(a, rel, dir);
    CHECK_STR(latest(s, "0", SOURCE_LIMIT_DEFAULT, a), "0"); /* first use: the start time */
    tc_now_ms += 5000;
    CHECK_STR(latest(s, "0", SOURCE_LIMIT_DEFAULT, a), "5");
    tc_rows_t r1 = read_batch(s, 0, "0", "5", a);
    const char *first = tc_join(&r1);
    /* a new process, much later: the start time comes from the checkpoint */
    tc_now_ms += 3600 * 1000;
    source_t *s2 = make_source(a, rel, dir);
    tc_rows_t r2 = read_batch(s2, 0, "0", "5", a);
    CHECK_STR(tc_join(&r2), first);
    CHECK_INT(r2.n, 35);
    sl_arena_free(a);
    tc_rmtree(dir);
}

TEST(rate_partitions_split_by_value_modulo)
{
    sl_arena_t *a = sl_arena_new("t");
    char *dir = tc_tmpdir(a);
    tc_now_ms = 1700000000000;
    conn_stream_t *rel = tc_rel(a, "rate", CONN_SOURCE, RATE_SCHEMA, "rowsPerSecond", "10",
                                "numPartitions", "3", NULL);
    source_t *s = make_source(a, rel, dir);
    CHECK_STR(latest(s, "0", SOURCE_LIMIT_DEFAULT, a), "0");
    source_split_t *splits;
    int n;
    sl_error_t err;
    CHECK(s->ops->plan(s, 1, "1", "2", a, &splits, &n, &err) == 0);
    CHECK_INT(n, 3);
    const char *want[] = {"12,15,18", "10,13,16,19", "11,14,17"};
    for (int p = 0; p < 3; p++) {
        tc_rows_t r = {.a = a};
        CHECK_INT(splits[p].partition, p);
        CHECK(s->ops->read_split(s, &splits[p], a, tc_emit, &r, &err) == 0);
        sl_buf_t vals = SL_BUF_INIT;
        for (int i = 0; i < r.n; i++)
            sl_buf_printf(&vals, "%s%s", i ? "," : "", strchr(r.rows[i], '|') + 1);
        CHECK_STR(vals.data, want[p]);
        sl_buf_free(&vals);
    }
    /* nothing new: no splits */
    CHECK(s->ops->plan(s, 2, "2", "2", a, &splits, &n, &err) == 0);
    CHECK_INT(n, 0);
    tc_rmtree(dir);
    sl_arena_free(a);
}

TEST(rate_ramp_up_and_large_batches)
{
    sl_arena_t *a = sl_arena_new("t");
    char *dir = tc_tmpdir(a);
    tc_now_ms = 1700000000000;
    conn_stream_t *rel = tc_rel(a, "rate", CONN_SOURCE, RATE_SCHEMA, "rowsPerSecond", "10",
                                "rampUpTime", "4s", NULL);
    source_t *s = make_source(a, rel, dir);
    /* end values per second: 0 2 6 12 20 30 40 */
    CHECK_INT(read_batch(s, 0, "0", "3", a).n, 12);
    CHECK_INT(read_batch(s, 1, "3", "6", a).n, 28);
    tc_rows_t r = read_batch(s, 2, "6", "7", a);
    CHECK_STR(r.rows[0], "2023-11-14 22:13:26|40");
    rel = tc_rel(a, "rate", CONN_SOURCE, RATE_SCHEMA, "rowsPerSecond", "10000", NULL);
    s = make_source(a, rel, dir);
    r = read_batch(s, 0, "0", "1", a);
    CHECK_INT(r.n, 10000);
    CHECK_INT(r.batches, 3);
    CHECK_INT(r.max_batch_rows, 4096);
    tc_rmtree(dir);
    sl_arena_free(a);
}

TEST(rate_available_now_fixes_the_end)
{
    sl_arena_t *a = sl_arena_new("t");
    char *dir = tc_tmpdir(a);
    tc_now_ms = 1700000000000;
    conn_stream_t *rel = tc_rel(a, "rate", CONN_SOURCE, RATE_SCHEMA, NULL);
    source_t *s = make_source(a, rel, dir);
    sl_error_t err;
    const char *init;
    CHECK(s->ops->initial_offset(s, a, &init, &err) == 0);
    tc_now_ms += 3000;
    CHECK(s->ops->prepare_available_now(s, &err) == 0);
    tc_now_ms += 10000;
    CHECK_STR(latest(s, "0", SOURCE_LIMIT_ALL, a), "3");
    CHECK_STR(latest(s, "3", SOURCE_LIMIT_ALL, a), "3");
    tc_rmtree(dir);
    sl_arena_free(a);
}

TEST(rate_option_validation)
{
    sl_arena_t *a = sl_arena_new("t");
    check_invalid(a, tc_rel(a, "rate", CONN_SOURCE, RATE_SCHEMA, "rowsPerSecond", "0", NULL),
                  "22023", "invalid value \"0\" for option \"rowsPerSecond\"",
                  "It must be an integer of at least 1.");
    check_invalid(a, tc_rel(a, "rate", CONN_SOURCE, RATE_SCHEMA, "rampUpTime", "soon", NULL),
                  "22023", "invalid value \"soon\" for option \"rampUpTime\"", NULL);
    check_invalid(a, tc_rel(a, "rate", CONN_SOURCE, RATE_SCHEMA, "numPartitions", "-1", NULL),
                  "22023", "invalid value \"-1\" for option \"numPartitions\"",
                  "It must be an integer from 1 to 4096.");
    check_invalid(a, tc_rel(a, "rate", CONN_SOURCE, RATE_SCHEMA, "rowsPerSec", "1", NULL), "22023",
                  "unknown option \"rowsPerSec\" for rate source", NULL);
    check_invalid(a, tc_rel(a, "rate", CONN_SOURCE, "timestamp TIMESTAMP, value INT", NULL),
                  "42804", "column \"value\" of stream \"s\" must be bigint", NULL);
    sl_error_t err;
    CHECK(source_validate(tc_rel(a, "rate", CONN_SOURCE, RATE_SCHEMA, "rampUpTime", "2m",
                                 "ROWSPERSECOND", "5", NULL),
                          &err) == 0);
    sl_arena_free(a);
}

/* ---- file ------------------------------------------------------------------------ */

typedef struct file_env {
    sl_arena_t *a;
    char *in, *ckpt;
} file_env_t;

static file_env_t file_env(void)
{
    file_env_t e;
    e.a = sl_arena_new("t");
    char *root = tc_tmpdir(e.a);
    e.in = sl_printf(e.a, "%s/in", root);
    e.ckpt = sl_printf(e.a, "%s/ckpt/sources/0", root);
    CHECK(mkdir(e.in, 0755) == 0);
    return e;
}

static void file_env_done(file_env_t *e)
{
    char *root = sl_strdup(e->a, e->in);
    *strrchr(root, '/') = 0;
    tc_rmtree(root);
    sl_arena_free(e->a);
}

/* Writes a JSON file {"n":"<name>","v":i} per line for each of `lines`. */
static void put_file(file_env_t *e, const char *name, long mtime, const char *text)
{
    tc_write(e->in, name, text);
    tc_mtime(e->in, name, mtime);
}

/* a.json, b.json, c.json: one row each (n, v) = (a, 1), (b, 2), (c, 3),
 * modified at 100, 200, 300 s. */
static void put_abc(file_env_t *e)
{
    put_file(e, "a.json", 100, "{\"n\":\"a\",\"v\":1}\n");
    put_file(e, "b.json", 200, "{\"n\":\"b\",\"v\":2}\n");
    put_file(e, "c.json", 300, "{\"n\":\"c\",\"v\":3}\n");
}

static source_t *file_source(file_env_t *e, ...)
{
    va_list ap;
    va_start(ap, e);
    conn_stream_t *rel = tc_rel_v(e->a, "file", CONN_SOURCE, "n STRING, v INT", ap);
    va_end(ap);
    rel->opts[rel->nopts++] = (conn_kv_t){"path", e->in};
    return make_source(e->a, rel, e->ckpt);
}

TEST(file_order_limit_and_once)
{
    file_env_t e = file_env();
    put_file(&e, "c.json", 300, "{\"n\":\"c\",\"v\":3}\n");
    put_file(&e, "a.json", 100, "{\"n\":\"a\",\"v\":1}\n{\"n\":\"a\",\"v\":11}\n");
    put_file(&e, "b.json", 200, "{\"n\":\"b\",\"v\":2}\n");
    put_file(&e, ".d.json.tmp", 50, "{\"n\":\"hidden\",\"v\":0}\n");
    put_file(&e, "_SUCCESS", 50, "");
    CHECK(mkdir(sl_printf(e.a, "%s/sub", e.in), 0755) == 0);
    source_t *s = file_source(&e, "maxFilesPerTrigger", "2", NULL);
    const char *init;
    sl_error_t err;
    CHECK(s->ops->initial_offset(s, e.a, &init, &err) == 0);
    CHECK_STR(init, "{\"logOffset\":-1}");
    const char *end = latest(s, init, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(end, "{\"logOffset\":0}");
    tc_rows_t r = read_batch(s, 0, init, end, e.a);
    CHECK_STR(tc_join(&r), "a|1\na|11\nb|2");
    CHECK_STR(tc_read(e.a, sl_printf(e.a, "%s/0", e.ckpt)),
              sl_printf(e.a,
                        "v1\n{\"path\":\"file://%s/a.json\",\"timestamp\":100000,\"batchId\":0}\n"
                        "{\"path\":\"file://%s/b.json\",\"timestamp\":200000,\"batchId\":0}",
                        e.in, e.in));
    const char *end1 = latest(s, end, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(end1, "{\"logOffset\":1}");
    r = read_batch(s, 1, end, end1, e.a);
    CHECK_STR(tc_join(&r), "c|3");
    /* nothing new: the end stays */
    CHECK_STR(latest(s, end1, SOURCE_LIMIT_DEFAULT, e.a), end1);
    /* a new file, even an old-looking one, is taken once */
    put_file(&e, "z.json", 10, "{\"n\":\"z\",\"v\":26}\n");
    const char *end2 = latest(s, end1, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(end2, "{\"logOffset\":2}");
    r = read_batch(s, 2, end1, end2, e.a);
    CHECK_STR(tc_join(&r), "z|26");
    CHECK_STR(latest(s, end2, SOURCE_LIMIT_DEFAULT, e.a), end2);
    sl_buf_t d = SL_BUF_INIT;
    s->ops->describe(s, &d);
    CHECK_STR(d.data, sl_printf(e.a, "FileStreamSource[file://%s]", e.in));
    sl_buf_free(&d);
    s->ops->destroy(s);
    file_env_done(&e);
}

TEST(file_latest_first_and_trigger_once)
{
    file_env_t e = file_env();
    put_abc(&e);
    source_t *s = file_source(&e, "maxFilesPerTrigger", "1", "latestFirst", "true", NULL);
    const char *start = "{\"logOffset\":-1}";
    const char *end = latest(s, start, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s, 0, start, end, e.a)}), "c|3");
    /* TRIGGER ONCE takes everything left, newest first */
    const char *end2 = latest(s, end, SOURCE_LIMIT_ALL, e.a);
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s, 1, end, end2, e.a)}), "b|2\na|1");
    file_env_done(&e);
}

TEST(file_restart_rebuilds_seen_set)
{
    file_env_t e = file_env();
    put_file(&e, "a.json", 100, "{\"n\":\"a\",\"v\":1}\n");
    put_file(&e, "b.json", 200, "{\"n\":\"b\",\"v\":2}\n");
    source_t *s = file_source(&e, "maxFilesPerTrigger", "1", NULL);
    const char *e0 = latest(s, "{\"logOffset\":-1}", SOURCE_LIMIT_DEFAULT, e.a);
    read_batch(s, 0, "{\"logOffset\":-1}", e0, e.a);
    const char *e1 = latest(s, e0, SOURCE_LIMIT_DEFAULT, e.a);
    read_batch(s, 1, e0, e1, e.a);
    s->ops->destroy(s);
    /* a restarted query: nothing old is read again, new files are */
    put_file(&e, "c.json", 50, "{\"n\":\"c\",\"v\":3}\n");
    source_t *s2 = file_source(&e, "maxFilesPerTrigger", "1", NULL);
    const char *e2 = latest(s2, e1, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(e2, "{\"logOffset\":2}");
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s2, 2, e1, e2, e.a)}), "c|3");
    CHECK_STR(latest(s2, e2, SOURCE_LIMIT_DEFAULT, e.a), e2);
    file_env_done(&e);
}

TEST(file_crash_windows)
{
    file_env_t e = file_env();
    put_file(&e, "a.json", 100, "{\"n\":\"a\",\"v\":1}\n");
    const char *init = "{\"logOffset\":-1}";
    /* 1. crash after offsets/0 named log 0, before plan wrote it: the re-run
     *    decides it afresh (here with a file that arrived meanwhile too) */
    source_t *s = file_source(&e, NULL);
    const char *end = latest(s, init, SOURCE_LIMIT_DEFAULT, e.a);
    s->ops->destroy(s);
    put_file(&e, "b.json", 200, "{\"n\":\"b\",\"v\":2}\n");
    s = file_source(&e, NULL);
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s, 0, init, end, e.a)}), "a|1\nb|2");
    /* the re-run of the same batch reads the log, not the directory */
    put_file(&e, "c.json", 300, "{\"n\":\"c\",\"v\":3}\n");
    s = file_source(&e, NULL);
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s, 0, init, end, e.a)}), "a|1\nb|2");
    /* plan alone logs nothing: write_ahead does (the runner's ahead job) */
    source_t *p = file_source(&e, NULL);
    const char *pe = latest(p, end, SOURCE_LIMIT_DEFAULT, e.a);
    source_split_t *splits;
    int nsplits;
    sl_error_t err;
    CHECK(p->ops->plan(p, 1, end, pe, e.a, &splits, &nsplits, &err) == 0);
    CHECK_INT(nsplits, 1);
    const char *log1 = sl_printf(e.a, "%s/1", e.ckpt);
    CHECK(access(log1, F_OK) < 0);
    CHECK(p->ops->write_ahead(p, 1, &err) == 0);
    CHECK(access(log1, F_OK) == 0);
    CHECK(unlink(log1) == 0);
    p->ops->destroy(p);
    /* 2. crash after log 1 was written, before offsets/1: the next run's
     *    latest_offset returns that log, and the files are read once */
    const char *e1 = latest(s, end, SOURCE_LIMIT_DEFAULT, e.a);
    read_batch(s, 1, end, e1, e.a); /* writes log 1 (c) */
    put_file(&e, "d.json", 400, "{\"n\":\"d\",\"v\":4}\n");
    s = file_source(&e, NULL);
    const char *again = latest(s, end, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(again, "{\"logOffset\":1}");
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s, 1, end, again, e.a)}), "c|3");
    const char *e2 = latest(s, again, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s, 2, again, e2, e.a)}), "d|4");
    file_env_done(&e);
}

TEST(file_available_now_takes_only_present_files)
{
    file_env_t e = file_env();
    put_file(&e, "a.json", 100, "{\"n\":\"a\",\"v\":1}\n");
    put_file(&e, "b.json", 200, "{\"n\":\"b\",\"v\":2}\n");
    source_t *s = file_source(&e, "maxFilesPerTrigger", "1", NULL);
    sl_error_t err;
    CHECK(s->ops->prepare_available_now(s, &err) == 0);
    put_file(&e, "c.json", 50, "{\"n\":\"c\",\"v\":3}\n");
    const char *e0 = latest(s, "{\"logOffset\":-1}", SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s, 0, "{\"logOffset\":-1}", e0, e.a)}), "a|1");
    const char *e1 = latest(s, e0, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s, 1, e0, e1, e.a)}), "b|2");
    CHECK_STR(latest(s, e1, SOURCE_LIMIT_DEFAULT, e.a), e1);
    file_env_done(&e);
}

static const char BAD_FILE[] = "{\"n\":\"ok\",\"v\":1}\n{\"n\":\"x\",\"v\":\"one\"}\n{oops\n";

TEST(file_modes_counts_and_bad_records)
{
    file_env_t e = file_env();
    put_file(&e, "a.json", 100, BAD_FILE);
    put_file(&e, "b.json", 200, "{\"n\":\"ok2\",\"v\":2}\n");
    const char *init = "{\"logOffset\":-1}";
    char *bad = sl_printf(e.a, "%s/../bad", e.in);
    /* DROPMALFORMED: counted and dropped; bad records written */
    source_t *s = file_source(&e, "mode", "DROPMALFORMED", "badRecordsPath", bad, NULL);
    const char *end = latest(s, init, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s, 0, init, end, e.a)}), "ok|1\nok2|2");
    CHECK_INT(atomic_load(&s->malformed), 2);
    CHECK_INT(atomic_load(&s->dropped), 2);
    char *bad_text = tc_read(e.a, sl_printf(e.a, "%s/q-source0.json", bad));
    CHECK(bad_text != NULL);
    CHECK(strstr(bad_text, sl_printf(e.a, "{\"path\":\"%s/a.json\",\"line\":2,\"record\":", e.in)));
    CHECK(strstr(bad_text, "\"line\":3,\"record\":\"{oops\""));
    s->ops->destroy(s);
    /* PERMISSIVE with the corrupt column (fresh checkpoint) */
    e.ckpt = sl_printf(e.a, "%s2", e.ckpt);
    conn_stream_t *rel = tc_rel(e.a, "file", CONN_SOURCE, "n STRING, v INT, _corrupt_record STRING",
                                "path", e.in, NULL);
    s = make_source(e.a, rel, e.ckpt);
    end = latest(s, init, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s, 0, init, end, e.a)}),
              "ok|1|∅\n∅|∅|{\"n\":\"x\",\"v\":\"one\"}\n∅|∅|{oops\nok2|2|∅");
    CHECK_INT(atomic_load(&s->malformed), 2);
    CHECK_INT(atomic_load(&s->dropped), 0);
    /* FAILFAST: the read fails naming the file and the line */
    e.ckpt = sl_printf(e.a, "%s3", e.ckpt);
    s = file_source(&e, "mode", "FAILFAST", NULL);
    end = latest(s, init, SOURCE_LIMIT_DEFAULT, e.a);
    tc_rows_t r;
    sl_error_t err;
    CHECK(tc_read_batch(s, 0, init, end, e.a, &r, &err) < 0);
    CHECK_STR(err.sqlstate, "22P02");
    CHECK_STR(err.message,
              sl_printf(e.a, "malformed record in file \"%s/a.json\" at line 2", e.in));
    file_env_done(&e);
}

/* The number of lines of `text`. */
static int count_lines(const char *text)
{
    int n = 0;
    for (const char *p = text; (p = strchr(p, '\n')); p++) n++;
    return n;
}

TEST(file_bad_records_rotate_with_the_stream_options)
{
    file_env_t e = file_env();
    /* lines 1-9 good, 10-39 bad: 30 bad-record lines of one length */
    sl_buf_t text = SL_BUF_INIT;
    for (int i = 1; i <= 39; i++)
        sl_buf_puts(&text, i < 10 ? "{\"n\":\"ok\",\"v\":1}\n" : "{oops\n");
    put_file(&e, "a.json", 100, text.data);
    sl_buf_free(&text);
    char *bad = sl_printf(e.a, "%s/../bad", e.in);
    source_t *s = file_source(&e, "mode", "DROPMALFORMED", "badRecordsPath", bad,
                              "badRecordsMaxBytes", "1k", "badRecordsMaxFiles", "2", NULL);
    const char *init = "{\"logOffset\":-1}";
    const char *end = latest(s, init, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_INT(read_batch(s, 0, init, end, e.a).n, 9);
    char *cur = tc_read(e.a, sl_printf(e.a, "%s/q-source0.json", bad));
    char *old1 = tc_read(e.a, sl_printf(e.a, "%s/q-source0.json.1", bad));
    char *old2 = tc_read(e.a, sl_printf(e.a, "%s/q-source0.json.2", bad));
    CHECK(cur && old1 && old2);
    CHECK(tc_read(e.a, sl_printf(e.a, "%s/q-source0.json.3", bad)) == NULL);
    size_t len = (size_t)(strchr(cur, '\n') - cur + 1);
    int per_file = (int)(1024 / len), rotations = (30 - 1) / per_file,
        ncur = 30 - rotations * per_file;
    CHECK(rotations >= 3); /* the oldest file was deleted */
    /* two full old files and the newest records in the current one */
    CHECK_INT(strlen(old1), per_file * len);
    CHECK_INT(strlen(old2), per_file * len);
    CHECK_INT(strlen(cur), ncur * len);
    CHECK_INT(count_lines(cur), ncur);
    const char *head = sl_printf(e.a, "{\"path\":\"%s/a.json\",\"line\":", e.in);
    CHECK(!strncmp(cur, sl_printf(e.a, "%s%d,", head, 40 - ncur), strlen(head) + 3));
    CHECK(!strncmp(old1, sl_printf(e.a, "%s%d,", head, 40 - ncur - per_file), strlen(head) + 3));
    CHECK(
        !strncmp(old2, sl_printf(e.a, "%s%d,", head, 40 - ncur - 2 * per_file), strlen(head) + 3));
    sl_buf_t m = SL_BUF_INIT;
    s->ops->metrics(s, end, end, &m);
    CHECK_STR(m.data, sl_printf(e.a,
                                "\"numMalformedRecords\":\"30\",\"badRecordsBytesWritten\":"
                                "\"%zu\",\"badRecordsFilesRotated\":\"%d\"",
                                30 * len, rotations));
    sl_buf_free(&m);
    file_env_done(&e);
}

TEST(file_csv_with_header_per_file)
{
    file_env_t e = file_env();
    put_file(&e, "a.csv", 100, "n,v\na,1\n\"multi\nline\",2\n");
    put_file(&e, "b.csv", 200, "n,v\nb,3\n");
    source_t *s = file_source(&e, "format", "csv", "header", "true", NULL);
    const char *init = "{\"logOffset\":-1}";
    const char *end = latest(s, init, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s, 0, init, end, e.a)}), "a|1\nmulti\nline|2\nb|3");
    file_env_done(&e);
}

TEST(file_source_reads_only_committed_sink_output)
{
    file_env_t e = file_env();
    char *meta = sl_printf(e.a, "%s/_sluice_metadata", e.in);
    CHECK(mkdir(meta, 0755) == 0);
    put_file(&e, "part-00000-00000.json", 100, "{\"n\":\"committed\",\"v\":1}\n");
    put_file(&e, "part-00001-00000.json", 200, "{\"n\":\"unfinished\",\"v\":2}\n");
    tc_write(meta, "0",
             sl_printf(e.a,
                       "v1\n{\"path\":\"file://%s/part-00000-00000.json\",\"action\":"
                       "\"add\"}",
                       e.in));
    source_t *s = file_source(&e, NULL);
    const char *init = "{\"logOffset\":-1}";
    const char *end = latest(s, init, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s, 0, init, end, e.a)}), "committed|1");
    CHECK_STR(latest(s, end, SOURCE_LIMIT_DEFAULT, e.a), end);
    /* the sink commits batch 1: now it is read */
    tc_write(meta, "1",
             sl_printf(e.a,
                       "v1\n{\"path\":\"file://%s/part-00001-00000.json\",\"action\":"
                       "\"add\"}",
                       e.in));
    const char *end1 = latest(s, end, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s, 1, end, end1, e.a)}), "unfinished|2");
    file_env_done(&e);
}

/* 1 when fd is readable now. */
static int readable(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    return poll(&p, 1, 0) == 1;
}

/* The change descriptor: quiet after a listing, readable once a file is
 * moved in or written, and for a commit in a file sink's manifest
 * directory; a listing forgets what it has seen. */
TEST(file_change_fd_wakes_for_new_files_only)
{
    file_env_t e = file_env();
    source_t *s = file_source(&e, NULL);
    int fd = s->ops->change_fd(s);
    CHECK(fd >= 0);
    const char *init = "{\"logOffset\":-1}";
    CHECK_STR(latest(s, init, SOURCE_LIMIT_DEFAULT, e.a), init);
    CHECK(!readable(fd));
    tc_write(e.in, ".a.tmp", "{\"n\":\"a\",\"v\":1}\n");
    CHECK(readable(fd)); /* a temporary file: worth a look, nothing to take */
    CHECK_STR(latest(s, init, SOURCE_LIMIT_DEFAULT, e.a), init);
    CHECK(!readable(fd));
    CHECK(rename(sl_printf(e.a, "%s/.a.tmp", e.in), sl_printf(e.a, "%s/a.json", e.in)) == 0);
    CHECK(readable(fd));
    const char *end = latest(s, init, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(end, "{\"logOffset\":0}");
    CHECK(!readable(fd));
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s, 0, init, end, e.a)}), "a|1");
    /* the directory becomes a file sink's output: its manifest directory is watched too */
    char *meta = sl_printf(e.a, "%s/_sluice_metadata", e.in);
    CHECK(mkdir(meta, 0755) == 0);
    CHECK(readable(fd));
    CHECK_STR(latest(s, end, SOURCE_LIMIT_DEFAULT, e.a), end);
    CHECK(!readable(fd));
    tc_write(meta, "0",
             sl_printf(e.a, "v1\n{\"path\":\"file://%s/a.json\",\"action\":\"add\"}", e.in));
    CHECK(readable(fd));
    s->ops->destroy(s);
    file_env_done(&e);
}

/* After the first listing a decision needs only the files the last one
 * left and the names the watch reports: a left file named again by an
 * event is taken once, a left file deleted meanwhile is not taken, and the
 * order (modification time, then name) is the listing's. */
TEST(file_decisions_from_watch_events)
{
    file_env_t e = file_env();
    put_abc(&e);
    source_t *s = file_source(&e, "maxFilesPerTrigger", "1", NULL);
    const char *o0 = "{\"logOffset\":-1}";
    const char *o1 = latest(s, o0, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s, 0, o0, o1, e.a)}), "a|1");
    /* b and c were left; b is written again (an event names it), c is deleted,
     * d arrives looking older than everything */
    put_file(&e, "b.json", 200, "{\"n\":\"b\",\"v\":22}\n");
    CHECK(unlink(sl_printf(e.a, "%s/c.json", e.in)) == 0);
    put_file(&e, "d.json", 50, "{\"n\":\"d\",\"v\":4}\n");
    const char *o2 = latest(s, o1, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s, 1, o1, o2, e.a)}), "d|4");
    const char *o3 = latest(s, o2, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s, 2, o2, o3, e.a)}), "b|22");
    CHECK_STR(latest(s, o3, SOURCE_LIMIT_DEFAULT, e.a), o3);
    /* a restarted source lists the directory again and agrees */
    s->ops->destroy(s);
    s = file_source(&e, NULL);
    CHECK_STR(latest(s, o3, SOURCE_LIMIT_DEFAULT, e.a), o3);
    put_file(&e, "e.json", 400, "{\"n\":\"e\",\"v\":5}\n");
    const char *o4 = latest(s, o3, SOURCE_LIMIT_DEFAULT, e.a);
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s, 3, o3, o4, e.a)}), "e|5");
    s->ops->destroy(s);
    file_env_done(&e);
}

TEST(file_option_validation)
{
    file_env_t e = file_env();
    check_invalid(
        e.a,
        tc_rel(e.a, "file", CONN_SOURCE, "a INT", "path", e.in, "maxFilesPerTrigger", "0", NULL),
        "22023", "invalid value \"0\" for option \"maxFilesPerTrigger\"",
        "It must be an integer from 1 to 2147483647.");
    check_invalid(
        e.a, tc_rel(e.a, "file", CONN_SOURCE, "a INT", "path", e.in, "latestFirst", "1", NULL),
        "22023", "invalid value \"1\" for option \"latestFirst\"", "Accepted values: true, false.");
    check_invalid(e.a,
                  tc_rel(e.a, "file", CONN_SOURCE, "a INT", "path", e.in, "format", "raw", NULL),
                  "22023", "invalid value \"raw\" for option \"format\"", NULL);
    check_invalid(e.a,
                  tc_rel(e.a, "file", CONN_SOURCE, "a INT", "path", e.in, "badRecordsMaxBytes",
                         "64 parsecs", NULL),
                  "22023", "invalid value \"64 parsecs\" for option \"badRecordsMaxBytes\"",
                  "It must be a positive size such as 64m, 512k or 1g (units b, k, m, g, t; a bare "
                  "number is bytes).");
    check_invalid(
        e.a,
        tc_rel(e.a, "file", CONN_SOURCE, "a INT", "path", e.in, "badRecordsMaxFiles", "many", NULL),
        "22023", "invalid value \"many\" for option \"badRecordsMaxFiles\"",
        "It must be an integer from 0 to 1000.");
    check_invalid(e.a, tc_rel(e.a, "file", CONN_SOURCE, "a INT", NULL), "22023",
                  "file source requires option \"path\"", NULL);
    /* a directory that does not exist fails at start, not at CREATE STREAM */
    conn_stream_t *rel = tc_rel(e.a, "file", CONN_SOURCE, "a INT", "path", "/no/such/dir", NULL);
    sl_error_t err;
    CHECK(source_validate(rel, &err) == 0);
    source_t *s;
    CHECK(source_create(rel, 0, e.ckpt, "q", e.a, &s, &err) < 0);
    CHECK_STR(err.sqlstate, "58030");
    file_env_done(&e);
}

TEST(kafka_source_checks_its_record_options)
{
    sl_arena_t *a = sl_arena_new("t");
    sl_error_t err;
    conn_stream_t *rel = tc_rel(a, "kafka", CONN_SOURCE, "a INT", "kafka.bootstrap.servers", "h:1",
                                "subscribe", "t", "format", "csv", "mode", "FAILFAST", NULL);
    CHECK(source_validate(rel, &err) == 0);
    rel = tc_rel(a, "kafka", CONN_SOURCE, "a INT", "kafka.bootstrap.servers", "h:1", "subscribe",
                 "t", "mode", "nope", NULL);
    CHECK(source_validate(rel, &err) < 0);
    CHECK_STR(err.message, "invalid value \"nope\" for option \"mode\"");
    rel = tc_rel(a, "kafka", CONN_SOURCE, "a INT", "kafka.bootstrap.servers", "h:1", NULL);
    CHECK(source_validate(rel, &err) < 0);
    CHECK_STR(err.message, "a kafka stream needs exactly one of the options subscribe and assign");
    sl_arena_free(a);
}

/* ---- nexmark ----------------------------------------------------------------- */

static const char *const NX_TABLES[] = {"person", "auction", "bid"};

/* Field k of a "a|b|c" row, in `a`. */
static const char *field(sl_arena_t *a, const char *row, int k)
{
    while (k-- > 0) row = strchr(row, '|') + 1;
    const char *e = strchr(row, '|');
    return sl_strndup(a, row, e ? (size_t)(e - row) : strlen(row));
}
extern const char *conn_nexmark_schema(const char *table);

static source_t *nexmark(sl_arena_t *a, const char *dir, const char *table, const char *seed,
                         const char *eps, const char *max)
{
    conn_stream_t *rel =
        tc_rel(a, "nexmark", CONN_SOURCE, conn_nexmark_schema(table), "table", table, "seed", seed,
               "eventsPerSecond", eps, "maxEvents", max, NULL);
    return make_source(a, rel, dir);
}

TEST(nexmark_proportions_and_schema)
{
    sl_arena_t *a = sl_arena_new("t");
    char *dir = tc_tmpdir(a);
    tc_now_ms = 1700000000000;
    int want[] = {100, 300, 4600};
    for (int t = 0; t < 3; t++) {
        source_t *s = nexmark(a, dir, NX_TABLES[t], "1", "1000", "5000");
        CHECK_STR(latest(s, "0", SOURCE_LIMIT_DEFAULT, a), "0");
        tc_now_ms = 1700000000000 + 60000;
        CHECK_STR(latest(s, "0", SOURCE_LIMIT_DEFAULT, a), "5000");
        tc_rows_t r = read_batch(s, 0, "0", "5000", a);
        CHECK_INT(r.n, want[t]);
        tc_now_ms = 1700000000000;
    }
    /* the person of event 0 and the bid of event 4 */
    source_t *p = nexmark(a, dir, "person", "1", "1000", "0");
    tc_rows_t r = read_batch(p, 0, "0", "100", a);
    CHECK_INT(r.n, 2);
    CHECK(!strncmp(r.rows[0], "1000|", 5));
    CHECK(!strncmp(r.rows[1], "1001|", 5));
    CHECK(strstr(r.rows[0], "|2023-11-14 22:13:20|") != NULL);
    CHECK(strstr(r.rows[1], "|2023-11-14 22:13:20.05|") != NULL);
    source_t *au = nexmark(a, dir, "auction", "1", "1000", "0");
    r = read_batch(au, 0, "0", "50", a);
    CHECK_INT(r.n, 3);
    CHECK(!strncmp(r.rows[0], "1000|", 5) && !strncmp(r.rows[2], "1002|", 5));
    for (int i = 0; i < 3; i++) {
        CHECK(atoll(field(a, r.rows[i], 4)) >
              atoll(field(a, r.rows[i], 3))); /* reserve > initial */
        long long cat = atoll(field(a, r.rows[i], 8));
        CHECK(cat >= 10 && cat <= 14);
        CHECK(strcmp(field(a, r.rows[i], 6), field(a, r.rows[i], 5)) > 0); /* expires > date_time */
        CHECK(atoll(field(a, r.rows[i], 7)) >= 1000);                      /* seller */
    }
    /* bids refer to existing (or just-ahead) auctions and people */
    source_t *bid = nexmark(a, dir, "bid", "1", "1000", "0");
    r = read_batch(bid, 0, "0", "5000", a);
    for (int i = 0; i < r.n; i++) {
        long long auction = atoll(field(a, r.rows[i], 0)), bidder = atoll(field(a, r.rows[i], 1));
        CHECK(auction >= 1000 && auction <= 1000 + 300 + 10);
        CHECK(bidder >= 1000 && bidder <= 1000 + 100 + 10);
        CHECK(atoll(field(a, r.rows[i], 2)) >= 100); /* price in cents */
    }
    tc_rmtree(dir);
    sl_arena_free(a);
}

TEST(nexmark_deterministic_by_seed_and_replay)
{
    sl_arena_t *a = sl_arena_new("t");
    char *dir = tc_tmpdir(a), *dir2 = tc_tmpdir(a);
    tc_now_ms = 1700000000000;
    source_t *s1 = nexmark(a, dir, "bid", "7", "10000", "0");
    source_t *s2 = nexmark(a, dir, "bid", "7", "10000", "0");
    source_t *s3 = nexmark(a, dir, "bid", "8", "10000", "0");
    CHECK_STR(latest(s1, "0", SOURCE_LIMIT_DEFAULT, a), "0"); /* first use: the base time */
    tc_now_ms += 99999; /* another process starting later: same persisted base time */
    source_t *s4 = nexmark(a, dir, "bid", "7", "10000", "0");
    const char *b1 = tc_join((tc_rows_t[]){read_batch(s1, 0, "1000", "3000", a)});
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s2, 0, "1000", "3000", a)}), b1);
    CHECK_STR(tc_join((tc_rows_t[]){read_batch(s4, 0, "1000", "3000", a)}), b1);
    CHECK(strcmp(tc_join((tc_rows_t[]){read_batch(s3, 0, "1000", "3000", a)}), b1) != 0);
    /* splits: any partition of the range gives the same rows */
    const char *whole = tc_join((tc_rows_t[]){read_batch(s1, 0, "0", "250000", a)});
    sl_buf_t parts = SL_BUF_INIT;
    sl_error_t err_dummy;
    source_split_t *splits;
    int n;
    CHECK(s1->ops->plan(s1, 0, "0", "250000", a, &splits, &n, &err_dummy) == 0);
    CHECK_INT(n, 2);
    for (int i = 0; i < n; i++) {
        tc_rows_t r = {.a = a};
        CHECK(s1->ops->read_split(s1, &splits[i], a, tc_emit, &r, &err_dummy) == 0);
        CHECK(r.max_batch_rows <= 4096);
        sl_buf_printf(&parts, "%s%s", i ? "\n" : "", tc_join(&r));
    }
    CHECK(!strcmp(parts.data, whole));
    sl_buf_free(&parts);
    /* another seed's base time is its own */
    source_t *s5 = nexmark(a, dir2, "bid", "7", "10000", "0");
    CHECK(strcmp(tc_join((tc_rows_t[]){read_batch(s5, 0, "1000", "3000", a)}), b1) != 0);
    tc_rmtree(dir);
    tc_rmtree(dir2);
    sl_arena_free(a);
}

TEST(nexmark_availability_follows_event_time)
{
    sl_arena_t *a = sl_arena_new("t");
    char *dir = tc_tmpdir(a);
    tc_now_ms = 1700000000000;
    source_t *s = nexmark(a, dir, "bid", "0", "1000", "0");
    const char *init;
    sl_error_t err;
    CHECK(s->ops->initial_offset(s, a, &init, &err) == 0);
    CHECK_STR(init, "0");
    tc_now_ms += 2500;
    CHECK_STR(latest(s, "0", SOURCE_LIMIT_DEFAULT, a), "2500");
    CHECK(s->ops->prepare_available_now(s, &err) == 0);
    tc_now_ms += 2500;
    CHECK_STR(latest(s, "2500", SOURCE_LIMIT_DEFAULT, a), "2500");
    sl_buf_t d = SL_BUF_INIT;
    s->ops->describe(s, &d);
    CHECK_STR(d.data, "NexmarkSource[table=bid, eventsPerSecond=1000, maxEvents=0, seed=0]");
    sl_buf_free(&d);
    tc_rmtree(dir);
    sl_arena_free(a);
}

TEST(nexmark_option_validation)
{
    sl_arena_t *a = sl_arena_new("t");
    check_invalid(a, tc_rel(a, "nexmark", CONN_SOURCE, "id BIGINT", "table", "bids", NULL), "22023",
                  "invalid value \"bids\" for option \"table\"",
                  "Accepted values: person, auction, bid.");
    check_invalid(a,
                  tc_rel(a, "nexmark", CONN_SOURCE, conn_nexmark_schema("bid"), "table", "bid",
                         "eventsPerSecond", "0", NULL),
                  "22023", "invalid value \"0\" for option \"eventsPerSecond\"", NULL);
    check_invalid(
        a, tc_rel(a, "nexmark", CONN_SOURCE, "id BIGINT, colour STRING", "table", "person", NULL),
        "42P17", "the nexmark person table has no column \"colour\"", NULL);
    sl_arena_free(a);
}
