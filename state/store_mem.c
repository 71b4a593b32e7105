/* The "memory" state store provider: Spark's HDFS-backed state store.
 *
 * The current version lives in an ordered map (store_map.c). Changes since
 * the last load are also appended to a delta buffer; commit writes it as
 * <v>.delta. maintenance() writes <v>.snapshot (every live entry) once
 * min_deltas_for_snapshot deltas follow the newest snapshot, and deletes
 * files no retained version needs. load(v) is free when v is the version in
 * memory; otherwise it rebuilds the map from the newest snapshot <= v and
 * the deltas after it. abort() drops the map rather than undoing changes, so
 * the hot path never copies old values; the next load rebuilds.
 *
 * File format (big-endian, as Spark's DataOutputStream): records
 *   int32 keyLen, key, int32 valueLen (-1 = removed, deltas only), value
 * then int32 -1, then the CRC-32C of every preceding byte (uint32). A file
 * with a bad checksum, a record running past the end or bytes after the
 * end marker is reported as corrupt. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/buf.h"
#include "state/state_int.h"
#include "state/store_int.h"
#include "state/store_map.h"

typedef struct mem_store {
    char *dir;
    store_options_t opt;
    smap_t *map;
    int64_t version;  /* version the map holds; -1 = nothing valid in memory */
    sl_buf_t delta;   /* records of the uncommitted changes */
    int64_t max_disk; /* newest version with a file on disk */
    int64_t hits;     /* loads served from memory (since open) */
    int64_t misses;   /* loads that read files */
    sl_buf_t scratch; /* file being read */
} mem_store_t;

typedef struct mem_iter {
    mem_store_t *st;
    smap_node_t *next; /* next entry to return, valid while mods is current */
    uint64_t mods;     /* map modcount when `next` was computed */
    sl_buf_t pos;      /* resume key: lo before the first entry, then the last key returned */
    int after;         /* resume strictly after `pos` (an entry was returned) */
    int has_pos;       /* `pos` is set (lo was given or an entry returned) */
    char *hi;          /* exclusive upper bound, NULL = none */
    size_t hilen;
} mem_iter_t;

static int file_name(char *out, size_t n, int64_t version, const char *suffix)
{
    return snprintf(out, n, "%" PRId64 "%s", version, suffix);
}

/* ---- files ---- */

static void put_record(sl_buf_t *b, const void *k, size_t kl, const void *v, int64_t vl)
{
    sl_buf_put_u32be(b, (uint32_t)kl);
    sl_buf_append(b, k, kl);
    sl_buf_put_u32be(b, (uint32_t)(int32_t)vl);
    if (vl > 0) sl_buf_append(b, v, (size_t)vl);
}

static void put_trailer(sl_buf_t *b, uint32_t crc_before)
{
    sl_buf_put_u32be(b, UINT32_MAX); /* end marker: int32 -1 */
    uint32_t crc = state_crc32c(crc_before, b->data, b->len);
    sl_buf_put_u32be(b, crc);
}

static int corrupt(const char *path, sl_error_t *err, const char *why, size_t at)
{
    sl_error_set(err, SL_ERR_IO_ERROR, "state file \"%s\" is corrupt", path);
    return sl_error_detail(err, "%s at byte %zu.", why, at);
}

/* Applies the records of one file to the map. */
static int apply_records(mem_store_t *st, const char *p, size_t len, int snapshot, const char *path,
                         sl_error_t *err)
{
    size_t pos = 0, end = len - 4;
    for (;;) {
        if (pos + 4 > end) return corrupt(path, err, "missing end marker", pos);
        int32_t kl = (int32_t)sl_get_u32be(p + pos);
        if (kl == -1) break;
        if (kl < 0 || (size_t)kl + 8 > end - pos) return corrupt(path, err, "bad key length", pos);
        const char *key = p + pos + 4;
        pos += 4 + (size_t)kl;
        int32_t vl = (int32_t)sl_get_u32be(p + pos);
        if (vl < -1 || (snapshot && vl < 0) || (vl > 0 && (size_t)vl > end - pos - 4))
            return corrupt(path, err, "bad value length", pos);
        pos += 4;
        if (vl < 0) smap_delete(st->map, key, (size_t)kl);
        else if (snapshot) /* sorted: appended in O(1) while the map only grows */
            smap_append(st->map, key, (size_t)kl, p + pos, (size_t)vl);
        else smap_put(st->map, key, (size_t)kl, p + pos, (size_t)vl);
        pos += vl > 0 ? (size_t)vl : 0;
    }
    if (pos + 4 != end) return corrupt(path, err, "data after the end marker", pos + 4);
    return 0;
}

static int apply_file(mem_store_t *st, int64_t version, const char *suffix, sl_error_t *err)
{
    char name[40];
    file_name(name, sizeof name, version, suffix);
    char *path = sl_fs_path(st->dir, name);
    int rc = sl_fs_read_file(path, &st->scratch, err);
    if (rc == 0) {
        sl_error_set(err, SL_ERR_IO_ERROR, "state file \"%s\" is missing", path);
        sl_error_detail(err, "Loading version %" PRId64 " of the state store needs it.", version);
        rc = -1;
    }
    const char *p = st->scratch.data;
    size_t len = st->scratch.len;
    if (rc > 0 && len < 8) rc = corrupt(path, err, "file too short", len);
    if (rc > 0 && state_crc32c(0, p, len - 4) != sl_get_u32be(p + len - 4))
        rc = corrupt(path, err, "checksum mismatch", len - 4);
    if (rc > 0) rc = apply_records(st, p, len, !strcmp(suffix, ".snapshot"), path, err);
    free(path);
    return rc < 0 ? -1 : 0;
}

/* Newest id <= limit in a sorted list, or 0. */
static int64_t newest_at_most(const int64_t *ids, int n, int64_t limit)
{
    int64_t best = 0;
    for (int i = 0; i < n && ids[i] <= limit; i++) best = ids[i];
    return best;
}

static int rebuild(mem_store_t *st, int64_t version, sl_error_t *err)
{
    smap_clear(st->map);
    st->version = -1;
    int64_t *snaps;
    int n = version > 0 ? sl_fs_list_ids(st->dir, ".snapshot", &snaps, err) : 0;
    if (n < 0) return -1;
    int64_t from = version > 0 ? newest_at_most(snaps, n, version) : 0;
    if (version > 0) free(snaps);
    if (from > 0 && apply_file(st, from, ".snapshot", err) < 0) return -1;
    for (int64_t v = from + 1; v <= version; v++)
        if (apply_file(st, v, ".delta", err) < 0) return -1;
    st->version = version;
    return 0;
}

/* Deletes the files with `suffix` of versions < from (when `below`) or
 * >= from (otherwise). */
static int remove_versions(mem_store_t *st, const char *suffix, int64_t from, int below,
                           sl_error_t *err)
{
    int64_t *ids;
    int n = sl_fs_list_ids(st->dir, suffix, &ids, err);
    int rc = n < 0 ? -1 : 0;
    for (int i = 0; i < n && rc == 0; i++) {
        if (below ? ids[i] >= from : ids[i] < from) continue;
        char name[40];
        file_name(name, sizeof name, ids[i], suffix);
        char *path = sl_fs_path(st->dir, name);
        rc = sl_fs_rmtree(path, err);
        free(path);
    }
    free(ids);
    return rc;
}

/* ---- vtable ---- */

/* Refuses a directory the rocksdb provider wrote. */
static int check_not_rocksdb_store(const char *dir, sl_error_t *err)
{
    int64_t *ids;
    int n = sl_fs_list_ids(dir, ".ckpt", &ids, err);
    free(ids);
    if (n <= 0) return n;
    sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                 "state store \"%s\" was written by the \"rocksdb\" provider", dir);
    return sl_error_hint(err, "Open it with the provider the checkpoint was created with.");
}

static void *mem_open(const char *dir, const store_options_t *opt, sl_error_t *err)
{
    if (sl_fs_remove_temps(dir, err) < 0 || check_not_rocksdb_store(dir, err) < 0) return NULL;
    int64_t *d, *s;
    int nd = sl_fs_list_ids(dir, ".delta", &d, err);
    int ns = nd < 0 ? -1 : sl_fs_list_ids(dir, ".snapshot", &s, err);
    if (nd < 0 || ns < 0) {
        if (nd >= 0) free(d);
        return NULL;
    }
    mem_store_t *st = sl_xcalloc(1, sizeof *st);
    st->dir = sl_xstrdup(dir);
    st->opt = *opt;
    st->map = smap_new((uint64_t)(uintptr_t)st ^ (uint64_t)sl_mono_ns());
    st->version = -1;
    st->max_disk = nd ? d[nd - 1] : 0;
    if (ns && s[ns - 1] > st->max_disk) st->max_disk = s[ns - 1];
    free(d);
    free(s);
    return st;
}

static int mem_load(void *impl, int64_t version, int *hit, sl_error_t *err)
{
    mem_store_t *st = impl;
    if (st->delta.len) st->version = -1; /* uncommitted changes: memory is not a version */
    sl_buf_clear(&st->delta);
    *hit = st->version == version;
    if (*hit) {
        st->hits++;
        return 0;
    }
    st->misses++;
    return rebuild(st, version, err);
}

static int mem_get(void *impl, const void *key, size_t klen, const void **val, size_t *vlen,
                   sl_error_t *err)
{
    (void)err;
    mem_store_t *st = impl;
    smap_node_t *n = smap_find(st->map, key, klen);
    if (!n) return 0;
    *val = smap_value(n, vlen);
    return 1;
}

static int mem_put(void *impl, const void *key, size_t klen, const void *val, size_t vlen,
                   sl_error_t *err)
{
    mem_store_t *st = impl;
    if (klen > INT32_MAX || vlen > INT32_MAX)
        return sl_error_set(err, SL_ERR_PROGRAM_LIMIT_EXCEEDED, "state entry too large");
    smap_put(st->map, key, klen, val, vlen);
    put_record(&st->delta, key, klen, val, (int64_t)vlen);
    return 0;
}

static int mem_del(void *impl, const void *key, size_t klen, sl_error_t *err)
{
    (void)err;
    mem_store_t *st = impl;
    if (!smap_delete(st->map, key, klen)) return 0;
    put_record(&st->delta, key, klen, NULL, -1);
    return 1;
}

static void record_removal(void *arg, const void *key, size_t klen)
{
    put_record(&((mem_store_t *)arg)->delta, key, klen, NULL, -1);
}

static int64_t mem_delete_range(void *impl, const void *lo, size_t lolen, const void *hi,
                                size_t hilen, sl_error_t *err)
{
    (void)err;
    mem_store_t *st = impl;
    return smap_delete_range(st->map, lo, lolen, hi, hilen, record_removal, st);
}

static int mem_commit(void *impl, int64_t version, sl_error_t *err)
{
    mem_store_t *st = impl;
    int rc = 0;
    if (st->max_disk >= version) { /* a re-run: drop what the earlier run left */
        rc = remove_versions(st, ".snapshot", version, 0, err);
        if (rc == 0) rc = remove_versions(st, ".delta", version + 1, 0, err);
    }
    put_trailer(&st->delta, 0);
    char name[40];
    file_name(name, sizeof name, version, ".delta");
    if (rc == 0)
        rc = sl_fs_write_file(st->dir, name, st->delta.data, st->delta.len, 0, NULL, NULL, err);
    sl_buf_clear(&st->delta);
    st->version = rc == 0 ? version : -1;
    if (rc == 0) st->max_disk = version;
    return rc;
}

static void mem_abort(void *impl)
{
    mem_store_t *st = impl;
    if (st->delta.len) st->version = -1;
    sl_buf_clear(&st->delta);
}

/* Writes <version>.snapshot from the map. */
static int write_snapshot(mem_store_t *st, sl_error_t *err)
{
    char name[40];
    file_name(name, sizeof name, st->version, ".snapshot");
    sl_fw_t w;
    if (sl_fw_open(&w, st->dir, name, err) < 0) return -1;
    sl_buf_t b = SL_BUF_INIT;
    uint32_t crc = 0;
    int rc = 0;
    for (smap_node_t *n = smap_seek(st->map, NULL, 0, 0); n && rc == 0; n = smap_next(n)) {
        size_t kl, vl;
        const void *k = smap_key(n, &kl), *v = smap_value(n, &vl);
        put_record(&b, k, kl, v, (int64_t)vl);
        if (b.len < 65536) continue;
        crc = state_crc32c(crc, b.data, b.len);
        rc = sl_fw_write(&w, b.data, b.len, err);
        sl_buf_clear(&b);
    }
    if (rc == 0) {
        put_trailer(&b, crc);
        rc = sl_fw_write(&w, b.data, b.len, err);
    }
    sl_buf_free(&b);
    if (rc < 0) {
        sl_fw_abort(&w);
        return -1;
    }
    return sl_fw_commit(&w, 0, NULL, NULL, err);
}

static int mem_maintenance(void *impl, sl_error_t *err)
{
    mem_store_t *st = impl;
    if (st->version <= 0 || st->delta.len) return 0;
    int64_t *snaps;
    int n = sl_fs_list_ids(st->dir, ".snapshot", &snaps, err);
    if (n < 0) return -1;
    int64_t last = newest_at_most(snaps, n, st->version);
    int rc = 0;
    if (st->version - last >= st->opt.min_deltas_for_snapshot) {
        rc = write_snapshot(st, err);
        if (rc == 0 && last < st->version) last = st->version;
    }
    /* Keep the newest snapshot at or below the oldest retained version and
     * every file after it. */
    int64_t earliest = st->version - st->opt.min_versions_to_retain;
    int64_t base = earliest > 0 ? newest_at_most(snaps, n, earliest) : 0;
    free(snaps);
    if (rc == 0 && base > 0) rc = remove_versions(st, ".snapshot", base, 1, err);
    if (rc == 0 && base > 0) rc = remove_versions(st, ".delta", base, 1, err);
    return rc;
}

static void mem_metrics(void *impl, store_metrics_t *m)
{
    mem_store_t *st = impl;
    m->num_keys = (int64_t)smap_count(st->map);
    m->memory_used_bytes = (int64_t)(smap_memory(st->map) + st->delta.cap);
    store_metric_add(m, "loadedMapCacheHitCount", st->hits);
    store_metric_add(m, "loadedMapCacheMissCount", st->misses);
    store_metric_add(m, "stateOnCurrentVersionSizeBytes", (int64_t)smap_data_bytes(st->map));
}

static void mem_close(void *impl)
{
    mem_store_t *st = impl;
    smap_free(st->map);
    sl_buf_free(&st->delta);
    sl_buf_free(&st->scratch);
    free(st->dir);
    free(st);
}

/* ---- iterators ---- */

static void *mem_iter_open(void *impl, const void *lo, size_t lolen, const void *hi, size_t hilen,
                           sl_error_t *err)
{
    (void)err;
    mem_store_t *st = impl;
    mem_iter_t *it = sl_xcalloc(1, sizeof *it);
    it->st = st;
    if (lo) {
        sl_buf_append(&it->pos, lo, lolen);
        it->has_pos = 1;
    }
    if (hi) {
        it->hi = sl_xmalloc(hilen + 1);
        if (hilen) memcpy(it->hi, hi, hilen);
        it->hilen = hilen;
    }
    it->next = smap_seek(st->map, lo, lolen, 0);
    it->mods = smap_modcount(st->map);
    return it;
}

static int mem_iter_next(void *iter, const void **key, size_t *klen, const void **val, size_t *vlen,
                         sl_error_t *err)
{
    (void)err;
    mem_iter_t *it = iter;
    smap_t *map = it->st->map;
    if (it->mods != smap_modcount(map)) /* the store changed: re-seek */
        it->next = it->has_pos ? smap_seek(map, it->pos.data, it->pos.len, it->after)
                               : smap_seek(map, NULL, 0, 0);
    smap_node_t *n = it->next;
    size_t kl;
    const void *k = n ? smap_key(n, &kl) : NULL;
    if (!n || (it->hi && smap_keycmp(k, kl, it->hi, it->hilen) >= 0)) {
        it->next = NULL;
        it->mods = smap_modcount(map);
        return 0;
    }
    sl_buf_clear(&it->pos);
    sl_buf_append(&it->pos, k, kl);
    it->has_pos = it->after = 1;
    *key = it->pos.data;
    *klen = kl;
    *val = smap_value(n, vlen);
    it->next = smap_next(n);
    it->mods = smap_modcount(map);
    return 1;
}

static void mem_iter_close(void *iter)
{
    mem_iter_t *it = iter;
    sl_buf_free(&it->pos);
    free(it->hi);
    free(it);
}

const store_ops_t store_memory_ops = {
    .name = "memory",
    .open = mem_open,
    .load = mem_load,
    .get = mem_get,
    .put = mem_put,
    .del = mem_del,
    .delete_range = mem_delete_range,
    .iter_open = mem_iter_open,
    .iter_next = mem_iter_next,
    .iter_close = mem_iter_close,
    .commit = mem_commit,
    .abort = mem_abort,
    .metrics = mem_metrics,
    .maintenance = mem_maintenance,
    .close = mem_close,
};
