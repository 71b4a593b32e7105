/* Record formats: JSON lines and CSV, both ways, and the reading loop that
 * applies a stream's malformed-record mode in one place.
 *
 * DECODING (format_decoder_t) turns one record into one row of a stream's
 * columns, Spark's way:
 *   JSON  an object per line; members matched to columns by name (exact,
 *         then case-insensitive); missing members and null are NULL; extra
 *         members ignored; numbers into INT/BIGINT (integral, in range),
 *         DOUBLE, DECIMAL (rounded to the scale); strings into TIMESTAMP,
 *         DATE, INTERVAL by their text forms; nested objects into STRUCT
 *         columns; a STRING column takes a string or the raw text of any
 *         other value (model/json.h has the full rules).
 *   CSV   RFC 4180: fields split by `sep`, a field in double quotes may hold
 *         the separator, newlines and doubled quotes (""); the i-th field
 *         goes to the i-th column (text input of model/text_io.h; STRUCT
 *         columns take JSON text). An unquoted empty field is NULL; a quoted
 *         empty field ("") is the empty string in STRING/BINARY columns and
 *         NULL elsewhere. Fewer fields than columns: the rest are NULL; more:
 *         the extra ones are dropped (neither is malformed, as in Spark).
 *         With `header`, the first record of each file is skipped.
 * A record that does not fit (bad syntax, a value of the wrong type or out
 * of range) is MALFORMED: the decoder adds no row and says why.
 *
 * The column `_corrupt_record STRING`, when a stream declares it, is not
 * read from the record: it is NULL for good records and holds the raw
 * record text of malformed ones in PERMISSIVE mode.
 *
 * READING (format_reader_t) splits text into records (JSON: lines; CSV:
 * records, which may span lines inside quotes; blank records and a UTF-8
 * byte order mark at the start are skipped),
 * decodes them into batches of up to EXEC_BATCH_ROWS rows and handles
 * malformed records by the mode:
 *   PERMISSIVE     a row of NULLs (with _corrupt_record = the record text)
 *   DROPMALFORMED  no row; counted in *dropped
 *   FAILFAST       the read fails: 22P02 `malformed record in file "<path>"
 *                  at line <n>` with the reason as detail
 * Every malformed record is counted in *malformed, and with a bad-records
 * writer also appended to its file as one JSON line
 * {"path":..,"line":..,"record":..,"reason":..}; the file rotates by size
 * (format_bad.c says how).
 *
 * ENCODING (format_encoder_t) writes rows back: JSON lines as Spark's JSON
 * writer does (NULL fields left out, timestamps ISO-8601 with milliseconds,
 * binary base64), CSV fields in PostgreSQL's text forms (booleans as
 * true/false), quoted when they hold the separator, a quote, CR or LF, or
 * are the empty string; NULL is an empty field. The reader reads both back.
 *
 * Memory: decoding allocates from the caller's arenas only (batches in the
 * reader's arena, temporaries in a scratch arena the reader resets); a
 * decoder is immutable after creation and shared by concurrent readers. */
#ifndef SL_FORMAT_H
#define SL_FORMAT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/sl_error.h"
#include "connectors/connector.h"
#include "model/batch.h"
#include "connectors/connector.h"

typedef enum { FORMAT_JSON = 1, FORMAT_CSV, FORMAT_RAW } format_kind_t;
typedef enum { FORMAT_PERMISSIVE = 0, FORMAT_DROPMALFORMED, FORMAT_FAILFAST } format_mode_t;

/* The name of the corrupt-record column (Spark's columnNameOfCorruptRecord default). */
#define FORMAT_CORRUPT_COLUMN "_corrupt_record"
/* The most rotated bad-records files a source may keep (badRecordsMaxFiles). */
#define FORMAT_BAD_RECORDS_FILES_MAX 1000

/* Record options of a stream or table. */
typedef struct format_options {
    format_kind_t kind;            /* json, csv (raw: records are not decoded) */
    format_mode_t mode;            /* malformed records */
    bool header;                   /* csv: skip the first record of each file */
    char sep;                      /* csv: field separator (one byte) */
    const char *bad_records_dir;   /* badRecordsPath, or NULL */
    int64_t bad_records_max_bytes; /* badRecordsMaxBytes: size at which the file rotates */
    int bad_records_max_files;     /* badRecordsMaxFiles: rotated files kept */
} format_options_t;

/* Reads the options format (json|csv|raw, or `format` when not NULL: a
 * table's USING), mode, header, sep, badRecordsPath, badRecordsMaxBytes and
 * badRecordsMaxFiles of a connector's option list (the last two are 0 for a
 * connector without them). 22023 naming the option and the accepted values. */
int format_options_parse(const conn_desc_t *d, const conn_kv_t *opts, int nopts, const char *format,
                         format_options_t *out, sl_error_t *err);
/* "json", "csv" or "raw". */
const char *format_kind_name(format_kind_t k);

/* ---- decoding ------------------------------------------------------------- */

typedef struct format_decoder format_decoder_t;

/* A decoder of records into rows of the given columns (names and types are
 * copied into `a`, which must outlive the decoder). 42804 when a
 * `_corrupt_record` column is not STRING; 22023 for FORMAT_RAW. */
format_decoder_t *format_decoder_new(const format_options_t *o, int ncols, const char *const *names,
                                     const exec_type_t *types, sl_arena_t *a, sl_error_t *err);

/* Decodes one record (without its line end) into a new row of `bld` (built
 * over the decoder's columns). Returns 0 when the row was added, 1 when the
 * record is malformed (no row added; `why` holds the reason). Temporaries
 * go to `scratch`. */
int format_decode(const format_decoder_t *d, exec_builder_t *bld, const char *rec, size_t n,
                  sl_arena_t *scratch, sl_error_t *why);

/* Finds the end of the record starting at text[0]: returns its length
 * without the line end (a trailing CR is dropped too), sets *next to where
 * the following record starts and *lines to the newlines consumed. CSV
 * records continue across newlines inside quotes. */
size_t format_record_split(format_kind_t kind, char sep, const char *text, size_t n, size_t *next,
                           int *lines);

/* ---- reading with the mode ------------------------------------------------ */

/* Where a record came from, for errors and bad records: `kind` "file",
 * `name` its path, `unit` "line", `at` the 1-based line of its start
 * (Kafka: "topic partition", "t-0", "offset", 42). */
typedef struct format_pos {
    const char *kind;
    const char *name;
    const char *unit;
    int64_t at;
} format_pos_t;

/* Receives each built batch; -1 with err stops the read. */
typedef int (*format_emit_fn)(void *arg, exec_batch_t *batch, sl_error_t *err);

/* Appends bad records to one file, rotated by size; thread-safe (one write
 * per record). */
typedef struct format_bad_records format_bad_records_t;

/* A writer appending to `dir`/`file_name` (created with `dir` at the first
 * record; an existing file is appended to). When a record would take the
 * file past `max_bytes` (> 0), the file is first renamed `file_name`.1, the
 * older ones shifted to .2 ... and those beyond .`max_files` (>= 0)
 * deleted. Free with format_bad_records_close. */
format_bad_records_t *format_bad_records_open(const char *dir, const char *file_name,
                                              int64_t max_bytes, int max_files);
/* Appends {"path":name,"<unit>":at,"record":..,"reason":..} and a newline,
 * rotating first when it must. 58030 when the file cannot be opened,
 * rotated or written (the record is then not written). */
int format_bad_records_write(format_bad_records_t *b, const format_pos_t *pos, const char *rec,
                             size_t n, const char *reason, sl_error_t *err);
/* Appends the progress metrics "badRecordsBytesWritten" and
 * "badRecordsFilesRotated" (since the writer was opened) as JSON members,
 * once a record was written; nothing for a NULL writer. */
void format_bad_records_metrics(format_bad_records_t *b, sl_buf_t *out);
void format_bad_records_close(format_bad_records_t *b);

typedef struct format_reader {
    const format_decoder_t *dec;
    sl_arena_t *a;       /* where batches are built (the caller's) */
    sl_arena_t *scratch; /* temporaries, reset as it grows (owned) */
    format_emit_fn emit;
    void *emit_arg;
    atomic_llong *malformed; /* counters, may be NULL */
    atomic_llong *dropped;
    format_bad_records_t *bad; /* may be NULL */
    exec_builder_t bld;
    bool building; /* bld holds an unfinished batch */
    int64_t rows;  /* rows emitted so far */
} format_reader_t;

/* Starts a reader building batches in `a` for `emit`. */
void format_reader_init(format_reader_t *r, const format_decoder_t *dec, sl_arena_t *a,
                        format_emit_fn emit, void *emit_arg);
/* Decodes one record, applying the mode; emits full batches. */
int format_reader_record(format_reader_t *r, const char *rec, size_t n, const format_pos_t *pos,
                         sl_error_t *err);
/* Splits `text` (a whole file) into records and reads them; the header
 * record is skipped when the options say so. `pos` gives kind and name;
 * its `at` is set per record. */
int format_reader_text(format_reader_t *r, const char *text, size_t n, format_pos_t *pos,
                       sl_error_t *err);
/* Emits the last partial batch. */
int format_reader_flush(format_reader_t *r, sl_error_t *err);
/* Releases the scratch arena. */
void format_reader_done(format_reader_t *r);

/* ---- encoding ------------------------------------------------------------- */

typedef struct format_encoder {
    format_kind_t kind; /* json or csv */
    char sep;           /* csv */
    int ncols;
    const char *const *names; /* column names (borrowed) */
} format_encoder_t;

void format_encoder_init(format_encoder_t *e, format_kind_t kind, char sep, int ncols,
                         const char *const *names);
/* The CSV header line with its newline (nothing for JSON). */
void format_encode_header(const format_encoder_t *e, sl_buf_t *out);
/* One row as a record without a line end (a Kafka message value). */
void format_encode_value(const format_encoder_t *e, const exec_batch_t *b, uint32_t row,
                         sl_buf_t *out);
/* One row as a line (the record and '\n'). */
void format_encode_row(const format_encoder_t *e, const exec_batch_t *b, uint32_t row,
                       sl_buf_t *out);

/* ---- static tables ---------------------------------------------------------- */

/* Reads the data of `CREATE TABLE t (...) USING csv|json OPTIONS (path ...)`
 * into batches of rel's columns allocated in `a`: the file at `path`, or
 * every data file of the directory (names not starting with '.' or '_', by
 * name); when the directory has `_sluice_metadata/` (a file sink's output),
 * only the files its manifest lists. Malformed records follow PERMISSIVE. */
int format_read_path(const conn_stream_t *rel, sl_arena_t *a, format_emit_fn emit, void *arg,
                     sl_error_t *err);

/* The data files a file sink's manifest directory `meta_dir` lists as
 * added (minus deleted), by name, as local paths in `a` (resolved against
 * `data_dir` when the recorded path is gone). Returns the count or -1. */
int format_manifest_files(const char *meta_dir, const char *data_dir, sl_arena_t *a,
                          const char ***paths, sl_error_t *err);

#endif
