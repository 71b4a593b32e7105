/* Unit tests of common/: arena, buffer, errors. */
#include "unit.h"

#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/sl_error.h"

TEST(arena_alignment_and_growth)
{
    sl_arena_t *a = sl_arena_new("test");
    for (int i = 0; i < 10000; i++) {
        char *p = sl_alloc(a, (size_t)(i % 97) + 1);
        CHECK(((uintptr_t)p & 15) == 0);
        memset(p, 'x', (size_t)(i % 97) + 1);
    }
    char *big = sl_alloc(a, 1 << 20);
    memset(big, 1, 1 << 20);
    CHECK(sl_arena_used(a) >= (1 << 20));
    sl_arena_reset(a);
    CHECK_INT(sl_arena_used(a), 0);
    sl_arena_free(a);
}

static int cleanup_order[3], ncleanups;
static void record(void *arg)
{
    cleanup_order[ncleanups++] = (int)(intptr_t)arg;
}

static void *alloc_in(void *arena)
{
    char *p = sl_alloc(arena, 32);
    memset(p, 'y', 32);
    return p;
}

static void *adopt_and_alloc(void *arena)
{
    sl_arena_adopt(arena);
    return alloc_in(arena);
}

/* An arena has one owner thread: a handover (sl_arena_adopt after a join)
 * lets another thread allocate; an allocation from a thread that does not
 * own it aborts, naming the arena. */
TEST(arena_owner_thread_checked)
{
    sl_arena_t *a = sl_arena_new("owned");
    pthread_t t;
    void *p;
    CHECK(pthread_create(&t, NULL, adopt_and_alloc, a) == 0);
    CHECK(pthread_join(t, &p) == 0);
    CHECK(p != NULL);
    sl_arena_adopt(a); /* handed back after the join */
    sl_arena_reset(a);
    alloc_in(a);
    fflush(NULL);
    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) { /* a thread allocating from the main thread's arena */
        pthread_t u;
        if (pthread_create(&u, NULL, alloc_in, a) == 0) pthread_join(u, NULL);
        _exit(0);
    }
    int status;
    CHECK(waitpid(child, &status, 0) == child);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    sl_arena_free(a);
}

TEST(arena_cleanups_run_newest_first)
{
    sl_arena_t *a = sl_arena_new("test");
    sl_arena_on_reset(a, record, (void *)1);
    sl_arena_on_reset(a, record, (void *)2);
    sl_arena_on_reset(a, record, (void *)3);
    sl_arena_reset(a);
    CHECK_INT(ncleanups, 3);
    CHECK_INT(cleanup_order[0], 3);
    CHECK_INT(cleanup_order[2], 1);
    sl_arena_reset(a); /* callbacks ran once only */
    CHECK_INT(ncleanups, 3);
    sl_arena_free(a);
}

TEST(arena_realloc_extends_last_allocation)
{
    sl_arena_t *a = sl_arena_new("test");
    char *p = sl_alloc(a, 16);
    strcpy(p, "hello");
    char *q = sl_arena_realloc(a, p, 16, 64);
    CHECK(p == q);
    sl_alloc(a, 8);
    char *r = sl_arena_realloc(a, q, 64, 128);
    CHECK(r != q);
    CHECK_STR(r, "hello");
    CHECK_STR(sl_printf(a, "%d-%s", 42, "x"), "42-x");
    sl_arena_free(a);
}

TEST(buf_big_endian_and_consume)
{
    sl_buf_t b = SL_BUF_INIT;
    sl_buf_put_u32be(&b, 0x01020304);
    sl_buf_put_u16be(&b, 0x0506);
    CHECK_INT(b.len, 6);
    CHECK_INT(sl_get_u32be(b.data), 0x01020304);
    CHECK_INT(sl_get_u16be(b.data + 4), 0x0506);
    sl_buf_set_u32be(&b, 0, 7);
    CHECK_INT(sl_get_u32be(b.data), 7);
    sl_buf_consume(&b, 4);
    CHECK_INT(b.len, 2);
    sl_buf_printf(&b, "%s", "abc");
    CHECK_INT(b.len, 5);
    CHECK_STR(b.data + 2, "abc");
    sl_buf_truncate(&b, 3);
    CHECK_INT(b.len, 3);
    CHECK_STR(b.data + 2, "a");
    sl_buf_truncate(&b, 9); /* longer: nothing changes */
    CHECK_INT(b.len, 3);
    sl_buf_free(&b);
}

TEST(error_set_returns_minus_one)
{
    sl_error_t e;
    sl_error_clear(&e);
    CHECK(!sl_error_isset(&e));
    CHECK_INT(sl_error_set(&e, SL_ERR_UNDEFINED_TABLE, "relation \"%s\" does not exist", "x"), -1);
    CHECK_STR(e.sqlstate, "42P01");
    CHECK_STR(e.message, "relation \"x\" does not exist");
    sl_error_hint(&e, "Create it first.");
    CHECK_STR(e.hint, "Create it first.");
}
