/* exec functions on JSON and the server: from_json(s, 'a INT, b STRING')
 * (PERMISSIVE: malformed text gives a NULL struct), to_json(struct) (NULL
 * fields left out, as Spark), pg_sleep(seconds) (sleeps in short slices and
 * honours the cancel flag) and version(). */
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "common/version.h"
#include "exec/func_int.h"
#include "model/json.h"

static const exec_type_t string_type = {.id = EXEC_TYPE_STRING};

/* ---- from_json / to_json ----------------------------------------------------------- */

int exec_bind_from_json(exec_bind_t *b, sl_error_t *err)
{
    const char *schema;
    size_t n;
    if (exec_bind_arg(b, 0, string_type, false, err) ||
        exec_bind_const_string(b, 1, &schema, &n, err))
        return -1;
    if (b->nargs == 3 && b->args[2]->type.id != EXEC_TYPE_STRING) return exec_bind_mismatch(b, err);
    exec_bind_consume(b, 1);
    if (b->nargs == 3) exec_bind_consume(b, 2); /* options: the defaults are the only mode */
    if (b->check_only) {
        b->type = exec_type_struct(b->arena, 0, NULL, NULL);
        return 0;
    }
    if (!schema)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "the schema of from_json must not be NULL");
    /* 'a INT, b STRING' or 'STRUCT<a: INT, b: STRING>' */
    sl_error_t first;
    if (!exec_schema_parse(schema, n, b->arena, &b->type, &first)) return 0;
    if (!exec_type_parse(schema, n, b->arena, &b->type, err) && b->type.id == EXEC_TYPE_STRUCT)
        return 0;
    sl_error_copy(err, &first);
    return -1;
}

/* A struct whose every field is NULL. */
static exec_value_t null_fields(exec_type_t t, sl_arena_t *a)
{
    exec_value_t *f = SL_NEW_ARRAY(a, exec_value_t, t.nfields ? t.nfields : 1);
    for (int i = 0; i < t.nfields; i++) f[i] = exec_value_null(t.fields[i].type);
    return exec_value_struct(t, f);
}

int exec_fn_from_json(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    exec_vec_t *o = c->out;
    FOR_ROWS(c, {
        exec_str_t s = ARG(c, 0, exec_str_t, i);
        exec_value_t v;
        sl_error_t perr;
        if (exec_json_parse_value(o->type, s.ptr ? s.ptr : "", s.len, c->arena, &v, &perr))
            v = null_fields(o->type, c->arena); /* malformed: Spark 3's struct of NULLs */
        exec_vec_set_value(c->arena, o, c->cap, i, &v);
    });
    return 0;
}

int exec_bind_to_json(exec_bind_t *b, sl_error_t *err)
{
    if (exec_bind_type(b, 0) != EXEC_TYPE_STRUCT) return exec_bind_mismatch(b, err);
    b->type = string_type;
    return 0;
}

int exec_fn_to_json(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    sl_buf_t buf = SL_BUF_INIT;
    FOR_ROWS(c, {
        sl_buf_clear(&buf);
        sl_json_t j;
        sl_json_init(&j, &buf, false);
        exec_json_write_cell(&j, c->args[0], i, true);
        OUT(c, exec_str_t, i) =
            (exec_str_t){(uint32_t)buf.len, sl_strndup(c->arena, buf.data, buf.len)};
    });
    sl_buf_free(&buf);
    return 0;
}

/* ---- pg_sleep ------------------------------------------------------------------------- */

int exec_bind_pg_sleep(exec_bind_t *b, sl_error_t *err)
{
    if (!exec_type_is_numeric(b->args[0]->type) && exec_bind_type(b, 0) != EXEC_TYPE_NULL)
        return exec_bind_mismatch(b, err);
    if (exec_bind_arg(b, 0, exec_type_of(EXEC_TYPE_DOUBLE), false, err)) return -1;
    b->type = exec_type_of(EXEC_TYPE_NULL);
    return 0;
}

/* Sleeps `secs`, waking every 10 ms to look at the cancel flag. */
static int sleep_checked(double secs, const exec_ctx_t *ctx, sl_error_t *err)
{
    struct timespec now, end;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double until = (double)now.tv_sec + now.tv_nsec / 1e9 + (secs > 0 ? secs : 0);
    end.tv_sec = (time_t)until;
    end.tv_nsec = (long)((until - (double)end.tv_sec) * 1e9);
    for (;;) {
        if (ctx->cancel && atomic_load(ctx->cancel))
            return sl_error_set(err, SL_ERR_QUERY_CANCELED,
                                "canceling statement due to user request");
        clock_gettime(CLOCK_MONOTONIC, &now);
        double left = (double)(end.tv_sec - now.tv_sec) + (end.tv_nsec - now.tv_nsec) / 1e9;
        if (left <= 0) return 0;
        double slice = left < 0.01 ? left : 0.01;
        struct timespec ts = {(time_t)slice, (long)((slice - (double)(time_t)slice) * 1e9)};
        nanosleep(&ts, NULL);
    }
}

int exec_fn_pg_sleep(const exec_fcall_t *c, sl_error_t *err)
{
    FOR_ROWS(c, if (sleep_checked(ARG(c, 0, double, i), c->ctx, err)) return -1);
    return 0; /* the result vector (NULL type) is all NULL */
}

/* ---- version -------------------------------------------------------------------------------- */

int exec_bind_version(exec_bind_t *b, sl_error_t *err)
{
    (void)err;
    b->type = string_type;
    return 0;
}

int exec_fn_version(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    static const char text[] =
        "sluice " SL_VERSION " (PostgreSQL 15.0 wire protocol), streaming SQL server";
    FOR_ROWS(c, OUT(c, exec_str_t, i) = (exec_str_t){sizeof text - 1, text});
    return 0;
}
