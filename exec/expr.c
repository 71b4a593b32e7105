/* exec expressions: tree constructors with type checking and implicit
 * coercion, inspection helpers and EXPLAIN text. Compilation is in
 * expr_compile.c, evaluation in expr_eval.c and the kernel files. */
#include "exec/expr.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model/cast.h"
#include "model/decimal.h"
#include "exec/expr_int.h"
#include "exec/func.h"

/* ---- nodes ---------------------------------------------------------------- */

static exec_expr_t *node(sl_arena_t *a, exec_expr_kind_t kind, exec_type_t type, int nargs)
{
    exec_expr_t *e = SL_NEW(a, exec_expr_t);
    e->kind = kind;
    e->type = type;
    e->nargs = nargs;
    e->args = SL_NEW_ARRAY(a, exec_expr_t *, nargs ? nargs : 1);
    return e;
}

static exec_expr_t *node2(sl_arena_t *a, exec_expr_kind_t kind, exec_type_t type, exec_expr_t *l,
                          exec_expr_t *r)
{
    exec_expr_t *e = node(a, kind, type, r ? 2 : 1);
    e->args[0] = l;
    if (r) e->args[1] = r;
    return e;
}

static exec_type_t T(exec_type_id_t id)
{
    return exec_type_of(id);
}

static bool is(const exec_expr_t *e, exec_type_id_t id)
{
    return e->type.id == id;
}

exec_expr_t *exec_expr_const(sl_arena_t *a, const exec_value_t *v)
{
    exec_expr_t *e = node(a, EXEC_EXPR_CONST, v->type, 0);
    e->value = exec_value_copy(a, v);
    return e;
}

static exec_expr_t *const_null(sl_arena_t *a, exec_type_t t)
{
    exec_value_t v = exec_value_null(t);
    return exec_expr_const(a, &v);
}

exec_expr_t *exec_expr_column(sl_arena_t *a, int index, exec_type_t t, const char *name)
{
    exec_expr_t *e = node(a, EXEC_EXPR_COLUMN, t, 0);
    e->column = index;
    e->name = name ? sl_strdup(a, name) : NULL;
    return e;
}

/* Converts e to type t: e itself, a folded constant, or a CAST node. */
static exec_expr_t *coerce_to(sl_arena_t *a, exec_expr_t *e, exec_type_t t, sl_error_t *err)
{
    if (exec_type_equal(e->type, t)) return e;
    if (e->kind == EXEC_EXPR_CONST) {
        exec_value_t v;
        if (exec_cast_value(&e->value, t, a, &v, err)) return NULL;
        return exec_expr_const(a, &v);
    }
    exec_expr_t *c = node2(a, EXEC_EXPR_CAST, t, e, NULL);
    return c;
}

/* ---- errors ------------------------------------------------------------- */

static const char *op_text(exec_arith_op_t op)
{
    static const char *t[] = {"+", "-", "*", "/", "%", "||"};
    return t[op];
}

static const char *cmp_text(exec_cmp_op_t op)
{
    static const char *t[] = {"=", "<>", "<", "<=", ">", ">="};
    return t[op];
}

static exec_expr_t *no_operator(const char *op, const exec_expr_t *l, const exec_expr_t *r,
                                sl_error_t *err)
{
    if (l)
        sl_error_set(err, SL_ERR_UNDEFINED_FUNCTION, "operator does not exist: %s %s %s",
                     exec_type_pg_name(l->type), op, exec_type_pg_name(r->type));
    else
        sl_error_set(err, SL_ERR_UNDEFINED_FUNCTION, "operator does not exist: %s %s", op,
                     exec_type_pg_name(r->type));
    sl_error_hint(
        err,
        "No operator matches the given name and argument types. You might need to add explicit type casts.");
    return NULL;
}

/* ---- arithmetic ----------------------------------------------------------- */

/* The decimal type of an integer operand: the narrowest holding a literal
 * (Spark's DecimalType.fromLiteral), else the type's lossless decimal. */
static exec_type_t dec_operand_type(const exec_expr_t *e)
{
    if (e->kind == EXEC_EXPR_CONST && !e->value.is_null && exec_type_is_integer(e->type)) {
        int64_t v = is(e, EXEC_TYPE_INT) ? e->value.u.i32 : e->value.u.i64;
        uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
        char buf[24];
        int n = snprintf(buf, sizeof buf, "%llu", (unsigned long long)mag);
        return exec_type_decimal(n, 0);
    }
    return exec_dec_type_of(e->type);
}

static exec_expr_t *arith_node(sl_arena_t *a, exec_arith_op_t op, exec_type_t t, exec_expr_t *l,
                               exec_expr_t *r)
{
    exec_expr_t *e = node2(a, EXEC_EXPR_ARITH, t, l, r);
    e->op = op;
    return e;
}

/* Numbers: Spark's result type, operands converted to the operand type the kernel expects. */
static exec_expr_t *arith_numeric(sl_arena_t *a, exec_arith_op_t op, exec_expr_t *l, exec_expr_t *r,
                                  sl_error_t *err)
{
    exec_type_t lt = l->type, rt = r->type, ot, operand;
    if (lt.id == EXEC_TYPE_DOUBLE || rt.id == EXEC_TYPE_DOUBLE ||
        (op == EXEC_OP_DIV && lt.id != EXEC_TYPE_DECIMAL && rt.id != EXEC_TYPE_DECIMAL)) {
        ot = operand = T(EXEC_TYPE_DOUBLE);
    } else if (lt.id == EXEC_TYPE_DECIMAL || rt.id == EXEC_TYPE_DECIMAL) {
        exec_type_t dl = dec_operand_type(l), dr = dec_operand_type(r);
        if (!(l = coerce_to(a, l, dl, err)) || !(r = coerce_to(a, r, dr, err))) return NULL;
        return arith_node(a, op, exec_dec_result_type((exec_dec_op_t)op, dl, dr), l, r);
    } else {
        ot = operand = (lt.id == EXEC_TYPE_BIGINT || rt.id == EXEC_TYPE_BIGINT)
                           ? T(EXEC_TYPE_BIGINT)
                           : T(EXEC_TYPE_INT);
    }
    if (!(l = coerce_to(a, l, operand, err)) || !(r = coerce_to(a, r, operand, err))) return NULL;
    return arith_node(a, op, ot, l, r);
}

static bool is_datetime(const exec_expr_t *e)
{
    return is(e, EXEC_TYPE_TIMESTAMP) || is(e, EXEC_TYPE_DATE);
}

/* Date/time arithmetic; NULL with err unset when no rule applies. */
static exec_expr_t *arith_time(sl_arena_t *a, exec_arith_op_t op, exec_expr_t *l, exec_expr_t *r,
                               sl_error_t *err)
{
    exec_type_t ts = T(EXEC_TYPE_TIMESTAMP), iv = T(EXEC_TYPE_INTERVAL);
    if (op != EXEC_OP_ADD && op != EXEC_OP_SUB) return NULL;
    if (op == EXEC_OP_ADD && is(l, EXEC_TYPE_INTERVAL) && is_datetime(r))
        return arith_time(a, op, r, l, err);
    if (op == EXEC_OP_ADD && exec_type_is_integer(l->type) && is(r, EXEC_TYPE_DATE))
        return arith_time(a, op, r, l, err);
    if (is_datetime(l) && is(r, EXEC_TYPE_STRING) && r->kind == EXEC_EXPR_CONST &&
        !(r = coerce_to(a, r, iv, err)))
        return NULL;
    if (is(l, EXEC_TYPE_DATE) && exec_type_is_integer(r->type)) {
        if (!(r = coerce_to(a, r, T(EXEC_TYPE_INT), err))) return NULL;
        return arith_node(a, op, T(EXEC_TYPE_DATE), l, r);
    }
    if (is(l, EXEC_TYPE_DATE) && is(r, EXEC_TYPE_DATE) && op == EXEC_OP_SUB)
        return arith_node(a, op, T(EXEC_TYPE_INT), l, r);
    if (is_datetime(l) && is(r, EXEC_TYPE_INTERVAL)) {
        if (!(l = coerce_to(a, l, ts, err))) return NULL;
        return arith_node(a, op, ts, l, r);
    }
    if (is_datetime(l) && is_datetime(r) && op == EXEC_OP_SUB) {
        if (!(l = coerce_to(a, l, ts, err)) || !(r = coerce_to(a, r, ts, err))) return NULL;
        return arith_node(a, op, iv, l, r);
    }
    if (is(l, EXEC_TYPE_INTERVAL) && is(r, EXEC_TYPE_INTERVAL)) return arith_node(a, op, iv, l, r);
    return NULL;
}

static exec_expr_t *arith_concat(sl_arena_t *a, exec_expr_t *l, exec_expr_t *r, sl_error_t *err)
{
    exec_type_t s = T(EXEC_TYPE_STRING);
    if (is(l, EXEC_TYPE_STRUCT) || is(r, EXEC_TYPE_STRUCT)) return no_operator("||", l, r, err);
    if (!(l = coerce_to(a, l, s, err)) || !(r = coerce_to(a, r, s, err))) return NULL;
    return arith_node(a, EXEC_OP_CONCAT, s, l, r);
}

exec_expr_t *exec_expr_arith(sl_arena_t *a, exec_arith_op_t op, exec_expr_t *l, exec_expr_t *r,
                             sl_error_t *err)
{
    if (op == EXEC_OP_CONCAT) return arith_concat(a, l, r, err);
    if (is(l, EXEC_TYPE_NULL) && is(r, EXEC_TYPE_NULL)) return const_null(a, T(EXEC_TYPE_INT));
    /* An untyped NULL or a string literal takes the other side's type. */
    if ((is(l, EXEC_TYPE_NULL) || (is(l, EXEC_TYPE_STRING) && l->kind == EXEC_EXPR_CONST)) &&
        !is(r, EXEC_TYPE_STRING) && (exec_type_is_numeric(r->type) || is(l, EXEC_TYPE_NULL)) &&
        !(l = coerce_to(a, l, r->type, err)))
        return NULL;
    if ((is(r, EXEC_TYPE_NULL) || (is(r, EXEC_TYPE_STRING) && r->kind == EXEC_EXPR_CONST)) &&
        !is(l, EXEC_TYPE_STRING) && (exec_type_is_numeric(l->type) || is(r, EXEC_TYPE_NULL)) &&
        !(r = coerce_to(a, r, l->type, err)))
        return NULL;
    if (exec_type_is_numeric(l->type) && exec_type_is_numeric(r->type))
        return arith_numeric(a, op, l, r, err);
    sl_error_clear(err);
    exec_expr_t *e = arith_time(a, op, l, r, err);
    if (e || sl_error_isset(err)) return e;
    return no_operator(op_text(op), l, r, err);
}

exec_expr_t *exec_expr_neg(sl_arena_t *a, exec_expr_t *x, sl_error_t *err)
{
    if (is(x, EXEC_TYPE_NULL)) return const_null(a, T(EXEC_TYPE_INT));
    if (!exec_type_is_numeric(x->type) && !is(x, EXEC_TYPE_INTERVAL))
        return no_operator("-", NULL, x, err);
    return node2(a, EXEC_EXPR_NEG, x->type, x, NULL);
}

/* ---- comparisons and logic -------------------------------------------------- */

/* Coerces both sides to their common type; 42883 with `what` as the operator. */
static bool unify2(sl_arena_t *a, const char *what, exec_expr_t **l, exec_expr_t **r,
                   sl_error_t *err)
{
    exec_type_t t;
    if (exec_common_type((*l)->type, (*r)->type, NULL, &t, err)) {
        no_operator(what, *l, *r, err);
        return false;
    }
    if (is(*l, EXEC_TYPE_NULL) && is(*r, EXEC_TYPE_NULL)) t = T(EXEC_TYPE_BOOLEAN);
    return (*l = coerce_to(a, *l, t, err)) && (*r = coerce_to(a, *r, t, err));
}

exec_expr_t *exec_expr_cmp(sl_arena_t *a, exec_cmp_op_t op, exec_expr_t *l, exec_expr_t *r,
                           sl_error_t *err)
{
    if (!unify2(a, cmp_text(op), &l, &r, err)) return NULL;
    exec_expr_t *e = node2(a, EXEC_EXPR_CMP, T(EXEC_TYPE_BOOLEAN), l, r);
    e->op = op;
    return e;
}

/* A BOOLEAN operand (NULL and string literals converted) or 42804. */
static exec_expr_t *boolean_arg(sl_arena_t *a, const char *what, exec_expr_t *x, sl_error_t *err)
{
    if (is(x, EXEC_TYPE_BOOLEAN)) return x;
    if (is(x, EXEC_TYPE_NULL) || (is(x, EXEC_TYPE_STRING) && x->kind == EXEC_EXPR_CONST))
        return coerce_to(a, x, T(EXEC_TYPE_BOOLEAN), err);
    sl_error_set(err, SL_ERR_DATATYPE_MISMATCH, "argument of %s must be type boolean, not type %s",
                 what, exec_type_pg_name(x->type));
    return NULL;
}

static exec_expr_t *logic(sl_arena_t *a, exec_expr_kind_t k, const char *what, exec_expr_t *l,
                          exec_expr_t *r, sl_error_t *err)
{
    if (!(l = boolean_arg(a, what, l, err))) return NULL;
    if (r && !(r = boolean_arg(a, what, r, err))) return NULL;
    return node2(a, k, T(EXEC_TYPE_BOOLEAN), l, r);
}

exec_expr_t *exec_expr_and(sl_arena_t *a, exec_expr_t *l, exec_expr_t *r, sl_error_t *err)
{
    return logic(a, EXEC_EXPR_AND, "AND", l, r, err);
}

exec_expr_t *exec_expr_or(sl_arena_t *a, exec_expr_t *l, exec_expr_t *r, sl_error_t *err)
{
    return logic(a, EXEC_EXPR_OR, "OR", l, r, err);
}

exec_expr_t *exec_expr_not(sl_arena_t *a, exec_expr_t *x, sl_error_t *err)
{
    return logic(a, EXEC_EXPR_NOT, "NOT", x, NULL, err);
}

exec_expr_t *exec_expr_is_null(sl_arena_t *a, exec_expr_t *x, bool negated)
{
    exec_expr_t *e = node2(a, EXEC_EXPR_IS_NULL, T(EXEC_TYPE_BOOLEAN), x, NULL);
    e->negated = negated;
    return e;
}

exec_expr_t *exec_expr_distinct(sl_arena_t *a, exec_expr_t *l, exec_expr_t *r, bool negated,
                                sl_error_t *err)
{
    if (!unify2(a, negated ? "IS NOT DISTINCT FROM" : "IS DISTINCT FROM", &l, &r, err)) return NULL;
    exec_expr_t *e = node2(a, EXEC_EXPR_DISTINCT, T(EXEC_TYPE_BOOLEAN), l, r);
    e->negated = negated;
    return e;
}

/* The common type of several trees (context names the construct in errors). */
static bool common_of(exec_expr_t *const *xs, int n, const char *context, exec_type_t *t,
                      sl_error_t *err)
{
    *t = T(EXEC_TYPE_NULL);
    for (int i = 0; i < n; i++)
        if (exec_common_type(*t, xs[i]->type, context, t, err)) return false;
    return true;
}

exec_expr_t *exec_expr_in(sl_arena_t *a, exec_expr_t *x, exec_expr_t *const *list, int n,
                          bool negated, sl_error_t *err)
{
    exec_expr_t **all = SL_NEW_ARRAY(a, exec_expr_t *, n + 1);
    all[0] = x;
    memcpy(all + 1, list, sizeof(exec_expr_t *) * (size_t)n);
    exec_type_t t;
    if (!common_of(all, n + 1, "IN", &t, err)) return NULL;
    if (t.id == EXEC_TYPE_NULL) t = T(EXEC_TYPE_BOOLEAN);
    bool consts = true;
    for (int i = 0; i <= n; i++) {
        if (!(all[i] = coerce_to(a, all[i], t, err))) return NULL;
        consts &= i == 0 || all[i]->kind == EXEC_EXPR_CONST;
    }
    if (consts) {
        exec_expr_t *e = node(a, EXEC_EXPR_IN, T(EXEC_TYPE_BOOLEAN), n + 1);
        memcpy(e->args, all, sizeof(exec_expr_t *) * (size_t)(n + 1));
        e->negated = negated;
        return e;
    }
    exec_expr_t *acc = NULL;
    for (int i = 1; i <= n; i++) {
        exec_expr_t *eq = exec_expr_cmp(a, EXEC_CMP_EQ, all[0], all[i], err);
        if (!eq || !(acc = acc ? exec_expr_or(a, acc, eq, err) : eq)) return NULL;
    }
    return negated ? exec_expr_not(a, acc, err) : acc;
}

exec_expr_t *exec_expr_between(sl_arena_t *a, exec_expr_t *x, exec_expr_t *lo, exec_expr_t *hi,
                               bool negated, sl_error_t *err)
{
    exec_expr_t *ge = exec_expr_cmp(a, EXEC_CMP_GE, x, lo, err);
    exec_expr_t *le = ge ? exec_expr_cmp(a, EXEC_CMP_LE, x, hi, err) : NULL;
    exec_expr_t *both = le ? exec_expr_and(a, ge, le, err) : NULL;
    return both && negated ? exec_expr_not(a, both, err) : both;
}

/* The escape byte of LIKE: default backslash; '' (or NULL, which makes the
 * result NULL) = none; else one byte. */
static int like_escape(const exec_expr_t *esc, sl_error_t *err)
{
    if (!esc) return '\\';
    if (esc->kind != EXEC_EXPR_CONST || !(is(esc, EXEC_TYPE_STRING) || is(esc, EXEC_TYPE_NULL)))
        return sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED, "ESCAPE must be a constant string"),
               -2;
    if (esc->value.is_null || esc->value.u.str.len == 0) return 0;
    if (esc->value.u.str.len > 1) {
        sl_error_set(err, SL_ERR_INVALID_ESCAPE_SEQUENCE, "invalid escape string");
        return sl_error_hint(err, "Escape string must be empty or one ASCII character."), -2;
    }
    return (unsigned char)esc->value.u.str.ptr[0];
}

exec_expr_t *exec_expr_like(sl_arena_t *a, exec_expr_t *x, exec_expr_t *pattern,
                            exec_expr_t *escape, bool ilike, bool negated, sl_error_t *err)
{
    const char *op = ilike ? "~~*" : "~~";
    if (!(is(x, EXEC_TYPE_STRING) || is(x, EXEC_TYPE_NULL)) ||
        !(is(pattern, EXEC_TYPE_STRING) || is(pattern, EXEC_TYPE_NULL)))
        return no_operator(op, x, pattern, err);
    int esc = like_escape(escape, err);
    if (esc < -1) return NULL;
    if (!(x = coerce_to(a, x, T(EXEC_TYPE_STRING), err)) ||
        !(pattern = coerce_to(a, pattern, T(EXEC_TYPE_STRING), err)))
        return NULL;
    if (escape && escape->value.is_null)
        return const_null(a, T(EXEC_TYPE_BOOLEAN)); /* ESCAPE NULL */
    exec_expr_t *e =
        node2(a, ilike ? EXEC_EXPR_ILIKE : EXEC_EXPR_LIKE, T(EXEC_TYPE_BOOLEAN), x, pattern);
    e->op = esc;
    e->negated = negated;
    if (pattern->kind == EXEC_EXPR_CONST && !pattern->value.is_null) {
        exec_str_t p = pattern->value.u.str;
        if (exec_like_bad_escape(p.ptr, p.len, esc))
            return sl_error_set(err, SL_ERR_INVALID_ESCAPE_SEQUENCE,
                                "LIKE pattern must not end with escape character"),
                   NULL;
        e->aux = (void *)exec_like_compile(a, p.ptr, p.len, esc, ilike);
    }
    return e;
}

/* ---- CASE, CAST, COALESCE ------------------------------------------------------- */

exec_expr_t *exec_expr_case(sl_arena_t *a, exec_expr_t *operand, exec_expr_t *const *whens,
                            exec_expr_t *const *thens, int n, exec_expr_t *els, sl_error_t *err)
{
    exec_expr_t *e = node(a, EXEC_EXPR_CASE, T(EXEC_TYPE_NULL), 2 * n + 1);
    for (int i = 0; i < n; i++) {
        exec_expr_t *c = operand ? exec_expr_cmp(a, EXEC_CMP_EQ, operand, whens[i], err) : whens[i];
        if (!c || !(c = boolean_arg(a, "CASE/WHEN", c, err))) return NULL;
        e->args[2 * i] = c;
        e->args[2 * i + 1] = thens[i];
    }
    e->args[2 * n] = els ? els : const_null(a, T(EXEC_TYPE_NULL));
    exec_type_t t = T(EXEC_TYPE_NULL);
    for (int i = 0; i <= n; i++)
        if (exec_common_type(t, e->args[i == n ? 2 * n : 2 * i + 1]->type, "CASE", &t, err))
            return NULL;
    for (int i = 0; i <= n; i++) {
        int k = i == n ? 2 * n : 2 * i + 1;
        if (!(e->args[k] = coerce_to(a, e->args[k], t, err))) return NULL;
    }
    e->type = t;
    return e;
}

exec_expr_t *exec_expr_cast(sl_arena_t *a, exec_expr_t *x, exec_type_t t, sl_error_t *err)
{
    if (exec_type_equal(x->type, t)) return x;
    if (!exec_cast_allowed(x->type, t)) {
        sl_error_set(err, SL_ERR_CANNOT_COERCE, "cannot cast type %s to %s",
                     exec_type_pg_name(x->type), exec_type_pg_name(t));
        return NULL;
    }
    return coerce_to(a, x, t, err);
}

exec_expr_t *exec_expr_cast_binary(sl_arena_t *a, exec_expr_t *x, sl_error_t *err)
{
    exec_type_t t = exec_type_of(EXEC_TYPE_BINARY);
    if (x->type.id != EXEC_TYPE_STRING) return exec_expr_cast(a, x, t, err);
    if (x->kind == EXEC_EXPR_CONST) {
        exec_value_t v = x->value;
        v.type = t;
        return exec_expr_const(a, &v);
    }
    exec_expr_t *c = node2(a, EXEC_EXPR_CAST, t, x, NULL);
    c->op = EXEC_CAST_OWN_BYTES;
    return c;
}

exec_expr_t *exec_expr_coerce(sl_arena_t *a, exec_expr_t *x, exec_type_t t, sl_error_t *err)
{
    if (!exec_cast_implicit(x->type, t)) {
        sl_error_set(err, SL_ERR_DATATYPE_MISMATCH, "expression is of type %s, not %s",
                     exec_type_pg_name(x->type), exec_type_pg_name(t));
        sl_error_hint(err, "You will need to rewrite or cast the expression.");
        return NULL;
    }
    return coerce_to(a, x, t, err);
}

exec_expr_t *exec_expr_coalesce(sl_arena_t *a, exec_expr_t *const *args, int n, sl_error_t *err)
{
    exec_type_t t;
    if (!common_of(args, n, "COALESCE", &t, err)) return NULL;
    exec_expr_t *e = node(a, EXEC_EXPR_COALESCE, t, n);
    for (int i = 0; i < n; i++)
        if (!(e->args[i] = coerce_to(a, args[i], t, err))) return NULL;
    return n == 1 ? e->args[0] : e;
}

exec_expr_t *exec_expr_field(sl_arena_t *a, exec_expr_t *x, int field, sl_error_t *err)
{
    if (!is(x, EXEC_TYPE_STRUCT)) {
        sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                     "column notation .%d applied to type %s, which is not a composite type", field,
                     exec_type_pg_name(x->type));
        return NULL;
    }
    if (field < 0 || field >= x->type.nfields) {
        sl_error_set(err, SL_ERR_UNDEFINED_COLUMN, "struct field %d does not exist", field);
        return NULL;
    }
    exec_expr_t *e = node2(a, EXEC_EXPR_FIELD, x->type.fields[field].type, x, NULL);
    e->column = field;
    return e;
}

exec_expr_t *exec_expr_struct(sl_arena_t *a, exec_expr_t *const *args, const char *const *names,
                              int n, sl_error_t *err)
{
    exec_type_t *types = SL_NEW_ARRAY(a, exec_type_t, n ? n : 1);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++)
            if (!strcasecmp(names[i], names[j])) {
                sl_error_set(err, SL_ERR_DUPLICATE_COLUMN, "duplicate struct field name \"%s\"",
                             names[i]);
                return NULL;
            }
        types[i] = args[i]->type;
    }
    exec_expr_t *e = node(a, EXEC_EXPR_STRUCT, exec_type_struct(a, n, names, types), n);
    memcpy(e->args, args, sizeof(exec_expr_t *) * (size_t)n);
    return e;
}

/* ---- function calls ------------------------------------------------------------ */

/* struct(a, b): field names from the arguments' column names (Spark: colN otherwise). */
static exec_expr_t *call_struct(sl_arena_t *a, exec_expr_t *const *args, const char *const *names,
                                int n, sl_error_t *err)
{
    const char **nm = SL_NEW_ARRAY(a, const char *, n ? n : 1);
    for (int i = 0; i < n; i++)
        nm[i] = names && names[i]                                    ? names[i]
                : args[i]->kind == EXEC_EXPR_COLUMN && args[i]->name ? args[i]->name
                                                                     : sl_printf(a, "col%d", i + 1);
    return exec_expr_struct(a, args, nm, n, err);
}

/* named_struct('a', x, 'b', y) */
static exec_expr_t *call_named_struct(sl_arena_t *a, exec_expr_t *const *args, int n,
                                      sl_error_t *err)
{
    if (n == 0 || n % 2) {
        sl_error_set(err, SL_ERR_UNDEFINED_FUNCTION,
                     "function named_struct expects an even number of arguments");
        sl_error_hint(err, "Accepted: named_struct(name1, value1, name2, value2, ...).");
        return NULL;
    }
    const char **nm = SL_NEW_ARRAY(a, const char *, n / 2);
    exec_expr_t **vals = SL_NEW_ARRAY(a, exec_expr_t *, n / 2);
    for (int i = 0; i < n / 2; i++) {
        const exec_expr_t *k = args[2 * i];
        if (k->kind != EXEC_EXPR_CONST || !is(k, EXEC_TYPE_STRING) || k->value.is_null) {
            sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                         "named_struct field names must be constant strings");
            return NULL;
        }
        nm[i] = sl_strndup(a, k->value.u.str.ptr, k->value.u.str.len);
        vals[i] = args[2 * i + 1];
    }
    return exec_expr_struct(a, vals, nm, n / 2, err);
}

static exec_expr_t *call_builtin_node(sl_arena_t *a, const char *name, exec_expr_t *const *args,
                                      const char *const *names, int n, sl_error_t *err,
                                      bool *handled)
{
    *handled = true;
    if (!strcasecmp(name, "coalesce")) {
        if (n == 0) {
            exec_func_no_match(exec_func_find(name), name, 0, NULL, err);
            return NULL;
        }
        return exec_expr_coalesce(a, args, n, err);
    }
    if (!strcasecmp(name, "struct")) return call_struct(a, args, names, n, err);
    if (!strcasecmp(name, "named_struct")) return call_named_struct(a, args, n, err);
    *handled = false;
    return NULL;
}

exec_expr_t *exec_expr_call(sl_arena_t *a, const char *name, exec_expr_t *const *args,
                            const char *const *names, int n, sl_error_t *err)
{
    bool handled;
    exec_expr_t *e = call_builtin_node(a, name, args, names, n, err, &handled);
    if (handled) return e;
    exec_bind_t b = {.arena = a, .func = exec_func_find(name), .nargs = n, .names = names};
    b.args = SL_NEW_ARRAY(a, exec_expr_t *, n ? n : 1);
    if (n) memcpy(b.args, args, sizeof(exec_expr_t *) * (size_t)n);
    if (!b.func) {
        exec_type_t types[64];
        for (int i = 0; i < n && i < 64; i++) types[i] = args[i]->type;
        exec_func_no_match(NULL, name, n < 64 ? n : 64, types, err);
        return NULL;
    }
    if (exec_func_bind(&b, err)) return NULL;
    e = node(a, EXEC_EXPR_CALL, b.type, n);
    memcpy(e->args, b.args, sizeof(exec_expr_t *) * (size_t)n);
    e->func = b.func;
    e->name = b.func->name;
    e->const_args = b.const_args;
    exec_call_aux_t *ca = SL_NEW(a, exec_call_aux_t);
    ca->func = b.func;
    ca->kernel = b.kernel;
    ca->aux = b.aux;
    e->aux = ca;
    return e;
}

/* ---- inspection ------------------------------------------------------------------ */

bool exec_expr_is_const(const exec_expr_t *e)
{
    return e->kind == EXEC_EXPR_CONST;
}

bool exec_expr_is_foldable(const exec_expr_t *e)
{
    if (e->kind == EXEC_EXPR_COLUMN) return false;
    if (e->kind == EXEC_EXPR_CALL && (e->func->flags & EXEC_FUNC_VOLATILE)) return false;
    for (int i = 0; i < e->nargs; i++)
        if (!exec_expr_is_foldable(e->args[i])) return false;
    return true;
}

void exec_expr_columns(const exec_expr_t *e, bool *used, int ncols)
{
    if (e->kind == EXEC_EXPR_COLUMN && e->column >= 0 && e->column < ncols) used[e->column] = true;
    for (int i = 0; i < e->nargs; i++) exec_expr_columns(e->args[i], used, ncols);
}

exec_expr_t *exec_expr_remap(sl_arena_t *a, const exec_expr_t *e, const int *map)
{
    exec_expr_t *c = SL_NEW(a, exec_expr_t);
    *c = *e;
    if (e->kind == EXEC_EXPR_COLUMN) c->column = map[e->column];
    c->args = SL_NEW_ARRAY(a, exec_expr_t *, e->nargs ? e->nargs : 1);
    for (int i = 0; i < e->nargs; i++) c->args[i] = exec_expr_remap(a, e->args[i], map);
    return c;
}

static void format_const(const exec_value_t *v, sl_buf_t *buf)
{
    if (v->is_null || v->type.id == EXEC_TYPE_NULL) {
        sl_buf_puts(buf, "NULL");
        return;
    }
    bool quote = !exec_type_is_numeric(v->type) && v->type.id != EXEC_TYPE_BOOLEAN;
    if (v->type.id == EXEC_TYPE_BOOLEAN) {
        sl_buf_puts(buf, v->u.b ? "true" : "false");
        return;
    }
    if (quote && v->type.id != EXEC_TYPE_STRING) {
        exec_type_format(v->type, buf);
        sl_buf_putc(buf, ' ');
    }
    if (quote) sl_buf_putc(buf, '\'');
    exec_value_format(v, buf);
    if (quote) sl_buf_putc(buf, '\'');
}

static void format_list(const exec_expr_t *e, int from, sl_buf_t *buf)
{
    for (int i = from; i < e->nargs; i++) {
        if (i > from) sl_buf_puts(buf, ", ");
        exec_expr_format(e->args[i], buf);
    }
}

static void format_binary(const exec_expr_t *e, const char *op, sl_buf_t *buf)
{
    sl_buf_putc(buf, '(');
    exec_expr_format(e->args[0], buf);
    sl_buf_printf(buf, " %s ", op);
    exec_expr_format(e->args[1], buf);
    sl_buf_putc(buf, ')');
}

static void format_case(const exec_expr_t *e, sl_buf_t *buf)
{
    sl_buf_puts(buf, "CASE");
    for (int i = 0; i + 1 < e->nargs; i += 2) {
        sl_buf_puts(buf, " WHEN ");
        exec_expr_format(e->args[i], buf);
        sl_buf_puts(buf, " THEN ");
        exec_expr_format(e->args[i + 1], buf);
    }
    sl_buf_puts(buf, " ELSE ");
    exec_expr_format(e->args[e->nargs - 1], buf);
    sl_buf_puts(buf, " END");
}

void exec_expr_format(const exec_expr_t *e, sl_buf_t *buf)
{
    switch (e->kind) {
    case EXEC_EXPR_CONST: format_const(&e->value, buf); break;
    case EXEC_EXPR_COLUMN:
        if (e->name) sl_buf_puts(buf, e->name);
        else sl_buf_printf(buf, "#%d", e->column);
        break;
    case EXEC_EXPR_ARITH: format_binary(e, op_text(e->op), buf); break;
    case EXEC_EXPR_CMP: format_binary(e, cmp_text(e->op), buf); break;
    case EXEC_EXPR_AND: format_binary(e, "AND", buf); break;
    case EXEC_EXPR_OR: format_binary(e, "OR", buf); break;
    case EXEC_EXPR_DISTINCT:
        format_binary(e, e->negated ? "IS NOT DISTINCT FROM" : "IS DISTINCT FROM", buf);
        break;
    case EXEC_EXPR_LIKE:
    case EXEC_EXPR_ILIKE: {
        const char *w = e->kind == EXEC_EXPR_LIKE ? (e->negated ? "NOT LIKE" : "LIKE")
                                                  : (e->negated ? "NOT ILIKE" : "ILIKE");
        format_binary(e, w, buf);
        break;
    }
    case EXEC_EXPR_NEG:
    case EXEC_EXPR_NOT:
        sl_buf_puts(buf, e->kind == EXEC_EXPR_NEG ? "(- " : "(NOT ");
        exec_expr_format(e->args[0], buf);
        sl_buf_putc(buf, ')');
        break;
    case EXEC_EXPR_IS_NULL:
        sl_buf_putc(buf, '(');
        exec_expr_format(e->args[0], buf);
        sl_buf_puts(buf, e->negated ? " IS NOT NULL)" : " IS NULL)");
        break;
    case EXEC_EXPR_IN:
        sl_buf_putc(buf, '(');
        exec_expr_format(e->args[0], buf);
        sl_buf_puts(buf, e->negated ? " NOT IN (" : " IN (");
        format_list(e, 1, buf);
        sl_buf_puts(buf, "))");
        break;
    case EXEC_EXPR_CASE: format_case(e, buf); break;
    case EXEC_EXPR_CAST:
        sl_buf_puts(buf, "CAST(");
        exec_expr_format(e->args[0], buf);
        sl_buf_puts(buf, " AS ");
        exec_type_format(e->type, buf);
        sl_buf_putc(buf, ')');
        break;
    case EXEC_EXPR_FIELD:
        exec_expr_format(e->args[0], buf);
        sl_buf_printf(buf, ".%s", e->args[0]->type.fields[e->column].name);
        break;
    case EXEC_EXPR_COALESCE:
    case EXEC_EXPR_STRUCT:
    case EXEC_EXPR_CALL:
        sl_buf_puts(buf, e->kind == EXEC_EXPR_COALESCE ? "coalesce"
                         : e->kind == EXEC_EXPR_STRUCT ? "struct"
                                                       : e->name);
        sl_buf_putc(buf, '(');
        format_list(e, 0, buf);
        sl_buf_putc(buf, ')');
        break;
    }
}
