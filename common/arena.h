/* Arena memory contexts (PostgreSQL's memory contexts, reduced to one kind).
 *
 * An arena hands out memory from large blocks and frees it all at once with
 * sl_arena_reset() or sl_arena_free(); nothing is freed one allocation at a
 * time. Each lifetime in sluice has its own arena: server, session,
 * statement, query, batch, expression scratch. Reset callbacks registered
 * with sl_arena_on_reset() run (newest first) when the arena is reset or
 * freed; they release files, iterators and library objects tied to the
 * lifetime.
 *
 * Threads: an arena has one owner thread at a time, and only the owner
 * allocates from it, resets it or registers callbacks on it; nothing in an
 * arena is locked. The thread that creates an arena owns it. Ownership is
 * handed over explicitly: the new owner calls sl_arena_adopt() after a
 * synchronisation that orders it after the old owner's last use (a pool
 * join, a mutex both take, a work queue), and the old owner does not touch
 * the arena again until it is handed back the same way. Work handed to
 * another thread (a pool task, an I/O job) allocates from an arena of its
 * own, never from its submitter's. Other threads may read memory the arena
 * handed out (that is ordinary shared data: it needs the same
 * synchronisation), and any thread may sl_arena_free() an arena whose owner
 * is done with it. Every allocation and reset checks the owner (SL_ASSERT,
 * on unless NDEBUG): a use from another thread aborts with the arena's name
 * instead of corrupting its blocks. The check costs five instructions per
 * allocation, lost in the noise of an allocation loop, so the normal build
 * keeps it (docs/operations.md has the figures).
 *
 * Out of memory is treated as fatal (logged, then abort()): every allocation
 * function here returns non-NULL. */
#ifndef SL_ARENA_H
#define SL_ARENA_H

#include <stddef.h>
#include <stdarg.h>

typedef struct sl_arena sl_arena_t;
typedef void (*sl_arena_cleanup_cb)(void *arg);

/* Creates an arena; `name` (a string literal) shows in diagnostics. */
sl_arena_t *sl_arena_new(const char *name);
/* The calling thread becomes the arena's owner (see Threads above). */
void sl_arena_adopt(sl_arena_t *a);
/* Frees every block and runs every cleanup callback; keeps the first block. */
void sl_arena_reset(sl_arena_t *a);
/* Runs the callbacks and releases the arena; any thread, once the owner is
 * done with it. NULL is ignored. */
void sl_arena_free(sl_arena_t *a);
/* Registers `cb(arg)` to run at the next reset or free. */
void sl_arena_on_reset(sl_arena_t *a, sl_arena_cleanup_cb cb, void *arg);
/* Bytes handed out since the last reset (for metrics). */
size_t sl_arena_used(const sl_arena_t *a);

/* 16-byte aligned memory valid until the next reset. */
void *sl_alloc(sl_arena_t *a, size_t n);
void *sl_alloc0(sl_arena_t *a, size_t n);
/* Grows an allocation made from this arena (copying when it cannot extend in place). */
void *sl_arena_realloc(sl_arena_t *a, void *p, size_t old_n, size_t new_n);
char *sl_strdup(sl_arena_t *a, const char *s);
char *sl_strndup(sl_arena_t *a, const char *s, size_t n);
char *sl_printf(sl_arena_t *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *sl_vprintf(sl_arena_t *a, const char *fmt, va_list ap);

#define SL_NEW(a, type) ((type *)sl_alloc0((a), sizeof(type)))
#define SL_NEW_ARRAY(a, type, n) ((type *)sl_alloc0((a), sizeof(type) * (size_t)(n)))

/* Heap allocation that never returns NULL (out of memory is fatal). */
void *sl_xmalloc(size_t n);
void *sl_xcalloc(size_t count, size_t n);
void *sl_xrealloc(void *p, size_t n);
char *sl_xstrdup(const char *s);
char *sl_xstrndup(const char *s, size_t n);
/* Gives the heap's free pages back to the system (glibc's malloc_trim):
 * called when a large owner (a query's state, a memory table) was freed, so
 * that the daemon's resident size falls with it. Any thread. */
void sl_heap_release_free(void);
/* Reports out of memory and aborts: a true invariant, not an error path. */
void sl_oom(size_t n) __attribute__((noreturn));

#endif
