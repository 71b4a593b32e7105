/* Unit tests of server/table_store*.c: a session's transaction and
 * savepoints through its own connection, what other readers see meanwhile,
 * and the lock wait that a lock timeout ends. */
#include "unit.h"

#include <stdlib.h>

#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>

#include "server/table_cache.h"
#include "server/table_store.h"
#include "server/table_store_int.h"

static plan_relation_t rel_t(void)
{
    static exec_type_t types[1];
    static const char *names[] = {"id"};
    types[0] = exec_type_of(EXEC_TYPE_INT);
    return (plan_relation_t){.kind = PLAN_REL_TABLE,
                             .stream.name = "t",
                             .stream.ncols = 1,
                             .stream.col_names = names,
                             .stream.col_types = types};
}

static exec_batch_t *ints(sl_arena_t *a, int from, int n)
{
    exec_type_t type = exec_type_of(EXEC_TYPE_INT);
    exec_builder_t b;
    exec_builder_init(&b, a, 1, &type, (uint32_t)n);
    for (int i = 0; i < n; i++) exec_builder_set_int(&b, 0, exec_builder_add_row(&b), from + i);
    return exec_builder_finish(&b);
}

static int add_rows(void *arg, exec_batch_t *b, sl_error_t *err)
{
    (void)err;
    *(int *)arg += (int)exec_batch_count(b);
    return 0;
}

/* Rows of t as `c` sees them (NULL: the committed ones). */
static int count(tstore_t *t, tstore_conn_t *c)
{
    plan_relation_t rel = rel_t();
    sl_arena_t *a = sl_arena_new("scan");
    sl_error_t e;
    int n = 0;
    if (tstore_scan(t, c, &rel, 0, a, add_rows, &n, &e) < 0) n = -1;
    sl_arena_free(a);
    return n;
}

static tstore_t *store_with_table(void)
{
    static char dir[] = "/tmp/sluice-tstore-XXXXXX";
    sl_error_t e;
    tstore_t *t = tstore_open(mkdtemp(dir), 64 << 20, &e);
    plan_relation_t rel = rel_t();
    if (t && tstore_create(t, NULL, &rel, &e) < 0) return NULL;
    return t;
}

TEST(transaction_and_savepoints)
{
    tstore_t *t = store_with_table();
    CHECK(t);
    sl_error_t e;
    sl_arena_t *a = sl_arena_new("rows");
    plan_relation_t rel = rel_t();
    tstore_conn_t *c = tstore_conn_open(t, &e);
    CHECK(c && tstore_conn_begin(c, &e) == 0);
    CHECK(tstore_insert(t, c, &rel, ints(a, 0, 3), &e) == 0);
    CHECK_INT(count(t, c), 3);
    CHECK_INT(count(t, NULL), 0); /* not committed */
    CHECK(tstore_conn_savepoint(c, 0, &e) == 0);
    CHECK(tstore_insert(t, c, &rel, ints(a, 3, 2), &e) == 0);
    CHECK_INT(count(t, c), 5);
    CHECK(tstore_conn_rollback_to(c, 0, &e) == 0);
    CHECK_INT(count(t, c), 3);
    CHECK(tstore_conn_release(c, 0, &e) == 0);
    CHECK(tstore_conn_commit(c, &e) == 0);
    CHECK_INT(count(t, NULL), 3);
    CHECK(tstore_conn_begin(c, &e) == 0);
    CHECK(tstore_insert(t, c, &rel, ints(a, 9, 1), &e) == 0);
    tstore_conn_rollback(c);
    CHECK_INT(count(t, NULL), 3);
    tstore_conn_close(c);
    sl_arena_free(a);
    tstore_close(t);
}

TEST(a_second_writer_is_told_the_lock_is_busy_at_once)
{
    tstore_t *t = store_with_table();
    CHECK(t);
    sl_error_t e;
    tstore_conn_t *first = tstore_conn_open(t, &e), *second = tstore_conn_open(t, &e);
    CHECK(first && second);
    CHECK(tstore_conn_begin(first, &e) == 0);
    uint64_t released = tstore_releases(t);
    CHECK(tstore_conn_begin(second, &e) == TSTORE_BUSY);
    CHECK(!tstore_conn_in_txn(second));
    CHECK(tstore_releases(t) == released);
    CHECK(tstore_conn_commit(first, &e) == 0);
    CHECK(tstore_releases(t) == released + 1);
    CHECK(tstore_conn_begin(second, &e) == 0);
    CHECK(tstore_conn_begin(first, &e) == TSTORE_BUSY);
    tstore_conn_close(second); /* rolls back */
    CHECK(tstore_releases(t) == released + 2);
    CHECK(tstore_conn_begin(first, &e) == 0);
    tstore_conn_close(first);
    tstore_close(t);
}

static void count_wake(void *arg)
{
    ++*(int *)arg;
}

TEST(waiters_are_woken_once_per_change_of_the_release_count)
{
    tstore_t *t = store_with_table();
    CHECK(t);
    sl_error_t e;
    tstore_conn_t *c = tstore_conn_open(t, &e);
    CHECK(c);
    tstore_wake(t);
    int woken = 0;
    tstore_waiter_t a = {0}, b = {0};
    tstore_wait_add(t, &a, count_wake, &woken);
    tstore_wait_add(t, &b, count_wake, &woken);
    tstore_wake(t); /* nothing was released */
    CHECK_INT(woken, 0);
    tstore_wait_remove(t, &b);
    CHECK(tstore_conn_begin(c, &e) == 0);
    tstore_conn_rollback(c);
    tstore_wake(t);
    CHECK_INT(woken, 1);
    CHECK(!a.listed && !b.listed);
    tstore_wait_add(t, &a, count_wake, &woken);
    tstore_wake(t); /* the same count: a stays parked */
    CHECK_INT(woken, 1);
    tstore_wait_remove(t, &a);
    tstore_wait_remove(t, &a);
    tstore_conn_close(c);
    tstore_close(t);
}

/* ---- the columnar copy (server/table_cache.h) ----------------------------------- */

TEST(reads_are_served_from_the_columnar_copy_until_the_store_is_written)
{
    tstore_t *t = store_with_table();
    CHECK(t);
    sl_error_t e;
    sl_arena_t *a = sl_arena_new("rows");
    plan_relation_t rel = rel_t();
    CHECK(tstore_insert(t, NULL, &rel, ints(a, 0, 5000), &e) == 0);
    CHECK_INT(count(t, NULL), 5000);
    int entries;
    size_t bytes;
    tcache_stats(t->cache, &entries, &bytes);
    CHECK_INT(entries, 1);
    CHECK(bytes >= 5000 * sizeof(int32_t));
    /* rows removed behind the store's back: the copy still answers */
    CHECK(sqlite3_exec(t->db, "DELETE FROM \"table:t\" WHERE c0 >= 1000", NULL, NULL, NULL) ==
          SQLITE_OK);
    CHECK_INT(count(t, NULL), 5000);
    tstore_released(t); /* as every write the store makes does */
    CHECK_INT(count(t, NULL), 1000);
    /* a session's open transaction reads its own rows, others the copy */
    tstore_conn_t *c = tstore_conn_open(t, &e);
    CHECK(c && tstore_conn_begin(c, &e) == 0);
    CHECK(tstore_insert(t, c, &rel, ints(a, 0, 7), &e) == 0);
    CHECK_INT(count(t, c), 1007);
    CHECK_INT(count(t, NULL), 1000);
    CHECK(tstore_conn_commit(c, &e) == 0);
    CHECK_INT(count(t, NULL), 1007);
    tstore_conn_close(c);
    sl_arena_free(a);
    tstore_close(t);
}

TEST(a_table_larger_than_the_budget_is_read_from_sqlite)
{
    static char dir[] = "/tmp/sluice-tstore-XXXXXX";
    sl_error_t e;
    tstore_t *t = tstore_open(mkdtemp(dir), 4096, &e);
    CHECK(t);
    plan_relation_t rel = rel_t();
    sl_arena_t *a = sl_arena_new("rows");
    CHECK(tstore_create(t, NULL, &rel, &e) == 0);
    CHECK(tstore_insert(t, NULL, &rel, ints(a, 0, 5000), &e) == 0);
    CHECK_INT(count(t, NULL), 5000);
    int entries;
    size_t bytes;
    tcache_stats(t->cache, &entries, &bytes);
    CHECK_INT(entries, 0);
    sl_arena_free(a);
    tstore_close(t);
}

/* A reader scanning while a writer commits: every scan sees a whole number
 * of the writer's batches (never a copy older than a commit it started
 * after), and the last one sees them all. */
typedef struct race {
    tstore_t *t;
    uint64_t base; /* releases before the first insert */
    atomic_int done;
    int bad;
} race_t;

static void *race_reader(void *arg)
{
    race_t *r = arg;
    while (!atomic_load(&r->done)) {
        uint64_t before = tstore_releases(r->t);
        int n = count(r->t, NULL);
        if (n < 0 || n % 100 != 0 || n < (int)(before - r->base) * 100) r->bad++;
    }
    return NULL;
}

TEST(a_copy_read_during_a_commit_is_never_served_after_it)
{
    tstore_t *t = store_with_table();
    CHECK(t);
    sl_error_t e;
    plan_relation_t rel = rel_t();
    sl_arena_t *a = sl_arena_new("rows");
    race_t r = {.t = t, .base = tstore_releases(t)};
    pthread_t th[2];
    for (int i = 0; i < 2; i++) CHECK(pthread_create(&th[i], NULL, race_reader, &r) == 0);
    for (int i = 0; i < 200; i++) {
        CHECK(tstore_insert(t, NULL, &rel, ints(a, i * 100, 100), &e) == 0);
        CHECK_INT(count(t, NULL), (i + 1) * 100); /* the writer reads its own commit */
    }
    atomic_store(&r.done, 1);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    CHECK_INT(r.bad, 0);
    CHECK_INT(count(t, NULL), 20000);
    CHECK(tstore_releases(t) == r.base + 200);
    sl_arena_free(a);
    tstore_close(t);
}
