/* Shared internals of the join, dedup, sort and limit operators (see
 * op_join_util.h): row gathering, the join pair emitter, the build-side hash
 * table, batch copies, event times and state-store plumbing. */
#include "exec/op_join_util.h"

#include <string.h>

#include "common/hash.h"
#include "exec/op_exchange.h"
#include "model/row.h"
#include "exec/stage.h"
#include "exec/store_cache.h"

/* ---- gathering ---------------------------------------------------------- */

static bool vec_null(const exec_vec_t *v, uint32_t row)
{
    return v->type.id == EXEC_TYPE_NULL || exec_vec_is_null(v, row);
}

#define GATHER_FIXED(T)                                             \
    do {                                                            \
        const T *s_ = src;                                          \
        T *d_ = dst;                                                \
        for (uint32_t i = 0; i < n; i++) {                          \
            uint32_t r_ = rows[i];                                  \
            if (r_ == OP_JOIN_NO_ROW) memset(&d_[i], 0, sizeof(T)); \
            else d_[i] = s_[r_];                                    \
        }                                                           \
    } while (0)

/* Cells of width w (not NULL rows: zeroed). */
static void gather_cells(void *dst, const void *src, size_t w, const uint32_t *rows, uint32_t n)
{
    switch (w) {
    case 1: GATHER_FIXED(uint8_t); break;
    case 4: GATHER_FIXED(uint32_t); break;
    case 8: GATHER_FIXED(uint64_t); break;
    case 16: GATHER_FIXED(exec_str_t); break; /* any 16-byte cell */
    default:
        for (uint32_t i = 0; i < n; i++) {
            char *d = (char *)dst + (size_t)i * w;
            if (rows[i] == OP_JOIN_NO_ROW) memset(d, 0, w);
            else memcpy(d, (const char *)src + (size_t)rows[i] * w, w);
        }
    }
}

static exec_vec_t all_null_vec(sl_arena_t *a, exec_type_t t, uint32_t n)
{
    exec_vec_t v = exec_vec_new(a, t, n);
    size_t w = exec_type_width(t);
    if (w) memset(v.data, 0, w * (n ? n : 1));
    v.nulls = sl_alloc(a, n ? n : 1);
    memset(v.nulls, 1, n ? n : 1);
    return v;
}

/* The gathered null map, or NULL when no gathered row is NULL. */
static uint8_t *gather_nulls(sl_arena_t *a, const exec_vec_t *src, const uint32_t *rows, uint32_t n)
{
    uint8_t *nulls = NULL;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t isnull = rows[i] == OP_JOIN_NO_ROW || (src->nulls && src->nulls[rows[i]]);
        if (isnull && !nulls) nulls = sl_alloc0(a, n ? n : 1);
        if (nulls) nulls[i] = isnull;
    }
    return nulls;
}

exec_vec_t op_join_gather_vec(sl_arena_t *a, exec_type_t t, const exec_vec_t *src,
                              const uint32_t *rows, uint32_t n)
{
    if (!src || t.id == EXEC_TYPE_NULL) return all_null_vec(a, t, n);
    exec_vec_t v = {.type = t};
    size_t w = exec_type_width(t);
    if (w) {
        v.data = sl_alloc(a, w * (n ? n : 1));
        gather_cells(v.data, src->data, w, rows, n);
    }
    v.nulls = gather_nulls(a, src, rows, n);
    if (t.id == EXEC_TYPE_STRUCT) {
        v.children = SL_NEW_ARRAY(a, exec_vec_t, t.nfields ? t.nfields : 1);
        for (int f = 0; f < t.nfields; f++)
            v.children[f] = op_join_gather_vec(a, t.fields[f].type, &src->children[f], rows, n);
    }
    return v;
}

static const void *cell_at(const exec_vec_t *v, uint32_t row)
{
    return (const char *)v->data + (size_t)row * exec_type_width(v->type);
}

bool op_join_cells_equal(const exec_vec_t *x, uint32_t rx, const exec_vec_t *y, uint32_t ry)
{
    bool nx = vec_null(x, rx), ny = vec_null(y, ry);
    if (nx || ny) return nx && ny;
    if (x->type.id != EXEC_TYPE_STRUCT)
        return exec_cell_equal(x->type, cell_at(x, rx), cell_at(y, ry));
    for (int f = 0; f < x->type.nfields; f++)
        if (!op_join_cells_equal(&x->children[f], rx, &y->children[f], ry)) return false;
    return true;
}

bool op_join_any_null(const exec_batch_t *b, uint32_t row, const int *cols, int n)
{
    for (int i = 0; i < n; i++)
        if (vec_null(&b->cols[cols[i]], row)) return true;
    return false;
}

/* Copies the string bytes of rows not NULL (in v or a parent, `pnull`). */
static void own_strings(sl_arena_t *a, exec_vec_t *v, uint32_t n, const uint8_t *pnull)
{
    uint8_t *nulls = v->nulls;
    if (pnull) {
        nulls = sl_alloc(a, n ? n : 1);
        for (uint32_t i = 0; i < n; i++) nulls[i] = pnull[i] | (v->nulls ? v->nulls[i] : 0);
    }
    if (v->type.id == EXEC_TYPE_STRUCT) {
        for (int f = 0; f < v->type.nfields; f++) own_strings(a, &v->children[f], n, nulls);
        return;
    }
    if (!exec_type_is_varlen(v->type)) return;
    exec_str_t *s = v->data;
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!nulls || !nulls[i]) total += s[i].len;
    char *p = sl_alloc(a, total ? total : 1);
    for (uint32_t i = 0; i < n; i++) {
        if ((nulls && nulls[i]) || !s[i].len) {
            s[i] = (exec_str_t){0, ""};
            continue;
        }
        memcpy(p, s[i].ptr, s[i].len);
        s[i].ptr = p;
        p += s[i].len;
    }
}

exec_batch_t *op_join_copy_batch(sl_arena_t *a, const exec_batch_t *b)
{
    uint32_t n = exec_batch_count(b);
    uint32_t *rows = sl_alloc(a, sizeof *rows * (n ? n : 1));
    for (uint32_t k = 0; k < n; k++) rows[k] = exec_batch_row(b, k);
    exec_batch_t *out = SL_NEW(a, exec_batch_t);
    out->arena = a;
    out->nrows = n;
    out->ncols = b->ncols;
    out->cols = SL_NEW_ARRAY(a, exec_vec_t, b->ncols > 0 ? b->ncols : 1);
    for (int c = 0; c < b->ncols; c++) {
        out->cols[c] = op_join_gather_vec(a, b->cols[c].type, &b->cols[c], rows, n);
        own_strings(a, &out->cols[c], n, NULL);
    }
    if (b->change) {
        out->change = sl_alloc(a, n ? n : 1);
        for (uint32_t k = 0; k < n; k++) out->change[k] = b->change[rows[k]];
    }
    return out;
}

#define GATHER_MULTI(T)                                                                     \
    do {                                                                                    \
        T *d_ = v.data;                                                                     \
        for (uint32_t i = 0; i < n; i++) d_[i] = ((const T *)srcs[bidx[i]]->data)[rows[i]]; \
    } while (0)

static exec_vec_t gather_multi_vecs(sl_arena_t *a, exec_type_t t, const exec_vec_t *const *srcs,
                                    int nsrc, const uint32_t *bidx, const uint32_t *rows,
                                    uint32_t n)
{
    if (t.id == EXEC_TYPE_NULL) return all_null_vec(a, t, n);
    exec_vec_t v = {.type = t};
    size_t w = exec_type_width(t);
    if (w) v.data = sl_alloc(a, w * (n ? n : 1));
    switch (w) {
    case 0: break;
    case 1: GATHER_MULTI(uint8_t); break;
    case 4: GATHER_MULTI(uint32_t); break;
    case 8: GATHER_MULTI(uint64_t); break;
    case 16: GATHER_MULTI(exec_str_t); break;
    default:
        for (uint32_t i = 0; i < n; i++)
            memcpy((char *)v.data + i * w, (const char *)srcs[bidx[i]]->data + (size_t)rows[i] * w,
                   w);
    }
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *sn = srcs[bidx[i]]->nulls;
        if (sn && sn[rows[i]] && !v.nulls) v.nulls = sl_alloc0(a, n ? n : 1);
        if (v.nulls) v.nulls[i] = sn ? sn[rows[i]] : 0;
    }
    if (t.id == EXEC_TYPE_STRUCT) {
        v.children = SL_NEW_ARRAY(a, exec_vec_t, t.nfields ? t.nfields : 1);
        const exec_vec_t **kids = SL_NEW_ARRAY(a, const exec_vec_t *, nsrc > 0 ? nsrc : 1);
        for (int f = 0; f < t.nfields; f++) {
            for (int k = 0; k < nsrc; k++) kids[k] = &srcs[k]->children[f];
            v.children[f] = gather_multi_vecs(a, t.fields[f].type, kids, nsrc, bidx, rows, n);
        }
    }
    return v;
}

exec_vec_t op_join_gather_multi(sl_arena_t *a, exec_batch_t *const *batches, int nbatches, int col,
                                const uint32_t *bidx, const uint32_t *rows, uint32_t n)
{
    const exec_vec_t **srcs = SL_NEW_ARRAY(a, const exec_vec_t *, nbatches > 0 ? nbatches : 1);
    for (int k = 0; k < nbatches; k++) srcs[k] = &batches[k]->cols[col];
    exec_type_t t = nbatches > 0 ? batches[0]->cols[col].type : exec_type_of(EXEC_TYPE_NULL);
    return gather_multi_vecs(a, t, srcs, nbatches, bidx, rows, n);
}

/* ---- join output -------------------------------------------------------- */

void op_join_emit_init(op_join_emit_t *e, op_t *op, const exec_prog_t *residual, int a_is_left,
                       int a_ncols, const exec_type_t *a_types, int b_ncols,
                       const exec_type_t *b_types)
{
    memset(e, 0, sizeof *e);
    e->op = op;
    e->residual = residual;
    e->a_is_left = a_is_left;
    e->a_ncols = a_ncols;
    e->a_types = a_types;
    e->b_ncols = b_ncols;
    e->b_types = b_types;
    e->arows = SL_NEW_ARRAY(op->ctx->arena, uint32_t, EXEC_BATCH_ROWS);
    e->brows = SL_NEW_ARRAY(op->ctx->arena, uint32_t, EXEC_BATCH_ROWS);
    e->arena = op->ctx->ectx->arena;
}

/* The pending pairs as an output batch (no selection). */
static exec_batch_t *pairs_batch(op_join_emit_t *e)
{
    sl_arena_t *a = e->arena;
    exec_batch_t *out = SL_NEW(a, exec_batch_t);
    out->ncols = e->a_ncols + e->b_ncols;
    out->cols = SL_NEW_ARRAY(a, exec_vec_t, out->ncols > 0 ? out->ncols : 1);
    out->nrows = e->n;
    out->arena = a;
    int aoff = e->a_is_left ? 0 : e->b_ncols, boff = e->a_is_left ? e->a_ncols : 0;
    for (int c = 0; c < e->a_ncols; c++)
        out->cols[aoff + c] =
            op_join_gather_vec(a, e->a_types[c], e->a ? &e->a->cols[c] : NULL, e->arows, e->n);
    for (int c = 0; c < e->b_ncols; c++)
        out->cols[boff + c] =
            op_join_gather_vec(a, e->b_types[c], e->b ? &e->b->cols[c] : NULL, e->brows, e->n);
    return out;
}

static void mark_matches(op_join_emit_t *e, const exec_batch_t *out)
{
    uint32_t n = exec_batch_count(out);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = exec_batch_row(out, k);
        if (e->a_matched && e->arows[i] != OP_JOIN_NO_ROW) e->a_matched[e->arows[i]] = 1;
        if (e->b_matched && e->brows[i] != OP_JOIN_NO_ROW) e->b_matched[e->brows[i]] = 1;
    }
}

static int flush_pairs(op_join_emit_t *e, int joined, sl_error_t *err)
{
    if (e->n == 0) return 0;
    exec_batch_t *out = pairs_batch(e);
    if (joined && e->residual && exec_prog_filter(e->residual, e->op->ctx->ectx, out, err) < 0)
        return -1;
    if (joined) mark_matches(e, out);
    e->n = 0;
    int rc = op_emit(e->op, out, err);
    if (e->reset_after_emit) sl_arena_reset(e->arena);
    return rc;
}

int op_join_emit_flush(op_join_emit_t *e, sl_error_t *err)
{
    return flush_pairs(e, 1, err);
}

int op_join_emit_pair(op_join_emit_t *e, uint32_t arow, uint32_t brow, sl_error_t *err)
{
    e->arows[e->n] = arow;
    e->brows[e->n] = brow;
    if (++e->n == EXEC_BATCH_ROWS) return flush_pairs(e, 1, err);
    return 0;
}

int op_join_emit_outer(op_join_emit_t *e, int side_b, const uint32_t *rows, uint32_t n,
                       sl_error_t *err)
{
    if (flush_pairs(e, 1, err) < 0) return -1;
    for (uint32_t i = 0; i < n; i++) {
        e->arows[e->n] = side_b ? OP_JOIN_NO_ROW : rows[i];
        e->brows[e->n] = side_b ? rows[i] : OP_JOIN_NO_ROW;
        if (++e->n == EXEC_BATCH_ROWS && flush_pairs(e, 0, err) < 0) return -1;
    }
    return flush_pairs(e, 0, err);
}

int op_join_emit_unmatched(op_join_emit_t *e, int side_b, const exec_batch_t *b,
                           const uint8_t *matched, sl_arena_t *a, sl_error_t *err)
{
    uint32_t n = exec_batch_count(b), m = 0;
    uint32_t *rows = sl_alloc(a, sizeof *rows * (n ? n : 1));
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = exec_batch_row(b, k);
        if (!matched[row]) rows[m++] = row;
    }
    return op_join_emit_outer(e, side_b, rows, m, err);
}

/* ---- hash table --------------------------------------------------------- */

/* A shallow copy of b selecting its present rows without a NULL key. */
static exec_batch_t *non_null_keys(sl_arena_t *a, const exec_batch_t *b, const int *keys, int nkeys)
{
    uint32_t n = exec_batch_count(b), m = 0;
    uint32_t *sel = sl_alloc(a, sizeof *sel * (n ? n : 1));
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = exec_batch_row(b, k);
        if (!op_join_any_null(b, row, keys, nkeys)) sel[m++] = row;
    }
    exec_batch_t *s = exec_batch_shallow_copy(b, a);
    s->sel = sel;
    s->nsel = m;
    return s;
}

void op_join_ht_build(op_join_ht_t *ht, sl_arena_t *a, const exec_batch_t *b, const int *keys,
                      int nkeys)
{
    uint32_t n = b->nrows;
    exec_type_t *types = SL_NEW_ARRAY(a, exec_type_t, nkeys > 0 ? nkeys : 1);
    for (int i = 0; i < nkeys; i++) types[i] = b->cols[keys[i]].type;
    ht->ht = exec_ht_new(a, nkeys, types, n);
    uint64_t *hashes = sl_alloc(a, sizeof *hashes * (n ? n : 1));
    uint32_t *ids = sl_alloc(a, sizeof *ids * (n ? n : 1));
    exec_batch_t *s = non_null_keys(a, b, keys, nkeys);
    exec_hash_rows(s, keys, nkeys, hashes);
    uint32_t nids = exec_ht_upsert(ht->ht, s, keys, hashes, ids);
    ht->head = SL_NEW_ARRAY(a, uint32_t, nids ? nids : 1);
    ht->next = SL_NEW_ARRAY(a, uint32_t, n ? n : 1);
    for (uint32_t k = s->nsel; k-- > 0;) {
        uint32_t r = s->sel[k];
        ht->next[r] = ht->head[ids[r]];
        ht->head[ids[r]] = r + 1;
    }
}

void op_join_ht_probe(const op_join_ht_t *ht, sl_arena_t *a, const exec_batch_t *b, const int *keys,
                      int nkeys, uint32_t *first)
{
    uint32_t n = b->nrows ? b->nrows : 1;
    uint64_t *hashes = sl_alloc(a, sizeof *hashes * n);
    exec_batch_t *s = non_null_keys(a, b, keys, nkeys);
    exec_hash_rows(s, keys, nkeys, hashes);
    exec_ht_probe(ht->ht, s, keys, hashes, first);
    for (uint32_t k = 0; k < exec_batch_count(b); k++) {
        uint32_t row = exec_batch_row(b, k);
        if (op_join_any_null(b, row, keys, nkeys)) first[row] = OP_JOIN_NO_ROW;
    }
    for (uint32_t k = 0; k < s->nsel; k++) {
        uint32_t row = s->sel[k];
        first[row] = first[row] == EXEC_HT_NONE ? OP_JOIN_NO_ROW : ht->head[first[row]] - 1;
    }
}

/* ---- event time --------------------------------------------------------- */

int op_join_time_field(exec_type_t t)
{
    if (t.id == EXEC_TYPE_TIMESTAMP) return -1;
    if (t.id != EXEC_TYPE_STRUCT) return -2;
    int f = exec_type_field_index(t, "end");
    return f >= 0 && t.fields[f].type.id == EXEC_TYPE_TIMESTAMP ? f : -2;
}

bool op_join_event_time(const exec_vec_t *v, int field, uint32_t row, int64_t *us)
{
    if (vec_null(v, row)) return false;
    if (field >= 0) {
        v = &v->children[field];
        if (vec_null(v, row)) return false;
    }
    *us = EXEC_VEC_AT(v, int64_t, row);
    return true;
}

int op_join_key_time_field(exec_type_t t)
{
    int f = op_join_time_field(t);
    for (int i = 0; t.id == EXEC_TYPE_STRUCT && i < t.nfields; i++)
        if (t.fields[i].type.id != EXEC_TYPE_TIMESTAMP) f = -2;
    return f;
}

/* Layout (model/row.h key format): marker 1, then for a struct per field a
 * marker and 8 bytes when not NULL. */
bool op_join_key_time(const uint8_t *k, size_t len, int field, int64_t *us)
{
    size_t p = 0;
    if (len < 1 || k[p++] != 1) return false;
    for (int f = 0; f < field; f++) {
        if (p >= len) return false;
        p += k[p] == 1 ? 9 : 1;
    }
    if (field >= 0 && (p >= len || k[p++] != 1)) return false;
    if (p + 8 > len) return false;
    *us = (int64_t)(op_join_get_be64(k + p) ^ (UINT64_C(1) << 63));
    return true;
}

int op_join_evict_by_key_time(store_t *s, int field, int64_t bound_us, op_join_evict_cb cb,
                              void *arg, sl_error_t *err)
{
    /* A TIMESTAMP key sorts by time: stop past the bound. A window sorts by
     * start, and end > start: stop at the first start at or past it. */
    sl_buf_t hi = SL_BUF_INIT;
    sl_buf_putc(&hi, 1);
    if (field >= 0) sl_buf_putc(&hi, 1);
    op_join_put_be64(
        &hi, op_join_time_key(field >= 0 || bound_us == INT64_MAX ? bound_us : bound_us + 1));
    store_iter_t *it = store_iter_range(s, "\x01", 1, hi.data, hi.len, err);
    sl_buf_free(&hi);
    if (!it) return -1;
    const void *k, *v;
    size_t klen, vlen;
    int rc;
    while ((rc = store_iter_next(it, &k, &klen, &v, &vlen, err)) > 0) {
        int64_t us;
        if (!op_join_key_time(k, klen, field, &us) || us > bound_us) continue;
        if (cb && (rc = cb(arg, k, klen, v, vlen, err)) < 0) break;
        if ((rc = store_delete(s, k, klen, err)) < 0) break;
    }
    store_iter_close(it);
    return rc < 0 ? -1 : 0;
}

/* ---- state stores ------------------------------------------------------- */

char *op_join_schema_text(sl_arena_t *a, const exec_pnode_t *node, const int *cols, int n)
{
    sl_buf_t b = SL_BUF_INIT;
    if (!cols) n = node->ncols;
    for (int i = 0; i < n; i++) {
        int c = cols ? cols[i] : i;
        sl_buf_printf(&b, "%s%s ", i ? ", " : "", node->names[c]);
        exec_type_format(node->types[c], &b);
    }
    char *s = sl_strdup(a, b.data ? b.data : "");
    sl_buf_free(&b);
    return s;
}

store_t *op_join_store_open(op_t *op, const char *name, const char *key_schema,
                            const char *value_schema, sl_error_t *err)
{
    const op_ctx_t *ctx = op->ctx;
    int opid = op->node->op_id;
    if (ctx->partition == 0 &&
        store_schema_check(ctx->state_dir, opid, name, key_schema, value_schema, err) < 0)
        return NULL;
    store_options_t opt = {.provider = ctx->state_provider};
    store_t *s = exec_store_acquire(op, name, &opt, err);
    if (!s) return NULL;
    if (store_load(s, ctx->batch_id, err) < 0) {
        exec_store_release(op, s);
        return NULL;
    }
    op->metrics->num_state_store_instances++;
    return s;
}

static void add_custom(op_metrics_t *om, const store_metrics_t *m)
{
    for (int i = 0; i < m->ncustom; i++) {
        int64_t prev = 0;
        for (int j = 0; j < om->ncustom; j++)
            if (!strcmp(om->custom_names[j], m->custom[i].name)) prev = om->custom_values[j];
        op_metric_set(om, m->custom[i].name, prev + m->custom[i].value);
    }
}

void op_join_store_release(op_t *op, store_t *s)
{
    if (s) exec_store_release(op, s);
}

int op_join_store_commit(op_t *op, store_t *const *stores, int n, int nrows, sl_error_t *err)
{
    op_metrics_t *om = op->metrics;
    for (int i = 0; i < n; i++) {
        if (store_commit(stores[i], err) < 0 || store_maintenance(stores[i], err) < 0) return -1;
        store_metrics_t m;
        store_metrics(stores[i], &m);
        if (i < nrows) {
            om->num_rows_total += m.num_keys;
            om->num_rows_updated += m.num_rows_updated;
            om->num_rows_removed += m.num_rows_removed;
        }
        om->memory_used_bytes += m.memory_used_bytes;
        om->all_updates_time_ms += m.all_updates_time_ms;
        om->all_removals_time_ms += m.all_removals_time_ms;
        om->commit_time_ms += m.commit_time_ms;
        add_custom(om, &m);
    }
    return 0;
}

void op_join_put_be64(sl_buf_t *b, uint64_t v)
{
    sl_buf_put_u64be(b, v);
}

uint64_t op_join_get_be64(const void *p)
{
    const unsigned char *c = p;
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | c[i];
    return v;
}

/* ---- join planning and setup ------------------------------------------- */

exec_pnode_t *op_join_node(sl_arena_t *a, const op_ops_t *ops, exec_pnode_t *probe,
                           exec_pnode_t *build, int probe_is_left, void *config)
{
    exec_pnode_t *l = probe_is_left ? probe : build, *r = probe_is_left ? build : probe;
    exec_pnode_t *n = exec_pnode_new(a, ops, l->ncols + r->ncols, config);
    for (int i = 0; i < n->ncols; i++) {
        const exec_pnode_t *src = i < l->ncols ? l : r;
        int c = i < l->ncols ? i : i - l->ncols;
        n->names[i] = sl_strdup(a, src->names[c]);
        n->types[i] = src->types[c];
    }
    n->nchildren = 2;
    n->children[0] = probe;
    n->children[1] = build;
    return n;
}

int op_join_compile_pred(sl_arena_t *a, const exec_expr_t *e, exec_prog_t **out, sl_error_t *err)
{
    *out = NULL;
    if (!e) return 0;
    if (e->type.id != EXEC_TYPE_BOOLEAN && e->type.id != EXEC_TYPE_NULL)
        return sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                            "argument of JOIN/ON must be type boolean, not type %s",
                            exec_type_pg_name(e->type));
    *out = exec_expr_compile(a, e, err);
    return *out ? 0 : -1;
}

int op_join_check_keys(const exec_pnode_t *l, const int *lk, const exec_pnode_t *r, const int *rk,
                       int n, sl_error_t *err)
{
    for (int i = 0; i < n; i++) {
        if (lk[i] < 0 || lk[i] >= l->ncols || rk[i] < 0 || rk[i] >= r->ncols)
            return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "join key %d names no column",
                                i + 1);
        if (!exec_type_equal(l->types[lk[i]], r->types[rk[i]]))
            return sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                                "join key %s (%s) and %s (%s) differ in type", l->names[lk[i]],
                                exec_type_pg_name(l->types[lk[i]]), r->names[rk[i]],
                                exec_type_pg_name(r->types[rk[i]]));
    }
    return 0;
}

int *op_join_copy_ints(sl_arena_t *a, const int *v, int n)
{
    int *c = SL_NEW_ARRAY(a, int, n > 0 ? n : 1);
    if (n > 0) memcpy(c, v, sizeof *c * (size_t)n);
    return c;
}

bool op_join_is_broadcast(const exec_pnode_t *n)
{
    return op_is_exchange(n) && ((const op_exchange_config_t *)n->config)->broadcast;
}

bool op_join_is_gather(const exec_pnode_t *n)
{
    return op_is_exchange(n) && !op_join_is_broadcast(n) &&
           ((const op_exchange_config_t *)n->config)->npartitions == 1;
}

exec_batch_t *op_join_broadcast_rows(op_t *op, const exec_pnode_t *exchange)
{
    exec_batch_t **bs;
    int nb = exec_broadcast_batches(op, exchange, &bs);
    if (nb == 1 && !bs[0]->sel) return bs[0];
    exec_builder_t bld;
    uint32_t total = 0;
    for (int i = 0; i < nb; i++) total += exec_batch_count(bs[i]);
    exec_builder_init(&bld, op->ctx->arena, exchange->ncols, exchange->types, total);
    for (int i = 0; i < nb; i++) exec_builder_append_batch(&bld, bs[i]);
    return exec_builder_finish(&bld);
}

void op_join_explain_keys(sl_buf_t *out, const exec_pnode_t *l, const int *lk,
                          const exec_pnode_t *r, const int *rk, int n)
{
    sl_buf_puts(out, " (");
    for (int i = 0; i < n; i++)
        sl_buf_printf(out, "%s%s = %s", i ? ", " : "", l->names[lk[i]], r->names[rk[i]]);
    sl_buf_putc(out, ')');
}
