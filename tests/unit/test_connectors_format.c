/* Unit tests of the record formats (connectors/format.h): JSON lines and
 * CSV decoding of every type with NULLs, quoting, embedded newlines and
 * headers; malformed records under PERMISSIVE, DROPMALFORMED and FAILFAST
 * with exact counts, the FAILFAST error text, the _corrupt_record column
 * and the bad-records file; batch sizes; the encoders and their round
 * trip; and the static-table reader, including a file sink's manifest. */
#include "test_connectors_util.h"

#include "connectors/format.h"

#define ALL_TYPES                                                                              \
    "b BOOLEAN, i INT, l BIGINT, d DOUBLE, m DECIMAL(10,2), s STRING, x BINARY, t TIMESTAMP, " \
    "dt DATE, iv INTERVAL, st STRUCT<a: INT, b: STRING>"

typedef struct reader_run {
    tc_rows_t rows;
    atomic_llong malformed, dropped;
    int rc;
    sl_error_t err;
} reader_run_t;

/* Reads `text` as the file "/in/f" of a file stream with `schema` and the
 * options given as key, value, ..., NULL (bad records to `bad_dir`). */
static void read_text(sl_arena_t *a, reader_run_t *run, const char *schema, const char *text,
                      const char *bad_dir, ...)
{
    va_list ap;
    va_start(ap, bad_dir);
    conn_stream_t *rel = tc_rel_v(a, "file", CONN_SOURCE, schema, ap);
    va_end(ap);
    rel->opts[rel->nopts++] = (conn_kv_t){"path", "/in"};
    format_options_t o;
    CHECK(format_options_parse(rel->connector, rel->opts, rel->nopts, NULL, &o, &run->err) == 0);
    const format_decoder_t *d =
        format_decoder_new(&o, rel->ncols, rel->col_names, rel->col_types, a, &run->err);
    CHECK(d != NULL);
    memset(&run->rows, 0, sizeof run->rows);
    run->rows.a = a;
    atomic_init(&run->malformed, 0);
    atomic_init(&run->dropped, 0);
    format_reader_t r;
    format_reader_init(&r, d, a, tc_emit, &run->rows);
    r.malformed = &run->malformed;
    r.dropped = &run->dropped;
    if (bad_dir) r.bad = format_bad_records_open(bad_dir, "bad.json", 1 << 20, 1);
    format_pos_t pos = {"file", "/in/f", "line", 0};
    run->rc = format_reader_text(&r, text, strlen(text), &pos, &run->err);
    if (run->rc == 0) run->rc = format_reader_flush(&r, &run->err);
    format_reader_done(&r);
    format_bad_records_close(r.bad);
}

#define READ(a, run, schema, text, ...) read_text(a, run, schema, text, NULL, __VA_ARGS__, NULL)

TEST(json_every_type)
{
    sl_arena_t *a = sl_arena_new("t");
    reader_run_t run;
    read_text(
        a, &run, ALL_TYPES,
        "{\"b\":true,\"i\":-7,\"l\":9007199254740993,\"d\":1.5,\"m\":12.345,\"s\":\"h\\u00e9 \\\"q\\\"\","
        "\"x\":\"AQI=\",\"t\":\"2024-05-01T12:00:00.5Z\",\"dt\":\"2024-05-01\",\"iv\":\"15 minutes\","
        "\"st\":{\"a\":7,\"b\":\"q\",\"zz\":1},\"extra\":[1,{\"y\":2}]}\n"
        "{\"b\":null,\"i\":null,\"s\":null,\"st\":null}\n"
        "{}\n"
        "{\"I\":5,\"S\":42,\"d\":\"NaN\",\"t\":1714564800,\"m\":-0.001}\n"
        "{\"s\":{\"k\":[1,2]},\"d\":1e300,\"st\":{}}\n",
        NULL, NULL);
    CHECK_INT(run.rc, 0);
    CHECK_INT(run.malformed, 0);
    CHECK_STR(
        tc_join(&run.rows),
        "t|-7|9007199254740993|1.5|12.35|h\xc3\xa9 \"q\"|\\x0102|2024-05-01 12:00:00.5|2024-05-01|"
        "00:15:00|{\"a\":7,\"b\":\"q\"}\n"
        "∅|∅|∅|∅|∅|∅|∅|∅|∅|∅|∅\n"
        "∅|∅|∅|∅|∅|∅|∅|∅|∅|∅|∅\n"
        "∅|5|∅|NaN|0.00|42|∅|2024-05-01 12:00:00|∅|∅|∅\n"
        "∅|∅|∅|1e+300|∅|{\"k\":[1,2]}|∅|∅|∅|∅|{\"a\":null,\"b\":null}");
    sl_arena_free(a);
}

TEST(json_malformed_records)
{
    static const char *const bad[] = {
        "{\"i\":1",           /* unterminated */
        "{\"i\":\"x\"}",      /* a string for INT */
        "{\"i\":3000000000}", /* out of range */
        "{\"i\":1.5}",        /* not integral */
        "[1,2]",              /* not an object */
        "5",
        "{\"i\":1} x",           /* text after the object */
        "{\"t\":\"yesterday\"}", /* not a timestamp */
        "{\"b\":1}",             /* a number for BOOLEAN */
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        sl_arena_t *a = sl_arena_new("t");
        reader_run_t run;
        READ(a, &run, "i INT, t TIMESTAMP, b BOOLEAN", bad[k], "mode", "DROPMALFORMED");
        CHECK_INT(run.rc, 0);
        if (run.malformed != 1) unit_fail(__FILE__, __LINE__, "not malformed: %s", bad[k]);
        CHECK_INT(run.rows.n, 0);
        sl_arena_free(a);
    }
}

TEST(csv_types_quotes_and_newlines)
{
    sl_arena_t *a = sl_arena_new("t");
    reader_run_t run;
    read_text(
        a, &run, ALL_TYPES,
        "b,i,l,d,m,s,x,t,dt,iv,st\r\n"
        "true,1,2,2.5,3.456,plain,\\x41,2024-05-01 12:00:00,2024-05-01,1 hour,\"{\"\"a\"\":1}\"\r\n"
        "false,,,,,\"a,b\",,,,,\n"
        "f,3,,,,\"say \"\"hi\"\"\"\n"
        "\n"
        "t,4,,,,\"two\nlines\",,,,,,extra,fields\n"
        ",,,,,\"\",,,,,\n"
        ",,,,,,\"\",,,,\n",
        NULL, "format", "csv", "header", "true", NULL);
    CHECK_INT(run.rc, 0);
    CHECK_INT(run.malformed, 0);
    CHECK_STR(
        tc_join(&run.rows),
        "t|1|2|2.5|3.46|plain|\\x41|2024-05-01 12:00:00|2024-05-01|01:00:00|{\"a\":1,\"b\":null}\n"
        "f|∅|∅|∅|∅|a,b|∅|∅|∅|∅|∅\n"
        "f|3|∅|∅|∅|say \"hi\"|∅|∅|∅|∅|∅\n"
        "t|4|∅|∅|∅|two\nlines|∅|∅|∅|∅|∅\n"
        "∅|∅|∅|∅|∅||∅|∅|∅|∅|∅\n"
        "∅|∅|∅|∅|∅|∅|\\x|∅|∅|∅|∅");
    sl_arena_free(a);
}

TEST(byte_order_mark_is_skipped)
{
    sl_arena_t *a = sl_arena_new("t");
    reader_run_t run;
    READ(a, &run, "a STRING, b INT", "\xef\xbb\xbf{\"a\":\"x\",\"b\":1}\n", "format", "json");
    CHECK_INT(run.malformed, 0);
    CHECK_STR(tc_join(&run.rows), "x|1");
    READ(a, &run, "a STRING, b INT",
         "\xef\xbb\xbf"
         "a,b\ny,2\n",
         "format", "csv", "header", "true");
    CHECK_STR(tc_join(&run.rows), "y|2");
    sl_arena_free(a);
}

TEST(csv_separator_and_no_header)
{
    sl_arena_t *a = sl_arena_new("t");
    reader_run_t run;
    READ(a, &run, "a STRING, b INT", "x;1\n\"y;z\";2\nw\n", "format", "csv", "sep", ";");
    CHECK_INT(run.rc, 0);
    CHECK_STR(tc_join(&run.rows), "x|1\ny;z|2\nw|∅");
    READ(a, &run, "a STRING, b INT", "x\t1\n", "format", "csv", "sep", "\\t");
    CHECK_STR(tc_join(&run.rows), "x|1");
    sl_arena_free(a);
}

TEST(csv_malformed_records)
{
    static const char *const bad[] = {
        "\"open,1\n",      /* a quoted field never closed (runs to the end) */
        "\"a\"x,1\n",      /* text after a closing quote */
        "a,notanumber\n",  /* not an INT */
        "a,99999999999\n", /* out of range */
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        sl_arena_t *a = sl_arena_new("t");
        reader_run_t run;
        READ(a, &run, "a STRING, b INT", bad[k], "format", "csv", "mode", "DROPMALFORMED");
        CHECK_INT(run.rc, 0);
        if (run.malformed != 1) unit_fail(__FILE__, __LINE__, "not malformed: %s", bad[k]);
        CHECK_INT(run.dropped, 1);
        sl_arena_free(a);
    }
}

/* "a,b" then 100 rows "r<k>,<k>" (k from 1), where the row at line
 * `stray_line` (2..101) starts with a stray quote: '"r<k>,<k>' (in `a`). */
static const char *csv_with_stray_quote(sl_arena_t *a, int stray_line, const char *tail)
{
    sl_buf_t b = SL_BUF_INIT;
    sl_buf_puts(&b, "a,b\n");
    for (int k = 1; k <= 100; k++)
        sl_buf_printf(&b, "%sr%d,%d\n", k + 1 == stray_line ? "\"" : "", k, k);
    sl_buf_puts(&b, tail);
    const char *text = sl_strdup(a, b.data);
    sl_buf_free(&b);
    return text;
}

/* One stray quote damages its own line only: PERMISSIVE keeps the 99 rows
 * around it and the bad line as its corrupt record, DROPMALFORMED counts
 * exactly 1, FAILFAST names its line. A quoted field that really spans
 * lines (it closes before a separator or a line end) still does, after
 * the stray quote as before it. */
TEST(csv_stray_quote_damages_one_line)
{
    sl_arena_t *a = sl_arena_new("t");
    reader_run_t run;
    const char *tail = "\"two\nlines\",101\n";
    const char *text = csv_with_stray_quote(a, 4, tail);
    READ(a, &run, "a STRING, b INT, _corrupt_record STRING", text, "format", "csv", "header",
         "true", "mode", "PERMISSIVE");
    CHECK_INT(run.rc, 0);
    CHECK_INT(run.malformed, 1);
    CHECK_INT(run.rows.n, 101);
    const char *rows = tc_join(&run.rows);
    CHECK(strstr(rows, "r2|2|∅\n∅|∅|\"r3,3\nr4|4|∅\n") != NULL);
    CHECK(strstr(rows, "r100|100|∅\ntwo\nlines|101|∅") != NULL);
    READ(a, &run, "a STRING, b INT", text, "format", "csv", "header", "true", "mode",
         "DROPMALFORMED");
    CHECK_INT(run.malformed, 1);
    CHECK_INT(run.dropped, 1);
    CHECK_INT(run.rows.n, 100);
    READ(a, &run, "a STRING, b INT", text, "format", "csv", "header", "true", "mode", "FAILFAST");
    CHECK_INT(run.rc, -1);
    CHECK_STR(run.err.message, "malformed record in file \"/in/f\" at line 4");
    CHECK_STR(run.err.detail,
              "invalid input syntax for a CSV record: A quoted field is not closed.");
    /* a stray quote on the last line, and one whose line is followed by a
     * closing quote that does not end a field */
    READ(a, &run, "a STRING, b INT", csv_with_stray_quote(a, 101, ""), "format", "csv", "header",
         "true", "mode", "DROPMALFORMED");
    CHECK_INT(run.malformed, 1);
    CHECK_INT(run.rows.n, 99);
    READ(a, &run, "a STRING, b INT", "\"x,1\ny,2\nz\"w,3\nv,4\n", "format", "csv", "mode",
         "DROPMALFORMED");
    CHECK_INT(run.malformed, 1);
    CHECK_STR(tc_join(&run.rows), "y|2\nz\"w|3\nv|4");
    /* a field that does span lines (closed before the separator, or CRLF) */
    READ(a, &run, "a STRING, b INT", "\"x\ny\",1\r\n\"p\r\nq\"\r\nz,3\n", "format", "csv", "mode",
         "DROPMALFORMED");
    CHECK_INT(run.malformed, 0);
    CHECK_STR(tc_join(&run.rows), "x\ny|1\np\r\nq|∅\nz|3");
    sl_arena_free(a);
}

static const char MIXED_JSON[] = "{\"a\":1,\"b\":\"x\"}\n"
                                 "{\"a\":\"bad\"}\n"
                                 "\n"
                                 "{\"a\":3,\"b\":\"z\"}\n"
                                 "not json at all\n"
                                 "{\"a\":5}\n";

TEST(mode_permissive_with_corrupt_record)
{
    sl_arena_t *a = sl_arena_new("t");
    reader_run_t run;
    READ(a, &run, "a INT, b STRING, _corrupt_record STRING", MIXED_JSON, "mode", "PERMISSIVE");
    CHECK_INT(run.rc, 0);
    CHECK_INT(run.malformed, 2);
    CHECK_INT(run.dropped, 0);
    CHECK_STR(tc_join(&run.rows), "1|x|∅\n∅|∅|{\"a\":\"bad\"}\n3|z|∅\n∅|∅|not json at all\n5|∅|∅");
    /* without the column: rows of NULLs */
    read_text(a, &run, "a INT, b STRING", MIXED_JSON, NULL, NULL);
    CHECK_INT(run.malformed, 2);
    CHECK_STR(tc_join(&run.rows), "1|x\n∅|∅\n3|z\n∅|∅\n5|∅");
    sl_arena_free(a);
}

TEST(mode_dropmalformed_counts)
{
    sl_arena_t *a = sl_arena_new("t");
    reader_run_t run;
    READ(a, &run, "a INT, b STRING, _corrupt_record STRING", MIXED_JSON, "mode", "dropmalformed");
    CHECK_INT(run.rc, 0);
    CHECK_INT(run.malformed, 2);
    CHECK_INT(run.dropped, 2);
    CHECK_STR(tc_join(&run.rows), "1|x|∅\n3|z|∅\n5|∅|∅");
    sl_arena_free(a);
}

TEST(mode_failfast_names_file_and_line)
{
    sl_arena_t *a = sl_arena_new("t");
    reader_run_t run;
    READ(a, &run, "a INT, b STRING", MIXED_JSON, "mode", "FAILFAST");
    CHECK_INT(run.rc, -1);
    CHECK_STR(run.err.sqlstate, "22P02");
    CHECK_STR(run.err.message, "malformed record in file \"/in/f\" at line 2");
    CHECK(strstr(run.err.detail, "invalid input syntax for type json") != NULL);
    CHECK_INT(run.malformed, 1);
    /* CSV: the line of a record that follows a two-line record */
    READ(a, &run, "a STRING, b INT", "h,1\n\"x\ny\",2\nz,bad\n", "format", "csv", "mode",
         "FAILFAST");
    CHECK_INT(run.rc, -1);
    CHECK_STR(run.err.message, "malformed record in file \"/in/f\" at line 4");
    CHECK_STR(run.err.detail, "invalid input syntax for type integer: \"bad\"");
    sl_arena_free(a);
}

TEST(bad_records_file)
{
    sl_arena_t *a = sl_arena_new("t");
    char *dir = tc_tmpdir(a);
    char *bad = sl_printf(a, "%s/bad/nested", dir);
    reader_run_t run;
    read_text(a, &run, "a INT, b STRING", MIXED_JSON, bad, "mode", "DROPMALFORMED", NULL);
    CHECK_INT(run.rc, 0);
    CHECK_STR(tc_read(a, sl_printf(a, "%s/bad.json", bad)),
              "{\"path\":\"/in/f\",\"line\":2,\"record\":\"{\\\"a\\\":\\\"bad\\\"}\",\"reason\":"
              "\"invalid input syntax for type json: At byte 10: a string where the type does not "
              "take one.\"}\n"
              "{\"path\":\"/in/f\",\"line\":5,\"record\":\"not json at all\",\"reason\":\"invalid "
              "input syntax for type json: The record is not a JSON object.\"}\n");
    tc_rmtree(dir);
    sl_arena_free(a);
}

TEST(batches_of_at_most_4096_rows)
{
    sl_arena_t *a = sl_arena_new("t");
    sl_buf_t text = SL_BUF_INIT;
    for (int i = 0; i < 10000; i++) sl_buf_printf(&text, "%d\n", i);
    reader_run_t run;
    READ(a, &run, "v BIGINT", text.data, "format", "csv");
    CHECK_INT(run.rc, 0);
    CHECK_INT(run.rows.n, 10000);
    CHECK_INT(run.rows.batches, 3);
    CHECK_INT(run.rows.max_batch_rows, 4096);
    CHECK_STR(run.rows.rows[9999], "9999");
    sl_buf_free(&text);
    sl_arena_free(a);
}

/* Decodes `text` with `kind` into one batch over `rel`'s columns. */
static exec_batch_t *decode_one(sl_arena_t *a, conn_stream_t *rel, format_kind_t kind,
                                const char *text)
{
    format_options_t o = {.kind = kind, .sep = ','};
    sl_error_t err;
    const format_decoder_t *d =
        format_decoder_new(&o, rel->ncols, rel->col_names, rel->col_types, a, &err);
    CHECK(d != NULL);
    tc_rows_t rows = {.a = a};
    format_reader_t r;
    format_reader_init(&r, d, a, tc_emit, &rows);
    format_pos_t pos = {"file", "x", "line", 0};
    CHECK(format_reader_text(&r, text, strlen(text), &pos, &err) == 0);
    CHECK(r.building);
    exec_batch_t *b = exec_builder_finish(&r.bld);
    format_reader_done(&r);
    return b;
}

TEST(encoders_exact_bytes_and_round_trip)
{
    sl_arena_t *a = sl_arena_new("t");
    conn_stream_t *rel = tc_rel(a, "file", CONN_SOURCE, ALL_TYPES, "path", "/x", NULL);
    const char *json =
        "{\"b\":true,\"i\":1,\"l\":-2,\"d\":0.1,\"m\":1.50,\"s\":\"a,\\\"b\\\"\\n\",\"x\":\"AQI=\","
        "\"t\":\"2024-05-01T12:00:00.123Z\",\"dt\":\"2024-05-01\",\"iv\":\"1 day 02:00:00\","
        "\"st\":{\"a\":1,\"b\":\"c\"}}\n"
        "{\"s\":\"\"}\n";
    exec_batch_t *b = decode_one(a, rel, FORMAT_JSON, json);
    CHECK_INT(b->nrows, 2);
    format_encoder_t e;
    format_encoder_init(&e, FORMAT_JSON, ',', rel->ncols, rel->col_names);
    sl_buf_t out = SL_BUF_INIT;
    format_encode_row(&e, b, 0, &out);
    format_encode_row(&e, b, 1, &out);
    CHECK_STR(out.data, json);
    format_encoder_init(&e, FORMAT_CSV, ',', rel->ncols, rel->col_names);
    sl_buf_clear(&out);
    format_encode_header(&e, &out);
    format_encode_row(&e, b, 0, &out);
    format_encode_row(&e, b, 1, &out);
    CHECK_STR(out.data, "b,i,l,d,m,s,x,t,dt,iv,st\n"
                        "true,1,-2,0.1,1.50,\"a,\"\"b\"\"\n\",\\x0102,2024-05-01 12:00:00.123,"
                        "2024-05-01,1 day 02:00:00,\"{\"\"a\"\":1,\"\"b\"\":\"\"c\"\"}\"\n"
                        ",,,,,\"\",,,,,\n");
    /* CSV back (after the header) gives the same rows */
    exec_batch_t *c = decode_one(a, rel, FORMAT_CSV, strchr(out.data, '\n') + 1);
    tc_rows_t r1 = {.a = a}, r2 = {.a = a};
    tc_rows_add_batch(&r1, b);
    tc_rows_add_batch(&r2, c);
    CHECK_STR(tc_join(&r2), tc_join(&r1));
    sl_buf_free(&out);
    sl_arena_free(a);
}

/* A value starting with a UTF-8 byte order mark, first in a CSV file, is
 * quoted: read back it keeps the mark (a bare one is stripped as the file's). */
TEST(csv_field_with_byte_order_mark_round_trips)
{
    sl_arena_t *a = sl_arena_new("t");
    conn_stream_t *rel = tc_rel(a, "file", CONN_SOURCE, "s STRING, n INT", "path", "/x", NULL);
    exec_batch_t *b = decode_one(a, rel, FORMAT_JSON, "{\"s\":\"\xef\xbb\xbfx\",\"n\":1}\n");
    format_encoder_t e;
    format_encoder_init(&e, FORMAT_CSV, ',', rel->ncols, rel->col_names);
    sl_buf_t out = SL_BUF_INIT;
    format_encode_row(&e, b, 0, &out);
    CHECK_STR(out.data, "\"\xef\xbb\xbfx\",1\n");
    exec_batch_t *c = decode_one(a, rel, FORMAT_CSV, out.data);
    CHECK_INT(c->nrows, 1);
    exec_str_t s = EXEC_VEC_AT(&c->cols[0], exec_str_t, 0);
    CHECK_INT(s.len, 4);
    CHECK(!memcmp(s.ptr, "\xef\xbb\xbfx", 4));
    sl_buf_free(&out);
    sl_arena_free(a);
}

TEST(corrupt_record_column_must_be_string)
{
    sl_arena_t *a = sl_arena_new("t");
    conn_stream_t *rel =
        tc_rel(a, "file", CONN_SOURCE, "a INT, _corrupt_record INT", "path", "/x", NULL);
    format_options_t o = {.kind = FORMAT_JSON, .sep = ','};
    sl_error_t err;
    CHECK(format_decoder_new(&o, rel->ncols, rel->col_names, rel->col_types, a, &err) == NULL);
    CHECK_STR(err.sqlstate, "42804");
    sl_arena_free(a);
}

TEST(option_errors)
{
    sl_arena_t *a = sl_arena_new("t");
    format_options_t o;
    sl_error_t err;
    conn_stream_t *rel = tc_rel(a, "file", CONN_SOURCE, "a INT", "path", "/x", "mode", "LAX", NULL);
    CHECK(format_options_parse(rel->connector, rel->opts, rel->nopts, NULL, &o, &err) < 0);
    CHECK_STR(err.sqlstate, "22023");
    CHECK_STR(err.message, "invalid value \"LAX\" for option \"mode\"");
    CHECK_STR(err.hint, "Accepted values: PERMISSIVE, DROPMALFORMED, FAILFAST.");
    rel = tc_rel(a, "file", CONN_SOURCE, "a INT", "path", "/x", "format", "xml", NULL);
    CHECK(format_options_parse(rel->connector, rel->opts, rel->nopts, NULL, &o, &err) < 0);
    CHECK_STR(err.hint, "Accepted values: json, csv, raw.");
    rel = tc_rel(a, "file", CONN_SOURCE, "a INT", "path", "/x", "sep", "ab", NULL);
    CHECK(format_options_parse(rel->connector, rel->opts, rel->nopts, NULL, &o, &err) < 0);
    CHECK_STR(err.message, "invalid value \"ab\" for option \"sep\"");
    rel = tc_rel(a, "file", CONN_SOURCE, "a INT", "path", "/x", "header", "yes", NULL);
    CHECK(format_options_parse(rel->connector, rel->opts, rel->nopts, NULL, &o, &err) < 0);
    CHECK_STR(err.hint, "Accepted values: true, false.");
    sl_arena_free(a);
}

/* ---- static tables ----------------------------------------------------------- */

static const char *read_table(sl_arena_t *a, const char *fmt, const char *path, const char *header,
                              sl_error_t *err)
{
    conn_stream_t *rel =
        tc_rel(a, fmt, CONN_TABLE, "k STRING, v INT", "path", path, "header", header, NULL);
    tc_rows_t rows = {.a = a};
    if (format_read_path(rel, a, tc_emit, &rows, err) < 0) return NULL;
    return tc_join(&rows);
}

TEST(read_path_file_and_directory)
{
    sl_arena_t *a = sl_arena_new("t");
    sl_error_t err;
    char *dir = tc_tmpdir(a);
    tc_write(dir, "b.csv", "k,v\nb,2\n");
    tc_write(dir, "a.csv", "k,v\na,1\n\"a2\",\n");
    tc_write(dir, "_SUCCESS", "junk\n");
    tc_write(dir, ".a.csv.tmp", "junk,9\n");
    CHECK_STR(read_table(a, "csv", sl_printf(a, "%s/b.csv", dir), "true", &err), "b|2");
    CHECK_STR(read_table(a, "csv", dir, "true", &err), "a|1\na2|∅\nb|2");
    CHECK(read_table(a, "csv", sl_printf(a, "%s/none", dir), "false", &err) == NULL);
    CHECK_STR(err.sqlstate, "58030");
    tc_rmtree(dir);
    sl_arena_free(a);
}

TEST(read_path_honours_the_manifest)
{
    sl_arena_t *a = sl_arena_new("t");
    sl_error_t err;
    char *dir = tc_tmpdir(a);
    tc_write(dir, "part-00000-00000.json", "{\"k\":\"a\",\"v\":1}\n");
    tc_write(dir, "part-00001-00000.json", "{\"k\":\"b\",\"v\":2}\n");
    tc_write(dir, "part-00002-00000.json", "{\"k\":\"stray\",\"v\":3}\n"); /* not committed */
    CHECK(mkdir(sl_printf(a, "%s/_sluice_metadata", dir), 0755) == 0);
    char *meta = sl_printf(a, "%s/_sluice_metadata", dir);
    tc_write(meta, "0",
             sl_printf(a,
                       "v1\n{\"path\":\"file://%s/part-00000-00000.json\",\"size\":16,"
                       "\"isDir\":false,\"modificationTime\":1,\"blockReplication\":1,"
                       "\"blockSize\":33554432,\"action\":\"add\"}",
                       dir));
    tc_write(meta, "1",
             sl_printf(a,
                       "v1\n{\"path\":\"file://%s/part-00001-00000.json\",\"size\":16,"
                       "\"isDir\":false,\"modificationTime\":1,\"blockReplication\":1,"
                       "\"blockSize\":33554432,\"action\":\"add\"}",
                       dir));
    tc_write(meta, "2", "v1");
    CHECK_STR(read_table(a, "json", dir, "false", &err), "a|1\nb|2");
    /* a compaction replaces the earlier files; a delete removes an entry */
    tc_write(meta, "9.compact",
             sl_printf(a,
                       "v1\n{\"path\":\"file://%s/part-00001-00000.json\","
                       "\"action\":\"add\"}",
                       dir));
    CHECK_STR(read_table(a, "json", dir, "false", &err), "b|2");
    tc_write(meta, "10",
             sl_printf(a,
                       "v1\n{\"path\":\"file://%s/part-00002-00000.json\",\"action\":"
                       "\"add\"}\n{\"path\":\"file://%s/part-00001-00000.json\","
                       "\"action\":\"delete\"}",
                       dir, dir));
    CHECK_STR(read_table(a, "json", dir, "false", &err), "stray|3");
    tc_rmtree(dir);
    sl_arena_free(a);
}
