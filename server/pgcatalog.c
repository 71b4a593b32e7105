/* The catalog relations' machinery: name lookup in the relation table,
 * the column lists parsed into relation descriptions, the row generator
 * the fill functions write through, and the list of sluice's objects
 * (streams, static tables, query tables) they describe. */
#include "server/pgcatalog_int.h"

#include <assert.h>
#include <string.h>

#include "common/redact.h"
#include "connectors/memtable.h"
#include "server/objects.h"

/* ---- column lists ---- */

exec_type_t pgcat_kind_type(char k)
{
    switch (k) {
    case 'o':
    case 'l': return exec_type_of(EXEC_TYPE_BIGINT);
    case 'i':
    case 'h':
    case 'n': return exec_type_of(EXEC_TYPE_INT);
    case 'b': return exec_type_of(EXEC_TYPE_BOOLEAN);
    case 'f': return exec_type_of(EXEC_TYPE_DOUBLE);
    case 'x': return exec_type_of(EXEC_TYPE_TIMESTAMP);
    default: return exec_type_of(EXEC_TYPE_STRING);
    }
}

/* Splits "name:k name:k ..." into g's column arrays. */
static void parse_cols(pgcat_gen_t *g)
{
    const char *s = g->rel->cols;
    int n = 0;
    for (const char *p = s; *p; p++) n += *p == ':';
    g->ncols = n;
    g->names = SL_NEW_ARRAY(g->a, const char *, n);
    g->kinds = SL_NEW_ARRAY(g->a, char, n);
    g->types = SL_NEW_ARRAY(g->a, exec_type_t, n);
    g->cells = SL_NEW_ARRAY(g->a, exec_value_t, n);
    for (int i = 0; i < n; i++) {
        while (*s == ' ') s++;
        const char *colon = strchr(s, ':');
        g->names[i] = sl_strndup(g->a, s, (size_t)(colon - s));
        g->kinds[i] = colon[1];
        g->types[i] = pgcat_kind_type(colon[1]);
        s = colon + 2;
    }
}

/* ---- the row generator ---- */

static void flush_row(pgcat_gen_t *g)
{
    if (!g->in_row) return;
    uint32_t row = exec_builder_add_row(&g->bld);
    for (int i = 0; i < g->ncols; i++) exec_builder_set_value(&g->bld, i, row, &g->cells[i]);
    g->in_row = 0;
}

void pgcat_row(pgcat_gen_t *g)
{
    flush_row(g);
    for (int i = 0; i < g->ncols; i++) {
        switch (g->kinds[i]) {
        case 'o':
        case 'l': g->cells[i] = exec_value_bigint(0); break;
        case 'i':
        case 'h': g->cells[i] = exec_value_int(0); break;
        case 'b': g->cells[i] = exec_value_bool(false); break;
        case 'f': g->cells[i] = exec_value_double(0); break;
        default: g->cells[i] = exec_value_null(g->types[i]); break;
        }
    }
    g->in_row = 1;
}

static int col_index(const pgcat_gen_t *g, const char *col)
{
    for (int i = 0; i < g->ncols; i++)
        if (!strcmp(g->names[i], col)) return i;
    assert(!"catalog relation has no such column");
    return -1;
}

void pgcat_text(pgcat_gen_t *g, const char *col, const char *v)
{
    int i = col_index(g, col);
    if (i < 0) return;
    if (!v) {
        g->cells[i] = exec_value_null(g->types[i]);
        return;
    }
    if (g->types[i].id == EXEC_TYPE_STRING) {
        g->cells[i] = exec_value_cstr(g->a, v);
        return;
    }
    sl_error_t err = {0};
    if (exec_value_parse(g->types[i], v, strlen(v), g->a, &g->cells[i], &err) < 0)
        g->cells[i] = exec_value_null(g->types[i]);
}

void pgcat_int(pgcat_gen_t *g, const char *col, int64_t v)
{
    int i = col_index(g, col);
    if (i < 0) return;
    if (g->types[i].id == EXEC_TYPE_BIGINT) g->cells[i] = exec_value_bigint(v);
    else if (g->types[i].id == EXEC_TYPE_INT) g->cells[i] = exec_value_int((int32_t)v);
    else pgcat_text(g, col, sl_printf(g->a, "%lld", (long long)v));
}

void pgcat_bool(pgcat_gen_t *g, const char *col, int v)
{
    int i = col_index(g, col);
    if (i >= 0) g->cells[i] = exec_value_bool(v != 0);
}

/* ---- sluice's objects ---- */

static char object_relkind(cat_kind_t k)
{
    return k == CAT_STREAM ? 'v' : k == CAT_TABLE ? 'r' : 'm';
}

/* An object's columns: a query's from its memory table (a query without
 * one is no relation), a stream's or table's from its definition (an entry
 * that no longer parses is left out rather than failing every catalog
 * query). Returns 1 when it is a relation. */
static int describe(pgcat_gen_t *g, const cat_entry_t *e, plan_relation_t *rel)
{
    srv_t *srv = g->sess->srv;
    memset(rel, 0, sizeof *rel);
    rel->stream.name = e->name;
    if (e->kind == CAT_QUERY)
        return memtable_columns(srv->memtables, e->name, g->a, &rel->stream.ncols,
                                &rel->stream.col_names, &rel->stream.col_types);
    sl_error_t err = {0};
    return obj_lookup(srv->cat, e->name, g->a, rel, &err) == 1;
}

int pgcat_objects(pgcat_gen_t *g, pgcat_object_t **out)
{
    if (g->nobjects >= 0) {
        *out = g->objects;
        return g->nobjects;
    }
    cat_entry_t *entries;
    int n = cat_list(g->sess->srv->cat, 0, g->a, &entries);
    g->objects = SL_NEW_ARRAY(g->a, pgcat_object_t, n > 0 ? n : 1);
    g->nobjects = 0;
    for (int i = 0; i < n; i++) {
        pgcat_object_t *o = &g->objects[g->nobjects];
        if (!describe(g, &entries[i], &o->rel)) continue;
        o->entry = entries[i];
        o->entry.sql = sl_redact_sql(g->a, entries[i].sql); /* shown as view definitions */
        o->oid = PGCAT_OID_USER_BASE + entries[i].id;
        o->relkind = object_relkind(entries[i].kind);
        g->nobjects++;
    }
    *out = g->objects;
    return g->nobjects;
}

/* ---- lookup ---- */

static const pgcat_rel_t *find_rel(const char *schema, const char *name)
{
    for (int i = 0; i < pgcat_rel_count(); i++) {
        const pgcat_rel_t *r = pgcat_rel_at(i);
        if (!strcmp(r->schema, schema) && !strcmp(r->name, name)) return r;
    }
    return NULL;
}

int pgcat_lookup(void *sys_ctx, const char *schema, const char *name, sl_arena_t *a,
                 plan_relation_t *out, sl_error_t *err)
{
    (void)err;
    const pgcat_rel_t *r = find_rel(schema, name);
    if (!r) return 0;
    pgcat_gen_t *g = SL_NEW(a, pgcat_gen_t);
    *g = (pgcat_gen_t){.sess = sys_ctx, .a = a, .rel = r, .nobjects = -1};
    parse_cols(g);
    exec_builder_init(&g->bld, a, g->ncols, g->types, 16);
    if (r->fill && g->sess->sess) r->fill(g);
    flush_row(g);
    memset(out, 0, sizeof *out);
    out->kind = PLAN_REL_SYSTEM;
    out->stream.name = r->name;
    out->stream.ncols = g->ncols;
    out->stream.col_names = g->names;
    out->stream.col_types = g->types;
    out->wm_col = -1;
    out->handle = exec_builder_finish(&g->bld);
    return 1;
}

int64_t pgcat_regclass(const pgcat_session_t *s, const char *name, sl_arena_t *a)
{
    const char *dot = strchr(name, '.');
    const char *schema = dot ? sl_strndup(a, name, (size_t)(dot - name)) : NULL;
    const char *rel = dot ? dot + 1 : name;
    for (int i = 0; i < pgcat_rel_count(); i++) {
        const pgcat_rel_t *r = pgcat_rel_at(i);
        int schema_ok = schema ? !strcmp(schema, r->schema) : !strcmp(r->schema, "pg_catalog");
        if (schema_ok && !strcmp(r->name, rel)) return PGCAT_OID_SYSTEM_BASE + i;
    }
    if (schema && strcmp(schema, "public")) return 0;
    cat_entry_t e;
    return cat_lookup(s->srv->cat, rel, a, &e) ? PGCAT_OID_USER_BASE + e.id : 0;
}

/* plan_catalog_t.relations: the catalog relations, then sluice's objects. */
static int relations_cb(void *sys_ctx, sl_arena_t *a, int64_t **oids, const char ***names,
                        const char ***defs)
{
    pgcat_gen_t g = {.sess = sys_ctx, .a = a, .nobjects = -1};
    pgcat_object_t *o;
    int nsys = pgcat_rel_count(), nobj = pgcat_objects(&g, &o), n = nsys + nobj;
    *oids = SL_NEW_ARRAY(a, int64_t, n);
    *names = SL_NEW_ARRAY(a, const char *, n);
    *defs = SL_NEW_ARRAY(a, const char *, n);
    for (int i = 0; i < nsys; i++) {
        (*oids)[i] = PGCAT_OID_SYSTEM_BASE + i;
        (*names)[i] = pgcat_rel_at(i)->name;
    }
    for (int i = 0; i < nobj; i++) {
        (*oids)[nsys + i] = o[i].oid;
        (*names)[nsys + i] = o[i].rel.stream.name;
        (*defs)[nsys + i] = o[i].relkind == 'r' ? NULL : o[i].entry.sql;
    }
    return n;
}

void pgcat_plan_catalog(pgcat_session_t *s, plan_catalog_t *cat)
{
    cat->lookup_system = pgcat_lookup;
    cat->regclass = pgcat_regclass_cb;
    cat->relations = relations_cb;
    cat->sys_ctx = s;
}

int64_t pgcat_regclass_cb(void *sys_ctx, const char *name, sl_arena_t *a)
{
    return pgcat_regclass(sys_ctx, name, a);
}
