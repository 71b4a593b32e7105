/* Binder internals for PostgreSQL clients' catalog-query syntax and
 * session functions (bind_pg.c). */
#ifndef SL_BIND_PG_H
#define SL_BIND_PG_H

#include "planner/bind_int.h"

/* A bare SQL value function (current_user, current_date, ...) named
 * `name`, or NULL with err untouched when `name` is none of them. */
exec_expr_t *bind_pg_value(binder_t *b, const char *name, sl_error_t *err);
/* current_database(), current_schema(), current_schemas(bool),
 * pg_get_userbyid(oid): 1 with *out set, 0 when e is no such call, -1 error. */
int bind_pg_func(binder_t *b, const ast_expr_t *e, exec_expr_t **out, sl_error_t *err);
/* Casts to oid, the reg* types, name and "char", and x::regtype::text: 1
 * with *out set, 0 when e is another cast, -1 error. */
int bind_pg_cast(binder_t *b, const ast_expr_t *e, exec_expr_t **out, sl_error_t *err);
/* 42883 for OPERATOR(schema.op) with a schema other than pg_catalog; else 0. */
int bind_pg_operator_schema(const ast_expr_t *e, sl_error_t *err);
/* l ~ r, l !~ r, l ~* r, l !~* r. */
exec_expr_t *bind_pg_regex(binder_t *b, ast_op_t op, exec_expr_t *l, exec_expr_t *r,
                           sl_error_t *err);
/* e COLLATE name. */
exec_expr_t *bind_pg_collate(binder_t *b, const ast_expr_t *e, sl_error_t *err);

#endif
