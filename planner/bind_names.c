/* Spark's names for unaliased aggregate calls of a continuous query's
 * select list, where the name becomes a sink's column or field name:
 * Spark names a column by its expression's pretty SQL (toPrettySQL), so
 * `sum(amount)` is "sum(amount)", `count(*)` "count(1)" (Spark parses
 * count(*) as count(1)), `count(DISTINCT k)` "count(DISTINCT k)",
 * `avg(t.x * 2)` "avg((x * 2))". Arguments print as Spark prints them: a
 * column by its last name part (no qualifier), a string literal by its
 * text (no quotes), a number as written, a call as name(args), an operator
 * in parentheses, a CAST as CAST(x AS type); anything else as its source
 * text. Every other item keeps its name (bind_default_name), and an ad-hoc
 * SELECT keeps PostgreSQL's names throughout (docs/sql.md, "Column names"). */
#include <string.h>

#include "common/buf.h"
#include "exec/func.h"
#include "planner/bind_int.h"

static void put_pretty(sl_buf_t *out, const char *sql, const ast_expr_t *e);

static void put_source(sl_buf_t *out, const char *sql, const ast_expr_t *e)
{
    sl_buf_append(out, sql + e->pos, (size_t)(e->end - e->pos));
}

static void put_literal(sl_buf_t *out, const char *sql, const ast_expr_t *e)
{
    switch (e->lit) {
    case AST_LIT_NULL: sl_buf_puts(out, "NULL"); break;
    case AST_LIT_BOOL:
    case AST_LIT_INTEGER:
    case AST_LIT_NUMERIC:
    case AST_LIT_STRING: sl_buf_puts(out, e->text); break;
    default: put_source(out, sql, e); break;
    }
}

static void put_call(sl_buf_t *out, const char *sql, const ast_expr_t *e)
{
    sl_buf_printf(out, "%s(%s", e->name->name, e->distinct ? "DISTINCT " : "");
    if (e->star) sl_buf_putc(out, '1');
    for (int i = 0; i < e->args.n; i++) {
        if (i) sl_buf_puts(out, ", ");
        put_pretty(out, sql, e->args.items[i]);
    }
    sl_buf_putc(out, ')');
}

static void put_operator(sl_buf_t *out, const char *sql, const ast_expr_t *e)
{
    sl_buf_putc(out, '(');
    if (e->kind == AST_EXPR_UNARY) {
        sl_buf_printf(out, "%s ", ast_op_name(e->op));
        put_pretty(out, sql, e->arg);
    } else {
        put_pretty(out, sql, e->left);
        sl_buf_printf(out, " %s ", ast_op_name(e->op));
        put_pretty(out, sql, e->right);
    }
    sl_buf_putc(out, ')');
}

static void put_pretty(sl_buf_t *out, const char *sql, const ast_expr_t *e)
{
    switch (e->kind) {
    case AST_EXPR_COLUMN: sl_buf_puts(out, e->names.items[e->names.n - 1]->name); break;
    case AST_EXPR_LITERAL: put_literal(out, sql, e); break;
    case AST_EXPR_FUNC:
        if (e->over) put_source(out, sql, e);
        else put_call(out, sql, e);
        break;
    case AST_EXPR_UNARY:
    case AST_EXPR_BINARY: put_operator(out, sql, e); break;
    case AST_EXPR_FIELD:
        put_pretty(out, sql, e->arg);
        sl_buf_printf(out, ".%s", e->field->name);
        break;
    case AST_EXPR_CAST:
        sl_buf_puts(out, "CAST(");
        put_pretty(out, sql, e->arg);
        sl_buf_puts(out, " AS ");
        sl_buf_append(out, sql + e->type->pos, (size_t)(e->type->end - e->type->pos));
        sl_buf_putc(out, ')');
        break;
    default: put_source(out, sql, e); break;
    }
}

static int is_aggregate_call(const ast_expr_t *e)
{
    return e->kind == AST_EXPR_FUNC && !e->over && !e->names.n &&
           exec_func_is_aggregate(e->name->name);
}

const char *bind_item_name(const binder_t *b, const ast_expr_t *e)
{
    sl_arena_t *a = b->pc->arena;
    if (!b->pc->spark_names || !is_aggregate_call(e)) return bind_default_name(a, e);
    sl_buf_t out = SL_BUF_INIT;
    put_pretty(&out, b->pc->sql, e);
    const char *name = sl_strdup(a, out.data);
    sl_buf_free(&out);
    return name;
}
