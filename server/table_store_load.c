/* Bulk loads into static tables (COPY FROM): a TEMP staging table per load
 * on the store's connection, filled batch by batch with one prepared INSERT
 * (each batch a savepoint, the store's lock held only for the batch), then
 * one savepoint (a transaction, unless the connection has one open) that
 * copies the staged rows into the table in order and drops the staging
 * table. A crash or an abort leaves nothing behind:
 * TEMP tables vanish with the connection. */
#include <stdio.h>
#include <stdlib.h>

#include "common/buf.h"
#include "server/table_store.h"
#include "server/table_store_int.h"

struct tstore_load {
    tstore_t *t;
    char *name;          /* the table's name (error messages) */
    sl_buf_t target;     /* quoted name of the table's storage */
    sl_buf_t staging;    /* temp."load:<n>" */
    int ncols;
    sqlite3_stmt *ins;   /* INSERT INTO staging VALUES (?, ...) */
    sl_buf_t tmp;        /* text of a cell being bound */
};

static int load_error(tstore_load_t *l, sl_error_t *err)
{
    return sl_error_set(err, SL_ERR_IO_ERROR, "table \"%s\": storage error: %s", l->name,
                        sqlite3_errmsg(l->t->db));
}

static void load_free(tstore_load_t *l)
{
    if (l->ins) sqlite3_finalize(l->ins);
    sl_buf_free(&l->target);
    sl_buf_free(&l->staging);
    sl_buf_free(&l->tmp);
    free(l->name);
    free(l);
}

/* CREATE TEMP TABLE and the prepared INSERT. Store lock held. */
static int load_prepare(tstore_load_t *l, const plan_relation_t *rel, sl_error_t *err)
{
    sl_buf_t sql = SL_BUF_INIT;
    sl_buf_printf(&sql, "CREATE TEMP TABLE %s (", l->staging.data + 5); /* without "temp." */
    for (int i = 0; i < rel->ncols; i++)
        sl_buf_printf(&sql, "%sc%d %s", i ? ", " : "", i, tstore_affinity(rel->col_types[i]));
    sl_buf_puts(&sql, ")");
    int rc = sqlite3_exec(l->t->db, sql.data, NULL, NULL, NULL) == SQLITE_OK ? 0 : load_error(l, err);
    sl_buf_clear(&sql);
    sl_buf_printf(&sql, "INSERT INTO %s VALUES (", l->staging.data);
    for (int i = 0; i < rel->ncols; i++) sl_buf_puts(&sql, i ? ", ?" : "?");
    sl_buf_puts(&sql, ")");
    if (rc == 0 && sqlite3_prepare_v2(l->t->db, sql.data, -1, &l->ins, NULL) != SQLITE_OK)
        rc = load_error(l, err);
    sl_buf_free(&sql);
    return rc;
}

tstore_load_t *tstore_load_begin(tstore_t *t, const plan_relation_t *rel, sl_error_t *err)
{
    tstore_load_t *l = sl_xcalloc(1, sizeof *l);
    l->t = t;
    l->name = sl_xstrdup(rel->name);
    l->ncols = rel->ncols;
    tstore_table_name(&l->target, rel->name);
    pthread_mutex_lock(&t->lock);
    sl_buf_printf(&l->staging, "temp.\"load:%llu\"", (unsigned long long)++t->next_load);
    int rc = load_prepare(l, rel, err);
    pthread_mutex_unlock(&t->lock);
    if (rc == 0) return l;
    tstore_load_abort(l);
    return NULL;
}

int tstore_load_rows(tstore_load_t *l, const exec_batch_t *b, sl_error_t *err)
{
    int rc = 0;
    pthread_mutex_lock(&l->t->lock);
    sqlite3_exec(l->t->db, "SAVEPOINT load_rows", NULL, NULL, NULL);
    for (uint32_t k = 0; rc == 0 && k < exec_batch_count(b); k++) {
        uint32_t row = exec_batch_row(b, k);
        for (int c = 0; c < l->ncols; c++) tstore_bind_cell(l->ins, c + 1, &b->cols[c], row, &l->tmp);
        if (sqlite3_step(l->ins) != SQLITE_DONE) rc = load_error(l, err);
        sqlite3_reset(l->ins);
    }
    if (rc < 0) sqlite3_exec(l->t->db, "ROLLBACK TO load_rows", NULL, NULL, NULL);
    sqlite3_exec(l->t->db, "RELEASE load_rows", NULL, NULL, NULL);
    pthread_mutex_unlock(&l->t->lock);
    return rc;
}

/* Drops the staging table. Store lock held. */
static void load_drop(tstore_load_t *l)
{
    sl_buf_t sql = SL_BUF_INIT;
    sl_buf_printf(&sql, "DROP TABLE IF EXISTS %s", l->staging.data);
    sqlite3_exec(l->t->db, sql.data, NULL, NULL, NULL);
    sl_buf_free(&sql);
}

int tstore_load_commit(tstore_load_t *l, int64_t *nrows, sl_error_t *err)
{
    sl_buf_t sql = SL_BUF_INIT;
    sl_buf_printf(&sql, "INSERT INTO %s SELECT * FROM %s ORDER BY rowid", l->target.data,
                  l->staging.data);
    *nrows = 0;
    pthread_mutex_lock(&l->t->lock);
    sqlite3_finalize(l->ins);
    l->ins = NULL;
    /* A savepoint is a transaction of its own, or nests in one the
     * connection has open (it then takes effect with that one). */
    int rc = sqlite3_exec(l->t->db, "SAVEPOINT load_commit", NULL, NULL, NULL) == SQLITE_OK ? 0 : load_error(l, err);
    if (rc == 0 && sqlite3_exec(l->t->db, sql.data, NULL, NULL, NULL) != SQLITE_OK) rc = load_error(l, err);
    if (rc == 0) *nrows = sqlite3_changes64(l->t->db);
    load_drop(l);
    if (rc == 0 && sqlite3_exec(l->t->db, "RELEASE load_commit", NULL, NULL, NULL) != SQLITE_OK)
        rc = load_error(l, err);
    if (rc < 0) {
        sqlite3_exec(l->t->db, "ROLLBACK TO load_commit", NULL, NULL, NULL);
        sqlite3_exec(l->t->db, "RELEASE load_commit", NULL, NULL, NULL);
        load_drop(l);
        *nrows = 0;
    }
    pthread_mutex_unlock(&l->t->lock);
    sl_buf_free(&sql);
    load_free(l);
    return rc;
}

void tstore_load_abort(tstore_load_t *l)
{
    pthread_mutex_lock(&l->t->lock);
    if (l->ins) sqlite3_finalize(l->ins);
    l->ins = NULL;
    load_drop(l);
    pthread_mutex_unlock(&l->t->lock);
    load_free(l);
}
