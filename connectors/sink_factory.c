/* sink_create() and sink_validate(): the table of sink implementations by
 * connector name. A new sink adds one line to `impls` and its two
 * functions to conn_int.h; every sink connector of the registry
 * (connector.c) has one. */
#include <string.h>
#include <strings.h>

#include "connectors/conn_int.h"
#include "connectors/validate.h"

static int no_checks(const conn_desc_t *desc, output_mode_t mode, const sink_schema_t *schema,
                     const conn_kv_t *opts, int nopts, sl_error_t *err)
{
    (void)desc, (void)mode, (void)schema, (void)opts, (void)nopts, (void)err;
    return 0;
}

static const sink_impl_t impls[] = {
    {"noop", sink_noop_create, no_checks},
    {"memory", sink_memory_create, no_checks},
    {"console", sink_console_create, sink_console_validate},
    {"file", sink_file_create, sink_file_validate},
    {"kafka", sink_kafka_create, sink_kafka_validate},
    {"postgres", sink_postgres_create, sink_postgres_validate},
};

static int no_impl(const conn_desc_t *desc, sl_error_t *err)
{
    return sl_error_set(err, SL_ERR_INTERNAL_ERROR, "%s is not a sink connector", desc->name);
}

static const sink_impl_t *impl_find(const conn_desc_t *desc)
{
    for (size_t i = 0; i < sizeof impls / sizeof impls[0]; i++)
        if (!strcasecmp(impls[i].name, desc->name)) return &impls[i];
    return NULL;
}

int sink_validate(const conn_desc_t *desc, output_mode_t mode, const sink_schema_t *schema,
                  const conn_kv_t *opts, int nopts, sl_error_t *err)
{
    const sink_impl_t *impl = impl_find(desc);
    int bad;
    if (conn_check_options(desc, opts, nopts, &bad, err) < 0) return -1;
    if (!impl) return no_impl(desc, err);
    return impl->validate(desc, mode, schema, opts, nopts, err);
}

/* A copy of the schema in `a` (the sink outlives the caller's structs). */
static sink_schema_t schema_copy(const sink_schema_t *s, sl_arena_t *a)
{
    sink_schema_t c = *s;
    int n = s->ncols + s->nhidden;
    const char **names = SL_NEW_ARRAY(a, const char *, n ? n : 1);
    exec_type_t *types = SL_NEW_ARRAY(a, exec_type_t, n ? n : 1);
    int *keys = SL_NEW_ARRAY(a, int, s->nkeys ? s->nkeys : 1);
    for (int i = 0; i < n; i++) {
        names[i] = sl_strdup(a, s->names[i]);
        types[i] = conn_type_copy(a, s->types[i]);
    }
    if (s->nkeys) memcpy(keys, s->keys, sizeof(int) * (size_t)s->nkeys);
    c.names = names;
    c.types = types;
    c.keys = keys;
    return c;
}

int sink_create(const conn_desc_t *desc, const char *query_name, const char *data_dir,
                output_mode_t mode, const sink_schema_t *schema, const conn_kv_t *opts, int nopts,
                const sink_env_t *env, sl_arena_t *a, sink_t **out, sl_error_t *err)
{
    *out = NULL;
    if (sink_validate(desc, mode, schema, opts, nopts, err) < 0) return -1;
    const sink_impl_t *impl = impl_find(desc);
    if (!impl) return no_impl(desc, err);
    sink_t *s = SL_NEW(a, sink_t);
    s->query_name = sl_strdup(a, query_name ? query_name : "");
    s->data_dir = data_dir ? sl_strdup(a, data_dir) : NULL;
    s->mode = mode;
    s->schema = schema_copy(schema, a);
    conn_kv_t *kv = SL_NEW_ARRAY(a, conn_kv_t, nopts ? nopts : 1);
    for (int i = 0; i < nopts; i++)
        kv[i] = (conn_kv_t){sl_strdup(a, opts[i].key), sl_strdup(a, opts[i].value)};
    s->opts = kv;
    s->nopts = nopts;
    s->last_output_rows = -1;
    if (impl->create(s, env, a, err) < 0) return -1;
    *out = s;
    return 0;
}
