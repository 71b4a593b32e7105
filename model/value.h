/* exec values: one scalar SQL value (constants in expressions, single
 * values handed between modules), with comparison, hashing and text I/O.
 *
 * The cell functions (exec_cell_*) work on the C representation of one
 * non-NULL value of a scalar type (see types.h), wherever it lives: in a
 * value's union or in a vector's data array. */
#ifndef EXEC_VALUE_H
#define EXEC_VALUE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/sl_error.h"
#include "model/types.h"

typedef struct exec_value {
    exec_type_t type;
    bool is_null; /* true: the union is meaningless */
    union {
        uint8_t b;                 /* BOOLEAN: 0 / 1 */
        int32_t i32;               /* INT, DATE */
        int64_t i64;               /* BIGINT, TIMESTAMP */
        double f64;                /* DOUBLE */
        exec_dec_t dec;            /* DECIMAL (scaled by type.scale) */
        exec_str_t str;            /* STRING, BINARY (bytes owned by whoever built the value) */
        exec_interval_t iv;        /* INTERVAL */
        struct exec_value *fields; /* STRUCT: type.nfields values */
    } u;
} exec_value_t;

/* Constructors (strings are views: no copy). */
exec_value_t exec_value_null(exec_type_t t);
exec_value_t exec_value_bool(bool v);
exec_value_t exec_value_int(int32_t v);
exec_value_t exec_value_bigint(int64_t v);
exec_value_t exec_value_double(double v);
exec_value_t exec_value_decimal(exec_dec_t scaled, int precision, int scale);
exec_value_t exec_value_string(const char *p, size_t len);
exec_value_t exec_value_timestamp(int64_t micros);
exec_value_t exec_value_date(int32_t days);
exec_value_t exec_value_interval(exec_interval_t iv);
/* STRING copied from a NUL-terminated string into `a`. */
exec_value_t exec_value_cstr(sl_arena_t *a, const char *s);
/* STRUCT with `fields` (type.nfields values), not copied. */
exec_value_t exec_value_struct(exec_type_t t, exec_value_t *fields);

/* Deep copy of strings and struct fields into `a`. */
exec_value_t exec_value_copy(sl_arena_t *a, const exec_value_t *v);

/* Total order for sorting two values of the same type: NULL first, then by
 * value (strings and binaries bytewise, doubles with -0 = 0 and NaN above
 * every number, intervals by span then months, days, micros, structs field
 * by field). Returns <0, 0, >0. */
int exec_value_compare(const exec_value_t *a, const exec_value_t *b);
/* Not distinct: both NULL, or compare equal. */
bool exec_value_equal(const exec_value_t *a, const exec_value_t *b);
/* Hash consistent with exec_value_equal (INT, BIGINT, DATE hash as their
 * 64-bit value, so equal integers of different widths hash alike). */
uint64_t exec_value_hash(const exec_value_t *v, uint64_t seed);

/* Appends PostgreSQL text (STRUCT: JSON, see model/json.h); false and
 * nothing appended for NULL. */
bool exec_value_format(const exec_value_t *v, sl_buf_t *buf);
/* exec_value_format into `a`; NULL for a NULL value. */
const char *exec_value_text(const exec_value_t *v, sl_arena_t *a);
/* Text input (see text_io.h) of type t; strings copied into `a`.
 * STRUCT is read as a JSON object (model/json.h). */
int exec_value_parse(exec_type_t t, const char *s, size_t n, sl_arena_t *a, exec_value_t *out,
                     sl_error_t *err);

/* ---- cells (non-NULL values of a scalar type t, by address) ---- */

/* The order of exec_value_compare for two cells of type t: <0, 0, >0. */
int exec_cell_compare(exec_type_t t, const void *a, const void *b);
/* exec_cell_compare(...) == 0, with a shortcut for strings. */
bool exec_cell_equal(exec_type_t t, const void *a, const void *b);
/* The hash exec_value_hash gives the value in the cell. */
uint64_t exec_cell_hash(exec_type_t t, const void *cell, uint64_t seed);
/* Hash of a NULL of any type. */
uint64_t exec_null_hash(uint64_t seed);

#endif
