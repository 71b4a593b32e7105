/* clients/sluice.c — main() of `sluice`, the psql-style command-line client
 * for sluiced: parses psql's options, connects, runs the -c / -f actions in
 * order (or the interactive loop), and returns psql's exit status: 0 ok,
 * 1 a failed -c statement or a missing file, 2 no (or a lost) connection,
 * 3 a script error under ON_ERROR_STOP or Ctrl-C in a script. */
#include "clients/cli.h"
#include "clients/cli_meta.h"

#include <getopt.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef enum { ACT_QUERY, ACT_SLASH, ACT_FILE } action_kind_t;

typedef struct action {
    action_kind_t kind;
    const char *value; /* statement, backslash command or file name */
} action_t;

/* What the command line asked for besides the session settings. */
typedef struct {
    action_t *actions; /* -c and -f in command-line order */
    int nactions;      /* entries in actions */
    bool no_rc;        /* -X */
    bool no_readline;  /* -n */
} options_t;

static void usage(void)
{
    printf("sluice is the interactive terminal for the sluice streaming SQL server.\n\n"
           "Usage:\n  sluice [OPTION]... [DBNAME [USERNAME]]\n\n"
           "General options:\n"
           "  -c, --command=COMMAND    run only single command (SQL or internal) and exit\n"
           "  -d, --dbname=DBNAME      database name to connect to\n"
           "  -f, --file=FILENAME      execute commands from file, then exit\n"
           "  -v, --set=, --variable=NAME=VALUE\n"
           "                           set sluice variable NAME to VALUE\n"
           "                           (e.g., -v ON_ERROR_STOP=1)\n"
           "  -V, --version            output version information, then exit\n"
           "  -X, --no-psqlrc          do not read startup file (~/.sluicerc)\n"
           "  -?, --help               show this help, then exit\n\n"
           "Input and output options:\n"
           "  -a, --echo-all           echo all input from script\n"
           "  -b, --echo-errors        echo failed commands\n"
           "  -e, --echo-queries       echo commands sent to server\n"
           "  -n, --no-readline        disable enhanced command line editing\n"
           "  -o, --output=FILENAME    send query results to file (or |pipe)\n"
           "  -q, --quiet              run quietly (no messages, only query output)\n"
           "  -S, --single-line        single-line mode (end of line terminates SQL command)\n\n"
           "Output format options:\n"
           "  -A, --no-align           unaligned table output mode\n"
           "      --csv                CSV (Comma-Separated Values) table output mode\n"
           "  -F, --field-separator=STRING\n"
           "                           field separator for unaligned output (default: \"|\")\n"
           "  -P, --pset=VAR[=ARG]     set printing option VAR to ARG (see \\pset command)\n"
           "  -R, --record-separator=STRING\n"
           "                           record separator for unaligned output (default: "
           "newline)\n"
           "  -t, --tuples-only        print rows only\n"
           "  -x, --expanded           turn on expanded table output\n\n"
           "Connection options:\n"
           "  -h, --host=HOSTNAME      database server host (default: \"%s\")\n"
           "  -p, --port=PORT          database server port (default: \"%s\")\n"
           "  -U, --username=USERNAME  database user name (default: $USER)\n"
           "  -w, --no-password        never prompt for password\n"
           "  -W, --password           force password prompt (should happen automatically)\n\n"
           "PGHOST, PGPORT, PGUSER, PGPASSWORD, PGSSLMODE, PGSERVICE and ~/.pgpass work as\n"
           "for psql. For more information, type \"\\?\" (for internal commands) or\n"
           "\"\\h\" (for SQL commands) from within sluice, or see docs/cli.md.\n",
           CLI_DEFAULT_HOST, CLI_DEFAULT_PORT);
}

static void add_action(options_t *o, action_kind_t kind, const char *value)
{
    o->actions = sl_xrealloc(o->actions, (size_t)(o->nactions + 1) * sizeof *o->actions);
    o->actions[o->nactions].kind = kind;
    o->actions[o->nactions].value = value;
    o->nactions++;
}

/* -v NAME=VALUE (or -v NAME to unset). */
static bool set_var_option(cli_t *cli, const char *arg)
{
    char *copy = sl_xstrdup(arg);
    char *eq = strchr(copy, '=');
    if (eq) *eq = '\0';
    bool ok = cli_vars_set(&cli->vars, copy, eq ? eq + 1 : NULL) == 0;
    free(copy);
    return ok;
}

static bool pset_option(cli_t *cli, const char *arg)
{
    char *copy = sl_xstrdup(arg);
    char *eq = strchr(copy, '=');
    if (eq) *eq = '\0';
    bool ok = cli_meta_pset(cli, copy, eq ? eq + 1 : NULL);
    if (!ok) cli_log(CLI_LOG_ERROR, "could not set printing parameter \"%s\"", copy);
    free(copy);
    return ok;
}

static const struct option long_options[] = {
    {"echo-all", no_argument, NULL, 'a'},
    {"no-align", no_argument, NULL, 'A'},
    {"echo-errors", no_argument, NULL, 'b'},
    {"command", required_argument, NULL, 'c'},
    {"dbname", required_argument, NULL, 'd'},
    {"echo-queries", no_argument, NULL, 'e'},
    {"file", required_argument, NULL, 'f'},
    {"field-separator", required_argument, NULL, 'F'},
    {"host", required_argument, NULL, 'h'},
    {"no-readline", no_argument, NULL, 'n'},
    {"output", required_argument, NULL, 'o'},
    {"port", required_argument, NULL, 'p'},
    {"pset", required_argument, NULL, 'P'},
    {"quiet", no_argument, NULL, 'q'},
    {"record-separator", required_argument, NULL, 'R'},
    {"single-line", no_argument, NULL, 'S'},
    {"tuples-only", no_argument, NULL, 't'},
    {"username", required_argument, NULL, 'U'},
    {"set", required_argument, NULL, 'v'},
    {"variable", required_argument, NULL, 'v'},
    {"version", no_argument, NULL, 'V'},
    {"no-password", no_argument, NULL, 'w'},
    {"password", no_argument, NULL, 'W'},
    {"expanded", no_argument, NULL, 'x'},
    {"no-psqlrc", no_argument, NULL, 'X'},
    {"help", no_argument, NULL, '?'},
    {"csv", no_argument, NULL, 1},
    {NULL, 0, NULL, 0},
};

/* Applies one option; returns -1 to exit with failure, 1 to exit with
 * success (--help, --version), 0 to go on. */
static int apply_option(cli_t *cli, options_t *o, int c, const char *arg)
{
    switch (c) {
    case 'a': cli_vars_set(&cli->vars, "ECHO", "all"); break;
    case 'A': cli->popt.format = CLI_FMT_UNALIGNED; break;
    case 'b': cli_vars_set(&cli->vars, "ECHO", "errors"); break;
    case 'c': add_action(o, arg[0] == '\\' ? ACT_SLASH : ACT_QUERY, arg); break;
    case 'd': cli->connopts.dbname = arg; break;
    case 'e': cli_vars_set(&cli->vars, "ECHO", "queries"); break;
    case 'f': add_action(o, ACT_FILE, arg); break;
    case 'F': cli_meta_pset(cli, "fieldsep", arg); break;
    case 'h': cli->connopts.host = arg; break;
    case 'n': o->no_readline = true; break;
    case 'o': return cli_set_output(cli, arg) ? 0 : -1;
    case 'p': cli->connopts.port = arg; break;
    case 'P': return pset_option(cli, arg) ? 0 : -1;
    case 'q': cli_vars_set(&cli->vars, "QUIET", "on"); break;
    case 'R': cli_meta_pset(cli, "recordsep", arg); break;
    case 'S': cli_vars_set(&cli->vars, "SINGLELINE", "on"); break;
    case 't': cli->popt.tuples_only = true; break;
    case 'U': cli->connopts.user = arg; break;
    case 'v': return set_var_option(cli, arg) ? 0 : -1;
    case 'V': printf("sluice (sluice) %s\n", CLI_VERSION); return 1;
    case 'w': cli->connopts.get_password = -1; break;
    case 'W': cli->connopts.get_password = 1; break;
    case 'x': cli->popt.expanded = 1; break;
    case 'X': o->no_rc = true; break;
    case 1: cli->popt.format = CLI_FMT_CSV; break;
    default: return -1;
    }
    return 0;
}

/* Parses argv; returns -1 (exit 1), 1 (exit 0) or 0. */
static int parse_options(cli_t *cli, options_t *o, int argc, char **argv)
{
    int c;
    while ((c = getopt_long(argc, argv, "aAbc:d:ef:F:h:no:p:P:qR:StU:v:VwWxX?", long_options,
                            NULL)) != -1) {
        if (c == '?' && (optopt == 0 || optopt == '?') && !strcmp(argv[optind - 1], "-?")) {
            usage();
            return 1;
        }
        if (c == '?' && !strcmp(argv[optind - 1], "--help")) {
            usage();
            return 1;
        }
        int rc = c == '?' ? -1 : apply_option(cli, o, c, optarg);
        if (rc != 0) {
            if (rc < 0) fprintf(stderr, "Try \"%s --help\" for more information.\n", cli->progname);
            return rc;
        }
    }
    for (; optind < argc; optind++) {
        if (!cli->connopts.dbname) cli->connopts.dbname = argv[optind];
        else if (!cli->connopts.user) cli->connopts.user = argv[optind];
        else cli_log(CLI_LOG_WARNING, "extra command-line argument \"%s\" ignored", argv[optind]);
    }
    return 0;
}

static void init_session(cli_t *cli)
{
    memset(cli, 0, sizeof *cli);
    cli->progname = "sluice";
    cli->out = stdout;
    cli->popt.footer = true;
    cli->notty = !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO);
    static const char *const defaults[][2] = {
        {"VERSION", "sluice " CLI_VERSION},
        {"VERSION_NAME", CLI_VERSION},
        {"PROMPT1", "%/%R%x%# "},
        {"PROMPT2", "%/%R%x%# "},
        {"ECHO", "none"},
        {"ON_ERROR_STOP", "off"},
        {"QUIET", "off"},
        {"VERBOSITY", "default"},
        {"SHOW_CONTEXT", "errors"},
        {"HISTSIZE", "500"},
        {"LAST_ERROR_MESSAGE", ""},
        {"LAST_ERROR_SQLSTATE", "00000"},
    };
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
        cli_vars_set(&cli->vars, defaults[i][0], defaults[i][1]);
}

/* ~/.sluicerc (or $SLUICERC), run like \i when it exists. */
static void run_rc_file(cli_t *cli)
{
    const char *env = getenv("SLUICERC"), *home = getenv("HOME");
    sl_buf_t path = {0};
    if (env && *env) sl_buf_puts(&path, env);
    else if (home && *home) sl_buf_printf(&path, "%s/.sluicerc", home);
    if (path.len > 0 && access(path.data, R_OK) == 0) cli_loop_run_file(cli, path.data, NULL);
    sl_buf_free(&path);
}

/* "sluice (0.1.0)" or "sluice (0.1.0, server X)" and the TLS line. */
static void banner(cli_t *cli)
{
    const char *sv = PQparameterStatus(cli->conn, "server_version");
    const char *tag = sv ? strstr(sv, "sluice ") : NULL;
    char server[64] = "";
    if (tag) snprintf(server, sizeof server, "%.*s", (int)strcspn(tag + 7, ")"), tag + 7);
    else if (sv) snprintf(server, sizeof server, "%s", sv);
    if (!*server || !strcmp(server, CLI_VERSION)) printf("sluice (%s)\n", CLI_VERSION);
    else printf("sluice (%s, server %s)\n", CLI_VERSION, server);
    if (PQsslInUse(cli->conn)) {
        const char *proto = PQsslAttribute(cli->conn, "protocol");
        const char *cipher = PQsslAttribute(cli->conn, "cipher");
        printf("SSL connection (protocol: %s, cipher: %s, compression: off)\n",
               proto ? proto : "unknown", cipher ? cipher : "unknown");
    }
    printf("Type \"help\" for help.\n\n");
}

/* Runs the -c / -f actions in order; stops at a failure under ON_ERROR_STOP. */
static int run_actions(cli_t *cli, const options_t *o)
{
    int rc = CLI_EXIT_OK;
    for (int i = 0; i < o->nactions; i++) {
        const action_t *a = &o->actions[i];
        if (a->kind != ACT_FILE) cli_log_set_terse(true);
        const char *echo = cli_vars_get(&cli->vars, "ECHO");
        if (a->kind != ACT_FILE && echo && !strcmp(echo, "all")) puts(a->value);
        fflush(stdout);
        if (a->kind == ACT_QUERY)
            rc = cli_exec_send(cli, a->value) ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
        else if (a->kind == ACT_SLASH) rc = cli_loop_run_slash(cli, a->value);
        else rc = cli_loop_run_file(cli, a->value, NULL);
        if (cli->conn_lost) return CLI_EXIT_BADCONN;
        if (rc != CLI_EXIT_OK && cli_vars_bool(&cli->vars, "ON_ERROR_STOP", false)) break;
    }
    return rc;
}

static int run_interactive(cli_t *cli, const options_t *o)
{
    cli_log_set_terse(true);
    if (!cli_vars_bool(&cli->vars, "QUIET", false)) banner(cli);
    cli->interactive = true;
    if (!o->no_readline) cli_input_init(cli);
    int rc = cli_loop_run(cli, stdin, true);
    cli_input_close(cli);
    return rc;
}

/* Connects and runs the actions or the interactive loop; an exit status. */
static int run(cli_t *cli, options_t *o)
{
    if (o->nactions == 0 && cli->notty) add_action(o, ACT_FILE, NULL);
    cli->conn = cli_conn_open(cli, &cli->connopts);
    if (!cli->conn) return CLI_EXIT_BADCONN;
    cli_signal_init();
    cli_conn_sync(cli);
    if (!o->no_rc) run_rc_file(cli);
    return o->nactions > 0 ? run_actions(cli, o) : run_interactive(cli, o);
}

static void session_free(cli_t *cli, options_t *o)
{
    if (cli->conn) PQfinish(cli->conn);
    cli->conn = NULL;
    cli_signal_set_cancel_conn(NULL);
    cli_set_output(cli, NULL);
    cli_vars_free(&cli->vars);
    sl_buf_free(&cli->last_query);
    free(cli->popt.null_display);
    free(cli->popt.fieldsep);
    free(cli->popt.recordsep);
    free(cli->popt.title);
    free(cli->g_target);
    free(o->actions);
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C"); /* JSON numbers and timings use '.' */
    cli_t cli;
    init_session(&cli);
    options_t o = {0};
    int rc = parse_options(&cli, &o, argc, argv);
    if (rc == 0) rc = run(&cli, &o);
    else rc = rc > 0 ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
    session_free(&cli, &o);
    return rc;
}
