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
};

/* SQLite column affinity used for a sluice type. */
const char *tstore_affinity(exec_type_t type);
/* Appends the quoted SQLite name of a table's storage. */
void tstore_table_name(sl_buf_t *b, const char *name);

#endif
