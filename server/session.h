/* Sessions: statement execution for one client (a pgwire connection, or the
 * startup file). A session runs one submission at a time on the worker pool
 * and hands the reply back on the loop thread; the caller (pgwire) encodes it.
 *
 * A submission is the text of a simple Query message (one or more statements
 * separated by ';') or one statement of the extended protocol with its text
 * parameters ($1, $2, ...). Statements run in order; the first error stops
 * the submission. Transactions and settings are the session's own
 * (server/txn.h, server/guc.h): outside a block each statement commits on
 * its own; BEGIN ... COMMIT groups statements as PostgreSQL does. */
#ifndef SL_SESSION_H
#define SL_SESSION_H

#include <stdint.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/sl_error.h"
#include "server/server.h"

/* PostgreSQL type OIDs used in RowDescription. */
#define PG_OID_BOOL 16
#define PG_OID_BYTEA 17
#define PG_OID_INT8 20
#define PG_OID_INT4 23
#define PG_OID_TEXT 25
#define PG_OID_JSON 114
#define PG_OID_FLOAT8 701
#define PG_OID_DATE 1082
#define PG_OID_TIMESTAMP 1114
#define PG_OID_INTERVAL 1186
#define PG_OID_NUMERIC 1700

typedef struct sess sess_t;

typedef struct sess_col {
    const char *name;
    uint32_t type_oid; /* PG_OID_* */
    int16_t type_len;  /* pg_type.typlen: 1, 2, 4, 8, or -1 for variable length */
    int32_t type_mod;  /* -1, or numeric's ((p << 16) | s) + 4 */
} sess_col_t;

typedef enum {
    SESS_RES_COMMAND,  /* CommandComplete(tag) only */
    SESS_RES_ROWS,     /* RowDescription(cols), one DataRow per row, CommandComplete(tag) */
    SESS_RES_EMPTY,    /* EmptyQueryResponse: the text held no statement */
    SESS_RES_ERROR,    /* ErrorResponse(error); the submission stopped here */
    SESS_RES_COPY_OUT, /* CopyOutResponse(ncols), one CopyData per line of `rows`, CopyDone,
                         CommandComplete(tag) */
    SESS_RES_COPY_IN   /* CopyInResponse(ncols); the connection feeds `copy_in` with the
                         client's CopyData and ends with CommandComplete or an error. The
                         submission stops here; `rest` runs after the COPY. */
} sess_res_kind_t;

struct copy_in;

typedef struct sess_result {
    sess_res_kind_t kind;
    char tag[64]; /* command tag, e.g. "SELECT 3", "CREATE STREAM" */
    int ncols;
    sess_col_t *cols;
    uint64_t nrows;
    /* Rows back to back, each exactly the body of a DataRow message:
     * uint16be column count, then per column int32be length (-1 = NULL)
     * followed by that many bytes of PostgreSQL text format. */
    sl_buf_t rows;           /* COPY_OUT: each line as uint32be length + bytes */
    struct copy_in *copy_in; /* COPY_IN: the load, closed with the reply unless taken (NULLed) */
    const char *rest;        /* COPY_IN: the statements after it in the submission, or NULL */
    sl_error_t error;        /* SESS_RES_ERROR: position counts characters of the submitted text */
    int nnotices;            /* NoticeResponses sent before this result: severity NOTICE
                              for SQLSTATE 00000, WARNING for any other */
    sl_error_t *notices;
    struct sess_result *next;
} sess_result_t;

typedef struct sess_reply {
    sess_result_t *first; /* in statement order; the last is the error, if any */
    int nparams;          /* describe_only: highest $n used by the statement */
    /* describe_only: the type OIDs inferred for undeclared $n from their use
     * (0 = none inferred), max(the request's nparams, nparams) entries */
    uint32_t *param_types;
    sl_arena_t *arena; /* owns every result (rows buffers are freed by sess_reply_free) */
} sess_reply_t;

typedef struct sess_request {
    const char *sql; /* need not be NUL-terminated */
    size_t len;
    int single;        /* extended protocol: more than one statement is an error */
    int describe_only; /* report the result columns (or none) without running */
    int nparams;       /* values for $1..$n, NULL pointer = SQL NULL */
    const char *const *params;
    const int *param_lens;
    /* NULL, or nparams type OIDs declared for $1..$n (Parse's, or the
     * client's with Bind); 0 = undeclared. A declared type types the text
     * value (int4 binds as INT, numeric as DECIMAL...); see pgw_bin_param_type. */
    const uint32_t *param_types;
} sess_request_t;

/* Called on the loop thread with the reply, which the callee frees with
 * sess_reply_free(). Never called after sess_close(). */
typedef void (*sess_done_cb)(sess_t *s, sess_reply_t *reply, void *arg);

/* The session's user and database names (set at startup; any thread). */
const char *sess_user(const sess_t *s);
const char *sess_database(const sess_t *s);
/* A new session for an authenticated user. Loop thread. */
sess_t *sess_new(srv_t *srv, const char *user, const char *database);
/* Runs a submission on the worker pool; `cb` gets the reply. Returns -1
 * (and does nothing) if a submission is already in flight. Loop thread. The
 * request's buffers are copied before return. */
int sess_submit(sess_t *s, const sess_request_t *req, sess_done_cb cb, void *arg);
/* Asks the running statement to stop with 57014 "canceling statement due to
 * user request"; no effect when idle. Loop thread: a statement on a worker
 * polls the flag this sets, one parked in AWAIT QUERY or waiting for the
 * table store's write lock (server/txn.h) is answered at once. */
void sess_cancel(sess_t *s);
/* True while a submission is in flight. */
int sess_busy(const sess_t *s);
/* Ends the session. A submission in flight finishes on its worker (one
 * parked in AWAIT QUERY or waiting for the write lock ends at once), its
 * reply is dropped, and the session is freed afterwards (after its COPY
 * FROM load too, if one is open: stmt.h). Loop thread. */
void sess_close(sess_t *s);
void sess_reply_free(sess_reply_t *reply);

/* ReadyForQuery's transaction status: 'I' idle, 'T' in a block, 'E' in a
 * failed block. Loop thread, between submissions. */
char sess_txn_status(const sess_t *s);
/* An error outside any statement (the extended protocol's own): a block
 * becomes failed. Loop thread. */
void sess_txn_error(sess_t *s);
/* A setting of the startup packet (or its options); 42704/22023/55P02 as
 * SET. Loop thread, before the first submission. */
int sess_startup_setting(sess_t *s, const char *name, const char *value, sl_error_t *err);
/* How long the session may stay idle between statements (0: no limit):
 * idle_in_transaction_session_timeout inside a block, idle_session_timeout
 * outside. Loop thread, between submissions. */
int64_t sess_idle_timeout_ms(const sess_t *s);
/* Whether client_min_messages lets a NOTICE (warning 0) or a WARNING
 * (warning 1) through. Loop thread, between submissions. */
int sess_wants_notice(const sess_t *s, int warning);
/* ParameterStatus: calls `cb` for each reported setting whose value changed
 * since the last call (every one on the first). Loop thread. */
void sess_report_settings(sess_t *s, void (*cb)(void *arg, const char *name, const char *value),
                          void *arg);

/* Appends one row (ncols values, NULL = SQL NULL) to a ROWS result. */
void sess_result_add_row(sess_result_t *r, int ncols, const char *const *vals, const int *lens);

#endif
