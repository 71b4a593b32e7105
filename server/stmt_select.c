/* Ad-hoc SELECT over static tables, memory sinks and constants: bind, plan
 * for batch execution, run on the task pool, and encode the rows in
 * PostgreSQL's text format. Also the binder context of every batch
 * statement, whose subqueries in expressions run here before the statement. */
#include <stdint.h>
#include <string.h>

#include "common/clock.h"
#include "exec/stage.h"
#include "planner/physical.h"
#include "server/inputs.h"
#include "server/objects.h"
#include "server/pgcatalog.h"
#include "server/pgwire_binary.h"
#include "server/session.h"
#include "server/stmt_int.h"
#include "server/txn.h"

/* RowDescription columns from the plan's output schema. */
static void select_columns(stmt_ctx_t *ctx, sess_result_t *res, const plan_physical_t *p)
{
    const char **names = SL_NEW_ARRAY(ctx->arena, const char *, p->ncols > 0 ? p->ncols : 1);
    uint32_t *oids = SL_NEW_ARRAY(ctx->arena, uint32_t, p->ncols > 0 ? p->ncols : 1);
    for (int i = 0; i < p->ncols; i++) {
        names[i] = p->names[i];
        oids[i] = exec_type_pg(p->types[i]).oid;
    }
    stmt_result_columns(ctx, res, p->ncols, names, oids);
    for (int i = 0; i < p->ncols; i++) {
        exec_pg_type_t pg = exec_type_pg(p->types[i]);
        res->cols[i].type_len = pg.len;
        res->cols[i].type_mod = pg.typmod;
    }
}

/* Appends every present row of the output batches as text. */
static void encode_rows(sess_result_t *res, const exec_result_t *r)
{
    sl_buf_t cell = SL_BUF_INIT;
    for (int bi = 0; bi < r->nbatches; bi++) {
        const exec_batch_t *b = r->batches[bi];
        for (uint32_t k = 0; k < exec_batch_count(b); k++) {
            uint32_t row = exec_batch_row(b, k);
            sl_buf_put_u16be(&res->rows, (uint16_t)b->ncols);
            for (int c = 0; c < b->ncols; c++) {
                sl_buf_clear(&cell);
                if (!exec_vec_text(&b->cols[c], row, &cell)) {
                    sl_buf_put_u32be(&res->rows, 0xFFFFFFFFu);
                    continue;
                }
                sl_buf_put_u32be(&res->rows, (uint32_t)cell.len);
                sl_buf_append(&res->rows, cell.data, cell.len);
            }
            res->nrows++;
        }
    }
    sl_buf_free(&cell);
    stmt_result_select_tag(res);
}

/* plan_subquery_runner_t for batch statements: runs the subquery's plan as
 * an ad-hoc SELECT and copies its first column out. Describing a statement
 * runs nothing: every subquery is empty then. */
static int run_subquery(void *arg, const plan_node_t *q, sl_arena_t *a, exec_value_t **values,
                        int64_t *nrows, sl_error_t *err)
{
    stmt_ctx_t *ctx = arg;
    *values = NULL;
    *nrows = 0;
    if (ctx->describe_only) return 0;
    plan_phys_opts_t o = {
        .streaming = 0, .npartitions = ctx->srv->worker_threads, .mode = OUTPUT_COMPLETE};
    plan_physical_t *p = plan_physical(ctx->arena, q, &o, err);
    exec_result_t r;
    if (!p || stmt_run_plan(ctx, p, &r, err) < 0) return -1;
    *values = exec_result_column(&r, 0, a, nrows);
    exec_result_free(&r);
    return 0;
}

/* The exec types of the declared parameter OIDs, or NULL. */
static const exec_type_id_t *stmt_param_types(stmt_ctx_t *ctx)
{
    if (!ctx->param_types || ctx->nparams <= 0) return NULL;
    exec_type_id_t *t = SL_NEW_ARRAY(ctx->arena, exec_type_id_t, ctx->nparams);
    for (int i = 0; i < ctx->nparams; i++) t[i] = pgw_bin_param_type(ctx->param_types[i]);
    return t;
}

void stmt_plan_ctx(stmt_ctx_t *ctx, plan_catalog_t *cat, plan_ctx_t *pc)
{
    obj_plan_catalog(ctx->srv, cat);
    pgcat_session_t *sys = SL_NEW(ctx->arena, pgcat_session_t);
    *sys = (pgcat_session_t){ctx->srv, ctx->sess, sess_user(ctx->sess), sess_database(ctx->sess)};
    pgcat_plan_catalog(sys, cat);
    plan_subquery_runner_t *run = SL_NEW(ctx->arena, plan_subquery_runner_t);
    *run = (plan_subquery_runner_t){ctx, run_subquery};
    *pc = (plan_ctx_t){.arena = ctx->arena,
                       .cat = cat,
                       .sql = ctx->sql,
                       .nparams = ctx->nparams,
                       .params = ctx->params,
                       .param_types = stmt_param_types(ctx),
                       .params_unbound = ctx->describe_only,
                       .param_inferred = ctx->param_inferred,
                       .subqueries = run,
                       .settings = stmt_settings(ctx),
                       .user = sys->user,
                       .database = sys->database};
}

/* Binds and plans a SELECT for batch execution. */
plan_physical_t *stmt_plan_select(stmt_ctx_t *ctx, const ast_select_t *q, sl_error_t *err)
{
    plan_catalog_t cat;
    plan_ctx_t pc;
    stmt_plan_ctx(ctx, &cat, &pc);
    plan_node_t *lp = plan_bind(&pc, q, err);
    if (!lp) return NULL;
    plan_phys_opts_t o = {
        .streaming = 0, .npartitions = ctx->srv->worker_threads, .mode = OUTPUT_COMPLETE};
    return plan_physical(ctx->arena, lp, &o, err);
}

/* Runs a batch plan; the caller frees the result. */
int stmt_run_plan(stmt_ctx_t *ctx, const plan_physical_t *p, exec_result_t *out, sl_error_t *err)
{
    exec_input_t *inputs;
    int n = inputs_static(ctx->srv, txn_reader(sess_txn(ctx->sess)), p, ctx->srv->worker_threads,
                          ctx->arena, &inputs);
    op_ctx_t base = {
        .batch_id = 0, .mode = OUTPUT_COMPLETE, .npartitions = ctx->srv->worker_threads};
    return exec_run(p->root, &base, sl_now_ms(), ctx->cancel, ctx->srv->pool, inputs, n, out, err);
}

STMT_HANDLER(stmt_select)
{
    plan_physical_t *p = stmt_plan_select(ctx, stmt->select, err);
    if (!p) return -1;
    select_columns(ctx, res, p);
    if (ctx->describe_only) return 0;
    exec_result_t r;
    if (stmt_run_plan(ctx, p, &r, err) < 0) return -1;
    encode_rows(res, &r);
    exec_result_free(&r);
    return 0;
}
