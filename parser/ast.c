/* AST kind names and the deterministic S-expression dumper (ast_dump_*).
 *
 * Dump format, one line, no positions:
 *   identifiers  name, or "Name" when quoted; strings 'it''s'
 *   literals     (int 5) (num 1.5) (str 'x') (bool true) null
 *                (timestamp '..') (date '..') (interval '1' hour)
 *   expressions  (col t a) $1 (func count *) (func f distinct e..)
 *                (cast e type) (case [arg] (when c r).. [(else e)])
 *                (+ a b) (and a b) (not e) (- e) (is-null e) (is-not-true e)
 *                (is-distinct-from a b) (in e x..) (in e (select ..)) (not-between e lo hi)
 *                (not-ilike e p [esc]) (field e name) (subquery q) (exists q)
 *   selects      [(with (cte name [(cols c..)] q)..) ](select [distinct|(distinct-on e.. [within-watermark])]
 *                  (items e (as e name) * t.*) [(from f..)] [(where e)]
 *                  [(group e..)] [(having e)] [(windows (name (over ..))..)]
 *                  [(order (sort e [desc] [nulls-first])..)]
 *                  [(limit e)] [(offset e)])
 *                (values (e..)..) (union-all q q..) (union q q..)
 *   FROM items   (table [schema.]name [(alias a [c..])] [(watermark col delay)])
 *                (subquery q (alias a [c..]) ..)
 *                (join [natural-]inner|left|right|full|cross l r [(on e)] [(using c..)])
 *   statements   (create-stream ...), (create-query ...), (show queries), ... see dump_stmt. */
#include <ctype.h>
#include <string.h>

#include "parser/ast.h"

static const char *const stmt_names[] = {
#define X(k, s) s,
    AST_STMT_KINDS(X)
#undef X
};

static const char *const expr_names[] = {
#define X(k, s) s,
    AST_EXPR_KINDS(X)
#undef X
};

static const char *const op_names[] = {
#define X(k, s) s,
    AST_OPS(X)
#undef X
};

const char *ast_stmt_kind_name(ast_stmt_kind_t kind)
{
    return (unsigned)kind < AST_STMT__COUNT ? stmt_names[kind] : "?";
}

const char *ast_expr_kind_name(ast_expr_kind_t kind)
{
    return (unsigned)kind < AST_EXPR__COUNT ? expr_names[kind] : "?";
}

const char *ast_op_name(ast_op_t op)
{
    return (unsigned)op < AST_OP__COUNT ? op_names[op] : "?";
}

/* ---- atoms --------------------------------------------------------------------- */

/* SQL quoting (the quote doubled); control characters and backslashes are
 * written as \xHH and \\ so that a dump stays on one line. */
static void put_quoted(sl_buf_t *b, const char *s, char q)
{
    sl_buf_putc(b, q);
    for (; *s; s++) {
        if (*s == q) sl_buf_putc(b, q);
        if ((unsigned char)*s < 0x20 || *s == 0x7f) sl_buf_printf(b, "\\x%02x", (unsigned char)*s);
        else if (*s == '\\') sl_buf_puts(b, "\\\\");
        else sl_buf_putc(b, *s);
    }
    sl_buf_putc(b, q);
}

static void put_ident(sl_buf_t *b, const ast_ident_t *id)
{
    if (!id) sl_buf_puts(b, "?");
    else if (id->quoted) put_quoted(b, id->name, '"');
    else sl_buf_puts(b, id->name);
}

static void put_idents(sl_buf_t *b, const ast_ident_list_t *l, const char *sep)
{
    for (int i = 0; i < l->n; i++) {
        if (i) sl_buf_puts(b, sep);
        put_ident(b, l->items[i]);
    }
}

/* The operator's SQL spelling in lower case, spaces as '-'. */
static void put_op(sl_buf_t *b, ast_op_t op)
{
    for (const char *p = ast_op_name(op); *p; p++)
        sl_buf_putc(b, *p == ' ' ? '-' : (char)tolower((unsigned char)*p));
}

static void put_type(sl_buf_t *b, const ast_type_t *t)
{
    if (t->quoted) put_quoted(b, t->name, '"');
    else sl_buf_puts(b, t->name);
    if (t->nmods == 1) sl_buf_printf(b, "(%ld)", t->mods[0]);
    if (t->nmods == 2) sl_buf_printf(b, "(%ld,%ld)", t->mods[0], t->mods[1]);
    if (t->fields.n == 0) return;
    sl_buf_putc(b, '<');
    for (int i = 0; i < t->fields.n; i++) {
        if (i) sl_buf_putc(b, ',');
        put_ident(b, t->fields.items[i]->name);
        sl_buf_putc(b, ':');
        put_type(b, t->fields.items[i]->type);
    }
    sl_buf_putc(b, '>');
}

/* ---- expressions ---------------------------------------------------------------- */

static void dump_list(sl_buf_t *b, const ast_expr_list_t *l)
{
    for (int i = 0; i < l->n; i++) {
        sl_buf_putc(b, ' ');
        ast_dump_expr(b, l->items[i]);
    }
}

static void dump_literal(sl_buf_t *b, const ast_expr_t *e)
{
    static const char *const tags[] = {
        [AST_LIT_BOOL] = "bool",           [AST_LIT_INTEGER] = "int",
        [AST_LIT_NUMERIC] = "num",         [AST_LIT_STRING] = "str",
        [AST_LIT_TIMESTAMP] = "timestamp", [AST_LIT_DATE] = "date",
        [AST_LIT_INTERVAL] = "interval",
    };
    if (e->lit == AST_LIT_NULL) {
        sl_buf_puts(b, "null");
        return;
    }
    sl_buf_printf(b, "(%s ", tags[e->lit]);
    if (e->lit == AST_LIT_INTEGER || e->lit == AST_LIT_NUMERIC || e->lit == AST_LIT_BOOL)
        sl_buf_puts(b, e->text);
    else put_quoted(b, e->text, '\'');
    if (e->unit) sl_buf_printf(b, " %s", e->unit);
    sl_buf_putc(b, ')');
}

static void dump_order(sl_buf_t *b, const ast_sort_list_t *l);

static void dump_bound(sl_buf_t *b, const ast_frame_bound_t *f)
{
    static const char *const kinds[] = {"unbounded-preceding", "preceding", "current-row",
                                        "following", "unbounded-following"};
    sl_buf_printf(b, " (%s", kinds[f->kind]);
    if (f->offset) {
        sl_buf_putc(b, ' ');
        ast_dump_expr(b, f->offset);
    }
    sl_buf_putc(b, ')');
}

/* (rows|range (start-bound) (end-bound)) */
static void dump_frame(sl_buf_t *b, const ast_frame_t *f)
{
    sl_buf_puts(b, f->unit == AST_FRAME_ROWS ? " (rows" : " (range");
    dump_bound(b, &f->start);
    dump_bound(b, &f->end);
    sl_buf_putc(b, ')');
}

/* (over [name] [(partition e..)] [(order ..)] [(rows|range ..)]) of a window
 * function call or a WINDOW clause's definition. */
static void dump_over(sl_buf_t *b, const ast_window_t *w)
{
    sl_buf_puts(b, " (over");
    if (w->ref) {
        sl_buf_putc(b, ' ');
        put_ident(b, w->ref);
    }
    if (w->partition.n) {
        sl_buf_puts(b, " (partition");
        dump_list(b, &w->partition);
        sl_buf_putc(b, ')');
    }
    dump_order(b, &w->order);
    if (w->frame.unit != AST_FRAME_NONE) dump_frame(b, &w->frame);
    sl_buf_putc(b, ')');
}

static void dump_func(sl_buf_t *b, const ast_expr_t *e)
{
    sl_buf_puts(b, "(func ");
    put_idents(b, &e->names, ".");
    if (e->names.n) sl_buf_putc(b, '.');
    put_ident(b, e->name);
    if (e->star) sl_buf_puts(b, " *");
    if (e->distinct) sl_buf_puts(b, " distinct");
    for (int i = 0; i < e->args.n; i++) { /* struct(x AS name): (as x name) */
        const ast_expr_t *x = e->args.items[i];
        sl_buf_puts(b, x->alias ? " (as " : " ");
        ast_dump_expr(b, x);
        if (!x->alias) continue;
        sl_buf_putc(b, ' ');
        put_ident(b, x->alias);
        sl_buf_putc(b, ')');
    }
    if (e->filter) {
        sl_buf_puts(b, " (filter ");
        ast_dump_expr(b, e->filter);
        sl_buf_putc(b, ')');
    }
    if (e->over) dump_over(b, e->over);
    sl_buf_putc(b, ')');
}

static void dump_case(sl_buf_t *b, const ast_expr_t *e)
{
    sl_buf_puts(b, "(case");
    if (e->arg) {
        sl_buf_putc(b, ' ');
        ast_dump_expr(b, e->arg);
    }
    for (int i = 0; i < e->whens.n; i++) {
        sl_buf_puts(b, " (when ");
        ast_dump_expr(b, e->whens.items[i]->cond);
        sl_buf_putc(b, ' ');
        ast_dump_expr(b, e->whens.items[i]->result);
        sl_buf_putc(b, ')');
    }
    if (e->else_expr) {
        sl_buf_puts(b, " (else ");
        ast_dump_expr(b, e->else_expr);
        sl_buf_putc(b, ')');
    }
    sl_buf_putc(b, ')');
}

/* (tag arg [extra...]) for IS, IN, BETWEEN, LIKE, with not- when negated. */
static void dump_predicate(sl_buf_t *b, const ast_expr_t *e)
{
    static const char *const is_names[] = {
        [AST_IS_NULL] = "null", [AST_IS_TRUE] = "true", [AST_IS_FALSE] = "false"};
    sl_buf_putc(b, '(');
    if (e->kind == AST_EXPR_IS) sl_buf_puts(b, e->negated ? "is-not-" : "is-");
    else if (e->negated) sl_buf_puts(b, "not-");
    switch (e->kind) {
    case AST_EXPR_IS: sl_buf_puts(b, is_names[e->is_what]); break;
    case AST_EXPR_IN: sl_buf_puts(b, "in"); break;
    case AST_EXPR_BETWEEN: sl_buf_puts(b, "between"); break;
    default: sl_buf_puts(b, e->icase ? "ilike" : "like"); break;
    }
    sl_buf_putc(b, ' ');
    ast_dump_expr(b, e->arg);
    if (e->kind == AST_EXPR_IN) dump_list(b, &e->list);
    if (e->query) {
        sl_buf_putc(b, ' ');
        ast_dump_select(b, e->query);
    }
    const ast_expr_t *extra[2] = {e->kind == AST_EXPR_BETWEEN ? e->lo : e->pattern,
                                  e->kind == AST_EXPR_BETWEEN ? e->hi : e->escape};
    for (int i = 0; i < 2 && e->kind != AST_EXPR_IS && e->kind != AST_EXPR_IN; i++) {
        if (!extra[i]) continue;
        sl_buf_putc(b, ' ');
        ast_dump_expr(b, extra[i]);
    }
    sl_buf_putc(b, ')');
}

static void dump_operator(sl_buf_t *b, const ast_expr_t *e)
{
    sl_buf_putc(b, '(');
    put_op(b, e->op);
    sl_buf_putc(b, ' ');
    if (e->kind == AST_EXPR_UNARY) {
        ast_dump_expr(b, e->arg);
    } else {
        ast_dump_expr(b, e->left);
        sl_buf_putc(b, ' ');
        ast_dump_expr(b, e->right);
    }
    sl_buf_putc(b, ')');
}

void ast_dump_expr(sl_buf_t *b, const ast_expr_t *e)
{
    if (!e) {
        sl_buf_puts(b, "?");
        return;
    }
    switch (e->kind) {
    case AST_EXPR_LITERAL: dump_literal(b, e); break;
    case AST_EXPR_COLUMN:
        sl_buf_puts(b, "(col ");
        put_idents(b, &e->names, " ");
        sl_buf_putc(b, ')');
        break;
    case AST_EXPR_PARAM: sl_buf_printf(b, "$%d", e->param); break;
    case AST_EXPR_FUNC: dump_func(b, e); break;
    case AST_EXPR_CAST:
        sl_buf_puts(b, "(cast ");
        ast_dump_expr(b, e->arg);
        sl_buf_putc(b, ' ');
        put_type(b, e->type);
        sl_buf_putc(b, ')');
        break;
    case AST_EXPR_CASE: dump_case(b, e); break;
    case AST_EXPR_UNARY:
    case AST_EXPR_BINARY: dump_operator(b, e); break;
    case AST_EXPR_FIELD:
        sl_buf_puts(b, "(field ");
        ast_dump_expr(b, e->arg);
        sl_buf_putc(b, ' ');
        put_ident(b, e->field);
        sl_buf_putc(b, ')');
        break;
    case AST_EXPR_COLLATE:
        sl_buf_puts(b, "(collate ");
        ast_dump_expr(b, e->arg);
        sl_buf_putc(b, ' ');
        put_idents(b, &e->names, ".");
        sl_buf_putc(b, ')');
        break;
    case AST_EXPR_SUBQUERY:
    case AST_EXPR_EXISTS:
    case AST_EXPR_ARRAY:
        sl_buf_printf(b, "(%s ", ast_expr_kind_name(e->kind));
        ast_dump_select(b, e->query);
        sl_buf_putc(b, ')');
        break;
    default: dump_predicate(b, e); break;
    }
}

/* ---- selects ---------------------------------------------------------------------- */

static void dump_tagged_expr(sl_buf_t *b, const char *tag, const ast_expr_t *e)
{
    if (!e) return;
    sl_buf_printf(b, " (%s ", tag);
    ast_dump_expr(b, e);
    sl_buf_putc(b, ')');
}

/* (windows (w (over ..)) ..) of a WINDOW clause. */
static void dump_window_defs(sl_buf_t *b, const ast_window_def_list_t *l)
{
    if (l->n == 0) return;
    sl_buf_puts(b, " (windows");
    for (int i = 0; i < l->n; i++) {
        sl_buf_puts(b, " (");
        put_ident(b, l->items[i]->name);
        dump_over(b, l->items[i]->window);
        sl_buf_putc(b, ')');
    }
    sl_buf_putc(b, ')');
}

static void dump_tagged_list(sl_buf_t *b, const char *tag, const ast_expr_list_t *l)
{
    if (l->n == 0) return;
    sl_buf_printf(b, " (%s", tag);
    dump_list(b, l);
    sl_buf_putc(b, ')');
}

static void dump_watermark(sl_buf_t *b, const ast_watermark_t *w)
{
    if (!w) return;
    sl_buf_puts(b, " (watermark ");
    ast_dump_expr(b, w->column);
    sl_buf_putc(b, ' ');
    ast_dump_expr(b, w->delay);
    sl_buf_putc(b, ')');
}

static void dump_alias(sl_buf_t *b, const ast_ident_t *alias, const ast_ident_list_t *cols)
{
    if (!alias) return;
    sl_buf_puts(b, " (alias ");
    put_ident(b, alias);
    if (cols->n) sl_buf_putc(b, ' ');
    put_idents(b, cols, " ");
    sl_buf_putc(b, ')');
}

static void dump_from(sl_buf_t *b, const ast_from_t *f)
{
    static const char *const joins[] = {[AST_JOIN_INNER] = "inner",
                                        [AST_JOIN_LEFT] = "left",
                                        [AST_JOIN_RIGHT] = "right",
                                        [AST_JOIN_FULL] = "full",
                                        [AST_JOIN_CROSS] = "cross"};
    if (f->kind == AST_FROM_TABLE) {
        sl_buf_puts(b, "(table ");
        if (f->schema) {
            put_ident(b, f->schema);
            sl_buf_putc(b, '.');
        }
        put_ident(b, f->name);
    } else if (f->kind == AST_FROM_FUNCTION) {
        sl_buf_puts(b, "(function ");
        put_ident(b, f->name);
        dump_list(b, &f->func_args);
    } else if (f->kind == AST_FROM_SUBQUERY) {
        sl_buf_puts(b, "(subquery ");
        ast_dump_select(b, f->subquery);
    } else {
        sl_buf_printf(b, "(join %s%s ", f->natural ? "natural-" : "", joins[f->join]);
        dump_from(b, f->left);
        sl_buf_putc(b, ' ');
        dump_from(b, f->right);
        dump_tagged_expr(b, "on", f->on);
        if (f->using_cols.n) {
            sl_buf_puts(b, " (using ");
            put_idents(b, &f->using_cols, " ");
            sl_buf_putc(b, ')');
        }
    }
    dump_alias(b, f->alias, &f->alias_cols);
    dump_watermark(b, f->watermark);
    sl_buf_putc(b, ')');
}

static void dump_item(sl_buf_t *b, const ast_select_item_t *it)
{
    if (it->star && it->expr) {
        sl_buf_puts(b, "(fields ");
        ast_dump_expr(b, it->expr);
        sl_buf_putc(b, ')');
        return;
    }
    if (it->star) {
        put_idents(b, &it->qualifier, ".");
        sl_buf_puts(b, it->qualifier.n ? ".*" : "*");
        return;
    }
    if (!it->alias) {
        ast_dump_expr(b, it->expr);
        return;
    }
    sl_buf_puts(b, "(as ");
    ast_dump_expr(b, it->expr);
    sl_buf_putc(b, ' ');
    put_ident(b, it->alias);
    sl_buf_putc(b, ')');
}

static void dump_simple(sl_buf_t *b, const ast_select_t *q)
{
    sl_buf_puts(b, "(select");
    if (q->distinct == AST_DISTINCT_ALL) sl_buf_puts(b, " distinct");
    if (q->distinct == AST_DISTINCT_ON) {
        sl_buf_puts(b, " (distinct-on");
        dump_list(b, &q->distinct_on);
        sl_buf_puts(b, q->within_watermark ? " within-watermark)" : ")");
    }
    sl_buf_puts(b, " (items");
    for (int i = 0; i < q->items.n; i++) {
        sl_buf_putc(b, ' ');
        dump_item(b, q->items.items[i]);
    }
    sl_buf_putc(b, ')');
    if (q->from.n) {
        sl_buf_puts(b, " (from");
        for (int i = 0; i < q->from.n; i++) {
            sl_buf_putc(b, ' ');
            dump_from(b, q->from.items[i]);
        }
        sl_buf_putc(b, ')');
    }
    dump_tagged_expr(b, "where", q->where);
    dump_tagged_list(b, "group", &q->group_by);
    dump_tagged_expr(b, "having", q->having);
    dump_window_defs(b, &q->windows);
}

static void dump_values(sl_buf_t *b, const ast_select_t *q)
{
    sl_buf_puts(b, "(values");
    for (int i = 0; i < q->rows.n; i++) {
        sl_buf_puts(b, " (");
        const ast_expr_list_t *row = q->rows.items[i];
        for (int j = 0; j < row->n; j++) {
            if (j) sl_buf_putc(b, ' ');
            ast_dump_expr(b, row->items[j]);
        }
        sl_buf_putc(b, ')');
    }
}

static void dump_order(sl_buf_t *b, const ast_sort_list_t *l)
{
    if (l->n == 0) return;
    sl_buf_puts(b, " (order");
    for (int i = 0; i < l->n; i++) {
        const ast_sort_t *s = l->items[i];
        sl_buf_puts(b, " (sort ");
        ast_dump_expr(b, s->expr);
        if (s->desc) sl_buf_puts(b, " desc");
        if (s->nulls == AST_NULLS_FIRST) sl_buf_puts(b, " nulls-first");
        if (s->nulls == AST_NULLS_LAST) sl_buf_puts(b, " nulls-last");
        sl_buf_putc(b, ')');
    }
    sl_buf_putc(b, ')');
}

static void dump_with(sl_buf_t *b, const ast_cte_list_t *l)
{
    sl_buf_puts(b, "(with");
    for (int i = 0; i < l->n; i++) {
        const ast_cte_t *t = l->items[i];
        sl_buf_puts(b, " (cte ");
        put_ident(b, t->name);
        if (t->cols.n) {
            sl_buf_puts(b, " (cols ");
            put_idents(b, &t->cols, " ");
            sl_buf_putc(b, ')');
        }
        sl_buf_putc(b, ' ');
        ast_dump_select(b, t->query);
        sl_buf_putc(b, ')');
    }
    sl_buf_puts(b, ") ");
}

void ast_dump_select(sl_buf_t *b, const ast_select_t *q)
{
    if (!q) {
        sl_buf_puts(b, "?");
        return;
    }
    if (q->with.n) dump_with(b, &q->with);
    if (q->kind == AST_SELECT_SIMPLE) {
        dump_simple(b, q);
    } else if (q->kind == AST_SELECT_VALUES) {
        dump_values(b, q);
    } else {
        sl_buf_puts(b, q->union_all ? "(union-all" : "(union");
        for (int i = 0; i < q->arms.n; i++) {
            sl_buf_putc(b, ' ');
            ast_dump_select(b, q->arms.items[i]);
        }
    }
    dump_order(b, &q->order_by);
    dump_tagged_expr(b, "limit", q->limit);
    dump_tagged_expr(b, "offset", q->offset);
    sl_buf_putc(b, ')');
}

/* ---- statements ------------------------------------------------------------------- */

static void dump_options(sl_buf_t *b, const ast_option_list_t *l)
{
    if (l->n == 0) return;
    sl_buf_puts(b, " (options");
    for (int i = 0; i < l->n; i++) {
        const ast_option_t *o = l->items[i];
        sl_buf_puts(b, " (");
        if (o->key_quoted) put_quoted(b, o->key, '\'');
        else sl_buf_puts(b, o->key);
        sl_buf_putc(b, ' ');
        if (o->kind == AST_OPTVAL_STRING) put_quoted(b, o->value, '\'');
        else sl_buf_puts(b, o->value);
        sl_buf_putc(b, ')');
    }
    sl_buf_putc(b, ')');
}

static void dump_columns(sl_buf_t *b, int has, const ast_column_def_list_t *l)
{
    if (!has) return;
    sl_buf_puts(b, " (columns");
    for (int i = 0; i < l->n; i++) {
        const ast_column_def_t *c = l->items[i];
        sl_buf_puts(b, " (");
        put_ident(b, c->name);
        sl_buf_putc(b, ' ');
        put_type(b, c->type);
        if (c->not_null) sl_buf_puts(b, " not-null");
        sl_buf_putc(b, ')');
    }
    sl_buf_putc(b, ')');
}

static void dump_head(sl_buf_t *b, const char *tag, int flag, const char *flag_name,
                      const ast_ident_t *name)
{
    sl_buf_printf(b, "(%s ", tag);
    if (flag) sl_buf_printf(b, "%s ", flag_name);
    put_ident(b, name);
}

static void dump_tagged_ident(sl_buf_t *b, const char *tag, const ast_ident_t *id)
{
    if (!id) return;
    sl_buf_printf(b, " (%s ", tag);
    put_ident(b, id);
    sl_buf_putc(b, ')');
}

static void dump_create_stream(sl_buf_t *b, const ast_create_stream_t *s)
{
    dump_head(b, "create-stream", s->if_not_exists, "if-not-exists", s->name);
    dump_columns(b, s->has_columns, &s->columns);
    dump_tagged_ident(b, "using", s->connector);
    dump_options(b, &s->options);
    dump_watermark(b, s->watermark);
}

static void dump_create_table(sl_buf_t *b, const ast_create_table_t *s)
{
    dump_head(b, "create-table", s->if_not_exists, "if-not-exists", s->name);
    dump_columns(b, s->has_columns, &s->columns);
    dump_tagged_ident(b, "using", s->format);
    dump_options(b, &s->options);
}

static void dump_create_query(sl_buf_t *b, const ast_create_query_t *q)
{
    static const char *const modes[] = {"", "append", "update", "complete"};
    static const char *const triggers[] = {"", "processing-time", "available-now", "once",
                                           "continuous"};
    dump_head(b, "create-query", q->if_not_exists, "if-not-exists", q->name);
    if (q->sink) {
        sl_buf_puts(b, " (sink ");
        put_ident(b, q->sink);
        dump_options(b, &q->sink_options);
        sl_buf_putc(b, ')');
    }
    if (q->output_mode) sl_buf_printf(b, " (output-mode %s)", modes[q->output_mode]);
    if (q->trigger) {
        sl_buf_printf(b, " (trigger %s", triggers[q->trigger]);
        if (q->trigger_interval) {
            sl_buf_putc(b, ' ');
            ast_dump_expr(b, q->trigger_interval);
        }
        sl_buf_putc(b, ')');
    }
    if (q->checkpoint) {
        sl_buf_puts(b, " (checkpoint ");
        put_quoted(b, q->checkpoint, '\'');
        sl_buf_putc(b, ')');
    }
    dump_options(b, &q->options);
    sl_buf_putc(b, ' ');
    ast_dump_select(b, q->select);
}

static void dump_show(sl_buf_t *b, const ast_show_stmt_t *s)
{
    static const char *const what[] = {"",         "queries",         "streams", "tables",
                                       "progress", "recent-progress", "variable"};
    sl_buf_printf(b, "(show %s", what[s->what]);
    if (s->name) {
        sl_buf_putc(b, ' ');
        put_ident(b, s->name);
    }
}

static void dump_set(sl_buf_t *b, const ast_stmt_t *s)
{
    static const char *const scopes[] = {"", " session", " local"};
    sl_buf_printf(b, "(%s%s %s",
                  s->kind == AST_STMT_SET     ? "set"
                  : s->kind == AST_STMT_RESET ? "reset"
                                              : "discard",
                  scopes[s->set.scope], s->set.name);
    if (s->set.is_default) sl_buf_puts(b, " default");
    dump_list(b, &s->set.values);
}

/* (prepare p (types t..) stmt), (execute p args..), (deallocate p|all) */
static void dump_prepared(sl_buf_t *b, const ast_stmt_t *s)
{
    const ast_prepared_t *p = &s->prepared;
    sl_buf_puts(b, s->kind == AST_STMT_PREPARE   ? "(prepare "
                   : s->kind == AST_STMT_EXECUTE ? "(execute "
                                                 : "(deallocate ");
    if (p->name) put_ident(b, p->name);
    else sl_buf_puts(b, "all");
    if (p->types.n) {
        sl_buf_puts(b, " (types");
        for (int i = 0; i < p->types.n; i++) {
            sl_buf_putc(b, ' ');
            put_type(b, p->types.items[i]);
        }
        sl_buf_putc(b, ')');
    }
    if (p->stmt) {
        sl_buf_putc(b, ' ');
        ast_dump_stmt(b, p->stmt);
    }
    dump_list(b, &p->args);
}

static void dump_txn(sl_buf_t *b, const ast_stmt_t *s)
{
    const ast_txn_stmt_t *t = &s->txn;
    static const char *const names[] = {
        [AST_STMT_BEGIN] = "begin",       [AST_STMT_COMMIT] = "commit",
        [AST_STMT_ROLLBACK] = "rollback", [AST_STMT_SAVEPOINT] = "savepoint",
        [AST_STMT_RELEASE] = "release",   [AST_STMT_SET_TRANSACTION] = "set-transaction"};
    sl_buf_printf(b, "(%s%s", names[s->kind], t->session ? " session" : "");
    if (t->savepoint) {
        sl_buf_puts(b, s->kind == AST_STMT_ROLLBACK ? " to " : " ");
        put_ident(b, t->savepoint);
    }
    if (t->isolation) sl_buf_printf(b, " (isolation '%s')", t->isolation);
    if (t->read_only) sl_buf_printf(b, " (read-only %s)", t->read_only);
    if (t->deferrable) sl_buf_printf(b, " (deferrable %s)", t->deferrable);
}

static void dump_insert(sl_buf_t *b, const ast_insert_t *s)
{
    dump_head(b, "insert", 0, "", s->table);
    if (s->columns.n) {
        sl_buf_puts(b, " (columns ");
        put_idents(b, &s->columns, " ");
        sl_buf_putc(b, ')');
    }
    sl_buf_putc(b, ' ');
    ast_dump_select(b, s->query);
}

static void dump_drop(sl_buf_t *b, const ast_drop_t *s)
{
    static const char *const objs[] = {"", "stream", "table", "query"};
    sl_buf_printf(b, "(drop %s ", objs[s->object]);
    if (s->if_exists) sl_buf_puts(b, "if-exists ");
    put_ident(b, s->name);
}

/* (alter stream|query name (options ...)|(trigger kind [interval])) */
static void dump_alter(sl_buf_t *b, const ast_alter_t *s)
{
    static const char *const objs[] = {"", "stream", "table", "query"};
    static const char *const triggers[] = {"", "processing-time", "available-now", "once",
                                           "continuous"};
    sl_buf_printf(b, "(alter %s ", objs[s->object]);
    put_ident(b, s->name);
    dump_options(b, &s->options);
    if (s->trigger) {
        sl_buf_printf(b, " (trigger %s", triggers[s->trigger]);
        if (s->trigger_interval) {
            sl_buf_putc(b, ' ');
            ast_dump_expr(b, s->trigger_interval);
        }
        sl_buf_putc(b, ')');
    }
}

/* (copy from|to t|(select) (columns a b) client|(file 'x')|(program 'x') (opt name value|*|(a b))...) */
static void dump_copy(sl_buf_t *b, const ast_copy_t *s)
{
    sl_buf_printf(b, "(copy %s ", s->from ? "from" : "to");
    if (s->query) ast_dump_select(b, s->query);
    else put_ident(b, s->table);
    if (s->columns.n) {
        sl_buf_puts(b, " (columns ");
        put_idents(b, &s->columns, " ");
        sl_buf_putc(b, ')');
    }
    if (s->target == AST_COPY_CLIENT) sl_buf_puts(b, " client");
    else sl_buf_printf(b, " (%s '%s')", s->target == AST_COPY_FILE ? "file" : "program", s->file);
    for (int i = 0; i < s->options.n; i++) {
        const ast_copy_opt_t *o = s->options.items[i];
        sl_buf_printf(b, " (opt %s", o->name);
        if (o->value) sl_buf_printf(b, " %s", o->value);
        if (o->star) sl_buf_puts(b, " *");
        if (o->has_cols) {
            sl_buf_puts(b, " (");
            put_idents(b, &o->cols, " ");
            sl_buf_putc(b, ')');
        }
        sl_buf_putc(b, ')');
    }
}

/* Statements whose dump is "(tag name ...)". */
static int dump_named(sl_buf_t *b, const ast_stmt_t *s)
{
    switch (s->kind) {
    case AST_STMT_DESCRIBE: dump_head(b, "describe", 0, "", s->object_name); return 1;
    case AST_STMT_START_QUERY: dump_head(b, "start-query", 0, "", s->object_name); return 1;
    case AST_STMT_STOP_QUERY: dump_head(b, "stop-query", 0, "", s->object_name); return 1;
    case AST_STMT_AWAIT_QUERY:
        dump_head(b, "await-query", 0, "", s->await.name);
        dump_tagged_expr(b, "timeout", s->await.timeout);
        return 1;
    case AST_STMT_DELETE:
        dump_head(b, "delete", 0, "", s->del.table);
        dump_tagged_expr(b, "where", s->del.where);
        return 1;
    default: return 0;
    }
}

void ast_dump_stmt(sl_buf_t *b, const ast_stmt_t *s)
{
    if (s->kind == AST_STMT_SELECT) {
        ast_dump_select(b, s->select);
        return;
    }
    if (dump_named(b, s)) {
        sl_buf_putc(b, ')');
        return;
    }
    switch (s->kind) {
    case AST_STMT_CREATE_STREAM: dump_create_stream(b, &s->create_stream); break;
    case AST_STMT_CREATE_TABLE: dump_create_table(b, &s->create_table); break;
    case AST_STMT_CREATE_QUERY: dump_create_query(b, &s->create_query); break;
    case AST_STMT_DROP: dump_drop(b, &s->drop); break;
    case AST_STMT_ALTER: dump_alter(b, &s->alter); break;
    case AST_STMT_INSERT: dump_insert(b, &s->insert); break;
    case AST_STMT_SHOW: dump_show(b, &s->show); break;
    case AST_STMT_EXPLAIN:
        sl_buf_puts(b, "(explain ");
        ast_dump_stmt(b, s->explain);
        break;
    case AST_STMT_BEGIN:
    case AST_STMT_COMMIT:
    case AST_STMT_ROLLBACK:
    case AST_STMT_SAVEPOINT:
    case AST_STMT_RELEASE:
    case AST_STMT_SET_TRANSACTION: dump_txn(b, s); break;
    case AST_STMT_SET:
    case AST_STMT_RESET:
    case AST_STMT_DISCARD: dump_set(b, s); break;
    case AST_STMT_COPY: dump_copy(b, &s->copy); break;
    case AST_STMT_PREPARE:
    case AST_STMT_EXECUTE:
    case AST_STMT_DEALLOCATE: dump_prepared(b, s); break;
    default: sl_buf_puts(b, "(?"); break;
    }
    sl_buf_putc(b, ')');
}
