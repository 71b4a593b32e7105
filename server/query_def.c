/* Continuous query definitions: clause defaults and validation. */
#include "server/query_def.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/text_io.h"
#include "planner/plan.h"

/* The query-level options sluice knows (OPTIONS after the clauses). */
static const conn_option_t query_options[] = {
    {"sluice.stateStore", 0, "memory",
     "State store provider: memory or rocksdb (pinned at the "
     "first run)."},
    {"sluice.shufflePartitions", 0, "4",
     "Partitions of state and shuffles (pinned at the first run)."},
    {"sluice.multipleWatermarkPolicy", 0, "min",
     "How watermarks of several inputs combine: min or "
     "max (pinned at the first run)."},
    {"sluice.minBatchesToRetain", 0, "100",
     "Batches of offsets and commits kept in the checkpoint."},
    {"sluice.stateStore.maxMemory", 0, "1g",
     "Most memory the query's state may hold in the memory "
     "state store (e.g. 512m; 0 = no limit); past it the query fails."},
    {NULL, 0, NULL, NULL}};

static const conn_desc_t query_desc = {
    .name = "query", .options = query_options, .doc = "Query options."};

static int parse_int_option(const char *v, const char *key, int lo, int hi, int *out,
                            sl_error_t *err)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (*v == '\0' || *end || n < lo || n > hi) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "invalid value for option \"%s\": \"%s\"",
                     key, v);
        return sl_error_hint(err, "The value must be an integer from %d to %d.", lo, hi);
    }
    *out = (int)n;
    return 0;
}

static int parse_size_option(const char *v, const char *key, int64_t *out, sl_error_t *err)
{
    if (exec_parse_byte_size(v, strlen(v), out) == EXEC_PARSE_OK) return 0;
    sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "invalid value for option \"%s\": \"%s\"",
                 key, v);
    return sl_error_hint(
        err,
        "The value must be a size such as 512m or 2g (units b, k, m, g, t; a bare number is bytes).");
}

static int one_of(const char *v, const char *key, const char *a, const char *b, sl_error_t *err)
{
    if (!strcasecmp(v, a) || !strcasecmp(v, b)) return 0;
    sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "invalid value for option \"%s\": \"%s\"",
                 key, v);
    return sl_error_hint(err, "Accepted values: %s, %s.", a, b);
}

static int read_query_options(const ast_create_query_t *cq, sl_arena_t *a, qdef_t *d,
                              sl_error_t *err)
{
    conn_kv_t *kv = SL_NEW_ARRAY(a, conn_kv_t, cq->options.n + 1);
    for (int i = 0; i < cq->options.n; i++) {
        kv[i].key = cq->options.items[i]->key;
        kv[i].value = cq->options.items[i]->value;
    }
    int bad, n = cq->options.n;
    if (conn_check_options(&query_desc, kv, n, &bad, err) < 0) {
        if (bad >= 0) err->position = cq->options.items[bad]->pos + 1;
        return -1;
    }
    const char *store = conn_option(&query_desc, kv, n, "sluice.stateStore");
    const char *policy = conn_option(&query_desc, kv, n, "sluice.multipleWatermarkPolicy");
    if (one_of(store, "sluice.stateStore", "memory", "rocksdb", err) < 0 ||
        one_of(policy, "sluice.multipleWatermarkPolicy", "min", "max", err) < 0 ||
        parse_int_option(conn_option(&query_desc, kv, n, "sluice.shufflePartitions"),
                         "sluice.shufflePartitions", 1, 1024, &d->shuffle_partitions, err) < 0 ||
        parse_int_option(conn_option(&query_desc, kv, n, "sluice.minBatchesToRetain"),
                         "sluice.minBatchesToRetain", 1, 1000000, &d->min_batches_to_retain,
                         err) < 0 ||
        parse_size_option(conn_option(&query_desc, kv, n, "sluice.stateStore.maxMemory"),
                          "sluice.stateStore.maxMemory", &d->state_max_memory, err) < 0)
        return -1;
    d->state_store = strcasecmp(store, "rocksdb") ? "memory" : "rocksdb";
    d->watermark_policy = strcasecmp(policy, "max") ? "min" : "max";
    return 0;
}

static int read_sink(const ast_create_query_t *cq, sl_arena_t *a, qdef_t *d, sl_error_t *err)
{
    d->sink = conn_lookup(cq->sink ? cq->sink->name : "memory", CONN_SINK, err);
    if (!d->sink) {
        err->position = cq->sink->pos + 1;
        return -1;
    }
    d->nsink_opts = cq->sink_options.n;
    d->sink_opts = SL_NEW_ARRAY(a, conn_kv_t, d->nsink_opts + 1);
    for (int i = 0; i < d->nsink_opts; i++) {
        d->sink_opts[i].key = cq->sink_options.items[i]->key;
        d->sink_opts[i].value = cq->sink_options.items[i]->value;
    }
    int bad;
    if (conn_check_options(d->sink, d->sink_opts, d->nsink_opts, &bad, err) < 0) {
        if (bad >= 0) err->position = cq->sink_options.items[bad]->pos + 1;
        return -1;
    }
    for (int i = 0; i < d->nsink_opts; i++)
        d->sink_opts[i].key = conn_canonical_key(d->sink, d->sink_opts[i].key);
    return 0;
}

static int read_trigger(const ast_create_query_t *cq, qdef_t *d, sl_error_t *err)
{
    switch (cq->trigger) {
    case AST_TRIGGER_DEFAULT: d->trigger = QTRIG_DEFAULT; return 0;
    case AST_TRIGGER_ONCE: d->trigger = QTRIG_ONCE; return 0;
    case AST_TRIGGER_AVAILABLE_NOW: d->trigger = QTRIG_AVAILABLE_NOW; return 0;
    case AST_TRIGGER_PROCESSING_TIME: d->trigger = QTRIG_PROCESSING_TIME; break;
    case AST_TRIGGER_CONTINUOUS: d->trigger = QTRIG_CONTINUOUS; break;
    }
    return plan_interval_ms(cq->trigger_interval, "trigger interval", &d->interval_ms, err);
}

int qdef_from_ast(srv_t *srv, const ast_create_query_t *cq, const char *sql, sl_arena_t *a,
                  qdef_t *out, sl_error_t *err)
{
    memset(out, 0, sizeof *out);
    out->name = cq->name->name;
    out->ast = cq;
    out->sql = sql;
    out->mode_given = cq->output_mode != 0;
    out->mode = cq->output_mode ? cq->output_mode : OUTPUT_APPEND;
    out->checkpoint = cq->checkpoint
                          ? cq->checkpoint
                          : sl_printf(a, "%s/checkpoints/%s", srv->conf->data_directory, out->name);
    if (read_sink(cq, a, out, err) < 0 || read_trigger(cq, out, err) < 0 ||
        read_query_options(cq, a, out, err) < 0)
        return -1;
    return 0;
}

const char *qdef_trigger_text(const qdef_t *d, sl_arena_t *a)
{
    const ast_expr_t *iv = d->ast->trigger_interval;
    const char *text = iv && iv->text ? iv->text : "";
    switch (d->trigger) {
    case QTRIG_PROCESSING_TIME: return sl_printf(a, "processing time '%s'", text);
    case QTRIG_CONTINUOUS: return sl_printf(a, "continuous '%s'", text);
    case QTRIG_ONCE: return "once";
    case QTRIG_AVAILABLE_NOW: return "available now";
    default: return "default";
    }
}
