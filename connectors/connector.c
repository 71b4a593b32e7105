/* The connector registry: descriptor tables and option validation. */
#include "connectors/connector.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/buf.h"

#define RECORD_OPTIONS                                                                    \
    {"mode", 0, "PERMISSIVE",                                                             \
     "Malformed records: PERMISSIVE (nulls, raw text in _corrupt_record when declared), " \
     "DROPMALFORMED (dropped and counted) or FAILFAST (the query fails)."},               \
        {"badRecordsPath", 0, NULL,                                                       \
         "Directory where each bad record is written with its position "                  \
         "and reason."},                                                                  \
        {"badRecordsMaxBytes", 0, "64m",                                                  \
         "Size at which the bad-records file is rotated (64m, "                           \
         "512k, 1g; a bare number is bytes)."},                                           \
        {"badRecordsMaxFiles", 0, "10",                                                   \
         "Rotated bad-records files kept (0 to 1000); older ones "                        \
         "are deleted."},                                                                 \
        {"header", 0, "false", "csv: the first line of each file is a header."},          \
    {                                                                                     \
        "sep", 0, ",", "csv: field separator."                                            \
    }

static const conn_option_t kafka_source_opts[] = {
    {"kafka.bootstrap.servers", 1, NULL, "Kafka brokers, host:port[,host:port...]."},
    {"subscribe", 0, NULL, "Comma-separated topics to read (or use assign)."},
    {"assign", 0, NULL, "JSON {\"topic\":[0,1]} of partitions to read."},
    {"startingOffsets", 0, "latest",
     "earliest, latest or JSON {\"topic\":{\"0\":42}}; only for a "
     "new query, restarts resume from the checkpoint."},
    {"maxOffsetsPerTrigger", 0, NULL, "Most offsets per micro-batch, split over partitions."},
    {"minOffsetsPerTrigger", 0, NULL,
     "Wait until this many offsets are available (or "
     "maxTriggerDelay passes)."},
    {"maxTriggerDelay", 0, "15m", "Longest wait imposed by minOffsetsPerTrigger."},
    {"failOnDataLoss", 0, "true", "Fail the query when offsets were lost (deleted or aged out)."},
    {"includeHeaders", 0, "false", "Reserved: Kafka headers are not exposed yet."},
    {"format", 0, "json", "Record format of message values: json, csv or raw (no decoding)."},
    RECORD_OPTIONS,
    {NULL, 0, NULL, NULL}};

static const conn_option_t file_source_opts[] = {
    {"path", 1, NULL, "Directory to watch; files must be moved in atomically."},
    {"maxFilesPerTrigger", 0, NULL, "Most new files per micro-batch."},
    {"latestFirst", 0, "false", "Take the newest files first."},
    {"format", 0, "json", "Record format of the files: json or csv."},
    RECORD_OPTIONS,
    {NULL, 0, NULL, NULL}};

static const conn_option_t rate_opts[] = {
    {"rowsPerSecond", 0, "1", "Rows generated per second."},
    {"rampUpTime", 0, "0s", "Time to ramp up to rowsPerSecond."},
    {"numPartitions", 0, "1", "Partitions of the generated rows."},
    {NULL, 0, NULL, NULL}};

static const conn_option_t nexmark_opts[] = {
    {"table", 1, NULL, "Which Nexmark stream: bid, auction or person."},
    {"eventsPerSecond", 0, "10000", "Events generated per second (all three kinds)."},
    {"maxEvents", 0, "0", "Stop after this many events; 0 = unbounded."},
    {"seed", 0, "0", "Seed of the deterministic generator."},
    {NULL, 0, NULL, NULL}};

static const conn_option_t noop_opts[] = {{NULL, 0, NULL, NULL}};
static const conn_option_t memory_opts[] = {{NULL, 0, NULL, NULL}};
static const conn_option_t console_opts[] = {{"numRows", 0, "20", "Rows printed per batch."},
                                             {"truncate", 0, "true", "Truncate long values."},
                                             {NULL, 0, NULL, NULL}};

static const conn_option_t file_sink_opts[] = {
    {"path", 0, NULL, "Output directory; default <data_directory>/output/<query>."},
    {"format", 0, "json", "json or csv."},
    {"header", 0, "false", "csv: write a header line in each file."},
    {NULL, 0, NULL, NULL}};

static const conn_option_t kafka_sink_opts[] = {
    {"kafka.bootstrap.servers", 1, NULL, "Kafka brokers, host:port[,host:port...]."},
    {"topic", 1, NULL, "Topic to write to."},
    {"exactlyOnce", 0, "false", "Write through Kafka transactions, one per micro-batch."},
    {NULL, 0, NULL, NULL}};

static const conn_option_t postgres_sink_opts[] = {
    {"url", 1, NULL, "postgresql://user[:password]@host:port/db (libpq connection URI)."},
    {"table", 1, NULL, "Target table, [schema.]name."},
    {"password", 0, NULL, "Password (overrides the URL's); 'env:NAME' or 'file:/path' allowed."},
    {"key", 0, NULL, "update: comma-separated upsert key columns (default: the result key)."},
    {"createTable", 0, "false", "Create the target table when it is missing."},
    {"progressTable", 0, "sluice_sink_progress", "Table of (query_id, batch_id) per query."},
    {"retries", 0, "5", "Retries of a batch after a transient error."},
    {"retryBackoff", 0, "1s", "First wait before a retry; doubled each time."},
    {NULL, 0, NULL, NULL}};

static const conn_option_t postgres_cdc_opts[] = {
    {"url", 1, NULL, "postgresql://user[:password]@host:port/db (libpq connection URI)."},
    {"publication", 1, NULL, "Publication whose changes are read (CREATE PUBLICATION)."},
    {"slot", 1, NULL, "Logical replication slot, created by the query's first start."},
    {"tables", 1, NULL, "Comma-separated [schema.]table list (schema public by default)."},
    {"password", 0, NULL, "Password (overrides the URL's); 'env:NAME' or 'file:/path' allowed."},
    {"snapshot", 0, "true", "Read the tables' rows first (op 'r'), consistent with the slot."},
    {"failOnDataLoss", 0, "true",
     "Fail when the slot is gone or past the checkpoint; false: warn, go on from the slot."},
    {"maxChangesPerTrigger", 0, NULL, "Most changes per micro-batch (whole transactions)."},
    {NULL, 0, NULL, NULL}};

static const conn_option_t table_file_opts[] = {
    {"path", 1, NULL, "File or directory of the table's data."},
    {"header", 0, "false", "csv: the first line is a header."},
    {"sep", 0, ",", "csv: field separator."},
    {NULL, 0, NULL, NULL}};

#define KAFKA_RAW_SCHEMA \
    "key BINARY, value BINARY, topic STRING, partition INT, offset BIGINT, timestamp TIMESTAMP"

static int nexmark_columns(const conn_kv_t *opts, int nopts, int has_columns, const char **fixed,
                           sl_error_t *err);
static int kafka_columns(const conn_kv_t *opts, int nopts, int has_columns, const char **fixed,
                         sl_error_t *err);

#define CONTINUOUS CONN_CAP_CONTINUOUS

static const char *const kafka_source_alterable[] = {"maxOffsetsPerTrigger", "minOffsetsPerTrigger",
                                                     "maxTriggerDelay", "failOnDataLoss", NULL};
static const conn_desc_t desc_kafka_source = {
    .alterable = kafka_source_alterable,
    .name = "kafka",
    .roles = CONN_SOURCE,
    .options = kafka_source_opts,
    .passthrough_prefix = "kafka.",
    .fixed_columns = kafka_columns,
    .caps = CONTINUOUS,
    .doc = "Reads Kafka topics; offsets per topic-partition are kept in the checkpoint."};
static const char *const file_source_alterable[] = {"maxFilesPerTrigger", "latestFirst", NULL};
static const conn_desc_t desc_file_source = {.alterable = file_source_alterable,
                                             .name = "file",
                                             .roles = CONN_SOURCE,
                                             .options = file_source_opts,
                                             .doc =
                                                 "Reads new files of a directory, each file once."};
static const conn_desc_t desc_rate = {.name = "rate",
                                      .roles = CONN_SOURCE,
                                      .options = rate_opts,
                                      .fixed_schema = "timestamp TIMESTAMP, value BIGINT",
                                      .caps = CONTINUOUS,
                                      .doc =
                                          "Generates rows at a fixed rate (for tests and demos)."};
static const conn_desc_t desc_nexmark = {
    .name = "nexmark",
    .roles = CONN_SOURCE,
    .options = nexmark_opts,
    .fixed_columns = nexmark_columns,
    .caps = CONTINUOUS,
    .doc = "The Nexmark benchmark generator (person, auction, bid)."};
static const conn_desc_t desc_postgres_cdc = {
    .name = "postgres_cdc",
    .roles = CONN_SOURCE,
    .options = postgres_cdc_opts,
    .doc = "Changes of PostgreSQL tables by logical replication (pgoutput), after a snapshot."};
static const conn_desc_t desc_noop = {.name = "noop",
                                      .roles = CONN_SINK,
                                      .options = noop_opts,
                                      .caps = CONTINUOUS,
                                      .sink_modes = CONN_ALL_MODES,
                                      .doc = "Discards rows (for benchmarks)."};
static const conn_desc_t desc_memory = {.name = "memory",
                                        .roles = CONN_SINK,
                                        .options = memory_opts,
                                        .caps = CONTINUOUS,
                                        .sink_modes = CONN_ALL_MODES,
                                        .doc =
                                            "A table named after the query, readable with SELECT."};
static const char *const console_alterable[] = {"numRows", "truncate", NULL};
static const conn_desc_t desc_console = {.alterable = console_alterable,
                                         .name = "console",
                                         .roles = CONN_SINK,
                                         .options = console_opts,
                                         .caps = CONTINUOUS,
                                         .sink_modes = CONN_ALL_MODES,
                                         .doc = "Prints each batch to the daemon's log."};
static const char *const file_sink_pinned[] = {"path", NULL};
static const conn_desc_t desc_file_sink = {
    .name = "file",
    .pinned = file_sink_pinned,
    .roles = CONN_SINK,
    .options = file_sink_opts,
    .sink_modes = CONN_MODE_BIT(OUTPUT_APPEND),
    .modes_hint = "Files are written once per batch; use a memory or kafka sink for update or "
                  "complete.",
    .doc = "Exactly-once files per batch plus a _sluice_metadata manifest."};
static const char *const kafka_sink_alterable[] = {"topic", NULL};
static const conn_desc_t desc_kafka_sink = {
    .alterable = kafka_sink_alterable,
    .name = "kafka",
    .roles = CONN_SINK,
    .options = kafka_sink_opts,
    .passthrough_prefix = "kafka.",
    .caps = CONTINUOUS,
    .sink_modes = CONN_ALL_MODES,
    .doc = "Writes rows (value, optional key) to a Kafka topic."};
static const char *const postgres_sink_alterable[] = {"retries", "retryBackoff", NULL};
static const conn_desc_t desc_postgres_sink = {
    .alterable = postgres_sink_alterable,
    .name = "postgres",
    .roles = CONN_SINK,
    .options = postgres_sink_opts,
    .sink_modes = CONN_ALL_MODES,
    .doc = "Exactly-once writes to a PostgreSQL table: COPY, one transaction per batch."};
static const conn_desc_t desc_table_csv = {.name = "csv",
                                           .roles = CONN_TABLE,
                                           .options = table_file_opts,
                                           .doc = "A static table read from CSV."};
static const conn_desc_t desc_table_json = {.name = "json",
                                            .roles = CONN_TABLE,
                                            .options = table_file_opts,
                                            .doc = "A static table read from JSON lines."};

static const conn_desc_t *const all_descs[] = {&desc_kafka_source,  &desc_file_source,
                                               &desc_rate,          &desc_nexmark,
                                               &desc_postgres_cdc,  &desc_noop,
                                               &desc_memory,        &desc_console,
                                               &desc_file_sink,     &desc_kafka_sink,
                                               &desc_postgres_sink, &desc_table_csv,
                                               &desc_table_json,    NULL};

static const char *role_noun(conn_role_t role)
{
    return role == CONN_SOURCE ? "source" : role == CONN_SINK ? "sink" : "table format";
}

const conn_desc_t *conn_lookup(const char *name, conn_role_t role, sl_error_t *err)
{
    sl_buf_t known = SL_BUF_INIT;
    for (const conn_desc_t *const *d = all_descs; *d; d++) {
        if (!((*d)->roles & role)) continue;
        if (!strcasecmp((*d)->name, name)) {
            sl_buf_free(&known);
            return *d;
        }
        sl_buf_printf(&known, "%s%s", known.len ? ", " : "", (*d)->name);
    }
    sl_error_set(err, SL_ERR_UNDEFINED_OBJECT, "unknown %s \"%s\"", role_noun(role), name);
    sl_error_hint(err, "Known %ss: %s.", role_noun(role), known.data);
    sl_buf_free(&known);
    return NULL;
}

static const conn_option_t *option_find(const conn_desc_t *d, const char *key)
{
    for (const conn_option_t *o = d->options; o->name; o++)
        if (!strcasecmp(o->name, key)) return o;
    return NULL;
}

static int unknown_option(const conn_desc_t *d, conn_role_t role, const char *key, sl_error_t *err)
{
    sl_buf_t known = SL_BUF_INIT;
    for (const conn_option_t *o = d->options; o->name; o++)
        sl_buf_printf(&known, "%s%s", known.len ? ", " : "", o->name);
    sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "unknown option \"%s\" for %s %s", key,
                 d->name, role_noun(role));
    if (known.len) sl_error_hint(err, "Known options: %s.", known.data);
    else sl_error_hint(err, "The %s %s takes no options.", d->name, role_noun(role));
    sl_buf_free(&known);
    return -1;
}

int conn_check_options(const conn_desc_t *d, const conn_kv_t *opts, int n, int *bad_index,
                       sl_error_t *err)
{
    conn_role_t role = (d->roles & CONN_SOURCE) ? CONN_SOURCE
                       : (d->roles & CONN_SINK) ? CONN_SINK
                                                : CONN_TABLE;
    *bad_index = -1;
    for (int i = 0; i < n; i++) {
        *bad_index = i;
        for (int j = 0; j < i; j++)
            if (!strcasecmp(opts[i].key, opts[j].key))
                return sl_error_set(err, SL_ERR_SYNTAX_ERROR,
                                    "option \"%s\" specified more than once", opts[i].key);
        size_t plen = d->passthrough_prefix ? strlen(d->passthrough_prefix) : 0;
        if (option_find(d, opts[i].key)) continue;
        if (plen && !strncasecmp(opts[i].key, d->passthrough_prefix, plen)) continue;
        return unknown_option(d, role, opts[i].key, err);
    }
    *bad_index = -1;
    for (const conn_option_t *o = d->options; o->name; o++) {
        if (!o->required || conn_option(d, opts, n, o->name)) continue;
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "%s %s requires option \"%s\"", d->name,
                     role_noun(role), o->name);
        return sl_error_hint(err, "%s", o->doc);
    }
    return 0;
}

const char *conn_canonical_key(const conn_desc_t *d, const char *key)
{
    const conn_option_t *o = option_find(d, key);
    return o ? o->name : key;
}

const char *conn_option(const conn_desc_t *d, const conn_kv_t *opts, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (!strcasecmp(opts[i].key, key)) return opts[i].value;
    const conn_option_t *o = d ? option_find(d, key) : NULL;
    return o ? o->def : NULL;
}

const char *conn_nexmark_schema(const char *table)
{
    if (!strcasecmp(table, "bid"))
        return "auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, "
               "date_time TIMESTAMP, extra STRING";
    if (!strcasecmp(table, "auction"))
        return "id BIGINT, item_name STRING, description STRING, initial_bid BIGINT, "
               "reserve BIGINT, date_time TIMESTAMP, expires TIMESTAMP, seller BIGINT, "
               "category BIGINT, extra STRING";
    if (!strcasecmp(table, "person"))
        return "id BIGINT, name STRING, email_address STRING, credit_card STRING, city STRING, "
               "state STRING, date_time TIMESTAMP, extra STRING";
    return NULL;
}

const char *conn_kafka_raw_schema(void)
{
    return KAFKA_RAW_SCHEMA;
}

static int nexmark_columns(const conn_kv_t *opts, int nopts, int has_columns, const char **fixed,
                           sl_error_t *err)
{
    (void)has_columns;
    const char *table = conn_option(&desc_nexmark, opts, nopts, "table");
    if ((*fixed = table ? conn_nexmark_schema(table) : NULL)) return 0;
    sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "unknown nexmark table \"%s\"",
                 table ? table : "");
    return sl_error_hint(err, "The nexmark connector has the tables bid, auction and person.");
}

/* A Kafka stream declared without columns, or with format 'raw', has the
 * record's own columns (key, value, topic, ...). */
static int kafka_columns(const conn_kv_t *opts, int nopts, int has_columns, const char **fixed,
                         sl_error_t *err)
{
    (void)err;
    const char *format = conn_option(&desc_kafka_source, opts, nopts, "format");
    *fixed = !has_columns || (format && !strcasecmp(format, "raw")) ? KAFKA_RAW_SCHEMA : NULL;
    return 0;
}

int conn_fixed_columns(const conn_desc_t *d, const conn_kv_t *opts, int nopts, int has_columns,
                       const char **fixed, sl_error_t *err)
{
    *fixed = d->fixed_schema;
    return d->fixed_columns ? d->fixed_columns(opts, nopts, has_columns, fixed, err) : 0;
}

int conn_check_mode(const conn_desc_t *d, output_mode_t m, sl_error_t *err)
{
    if (d->sink_modes & CONN_MODE_BIT(m)) return 0;
    sl_buf_t b = {0};
    for (output_mode_t k = OUTPUT_APPEND; k <= OUTPUT_COMPLETE; k++)
        if (d->sink_modes & CONN_MODE_BIT(k))
            sl_buf_printf(&b, "%s%s", b.len ? " and " : "", output_mode_name(k));
    sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED, "the %s sink supports only %s output mode%s",
                 d->name, b.len ? b.data : "no", strstr(b.len ? b.data : "", " and ") ? "s" : "");
    sl_buf_free(&b);
    return d->modes_hint ? sl_error_hint(err, "%s", d->modes_hint) : -1;
}

const char *conn_names_with(conn_role_t role, unsigned cap, sl_arena_t *a)
{
    const char *names[16];
    int n = 0;
    for (const conn_desc_t *const *d = all_descs; *d && n < 16; d++)
        if (((*d)->roles & role) && ((*d)->caps & cap)) names[n++] = (*d)->name;
    sl_buf_t b = {0};
    for (int i = 0; i < n; i++)
        sl_buf_printf(&b, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", names[i]);
    const char *out = sl_strdup(a, b.len ? b.data : "");
    sl_buf_free(&b);
    return out;
}

int conn_pinned_options(const conn_desc_t *d, const conn_kv_t *opts, int n, sl_arena_t *a,
                        conn_kv_t **out)
{
    int k = 0;
    while (d->pinned && d->pinned[k]) k++;
    conn_kv_t *v = SL_NEW_ARRAY(a, conn_kv_t, k + 1);
    for (int i = 0; i < k; i++) {
        v[i].key = d->pinned[i];
        v[i].value = NULL;
        for (int j = 0; j < n; j++)
            if (!strcasecmp(opts[j].key, d->pinned[i])) v[i].value = opts[j].value;
    }
    *out = v;
    return k;
}

int conn_option_alterable(const conn_desc_t *d, const char *key)
{
    for (int i = 0; d->alterable && d->alterable[i]; i++)
        if (!strcasecmp(d->alterable[i], key)) return 1;
    return 0;
}

const char *conn_alterable_list(const conn_desc_t *d, sl_arena_t *a)
{
    sl_buf_t b = {0};
    for (int i = 0; d->alterable && d->alterable[i]; i++)
        sl_buf_printf(&b, "%s%s", i ? ", " : "", d->alterable[i]);
    const char *out = sl_strdup(a, b.len ? b.data : "none");
    sl_buf_free(&b);
    return out;
}

int conn_option_known(const conn_desc_t *d, const char *key)
{
    size_t n = d->passthrough_prefix ? strlen(d->passthrough_prefix) : 0;
    return option_find(d, key) != NULL || (n && !strncasecmp(key, d->passthrough_prefix, n));
}
