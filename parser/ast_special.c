/* Builders for SQL's keyword-separated function arguments, which the
 * grammar accepts after any function name (`f(x FROM y)`), so that
 * substring, extract, trim and position stay ordinary identifiers: each
 * builder checks that the function takes the form and rewrites the call
 * into the catalogue's positional one, as Spark's parser does:
 *
 *   substring(s FROM a [FOR b])         substring(s, a[, b])   (also substr)
 *   extract(field FROM x)               extract('field', x)
 *   trim(chars FROM s)                  btrim(s, chars)
 *   trim(BOTH [chars] FROM s)           btrim(s[, chars])
 *   trim(LEADING [chars] FROM s)        ltrim([chars, ]s)      (Spark's order)
 *   trim(TRAILING [chars] FROM s)       rtrim([chars, ]s)
 *   position(sub IN s)                  position(sub, s)
 *
 * Any other name is a syntax error at the keyword, as in PostgreSQL. Named
 * arguments, struct(x AS name, ...), are Spark's struct-only form: in any
 * other call the AS is a syntax error. */
#include <string.h>

#include "parser/parse_int.h"

/* The called name when unqualified and unquoted, else "". */
static const char *plain_name(const ast_ident_list_t *name)
{
    const ast_ident_t *id = name->items[name->n - 1];
    return name->n == 1 && !id->quoted ? id->name : "";
}

/* A call of `fname` (source range of the whole form) with n arguments. */
static ast_expr_t *call(parse_ctx_t *c, const ast_ident_list_t *name, const char *fname,
                        const parse_token_t *rp, int n, ast_expr_t **args)
{
    ast_expr_list_t l = {0, NULL};
    for (int i = 0; i < n; i++) PB_ADD(c, l, args[i]);
    ast_ident_list_t fn = {0, NULL};
    const ast_ident_t *id = name->items[0];
    PB_ADD(c, fn, pb_ident_make(c, (char *)fname, 0, id->pos, id->end));
    return pb_func(c, fn, l, 0, 0, rp);
}

/* extract's field: a bare word (YEAR, dow, ...) or a string, as a string literal. */
static ast_expr_t *extract_field(parse_ctx_t *c, ast_expr_t *f)
{
    if (f->kind == AST_EXPR_LITERAL && f->lit == AST_LIT_STRING) return f;
    if (f->kind != AST_EXPR_COLUMN || f->names.n != 1) {
        pb_error_at(c, f->pos, "syntax error at or near \"%.*s\"", f->end - f->pos,
                    c->sql + f->pos);
        return f;
    }
    ast_expr_t *s = pb_expr(c, AST_EXPR_LITERAL, f->pos, f->end);
    s->lit = AST_LIT_STRING;
    s->text = f->names.items[0]->name;
    return s;
}

ast_expr_t *pb_func_from(parse_ctx_t *c, ast_ident_list_t name, ast_expr_t *s,
                         const parse_token_t *from, ast_expr_t *a, const parse_token_t *for_kw,
                         ast_expr_t *b, const parse_token_t *rp)
{
    const char *f = plain_name(&name);
    if (!strcmp(f, "substring") || !strcmp(f, "substr")) {
        ast_expr_t *args[3] = {s, a, b};
        return call(c, &name, f, rp, b ? 3 : 2, args);
    }
    if (for_kw) {
        pb_syntax_error(c, for_kw);
    } else if (!strcmp(f, "extract")) {
        ast_expr_t *args[2] = {extract_field(c, s), a};
        return call(c, &name, "extract", rp, 2, args);
    } else if (!strcmp(f, "trim")) {
        ast_expr_t *args[2] = {a, s};
        return call(c, &name, "btrim", rp, 2, args);
    } else {
        pb_syntax_error(c, from);
    }
    return s;
}

ast_expr_t *pb_func_trim(parse_ctx_t *c, ast_ident_list_t name, const parse_token_t *side,
                         ast_expr_t *chars, ast_expr_t *s, const parse_token_t *rp)
{
    if (strcmp(plain_name(&name), "trim")) {
        pb_syntax_error(c, side);
        return s;
    }
    const char *w = side->text;
    if (!strcmp(w, "both")) {
        ast_expr_t *args[2] = {s, chars};
        return call(c, &name, "btrim", rp, chars ? 2 : 1, args);
    }
    ast_expr_t *args[2] = {chars ? chars : s, s};
    return call(c, &name, !strcmp(w, "leading") ? "ltrim" : "rtrim", rp, chars ? 2 : 1, args);
}

ast_expr_t *pb_func_position(parse_ctx_t *c, ast_ident_list_t name, ast_expr_t *sub, ast_expr_t *s,
                             const parse_token_t *rp)
{
    ast_expr_t *args[2] = {sub, s};
    return call(c, &name, "position", rp, 2, args);
}

ast_expr_t *pb_func_args(parse_ctx_t *c, ast_ident_list_t name, ast_expr_list_t args,
                         const parse_token_t *rp)
{
    if (strcmp(plain_name(&name), "struct"))
        for (int i = 0; i < args.n; i++)
            if (args.items[i]->alias) {
                pb_error_at(c, args.items[i]->alias_at, "syntax error at or near \"AS\"");
                break;
            }
    return pb_func(c, name, args, 0, 0, rp);
}
