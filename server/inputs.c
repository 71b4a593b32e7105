/* Producers of static inputs: tables, memory sink tables, constant rows. */
#include "server/inputs.h"

#include <string.h>

#include "connectors/format.h"
#include "connectors/memtable.h"
#include "server/table_store.h"

typedef struct static_input {
    srv_t *srv;
    tstore_conn_t *reader;
    const plan_input_t *in;
} static_input_t;

static int produce_table(void *arg, sl_arena_t *a, exec_emit_fn emit, void *emit_arg,
                         sl_error_t *err)
{
    static_input_t *si = arg;
    const plan_relation_t *rel = si->in->rel;
    if (rel->kind == PLAN_REL_SYSTEM) return emit(emit_arg, rel->handle, err); /* built at lookup */
    if (rel->connector) {
        conn_stream_t st = plan_relation_stream(rel);
        return format_read_path(&st, a, emit, emit_arg, err);
    }
    return tstore_scan(si->srv->tstore, si->reader, rel, 0, a, emit, emit_arg, err);
}

static int produce_memory(void *arg, sl_arena_t *a, exec_emit_fn emit, void *emit_arg,
                          sl_error_t *err)
{
    static_input_t *si = arg;
    exec_batch_t **batches;
    const char **names;
    exec_type_t *types;
    int ncols, n = 0;
    (void)err;
    if (!memtable_snapshot(si->srv->memtables, si->in->rel->name, a, &ncols, &names, &types,
                           &batches, &n))
        return 0; /* dropped since the statement was planned: no rows */
    for (int i = 0; i < n; i++)
        if (emit(emit_arg, batches[i], err) < 0) return -1;
    return 0;
}

int inputs_produce_values(void *arg, sl_arena_t *a, exec_emit_fn emit, void *emit_arg, sl_error_t *err)
{
    const plan_node_t *v = arg;
    exec_builder_t bld;
    exec_type_t *types = SL_NEW_ARRAY(a, exec_type_t, v->ncols > 0 ? v->ncols : 1);
    for (int c = 0; c < v->ncols; c++) types[c] = v->cols[c].type;
    exec_builder_init(&bld, a, v->ncols, types, (uint32_t)v->values.nrows);
    for (int r = 0; r < v->values.nrows; r++) {
        uint32_t row = exec_builder_add_row(&bld);
        for (int c = 0; c < v->ncols; c++) exec_builder_set_value(&bld, c, row, &v->values.rows[r][c]);
    }
    return emit(emit_arg, exec_builder_finish(&bld), err);
}

int inputs_static(srv_t *srv, tstore_conn_t *reader, const plan_physical_t *p, sl_arena_t *a,
                  exec_input_t **out)
{
    exec_input_t *v = SL_NEW_ARRAY(a, exec_input_t, p->ninputs > 0 ? p->ninputs : 1);
    int n = 0;
    for (int i = 0; i < p->ninputs; i++) {
        const plan_input_t *in = &p->inputs[i];
        if (in->kind == PLAN_INPUT_STREAM) continue;
        static_input_t *si = SL_NEW(a, static_input_t);
        si->srv = srv;
        si->reader = reader;
        si->in = in;
        v[n].leaf = in->leaf;
        v[n].arg = in->kind == PLAN_INPUT_VALUES ? (void *)in->values : si;
        v[n].produce = in->kind == PLAN_INPUT_TABLE    ? produce_table
                       : in->kind == PLAN_INPUT_MEMORY ? produce_memory
                                                       : inputs_produce_values;
        n++;
    }
    *out = v;
    return n;
}
