/* clients/cli_meta.h — backslash commands: the dispatcher the input loop
 * calls, and the context each command handler receives. The general
 * commands live in cli_meta.c, the streaming ones (\dq \ds \dt \d \progress
 * \watch \tail) in cli_stream.c; one table in cli_meta.c lists them all and
 * feeds \?. */
#ifndef SLUICE_CLI_META_H
#define SLUICE_CLI_META_H

#include "clients/cli.h"
#include "clients/cli_lex.h"

/* What a handler works with. */
typedef struct cli_cmdctx {
    cli_t *cli;       /* the session */
    cli_lex_t *lx;    /* scanner positioned after the command name: read arguments here */
    sl_buf_t *query;  /* the current query buffer (\r clears it, \g sends it) */
    const char *name; /* the command as typed, without the backslash ("dq+") */
} cli_cmdctx_t;

typedef cli_cmd_result_t (*cli_cmd_fn)(cli_cmdctx_t *ctx);

/* At a backslash: runs the command, warns about arguments it ignored and
 * leaves the scanner after the command. Unknown commands are errors. */
cli_cmd_result_t cli_meta_dispatch(cli_t *cli, cli_lex_t *lx, sl_buf_t *query);

/* Reads the next argument (NULL when none). Caller frees. */
char *cli_meta_arg(cli_cmdctx_t *ctx);

/* The statement \g, \watch and \p act on: the current buffer, or else the
 * previous statement. */
const char *cli_meta_current_query(cli_cmdctx_t *ctx);

/* Applies a \pset option (as -P NAME=VALUE does); false after logging an error. */
bool cli_meta_pset(cli_t *cli, const char *option, const char *value);

/* Streaming commands (cli_stream.c). */
cli_cmd_result_t cli_stream_dq(cli_cmdctx_t *ctx);       /* \dq [pattern]: SHOW QUERIES */
cli_cmd_result_t cli_stream_ds(cli_cmdctx_t *ctx);       /* \ds [pattern]: SHOW STREAMS */
cli_cmd_result_t cli_stream_dt(cli_cmdctx_t *ctx);       /* \dt [pattern]: SHOW TABLES */
cli_cmd_result_t cli_stream_describe(cli_cmdctx_t *ctx); /* \d [NAME]: DESCRIBE / listing */
cli_cmd_result_t cli_stream_progress(cli_cmdctx_t *ctx); /* \progress Q: SHOW PROGRESS summary */
cli_cmd_result_t cli_stream_watch(cli_cmdctx_t *ctx);    /* \watch [SEC]: repeat a statement */
cli_cmd_result_t cli_stream_tail(cli_cmdctx_t *ctx);     /* \tail Q [SEC]: follow a memory sink */

#endif
