/* libFuzzer target for exec's text input parsers: every scalar type's text
 * input, the interval unit form, type names, Spark DDL schemas and JSON
 * into a struct. Checks that nothing crashes, that failures carry one of
 * the documented SQLSTATEs, and that whatever parses prints to text that
 * parses back to the same value. `make FUZZ=1 fuzz` runs it
 * (tests/fuzz/README.md); `make test` replays tests/fuzz/corpus/exec_text.
 * The first input byte picks what is parsed; the rest is the text. */
#include "tests/fuzz/fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "model/text_io.h"
#include "model/types.h"
#include "model/value.h"

static void check(int ok)
{
    if (!ok) abort(); /* a broken invariant: libFuzzer saves the input */
}

static const char *const type_names[] = {
    "BOOLEAN",
    "INT",
    "BIGINT",
    "DOUBLE",
    "DECIMAL(10,2)",
    "DECIMAL(38,10)",
    "DECIMAL(5,5)",
    "STRING",
    "BINARY",
    "TIMESTAMP",
    "DATE",
    "INTERVAL",
    "STRUCT<a: INT, b: STRING, c: STRUCT<d: TIMESTAMP, e: DOUBLE>>",
};
#define NTYPES (sizeof type_names / sizeof type_names[0])

static const char *const units[] = {
    "YEAR",           "MONTH",         "WEEK",        "DAY",         "HOUR",
    "MINUTE",         "SECOND",        "MILLISECOND", "MICROSECOND", "DAY TO SECOND",
    "HOUR TO MINUTE", "YEAR TO MONTH", "bogus"};

static int known_state(const char *s)
{
    static const char *ok[] = {"22P02", "22003", "22007", "22008",
                               "42601", "42704", "22023", "42701"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (!strcmp(s, ok[i])) return 1;
    return 0;
}

/* Parses as type t; when it succeeds, the printed text parses back equal. */
static void round_trip(sl_arena_t *a, exec_type_t t, const char *s, size_t n)
{
    exec_value_t v, back;
    sl_error_t err;
    if (exec_value_parse(t, s, n, a, &v, &err)) {
        check(known_state(err.sqlstate));
        return;
    }
    if (v.is_null) { /* a JSON null for a struct */
        check(t.id == EXEC_TYPE_STRUCT);
        return;
    }
    sl_buf_t b = SL_BUF_INIT;
    check(exec_value_format(&v, &b));
    if (t.id == EXEC_TYPE_STRUCT) { /* printed JSON has all fields; it must read back */
        check(exec_value_parse(t, b.data, b.len, a, &back, &err) == 0);
    } else {
        check(exec_value_parse(t, b.data ? b.data : "", b.len, a, &back, &err) == 0);
        check(exec_value_equal(&v, &back));
    }
    sl_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    sl_arena_t *a = sl_arena_new("fuzz");
    const char *s = (const char *)data + 1;
    size_t n = size - 1;
    unsigned pick = data[0];
    exec_type_t t;
    sl_error_t err;
    if (pick < 200) {
        const char *tn = type_names[pick % NTYPES];
        check(exec_type_parse(tn, strlen(tn), a, &t, &err) == 0);
        round_trip(a, t, s, n);
    } else if (pick < 220) {
        exec_interval_t iv;
        exec_parse_status_t st =
            exec_parse_interval_unit(s, n, units[pick % (sizeof units / sizeof units[0])], &iv);
        check(st == EXEC_PARSE_OK || st == EXEC_PARSE_SYNTAX || st == EXEC_PARSE_RANGE);
    } else if (pick < 240) {
        if (exec_type_parse(s, n, a, &t, &err) == 0) {
            const char *text = exec_type_text(t, a);
            exec_type_t again;
            check(exec_type_parse(text, strlen(text), a, &again, &err) == 0 &&
                  exec_type_equal(t, again));
        } else {
            check(known_state(err.sqlstate));
        }
    } else {
        if (exec_schema_parse(s, n, a, &t, &err)) check(known_state(err.sqlstate));
        else check(t.id == EXEC_TYPE_STRUCT);
    }
    sl_arena_free(a);
    return 0;
}
