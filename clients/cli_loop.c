/* clients/cli_loop.c — the input loop (psql's MainLoop): reads lines from
 * the terminal or a script, feeds them to the scanner, sends each complete
 * statement, runs backslash commands, keeps multi-line statements as one
 * history entry, and decides the exit status (ON_ERROR_STOP gives 3, a lost
 * connection in a script 2, Ctrl-C in a script 3). */
#include "clients/cli.h"
#include "clients/cli_lex.h"
#include "clients/cli_meta.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* State of one run over one input source. */
typedef struct loop {
    cli_t *cli;
    FILE *f;          /* script source (non-interactive) */
    cli_lex_t lx;     /* scanner state across lines */
    sl_buf_t query;   /* the statement being collected */
    sl_buf_t history; /* lines of it not yet in the history */
    bool terminate;   /* \q seen */
    int result;       /* CLI_EXIT_* so far */
} loop_t;

/* ---- history ------------------------------------------------------------------------- */

static void history_append(loop_t *l, const char *line)
{
    if (!l->cli->interactive) return;
    if (l->history.len > 0) sl_buf_putc(&l->history, '\n');
    sl_buf_puts(&l->history, line);
}

static void history_send(loop_t *l)
{
    if (!l->cli->interactive || l->history.len == 0) return;
    cli_input_add_history(l->cli, l->history.data);
    sl_buf_clear(&l->history);
}

/* ---- reading lines ------------------------------------------------------------------- */

static char *read_file_line(FILE *f)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, f);
    if (n < 0) {
        free(line);
        return NULL;
    }
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
    return line;
}

static char *read_line(loop_t *l)
{
    if (!l->cli->interactive) return read_file_line(l->f);
    sl_buf_t prompt = {0};
    char state = cli_lex_prompt_state(&l->lx, &l->query);
    cli_prompt_build(l->cli, l->query.len > 0 || state != '=', state, &prompt);
    char *line = cli_input_read(l->cli, sl_buf_str(&prompt));
    sl_buf_free(&prompt);
    return line;
}

/* Ctrl-C at the prompt: forget the statement being typed. */
static void discard_input(loop_t *l)
{
    cli_lex_reset(&l->lx);
    sl_buf_clear(&l->query);
    sl_buf_clear(&l->history);
    cli_cancel_pressed = 0;
    putchar('\n');
}

/* "help", "quit" or "exit" typed alone at the start of a statement. */
static bool friendly_word(loop_t *l, const char *line)
{
    if (!l->cli->interactive || l->query.len > 0) return false;
    while (isspace((unsigned char)*line)) line++;
    size_t n = 0;
    while (isalpha((unsigned char)line[n])) n++;
    const char *rest = line + n;
    while (isspace((unsigned char)*rest) || *rest == ';') rest++;
    if (*rest) return false;
    if (n == 4 && !strncasecmp(line, "help", 4)) {
        printf("You are using sluice, the command-line interface to sluice.\n"
               "Type:  \\? for help with sluice commands\n"
               "       \\h for help with SQL commands\n"
               "       \\g or terminate with semicolon to execute query\n"
               "       \\q to quit\n");
        return true;
    }
    if ((n == 4 && !strncasecmp(line, "quit", 4)) || (n == 4 && !strncasecmp(line, "exit", 4))) {
        l->terminate = true;
        return true;
    }
    return false;
}

/* ---- processing ---------------------------------------------------------------------- */

/* Sends the collected statement and keeps it as the previous one. */
static bool send_query(loop_t *l)
{
    bool ok = cli_exec_send(l->cli, l->query.data ? l->query.data : "");
    sl_buf_clear(&l->cli->last_query);
    sl_buf_puts(&l->cli->last_query, sl_buf_str(&l->query));
    sl_buf_clear(&l->query);
    return ok;
}

/* \g FILE, \gx: send with the output and format asked for this once. */
static bool send_redirected(loop_t *l)
{
    cli_t *cli = l->cli;
    FILE *saved_out = cli->out, *f = NULL;
    int saved_expanded = cli->popt.expanded;
    bool pipe = false, ok = false;
    if (cli->g_target && !(f = cli_open_output(cli->g_target, &pipe))) goto done;
    if (f) cli->out = f;
    if (cli->g_expanded) cli->popt.expanded = 1;
    ok = send_query(l);
    cli->out = saved_out;
    cli->popt.expanded = saved_expanded;
    cli_close_output(f, pipe);
done:
    free(cli->g_target);
    cli->g_target = NULL;
    cli->g_expanded = false;
    return ok;
}

static bool run_backslash(loop_t *l, const char *line, size_t added_nl, bool *saved)
{
    if (added_nl && l->query.len == added_nl) {
        l->query.data[--l->query.len] = '\0';
        history_send(l);
    }
    if (!*saved) {
        history_append(l, line);
        history_send(l);
        *saved = true;
    }
    cli_cmd_result_t r = cli_meta_dispatch(l->cli, &l->lx, &l->query);
    if (r == CLI_CMD_TERMINATE) l->terminate = true;
    if (r != CLI_CMD_SEND) return r != CLI_CMD_ERROR;
    if (l->query.len == 0) sl_buf_puts(&l->query, sl_buf_str(&l->cli->last_query));
    bool ok = send_redirected(l);
    cli_lex_reset(&l->lx);
    return ok;
}

/* Scans one line, running what completes on it. Returns false when a
 * statement or command failed. */
static bool process_line(loop_t *l, const char *line)
{
    cli_t *cli = l->cli;
    size_t added_nl = 0;
    if (l->query.len > 0) {
        sl_buf_putc(&l->query, '\n');
        added_nl = l->query.len;
    }
    bool die = cli_vars_bool(&cli->vars, "ON_ERROR_STOP", false);
    bool single = cli_vars_bool(&cli->vars, "SINGLELINE", false);
    bool success = true, saved = false;
    cli_lex_setup(&l->lx, line, &cli->vars);
    while ((success || !die) && !l->terminate) {
        cli_scan_t r = cli_lex_scan(&l->lx, &l->query);
        if (r == CLI_SCAN_SEMI || (r == CLI_SCAN_EOL && single && l->query.len > 0)) {
            if (!saved) {
                history_append(l, line);
                history_send(l);
                saved = true;
            }
            success = send_query(l);
            added_nl = 0;
        } else if (r == CLI_SCAN_BACKSLASH) {
            success = run_backslash(l, line, added_nl, &saved);
            added_nl = 0;
        }
        if (r == CLI_SCAN_EOL) break;
    }
    if (!saved) history_append(l, line);
    return success;
}

static void handle_line(loop_t *l, char *line)
{
    cli_t *cli = l->cli;
    cli->lineno++;
    cli_log_set_locus(cli->input_name, cli->lineno);
    if (cli->lineno == 1 && !strncmp(line, "\xef\xbb\xbf", 3))
        memmove(line, line + 3, strlen(line + 3) + 1);
    if (line[0] == '\0' && !cli_lex_in_quote(&l->lx)) return;
    if (friendly_word(l, line)) return;
    const char *echo = cli_vars_get(&cli->vars, "ECHO");
    if (echo && !strcasecmp(echo, "all") && !cli->interactive) {
        puts(line);
        fflush(stdout);
    }
    bool ok = process_line(l, line);
    if (!cli->interactive) {
        if (!ok && cli_vars_bool(&cli->vars, "ON_ERROR_STOP", false)) l->result = CLI_EXIT_USER;
        else if (cli->conn_lost) l->result = CLI_EXIT_BADCONN;
    }
}

/* End of input: a script's unterminated last statement is still sent. */
static void finish_input(loop_t *l)
{
    cli_t *cli = l->cli;
    if (l->query.len == 0 || cli->interactive || l->result != CLI_EXIT_OK || l->terminate) return;
    bool ok = send_query(l);
    if (!ok && cli_vars_bool(&cli->vars, "ON_ERROR_STOP", false)) l->result = CLI_EXIT_USER;
    else if (cli->conn_lost) l->result = CLI_EXIT_BADCONN;
}

/* Returns false when the loop must stop (end of input, Ctrl-C in a script). */
static bool loop_step(loop_t *l)
{
    cli_t *cli = l->cli;
    if (cli_cancel_pressed) {
        if (!cli->interactive) {
            l->result = CLI_EXIT_USER;
            return false;
        }
        cli_cancel_pressed = 0;
    }
    fflush(stdout);
    char *line = read_line(l);
    if (!line && cli->interactive && cli_cancel_pressed) {
        discard_input(l);
        return true;
    }
    if (!line) {
        if (cli->interactive) puts(cli_vars_bool(&cli->vars, "QUIET", false) ? "" : "\\q");
        else if (ferror(l->f) && !cli_cancel_pressed) l->result = CLI_EXIT_FAILURE;
        else if (cli_cancel_pressed) l->result = CLI_EXIT_USER;
        return false;
    }
    handle_line(l, line);
    free(line);
    return l->result == CLI_EXIT_OK && !l->terminate;
}

int cli_loop_run(cli_t *cli, FILE *f, bool interactive)
{
    bool prev_interactive = cli->interactive;
    unsigned long prev_lineno = cli->lineno;
    loop_t l = {.cli = cli, .f = f, .result = CLI_EXIT_OK};
    cli->interactive = interactive;
    cli->lineno = 0;
    cli_lex_reset(&l.lx);
    while (loop_step(&l)) {
    }
    finish_input(&l);
    sl_buf_free(&l.query);
    sl_buf_free(&l.history);
    cli->interactive = prev_interactive;
    cli->lineno = prev_lineno;
    return l.result;
}

int cli_loop_run_slash(cli_t *cli, const char *text)
{
    loop_t l = {.cli = cli, .result = CLI_EXIT_OK};
    cli_lex_reset(&l.lx);
    bool ok = process_line(&l, text);
    if (ok && l.query.len > 0) ok = send_query(&l);
    sl_buf_free(&l.query);
    sl_buf_free(&l.history);
    return ok ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
}

/* ---- scripts ------------------------------------------------------------------------- */

/* path, or path resolved against the directory of relative_to (\ir). */
static char *resolve_path(const char *path, const char *relative_to)
{
    const char *slash = relative_to ? strrchr(relative_to, '/') : NULL;
    if (path[0] == '/' || !slash) return sl_xstrdup(path);
    sl_buf_t b = {0};
    sl_buf_append(&b, relative_to, (size_t)(slash - relative_to) + 1);
    sl_buf_puts(&b, path);
    return b.data;
}

int cli_loop_run_file(cli_t *cli, const char *path, const char *relative_to)
{
    bool is_stdin = !path || !strcmp(path, "-");
    char *resolved = !path      ? NULL
                     : is_stdin ? sl_xstrdup("<stdin>")
                                : resolve_path(path, relative_to);
    FILE *f = is_stdin ? stdin : fopen(resolved, "r");
    if (!f) {
        cli_log(CLI_LOG_ERROR, "%s: %s", resolved, strerror(errno));
        free(resolved);
        return CLI_EXIT_FAILURE;
    }
    const char *prev_name = cli->input_name;
    cli->input_name = resolved;
    /* psql: messages from a named script carry "sluice:file:line:"; from
     * stdin read without -f they stay terse */
    cli_log_set_terse(resolved == NULL);
    cli_log_set_locus(resolved, 0);
    int rc = cli_loop_run(cli, f, false);
    if (!is_stdin) fclose(f);
    cli->input_name = prev_name;
    cli_log_set_terse(prev_name == NULL);
    cli_log_set_locus(prev_name, cli->lineno);
    free(resolved);
    return rc;
}
