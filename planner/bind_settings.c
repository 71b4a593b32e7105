/* current_setting() and set_config(): PostgreSQL's functions over session
 * settings. sluice evaluates them while binding, through the caller's
 * plan_settings_t, and the call becomes a text constant; so their arguments
 * must be constants (literals or parameters), and set_config() takes effect
 * when the statement is bound (not when Parse describes it). */
#include <string.h>
#include <strings.h>

#include "planner/bind_int.h"

int bind_is_settings_call(const char *name)
{
    return !strcasecmp(name, "current_setting") || !strcasecmp(name, "set_config");
}

/* Argument i as text (*s NULL for SQL NULL); 0A000 when not a constant. */
static int const_text(plan_ctx_t *pc, const ast_expr_t *e, exec_expr_t *const *args, int i,
                      const char **s, sl_error_t *err)
{
    const exec_expr_t *a = args[i];
    if (!exec_expr_is_const(a)) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED, "arguments of %s() must be constants",
                     e->name->name);
        return bind_at(err, e->args.items[i]->pos);
    }
    if (a->value.is_null) {
        *s = NULL;
        return 0;
    }
    if (a->value.type.id == EXEC_TYPE_BOOLEAN) {
        *s = a->value.u.b ? "true" : "false";
        return 0;
    }
    if (a->value.type.id != EXEC_TYPE_STRING) {
        sl_error_set(err, SL_ERR_UNDEFINED_FUNCTION, "function %s() takes text arguments",
                     e->name->name);
        return bind_at(err, e->args.items[i]->pos);
    }
    *s = sl_strndup(pc->arena, a->value.u.str.ptr, a->value.u.str.len);
    return 0;
}

static int truthy(const char *s)
{
    return s && (!strcasecmp(s, "true") || !strcasecmp(s, "t") || !strcasecmp(s, "on") ||
                 !strcmp(s, "1") || !strcasecmp(s, "yes"));
}

static exec_expr_t *text_const(plan_ctx_t *pc, const char *s)
{
    exec_value_t v =
        s ? exec_value_string(s, strlen(s)) : exec_value_null(exec_type_of(EXEC_TYPE_STRING));
    return exec_expr_const(pc->arena, &v);
}

exec_expr_t *bind_settings_call(plan_ctx_t *pc, const ast_expr_t *e, exec_expr_t *const *args,
                                int n, sl_error_t *err)
{
    int set = !strcasecmp(e->name->name, "set_config");
    if (set ? n != 3 : n < 1 || n > 2) {
        sl_error_set(err, SL_ERR_UNDEFINED_FUNCTION, "function %s takes %s", e->name->name,
                     set ? "three arguments" : "one or two arguments");
        bind_at(err, e->pos);
        return NULL;
    }
    const char *a[3] = {NULL, NULL, NULL};
    for (int i = 0; i < n; i++)
        if (const_text(pc, e, args, i, &a[i], err) < 0) return NULL;
    if (pc->params_unbound || !a[0]) return text_const(pc, NULL); /* Parse: typed, not run */
    const char *out = NULL;
    int rc = set ? pc->settings->set(pc->settings->ctx, a[0], a[1], truthy(a[2]), &out, err)
                 : pc->settings->get(pc->settings->ctx, a[0], truthy(a[1]), &out, err);
    if (rc < 0) {
        bind_at(err, e->pos);
        return NULL;
    }
    return text_const(pc, rc == 0 && !set ? NULL : out);
}
