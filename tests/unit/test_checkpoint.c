/* Unit tests of state/checkpoint: exact bytes of metadata, offsets/N and
 * commits/N against files Spark wrote, the restart decision of every case of
 * Spark's populateStartOffsets, write-once logs, purge, version-line
 * validation, and crashes in the middle of a write (failpoints). */
#include "unit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/private_file.h"
#include "common/arena.h"
#include "state/checkpoint.h"
#include "common/failpoint.h"
#include "state/state_int.h"

/* Real files from Spark's test resources (reference §3.2-3.4). */
static const char SPARK_METADATA[] = "{\"id\":\"9538ada3-a233-4697-8b02-cc66250189a3\"}";
static const char SPARK_OFFSETS_1[] =
    "v1\n"
    "{\"batchWatermarkMs\":0,\"batchTimestampMs\":1645693802625,\"conf\":{"
    "\"spark.sql.streaming.stateStore.providerClass\":\"org.apache.spark.sql.execution.streaming."
    "state.HDFSBackedStateStoreProvider\",\"spark.sql.streaming.join.stateFormatVersion\":\"2\","
    "\"spark.sql.streaming.stateStore.compression.codec\":\"lz4\",\"spark.sql.streaming."
    "stateStore.rocksdb.formatVersion\":\"5\",\"spark.sql.streaming.flatMapGroupsWithState."
    "stateFormatVersion\":\"2\",\"spark.sql.streaming.multipleWatermarkPolicy\":\"min\","
    "\"spark.sql.streaming.aggregation.stateFormatVersion\":\"2\",\"spark.sql.shuffle."
    "partitions\":\"5\"}}\n"
    "1";
static const ckpt_conf_entry_t SPARK_CONF[] = {
    {"spark.sql.streaming.stateStore.providerClass",
     "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider"},
    {"spark.sql.streaming.join.stateFormatVersion", "2"},
    {"spark.sql.streaming.stateStore.compression.codec", "lz4"},
    {"spark.sql.streaming.stateStore.rocksdb.formatVersion", "5"},
    {"spark.sql.streaming.flatMapGroupsWithState.stateFormatVersion", "2"},
    {"spark.sql.streaming.multipleWatermarkPolicy", "min"},
    {"spark.sql.streaming.aggregation.stateFormatVersion", "2"},
    {"spark.sql.shuffle.partitions", "5"},
};
static const char SPARK_COMMIT[] = "v1\n{\"nextBatchWatermarkMs\":0}";

/* Temporary checkpoint directories of the running test, removed by rm_tmp()
 * at its end (a failing test leaves them for inspection). */
static char tmp_paths[8][64];
static int ntmp;

static char *tmpdir(void)
{
    CHECK(ntmp < 8);
    char *path = tmp_paths[ntmp++];
    snprintf(path, 64, "/tmp/sluice-ckpt-XXXXXX");
    CHECK(mkdtemp(path) != NULL);
    return path;
}

static void rm_tmp(void)
{
    sl_error_t err;
    for (int i = 0; i < ntmp; i++) CHECK_INT(sl_fs_rmtree(tmp_paths[i], &err), 0);
    ntmp = 0;
}

static char *subpath(const char *dir, const char *rel)
{
    static char p[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, rel);
    return p[k];
}

/* Reads a whole file as a string ("" when absent), valid for the next 3
 * calls. */
static char *slurp(const char *path)
{
    static sl_buf_t ring[4];
    static int k;
    sl_buf_t *b = &ring[k = (k + 1) % 4];
    sl_error_t err;
    int rc = sl_fs_read_file(path, b, &err);
    CHECK(rc >= 0);
    if (rc == 0) sl_buf_puts(b, "");
    return b->data;
}

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fputs(text, f);
    fclose(f);
}

static ckpt_t *open_ok(const char *dir)
{
    sl_error_t err;
    ckpt_t *c = ckpt_open(dir, &err);
    if (!c) unit_fail(__FILE__, __LINE__, "ckpt_open: %s", err.message);
    return c;
}

static ckpt_offsets_t offsets_of(int64_t wm, int64_t ts, const char **srcs, int n)
{
    static ckpt_conf_entry_t conf[] = {{CKPT_CONF_SHUFFLE_PARTITIONS, "4"},
                                       {CKPT_CONF_STATE_STORE, "memory"},
                                       {CKPT_CONF_WATERMARK_POLICY, "min"}};
    ckpt_offsets_t o = {0};
    o.meta.watermark_ms = wm;
    o.meta.timestamp_ms = ts;
    o.meta.nconf = 3;
    o.meta.conf = conf;
    o.nsources = n;
    o.sources = srcs;
    return o;
}

static void write_offsets(ckpt_t *c, int64_t batch, int64_t wm, const char *src)
{
    const char *srcs[1] = {src};
    ckpt_offsets_t o = offsets_of(wm, 1000 + batch, srcs, 1);
    sl_error_t err;
    if (ckpt_offsets_write(c, batch, &o, &err) < 0)
        unit_fail(__FILE__, __LINE__, "offsets write: %s", err.message);
}

static void write_commit(ckpt_t *c, int64_t batch, int64_t wm)
{
    sl_error_t err;
    if (ckpt_commit_write(c, batch, wm, &err) < 0)
        unit_fail(__FILE__, __LINE__, "commit write: %s", err.message);
}

/* ---- metadata ---- */

static int is_uuid_v4(const char *s)
{
    if (strlen(s) != 36) return 0;
    for (int i = 0; i < 36; i++) {
        int dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash != (s[i] == '-')) return 0;
        if (!dash && !strchr("0123456789abcdef", s[i])) return 0;
    }
    return s[14] == '4' && strchr("89ab", s[19]) != NULL;
}

TEST(metadata_created_once_with_spark_bytes)
{
    char *dir = tmpdir();
    ckpt_t *c = open_ok(dir);
    const char *id = ckpt_query_id(c);
    CHECK(is_uuid_v4(id));
    char expect[64];
    snprintf(expect, sizeof expect, "{\"id\":\"%s\"}", id);
    CHECK_STR(slurp(subpath(dir, "metadata")), expect);
    const char *dirs[] = {"offsets", "commits", "sources", "state"};
    for (int i = 0; i < 4; i++) {
        struct stat st;
        CHECK(stat(subpath(dir, dirs[i]), &st) == 0 && S_ISDIR(st.st_mode));
    }
    CHECK_STR(ckpt_state_dir(c), subpath(dir, "state"));
    char saved[40];
    snprintf(saved, sizeof saved, "%s", id);
    ckpt_close(c);
    c = open_ok(dir);
    CHECK_STR(ckpt_query_id(c), saved); /* stable across restarts */
    ckpt_close(c);
    /* a second new checkpoint gets another id */
    ckpt_t *c2 = open_ok(tmpdir());
    CHECK(strcmp(ckpt_query_id(c2), saved) != 0);
    ckpt_close(c2);
    rm_tmp();
}

TEST(metadata_reads_spark_file)
{
    char *dir = tmpdir();
    put_file(subpath(dir, "metadata"), SPARK_METADATA);
    ckpt_t *c = open_ok(dir);
    CHECK_STR(ckpt_query_id(c), "9538ada3-a233-4697-8b02-cc66250189a3");
    ckpt_close(c);
    CHECK_STR(slurp(subpath(dir, "metadata")), SPARK_METADATA); /* untouched */
    rm_tmp();
}

TEST(metadata_malformed_is_refused)
{
    char *dir = tmpdir();
    put_file(subpath(dir, "metadata"), "{\"name\":1}");
    sl_error_t err;
    CHECK(ckpt_open(dir, &err) == NULL);
    CHECK_STR(err.sqlstate, SL_ERR_IO_ERROR);
    CHECK(strstr(err.message, "metadata") != NULL);
    rm_tmp();
}

TEST(metadata_deleted_under_logs_is_refused)
{
    char *dir = tmpdir();
    ckpt_t *c = open_ok(dir);
    write_offsets(c, 0, 0, "1");
    ckpt_close(c);
    CHECK(unlink(subpath(dir, "metadata")) == 0);
    sl_error_t err;
    CHECK(ckpt_open(dir, &err) == NULL);
    CHECK_STR(err.sqlstate, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE);
    CHECK(strstr(err.message, "metadata\" is missing") != NULL);
    struct stat st;
    CHECK(stat(subpath(dir, "metadata"), &st) < 0); /* no new id was made up */
    /* a commit alone is evidence of a run too */
    char *dir2 = tmpdir();
    c = open_ok(dir2);
    write_commit(c, 0, 0);
    ckpt_close(c);
    CHECK(unlink(subpath(dir2, "metadata")) == 0);
    CHECK(ckpt_open(dir2, &err) == NULL);
    CHECK_STR(err.sqlstate, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE);
    rm_tmp();
}

/* ---- offsets ---- */

TEST(offsets_bytes_match_spark)
{
    char *dir = tmpdir();
    ckpt_t *c = open_ok(dir);
    const char *srcs[] = {"1"};
    ckpt_offsets_t o = {0};
    o.meta.timestamp_ms = 1645693802625LL;
    o.meta.conf = (ckpt_conf_entry_t *)SPARK_CONF;
    o.meta.nconf = 8;
    o.nsources = 1;
    o.sources = srcs;
    sl_error_t err;
    CHECK_INT(ckpt_offsets_write(c, 1, &o, &err), 0);
    CHECK_STR(slurp(subpath(dir, "offsets/1")), SPARK_OFFSETS_1);
    ckpt_close(c);
    rm_tmp();
}

TEST(offsets_read_spark_file)
{
    char *dir = tmpdir();
    ckpt_t *c = open_ok(dir);
    put_file(subpath(dir, "offsets/1"), SPARK_OFFSETS_1);
    sl_arena_t *a = sl_arena_new("test");
    ckpt_offsets_t o;
    sl_error_t err;
    CHECK_INT(ckpt_offsets_read(c, 1, a, &o, &err), 1);
    CHECK_INT(o.has_meta, 1);
    CHECK_INT(o.meta.watermark_ms, 0);
    CHECK_INT(o.meta.timestamp_ms, 1645693802625LL);
    CHECK_INT(o.meta.nconf, 8);
    for (int i = 0; i < 8; i++) { /* order kept */
        CHECK_STR(o.meta.conf[i].key, SPARK_CONF[i].key);
        CHECK_STR(o.meta.conf[i].value, SPARK_CONF[i].value);
    }
    CHECK_STR(ckpt_conf_get(&o.meta, "spark.sql.shuffle.partitions"), "5");
    CHECK(ckpt_conf_get(&o.meta, "nope") == NULL);
    CHECK_INT(o.nsources, 1);
    CHECK_STR(o.sources[0], "1");
    CHECK_INT(ckpt_offsets_read(c, 2, a, &o, &err), 0);
    sl_arena_free(a);
    ckpt_close(c);
    rm_tmp();
}

TEST(offsets_many_sources_round_trip)
{
    char *dir = tmpdir();
    ckpt_t *c = open_ok(dir);
    const char *srcs[] = {"{\"clicks\":{\"0\":42,\"1\":7}}", NULL, "{\"logOffset\":3}"};
    ckpt_offsets_t o = offsets_of(-5, 77, srcs, 3);
    sl_error_t err;
    CHECK_INT(ckpt_offsets_write(c, 0, &o, &err), 0);
    CHECK_STR(slurp(subpath(dir, "offsets/0")),
              "v1\n{\"batchWatermarkMs\":-5,\"batchTimestampMs\":77,\"conf\":{"
              "\"sluice.shufflePartitions\":\"4\",\"sluice.stateStore\":\"memory\","
              "\"sluice.multipleWatermarkPolicy\":\"min\"}}\n"
              "{\"clicks\":{\"0\":42,\"1\":7}}\n-\n{\"logOffset\":3}");
    sl_arena_t *a = sl_arena_new("test");
    ckpt_offsets_t r;
    CHECK_INT(ckpt_offsets_read(c, 0, a, &r, &err), 1);
    CHECK_INT(r.meta.watermark_ms, -5);
    CHECK_INT(r.nsources, 3);
    CHECK_STR(r.sources[0], srcs[0]);
    CHECK(r.sources[1] == NULL);
    CHECK_STR(r.sources[2], srcs[2]);
    /* a source offset with a newline would corrupt the file */
    const char *bad[] = {"{\"a\":\n1}"};
    ckpt_offsets_t ob = offsets_of(0, 0, bad, 1);
    CHECK_INT(ckpt_offsets_write(c, 1, &ob, &err), -1);
    CHECK_STR(err.sqlstate, SL_ERR_INVALID_PARAMETER_VALUE);
    CHECK(!sl_fs_exists(subpath(dir, "offsets/1")));
    sl_arena_free(a);
    ckpt_close(c);
    rm_tmp();
}

TEST(offsets_empty_metadata_line_and_trailing_newline)
{
    char *dir = tmpdir();
    ckpt_t *c = open_ok(dir);
    put_file(subpath(dir, "offsets/4"), "v1\n\n{\"t\":{\"0\":1}}\n");
    sl_arena_t *a = sl_arena_new("test");
    ckpt_offsets_t o;
    sl_error_t err;
    CHECK_INT(ckpt_offsets_read(c, 4, a, &o, &err), 1);
    CHECK_INT(o.has_meta, 0);
    CHECK_INT(o.meta.nconf, 0);
    CHECK_INT(o.nsources, 1);
    CHECK_STR(o.sources[0], "{\"t\":{\"0\":1}}");
    sl_arena_free(a);
    ckpt_close(c);
    rm_tmp();
}

TEST(batch_meta_json_escapes_like_json4s)
{
    ckpt_conf_entry_t conf[] = {{"q\"b\\s", "tab\there\nnl\x01"},
                                {"u", "caf\xc3\xa9 \xc2\x85 \xe2\x80\xa8 \xe2\x82\xac"}};
    ckpt_batch_meta_t m = {1, 2, 2, conf};
    sl_arena_t *a = sl_arena_new("test");
    /* U+00E9 passes through; U+0085, U+2028 and U+20AC are in json4s's escaped ranges */
    CHECK_STR(ckpt_batch_meta_json(&m, a),
              "{\"batchWatermarkMs\":1,\"batchTimestampMs\":2,\"conf\":{\"q\\\"b\\\\s\":"
              "\"tab\\there\\nnl\\u0001\",\"u\":\"caf\xc3\xa9 \\u0085 \\u2028 \\u20ac\"}}");
    ckpt_batch_meta_t empty = {0};
    CHECK_STR(ckpt_batch_meta_json(&empty, a),
              "{\"batchWatermarkMs\":0,\"batchTimestampMs\":0,\"conf\":{}}");
    sl_arena_free(a);
    rm_tmp();
}

TEST(offsets_refuse_overwrite)
{
    char *dir = tmpdir();
    ckpt_t *c = open_ok(dir);
    write_offsets(c, 3, 0, "10");
    char before[512];
    snprintf(before, sizeof before, "%s", slurp(subpath(dir, "offsets/3")));
    const char *srcs[] = {"99"};
    ckpt_offsets_t o = offsets_of(0, 0, srcs, 1);
    sl_error_t err;
    CHECK_INT(ckpt_offsets_write(c, 3, &o, &err), -1);
    CHECK_STR(err.sqlstate, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE);
    CHECK(strstr(err.message, "concurrent update to the log") != NULL);
    CHECK(strstr(err.message, "offsets/3") != NULL);
    CHECK_STR(slurp(subpath(dir, "offsets/3")), before);
    CHECK_INT(ckpt_commit_write(c, 3, 0, &err), 0);
    CHECK_INT(ckpt_commit_write(c, 3, 5, &err), -1);
    CHECK(strstr(err.message, "concurrent update to the log: commits/3") != NULL);
    ckpt_close(c);
    rm_tmp();
}

TEST(latest_ignores_other_names_and_purge_keeps_newer)
{
    char *dir = tmpdir();
    ckpt_t *c = open_ok(dir);
    sl_error_t err;
    int64_t latest = -7;
    CHECK_INT(ckpt_offsets_latest(c, &latest, &err), 0);
    CHECK_INT(latest, -7);
    for (int b = 0; b < 12; b++) write_offsets(c, b, 0, "1");
    put_file(subpath(dir, "offsets/.11.crc"), "x");
    put_file(subpath(dir, "offsets/.12.0badcafe.tmp"), "partial");
    put_file(subpath(dir, "offsets/012"), "v1\n");
    put_file(subpath(dir, "offsets/99x"), "v1\n");
    put_file(subpath(dir, "offsets/12.compact"), "v1\n");
    CHECK_INT(ckpt_offsets_latest(c, &latest, &err), 1);
    CHECK_INT(latest, 11);
    CHECK_INT(ckpt_offsets_purge(c, 9, &err), 0);
    for (int b = 0; b < 12; b++) {
        char rel[32];
        snprintf(rel, sizeof rel, "offsets/%d", b);
        CHECK_INT(sl_fs_exists(subpath(dir, rel)), b >= 9);
    }
    CHECK(sl_fs_exists(subpath(dir, "offsets/99x"))); /* not a batch file: kept */
    CHECK_INT(ckpt_offsets_latest(c, &latest, &err), 1);
    CHECK_INT(latest, 11);
    ckpt_close(c);
    c = open_ok(dir); /* reopening removes temporary files */
    CHECK(!sl_fs_exists(subpath(dir, "offsets/.12.0badcafe.tmp")));
    CHECK(sl_fs_exists(subpath(dir, "offsets/.11.crc")));
    ckpt_close(c);
    rm_tmp();
}

TEST(commits_bytes_and_lenient_reader)
{
    char *dir = tmpdir();
    ckpt_t *c = open_ok(dir);
    sl_error_t err;
    write_commit(c, 1, 0);
    CHECK_STR(slurp(subpath(dir, "commits/1")), SPARK_COMMIT);
    write_commit(c, 2, 1645693862625LL);
    CHECK_STR(slurp(subpath(dir, "commits/2")), "v1\n{\"nextBatchWatermarkMs\":1645693862625}");
    int64_t wm = -1;
    CHECK_INT(ckpt_commit_read(c, 2, &wm, &err), 1);
    CHECK_INT(wm, 1645693862625LL);
    const char *lenient[] = {"v1\n{}", "v1", "v1\n", "v1\n{\"nextBatchWatermarkMs\":0,\"x\":[1]}"};
    for (int i = 0; i < 4; i++) {
        put_file(subpath(dir, "commits/7"), lenient[i]);
        wm = -1;
        CHECK_INT(ckpt_commit_read(c, 7, &wm, &err), 1);
        CHECK_INT(wm, 0);
    }
    CHECK_INT(ckpt_commit_read(c, 8, &wm, &err), 0);
    int64_t latest;
    CHECK_INT(ckpt_commit_latest(c, &latest, &err), 1);
    CHECK_INT(latest, 7);
    CHECK_INT(ckpt_commits_purge(c, 7, &err), 0);
    CHECK(!sl_fs_exists(subpath(dir, "commits/1")) && !sl_fs_exists(subpath(dir, "commits/2")));
    ckpt_close(c);
    rm_tmp();
}

TEST(version_line_validation)
{
    char *dir = tmpdir();
    ckpt_t *c = open_ok(dir);
    sl_arena_t *a = sl_arena_new("test");
    sl_error_t err;
    ckpt_offsets_t o;
    int64_t wm;
    put_file(subpath(dir, "offsets/0"), "v2\n{}\n1");
    CHECK_INT(ckpt_offsets_read(c, 0, a, &o, &err), -1);
    CHECK(strstr(err.message, "offsets/0") != NULL);
    CHECK(strstr(err.message, "newer version of sluice") != NULL);
    CHECK(strstr(err.detail, "v2") != NULL);
    put_file(subpath(dir, "commits/0"), "v3\n{}");
    CHECK_INT(ckpt_commit_read(c, 0, &wm, &err), -1);
    CHECK(strstr(err.message, "commits/0") && strstr(err.message, "newer version"));
    const char *bad[] = {"", "x1\n{}", "v\n{}", "v0\n{}", "1\n{}", "v1x\n{}"};
    for (int i = 0; i < 6; i++) {
        put_file(subpath(dir, "offsets/1"), bad[i]);
        CHECK_INT(ckpt_offsets_read(c, 1, a, &o, &err), -1);
        CHECK(strstr(err.message, "malformed") != NULL);
    }
    put_file(subpath(dir, "offsets/2"), "v1\n{\"batchWatermarkMs\":\"x\"}\n1");
    CHECK_INT(ckpt_offsets_read(c, 2, a, &o, &err), -1);
    CHECK(strstr(err.message, "batchWatermarkMs") != NULL);
    put_file(subpath(dir, "offsets/3"), "v1\n{not json\n1");
    CHECK_INT(ckpt_offsets_read(c, 3, a, &o, &err), -1);
    CHECK(strstr(err.message, "malformed") != NULL);
    CHECK_INT(ckpt_check_version("v7\nxyz", 6, 9, "f", &err), 7);
    sl_arena_free(a);
    ckpt_close(c);
    rm_tmp();
}

/* ---- restart decisions (reference §3.6) ---- */

static ckpt_recovery_t recover_ok(ckpt_t *c, sl_arena_t *a)
{
    ckpt_recovery_t r;
    sl_error_t err;
    if (ckpt_recover(c, a, &r, &err) < 0)
        unit_fail(__FILE__, __LINE__, "recover: %s (%s)", err.message, err.detail);
    return r;
}

TEST(recover_new_query)
{
    ckpt_t *c = open_ok(tmpdir());
    sl_arena_t *a = sl_arena_new("test");
    ckpt_recovery_t r = recover_ok(c, a);
    CHECK_INT(r.next_batch, 0);
    CHECK_INT(r.rerun, 0);
    CHECK_INT(r.has_start, 0);
    CHECK_INT(r.latest_offsets, -1);
    CHECK_INT(r.latest_commit, -1);
    CHECK_INT(r.meta.watermark_ms, 0);
    CHECK_INT(r.meta.nconf, 0);
    sl_arena_free(a);
    ckpt_close(c);
    rm_tmp();
}

TEST(recover_first_batch_not_committed)
{
    ckpt_t *c = open_ok(tmpdir());
    sl_arena_t *a = sl_arena_new("test");
    write_offsets(c, 0, 0, "{\"t\":{\"0\":5}}");
    ckpt_recovery_t r = recover_ok(c, a);
    CHECK_INT(r.next_batch, 0);
    CHECK_INT(r.rerun, 1);
    CHECK_INT(r.has_start, 0); /* sources begin at their starting offsets */
    CHECK_STR(r.end.sources[0], "{\"t\":{\"0\":5}}");
    CHECK_INT(r.meta.timestamp_ms, 1000);
    CHECK_STR(ckpt_conf_get(&r.meta, CKPT_CONF_STATE_STORE), "memory");
    sl_arena_free(a);
    ckpt_close(c);
    rm_tmp();
}

TEST(recover_last_batch_committed)
{
    ckpt_t *c = open_ok(tmpdir());
    sl_arena_t *a = sl_arena_new("test");
    for (int b = 0; b <= 3; b++) {
        char src[16];
        snprintf(src, sizeof src, "%d", b * 10);
        write_offsets(c, b, 100 * b, src);
        write_commit(c, b, 100 * b + 50);
    }
    ckpt_recovery_t r = recover_ok(c, a);
    CHECK_INT(r.latest_offsets, 3);
    CHECK_INT(r.latest_commit, 3);
    CHECK_INT(r.next_batch, 4);
    CHECK_INT(r.rerun, 0);
    CHECK_INT(r.has_start, 1);
    CHECK_STR(r.start.sources[0], "30");
    CHECK_INT(r.meta.watermark_ms, 350); /* max(300, commits/3 next = 350) */
    CHECK_INT(r.meta.timestamp_ms, 1003);
    CHECK_INT(r.meta.nconf, 3);
    sl_arena_free(a);
    ckpt_close(c);
    rm_tmp();
}

TEST(recover_commit_watermark_lower_than_batch_watermark)
{
    ckpt_t *c = open_ok(tmpdir());
    sl_arena_t *a = sl_arena_new("test");
    write_offsets(c, 0, 900, "1");
    write_commit(c, 0, 0); /* e.g. an old {} commit file */
    ckpt_recovery_t r = recover_ok(c, a);
    CHECK_INT(r.next_batch, 1);
    CHECK_INT(r.meta.watermark_ms, 900);
    sl_arena_free(a);
    ckpt_close(c);
    rm_tmp();
}

TEST(recover_rerun_uncommitted_batch)
{
    ckpt_t *c = open_ok(tmpdir());
    sl_arena_t *a = sl_arena_new("test");
    for (int b = 0; b <= 2; b++) {
        write_offsets(c, b, 100 * b, b == 2 ? "25" : b == 1 ? "20" : "10");
        write_commit(c, b, 100 * b + 50);
    }
    write_offsets(c, 3, 250, "31");
    ckpt_recovery_t r = recover_ok(c, a);
    CHECK_INT(r.latest_offsets, 3);
    CHECK_INT(r.latest_commit, 2);
    CHECK_INT(r.next_batch, 3);
    CHECK_INT(r.rerun, 1);
    CHECK_INT(r.has_start, 1);
    CHECK_STR(r.start.sources[0], "25"); /* offsets/2 */
    CHECK_STR(r.end.sources[0], "31");   /* offsets/3, exactly */
    CHECK_INT(r.meta.watermark_ms, 250); /* the logged one, not commits/2's */
    CHECK_INT(r.meta.timestamp_ms, 1003);
    sl_arena_free(a);
    ckpt_close(c);
    rm_tmp();
}

TEST(recover_commit_log_lagging_by_more_than_one)
{
    ckpt_t *c = open_ok(tmpdir());
    sl_arena_t *a = sl_arena_new("test");
    for (int b = 0; b <= 5; b++) write_offsets(c, b, 0, "1");
    write_commit(c, 0, 0);
    write_commit(c, 1, 0);
    ckpt_recovery_t r = recover_ok(c, a); /* logs a warning */
    CHECK_INT(r.next_batch, 5);
    CHECK_INT(r.rerun, 1);
    CHECK_INT(r.latest_commit, 1);
    sl_arena_free(a);
    ckpt_close(c);
    rm_tmp();
}

TEST(recover_no_commit_log_reruns_latest)
{
    ckpt_t *c = open_ok(tmpdir());
    sl_arena_t *a = sl_arena_new("test");
    write_offsets(c, 0, 0, "1");
    write_offsets(c, 1, 0, "2");
    ckpt_recovery_t r = recover_ok(c, a);
    CHECK_INT(r.next_batch, 1);
    CHECK_INT(r.rerun, 1);
    CHECK_STR(r.start.sources[0], "1");
    sl_arena_free(a);
    ckpt_close(c);
    rm_tmp();
}

TEST(recover_refuses_inconsistent_checkpoints)
{
    sl_arena_t *a = sl_arena_new("test");
    ckpt_recovery_t r;
    sl_error_t err;
    /* previous offsets missing */
    ckpt_t *c = open_ok(tmpdir());
    write_offsets(c, 4, 0, "1");
    CHECK_INT(ckpt_recover(c, a, &r, &err), -1);
    CHECK(strstr(err.message, "inconsistent") && strstr(err.detail, "batch 3"));
    ckpt_close(c);
    /* a commit newer than every offsets file */
    c = open_ok(tmpdir());
    write_offsets(c, 0, 0, "1");
    write_commit(c, 0, 0);
    write_commit(c, 1, 0);
    CHECK_INT(ckpt_recover(c, a, &r, &err), -1);
    CHECK(strstr(err.detail, "commits/1") != NULL);
    ckpt_close(c);
    /* commits without offsets */
    c = open_ok(tmpdir());
    write_commit(c, 0, 0);
    CHECK_INT(ckpt_recover(c, a, &r, &err), -1);
    CHECK_STR(err.sqlstate, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE);
    ckpt_close(c);
    sl_arena_free(a);
    rm_tmp();
}

/* ---- crashes during writes ---- */

/* Runs `fn` in a child armed with failpoint `spec` (through SLUICE_FAILPOINT
 * when `use_env`: only valid while this process has not reached any
 * failpoint yet, as the variable is read once per process); returns the
 * child's exit code. */
static int run_child(const char *spec, void (*fn)(const char *), const char *dir, int use_env)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        if (use_env) setenv("SLUICE_FAILPOINT", spec, 1);
        else if (failpoint_set(spec) < 0) _exit(3);
        fn(dir);
        _exit(0);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int count_temps(const char *dir)
{
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        if (de->d_name[0] == '.' && strstr(de->d_name, ".tmp")) n++;
    closedir(d);
    return n;
}

static void child_write_batch5(const char *dir)
{
    ckpt_t *c = open_ok(dir);
    write_offsets(c, 5, 0, "{\"t\":{\"0\":55}}");
    write_commit(c, 5, 42);
    ckpt_close(c);
}

static void prepare_four_batches(const char *dir)
{
    ckpt_t *c = open_ok(dir);
    for (int b = 0; b <= 4; b++) {
        write_offsets(c, b, 0, "1");
        write_commit(c, b, 0);
    }
    ckpt_close(c);
}

TEST(crash_before_offsets_rename_leaves_nothing_visible)
{
    char *dir = tmpdir();
    prepare_four_batches(dir);
    CHECK_INT(run_child("offsets.before_rename", child_write_batch5, dir, 0), FAILPOINT_EXIT_CODE);
    CHECK(!sl_fs_exists(subpath(dir, "offsets/5")));
    CHECK_INT(count_temps(subpath(dir, "offsets")), 1); /* the write was under way */
    sl_arena_t *a = sl_arena_new("test");
    ckpt_t *c = open_ok(dir);
    ckpt_recovery_t r = recover_ok(c, a);
    CHECK_INT(r.next_batch, 5); /* batch 4 committed: a fresh batch 5 */
    CHECK_INT(r.rerun, 0);
    ckpt_close(c);
    sl_arena_free(a);
    rm_tmp();
}

TEST(crash_after_offsets_rename_reruns_the_batch)
{
    char *dir = tmpdir();
    prepare_four_batches(dir);
    CHECK_INT(run_child("offsets.after_rename", child_write_batch5, dir, 0), FAILPOINT_EXIT_CODE);
    CHECK(sl_fs_exists(subpath(dir, "offsets/5")));
    CHECK(!sl_fs_exists(subpath(dir, "commits/5")));
    sl_arena_t *a = sl_arena_new("test");
    ckpt_t *c = open_ok(dir);
    ckpt_recovery_t r = recover_ok(c, a);
    CHECK_INT(r.next_batch, 5);
    CHECK_INT(r.rerun, 1);
    CHECK_STR(r.end.sources[0], "{\"t\":{\"0\":55}}"); /* complete file */
    ckpt_close(c);
    sl_arena_free(a);
    rm_tmp();
}

TEST(crash_around_commit_rename)
{
    char *dir = tmpdir();
    prepare_four_batches(dir);
    CHECK_INT(run_child("commits.before_rename", child_write_batch5, dir, 0), FAILPOINT_EXIT_CODE);
    CHECK(sl_fs_exists(subpath(dir, "offsets/5")));
    CHECK(!sl_fs_exists(subpath(dir, "commits/5")));
    char *dir2 = tmpdir();
    prepare_four_batches(dir2);
    CHECK_INT(run_child("commits.after_rename", child_write_batch5, dir2, 0), FAILPOINT_EXIT_CODE);
    CHECK_STR(slurp(subpath(dir2, "commits/5")), "v1\n{\"nextBatchWatermarkMs\":42}");
    sl_arena_t *a = sl_arena_new("test");
    ckpt_t *c = open_ok(dir2);
    ckpt_recovery_t r = recover_ok(c, a);
    CHECK_INT(r.next_batch, 6);
    CHECK_INT(r.meta.watermark_ms, 42);
    ckpt_close(c);
    sl_arena_free(a);
    rm_tmp();
}

static void child_write_three_commits(const char *dir)
{
    ckpt_t *c = open_ok(dir);
    for (int b = 0; b < 3; b++) {
        write_offsets(c, b, 0, "1");
        write_commit(c, b, 0);
    }
    ckpt_close(c);
}

/* commits/N in two steps: staged is invisible (and 55000 when it exists),
 * published is the file; a dropped stage leaves nothing; a leftover
 * temporary file is gone at the next open. */
TEST(commit_stage_then_publish)
{
    char *dir = tmpdir();
    ckpt_t *c = open_ok(dir);
    sl_error_t err;
    ckpt_staged_t *st;
    CHECK_INT(ckpt_commit_stage(c, 4, 77, &st, &err), 0);
    CHECK(!sl_fs_exists(subpath(dir, "commits/4")));
    CHECK_INT(count_temps(subpath(dir, "commits")), 1);
    int64_t latest;
    CHECK_INT(ckpt_commit_latest(c, &latest, &err), 0);
    CHECK_INT(ckpt_commit_publish(st, &err), 0);
    CHECK_STR(slurp(subpath(dir, "commits/4")), "v1\n{\"nextBatchWatermarkMs\":77}");
    CHECK_INT(count_temps(subpath(dir, "commits")), 0);
    CHECK_INT(ckpt_commit_stage(c, 4, 1, &st, &err), -1);
    CHECK_STR(err.sqlstate, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE);
    CHECK_INT(ckpt_commit_stage(c, 5, 1, &st, &err), 0);
    ckpt_staged_drop(st);
    ckpt_staged_drop(NULL);
    CHECK(!sl_fs_exists(subpath(dir, "commits/5")));
    CHECK_INT(count_temps(subpath(dir, "commits")), 0);
    /* a crash between stage and publish: the next open removes the temp */
    CHECK_INT(ckpt_commit_stage(c, 5, 1, &st, &err), 0);
    ckpt_close(c);
    c = open_ok(dir);
    CHECK_INT(count_temps(subpath(dir, "commits")), 0);
    CHECK_INT(ckpt_commit_latest(c, &latest, &err), 1);
    CHECK_INT(latest, 4);
    ckpt_staged_drop(st); /* the temporary file is gone already */
    ckpt_close(c);
    rm_tmp();
}

TEST(failpoint_count_and_env_spec)
{
    char *dir = tmpdir();
    CHECK_INT(
        run_child("state.after_commit,commits.after_rename:2", child_write_three_commits, dir, 1),
        FAILPOINT_EXIT_CODE);
    CHECK(sl_fs_exists(subpath(dir, "commits/1")));
    CHECK(!sl_fs_exists(subpath(dir, "offsets/2")));
    /* malformed specs are refused; clear disarms */
    CHECK_INT(failpoint_set("a:0"), -1);
    CHECK_INT(failpoint_set("a:x"), -1);
    CHECK_INT(failpoint_set(":3"), -1);
    CHECK_INT(failpoint_set("a=kill"), -1);
    CHECK_INT(failpoint_set("a:=segv"), -1);
    CHECK_INT(failpoint_set("a=segvx"), -1);
    CHECK_INT(failpoint_set("a=segv,b:2=segv"), 0); /* the kind that raises SIGSEGV */
    CHECK_INT(failpoint_set("x.y:3"), 0);
    failpoint_hit("x.y");
    failpoint_hit("x.y");
    CHECK_INT(failpoint_hits("x.y"), 2);
    failpoint_clear();
    failpoint_hit("x.y");
    CHECK_INT(failpoint_hits("x.y"), 0);
    rm_tmp();
}

/* The number of entries of `dir` (temporary files included). */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *de;
    while (d && (de = readdir(d))) n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
    if (d) closedir(d);
    return n;
}

TEST(failpoint_error_kinds)
{
    char *dir = tmpdir(), *sub = subpath(dir, "commits");
    sl_error_t err;
    CHECK_INT(sl_fs_mkdirs(sub, SL_PRIVATE_DIR_MODE, &err), 0);
    /* a failed fsync: the call fails with the cause, nothing is published,
     * the temporary file is gone (never fsynced again) */
    CHECK_INT(failpoint_set("fs.fsync=eio@/commits/"), 0);
    CHECK_INT(sl_fs_write_file(dir, "metadata", "{}", 2, 0, NULL, NULL, &err), 0); /* no match */
    CHECK_INT(sl_fs_write_file(sub, "0", "v1", 2, 0, NULL, NULL, &err), -1);
    CHECK(strstr(err.message, "could not fsync file") && strstr(err.message, "/commits/.0.") &&
          strstr(err.message, ": Input/output error"));
    CHECK_INT(count_entries(sub), 0);
    CHECK_INT(sl_fs_write_file(sub, "0", "v1", 2, 0, NULL, NULL, &err), -1); /* it persists */
    CHECK_INT(failpoint_hits("fs.fsync"), 2);
    /* :count is the first hit that fails; a failed rename leaves no file */
    CHECK_INT(failpoint_set("fs.rename:2=enospc"), 0);
    CHECK_INT(sl_fs_write_file(sub, "0", "v1", 2, 0, NULL, NULL, &err), 0);
    CHECK_INT(sl_fs_write_file(sub, "1", "v1", 2, 0, NULL, NULL, &err), -1);
    CHECK(strstr(err.message, "could not rename file") && strstr(err.message, "No space left"));
    CHECK_INT(count_entries(sub), 1);
    /* the guarded call's errno, and only at failpoint_io() */
    CHECK_INT(failpoint_set("x.w=enospc"), 0);
    failpoint_hit("x.w");
    errno = 0;
    CHECK_INT(failpoint_io("x.w", NULL), ENOSPC);
    CHECK_INT(errno, ENOSPC);
    CHECK_INT(failpoint_io("x.other", "/p"), 0);
    CHECK_INT(failpoint_set("a=eiox"), -1);
    CHECK_INT(failpoint_set("a@"), -1);
    CHECK_INT(failpoint_set("a=eio@"), -1);
    CHECK_INT(failpoint_set("@/x/"), -1);
    failpoint_clear();
    CHECK_INT(failpoint_io("x.w", NULL), 0);
    rm_tmp();
}
