/* exec pgtype: the table of PostgreSQL's built-in types (OIDs from
 * PostgreSQL's pg_type.dat, which clients hard-code) and its lookups. */
#include "model/pgtype.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define T(oid, name, sql, len, cat, arr, io)      \
    {                                             \
        oid, name, sql, len, cat, 'b', arr, 0, io \
    }
#define P(oid, name, len, io)                    \
    {                                            \
        oid, name, name, len, 'P', 'p', 0, 0, io \
    }
#define A(oid, name, elem)                               \
    {                                                    \
        oid, name, NULL, -1, 'A', 'b', 0, elem, "array_" \
    }

static const exec_pgtype_t types[] = {
    T(16, "bool", "boolean", 1, 'B', 1000, "bool"),
    T(17, "bytea", "bytea", -1, 'U', 1001, "bytea"),
    T(18, "char", "\"char\"", 1, 'Z', 1002, "char"),
    T(19, "name", "name", 64, 'S', 1003, "name"),
    T(20, "int8", "bigint", 8, 'N', 1016, "int8"),
    T(21, "int2", "smallint", 2, 'N', 1005, "int2"),
    T(22, "int2vector", "int2vector", -1, 'A', 1006, "int2vector"),
    T(23, "int4", "integer", 4, 'N', 1007, "int4"),
    T(24, "regproc", "regproc", 4, 'N', 1008, "regproc"),
    T(25, "text", "text", -1, 'S', 1009, "text"),
    T(26, "oid", "oid", 4, 'N', 1028, "oid"),
    T(28, "xid", "xid", 4, 'U', 1011, "xid"),
    T(30, "oidvector", "oidvector", -1, 'A', 1013, "oidvector"),
    T(114, "json", "json", -1, 'U', 199, "json_"),
    A(199, "_json", 114),
    T(700, "float4", "real", 4, 'N', 1021, "float4"),
    T(701, "float8", "double precision", 8, 'N', 1022, "float8"),
    P(705, "unknown", -2, "unknown"),
    A(1000, "_bool", 16),
    A(1001, "_bytea", 17),
    A(1002, "_char", 18),
    A(1003, "_name", 19),
    A(1005, "_int2", 21),
    A(1006, "_int2vector", 22),
    A(1007, "_int4", 23),
    A(1008, "_regproc", 24),
    A(1009, "_text", 25),
    A(1011, "_xid", 28),
    A(1013, "_oidvector", 30),
    A(1014, "_bpchar", 1042),
    A(1015, "_varchar", 1043),
    A(1016, "_int8", 20),
    A(1021, "_float4", 700),
    A(1022, "_float8", 701),
    A(1028, "_oid", 26),
    T(1042, "bpchar", "character", -1, 'S', 1014, "bpchar"),
    T(1043, "varchar", "character varying", -1, 'S', 1015, "varchar"),
    T(1082, "date", "date", 4, 'D', 1182, "date_"),
    T(1083, "time", "time without time zone", 8, 'D', 1183, "time_"),
    T(1114, "timestamp", "timestamp without time zone", 8, 'D', 1115, "timestamp_"),
    A(1115, "_timestamp", 1114),
    A(1182, "_date", 1082),
    A(1183, "_time", 1083),
    T(1184, "timestamptz", "timestamp with time zone", 8, 'D', 1185, "timestamptz_"),
    A(1185, "_timestamptz", 1184),
    T(1186, "interval", "interval", 16, 'T', 1187, "interval_"),
    A(1187, "_interval", 1186),
    A(1231, "_numeric", 1700),
    T(1700, "numeric", "numeric", -1, 'N', 1231, "numeric_"),
    T(2205, "regclass", "regclass", 4, 'N', 2210, "regclass"),
    T(2206, "regtype", "regtype", 4, 'N', 2211, "regtype"),
    A(2210, "_regclass", 2205),
    A(2211, "_regtype", 2206),
    P(2249, "record", -1, "record_"),
    P(2275, "cstring", -2, "cstring_"),
    P(2276, "any", 4, "any_"),
    P(2277, "anyarray", -1, "anyarray_"),
    P(2278, "void", 4, "void_"),
    T(2950, "uuid", "uuid", 16, 'U', 2951, "uuid_"),
    A(2951, "_uuid", 2950),
    T(3802, "jsonb", "jsonb", -1, 'U', 3807, "jsonb_"),
    A(3807, "_jsonb", 3802),
    T(4089, "regnamespace", "regnamespace", 4, 'N', 4090, "regnamespace"),
    A(4090, "_regnamespace", 4089),
};

#define NTYPES ((int)(sizeof types / sizeof types[0]))

int exec_pgtype_count(void)
{
    return NTYPES;
}

const exec_pgtype_t *exec_pgtype_at(int i)
{
    return i >= 0 && i < NTYPES ? &types[i] : NULL;
}

const exec_pgtype_t *exec_pgtype_by_oid(uint32_t oid)
{
    for (int i = 0; i < NTYPES; i++)
        if (types[i].oid == oid) return &types[i];
    return NULL;
}

/* SQL spellings format_type does not print but ::regtype reads. */
static const struct {
    const char *alias, *name;
} aliases[] = {
    {"int", "int4"},
    {"integer", "int4"},
    {"smallint", "int2"},
    {"bigint", "int8"},
    {"boolean", "bool"},
    {"real", "float4"},
    {"double precision", "float8"},
    {"decimal", "numeric"},
    {"character varying", "varchar"},
    {"character", "bpchar"},
    {"char", "bpchar"},
    {"string", "text"},
    {"double", "float8"},
    {"float", "float8"},
    {"timestamp with time zone", "timestamptz"},
    {"binary", "bytea"},
};

static const exec_pgtype_t *by_base_name(const char *name, size_t n)
{
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strlen(aliases[i].alias) == n && !strncasecmp(aliases[i].alias, name, n)) {
            name = aliases[i].name;
            n = strlen(name);
            break;
        }
    for (int i = 0; i < NTYPES; i++) {
        const exec_pgtype_t *t = &types[i];
        if ((strlen(t->name) == n && !strncasecmp(t->name, name, n)) ||
            (t->sql_name && strlen(t->sql_name) == n && !strncasecmp(t->sql_name, name, n)))
            return t;
    }
    return NULL;
}

const exec_pgtype_t *exec_pgtype_by_name(const char *name)
{
    if (!strncasecmp(name, "pg_catalog.", 11)) name += 11;
    size_t n = strlen(name);
    while (n > 0 && name[n - 1] == ' ') n--;
    int array = n > 2 && !strncmp(name + n - 2, "[]", 2);
    const exec_pgtype_t *t = by_base_name(name, array ? n - 2 : n);
    if (!t || !array) return t;
    return t->array_oid ? exec_pgtype_by_oid(t->array_oid) : NULL;
}

/* The modifiers of types that have them: (n) for character types and
 * (p,s) for numeric, as PostgreSQL prints them. */
static void format_typmod(uint32_t oid, int32_t typmod, sl_buf_t *out)
{
    if (typmod < 0) return;
    char m[48];
    if (oid == 1700 && typmod >= 4)
        snprintf(m, sizeof m, "(%d,%d)", (int)((typmod - 4) >> 16 & 0xffff),
                 (int)((typmod - 4) & 0xffff));
    else if ((oid == 1042 || oid == 1043) && typmod >= 4)
        snprintf(m, sizeof m, "(%d)", (int)(typmod - 4));
    else return;
    sl_buf_append(out, m, strlen(m));
}

void exec_pgtype_format(uint32_t oid, int32_t typmod, sl_buf_t *out)
{
    const exec_pgtype_t *t = exec_pgtype_by_oid(oid);
    const exec_pgtype_t *base = t && t->elem_oid ? exec_pgtype_by_oid(t->elem_oid) : t;
    if (!base || !base->sql_name) {
        sl_buf_append(out, "???", 3);
        return;
    }
    sl_buf_append(out, base->sql_name, strlen(base->sql_name));
    format_typmod(base->oid, typmod, out);
    if (t != base) sl_buf_append(out, "[]", 2);
}
