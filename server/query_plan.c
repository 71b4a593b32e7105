/* Continuous query planning: definition, binding, streaming checks,
 * pinned settings, physical plan, sink schema. */
#include "server/query_plan.h"

#include <stdio.h>
#include <string.h>

#include "connectors/validate.h"
#include "runtime/runner.h"
#include "parser/parser.h"
#include "planner/check.h"
#include "server/objects.h"
#include "server/pgcatalog.h"

/* The output's columns, with the hidden key columns after them, and in
 * update mode the result's key (planner/result_key.c): an aggregated
 * result is upserted by its grouping key; without aggregation it appends. */
static void sink_schema(qplan_t *p, const int *keys, int nkeys)
{
    sink_schema_t *s = &p->schema;
    s->ncols = p->phys->ncols;
    s->nhidden = p->phys->nhidden;
    s->names = p->phys->names;
    s->types = p->phys->types;
    s->keyed = p->mode == OUTPUT_UPDATE && nkeys >= 0;
    s->nkeys = s->keyed ? nkeys : 0;
    s->keys = s->keyed ? keys : NULL;
}

static void record_deps(qplan_t *p, const plan_ctx_t *pc, sl_arena_t *a)
{
    p->deps = SL_NEW_ARRAY(a, const char *, pc->nrels + 1);
    for (int i = 0; i < pc->nrels; i++) {
        int dup = 0;
        for (int j = 0; j < p->ndeps; j++) dup |= !strcmp(p->deps[j], pc->rels[i]->stream.name);
        if (!dup) p->deps[p->ndeps++] = pc->rels[i]->stream.name;
    }
}

/* Continuous processing reads sources and writes sinks that have the
 * CONN_CAP_CONTINUOUS capability (Spark's list: Kafka and rate in, Kafka,
 * memory and console out; nexmark and noop as well here). */
static int check_continuous_io(const qplan_t *p, const plan_ctx_t *pc, sl_arena_t *a,
                               sl_error_t *err)
{
    const char *bad = NULL, *kind = NULL;
    for (int i = 0; !bad && i < pc->nrels; i++)
        if (pc->rels[i]->kind == PLAN_REL_STREAM &&
            !(pc->rels[i]->stream.connector->caps & CONN_CAP_CONTINUOUS))
            bad = pc->rels[i]->stream.connector->name, kind = "source";
    if (!bad && !(p->def.sink->caps & CONN_CAP_CONTINUOUS)) bad = p->def.sink->name, kind = "sink";
    if (!bad) return 0;
    sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED, "a continuous trigger cannot use the %s %s",
                 bad, kind);
    sl_error_hint(err,
                  "Continuous queries read %s streams and write %s sinks; use TRIGGER PROCESSING "
                  "TIME for the others.",
                  conn_names_with(CONN_SOURCE, CONN_CAP_CONTINUOUS, a),
                  conn_names_with(CONN_SINK, CONN_CAP_CONTINUOUS, a));
    err->position = p->def.ast->select->pos + 1;
    return -1;
}

/* The checkpoint's pinned settings replace the options of the definition. */
static int apply_pinned(qdef_t *d, sl_arena_t *a, sl_error_t *err)
{
    return runner_read_pinned(d->checkpoint, a, &d->shuffle_partitions, &d->state_store,
                              &d->watermark_policy, err) < 0
               ? -1
               : 0;
}

int qplan_build(srv_t *srv, const ast_create_query_t *cq, const char *sql, sl_arena_t *a,
                qplan_t *out, sl_error_t *err)
{
    memset(out, 0, sizeof *out);
    if (qdef_from_ast(srv, cq, sql, a, &out->def, err) < 0) return -1;
    if (apply_pinned(&out->def, a, err) < 0) return -1;
    plan_catalog_t cat;
    obj_plan_catalog(srv, &cat);
    pgcat_session_t sys = {.srv = srv}; /* catalog relations are known, to be refused */
    pgcat_plan_catalog(&sys, &cat);
    plan_ctx_t pc = {.arena = a, .cat = &cat, .sql = sql, .allow_streams = 1, .spark_names = 1};
    if (!(out->logical = plan_bind(&pc, cq->select, err))) return -1;
    record_deps(out, &pc, a);
    out->mode = out->def.mode;
    if (plan_check_streaming(out->logical, out->mode, out->def.trigger == QTRIG_CONTINUOUS,
                             out->def.sink, err) < 0)
        return -1;
    if (out->def.trigger == QTRIG_CONTINUOUS && check_continuous_io(out, &pc, a, err) < 0)
        return -1;
    int *keys = NULL, nkeys = -1;
    if (out->mode == OUTPUT_UPDATE) nkeys = plan_result_key(a, &out->logical, &keys);
    plan_phys_opts_t o = {
        .streaming = 1, .npartitions = out->def.shuffle_partitions, .mode = out->mode};
    if (!(out->phys = plan_physical(a, out->logical, &o, err))) return -1;
    sink_schema(out, keys, nkeys);
    if (sink_validate(out->def.sink, out->def.mode, &out->schema, out->def.sink_opts,
                      out->def.nsink_opts, err) < 0) {
        if (!err->position) err->position = (cq->sink ? cq->sink->pos : cq->select->pos) + 1;
        return -1;
    }
    return 0;
}

int qplan_from_text(srv_t *srv, const char *sql, sl_arena_t *a, qplan_t *out, sl_error_t *err)
{
    ast_stmt_list_t list;
    if (parse_sql(sql, strlen(sql), a, &list, err) < 0) return -1;
    if (list.n != 1 || list.items[0]->kind != AST_STMT_CREATE_QUERY)
        return sl_error_set(err, SL_ERR_INTERNAL_ERROR,
                            "stored query text is not one CREATE QUERY");
    return qplan_build(srv, &list.items[0]->create_query, sql, a, out, err);
}

void qplan_explain(const qplan_t *p, sl_arena_t *a, sl_buf_t *out)
{
    const qdef_t *d = &p->def;
    sl_buf_printf(out, "Query %s: sink %s, output mode %s, trigger %s\n", d->name, d->sink->name,
                  output_mode_name(d->mode), qdef_trigger_text(d, a));
    sl_buf_puts(out, "Logical plan:\n");
    plan_explain_logical(p->logical, out);
    sl_buf_printf(out, "Incremental plan (%d shuffle partitions, state store %s):\n",
                  d->shuffle_partitions, d->state_store);
    plan_explain_physical(p->phys, out);
    sl_buf_printf(out, "Stateful operators: %d; watermarks: %d", p->phys->nstateful,
                  p->phys->nwatermarks);
    if (p->phys->nwatermarks > 1) sl_buf_printf(out, " (combined by %s)", d->watermark_policy);
    sl_buf_printf(out, "\nOutput mode %s: supported\n", output_mode_name(d->mode));
}

void qplan_checkpoint_spec(const qplan_t *p, sl_arena_t *a, runner_spec_t *spec)
{
    const qdef_t *d = &p->def;
    memset(spec, 0, sizeof *spec);
    spec->name = d->name;
    spec->checkpoint = d->checkpoint;
    spec->nsources = p->phys->nsources;
    spec->nstateful = p->phys->nstateful;
    spec->stateful = p->phys->stateful;
    spec->sink_name = d->sink->name;
    conn_kv_t *pinned;
    spec->nsink_pinned = conn_pinned_options(d->sink, d->sink_opts, d->nsink_opts, a, &pinned);
    spec->sink_pinned = pinned;
}

int qplan_check_checkpoint(const qplan_t *p, sl_arena_t *a, sl_error_t *err)
{
    runner_spec_t spec;
    qplan_checkpoint_spec(p, a, &spec);
    return runner_check_checkpoint(&spec, err);
}
