/* libFuzzer target for server/pgwire_binary: binary parameter values of
 * every type OID (and of undeclared and unknown ones), and text given to
 * the result encoders. Checks that nothing crashes, that a refused value
 * carries one of the documented SQLSTATEs, that decoded text holds no NUL,
 * and that what encodes decodes back and re-encodes to the same bytes
 * (arrays: encoded only, they are result types).
 * `make FUZZ=1 fuzz` runs it (tests/fuzz/README.md); `make test` replays
 * tests/fuzz/corpus/pgwire_binary. The first input byte picks the OID, the
 * second the direction (even: a binary parameter, odd: result text); the
 * rest is the value. */
#include "tests/fuzz/fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "server/pgwire_binary.h"

static void check(int ok)
{
    if (!ok) abort(); /* a broken invariant: libFuzzer saves the input */
}

static const uint32_t oids[] = {
    PG_OID_BOOL,
    PG_OID_BYTEA,
    PG_OID_CHAR,
    PG_OID_NAME,
    PG_OID_INT8,
    PG_OID_INT2,
    PG_OID_INT4,
    PG_OID_TEXT,
    PG_OID_OID,
    PG_OID_JSON,
    PG_OID_FLOAT4,
    PG_OID_FLOAT8,
    PG_OID_UNKNOWN,
    PG_OID_BPCHAR,
    PG_OID_VARCHAR,
    PG_OID_DATE,
    PG_OID_TIME,
    PG_OID_TIMESTAMP,
    PG_OID_TIMESTAMPTZ,
    PG_OID_INTERVAL,
    PG_OID_NUMERIC,
    PG_OID_UUID,
    PG_OID_JSONB,
    0,
    600 /* point: no codec */,
    1007 /* int4[] */,
    1009 /* text[] */,
    1231 /* numeric[] */,
    22 /* int2vector */,
};
#define NOIDS (sizeof oids / sizeof oids[0])

static int known_state(const char *s)
{
    static const char *ok[] = {"08P01", "22P03", "22021", "22008", "42883"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (!strcmp(s, ok[i])) return 1;
    return 0;
}

/* Binary bytes that encode: they decode (but arrays, which are results
 * only), and the text encodes to them again. */
static void check_encoded(uint32_t oid, const sl_buf_t *bin)
{
    sl_buf_t text = SL_BUF_INIT, again = SL_BUF_INIT;
    sl_error_t err;
    if (pgw_bin_decode_param(oid, bin->data ? bin->data : "", bin->len, 1, &text, &err) < 0) {
        check(!strcmp(err.sqlstate, "42883") && oid != 0);
        sl_buf_free(&text);
        return;
    }
    check(pgw_bin_encode(oid, text.data ? text.data : "", text.len, &again) == 0);
    check(again.len == bin->len && (bin->len == 0 || !memcmp(again.data, bin->data, bin->len)));
    sl_buf_free(&text);
    sl_buf_free(&again);
}

static void fuzz_param(uint32_t oid, const char *p, size_t n)
{
    sl_buf_t text = SL_BUF_INIT, bin = SL_BUF_INIT;
    sl_error_t err;
    if (pgw_bin_decode_param(oid, p, n, 1, &text, &err) < 0) {
        check(known_state(err.sqlstate));
    } else {
        check(strlen(text.data ? text.data : "") == text.len);
        if (pgw_bin_encode(oid, text.data ? text.data : "", text.len, &bin) == 0)
            check_encoded(oid, &bin);
    }
    sl_buf_free(&text);
    sl_buf_free(&bin);
}

static void fuzz_result(uint32_t oid, const char *p, size_t n)
{
    sl_buf_t bin = SL_BUF_INIT;
    /* sluice's text holds no NUL, which no text type could carry back */
    if (pgw_bin_encode(oid, p, n, &bin) == 0 && !memchr(p, '\0', n)) check_encoded(oid, &bin);
    sl_buf_free(&bin);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    uint32_t oid = oids[data[0] % NOIDS];
    const char *p = (const char *)data + 2;
    if (data[1] % 2 == 0) fuzz_param(oid, p, size - 2);
    else fuzz_result(oid, p, size - 2);
    return 0;
}
