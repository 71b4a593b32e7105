/* What the postgres sink's files share (connectors/sink_postgres*.c only):
 * the sink's state, the libpq connection with its error mapping and retry
 * classification (sink_postgres_conn.c), and the type mapping, table checks
 * and COPY text encoding (sink_postgres_copy.c). The postgres_cdc source
 * (source_pgcdc*.c) shares the connection failures' SQLSTATE mapping. */
#ifndef SL_SINK_POSTGRES_INT_H
#define SL_SINK_POSTGRES_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "connectors/conn_int.h"

typedef struct pgsink {
    const char *url;      /* the url option, secret references resolved */
    const char *password; /* the password option resolved, or NULL */
    const char *table;    /* the table option, as written ([schema.]name) */
    const char *progress; /* the progressTable option */
    const char *query_id; /* the checkpoint's query id, read at the first batch */
    const char *checkpoint;
    bool create_table;
    int64_t retries, backoff_s;
    int nkeys; /* update: upsert key columns (indexes of result columns) */
    int *keys;
    PGconn *conn;     /* NULL until connected, or after a lost connection */
    sl_arena_t *keep; /* lives as long as the sink */
} pgsink_t;

/* Connects (url, password), sets TimeZone UTC; -1 with err (08001 refused or
 * bad URL, 28P01 a failed password, else the server's SQLSTATE). */
int pgsink_connect(pgsink_t *p, sl_error_t *err);
void pgsink_disconnect(pgsink_t *p);
/* The SQLSTATE of a failed connection from libpq's message (libpq gives no
 * result to read it from): 28P01, 28000, else 08001. The postgres_cdc
 * source maps its connections' failures the same way. */
const char *pgsink_connect_sqlstate(const char *msg);
/* Runs one statement with text parameters; the result must be `want`
 * (PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_COPY_IN). On failure err holds
 * the server's SQLSTATE and message, and *transient says whether a retry
 * may succeed. The caller PQclear()s the result it gets back. */
PGresult *pgsink_exec(pgsink_t *p, const char *sql, int nparams, const char *const *params,
                      ExecStatusType want, bool *transient, sl_error_t *err);
/* Runs CREATE TABLE IF NOT EXISTS `ddl`; a table created meanwhile by
 * another session (42P07, 42710 on its row type, 23505 on the catalog's
 * index) counts as success. */
int pgsink_create_if_missing(pgsink_t *p, const char *ddl, bool *transient, sl_error_t *err);
/* Fills err from a failed result or the connection; sets *transient. */
int pgsink_fail(pgsink_t *p, PGresult *r, bool *transient, sl_error_t *err);

/* The PostgreSQL type sluice maps a column type to ("bigint", "numeric(10,2)"). */
const char *pgsink_pg_type(exec_type_t t, sl_arena_t *a);
/* "schema"."name" (or "name") of a [schema.]name option, quoted. */
const char *pgsink_qualified(const char *name, sl_arena_t *a);
/* A quoted identifier. */
const char *pgsink_ident(const char *name, sl_arena_t *a);
/* Creates `table` (createTable) when missing, then checks its columns
 * against the result: 42703 / 42804 naming the column and both types. */
int pgsink_check_table(pgsink_t *p, const sink_schema_t *sc, bool *transient, sl_error_t *err);
/* COPYs the rows of `batches` (the visible columns) into `target`
 * (quoted), text format; *rows counts them. */
int pgsink_copy(pgsink_t *p, const char *target, const sink_schema_t *sc,
                exec_batch_t *const *batches, int n, int64_t *rows, bool *transient,
                sl_error_t *err);

#endif
