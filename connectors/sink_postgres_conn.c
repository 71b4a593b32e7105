/* The postgres sink's connection: connecting through libpq with the
 * url and password options, turning libpq and server errors into sluice
 * errors with PostgreSQL's SQLSTATE, and deciding which errors are
 * transient (retried by the sink) and which fail the query. */
#include <string.h>

#include "connectors/sink_postgres_int.h"

/* libpq reports a failed connection without a result, so without the
 * server's SQLSTATE: the message tells a failed login from the rest. */
const char *pgsink_connect_sqlstate(const char *msg)
{
    if (strstr(msg, "password authentication failed") || strstr(msg, "no password supplied"))
        return SL_ERR_INVALID_PASSWORD;
    if (strstr(msg, "does not exist") && strstr(msg, "role")) return SL_ERR_INVALID_AUTHORIZATION;
    return "08001";
}

/* The first line of libpq's message, without its trailing newline. */
static void set_message(sl_error_t *err, const char *sqlstate, const char *msg)
{
    size_t n = strcspn(msg, "\n");
    sl_error_set(err, sqlstate, "postgres sink: %.*s", (int)n, msg);
}

/* Server notices ("relation already exists, skipping") are not errors;
 * libpq would print them on the daemon's stderr. */
static void ignore_notice(void *arg, const char *message)
{
    (void)arg, (void)message;
}

int pgsink_connect(pgsink_t *p, sl_error_t *err)
{
    const char *keys[] = {"dbname", "password", "application_name", "connect_timeout", NULL};
    const char *vals[] = {p->url, p->password, "sluice", "10", NULL};
    if (!p->password) keys[1] = "application_name", vals[1] = "sluice", keys[2] = NULL;
    PGconn *c = PQconnectdbParams(keys, vals, 1);
    if (!c || PQstatus(c) != CONNECTION_OK) {
        const char *msg = c ? PQerrorMessage(c) : "out of memory";
        set_message(err, pgsink_connect_sqlstate(msg), msg);
        PQfinish(c);
        return -1;
    }
    p->conn = c;
    PQsetNoticeProcessor(c, ignore_notice, NULL);
    bool transient;
    PGresult *r =
        pgsink_exec(p, "SET TimeZone = 'UTC'", 0, NULL, PGRES_COMMAND_OK, &transient, err);
    if (!r) return -1;
    PQclear(r);
    return 0;
}

void pgsink_disconnect(pgsink_t *p)
{
    PQfinish(p->conn);
    p->conn = NULL;
}

/* Serialization failure, deadlock, admin shutdown and connection errors
 * may succeed when the batch is tried again. */
static bool sqlstate_transient(const char *st)
{
    return !strncmp(st, "08", 2) || !strcmp(st, "40001") || !strcmp(st, "40P01") ||
           !strcmp(st, "57P01") || !strcmp(st, "57P02") || !strcmp(st, "57P03");
}

int pgsink_fail(pgsink_t *p, PGresult *r, bool *transient, sl_error_t *err)
{
    const char *st = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    bool lost = PQstatus(p->conn) != CONNECTION_OK;
    if (!st) st = "08006";
    const char *msg = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    set_message(err, st, msg ? msg : PQerrorMessage(p->conn));
    const char *detail = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_DETAIL) : NULL;
    if (detail) sl_error_detail(err, "%s", detail);
    *transient = lost || sqlstate_transient(st);
    if (lost) pgsink_disconnect(p);
    return -1;
}

PGresult *pgsink_exec(pgsink_t *p, const char *sql, int nparams, const char *const *params,
                      ExecStatusType want, bool *transient, sl_error_t *err)
{
    PGresult *r = PQexecParams(p->conn, sql, nparams, NULL, params, NULL, NULL, 0);
    if (r && PQresultStatus(r) == want) return r;
    pgsink_fail(p, r, transient, err);
    PQclear(r);
    return NULL;
}

int pgsink_create_if_missing(pgsink_t *p, const char *ddl, bool *transient, sl_error_t *err)
{
    PGresult *r = pgsink_exec(p, ddl, 0, NULL, PGRES_COMMAND_OK, transient, err);
    PQclear(r);
    if (r) return 0;
    /* two sinks creating the same table at once: the loser sees the table
     * (42P07), its row type (42710 "type ... already exists") or the
     * catalog's unique index (23505), depending on where the race is lost */
    if (!strcmp(err->sqlstate, "23505") || !strcmp(err->sqlstate, "42P07") ||
        !strcmp(err->sqlstate, "42710")) {
        sl_error_clear(err);
        return 0;
    }
    return -1;
}
