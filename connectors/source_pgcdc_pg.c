/* The postgres_cdc source's PostgreSQL side (driver thread only): the
 * catalog connection and its checks, the replication slot and the initial
 * snapshot (CREATE_REPLICATION_SLOT ... EXPORT_SNAPSHOT, the tables copied
 * with SET TRANSACTION SNAPSHOT into the checkpoint), and the replication
 * stream (START_REPLICATION with pgoutput, its messages turned into
 * buffered changes, Standby Status Updates, reconnection with backoff). */
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "connectors/sink_postgres_int.h"
#include "connectors/source_pgcdc_int.h"

#define STATUS_EVERY_US (10 * 1000000LL)
#define WAIT_LIMIT_US (60 * 1000000LL)
#define RECONNECT_TRIES 5

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* ---- connections and errors ------------------------------------------------ */

static void set_message(sl_error_t *err, const char *sqlstate, const char *msg)
{
    if (!*msg) msg = "connection to the server lost";
    size_t n = strcspn(msg, "\n");
    sl_error_set(err, sqlstate, "postgres_cdc source: %.*s", (int)n, msg);
}

static void ignore_notice(void *arg, const char *message)
{
    (void)arg, (void)message;
}

static PGconn *cdc_connect(const pgcdc_t *c, bool replication, sl_error_t *err)
{
    const char *keys[8], *vals[8];
    int k = 0;
    keys[k] = "dbname", vals[k++] = c->url;
    if (c->password) keys[k] = "password", vals[k++] = c->password;
    if (replication) keys[k] = "replication", vals[k++] = "database";
    keys[k] = "application_name", vals[k++] = "sluice";
    keys[k] = "connect_timeout", vals[k++] = "10";
    keys[k] = "options", vals[k++] = "-c TimeZone=UTC -c DateStyle=ISO -c extra_float_digits=3";
    keys[k] = NULL, vals[k] = NULL;
    PGconn *pc = PQconnectdbParams(keys, vals, 1);
    if (!pc || PQstatus(pc) != CONNECTION_OK) {
        const char *msg = pc ? PQerrorMessage(pc) : "out of memory";
        set_message(err, pgsink_connect_sqlstate(msg), msg);
        PQfinish(pc);
        return NULL;
    }
    PQsetNoticeProcessor(pc, ignore_notice, NULL);
    return pc;
}

/* Fills err from a failed result (the server's SQLSTATE) or the connection. */
static int cdc_fail(PGconn *pc, PGresult *r, sl_error_t *err)
{
    const char *st = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    const char *msg = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    set_message(err, st ? st : "08006", msg ? msg : PQerrorMessage(pc));
    const char *detail = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_DETAIL) : NULL;
    if (detail) sl_error_detail(err, "%s", detail);
    return -1;
}

static PGresult *cdc_exec(PGconn *pc, const char *sql, int nparams, const char *const *params,
                          ExecStatusType want, sl_error_t *err)
{
    /* a replication connection takes only the simple query protocol */
    PGresult *r =
        nparams ? PQexecParams(pc, sql, nparams, NULL, params, NULL, NULL, 0) : PQexec(pc, sql);
    if (r && PQresultStatus(r) == want) return r;
    cdc_fail(pc, r, err);
    PQclear(r);
    return NULL;
}

/* Lost connections, a server shutting down or starting, and the slot still
 * held by the walsender of a connection that died (55006, until the server
 * notices) may succeed when tried again. */
static bool transient(const char *sqlstate)
{
    return !strncmp(sqlstate, "08", 2) || !strncmp(sqlstate, "57P0", 4) ||
           !strcmp(sqlstate, "55006");
}

int pgcdc_connect_sql(pgcdc_t *c, sl_error_t *err)
{
    if (c->sql && PQstatus(c->sql) == CONNECTION_OK) return 0;
    PQfinish(c->sql);
    c->sql = cdc_connect(c, false, err);
    return c->sql ? 0 : -1;
}

void pgcdc_disconnect(pgcdc_t *c)
{
    PQfinish(c->repl);
    PQfinish(c->sql);
    c->repl = c->sql = NULL;
}

/* ---- catalog checks --------------------------------------------------------- */

static bool is_meta(const pgcdc_t *c, int col)
{
    return col == c->col_op || col == c->col_sign || col == c->col_lsn || col == c->col_time;
}

/* The table's schema and name, split at the dot (tables always have one). */
static void split_name(const char *table, char *nsp, size_t n, const char **rel)
{
    const char *dot = strchr(table, '.');
    snprintf(nsp, n, "%.*s", (int)(dot - table), table);
    *rel = dot + 1;
}

static int check_publication(pgcdc_t *c, sl_error_t *err)
{
    const char *params[] = {c->publication};
    PGresult *r = cdc_exec(c->sql, "SELECT 1 FROM pg_publication WHERE pubname = $1", 1, params,
                           PGRES_TUPLES_OK, err);
    if (!r) return -1;
    int found = PQntuples(r);
    PQclear(r);
    if (found) return 0;
    return sl_error_set(err, SL_ERR_UNDEFINED_OBJECT,
                        "postgres_cdc source: publication \"%s\" does not exist", c->publication);
}

/* One table: exists, REPLICA IDENTITY FULL, published; marks the stream
 * columns it has in `found`. */
static int check_table(pgcdc_t *c, const char *table, bool *found, sl_error_t *err)
{
    char nsp[256];
    const char *rel;
    split_name(table, nsp, sizeof nsp, &rel);
    const char *params[] = {nsp, rel, c->publication};
    PGresult *r = cdc_exec(c->sql,
                           "SELECT c.relreplident, "
                           " EXISTS (SELECT 1 FROM pg_publication_tables p WHERE p.pubname = $3 "
                           "  AND p.schemaname = $1 AND p.tablename = $2), "
                           " ARRAY(SELECT attname FROM pg_attribute WHERE attrelid = c.oid "
                           "  AND attnum > 0 AND NOT attisdropped) "
                           "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                           "WHERE n.nspname = $1 AND c.relname = $2",
                           3, params, PGRES_TUPLES_OK, err);
    if (!r) return -1;
    int rc = 0;
    if (PQntuples(r) == 0) {
        rc = sl_error_set(err, SL_ERR_UNDEFINED_TABLE,
                          "postgres_cdc source: relation \"%s\" does not exist", table);
    } else if (strcmp(PQgetvalue(r, 0, 0), "f")) {
        sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                     "postgres_cdc source: table \"%s\" must have REPLICA IDENTITY FULL", table);
        rc = sl_error_hint(err,
                           "Run ALTER TABLE %s REPLICA IDENTITY FULL: updates and deletes "
                           "must carry the whole row before the change.",
                           table);
    } else if (strcmp(PQgetvalue(r, 0, 1), "t")) {
        rc = sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                          "postgres_cdc source: table \"%s\" is not in publication \"%s\"", table,
                          c->publication);
    } else {
        const char *arr = PQgetvalue(r, 0, 2); /* {a,b,"c d"} */
        for (int i = 0; i < c->rel->ncols; i++) {
            const char *name = c->rel->col_names[i];
            const char *hit = strstr(arr, name);
            size_t len = strlen(name);
            while (hit &&
                   !((hit[-1] == '{' || hit[-1] == ',') && (hit[len] == ',' || hit[len] == '}')))
                hit = strstr(hit + 1, name);
            if (hit) found[i] = true;
        }
    }
    PQclear(r);
    return rc;
}

int pgcdc_check_tables(pgcdc_t *c, sl_error_t *err)
{
    if (pgcdc_connect_sql(c, err) < 0 || check_publication(c, err) < 0) return -1;
    bool *found = calloc((size_t)c->rel->ncols + 1, sizeof *found);
    int rc = 0;
    for (int k = 0; k < c->ntables && rc == 0; k++) rc = check_table(c, c->tables[k], found, err);
    for (int i = 0; i < c->rel->ncols && rc == 0; i++)
        if (!found[i] && !is_meta(c, i)) {
            sl_error_set(err, SL_ERR_UNDEFINED_COLUMN,
                         "postgres_cdc source: column \"%s\" is not a column of the tables",
                         c->rel->col_names[i]);
            rc =
                sl_error_hint(err, "Declare the tables' columns and the metadata columns op, sign, "
                                   "lsn, commit_time.");
        }
    free(found);
    return rc;
}

/* ---- the slot and the snapshot -------------------------------------------- */

/* The slot's confirmed_flush_lsn: 1 found, 0 missing, -1 error. */
static int slot_position(pgcdc_t *c, uint64_t *lsn, sl_error_t *err)
{
    const char *params[] = {c->slot};
    PGresult *r = cdc_exec(c->sql,
                           "SELECT coalesce(confirmed_flush_lsn, restart_lsn)::text "
                           "FROM pg_replication_slots WHERE slot_name = $1",
                           1, params, PGRES_TUPLES_OK, err);
    if (!r) return -1;
    int found = PQntuples(r) > 0;
    if (found && pgo_lsn_parse(PQgetvalue(r, 0, 0), lsn) < 0) *lsn = 0;
    PQclear(r);
    return found;
}

static int drop_slot(pgcdc_t *c, sl_error_t *err)
{
    const char *params[] = {c->slot};
    PGresult *r =
        cdc_exec(c->sql, "SELECT pg_drop_replication_slot($1)", 1, params, PGRES_TUPLES_OK, err);
    PQclear(r);
    return r ? 0 : -1;
}

/* The stream's columns that `table` has, comma-separated and quoted, and
 * their stream indexes as the snapshot file's first line. */
static void table_columns(pgcdc_t *c, PGresult *attnames, sl_buf_t *select, sl_buf_t *header)
{
    for (int i = 0; i < c->rel->ncols; i++) {
        if (is_meta(c, i)) continue;
        for (int t = 0; t < PQntuples(attnames); t++) {
            if (strcasecmp(PQgetvalue(attnames, t, 0), c->rel->col_names[i])) continue;
            char *id = PQescapeIdentifier(c->sql, PQgetvalue(attnames, t, 0),
                                          strlen(PQgetvalue(attnames, t, 0)));
            sl_buf_printf(select, "%s%s", select->len ? ", " : "", id ? id : "");
            sl_buf_printf(header, "%s%d", header->len ? " " : "", i);
            PQfreemem(id);
        }
    }
    sl_buf_putc(header, '\n');
}

/* COPY of the table's stream columns, as of the exported snapshot, into
 * dir/snapshot.<k>: the first line lists the stream columns, then COPY text. */
static int copy_table(pgcdc_t *c, int k, sl_error_t *err)
{
    char nsp[256], name[32];
    const char *rel;
    split_name(c->tables[k], nsp, sizeof nsp, &rel);
    const char *params[] = {nsp, rel};
    PGresult *r = cdc_exec(c->sql,
                           "SELECT attname FROM pg_attribute a JOIN pg_class c ON c.oid = attrelid "
                           "JOIN pg_namespace n ON n.oid = relnamespace WHERE n.nspname = $1 AND "
                           "relname = $2 AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
                           2, params, PGRES_TUPLES_OK, err);
    if (!r) return -1;
    sl_buf_t select = SL_BUF_INIT, header = SL_BUF_INIT, sql = SL_BUF_INIT;
    table_columns(c, r, &select, &header);
    PQclear(r);
    char *qn = PQescapeIdentifier(c->sql, nsp, strlen(nsp));
    char *qr = PQescapeIdentifier(c->sql, rel, strlen(rel));
    sl_buf_printf(&sql, "COPY (SELECT %s FROM %s.%s) TO STDOUT", select.len ? select.data : "",
                  qn ? qn : "", qr ? qr : "");
    PQfreemem(qn);
    PQfreemem(qr);
    snprintf(name, sizeof name, "snapshot.%d", k);
    sl_fw_t w;
    int rc = sl_fw_open(&w, c->dir, name, err);
    if (rc == 0) rc = sl_fw_write(&w, header.data, header.len, err);
    r = rc == 0 ? cdc_exec(c->sql, sql.data, 0, NULL, PGRES_COPY_OUT, err) : NULL;
    if (!r) rc = -1;
    PQclear(r);
    char *line;
    int len;
    while (rc == 0 && (len = PQgetCopyData(c->sql, &line, 0)) > 0) {
        rc = sl_fw_write(&w, line, (size_t)len, err);
        PQfreemem(line);
    }
    if (rc == 0) {
        r = PQgetResult(c->sql);
        if (PQresultStatus(r) != PGRES_COMMAND_OK) rc = cdc_fail(c->sql, r, err);
        PQclear(r);
        while ((r = PQgetResult(c->sql))) PQclear(r);
    }
    rc = rc == 0 ? sl_fw_commit(&w, 0, NULL, NULL, err) : (sl_fw_abort(&w), -1);
    sl_buf_free(&select);
    sl_buf_free(&header);
    sl_buf_free(&sql);
    return rc;
}

static int run(PGconn *pc, const char *sql, sl_error_t *err)
{
    PGresult *r = cdc_exec(pc, sql, 0, NULL, PGRES_COMMAND_OK, err);
    PQclear(r);
    return r ? 0 : -1;
}

/* Copies every table as of `snapshot` (the slot's exported snapshot). */
static int copy_snapshot(pgcdc_t *c, const char *snapshot, sl_error_t *err)
{
    char *lit = PQescapeLiteral(c->sql, snapshot, strlen(snapshot));
    char sql[256];
    snprintf(sql, sizeof sql, "SET TRANSACTION SNAPSHOT %s", lit ? lit : "''");
    PQfreemem(lit);
    if (run(c->sql, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", err) < 0) return -1;
    int rc = run(c->sql, sql, err);
    for (int k = 0; k < c->ntables && rc == 0; k++) rc = copy_table(c, k, err);
    if (rc == 0) return run(c->sql, "COMMIT", err);
    PGresult *r = PQexec(c->sql, "ROLLBACK");
    PQclear(r);
    return -1;
}

/* CREATE_REPLICATION_SLOT; with the snapshot, the tables are copied while
 * the exported snapshot is valid (until the next command on `repl`). */
static int create_slot(pgcdc_t *c, uint64_t *lsn, sl_error_t *err)
{
    PGconn *repl = cdc_connect(c, true, err);
    if (!repl) return -1;
    char sql[200];
    snprintf(sql, sizeof sql, "CREATE_REPLICATION_SLOT %s LOGICAL pgoutput %s", c->slot,
             c->snapshot ? "EXPORT_SNAPSHOT" : "NOEXPORT_SNAPSHOT");
    PGresult *r = cdc_exec(repl, sql, 0, NULL, PGRES_TUPLES_OK, err);
    int rc = r ? 0 : -1;
    if (r && pgo_lsn_parse(PQgetvalue(r, 0, 1), lsn) < 0)
        rc = sl_error_set(err, SL_ERR_PROTOCOL_VIOLATION,
                          "postgres_cdc source: bad consistent point \"%s\"", PQgetvalue(r, 0, 1));
    if (rc == 0 && c->snapshot) rc = copy_snapshot(c, PQgetvalue(r, 0, 2), err);
    PQclear(r);
    PQfinish(repl);
    return rc;
}

static int read_init(pgcdc_t *c, sl_error_t *err)
{
    char *path = sl_fs_path(c->dir, "init");
    sl_buf_t b = SL_BUF_INIT;
    int rc = sl_fs_read_file(path, &b, err);
    free(path);
    if (rc == 1) {
        char lsn[32];
        long long us;
        if (sscanf(b.data, "%31s %lld", lsn, &us) != 2 || pgo_lsn_parse(lsn, &c->snap_lsn) < 0)
            rc = sl_error_set(err, SL_ERR_INTERNAL_ERROR,
                              "postgres_cdc source: bad file \"%s/init\"", c->dir);
        c->snap_us = us;
        c->have_init = rc == 1;
    }
    sl_buf_free(&b);
    return rc;
}

/* A new query: a slot left by a start that crashed before dir/init was
 * written (dir/creating says so) is dropped; any other is refused when the
 * query must snapshot, else streamed from its position. */
static int first_start(pgcdc_t *c, sl_error_t *err)
{
    uint64_t lsn = 0;
    char *creating = sl_fs_path(c->dir, "creating");
    int ours = sl_fs_exists(creating);
    free(creating);
    int found = slot_position(c, &lsn, err);
    if (found < 0) return -1;
    if (found && ours && drop_slot(c, err) < 0) return -1;
    if (found && !ours && c->snapshot) {
        sl_error_set(err, SL_ERR_DUPLICATE_OBJECT,
                     "postgres_cdc source: replication slot \"%s\" already exists", c->slot);
        return sl_error_hint(err, "Drop it, name another slot, or set snapshot 'false' to "
                                  "stream from its position without a snapshot.");
    }
    if (!found || ours) {
        if (sl_fs_write_file(c->dir, "creating", "", 0, 0, NULL, NULL, err) < 0 ||
            create_slot(c, &lsn, err) < 0)
            return -1;
    }
    char text[64], lsn_text[24];
    pgo_lsn_format(lsn, lsn_text, sizeof lsn_text);
    snprintf(text, sizeof text, "%s\n%lld\n", lsn_text, (long long)now_us());
    if (sl_fs_write_file(c->dir, "init", text, strlen(text), 0, NULL, NULL, err) < 0) return -1;
    creating = sl_fs_path(c->dir, "creating");
    unlink(creating);
    free(creating);
    return read_init(c, err) == 1 ? 0 : -1;
}

int pgcdc_init(pgcdc_t *c, sl_error_t *err)
{
    if (c->have_init) return 0;
    if (!c->dir)
        return sl_error_set(err, SL_ERR_INTERNAL_ERROR,
                            "postgres_cdc source: no checkpoint directory");
    int rc = read_init(c, err);
    if (rc != 0) return rc < 0 ? -1 : 0;
    if (pgcdc_check_tables(c, err) < 0) return -1;
    return first_start(c, err);
}

/* ---- the stream ------------------------------------------------------------- */

/* A status update: written = what was received; flushed = the committed
 * position only when `confirm` (the slot's confirmed_flush_lsn moves only
 * in commit), else 0 (left as it is). Reporting what was received as
 * written lets a server shutting down finish its walsender, which waits
 * until the client has replicated everything it sent. */
static int send_status(pgcdc_t *c, bool confirm, int reply, sl_error_t *err)
{
    uint8_t msg[34];
    int64_t t = now_us();
    uint64_t written = c->received > c->confirmed ? c->received : c->confirmed;
    pgo_status_update(msg, written, confirm ? c->confirmed : 0, t, reply);
    c->last_status_us = t;
    if (PQputCopyData(c->repl, (const char *)msg, sizeof msg) == 1 && PQflush(c->repl) == 0)
        return 0;
    return cdc_fail(c->repl, NULL, err);
}

int pgcdc_confirm(pgcdc_t *c, uint64_t lsn, sl_error_t *err)
{
    if (lsn <= c->confirmed) return 0;
    c->confirmed = lsn;
    return c->repl ? send_status(c, true, 0, err) : 0;
}

/* The slot is where the checkpoint expects it: present, and not confirmed
 * past `*start` (else changes of the logged batch are gone). Without
 * failOnDataLoss a missing slot is created again and the stream goes on
 * from where the slot is. */
static int check_slot(pgcdc_t *c, uint64_t *start, sl_error_t *err)
{
    uint64_t pos = 0;
    char want[24], have[24];
    int found = slot_position(c, &pos, err);
    if (found < 0) return -1;
    pgo_lsn_format(*start, want, sizeof want);
    if (!found && c->fail_on_loss) {
        sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                     "postgres_cdc source: replication slot \"%s\" does not exist", c->slot);
        sl_error_detail(err, "Changes after %s may have been lost.", want);
        return sl_error_hint(err, "Start the query on a new checkpoint, or set failOnDataLoss "
                                  "'false' to create the slot again and go on from there.");
    }
    if (!found) {
        SL_WARN("pgcdc",
                "replication slot \"%s\" is gone: creating it again, changes after %s "
                "may be lost",
                c->slot, want);
        bool snap = c->snapshot;
        c->snapshot = false;
        int rc = create_slot(c, &pos, err);
        c->snapshot = snap;
        if (rc < 0) return -1;
    }
    pgo_lsn_format(pos, have, sizeof have);
    if (pos > *start && c->fail_on_loss) {
        sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                     "postgres_cdc source: replication slot \"%s\" is at %s, past the "
                     "checkpoint's %s",
                     c->slot, have, want);
        sl_error_detail(err, "The changes between them are lost.");
        return sl_error_hint(err, "Start the query on a new checkpoint, or set failOnDataLoss "
                                  "'false' to go on from the slot's position.");
    }
    if (pos > *start) {
        SL_WARN("pgcdc", "replication slot \"%s\" is at %s, past %s: going on from there", c->slot,
                have, want);
        *start = pos;
    }
    if (pos > c->confirmed) c->confirmed = pos;
    return 0;
}

static void drop_open(pgcdc_t *c)
{
    for (size_t i = c->ncommitted; i < c->n; i++) free(c->buf[i]);
    c->n = c->ncommitted;
}

static int stream_open(pgcdc_t *c, uint64_t start, sl_error_t *err)
{
    if (pgcdc_connect_sql(c, err) < 0 || check_slot(c, &start, err) < 0) return -1;
    if (start > c->resume) c->resume = start;
    PGconn *repl = cdc_connect(c, true, err);
    if (!repl) return -1;
    char at[24], sql[512];
    pgo_lsn_format(c->resume, at, sizeof at);
    char *pub = PQescapeLiteral(repl, c->publication, strlen(c->publication));
    snprintf(sql, sizeof sql,
             "START_REPLICATION SLOT %s LOGICAL %s (proto_version '1', publication_names %s)",
             c->slot, at, pub ? pub : "''");
    PQfreemem(pub);
    PGresult *r = PQexec(repl, sql);
    if (PQresultStatus(r) != PGRES_COPY_BOTH) {
        cdc_fail(repl, r, err);
        PQclear(r);
        PQfinish(repl);
        return -1;
    }
    PQclear(r);
    c->repl = repl;
    c->streamed = true;
    drop_open(c);
    return send_status(c, true, 0, err);
}

static int reconnect(pgcdc_t *c, sl_error_t *err);

/* A failure worth retrying: transient, and either the slot still held by a
 * walsender that has not noticed its client died, or a stream that worked
 * before (a first connection that fails is a configuration error). */
static bool retry_start(const pgcdc_t *c, const sl_error_t *err)
{
    return transient(err->sqlstate) && (c->streamed || !strcmp(err->sqlstate, "55006"));
}

int pgcdc_stream_start(pgcdc_t *c, uint64_t start, sl_error_t *err)
{
    if (c->repl) return 0;
    if (stream_open(c, start, err) == 0) return 0;
    if (!retry_start(c, err)) return -1;
    if (start > c->resume) c->resume = start;
    return reconnect(c, err);
}

/* ---- pgoutput messages into the buffer ----------------------------------- */

static cdc_rel_t *rel_find(pgcdc_t *c, uint32_t relid)
{
    for (int i = 0; i < c->nrels; i++)
        if (c->rels[i].relid == relid) return &c->rels[i];
    return NULL;
}

static bool table_wanted(const pgcdc_t *c, const char *name)
{
    for (int k = 0; k < c->ntables; k++)
        if (!strcmp(c->tables[k], name)) return true;
    return false;
}

static void rel_free(cdc_rel_t *r)
{
    free(r->name);
    free(r->to_stream);
}

/* Relation: (re)maps its columns to the stream's by name. */
static void on_relation(pgcdc_t *c, const pgo_msg_t *m)
{
    cdc_rel_t *r = rel_find(c, m->relid);
    if (!r) {
        c->rels = realloc(c->rels, (size_t)(c->nrels + 1) * sizeof *c->rels);
        r = &c->rels[c->nrels++];
    } else {
        rel_free(r);
    }
    r->relid = m->relid;
    size_t len = strlen(m->nspname) + strlen(m->relname) + 2;
    r->name = malloc(len);
    snprintf(r->name, len, "%s.%s", m->nspname, m->relname);
    r->wanted = table_wanted(c, r->name);
    r->ncols = m->ncols;
    r->to_stream = malloc(((size_t)m->ncols + 1) * sizeof *r->to_stream);
    for (int j = 0; j < m->ncols; j++) {
        r->to_stream[j] = -1;
        for (int i = 0; i < c->rel->ncols; i++)
            if (!is_meta(c, i) && !strcasecmp(c->rel->col_names[i], m->cols[j].name))
                r->to_stream[j] = i;
    }
}

static const pgo_value_t *tuple_value(const pgo_tuple_t *t, int j)
{
    return t && j < t->ncols ? &t->values[j] : NULL;
}

/* Appends one change; an unchanged TOASTed value ('u') is taken from `prev`
 * (the before image of the same update). */
static void add_change(pgcdc_t *c, const cdc_rel_t *r, char op, int sign, const pgo_tuple_t *t,
                       const pgo_tuple_t *prev)
{
    int ncols = c->rel->ncols;
    size_t bytes = sizeof(cdc_change_t) + (size_t)ncols * (sizeof(char *) + sizeof(uint32_t));
    for (int j = 0; j < t->ncols; j++) {
        const pgo_value_t *v = tuple_value(t, j);
        if (v->kind == 'u') v = tuple_value(prev, j);
        if (v && v->kind == 't') bytes += v->len;
    }
    cdc_change_t *ch = calloc(1, bytes);
    ch->op = op;
    ch->sign = (int8_t)sign;
    ch->vals = (const char **)(ch + 1);
    ch->lens = (uint32_t *)(ch->vals + ncols);
    char *text = (char *)(ch->lens + ncols);
    for (int j = 0; j < t->ncols && j < r->ncols; j++) {
        const pgo_value_t *v = tuple_value(t, j);
        if (v->kind == 'u') v = tuple_value(prev, j);
        int col = r->to_stream[j];
        if (col < 0 || !v || v->kind != 't') continue;
        memcpy(text, v->text, v->len);
        ch->vals[col] = text;
        ch->lens[col] = v->len;
        text += v->len;
    }
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 1024;
        c->buf = realloc(c->buf, c->cap * sizeof *c->buf);
    }
    c->buf[c->n++] = ch;
}

static void on_commit(pgcdc_t *c, const pgo_msg_t *m)
{
    if (m->end_lsn > c->received) c->received = m->end_lsn;
    if (m->end_lsn <= c->resume) {
        drop_open(c); /* delivered before: a replay from an older position */
        return;
    }
    for (size_t i = c->ncommitted; i < c->n; i++) {
        c->buf[i]->end_lsn = m->end_lsn;
        c->buf[i]->commit_us = m->commit_us;
    }
    c->ncommitted = c->n;
    c->resume = m->end_lsn;
}

static int no_before_image(const cdc_rel_t *r, sl_error_t *err)
{
    sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                 "postgres_cdc source: a change of table \"%s\" came without the row before it",
                 r->name);
    return sl_error_hint(err, "Run ALTER TABLE %s REPLICA IDENTITY FULL.", r->name);
}

static int on_row_change(pgcdc_t *c, const pgo_msg_t *m, sl_error_t *err)
{
    const cdc_rel_t *r = rel_find(c, m->relid);
    if (!r)
        return sl_error_set(err, SL_ERR_PROTOCOL_VIOLATION,
                            "postgres_cdc source: change of unknown relation %u", m->relid);
    if (!r->wanted) return 0;
    if (m->kind != PGO_INSERT && m->old_kind != 'O') return no_before_image(r, err);
    if (m->kind == PGO_INSERT) add_change(c, r, 'c', 1, &m->new_tuple, NULL);
    if (m->kind == PGO_UPDATE) {
        add_change(c, r, 'u', -1, &m->old_tuple, NULL);
        add_change(c, r, 'u', 1, &m->new_tuple, &m->old_tuple);
    }
    if (m->kind == PGO_DELETE) add_change(c, r, 'd', -1, &m->old_tuple, NULL);
    return 0;
}

static int on_truncate(pgcdc_t *c, const pgo_msg_t *m, sl_error_t *err)
{
    for (int i = 0; i < m->nrelids; i++) {
        const cdc_rel_t *r = rel_find(c, m->relids[i]);
        if (!r || !r->wanted) continue;
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                     "postgres_cdc source: TRUNCATE of table \"%s\" cannot be streamed", r->name);
        return sl_error_hint(err, "A postgres_cdc stream carries row changes only: use DELETE, "
                                  "or start the query again on a new checkpoint.");
    }
    return 0;
}

static int on_message(pgcdc_t *c, const uint8_t *p, size_t n, sl_error_t *err)
{
    sl_arena_t *a = sl_arena_new("pgoutput");
    pgo_msg_t m;
    int rc = pgo_parse(p, n, a, &m, err);
    if (rc == 0) {
        switch (m.kind) {
        case PGO_BEGIN: drop_open(c); break;
        case PGO_COMMIT: on_commit(c, &m); break;
        case PGO_RELATION: on_relation(c, &m); break;
        case PGO_INSERT:
        case PGO_UPDATE:
        case PGO_DELETE: rc = on_row_change(c, &m, err); break;
        case PGO_TRUNCATE: rc = on_truncate(c, &m, err); break;
        default: break;
        }
    }
    sl_arena_free(a);
    return rc;
}

static int on_frame(pgcdc_t *c, const char *p, int len, sl_error_t *err)
{
    pgo_frame_t f;
    if (pgo_parse_frame((const uint8_t *)p, (size_t)len, &f, err) < 0) return -1;
    if (f.kind == 'k') {
        if (f.wal_end > c->received) c->received = f.wal_end;
        return f.reply_requested ? send_status(c, false, 0, err) : 0;
    }
    return on_message(c, f.data, f.len, err);
}

/* Reads every frame libpq has or can read without blocking (until `max`
 * whole changes are buffered). 1 read something, 0 nothing, -1 error;
 * *lost when the connection is gone (a retry may succeed). */
static int read_available(pgcdc_t *c, size_t max, bool *lost, sl_error_t *err)
{
    *lost = false;
    if (!PQconsumeInput(c->repl)) {
        *lost = true;
        return cdc_fail(c->repl, NULL, err);
    }
    int got = 0;
    for (;;) {
        if (max && c->ncommitted >= max) return 1;
        char *p;
        int len = PQgetCopyData(c->repl, &p, 1);
        if (len == 0) break;
        if (len < 0) {
            PGresult *r = len == -1 ? PQgetResult(c->repl) : NULL;
            cdc_fail(c->repl, r, err);
            PQclear(r);
            *lost = transient(err->sqlstate) || PQstatus(c->repl) != CONNECTION_OK;
            return -1;
        }
        int rc = on_frame(c, p, len, err);
        PQfreemem(p);
        if (rc < 0) return -1;
        got = 1;
    }
    if (now_us() - c->last_status_us > STATUS_EVERY_US && send_status(c, false, 0, err) < 0) {
        *lost = true;
        return -1;
    }
    return got;
}

/* After a lost connection: both connections again, the stream from the end
 * of the last whole transaction buffered, with backoff 1 s, 2 s, 4 s ... */
static int reconnect(pgcdc_t *c, sl_error_t *err)
{
    drop_open(c);
    for (int attempt = 0; attempt < RECONNECT_TRIES; attempt++) {
        SL_WARN("pgcdc", "replication stream of slot \"%s\" lost (%s): reconnecting in %d s",
                c->slot, err->message, 1 << attempt);
        pgcdc_disconnect(c);
        struct timespec ts = {1 << attempt, 0};
        nanosleep(&ts, NULL);
        sl_error_clear(err);
        if (stream_open(c, c->resume, err) == 0) return 0;
        if (!retry_start(c, err)) return -1;
    }
    return -1;
}

static bool pump_done(const pgcdc_t *c, uint64_t until, bool server_pos, size_t max, int got)
{
    if (max && c->ncommitted >= max) return true;
    if (!until) return got == 0;
    if (c->resume >= until) return true;
    return server_pos && c->received >= until && c->n == c->ncommitted;
}

static int wait_readable(pgcdc_t *c, sl_error_t *err)
{
    if (now_us() - c->last_status_us > 1000000 && send_status(c, false, 1, err) < 0) return -1;
    struct pollfd pfd = {PQsocket(c->repl), POLLIN, 0};
    poll(&pfd, 1, 200);
    return 0;
}

int pgcdc_pump(pgcdc_t *c, uint64_t until, bool server_pos, size_t max, sl_error_t *err)
{
    int64_t deadline = now_us() + WAIT_LIMIT_US;
    for (;;) {
        bool lost = false;
        int got = c->repl ? read_available(c, max, &lost, err) : -1;
        if (!c->repl) lost = true, sl_error_set(err, "08006", "postgres_cdc source: no stream");
        if (got < 0 && (!lost || reconnect(c, err) < 0)) return -1;
        if (got < 0) continue;
        if (pump_done(c, until, server_pos, max, got)) return 0;
        if (now_us() > deadline) {
            char at[24];
            pgo_lsn_format(until, at, sizeof at);
            return sl_error_set(err, SL_ERR_CONNECTION_FAILURE,
                                "postgres_cdc source: the replication stream did not reach %s "
                                "within 60 s",
                                at);
        }
        if (got == 0 && wait_readable(c, err) < 0 && reconnect(c, err) < 0) return -1;
    }
}

int pgcdc_current_lsn(pgcdc_t *c, uint64_t *out, sl_error_t *err)
{
    if (pgcdc_connect_sql(c, err) < 0) return -1;
    PGresult *r =
        cdc_exec(c->sql, "SELECT pg_current_wal_lsn()::text", 0, NULL, PGRES_TUPLES_OK, err);
    if (!r) return -1;
    int rc = pgo_lsn_parse(PQgetvalue(r, 0, 0), out);
    PQclear(r);
    return rc < 0 ? sl_error_set(err, SL_ERR_PROTOCOL_VIOLATION, "postgres_cdc source: bad LSN")
                  : 0;
}

void pgcdc_buffer_drop(pgcdc_t *c, size_t k)
{
    for (size_t i = 0; i < k; i++) free(c->buf[i]);
    memmove(c->buf, c->buf + k, (c->n - k) * sizeof *c->buf);
    c->n -= k;
    c->ncommitted -= k;
}

void pgcdc_free(pgcdc_t *c)
{
    pgcdc_disconnect(c);
    pgcdc_buffer_drop(c, c->ncommitted);
    drop_open(c);
    free(c->buf);
    for (int i = 0; i < c->nrels; i++) rel_free(&c->rels[i]);
    free(c->rels);
    c->buf = NULL;
    c->rels = NULL;
    c->nrels = 0;
    c->cap = 0;
}
