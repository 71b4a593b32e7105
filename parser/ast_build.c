/* Tree builders called by the grammar actions (grammar.y): allocate nodes in
 * the parse arena, compute source ranges, apply the few syntax-level checks
 * that are easier here than in the grammar (nesting depth, duplicate
 * CREATE QUERY clauses, repeated ORDER BY/LIMIT/OFFSET), and collect the
 * finished statements. */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "parser/parse_int.h"

/* ---- lists and identifiers ------------------------------------------------ */

/* Capacities are implicit: 4, then every power of two. */
void pb_list_add(parse_ctx_t *c, pb_list_t *l, void *item)
{
    int n = l->n;
    if (n == 0) {
        l->items = sl_alloc(c->a, 4 * sizeof(void *));
    } else if (n >= 4 && (n & (n - 1)) == 0) {
        l->items = sl_arena_realloc(c->a, l->items, (size_t)n * sizeof(void *),
                                    (size_t)n * 2 * sizeof(void *));
    }
    l->items[n] = item;
    l->n = n + 1;
}

int pb_tok_end(const parse_token_t *t)
{
    return t->pos + t->len;
}

ast_ident_t *pb_ident_make(parse_ctx_t *c, char *name, int quoted, int pos, int end)
{
    ast_ident_t *id = SL_NEW(c->a, ast_ident_t);
    id->name = name;
    id->quoted = quoted;
    id->pos = pos;
    id->end = end;
    return id;
}

ast_ident_t *pb_ident(parse_ctx_t *c, const parse_token_t *t)
{
    return pb_ident_make(c, (char *)(t->text ? t->text : ""), t->quoted, t->pos, pb_tok_end(t));
}

char *pb_join_dotted(parse_ctx_t *c, const ast_ident_list_t *parts)
{
    if (parts->n == 1) return parts->items[0]->name;
    size_t len = 0;
    for (int i = 0; i < parts->n; i++) len += strlen(parts->items[i]->name) + 1;
    char *s = sl_alloc(c->a, len), *p = s;
    for (int i = 0; i < parts->n; i++) {
        size_t n = strlen(parts->items[i]->name);
        memcpy(p, parts->items[i]->name, n);
        p += n;
        *p++ = '.';
    }
    p[-1] = '\0';
    return s;
}

/* ---- expressions ------------------------------------------------------------ */

/* Tree heights are kept in a side field so that deep trees fail early. */
static int height_of(const ast_expr_t *e)
{
    return e ? e->height : 0;
}

void pb_set_height(parse_ctx_t *c, ast_expr_t *e, int child_height)
{
    e->height = child_height + 1;
    if (e->height > PARSE_MAX_DEPTH && !c->failed) {
        c->failed = 1;
        sl_error_set(c->err, SL_ERR_PROGRAM_LIMIT_EXCEEDED, "expression is too deeply nested");
        sl_error_hint(c->err, "Expressions may nest at most %d levels.", PARSE_MAX_DEPTH);
        c->err->position = parse_char_position(c->sql, c->len, (size_t)e->pos);
    }
}

ast_expr_t *pb_expr(parse_ctx_t *c, ast_expr_kind_t kind, int pos, int end)
{
    ast_expr_t *e = SL_NEW(c->a, ast_expr_t);
    e->kind = kind;
    e->pos = pos;
    e->end = end;
    e->height = 1;
    return e;
}

ast_expr_t *pb_literal(parse_ctx_t *c, ast_lit_kind_t lit, const parse_token_t *t)
{
    ast_expr_t *e = pb_expr(c, AST_EXPR_LITERAL, t->pos, pb_tok_end(t));
    e->lit = lit;
    if (lit != AST_LIT_NULL) e->text = (char *)t->text;
    return e;
}

ast_expr_t *pb_typed_literal(parse_ctx_t *c, ast_lit_kind_t lit, const parse_token_t *kw,
                             const parse_token_t *val, const parse_token_t *unit)
{
    ast_expr_t *e = pb_expr(c, AST_EXPR_LITERAL, kw->pos, pb_tok_end(unit ? unit : val));
    e->lit = lit;
    e->text = (char *)val->text;
    if (unit) e->unit = (char *)unit->text;
    return e;
}

ast_expr_t *pb_param(parse_ctx_t *c, const parse_token_t *t)
{
    ast_expr_t *e = pb_expr(c, AST_EXPR_PARAM, t->pos, pb_tok_end(t));
    e->param = atoi(t->text); /* the tokenizer bounds it */
    if (e->param > c->max_param) c->max_param = e->param;
    return e;
}

ast_expr_t *pb_column(parse_ctx_t *c, ast_ident_list_t parts)
{
    ast_expr_t *e = pb_expr(c, AST_EXPR_COLUMN, parts.items[0]->pos, parts.items[parts.n - 1]->end);
    e->names = parts;
    return e;
}

/* -<number> folds into a negative literal, as PostgreSQL's doNegate() does,
 * so that -9223372036854775808 is one BIGINT literal. */
ast_expr_t *pb_unary(parse_ctx_t *c, ast_op_t op, const parse_token_t *optok, ast_expr_t *arg)
{
    if (op == AST_OP_NEG && arg->kind == AST_EXPR_LITERAL &&
        (arg->lit == AST_LIT_INTEGER || arg->lit == AST_LIT_NUMERIC)) {
        const char *t = arg->text;
        arg->text = t[0] == '-' ? (char *)t + 1 : sl_printf(c->a, "-%s", t);
        arg->pos = optok->pos;
        return arg;
    }
    ast_expr_t *e = pb_expr(c, AST_EXPR_UNARY, optok->pos, arg->end);
    e->op = op;
    e->arg = arg;
    pb_set_height(c, e, arg->height);
    return e;
}

ast_expr_t *pb_binary(parse_ctx_t *c, ast_op_t op, ast_expr_t *l, ast_expr_t *r)
{
    ast_expr_t *e = pb_expr(c, AST_EXPR_BINARY, l->pos, r->end);
    e->op = op;
    e->left = l;
    e->right = r;
    pb_set_height(c, e, l->height > r->height ? l->height : r->height);
    return e;
}

ast_expr_t *pb_is(parse_ctx_t *c, ast_expr_t *arg, ast_is_t what, int negated,
                  const parse_token_t *last)
{
    ast_expr_t *e = pb_expr(c, AST_EXPR_IS, arg->pos, pb_tok_end(last));
    e->arg = arg;
    e->is_what = what;
    e->negated = negated;
    pb_set_height(c, e, arg->height);
    return e;
}

static int list_height(const ast_expr_list_t *l)
{
    int h = 0;
    for (int i = 0; i < l->n; i++)
        if (l->items[i]->height > h) h = l->items[i]->height;
    return h;
}

ast_expr_t *pb_in(parse_ctx_t *c, ast_expr_t *arg, ast_expr_list_t list, int negated,
                  const parse_token_t *rp)
{
    ast_expr_t *e = pb_expr(c, AST_EXPR_IN, arg->pos, pb_tok_end(rp));
    e->arg = arg;
    e->list = list;
    e->negated = negated;
    int h = list_height(&list);
    pb_set_height(c, e, arg->height > h ? arg->height : h);
    return e;
}

static int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

ast_expr_t *pb_between(parse_ctx_t *c, ast_expr_t *arg, ast_expr_t *lo, ast_expr_t *hi, int negated)
{
    ast_expr_t *e = pb_expr(c, AST_EXPR_BETWEEN, arg->pos, hi->end);
    e->arg = arg;
    e->lo = lo;
    e->hi = hi;
    e->negated = negated;
    pb_set_height(c, e, max3(arg->height, lo->height, hi->height));
    return e;
}

ast_expr_t *pb_in_query(parse_ctx_t *c, ast_expr_t *arg, ast_select_t *q, int negated)
{
    ast_expr_t *e = pb_expr(c, AST_EXPR_IN, arg->pos, q->end);
    e->arg = arg;
    e->query = q;
    e->negated = negated;
    pb_set_height(c, e, arg->height);
    return e;
}

ast_expr_t *pb_like(parse_ctx_t *c, ast_expr_t *arg, ast_expr_t *pat, ast_expr_t *esc, int negated,
                    int icase)
{
    ast_expr_t *e = pb_expr(c, AST_EXPR_LIKE, arg->pos, esc ? esc->end : pat->end);
    e->arg = arg;
    e->pattern = pat;
    e->escape = esc;
    e->negated = negated;
    e->icase = icase;
    pb_set_height(c, e, max3(arg->height, pat->height, height_of(esc)));
    return e;
}

ast_expr_t *pb_subquery(parse_ctx_t *c, ast_expr_kind_t kind, const parse_token_t *kw,
                        ast_select_t *q)
{
    ast_expr_t *e = pb_expr(c, kind, kw ? kw->pos : q->pos, q->end);
    e->query = q;
    return e;
}

ast_expr_t *pb_cast(parse_ctx_t *c, ast_expr_t *arg, ast_type_t *type, int syntax, int pos, int end)
{
    ast_expr_t *e = pb_expr(c, AST_EXPR_CAST, pos, end);
    e->arg = arg;
    e->type = type;
    e->cast_syntax = syntax;
    pb_set_height(c, e, arg->height);
    return e;
}

ast_expr_t *pb_func(parse_ctx_t *c, ast_ident_list_t name, ast_expr_list_t args, int distinct,
                    int star, const parse_token_t *rp)
{
    ast_expr_t *e = pb_expr(c, AST_EXPR_FUNC, name.items[0]->pos, pb_tok_end(rp));
    e->name = name.items[name.n - 1];
    if (name.n > 1) {
        e->names = name;
        e->names.n--; /* the qualifier: every part but the last */
    }
    e->args = args;
    e->distinct = distinct;
    e->star = star;
    pb_set_height(c, e, list_height(&args));
    return e;
}

ast_expr_t *pb_field(parse_ctx_t *c, ast_expr_t *arg, ast_ident_t *field)
{
    ast_expr_t *e = pb_expr(c, AST_EXPR_FIELD, arg->pos, field->end);
    e->arg = arg;
    e->field = field;
    pb_set_height(c, e, arg->height);
    return e;
}

ast_expr_t *pb_case(parse_ctx_t *c, const parse_token_t *kw, ast_expr_t *arg, ast_when_list_t whens,
                    ast_expr_t *else_expr, const parse_token_t *endtok)
{
    ast_expr_t *e = pb_expr(c, AST_EXPR_CASE, kw->pos, pb_tok_end(endtok));
    e->arg = arg;
    e->whens = whens;
    e->else_expr = else_expr;
    int h = max3(height_of(arg), height_of(else_expr), 0);
    for (int i = 0; i < whens.n; i++)
        h = max3(h, whens.items[i]->cond->height, whens.items[i]->result->height);
    pb_set_height(c, e, h);
    return e;
}

ast_expr_t *pb_paren(ast_expr_t *e, const parse_token_t *lp, const parse_token_t *rp)
{
    e->pos = lp->pos;
    e->end = pb_tok_end(rp);
    return e;
}

/* ---- types, options, watermarks ------------------------------------------- */

ast_type_t *pb_type(parse_ctx_t *c, const char *name, int quoted, int pos, int end)
{
    ast_type_t *t = SL_NEW(c->a, ast_type_t);
    t->name = (char *)name;
    t->quoted = quoted;
    t->pos = pos;
    t->end = end;
    return t;
}

ast_option_t *pb_option(parse_ctx_t *c, char *key, int key_quoted, int pos,
                        const parse_token_t *val, ast_optval_kind_t kind,
                        const parse_token_t *minus)
{
    ast_option_t *o = SL_NEW(c->a, ast_option_t);
    o->key = key;
    o->key_quoted = key_quoted;
    o->kind = kind;
    o->value = (char *)val->text;
    if (minus) o->value = sl_printf(c->a, "-%s", val->text);
    o->pos = pos;
    o->end = pb_tok_end(val);
    return o;
}

ast_watermark_t *pb_watermark(parse_ctx_t *c, const parse_token_t *kw, ast_expr_t *col,
                              ast_expr_t *delay)
{
    ast_watermark_t *w = SL_NEW(c->a, ast_watermark_t);
    w->column = col;
    w->delay = delay;
    w->pos = kw->pos;
    w->end = delay->end;
    return w;
}

/* ---- selects and FROM items ------------------------------------------------- */

ast_select_t *pb_select(parse_ctx_t *c, ast_select_kind_t kind, int pos)
{
    ast_select_t *q = SL_NEW(c->a, ast_select_t);
    q->kind = kind;
    q->pos = pos;
    q->end = pos;
    return q;
}

/* A union arm that is itself a union of the same kind, written without
 * parentheses, is flattened into its parent. */
static int flattens_into(const ast_select_t *arm, int all)
{
    return arm->kind == AST_SELECT_UNION && arm->union_all == all && arm->order_by.n == 0 &&
           !arm->limit && !arm->offset;
}

ast_select_t *pb_union(parse_ctx_t *c, ast_select_t *l, ast_select_t *r, int all)
{
    ast_select_t *u;
    if (flattens_into(l, all)) {
        u = l;
    } else {
        u = pb_select(c, AST_SELECT_UNION, l->pos);
        u->union_all = all;
        PB_ADD(c, u->arms, l);
    }
    PB_ADD(c, u->arms, r);
    u->end = r->end;
    return u;
}

ast_select_t *pb_select_tail(parse_ctx_t *c, ast_select_t *q, ast_sort_list_t order, int order_pos,
                             pb_limit_t lim, int end)
{
    if (order.n) {
        if (q->order_by.n) pb_error_at(c, order_pos, "multiple ORDER BY clauses not allowed");
        q->order_by = order;
    }
    if (lim.has_limit) {
        if (q->limit) pb_error_at(c, lim.limit_pos, "multiple LIMIT clauses not allowed");
        q->limit = lim.limit;
    }
    if (lim.has_offset) {
        if (q->offset) pb_error_at(c, lim.offset_pos, "multiple OFFSET clauses not allowed");
        q->offset = lim.offset;
    }
    if (order.n || lim.has_limit || lim.has_offset) q->end = end;
    return q;
}

ast_from_t *pb_from(parse_ctx_t *c, ast_from_kind_t kind, int pos, int end)
{
    ast_from_t *f = SL_NEW(c->a, ast_from_t);
    f->kind = kind;
    f->pos = pos;
    f->end = end;
    return f;
}

ast_cte_t *pb_cte(parse_ctx_t *c, ast_ident_t *name, const ast_ident_list_t *cols, ast_select_t *q)
{
    ast_cte_t *t = SL_NEW(c->a, ast_cte_t);
    t->name = name;
    if (cols) t->cols = *cols;
    t->query = q;
    t->pos = name->pos;
    t->end = q->end;
    return t;
}

ast_select_t *pb_with(parse_ctx_t *c, const parse_token_t *kw, ast_cte_list_t ctes, ast_select_t *q)
{
    if (q->with.n) pb_error_at(c, kw->pos, "multiple WITH clauses not allowed");
    q->with = ctes;
    q->pos = kw->pos;
    return q;
}

/* ---- statements --------------------------------------------------------------- */

ast_stmt_t *pb_stmt(parse_ctx_t *c, ast_stmt_kind_t kind, int pos)
{
    ast_stmt_t *s = SL_NEW(c->a, ast_stmt_t);
    s->kind = kind;
    s->pos = pos;
    s->end = pos;
    return s;
}

ast_stmt_t *pb_prepare(parse_ctx_t *c, int pos, ast_ident_t *name, const ast_type_list_t *types,
                       ast_stmt_t *stmt)
{
    ast_stmt_t *s = pb_stmt(c, AST_STMT_PREPARE, pos);
    s->prepared.name = name;
    s->prepared.types = *types;
    s->prepared.stmt = stmt;
    if (stmt->kind != AST_STMT_SELECT && stmt->kind != AST_STMT_INSERT &&
        stmt->kind != AST_STMT_DELETE) {
        int n = 0;
        while ((size_t)(stmt->pos + n) < c->len &&
               (isalnum((unsigned char)c->sql[stmt->pos + n]) || c->sql[stmt->pos + n] == '_'))
            n++;
        pb_error_at(c, stmt->pos, "syntax error at or near \"%.*s\"", n, c->sql + stmt->pos);
    }
    return s;
}

void pb_add_stmt(parse_ctx_t *c, ast_stmt_t *s)
{
    if (c->failed) return;
    s->start = c->stmt_start;
    s->end = c->prev_end;
    PB_ADD(c, *c->out, s);
}

int pb_qclause_dup(parse_ctx_t *c, int already, const char *clause, const parse_token_t *kw)
{
    if (!already) return 0;
    pb_error_at(c, kw->pos, "%s clause specified more than once", clause);
    return 1;
}

output_mode_t pb_output_mode(parse_ctx_t *c, const ast_ident_t *word)
{
    static const char *const names[] = {"append", "update", "complete"};
    for (int i = 0; i < 3; i++)
        if (!word->quoted && !strcmp(word->name, names[i]))
            return (output_mode_t)(OUTPUT_APPEND + i);
    if (!c->failed) {
        pb_error_at(c, word->pos, "unrecognized output mode \"%s\"", word->name);
        sl_error_hint(c->err, "Output modes are append, update and complete.");
    }
    return 0; /* no mode */
}

void pb_txn_merge(ast_txn_stmt_t *into, const ast_txn_stmt_t *m)
{
    if (m->isolation) into->isolation = m->isolation;
    if (m->read_only) into->read_only = m->read_only;
    if (m->deferrable) into->deferrable = m->deferrable;
}
