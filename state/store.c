/* The generic state store: provider lookup, the load/commit protocol checks,
 * the per-batch metrics every provider shares (updates, removals, timings),
 * prefix scans as ranges, and the schema records of stateful operators. */
#include "state/store.h"

#include <assert.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/private_file.h"
#include "common/clock.h"
#include "common/failpoint.h"
#include "state/state_int.h"
#include "state/store_int.h"

struct store {
    const store_ops_t *ops;
    void *impl;
    char *dir;
    int64_t version; /* loaded/committed version, -1 before the first load */
    int open_iters;  /* iterators not yet closed */
    int64_t updated; /* puts since load */
    int64_t removed; /* keys removed since load */
    /* Timings: reading the clock costs as much as a memory put on some VMs,
     * so one call in STORE_TIME_EVERY is timed and the total extrapolated
     * from the sampled calls (range deletes are always timed). */
    int64_t put_ns, put_timed; /* sampled put time and count */
    int64_t del_calls;         /* store_delete calls since load */
    int64_t del_ns, del_timed; /* sampled delete time and count */
    int64_t range_ns;          /* time in range deletes */
    int64_t commit_ns;         /* the commit after the last load */
};

struct store_iter {
    store_t *s;
    void *impl;
};

#define STORE_TIME_EVERY 8

static const store_ops_t *const providers[] = {&store_memory_ops, &store_rocksdb_ops};

const store_ops_t *store_provider(const char *name)
{
    for (size_t i = 0; i < sizeof providers / sizeof *providers; i++)
        if (!strcmp(providers[i]->name, name)) return providers[i];
    return NULL;
}

/* ---- opening ---- */

char *store_dir_path(const char *state_root, int op, int part, const char *name)
{
    size_t n = strlen(state_root) + (name ? strlen(name) : 0) + 32;
    char *p = sl_xmalloc(n);
    if (name) snprintf(p, n, "%s/%d/%d/%s", state_root, op, part, name);
    else snprintf(p, n, "%s/%d/%d", state_root, op, part);
    return p;
}

store_t *store_open_dir(const char *dir, const store_options_t *opt, sl_error_t *err)
{
    store_options_t o = opt ? *opt : (store_options_t){0};
    const char *pname = o.provider ? o.provider : "memory";
    const store_ops_t *ops = store_provider(pname);
    if (!ops) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "unknown state store provider \"%s\"",
                     pname);
        sl_error_hint(err, "Use \"memory\" or \"rocksdb\".");
        return NULL;
    }
    if (o.min_versions_to_retain <= 0) o.min_versions_to_retain = STORE_DEFAULT_VERSIONS_TO_RETAIN;
    if (o.min_deltas_for_snapshot <= 0)
        o.min_deltas_for_snapshot = STORE_DEFAULT_DELTAS_FOR_SNAPSHOT;
    if (o.rocksdb_block_cache_mb <= 0) o.rocksdb_block_cache_mb = STORE_DEFAULT_ROCKSDB_CACHE_MB;
    if (sl_fs_mkdirs(dir, SL_PRIVATE_DIR_MODE, err) < 0) return NULL;
    void *impl = ops->open(dir, &o, err);
    if (!impl) return NULL;
    store_t *s = sl_xcalloc(1, sizeof *s);
    s->ops = ops;
    s->impl = impl;
    s->dir = sl_xstrdup(dir);
    s->version = -1;
    return s;
}

store_t *store_open(const char *state_root, int op, int part, const char *name,
                    const store_options_t *opt, sl_error_t *err)
{
    char *dir = store_dir_path(state_root, op, part, name);
    store_t *s = store_open_dir(dir, opt, err);
    free(dir);
    return s;
}

void store_close(store_t *s)
{
    if (!s) return;
    assert(s->open_iters == 0 && "iterators are closed before their store");
    s->ops->close(s->impl);
    free(s->dir);
    free(s);
}

const char *store_dir(const store_t *s)
{
    return s->dir;
}

const char *store_provider_name(const store_t *s)
{
    return s->ops->name;
}

int64_t store_version(const store_t *s)
{
    return s->version;
}

/* ---- protocol ---- */

static int not_loaded(store_t *s, sl_error_t *err)
{
    sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE, "state store is not loaded");
    return sl_error_detail(err, "Call store_load() on \"%s\" before using it.", s->dir);
}

int store_load(store_t *s, int64_t version, sl_error_t *err)
{
    if (version < 0)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "state version %" PRId64 " is negative", version);
    if (s->open_iters)
        return sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                            "state store loaded with open iterators");
    int hit = 0;
    s->version = -1;
    if (s->ops->load(s->impl, version, &hit, err) < 0) return -1;
    s->version = version;
    s->updated = s->removed = s->commit_ns = 0;
    s->put_ns = s->put_timed = s->del_calls = s->del_ns = s->del_timed = s->range_ns = 0;
    return 0;
}

int store_get(store_t *s, const void *key, size_t klen, const void **val, size_t *vlen,
              sl_error_t *err)
{
    if (s->version < 0) return not_loaded(s, err);
    if (!key) key = "";
    return s->ops->get(s->impl, key, klen, val, vlen, err);
}

int store_put(store_t *s, const void *key, size_t klen, const void *val, size_t vlen,
              sl_error_t *err)
{
    if (s->version < 0) return not_loaded(s, err);
    if (!key) key = "";
    if (!val) val = "";
    if (s->updated % STORE_TIME_EVERY) {
        int rc = s->ops->put(s->impl, key, klen, val, vlen, err);
        s->updated += rc == 0;
        return rc;
    }
    int64_t t0 = sl_mono_ns();
    int rc = s->ops->put(s->impl, key, klen, val, vlen, err);
    s->put_ns += sl_mono_ns() - t0;
    s->put_timed++;
    s->updated += rc == 0;
    return rc;
}

int store_delete(store_t *s, const void *key, size_t klen, sl_error_t *err)
{
    if (s->version < 0) return not_loaded(s, err);
    if (!key) key = "";
    int timed = s->del_calls++ % STORE_TIME_EVERY == 0;
    int64_t t0 = timed ? sl_mono_ns() : 0;
    int rc = s->ops->del(s->impl, key, klen, err);
    if (timed) {
        s->del_ns += sl_mono_ns() - t0;
        s->del_timed++;
    }
    if (rc > 0) s->removed++;
    return rc;
}

/* Iterate-and-delete for providers without a native range delete. */
static int64_t delete_range_by_scan(store_t *s, const void *lo, size_t lolen, const void *hi,
                                    size_t hilen, sl_error_t *err)
{
    void *it = s->ops->iter_open(s->impl, lo, lolen, hi, hilen, err);
    if (!it) return -1;
    int64_t n = 0;
    const void *k, *v;
    size_t kl, vl;
    int rc;
    while ((rc = s->ops->iter_next(it, &k, &kl, &v, &vl, err)) > 0) {
        rc = s->ops->del(s->impl, k, kl, err);
        if (rc < 0) break;
        n += rc;
    }
    s->ops->iter_close(it);
    return rc < 0 ? -1 : n;
}

int64_t store_delete_range(store_t *s, const void *lo, size_t lolen, const void *hi, size_t hilen,
                           sl_error_t *err)
{
    if (s->version < 0) return not_loaded(s, err);
    int64_t t0 = sl_mono_ns();
    int64_t n = s->ops->delete_range ? s->ops->delete_range(s->impl, lo, lolen, hi, hilen, err)
                                     : delete_range_by_scan(s, lo, lolen, hi, hilen, err);
    s->range_ns += sl_mono_ns() - t0;
    if (n > 0) s->removed += n;
    return n;
}

int store_commit(store_t *s, sl_error_t *err)
{
    if (s->version < 0) return not_loaded(s, err);
    if (s->open_iters)
        return sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                            "state store committed with open iterators");
    failpoint_hit("state.before_commit");
    int64_t t0 = sl_mono_ns();
    int rc = s->ops->commit(s->impl, s->version + 1, err);
    s->commit_ns = sl_mono_ns() - t0;
    if (rc < 0) {
        s->version = -1; /* the working state is no version any more: load again */
        return -1;
    }
    s->version++;
    failpoint_hit("state.after_commit");
    return 0;
}

void store_abort(store_t *s)
{
    assert(s->open_iters == 0 && "iterators are closed before an abort");
    s->ops->abort(s->impl);
    s->version = -1;
}

int store_maintenance(store_t *s, sl_error_t *err)
{
    return s->ops->maintenance(s->impl, err);
}

/* ---- metrics ---- */

static int cmp_metric(const void *a, const void *b)
{
    return strcmp(((const store_metric_t *)a)->name, ((const store_metric_t *)b)->name);
}

void store_metrics(store_t *s, store_metrics_t *m)
{
    memset(m, 0, sizeof *m);
    s->ops->metrics(s->impl, m);
    m->num_rows_updated = s->updated;
    m->num_rows_removed = s->removed;
    int64_t upd_ns = s->put_timed ? s->put_ns * s->updated / s->put_timed : 0;
    int64_t del_ns = s->del_timed ? s->del_ns * s->del_calls / s->del_timed : 0;
    m->all_updates_time_ms = upd_ns / 1000000;
    m->all_removals_time_ms = (del_ns + s->range_ns) / 1000000;
    m->commit_time_ms = s->commit_ns / 1000000;
    qsort(m->custom, (size_t)m->ncustom, sizeof *m->custom, cmp_metric);
}

int64_t store_metric_get(const store_metrics_t *m, const char *name)
{
    for (int i = 0; i < m->ncustom; i++)
        if (!strcmp(m->custom[i].name, name)) return m->custom[i].value;
    return -1;
}

void store_metric_add(store_metrics_t *m, const char *name, int64_t value)
{
    if (m->ncustom < STORE_MAX_CUSTOM_METRICS)
        m->custom[m->ncustom++] = (store_metric_t){name, value};
}

/* ---- iterators ---- */

store_iter_t *store_iter_range(store_t *s, const void *lo, size_t lolen, const void *hi,
                               size_t hilen, sl_error_t *err)
{
    if (s->version < 0) {
        not_loaded(s, err);
        return NULL;
    }
    void *impl = s->ops->iter_open(s->impl, lo, lolen, hi, hilen, err);
    if (!impl) return NULL;
    store_iter_t *it = sl_xmalloc(sizeof *it);
    it->s = s;
    it->impl = impl;
    s->open_iters++;
    return it;
}

store_iter_t *store_iter_prefix(store_t *s, const void *prefix, size_t plen, sl_error_t *err)
{
    /* [prefix, successor): the successor drops trailing 0xff bytes and
     * increments the last byte; none (unbounded) when all bytes are 0xff. */
    unsigned char stack[256];
    unsigned char *hi = plen <= sizeof stack ? stack : sl_xmalloc(plen);
    size_t hilen = plen;
    if (plen) memcpy(hi, prefix, plen);
    while (hilen > 0 && hi[hilen - 1] == 0xff) hilen--;
    if (hilen > 0) hi[hilen - 1]++;
    store_iter_t *it = store_iter_range(s, prefix, plen, hilen ? hi : NULL, hilen, err);
    if (hi != stack) free(hi);
    return it;
}

int store_iter_next(store_iter_t *it, const void **key, size_t *klen, const void **val,
                    size_t *vlen, sl_error_t *err)
{
    return it->s->ops->iter_next(it->impl, key, klen, val, vlen, err);
}

void store_iter_close(store_iter_t *it)
{
    if (!it) return;
    it->s->ops->iter_close(it->impl);
    it->s->open_iters--;
    free(it);
}

/* ---- schema records ---- */

static char *schema_dir(const char *state_root, int op)
{
    size_t n = strlen(state_root) + 32;
    char *p = sl_xmalloc(n);
    snprintf(p, n, "%s/%d/_metadata", state_root, op);
    return p;
}

static void schema_file_name(const char *name, char *out, size_t n)
{
    if (name) snprintf(out, n, "schema.%s", name);
    else snprintf(out, n, "schema");
}

int store_schema_write(const char *state_root, int op, const char *name, const char *key_schema,
                       const char *value_schema, sl_error_t *err)
{
    char *dir = schema_dir(state_root, op);
    char file[300];
    schema_file_name(name, file, sizeof file);
    sl_buf_t b = SL_BUF_INIT;
    sl_buf_puts(&b, "v1\n{\"keySchema\":");
    state_json_quote(&b, key_schema);
    sl_buf_puts(&b, ",\"valueSchema\":");
    state_json_quote(&b, value_schema);
    sl_buf_putc(&b, '}');
    int rc = sl_fs_mkdirs(dir, SL_PRIVATE_DIR_MODE, err);
    if (rc == 0) rc = sl_fs_write_file(dir, file, b.data, b.len, SL_FW_NOREPLACE, NULL, NULL, err);
    sl_buf_free(&b);
    free(dir);
    return rc;
}

static int schema_parse(const char *text, size_t len, const char *path, sl_arena_t *a, char **key,
                        char **value, sl_error_t *err)
{
    const char *nl = memchr(text, '\n', len);
    json_t *root = nl && len >= 3 && !memcmp(text, "v1\n", 3)
                       ? json_loadb(nl + 1, len - (size_t)(nl + 1 - text), 0, NULL)
                       : NULL;
    json_t *k = json_object_get(root, "keySchema"), *v = json_object_get(root, "valueSchema");
    int ok = json_is_string(k) && json_is_string(v);
    if (ok) {
        *key = sl_strdup(a, json_string_value(k));
        *value = sl_strdup(a, json_string_value(v));
    }
    json_decref(root);
    if (ok) return 1;
    sl_error_set(err, SL_ERR_IO_ERROR, "state schema file \"%s\" is malformed", path);
    return sl_error_detail(err, "It must hold \"v1\" and a JSON object with keySchema and "
                                "valueSchema.");
}

int store_schema_read(const char *state_root, int op, const char *name, sl_arena_t *a,
                      char **key_schema, char **value_schema, sl_error_t *err)
{
    char *dir = schema_dir(state_root, op);
    char file[300];
    schema_file_name(name, file, sizeof file);
    char *path = sl_fs_path(dir, file);
    sl_buf_t b = SL_BUF_INIT;
    int rc = sl_fs_read_file(path, &b, err);
    if (rc > 0) rc = schema_parse(b.data, b.len, path, a, key_schema, value_schema, err);
    sl_buf_free(&b);
    free(path);
    free(dir);
    return rc;
}

/* Reports which of the key and value schemas changed, old and new text. */
static int schema_mismatch(int op, const char *name, const char *old_key, const char *new_key,
                           const char *old_value, const char *new_value, sl_error_t *err)
{
    int key = strcmp(old_key, new_key) != 0, value = strcmp(old_value, new_value) != 0;
    const char *what = key && value ? "key and value schemas" : key ? "key schema" : "value schema";
    char store[300] = "";
    if (name) snprintf(store, sizeof store, " store %s", name);
    if (key && value)
        sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                     "query does not fit its checkpoint: the %s of stateful operator %d%s changed: "
                     "checkpoint key (%s) value (%s), query now key (%s) value (%s)",
                     what, op, store, old_key, old_value, new_key, new_value);
    else
        sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                     "query does not fit its checkpoint: the %s of stateful operator %d%s changed: "
                     "checkpoint (%s), query now (%s)",
                     what, op, store, key ? old_key : old_value, key ? new_key : new_value);
    if (key && value)
        sl_error_detail(err,
                        "The checkpoint has key schema \"%s\" and value schema \"%s\"; the "
                        "query now has key schema \"%s\" and value schema \"%s\".",
                        old_key, old_value, new_key, new_value);
    else
        sl_error_detail(err, "The checkpoint has %s \"%s\"; the query now has \"%s\".", what,
                        key ? old_key : old_value, key ? new_key : new_value);
    return sl_error_hint(err, "Restore the query text that created the checkpoint, or start the "
                              "query with a new checkpoint location.");
}

int store_schema_compare(const char *state_root, int op, const char *name, const char *key_schema,
                         const char *value_schema, sl_error_t *err)
{
    sl_arena_t *a = sl_arena_new("schema");
    char *old_key, *old_value;
    int rc = store_schema_read(state_root, op, name, a, &old_key, &old_value, err);
    if (rc > 0) {
        rc = 0;
        if (strcmp(old_key, key_schema) || strcmp(old_value, value_schema))
            rc = schema_mismatch(op, name, old_key, key_schema, old_value, value_schema, err);
    }
    sl_arena_free(a);
    return rc;
}

int store_schema_check(const char *state_root, int op, const char *name, const char *key_schema,
                       const char *value_schema, sl_error_t *err)
{
    sl_arena_t *a = sl_arena_new("schema");
    char *old_key, *old_value;
    int rc = store_schema_read(state_root, op, name, a, &old_key, &old_value, err);
    if (rc == 0) {
        rc = store_schema_write(state_root, op, name, key_schema, value_schema, err);
        if (rc == 0) {
            sl_arena_free(a);
            return 1;
        }
        /* Another partition's task wrote it first: compare with its record. */
        if (!strcmp(err->sqlstate, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE))
            rc = store_schema_read(state_root, op, name, a, &old_key, &old_value, err);
    }
    if (rc > 0) {
        rc = 0;
        if (strcmp(old_key, key_schema) || strcmp(old_value, value_schema))
            rc = schema_mismatch(op, name, old_key, key_schema, old_value, value_schema, err);
    }
    sl_arena_free(a);
    return rc;
}
