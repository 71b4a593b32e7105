/* Binding FROM: relations (the WITH queries in scope first, then the
 * catalog through the schemas of the search path), subqueries, joins with their equi-keys (USING and NATURAL are
 * bind_using.c's), column aliases `AS t (a, b)` and WATERMARK clauses. */
#include <string.h>

#include "planner/bind_int.h"
#include "planner/bind_from.h"

plan_node_t *plan_node_new(sl_arena_t *a, plan_kind_t kind, int ncols, int pos)
{
    plan_node_t *n = SL_NEW(a, plan_node_t);
    n->kind = kind;
    n->ncols = ncols;
    n->cols = SL_NEW_ARRAY(a, plan_col_t, ncols > 0 ? ncols : 1);
    n->pos = pos;
    return n;
}

void plan_set_child(plan_node_t *n, int i, plan_node_t *child)
{
    n->children[i] = child;
    if (n->nchildren < i + 1) n->nchildren = i + 1;
    n->streaming |= child->streaming;
}

/* Records a relation read by the plan (sources are numbered in this order). */
static void add_rel(plan_ctx_t *pc, const plan_relation_t *rel)
{
    const plan_relation_t **v = SL_NEW_ARRAY(pc->arena, const plan_relation_t *, pc->nrels + 1);
    if (pc->nrels) memcpy(v, pc->rels, sizeof *v * (size_t)pc->nrels);
    v[pc->nrels++] = rel;
    pc->rels = v;
}

plan_node_t *plan_watermark(sl_arena_t *a, plan_node_t *child, int col, int64_t delay_ms, int pos)
{
    plan_node_t *n = plan_node_new(a, LP_WATERMARK, child->ncols, pos);
    memcpy(n->cols, child->cols, sizeof *n->cols * (size_t)child->ncols);
    /* As in Spark, only the watermarked column keeps watermark metadata. */
    for (int i = 0; i < n->ncols; i++) n->cols[i].wm_delay_ms = -1;
    n->cols[col].wm_delay_ms = delay_ms;
    n->watermark.col = col;
    n->watermark.delay_ms = delay_ms;
    plan_set_child(n, 0, child);
    return n;
}

/* WATERMARK col DELAY OF interval over a bound FROM item. */
static plan_node_t *bind_watermark_clause(plan_ctx_t *pc, plan_node_t *child,
                                          const ast_watermark_t *wm, sl_error_t *err)
{
    const ast_expr_t *c = wm->column;
    const char *name = c->names.items[c->names.n - 1]->name;
    int col = -1;
    for (int i = 0; i < child->ncols; i++)
        if (!strcmp(child->cols[i].name, name)) col = i;
    if (col < 0) {
        sl_error_set(err, SL_ERR_UNDEFINED_COLUMN, "watermark column \"%s\" does not exist", name);
        bind_at(err, c->pos);
        return NULL;
    }
    if (child->cols[col].type.id != EXEC_TYPE_TIMESTAMP) {
        sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                     "watermark column \"%s\" must be a TIMESTAMP, not %s", name,
                     exec_type_text(child->cols[col].type, pc->arena));
        bind_at(err, c->pos);
        return NULL;
    }
    int64_t ms;
    if (plan_interval_ms(wm->delay, "watermark delay", &ms, err) < 0) return NULL;
    return plan_watermark(pc->arena, child, col, ms, wm->pos);
}

int plan_rename_columns(plan_node_t *n, const ast_ident_list_t *names, const char *what,
                        const char *rel, sl_error_t *err)
{
    if (names->n != n->ncols) {
        sl_error_set(err, SL_ERR_INVALID_COLUMN_REFERENCE,
                     "%s \"%s\" has %d columns available but %d columns specified", what, rel,
                     n->ncols, names->n);
        sl_error_hint(err, "Name every column, as Spark requires.");
        return bind_at(err, names->items[0]->pos);
    }
    for (int i = 0; i < n->ncols; i++) n->cols[i].name = names->items[i]->name;
    return 0;
}

/* A bound subquery or WITH query as a FROM item: its visible columns under
 * the item's alias (or `qual`), renamed by the alias's column list. */
static plan_node_t *derived_item(plan_ctx_t *pc, plan_node_t *q, const ast_from_t *f,
                                 const char *qual, sl_error_t *err)
{
    plan_node_t *n = plan_visible_columns(q) != q->ncols ? plan_project_visible(pc->arena, q) : q;
    if (f->alias) qual = f->alias->name;
    for (int i = 0; i < n->ncols; i++) n->cols[i].qual = qual;
    if (f->alias_cols.n && plan_rename_columns(n, &f->alias_cols, "table", qual, err) < 0)
        return NULL;
    if (f->watermark) return bind_watermark_clause(pc, n, f->watermark, err);
    return n;
}

/* ---- schemas: pg_catalog, information_schema and public ---- */

static int lookup_system(plan_ctx_t *pc, const char *schema, const char *name, plan_relation_t *rel,
                         sl_error_t *err)
{
    if (!pc->cat->lookup_system) return 0;
    return pc->cat->lookup_system(pc->cat->sys_ctx, schema, name, pc->arena, rel, err);
}

/* Resolves a FROM name as PostgreSQL's default search path does: a bare
 * name in pg_catalog first, then in public (sluice's own objects); a
 * qualified one in its schema only. 3F000 for any other schema. Returns 1
 * found, 0 not found, -1 error. */
static int resolve_relation(plan_ctx_t *pc, const ast_from_t *f, plan_relation_t *rel,
                            sl_error_t *err)
{
    const char *name = f->name->name;
    if (!f->schema) {
        int found = lookup_system(pc, "pg_catalog", name, rel, err);
        return found ? found : pc->cat->lookup(pc->cat->ctx, name, pc->arena, rel, err);
    }
    const char *schema = f->schema->name;
    if (!strcmp(schema, "pg_catalog") || !strcmp(schema, "information_schema"))
        return lookup_system(pc, schema, name, rel, err);
    if (!strcmp(schema, "public")) return pc->cat->lookup(pc->cat->ctx, name, pc->arena, rel, err);
    sl_error_set(err, SL_ERR_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", schema);
    return bind_at(err, f->schema->pos);
}

static plan_node_t *bind_relation(plan_ctx_t *pc, const ast_from_t *f, sl_error_t *err)
{
    const plan_cte_t *cte = f->schema ? NULL : plan_cte_find(pc, f->name->name);
    if (cte) {
        plan_node_t *q = plan_bind_cte_ref(pc, cte, err);
        return q ? derived_item(pc, q, f, cte->def->name->name, err) : NULL;
    }
    plan_relation_t *rel = SL_NEW(pc->arena, plan_relation_t);
    int found = resolve_relation(pc, f, rel, err);
    if (found < 0) {
        bind_at(err, f->name->pos);
        return NULL;
    }
    if (found == 0) {
        if (f->schema)
            sl_error_set(err, SL_ERR_UNDEFINED_TABLE, "relation \"%s.%s\" does not exist",
                         f->schema->name, f->name->name);
        else
            sl_error_set(err, SL_ERR_UNDEFINED_TABLE, "relation \"%s\" does not exist",
                         f->name->name);
        bind_at(err, f->schema ? f->schema->pos : f->name->pos);
        return NULL;
    }
    if (rel->kind == PLAN_REL_SYSTEM && pc->allow_streams) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                     "cannot read catalog relation \"%s\" in a continuous query", rel->stream.name);
        sl_error_hint(err, "Catalog relations are read by ad-hoc SELECT statements.");
        bind_at(err, f->name->pos);
        return NULL;
    }
    if (rel->kind == PLAN_REL_STREAM && !pc->allow_streams) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                     "cannot read stream \"%s\" in an ad-hoc SELECT", rel->stream.name);
        sl_error_hint(err,
                      "A stream is read by a continuous query: CREATE QUERY q AS SELECT ... FROM "
                      "%s; then SELECT from q (its memory sink).",
                      rel->stream.name);
        bind_at(err, f->name->pos);
        return NULL;
    }
    add_rel(pc, rel);
    plan_node_t *n = plan_node_new(pc->arena, LP_SCAN, rel->stream.ncols, f->pos);
    const char *qual = f->alias ? f->alias->name : rel->stream.name;
    for (int i = 0; i < rel->stream.ncols; i++) {
        n->cols[i].name = rel->stream.col_names[i];
        n->cols[i].qual = qual;
        n->cols[i].type = rel->stream.col_types[i];
        n->cols[i].wm_delay_ms = -1;
    }
    n->scan.rel = rel;
    n->scan.alias = f->alias ? f->alias->name : NULL;
    n->streaming = rel->kind == PLAN_REL_STREAM;
    if (f->alias_cols.n && plan_rename_columns(n, &f->alias_cols, "table", qual, err) < 0)
        return NULL;
    if (f->watermark) return bind_watermark_clause(pc, n, f->watermark, err);
    if (rel->kind == PLAN_REL_STREAM && rel->wm_col >= 0)
        return plan_watermark(pc->arena, n, rel->wm_col, rel->wm_delay_ms, f->pos);
    return n;
}

int plan_split_join_condition(plan_ctx_t *pc, plan_node_t *j, exec_expr_t *cond, int nleft,
                              sl_error_t *err)
{
    exec_expr_t *stack[64];
    int top = 0, nk = 0;
    stack[top++] = cond;
    j->join.lkeys = SL_NEW_ARRAY(pc->arena, int, 64);
    j->join.rkeys = SL_NEW_ARRAY(pc->arena, int, 64);
    exec_expr_t *residual = NULL;
    while (top > 0) {
        exec_expr_t *e = stack[--top];
        if (e->kind == EXEC_EXPR_AND && top < 62) {
            stack[top++] = e->args[1];
            stack[top++] = e->args[0];
            continue;
        }
        const exec_expr_t *l = e->nargs == 2 ? e->args[0] : NULL, *r = l ? e->args[1] : NULL;
        if (e->kind == EXEC_EXPR_CMP && e->op == EXEC_CMP_EQ && l->kind == EXEC_EXPR_COLUMN &&
            r->kind == EXEC_EXPR_COLUMN && nk < 64 && (l->column < nleft) != (r->column < nleft) &&
            exec_type_equal(l->type, r->type)) {
            if (l->column >= nleft) {
                const exec_expr_t *t = l;
                l = r;
                r = t;
            }
            j->join.lkeys[nk] = l->column;
            j->join.rkeys[nk] = r->column - nleft;
            nk++;
            continue;
        }
        residual = residual ? exec_expr_and(pc->arena, residual, e, err) : e;
        if (!residual) return -1;
    }
    j->join.nkeys = nk;
    j->join.residual = residual;
    return 0;
}

static plan_join_t join_type(ast_join_t t)
{
    switch (t) {
    case AST_JOIN_LEFT: return PLAN_JOIN_LEFT;
    case AST_JOIN_RIGHT: return PLAN_JOIN_RIGHT;
    case AST_JOIN_FULL: return PLAN_JOIN_FULL;
    case AST_JOIN_CROSS: return PLAN_JOIN_CROSS;
    default: return PLAN_JOIN_INNER;
    }
}

plan_node_t *plan_join(sl_arena_t *a, plan_node_t *l, plan_node_t *r, plan_join_t type, int pos)
{
    plan_node_t *j = plan_node_new(a, LP_JOIN, l->ncols + r->ncols, pos);
    memcpy(j->cols, l->cols, sizeof *j->cols * (size_t)l->ncols);
    memcpy(j->cols + l->ncols, r->cols, sizeof *j->cols * (size_t)r->ncols);
    j->join.type = type;
    plan_set_child(j, 0, l);
    plan_set_child(j, 1, r);
    return j;
}

static plan_node_t *bind_join(plan_ctx_t *pc, const ast_from_t *f, sl_error_t *err)
{
    plan_node_t *l = plan_bind_from_item(pc, f->left, err);
    plan_node_t *r = l ? plan_bind_from_item(pc, f->right, err) : NULL;
    if (!r) return NULL;
    plan_node_t *j = plan_join(pc->arena, l, r, join_type(f->join), f->pos);
    if (f->using_cols.n || f->natural) return plan_join_using(pc, j, f, err);
    exec_expr_t *cond = NULL;
    if (f->on) {
        binder_t b = {.pc = pc, .ncols = j->ncols, .cols = j->cols, .clause = "JOIN conditions"};
        if (!(cond = bind_expr(&b, f->on, err))) return NULL;
        if (cond->type.id != EXEC_TYPE_BOOLEAN && cond->type.id != EXEC_TYPE_NULL) {
            sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                         "argument of JOIN/ON must be type boolean, not type %s",
                         exec_type_pg_name(cond->type));
            bind_at(err, f->on->pos);
            return NULL;
        }
    }
    j->join.cond = cond;
    if (cond && plan_split_join_condition(pc, j, cond, l->ncols, err) < 0) return NULL;
    if (j->join.type == PLAN_JOIN_CROSS && cond) j->join.type = PLAN_JOIN_INNER;
    return j;
}

plan_node_t *plan_bind_from_item(plan_ctx_t *pc, const ast_from_t *f, sl_error_t *err)
{
    switch (f->kind) {
    case AST_FROM_TABLE: return bind_relation(pc, f, err);
    case AST_FROM_FUNCTION: return plan_bind_from_function(pc, f, err);
    case AST_FROM_SUBQUERY: {
        plan_node_t *q = plan_bind(pc, f->subquery, err);
        return q ? derived_item(pc, q, f, NULL, err) : NULL;
    }
    case AST_FROM_JOIN: {
        plan_node_t *j = bind_join(pc, f, err);
        /* an aliased join: its columns, under the alias alone */
        return j && f->alias ? derived_item(pc, j, f, NULL, err) : j;
    }
    }
    sl_error_set(err, SL_ERR_INTERNAL_ERROR, "unknown FROM item");
    return NULL;
}
