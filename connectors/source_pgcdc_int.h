/* What the postgres_cdc source's files share (connectors/source_pgcdc*.c
 * only): the source's state, the change buffer filled from the replication
 * stream, and the PostgreSQL side (source_pgcdc_pg.c: connections, checks,
 * the slot, the snapshot files, the stream). */
#ifndef SL_SOURCE_PGCDC_INT_H
#define SL_SOURCE_PGCDC_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "connectors/conn_int.h"
#include "connectors/pgoutput.h"

/* One row the stream will produce: an insert, a delete, or one half of an
 * update (the before image with sign -1, the after image with +1). One
 * malloc'd block; vals[i]/lens[i] per stream column, NULL = SQL NULL. */
typedef struct cdc_change {
    uint64_t end_lsn;  /* its transaction's commit end; 0 while it is open */
    int64_t commit_us; /* its transaction's commit time (Unix us) */
    char op;           /* 'c', 'u' or 'd' */
    int8_t sign;
    const char **vals;
    uint32_t *lens;
} cdc_change_t;

/* A relation announced by the stream: which stream column each of its
 * columns feeds (-1: none), and whether it is one of the `tables`. */
typedef struct cdc_rel {
    uint32_t relid;
    bool wanted;
    char *name; /* schema.table */
    int ncols;
    int *to_stream;
} cdc_rel_t;

typedef struct pgcdc {
    /* options */
    const char *url, *password, *publication, *slot;
    char **tables; /* schema.name, schema defaulting to public */
    int ntables;
    bool fail_on_loss, snapshot;
    int64_t max_changes;
    /* metadata columns of the stream, -1 when not declared */
    int col_op, col_sign, col_lsn, col_time;
    const conn_stream_t *rel;
    const char *dir; /* the source's checkpoint directory */
    /* the snapshot batch (0/0, snap_lsn]: read from dir/snapshot.<k> */
    bool have_init;
    uint64_t snap_lsn;
    int64_t snap_us;
    /* PostgreSQL */
    PGconn *sql;     /* catalog queries */
    PGconn *repl;    /* replication connection while streaming */
    bool streamed;   /* a stream was started once (later failures are retried) */
    uint64_t resume; /* end of the last whole transaction buffered or handed out */
    uint64_t confirmed;
    uint64_t received;  /* the server's last reported position */
    uint64_t avail_now; /* AVAILABLE NOW: end point, 0 when unset */
    int64_t last_status_us;
    cdc_rel_t *rels;
    int nrels;
    /* the buffer: [0, ncommitted) whole transactions, [ncommitted, n) the open one */
    cdc_change_t **buf;
    size_t n, ncommitted, cap;
} pgcdc_t;

/* ---- source_pgcdc_pg.c ---- */

/* Connects the catalog connection (sql) when it is not; -1 with err
 * (08001 refused or bad URL, 28P01 password, else the server's SQLSTATE). */
int pgcdc_connect_sql(pgcdc_t *c, sl_error_t *err);
/* The publication exists, each table exists with REPLICA IDENTITY FULL and
 * is published, and every data column of the stream is a column of one. */
int pgcdc_check_tables(pgcdc_t *c, sl_error_t *err);
/* First start of a query: creates the slot (when snapshot, exporting its
 * snapshot and copying the tables into dir/snapshot.<k>) and writes
 * dir/init ("<lsn>\n<us>\n"); then fills snap_lsn / snap_us. A restart
 * reads dir/init. */
int pgcdc_init(pgcdc_t *c, sl_error_t *err);
/* Starts streaming from `start` (no-op when streaming): checks the slot
 * (failOnDataLoss), START_REPLICATION. */
int pgcdc_stream_start(pgcdc_t *c, uint64_t start, sl_error_t *err);
/* Reads what the stream has into the buffer. `until`: keep reading (up to
 * a deadline) until a whole transaction ending at or past it is buffered
 * (or the server reports being past it, when `server_pos`); 0 = only what
 * is available now. Stops early once `max` whole changes are buffered (0 =
 * no limit). Reconnects after a lost connection with backoff. */
int pgcdc_pump(pgcdc_t *c, uint64_t until, bool server_pos, size_t max, sl_error_t *err);
/* Reports `lsn` as flushed to the slot (Standby Status Update). */
int pgcdc_confirm(pgcdc_t *c, uint64_t lsn, sl_error_t *err);
/* pg_current_wal_lsn() of the server. */
int pgcdc_current_lsn(pgcdc_t *c, uint64_t *out, sl_error_t *err);
void pgcdc_disconnect(pgcdc_t *c);
/* Closes the connections and frees the buffer and the relations. */
void pgcdc_free(pgcdc_t *c);
/* Drops the first `k` buffered changes. */
void pgcdc_buffer_drop(pgcdc_t *c, size_t k);

#endif
