/* clients/cli_lex.h — the CLI's input scanner: splits lines into SQL
 * statements at ';' outside quotes, comments and parentheses, finds
 * backslash commands, interpolates :variables, reads backslash-command
 * arguments, and reports the state the prompt shows. */
#ifndef SLUICE_CLI_LEX_H
#define SLUICE_CLI_LEX_H

#include "clients/cli.h"

/* Where the scanner is between characters. */
typedef enum {
    CLI_LX_NORMAL,  /* plain SQL */
    CLI_LX_SQUOTE,  /* inside '...' */
    CLI_LX_EQUOTE,  /* inside E'...' (backslash escapes) */
    CLI_LX_DQUOTE,  /* inside "..." */
    CLI_LX_DOLLAR,  /* inside $tag$...$tag$ */
    CLI_LX_COMMENT, /* inside a (nested) block comment */
} cli_lx_state_t;

/* Scanner state; it persists across lines so statements may span them. */
typedef struct cli_lex {
    cli_lx_state_t state;   /* quoting state at the scan position */
    int paren_depth;        /* open parentheses: ';' inside them does not end a statement */
    int comment_depth;      /* nesting of block comments (CLI_LX_COMMENT) */
    char dolq_tag[128];     /* "$tag$" that closes the dollar quote (CLI_LX_DOLLAR) */
    const char *line;       /* the line being scanned (not owned) */
    size_t len;             /* its length */
    size_t pos;             /* scan position within line */
    const cli_vars_t *vars; /* variables for :name interpolation, NULL for none */
} cli_lex_t;

/* Why cli_lex_scan stopped. */
typedef enum {
    CLI_SCAN_SEMI,      /* a statement ended with ';' (appended to the query) */
    CLI_SCAN_BACKSLASH, /* a backslash command starts at the position */
    CLI_SCAN_EOL,       /* the line is used up */
} cli_scan_t;

/* Back to the initial state (after \r, Ctrl-C or a forced send). */
void cli_lex_reset(cli_lex_t *lx);
/* Starts scanning a new line (without its newline); vars may be NULL. */
void cli_lex_setup(cli_lex_t *lx, const char *line, const cli_vars_t *vars);
/* Appends SQL text from the position to query until a statement ends, a
 * backslash command starts or the line ends. Whitespace and -- comments
 * before the first token of a statement are dropped, as psql does. */
cli_scan_t cli_lex_scan(cli_lex_t *lx, sl_buf_t *query);
/* The prompt's %R character: '=' ready, '-' continuing, '\'' '"' '$' inside
 * a quote, '(' inside parentheses, '*' inside a comment. */
char cli_lex_prompt_state(const cli_lex_t *lx, const sl_buf_t *query);
/* True inside a quote or a comment (an empty line then still counts). */
bool cli_lex_in_quote(const cli_lex_t *lx);

/* How a backslash command reads an argument. */
typedef enum {
    CLI_ARG_NORMAL,     /* one word: 'quoted' (unquoted), "quoted" (quotes kept), :vars */
    CLI_ARG_WHOLE_LINE, /* the rest of the line, trimmed */
} cli_arg_mode_t;

/* At a backslash: reads the command name (up to whitespace or a backslash)
 * and returns it without the backslash. Caller frees. */
char *cli_lex_cmd_name(cli_lex_t *lx);
/* The next argument of the current backslash command, or NULL when there is
 * none before the end of the line or a "\\" separator. *quote (may be NULL)
 * receives the quote character the argument started with, or 0. Caller frees. */
char *cli_lex_cmd_arg(cli_lex_t *lx, cli_arg_mode_t mode, char *quote);
/* Ends the backslash command: skips past "\\" or to the end of the line. */
void cli_lex_cmd_finish(cli_lex_t *lx);

/* Quotes value as an SQL literal ('...', doubling quotes; E'...' when it
 * has backslashes) or an identifier ("..."), appending to out. */
void cli_lex_quote(const char *value, char quote, sl_buf_t *out);

#endif
