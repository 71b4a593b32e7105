/* pg_binary: checks sluice's binary format and declared parameter types
 * through libpq: PQexecParams with paramFormats = 1 and resultFormat = 1
 * for every type a driver sends, compared byte for byte with PostgreSQL's
 * encodings; the errors PostgreSQL gives for malformed binary values;
 * declared types typing text parameters; ParameterDescription with the
 * declared and the inferred types; a table written with binary parameters
 * and read back in binary.
 *
 *   pg_binary CONNINFO     exit status 0 when every check passed
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "tests/tools/pg_check.h"

static size_t unhex(const char *hex, char *out)
{
    size_t n = strlen(hex) / 2;
    for (size_t i = 0; i < n; i++) sscanf(hex + 2 * i, "%2hhx", (unsigned char *)&out[i]);
    return n;
}

static const char *tohex(const char *p, int n)
{
    static char hex[512];
    for (int i = 0; i < n && 2 * i + 2 < (int)sizeof hex; i++)
        snprintf(hex + 2 * i, 3, "%02x", (unsigned char)p[i]);
    hex[n > 0 ? 2 * n : 0] = '\0';
    return hex;
}

/* SELECT $1 with one parameter of type `oid`, given in hex, binary. */
static PGresult *select_binary(const char *sql, Oid oid, const char *hex, int result_format)
{
    char raw[256];
    int len = (int)unhex(hex, raw), fmt = 1;
    const char *vals[1] = {raw};
    return PQexecParams(conn, sql, 1, &oid, vals, &len, &fmt, result_format);
}

/* One type: the binary parameter comes back as result type `res_oid` with
 * binary bytes `res_hex` and text `text`. */
typedef struct bin_case {
    Oid oid;
    const char *hex;
    Oid res_oid;
    const char *res_hex;
    const char *text;
} bin_case_t;

static const bin_case_t cases[] = {
    {16, "01", 16, "01", "t"},
    {21, "fffe", 23, "fffffffe", "-2"},
    {23, "0000002a", 23, "0000002a", "42"},
    {20, "8000000000000000", 20, "8000000000000000", "-9223372036854775808"},
    {26, "00000019", 20, "0000000000000019", "25"},
    {700, "3fc00000", 701, "3ff8000000000000", "1.5"},
    {701, "3fb999999999999a", 701, "3fb999999999999a", "0.1"},
    {1700, "0003000100000003000109291a7c", 1700, "0003000100000003000109291a7c", "12345.678"},
    {1700, "0001ffff40000003000a", 1700, "0001ffff40000003000a", "-0.001"},
    {1700, "0000000000000002", 1700, "0000000000000002", "0.00"},
    {1700, "00000000c0000000", 701, "7ff8000000000000", "NaN"},
    {25, "68c3a96c6c6f", 25, "68c3a96c6c6f", "h\xc3\xa9llo"},
    {1043, "6869", 25, "6869", "hi"},
    {1042, "6869", 25, "6869", "hi"},
    {19, "6869", 25, "6869", "hi"},
    {705, "6869", 25, "6869", "hi"},
    {114, "7b7d", 25, "7b7d", "{}"},
    {3802, "017b2261223a20317d", 25, "7b2261223a20317d", "{\"a\": 1}"},
    {2950, "a0eebc999c0b4ef8bb6d6bb9bd380a11", 25,
     "61306565626339392d396330622d346566382d626236642d366262396264333830613131",
     "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
    {17, "00ff41", 17, "00ff41", "\\x00ff41"},
    {1082, "000022b7", 1082, "000022b7", "2024-05-01"},
    {1083, "0000000a0f8be7a0", 25, "31323a30303a31302e35", "12:00:10.5"},
    {1114, "0002ba61ff3bc8c0", 1114, "0002ba61ff3bc8c0", "2024-05-01 12:00:10.123456"},
    {1184, "0002ba61ff3bc8c0", 1114, "0002ba61ff3bc8c0", "2024-05-01 12:00:10.123456"},
    {1186, "000000036c9361a0000000030000000e", 1186, "000000036c9361a0000000030000000e",
     "1 year 2 mons 3 days 04:05:06.5"},
    {1186, "00000001ad274800ffffffff00000000", 1186, "00000001ad274800ffffffff00000000",
     "-1 days +02:00:00"},
};

static void check_case(const bin_case_t *c)
{
    PGresult *r = keep(select_binary("SELECT $1", c->oid, c->hex, 1));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK, "oid %u: %s", c->oid, PQresultErrorMessage(r));
    EXPECT(PQftype(r, 0) == c->res_oid && PQfformat(r, 0) == 1, "oid %u: result type %u format %d",
           c->oid, PQftype(r, 0), PQfformat(r, 0));
    EXPECT(!strcmp(tohex(PQgetvalue(r, 0, 0), PQgetlength(r, 0, 0)), c->res_hex), "oid %u: got %s",
           c->oid, tohex(PQgetvalue(r, 0, 0), PQgetlength(r, 0, 0)));
    r = keep(select_binary("SELECT $1", c->oid, c->hex, 0));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK && PQfformat(r, 0) == 0 &&
               !strcmp(PQgetvalue(r, 0, 0), c->text),
           "oid %u: text \"%s\" %s", c->oid, PQgetvalue(r, 0, 0), PQresultErrorMessage(r));
}

static void check_types(void)
{
    int before = failures;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_case(&cases[i]);
    if (failures == before) printf("ok types (%zu)\n", sizeof cases / sizeof cases[0]);
}

/* A NULL in binary stays NULL, typed by its declared type. */
static void check_null(void)
{
    Oid oid = 1700;
    const char *vals[1] = {NULL};
    int fmt = 1;
    PGresult *r = keep(PQexecParams(conn, "SELECT $1", 1, &oid, vals, NULL, &fmt, 1));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK && PQgetisnull(r, 0, 0) && PQftype(r, 0) == 1700,
           "%s", PQresultErrorMessage(r));
    printf("ok null\n");
}

typedef struct err_case {
    Oid oid;
    const char *hex;
    const char *sqlstate;
    const char *message;
} err_case_t;

static const err_case_t errors[] = {
    {23, "0000000000000001", "22P03", "incorrect binary data format in bind parameter 1"},
    {23, "0001", "08P01", "insufficient data left in message"},
    {1700, "0001000000000000", "08P01", "insufficient data left in message"},
    {1700, "00010000123400000001", "22P03", "invalid sign in external \"numeric\" value"},
    {1700, "00010000000000002710", "22P03", "invalid digit in external \"numeric\" value"},
    {0, "0000002a", "22P03", "incorrect binary data format in bind parameter 1"},
    {1007, "00", "42883", "no binary input function available for type with OID 1007"},
    {25, "610062", "22021", "invalid byte sequence for encoding \"UTF8\": 0x00"},
    {1082, "7fffffff", "22008", "date out of range"},
    {1114, "7fffffffffffffff", "22008", "timestamp out of range"},
    {3802, "027b7d", "22P03", "unsupported jsonb version number 2"},
};

static void check_errors(void)
{
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        const err_case_t *e = &errors[i];
        PGresult *r = keep(select_binary("SELECT $1", e->oid, e->hex, 0));
        const char *msg = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
        EXPECT(!strcmp(sqlstate(r), e->sqlstate) && msg && !strcmp(msg, e->message),
               "oid %u %s: %s %s", e->oid, e->hex, sqlstate(r), PQresultErrorMessage(r));
    }
    /* The connection is usable after each. */
    PGresult *r = keep(select_binary("SELECT $1 + 1", 23, "00000001", 0));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK && !strcmp(PQgetvalue(r, 0, 0), "2"), "%s",
           PQresultErrorMessage(r));
    printf("ok errors (%zu)\n", sizeof errors / sizeof errors[0]);
}

/* Text parameters typed by the declared OID. */
static void check_declared_text(void)
{
    static const struct {
        Oid oid;
        const char *val, *text;
        Oid res;
    } t[] = {
        {23, "42", "42", 23},
        {20, "42", "42", 20},
        {1700, "12345.678", "12345.678", 1700},
        {701, "0.5", "0.5", 701},
        {16, "true", "t", 16},
        {17, "\\x0102", "\\x0102", 17},
        {1082, "2024-05-01", "2024-05-01", 1082},
        {1114, "2024-05-01 12:00:10.123456", "2024-05-01 12:00:10.123456", 1114},
        {1184, "2024-05-01 14:00:00+02", "2024-05-01 12:00:00", 1114},
        {1186, "1 day 02:00:00", "1 day 02:00:00", 1186},
        {25, "42", "42", 25},
        {1043, "x", "x", 25},
        {0, "x", "x", 25},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        const char *vals[1] = {t[i].val};
        PGresult *r = keep(PQexecParams(conn, "SELECT $1", 1, &t[i].oid, vals, NULL, NULL, 0));
        EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK && PQftype(r, 0) == t[i].res &&
                   !strcmp(PQgetvalue(r, 0, 0), t[i].text),
               "oid %u: type %u value \"%s\" %s", t[i].oid, PQftype(r, 0), PQgetvalue(r, 0, 0),
               PQresultErrorMessage(r));
    }
    Oid int4 = 23;
    const char *bad[1] = {"abc"};
    PGresult *r = keep(PQexecParams(conn, "SELECT $1", 1, &int4, bad, NULL, NULL, 0));
    EXPECT(!strcmp(sqlstate(r), "22P02"), "declared int4 'abc': %s", PQresultErrorMessage(r));
    /* Arithmetic sees the declared type: 1.5 + 1 is numeric, not a string. */
    Oid num = 1700;
    const char *one_half[1] = {"1.5"};
    r = keep(PQexecParams(conn, "SELECT $1 + 1", 1, &num, one_half, NULL, NULL, 0));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK && PQftype(r, 0) == 1700 &&
               !strcmp(PQgetvalue(r, 0, 0), "2.5"),
           "numeric + 1: %u \"%s\" %s", PQftype(r, 0), PQgetvalue(r, 0, 0),
           PQresultErrorMessage(r));
    printf("ok declared_text\n");
}

/* ParameterDescription reports the declared types (undeclared: text). */
static void check_describe(void)
{
    const Oid types[3] = {1700, 23, 0};
    PGresult *r = keep(PQprepare(conn, "pb1", "SELECT $1, $2, $3", 3, types));
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(r));
    r = keep(PQdescribePrepared(conn, "pb1"));
    EXPECT(PQnparams(r) == 3 && PQparamtype(r, 0) == 1700 && PQparamtype(r, 1) == 23 &&
               PQparamtype(r, 2) == 25,
           "%d params: %u %u %u", PQnparams(r), PQparamtype(r, 0), PQparamtype(r, 1),
           PQparamtype(r, 2));
    EXPECT(PQnfields(r) == 3 && PQftype(r, 0) == 1700 && PQftype(r, 1) == 23 && PQftype(r, 2) == 25,
           "columns %u %u %u", PQftype(r, 0), PQftype(r, 1), PQftype(r, 2));
    printf("ok describe\n");
}

/* Binary parameters into a table, read back in binary and as text. */
static void check_table(void)
{
    PGresult *r =
        keep(PQexec(conn, "CREATE TABLE pgbin (i INT, l BIGINT, d DECIMAL(10,3), f DOUBLE, "
                          "b BOOLEAN, dt DATE, ts TIMESTAMP, iv INTERVAL, bin BINARY, s STRING)"));
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(r));
    const Oid oids[10] = {23, 20, 1700, 701, 16, 1082, 1114, 1186, 17, 25};
    static const char *hex[10] = {"0000002a",
                                  "0000000000000007",
                                  "0003000100000003000109291a7c",
                                  "3ff8000000000000",
                                  "01",
                                  "000022b7",
                                  "0002ba61ff3bc8c0",
                                  "000000036c9361a0000000030000000e",
                                  "00ff41",
                                  "6869"};
    char raw[10][64];
    const char *vals[10];
    int lens[10], fmts[10];
    for (int i = 0; i < 10; i++) {
        lens[i] = (int)unhex(hex[i], raw[i]);
        vals[i] = raw[i];
        fmts[i] = 1;
    }
    r = keep(PQexecParams(conn,
                          "INSERT INTO pgbin VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)", 10,
                          oids, vals, lens, fmts, 0));
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK, "insert: %s", PQresultErrorMessage(r));
    vals[0] = NULL;
    r = keep(PQexecParams(conn, "INSERT INTO pgbin (i) VALUES ($1)", 1, oids, vals, lens, fmts, 0));
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK, "insert NULL: %s", PQresultErrorMessage(r));
    r = keep(PQexecParams(conn, "SELECT * FROM pgbin ORDER BY i NULLS LAST", 0, NULL, NULL, NULL,
                          NULL, 1));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 2, "select: %s",
           PQresultErrorMessage(r));
    for (int i = 0; i < 10; i++) {
        EXPECT(!strcmp(tohex(PQgetvalue(r, 0, i), PQgetlength(r, 0, i)), hex[i]), "column %d: %s",
               i + 1, tohex(PQgetvalue(r, 0, i), PQgetlength(r, 0, i)));
        EXPECT(PQgetisnull(r, 1, i), "row 2 column %d is not NULL", i + 1);
    }
    r = keep(
        select_binary("SELECT count(*) FROM pgbin WHERE ts = $1", 1114, "0002ba61ff3bc8c0", 0));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK && !strcmp(PQgetvalue(r, 0, 0), "1"),
           "where ts = $1: %s %s", PQgetvalue(r, 0, 0), PQresultErrorMessage(r));
    printf("ok table\n");
}

/* Undeclared parameters: ParameterDescription reports the type inferred
 * from their use, and a binary value is read as that type. */
static void check_inferred(void)
{
    PGresult *r =
        keep(PQprepare(conn, "pb2",
                       "SELECT count(*) FROM pgbin WHERE ts = $1 AND d > $2 AND $3 + 1 > 0 "
                       "AND s IN ($4) AND $5",
                       0, NULL));
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(r));
    r = keep(PQdescribePrepared(conn, "pb2"));
    EXPECT(PQnparams(r) == 5 && PQparamtype(r, 0) == 1114 && PQparamtype(r, 1) == 1700 &&
               PQparamtype(r, 2) == 23 && PQparamtype(r, 3) == 25 && PQparamtype(r, 4) == 16,
           "%d params: %u %u %u %u %u", PQnparams(r), PQparamtype(r, 0), PQparamtype(r, 1),
           PQparamtype(r, 2), PQparamtype(r, 3), PQparamtype(r, 4));
    char ts[8], d[16], one[4];
    const char *vals[5] = {ts, d, one, "hi", "true"};
    int lens[5] = {(int)unhex("0002ba61ff3bc8c0", ts), (int)unhex("0001000000000000000a", d),
                   (int)unhex("00000001", one), 2, 4};
    int fmts[5] = {1, 1, 1, 0, 0};
    r = keep(PQexecPrepared(conn, "pb2", 5, vals, lens, fmts, 0));
    EXPECT(PQresultStatus(r) == PGRES_TUPLES_OK && !strcmp(PQgetvalue(r, 0, 0), "1"),
           "count %s: %s", PQgetvalue(r, 0, 0), PQresultErrorMessage(r));
    r = keep(PQprepare(conn, "pb3", "INSERT INTO pgbin (i, bin, dt) VALUES ($1, $2, $3)", 0, NULL));
    EXPECT(PQresultStatus(r) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(r));
    r = keep(PQdescribePrepared(conn, "pb3"));
    EXPECT(PQnparams(r) == 3 && PQparamtype(r, 0) == 23 && PQparamtype(r, 1) == 17 &&
               PQparamtype(r, 2) == 1082,
           "%d params: %u %u %u", PQnparams(r), PQparamtype(r, 0), PQparamtype(r, 1),
           PQparamtype(r, 2));
    printf("ok inferred\n");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: pg_binary CONNINFO\n");
        return 2;
    }
    conn = PQconnectdb(argv[1]);
    if (PQstatus(conn) != CONNECTION_OK) {
        fprintf(stderr, "pg_binary: %s", PQerrorMessage(conn));
        PQfinish(conn);
        return 1;
    }
    check_types();
    check_null();
    check_errors();
    check_declared_text();
    check_describe();
    check_table();
    check_inferred();
    keep(NULL);
    PQfinish(conn);
    printf("%s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
