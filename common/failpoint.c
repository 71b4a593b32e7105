/* Failpoint registry: a small table of armed names behind a mutex, with an
 * atomic flag so that an unarmed process pays one load per hit. Each entry
 * either kills the process (exit, SIGSEGV) or makes a guarded I/O call fail
 * with an errno. */
#include "common/failpoint.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"

#define FP_MAX 16
#define FP_NAME_MAX 64
#define FP_MATCH_MAX 256

typedef enum fp_kind { FP_EXIT, FP_SEGV, FP_ERROR } fp_kind_t;

typedef struct fp_entry {
    char name[FP_NAME_MAX];
    char match[FP_MATCH_MAX]; /* "@text": only paths containing text ("" = any) */
    int count;                /* fire on this hit (1-based); errors also on every later one */
    int hits;                 /* hits so far */
    fp_kind_t kind;
    int error; /* FP_ERROR: the errno injected */
} fp_entry_t;

static const struct {
    const char *word;
    fp_kind_t kind;
    int error;
} fp_kinds[] = {{"segv", FP_SEGV, 0}, {"eio", FP_ERROR, EIO}, {"enospc", FP_ERROR, ENOSPC}};

static pthread_mutex_t fp_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t fp_env_once = PTHREAD_ONCE_INIT;
static atomic_int fp_armed;
static fp_entry_t fp_table[FP_MAX];
static int fp_n;

/* Parses "=kind" (the text after '='); -1 when unknown. */
static int fp_parse_kind(const char *s, size_t len, fp_entry_t *e)
{
    for (size_t i = 0; i < sizeof fp_kinds / sizeof fp_kinds[0]; i++)
        if (strlen(fp_kinds[i].word) == len && !memcmp(s, fp_kinds[i].word, len)) {
            e->kind = fp_kinds[i].kind;
            e->error = fp_kinds[i].error;
            return 0;
        }
    return -1;
}

/* Parses ":count" digits into e->count; -1 when malformed. */
static int fp_parse_count(const char *s, size_t len, fp_entry_t *e)
{
    char num[16];
    if (len == 0 || len >= sizeof num) return -1;
    memcpy(num, s, len);
    num[len] = '\0';
    char *end;
    long c = strtol(num, &end, 10);
    if (*end || c < 1 || c > 1000000000) return -1;
    e->count = (int)c;
    return 0;
}

/* Parses one "name[:count][=kind][@text]" item into `e`; -1 when malformed. */
static int fp_parse_item(const char *s, size_t len, fp_entry_t *e)
{
    memset(e, 0, sizeof *e);
    e->kind = FP_EXIT;
    e->count = 1;
    const char *at = memchr(s, '@', len);
    if (at) {
        size_t mlen = (size_t)(s + len - at - 1);
        if (mlen == 0 || mlen >= FP_MATCH_MAX) return -1;
        memcpy(e->match, at + 1, mlen);
        len = (size_t)(at - s);
    }
    const char *eq = memchr(s, '=', len);
    if (eq) {
        if (fp_parse_kind(eq + 1, (size_t)(s + len - eq - 1), e) < 0) return -1;
        len = (size_t)(eq - s);
    }
    const char *colon = memchr(s, ':', len);
    size_t nlen = colon ? (size_t)(colon - s) : len;
    if (nlen == 0 || nlen >= FP_NAME_MAX) return -1;
    memcpy(e->name, s, nlen);
    e->name[nlen] = '\0';
    return colon ? fp_parse_count(colon + 1, len - nlen - 1, e) : 0;
}

/* Parses a whole spec into `out`; returns the number of entries or -1. */
static int fp_parse(const char *spec, fp_entry_t *out)
{
    int n = 0;
    const char *p = spec;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (n == FP_MAX || fp_parse_item(p, len, &out[n]) < 0) return -1;
        n++;
        p += len + (comma ? 1 : 0);
    }
    return n;
}

static void fp_install(const fp_entry_t *entries, int n)
{
    pthread_mutex_lock(&fp_lock);
    if (n > 0) memcpy(fp_table, entries, sizeof(fp_entry_t) * (size_t)n);
    fp_n = n;
    atomic_store(&fp_armed, n > 0);
    pthread_mutex_unlock(&fp_lock);
}

static void fp_read_env(void)
{
    const char *spec = getenv("SLUICE_FAILPOINT");
    if (!spec || !*spec) return;
    fp_entry_t entries[FP_MAX];
    int n = fp_parse(spec, entries);
    if (n < 0) {
        SL_WARN("failpoint", "ignoring malformed SLUICE_FAILPOINT value=\"%s\"", spec);
        return;
    }
    fp_install(entries, n);
}

int failpoint_set(const char *spec)
{
    pthread_once(&fp_env_once, fp_read_env);
    fp_entry_t entries[FP_MAX];
    int n = spec ? fp_parse(spec, entries) : 0;
    if (n < 0) return -1;
    fp_install(entries, n);
    return 0;
}

void failpoint_clear(void)
{
    pthread_once(&fp_env_once, fp_read_env);
    fp_install(NULL, 0);
}

/* The armed entry for `name` that applies to `path` (NULL: a point with no
 * file, which only entries without "@text" match). Caller holds fp_lock. */
static fp_entry_t *fp_find(const char *name, const char *path)
{
    for (int i = 0; i < fp_n; i++) {
        fp_entry_t *e = &fp_table[i];
        if (strcmp(e->name, name)) continue;
        if (!e->match[0] || (path && strstr(path, e->match))) return e;
    }
    return NULL;
}

/* Counts a hit of `name` on `path`; returns 1 when the point fires now
 * (its entry copied into `out`), else 0. */
static int fp_fire(const char *name, const char *path, fp_entry_t *out)
{
    pthread_once(&fp_env_once, fp_read_env);
    if (!atomic_load_explicit(&fp_armed, memory_order_relaxed)) return 0;
    pthread_mutex_lock(&fp_lock);
    fp_entry_t *e = fp_find(name, path);
    int fire = 0;
    if (e) {
        e->hits++;
        fire = e->kind == FP_ERROR ? e->hits >= e->count : e->hits == e->count;
        if (fire) *out = *e;
    }
    pthread_mutex_unlock(&fp_lock);
    return fire;
}

/* Kills the process the way entry `e` says. */
static void fp_die(const fp_entry_t *e)
{
    if (e->kind == FP_SEGV) { /* a crash, to test what a crash leaves behind (common/crash.h) */
        SL_WARN("failpoint", "failpoint reached, raising SIGSEGV name=%s", e->name);
        raise(SIGSEGV);
        return;
    }
    /* Simulated power loss: nothing after this point may run. */
    SL_WARN("failpoint", "failpoint reached, exiting name=%s code=%d", e->name,
            FAILPOINT_EXIT_CODE);
    _exit(FAILPOINT_EXIT_CODE);
}

void failpoint_hit(const char *name)
{
    fp_entry_t e;
    if (fp_fire(name, NULL, &e) && e.kind != FP_ERROR) fp_die(&e);
}

int failpoint_io(const char *name, const char *path)
{
    fp_entry_t e;
    if (!fp_fire(name, path, &e)) return 0;
    if (e.kind != FP_ERROR) {
        fp_die(&e);
        return 0;
    }
    SL_WARN("failpoint", "failpoint reached, failing name=%s path=\"%s\" error=\"%s\"", name,
            path ? path : "", strerror(e.error));
    errno = e.error;
    return e.error;
}

int failpoint_hits(const char *name)
{
    pthread_mutex_lock(&fp_lock);
    int hits = 0;
    for (int i = 0; i < fp_n; i++)
        if (!strcmp(fp_table[i].name, name)) hits += fp_table[i].hits;
    pthread_mutex_unlock(&fp_lock);
    return hits;
}
