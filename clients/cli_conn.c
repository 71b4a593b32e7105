/* clients/cli_conn.c — connecting to sluiced through libpq as psql does:
 * PQconnectdbParams with expand_dbname and only the options given, so PG*
 * variables, service files and ~/.pgpass apply; defaults 127.0.0.1:5433 and
 * user $USER unless something else says otherwise; password prompts on the
 * terminal; \conninfo, \c and the reset after a lost connection. */
#include "clients/cli.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <termios.h>
#include <unistd.h>

/* ---- password prompt ----------------------------------------------------------------- */

/* Reads a line from the terminal without echo. NULL when there is no terminal. */
static char *prompt_password(const char *prompt)
{
    int fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct termios old, quiet;
    bool have_tty = tcgetattr(fd, &old) == 0;
    if (have_tty) {
        quiet = old;
        quiet.c_lflag &= (tcflag_t)~ECHO;
        tcsetattr(fd, TCSAFLUSH, &quiet);
    }
    ssize_t rc = write(fd, prompt, strlen(prompt));
    char buf[1024];
    size_t n = 0;
    while (n + 1 < sizeof buf && (rc = read(fd, buf + n, 1)) == 1 && buf[n] != '\n') n++;
    buf[n] = '\0';
    if (have_tty) tcsetattr(fd, TCSAFLUSH, &old);
    rc = write(fd, "\n", 1);
    (void)rc;
    close(fd);
    return sl_xstrdup(buf);
}

/* ---- parameters ---------------------------------------------------------------------- */

static bool looks_like_connstr(const char *s)
{
    return s &&
           (strchr(s, '=') || !strncmp(s, "postgresql://", 13) || !strncmp(s, "postgres://", 11));
}

/* True when a service (PGSERVICE or service= in the connection string)
 * supplies parameters: then only libpq's own defaults may fill the gaps. */
static bool service_in_play(const char *dbname)
{
    if (getenv("PGSERVICE") && *getenv("PGSERVICE")) return true;
    if (!looks_like_connstr(dbname)) return false;
    PQconninfoOption *opts = PQconninfoParse(dbname, NULL);
    bool found = false;
    for (PQconninfoOption *o = opts; o && o->keyword; o++)
        if (!strcmp(o->keyword, "service") && o->val && *o->val) found = true;
    PQconninfoFree(opts);
    return found;
}

static bool env_set(const char *name)
{
    const char *v = getenv(name);
    return v && *v;
}

/* Keyword/value arrays for PQconnectdbParams. */
typedef struct {
    const char *keys[12];   /* keywords, NULL-terminated */
    const char *values[12]; /* their values */
    int n;                  /* pairs in use */
} params_t;

static void param(params_t *p, const char *key, const char *value)
{
    if (!value) return;
    p->keys[p->n] = key;
    p->values[p->n] = value;
    p->n++;
}

/* The arrays in psql's order; our defaults go before dbname so that a
 * connection string given as the database overrides them. */
static void build_params(const cli_t *cli, const cli_connopts_t *o, const char *password,
                         params_t *p)
{
    bool service = service_in_play(o->dbname);
    const char *host = o->host, *port = o->port, *user = o->user;
    if (!host && !service && !env_set("PGHOST") && !env_set("PGHOSTADDR")) host = CLI_DEFAULT_HOST;
    if (!port && !service && !env_set("PGPORT")) port = CLI_DEFAULT_PORT;
    if (!user && !service && !env_set("PGUSER") && env_set("USER")) user = getenv("USER");
    p->n = 0;
    param(p, "host", host);
    param(p, "port", port);
    param(p, "user", user);
    param(p, "password", password);
    param(p, "dbname", o->dbname);
    param(p, "fallback_application_name", cli->progname);
    if (!cli->notty && !getenv("PGCLIENTENCODING")) param(p, "client_encoding", "auto");
    p->keys[p->n] = NULL;
    p->values[p->n] = NULL;
}

PGconn *cli_conn_open(cli_t *cli, const cli_connopts_t *o)
{
    char *password = o->get_password > 0 ? prompt_password("Password: ") : NULL;
    PGconn *conn;
    for (;;) {
        params_t p;
        build_params(cli, o, password, &p);
        conn = PQconnectdbParams(p.keys, p.values, 1);
        if (PQstatus(conn) != CONNECTION_BAD || !PQconnectionNeedsPassword(conn) || password ||
            o->get_password < 0)
            break;
        char prompt[300];
        const char *user = PQuser(conn);
        if (user && *user) snprintf(prompt, sizeof prompt, "Password for user %s: ", user);
        else snprintf(prompt, sizeof prompt, "Password: ");
        password = prompt_password(prompt);
        if (!password) break;
        PQfinish(conn);
    }
    if (password) {
        memset(password, 0, strlen(password));
        free(password);
    }
    if (PQstatus(conn) == CONNECTION_BAD) {
        cli_log(CLI_LOG_ERROR, "%s", PQerrorMessage(conn));
        PQfinish(conn);
        return NULL;
    }
    return conn;
}

/* ---- session variables --------------------------------------------------------------- */

static void notice_processor(void *arg, const char *message)
{
    (void)arg;
    cli_log(CLI_LOG_INFO, "%s", message);
}

static PGVerbosity verbosity(const cli_t *cli)
{
    const char *v = cli_vars_get(&cli->vars, "VERBOSITY");
    if (!v) return PQERRORS_DEFAULT;
    if (!strcasecmp(v, "verbose")) return PQERRORS_VERBOSE;
    if (!strcasecmp(v, "terse")) return PQERRORS_TERSE;
    if (!strcasecmp(v, "sqlstate")) return PQERRORS_SQLSTATE;
    return PQERRORS_DEFAULT;
}

static PGContextVisibility context_visibility(const cli_t *cli)
{
    const char *v = cli_vars_get(&cli->vars, "SHOW_CONTEXT");
    if (v && !strcasecmp(v, "never")) return PQSHOW_CONTEXT_NEVER;
    if (v && !strcasecmp(v, "always")) return PQSHOW_CONTEXT_ALWAYS;
    return PQSHOW_CONTEXT_ERRORS;
}

void cli_conn_sync(cli_t *cli)
{
    PGconn *c = cli->conn;
    if (!c) return;
    char num[32];
    cli_vars_set(&cli->vars, "DBNAME", PQdb(c));
    cli_vars_set(&cli->vars, "USER", PQuser(c));
    cli_vars_set(&cli->vars, "HOST", PQhost(c));
    cli_vars_set(&cli->vars, "PORT", PQport(c));
    cli_vars_set(&cli->vars, "ENCODING", pg_encoding_to_char(PQclientEncoding(c)));
    const char *sv = PQparameterStatus(c, "server_version");
    cli_vars_set(&cli->vars, "SERVER_VERSION_NAME", sv ? sv : "");
    snprintf(num, sizeof num, "%d", PQserverVersion(c));
    cli_vars_set(&cli->vars, "SERVER_VERSION_NUM", num);
    PQsetNoticeProcessor(c, notice_processor, cli);
    PQsetErrorVerbosity(c, verbosity(cli));
    PQsetErrorContextVisibility(c, context_visibility(cli));
}

bool cli_conn_check(cli_t *cli)
{
    if (!cli->conn) return false;
    if (PQstatus(cli->conn) != CONNECTION_BAD) return true;
    if (!cli->interactive) {
        cli_log(CLI_LOG_ERROR, "connection to server was lost");
        cli->conn_lost = true;
        return false;
    }
    fputs("The connection to the server was lost. Attempting reset: ", stderr);
    PQreset(cli->conn);
    if (PQstatus(cli->conn) == CONNECTION_BAD) {
        fputs("Failed.\n", stderr);
        PQfinish(cli->conn);
        cli->conn = NULL;
        return false;
    }
    fputs("Succeeded.\n", stderr);
    cli_conn_sync(cli);
    return false;
}

/* ---- \conninfo and \c ---------------------------------------------------------------- */

static void print_ssl(PGconn *c)
{
    if (!PQsslInUse(c)) return;
    const char *protocol = PQsslAttribute(c, "protocol");
    const char *cipher = PQsslAttribute(c, "cipher");
    const char *compression = PQsslAttribute(c, "compression");
    printf("SSL connection (protocol: %s, cipher: %s, compression: %s)\n",
           protocol ? protocol : "unknown", cipher ? cipher : "unknown",
           compression && strcmp(compression, "off") ? "on" : "off");
}

void cli_conn_print_info(cli_t *cli)
{
    PGconn *c = cli->conn;
    if (!c) {
        printf("You are currently not connected to a database.\n");
        return;
    }
    const char *host = PQhost(c), *addr = PQhostaddr(c);
    if (host && host[0] == '/') {
        printf("You are connected to database \"%s\" as user \"%s\" via socket in \"%s\" at "
               "port \"%s\".\n",
               PQdb(c), PQuser(c), host, PQport(c));
    } else if (addr && *addr && strcmp(host, addr)) {
        printf("You are connected to database \"%s\" as user \"%s\" on host \"%s\" (address "
               "\"%s\") at port \"%s\".\n",
               PQdb(c), PQuser(c), host, addr, PQport(c));
    } else {
        printf("You are connected to database \"%s\" as user \"%s\" on host \"%s\" at port "
               "\"%s\".\n",
               PQdb(c), PQuser(c), host, PQport(c));
    }
    print_ssl(c);
}

/* A \c argument: NULL or "-" keeps the current value. */
static const char *keep(const char *arg, const char *current)
{
    return !arg || !strcmp(arg, "-") ? current : arg;
}

bool cli_conn_reconnect(cli_t *cli, const char *db, const char *user, const char *host,
                        const char *port)
{
    PGconn *old = cli->conn;
    cli_connopts_t o = cli->connopts;
    o.dbname = keep(db, old ? PQdb(old) : cli->connopts.dbname);
    o.user = keep(user, old ? PQuser(old) : cli->connopts.user);
    o.host = keep(host, old ? PQhost(old) : cli->connopts.host);
    o.port = keep(port, old ? PQport(old) : cli->connopts.port);
    bool moved = (host && strcmp(host, "-")) || (port && strcmp(port, "-"));
    PGconn *conn = cli_conn_open(cli, &o);
    if (!conn) {
        if (old) cli_log(CLI_LOG_INFO, "Previous connection kept");
        return false;
    }
    if (old) PQfinish(old);
    cli->conn = conn;
    cli_conn_sync(cli);
    if (cli_vars_bool(&cli->vars, "QUIET", false)) return true;
    if (moved)
        printf("You are now connected to database \"%s\" as user \"%s\" on host \"%s\" at port "
               "\"%s\".\n",
               PQdb(conn), PQuser(conn), PQhost(conn), PQport(conn));
    else
        printf("You are now connected to database \"%s\" as user \"%s\".\n", PQdb(conn),
               PQuser(conn));
    return true;
}
