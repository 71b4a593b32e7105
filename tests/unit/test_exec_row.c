/* Unit tests of exec row encodings and hashing: row round trips,
 * memcomparable keys whose byte order equals SQL order (randomised),
 * key decoding, corrupt input, and hash quality and stability. */
#include "unit.h"

#include <math.h>
#include <stdlib.h>

#include "common/arena.h"
#include "common/hash.h"
#include "model/batch.h"
#include "model/decimal.h"
#include "model/row.h"
#include "model/value.h"

static sl_arena_t *A;

__attribute__((constructor)) static void make_arena(void)
{
    A = sl_arena_new("test");
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static exec_type_t ty(const char *text)
{
    exec_type_t t;
    sl_error_t err;
    if (exec_type_parse(text, strlen(text), A, &t, &err))
        unit_fail(__FILE__, __LINE__, "%s", err.message);
    return t;
}

/* A random value of type t, edge cases included; one in 8 is NULL. */
static exec_value_t gen(exec_type_t t)
{
    static const int64_t edges[] = {0, 1, -1, INT64_MAX, INT64_MIN, 255, 256, -256};
    static const double dedges[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 1e-310, -1e300};
    if (next() % 8 == 0) return exec_value_null(t);
    uint64_t r = next();
    bool edge = r % 4 == 0;
    int64_t i = edge ? edges[next() % 8] : (int64_t)(next() % 2001) - 1000;
    switch (t.id) {
    case EXEC_TYPE_BOOLEAN: return exec_value_bool(r & 2);
    case EXEC_TYPE_INT:
        return exec_value_int(edge ? (int32_t)(edges[next() % 8] >> 32) : (int32_t)i);
    case EXEC_TYPE_BIGINT: return exec_value_bigint(i);
    case EXEC_TYPE_TIMESTAMP: return exec_value_timestamp(edge ? i : i * 1000003);
    case EXEC_TYPE_DATE: return exec_value_date((int32_t)(i % 100000));
    case EXEC_TYPE_DOUBLE: return exec_value_double(edge ? dedges[next() % 9] : (double)i / 7.0);
    case EXEC_TYPE_DECIMAL: {
        exec_dec_t v = (exec_dec_t)i * (exec_dec_t)(int64_t)(next() % 1000000);
        if (edge)
            v = (r & 8) ? exec_dec_pow10(t.precision) - 1 : -(exec_dec_pow10(t.precision) - 1);
        return exec_value_decimal(v, t.precision, t.scale);
    }
    case EXEC_TYPE_STRING:
    case EXEC_TYPE_BINARY: {
        static const char alphabet[] = {'a', 'b', 0, '\xff', 'z', '\x01'};
        size_t n = next() % 6;
        char *p = sl_alloc(A, n + 1);
        for (size_t k = 0; k < n; k++) p[k] = alphabet[next() % 6];
        exec_value_t v = exec_value_string(p, n);
        v.type = t;
        return v;
    }
    case EXEC_TYPE_INTERVAL: {
        exec_interval_t iv = {(int32_t)(next() % 5) - 2, (int32_t)(next() % 61) - 30,
                              (int64_t)(next() % 3) * 86400000000LL};
        return exec_value_interval(iv);
    }
    case EXEC_TYPE_STRUCT: {
        exec_value_t *f = SL_NEW_ARRAY(A, exec_value_t, t.nfields);
        for (int k = 0; k < t.nfields; k++) f[k] = gen(t.fields[k].type);
        return exec_value_struct(t, f);
    }
    default: return exec_value_null(t);
    }
}

static const char *all_types[] = {
    "BOOLEAN", "INT",           "BIGINT",
    "DOUBLE",  "DECIMAL(20,4)", "DECIMAL(38,0)",
    "STRING",  "BINARY",        "TIMESTAMP",
    "DATE",    "INTERVAL",      "STRUCT<a: INT, b: STRING, c: STRUCT<d: DOUBLE>>"};
#define NTYPES (int)(sizeof all_types / sizeof all_types[0])

/* A batch of n random rows over every type (column i has all_types[i]). */
static exec_batch_t *random_batch(int n)
{
    exec_type_t types[NTYPES];
    for (int c = 0; c < NTYPES; c++) types[c] = ty(all_types[c]);
    exec_builder_t b;
    exec_builder_init(&b, A, NTYPES, types, 8);
    for (int r = 0; r < n; r++) {
        uint32_t row = exec_builder_add_row(&b);
        for (int c = 0; c < NTYPES; c++) {
            exec_value_t v = gen(types[c]);
            exec_builder_set_value(&b, c, row, &v);
        }
    }
    return exec_builder_finish(&b);
}

static bool same_value(const exec_vec_t *a, uint32_t ra, const exec_vec_t *b, uint32_t rb)
{
    exec_value_t x, y;
    exec_vec_get_value(a, ra, A, &x);
    exec_vec_get_value(b, rb, A, &y);
    return exec_value_compare(&x, &y) == 0 && exec_value_equal(&x, &y);
}

TEST(row_format_round_trips_every_type)
{
    exec_batch_t *src = random_batch(500);
    int cols[NTYPES];
    exec_type_t types[NTYPES];
    for (int c = 0; c < NTYPES; c++) cols[c] = c, types[c] = src->cols[c].type;
    exec_builder_t b;
    exec_builder_init(&b, A, NTYPES, types, 4);
    sl_buf_t buf = SL_BUF_INIT, again = SL_BUF_INIT;
    sl_error_t err;
    for (uint32_t r = 0; r < src->nrows; r++) {
        sl_buf_clear(&buf);
        exec_row_encode(src, r, cols, NTYPES, &buf);
        uint32_t row = exec_builder_add_row(&b);
        CHECK_INT(exec_row_decode(buf.data, buf.len, &b, row, 0, NTYPES, &err), 0);
    }
    exec_batch_t *out = exec_builder_finish(&b);
    for (uint32_t r = 0; r < src->nrows; r++) {
        for (int c = 0; c < NTYPES; c++) CHECK(same_value(&src->cols[c], r, &out->cols[c], r));
        sl_buf_clear(&buf);
        sl_buf_clear(&again);
        exec_row_encode(src, r, cols, NTYPES, &buf);
        exec_row_encode(out, r, cols, NTYPES, &again);
        CHECK_INT(buf.len, again.len);
        CHECK(memcmp(buf.data, again.data, buf.len) == 0);
    }
    sl_buf_free(&buf);
    sl_buf_free(&again);
}

TEST(row_format_is_compact_and_rejects_corruption)
{
    const exec_type_t types[] = {ty("BIGINT"), ty("STRING"), ty("INT")};
    exec_builder_t b;
    exec_builder_init(&b, A, 3, types, 1);
    uint32_t r = exec_builder_add_row(&b);
    exec_builder_set_bigint(&b, 0, r, 7);
    exec_builder_set_str(&b, 1, r, "abc", 3);
    exec_builder_set_null(&b, 2, r);
    exec_batch_t *src = exec_builder_finish(&b);
    int cols[] = {0, 1, 2};
    sl_buf_t buf = SL_BUF_INIT;
    exec_row_encode(src, 0, cols, 3, &buf);
    CHECK_INT(buf.len, 1 + 8 + 1 + 3); /* bitmap, bigint, varint length, bytes */
    CHECK_INT((unsigned char)buf.data[0], 4);
    exec_builder_init(&b, A, 3, types, 1);
    r = exec_builder_add_row(&b);
    sl_error_t err;
    for (size_t cut = 0; cut < buf.len; cut++) {
        CHECK_INT(exec_row_decode(buf.data, cut, &b, r, 0, 3, &err), -1);
        CHECK_STR(err.sqlstate, "XX000");
        CHECK_STR(err.message, "corrupt row encoding");
    }
    sl_buf_putc(&buf, 0);
    CHECK_INT(exec_row_decode(buf.data, buf.len, &b, r, 0, 3, &err), -1);
    char bad_bits[] = {(char)0xf8};
    CHECK_INT(exec_row_decode(bad_bits, 1, &b, r, 0, 3, &err), -1);
    sl_buf_free(&buf);
}

/* qsort over row numbers by memcmp of their keys. */
static sl_buf_t *keys_for_sort;

static int by_key(const void *x, const void *y)
{
    const sl_buf_t *a = &keys_for_sort[*(const uint32_t *)x],
                   *b = &keys_for_sort[*(const uint32_t *)y];
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->data, b->data, n);
    return c ? c : (a->len > b->len) - (a->len < b->len);
}

/* SQL order of rows over `cols` (lexicographic exec_value_compare). */
static int sql_cmp(const exec_batch_t *b, const int *cols, int n, uint32_t r1, uint32_t r2)
{
    for (int i = 0; i < n; i++) {
        exec_value_t x, y;
        exec_vec_get_value(&b->cols[cols[i]], r1, A, &x);
        exec_vec_get_value(&b->cols[cols[i]], r2, A, &y);
        int c = exec_value_compare(&x, &y);
        if (c) return c;
    }
    return 0;
}

static void check_key_order(const exec_batch_t *b, const int *cols, int ncols)
{
    uint32_t n = b->nrows;
    keys_for_sort = calloc(n, sizeof(sl_buf_t));
    uint32_t *order = calloc(n, sizeof(uint32_t));
    for (uint32_t r = 0; r < n; r++) {
        exec_key_encode(b, r, cols, ncols, &keys_for_sort[r]);
        order[r] = r;
    }
    qsort(order, n, sizeof(uint32_t), by_key);
    for (uint32_t k = 1; k < n; k++) {
        int sql = sql_cmp(b, cols, ncols, order[k - 1], order[k]);
        if (sql > 0)
            unit_fail(__FILE__, __LINE__, "key order differs from SQL order (column %d)", cols[0]);
        /* equal keys exactly when SQL-equal */
        bool same_key = by_key(&order[k - 1], &order[k]) == 0;
        CHECK(same_key == (sql == 0));
    }
    for (uint32_t r = 0; r < n; r++) sl_buf_free(&keys_for_sort[r]);
    free(keys_for_sort);
    free(order);
}

TEST(memcomparable_order_equals_sql_order)
{
    exec_batch_t *b = random_batch(3000);
    for (int c = 0; c < NTYPES; c++) check_key_order(b, &c, 1);
    int composite[] = {6, 2, 3}; /* string | bigint | double */
    check_key_order(b, composite, 3);
    int composite2[] = {0, 7, 10}; /* boolean | binary | interval */
    check_key_order(b, composite2, 3);
}

TEST(keys_decode_back_and_report_their_length)
{
    exec_batch_t *src = random_batch(300);
    int cols[NTYPES];
    exec_type_t types[NTYPES];
    for (int c = 0; c < NTYPES; c++) cols[c] = c, types[c] = src->cols[c].type;
    exec_builder_t b;
    exec_builder_init(&b, A, NTYPES, types, 4);
    sl_buf_t buf = SL_BUF_INIT;
    sl_error_t err;
    for (uint32_t r = 0; r < src->nrows; r++) {
        sl_buf_clear(&buf);
        exec_key_encode(src, r, cols, NTYPES, &buf);
        size_t full = buf.len;
        sl_buf_append(&buf, "suffix", 6); /* a longer stored key: the prefix decodes */
        uint32_t row = exec_builder_add_row(&b);
        size_t used = 0;
        CHECK_INT(exec_key_decode(buf.data, buf.len, &b, row, 0, NTYPES, &used, &err), 0);
        CHECK_INT(used, full);
    }
    exec_batch_t *out = exec_builder_finish(&b);
    for (uint32_t r = 0; r < src->nrows; r++)
        for (int c = 0; c < NTYPES; c++)
            if (c != 3) CHECK(same_value(&src->cols[c], r, &out->cols[c], r));
    /* doubles come back equal in SQL terms (-0 as 0, one NaN) */
    for (uint32_t r = 0; r < src->nrows; r++) CHECK(sql_cmp(src, (int[]){3}, 1, r, r) == 0);
    exec_value_t v = exec_value_string("a\0b", 3);
    sl_buf_clear(&buf);
    exec_key_encode_value(&v, &buf);
    CHECK_INT(buf.len, 1 + 1 + 2 + 1 + 2);
    CHECK(memcmp(buf.data,
                 "\x01"
                 "a\0\xff"
                 "b\0\0",
                 7) == 0);
    exec_type_t st = ty("STRING");
    exec_builder_init(&b, A, 1, &st, 1);
    exec_builder_add_row(&b);
    CHECK_INT(exec_key_decode("\x01"
                              "a\0\x07",
                              4, &b, 0, 0, 1, NULL, &err),
              -1);
    CHECK_STR(err.message, "corrupt row encoding");
    size_t used;
    CHECK_INT(exec_key_decode(buf.data, buf.len, &b, 0, 0, 1, &used, &err), 0);
    CHECK_INT(used, 7);
    sl_buf_free(&buf);
}

TEST(row_hash_matches_value_hash_and_honours_selection)
{
    exec_batch_t *b = random_batch(200);
    int cols[] = {1, 6, 11, 3};
    uint64_t *h = calloc(b->nrows, sizeof(uint64_t));
    exec_hash_rows(b, cols, 4, h);
    for (uint32_t r = 0; r < b->nrows; r++) {
        uint64_t acc = SL_HASH_SEED;
        for (int i = 0; i < 4; i++) {
            exec_value_t v;
            exec_vec_get_value(&b->cols[cols[i]], r, A, &v);
            acc = exec_value_hash(&v, acc);
        }
        CHECK(acc == h[r]);
    }
    uint32_t sel[] = {3, 9};
    b->sel = sel;
    b->nsel = 2;
    memset(h, 0, sizeof(uint64_t) * b->nrows);
    exec_hash_rows(b, cols, 4, h);
    CHECK(h[3] != 0 && h[9] != 0 && h[0] == 0 && h[4] == 0);
    free(h);
}

static int popcount64(uint64_t x)
{
    return __builtin_popcountll(x);
}

TEST(hash_quality_sanity)
{
    /* sequential keys spread evenly over 1024 buckets */
    enum { N = 1 << 20, NB = 1024 };
    static int buckets[NB];
    for (uint64_t i = 0; i < N; i++) buckets[sl_hash_u64(i, SL_HASH_SEED) & (NB - 1)]++;
    double chi = 0, expect = (double)N / NB;
    for (int k = 0; k < NB; k++) chi += (buckets[k] - expect) * (buckets[k] - expect) / expect;
    CHECK(chi < 1200); /* ~1023 expected for a uniform hash; a poor one is far above */
    memset(buckets, 0, sizeof buckets);
    char key[32];
    for (int i = 0; i < N / 4; i++) {
        int n = snprintf(key, sizeof key, "user-%d", i);
        buckets[sl_hash_bytes(key, (size_t)n, 0) >> 54]++;
    }
    chi = 0;
    expect = (double)(N / 4) / NB;
    for (int k = 0; k < NB; k++) chi += (buckets[k] - expect) * (buckets[k] - expect) / expect;
    CHECK(chi < 1200);
    /* avalanche: one flipped input bit flips about half the output bits */
    double flips = 0;
    int trials = 0;
    for (int t = 0; t < 2000; t++) {
        uint64_t x = next();
        unsigned char bytes[24];
        for (int k = 0; k < 24; k++) bytes[k] = (unsigned char)next();
        uint64_t h1 = sl_hash_u64(x, 1), hb = sl_hash_bytes(bytes, 24, 1);
        int bit = (int)(next() % 64);
        flips += popcount64(h1 ^ sl_hash_u64(x ^ (1ULL << bit), 1));
        bytes[bit % 24] ^= (unsigned char)(1u << (bit % 8));
        flips += popcount64(hb ^ sl_hash_bytes(bytes, 24, 1));
        trials += 2;
    }
    double avg = flips / trials;
    CHECK(avg > 30.5 && avg < 33.5);
    /* lengths, seeds and trailing zero bytes all matter */
    CHECK(sl_hash_bytes("", 0, 1) != sl_hash_bytes("", 0, 2));
    CHECK(sl_hash_bytes("a", 1, 1) != sl_hash_bytes("a\0", 2, 1));
    CHECK(sl_hash_bytes("abcdefghijklmnopq", 17, 1) != sl_hash_bytes("abcdefghijklmnopr", 17, 1));
}

TEST(hash_values_are_stable)
{
    /* These values are part of the checkpoint format (hash partitioning):
     * a change here means existing checkpoints route keys differently. */
    CHECK(sl_hash_u64(0, SL_HASH_SEED) == 0xb2e4b87009a6ae98ULL);
    CHECK(sl_hash_u64(42, SL_HASH_SEED) == 0x987ee291cd965254ULL);
    CHECK(sl_hash_bytes("sluice", 6, SL_HASH_SEED) == 0x264128a91cb1765cULL);
    CHECK(sl_hash_bytes("a longer key that spans several stripes", 39, SL_HASH_SEED) ==
          0x59d17c90cad27a31ULL);
}
