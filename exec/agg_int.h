/* Internals shared by the hash aggregation's batch phases (op_agg.c) and
 * its streaming phase (agg_stream.c): the resolved node configuration and
 * the per-task run state. */
#ifndef EXEC_AGG_INT_H
#define EXEC_AGG_INT_H

#include "exec/hashtable.h"
#include "exec/op_agg.h"
#include "exec/session.h"
#include "state/store.h"

/* Configuration of one aggregation node (read-only, in the plan arena). */
typedef struct agg_config {
    op_agg_phase_t phase;
    int nkeys;
    int *keys; /* input key columns (FINAL/STREAMING: 0..nkeys-1) */
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
    int event_key; /* index into keys, or -1 */
    /* sessions (SESSION phases; else session_key is -1) */
    int session_key;     /* index into keys of the session window */
    int *other_keys;     /* the other nkeys - 1 key indexes, in key order */
    int event_is_window; /* the event-time key is a window struct (event time = end) */
    output_mode_t mode;  /* 0: ctx->mode */
    int *state_order;    /* key indexes in state-key order: the event-time key first */
    const char *key_schema, *value_schema;
} agg_config_t;

/* Per-task state of an aggregation operator. */
typedef struct agg_run {
    exec_ht_t *ht;        /* group key -> group id */
    exec_agg_state_t *st; /* per call: buffers of every group */
    store_t *store;       /* STREAMING: state/<op>/<partition> */
    int streaming;        /* STREAMING with a state directory */
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

/* The EXPLAIN line of every phase: keys, calls, the session, state. */
void agg_explain(const exec_pnode_t *node, sl_buf_t *out);

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
int agg_stream_wants_nodata_batch(const exec_pnode_t *node, output_mode_t mode);
/* op_ops_t.state_schema: the one store of a streaming aggregation. */
int agg_stream_state_schema(const exec_pnode_t *node, int i, const char **name, const char **key,
                            const char **value);
/* b without its rows whose event time (or window end) is at or before
 * op->wm.late_ms, counted in numRowsDroppedByWatermark. */
exec_batch_t *agg_stream_drop_late(op_t *op, exec_batch_t *b);
/* The end of a streaming phase's batch: commits the store, fills the
 * operator's metrics from it and runs the store's maintenance. */
int agg_stream_commit(op_t *op, sl_error_t *err);
/* The output mode of a streaming phase: its own, else the query's. */
output_mode_t agg_stream_mode(const op_t *op);

/* ---- sessions (agg_session.c, agg_session_stream.c) ----
 * Both session phases work on ENTRIES: candidate sessions as rows of
 * [other keys (key order, the session left out) | start | end | buffers],
 * so columns 0..nkeys-1 (other keys, start) are what a state key holds. */
#define AGG_SESSION_START(cfg) ((cfg)->nkeys - 1)
#define AGG_SESSION_END(cfg) ((cfg)->nkeys)
#define AGG_SESSION_BUF(cfg) ((cfg)->nkeys + 1)

/* Checks the session key (index into keys) and fills session_key and
 * other_keys. */
int agg_session_config(sl_arena_t *a, agg_config_t *cfg, int session_key, sl_error_t *err);
/* SESSION_STREAMING: the state schema texts (after agg_session_config). */
void agg_session_stream_config(sl_arena_t *a, agg_config_t *cfg);
/* The column types of entries, in `a`. */
exec_type_t *agg_session_entry_types(const agg_config_t *cfg, sl_arena_t *a);
/* This batch's groups (the run's hash table and buffers) as entries. */
exec_batch_t *agg_session_batch_entries(op_t *op);
/* Per entry of e, a group id of its other keys (dense from 0; all 0
 * without other keys); *ngroups gets their count and *gkeys one row of
 * other keys per group (NULL without other keys). */
uint32_t *agg_session_groups(op_t *op, const exec_batch_t *e, uint32_t *ngroups,
                             exec_batch_t **gkeys);
/* Merges entries into sessions (exec/session.h) and returns them as
 * entries in the task arena: the other keys of each session's first
 * entry, its bounds, and its entries' buffers merged in merge order.
 * *ss gets the merge (which entry went where). */
exec_batch_t *agg_session_merge(op_t *op, const exec_batch_t *e, const uint32_t *group,
                                exec_sessions_t *ss, sl_error_t *err);
/* Emits entries as output rows: keys (the session as a window struct) and
 * the finalized aggregates. */
int agg_session_emit(op_t *op, const exec_batch_t *e, sl_error_t *err);
/* Both session phases' push (the streaming one with a state directory
 * drops late rows first), and the SESSION phase's finish (also the
 * streaming phase's without a state directory). */
int agg_session_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err);
int agg_session_finish_batch(op_t *op, sl_error_t *err);

#endif
