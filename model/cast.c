/* exec casts: the cast table, implicit coercion rules and one vector
 * kernel per (from, to) pair, each a tight loop over the selected rows. */
#include "model/cast.h"

#include <math.h>
#include <string.h>

#include "common/json_write.h"
#include "model/decimal.h"
#include "model/json.h"
#include "model/text_io.h"

/* ---- rules ------------------------------------------------------------- */

static bool is_num(exec_type_t t)
{
    return exec_type_is_numeric(t);
}

static bool struct_castable(exec_type_t from, exec_type_t to)
{
    if (from.nfields != to.nfields) return false;
    for (int i = 0; i < from.nfields; i++)
        if (!exec_cast_allowed(from.fields[i].type, to.fields[i].type)) return false;
    return true;
}

bool exec_cast_allowed(exec_type_t from, exec_type_t to)
{
    exec_type_id_t f = from.id, t = to.id;
    if (f == EXEC_TYPE_NULL || f == t) return f != EXEC_TYPE_STRUCT || struct_castable(from, to);
    if (t == EXEC_TYPE_NULL) return false;
    if (t == EXEC_TYPE_STRING) return true;
    if (f == EXEC_TYPE_STRING) return t != EXEC_TYPE_STRUCT;
    if (f == EXEC_TYPE_BOOLEAN || t == EXEC_TYPE_BOOLEAN)
        return (f == EXEC_TYPE_BOOLEAN && is_num(to)) || (t == EXEC_TYPE_BOOLEAN && is_num(from));
    if (is_num(from) && is_num(to)) return true;
    if (t == EXEC_TYPE_TIMESTAMP)
        return f == EXEC_TYPE_DATE || exec_type_is_integer(from) || f == EXEC_TYPE_DOUBLE;
    if (f == EXEC_TYPE_TIMESTAMP)
        return t == EXEC_TYPE_DATE || t == EXEC_TYPE_BIGINT || t == EXEC_TYPE_DOUBLE;
    return false;
}

bool exec_cast_implicit(exec_type_t from, exec_type_t to)
{
    exec_type_id_t f = from.id, t = to.id;
    if (exec_type_equal(from, to) || f == EXEC_TYPE_NULL) return true;
    if (f == EXEC_TYPE_STRING) return t != EXEC_TYPE_STRUCT && t != EXEC_TYPE_NULL;
    if (f == EXEC_TYPE_DATE) return t == EXEC_TYPE_TIMESTAMP;
    if (!is_num(from) || !is_num(to)) return false;
    if (t == EXEC_TYPE_DOUBLE) return true;
    if (f == EXEC_TYPE_DOUBLE) return false;
    if (t == EXEC_TYPE_BIGINT) return f == EXEC_TYPE_INT;
    if (t == EXEC_TYPE_INT) return false;
    exec_type_t d = exec_dec_type_of(from);
    return to.scale >= d.scale && to.precision - to.scale >= d.precision - d.scale;
}

int exec_common_type(exec_type_t a, exec_type_t b, const char *context, exec_type_t *out,
                     sl_error_t *err)
{
    if (exec_type_equal(a, b) || b.id == EXEC_TYPE_NULL) return (*out = a), 0;
    if (a.id == EXEC_TYPE_NULL) return (*out = b), 0;
    if (is_num(a) && is_num(b)) {
        if (a.id == EXEC_TYPE_DOUBLE || b.id == EXEC_TYPE_DOUBLE)
            *out = exec_type_of(EXEC_TYPE_DOUBLE);
        else if (a.id == EXEC_TYPE_DECIMAL || b.id == EXEC_TYPE_DECIMAL)
            *out = exec_dec_wider(a, b);
        else *out = exec_type_of(EXEC_TYPE_BIGINT);
        return 0;
    }
    if (a.id == EXEC_TYPE_STRING && b.id != EXEC_TYPE_STRUCT) return (*out = b), 0;
    if (b.id == EXEC_TYPE_STRING && a.id != EXEC_TYPE_STRUCT) return (*out = a), 0;
    if ((a.id == EXEC_TYPE_DATE && b.id == EXEC_TYPE_TIMESTAMP) ||
        (a.id == EXEC_TYPE_TIMESTAMP && b.id == EXEC_TYPE_DATE))
        return (*out = exec_type_of(EXEC_TYPE_TIMESTAMP)), 0;
    return sl_error_set(err, SL_ERR_DATATYPE_MISMATCH, "%s%stypes %s and %s cannot be matched",
                        context ? context : "", context ? " " : "", exec_type_pg_name(a),
                        exec_type_pg_name(b));
}

/* ---- kernel scaffolding ------------------------------------------------ */

/* Runs BODY for every selected non-NULL row i; four loops so that the
 * common no-selection, no-NULL case is a plain counted loop. */
#define ROWS(BODY)                                \
    do {                                          \
        const uint8_t *nl_ = src->nulls;          \
        if (!sel && !nl_) {                       \
            for (uint32_t i = 0; i < n; i++) {    \
                BODY;                             \
            }                                     \
        } else if (!sel) {                        \
            for (uint32_t i = 0; i < n; i++)      \
                if (!nl_[i]) {                    \
                    BODY;                         \
                }                                 \
        } else if (!nl_) {                        \
            for (uint32_t k_ = 0; k_ < n; k_++) { \
                uint32_t i = sel[k_];             \
                BODY;                             \
            }                                     \
        } else {                                  \
            for (uint32_t k_ = 0; k_ < n; k_++) { \
                uint32_t i = sel[k_];             \
                if (!nl_[i]) {                    \
                    BODY;                         \
                }                                 \
            }                                     \
        }                                         \
    } while (0)

#define KERNEL(name)                                                                         \
    static int name(const exec_vec_t *src, exec_vec_t *dst, const uint32_t *sel, uint32_t n, \
                    sl_arena_t *a, sl_error_t *err)

#define S(T) ((const T *)src->data)
#define D(T) ((T *)dst->data)

static int range_error(exec_type_t to, sl_error_t *err)
{
    switch (to.id) {
    case EXEC_TYPE_INT:
        return sl_error_set(err, SL_ERR_NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
    case EXEC_TYPE_BIGINT:
        return sl_error_set(err, SL_ERR_NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");
    case EXEC_TYPE_TIMESTAMP:
        return sl_error_set(err, SL_ERR_DATETIME_FIELD_OVERFLOW, "timestamp out of range");
    case EXEC_TYPE_DECIMAL: return exec_text_error(to, EXEC_PARSE_RANGE, "", 0, err);
    default:
        return sl_error_set(err, SL_ERR_NUMERIC_VALUE_OUT_OF_RANGE,
                            "value out of range for type %s", exec_type_pg_name(to));
    }
}

/* ---- same type and NULL ------------------------------------------------ */

KERNEL(k_copy)
{
    (void)a, (void)err;
    size_t w = exec_type_width(src->type);
    ROWS(memcpy((char *)dst->data + (size_t)i * w, (const char *)src->data + (size_t)i * w, w));
    return 0;
}

KERNEL(k_from_null)
{
    (void)src, (void)dst, (void)sel, (void)n, (void)a, (void)err;
    return 0; /* every row NULL: dst->nulls is src's all-ones map */
}

/* ---- numeric ----------------------------------------------------------- */

KERNEL(k_i32_i64)
{
    (void)a, (void)err;
    ROWS(D(int64_t)[i] = S(int32_t)[i]);
    return 0;
}
KERNEL(k_i32_f64)
{
    (void)a, (void)err;
    ROWS(D(double)[i] = S(int32_t)[i]);
    return 0;
}
KERNEL(k_i64_f64)
{
    (void)a, (void)err;
    ROWS(D(double)[i] = (double)S(int64_t)[i]);
    return 0;
}

KERNEL(k_i64_i32)
{
    (void)a;
    ROWS(int64_t v = S(int64_t)[i];
         if (v < INT32_MIN || v > INT32_MAX) return range_error(dst->type, err);
         D(int32_t)[i] = (int32_t)v);
    return 0;
}

KERNEL(k_f64_i32)
{
    (void)a;
    ROWS(double v = S(double)[i];
         if (!(v > -2147483649.0 && v < 2147483648.0)) return range_error(dst->type, err);
         D(int32_t)[i] = (int32_t)v);
    return 0;
}

KERNEL(k_f64_i64)
{
    (void)a;
    ROWS(double v = S(double)[i];
         if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) return range_error(
             dst->type, err);
         D(int64_t)[i] = (int64_t)v);
    return 0;
}

KERNEL(k_int_dec)
{
    (void)a;
    int p = dst->type.precision;
    exec_dec_t m = exec_dec_pow10(dst->type.scale);
    bool wide = src->type.id == EXEC_TYPE_BIGINT;
    ROWS(exec_dec_t v; exec_dec_t x = wide ? (exec_dec_t)S(int64_t)[i] : (exec_dec_t)S(int32_t)[i];
         if (__builtin_mul_overflow(x, m, &v) || !exec_dec_fits(v, p)) return range_error(dst->type,
                                                                                          err);
         D(exec_dec_t)[i] = v);
    return 0;
}

KERNEL(k_dec_dec)
{
    (void)a;
    int from = src->type.scale, to = dst->type.scale, p = dst->type.precision;
    ROWS(exec_dec_t v; if (!exec_dec_rescale(S(exec_dec_t)[i], from, to, &v) ||
                           !exec_dec_fits(v, p)) return range_error(dst->type, err);
         D(exec_dec_t)[i] = v);
    return 0;
}

KERNEL(k_dec_int)
{
    (void)a;
    int s = src->type.scale;
    bool wide = dst->type.id == EXEC_TYPE_BIGINT;
    exec_dec_t lo = wide ? INT64_MIN : INT32_MIN, hi = wide ? INT64_MAX : INT32_MAX;
    ROWS(exec_dec_t v = exec_dec_trunc(S(exec_dec_t)[i], s);
         if (v < lo || v > hi) return range_error(dst->type, err);
         if (wide) D(int64_t)[i] = (int64_t)v; else D(int32_t)[i] = (int32_t)v);
    return 0;
}

KERNEL(k_dec_f64)
{
    (void)a, (void)err;
    int s = src->type.scale;
    ROWS(D(double)[i] = exec_dec_to_double(S(exec_dec_t)[i], s));
    return 0;
}

KERNEL(k_f64_dec)
{
    (void)a;
    int p = dst->type.precision, s = dst->type.scale;
    ROWS(if (!exec_dec_from_double(S(double)[i], p, s, &D(exec_dec_t)[i])) return range_error(
        dst->type, err));
    return 0;
}

/* ---- booleans ---------------------------------------------------------- */

/* Reads any numeric cell as "is it nonzero". */
static bool num_nonzero(const exec_vec_t *v, uint32_t i)
{
    switch (v->type.id) {
    case EXEC_TYPE_INT: return ((const int32_t *)v->data)[i] != 0;
    case EXEC_TYPE_BIGINT: return ((const int64_t *)v->data)[i] != 0;
    case EXEC_TYPE_DOUBLE: return ((const double *)v->data)[i] != 0;
    default: return ((const exec_dec_t *)v->data)[i] != 0;
    }
}

KERNEL(k_num_bool)
{
    (void)a, (void)err;
    ROWS(D(uint8_t)[i] = num_nonzero(src, i));
    return 0;
}

KERNEL(k_bool_num)
{
    (void)a, (void)err;
    exec_dec_t one = dst->type.id == EXEC_TYPE_DECIMAL ? exec_dec_pow10(dst->type.scale) : 1;
    switch (dst->type.id) {
    case EXEC_TYPE_INT: ROWS(D(int32_t)[i] = S(uint8_t)[i]); break;
    case EXEC_TYPE_BIGINT: ROWS(D(int64_t)[i] = S(uint8_t)[i]); break;
    case EXEC_TYPE_DOUBLE: ROWS(D(double)[i] = S(uint8_t)[i]); break;
    default:
        if (dst->type.precision <= dst->type.scale)
            ROWS(if (S(uint8_t)[i]) return range_error(dst->type, err); D(exec_dec_t)[i] = 0);
        else ROWS(D(exec_dec_t)[i] = S(uint8_t)[i] ? one : 0);
    }
    return 0;
}

/* ---- time -------------------------------------------------------------- */

KERNEL(k_ts_date)
{
    (void)a, (void)err;
    ROWS(D(int32_t)[i] = (int32_t)exec_floor_div(S(int64_t)[i], EXEC_USECS_PER_DAY));
    return 0;
}

KERNEL(k_date_ts)
{
    (void)a, (void)err;
    ROWS(D(int64_t)[i] = (int64_t)S(int32_t)[i] * EXEC_USECS_PER_DAY);
    return 0;
}

KERNEL(k_ts_i64)
{
    (void)a, (void)err;
    ROWS(D(int64_t)[i] = exec_floor_div(S(int64_t)[i], EXEC_USECS_PER_SEC));
    return 0;
}

KERNEL(k_ts_f64)
{
    (void)a, (void)err;
    ROWS(D(double)[i] = (double)S(int64_t)[i] / 1e6);
    return 0;
}

KERNEL(k_num_ts)
{
    (void)a;
    ROWS(double secs = src->type.id == EXEC_TYPE_INT      ? S(int32_t)[i]
                       : src->type.id == EXEC_TYPE_BIGINT ? (double)S(int64_t)[i]
                                                          : S(double)[i];
         double us = secs * 1e6;
         if (!(us >= (double)EXEC_TS_MIN && us < (double)EXEC_TS_END)) return range_error(dst->type,
                                                                                          err);
         D(int64_t)[i] = src->type.id == EXEC_TYPE_DOUBLE ? (int64_t)llround(us)
                         : src->type.id == EXEC_TYPE_INT
                             ? (int64_t)S(int32_t)[i] * EXEC_USECS_PER_SEC
                             : S(int64_t)[i] * EXEC_USECS_PER_SEC);
    return 0;
}

/* ---- strings ----------------------------------------------------------- */

static exec_str_t buf_to_str(sl_arena_t *a, const sl_buf_t *b)
{
    exec_str_t s = {(uint32_t)b->len, b->len ? sl_strndup(a, b->data, b->len) : ""};
    return s;
}

KERNEL(k_to_string)
{
    (void)err;
    sl_buf_t b = SL_BUF_INIT;
    size_t w = exec_type_width(src->type);
    bool boolean = src->type.id == EXEC_TYPE_BOOLEAN;
    ROWS(sl_buf_clear(&b); if (boolean) sl_buf_puts(&b, S(uint8_t)[i] ? "true" : "false");
         else exec_text_format(src->type, (const char *)src->data + (size_t)i * w, &b);
         D(exec_str_t)[i] = buf_to_str(a, &b));
    sl_buf_free(&b);
    return 0;
}

KERNEL(k_struct_string)
{
    (void)err;
    sl_buf_t b = SL_BUF_INIT;
    ROWS(sl_buf_clear(&b); sl_json_t j; sl_json_init(&j, &b, false);
         exec_json_write_cell(&j, src, i, false); D(exec_str_t)[i] = buf_to_str(a, &b));
    sl_buf_free(&b);
    return 0;
}

KERNEL(k_bytes)
{
    (void)a, (void)err;
    ROWS(D(exec_str_t)[i] = S(exec_str_t)[i]);
    return 0;
}

KERNEL(k_parse)
{
    size_t w = exec_type_width(dst->type);
    ROWS(const exec_str_t *s = &S(exec_str_t)[i];
         if (exec_text_parse(dst->type, s->ptr ? s->ptr : "", s->len, a,
                             (char *)dst->data + (size_t)i * w, err)) return -1);
    return 0;
}

/* ---- structs ----------------------------------------------------------- */

KERNEL(k_struct_struct)
{
    for (int f = 0; f < dst->type.nfields; f++) {
        const exec_vec_t *sc = &src->children[f];
        exec_vec_t *dc = &dst->children[f];
        exec_cast_fn fn = exec_cast_kernel(sc->type, dc->type);
        if (fn(sc, dc, sel, n, a, err)) return -1;
        dc->nulls = sc->nulls;
    }
    return 0;
}

/* ---- selection --------------------------------------------------------- */

static exec_cast_fn numeric_kernel(exec_type_id_t f, exec_type_id_t t)
{
    switch (f) {
    case EXEC_TYPE_INT:
        return t == EXEC_TYPE_BIGINT ? k_i32_i64 : t == EXEC_TYPE_DOUBLE ? k_i32_f64 : k_int_dec;
    case EXEC_TYPE_BIGINT:
        return t == EXEC_TYPE_INT ? k_i64_i32 : t == EXEC_TYPE_DOUBLE ? k_i64_f64 : k_int_dec;
    case EXEC_TYPE_DOUBLE:
        return t == EXEC_TYPE_INT ? k_f64_i32 : t == EXEC_TYPE_BIGINT ? k_f64_i64 : k_f64_dec;
    default:
        return t == EXEC_TYPE_DOUBLE ? k_dec_f64 : t == EXEC_TYPE_DECIMAL ? k_dec_dec : k_dec_int;
    }
}

static exec_cast_fn time_kernel(exec_type_id_t f, exec_type_id_t t)
{
    if (t == EXEC_TYPE_TIMESTAMP) return f == EXEC_TYPE_DATE ? k_date_ts : k_num_ts;
    if (t == EXEC_TYPE_DATE) return k_ts_date;
    return t == EXEC_TYPE_BIGINT ? k_ts_i64 : k_ts_f64;
}

exec_cast_fn exec_cast_kernel(exec_type_t from, exec_type_t to)
{
    if (!exec_cast_allowed(from, to)) return NULL;
    exec_type_id_t f = from.id, t = to.id;
    if (f == EXEC_TYPE_NULL) return k_from_null;
    if (f == EXEC_TYPE_STRUCT && t == EXEC_TYPE_STRUCT) return k_struct_struct;
    if (f == t && f != EXEC_TYPE_DECIMAL) return k_copy;
    if (t == EXEC_TYPE_STRING) {
        if (f == EXEC_TYPE_BINARY) return k_bytes;
        return f == EXEC_TYPE_STRUCT ? k_struct_string : k_to_string;
    }
    if (f == EXEC_TYPE_STRING) return k_parse; /* to BINARY: PostgreSQL's bytea input */
    if (f == EXEC_TYPE_BOOLEAN) return k_bool_num;
    if (t == EXEC_TYPE_BOOLEAN) return k_num_bool;
    if (is_num(from) && is_num(to)) return numeric_kernel(f, t);
    return time_kernel(f, t);
}

exec_cast_fn exec_cast_bytes_kernel(void)
{
    return k_bytes;
}

int exec_cast_value(const exec_value_t *v, exec_type_t to, sl_arena_t *a, exec_value_t *out,
                    sl_error_t *err)
{
    exec_cast_fn fn = exec_cast_kernel(v->type, to);
    if (!fn)
        return sl_error_set(err, SL_ERR_CANNOT_COERCE, "cannot cast type %s to %s",
                            exec_type_pg_name(v->type), exec_type_pg_name(to));
    exec_builder_t b;
    exec_builder_init(&b, a, 1, &v->type, 1);
    exec_builder_add_row(&b);
    exec_builder_set_value(&b, 0, 0, v);
    exec_batch_t *src = exec_builder_finish(&b);
    exec_vec_t dst = exec_vec_new(a, to, 1);
    if (fn(&src->cols[0], &dst, NULL, 1, a, err)) return -1;
    dst.nulls = src->cols[0].nulls;
    exec_vec_get_value(&dst, 0, a, out);
    return 0;
}
