/* Internals of the static table store shared by its files. */
#ifndef SL_TABLE_STORE_INT_H
#define SL_TABLE_STORE_INT_H

#include <pthread.h>
#include <sqlite3.h>

#include "common/buf.h"
#include "server/table_store.h"

struct tstore {
    sqlite3 *db;
    pthread_mutex_t lock;
    uint64_t next_load;   /* names the staging table of the next bulk load (under lock) */
};

/* SQLite column affinity used for a sluice type. */
const char *tstore_affinity(exec_type_t type);
/* Binds cell `row` of vector `v` to parameter `param` (tmp: scratch for text). */
void tstore_bind_cell(sqlite3_stmt *st, int param, const exec_vec_t *v, uint32_t row, sl_buf_t *tmp);
/* Appends the quoted SQLite name of a table's storage. */
void tstore_table_name(sl_buf_t *b, const char *name);

#endif
