/* Failpoint registry: a small table of armed names behind a mutex, with an
 * atomic flag so that an unarmed process pays one load per hit. */
#include "state/failpoint.h"

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

typedef struct fp_entry {
    char name[FP_NAME_MAX];
    int count; /* die on this hit (1-based) */
    int hits;  /* hits so far */
    int segv;  /* "=segv": die of SIGSEGV instead of _exit */
} fp_entry_t;

static pthread_mutex_t fp_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t fp_env_once = PTHREAD_ONCE_INIT;
static atomic_int fp_armed;
static fp_entry_t fp_table[FP_MAX];
static int fp_n;

/* Parses one "name[:count][=segv]" item into `e`; -1 when malformed. */
static int fp_parse_item(const char *s, size_t len, fp_entry_t *e)
{
    const char *eq = memchr(s, '=', len);
    e->segv = 0;
    if (eq) {
        if ((size_t)(s + len - eq) != 5 || memcmp(eq, "=segv", 5)) return -1;
        e->segv = 1;
        len = (size_t)(eq - s);
    }
    const char *colon = memchr(s, ':', len);
    size_t nlen = colon ? (size_t)(colon - s) : len;
    if (nlen == 0 || nlen >= FP_NAME_MAX) return -1;
    memcpy(e->name, s, nlen);
    e->name[nlen] = '\0';
    e->count = 1;
    e->hits = 0;
    if (!colon) return 0;
    char num[16];
    size_t clen = len - nlen - 1;
    if (clen == 0 || clen >= sizeof num) return -1;
    memcpy(num, colon + 1, clen);
    num[clen] = '\0';
    char *end;
    long c = strtol(num, &end, 10);
    if (*end || c < 1 || c > 1000000000) return -1;
    e->count = (int)c;
    return 0;
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

static fp_entry_t *fp_find(const char *name)
{
    for (int i = 0; i < fp_n; i++)
        if (!strcmp(fp_table[i].name, name)) return &fp_table[i];
    return NULL;
}

void failpoint_hit(const char *name)
{
    pthread_once(&fp_env_once, fp_read_env);
    if (!atomic_load_explicit(&fp_armed, memory_order_relaxed)) return;
    pthread_mutex_lock(&fp_lock);
    fp_entry_t *e = fp_find(name);
    int die = e && ++e->hits == e->count, segv = e && e->segv;
    pthread_mutex_unlock(&fp_lock);
    if (!die) return;
    if (segv) { /* a crash, to test what a crash leaves behind (common/crash.h) */
        SL_WARN("failpoint", "failpoint reached, raising SIGSEGV name=%s", name);
        raise(SIGSEGV);
        return;
    }
    /* Simulated power loss: nothing after this point may run. */
    SL_WARN("failpoint", "failpoint reached, exiting name=%s code=%d", name,
            FAILPOINT_EXIT_CODE);
    _exit(FAILPOINT_EXIT_CODE);
}

int failpoint_hits(const char *name)
{
    pthread_mutex_lock(&fp_lock);
    fp_entry_t *e = fp_find(name);
    int hits = e ? e->hits : 0;
    pthread_mutex_unlock(&fp_lock);
    return hits;
}
