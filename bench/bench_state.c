/* bench_state: throughput of the state store providers on an aggregation-
 * like workload, and the memory provider's map choice.
 *
 *   build/obj/bench/bench_state [-p memory|rocksdb|all] [-n keys] [-b batches]
 *                               [-u updates-per-batch] [-d dir]
 *
 * Per provider: batch 0 inserts `keys` entries (16-byte memcomparable keys:
 * group id | window start, 24-byte values); then `batches` batches each
 * load the previous version, get+put `updates` random existing keys, delete
 * and insert 1% of them, commit and run maintenance; then a full scan,
 * prefix scans, and a restart (reopen + load of the newest version).
 * With the memory provider it also compares point lookups through the hash
 * index with lookups through the skip list alone (why both exist).
 * Prints one line per figure; compare providers within one run. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "common/buf.h"
#include "state/state_int.h"
#include "state/store.h"
#include "state/store_map.h"

typedef struct bench_cfg {
    const char *provider;
    int64_t keys;
    int batches;
    int64_t updates;
    const char *dir;
} bench_cfg_t;

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double now_s(void)
{
    return (double)sl_mono_ns() / 1e9;
}

static void die(const char *what, const sl_error_t *err)
{
    fprintf(stderr, "bench_state: %s: %s %s\n", what, err->message, err->detail);
    exit(1);
}

/* Key i: 8-byte big-endian group id, then an 8-byte window start. */
static void make_key(int64_t i, unsigned char k[16])
{
    uint64_t g = (uint64_t)i / 4, w = (uint64_t)(i % 4) * 3600000;
    for (int b = 0; b < 8; b++) {
        k[b] = (unsigned char)(g >> (56 - 8 * b));
        k[8 + b] = (unsigned char)(w >> (56 - 8 * b));
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void load_initial(store_t *s, const bench_cfg_t *c)
{
    sl_error_t err;
    unsigned char k[16], v[24] = {0};
    double t0 = now_s();
    if (store_load(s, 0, &err) < 0) die("load", &err);
    for (int64_t i = 0; i < c->keys; i++) {
        make_key(i, k);
        memcpy(v, &i, sizeof i);
        if (store_put(s, k, 16, v, 24, &err) < 0) die("put", &err);
    }
    double t1 = now_s();
    if (store_commit(s, &err) < 0) die("commit", &err);
    double t2 = now_s();
    printf("%-8s initial    %" PRId64 " inserts: %.0f puts/s, commit %.1f ms\n", c->provider,
           c->keys, (double)c->keys / (t1 - t0), (t2 - t1) * 1e3);
}

/* One batch: get+put `updates` keys, delete and insert 1% of them. */
static void one_batch(store_t *s, const bench_cfg_t *c, int64_t *next_key)
{
    sl_error_t err;
    unsigned char k[16], v[24];
    const void *old;
    size_t ol;
    for (int64_t j = 0; j < c->updates; j++) {
        make_key((int64_t)(next_rand() % (uint64_t)*next_key), k);
        int rc = store_get(s, k, 16, &old, &ol, &err);
        if (rc < 0) die("get", &err);
        memset(v, 0, sizeof v);
        if (rc) memcpy(v, old, ol < 24 ? ol : 24);
        v[0]++;
        if (store_put(s, k, 16, v, 24, &err) < 0) die("put", &err);
        if (j % 100 == 0) {
            if (store_delete(s, k, 16, &err) < 0) die("delete", &err);
            make_key((*next_key)++, k);
            if (store_put(s, k, 16, v, 24, &err) < 0) die("put", &err);
        }
    }
}

static void steady_batches(store_t *s, const bench_cfg_t *c)
{
    sl_error_t err;
    int64_t next_key = c->keys;
    double *commit_ms = calloc((size_t)c->batches, sizeof *commit_ms), work = 0, maint = 0;
    for (int b = 0; b < c->batches; b++) {
        double t0 = now_s();
        if (store_load(s, b + 1, &err) < 0) die("load", &err);
        one_batch(s, c, &next_key);
        double t1 = now_s();
        if (store_commit(s, &err) < 0) die("commit", &err);
        double t2 = now_s();
        if (store_maintenance(s, &err) < 0) die("maintenance", &err);
        work += t1 - t0;
        maint += now_s() - t2;
        commit_ms[b] = (t2 - t1) * 1e3;
    }
    qsort(commit_ms, (size_t)c->batches, sizeof *commit_ms, cmp_double);
    printf("%-8s batches    %d x %" PRId64 " get+put: %.0f get+put/s, commit median %.1f ms "
           "p90 %.1f ms, maintenance %.1f ms/batch\n",
           c->provider, c->batches, c->updates, (double)c->batches * (double)c->updates / work,
           commit_ms[c->batches / 2], commit_ms[c->batches * 9 / 10], maint * 1e3 / c->batches);
    store_metrics_t m;
    store_metrics(s, &m);
    printf("%-8s state      %" PRId64 " keys, memoryUsedBytes %" PRId64 "\n", c->provider,
           m.num_keys, m.memory_used_bytes);
    free(commit_ms);
}

static void scans(store_t *s, const bench_cfg_t *c)
{
    sl_error_t err;
    const void *k, *v;
    size_t kl, vl;
    double t0 = now_s();
    store_iter_t *it = store_iter_range(s, NULL, 0, NULL, 0, &err);
    int64_t n = 0;
    while (store_iter_next(it, &k, &kl, &v, &vl, &err) > 0) n++;
    store_iter_close(it);
    double t1 = now_s();
    int64_t found = 0;
    for (int i = 0; i < 1000; i++) {
        unsigned char key[16];
        make_key((int64_t)(next_rand() % (uint64_t)c->keys), key);
        it = store_iter_prefix(s, key, 8, &err); /* every window of one group */
        while (store_iter_next(it, &k, &kl, &v, &vl, &err) > 0) found++;
        store_iter_close(it);
    }
    double t2 = now_s();
    printf("%-8s scan       full %" PRId64 " keys: %.0f keys/s; 1000 prefix scans (%" PRId64
           " keys): %.1f us/scan\n",
           c->provider, n, (double)n / (t1 - t0), found, (t2 - t1) * 1e6 / 1000);
}

static void restart(const bench_cfg_t *c, const store_options_t *opt)
{
    sl_error_t err;
    double t0 = now_s();
    store_t *s = store_open(c->dir, 0, 0, c->provider, opt, &err);
    if (!s || store_load(s, c->batches + 1, &err) < 0) die("reopen", &err);
    double t1 = now_s();
    store_metrics_t m;
    store_metrics(s, &m);
    printf("%-8s restart    reopen + load version %d (%" PRId64 " keys): %.1f ms\n", c->provider,
           c->batches + 1, m.num_keys, (t1 - t0) * 1e3);
    store_close(s);
}

static void run_provider(const bench_cfg_t *c)
{
    store_options_t opt = {c->provider, 0, 0, 0};
    sl_error_t err;
    store_t *s = store_open(c->dir, 0, 0, c->provider, &opt, &err);
    if (!s) die("open", &err);
    load_initial(s, c);
    steady_batches(s, c);
    scans(s, c);
    store_close(s);
    restart(c, &opt);
}

/* Point lookups through the hash index vs the skip list alone. */
static void map_lookup_compare(int64_t keys)
{
    smap_t *m = smap_new(42);
    unsigned char k[16], v[24] = {0};
    for (int64_t i = 0; i < keys; i++) {
        make_key(i, k);
        smap_insert(m, k, 16, v, 24);
    }
    int64_t n = keys < 1000000 ? keys : 1000000, hits = 0;
    double t0 = now_s();
    for (int64_t i = 0; i < n; i++) {
        make_key((int64_t)(next_rand() % (uint64_t)keys), k);
        hits += smap_find(m, k, 16) != NULL;
    }
    double t1 = now_s();
    for (int64_t i = 0; i < n; i++) {
        make_key((int64_t)(next_rand() % (uint64_t)keys), k);
        hits += smap_seek(m, k, 16, 0) != NULL;
    }
    double t2 = now_s();
    printf("map      lookups    %" PRId64 " keys: hash index %.0f ns/get, skip list %.0f ns/get "
           "(%" PRId64 " hits); %zu bytes, %.1f bytes/entry\n",
           keys, (t1 - t0) * 1e9 / (double)n, (t2 - t1) * 1e9 / (double)n, hits, smap_memory(m),
           (double)smap_memory(m) / (double)keys);
    smap_free(m);
}

int main(int argc, char **argv)
{
    bench_cfg_t c = {"all", 1000000, 20, 100000, NULL};
    int opt;
    while ((opt = getopt(argc, argv, "p:n:b:u:d:")) != -1) {
        if (opt == 'p') c.provider = optarg;
        else if (opt == 'n') c.keys = atoll(optarg);
        else if (opt == 'b') c.batches = atoi(optarg);
        else if (opt == 'u') c.updates = atoll(optarg);
        else if (opt == 'd') c.dir = optarg;
        else {
            fprintf(stderr,
                    "usage: %s [-p memory|rocksdb|all] [-n keys] [-b batches] "
                    "[-u updates] [-d dir]\n",
                    argv[0]);
            return 2;
        }
    }
    if (c.keys < 1 || c.batches < 1 || c.updates < 1) return 2;
    char tmpl[] = "/tmp/sluice-bench-state-XXXXXX";
    if (!c.dir && !(c.dir = mkdtemp(tmpl))) return 1;
    const char *all[] = {"memory", "rocksdb"};
    for (int i = 0; i < 2; i++) {
        if (strcmp(c.provider, "all") && strcmp(c.provider, all[i])) continue;
        bench_cfg_t pc = c;
        pc.provider = all[i];
        run_provider(&pc);
    }
    if (!strcmp(c.provider, "all") || !strcmp(c.provider, "memory")) map_lookup_compare(c.keys);
    sl_error_t err;
    if (c.dir == tmpl) sl_fs_rmtree(tmpl, &err);
    return 0;
}
