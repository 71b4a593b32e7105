/* Physical planning: logical nodes to operators, exchanges where rows must
 * meet by key, stateful operator ids, and the list of inputs. */
#include "planner/physical.h"

#include <string.h>

#include "exec/op_basic.h"
#include "exec/op_exchange.h"
#include "exec/stage.h"
#include "planner/physical_int.h"

static void add_input(phys_t *ps, plan_input_kind_t kind, const exec_pnode_t *leaf,
                      const plan_relation_t *rel, const plan_node_t *values)
{
    plan_physical_t *p = ps->out;
    plan_input_t *v = SL_NEW_ARRAY(ps->a, plan_input_t, p->ninputs + 1);
    if (p->ninputs) memcpy(v, p->inputs, sizeof *v * (size_t)p->ninputs);
    plan_input_t *in = &v[p->ninputs++];
    in->kind = kind;
    in->leaf = leaf;
    in->rel = rel;
    in->values = values;
    in->source = -1;
    if (kind == PLAN_INPUT_STREAM) {
        for (int i = 0; i < p->nsources; i++)
            if (p->sources[i] == rel) in->source = i;
        if (in->source < 0) {
            const plan_relation_t **s =
                SL_NEW_ARRAY(ps->a, const plan_relation_t *, p->nsources + 1);
            if (p->nsources) memcpy(s, p->sources, sizeof *s * (size_t)p->nsources);
            s[p->nsources] = rel;
            in->source = p->nsources++;
            p->sources = s;
        }
    }
    p->inputs = v;
}

void phys_add_stateful(phys_t *ps, exec_pnode_t *n)
{
    plan_physical_t *p = ps->out;
    exec_pnode_t **v = SL_NEW_ARRAY(ps->a, exec_pnode_t *, p->nstateful + 1);
    if (p->nstateful) memcpy(v, p->stateful, sizeof *v * (size_t)p->nstateful);
    n->op_id = p->nstateful;
    v[p->nstateful++] = n;
    p->stateful = v;
}

/* Names and types of a logical node's columns, as arrays. */
void phys_schema(phys_t *ps, const plan_node_t *n, const char ***names, exec_type_t **types)
{
    *names = SL_NEW_ARRAY(ps->a, const char *, n->ncols > 0 ? n->ncols : 1);
    *types = SL_NEW_ARRAY(ps->a, exec_type_t, n->ncols > 0 ? n->ncols : 1);
    for (int i = 0; i < n->ncols; i++) {
        (*names)[i] = n->cols[i].name;
        (*types)[i] = n->cols[i].type;
    }
}

static exec_pnode_t *plan_scan(phys_t *ps, const plan_node_t *n)
{
    const plan_relation_t *rel = n->scan.rel;
    const char **names;
    exec_type_t *types;
    phys_schema(ps, n, &names, &types);
    static const char *const kinds[] = {"", "stream", "table", "memory table", "catalog relation"};
    const char *tag = sl_printf(ps->a, "%s %s", kinds[rel->kind], rel->stream.name);
    exec_pnode_t *leaf = op_input_plan(ps->a, n->ncols, names, types, tag);
    plan_input_kind_t k = rel->kind == PLAN_REL_STREAM ? PLAN_INPUT_STREAM
                          : rel->kind == PLAN_REL_MEMORY
                              ? PLAN_INPUT_MEMORY
                              : PLAN_INPUT_TABLE; /* tables, catalog relations */
    add_input(ps, k, leaf, rel, NULL);
    return leaf;
}

static exec_pnode_t *plan_values(phys_t *ps, const plan_node_t *n)
{
    const char **names;
    exec_type_t *types;
    phys_schema(ps, n, &names, &types);
    exec_pnode_t *leaf = op_input_plan(
        ps->a, n->ncols, names, types,
        sl_printf(ps->a, "values (%d row%s)", n->values.nrows, n->values.nrows == 1 ? "" : "s"));
    add_input(ps, PLAN_INPUT_VALUES, leaf, NULL, n);
    return leaf;
}

static exec_pnode_t *plan_watermark_node(phys_t *ps, const plan_node_t *n, exec_pnode_t *child)
{
    exec_pnode_t *w = op_watermark_plan(ps->a, child, n->watermark.col, n->watermark.delay_ms);
    plan_physical_t *p = ps->out;
    exec_pnode_t **v = SL_NEW_ARRAY(ps->a, exec_pnode_t *, p->nwatermarks + 1);
    int64_t *d = SL_NEW_ARRAY(ps->a, int64_t, p->nwatermarks + 1);
    if (p->nwatermarks) {
        memcpy(v, p->watermarks, sizeof *v * (size_t)p->nwatermarks);
        memcpy(d, p->wm_delays, sizeof *d * (size_t)p->nwatermarks);
    }
    v[p->nwatermarks] = w;
    d[p->nwatermarks++] = n->watermark.delay_ms;
    p->watermarks = v;
    p->wm_delays = d;
    return w;
}

static exec_pnode_t *plan_project_node(phys_t *ps, const plan_node_t *n, exec_pnode_t *child,
                                       sl_error_t *err)
{
    const char **names;
    exec_type_t *types;
    phys_schema(ps, n, &names, &types);
    return op_project_plan(ps->a, child, n->project.exprs, names, n->ncols, err);
}

exec_pnode_t *phys_node(phys_t *ps, const plan_node_t *n, sl_error_t *err)
{
    exec_pnode_t *c0 = NULL;
    if (n->kind == LP_LIMIT && n->children[0]->kind == LP_SORT && n->limit.limit >= 0 &&
        !(ps->opts->streaming && n->streaming)) {
        /* a bounded sort keeps only the rows the limit can return */
        const plan_node_t *s = n->children[0];
        exec_pnode_t *in = phys_node(ps, s->children[0], err);
        exec_pnode_t *sorted =
            in ? phys_sort_limit(ps, s, in, n->limit.limit + n->limit.offset, err) : NULL;
        return sorted ? phys_limit(ps, n, sorted, err) : NULL;
    }
    if (n->nchildren >= 1 && n->kind != LP_JOIN && n->kind != LP_UNION &&
        !(c0 = phys_node(ps, n->children[0], err)))
        return NULL;
    switch (n->kind) {
    case LP_SCAN: return plan_scan(ps, n);
    case LP_VALUES: return plan_values(ps, n);
    case LP_WATERMARK: return plan_watermark_node(ps, n, c0);
    case LP_FILTER: return op_filter_plan(ps->a, c0, n->filter.pred, err);
    case LP_PROJECT: return plan_project_node(ps, n, c0, err);
    case LP_WINDOW: return phys_window(ps, n, c0, err);
    case LP_AGGREGATE: return phys_aggregate(ps, n, c0, err);
    case LP_JOIN: return phys_join(ps, n, err);
    case LP_UNION: return phys_union(ps, n, err);
    case LP_DEDUP: return phys_dedup(ps, n, c0, err);
    case LP_SORT: return phys_sort(ps, n, c0, err);
    case LP_LIMIT: return phys_limit(ps, n, c0, err);
    }
    sl_error_set(err, SL_ERR_INTERNAL_ERROR, "unknown logical node");
    return NULL;
}

/* Drops hidden columns (sort keys) at the top, except the result's hidden
 * key columns (result_key), which follow the visible ones. */
static exec_pnode_t *visible_only(phys_t *ps, const plan_node_t *n, exec_pnode_t *root,
                                  sl_error_t *err)
{
    int nv = plan_visible_columns(n), nh = 0, k = 0;
    for (int i = 0; i < n->ncols; i++) nh += n->cols[i].hidden && n->cols[i].result_key;
    plan_physical_t *p = ps->out;
    int nout = nv + nh;
    p->ncols = nv;
    p->nhidden = nh;
    p->names = SL_NEW_ARRAY(ps->a, const char *, nout > 0 ? nout : 1);
    p->types = SL_NEW_ARRAY(ps->a, exec_type_t, nout > 0 ? nout : 1);
    exec_expr_t **exprs = SL_NEW_ARRAY(ps->a, exec_expr_t *, nout > 0 ? nout : 1);
    int identity = nout == n->ncols;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < n->ncols; i++) {
            int take = pass == 0 ? !n->cols[i].hidden : n->cols[i].hidden && n->cols[i].result_key;
            if (!take) continue;
            identity &= k == i;
            p->names[k] = n->cols[i].name;
            p->types[k] = n->cols[i].type;
            exprs[k++] = exec_expr_column(ps->a, i, n->cols[i].type, n->cols[i].name);
        }
    }
    if (identity) return root;
    return op_project_plan(ps->a, root, exprs, p->names, nout, err);
}

plan_physical_t *plan_physical(sl_arena_t *a, const plan_node_t *root, const plan_phys_opts_t *o,
                               sl_error_t *err)
{
    phys_t ps = {.a = a, .opts = o, .out = SL_NEW(a, plan_physical_t)};
    exec_pnode_t *r = phys_node(&ps, root, err);
    if (r) r = visible_only(&ps, root, r, err);
    if (!r) return NULL;
    ps.out->root = r;
    ps.out->nnodes = exec_plan_number(r);
    return ps.out;
}

static void explain_node(const exec_pnode_t *n, int depth, sl_buf_t *out)
{
    for (int i = 0; i < depth; i++) sl_buf_puts(out, "  ");
    sl_buf_puts(out, depth ? "-> " : "");
    sl_buf_puts(out, n->ops->name);
    if (n->ops->explain) n->ops->explain(n, out);
    sl_buf_putc(out, '\n');
    for (int i = 0; i < n->nchildren; i++) explain_node(n->children[i], depth + 1, out);
}

void plan_explain_physical(const plan_physical_t *p, sl_buf_t *out)
{
    explain_node(p->root, 0, out);
}
