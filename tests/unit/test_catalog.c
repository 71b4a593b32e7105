/* Unit tests of server/catalog.c: persistence, namespaces, dependencies. */
#include "unit.h"

#include <stdlib.h>
#include <unistd.h>

#include "server/catalog.h"

static char *temp_dir(void)
{
    static char dir[] = "/tmp/sluice-cat-XXXXXX";
    return mkdtemp(dir);
}

TEST(catalog_survives_reopen)
{
    char *dir = temp_dir();
    sl_error_t e;
    cat_t *c = cat_open(dir, &e);
    CHECK(c);
    CHECK(cat_create(c, CAT_STREAM, "clicks", "CREATE STREAM clicks ...", NULL, NULL, 0, &e) == 0);
    cat_close(c);
    c = cat_open(dir, &e);
    sl_arena_t *a = sl_arena_new("t");
    cat_entry_t ent;
    CHECK(cat_lookup(c, "clicks", a, &ent) == 1);
    CHECK_INT(ent.kind, CAT_STREAM);
    CHECK_STR(ent.sql, "CREATE STREAM clicks ...");
    CHECK(ent.created_at > 0);
    CHECK(cat_lookup(c, "nope", a, &ent) == 0);
    cat_close(c);
    sl_arena_free(a);
}

TEST(catalog_names_share_one_namespace)
{
    sl_error_t e;
    cat_t *c = cat_open(temp_dir(), &e);
    CHECK(cat_create(c, CAT_STREAM, "x", "s", NULL, NULL, 0, &e) == 0);
    CHECK(cat_create(c, CAT_STREAM, "x", "s", NULL, NULL, 0, &e) < 0);
    CHECK_STR(e.sqlstate, "42P07");
    CHECK_STR(e.message, "stream \"x\" already exists");
    CHECK(cat_create(c, CAT_TABLE, "x", "t", NULL, NULL, 0, &e) < 0);
    CHECK_STR(e.message, "relation \"x\" already exists");
    CHECK(cat_drop(c, CAT_TABLE, "x", &e) < 0);
    CHECK_STR(e.sqlstate, "42809");
    CHECK(cat_drop(c, CAT_STREAM, "y", &e) < 0);
    CHECK_STR(e.sqlstate, "42P01");
    cat_close(c);
}

TEST(catalog_drop_refused_while_depended_on)
{
    sl_error_t e;
    cat_t *c = cat_open(temp_dir(), &e);
    CHECK(cat_create(c, CAT_STREAM, "s", "s", NULL, NULL, 0, &e) == 0);
    CHECK(cat_create(c, CAT_TABLE, "t", "t", NULL, NULL, 0, &e) == 0);
    const char *deps[] = {"s", "t"};
    CHECK(cat_create(c, CAT_QUERY, "q", "q", "ACTIVE", deps, 2, &e) == 0);
    const char *bad[] = {"missing"};
    CHECK(cat_create(c, CAT_QUERY, "q2", "q", "ACTIVE", bad, 1, &e) < 0);
    CHECK_STR(e.sqlstate, "42P01");
    CHECK(cat_drop(c, CAT_STREAM, "s", &e) < 0);
    CHECK_STR(e.sqlstate, "2BP01");
    CHECK(strstr(e.detail, "q depends on stream s"));
    CHECK(cat_set_state(c, "q", "STOPPED", &e) == 0);
    sl_arena_t *a = sl_arena_new("t");
    cat_entry_t *list;
    CHECK_INT(cat_list(c, CAT_QUERY, a, &list), 1);
    CHECK_STR(list[0].state, "STOPPED");
    CHECK_INT(cat_list(c, 0, a, &list), 3);
    CHECK_STR(list[0].name, "q");
    CHECK(cat_drop(c, CAT_QUERY, "q", &e) == 0);
    CHECK(cat_drop(c, CAT_STREAM, "s", &e) == 0);
    CHECK(cat_touch(c, "t", &e) == 0);
    cat_entry_t t;
    CHECK(cat_lookup(c, "t", a, &t));
    CHECK_INT(t.version, 1);
    sl_arena_free(a);
    cat_close(c);
}
