/* exec pgtype: PostgreSQL's built-in types as clients know them — the one
 * table of type OIDs, names, lengths and categories that pg_catalog.pg_type
 * (server/pgcatalog_rel_pg.c), format_type() and the ::regtype cast read.
 * It lists every type sluice reports in RowDescription (exec_type_pg) and
 * the ones drivers look up by name (int2, oid, uuid, jsonb, varchar ...),
 * each with its array type. */
#ifndef EXEC_PGTYPE_H
#define EXEC_PGTYPE_H

#include <stdint.h>

#include "common/buf.h"

typedef struct exec_pgtype {
    uint32_t oid;
    const char *name;     /* typname: "int4", "_int4" */
    const char *sql_name; /* format_type's spelling: "integer"; NULL for an array */
    int16_t len;          /* typlen: bytes, or -1 (varlena) / -2 (cstring) */
    char category;        /* typcategory: B, N, S, D, T, U, A, Z, P */
    char type;            /* typtype: 'b' base, 'p' pseudo */
    uint32_t array_oid;   /* typarray (0: none) */
    uint32_t elem_oid;    /* typelem of an array type (0 otherwise) */
    const char *io;       /* prefix of the I/O functions: "int4" -> int4in, int4out ... */
} exec_pgtype_t;

/* Number of entries and entry i (in OID order). */
int exec_pgtype_count(void);
const exec_pgtype_t *exec_pgtype_at(int i);
/* The type with this OID, or NULL. */
const exec_pgtype_t *exec_pgtype_by_oid(uint32_t oid);
/* The type named `name` as ::regtype reads it (typname or SQL spelling,
 * case-insensitive, an optional "pg_catalog." prefix, a trailing "[]" for
 * the array type), or NULL. */
const exec_pgtype_t *exec_pgtype_by_name(const char *name);
/* Appends format_type(oid, typmod): the SQL spelling with its modifiers
 * ("numeric(10,2)", "character varying(20)", "integer[]"), "???" for an
 * unknown OID. typmod -1: no modifiers. */
void exec_pgtype_format(uint32_t oid, int32_t typmod, sl_buf_t *out);

#endif
