/* Unit tests of state/store: every STORE_TEST runs once per provider
 * ("memory", "rocksdb") through the same vtable: point operations,
 * versions, abort, ordered and prefix/range scans (also while changing the
 * store), range deletes, the re-run of a version after a crash, snapshot +
 * delta replay and corruption detection (memory), retention, metrics,
 * schema records, and a randomized model test across many versions,
 * reloads and reopenings. */
#include "unit.h"

#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/arena.h"
#include "common/failpoint.h"
#include "state/state_int.h"
#include "state/store.h"
#include "state/store_map.h"

#define STORE_TEST(name)                           \
    static void body_##name(const char *provider); \
    TEST(name##_memory)                            \
    {                                              \
        body_##name("memory");                     \
    }                                              \
    TEST(name##_rocksdb)                           \
    {                                              \
        body_##name("rocksdb");                    \
    }                                              \
    static void body_##name(const char *provider)

/* ---- helpers ---- */

static char tmp_root[64];

static const char *tmpdir(void)
{
    if (!tmp_root[0]) {
        snprintf(tmp_root, sizeof tmp_root, "/tmp/sluice-store-XXXXXX");
        CHECK(mkdtemp(tmp_root) != NULL);
    }
    return tmp_root;
}

static void rm_tmp(void)
{
    sl_error_t err;
    CHECK_INT(sl_fs_rmtree(tmp_root, &err), 0);
    tmp_root[0] = '\0';
}

static store_t *open_store(const char *provider, int op, int part, const char *name, int retain,
                           int deltas)
{
    store_options_t opt = {provider, retain, deltas, 0};
    sl_error_t err;
    store_t *s = store_open(tmpdir(), op, part, name, &opt, &err);
    if (!s) unit_fail(__FILE__, __LINE__, "store_open: %s (%s)", err.message, err.detail);
    return s;
}

#define OK(call)                                                                        \
    do {                                                                                \
        sl_error_t e_;                                                                  \
        if ((call) < 0)                                                                 \
            unit_fail(__FILE__, __LINE__, "%s: %s (%s)", #call, e_.message, e_.detail); \
    } while (0)
#define ERR &e_

static void load(store_t *s, int64_t v)
{
    OK(store_load(s, v, ERR));
}

static void commit(store_t *s)
{
    OK(store_commit(s, ERR));
}

static void put(store_t *s, const char *k, const char *v)
{
    OK(store_put(s, k, strlen(k), v, strlen(v), ERR));
}

/* The value of k as a string, or NULL when absent. */
static char *get(store_t *s, const char *k)
{
    static char buf[4][256];
    static int n;
    const void *v;
    size_t vl;
    sl_error_t err;
    int rc = store_get(s, k, strlen(k), &v, &vl, &err);
    if (rc < 0) unit_fail(__FILE__, __LINE__, "store_get: %s", err.message);
    if (!rc) return NULL;
    n = (n + 1) % 4;
    CHECK(vl < sizeof buf[n]);
    memcpy(buf[n], v, vl);
    buf[n][vl] = '\0';
    return buf[n];
}

static int del(store_t *s, const char *k)
{
    sl_error_t err;
    int rc = store_delete(s, k, strlen(k), &err);
    CHECK(rc >= 0);
    return rc;
}

/* Renders a scan as "k=v,k=v" (keys and values printable). */
static char *scan(store_t *s, const char *lo, const char *hi, const char *prefix)
{
    static char out[4096];
    sl_error_t err;
    store_iter_t *it =
        prefix ? store_iter_prefix(s, prefix, strlen(prefix), &err)
               : store_iter_range(s, lo, lo ? strlen(lo) : 0, hi, hi ? strlen(hi) : 0, &err);
    CHECK(it != NULL);
    out[0] = '\0';
    const void *k, *v;
    size_t kl, vl;
    int rc;
    while ((rc = store_iter_next(it, &k, &kl, &v, &vl, &err)) > 0) {
        size_t n = strlen(out);
        snprintf(out + n, sizeof out - n, "%s%.*s=%.*s", n ? "," : "", (int)kl, (const char *)k,
                 (int)vl, (const char *)v);
    }
    CHECK_INT(rc, 0);
    store_iter_close(it);
    return out;
}

static int count_files(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    struct dirent *de;
    size_t sl = strlen(suffix);
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (de->d_name[0] != '.' && len > sl && !strcmp(de->d_name + len - sl, suffix)) n++;
    }
    closedir(d);
    return n;
}

/* ---- basic operations ---- */

STORE_TEST(put_get_delete)
{
    store_t *s = open_store(provider, 0, 0, NULL, 0, 0);
    CHECK_STR(store_provider_name(s), provider);
    CHECK_INT(store_version(s), -1);
    load(s, 0);
    CHECK(get(s, "a") == NULL);
    put(s, "a", "1");
    put(s, "b", "22");
    CHECK_STR(get(s, "a"), "1");
    put(s, "a", "a much longer value than before");
    CHECK_STR(get(s, "a"), "a much longer value than before");
    put(s, "a", "x");
    CHECK_STR(get(s, "a"), "x");
    CHECK_INT(del(s, "a"), 1);
    CHECK_INT(del(s, "a"), 0);
    CHECK(get(s, "a") == NULL);
    /* binary keys with NUL bytes, empty key and empty value */
    sl_error_t err;
    const void *v;
    size_t vl;
    CHECK_INT(store_put(s, "k\0x", 3, "v\0v", 3, &err), 0);
    CHECK_INT(store_put(s, "k", 1, "", 0, &err), 0);
    CHECK_INT(store_put(s, "", 0, "empty key", 9, &err), 0);
    CHECK_INT(store_get(s, "k\0x", 3, &v, &vl, &err), 1);
    CHECK(vl == 3 && !memcmp(v, "v\0v", 3));
    CHECK_INT(store_get(s, "k", 1, &v, &vl, &err), 1);
    CHECK_INT(vl, 0);
    CHECK_INT(store_get(s, "k\0", 2, &v, &vl, &err), 0);
    CHECK_INT(store_get(s, "", 0, &v, &vl, &err), 1);
    CHECK(vl == 9 && !memcmp(v, "empty key", 9));
    commit(s);
    CHECK_INT(store_version(s), 1);
    store_close(s);
    s = open_store(provider, 0, 0, NULL, 0, 0);
    load(s, 1);
    CHECK_INT(store_get(s, "k\0x", 3, &v, &vl, &err), 1);
    CHECK(vl == 3 && !memcmp(v, "v\0v", 3));
    CHECK_INT(store_get(s, "", 0, &v, &vl, &err), 1);
    CHECK_STR(get(s, "b"), "22");
    CHECK(get(s, "a") == NULL);
    store_close(s);
    rm_tmp();
}

STORE_TEST(versions_load_older_and_newer)
{
    store_t *s = open_store(provider, 1, 3, NULL, 0, 0);
    load(s, 0);
    put(s, "a", "1");
    commit(s); /* version 1 */
    load(s, 1);
    put(s, "a", "2");
    put(s, "b", "1");
    commit(s); /* version 2 */
    load(s, 2);
    CHECK_INT(del(s, "a"), 1);
    put(s, "c", "3");
    commit(s); /* version 3 */
    load(s, 1);
    CHECK_STR(scan(s, NULL, NULL, NULL), "a=1");
    load(s, 2);
    CHECK_STR(scan(s, NULL, NULL, NULL), "a=2,b=1");
    load(s, 3);
    CHECK_STR(scan(s, NULL, NULL, NULL), "b=1,c=3");
    load(s, 0);
    CHECK_STR(scan(s, NULL, NULL, NULL), "");
    store_close(s);
    s = open_store(provider, 1, 3, NULL, 0, 0);
    load(s, 2);
    CHECK_STR(scan(s, NULL, NULL, NULL), "a=2,b=1");
    sl_error_t err;
    CHECK_INT(store_load(s, 9, &err), -1);
    CHECK_STR(err.sqlstate, SL_ERR_IO_ERROR);
    CHECK(strstr(err.message, "missing") != NULL);
    CHECK_INT(store_version(s), -1);
    const void *v;
    size_t vl;
    CHECK_INT(store_get(s, "b", 1, &v, &vl, &err), -1); /* not loaded */
    CHECK_STR(err.sqlstate, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE);
    store_close(s);
    char *dir = store_dir_path(tmpdir(), 1, 3, NULL);
    struct stat st;
    CHECK(stat(dir, &st) == 0 && S_ISDIR(st.st_mode));
    free(dir);
    rm_tmp();
}

STORE_TEST(abort_drops_uncommitted_changes)
{
    store_t *s = open_store(provider, 0, 0, NULL, 0, 0);
    load(s, 0);
    put(s, "a", "1");
    put(s, "b", "2");
    commit(s);
    load(s, 1);
    put(s, "a", "changed");
    del(s, "b");
    put(s, "c", "new");
    store_abort(s);
    CHECK_INT(store_version(s), -1);
    load(s, 1);
    CHECK_STR(scan(s, NULL, NULL, NULL), "a=1,b=2");
    store_metrics_t m;
    store_metrics(s, &m);
    CHECK_INT(m.num_keys, 2);
    /* a load without abort also drops pending changes */
    put(s, "z", "9");
    load(s, 1);
    CHECK(get(s, "z") == NULL);
    put(s, "d", "4");
    commit(s);
    load(s, 2);
    CHECK_STR(scan(s, NULL, NULL, NULL), "a=1,b=2,d=4");
    store_close(s);
    rm_tmp();
}

/* ---- scans ---- */

STORE_TEST(scan_order_prefix_and_range)
{
    store_t *s = open_store(provider, 0, 0, NULL, 0, 0);
    load(s, 0);
    const char *keys[] = {"b", "a", "ab", "abc", "b\x7f", "b\xff", "b\xff\xff", "c", "aa", "a\x01"};
    for (int i = 0; i < 10; i++) put(s, keys[i], "v");
    commit(s);
    load(s, 1);
    del(s, "aa");       /* committed key deleted in the pending batch */
    put(s, "abd", "p"); /* pending insert */
    put(s, "c", "w");   /* pending update */
    CHECK_STR(scan(s, NULL, NULL, NULL),
              "a=v,a\x01=v,ab=v,abc=v,abd=p,b=v,b\x7f=v,b\xff=v,b\xff\xff=v,c=w");
    CHECK_STR(scan(s, NULL, NULL, "ab"), "ab=v,abc=v,abd=p");
    CHECK_STR(scan(s, NULL, NULL, "a"), "a=v,a\x01=v,ab=v,abc=v,abd=p");
    CHECK_STR(scan(s, NULL, NULL, "b\xff"), "b\xff=v,b\xff\xff=v");
    CHECK_STR(scan(s, NULL, NULL, "x"), "");
    CHECK_STR(scan(s, NULL, NULL, ""), scan(s, NULL, NULL, NULL));
    CHECK_STR(scan(s, "ab", "b", NULL), "ab=v,abc=v,abd=p");
    CHECK_STR(scan(s, "abc", "abc", NULL), "");
    CHECK_STR(scan(s, "b\x01", NULL, NULL), "b\x7f=v,b\xff=v,b\xff\xff=v,c=w");
    CHECK_STR(scan(s, NULL, "ab", NULL), "a=v,a\x01=v");
    commit(s);
    load(s, 2);
    CHECK_STR(scan(s, NULL, NULL, "ab"), "ab=v,abc=v,abd=p");
    store_close(s);
    rm_tmp();
}

STORE_TEST(scan_while_changing_the_store)
{
    store_t *s = open_store(provider, 0, 0, NULL, 0, 0);
    load(s, 0);
    for (char c = 'a'; c <= 'j'; c++) put(s, (char[]){c, 0}, "v");
    commit(s);
    load(s, 1);
    sl_error_t err;
    store_iter_t *it = store_iter_range(s, "c", 1, "h", 1, &err);
    const void *k, *v;
    size_t kl, vl;
    char seen[32] = "";
    while (store_iter_next(it, &k, &kl, &v, &vl, &err) > 0) {
        strncat(seen, k, kl);
        CHECK_INT(store_delete(s, k, kl, &err), 1); /* delete what was returned */
        if (!memcmp(k, "d", 1)) {
            put(s, "e1", "ahead");                       /* inserted ahead: seen */
            put(s, "a1", "behind");                      /* inserted behind: not seen */
            CHECK_INT(store_delete(s, "f", 1, &err), 1); /* deleted ahead: not seen */
        }
    }
    store_iter_close(it);
    CHECK_STR(seen, "cdee1g");
    CHECK_STR(scan(s, NULL, NULL, NULL), "a=v,a1=behind,b=v,h=v,i=v,j=v");
    /* update values while iterating: each key is seen once */
    it = store_iter_range(s, NULL, 0, NULL, 0, &err);
    int n = 0;
    while (store_iter_next(it, &k, &kl, &v, &vl, &err) > 0) {
        char key[8];
        memcpy(key, k, kl);
        key[kl] = '\0';
        put(s, key, "updated, and longer than before");
        n++;
    }
    store_iter_close(it);
    CHECK_INT(n, 6);
    commit(s);
    load(s, 2);
    CHECK_STR(get(s, "j"), "updated, and longer than before");
    store_close(s);
    rm_tmp();
}

STORE_TEST(nested_scans_are_independent)
{
    store_t *s = open_store(provider, 0, 0, NULL, 0, 0);
    load(s, 0);
    put(s, "a1", "x");
    put(s, "a2", "x");
    put(s, "b1", "x");
    commit(s);
    for (int round = 0; round < 3; round++) { /* iterators are reused across scans */
        load(s, 1 + round);
        put(s, "a3", "p"); /* pending */
        sl_error_t err;
        store_iter_t *its[6];
        for (int i = 0; i < 6; i++) {
            its[i] = i % 2 ? store_iter_prefix(s, "a", 1, &err)
                           : store_iter_range(s, "a2", 2, NULL, 0, &err);
            CHECK(its[i] != NULL);
        }
        const void *k, *v;
        size_t kl, vl;
        for (int step = 0; step < 3; step++)
            for (int i = 0; i < 6; i++) {
                const char *want = i % 2 ? (const char *[]){"a1", "a2", "a3"}[step]
                                         : (const char *[]){"a2", "a3", "b1"}[step];
                CHECK_INT(store_iter_next(its[i], &k, &kl, &v, &vl, &err), 1);
                CHECK(kl == 2 && !memcmp(k, want, 2));
            }
        for (int i = 0; i < 6; i++) {
            CHECK_INT(store_iter_next(its[i], &k, &kl, &v, &vl, &err), 0);
            store_iter_close(its[i]);
        }
        commit(s);
    }
    store_close(s);
    rm_tmp();
}

STORE_TEST(delete_range)
{
    store_t *s = open_store(provider, 2, 0, NULL, 0, 0);
    load(s, 0);
    const char *keys[] = {"w1|a", "w1|b", "w2|a", "w2|b", "w2|c", "w3|a", "x"};
    for (int i = 0; i < 7; i++) put(s, keys[i], "v");
    commit(s);
    load(s, 1);
    sl_error_t err;
    CHECK_INT(store_delete_range(s, "w1|", 3, "w3|", 3, &err), 5);
    CHECK_STR(scan(s, NULL, NULL, NULL), "w3|a=v,x=v");
    CHECK_INT(store_delete_range(s, "w1|", 3, "w3|", 3, &err), 0);
    store_metrics_t m;
    store_metrics(s, &m);
    CHECK_INT(m.num_rows_removed, 5);
    CHECK_INT(m.num_keys, 2);
    commit(s);
    store_close(s);
    s = open_store(provider, 2, 0, NULL, 0, 0);
    load(s, 2); /* from disk: the removals were recorded */
    CHECK_STR(scan(s, NULL, NULL, NULL), "w3|a=v,x=v");
    CHECK_INT(store_delete_range(s, NULL, 0, NULL, 0, &err), 2);
    CHECK_STR(scan(s, NULL, NULL, NULL), "");
    store_close(s);
    rm_tmp();
}

/* ---- crash and re-run ---- */

/* Runs fn(provider) in a child process (armed with failpoint `fp` when not
 * NULL) and returns its exit code. RocksDB's background threads do not
 * survive fork(), so a test forks before its own process touches RocksDB. */
static int in_child(void (*fn)(const char *), const char *provider, const char *fp)
{
    tmpdir(); /* parent and child share the directory */
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        if (fp) CHECK_INT(failpoint_set(fp), 0);
        fn(provider);
        _exit(0);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Batch 2 loads version 2, changes it and commits version 3. */
static void batch2_first_run(const char *provider)
{
    store_t *s = open_store(provider, 0, 0, NULL, 0, 1);
    load(s, 2);
    put(s, "first-run", "x");
    del(s, "a");
    commit(s);
    OK(store_maintenance(s, ERR)); /* memory: snapshot 3 (deltas = 1) */
    store_close(s);
}

static void two_versions(const char *provider)
{
    store_t *s = open_store(provider, 0, 0, NULL, 0, 1);
    load(s, 0);
    put(s, "a", "1");
    commit(s);
    load(s, 1);
    put(s, "b", "2");
    commit(s);
    store_close(s);
}

STORE_TEST(rerun_after_crash_between_commit_and_next_load)
{
    CHECK_INT(in_child(two_versions, provider, NULL), 0);
    CHECK_INT(in_child(batch2_first_run, provider, "state.after_commit"), FAILPOINT_EXIT_CODE);
    store_t *s = open_store(provider, 0, 0, NULL, 0, 1);
    load(s, 3); /* the first run's version 3 is durable */
    CHECK_STR(scan(s, NULL, NULL, NULL), "b=2,first-run=x");
    /* commits/2 was never written: the runner re-runs batch 2 */
    load(s, 2);
    CHECK_STR(scan(s, NULL, NULL, NULL), "a=1,b=2");
    put(s, "second-run", "y");
    commit(s);
    store_close(s);
    s = open_store(provider, 0, 0, NULL, 0, 1);
    load(s, 3);
    CHECK_STR(scan(s, NULL, NULL, NULL), "a=1,b=2,second-run=y");
    store_close(s);
    rm_tmp();
}

STORE_TEST(crash_before_commit_leaves_no_version)
{
    CHECK_INT(in_child(two_versions, provider, NULL), 0);
    CHECK_INT(in_child(batch2_first_run, provider, "state.before_commit"), FAILPOINT_EXIT_CODE);
    store_t *s = open_store(provider, 0, 0, NULL, 0, 1);
    sl_error_t err;
    CHECK_INT(store_load(s, 3, &err), -1);
    load(s, 2);
    CHECK_STR(scan(s, NULL, NULL, NULL), "a=1,b=2");
    store_close(s);
    rm_tmp();
}

STORE_TEST(rerun_in_process_replaces_newer_version)
{
    store_t *s = open_store(provider, 0, 0, NULL, 0, 1);
    load(s, 0);
    put(s, "a", "1");
    commit(s);
    load(s, 1);
    put(s, "b", "first");
    commit(s);
    OK(store_maintenance(s, ERR));
    load(s, 2);
    put(s, "c", "first");
    commit(s); /* version 3 from the abandoned timeline */
    load(s, 1);
    put(s, "b", "second");
    commit(s); /* replaces version 2, and 3 must be gone */
    CHECK_INT(store_version(s), 2);
    store_close(s);
    s = open_store(provider, 0, 0, NULL, 0, 1);
    load(s, 2);
    CHECK_STR(scan(s, NULL, NULL, NULL), "a=1,b=second");
    sl_error_t err;
    CHECK_INT(store_load(s, 3, &err), -1);
    store_close(s);
    rm_tmp();
}

/* ---- files ---- */

/* Writes a memory-store file by hand: records, end marker, CRC-32C. */
static void write_state_file(const char *path, const char *const *kv, int n)
{
    sl_buf_t b = SL_BUF_INIT;
    for (int i = 0; i < n; i++) {
        sl_buf_put_u32be(&b, (uint32_t)strlen(kv[2 * i]));
        sl_buf_puts(&b, kv[2 * i]);
        sl_buf_put_u32be(&b, (uint32_t)strlen(kv[2 * i + 1]));
        sl_buf_puts(&b, kv[2 * i + 1]);
    }
    sl_buf_put_u32be(&b, UINT32_MAX);
    sl_buf_put_u32be(&b, state_crc32c(0, b.data, b.len));
    FILE *f = fopen(path, "w");
    CHECK(f && fwrite(b.data, 1, b.len, f) == b.len);
    fclose(f);
    sl_buf_free(&b);
}

TEST(memory_snapshot_and_delta_replay)
{
    store_t *s = open_store("memory", 0, 0, NULL, 0, 3);
    char k[16], v[16];
    for (int ver = 0; ver < 10; ver++) { /* version ver+1 sets k<ver> and k00 = v<ver> */
        load(s, ver);
        snprintf(k, sizeof k, "k%02d", ver);
        snprintf(v, sizeof v, "v%d", ver);
        put(s, k, v);
        if (ver % 2) CHECK_INT(del(s, "k00"), 1);
        put(s, "k00", v);
        commit(s);
        OK(store_maintenance(s, ERR));
    }
    const char *dir = store_dir(s);
    CHECK_INT(count_files(dir, ".delta"), 10);
    CHECK_INT(count_files(dir, ".snapshot"), 3); /* 3, 6, 9 */
    char snap3[512], snap9[512];
    snprintf(snap3, sizeof snap3, "%s/3.snapshot", dir);
    snprintf(snap9, sizeof snap9, "%s/9.snapshot", dir);
    CHECK(sl_fs_exists(snap3) && sl_fs_exists(snap9));
    store_close(s);
    s = open_store("memory", 0, 0, NULL, 0, 3);
    load(s, 10); /* snapshot 9 + delta 10 */
    CHECK_STR(get(s, "k00"), "v9");
    CHECK_STR(get(s, "k09"), "v9");
    store_metrics_t m;
    store_metrics(s, &m);
    CHECK_INT(m.num_keys, 10);
    CHECK_INT(store_metric_get(&m, "loadedMapCacheMissCount"), 1);
    load(s, 5); /* snapshot 3 + deltas 4, 5 */
    CHECK_STR(get(s, "k00"), "v4");
    CHECK(get(s, "k04") != NULL && get(s, "k05") == NULL);
    /* the snapshot is what load uses: replace 3.snapshot by a different one */
    const char *kv[] = {"zz", "from-snapshot"};
    write_state_file(snap3, kv, 1);
    load(s, 3);
    CHECK_STR(scan(s, NULL, NULL, NULL), "zz=from-snapshot");
    load(s, 4);
    CHECK_STR(scan(s, NULL, NULL, NULL), "k00=v3,k03=v3,zz=from-snapshot");
    unlink(snap3);
    load(s, 3); /* no snapshot <= 3: deltas 1..3 */
    CHECK_STR(scan(s, NULL, NULL, NULL), "k00=v2,k01=v1,k02=v2");
    store_close(s);
    rm_tmp();
}

static void damage(const char *path, long off, int truncate_to)
{
    if (truncate_to >= 0) {
        CHECK(truncate(path, truncate_to) == 0);
        return;
    }
    FILE *f = fopen(path, "r+");
    CHECK(f != NULL);
    fseek(f, off, SEEK_SET);
    int c = fgetc(f);
    fseek(f, off, SEEK_SET);
    fputc(c ^ 0x20, f);
    fclose(f);
}

TEST(memory_detects_corrupt_files)
{
    store_t *s = open_store("memory", 0, 0, NULL, 0, 0);
    load(s, 0);
    put(s, "key", "value");
    commit(s);
    char path[512];
    snprintf(path, sizeof path, "%s/1.delta", store_dir(s));
    /* Spark's record layout: int32 len, key, int32 len, value, -1, then CRC */
    sl_buf_t b = SL_BUF_INIT;
    sl_error_t err;
    CHECK_INT(sl_fs_read_file(path, &b, &err), 1);
    CHECK_INT(b.len, 4 + 3 + 4 + 5 + 4 + 4);
    CHECK(!memcmp(b.data, "\0\0\0\3key\0\0\0\5value\xff\xff\xff\xff", 20));
    CHECK_INT(sl_get_u32be(b.data + 20), state_crc32c(0, b.data, 20));
    sl_buf_free(&b);
    int cases[][2] = {{5, -1}, {22, -1}, {0, 10}, {0, 19}, {0, 3}};
    for (int i = 0; i < 5; i++) {
        load(s, 0);
        put(s, "key", "value");
        commit(s);
        damage(path, cases[i][0], cases[i][1]);
        store_close(s);
        s = open_store("memory", 0, 0, NULL, 0, 0);
        CHECK_INT(store_load(s, 1, &err), -1);
        CHECK_STR(err.sqlstate, SL_ERR_IO_ERROR);
        CHECK(strstr(err.message, "1.delta") && strstr(err.message, "corrupt"));
    }
    store_close(s);
    rm_tmp();
}

STORE_TEST(retention_cleanup)
{
    store_t *s = open_store(provider, 0, 0, NULL, 5, 2);
    char k[16];
    for (int ver = 0; ver < 20; ver++) {
        load(s, ver);
        snprintf(k, sizeof k, "k%02d", ver);
        put(s, k, "v");
        commit(s);
        OK(store_maintenance(s, ERR));
    }
    const char *dir = store_dir(s);
    if (!strcmp(provider, "rocksdb")) {
        CHECK_INT(count_files(dir, ".ckpt"), 6); /* versions 15..20 */
    } else {
        /* newest snapshot <= 15 is 14: files 14..20 remain */
        CHECK_INT(count_files(dir, ".snapshot"), 4); /* 14, 16, 18, 20 */
        CHECK_INT(count_files(dir, ".delta"), 7);
    }
    store_close(s);
    s = open_store(provider, 0, 0, NULL, 5, 2);
    load(s, 15);
    store_metrics_t m;
    store_metrics(s, &m);
    CHECK_INT(m.num_keys, 15);
    sl_error_t err;
    CHECK_INT(store_load(s, 12, &err), -1);
    load(s, 20);
    CHECK_STR(get(s, "k19"), "v");
    store_close(s);
    rm_tmp();
}

/* ---- metrics ---- */

STORE_TEST(metrics_counts)
{
    store_t *s = open_store(provider, 0, 0, NULL, 0, 0);
    load(s, 0);
    put(s, "a", "1");
    put(s, "b", "2");
    commit(s);
    load(s, 1);
    put(s, "a", "11"); /* update */
    put(s, "c", "3");  /* insert */
    put(s, "d", "4");  /* insert */
    CHECK_INT(del(s, "b"), 1);
    CHECK_INT(del(s, "zz"), 0);
    get(s, "a");
    store_metrics_t m;
    store_metrics(s, &m);
    CHECK_INT(m.num_keys, 3);
    CHECK_INT(m.num_rows_updated, 3);
    CHECK_INT(m.num_rows_removed, 1);
    CHECK(m.memory_used_bytes > 0);
    CHECK(m.all_updates_time_ms >= 0 && m.commit_time_ms >= 0);
    for (int i = 1; i < m.ncustom; i++) CHECK(strcmp(m.custom[i - 1].name, m.custom[i].name) < 0);
    if (!strcmp(provider, "memory")) {
        CHECK_INT(m.ncustom, 3);
        CHECK_INT(store_metric_get(&m, "loadedMapCacheHitCount"), 1);  /* load(1) after commit */
        CHECK_INT(store_metric_get(&m, "loadedMapCacheMissCount"), 1); /* load(0) */
        CHECK_INT(store_metric_get(&m, "stateOnCurrentVersionSizeBytes"), 7); /* a11 c3 d4 */
    } else {
        CHECK_INT(store_metric_get(&m, "rocksdbPutCount"), 3);
        CHECK_INT(store_metric_get(&m, "rocksdbGetCount"), 1);
        CHECK(store_metric_get(&m, "rocksdbSstFileSize") > 0);
        CHECK(store_metric_get(&m, "rocksdbTotalBytesWrittenByFlush") == 0);
        CHECK(store_metric_get(&m, "rocksdbReadBlockCacheMissCount") >= 0);
    }
    commit(s);
    store_metrics(s, &m);
    CHECK_INT(m.num_keys, 3);
    if (!strcmp(provider, "rocksdb")) {
        CHECK(store_metric_get(&m, "rocksdbTotalBytesWrittenByFlush") > 0);
        CHECK(store_metric_get(&m, "rocksdbFilesCopied") >= 1); /* the new SST */
        CHECK(store_metric_get(&m, "rocksdbFilesReused") >= 1); /* version 1's SST */
    }
    load(s, 2); /* counters reset per batch */
    store_metrics(s, &m);
    CHECK_INT(m.num_rows_updated, 0);
    CHECK_INT(m.num_rows_removed, 0);
    CHECK_INT(m.num_keys, 3);
    load(s, 1);
    store_metrics(s, &m);
    CHECK_INT(m.num_keys, 2);
    store_close(s);
    rm_tmp();
}

TEST(timings_are_extrapolated_from_samples)
{
    store_t *s = open_store("memory", 0, 0, NULL, 0, 0);
    load(s, 0);
    sl_error_t err;
    int64_t t0 = sl_mono_ns();
    for (uint32_t i = 0; i < 300000; i++) {
        unsigned char k[4] = {(unsigned char)(i >> 24), (unsigned char)(i >> 16),
                              (unsigned char)(i >> 8), (unsigned char)i};
        CHECK_INT(store_put(s, k, 4, k, 4, &err), 0);
    }
    int64_t wall_ms = (sl_mono_ns() - t0) / 1000000;
    store_metrics_t m;
    store_metrics(s, &m);
    CHECK_INT(m.num_rows_updated, 300000);
    /* The estimate is positive, and bounded by the sampling: the sampled
     * calls (one in 8) all ran within the wall time, so 8 times their sum
     * cannot exceed 8 times it (a tighter bound fails when the machine is
     * busy and a sampled call is preempted). */
    CHECK(m.all_updates_time_ms > 0);
    CHECK(m.all_updates_time_ms <= 8 * wall_ms + 8);
    CHECK_INT(store_delete_range(s, NULL, 0, NULL, 0, &err), 300000);
    store_metrics(s, &m);
    CHECK_INT(m.num_rows_removed, 300000);
    store_close(s);
    rm_tmp();
}

STORE_TEST(key_count_follows_get_then_change)
{
    store_t *s = open_store(provider, 0, 0, NULL, 0, 0);
    load(s, 0);
    store_metrics_t m;
    CHECK(get(s, "k") == NULL);
    put(s, "k", "1"); /* absent when looked up: +1 */
    CHECK_STR(get(s, "k"), "1");
    put(s, "k", "2"); /* present: +0 */
    CHECK(get(s, "other") == NULL);
    put(s, "k", "3"); /* the last lookup was another key */
    CHECK_STR(get(s, "k"), "3");
    CHECK_INT(del(s, "k"), 1);
    CHECK_INT(del(s, "k"), 0);
    put(s, "k", "4");
    store_metrics(s, &m);
    CHECK_INT(m.num_keys, 1);
    commit(s);
    load(s, 1);
    CHECK_STR(get(s, "k"), "4");
    CHECK_INT(del(s, "k"), 1);
    store_metrics(s, &m);
    CHECK_INT(m.num_keys, 0);
    store_abort(s);
    load(s, 1);
    store_metrics(s, &m);
    CHECK_INT(m.num_keys, 1);
    store_close(s);
    rm_tmp();
}

/* ---- schema and options ---- */

/* A start compares without recording: nothing is written before a batch. */
TEST(schema_compare_reads_only)
{
    const char *root = tmpdir();
    sl_error_t err;
    sl_arena_t *a = sl_arena_new("test");
    char *k, *v;
    CHECK_INT(store_schema_compare(root, 0, NULL, "k BIGINT", "n BIGINT", &err), 0);
    CHECK_INT(store_schema_read(root, 0, NULL, a, &k, &v, &err), 0);
    CHECK_INT(store_schema_check(root, 0, NULL, "k BIGINT", "n BIGINT", &err), 1);
    CHECK_INT(store_schema_compare(root, 0, NULL, "k BIGINT", "n BIGINT", &err), 0);
    CHECK_INT(store_schema_compare(root, 0, NULL, "k BIGINT, j TEXT", "n BIGINT", &err), -1);
    CHECK_STR(err.sqlstate, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE);
    CHECK(strstr(err.message, "checkpoint (k BIGINT), query now (k BIGINT, j TEXT)") != NULL);
    CHECK_INT(store_schema_read(root, 0, NULL, a, &k, &v, &err), 1);
    CHECK_STR(k, "k BIGINT");
    sl_arena_free(a);
    rm_tmp();
}

TEST(schema_records)
{
    const char *root = tmpdir();
    sl_error_t err;
    const char *key = "struct<window:struct<start:timestamp,end:timestamp>,campaign_id:string>";
    const char *val = "struct<count:bigint>";
    CHECK_INT(store_schema_check(root, 0, NULL, key, val, &err), 1);
    CHECK_INT(store_schema_check(root, 0, NULL, key, val, &err), 0);
    CHECK_INT(store_schema_check(root, 0, NULL, "struct<campaign_id:string>", val, &err), -1);
    CHECK_STR(err.sqlstate, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE);
    CHECK(strstr(err.message, "key schema of stateful operator 0 changed") != NULL);
    CHECK(strstr(err.detail, key) && strstr(err.detail, "struct<campaign_id:string>"));
    CHECK(err.hint[0] != '\0');
    CHECK_INT(store_schema_check(root, 0, NULL, key, "struct<count:int>", &err), -1);
    CHECK(strstr(err.message, "value schema") && !strstr(err.message, "key"));
    CHECK(strstr(err.detail, "struct<count:bigint>") && strstr(err.detail, "struct<count:int>"));
    CHECK_INT(store_schema_check(root, 0, NULL, "k2", "v2", &err), -1);
    CHECK(strstr(err.message, "key and value schemas") != NULL);
    /* named stores and other operators are separate records */
    CHECK_INT(store_schema_check(root, 0, "left-keyToNumValues", "k\"q", "v\nl", &err), 1);
    CHECK_INT(store_schema_check(root, 0, "left-keyToNumValues", "k\"q", "v\nl", &err), 0);
    CHECK_INT(store_schema_check(root, 1, NULL, "k", "v", &err), 1);
    sl_arena_t *a = sl_arena_new("test");
    char *k, *v;
    CHECK_INT(store_schema_read(root, 0, "left-keyToNumValues", a, &k, &v, &err), 1);
    CHECK_STR(k, "k\"q");
    CHECK_STR(v, "v\nl");
    CHECK_INT(store_schema_read(root, 7, NULL, a, &k, &v, &err), 0);
    CHECK_INT(store_schema_write(root, 1, NULL, "k", "v", &err), -1);
    sl_arena_free(a);
    rm_tmp();
}

typedef struct schema_race {
    const char *root;
    const char *key;
    int rc;
} schema_race_t;

static void *schema_race_task(void *arg)
{
    schema_race_t *r = arg;
    sl_error_t err;
    r->rc = store_schema_check(r->root, 3, NULL, r->key, "v", &err);
    return NULL;
}

TEST(schema_check_from_every_partition_at_once)
{
    for (int round = 0; round < 20; round++) {
        char root[300];
        snprintf(root, sizeof root, "%s/%d", tmpdir(), round);
        pthread_t t[8];
        schema_race_t r[8];
        for (int i = 0; i < 8; i++) {
            r[i] = (schema_race_t){root, i == 7 && round % 2 ? "other" : "k", -9};
            CHECK_INT(pthread_create(&t[i], NULL, schema_race_task, &r[i]), 0);
        }
        int written = 0, matched = 0, refused = 0;
        for (int i = 0; i < 8; i++) {
            pthread_join(t[i], NULL);
            written += r[i].rc == 1;
            matched += r[i].rc == 0;
            refused += r[i].rc == -1;
        }
        CHECK_INT(written, 1);
        /* with a differing task: it is refused unless its record won */
        CHECK_INT(refused, round % 2 ? (r[7].rc == 1 ? 7 : 1) : 0);
        CHECK_INT(written + matched + refused, 8);
    }
    rm_tmp();
}

TEST(unknown_provider_is_refused)
{
    store_options_t opt = {"leveldb", 0, 0, 0};
    sl_error_t err;
    CHECK(store_open(tmpdir(), 0, 0, NULL, &opt, &err) == NULL);
    CHECK_STR(err.sqlstate, SL_ERR_INVALID_PARAMETER_VALUE);
    CHECK(strstr(err.message, "leveldb") != NULL);
    CHECK(store_provider("memory") && store_provider("rocksdb") && !store_provider("x"));
    rm_tmp();
}

TEST(provider_mismatch_is_refused)
{
    store_t *s = open_store("memory", 0, 0, NULL, 0, 0);
    load(s, 0);
    commit(s);
    store_close(s);
    s = open_store("rocksdb", 0, 1, NULL, 0, 0);
    load(s, 0);
    commit(s);
    store_close(s);
    store_options_t opt = {"rocksdb", 0, 0, 0};
    sl_error_t err;
    CHECK(store_open(tmpdir(), 0, 0, NULL, &opt, &err) == NULL);
    CHECK(strstr(err.message, "written by the \"memory\" provider") != NULL);
    opt.provider = "memory";
    CHECK(store_open(tmpdir(), 0, 1, NULL, &opt, &err) == NULL);
    CHECK(strstr(err.message, "written by the \"rocksdb\" provider") != NULL);
    rm_tmp();
}

STORE_TEST(named_stores_are_separate)
{
    store_t *l = open_store(provider, 0, 1, "left-keyToNumValues", 0, 0);
    store_t *r = open_store(provider, 0, 1, "right-keyToNumValues", 0, 0);
    load(l, 0);
    load(r, 0);
    put(l, "k", "left");
    put(r, "k", "right");
    commit(l);
    commit(r);
    CHECK_STR(get(l, "k"), "left");
    CHECK_STR(get(r, "k"), "right");
    char path[512];
    snprintf(path, sizeof path, "%s/0/1/left-keyToNumValues", tmpdir());
    CHECK_STR(store_dir(l), path);
    store_close(l);
    store_close(r);
    rm_tmp();
}

TEST(map_append_falls_back_when_out_of_order)
{
    smap_t *m = smap_new(7);
    char k[8];
    for (int i = 0; i < 1000; i += 2) { /* sorted bulk load */
        snprintf(k, sizeof k, "%04d", i);
        smap_append(m, k, 4, k, 4);
    }
    smap_append(m, "0998", 4, "dup", 3); /* equal to the last key: replaces */
    smap_append(m, "0001", 4, "x", 1);   /* out of order: general insert */
    smap_delete(m, "0100", 4);
    smap_append(m, "9999", 4, "y", 1); /* after a delete: general insert */
    CHECK_INT(smap_count(m), 501);
    size_t kl, vl, n = 0;
    const char *prev = NULL;
    size_t prevl = 0;
    for (smap_node_t *x = smap_seek(m, NULL, 0, 0); x; x = smap_next(x), n++) {
        const char *key = smap_key(x, &kl);
        if (prev) CHECK(smap_keycmp(prev, prevl, key, kl) < 0);
        prev = key;
        prevl = kl;
    }
    CHECK_INT(n, 501);
    const char *v = smap_value(smap_find(m, "0998", 4), &vl);
    CHECK(vl == 3 && !memcmp(v, "dup", 3));
    CHECK(smap_find(m, "0001", 4) && smap_find(m, "9999", 4) && !smap_find(m, "0100", 4));
    smap_clear(m);
    smap_append(m, "b", 1, "", 0); /* appending works again after a clear */
    smap_append(m, "a", 1, "", 0);
    CHECK(smap_seek(m, NULL, 0, 0) == smap_find(m, "a", 1));
    smap_free(m);
}

/* Keys for the lazy-ordering test: short ones, ones with zero bytes (whose
 * 8-byte sort prefix ties with a shorter key's) and long ones sharing their
 * first 8 bytes, so that both the prefix and the full comparison decide. */
static size_t lazy_key(unsigned i, char *k)
{
    switch (i % 4) {
    case 0: return (size_t)snprintf(k, 32, "%u", i);
    case 1:
        memset(k, 0, 8);
        memcpy(k, "ab", 2);
        k[4] = (char)(i >> 8);
        k[5] = (char)i;
        return 6 + (i % 3);
    case 2: return (size_t)snprintf(k, 32, "sharedprefix-%08u", i * 7919u % 100003u);
    default:
        memset(k, 0, 12);
        k[8] = (char)(i >> 8);
        k[9] = (char)i;
        return 10 + (i % 3);
    }
}

static int bytes_cmp(const void *a, const void *b)
{
    const char *const *x = a, *const *y = b;
    return smap_keycmp(*x + 1, (unsigned char)**x, *y + 1, (unsigned char)**y);
}

/* Every entry of `m` in order, checked against `want` (sorted, each a
 * length byte then the key); returns how many. */
static size_t check_order(smap_t *m, char **want, size_t nwant)
{
    size_t n = 0, kl;
    for (smap_node_t *x = smap_seek(m, NULL, 0, 0); x; x = smap_next(x), n++) {
        const char *key = smap_key(x, &kl);
        CHECK(n < nwant);
        CHECK(kl == (unsigned char)want[n][0] && !memcmp(key, want[n] + 1, kl));
    }
    CHECK_INT(n, nwant);
    return n;
}

TEST(map_lazy_ordering_matches_a_sorted_model)
{
    smap_t *m = smap_new(11);
    enum { N = 3000 };
    static char buf[N][33];
    char *want[N];
    size_t nwant = 0;
    /* 1: a bulk of inserts with no scan between (the sort + merge path) */
    for (unsigned i = 0; i < 2000; i++) {
        size_t kl = lazy_key(i, buf[i] + 1);
        buf[i][0] = (char)kl;
        smap_put(m, buf[i] + 1, kl, buf[i] + 1, kl);
        want[nwant++] = buf[i];
    }
    /* deleting entries not linked yet, and a point get before any scan */
    for (unsigned i = 0; i < 2000; i += 10)
        CHECK_INT(smap_delete(m, buf[i] + 1, (unsigned char)buf[i][0]), 1);
    CHECK(smap_find(m, buf[5] + 1, (unsigned char)buf[5][0]) != NULL);
    CHECK(smap_find(m, buf[10] + 1, (unsigned char)buf[10][0]) == NULL);
    nwant = 0;
    for (unsigned i = 0; i < 2000; i++)
        if (i % 10) want[nwant++] = buf[i];
    qsort(want, nwant, sizeof *want, bytes_cmp);
    CHECK_INT(smap_count(m), nwant);
    check_order(m, want, nwant);
    /* 2: a few inserts into a large linked map (one search each), with a
     * seek to a pending key and a range delete that must see them */
    for (unsigned i = 2000; i < 2030; i++) {
        size_t kl = lazy_key(i, buf[i] + 1);
        buf[i][0] = (char)kl;
        smap_insert(m, buf[i] + 1, kl, "v", 1);
        want[nwant++] = buf[i];
    }
    qsort(want, nwant, sizeof *want, bytes_cmp);
    size_t kl;
    smap_node_t *at = smap_seek(m, buf[2001] + 1, (unsigned char)buf[2001][0], 0);
    CHECK(at && !memcmp(smap_key(at, &kl), buf[2001] + 1, kl) && kl == (unsigned char)buf[2001][0]);
    check_order(m, want, nwant);
    /* 3: inserts, then a range delete of [want[100], want[200]) */
    for (unsigned i = 2030; i < N; i++) {
        size_t kn = lazy_key(i, buf[i] + 1);
        buf[i][0] = (char)kn;
        if (!smap_find(m, buf[i] + 1, kn)) {
            smap_insert(m, buf[i] + 1, kn, "w", 1);
            want[nwant++] = buf[i];
        }
    }
    qsort(want, nwant, sizeof *want, bytes_cmp);
    char lo[33], hi[33];
    memcpy(lo, want[100], sizeof lo);
    memcpy(hi, want[200], sizeof hi);
    CHECK_INT(smap_delete_range(m, lo + 1, (unsigned char)lo[0], hi + 1, (unsigned char)hi[0], NULL,
                                NULL),
              100);
    memmove(&want[100], &want[200], sizeof *want * (nwant - 200));
    nwant -= 100;
    check_order(m, want, nwant);
    smap_free(m);
}

/* ---- randomized model test ---- */

typedef struct model {
    int n;
    char *k[512];
    size_t kl[512];
    char *v[512];
    size_t vl[512];
} model_t;

static int model_find(const model_t *m, const char *k, size_t kl, int *at)
{
    int lo = 0, hi = m->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        size_t n = kl < m->kl[mid] ? kl : m->kl[mid];
        int c = memcmp(m->k[mid], k, n);
        if (!c) c = (m->kl[mid] > kl) - (m->kl[mid] < kl);
        if (c == 0) {
            *at = mid;
            return 1;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    *at = lo;
    return 0;
}

static void model_put(model_t *m, const char *k, size_t kl, const char *v, size_t vl)
{
    int at;
    if (!model_find(m, k, kl, &at)) {
        CHECK(m->n < 512);
        memmove(&m->k[at + 1], &m->k[at], sizeof(char *) * (size_t)(m->n - at));
        memmove(&m->kl[at + 1], &m->kl[at], sizeof(size_t) * (size_t)(m->n - at));
        memmove(&m->v[at + 1], &m->v[at], sizeof(char *) * (size_t)(m->n - at));
        memmove(&m->vl[at + 1], &m->vl[at], sizeof(size_t) * (size_t)(m->n - at));
        m->n++;
        m->k[at] = sl_xstrndup(k, kl);
        m->kl[at] = kl;
    } else {
        free(m->v[at]);
    }
    m->v[at] = sl_xstrndup(v, vl);
    m->vl[at] = vl;
}

static int model_del(model_t *m, const char *k, size_t kl)
{
    int at;
    if (!model_find(m, k, kl, &at)) return 0;
    free(m->k[at]);
    free(m->v[at]);
    memmove(&m->k[at], &m->k[at + 1], sizeof(char *) * (size_t)(m->n - at - 1));
    memmove(&m->kl[at], &m->kl[at + 1], sizeof(size_t) * (size_t)(m->n - at - 1));
    memmove(&m->v[at], &m->v[at + 1], sizeof(char *) * (size_t)(m->n - at - 1));
    memmove(&m->vl[at], &m->vl[at + 1], sizeof(size_t) * (size_t)(m->n - at - 1));
    m->n--;
    return 1;
}

static void model_clear(model_t *m)
{
    while (m->n) model_del(m, m->k[0], m->kl[0]);
}

static void model_copy(model_t *dst, const model_t *src)
{
    model_clear(dst);
    for (int i = 0; i < src->n; i++) model_put(dst, src->k[i], src->kl[i], src->v[i], src->vl[i]);
}

static uint64_t rng_state = 88172645463325252ULL;
static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

/* Keys from a tiny alphabet with the bytes that break naive orderings. */
static size_t random_key(char *k)
{
    static const char alphabet[] = {'\0', '\x01', 'a', 'b', '\x7f', '\x80', '\xff'};
    size_t len = rnd(5);
    for (size_t i = 0; i < len; i++) k[i] = alphabet[rnd(sizeof alphabet)];
    return len;
}

static int kcmp(const char *a, size_t al, const char *b, size_t bl)
{
    size_t n = al < bl ? al : bl;
    int c = n ? memcmp(a, b, n) : 0;
    return c ? c : (al > bl) - (al < bl);
}

/* Compares a random range or prefix scan, point gets and the key count. */
static void check_against_model(store_t *s, const model_t *m)
{
    sl_error_t err;
    char lo[8], hi[8];
    size_t lol = random_key(lo), hil = random_key(hi);
    int use_lo = rnd(2), use_hi = rnd(2), prefix = rnd(3) == 0;
    store_iter_t *it =
        prefix ? store_iter_prefix(s, lo, lol, &err)
               : store_iter_range(s, use_lo ? lo : NULL, lol, use_hi ? hi : NULL, hil, &err);
    CHECK(it != NULL);
    const void *k, *v;
    size_t kl, vl;
    for (int i = 0; i < m->n; i++) {
        const char *mk = m->k[i];
        size_t mkl = m->kl[i];
        int in = prefix ? mkl >= lol && (lol == 0 || !memcmp(mk, lo, lol))
                        : (!use_lo || kcmp(mk, mkl, lo, lol) >= 0) &&
                              (!use_hi || kcmp(mk, mkl, hi, hil) < 0);
        if (!in) continue;
        CHECK_INT(store_iter_next(it, &k, &kl, &v, &vl, &err), 1);
        CHECK(kl == mkl && (kl == 0 || !memcmp(k, mk, kl)));
        CHECK(vl == m->vl[i] && (vl == 0 || !memcmp(v, m->v[i], vl)));
    }
    CHECK_INT(store_iter_next(it, &k, &kl, &v, &vl, &err), 0);
    store_iter_close(it);
    for (int i = 0; i < 5; i++) {
        char key[8];
        size_t klen = random_key(key);
        int at;
        int present = model_find(m, key, klen, &at);
        CHECK_INT(store_get(s, key, klen, &v, &vl, &err), present);
        if (present) CHECK(vl == m->vl[at] && (vl == 0 || !memcmp(v, m->v[at], vl)));
    }
    store_metrics_t met;
    store_metrics(s, &met);
    CHECK_INT(met.num_keys, m->n);
}

static void random_changes(store_t *s, model_t *m)
{
    sl_error_t err;
    int nops = (int)rnd(30);
    for (int i = 0; i < nops; i++) {
        char k[8], v[32];
        size_t kl = random_key(k), vl = rnd(24);
        for (size_t j = 0; j < vl; j++) v[j] = (char)('A' + rnd(26));
        int op = (int)rnd(10);
        if (op < 6) {
            CHECK_INT(store_put(s, k, kl, v, vl, &err), 0);
            model_put(m, k, kl, v, vl);
        } else if (op < 9) {
            CHECK_INT(store_delete(s, k, kl, &err), model_del(m, k, kl));
        } else {
            char hi[8];
            size_t hil = random_key(hi);
            int64_t n = store_delete_range(s, k, kl, hi, hil, &err);
            int64_t expect = 0;
            for (int j = m->n - 1; j >= 0; j--)
                if (kcmp(m->k[j], m->kl[j], k, kl) >= 0 && kcmp(m->k[j], m->kl[j], hi, hil) < 0)
                    expect += model_del(m, m->k[j], m->kl[j]);
            CHECK_INT(n, expect);
        }
    }
}

STORE_TEST(randomized_model)
{
    static model_t history[64]; /* history[v] = committed version v (0 = empty) */
    const int retain = 8;
    store_t *s = open_store(provider, 5, 0, NULL, retain, 3);
    int64_t cur = 0, floor = 0; /* versions >= floor survive the retention so far */
    load(s, 0);
    model_t work = {0};
    int rounds = !strcmp(provider, "rocksdb") ? 80 : 300;
    for (int round = 0; round < rounds; round++) {
        random_changes(s, &work);
        check_against_model(s, &work);
        int action = (int)rnd(20);
        if (cur == 63) { /* history full: start over in a fresh directory */
            store_close(s);
            rm_tmp();
            s = open_store(provider, 5, 0, NULL, retain, 3);
            cur = floor = 0;
            load(s, 0);
            model_clear(&work);
        } else if (action < 14) { /* commit (dropping versions after cur) and go on */
            commit(s);
            model_copy(&history[++cur], &work);
            load(s, cur);
        } else if (action < 16) {
            store_abort(s);
            load(s, cur);
            model_copy(&work, &history[cur]);
        } else { /* load an older retained version (a re-run), maybe after reopening */
            int64_t v = floor + (int64_t)rnd((uint32_t)(cur - floor + 1));
            if (rnd(2)) {
                store_close(s);
                s = open_store(provider, 5, 0, NULL, retain, 3);
            }
            load(s, v);
            cur = v;
            model_copy(&work, &history[v]);
        }
        check_against_model(s, &work);
        if (rnd(3) == 0) {
            OK(store_maintenance(s, ERR));
            if (cur - retain > floor) floor = cur - retain;
        }
    }
    model_clear(&work);
    store_close(s);
    rm_tmp();
}
