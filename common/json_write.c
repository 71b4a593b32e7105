/* sl_json: streaming JSON writer (compact or json4s-pretty layout) and the
 * shortest round-trip double formatting it shares with model/text_io.c. */
#include "common/json_write.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sl_json_init(sl_json_t *j, sl_buf_t *buf, bool pretty)
{
    memset(j, 0, sizeof *j);
    j->buf = buf;
    j->pretty = pretty;
}

static void indent(sl_json_t *j)
{
    sl_buf_putc(j->buf, '\n');
    for (int i = 0; i < j->objects; i++) sl_buf_append(j->buf, "  ", 2);
}

/* Writes what precedes a value or a key: a comma and, when pretty, the
 * line break of an object member or the space of an array item. */
static void before_item(sl_json_t *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (j->depth == 0) return;
    int d = j->depth - 1;
    bool first = j->items[d]++ == 0;
    if (j->kind[d] == '{') {
        if (!first) sl_buf_putc(j->buf, ',');
        if (j->pretty) indent(j);
    } else {
        if (!first) sl_buf_putc(j->buf, ',');
        if (j->pretty) sl_buf_putc(j->buf, ' ');
    }
}

static void open_container(sl_json_t *j, char kind)
{
    before_item(j);
    assert(j->depth < SL_JSON_MAX_DEPTH);
    j->kind[j->depth] = kind;
    j->items[j->depth] = 0;
    j->depth++;
    if (kind == '{') j->objects++;
    sl_buf_putc(j->buf, kind);
}

static void close_container(sl_json_t *j, char kind)
{
    assert(j->depth > 0 && j->kind[j->depth - 1] == kind);
    bool empty = j->items[j->depth - 1] == 0;
    j->depth--;
    if (kind == '{') j->objects--;
    if (j->pretty) {
        if (empty) sl_buf_putc(j->buf, ' ');
        else if (kind == '{') indent(j);
        else sl_buf_putc(j->buf, ' ');
    }
    sl_buf_putc(j->buf, kind == '{' ? '}' : ']');
}

void sl_json_object_begin(sl_json_t *j)
{
    open_container(j, '{');
}
void sl_json_object_end(sl_json_t *j)
{
    close_container(j, '{');
}
void sl_json_array_begin(sl_json_t *j)
{
    open_container(j, '[');
}
void sl_json_array_end(sl_json_t *j)
{
    close_container(j, '[');
}

void sl_json_key(sl_json_t *j, const char *key)
{
    assert(j->depth > 0 && j->kind[j->depth - 1] == '{' && !j->after_key);
    before_item(j);
    sl_json_escape(j->buf, key, strlen(key));
    sl_buf_puts(j->buf, j->pretty ? " : " : ":");
    j->after_key = true;
}

void sl_json_escape(sl_buf_t *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    sl_buf_reserve(b, n + 2);
    sl_buf_putc(b, '"');
    size_t run = 0; /* start of the pending run of plain bytes */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        sl_buf_append(b, s + run, i - run);
        run = i + 1;
        char esc[7] = {'\\', 0};
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        default:
            memcpy(esc + 1, "u00", 3);
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
        }
        sl_buf_puts(b, esc);
    }
    sl_buf_append(b, s + run, n - run);
    sl_buf_putc(b, '"');
}

void sl_json_string_n(sl_json_t *j, const char *s, size_t n)
{
    before_item(j);
    sl_json_escape(j->buf, s, n);
}

void sl_json_string(sl_json_t *j, const char *s)
{
    if (!s) {
        sl_json_null(j);
        return;
    }
    sl_json_string_n(j, s, strlen(s));
}

void sl_json_int(sl_json_t *j, int64_t v)
{
    before_item(j);
    sl_buf_printf(j->buf, "%lld", (long long)v);
}

void sl_json_double(sl_json_t *j, double v)
{
    if (!isfinite(v)) {
        sl_json_null(j);
        return;
    }
    before_item(j);
    sl_json_format_double(j->buf, v);
}

void sl_json_bool(sl_json_t *j, bool v)
{
    before_item(j);
    sl_buf_puts(j->buf, v ? "true" : "false");
}

void sl_json_null(sl_json_t *j)
{
    before_item(j);
    sl_buf_puts(j->buf, "null");
}

void sl_json_raw(sl_json_t *j, const char *json, size_t n)
{
    before_item(j);
    sl_buf_append(j->buf, json, n);
}

void sl_json_kv_string(sl_json_t *j, const char *key, const char *s)
{
    sl_json_key(j, key);
    sl_json_string(j, s);
}

void sl_json_kv_int(sl_json_t *j, const char *key, int64_t v)
{
    sl_json_key(j, key);
    sl_json_int(j, v);
}

void sl_json_kv_double(sl_json_t *j, const char *key, double v)
{
    sl_json_key(j, key);
    sl_json_double(j, v);
}

void sl_json_kv_bool(sl_json_t *j, const char *key, bool v)
{
    sl_json_key(j, key);
    sl_json_bool(j, v);
}

/* Formats |v| with `prec` significant digits; true when it reads back as v.
 * Leaves the digits (no point) in `digits` and the exponent in *exp10. */
static bool digits_at(double v, int prec, char digits[20], int *exp10)
{
    char tmp[40];
    snprintf(tmp, sizeof tmp, "%.*e", prec - 1, v);
    if (strtod(tmp, NULL) != v) return false;
    int n = 0;
    const char *p = tmp;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9') digits[n++] = *p;
    while (n > 1 && digits[n - 1] == '0') n--;
    digits[n] = '\0';
    *exp10 = atoi(p + 1);
    return true;
}

/* Rounding |v| to 15 significant digits lands on the shortest round-trip
 * string when one of at most 15 digits exists (a double's half-ulp is below
 * half a unit of the 15th digit), so trailing zeros are stripped; otherwise
 * the correctly rounded 16- or 17-digit string is the closest of its length. */
int sl_dtoa_shortest(double v, char digits[20], int *exp10)
{
    v = fabs(v);
    /* A normal double's shortest form has at most 15 digits exactly when
     * its 15-digit rounding round-trips (trailing zeros then drop); a
     * subnormal has fewer significant bits, so search from one digit up. */
    for (int prec = v < DBL_MIN ? 1 : 15; prec <= 17; prec++)
        if (digits_at(v, prec, digits, exp10)) return (int)strlen(digits);
    /* Unreachable: 17 significant digits always round-trip. */
    digits_at(v, 17, digits, exp10);
    return (int)strlen(digits);
}

void sl_json_format_double(sl_buf_t *b, double v)
{
    if (isnan(v) || isinf(v)) {
        sl_buf_puts(b, isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
        return;
    }
    if (signbit(v)) sl_buf_putc(b, '-');
    if (v == 0) {
        sl_buf_puts(b, "0.0");
        return;
    }
    char d[20];
    int e, n = sl_dtoa_shortest(v, d, &e);
    if (e >= -3 && e < 7) {
        if (e < 0) {
            sl_buf_puts(b, "0.");
            for (int i = -1; i > e; i--) sl_buf_putc(b, '0');
            sl_buf_append(b, d, (size_t)n);
            return;
        }
        int ip = e + 1; /* digits before the point */
        for (int i = 0; i < ip; i++) sl_buf_putc(b, i < n ? d[i] : '0');
        sl_buf_putc(b, '.');
        if (n > ip) sl_buf_append(b, d + ip, (size_t)(n - ip));
        else sl_buf_putc(b, '0');
        return;
    }
    sl_buf_putc(b, d[0]);
    sl_buf_putc(b, '.');
    if (n > 1) sl_buf_append(b, d + 1, (size_t)(n - 1));
    else sl_buf_putc(b, '0');
    sl_buf_printf(b, "E%d", e);
}
