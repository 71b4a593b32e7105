/* exec expressions: typed expression trees, compiled once into flat
 * programs evaluated a batch at a time.
 *
 * The binder builds trees with the constructors below (never by filling the
 * struct): each constructor checks its arguments' types, inserts implicit
 * casts (cast.h's exec_common_type / exec_cast_implicit; a STRING constant
 * compared with a typed side is converted at construction, so a bad literal
 * fails at bind time) and computes the result type. On a type error a
 * constructor returns NULL with err set: 42883 `operator does not exist:
 * integer + boolean` / `function lower(integer) does not exist` (with a
 * hint listing the accepted signatures), or 42804 for mismatches such as
 * `argument of AND must be type boolean, not type integer` and `CASE types
 * integer and boolean cannot be matched`. The binder adds the position.
 * Trees are immutable once built, live in the arena given to the
 * constructors, and may be shared.
 *
 * Semantics are Spark SQL's in ANSI mode: integer overflow is 22003, not a
 * wrap; INT / INT is DOUBLE; decimals follow Spark's precision rules;
 * division by zero is 22012; `||` and concat() give NULL if any side is
 * NULL; comparisons of strings are bytewise. AND and OR are three-valued
 * and evaluated lazily: the right side runs only on rows the left side did
 * not decide, so `b <> 0 AND a / b > 1` never divides by zero; CASE and
 * COALESCE likewise evaluate a branch only for the rows that reach it.
 *
 * exec_expr_compile() turns a tree into an exec_prog_t: an array of steps,
 * each a kernel chosen for the operand types (and constant operands) that
 * writes one vector or one selection in scratch memory. Constant subtrees
 * are folded at compile time (a subtree whose folding fails, say 1/0, is
 * left to fail at run time, and only for rows that reach it). A program is
 * immutable: one program may be evaluated by several threads at once, each
 * with its own exec_ctx_t. */
#ifndef EXEC_EXPR_H
#define EXEC_EXPR_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/sl_error.h"
#include "model/batch.h"
#include "model/types.h"
#include "model/value.h"

typedef enum exec_expr_kind {
    EXEC_EXPR_CONST,    /* value */
    EXEC_EXPR_COLUMN,   /* column: input column index */
    EXEC_EXPR_ARITH,    /* op: exec_arith_op_t; args[0], args[1] */
    EXEC_EXPR_NEG,      /* -args[0] */
    EXEC_EXPR_CMP,      /* op: exec_cmp_op_t; args[0], args[1] (same type) */
    EXEC_EXPR_AND,      /* args[0] AND args[1] */
    EXEC_EXPR_OR,       /* args[0] OR args[1] */
    EXEC_EXPR_NOT,      /* NOT args[0] */
    EXEC_EXPR_IS_NULL,  /* args[0] IS NULL (negated: IS NOT NULL) */
    EXEC_EXPR_DISTINCT, /* args[0] IS DISTINCT FROM args[1] (negated: IS NOT DISTINCT FROM) */
    EXEC_EXPR_IN,       /* args[0] IN (args[1..]) (negated: NOT IN); all of one type */
    EXEC_EXPR_LIKE,     /* args[0] LIKE args[1] (negated: NOT LIKE; op = escape byte, 0 none) */
    EXEC_EXPR_ILIKE,    /* case-insensitive LIKE; same layout */
    EXEC_EXPR_CASE,     /* args: when1, then1, ..., whenN, thenN, else (nargs = 2N + 1) */
    EXEC_EXPR_CAST,     /* CAST(args[0] AS type) */
    EXEC_EXPR_COALESCE, /* args[0..n) */
    EXEC_EXPR_FIELD,    /* args[0].field `column` (a struct field index) */
    EXEC_EXPR_STRUCT,   /* struct of args (field names in type) */
    EXEC_EXPR_CALL,     /* func(args); aux = data the function's bind step prepared */
} exec_expr_kind_t;

typedef enum exec_arith_op {
    EXEC_OP_ADD,
    EXEC_OP_SUB,
    EXEC_OP_MUL,
    EXEC_OP_DIV,
    EXEC_OP_MOD,
    EXEC_OP_CONCAT, /* || */
} exec_arith_op_t;

typedef enum exec_cmp_op {
    EXEC_CMP_EQ,
    EXEC_CMP_NE,
    EXEC_CMP_LT,
    EXEC_CMP_LE,
    EXEC_CMP_GT,
    EXEC_CMP_GE,
} exec_cmp_op_t;

struct exec_func;
typedef struct exec_expr exec_expr_t;

/* A node. Read-only outside expr*.c: planners may inspect kind, type, args,
 * column, value and func to analyse an expression (window detection,
 * column use, EXPLAIN). */
struct exec_expr {
    exec_expr_kind_t kind;
    exec_type_t type; /* result type */
    int op;           /* ARITH/CMP operator; LIKE escape byte */
    bool negated;     /* IS NOT NULL, IS NOT DISTINCT FROM, NOT IN, NOT LIKE */
    int nargs;
    exec_expr_t **args;           /* operands, see exec_expr_kind_t */
    exec_value_t value;           /* CONST */
    int column;                   /* COLUMN: input column; FIELD: field index */
    const char *name;             /* COLUMN: display name (may be NULL); CALL: function name */
    const struct exec_func *func; /* CALL: catalogue entry */
    void *aux;                    /* CALL: bound data; private */
    uint32_t const_args;          /* CALL: bit i set = args[i] consumed at bind, not evaluated */
};

/* ---- constructors: trees live in `a`; NULL + err on a type error ---- */

/* A constant (strings and struct fields are copied into `a`). */
exec_expr_t *exec_expr_const(sl_arena_t *a, const exec_value_t *v);
/* Input column `index` of type t; `name` (copied; may be NULL) is for EXPLAIN. */
exec_expr_t *exec_expr_column(sl_arena_t *a, int index, exec_type_t t, const char *name);
/* l op r: numbers (+ - * / %), TIMESTAMP +/- INTERVAL, INTERVAL + TIMESTAMP,
 * DATE +/- INT, DATE - DATE (INT days), TIMESTAMP - TIMESTAMP (INTERVAL),
 * INTERVAL +/- INTERVAL, STRING || STRING (any scalar side is cast to STRING). */
exec_expr_t *exec_expr_arith(sl_arena_t *a, exec_arith_op_t op, exec_expr_t *l, exec_expr_t *r,
                             sl_error_t *err);
/* -x for numbers and intervals. */
exec_expr_t *exec_expr_neg(sl_arena_t *a, exec_expr_t *x, sl_error_t *err);
/* l op r over the common type of both sides (any type; structs field by field). */
exec_expr_t *exec_expr_cmp(sl_arena_t *a, exec_cmp_op_t op, exec_expr_t *l, exec_expr_t *r,
                           sl_error_t *err);
/* Three-valued logic over BOOLEAN (or NULL) operands. */
exec_expr_t *exec_expr_and(sl_arena_t *a, exec_expr_t *l, exec_expr_t *r, sl_error_t *err);
exec_expr_t *exec_expr_or(sl_arena_t *a, exec_expr_t *l, exec_expr_t *r, sl_error_t *err);
exec_expr_t *exec_expr_not(sl_arena_t *a, exec_expr_t *x, sl_error_t *err);
/* x IS NULL, or x IS NOT NULL when negated. Never fails. */
exec_expr_t *exec_expr_is_null(sl_arena_t *a, exec_expr_t *x, bool negated);
/* l IS DISTINCT FROM r (negated: IS NOT DISTINCT FROM). */
exec_expr_t *exec_expr_distinct(sl_arena_t *a, exec_expr_t *l, exec_expr_t *r, bool negated,
                                sl_error_t *err);
/* x [NOT] IN (list). All constants: a hash set when the list is long;
 * otherwise an OR of equalities. SQL NULL rules (x NOT IN (1, NULL) is
 * never true). */
exec_expr_t *exec_expr_in(sl_arena_t *a, exec_expr_t *x, exec_expr_t *const *list, int n,
                          bool negated, sl_error_t *err);
/* x [NOT] BETWEEN lo AND hi, as x >= lo AND x <= hi. */
exec_expr_t *exec_expr_between(sl_arena_t *a, exec_expr_t *x, exec_expr_t *lo, exec_expr_t *hi,
                               bool negated, sl_error_t *err);
/* x [NOT] [I]LIKE pattern [ESCAPE esc]: `%` any string, `_` one character
 * (UTF-8 aware), escape (default `\`; esc NULL = default, '' = none) makes
 * the next character literal. A constant pattern is analysed once (exact,
 * prefix, suffix, contains, general). ILIKE folds ASCII, Latin-1, Greek and
 * Cyrillic letters. The escape must be a constant of at most one byte
 * (22025 "invalid escape string" otherwise); a pattern ending with the
 * escape is 22025 "LIKE pattern must not end with escape character" (at
 * construction for a constant pattern, at evaluation for a column). A NULL
 * escape makes the result NULL. */
exec_expr_t *exec_expr_like(sl_arena_t *a, exec_expr_t *x, exec_expr_t *pattern,
                            exec_expr_t *escape, bool ilike, bool negated, sl_error_t *err);
/* CASE [operand] WHEN w1 THEN t1 ... [ELSE e] END. With an operand, each
 * wi is compared with it (operand = wi; the operand is re-evaluated per
 * WHEN). els may be NULL (ELSE NULL). Results are coerced to their common type. */
exec_expr_t *exec_expr_case(sl_arena_t *a, exec_expr_t *operand, exec_expr_t *const *whens,
                            exec_expr_t *const *thens, int n, exec_expr_t *els, sl_error_t *err);
/* CAST(x AS t); 42846-like 42804 `cannot cast type integer to boolean`
 * when cast.h does not allow it. Casting to the same type returns x. */
exec_expr_t *exec_expr_cast(sl_arena_t *a, exec_expr_t *x, exec_type_t t, sl_error_t *err);
/* CAST(x AS BINARY) in Spark's meaning: a string becomes its own bytes
 * (a CAST node with op EXEC_CAST_OWN_BYTES), where exec_expr_cast reads
 * PostgreSQL's bytea input; any other x is exec_expr_cast to BINARY. */
#define EXEC_CAST_OWN_BYTES 1
exec_expr_t *exec_expr_cast_binary(sl_arena_t *a, exec_expr_t *x, sl_error_t *err);
/* Implicit conversion for the binder (INSERT targets, UNION sides...):
 * x itself when already of type t, a cast when exec_cast_implicit allows
 * it (a constant is converted now), 42804 otherwise. */
exec_expr_t *exec_expr_coerce(sl_arena_t *a, exec_expr_t *x, exec_type_t t, sl_error_t *err);
/* COALESCE(args...), n >= 1, coerced to the common type. */
exec_expr_t *exec_expr_coalesce(sl_arena_t *a, exec_expr_t *const *args, int n, sl_error_t *err);
/* x.field for a STRUCT x; 42703 when out of range. */
exec_expr_t *exec_expr_field(sl_arena_t *a, exec_expr_t *x, int field, sl_error_t *err);
/* A struct of the args with the given field names (copied). */
exec_expr_t *exec_expr_struct(sl_arena_t *a, exec_expr_t *const *args, const char *const *names,
                              int n, sl_error_t *err);
/* A call of a scalar function from the catalogue (func.h), by name
 * (case-insensitive). `names` (may be NULL) gives each argument's column
 * name, for struct(a, b). coalesce() builds a COALESCE node. Aggregates
 * and planner-only functions (window with a slide, session_window) are
 * refused with the errors func.h describes. */
exec_expr_t *exec_expr_call(sl_arena_t *a, const char *name, exec_expr_t *const *args,
                            const char *const *names, int n, sl_error_t *err);

/* ---- inspection ---- */

/* True for a CONST node. */
bool exec_expr_is_const(const exec_expr_t *e);
/* True when the tree reads no column and calls nothing volatile (so its
 * value can be computed once). */
bool exec_expr_is_foldable(const exec_expr_t *e);
/* Sets used[c] = true for every input column c the tree reads (used has
 * ncols entries; columns >= ncols are ignored). */
void exec_expr_columns(const exec_expr_t *e, bool *used, int ncols);
/* A copy of the tree in `a` with column c renamed to map[c] (map[c] < 0 is
 * a caller bug). */
exec_expr_t *exec_expr_remap(sl_arena_t *a, const exec_expr_t *e, const int *map);
/* SQL-like text of the tree for EXPLAIN: `(a + 1)`, `lower(name)`,
 * `CAST(x AS BIGINT)`. */
void exec_expr_format(const exec_expr_t *e, sl_buf_t *buf);

/* ---- compiled programs ---- */

typedef struct exec_prog exec_prog_t;

/* What evaluation needs from its caller. One per thread. */
typedef struct exec_ctx {
    sl_arena_t *arena;          /* scratch for steps and results; the caller resets it
                                    between batches (results live until then) */
    int64_t batch_timestamp_ms; /* the micro-batch's pinned batchTimestampMs:
                                    current_timestamp() returns it, so a replayed batch
                                    sees the same value */
    const atomic_int *cancel;   /* nonzero = stop (57014); NULL = never. Checked when a
                                    batch starts and inside pg_sleep() */
} exec_ctx_t;

/* Compiles a tree into a program allocated in `a` (the plan's arena).
 * Errors only for trees no constructor would build. */
exec_prog_t *exec_expr_compile(sl_arena_t *a, const exec_expr_t *e, sl_error_t *err);
/* Evaluates the program over the present rows of `b`. *out is a vector
 * over b's physical rows whose cells are defined at the present rows only.
 * It may alias a column of b (a column reference costs nothing) and
 * otherwise lives in ctx->arena. -1 with err on a run-time error (22003,
 * 22012, 22P02 ...) or cancellation (57014). */
int exec_prog_eval(const exec_prog_t *p, exec_ctx_t *ctx, const exec_batch_t *b, exec_vec_t *out,
                   sl_error_t *err);
/* For a BOOLEAN program: narrows b's selection to the present rows where
 * the program is true (not false, not NULL). The new selection is allocated
 * in b->arena. Same errors as exec_prog_eval. */
int exec_prog_filter(const exec_prog_t *p, exec_ctx_t *ctx, exec_batch_t *b, sl_error_t *err);
/* The steps, one per line (for tests and EXPLAIN VERBOSE). */
void exec_prog_dump(const exec_prog_t *p, sl_buf_t *buf);

#endif
