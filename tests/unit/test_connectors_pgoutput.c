/* Unit tests of the pgoutput parser (connectors/pgoutput.h): each message
 * kind built byte by byte as PostgreSQL's pgoutput writes it (Begin,
 * Commit, Relation, Insert, Update with and without the old row, Delete,
 * Truncate, the skipped Origin/Type/Message), truncated and trailing bytes
 * refused with 08P01, the replication frames (XLogData, keepalive), the
 * Standby Status Update's bytes, and LSN text both ways. */
#include "unit.h"

#include "connectors/pgoutput.h"

/* A message under construction. */
typedef struct msg {
    uint8_t b[512];
    size_t n;
} msg_t;

static void put(msg_t *m, uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; i--) m->b[m->n++] = (uint8_t)(v >> (8 * i));
}

static void put_str(msg_t *m, const char *s)
{
    size_t n = strlen(s) + 1;
    memcpy(m->b + m->n, s, n);
    m->n += n;
}

static void put_text(msg_t *m, const char *s)
{
    put(m, 't', 1);
    put(m, strlen(s), 4);
    memcpy(m->b + m->n, s, strlen(s));
    m->n += strlen(s);
}

static pgo_msg_t parse_ok(const msg_t *m, sl_arena_t *a)
{
    pgo_msg_t out;
    sl_error_t err;
    if (pgo_parse(m->b, m->n, a, &out, &err) < 0)
        unit_fail(__FILE__, __LINE__, "pgo_parse: %s", err.message);
    return out;
}

static void check_value(const pgo_value_t *v, const char *want)
{
    CHECK_INT(v->kind, 't');
    CHECK_INT(v->len, strlen(want));
    CHECK(!memcmp(v->text, want, v->len));
}

TEST(begin_and_commit)
{
    sl_arena_t *a = sl_arena_new("t");
    msg_t m = {{0}, 0};
    put(&m, 'B', 1), put(&m, 0x16B3748, 8), put(&m, 1000000, 8), put(&m, 733, 4);
    pgo_msg_t b = parse_ok(&m, a);
    CHECK_INT(b.kind, PGO_BEGIN);
    CHECK_INT(b.final_lsn, 0x16B3748);
    CHECK_INT(b.commit_us, PGO_EPOCH_US + 1000000);
    CHECK_INT(b.xid, 733);
    m.n = 0;
    put(&m, 'C', 1), put(&m, 0, 1), put(&m, 0x100, 8), put(&m, 0x1FF, 8), put(&m, 5, 8);
    pgo_msg_t c = parse_ok(&m, a);
    CHECK_INT(c.kind, PGO_COMMIT);
    CHECK_INT(c.commit_lsn, 0x100);
    CHECK_INT(c.end_lsn, 0x1FF);
    CHECK_INT(c.commit_us, PGO_EPOCH_US + 5);
    sl_arena_free(a);
}

TEST(relation_columns)
{
    sl_arena_t *a = sl_arena_new("t");
    msg_t m = {{0}, 0};
    put(&m, 'R', 1), put(&m, 16384, 4), put_str(&m, "public"), put_str(&m, "orders");
    put(&m, 'f', 1), put(&m, 2, 2);
    put(&m, 1, 1), put_str(&m, "id"), put(&m, 23, 4), put(&m, 0xFFFFFFFF, 4);
    put(&m, 0, 1), put_str(&m, "amount"), put(&m, 1700, 4), put(&m, 655366, 4);
    pgo_msg_t r = parse_ok(&m, a);
    CHECK_INT(r.kind, PGO_RELATION);
    CHECK_INT(r.relid, 16384);
    CHECK_STR(r.nspname, "public");
    CHECK_STR(r.relname, "orders");
    CHECK_INT(r.replident, 'f');
    CHECK_INT(r.ncols, 2);
    CHECK_STR(r.cols[0].name, "id");
    CHECK_INT(r.cols[0].key, 1);
    CHECK_INT(r.cols[0].type_oid, 23);
    CHECK_INT(r.cols[0].typmod, -1);
    CHECK_STR(r.cols[1].name, "amount");
    CHECK_INT(r.cols[1].key, 0);
    CHECK_INT(r.cols[1].typmod, 655366);
    sl_arena_free(a);
}

TEST(insert_update_delete_tuples)
{
    sl_arena_t *a = sl_arena_new("t");
    msg_t m = {{0}, 0};
    put(&m, 'I', 1), put(&m, 7, 4), put(&m, 'N', 1), put(&m, 3, 2);
    put_text(&m, "42"), put(&m, 'n', 1), put_text(&m, "tab\there");
    pgo_msg_t i = parse_ok(&m, a);
    CHECK_INT(i.kind, PGO_INSERT);
    CHECK_INT(i.relid, 7);
    CHECK_INT(i.old_kind, 0);
    CHECK_INT(i.new_tuple.ncols, 3);
    check_value(&i.new_tuple.values[0], "42");
    CHECK_INT(i.new_tuple.values[1].kind, 'n');
    check_value(&i.new_tuple.values[2], "tab\there");

    m.n = 0; /* an update with the old row (REPLICA IDENTITY FULL), a TOASTed value unchanged */
    put(&m, 'U', 1), put(&m, 7, 4), put(&m, 'O', 1), put(&m, 2, 2), put_text(&m, "1");
    put_text(&m, "big"), put(&m, 'N', 1), put(&m, 2, 2), put_text(&m, "2"), put(&m, 'u', 1);
    pgo_msg_t u = parse_ok(&m, a);
    CHECK_INT(u.kind, PGO_UPDATE);
    CHECK_INT(u.old_kind, 'O');
    check_value(&u.old_tuple.values[0], "1");
    check_value(&u.old_tuple.values[1], "big");
    check_value(&u.new_tuple.values[0], "2");
    CHECK_INT(u.new_tuple.values[1].kind, 'u');

    m.n = 0; /* an update without the old row (the key did not change) */
    put(&m, 'U', 1), put(&m, 7, 4), put(&m, 'N', 1), put(&m, 1, 2), put_text(&m, "9");
    pgo_msg_t u2 = parse_ok(&m, a);
    CHECK_INT(u2.old_kind, 0);
    check_value(&u2.new_tuple.values[0], "9");

    m.n = 0;
    put(&m, 'D', 1), put(&m, 7, 4), put(&m, 'K', 1), put(&m, 1, 2), put_text(&m, "5");
    pgo_msg_t d = parse_ok(&m, a);
    CHECK_INT(d.kind, PGO_DELETE);
    CHECK_INT(d.old_kind, 'K');
    check_value(&d.old_tuple.values[0], "5");
    sl_arena_free(a);
}

TEST(truncate_and_skipped_kinds)
{
    sl_arena_t *a = sl_arena_new("t");
    msg_t m = {{0}, 0};
    put(&m, 'T', 1), put(&m, 2, 4), put(&m, 0, 1), put(&m, 11, 4), put(&m, 12, 4);
    pgo_msg_t t = parse_ok(&m, a);
    CHECK_INT(t.kind, PGO_TRUNCATE);
    CHECK_INT(t.nrelids, 2);
    CHECK_INT(t.relids[1], 12);
    m.n = 0;
    put(&m, 'Y', 1), put(&m, 99, 4), put_str(&m, "public"), put_str(&m, "mood");
    CHECK_INT(parse_ok(&m, a).kind, PGO_SKIPPED);
    sl_arena_free(a);
}

TEST(malformed_messages_refused)
{
    sl_arena_t *a = sl_arena_new("t");
    sl_error_t err;
    pgo_msg_t out;
    msg_t m = {{0}, 0};
    put(&m, 'I', 1), put(&m, 7, 4), put(&m, 'N', 1), put(&m, 1, 2), put_text(&m, "12345");
    for (size_t cut = 0; cut < m.n; cut++) {
        CHECK(pgo_parse(m.b, cut, a, &out, &err) < 0);
        CHECK_STR(err.sqlstate, "08P01");
    }
    m.b[m.n++] = 0; /* a trailing byte */
    CHECK(pgo_parse(m.b, m.n, a, &out, &err) < 0);
    CHECK_STR(err.message, "malformed pgoutput message 'I' (19 bytes)");
    m.n = 0;
    put(&m, 'D', 1), put(&m, 7, 4), put(&m, 'N', 1), put(&m, 0, 2); /* delete without old row */
    CHECK(pgo_parse(m.b, m.n, a, &out, &err) < 0);
    m.n = 0;
    put(&m, 'Z', 1);
    CHECK(pgo_parse(m.b, m.n, a, &out, &err) < 0);
    CHECK_STR(err.message, "unknown pgoutput message type 0x5a");
    m.n = 0;
    put(&m, 'I', 1), put(&m, 7, 4), put(&m, 'N', 1), put(&m, 1, 2), put(&m, 'b', 1);
    CHECK(pgo_parse(m.b, m.n, a, &out, &err) < 0); /* binary values: not asked for */
    sl_arena_free(a);
}

TEST(replication_frames)
{
    sl_error_t err;
    pgo_frame_t f;
    msg_t m = {{0}, 0};
    put(&m, 'w', 1), put(&m, 0x10, 8), put(&m, 0x20, 8), put(&m, 0, 8), put(&m, 'B', 1);
    CHECK(pgo_parse_frame(m.b, m.n, &f, &err) == 0);
    CHECK_INT(f.kind, 'w');
    CHECK_INT(f.wal_start, 0x10);
    CHECK_INT(f.wal_end, 0x20);
    CHECK_INT(f.len, 1);
    CHECK_INT(f.data[0], 'B');
    m.n = 0;
    put(&m, 'k', 1), put(&m, 0x30, 8), put(&m, 0, 8), put(&m, 1, 1);
    CHECK(pgo_parse_frame(m.b, m.n, &f, &err) == 0);
    CHECK_INT(f.kind, 'k');
    CHECK_INT(f.wal_end, 0x30);
    CHECK_INT(f.reply_requested, 1);
    CHECK(pgo_parse_frame(m.b, 5, &f, &err) < 0);
    CHECK_STR(err.sqlstate, "08P01");
    m.b[0] = 'x';
    CHECK(pgo_parse_frame(m.b, m.n, &f, &err) < 0);
}

TEST(status_update_bytes)
{
    uint8_t b[34];
    pgo_status_update(b, 0x1112131415161718ULL, 0x0102030405060708ULL, PGO_EPOCH_US + 0x99, 1);
    CHECK_INT(b[0], 'r');
    for (int i = 0; i < 8; i++) CHECK_INT(b[1 + i], 0x11 + i); /* written */
    for (int part = 1; part < 3; part++)                       /* flushed, applied */
        for (int i = 0; i < 8; i++) CHECK_INT(b[1 + part * 8 + i], i + 1);
    for (int i = 0; i < 7; i++) CHECK_INT(b[25 + i], 0);
    CHECK_INT(b[32], 0x99);
    CHECK_INT(b[33], 1);
}

TEST(lsn_text)
{
    char s[24];
    uint64_t v;
    pgo_lsn_format(0x16B3748, s, sizeof s);
    CHECK_STR(s, "0/16B3748");
    pgo_lsn_format(0xABCDEF0012345678ULL, s, sizeof s);
    CHECK_STR(s, "ABCDEF00/12345678");
    CHECK(pgo_lsn_parse("ABCDEF00/12345678", &v) == 0 && v == 0xABCDEF0012345678ULL);
    CHECK(pgo_lsn_parse("0/0", &v) == 0 && v == 0);
    CHECK(pgo_lsn_parse("0/16b3748", &v) == 0 && v == 0x16B3748);
    CHECK(pgo_lsn_parse("16B3748", &v) < 0);
    CHECK(pgo_lsn_parse("0/1 ", &v) < 0);
    CHECK(pgo_lsn_parse("", &v) < 0);
}
