/* exec JSON: rows and values as JSON text (to_json, the text form of
 * STRUCT columns, the JSON record format) and JSON text into typed values
 * (from_json, STRUCT text input).
 *
 * Written form of each type (Spark's to_json with its default options):
 *   BOOLEAN true/false; INT, BIGINT, DECIMAL numbers (decimals with their
 *   scale); DOUBLE as Java prints it (1.5, 1.0E10), NaN and infinities as
 *   the strings "NaN", "Infinity", "-Infinity"; STRING escaped; BINARY
 *   base64; TIMESTAMP "2024-05-01T12:00:00.000Z" (UTC, milliseconds: finer
 *   digits are dropped); DATE "2024-05-01"; INTERVAL its PostgreSQL text;
 *   STRUCT an object with the fields in order.
 * NULL fields are written as null, or left out when omit_null_fields is set
 * (to_json does that, as Spark's ignoreNullFields default).
 *
 * Reading: an object's members are matched to fields by name (exact, then
 * case-insensitive); unknown members are skipped; missing ones are NULL. A
 * STRING field takes a JSON string, or the raw JSON text of any other value;
 * INT/BIGINT take integral numbers in range; DOUBLE any number or the
 * strings above; DECIMAL numbers (rounded to the scale); TIMESTAMP, DATE and
 * INTERVAL strings in their text input forms (a TIMESTAMP also takes a number
 * of seconds); BINARY base64 strings. Anything else makes the document
 * malformed. Nesting deeper than 64 levels is malformed. */
#ifndef EXEC_JSON_H
#define EXEC_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "common/arena.h"
#include "common/json_write.h"
#include "common/sl_error.h"
#include "model/batch.h"
#include "model/value.h"

/* One non-NULL scalar cell as a JSON value. */
void exec_json_write_scalar(sl_json_t *j, exec_type_t t, const void *cell);
/* A value (any type; NULL -> null). */
void exec_json_write_value(sl_json_t *j, const exec_value_t *v, bool omit_null_fields);
/* Cell `row` of a vector (any type; NULL -> null). */
void exec_json_write_cell(sl_json_t *j, const exec_vec_t *v, uint32_t row, bool omit_null_fields);

/* Parses one JSON document as a value of type t (usually a STRUCT); strings
 * and fields are allocated in `a`. Returns 0, or -1 with 22P02
 * `invalid input syntax for type json` (detail saying what is wrong) when
 * the text is malformed or does not fit the type. A JSON null gives a NULL
 * value. */
int exec_json_parse_value(exec_type_t t, const char *s, size_t n, sl_arena_t *a, exec_value_t *out,
                          sl_error_t *err);

/* Base64 (RFC 4648, with padding) of n bytes, appended to buf. */
void exec_base64_encode(const void *p, size_t n, sl_buf_t *buf);
/* Decodes base64 (padding optional, no whitespace) into `a`; false when malformed. */
bool exec_base64_decode(const char *s, size_t n, sl_arena_t *a, exec_str_t *out);

#endif
