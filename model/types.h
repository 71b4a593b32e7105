/* exec types: the SQL types sluice computes with, their descriptors, the
 * text a user writes for them, their canonical (Spark) names and their
 * PostgreSQL wire identity.
 *
 *   type        C representation of one value (in vectors and values)
 *   NULL        none (the type of an untyped NULL literal; every row NULL)
 *   BOOLEAN     uint8_t 0 / 1
 *   INT         int32_t
 *   BIGINT      int64_t
 *   DOUBLE      double
 *   DECIMAL     exec_dec_t (__int128), the value times 10^scale, p <= 38
 *   STRING      exec_str_t {uint32 len; const char *ptr}, UTF-8, not NUL-terminated
 *   BINARY      exec_str_t
 *   TIMESTAMP   int64_t microseconds since 1970-01-01 00:00:00 UTC
 *   DATE        int32_t days since 1970-01-01
 *   INTERVAL    exec_interval_t {int32 months; int32 days; int64 micros}
 *   STRUCT      named fields of any type (a vector holds one child vector per
 *               field; a value holds an array of field values). Windows are
 *               STRUCT<start: TIMESTAMP, end: TIMESTAMP>.
 *
 * A type descriptor is a small struct passed by value. STRUCT descriptors
 * point at a field array that is immutable once built and lives in an
 * arena that must outlive every user of the type (the plan's arena). */
#ifndef EXEC_TYPES_H
#define EXEC_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/sl_error.h"

typedef enum exec_type_id {
    EXEC_TYPE_NULL = 0,
    EXEC_TYPE_BOOLEAN,
    EXEC_TYPE_INT,
    EXEC_TYPE_BIGINT,
    EXEC_TYPE_DOUBLE,
    EXEC_TYPE_DECIMAL,
    EXEC_TYPE_STRING,
    EXEC_TYPE_BINARY,
    EXEC_TYPE_TIMESTAMP,
    EXEC_TYPE_DATE,
    EXEC_TYPE_INTERVAL,
    EXEC_TYPE_STRUCT,
    EXEC_TYPE_COUNT_ /* number of type ids; not a type */
} exec_type_id_t;

#define EXEC_DECIMAL_MAX_PRECISION 38
/* DECIMAL without (p, s), as Spark: DECIMAL(10, 0). */
#define EXEC_DECIMAL_DEFAULT_PRECISION 10

typedef __int128 exec_dec_t;

typedef struct exec_interval {
    int32_t months; /* calendar months (a year is 12) */
    int32_t days;   /* calendar days */
    int64_t micros; /* time of day part; may exceed a day */
} exec_interval_t;

typedef struct exec_str {
    uint32_t len;    /* bytes */
    const char *ptr; /* not NUL-terminated; NULL allowed when len == 0 */
} exec_str_t;

typedef struct exec_field exec_field_t;

typedef struct exec_type {
    exec_type_id_t id;
    uint8_t precision;          /* DECIMAL: 1..38; else 0 */
    uint8_t scale;              /* DECIMAL: 0..precision; else 0 */
    uint16_t nfields;           /* STRUCT: number of fields; else 0 */
    const exec_field_t *fields; /* STRUCT: nfields entries; else NULL */
} exec_type_t;

struct exec_field {
    const char *name; /* as written (case kept); NUL-terminated */
    exec_type_t type;
};

/* PostgreSQL's view of a type, for RowDescription. */
typedef struct exec_pg_type {
    uint32_t oid;   /* pg_type OID: bool 16, int4 23, int8 20, float8 701, numeric 1700,
                        text 25, bytea 17, timestamp 1114, date 1082, interval 1186,
                        json 114 (structs); the NULL type is text */
    int16_t len;    /* pg_type.typlen: 1, 4, 8, 16 or -1 (variable) */
    int32_t typmod; /* -1, or numeric's ((p << 16) | s) + 4 */
} exec_pg_type_t;

/* A scalar type (any id but DECIMAL and STRUCT, which need parameters). */
exec_type_t exec_type_of(exec_type_id_t id);
/* DECIMAL(p, s); the caller guarantees 1 <= p <= 38 and 0 <= s <= p. */
exec_type_t exec_type_decimal(int precision, int scale);
/* STRUCT of n fields; names and the field array are copied into `a`. */
exec_type_t exec_type_struct(sl_arena_t *a, int n, const char *const *names,
                             const exec_type_t *types);
/* STRUCT<start: TIMESTAMP, end: TIMESTAMP> (static storage). */
exec_type_t exec_type_window(void);

/* Same type: id, decimal precision and scale, struct field names (case
 * insensitively) and field types. */
bool exec_type_equal(exec_type_t a, exec_type_t b);
/* Bytes per row in a vector's data array; 0 for NULL and STRUCT. */
size_t exec_type_width(exec_type_t t);
/* INT or BIGINT. */
bool exec_type_is_integer(exec_type_t t);
/* INT, BIGINT, DOUBLE or DECIMAL. */
bool exec_type_is_numeric(exec_type_t t);
/* STRING or BINARY (values are exec_str_t). */
bool exec_type_is_varlen(exec_type_t t);
/* Index of the field named `name` (case-insensitive) in a STRUCT, or -1. */
int exec_type_field_index(exec_type_t t, const char *name);

/* Parses the type a user writes: BOOLEAN/BOOL, INT/INTEGER/INT4/SMALLINT/
 * TINYINT, BIGINT/INT8/LONG, DOUBLE/DOUBLE PRECISION/FLOAT/FLOAT8/REAL,
 * DECIMAL/NUMERIC/DEC[(p[, s])], STRING/TEXT/VARCHAR(n)/CHAR(n)/CHARACTER
 * VARYING(n), BINARY/BYTEA/VARBINARY, TIMESTAMP [WITHOUT TIME ZONE]/
 * TIMESTAMP_NTZ/TIMESTAMPTZ, DATE, INTERVAL [unit [TO unit]],
 * STRUCT<name[:] type, ...>; case-insensitive, whitespace free. The whole
 * text must be one type. Struct fields live in `a`.
 * Errors: 42704 `type "x" does not exist`; 22023 for a bad DECIMAL
 * precision or scale; 42601 for malformed text. */
int exec_type_parse(const char *text, size_t len, sl_arena_t *a, exec_type_t *out, sl_error_t *err);

/* Parses a Spark DDL schema, `a INT, b STRING, c STRUCT<x: INT>` (field names
 * may be `quoted`), into a STRUCT type. Same errors as exec_type_parse;
 * 42701 for a duplicate field name. */
int exec_schema_parse(const char *text, size_t len, sl_arena_t *a, exec_type_t *out,
                      sl_error_t *err);

/* Appends the canonical text: BOOLEAN, INT, BIGINT, DOUBLE, DECIMAL(10,2),
 * STRING, BINARY, TIMESTAMP, DATE, INTERVAL, STRUCT<a: INT, b: STRING>
 * (NULL prints as NULL). exec_type_parse reads it back to an equal type;
 * the catalog stores this text. */
void exec_type_format(exec_type_t t, sl_buf_t *buf);
/* exec_type_format into `a` (for messages and EXPLAIN). */
const char *exec_type_text(exec_type_t t, sl_arena_t *a);

/* PostgreSQL's name of the type for error messages, as PostgreSQL words
 * them: boolean, integer, bigint, double precision, numeric, text, bytea,
 * timestamp, date, interval, struct, unknown (NULL). */
const char *exec_type_pg_name(exec_type_t t);

/* OID, typlen and typmod for RowDescription. */
exec_pg_type_t exec_type_pg(exec_type_t t);

#endif
