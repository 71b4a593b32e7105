/* Physical plan nodes: allocation and schema; operator metric helpers. */
#include <string.h>

#include "exec/op.h"

exec_pnode_t *exec_pnode_new(sl_arena_t *a, const op_ops_t *ops, int ncols, void *config)
{
    exec_pnode_t *n = SL_NEW(a, exec_pnode_t);
    n->ops = ops;
    n->ncols = ncols;
    n->names = SL_NEW_ARRAY(a, const char *, ncols > 0 ? ncols : 1);
    n->types = SL_NEW_ARRAY(a, exec_type_t, ncols > 0 ? ncols : 1);
    n->op_id = -1;
    n->config = config;
    return n;
}

void exec_pnode_set_schema(sl_arena_t *a, exec_pnode_t *n, const char *const *names,
                           const exec_type_t *types)
{
    for (int i = 0; i < n->ncols; i++) {
        n->names[i] = sl_strdup(a, names[i]);
        n->types[i] = types[i];
    }
}

void op_metric_set(op_metrics_t *m, const char *name, int64_t value)
{
    int i = 0;
    while (i < m->ncustom && strcmp(m->custom_names[i], name) < 0) i++;
    if (i < m->ncustom && !strcmp(m->custom_names[i], name)) {
        m->custom_values[i] = value;
        return;
    }
    if (m->ncustom == (int)(sizeof m->custom_names / sizeof m->custom_names[0])) return;
    memmove(&m->custom_names[i + 1], &m->custom_names[i],
            sizeof m->custom_names[0] * (size_t)(m->ncustom - i));
    memmove(&m->custom_values[i + 1], &m->custom_values[i],
            sizeof m->custom_values[0] * (size_t)(m->ncustom - i));
    m->custom_names[i] = name;
    m->custom_values[i] = value;
    m->ncustom++;
}
