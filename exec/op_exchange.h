/* EXCHANGE: the stage boundary. In its producing stage it splits rows by a
 * hash of key columns into the query's partitions (or keeps them whole as a
 * broadcast), copying them into the task arena; the consuming stage reads
 * partition p in task p (or every batch, for a broadcast). */
#ifndef SL_OP_EXCHANGE_H
#define SL_OP_EXCHANGE_H

#include "exec/op.h"

typedef struct op_exchange_config {
    int nkeys; /* key columns of the child; 0 with npartitions 1 = gather */
    const int *keys;
    int npartitions; /* partitions of the consuming stage */
    int broadcast;   /* 1: every consumer task reads all rows (join build sides) */
} op_exchange_config_t;

extern const op_ops_t op_exchange_ops;

/* An exchange over `child` hashing `keys` into `npartitions` (copied). */
exec_pnode_t *op_exchange_plan(sl_arena_t *a, exec_pnode_t *child, const int *keys, int nkeys,
                               int npartitions, int broadcast);
/* True when the node is an exchange. */
int op_is_exchange(const exec_pnode_t *n);

#endif
