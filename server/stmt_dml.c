/* INSERT and DELETE on static tables kept in the catalog. */
#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "model/cast.h"
#include "exec/expr.h"
#include "exec/stage.h"
#include "planner/bind_from.h"
#include "planner/physical.h"
#include "server/catalog.h"
#include "server/inputs.h"
#include "server/objects.h"
#include "server/stmt_int.h"
#include "server/table_store.h"
#include "server/txn.h"

/* The catalog-stored table `id` names, or an error saying why it cannot be changed. */
static int writable_table(stmt_ctx_t *ctx, const ast_ident_t *id, const char *verb,
                          plan_relation_t *rel, sl_error_t *err)
{
    int found = obj_lookup(ctx->srv->cat, id->name, ctx->arena, rel, err);
    if (found < 0) return bind_error_at(err, id->pos);
    cat_entry_t e;
    if (found == 0 && cat_lookup(ctx->srv->cat, id->name, ctx->arena, &e))
        return stmt_error_at(err, id->pos, SL_ERR_WRONG_OBJECT_TYPE, "cannot %s query \"%s\"", verb,
                             id->name);
    if (found == 0)
        return stmt_error_at(err, id->pos, SL_ERR_UNDEFINED_TABLE, "relation \"%s\" does not exist",
                             id->name);
    if (rel->kind == PLAN_REL_STREAM) {
        stmt_error_at(err, id->pos, SL_ERR_WRONG_OBJECT_TYPE, "cannot %s stream \"%s\"", verb,
                      id->name);
        return sl_error_hint(err, "Streams are read from their source; only tables take rows.");
    }
    if (rel->stream.connector) {
        stmt_error_at(err, id->pos, SL_ERR_FEATURE_NOT_SUPPORTED,
                      "cannot %s table \"%s\": it is read from %s files", verb, id->name,
                      rel->stream.connector->name);
        return sl_error_hint(err, "Change the files at its path instead.");
    }
    return 0;
}

int stmt_writable_table(stmt_ctx_t *ctx, const ast_ident_t *id, const char *verb,
                        plan_relation_t *rel, sl_error_t *err)
{
    return writable_table(ctx, id, verb, rel, err);
}

int bind_error_at(sl_error_t *err, int pos)
{
    if (!err->position) err->position = pos + 1;
    return -1;
}

/* target[i] = the table column the i-th value goes to. */
static int insert_targets(stmt_ctx_t *ctx, const ast_insert_t *ins, const plan_relation_t *rel,
                          int **target, sl_error_t *err)
{
    int n = ins->columns.n ? ins->columns.n : rel->stream.ncols;
    *target = SL_NEW_ARRAY(ctx->arena, int, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) {
        if (!ins->columns.n) {
            (*target)[i] = i;
            continue;
        }
        const ast_ident_t *c = ins->columns.items[i];
        int col = plan_relation_column(rel, c->name);
        if (col < 0)
            return stmt_error_at(err, c->pos, SL_ERR_UNDEFINED_COLUMN,
                                 "column \"%s\" of relation \"%s\" does not exist", c->name,
                                 rel->stream.name);
        for (int j = 0; j < i; j++)
            if ((*target)[j] == col)
                return stmt_error_at(err, c->pos, SL_ERR_DUPLICATE_COLUMN,
                                     "column \"%s\" specified more than once", c->name);
        (*target)[i] = col;
    }
    return n;
}

/* Conversions an INSERT makes on its own (PostgreSQL's assignment casts,
 * Spark's ANSI store assignment): between numbers (a value out of range
 * fails when its row is converted), between dates and timestamps, anything
 * into a string, and what implicit coercion allows (string literals). */
static int assignable(exec_type_t from, exec_type_t to)
{
    if (exec_cast_implicit(from, to)) return 1;
    if (exec_type_is_numeric(from) && exec_type_is_numeric(to)) return 1;
    int ft = from.id == EXEC_TYPE_DATE || from.id == EXEC_TYPE_TIMESTAMP;
    int tt = to.id == EXEC_TYPE_DATE || to.id == EXEC_TYPE_TIMESTAMP;
    if (ft && tt) return 1;
    return to.id == EXEC_TYPE_STRING && exec_cast_allowed(from, to);
}

/* A PROJECT converting the query's columns into the table's (missing ones NULL). */
static plan_node_t *to_table_columns(stmt_ctx_t *ctx, plan_node_t *q, const plan_relation_t *rel,
                                     const int *target, int ntarget, int pos, sl_error_t *err)
{
    exec_expr_t **exprs = SL_NEW_ARRAY(ctx->arena, exec_expr_t *, rel->stream.ncols);
    for (int c = 0; c < rel->stream.ncols; c++) {
        exec_value_t null = exec_value_null(rel->stream.col_types[c]);
        exprs[c] = exec_expr_const(ctx->arena, &null);
    }
    for (int i = 0; i < ntarget; i++) {
        int c = target[i];
        exec_expr_t *src = exec_expr_column(ctx->arena, i, q->cols[i].type, q->cols[i].name);
        exprs[c] = assignable(q->cols[i].type, rel->stream.col_types[c])
                       ? exec_expr_cast(ctx->arena, src, rel->stream.col_types[c], err)
                       : NULL;
        if (!exprs[c]) {
            sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                         "column \"%s\" is of type %s but expression is of type %s",
                         rel->stream.col_names[c], exec_type_pg_name(rel->stream.col_types[c]),
                         exec_type_pg_name(q->cols[i].type));
            sl_error_hint(err, "You will need to rewrite or cast the expression.");
            bind_error_at(err, pos);
            return NULL;
        }
    }
    return plan_project(ctx->arena, q, exprs, (const char **)rel->stream.col_names,
                        rel->stream.ncols);
}

static int insert_rows(stmt_ctx_t *ctx, const plan_relation_t *rel, plan_node_t *lp, int64_t *count,
                       sl_error_t *err)
{
    plan_phys_opts_t o = {
        .streaming = 0, .npartitions = ctx->srv->worker_threads, .mode = OUTPUT_COMPLETE};
    plan_physical_t *p = plan_physical(ctx->arena, lp, &o, err);
    if (!p) return -1;
    exec_result_t r;
    if (stmt_run_plan(ctx, p, &r, err) < 0) return -1;
    tstore_conn_t *w = r.nrows > 0 ? txn_writer(sess_txn(ctx->sess), "INSERT", err) : NULL;
    int rc = r.nrows > 0 && !w ? -1 : 0;
    for (int i = 0; rc == 0 && i < r.nbatches; i++)
        rc = tstore_insert(ctx->srv->tstore, w, rel, r.batches[i], err);
    *count = r.nrows;
    exec_result_free(&r);
    return rc;
}

/* Describing INSERT ... VALUES: an undeclared $n takes its column's type. */
static void infer_value_params(plan_ctx_t *pc, const ast_select_t *q, const plan_relation_t *rel,
                               const int *target, int ntarget)
{
    if (q->kind != AST_SELECT_VALUES) return;
    for (int r = 0; r < q->rows.n; r++)
        for (int i = 0; i < q->rows.items[r]->n && i < ntarget; i++)
            plan_infer_param(pc, q->rows.items[r]->items[i], rel->stream.col_types[target[i]]);
}

STMT_HANDLER(stmt_insert)
{
    const ast_insert_t *ins = &stmt->insert;
    plan_relation_t rel;
    if (writable_table(ctx, ins->table, "insert into", &rel, err) < 0) return -1;
    int *target;
    int ntarget = insert_targets(ctx, ins, &rel, &target, err);
    if (ntarget < 0) return -1;
    plan_catalog_t cat;
    plan_ctx_t pc;
    stmt_plan_ctx(ctx, &cat, &pc);
    plan_node_t *q = plan_bind(&pc, ins->query, err);
    if (!q) return -1;
    infer_value_params(&pc, ins->query, &rel, target, ntarget);
    int nv = plan_visible_columns(q);
    if (nv != ntarget)
        return stmt_error_at(err, ins->query->pos, SL_ERR_SYNTAX_ERROR,
                             "INSERT has %s expressions than target columns",
                             nv > ntarget ? "more" : "fewer");
    if (nv != q->ncols) q = plan_project_visible(ctx->arena, q);
    q = to_table_columns(ctx, q, &rel, target, ntarget, ins->query->pos, err);
    if (!q) return -1;
    int64_t n = 0;
    if (!ctx->describe_only) {
        if (insert_rows(ctx, &rel, q, &n, err) < 0) return -1;
        if (n > 0) txn_touched(sess_txn(ctx->sess), rel.stream.name);
    }
    snprintf(res->tag, sizeof res->tag, "INSERT 0 %lld", (long long)n);
    res->kind = SESS_RES_COMMAND;
    return 0;
}

typedef struct delete_scan {
    stmt_ctx_t *ctx;
    exec_prog_t *pred; /* NULL: every row */
    int rowid_col;
    int64_t *ids;
    int64_t n, cap;
} delete_scan_t;

static int collect_deleted(void *arg, exec_batch_t *b, sl_error_t *err)
{
    delete_scan_t *d = arg;
    exec_ctx_t ectx = {.arena = d->ctx->arena, .cancel = d->ctx->cancel};
    if (d->pred && exec_prog_filter(d->pred, &ectx, b, err) < 0) return -1;
    for (uint32_t k = 0; k < exec_batch_count(b); k++) {
        if (d->n == d->cap) {
            int64_t cap = d->cap ? d->cap * 2 : 256;
            d->ids = sl_arena_realloc(d->ctx->arena, d->ids, sizeof *d->ids * (size_t)d->cap,
                                      sizeof *d->ids * (size_t)cap);
            d->cap = cap;
        }
        d->ids[d->n++] = EXEC_VEC_AT(&b->cols[d->rowid_col], int64_t, exec_batch_row(b, k));
    }
    return 0;
}

STMT_HANDLER(stmt_delete)
{
    const ast_delete_t *del = &stmt->del;
    plan_relation_t rel;
    if (writable_table(ctx, del->table, "delete from", &rel, err) < 0) return -1;
    delete_scan_t d = {.ctx = ctx, .rowid_col = rel.stream.ncols};
    if (del->where) {
        plan_catalog_t cat;
        plan_ctx_t pc;
        stmt_plan_ctx(ctx, &cat, &pc);
        exec_expr_t *w = plan_bind_condition(&pc, &rel, del->where, "WHERE", err);
        if (!w || !(d.pred = exec_expr_compile(ctx->arena, w, err))) return -1;
    }
    if (!ctx->describe_only) {
        /* the write lock first, so that the rows found are the rows deleted */
        tstore_conn_t *w = txn_writer(sess_txn(ctx->sess), "DELETE", err);
        if (!w) return -1;
        if (tstore_scan(ctx->srv->tstore, w, &rel, 1, ctx->arena, collect_deleted, &d, err) < 0)
            return -1;
        if (d.n && tstore_delete(ctx->srv->tstore, w, rel.stream.name, d.ids, d.n, err) < 0)
            return -1;
        if (d.n) txn_touched(sess_txn(ctx->sess), rel.stream.name);
    }
    snprintf(res->tag, sizeof res->tag, "DELETE %lld", (long long)d.n);
    res->kind = SESS_RES_COMMAND;
    return 0;
}
