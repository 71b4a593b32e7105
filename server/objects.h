/* Definitions of catalog objects, rebuilt from the CREATE text the catalog
 * keeps: the same code validates a CREATE STREAM/TABLE when it is issued and
 * describes the object to the planner (plan_relation_t) ever after. */
#ifndef SL_OBJECTS_H
#define SL_OBJECTS_H

#include "parser/ast.h"
#include "planner/relation.h"
#include "server/catalog.h"
#include "server/server.h"

/* Validates a CREATE STREAM and describes the stream. Errors carry 1-based
 * byte positions into `sql`. */
int obj_stream_define(const ast_create_stream_t *cs, const char *sql, sl_arena_t *a,
                      plan_relation_t *out, sl_error_t *err);
/* Validates a CREATE TABLE and describes the table. */
int obj_table_define(const ast_create_table_t *ct, const char *sql, sl_arena_t *a,
                     plan_relation_t *out, sl_error_t *err);
/* Looks an object up in the catalog and describes it: 1 found, 0 not, -1 error. */
int obj_lookup(cat_t *cat, const char *name, sl_arena_t *a, plan_relation_t *out, sl_error_t *err);
/* The catalog as the planner sees it: streams and tables from the catalog,
 * and the memory sink tables of queries. */
void obj_plan_catalog(srv_t *srv, plan_catalog_t *out);
/* Parses the CREATE text of a catalog entry (one statement) into `a`. */
const ast_stmt_t *obj_parse_entry(const cat_entry_t *e, sl_arena_t *a, sl_error_t *err);
/* The options of a clause as key/value pairs in `a`. */
conn_kv_t *obj_options(const ast_option_list_t *l, const char *sql, sl_arena_t *a);

#endif
