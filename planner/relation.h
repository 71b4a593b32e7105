/* What the binder knows about a named relation (stream, static table or a
 * query's memory sink), and the catalog interface it resolves names through.
 * The planner never reads the catalog itself: the session passes a
 * plan_catalog_t whose lookup builds these descriptions. */
#ifndef SL_PLAN_RELATION_H
#define SL_PLAN_RELATION_H

#include <stdint.h>

#include "common/arena.h"
#include "common/sl_error.h"
#include "connectors/connector.h"
#include "model/types.h"

typedef enum {
    PLAN_REL_STREAM = 1, /* an unbounded source (CREATE STREAM) */
    PLAN_REL_TABLE,      /* a static table (catalog-stored, csv or json) */
    PLAN_REL_MEMORY,     /* the memory sink of a query, read like a table */
    PLAN_REL_SYSTEM      /* a relation of pg_catalog or information_schema: its rows were
                            built by the lookup (handle is the exec_batch_t holding them) */
} plan_rel_kind_t;

typedef struct plan_relation {
    plan_rel_kind_t kind;
    /* name, columns, connector and options: what a connector is told about
     * the relation (connectors/connector.h), embedded so that it is handed
     * down as it is */
    conn_stream_t stream;
    const char *sql; /* its CREATE statement */
    int wm_col;      /* stream's default WATERMARK column, -1 when none */
    int64_t wm_delay_ms;
    int64_t version; /* static table: bumped by every change */
    void *handle;    /* runtime object behind the relation (storage, sink) */
} plan_relation_t;

typedef struct plan_catalog {
    void *ctx;
    /* Resolves `name` (already case-folded): 1 found (out filled, memory in
     * a), 0 not found, -1 error. */
    int (*lookup)(void *ctx, const char *name, sl_arena_t *a, plan_relation_t *out,
                  sl_error_t *err);
    /* Resolves `name` in the system schema `schema` ("pg_catalog" or
     * "information_schema"), like lookup; NULL when the catalog has no
     * system relations (every such name is then unknown). */
    int (*lookup_system)(void *sys_ctx, const char *schema, const char *name, sl_arena_t *a,
                         plan_relation_t *out, sl_error_t *err);
    void *sys_ctx;
    /* The OID of the relation `name` ("rel" or "schema.rel") as ::regclass
     * reads it, 0 when unknown; NULL: every name is unknown. */
    int64_t (*regclass)(void *sys_ctx, const char *name, sl_arena_t *a);
    /* Every relation's OID, name and view definition (the CREATE text of a
     * stream or a query table, NULL for a table), in `a`; returns the
     * count. NULL: none. For ::regclass::text and pg_get_viewdef(). */
    int (*relations)(void *sys_ctx, sl_arena_t *a, int64_t **oids, const char ***names,
                     const char ***defs);
} plan_catalog_t;

/* Index of a column by name (case-sensitive; names are folded), or -1. */
int plan_relation_column(const plan_relation_t *r, const char *name);

#endif
