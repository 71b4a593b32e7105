/* Internals of physical planning shared by its files (one per family of
 * logical nodes). */
#ifndef SL_PHYSICAL_INT_H
#define SL_PHYSICAL_INT_H

#include "planner/physical.h"

typedef struct phys {
    sl_arena_t *a;
    const plan_phys_opts_t *opts;
    plan_physical_t *out;
} phys_t;

exec_pnode_t *phys_node(phys_t *ps, const plan_node_t *n, sl_error_t *err);
void phys_add_stateful(phys_t *ps, exec_pnode_t *n);
void phys_schema(phys_t *ps, const plan_node_t *n, const char ***names, exec_type_t **types);

exec_pnode_t *phys_window(phys_t *ps, const plan_node_t *n, exec_pnode_t *child, sl_error_t *err);
exec_pnode_t *phys_aggregate(phys_t *ps, const plan_node_t *n, exec_pnode_t *child,
                             sl_error_t *err);
exec_pnode_t *phys_join(phys_t *ps, const plan_node_t *n, sl_error_t *err);
exec_pnode_t *phys_union(phys_t *ps, const plan_node_t *n, sl_error_t *err);
exec_pnode_t *phys_dedup(phys_t *ps, const plan_node_t *n, exec_pnode_t *child, sl_error_t *err);
exec_pnode_t *phys_sort(phys_t *ps, const plan_node_t *n, exec_pnode_t *child, sl_error_t *err);
exec_pnode_t *phys_sort_limit(phys_t *ps, const plan_node_t *n, exec_pnode_t *child, int64_t limit,
                              sl_error_t *err);
exec_pnode_t *phys_limit(phys_t *ps, const plan_node_t *n, exec_pnode_t *child, sl_error_t *err);

#endif
