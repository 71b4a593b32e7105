/* ALTER STREAM name SET OPTIONS (...), ALTER QUERY name SET OPTIONS (...)
 * (the sink's) and ALTER QUERY name SET TRIGGER ...: the changes Spark
 * allows on a checkpoint. The catalog keeps each object as the text of its
 * CREATE statement, so an ALTER rewrites that text — each changed option
 * replaces the old one in place, a new one joins the OPTIONS list, the
 * TRIGGER clause is replaced or added — validates the result as a CREATE
 * would, and stores it. Only the options a connector lists as alterable
 * (conn_desc_t.alterable) may change (55000 for the others: a path, a
 * topic read, a format fix what the checkpoints recorded), and a trigger
 * may not move between micro-batch and CONTINUOUS. An ACTIVE query (or
 * one reading the altered stream) is restarted (a computing batch is
 * abandoned and rerun, as by STOP), so its next batch runs the new
 * definition. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/log.h"
#include "connectors/validate.h"
#include "parser/parser.h"
#include "server/catalog.h"
#include "server/objects.h"
#include "server/qm.h"
#include "server/query_plan.h"
#include "server/stmt_int.h"

/* One change of a stored text: [pos, end) becomes `text`. */
typedef struct text_edit {
    int pos, end;
    const char *text;
} text_edit_t;

/* `src` with the edits applied; they are sorted by pos and do not overlap. */
static char *apply_edits(sl_arena_t *a, const char *src, const text_edit_t *e, int n)
{
    sl_buf_t b = SL_BUF_INIT;
    int at = 0;
    for (int i = 0; i < n; i++) {
        sl_buf_append(&b, src + at, (size_t)(e[i].pos - at));
        sl_buf_puts(&b, e[i].text);
        at = e[i].end;
    }
    sl_buf_puts(&b, src + at);
    char *out = sl_strdup(a, b.data ? b.data : "");
    sl_buf_free(&b);
    return out;
}

static int edit_cmp(const void *x, const void *y)
{
    const text_edit_t *a = x, *b = y;
    return a->pos - b->pos;
}

static const char *alter_text(stmt_ctx_t *ctx, int pos, int end)
{
    return sl_strndup(ctx->arena, ctx->sql + pos, (size_t)(end - pos));
}

/* The options of `old` with those of the ALTER (`set`) applied: a key
 * already there is replaced where it stands, new keys follow the last old
 * option, or become an OPTIONS clause at `clause_at` (with `prefix`). */
static char *splice_options(stmt_ctx_t *ctx, const char *src, const ast_option_list_t *old,
                            const ast_option_list_t *set, int clause_at, const char *prefix)
{
    text_edit_t *e = SL_NEW_ARRAY(ctx->arena, text_edit_t, set->n + 1);
    int n = 0;
    sl_buf_t added = SL_BUF_INIT;
    for (int i = 0; i < set->n; i++) {
        const ast_option_t *o = set->items[i];
        const char *text = alter_text(ctx, o->pos, o->end);
        int j = 0;
        while (j < old->n && strcasecmp(old->items[j]->key, o->key)) j++;
        if (j < old->n) e[n++] = (text_edit_t){old->items[j]->pos, old->items[j]->end, text};
        else sl_buf_printf(&added, "%s%s", added.len || old->n ? ", " : "", text);
    }
    if (added.len) {
        int at = old->n ? old->items[old->n - 1]->end : clause_at;
        const char *t = old->n ? sl_strdup(ctx->arena, added.data)
                               : sl_printf(ctx->arena, "%sOPTIONS (%s)", prefix, added.data);
        e[n++] = (text_edit_t){at, at, t};
    }
    sl_buf_free(&added);
    qsort(e, (size_t)n, sizeof *e, edit_cmp);
    return apply_edits(ctx->arena, src, e, n);
}

/* Each option of the ALTER once, known to the connector, and alterable. */
static int check_alterable(const conn_desc_t *d, const char *what, const char *name,
                           const ast_option_list_t *set, sl_arena_t *a, sl_error_t *err)
{
    for (int i = 0; i < set->n; i++) {
        const ast_option_t *o = set->items[i];
        for (int j = 0; j < i; j++)
            if (!strcasecmp(set->items[j]->key, o->key))
                return stmt_error_at(err, o->pos, SL_ERR_INVALID_PARAMETER_VALUE,
                                     "option \"%s\" specified more than once", o->key);
        if (!conn_option_known(d, o->key))
            return stmt_error_at(err, o->pos, SL_ERR_INVALID_PARAMETER_VALUE,
                                 "unknown option \"%s\" for the %s %s", o->key, d->name, what);
        if (conn_option_alterable(d, o->key)) continue;
        stmt_error_at(err, o->pos, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                      "option \"%s\" of %s \"%s\" cannot be changed: the checkpoints of its "
                      "queries depend on it",
                      conn_canonical_key(d, o->key), !strcmp(what, "source") ? "stream" : "query",
                      name);
        sl_error_detail(err, "The %s %s can change only: %s.", d->name, what,
                        conn_alterable_list(d, a));
        return sl_error_hint(err,
                             "Create a new %s (and run its queries on new checkpoints) to "
                             "change it.",
                             !strcmp(what, "source") ? "stream" : "query");
    }
    return 0;
}

/* The parsed CREATE statement stored for `name`, of kind `want`. */
static const ast_stmt_t *stored_stmt(stmt_ctx_t *ctx, const ast_ident_t *id, cat_kind_t want,
                                     const char **sql, sl_error_t *err)
{
    cat_entry_t e;
    if (!cat_lookup(ctx->srv->cat, id->name, ctx->arena, &e)) {
        stmt_error_at(err, id->pos, SL_ERR_UNDEFINED_TABLE, "%s \"%s\" does not exist",
                      cat_kind_name(want), id->name);
        return NULL;
    }
    if (e.kind != want) {
        stmt_error_at(err, id->pos, SL_ERR_WRONG_OBJECT_TYPE, "\"%s\" is a %s, not a %s", id->name,
                      cat_kind_name(e.kind), cat_kind_name(want));
        return NULL;
    }
    ast_stmt_list_t l;
    if (parse_sql(e.sql, strlen(e.sql), ctx->arena, &l, err) < 0 || l.n != 1) {
        if (!sl_error_isset(err))
            sl_error_set(err, SL_ERR_INTERNAL_ERROR, "stored definition of \"%s\" is malformed",
                         id->name);
        return NULL;
    }
    *sql = e.sql;
    return l.items[0];
}

/* The altered CREATE STREAM text, validated as CREATE STREAM would be. */
static int validate_stream_text(stmt_ctx_t *ctx, const char *sql, sl_error_t *err)
{
    ast_stmt_list_t l;
    plan_relation_t rel;
    if (parse_sql(sql, strlen(sql), ctx->arena, &l, err) < 0 ||
        obj_stream_define(&l.items[0]->create_stream, sql, ctx->arena, &rel, err) < 0)
        return -1;
    return source_validate(&rel.stream, err);
}

/* Restarts the ACTIVE queries reading stream `name`. */
static void restart_readers(stmt_ctx_t *ctx, const char *name)
{
    const char **deps;
    int n = cat_dependents(ctx->srv->cat, name, ctx->arena, &deps);
    for (int i = 0; i < n; i++) {
        sl_error_t e;
        if (qm_restart(ctx->srv->qm, deps[i], &e) < 0)
            SL_WARN("qm", "query=%s could not restart after ALTER STREAM %s: %s", deps[i], name,
                    e.message);
    }
}

static int alter_stream(stmt_ctx_t *ctx, const ast_alter_t *al, sl_error_t *err)
{
    const char *old_sql;
    const ast_stmt_t *s = stored_stmt(ctx, al->name, CAT_STREAM, &old_sql, err);
    if (!s) return -1;
    const ast_create_stream_t *cs = &s->create_stream;
    const conn_desc_t *d = conn_lookup(cs->connector->name, CONN_SOURCE, err);
    if (!d || check_alterable(d, "source", al->name->name, &al->options, ctx->arena, err) < 0)
        return -1;
    char *sql = splice_options(ctx, old_sql, &cs->options, &al->options, cs->connector->end, " ");
    if (validate_stream_text(ctx, sql, err) < 0) return -1;
    if (ctx->describe_only) return 0;
    if (cat_set_sql(ctx->srv->cat, al->name->name, sql, err) < 0) return -1;
    SL_INFO("catalog", "altered stream name=%s options=%d", al->name->name, al->options.n);
    restart_readers(ctx, al->name->name);
    return 0;
}

/* A trigger change may not cross between micro-batches and CONTINUOUS
 * epochs: their checkpoints record batches differently. */
static int check_trigger_change(const ast_create_query_t *cq, const ast_alter_t *al,
                                sl_error_t *err)
{
    int was = cq->trigger == AST_TRIGGER_CONTINUOUS, now = al->trigger == AST_TRIGGER_CONTINUOUS;
    if (was == now) return 0;
    stmt_error_at(err, al->trigger_pos, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                  "the trigger of query \"%s\" cannot change %s TRIGGER CONTINUOUS", al->name->name,
                  was ? "from" : "to");
    return sl_error_hint(err, "Create the query again on a new checkpoint to change between "
                              "micro-batches and continuous processing.");
}

static char *splice_trigger(stmt_ctx_t *ctx, const char *src, const ast_create_query_t *cq,
                            const ast_alter_t *al)
{
    const char *text = alter_text(ctx, al->trigger_pos, al->trigger_end);
    text_edit_t e = {cq->trigger_pos, cq->trigger_end, text};
    if (!cq->trigger_end) /* no TRIGGER clause yet: clauses may come in any order */
        e = (text_edit_t){cq->name->end, cq->name->end, sl_printf(ctx->arena, " %s", text)};
    return apply_edits(ctx->arena, src, &e, 1);
}

static int alter_query(stmt_ctx_t *ctx, const ast_alter_t *al, sl_error_t *err)
{
    const char *old_sql;
    const ast_stmt_t *s = stored_stmt(ctx, al->name, CAT_QUERY, &old_sql, err);
    if (!s) return -1;
    const ast_create_query_t *cq = &s->create_query;
    char *sql;
    if (al->trigger) {
        if (check_trigger_change(cq, al, err) < 0) return -1;
        sql = splice_trigger(ctx, old_sql, cq, al);
    } else {
        const conn_desc_t *d = conn_lookup(cq->sink ? cq->sink->name : "memory", CONN_SINK, err);
        if (!d || check_alterable(d, "sink", al->name->name, &al->options, ctx->arena, err) < 0)
            return -1;
        sql = splice_options(ctx, old_sql, &cq->sink_options, &al->options, cq->sink->end, " ");
    }
    qplan_t plan;
    if (qplan_from_text(ctx->srv, sql, ctx->arena, &plan, err) < 0) return -1;
    if (ctx->describe_only) return 0;
    if (cat_set_sql(ctx->srv->cat, al->name->name, sql, err) < 0 ||
        qm_set_sql(ctx->srv->qm, al->name->name, sql, err) < 0)
        return -1;
    SL_INFO("catalog", "altered query name=%s %s", al->name->name,
            al->trigger ? "trigger" : "sink options");
    return qm_restart(ctx->srv->qm, al->name->name, err) < 0 ? -1 : 0;
}

STMT_HANDLER(stmt_alter)
{
    const ast_alter_t *al = &stmt->alter;
    int stream = al->object == AST_OBJ_STREAM;
    stmt_result_command(res, stream ? "ALTER STREAM" : "ALTER QUERY");
    if (!al->trigger && al->options.n == 0)
        return stmt_error_at(err, al->name->end, SL_ERR_SYNTAX_ERROR,
                             "SET OPTIONS needs at least one option");
    return stream ? alter_stream(ctx, al, err) : alter_query(ctx, al, err);
}
