/* Catalog object definitions: validation of CREATE STREAM / CREATE TABLE and
 * their description for the planner. */
#include "server/objects.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model/text_io.h"
#include "connectors/memtable.h"
#include "parser/parser.h"
#include "planner/plan.h"

/* The key as the user spelled it: the parser folds unquoted keys, but
 * messages should quote what was written (the registry matches keys
 * case-insensitively either way). */
static const char *written_key(const ast_option_t *o, const char *sql, sl_arena_t *a)
{
    if (o->key_quoted || !sql) return o->key;
    size_t n = strlen(o->key);
    const char *p = sql + o->pos;
    return strncasecmp(p, o->key, n) ? o->key : sl_strndup(a, p, n);
}

conn_kv_t *obj_options(const ast_option_list_t *l, const char *sql, sl_arena_t *a)
{
    conn_kv_t *kv = SL_NEW_ARRAY(a, conn_kv_t, l->n + 1);
    for (int i = 0; i < l->n; i++) {
        kv[i].key = written_key(l->items[i], sql, a);
        kv[i].value = l->items[i]->value;
    }
    return kv;
}

/* Fills the relation's columns from a "name TYPE, ..." schema text. */
static int columns_from_schema(const char *schema, sl_arena_t *a, plan_relation_t *out,
                               sl_error_t *err)
{
    exec_type_t st;
    if (exec_schema_parse(schema, strlen(schema), a, &st, err) < 0) return -1;
    out->stream.ncols = st.nfields;
    out->stream.col_names = SL_NEW_ARRAY(a, const char *, st.nfields);
    out->stream.col_types = SL_NEW_ARRAY(a, exec_type_t, st.nfields);
    for (int i = 0; i < st.nfields; i++) {
        out->stream.col_names[i] = st.fields[i].name;
        out->stream.col_types[i] = st.fields[i].type;
    }
    return 0;
}

/* Fills the relation's columns from a column definition list. */
static int columns_from_defs(const ast_column_def_list_t *defs, const char *sql, sl_arena_t *a,
                             plan_relation_t *out, sl_error_t *err)
{
    out->stream.ncols = defs->n;
    out->stream.col_names = SL_NEW_ARRAY(a, const char *, defs->n);
    out->stream.col_types = SL_NEW_ARRAY(a, exec_type_t, defs->n);
    for (int i = 0; i < defs->n; i++) {
        const ast_column_def_t *d = defs->items[i];
        for (int j = 0; j < i; j++)
            if (!strcmp(out->stream.col_names[j], d->name->name)) {
                sl_error_set(err, SL_ERR_DUPLICATE_COLUMN, "column \"%s\" specified more than once",
                             d->name->name);
                err->position = d->name->pos + 1;
                return -1;
            }
        out->stream.col_names[i] = d->name->name;
        const ast_type_t *t = d->type;
        if (exec_type_parse(sql + t->pos, (size_t)(t->end - t->pos), a, &out->stream.col_types[i],
                            err) < 0) {
            err->position = t->pos + 1;
            return -1;
        }
    }
    return 0;
}

static int check_options(const conn_desc_t *d, const ast_option_list_t *l, conn_kv_t *kv,
                         int fallback_pos, sl_error_t *err)
{
    int bad;
    if (conn_check_options(d, kv, l->n, &bad, err) < 0) {
        err->position = (bad >= 0 ? l->items[bad]->pos : fallback_pos) + 1;
        return -1;
    }
    for (int i = 0; i < l->n; i++) kv[i].key = conn_canonical_key(d, kv[i].key);
    return 0;
}

static int stream_columns(const ast_create_stream_t *cs, const char *sql, sl_arena_t *a,
                          plan_relation_t *out, sl_error_t *err)
{
    const conn_desc_t *d = out->stream.connector;
    const char *fixed;
    if (conn_fixed_columns(d, out->stream.opts, out->stream.nopts, cs->has_columns, &fixed, err) <
        0) {
        err->position = cs->connector->pos + 1;
        return -1;
    }
    if (fixed && cs->has_columns) {
        sl_error_set(err, SL_ERR_INVALID_OBJECT_DEFINITION,
                     "a %s stream has fixed columns and takes no column list", d->name);
        sl_error_detail(err, "Its columns are: %s.", fixed);
        err->position = cs->columns.n ? cs->columns.items[0]->pos + 1 : cs->name->end + 1;
        return -1;
    }
    if (fixed) return columns_from_schema(fixed, a, out, err);
    if (!cs->has_columns) {
        sl_error_set(err, SL_ERR_INVALID_OBJECT_DEFINITION, "a %s stream needs a column list",
                     d->name);
        sl_error_hint(err,
                      "Declare the columns of its records: CREATE STREAM %s (col TYPE, ...) "
                      "USING %s ...",
                      cs->name->name, d->name);
        err->position = cs->connector->pos + 1;
        return -1;
    }
    return columns_from_defs(&cs->columns, sql, a, out, err);
}

static int stream_watermark(const ast_watermark_t *wm, sl_arena_t *a, plan_relation_t *out,
                            sl_error_t *err)
{
    (void)a;
    out->wm_col = -1;
    if (!wm) return 0;
    const ast_expr_t *c = wm->column;
    const char *name = c->names.items[c->names.n - 1]->name;
    int col = c->names.n == 1 ? plan_relation_column(out, name) : -1;
    if (col < 0) {
        sl_error_set(err, SL_ERR_UNDEFINED_COLUMN, "watermark column \"%s\" does not exist", name);
        err->position = c->pos + 1;
        return -1;
    }
    if (out->stream.col_types[col].id != EXEC_TYPE_TIMESTAMP) {
        sl_error_set(err, SL_ERR_DATATYPE_MISMATCH, "watermark column \"%s\" must be a TIMESTAMP",
                     name);
        err->position = c->pos + 1;
        return -1;
    }
    out->wm_col = col;
    return plan_interval_ms(wm->delay, "watermark delay", &out->wm_delay_ms, err);
}

int obj_stream_define(const ast_create_stream_t *cs, const char *sql, sl_arena_t *a,
                      plan_relation_t *out, sl_error_t *err)
{
    memset(out, 0, sizeof *out);
    out->kind = PLAN_REL_STREAM;
    out->stream.name = cs->name->name;
    out->stream.connector = conn_lookup(cs->connector->name, CONN_SOURCE, err);
    if (!out->stream.connector) {
        err->position = cs->connector->pos + 1;
        return -1;
    }
    out->stream.nopts = cs->options.n;
    out->stream.opts = obj_options(&cs->options, sql, a);
    if (check_options(out->stream.connector, &cs->options, out->stream.opts, cs->connector->pos,
                      err) < 0)
        return -1;
    if (stream_columns(cs, sql, a, out, err) < 0) return -1;
    return stream_watermark(cs->watermark, a, out, err);
}

int obj_table_define(const ast_create_table_t *ct, const char *sql, sl_arena_t *a,
                     plan_relation_t *out, sl_error_t *err)
{
    memset(out, 0, sizeof *out);
    out->kind = PLAN_REL_TABLE;
    out->stream.name = ct->name->name;
    out->wm_col = -1;
    if (ct->format) {
        out->stream.connector = conn_lookup(ct->format->name, CONN_TABLE, err);
        if (!out->stream.connector) {
            err->position = ct->format->pos + 1;
            return -1;
        }
        out->stream.nopts = ct->options.n;
        out->stream.opts = obj_options(&ct->options, sql, a);
        if (check_options(out->stream.connector, &ct->options, out->stream.opts, ct->format->pos,
                          err) < 0)
            return -1;
    } else if (ct->options.n) {
        sl_error_set(err, SL_ERR_SYNTAX_ERROR, "OPTIONS need a USING format");
        err->position = ct->options.items[0]->pos + 1;
        return sl_error_hint(err, "Tables kept in the catalog take no options; write USING csv "
                                  "or USING json to read a file.");
    }
    if (!ct->has_columns || ct->columns.n == 0) {
        sl_error_set(err, SL_ERR_INVALID_OBJECT_DEFINITION, "table \"%s\" needs a column list",
                     out->stream.name);
        err->position = ct->name->pos + 1;
        return -1;
    }
    return columns_from_defs(&ct->columns, sql, a, out, err);
}

const ast_stmt_t *obj_parse_entry(const cat_entry_t *e, sl_arena_t *a, sl_error_t *err)
{
    ast_stmt_list_t list;
    if (parse_sql(e->sql, strlen(e->sql), a, &list, err) < 0) return NULL;
    if (list.n != 1) {
        sl_error_set(err, SL_ERR_INTERNAL_ERROR, "catalog entry \"%s\" holds %d statements",
                     e->name, list.n);
        return NULL;
    }
    return list.items[0];
}

int obj_lookup(cat_t *cat, const char *name, sl_arena_t *a, plan_relation_t *out, sl_error_t *err)
{
    cat_entry_t e;
    if (!cat_lookup(cat, name, a, &e)) return 0;
    const ast_stmt_t *s = obj_parse_entry(&e, a, err);
    if (!s) return -1;
    int rc;
    switch (s->kind) {
    case AST_STMT_CREATE_STREAM:
        rc = obj_stream_define(&s->create_stream, e.sql, a, out, err);
        break;
    case AST_STMT_CREATE_TABLE: rc = obj_table_define(&s->create_table, e.sql, a, out, err); break;
    default:
        return sl_error_set(err, SL_ERR_WRONG_OBJECT_TYPE, "\"%s\" is a %s, not a relation", name,
                            cat_kind_name(e.kind));
    }
    if (rc < 0) {
        err->position = 0; /* positions refer to the stored text, not the user's statement */
        return -1;
    }
    out->sql = e.sql;
    out->version = e.version;
    return 1;
}

/* A query's memory sink, described as a relation. */
static int memory_relation(srv_t *srv, const char *name, sl_arena_t *a, plan_relation_t *out,
                           sl_error_t *err)
{
    memset(out, 0, sizeof *out);
    out->kind = PLAN_REL_MEMORY;
    out->stream.name = sl_strdup(a, name);
    out->wm_col = -1;
    exec_batch_t **batches;
    int nbatches;
    int found =
        memtable_snapshot(srv->memtables, name, a, &out->stream.ncols, &out->stream.col_names,
                          &out->stream.col_types, &batches, &nbatches);
    if (found == 0) {
        sl_error_set(err, SL_ERR_WRONG_OBJECT_TYPE, "query \"%s\" has no memory sink to read",
                     name);
        sl_error_hint(err, "Only queries with SINK memory (the default) can be read with SELECT.");
        return -1;
    }
    return 1;
}

static int plan_catalog_lookup(void *ctx, const char *name, sl_arena_t *a, plan_relation_t *out,
                               sl_error_t *err)
{
    srv_t *srv = ctx;
    cat_entry_t e;
    if (!cat_lookup(srv->cat, name, a, &e)) return 0;
    if (e.kind == CAT_QUERY) return memory_relation(srv, name, a, out, err);
    return obj_lookup(srv->cat, name, a, out, err);
}

void obj_plan_catalog(srv_t *srv, plan_catalog_t *out)
{
    *out = (plan_catalog_t){.ctx = srv, .lookup = plan_catalog_lookup};
}
