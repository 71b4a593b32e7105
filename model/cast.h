/* exec casts: conversions between types with Spark's ANSI rules, for CAST
 * and for the implicit coercions the expression constructors insert.
 *
 *   from \ to     BOOL  INT  BIGINT DOUBLE DECIMAL STRING BINARY TS  DATE INTERVAL STRUCT
 *   BOOLEAN        =    1/0   1/0    1/0    1/0     text    -    -    -     -       -
 *   INT, BIGINT   !=0    r     r      w      r      text    -   secs  -     -       -
 *   DOUBLE        !=0    t     t      =      r      text    -   secs  -     -       -
 *   DECIMAL       !=0    t     t      w      r      text    -    -    -     -       -
 *   STRING        parse parse parse  parse  parse    =    bytes parse parse parse   -
 *   BINARY         -     -     -      -      -     bytes    =    -    -     -       -
 *   TIMESTAMP      -     -    secs   secs    -      text    -    =   day    -       -
 *   DATE           -     -     -      -      -      text    -  00:00  =     -       -
 *   INTERVAL       -     -     -      -      -      text    -    -    -     =       -
 *   STRUCT         -     -     -      -      -      JSON    -    -    -     -    same fields
 *   NULL          everything (a NULL of the target type)
 *
 * r = range-checked (22003 `integer out of range`, `bigint out of range`,
 * `numeric field overflow`); t = truncated toward zero, then range-checked
 * (NaN and infinities are out of range); w = widening; decimals round half
 * up when their scale shrinks; text = PostgreSQL text output (booleans as
 * `true`/`false`, as PostgreSQL's bool::text); parse = text input
 * (text_io.h, its error codes); bytes = the bytes unchanged; secs = seconds
 * since the epoch (timestamp to integer floors, as Spark); day = the UTC
 * date. STRUCT to STRUCT casts field by field when the field counts match
 * (names come from the target).
 *
 * Casts never turn a non-NULL value into NULL: a value that does not
 * convert is an error (ANSI mode). */
#ifndef EXEC_CAST_H
#define EXEC_CAST_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/sl_error.h"
#include "model/batch.h"
#include "model/types.h"
#include "model/value.h"

/* CAST(from AS to) is allowed (the table above). */
bool exec_cast_allowed(exec_type_t from, exec_type_t to);
/* `from` converts to `to` without an explicit CAST: NULL to anything,
 * INT -> BIGINT -> DECIMAL -> DOUBLE widening (a decimal only to one with as
 * many integer digits and as much scale), DATE -> TIMESTAMP, and STRING to
 * any scalar type (Spark's ANSI string promotion: may fail at run time). */
bool exec_cast_implicit(exec_type_t from, exec_type_t to);
/* The type two operands are coerced to (for comparisons, CASE, COALESCE,
 * IN, UNION): equal types; NULL -> the other; numeric -> the wider (INT+
 * BIGINT -> BIGINT, INT+DECIMAL -> DECIMAL, DECIMAL+DOUBLE -> DOUBLE,
 * DECIMAL+DECIMAL -> wider decimal); STRING vs a typed side -> the typed
 * side; DATE+TIMESTAMP -> TIMESTAMP. Otherwise 42804 `<context> types
 * integer and boolean cannot be matched` (context like "CASE" or "UNION";
 * NULL leaves it out). */
int exec_common_type(exec_type_t a, exec_type_t b, const char *context, exec_type_t *out,
                     sl_error_t *err);

/* A vector cast: converts the rows of `src` named by sel[0..n) (or rows
 * 0..n-1 when sel is NULL) into `dst`, which the caller allocated with
 * exec_vec_new(a, to, nrows). dst->nulls is set to src->nulls (casts keep
 * NULLs and make no new ones). Strings produced are allocated in `a`.
 * Returns 0, or -1 with err filled at the first row that fails. */
typedef int (*exec_cast_fn)(const exec_vec_t *src, exec_vec_t *dst, const uint32_t *sel, uint32_t n,
                            sl_arena_t *a, sl_error_t *err);
/* The kernel for a pair (chosen once, when an expression is compiled);
 * NULL when the cast is not allowed. Equal types get a copying kernel. */
exec_cast_fn exec_cast_kernel(exec_type_t from, exec_type_t to);

/* STRING to BINARY as the string's own bytes (Spark's CAST(s AS BINARY));
 * the cast kernel reads PostgreSQL's bytea input (hex `\x...` or escapes). */
exec_cast_fn exec_cast_bytes_kernel(void);

/* Casts one value (through the same kernels); strings and fields in `a`. */
int exec_cast_value(const exec_value_t *v, exec_type_t to, sl_arena_t *a, exec_value_t *out,
                    sl_error_t *err);

#endif
