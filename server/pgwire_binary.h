/* PostgreSQL's binary format for bind parameters and result columns, one
 * codec per type, found by type OID in one table (pgwire_binary.c), and
 * the exec type a parameter declared in Parse binds as.
 *
 * Both directions meet sluice at its text format (model/text_io.h):
 *  - a binary parameter is decoded into the text sluice would accept for
 *    the type, so the session and the binder see text parameters with a
 *    declared type, as they see text-format ones;
 *  - a binary result column is encoded from the text the session produced
 *    for the column's type.
 * See pgwire_binary.c for why the conversion happens at this layer. */
#ifndef SL_PGWIRE_BINARY_H
#define SL_PGWIRE_BINARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"
#include "common/sl_error.h"
#include "model/types.h"
#include "server/session.h"

/* Type OIDs beyond session.h's PG_OID_* that drivers send or that the
 * codecs know. */
#define PG_OID_CHAR 18
#define PG_OID_NAME 19
#define PG_OID_INT2 21
#define PG_OID_OID 26
#define PG_OID_FLOAT4 700
#define PG_OID_UNKNOWN 705
#define PG_OID_BPCHAR 1042
#define PG_OID_VARCHAR 1043
#define PG_OID_TIME 1083
#define PG_OID_TIMESTAMPTZ 1184
#define PG_OID_UUID 2950
#define PG_OID_JSONB 3802

/* Format codes of Bind. */
#define PGW_FORMAT_TEXT 0
#define PGW_FORMAT_BINARY 1

/* The format of column (or parameter) `i` under Bind's rule: no codes =
 * all text, one code = that code for all, else one code each (a column
 * past them, in a result that grew since Parse, is text). */
static inline int pgw_bin_format_of(const int16_t *codes, int ncodes, int i)
{
    return ncodes == 0   ? PGW_FORMAT_TEXT
           : ncodes == 1 ? codes[0]
           : i < ncodes  ? codes[i]
                         : PGW_FORMAT_TEXT;
}

/* PostgreSQL's name of a type OID ("integer", "numeric", "text[]"...), or
 * NULL for an OID the tables do not hold. */
const char *pgw_bin_type_name(uint32_t oid);

/* True when result values of this OID can be sent in binary: the types
 * below, and one-dimensional arrays of them (text[], int4[]...,
 * int2vector, oidvector), which are results only. */
bool pgw_bin_can_send(uint32_t oid);

/* The exec type a parameter declared with this OID binds as: BOOLEAN for
 * bool, INT for int2/int4, BIGINT for int8/oid, DOUBLE for float4/float8,
 * DECIMAL for numeric (precision and scale from the value), BINARY for
 * bytea, DATE, TIMESTAMP for timestamp/timestamptz, INTERVAL; EXEC_TYPE_NULL
 * for every other OID (text, varchar, unknown, json, uuid, time, 0...): such
 * a parameter is a text value typed by its use, like a string literal. */
exec_type_id_t pgw_bin_param_type(uint32_t oid);

/* Decodes the binary value of bind parameter `index` (1-based), declared
 * with type `oid`, appending sluice's text for it to `text`. Returns 0, or
 * -1 with err set as PostgreSQL reports it:
 *   08P01 insufficient data left in message          (too short)
 *   22P03 incorrect binary data format in bind parameter N (too long, or
 *         no declared type)
 *   22P03 invalid sign/digit/scale/length in external "numeric" value
 *   22021 invalid byte sequence for encoding "UTF8": 0x00 (text types)
 *   22008 date out of range / timestamp out of range
 *   42883 no binary input function available for type with OID N */
int pgw_bin_decode_param(uint32_t oid, const char *p, size_t n, int index, sl_buf_t *text,
                         sl_error_t *err);

/* Appends the binary encoding of one value given as sluice's text for a
 * column of type `oid`. Returns 0, or -1 when the text is not a value of
 * the type (nothing useful was appended then). */
int pgw_bin_encode(uint32_t oid, const char *text, size_t n, sl_buf_t *out);

/* Appends a DataRow body built from a text DataRow body (session.h's row
 * layout; `ncols` columns described by `cols`): columns whose format code is binary are encoded
 * from their text, the others copied. Returns 0, or -1 with err (22P03) when a value cannot be
 * encoded; `out` then holds a partial body the caller drops. */
int pgw_bin_datarow(sl_buf_t *out, const char *body, size_t len, int ncols, const sess_col_t *cols,
                    const int16_t *fmts, int nfmts, sl_error_t *err);

#endif
