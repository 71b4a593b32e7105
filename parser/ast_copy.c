/* Tree builders of the COPY statement (grammar.y's COPY block): the
 * statement node and its options, with the old option words (CSV, BINARY,
 * FORCE QUOTE, ...) spelled as PostgreSQL's new option names. */
#include <string.h>

#include "parse_int.h"

ast_stmt_t *pb_copy(parse_ctx_t *c, const parse_token_t *kw, const ast_ident_list_t *rel,
                    ast_select_t *q, int from, const pb_copy_target_t *t, ast_copy_opt_list_t opts)
{
    ast_stmt_t *s = pb_stmt(c, AST_STMT_COPY, kw->pos);
    ast_copy_t *cp = &s->copy;
    cp->from = from;
    cp->query = q;
    cp->target = t->kind;
    cp->file = t->file;
    cp->target_pos = t->pos;
    cp->options = opts;
    if (!rel) return s;
    if (rel->n > 2)
        pb_error_at(c, rel->items[0]->pos, "improper qualified name (too many dotted names): %s",
                    pb_join_dotted(c, rel));
    cp->table = rel->items[rel->n - 1];
    if (rel->n == 2) cp->schema = rel->items[0];
    return s;
}

ast_copy_opt_t *pb_copy_opt(parse_ctx_t *c, const char *name, int pos, const parse_token_t *val)
{
    ast_copy_opt_t *o = SL_NEW(c->a, ast_copy_opt_t);
    o->name = sl_strdup(c->a, name);
    o->pos = pos;
    o->end = val ? pb_tok_end(val) : c->prev_end;
    if (val) o->value = (char *)val->text;
    return o;
}

ast_copy_opt_t *pb_copy_old_word(parse_ctx_t *c, const ast_ident_t *word)
{
    ast_copy_opt_t *o = pb_copy_opt(c, word->name, word->pos, NULL);
    o->end = word->end;
    if (!word->quoted && (!strcmp(word->name, "csv") || !strcmp(word->name, "binary"))) {
        o->value = o->name;
        o->name = "format";
    }
    return o;
}

ast_copy_opt_t *pb_copy_force(parse_ctx_t *c, const parse_token_t *kw, const ast_ident_t *word)
{
    if (word->quoted || strcmp(word->name, "quote"))
        pb_error_at(c, word->pos, "syntax error at or near \"%s\"", word->name);
    return pb_copy_opt(c, "force_quote", kw->pos, NULL);
}
