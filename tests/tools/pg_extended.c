/* pg_extended: checks sluice's extended query protocol through libpq, the
 * way drivers use it: PQexecParams with parameters and NULLs,
 * PQprepare/PQdescribePrepared/PQexecPrepared, pipeline mode with an error
 * followed by recovery at Sync, a Describe+Execute that runs its
 * statement once, and subqueries with parameters: described without being
 * run, run anew with each execution's values; and the one namespace of
 * Parse's statements and SQL's PREPARE / EXECUTE / DEALLOCATE.
 *
 * Then the ways a driver leaves (each on a connection of its own, each
 * followed by a check that the daemon still answers a new connection): a
 * parameterized statement as the last one before PQfinish, PQfinish right
 * after PQsendQueryParams without reading, pipelines left mid-way (with a
 * portal bound and no Sync, with results unread after a Sync), a prepared
 * statement left open, PQfinish during a long statement, after a
 * CancelRequest, and during AWAIT QUERY.
 *
 *   pg_extended CONNINFO     exit status 0 when every check passed
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "tests/tools/pg_check.h"

/* Runs a statement without parameters through the extended protocol. */
static PGresult *xp(const char *sql)
{
    return PQexecParams(conn, sql, 0, NULL, NULL, NULL, NULL, 0);
}

/* 1 when SHOW STREAMS lists `name`, 0 when not, -1 on error. */
static int stream_count(const char *name)
{
    PGresult *r = PQexec(conn, "SHOW STREAMS");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        PQclear(r);
        return -1;
    }
    int n = 0;
    for (int i = 0; i < PQntuples(r); i++) n += !strcmp(PQgetvalue(r, i, 0), name);
    PQclear(r);
    return n;
}

static void check_exec_params_with_nulls(void)
{
    const char *vals[3] = {"hello, world", NULL, ""};
    PGresult *r = keep(PQexecParams(conn, "SELECT $1, $2, $3", 3, NULL, vals, NULL, NULL, 0));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK, "%s", PQresultErrorMessage(r));
    EXPECT(PQntuples(r) == 1 && PQnfields(r) == 3, "%d rows, %d columns", PQntuples(r),
           PQnfields(r));
    EXPECT(!strcmp(PQgetvalue(r, 0, 0), "hello, world"), "got \"%s\"", PQgetvalue(r, 0, 0));
    EXPECT(PQgetisnull(r, 0, 1), "$2 should be NULL");
    EXPECT(!PQgetisnull(r, 0, 2) && PQgetlength(r, 0, 2) == 0, "$3 should be an empty string");
    /* Too few parameters for the statement. */
    r = keep(PQexecParams(conn, "SELECT $1, $2", 1, NULL, vals, NULL, NULL, 0));
    EXPECT(PQresultStatus(r) == PGRES_FATAL_ERROR && !strcmp(sqlstate(r), "08P01"), "%s",
           PQresultErrorMessage(r));
    /* A binary parameter needs a declared type (22P03); a binary text
     * result is the bytes themselves (tests/tools/pg_binary.c covers the rest). */
    int fmt = 1, len = 4;
    r = keep(PQexecParams(conn, "SELECT $1", 1, NULL, vals, &len, &fmt, 0));
    EXPECT(!strcmp(sqlstate(r), "22P03"), "binary parameter: %s", PQresultErrorMessage(r));
    r = keep(PQexecParams(conn, "SELECT $1", 1, NULL, vals, NULL, NULL, 1));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK && PQfformat(r, 0) == 1 &&
               !strcmp(PQgetvalue(r, 0, 0), "hello, world"),
           "binary result: %s", PQresultErrorMessage(r));
    r = keep(xp(""));
    EXPECT(PQresultStatus(r) == PGRES_EMPTY_QUERY, "empty query: %s",
           PQresStatus(PQresultStatus(r)));
    printf("ok exec_params_with_nulls\n");
}

static void check_prepared(void)
{
    const unsigned int types[2] = {25, 0};
    PGresult *r = keep(PQprepare(conn, "p1", "SELECT $1, $2", 2, types));
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(r));
    r = keep(PQprepare(conn, "p1", "SELECT $1", 0, NULL));
    EXPECT(!strcmp(sqlstate(r), "42P05"), "duplicate name: %s", PQresultErrorMessage(r));
    r = keep(PQdescribePrepared(conn, "p1"));
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(r));
    EXPECT(PQnparams(r) == 2, "%d parameters", PQnparams(r));
    EXPECT(PQparamtype(r, 0) == 25 && PQparamtype(r, 1) == 25, "types %u %u", PQparamtype(r, 0),
           PQparamtype(r, 1));
    EXPECT(PQnfields(r) == 2, "%d result columns", PQnfields(r));
    for (int round = 0; round < 2; round++) { /* a prepared statement runs again and again */
        const char *vals[2] = {round ? "second" : "first", NULL};
        r = keep(PQexecPrepared(conn, "p1", 2, vals, NULL, NULL, 0));
        EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK, "%s", PQresultErrorMessage(r));
        EXPECT(!strcmp(PQgetvalue(r, 0, 0), vals[0]) && PQgetisnull(r, 0, 1), "got \"%s\"",
               PQgetvalue(r, 0, 0));
    }
    r = keep(PQdescribePrepared(conn, "nope"));
    EXPECT(!strcmp(sqlstate(r), "26000"), "unknown statement: %s", PQresultErrorMessage(r));
    /* Errors show at Parse, as in PostgreSQL. */
    r = keep(PQprepare(conn, "bad", "SELEKT 1", 0, NULL));
    EXPECT(!strcmp(sqlstate(r), "42601"), "syntax error at prepare: %s", PQresultErrorMessage(r));
    r = keep(PQprepare(conn, "show", "SHOW STREAMS", 0, NULL));
    r = keep(PQdescribePrepared(conn, "show"));
    EXPECT(PQnparams(r) == 0 && PQnfields(r) >= 1, "SHOW STREAMS described as %d/%d", PQnparams(r),
           PQnfields(r));
    printf("ok prepared\n");
}

/* A statement made by Parse runs with SQL's EXECUTE and goes with
 * DEALLOCATE; one made by PREPARE is described and bound through the
 * protocol. */
static void check_prepared_namespace(void)
{
    const unsigned int types[1] = {23};
    PGresult *r = keep(PQprepare(conn, "wire", "SELECT $1 * 2 AS doubled", 1, types));
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(r));
    r = keep(PQexec(conn, "SELECT from_sql, statement, parameter_types FROM pg_prepared_statements "
                          "WHERE name = 'wire'"));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 &&
               !strcmp(PQgetvalue(r, 0, 0), "f") &&
               !strcmp(PQgetvalue(r, 0, 1), "SELECT $1 * 2 AS doubled") &&
               !strcmp(PQgetvalue(r, 0, 2), "{integer}"),
           "pg_prepared_statements: %s", PQresultErrorMessage(r));
    r = keep(PQexec(conn, "EXECUTE wire(21)"));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK && !strcmp(PQgetvalue(r, 0, 0), "42"),
           "EXECUTE: %s", PQresultErrorMessage(r));
    r = keep(PQexec(conn, "PREPARE wire AS SELECT 1"));
    EXPECT(!strcmp(sqlstate(r), "42P05"), "PREPARE of a Parse'd name: %s", PQresultErrorMessage(r));
    r = keep(PQexec(conn, "DEALLOCATE wire"));
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK && !strcmp(PQcmdStatus(r), "DEALLOCATE"), "%s",
           PQresultErrorMessage(r));
    const char *vals[1] = {"5"};
    r = keep(PQexecPrepared(conn, "wire", 1, vals, NULL, NULL, 0));
    EXPECT(!strcmp(sqlstate(r), "26000"), "Bind after DEALLOCATE: %s", PQresultErrorMessage(r));
    r = keep(xp(
        "PREPARE sqlside (int) AS SELECT $1 + 1 AS next, 'x' AS tag")); /* its $1 is not the PREPARE's */
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK && !strcmp(PQcmdStatus(r), "PREPARE"), "%s",
           PQresultErrorMessage(r));
    r = keep(PQdescribePrepared(conn, "sqlside"));
    EXPECT(PQnparams(r) == 1 && PQparamtype(r, 0) == 23 && PQnfields(r) == 2,
           "described as %d/%u/%d", PQnparams(r), PQnparams(r) ? PQparamtype(r, 0) : 0,
           PQnfields(r));
    r = keep(PQexecPrepared(conn, "sqlside", 1, vals, NULL, NULL, 0));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK && !strcmp(PQgetvalue(r, 0, 0), "6"), "Bind: %s",
           PQresultErrorMessage(r));
    r = keep(PQprepare(conn, "sqlside", "SELECT 2", 0, NULL));
    EXPECT(!strcmp(sqlstate(r), "42P05"), "Parse of a PREPAREd name: %s", PQresultErrorMessage(r));
    r = keep(xp("DEALLOCATE sqlside")); /* through Parse, Bind, Execute */
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK, "DEALLOCATE: %s", PQresultErrorMessage(r));
    r = keep(PQexec(conn, "EXECUTE sqlside(1)"));
    EXPECT(!strcmp(sqlstate(r), "26000"), "EXECUTE after DEALLOCATE: %s", PQresultErrorMessage(r));
    /* EXECUTE through the extended protocol, with a parameter of its own */
    r = keep(PQexec(conn, "PREPARE twice (int) AS SELECT $1 * 2"));
    r = keep(PQexecParams(conn, "EXECUTE twice($1)", 1, NULL, vals, NULL, NULL, 0));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK && !strcmp(PQgetvalue(r, 0, 0), "10"),
           "EXECUTE($1): %s", PQresultErrorMessage(r));
    r = keep(xp("DEALLOCATE ALL"));
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK && !strcmp(PQcmdStatus(r), "DEALLOCATE ALL"), "%s",
           PQresultErrorMessage(r));
    r = keep(PQdescribePrepared(conn, "p1"));
    EXPECT(!strcmp(sqlstate(r), "26000"), "p1 after DEALLOCATE ALL: %s", PQresultErrorMessage(r));
    printf("ok prepared_namespace\n");
}

/* PQexecParams sends Parse, Bind, Describe portal, Execute, Sync: the
 * statement must run once, so a CREATE does not collide with itself. */
static void check_describe_execute_once(void)
{
    PGresult *r = keep(xp("DROP STREAM ext_once"));
    r = keep(xp("CREATE STREAM ext_once USING rate"));
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(r));
    EXPECT(!strcmp(PQcmdStatus(r), "CREATE STREAM"), "tag %s", PQcmdStatus(r));
    EXPECT(stream_count("ext_once") == 1, "the stream was not created exactly once");
    r = keep(xp("CREATE STREAM ext_once USING rate"));
    EXPECT(!strcmp(sqlstate(r), "42P07"), "second create: %s", PQresultErrorMessage(r));
    r = keep(xp("DROP STREAM ext_once"));
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(r));
    EXPECT(stream_count("ext_once") == 0, "the stream was not dropped");
    printf("ok describe_execute_once\n");
}

/* Subqueries run before their statement: Describe (no values yet) runs
 * none, and each execution runs them with its own parameter values. */
static void check_prepared_subqueries(void)
{
    PGresult *r = keep(xp("CREATE TABLE ext_sub (a INT)"));
    r = keep(xp("INSERT INTO ext_sub VALUES (1), (2), (3)"));
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(r));
    r = keep(PQprepare(conn, "sub",
                       "SELECT (SELECT max(a) FROM ext_sub WHERE a < $1::int) AS m, "
                       "$2::int IN (SELECT a FROM ext_sub) AS i, "
                       "EXISTS (SELECT 1 FROM ext_sub WHERE a = $2::int) AS e",
                       2, NULL));
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(r));
    r = keep(PQdescribePrepared(conn, "sub"));
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(r));
    EXPECT(PQnfields(r) == 3 && PQftype(r, 0) == 23 && PQftype(r, 1) == 16 && PQftype(r, 2) == 16,
           "described as %d columns, types %u %u", PQnfields(r), PQftype(r, 0), PQftype(r, 1));
    const char *first[2] = {"3", "5"}, *second[2] = {"1", "2"};
    r = keep(PQexecPrepared(conn, "sub", 2, first, NULL, NULL, 0));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK, "%s", PQresultErrorMessage(r));
    EXPECT(!strcmp(PQgetvalue(r, 0, 0), "2") && !strcmp(PQgetvalue(r, 0, 1), "f") &&
               !strcmp(PQgetvalue(r, 0, 2), "f"),
           "got %s %s %s", PQgetvalue(r, 0, 0), PQgetvalue(r, 0, 1), PQgetvalue(r, 0, 2));
    r = keep(PQexecPrepared(conn, "sub", 2, second, NULL, NULL, 0));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK, "%s", PQresultErrorMessage(r));
    EXPECT(PQgetisnull(r, 0, 0) && !strcmp(PQgetvalue(r, 0, 1), "t") &&
               !strcmp(PQgetvalue(r, 0, 2), "t"),
           "got %s %s %s", PQgetvalue(r, 0, 0), PQgetvalue(r, 0, 1), PQgetvalue(r, 0, 2));
    r = keep(xp("DROP TABLE ext_sub"));
    printf("ok prepared_subqueries\n");
}

static int next_status(ExecStatusType want, const char *want_state)
{
    PGresult *r = PQgetResult(conn);
    int ok = r && PQresultStatus(r) == want && (!want_state || !strcmp(sqlstate(r), want_state));
    if (!ok)
        fprintf(stderr, "pg_extended: expected %s, got %s %s\n", PQresStatus(want),
                r ? PQresStatus(PQresultStatus(r)) : "no result", r ? PQresultErrorMessage(r) : "");
    PQclear(r);
    if (ok && want != PGRES_PIPELINE_SYNC) { /* each query's results end with NULL */
        r = PQgetResult(conn);
        ok = r == NULL;
        PQclear(r);
    }
    return ok;
}

/* An error inside a pipeline aborts what follows up to the Sync; after it
 * the connection works again. */
static void check_pipeline_recovery(void)
{
    keep(xp("DROP STREAM ext_aborted"));
    EXPECT(PQenterPipelineMode(conn) == 1, "cannot enter pipeline mode");
    EXPECT(PQsendQueryParams(conn, "SHOW STREAMS", 0, NULL, NULL, NULL, NULL, 0) == 1, "send 1");
    EXPECT(PQsendQueryParams(conn, "SELEKT oops", 0, NULL, NULL, NULL, NULL, 0) == 1, "send 2");
    EXPECT(PQsendQueryParams(conn, "CREATE STREAM ext_aborted USING rate", 0, NULL, NULL, NULL,
                             NULL, 0) == 1,
           "send 3");
    EXPECT(PQpipelineSync(conn) == 1, "sync 1");
    EXPECT(PQsendQueryParams(conn, "SHOW STREAMS", 0, NULL, NULL, NULL, NULL, 0) == 1, "send 4");
    EXPECT(PQpipelineSync(conn) == 1, "sync 2");
    EXPECT(next_status(PGRES_TUPLES_OK, NULL), "query 1");
    EXPECT(next_status(PGRES_FATAL_ERROR, "42601"), "query 2");
    EXPECT(next_status(PGRES_PIPELINE_ABORTED, NULL), "query 3");
    EXPECT(next_status(PGRES_PIPELINE_SYNC, NULL), "sync 1");
    EXPECT(next_status(PGRES_TUPLES_OK, NULL), "query 4 after recovery");
    EXPECT(next_status(PGRES_PIPELINE_SYNC, NULL), "sync 2");
    EXPECT(PQexitPipelineMode(conn) == 1, "cannot leave pipeline mode: %s", PQerrorMessage(conn));
    EXPECT(stream_count("ext_aborted") == 0, "a statement after the error ran before Sync");
    printf("ok pipeline_recovery\n");
}

/* ---- teardown shapes ---------------------------------------------------------- */

static const char *g_conninfo;

/* A new connection, or NULL (counted as a failure). */
static PGconn *connect_new(const char *shape)
{
    PGconn *c = PQconnectdb(g_conninfo);
    if (PQstatus(c) == CONNECTION_OK) return c;
    fprintf(stderr, "pg_extended: %s: cannot connect: %s", shape, PQerrorMessage(c));
    PQfinish(c);
    failures++;
    return NULL;
}

/* The daemon still serves: a new connection runs a parameterized query. */
static void check_still_serving(const char *after)
{
    PGconn *c = connect_new(after);
    if (!c) return;
    const char *v[1] = {"41"};
    PGresult *r = PQexecParams(c, "SELECT $1::int + 1", 1, NULL, v, NULL, NULL, 0);
    int ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 &&
             !strcmp(PQgetvalue(r, 0, 0), "42");
    if (!ok) {
        fprintf(stderr, "pg_extended: after %s the daemon answers %s %s\n", after,
                PQresStatus(PQresultStatus(r)), PQerrorMessage(c));
        failures++;
    }
    PQclear(r);
    PQfinish(c);
}

/* The crash: a statement with a bind parameter, then PQfinish. */
static void shape_last_param(PGconn *c)
{
    const char *v[1] = {"x"};
    PQclear(PQexecParams(c, "SELECT 1 + length($1)", 1, NULL, v, NULL, NULL, 0));
}

static void shape_send_then_finish(PGconn *c)
{
    const char *v[2] = {"1", NULL};
    PQsendQueryParams(c, "SELECT $1::int, $2", 2, NULL, v, NULL, NULL, 0);
}

/* Prepared statement and its portal open, the connection closed before
 * the Sync: libpq's pipeline sends Parse/Bind/Describe/Execute at once. */
static void shape_pipeline_unsynced(PGconn *c)
{
    const char *v[1] = {"7"};
    PQenterPipelineMode(c);
    PQsendPrepare(c, "pp", "SELECT $1::int * 6", 1, NULL);
    PQsendQueryPrepared(c, "pp", 1, v, NULL, NULL, 0);
    PQsendQueryParams(c, "SELECT $1", 1, NULL, v, NULL, NULL, 0);
    PQsendFlushRequest(c);
    PQflush(c);
}

/* Two Syncs' worth sent, the first result read, the rest left unread. */
static void shape_pipeline_unread(PGconn *c)
{
    const char *v[1] = {"3"};
    PQenterPipelineMode(c);
    for (int i = 0; i < 3; i++)
        PQsendQueryParams(c, "SELECT $1::int + 1", 1, NULL, v, NULL, NULL, 0);
    PQpipelineSync(c);
    PQsendQueryParams(c, "SELEKT $1", 1, NULL, v, NULL, NULL, 0);
    PQsendQueryParams(c, "SELECT $1", 1, NULL, v, NULL, NULL, 0);
    PQpipelineSync(c);
    PQclear(PQgetResult(c));
}

/* A named statement prepared and run, left open at PQfinish. */
static void shape_prepared_open(PGconn *c)
{
    const char *v[2] = {"a", "b"};
    PQclear(PQprepare(c, "open_stmt", "SELECT $1 || $2", 2, NULL));
    PQclear(PQexecPrepared(c, "open_stmt", 2, v, NULL, NULL, 0));
    PQclear(PQdescribePrepared(c, "open_stmt"));
}

/* PQfinish while the statement runs on a worker. */
static void shape_long_statement(PGconn *c)
{
    const char *v[1] = {"30"};
    PQsendQueryParams(c, "SELECT pg_sleep($1::double)", 1, NULL, v, NULL, NULL, 0);
    PQflush(c);
}

/* A CancelRequest for a running statement, then PQfinish without reading. */
static void shape_cancel_then_finish(PGconn *c)
{
    const char *v[1] = {"30"};
    PQsendQueryParams(c, "SELECT pg_sleep($1::double)", 1, NULL, v, NULL, NULL, 0);
    PQflush(c);
    PGcancel *k = PQgetCancel(c);
    char msg[256];
    if (k && !PQcancel(k, msg, sizeof msg)) fprintf(stderr, "pg_extended: cancel: %s\n", msg);
    PQfreeCancel(k);
}

/* PQfinish while the session waits in AWAIT QUERY (extended and simple),
 * after an AWAIT that completed in the same session. */
static void shape_await(PGconn *c)
{
    PQclear(
        PQexec(c, "CREATE STREAM IF NOT EXISTS ext_rate USING rate OPTIONS (rowsPerSecond '1')"));
    PQclear(PQexec(c, "CREATE QUERY IF NOT EXISTS ext_awaited AS SELECT value FROM ext_rate"));
    PQclear(PQexec(c, "AWAIT QUERY ext_awaited"));
    PQsendQueryParams(c, "AWAIT QUERY ext_awaited", 0, NULL, NULL, NULL, NULL, 0);
    PQflush(c);
}

static void shape_await_simple(PGconn *c)
{
    PQsendQuery(c, "SELECT 1; AWAIT QUERY ext_awaited; SELECT 2");
    PQflush(c);
}

typedef struct shape {
    const char *name;
    void (*run)(PGconn *c);
} shape_t;

static const shape_t SHAPES[] = {
    {"last_param", shape_last_param},
    {"send_then_finish", shape_send_then_finish},
    {"pipeline_unsynced", shape_pipeline_unsynced},
    {"pipeline_unread", shape_pipeline_unread},
    {"prepared_open", shape_prepared_open},
    {"long_statement", shape_long_statement},
    {"cancel_then_finish", shape_cancel_then_finish},
    {"await", shape_await},
    {"await_simple", shape_await_simple},
};

static void check_teardown_shapes(void)
{
    int before = failures;
    for (size_t i = 0; i < sizeof SHAPES / sizeof *SHAPES; i++) {
        PGconn *c = connect_new(SHAPES[i].name);
        if (!c) continue;
        SHAPES[i].run(c);
        PQfinish(c);
        check_still_serving(SHAPES[i].name);
    }
    PGconn *c = connect_new("cleanup");
    if (c) PQclear(PQexec(c, "DROP QUERY IF EXISTS ext_awaited; DROP STREAM IF EXISTS ext_rate"));
    PQfinish(c);
    if (failures == before) printf("ok teardown_shapes (%zu)\n", sizeof SHAPES / sizeof *SHAPES);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: pg_extended CONNINFO\n");
        return 2;
    }
    g_conninfo = argv[1];
    conn = PQconnectdb(argv[1]);
    if (PQstatus(conn) != CONNECTION_OK) {
        fprintf(stderr, "pg_extended: %s", PQerrorMessage(conn));
        PQfinish(conn);
        return 1;
    }
    check_exec_params_with_nulls();
    check_prepared();
    check_describe_execute_once();
    check_prepared_subqueries();
    check_pipeline_recovery();
    check_prepared_namespace();
    keep(NULL);
    PQfinish(conn);
    check_teardown_shapes();
    printf("%s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
