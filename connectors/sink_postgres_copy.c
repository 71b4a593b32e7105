/* The postgres sink's table side: sluice types mapped to PostgreSQL types,
 * the target table created (createTable) or checked against the result at
 * query start, and result rows encoded as COPY text format. */
#include <string.h>

#include "connectors/sink_postgres_int.h"

const char *pgsink_pg_type(exec_type_t t, sl_arena_t *a)
{
    switch (t.id) {
    case EXEC_TYPE_BOOLEAN: return "boolean";
    case EXEC_TYPE_INT: return "integer";
    case EXEC_TYPE_BIGINT: return "bigint";
    case EXEC_TYPE_DOUBLE: return "double precision";
    case EXEC_TYPE_DECIMAL: return sl_printf(a, "numeric(%d,%d)", t.precision, t.scale);
    case EXEC_TYPE_BINARY: return "bytea";
    case EXEC_TYPE_TIMESTAMP: return "timestamp with time zone";
    case EXEC_TYPE_DATE: return "date";
    case EXEC_TYPE_INTERVAL: return "interval";
    case EXEC_TYPE_STRUCT: return "jsonb";
    default: return "text"; /* STRING, and the NULL type */
    }
}

/* Whether an existing column of PostgreSQL type `have` takes values of
 * sluice type `t`: the mapped type, or for timestamps either kind, for
 * structs json or text, for strings varchar. */
static bool type_accepts(exec_type_t t, const char *want, const char *have)
{
    if (!strcmp(want, have)) return true;
    if (t.id == EXEC_TYPE_TIMESTAMP) return !strcmp(have, "timestamp without time zone");
    if (t.id == EXEC_TYPE_STRUCT) return !strcmp(have, "json") || !strcmp(have, "text");
    if (t.id == EXEC_TYPE_STRING) return !strncmp(have, "character varying", 17);
    return false;
}

const char *pgsink_ident(const char *name, sl_arena_t *a)
{
    sl_buf_t b = SL_BUF_INIT;
    sl_buf_putc(&b, '"');
    for (const char *c = name; *c; c++) {
        if (*c == '"') sl_buf_putc(&b, '"');
        sl_buf_putc(&b, *c);
    }
    sl_buf_putc(&b, '"');
    const char *out = sl_strndup(a, b.data, b.len);
    sl_buf_free(&b);
    return out;
}

const char *pgsink_qualified(const char *name, sl_arena_t *a)
{
    const char *dot = strchr(name, '.');
    if (!dot) return pgsink_ident(name, a);
    return sl_printf(a, "%s.%s", pgsink_ident(sl_strndup(a, name, (size_t)(dot - name)), a),
                     pgsink_ident(dot + 1, a));
}

static int create_table(pgsink_t *p, const sink_schema_t *sc, bool *transient, sl_error_t *err)
{
    sl_arena_t *a = sl_arena_new("pg ddl");
    sl_buf_t b = SL_BUF_INIT;
    sl_buf_printf(&b, "CREATE TABLE IF NOT EXISTS %s (", pgsink_qualified(p->table, a));
    for (int i = 0; i < sc->ncols; i++)
        sl_buf_printf(&b, "%s%s %s", i ? ", " : "", pgsink_ident(sc->names[i], a),
                      pgsink_pg_type(sc->types[i], a));
    for (int k = 0; k < p->nkeys; k++)
        sl_buf_printf(&b, "%s%s", k ? ", " : ", PRIMARY KEY (",
                      pgsink_ident(sc->names[p->keys[k]], a));
    sl_buf_puts(&b, p->nkeys ? "))" : ")");
    int rc = pgsink_create_if_missing(p, b.data, transient, err);
    sl_buf_free(&b);
    sl_arena_free(a);
    return rc;
}

/* The table's column `name`: its row in `r`, or -1. */
static int column_row(PGresult *r, const char *name)
{
    for (int i = 0; i < PQntuples(r); i++)
        if (!strcmp(PQgetvalue(r, i, 0), name)) return i;
    return -1;
}

static int check_columns(pgsink_t *p, PGresult *r, const sink_schema_t *sc, sl_error_t *err)
{
    sl_arena_t *a = sl_arena_new("pg check");
    int rc = 0;
    for (int i = 0; i < sc->ncols && rc == 0; i++) {
        int row = column_row(r, sc->names[i]);
        const char *want = pgsink_pg_type(sc->types[i], a);
        if (row < 0) {
            rc = sl_error_set(err, SL_ERR_UNDEFINED_COLUMN,
                              "column \"%s\" of table \"%s\" does not exist", sc->names[i],
                              p->table);
            sl_error_hint(err, "Add it as %s, or drop the table and use 'createTable' 'true'.",
                          want);
        } else if (!type_accepts(sc->types[i], want, PQgetvalue(r, row, 1))) {
            rc = sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                              "column \"%s\" of table \"%s\" is %s, but the query's column is %s "
                              "(written as %s)",
                              sc->names[i], p->table, PQgetvalue(r, row, 1),
                              exec_type_text(sc->types[i], a), want);
        }
    }
    sl_arena_free(a);
    return rc;
}

int pgsink_check_table(pgsink_t *p, const sink_schema_t *sc, bool *transient, sl_error_t *err)
{
    sl_arena_t *a = sl_arena_new("pg check");
    const char *name = pgsink_qualified(p->table, a);
    const char *sql = "SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a "
                      "WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped";
    PGresult *r = pgsink_exec(p, sql, 1, &name, PGRES_TUPLES_OK, transient, err);
    int rc = r ? 0 : -1;
    if (r && PQntuples(r) == 0 && p->create_table) {
        PQclear(r);
        r = NULL;
        if ((rc = create_table(p, sc, transient, err)) == 0)
            r = pgsink_exec(p, sql, 1, &name, PGRES_TUPLES_OK, transient, err);
        rc = r ? 0 : -1;
    }
    if (r && PQntuples(r) == 0) {
        rc = sl_error_set(err, SL_ERR_UNDEFINED_TABLE, "table \"%s\" does not exist", p->table);
        sl_error_hint(err, "Create it, or use 'createTable' 'true'.");
        *transient = false;
    } else if (r) {
        rc = check_columns(p, r, sc, err);
        *transient = false;
    }
    PQclear(r);
    sl_arena_free(a);
    return rc;
}

/* ---- COPY text format --------------------------------------------------- */

/* Appends `s` with COPY text's escapes (backslash, tab, newline, CR). */
static void copy_escape(sl_buf_t *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\\') sl_buf_puts(out, "\\\\");
        else if (c == '\t') sl_buf_puts(out, "\\t");
        else if (c == '\n') sl_buf_puts(out, "\\n");
        else if (c == '\r') sl_buf_puts(out, "\\r");
        else sl_buf_putc(out, c);
    }
}

static void copy_row(const exec_batch_t *b, uint32_t row, int ncols, sl_buf_t *cell, sl_buf_t *out)
{
    for (int c = 0; c < ncols; c++) {
        if (c) sl_buf_putc(out, '\t');
        sl_buf_clear(cell);
        if (exec_vec_text(&b->cols[c], row, cell))
            copy_escape(out, cell->data ? cell->data : "", cell->len);
        else sl_buf_puts(out, "\\N");
    }
    sl_buf_putc(out, '\n');
}

/* Sends one batch's rows as COPY data, in chunks of about 1 MiB. */
static int copy_batch(pgsink_t *p, const exec_batch_t *b, int ncols, int64_t *rows)
{
    sl_buf_t out = SL_BUF_INIT, cell = SL_BUF_INIT;
    int rc = 1;
    uint32_t n = exec_batch_count(b);
    for (uint32_t k = 0; k < n && rc == 1; k++) {
        copy_row(b, exec_batch_row(b, k), ncols, &cell, &out);
        if (out.len >= (1u << 20) || k + 1 == n) {
            rc = PQputCopyData(p->conn, out.data, (int)out.len);
            sl_buf_clear(&out);
        }
    }
    *rows += n;
    sl_buf_free(&out);
    sl_buf_free(&cell);
    return rc == 1 ? 0 : -1;
}

int pgsink_copy(pgsink_t *p, const char *target, const sink_schema_t *sc,
                exec_batch_t *const *batches, int n, int64_t *rows, bool *transient,
                sl_error_t *err)
{
    sl_arena_t *a = sl_arena_new("pg copy");
    sl_buf_t sql = SL_BUF_INIT;
    sl_buf_printf(&sql, "COPY %s (", target);
    for (int i = 0; i < sc->ncols; i++)
        sl_buf_printf(&sql, "%s%s", i ? ", " : "", pgsink_ident(sc->names[i], a));
    sl_buf_puts(&sql, ") FROM STDIN");
    PGresult *r = pgsink_exec(p, sql.data, 0, NULL, PGRES_COPY_IN, transient, err);
    sl_buf_free(&sql);
    sl_arena_free(a);
    if (!r) return -1;
    PQclear(r);
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) rc = copy_batch(p, batches[i], sc->ncols, rows);
    if (PQputCopyEnd(p->conn, rc == 0 ? NULL : "sluice: sending failed") != 1) rc = -1;
    r = PQgetResult(p->conn);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) rc = pgsink_fail(p, r, transient, err);
    PQclear(r);
    while (p->conn && (r = PQgetResult(p->conn))) PQclear(r);
    return rc;
}
