/* Static table rows in SQLite: inserting batches, scanning into batches,
 * deleting by row id, each on the connection table_store.h's rule picks. */
#include <stdio.h>
#include <string.h>

#include "common/buf.h"
#include "model/text_io.h"
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
    tstore_table_name(&sql, rel->name);
    sl_buf_puts(&sql, " VALUES (");
    for (int i = 0; i < rel->ncols; i++) sl_buf_puts(&sql, i ? ", ?" : "?");
    sl_buf_puts(&sql, ")");
    sqlite3_stmt *st = NULL;
    sqlite3_prepare_v2(db, sql.data, -1, &st, NULL);
    sl_buf_free(&sql);
    return st;
}

int tstore_insert(tstore_t *t, tstore_conn_t *conn, const plan_relation_t *rel, const exec_batch_t *b,
                  sl_error_t *err)
{
    tstore_use_t u;
    if (tstore_use_write(t, conn, &u, err) < 0) return -1;
    sl_buf_t tmp = SL_BUF_INIT;
    int rc = 0;
    sqlite3_stmt *st = prepare_insert(u.db, rel);
    if (!st) rc = sqlite_error(u.db, rel->name, err);
    for (uint32_t k = 0; rc == 0 && k < exec_batch_count(b); k++) {
        uint32_t row = exec_batch_row(b, k);
        for (int c = 0; c < rel->ncols; c++) tstore_bind_cell(st, c + 1, &b->cols[c], row, &tmp);
        if (sqlite3_step(st) != SQLITE_DONE) rc = sqlite_error(u.db, rel->name, err);
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
    case EXEC_TYPE_BOOLEAN: exec_builder_set_bool(bld, col, row, sqlite3_column_int64(st, c) != 0); return 0;
    case EXEC_TYPE_INT:
    case EXEC_TYPE_DATE: exec_builder_set_int(bld, col, row, (int32_t)sqlite3_column_int64(st, c)); return 0;
    case EXEC_TYPE_BIGINT:
    case EXEC_TYPE_TIMESTAMP: exec_builder_set_bigint(bld, col, row, sqlite3_column_int64(st, c)); return 0;
    case EXEC_TYPE_DOUBLE: exec_builder_set_double(bld, col, row, sqlite3_column_double(st, c)); return 0;
    case EXEC_TYPE_BINARY:
        exec_builder_set_str(bld, col, row, sqlite3_column_blob(st, c), (size_t)sqlite3_column_bytes(st, c));
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
    for (int i = 0; i < rel->ncols; i++) sl_buf_printf(&sql, ", c%d", i);
    sl_buf_puts(&sql, " FROM ");
    tstore_table_name(&sql, rel->name);
    sl_buf_puts(&sql, " ORDER BY rowid");
    sqlite3_stmt *st = NULL;
    sqlite3_prepare_v2(db, sql.data, -1, &st, NULL);
    sl_buf_free(&sql);
    return st;
}

int tstore_scan(tstore_t *t, tstore_conn_t *conn, const plan_relation_t *rel, int with_rowid, sl_arena_t *a,
                int (*emit)(void *arg, exec_batch_t *b, sl_error_t *err), void *arg,
                sl_error_t *err)
{
    int ncols = rel->ncols + (with_rowid ? 1 : 0);
    exec_type_t *types = SL_NEW_ARRAY(a, exec_type_t, ncols);
    memcpy(types, rel->col_types, sizeof *types * (size_t)rel->ncols);
    if (with_rowid) types[rel->ncols] = exec_type_of(EXEC_TYPE_BIGINT);
    /* The rows are read under the lock, then emitted without it, so that the
     * consumer may itself use the store (INSERT INTO t SELECT ... FROM t). */
    int nbatches = 0, cap = 4;
    exec_batch_t **batches = SL_NEW_ARRAY(a, exec_batch_t *, cap);
    int own = tstore_conn_in_txn(conn);
    sqlite3 *db = own ? conn->db : t->db;
    pthread_mutex_t *lock = own ? &conn->lock : &t->lock;
    pthread_mutex_lock(lock);
    sqlite3_stmt *st = prepare_scan(db, rel);
    int rc = st ? 0 : sqlite_error(db, rel->name, err), step = SQLITE_DONE;
    exec_builder_t bld;
    exec_builder_init(&bld, a, ncols, types, EXEC_BATCH_ROWS);
    while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
        uint32_t row = exec_builder_add_row(&bld);
        for (int c = 0; rc == 0 && c < rel->ncols; c++)
            rc = read_cell(st, c + 1, &bld, c, row, rel->col_types[c], err);
        if (with_rowid) exec_builder_set_bigint(&bld, rel->ncols, row, sqlite3_column_int64(st, 0));
        if (bld.batch->nrows < EXEC_BATCH_ROWS) continue;
        if (nbatches == cap) {
            batches = sl_arena_realloc(a, batches, sizeof *batches * (size_t)cap,
                                       sizeof *batches * (size_t)cap * 2);
            cap *= 2;
        }
        batches[nbatches++] = exec_builder_finish(&bld);
        exec_builder_init(&bld, a, ncols, types, EXEC_BATCH_ROWS);
    }
    if (rc == 0 && step != SQLITE_DONE) rc = sqlite_error(db, rel->name, err);
    sqlite3_finalize(st);
    pthread_mutex_unlock(lock);
    for (int i = 0; rc == 0 && i < nbatches; i++) rc = emit(arg, batches[i], err);
    if (rc == 0 && bld.batch->nrows > 0) rc = emit(arg, exec_builder_finish(&bld), err);
    return rc;
}

int tstore_delete(tstore_t *t, tstore_conn_t *conn, const char *name, const int64_t *rowids, int64_t n,
                  sl_error_t *err)
{
    tstore_use_t u;
    if (tstore_use_write(t, conn, &u, err) < 0) return -1;
    sl_buf_t sql = SL_BUF_INIT;
    sl_buf_puts(&sql, "DELETE FROM ");
    tstore_table_name(&sql, name);
    sl_buf_puts(&sql, " WHERE rowid = ?");
    int rc = 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(u.db, sql.data, -1, &st, NULL) != SQLITE_OK) rc = sqlite_error(u.db, name, err);
    for (int64_t i = 0; rc == 0 && i < n; i++) {
        sqlite3_bind_int64(st, 1, rowids[i]);
        if (sqlite3_step(st) != SQLITE_DONE) rc = sqlite_error(u.db, name, err);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    sl_buf_free(&sql);
    return tstore_use_end(&u, rc == 0, err);
}
