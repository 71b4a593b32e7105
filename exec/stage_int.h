/* Internals shared by the stage executor and the exchange operator. */
#ifndef SL_EXEC_STAGE_INT_H
#define SL_EXEC_STAGE_INT_H

#include "exec/stage.h"

/* Rows an exchange received, per producing task and partition. */
typedef struct exchange_buf {
    int ntasks; /* producing tasks */
    int nparts;
    exec_batch_t ***lists; /* lists[task * nparts + part] = batches, NULL-free array */
    int *counts;           /* counts[task * nparts + part] */
} exchange_buf_t;

typedef struct exec_run_state {
    const exec_pnode_t *root;
    int nnodes;
    exchange_buf_t *xbufs; /* per node id (used by exchange nodes) */
} exec_run_state_t;

/* The buffer of an exchange node in the run a task belongs to. */
exchange_buf_t *exec_run_xbuf(const op_t *op, const exec_pnode_t *node);

#endif
