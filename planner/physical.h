/* Physical planning: a logical plan made into a tree of operators
 * (exec_pnode_t) for batch execution (ad-hoc SELECT) or incremental
 * execution (one micro-batch of a continuous query): exchanges in front of
 * aggregations, joins, deduplication, sorts and limits; partial
 * aggregation before the exchange; state operator ids in plan order. */
#ifndef SL_PHYSICAL_H
#define SL_PHYSICAL_H

#include "exec/op.h"
#include "planner/plan.h"

typedef enum {
    PLAN_INPUT_STREAM = 1, /* a source of the query (index = source id) */
    PLAN_INPUT_TABLE,      /* a static table, re-read every execution */
    PLAN_INPUT_MEMORY,     /* a memory sink's table */
    PLAN_INPUT_VALUES      /* constant rows */
} plan_input_kind_t;

/* What feeds one INPUT leaf. */
typedef struct plan_input {
    plan_input_kind_t kind;
    const exec_pnode_t *leaf;
    const plan_relation_t *rel; /* STREAM, TABLE, MEMORY */
    const plan_node_t *values;  /* VALUES */
    int source;                 /* STREAM: source id (order of first appearance) */
} plan_input_t;

typedef struct plan_physical {
    exec_pnode_t *root;
    int nnodes;
    int ninputs;
    plan_input_t *inputs;
    int nsources; /* distinct streams read */
    const plan_relation_t **sources;
    int nstateful; /* stateful operators, by op_id */
    exec_pnode_t **stateful;
    int nwatermarks; /* WATERMARK nodes (their metrics give event times) */
    exec_pnode_t **watermarks;
    int64_t *wm_delays;
    int ncols;          /* output (visible) columns */
    int nhidden;        /* hidden key columns after them (plan_result_key) */
    const char **names; /* ncols + nhidden */
    exec_type_t *types; /* ncols + nhidden */
} plan_physical_t;

typedef struct plan_phys_opts {
    int streaming;      /* incremental (stateful operators keep state) */
    int npartitions;    /* shuffle partitions */
    output_mode_t mode; /* output mode (batch: COMPLETE) */
} plan_phys_opts_t;

plan_physical_t *plan_physical(sl_arena_t *a, const plan_node_t *root, const plan_phys_opts_t *o,
                               sl_error_t *err);
/* Appends the operator tree, one node per line, indented (EXPLAIN). */
void plan_explain_physical(const plan_physical_t *p, sl_buf_t *out);

#endif
