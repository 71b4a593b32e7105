/* COPY FROM STDIN's load: the bytes the client sends, in chunks as they
 * arrive, become rows of a static table. Each chunk is parsed (text or
 * CSV, server/copy_format.h) and inserted on the worker pool. The rows go
 * through the session's table store connection, in its transaction, as
 * INSERT's do (server/txn.h): copy_in_new, in the COPY statement, takes
 * the write lock (a busy outcome, before anything was read, makes the
 * session wait for it and run the COPY statement again), and the load
 * keeps it until the statement ends. The statement ends with its last
 * chunk (outside a transaction block it commits then, so the table gets
 * every row or none; inside one its rows stay in the block's transaction,
 * undone by ROLLBACK or ROLLBACK TO a savepoint set before it), or with a
 * failure: a bad record, or copy_in_abort, undoes its rows outside a
 * block; inside one the connection fails the block (sess_txn_error),
 * whose end undoes them. The connection (server/pgwire_copy.c) feeds the
 * chunks one job at a time and reads no more input while a job runs and
 * its buffer is full, which is the flow control.
 *
 * Threads: copy_in_new runs on a worker (in the COPY statement); feed,
 * abort and close on the loop thread; jobs on the worker pool, using the
 * session's transaction between its submissions (no submission runs while
 * the connection is in COPY mode). The session lives until the load is
 * closed (sess_copy_begin/end); an object outlives a closed connection
 * until its job in flight has finished. */
#ifndef SL_COPY_IN_H
#define SL_COPY_IN_H

#include <stdint.h>

#include "common/buf.h"
#include "common/sl_error.h"
#include "server/copy_format.h"
#include "server/server.h"
#include "server/session.h"

typedef struct copy_in copy_in_t;

/* What COPY FROM was asked for. Strings are copied by copy_in_new. */
typedef struct copy_in_spec {
    const char *table; /* a catalog-stored table (checked by the statement) */
    int nfields;       /* fields per record */
    const int *target; /* target[i]: the table column of field i */
    copy_opts_t opts;
    const unsigned char *force_not_null; /* per field, or NULL */
    const unsigned char *force_null;
} copy_in_spec_t;

/* After a job, on the loop thread: err NULL when it went well; nrows is the
 * number of rows added (after the last chunk). */
typedef void (*copy_in_cb)(void *arg, const sl_error_t *err, uint64_t nrows);

/* A load for `spec` in session `sess`'s transaction, holding the write
 * lock; NULL with err when the table is gone, the transaction is read-only
 * (25006) or another session holds the lock (txn_lock_busy tells). */
copy_in_t *copy_in_new(srv_t *srv, sess_t *sess, const copy_in_spec_t *spec, sl_error_t *err);
/* True while a job runs. */
int copy_in_busy(const copy_in_t *ci);
/* Parses and inserts `data` (its bytes are taken; the buffer is left
 * empty) on the worker pool; with `last` the data ends and the statement
 * ends. `cb` follows once; after an error the statement has ended. Not
 * while busy. */
void copy_in_feed(copy_in_t *ci, sl_buf_t *data, int last, copy_in_cb cb, void *arg);
/* The client ends the COPY with an error (CopyFail, a cancel, a protocol
 * violation): after the job in flight, if any, a job ends the statement
 * (undoing its rows outside a block), then `cb` follows (err NULL) in
 * place of the job's callback. Not after the last job was fed. */
void copy_in_abort(copy_in_t *ci, copy_in_cb cb, void *arg);
/* The connection is done with the load (its statement ended, or the
 * session is closing, or the COPY never started): no more callbacks; the
 * object is freed after the job in flight. A COPY whose data never came
 * ends its statement here, having added nothing. */
void copy_in_close(copy_in_t *ci);

#endif
