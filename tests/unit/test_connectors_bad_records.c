/* Unit tests of the bad-records file (connectors/format_bad.c): rotation by
 * size with exact file names, sizes and contents, the oldest files deleted;
 * the size of an existing file read on open (restarts); lowered limits; no
 * old files kept (badRecordsMaxFiles 0); a record longer than the limit; a
 * failed rotation that writes nothing and succeeds once retried; the
 * progress figures; and the parsing of badRecordsMaxBytes and
 * badRecordsMaxFiles. */
#include "test_connectors_util.h"

#include <dirent.h>

#include "connectors/format.h"

#define NAME "q-source0.json"
/* Every record of these tests is one line of exactly LINE bytes. */
#define LINE 100

/* Writes the record with line number 1000000 + i, a line of LINE bytes:
 * {"path":"/in/f","line":1000007,"record":"xx…","reason":"bad"}\n */
static int put(format_bad_records_t *b, int i, sl_error_t *err)
{
    static const char rec[] = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"; /* 41 bytes */
    format_pos_t pos = {"file", "/in/f", "line", 1000000 + i};
    return format_bad_records_write(b, &pos, rec, sizeof rec - 1, "bad", err);
}

static void put_range(format_bad_records_t *b, int from, int to)
{
    sl_error_t err;
    for (int i = from; i <= to; i++)
        if (put(b, i, &err) < 0) unit_fail(__FILE__, __LINE__, "write %d: %s", i, err.message);
}

/* The names in `dir`, sorted, joined by spaces. */
static char *names(sl_arena_t *a, const char *dir)
{
    struct dirent **list;
    int n = scandir(dir, &list, NULL, alphasort);
    CHECK(n >= 0);
    sl_buf_t b = SL_BUF_INIT;
    for (int i = 0; i < n; i++) {
        if (list[i]->d_name[0] != '.') sl_buf_printf(&b, "%s%s", b.len ? " " : "", list[i]->d_name);
        free(list[i]);
    }
    free(list);
    char *s = sl_strdup(a, b.data ? b.data : "");
    sl_buf_free(&b);
    return s;
}

/* The line numbers (minus 1000000) of the records of `dir`/`file`, as
 * "first..last" when they are consecutive, and checks every line is LINE
 * bytes; "" for an empty file, NULL when it is missing. */
static char *span(sl_arena_t *a, const char *dir, const char *file)
{
    char *text = tc_read(a, sl_printf(a, "%s/%s", dir, file));
    if (!text) return NULL;
    size_t len = strlen(text);
    CHECK(len % LINE == 0);
    long first = -1, last = -1;
    for (size_t off = 0; off < len; off += LINE) {
        CHECK(text[off + LINE - 1] == '\n');
        long at = strtol(text + off + strlen("{\"path\":\"/in/f\",\"line\":"), NULL, 10) - 1000000;
        CHECK(first < 0 || at == last + 1);
        if (first < 0) first = at;
        last = at;
    }
    return first < 0 ? "" : sl_printf(a, "%ld..%ld", first, last);
}

static char *metrics(sl_arena_t *a, format_bad_records_t *b)
{
    sl_buf_t m = SL_BUF_INIT;
    format_bad_records_metrics(b, &m);
    char *s = sl_strdup(a, m.data ? m.data : "");
    sl_buf_free(&m);
    return s;
}

TEST(rotates_by_size_and_keeps_max_files)
{
    sl_arena_t *a = sl_arena_new("t");
    char *root = tc_tmpdir(a), *dir = sl_printf(a, "%s/bad", root); /* made at the first record */
    /* ten records per file: the 11th would take it past 1000 bytes */
    format_bad_records_t *b = format_bad_records_open(dir, NAME, 10 * LINE, 3);
    CHECK_STR(metrics(a, b), "");
    put_range(b, 1, 1);
    CHECK_STR(tc_read(a, sl_printf(a, "%s/" NAME, dir)),
              "{\"path\":\"/in/f\",\"line\":1000001,\"record\":"
              "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\",\"reason\":\"bad\"}\n");
    put_range(b, 2, 10);
    CHECK_STR(names(a, dir), NAME); /* exactly full: not rotated yet */
    CHECK_STR(span(a, dir, NAME), "1..10");
    put_range(b, 11, 11);
    CHECK_STR(names(a, dir), NAME " " NAME ".1");
    CHECK_STR(span(a, dir, NAME ".1"), "1..10");
    CHECK_STR(span(a, dir, NAME), "11..11");
    /* 95 records: 9 rotations; the files keep 61..95, 1..60 are deleted */
    put_range(b, 12, 95);
    CHECK_STR(names(a, dir), NAME " " NAME ".1 " NAME ".2 " NAME ".3");
    CHECK_STR(span(a, dir, NAME), "91..95");
    CHECK_STR(span(a, dir, NAME ".1"), "81..90");
    CHECK_STR(span(a, dir, NAME ".2"), "71..80");
    CHECK_STR(span(a, dir, NAME ".3"), "61..70");
    CHECK_STR(metrics(a, b),
              "\"badRecordsBytesWritten\":\"9500\",\"badRecordsFilesRotated\":\"9\"");
    format_bad_records_close(b);
    tc_rmtree(root);
    sl_arena_free(a);
}

TEST(an_existing_file_counts_after_a_restart)
{
    sl_arena_t *a = sl_arena_new("t");
    char *dir = tc_tmpdir(a);
    format_bad_records_t *b = format_bad_records_open(dir, NAME, 10 * LINE, 2);
    put_range(b, 1, 7);
    format_bad_records_close(b);
    /* a new process appends to the 700 bytes there and rotates at the 11th record */
    b = format_bad_records_open(dir, NAME, 10 * LINE, 2);
    put_range(b, 8, 10);
    CHECK_STR(names(a, dir), NAME);
    put_range(b, 11, 11);
    CHECK_STR(span(a, dir, NAME ".1"), "1..10");
    CHECK_STR(span(a, dir, NAME), "11..11");
    CHECK_STR(metrics(a, b), "\"badRecordsBytesWritten\":\"400\",\"badRecordsFilesRotated\":\"1\"");
    format_bad_records_close(b);
    /* lower limits apply at once: 100 bytes, one old file (1..10 goes) */
    b = format_bad_records_open(dir, NAME, 1 * LINE, 1);
    put_range(b, 12, 12);
    CHECK_STR(names(a, dir), NAME " " NAME ".1");
    CHECK_STR(span(a, dir, NAME ".1"), "11..11");
    CHECK_STR(span(a, dir, NAME), "12..12");
    format_bad_records_close(b);
    tc_rmtree(dir);
    sl_arena_free(a);
}

TEST(fewer_files_kept_deletes_the_higher_numbers)
{
    sl_arena_t *a = sl_arena_new("t");
    char *dir = tc_tmpdir(a);
    format_bad_records_t *b = format_bad_records_open(dir, NAME, 2 * LINE, 5);
    put_range(b, 1, 12);
    CHECK_STR(names(a, dir), NAME " " NAME ".1 " NAME ".2 " NAME ".3 " NAME ".4 " NAME ".5");
    format_bad_records_close(b);
    b = format_bad_records_open(dir, NAME, 2 * LINE, 2);
    put_range(b, 13, 13);
    CHECK_STR(names(a, dir), NAME " " NAME ".1 " NAME ".2");
    CHECK_STR(span(a, dir, NAME), "13..13");
    CHECK_STR(span(a, dir, NAME ".1"), "11..12");
    CHECK_STR(span(a, dir, NAME ".2"), "9..10");
    format_bad_records_close(b);
    tc_rmtree(dir);
    sl_arena_free(a);
}

TEST(no_old_files_kept)
{
    sl_arena_t *a = sl_arena_new("t");
    char *dir = tc_tmpdir(a);
    format_bad_records_t *b = format_bad_records_open(dir, NAME, 3 * LINE, 0);
    put_range(b, 1, 7);
    CHECK_STR(names(a, dir), NAME);
    CHECK_STR(span(a, dir, NAME), "7..7");
    CHECK_STR(metrics(a, b), "\"badRecordsBytesWritten\":\"700\",\"badRecordsFilesRotated\":\"2\"");
    format_bad_records_close(b);
    tc_rmtree(dir);
    sl_arena_free(a);
}

TEST(a_record_longer_than_the_limit_is_written_whole)
{
    sl_arena_t *a = sl_arena_new("t");
    char *dir = tc_tmpdir(a);
    format_bad_records_t *b = format_bad_records_open(dir, NAME, LINE / 2, 2);
    put_range(b, 1, 3);
    CHECK_STR(names(a, dir), NAME " " NAME ".1 " NAME ".2");
    CHECK_STR(span(a, dir, NAME), "3..3");
    CHECK_STR(span(a, dir, NAME ".1"), "2..2");
    CHECK_STR(span(a, dir, NAME ".2"), "1..1");
    format_bad_records_close(b);
    tc_rmtree(dir);
    sl_arena_free(a);
}

TEST(a_failed_rotation_writes_nothing_and_is_retried)
{
    sl_arena_t *a = sl_arena_new("t");
    char *dir = tc_tmpdir(a);
    format_bad_records_t *b = format_bad_records_open(dir, NAME, 10 * LINE, 1);
    put_range(b, 1, 10);
    /* a directory where the oldest file goes cannot be deleted */
    char *blocker = sl_printf(a, "%s/" NAME ".1", dir);
    CHECK(mkdir(blocker, 0755) == 0);
    sl_error_t err;
    CHECK(put(b, 11, &err) < 0);
    CHECK_STR(err.sqlstate, "58030");
    CHECK_STR(err.message,
              sl_printf(a, "could not rotate bad records file \"%s\": Is a directory", blocker));
    CHECK_STR(span(a, dir, NAME), "1..10");
    CHECK_STR(metrics(a, b),
              "\"badRecordsBytesWritten\":\"1000\",\"badRecordsFilesRotated\":\"0\"");
    /* the record written again (the batch read again) once the cause is gone */
    CHECK(rmdir(blocker) == 0);
    put_range(b, 11, 11);
    CHECK_STR(names(a, dir), NAME " " NAME ".1");
    CHECK_STR(span(a, dir, NAME ".1"), "1..10");
    CHECK_STR(span(a, dir, NAME), "11..11");
    format_bad_records_close(b);
    tc_rmtree(dir);
    sl_arena_free(a);
}

/* Parses the file source options key, value, ..., NULL into `o`; returns
 * the result and leaves the error in `err`. */
static int parse(sl_arena_t *a, format_options_t *o, sl_error_t *err, ...)
{
    va_list ap;
    va_start(ap, err);
    conn_stream_t *rel = tc_rel_v(a, "file", CONN_SOURCE, "a INT", ap);
    va_end(ap);
    return format_options_parse(rel->connector, rel->opts, rel->nopts, NULL, o, err);
}

TEST(max_bytes_and_max_files_options)
{
    sl_arena_t *a = sl_arena_new("t");
    format_options_t o;
    sl_error_t err;
    CHECK(parse(a, &o, &err, NULL) == 0);
    CHECK_INT(o.bad_records_max_bytes, 64 << 20);
    CHECK_INT(o.bad_records_max_files, 10);
    static const struct {
        const char *text;
        long long bytes;
    } sizes[] = {
        {"100", 100},      {"100b", 100},     {"512k", 512 << 10}, {"2KB", 2 << 10},
        {" 3m ", 3 << 20}, {"1g", 1LL << 30}, {"1Gb", 1LL << 30},  {"2t", 2LL << 40},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        CHECK(parse(a, &o, &err, "badRecordsMaxBytes", sizes[i].text, NULL) == 0);
        CHECK_INT(o.bad_records_max_bytes, sizes[i].bytes);
    }
    static const char *const bad_sizes[] = {"0",    "0k",  "",    "m",     "-1",
                                            "1.5m", "10x", "1bb", "1 m b", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
        CHECK(parse(a, &o, &err, "badRecordsMaxBytes", bad_sizes[i], NULL) < 0);
        CHECK_STR(err.sqlstate, "22023");
        CHECK_STR(
            err.message,
            sl_printf(a, "invalid value \"%s\" for option \"badRecordsMaxBytes\"", bad_sizes[i]));
        CHECK_STR(err.hint, "It must be a positive size such as 64m, 512k or 1g (units b, k, m, "
                            "g, t; a bare number is bytes).");
    }
    CHECK(parse(a, &o, &err, "badRecordsMaxFiles", "0", NULL) == 0);
    CHECK_INT(o.bad_records_max_files, 0);
    CHECK(parse(a, &o, &err, "badrecordsmaxfiles", "1000", NULL) == 0);
    CHECK_INT(o.bad_records_max_files, 1000);
    CHECK(parse(a, &o, &err, "badRecordsMaxFiles", "1001", NULL) < 0);
    CHECK_STR(err.message, "invalid value \"1001\" for option \"badRecordsMaxFiles\"");
    CHECK_STR(err.hint, "It must be an integer from 0 to 1000.");
    CHECK(parse(a, &o, &err, "badRecordsMaxFiles", "-1", NULL) < 0);
    CHECK_STR(err.message, "invalid value \"-1\" for option \"badRecordsMaxFiles\"");
    sl_arena_free(a);
}
