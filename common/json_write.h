/* sl_json: a small streaming JSON writer over an sl_buf_t, used for progress
 * JSON, the HTTP API, checkpoint files and to_json().
 *
 * The writer inserts commas itself: call the value functions in document
 * order, with sl_json_key() before each value inside an object. Two layouts:
 * compact (`{"a":1,"b":[1,2]}`, Spark's `json`) and pretty, which is the
 * layout of json4s' `pretty` that Spark's `prettyJson` prints:
 *
 *     {
 *       "id" : "x",
 *       "ops" : [ {
 *         "n" : 1
 *       } ],
 *       "empty" : [ ],
 *       "none" : { }
 *     }
 *
 * (objects indent by two spaces per open object; arrays stay on the line of
 * their key, items separated by ", ").
 *
 * Numbers: integers exactly; doubles as Java's Double.toString writes them
 * (`120.0`, `2.777`, `1.0E10`, `1.0E-4`), which is what Spark's JSON holds.
 * NaN and infinities are not JSON: sl_json_double writes `null` for them
 * (Spark omits such fields; callers that want that test isfinite() first). */
#ifndef SL_JSON_WRITE_H
#define SL_JSON_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"

/* Deepest nesting the writer tracks; deeper documents are a caller bug. */
#define SL_JSON_MAX_DEPTH 64

typedef struct sl_json {
    sl_buf_t *buf;                     /* output; appended to, never cleared */
    bool pretty;                       /* json4s pretty layout */
    bool after_key;                    /* a key was written; the value follows */
    int depth;                         /* open containers */
    int objects;                       /* open objects (the pretty indent level) */
    char kind[SL_JSON_MAX_DEPTH];      /* per open container: '{' or '[' */
    uint32_t items[SL_JSON_MAX_DEPTH]; /* per open container: members written */
} sl_json_t;

/* Starts a document appended to `buf`. */
void sl_json_init(sl_json_t *j, sl_buf_t *buf, bool pretty);

void sl_json_object_begin(sl_json_t *j);
void sl_json_object_end(sl_json_t *j);
void sl_json_array_begin(sl_json_t *j);
void sl_json_array_end(sl_json_t *j);
/* Writes a member name; the next call writes its value. */
void sl_json_key(sl_json_t *j, const char *key);

/* Values. sl_json_string(j, NULL) writes null (json4s' JString(null)). */
void sl_json_string(sl_json_t *j, const char *s);
void sl_json_string_n(sl_json_t *j, const char *s, size_t n);
void sl_json_int(sl_json_t *j, int64_t v);
void sl_json_double(sl_json_t *j, double v);
void sl_json_bool(sl_json_t *j, bool v);
void sl_json_null(sl_json_t *j);
/* Writes `n` bytes of already-encoded JSON as one value (not checked). */
void sl_json_raw(sl_json_t *j, const char *json, size_t n);

/* Key + value shorthands. */
void sl_json_kv_string(sl_json_t *j, const char *key, const char *s);
void sl_json_kv_int(sl_json_t *j, const char *key, int64_t v);
void sl_json_kv_double(sl_json_t *j, const char *key, double v);
void sl_json_kv_bool(sl_json_t *j, const char *key, bool v);

/* Appends `n` bytes as a quoted JSON string: `"` `\` and control characters
 * escaped (\n \r \t \b \f, others \u00XX); other bytes, UTF-8 included,
 * copied as they are. */
void sl_json_escape(sl_buf_t *b, const char *s, size_t n);

/* Appends v as Java's Double.toString does (see above); NaN -> "NaN",
 * infinities -> "Infinity" / "-Infinity" (not JSON: callers decide). */
void sl_json_format_double(sl_buf_t *b, double v);

/* Shortest round-trip decimal digits of a finite v != 0 (sign ignored):
 * writes 1..17 digits, no leading or trailing zeros, NUL-terminated, into
 * `digits` and sets *exp10 so that |v| = 0.d1d2d3... x 10^(*exp10 + 1),
 * i.e. d1.d2d3... x 10^(*exp10). Returns the digit count. When several
 * shortest strings round-trip, the one closest to v is chosen. */
int sl_dtoa_shortest(double v, char digits[20], int *exp10);

#endif
