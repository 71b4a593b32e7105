/* Internals shared by the hash aggregation's batch phases (op_agg.c) and
 * its streaming phase (agg_stream.c): the resolved node configuration and
 * the per-task run state. */
#ifndef EXEC_AGG_INT_H
#define EXEC_AGG_INT_H

#include "exec/hashtable.h"
#include "exec/op_agg.h"
#include "state/store.h"

/* Configuration of one aggregation node (read-only, in the plan arena). */
typedef struct agg_config {
    op_agg_phase_t phase;
    int nkeys;
    int *keys;              /* input key columns (FINAL/STREAMING: 0..nkeys-1) */
    exec_type_t *key_types;
    const char **key_names;
    int naggs;
    exec_agg_t *aggs;
    const char **call_text; /* "sum(price)" per call, for EXPLAIN and schemas */
    int *args;              /* BATCH/PARTIAL: argument column per call (-1: count(*)) */
    int *buf_off;           /* first buffer column of call i among all buffer columns */
    int nbuf;               /* buffer columns of all calls */
    exec_type_t *buf_types; /* nbuf */
    op_agg_spec_t spec;     /* as given (copied), for op_agg_plan_merge */
    /* streaming */
    int event_key;          /* index into keys, or -1 */
    int event_is_window;    /* the event-time key is a window struct (event time = end) */
    exec_mode_t mode;       /* 0: ctx->mode */
    int *state_order;       /* key indexes in state-key order: the event-time key first */
    const char *key_schema, *value_schema;
} agg_config_t;

/* Per-task state of an aggregation operator. */
typedef struct agg_run {
    exec_ht_t *ht;          /* group key -> group id */
    exec_agg_state_t *st;   /* per call: buffers of every group */
    store_t *store;         /* STREAMING: state/<op>/<partition> */
    int streaming;          /* STREAMING with a state directory */
} agg_run_t;

/* Hashes the key columns `cols` of b and finds or makes every present
 * row's group (ids indexed by physical row, in scratch memory); grows the
 * buffers to the new group count. */
uint32_t *agg_group_ids(op_t *op, const exec_batch_t *b, const int *cols);
/* Merges buffer columns (after the keys) of the present rows of b into
 * their groups. */
int agg_merge_batch(op_t *op, const exec_batch_t *b, const uint32_t *gids, sl_error_t *err);
/* The output rows [keys, finalized results] of groups 0..n-1, whose key
 * columns are `keys` and buffer columns `bufs` (config buffer order), as
 * slices of at most EXEC_BATCH_ROWS rows handed to the parent. */
int agg_emit_final(op_t *op, exec_vec_t *keys, exec_vec_t *bufs, uint32_t n, sl_error_t *err);
/* The buffer columns of a state set (per call states) as one vector array. */
exec_vec_t *agg_state_bufs(const agg_config_t *cfg, exec_agg_state_t *st, sl_arena_t *a);
/* Makes the run state (hash table and empty buffers) of an operator. */
agg_run_t *agg_run_new(op_t *op);
/* Fresh buffers for every call in `a`. */
exec_agg_state_t *agg_states_new(const agg_config_t *cfg, sl_arena_t *a);

/* Streaming phase (agg_stream.c). agg_stream_config checks the event-time
 * key (index into keys, or -1) and fills the state key order and the
 * schema texts of a STREAMING node's configuration. */
int agg_stream_config(sl_arena_t *a, agg_config_t *cfg, int event_key, sl_error_t *err);
int agg_stream_open(op_t *op, sl_error_t *err);
int agg_stream_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err);
int agg_stream_finish(op_t *op, sl_error_t *err);
void agg_stream_close(op_t *op);
/* Append and update mode run no-data batches (Spark runs them even without
 * an event-time key); complete mode never. */
int agg_stream_wants_nodata_batch(const exec_pnode_t *node, exec_mode_t mode);

#endif
