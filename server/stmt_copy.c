/* COPY: options as PostgreSQL's ProcessCopyOptions checks them, then
 *  - COPY table|(query) TO STDOUT: the rows of `SELECT cols FROM table` or
 *    of the query (an ad-hoc SELECT: static tables, query result tables,
 *    whatever SELECT reads), each encoded as one text or CSV line of a
 *    COPY_OUT result that the connection sends as CopyData;
 *  - COPY table [(cols)] FROM STDIN: a COPY_IN result holding the load
 *    (server/copy_in.h) that the connection feeds with the client's data;
 *    the load takes the table store's write lock first, in the session's
 *    transaction, so that a busy outcome runs the statement again before
 *    the client was asked for data.
 * Server files and programs are refused as PostgreSQL refuses them to a
 * role without pg_read/write_server_files (42501): \copy and STDIN/STDOUT
 * do the same from the client's side. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "exec/stage.h"
#include "planner/physical.h"
#include "server/copy_in.h"
#include "server/objects.h"
#include "server/stmt_int.h"

typedef struct copy_plan {
    copy_opts_t opts;
    const ast_copy_opt_t *format, *header, *delimiter, *null, *quote, *escape, *encoding, *freeze,
        *force_quote, *force_not_null, *force_null;
} copy_plan_t;

/* ---- options -------------------------------------------------------------------- */

/* An option error without a position: as in PostgreSQL, only unknown,
 * repeated and format options point into the statement. */
static int opt_error(sl_error_t *err, const char *sqlstate, const char *msg)
{
    return sl_error_set(err, sqlstate, "%s", msg);
}

/* The slot of a known option name, or NULL. */
static const ast_copy_opt_t **opt_slot(copy_plan_t *cp, const char *name)
{
    static const struct {
        const char *name;
        size_t off;
    } slots[] = {
        {"format", offsetof(copy_plan_t, format)},
        {"header", offsetof(copy_plan_t, header)},
        {"delimiter", offsetof(copy_plan_t, delimiter)},
        {"null", offsetof(copy_plan_t, null)},
        {"quote", offsetof(copy_plan_t, quote)},
        {"escape", offsetof(copy_plan_t, escape)},
        {"encoding", offsetof(copy_plan_t, encoding)},
        {"freeze", offsetof(copy_plan_t, freeze)},
        {"force_quote", offsetof(copy_plan_t, force_quote)},
        {"force_not_null", offsetof(copy_plan_t, force_not_null)},
        {"force_null", offsetof(copy_plan_t, force_null)},
    };
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++)
        if (!strcmp(slots[i].name, name))
            return (const ast_copy_opt_t **)((char *)cp + slots[i].off);
    return NULL;
}

/* Sorts the written options into their slots. */
static int collect_options(const ast_copy_opt_list_t *l, copy_plan_t *cp, sl_error_t *err)
{
    for (int i = 0; i < l->n; i++) {
        const ast_copy_opt_t *o = l->items[i];
        const ast_copy_opt_t **slot = opt_slot(cp, o->name);
        if (!slot)
            return stmt_error_at(err, o->pos, SL_ERR_SYNTAX_ERROR, "option \"%s\" not recognized",
                                 o->name);
        if (*slot)
            return stmt_error_at(err, o->pos, SL_ERR_SYNTAX_ERROR,
                                 "conflicting or redundant options");
        *slot = o;
    }
    return 0;
}

/* PostgreSQL's boolean words; -1 when `v` is none of them. */
static int bool_word(const char *v)
{
    static const char *const yes[] = {"true", "on", "1", "yes", "t", "y"};
    static const char *const no[] = {"false", "off", "0", "no", "f", "n"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        if (!strcasecmp(v, yes[i])) return 1;
        if (!strcasecmp(v, no[i])) return 0;
    }
    return -1;
}

static int read_format(copy_plan_t *cp, sl_error_t *err)
{
    const ast_copy_opt_t *o = cp->format;
    copy_fmt_t fmt = COPY_FMT_TEXT;
    if (o && (!o->value || o->star || o->has_cols))
        return stmt_error_at(err, o->pos, SL_ERR_SYNTAX_ERROR, "format requires a parameter");
    if (o && !strcasecmp(o->value, "csv")) fmt = COPY_FMT_CSV;
    else if (o && !strcasecmp(o->value, "binary")) {
        stmt_error_at(err, o->pos, SL_ERR_FEATURE_NOT_SUPPORTED,
                      "COPY format \"binary\" is not supported");
        return sl_error_hint(err, "Use FORMAT text or FORMAT csv.");
    } else if (o && strcasecmp(o->value, "text"))
        return stmt_error_at(err, o->pos, SL_ERR_INVALID_PARAMETER_VALUE,
                             "COPY format \"%s\" not recognized", o->value);
    copy_opts_default(&cp->opts, fmt);
    return 0;
}

static int read_header(copy_plan_t *cp, int from, sl_error_t *err)
{
    const ast_copy_opt_t *o = cp->header;
    if (!o) return 0;
    int b = o->value ? bool_word(o->value) : 1;
    if (b < 0 && o->value && !strcasecmp(o->value, "match")) {
        if (!from)
            return opt_error(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                             "cannot use \"match\" with HEADER in COPY TO");
        cp->opts.header = COPY_HEADER_MATCH;
        return 0;
    }
    if (b < 0 || o->star || o->has_cols)
        return opt_error(err, SL_ERR_SYNTAX_ERROR, "header requires a Boolean value or \"match\"");
    cp->opts.header = b ? COPY_HEADER_TRUE : COPY_HEADER_NONE;
    return 0;
}

/* A one-byte character option (DELIMITER, QUOTE, ESCAPE); `what` names it. */
static int read_char(const ast_copy_opt_t *o, const char *what, char *out, sl_error_t *err)
{
    if (!o) return 0;
    if (!o->value || o->star || o->has_cols)
        return sl_error_set(err, SL_ERR_SYNTAX_ERROR, "%s requires a parameter", o->name);
    if (strlen(o->value) != 1)
        return sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                            "COPY %s must be a single one-byte character", what);
    *out = o->value[0];
    return 0;
}

static int read_strings(copy_plan_t *cp, sl_error_t *err)
{
    copy_opts_t *x = &cp->opts;
    if (read_char(cp->delimiter, "delimiter", &x->delim, err) < 0 ||
        read_char(cp->quote, "quote", &x->quote, err) < 0)
        return -1;
    if (cp->quote && !cp->escape) x->escape = x->quote;
    if (read_char(cp->escape, "escape", &x->escape, err) < 0) return -1;
    const ast_copy_opt_t *o = cp->null;
    if (o && (!o->value || o->star || o->has_cols))
        return opt_error(err, SL_ERR_SYNTAX_ERROR, "null requires a parameter");
    if (o) {
        x->null_str = o->value;
        x->null_len = strlen(o->value);
    }
    if (cp->freeze && cp->freeze->value && bool_word(cp->freeze->value) < 0)
        return opt_error(err, SL_ERR_INVALID_PARAMETER_VALUE, "freeze requires a Boolean value");
    return 0;
}

static int read_encoding(const copy_plan_t *cp, sl_error_t *err)
{
    const ast_copy_opt_t *o = cp->encoding;
    if (!o) return 0;
    if (!o->value) return opt_error(err, SL_ERR_SYNTAX_ERROR, "encoding requires a parameter");
    if (!strcasecmp(o->value, "utf8") || !strcasecmp(o->value, "utf-8") ||
        !strcasecmp(o->value, "unicode"))
        return 0;
    sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED, "COPY encoding \"%s\" is not supported",
                 o->value);
    return sl_error_hint(err, "sluice reads and writes UTF8 only.");
}

/* The mode rules of ProcessCopyOptions, in its order. */
static int check_modes(const copy_plan_t *cp, int from, sl_error_t *err)
{
    int csv = cp->opts.fmt == COPY_FMT_CSV;
    const copy_opts_t *x = &cp->opts;
    if (x->delim == '\n' || x->delim == '\r')
        return opt_error(err, SL_ERR_INVALID_PARAMETER_VALUE,
                         "COPY delimiter cannot be newline or carriage return");
    if (memchr(x->null_str, '\n', x->null_len) || memchr(x->null_str, '\r', x->null_len))
        return opt_error(err, SL_ERR_INVALID_PARAMETER_VALUE,
                         "COPY null representation cannot use newline or carriage return");
    if (!csv && strchr("\\.abcdefghijklmnopqrstuvwxyz0123456789", x->delim))
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "COPY delimiter cannot be \"%c\"",
                            x->delim);
    if (!csv && cp->quote)
        return opt_error(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                         "COPY quote available only in CSV mode");
    if (csv && x->delim == x->quote)
        return opt_error(err, SL_ERR_INVALID_PARAMETER_VALUE,
                         "COPY delimiter and quote must be different");
    if (!csv && cp->escape)
        return opt_error(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                         "COPY escape available only in CSV mode");
    if (cp->force_quote && !csv)
        return opt_error(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                         "COPY force quote available only in CSV mode");
    if (cp->force_quote && from)
        return opt_error(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                         "COPY force quote only available using COPY TO");
    if (cp->force_not_null && !csv)
        return opt_error(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                         "COPY force not null available only in CSV mode");
    if (cp->force_not_null && !from)
        return opt_error(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                         "COPY force not null only available using COPY FROM");
    if (cp->force_null && !csv)
        return opt_error(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                         "COPY force null available only in CSV mode");
    if (cp->force_null && !from)
        return opt_error(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                         "COPY force null only available using COPY FROM");
    if (memchr(x->null_str, x->delim, x->null_len))
        return opt_error(err, SL_ERR_INVALID_PARAMETER_VALUE,
                         "COPY delimiter must not appear in the NULL specification");
    if (csv && memchr(x->null_str, x->quote, x->null_len))
        return opt_error(err, SL_ERR_INVALID_PARAMETER_VALUE,
                         "CSV quote character must not appear in the NULL specification");
    return 0;
}

static int plan_options(const ast_copy_t *c, copy_plan_t *cp, sl_error_t *err)
{
    memset(cp, 0, sizeof *cp);
    if (collect_options(&c->options, cp, err) < 0 || read_format(cp, err) < 0 ||
        read_header(cp, c->from, err) < 0 || read_strings(cp, err) < 0 ||
        read_encoding(cp, err) < 0)
        return -1;
    const ast_copy_opt_t *lists[] = {cp->force_quote, cp->force_not_null, cp->force_null};
    for (int i = 0; i < 3; i++)
        if (lists[i] && !lists[i]->has_cols && !(i == 0 && lists[i]->star))
            return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                                "argument to option \"%s\" must be a list of column names",
                                lists[i]->name);
    return check_modes(cp, c->from, err);
}

/* The error for a FORCE_* column outside the copied ones, as PostgreSQL
 * words it: 42P10 for a column of the table left out, else 42703. */
static int column_error(const plan_relation_t *rel, const char *label, const char *name,
                        sl_error_t *err)
{
    if (rel && plan_relation_column(rel, name) >= 0)
        return sl_error_set(err, SL_ERR_INVALID_COLUMN_REFERENCE,
                            "%s column \"%s\" not referenced by COPY", label, name);
    if (rel)
        return sl_error_set(err, SL_ERR_UNDEFINED_COLUMN,
                            "column \"%s\" of relation \"%s\" does not exist", name,
                            rel->stream.name);
    return sl_error_set(err, SL_ERR_UNDEFINED_COLUMN, "column \"%s\" does not exist", name);
}

/* Per-column flags of a FORCE_* option: flags[i] for the i-th of `names`
 * (columns of `rel`, or of a query when rel is NULL). */
static int column_flags(stmt_ctx_t *ctx, const ast_copy_opt_t *o, const char *label, int n,
                        const char *const *names, const plan_relation_t *rel, unsigned char **flags,
                        sl_error_t *err)
{
    *flags = NULL;
    if (!o) return 0;
    *flags = SL_NEW_ARRAY(ctx->arena, unsigned char, n > 0 ? n : 1);
    if (o->star) memset(*flags, 1, (size_t)n);
    for (int k = 0; k < o->cols.n; k++) {
        const ast_ident_t *id = o->cols.items[k];
        int found = -1;
        for (int i = 0; i < n && found < 0; i++)
            if (!strcmp(names[i], id->name)) found = i;
        if (found < 0) return column_error(rel, label, id->name, err);
        (*flags)[found] = 1;
    }
    return 0;
}

/* PostgreSQL points at no part of a COPY for errors about its table and
 * columns. Returns -1. */
static int no_position(sl_error_t *err)
{
    err->position = 0;
    return -1;
}

/* ---- the target ------------------------------------------------------------------- */

static int check_target(const ast_copy_t *c, sl_error_t *err)
{
    if (c->target == AST_COPY_CLIENT) return 0;
    if (c->target == AST_COPY_PROGRAM)
        sl_error_set(err, SL_ERR_INSUFFICIENT_PRIVILEGE,
                     "must be superuser or have privileges of the pg_execute_server_program role "
                     "to COPY to or from an external program");
    else if (c->from)
        sl_error_set(
            err, SL_ERR_INSUFFICIENT_PRIVILEGE,
            "must be superuser or have privileges of the pg_read_server_files role to COPY "
            "from a file");
    else
        sl_error_set(
            err, SL_ERR_INSUFFICIENT_PRIVILEGE,
            "must be superuser or have privileges of the pg_write_server_files role to COPY "
            "to a file");
    return sl_error_hint(err, "Anyone can COPY to stdout or from stdin. psql's \\copy command also "
                              "works for anyone.");
}

/* A schema prefix names the one schema tables live in. */
static int check_schema(const ast_copy_t *c, sl_error_t *err)
{
    if (!c->schema || !strcmp(c->schema->name, "public")) return 0;
    return stmt_error_at(err, c->schema->pos, SL_ERR_UNDEFINED_TABLE,
                         "relation \"%s.%s\" does not exist", c->schema->name, c->table->name);
}

/* ---- COPY ... TO STDOUT ------------------------------------------------------------ */

static ast_expr_t *column_ref(stmt_ctx_t *ctx, ast_ident_t *id)
{
    ast_expr_t *e = SL_NEW(ctx->arena, ast_expr_t);
    e->kind = AST_EXPR_COLUMN;
    e->pos = id->pos;
    e->end = id->end;
    e->height = 1;
    e->names.n = 1;
    e->names.items = SL_NEW_ARRAY(ctx->arena, ast_ident_t *, 1);
    e->names.items[0] = id;
    return e;
}

/* SELECT cols|* FROM [schema.]table, positioned at the COPY's names. */
static ast_select_t *table_query(stmt_ctx_t *ctx, const ast_copy_t *c)
{
    ast_select_t *q = SL_NEW(ctx->arena, ast_select_t);
    q->kind = AST_SELECT_SIMPLE;
    q->pos = c->table->pos;
    q->end = c->table->end;
    ast_from_t *f = SL_NEW(ctx->arena, ast_from_t);
    f->kind = AST_FROM_TABLE;
    f->schema = c->schema;
    f->name = c->table;
    f->pos = c->schema ? c->schema->pos : c->table->pos;
    f->end = c->table->end;
    q->from.n = 1;
    q->from.items = SL_NEW_ARRAY(ctx->arena, ast_from_t *, 1);
    q->from.items[0] = f;
    int n = c->columns.n ? c->columns.n : 1;
    q->items.n = n;
    q->items.items = SL_NEW_ARRAY(ctx->arena, ast_select_item_t *, n);
    for (int i = 0; i < n; i++) {
        ast_select_item_t *it = SL_NEW(ctx->arena, ast_select_item_t);
        if (c->columns.n) it->expr = column_ref(ctx, c->columns.items[i]);
        else it->star = 1;
        it->pos = c->columns.n ? c->columns.items[i]->pos : c->table->pos;
        it->end = c->columns.n ? c->columns.items[i]->end : c->table->end;
        q->items.items[i] = it;
    }
    return q;
}

/* Appends one line (uint32be length + bytes) to a COPY_OUT result. */
static void put_line(sess_result_t *res, const sl_buf_t *line)
{
    sl_buf_put_u32be(&res->rows, (uint32_t)line->len);
    sl_buf_append(&res->rows, line->data, line->len);
}

/* The HEADER line: the output column names, encoded like values. */
static void put_header(stmt_ctx_t *ctx, const copy_plan_t *cp, const plan_physical_t *p,
                       sess_result_t *res)
{
    size_t *lens = SL_NEW_ARRAY(ctx->arena, size_t, p->ncols > 0 ? p->ncols : 1);
    for (int i = 0; i < p->ncols; i++) lens[i] = strlen(p->names[i]);
    sl_buf_t line = SL_BUF_INIT;
    copy_encode_row(&cp->opts, p->ncols, (const char *const *)p->names, lens, NULL, &line);
    put_line(res, &line);
    sl_buf_free(&line);
}

/* Encodes the result rows as lines; cells are the PostgreSQL text forms. */
static void encode_lines(stmt_ctx_t *ctx, const copy_plan_t *cp, const exec_result_t *r, int ncols,
                         const unsigned char *force, sess_result_t *res)
{
    const char **vals = SL_NEW_ARRAY(ctx->arena, const char *, ncols > 0 ? ncols : 1);
    size_t *lens = SL_NEW_ARRAY(ctx->arena, size_t, ncols > 0 ? ncols : 1);
    size_t *starts = SL_NEW_ARRAY(ctx->arena, size_t, ncols > 0 ? ncols : 1);
    sl_buf_t cells = SL_BUF_INIT, line = SL_BUF_INIT;
    for (int bi = 0; bi < r->nbatches; bi++) {
        const exec_batch_t *b = r->batches[bi];
        for (uint32_t k = 0; k < exec_batch_count(b); k++) {
            uint32_t row = exec_batch_row(b, k);
            sl_buf_clear(&cells);
            for (int c = 0; c < ncols; c++) {
                size_t at = cells.len;
                vals[c] = exec_vec_text(&b->cols[c], row, &cells) ? "" : NULL;
                starts[c] = at;
                lens[c] = cells.len - at;
            }
            for (int c = 0; c < ncols; c++)
                if (vals[c]) vals[c] = cells.data ? cells.data + starts[c] : "";
            sl_buf_clear(&line);
            copy_encode_row(&cp->opts, ncols, vals, lens, force, &line);
            put_line(res, &line);
            res->nrows++;
        }
    }
    sl_buf_free(&cells);
    sl_buf_free(&line);
}

static int copy_to(stmt_ctx_t *ctx, const ast_stmt_t *stmt, const copy_plan_t *cp,
                   sess_result_t *res, sl_error_t *err)
{
    const ast_copy_t *c = &stmt->copy;
    plan_physical_t *p = stmt_plan_select(ctx, c->query ? c->query : table_query(ctx, c), err);
    if (!p) return c->query ? -1 : no_position(err);
    unsigned char *force;
    plan_relation_t rel;
    sl_error_t ignored;
    int have_rel = c->table && cp->force_quote &&
                   obj_lookup(ctx->srv->cat, c->table->name, ctx->arena, &rel, &ignored) == 1;
    if (column_flags(ctx, cp->force_quote, "FORCE_QUOTE", p->ncols, (const char *const *)p->names,
                     have_rel ? &rel : NULL, &force, err) < 0)
        return -1;
    if (ctx->describe_only) {
        stmt_result_command(res, "COPY");
        return 0;
    }
    exec_result_t r;
    if (stmt_run_plan(ctx, p, &r, err) < 0) return -1;
    res->kind = SESS_RES_COPY_OUT;
    res->ncols = p->ncols;
    if (cp->opts.header) put_header(ctx, cp, p, res);
    encode_lines(ctx, cp, &r, p->ncols, force, res);
    exec_result_free(&r);
    snprintf(res->tag, sizeof res->tag, "COPY %llu", (unsigned long long)res->nrows);
    return 0;
}

/* ---- COPY ... FROM STDIN ------------------------------------------------------------- */

/* target[i] = the table column of the i-th listed column (all when none). */
static int load_targets(stmt_ctx_t *ctx, const ast_copy_t *c, const plan_relation_t *rel,
                        int **target, const char ***names, sl_error_t *err)
{
    int n = c->columns.n ? c->columns.n : rel->stream.ncols;
    *target = SL_NEW_ARRAY(ctx->arena, int, n > 0 ? n : 1);
    *names = SL_NEW_ARRAY(ctx->arena, const char *, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) {
        int col = i;
        if (c->columns.n) {
            const ast_ident_t *id = c->columns.items[i];
            if ((col = plan_relation_column(rel, id->name)) < 0)
                return stmt_error_at(err, id->pos, SL_ERR_UNDEFINED_COLUMN,
                                     "column \"%s\" of relation \"%s\" does not exist", id->name,
                                     rel->stream.name);
            for (int j = 0; j < i; j++)
                if ((*target)[j] == col)
                    return stmt_error_at(err, id->pos, SL_ERR_DUPLICATE_COLUMN,
                                         "column \"%s\" specified more than once", id->name);
        }
        (*target)[i] = col;
        (*names)[i] = rel->stream.col_names[col];
    }
    return n;
}

static int copy_from(stmt_ctx_t *ctx, const ast_stmt_t *stmt, const copy_plan_t *cp,
                     sess_result_t *res, sl_error_t *err)
{
    const ast_copy_t *c = &stmt->copy;
    plan_relation_t rel;
    if (check_schema(c, err) < 0 || stmt_writable_table(ctx, c->table, "copy to", &rel, err) < 0)
        return no_position(err);
    int *target;
    const char **names;
    int n = load_targets(ctx, c, &rel, &target, &names, err);
    if (n < 0) return no_position(err);
    copy_in_spec_t spec = {
        .table = rel.stream.name, .nfields = n, .target = target, .opts = cp->opts};
    unsigned char *fnn, *fn;
    if (column_flags(ctx, cp->force_not_null, "FORCE_NOT_NULL", n, names, &rel, &fnn, err) < 0 ||
        column_flags(ctx, cp->force_null, "FORCE_NULL", n, names, &rel, &fn, err) < 0)
        return -1;
    spec.force_not_null = fnn;
    spec.force_null = fn;
    if (ctx->describe_only) {
        stmt_result_command(res, "COPY");
        return 0;
    }
    if (!(res->copy_in = copy_in_new(ctx->srv, ctx->sess, &spec, err))) return -1;
    res->kind = SESS_RES_COPY_IN;
    res->ncols = n;
    return 0;
}

STMT_HANDLER(stmt_copy)
{
    const ast_copy_t *c = &stmt->copy;
    copy_plan_t cp;
    if (check_target(c, err) < 0 || plan_options(c, &cp, err) < 0) return -1;
    return c->from ? copy_from(ctx, stmt, &cp, res, err) : copy_to(ctx, stmt, &cp, res, err);
}
