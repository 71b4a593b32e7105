/* SQL-level prepared statements: PREPARE, EXECUTE and DEALLOCATE over the
 * session's list of server/prepared.h, which the extended protocol's Parse,
 * Bind and Close use too. PREPARE describes its statement as Parse does
 * (syntax and binding errors come at PREPARE); EXECUTE evaluates its
 * arguments as a SELECT of them, then runs the prepared text with them as
 * its $n, and answers with the executed statement's result and tag.
 * Messages and SQLSTATEs are PostgreSQL's (prepare.c). */
#include <stdlib.h>
#include <string.h>

#include "server/prepared.h"
#include "server/stmt_int.h"

#define STMT_EXECUTE_DEPTH_MAX 16 /* EXECUTE of a statement that is an EXECUTE ... */

static int no_such_statement(sl_error_t *err, const char *name)
{
    return sl_error_set(err, SL_ERR_INVALID_SQL_STATEMENT_NAME,
                        "prepared statement \"%s\" does not exist", name);
}

/* The one statement of a prepared text (it parsed before, as part of a
 * PREPARE or by Parse). */
static const ast_stmt_t *parse_prepared(stmt_ctx_t *ctx, const char *sql, size_t len,
                                        int *max_param, sl_error_t *err)
{
    ast_stmt_list_t list;
    if (parse_sql(sql, len, ctx->arena, &list, err) < 0) return NULL;
    if (list.n != 1) {
        sl_error_set(err, SL_ERR_SYNTAX_ERROR,
                     "cannot insert multiple commands into a prepared statement");
        return NULL;
    }
    *max_param = list.max_param;
    return list.items[0];
}

/* A context running the prepared text `sql` with `n` parameters, whose
 * values go into *vals and *lens (NULL values until set). */
static stmt_ctx_t sub_context(const stmt_ctx_t *ctx, const char *sql, size_t len, int n,
                              const char ***vals, int **lens)
{
    stmt_ctx_t sub = *ctx;
    sub.sql = sql;
    sub.len = len;
    sub.nparams = n;
    *vals = SL_NEW_ARRAY(ctx->arena, const char *, n + 1);
    *lens = SL_NEW_ARRAY(ctx->arena, int, n + 1);
    sub.params = *vals;
    sub.param_lens = *lens;
    sub.param_types = NULL;
    sub.param_inferred = NULL;
    sub.await_query = NULL;
    sub.exec_depth = ctx->exec_depth + 1;
    return sub;
}

/* ---- PREPARE ---------------------------------------------------------------------- */

/* The OIDs of the declared types, `n` entries (0 after the declared ones). */
static uint32_t *declared_types(stmt_ctx_t *ctx, const ast_type_list_t *types, int n,
                                sl_error_t *err)
{
    uint32_t *oids = SL_NEW_ARRAY(ctx->arena, uint32_t, n + 1);
    for (int i = 0; i < types->n; i++) {
        const ast_type_t *t = types->items[i];
        exec_type_t et;
        if (exec_type_parse(ctx->sql + t->pos, (size_t)(t->end - t->pos), ctx->arena, &et, err) <
            0) {
            bind_error_at(err, t->pos);
            return NULL;
        }
        oids[i] = exec_type_pg(et).oid;
    }
    return oids;
}

/* The new list entry from what describing the statement learnt; the
 * catalog shows the whole PREPARE, as PostgreSQL does. */
static prep_stmt_t *prepared_entry(const stmt_ctx_t *ctx, const ast_stmt_t *stmt, const char *sql,
                                   size_t len, const stmt_ctx_t *sub,
                                   const sess_result_t *described)
{
    const ast_prepared_t *p = &stmt->prepared;
    prep_stmt_t *s = prep_new(p->name->name, sql, len, p->types.n);
    int n = sub->nparams;
    memcpy(s->types, sub->param_types, sizeof *s->types * (size_t)p->types.n);
    free(s->statement);
    s->statement = sl_xstrndup(ctx->sql + stmt->pos, (size_t)(stmt->end - stmt->pos));
    s->nparams = n;
    s->inferred = sl_xcalloc((size_t)n + 1, sizeof *s->inferred);
    for (int i = 0; i < n; i++)
        if (sub->param_inferred[i].id != EXEC_TYPE_NULL)
            s->inferred[i] = exec_type_pg(sub->param_inferred[i]).oid;
    s->ncols = -1;
    if (described->kind == SESS_RES_ROWS) prep_keep_columns(s, described->ncols, described->cols);
    s->from_sql = 1;
    return s;
}

STMT_HANDLER(stmt_prepare)
{
    const ast_prepared_t *p = &stmt->prepared;
    stmt_result_command(res, "PREPARE");
    if (ctx->describe_only) return 0;
    prep_list_t *l = sess_prepared(ctx->sess);
    if (prep_find(l, p->name->name))
        return sl_error_set(err, SL_ERR_DUPLICATE_PSTATEMENT,
                            "prepared statement \"%s\" already exists", p->name->name);
    const char *sql = ctx->sql + p->stmt->pos;
    size_t len = (size_t)(stmt->end - p->stmt->pos);
    int max_param = 0;
    const ast_stmt_t *inner = parse_prepared(ctx, sql, len, &max_param, err);
    if (!inner) return -1;
    int n = max_param > p->types.n ? max_param : p->types.n;
    const char **vals;
    int *lens;
    stmt_ctx_t sub = sub_context(ctx, sql, len, n, &vals, &lens);
    sub.describe_only = 1;
    uint32_t *types = declared_types(ctx, &p->types, n, err);
    if (!types) return -1;
    sub.param_types = types;
    sub.param_inferred = SL_NEW_ARRAY(ctx->arena, exec_type_t, n + 1);
    sess_result_t *described = SL_NEW(ctx->arena, sess_result_t);
    int rc = stmt_execute(&sub, inner, described, err);
    sl_buf_free(&described->rows);
    if (rc < 0) {
        if (err->position > 0)
            err->position += p->stmt->pos; /* the text is a part of the PREPARE's */
        return -1;
    }
    prep_add(l, prepared_entry(ctx, stmt, sql, len, &sub, described));
    return 0;
}

/* ---- EXECUTE ---------------------------------------------------------------------- */

/* Evaluates the arguments as `SELECT arg, ...` into text values. */
static int eval_args(stmt_ctx_t *ctx, const ast_expr_list_t *args, const char **vals, int *lens,
                     sl_error_t *err)
{
    if (args->n == 0) return 0;
    ast_select_t *q = SL_NEW(ctx->arena, ast_select_t);
    q->kind = AST_SELECT_SIMPLE;
    q->items.n = args->n;
    q->items.items = SL_NEW_ARRAY(ctx->arena, ast_select_item_t *, args->n);
    for (int i = 0; i < args->n; i++) {
        ast_select_item_t *it = q->items.items[i] = SL_NEW(ctx->arena, ast_select_item_t);
        it->expr = args->items[i];
        it->pos = args->items[i]->pos;
        it->end = args->items[i]->end;
    }
    ast_stmt_t sel = {.kind = AST_STMT_SELECT, .select = q};
    sess_result_t *r = SL_NEW(ctx->arena, sess_result_t);
    if (stmt_select(ctx, &sel, r, err) < 0) {
        sl_buf_free(&r->rows);
        return -1;
    }
    if (r->nrows != 1) {
        sl_buf_free(&r->rows);
        return sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                            "set-returning functions are not allowed in EXECUTE parameters");
    }
    const char *row = r->rows.data + 2; /* one DataRow body: count, then length + bytes each */
    for (int i = 0; i < args->n; i++) {
        int32_t n = (int32_t)sl_get_u32be(row);
        row += 4;
        if (n < 0) continue;
        vals[i] = sl_strndup(ctx->arena, row, (size_t)n);
        lens[i] = n;
        row += n;
    }
    sl_buf_free(&r->rows);
    return 0;
}

/* The declared parameter types of a prepared statement, `n` entries. */
static const uint32_t *entry_types(stmt_ctx_t *ctx, const prep_stmt_t *s)
{
    uint32_t *t = SL_NEW_ARRAY(ctx->arena, uint32_t, s->nparams + 1);
    memcpy(t, s->types, sizeof *t * (size_t)(s->ntypes < s->nparams ? s->ntypes : s->nparams));
    return t;
}

static int check_execute(stmt_ctx_t *ctx, const ast_prepared_t *p, const prep_stmt_t *s,
                         sl_error_t *err)
{
    if (!s) return no_such_statement(err, p->name->name);
    if (ctx->exec_depth >= STMT_EXECUTE_DEPTH_MAX)
        return sl_error_set(err, SL_ERR_STATEMENT_TOO_COMPLEX, "stack depth limit exceeded");
    if (p->args.n == s->nparams) return 0;
    sl_error_set(err, SL_ERR_SYNTAX_ERROR,
                 "wrong number of parameters for prepared statement \"%s\"", p->name->name);
    return sl_error_detail(err, "Expected %d parameters but got %d.", s->nparams, p->args.n);
}

STMT_HANDLER(stmt_execute_prepared)
{
    const ast_prepared_t *p = &stmt->prepared;
    const prep_stmt_t *s = prep_find(sess_prepared(ctx->sess), p->name->name);
    if (check_execute(ctx, p, s, err) < 0) return -1;
    /* the statement may drop itself (a Parse'd DEALLOCATE): copy what runs */
    size_t len = s->len;
    const char *sql = sl_strndup(ctx->arena, s->sql, len);
    const char **vals;
    int *lens;
    stmt_ctx_t sub = sub_context(ctx, sql, len, s->nparams, &vals, &lens);
    sub.param_types = entry_types(ctx, s);
    if (ctx->describe_only)
        sub.param_inferred = SL_NEW_ARRAY(ctx->arena, exec_type_t, s->nparams + 1);
    else if (eval_args(ctx, &p->args, vals, lens, err) < 0) return -1;
    int max_param;
    const ast_stmt_t *inner = parse_prepared(ctx, sql, len, &max_param, err);
    if (!inner) return -1;
    if (stmt_execute(&sub, inner, res, err) < 0) {
        err->position = 0; /* a place in the prepared text, not in this one */
        return -1;
    }
    ctx->await_query = sub.await_query;
    ctx->await_timeout_ms = sub.await_timeout_ms;
    return 0;
}

/* ---- DEALLOCATE ------------------------------------------------------------------- */

STMT_HANDLER(stmt_deallocate)
{
    const ast_ident_t *name = stmt->prepared.name;
    stmt_result_command(res, name ? "DEALLOCATE" : "DEALLOCATE ALL");
    if (ctx->describe_only) return 0;
    prep_list_t *l = sess_prepared(ctx->sess);
    if (!name) prep_drop_named(l);
    else if (prep_drop(l, name->name) < 0) return no_such_statement(err, name->name);
    return 0;
}
