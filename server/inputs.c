/* Producers of static inputs: tables, memory sink tables, constant rows. */
#include "server/inputs.h"

#include <string.h>

#include "connectors/format.h"
#include "connectors/memtable.h"
#include "server/table_cache.h"
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
    if (rel->stream.connector) {
        return format_read_path(&rel->stream, a, emit, emit_arg, err);
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
    if (!memtable_snapshot(si->srv->memtables, si->in->rel->stream.name, a, &ncols, &names, &types,
                           &batches, &n))
        return 0; /* dropped since the statement was planned: no rows */
    for (int i = 0; i < n; i++)
        if (emit(emit_arg, batches[i], err) < 0) return -1;
    return 0;
}

int inputs_produce_values(void *arg, sl_arena_t *a, exec_emit_fn emit, void *emit_arg,
                          sl_error_t *err)
{
    const plan_node_t *v = arg;
    exec_builder_t bld;
    exec_type_t *types = SL_NEW_ARRAY(a, exec_type_t, v->ncols > 0 ? v->ncols : 1);
    for (int c = 0; c < v->ncols; c++) types[c] = v->cols[c].type;
    exec_builder_init(&bld, a, v->ncols, types, (uint32_t)v->values.nrows);
    for (int r = 0; r < v->values.nrows; r++) {
        uint32_t row = exec_builder_add_row(&bld);
        for (int c = 0; c < v->ncols; c++)
            exec_builder_set_value(&bld, c, row, &v->values.rows[r][c]);
    }
    return emit(emit_arg, exec_builder_finish(&bld), err);
}

/* One part of a table's columnar copy: batches [lo, hi), read by one task. */
typedef struct table_part {
    tcache_entry_t *entry;
    int lo, hi;
} table_part_t;

static int produce_table_part(void *arg, sl_arena_t *a, exec_emit_fn emit, void *emit_arg,
                              sl_error_t *err)
{
    const table_part_t *tp = arg;
    exec_batch_t *const *batches;
    tcache_batches(tp->entry, &batches);
    for (int i = tp->lo; i < tp->hi; i++)
        if (emit(emit_arg, exec_batch_shallow_copy(batches[i], a), err) < 0) return -1;
    return 0;
}

typedef struct snapshot_hold {
    tstore_t *store;
    tcache_entry_t *entry;
} snapshot_hold_t;

static void release_snapshot(void *arg)
{
    snapshot_hold_t *h = arg;
    tstore_snapshot_release(h->store, h->entry);
}

/* A catalog table read by `nparts` tasks, each a contiguous range of the
 * batches of one snapshot (so the statement sees one version of the table,
 * and the parts in task order keep the rows' order); the snapshot is held
 * until `a` is reset. Returns the inputs added to v, or 0 when the table
 * is read by one producer instead. */
static int table_parts(srv_t *srv, const plan_input_t *in, int nparts, sl_arena_t *a,
                       exec_input_t *v)
{
    tcache_entry_t *e;
    sl_error_t ignored; /* the single producer reports the error */
    if (tstore_snapshot(srv->tstore, in->rel, &e, &ignored) < 0 || !e) return 0;
    snapshot_hold_t *h = SL_NEW(a, snapshot_hold_t);
    *h = (snapshot_hold_t){srv->tstore, e};
    sl_arena_on_reset(a, release_snapshot, h);
    exec_batch_t *const *batches;
    int nb = tcache_batches(e, &batches);
    int parts = nb < nparts ? (nb > 0 ? nb : 1) : nparts;
    for (int k = 0; k < parts; k++) {
        table_part_t *tp = SL_NEW(a, table_part_t);
        *tp =
            (table_part_t){e, (int)((int64_t)nb * k / parts), (int)((int64_t)nb * (k + 1) / parts)};
        v[k] = (exec_input_t){
            .leaf = in->leaf, .produce = produce_table_part, .arg = tp, .partition = k};
    }
    return parts;
}

int inputs_static(srv_t *srv, tstore_conn_t *reader, const plan_physical_t *p, int nparts,
                  sl_arena_t *a, exec_input_t **out)
{
    int cap = (p->ninputs > 0 ? p->ninputs : 1) * (nparts > 1 ? nparts : 1);
    exec_input_t *v = SL_NEW_ARRAY(a, exec_input_t, cap);
    int n = 0;
    for (int i = 0; i < p->ninputs; i++) {
        const plan_input_t *in = &p->inputs[i];
        if (in->kind == PLAN_INPUT_STREAM) continue;
        if (nparts > 1 && in->kind == PLAN_INPUT_TABLE && !in->rel->stream.connector &&
            in->rel->kind == PLAN_REL_TABLE && !tstore_conn_in_txn(reader)) {
            int k = table_parts(srv, in, nparts, a, v + n);
            n += k;
            if (k) continue;
        }
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
