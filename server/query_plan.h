/* Planning a continuous query: its definition (query_def.h), the bound and
 * checked logical plan, and the incremental physical plan — with the
 * settings its checkpoint pinned at the first run. CREATE QUERY and EXPLAIN
 * plan to validate and show; the query manager plans to run. */
#ifndef SL_QUERY_PLAN_H
#define SL_QUERY_PLAN_H

#include "planner/physical.h"
#include "runtime/runner.h"
#include "server/query_def.h"

typedef struct qplan {
    qdef_t def;
    plan_node_t *logical;
    plan_physical_t *phys;
    output_mode_t mode;
    sink_schema_t schema; /* the sink's view of the result (keys for update) */
    const char **deps;    /* relations read (catalog dependencies) */
    int ndeps;
} qplan_t;

/* Plans a CREATE QUERY whose text is `sql` (AST positions refer to it); the
 * pinned settings of an existing checkpoint win over the OPTIONS. Everything
 * lives in `a`. */
int qplan_build(srv_t *srv, const ast_create_query_t *cq, const char *sql, sl_arena_t *a,
                qplan_t *out, sl_error_t *err);
/* Parses a stored CREATE QUERY text and plans it. */
int qplan_from_text(srv_t *srv, const char *sql, sl_arena_t *a, qplan_t *out, sl_error_t *err);
/* The part of the query's runner spec that describes its checkpoint's
 * contents (name, checkpoint, sources, stateful operators, the sink's
 * pinned options), in `a`. */
void qplan_checkpoint_spec(const qplan_t *p, sl_arena_t *a, runner_spec_t *spec);
/* Refuses (55000) a plan that no longer fits its existing checkpoint
 * (runner_check_checkpoint): before CREATE QUERY and START QUERY. */
int qplan_check_checkpoint(const qplan_t *p, sl_arena_t *a, sl_error_t *err);
/* EXPLAIN output: the logical plan, the operators, the state and watermark use,
 * and the output-mode verdict. */
void qplan_explain(const qplan_t *p, sl_arena_t *a, sl_buf_t *out);

#endif
