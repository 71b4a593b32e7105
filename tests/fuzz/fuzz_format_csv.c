/* libFuzzer target: the CSV record splitter and decoder
 * (connectors/format_csv.c) and their round trip through the encoder.
 * `make FUZZ=1 fuzz` runs it (tests/fuzz/README.md); `make test` replays
 * tests/fuzz/corpus/format_csv. */
#include "tests/fuzz/fuzz.h"
#include "fuzz_format_common.h"

#define CSV_SCHEMA                                                                             \
    "s STRING, i INT, b BOOLEAN, l BIGINT, d DOUBLE, m DECIMAL(12,3), x BINARY, t TIMESTAMP, " \
    "dt DATE, iv INTERVAL, st STRUCT<a: INT, b: STRING>, s2 STRING"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_one(FORMAT_CSV, CSV_SCHEMA ", _corrupt_record STRING", CSV_SCHEMA, data, size);
}
