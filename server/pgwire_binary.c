/* PostgreSQL's binary wire format: one receive (binary -> sluice text) and
 * one send (sluice text -> binary) function per type, in one table keyed
 * by type OID. The encodings are PostgreSQL's send and receive functions':
 *
 *   bool      1 byte, 0 or 1
 *   int2/4/8  two's complement big-endian; oid uint32
 *   float4/8  IEEE 754 big-endian
 *   numeric   int16 ndigits, int16 weight, uint16 sign (0x0000 +, 0x4000 -,
 *             0xC000 NaN, 0xD000 +Infinity, 0xF000 -Infinity), uint16
 *             dscale, then ndigits base-10000 digits (uint16), the first of
 *             weight `weight` (value = sum digit[i] * 10000^(weight - i))
 *   date      int32 days since 2000-01-01
 *   time      int64 microseconds since midnight
 *   timestamp int64 microseconds since 2000-01-01 00:00 (timestamptz: UTC)
 *   interval  int64 microseconds, int32 days, int32 months
 *   uuid      16 bytes
 *   jsonb     version byte 1, then the JSON text
 *   text, varchar, bpchar, name, json, unknown, bytea: the bytes themselves
 *   arrays    (results only) int32 ndim (0 when empty), int32 has-nulls,
 *             uint32 element OID, per dimension int32 size and lower bound,
 *             then each element as int32 length (-1 NULL) and its binary;
 *             int2vector and oidvector likewise, with lower bound 0
 *
 * Why text is the meeting point. Parameters: the binder already types a
 * text parameter by its declared OID (exec_value_parse, the same code as a
 * typed literal), so decoding binary into sluice's canonical text keeps one
 * path from the wire to a typed constant, and the session and planner know
 * nothing of wire formats. Results: every statement handler (SELECT, SHOW,
 * DESCRIBE, EXPLAIN, the catalog) produces PostgreSQL text, whose form per
 * type is fixed by model/text_io.h and exact (doubles print shortest
 * round-trip, decimals with exactly their scale, timestamps to the
 * microsecond). Encoding binary here from that text serves every handler at
 * once, keeps simple Query, COPY and the kept replies of portals in one
 * format, and costs one parse per binary value, written straight into the
 * output buffer (no allocation per value). Producing typed rows in the
 * session instead would change every handler and the reply layout for a
 * gain in speed only on the rarely used binary path. */
#include "server/pgwire_binary.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model/text_io.h"

#define BIN_EPOCH_DAYS 10957 /* 2000-01-01 - 1970-01-01 */
#define BIN_EPOCH_USECS ((int64_t)BIN_EPOCH_DAYS * EXEC_USECS_PER_DAY)
#define NUMERIC_POS 0x0000
#define NUMERIC_NEG 0x4000
#define NUMERIC_NAN 0xC000
#define NUMERIC_PINF 0xD000
#define NUMERIC_NINF 0xF000
#define NUMERIC_NBASE 10000
#define NUMERIC_DSCALE_MASK 0x3FFF
#define NUMERIC_MAX_NDIGITS 3000 /* PostgreSQL's precision + result scale */

/* What a receive function returns besides 0 (-1: err is set). */
enum { BIN_SHORT = -2, BIN_LONG = -3 };

typedef int (*bin_recv_fn)(const unsigned char *p, size_t n, sl_buf_t *text, sl_error_t *err);
typedef int (*bin_send_fn)(const char *s, size_t n, sl_buf_t *out);

typedef struct bin_codec {
    uint32_t oid;
    const char *name;     /* PostgreSQL's name, for messages */
    int len;              /* bytes of every binary value; -1 variable */
    exec_type_id_t param; /* what a declared parameter binds as */
    bin_recv_fn recv;
    bin_send_fn send;
} bin_codec_t;

/* ---- small helpers ---------------------------------------------------------- */

static int64_t get_i64(const unsigned char *p)
{
    return (int64_t)(((uint64_t)sl_get_u32be(p) << 32) | sl_get_u32be(p + 4));
}

static int bad_binary(sl_error_t *err, const char *what)
{
    return sl_error_set(err, SL_ERR_INVALID_BINARY_REPRESENTATION,
                        "invalid %s in external \"numeric\" value", what);
}

/* Appends .ffffff with trailing zeros trimmed (nothing for 0). */
static void put_fraction(sl_buf_t *t, int64_t usecs)
{
    if (!usecs) return;
    char frac[8];
    snprintf(frac, sizeof frac, "%06d", (int)usecs);
    int k = 6;
    while (frac[k - 1] == '0') k--;
    sl_buf_putc(t, '.');
    sl_buf_append(t, frac, (size_t)k);
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* ---- receive: binary -> sluice text ---------------------------------------- */

static int recv_bool(const unsigned char *p, size_t n, sl_buf_t *t, sl_error_t *err)
{
    (void)n, (void)err;
    sl_buf_putc(t, p[0] ? 't' : 'f');
    return 0;
}

static int recv_int2(const unsigned char *p, size_t n, sl_buf_t *t, sl_error_t *err)
{
    (void)n, (void)err;
    sl_buf_printf(t, "%d", (int16_t)sl_get_u16be(p));
    return 0;
}

static int recv_int4(const unsigned char *p, size_t n, sl_buf_t *t, sl_error_t *err)
{
    (void)n, (void)err;
    sl_buf_printf(t, "%d", (int32_t)sl_get_u32be(p));
    return 0;
}

static int recv_oid(const unsigned char *p, size_t n, sl_buf_t *t, sl_error_t *err)
{
    (void)n, (void)err;
    sl_buf_printf(t, "%u", sl_get_u32be(p));
    return 0;
}

static int recv_int8(const unsigned char *p, size_t n, sl_buf_t *t, sl_error_t *err)
{
    (void)n, (void)err;
    sl_buf_printf(t, "%lld", (long long)get_i64(p));
    return 0;
}

static int recv_float4(const unsigned char *p, size_t n, sl_buf_t *t, sl_error_t *err)
{
    (void)n, (void)err;
    uint32_t bits = sl_get_u32be(p);
    float f;
    memcpy(&f, &bits, sizeof f);
    exec_format_double((double)f, t);
    return 0;
}

static int recv_float8(const unsigned char *p, size_t n, sl_buf_t *t, sl_error_t *err)
{
    (void)n, (void)err;
    uint64_t bits = (uint64_t)get_i64(p);
    double d;
    memcpy(&d, &bits, sizeof d);
    exec_format_double(d, t);
    return 0;
}

/* Text types: the bytes, which must hold no NUL (PostgreSQL checks the
 * encoding; a NUL is what would cut sluice's text short). */
static int recv_text(const unsigned char *p, size_t n, sl_buf_t *t, sl_error_t *err)
{
    if (memchr(p, '\0', n))
        return sl_error_set(err, SL_ERR_CHARACTER_NOT_IN_REPERTOIRE,
                            "invalid byte sequence for encoding \"UTF8\": 0x00");
    sl_buf_append(t, p, n);
    return 0;
}

static int recv_jsonb(const unsigned char *p, size_t n, sl_buf_t *t, sl_error_t *err)
{
    if (n < 1) return BIN_SHORT;
    if (p[0] != 1)
        return sl_error_set(err, SL_ERR_INVALID_BINARY_REPRESENTATION,
                            "unsupported jsonb version number %d", p[0]);
    return recv_text(p + 1, n - 1, t, err);
}

static int recv_bytea(const unsigned char *p, size_t n, sl_buf_t *t, sl_error_t *err)
{
    (void)err;
    exec_format_bytea((const char *)p, n, t);
    return 0;
}

static int recv_char(const unsigned char *p, size_t n, sl_buf_t *t, sl_error_t *err)
{
    (void)n;
    if (p[0]) return recv_text(p, 1, t, err);
    return 0;
}

static int recv_date(const unsigned char *p, size_t n, sl_buf_t *t, sl_error_t *err)
{
    (void)n;
    int64_t days = (int64_t)(int32_t)sl_get_u32be(p) + BIN_EPOCH_DAYS;
    if (days < EXEC_DATE_MIN || days >= EXEC_DATE_END)
        return sl_error_set(err, SL_ERR_DATETIME_FIELD_OVERFLOW, "date out of range");
    exec_format_date((int32_t)days, t);
    return 0;
}

static int recv_time(const unsigned char *p, size_t n, sl_buf_t *t, sl_error_t *err)
{
    (void)n;
    int64_t us = get_i64(p);
    if (us < 0 || us > EXEC_USECS_PER_DAY)
        return sl_error_set(err, SL_ERR_DATETIME_FIELD_OVERFLOW, "time out of range");
    int64_t s = us / EXEC_USECS_PER_SEC;
    sl_buf_printf(t, "%02d:%02d:%02d", (int)(s / 3600), (int)(s / 60 % 60), (int)(s % 60));
    put_fraction(t, us % EXEC_USECS_PER_SEC);
    return 0;
}

static int recv_timestamp(const unsigned char *p, size_t n, sl_buf_t *t, sl_error_t *err)
{
    (void)n;
    int64_t us = get_i64(p);
    if (us < EXEC_TS_MIN - BIN_EPOCH_USECS || us >= EXEC_TS_END - BIN_EPOCH_USECS)
        return sl_error_set(err, SL_ERR_DATETIME_FIELD_OVERFLOW, "timestamp out of range");
    exec_format_timestamp(us + BIN_EPOCH_USECS, t);
    return 0;
}

static int recv_interval(const unsigned char *p, size_t n, sl_buf_t *t, sl_error_t *err)
{
    (void)n, (void)err;
    exec_interval_t iv = {.micros = get_i64(p),
                          .days = (int32_t)sl_get_u32be(p + 8),
                          .months = (int32_t)sl_get_u32be(p + 12)};
    exec_format_interval(iv, t);
    return 0;
}

static int recv_uuid(const unsigned char *p, size_t n, sl_buf_t *t, sl_error_t *err)
{
    (void)n, (void)err;
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) sl_buf_putc(t, '-');
        char two[2] = {hex[p[i] >> 4], hex[p[i] & 15]};
        sl_buf_append(t, two, 2);
    }
    return 0;
}

/* The decimal text of a finite numeric: sign, integer part (at least "0"),
 * then exactly dscale fraction digits. */
static void numeric_text(const unsigned char *dg, int nd, int weight, int neg, int dscale,
                         sl_buf_t *t)
{
    int nonzero = 0;
    for (int i = 0; i < nd; i++) nonzero |= sl_get_u16be(dg + 2 * i) != 0;
    if (neg && nonzero) sl_buf_putc(t, '-');
    int lead = 1;
    for (int i = 0; i <= weight; i++) {
        int d = i < nd ? sl_get_u16be(dg + 2 * i) : 0;
        if (lead && d == 0 && i < weight) continue;
        sl_buf_printf(t, lead ? "%d" : "%04d", d);
        lead = 0;
    }
    if (weight < 0) sl_buf_putc(t, '0');
    if (dscale > 0) sl_buf_putc(t, '.');
    for (int i = weight + 1, left = dscale; left > 0; i++) {
        int d = i >= 0 && i < nd ? sl_get_u16be(dg + 2 * i) : 0;
        char four[5];
        snprintf(four, sizeof four, "%04d", d);
        sl_buf_append(t, four, left < 4 ? (size_t)left : 4);
        left -= 4;
    }
}

static int recv_numeric(const unsigned char *p, size_t n, sl_buf_t *t, sl_error_t *err)
{
    if (n < 8) return BIN_SHORT;
    int nd = (int16_t)sl_get_u16be(p), weight = (int16_t)sl_get_u16be(p + 2);
    unsigned sign = sl_get_u16be(p + 4), dscale = sl_get_u16be(p + 6);
    if (nd < 0 || nd > NUMERIC_MAX_NDIGITS) return bad_binary(err, "length");
    if (n < 8 + 2 * (size_t)nd) return BIN_SHORT;
    if (n > 8 + 2 * (size_t)nd) return BIN_LONG;
    if (sign == NUMERIC_NAN || sign == NUMERIC_PINF || sign == NUMERIC_NINF) {
        sl_buf_puts(t, sign == NUMERIC_NAN    ? "NaN"
                       : sign == NUMERIC_PINF ? "Infinity"
                                              : "-Infinity");
        return 0;
    }
    if (sign != NUMERIC_POS && sign != NUMERIC_NEG) return bad_binary(err, "sign");
    if ((dscale & NUMERIC_DSCALE_MASK) != dscale) return bad_binary(err, "scale");
    for (int i = 0; i < nd; i++)
        if (sl_get_u16be(p + 8 + 2 * i) >= NUMERIC_NBASE) return bad_binary(err, "digit");
    numeric_text(p + 8, nd, weight, sign == NUMERIC_NEG, (int)dscale, t);
    return 0;
}

/* ---- send: sluice text -> binary -------------------------------------------- */

static int send_bool(const char *s, size_t n, sl_buf_t *out)
{
    uint8_t v;
    if (exec_parse_bool(s, n, &v) != EXEC_PARSE_OK) return -1;
    sl_buf_putc(out, (char)v);
    return 0;
}

static int send_int2(const char *s, size_t n, sl_buf_t *out)
{
    int32_t v;
    if (exec_parse_int32(s, n, &v) != EXEC_PARSE_OK || v < INT16_MIN || v > INT16_MAX) return -1;
    sl_buf_put_u16be(out, (uint16_t)v);
    return 0;
}

static int send_int4(const char *s, size_t n, sl_buf_t *out)
{
    int32_t v;
    if (exec_parse_int32(s, n, &v) != EXEC_PARSE_OK) return -1;
    sl_buf_put_u32be(out, (uint32_t)v);
    return 0;
}

static int send_oid(const char *s, size_t n, sl_buf_t *out)
{
    int64_t v;
    if (exec_parse_int64(s, n, &v) != EXEC_PARSE_OK || v < 0 || v > UINT32_MAX) return -1;
    sl_buf_put_u32be(out, (uint32_t)v);
    return 0;
}

static int send_int8(const char *s, size_t n, sl_buf_t *out)
{
    int64_t v;
    if (exec_parse_int64(s, n, &v) != EXEC_PARSE_OK) return -1;
    sl_buf_put_u64be(out, (uint64_t)v);
    return 0;
}

static int send_float4(const char *s, size_t n, sl_buf_t *out)
{
    double d;
    if (exec_parse_double(s, n, &d) != EXEC_PARSE_OK) return -1;
    float f = (float)d;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    sl_buf_put_u32be(out, bits);
    return 0;
}

static int send_float8(const char *s, size_t n, sl_buf_t *out)
{
    double d;
    if (exec_parse_double(s, n, &d) != EXEC_PARSE_OK) return -1;
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    sl_buf_put_u64be(out, bits);
    return 0;
}

static int send_text(const char *s, size_t n, sl_buf_t *out)
{
    sl_buf_append(out, s, n);
    return 0;
}

static int send_jsonb(const char *s, size_t n, sl_buf_t *out)
{
    sl_buf_putc(out, 1);
    sl_buf_append(out, s, n);
    return 0;
}

static int send_char(const char *s, size_t n, sl_buf_t *out)
{
    if (n > 1) return -1;
    sl_buf_putc(out, n ? s[0] : '\0');
    return 0;
}

/* bytea text: \x hex digits, or the escape form (\\ and \ooo). */
static int send_bytea(const char *s, size_t n, sl_buf_t *out)
{
    if (n >= 2 && s[0] == '\\' && s[1] == 'x') {
        if (n % 2) return -1;
        for (size_t i = 2; i < n; i += 2) {
            int hi = hex_value(s[i]), lo = hex_value(s[i + 1]);
            if (hi < 0 || lo < 0) return -1;
            sl_buf_putc(out, (char)(hi << 4 | lo));
        }
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\') {
            sl_buf_putc(out, s[i]);
        } else if (i + 1 < n && s[i + 1] == '\\') {
            sl_buf_putc(out, '\\');
            i++;
        } else if (i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' &&
                   s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
            sl_buf_putc(out,
                        (char)((s[i + 1] - '0') << 6 | (s[i + 2] - '0') << 3 | (s[i + 3] - '0')));
            i += 3;
        } else {
            return -1;
        }
    }
    return 0;
}

static int send_date(const char *s, size_t n, sl_buf_t *out)
{
    int32_t days;
    if (exec_parse_date(s, n, &days) != EXEC_PARSE_OK) return -1;
    sl_buf_put_u32be(out, (uint32_t)(days - BIN_EPOCH_DAYS));
    return 0;
}

static int send_time(const char *s, size_t n, sl_buf_t *out)
{
    exec_interval_t iv;
    if (exec_parse_interval(s, n, &iv) != EXEC_PARSE_OK || iv.months || iv.days || iv.micros < 0 ||
        iv.micros > EXEC_USECS_PER_DAY)
        return -1;
    sl_buf_put_u64be(out, (uint64_t)iv.micros);
    return 0;
}

static int send_timestamp(const char *s, size_t n, sl_buf_t *out)
{
    int64_t us;
    if (exec_parse_timestamp(s, n, &us) != EXEC_PARSE_OK) return -1;
    sl_buf_put_u64be(out, (uint64_t)(us - BIN_EPOCH_USECS));
    return 0;
}

static int send_interval(const char *s, size_t n, sl_buf_t *out)
{
    exec_interval_t iv;
    if (exec_parse_interval(s, n, &iv) != EXEC_PARSE_OK) return -1;
    sl_buf_put_u64be(out, (uint64_t)iv.micros);
    sl_buf_put_u32be(out, (uint32_t)iv.days);
    sl_buf_put_u32be(out, (uint32_t)iv.months);
    return 0;
}

static int send_uuid(const char *s, size_t n, sl_buf_t *out)
{
    unsigned char b[16];
    int k = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '-') continue;
        int h = hex_value(s[i]);
        if (h < 0 || k >= 32) return -1;
        b[k / 2] = (unsigned char)(k % 2 ? b[k / 2] | h : h << 4);
        k++;
    }
    if (k != 32) return -1;
    sl_buf_append(out, b, sizeof b);
    return 0;
}

/* Base-10000 digit `k` of a decimal whose integer digits are int_d[0..ni)
 * (ig groups of them, the first padded on the left) and fraction digits
 * frac_d[0..nf) (padded on the right). */
static int numeric_group(const char *int_d, int ni, int ig, const char *frac_d, int nf, int k)
{
    const char *d = k < ig ? int_d : frac_d;
    int len = k < ig ? ni : nf;
    int start = k < ig ? ni - 4 * (ig - k) : 4 * (k - ig);
    int v = 0;
    for (int j = start; j < start + 4; j++) v = v * 10 + (j >= 0 && j < len ? d[j] - '0' : 0);
    return v;
}

static void numeric_header(sl_buf_t *out, int nd, int weight, unsigned sign, int dscale)
{
    sl_buf_put_u16be(out, (uint16_t)nd);
    sl_buf_put_u16be(out, (uint16_t)weight);
    sl_buf_put_u16be(out, (uint16_t)sign);
    sl_buf_put_u16be(out, (uint16_t)dscale);
}

static size_t count_digits(const char *s, size_t i, size_t n)
{
    size_t k = i;
    while (k < n && s[k] >= '0' && s[k] <= '9') k++;
    return k - i;
}

static int send_numeric(const char *s, size_t n, sl_buf_t *out)
{
    unsigned special = n == 3 && !memcmp(s, "NaN", 3)         ? NUMERIC_NAN
                       : n == 8 && !memcmp(s, "Infinity", 8)  ? NUMERIC_PINF
                       : n == 9 && !memcmp(s, "-Infinity", 9) ? NUMERIC_NINF
                                                              : 0;
    if (special) return numeric_header(out, 0, 0, special, 0), 0;
    size_t i = n > 0 && (s[0] == '-' || s[0] == '+') ? 1 : 0;
    int neg = n > 0 && s[0] == '-';
    size_t ni = count_digits(s, i, n), nf = 0;
    const char *int_d = s + i, *frac_d = s + i + ni;
    if (i + ni < n && s[i + ni] == '.') {
        frac_d++;
        nf = count_digits(s, i + ni + 1, n);
        if (i + ni + 1 + nf != n) return -1;
    } else if (i + ni != n) {
        return -1;
    }
    if (ni + nf == 0 || ni + nf > 4 * NUMERIC_MAX_NDIGITS) return -1;
    while (ni > 0 && *int_d == '0') int_d++, ni--;
    int ig = (int)(ni + 3) / 4, total = ig + (int)(nf + 3) / 4, first = -1, last = -1;
    for (int k = 0; k < total; k++)
        if (numeric_group(int_d, (int)ni, ig, frac_d, (int)nf, k))
            last = k, first = first < 0 ? k : first;
    if (first < 0) return numeric_header(out, 0, 0, NUMERIC_POS, (int)nf), 0;
    numeric_header(out, last - first + 1, ig - 1 - first, neg ? NUMERIC_NEG : NUMERIC_POS, (int)nf);
    for (int k = first; k <= last; k++)
        sl_buf_put_u16be(out, (uint16_t)numeric_group(int_d, (int)ni, ig, frac_d, (int)nf, k));
    return 0;
}

/* ---- the table ----------------------------------------------------------------- */

static const bin_codec_t codecs[] = {
    {PG_OID_BOOL, "boolean", 1, EXEC_TYPE_BOOLEAN, recv_bool, send_bool},
    {PG_OID_BYTEA, "bytea", -1, EXEC_TYPE_BINARY, recv_bytea, send_bytea},
    {PG_OID_CHAR, "\"char\"", 1, EXEC_TYPE_NULL, recv_char, send_char},
    {PG_OID_NAME, "name", -1, EXEC_TYPE_NULL, recv_text, send_text},
    {PG_OID_INT8, "bigint", 8, EXEC_TYPE_BIGINT, recv_int8, send_int8},
    {PG_OID_INT2, "smallint", 2, EXEC_TYPE_INT, recv_int2, send_int2},
    {PG_OID_INT4, "integer", 4, EXEC_TYPE_INT, recv_int4, send_int4},
    {PG_OID_TEXT, "text", -1, EXEC_TYPE_NULL, recv_text, send_text},
    {PG_OID_OID, "oid", 4, EXEC_TYPE_BIGINT, recv_oid, send_oid},
    {PG_OID_JSON, "json", -1, EXEC_TYPE_NULL, recv_text, send_text},
    {PG_OID_FLOAT4, "real", 4, EXEC_TYPE_DOUBLE, recv_float4, send_float4},
    {PG_OID_FLOAT8, "double precision", 8, EXEC_TYPE_DOUBLE, recv_float8, send_float8},
    {PG_OID_UNKNOWN, "unknown", -1, EXEC_TYPE_NULL, recv_text, send_text},
    {PG_OID_BPCHAR, "character", -1, EXEC_TYPE_NULL, recv_text, send_text},
    {PG_OID_VARCHAR, "character varying", -1, EXEC_TYPE_NULL, recv_text, send_text},
    {PG_OID_DATE, "date", 4, EXEC_TYPE_DATE, recv_date, send_date},
    {PG_OID_TIME, "time without time zone", 8, EXEC_TYPE_NULL, recv_time, send_time},
    {PG_OID_TIMESTAMP, "timestamp without time zone", 8, EXEC_TYPE_TIMESTAMP, recv_timestamp,
     send_timestamp},
    {PG_OID_TIMESTAMPTZ, "timestamp with time zone", 8, EXEC_TYPE_TIMESTAMP, recv_timestamp,
     send_timestamp},
    {PG_OID_INTERVAL, "interval", 16, EXEC_TYPE_INTERVAL, recv_interval, send_interval},
    {PG_OID_NUMERIC, "numeric", -1, EXEC_TYPE_DECIMAL, recv_numeric, send_numeric},
    {PG_OID_UUID, "uuid", 16, EXEC_TYPE_NULL, recv_uuid, send_uuid},
    {PG_OID_JSONB, "jsonb", -1, EXEC_TYPE_NULL, recv_jsonb, send_jsonb},
};

static const bin_codec_t *codec_of(uint32_t oid)
{
    for (size_t i = 0; i < sizeof codecs / sizeof codecs[0]; i++)
        if (codecs[i].oid == oid) return &codecs[i];
    return NULL;
}

/* ---- arrays (result columns of the catalog) ----------------------------------- */

typedef struct bin_array {
    uint32_t oid;
    uint32_t elem;
    const char *name;
    char delim; /* between elements in the text: ',' or, for the vectors, ' ' */
    int lbound; /* 1, or 0 for int2vector and oidvector */
} bin_array_t;

static const bin_array_t arrays[] = {
    {1000, PG_OID_BOOL, "boolean[]", ',', 1},
    {1001, PG_OID_BYTEA, "bytea[]", ',', 1},
    {1002, PG_OID_CHAR, "\"char\"[]", ',', 1},
    {1003, PG_OID_NAME, "name[]", ',', 1},
    {1005, PG_OID_INT2, "smallint[]", ',', 1},
    {1007, PG_OID_INT4, "integer[]", ',', 1},
    {1009, PG_OID_TEXT, "text[]", ',', 1},
    {1014, PG_OID_BPCHAR, "character[]", ',', 1},
    {1015, PG_OID_VARCHAR, "character varying[]", ',', 1},
    {1016, PG_OID_INT8, "bigint[]", ',', 1},
    {1021, PG_OID_FLOAT4, "real[]", ',', 1},
    {1022, PG_OID_FLOAT8, "double precision[]", ',', 1},
    {1028, PG_OID_OID, "oid[]", ',', 1},
    {1115, PG_OID_TIMESTAMP, "timestamp without time zone[]", ',', 1},
    {1182, PG_OID_DATE, "date[]", ',', 1},
    {1183, PG_OID_TIME, "time without time zone[]", ',', 1},
    {1185, PG_OID_TIMESTAMPTZ, "timestamp with time zone[]", ',', 1},
    {1187, PG_OID_INTERVAL, "interval[]", ',', 1},
    {1231, PG_OID_NUMERIC, "numeric[]", ',', 1},
    {199, PG_OID_JSON, "json[]", ',', 1},
    {3807, PG_OID_JSONB, "jsonb[]", ',', 1},
    {2951, PG_OID_UUID, "uuid[]", ',', 1},
    {22, PG_OID_INT2, "int2vector", ' ', 0},
    {30, PG_OID_OID, "oidvector", ' ', 0},
};

static const bin_array_t *array_of(uint32_t oid)
{
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        if (arrays[i].oid == oid) return &arrays[i];
    return NULL;
}

/* One element of an array's text starting at s[*i]: a quoted string (with
 * backslash escapes, unescaped into `tmp`) or the text up to the next
 * delimiter or `}`; *null when it is an unquoted NULL. Returns the
 * element's text, or NULL when malformed or longer than `cap`. */
static const char *array_element(const char *s, size_t n, size_t *i, const bin_array_t *a,
                                 char *tmp, size_t cap, size_t *len, int *null)
{
    size_t k = *i, m = 0;
    *null = 0;
    if (k < n && s[k] == '"') {
        for (k++; k < n && s[k] != '"'; k++) {
            if (s[k] == '\\' && ++k == n) return NULL;
            if (m == cap) return NULL;
            tmp[m++] = s[k];
        }
        if (k == n) return NULL;
        *i = k + 1;
        *len = m;
        return tmp;
    }
    while (k < n && s[k] != a->delim && s[k] != '}' && s[k] != '{' && s[k] != '"') k++;
    *len = k - *i;
    *null = *len == 4 && !strncasecmp(s + *i, "NULL", 4);
    const char *e = s + *i;
    *i = k;
    return *len > 0 ? e : NULL;
}

/* The text of a one-dimensional array ({a,b} or, for the vectors, a b) to
 * PostgreSQL's binary array. Element texts longer than 4 kB are refused. */
static int send_array(const bin_array_t *a, const char *s, size_t n, sl_buf_t *out)
{
    const bin_codec_t *ec = codec_of(a->elem);
    size_t i = 0;
    int braces = a->delim == ',';
    if (braces && (n < 2 || s[0] != '{' || s[n - 1] != '}')) return -1;
    if (braces) i = 1, n--;
    size_t head = out->len;
    sl_buf_put_u32be(out, 0); /* ndim, has-nulls and the size are set at the end */
    sl_buf_put_u32be(out, 0);
    sl_buf_put_u32be(out, a->elem);
    sl_buf_put_u32be(out, 0);
    sl_buf_put_u32be(out, (uint32_t)a->lbound);
    uint32_t count = 0, nulls = 0;
    char tmp[4096];
    while (i < n) {
        size_t len;
        int null;
        const char *e = array_element(s, n, &i, a, tmp, sizeof tmp, &len, &null);
        if (!e || (i < n && s[i] != a->delim)) return -1;
        if (i < n && ++i == n) return -1; /* a delimiter with no element after it */
        size_t at = out->len;
        sl_buf_put_u32be(out, 0xFFFFFFFFu);
        if (!null && ec->send(e, len, out) < 0) return -1;
        if (!null) sl_buf_set_u32be(out, at, (uint32_t)(out->len - at - 4));
        count++;
        nulls += (uint32_t)null;
    }
    if (!count) sl_buf_truncate(out, head + 12); /* an empty array has no dimensions */
    sl_buf_set_u32be(out, head, count ? 1 : 0);
    sl_buf_set_u32be(out, head + 4, nulls ? 1 : 0);
    if (count) sl_buf_set_u32be(out, head + 12, count);
    return 0;
}

const char *pgw_bin_type_name(uint32_t oid)
{
    const bin_codec_t *c = codec_of(oid);
    const bin_array_t *a = c ? NULL : array_of(oid);
    return c ? c->name : a ? a->name : NULL;
}

bool pgw_bin_can_send(uint32_t oid)
{
    return codec_of(oid) != NULL || array_of(oid) != NULL;
}

exec_type_id_t pgw_bin_param_type(uint32_t oid)
{
    const bin_codec_t *c = codec_of(oid);
    return c ? c->param : EXEC_TYPE_NULL;
}

/* ---- entry points ------------------------------------------------------------ */

int pgw_bin_decode_param(uint32_t oid, const char *p, size_t n, int index, sl_buf_t *text,
                         sl_error_t *err)
{
    const bin_codec_t *c = codec_of(oid);
    if (!oid) {
        sl_error_set(err, SL_ERR_INVALID_BINARY_REPRESENTATION,
                     "incorrect binary data format in bind parameter %d", index);
        return sl_error_detail(
            err, "Parameter $%d has no declared type, so its binary value cannot be read.", index);
    }
    if (!c) {
        sl_error_set(err, SL_ERR_UNDEFINED_FUNCTION,
                     "no binary input function available for type with OID %u", oid);
        return sl_error_detail(err, "Send parameter $%d in text format.", index);
    }
    int rc = c->len >= 0 && n < (size_t)c->len   ? BIN_SHORT
             : c->len >= 0 && n > (size_t)c->len ? BIN_LONG
                                                 : c->recv((const unsigned char *)p, n, text, err);
    if (rc == BIN_SHORT)
        return sl_error_set(err, SL_ERR_PROTOCOL_VIOLATION, "insufficient data left in message");
    if (rc == BIN_LONG)
        return sl_error_set(err, SL_ERR_INVALID_BINARY_REPRESENTATION,
                            "incorrect binary data format in bind parameter %d", index);
    return rc;
}

int pgw_bin_encode(uint32_t oid, const char *text, size_t n, sl_buf_t *out)
{
    const bin_codec_t *c = codec_of(oid);
    const bin_array_t *a = c ? NULL : array_of(oid);
    return c ? c->send(text, n, out) : a ? send_array(a, text, n, out) : -1;
}

int pgw_bin_datarow(sl_buf_t *out, const char *body, size_t len, int ncols, const sess_col_t *cols,
                    const int16_t *fmts, int nfmts, sl_error_t *err)
{
    const char *p = body, *end = body + len;
    int n = sl_get_u16be(p);
    p += 2;
    sl_buf_put_u16be(out, (uint16_t)n);
    for (int i = 0; i < n && p + 4 <= end; i++) {
        int32_t vlen = (int32_t)sl_get_u32be(p);
        p += 4;
        if (vlen < 0 || i >= ncols || pgw_bin_format_of(fmts, nfmts, i) != PGW_FORMAT_BINARY) {
            sl_buf_put_u32be(out, (uint32_t)vlen);
            if (vlen > 0) sl_buf_append(out, p, (size_t)vlen);
            p += vlen > 0 ? vlen : 0;
            continue;
        }
        size_t at = out->len;
        sl_buf_put_u32be(out, 0);
        if (pgw_bin_encode(cols[i].type_oid, p, (size_t)vlen, out) < 0) {
            const char *name = pgw_bin_type_name(cols[i].type_oid);
            return sl_error_set(
                err, SL_ERR_INVALID_BINARY_REPRESENTATION,
                "cannot send value \"%.*s\" of column %d in binary format as type %s",
                vlen > 64 ? 64 : (int)vlen, p, i + 1, name ? name : "unknown");
        }
        sl_buf_set_u32be(out, at, (uint32_t)(out->len - at - 4));
        p += vlen;
    }
    return 0;
}
