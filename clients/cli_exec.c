/* clients/cli_exec.c — sending statements (psql's SendQuery): every result
 * of a query string is shown in turn (tables, command tags, errors with
 * libpq's LINE/caret, DETAIL and HINT), Ctrl-C cancels through the
 * signal module, and the ERROR, SQLSTATE, ROW_COUNT and LAST_ERROR_*
 * variables follow the outcome. */
#include "clients/cli.h"
#include "clients/cli_print.h"

#include <string.h>
#include <strings.h>
#include <time.h>

double cli_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* floor() of a non-negative value, without linking libm. */
static double down(double x)
{
    return (double)(long long)x;
}

void cli_exec_print_timing(double ms)
{
    if (ms < 1000.0) {
        printf("Time: %.3f ms\n", ms);
        return;
    }
    double seconds = ms / 1000.0, minutes = down(seconds / 60.0);
    seconds -= 60.0 * minutes;
    if (minutes < 60.0) {
        printf("Time: %.3f ms (%02d:%06.3f)\n", ms, (int)minutes, seconds);
        return;
    }
    double hours = down(minutes / 60.0);
    minutes -= 60.0 * hours;
    if (hours < 24.0) {
        printf("Time: %.3f ms (%02d:%02d:%06.3f)\n", ms, (int)hours, (int)minutes, seconds);
        return;
    }
    double days = down(hours / 24.0);
    hours -= 24.0 * days;
    printf("Time: %.3f ms (%.0f d %02d:%02d:%06.3f)\n", ms, days, (int)hours, (int)minutes,
           seconds);
}

/* ---- results ------------------------------------------------------------------------- */

void cli_print_result(cli_t *cli, const PGresult *res, const char *title)
{
    sl_arena_t *a = sl_arena_new("cli");
    cli_table_t t;
    cli_table_from_result(&t, res, &cli->popt, PQclientEncoding(cli->conn), a);
    if (title) t.title = title;
    cli_print_table(cli->out, &t, &cli->popt);
    fflush(cli->out);
    sl_arena_free(a);
}

static void report_error(cli_t *cli, const PGresult *res)
{
    const char *msg = res ? PQresultErrorMessage(res) : "";
    if (!*msg) msg = PQerrorMessage(cli->conn);
    cli_log(CLI_LOG_INFO, "%s", msg);
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    const char *primary = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    cli_vars_set(&cli->vars, "LAST_ERROR_MESSAGE", primary ? primary : msg);
    cli_vars_set(&cli->vars, "LAST_ERROR_SQLSTATE", state ? state : "");
    cli_vars_set(&cli->vars, "SQLSTATE", state ? state : "");
}

/* An internal statement's error, without the LINE/caret that would point
 * into a query the user never typed. */
static void report_internal_error(cli_t *cli, const PGresult *res)
{
    const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
    if (!primary) {
        report_error(cli, res);
        return;
    }
    const char *severity = PQresultErrorField(res, PG_DIAG_SEVERITY);
    const char *detail = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL);
    const char *hint = PQresultErrorField(res, PG_DIAG_MESSAGE_HINT);
    const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    sl_buf_t msg = {0};
    sl_buf_printf(&msg, "%s:  %s", severity ? severity : "ERROR", primary);
    if (detail) sl_buf_printf(&msg, "\nDETAIL:  %s", detail);
    if (hint) sl_buf_printf(&msg, "\nHINT:  %s", hint);
    cli_log(CLI_LOG_INFO, "%s", msg.data);
    cli_vars_set(&cli->vars, "LAST_ERROR_MESSAGE", primary);
    cli_vars_set(&cli->vars, "LAST_ERROR_SQLSTATE", state ? state : "");
    sl_buf_free(&msg);
}

/* Shows one result; false for an error. */
static bool show_result(cli_t *cli, PGresult *res)
{
    bool quiet = cli_vars_bool(&cli->vars, "QUIET", false);
    switch (PQresultStatus(res)) {
    case PGRES_TUPLES_OK:
        cli_print_result(cli, res, NULL);
        cli_vars_set(&cli->vars, "ROW_COUNT", PQcmdTuples(res)[0] ? PQcmdTuples(res) : "0");
        return true;
    case PGRES_COMMAND_OK:
        if (!quiet) fprintf(cli->out, "%s\n", PQcmdStatus(res));
        fflush(cli->out);
        cli_vars_set(&cli->vars, "ROW_COUNT", PQcmdTuples(res)[0] ? PQcmdTuples(res) : "0");
        return true;
    case PGRES_EMPTY_QUERY: return true;
    case PGRES_COPY_IN:
    case PGRES_COPY_OUT:
        cli_log(CLI_LOG_ERROR, "COPY is not supported by sluice");
        PQputCopyEnd(cli->conn, "COPY is not supported by sluice");
        return false;
    default: report_error(cli, res); return false;
    }
}

/* Sends query and shows each result; the outcome and timing go to *ok / *ms. */
static void run_and_show(cli_t *cli, const char *query, bool *ok, double *ms)
{
    double start = cli_now_ms();
    *ok = true;
    cli_signal_set_cancel_conn(cli->conn);
    if (!PQsendQuery(cli->conn, query)) {
        report_error(cli, NULL);
        *ok = false;
    } else {
        PGresult *res;
        while ((res = PQgetResult(cli->conn)) != NULL) {
            if (!show_result(cli, res)) *ok = false;
            PQclear(res);
        }
    }
    cli_signal_set_cancel_conn(NULL);
    *ms = cli_now_ms() - start;
}

bool cli_exec_send(cli_t *cli, const char *query)
{
    if (!cli->conn) {
        cli_log(CLI_LOG_ERROR, "You are currently not connected to a database.");
        return false;
    }
    const char *echo = cli_vars_get(&cli->vars, "ECHO");
    if (echo && !strcasecmp(echo, "queries")) {
        puts(query);
        fflush(stdout);
    }
    bool ok;
    double ms;
    run_and_show(cli, query, &ok, &ms);
    if (!ok) {
        cli_conn_check(cli);
        if (echo && !strcasecmp(echo, "errors")) cli_log(CLI_LOG_INFO, "STATEMENT:  %s", query);
    } else {
        cli_vars_set(&cli->vars, "SQLSTATE", "00000");
    }
    cli_vars_set(&cli->vars, "ERROR", ok ? "false" : "true");
    if (cli->timing) cli_exec_print_timing(ms);
    fflush(stdout);
    return ok;
}

/* What to do with an error of a statement run for a command. */
typedef struct {
    const char *silent_sqlstate; /* not reported: the caller handles it (or NULL) */
    bool user_sql;               /* the user typed it: report with LINE and caret */
} failure_policy_t;

/* A command's statement failed: logs it unless Ctrl-C caused it or the
 * caller handles its SQLSTATE itself. */
static void internal_failure(cli_t *cli, const PGresult *res, const failure_policy_t *p)
{
    const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    bool silent =
        cli_cancel_pressed || (p->silent_sqlstate && state && !strcmp(state, p->silent_sqlstate));
    if (!silent && p->user_sql) report_error(cli, res);
    else if (!silent) report_internal_error(cli, res);
    cli_vars_set(&cli->vars, "LAST_ERROR_SQLSTATE", state ? state : "");
}

/* Reads every result of the statement sent: the last one, or NULL after an
 * error (reported through internal_failure). */
static PGresult *collect_internal(cli_t *cli, const failure_policy_t *p)
{
    PGresult *last = NULL, *res;
    bool failed = false;
    while ((res = PQgetResult(cli->conn)) != NULL) {
        ExecStatusType st = PQresultStatus(res);
        bool good = st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK || st == PGRES_EMPTY_QUERY;
        if (!good && !failed) internal_failure(cli, res, p);
        failed |= !good;
        PQclear(last);
        last = res;
    }
    if (!failed) return last;
    PQclear(last);
    return NULL;
}

static PGresult *run_for_command(cli_t *cli, const char *query, const failure_policy_t *p)
{
    if (!cli->conn) {
        cli_log(CLI_LOG_ERROR, "You are currently not connected to a database.");
        return NULL;
    }
    PGresult *res = NULL;
    cli_signal_set_cancel_conn(cli->conn);
    if (PQsendQuery(cli->conn, query)) res = collect_internal(cli, p);
    else report_error(cli, NULL);
    cli_signal_set_cancel_conn(NULL);
    if (!res) cli_conn_check(cli);
    return res;
}

PGresult *cli_exec_internal(cli_t *cli, const char *query, const char *silent_sqlstate)
{
    failure_policy_t p = {silent_sqlstate, false};
    return run_for_command(cli, query, &p);
}

PGresult *cli_exec_repeat(cli_t *cli, const char *query)
{
    failure_policy_t p = {NULL, true};
    return run_for_command(cli, query, &p);
}
