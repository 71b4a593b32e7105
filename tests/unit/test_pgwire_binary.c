/* Unit tests of server/pgwire_binary: for each type, PostgreSQL's exact
 * binary bytes for known values in both directions (sluice text -> binary
 * for results, binary -> sluice text for parameters), round trips, the
 * errors PostgreSQL gives for malformed values, DataRow re-encoding, and
 * the exec type a declared parameter binds as. */
#include "unit.h"

#include "common/buf.h"
#include "server/pgwire_binary.h"

/* Hex of the binary encoding of `text` as type oid ("FAIL" when refused). */
static const char *enc(uint32_t oid, const char *text)
{
    static char hex[1024];
    sl_buf_t b = SL_BUF_INIT;
    if (pgw_bin_encode(oid, text, strlen(text), &b) < 0) {
        sl_buf_free(&b);
        return "FAIL";
    }
    for (size_t i = 0; i < b.len && 2 * i + 2 < sizeof hex; i++)
        snprintf(hex + 2 * i, 3, "%02x", (unsigned char)b.data[i]);
    hex[2 * b.len] = '\0';
    sl_buf_free(&b);
    return hex;
}

/* Sluice text of the binary value given in hex, or "ERR <sqlstate>". */
static const char *dec(uint32_t oid, const char *hexbytes)
{
    static char out[1024];
    unsigned char raw[256];
    size_t n = strlen(hexbytes) / 2;
    for (size_t i = 0; i < n; i++) sscanf(hexbytes + 2 * i, "%2hhx", &raw[i]);
    sl_buf_t t = SL_BUF_INIT;
    sl_error_t err;
    if (pgw_bin_decode_param(oid, (const char *)raw, n, 1, &t, &err) < 0)
        snprintf(out, sizeof out, "ERR %s", err.sqlstate);
    else snprintf(out, sizeof out, "%s", t.data ? t.data : "");
    sl_buf_free(&t);
    return out;
}

/* Binary -> text -> binary gives the same bytes. */
static void round_trip(uint32_t oid, const char *hexbytes)
{
    char text[1024];
    snprintf(text, sizeof text, "%s", dec(oid, hexbytes));
    CHECK(strncmp(text, "ERR", 3) != 0);
    CHECK_STR(enc(oid, text), hexbytes);
}

TEST(bool_codec)
{
    CHECK_STR(enc(PG_OID_BOOL, "t"), "01");
    CHECK_STR(enc(PG_OID_BOOL, "f"), "00");
    CHECK_STR(dec(PG_OID_BOOL, "01"), "t");
    CHECK_STR(dec(PG_OID_BOOL, "00"), "f");
    CHECK_STR(dec(PG_OID_BOOL, "0101"), "ERR 22P03");
    CHECK_STR(dec(PG_OID_BOOL, ""), "ERR 08P01");
    CHECK_STR(enc(PG_OID_BOOL, "maybe"), "FAIL");
}

TEST(int2_codec)
{
    CHECK_STR(enc(PG_OID_INT2, "-2"), "fffe");
    CHECK_STR(enc(PG_OID_INT2, "40000"), "FAIL");
    CHECK_STR(dec(PG_OID_INT2, "7fff"), "32767");
    CHECK_STR(dec(PG_OID_INT2, "00000001"), "ERR 22P03");
    round_trip(PG_OID_INT2, "8000");
}

TEST(int4_codec)
{
    CHECK_STR(enc(PG_OID_INT4, "305419896"), "12345678");
    CHECK_STR(enc(PG_OID_INT4, "-1"), "ffffffff");
    CHECK_STR(dec(PG_OID_INT4, "80000000"), "-2147483648");
    CHECK_STR(dec(PG_OID_INT4, "0000000000000001"), "ERR 22P03"); /* an int8 sent for int4 */
    CHECK_STR(dec(PG_OID_INT4, "0001"), "ERR 08P01");
    round_trip(PG_OID_INT4, "0000002a");
}

TEST(int8_codec)
{
    CHECK_STR(enc(PG_OID_INT8, "1"), "0000000000000001");
    CHECK_STR(enc(PG_OID_INT8, "-9223372036854775808"), "8000000000000000");
    CHECK_STR(dec(PG_OID_INT8, "7fffffffffffffff"), "9223372036854775807");
    round_trip(PG_OID_INT8, "fffffffffffffffe");
}

TEST(oid_codec)
{
    CHECK_STR(enc(PG_OID_OID, "4294967295"), "ffffffff");
    CHECK_STR(enc(PG_OID_OID, "-1"), "FAIL");
    CHECK_STR(dec(PG_OID_OID, "00000019"), "25");
}

TEST(float4_codec)
{
    CHECK_STR(enc(PG_OID_FLOAT4, "1.5"), "3fc00000");
    CHECK_STR(dec(PG_OID_FLOAT4, "3fc00000"), "1.5");
    CHECK_STR(dec(PG_OID_FLOAT4, "7f800000"), "Infinity");
    round_trip(PG_OID_FLOAT4, "c0490fdb");
}

TEST(float8_codec)
{
    CHECK_STR(enc(PG_OID_FLOAT8, "1.5"), "3ff8000000000000");
    CHECK_STR(enc(PG_OID_FLOAT8, "0.1"), "3fb999999999999a");
    CHECK_STR(enc(PG_OID_FLOAT8, "-0"), "8000000000000000");
    CHECK_STR(enc(PG_OID_FLOAT8, "Infinity"), "7ff0000000000000");
    CHECK_STR(enc(PG_OID_FLOAT8, "-Infinity"), "fff0000000000000");
    CHECK_STR(dec(PG_OID_FLOAT8, "3fb999999999999a"), "0.1");
    CHECK_STR(dec(PG_OID_FLOAT8, "7ff8000000000000"), "NaN");
    round_trip(PG_OID_FLOAT8, "400921fb54442d18");
}

TEST(numeric_encode)
{
    /* ndigits 3, weight 1, sign +, dscale 3, digits 1 2345 6780 */
    CHECK_STR(enc(PG_OID_NUMERIC, "12345.678"), "0003000100000003000109291a7c");
    CHECK_STR(enc(PG_OID_NUMERIC, "-12345.678"), "0003000140000003000109291a7c");
    CHECK_STR(enc(PG_OID_NUMERIC, "-0.001"), "0001ffff40000003000a");
    CHECK_STR(enc(PG_OID_NUMERIC, "100000"), "0001000100000000000a");
    CHECK_STR(enc(PG_OID_NUMERIC, "0.00"), "0000000000000002");
    CHECK_STR(enc(PG_OID_NUMERIC, "0"), "0000000000000000");
    CHECK_STR(enc(PG_OID_NUMERIC, "0.00000001"), "0001fffe000000080001");
    CHECK_STR(enc(PG_OID_NUMERIC, "NaN"), "00000000c0000000");
    CHECK_STR(enc(PG_OID_NUMERIC, "Infinity"), "00000000d0000000");
    CHECK_STR(enc(PG_OID_NUMERIC, "-Infinity"), "00000000f0000000");
    CHECK_STR(enc(PG_OID_NUMERIC, "1e5"), "FAIL");
    CHECK_STR(enc(PG_OID_NUMERIC, "."), "FAIL");
}

TEST(numeric_decode)
{
    CHECK_STR(dec(PG_OID_NUMERIC, "0003000100000003000109291a7c"), "12345.678");
    CHECK_STR(dec(PG_OID_NUMERIC, "0001ffff40000003000a"), "-0.001");
    CHECK_STR(dec(PG_OID_NUMERIC, "0001000100000000000a"), "100000");
    CHECK_STR(dec(PG_OID_NUMERIC, "0000000000000002"), "0.00");
    CHECK_STR(dec(PG_OID_NUMERIC, "00000000c0000000"), "NaN");
    CHECK_STR(dec(PG_OID_NUMERIC, "00000000d0000000"), "Infinity");
    CHECK_STR(dec(PG_OID_NUMERIC, "00000000f0000000"), "-Infinity");
    /* 123456789012345678901234567890.123456789 (more than 64 bits) */
    round_trip(PG_OID_NUMERIC, "000b000700000009000c0d801ed204d2162e23340d801ed204d2162e2328");
    CHECK_STR(dec(PG_OID_NUMERIC, "000b000700000009000c0d801ed204d2162e23340d801ed204d2162e2328"),
              "123456789012345678901234567890.123456789");
    CHECK_STR(dec(PG_OID_NUMERIC, "000100000000000027100000"), "ERR 22P03"); /* too long */
    CHECK_STR(dec(PG_OID_NUMERIC, "0001000000000000"), "ERR 08P01");         /* digit missing */
    CHECK_STR(dec(PG_OID_NUMERIC, "00010000000000002710"), "ERR 22P03");     /* digit 10000 */
    CHECK_STR(dec(PG_OID_NUMERIC, "00010000123400000001"), "ERR 22P03");     /* sign */
    CHECK_STR(dec(PG_OID_NUMERIC, "0001000000004000000001"), "ERR 22P03");   /* scale */
    CHECK_STR(dec(PG_OID_NUMERIC, "ffff000000000000"), "ERR 22P03");         /* length */
}

TEST(text_codecs)
{
    static const uint32_t oids[] = {PG_OID_TEXT, PG_OID_VARCHAR, PG_OID_BPCHAR,
                                    PG_OID_NAME, PG_OID_JSON,    PG_OID_UNKNOWN};
    for (size_t i = 0; i < sizeof oids / sizeof oids[0]; i++) {
        CHECK_STR(enc(oids[i], "h\xc3\xa9"), "68c3a9");
        CHECK_STR(dec(oids[i], "68c3a9"), "h\xc3\xa9");
        CHECK_STR(dec(oids[i], "610062"), "ERR 22021");
    }
    CHECK_STR(enc(PG_OID_CHAR, "r"), "72");
    CHECK_STR(dec(PG_OID_CHAR, "72"), "r");
}

TEST(jsonb_codec)
{
    CHECK_STR(enc(PG_OID_JSONB, "{\"a\":1}"), "017b2261223a317d");
    CHECK_STR(dec(PG_OID_JSONB, "017b2261223a317d"), "{\"a\":1}");
    CHECK_STR(dec(PG_OID_JSONB, "027b7d"), "ERR 22P03");
    CHECK_STR(dec(PG_OID_JSONB, ""), "ERR 08P01");
}

TEST(bytea_codec)
{
    CHECK_STR(enc(PG_OID_BYTEA, "\\x00ff41"), "00ff41");
    CHECK_STR(enc(PG_OID_BYTEA, "a\\\\b\\001"), "615c6201");
    CHECK_STR(enc(PG_OID_BYTEA, "\\x0"), "FAIL");
    CHECK_STR(dec(PG_OID_BYTEA, "00ff41"), "\\x00ff41");
    CHECK_STR(dec(PG_OID_BYTEA, ""), "\\x");
    round_trip(PG_OID_BYTEA, "deadbeef00");
}

TEST(date_codec)
{
    CHECK_STR(enc(PG_OID_DATE, "2000-01-01"), "00000000");
    CHECK_STR(enc(PG_OID_DATE, "2024-05-01"), "000022b7"); /* 8887 days */
    CHECK_STR(enc(PG_OID_DATE, "1999-12-31"), "ffffffff");
    CHECK_STR(dec(PG_OID_DATE, "000022b7"), "2024-05-01");
    CHECK_STR(dec(PG_OID_DATE, "7fffffff"), "ERR 22008"); /* infinity */
    round_trip(PG_OID_DATE, "fff4e4e8");
}

TEST(time_codec)
{
    CHECK_STR(enc(PG_OID_TIME, "12:00:10.5"), "0000000a0f8be7a0");
    CHECK_STR(dec(PG_OID_TIME, "0000000a0f8be7a0"), "12:00:10.5");
    CHECK_STR(dec(PG_OID_TIME, "0000000000000000"), "00:00:00");
    CHECK_STR(dec(PG_OID_TIME, "ffffffffffffffff"), "ERR 22008");
}

TEST(timestamp_codec)
{
    static const uint32_t oids[] = {PG_OID_TIMESTAMP, PG_OID_TIMESTAMPTZ};
    for (int i = 0; i < 2; i++) {
        CHECK_STR(enc(oids[i], "2000-01-01 00:00:00"), "0000000000000000");
        CHECK_STR(enc(oids[i], "2024-05-01 12:00:10.123456"), "0002ba61ff3bc8c0");
        CHECK_STR(dec(oids[i], "0002ba61ff3bc8c0"), "2024-05-01 12:00:10.123456");
        CHECK_STR(dec(oids[i], "7fffffffffffffff"), "ERR 22008"); /* infinity */
        round_trip(oids[i], "fffffffffffffff6");
    }
    CHECK_STR(enc(PG_OID_TIMESTAMPTZ, "2024-05-01 14:00:10.123456+02"), "0002ba61ff3bc8c0");
}

TEST(interval_codec)
{
    /* micros 4:05:06.5, days 3, months 14 */
    CHECK_STR(enc(PG_OID_INTERVAL, "1 year 2 mons 3 days 04:05:06.5"),
              "000000036c9361a0000000030000000e");
    CHECK_STR(dec(PG_OID_INTERVAL, "000000036c9361a0000000030000000e"),
              "1 year 2 mons 3 days 04:05:06.5");
    CHECK_STR(dec(PG_OID_INTERVAL, "0000000000000000ffffffff00000000"), "-1 days");
    CHECK_STR(dec(PG_OID_INTERVAL, "00000001ad274800ffffffff00000000"), "-1 days +02:00:00");
    round_trip(PG_OID_INTERVAL, "00000001ad274800ffffffff00000000");
    round_trip(PG_OID_INTERVAL, "fffffffffffffc1800000000fffffff4");
    CHECK_STR(dec(PG_OID_INTERVAL, "0000000000000000"), "ERR 08P01");
}

TEST(uuid_codec)
{
    CHECK_STR(enc(PG_OID_UUID, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"),
              "a0eebc999c0b4ef8bb6d6bb9bd380a11");
    CHECK_STR(dec(PG_OID_UUID, "a0eebc999c0b4ef8bb6d6bb9bd380a11"),
              "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
    CHECK_STR(enc(PG_OID_UUID, "a0ee"), "FAIL");
}

TEST(undeclared_and_unknown_types)
{
    CHECK_STR(dec(0, "0000002a"), "ERR 22P03");
    CHECK_STR(dec(1007, "00"), "ERR 42883"); /* int4[] */
    CHECK(!pgw_bin_can_send(600));           /* point */
    CHECK(pgw_bin_can_send(PG_OID_NUMERIC));
    CHECK_STR(enc(600, "(1,2)"), "FAIL");
    CHECK_STR(pgw_bin_type_name(PG_OID_INT4), "integer");
}

TEST(declared_parameter_types)
{
    CHECK_INT(pgw_bin_param_type(PG_OID_NUMERIC), EXEC_TYPE_DECIMAL);
    CHECK_INT(pgw_bin_param_type(PG_OID_INT2), EXEC_TYPE_INT);
    CHECK_INT(pgw_bin_param_type(PG_OID_INT4), EXEC_TYPE_INT);
    CHECK_INT(pgw_bin_param_type(PG_OID_INT8), EXEC_TYPE_BIGINT);
    CHECK_INT(pgw_bin_param_type(PG_OID_FLOAT4), EXEC_TYPE_DOUBLE);
    CHECK_INT(pgw_bin_param_type(PG_OID_TIMESTAMP), EXEC_TYPE_TIMESTAMP);
    CHECK_INT(pgw_bin_param_type(PG_OID_TIMESTAMPTZ), EXEC_TYPE_TIMESTAMP);
    CHECK_INT(pgw_bin_param_type(PG_OID_DATE), EXEC_TYPE_DATE);
    CHECK_INT(pgw_bin_param_type(PG_OID_INTERVAL), EXEC_TYPE_INTERVAL);
    CHECK_INT(pgw_bin_param_type(PG_OID_BOOL), EXEC_TYPE_BOOLEAN);
    CHECK_INT(pgw_bin_param_type(PG_OID_BYTEA), EXEC_TYPE_BINARY);
    CHECK_INT(pgw_bin_param_type(PG_OID_TEXT), EXEC_TYPE_NULL);
    CHECK_INT(pgw_bin_param_type(PG_OID_VARCHAR), EXEC_TYPE_NULL);
    CHECK_INT(pgw_bin_param_type(PG_OID_UNKNOWN), EXEC_TYPE_NULL);
    CHECK_INT(pgw_bin_param_type(0), EXEC_TYPE_NULL);
    CHECK_INT(pgw_bin_param_type(1007), EXEC_TYPE_NULL);
}

/* A text DataRow body: int4 "42", text "x", NULL, numeric "1.5". */
static void text_row(sl_buf_t *b)
{
    const char *vals[] = {"42", "x", NULL, "1.5"};
    sl_buf_put_u16be(b, 4);
    for (int i = 0; i < 4; i++) {
        if (!vals[i]) {
            sl_buf_put_u32be(b, 0xFFFFFFFFu);
            continue;
        }
        sl_buf_put_u32be(b, (uint32_t)strlen(vals[i]));
        sl_buf_puts(b, vals[i]);
    }
}

static const char *row_hex(const sl_buf_t *b)
{
    static char hex[512];
    for (size_t i = 0; i < b->len; i++) snprintf(hex + 2 * i, 3, "%02x", (unsigned char)b->data[i]);
    hex[2 * b->len] = '\0';
    return hex;
}

TEST(datarow_formats)
{
    sess_col_t cols[4] = {{"a", PG_OID_INT4, 4, -1},
                          {"b", PG_OID_TEXT, -1, -1},
                          {"c", PG_OID_INT8, 8, -1},
                          {"d", PG_OID_NUMERIC, -1, -1}};
    sl_buf_t in = SL_BUF_INIT, out = SL_BUF_INIT;
    sl_error_t err;
    text_row(&in);
    int16_t all_binary[] = {1};
    CHECK_INT(pgw_bin_datarow(&out, in.data, in.len, 4, cols, all_binary, 1, &err), 0);
    CHECK_STR(row_hex(&out), "0004"
                             "000000040000002a"
                             "0000000178"
                             "ffffffff"
                             "0000000c000200000000000100011388"); /* 1.5: digits 1 5000 */
    sl_buf_clear(&out);
    int16_t mixed[] = {0, 1, 1, 0};
    CHECK_INT(pgw_bin_datarow(&out, in.data, in.len, 4, cols, mixed, 4, &err), 0);
    CHECK_STR(row_hex(&out), "0004"
                             "000000023432"
                             "0000000178"
                             "ffffffff"
                             "00000003312e35");
    sl_buf_clear(&out);
    CHECK_INT(pgw_bin_datarow(&out, in.data, in.len, 4, cols, NULL, 0, &err), 0);
    CHECK(out.len == in.len && !memcmp(out.data, in.data, in.len));
    sl_buf_clear(&out);
    cols[1].type_oid = PG_OID_INT4; /* "x" is no integer */
    CHECK_INT(pgw_bin_datarow(&out, in.data, in.len, 4, cols, all_binary, 1, &err), -1);
    CHECK_STR(err.sqlstate, "22P03");
    sl_buf_free(&in);
    sl_buf_free(&out);
}

TEST(format_codes)
{
    int16_t one[] = {1}, per[] = {0, 1, 0};
    CHECK_INT(pgw_bin_format_of(NULL, 0, 5), 0);
    CHECK_INT(pgw_bin_format_of(one, 1, 5), 1);
    CHECK_INT(pgw_bin_format_of(per, 3, 1), 1);
    CHECK_INT(pgw_bin_format_of(per, 3, 2), 0);
    CHECK_INT(pgw_bin_format_of(per, 3, 7), 0);
}

TEST(array_encode)
{
    /* PostgreSQL 15's array_send / int2vectorsend of the same values */
    CHECK_STR(enc(1007, "{1,NULL,3}"),
              "00000001000000010000001700000003000000010000000400000001ffffffff0000000400000003");
    CHECK_STR(enc(1009, "{}"), "000000000000000000000019");
    CHECK_STR(enc(1009, "{\"a\\\"b\",\"c,d\"}"),
              "00000001000000000000001900000002000000010000000361226200000003632c64");
    CHECK_STR(enc(22, "1 2"), "0000000100000000000000150000000200000000000000020001000000020002");
    CHECK_STR(enc(1115, "{\"2024-05-01 12:00:00\"}"),
              "00000001000000000000045a0000000100000001000000080002ba61fea15000");
    CHECK_STR(enc(1009, "{\"\"}"), "000000010000000000000019000000010000000100000000");
    CHECK_STR(enc(1007, "{{1,2},{3,4}}"), "FAIL"); /* more than one dimension */
    CHECK_STR(enc(1007, "{1,x}"), "FAIL");
    CHECK_STR(enc(1007, "{1,}"), "FAIL");
    CHECK_STR(enc(1007, "1,2"), "FAIL");
    CHECK_STR(enc(1009, "{\"open}"), "FAIL");
    CHECK(pgw_bin_can_send(1009) && pgw_bin_can_send(30));
    CHECK_STR(pgw_bin_type_name(1009), "text[]");
    CHECK_STR(dec(1007, "000000000000000000000017"), "ERR 42883"); /* results only */
}
