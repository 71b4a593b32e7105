/* Arena memory contexts: block lists with a kept first block, big allocations
 * in blocks of their own, cleanup callbacks run newest first, and the owner
 * thread checked on every allocation and reset. */
#include "common/arena.h"

#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sl_assert.h"

#define ARENA_BLOCK_SIZE (16 * 1024)
#define ARENA_ALIGN 16

typedef struct arena_block {
    struct arena_block *next;
    size_t size; /* usable bytes after the header */
    size_t used;
    /* data follows, aligned */
} arena_block_t;

typedef struct arena_cleanup {
    struct arena_cleanup *next;
    sl_arena_cleanup_cb cb;
    void *arg;
} arena_cleanup_t;

struct sl_arena {
    const char *name;
    arena_block_t *head;   /* current block (allocations come from here) */
    arena_block_t *keeper; /* first block, kept across resets */
    arena_cleanup_t *cleanups;
    size_t used;
    const void *owner; /* the owner thread's thread_tag */
};

/* One byte per thread: its address names the thread (a TLS address costs
 * one instruction, pthread_self() a call). */
static _Thread_local char thread_tag;

/* True when the calling thread owns `a`; names the arena on stderr when not
 * (the SL_ASSERT that calls it then aborts). */
static int owned(const sl_arena_t *a)
{
    if (a->owner == &thread_tag) return 1;
    fprintf(stderr, "FATAL: arena \"%s\" used by a thread that does not own it\n", a->name);
    return 0;
}

#define BLOCK_HDR ((sizeof(arena_block_t) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1))
#define BLOCK_DATA(b) ((char *)(b) + BLOCK_HDR)

void sl_oom(size_t n)
{
    fprintf(stderr, "FATAL: out of memory (request of %zu bytes)\n", n);
    abort();
}

/* Sanitizer builds replace malloc with their own allocator: glibc's
 * malloc_trim would walk an arena that was never set up (and crash), and
 * there is nothing of glibc's to return. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HEAP_IS_GLIBC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define HEAP_IS_GLIBC 0
#endif
#endif
#if !defined(HEAP_IS_GLIBC) && defined(__GLIBC__)
#define HEAP_IS_GLIBC 1
#endif

void sl_heap_release_free(void)
{
#if HEAP_IS_GLIBC
    malloc_trim(0);
#endif
}

void *sl_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) sl_oom(n);
    return p;
}

void *sl_xcalloc(size_t count, size_t n)
{
    void *p = calloc(count ? count : 1, n ? n : 1);
    if (!p) sl_oom(count * n);
    return p;
}

void *sl_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) sl_oom(n);
    return q;
}

char *sl_xstrdup(const char *s)
{
    return sl_xstrndup(s, strlen(s));
}

char *sl_xstrndup(const char *s, size_t n)
{
    char *p = sl_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

static arena_block_t *block_new(size_t size)
{
    arena_block_t *b = sl_xmalloc(BLOCK_HDR + size);
    b->next = NULL;
    b->size = size;
    b->used = 0;
    return b;
}

sl_arena_t *sl_arena_new(const char *name)
{
    sl_arena_t *a = sl_xcalloc(1, sizeof *a);
    a->name = name;
    a->keeper = a->head = block_new(ARENA_BLOCK_SIZE);
    a->owner = &thread_tag;
    return a;
}

void sl_arena_adopt(sl_arena_t *a)
{
    a->owner = &thread_tag;
}

static void run_cleanups(sl_arena_t *a)
{
    while (a->cleanups) {
        arena_cleanup_t *c = a->cleanups;
        a->cleanups = c->next;
        c->cb(c->arg);
    }
}

/* Frees every block but the first; the owner check is the caller's. */
static void release_blocks(sl_arena_t *a)
{
    run_cleanups(a);
    arena_block_t *b = a->head;
    while (b) {
        arena_block_t *next = b->next;
        if (b != a->keeper) free(b);
        b = next;
    }
    a->keeper->next = NULL;
    a->keeper->used = 0;
    a->head = a->keeper;
    a->used = 0;
}

void sl_arena_reset(sl_arena_t *a)
{
    SL_ASSERT(owned(a));
    release_blocks(a);
}

void sl_arena_free(sl_arena_t *a)
{
    if (!a) return;
    release_blocks(a);
    free(a->keeper);
    free(a);
}

void sl_arena_on_reset(sl_arena_t *a, sl_arena_cleanup_cb cb, void *arg)
{
    arena_cleanup_t *c = sl_alloc(a, sizeof *c);
    c->cb = cb;
    c->arg = arg;
    c->next = a->cleanups;
    a->cleanups = c;
}

size_t sl_arena_used(const sl_arena_t *a)
{
    return a->used;
}

void *sl_alloc(sl_arena_t *a, size_t n)
{
    SL_ASSERT(owned(a));
    size_t need = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (need == 0) need = ARENA_ALIGN;
    arena_block_t *b = a->head;
    if (b->size - b->used < need) {
        if (need > ARENA_BLOCK_SIZE / 4) {
            /* A big allocation gets its own block, linked behind the current one
             * so the current block keeps serving small requests. */
            arena_block_t *big = block_new(need);
            big->used = need;
            big->next = b->next;
            b->next = big;
            a->used += need;
            return BLOCK_DATA(big);
        }
        arena_block_t *nb = block_new(ARENA_BLOCK_SIZE);
        nb->next = b;
        a->head = b = nb;
    }
    void *p = BLOCK_DATA(b) + b->used;
    b->used += need;
    a->used += need;
    return p;
}

void *sl_alloc0(sl_arena_t *a, size_t n)
{
    void *p = sl_alloc(a, n);
    memset(p, 0, n);
    return p;
}

void *sl_arena_realloc(sl_arena_t *a, void *p, size_t old_n, size_t new_n)
{
    if (!p) return sl_alloc(a, new_n);
    if (new_n <= old_n) return p;
    SL_ASSERT(owned(a));
    arena_block_t *b = a->head;
    size_t old_al = (old_n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    size_t new_al = (new_n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    /* Extend in place when p is the last allocation of the current block. */
    if ((char *)p + old_al == BLOCK_DATA(b) + b->used && b->used - old_al + new_al <= b->size) {
        b->used += new_al - old_al;
        a->used += new_al - old_al;
        return p;
    }
    void *q = sl_alloc(a, new_n);
    memcpy(q, p, old_n);
    return q;
}

char *sl_strndup(sl_arena_t *a, const char *s, size_t n)
{
    char *p = sl_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *sl_strdup(sl_arena_t *a, const char *s)
{
    return s ? sl_strndup(a, s, strlen(s)) : NULL;
}

char *sl_vprintf(sl_arena_t *a, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) n = 0;
    char *p = sl_alloc(a, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *sl_printf(sl_arena_t *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = sl_vprintf(a, fmt, ap);
    va_end(ap);
    return p;
}
