/* clients/cli_meta.c — backslash commands: the table every command is
 * listed in (it also produces \?), the dispatcher, and the general commands
 * (\q \? \h \g \p \r \echo \qecho \i \ir \o \set \unset \a \t \x \pset
 * \timing \c \conninfo \! \cd). Messages are psql's, word for word. */
#include "clients/cli_meta.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    const char *name;  /* command without backslash */
    const char *alias; /* another spelling, or NULL */
    bool plus;         /* also accepts a trailing '+' */
    cli_cmd_fn fn;     /* handler */
    const char *group; /* \? section */
    const char *usage; /* command and arguments as \? shows them */
    const char *help;  /* one-line description */
} cmd_t;

static const cmd_t *commands(size_t *n);
static char *output_target(cli_cmdctx_t *ctx);

/* ---- helpers ------------------------------------------------------------------------- */

char *cli_meta_arg(cli_cmdctx_t *ctx)
{
    return cli_lex_cmd_arg(ctx->lx, CLI_ARG_NORMAL, NULL);
}

const char *cli_meta_current_query(cli_cmdctx_t *ctx)
{
    if (ctx->query->len > 0) return ctx->query->data;
    return sl_buf_str(&ctx->cli->last_query);
}

static bool quiet(const cli_t *cli)
{
    return cli_vars_bool(&cli->vars, "QUIET", false);
}

/* Reads an optional on/off argument: toggles *flag when absent. */
static bool toggle_arg(cli_cmdctx_t *ctx, bool *flag)
{
    char *arg = cli_meta_arg(ctx);
    bool ok = true;
    if (!arg) {
        *flag = !*flag;
    } else if (cli_parse_bool(arg, flag) < 0) {
        cli_log(CLI_LOG_ERROR, "unrecognized value \"%s\" for \"\\%s\": Boolean expected", arg,
                ctx->name);
        ok = false;
    }
    free(arg);
    return ok;
}

/* ---- general ------------------------------------------------------------------------- */

static cli_cmd_result_t cmd_quit(cli_cmdctx_t *ctx)
{
    (void)ctx;
    return CLI_CMD_TERMINATE;
}

static void help_commands(FILE *out)
{
    size_t n;
    const cmd_t *cmds = commands(&n);
    const char *group = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!cmds[i].usage) continue;
        if (!group || strcmp(group, cmds[i].group)) {
            fprintf(out, "%s%s\n", group ? "\n" : "", cmds[i].group);
            group = cmds[i].group;
        }
        fprintf(out, "  %-22s %s\n", cmds[i].usage, cmds[i].help);
    }
    fputc('\n', out);
}

static void help_variables(FILE *out)
{
    fputs("Special variables (\\set NAME VALUE)\n"
          "  ECHO                   what to echo: all, errors, none, queries\n"
          "  HISTCONTROL            none, ignorespace, ignoredups, ignoreboth\n"
          "  HISTFILE               history file (default ~/.sluice_history)\n"
          "  HISTSIZE               commands kept in the history (default 500)\n"
          "  ON_ERROR_STOP          stop a script at the first error (exit status 3)\n"
          "  PROMPT1, PROMPT2       prompts: %/ database, %R state, %# '>' or '#', %n user,\n"
          "                         %m host, %> port, %x transaction, %% percent\n"
          "  QUIET                  like -q: no command tags or messages\n"
          "  SHOW_CONTEXT           never, errors, always\n"
          "  SINGLELINE             end of line ends a statement (like -S)\n"
          "  VERBOSITY              default, verbose, terse, sqlstate\n"
          "Set by sluice: DBNAME USER HOST PORT ENCODING SERVER_VERSION_NAME\n"
          "  SERVER_VERSION_NUM ERROR SQLSTATE ROW_COUNT LAST_ERROR_MESSAGE\n"
          "  LAST_ERROR_SQLSTATE\n\n",
          out);
}

static cli_cmd_result_t cmd_help(cli_cmdctx_t *ctx)
{
    char *topic = cli_meta_arg(ctx);
    if (topic && !strncasecmp(topic, "variables", strlen(topic))) help_variables(stdout);
    else help_commands(stdout);
    free(topic);
    return CLI_CMD_SKIP_LINE;
}

/* ---- \h: SQL help -------------------------------------------------------------------- */

typedef struct {
    const char *name;        /* statement, as \h matches it */
    const char *description; /* one line */
    const char *syntax;      /* synopsis */
} sql_help_t;

static const sql_help_t sql_help[] = {
    {"AWAIT QUERY", "wait until a query has processed all data available now",
     "AWAIT QUERY name [ TIMEOUT 'interval' ]"},
    {"CREATE QUERY", "define and start a continuous query",
     "CREATE QUERY name\n    [ SINK connector [ OPTIONS ( key 'value' [, ...] ) ] ]\n"
     "    [ OUTPUT MODE { append | update | complete } ]\n"
     "    [ TRIGGER { PROCESSING TIME 'interval' | AVAILABLE NOW | ONCE | CONTINUOUS "
     "'interval' } ]\n"
     "    [ CHECKPOINT 'path' ] [ OPTIONS ( key 'value' [, ...] ) ]\nAS select"},
    {"CREATE STREAM", "define a streaming source",
     "CREATE STREAM name [ ( column type [, ...] ) ]\n"
     "    USING { kafka | file | rate | nexmark } [ OPTIONS ( key 'value' [, ...] ) ]\n"
     "    [ WATERMARK column DELAY OF INTERVAL 'interval' ]"},
    {"CREATE TABLE", "define a static table",
     "CREATE TABLE name ( column type [, ...] ) [ USING csv OPTIONS ( key 'value' [, ...] ) ]"},
    {"DELETE", "delete rows of a static table", "DELETE FROM table [ WHERE condition ]"},
    {"DESCRIBE", "show the columns and options of a stream or table, or a query's plan",
     "DESCRIBE name"},
    {"DROP QUERY", "remove a query", "DROP QUERY [ IF EXISTS ] name"},
    {"DROP STREAM", "remove a stream", "DROP STREAM [ IF EXISTS ] name"},
    {"DROP TABLE", "remove a table", "DROP TABLE [ IF EXISTS ] name"},
    {"EXPLAIN", "show the incremental plan of a query", "EXPLAIN { select | CREATE QUERY ... }"},
    {"INSERT", "add rows to a static table", "INSERT INTO table VALUES ( expr [, ...] ) [, ...]"},
    {"SELECT", "run a batch query over tables and memory sinks",
     "SELECT expr [, ...] FROM source [ WHERE ... ] [ GROUP BY ... ] [ HAVING ... ]\n"
     "    [ ORDER BY ... ] [ LIMIT n ]"},
    {"SHOW PROGRESS", "the last StreamingQueryProgress of a query as JSON", "SHOW PROGRESS name"},
    {"SHOW QUERIES", "list queries with status, batch, rates and watermark", "SHOW QUERIES"},
    {"SHOW RECENT PROGRESS", "recent progress reports of a query, oldest first",
     "SHOW RECENT PROGRESS name"},
    {"SHOW STREAMS", "list streams", "SHOW STREAMS"},
    {"SHOW TABLES", "list static tables", "SHOW TABLES"},
    {"START QUERY", "resume a stopped query from its checkpoint", "START QUERY name"},
    {"STOP QUERY", "stop a query at the next batch boundary", "STOP QUERY name"},
};

static cli_cmd_result_t cmd_sql_help(cli_cmdctx_t *ctx)
{
    char *topic = cli_lex_cmd_arg(ctx->lx, CLI_ARG_WHOLE_LINE, NULL);
    size_t n = sizeof sql_help / sizeof sql_help[0];
    if (!topic) {
        printf("Available help:\n");
        for (size_t i = 0; i < n; i++) printf("  %s\n", sql_help[i].name);
        putchar('\n');
        return CLI_CMD_SKIP_LINE;
    }
    bool found = false;
    for (size_t i = 0; i < n; i++) {
        if (strncasecmp(sql_help[i].name, topic, strlen(topic))) continue;
        printf("%sCommand:     %s\nDescription: %s\nSyntax:\n%s\n\n", found ? "" : "",
               sql_help[i].name, sql_help[i].description, sql_help[i].syntax);
        found = true;
    }
    if (!found)
        printf("No help available for \"%s\".\nTry \\h with no arguments to see available "
               "help.\n",
               topic);
    free(topic);
    return CLI_CMD_SKIP_LINE;
}

/* ---- query buffer -------------------------------------------------------------------- */

static cli_cmd_result_t cmd_send(cli_cmdctx_t *ctx)
{
    free(ctx->cli->g_target);
    ctx->cli->g_target = output_target(ctx);
    ctx->cli->g_expanded = !strcmp(ctx->name, "gx");
    return CLI_CMD_SEND;
}

static cli_cmd_result_t cmd_print(cli_cmdctx_t *ctx)
{
    const char *q = cli_meta_current_query(ctx);
    if (*q) puts(q);
    else if (!quiet(ctx->cli)) puts("Query buffer is empty.");
    fflush(stdout);
    return CLI_CMD_SKIP_LINE;
}

static cli_cmd_result_t cmd_reset(cli_cmdctx_t *ctx)
{
    sl_buf_clear(ctx->query);
    cli_lex_reset(ctx->lx);
    if (!quiet(ctx->cli)) puts("Query buffer reset (cleared).");
    return CLI_CMD_SKIP_LINE;
}

/* ---- input/output -------------------------------------------------------------------- */

static void echo_to(cli_cmdctx_t *ctx, FILE *out)
{
    char *arg;
    bool first = true, newline = true;
    int printed = 0;
    while ((arg = cli_meta_arg(ctx)) != NULL) {
        if (first && !strcmp(arg, "-n")) {
            newline = false;
        } else {
            if (printed++) fputc(' ', out);
            fputs(arg, out);
        }
        first = false;
        free(arg);
    }
    if (newline) fputc('\n', out);
    fflush(out);
}

static cli_cmd_result_t cmd_echo(cli_cmdctx_t *ctx)
{
    echo_to(ctx, stdout);
    return CLI_CMD_SKIP_LINE;
}

static cli_cmd_result_t cmd_qecho(cli_cmdctx_t *ctx)
{
    echo_to(ctx, ctx->cli->out);
    return CLI_CMD_SKIP_LINE;
}

static cli_cmd_result_t cmd_include(cli_cmdctx_t *ctx)
{
    char *file = cli_meta_arg(ctx);
    if (!file) {
        cli_log(CLI_LOG_ERROR, "\\%s: missing required argument", ctx->name);
        return CLI_CMD_ERROR;
    }
    bool relative = !strcmp(ctx->name, "ir") || !strcmp(ctx->name, "include_relative");
    int rc = cli_loop_run_file(ctx->cli, file, relative ? ctx->cli->input_name : NULL);
    free(file);
    if (rc == CLI_EXIT_BADCONN) ctx->cli->conn_lost = true;
    return rc == CLI_EXIT_OK ? CLI_CMD_SKIP_LINE : CLI_CMD_ERROR;
}

FILE *cli_open_output(const char *target, bool *is_pipe)
{
    *is_pipe = target[0] == '|';
    fflush(stdout);
    FILE *f = *is_pipe ? popen(target + 1, "w") : fopen(target, "w");
    if (!f) cli_log(CLI_LOG_ERROR, "%s: %s", target, strerror(errno));
    return f;
}

void cli_close_output(FILE *f, bool is_pipe)
{
    if (!f || f == stdout) return;
    if (is_pipe) pclose(f);
    else fclose(f);
}

bool cli_set_output(cli_t *cli, const char *target)
{
    FILE *f = stdout;
    bool pipe = false;
    if (target && *target && !(f = cli_open_output(target, &pipe))) return false;
    if (cli->out) cli_close_output(cli->out, cli->out_is_pipe);
    cli->out = f;
    cli->out_is_pipe = pipe;
    return true;
}

/* "|command args": a pipe target runs to the end of the line. */
static char *output_target(cli_cmdctx_t *ctx)
{
    char *target = cli_lex_cmd_arg(ctx->lx, CLI_ARG_NORMAL, NULL);
    if (!target || target[0] != '|') return target;
    char *rest = cli_lex_cmd_arg(ctx->lx, CLI_ARG_WHOLE_LINE, NULL);
    if (!rest) return target;
    sl_buf_t b = {0};
    sl_buf_printf(&b, "%s %s", target, rest);
    free(target);
    free(rest);
    return b.data;
}

static cli_cmd_result_t cmd_output(cli_cmdctx_t *ctx)
{
    char *target = output_target(ctx);
    bool ok = cli_set_output(ctx->cli, target);
    free(target);
    return ok ? CLI_CMD_SKIP_LINE : CLI_CMD_ERROR;
}

/* ---- variables ----------------------------------------------------------------------- */

static void apply_settings(cli_t *cli)
{
    cli_conn_sync(cli);
}

static cli_cmd_result_t cmd_set(cli_cmdctx_t *ctx)
{
    char *name = cli_meta_arg(ctx);
    if (!name) {
        cli_vars_list(&ctx->cli->vars, stdout);
        return CLI_CMD_SKIP_LINE;
    }
    sl_buf_t value = {0};
    sl_buf_puts(&value, "");
    char *part;
    while ((part = cli_meta_arg(ctx)) != NULL) {
        sl_buf_puts(&value, part);
        free(part);
    }
    int rc = cli_vars_set(&ctx->cli->vars, name, value.data);
    free(name);
    sl_buf_free(&value);
    if (rc == 0) apply_settings(ctx->cli);
    return rc == 0 ? CLI_CMD_SKIP_LINE : CLI_CMD_ERROR;
}

static cli_cmd_result_t cmd_unset(cli_cmdctx_t *ctx)
{
    char *name = cli_meta_arg(ctx);
    if (!name) {
        cli_log(CLI_LOG_ERROR, "\\%s: missing required argument", ctx->name);
        return CLI_CMD_ERROR;
    }
    int rc = cli_vars_set(&ctx->cli->vars, name, NULL);
    free(name);
    if (rc == 0) apply_settings(ctx->cli);
    return rc == 0 ? CLI_CMD_SKIP_LINE : CLI_CMD_ERROR;
}

/* ---- formatting ---------------------------------------------------------------------- */

static void say(const cli_t *cli, const char *msg)
{
    if (!quiet(cli)) puts(msg);
}

static void say_expanded(const cli_t *cli)
{
    say(cli, cli->popt.expanded == 2   ? "Expanded display is used automatically."
             : cli->popt.expanded == 1 ? "Expanded display is on."
                                       : "Expanded display is off.");
}

static cli_cmd_result_t cmd_aligned(cli_cmdctx_t *ctx)
{
    cli_popt_t *p = &ctx->cli->popt;
    p->format = p->format == CLI_FMT_ALIGNED ? CLI_FMT_UNALIGNED : CLI_FMT_ALIGNED;
    say(ctx->cli,
        p->format == CLI_FMT_ALIGNED ? "Output format is aligned." : "Output format is unaligned.");
    return CLI_CMD_SKIP_LINE;
}

static cli_cmd_result_t cmd_tuples(cli_cmdctx_t *ctx)
{
    if (!toggle_arg(ctx, &ctx->cli->popt.tuples_only)) return CLI_CMD_ERROR;
    say(ctx->cli, ctx->cli->popt.tuples_only ? "Tuples only is on." : "Tuples only is off.");
    return CLI_CMD_SKIP_LINE;
}

/* on / off / auto, or toggle when value is NULL. */
static bool set_expanded(cli_t *cli, const char *value, const char *cmd)
{
    bool b;
    if (!value) cli->popt.expanded = cli->popt.expanded ? 0 : 1;
    else if (!strcasecmp(value, "auto")) cli->popt.expanded = 2;
    else if (cli_parse_bool(value, &b) == 0) cli->popt.expanded = b ? 1 : 0;
    else {
        cli_log(CLI_LOG_ERROR, "unrecognized value \"%s\" for \"%s\": Boolean expected", value,
                cmd);
        return false;
    }
    return true;
}

static cli_cmd_result_t cmd_expanded(cli_cmdctx_t *ctx)
{
    char *arg = cli_meta_arg(ctx);
    bool ok = set_expanded(ctx->cli, arg, "\\x");
    free(arg);
    if (!ok) return CLI_CMD_ERROR;
    say_expanded(ctx->cli);
    return CLI_CMD_SKIP_LINE;
}

static cli_cmd_result_t cmd_timing(cli_cmdctx_t *ctx)
{
    if (!toggle_arg(ctx, &ctx->cli->timing)) return CLI_CMD_ERROR;
    say(ctx->cli, ctx->cli->timing ? "Timing is on." : "Timing is off.");
    return CLI_CMD_SKIP_LINE;
}

static void set_string(char **slot, const char *value)
{
    free(*slot);
    *slot = value ? sl_xstrdup(value) : NULL;
}

static const char *format_name(cli_format_t f)
{
    return f == CLI_FMT_ALIGNED ? "aligned" : f == CLI_FMT_UNALIGNED ? "unaligned" : "csv";
}

/* Prints the state of one \pset option as psql does. */
static void pset_show(const cli_t *cli, const char *opt)
{
    const cli_popt_t *p = &cli->popt;
    char msg[512];
    if (!strcmp(opt, "format"))
        snprintf(msg, sizeof msg, "Output format is %s.", format_name(p->format));
    else if (!strcmp(opt, "null"))
        snprintf(msg, sizeof msg, "Null display is \"%s\".",
                 p->null_display ? p->null_display : "");
    else if (!strcmp(opt, "fieldsep"))
        snprintf(msg, sizeof msg, "Field separator is \"%s\".", p->fieldsep ? p->fieldsep : "|");
    else if (!strcmp(opt, "recordsep"))
        snprintf(msg, sizeof msg,
                 !p->recordsep || !strcmp(p->recordsep, "\n") ? "Record separator is <newline>."
                                                              : "Record separator is \"%s\".",
                 p->recordsep);
    else if (!strcmp(opt, "footer"))
        snprintf(msg, sizeof msg, "Default footer is %s.", p->footer ? "on" : "off");
    else if (!strcmp(opt, "tuples_only"))
        snprintf(msg, sizeof msg, "Tuples only is %s.", p->tuples_only ? "on" : "off");
    else if (!strcmp(opt, "title"))
        snprintf(msg, sizeof msg, p->title ? "Title is \"%s\"." : "Title is unset.", p->title);
    else if (!strcmp(opt, "columns"))
        snprintf(msg, sizeof msg, p->columns ? "Target width is %d." : "Target width is unset.",
                 p->columns);
    else {
        say_expanded(cli);
        return;
    }
    say(cli, msg);
}

static bool pset_format(cli_popt_t *p, const char *value)
{
    if (!value) return true;
    size_t n = strlen(value);
    if (n && !strncasecmp(value, "aligned", n)) p->format = CLI_FMT_ALIGNED;
    else if (n && !strncasecmp(value, "unaligned", n)) p->format = CLI_FMT_UNALIGNED;
    else if (n && !strncasecmp(value, "csv", n)) p->format = CLI_FMT_CSV;
    else {
        cli_log(CLI_LOG_ERROR, "\\pset: allowed formats are aligned, unaligned, csv");
        return false;
    }
    return true;
}

static bool pset_bool(bool *slot, const char *value, const char *opt)
{
    if (!value) {
        *slot = !*slot;
        return true;
    }
    if (cli_parse_bool(value, slot) == 0) return true;
    cli_log(CLI_LOG_ERROR, "unrecognized value \"%s\" for \"%s\": Boolean expected", value, opt);
    return false;
}

/* Applies one \pset option; false after an error. */
static bool pset_apply(cli_t *cli, const char *opt, const char *value)
{
    cli_popt_t *p = &cli->popt;
    if (!strcmp(opt, "format")) return pset_format(p, value);
    if (!strcmp(opt, "expanded") || !strcmp(opt, "x")) return set_expanded(cli, value, "expanded");
    if (!strcmp(opt, "tuples_only")) return pset_bool(&p->tuples_only, value, opt);
    if (!strcmp(opt, "footer")) return pset_bool(&p->footer, value, opt);
    if (!strcmp(opt, "null")) set_string(&p->null_display, value ? value : "");
    else if (!strcmp(opt, "fieldsep")) set_string(&p->fieldsep, value ? value : "|");
    else if (!strcmp(opt, "recordsep")) set_string(&p->recordsep, value ? value : "\n");
    else if (!strcmp(opt, "title")) set_string(&p->title, value);
    else if (!strcmp(opt, "columns")) p->columns = value ? atoi(value) : 0;
    else {
        cli_log(CLI_LOG_ERROR, "\\pset: unknown option: %s", opt);
        return false;
    }
    return true;
}

/* \pset without arguments: every option and its value, in psql's list (the
 * options sluice does not vary show their fixed values). */
static void pset_list(const cli_popt_t *p)
{
    const char *rs = !p->recordsep || !strcmp(p->recordsep, "\n") ? "\\n" : p->recordsep;
    printf("%-24s %d\n", "border", 1);
    printf("%-24s %d\n", "columns", p->columns);
    printf("%-24s '%s'\n", "csv_fieldsep", ",");
    printf("%-24s %s\n", "expanded", p->expanded == 2 ? "auto" : p->expanded ? "on" : "off");
    printf("%-24s '%s'\n", "fieldsep", p->fieldsep ? p->fieldsep : "|");
    printf("%-24s %s\n", "fieldsep_zero", "off");
    printf("%-24s %s\n", "footer", p->footer ? "on" : "off");
    printf("%-24s %s\n", "format", format_name(p->format));
    printf("%-24s %s\n", "linestyle", "ascii");
    printf("%-24s '%s'\n", "null", p->null_display ? p->null_display : "");
    printf("%-24s %s\n", "numericlocale", "off");
    printf("%-24s %d\n", "pager", 0);
    printf("%-24s %d\n", "pager_min_lines", 0);
    printf("%-24s '%s'\n", "recordsep", rs);
    printf("%-24s %s\n", "recordsep_zero", "off");
    printf("%-24s \n", "tableattr");
    printf("%-24s %s\n", "title", p->title ? p->title : "");
    printf("%-24s %s\n", "tuples_only", p->tuples_only ? "on" : "off");
    printf("%-24s %s\n", "unicode_border_linestyle", "single");
    printf("%-24s %s\n", "unicode_column_linestyle", "single");
    printf("%-24s %s\n", "unicode_header_linestyle", "single");
}

static cli_cmd_result_t cmd_pset(cli_cmdctx_t *ctx)
{
    char *opt = cli_meta_arg(ctx);
    if (!opt) {
        pset_list(&ctx->cli->popt);
        return CLI_CMD_SKIP_LINE;
    }
    char *value = cli_meta_arg(ctx);
    const char *name = !strcmp(opt, "x") ? "expanded" : opt;
    bool ok = pset_apply(ctx->cli, name, value);
    /* psql reports the footer setting only when it toggles it */
    if (ok && (strcmp(name, "footer") || !value)) pset_show(ctx->cli, name);
    free(opt);
    free(value);
    return ok ? CLI_CMD_SKIP_LINE : CLI_CMD_ERROR;
}

bool cli_meta_pset(cli_t *cli, const char *option, const char *value)
{
    return pset_apply(cli, !strcmp(option, "x") ? "expanded" : option, value);
}

static cli_cmd_result_t cmd_fieldsep(cli_cmdctx_t *ctx)
{
    char *value = cli_meta_arg(ctx);
    if (value) set_string(&ctx->cli->popt.fieldsep, value);
    pset_show(ctx->cli, "fieldsep");
    free(value);
    return CLI_CMD_SKIP_LINE;
}

static cli_cmd_result_t cmd_title(cli_cmdctx_t *ctx)
{
    char *value = cli_meta_arg(ctx);
    set_string(&ctx->cli->popt.title, value);
    pset_show(ctx->cli, "title");
    free(value);
    return CLI_CMD_SKIP_LINE;
}

/* ---- connection ---------------------------------------------------------------------- */

static cli_cmd_result_t cmd_connect(cli_cmdctx_t *ctx)
{
    char *args[4] = {NULL, NULL, NULL, NULL};
    for (int i = 0; i < 4; i++) args[i] = cli_meta_arg(ctx);
    bool ok = cli_conn_reconnect(ctx->cli, args[0], args[1], args[2], args[3]);
    for (int i = 0; i < 4; i++) free(args[i]);
    return ok ? CLI_CMD_SKIP_LINE : CLI_CMD_ERROR;
}

static cli_cmd_result_t cmd_conninfo(cli_cmdctx_t *ctx)
{
    cli_conn_print_info(ctx->cli);
    return CLI_CMD_SKIP_LINE;
}

/* ---- operating system ---------------------------------------------------------------- */

static cli_cmd_result_t cmd_shell(cli_cmdctx_t *ctx)
{
    char *command = cli_lex_cmd_arg(ctx->lx, CLI_ARG_WHOLE_LINE, NULL);
    const char *shell = getenv("SHELL");
    fflush(stdout);
    int rc = system(command ? command : shell ? shell : "/bin/sh");
    free(command);
    if (rc == -1 || (WIFEXITED(rc) && WEXITSTATUS(rc) == 127)) {
        cli_log(CLI_LOG_ERROR, "\\!: failed");
        return CLI_CMD_ERROR;
    }
    return CLI_CMD_SKIP_LINE;
}

static cli_cmd_result_t cmd_cd(cli_cmdctx_t *ctx)
{
    char *dir = cli_meta_arg(ctx);
    const char *target = dir ? dir : getenv("HOME");
    bool ok = target && chdir(target) == 0;
    if (!ok)
        cli_log(CLI_LOG_ERROR, "\\%s: could not change directory to \"%s\": %s", ctx->name,
                target ? target : "", strerror(errno));
    free(dir);
    return ok ? CLI_CMD_SKIP_LINE : CLI_CMD_ERROR;
}

/* ---- the table ----------------------------------------------------------------------- */

#define G_GENERAL "General"
#define G_BUFFER "Query Buffer"
#define G_IO "Input/Output"
#define G_STREAM "Streaming"
#define G_FORMAT "Formatting"
#define G_CONN "Connection"
#define G_VARS "Variables"
#define G_OS "Operating System"

static const cmd_t command_table[] = {
    {"q", "quit", false, cmd_quit, G_GENERAL, "\\q", "quit sluice"},
    {"?", NULL, false, cmd_help, G_GENERAL, "\\? [commands|variables]",
     "show help on backslash commands or special variables"},
    {"h", "help", false, cmd_sql_help, G_GENERAL, "\\h [NAME]",
     "help on syntax of SQL commands, * for all"},
    {"g", NULL, false, cmd_send, G_BUFFER, "\\g [FILE]",
     "execute query (and send results to file or |pipe)"},
    {"gx", NULL, false, cmd_send, G_BUFFER, "\\gx [FILE]",
     "as \\g, but forces expanded output mode"},
    {"p", "print", false, cmd_print, G_BUFFER, "\\p", "show the contents of the query buffer"},
    {"r", "reset", false, cmd_reset, G_BUFFER, "\\r", "reset (clear) the query buffer"},
    {"watch", NULL, false, cli_stream_watch, G_BUFFER, "\\watch [SEC] [c=N]",
     "execute the query every SEC seconds (default 2) until Ctrl-C"},
    {"echo", NULL, false, cmd_echo, G_IO, "\\echo [-n] [STRING]",
     "write string to standard output (-n for no newline)"},
    {"qecho", NULL, false, cmd_qecho, G_IO, "\\qecho [-n] [STRING]",
     "write string to the query output stream (see \\o)"},
    {"i", "include", false, cmd_include, G_IO, "\\i FILE", "execute commands from file"},
    {"ir", "include_relative", false, cmd_include, G_IO, "\\ir FILE",
     "as \\i, but relative to location of current script"},
    {"o", "out", false, cmd_output, G_IO, "\\o [FILE]", "send all query results to file or |pipe"},
    {"dq", NULL, true, cli_stream_dq, G_STREAM, "\\dq[+] [PATTERN]",
     "list queries: status, batch, rates, watermark (+ id)"},
    {"ds", NULL, true, cli_stream_ds, G_STREAM, "\\ds[+] [PATTERN]", "list streams"},
    {"dt", NULL, true, cli_stream_dt, G_STREAM, "\\dt[+] [PATTERN]", "list tables"},
    {"d", NULL, true, cli_stream_describe, G_STREAM, "\\d[+] [NAME]",
     "describe stream, table or query; list all without NAME"},
    {"progress", NULL, false, cli_stream_progress, G_STREAM, "\\progress QUERY",
     "summarise the last progress report of a query"},
    {"tail", NULL, false, cli_stream_tail, G_STREAM, "\\tail QUERY [SEC]",
     "follow a memory-sink query's new rows (every 0.5 s) until Ctrl-C"},
    {"a", NULL, false, cmd_aligned, G_FORMAT, "\\a",
     "toggle between unaligned and aligned output mode"},
    {"C", NULL, false, cmd_title, G_FORMAT, "\\C [STRING]", "set table title, or unset if none"},
    {"f", NULL, false, cmd_fieldsep, G_FORMAT, "\\f [STRING]",
     "show or set field separator for unaligned query output"},
    {"pset", NULL, false, cmd_pset, G_FORMAT, "\\pset [NAME [VALUE]]",
     "set table output option (format, null, tuples_only, expanded, fieldsep, recordsep, "
     "footer, title, columns)"},
    {"t", NULL, false, cmd_tuples, G_FORMAT, "\\t [on|off]", "show only rows"},
    {"x", NULL, false, cmd_expanded, G_FORMAT, "\\x [on|off|auto]", "toggle expanded output"},
    {"timing", NULL, false, cmd_timing, G_FORMAT, "\\timing [on|off]", "toggle timing of commands"},
    {"c", "connect", false, cmd_connect, G_CONN, "\\c [DBNAME [USER [HOST [PORT]]]]",
     "connect to new database"},
    {"conninfo", NULL, false, cmd_conninfo, G_CONN, "\\conninfo",
     "display information about current connection"},
    {"set", NULL, false, cmd_set, G_VARS, "\\set [NAME [VALUE]]",
     "set internal variable, or list all if no parameters"},
    {"unset", NULL, false, cmd_unset, G_VARS, "\\unset NAME", "unset (delete) internal variable"},
    {"!", NULL, false, cmd_shell, G_OS, "\\! [COMMAND]",
     "execute command in shell or start "
     "interactive shell"},
    {"cd", NULL, false, cmd_cd, G_OS, "\\cd [DIR]", "change the current working directory"},
};

static const cmd_t *commands(size_t *n)
{
    *n = sizeof command_table / sizeof command_table[0];
    return command_table;
}

static bool name_matches(const cmd_t *c, const char *name)
{
    size_t n = strlen(name);
    if (c->plus && n > 1 && name[n - 1] == '+') n--;
    if (strlen(c->name) == n && !strncmp(c->name, name, n)) return true;
    return c->alias && strlen(c->alias) == n && !strncmp(c->alias, name, n);
}

static const cmd_t *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof command_table / sizeof command_table[0]; i++)
        if (name_matches(&command_table[i], name)) return &command_table[i];
    return NULL;
}

/* After a command: complain about arguments it did not take (or, after an
 * error, drop the rest of the line silently). */
static void drain_args(cli_cmdctx_t *ctx, cli_cmd_result_t r)
{
    if (r == CLI_CMD_ERROR) {
        free(cli_lex_cmd_arg(ctx->lx, CLI_ARG_WHOLE_LINE, NULL));
        return;
    }
    char *arg;
    while ((arg = cli_meta_arg(ctx)) != NULL) {
        cli_log(CLI_LOG_WARNING, "\\%s: extra argument \"%s\" ignored", ctx->name, arg);
        free(arg);
    }
}

cli_cmd_result_t cli_meta_dispatch(cli_t *cli, cli_lex_t *lx, sl_buf_t *query)
{
    char *name = cli_lex_cmd_name(lx);
    cli_cmdctx_t ctx = {.cli = cli, .lx = lx, .query = query, .name = name};
    const cmd_t *c = find_command(name);
    cli_cmd_result_t r;
    if (!c) {
        cli_log(CLI_LOG_ERROR, "invalid command \\%s", name);
        if (cli->interactive) cli_log(CLI_LOG_HINT, "Try \\? for help.");
        r = CLI_CMD_ERROR;
    } else {
        r = c->fn(&ctx);
    }
    drain_args(&ctx, r);
    cli_lex_cmd_finish(lx);
    free(name);
    return r;
}
