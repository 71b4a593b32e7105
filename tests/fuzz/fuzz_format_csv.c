/* libFuzzer target: the CSV record splitter and decoder
 * (connectors/format_csv.c) and their round trip through the encoder. Not
 * built by make. Build and run from the repository root:
 *
 *   mkdir -p build/fuzz && clang -g -O1 -std=c11 -D_GNU_SOURCE -I. \
 *     -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
 *     tests/fuzz/fuzz_format_csv.c connectors/format*.c connectors/conn_util.c connectors/connector.c \
 *     common/arena.c common/buf.c common/hash.c common/json_write.c common/log.c \
 *     common/sl_error.c exec/batch.c exec/types.c exec/value.c exec/text_io.c \
 *     exec/json.c exec/decimal.c planner/relation.c -lm -lpthread \
 *     -o build/fuzz/fuzz_format_csv
 *   build/fuzz/fuzz_format_csv -max_total_time=300 tests/fuzz/corpus/csv
 */
#include "fuzz_format_common.h"

#define CSV_SCHEMA                                                                          \
    "s STRING, i INT, b BOOLEAN, l BIGINT, d DOUBLE, m DECIMAL(12,3), x BINARY, t TIMESTAMP, " \
    "dt DATE, iv INTERVAL, st STRUCT<a: INT, b: STRING>, s2 STRING"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_one(FORMAT_CSV, CSV_SCHEMA ", _corrupt_record STRING", CSV_SCHEMA, data, size);
}
