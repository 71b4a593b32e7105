/* Static table rows in SQLite: inserting batches, scanning into batches,
 * deleting by row id, each on the connection table_store.h's rule picks. */
#include <stdio.h>
#include <string.h>

#include "common/buf.h"
#include "model/text_io.h"
#include "server/table_cache.h"
#include "server/table_store.h"
#include "server/table_store_int.h"

static int sqlite_error(sqlite3 *db, const char *name, sl_error_t *err)
{
    return sl_error_set(err, SL_ERR_IO_ERROR, "table \"%s\": storage error: %s", name,
                        sqlite3_errmsg(db));
}

void tstore_bind_cell(sqlite3_stmt *st, int param, const exec_vec_t *v, uint32_t row, sl_buf_t *tmp)
{
    if (exec_vec_is_null(v, row)) {
        sqlite3_bind_null(st, param);
        return;
    }
    switch (v->type.id) {
    case EXEC_TYPE_BOOLEAN: sqlite3_bind_int64(st, param, EXEC_VEC_AT(v, uint8_t, row)); return;
    case EXEC_TYPE_INT:
    case EXEC_TYPE_DATE: sqlite3_bind_int64(st, param, EXEC_VEC_AT(v, int32_t, row)); return;
    case EXEC_TYPE_BIGINT:
    case EXEC_TYPE_TIMESTAMP: sqlite3_bind_int64(st, param, EXEC_VEC_AT(v, int64_t, row)); return;
    case EXEC_TYPE_DOUBLE: sqlite3_bind_double(st, param, EXEC_VEC_AT(v, double, row)); return;
    case EXEC_TYPE_BINARY: {
        exec_str_t s = EXEC_VEC_AT(v, exec_str_t, row);
        sqlite3_bind_blob(st, param, s.len ? s.ptr : "", (int)s.len, SQLITE_TRANSIENT);
        return;
    }
    default:
        sl_buf_clear(tmp);
        exec_vec_text(v, row, tmp);
        sqlite3_bind_text(st, param, tmp->data ? tmp->data : "", (int)tmp->len, SQLITE_TRANSIENT);
        return;
    }
}

static sqlite3_stmt *prepare_insert(sqlite3 *db, const plan_relation_t *rel)
{
    sl_buf_t sql = SL_BUF_INIT;
    sl_buf_puts(&sql, "INSERT INTO ");
    tstore_table_name(&sql, rel->stream.name);
    sl_buf_puts(&sql, " VALUES (");
    for (int i = 0; i < rel->stream.ncols; i++) sl_buf_puts(&sql, i ? ", ?" : "?");
    sl_buf_puts(&sql, ")");
    sqlite3_stmt *st = NULL;
    sqlite3_prepare_v2(db, sql.data, -1, &st, NULL);
    sl_buf_free(&sql);
    return st;
}

int tstore_insert(tstore_t *t, tstore_conn_t *conn, const plan_relation_t *rel,
                  const exec_batch_t *b, sl_error_t *err)
{
    tstore_use_t u;
    if (tstore_use_write(t, conn, &u, err) < 0) return -1;
    sl_buf_t tmp = SL_BUF_INIT;
    int rc = 0;
    sqlite3_stmt *st = prepare_insert(u.db, rel);
    if (!st) rc = sqlite_error(u.db, rel->stream.name, err);
    for (uint32_t k = 0; rc == 0 && k < exec_batch_count(b); k++) {
        uint32_t row = exec_batch_row(b, k);
        for (int c = 0; c < rel->stream.ncols; c++)
            tstore_bind_cell(st, c + 1, &b->cols[c], row, &tmp);
        if (sqlite3_step(st) != SQLITE_DONE) rc = sqlite_error(u.db, rel->stream.name, err);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    sl_buf_free(&tmp);
    return tstore_use_end(&u, rc == 0, err);
}

/* Reads column `c` of the current SQLite row into the builder. */
static int read_cell(sqlite3_stmt *st, int c, exec_builder_t *bld, int col, uint32_t row,
                     exec_type_t type, sl_error_t *err)
{
    if (sqlite3_column_type(st, c) == SQLITE_NULL) {
        exec_builder_set_null(bld, col, row);
        return 0;
    }
    switch (type.id) {
    case EXEC_TYPE_BOOLEAN:
        exec_builder_set_bool(bld, col, row, sqlite3_column_int64(st, c) != 0);
        return 0;
    case EXEC_TYPE_INT:
    case EXEC_TYPE_DATE:
        exec_builder_set_int(bld, col, row, (int32_t)sqlite3_column_int64(st, c));
        return 0;
    case EXEC_TYPE_BIGINT:
    case EXEC_TYPE_TIMESTAMP:
        exec_builder_set_bigint(bld, col, row, sqlite3_column_int64(st, c));
        return 0;
    case EXEC_TYPE_DOUBLE:
        exec_builder_set_double(bld, col, row, sqlite3_column_double(st, c));
        return 0;
    case EXEC_TYPE_BINARY:
        exec_builder_set_str(bld, col, row, sqlite3_column_blob(st, c),
                             (size_t)sqlite3_column_bytes(st, c));
        return 0;
    default:
        return exec_builder_set_text(bld, col, row, (const char *)sqlite3_column_text(st, c),
                                     (size_t)sqlite3_column_bytes(st, c), err);
    }
}

static sqlite3_stmt *prepare_scan(sqlite3 *db, const plan_relation_t *rel)
{
    sl_buf_t sql = SL_BUF_INIT;
    sl_buf_puts(&sql, "SELECT rowid");
    for (int i = 0; i < rel->stream.ncols; i++) sl_buf_printf(&sql, ", c%d", i);
    sl_buf_puts(&sql, " FROM ");
    tstore_table_name(&sql, rel->stream.name);
    sl_buf_puts(&sql, " ORDER BY rowid");
    sqlite3_stmt *st = NULL;
    sqlite3_prepare_v2(db, sql.data, -1, &st, NULL);
    sl_buf_free(&sql);
    return st;
}

/* The batches a read collected. */
typedef struct scan_out {
    sl_arena_t *a;
    exec_batch_t **batches;
    int n, cap;
    tcache_entry_t *entry; /* when reading into a cache entry */
} scan_out_t;

static void keep_batch(scan_out_t *o, exec_batch_t *b)
{
    if (o->entry) {
        tcache_add(o->entry, b);
        return;
    }
    if (o->n == o->cap) {
        int nc = o->cap ? o->cap * 2 : 4;
        o->batches = sl_arena_realloc(o->a, o->batches, sizeof *o->batches * (size_t)o->cap,
                                      sizeof *o->batches * (size_t)nc);
        o->cap = nc;
    }
    o->batches[o->n++] = b;
}

/* Reads every row of the table through `db` under `lock` into batches of
 * up to EXEC_BATCH_ROWS rows allocated in out->a. */
static int read_rows(sqlite3 *db, pthread_mutex_t *lock, const plan_relation_t *rel, int with_rowid,
                     scan_out_t *out, sl_error_t *err)
{
    sl_arena_t *a = out->a;
    int ncols = rel->stream.ncols + (with_rowid ? 1 : 0);
    exec_type_t *types = SL_NEW_ARRAY(a, exec_type_t, ncols);
    memcpy(types, rel->stream.col_types, sizeof *types * (size_t)rel->stream.ncols);
    if (with_rowid) types[rel->stream.ncols] = exec_type_of(EXEC_TYPE_BIGINT);
    pthread_mutex_lock(lock);
    sqlite3_stmt *st = prepare_scan(db, rel);
    int rc = st ? 0 : sqlite_error(db, rel->stream.name, err), step = SQLITE_DONE;
    exec_builder_t bld;
    exec_builder_init(&bld, a, ncols, types, EXEC_BATCH_ROWS);
    while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
        uint32_t row = exec_builder_add_row(&bld);
        for (int c = 0; rc == 0 && c < rel->stream.ncols; c++)
            rc = read_cell(st, c + 1, &bld, c, row, rel->stream.col_types[c], err);
        if (with_rowid)
            exec_builder_set_bigint(&bld, rel->stream.ncols, row, sqlite3_column_int64(st, 0));
        if (bld.batch->nrows < EXEC_BATCH_ROWS) continue;
        keep_batch(out, exec_builder_finish(&bld));
        exec_builder_init(&bld, a, ncols, types, EXEC_BATCH_ROWS);
    }
    if (rc == 0 && step != SQLITE_DONE) rc = sqlite_error(db, rel->stream.name, err);
    sqlite3_finalize(st);
    pthread_mutex_unlock(lock);
    if (rc == 0 && bld.batch->nrows > 0) keep_batch(out, exec_builder_finish(&bld));
    return rc;
}

/* The committed rows from the columnar copy: the cached one when the store
 * has not been written since it was read, else a new copy read now and
 * offered to the cache (server/table_cache.h). Returns the referenced entry. */
static tcache_entry_t *cached_rows(tstore_t *t, const plan_relation_t *rel, sl_error_t *err)
{
    uint64_t gen = tstore_releases(t); /* before the rows are read */
    tcache_entry_t *e = tcache_get(t->cache, rel->stream.name, gen);
    if (e) return e;
    e = tcache_build(rel->stream.name, gen);
    scan_out_t out = {.a = tcache_arena(e), .entry = e};
    if (read_rows(t->db, &t->lock, rel, 0, &out, err) < 0) {
        tcache_release(t->cache, e);
        return NULL;
    }
    tcache_install(t->cache, e, tstore_releases(t));
    return e;
}

int tstore_snapshot(tstore_t *t, const plan_relation_t *rel, tcache_entry_t **out, sl_error_t *err)
{
    *out = NULL;
    if (!t->cache) return 0;
    return (*out = cached_rows(t, rel, err)) ? 0 : -1;
}

void tstore_snapshot_release(tstore_t *t, tcache_entry_t *e)
{
    tcache_release(t->cache, e);
}

int tstore_scan(tstore_t *t, tstore_conn_t *conn, const plan_relation_t *rel, int with_rowid,
                sl_arena_t *a, int (*emit)(void *arg, exec_batch_t *b, sl_error_t *err), void *arg,
                sl_error_t *err)
{
    /* The rows are read under the lock, then emitted without it, so that the
     * consumer may itself use the store (INSERT INTO t SELECT ... FROM t). */
    int own = tstore_conn_in_txn(conn);
    if (!own && !with_rowid && t->cache) {
        tcache_entry_t *e = cached_rows(t, rel, err);
        if (!e) return -1;
        exec_batch_t *const *batches;
        int n = tcache_batches(e, &batches), rc = 0;
        for (int i = 0; rc == 0 && i < n; i++)
            rc = emit(arg, exec_batch_shallow_copy(batches[i], a), err);
        tcache_release(t->cache, e);
        return rc;
    }
    scan_out_t out = {.a = a};
    int rc =
        read_rows(own ? conn->db : t->db, own ? &conn->lock : &t->lock, rel, with_rowid, &out, err);
    for (int i = 0; rc == 0 && i < out.n; i++) rc = emit(arg, out.batches[i], err);
    return rc;
}

int tstore_delete(tstore_t *t, tstore_conn_t *conn, const char *name, const int64_t *rowids,
                  int64_t n, sl_error_t *err)
{
    tstore_use_t u;
    if (tstore_use_write(t, conn, &u, err) < 0) return -1;
    sl_buf_t sql = SL_BUF_INIT;
    sl_buf_puts(&sql, "DELETE FROM ");
    tstore_table_name(&sql, name);
    sl_buf_puts(&sql, " WHERE rowid = ?");
    int rc = 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(u.db, sql.data, -1, &st, NULL) != SQLITE_OK)
        rc = sqlite_error(u.db, name, err);
    for (int64_t i = 0; rc == 0 && i < n; i++) {
        sqlite3_bind_int64(st, 1, rowids[i]);
        if (sqlite3_step(st) != SQLITE_DONE) rc = sqlite_error(u.db, name, err);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    sl_buf_free(&sql);
    return tstore_use_end(&u, rc == 0, err);
}
