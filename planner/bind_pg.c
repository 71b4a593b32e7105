/* Binding what PostgreSQL clients' catalog queries need beyond sluice's
 * own SQL: the session's SQL value functions (current_user, session_user,
 * user, current_role, current_catalog, current_schema, current_date,
 * localtimestamp) and functions (current_database(), current_schema(),
 * current_schemas(bool), pg_get_userbyid(oid), json_build_object(...) as
 * to_json(named_struct(...)), pg_get_viewdef(oid) — a stream's or query
 * table's CREATE text); the casts to oid and the
 * reg* types (a constant name becomes its OID: 'pg_class'::regclass,
 * 'numeric'::regtype; x::regtype::text and x::regclass::text name the
 * type or relation; regproc stays the
 * function's name, as the catalog relations' regproc columns are text); the regular
 * expression operators; and COLLATE (sluice compares strings by bytes, so
 * the collations it knows — default, C, POSIX — change nothing). */
#include <string.h>

#include "model/pgtype.h"
#include "planner/bind_int.h"
#include "planner/bind_pg.h"
#include "planner/plan_const.h"

static const char *session_user_name(const binder_t *b)
{
    return b->pc->user ? b->pc->user : "sluice";
}

static exec_expr_t *const_text(binder_t *b, const char *s)
{
    exec_value_t v = exec_value_cstr(b->pc->arena, s);
    return exec_expr_const(b->pc->arena, &v);
}

static exec_expr_t *const_oid(binder_t *b, int64_t oid)
{
    exec_value_t v = exec_value_bigint(oid);
    return exec_expr_const(b->pc->arena, &v);
}

static exec_expr_t *const_null(binder_t *b, exec_type_id_t t)
{
    exec_value_t v = exec_value_null(exec_type_of(t));
    return exec_expr_const(b->pc->arena, &v);
}

/* ---- session values ---- */

exec_expr_t *bind_pg_value(binder_t *b, const char *name, sl_error_t *err)
{
    sl_arena_t *a = b->pc->arena;
    if (!strcmp(name, "current_user") || !strcmp(name, "session_user") || !strcmp(name, "user") ||
        !strcmp(name, "current_role"))
        return const_text(b, session_user_name(b));
    if (!strcmp(name, "current_catalog"))
        return const_text(b, b->pc->database ? b->pc->database : "sluice");
    if (!strcmp(name, "current_schema")) return const_text(b, "public");
    if (!strcmp(name, "localtimestamp"))
        return exec_expr_call(a, "current_timestamp", NULL, NULL, 0, err);
    if (!strcmp(name, "current_date")) return exec_expr_call(a, "current_date", NULL, NULL, 0, err);
    return NULL;
}

/* CASE x WHEN oid1 THEN v1 ... ELSE els END over every relation, v the
 * relation's name (names) or its view definition (!names): x::regclass::text
 * and pg_get_viewdef(x). */
static exec_expr_t *by_relation(binder_t *b, exec_expr_t *x, int names, exec_expr_t *els,
                                sl_error_t *err)
{
    const plan_catalog_t *cat = b->pc->cat;
    sl_arena_t *a = b->pc->arena;
    int64_t *oids = NULL;
    const char **rel_names = NULL, **defs = NULL;
    int n = cat->relations ? cat->relations(cat->sys_ctx, a, &oids, &rel_names, &defs) : 0;
    if (!(x = exec_expr_cast(a, x, exec_type_of(EXEC_TYPE_BIGINT), err))) return NULL;
    exec_expr_t **whens = SL_NEW_ARRAY(a, exec_expr_t *, n + 1),
                **thens = SL_NEW_ARRAY(a, exec_expr_t *, n + 1);
    int k = 0;
    for (int i = 0; i < n; i++) {
        const char *v = names ? rel_names[i] : defs[i];
        if (!v) continue;
        whens[k] = const_oid(b, oids[i]);
        thens[k++] = const_text(b, v);
    }
    return k ? exec_expr_case(a, x, whens, thens, k, els, err) : els;
}

/* ---- session functions ---- */

/* pg_get_userbyid(oid): the connected role for its OID (10), else
 * PostgreSQL's "unknown (OID=n)". */
static exec_expr_t *bind_userbyid(binder_t *b, exec_expr_t *x, sl_error_t *err)
{
    sl_arena_t *a = b->pc->arena;
    if (!(x = exec_expr_cast(a, x, exec_type_of(EXEC_TYPE_BIGINT), err))) return NULL;
    exec_expr_t *when = const_oid(b, 10), *then = const_text(b, session_user_name(b));
    exec_expr_t *unknown =
        exec_expr_arith(a, EXEC_OP_CONCAT, const_text(b, "unknown (OID="), x, err);
    if (unknown) unknown = exec_expr_arith(a, EXEC_OP_CONCAT, unknown, const_text(b, ")"), err);
    return unknown ? exec_expr_case(a, x, &when, &then, 1, unknown, err) : NULL;
}

/* nullif(a, b): CASE WHEN a = b THEN NULL ELSE a END. */
static exec_expr_t *bind_nullif(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    sl_arena_t *a = b->pc->arena;
    exec_expr_t *x = bind_expr(b, e->args.items[0], err),
                *y = x ? bind_expr(b, e->args.items[1], err) : NULL;
    exec_expr_t *eq = y ? exec_expr_cmp(a, EXEC_CMP_EQ, x, y, err) : NULL;
    if (!eq) return NULL;
    exec_value_t null = exec_value_null(x->type);
    exec_expr_t *then = exec_expr_const(a, &null);
    return exec_expr_case(a, NULL, &eq, &then, 1, x, err);
}

/* json_build_object(k1, v1, ...): to_json(named_struct(k1, v1, ...)). */
static exec_expr_t *bind_json_build_object(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    int n = e->args.n;
    exec_expr_t **args = SL_NEW_ARRAY(b->pc->arena, exec_expr_t *, n > 0 ? n : 1);
    for (int i = 0; i < n; i++)
        if (!(args[i] = bind_expr(b, e->args.items[i], err))) return NULL;
    exec_expr_t *s = exec_expr_call(b->pc->arena, "named_struct", args, NULL, n, err);
    return s ? exec_expr_call(b->pc->arena, "to_json", &s, NULL, 1, err) : NULL;
}

int bind_pg_func(binder_t *b, const ast_expr_t *e, exec_expr_t **out, sl_error_t *err)
{
    const char *name = e->name->name;
    int n = e->args.n;
    *out = NULL;
    if (e->names
            .n) { /* schema.f(...): sluice's functions are in pg_catalog, on the path of public */
        const char *schema = e->names.items[e->names.n - 1]->name;
        if (e->names.n > 1 || (strcmp(schema, "pg_catalog") && strcmp(schema, "public"))) {
            sl_error_set(err, SL_ERR_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", schema);
            return -1;
        }
    }
    if (e->over && bind_window_check_call(b, e, err) < 0) return -1;
    if (e->over && bind_window_column(b, e, out)) return 1;
    if (e->over && !bind_window_is_computed(name, -1) &&
        !bind_window_is_aggregate(name, n, e->star)) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED, "window function %s is not supported",
                     name);
        bind_window_hint_computed(err);
        return -1;
    }
    if (e->over) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                     "%s() OVER (...) is supported only in a select list and its ORDER BY", name);
        return -1;
    }
    if (!strcmp(name, "current_database") && n == 0) {
        *out = const_text(b, b->pc->database ? b->pc->database : "sluice");
    } else if (!strcmp(name, "current_schema") && n == 0) {
        *out = const_text(b, "public");
    } else if ((!strcmp(name, "current_user") || !strcmp(name, "session_user")) && n == 0) {
        *out = const_text(b, session_user_name(b));
    } else if (!strcmp(name, "current_schemas") && n == 1) {
        exec_expr_t *x = bind_expr(b, e->args.items[0], err);
        exec_expr_t *cond =
            x ? exec_expr_cast(b->pc->arena, x, exec_type_of(EXEC_TYPE_BOOLEAN), err) : NULL;
        if (!cond) return -1;
        /* with the implicit schemas: pg_catalog, then public */
        exec_expr_t *then = const_text(b, "{pg_catalog,public}");
        *out = exec_expr_case(b->pc->arena, NULL, &cond, &then, 1, const_text(b, "{public}"), err);
    } else if (!strcmp(name, "pg_get_viewdef") && (n == 1 || n == 2)) {
        exec_expr_t *x = bind_expr(b, e->args.items[0], err);
        *out = x ? by_relation(b, x, 0, const_null(b, EXEC_TYPE_STRING), err) : NULL;
    } else if (!strcmp(name, "nullif") && n == 2) {
        *out = bind_nullif(b, e, err);
    } else if (!strcmp(name, "json_build_object")) {
        *out = bind_json_build_object(b, e, err);
    } else if (!strcmp(name, "pg_get_userbyid") && n == 1) {
        exec_expr_t *x = bind_expr(b, e->args.items[0], err);
        *out = x ? bind_userbyid(b, x, err) : NULL;
    } else {
        return 0;
    }
    return *out ? 1 : -1;
}

/* ---- casts to oid and the reg* types ---- */

typedef enum {
    REG_NONE,
    REG_OID,
    REG_CLASS,
    REG_TYPE,
    REG_NAMESPACE,
    REG_ROLE,
    REG_PROC
} reg_kind_t;

static reg_kind_t reg_kind(const char *t)
{
    static const struct {
        const char *name;
        reg_kind_t kind;
    } names[] = {
        {"oid", REG_OID},           {"regclass", REG_CLASS},
        {"regtype", REG_TYPE},      {"regnamespace", REG_NAMESPACE},
        {"regrole", REG_ROLE},      {"regproc", REG_PROC},
        {"regprocedure", REG_PROC},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(names[i].name, t)) return names[i].kind;
    return REG_NONE;
}

/* The OID a name stands for; 0 with err set when there is no such object. */
static int64_t reg_lookup(binder_t *b, reg_kind_t k, const char *name, sl_error_t *err)
{
    const plan_catalog_t *cat = b->pc->cat;
    int64_t oid = 0;
    switch (k) {
    case REG_CLASS:
        oid = cat->regclass ? cat->regclass(cat->sys_ctx, name, b->pc->arena) : 0;
        if (!oid) sl_error_set(err, SL_ERR_UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
        return oid;
    case REG_TYPE: {
        const exec_pgtype_t *t = exec_pgtype_by_name(name);
        if (!t) sl_error_set(err, SL_ERR_UNDEFINED_OBJECT, "type \"%s\" does not exist", name);
        return t ? t->oid : 0;
    }
    case REG_NAMESPACE:
        oid = !strcmp(name, "pg_catalog")           ? 11
              : !strcmp(name, "public")             ? 2200
              : !strcmp(name, "information_schema") ? 13000
                                                    : 0;
        if (!oid)
            sl_error_set(err, SL_ERR_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", name);
        return oid;
    case REG_ROLE:
        if (!strcmp(name, session_user_name(b))) return 10;
        sl_error_set(err, SL_ERR_UNDEFINED_OBJECT, "role \"%s\" does not exist", name);
        return 0;
    default:
        sl_error_set(err, SL_ERR_UNDEFINED_FUNCTION, "function \"%s\" does not exist", name);
        return 0;
    }
}

/* x::oid or x::reg*: integers keep their value (as BIGINT); a constant
 * string is a number for oid, else a name resolved now. */
static exec_expr_t *bind_reg_cast(binder_t *b, const ast_expr_t *e, reg_kind_t k, sl_error_t *err)
{
    exec_expr_t *x = bind_expr(b, e->arg, err);
    if (!x) return NULL;
    exec_type_t oid = exec_type_of(EXEC_TYPE_BIGINT);
    if (x->type.id != EXEC_TYPE_STRING || k == REG_OID)
        return exec_expr_cast(b->pc->arena, x, oid, err);
    exec_value_t v;
    if (!exec_expr_is_foldable(x)) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED, "cannot cast a non-constant string to %s",
                     e->type->name);
        return NULL;
    }
    if (plan_eval_constant(b->pc->arena, x, exec_type_of(EXEC_TYPE_STRING), &v, err) < 0)
        return NULL;
    if (v.is_null) return const_null(b, k == REG_PROC ? EXEC_TYPE_STRING : EXEC_TYPE_BIGINT);
    const char *name = sl_strndup(b->pc->arena, v.u.str.ptr ? v.u.str.ptr : "", v.u.str.len);
    if (k == REG_PROC) /* functions are named by text in the catalog relations (typinput ...) */
        return const_text(b, strncmp(name, "pg_catalog.", 11) ? name : name + 11);
    if (name[0] >= '0' && name[0] <= '9')
        return exec_expr_cast(b->pc->arena, exec_expr_const(b->pc->arena, &v), oid, err);
    int64_t o = reg_lookup(b, k, name, err);
    return o ? const_oid(b, o) : NULL;
}

/* x::regclass::text: the relation's name (its OID as text when unknown). */
static exec_expr_t *bind_regclass_text(binder_t *b, const ast_expr_t *inner, sl_error_t *err)
{
    exec_expr_t *x = bind_reg_cast(b, inner, REG_CLASS, err);
    exec_expr_t *num =
        x ? exec_expr_cast(b->pc->arena, x, exec_type_of(EXEC_TYPE_STRING), err) : NULL;
    return num ? by_relation(b, x, 1, num, err) : NULL;
}

/* x::regtype::text: the type's name, as format_type prints it. */
static exec_expr_t *bind_regtype_text(binder_t *b, const ast_expr_t *inner, sl_error_t *err)
{
    exec_expr_t *x = bind_reg_cast(b, inner, REG_TYPE, err);
    if (!x) return NULL;
    exec_expr_t *args[] = {x, const_null(b, EXEC_TYPE_INT)};
    return exec_expr_call(b->pc->arena, "format_type", args, NULL, 2, err);
}

static int is_text_type(const ast_type_t *t)
{
    return !t->nmods &&
           (!strcmp(t->name, "text") || !strcmp(t->name, "varchar") || !strcmp(t->name, "name"));
}

int bind_pg_cast(binder_t *b, const ast_expr_t *e, exec_expr_t **out, sl_error_t *err)
{
    const ast_type_t *t = e->type;
    if (t->schema && strcmp(t->schema->name, "pg_catalog")) {
        sl_error_set(err, SL_ERR_UNDEFINED_OBJECT, "type \"%s.%s\" does not exist", t->schema->name,
                     t->name);
        bind_at(err, t->schema->pos);
        return -1;
    }
    reg_kind_t k = t->nmods ? REG_NONE : reg_kind(t->name);
    const ast_expr_t *inner = e->arg;
    *out = NULL;
    if (k != REG_NONE) {
        *out = bind_reg_cast(b, e, k, err);
    } else if (is_text_type(t) && inner->kind == AST_EXPR_CAST && !inner->type->nmods &&
               reg_kind(inner->type->name) == REG_TYPE) {
        *out = bind_regtype_text(b, inner, err);
    } else if (is_text_type(t) && inner->kind == AST_EXPR_CAST && !inner->type->nmods &&
               reg_kind(inner->type->name) == REG_CLASS) {
        *out = bind_regclass_text(b, inner, err);
    } else if (!t->nmods &&
               (!strcmp(t->name, "name") || (t->quoted && !strcmp(t->name, "char")) ||
                (strlen(t->name) > 2 && !strcmp(t->name + strlen(t->name) - 2, "[]")))) {
        /* name and "char" are text; so are arrays, kept in their text form */
        exec_expr_t *x = bind_expr(b, inner, err);
        *out = x ? exec_expr_cast(b->pc->arena, x, exec_type_of(EXEC_TYPE_STRING), err) : NULL;
    } else {
        return 0;
    }
    return *out ? 1 : -1;
}

/* ---- operators and COLLATE ---- */

int bind_pg_operator_schema(const ast_expr_t *e, sl_error_t *err)
{
    if (!e->names.n || !strcmp(e->names.items[0]->name, "pg_catalog")) return 0;
    sl_error_set(err, SL_ERR_UNDEFINED_FUNCTION, "operator does not exist: %s.%s",
                 e->names.items[0]->name, ast_op_name(e->op));
    return bind_at(err, e->names.items[0]->pos);
}

exec_expr_t *bind_pg_regex(binder_t *b, ast_op_t op, exec_expr_t *l, exec_expr_t *r,
                           sl_error_t *err)
{
    const char *f = op == AST_OP_REGEX    ? "textregexeq"
                    : op == AST_OP_NREGEX ? "textregexne"
                    : op == AST_OP_IREGEX ? "texticregexeq"
                                          : "texticregexne";
    exec_expr_t *args[] = {l, r};
    return exec_expr_call(b->pc->arena, f, args, NULL, 2, err);
}

exec_expr_t *bind_pg_collate(binder_t *b, const ast_expr_t *e, sl_error_t *err)
{
    const ast_ident_list_t *n = &e->names;
    const char *coll = n->items[n->n - 1]->name;
    int qualified_ok = n->n == 1 || (n->n == 2 && !strcmp(n->items[0]->name, "pg_catalog"));
    if (!qualified_ok || (strcmp(coll, "default") && strcmp(coll, "C") && strcmp(coll, "POSIX") &&
                          strcmp(coll, "ucs_basic"))) {
        sl_error_set(err, SL_ERR_UNDEFINED_OBJECT,
                     "collation \"%s\" for encoding \"UTF8\" does not exist", coll);
        bind_at(err, n->items[0]->pos);
        return NULL;
    }
    exec_expr_t *x = bind_expr(b, e->arg, err);
    if (x && x->type.id != EXEC_TYPE_STRING && x->type.id != EXEC_TYPE_NULL) {
        sl_error_set(err, SL_ERR_DATATYPE_MISMATCH, "collations are not supported by type %s",
                     exec_type_pg_name(x->type));
        bind_at(err, e->pos);
        return NULL;
    }
    return x;
}
