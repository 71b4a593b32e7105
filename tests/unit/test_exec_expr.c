/* Unit tests of exec expressions and functions: every operator and
 * function, NULL handling, selection vectors, lazy AND/OR/CASE/COALESCE,
 * filters, constant folding and the errors constructors and kernels give. */
#include "unit.h"

#include <math.h>
#include <stdatomic.h>

#include "common/arena.h"
#include "model/batch.h"
#include "exec/expr.h"
#include "exec/func.h"

static sl_arena_t *A;

__attribute__((constructor)) static void make_arena(void)
{
    A = sl_arena_new("test");
}

/* A batch from a schema ("a INT, b STRING") and rows of '|'-separated text
 * cells ("NULL" is NULL). */
static exec_batch_t *mk(const char *schema, const char *const *rows, int n)
{
    exec_type_t st;
    sl_error_t err;
    if (exec_schema_parse(schema, strlen(schema), A, &st, &err))
        unit_fail(__FILE__, __LINE__, "%s", err.message);
    exec_type_t types[16];
    for (int i = 0; i < st.nfields; i++) types[i] = st.fields[i].type;
    exec_builder_t b;
    exec_builder_init(&b, A, st.nfields, types, 2);
    for (int r = 0; r < n; r++) {
        uint32_t row = exec_builder_add_row(&b);
        const char *p = rows[r];
        for (int c = 0; c < st.nfields; c++) {
            const char *e = strchr(p, '|');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            if (len == 4 && !strncmp(p, "NULL", 4)) exec_builder_set_null(&b, c, row);
            else if (exec_builder_set_text(&b, c, row, p, len, &err))
                unit_fail(__FILE__, __LINE__, "%s", err.message);
            p = e ? e + 1 : p + len;
        }
    }
    return exec_builder_finish(&b);
}

static exec_batch_t *B; /* the batch column helpers refer to */

static exec_expr_t *col(int i)
{
    return exec_expr_column(A, i, B->cols[i].type, NULL);
}

static exec_expr_t *lit(const char *type, const char *text)
{
    exec_type_t t;
    exec_value_t v;
    sl_error_t err;
    if (exec_type_parse(type, strlen(type), A, &t, &err))
        unit_fail(__FILE__, __LINE__, "%s", err.message);
    if (!strcmp(text, "NULL")) v = exec_value_null(t);
    else if (exec_value_parse(t, text, strlen(text), A, &v, &err))
        unit_fail(__FILE__, __LINE__, "%s", err.message);
    return exec_expr_const(A, &v);
}

static exec_expr_t *I(int v)
{
    return lit("INT", sl_printf(A, "%d", v));
}
static exec_expr_t *S(const char *s)
{
    return lit("STRING", s);
}
static exec_expr_t *NUL(void)
{
    exec_value_t v = exec_value_null(exec_type_of(EXEC_TYPE_NULL));
    return exec_expr_const(A, &v);
}

static sl_error_t E; /* the last constructor error */

static exec_expr_t *ok_(exec_expr_t *e, int line)
{
    if (!e) unit_fail(__FILE__, line, "constructor failed: %s %s", E.sqlstate, E.message);
    return e;
}
#define OK(x) ok_((x), __LINE__)

static exec_expr_t *bin(exec_arith_op_t op, exec_expr_t *l, exec_expr_t *r)
{
    return OK(exec_expr_arith(A, op, l, r, &E));
}
static exec_expr_t *cmp(exec_cmp_op_t op, exec_expr_t *l, exec_expr_t *r)
{
    return OK(exec_expr_cmp(A, op, l, r, &E));
}
static exec_expr_t *and_(exec_expr_t *l, exec_expr_t *r)
{
    return OK(exec_expr_and(A, l, r, &E));
}
static exec_expr_t *or_(exec_expr_t *l, exec_expr_t *r)
{
    return OK(exec_expr_or(A, l, r, &E));
}

static exec_expr_t *call(const char *name, int n, ...)
{
    exec_expr_t *args[8];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) args[i] = va_arg(ap, exec_expr_t *);
    va_end(ap);
    return OK(exec_expr_call(A, name, args, NULL, n, &E));
}

static exec_ctx_t CTX;

/* Evaluates e over B: the present rows' text joined by ',' (NULL as NULL),
 * or "ERROR <state> <message>". */
static const char *eval(const exec_expr_t *e)
{
    sl_error_t err;
    CTX.arena = A;
    exec_prog_t *p = exec_expr_compile(A, e, &err);
    if (!p) return sl_printf(A, "COMPILE %s %s", err.sqlstate, err.message);
    exec_vec_t v;
    if (exec_prog_eval(p, &CTX, B, &v, &err))
        return sl_printf(A, "ERROR %s %s", err.sqlstate, err.message);
    sl_buf_t buf = SL_BUF_INIT;
    for (uint32_t k = 0; k < exec_batch_count(B); k++) {
        if (k) sl_buf_putc(&buf, ',');
        if (!exec_vec_text(&v, exec_batch_row(B, k), &buf)) sl_buf_puts(&buf, "NULL");
    }
    const char *s = sl_strdup(A, buf.data ? buf.data : "");
    sl_buf_free(&buf);
    return s;
}

/* Filters a copy of B: the physical rows that pass, joined by ','. */
static const char *filter(const exec_expr_t *e)
{
    sl_error_t err;
    CTX.arena = A;
    exec_prog_t *p = exec_expr_compile(A, e, &err);
    exec_batch_t *b = exec_batch_shallow_copy(B, A);
    if (exec_prog_filter(p, &CTX, b, &err))
        return sl_printf(A, "ERROR %s %s", err.sqlstate, err.message);
    sl_buf_t buf = SL_BUF_INIT;
    for (uint32_t k = 0; k < exec_batch_count(b); k++)
        sl_buf_printf(&buf, "%s%u", k ? "," : "", exec_batch_row(b, k));
    const char *s = sl_strdup(A, buf.data ? buf.data : "");
    sl_buf_free(&buf);
    return s;
}

static const char *type_of(const exec_expr_t *e)
{
    return exec_type_text(e->type, A);
}

static const char *const nums[] = {"1|10|2.5|NULL", "-3|0|0.5|x", "NULL|7|NULL|y",
                                   "2147483647|-2|1|z"};
#define NUMS mk("a INT, b BIGINT, c DOUBLE, s STRING", nums, 4)

TEST(integer_arithmetic_with_nulls_and_shapes)
{
    B = NUMS;
    CHECK_STR(eval(bin(EXEC_OP_ADD, col(0), col(1))), "11,-3,NULL,2147483645");
    CHECK_STR(type_of(bin(EXEC_OP_ADD, col(0), col(1))), "BIGINT");
    CHECK_STR(eval(bin(EXEC_OP_SUB, I(2), col(0))), "1,5,NULL,-2147483645");
    CHECK_STR(eval(bin(EXEC_OP_MUL, col(1), I(3))), "30,0,21,-6");
    CHECK_STR(eval(bin(EXEC_OP_ADD, col(0), I(1))), "ERROR 22003 integer out of range");
    CHECK_STR(eval(bin(EXEC_OP_MUL, col(0), col(0))), "ERROR 22003 integer out of range");
    CHECK_STR(eval(bin(EXEC_OP_MOD, col(1), I(4))), "2,0,3,-2");
    CHECK_STR(eval(bin(EXEC_OP_MOD, col(0), col(1))), "ERROR 22012 division by zero");
    /* INT / INT is DOUBLE; division by zero is an error */
    CHECK_STR(type_of(bin(EXEC_OP_DIV, col(0), I(2))), "DOUBLE");
    CHECK_STR(eval(bin(EXEC_OP_DIV, col(1), I(4))), "2.5,0,1.75,-0.5");
    CHECK_STR(eval(bin(EXEC_OP_DIV, col(0), col(1))), "ERROR 22012 division by zero");
    CHECK_STR(eval(OK(exec_expr_neg(A, col(1), &E))), "-10,0,-7,2");
    CHECK_STR(eval(bin(EXEC_OP_ADD, col(2), col(0))), "3.5,-2.5,NULL,2147483648");
    const char *big[] = {"9223372036854775807", "-9223372036854775808"};
    B = mk("x BIGINT", big, 2);
    CHECK_STR(eval(bin(EXEC_OP_SUB, col(0), lit("BIGINT", "-1"))),
              "ERROR 22003 bigint out of range");
    CHECK_STR(eval(OK(exec_expr_neg(A, col(0), &E))), "ERROR 22003 bigint out of range");
    CHECK_STR(eval(bin(EXEC_OP_MOD, col(0), lit("BIGINT", "-1"))), "0,0");
}

TEST(overflow_is_not_reported_for_null_or_unselected_rows)
{
    const char *rows[] = {"2147483647|1", "NULL|1", "5|0"};
    B = mk("a INT, b INT", rows, 3);
    /* the NULL row's cell holds garbage; the unselected first row would overflow */
    static uint32_t sel[] = {1, 2};
    B->sel = sel;
    B->nsel = 2;
    CHECK_STR(eval(bin(EXEC_OP_ADD, col(0), I(1))), "NULL,6");
    CHECK_STR(eval(bin(EXEC_OP_MOD, col(0), col(1))), "ERROR 22012 division by zero");
    B->nsel = 1;
    CHECK_STR(eval(bin(EXEC_OP_MOD, col(0), col(1))), "NULL");
}

TEST(decimal_arithmetic_follows_spark_types)
{
    const char *rows[] = {"10.25|3", "-1.10|7", "NULL|1"};
    B = mk("p DECIMAL(10,2), q DECIMAL(5,0)", rows, 3);
    exec_expr_t *m = bin(EXEC_OP_MUL, col(0), I(2));
    CHECK_STR(type_of(m), "DECIMAL(12,2)");
    CHECK_STR(eval(m), "20.50,-2.20,NULL");
    exec_expr_t *d = bin(EXEC_OP_DIV, col(0), col(1));
    CHECK_STR(type_of(d), "DECIMAL(16,8)");
    CHECK_STR(eval(d), "3.41666667,-0.15714286,NULL");
    CHECK_STR(type_of(bin(EXEC_OP_ADD, col(0), col(1))), "DECIMAL(11,2)");
    CHECK_STR(eval(bin(EXEC_OP_ADD, col(0), col(1))), "13.25,5.90,NULL");
    CHECK_STR(eval(bin(EXEC_OP_SUB, col(0), lit("DECIMAL(3,3)", "0.005"))), "10.245,-1.105,NULL");
    CHECK_STR(eval(bin(EXEC_OP_MOD, col(0), col(1))), "1.25,-1.10,NULL");
    CHECK_STR(type_of(bin(EXEC_OP_ADD, col(0), lit("DOUBLE", "1"))), "DOUBLE");
    CHECK_STR(eval(bin(EXEC_OP_DIV, col(0), lit("DECIMAL(3,1)", "0"))),
              "ERROR 22012 division by zero");
    const char *big[] = {"99999999999999999999999999999999999999"};
    B = mk("x DECIMAL(38,0)", big, 1);
    CHECK_STR(eval(bin(EXEC_OP_ADD, col(0), col(0))), "ERROR 22003 numeric field overflow");
}

TEST(date_time_arithmetic)
{
    const char *rows[] = {"2024-01-31 10:00:00|2024-03-01|1 month",
                          "2024-05-01 00:00:00|2024-01-01|15 minutes"};
    B = mk("t TIMESTAMP, d DATE, i INTERVAL", rows, 2);
    CHECK_STR(eval(bin(EXEC_OP_ADD, col(0), col(2))), "2024-02-29 10:00:00,2024-05-01 00:15:00");
    CHECK_STR(eval(bin(EXEC_OP_SUB, col(0), col(2))), "2023-12-31 10:00:00,2024-04-30 23:45:00");
    CHECK_STR(eval(bin(EXEC_OP_ADD, col(2), col(0))), "2024-02-29 10:00:00,2024-05-01 00:15:00");
    CHECK_STR(eval(bin(EXEC_OP_SUB, col(0), S("1 hour"))),
              "2024-01-31 09:00:00,2024-04-30 23:00:00");
    CHECK_STR(eval(bin(EXEC_OP_ADD, col(1), I(1))), "2024-03-02,2024-01-02");
    CHECK_STR(eval(bin(EXEC_OP_SUB, col(1), lit("DATE", "2024-01-01"))), "60,0");
    CHECK_STR(eval(bin(EXEC_OP_SUB, col(0), lit("TIMESTAMP", "2024-01-30 08:00:00"))),
              "1 day 02:00:00,91 days 16:00:00");
    CHECK_STR(eval(bin(EXEC_OP_ADD, col(2), col(2))), "2 mons,00:30:00");
    CHECK_STR(type_of(bin(EXEC_OP_ADD, col(1), col(2))), "TIMESTAMP");
    CHECK(!exec_expr_arith(A, EXEC_OP_MUL, col(0), col(2), &E));
    CHECK_STR(E.sqlstate, "42883");
    CHECK_STR(E.message, "operator does not exist: timestamp * interval");
}

TEST(string_concat_and_null)
{
    B = NUMS;
    CHECK_STR(eval(bin(EXEC_OP_CONCAT, col(3), S("!"))), "NULL,x!,y!,z!");
    CHECK_STR(eval(bin(EXEC_OP_CONCAT, col(0), col(3))), "NULL,-3x,NULL,2147483647z");
    CHECK_STR(eval(call("concat", 3, S("<"), col(3), S(">"))), "NULL,<x>,<y>,<z>");
    CHECK_STR(eval(call("concat", 2, col(1), col(2))), "102.5,00.5,NULL,-21");
}

TEST(comparisons_of_every_type)
{
    B = NUMS;
    CHECK_STR(eval(cmp(EXEC_CMP_GT, col(0), I(0))), "t,f,NULL,t");
    CHECK_STR(eval(cmp(EXEC_CMP_LE, I(0), col(1))), "t,t,t,f");
    CHECK_STR(eval(cmp(EXEC_CMP_EQ, col(0), col(1))), "f,f,NULL,f");
    CHECK_STR(eval(cmp(EXEC_CMP_NE, col(2), lit("DECIMAL(2,1)", "0.5"))), "t,f,NULL,t");
    CHECK_STR(eval(cmp(EXEC_CMP_LT, col(3), S("y"))), "NULL,t,f,f");
    CHECK_STR(filter(cmp(EXEC_CMP_GE, col(3), S("y"))), "2,3");
    const char *strs[] = {"a", "B", "ab", "", "\xc3\xa9"};
    B = mk("s STRING", strs, 5);
    CHECK_STR(eval(cmp(EXEC_CMP_LT, col(0), S("ab"))), "t,t,f,t,f");
    CHECK_STR(eval(cmp(EXEC_CMP_EQ, col(0), S(""))), "f,f,f,t,f");
    const char *ts[] = {"2024-05-01 12:00:00|2024-05-01|1 day|t",
                        "2024-05-01 11:59:59|2024-04-30|24:00:00|f"};
    B = mk("t TIMESTAMP, d DATE, i INTERVAL, b BOOLEAN", ts, 2);
    CHECK_STR(eval(cmp(EXEC_CMP_GE, col(0), S("2024-05-01T12:00:00Z"))), "t,f");
    CHECK_STR(eval(cmp(EXEC_CMP_EQ, col(1), S("2024-05-01"))), "t,f");
    CHECK_STR(eval(cmp(EXEC_CMP_LT, col(1), col(0))), "t,t");
    CHECK_STR(eval(cmp(EXEC_CMP_EQ, col(1), lit("TIMESTAMP", "2024-05-01 00:00:00"))), "t,f");
    CHECK_STR(eval(cmp(EXEC_CMP_LT, col(2), S("25 hours"))), "t,t");
    CHECK_STR(eval(cmp(EXEC_CMP_GT, col(3), lit("BOOLEAN", "false"))), "t,f");
    CHECK(!exec_expr_cmp(A, EXEC_CMP_LT, col(0), S("soon"), &E));
    CHECK_STR(E.sqlstate, "22007");
    CHECK_STR(E.message, "invalid input syntax for type timestamp: \"soon\"");
    CHECK(!exec_expr_cmp(A, EXEC_CMP_EQ, col(0), col(3), &E));
    CHECK_STR(E.sqlstate, "42883");
    CHECK_STR(E.message, "operator does not exist: timestamp = boolean");
    const char *dbl[] = {"NaN", "Infinity", "-0", "0"};
    B = mk("x DOUBLE", dbl, 4);
    CHECK_STR(eval(cmp(EXEC_CMP_GT, col(0), lit("DOUBLE", "1e308"))), "t,t,f,f");
    CHECK_STR(eval(cmp(EXEC_CMP_EQ, col(0), lit("DOUBLE", "NaN"))), "t,f,f,f");
    CHECK_STR(eval(cmp(EXEC_CMP_EQ, col(0), lit("DOUBLE", "0"))), "f,f,t,t");
}

TEST(string_column_compared_with_number_is_cast_at_run_time)
{
    const char *rows[] = {"5", "x"};
    B = mk("s STRING", rows, 2);
    exec_expr_t *e = cmp(EXEC_CMP_GT, col(0), I(3));
    CHECK_STR(eval(e), "ERROR 22P02 invalid input syntax for type integer: \"x\"");
    B->sel = (uint32_t[]){0};
    B->nsel = 1;
    CHECK_STR(eval(e), "t");
}

TEST(three_valued_logic)
{
    const char *rows[] = {"t|t",    "t|f",    "t|NULL", "f|t",      "f|f",
                          "f|NULL", "NULL|t", "NULL|f", "NULL|NULL"};
    B = mk("x BOOLEAN, y BOOLEAN", rows, 9);
    CHECK_STR(eval(and_(col(0), col(1))), "t,f,NULL,f,f,f,NULL,f,NULL");
    CHECK_STR(eval(or_(col(0), col(1))), "t,t,t,t,f,NULL,t,NULL,NULL");
    CHECK_STR(eval(OK(exec_expr_not(A, col(0), &E))), "f,f,f,t,t,t,NULL,NULL,NULL");
    CHECK_STR(filter(and_(col(0), col(1))), "0");
    CHECK_STR(filter(or_(col(0), col(1))), "0,1,2,3,6");
    CHECK_STR(filter(OK(exec_expr_not(A, and_(col(0), col(1)), &E))), "1,3,4,5,7");
    CHECK_STR(filter(OK(exec_expr_not(A, or_(col(0), col(1)), &E))), "4");
    CHECK_STR(eval(exec_expr_is_null(A, col(1), false)), "f,f,t,f,f,t,f,f,t");
    CHECK_STR(eval(exec_expr_is_null(A, col(1), true)), "t,t,f,t,t,f,t,t,f");
    CHECK_STR(eval(OK(exec_expr_distinct(A, col(0), col(1), false, &E))), "f,t,t,t,f,t,t,t,f");
    CHECK_STR(eval(OK(exec_expr_distinct(A, col(0), col(1), true, &E))), "t,f,f,f,t,f,f,f,t");
    CHECK_STR(eval(and_(col(0), NUL())), "NULL,NULL,NULL,f,f,f,NULL,NULL,NULL");
    CHECK_STR(filter(lit("BOOLEAN", "NULL")), "");
    CHECK_STR(filter(lit("BOOLEAN", "true")), "0,1,2,3,4,5,6,7,8");
    CHECK(!exec_expr_and(A, col(0), I(1), &E));
    CHECK_STR(E.sqlstate, "42804");
    CHECK_STR(E.message, "argument of AND must be type boolean, not type integer");
}

TEST(and_or_case_coalesce_are_lazy)
{
    const char *rows[] = {"10|2", "5|0", "NULL|0", "9|3"};
    B = mk("a INT, b INT", rows, 4);
    exec_expr_t *bz = cmp(EXEC_CMP_NE, col(1), I(0));
    exec_expr_t *q = cmp(EXEC_CMP_GT, bin(EXEC_OP_MOD, col(0), col(1)), I(0));
    CHECK_STR(eval(and_(bz, q)), "f,f,f,f");
    CHECK_STR(filter(and_(bz, q)), "");
    exec_expr_t *isz = cmp(EXEC_CMP_EQ, col(1), I(0));
    CHECK_STR(eval(or_(isz, q)), "f,t,t,f");
    CHECK_STR(filter(or_(isz, q)), "1,2");
    exec_expr_t *when[] = {isz};
    exec_expr_t *then[] = {NUL()};
    exec_expr_t *c =
        OK(exec_expr_case(A, NULL, when, then, 1, bin(EXEC_OP_MOD, col(0), col(1)), &E));
    CHECK_STR(eval(c), "0,NULL,NULL,0");
    exec_expr_t *co[] = {col(0), bin(EXEC_OP_MOD, col(0), col(1))};
    const char *r2[] = {"10|0", "NULL|3"};
    B = mk("a INT, b INT", r2, 2);
    CHECK_STR(eval(OK(exec_expr_coalesce(A, co, 2, &E))), "10,NULL");
    /* but the error is real when a row reaches it */
    const char *r3[] = {"NULL|0"};
    B = mk("a INT, b INT", r3, 1);
    exec_expr_t *co2[] = {col(0), bin(EXEC_OP_MOD, I(10), col(1))};
    CHECK_STR(eval(OK(exec_expr_coalesce(A, co2, 2, &E))), "ERROR 22012 division by zero");
}

TEST(in_lists_small_large_and_null)
{
    B = NUMS;
    exec_expr_t *l3[] = {I(1), I(7), I(-2)};
    CHECK_STR(eval(OK(exec_expr_in(A, col(1), l3, 3, false, &E))), "f,f,t,t");
    CHECK_STR(eval(OK(exec_expr_in(A, col(0), l3, 3, true, &E))), "f,t,NULL,t");
    exec_expr_t *ln[] = {I(1), NUL()};
    CHECK_STR(eval(OK(exec_expr_in(A, col(0), ln, 2, false, &E))), "t,NULL,NULL,NULL");
    CHECK_STR(eval(OK(exec_expr_in(A, col(0), ln, 2, true, &E))), "f,NULL,NULL,NULL");
    exec_expr_t *many[40];
    for (int i = 0; i < 40; i++) many[i] = I(i * 5 - 3);
    CHECK_STR(eval(OK(exec_expr_in(A, col(1), many, 40, false, &E))), "f,f,t,f");
    CHECK_STR(filter(OK(exec_expr_in(A, col(1), many, 40, false, &E))), "2");
    CHECK_STR(eval(OK(exec_expr_in(A, col(1), many, 40, true, &E))), "t,t,f,t");
    exec_expr_t *strs[12];
    for (int i = 0; i < 12; i++) strs[i] = S(sl_printf(A, "%c", 'b' + i * 2));
    CHECK_STR(eval(OK(exec_expr_in(A, col(3), strs, 12, false, &E))), "NULL,t,f,f");
    /* a list with a column becomes ORs of equalities */
    exec_expr_t *mixed[] = {col(0), I(0)};
    CHECK_STR(eval(OK(exec_expr_in(A, col(1), mixed, 2, false, &E))), "f,t,NULL,f");
    CHECK_STR(eval(OK(exec_expr_between(A, col(1), I(0), I(7), false, &E))), "f,t,t,f");
    CHECK_STR(eval(OK(exec_expr_between(A, col(1), I(0), I(7), true, &E))), "t,f,f,t");
    exec_expr_t *bad[] = {lit("BOOLEAN", "true")};
    CHECK(!exec_expr_in(A, col(0), bad, 1, false, &E));
    CHECK_STR(E.message, "IN types integer and boolean cannot be matched");
}

static exec_expr_t *like(exec_expr_t *x, const char *pat, bool ilike, bool neg)
{
    return OK(exec_expr_like(A, x, S(pat), NULL, ilike, neg, &E));
}

TEST(like_patterns)
{
    const char *rows[] = {"hello", "Hello world", "h_llo", "", "NULL", "na\xc3\xafve", "100%"};
    B = mk("s STRING", rows, 7);
    CHECK_STR(eval(like(col(0), "hello", false, false)), "t,f,f,f,NULL,f,f");
    CHECK_STR(eval(like(col(0), "he%", false, false)), "t,f,f,f,NULL,f,f");
    CHECK_STR(eval(like(col(0), "%world", false, false)), "f,t,f,f,NULL,f,f");
    CHECK_STR(eval(like(col(0), "%ll%", false, false)), "t,t,t,f,NULL,f,f");
    CHECK_STR(eval(like(col(0), "h_llo", false, false)), "t,f,t,f,NULL,f,f");
    CHECK_STR(eval(like(col(0), "h\\_llo", false, false)), "f,f,t,f,NULL,f,f");
    CHECK_STR(eval(like(col(0), "%", false, false)), "t,t,t,t,NULL,t,t");
    CHECK_STR(eval(like(col(0), "na_ve", false, false)), "f,f,f,f,NULL,t,f");
    CHECK_STR(eval(like(col(0), "%0\\%", false, false)), "f,f,f,f,NULL,f,t");
    CHECK_STR(eval(like(col(0), "h%o%d", false, false)), "f,f,f,f,NULL,f,f");
    CHECK_STR(eval(like(col(0), "H%o%d", false, false)), "f,t,f,f,NULL,f,f");
    CHECK_STR(eval(like(col(0), "h%l_o", false, true)), "f,t,f,t,NULL,t,t");
    CHECK_STR(eval(like(col(0), "HELLO%", true, false)), "t,t,f,f,NULL,f,f");
    CHECK_STR(eval(like(col(0), "NA\xc3\x8fVE", true, false)), "f,f,f,f,NULL,t,f");
    CHECK_STR(eval(OK(exec_expr_like(A, col(0), S("h!_llo"), S("!"), false, false, &E))),
              "f,f,t,f,NULL,f,f");
    CHECK_STR(eval(OK(exec_expr_like(A, col(0), S("%0!%"), S("!"), false, false, &E))),
              "f,f,f,f,NULL,f,t");
    /* ESCAPE '' escapes nothing; ESCAPE NULL makes NULL */
    CHECK_STR(eval(OK(exec_expr_like(A, col(0), S("h\\_llo"), S(""), false, false, &E))),
              "f,f,f,f,NULL,f,f");
    CHECK_STR(eval(OK(exec_expr_like(A, col(0), S("%"), NUL(), false, false, &E))),
              "NULL,NULL,NULL,NULL,NULL,NULL,NULL");
    /* an escape of more than one byte, a pattern ending with the escape */
    CHECK(!exec_expr_like(A, col(0), S("x"), S("\xc3\xa9"), false, false, &E));
    CHECK_STR(E.message, "invalid escape string");
    CHECK(!exec_expr_like(A, col(0), S("a!!!"), S("!"), false, false, &E));
    CHECK_STR(E.message, "LIKE pattern must not end with escape character");
    CHECK_STR(eval(OK(exec_expr_like(A, col(0), S("%0!%!!"), S("!"), false, false, &E))),
              "f,f,f,f,NULL,f,f");
    /* a pattern from a column */
    const char *pr[] = {"abc|a%", "abc|%d", "NULL|%", "xyz|X%"};
    B = mk("s STRING, p STRING", pr, 4);
    CHECK_STR(eval(OK(exec_expr_like(A, col(0), col(1), NULL, false, false, &E))), "t,f,NULL,f");
    CHECK_STR(eval(OK(exec_expr_like(A, col(0), col(1), NULL, true, false, &E))), "t,f,NULL,t");
    const char *esc[] = {"a%|a!%", "a!|a!"};
    B = mk("s STRING, p STRING", esc, 2);
    CHECK_STR(eval(OK(exec_expr_like(A, col(0), col(1), S("!"), false, false, &E))),
              "ERROR 22025 LIKE pattern must not end with escape character");
    B = mk("s STRING, p STRING", esc, 1);
    CHECK_STR(eval(OK(exec_expr_like(A, col(0), col(1), S("!"), false, false, &E))), "t");
    CHECK(!exec_expr_like(A, I(1), S("x"), NULL, false, false, &E));
    CHECK_STR(E.sqlstate, "42883");
}

TEST(case_searched_and_simple)
{
    B = NUMS;
    exec_expr_t *w[] = {cmp(EXEC_CMP_GT, col(0), I(1)), cmp(EXEC_CMP_LT, col(0), I(0))};
    exec_expr_t *t[] = {S("big"), S("neg")};
    CHECK_STR(eval(OK(exec_expr_case(A, NULL, w, t, 2, S("other"), &E))), "other,neg,other,big");
    CHECK_STR(eval(OK(exec_expr_case(A, NULL, w, t, 2, NULL, &E))), "NULL,neg,NULL,big");
    exec_expr_t *vals[] = {I(10), I(7)};
    exec_expr_t *res[] = {col(3), lit("STRING", "seven")};
    CHECK_STR(eval(OK(exec_expr_case(A, col(1), vals, res, 2, S("-"), &E))), "NULL,-,seven,-");
    exec_expr_t *mix[] = {I(1), col(2)};
    exec_expr_t *e = OK(exec_expr_case(A, NULL, w, mix, 2, NULL, &E));
    CHECK_STR(type_of(e), "DOUBLE");
    CHECK_STR(eval(e), "NULL,0.5,NULL,1");
    exec_expr_t *bad[] = {I(1), lit("BOOLEAN", "true")};
    CHECK(!exec_expr_case(A, NULL, w, bad, 2, NULL, &E));
    CHECK_STR(E.sqlstate, "42804");
    CHECK_STR(E.message, "CASE types integer and boolean cannot be matched");
    exec_expr_t *nb[] = {I(1)};
    CHECK(!exec_expr_case(A, NULL, nb, t, 1, NULL, &E));
    CHECK_STR(E.message, "argument of CASE/WHEN must be type boolean, not type integer");
}

TEST(casts_and_coalesce)
{
    B = NUMS;
    CHECK_STR(eval(OK(exec_expr_cast(A, col(2), exec_type_of(EXEC_TYPE_INT), &E))), "2,0,NULL,1");
    CHECK_STR(eval(OK(exec_expr_cast(A, col(0), exec_type_of(EXEC_TYPE_STRING), &E))),
              "1,-3,NULL,2147483647");
    CHECK_STR(eval(OK(exec_expr_cast(A, col(3), exec_type_of(EXEC_TYPE_INT), &E))),
              "ERROR 22P02 invalid input syntax for type integer: \"x\"");
    CHECK(!exec_expr_cast(A, col(0), exec_type_of(EXEC_TYPE_DATE), &E));
    CHECK_STR(E.message, "cannot cast type integer to date");
    CHECK(!exec_expr_cast(A, S("nope"), exec_type_of(EXEC_TYPE_INT), &E));
    CHECK_STR(E.sqlstate, "22P02");
    exec_expr_t *args[] = {col(0), col(1), I(-1)};
    exec_expr_t *c = OK(exec_expr_coalesce(A, args, 3, &E));
    CHECK_STR(type_of(c), "BIGINT");
    CHECK_STR(eval(c), "1,-3,7,2147483647");
    exec_expr_t *a2[] = {col(2), col(3)};
    CHECK_STR(type_of(OK(exec_expr_coalesce(A, a2, 2, &E))),
              "DOUBLE"); /* the string side is promoted */
    CHECK_STR(eval(OK(exec_expr_coerce(A, col(0), exec_type_of(EXEC_TYPE_BIGINT), &E))),
              "1,-3,NULL,2147483647");
    CHECK(!exec_expr_coerce(A, col(1), exec_type_of(EXEC_TYPE_INT), &E));
    CHECK_STR(E.message, "expression is of type bigint, not integer");
}

TEST(structs_fields_and_json)
{
    const char *rows[] = {"1|a|2024-05-01 12:07:00", "NULL|b|2024-05-01 12:10:00", "3|NULL|NULL"};
    B = mk("x INT, y STRING, t TIMESTAMP", rows, 3);
    const char *names[] = {"x", "y"};
    exec_expr_t *args[] = {col(0), col(1)};
    exec_expr_t *st = OK(exec_expr_struct(A, args, names, 2, &E));
    CHECK_STR(type_of(st), "STRUCT<x: INT, y: STRING>");
    CHECK_STR(eval(st), "{\"x\":1,\"y\":\"a\"},{\"x\":null,\"y\":\"b\"},{\"x\":3,\"y\":null}");
    CHECK_STR(eval(OK(exec_expr_field(A, st, 1, &E))), "a,b,NULL");
    CHECK_STR(eval(call("to_json", 1, st)), "{\"x\":1,\"y\":\"a\"},{\"y\":\"b\"},{\"x\":3}");
    exec_expr_t *ns = call("named_struct", 4, S("k"), col(1), S("n"), I(5));
    CHECK_STR(type_of(ns), "STRUCT<k: STRING, n: INT>");
    exec_expr_t *w = call("window", 2, col(2), S("10 minutes"));
    CHECK_STR(type_of(w), "STRUCT<start: TIMESTAMP, end: TIMESTAMP>");
    CHECK_STR(eval(OK(exec_expr_field(A, w, 0, &E))),
              "2024-05-01 12:00:00,2024-05-01 12:10:00,NULL");
    CHECK_STR(eval(w),
              "{\"start\":\"2024-05-01T12:00:00.000Z\",\"end\":\"2024-05-01T12:10:00.000Z\"},"
              "{\"start\":\"2024-05-01T12:10:00.000Z\",\"end\":\"2024-05-01T12:20:00.000Z\"},NULL");
    exec_expr_t *arg = col(1);
    exec_expr_t *sn = OK(exec_expr_call(A, "struct", &arg, (const char *[]){"label"}, 1, &E));
    CHECK_STR(type_of(sn), "STRUCT<label: STRING>");
    CHECK(!exec_expr_field(A, col(0), 0, &E));
    CHECK_STR(E.sqlstate, "42804");
}

TEST(from_json_is_permissive)
{
    const char *rows[] = {"{\"a\": 1, \"b\": \"x\", \"c\": {\"d\": true}}",
                          "{\"b\": \"only\"}",
                          "not json",
                          "{\"a\": \"one\"}",
                          "NULL",
                          "{\"a\":2,\"zz\":[1,{\"q\":null}],\"b\":{\"raw\":1}}"};
    B = mk("j STRING", rows, 6);
    exec_expr_t *f = call("from_json", 2, col(0), S("a INT, b STRING, c STRUCT<d: BOOLEAN>"));
    CHECK_STR(type_of(f), "STRUCT<a: INT, b: STRING, c: STRUCT<d: BOOLEAN>>");
    /* malformed records give a struct of NULLs (Spark 3); a NULL input stays NULL */
    CHECK_STR(eval(f),
              "{\"a\":1,\"b\":\"x\",\"c\":{\"d\":true}},{\"a\":null,\"b\":\"only\",\"c\":null},"
              "{\"a\":null,\"b\":null,\"c\":null},{\"a\":null,\"b\":null,\"c\":null},NULL,"
              "{\"a\":2,\"b\":\"{\\\"raw\\\":1}\",\"c\":null}");
    CHECK_STR(eval(OK(exec_expr_field(A, f, 0, &E))), "1,NULL,NULL,NULL,NULL,2");
    CHECK(!exec_expr_call(A, "from_json", (exec_expr_t *[]){col(0), S("a WIBBLE")}, NULL, 2, &E));
    CHECK_STR(E.sqlstate, "42704");
}

TEST(string_functions)
{
    const char *rows[] = {"Spark SQL", "\xc3\x84pfel \xce\xa3", "", "NULL"};
    B = mk("s STRING", rows, 4);
    CHECK_STR(eval(call("lower", 1, col(0))), "spark sql,\xc3\xa4pfel \xcf\x83,,NULL");
    CHECK_STR(eval(call("upper", 1, col(0))), "SPARK SQL,\xc3\x84PFEL \xce\xa3,,NULL");
    CHECK_STR(eval(call("length", 1, col(0))), "9,7,0,NULL");
    CHECK_STR(eval(call("substring", 3, col(0), I(1), I(5))), "Spark,\xc3\x84pfel,,NULL");
    CHECK_STR(eval(call("substring", 2, col(0), I(7))), "SQL,\xce\xa3,,NULL");
    CHECK_STR(eval(call("substring", 3, col(0), I(-3), I(2))), "SQ,l ,,NULL");
    CHECK_STR(eval(call("substring", 3, col(0), I(0), I(2))), "Sp,\xc3\x84p,,NULL");
    CHECK_STR(eval(call("substr", 3, col(0), I(2), I(-1))), ",,,NULL");
    CHECK_STR(eval(call("substring", 3, col(0), I(-20), I(13))), "Sp,,,NULL");
    CHECK(!exec_expr_call(A, "lower", (exec_expr_t *[]){I(1)}, NULL, 1, &E));
    CHECK_STR(E.sqlstate, "42883");
    CHECK_STR(E.message, "function lower(integer) does not exist");
    CHECK_STR(E.hint,
              "No function matches the given name and argument types. Accepted: lower(string).");
    CHECK(!exec_expr_call(A, "substring", (exec_expr_t *[]){col(0)}, NULL, 1, &E));
    CHECK_STR(E.message, "function substring(text) does not exist");
}

/* position/locate, trim/btrim/ltrim/rtrim: UTF-8 characters, Spark's rules. */
#define EA "\xc3\xa9" /* é */
TEST(search_functions)
{
    const char *rows[] = {"xx" EA "a" EA "x|" EA, "banana|an", "abc|", "NULL|a", "a|NULL"};
    B = mk("s STRING, t STRING", rows, 5);
    CHECK_STR(eval(call("position", 2, col(1), col(0))), "3,2,1,NULL,NULL");
    CHECK_STR(eval(call("locate", 3, col(1), col(0), I(4))), "5,4,1,NULL,NULL");
    CHECK_STR(eval(call("position", 3, col(1), col(0), I(0))), "0,0,0,NULL,NULL");
    CHECK_STR(eval(call("position", 3, S("a"), col(0), I(9))), "0,0,0,NULL,0");
    CHECK_STR(eval(call("btrim", 2, col(0), S("x" EA))), "a,banana,abc,NULL,a");
    CHECK_STR(eval(call("ltrim", 2, S("xb"), col(0))), EA "a" EA "x,anana,abc,NULL,a");
    CHECK_STR(eval(call("rtrim", 2, S("xa"), col(0))), "xx" EA "a" EA ",banan,abc,NULL,");
    CHECK_STR(eval(call("btrim", 2, col(0), col(1))), "xx" EA "a" EA "x,b,abc,NULL,NULL");
    const char *sp[] = {"  a b  ", "   ", "x"};
    B = mk("s STRING", sp, 3);
    CHECK_STR(eval(call("trim", 1, col(0))), "a b,,x");
    CHECK_STR(eval(call("ltrim", 1, col(0))), "a b  ,,x");
    CHECK_STR(eval(call("rtrim", 1, col(0))), "  a b,,x");
    CHECK_STR(eval(call("btrim", 1, col(0))), "a b,,x");
    CHECK(!exec_expr_call(A, "trim", (exec_expr_t *[]){col(0), col(0)}, NULL, 2, &E));
    CHECK_STR(E.sqlstate, "42883");
}

TEST(math_functions)
{
    const char *rows[] = {"-5|2.675|-1.005|1250", "7|-0.5|2.5|-1249", "NULL|NULL|NULL|NULL"};
    B = mk("i INT, d DOUBLE, m DECIMAL(6,3), b BIGINT", rows, 3);
    CHECK_STR(eval(call("abs", 1, col(0))), "5,7,NULL");
    CHECK_STR(eval(call("abs", 1, col(2))), "1.005,2.500,NULL");
    CHECK_STR(eval(call("round", 2, col(1), I(2))), "2.68,-0.5,NULL");
    CHECK_STR(eval(call("round", 1, col(1))), "3,-1,NULL");
    exec_expr_t *r = call("round", 2, col(2), I(2));
    CHECK_STR(type_of(r), "DECIMAL(6,2)");
    CHECK_STR(eval(r), "-1.01,2.50,NULL");
    CHECK_STR(eval(call("round", 1, col(2))), "-1,3,NULL");
    CHECK_STR(eval(call("round", 2, col(3), I(-2))), "1300,-1200,NULL");
    CHECK_STR(eval(call("round", 2, col(0), I(-1))), "-10,10,NULL");
    const char *mn[] = {"-2147483648"};
    B = mk("i INT", mn, 1);
    CHECK_STR(eval(call("abs", 1, col(0))), "ERROR 22003 integer out of range");
}

TEST(time_functions)
{
    const char *rows[] = {"2024-05-15 13:47:31.123456", "2024-01-01 00:00:00", "NULL"};
    B = mk("t TIMESTAMP", rows, 3);
    CHECK_STR(eval(call("date_trunc", 2, S("hour"), col(0))),
              "2024-05-15 13:00:00,2024-01-01 00:00:00,NULL");
    CHECK_STR(eval(call("date_trunc", 2, S("YEAR"), col(0))),
              "2024-01-01 00:00:00,2024-01-01 00:00:00,NULL");
    CHECK_STR(eval(call("date_trunc", 2, S("quarter"), col(0))),
              "2024-04-01 00:00:00,2024-01-01 00:00:00,NULL");
    CHECK_STR(eval(call("date_trunc", 2, S("month"), col(0))),
              "2024-05-01 00:00:00,2024-01-01 00:00:00,NULL");
    CHECK_STR(eval(call("date_trunc", 2, S("week"), col(0))),
              "2024-05-13 00:00:00,2024-01-01 00:00:00,NULL");
    CHECK_STR(eval(call("date_trunc", 2, S("day"), col(0))),
              "2024-05-15 00:00:00,2024-01-01 00:00:00,NULL");
    CHECK_STR(eval(call("date_trunc", 2, S("minute"), col(0))),
              "2024-05-15 13:47:00,2024-01-01 00:00:00,NULL");
    CHECK_STR(eval(call("date_trunc", 2, S("second"), col(0))),
              "2024-05-15 13:47:31,2024-01-01 00:00:00,NULL");
    CHECK_STR(eval(call("date_trunc", 2, S("millisecond"), col(0))),
              "2024-05-15 13:47:31.123,2024-01-01 00:00:00,NULL");
    CHECK(!exec_expr_call(A, "date_trunc", (exec_expr_t *[]){S("fortnight"), col(0)}, NULL, 2, &E));
    CHECK_STR(E.sqlstate, "22023");
    CHECK_STR(eval(call("extract", 2, S("YEAR"), col(0))), "2024,2024,NULL");
    CHECK_STR(eval(call("extract", 2, S("mon"), col(0))), "5,1,NULL");
    CHECK_STR(eval(call("date_part", 2, S("quarter"), col(0))), "2,1,NULL");
    CHECK_STR(eval(call("extract", 2, S("d"), col(0))), "15,1,NULL");
    CHECK_STR(eval(call("extract", 2, S("hour"), col(0))), "13,0,NULL");
    CHECK_STR(eval(call("extract", 2, S("minute"), col(0))), "47,0,NULL");
    exec_expr_t *sec = call("extract", 2, S("seconds"), col(0));
    CHECK_STR(type_of(sec), "DECIMAL(8,6)");
    CHECK_STR(eval(sec), "31.123456,0.000000,NULL");
    /* 2024-05-15 is a Wednesday, 2024-01-01 a Monday */
    CHECK_STR(eval(call("extract", 2, S("dow"), col(0))), "4,2,NULL");
    CHECK_STR(eval(call("extract", 2, S("dayofweek_iso"), col(0))), "3,1,NULL");
    CHECK_STR(eval(call("extract", 2, S("doy"), col(0))), "136,1,NULL");
    CHECK_STR(eval(call("extract", 2, S("week"), col(0))), "20,1,NULL");
    CHECK_STR(eval(call("extract", 2, NUL(), col(0))), "NULL,NULL,NULL");
    const char *iso[] = {"2005-01-02", "2012-12-31", "1969-12-31", "NULL"};
    B = mk("d DATE", iso, 4);
    CHECK_STR(eval(call("extract", 2, S("week"), col(0))), "53,1,1,NULL");
    CHECK_STR(eval(call("extract", 2, S("yearofweek"), col(0))), "2004,2013,1970,NULL");
    CHECK_STR(eval(call("extract", 2, S("dow"), col(0))), "1,2,4,NULL");
    CHECK_STR(eval(call("extract", 2, S("hour"), col(0))), "0,0,0,NULL");
    CHECK(!exec_expr_call(A, "extract", (exec_expr_t *[]){S("epoch"), col(0)}, NULL, 2, &E));
    CHECK_STR(E.sqlstate, "22023");
    CHECK_STR(E.message, "extract field \"epoch\" is not supported");
    CHECK(!exec_expr_call(A, "extract", (exec_expr_t *[]){S("year"), I(1)}, NULL, 2, &E));
    CHECK_STR(E.sqlstate, "42883");
    const char *txt[] = {"2024-05-01 12:00:00", "01/05/2024 07:08", "garbage",
                         "2024-05-01T12:00:00.5+02:00"};
    B = mk("s STRING", txt, 4);
    CHECK_STR(eval(call("to_timestamp", 1, col(0))),
              "2024-05-01 12:00:00,NULL,NULL,2024-05-01 10:00:00.5");
    CHECK_STR(eval(call("to_timestamp", 2, col(0), S("dd/MM/yyyy HH:mm"))),
              "NULL,2024-05-01 07:08:00,NULL,NULL");
    CHECK_STR(eval(call("to_timestamp", 2, col(0), S("yyyy-MM-dd'T'HH:mm:ss.SXXX"))),
              "NULL,NULL,NULL,2024-05-01 10:00:00.5");
    CHECK_STR(eval(call("to_timestamp", 1, lit("BIGINT", "86400"))),
              "1970-01-02 00:00:00,1970-01-02 00:00:00,"
              "1970-01-02 00:00:00,1970-01-02 00:00:00");
    CTX.batch_timestamp_ms = 1714564800123;
    CHECK_STR(eval(call("current_timestamp", 0)),
              "2024-05-01 12:00:00.123,2024-05-01 12:00:00.123,"
              "2024-05-01 12:00:00.123,2024-05-01 12:00:00.123");
    CHECK_STR(eval(call("now", 0)), eval(call("current_timestamp", 0)));
}

TEST(window_specs_and_bounds)
{
    exec_window_spec_t w;
    sl_error_t err;
    exec_expr_t *ts = exec_expr_column(A, 0, exec_type_of(EXEC_TYPE_TIMESTAMP), "t");
    exec_expr_t *args[] = {ts, S("10 minutes"), S("5 minutes")};
    CHECK_INT(exec_window_spec(args, 3, &w, &err), 0);
    CHECK_INT(w.size_us, 600000000);
    CHECK_INT(w.slide_us, 300000000);
    int64_t out[8];
    int64_t t = 1714565340000000LL; /* 12:09:00 */
    CHECK_INT(exec_window_bounds(t, &w, out, 4), 2);
    CHECK_INT(out[0], 1714565100000000LL); /* 12:05 */
    CHECK_INT(out[1], 1714565700000000LL); /* 12:15 */
    CHECK_INT(out[2], 1714564800000000LL); /* 12:00 */
    CHECK_INT(out[3], 1714565400000000LL); /* 12:10 */
    /* negative timestamps floor correctly */
    CHECK_INT(exec_window_bounds(-1, &w, out, 4), 2);
    CHECK_INT(out[0], -300000000);
    exec_expr_t *bad[] = {ts, S("1 month")};
    CHECK_INT(exec_window_spec(bad, 2, &w, &err), -1);
    CHECK_STR(err.sqlstate, "22023");
    exec_expr_t *slide_big[] = {ts, S("5 minutes"), S("10 minutes")};
    CHECK_INT(exec_window_spec(slide_big, 3, &w, &err), -1);
    CHECK(!exec_expr_call(A, "window", args, NULL, 3, &E));
    CHECK_STR(E.sqlstate, "0A000");
    exec_expr_t *off[] = {ts, S("1 hour"), S("1 hour"), S("15 minutes")};
    CHECK_INT(exec_window_spec(off, 4, &w, &err), 0);
    CHECK_INT(exec_window_bounds(t, &w, out, 4), 1);
    CHECK_INT(out[0], 1714564800000000LL - 2700000000LL); /* 11:15 */
}

TEST(catalogue_lookup_and_errors)
{
    CHECK(exec_func_is_aggregate("COUNT"));
    CHECK(exec_func_is_aggregate("approx_count_distinct"));
    CHECK(!exec_func_is_aggregate("lower"));
    B = NUMS;
    CHECK(!exec_expr_call(A, "sum", (exec_expr_t *[]){col(0)}, NULL, 1, &E));
    CHECK_STR(E.sqlstate, "42809");
    CHECK_STR(E.message, "sum is an aggregate function");
    CHECK(!exec_expr_call(A, "nosuch", (exec_expr_t *[]){col(0)}, NULL, 1, &E));
    CHECK_STR(E.sqlstate, "42883");
    CHECK_STR(E.message, "function nosuch(integer) does not exist");
    CHECK(!exec_expr_call(A, "session_window", (exec_expr_t *[]){col(0), S("5 minutes")}, NULL, 2,
                          &E));
    CHECK_STR(E.sqlstate, "42883"); /* a time is needed */
    const exec_func_t *f;
    exec_type_t ret;
    sl_error_t err;
    exec_type_t st = exec_type_of(EXEC_TYPE_STRING), in = exec_type_of(EXEC_TYPE_INT);
    CHECK_INT(exec_func_lookup(A, "Upper", 1, &st, &f, &ret, &err), 0);
    CHECK_STR(f->name, "upper");
    CHECK_INT(ret.id, EXEC_TYPE_STRING);
    CHECK_INT(exec_func_lookup(A, "substring", 2, (exec_type_t[]){st, in}, &f, &ret, &err), 0);
    CHECK_INT(exec_func_lookup(A, "upper", 1, &in, &f, &ret, &err), -1);
    CHECK_STR(err.message, "function upper(integer) does not exist");
    CHECK_INT(exec_func_lookup(A, "window", 2,
                               (exec_type_t[]){exec_type_of(EXEC_TYPE_TIMESTAMP), st}, &f, &ret,
                               &err),
              0);
    CHECK(exec_type_equal(ret, exec_type_window()));
    CHECK_INT(exec_func_lookup(A, "coalesce", 2,
                               (exec_type_t[]){in, exec_type_of(EXEC_TYPE_BIGINT)}, &f, &ret, &err),
              0);
    CHECK_INT(ret.id, EXEC_TYPE_BIGINT);
    CHECK_INT(exec_func_lookup(A, "count", 1, &in, &f, &ret, &err), -1);
    CHECK_STR(err.sqlstate, "42809");
    CHECK(!exec_expr_arith(A, EXEC_OP_ADD, col(0), lit("BOOLEAN", "true"), &E));
    CHECK_STR(E.message, "operator does not exist: integer + boolean");
    CHECK_STR(
        E.hint,
        "No operator matches the given name and argument types. You might need to add explicit type casts.");
    const char *v = eval(call("version", 0));
    CHECK(!strncmp(v, "sluice ", 7));
    CHECK(strstr(v, "(PostgreSQL 15.0 wire protocol), streaming SQL server,sluice ") != NULL);
}

TEST(selection_vectors_limit_evaluation)
{
    B = NUMS;
    static uint32_t sel[] = {1, 3};
    B->sel = sel;
    B->nsel = 2;
    CHECK_STR(eval(bin(EXEC_OP_MUL, col(1), I(2))), "0,-4");
    /* row 0 would overflow nothing, row 1 divides by zero: only selected rows run */
    CHECK_STR(eval(bin(EXEC_OP_MOD, I(100), col(1))), "ERROR 22012 division by zero");
    static uint32_t sel2[] = {0, 3};
    B->sel = sel2;
    CHECK_STR(eval(bin(EXEC_OP_MOD, I(100), col(1))), "0,0");
    CHECK_STR(filter(cmp(EXEC_CMP_GT, col(1), I(0))), "0");
    B->sel = NULL;
    CHECK_STR(
        filter(and_(cmp(EXEC_CMP_GT, col(1), I(0)), cmp(EXEC_CMP_LT, col(2), lit("DOUBLE", "2")))),
        "");
    CHECK_STR(
        filter(or_(cmp(EXEC_CMP_GT, col(1), I(8)), cmp(EXEC_CMP_LT, col(2), lit("DOUBLE", "2")))),
        "0,1,3");
    exec_batch_t *b = exec_batch_shallow_copy(B, A);
    sl_error_t err;
    exec_prog_t *p = exec_expr_compile(A, cmp(EXEC_CMP_GE, col(1), I(0)), &err);
    CHECK_INT(exec_prog_filter(p, &CTX, b, &err), 0);
    CHECK_INT(b->nsel, 3);
    exec_batch_compact(b);
    CHECK(b->sel == NULL);
    CHECK_INT(b->nrows, 3);
    B = b;
    CHECK_STR(eval(col(3)), "NULL,x,y");
    exec_batch_t *s = exec_batch_slice(b, 1, 2);
    B = s;
    CHECK_STR(eval(col(1)), "0,7");
}

TEST(constant_folding_and_program_shape)
{
    B = NUMS;
    sl_error_t err;
    exec_expr_t *e = bin(EXEC_OP_ADD, col(0), bin(EXEC_OP_MUL, I(2), I(3)));
    exec_prog_t *p = exec_expr_compile(A, e, &err);
    sl_buf_t d = SL_BUF_INIT;
    exec_prog_dump(p, &d);
    CHECK_STR(d.data, "value:\n0: column r0 <- [s0]\n1: add r1 <- r0 const [s0]\nresult r1\n");
    sl_buf_free(&d);
    CHECK_STR(eval(e), "ERROR 22003 integer out of range");
    /* 1/0 cannot be folded: it fails only for rows that reach it */
    exec_expr_t *w[] = {cmp(EXEC_CMP_GT, col(1), I(100))};
    exec_expr_t *t[] = {bin(EXEC_OP_MOD, I(1), I(0))};
    CHECK_STR(eval(OK(exec_expr_case(A, NULL, w, t, 1, I(5), &E))), "5,5,5,5");
    exec_expr_t *w2[] = {cmp(EXEC_CMP_GT, col(1), I(8))};
    CHECK_STR(eval(OK(exec_expr_case(A, NULL, w2, t, 1, I(5), &E))),
              "ERROR 22012 division by zero");
    CHECK(exec_expr_is_foldable(bin(EXEC_OP_MUL, I(2), I(3))));
    CHECK(!exec_expr_is_foldable(call("current_timestamp", 0)));
    CHECK(!exec_expr_is_foldable(col(0)));
}

TEST(inspection_helpers)
{
    B = NUMS;
    exec_expr_t *e =
        OK(exec_expr_like(A, exec_expr_column(A, 3, exec_type_of(EXEC_TYPE_STRING), "name"),
                          S("a%"), NULL, false, false, &E));
    exec_expr_t *x = and_(
        e, cmp(EXEC_CMP_GT, exec_expr_column(A, 1, exec_type_of(EXEC_TYPE_BIGINT), "n"), I(3)));
    sl_buf_t b = SL_BUF_INIT;
    exec_expr_format(x, &b);
    CHECK_STR(b.data, "((name LIKE 'a%') AND (n > 3))");
    sl_buf_clear(&b);
    exec_expr_format(OK(exec_expr_cast(A, col(0), exec_type_of(EXEC_TYPE_BIGINT), &E)), &b);
    CHECK_STR(b.data, "CAST(#0 AS BIGINT)");
    sl_buf_free(&b);
    bool used[4] = {0};
    exec_expr_columns(x, used, 4);
    CHECK(!used[0] && used[1] && !used[2] && used[3]);
    int map[] = {0, 0, 0, 1};
    exec_expr_t *r = exec_expr_remap(A, e, map);
    CHECK_INT(r->args[0]->column, 1);
    CHECK_INT(e->args[0]->column, 3);
}

TEST_TIMEOUT(pg_sleep_honours_cancel, 10)
{
    const char *rows[] = {"5"};
    B = mk("s DOUBLE", rows, 1);
    atomic_int cancel = 0;
    CTX.cancel = &cancel;
    CHECK_STR(eval(call("pg_sleep", 1, lit("DOUBLE", "0.02"))), "NULL");
    atomic_store(&cancel, 1);
    CHECK_STR(eval(bin(EXEC_OP_ADD, I(1), col(0))),
              "ERROR 57014 canceling statement due to user request");
    CTX.cancel = NULL;
}

TEST(column_mismatch_is_an_error_not_a_crash)
{
    B = NUMS;
    exec_expr_t *far = exec_expr_column(A, 9, exec_type_of(EXEC_TYPE_INT), NULL);
    CHECK_STR(eval(far), "ERROR XX000 expression reads column 9 (integer) of a 4-column batch");
    exec_expr_t *wrong = exec_expr_column(A, 3, exec_type_of(EXEC_TYPE_INT), NULL);
    CHECK_STR(eval(wrong), "ERROR XX000 expression reads column 3 (integer) of a 4-column batch");
}
