/* Unit tests of the batch joins (exec/op_join_hash.c, exec/op_join_nl.c):
 * every join type over NULL keys, duplicate keys on both sides, residual
 * predicates and empty sides, in the broadcast and partitioned shapes, run
 * through exec_run on a task pool. */
#include "exec/op_join.h"
#include "test_exec_join_util.h"

static sl_arena_t *A;
static exec_type_t T_INT, T_STR;

/* L(k INT, a STRING) and R(k INT, b STRING) with NULL and duplicate keys. */
static const char *L_ROWS1 = "1,a1;2,a2;2,a3";
static const char *L_ROWS2 = "NULL,a4;3,a5";
static const char *R_ROWS1 = "2,b1;2,b2;NULL,b3";
static const char *R_ROWS2 = "4,b4;1,b5";

typedef struct fixture {
    exec_pnode_t *l, *r;       /* INPUT leaves */
    tj_input_t lin[2], rin[2]; /* two input tasks per side */
    exec_input_t ins[4];
    int nins;
} fixture_t;

static void setup(void)
{
    A = sl_arena_new("test");
    T_INT = exec_type_of(EXEC_TYPE_INT);
    T_STR = exec_type_of(EXEC_TYPE_STRING);
}

static void fixture_init(fixture_t *f, const char *l1, const char *l2, const char *r1,
                         const char *r2)
{
    memset(f, 0, sizeof *f);
    const char *ln[] = {"k", "a"}, *rn[] = {"k", "b"};
    exec_type_t lt[] = {T_INT, T_STR}, rt[] = {T_INT, T_STR};
    f->l = op_input_plan(A, 2, ln, lt, "l");
    f->r = op_input_plan(A, 2, rn, rt, "r");
    const char *lrows[2] = {l1, l2}, *rrows[2] = {r1, r2};
    for (int i = 0; i < 2; i++) {
        if (lrows[i]) tj_add(&f->lin[i], tj_batch(A, 2, lt, lrows[i]));
        if (rrows[i]) tj_add(&f->rin[i], tj_batch(A, 2, rt, rrows[i]));
        f->ins[f->nins++] = (exec_input_t){f->l, tj_produce, &f->lin[i], i};
        f->ins[f->nins++] = (exec_input_t){f->r, tj_produce, &f->rin[i], i};
    }
}

static void fixture_default(fixture_t *f)
{
    fixture_init(f, L_ROWS1, L_ROWS2, R_ROWS1, R_ROWS2);
}

static char *run(exec_pnode_t *root, fixture_t *f)
{
    exec_plan_number(root);
    op_ctx_t ctx = tj_ctx(0, NULL, NULL, 3);
    return tj_run_ctx(root, &ctx, f->ins, f->nins, NULL);
}

static const int K0[] = {0};

/* Broadcast hash join with the left side probing. */
static char *hash_bcast(fixture_t *f, op_join_type_t type, const exec_expr_t *residual)
{
    sl_error_t err = {0};
    exec_pnode_t *probe = f->l;
    if (type == OP_JOIN_RIGHT || type == OP_JOIN_FULL)
        probe = op_exchange_plan(A, f->l, NULL, 0, 1, 0);
    exec_pnode_t *build = op_exchange_plan(A, f->r, NULL, 0, 1, 1);
    exec_pnode_t *j = op_hash_join_plan(A, probe, build, K0, K0, 1, type, 1, residual, &err);
    if (!j) unit_fail(__FILE__, __LINE__, "plan: %s", err.message);
    return tj_sorted(run(j, f));
}

/* Partitioned hash join (both sides hashed on k into 3 partitions). */
static char *hash_part(fixture_t *f, op_join_type_t type, int probe_is_left,
                       const exec_expr_t *residual)
{
    sl_error_t err = {0};
    exec_pnode_t *lx = op_exchange_plan(A, f->l, K0, 1, 3, 0),
                 *rx = op_exchange_plan(A, f->r, K0, 1, 3, 0);
    exec_pnode_t *j = probe_is_left
                          ? op_hash_join_plan(A, lx, rx, K0, K0, 1, type, 1, residual, &err)
                          : op_hash_join_plan(A, rx, lx, K0, K0, 1, type, 0, residual, &err);
    if (!j) unit_fail(__FILE__, __LINE__, "plan: %s", err.message);
    return tj_sorted(run(j, f));
}

static const char *INNER = "1,a1,1,b5\n2,a2,2,b1\n2,a2,2,b2\n2,a3,2,b1\n2,a3,2,b2\n";
static const char *LEFT =
    "1,a1,1,b5\n2,a2,2,b1\n2,a2,2,b2\n2,a3,2,b1\n2,a3,2,b2\n3,a5,NULL,NULL\nNULL,a4,NULL,NULL\n";
static const char *RIGHT =
    "1,a1,1,b5\n2,a2,2,b1\n2,a2,2,b2\n2,a3,2,b1\n2,a3,2,b2\nNULL,NULL,4,b4\nNULL,NULL,NULL,b3\n";
static const char *FULL = "1,a1,1,b5\n2,a2,2,b1\n2,a2,2,b2\n2,a3,2,b1\n2,a3,2,b2\n3,a5,NULL,NULL\n"
                          "NULL,NULL,4,b4\nNULL,NULL,NULL,b3\nNULL,a4,NULL,NULL\n";

TEST(hash_join_broadcast_every_type)
{
    setup();
    fixture_t f;
    fixture_default(&f);
    TJ_CHECK_TEXT(hash_bcast(&f, OP_JOIN_INNER, NULL), INNER);
    fixture_default(&f);
    TJ_CHECK_TEXT(hash_bcast(&f, OP_JOIN_LEFT, NULL), LEFT);
    fixture_default(&f);
    TJ_CHECK_TEXT(hash_bcast(&f, OP_JOIN_RIGHT, NULL), RIGHT);
    fixture_default(&f);
    TJ_CHECK_TEXT(hash_bcast(&f, OP_JOIN_FULL, NULL), FULL);
}

TEST(hash_join_partitioned_every_type_both_probe_sides)
{
    setup();
    const op_join_type_t types[] = {OP_JOIN_INNER, OP_JOIN_LEFT, OP_JOIN_RIGHT, OP_JOIN_FULL};
    const char *want[] = {INNER, LEFT, RIGHT, FULL};
    for (int t = 0; t < 4; t++)
        for (int pl = 0; pl < 2; pl++) {
            fixture_t f;
            fixture_default(&f);
            TJ_CHECK_TEXT(hash_part(&f, types[t], pl, NULL), want[t]);
        }
}

TEST(hash_join_right_outer_with_right_probe_streams_the_preserved_side)
{
    setup();
    fixture_t f;
    fixture_default(&f);
    sl_error_t err = {0};
    exec_pnode_t *build = op_exchange_plan(A, f.l, NULL, 0, 1, 1);
    exec_pnode_t *j = op_hash_join_plan(A, f.r, build, K0, K0, 1, OP_JOIN_RIGHT, 0, NULL, &err);
    CHECK(j != NULL);
    CHECK_INT(j->ncols, 4);
    CHECK_STR(j->names[1], "a");
    CHECK_STR(j->names[3], "b");
    TJ_CHECK_TEXT(tj_sorted(run(j, &f)), RIGHT);
}

/* a <> 'a2' AND b <> 'b1' over the output row (k, a, k, b). */
static exec_expr_t *residual_expr(void)
{
    sl_error_t err = {0};
    exec_value_t va2 = exec_value_string("a2", 2), vb1 = exec_value_string("b1", 2);
    exec_expr_t *c1 = exec_expr_cmp(A, EXEC_CMP_NE, exec_expr_column(A, 1, T_STR, "a"),
                                    exec_expr_const(A, &va2), &err);
    exec_expr_t *c2 = exec_expr_cmp(A, EXEC_CMP_NE, exec_expr_column(A, 3, T_STR, "b"),
                                    exec_expr_const(A, &vb1), &err);
    exec_expr_t *e = exec_expr_and(A, c1, c2, &err);
    CHECK(e != NULL);
    return e;
}

TEST(hash_join_residual_decides_outer_matches)
{
    setup();
    fixture_t f;
    fixture_default(&f);
    TJ_CHECK_TEXT(hash_bcast(&f, OP_JOIN_INNER, residual_expr()), "1,a1,1,b5\n2,a3,2,b2\n");
    fixture_default(&f);
    /* a2 joins no row once the residual applies: it comes back null-extended. */
    TJ_CHECK_TEXT(hash_bcast(&f, OP_JOIN_LEFT, residual_expr()),
                  "1,a1,1,b5\n2,a2,NULL,NULL\n2,a3,2,b2\n3,a5,NULL,NULL\nNULL,a4,NULL,NULL\n");
    fixture_default(&f);
    /* b1 matches nothing either: FULL emits it with NULL left columns. */
    TJ_CHECK_TEXT(hash_part(&f, OP_JOIN_FULL, 1, residual_expr()),
                  "1,a1,1,b5\n2,a2,NULL,NULL\n2,a3,2,b2\n3,a5,NULL,NULL\n"
                  "NULL,NULL,2,b1\nNULL,NULL,4,b4\nNULL,NULL,NULL,b3\nNULL,a4,NULL,NULL\n");
}

TEST(hash_join_empty_sides)
{
    setup();
    fixture_t f;
    fixture_init(&f, L_ROWS1, L_ROWS2, NULL, NULL);
    TJ_CHECK_TEXT(hash_bcast(&f, OP_JOIN_INNER, NULL), "");
    fixture_init(&f, L_ROWS1, L_ROWS2, NULL, NULL);
    TJ_CHECK_TEXT(
        hash_bcast(&f, OP_JOIN_LEFT, NULL),
        "1,a1,NULL,NULL\n2,a2,NULL,NULL\n2,a3,NULL,NULL\n3,a5,NULL,NULL\nNULL,a4,NULL,NULL\n");
    fixture_init(&f, NULL, NULL, R_ROWS1, R_ROWS2);
    TJ_CHECK_TEXT(
        hash_bcast(&f, OP_JOIN_FULL, NULL),
        "NULL,NULL,1,b5\nNULL,NULL,2,b1\nNULL,NULL,2,b2\nNULL,NULL,4,b4\nNULL,NULL,NULL,b3\n");
    fixture_init(&f, NULL, NULL, NULL, NULL);
    TJ_CHECK_TEXT(hash_part(&f, OP_JOIN_FULL, 1, NULL), "");
}

TEST(hash_join_refuses_bad_shapes_and_types)
{
    setup();
    fixture_t f;
    fixture_default(&f);
    sl_error_t err = {0};
    exec_pnode_t *build = op_exchange_plan(A, f.r, NULL, 0, 1, 1);
    CHECK(!op_hash_join_plan(A, f.l, build, K0, K0, 1, OP_JOIN_FULL, 1, NULL, &err));
    CHECK_STR(err.sqlstate, "0A000");
    CHECK(!op_hash_join_plan(A, f.l, f.r, K0, K0, 1, OP_JOIN_INNER, 1, NULL, &err));
    CHECK_STR(err.sqlstate, "0A000");
    const int K1[] = {1};
    CHECK(!op_hash_join_plan(A, f.l, build, K0, K1, 1, OP_JOIN_INNER, 1, NULL, &err));
    CHECK_STR(err.sqlstate, "42804");
    exec_expr_t *notbool = exec_expr_column(A, 0, T_INT, "k");
    CHECK(!op_hash_join_plan(A, f.l, build, K0, K0, 1, OP_JOIN_INNER, 1, notbool, &err));
    CHECK_STR(err.sqlstate, "42804");
}

TEST(hash_join_explain_names_keys_and_shape)
{
    setup();
    fixture_t f;
    fixture_default(&f);
    sl_error_t err = {0};
    exec_pnode_t *build = op_exchange_plan(A, f.r, NULL, 0, 1, 1);
    exec_pnode_t *j = op_hash_join_plan(A, f.l, build, K0, K0, 1, OP_JOIN_LEFT, 1, NULL, &err);
    sl_buf_t b = SL_BUF_INIT;
    j->ops->explain(j, &b);
    CHECK_STR(b.data, " LEFT OUTER (k = k) probe left, broadcast build");
    sl_buf_free(&b);
}

/* Many duplicates: 3000 x 3 rows of one key give 9000 pairs in 3 batches. */
TEST(hash_join_many_pairs_span_batches)
{
    setup();
    fixture_t f;
    sl_buf_t lb = SL_BUF_INIT;
    for (int i = 0; i < 3000; i++) sl_buf_printf(&lb, "%s7,x%d", i ? ";" : "", i);
    fixture_init(&f, lb.data, NULL, "7,p;7,q;7,r", NULL);
    sl_buf_free(&lb);
    exec_pnode_t *build = op_exchange_plan(A, f.r, NULL, 0, 1, 1);
    sl_error_t err = {0};
    exec_pnode_t *j = op_hash_join_plan(A, f.l, build, K0, K0, 1, OP_JOIN_INNER, 1, NULL, &err);
    exec_plan_number(j);
    op_ctx_t ctx = tj_ctx(0, NULL, NULL, 3);
    exec_result_t r;
    char *s = tj_run_ctx(j, &ctx, f.ins, f.nins, &r);
    CHECK_INT(r.nrows, 9000);
    CHECK(r.nbatches >= 3);
    /* Pairs come in probe order, and build order within a probe row. */
    CHECK(!strncmp(s, "7,x0,7,p\n7,x0,7,q\n7,x0,7,r\n7,x1,7,p\n", 36));
    free(s);
    exec_result_free(&r);
}

/* ---- nested loop ---- */

/* l.k < r.k */
static exec_expr_t *lt_expr(void)
{
    sl_error_t err = {0};
    exec_expr_t *e = exec_expr_cmp(A, EXEC_CMP_LT, exec_expr_column(A, 0, T_INT, "k"),
                                   exec_expr_column(A, 2, T_INT, "k"), &err);
    CHECK(e != NULL);
    return e;
}

static char *nl(fixture_t *f, op_join_type_t type, const exec_expr_t *pred)
{
    sl_error_t err = {0};
    exec_pnode_t *probe = f->l;
    if (type == OP_JOIN_RIGHT || type == OP_JOIN_FULL)
        probe = op_exchange_plan(A, f->l, NULL, 0, 1, 0);
    exec_pnode_t *build = op_exchange_plan(A, f->r, NULL, 0, 1, 1);
    exec_pnode_t *j = op_nl_join_plan(A, probe, build, type, 1, pred, &err);
    if (!j) unit_fail(__FILE__, __LINE__, "plan: %s", err.message);
    return tj_sorted(run(j, f));
}

TEST(nested_loop_cross_join)
{
    setup();
    fixture_t f;
    fixture_init(&f, "1,a1", "2,a2", "3,b3;NULL,b4", NULL);
    TJ_CHECK_TEXT(nl(&f, OP_JOIN_CROSS, NULL),
                  "1,a1,3,b3\n1,a1,NULL,b4\n2,a2,3,b3\n2,a2,NULL,b4\n");
    fixture_init(&f, "1,a1", NULL, NULL, NULL);
    TJ_CHECK_TEXT(nl(&f, OP_JOIN_CROSS, NULL), "");
}

TEST(nested_loop_non_equi_every_type)
{
    setup();
    fixture_t f;
    /* L: 1,2,2,NULL,3 ; R: 2,2,NULL,4,1 ; l.k < r.k */
    const char *inner = "1,a1,2,b1\n1,a1,2,b2\n1,a1,4,b4\n2,a2,4,b4\n2,a3,4,b4\n3,a5,4,b4\n";
    fixture_default(&f);
    TJ_CHECK_TEXT(nl(&f, OP_JOIN_INNER, lt_expr()), inner);
    fixture_default(&f);
    TJ_CHECK_TEXT(nl(&f, OP_JOIN_LEFT, lt_expr()),
                  "1,a1,2,b1\n1,a1,2,b2\n1,a1,4,b4\n2,a2,4,b4\n2,a3,4,b4\n3,a5,4,b4\n"
                  "NULL,a4,NULL,NULL\n");
    fixture_default(&f);
    TJ_CHECK_TEXT(nl(&f, OP_JOIN_RIGHT, lt_expr()),
                  "1,a1,2,b1\n1,a1,2,b2\n1,a1,4,b4\n2,a2,4,b4\n2,a3,4,b4\n3,a5,4,b4\n"
                  "NULL,NULL,1,b5\nNULL,NULL,NULL,b3\n");
    fixture_default(&f);
    TJ_CHECK_TEXT(nl(&f, OP_JOIN_FULL, lt_expr()),
                  "1,a1,2,b1\n1,a1,2,b2\n1,a1,4,b4\n2,a2,4,b4\n2,a3,4,b4\n3,a5,4,b4\n"
                  "NULL,NULL,1,b5\nNULL,NULL,NULL,b3\nNULL,a4,NULL,NULL\n");
}

TEST(nested_loop_large_product)
{
    setup();
    fixture_t f;
    sl_buf_t lb = SL_BUF_INIT, rb = SL_BUF_INIT;
    for (int i = 0; i < 300; i++) sl_buf_printf(&lb, "%s%d,x", i ? ";" : "", i);
    for (int i = 0; i < 200; i++) sl_buf_printf(&rb, "%s%d,y", i ? ";" : "", i);
    fixture_init(&f, lb.data, NULL, rb.data, NULL);
    sl_buf_free(&lb);
    sl_buf_free(&rb);
    sl_error_t err = {0};
    exec_pnode_t *build = op_exchange_plan(A, f.r, NULL, 0, 1, 1);
    exec_pnode_t *j = op_nl_join_plan(A, f.l, build, OP_JOIN_INNER, 1, lt_expr(), &err);
    exec_plan_number(j);
    op_ctx_t ctx = tj_ctx(0, NULL, NULL, 3);
    exec_result_t r;
    free(tj_run_ctx(j, &ctx, f.ins, f.nins, &r));
    /* pairs i < j with i < 300, j < 200: sum over j of j = 199*200/2 */
    CHECK_INT(r.nrows, 19900);
    exec_result_free(&r);
}
