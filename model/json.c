/* exec JSON: typed values to JSON text and a small recursive-descent JSON
 * reader that fills typed values directly (no intermediate DOM). */
#include "model/json.h"

#include <ctype.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#include "model/decimal.h"
#include "model/text_io.h"

#define JSON_MAX_DEPTH 64

/* ---- writing ------------------------------------------------------------ */

void exec_base64_encode(const void *data, size_t n, sl_buf_t *buf)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const unsigned char *p = data;
    sl_buf_reserve(buf, (n + 2) / 3 * 4);
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        char q[4] = {tab[v >> 18], tab[v >> 12 & 63], i + 1 < n ? tab[v >> 6 & 63] : '=',
                     i + 2 < n ? tab[v & 63] : '='};
        sl_buf_append(buf, q, 4);
    }
}

static int b64val(char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

bool exec_base64_decode(const char *s, size_t n, sl_arena_t *a, exec_str_t *out)
{
    while (n > 0 && s[n - 1] == '=') n--;
    if (n % 4 == 1) return false;
    char *dst = sl_alloc(a, n * 3 / 4 + 1);
    size_t k = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int v = b64val(s[i]);
        if (v < 0) return false;
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            dst[k++] = (char)(acc >> bits & 0xff);
        }
    }
    out->ptr = dst;
    out->len = (uint32_t)k;
    return true;
}

/* A value as a JSON string through its text writer. */
static void write_text_string(sl_json_t *j, void (*fmt)(sl_buf_t *, const void *), const void *cell)
{
    sl_buf_t tmp = SL_BUF_INIT;
    fmt(&tmp, cell);
    sl_json_string_n(j, tmp.data ? tmp.data : "", tmp.len);
    sl_buf_free(&tmp);
}

static void fmt_ts(sl_buf_t *b, const void *c)
{
    exec_format_timestamp_iso(*(const int64_t *)c, b);
}
static void fmt_date(sl_buf_t *b, const void *c)
{
    exec_format_date(*(const int32_t *)c, b);
}
static void fmt_iv(sl_buf_t *b, const void *c)
{
    exec_format_interval(*(const exec_interval_t *)c, b);
}
static void fmt_b64(sl_buf_t *b, const void *c)
{
    const exec_str_t *s = c;
    exec_base64_encode(s->ptr, s->len, b);
}

static void write_double(sl_json_t *j, double d)
{
    if (isfinite(d)) sl_json_double(j, d);
    else sl_json_string(j, isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
}

void exec_json_write_scalar(sl_json_t *j, exec_type_t t, const void *cell)
{
    switch (t.id) {
    case EXEC_TYPE_BOOLEAN: sl_json_bool(j, *(const uint8_t *)cell); break;
    case EXEC_TYPE_INT: sl_json_int(j, *(const int32_t *)cell); break;
    case EXEC_TYPE_BIGINT: sl_json_int(j, *(const int64_t *)cell); break;
    case EXEC_TYPE_DOUBLE: write_double(j, *(const double *)cell); break;
    case EXEC_TYPE_DECIMAL: {
        sl_buf_t tmp = SL_BUF_INIT;
        exec_format_decimal(*(const exec_dec_t *)cell, t.scale, &tmp);
        sl_json_raw(j, tmp.data, tmp.len);
        sl_buf_free(&tmp);
        break;
    }
    case EXEC_TYPE_STRING: {
        const exec_str_t *s = cell;
        sl_json_string_n(j, s->ptr ? s->ptr : "", s->len);
        break;
    }
    case EXEC_TYPE_BINARY: write_text_string(j, fmt_b64, cell); break;
    case EXEC_TYPE_TIMESTAMP: write_text_string(j, fmt_ts, cell); break;
    case EXEC_TYPE_DATE: write_text_string(j, fmt_date, cell); break;
    case EXEC_TYPE_INTERVAL: write_text_string(j, fmt_iv, cell); break;
    default: sl_json_null(j); break;
    }
}

void exec_json_write_value(sl_json_t *j, const exec_value_t *v, bool omit_null_fields)
{
    if (v->is_null || v->type.id == EXEC_TYPE_NULL) {
        sl_json_null(j);
        return;
    }
    if (v->type.id != EXEC_TYPE_STRUCT) {
        exec_json_write_scalar(j, v->type, &v->u);
        return;
    }
    sl_json_object_begin(j);
    for (int i = 0; i < v->type.nfields; i++) {
        const exec_value_t *f = &v->u.fields[i];
        if (omit_null_fields && f->is_null) continue;
        sl_json_key(j, v->type.fields[i].name);
        exec_json_write_value(j, f, omit_null_fields);
    }
    sl_json_object_end(j);
}

void exec_json_write_cell(sl_json_t *j, const exec_vec_t *v, uint32_t row, bool omit_null_fields)
{
    if (exec_vec_is_null(v, row) || v->type.id == EXEC_TYPE_NULL) {
        sl_json_null(j);
        return;
    }
    if (v->type.id != EXEC_TYPE_STRUCT) {
        exec_json_write_scalar(j, v->type,
                               (const char *)v->data + (size_t)row * exec_type_width(v->type));
        return;
    }
    sl_json_object_begin(j);
    for (int i = 0; i < v->type.nfields; i++) {
        if (omit_null_fields && exec_vec_is_null(&v->children[i], row)) continue;
        sl_json_key(j, v->type.fields[i].name);
        exec_json_write_cell(j, &v->children[i], row, omit_null_fields);
    }
    sl_json_object_end(j);
}

/* ---- reading ------------------------------------------------------------ */

typedef struct jp {
    const char *p, *end;
    sl_arena_t *a;
    int depth;
    const char *why; /* first problem found, for the error detail */
} jp_t;

static bool fail(jp_t *j, const char *why)
{
    if (!j->why) j->why = why;
    return false;
}

static void ws(jp_t *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
        j->p++;
}

static bool lit(jp_t *j, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n)) return false;
    j->p += n;
    return true;
}

static int hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0) return -1;
        v = v << 4 | d;
    }
    return v;
}

static size_t put_utf8(char *o, uint32_t cp)
{
    if (cp < 0x80) return (size_t)(o[0] = (char)cp, 1);
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 63));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | cp >> 12);
        o[1] = (char)(0x80 | (cp >> 6 & 63));
        o[2] = (char)(0x80 | (cp & 63));
        return 3;
    }
    o[0] = (char)(0xf0 | cp >> 18);
    o[1] = (char)(0x80 | (cp >> 12 & 63));
    o[2] = (char)(0x80 | (cp >> 6 & 63));
    o[3] = (char)(0x80 | (cp & 63));
    return 4;
}

/* \uXXXX at j->p (after the backslash-u), surrogate pairs joined. */
static bool read_u_escape(jp_t *j, uint32_t *cp)
{
    if (j->end - j->p < 4 || (int)(*cp = (uint32_t)hex4(j->p)) < 0)
        return fail(j, "bad \\u escape");
    j->p += 4;
    if (*cp >= 0xd800 && *cp < 0xdc00) {
        int lo;
        if (j->end - j->p < 6 || j->p[0] != '\\' || j->p[1] != 'u' ||
            (lo = hex4(j->p + 2)) < 0xdc00 || lo > 0xdfff)
            return fail(j, "unpaired surrogate");
        *cp = 0x10000 + ((*cp - 0xd800) << 10) + (uint32_t)(lo - 0xdc00);
        j->p += 6;
    } else if (*cp >= 0xdc00 && *cp < 0xe000) {
        return fail(j, "unpaired surrogate");
    }
    return true;
}

/* A string at j->p (on the opening quote), unescaped into the arena. */
static bool read_string(jp_t *j, exec_str_t *out)
{
    j->p++;
    const char *s = j->p;
    while (j->p < j->end && *j->p != '"' && *j->p != '\\') j->p++;
    if (j->p < j->end && *j->p == '"') { /* no escapes: one copy */
        out->ptr = sl_strndup(j->a, s, (size_t)(j->p - s));
        out->len = (uint32_t)(j->p++ - s);
        return true;
    }
    char *o = sl_alloc(j->a, (size_t)(j->end - s) + 4);
    size_t k = (size_t)(j->p - s);
    memcpy(o, s, k);
    while (j->p < j->end && *j->p != '"') {
        unsigned char c = (unsigned char)*j->p++;
        if (c < 0x20) return fail(j, "control character in string");
        if (c != '\\') {
            o[k++] = (char)c;
            continue;
        }
        if (j->p >= j->end) break;
        char e = *j->p++;
        uint32_t cp;
        switch (e) {
        case '"':
        case '\\':
        case '/': o[k++] = e; break;
        case 'b': o[k++] = '\b'; break;
        case 'f': o[k++] = '\f'; break;
        case 'n': o[k++] = '\n'; break;
        case 'r': o[k++] = '\r'; break;
        case 't': o[k++] = '\t'; break;
        case 'u':
            if (!read_u_escape(j, &cp)) return false;
            k += put_utf8(o + k, cp);
            break;
        default: return fail(j, "bad escape");
        }
    }
    if (j->p >= j->end) return fail(j, "unterminated string");
    j->p++;
    out->ptr = o;
    out->len = (uint32_t)k;
    return true;
}

/* The extent of a number token; false when there is none. */
static bool scan_number(jp_t *j, const char **s, size_t *n, bool *integral)
{
    const char *p = j->p;
    *integral = true;
    if (p < j->end && *p == '-') p++;
    if (p >= j->end || !isdigit((unsigned char)*p)) return fail(j, "unexpected character");
    if (*p == '0' && p + 1 < j->end && isdigit((unsigned char)p[1])) return fail(j, "leading zero");
    while (p < j->end && isdigit((unsigned char)*p)) p++;
    if (p < j->end && *p == '.') {
        *integral = false;
        if (++p >= j->end || !isdigit((unsigned char)*p)) return fail(j, "bad number");
        while (p < j->end && isdigit((unsigned char)*p)) p++;
    }
    if (p < j->end && (*p == 'e' || *p == 'E')) {
        *integral = false;
        p++;
        if (p < j->end && (*p == '+' || *p == '-')) p++;
        if (p >= j->end || !isdigit((unsigned char)*p)) return fail(j, "bad number");
        while (p < j->end && isdigit((unsigned char)*p)) p++;
    }
    *s = j->p;
    *n = (size_t)(p - j->p);
    j->p = p;
    return true;
}

static bool skip_value(jp_t *j);

/* Skips an object or array at j->p (on its opener). */
static bool skip_container(jp_t *j)
{
    char close = *j->p == '{' ? '}' : ']';
    bool obj = close == '}';
    if (++j->depth > JSON_MAX_DEPTH) return fail(j, "nesting too deep");
    j->p++;
    ws(j);
    if (j->p < j->end && *j->p == close) {
        j->p++;
        j->depth--;
        return true;
    }
    for (;;) {
        ws(j);
        if (obj) {
            exec_str_t k;
            if (j->p >= j->end || *j->p != '"' || !read_string(j, &k))
                return fail(j, "expected member name");
            ws(j);
            if (j->p >= j->end || *j->p++ != ':') return fail(j, "expected ':'");
        }
        if (!skip_value(j)) return false;
        ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == close) {
            j->p++;
            j->depth--;
            return true;
        }
        return fail(j, "expected ',' or end of container");
    }
}

static bool skip_value(jp_t *j)
{
    ws(j);
    if (j->p >= j->end) return fail(j, "unexpected end of input");
    char c = *j->p;
    if (c == '{' || c == '[') return skip_container(j);
    if (c == '"') {
        exec_str_t s;
        return read_string(j, &s);
    }
    if (lit(j, "true") || lit(j, "false") || lit(j, "null")) return true;
    const char *s;
    size_t n;
    bool integral;
    return scan_number(j, &s, &n, &integral);
}

static bool read_value(jp_t *j, exec_type_t t, exec_value_t *out);

/* Finds the field for a member name: exact match first, then any case. */
static int field_for(exec_type_t t, const exec_str_t *k, bool *exact)
{
    *exact = true;
    for (int i = 0; i < t.nfields; i++)
        if (strlen(t.fields[i].name) == k->len && !memcmp(t.fields[i].name, k->ptr, k->len))
            return i;
    *exact = false;
    for (int i = 0; i < t.nfields; i++)
        if (strlen(t.fields[i].name) == k->len && !strncasecmp(t.fields[i].name, k->ptr, k->len))
            return i;
    return -1;
}

/* Reads one member into its field; a member matching only by case does not
 * replace one matching exactly (exact[] marks those), whatever the order. */
static bool read_member(jp_t *j, exec_type_t t, exec_value_t *fields, bool *exact)
{
    exec_str_t k;
    ws(j);
    if (j->p >= j->end || *j->p != '"' || !read_string(j, &k))
        return fail(j, "expected member name");
    ws(j);
    if (j->p >= j->end || *j->p++ != ':') return fail(j, "expected ':'");
    bool is_exact;
    int f = field_for(t, &k, &is_exact);
    if (f < 0 || (!is_exact && exact[f])) return skip_value(j);
    exact[f] |= is_exact;
    return read_value(j, t.fields[f].type, &fields[f]);
}

static bool read_object(jp_t *j, exec_type_t t, exec_value_t *out)
{
    if (*j->p != '{') return fail(j, "expected an object");
    if (++j->depth > JSON_MAX_DEPTH) return fail(j, "nesting too deep");
    exec_value_t *fields = SL_NEW_ARRAY(j->a, exec_value_t, t.nfields ? t.nfields : 1);
    bool *exact = SL_NEW_ARRAY(j->a, bool, t.nfields ? t.nfields : 1);
    for (int i = 0; i < t.nfields; i++) fields[i] = exec_value_null(t.fields[i].type);
    *out = exec_value_struct(t, fields);
    j->p++;
    ws(j);
    if (j->p < j->end && *j->p == '}') {
        j->p++;
        j->depth--;
        return true;
    }
    for (;;) {
        if (!read_member(j, t, fields, exact)) return false;
        ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == '}') break;
        return fail(j, "expected ',' or '}'");
    }
    j->p++;
    j->depth--;
    return true;
}

/* A STRING field: the string, or the raw text of any other value. */
static bool read_as_string(jp_t *j, exec_value_t *out)
{
    if (*j->p == '"') {
        out->is_null = false;
        return read_string(j, &out->u.str);
    }
    const char *s = j->p;
    if (!skip_value(j)) return false;
    out->is_null = false;
    out->u.str.ptr = sl_strndup(j->a, s, (size_t)(j->p - s));
    out->u.str.len = (uint32_t)(j->p - s);
    return true;
}

static bool read_number_as(jp_t *j, exec_type_t t, exec_value_t *out)
{
    const char *s;
    size_t n;
    bool integral;
    if (!scan_number(j, &s, &n, &integral)) return false;
    exec_parse_status_t st = EXEC_PARSE_SYNTAX;
    switch (t.id) {
    case EXEC_TYPE_INT:
        st = integral ? exec_parse_int32(s, n, &out->u.i32) : EXEC_PARSE_SYNTAX;
        break;
    case EXEC_TYPE_BIGINT:
        st = integral ? exec_parse_int64(s, n, &out->u.i64) : EXEC_PARSE_SYNTAX;
        break;
    case EXEC_TYPE_DOUBLE: st = exec_parse_double(s, n, &out->u.f64); break;
    case EXEC_TYPE_DECIMAL: st = exec_parse_decimal(s, n, t.precision, t.scale, &out->u.dec); break;
    case EXEC_TYPE_TIMESTAMP: {
        double secs;
        st = exec_parse_double(s, n, &secs);
        double us = secs * 1e6;
        if (!st && !(us >= (double)EXEC_TS_MIN && us < (double)EXEC_TS_END)) st = EXEC_PARSE_RANGE;
        if (!st) out->u.i64 = (int64_t)llround(us);
        break;
    }
    default: return fail(j, "a number where the type does not take one");
    }
    if (st) return fail(j, "number does not fit the field's type");
    out->is_null = false;
    return true;
}

/* A JSON string holding a value's text form (timestamps, dates, doubles' NaN ...). */
static bool read_string_as(jp_t *j, exec_type_t t, exec_value_t *out)
{
    exec_str_t s;
    if (!read_string(j, &s)) return false;
    exec_parse_status_t st;
    switch (t.id) {
    case EXEC_TYPE_DOUBLE: st = exec_parse_double(s.ptr, s.len, &out->u.f64); break;
    case EXEC_TYPE_TIMESTAMP: st = exec_parse_timestamp(s.ptr, s.len, &out->u.i64); break;
    case EXEC_TYPE_DATE: st = exec_parse_date(s.ptr, s.len, &out->u.i32); break;
    case EXEC_TYPE_INTERVAL: st = exec_parse_interval(s.ptr, s.len, &out->u.iv); break;
    case EXEC_TYPE_BINARY:
        st = exec_base64_decode(s.ptr, s.len, j->a, &out->u.str) ? 0 : EXEC_PARSE_SYNTAX;
        break;
    default: return fail(j, "a string where the type does not take one");
    }
    if (st) return fail(j, "string does not hold a value of the field's type");
    out->is_null = false;
    return true;
}

static bool read_value(jp_t *j, exec_type_t t, exec_value_t *out)
{
    ws(j);
    *out = exec_value_null(t);
    if (j->p >= j->end) return fail(j, "unexpected end of input");
    if (lit(j, "null")) return true;
    if (t.id == EXEC_TYPE_STRING) return read_as_string(j, out);
    if (t.id == EXEC_TYPE_STRUCT) return read_object(j, t, out);
    char c = *j->p;
    if (t.id == EXEC_TYPE_BOOLEAN) {
        out->is_null = false;
        if (lit(j, "true")) return (out->u.b = 1), true;
        if (lit(j, "false")) return (out->u.b = 0), true;
        return fail(j, "expected true or false");
    }
    if (c == '"') return read_string_as(j, t, out);
    if (c == '-' || isdigit((unsigned char)c)) return read_number_as(j, t, out);
    if (t.id == EXEC_TYPE_NULL) return skip_value(j);
    return fail(j, "value does not fit the field's type");
}

int exec_json_parse_value(exec_type_t t, const char *s, size_t n, sl_arena_t *a, exec_value_t *out,
                          sl_error_t *err)
{
    jp_t j = {s, s + n, a, 0, NULL};
    bool ok = read_value(&j, t, out);
    if (ok) {
        ws(&j);
        if (j.p != j.end) ok = fail(&j, "text after the value");
    }
    if (ok) return 0;
    *out = exec_value_null(t);
    sl_error_set(err, SL_ERR_INVALID_TEXT_REPRESENTATION, "invalid input syntax for type json");
    return sl_error_detail(err, "At byte %ld: %s.", (long)(j.p - s), j.why ? j.why : "malformed");
}
