/* The definition of a continuous query, read from its CREATE QUERY
 * statement: sink and its options, output mode, trigger, checkpoint
 * directory and the query's own OPTIONS (sluice.* settings). Validated once
 * at CREATE QUERY, re-read from the catalog text at every start. */
#ifndef SL_QUERY_DEF_H
#define SL_QUERY_DEF_H

#include <stdint.h>

#include "connectors/connector.h"
#include "connectors/sink.h"
#include "parser/ast.h"
#include "server/server.h"

typedef enum {
    QTRIG_DEFAULT = 0,
    QTRIG_PROCESSING_TIME,
    QTRIG_ONCE,
    QTRIG_AVAILABLE_NOW,
    QTRIG_CONTINUOUS
} qdef_trigger_t;

typedef struct qdef {
    const char *name;
    const ast_create_query_t *ast; /* the parsed statement (in the definition's arena) */
    const char *sql;               /* its text */
    const conn_desc_t *sink;       /* default: memory */
    int nsink_opts;
    conn_kv_t *sink_opts;
    output_mode_t mode; /* default: append */
    int mode_given;
    qdef_trigger_t trigger;
    int64_t interval_ms;          /* PROCESSING TIME / CONTINUOUS */
    const char *checkpoint;       /* default <data_directory>/checkpoints/<name> */
    const char *state_store;      /* sluice.stateStore: memory | rocksdb */
    int shuffle_partitions;       /* sluice.shufflePartitions */
    const char *watermark_policy; /* sluice.multipleWatermarkPolicy: min | max */
    int min_batches_to_retain;    /* sluice.minBatchesToRetain */
    int64_t state_max_memory;     /* sluice.stateStore.maxMemory, bytes; 0 = no limit */
} qdef_t;

/* Reads and validates the clauses of a CREATE QUERY (errors with 1-based
 * byte positions into sql). */
int qdef_from_ast(srv_t *srv, const ast_create_query_t *cq, const char *sql, sl_arena_t *a,
                  qdef_t *out, sl_error_t *err);
/* "default", "processing time 1 minute" (the interval as written), "once", ... */
const char *qdef_trigger_text(const qdef_t *d, sl_arena_t *a);

#endif
