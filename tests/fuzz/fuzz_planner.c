/* libFuzzer target for the binder, the streaming checks and the physical
 * planner, and for batch execution: parses arbitrary SQL and, against a
 * fixed catalog (tables t and u with a few rows of every type, streams s
 * and s2 with watermarks), binds every SELECT, EXPLAIN and CREATE QUERY it
 * finds. A SELECT is planned for batch execution, run over the tables'
 * rows (uncorrelated subqueries too) and its result rendered as text; a
 * continuous query is checked and planned incrementally in the three
 * output modes, and both plans are EXPLAINed. Invariants: no crash (ASan,
 * UBSan), every error has a SQLSTATE that is not XX000 (internal error)
 * and a message, and error positions lie inside the text. `make test`
 * replays tests/fuzz/corpus/planner. */
#include "tests/fuzz/fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/arena.h"
#include "common/buf.h"
#include "connectors/format.h"
#include "common/pool.h"
#include "exec/stage.h"
#include "model/value.h"
#include "parser/parser.h"
#include "planner/check.h"
#include "planner/physical.h"
#include "server/inputs.h"

static void check(int ok)
{
    if (!ok) abort(); /* a broken invariant: libFuzzer saves the input */
}

/* ---- the catalog ---- */

#define ALL_TYPES                                                                              \
    "k STRING, n BIGINT, i INT, f DOUBLE, m DECIMAL(10,2), b BOOLEAN, ts TIMESTAMP, dt DATE, " \
    "iv INTERVAL, x BINARY, st STRUCT<a: INT, s: STRING>"

static const char *const ROWS_T =
    "{\"k\":\"a\",\"n\":1,\"i\":10,\"f\":0.5,\"m\":1.25,\"b\":true,\"ts\":\"2024-05-01 12:00:00\","
    "\"dt\":\"2024-05-01\",\"iv\":\"1 hour\",\"x\":\"AQI=\",\"st\":{\"a\":1,\"s\":\"p\"}}\n"
    "{\"k\":\"b\",\"n\":-2,\"i\":-20,\"f\":-1e300,\"m\":-99999999.99,\"b\":false,\"ts\":\"1969-12-31 23:59:59.999999\","
    "\"dt\":\"0001-01-01\",\"iv\":\"-3 days\",\"x\":\"\",\"st\":{\"a\":null,\"s\":\"\"}}\n"
    "{\"k\":\"a\",\"n\":9223372036854775807,\"i\":2147483647,\"f\":1e300,\"m\":0,\"b\":true,"
    "\"ts\":\"2024-05-01 12:07:30\",\"dt\":\"9999-12-31\",\"iv\":\"0 seconds\"}\n"
    "{\"k\":null,\"n\":null,\"i\":null,\"f\":null,\"m\":null,\"b\":null,\"ts\":null}\n"
    "{\"k\":\"\",\"n\":0,\"i\":0,\"f\":0,\"m\":0.01,\"b\":false,\"ts\":\"2024-05-01 12:00:00\",\"st\":null}\n";
static const char *const ROWS_U = "{\"k\":\"a\",\"i\":1,\"ts\":\"2024-05-01 12:01:00\"}\n"
                                  "{\"k\":\"c\",\"i\":2,\"ts\":\"2024-05-01 12:30:00\"}\n"
                                  "{\"k\":null,\"i\":null,\"ts\":null}\n";

typedef struct fuzz_rel {
    plan_relation_t rel;
    exec_batch_t *rows; /* tables */
} fuzz_rel_t;

static fuzz_rel_t RELS[4];
static exec_pool_t *POOL;

static int keep_batch(void *arg, exec_batch_t *b, sl_error_t *err)
{
    (void)err;
    *(exec_batch_t **)arg = b;
    return 0;
}

static void add_rel(sl_arena_t *a, fuzz_rel_t *r, const char *name, plan_rel_kind_t kind,
                    const char *schema, const char *rows, const char *wm_col)
{
    sl_error_t err;
    exec_type_t t;
    check(exec_schema_parse(schema, strlen(schema), a, &t, &err) == 0);
    r->rel.kind = kind;
    r->rel.stream.name = name;
    r->rel.stream.ncols = t.nfields;
    r->rel.stream.col_names = SL_NEW_ARRAY(a, const char *, t.nfields);
    r->rel.stream.col_types = SL_NEW_ARRAY(a, exec_type_t, t.nfields);
    r->rel.wm_col = -1;
    for (int i = 0; i < t.nfields; i++) {
        r->rel.stream.col_names[i] = t.fields[i].name;
        r->rel.stream.col_types[i] = t.fields[i].type;
        if (wm_col && !strcmp(wm_col, t.fields[i].name)) r->rel.wm_col = i;
    }
    r->rel.wm_delay_ms = 60000;
    if (kind == PLAN_REL_STREAM) {
        r->rel.stream.connector = conn_lookup("file", CONN_SOURCE, &err);
        check(r->rel.stream.connector != NULL);
        return;
    }
    format_options_t o = {.kind = FORMAT_JSON, .sep = ','};
    const format_decoder_t *d = format_decoder_new(&o, r->rel.stream.ncols, r->rel.stream.col_names,
                                                   r->rel.stream.col_types, a, &err);
    check(d != NULL);
    format_reader_t rd;
    format_reader_init(&rd, d, a, keep_batch, &r->rows);
    format_pos_t pos = {"file", name, "line", 0};
    check(format_reader_text(&rd, rows, strlen(rows), &pos, &err) == 0);
    check(format_reader_flush(&rd, &err) == 0);
    format_reader_done(&rd);
    check(r->rows != NULL);
}

static void init_catalog(void)
{
    sl_arena_t *a = sl_arena_new("fuzz catalog");
    add_rel(a, &RELS[0], "t", PLAN_REL_TABLE, ALL_TYPES, ROWS_T, NULL);
    add_rel(a, &RELS[1], "u", PLAN_REL_TABLE, "k STRING, i INT, ts TIMESTAMP", ROWS_U, NULL);
    add_rel(a, &RELS[2], "s", PLAN_REL_STREAM, ALL_TYPES, NULL, "ts");
    add_rel(a, &RELS[3], "s2", PLAN_REL_STREAM, "k STRING, i INT, ts TIMESTAMP", NULL, "ts");
    POOL = exec_pool_new(1);
}

static int lookup(void *ctx, const char *name, sl_arena_t *a, plan_relation_t *out, sl_error_t *err)
{
    (void)ctx;
    (void)a;
    (void)err;
    for (size_t i = 0; i < sizeof RELS / sizeof RELS[0]; i++)
        if (!strcmp(RELS[i].rel.stream.name, name)) {
            *out = RELS[i].rel;
            out->handle = &RELS[i];
            return 1;
        }
    return 0;
}

static const plan_catalog_t CATALOG = {NULL, lookup};

/* ---- batch execution ---- */

static int produce_table(void *arg, sl_arena_t *a, exec_emit_fn emit, void *emit_arg,
                         sl_error_t *err)
{
    const fuzz_rel_t *r = arg;
    return emit(emit_arg, exec_batch_shallow_copy(r->rows, a), err);
}

/* Runs a batch plan over the tables; 0, or -1 with err. */
static int run_plan(const plan_physical_t *p, sl_arena_t *a, exec_result_t *out, sl_error_t *err)
{
    exec_input_t *in = SL_NEW_ARRAY(a, exec_input_t, p->ninputs > 0 ? p->ninputs : 1);
    for (int i = 0; i < p->ninputs; i++) {
        const plan_input_t *pi = &p->inputs[i];
        check(pi->kind == PLAN_INPUT_TABLE || pi->kind == PLAN_INPUT_VALUES);
        in[i].leaf = pi->leaf;
        in[i].produce = pi->kind == PLAN_INPUT_TABLE ? produce_table : inputs_produce_values;
        in[i].arg = pi->kind == PLAN_INPUT_TABLE ? pi->rel->handle : (void *)pi->values;
    }
    op_ctx_t base;
    memset(&base, 0, sizeof base);
    base.mode = OUTPUT_COMPLETE;
    base.npartitions = 2;
    return exec_run(p->root, &base, 1714564800000, NULL, POOL, in, p->ninputs, out, err);
}

static int run_subquery(void *ctx, const plan_node_t *q, sl_arena_t *a, exec_value_t **values,
                        int64_t *nrows, sl_error_t *err)
{
    (void)ctx;
    *values = NULL;
    *nrows = 0;
    plan_phys_opts_t o = {.streaming = 0, .npartitions = 2, .mode = OUTPUT_COMPLETE};
    plan_physical_t *p = plan_physical(a, q, &o, err);
    exec_result_t r;
    if (!p || run_plan(p, a, &r, err) < 0) return -1;
    *values = exec_result_column(&r, 0, a, nrows);
    exec_result_free(&r);
    return 0;
}

static const plan_subquery_runner_t SUBQUERIES = {NULL, run_subquery};

/* Every value of the result as text, as the wire protocol sends it. */
static void render(const exec_result_t *r, sl_arena_t *a)
{
    sl_buf_t b = SL_BUF_INIT;
    for (int bi = 0; bi < r->nbatches; bi++) {
        const exec_batch_t *batch = r->batches[bi];
        for (uint32_t k = 0; k < exec_batch_count(batch); k++)
            for (int c = 0; c < batch->ncols; c++) {
                exec_value_t v;
                exec_vec_get_value(&batch->cols[c], exec_batch_row(batch, k), a, &v);
                exec_value_format(&v, &b);
                sl_buf_clear(&b);
            }
    }
    sl_buf_free(&b);
}

/* ---- statements ---- */

static void check_error(const sl_error_t *err, size_t len)
{
    check(strlen(err->sqlstate) == 5 && strcmp(err->sqlstate, "XX000") != 0);
    check(err->message[0] != '\0');
    check(err->position >= 0 && (size_t)err->position <= len + 1);
}

static void plan_select(const ast_select_t *q, const char *sql, size_t len, int execute,
                        sl_arena_t *a)
{
    sl_error_t err;
    sl_error_clear(&err);
    plan_ctx_t pc = {.arena = a, .cat = &CATALOG, .sql = sql, .subqueries = &SUBQUERIES};
    plan_node_t *lp = plan_bind(&pc, q, &err);
    plan_phys_opts_t o = {.streaming = 0, .npartitions = 2, .mode = OUTPUT_COMPLETE};
    plan_physical_t *p = lp ? plan_physical(a, lp, &o, &err) : NULL;
    if (!p) {
        check_error(&err, len);
        return;
    }
    sl_buf_t b = SL_BUF_INIT;
    plan_explain_logical(lp, &b);
    plan_explain_physical(p, &b);
    sl_buf_free(&b);
    exec_result_t r;
    if (!execute) return;
    if (run_plan(p, a, &r, &err) < 0) {
        check_error(&err, len);
        return;
    }
    render(&r, a);
    exec_result_free(&r);
}

static void plan_query(const ast_create_query_t *cq, const char *sql, size_t len, sl_arena_t *a)
{
    static const output_mode_t modes[] = {OUTPUT_APPEND, OUTPUT_UPDATE, OUTPUT_COMPLETE};
    for (int m = 0; m < 3; m++) {
        sl_error_t err;
        sl_error_clear(&err);
        plan_ctx_t pc = {.arena = a, .cat = &CATALOG, .sql = sql, .allow_streams = 1};
        plan_node_t *lp = plan_bind(&pc, cq->select, &err);
        plan_physical_t *p = NULL;
        if (lp && plan_check_streaming(lp, modes[m], cq->trigger == AST_TRIGGER_CONTINUOUS,
                                       conn_lookup("memory", CONN_SINK, &err), &err) == 0) {
            plan_phys_opts_t o = {.streaming = 1, .npartitions = 2, .mode = modes[m]};
            p = plan_physical(a, lp, &o, &err);
        }
        if (!p) {
            check_error(&err, len);
            continue;
        }
        sl_buf_t b = SL_BUF_INIT;
        plan_explain_logical(lp, &b);
        plan_explain_physical(p, &b);
        sl_buf_free(&b);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!POOL) init_catalog();
    /* a NUL-terminated copy of exactly this size, so that ASan catches reads past the end */
    char *sql = malloc(size + 1);
    memcpy(sql, data, size);
    sql[size] = '\0';
    if (strlen(sql) != size) { /* positions and names are text: skip inputs with NUL bytes */
        free(sql);
        return 0;
    }
    /* pg_sleep would only make the run slow */
    int execute = !strcasestr(sql, "sleep");
    sl_arena_t *a = sl_arena_new("fuzz");
    ast_stmt_list_t l;
    sl_error_t err;
    sl_error_clear(&err);
    if (parse_sql(sql, size, a, &l, &err) == 0) {
        for (int i = 0; i < l.n; i++) {
            const ast_stmt_t *s = l.items[i];
            if (s->kind == AST_STMT_EXPLAIN) s = s->explain;
            if (s->kind == AST_STMT_SELECT)
                plan_select(s->select, sql, size, execute && s == l.items[i], a);
            if (s->kind == AST_STMT_CREATE_QUERY) plan_query(&s->create_query, sql, size, a);
        }
    }
    sl_arena_free(a);
    free(sql);
    return 0;
}
