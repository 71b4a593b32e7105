/* SORT: buffers every row of the task, sorts normalized keys, emits in
 * order from finish().
 *
 * NORMALIZED KEYS. Each row's ORDER BY columns are encoded once, at push
 * time, into one byte string whose memcmp order is the requested order:
 * exec/row.h's memcomparable key encoding per column (a marker byte, then
 * order-preserving bytes), with the marker of a NULL rewritten to 0x00
 * (NULLS FIRST) or 0x02 (NULLS LAST, after the 0x01 of values) and, for
 * DESC, the value bytes inverted (the encoding is prefix-free, so inverting
 * reverses the order). Sorting then needs no type dispatch: entries hold
 * the key's first 8 bytes as a big-endian integer (most comparisons end
 * there), the key's place in the key buffer, and the row number, which
 * breaks ties and makes the sort stable.
 *
 * MEMORY. Rows are appended to one builder in the task arena (ctx->arena);
 * keys to a heap buffer freed in close(). finish() sorts the entries,
 * gathers EXEC_BATCH_ROWS rows at a time into scratch memory, emits them
 * and resets scratch. With a limit only the first `limit` rows go out. */
#include "exec/op_sort.h"

#include <stdlib.h>
#include <string.h>

#include "exec/op_join_util.h"
#include "exec/row.h"

typedef struct sort_config {
    int nkeys;
    op_sort_key_t *keys;   /* nulls_first resolved to 0 / 1 */
    int64_t limit;
} sort_config_t;

typedef struct sort_entry {
    uint64_t prefix;       /* first 8 key bytes, big-endian, zero-padded */
    uint64_t off;          /* key bytes in the key buffer */
    uint32_t len;
    uint32_t row;          /* row in the builder (input order) */
} sort_entry_t;

typedef struct sort_state {
    exec_builder_t rows;
    sl_buf_t keys;         /* every row's normalized key */
    sort_entry_t *entries; /* heap; one per row */
    uint32_t n, cap;
} sort_state_t;

static int sort_open(op_t *op, sl_error_t *err)
{
    (void)err;
    sort_state_t *st = SL_NEW(op->ctx->arena, sort_state_t);
    op->state = st;
    exec_builder_init(&st->rows, op->ctx->arena, op->node->ncols, op->node->types, EXEC_BATCH_ROWS);
    return 0;
}

static void sort_close(op_t *op)
{
    sort_state_t *st = op->state;
    if (!st) return;
    sl_buf_free(&st->keys);
    free(st->entries);
}

/* Appends row `row`'s normalized key. */
static void encode_key(const sort_config_t *cfg, const exec_batch_t *b, uint32_t row, sl_buf_t *out)
{
    for (int i = 0; i < cfg->nkeys; i++) {
        const op_sort_key_t *k = &cfg->keys[i];
        size_t at = out->len;
        exec_key_encode(b, row, &k->column, 1, out);
        unsigned char *p = (unsigned char *)out->data + at;
        if (p[0] == 0) {
            p[0] = k->nulls_first ? 0x00 : 0x02;
            continue;
        }
        if (k->desc)
            for (size_t j = at + 1; j < out->len; j++) out->data[j] = (char)~out->data[j];
    }
}

static uint64_t key_prefix(const unsigned char *p, size_t len)
{
    uint64_t v = 0;
    for (size_t i = 0; i < 8; i++) v = v << 8 | (i < len ? p[i] : 0);
    return v;
}

static void add_entry(sort_state_t *st, size_t off, uint32_t row)
{
    if (st->n == st->cap) {
        st->cap = st->cap ? st->cap * 2 : 4096;
        st->entries = sl_xrealloc(st->entries, sizeof *st->entries * st->cap);
    }
    sort_entry_t *e = &st->entries[st->n++];
    e->off = off;
    e->len = (uint32_t)(st->keys.len - off);
    e->prefix = key_prefix((const unsigned char *)st->keys.data + off, e->len);
    e->row = row;
}

static int sort_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    (void)input;
    (void)err;
    const sort_config_t *cfg = op->node->config;
    sort_state_t *st = op->state;
    uint32_t n = exec_batch_count(b);
    op->metrics->rows_in += n;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = exec_batch_row(b, k);
        size_t off = st->keys.len;
        encode_key(cfg, b, row, &st->keys);
        add_entry(st, off, st->rows.batch->nrows + k);
    }
    exec_builder_append_batch(&st->rows, b);
    return 0;
}

/* Orders entries by key bytes (in the buffer `keys`), then input order. */
static int entry_cmp(const void *x, const void *y, void *keys)
{
    const sort_entry_t *a = x, *b = y;
    const unsigned char *sort_keys = keys;
    if (a->prefix != b->prefix) return a->prefix < b->prefix ? -1 : 1;
    if (a->len > 8 && b->len > 8) {
        uint32_t m = (a->len < b->len ? a->len : b->len) - 8;
        int c = memcmp(sort_keys + a->off + 8, sort_keys + b->off + 8, m);
        if (c) return c;
    }
    if (a->len != b->len) return a->len < b->len ? -1 : 1;
    return a->row < b->row ? -1 : a->row > b->row;
}

/* Rows rows[0..n) of `all` as a new batch in `a`. */
static exec_batch_t *gather_rows(sl_arena_t *a, const exec_batch_t *all, const uint32_t *rows, uint32_t n)
{
    exec_batch_t *out = SL_NEW(a, exec_batch_t);
    out->arena = a;
    out->nrows = n;
    out->ncols = all->ncols;
    out->cols = SL_NEW_ARRAY(a, exec_vec_t, all->ncols > 0 ? all->ncols : 1);
    for (int c = 0; c < all->ncols; c++)
        out->cols[c] = op_join_gather_vec(a, all->cols[c].type, &all->cols[c], rows, n);
    if (all->change) {
        out->change = sl_alloc(a, n ? n : 1);
        for (uint32_t i = 0; i < n; i++) out->change[i] = all->change[rows[i]];
    }
    return out;
}

static int sort_finish(op_t *op, sl_error_t *err)
{
    const sort_config_t *cfg = op->node->config;
    sort_state_t *st = op->state;
    qsort_r(st->entries, st->n, sizeof *st->entries, entry_cmp, st->keys.data);
    exec_batch_t *all = exec_builder_finish(&st->rows);
    uint32_t total = st->n;
    if (cfg->limit >= 0 && (uint64_t)cfg->limit < total) total = (uint32_t)cfg->limit;
    sl_arena_t *scratch = op->ctx->ectx->arena;
    for (uint32_t done = 0; done < total;) {
        uint32_t n = total - done < EXEC_BATCH_ROWS ? total - done : EXEC_BATCH_ROWS;
        uint32_t *rows = sl_alloc(scratch, sizeof *rows * n);
        for (uint32_t i = 0; i < n; i++) rows[i] = st->entries[done + i].row;
        done += n;
        if (op_emit(op, gather_rows(scratch, all, rows, n), err) < 0) return -1;
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
    .name = "Sort", .open = sort_open, .push = sort_push, .finish = sort_finish,
    .close = sort_close, .explain = sort_explain,
};

exec_pnode_t *op_sort_plan(sl_arena_t *a, exec_pnode_t *child, const op_sort_key_t *keys,
                           int nkeys, int64_t limit, sl_error_t *err)
{
    sort_config_t *cfg = SL_NEW(a, sort_config_t);
    cfg->nkeys = nkeys;
    cfg->limit = limit;
    cfg->keys = SL_NEW_ARRAY(a, op_sort_key_t, nkeys > 0 ? nkeys : 1);
    for (int i = 0; i < nkeys; i++) {
        if (keys[i].column < 0 || keys[i].column >= child->ncols) {
            sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "ORDER BY item %d names no column", i + 1);
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
