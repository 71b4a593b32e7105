/* exec expressions, internal: the compiled program (steps, registers,
 * selections), the evaluation state and the loop macros every kernel is
 * written with. Included only by exec/expr*.c and exec/func*.c.
 *
 * A program is a flat array of steps. Registers are vectors (one per tree
 * node that produces values); selections are row lists (selection 0 is the
 * batch's own). Each step runs under one selection and either writes a
 * register (kernels) or writes new selections (filters, CASE splits,
 * lazy AND/OR). A register's cells are defined only at the rows of the
 * selection its step ran under. */
#ifndef EXEC_EXPR_INT_H
#define EXEC_EXPR_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "model/cast.h"
#include "exec/expr.h"
#include "exec/func.h"

/* A row list: idx NULL means rows 0 .. n-1. */
typedef struct exec_sel {
    const uint32_t *idx;
    uint32_t n;
} exec_sel_t;

typedef struct exec_eval {
    exec_vec_t *regs; /* nregs */
    exec_sel_t *sels; /* nsels */
    uint32_t nrows;   /* physical rows of the batch */
    const exec_batch_t *batch;
    exec_ctx_t *ctx;
    sl_arena_t *a; /* ctx->arena */
} exec_eval_t;

typedef struct exec_step exec_step_t;
typedef int (*exec_step_fn)(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);

/* Where a binary kernel's operands come from. */
typedef enum { EXEC_SHAPE_VV, EXEC_SHAPE_VC, EXEC_SHAPE_CV } exec_shape_t;

struct exec_step {
    exec_step_fn fn;
    const char *name;      /* kernel name, for exec_prog_dump */
    int out;               /* register written, or -1 */
    int sel;               /* selection the step runs under */
    int sel_out, sel_out2; /* selections written, or -1 */
    int in[2];             /* operand registers; -1 = the constant k */
    int nin;               /* variadic operands (calls, IN, struct) */
    const int *ins;        /* nin registers (-1 = not evaluated) */
    exec_shape_t shape;    /* binary kernels */
    exec_type_t type;      /* type of register `out` */
    int op;                /* comparison / arithmetic operator */
    exec_value_t k;        /* constant operand */
    const void *aux;       /* kernel data */
};

struct exec_prog {
    exec_type_t type;
    exec_step_t *steps; /* value program */
    int nsteps;
    int result;          /* register holding the value */
    exec_step_t *fsteps; /* filter program (BOOLEAN programs), or NULL */
    int nfsteps;
    int fresult; /* selection holding the rows that pass */
    int nregs, nsels;
};

/* ---- loops ----------------------------------------------------------------
 * FOR_SEL runs BODY with `i` bound to each row of selection s. FOR_SEL_VALID
 * additionally skips rows whose byte in null map nl (may be NULL) is set:
 * kernels that can fail (overflow, division) or that dereference cells
 * (strings) use it; the others compute garbage under NULLs harmlessly in
 * the tight loop. */
#define FOR_SEL(s, ...)                            \
    do {                                           \
        const uint32_t *ix_ = (s)->idx;            \
        uint32_t n_ = (s)->n;                      \
        if (!ix_) {                                \
            for (uint32_t i = 0; i < n_; i++) {    \
                __VA_ARGS__;                       \
            }                                      \
        } else {                                   \
            for (uint32_t k_ = 0; k_ < n_; k_++) { \
                uint32_t i = ix_[k_];              \
                __VA_ARGS__;                       \
            }                                      \
        }                                          \
    } while (0)

#define FOR_SEL_VALID(s, nl, ...)                   \
    do {                                            \
        const uint8_t *nl__ = (nl);                 \
        if (!nl__) FOR_SEL(s, __VA_ARGS__);         \
        else                                        \
            FOR_SEL(                                \
                s, if (!nl__[i]) { __VA_ARGS__; }); \
    } while (0)

/* The constant operand of a step as a C value of type T. */
#define STEP_CONST(T, st) (*(const T *)(const void *)&(st)->k.u)

/* ---- helpers (expr_eval.c) ---- */

/* Allocates register st->out as a fresh vector of st->type over the batch. */
exec_vec_t *exec_step_out(const exec_step_t *st, exec_eval_t *ev);
/* The OR of two null maps (either may be NULL): NULL when both are, the
 * other map itself when one is (shared, never to be written), else a new map. */
uint8_t *exec_nulls_or(exec_eval_t *ev, const uint8_t *a, const uint8_t *b);
/* A private, writable copy of a null map (zeroed map when nl is NULL). */
uint8_t *exec_nulls_copy(exec_eval_t *ev, const uint8_t *nl);
/* A new selection array of capacity n in the arena. */
uint32_t *exec_sel_alloc(exec_eval_t *ev, uint32_t n);

/* ---- kernel families (one file each) ---- */

/* expr_arith.c: the kernel for l op r with the given operand and result
 * types and shape; NULL when that shape is not specialised (the compiler
 * then materialises the constant and asks for VV). */
exec_step_fn exec_arith_kernel(exec_arith_op_t op, exec_type_t l, exec_type_t r, exec_type_t out,
                               exec_shape_t shape, const char **name);
exec_step_fn exec_neg_kernel(exec_type_t t, const char **name);

/* expr_cmp.c: comparisons of two operands of type t; filter kernels write
 * sel_out (rows where true) instead of a BOOLEAN register. */
exec_step_fn exec_cmp_kernel(exec_type_t t, exec_shape_t shape, bool filter, const char **name);
/* IS [NOT] DISTINCT FROM (op = negated). */
exec_step_fn exec_distinct_kernel(exec_type_t t);
/* x IN constant set: aux from exec_in_set_build; op = negated. */
const void *exec_in_set_build(sl_arena_t *a, exec_type_t t, const exec_value_t *vals, int n);
int exec_in_set_kernel(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);

/* expr_like.c: aux from exec_like_compile for a constant pattern. */
const void *exec_like_compile(sl_arena_t *a, const char *pat, size_t n, int escape, bool ilike);
int exec_like_const_kernel(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_like_dyn_kernel(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
/* True when the pattern ends with an escape character that escapes nothing
 * (22025, as PostgreSQL and Spark refuse it). */
bool exec_like_bad_escape(const char *p, size_t n, int escape);
/* Matches a string against a pattern (both raw); escape 0 = none. */
bool exec_like_match(const char *s, size_t n, const char *p, size_t pn, int escape, bool ilike);
/* Simple case folding of one UTF-8 string into `a` (lower when !upper). */
exec_str_t exec_str_case(sl_arena_t *a, exec_str_t s, bool upper);

/* expr_eval.c: the control kernels the compiler emits. */
int exec_k_load(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_broadcast(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_sel_true(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_sel_false(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_sel_not_false(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_sel_not_true(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_sel_diff(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_sel_union(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_sel_none(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_and(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_or(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_not(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_is_null(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_init(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_scatter(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_scatter_const(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_coalesce_take(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_cast(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_field(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_struct(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);
int exec_k_call(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err);

/* Data of a cast step. */
typedef struct exec_cast_aux {
    exec_cast_fn fn;
} exec_cast_aux_t;

/* Data of a LIKE step with a pattern computed per row. */
typedef struct exec_like_dyn_aux {
    int escape; /* escape byte, 0 = none */
    bool ilike;
} exec_like_dyn_aux_t;

/* Data of a call step. */
typedef struct exec_call_aux {
    const exec_func_t *func;
    exec_func_kernel_t kernel;
    const void *aux;
} exec_call_aux_t;

#endif
