/* exec text I/O: the text forms of every scalar type.
 *
 * OUTPUT is PostgreSQL's text format (what psql shows a Postgres user):
 *   BOOLEAN t / f;  DOUBLE shortest round-trip (0.1, 1e+100, Infinity, NaN, -0);
 *   DECIMAL with exactly its scale;  TIMESTAMP 2024-05-01 12:10:00[.5] (UTC,
 *   fraction trimmed);  DATE 2024-05-01;  INTERVAL in PostgreSQL's default
 *   style (1 year 2 mons 3 days 04:05:06.5, 00:15:00, -1 days +02:00:00);
 *   BINARY \x0102;  STRING as is.
 *
 * INPUT (casts from STRING, INSERT values, CSV and JSON readers) accepts what
 * PostgreSQL accepts for the common forms plus Spark's: surrounding
 * whitespace; integers; decimals with exponent; doubles incl. inf/infinity/
 * nan; booleans true/false/t/f/yes/no/y/n/on/off/1/0; timestamps
 * `2024-05-01`, `2024-05-01 12:00[:00[.123456]]`, `T` separator, trailing
 * `Z`, `UTC` or `+02:00`/`+0200`/`+02` offsets (converted to UTC); dates
 * (a time part is allowed and dropped); intervals `15 minutes`,
 * `1 hour 30 minutes`, `1.5 days`, `00:15:00`, `1 day 02:00:00`, `-1 day`,
 * `2 hours ago`, `@ 1 minute`, an optional leading `interval`, ISO 8601
 * `P1Y2M3DT4H5M6.5S`; bytea `\x0102` hex, otherwise the bytes themselves.
 *
 * Errors use PostgreSQL's codes and words:
 *   22P02 invalid input syntax for type bigint: "x"   (numbers, boolean, bytea)
 *   22003 value "x" is out of range for type integer  (22003 numeric field overflow for decimals)
 *   22007 invalid input syntax for type timestamp: "x" (date/time/interval syntax)
 *   22008 date/time field value out of range: "x"     (and timestamp/date/interval out of range)
 *
 * Supported range for TIMESTAMP and DATE: years 0001..9999 (Spark's range). */
#ifndef EXEC_TEXT_IO_H
#define EXEC_TEXT_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/sl_error.h"
#include "model/types.h"

#define EXEC_USECS_PER_SEC INT64_C(1000000)
#define EXEC_USECS_PER_MINUTE INT64_C(60000000)
#define EXEC_USECS_PER_HOUR INT64_C(3600000000)
#define EXEC_USECS_PER_DAY INT64_C(86400000000)
/* 0001-01-01 and 10000-01-01 as days since 1970-01-01. */
#define EXEC_DATE_MIN (-719162)
#define EXEC_DATE_END 2932897
#define EXEC_TS_MIN ((int64_t)EXEC_DATE_MIN * EXEC_USECS_PER_DAY)
#define EXEC_TS_END ((int64_t)EXEC_DATE_END * EXEC_USECS_PER_DAY)

/* Result of the low-level parsers. */
typedef enum {
    EXEC_PARSE_OK = 0,
    EXEC_PARSE_SYNTAX = -1, /* not a value of the type */
    EXEC_PARSE_RANGE = -2,  /* well-formed but out of range / field out of range */
} exec_parse_status_t;

/* ---- whole cells ---- */

/* Appends the PostgreSQL text of one non-NULL scalar value; `cell` points at
 * its C representation (see types.h). STRUCT and NULL are not scalars (the
 * callers in value.c and batch.c handle them). */
void exec_text_format(exec_type_t t, const void *cell, sl_buf_t *buf);

/* Parses text into one scalar cell. STRING results point into a copy made in
 * `a`; BINARY results too. Fills err as described above and returns -1 when
 * the text is not a value of the type. */
int exec_text_parse(exec_type_t t, const char *s, size_t n, sl_arena_t *a, void *cell,
                    sl_error_t *err);

/* Fills err for a failed parse of `s` as type t, with the wording above. */
int exec_text_error(exec_type_t t, exec_parse_status_t st, const char *s, size_t n,
                    sl_error_t *err);

/* ---- individual parsers (no error struct; callers pick the message) ---- */

exec_parse_status_t exec_parse_int32(const char *s, size_t n, int32_t *out);
exec_parse_status_t exec_parse_int64(const char *s, size_t n, int64_t *out);
exec_parse_status_t exec_parse_double(const char *s, size_t n, double *out);
/* A size as Spark's byteStringAsBytes or a PostgreSQL memory setting writes
 * it: an integer, then optionally a unit, any case, powers of 1024: b, bytes,
 * k, kb, m, mb, g, gb, t, tb ("64m", "512MB", "1 GB"; a bare number = bytes). */
exec_parse_status_t exec_parse_byte_size(const char *s, size_t n, int64_t *out);
exec_parse_status_t exec_parse_bool(const char *s, size_t n, uint8_t *out);
/* One element of a PostgreSQL array literal's text ({a,"b c",NULL}): appends
 * the element starting at s.ptr[*i] (stopping at ',' or '}', a quoted one
 * with its backslash escapes undone) to out and moves *i past it; returns 0
 * for an unquoted NULL (nothing appended), else 1. */
int exec_text_array_element(exec_str_t s, uint32_t *i, sl_buf_t *out);
/* To DECIMAL(p, s), rounding half away from zero at the scale; RANGE when
 * the rounded value needs more than p - s integer digits. */
exec_parse_status_t exec_parse_decimal(const char *s, size_t n, int p, int scale, exec_dec_t *out);
exec_parse_status_t exec_parse_timestamp(const char *s, size_t n, int64_t *out);
exec_parse_status_t exec_parse_date(const char *s, size_t n, int32_t *out);
exec_parse_status_t exec_parse_interval(const char *s, size_t n, exec_interval_t *out);
/* Spark's unit form INTERVAL '<s>' <unit>: unit is YEAR, MONTH, WEEK, DAY,
 * HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND (singular or plural), or a
 * range `DAY TO SECOND`, `HOUR TO MINUTE`, `YEAR TO MONTH`... whose value
 * text is `d h:m:s`, `h:m`, `y-m`... A single unit takes a signed decimal
 * number (`'1.5' HOUR`). */
exec_parse_status_t exec_parse_interval_unit(const char *s, size_t n, const char *unit,
                                             exec_interval_t *out);
/* PostgreSQL bytea input: `\x` hex digits, else the bytes with `\\` for a
 * backslash and `\ooo` octal escapes. Result in `a`. */
exec_parse_status_t exec_parse_bytea(const char *s, size_t n, sl_arena_t *a, exec_str_t *out);

/* ---- individual formatters (append to buf) ---- */

void exec_format_double(double v, sl_buf_t *buf);
void exec_format_decimal(exec_dec_t v, int scale, sl_buf_t *buf);
void exec_format_timestamp(int64_t micros, sl_buf_t *buf);
void exec_format_date(int32_t days, sl_buf_t *buf);
void exec_format_interval(exec_interval_t iv, sl_buf_t *buf);
void exec_format_bytea(const char *p, size_t n, sl_buf_t *buf);
/* ISO-8601 with milliseconds as Spark's to_json writes: 2024-05-01T12:00:00.000Z */
void exec_format_timestamp_iso(int64_t micros, sl_buf_t *buf);

/* ---- calendar helpers ---- */

/* Days since 1970-01-01 of a proleptic Gregorian date (any year). */
int64_t exec_days_from_civil(int64_t y, int m, int d);
/* Inverse of exec_days_from_civil. */
void exec_civil_from_days(int64_t days, int64_t *y, int *m, int *d);
/* 28..31 */
int exec_days_in_month(int64_t y, int m);
/* Floor division and modulo (the remainder has the divisor's sign). */
static inline int64_t exec_floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static inline int64_t exec_floor_mod(int64_t a, int64_t b)
{
    return a - exec_floor_div(a, b) * b;
}
/* timestamp + interval (months first, clamping the day of month, then days,
 * then micros), as PostgreSQL and Spark add. RANGE when the result leaves
 * the supported range. */
exec_parse_status_t exec_timestamp_add_interval(int64_t ts, exec_interval_t iv, int64_t *out);
/* The interval as one comparable number: months x 30 days + days x 24 h + micros
 * (PostgreSQL's ordering of intervals). */
__int128 exec_interval_span(exec_interval_t iv);

#endif
