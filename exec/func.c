/* exec functions: the catalogue table (one row per SQL function name),
 * lookup with PostgreSQL-style errors, and the bind helpers. The bind
 * steps and kernels live in func_string.c, func_search.c, func_math.c,
 * func_time.c, func_extract.c and func_misc.c. */
#include "exec/func.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model/cast.h"
#include "exec/func_int.h"

#define S EXEC_FUNC_STRICT
#define V EXEC_FUNC_VOLATILE
#define SCALAR(name, lo, hi, flags, sig, fn)                                      \
    {                                                                             \
#name, EXEC_FUNC_SCALAR, lo, hi, flags, sig, exec_bind_##fn, exec_fn_##fn \
    }
#define NODE(name, lo, hi, sig)                                         \
    {                                                                   \
#name, EXEC_FUNC_SCALAR, lo, hi, 0, sig, exec_bind_##name, NULL \
    }
#define AGG(name, lo, hi, sig)                                 \
    {                                                          \
#name, EXEC_FUNC_AGGREGATE, lo, hi, 0, sig, NULL, NULL \
    }

static const exec_func_t catalogue[] = {
    SCALAR(lower, 1, 1, S, "lower(string)", lower),
    SCALAR(upper, 1, 1, S, "upper(string)", upper),
    SCALAR(substring, 2, 3, S, "substring(string, int[, int])", substring),
    SCALAR(substr, 2, 3, S, "substr(string, int[, int])", substring),
    SCALAR(concat, 1, -1, S, "concat(string, ...)", concat),
    SCALAR(length, 1, 1, S, "length(string); length(binary)", length),
    SCALAR(char_length, 1, 1, S, "char_length(string)", length),
    SCALAR(position, 2, 3, S,
           "position(string substr, string str[, int start]); position(substr IN str)", position),
    SCALAR(locate, 2, 3, S, "locate(string substr, string str[, int start])", position),
    SCALAR(trim, 1, 1, S, "trim(string); trim([BOTH | LEADING | TRAILING] [chars] FROM string)",
           trim),
    SCALAR(btrim, 1, 2, S, "btrim(string[, string chars])", btrim),
    SCALAR(ltrim, 1, 2, S, "ltrim(string); ltrim(string chars, string)", ltrim),
    SCALAR(rtrim, 1, 2, S, "rtrim(string); rtrim(string chars, string)", rtrim),
    SCALAR(abs, 1, 1, S, "abs(numeric)", abs),
    SCALAR(round, 1, 2, S, "round(numeric[, int])", round),
    SCALAR(date_trunc, 2, 2, S, "date_trunc(string unit, timestamp)", date_trunc),
    SCALAR(extract, 2, 2, S, "extract(field FROM timestamp)", extract),
    SCALAR(date_part, 2, 2, S, "date_part(string field, timestamp)", extract),
    SCALAR(to_timestamp, 1, 2, S,
           "to_timestamp(string[, string format]); to_timestamp(numeric seconds)", to_timestamp),
    SCALAR(current_timestamp, 0, 0, V, "current_timestamp()", current_timestamp),
    SCALAR(now, 0, 0, V, "now()", current_timestamp),
    SCALAR(current_date, 0, 0, V, "current_date()", current_date),
    SCALAR(from_json, 2, 3, S, "from_json(string, string schema)", from_json),
    SCALAR(to_json, 1, 1, S, "to_json(struct)", to_json),
    SCALAR(window, 2, 4, S, "window(timestamp, interval size[, interval slide[, interval start]])",
           window),
    SCALAR(pg_sleep, 1, 1, S | V, "pg_sleep(double precision seconds)", pg_sleep),
    SCALAR(version, 0, 0, 0, "version()", version),
    /* ---- PostgreSQL catalog functions (func_pg.c) ---- */
    SCALAR(format_type, 2, 2, 0, "format_type(oid, integer typmod)", format_type),
    SCALAR(to_regtype, 1, 1, S, "to_regtype(text)", to_regtype),
    SCALAR(pg_table_is_visible, 1, 1, S, "pg_table_is_visible(oid)", pg_is_visible),
    SCALAR(pg_type_is_visible, 1, 1, S, "pg_type_is_visible(oid)", pg_is_visible),
    SCALAR(pg_function_is_visible, 1, 1, S, "pg_function_is_visible(oid)", pg_is_visible),
    SCALAR(has_table_privilege, 2, 3, S, "has_table_privilege([user,] table, privilege)",
           has_privilege),
    SCALAR(has_schema_privilege, 2, 3, S, "has_schema_privilege([user,] schema, privilege)",
           has_privilege),
    SCALAR(has_database_privilege, 2, 3, S, "has_database_privilege([user,] database, privilege)",
           has_privilege),
    SCALAR(has_column_privilege, 3, 4, S, "has_column_privilege([user,] table, column, privilege)",
           has_privilege),
    SCALAR(has_function_privilege, 2, 3, S, "has_function_privilege([user,] function, privilege)",
           has_privilege),
    SCALAR(has_sequence_privilege, 2, 3, S, "has_sequence_privilege([user,] sequence, privilege)",
           has_privilege),
    SCALAR(pg_is_other_temp_schema, 1, 1, S, "pg_is_other_temp_schema(oid)",
           pg_is_other_temp_schema),
    SCALAR(pg_my_temp_schema, 0, 0, 0, "pg_my_temp_schema()", pg_my_temp_schema),
    SCALAR(obj_description, 1, 2, 0, "obj_description(oid[, name catalog])", pg_description),
    SCALAR(col_description, 2, 2, 0, "col_description(oid, integer column)", pg_description),
    SCALAR(shobj_description, 2, 2, 0, "shobj_description(oid, name catalog)", pg_description),
    SCALAR(pg_get_indexdef, 1, 3, 0, "pg_get_indexdef(oid[, integer column, boolean pretty])",
           pg_get_def),
    SCALAR(pg_get_constraintdef, 1, 2, 0, "pg_get_constraintdef(oid[, boolean pretty])",
           pg_get_def),
    SCALAR(pg_get_statisticsobjdef_columns, 1, 1, 0, "pg_get_statisticsobjdef_columns(oid)",
           pg_get_def),
    SCALAR(pg_get_statisticsobjdef, 1, 1, 0, "pg_get_statisticsobjdef(oid)", pg_get_def),
    SCALAR(pg_get_triggerdef, 1, 2, 0, "pg_get_triggerdef(oid[, boolean pretty])", pg_get_def),
    SCALAR(pg_get_ruledef, 1, 2, 0, "pg_get_ruledef(oid[, boolean pretty])", pg_get_def),
    SCALAR(pg_get_partkeydef, 1, 1, 0, "pg_get_partkeydef(oid)", pg_get_def),
    SCALAR(pg_get_partition_constraintdef, 1, 1, 0, "pg_get_partition_constraintdef(oid)",
           pg_get_def),
    SCALAR(pg_get_expr, 2, 3, S, "pg_get_expr(text, oid[, boolean pretty])", pg_get_expr),
    SCALAR(pg_encoding_to_char, 1, 1, S, "pg_encoding_to_char(integer)", pg_encoding_to_char),
    SCALAR(quote_ident, 1, 1, S, "quote_ident(text)", quote_ident),
    SCALAR(replace, 3, 3, S, "replace(string, string from, string to)", replace),
    SCALAR(pg_get_serial_sequence, 2, 2, S, "pg_get_serial_sequence(text table, text column)",
           pg_get_serial_sequence),
    SCALAR(pg_get_function_arguments, 1, 1, S, "pg_get_function_arguments(oid)", pg_get_function),
    SCALAR(pg_get_function_identity_arguments, 1, 1, S, "pg_get_function_identity_arguments(oid)",
           pg_get_function),
    SCALAR(pg_get_function_result, 1, 1, S, "pg_get_function_result(oid)", pg_get_function),
    SCALAR(pg_table_size, 1, 1, S, "pg_table_size(regclass)", pg_size),
    SCALAR(pg_relation_size, 1, 2, S, "pg_relation_size(regclass[, text fork])", pg_size),
    SCALAR(pg_total_relation_size, 1, 1, S, "pg_total_relation_size(regclass)", pg_size),
    SCALAR(pg_indexes_size, 1, 1, S, "pg_indexes_size(regclass)", pg_size),
    SCALAR(pg_database_size, 1, 1, S, "pg_database_size(name)", pg_size),
    SCALAR(pg_size_pretty, 1, 1, S, "pg_size_pretty(bigint)", pg_size_pretty),
    SCALAR(getdatabaseencoding, 0, 0, 0, "getdatabaseencoding()", getdatabaseencoding),
    SCALAR(pg_tablespace_location, 1, 1, S, "pg_tablespace_location(oid)", pg_tablespace_location),
    SCALAR(pg_statistics_obj_is_visible, 1, 1, S, "pg_statistics_obj_is_visible(oid)",
           pg_is_visible),
    SCALAR(element_at, 2, 2, S, "element_at(array, integer index)", element_at),
    SCALAR(array_upper, 2, 2, S, "array_upper(array, integer dimension)", array_upper),
    SCALAR(pg_relation_is_publishable, 1, 1, S, "pg_relation_is_publishable(oid)",
           pg_relation_is_publishable),
    SCALAR(array_contains, 2, 2, S, "array_contains(array, value)", array_contains),
    SCALAR(array_to_string, 2, 2, S, "array_to_string(array text, text separator)",
           array_to_string),
    SCALAR(textregexeq, 2, 2, S, "textregexeq(text, text pattern)", regex),
    SCALAR(textregexne, 2, 2, S, "textregexne(text, text pattern)", regex),
    SCALAR(texticregexeq, 2, 2, S, "texticregexeq(text, text pattern)", regex),
    SCALAR(texticregexne, 2, 2, S, "texticregexne(text, text pattern)", regex),
    NODE(coalesce, 1, -1, "coalesce(value, ...)"),
    NODE(struct, 0, -1, "struct(value, ...)"),
    NODE(named_struct, 2, -1, "named_struct(name, value, ...)"),
    SCALAR(session_window, 2, 2, S, "session_window(timestamp, interval gap)", session_window),
    AGG(count, 0, 1, "count(*); count(value)"),
    AGG(sum, 1, 1, "sum(numeric)"),
    AGG(avg, 1, 1, "avg(numeric)"),
    AGG(min, 1, 1, "min(value)"),
    AGG(max, 1, 1, "max(value)"),
    AGG(first, 1, 2, "first(value[, boolean ignoreNulls])"),
    AGG(last, 1, 2, "last(value[, boolean ignoreNulls])"),
    AGG(approx_count_distinct, 1, 2, "approx_count_distinct(value[, double rsd])"),
};

const exec_func_t *exec_func_find(const char *name)
{
    for (size_t i = 0; i < sizeof catalogue / sizeof catalogue[0]; i++)
        if (!strcasecmp(catalogue[i].name, name)) return &catalogue[i];
    return NULL;
}

int exec_func_count(void)
{
    return (int)(sizeof catalogue / sizeof catalogue[0]);
}

const exec_func_t *exec_func_at(int i)
{
    return &catalogue[i];
}

bool exec_func_is_aggregate(const char *name)
{
    const exec_func_t *f = exec_func_find(name);
    return f && f->kind == EXEC_FUNC_AGGREGATE;
}

/* ---- errors --------------------------------------------------------------------- */

int exec_func_no_match(const exec_func_t *f, const char *name, int argc,
                       const exec_type_t *argtypes, sl_error_t *err)
{
    char sig[256];
    size_t k = 0;
    for (int i = 0; i < argc && k < sizeof sig - 40; i++)
        k += (size_t)snprintf(sig + k, sizeof sig - k, "%s%s", i ? ", " : "",
                              exec_type_pg_name(argtypes[i]));
    sig[k] = '\0';
    sl_error_set(err, SL_ERR_UNDEFINED_FUNCTION, "function %s(%s) does not exist",
                 f ? f->name : name, sig);
    if (f)
        return sl_error_hint(err,
                             "No function matches the given name and argument types. Accepted: %s.",
                             f->signatures);
    return sl_error_hint(
        err,
        "No function matches the given name and argument types. You might need to add explicit "
        "type casts.");
}

int exec_bind_mismatch(const exec_bind_t *b, sl_error_t *err)
{
    exec_type_t types[64];
    int n = b->nargs < 64 ? b->nargs : 64;
    for (int i = 0; i < n; i++) types[i] = b->args[i]->type;
    return exec_func_no_match(b->func, b->func->name, n, types, err);
}

/* ---- bind helpers ------------------------------------------------------------------- */

exec_type_id_t exec_bind_type(const exec_bind_t *b, int i)
{
    return b->args[i]->type.id;
}

int exec_bind_arg(exec_bind_t *b, int i, exec_type_t t, bool explicit_ok, sl_error_t *err)
{
    exec_type_t from = b->args[i]->type;
    if (exec_type_equal(from, t)) return 0;
    bool ok = explicit_ok ? exec_cast_allowed(from, t) : exec_cast_implicit(from, t);
    /* A non-constant STRING is not silently parsed as a number or time for a function. */
    if (from.id == EXEC_TYPE_STRING && b->args[i]->kind != EXEC_EXPR_CONST && !explicit_ok)
        ok = false;
    if (!ok) return exec_bind_mismatch(b, err);
    exec_expr_t *c = exec_expr_cast(b->arena, b->args[i], t, err);
    if (!c) return -1;
    b->args[i] = c;
    return 0;
}

int exec_bind_const_string(exec_bind_t *b, int i, const char **s, size_t *n, sl_error_t *err)
{
    const exec_expr_t *e = b->args[i];
    *s = NULL;
    *n = 0;
    if (e->type.id != EXEC_TYPE_STRING && e->type.id != EXEC_TYPE_NULL)
        return exec_bind_mismatch(b, err);
    if (b->check_only) return 0;
    if (e->kind != EXEC_EXPR_CONST)
        return sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                            "argument %d of %s must be a constant", i + 1, b->func->name);
    if (!e->value.is_null && e->type.id == EXEC_TYPE_STRING) {
        *s = e->value.u.str.ptr ? e->value.u.str.ptr : "";
        *n = e->value.u.str.len;
    }
    return 0;
}

void exec_bind_consume(exec_bind_t *b, int i)
{
    b->const_args |= 1u << i;
}

/* ---- binding ------------------------------------------------------------------------ */

static int check_kind(const exec_func_t *f, const char *name, int argc, const exec_type_t *types,
                      sl_error_t *err)
{
    if (!f) return exec_func_no_match(NULL, name, argc, types, err);
    if (f->kind == EXEC_FUNC_AGGREGATE) {
        sl_error_set(err, SL_ERR_WRONG_OBJECT_TYPE, "%s is an aggregate function", f->name);
        return sl_error_hint(
            err, "Aggregates are computed by GROUP BY queries, not as scalar expressions.");
    }
    if (argc < f->min_args || (f->max_args >= 0 && argc > f->max_args))
        return exec_func_no_match(f, name, argc, types, err);
    return 0;
}

int exec_func_bind(exec_bind_t *b, sl_error_t *err)
{
    exec_type_t types[64];
    int n = b->nargs < 64 ? b->nargs : 64;
    for (int i = 0; i < n; i++) types[i] = b->args[i]->type;
    if (b->nargs > 32)
        return sl_error_set(err, SL_ERR_PROGRAM_LIMIT_EXCEEDED,
                            "cannot pass more than 32 arguments to a function");
    if (check_kind(b->func, b->func->name, n, types, err)) return -1;
    b->kernel = b->func->kernel;
    b->const_args = 0;
    b->aux = NULL;
    return b->func->bind(b, err);
}

int exec_func_lookup(sl_arena_t *a, const char *name, int argc, const exec_type_t *argtypes,
                     const exec_func_t **out, exec_type_t *ret, sl_error_t *err)
{
    const exec_func_t *f = exec_func_find(name);
    if (check_kind(f, name, argc, argtypes, err)) return -1;
    exec_bind_t b = {.arena = a, .func = f, .nargs = argc, .check_only = true, .kernel = f->kernel};
    b.args = SL_NEW_ARRAY(a, exec_expr_t *, argc ? argc : 1);
    for (int i = 0; i < argc; i++) b.args[i] = exec_expr_column(a, i, argtypes[i], NULL);
    if (exec_func_bind(&b, err)) return -1;
    *out = f;
    *ret = b.type;
    return 0;
}

/* ---- the functions exec_expr_call turns into nodes ------------------------------------- */

int exec_bind_coalesce(exec_bind_t *b, sl_error_t *err)
{
    b->type = exec_type_of(EXEC_TYPE_NULL);
    for (int i = 0; i < b->nargs; i++)
        if (exec_common_type(b->type, b->args[i]->type, "COALESCE", &b->type, err)) return -1;
    return 0;
}

int exec_bind_struct(exec_bind_t *b, sl_error_t *err)
{
    (void)err;
    const char **names = SL_NEW_ARRAY(b->arena, const char *, b->nargs ? b->nargs : 1);
    exec_type_t *types = SL_NEW_ARRAY(b->arena, exec_type_t, b->nargs ? b->nargs : 1);
    for (int i = 0; i < b->nargs; i++) {
        names[i] = b->names && b->names[i] ? b->names[i] : sl_printf(b->arena, "col%d", i + 1);
        types[i] = b->args[i]->type;
    }
    b->type = exec_type_struct(b->arena, b->nargs, names, types);
    return 0;
}

int exec_bind_named_struct(exec_bind_t *b, sl_error_t *err)
{
    if (b->nargs % 2) return exec_bind_mismatch(b, err);
    for (int i = 0; i < b->nargs; i += 2)
        if (b->args[i]->type.id != EXEC_TYPE_STRING) return exec_bind_mismatch(b, err);
    b->type = exec_type_struct(b->arena, 0, NULL, NULL); /* names are constants: unknown here */
    return 0;
}
