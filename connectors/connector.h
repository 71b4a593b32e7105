/* The connector registry: every source, sink and table format sluice knows,
 * with the options each accepts (Spark's names, matched case-insensitively),
 * which are required, their defaults and documentation, and the fixed schema
 * of connectors that have one. CREATE STREAM/TABLE/QUERY validate against
 * it, DESCRIBE and docs/sql.md list it. The running implementations (the
 * source and sink vtables) hang off the same descriptors. */
#ifndef SL_CONNECTOR_H
#define SL_CONNECTOR_H

#include "common/arena.h"
#include "common/sl_error.h"
#include "model/output_mode.h"
#include "model/types.h"

typedef enum { CONN_SOURCE = 1, CONN_SINK = 2, CONN_TABLE = 4 } conn_role_t;

typedef struct conn_option {
    const char *name; /* Spark's spelling, e.g. "maxOffsetsPerTrigger" */
    int required;
    const char *def; /* default as text, NULL when none */
    const char *doc;
} conn_option_t;

typedef struct conn_kv {
    const char *key;
    const char *value;
} conn_kv_t;

/* What a connector can do, read by the planner and the server instead of
 * its name. */
enum {
    CONN_CAP_CONTINUOUS = 1 /* usable by TRIGGER CONTINUOUS: a source polled without a log of
                               what each step took, a sink taking any number of writes per epoch */
};

/* The bit of an output mode in conn_desc_t.sink_modes. */
#define CONN_MODE_BIT(m) (1u << (m))
#define CONN_ALL_MODES \
    (CONN_MODE_BIT(OUTPUT_APPEND) | CONN_MODE_BIT(OUTPUT_UPDATE) | CONN_MODE_BIT(OUTPUT_COMPLETE))

typedef struct conn_desc {
    const char *name;               /* "kafka", "file", "rate", "nexmark", "memory", ... */
    unsigned roles;                 /* CONN_SOURCE | CONN_SINK | CONN_TABLE */
    const conn_option_t *options;   /* terminated by a NULL name */
    const char *passthrough_prefix; /* options with this prefix go to the library ("kafka.") */
    const char *fixed_schema;       /* "col TYPE, ..." when the connector fixes the columns */
    /* Columns that depend on the options (nexmark's table, Kafka's raw form):
     * sets *fixed (NULL: the stream declares its columns) or fails with err;
     * NULL when fixed_schema says it all. */
    int (*fixed_columns)(const conn_kv_t *opts, int nopts, int has_columns, const char **fixed,
                         sl_error_t *err);
    unsigned caps;          /* CONN_CAP_* */
    unsigned sink_modes;    /* sinks: CONN_MODE_BIT of each output mode accepted */
    const char *modes_hint; /* sinks with fewer modes: the hint of the refusal */
    const char *doc;
    /* Sinks: the options fixed for the life of a checkpoint (Spark: "changes
     * to output directory of a file sink are not allowed"), NULL-terminated;
     * a start that changes one is refused. NULL: none. */
    const char *const *pinned;
    /* The options ALTER STREAM / ALTER QUERY may change on a running
     * checkpoint (read limits, a Kafka sink's topic), NULL-terminated; the
     * others are refused. NULL: none. */
    const char *const *alterable;
} conn_desc_t;

/* What a connector is told about the stream or table it serves: its name,
 * columns and options. The planner's relation description embeds one
 * (planner/relation.h, member `stream`) and hands it down as it is;
 * connectors never see the planner's types. */
typedef struct conn_stream {
    const char *name;
    int ncols;
    const char **col_names;
    exec_type_t *col_types;
    const conn_desc_t *connector; /* source or table format; NULL: catalog-stored / memory */
    int nopts;
    conn_kv_t *opts;
} conn_stream_t;

/* The descriptor of `name` in `role`, or NULL with err (42704, listing the known ones). */
const conn_desc_t *conn_lookup(const char *name, conn_role_t role, sl_error_t *err);
/* Checks options against the descriptor: unknown keys (22023, hint lists the
 * known ones), missing required ones, duplicates. On error *bad_index is the
 * offending option (or -1). */
int conn_check_options(const conn_desc_t *d, const conn_kv_t *opts, int n, int *bad_index,
                       sl_error_t *err);
/* The options `d` pins (conn_desc_t.pinned) with their values in `opts`
 * (NULL when not given), into `a`; returns their count. */
int conn_pinned_options(const conn_desc_t *d, const conn_kv_t *opts, int n, sl_arena_t *a,
                        conn_kv_t **out);
/* Whether ALTER may change option `key` of `d` (conn_desc_t.alterable). */
int conn_option_alterable(const conn_desc_t *d, const char *key);
/* The alterable options of `d` as "a, b" (or "none"), in `a`. */
const char *conn_alterable_list(const conn_desc_t *d, sl_arena_t *a);
/* Whether `key` is one of `d`'s options (or under its passthrough prefix). */
int conn_option_known(const conn_desc_t *d, const char *key);
/* The descriptor's spelling of an option key ("maxOffsetsPerTrigger" for
 * "maxoffsetspertrigger"), or `key` itself when the descriptor has no such option. */
const char *conn_canonical_key(const conn_desc_t *d, const char *key);
/* The value of an option (case-insensitive key), else the descriptor's
 * default, else NULL. */
const char *conn_option(const conn_desc_t *d, const conn_kv_t *opts, int n, const char *key);
/* The fixed columns of a stream of `d` with these options: *fixed is the
 * schema text, or NULL when the stream declares its own; -1 with err when the
 * options name no known schema. */
int conn_fixed_columns(const conn_desc_t *d, const conn_kv_t *opts, int nopts, int has_columns,
                       const char **fixed, sl_error_t *err);
/* 0 when sink `d` accepts output mode `m`, else -1 with a 0A000 error naming
 * the modes it supports. */
int conn_check_mode(const conn_desc_t *d, output_mode_t m, sl_error_t *err);
/* The names of the descriptors in `role` that have capability `cap`, as
 * "a, b or c", in `a`. */
const char *conn_names_with(conn_role_t role, unsigned cap, sl_arena_t *a);

/* The fixed schema of a nexmark table ("bid", "auction", "person"), or NULL. */
const char *conn_nexmark_schema(const char *table);
/* The fixed columns of a Kafka stream declared without columns or with format 'raw'. */
const char *conn_kafka_raw_schema(void);

#endif
