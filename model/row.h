/* exec rows: byte encodings of one row's columns, for state stores,
 * shuffles and checkpoints, and the row hash used for partitioning.
 *
 * ROW format (exec_row_*): compact, not ordered. A null bitmap over the
 * encoded columns (bit i of byte i/8 set = NULL), then each non-NULL
 * column: BOOLEAN 1 byte; INT, DATE 4 bytes; BIGINT, TIMESTAMP, DOUBLE 8
 * bytes; DECIMAL 16 bytes; INTERVAL months(4) days(4) micros(8); all
 * little-endian; STRING/BINARY a varint length then the bytes; STRUCT
 * nested (its own field bitmap, then its fields). Decoding needs the
 * column types (the state store records the schema beside the data).
 *
 * KEY format (exec_key_*): memcomparable: memcmp order of two encodings
 * equals SQL order of the rows column by column (exec_value_compare),
 * NULLs first. Per column a marker byte (0x00 NULL, 0x01 value), then:
 * integers big-endian with the sign bit flipped; doubles' bits made
 * order-preserving (-0 as 0, every NaN as one NaN above +Infinity);
 * decimals 16 bytes big-endian, sign-flipped (a key column has one scale);
 * strings and binaries with 0x00 escaped as 0x00 0xFF and a 0x00 0x00
 * terminator; intervals as their span then months, days, micros; structs
 * field by field. So `group key | window | pk` concatenations range-scan
 * by prefix. Keys decode back to values.
 *
 * Row hashes (exec_hash_rows) fold exec_value_hash over the columns from
 * SL_HASH_SEED; they are part of the checkpoint format (see common/hash.h). */
#ifndef EXEC_ROW_H
#define EXEC_ROW_H

#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"
#include "common/sl_error.h"
#include "model/batch.h"

/* Appends the row encoding of columns cols[0..ncols) of physical row `row`. */
void exec_row_encode(const exec_batch_t *b, uint32_t row, const int *cols, int ncols,
                     sl_buf_t *out);
/* Decodes a row encoding into columns col0 .. col0+ncols-1 of row `row` of
 * a builder (whose column types give the encoding's types). Strings are
 * copied into the batch. -1 with XX000 `corrupt row encoding` when the
 * bytes do not hold exactly such a row. */
int exec_row_decode(const void *p, size_t len, exec_builder_t *bld, uint32_t row, int col0,
                    int ncols, sl_error_t *err);

/* Appends the memcomparable key of columns cols[0..ncols) of physical row `row`. */
void exec_key_encode(const exec_batch_t *b, uint32_t row, const int *cols, int ncols,
                     sl_buf_t *out);
/* Appends the key encoding of one value (to build range-scan bounds). */
void exec_key_encode_value(const exec_value_t *v, sl_buf_t *out);
/* Decodes a key as exec_row_decode does; *used receives the bytes consumed
 * (a key may be a prefix of a longer stored key). */
int exec_key_decode(const void *p, size_t len, exec_builder_t *bld, uint32_t row, int col0,
                    int ncols, size_t *used, sl_error_t *err);

/* out[row] = hash of columns cols[0..ncols) for every present row of b
 * (out is indexed by physical row and has b->nrows entries; rows not
 * present are left alone). Equal rows hash equal (see exec_value_hash). */
void exec_hash_rows(const exec_batch_t *b, const int *cols, int ncols, uint64_t *out);

#endif
