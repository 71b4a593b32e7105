/* Unit tests of the session merge rule (exec/session.c): entries of one
 * group that overlap or touch become one session [smallest start, largest
 * end); a gap, however small, or another group separates them; the merge
 * order is (group, start, end, entry number), so ties keep the caller's
 * order; a late entry may bridge two sessions into one. */
#include "exec/session.h"
#include "unit.h"

#define MIN(m) ((int64_t)(m)*60000000)

/* The sessions of n entries, with the arena kept for the caller to free. */
static exec_sessions_t merge(sl_arena_t *a, uint32_t n, const uint32_t *group, const int64_t *start,
                             const int64_t *end)
{
    exec_sessions_t ss;
    exec_sessions_merge(a, n, group, start, end, &ss);
    return ss;
}

TEST(session_touching_entries_merge)
{
    sl_arena_t *a = sl_arena_new("test");
    /* [0,5) [5,10) touch; [10,15) touches the merged one; [16,21) does not */
    uint32_t g[] = {0, 0, 0, 0};
    int64_t s[] = {MIN(16), MIN(5), MIN(0), MIN(10)}, e[] = {MIN(21), MIN(10), MIN(5), MIN(15)};
    exec_sessions_t ss = merge(a, 4, g, s, e);
    CHECK_INT(ss.n, 2);
    CHECK(ss.start[0] == MIN(0) && ss.end[0] == MIN(15));
    CHECK(ss.start[1] == MIN(16) && ss.end[1] == MIN(21));
    CHECK_INT(ss.count[0], 3);
    CHECK_INT(ss.count[1], 1);
    CHECK_INT(ss.first[0], 2); /* the entry starting at 0 */
    CHECK_INT(ss.first[1], 0);
    CHECK_INT(ss.sid[0], 1);
    CHECK_INT(ss.sid[1], 0);
    CHECK_INT(ss.sid[2], 0);
    CHECK_INT(ss.sid[3], 0);
    /* merge order: by start */
    CHECK_INT(ss.order[0], 2);
    CHECK_INT(ss.order[1], 1);
    CHECK_INT(ss.order[2], 3);
    CHECK_INT(ss.order[3], 0);
    sl_arena_free(a);
}

TEST(session_one_microsecond_gap_separates)
{
    sl_arena_t *a = sl_arena_new("test");
    uint32_t g[] = {0, 0};
    int64_t s[] = {MIN(0), MIN(5) + 1}, e[] = {MIN(5), MIN(10)};
    exec_sessions_t ss = merge(a, 2, g, s, e);
    CHECK_INT(ss.n, 2);
    CHECK(ss.end[0] == MIN(5) && ss.start[1] == MIN(5) + 1);
    sl_arena_free(a);
}

TEST(session_groups_never_merge)
{
    sl_arena_t *a = sl_arena_new("test");
    /* the same range in two groups; group 1 listed first */
    uint32_t g[] = {1, 0, 1, 0};
    int64_t s[] = {MIN(0), MIN(0), MIN(3), MIN(20)}, e[] = {MIN(5), MIN(5), MIN(8), MIN(25)};
    exec_sessions_t ss = merge(a, 4, g, s, e);
    CHECK_INT(ss.n, 3);
    /* group 0 first, earliest first */
    CHECK(ss.start[0] == MIN(0) && ss.end[0] == MIN(5) && ss.first[0] == 1);
    CHECK(ss.start[1] == MIN(20) && ss.end[1] == MIN(25));
    CHECK(ss.start[2] == MIN(0) && ss.end[2] == MIN(8) && ss.count[2] == 2);
    sl_arena_free(a);
}

TEST(session_contained_entry_keeps_the_longer_end)
{
    sl_arena_t *a = sl_arena_new("test");
    /* a per-row gap: [0,30) contains [10,12); [29,31) extends it */
    uint32_t g[] = {0, 0, 0};
    int64_t s[] = {MIN(0), MIN(10), MIN(29)}, e[] = {MIN(30), MIN(12), MIN(31)};
    exec_sessions_t ss = merge(a, 3, g, s, e);
    CHECK_INT(ss.n, 1);
    CHECK(ss.start[0] == MIN(0) && ss.end[0] == MIN(31));
    CHECK_INT(ss.count[0], 3);
    sl_arena_free(a);
}

TEST(session_ties_keep_entry_order)
{
    sl_arena_t *a = sl_arena_new("test");
    /* equal ranges: stored entries (numbered first) merge before new ones */
    uint32_t g[] = {0, 0, 0};
    int64_t s[] = {MIN(0), MIN(0), MIN(0)}, e[] = {MIN(5), MIN(5), MIN(5)};
    exec_sessions_t ss = merge(a, 3, g, s, e);
    CHECK_INT(ss.n, 1);
    CHECK_INT(ss.order[0], 0);
    CHECK_INT(ss.order[1], 1);
    CHECK_INT(ss.order[2], 2);
    sl_arena_free(a);
}

TEST(session_late_entry_bridges_two)
{
    sl_arena_t *a = sl_arena_new("test");
    /* stored [0,5) and [10,15); a new row's [5,10) joins them */
    uint32_t g[] = {0, 0, 0};
    int64_t s[] = {MIN(0), MIN(10), MIN(5)}, e[] = {MIN(5), MIN(15), MIN(10)};
    exec_sessions_t ss = merge(a, 3, g, s, e);
    CHECK_INT(ss.n, 1);
    CHECK(ss.start[0] == MIN(0) && ss.end[0] == MIN(15));
    sl_arena_free(a);
}

TEST(session_no_entries)
{
    sl_arena_t *a = sl_arena_new("test");
    exec_sessions_t ss = merge(a, 0, NULL, NULL, NULL);
    CHECK_INT(ss.n, 0);
    sl_arena_free(a);
}
