/* exec values: constructors, ordering, hashing and text I/O of single
 * values and of cells (one value's C representation). */
#include "model/value.h"

#include <math.h>
#include <string.h>

#include "common/hash.h"
#include "model/json.h"
#include "model/text_io.h"

exec_value_t exec_value_null(exec_type_t t)
{
    exec_value_t v = {.type = t, .is_null = true};
    return v;
}

static exec_value_t scalar(exec_type_id_t id)
{
    exec_value_t v = {.type = exec_type_of(id)};
    return v;
}

exec_value_t exec_value_bool(bool b)
{
    exec_value_t v = scalar(EXEC_TYPE_BOOLEAN);
    v.u.b = b ? 1 : 0;
    return v;
}

exec_value_t exec_value_int(int32_t i)
{
    exec_value_t v = scalar(EXEC_TYPE_INT);
    v.u.i32 = i;
    return v;
}

exec_value_t exec_value_bigint(int64_t i)
{
    exec_value_t v = scalar(EXEC_TYPE_BIGINT);
    v.u.i64 = i;
    return v;
}

exec_value_t exec_value_double(double d)
{
    exec_value_t v = scalar(EXEC_TYPE_DOUBLE);
    v.u.f64 = d;
    return v;
}

exec_value_t exec_value_decimal(exec_dec_t scaled, int precision, int scale)
{
    exec_value_t v = {.type = exec_type_decimal(precision, scale)};
    v.u.dec = scaled;
    return v;
}

exec_value_t exec_value_string(const char *p, size_t len)
{
    exec_value_t v = scalar(EXEC_TYPE_STRING);
    v.u.str.ptr = p;
    v.u.str.len = (uint32_t)len;
    return v;
}

exec_value_t exec_value_timestamp(int64_t micros)
{
    exec_value_t v = scalar(EXEC_TYPE_TIMESTAMP);
    v.u.i64 = micros;
    return v;
}

exec_value_t exec_value_date(int32_t days)
{
    exec_value_t v = scalar(EXEC_TYPE_DATE);
    v.u.i32 = days;
    return v;
}

exec_value_t exec_value_interval(exec_interval_t iv)
{
    exec_value_t v = scalar(EXEC_TYPE_INTERVAL);
    v.u.iv = iv;
    return v;
}

exec_value_t exec_value_cstr(sl_arena_t *a, const char *s)
{
    size_t n = strlen(s);
    return exec_value_string(sl_strndup(a, s, n), n);
}

exec_value_t exec_value_struct(exec_type_t t, exec_value_t *fields)
{
    exec_value_t v = {.type = t};
    v.u.fields = fields;
    return v;
}

exec_value_t exec_value_copy(sl_arena_t *a, const exec_value_t *v)
{
    exec_value_t c = *v;
    if (v->is_null) return c;
    if (exec_type_is_varlen(v->type) && v->u.str.len) {
        c.u.str.ptr = sl_strndup(a, v->u.str.ptr, v->u.str.len);
    } else if (v->type.id == EXEC_TYPE_STRUCT) {
        c.u.fields = SL_NEW_ARRAY(a, exec_value_t, v->type.nfields ? v->type.nfields : 1);
        for (int i = 0; i < v->type.nfields; i++)
            c.u.fields[i] = exec_value_copy(a, &v->u.fields[i]);
    }
    return c;
}

/* ---- cells -------------------------------------------------------------- */

static int cmp_double(double a, double b)
{
    if (isnan(a)) return isnan(b) ? 0 : 1;
    if (isnan(b)) return -1;
    return (a > b) - (a < b);
}

static int cmp_bytes(const exec_str_t *a, const exec_str_t *b)
{
    uint32_t n = a->len < b->len ? a->len : b->len;
    int c = n ? memcmp(a->ptr, b->ptr, n) : 0;
    if (c) return c < 0 ? -1 : 1;
    return (a->len > b->len) - (a->len < b->len);
}

static int cmp_interval(const exec_interval_t *a, const exec_interval_t *b)
{
    __int128 sa = exec_interval_span(*a), sb = exec_interval_span(*b);
    if (sa != sb) return sa < sb ? -1 : 1;
    if (a->months != b->months) return a->months < b->months ? -1 : 1;
    if (a->days != b->days) return a->days < b->days ? -1 : 1;
    return (a->micros > b->micros) - (a->micros < b->micros);
}

#define CMP(T) return (*(const T *)a > *(const T *)b) - (*(const T *)a < *(const T *)b)

int exec_cell_compare(exec_type_t t, const void *a, const void *b)
{
    switch (t.id) {
    case EXEC_TYPE_BOOLEAN: CMP(uint8_t);
    case EXEC_TYPE_INT:
    case EXEC_TYPE_DATE: CMP(int32_t);
    case EXEC_TYPE_BIGINT:
    case EXEC_TYPE_TIMESTAMP: CMP(int64_t);
    case EXEC_TYPE_DECIMAL: CMP(exec_dec_t);
    case EXEC_TYPE_DOUBLE: return cmp_double(*(const double *)a, *(const double *)b);
    case EXEC_TYPE_STRING:
    case EXEC_TYPE_BINARY: return cmp_bytes(a, b);
    case EXEC_TYPE_INTERVAL: return cmp_interval(a, b);
    default: return 0;
    }
}

bool exec_cell_equal(exec_type_t t, const void *a, const void *b)
{
    if (exec_type_is_varlen(t)) {
        const exec_str_t *x = a, *y = b;
        return x->len == y->len && (x->len == 0 || !memcmp(x->ptr, y->ptr, x->len));
    }
    return exec_cell_compare(t, a, b) == 0;
}

uint64_t exec_null_hash(uint64_t seed)
{
    return sl_hash_u64(0x6e756c6cULL, seed ^ 0x1234567ULL);
}

uint64_t exec_cell_hash(exec_type_t t, const void *cell, uint64_t seed)
{
    switch (t.id) {
    case EXEC_TYPE_BOOLEAN: return sl_hash_u64(*(const uint8_t *)cell, seed);
    case EXEC_TYPE_INT:
    case EXEC_TYPE_DATE: return sl_hash_u64((uint64_t)(int64_t) * (const int32_t *)cell, seed);
    case EXEC_TYPE_BIGINT:
    case EXEC_TYPE_TIMESTAMP: return sl_hash_u64((uint64_t) * (const int64_t *)cell, seed);
    case EXEC_TYPE_DOUBLE: {
        double d = *(const double *)cell;
        if (d == 0) d = 0;     /* -0 hashes as 0 */
        if (isnan(d)) d = NAN; /* one NaN */
        uint64_t bits;
        memcpy(&bits, &d, 8);
        return sl_hash_u64(bits, seed);
    }
    case EXEC_TYPE_DECIMAL: {
        exec_dec_t v = *(const exec_dec_t *)cell;
        if (v >= INT64_MIN && v <= INT64_MAX) return sl_hash_u64((uint64_t)(int64_t)v, seed);
        unsigned char b[16];
        for (int i = 0; i < 16; i++) b[i] = (unsigned char)((unsigned __int128)v >> (8 * i));
        return sl_hash_bytes(b, 16, seed);
    }
    case EXEC_TYPE_STRING:
    case EXEC_TYPE_BINARY: {
        const exec_str_t *s = cell;
        return sl_hash_bytes(s->ptr, s->len, seed);
    }
    case EXEC_TYPE_INTERVAL: {
        const exec_interval_t *iv = cell;
        uint64_t h = sl_hash_u64((uint64_t)(uint32_t)iv->months << 32 | (uint32_t)iv->days, seed);
        return sl_hash_u64((uint64_t)iv->micros, h);
    }
    default: return exec_null_hash(seed);
    }
}

/* ---- values ------------------------------------------------------------- */

int exec_value_compare(const exec_value_t *a, const exec_value_t *b)
{
    if (a->is_null || b->is_null) return a->is_null == b->is_null ? 0 : (a->is_null ? -1 : 1);
    if (a->type.id != EXEC_TYPE_STRUCT) return exec_cell_compare(a->type, &a->u, &b->u);
    for (int i = 0; i < a->type.nfields; i++) {
        int c = exec_value_compare(&a->u.fields[i], &b->u.fields[i]);
        if (c) return c;
    }
    return 0;
}

bool exec_value_equal(const exec_value_t *a, const exec_value_t *b)
{
    if (a->is_null || b->is_null) return a->is_null && b->is_null;
    if (a->type.id != EXEC_TYPE_STRUCT) return exec_cell_equal(a->type, &a->u, &b->u);
    return exec_value_compare(a, b) == 0;
}

uint64_t exec_value_hash(const exec_value_t *v, uint64_t seed)
{
    if (v->is_null) return exec_null_hash(seed);
    if (v->type.id != EXEC_TYPE_STRUCT) return exec_cell_hash(v->type, &v->u, seed);
    uint64_t h = seed;
    for (int i = 0; i < v->type.nfields; i++) h = exec_value_hash(&v->u.fields[i], h);
    return h;
}

bool exec_value_format(const exec_value_t *v, sl_buf_t *buf)
{
    if (v->is_null || v->type.id == EXEC_TYPE_NULL) return false;
    if (v->type.id == EXEC_TYPE_STRUCT) {
        sl_json_t j;
        sl_json_init(&j, buf, false);
        exec_json_write_value(&j, v, false);
        return true;
    }
    exec_text_format(v->type, &v->u, buf);
    return true;
}

const char *exec_value_text(const exec_value_t *v, sl_arena_t *a)
{
    sl_buf_t b = SL_BUF_INIT;
    if (!exec_value_format(v, &b)) return NULL;
    char *s = sl_strndup(a, b.data ? b.data : "", b.len);
    sl_buf_free(&b);
    return s;
}

int exec_value_parse(exec_type_t t, const char *s, size_t n, sl_arena_t *a, exec_value_t *out,
                     sl_error_t *err)
{
    *out = exec_value_null(t);
    out->is_null = false;
    if (t.id == EXEC_TYPE_STRUCT) return exec_json_parse_value(t, s, n, a, out, err);
    return exec_text_parse(t, s, n, a, &out->u, err);
}
