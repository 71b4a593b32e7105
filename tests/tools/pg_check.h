/* What the libpq test tools (pg_extended, pg_binary) share: the connection
 * under test, a failure count, EXPECT (a failed check is reported with its
 * place and ends the calling test function), the SQLSTATE of a result, and
 * the one kept result that each check replaces, so that a check returning
 * early leaks nothing. Header-only: each tool is a single program. */
#ifndef SL_TESTS_PG_CHECK_H
#define SL_TESTS_PG_CHECK_H

#include <stdio.h>

#include <libpq-fe.h>

static PGconn *conn;
static int failures;

#define EXPECT(cond, ...)                                              \
    do {                                                               \
        if (!(cond)) {                                                 \
            fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                              \
            fputc('\n', stderr);                                       \
            failures++;                                                \
            return;                                                    \
        }                                                              \
    } while (0)

static inline const char *sqlstate(const PGresult *r)
{
    const char *s = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    return s ? s : "";
}

/* The result under test; replaced (and freed) by the next. */
static PGresult *kept;

static inline PGresult *keep(PGresult *r)
{
    PQclear(kept);
    kept = r;
    return r;
}

#endif
