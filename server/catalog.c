/* The catalog in SQLite: schema creation, objects and their dependencies.
 * One connection, serialised by a mutex; every change is one transaction. */
#include "server/catalog.h"

#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "common/buf.h"
#include "common/log.h"
#include "common/private_file.h"

struct cat {
    sqlite3 *db;
    pthread_mutex_t lock;
};

static const char *const schema_sql =
    "PRAGMA journal_mode = WAL;"
    "PRAGMA synchronous = FULL;"
    "PRAGMA foreign_keys = ON;"
    "CREATE TABLE IF NOT EXISTS objects ("
    "  name TEXT PRIMARY KEY, kind INTEGER NOT NULL, sql TEXT NOT NULL,"
    "  state TEXT NOT NULL DEFAULT '', created_at INTEGER NOT NULL,"
    "  version INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE IF NOT EXISTS depends ("
    "  name TEXT NOT NULL REFERENCES objects(name) ON DELETE CASCADE,"
    "  on_name TEXT NOT NULL REFERENCES objects(name),"
    "  PRIMARY KEY (name, on_name));"
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "INSERT OR IGNORE INTO meta VALUES ('catalog_version', '1');";

static int64_t now_us(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

static int db_error(cat_t *c, sl_error_t *err, const char *what)
{
    return sl_error_set(err, SL_ERR_IO_ERROR, "catalog %s failed: %s", what, sqlite3_errmsg(c->db));
}

cat_t *cat_open(const char *dir, sl_error_t *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/catalog.db", dir);
    cat_t *c = sl_xcalloc(1, sizeof *c);
    pthread_mutex_init(&c->lock, NULL);
    if (sl_private_file(path) < 0) {
        sl_error_set(err, SL_ERR_IO_ERROR, "could not create catalog \"%s\": %s", path,
                     strerror(errno));
        cat_close(c);
        return NULL;
    }
    if (sqlite3_open_v2(path, &c->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        NULL) != SQLITE_OK) {
        sl_error_set(err, SL_ERR_IO_ERROR, "could not open catalog \"%s\": %s", path,
                     c->db ? sqlite3_errmsg(c->db) : "out of memory");
        cat_close(c);
        return NULL;
    }
    sqlite3_busy_timeout(c->db, 5000);
    char *msg = NULL;
    if (sqlite3_exec(c->db, schema_sql, NULL, NULL, &msg) != SQLITE_OK) {
        sl_error_set(err, SL_ERR_IO_ERROR, "could not initialise catalog \"%s\": %s", path,
                     msg ? msg : "unknown error");
        sqlite3_free(msg);
        cat_close(c);
        return NULL;
    }
    SL_INFO("catalog", "opened path=%s", path);
    return c;
}

void cat_close(cat_t *c)
{
    if (!c) return;
    if (c->db) sqlite3_close(c->db);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

const char *cat_kind_name(cat_kind_t kind)
{
    switch (kind) {
    case CAT_STREAM: return "stream";
    case CAT_TABLE: return "table";
    case CAT_QUERY: return "query";
    }
    return "object";
}

/* Runs a statement with text bindings; returns the sqlite3_step result. */
static int exec_bound(cat_t *c, const char *sql, int n, const char *const *vals)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK) return SQLITE_ERROR;
    for (int i = 0; i < n; i++) sqlite3_bind_text(st, i + 1, vals[i], -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc;
}

static void fill_entry(sqlite3_stmt *st, sl_arena_t *a, cat_entry_t *out)
{
    out->name = sl_strdup(a, (const char *)sqlite3_column_text(st, 0));
    out->kind = (cat_kind_t)sqlite3_column_int(st, 1);
    out->sql = sl_strdup(a, (const char *)sqlite3_column_text(st, 2));
    out->state = sl_strdup(a, (const char *)sqlite3_column_text(st, 3));
    out->created_at = sqlite3_column_int64(st, 4);
    out->version = sqlite3_column_int64(st, 5);
    out->id = sqlite3_column_int64(st, 6);
}

#define ENTRY_COLS "name, kind, sql, state, created_at, version, rowid"

static int lookup_locked(cat_t *c, const char *name, sl_arena_t *a, cat_entry_t *out)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db, "SELECT " ENTRY_COLS " FROM objects WHERE name = ?", -1, &st,
                           NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int found = sqlite3_step(st) == SQLITE_ROW;
    if (found && out) fill_entry(st, a, out);
    sqlite3_finalize(st);
    return found;
}

int cat_lookup(cat_t *c, const char *name, sl_arena_t *a, cat_entry_t *out)
{
    pthread_mutex_lock(&c->lock);
    int found = lookup_locked(c, name, a, out);
    pthread_mutex_unlock(&c->lock);
    return found;
}

static int create_locked(cat_t *c, cat_kind_t kind, const char *name, const char *sql,
                         const char *state, const char *const *deps, int ndeps, sl_error_t *err)
{
    sl_arena_t *a = sl_arena_new("catalog");
    cat_entry_t old;
    int rc = 0;
    if (lookup_locked(c, name, a, &old)) {
        rc = sl_error_set(err, SL_ERR_DUPLICATE_TABLE, "%s \"%s\" already exists",
                          old.kind == kind ? cat_kind_name(kind) : "relation", name);
        if (old.kind != kind)
            sl_error_detail(err, "A %s of that name exists.", cat_kind_name(old.kind));
        goto out;
    }
    for (int i = 0; i < ndeps; i++)
        if (!lookup_locked(c, deps[i], a, NULL)) {
            rc = sl_error_set(err, SL_ERR_UNDEFINED_TABLE, "relation \"%s\" does not exist",
                              deps[i]);
            goto out;
        }
    sqlite3_exec(c->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db,
                           "INSERT INTO objects (name, kind, sql, state, created_at) "
                           "VALUES (?, ?, ?, ?, ?)",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = db_error(c, err, "insert");
        goto rollback;
    }
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, (int)kind);
    sqlite3_bind_text(st, 3, sql, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, state ? state : "", -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 5, now_us());
    int step = sqlite3_step(st);
    sqlite3_finalize(st);
    if (step != SQLITE_DONE) {
        rc = db_error(c, err, "insert");
        goto rollback;
    }
    for (int i = 0; i < ndeps; i++) {
        const char *vals[2] = {name, deps[i]};
        int r = exec_bound(c, "INSERT OR IGNORE INTO depends VALUES (?, ?)", 2, vals);
        if (r != SQLITE_DONE) {
            rc = db_error(c, err, "insert dependency");
            goto rollback;
        }
    }
    if (sqlite3_exec(c->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        rc = db_error(c, err, "commit");
        goto rollback;
    }
    goto out;
rollback:
    sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
out:
    sl_arena_free(a);
    return rc;
}

int cat_create(cat_t *c, cat_kind_t kind, const char *name, const char *sql, const char *state,
               const char *const *deps, int ndeps, sl_error_t *err)
{
    pthread_mutex_lock(&c->lock);
    int rc = create_locked(c, kind, name, sql, state, deps, ndeps, err);
    pthread_mutex_unlock(&c->lock);
    return rc;
}

static int dependents_locked(cat_t *c, const char *name, sl_arena_t *a, const char ***out)
{
    sqlite3_stmt *st;
    int n = 0, cap = 8;
    const char **names = sl_alloc(a, sizeof *names * (size_t)cap);
    if (sqlite3_prepare_v2(c->db, "SELECT name FROM depends WHERE on_name = ? ORDER BY name", -1,
                           &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        while (sqlite3_step(st) == SQLITE_ROW) {
            if (n == cap) {
                names = sl_arena_realloc(a, names, sizeof *names * (size_t)cap,
                                         sizeof *names * (size_t)cap * 2);
                cap *= 2;
            }
            names[n++] = sl_strdup(a, (const char *)sqlite3_column_text(st, 0));
        }
        sqlite3_finalize(st);
    }
    *out = names;
    return n;
}

static int drop_locked(cat_t *c, cat_kind_t kind, const char *name, sl_error_t *err)
{
    sl_arena_t *a = sl_arena_new("catalog");
    cat_entry_t e;
    int rc = 0;
    if (!lookup_locked(c, name, a, &e)) {
        rc = sl_error_set(err, SL_ERR_UNDEFINED_TABLE, "%s \"%s\" does not exist",
                          cat_kind_name(kind), name);
    } else if (e.kind != kind) {
        rc = sl_error_set(err, SL_ERR_WRONG_OBJECT_TYPE, "\"%s\" is not a %s", name,
                          cat_kind_name(kind));
        sl_error_hint(err, "Use DROP %s to remove a %s.",
                      e.kind == CAT_STREAM  ? "STREAM"
                      : e.kind == CAT_TABLE ? "TABLE"
                                            : "QUERY",
                      cat_kind_name(e.kind));
    } else {
        const char **deps;
        int n = dependents_locked(c, name, a, &deps);
        if (n > 0) {
            sl_buf_t list = SL_BUF_INIT;
            for (int i = 0; i < n; i++) sl_buf_printf(&list, "%s%s", i ? ", " : "", deps[i]);
            rc = sl_error_set(err, SL_ERR_DEPENDENT_OBJECTS_STILL_EXIST,
                              "cannot drop %s %s because other objects depend on it",
                              cat_kind_name(kind), name);
            sl_error_detail(err, "%s depend%s on %s %s.", list.data, n == 1 ? "s" : "",
                            cat_kind_name(kind), name);
            sl_error_hint(err, "Drop the dependent objects first.");
            sl_buf_free(&list);
        } else if (exec_bound(c, "DELETE FROM objects WHERE name = ?", 1, &name) != SQLITE_DONE) {
            rc = db_error(c, err, "delete");
        }
    }
    sl_arena_free(a);
    return rc;
}

int cat_drop(cat_t *c, cat_kind_t kind, const char *name, sl_error_t *err)
{
    pthread_mutex_lock(&c->lock);
    int rc = drop_locked(c, kind, name, err);
    pthread_mutex_unlock(&c->lock);
    return rc;
}

int cat_list(cat_t *c, cat_kind_t kind, sl_arena_t *a, cat_entry_t **out)
{
    pthread_mutex_lock(&c->lock);
    sqlite3_stmt *st;
    int n = 0, cap = 16;
    cat_entry_t *v = sl_alloc(a, sizeof *v * (size_t)cap);
    if (sqlite3_prepare_v2(c->db,
                           "SELECT " ENTRY_COLS " FROM objects WHERE ?1 = 0 OR kind = ?1 "
                           "ORDER BY name",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int(st, 1, (int)kind);
        while (sqlite3_step(st) == SQLITE_ROW) {
            if (n == cap) {
                v = sl_arena_realloc(a, v, sizeof *v * (size_t)cap, sizeof *v * (size_t)cap * 2);
                cap *= 2;
            }
            fill_entry(st, a, &v[n++]);
        }
        sqlite3_finalize(st);
    }
    pthread_mutex_unlock(&c->lock);
    *out = v;
    return n;
}

static int update_one(cat_t *c, const char *sql, int n, const char *const *vals, sl_error_t *err)
{
    pthread_mutex_lock(&c->lock);
    int rc = exec_bound(c, sql, n, vals);
    int changed = sqlite3_changes(c->db);
    pthread_mutex_unlock(&c->lock);
    if (rc != SQLITE_DONE) return db_error(c, err, "update");
    if (changed == 0)
        return sl_error_set(err, SL_ERR_UNDEFINED_TABLE, "relation \"%s\" does not exist",
                            vals[n - 1]);
    return 0;
}

int cat_set_state(cat_t *c, const char *name, const char *state, sl_error_t *err)
{
    const char *vals[2] = {state, name};
    return update_one(c, "UPDATE objects SET state = ? WHERE name = ?", 2, vals, err);
}

int cat_set_sql(cat_t *c, const char *name, const char *sql, sl_error_t *err)
{
    const char *vals[2] = {sql, name};
    return update_one(c, "UPDATE objects SET sql = ? WHERE name = ?", 2, vals, err);
}

int cat_dependents(cat_t *c, const char *name, sl_arena_t *a, const char ***out)
{
    pthread_mutex_lock(&c->lock);
    int n = dependents_locked(c, name, a, out);
    pthread_mutex_unlock(&c->lock);
    return n;
}

int cat_touch(cat_t *c, const char *name, sl_error_t *err)
{
    const char *vals[1] = {name};
    return update_one(c, "UPDATE objects SET version = version + 1 WHERE name = ?", 1, vals, err);
}
