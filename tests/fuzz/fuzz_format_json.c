/* libFuzzer target: the JSON lines decoder (connectors/format_json.c) and
 * its round trip through the encoder. `make FUZZ=1 fuzz` runs it
 * (tests/fuzz/README.md); `make test` replays tests/fuzz/corpus/format_json. */
#include "tests/fuzz/fuzz.h"
#include "fuzz_format_common.h"

#define JSON_SCHEMA                                                                        \
    "b BOOLEAN, i INT, l BIGINT, d DOUBLE, m DECIMAL(12,3), s STRING, x BINARY, dt DATE, " \
    "iv INTERVAL, st STRUCT<a: INT, b: STRING, c: STRUCT<d: DOUBLE>>"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_one(FORMAT_JSON, JSON_SCHEMA ", t TIMESTAMP, _corrupt_record STRING", JSON_SCHEMA,
                    data, size);
}
