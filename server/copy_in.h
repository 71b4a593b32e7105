/* COPY FROM STDIN's load: the bytes the client sends, in chunks as they
 * arrive, become rows of a static table. Each chunk is parsed (text or
 * CSV, server/copy_format.h) and staged on the worker pool
 * (tstore_load_*); the last one commits, so the table gets every row or
 * none. The connection (server/pgwire_copy.c) feeds the chunks one job at
 * a time and reads no more input while a job runs and its buffer is full,
 * which is the flow control.
 *
 * Threads: copy_in_new runs on a worker (in the COPY statement); feed and
 * close on the loop thread; jobs on the worker pool. An object outlives a
 * closed connection until its job in flight has finished. */
#ifndef SL_COPY_IN_H
#define SL_COPY_IN_H

#include <stdint.h>

#include "common/buf.h"
#include "common/sl_error.h"
#include "server/copy_format.h"
#include "server/server.h"

typedef struct copy_in copy_in_t;

/* What COPY FROM was asked for. Strings are copied by copy_in_new. */
typedef struct copy_in_spec {
    const char *table;            /* a catalog-stored table (checked by the statement) */
    int nfields;                  /* fields per record */
    const int *target;            /* target[i]: the table column of field i */
    copy_opts_t opts;
    const unsigned char *force_not_null; /* per field, or NULL */
    const unsigned char *force_null;
} copy_in_spec_t;

/* After a job, on the loop thread: err NULL when it went well; nrows is the
 * number of rows added (after the last chunk). */
typedef void (*copy_in_cb)(void *arg, const sl_error_t *err, uint64_t nrows);

/* A load for `spec`; NULL with err when the table is gone. */
copy_in_t *copy_in_new(srv_t *srv, const copy_in_spec_t *spec, sl_error_t *err);
/* True while a job runs. */
int copy_in_busy(const copy_in_t *ci);
/* Parses and stages `data` (its bytes are taken; the buffer is left empty)
 * on the worker pool; with `last` the data ends and the load commits.
 * `cb` follows once. Not while busy. */
void copy_in_feed(copy_in_t *ci, sl_buf_t *data, int last, copy_in_cb cb, void *arg);
/* The connection is done with the load (finished, failed, abandoned): no
 * more callbacks; rows not committed are dropped after the job in flight;
 * the object is freed. */
void copy_in_close(copy_in_t *ci);

#endif
