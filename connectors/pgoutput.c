/* The pgoutput message parser and the replication stream's frames
 * (connectors/pgoutput.h): big-endian fields read with bounds checks, every
 * short or unknown message an 08P01 error. */
#include "connectors/pgoutput.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* A cursor over one message. */
typedef struct rd {
    const uint8_t *p;
    size_t n, at;
    int bad;
} rd_t;

static uint64_t rd_uint(rd_t *r, int bytes)
{
    if (r->bad || r->n - r->at < (size_t)bytes) {
        r->bad = 1;
        return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v = v << 8 | r->p[r->at++];
    return v;
}

/* A NUL-terminated string of the message, copied into `a`. */
static const char *rd_string(rd_t *r, sl_arena_t *a)
{
    if (r->bad) return "";
    const void *nul = memchr(r->p + r->at, 0, r->n - r->at);
    if (!nul) {
        r->bad = 1;
        return "";
    }
    size_t len = (size_t)((const uint8_t *)nul - (r->p + r->at));
    const char *s = sl_strndup(a, (const char *)r->p + r->at, len);
    r->at += len + 1;
    return s;
}

static int64_t pg_time_to_unix(uint64_t pg_us)
{
    return (int64_t)pg_us + PGO_EPOCH_US;
}

static void parse_tuple(rd_t *r, sl_arena_t *a, pgo_tuple_t *t)
{
    t->ncols = (int)rd_uint(r, 2);
    t->values = SL_NEW_ARRAY(a, pgo_value_t, t->ncols + 1);
    for (int i = 0; i < t->ncols && !r->bad; i++) {
        pgo_value_t *v = &t->values[i];
        v->kind = (char)rd_uint(r, 1);
        if (v->kind == 'n' || v->kind == 'u') continue;
        if (v->kind != 't') {
            r->bad = 1;
            return;
        }
        v->len = (uint32_t)rd_uint(r, 4);
        if (r->bad || r->n - r->at < v->len) {
            r->bad = 1;
            return;
        }
        v->text = (const char *)r->p + r->at;
        r->at += v->len;
    }
}

static void parse_relation(rd_t *r, sl_arena_t *a, pgo_msg_t *m)
{
    m->relid = (uint32_t)rd_uint(r, 4);
    m->nspname = rd_string(r, a);
    m->relname = rd_string(r, a);
    m->replident = (char)rd_uint(r, 1);
    m->ncols = (int)rd_uint(r, 2);
    m->cols = SL_NEW_ARRAY(a, pgo_column_t, m->ncols + 1);
    for (int i = 0; i < m->ncols && !r->bad; i++) {
        m->cols[i].key = (int)(rd_uint(r, 1) & 1);
        m->cols[i].name = rd_string(r, a);
        m->cols[i].type_oid = (uint32_t)rd_uint(r, 4);
        m->cols[i].typmod = (int32_t)rd_uint(r, 4);
    }
}

/* Update and Delete: an optional 'K' (key) or 'O' (old row) tuple first. */
static void parse_old_tuple(rd_t *r, sl_arena_t *a, pgo_msg_t *m)
{
    uint8_t next = r->at < r->n ? r->p[r->at] : 0;
    if (next != 'K' && next != 'O') return;
    m->old_kind = (char)rd_uint(r, 1);
    parse_tuple(r, a, &m->old_tuple);
}

static void parse_new_tuple(rd_t *r, sl_arena_t *a, pgo_msg_t *m)
{
    if (rd_uint(r, 1) != 'N') r->bad = 1;
    else parse_tuple(r, a, &m->new_tuple);
}

static void parse_truncate(rd_t *r, sl_arena_t *a, pgo_msg_t *m)
{
    m->nrelids = (int)rd_uint(r, 4);
    rd_uint(r, 1); /* CASCADE / RESTART IDENTITY flags */
    if (r->bad || (size_t)m->nrelids > (r->n - r->at) / 4) {
        r->bad = 1;
        return;
    }
    m->relids = SL_NEW_ARRAY(a, uint32_t, m->nrelids + 1);
    for (int i = 0; i < m->nrelids; i++) m->relids[i] = (uint32_t)rd_uint(r, 4);
}

static void parse_body(rd_t *r, sl_arena_t *a, pgo_msg_t *m)
{
    switch (m->kind) {
    case PGO_BEGIN:
        m->final_lsn = rd_uint(r, 8);
        m->commit_us = pg_time_to_unix(rd_uint(r, 8));
        m->xid = (uint32_t)rd_uint(r, 4);
        break;
    case PGO_COMMIT:
        rd_uint(r, 1); /* flags, unused */
        m->commit_lsn = rd_uint(r, 8);
        m->end_lsn = rd_uint(r, 8);
        m->commit_us = pg_time_to_unix(rd_uint(r, 8));
        break;
    case PGO_RELATION: parse_relation(r, a, m); break;
    case PGO_INSERT:
        m->relid = (uint32_t)rd_uint(r, 4);
        parse_new_tuple(r, a, m);
        break;
    case PGO_UPDATE:
        m->relid = (uint32_t)rd_uint(r, 4);
        parse_old_tuple(r, a, m);
        parse_new_tuple(r, a, m);
        break;
    case PGO_DELETE:
        m->relid = (uint32_t)rd_uint(r, 4);
        parse_old_tuple(r, a, m);
        if (!m->old_kind) r->bad = 1;
        break;
    case PGO_TRUNCATE: parse_truncate(r, a, m); break;
    default: break;
    }
}

int pgo_parse(const uint8_t *p, size_t n, sl_arena_t *a, pgo_msg_t *out, sl_error_t *err)
{
    memset(out, 0, sizeof *out);
    rd_t r = {p, n, 0, 0};
    char kind = (char)rd_uint(&r, 1);
    if (r.bad) return sl_error_set(err, SL_ERR_PROTOCOL_VIOLATION, "empty pgoutput message");
    if (strchr("BCRIUDT", kind)) out->kind = (pgo_kind_t)kind;
    else if (strchr("OYM", kind)) return 0;
    else
        return sl_error_set(err, SL_ERR_PROTOCOL_VIOLATION, "unknown pgoutput message type 0x%02x",
                            (unsigned char)kind);
    parse_body(&r, a, out);
    if (r.bad || r.at != n)
        return sl_error_set(err, SL_ERR_PROTOCOL_VIOLATION,
                            "malformed pgoutput message '%c' (%zu bytes)", kind, n);
    return 0;
}

int pgo_parse_frame(const uint8_t *p, size_t n, pgo_frame_t *out, sl_error_t *err)
{
    memset(out, 0, sizeof *out);
    rd_t r = {p, n, 0, 0};
    out->kind = (char)rd_uint(&r, 1);
    if (out->kind == 'w') {
        out->wal_start = rd_uint(&r, 8);
        out->wal_end = rd_uint(&r, 8);
        rd_uint(&r, 8); /* send time */
        out->data = p + r.at;
        out->len = r.bad ? 0 : n - r.at;
    } else if (out->kind == 'k') {
        out->wal_end = rd_uint(&r, 8);
        rd_uint(&r, 8);
        out->reply_requested = (int)rd_uint(&r, 1);
    } else {
        r.bad = 1;
    }
    if (r.bad)
        return sl_error_set(err, SL_ERR_PROTOCOL_VIOLATION,
                            "malformed replication message (%zu bytes)", n);
    return 0;
}

static void put_uint64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8) p[i] = (uint8_t)v;
}

void pgo_status_update(uint8_t out[34], uint64_t written, uint64_t flushed, int64_t now_us,
                       int reply)
{
    out[0] = 'r';
    put_uint64(out + 1, written);
    put_uint64(out + 9, flushed);
    put_uint64(out + 17, flushed);
    put_uint64(out + 25, (uint64_t)(now_us - PGO_EPOCH_US));
    out[33] = (uint8_t)(reply != 0);
}

void pgo_lsn_format(uint64_t lsn, char *out, size_t n)
{
    snprintf(out, n, "%" PRIX32 "/%" PRIX32, (uint32_t)(lsn >> 32), (uint32_t)lsn);
}

int pgo_lsn_parse(const char *s, uint64_t *out)
{
    unsigned hi, lo;
    int used = 0;
    if (sscanf(s, "%8X/%8X%n", &hi, &lo, &used) != 2 || s[used]) return -1;
    *out = (uint64_t)hi << 32 | lo;
    return 0;
}
