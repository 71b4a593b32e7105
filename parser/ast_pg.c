/* Tree builders for the syntax PostgreSQL clients send in their catalog
 * queries: the regular expression matches ~ ~* !~ !~* (also spelled
 * OPERATOR(pg_catalog.~)), x = ANY (array), a[i], expr COLLATE name,
 * pg_catalog-qualified and array type names in casts, and set-returning
 * functions in FROM, and window function calls (f(...) OVER (...)). */
#include <string.h>

#include "parse_int.h"

/* Which match a REGEX token spells. */
static ast_op_t regex_op(parse_ctx_t *c, const parse_token_t *t)
{
    const char *z = c->sql + t->pos;
    int neg = z[0] == '!', icase = z[t->len - 1] == '*';
    return neg ? (icase ? AST_OP_NIREGEX : AST_OP_NREGEX) : (icase ? AST_OP_IREGEX : AST_OP_REGEX);
}

ast_expr_t *pb_regex(parse_ctx_t *c, const ast_ident_t *schema, const parse_token_t *op,
                     ast_expr_t *l, ast_expr_t *r)
{
    ast_expr_t *e = pb_binary(c, regex_op(c, op), l, r);
    if (schema) PB_ADD(c, e->names, (ast_ident_t *)schema); /* checked by the binder */
    return e;
}

ast_expr_t *pb_any(parse_ctx_t *c, ast_expr_t *x, ast_expr_t *array, const parse_token_t *rp)
{
    ast_ident_list_t name = {0, NULL};
    PB_ADD(c, name, pb_ident_make(c, (char *)"array_contains", 0, x->pos, x->pos));
    ast_expr_list_t args = {0, NULL};
    PB_ADD(c, args, array);
    PB_ADD(c, args, x);
    ast_expr_t *e = pb_func(c, name, args, 0, 0, rp);
    e->pos = x->pos;
    return e;
}

ast_expr_t *pb_collate(parse_ctx_t *c, ast_expr_t *e, ast_ident_list_t name)
{
    ast_expr_t *x = pb_expr(c, AST_EXPR_COLLATE, e->pos, name.items[name.n - 1]->end);
    x->arg = e;
    x->names = name;
    pb_set_height(c, x, e->height);
    return x;
}

ast_type_t *pb_qualified_type(parse_ctx_t *c, const ast_ident_t *schema, const ast_ident_t *name)
{
    ast_type_t *t = pb_type(c, name->name, name->quoted, name->pos, name->end);
    t->schema = (ast_ident_t *)schema; /* checked by the binder */
    return t;
}

ast_expr_t *pb_subscript(parse_ctx_t *c, ast_expr_t *a, ast_expr_t *index, const parse_token_t *rb)
{
    ast_ident_list_t f = {0, NULL};
    PB_ADD(c, f, pb_ident_make(c, (char *)"element_at", 0, a->pos, a->pos));
    ast_expr_list_t args = {0, NULL};
    PB_ADD(c, args, a);
    PB_ADD(c, args, index);
    return pb_func(c, f, args, 0, 0, rb);
}

ast_type_t *pb_array_type(parse_ctx_t *c, const ast_ident_t *schema, const ast_ident_t *name,
                          const parse_token_t *rb)
{
    ast_type_t *t = schema ? pb_qualified_type(c, schema, name)
                           : pb_type(c, name->name, name->quoted, name->pos, name->end);
    t->name = sl_printf(c->a, "%s[]", name->name);
    t->end = pb_tok_end(rb);
    return t;
}

ast_from_t *pb_from_function(parse_ctx_t *c, const ast_ident_t *schema, ast_ident_t *name,
                             ast_expr_list_t args, const pb_alias_t *alias)
{
    ast_from_t *f = pb_from(c, AST_FROM_FUNCTION, schema ? schema->pos : name->pos, c->prev_end);
    f->schema = (ast_ident_t *)schema; /* checked by the binder */
    f->name = name;
    f->func_args = args;
    f->alias = alias->name;
    f->alias_cols = alias->cols;
    return f;
}

ast_window_t *pb_window(parse_ctx_t *c, ast_ident_t *ref, ast_expr_list_t p, ast_sort_list_t o,
                        const ast_frame_t *frame)
{
    ast_window_t *w = SL_NEW(c->a, ast_window_t);
    w->ref = ref;
    w->partition = p;
    w->order = o;
    w->frame = *frame;
    return w;
}

ast_expr_t *pb_over(parse_ctx_t *c, ast_expr_t *f, ast_window_t *w, const parse_token_t *lp,
                    const parse_token_t *rp)
{
    (void)c;
    w->pos = lp->pos;
    w->end = pb_tok_end(rp);
    f->over = w;
    f->end = w->end;
    return f;
}

ast_expr_t *pb_over_name(parse_ctx_t *c, ast_expr_t *f, ast_ident_t *name)
{
    ast_window_t *w = SL_NEW(c->a, ast_window_t);
    w->ref = name;
    w->ref_only = 1;
    w->pos = name->pos;
    w->end = name->end;
    f->over = w;
    f->end = w->end;
    return f;
}

ast_expr_t *pb_filter(parse_ctx_t *c, ast_expr_t *f, ast_expr_t *cond, const parse_token_t *rp)
{
    (void)c;
    f->filter = cond;
    f->end = pb_tok_end(rp);
    return f;
}

ast_window_def_t *pb_window_def(parse_ctx_t *c, ast_ident_t *name, ast_window_t *w,
                                const parse_token_t *lp, const parse_token_t *rp)
{
    ast_window_def_t *d = SL_NEW(c->a, ast_window_def_t);
    w->pos = lp->pos;
    w->end = pb_tok_end(rp);
    d->name = name;
    d->window = w;
    return d;
}
