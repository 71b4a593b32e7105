/* libFuzzer target for the files a restart reads back from a checkpoint: a
 * damaged or hand-edited file must give an error naming it, never a crash
 * of the daemon (which would stop every query). The first byte picks the
 * file the rest becomes, in a fresh checkpoint directory:
 *   0  offsets/0         read with ckpt_offsets_read, then recovery
 *   1  commits/0         (next to a valid offsets/0) ckpt_commit_read, recovery
 *   2  metadata          ckpt_open
 *   3  state/0/0/1.delta     of the memory store: load version 1, scan it
 *   4  state/0/0/1.snapshot  the same
 * Invariants: no crash (ASan, UBSan); an error has a SQLSTATE other than
 * XX000 and a message. `make test` replays tests/fuzz/corpus/checkpoint. */
#include "tests/fuzz/fuzz.h"
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "state/checkpoint.h"
#include "state/store.h"

static void check(int ok)
{
    if (!ok) abort(); /* a broken invariant: libFuzzer saves the input */
}

static void check_error(const sl_error_t *err)
{
    check(strlen(err->sqlstate) == 5 && strcmp(err->sqlstate, "XX000") != 0 && err->message[0]);
}

static char ROOT[64];

static void put_file(const char *dir, const char *name, const void *p, size_t n)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    check(fd >= 0);
    check(n == 0 || write(fd, p, n) == (ssize_t)n);
    close(fd);
}

static void remove_root(void)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", ROOT);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", ROOT);
}

/* A fresh checkpoint directory per input (the previous one removed); all of
 * them under one temporary directory removed at exit. */
static const char *fresh_dir(void)
{
    static int seq;
    static char dir[128];
    char cmd[160];
    if (!ROOT[0]) {
        snprintf(ROOT, sizeof ROOT, "/tmp/sluice-fuzz-ckpt-XXXXXX");
        check(mkdtemp(ROOT) != NULL);
        atexit(remove_root);
    }
    if (dir[0]) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        check(system(cmd) == 0);
    }
    snprintf(dir, sizeof dir, "%s/c%d", ROOT, seq++);
    check(mkdir(dir, 0755) == 0);
    return dir;
}

static void logs(int which, const uint8_t *p, size_t n)
{
    const char *dir = fresh_dir();
    sl_error_t err;
    sl_error_clear(&err);
    ckpt_t *c = ckpt_open(dir, &err);
    check(c != NULL);
    char sub[192];
    snprintf(sub, sizeof sub, "%s/%s", dir, which == 0 ? "offsets" : "commits");
    if (which == 1) {
        ckpt_offsets_t o = {.has_meta = 1, .nsources = 1, .sources = (const char *[]){"{\"a\":1}"}};
        check(ckpt_offsets_write(c, 0, &o, &err) == 0);
    }
    put_file(sub, "0", p, n);
    sl_arena_t *a = sl_arena_new("fuzz");
    int rc;
    if (which == 0) {
        ckpt_offsets_t o;
        rc = ckpt_offsets_read(c, 0, a, &o, &err);
    } else {
        int64_t wm;
        rc = ckpt_commit_read(c, 0, &wm, &err);
    }
    if (rc < 0) check_error(&err);
    ckpt_recovery_t r;
    sl_error_clear(&err);
    if (ckpt_recover(c, a, &r, &err) < 0) check_error(&err);
    sl_arena_free(a);
    ckpt_close(c);
}

static void metadata(const uint8_t *p, size_t n)
{
    const char *dir = fresh_dir();
    put_file(dir, "metadata", p, n);
    sl_error_t err;
    sl_error_clear(&err);
    ckpt_t *c = ckpt_open(dir, &err);
    if (!c) {
        check_error(&err);
        return;
    }
    check(ckpt_query_id(c) != NULL);
    ckpt_close(c);
}

static void state_file(const char *name, const uint8_t *p, size_t n)
{
    const char *dir = fresh_dir();
    char sdir[192];
    snprintf(sdir, sizeof sdir, "%s/0", dir);
    check(mkdir(sdir, 0755) == 0);
    snprintf(sdir, sizeof sdir, "%s/0/0", dir);
    check(mkdir(sdir, 0755) == 0);
    put_file(sdir, name, p, n);
    sl_error_t err;
    sl_error_clear(&err);
    store_options_t opt = {.provider = "memory"};
    store_t *s = store_open(dir, 0, 0, NULL, &opt, &err);
    if (!s) {
        check_error(&err);
        return;
    }
    if (store_load(s, 1, &err) < 0) {
        check_error(&err);
    } else {
        store_iter_t *it = store_iter_range(s, NULL, 0, NULL, 0, &err);
        const void *k, *v;
        size_t kl, vl;
        int rc = it ? 1 : -1;
        while (it && (rc = store_iter_next(it, &k, &kl, &v, &vl, &err)) == 1)
            check(k != NULL || kl == 0);
        if (it) store_iter_close(it);
        if (rc < 0) check_error(&err);
        store_abort(s);
    }
    store_close(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    switch (data[0] % 5) {
    case 0: logs(0, data + 1, size - 1); break;
    case 1: logs(1, data + 1, size - 1); break;
    case 2: metadata(data + 1, size - 1); break;
    case 3: state_file("1.delta", data + 1, size - 1); break;
    default: state_file("1.snapshot", data + 1, size - 1); break;
    }
    return 0;
}
