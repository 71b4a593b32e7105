/* The postgres sink: each micro-batch is one PostgreSQL transaction that
 * writes the batch's rows and records (query id, batch id) in a progress
 * table of the sink's own (`progressTable`, default sluice_sink_progress:
 * query_id text primary key, query_name text, batch_id bigint,
 * committed_at timestamptz). The query id is the checkpoint's, so a new
 * checkpoint starts a new row.
 *
 * add_batch(N): BEGIN; read this query's batch id from the progress table;
 * when it is >= N the batch is already in PostgreSQL (a replay after a
 * crash between the PostgreSQL commit and sluice's commit log): ROLLBACK,
 * skip. Else write the rows by mode, upsert (query id, N), wait for the
 * write-ahead, COMMIT [failpoint sink.postgres.after_commit].
 *   append    COPY into the table;
 *   update    COPY into a temporary staging table, then INSERT ... SELECT
 *             ... ON CONFLICT (key) DO UPDATE (key: the `key` option or the
 *             result key; without one, rows are appended, as Spark does);
 *   complete  DELETE every row, then COPY the whole result.
 * A transient error (lost connection, 08xxx, 40001, 40P01, 57P01) rolls the
 * transaction back and retries the batch after retryBackoff, doubled each
 * time, up to `retries` times; any other error fails the query with the
 * server's SQLSTATE. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <jansson.h>

#include "common/failpoint.h"
#include "common/log.h"
#include "common/redact.h"
#include "connectors/sink_postgres_int.h"

static const conn_desc_t *desc(void)
{
    return conn_lookup("postgres", CONN_SINK, NULL);
}

/* ---- options ------------------------------------------------------------ */

/* The `key` option's columns, as result column indexes. */
static int key_option(const sink_schema_t *sc, const char *text, pgsink_t *p, sl_arena_t *a,
                      sl_error_t *err)
{
    p->keys = SL_NEW_ARRAY(a, int, sc->ncols + 1);
    p->nkeys = 0;
    char *copy = sl_strdup(a, text), *save = NULL;
    for (char *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        int col = -1;
        for (int i = 0; i < sc->ncols; i++)
            if (!strcasecmp(sc->names[i], t)) col = i;
        if (col < 0 || p->nkeys >= sc->ncols)
            return conn_bad_option(err, "key", text, "\"%s\" is not a column of the result.", t);
        p->keys[p->nkeys++] = col;
    }
    return 0;
}

/* The result key for update mode: the option, else the planner's key,
 * which must be made of columns the sink writes. */
static int result_key(output_mode_t mode, const sink_schema_t *sc, const conn_kv_t *o, int n,
                      pgsink_t *p, sl_arena_t *a, sl_error_t *err)
{
    const char *opt = conn_option(desc(), o, n, "key");
    p->nkeys = 0;
    if (mode != OUTPUT_UPDATE) return 0;
    if (opt) return key_option(sc, opt, p, a, err);
    if (!sc->keyed) return 0;
    p->keys = SL_NEW_ARRAY(a, int, sc->nkeys + 1);
    for (int k = 0; k < sc->nkeys; k++) {
        if (sc->keys[k] >= sc->ncols) {
            sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                         "the result key column \"%s\" is not selected", sc->names[sc->keys[k]]);
            return sl_error_hint(err, "Select it, or name the upsert key with the 'key' option.");
        }
        p->keys[k] = sc->keys[k];
    }
    p->nkeys = sc->nkeys;
    return 0;
}

static int sink_options(output_mode_t mode, const sink_schema_t *sc, const conn_kv_t *o, int n,
                        pgsink_t *p, sl_arena_t *a, sl_error_t *err)
{
    const conn_desc_t *d = desc();
    p->url = conn_option(d, o, n, "url");
    p->password = conn_option(d, o, n, "password");
    p->table = conn_option(d, o, n, "table");
    p->progress = conn_option(d, o, n, "progressTable");
    p->retries = 5;
    p->backoff_s = 1;
    if (!p->table || !*p->table) return conn_bad_option(err, "table", "", "It must name a table.");
    if (conn_opt_bool(d, o, n, "createTable", &p->create_table, err) < 0 ||
        conn_opt_int64(d, o, n, "retries", 0, 1000, &p->retries, err) < 0 ||
        conn_opt_seconds(d, o, n, "retryBackoff", &p->backoff_s, err) < 0)
        return -1;
    if (sl_secret_resolve(a, "url", p->url, &p->url, err) < 0) return -1;
    if (p->password && sl_secret_resolve(a, "password", p->password, &p->password, err) < 0)
        return -1;
    return result_key(mode, sc, o, n, p, a, err);
}

int sink_postgres_validate(const conn_desc_t *d, output_mode_t mode, const sink_schema_t *schema,
                           const conn_kv_t *opts, int nopts, sl_error_t *err)
{
    (void)d;
    pgsink_t p;
    sl_arena_t *a = sl_arena_new("pg validate");
    int rc = sink_options(mode, schema, opts, nopts, &p, a, err);
    sl_arena_free(a);
    return rc;
}

/* ---- one batch, one transaction ----------------------------------------- */

/* Runs a statement that returns no rows. */
static int run(pgsink_t *p, const char *sql, bool *transient, sl_error_t *err)
{
    PGresult *r = pgsink_exec(p, sql, 0, NULL, PGRES_COMMAND_OK, transient, err);
    PQclear(r);
    return r ? 0 : -1;
}

/* Creates the progress table when missing (at query start). */
static int progress_table(pgsink_t *p, bool *transient, sl_error_t *err)
{
    sl_arena_t *a = sl_arena_new("pg progress");
    const char *ddl = sl_printf(a,
                                "CREATE TABLE IF NOT EXISTS %s (query_id text PRIMARY KEY, "
                                "query_name text, batch_id bigint NOT NULL, committed_at "
                                "timestamptz NOT NULL DEFAULT now())",
                                pgsink_qualified(p->progress, a));
    int rc = pgsink_create_if_missing(p, ddl, transient, err);
    sl_arena_free(a);
    return rc;
}

/* Whether the progress table already holds batch_id (or a later one). */
static int already_written(pgsink_t *p, int64_t batch_id, bool *done, bool *transient,
                           sl_error_t *err)
{
    sl_arena_t *a = sl_arena_new("pg progress");
    const char *sql = sl_printf(a, "SELECT batch_id FROM %s WHERE query_id = $1 FOR UPDATE",
                                pgsink_qualified(p->progress, a));
    PGresult *r = pgsink_exec(p, sql, 1, &p->query_id, PGRES_TUPLES_OK, transient, err);
    *done = r && PQntuples(r) == 1 && strtoll(PQgetvalue(r, 0, 0), NULL, 10) >= batch_id;
    PQclear(r);
    sl_arena_free(a);
    return r ? 0 : -1;
}

static int record_progress(pgsink_t *p, const char *query_name, int64_t batch_id, bool *transient,
                           sl_error_t *err)
{
    sl_arena_t *a = sl_arena_new("pg progress");
    const char *params[] = {p->query_id, query_name, sl_printf(a, "%lld", (long long)batch_id)};
    const char *sql = sl_printf(a,
                                "INSERT INTO %s (query_id, query_name, batch_id) VALUES ($1, $2, "
                                "$3) ON CONFLICT (query_id) DO UPDATE SET batch_id = "
                                "EXCLUDED.batch_id, query_name = EXCLUDED.query_name, "
                                "committed_at = now()",
                                pgsink_qualified(p->progress, a));
    PGresult *r = pgsink_exec(p, sql, 3, params, PGRES_COMMAND_OK, transient, err);
    PQclear(r);
    sl_arena_free(a);
    return r ? 0 : -1;
}

/* update with a key: COPY into a staging table, then upsert from it. */
static int write_upsert(pgsink_t *p, const sink_schema_t *sc, exec_batch_t *const *batches, int n,
                        int64_t *rows, bool *transient, sl_error_t *err)
{
    sl_arena_t *a = sl_arena_new("pg upsert");
    const char *t = pgsink_qualified(p->table, a);
    sl_buf_t cols = SL_BUF_INIT, keys = SL_BUF_INIT, set = SL_BUF_INIT;
    for (int i = 0; i < sc->ncols; i++) {
        const char *c = pgsink_ident(sc->names[i], a);
        sl_buf_printf(&cols, "%s%s", i ? ", " : "", c);
        sl_buf_printf(&set, "%s%s = EXCLUDED.%s", set.len ? ", " : "", c, c);
    }
    for (int k = 0; k < p->nkeys; k++)
        sl_buf_printf(&keys, "%s%s", k ? ", " : "", pgsink_ident(sc->names[p->keys[k]], a));
    const char *stage = sl_printf(a,
                                  "CREATE TEMP TABLE sluice_stage ON COMMIT DROP AS SELECT %s "
                                  "FROM %s WITH NO DATA",
                                  cols.data, t);
    const char *merge = sl_printf(a,
                                  "INSERT INTO %s (%s) SELECT %s FROM sluice_stage ON CONFLICT "
                                  "(%s) DO UPDATE SET %s",
                                  t, cols.data, cols.data, keys.data, set.data);
    int rc = run(p, stage, transient, err);
    if (rc == 0) rc = pgsink_copy(p, "sluice_stage", sc, batches, n, rows, transient, err);
    if (rc == 0) rc = run(p, merge, transient, err);
    sl_buf_free(&cols), sl_buf_free(&keys), sl_buf_free(&set);
    sl_arena_free(a);
    return rc;
}

static int write_rows(sink_t *s, exec_batch_t *const *batches, int n, int64_t *rows,
                      bool *transient, sl_error_t *err)
{
    pgsink_t *p = s->impl;
    sl_arena_t *a = sl_arena_new("pg write");
    const char *t = pgsink_qualified(p->table, a);
    int rc = 0;
    if (s->mode == OUTPUT_UPDATE && p->nkeys)
        rc = write_upsert(p, &s->schema, batches, n, rows, transient, err);
    else {
        bool replace = s->mode == OUTPUT_COMPLETE || (s->mode == OUTPUT_UPDATE && s->schema.keyed);
        if (replace) rc = run(p, sl_printf(a, "DELETE FROM %s", t), transient, err);
        if (rc == 0) rc = pgsink_copy(p, t, &s->schema, batches, n, rows, transient, err);
    }
    sl_arena_free(a);
    return rc;
}

/* One attempt at batch N: its own transaction, rolled back on any error. */
static int transaction(sink_t *s, int64_t batch_id, exec_batch_t *const *batches, int n,
                       const sink_ahead_t *ahead, bool *transient, sl_error_t *err)
{
    pgsink_t *p = s->impl;
    int64_t rows = 0;
    bool done = false;
    *transient = true;
    if (!p->conn && (pgsink_connect(p, err) < 0)) return -1;
    int rc = run(p, "BEGIN", transient, err);
    if (rc == 0) rc = already_written(p, batch_id, &done, transient, err);
    if (rc == 0 && done) {
        SL_INFO("sink.postgres", "skipping already committed batch %lld query=%s",
                (long long)batch_id, s->query_name);
        s->last_output_rows = 0;
        return run(p, "ROLLBACK", transient, err);
    }
    if (rc == 0) rc = write_rows(s, batches, n, &rows, transient, err);
    if (rc == 0) rc = record_progress(p, s->query_name, batch_id, transient, err);
    if (rc == 0 && sink_await_ahead(ahead, err) < 0) *transient = false, rc = -1;
    if (rc == 0) rc = run(p, "COMMIT", transient, err);
    if (rc < 0) {
        sl_error_t ignored;
        bool t2;
        if (p->conn) run(p, "ROLLBACK", &t2, &ignored);
        return -1;
    }
    failpoint_hit("sink.postgres.after_commit");
    s->last_output_rows = rows;
    return 0;
}

/* The query id of the checkpoint's metadata (written before the first batch). */
static int read_query_id(pgsink_t *p, sl_error_t *err)
{
    sl_buf_t b = SL_BUF_INIT;
    char *meta = conn_path_join(p->keep, p->checkpoint, "metadata");
    int rc = sl_fs_read_file(meta, &b, err);
    json_t *j = rc > 0 ? json_loads(b.data, 0, NULL) : NULL;
    const char *id = json_string_value(json_object_get(j, "id"));
    if (id) p->query_id = sl_strdup(p->keep, id);
    json_decref(j);
    sl_buf_free(&b);
    if (!id && rc >= 0)
        sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                     "checkpoint metadata \"%s\" holds no query id", meta);
    return id ? 0 : -1;
}

static void backoff(int64_t seconds)
{
    struct timespec ts = {.tv_sec = seconds, .tv_nsec = seconds ? 0 : 200000000};
    nanosleep(&ts, NULL);
}

static int postgres_add(sink_t *s, int64_t batch_id, exec_batch_t *const *batches, int n,
                        const sink_ahead_t *ahead, sl_error_t *err)
{
    pgsink_t *p = s->impl;
    if (!p->query_id && read_query_id(p, err) < 0) return -1;
    int64_t wait = p->backoff_s;
    for (int64_t attempt = 0;; attempt++) {
        bool transient = false;
        if (transaction(s, batch_id, batches, n, ahead, &transient, err) == 0) return 0;
        if (!transient || attempt >= p->retries) return -1;
        SL_WARN("sink.postgres", "batch %lld failed, retrying in %llds query=%s sqlstate=%s: %s",
                (long long)batch_id, (long long)wait, s->query_name, err->sqlstate, err->message);
        if (p->conn) pgsink_disconnect(p);
        backoff(wait);
        wait = wait ? wait * 2 : 0;
    }
}

static void postgres_describe(sink_t *s, sl_buf_t *out)
{
    const pgsink_t *p = s->impl;
    sl_buf_printf(out, "PostgresSink[%s]", p->table);
}

static void postgres_destroy(sink_t *s)
{
    pgsink_t *p = s->impl;
    if (!p) return;
    if (p->conn) pgsink_disconnect(p);
    sl_arena_free(p->keep);
    s->impl = NULL;
}

static const sink_ops_t postgres_ops = {
    .name = "postgres",
    .add_batch = postgres_add,
    .describe = postgres_describe,
    .destroy = postgres_destroy,
};

/* Connects, checks (or creates) the table and creates the progress table
 * at query start. */
int sink_postgres_create(sink_t *s, const sink_env_t *env, sl_arena_t *a, sl_error_t *err)
{
    pgsink_t *p = SL_NEW(a, pgsink_t);
    if (sink_options(s->mode, &s->schema, s->opts, s->nopts, p, a, err) < 0) return -1;
    if (!env || !env->checkpoint)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "the postgres sink needs the query's checkpoint");
    p->keep = sl_arena_new("postgres sink");
    p->checkpoint = sl_strdup(p->keep, env->checkpoint);
    s->impl = p;
    s->ops = &postgres_ops;
    bool transient;
    if (pgsink_connect(p, err) < 0 || pgsink_check_table(p, &s->schema, &transient, err) < 0 ||
        progress_table(p, &transient, err) < 0) {
        postgres_destroy(s);
        return -1;
    }
    return 0;
}
