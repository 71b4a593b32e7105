/* exec aggregates: the catalogue (names, argument rules, result and buffer
 * types), lookup errors, and the per-aggregate buffer state (allocation,
 * growth, initial values). The kernels are in agg_kernels.c, the
 * HyperLogLog++ sketch in agg_hll.c. */
#include "exec/agg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>

#include "exec/hashtable.h"

/* ---- catalogue ---- */

typedef enum { ARGS_NONE, ARGS_NUMERIC, ARGS_SCALAR, ARGS_ANY } arg_rule_t;

typedef struct agg_entry {
    const char *name;
    exec_agg_kind_t kind;
    arg_rule_t rule;
    const char *signatures; /* for hints */
} agg_entry_t;

static const agg_entry_t agg_catalogue[] = {
    {"count", EXEC_AGG_COUNT, ARGS_ANY, "count(*), count(any)"},
    {"sum", EXEC_AGG_SUM, ARGS_NUMERIC,
     "sum(integer), sum(bigint), sum(double precision), sum(numeric)"},
    {"avg", EXEC_AGG_AVG, ARGS_NUMERIC,
     "avg(integer), avg(bigint), avg(double precision), avg(numeric)"},
    {"min", EXEC_AGG_MIN, ARGS_SCALAR, "min(any type but struct)"},
    {"max", EXEC_AGG_MAX, ARGS_SCALAR, "max(any type but struct)"},
    {"first", EXEC_AGG_FIRST, ARGS_SCALAR, "first(any type but struct)"},
    {"last", EXEC_AGG_LAST, ARGS_SCALAR, "last(any type but struct)"},
    {"approx_count_distinct", EXEC_AGG_APPROX_COUNT_DISTINCT, ARGS_ANY,
     "approx_count_distinct(any), approx_count_distinct(any, relativeSD)"},
};

static const agg_entry_t *agg_find(const char *name)
{
    for (size_t i = 0; i < sizeof agg_catalogue / sizeof agg_catalogue[0]; i++)
        if (!strcasecmp(agg_catalogue[i].name, name)) return &agg_catalogue[i];
    return NULL;
}

static bool arg_ok(arg_rule_t rule, exec_type_t t)
{
    switch (rule) {
    case ARGS_NUMERIC: return exec_type_is_numeric(t);
    case ARGS_SCALAR: return t.id != EXEC_TYPE_STRUCT;
    case ARGS_ANY: return true;
    default: return false;
    }
}

static int no_match(const agg_entry_t *e, const char *name, bool star, exec_type_t arg,
                    sl_error_t *err)
{
    sl_error_set(err, SL_ERR_UNDEFINED_FUNCTION, "function %s(%s) does not exist", name,
                 star ? "*" : exec_type_pg_name(arg));
    if (!e)
        return sl_error_hint(err, "The aggregate functions are count, sum, avg, min, max, "
                                  "first, last and approx_count_distinct.");
    return sl_error_hint(err, "%s takes: %s. You might need to add an explicit type cast.", e->name,
                         e->signatures);
}

/* ---- result and buffer types ---- */

static void set_buf(exec_agg_t *f, int i, const char *name, exec_type_t t)
{
    f->buf_names[i] = name;
    f->buf_types[i] = t;
    if (i + 1 > f->nbuf) f->nbuf = i + 1;
}

/* sum's (and avg's) running-sum type: Spark's DECIMAL(min(38, p+10), s). */
static exec_type_t sum_type(exec_type_t arg)
{
    if (arg.id == EXEC_TYPE_DECIMAL) {
        int p = arg.precision + 10 > EXEC_DECIMAL_MAX_PRECISION ? EXEC_DECIMAL_MAX_PRECISION
                                                                : arg.precision + 10;
        return exec_type_decimal(p, arg.scale);
    }
    return exec_type_of(arg.id == EXEC_TYPE_DOUBLE ? EXEC_TYPE_DOUBLE : EXEC_TYPE_BIGINT);
}

/* avg's result: DOUBLE, or Spark's DecimalType.bounded(p + 4, s + 4). */
static exec_type_t avg_type(exec_type_t arg)
{
    if (arg.id != EXEC_TYPE_DECIMAL) return exec_type_of(EXEC_TYPE_DOUBLE);
    int p = arg.precision + 4, s = arg.scale + 4;
    if (p > EXEC_DECIMAL_MAX_PRECISION) p = EXEC_DECIMAL_MAX_PRECISION;
    if (s > p) s = p;
    return exec_type_decimal(p, s);
}

static int hll_precision(double rsd, sl_error_t *err)
{
    if (rsd == 0) rsd = EXEC_AGG_HLL_DEFAULT_RSD;
    if (!(rsd >= 0.0043 && rsd <= 0.39)) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                     "relativeSD of approx_count_distinct must be between 0.0043 and 0.39");
        return sl_error_detail(err, "It was %g.", rsd);
    }
    return (int)ceil(2.0 * log2(1.106 / rsd));
}

static void fill_types(exec_agg_t *f)
{
    exec_type_t bigint = exec_type_of(EXEC_TYPE_BIGINT), boolean = exec_type_of(EXEC_TYPE_BOOLEAN);
    switch (f->kind) {
    case EXEC_AGG_COUNT_STAR:
    case EXEC_AGG_COUNT:
        f->result_type = bigint;
        set_buf(f, 0, "count", bigint);
        break;
    case EXEC_AGG_SUM:
        f->result_type = sum_type(f->arg_type);
        set_buf(f, 0, "sum", f->result_type);
        set_buf(f, 1, "isEmpty", boolean);
        break;
    case EXEC_AGG_AVG:
        f->result_type = avg_type(f->arg_type);
        set_buf(f, 0, "sum",
                f->arg_type.id == EXEC_TYPE_DECIMAL ? sum_type(f->arg_type)
                                                    : exec_type_of(EXEC_TYPE_DOUBLE));
        set_buf(f, 1, "count", bigint);
        break;
    case EXEC_AGG_MIN:
    case EXEC_AGG_MAX:
        f->result_type = f->arg_type;
        set_buf(f, 0, f->kind == EXEC_AGG_MIN ? "min" : "max", f->arg_type);
        break;
    case EXEC_AGG_FIRST:
    case EXEC_AGG_LAST:
        f->result_type = f->arg_type;
        set_buf(f, 0, f->kind == EXEC_AGG_FIRST ? "first" : "last", f->arg_type);
        set_buf(f, 1, "valueSet", boolean);
        break;
    case EXEC_AGG_APPROX_COUNT_DISTINCT:
        f->result_type = bigint;
        set_buf(f, 0, "sketch", exec_type_of(EXEC_TYPE_BINARY));
        break;
    }
}

int exec_agg_lookup(const char *name, bool distinct, bool star, exec_type_t arg,
                    const exec_agg_opts_t *opts, exec_agg_t *out, sl_error_t *err)
{
    const agg_entry_t *e = agg_find(name);
    memset(out, 0, sizeof *out);
    if (!e || (star && e->kind != EXEC_AGG_COUNT) || (star && distinct) ||
        (!star && !arg_ok(e->rule, arg)))
        return no_match(e, name, star, arg, err);
    out->kind = star ? EXEC_AGG_COUNT_STAR : e->kind;
    out->name = e->name;
    out->distinct = distinct;
    out->ignore_nulls = opts && opts->ignore_nulls;
    out->arg_type = star ? exec_type_of(EXEC_TYPE_NULL) : arg;
    if (out->kind == EXEC_AGG_APPROX_COUNT_DISTINCT) {
        int p = hll_precision(opts ? opts->relative_sd : 0, err);
        if (p < 0) return -1;
        out->hll_p = p;
    }
    fill_types(out);
    return 0;
}

int exec_agg_result_type(const char *func, int distinct, int star, exec_type_t arg,
                         exec_type_t *out, sl_error_t *err)
{
    exec_agg_t f;
    if (exec_agg_lookup(func, distinct != 0, star != 0, arg, NULL, &f, err) < 0) return -1;
    *out = f.result_type;
    return 0;
}

void exec_agg_format_buffer(const exec_agg_t *f, sl_buf_t *out)
{
    for (int i = 0; i < f->nbuf; i++) {
        sl_buf_printf(out, "%s%s ", i ? ", " : "", f->buf_names[i]);
        exec_type_format(f->buf_types[i], out);
    }
}

/* ---- state ---- */

static void state_free(void *arg)
{
    exec_agg_state_t *st = arg;
    for (int i = 0; i < EXEC_AGG_MAX_BUF; i++) {
        free(st->v[i].data);
        free(st->v[i].nulls);
        st->v[i].data = NULL;
        st->v[i].nulls = NULL;
    }
}

void exec_agg_state_init(const exec_agg_t *f, exec_agg_state_t *st, sl_arena_t *a)
{
    memset(st, 0, sizeof *st);
    st->arena = a;
    for (int i = 0; i < f->nbuf; i++) st->v[i].type = f->buf_types[i];
    if (f->distinct) {
        exec_type_t t[2] = {exec_type_of(EXEC_TYPE_INT), f->arg_type};
        st->seen = exec_ht_new(a, 2, t, 0);
    }
    sl_arena_on_reset(a, state_free, st);
}

/* Buffers that start NULL (min, max, first, last, sketch) need a null map. */
static bool starts_null(const exec_agg_t *f, int i)
{
    switch (f->kind) {
    case EXEC_AGG_MIN:
    case EXEC_AGG_MAX:
    case EXEC_AGG_APPROX_COUNT_DISTINCT: return true;
    case EXEC_AGG_FIRST:
    case EXEC_AGG_LAST: return i == 0;
    default: return false;
    }
}

/* Transparent huge pages for the 2 MiB-aligned part of a large buffer
 * array (millions of groups); advice only. */
static void advise_huge(void *p, size_t n)
{
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1), hi = ((uintptr_t)p + n) & ~(huge - 1);
    if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}

static void grow(const exec_agg_t *f, exec_agg_state_t *st, uint32_t need)
{
    uint32_t cap = st->cap ? st->cap : 64;
    while (cap < need) cap *= 2;
    for (int i = 0; i < f->nbuf; i++) {
        exec_vec_t *v = &st->v[i];
        size_t w = exec_type_width(v->type);
        if (w) {
            v->data = sl_xrealloc(v->data, w * cap);
            advise_huge(v->data, w * cap);
        }
        if (starts_null(f, i) || v->type.id == EXEC_TYPE_NULL)
            v->nulls = sl_xrealloc(v->nulls, cap);
    }
    st->cap = cap;
}

/* Initial buffer values of groups from..to-1. */
static void init_rows(const exec_agg_t *f, exec_agg_state_t *st, uint32_t from, uint32_t to)
{
    for (int i = 0; i < f->nbuf; i++) {
        exec_vec_t *v = &st->v[i];
        size_t w = exec_type_width(v->type);
        if (w) memset((char *)v->data + w * from, 0, w * (to - from));
        if (v->nulls)
            memset(v->nulls + from, starts_null(f, i) || v->type.id == EXEC_TYPE_NULL, to - from);
    }
    if (f->kind == EXEC_AGG_SUM)
        memset((uint8_t *)st->v[1].data + from, 1, to - from); /* isEmpty */
}

void exec_agg_state_resize(const exec_agg_t *f, exec_agg_state_t *st, uint32_t n)
{
    if (n <= st->n) return;
    if (n > st->cap) grow(f, st, n);
    init_rows(f, st, st->n, n);
    st->n = n;
}
