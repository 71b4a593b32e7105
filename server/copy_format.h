/* COPY's data formats, text and CSV, as PostgreSQL writes and reads them:
 * encoding a row of text values into one line, splitting a stream of bytes
 * into records, and a record into fields. No I/O and no types: values are
 * the PostgreSQL text forms (model/text_io.h makes and parses them).
 *
 * Text format: fields separated by the delimiter (tab), NULL written as the
 * null string (\N) and recognised by the field's raw text; backslash,
 * the delimiter and \b \f \n \r \t \v are backslash-escaped on output; on
 * input \ooo (octal), \xhh (hex) and a backslash before any other byte are
 * decoded. A record ends at a newline that is not backslash-escaped.
 *
 * CSV: fields separated by the delimiter (comma), quoted with the quote
 * character (") when they contain the delimiter, the quote, CR or LF, when
 * they equal the null string (empty by default), or when forced; inside
 * quotes the quote and the escape character (by default the quote itself)
 * are preceded by the escape character. A record ends at a newline outside
 * quotes; a quoted field is never NULL (unless forced).
 *
 * In both, a line "\." ends the data, a record ends at LF or CR LF, and a
 * HEADER line holds the column names. */
#ifndef SL_COPY_FORMAT_H
#define SL_COPY_FORMAT_H

#include <stddef.h>

#include "common/buf.h"
#include "common/sl_error.h"

typedef enum { COPY_FMT_TEXT = 0, COPY_FMT_CSV } copy_fmt_t;
typedef enum { COPY_HEADER_NONE = 0, COPY_HEADER_TRUE, COPY_HEADER_MATCH } copy_header_t;

typedef struct copy_opts {
    copy_fmt_t fmt;
    char delim;           /* '\t' (text) or ',' (CSV) by default */
    char quote;           /* CSV: '"' by default */
    char escape;          /* CSV: the quote by default */
    const char *null_str; /* "\\N" (text) or "" (CSV) by default; not owned */
    size_t null_len;
    copy_header_t header;
} copy_opts_t;

/* The defaults of a format. */
void copy_opts_default(copy_opts_t *o, copy_fmt_t fmt);

/* ---- output ---- */

/* Appends one line: ncols fields (vals[i] NULL = SQL NULL, lens[i] bytes)
 * separated by the delimiter, then '\n'. force_quote (CSV; NULL = none)
 * quotes the non-NULL values of the columns whose flag is set. */
void copy_encode_row(const copy_opts_t *o, int ncols, const char *const *vals, const size_t *lens,
                     const unsigned char *force_quote, sl_buf_t *out);

/* ---- input ---- */

/* One field of a decoded record: the value's bytes, or NULL. */
typedef struct copy_field {
    const char *p;
    size_t n;
    int null;
    int quoted; /* CSV: some of it was quoted */
} copy_field_t;

/* Per-column NULL rules of CSV input (FORCE_NOT_NULL, FORCE_NULL). */
typedef struct copy_null_rules {
    const unsigned char *force_not_null; /* NULL = none; else one flag per field */
    const unsigned char *force_null;
    int n; /* flags in each array */
} copy_null_rules_t;

/* Finds the next record in p[0..n): its length without the line end goes
 * to *rec_len and the bytes to consume (with the line end) are returned.
 * Returns 0 when no whole record is there yet; with `eof` the rest is the
 * last record (a final line may lack its newline). */
size_t copy_next_record(const copy_opts_t *o, const char *p, size_t n, int eof, size_t *rec_len);

/* True when the record is the end-of-data line "\.". */
int copy_is_end_marker(const char *rec, size_t n);

/* Splits a record into fields. Decoded bytes go to `scratch` (cleared
 * first), which the fields point into until its next use. `*fields` grows
 * (malloc'd; the caller frees it) to `*cap` entries. Returns the number of
 * fields, or -1 with err (22P04 "unterminated CSV quoted field"). */
int copy_decode_record(const copy_opts_t *o, const copy_null_rules_t *rules, const char *rec,
                       size_t n, sl_buf_t *scratch, copy_field_t **fields, int *cap,
                       sl_error_t *err);

/* Offset of the first byte of p[0..n) that is not valid UTF-8 (NUL
 * included, as PostgreSQL refuses it), or n. A sequence cut at the end is
 * valid when `partial_ok` (more bytes follow). */
size_t copy_utf8_check(const char *p, size_t n, int partial_ok);

#endif
