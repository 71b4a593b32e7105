/* pg_extended: checks sluice's extended query protocol through libpq, the
 * way drivers use it: PQexecParams with parameters and NULLs,
 * PQprepare/PQdescribePrepared/PQexecPrepared, pipeline mode with an error
 * followed by recovery at Sync, a Describe+Execute that runs its
 * statement once, and subqueries with parameters: described without being
 * run, run anew with each execution's values.
 *
 *   pg_extended CONNINFO     exit status 0 when every check passed
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

static PGconn *conn;
static int failures;

#define EXPECT(cond, ...)                                                   \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "pg_extended:%d: %s: ", __LINE__, #cond);       \
            fprintf(stderr, __VA_ARGS__);                                   \
            fputc('\n', stderr);                                            \
            failures++;                                                     \
            return;                                                         \
        }                                                                   \
    } while (0)

static const char *sqlstate(const PGresult *r)
{
    const char *s = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    return s ? s : "";
}

/* The result under test; replaced (and freed) by the next, so that a failed
 * check returning early leaks nothing. */
static PGresult *kept;

static PGresult *keep(PGresult *r)
{
    PQclear(kept);
    kept = r;
    return r;
}

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
    EXPECT(PQntuples(r) == 1 && PQnfields(r) == 3, "%d rows, %d columns", PQntuples(r), PQnfields(r));
    EXPECT(!strcmp(PQgetvalue(r, 0, 0), "hello, world"), "got \"%s\"", PQgetvalue(r, 0, 0));
    EXPECT(PQgetisnull(r, 0, 1), "$2 should be NULL");
    EXPECT(!PQgetisnull(r, 0, 2) && PQgetlength(r, 0, 2) == 0, "$3 should be an empty string");
    /* Too few parameters for the statement. */
    r = keep(PQexecParams(conn, "SELECT $1, $2", 1, NULL, vals, NULL, NULL, 0));
    EXPECT(PQresultStatus(r) == PGRES_FATAL_ERROR && !strcmp(sqlstate(r), "08P01"),
           "%s", PQresultErrorMessage(r));
    /* A binary parameter needs a declared type (22P03); a binary text
     * result is the bytes themselves (tests/tools/pg_binary.c covers the rest). */
    int fmt = 1, len = 4;
    r = keep(PQexecParams(conn, "SELECT $1", 1, NULL, vals, &len, &fmt, 0));
    EXPECT(!strcmp(sqlstate(r), "22P03"), "binary parameter: %s", PQresultErrorMessage(r));
    r = keep(PQexecParams(conn, "SELECT $1", 1, NULL, vals, NULL, NULL, 1));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK && PQfformat(r, 0) == 1 &&
           !strcmp(PQgetvalue(r, 0, 0), "hello, world"), "binary result: %s", PQresultErrorMessage(r));
    r = keep(xp(""));
    EXPECT(PQresultStatus(r) == PGRES_EMPTY_QUERY, "empty query: %s", PQresStatus(PQresultStatus(r)));
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
    r = keep(PQprepare(conn, "sub", "SELECT (SELECT max(a) FROM ext_sub WHERE a < $1::int) AS m, "
                                    "$2::int IN (SELECT a FROM ext_sub) AS i, "
                                    "EXISTS (SELECT 1 FROM ext_sub WHERE a = $2::int) AS e", 2, NULL));
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(r));
    r = keep(PQdescribePrepared(conn, "sub"));
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(r));
    EXPECT(PQnfields(r) == 3 && PQftype(r, 0) == 23 && PQftype(r, 1) == 16 && PQftype(r, 2) == 16,
           "described as %d columns, types %u %u", PQnfields(r), PQftype(r, 0), PQftype(r, 1));
    const char *first[2] = {"3", "5"}, *second[2] = {"1", "2"};
    r = keep(PQexecPrepared(conn, "sub", 2, first, NULL, NULL, 0));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK, "%s", PQresultErrorMessage(r));
    EXPECT(!strcmp(PQgetvalue(r, 0, 0), "2") && !strcmp(PQgetvalue(r, 0, 1), "f") &&
           !strcmp(PQgetvalue(r, 0, 2), "f"), "got %s %s %s", PQgetvalue(r, 0, 0), PQgetvalue(r, 0, 1),
           PQgetvalue(r, 0, 2));
    r = keep(PQexecPrepared(conn, "sub", 2, second, NULL, NULL, 0));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK, "%s", PQresultErrorMessage(r));
    EXPECT(PQgetisnull(r, 0, 0) && !strcmp(PQgetvalue(r, 0, 1), "t") && !strcmp(PQgetvalue(r, 0, 2), "t"),
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
    EXPECT(PQsendQueryParams(conn, "CREATE STREAM ext_aborted USING rate", 0, NULL, NULL,
                             NULL, NULL, 0) == 1, "send 3");
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

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: pg_extended CONNINFO\n");
        return 2;
    }
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
    keep(NULL);
    PQfinish(conn);
    printf("%s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
