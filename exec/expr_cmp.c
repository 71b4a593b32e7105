/* exec expressions: comparison kernels (value form writing BOOLEAN, filter
 * form writing a selection), IS [NOT] DISTINCT FROM and IN over a constant
 * set. Each type gets its own kernels from one macro family; the operator
 * is switched on once per batch and the loops are specialised for operand
 * shapes, selections and NULLs. SQL ordering: doubles put NaN above every
 * number and treat -0 as 0; strings and binaries compare bytewise;
 * intervals by span; structs field by field. */
#include <math.h>
#include <string.h>

#include "common/hash.h"
#include "exec/expr_int.h"
#include "model/text_io.h"

/* ---- three-way comparisons per type ------------------------------------------- */

#define CMP3_NUM(x, y) (((x) > (y)) - ((x) < (y)))

static inline int cmp3_double(double x, double y)
{
    int xn = x != x, yn = y != y;
    return (xn | yn) ? xn - yn : CMP3_NUM(x, y);
}

static inline int cmp3_str(exec_str_t x, exec_str_t y)
{
    uint32_t n = x.len < y.len ? x.len : y.len;
    int c = n ? memcmp(x.ptr, y.ptr, n) : 0;
    return c ? (c > 0) - (c < 0) : CMP3_NUM(x.len, y.len);
}

static inline int cmp3_iv(exec_interval_t x, exec_interval_t y)
{
    __int128 a = exec_interval_span(x), b = exec_interval_span(y);
    if (a != b) return a < b ? -1 : 1;
    if (x.months != y.months) return x.months < y.months ? -1 : 1;
    if (x.days != y.days) return x.days < y.days ? -1 : 1;
    return CMP3_NUM(x.micros, y.micros);
}

/* SQL tests of two doubles without a three-way compare: IEEE comparisons
 * plus the NaN rules (NaN equals NaN and sorts above every number). */
#define DBL_TEST(op, x, y)                                                   \
    ((op) == EXEC_CMP_EQ   ? ((x) == (y)) | (((x) != (x)) & ((y) != (y)))    \
     : (op) == EXEC_CMP_NE ? !(((x) == (y)) | (((x) != (x)) & ((y) != (y)))) \
     : (op) == EXEC_CMP_LT ? ((x) < (y)) | (((x) == (x)) & ((y) != (y)))     \
     : (op) == EXEC_CMP_LE ? ((x) <= (y)) | ((y) != (y))                     \
     : (op) == EXEC_CMP_GT ? ((x) > (y)) | (((x) != (x)) & ((y) == (y)))     \
                           : ((x) >= (y)) | ((x) != (x)))

/* String equality tests lengths (and shared pointers, common for constants
 * spread by CASE) before the bytes. */
static inline int str_eq(exec_str_t x, exec_str_t y)
{
    if (x.len != y.len) return 0;
    if (x.ptr == y.ptr) return 1;
    if (x.len > 16) return !memcmp(x.ptr, y.ptr, x.len);
    unsigned char d = 0; /* short strings: no library call */
    for (uint32_t k = 0; k < x.len; k++) d |= (unsigned char)(x.ptr[k] ^ y.ptr[k]);
    return d == 0;
}

#define STR_TEST(op, x, y)                 \
    ((op) == EXEC_CMP_EQ   ? str_eq(x, y)  \
     : (op) == EXEC_CMP_NE ? !str_eq(x, y) \
                           : CMP_TEST(op, cmp3_str(x, y)))

#define NUM_TEST(op, x, y) CMP_TEST(op, CMP3_NUM(x, y))
#define IV_TEST(op, x, y) CMP_TEST(op, cmp3_iv(x, y))

#define CMP_TEST(op, c)               \
    ((op) == EXEC_CMP_EQ   ? (c) == 0 \
     : (op) == EXEC_CMP_NE ? (c) != 0 \
     : (op) == EXEC_CMP_LT ? (c) < 0  \
     : (op) == EXEC_CMP_LE ? (c) <= 0 \
     : (op) == EXEC_CMP_GT ? (c) > 0  \
                           : (c) >= 0)

#define OPS(T, LOOP)                               \
    switch (st->op) {                              \
    case EXEC_CMP_EQ: LOOP(T, EXEC_CMP_EQ); break; \
    case EXEC_CMP_NE: LOOP(T, EXEC_CMP_NE); break; \
    case EXEC_CMP_LT: LOOP(T, EXEC_CMP_LT); break; \
    case EXEC_CMP_LE: LOOP(T, EXEC_CMP_LE); break; \
    case EXEC_CMP_GT: LOOP(T, EXEC_CMP_GT); break; \
    default: LOOP(T, EXEC_CMP_GE); break;          \
    }

#define CMP_SETUP                                                                  \
    const exec_vec_t *va = st->in[0] >= 0 ? &ev->regs[st->in[0]] : NULL;           \
    const exec_vec_t *vb = st->in[1] >= 0 ? &ev->regs[st->in[1]] : NULL;           \
    const exec_sel_t *s = &ev->sels[st->sel];                                      \
    uint8_t *nl = exec_nulls_or(ev, va ? va->nulls : NULL, vb ? vb->nulls : NULL); \
    (void)err

/* A comparison family for one C type: value kernel cmpv_NAME, filter
 * kernel cmpf_NAME, distinct kernel dist_NAME. CHECKED types (those whose
 * cells may not be read under a NULL) skip NULL rows. */
#define CMP_FAMILY(NAME, T, CMP3, CHECKED)                                          \
    static int cmpv_##NAME(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err) \
    {                                                                               \
        CMP_SETUP;                                                                  \
        exec_vec_t *o = exec_step_out(st, ev);                                      \
        o->nulls = nl;                                                              \
        uint8_t *out = o->data;                                                     \
        const uint8_t *skip = (CHECKED) ? nl : NULL;                                \
        (void)skip;                                                                 \
        OPS(T, VLOOP_##NAME)                                                        \
        return 0;                                                                   \
    }                                                                               \
    static int cmpf_##NAME(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err) \
    {                                                                               \
        CMP_SETUP;                                                                  \
        uint32_t *idx = exec_sel_alloc(ev, s->n), m = 0;                            \
        OPS(T, FLOOP_##NAME)                                                        \
        ev->sels[st->sel_out].idx = idx;                                            \
        ev->sels[st->sel_out].n = m;                                                \
        return 0;                                                                   \
    }                                                                               \
    static int dist_##NAME(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err) \
    {                                                                               \
        (void)err;                                                                  \
        const exec_vec_t *va = &ev->regs[st->in[0]], *vb = &ev->regs[st->in[1]];    \
        exec_vec_t *o = exec_step_out(st, ev);                                      \
        const T *A = va->data, *B = vb->data;                                       \
        uint8_t *out = o->data, neg = (uint8_t)st->op;                              \
        const uint8_t *an = va->nulls, *bn = vb->nulls;                             \
        FOR_SEL(&ev->sels[st->sel], {                                               \
            int x = an && an[i], y = bn && bn[i];                                   \
            out[i] = (uint8_t)(((x | y) ? x != y : CMP3(A[i], B[i]) != 0) ^ neg);   \
        });                                                                         \
        return 0;                                                                   \
    }

/* Loop bodies. Value: out[i] = test. Filter: idx[m] = i; m += test (and not NULL). */
#define V_EXPR(OP, TEST, X, Y) out[i] = (uint8_t)TEST(OP, X, Y)
#define F_EXPR(OP, TEST, X, Y) \
    idx[m] = i;                \
    m += TEST(OP, X, Y)
#define F_EXPR_NL(OP, TEST, X, Y) \
    idx[m] = i;                   \
    m += TEST(OP, X, Y) & !nl[i]

/* value loop over one (type, op) */
#define VLOOP(T, OP, TEST)                                          \
    do {                                                            \
        if (st->shape == EXEC_SHAPE_VV) {                           \
            const T *A_ = va->data, *B_ = vb->data;                 \
            FOR_SEL_VALID(s, skip, V_EXPR(OP, TEST, A_[i], B_[i])); \
        } else if (st->shape == EXEC_SHAPE_VC) {                    \
            const T *A_ = va->data;                                 \
            const T kb_ = STEP_CONST(T, st);                        \
            FOR_SEL_VALID(s, skip, V_EXPR(OP, TEST, A_[i], kb_));   \
        } else {                                                    \
            const T ka_ = STEP_CONST(T, st);                        \
            const T *B_ = vb->data;                                 \
            FOR_SEL_VALID(s, skip, V_EXPR(OP, TEST, ka_, B_[i]));   \
        }                                                           \
    } while (0)

/* filter loop over one (type, op) with operands X, Y */
#define FLOOP_XY(OP, TEST, CHECKED, X, Y)                               \
    do {                                                                \
        if (!nl) FOR_SEL(s, F_EXPR(OP, TEST, X, Y));                    \
        else if (CHECKED) FOR_SEL_VALID(s, nl, F_EXPR(OP, TEST, X, Y)); \
        else FOR_SEL(s, F_EXPR_NL(OP, TEST, X, Y));                     \
    } while (0)

#define FLOOP(T, OP, TEST, CHECKED)                    \
    do {                                               \
        if (st->shape == EXEC_SHAPE_VV) {              \
            const T *A_ = va->data, *B_ = vb->data;    \
            FLOOP_XY(OP, TEST, CHECKED, A_[i], B_[i]); \
        } else if (st->shape == EXEC_SHAPE_VC) {       \
            const T *A_ = va->data;                    \
            const T kb_ = STEP_CONST(T, st);           \
            FLOOP_XY(OP, TEST, CHECKED, A_[i], kb_);   \
        } else {                                       \
            const T ka_ = STEP_CONST(T, st);           \
            const T *B_ = vb->data;                    \
            FLOOP_XY(OP, TEST, CHECKED, ka_, B_[i]);   \
        }                                              \
    } while (0)

#define VLOOP_bool(T, OP) VLOOP(T, OP, NUM_TEST)
#define FLOOP_bool(T, OP) FLOOP(T, OP, NUM_TEST, 0)
#define VLOOP_i32(T, OP) VLOOP(T, OP, NUM_TEST)
#define FLOOP_i32(T, OP) FLOOP(T, OP, NUM_TEST, 0)
#define VLOOP_i64(T, OP) VLOOP(T, OP, NUM_TEST)
#define FLOOP_i64(T, OP) FLOOP(T, OP, NUM_TEST, 0)
#define VLOOP_dec(T, OP) VLOOP(T, OP, NUM_TEST)
#define FLOOP_dec(T, OP) FLOOP(T, OP, NUM_TEST, 0)
#define VLOOP_f64(T, OP) VLOOP(T, OP, DBL_TEST)
#define FLOOP_f64(T, OP) FLOOP(T, OP, DBL_TEST, 0)
#define VLOOP_str(T, OP) VLOOP(T, OP, STR_TEST)
#define FLOOP_str(T, OP) FLOOP(T, OP, STR_TEST, 1)
#define VLOOP_iv(T, OP) VLOOP(T, OP, IV_TEST)
#define FLOOP_iv(T, OP) FLOOP(T, OP, IV_TEST, 0)

CMP_FAMILY(bool, uint8_t, CMP3_NUM, 0)
CMP_FAMILY(i32, int32_t, CMP3_NUM, 0)
CMP_FAMILY(i64, int64_t, CMP3_NUM, 0)
CMP_FAMILY(dec, exec_dec_t, CMP3_NUM, 0)
CMP_FAMILY(f64, double, cmp3_double, 0)
CMP_FAMILY(str, exec_str_t, cmp3_str, 1)
CMP_FAMILY(iv, exec_interval_t, cmp3_iv, 0)

/* ---- structs (and the NULL type): row by row ------------------------------------------ */

static int cmp3_cell(const exec_vec_t *a, const exec_vec_t *b, uint32_t i);

static int cmp3_fields(const exec_vec_t *a, const exec_vec_t *b, uint32_t i)
{
    for (int f = 0; f < a->type.nfields; f++) {
        const exec_vec_t *x = &a->children[f], *y = &b->children[f];
        bool xn = x->type.id == EXEC_TYPE_NULL || (x->nulls && x->nulls[i]);
        bool yn = y->type.id == EXEC_TYPE_NULL || (y->nulls && y->nulls[i]);
        int c = (xn || yn) ? (int)yn - (int)xn : cmp3_cell(x, y, i);
        if (c) return c;
    }
    return 0;
}

static int cmp3_cell(const exec_vec_t *a, const exec_vec_t *b, uint32_t i)
{
    if (a->type.id == EXEC_TYPE_STRUCT) return cmp3_fields(a, b, i);
    size_t w = exec_type_width(a->type);
    const char *x = (const char *)a->data + (size_t)i * w,
               *y = (const char *)b->data + (size_t)i * w;
    switch (a->type.id) {
    case EXEC_TYPE_DOUBLE: return cmp3_double(*(const double *)x, *(const double *)y);
    case EXEC_TYPE_STRING:
    case EXEC_TYPE_BINARY: return cmp3_str(*(const exec_str_t *)x, *(const exec_str_t *)y);
    case EXEC_TYPE_INTERVAL:
        return cmp3_iv(*(const exec_interval_t *)x, *(const exec_interval_t *)y);
    case EXEC_TYPE_BOOLEAN: return CMP3_NUM(*(const uint8_t *)x, *(const uint8_t *)y);
    case EXEC_TYPE_INT:
    case EXEC_TYPE_DATE: return CMP3_NUM(*(const int32_t *)x, *(const int32_t *)y);
    case EXEC_TYPE_BIGINT:
    case EXEC_TYPE_TIMESTAMP: return CMP3_NUM(*(const int64_t *)x, *(const int64_t *)y);
    case EXEC_TYPE_DECIMAL: return CMP3_NUM(*(const exec_dec_t *)x, *(const exec_dec_t *)y);
    default: return 0;
    }
}

static int cmpv_struct(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    CMP_SETUP;
    exec_vec_t *o = exec_step_out(st, ev);
    o->nulls = nl;
    uint8_t *out = o->data;
    int op = st->op;
    FOR_SEL_VALID(s, nl, out[i] = (uint8_t)CMP_TEST(op, cmp3_cell(va, vb, i)));
    return 0;
}

static int cmpf_struct(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    CMP_SETUP;
    uint32_t *idx = exec_sel_alloc(ev, s->n), m = 0;
    int op = st->op;
    FOR_SEL_VALID(s, nl, idx[m] = i; m += CMP_TEST(op, cmp3_cell(va, vb, i)));
    ev->sels[st->sel_out].idx = idx;
    ev->sels[st->sel_out].n = m;
    return 0;
}

static int dist_struct(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    (void)err;
    const exec_vec_t *va = &ev->regs[st->in[0]], *vb = &ev->regs[st->in[1]];
    exec_vec_t *o = exec_step_out(st, ev);
    uint8_t *out = o->data, neg = (uint8_t)st->op;
    bool an_all = va->type.id == EXEC_TYPE_NULL, bn_all = vb->type.id == EXEC_TYPE_NULL;
    FOR_SEL(&ev->sels[st->sel], {
        int x = an_all || (va->nulls && va->nulls[i]), y = bn_all || (vb->nulls && vb->nulls[i]);
        out[i] = (uint8_t)(((x | y) ? x != y : cmp3_cell(va, vb, i) != 0) ^ neg);
    });
    return 0;
}

exec_step_fn exec_cmp_kernel(exec_type_t t, exec_shape_t shape, bool filter, const char **name)
{
    *name = filter ? "sel_cmp" : "cmp";
#define PICK(N) return filter ? cmpf_##N : cmpv_##N
    switch (t.id) {
    case EXEC_TYPE_BOOLEAN: PICK(bool);
    case EXEC_TYPE_INT:
    case EXEC_TYPE_DATE: PICK(i32);
    case EXEC_TYPE_BIGINT:
    case EXEC_TYPE_TIMESTAMP: PICK(i64);
    case EXEC_TYPE_DECIMAL: PICK(dec);
    case EXEC_TYPE_DOUBLE: PICK(f64);
    case EXEC_TYPE_STRING:
    case EXEC_TYPE_BINARY: PICK(str);
    case EXEC_TYPE_INTERVAL: PICK(iv);
    default:
        if (shape != EXEC_SHAPE_VV) return NULL;
        PICK(struct);
    }
#undef PICK
}

exec_step_fn exec_distinct_kernel(exec_type_t t)
{
    switch (t.id) {
    case EXEC_TYPE_BOOLEAN: return dist_bool;
    case EXEC_TYPE_INT:
    case EXEC_TYPE_DATE: return dist_i32;
    case EXEC_TYPE_BIGINT:
    case EXEC_TYPE_TIMESTAMP: return dist_i64;
    case EXEC_TYPE_DECIMAL: return dist_dec;
    case EXEC_TYPE_DOUBLE: return dist_f64;
    case EXEC_TYPE_STRING:
    case EXEC_TYPE_BINARY: return dist_str;
    case EXEC_TYPE_INTERVAL: return dist_iv;
    default: return dist_struct;
    }
}

/* ---- IN over a constant set ---------------------------------------------------------- */

/* The list's non-NULL values, and an open-addressing table over them when
 * the list is long enough for hashing to beat a scan. */
typedef struct in_set {
    exec_type_t type;
    const exec_value_t *vals; /* non-NULL values */
    int n;
    bool has_null;  /* the list held a NULL: a miss is NULL, not false */
    int32_t *slots; /* cap entries: index into vals, or -1; NULL = scan */
    uint32_t mask;  /* cap - 1 */
} in_set_t;

#define IN_HASH_MIN 8

static bool in_contains(const in_set_t *set, const void *cell);

const void *exec_in_set_build(sl_arena_t *a, exec_type_t t, const exec_value_t *vals, int n)
{
    in_set_t *set = SL_NEW(a, in_set_t);
    exec_value_t *keep = SL_NEW_ARRAY(a, exec_value_t, n ? n : 1);
    set->type = t;
    set->vals = keep;
    for (int i = 0; i < n; i++) {
        if (vals[i].is_null || vals[i].type.id == EXEC_TYPE_NULL) set->has_null = true;
        else if (!in_contains(set, &vals[i].u) || t.id == EXEC_TYPE_STRUCT)
            keep[set->n++] = vals[i];
    }
    if (set->n < IN_HASH_MIN || t.id == EXEC_TYPE_STRUCT) return set;
    uint32_t cap = 16;
    while (cap < (uint32_t)set->n * 2) cap *= 2;
    set->slots = SL_NEW_ARRAY(a, int32_t, cap);
    memset(set->slots, 0xff, sizeof(int32_t) * cap);
    set->mask = cap - 1;
    for (int i = 0; i < set->n; i++) {
        uint32_t h = (uint32_t)exec_cell_hash(t, &keep[i].u, SL_HASH_SEED) & set->mask;
        while (set->slots[h] >= 0) h = (h + 1) & set->mask;
        set->slots[h] = i;
    }
    return set;
}

static bool in_contains(const in_set_t *set, const void *cell)
{
    if (!set->slots) {
        for (int i = 0; i < set->n; i++)
            if (exec_cell_equal(set->type, &set->vals[i].u, cell)) return true;
        return false;
    }
    uint32_t h = (uint32_t)exec_cell_hash(set->type, cell, SL_HASH_SEED) & set->mask;
    for (; set->slots[h] >= 0; h = (h + 1) & set->mask)
        if (exec_cell_equal(set->type, &set->vals[set->slots[h]].u, cell)) return true;
    return false;
}

/* Structs compare through exec_value_t (rare; row by row). */
static bool in_contains_struct(const in_set_t *set, const exec_vec_t *x, uint32_t i, sl_arena_t *a)
{
    exec_value_t v;
    exec_vec_get_value(x, i, a, &v);
    for (int k = 0; k < set->n; k++)
        if (exec_value_compare(&set->vals[k], &v) == 0) return true;
    return false;
}

int exec_in_set_kernel(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    (void)err;
    const in_set_t *set = st->aux;
    const exec_vec_t *x = &ev->regs[st->in[0]];
    exec_vec_t *o = exec_step_out(st, ev);
    uint8_t *out = o->data, neg = (uint8_t)st->op;
    if (x->type.id == EXEC_TYPE_NULL) {
        o->nulls = x->nulls;
        return 0;
    }
    /* A miss is NULL when the list holds a NULL: those rows get a private null map. */
    uint8_t *nl = set->has_null ? exec_nulls_copy(ev, x->nulls) : (uint8_t *)x->nulls;
    o->nulls = nl;
    size_t w = exec_type_width(x->type);
    bool strct = x->type.id == EXEC_TYPE_STRUCT;
    FOR_SEL_VALID(&ev->sels[st->sel], x->nulls, {
        bool hit = strct ? in_contains_struct(set, x, i, ev->a)
                         : in_contains(set, (const char *)x->data + (size_t)i * w);
        out[i] = (uint8_t)(hit ^ neg);
        if (!hit && set->has_null) nl[i] = 1;
    });
    return 0;
}
