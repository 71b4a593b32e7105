/* exec rows: the compact row encoding, the memcomparable key encoding and
 * vectorised row hashing (formats in row.h). */
#include "model/row.h"

#include <math.h>
#include <string.h>

#include "common/hash.h"
#include "model/decimal.h"
#include "model/text_io.h"

/* ---- byte helpers ------------------------------------------------------ */

static void put_le(sl_buf_t *b, uint64_t v, int n)
{
    unsigned char t[8];
    for (int i = 0; i < n; i++) t[i] = (unsigned char)(v >> (8 * i));
    sl_buf_append(b, t, (size_t)n);
}

static void put_be(sl_buf_t *b, uint64_t v, int n)
{
    unsigned char t[8];
    for (int i = 0; i < n; i++) t[i] = (unsigned char)(v >> (8 * (n - 1 - i)));
    sl_buf_append(b, t, (size_t)n);
}

static void put_varint(sl_buf_t *b, uint64_t v)
{
    unsigned char t[10];
    int n = 0;
    do {
        t[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    sl_buf_append(b, t, (size_t)n);
}

typedef struct reader {
    const unsigned char *p, *end;
    bool bad;
} reader_t;

static const unsigned char *take(reader_t *r, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        return NULL;
    }
    const unsigned char *p = r->p;
    r->p += n;
    return p;
}

static uint64_t get_le(reader_t *r, int n)
{
    const unsigned char *p = take(r, (size_t)n);
    uint64_t v = 0;
    for (int i = n - 1; p && i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static uint64_t get_be(reader_t *r, int n)
{
    const unsigned char *p = take(r, (size_t)n);
    uint64_t v = 0;
    for (int i = 0; p && i < n; i++) v = v << 8 | p[i];
    return v;
}

static uint64_t get_varint(reader_t *r)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        const unsigned char *p = take(r, 1);
        if (!p) return 0;
        v |= (uint64_t)(*p & 0x7f) << shift;
        if (!(*p & 0x80)) return v;
    }
    r->bad = true;
    return 0;
}

static int corrupt(sl_error_t *err)
{
    return sl_error_set(err, SL_ERR_INTERNAL_ERROR, "corrupt row encoding");
}

/* ---- row format: encode ------------------------------------------------ */

static void row_put_scalar(sl_buf_t *b, exec_type_t t, const void *cell)
{
    switch (t.id) {
    case EXEC_TYPE_BOOLEAN: put_le(b, *(const uint8_t *)cell, 1); break;
    case EXEC_TYPE_INT:
    case EXEC_TYPE_DATE: put_le(b, (uint32_t) * (const int32_t *)cell, 4); break;
    case EXEC_TYPE_BIGINT:
    case EXEC_TYPE_TIMESTAMP:
    case EXEC_TYPE_DOUBLE: {
        uint64_t v;
        memcpy(&v, cell, 8);
        put_le(b, v, 8);
        break;
    }
    case EXEC_TYPE_DECIMAL: {
        unsigned __int128 v = (unsigned __int128)*(const exec_dec_t *)cell;
        put_le(b, (uint64_t)v, 8);
        put_le(b, (uint64_t)(v >> 64), 8);
        break;
    }
    case EXEC_TYPE_STRING:
    case EXEC_TYPE_BINARY: {
        const exec_str_t *s = cell;
        put_varint(b, s->len);
        sl_buf_append(b, s->ptr, s->len);
        break;
    }
    case EXEC_TYPE_INTERVAL: {
        const exec_interval_t *iv = cell;
        put_le(b, (uint32_t)iv->months, 4);
        put_le(b, (uint32_t)iv->days, 4);
        put_le(b, (uint64_t)iv->micros, 8);
        break;
    }
    default: break;
    }
}

static const void *cell_at(const exec_vec_t *v, uint32_t row)
{
    return (const char *)v->data + (size_t)row * exec_type_width(v->type);
}

static bool vec_null(const exec_vec_t *v, uint32_t row)
{
    return exec_vec_is_null(v, row) || v->type.id == EXEC_TYPE_NULL;
}

/* The vectors a row encoding covers: arr[idx[i]] (top level: a batch's
 * columns picked by number) or arr[i] (a struct's children). */
typedef struct vec_list {
    const exec_vec_t *arr;
    const int *idx; /* NULL: arr[0 .. n) */
    int n;
} vec_list_t;

static const exec_vec_t *vec_at(const vec_list_t *l, int i)
{
    return &l->arr[l->idx ? l->idx[i] : i];
}

static void row_put_vecs(sl_buf_t *b, const vec_list_t *l, uint32_t row);

static void row_put_cell(sl_buf_t *b, const exec_vec_t *v, uint32_t row)
{
    if (v->type.id != EXEC_TYPE_STRUCT) {
        row_put_scalar(b, v->type, cell_at(v, row));
        return;
    }
    vec_list_t kids = {v->children, NULL, v->type.nfields};
    row_put_vecs(b, &kids, row);
}

/* Bitmap of NULLs, then the non-NULL cells. */
static void row_put_vecs(sl_buf_t *b, const vec_list_t *l, uint32_t row)
{
    for (int i = 0; i < l->n; i += 8) {
        unsigned char bits = 0;
        for (int k = 0; k < 8 && i + k < l->n; k++)
            if (vec_null(vec_at(l, i + k), row)) bits |= (unsigned char)(1u << k);
        sl_buf_putc(b, (char)bits);
    }
    for (int i = 0; i < l->n; i++)
        if (!vec_null(vec_at(l, i), row)) row_put_cell(b, vec_at(l, i), row);
}

void exec_row_encode(const exec_batch_t *b, uint32_t row, const int *cols, int ncols, sl_buf_t *out)
{
    vec_list_t l = {b->cols, cols, ncols};
    row_put_vecs(out, &l, row);
}

/* ---- row format: decode ------------------------------------------------ */

static void row_get_value(reader_t *r, exec_type_t t, sl_arena_t *a, exec_value_t *out);

/* n values whose types are fields[i].type. */
static void row_get_fields(reader_t *r, int n, const exec_field_t *fields, sl_arena_t *a,
                           exec_value_t *out)
{
    const unsigned char *bits = take(r, (size_t)(n + 7) / 8);
    for (int i = 0; i < n; i++) {
        out[i] = exec_value_null(fields[i].type);
        if (!bits || (bits[i / 8] >> (i % 8) & 1)) continue;
        row_get_value(r, fields[i].type, a, &out[i]);
    }
    /* Bits past the last column must be clear. */
    if (bits && n % 8 && bits[n / 8] >> (n % 8)) r->bad = true;
}

static void row_get_value(reader_t *r, exec_type_t t, sl_arena_t *a, exec_value_t *out)
{
    out->is_null = false;
    switch (t.id) {
    case EXEC_TYPE_BOOLEAN:
        out->u.b = (uint8_t)get_le(r, 1);
        r->bad |= out->u.b > 1;
        break;
    case EXEC_TYPE_INT:
    case EXEC_TYPE_DATE: out->u.i32 = (int32_t)(uint32_t)get_le(r, 4); break;
    case EXEC_TYPE_BIGINT:
    case EXEC_TYPE_TIMESTAMP: out->u.i64 = (int64_t)get_le(r, 8); break;
    case EXEC_TYPE_DOUBLE: {
        uint64_t v = get_le(r, 8);
        memcpy(&out->u.f64, &v, 8);
        break;
    }
    case EXEC_TYPE_DECIMAL: {
        uint64_t lo = get_le(r, 8), hi = get_le(r, 8);
        out->u.dec = (exec_dec_t)((unsigned __int128)hi << 64 | lo);
        r->bad |= !r->bad && !exec_dec_fits(out->u.dec, t.precision);
        break;
    }
    case EXEC_TYPE_STRING:
    case EXEC_TYPE_BINARY: {
        uint64_t n = get_varint(r);
        const unsigned char *p = n <= UINT32_MAX ? take(r, (size_t)n) : (r->bad = true, NULL);
        out->u.str.ptr = (const char *)p;
        out->u.str.len = p ? (uint32_t)n : 0;
        break;
    }
    case EXEC_TYPE_INTERVAL:
        out->u.iv.months = (int32_t)(uint32_t)get_le(r, 4);
        out->u.iv.days = (int32_t)(uint32_t)get_le(r, 4);
        out->u.iv.micros = (int64_t)get_le(r, 8);
        break;
    case EXEC_TYPE_STRUCT:
        out->u.fields = SL_NEW_ARRAY(a, exec_value_t, t.nfields ? t.nfields : 1);
        row_get_fields(r, t.nfields, t.fields, a, out->u.fields);
        break;
    default: r->bad = true; break; /* a NULL-typed column is always NULL */
    }
}

/* The builder's columns col0 .. col0+ncols-1 as a field array (in the batch arena). */
static exec_field_t *builder_fields(exec_builder_t *bld, int col0, int ncols)
{
    exec_batch_t *b = bld->batch;
    exec_field_t *f = SL_NEW_ARRAY(b->arena, exec_field_t, ncols ? ncols : 1);
    for (int i = 0; i < ncols; i++) f[i].type = b->cols[col0 + i].type;
    return f;
}

int exec_row_decode(const void *p, size_t len, exec_builder_t *bld, uint32_t row, int col0,
                    int ncols, sl_error_t *err)
{
    reader_t r = {p, (const unsigned char *)p + len, false};
    exec_batch_t *b = bld->batch;
    exec_value_t *vals = SL_NEW_ARRAY(b->arena, exec_value_t, ncols ? ncols : 1);
    row_get_fields(&r, ncols, builder_fields(bld, col0, ncols), b->arena, vals);
    if (r.bad || r.p != r.end) return corrupt(err);
    for (int i = 0; i < ncols; i++) exec_builder_set_value(bld, col0 + i, row, &vals[i]);
    return 0;
}

/* ---- key format -------------------------------------------------------- */

static uint64_t flip64(int64_t v)
{
    return (uint64_t)v ^ (UINT64_C(1) << 63);
}
static uint32_t flip32(int32_t v)
{
    return (uint32_t)v ^ (UINT32_C(1) << 31);
}

static uint64_t double_key(double d)
{
    if (d == 0) d = 0;
    if (isnan(d)) d = NAN;
    uint64_t bits;
    memcpy(&bits, &d, 8);
    if (isnan(d)) bits = UINT64_C(0x7ff8000000000000);
    return bits >> 63 ? ~bits : bits | (UINT64_C(1) << 63);
}

static double double_unkey(uint64_t k)
{
    uint64_t bits = k >> 63 ? k & ~(UINT64_C(1) << 63) : ~k;
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

static void put_dec_key(sl_buf_t *b, exec_dec_t v)
{
    unsigned __int128 u = (unsigned __int128)v ^ ((unsigned __int128)1 << 127);
    put_be(b, (uint64_t)(u >> 64), 8);
    put_be(b, (uint64_t)u, 8);
}

static void put_str_key(sl_buf_t *b, const exec_str_t *s)
{
    const char *p = s->ptr, *end = p + s->len;
    while (p < end) {
        const char *z = memchr(p, 0, (size_t)(end - p));
        if (!z) {
            sl_buf_append(b, p, (size_t)(end - p));
            break;
        }
        sl_buf_append(b, p, (size_t)(z - p));
        sl_buf_append(b, "\0\xff", 2);
        p = z + 1;
    }
    sl_buf_append(b, "\0\0", 2);
}

static void key_put_scalar(sl_buf_t *b, exec_type_t t, const void *cell)
{
    switch (t.id) {
    case EXEC_TYPE_BOOLEAN: sl_buf_putc(b, (char)*(const uint8_t *)cell); break;
    case EXEC_TYPE_INT:
    case EXEC_TYPE_DATE: put_be(b, flip32(*(const int32_t *)cell), 4); break;
    case EXEC_TYPE_BIGINT:
    case EXEC_TYPE_TIMESTAMP: put_be(b, flip64(*(const int64_t *)cell), 8); break;
    case EXEC_TYPE_DOUBLE: put_be(b, double_key(*(const double *)cell), 8); break;
    case EXEC_TYPE_DECIMAL: put_dec_key(b, *(const exec_dec_t *)cell); break;
    case EXEC_TYPE_STRING:
    case EXEC_TYPE_BINARY: put_str_key(b, cell); break;
    case EXEC_TYPE_INTERVAL: {
        const exec_interval_t *iv = cell;
        put_dec_key(b, exec_interval_span(*iv));
        put_be(b, flip32(iv->months), 4);
        put_be(b, flip32(iv->days), 4);
        put_be(b, flip64(iv->micros), 8);
        break;
    }
    default: break;
    }
}

static void key_put_cell(sl_buf_t *b, const exec_vec_t *v, uint32_t row)
{
    if (vec_null(v, row)) {
        sl_buf_putc(b, 0);
        return;
    }
    sl_buf_putc(b, 1);
    if (v->type.id != EXEC_TYPE_STRUCT) {
        key_put_scalar(b, v->type, cell_at(v, row));
        return;
    }
    for (int i = 0; i < v->type.nfields; i++) key_put_cell(b, &v->children[i], row);
}

void exec_key_encode(const exec_batch_t *b, uint32_t row, const int *cols, int ncols, sl_buf_t *out)
{
    for (int i = 0; i < ncols; i++) key_put_cell(out, &b->cols[cols[i]], row);
}

void exec_key_encode_value(const exec_value_t *v, sl_buf_t *out)
{
    if (v->is_null || v->type.id == EXEC_TYPE_NULL) {
        sl_buf_putc(out, 0);
        return;
    }
    sl_buf_putc(out, 1);
    if (v->type.id != EXEC_TYPE_STRUCT) {
        key_put_scalar(out, v->type, &v->u);
        return;
    }
    for (int i = 0; i < v->type.nfields; i++) exec_key_encode_value(&v->u.fields[i], out);
}

static exec_dec_t get_dec_key(reader_t *r)
{
    uint64_t hi = get_be(r, 8), lo = get_be(r, 8);
    return (exec_dec_t)(((unsigned __int128)hi << 64 | lo) ^ ((unsigned __int128)1 << 127));
}

/* An escaped string up to its 0x00 0x00 terminator, unescaped into `a`. */
static void get_str_key(reader_t *r, sl_arena_t *a, exec_str_t *out)
{
    const unsigned char *s = r->p;
    char *o = sl_alloc(a, (size_t)(r->end - s) + 1);
    size_t k = 0;
    for (;;) {
        const unsigned char *c = take(r, 1);
        if (!c) return;
        if (*c) {
            o[k++] = (char)*c;
            continue;
        }
        const unsigned char *e = take(r, 1);
        if (!e) return;
        if (*e == 0) break;
        if (*e != 0xff) {
            r->bad = true;
            return;
        }
        o[k++] = 0;
    }
    out->ptr = o;
    out->len = (uint32_t)k;
}

static void key_get_value(reader_t *r, exec_type_t t, sl_arena_t *a, exec_value_t *out)
{
    *out = exec_value_null(t);
    const unsigned char *m = take(r, 1);
    if (!m || *m == 0) return;
    if (*m != 1 || t.id == EXEC_TYPE_NULL) {
        r->bad = true;
        return;
    }
    out->is_null = false;
    switch (t.id) {
    case EXEC_TYPE_BOOLEAN:
        out->u.b = (uint8_t)get_be(r, 1);
        r->bad |= out->u.b > 1;
        break;
    case EXEC_TYPE_INT:
    case EXEC_TYPE_DATE:
        out->u.i32 = (int32_t)((uint32_t)get_be(r, 4) ^ (UINT32_C(1) << 31));
        break;
    case EXEC_TYPE_BIGINT:
    case EXEC_TYPE_TIMESTAMP: out->u.i64 = (int64_t)(get_be(r, 8) ^ (UINT64_C(1) << 63)); break;
    case EXEC_TYPE_DOUBLE: out->u.f64 = double_unkey(get_be(r, 8)); break;
    case EXEC_TYPE_DECIMAL:
        out->u.dec = get_dec_key(r);
        r->bad |= !r->bad && !exec_dec_fits(out->u.dec, t.precision);
        break;
    case EXEC_TYPE_STRING:
    case EXEC_TYPE_BINARY: get_str_key(r, a, &out->u.str); break;
    case EXEC_TYPE_INTERVAL:
        get_dec_key(r);
        out->u.iv.months = (int32_t)((uint32_t)get_be(r, 4) ^ (UINT32_C(1) << 31));
        out->u.iv.days = (int32_t)((uint32_t)get_be(r, 4) ^ (UINT32_C(1) << 31));
        out->u.iv.micros = (int64_t)(get_be(r, 8) ^ (UINT64_C(1) << 63));
        break;
    case EXEC_TYPE_STRUCT:
        out->u.fields = SL_NEW_ARRAY(a, exec_value_t, t.nfields ? t.nfields : 1);
        for (int i = 0; i < t.nfields; i++)
            key_get_value(r, t.fields[i].type, a, &out->u.fields[i]);
        break;
    default: break;
    }
}

int exec_key_decode(const void *p, size_t len, exec_builder_t *bld, uint32_t row, int col0,
                    int ncols, size_t *used, sl_error_t *err)
{
    reader_t r = {p, (const unsigned char *)p + len, false};
    exec_batch_t *b = bld->batch;
    exec_value_t *vals = SL_NEW_ARRAY(b->arena, exec_value_t, ncols ? ncols : 1);
    for (int i = 0; i < ncols && !r.bad; i++)
        key_get_value(&r, b->cols[col0 + i].type, b->arena, &vals[i]);
    if (r.bad) return corrupt(err);
    for (int i = 0; i < ncols; i++) exec_builder_set_value(bld, col0 + i, row, &vals[i]);
    if (used) *used = (size_t)(r.p - (const unsigned char *)p);
    return 0;
}

/* ---- hashing ----------------------------------------------------------- */

static uint64_t hash_cell_row(const exec_vec_t *v, uint32_t row, uint64_t seed)
{
    if (vec_null(v, row)) return exec_null_hash(seed);
    if (v->type.id != EXEC_TYPE_STRUCT) return exec_cell_hash(v->type, cell_at(v, row), seed);
    uint64_t h = seed;
    for (int i = 0; i < v->type.nfields; i++) h = hash_cell_row(&v->children[i], row, h);
    return h;
}

/* One column folded into out[] for the present rows; typed loops for the
 * common key types, the generic cell hash otherwise. */
static void hash_column(const exec_batch_t *b, const exec_vec_t *v, uint64_t *out, bool first)
{
    uint32_t n = exec_batch_count(b);
#define HASH_LOOP(EXPR)                                          \
    for (uint32_t k = 0; k < n; k++) {                           \
        uint32_t i = exec_batch_row(b, k);                       \
        uint64_t seed = first ? SL_HASH_SEED : out[i];           \
        out[i] = vec_null(v, i) ? exec_null_hash(seed) : (EXPR); \
    }
    switch (v->type.id) {
    case EXEC_TYPE_INT:
    case EXEC_TYPE_DATE:
        HASH_LOOP(sl_hash_u64((uint64_t)(int64_t)EXEC_VEC_AT(v, int32_t, i), seed));
        break;
    case EXEC_TYPE_BIGINT:
    case EXEC_TYPE_TIMESTAMP:
        HASH_LOOP(sl_hash_u64((uint64_t)EXEC_VEC_AT(v, int64_t, i), seed));
        break;
    case EXEC_TYPE_STRING:
    case EXEC_TYPE_BINARY:
        HASH_LOOP(sl_hash_bytes(EXEC_VEC_AT(v, exec_str_t, i).ptr,
                                EXEC_VEC_AT(v, exec_str_t, i).len, seed));
        break;
    default: HASH_LOOP(hash_cell_row(v, i, seed)); break;
    }
#undef HASH_LOOP
}

void exec_hash_rows(const exec_batch_t *b, const int *cols, int ncols, uint64_t *out)
{
    if (ncols == 0) {
        uint32_t n = exec_batch_count(b);
        for (uint32_t k = 0; k < n; k++) out[exec_batch_row(b, k)] = SL_HASH_SEED;
        return;
    }
    for (int c = 0; c < ncols; c++) hash_column(b, &b->cols[cols[c]], out, c == 0);
}
