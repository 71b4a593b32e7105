/* libFuzzer target: the JSON lines decoder (connectors/format_json.c) and
 * its round trip through the encoder. Not built by make. Build and run
 * from the repository root:
 *
 *   mkdir -p build/fuzz && clang -g -O1 -std=c11 -D_GNU_SOURCE -I. \
 *     -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
 *     tests/fuzz/fuzz_format_json.c connectors/format*.c connectors/conn_util.c connectors/connector.c \
 *     common/arena.c common/buf.c common/hash.c common/json_write.c common/log.c \
 *     common/sl_error.c exec/batch.c exec/types.c exec/value.c exec/text_io.c \
 *     exec/json.c exec/decimal.c planner/relation.c -lm -lpthread \
 *     -o build/fuzz/fuzz_format_json
 *   build/fuzz/fuzz_format_json -max_total_time=300 tests/fuzz/corpus/json
 */
#include "fuzz_format_common.h"

#define JSON_SCHEMA                                                                        \
    "b BOOLEAN, i INT, l BIGINT, d DOUBLE, m DECIMAL(12,3), s STRING, x BINARY, dt DATE, " \
    "iv INTERVAL, st STRUCT<a: INT, b: STRING, c: STRUCT<d: DOUBLE>>"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_one(FORMAT_JSON, JSON_SCHEMA ", t TIMESTAMP, _corrupt_record STRING", JSON_SCHEMA,
                    data, size);
}
