/* Static table storage in SQLite: opening tables.db, creation and removal
 * of the per-table SQLite tables; reading and writing rows is in
 * table_store_rows.c, the connections and transactions of sessions in
 * table_store_conn.c, the move of tables out of catalog.db (where older
 * versions kept them) in table_store_move.c. */
#include "server/table_store.h"

#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/log.h"
#include "common/private_file.h"
#include "server/table_store_int.h"

tstore_t *tstore_open(const char *dir, size_t cache_bytes, sl_error_t *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tables.db", dir);
    tstore_t *t = sl_xcalloc(1, sizeof *t);
    t->path = sl_xstrdup(path);
    pthread_mutex_init(&t->lock, NULL);
    if (cache_bytes) t->cache = tcache_new(cache_bytes);
    if (sl_private_file(path) < 0) {
        sl_error_set(err, SL_ERR_IO_ERROR, "could not create table storage \"%s\": %s", path,
                     strerror(errno));
        tstore_close(t);
        return NULL;
    }
    if (sqlite3_open_v2(path, &t->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        NULL) != SQLITE_OK) {
        sl_error_set(err, SL_ERR_IO_ERROR, "could not open table storage \"%s\": %s", path,
                     t->db ? sqlite3_errmsg(t->db) : "out of memory");
        tstore_close(t);
        return NULL;
    }
    sqlite3_busy_timeout(t->db, 10000);
    sqlite3_exec(t->db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL", NULL, NULL, NULL);
    if (tstore_move_from_catalog(t, dir, err) < 0) {
        tstore_close(t);
        return NULL;
    }
    return t;
}

void tstore_close(tstore_t *t)
{
    if (!t) return;
    if (t->db) sqlite3_close(t->db);
    tcache_free(t->cache);
    pthread_mutex_destroy(&t->lock);
    free(t->path);
    free(t);
}

const char *tstore_affinity(exec_type_t type)
{
    switch (type.id) {
    case EXEC_TYPE_BOOLEAN:
    case EXEC_TYPE_INT:
    case EXEC_TYPE_BIGINT:
    case EXEC_TYPE_DATE:
    case EXEC_TYPE_TIMESTAMP: return "INTEGER";
    case EXEC_TYPE_DOUBLE: return "REAL";
    case EXEC_TYPE_BINARY: return "BLOB";
    default: return "TEXT";
    }
}

void tstore_table_name(sl_buf_t *b, const char *name)
{
    sl_buf_puts(b, "\"table:");
    for (const char *p = name; *p; p++) {
        if (*p == '"') sl_buf_putc(b, '"');
        sl_buf_putc(b, *p);
    }
    sl_buf_putc(b, '"');
}

/* Runs DDL through the session's connection (in its transaction when one
 * is open; outside one it does not wait for the write lock), or the
 * store's. */
static int run_ddl(tstore_t *t, tstore_conn_t *c, const char *sql, char **msg)
{
    pthread_mutex_t *lock = c ? &c->lock : &t->lock;
    pthread_mutex_lock(lock);
    int rc = sqlite3_exec(c ? c->db : t->db, sql, NULL, NULL, msg);
    pthread_mutex_unlock(lock);
    if (!tstore_conn_in_txn(c)) tstore_released(t);
    return rc;
}

int tstore_create(tstore_t *t, tstore_conn_t *c, const plan_relation_t *rel, sl_error_t *err)
{
    sl_buf_t sql = SL_BUF_INIT;
    sl_buf_puts(&sql, "DROP TABLE IF EXISTS ");
    tstore_table_name(&sql, rel->stream.name);
    sl_buf_puts(&sql, "; CREATE TABLE ");
    tstore_table_name(&sql, rel->stream.name);
    sl_buf_puts(&sql, " (");
    for (int i = 0; i < rel->stream.ncols; i++)
        sl_buf_printf(&sql, "%sc%d %s", i ? ", " : "", i,
                      tstore_affinity(rel->stream.col_types[i]));
    sl_buf_puts(&sql, ")");
    char *msg = NULL;
    int rc = run_ddl(t, c, sql.data, &msg);
    sl_buf_free(&sql);
    if (rc != SQLITE_OK) {
        sl_error_set(err, SL_ERR_IO_ERROR, "could not create storage of table \"%s\": %s",
                     rel->stream.name, msg ? msg : "unknown error");
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

void tstore_drop(tstore_t *t, tstore_conn_t *c, const char *name)
{
    sl_buf_t sql = SL_BUF_INIT;
    sl_buf_puts(&sql, "DROP TABLE IF EXISTS ");
    tstore_table_name(&sql, name);
    char *msg = NULL;
    if (run_ddl(t, c, sql.data, &msg) != SQLITE_OK)
        SL_WARN("tables", "could not drop storage of table %s: %s", name,
                msg ? msg : "unknown error");
    sqlite3_free(msg);
    sl_buf_free(&sql);
}
