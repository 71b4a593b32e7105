/* exec functions that look for characters in strings, as Spark's:
 * position(substr, str[, start]) (also locate; SQL's position(a IN b)) is
 * the 1-based character position of the first occurrence at or after
 * `start`, 0 when there is none or start < 1, and 1 for an empty substr;
 * trim(str) strips spaces from both ends, btrim(str[, chars]) any of the
 * characters of `chars` (default a space) from both ends, and
 * ltrim([chars, ]str) / rtrim([chars, ]str) from one end — Spark's
 * argument order, which SQL's trim(LEADING chars FROM str) maps to.
 * Characters are UTF-8 characters; every function is NULL on a NULL
 * argument. */
#include <string.h>

#include "exec/func_int.h"

static const exec_type_t string_type = {.id = EXEC_TYPE_STRING};

/* ---- position / locate ---------------------------------------------------------- */

int exec_bind_position(exec_bind_t *b, sl_error_t *err)
{
    if (exec_bind_arg(b, 0, string_type, false, err) ||
        exec_bind_arg(b, 1, string_type, false, err))
        return -1;
    if (b->nargs == 3) {
        if (!exec_type_is_integer(b->args[2]->type) && exec_bind_type(b, 2) != EXEC_TYPE_NULL)
            return exec_bind_mismatch(b, err);
        if (exec_bind_arg(b, 2, exec_type_of(EXEC_TYPE_INT), true, err)) return -1;
    }
    b->type = exec_type_of(EXEC_TYPE_INT);
    return 0;
}

/* UTF8String.indexOf(sub, start - 1) + 1. */
static int32_t position_of(exec_str_t sub, exec_str_t s, int32_t start)
{
    if (start < 1) return 0;
    if (sub.len == 0) return 1;
    uint32_t from = exec_utf8_offset(s, start - 1);
    const char *hit = from < s.len ? memmem(s.ptr + from, s.len - from, sub.ptr, sub.len) : NULL;
    if (!hit) return 0;
    return (int32_t)(start +
                     exec_utf8_count((exec_str_t){(uint32_t)(hit - (s.ptr + from)), s.ptr + from}));
}

int exec_fn_position(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    bool has_start = c->nargs == 3;
    FOR_ROWS(c, OUT(c, int32_t, i) = position_of(ARG(c, 0, exec_str_t, i), ARG(c, 1, exec_str_t, i),
                                                 has_start ? ARG(c, 2, int32_t, i) : 1));
    return 0;
}

/* ---- trim / btrim / ltrim / rtrim ------------------------------------------------- */

enum { TRIM_LEFT = 1, TRIM_RIGHT = 2 };

static int bind_strings(exec_bind_t *b, sl_error_t *err)
{
    for (int i = 0; i < b->nargs; i++)
        if (exec_bind_arg(b, i, string_type, false, err)) return -1;
    b->type = string_type;
    return 0;
}

int exec_bind_trim(exec_bind_t *b, sl_error_t *err)
{
    return bind_strings(b, err);
}
int exec_bind_btrim(exec_bind_t *b, sl_error_t *err)
{
    return bind_strings(b, err);
}
int exec_bind_ltrim(exec_bind_t *b, sl_error_t *err)
{
    return bind_strings(b, err);
}
int exec_bind_rtrim(exec_bind_t *b, sl_error_t *err)
{
    return bind_strings(b, err);
}

/* Bytes of the UTF-8 character starting at p[0] (within n bytes). */
static uint32_t char_len(const char *p, uint32_t n)
{
    uint32_t k = 1;
    while (k < n && exec_utf8_is_cont((unsigned char)p[k])) k++;
    return k;
}

/* Bytes of the UTF-8 character ending at p[n - 1]. */
static uint32_t last_char_len(const char *p, uint32_t n)
{
    uint32_t k = 1;
    while (k < n && exec_utf8_is_cont((unsigned char)p[n - k])) k++;
    return k;
}

/* True when the k bytes at p are one of the characters of set. */
static bool in_set(const char *p, uint32_t k, exec_str_t set)
{
    for (uint32_t i = 0; i < set.len;) {
        uint32_t m = char_len(set.ptr + i, set.len - i);
        if (m == k && !memcmp(set.ptr + i, p, k)) return true;
        i += m;
    }
    return false;
}

static exec_str_t trim_set(exec_str_t s, exec_str_t set, int sides)
{
    while ((sides & TRIM_LEFT) && s.len) {
        uint32_t k = char_len(s.ptr, s.len);
        if (!in_set(s.ptr, k, set)) break;
        s.ptr += k;
        s.len -= k;
    }
    while ((sides & TRIM_RIGHT) && s.len) {
        uint32_t k = last_char_len(s.ptr, s.len);
        if (!in_set(s.ptr + s.len - k, k, set)) break;
        s.len -= k;
    }
    return s;
}

/* The string is argument `str`, the set argument `set` (-1: a space). */
static int trim_kernel(const exec_fcall_t *c, int str, int set, int sides)
{
    const exec_str_t space = {1, " "};
    FOR_ROWS(c,
             OUT(c, exec_str_t, i) = trim_set(ARG(c, str, exec_str_t, i),
                                              set < 0 ? space : ARG(c, set, exec_str_t, i), sides));
    return 0;
}

int exec_fn_trim(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    return trim_kernel(c, 0, -1, TRIM_LEFT | TRIM_RIGHT);
}

int exec_fn_btrim(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    return trim_kernel(c, 0, c->nargs == 2 ? 1 : -1, TRIM_LEFT | TRIM_RIGHT);
}

int exec_fn_ltrim(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    return c->nargs == 2 ? trim_kernel(c, 1, 0, TRIM_LEFT) : trim_kernel(c, 0, -1, TRIM_LEFT);
}

int exec_fn_rtrim(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    return c->nargs == 2 ? trim_kernel(c, 1, 0, TRIM_RIGHT) : trim_kernel(c, 0, -1, TRIM_RIGHT);
}
