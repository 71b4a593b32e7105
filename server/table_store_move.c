/* Moving static tables out of catalog.db: before tables.db existed, the
 * rows of static tables lived in catalog.db beside the catalog, so a
 * transaction that held their write lock held the catalog's too. At open
 * the store copies each old "table:<name>" into tables.db (its CREATE
 * statement, then its rows in rowid order) and drops it from catalog.db.
 * Each table is copied in one transaction and dropped only after, and a
 * table already in tables.db is not copied again, so a move cut short by a
 * crash goes on at the next start. */
#include <stdio.h>
#include <string.h>

#include "common/buf.h"
#include "common/log.h"
#include "server/table_store.h"
#include "server/table_store_int.h"

static int exec_sql(tstore_t *t, const char *sql, sl_error_t *err)
{
    char *msg = NULL;
    if (sqlite3_exec(t->db, sql, NULL, NULL, &msg) == SQLITE_OK) return 0;
    sl_error_set(err, SL_ERR_IO_ERROR, "moving tables out of catalog.db: %s",
                 msg ? msg : "unknown error");
    sqlite3_free(msg);
    return -1;
}

/* 1 when main (tables.db) already has the SQLite table `name`. */
static int has_table(tstore_t *t, const char *name)
{
    sqlite3_stmt *st = NULL;
    sqlite3_prepare_v2(t->db, "SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = ?",
                       -1, &st, NULL);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    int found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return found;
}

/* Copies one table (unless copied before), then drops it from catalog.db. */
static int move_table(tstore_t *t, const char *name, const char *create_sql, sl_error_t *err)
{
    sl_buf_t q = SL_BUF_INIT;
    int rc = 0;
    if (!has_table(t, name)) {
        sl_buf_printf(&q, "BEGIN; %s; INSERT INTO main.", create_sql);
        tstore_table_name(&q, name + 6);
        sl_buf_puts(&q, " SELECT * FROM old.");
        tstore_table_name(&q, name + 6);
        sl_buf_puts(&q, " ORDER BY rowid; COMMIT");
        rc = exec_sql(t, q.data, err);
        if (rc < 0) sqlite3_exec(t->db, "ROLLBACK", NULL, NULL, NULL);
    }
    sl_buf_clear(&q);
    sl_buf_puts(&q, "DROP TABLE old.");
    tstore_table_name(&q, name + 6);
    if (rc == 0) rc = exec_sql(t, q.data, err);
    sl_buf_free(&q);
    if (rc == 0) SL_INFO("tables", "moved table %s from catalog.db to tables.db", name + 6);
    return rc;
}

/* The old tables' names and CREATE statements, in arena-free copies. */
static int old_tables(tstore_t *t, sl_buf_t *names)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(t->db,
                           "SELECT name, sql FROM old.sqlite_schema WHERE type = 'table' "
                           "AND name LIKE 'table:%'",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        sl_buf_puts(names, (const char *)sqlite3_column_text(st, 0));
        sl_buf_putc(names, '\0');
        /* the CREATE statement, made to create in main */
        const char *sql = (const char *)sqlite3_column_text(st, 1);
        sl_buf_puts(names, "CREATE TABLE main.");
        sl_buf_puts(names, sql + strlen("CREATE TABLE "));
        sl_buf_putc(names, '\0');
        n++;
    }
    sqlite3_finalize(st);
    return n;
}

int tstore_move_from_catalog(tstore_t *t, const char *dir, sl_error_t *err)
{
    char *attach = sqlite3_mprintf("ATTACH DATABASE '%q/catalog.db' AS old", dir);
    int rc = exec_sql(t, attach, err);
    sqlite3_free(attach);
    if (rc < 0) return -1;
    sl_buf_t list = SL_BUF_INIT;
    int n = old_tables(t, &list);
    const char *p = list.data;
    for (int i = 0; rc == 0 && i < n; i++) {
        const char *name = p, *sql = name + strlen(name) + 1;
        rc = move_table(t, name, sql, err);
        p = sql + strlen(sql) + 1;
    }
    sl_buf_free(&list);
    sl_error_t ignored;
    exec_sql(t, "DETACH DATABASE old", &ignored);
    return rc;
}
