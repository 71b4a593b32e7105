/* exec functions on strings: lower, upper, substring (Spark's 1-based
 * semantics, negative positions count from the end), concat (NULL if any
 * argument is NULL), length (characters of a string, bytes of a binary).
 * Positions and lengths count UTF-8 characters. */
#include <string.h>

#include "exec/func_int.h"

static const exec_type_t string_type = {.id = EXEC_TYPE_STRING};

/* ---- lower / upper ---------------------------------------------------------------- */

static int bind_one_string(exec_bind_t *b, sl_error_t *err)
{
    if (exec_bind_arg(b, 0, string_type, false, err)) return -1;
    b->type = string_type;
    return 0;
}

int exec_bind_lower(exec_bind_t *b, sl_error_t *err)
{
    return bind_one_string(b, err);
}
int exec_bind_upper(exec_bind_t *b, sl_error_t *err)
{
    return bind_one_string(b, err);
}

static int fold_kernel(const exec_fcall_t *c, bool upper)
{
    FOR_ROWS(c, OUT(c, exec_str_t, i) = exec_str_case(c->arena, ARG(c, 0, exec_str_t, i), upper));
    return 0;
}

int exec_fn_lower(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    return fold_kernel(c, false);
}

int exec_fn_upper(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    return fold_kernel(c, true);
}

/* ---- substring -------------------------------------------------------------------------- */

int exec_bind_substring(exec_bind_t *b, sl_error_t *err)
{
    static const exec_type_t int_type = {.id = EXEC_TYPE_INT};
    if (exec_bind_arg(b, 0, string_type, false, err)) return -1;
    for (int i = 1; i < b->nargs; i++) {
        if (!exec_type_is_integer(b->args[i]->type) && exec_bind_type(b, i) != EXEC_TYPE_NULL)
            return exec_bind_mismatch(b, err);
        if (exec_bind_arg(b, i, int_type, true, err)) return -1;
    }
    b->type = string_type;
    return 0;
}

/* UTF8String.substringSQL: pos > 0 is 1-based, pos < 0 counts from the
 * end, pos 0 acts as 1; a negative length gives ''. */
static exec_str_t substring_sql(exec_str_t s, int64_t pos, int64_t len)
{
    int64_t nchars = pos < 0 ? exec_utf8_count(s) : 0;
    int64_t start = pos > 0 ? pos - 1 : pos < 0 ? nchars + pos : 0;
    int64_t end = len == INT64_MAX ? INT64_MAX : start + len;
    if (start < 0) start = 0;
    exec_str_t r = {0, ""};
    if (start >= end) return r;
    uint32_t from = exec_utf8_offset(s, start);
    uint32_t to =
        end == INT64_MAX
            ? s.len
            : from + exec_utf8_offset((exec_str_t){s.len - from, s.ptr + from}, end - start);
    r.ptr = s.ptr + from;
    r.len = to - from;
    return r;
}

int exec_fn_substring(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    bool has_len = c->nargs == 3;
    FOR_ROWS(c,
             OUT(c, exec_str_t, i) = substring_sql(ARG(c, 0, exec_str_t, i), ARG(c, 1, int32_t, i),
                                                   has_len ? ARG(c, 2, int32_t, i) : INT64_MAX));
    return 0;
}

/* ---- concat -------------------------------------------------------------------------------- */

int exec_bind_concat(exec_bind_t *b, sl_error_t *err)
{
    for (int i = 0; i < b->nargs; i++) {
        if (exec_bind_type(b, i) == EXEC_TYPE_STRUCT) return exec_bind_mismatch(b, err);
        if (exec_bind_arg(b, i, string_type, true, err)) return -1;
    }
    b->type = string_type;
    return 0;
}

int exec_fn_concat(const exec_fcall_t *c, sl_error_t *err)
{
    bool too_long = false;
    FOR_ROWS(c, {
        uint64_t n = 0;
        for (int a = 0; a < c->nargs; a++) n += ARG(c, a, exec_str_t, i).len;
        if (n > UINT32_MAX) {
            too_long = true;
            break;
        }
        char *p = sl_alloc(c->arena, n ? n : 1), *q = p;
        for (int a = 0; a < c->nargs; a++) {
            exec_str_t s = ARG(c, a, exec_str_t, i);
            if (s.len) memcpy(q, s.ptr, s.len);
            q += s.len;
        }
        OUT(c, exec_str_t, i) = (exec_str_t){(uint32_t)n, p};
    });
    if (too_long) return sl_error_set(err, SL_ERR_PROGRAM_LIMIT_EXCEEDED, "string too long");
    return 0;
}

/* ---- length --------------------------------------------------------------------------------- */

int exec_bind_length(exec_bind_t *b, sl_error_t *err)
{
    if (exec_bind_type(b, 0) != EXEC_TYPE_BINARY && exec_bind_arg(b, 0, string_type, false, err))
        return -1;
    b->type = exec_type_of(EXEC_TYPE_INT);
    return 0;
}

int exec_fn_length(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    if (c->args[0]->type.id == EXEC_TYPE_BINARY)
        FOR_ROWS(c, OUT(c, int32_t, i) = (int32_t)ARG(c, 0, exec_str_t, i).len);
    else FOR_ROWS(c, OUT(c, int32_t, i) = (int32_t)exec_utf8_count(ARG(c, 0, exec_str_t, i)));
    return 0;
}
