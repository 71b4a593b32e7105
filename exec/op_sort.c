/* SORT: buffers every row of the task, sorts normalized keys, emits in
 * order from finish().
 *
 * NORMALIZED KEYS. Each row's ORDER BY columns are encoded once, at push
 * time, into one byte string whose memcmp order is the requested order:
 * model/row.h's memcomparable key encoding per column (a marker byte, then
 * order-preserving bytes), with the marker of a NULL rewritten to 0x00
 * (NULLS FIRST) or 0x02 (NULLS LAST, after the 0x01 of values) and, for
 * DESC, the value bytes inverted (the encoding is prefix-free, so inverting
 * reverses the order). Sorting then needs no type dispatch: entries hold
 * the key's first 16 bytes as two big-endian integers (a marker and an
 * 8-byte number fit, so most comparisons end there), the key's place in
 * the key buffer, and the row number, which breaks ties and makes the sort
 * stable. The entries are sorted by an LSD radix sort over the 16 prefix
 * bytes, skipping byte positions where every key has the same byte (the
 * marker, the high bytes of small numbers); being stable, it leaves equal
 * prefixes in input order. Keys are prefix-free (each column's encoding is
 * self-delimiting), so equal prefixes of keys of at most 16 bytes are equal
 * keys; runs of equal prefixes with a longer key are then merge-sorted with
 * the full comparison. Measured on 1 M BIGINT rows this is several times
 * faster than a comparison sort (glibc's qsort_r with a callback, or an
 * inlined merge sort) over the same entries.
 *
 * MEMORY. Each pushed batch is copied (op_join_copy_batch: typed gathers,
 * strings in one block) into the operator's own arena; keys go to a heap
 * buffer and entries to a heap array, all freed in close(). finish()
 * sorts the entries, gathers EXEC_BATCH_ROWS rows at a time from the
 * copies into scratch memory, emits them and resets scratch.
 *
 * TOP-N. With a limit (ORDER BY ... LIMIT n) only the first n rows go out,
 * so once 2n rows (at least TOPN_MIN_ROWS) are buffered, keep_top() sorts
 * them and keeps the first n: their rows are copied, in order, into a new
 * arena that replaces the old one, their keys into a new buffer, and they
 * are renumbered 0..n-1. The n-th key becomes the BOUND: a row pushed
 * later is kept only when its key is smaller (an equal key ranks after,
 * being later in input order), so most rows of a long input cost one key
 * encoding and one comparison and are never copied. Rows pushed later get
 * higher numbers, so ties still come out in input order, and memory stays
 * O(n + TOPN_MIN_ROWS) whatever the input size. LIMIT 0 keeps nothing. */
#include "exec/op_sort.h"

#include <stdlib.h>
#include <string.h>

#include "exec/op_join_util.h"
#include "model/row.h"

typedef struct sort_config {
    int nkeys;
    op_sort_key_t *keys; /* nulls_first resolved to 0 / 1 */
    int64_t limit;
} sort_config_t;

typedef struct sort_entry {
    uint64_t p0, p1; /* first 16 key bytes, big-endian, zero-padded */
    uint64_t off;    /* key bytes in the key buffer */
    uint32_t len;
    uint32_t row; /* row in the builder (input order) */
} sort_entry_t;

/* Buffered rows that trigger keep_top() when twice the limit is smaller. */
#define TOPN_MIN_ROWS 8192

typedef struct sort_state {
    sl_arena_t *rows;       /* the copies below and their index arrays */
    exec_batch_t **batches; /* copies of the pushed rows */
    uint32_t *starts;       /* global row number of each copy's first row */
    int nbatches, capbatches;
    sl_buf_t keys;         /* every row's normalized key */
    sort_entry_t *entries; /* heap; one per row, row = global row number */
    uint32_t n, cap;
    sl_buf_t bound; /* top-N: keys must be smaller than this one (len 0: none yet) */
} sort_state_t;

static int sort_open(op_t *op, sl_error_t *err)
{
    (void)err;
    sort_state_t *st = SL_NEW(op->ctx->arena, sort_state_t);
    st->rows = sl_arena_new("sort rows");
    op->state = st;
    return 0;
}

static void sort_close(op_t *op)
{
    sort_state_t *st = op->state;
    if (!st) return;
    sl_buf_free(&st->keys);
    sl_buf_free(&st->bound);
    free(st->entries);
    sl_arena_free(st->rows);
}

/* ---- normalized keys, a column at a time ------------------------------
 * Fast types (BOOLEAN, INT, DATE, BIGINT, TIMESTAMP, DOUBLE, STRING,
 * BINARY) are written by typed loops in exactly model/row.h's key format;
 * other types go through exec_key_encode one cell at a time. */

/* Bytes after the marker of a non-NULL cell of a fixed fast type; 0 for
 * strings and other types. */
static size_t fixed_width(exec_type_id_t id)
{
    switch (id) {
    case EXEC_TYPE_BOOLEAN: return 1;
    case EXEC_TYPE_INT:
    case EXEC_TYPE_DATE: return 4;
    case EXEC_TYPE_BIGINT:
    case EXEC_TYPE_TIMESTAMP:
    case EXEC_TYPE_DOUBLE: return 8;
    default: return 0;
    }
}

static bool cell_null(const exec_vec_t *v, uint32_t row)
{
    return v->type.id == EXEC_TYPE_NULL || exec_vec_is_null(v, row);
}

/* Escaped length of a string: 0x00 becomes 0x00 0xFF, then 0x00 0x00. */
static size_t str_key_len(const exec_str_t *s)
{
    size_t n = s->len + 2;
    for (const char *p = s->ptr, *end = p + s->len;
         p < end && (p = memchr(p, 0, (size_t)(end - p))); p++)
        n++;
    return n;
}

static void put_be(unsigned char *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++) p[i] = (unsigned char)(v >> (8 * (n - 1 - i)));
}

/* The order-preserving bits of a double (-0 as 0, one NaN above +Inf). */
static uint64_t double_bits(double d)
{
    uint64_t bits;
    if (d == 0) d = 0;
    memcpy(&bits, &d, 8);
    if (d != d) bits = UINT64_C(0x7ff8000000000000);
    return bits >> 63 ? ~bits : bits | (UINT64_C(1) << 63);
}

/* Writes the value bytes of a fast-type cell at p; returns bytes written. */
static size_t put_fast(unsigned char *p, const exec_vec_t *v, uint32_t row)
{
    switch (v->type.id) {
    case EXEC_TYPE_BOOLEAN: *p = EXEC_VEC_AT(v, uint8_t, row); return 1;
    case EXEC_TYPE_INT:
    case EXEC_TYPE_DATE:
        put_be(p, (uint32_t)EXEC_VEC_AT(v, int32_t, row) ^ UINT32_C(0x80000000), 4);
        return 4;
    case EXEC_TYPE_BIGINT:
    case EXEC_TYPE_TIMESTAMP:
        put_be(p, (uint64_t)EXEC_VEC_AT(v, int64_t, row) ^ (UINT64_C(1) << 63), 8);
        return 8;
    case EXEC_TYPE_DOUBLE: put_be(p, double_bits(EXEC_VEC_AT(v, double, row)), 8); return 8;
    default: break;
    }
    const exec_str_t *s = &EXEC_VEC_AT(v, exec_str_t, row);
    unsigned char *q = p;
    for (uint32_t i = 0; i < s->len; i++) {
        *q++ = (unsigned char)s->ptr[i];
        if (!s->ptr[i]) *q++ = 0xff;
    }
    *q++ = 0;
    *q++ = 0;
    return (size_t)(q - p);
}

/* Per key column of one batch: generic cells pre-encoded (with marker). */
typedef struct col_enc {
    bool fast;
    sl_buf_t cells;     /* generic: exec_key_encode of each present row */
    uint32_t *cell_off; /* generic: offset of row k's cell in `cells` */
} col_enc_t;

/* Pass 1: adds each present row's bytes for column i to len[k]. */
static void key_lengths(const op_sort_key_t *key, const exec_batch_t *b, col_enc_t *ce,
                        uint32_t *len, sl_arena_t *a)
{
    const exec_vec_t *v = &b->cols[key->column];
    uint32_t n = exec_batch_count(b);
    size_t w = fixed_width(v->type.id);
    ce->fast = w || exec_type_is_varlen(v->type);
    if (!ce->fast) ce->cell_off = sl_alloc(a, sizeof *ce->cell_off * (n + 1));
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = exec_batch_row(b, k);
        if (!ce->fast) {
            ce->cell_off[k] = (uint32_t)ce->cells.len;
            exec_key_encode(b, row, &key->column, 1, &ce->cells);
            len[k] += (uint32_t)(ce->cells.len - ce->cell_off[k]);
        } else if (cell_null(v, row)) {
            len[k] += 1;
        } else {
            len[k] += 1 + (uint32_t)(w ? w : str_key_len(&EXEC_VEC_AT(v, exec_str_t, row)));
        }
    }
    if (!ce->fast) ce->cell_off[n] = (uint32_t)ce->cells.len;
}

/* Pass 2: writes column i of each present row at base + pos[k]. */
static void key_write(const op_sort_key_t *key, const exec_batch_t *b, const col_enc_t *ce,
                      unsigned char *base, uint64_t *pos)
{
    const exec_vec_t *v = &b->cols[key->column];
    uint32_t n = exec_batch_count(b);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = exec_batch_row(b, k);
        unsigned char *p = base + pos[k];
        size_t m;
        if (!ce->fast) {
            m = ce->cell_off[k + 1] - ce->cell_off[k];
            memcpy(p, ce->cells.data + ce->cell_off[k], m);
        } else if (cell_null(v, row)) {
            *p = 0;
            m = 1;
        } else {
            *p = 1;
            m = 1 + put_fast(p + 1, v, row);
        }
        if (*p == 0) *p = key->nulls_first ? 0x00 : 0x02;
        else if (key->desc)
            for (size_t j = 1; j < m; j++) p[j] = (unsigned char)~p[j];
        pos[k] += m;
    }
}

/* Appends the normalized keys of b's present rows to st->keys; off[k]
 * receives where row k's key starts. */
static void encode_keys(const sort_config_t *cfg, sort_state_t *st, const exec_batch_t *b,
                        uint64_t *off, sl_arena_t *a)
{
    uint32_t n = exec_batch_count(b);
    uint32_t *len = SL_NEW_ARRAY(a, uint32_t, n);
    col_enc_t *ce = SL_NEW_ARRAY(a, col_enc_t, cfg->nkeys);
    for (int i = 0; i < cfg->nkeys; i++) key_lengths(&cfg->keys[i], b, &ce[i], len, a);
    size_t total = 0;
    for (uint32_t k = 0; k < n; k++) {
        off[k] = st->keys.len + total;
        total += len[k];
    }
    sl_buf_reserve(&st->keys, total);
    for (int i = 0; i < cfg->nkeys; i++) {
        key_write(&cfg->keys[i], b, &ce[i], (unsigned char *)st->keys.data, off);
        sl_buf_free(&ce[i].cells);
    }
    for (uint32_t k = 0; k < n; k++) off[k] -= len[k];
    st->keys.len += total;
}

/* Bytes from .. from+7 of the key, big-endian, zero-padded. */
static uint64_t key_prefix(const unsigned char *p, size_t len, size_t from)
{
    uint64_t v = 0;
    for (size_t i = from; i < from + 8; i++) v = v << 8 | (i < len ? p[i] : 0);
    return v;
}

static void add_entry(sort_state_t *st, uint64_t off, uint32_t len, uint32_t row)
{
    sort_entry_t *e = &st->entries[st->n++];
    e->off = off;
    e->len = len;
    const unsigned char *k = (const unsigned char *)st->keys.data + off;
    e->p0 = key_prefix(k, e->len, 0);
    e->p1 = key_prefix(k, e->len, 8);
    e->row = row;
}

/* Adds c, a copy in st->rows whose first row is global row `start`. */
static void add_copy(sort_state_t *st, exec_batch_t *c, uint32_t start)
{
    sl_arena_t *a = st->rows;
    if (st->nbatches == st->capbatches) {
        int cap = st->capbatches ? st->capbatches * 2 : 16;
        st->batches = sl_arena_realloc(a, st->batches, sizeof *st->batches * (size_t)st->capbatches,
                                       sizeof *st->batches * (size_t)cap);
        st->starts = sl_arena_realloc(a, st->starts, sizeof *st->starts * (size_t)st->capbatches,
                                      sizeof *st->starts * (size_t)cap);
        st->capbatches = cap;
    }
    st->batches[st->nbatches] = c;
    st->starts[st->nbatches++] = start;
}

static void keep_top(sort_state_t *st, int ncols, uint32_t limit);

/* Whether key a sorts before key b (keys are prefix-free). */
static bool key_less(const char *a, size_t alen, const char *b, size_t blen)
{
    int c = memcmp(a, b, alen < blen ? alen : blen);
    return c != 0 ? c < 0 : alen < blen;
}

/* Top-N: drops the rows of b (keys off[0..n) at the end of st->keys) whose
 * key is not below the bound, moving the kept keys down over them; returns
 * b, or a view of b without the dropped rows, and the kept count in *n. */
static const exec_batch_t *below_bound(sort_state_t *st, const exec_batch_t *b, uint64_t *off,
                                       uint32_t *n, sl_arena_t *scratch)
{
    uint32_t m = 0, count = *n;
    uint32_t *sel = sl_alloc(scratch, sizeof *sel * count);
    uint64_t write = off[0], end = st->keys.len;
    for (uint32_t k = 0; k < count; k++) {
        uint64_t len = (k + 1 < count ? off[k + 1] : end) - off[k];
        if (!key_less(st->keys.data + off[k], len, st->bound.data, st->bound.len)) continue;
        memmove(st->keys.data + write, st->keys.data + off[k], len);
        off[m] = write;
        sel[m++] = exec_batch_row(b, k);
        write += len;
    }
    st->keys.len = write;
    *n = m;
    if (m == count) return b;
    exec_batch_t *v = exec_batch_shallow_copy(b, scratch);
    v->sel = sel;
    v->nsel = m;
    return v;
}

static int sort_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    (void)input;
    (void)err;
    const sort_config_t *cfg = op->node->config;
    sort_state_t *st = op->state;
    uint32_t n = exec_batch_count(b);
    op->metrics->rows_in += n;
    if (n == 0 || cfg->limit == 0) return 0;
    sl_arena_t *scratch = op->ctx->ectx->arena;
    uint64_t *off = sl_alloc(scratch, sizeof *off * n);
    encode_keys(cfg, st, b, off, scratch);
    const exec_batch_t *kept = b;
    if (st->bound.len > 0 && (kept = below_bound(st, b, off, &n, scratch), n == 0)) return 0;
    if (st->n + n > st->cap) {
        while (st->n + n > st->cap) st->cap = st->cap ? st->cap * 2 : 4096;
        st->entries = sl_xrealloc(st->entries, sizeof *st->entries * st->cap);
    }
    for (uint32_t k = 0; k < n; k++) {
        uint64_t end = k + 1 < n ? off[k + 1] : st->keys.len;
        add_entry(st, off[k], (uint32_t)(end - off[k]), st->n);
    }
    add_copy(st, op_join_copy_batch(st->rows, kept), st->n - n);
    if (cfg->limit >= 0 && st->n >= TOPN_MIN_ROWS && (uint64_t)st->n >= 2 * (uint64_t)cfg->limit)
        keep_top(st, op->node->ncols, (uint32_t)cfg->limit);
    return 0;
}

/* Orders entries by key bytes (in `keys`), then input order. */
static inline int entry_cmp(const sort_entry_t *a, const sort_entry_t *b, const unsigned char *keys)
{
    if (a->p0 != b->p0) return a->p0 < b->p0 ? -1 : 1;
    if (a->p1 != b->p1) return a->p1 < b->p1 ? -1 : 1;
    if (a->len > 16 && b->len > 16) {
        uint32_t m = (a->len < b->len ? a->len : b->len) - 16;
        int c = memcmp(keys + a->off + 16, keys + b->off + 16, m);
        if (c) return c;
    }
    if (a->len != b->len) return a->len < b->len ? -1 : 1;
    return a->row < b->row ? -1 : a->row > b->row;
}

static void insertion_sort(sort_entry_t *v, uint32_t n, const unsigned char *keys)
{
    for (uint32_t i = 1; i < n; i++) {
        sort_entry_t x = v[i];
        uint32_t j = i;
        for (; j > 0 && entry_cmp(&x, &v[j - 1], keys) < 0; j--) v[j] = v[j - 1];
        v[j] = x;
    }
}

/* Sorts v[0..n) using tmp[0..n) as room: the halves are sorted into tmp,
 * then merged back into v (into tmp when into_tmp). */
static void merge_sort(sort_entry_t *v, sort_entry_t *tmp, uint32_t n, const unsigned char *keys,
                       int into_tmp)
{
    sort_entry_t *dst = into_tmp ? tmp : v, *src = into_tmp ? v : tmp;
    if (n <= 16) {
        insertion_sort(v, n, keys);
        if (into_tmp) memcpy(tmp, v, sizeof *v * n);
        return;
    }
    uint32_t h = n / 2;
    merge_sort(v, tmp, h, keys, !into_tmp);
    merge_sort(v + h, tmp + h, n - h, keys, !into_tmp);
    uint32_t i = 0, j = h, k = 0;
    while (i < h && j < n) dst[k++] = entry_cmp(&src[j], &src[i], keys) < 0 ? src[j++] : src[i++];
    while (i < h) dst[k++] = src[i++];
    while (j < n) dst[k++] = src[j++];
}

/* Byte b (0 = most significant) of an entry's 16-byte prefix. */
static inline unsigned prefix_byte(const sort_entry_t *e, int b)
{
    return (unsigned)((b < 8 ? e->p0 >> (56 - 8 * b) : e->p1 >> (120 - 8 * b)) & 0xff);
}

/* Stable LSD radix sort of v[0..n) by the 16-byte prefix; tmp has n room. */
static void radix_sort(sort_entry_t *v, sort_entry_t *tmp, uint32_t n)
{
    uint32_t(*hist)[256] = sl_xcalloc(16, sizeof *hist);
    for (uint32_t i = 0; i < n; i++)
        for (int b = 0; b < 16; b++) hist[b][prefix_byte(&v[i], b)]++;
    sort_entry_t *src = v, *dst = tmp;
    for (int b = 15; b >= 0; b--) {
        if (hist[b][prefix_byte(&v[0], b)] == n) continue; /* one value: nothing to do */
        uint32_t off[256], sum = 0;
        for (int x = 0; x < 256; x++) {
            off[x] = sum;
            sum += hist[b][x];
        }
        for (uint32_t i = 0; i < n; i++) dst[off[prefix_byte(&src[i], b)]++] = src[i];
        sort_entry_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != v) memcpy(v, src, sizeof *v * n);
    free(hist);
}

/* Radix sort, then a full comparison within runs of equal prefixes that
 * hold a key longer than the prefix. */
static void sort_entries(sort_entry_t *v, uint32_t n, const unsigned char *keys)
{
    if (n < 2) return;
    sort_entry_t *tmp = sl_xmalloc(sizeof *tmp * n);
    radix_sort(v, tmp, n);
    for (uint32_t i = 0; i < n;) {
        uint32_t j = i + 1;
        int longer = v[i].len > 16;
        while (j < n && v[j].p0 == v[i].p0 && v[j].p1 == v[i].p1) longer |= v[j++].len > 16;
        if (longer && j - i > 1) merge_sort(v + i, tmp, j - i, keys, 0);
        i = j;
    }
    free(tmp);
}

/* Global rows g[0..n) as a new batch in `a`. */
static exec_batch_t *gather_rows(sl_arena_t *a, const sort_state_t *st, int ncols,
                                 const uint32_t *g, uint32_t n)
{
    uint32_t *bidx = sl_alloc(a, sizeof *bidx * n), *rows = sl_alloc(a, sizeof *rows * n);
    for (uint32_t i = 0; i < n; i++) {
        int lo = 0, hi = st->nbatches - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) / 2;
            if (st->starts[mid] <= g[i]) lo = mid;
            else hi = mid - 1;
        }
        bidx[i] = (uint32_t)lo;
        rows[i] = g[i] - st->starts[lo];
    }
    exec_batch_t *out = SL_NEW(a, exec_batch_t);
    out->arena = a;
    out->nrows = n;
    out->ncols = ncols;
    out->cols = SL_NEW_ARRAY(a, exec_vec_t, ncols > 0 ? ncols : 1);
    for (int c = 0; c < ncols; c++)
        out->cols[c] = op_join_gather_multi(a, st->batches, st->nbatches, c, bidx, rows, n);
    int has_change = 0;
    for (int k = 0; k < st->nbatches; k++) has_change |= st->batches[k]->change != NULL;
    if (has_change) {
        out->change = sl_alloc(a, n);
        for (uint32_t i = 0; i < n; i++) {
            const int8_t *ch = st->batches[bidx[i]]->change;
            out->change[i] = ch ? ch[rows[i]] : 1;
        }
    }
    return out;
}

/* Keeps only the first `limit` rows in sort order (see TOP-N above). */
static void keep_top(sort_state_t *st, int ncols, uint32_t limit)
{
    sort_entries(st->entries, st->n, (const unsigned char *)st->keys.data);
    uint32_t m = st->n < limit ? st->n : limit;
    sl_arena_t *rows = sl_arena_new("sort rows");
    exec_batch_t *kept = NULL;
    if (m > 0) {
        sl_arena_t *tmp = sl_arena_new("sort top rows");
        uint32_t *g = sl_alloc(tmp, sizeof *g * m);
        for (uint32_t i = 0; i < m; i++) g[i] = st->entries[i].row;
        kept = op_join_copy_batch(rows, gather_rows(tmp, st, ncols, g, m));
        sl_arena_free(tmp);
    }
    sl_buf_t keys = SL_BUF_INIT;
    for (uint32_t i = 0; i < m; i++) {
        sort_entry_t *e = &st->entries[i];
        uint64_t off = keys.len;
        sl_buf_append(&keys, st->keys.data + e->off, e->len);
        e->off = off;
        e->row = i;
    }
    sl_buf_free(&st->keys);
    st->keys = keys;
    if (m == limit) {
        const sort_entry_t *last = &st->entries[m - 1];
        sl_buf_clear(&st->bound);
        sl_buf_append(&st->bound, keys.data + last->off, last->len);
    }
    sl_arena_free(st->rows);
    st->rows = rows;
    st->batches = NULL;
    st->starts = NULL;
    st->nbatches = st->capbatches = 0;
    st->n = m;
    if (kept) add_copy(st, kept, 0);
}

static int sort_finish(op_t *op, sl_error_t *err)
{
    const sort_config_t *cfg = op->node->config;
    sort_state_t *st = op->state;
    sort_entries(st->entries, st->n, (const unsigned char *)st->keys.data);
    uint32_t total = st->n;
    if (cfg->limit >= 0 && (uint64_t)cfg->limit < total) total = (uint32_t)cfg->limit;
    sl_arena_t *scratch = op->ctx->ectx->arena;
    for (uint32_t done = 0; done < total;) {
        uint32_t n = total - done < EXEC_BATCH_ROWS ? total - done : EXEC_BATCH_ROWS;
        uint32_t *g = sl_alloc(scratch, sizeof *g * n);
        for (uint32_t i = 0; i < n; i++) g[i] = st->entries[done + i].row;
        done += n;
        if (op_emit(op, gather_rows(scratch, st, op->node->ncols, g, n), err) < 0) return -1;
        sl_arena_reset(scratch);
    }
    return 0;
}

static void sort_explain(const exec_pnode_t *node, sl_buf_t *out)
{
    const sort_config_t *cfg = node->config;
    for (int i = 0; i < cfg->nkeys; i++) {
        const op_sort_key_t *k = &cfg->keys[i];
        sl_buf_printf(out, "%s%s %s NULLS %s", i ? ", " : " ", node->names[k->column],
                      k->desc ? "DESC" : "ASC", k->nulls_first ? "FIRST" : "LAST");
    }
    if (cfg->limit >= 0) sl_buf_printf(out, " limit %lld", (long long)cfg->limit);
}

const op_ops_t op_sort_ops = {
    .name = "Sort",
    .open = sort_open,
    .push = sort_push,
    .finish = sort_finish,
    .close = sort_close,
    .explain = sort_explain,
};

exec_pnode_t *op_sort_plan(sl_arena_t *a, exec_pnode_t *child, const op_sort_key_t *keys, int nkeys,
                           int64_t limit, sl_error_t *err)
{
    sort_config_t *cfg = SL_NEW(a, sort_config_t);
    cfg->nkeys = nkeys;
    cfg->limit = limit;
    cfg->keys = SL_NEW_ARRAY(a, op_sort_key_t, nkeys > 0 ? nkeys : 1);
    for (int i = 0; i < nkeys; i++) {
        if (keys[i].column < 0 || keys[i].column >= child->ncols) {
            sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "ORDER BY item %d names no column",
                         i + 1);
            return NULL;
        }
        cfg->keys[i] = keys[i];
        if (keys[i].nulls_first < 0) cfg->keys[i].nulls_first = keys[i].desc ? 1 : 0;
    }
    exec_pnode_t *n = exec_pnode_new(a, &op_sort_ops, child->ncols, cfg);
    exec_pnode_set_schema(a, n, child->names, child->types);
    n->nchildren = 1;
    n->children[0] = child;
    return n;
}
