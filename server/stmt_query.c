/* Continuous query statements: CREATE QUERY, START/STOP/AWAIT/DROP QUERY
 * and EXPLAIN. Listings (SHOW QUERIES, SHOW PROGRESS, DESCRIBE) are in
 * stmt_query_show.c. */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "connectors/memtable.h"
#include "planner/plan.h"
#include "server/catalog.h"
#include "server/qm.h"
#include "server/query_plan.h"
#include "server/stmt_int.h"

static const char *stmt_text(stmt_ctx_t *ctx, const ast_stmt_t *stmt)
{
    return sl_strndup(ctx->arena, ctx->sql + stmt->start, (size_t)(stmt->end - stmt->start));
}

STMT_HANDLER(stmt_create_query)
{
    const ast_create_query_t *cq = &stmt->create_query;
    stmt_result_command(res, "CREATE QUERY");
    cat_entry_t e;
    if (cq->if_not_exists && !ctx->describe_only &&
        cat_lookup(ctx->srv->cat, cq->name->name, ctx->arena, &e)) {
        stmt_result_notice(ctx, res, "relation \"%s\" already exists, skipping", cq->name->name);
        return 0;
    }
    qplan_t plan;
    if (qplan_build(ctx->srv, cq, ctx->sql, ctx->arena, &plan, err) < 0) return -1;
    if (ctx->describe_only) return 0;
    if (qplan_check_checkpoint(&plan, ctx->arena, err) < 0) return -1;
    if (cat_create(ctx->srv->cat, CAT_QUERY, cq->name->name, stmt_text(ctx, stmt), "ACTIVE",
                   plan.deps, plan.ndeps, err) < 0)
        return bind_error_at(err, cq->name->pos);
    SL_INFO("qm", "created query=%s sink=%s mode=%s", cq->name->name, plan.def.sink->name,
            output_mode_name(plan.def.mode));
    return qm_launch(ctx->srv->qm, cq->name->name, err);
}

/* The query an identifier names, or 42P01 / 42809. */
static int query_named(stmt_ctx_t *ctx, const ast_ident_t *id, sl_error_t *err)
{
    cat_entry_t e;
    if (!cat_lookup(ctx->srv->cat, id->name, ctx->arena, &e))
        return stmt_error_at(err, id->pos, SL_ERR_UNDEFINED_TABLE, "query \"%s\" does not exist",
                             id->name);
    if (e.kind != CAT_QUERY)
        return stmt_error_at(err, id->pos, SL_ERR_WRONG_OBJECT_TYPE, "\"%s\" is a %s, not a query",
                             id->name, cat_kind_name(e.kind));
    return 0;
}

STMT_HANDLER(stmt_start_query)
{
    stmt_result_command(res, "START QUERY");
    if (query_named(ctx, stmt->object_name, err) < 0) return -1;
    if (ctx->describe_only) return 0;
    int rc = qm_start(ctx->srv->qm, stmt->object_name->name, err);
    if (rc == 0)
        stmt_result_notice(ctx, res, "query \"%s\" is already active", stmt->object_name->name);
    return rc < 0 ? -1 : 0;
}

STMT_HANDLER(stmt_stop_query)
{
    stmt_result_command(res, "STOP QUERY");
    if (query_named(ctx, stmt->object_name, err) < 0) return -1;
    if (ctx->describe_only) return 0;
    int rc = qm_stop(ctx->srv->qm, stmt->object_name->name, err);
    if (rc == 0)
        stmt_result_notice(ctx, res, "query \"%s\" is not active", stmt->object_name->name);
    return rc < 0 ? -1 : 0;
}

STMT_HANDLER(stmt_await_query)
{
    stmt_result_command(res, "AWAIT QUERY");
    const ast_ident_t *id = stmt->await.name;
    if (query_named(ctx, id, err) < 0) return -1;
    int64_t timeout = -1;
    if (stmt->await.timeout &&
        plan_interval_ms(stmt->await.timeout, "AWAIT timeout", &timeout, err) < 0)
        return -1;
    if (ctx->describe_only) return 0;
    ctx->await_query = sl_strdup(ctx->arena, id->name);
    ctx->await_timeout_ms = timeout;
    return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* DROP QUERY: stop it, drop its memory table, forget it; its checkpoint goes
 * too when it is the default one under the data directory (a query created
 * again under that name starts afresh), a CHECKPOINT the user chose stays. */
int stmt_drop_query(stmt_ctx_t *ctx, const ast_stmt_t *stmt, sess_result_t *res, sl_error_t *err)
{
    const char *name = stmt->drop.name->name;
    if (query_named(ctx, stmt->drop.name, err) < 0) return -1;
    qm_info_t info;
    int known = qm_get(ctx->srv->qm, name, ctx->arena, &info);
    if (qm_drop(ctx->srv->qm, name, err) < 0 && known) return -1;
    if (cat_drop(ctx->srv->cat, CAT_QUERY, name, err) < 0)
        return bind_error_at(err, stmt->drop.name->pos);
    if (memtable_drop(ctx->srv->memtables, name) > 0) sl_heap_release_free();
    const char *def =
        sl_printf(ctx->arena, "%s/checkpoints/%s", ctx->srv->conf->data_directory, name);
    if (known && info.checkpoint && !strcmp(info.checkpoint, def) &&
        nftw(def, remove_entry, 16, FTW_DEPTH | FTW_PHYS) < 0 && errno != ENOENT)
        SL_WARN("qm", "could not remove checkpoint %s: %s", def, strerror(errno));
    stmt_result_command(res, "DROP QUERY");
    return 0;
}

/* EXPLAIN SELECT (batch plan) or EXPLAIN CREATE QUERY (incremental plan). */
STMT_HANDLER(stmt_explain)
{
    const ast_stmt_t *inner = stmt->explain;
    const char *names[] = {"QUERY PLAN"};
    stmt_result_columns(ctx, res, 1, names, NULL);
    if (ctx->describe_only) return 0;
    sl_buf_t out = SL_BUF_INIT;
    int rc = 0;
    if (inner->kind == AST_STMT_CREATE_QUERY) {
        qplan_t plan;
        if ((rc = qplan_build(ctx->srv, &inner->create_query, ctx->sql, ctx->arena, &plan, err)) ==
            0)
            qplan_explain(&plan, ctx->arena, &out);
    } else {
        plan_physical_t *p = stmt_plan_select(ctx, inner->select, err);
        if (!p) rc = -1;
        else plan_explain_physical(p, &out);
    }
    for (char *line = out.data, *nl; rc == 0 && line && *line; line = nl + 1) {
        nl = strchr(line, '\n');
        if (!nl) nl = line + strlen(line) - 1;
        else *nl = '\0';
        const char *row[] = {line};
        stmt_result_row(res, row);
    }
    sl_buf_free(&out);
    return rc;
}
