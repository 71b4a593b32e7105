/* DDL: CREATE STREAM, CREATE TABLE, DROP STREAM/TABLE/QUERY. Each object is
 * validated, then stored in the catalog as the exact text of its statement. */
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "server/catalog.h"
#include "server/objects.h"
#include "server/stmt_int.h"
#include "server/table_store.h"
#include "server/txn.h"
#include "connectors/validate.h"

/* The statement's own text, for the catalog. */
static const char *stmt_text(stmt_ctx_t *ctx, const ast_stmt_t *stmt)
{
    return sl_strndup(ctx->arena, ctx->sql + stmt->start, (size_t)(stmt->end - stmt->start));
}

/* IF NOT EXISTS on an existing name: PostgreSQL's notice, and success. */
static int exists_skip(stmt_ctx_t *ctx, sess_result_t *res, const char *name, const char *tag)
{
    cat_entry_t e;
    if (!cat_lookup(ctx->srv->cat, name, ctx->arena, &e)) return 0;
    stmt_result_notice(ctx, res, "relation \"%s\" already exists, skipping", name);
    stmt_result_command(res, tag);
    return 1;
}

/* A connector's option error: point at the option it names, else the connector. */
static int at_option(sl_error_t *err, const ast_create_stream_t *cs)
{
    if (err->position) return -1;
    for (int i = 0; i < cs->options.n; i++)
        if (strcasestr(err->message, cs->options.items[i]->key)) {
            err->position = cs->options.items[i]->pos + 1;
            return -1;
        }
    err->position = cs->connector->pos + 1;
    return -1;
}

/* Catalog errors carry no position: point them at the object's name. */
static int at_name(sl_error_t *err, const ast_ident_t *name)
{
    if (!err->position) err->position = name->pos + 1;
    return -1;
}

STMT_HANDLER(stmt_create_stream)
{
    const ast_create_stream_t *cs = &stmt->create_stream;
    plan_relation_t rel;
    if (obj_stream_define(cs, ctx->sql, ctx->arena, &rel, err) < 0) return -1;
    if (source_validate(&rel.stream, err) < 0) return at_option(err, cs);
    if (ctx->describe_only) {
        stmt_result_command(res, "CREATE STREAM");
        return 0;
    }
    if (cs->if_not_exists && exists_skip(ctx, res, cs->name->name, "CREATE STREAM")) return 0;
    if (cat_create(ctx->srv->cat, CAT_STREAM, cs->name->name, stmt_text(ctx, stmt), NULL, NULL, 0,
                   err) < 0)
        return at_name(err, cs->name);
    SL_INFO("catalog", "created stream name=%s connector=%s", cs->name->name,
            rel.stream.connector->name);
    stmt_result_command(res, "CREATE STREAM");
    return 0;
}

STMT_HANDLER(stmt_create_table)
{
    const ast_create_table_t *ct = &stmt->create_table;
    plan_relation_t rel;
    if (obj_table_define(ct, ctx->sql, ctx->arena, &rel, err) < 0) return -1;
    if (ctx->describe_only) {
        stmt_result_command(res, "CREATE TABLE");
        return 0;
    }
    if (ct->if_not_exists && exists_skip(ctx, res, ct->name->name, "CREATE TABLE")) return 0;
    txn_t *txn = sess_txn(ctx->sess);
    /* the write lock first: a statement that finds it held changed nothing */
    tstore_conn_t *w = rel.stream.connector ? NULL : txn_ddl_conn(txn, err);
    if (!rel.stream.connector && !w) return -1;
    if (cat_create(ctx->srv->cat, CAT_TABLE, ct->name->name, stmt_text(ctx, stmt), NULL, NULL, 0,
                   err) < 0) {
        sl_error_t ignored;
        txn_ddl_end(txn, 0, &ignored);
        return at_name(err, ct->name);
    }
    if (w && (tstore_create(ctx->srv->tstore, w, &rel, err) < 0 || txn_ddl_end(txn, 1, err) < 0)) {
        sl_error_t ignored;
        txn_ddl_end(txn, 0, &ignored);
        cat_drop(ctx->srv->cat, CAT_TABLE, ct->name->name, &ignored);
        return -1;
    }
    txn_created_table(txn, ct->name->name);
    stmt_result_command(res, "CREATE TABLE");
    return 0;
}

static cat_kind_t drop_kind(ast_object_t o)
{
    return o == AST_OBJ_STREAM ? CAT_STREAM : o == AST_OBJ_TABLE ? CAT_TABLE : CAT_QUERY;
}

STMT_HANDLER(stmt_drop)
{
    const ast_drop_t *d = &stmt->drop;
    cat_kind_t kind = drop_kind(d->object);
    static const char *const tags[] = {"", "DROP STREAM", "DROP TABLE", "DROP QUERY"};
    if (ctx->describe_only) {
        stmt_result_command(res, tags[kind]);
        return 0;
    }
    cat_entry_t e;
    if (d->if_exists && !cat_lookup(ctx->srv->cat, d->name->name, ctx->arena, &e)) {
        stmt_result_notice(ctx, res, "%s \"%s\" does not exist, skipping", cat_kind_name(kind),
                           d->name->name);
        stmt_result_command(res, tags[kind]);
        return 0;
    }
    if (kind == CAT_QUERY) return stmt_drop_query(ctx, stmt, res, err);
    txn_t *txn = sess_txn(ctx->sess);
    /* the write lock first: a statement that finds it held changed nothing */
    tstore_conn_t *w = kind == CAT_TABLE ? txn_ddl_conn(txn, err) : NULL;
    if (kind == CAT_TABLE && !w) return -1;
    sl_error_t ignored;
    if (cat_drop(ctx->srv->cat, kind, d->name->name, err) < 0) {
        txn_ddl_end(txn, 0, &ignored);
        return at_name(err, d->name);
    }
    if (w) {
        tstore_drop(ctx->srv->tstore, w, d->name->name);
        if (txn_ddl_end(txn, 1, &ignored) < 0)
            SL_WARN("tables", "could not drop storage of table %s: %s", d->name->name,
                    ignored.message);
        txn_dropped_table(txn, d->name->name);
    }
    stmt_result_command(res, tags[kind]);
    return 0;
}
