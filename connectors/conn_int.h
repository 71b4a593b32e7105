/* Internal helpers of connectors/ (not for other modules): crash-safe file
 * writes, option parsing with the module's error wording, bare-number
 * offsets, the persisted start time of generated streams, file URIs, a
 * byte-string hash map, and the implementation tables behind
 * source_create() and sink_create().
 *
 * Durability rule for every file written here: write ".<name>.tmp" in the
 * same directory, fsync it, rename it over the final name, fsync the
 * directory. Readers see the old file or the whole new one, never a prefix. */
#ifndef SL_CONN_INT_H
#define SL_CONN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/durable.h"
#include "common/arena.h"
#include "common/buf.h"
#include "common/sl_error.h"
#include "connectors/connector.h"
#include "connectors/format.h"
#include "connectors/sink.h"
#include "connectors/source.h"

/* ---- files ---------------------------------------------------------------- */

/* Fills err with 58030 "could not <what> \"<path>\": <strerror(errno)>"; returns -1. */
int conn_io_error(sl_error_t *err, const char *what, const char *path);
/* Appends the progress metric "numMalformedRecords" (records of the source
 * that failed to parse since the query started) as a JSON member, when
 * there are any: a clean source keeps Spark's progress shape; then those of
 * its bad-records writer `bad` (may be NULL; format.h). */
void conn_metric_bad_records(const source_t *s, format_bad_records_t *bad, sl_buf_t *out);
/* "dir/name" in `a`. */
char *conn_path_join(sl_arena_t *a, const char *dir, const char *name);
/* Modification time of a stat result in milliseconds. */
struct stat;
int64_t conn_mtime_ms(const struct stat *st);

/* One numbered log file of a directory: "<id>" or "<id>.compact". */
typedef struct conn_log_file {
    int64_t id;
    bool compact;
} conn_log_file_t;

/* Lists the log files of `dir` (other names are ignored), ascending by id
 * into a malloc'd array the caller frees. Returns the count (0 when `dir`
 * is missing) or -1. */
int conn_log_list(const char *dir, conn_log_file_t **out, sl_error_t *err);

/* ---- file URIs (the paths Spark's logs hold) ------------------------------ */

/* Appends "file://" + the absolute path, percent-encoding bytes other than
 * unreserved characters and '/'. */
void conn_file_uri(sl_buf_t *out, const char *abs_path);
/* The local path of "file:///x", "file:/x" or a plain "/x", percent-decoded,
 * in `a`; NULL when it is none of those. */
char *conn_uri_path(sl_arena_t *a, const char *uri, size_t n);

/* ---- options -------------------------------------------------------------- */

/* An integer option in [min, max]; *out keeps its value when the option is
 * absent and has no default. 22023 naming the option and the range. */
int conn_opt_int64(const conn_desc_t *d, const conn_kv_t *o, int n, const char *key, int64_t min,
                   int64_t max, int64_t *out, sl_error_t *err);
/* A boolean option: true/false (any case). */
int conn_opt_bool(const conn_desc_t *d, const conn_kv_t *o, int n, const char *key, bool *out,
                  sl_error_t *err);
/* A duration as Spark's timeStringAsSec reads it ("5s", "2m", "1h", "500ms",
 * a bare number = seconds), truncated to whole seconds, >= 0. */
int conn_opt_seconds(const conn_desc_t *d, const conn_kv_t *o, int n, const char *key, int64_t *out,
                     sl_error_t *err);
/* A size as Spark's byteStringAsBytes reads it ("64m", "512k", "1g", "100b":
 * units b k m g t, optionally followed by b, any case, binary multiples; a
 * bare number = bytes), > 0. */
int conn_opt_bytes(const conn_desc_t *d, const conn_kv_t *o, int n, const char *key, int64_t *out,
                   sl_error_t *err);
/* One of `choices` (NULL-terminated, matched case-insensitively); *out is
 * its index. 22023 listing the accepted values. */
int conn_opt_choice(const conn_desc_t *d, const conn_kv_t *o, int n, const char *key,
                    const char *const *choices, int *out, sl_error_t *err);
/* 22023 `invalid value "<v>" for option "<key>"` with a hint sentence. */
int conn_bad_option(sl_error_t *err, const char *key, const char *value, const char *hint_fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- offsets -------------------------------------------------------------- */

/* A bare-number offset ("42"). 22023 when it is not one. */
int conn_offset_parse_long(const char *text, int64_t *out, sl_error_t *err);
/* The text of a bare-number offset, in `a`. */
const char *conn_offset_long(sl_arena_t *a, int64_t v);

/* The start time of a generated stream, persisted as Spark's rate source
 * does: `dir`/0 holds "v1\n<ms>". Reads it, or writes `now_ms` there at the
 * first call. A NULL dir keeps nothing (the time is `now_ms`). */
int conn_start_time(const char *dir, int64_t now_ms, int64_t *out, sl_error_t *err);

/* The wall clock in milliseconds (the default source clock). */
int64_t conn_wall_ms(void);

/* ---- a byte-string hash map ----------------------------------------------- */

/* Keys are copied into the map's own arena (never malloc'd one by one);
 * values are 64-bit. Deleting leaves a tombstone; the slot array grows by
 * doubling. One thread at a time. */
typedef struct conn_map_slot {
    const char *key; /* NULL: empty; CONN_MAP_TOMB: deleted */
    uint32_t len;
    uint64_t hash;
    uint64_t val;
} conn_map_slot_t;

typedef struct conn_map {
    conn_map_slot_t *slots; /* cap entries (heap) */
    size_t cap;             /* power of two, or 0 before the first put */
    size_t n;               /* live keys */
    size_t used;            /* live + tombstones */
    sl_arena_t *keys;       /* key bytes */
} conn_map_t;

void conn_map_init(conn_map_t *m);
void conn_map_free(conn_map_t *m);
/* Drops every key (the memory is kept). */
void conn_map_clear(conn_map_t *m);
/* The value of a key, or NULL. */
uint64_t *conn_map_get(const conn_map_t *m, const void *key, size_t len);
/* Sets a key's value; returns 1 when the key is new, 0 when replaced. */
int conn_map_put(conn_map_t *m, const void *key, size_t len, uint64_t val);
/* Removes a key; returns 1 when it was there. */
int conn_map_del(conn_map_t *m, const void *key, size_t len);
/* Iteration: the next live slot at or after *i (advancing *i past it), or
 * NULL at the end. Start with *i = 0. */
const conn_map_slot_t *conn_map_next(const conn_map_t *m, size_t *i);

/* ---- implementation tables ------------------------------------------------ */

/* A source implementation: `create` fills s->ops and s->impl (the common
 * fields are set and the options validated before); `validate` checks the
 * stream's options and columns for CREATE STREAM. */
typedef struct source_impl {
    const char *name;
    int (*create)(source_t *s, sl_arena_t *a, sl_error_t *err);
    int (*validate)(const conn_stream_t *rel, sl_error_t *err);
} source_impl_t;

int source_rate_create(source_t *s, sl_arena_t *a, sl_error_t *err);
int source_rate_validate(const conn_stream_t *rel, sl_error_t *err);
int source_file_create(source_t *s, sl_arena_t *a, sl_error_t *err);
int source_file_validate(const conn_stream_t *rel, sl_error_t *err);
int source_nexmark_create(source_t *s, sl_arena_t *a, sl_error_t *err);
int source_nexmark_validate(const conn_stream_t *rel, sl_error_t *err);
int source_kafka_create(source_t *s, sl_arena_t *a, sl_error_t *err);
int source_kafka_validate(const conn_stream_t *rel, sl_error_t *err);
int source_pgcdc_create(source_t *s, sl_arena_t *a, sl_error_t *err);
int source_pgcdc_validate(const conn_stream_t *rel, sl_error_t *err);

/* A sink implementation: `create` fills s->ops and s->impl (common fields
 * set, options validated before); `validate` checks options, mode and schema. */
typedef struct sink_impl {
    const char *name;
    int (*create)(sink_t *s, const sink_env_t *env, sl_arena_t *a, sl_error_t *err);
    int (*validate)(const conn_desc_t *desc, output_mode_t mode, const sink_schema_t *schema,
                    const conn_kv_t *opts, int nopts, sl_error_t *err);
} sink_impl_t;

int sink_noop_create(sink_t *s, const sink_env_t *env, sl_arena_t *a, sl_error_t *err);
int sink_console_create(sink_t *s, const sink_env_t *env, sl_arena_t *a, sl_error_t *err);
int sink_console_validate(const conn_desc_t *desc, output_mode_t mode, const sink_schema_t *schema,
                          const conn_kv_t *opts, int nopts, sl_error_t *err);
int sink_memory_create(sink_t *s, const sink_env_t *env, sl_arena_t *a, sl_error_t *err);
int sink_file_create(sink_t *s, const sink_env_t *env, sl_arena_t *a, sl_error_t *err);
int sink_file_validate(const conn_desc_t *desc, output_mode_t mode, const sink_schema_t *schema,
                       const conn_kv_t *opts, int nopts, sl_error_t *err);
int sink_kafka_create(sink_t *s, const sink_env_t *env, sl_arena_t *a, sl_error_t *err);
int sink_kafka_validate(const conn_desc_t *desc, output_mode_t mode, const sink_schema_t *schema,
                        const conn_kv_t *opts, int nopts, sl_error_t *err);

int sink_postgres_create(sink_t *s, const sink_env_t *env, sl_arena_t *a, sl_error_t *err);
int sink_postgres_validate(const conn_desc_t *desc, output_mode_t mode, const sink_schema_t *schema,
                           const conn_kv_t *opts, int nopts, sl_error_t *err);

/* A deep copy of a type (struct field names and nested fields) in `a`. */
exec_type_t conn_type_copy(sl_arena_t *a, exec_type_t t);

/* Column `name` of a stream with the given type: its index, -1 when the
 * stream does not declare it; 42804 when declared with another type. */
int conn_stream_column(const conn_stream_t *rel, const char *name, exec_type_id_t type, int *index,
                       sl_error_t *err);

#endif
