/* source_create() and source_validate(): the table of source
 * implementations by connector name. A new source adds one line to `impls`
 * and its two functions to conn_int.h; every source connector of the
 * registry (connector.c) has one. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "connectors/conn_int.h"
#include "connectors/validate.h"

static const source_impl_t impls[] = {
    {"rate", source_rate_create, source_rate_validate},
    {"file", source_file_create, source_file_validate},
    {"nexmark", source_nexmark_create, source_nexmark_validate},
    {"kafka", source_kafka_create, source_kafka_validate},
    {"postgres_cdc", source_pgcdc_create, source_pgcdc_validate},
};

static const source_impl_t *impl_find(const conn_desc_t *d)
{
    for (size_t i = 0; i < sizeof impls / sizeof impls[0]; i++)
        if (!strcasecmp(impls[i].name, d->name)) return &impls[i];
    return NULL;
}

static int no_impl(const conn_desc_t *d, sl_error_t *err)
{
    return sl_error_set(err, SL_ERR_INTERNAL_ERROR, "%s is not a source connector", d->name);
}

int source_validate(const conn_stream_t *rel, sl_error_t *err)
{
    if (!rel->connector)
        return sl_error_set(err, SL_ERR_INTERNAL_ERROR, "stream \"%s\" has no connector",
                            rel->name ? rel->name : "?");
    int bad;
    if (conn_check_options(rel->connector, rel->opts, rel->nopts, &bad, err) < 0) return -1;
    const source_impl_t *impl = impl_find(rel->connector);
    return impl ? impl->validate(rel, err) : no_impl(rel->connector, err);
}

int source_create(const conn_stream_t *rel, int index, const char *dir, const char *query_name,
                  sl_arena_t *a, source_t **out, sl_error_t *err)
{
    *out = NULL;
    if (source_validate(rel, err) < 0) return -1;
    const source_impl_t *impl = impl_find(rel->connector);
    if (!impl) return no_impl(rel->connector, err);
    source_t *s = SL_NEW(a, source_t);
    conn_stream_t *copy = SL_NEW(a, conn_stream_t);
    *copy = *rel; /* the caller's description may be a temporary */
    s->rel = copy;
    s->index = index;
    s->dir = dir ? sl_strdup(a, dir) : NULL;
    s->query_name = sl_strdup(a, query_name ? query_name : "");
    s->now_ms = conn_wall_ms;
    atomic_init(&s->malformed, 0);
    atomic_init(&s->dropped, 0);
    if (impl->create(s, a, err) < 0) return -1;
    *out = s;
    return 0;
}
