/* Unit tests of exec types, values, text I/O, decimals, casts and the
 * common JSON writer: text round trips, PostgreSQL output forms, every
 * cast path including its errors (exact SQLSTATE and message). */
#include "unit.h"

#include <math.h>

#include "common/arena.h"
#include "common/json_write.h"
#include "model/batch.h"
#include "model/cast.h"
#include "model/decimal.h"
#include "model/text_io.h"
#include "model/types.h"
#include "model/value.h"

static sl_arena_t *A;

__attribute__((constructor)) static void make_arena(void)
{
    A = sl_arena_new("test");
}

static exec_type_t ty(const char *text)
{
    exec_type_t t;
    sl_error_t err;
    if (exec_type_parse(text, strlen(text), A, &t, &err))
        unit_fail(__FILE__, __LINE__, "type %s: %s", text, err.message);
    return t;
}

static const char *type_text(const char *text)
{
    return exec_type_text(ty(text), A);
}

/* Text input then PostgreSQL text output. */
static const char *io(const char *type, const char *in)
{
    exec_value_t v;
    sl_error_t err;
    if (exec_value_parse(ty(type), in, strlen(in), A, &v, &err))
        return sl_printf(A, "ERROR %s %s", err.sqlstate, err.message);
    return exec_value_text(&v, A);
}

/* CAST(<in as from> AS to), printed. */
static const char *cast(const char *from, const char *in, const char *to)
{
    exec_value_t v, out;
    sl_error_t err;
    if (exec_value_parse(ty(from), in, strlen(in), A, &v, &err))
        return sl_printf(A, "BAD INPUT %s", err.message);
    if (exec_cast_value(&v, ty(to), A, &out, &err))
        return sl_printf(A, "ERROR %s %s", err.sqlstate, err.message);
    const char *s = exec_value_text(&out, A);
    return s ? s : "NULL";
}

TEST(type_names_parse_and_print)
{
    CHECK_STR(type_text("DECIMAL(10,2)"), "DECIMAL(10,2)");
    CHECK_STR(type_text("numeric( 12 , 3 )"), "DECIMAL(12,3)");
    CHECK_STR(type_text("decimal"), "DECIMAL(10,0)");
    CHECK_STR(type_text("STRING"), "STRING");
    CHECK_STR(type_text("VARCHAR(20)"), "STRING");
    CHECK_STR(type_text("character varying(5)"), "STRING");
    CHECK_STR(type_text("TEXT"), "STRING");
    CHECK_STR(type_text("INTEGER"), "INT");
    CHECK_STR(type_text("int8"), "BIGINT");
    CHECK_STR(type_text("BOOL"), "BOOLEAN");
    CHECK_STR(type_text("DOUBLE PRECISION"), "DOUBLE");
    CHECK_STR(type_text("float"), "DOUBLE");
    CHECK_STR(type_text("BYTEA"), "BINARY");
    CHECK_STR(type_text("timestamp without time zone"), "TIMESTAMP");
    CHECK_STR(type_text("interval day to second"), "INTERVAL");
    CHECK_STR(type_text("date"), "DATE");
    CHECK_STR(type_text("STRUCT<a: INT, b: STRING>"), "STRUCT<a: INT, b: STRING>");
    CHECK_STR(type_text("struct<a int,`odd name`:struct<x: decimal(5,1)>>"),
              "STRUCT<a: INT, `odd name`: STRUCT<x: DECIMAL(5,1)>>");
    /* quoted field names: "SQL" or `Spark`, a doubled quote standing for itself */
    exec_type_t q = ty("STRUCT<\"end\": INT, `a``b`: STRING, \"x\"\"y\" DATE>");
    CHECK_INT(q.nfields, 3);
    CHECK_STR(q.fields[0].name, "end");
    CHECK_STR(q.fields[1].name, "a`b");
    CHECK_STR(q.fields[2].name, "x\"y");
    CHECK_STR(exec_type_text(q, A), "STRUCT<end: INT, `a``b`: STRING, `x\"y`: DATE>");
    CHECK(exec_type_equal(ty(exec_type_text(q, A)), q));
    /* the canonical text reads back to an equal type */
    exec_type_t t = ty("STRUCT<start: TIMESTAMP, end: TIMESTAMP>");
    CHECK(exec_type_equal(t, exec_type_window()));
    CHECK(exec_type_equal(ty(exec_type_text(ty("STRUCT<a: DECIMAL(38,10), b: BINARY>"), A)),
                          ty("STRUCT<a: DECIMAL(38,10), b: BINARY>")));
}

TEST(type_parse_errors)
{
    exec_type_t t;
    sl_error_t err;
    CHECK_INT(exec_type_parse("x", 1, A, &t, &err), -1);
    CHECK_STR(err.sqlstate, "42704");
    CHECK_STR(err.message, "type \"x\" does not exist");
    CHECK_INT(exec_type_parse("DECIMAL(50,2)", 13, A, &t, &err), -1);
    CHECK_STR(err.sqlstate, "22023");
    CHECK_STR(err.message, "decimal precision 50 must be between 1 and 38");
    CHECK_INT(exec_type_parse("DECIMAL(5,6)", 12, A, &t, &err), -1);
    CHECK_STR(err.sqlstate, "22023");
    CHECK_INT(exec_type_parse("STRUCT<a INT", 12, A, &t, &err), -1);
    CHECK_STR(err.sqlstate, "42601");
    CHECK_INT(exec_type_parse("STRUCT<\"a INT>", 14, A, &t, &err), -1);
    CHECK_STR(err.sqlstate, "42601");
    CHECK_INT(exec_schema_parse("a INT, A STRING", 15, A, &t, &err), -1);
    CHECK_STR(err.sqlstate, "42701");
    CHECK_INT(exec_schema_parse("a INT, b STRING", 15, A, &t, &err), 0);
    CHECK_INT(t.nfields, 2);
    CHECK_STR(t.fields[1].name, "b");
    CHECK_INT(t.fields[1].type.id, EXEC_TYPE_STRING);
}

TEST(pg_wire_types)
{
    exec_pg_type_t p = exec_type_pg(ty("DECIMAL(10,2)"));
    CHECK_INT(p.oid, 1700);
    CHECK_INT(p.typmod, (10 << 16 | 2) + 4);
    CHECK_INT(exec_type_pg(ty("BOOLEAN")).oid, 16);
    CHECK_INT(exec_type_pg(ty("INT")).oid, 23);
    CHECK_INT(exec_type_pg(ty("INT")).len, 4);
    CHECK_INT(exec_type_pg(ty("BIGINT")).oid, 20);
    CHECK_INT(exec_type_pg(ty("DOUBLE")).oid, 701);
    CHECK_INT(exec_type_pg(ty("STRING")).oid, 25);
    CHECK_INT(exec_type_pg(ty("STRING")).len, -1);
    CHECK_INT(exec_type_pg(ty("BINARY")).oid, 17);
    CHECK_INT(exec_type_pg(ty("TIMESTAMP")).oid, 1114);
    CHECK_INT(exec_type_pg(ty("DATE")).oid, 1082);
    CHECK_INT(exec_type_pg(ty("INTERVAL")).oid, 1186);
    CHECK_INT(exec_type_pg(exec_type_window()).oid, 114);
    CHECK_INT(exec_type_pg(ty("STRING")).typmod, -1);
}

TEST(boolean_and_integer_text)
{
    CHECK_STR(io("BOOLEAN", "true"), "t");
    CHECK_STR(io("BOOLEAN", " F "), "f");
    CHECK_STR(io("BOOLEAN", "yes"), "t");
    CHECK_STR(io("BOOLEAN", "0"), "f");
    CHECK_STR(io("BOOLEAN", "maybe"),
              "ERROR 22P02 invalid input syntax for type boolean: \"maybe\"");
    CHECK_STR(io("INT", " -2147483648 "), "-2147483648");
    CHECK_STR(io("INT", "+7"), "7");
    CHECK_STR(io("INT", "2147483648"),
              "ERROR 22003 value \"2147483648\" is out of range for type integer");
    CHECK_STR(io("INT", "1.5"), "ERROR 22P02 invalid input syntax for type integer: \"1.5\"");
    CHECK_STR(io("BIGINT", "9223372036854775807"), "9223372036854775807");
    CHECK_STR(io("BIGINT", "-9223372036854775808"), "-9223372036854775808");
    CHECK_STR(io("BIGINT", "9223372036854775808"),
              "ERROR 22003 value \"9223372036854775808\" is out of range for type bigint");
    CHECK_STR(io("BIGINT", "x"), "ERROR 22P02 invalid input syntax for type bigint: \"x\"");
    CHECK_STR(io("BIGINT", ""), "ERROR 22P02 invalid input syntax for type bigint: \"\"");
}

TEST(double_text_is_postgres_shortest)
{
    CHECK_STR(io("DOUBLE", "0.1"), "0.1");
    CHECK_STR(io("DOUBLE", "1e100"), "1e+100");
    CHECK_STR(io("DOUBLE", "inf"), "Infinity");
    CHECK_STR(io("DOUBLE", "-Infinity"), "-Infinity");
    CHECK_STR(io("DOUBLE", "NaN"), "NaN");
    CHECK_STR(io("DOUBLE", "-0"), "-0");
    CHECK_STR(io("DOUBLE", "0.00001"), "1e-05");
    CHECK_STR(io("DOUBLE", "0.0001"), "0.0001");
    CHECK_STR(io("DOUBLE", "100"), "100");
    CHECK_STR(io("DOUBLE", "123456789012345"), "123456789012345");
    CHECK_STR(io("DOUBLE", "1234567890123456"), "1.234567890123456e+15");
    CHECK_STR(io("DOUBLE", "123456789012345678"), "1.2345678901234568e+17");
    CHECK_STR(io("DOUBLE", "3.141592653589793"), "3.141592653589793");
    CHECK_STR(io("DOUBLE", "2.5e-7"), "2.5e-07");
    CHECK_STR(io("DOUBLE", "-1.5"), "-1.5");
    CHECK_STR(io("DOUBLE", "1e400"),
              "ERROR 22003 \"1e400\" is out of range for type double precision");
    CHECK_STR(io("DOUBLE", "0x10"),
              "ERROR 22P02 invalid input syntax for type double precision: \"0x10\"");
    CHECK_STR(io("DOUBLE", "1.5.2"),
              "ERROR 22P02 invalid input syntax for type double precision: \"1.5.2\"");
    /* every shortest form reads back to the same double */
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double d;
        memcpy(&d, &x, 8);
        if (!isfinite(d)) continue;
        sl_buf_t b = SL_BUF_INIT;
        exec_format_double(d, &b);
        double back;
        CHECK_INT(exec_parse_double(b.data, b.len, &back), 0);
        CHECK(memcmp(&back, &d, 8) == 0);
        sl_buf_free(&b);
    }
}

TEST(decimal_text_keeps_scale_and_rounds_half_up)
{
    CHECK_STR(io("DECIMAL(10,2)", "12.3"), "12.30");
    CHECK_STR(io("DECIMAL(10,2)", "-0.05"), "-0.05");
    CHECK_STR(io("DECIMAL(10,2)", "1.005"), "1.01");
    CHECK_STR(io("DECIMAL(10,2)", "-1.005"), "-1.01");
    CHECK_STR(io("DECIMAL(10,2)", "1.004"), "1.00");
    CHECK_STR(io("DECIMAL(10,2)", "0.000"), "0.00");
    CHECK_STR(io("DECIMAL(10,2)", "1.5e2"), "150.00");
    CHECK_STR(io("DECIMAL(10,0)", "7"), "7");
    CHECK_STR(io("DECIMAL(5,5)", "0.12345"), "0.12345");
    CHECK_STR(io("DECIMAL(38,0)", "99999999999999999999999999999999999999"),
              "99999999999999999999999999999999999999");
    CHECK_STR(io("DECIMAL(5,2)", "1000"), "ERROR 22003 numeric field overflow");
    CHECK_STR(io("DECIMAL(5,2)", "999.995"), "ERROR 22003 numeric field overflow");
    CHECK_STR(io("DECIMAL(5,2)", "abc"),
              "ERROR 22P02 invalid input syntax for type numeric: \"abc\"");
    exec_value_t v;
    sl_error_t err;
    CHECK_INT(exec_value_parse(ty("DECIMAL(5,2)"), "1000", 4, A, &v, &err), -1);
    CHECK_STR(err.detail,
              "A field with precision 5, scale 2 must round to an absolute value less than 10^3.");
    CHECK_INT(exec_value_parse(ty("DECIMAL(2,2)"), "1", 1, A, &v, &err), -1);
    CHECK_STR(err.detail,
              "A field with precision 2, scale 2 must round to an absolute value less than 1.");
}

TEST(timestamp_and_date_text)
{
    CHECK_STR(io("TIMESTAMP", "2024-05-01 12:10:00"), "2024-05-01 12:10:00");
    CHECK_STR(io("TIMESTAMP", "2024-05-01 12:10:00.5"), "2024-05-01 12:10:00.5");
    CHECK_STR(io("TIMESTAMP", "2024-05-01T12:00:00Z"), "2024-05-01 12:00:00");
    CHECK_STR(io("TIMESTAMP", "2024-05-01T12:00:00.123456Z"), "2024-05-01 12:00:00.123456");
    CHECK_STR(io("TIMESTAMP", "2024-05-01 12:00:00+02:00"), "2024-05-01 10:00:00");
    CHECK_STR(io("TIMESTAMP", "2024-05-01 01:00:00-0230"), "2024-05-01 03:30:00");
    CHECK_STR(io("TIMESTAMP", "2024-05-01 00:30:00+01"), "2024-04-30 23:30:00");
    CHECK_STR(io("TIMESTAMP", "2024-05-01 12:00 UTC"), "2024-05-01 12:00:00");
    CHECK_STR(io("TIMESTAMP", "2024-05-01"), "2024-05-01 00:00:00");
    CHECK_STR(io("TIMESTAMP", "2024-05-01 12:00:00.1234567"), "2024-05-01 12:00:00.123457");
    CHECK_STR(io("TIMESTAMP", "1969-12-31 23:59:59.999"), "1969-12-31 23:59:59.999");
    CHECK_STR(io("TIMESTAMP", "0001-01-01 00:00:00"), "0001-01-01 00:00:00");
    CHECK_STR(io("TIMESTAMP", "2024-13-01"),
              "ERROR 22008 date/time field value out of range: \"2024-13-01\"");
    CHECK_STR(io("TIMESTAMP", "2023-02-29"),
              "ERROR 22008 date/time field value out of range: \"2023-02-29\"");
    CHECK_STR(io("TIMESTAMP", "yesterday"),
              "ERROR 22007 invalid input syntax for type timestamp: \"yesterday\"");
    CHECK_STR(io("TIMESTAMP", "2024-05-01 25:00:00"),
              "ERROR 22008 date/time field value out of range: \"2024-05-01 25:00:00\"");
    CHECK_STR(io("DATE", "2024-05-01"), "2024-05-01");
    CHECK_STR(io("DATE", "2024-02-29 23:59:59"), "2024-02-29");
    CHECK_STR(io("DATE", "1900-03-01"), "1900-03-01");
    CHECK_STR(io("DATE", "2024-05-01 +00"), "2024-05-01"); /* pgjdbc setDate */
    CHECK_STR(io("TIMESTAMP", "2024-05-01 +02"), "2024-04-30 22:00:00");
    CHECK_STR(io("DATE", "2024/05/01"),
              "ERROR 22007 invalid input syntax for type date: \"2024/05/01\"");
    exec_value_t v;
    sl_error_t err;
    CHECK_INT(exec_value_parse(ty("TIMESTAMP"), "1970-01-01 00:00:01", 19, A, &v, &err), 0);
    CHECK_INT(v.u.i64, 1000000);
    CHECK_INT(exec_value_parse(ty("DATE"), "1970-01-02", 10, A, &v, &err), 0);
    CHECK_INT(v.u.i32, 1);
    sl_buf_t b = SL_BUF_INIT;
    exec_format_timestamp_iso(1714564800123456LL, &b);
    CHECK_STR(b.data, "2024-05-01T12:00:00.123Z");
    sl_buf_free(&b);
}

TEST(interval_text_postgres_style)
{
    CHECK_STR(io("INTERVAL", "1 day 02:00:00"), "1 day 02:00:00");
    CHECK_STR(io("INTERVAL", "15 minutes"), "00:15:00");
    CHECK_STR(io("INTERVAL", "1 hour 30 minutes"), "01:30:00");
    CHECK_STR(io("INTERVAL", "1 day"), "1 day");
    CHECK_STR(io("INTERVAL", "3 days"), "3 days");
    CHECK_STR(io("INTERVAL", "00:15:00"), "00:15:00");
    CHECK_STR(io("INTERVAL", "1 year 2 mons"), "1 year 2 mons");
    CHECK_STR(io("INTERVAL", "14 months"), "1 year 2 mons");
    CHECK_STR(io("INTERVAL", "-1 day 2 hours"), "-1 days +02:00:00");
    CHECK_STR(io("INTERVAL", "-15 minutes"), "-00:15:00");
    CHECK_STR(io("INTERVAL", "2 hours ago"), "-02:00:00");
    CHECK_STR(io("INTERVAL", "@ 1 minute"), "00:01:00");
    CHECK_STR(io("INTERVAL", "0 seconds"), "00:00:00");
    CHECK_STR(io("INTERVAL", "1.5 days"), "1 day 12:00:00");
    CHECK_STR(io("INTERVAL", "1.5 hours"), "01:30:00");
    CHECK_STR(io("INTERVAL", "1.5 years"), "1 year 6 mons");
    CHECK_STR(io("INTERVAL", "500 ms"), "00:00:00.5");
    CHECK_STR(io("INTERVAL", "2 weeks"), "14 days");
    CHECK_STR(io("INTERVAL", "interval 10 minutes"), "00:10:00");
    CHECK_STR(io("INTERVAL", "P1D"), "1 day");
    CHECK_STR(io("INTERVAL", "PT15M"), "00:15:00");
    CHECK_STR(io("INTERVAL", "P1Y2M3DT4H5M6.5S"), "1 year 2 mons 3 days 04:05:06.5");
    CHECK_STR(io("INTERVAL", "10"), "00:00:10");
    CHECK_STR(io("INTERVAL", "36 hours"), "36:00:00");
    CHECK_STR(io("INTERVAL", "1 fortnight"),
              "ERROR 22007 invalid input syntax for type interval: \"1 fortnight\"");
    CHECK_STR(io("INTERVAL", ""), "ERROR 22007 invalid input syntax for type interval: \"\"");
    exec_interval_t iv;
    CHECK_INT(exec_parse_interval_unit("1", 1, "HOUR", &iv), 0);
    CHECK_INT(iv.micros, 3600000000LL);
    CHECK_INT(exec_parse_interval_unit("1.5", 3, "minutes", &iv), 0);
    CHECK_INT(iv.micros, 90000000LL);
    CHECK_INT(exec_parse_interval_unit("1:30", 4, "HOUR TO MINUTE", &iv), 0);
    CHECK_INT(iv.micros, 5400000000LL);
    CHECK_INT(exec_parse_interval_unit("2 03:04:05.5", 12, "DAY TO SECOND", &iv), 0);
    CHECK_INT(iv.days, 2);
    CHECK_INT(iv.micros, 3 * 3600000000LL + 4 * 60000000LL + 5500000);
    CHECK_INT(exec_parse_interval_unit("-1-6", 4, "YEAR TO MONTH", &iv), 0);
    CHECK_INT(iv.months, -18);
    CHECK_INT(exec_parse_interval_unit("x", 1, "HOUR", &iv), EXEC_PARSE_SYNTAX);
}

TEST(bytea_text)
{
    CHECK_STR(io("BINARY", "\\x0102ff"), "\\x0102ff");
    CHECK_STR(io("BINARY", "ab"), "\\x6162");
    CHECK_STR(io("BINARY", "a\\\\b\\001"), "\\x615c6201");
    CHECK_STR(io("BINARY", "\\xzz"), "ERROR 22023 invalid hexadecimal digit: \"z\"");
    CHECK_STR(io("BINARY", "\\x012"), "ERROR 22023 invalid hexadecimal data: odd number of digits");
    CHECK_STR(io("BINARY", "a\\b"), "ERROR 22P02 invalid input syntax for type bytea");
}

TEST(struct_text_is_json)
{
    exec_value_t f[2] = {exec_value_timestamp(1714564800000000LL),
                         exec_value_timestamp(1714565400500000LL)};
    exec_value_t w = exec_value_struct(exec_type_window(), f);
    CHECK_STR(exec_value_text(&w, A),
              "{\"start\":\"2024-05-01T12:00:00.000Z\",\"end\":\"2024-05-01T12:10:00.500Z\"}");
    CHECK_STR(
        io("STRUCT<a: INT, b: STRING, c: DOUBLE>", "{\"b\": \"x\\ny\", \"a\": 3, \"c\": null}"),
        "{\"a\":3,\"b\":\"x\\ny\",\"c\":null}");
    CHECK_STR(io("STRUCT<a: INT>", "{\"a\": \"x\"}"),
              "ERROR 22P02 invalid input syntax for type json");
}

/* A NULL struct's fields hold no defined value (CASE ... THEN NULL leaves
 * them as they were): gathering must neither read nor copy them. */
TEST(gather_skips_fields_of_null_structs)
{
    exec_type_t t;
    sl_error_t err;
    CHECK(exec_type_parse("STRUCT<s: STRING>", 17, A, &t, &err) == 0);
    exec_batch_t *b = exec_batch_new(A, 1, &t, 3);
    exec_vec_t *v = &b->cols[0];
    exec_str_t *s = v->children[0].data;
    s[0] = (exec_str_t){3, "abc"};
    s[1] = (exec_str_t){0x7fffffff, (const char *)(uintptr_t)8}; /* garbage */
    s[2] = (exec_str_t){2, "de"};
    exec_vec_make_nulls(A, v, 3)[1] = 1;
    uint32_t rows[] = {2, 1, 0};
    exec_batch_t *g = exec_batch_gather(b, rows, 3, A);
    const exec_str_t *o = g->cols[0].children[0].data;
    CHECK(g->cols[0].nulls && g->cols[0].nulls[1] && !g->cols[0].nulls[0]);
    CHECK(o[0].len == 2 && !memcmp(o[0].ptr, "de", 2) && o[0].ptr != s[2].ptr);
    CHECK(o[1].len == 0);
    CHECK(o[2].len == 3 && !memcmp(o[2].ptr, "abc", 3));
}

TEST(numeric_casts)
{
    CHECK_STR(cast("INT", "7", "BIGINT"), "7");
    CHECK_STR(cast("INT", "7", "DOUBLE"), "7");
    CHECK_STR(cast("INT", "-7", "DECIMAL(5,2)"), "-7.00");
    CHECK_STR(cast("INT", "1000", "DECIMAL(5,2)"), "ERROR 22003 numeric field overflow");
    CHECK_STR(cast("BIGINT", "2147483648", "INT"), "ERROR 22003 integer out of range");
    CHECK_STR(cast("BIGINT", "-2147483648", "INT"), "-2147483648");
    CHECK_STR(cast("DOUBLE", "3.99", "INT"), "3");
    CHECK_STR(cast("DOUBLE", "-3.99", "BIGINT"), "-3");
    CHECK_STR(cast("DOUBLE", "2147483648.5", "INT"), "ERROR 22003 integer out of range");
    CHECK_STR(cast("DOUBLE", "NaN", "BIGINT"), "ERROR 22003 bigint out of range");
    CHECK_STR(cast("DOUBLE", "9.3e18", "BIGINT"), "ERROR 22003 bigint out of range");
    CHECK_STR(cast("DOUBLE", "0.125", "DECIMAL(5,2)"), "0.13");
    CHECK_STR(cast("DOUBLE", "-2.675", "DECIMAL(5,2)"), "-2.68");
    CHECK_STR(cast("DOUBLE", "1e10", "DECIMAL(5,2)"), "ERROR 22003 numeric field overflow");
    CHECK_STR(cast("DOUBLE", "Infinity", "DECIMAL(5,2)"), "ERROR 22003 numeric field overflow");
    CHECK_STR(cast("DECIMAL(10,3)", "1.2345", "DECIMAL(10,2)"), "1.24");
    CHECK_STR(cast("DECIMAL(10,3)", "-1.235", "DECIMAL(10,2)"), "-1.24");
    CHECK_STR(cast("DECIMAL(10,3)", "12345.678", "DECIMAL(5,1)"),
              "ERROR 22003 numeric field overflow");
    CHECK_STR(cast("DECIMAL(10,3)", "-12.999", "INT"), "-12");
    CHECK_STR(cast("DECIMAL(20,0)", "99999999999", "INT"), "ERROR 22003 integer out of range");
    CHECK_STR(cast("DECIMAL(10,3)", "0.5", "DOUBLE"), "0.5");
    CHECK_STR(cast("DECIMAL(38,10)", "1234567890123456789012345678.0123456789", "DOUBLE"),
              "1.2345678901234569e+27");
}

TEST(boolean_string_time_casts)
{
    CHECK_STR(cast("BOOLEAN", "true", "INT"), "1");
    CHECK_STR(cast("BOOLEAN", "false", "DECIMAL(3,1)"), "0.0");
    CHECK_STR(cast("BOOLEAN", "true", "DOUBLE"), "1");
    CHECK_STR(cast("INT", "-3", "BOOLEAN"), "t");
    CHECK_STR(cast("DOUBLE", "0", "BOOLEAN"), "f");
    CHECK_STR(cast("BOOLEAN", "t", "STRING"), "true");
    CHECK_STR(cast("STRING", "42", "INT"), "42");
    CHECK_STR(cast("STRING", "x", "BIGINT"),
              "ERROR 22P02 invalid input syntax for type bigint: \"x\"");
    CHECK_STR(cast("STRING", "2024-05-01T12:00:00Z", "TIMESTAMP"), "2024-05-01 12:00:00");
    CHECK_STR(cast("STRING", "15 minutes", "INTERVAL"), "00:15:00");
    CHECK_STR(cast("STRING", "ab", "BINARY"), "\\x6162");
    CHECK_STR(cast("BINARY", "\\x6869", "STRING"), "hi");
    CHECK_STR(cast("DOUBLE", "1e100", "STRING"), "1e+100");
    CHECK_STR(cast("DECIMAL(5,2)", "1.5", "STRING"), "1.50");
    CHECK_STR(cast("TIMESTAMP", "2024-05-01 23:59:59", "DATE"), "2024-05-01");
    CHECK_STR(cast("TIMESTAMP", "1969-12-31 23:00:00", "DATE"), "1969-12-31");
    CHECK_STR(cast("DATE", "2024-05-01", "TIMESTAMP"), "2024-05-01 00:00:00");
    CHECK_STR(cast("TIMESTAMP", "1970-01-01 00:00:01.9", "BIGINT"), "1");
    CHECK_STR(cast("TIMESTAMP", "1969-12-31 23:59:59.5", "BIGINT"), "-1");
    CHECK_STR(cast("TIMESTAMP", "1970-01-01 00:00:01.5", "DOUBLE"), "1.5");
    CHECK_STR(cast("BIGINT", "86400", "TIMESTAMP"), "1970-01-02 00:00:00");
    CHECK_STR(cast("DOUBLE", "1.5", "TIMESTAMP"), "1970-01-01 00:00:01.5");
    CHECK_STR(cast("BIGINT", "9223372036854775807", "TIMESTAMP"),
              "ERROR 22008 timestamp out of range");
    CHECK_STR(cast("INTERVAL", "1 day", "STRING"), "1 day");
    CHECK_STR(cast("STRUCT<a: INT, b: STRING>", "{\"a\":1}", "STRING"), "{\"a\":1,\"b\":null}");
    CHECK_STR(cast("STRUCT<a: INT>", "{\"a\":1}", "STRUCT<x: BIGINT>"), "{\"x\":1}");
}

TEST(cast_rules_and_common_types)
{
    CHECK(exec_cast_allowed(ty("INT"), ty("STRING")));
    CHECK(exec_cast_allowed(ty("STRING"), ty("DATE")));
    CHECK(!exec_cast_allowed(ty("STRING"), ty("STRUCT<a: INT>")));
    CHECK(!exec_cast_allowed(ty("DATE"), ty("INT")));
    CHECK(!exec_cast_allowed(ty("BOOLEAN"), ty("TIMESTAMP")));
    CHECK(!exec_cast_allowed(ty("BINARY"), ty("INT")));
    CHECK(exec_cast_implicit(ty("INT"), ty("BIGINT")));
    CHECK(!exec_cast_implicit(ty("BIGINT"), ty("INT")));
    CHECK(exec_cast_implicit(ty("INT"), ty("DECIMAL(10,0)")));
    CHECK(!exec_cast_implicit(ty("INT"), ty("DECIMAL(9,0)")));
    CHECK(exec_cast_implicit(ty("DECIMAL(10,2)"), ty("DOUBLE")));
    CHECK(!exec_cast_implicit(ty("DOUBLE"), ty("DECIMAL(10,2)")));
    CHECK(exec_cast_implicit(ty("DATE"), ty("TIMESTAMP")));
    exec_type_t t;
    sl_error_t err;
    CHECK_INT(exec_common_type(ty("INT"), ty("BIGINT"), NULL, &t, &err), 0);
    CHECK_STR(exec_type_text(t, A), "BIGINT");
    CHECK_INT(exec_common_type(ty("INT"), ty("DECIMAL(5,2)"), NULL, &t, &err), 0);
    CHECK_STR(exec_type_text(t, A), "DECIMAL(12,2)");
    CHECK_INT(exec_common_type(ty("DECIMAL(5,2)"), ty("DOUBLE"), NULL, &t, &err), 0);
    CHECK_STR(exec_type_text(t, A), "DOUBLE");
    CHECK_INT(exec_common_type(ty("STRING"), ty("TIMESTAMP"), NULL, &t, &err), 0);
    CHECK_STR(exec_type_text(t, A), "TIMESTAMP");
    CHECK_INT(exec_common_type(exec_type_of(EXEC_TYPE_NULL), ty("DATE"), NULL, &t, &err), 0);
    CHECK_STR(exec_type_text(t, A), "DATE");
    CHECK_INT(exec_common_type(ty("DATE"), ty("TIMESTAMP"), NULL, &t, &err), 0);
    CHECK_STR(exec_type_text(t, A), "TIMESTAMP");
    CHECK_INT(exec_common_type(ty("INT"), ty("BOOLEAN"), "CASE", &t, &err), -1);
    CHECK_STR(err.sqlstate, "42804");
    CHECK_STR(err.message, "CASE types integer and boolean cannot be matched");
}

TEST(decimal_arithmetic_helpers)
{
    exec_dec_t r;
    /* 1.5 * 1.5 = 2.25 at scale 2; 1/3 at scale 6 rounds */
    CHECK(exec_dec_mul(15, 1, 15, 1, 2, &r));
    CHECK_INT((long long)r, 225);
    CHECK(exec_dec_div(1, 0, 3, 0, 6, &r));
    CHECK_INT((long long)r, 333333);
    CHECK(exec_dec_div(2, 0, 3, 0, 6, &r));
    CHECK_INT((long long)r, 666667);
    CHECK(exec_dec_div(-2, 0, 3, 0, 6, &r));
    CHECK_INT((long long)r, -666667);
    /* a 256-bit product rounded back: (10^30 + 1) * 10^20 at scale 38->... */
    exec_dec_t big = exec_dec_pow10(30) + 1;
    CHECK(!exec_dec_mul(big, 0, exec_dec_pow10(20), 0, 0, &r));
    CHECK(exec_dec_mul(big, 20, exec_dec_pow10(20), 20, 20, &r));
    CHECK(r == big);
    CHECK_STR(exec_type_text(
                  exec_dec_result_type(EXEC_DEC_MUL, ty("DECIMAL(10,2)"), ty("DECIMAL(5,1)")), A),
              "DECIMAL(16,3)");
    CHECK_STR(exec_type_text(
                  exec_dec_result_type(EXEC_DEC_DIV, ty("DECIMAL(10,2)"), ty("DECIMAL(5,1)")), A),
              "DECIMAL(17,8)");
    CHECK_STR(exec_type_text(
                  exec_dec_result_type(EXEC_DEC_ADD, ty("DECIMAL(10,2)"), ty("DECIMAL(5,4)")), A),
              "DECIMAL(13,4)");
    CHECK_STR(
        exec_type_text(
            exec_dec_result_type(EXEC_DEC_MUL, ty("DECIMAL(38,10)"), ty("DECIMAL(38,10)")), A),
        "DECIMAL(38,6)");
    CHECK_STR(exec_type_text(
                  exec_dec_result_type(EXEC_DEC_MOD, ty("DECIMAL(10,2)"), ty("DECIMAL(5,1)")), A),
              "DECIMAL(6,2)");
}

TEST(json_writer_compact_and_pretty)
{
    sl_buf_t b = SL_BUF_INIT;
    sl_json_t j;
    sl_json_init(&j, &b, false);
    sl_json_object_begin(&j);
    sl_json_kv_string(&j, "id", "a\"b\\c\n\x01");
    sl_json_kv_int(&j, "n", -5);
    sl_json_kv_double(&j, "rate", 120.0);
    sl_json_key(&j, "list");
    sl_json_array_begin(&j);
    sl_json_int(&j, 1);
    sl_json_bool(&j, true);
    sl_json_null(&j);
    sl_json_array_end(&j);
    sl_json_kv_string(&j, "name", NULL);
    sl_json_object_end(&j);
    CHECK_STR(
        b.data,
        "{\"id\":\"a\\\"b\\\\c\\n\\u0001\",\"n\":-5,\"rate\":120.0,\"list\":[1,true,null],\"name\":null}");
    sl_buf_clear(&b);
    sl_json_init(&j, &b, true);
    sl_json_object_begin(&j);
    sl_json_kv_string(&j, "id", "x");
    sl_json_key(&j, "ops");
    sl_json_array_begin(&j);
    sl_json_object_begin(&j);
    sl_json_kv_int(&j, "n", 1);
    sl_json_object_end(&j);
    sl_json_array_end(&j);
    sl_json_key(&j, "empty");
    sl_json_array_begin(&j);
    sl_json_array_end(&j);
    sl_json_key(&j, "none");
    sl_json_object_begin(&j);
    sl_json_object_end(&j);
    sl_json_object_end(&j);
    CHECK_STR(
        b.data,
        "{\n  \"id\" : \"x\",\n  \"ops\" : [ {\n    \"n\" : 1\n  } ],\n  \"empty\" : [ ],\n  \"none\" : { }\n}");
    sl_buf_free(&b);
}

TEST(java_double_format)
{
    const struct {
        double v;
        const char *s;
    } cases[] = {{120.0, "120.0"},
                 {2.77700638711469, "2.77700638711469"},
                 {1e10, "1.0E10"},
                 {1e-4, "1.0E-4"},
                 {0.001, "0.001"},
                 {1234567.0, "1234567.0"},
                 {12345678.0, "1.2345678E7"},
                 {-0.5, "-0.5"},
                 {0.0, "0.0"},
                 {-0.0, "-0.0"},
                 {0.1, "0.1"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sl_buf_t b = SL_BUF_INIT;
        sl_json_format_double(&b, cases[i].v);
        CHECK_STR(b.data, cases[i].s);
        sl_buf_free(&b);
    }
}

TEST(value_compare_and_hash)
{
    exec_value_t a = exec_value_double(-0.0), b = exec_value_double(0.0),
                 nan = exec_value_double(NAN), inf = exec_value_double(INFINITY);
    CHECK_INT(exec_value_compare(&a, &b), 0);
    CHECK(exec_value_hash(&a, 1) == exec_value_hash(&b, 1));
    CHECK_INT(exec_value_compare(&nan, &inf), 1);
    exec_value_t n1 = exec_value_null(ty("INT")), i1 = exec_value_int(5), l1 = exec_value_bigint(5);
    CHECK_INT(exec_value_compare(&n1, &i1), -1);
    CHECK(exec_value_equal(&n1, &n1));
    CHECK(exec_value_hash(&i1, 7) == exec_value_hash(&l1, 7));
    exec_value_t s1 = exec_value_string("ab", 2), s2 = exec_value_string("abc", 3),
                 s3 = exec_value_string("b", 1);
    CHECK_INT(exec_value_compare(&s1, &s2), -1);
    CHECK_INT(exec_value_compare(&s2, &s3), -1);
    exec_value_t m = exec_value_interval((exec_interval_t){1, 0, 0}),
                 d = exec_value_interval((exec_interval_t){0, 30, 0}),
                 d31 = exec_value_interval((exec_interval_t){0, 31, 0});
    CHECK_INT(exec_value_compare(&m, &d31), -1);
    CHECK(!exec_value_equal(&m, &d));
}

TEST(byte_sizes_spark_and_postgresql_units)
{
    const struct {
        const char *s;
        int64_t want; /* -1: syntax error, -2: out of range */
    } cases[] = {{"0", 0},
                 {"100", 100},
                 {"100b", 100},
                 {"7 bytes", 7},
                 {"64k", 65536},
                 {"64KB", 65536},
                 {"512m", 512LL << 20},
                 {"512MB", 512LL << 20},
                 {" 1 GB ", 1LL << 30},
                 {"2g", 2LL << 30},
                 {"3t", 3LL << 40},
                 {"", -1},
                 {"m", -1},
                 {"64 parsecs", -1},
                 {"1.5g", -1},
                 {"-1m", -1},
                 {"64mbb", -1},
                 {"10000000000t", -2},
                 {"9999999999999999999", -2}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t v = -99;
        exec_parse_status_t st = exec_parse_byte_size(cases[i].s, strlen(cases[i].s), &v);
        if (cases[i].want >= 0) {
            CHECK_INT(st, EXEC_PARSE_OK);
            CHECK_INT(v, cases[i].want);
        } else {
            CHECK_INT(st, cases[i].want == -1 ? EXEC_PARSE_SYNTAX : EXEC_PARSE_RANGE);
        }
    }
}
