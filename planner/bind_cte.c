/* WITH: non-recursive common table expressions, inlined as Spark inlines
 * them. A reference binds the WITH query anew, as if its text stood there
 * as a FROM subquery, in the scope of its definition: the WITH queries
 * before it and the enclosing ones, never itself nor later ones. So a
 * continuous query sees the streams, watermarks and aggregations of its
 * WITH queries in its own plan, and the streaming checks judge them there.
 * A WITH query nobody references is still bound once, for its errors. */
#include <string.h>

#include "planner/bind_from.h"
#include "planner/bind_int.h"

const plan_cte_t *plan_cte_find(const plan_ctx_t *pc, const char *name)
{
    for (const plan_cte_t *c = pc->ctes; c; c = c->prev)
        if (!strcmp(c->def->name->name, name)) return c;
    return NULL;
}

plan_node_t *plan_bind_cte_ref(plan_ctx_t *pc, const plan_cte_t *cte, sl_error_t *err)
{
    const plan_cte_t *ctes = pc->ctes;
    const plan_scope_t *outer = pc->outer;
    *cte->used = 1;
    pc->ctes = cte->prev;
    pc->outer = cte->outer;
    plan_node_t *q = plan_bind(pc, cte->def->query, err);
    pc->ctes = ctes;
    pc->outer = outer;
    if (!q) return NULL;
    if (plan_visible_columns(q) != q->ncols) q = plan_project_visible(pc->arena, q);
    const ast_cte_t *d = cte->def;
    if (d->cols.n && plan_rename_columns(q, &d->cols, "WITH query", d->name->name, err) < 0)
        return NULL;
    return q;
}

plan_node_t *plan_bind_with(plan_ctx_t *pc, const ast_select_t *q, sl_error_t *err)
{
    const plan_cte_t *saved = pc->ctes;
    int n = q->with.n;
    plan_cte_t *defs = SL_NEW_ARRAY(pc->arena, plan_cte_t, n);
    for (int i = 0; i < n; i++) {
        const ast_cte_t *d = q->with.items[i];
        for (int k = 0; k < i; k++)
            if (!strcmp(q->with.items[k]->name->name, d->name->name)) {
                pc->ctes = saved;
                sl_error_set(err, SL_ERR_DUPLICATE_ALIAS,
                             "WITH query name \"%s\" specified more than once", d->name->name);
                bind_at(err, d->name->pos);
                return NULL;
            }
        defs[i] = (plan_cte_t){d, pc->ctes, pc->outer, SL_NEW(pc->arena, int)};
        pc->ctes = &defs[i];
    }
    ast_select_t body = *q;
    body.with.n = 0;
    plan_node_t *root = plan_bind(pc, &body, err);
    for (int i = 0; root && i < n; i++)
        if (!*defs[i].used && !plan_bind_cte_ref(pc, &defs[i], err)) root = NULL;
    pc->ctes = saved;
    return root;
}
