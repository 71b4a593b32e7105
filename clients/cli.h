/* clients/cli.h — the sluice CLI's shared internals: psql-style logging, variables, the session state (cli_t) and the
 * entry points each clients/cli_*.c file exports to the others.
 *
 * The CLI is a separate program: it talks to the daemon only over the wire,
 * and links libpq, libedit and common/'s buffers and arenas (common/buf.h,
 * common/arena.h), never the daemon's other folders. */
#ifndef SLUICE_CLI_H
#define SLUICE_CLI_H

#include <libpq-fe.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/arena.h"
#include "common/buf.h"

/* libpq exports these encoding helpers; PostgreSQL declares them in its
 * server-side pg_wchar.h, not in libpq-fe.h. */
extern int pg_char_to_encoding(const char *name);
extern const char *pg_encoding_to_char(int encoding);

#define CLI_VERSION "0.1.0"
#define CLI_DEFAULT_HOST "127.0.0.1"
#define CLI_DEFAULT_PORT "5433"

/* Exit codes, psql's: success, a failure of our own or of a -c statement,
 * a lost or refused connection, an error in a script under ON_ERROR_STOP. */
enum { CLI_EXIT_OK = 0, CLI_EXIT_FAILURE = 1, CLI_EXIT_BADCONN = 2, CLI_EXIT_USER = 3 };

#if defined(__GNUC__)
#define CLI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CLI_PRINTF(a, b)
#endif

/* ---- logging (psql's pg_log_* conventions) ----------------------------------------- */

typedef enum {
    CLI_LOG_INFO,    /* no level label: server errors and notices, already labelled */
    CLI_LOG_ERROR,   /* "error: " */
    CLI_LOG_WARNING, /* "warning: " */
    CLI_LOG_HINT,    /* "hint: " */
} cli_log_level_t;

/* Where messages come from: the script file and line, or none (NULL). */
void cli_log_set_locus(const char *file, unsigned long line);
/* Terse: no "sluice:" program prefix and no level label (psql with -c and when
 * interactive). */
void cli_log_set_terse(bool terse);
/* Prints "sluice:file:line: error: message" (parts per the settings) to stderr,
 * after flushing stdout; one trailing newline of the message is dropped. */
void cli_log(cli_log_level_t level, const char *fmt, ...) CLI_PRINTF(2, 3);

/* ---- variables ----------------------------------------------------------------------- */

typedef struct cli_var cli_var_t;
typedef struct cli_vars {
    cli_var_t *head; /* sorted by name */
} cli_vars_t;

/* The value of a variable, or NULL when unset. */
const char *cli_vars_get(const cli_vars_t *v, const char *name);
/* Sets (value != NULL) or unsets a variable. Special variables (ON_ERROR_STOP,
 * ECHO, VERBOSITY, ...) are checked; a bad name or value logs psql's error and
 * returns -1 without changing anything. */
int cli_vars_set(cli_vars_t *v, const char *name, const char *value);
/* A boolean variable; dflt when unset or not a boolean. */
bool cli_vars_bool(const cli_vars_t *v, const char *name, bool dflt);
/* Parses psql's boolean spellings (on/off, true/false, yes/no, 1/0, any
 * unambiguous prefix); -1 when value is none of them. */
int cli_parse_bool(const char *value, bool *out);
/* Prints "NAME = 'value'" for every variable, sorted. */
void cli_vars_list(const cli_vars_t *v, FILE *out);
/* Frees every variable. */
void cli_vars_free(cli_vars_t *v);

/* ---- print options ------------------------------------------------------------------- */

typedef enum { CLI_FMT_ALIGNED, CLI_FMT_UNALIGNED, CLI_FMT_CSV } cli_format_t;

typedef struct cli_popt {
    cli_format_t format; /* aligned (default), unaligned (-A), csv */
    int expanded;        /* 0 off, 1 on (\x, -x), 2 auto (when wider than the terminal) */
    bool tuples_only;    /* -t: no headers, no footers, no titles */
    bool footer;         /* print the "(N rows)" footer (default on) */
    char *null_display;  /* text for NULL cells (default "") */
    char *fieldsep;      /* unaligned field separator (default "|") */
    char *recordsep;     /* unaligned record separator (default "\n") */
    char *title;         /* \C title for query results, or NULL */
    int columns;         /* \pset columns, 0 = the terminal's */
} cli_popt_t;

/* ---- the session ----------------------------------------------------------------------- */

/* Connection parameters as the user gave them (NULL = not given). */
typedef struct cli_connopts {
    const char *host;   /* -h */
    const char *port;   /* -p */
    const char *user;   /* -U, or the second positional argument */
    const char *dbname; /* -d or the first positional argument; may be a connection string */
    int get_password;   /* -1 never prompt (-w), 0 when the server asks, 1 always (-W) */
} cli_connopts_t;

typedef struct cli {
    PGconn *conn;            /* the connection, NULL after a failed reset */
    cli_connopts_t connopts; /* what the command line asked for */
    cli_vars_t vars;         /* \set variables, including the special ones */
    cli_popt_t popt;         /* output formatting */
    FILE *out;               /* query output: stdout or the \o target */
    bool out_is_pipe;        /* out came from popen() (\o |command) */
    bool timing;             /* \timing */
    bool notty;              /* stdin or stdout is not a terminal */
    bool interactive;        /* the current input is the terminal (prompt, history) */
    bool conn_lost;          /* a non-interactive run lost its connection: exit 2 */
    const char *input_name;  /* name of the script being read, NULL for -c / terminal */
    unsigned long lineno;    /* line number within input_name */
    sl_buf_t last_query;     /* the previous statement sent (for \g, \watch) */
    char *g_target;          /* \g FILE / \g |command: output of the next send only */
    bool g_expanded;         /* \gx: expanded output for the next send only */
    const char *progname;    /* "sluice" */
    void *input;             /* line editor state (cli_input.c), NULL when not interactive */
} cli_t;

/* Results of a backslash command (psql's backslashResult). */
typedef enum {
    CLI_CMD_SKIP_LINE, /* done; continue with the rest of the line */
    CLI_CMD_SEND,      /* \g: send the query buffer now */
    CLI_CMD_ERROR,     /* failed (counts for ON_ERROR_STOP) */
    CLI_CMD_TERMINATE, /* \q */
} cli_cmd_result_t;

/* ---- signals (cli_signal.c) ----------------------------------------------------------- */

/* Set by SIGINT; cleared by whoever handles the interruption. */
extern volatile sig_atomic_t cli_cancel_pressed;

/* Installs the SIGINT handler (no SA_RESTART, so blocking reads return EINTR). */
void cli_signal_init(void);
/* Directs SIGINT's cancel request at conn's running statement (NULL: none). */
void cli_signal_set_cancel_conn(PGconn *conn);
/* Sleeps up to ms milliseconds; returns early (true) when Ctrl-C was pressed. */
bool cli_signal_sleep(long ms);
/* Called on SIGWINCH by the line editor's hook; set by cli_input.c. */
extern volatile sig_atomic_t cli_winch_pending;

/* ---- connection (cli_conn.c) ----------------------------------------------------------- */

/* Connects with the command-line options; PG* environment variables, service
 * files and ~/.pgpass apply as in psql, with 127.0.0.1:5433 instead of the
 * socket defaults. Prompts for a password when the server asks and a
 * terminal is available. Returns NULL after logging the error. */
PGconn *cli_conn_open(cli_t *cli, const cli_connopts_t *o);
/* After a connection changed: sets DBNAME, USER, HOST, PORT, ENCODING, the
 * server version variables, the notice processor and the error verbosity. */
void cli_conn_sync(cli_t *cli);
/* Checks the connection after a failure; interactive sessions try PQreset
 * (psql's "Attempting reset"), scripts mark conn_lost. False when unusable. */
bool cli_conn_check(cli_t *cli);
/* \conninfo text. */
void cli_conn_print_info(cli_t *cli);
/* \c [dbname [user [host [port]]]]: reconnect, reusing the current values
 * for what is omitted or "-". Keeps the old connection on failure. */
bool cli_conn_reconnect(cli_t *cli, const char *db, const char *user, const char *host,
                        const char *port);

/* ---- execution (cli_exec.c) ------------------------------------------------------------ */

/* psql's SendQuery: echoes (ECHO=queries), runs query (all its results),
 * prints tables or command tags, errors and timing; sets ERROR, SQLSTATE,
 * ROW_COUNT, LAST_ERROR_*. Ctrl-C cancels it. Returns true on success. */
bool cli_exec_send(cli_t *cli, const char *query);
/* Runs an internal query (for \dq, \progress, ...) with cancel support and
 * returns its last result when it succeeded with tuples or a command. On an
 * error returns NULL after logging it (without a caret into the hidden
 * query) unless Ctrl-C caused it or its SQLSTATE is silent_sqlstate (may be
 * NULL); LAST_ERROR_SQLSTATE holds the code. */
PGresult *cli_exec_internal(cli_t *cli, const char *query, const char *silent_sqlstate);
/* As cli_exec_internal for a statement the user typed (\watch): errors
 * are reported in full, with LINE and caret. */
PGresult *cli_exec_repeat(cli_t *cli, const char *query);
/* Prints a result's rows as the \pset options say (title: the table's
 * title, or NULL for the option's), then flushes. */
void cli_print_result(cli_t *cli, const PGresult *res, const char *title);
/* Prints "Time: 1.234 ms" psql-style. */
void cli_exec_print_timing(double ms);
/* Monotonic clock in milliseconds. */
double cli_now_ms(void);

/* ---- input loop (cli_loop.c) ----------------------------------------------------------- */

/* psql's MainLoop over one source: f (a script or stdin) or the terminal when
 * interactive. Returns a CLI_EXIT_* code. */
int cli_loop_run(cli_t *cli, FILE *f, bool interactive);
/* Runs a -c string that starts with a backslash: its backslash commands. */
int cli_loop_run_slash(cli_t *cli, const char *text);
/* \i / -f: runs a script file ("-" = stdin named "<stdin>", NULL = stdin
 * without a name, as when input is piped in); relative_to is the current
 * script for \ir. Returns a CLI_EXIT_* code (1 when it cannot be opened). */
int cli_loop_run_file(cli_t *cli, const char *path, const char *relative_to);

/* ---- line input (cli_input.c) ---------------------------------------------------------- */

/* Starts the line editor and loads the history (~/.sluice_history or
 * $HISTFILE) when the session is interactive. */
void cli_input_init(cli_t *cli);
/* Reads one line at the prompt; NULL at end of input. When Ctrl-C interrupts
 * the editing, returns NULL with cli_cancel_pressed set. Caller frees. */
char *cli_input_read(cli_t *cli, const char *prompt);
/* Adds a (possibly multi-line) entry to the history. */
void cli_input_add_history(cli_t *cli, const char *entry);
/* Saves the history file and releases the editor. */
void cli_input_close(cli_t *cli);

/* ---- prompts (cli_prompt.c) ------------------------------------------------------------ */

/* Expands PROMPT1 (ready) or PROMPT2 (continuation) into buf: %/ database,
 * %R state character, %# '#' or '>', %x transaction, %n user, %m/%M host,
 * %> port, %% percent. state is the lexer's prompt character. */
void cli_prompt_build(cli_t *cli, bool continuation, char state, sl_buf_t *buf);

/* ---- output target -------------------------------------------------------------------- */

/* \o / -o: sends query output to a file, "|command", or stdout (NULL). */
bool cli_set_output(cli_t *cli, const char *target);
/* Opens an output target (a file, or "|command" through popen); NULL after
 * logging why not. */
FILE *cli_open_output(const char *target, bool *is_pipe);
/* Closes what cli_open_output returned. */
void cli_close_output(FILE *f, bool is_pipe);

#endif
