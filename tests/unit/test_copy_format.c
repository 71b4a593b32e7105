/* COPY's text and CSV formats (server/copy_format.c): PostgreSQL's output
 * escaping and quoting, record splitting with embedded newlines, field
 * decoding with NULL rules, and the UTF-8 check. */
#include <stdlib.h>
#include <string.h>

#include "server/copy_format.h"
#include "unit.h"

/* Encodes one row of NUL-terminated values (NULL = SQL NULL) into a string. */
static char *encode(const copy_opts_t *o, int n, const char *const *vals,
                    const unsigned char *force)
{
    size_t lens[16];
    for (int i = 0; i < n; i++) lens[i] = vals[i] ? strlen(vals[i]) : 0;
    sl_buf_t b = SL_BUF_INIT;
    copy_encode_row(o, n, vals, lens, force, &b);
    sl_buf_putc(&b, '\0');
    return sl_buf_steal(&b);
}

#define CHECK_ENCODE(o, force, want, ...)                                            \
    do {                                                                             \
        const char *vals_[] = {__VA_ARGS__};                                         \
        char *got_ = encode(o, (int)(sizeof vals_ / sizeof vals_[0]), vals_, force); \
        CHECK_STR(got_, want);                                                       \
        free(got_);                                                                  \
    } while (0)

TEST(text_output_escapes)
{
    copy_opts_t o;
    copy_opts_default(&o, COPY_FMT_TEXT);
    CHECK_ENCODE(&o, NULL, "a\\tb\tc\\nd\t\\\\x\\\\\n", "a\tb", "c\nd", "\\x\\");
    CHECK_ENCODE(&o, NULL, "\\N\t\t\\r\\b\\f\\v\n", NULL, "", "\r\b\f\v");
    CHECK_ENCODE(&o, NULL, "\\\\N\n", "\\N");         /* the string \N is not NULL */
    CHECK_ENCODE(&o, NULL, "\x01\x7f\n", "\x01\x7f"); /* other control bytes stay */
    o.delim = '|';
    CHECK_ENCODE(&o, NULL, "a\\|b|\\tc\n", "a|b", "\tc");
    o.null_str = "NULL";
    o.null_len = 4;
    CHECK_ENCODE(&o, NULL, "NULL|x\n", NULL, "x");
}

TEST(csv_output_quoting)
{
    copy_opts_t o;
    copy_opts_default(&o, COPY_FMT_CSV);
    CHECK_ENCODE(&o, NULL, "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\"\n", "plain",
                 "a,b", "say \"hi\"", "two\nlines", "cr\r");
    CHECK_ENCODE(&o, NULL, ",\"\"\n", NULL, ""); /* NULL unquoted, the empty string quoted */
    CHECK_ENCODE(&o, NULL, "\"\\.\"\n", "\\.");  /* a lone \. would end the data */
    CHECK_ENCODE(&o, NULL, "\\.,x\n", "\\.", "x");
    unsigned char force[] = {1, 0};
    CHECK_ENCODE(&o, force, "\"1\",2\n", "1", "2");
    CHECK_ENCODE(&o, force, ",2\n", NULL, "2"); /* FORCE_QUOTE never quotes NULL */
    o.escape = '\\';
    CHECK_ENCODE(&o, NULL, "\"a\\\"b\\\\c\"\n", "a\"b\\c");
    CHECK_ENCODE(&o, NULL, "a\\b\n", "a\\b"); /* the escape alone does not quote */
    copy_opts_default(&o, COPY_FMT_CSV);
    o.null_str = "\\N";
    o.null_len = 2;
    CHECK_ENCODE(&o, NULL, "\\N,\"\\N\",\n", NULL, "\\N", "");
}

TEST(header_line)
{
    copy_opts_t o;
    copy_opts_default(&o, COPY_FMT_CSV);
    CHECK_ENCODE(&o, NULL, "id,\"a,b\",name\n", "id", "a,b", "name");
    copy_opts_default(&o, COPY_FMT_TEXT);
    CHECK_ENCODE(&o, NULL, "id\tname\n", "id", "name");
}

/* Splits `s` into records; returns them joined by '|' (eof at the end). */
static char *records(const copy_opts_t *o, const char *s, int eof)
{
    sl_buf_t b = SL_BUF_INIT;
    size_t n = strlen(s), off = 0, len, used;
    while ((used = copy_next_record(o, s + off, n - off, eof, &len)) > 0) {
        if (b.len) sl_buf_putc(&b, '|');
        sl_buf_append(&b, s + off, len);
        off += used;
    }
    sl_buf_printf(&b, "#%zu", n - off);
    sl_buf_putc(&b, '\0');
    return sl_buf_steal(&b);
}

#define CHECK_RECORDS(o, s, eof, want)   \
    do {                                 \
        char *got_ = records(o, s, eof); \
        CHECK_STR(got_, want);           \
        free(got_);                      \
    } while (0)

TEST(record_splitting)
{
    copy_opts_t t, c;
    copy_opts_default(&t, COPY_FMT_TEXT);
    copy_opts_default(&c, COPY_FMT_CSV);
    CHECK_RECORDS(&t, "a\tb\nc\r\nd", 0, "a\tb|c#1");   /* the partial line waits */
    CHECK_RECORDS(&t, "a\tb\nc\r\nd", 1, "a\tb|c|d#0"); /* a last line without newline */
    CHECK_RECORDS(&t, "x\\\ny\nz\n", 0, "x\\\ny|z#0");  /* backslash-newline is data */
    CHECK_RECORDS(&c, "1,\"two\nlines\"\n2,x\n", 0, "1,\"two\nlines\"|2,x#0");
    CHECK_RECORDS(&c, "1,\"open\n", 0, "#8"); /* newline inside quotes */
    CHECK_RECORDS(&c, "\"a\"\"\nb\"\n", 0, "\"a\"\"\nb\"#0");
    c.escape = '\\';
    CHECK_RECORDS(&c, "\"a\\\"\nb\"\nc\n", 0, "\"a\\\"\nb\"|c#0");
    CHECK(copy_is_end_marker("\\.", 2));
    CHECK(!copy_is_end_marker("\\.x", 3));
}

/* Decodes a record; returns fields joined by '|', NULL as <null>. */
static char *fields(const copy_opts_t *o, const copy_null_rules_t *r, const char *rec)
{
    sl_buf_t scratch = SL_BUF_INIT, b = SL_BUF_INIT;
    copy_field_t *f = NULL;
    int cap = 0;
    sl_error_t err;
    int n = copy_decode_record(o, r, rec, strlen(rec), &scratch, &f, &cap, &err);
    if (n < 0) sl_buf_printf(&b, "error %s %s", err.sqlstate, err.message);
    for (int i = 0; i < n; i++) {
        if (i) sl_buf_putc(&b, '|');
        if (f[i].null) sl_buf_puts(&b, "<null>");
        else sl_buf_append(&b, f[i].p, f[i].n);
    }
    sl_buf_putc(&b, '\0');
    free(f);
    sl_buf_free(&scratch);
    return sl_buf_steal(&b);
}

#define CHECK_FIELDS(o, r, rec, want)   \
    do {                                \
        char *got_ = fields(o, r, rec); \
        CHECK_STR(got_, want);          \
        free(got_);                     \
    } while (0)

TEST(text_input)
{
    copy_opts_t o;
    copy_opts_default(&o, COPY_FMT_TEXT);
    CHECK_FIELDS(&o, NULL, "a\\tb\t\\N\t\\\\N\t", "a\tb|<null>|\\N|");
    CHECK_FIELDS(&o, NULL, "\\101\\x41\\x4a2\\q\\n", "AAJ2q\n");
    CHECK_FIELDS(&o, NULL, "x\\\ty", "x\ty"); /* an escaped delimiter */
    CHECK_FIELDS(&o, NULL, "", "");
    o.delim = ',';
    CHECK_FIELDS(&o, NULL, "1,,3", "1||3");
}

TEST(csv_input)
{
    copy_opts_t o;
    copy_opts_default(&o, COPY_FMT_CSV);
    CHECK_FIELDS(&o, NULL, "1,,\"\",\"a,b\",\"say \"\"hi\"\"\"", "1|<null>||a,b|say \"hi\"");
    CHECK_FIELDS(&o, NULL, "\"two\nlines\",x", "two\nlines|x");
    CHECK_FIELDS(&o, NULL, "ab\"c,d\"e", "abc,de"); /* quoted parts inside a field */
    CHECK_FIELDS(&o, NULL, " a , b", " a | b");     /* spaces are data */
    CHECK_FIELDS(&o, NULL, "\"open", "error 22P04 unterminated CSV quoted field");
    unsigned char fnn[] = {1, 0}, fn[] = {0, 1};
    copy_null_rules_t r = {fnn, fn, 2};
    CHECK_FIELDS(&o, &r, ",\"\"", "|<null>");
    o.escape = '\\';
    CHECK_FIELDS(&o, NULL, "\"a\\\"b\\\\c\\d\"", "a\"b\\c\\d");
    o.null_str = "NULL";
    o.null_len = 4;
    CHECK_FIELDS(&o, NULL, "NULL,\"NULL\",", "<null>|NULL|");
}

TEST(utf8_check)
{
    CHECK_INT(copy_utf8_check("abc\t\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 13, 0), 13);
    CHECK_INT(copy_utf8_check("ab\xff", 3, 0), 2);
    CHECK_INT(copy_utf8_check("a\0b", 3, 0), 1);
    CHECK_INT(copy_utf8_check("a\xc0\xaf", 3, 0), 1);     /* overlong */
    CHECK_INT(copy_utf8_check("a\xed\xa0\x80", 4, 0), 1); /* a surrogate */
    CHECK_INT(copy_utf8_check("a\xe2\x82", 3, 1), 3);     /* cut: more may follow */
    CHECK_INT(copy_utf8_check("a\xe2\x82", 3, 0), 1);
}
