/* exec batches: vector allocation, compaction, slicing, cell text and the
 * row builder. */
#include "model/batch.h"

#include <string.h>

#include "common/sl_assert.h"
#include "model/json.h"
#include "model/text_io.h"

exec_vec_t exec_vec_new(sl_arena_t *a, exec_type_t t, uint32_t nrows)
{
    exec_vec_t v = {.type = t};
    size_t w = exec_type_width(t), n = nrows ? nrows : 1;
    if (w) v.data = sl_alloc(a, w * n);
    if (t.id == EXEC_TYPE_NULL) {
        v.nulls = sl_alloc(a, n);
        memset(v.nulls, 1, n);
    }
    if (t.id == EXEC_TYPE_STRUCT) {
        v.children = SL_NEW_ARRAY(a, exec_vec_t, t.nfields ? t.nfields : 1);
        for (int i = 0; i < t.nfields; i++)
            v.children[i] = exec_vec_new(a, t.fields[i].type, nrows);
    }
    return v;
}

uint8_t *exec_vec_make_nulls(sl_arena_t *a, exec_vec_t *v, uint32_t nrows)
{
    if (!v->nulls) v->nulls = sl_alloc0(a, nrows ? nrows : 1);
    return v->nulls;
}

exec_batch_t *exec_batch_new(sl_arena_t *a, int ncols, const exec_type_t *types, uint32_t nrows)
{
    exec_batch_t *b = SL_NEW(a, exec_batch_t);
    b->arena = a;
    b->ncols = ncols;
    b->nrows = nrows;
    b->cols = SL_NEW_ARRAY(a, exec_vec_t, ncols ? ncols : 1);
    for (int i = 0; i < ncols; i++) b->cols[i] = exec_vec_new(a, types[i], nrows);
    return b;
}

exec_batch_t *exec_batch_shallow_copy(const exec_batch_t *b, sl_arena_t *a)
{
    exec_batch_t *c = SL_NEW(a, exec_batch_t);
    *c = *b;
    c->arena = a;
    c->cols = SL_NEW_ARRAY(a, exec_vec_t, b->ncols ? b->ncols : 1);
    memcpy(c->cols, b->cols, sizeof(exec_vec_t) * (size_t)b->ncols);
    return c;
}

/* ---- compaction and slicing ------------------------------------------- */

#define GATHER(T)                                            \
    do {                                                     \
        const T *s_ = src;                                   \
        T *d_ = dst;                                         \
        for (uint32_t k = 0; k < n; k++) d_[k] = s_[sel[k]]; \
    } while (0)

static void gather_cells(void *dst, const void *src, size_t w, const uint32_t *sel, uint32_t n)
{
    switch (w) {
    case 1: GATHER(uint8_t); break;
    case 4: GATHER(uint32_t); break;
    case 8: GATHER(uint64_t); break;
    case 16:
        for (uint32_t k = 0; k < n; k++)
            memcpy((char *)dst + (size_t)k * 16, (const char *)src + (size_t)sel[k] * 16, 16);
        break;
    default:
        for (uint32_t k = 0; k < n; k++)
            memcpy((char *)dst + k * w, (const char *)src + (size_t)sel[k] * w, w);
    }
}

static bool is_null_at(const exec_vec_t *v, const uint8_t *outer, uint32_t k)
{
    return (v->nulls && v->nulls[k]) || (outer && outer[k]);
}

/* Copies the bytes of a gathered string vector's views into one block of
 * `a`. A row that is NULL, itself or in an enclosing struct (`outer`), is
 * made an empty string: a NULL struct's fields hold no defined value. */
static void own_strings(sl_arena_t *a, exec_vec_t *v, const uint8_t *outer, uint32_t n)
{
    exec_str_t *s = v->data;
    size_t total = 0;
    for (uint32_t k = 0; k < n; k++)
        if (!is_null_at(v, outer, k)) total += s[k].len;
    char *p = sl_alloc(a, total ? total : 1);
    for (uint32_t k = 0; k < n; k++) {
        if (is_null_at(v, outer, k)) s[k] = (exec_str_t){0, p};
        if (!s[k].len) continue;
        memcpy(p, s[k].ptr, s[k].len);
        s[k].ptr = p;
        p += s[k].len;
    }
}

/* The NULL flags of rows that are NULL in `v` or in `outer` (either may be
 * NULL), in `a`; NULL when no row is. */
static const uint8_t *combined_nulls(sl_arena_t *a, const exec_vec_t *v, const uint8_t *outer,
                                     uint32_t n)
{
    if (!outer) return v->nulls;
    if (!v->nulls) return outer;
    uint8_t *m = sl_alloc(a, n ? n : 1);
    for (uint32_t k = 0; k < n; k++) m[k] = v->nulls[k] | outer[k];
    return m;
}

/* The rows `sel` of src as a new vector in `a`; with `deep`, string bytes
 * are copied too (else the views keep pointing into src's memory). `outer`:
 * the gathered NULL flags of the enclosing structs, or NULL. */
static exec_vec_t gather_vec(sl_arena_t *a, const exec_vec_t *src, const uint32_t *sel, uint32_t n,
                             bool deep, const uint8_t *outer)
{
    exec_vec_t v = {.type = src->type};
    size_t w = exec_type_width(src->type);
    if (src->type.id == EXEC_TYPE_NULL) return exec_vec_new(a, src->type, n);
    if (w) {
        v.data = sl_alloc(a, w * (n ? n : 1));
        gather_cells(v.data, src->data, w, sel, n);
    }
    if (src->nulls) {
        v.nulls = sl_alloc(a, n ? n : 1);
        gather_cells(v.nulls, src->nulls, 1, sel, n);
    }
    if (deep && exec_type_is_varlen(src->type)) own_strings(a, &v, outer, n);
    if (src->children) {
        const uint8_t *inner = combined_nulls(a, &v, outer, n);
        v.children = SL_NEW_ARRAY(a, exec_vec_t, src->type.nfields ? src->type.nfields : 1);
        for (int i = 0; i < src->type.nfields; i++)
            v.children[i] = gather_vec(a, &src->children[i], sel, n, deep, inner);
    }
    return v;
}

exec_batch_t *exec_batch_gather(const exec_batch_t *b, const uint32_t *rows, uint32_t n,
                                sl_arena_t *a)
{
    exec_batch_t *out = SL_NEW(a, exec_batch_t);
    out->ncols = b->ncols;
    out->cols = SL_NEW_ARRAY(a, exec_vec_t, b->ncols ? b->ncols : 1);
    for (int i = 0; i < b->ncols; i++)
        out->cols[i] = gather_vec(a, &b->cols[i], rows, n, true, NULL);
    if (b->change) {
        out->change = sl_alloc(a, n ? n : 1);
        gather_cells(out->change, b->change, 1, rows, n);
    }
    out->nrows = n;
    out->arena = a;
    return out;
}

void exec_batch_compact(exec_batch_t *b)
{
    if (!b->sel) return;
    exec_vec_t *cols = SL_NEW_ARRAY(b->arena, exec_vec_t, b->ncols ? b->ncols : 1);
    for (int i = 0; i < b->ncols; i++)
        cols[i] = gather_vec(b->arena, &b->cols[i], b->sel, b->nsel, false, NULL);
    b->cols = cols;
    if (b->change) {
        int8_t *ch = sl_alloc(b->arena, b->nsel ? b->nsel : 1);
        gather_cells(ch, b->change, 1, b->sel, b->nsel);
        b->change = ch;
    }
    b->nrows = b->nsel;
    b->sel = NULL;
    b->nsel = 0;
}

static exec_vec_t offset_vec(sl_arena_t *a, const exec_vec_t *src, uint32_t first)
{
    exec_vec_t v = *src;
    size_t w = exec_type_width(src->type);
    if (w) v.data = (char *)src->data + w * first;
    if (src->nulls) v.nulls = src->nulls + first;
    if (src->children) {
        v.children = SL_NEW_ARRAY(a, exec_vec_t, src->type.nfields ? src->type.nfields : 1);
        for (int i = 0; i < src->type.nfields; i++)
            v.children[i] = offset_vec(a, &src->children[i], first);
    }
    return v;
}

exec_batch_t *exec_batch_slice(const exec_batch_t *b, uint32_t first, uint32_t count)
{
    exec_batch_t *s = exec_batch_shallow_copy(b, b->arena);
    if (b->sel) {
        s->sel = b->sel + first;
        s->nsel = count;
        return s;
    }
    for (int i = 0; i < b->ncols; i++) s->cols[i] = offset_vec(b->arena, &b->cols[i], first);
    if (b->change) s->change = b->change + first;
    s->nrows = count;
    return s;
}

/* ---- cells -------------------------------------------------------------- */

static const void *cell_ptr(const exec_vec_t *v, uint32_t row)
{
    return (const char *)v->data + (size_t)row * exec_type_width(v->type);
}

bool exec_vec_text(const exec_vec_t *v, uint32_t row, sl_buf_t *buf)
{
    if (exec_vec_is_null(v, row) || v->type.id == EXEC_TYPE_NULL) return false;
    if (v->type.id == EXEC_TYPE_STRUCT) {
        sl_json_t j;
        sl_json_init(&j, buf, false);
        exec_json_write_cell(&j, v, row, false);
        return true;
    }
    exec_text_format(v->type, cell_ptr(v, row), buf);
    return true;
}

void exec_vec_get_value(const exec_vec_t *v, uint32_t row, sl_arena_t *a, exec_value_t *out)
{
    *out = exec_value_null(v->type);
    if (exec_vec_is_null(v, row) || v->type.id == EXEC_TYPE_NULL) return;
    out->is_null = false;
    if (v->type.id != EXEC_TYPE_STRUCT) {
        memcpy(&out->u, cell_ptr(v, row), exec_type_width(v->type));
        return;
    }
    out->u.fields = SL_NEW_ARRAY(a, exec_value_t, v->type.nfields ? v->type.nfields : 1);
    for (int i = 0; i < v->type.nfields; i++)
        exec_vec_get_value(&v->children[i], row, a, &out->u.fields[i]);
}

/* ---- builder ------------------------------------------------------------ */

static void *grow_array(sl_arena_t *a, void *p, size_t w, uint32_t old_cap, uint32_t new_cap)
{
    return sl_arena_realloc(a, p, w * old_cap, w * new_cap);
}

/* Zeroes the data of rows [from, to) (and the children's), so that a cell a
 * builder's caller forgot to set reads as 0 / false / '' rather than garbage. */
static void zero_rows(exec_vec_t *v, uint32_t from, uint32_t to)
{
    size_t w = exec_type_width(v->type);
    if (w && to > from) memset((char *)v->data + w * from, 0, w * (to - from));
    for (int i = 0; v->children && i < v->type.nfields; i++) zero_rows(&v->children[i], from, to);
}

static void grow_vec(sl_arena_t *a, exec_vec_t *v, uint32_t old_cap, uint32_t new_cap)
{
    size_t w = exec_type_width(v->type);
    if (w) {
        v->data = grow_array(a, v->data, w, old_cap, new_cap);
        memset((char *)v->data + w * old_cap, 0, w * (new_cap - old_cap));
    }
    if (v->nulls) {
        v->nulls = grow_array(a, v->nulls, 1, old_cap, new_cap);
        memset(v->nulls + old_cap, v->type.id == EXEC_TYPE_NULL, new_cap - old_cap);
    }
    for (int i = 0; v->children && i < v->type.nfields; i++)
        grow_vec(a, &v->children[i], old_cap, new_cap);
}

void exec_builder_init(exec_builder_t *bld, sl_arena_t *a, int ncols, const exec_type_t *types,
                       uint32_t cap_hint)
{
    bld->cap = cap_hint ? cap_hint : 64;
    bld->batch = exec_batch_new(a, ncols, types, bld->cap);
    for (int i = 0; i < ncols; i++) zero_rows(&bld->batch->cols[i], 0, bld->cap);
    bld->batch->nrows = 0;
    bld->has_change = false;
}

uint32_t exec_builder_add_row(exec_builder_t *bld)
{
    exec_batch_t *b = bld->batch;
    if (b->nrows == bld->cap) {
        uint32_t nc = bld->cap * 2;
        for (int i = 0; i < b->ncols; i++) grow_vec(b->arena, &b->cols[i], bld->cap, nc);
        if (b->change) {
            b->change = grow_array(b->arena, b->change, 1, bld->cap, nc);
            memset(b->change + bld->cap, 1, nc - bld->cap);
        }
        bld->cap = nc;
    }
    if (b->change) b->change[b->nrows] = 1;
    return b->nrows++;
}

static void vset_null(sl_arena_t *a, exec_vec_t *v, uint32_t cap, uint32_t row)
{
    exec_vec_make_nulls(a, v, cap)[row] = 1;
}

/* Marks a cell non-NULL after its bytes were written. */
static inline void vset_present(exec_vec_t *v, uint32_t row)
{
    if (v->nulls) v->nulls[row] = 0;
}

static void vset_str(sl_arena_t *a, exec_vec_t *v, uint32_t row, const char *p, size_t n)
{
    exec_str_t *s = &EXEC_VEC_AT(v, exec_str_t, row);
    s->ptr = n ? sl_strndup(a, p, n) : "";
    s->len = (uint32_t)n;
    vset_present(v, row);
}

static void vset_value(sl_arena_t *a, exec_vec_t *v, uint32_t cap, uint32_t row,
                       const exec_value_t *val)
{
    if (val->is_null || val->type.id == EXEC_TYPE_NULL || v->type.id == EXEC_TYPE_NULL) {
        vset_null(a, v, cap, row);
        return;
    }
    if (exec_type_is_varlen(v->type)) {
        vset_str(a, v, row, val->u.str.ptr, val->u.str.len);
        return;
    }
    if (v->type.id == EXEC_TYPE_STRUCT) {
        for (int i = 0; i < v->type.nfields; i++)
            vset_value(a, &v->children[i], cap, row, &val->u.fields[i]);
    } else {
        memcpy((char *)v->data + (size_t)row * exec_type_width(v->type), &val->u,
               exec_type_width(v->type));
    }
    vset_present(v, row);
}

void exec_vec_set_value(sl_arena_t *a, exec_vec_t *v, uint32_t nrows, uint32_t row,
                        const exec_value_t *val)
{
    vset_value(a, v, nrows, row, val);
}

static void vcopy_cell(sl_arena_t *a, exec_vec_t *v, uint32_t cap, uint32_t row,
                       const exec_vec_t *src, uint32_t srow)
{
    if (exec_vec_is_null(src, srow) || v->type.id == EXEC_TYPE_NULL) {
        vset_null(a, v, cap, row);
        return;
    }
    if (exec_type_is_varlen(v->type)) {
        const exec_str_t *s = &EXEC_VEC_AT(src, exec_str_t, srow);
        vset_str(a, v, row, s->ptr, s->len);
        return;
    }
    if (v->type.id == EXEC_TYPE_STRUCT) {
        for (int i = 0; i < v->type.nfields; i++)
            vcopy_cell(a, &v->children[i], cap, row, &src->children[i], srow);
    } else {
        size_t w = exec_type_width(v->type);
        memcpy((char *)v->data + (size_t)row * w, (const char *)src->data + (size_t)srow * w, w);
    }
    vset_present(v, row);
}

void exec_builder_set_null(exec_builder_t *bld, int col, uint32_t row)
{
    SL_ASSERT(col >= 0 && col < bld->batch->ncols && row < bld->cap);
    vset_null(bld->batch->arena, &bld->batch->cols[col], bld->cap, row);
}

#define BUILDER_SETTER(name, T)                                                   \
    void exec_builder_set_##name(exec_builder_t *bld, int col, uint32_t row, T v) \
    {                                                                             \
        SL_ASSERT(col >= 0 && col < bld->batch->ncols && row < bld->cap);         \
        exec_vec_t *vec = &bld->batch->cols[col];                                 \
        ((T *)vec->data)[row] = v;                                                \
        vset_present(vec, row);                                                   \
    }

BUILDER_SETTER(int, int32_t)
BUILDER_SETTER(bigint, int64_t)
BUILDER_SETTER(double, double)

void exec_builder_set_bool(exec_builder_t *bld, int col, uint32_t row, bool v)
{
    exec_vec_t *vec = &bld->batch->cols[col];
    ((uint8_t *)vec->data)[row] = v ? 1 : 0;
    vset_present(vec, row);
}

void exec_builder_set_str(exec_builder_t *bld, int col, uint32_t row, const char *p, size_t n)
{
    vset_str(bld->batch->arena, &bld->batch->cols[col], row, p, n);
}

void exec_builder_set_value(exec_builder_t *bld, int col, uint32_t row, const exec_value_t *v)
{
    vset_value(bld->batch->arena, &bld->batch->cols[col], bld->cap, row, v);
}

void exec_builder_copy_cell(exec_builder_t *bld, int col, uint32_t row, const exec_vec_t *src,
                            uint32_t src_row)
{
    vcopy_cell(bld->batch->arena, &bld->batch->cols[col], bld->cap, row, src, src_row);
}

int exec_builder_set_text(exec_builder_t *bld, int col, uint32_t row, const char *s, size_t n,
                          sl_error_t *err)
{
    exec_vec_t *v = &bld->batch->cols[col];
    sl_arena_t *a = bld->batch->arena;
    if (v->type.id == EXEC_TYPE_STRUCT) {
        exec_value_t val;
        if (exec_json_parse_value(v->type, s, n, a, &val, err)) {
            vset_null(a, v, bld->cap, row);
            return -1;
        }
        vset_value(a, v, bld->cap, row, &val);
        return 0;
    }
    void *cell = (char *)v->data + (size_t)row * exec_type_width(v->type);
    if (exec_text_parse(v->type, s, n, a, cell, err)) {
        vset_null(a, v, bld->cap, row);
        return -1;
    }
    vset_present(v, row);
    return 0;
}

void exec_builder_set_change(exec_builder_t *bld, uint32_t row, int8_t change)
{
    exec_batch_t *b = bld->batch;
    if (!b->change) {
        if (change == 1) return;
        b->change = sl_alloc(b->arena, bld->cap);
        memset(b->change, 1, bld->cap);
    }
    b->change[row] = change;
    bld->has_change = true;
}

void exec_builder_append_batch(exec_builder_t *bld, const exec_batch_t *src)
{
    uint32_t n = exec_batch_count(src);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t srow = exec_batch_row(src, k);
        uint32_t row = exec_builder_add_row(bld);
        for (int c = 0; c < src->ncols; c++)
            exec_builder_copy_cell(bld, c, row, &src->cols[c], srow);
        if (src->change) exec_builder_set_change(bld, row, src->change[srow]);
    }
}

exec_batch_t *exec_builder_finish(exec_builder_t *bld)
{
    exec_batch_t *b = bld->batch;
    bld->batch = NULL;
    return b;
}
