/* Internal interface of the SQL endpoint, shared by its files:
 *
 *   pgwire.c          listeners, connections, the read/write path, closing,
 *                     shutdown, the message loop (framing and length caps)
 *   pgwire_startup.c  startup packet, SSLRequest/GSSENCRequest, CancelRequest,
 *                     authentication exchanges, the post-authentication greeting
 *   pgwire_query.c    simple and extended query, result encoding with
 *                     output backpressure
 *   pgwire_msg.c      encoders of backend messages
 *   pgwire_copy.c     the COPY sub-protocol (CopyOut to the client, CopyIn
 *                     from it with flow control)
 *
 * Everything runs on the loop thread. A connection processes one message at
 * a time; while a session submission runs, or while its output backlog is
 * above PGW_OUT_HIGH, it neither reads the socket nor parses buffered
 * input, so a pipelining client cannot grow our buffers without bound. */
#ifndef SL_PGWIRE_INT_H
#define SL_PGWIRE_INT_H

#include <stdint.h>
#include <uv.h>

#include "common/buf.h"
#include "common/sl_error.h"
#include "common/version.h"
#include "server/auth.h"
#include "server/pgwire.h"
#include "server/prepared.h"
#include "server/server.h"
#include "server/session.h"
#include "server/tls.h"

#define PGW_STARTUP_MIN 8 /* PostgreSQL's bounds on the startup packet */
#define PGW_STARTUP_MAX 10000
#define PGW_AUTH_MSG_MAX 65536     /* longest message before authentication completes */
#define PGW_READ_CHUNK 65536       /* bytes per socket read */
#define PGW_OUT_CHUNK (128 * 1024) /* result encoding flushes at this much output */
#define PGW_OUT_HIGH (1024 * 1024) /* unsent bytes at which a connection pauses */
#define PGW_CLOSE_TIMEOUT_MS 5000  /* a closing connection's last writes get this long */
#define PGW_MAX_LISTENERS 16
#define PGW_HARD_CONN_SLACK 64 /* sockets beyond max_connections still greeted */

#define PGW_CODE_PROTO_30 196608 /* protocol 3.0 */
#define PGW_CODE_CANCEL 80877102
#define PGW_CODE_SSL 80877103
#define PGW_CODE_GSSENC 80877104

/* SQLSTATEs used only by the protocol layer. */

typedef struct pgw_server pgw_server_t;
typedef struct pgw_conn pgw_conn_t;
typedef struct pgw_pwcheck pgw_pwcheck_t;

typedef enum {
    PGW_ST_STARTUP,        /* expecting a startup packet (or SSL/GSS/cancel request) */
    PGW_ST_AUTH_PASSWORD,  /* sent AuthenticationCleartextPassword */
    PGW_ST_AUTH_SASL,      /* sent AuthenticationSASL, expecting SASLInitialResponse */
    PGW_ST_AUTH_SASL_CONT, /* sent AuthenticationSASLContinue, expecting SASLResponse */
    PGW_ST_READY           /* authenticated: query messages */
} pgw_state_t;

/* What a connection waits for from its session. */
typedef enum {
    PGW_WAIT_NONE,
    PGW_WAIT_AUTH,     /* a cleartext password is being checked on the thread pool */
    PGW_WAIT_QUERY,    /* simple Query */
    PGW_WAIT_PARSE,    /* Parse: describe_only run of the new statement */
    PGW_WAIT_DESCRIBE, /* Describe portal: the portal runs now */
    PGW_WAIT_EXECUTE,  /* Execute of a portal not yet run */
    PGW_WAIT_COPY      /* COPY FROM STDIN: a load job runs and no more input fits, or the
                           last job (the commit) runs */
} pgw_wait_t;

typedef struct pgw_copy pgw_copy_t;

/* Position in a reply being encoded. */
typedef struct pgw_cursor {
    sess_reply_t *reply; /* owned; NULL when nothing ran yet */
    sess_result_t *res;  /* result being sent; NULL when the reply is done */
    int in_rows;         /* RowDescription sent (simple query), DataRows going out */
    size_t off;          /* byte offset of the next DataRow body in res->rows */
} pgw_cursor_t;

/* A prepared statement: the session keeps them (server/prepared.h), in one
 * namespace with SQL's PREPARE. */
typedef prep_stmt_t pgw_stmt_t;

/* A portal: a statement bound to parameter values, and its reply once run. */
typedef struct pgw_portal {
    char *name; /* "" = the unnamed portal */
    char *sql;
    size_t len;
    int nparams;
    char **params; /* text (binary ones decoded at Bind); NULL entry = SQL NULL */
    int *param_lens;
    uint32_t *param_types; /* nparams declared type OIDs (0 = undeclared) */
    int nresfmts;          /* Bind's result format codes (pgw_bin_format_of) */
    int16_t *resfmts;
    pgw_cursor_t cur; /* cur.reply != NULL once it ran */
    struct pgw_portal *next;
} pgw_portal_t;

struct pgw_conn {
    uv_tcp_t tcp;     /* data = this connection */
    uv_timer_t timer; /* authentication timeout, the idle timeouts, then the closing deadline */
    pgw_server_t *srv;
    struct pgw_conn *prev, *next; /* in srv->conns */
    pgw_state_t state;
    int handles_open;       /* 2 until both handles' close callbacks ran */
    int closing;            /* no more input is processed; close after the last write */
    int handles_closing;    /* uv_close issued */
    int reading;            /* uv_read_start active */
    int processing;         /* inside pgw_conn_process (re-entry guard) */
    int counted;            /* counted in srv->nbackends (passed the startup packet) */
    int ssl_done, gss_done; /* an SSLRequest / GSSENCRequest was answered */
    int can_send;           /* messages may go out (not mid-handshake, not raw garbage) */
    tls_conn_t *tls;        /* NULL for plaintext */
    char peer[64];          /* "ip:port" for the log */
    sl_buf_t in;            /* plaintext input; bytes before in_off are consumed */
    size_t in_off;
    sl_buf_t out;          /* plaintext output not yet handed to the socket */
    size_t writes_pending; /* uv_write requests in flight */
    char *user, *database;
    sl_buf_t gucs; /* settings of the startup packet and its options: name\0value\0 ... */
    int32_t pid;   /* BackendKeyData */
    uint32_t secret;
    auth_scram_t scram;
    int scram_active;
    pgw_pwcheck_t
        *pwcheck; /* PGW_WAIT_AUTH: the check in flight (it outlives a closed connection) */
    sess_t *sess; /* after authentication */
    /* query processing */
    pgw_wait_t wait;
    pgw_stmt_t *wait_stmt;     /* PGW_WAIT_PARSE: the statement being described */
    pgw_portal_t *wait_portal; /* PGW_WAIT_DESCRIBE / _EXECUTE */
    int wait_maxrows;          /* PGW_WAIT_EXECUTE */
    int job;                   /* 1 = simple-query reply (qcur) going out, 2 = Execute */
    pgw_cursor_t qcur;
    pgw_portal_t *xportal; /* job 2 */
    int64_t xlimit;        /* 0 = all rows */
    uint64_t xsent;
    int skip_till_sync; /* an extended-protocol error happened */
    pgw_portal_t *portals;
    pgw_copy_t *copy; /* COPY FROM STDIN in progress (pgwire_copy.c), or NULL */
};

struct pgw_server {
    srv_t *srv;
    uv_tcp_t *listeners[PGW_MAX_LISTENERS];
    int nlisteners;
    int port;
    tls_ctx_t *tls;  /* NULL: TLS not offered */
    auth_db_t *auth; /* users of password_file (NULL with trust and no file) */
    pgw_conn_t *conns;
    int nconns;    /* connection objects alive */
    int nbackends; /* connections past the startup packet */
    int32_t next_pid;
    uv_thread_t loop_thread; /* every function of the endpoint runs on it */
    int stopping;
    int handles_open; /* listeners not yet closed */
    void (*done_cb)(srv_t *srv);
    char rbuf[PGW_READ_CHUNK]; /* shared read buffer: each read is consumed at once */
};

/* ---- pgwire.c ---- */
/* Parses and dispatches buffered input until it runs out, a submission
 * starts or the output backlog is too large; then flushes and decides
 * whether to read the socket. */
void pgw_conn_process(pgw_conn_t *c);
/* Hands buffered output to the socket (through TLS when active). */
void pgw_conn_flush(pgw_conn_t *c);
/* Bytes of output not yet written to the socket. */
size_t pgw_conn_backlog(pgw_conn_t *c);
/* Sends FATAL (when sending is possible) and closes after the last write. */
void pgw_conn_fatal(pgw_conn_t *c, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void pgw_conn_fatal_err(pgw_conn_t *c, const sl_error_t *err);
/* Closes after pending output is written (at most PGW_CLOSE_TIMEOUT_MS). */
void pgw_conn_close(pgw_conn_t *c);
/* Bytes of buffered input after the consumed part. */
size_t pgw_conn_avail(const pgw_conn_t *c);
/* True on the loop thread (for SL_ASSERT). */
int pgw_on_loop(const pgw_server_t *ps);

/* ---- pgwire_startup.c ---- */
/* Handles one startup packet (body = the bytes after the length word). */
void pgw_startup_packet(pgw_conn_t *c, const char *body, size_t len);
/* Handles a message of the authentication phase. */
void pgw_auth_message(pgw_conn_t *c, char type, const char *body, size_t len);
/* Detaches a password check in flight from a connection being freed. */
void pgw_auth_detach(pgw_conn_t *c);

/* ---- pgwire_query.c ---- */
/* Handles a message after authentication. */
void pgw_query_message(pgw_conn_t *c, char type, const char *body, size_t len);
/* Continues a reply that paused on output backpressure; 1 when none is left. */
int pgw_query_resume(pgw_conn_t *c);
/* Frees portals, a statement being parsed and any reply in progress. */
void pgw_query_release(pgw_conn_t *c);
/* ParameterStatus for each reported setting that changed, then
 * ReadyForQuery with the session's transaction status; at idle every
 * portal is closed (the transaction they belonged to ended). */
void pgw_query_ready(pgw_conn_t *c);
/* Runs `sql` as a simple Query whose reply ends with ReadyForQuery. */
void pgw_query_run(pgw_conn_t *c, const char *sql);

/* ---- pgwire_copy.c ---- */
/* Sends a COPY_OUT result from the cursor (CopyOutResponse, CopyData per
 * line, CopyDone, CommandComplete); 0 when it paused on backpressure. */
int pgw_copy_out_resume(pgw_conn_t *c, pgw_cursor_t *cur);
/* Enters COPY FROM STDIN for a COPY_IN result (taking its load): sends
 * CopyInResponse; the client's CopyData then go to pgw_copy_message. */
void pgw_copy_in_start(pgw_conn_t *c, sess_result_t *r, int extended);
/* A frontend message while c->copy is set. */
void pgw_copy_message(pgw_conn_t *c, char type, const char *body, size_t len);
/* A CancelRequest for a connection in COPY FROM STDIN: ends it with 57014
 * (nothing added) unless its commit already runs. */
void pgw_copy_cancel(pgw_conn_t *c);
/* Abandons a COPY FROM STDIN in progress (nothing of it is added). */
void pgw_copy_release(pgw_conn_t *c);

/* ---- pgwire_msg.c ---- */
size_t pgw_msg_begin(sl_buf_t *b, char type);
void pgw_msg_end(sl_buf_t *b, size_t at);
void pgw_msg_cstr(sl_buf_t *b, const char *s);
/* ErrorResponse ("ERROR", "FATAL") or NoticeResponse ("NOTICE", "WARNING"). */
void pgw_msg_error(sl_buf_t *b, const char *severity, const sl_error_t *e);
void pgw_msg_simple(sl_buf_t *b, char type); /* a message with an empty body */
/* ReadyForQuery with the transaction status ('I', 'T' or 'E'). */
void pgw_msg_ready(sl_buf_t *b, char status);
void pgw_msg_command_complete(sl_buf_t *b, const char *tag);
void pgw_msg_row_description(sl_buf_t *b, int ncols, const sess_col_t *cols);
/* RowDescription with Bind's result format codes (pgw_bin_format_of). */
void pgw_msg_row_description_fmt(sl_buf_t *b, int ncols, const sess_col_t *cols,
                                 const int16_t *fmts, int nfmts);
void pgw_msg_parameter_status(sl_buf_t *b, const char *name, const char *value);
void pgw_msg_auth(sl_buf_t *b, uint32_t code, const void *data, size_t len);
/* Length of the DataRow body at p (avail bytes), or 0 when malformed. */
size_t pgw_datarow_len(const char *p, size_t avail);
void pgw_msg_datarow(sl_buf_t *b, const char *body, size_t len);

#endif
