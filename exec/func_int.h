/* exec functions, internal: helpers shared by the bind steps and kernels
 * in exec/func*.c, and the bind/kernel functions the catalogue in func.c
 * lists. */
#ifndef EXEC_FUNC_INT_H
#define EXEC_FUNC_INT_H

#include "exec/expr_int.h"
#include "exec/func.h"

/* Runs BODY with `i` bound to each row a kernel must compute. */
#define FOR_ROWS(c, ...)                        \
    do {                                        \
        const uint32_t *rx_ = (c)->rows;        \
        uint32_t rn_ = (c)->nrows;              \
        for (uint32_t k_ = 0; k_ < rn_; k_++) { \
            uint32_t i = rx_ ? rx_[k_] : k_;    \
            __VA_ARGS__;                        \
        }                                       \
    } while (0)

/* Cell i of argument a as C type T. */
#define ARG(c, a, T, i) (((const T *)(c)->args[a]->data)[i])
#define OUT(c, T, i) (((T *)(c)->out->data)[i])

/* ---- UTF-8 positions ---- */

static inline bool exec_utf8_is_cont(unsigned char c)
{
    return (c & 0xc0) == 0x80;
}

/* Characters in s (continuation bytes are not counted). */
static inline int64_t exec_utf8_count(exec_str_t s)
{
    int64_t n = 0;
    for (uint32_t i = 0; i < s.len; i++) n += !exec_utf8_is_cont((unsigned char)s.ptr[i]);
    return n;
}

/* Byte offset of character `ch` (clamped to the end). */
static inline uint32_t exec_utf8_offset(exec_str_t s, int64_t ch)
{
    uint32_t i = 0;
    for (int64_t k = 0; i < s.len; i++)
        if (!exec_utf8_is_cont((unsigned char)s.ptr[i]) && k++ == ch) return i;
    return s.len;
}

/* ---- bind helpers (func.c) ---- */

/* 42883 for this call's argument types, with the entry's signatures. */
int exec_bind_mismatch(const exec_bind_t *b, sl_error_t *err);
/* Converts argument i to type t when exec_cast_implicit allows it (or
 * `explicit_ok` and a cast exists); else 42883. */
int exec_bind_arg(exec_bind_t *b, int i, exec_type_t t, bool explicit_ok, sl_error_t *err);
/* Argument i's type id. */
exec_type_id_t exec_bind_type(const exec_bind_t *b, int i);
/* Argument i must be a constant STRING (NULL allowed: *s = NULL): its bytes.
 * In check_only mode any STRING-typed argument passes (*s = NULL). */
int exec_bind_const_string(exec_bind_t *b, int i, const char **s, size_t *n, sl_error_t *err);
/* Marks argument i as consumed at bind time. */
void exec_bind_consume(exec_bind_t *b, int i);

/* ---- catalogue entries ---- */

#define DECLARE_FUNC(name)                                 \
    int exec_bind_##name(exec_bind_t *b, sl_error_t *err); \
    int exec_fn_##name(const exec_fcall_t *c, sl_error_t *err)

DECLARE_FUNC(lower);
DECLARE_FUNC(upper);
DECLARE_FUNC(substring);
DECLARE_FUNC(concat);
DECLARE_FUNC(length);
DECLARE_FUNC(position);
DECLARE_FUNC(trim);
DECLARE_FUNC(btrim);
DECLARE_FUNC(ltrim);
DECLARE_FUNC(rtrim);
DECLARE_FUNC(extract);
DECLARE_FUNC(abs);
DECLARE_FUNC(round);
DECLARE_FUNC(date_trunc);
DECLARE_FUNC(to_timestamp);
DECLARE_FUNC(current_timestamp);
DECLARE_FUNC(current_date);
DECLARE_FUNC(window);
DECLARE_FUNC(session_window);
DECLARE_FUNC(from_json);
DECLARE_FUNC(to_json);
DECLARE_FUNC(pg_sleep);
DECLARE_FUNC(version);
/* PostgreSQL catalog functions (func_pg.c) */
DECLARE_FUNC(format_type);
DECLARE_FUNC(to_regtype);
DECLARE_FUNC(pg_is_visible);
DECLARE_FUNC(has_privilege);
DECLARE_FUNC(pg_is_other_temp_schema);
DECLARE_FUNC(pg_my_temp_schema);
DECLARE_FUNC(pg_description);
DECLARE_FUNC(pg_get_def);
DECLARE_FUNC(pg_get_expr);
DECLARE_FUNC(pg_encoding_to_char);
DECLARE_FUNC(quote_ident);
DECLARE_FUNC(regex);
DECLARE_FUNC(array_to_string);
DECLARE_FUNC(array_contains);
DECLARE_FUNC(element_at);
DECLARE_FUNC(array_upper);
DECLARE_FUNC(pg_relation_is_publishable);
DECLARE_FUNC(replace);
DECLARE_FUNC(pg_get_serial_sequence);
DECLARE_FUNC(pg_get_function);
DECLARE_FUNC(pg_size);
DECLARE_FUNC(pg_size_pretty);
DECLARE_FUNC(getdatabaseencoding);
DECLARE_FUNC(pg_tablespace_location);
/* Type rules of the functions exec_expr_call turns into nodes (used by
 * exec_func_lookup only). */
int exec_bind_coalesce(exec_bind_t *b, sl_error_t *err);
int exec_bind_struct(exec_bind_t *b, sl_error_t *err);
int exec_bind_named_struct(exec_bind_t *b, sl_error_t *err);

#endif
