/* The "rocksdb" state store provider (librocksdb's C API).
 *
 * Layout of a store directory:
 *   work/        the live RocksDB instance (scratch: rebuilt from a checkpoint)
 *   <v>.ckpt/    version v: a RocksDB checkpoint (SST files hard-linked, the
 *                small MANIFEST/CURRENT/OPTIONS files copied) plus sluice.meta
 *                ("v1\n{"numKeys":N}")
 *
 * A batch's changes stay in memory, in an ordered map of pending entries
 * (store_map.c: value = one tag byte, 'P' put or 'D' deleted, then the
 * value) over the unchanged instance: gets look at the map first, scans merge
 * the map with a RocksDB iterator, abort just clears the map. Because the
 * instance does not change during a batch, its iterators are pooled and
 * reused by later scans (a per-row prefix scan costs a seek, not a new
 * iterator). commit(v) writes the map as one write batch in key order (no
 * WAL), flushes the memtable, takes a RocksDB checkpoint into a temporary
 * directory, adds sluice.meta, and renames it to <v>.ckpt. load(v) is free
 * when the live instance is at v; otherwise it reopens the instance from a
 * copy of <v>.ckpt (hard links again). A re-run of batch v-1 after a crash
 * therefore loads v-1 and its commit replaces <v>.ckpt, removing any newer
 * ones first.
 *
 * The key count (numRowsTotal) is exact: puts and deletes look the key up
 * first, as Spark's RocksDB store does when it tracks the row count; a put
 * right after a get of the same key reuses the get's answer. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <rocksdb/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/buf.h"
#include "common/private_file.h"
#include "common/failpoint.h"
#include "state/state_int.h"
#include "state/store_int.h"
#include "state/store_map.h"

/* Gets and puts are timed one in RDB_TIME_EVERY (reading the clock is not
 * free on VMs); the totals are extrapolated from the sampled calls. */
#define RDB_TIME_EVERY 8
/* Idle instance iterators kept per store. */
#define RDB_POOL 4
#define TAG_PUT 'P'
#define TAG_DEL 'D'

/* RocksDB statistics reported as Spark's custom metrics (deltas since load). */
enum {
    ST_CACHE_HIT,
    ST_CACHE_MISS,
    ST_BYTES_READ,
    ST_BYTES_WRITTEN,
    ST_ITER_BYTES,
    ST_STALL_US,
    ST_COMPACT_READ,
    ST_COMPACT_WRITE,
    ST_FLUSH_WRITE,
    ST_COMPACT_US,
    ST_N
};

static const struct {
    const char *ticker; /* name in RocksDB's statistics dump */
    const char *metric; /* Spark's custom metric */
    int histogram_us;   /* a histogram whose SUM (microseconds) is reported in ms */
} rdb_stats[ST_N] = {
    {"rocksdb.block.cache.hit", "rocksdbReadBlockCacheHitCount", 0},
    {"rocksdb.block.cache.miss", "rocksdbReadBlockCacheMissCount", 0},
    {"rocksdb.bytes.read", "rocksdbTotalBytesRead", 0},
    {"rocksdb.bytes.written", "rocksdbTotalBytesWritten", 0},
    {"rocksdb.db.iter.bytes.read", "rocksdbTotalBytesReadThroughIterator", 0},
    {"rocksdb.stall.micros", "rocksdbWriterStallLatencyMs", 1},
    {"rocksdb.compact.read.bytes", "rocksdbTotalBytesReadByCompaction", 0},
    {"rocksdb.compact.write.bytes", "rocksdbTotalBytesWrittenByCompaction", 0},
    {"rocksdb.flush.write.bytes", "rocksdbTotalBytesWrittenByFlush", 0},
    {"rocksdb.compaction.times.micros", "rocksdbTotalCompactionLatencyMs", 1},
};

typedef struct rdb_store {
    char *dir;  /* the store directory */
    char *work; /* <dir>/work */
    store_options_t opt;
    rocksdb_options_t *dbopt;
    rocksdb_block_based_table_options_t *table;
    rocksdb_cache_t *cache;
    rocksdb_readoptions_t *ropt;
    rocksdb_writeoptions_t *wopt; /* WAL disabled: durability comes from checkpoints */
    rocksdb_flushoptions_t *fopt;
    rocksdb_t *db;                      /* NULL until the first load */
    smap_t *pending;                    /* uncommitted changes, tagged values (see above) */
    sl_buf_t tagged;                    /* scratch for building a tagged value */
    rocksdb_iterator_t *pool[RDB_POOL]; /* idle iterators over the unchanged instance */
    int npool;
    int64_t version;              /* version of the live instance; -1 = unknown */
    int64_t keys;                 /* key count including pending changes */
    int64_t loaded_keys;          /* key count of the loaded version */
    rocksdb_pinnableslice_t *got; /* value of the last instance lookup */
    sl_buf_t last_key;            /* key of the last lookup ... */
    int last_found;               /* ... whether it existed ... */
    uint64_t last_mods;           /* ... as of this `mods` (saves the put's lookup after a get) */
    uint64_t mods;                /* bumped by every change (iterators re-seek) */
    /* metrics since load */
    int64_t gets, puts;        /* calls since load */
    int64_t get_ns, get_timed; /* time of the sampled gets (one in RDB_TIME_EVERY) */
    int64_t put_ns, put_timed;
    int64_t write_ms, flush_ms, checkpoint_ms, sync_ms;
    int64_t files_copied, files_reused, bytes_copied;
    int64_t stats_base[ST_N];
} rdb_store_t;

/* A scan merging pending changes with the instance. Both cursors point at
 * the first candidate after the last key returned; a change to the pending
 * map (mods) re-seeks only the map cursor, as the instance never changes
 * during a batch. */
typedef struct rdb_iter {
    rdb_store_t *st;
    rocksdb_iterator_t *it; /* instance cursor (from the pool) */
    smap_node_t *pn;        /* pending cursor, valid while mods is current */
    uint64_t mods;
    sl_buf_t pos; /* lo, then the last key returned */
    int has_pos, after;
    sl_buf_t val; /* copy of the last value returned */
    char *hi;     /* exclusive upper bound, NULL = none */
    size_t hilen;
} rdb_iter_t;

/* The cause (RocksDB's own message) is part of the primary message, which
 * is what SHOW QUERIES, AWAIT QUERY and the log show of a failed query. */
static int rdb_error(sl_error_t *err, const char *what, const char *dir, char *msg)
{
    sl_error_set(err, SL_ERR_IO_ERROR, "could not %s RocksDB state store \"%s\": %s", what, dir,
                 msg ? msg : "unknown error");
    free(msg);
    return -1;
}

/* Failpoint `name` on the store's directory: when it injects an errno,
 * the error message RocksDB gives for one ("IO error: <strerror>"), else
 * NULL. */
static char *rdb_failpoint(const rdb_store_t *st, const char *name)
{
    int e = failpoint_io(name, st->dir);
    if (!e) return NULL;
    const char *cause = strerror(e);
    char *msg = sl_xmalloc(strlen(cause) + 11);
    memcpy(msg, "IO error: ", 10);
    memcpy(msg + 10, cause, strlen(cause) + 1);
    return msg;
}

/* ---- statistics ---- */

/* Reads the current value of every rdb_stats entry from the dump. */
static void read_stats(rdb_store_t *st, int64_t out[ST_N])
{
    memset(out, 0, sizeof(int64_t) * ST_N);
    char *dump = rocksdb_options_statistics_get_string(st->dbopt);
    if (!dump) return;
    for (char *line = dump; line && *line;) {
        char *nl = strchr(line, '\n');
        char *sp = strchr(line, ' ');
        for (int i = 0; sp && i < ST_N; i++) {
            if ((size_t)(sp - line) != strlen(rdb_stats[i].ticker) ||
                memcmp(line, rdb_stats[i].ticker, (size_t)(sp - line)))
                continue;
            const char *field = strstr(sp, rdb_stats[i].histogram_us ? "SUM : " : "COUNT : ");
            if (field && (!nl || field < nl))
                out[i] = strtoll(field + (rdb_stats[i].histogram_us ? 6 : 8), NULL, 10);
        }
        line = nl ? nl + 1 : NULL;
    }
    rocksdb_free(dump);
}

static int64_t prop_int(rdb_store_t *st, const char *name)
{
    uint64_t v = 0;
    if (!st->db || rocksdb_property_int(st->db, name, &v) != 0) return 0;
    return (int64_t)v;
}

/* ---- instance lifecycle ---- */

/* Refuses a directory the memory provider wrote (the checkpoint pins the
 * provider; a mismatch means a wrong setting or a wrong directory). */
static int check_not_memory_store(const char *dir, sl_error_t *err)
{
    int64_t *ids;
    int n = sl_fs_list_ids(dir, ".delta", &ids, err);
    free(ids);
    if (n <= 0) return n;
    sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                 "state store \"%s\" was written by the \"memory\" provider", dir);
    return sl_error_hint(err, "Open it with the provider the checkpoint was created with.");
}

static void *rdb_open(const char *dir, const store_options_t *opt, sl_error_t *err)
{
    if (sl_fs_remove_temps(dir, err) < 0 || check_not_memory_store(dir, err) < 0) return NULL;
    rdb_store_t *st = sl_xcalloc(1, sizeof *st);
    st->dir = sl_xstrdup(dir);
    st->work = sl_fs_path(dir, "work");
    st->opt = *opt;
    st->version = -1;
    st->dbopt = rocksdb_options_create();
    rocksdb_options_set_create_if_missing(st->dbopt, 1);
    rocksdb_options_enable_statistics(st->dbopt);
    rocksdb_options_set_info_log_level(st->dbopt, 2 /* WARN */);
    rocksdb_options_set_keep_log_file_num(st->dbopt, 2);
    rocksdb_options_set_max_log_file_size(st->dbopt, 1 << 20);
    st->cache = rocksdb_cache_create_lru((size_t)opt->rocksdb_block_cache_mb << 20);
    st->table = rocksdb_block_based_options_create();
    rocksdb_block_based_options_set_block_cache(st->table, st->cache);
    rocksdb_block_based_options_set_filter_policy(st->table, rocksdb_filterpolicy_create_bloom(10));
    rocksdb_options_set_block_based_table_factory(st->dbopt, st->table);
    st->ropt = rocksdb_readoptions_create();
    st->wopt = rocksdb_writeoptions_create();
    rocksdb_writeoptions_disable_WAL(st->wopt, 1);
    st->fopt = rocksdb_flushoptions_create();
    rocksdb_flushoptions_set_wait(st->fopt, 1);
    st->pending = smap_new((uint64_t)(uintptr_t)st);
    return st;
}

/* Drops the pooled iterators (before the instance changes). */
static void drop_pool(rdb_store_t *st)
{
    while (st->npool > 0) rocksdb_iter_destroy(st->pool[--st->npool]);
}

static void close_db(rdb_store_t *st)
{
    drop_pool(st);
    if (st->got) rocksdb_pinnableslice_destroy(st->got);
    st->got = NULL;
    if (st->db) rocksdb_close(st->db);
    st->db = NULL;
    st->version = -1;
}

static void rdb_close(void *impl)
{
    rdb_store_t *st = impl;
    close_db(st);
    sl_buf_free(&st->last_key);
    sl_buf_free(&st->tagged);
    smap_free(st->pending);
    rocksdb_flushoptions_destroy(st->fopt);
    rocksdb_writeoptions_destroy(st->wopt);
    rocksdb_readoptions_destroy(st->ropt);
    rocksdb_options_destroy(st->dbopt);
    rocksdb_block_based_options_destroy(st->table);
    rocksdb_cache_destroy(st->cache);
    free(st->work);
    free(st->dir);
    free(st);
}

static char *ckpt_name(int64_t version)
{
    char *p = sl_xmalloc(32);
    snprintf(p, 32, "%" PRId64 ".ckpt", version);
    return p;
}

/* Writes all of `p` to `fd`; 0 or -1 (errno set). */
static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Copies one file (the small non-SST files of a checkpoint) into the
 * scratch instance (not fsynced: work/ is rebuilt after a crash anyway). */
static int copy_file(const char *from, const char *to, int64_t *bytes, sl_error_t *err)
{
    sl_buf_t b = SL_BUF_INIT;
    int rc = sl_fs_read_file(from, &b, err);
    if (rc == 0) rc = sl_error_set(err, SL_ERR_IO_ERROR, "file \"%s\" vanished", from);
    int fd = rc > 0 ? open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, SL_PRIVATE_FILE_MODE) : -1;
    if (rc > 0 && (fd < 0 || write_all(fd, b.data, b.len) < 0))
        rc = sl_error_set(err, SL_ERR_IO_ERROR, "could not write file \"%s\": %s", to,
                          strerror(errno));
    if (fd >= 0) close(fd);
    *bytes += (int64_t)b.len;
    sl_buf_free(&b);
    return rc < 0 ? -1 : 0;
}

static int is_sst(const char *name)
{
    size_t n = strlen(name);
    return (n > 4 && !strcmp(name + n - 4, ".sst")) || (n > 5 && !strcmp(name + n - 5, ".blob"));
}

/* Fills `to` with the files of checkpoint directory `from`: immutable
 * SST/blob files as hard links, the rest as copies. */
static int clone_dir(rdb_store_t *st, const char *from, const char *to, sl_error_t *err)
{
    DIR *d = opendir(from);
    if (!d)
        return sl_error_set(err, SL_ERR_IO_ERROR, "could not open directory \"%s\": %s", from,
                            strerror(errno));
    int rc = sl_fs_mkdirs(to, SL_PRIVATE_DIR_MODE, err);
    struct dirent *de;
    int64_t bytes = 0;
    while (rc == 0 && (de = readdir(d))) {
        if (de->d_name[0] == '.' || !strcmp(de->d_name, "sluice.meta")) continue;
        char *src = sl_fs_path(from, de->d_name), *dst = sl_fs_path(to, de->d_name);
        if (is_sst(de->d_name) && link(src, dst) == 0) st->files_reused++;
        else if ((rc = copy_file(src, dst, &bytes, err)) == 0) st->files_copied++;
        free(src);
        free(dst);
    }
    st->bytes_copied += bytes;
    closedir(d);
    return rc;
}

static int read_meta(rdb_store_t *st, const char *ckpt, sl_error_t *err)
{
    char *path = sl_fs_path(ckpt, "sluice.meta");
    sl_buf_t b = SL_BUF_INIT;
    int rc = sl_fs_read_file(path, &b, err);
    json_t *root = rc > 0 && b.len > 3 && !memcmp(b.data, "v1\n", 3)
                       ? json_loadb(b.data + 3, b.len - 3, 0, NULL)
                       : NULL;
    json_t *n = json_object_get(root, "numKeys");
    if (rc >= 0 && !json_is_integer(n))
        rc = sl_error_set(err, SL_ERR_IO_ERROR, "state file \"%s\" is missing or corrupt", path);
    else if (rc >= 0) st->keys = st->loaded_keys = (int64_t)json_integer_value(n);
    json_decref(root);
    sl_buf_free(&b);
    free(path);
    return rc < 0 ? -1 : 0;
}

/* Rebuilds work/ from <version>.ckpt (empty for version 0) and opens it. */
static int restore(rdb_store_t *st, int64_t version, sl_error_t *err)
{
    close_db(st);
    if (sl_fs_rmtree(st->work, err) < 0) return -1;
    st->keys = st->loaded_keys = 0;
    if (version > 0) {
        char *name = ckpt_name(version), *ckpt = sl_fs_path(st->dir, name);
        int rc = sl_fs_exists(ckpt) ? 0 : -1;
        if (rc < 0) {
            sl_error_set(err, SL_ERR_IO_ERROR, "state checkpoint \"%s\" is missing", ckpt);
            sl_error_detail(err, "Loading version %" PRId64 " of the state store needs it.",
                            version);
        }
        if (rc == 0) rc = read_meta(st, ckpt, err);
        if (rc == 0) rc = clone_dir(st, ckpt, st->work, err);
        free(name);
        free(ckpt);
        if (rc < 0) return -1;
    }
    char *msg = NULL;
    st->db = rocksdb_open(st->dbopt, st->work, &msg);
    if (msg) return rdb_error(err, "open", st->work, msg);
    st->version = version;
    return 0;
}

static void reset_batch_metrics(rdb_store_t *st)
{
    st->gets = st->puts = st->get_ns = st->put_ns = st->get_timed = st->put_timed = 0;
    st->write_ms = st->flush_ms = st->checkpoint_ms = st->sync_ms = 0;
    st->files_copied = st->files_reused = st->bytes_copied = 0;
}

static int rdb_load(void *impl, int64_t version, int *hit, sl_error_t *err)
{
    rdb_store_t *st = impl;
    /* Pending changes live only in memory: clearing them is enough. */
    smap_clear(st->pending);
    st->keys = st->loaded_keys;
    st->mods++;
    reset_batch_metrics(st);
    *hit = st->db && st->version == version;
    if (!*hit && restore(st, version, err) < 0) return -1;
    read_stats(st, st->stats_base);
    return 0;
}

/* ---- reads and writes ---- */

/* Looks `key` up in the pending changes, then in the instance. Returns 1
 * with *val, *vlen set (valid until the next lookup or change), 0, -1. */
static int lookup(rdb_store_t *st, const void *key, size_t klen, const void **val, size_t *vlen,
                  sl_error_t *err)
{
    int found;
    smap_node_t *n = smap_find(st->pending, key, klen);
    if (n) {
        const char *v = smap_value(n, vlen);
        found = v[0] == TAG_PUT;
        *val = v + 1;
        (*vlen)--;
    } else {
        char *msg = NULL;
        if (st->got) rocksdb_pinnableslice_destroy(st->got);
        st->got = rocksdb_get_pinned(st->db, st->ropt, key, klen, &msg);
        if (msg) return rdb_error(err, "read", st->dir, msg);
        found = st->got != NULL;
        if (found) *val = rocksdb_pinnableslice_value(st->got, vlen);
    }
    sl_buf_clear(&st->last_key);
    sl_buf_append(&st->last_key, key, klen);
    st->last_found = found;
    st->last_mods = st->mods;
    return found;
}

/* Whether `key` exists, reusing the previous lookup when it was of the same
 * key with no change since (the get-then-put of an aggregation). */
static int exists(rdb_store_t *st, const void *key, size_t klen, sl_error_t *err)
{
    if (st->last_mods == st->mods && st->last_key.len == klen &&
        (klen == 0 || !memcmp(st->last_key.data, key, klen)))
        return st->last_found;
    const void *v;
    size_t vlen;
    return lookup(st, key, klen, &v, &vlen, err);
}

/* Records a pending put (tag 'P') or delete (tag 'D'). */
static void set_pending(rdb_store_t *st, const void *key, size_t klen, char tag, const void *val,
                        size_t vlen)
{
    sl_buf_clear(&st->tagged);
    sl_buf_putc(&st->tagged, tag);
    sl_buf_append(&st->tagged, val, vlen);
    smap_put(st->pending, key, klen, st->tagged.data, st->tagged.len);
    st->mods++;
}

static int rdb_get(void *impl, const void *key, size_t klen, const void **val, size_t *vlen,
                   sl_error_t *err)
{
    rdb_store_t *st = impl;
    int timed = st->gets++ % RDB_TIME_EVERY == 0;
    int64_t t0 = timed ? sl_mono_ns() : 0;
    int rc = lookup(st, key, klen, val, vlen, err);
    if (timed) {
        st->get_ns += sl_mono_ns() - t0;
        st->get_timed++;
    }
    return rc;
}

static int rdb_put(void *impl, const void *key, size_t klen, const void *val, size_t vlen,
                   sl_error_t *err)
{
    rdb_store_t *st = impl;
    int timed = st->puts % RDB_TIME_EVERY == 0;
    int64_t t0 = timed ? sl_mono_ns() : 0;
    int rc = exists(st, key, klen, err);
    if (rc >= 0) set_pending(st, key, klen, TAG_PUT, val, vlen);
    if (timed) {
        st->put_ns += sl_mono_ns() - t0;
        st->put_timed++;
    }
    if (rc < 0) return -1;
    st->keys += rc == 0;
    st->puts++;
    return 0;
}

static int rdb_del(void *impl, const void *key, size_t klen, sl_error_t *err)
{
    rdb_store_t *st = impl;
    int rc = exists(st, key, klen, err);
    if (rc <= 0) return rc;
    set_pending(st, key, klen, TAG_DEL, NULL, 0);
    st->keys--;
    return 1;
}

/* ---- commit ---- */

/* Removes <v>.ckpt for every v >= from (a re-run replaces them), or for
 * every v < from when `below` (retention). */
static int remove_ckpts_from(rdb_store_t *st, int64_t from, int below, sl_error_t *err)
{
    int64_t *ids;
    int n = sl_fs_list_ids(st->dir, ".ckpt", &ids, err);
    int rc = n < 0 ? -1 : 0;
    for (int i = 0; i < n && rc == 0; i++) {
        if (below ? ids[i] >= from : ids[i] < from) continue;
        char *name = ckpt_name(ids[i]), *path = sl_fs_path(st->dir, name);
        rc = sl_fs_rmtree(path, err);
        free(name);
        free(path);
    }
    free(ids);
    return rc;
}

/* Writes the pending changes (in key order) and flushes the memtable into
 * SST files. */
static int write_and_flush(rdb_store_t *st, sl_error_t *err)
{
    char *msg = NULL;
    int64_t t0 = sl_mono_ns();
    drop_pool(st);
    rocksdb_writebatch_t *wb = rocksdb_writebatch_create();
    for (smap_node_t *n = smap_seek(st->pending, NULL, 0, 0); n; n = smap_next(n)) {
        size_t kl, vl;
        const char *k = smap_key(n, &kl), *v = smap_value(n, &vl);
        if (v[0] == TAG_PUT) rocksdb_writebatch_put(wb, k, kl, v + 1, vl - 1);
        else rocksdb_writebatch_delete(wb, k, kl);
    }
    msg = rdb_failpoint(st, "rocksdb.write");
    if (!msg) rocksdb_write(st->db, st->wopt, wb, &msg);
    rocksdb_writebatch_destroy(wb);
    if (msg) return rdb_error(err, "write", st->dir, msg);
    smap_clear(st->pending);
    int64_t t1 = sl_mono_ns();
    rocksdb_flush(st->db, st->fopt, &msg);
    if (msg) return rdb_error(err, "flush", st->dir, msg);
    st->write_ms = (t1 - t0) / 1000000;
    st->flush_ms = (sl_mono_ns() - t1) / 1000000;
    return 0;
}

/* Counts files of the new checkpoint shared with the previous one (same
 * inode: reused) and new ones (copied, with their bytes). */
static void count_new_files(rdb_store_t *st, const char *ckpt, int64_t version)
{
    char *pname = ckpt_name(version - 1), *prev = sl_fs_path(st->dir, pname);
    DIR *d = opendir(ckpt);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        char *a = sl_fs_path(ckpt, de->d_name), *b = sl_fs_path(prev, de->d_name);
        struct stat sa, sb;
        int shared = stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_ino == sb.st_ino;
        st->files_reused += shared;
        st->files_copied += !shared;
        st->bytes_copied += shared ? 0 : (int64_t)sa.st_size;
        free(a);
        free(b);
    }
    if (d) closedir(d);
    free(pname);
    free(prev);
}

/* Takes the RocksDB checkpoint of `version` into a temporary directory,
 * adds sluice.meta, and renames it into place. */
static int take_checkpoint(rdb_store_t *st, int64_t version, sl_error_t *err)
{
    char tmpname[64];
    snprintf(tmpname, sizeof tmpname, ".ckpt-%" PRId64 ".tmp", version);
    char *tmp = sl_fs_path(st->dir, tmpname), *name = ckpt_name(version);
    char *final = sl_fs_path(st->dir, name), *msg = NULL;
    int rc = sl_fs_rmtree(tmp, err);
    int64_t t0 = sl_mono_ns();
    if (rc == 0) msg = rdb_failpoint(st, "rocksdb.checkpoint");
    rocksdb_checkpoint_t *cp =
        rc == 0 && !msg ? rocksdb_checkpoint_object_create(st->db, &msg) : NULL;
    if (cp) rocksdb_checkpoint_create(cp, tmp, 0, &msg);
    if (cp) rocksdb_checkpoint_object_destroy(cp);
    if (rc == 0 && msg) rc = rdb_error(err, "checkpoint", st->dir, msg);
    int64_t t1 = sl_mono_ns();
    char meta[64];
    int n = snprintf(meta, sizeof meta, "v1\n{\"numKeys\":%" PRId64 "}", st->keys);
    if (rc == 0) rc = sl_fs_write_file(tmp, "sluice.meta", meta, (size_t)n, 0, NULL, NULL, err);
    if (rc == 0 && (failpoint_io("fs.rename", final) || rename(tmp, final) < 0))
        rc =
            sl_error_set(err, SL_ERR_IO_ERROR, "could not rename \"%s\": %s", tmp, strerror(errno));
    if (rc == 0) rc = sl_fs_fsync_dir(st->dir, err);
    st->checkpoint_ms = (t1 - t0) / 1000000;
    st->sync_ms = (sl_mono_ns() - t1) / 1000000;
    if (rc == 0) count_new_files(st, final, version);
    free(tmp);
    free(name);
    free(final);
    return rc;
}

static int rdb_commit(void *impl, int64_t version, sl_error_t *err)
{
    rdb_store_t *st = impl;
    st->files_copied = st->files_reused = st->bytes_copied = 0;
    int rc = write_and_flush(st, err);
    if (rc == 0) rc = remove_ckpts_from(st, version, 0, err);
    if (rc == 0) rc = take_checkpoint(st, version, err);
    if (rc < 0) {
        close_db(st); /* the instance no longer matches a version */
        return -1;
    }
    st->version = version;
    st->loaded_keys = st->keys;
    st->mods++;
    return 0;
}

static void rdb_abort(void *impl)
{
    rdb_store_t *st = impl;
    smap_clear(st->pending);
    st->keys = st->loaded_keys;
    st->mods++;
}

static int rdb_maintenance(void *impl, sl_error_t *err)
{
    rdb_store_t *st = impl;
    if (st->version <= 0) return 0;
    return remove_ckpts_from(st, st->version - st->opt.min_versions_to_retain, 1, err);
}

/* ---- metrics ---- */

static void rdb_metrics(void *impl, store_metrics_t *m)
{
    rdb_store_t *st = impl;
    m->num_keys = st->keys;
    m->memory_used_bytes = prop_int(st, "rocksdb.cur-size-all-mem-tables") +
                           prop_int(st, "rocksdb.estimate-table-readers-mem") +
                           (int64_t)rocksdb_cache_get_usage(st->cache) +
                           (int64_t)smap_memory(st->pending);
    int64_t now[ST_N];
    read_stats(st, now);
    for (int i = 0; i < ST_N; i++) {
        int64_t d = now[i] - st->stats_base[i];
        store_metric_add(m, rdb_stats[i].metric, rdb_stats[i].histogram_us ? d / 1000 : d);
    }
    store_metric_add(m, "rocksdbGetCount", st->gets);
    store_metric_add(m, "rocksdbPutCount", st->puts);
    int64_t get_ns = st->get_timed ? st->get_ns * st->gets / st->get_timed : 0;
    int64_t put_ns = st->put_timed ? st->put_ns * st->puts / st->put_timed : 0;
    store_metric_add(m, "rocksdbGetLatency", get_ns / 1000000);
    store_metric_add(m, "rocksdbPutLatency", put_ns / 1000000);
    store_metric_add(m, "rocksdbCommitWriteBatchLatency", st->write_ms);
    store_metric_add(m, "rocksdbCommitFlushLatency", st->flush_ms);
    store_metric_add(m, "rocksdbCommitCompactLatency", 0);
    store_metric_add(m, "rocksdbCommitCheckpointLatency", st->checkpoint_ms);
    store_metric_add(m, "rocksdbCommitFileSyncLatencyMs", st->sync_ms);
    store_metric_add(m, "rocksdbFilesCopied", st->files_copied);
    store_metric_add(m, "rocksdbFilesReused", st->files_reused);
    store_metric_add(m, "rocksdbBytesCopied", st->bytes_copied);
    store_metric_add(m, "rocksdbSstFileSize", prop_int(st, "rocksdb.total-sst-files-size"));
    store_metric_add(m, "rocksdbPinnedBlocksMemoryUsage",
                     (int64_t)rocksdb_cache_get_pinned_usage(st->cache));
}

/* ---- iterators ---- */

/* Positions the pending cursor at the first entry after `pos` (or at lo). */
static void seek_pending(rdb_iter_t *it)
{
    smap_t *p = it->st->pending;
    it->pn =
        it->has_pos ? smap_seek(p, it->pos.data, it->pos.len, it->after) : smap_seek(p, NULL, 0, 0);
    it->mods = it->st->mods;
}

static void *rdb_iter_open(void *impl, const void *lo, size_t lolen, const void *hi, size_t hilen,
                           sl_error_t *err)
{
    (void)err;
    rdb_store_t *st = impl;
    rdb_iter_t *it = sl_xcalloc(1, sizeof *it);
    it->st = st;
    it->it = st->npool ? st->pool[--st->npool] : rocksdb_create_iterator(st->db, st->ropt);
    if (lo) {
        sl_buf_append(&it->pos, lo, lolen);
        it->has_pos = 1;
        rocksdb_iter_seek(it->it, lo, lolen);
    } else {
        rocksdb_iter_seek_to_first(it->it);
    }
    if (hi) {
        it->hi = sl_xmalloc(hilen + 1);
        if (hilen) memcpy(it->hi, hi, hilen);
        it->hilen = hilen;
    }
    seek_pending(it);
    return it;
}

/* Returns the entry to emit next: from the pending map (*from_pending = 1;
 * NULL key when it is a deletion to skip) or from the instance; 0 at the end. */
static int next_candidate(rdb_iter_t *it, const char **k, size_t *kl, const char **v, size_t *vl)
{
    size_t pkl = 0, dkl = 0;
    const char *pk = it->pn ? smap_key(it->pn, &pkl) : NULL;
    const char *dk = rocksdb_iter_valid(it->it) ? rocksdb_iter_key(it->it, &dkl) : NULL;
    if (!pk && !dk) return 0;
    int c = !pk ? 1 : !dk ? -1 : smap_keycmp(pk, pkl, dk, dkl);
    if (c <= 0) { /* the pending entry wins (and hides an equal instance key) */
        if (c == 0) rocksdb_iter_next(it->it);
        const char *pv = smap_value(it->pn, vl);
        it->pn = smap_next(it->pn);
        *k = pk;
        *kl = pkl;
        *v = pv + 1;
        (*vl)--;
        return pv[0] == TAG_PUT ? 1 : 2; /* 2: a deletion, skip it */
    }
    *k = dk;
    *kl = dkl;
    *v = rocksdb_iter_value(it->it, vl);
    return 3; /* from the instance: the caller advances after copying */
}

static int rdb_iter_next(void *iter, const void **key, size_t *klen, const void **val, size_t *vlen,
                         sl_error_t *err)
{
    rdb_iter_t *it = iter;
    if (it->mods != it->st->mods) seek_pending(it);
    const char *k, *v;
    size_t kl, vl;
    int rc;
    while ((rc = next_candidate(it, &k, &kl, &v, &vl)) == 2) continue;
    char *msg = NULL;
    rocksdb_iter_get_error(it->it, &msg);
    if (msg) return rdb_error(err, "scan", it->st->dir, msg);
    if (rc == 0 || (it->hi && smap_keycmp(k, kl, it->hi, it->hilen) >= 0)) {
        it->pn = NULL; /* stay at the end */
        return 0;
    }
    sl_buf_clear(&it->pos);
    sl_buf_append(&it->pos, k, kl);
    sl_buf_clear(&it->val);
    sl_buf_append(&it->val, v, vl);
    if (rc == 3) rocksdb_iter_next(it->it);
    it->has_pos = it->after = 1;
    *key = it->pos.data;
    *klen = kl;
    *val = it->val.data;
    *vlen = vl;
    return 1;
}

static void rdb_iter_close(void *iter)
{
    rdb_iter_t *it = iter;
    rdb_store_t *st = it->st;
    if (st->npool < RDB_POOL) st->pool[st->npool++] = it->it;
    else rocksdb_iter_destroy(it->it);
    sl_buf_free(&it->pos);
    sl_buf_free(&it->val);
    free(it->hi);
    free(it);
}

const store_ops_t store_rocksdb_ops = {
    .name = "rocksdb",
    .open = rdb_open,
    .load = rdb_load,
    .get = rdb_get,
    .put = rdb_put,
    .del = rdb_del,
    .delete_range = NULL,
    .iter_open = rdb_iter_open,
    .iter_next = rdb_iter_next,
    .iter_close = rdb_iter_close,
    .commit = rdb_commit,
    .abort = rdb_abort,
    .metrics = rdb_metrics,
    .maintenance = rdb_maintenance,
    .close = rdb_close,
};
