/* Internals shared by the Kafka source and sink (connectors/kafka_*.c,
 * source_kafka.c, sink_kafka.c): topic-partition offset maps and their JSON
 * (Spark's `{"topic":{"0":42}}`), librdkafka configuration from a
 * connector's `kafka.*` options, the cluster queries the source needs
 * (partitions of topics, earliest and latest offsets) and the one error
 * wording for broker failures.
 *
 * Offset maps are sorted by (topic, partition) so that equal maps print as
 * equal text: the runner compares offsets as strings (a batch runs when end
 * differs from start; a query is caught up when end equals latest). */
#ifndef SL_KAFKA_INT_H
#define SL_KAFKA_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <librdkafka/rdkafka.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/sl_error.h"
#include "connectors/connector.h"
#include "connectors/format.h"
#include "connectors/source.h"

/* How long a cluster query (metadata, list offsets) may take. */
#define KAFKA_QUERY_TIMEOUT_MS 15000

/* ---- offset maps ---------------------------------------------------------- */

/* One topic-partition and an offset (the next offset to read, or -1/-2 for
 * latest/earliest in a startingOffsets spec). */
typedef struct kafka_tp {
    const char *topic; /* in the map's arena */
    int32_t partition; /* partition number, >= 0 */
    int64_t offset;    /* next offset to read (or -1/-2 in a startingOffsets spec) */
} kafka_tp_t;

/* A map topic-partition -> offset: `n` entries sorted by (topic, partition),
 * no duplicates. The entries live in an arena the owner chose. */
typedef struct kafka_offsets {
    kafka_tp_t *v; /* entries, sorted */
    int n;         /* entry count */
} kafka_offsets_t;

/* Parses `{"t":{"0":42,"1":7},...}` into `out` (in `a`), sorted. 22023
 * naming `what` (e.g. "startingOffsets") when the text is not such an
 * object of integer offsets >= `min_offset`. */
int kafka_offsets_parse(const char *json, const char *what, int64_t min_offset, sl_arena_t *a,
                        kafka_offsets_t *out, sl_error_t *err);
/* Parses `{"t":[0,1],...}` (the assign option) into partitions with offset
 * 0, sorted. 22023 on anything else or an empty list. */
int kafka_partitions_parse(const char *json, sl_arena_t *a, kafka_offsets_t *out, sl_error_t *err);
/* The map as compact JSON text in `a` (topics and partitions ascending). */
const char *kafka_offsets_json(const kafka_offsets_t *o, sl_arena_t *a);
/* Sorts entries by (topic, partition). */
void kafka_offsets_sort(kafka_offsets_t *o);
/* The entry of (topic, partition), or NULL; `o` must be sorted. */
kafka_tp_t *kafka_offsets_find(const kafka_offsets_t *o, const char *topic, int32_t partition);
/* A copy of `o` in `a` (topic names copied too). */
kafka_offsets_t kafka_offsets_copy(const kafka_offsets_t *o, sl_arena_t *a);

/* ---- configuration -------------------------------------------------------- */

/* Checks every `kafka.*` option against librdkafka's property table (the
 * name without the prefix) and refuses the names in `forbidden`
 * (NULL-terminated, without prefix), whose values the connector sets
 * itself. 22023 naming the option; librdkafka's reason as detail. */
int kafka_conf_check(const conn_kv_t *opts, int n, const char *const *forbidden, sl_error_t *err);
/* A librdkafka configuration: `defaults` (key, value, ..., NULL), then every
 * `kafka.*` option, then `forced` (key, value, ..., NULL); the client's
 * logs and errors go to sluice's log (module "kafka"). NULL with 22023. */
rd_kafka_conf_t *kafka_conf_new(const conn_kv_t *opts, int n, const char *const *defaults,
                                const char *const *forced, sl_error_t *err);
/* The value of option `kafka.<name>` when given, else NULL. */
const char *kafka_conf_option(const conn_kv_t *opts, int n, const char *name);

/* ---- errors ---------------------------------------------------------------- */

/* 08006 "<what>: <librdkafka's text for e>" (what is printf-formatted);
 * returns -1. */
int kafka_error(sl_error_t *err, rd_kafka_resp_err_t e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- cluster queries (thread-safe on any handle) ------------------------------ */

/* The partitions of `topics` as the cluster's metadata has them now (a topic
 * that does not exist has none), sorted, offsets 0, in `a`. */
int kafka_topic_partitions(rd_kafka_t *rk, const char *const *topics, int ntopics, sl_arena_t *a,
                           kafka_offsets_t *out, sl_error_t *err);
/* Replaces each entry's offset with the partition's earliest (`latest`
 * false) or latest (true) offset, in one request per leader. An entry whose
 * partition is unknown gets -1 (`missing` counts them when not NULL). */
int kafka_list_offsets(rd_kafka_t *rk, kafka_offsets_t *o, bool latest, int *missing,
                       sl_error_t *err);

/* ---- the source (source_kafka.c: offsets; kafka_read.c: reading) ----------- */

typedef enum { KAFKA_START_EARLIEST, KAFKA_START_LATEST, KAFKA_START_SPECIFIC } kafka_start_t;

/* The fixed columns of a raw Kafka stream, in order. */
enum {
    KAFKA_COL_KEY,
    KAFKA_COL_VALUE,
    KAFKA_COL_TOPIC,
    KAFKA_COL_PARTITION,
    KAFKA_COL_OFFSET,
    KAFKA_COL_TIMESTAMP,
    KAFKA_NCOLS
};

/* A Kafka source. The options part is immutable after creation and read by
 * concurrent read_split calls; the rest belongs to the driver thread. */
typedef struct kafka_src {
    /* options */
    const char **topics;        /* subscribe (in the option's order), or assign's topics */
    int ntopics;                /* entries of topics */
    bool is_assign;             /* assign given (else subscribe) */
    kafka_offsets_t assign;     /* assign: the partitions */
    kafka_start_t starting;     /* startingOffsets */
    kafka_offsets_t start_spec; /* KAFKA_START_SPECIFIC: offsets, -2 earliest, -1 latest */
    int64_t max_offsets;        /* maxOffsetsPerTrigger, 0 = none */
    int64_t min_offsets;        /* minOffsetsPerTrigger, 0 = none */
    int64_t max_delay_ms;       /* maxTriggerDelay */
    bool fail_on_data_loss;     /* failOnDataLoss */
    format_options_t fmt;       /* format, mode, badRecordsPath, header, sep */
    /* reading */
    rd_kafka_t *rk;              /* the consumer handle every split reads through */
    rd_kafka_t *rk_meta;         /* cluster queries (not queued behind the reader's fetches) */
    const format_decoder_t *dec; /* json/csv records, NULL for the raw columns */
    int raw_cols[KAFKA_NCOLS];   /* raw: stream column of each fixed column */
    format_bad_records_t *bad;   /* badRecordsPath writer, or NULL */
    /* driver thread */
    sl_arena_t *keep;        /* lives as long as the source */
    const char *initial;     /* the initial offsets' JSON once known, in keep */
    sl_arena_t *parts_arena; /* reset at every refresh of `parts` */
    kafka_offsets_t parts;   /* partitions of the topics at the last refresh */
    int64_t parts_ms;        /* monotonic time of that refresh, -1 = never */
    sl_arena_t *cap_arena;   /* holds `cap` */
    bool has_cap;            /* AVAILABLE NOW: `cap` bounds every end offset */
    kafka_offsets_t cap;     /* the latest offsets when AVAILABLE NOW started */
    int64_t last_trigger_ms; /* minOffsetsPerTrigger: when a batch last started, -1 */
    /* the watcher (driver thread): wakes an idle query when data arrives */
    rd_kafka_t *rk_watch;       /* its consumer handle, NULL until the first latest_offset */
    rd_kafka_queue_t *wq;       /* the partitions it follows feed this queue */
    rd_kafka_topic_t **wtopics; /* one per followed partition (malloc'd) */
    kafka_offsets_t watched;    /* the partitions followed, in watch_arena */
    sl_arena_t *watch_arena;    /* holds `watched` */
    kafka_offsets_t seen;       /* the latest offsets of the last listing, in seen_arena */
    sl_arena_t *seen_arena;     /* holds `seen` */
    int wake[2];                /* pipe: librdkafka writes to [1] when wq becomes non-empty */
} kafka_src_t;

/* One split: offsets [start, end) of one partition. */
typedef struct kafka_split {
    const char *topic;  /* in the batch arena */
    int32_t partition;  /* partition number */
    int64_t start, end; /* first offset to read, first offset not to read */
} kafka_split_t;

/* Possible data loss (offsets aged out, a partition gone): with
 * failOnDataLoss fails with 22000 naming what was lost (printf-formatted
 * message), else logs a warning and returns 0. */
int kafka_data_loss(const source_t *s, sl_error_t *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* read_split of the Kafka source: consumes exactly [start, end) of the
 * split's partition and decodes the messages (kafka_read.c). */
int kafka_read_split(source_t *s, const source_split_t *split, sl_arena_t *a, source_emit_fn emit,
                     void *emit_arg, sl_error_t *err);

#endif
