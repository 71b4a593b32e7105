/* Memory tables (memtable.h): a registry of named result tables, each with
 * its rows as compacted batches in its own arena, a dead-row map per batch
 * for rows replaced or deleted by upserts, and a key index for UPDATE mode.
 * A table keyed by grouping columns the query does not select stores them
 * as hidden columns after the visible ones (sink_schema_t nhidden), so that
 * compaction can re-index; snapshots and column lists show only the
 * visible ones.
 *
 * Row positions in the index are (batch number << 32 | row). Compaction
 * copies the live rows into a fresh arena as one batch and rebuilds the
 * index, so a long-running update-mode table stays proportional to its
 * live rows. */
#include "connectors/memtable.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "connectors/conn_int.h"
#include "model/row.h"

/* Compact when dead rows exceed this many and outnumber the live ones, or
 * when the table has more batches than this. */
#define MEMTABLE_DEAD_SLACK 1024
#define MEMTABLE_MAX_BATCHES 256

struct memtable {
    memtable_registry_t *reg; /* outlives every reference */
    char *name;
    int refs;              /* registry's mutex guards it */
    pthread_rwlock_t lock; /* guards everything below; the writer owns `rows` */
    sl_arena_t *meta;      /* names, types, keys */
    int ncols;             /* stored columns: the visible ones, then hidden keys */
    int nvisible;          /* the columns SELECT sees */
    const char **names;
    exec_type_t *types;
    bool keyed; /* UPDATE rows are upserted by keys[0..nkeys) */
    int nkeys;
    int *keys;
    int64_t last_batch;     /* -1 before the first */
    sl_arena_t *rows;       /* batches, their dead maps, nothing else */
    exec_batch_t **batches; /* heap array of nbatches */
    uint8_t **dead;         /* per batch: NULL, or nrows flags (1 = dead) */
    int nbatches, cap;
    int64_t live, ndead;
    bool indexed;     /* UPDATE rows went in: `index` is maintained */
    conn_map_t index; /* encoded key -> position */
    sl_buf_t keybuf;
};

struct memtable_registry {
    pthread_mutex_t mu;
    memtable_t **tables; /* heap array */
    int n, cap;
};

/* ---- tables ---------------------------------------------------------------- */

static memtable_t *table_new(const char *name, const sink_schema_t *s)
{
    memtable_t *t = sl_xcalloc(1, sizeof *t);
    t->name = sl_xstrdup(name);
    t->refs = 1;
    pthread_rwlock_init(&t->lock, NULL);
    t->meta = sl_arena_new("memtable meta");
    t->rows = sl_arena_new("memtable rows");
    t->ncols = s->ncols + s->nhidden;
    t->nvisible = s->ncols;
    t->names = SL_NEW_ARRAY(t->meta, const char *, t->ncols ? t->ncols : 1);
    t->types = SL_NEW_ARRAY(t->meta, exec_type_t, t->ncols ? t->ncols : 1);
    for (int i = 0; i < t->ncols; i++) {
        t->names[i] = sl_strdup(t->meta, s->names[i]);
        t->types[i] = conn_type_copy(t->meta, s->types[i]);
    }
    t->keyed = s->keyed;
    t->nkeys = s->nkeys;
    t->keys = SL_NEW_ARRAY(t->meta, int, s->nkeys ? s->nkeys : 1);
    if (s->nkeys) memcpy(t->keys, s->keys, sizeof(int) * (size_t)s->nkeys);
    t->last_batch = -1;
    conn_map_init(&t->index);
    return t;
}

static void table_free(memtable_t *t)
{
    pthread_rwlock_destroy(&t->lock);
    sl_arena_free(t->meta);
    sl_arena_free(t->rows);
    free(t->batches);
    free(t->dead);
    conn_map_free(&t->index);
    sl_buf_free(&t->keybuf);
    free(t->name);
    free(t);
}

static bool same_schema(const memtable_t *t, const sink_schema_t *s)
{
    if (t->nvisible != s->ncols || t->ncols != s->ncols + s->nhidden ||
        t->keyed != (bool)s->keyed || t->nkeys != s->nkeys)
        return false;
    for (int i = 0; i < t->ncols; i++)
        if (strcmp(t->names[i], s->names[i]) || !exec_type_equal(t->types[i], s->types[i]))
            return false;
    return !s->nkeys || !memcmp(t->keys, s->keys, sizeof(int) * (size_t)s->nkeys);
}

/* Drops every row (COMPLETE mode, and compaction's old arena). */
static void table_clear(memtable_t *t)
{
    sl_arena_reset(t->rows);
    t->nbatches = 0;
    t->live = t->ndead = 0;
    conn_map_clear(&t->index);
}

static void push_batch(memtable_t *t, exec_batch_t *b, uint8_t *dead)
{
    if (t->nbatches == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 8;
        t->batches = sl_xrealloc(t->batches, sizeof *t->batches * (size_t)t->cap);
        t->dead = sl_xrealloc(t->dead, sizeof *t->dead * (size_t)t->cap);
    }
    t->batches[t->nbatches] = b;
    t->dead[t->nbatches++] = dead;
}

static uint32_t rows_in(exec_batch_t *const *batches, int n)
{
    uint64_t total = 0;
    for (int i = 0; i < n; i++) total += exec_batch_count(batches[i]);
    return (uint32_t)total;
}

static void append_rows(memtable_t *t, exec_batch_t *const *batches, int n, uint32_t total)
{
    if (!total) return;
    exec_builder_t bld;
    exec_builder_init(&bld, t->rows, t->ncols, t->types, total);
    for (int i = 0; i < n; i++) exec_builder_append_batch(&bld, batches[i]);
    push_batch(t, exec_builder_finish(&bld), NULL);
    t->live += total;
}

/* Marks a stored row dead. `pending` is the dead map of the batch being
 * built (number t->nbatches). */
static void mark_dead(memtable_t *t, uint64_t pos, uint8_t *pending)
{
    uint32_t bi = (uint32_t)(pos >> 32), ri = (uint32_t)pos;
    if ((int)bi == t->nbatches) {
        pending[ri] = 1;
    } else {
        if (!t->dead[bi]) t->dead[bi] = sl_alloc0(t->rows, t->batches[bi]->nrows);
        t->dead[bi][ri] = 1;
    }
    t->live--;
    t->ndead++;
}

/* Upserts one present row of `b` into the batch being built. */
static void upsert_row(memtable_t *t, exec_builder_t *bld, uint8_t *pending, const exec_batch_t *b,
                       uint32_t row)
{
    sl_buf_clear(&t->keybuf);
    exec_key_encode(b, row, t->keys, t->nkeys, &t->keybuf);
    const char *k = t->keybuf.data ? t->keybuf.data : "";
    uint64_t *old = conn_map_get(&t->index, k, t->keybuf.len);
    if (old) mark_dead(t, *old, pending);
    if (b->change && b->change[row] < 0) {
        if (old) conn_map_del(&t->index, k, t->keybuf.len);
        return;
    }
    uint32_t r = exec_builder_add_row(bld);
    for (int c = 0; c < t->ncols; c++) exec_builder_copy_cell(bld, c, r, &b->cols[c], row);
    conn_map_put(&t->index, k, t->keybuf.len, (uint64_t)t->nbatches << 32 | r);
    t->live++;
}

static void upsert_rows(memtable_t *t, exec_batch_t *const *batches, int n, uint32_t total)
{
    t->indexed = true;
    if (!total) return;
    exec_builder_t bld;
    exec_builder_init(&bld, t->rows, t->ncols, t->types, total);
    uint8_t *pending = sl_alloc0(t->rows, total);
    for (int i = 0; i < n; i++)
        for (uint32_t k = 0; k < exec_batch_count(batches[i]); k++)
            upsert_row(t, &bld, pending, batches[i], exec_batch_row(batches[i], k));
    exec_batch_t *b = exec_builder_finish(&bld);
    if (b->nrows) push_batch(t, b, pending);
}

/* Rewrites the live rows into a fresh arena as one batch, re-indexing. */
static void table_compact(memtable_t *t)
{
    sl_arena_t *fresh = sl_arena_new("memtable rows");
    exec_builder_t bld;
    exec_builder_init(&bld, fresh, t->ncols, t->types, (uint32_t)(t->live ? t->live : 1));
    for (int i = 0; i < t->nbatches; i++) {
        const exec_batch_t *b = t->batches[i];
        for (uint32_t r = 0; r < b->nrows; r++) {
            if (t->dead[i] && t->dead[i][r]) continue;
            uint32_t nr = exec_builder_add_row(&bld);
            for (int c = 0; c < t->ncols; c++) exec_builder_copy_cell(&bld, c, nr, &b->cols[c], r);
        }
    }
    exec_batch_t *b = exec_builder_finish(&bld);
    sl_arena_free(t->rows);
    t->rows = fresh;
    t->nbatches = 0;
    t->ndead = 0;
    conn_map_clear(&t->index);
    if (!b->nrows) return;
    push_batch(t, b, NULL);
    for (uint32_t r = 0; t->indexed && r < b->nrows; r++) {
        sl_buf_clear(&t->keybuf);
        exec_key_encode(b, r, t->keys, t->nkeys, &t->keybuf);
        conn_map_put(&t->index, t->keybuf.data ? t->keybuf.data : "", t->keybuf.len, r);
    }
}

static void maybe_compact(memtable_t *t)
{
    if ((t->ndead > MEMTABLE_DEAD_SLACK && t->ndead > t->live) ||
        t->nbatches > MEMTABLE_MAX_BATCHES)
        table_compact(t);
}

int memtable_add_batch(memtable_t *t, int64_t batch_id, output_mode_t mode,
                       exec_batch_t *const *batches, int n, int64_t *rows)
{
    pthread_rwlock_wrlock(&t->lock);
    sl_arena_adopt(t->rows); /* the write lock hands the row arena to this thread */
    if (batch_id <= t->last_batch) {
        pthread_rwlock_unlock(&t->lock);
        if (rows) *rows = 0;
        return 0;
    }
    uint32_t total = rows_in(batches, n);
    if (mode == OUTPUT_COMPLETE) table_clear(t);
    if (mode == OUTPUT_UPDATE && t->keyed) upsert_rows(t, batches, n, total);
    else append_rows(t, batches, n, total);
    t->last_batch = batch_id;
    maybe_compact(t);
    pthread_rwlock_unlock(&t->lock);
    if (rows) *rows = total;
    return 1;
}

int64_t memtable_last_batch(memtable_t *t)
{
    pthread_rwlock_rdlock(&t->lock);
    int64_t v = t->last_batch;
    pthread_rwlock_unlock(&t->lock);
    return v;
}

int64_t memtable_count(memtable_t *t)
{
    pthread_rwlock_rdlock(&t->lock);
    int64_t v = t->live;
    pthread_rwlock_unlock(&t->lock);
    return v;
}

/* ---- registry -------------------------------------------------------------- */

memtable_registry_t *memtable_registry_new(void)
{
    memtable_registry_t *r = sl_xcalloc(1, sizeof *r);
    pthread_mutex_init(&r->mu, NULL);
    return r;
}

void memtable_registry_free(memtable_registry_t *r)
{
    if (!r) return;
    for (int i = 0; i < r->n; i++) table_free(r->tables[i]);
    free(r->tables);
    pthread_mutex_destroy(&r->mu);
    free(r);
}

/* Index of table `name`, or -1. Registry lock held. */
static int reg_find(memtable_registry_t *r, const char *name)
{
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->tables[i]->name, name)) return i;
    return -1;
}

/* Drops the registry's reference to table i; returns it when that was the
 * last one (to be freed outside the lock). Registry lock held. */
static memtable_t *reg_remove(memtable_registry_t *r, int i)
{
    memtable_t *t = r->tables[i];
    r->tables[i] = r->tables[--r->n];
    return --t->refs == 0 ? t : NULL;
}

memtable_t *memtable_open(memtable_registry_t *r, const char *name, const sink_schema_t *schema)
{
    memtable_t *gone = NULL, *t;
    pthread_mutex_lock(&r->mu);
    int i = reg_find(r, name);
    if (i >= 0 && same_schema(r->tables[i], schema)) {
        t = r->tables[i];
        t->refs++;
        pthread_mutex_unlock(&r->mu);
        return t;
    }
    if (i >= 0) gone = reg_remove(r, i);
    t = table_new(name, schema);
    t->reg = r;
    t->refs = 2; /* the registry's and the caller's */
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 8;
        r->tables = sl_xrealloc(r->tables, sizeof *r->tables * (size_t)r->cap);
    }
    r->tables[r->n++] = t;
    pthread_mutex_unlock(&r->mu);
    if (gone) table_free(gone);
    return t;
}

/* Releases a reference (counts change only under the registry's mutex). */
static void table_unref(memtable_registry_t *r, memtable_t *t)
{
    pthread_mutex_lock(&r->mu);
    bool last = --t->refs == 0;
    pthread_mutex_unlock(&r->mu);
    if (last) table_free(t);
}

int memtable_drop(memtable_registry_t *r, const char *name)
{
    pthread_mutex_lock(&r->mu);
    int i = reg_find(r, name);
    memtable_t *gone = i >= 0 ? reg_remove(r, i) : NULL;
    pthread_mutex_unlock(&r->mu);
    if (gone) table_free(gone);
    return i >= 0;
}

/* ---- snapshots -------------------------------------------------------------- */

typedef struct snap {
    sl_arena_t *a;
    const exec_type_t *types;
    int ncols;
    exec_batch_t **out;
    int n;
    exec_builder_t bld;
    bool building;
} snap_t;

/* Copies row r of b; `left` counts the rows still to copy, this one included. */
static void snap_row(snap_t *s, const exec_batch_t *b, uint32_t r, int64_t left)
{
    if (!s->building) {
        exec_builder_init(&s->bld, s->a, s->ncols, s->types,
                          left < EXEC_BATCH_ROWS ? (uint32_t)left : EXEC_BATCH_ROWS);
        s->building = true;
    }
    uint32_t nr = exec_builder_add_row(&s->bld);
    for (int c = 0; c < s->ncols; c++) exec_builder_copy_cell(&s->bld, c, nr, &b->cols[c], r);
    if (s->bld.batch->nrows == EXEC_BATCH_ROWS) {
        s->out[s->n++] = exec_builder_finish(&s->bld);
        s->building = false;
    }
}

/* Copies the live rows of t into s. Table read lock held. */
static void snap_rows(memtable_t *t, snap_t *s)
{
    int64_t left = t->live;
    s->out = SL_NEW_ARRAY(s->a, exec_batch_t *, left / EXEC_BATCH_ROWS + 1);
    for (int i = 0; i < t->nbatches; i++) {
        const exec_batch_t *b = t->batches[i];
        for (uint32_t r = 0; r < b->nrows; r++)
            if (!t->dead[i] || !t->dead[i][r]) snap_row(s, b, r, left--);
    }
    if (s->building) s->out[s->n++] = exec_builder_finish(&s->bld);
}

static memtable_t *reg_ref(memtable_registry_t *r, const char *name)
{
    pthread_mutex_lock(&r->mu);
    int i = reg_find(r, name);
    memtable_t *t = i >= 0 ? r->tables[i] : NULL;
    if (t) t->refs++;
    pthread_mutex_unlock(&r->mu);
    return t;
}

/* Copies t's visible column names and types into `a`. */
static void copy_columns(const memtable_t *t, sl_arena_t *a, const char ***names,
                         exec_type_t **types)
{
    const char **nm = SL_NEW_ARRAY(a, const char *, t->nvisible ? t->nvisible : 1);
    exec_type_t *ty = SL_NEW_ARRAY(a, exec_type_t, t->nvisible ? t->nvisible : 1);
    for (int i = 0; i < t->nvisible; i++) {
        nm[i] = sl_strdup(a, t->names[i]);
        ty[i] = conn_type_copy(a, t->types[i]);
    }
    *names = nm;
    *types = ty;
}

int memtable_columns(memtable_registry_t *r, const char *name, sl_arena_t *a, int *ncols,
                     const char ***names, exec_type_t **types)
{
    memtable_t *t = reg_ref(r, name);
    if (!t) return 0;
    pthread_rwlock_rdlock(&t->lock);
    copy_columns(t, a, names, types);
    *ncols = t->nvisible;
    pthread_rwlock_unlock(&t->lock);
    table_unref(r, t);
    return 1;
}

int memtable_snapshot(memtable_registry_t *r, const char *name, sl_arena_t *a, int *ncols,
                      const char ***names, exec_type_t **types, exec_batch_t ***batches,
                      int *nbatches)
{
    memtable_t *t = reg_ref(r, name);
    if (!t) return 0;
    pthread_rwlock_rdlock(&t->lock);
    const char **nm;
    exec_type_t *ty;
    copy_columns(t, a, &nm, &ty);
    snap_t s = {.a = a, .types = ty, .ncols = t->nvisible};
    snap_rows(t, &s);
    pthread_rwlock_unlock(&t->lock);
    *ncols = t->nvisible;
    *names = nm;
    *types = ty;
    *batches = s.out;
    *nbatches = s.n;
    table_unref(r, t);
    return 1;
}

void memtable_release(memtable_t *t)
{
    if (t) table_unref(t->reg, t);
}
