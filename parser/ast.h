/* The abstract syntax tree the parser produces: tagged structs for
 * statements (ast_stmt_t), SELECT queries (ast_select_t), FROM items
 * (ast_from_t) and expressions (ast_expr_t), plus a deterministic
 * S-expression printer used by the unit tests and for debugging.
 *
 * The tree is syntax only: names are not resolved, types are kept as written
 * and literals keep their source text; binding happens in the planner.
 *
 * Conventions that hold for every node:
 *  - All memory (nodes, arrays, strings) lives in the arena passed to
 *    parse_sql(); nothing is freed individually.
 *  - `pos` is the byte offset of the node's first token in the parsed text
 *    and `end` the byte offset just after its last token, so
 *    sql[pos..end) is the node's source text.
 *  - Lists are {int n; T **items;} arrays; an absent optional list has n == 0.
 *  - Strings are NUL-terminated arena copies. Identifiers written without
 *    quotes are folded to lower case (ASCII only, as PostgreSQL does);
 *    quoted ones ("x" or `x`) are kept exactly and flagged `quoted`. */
#ifndef SL_AST_H
#define SL_AST_H

#include "common/buf.h"
#include "model/output_mode.h"

typedef struct ast_expr ast_expr_t;
typedef struct ast_select ast_select_t;
typedef struct ast_from ast_from_t;
typedef struct ast_type ast_type_t;
typedef struct ast_stmt ast_stmt_t;

/* ---- identifiers and small lists ------------------------------------- */

/* A name as written: folded unless quoted. */
typedef struct ast_ident {
    char *name; /* folded (unquoted) or exact (quoted) text */
    int quoted; /* 1 when written as "name" or `name` */
    int pos, end;
} ast_ident_t;

typedef struct {
    int n;
    ast_ident_t **items;
} ast_ident_list_t;
typedef struct {
    int n;
    ast_expr_t **items;
} ast_expr_list_t;

/* ---- OPTIONS (key 'value', ...) -------------------------------------- */

typedef enum {
    AST_OPTVAL_STRING = 1, /* 'text' (value holds the unescaped text) */
    AST_OPTVAL_NUMBER,     /* 5, -1.5, 1e3 (value holds the text as written) */
    AST_OPTVAL_BOOL        /* true / false (value holds "true" or "false") */
} ast_optval_kind_t;

/* One option. Keys written as identifiers (`subscribe`, `kafka.bootstrap.servers`)
 * are folded to lower case, dotted parts joined with '.'; keys written as
 * strings ('startingOffsets') are exact. Spark compares option keys
 * case-insensitively, and so should the consumers of this list. */
typedef struct ast_option {
    char *key;
    char *value; /* literal text, never NULL */
    ast_optval_kind_t kind;
    int key_quoted; /* 1 when the key was a string literal */
    int pos, end;   /* the whole `key = value` */
} ast_option_t;

typedef struct {
    int n;
    ast_option_t **items;
} ast_option_list_t;

/* ---- types ------------------------------------------------------------ */

/* A STRUCT<name: type> field. */
typedef struct ast_field {
    ast_ident_t *name;
    ast_type_t *type;
    int pos, end;
} ast_field_t;

typedef struct {
    int n;
    ast_field_t **items;
} ast_field_list_t;

/* A type as written. `name` is the folded type name ("int", "varchar",
 * "decimal", "struct", ...); DOUBLE PRECISION is "double precision".
 * Resolution to real types happens in the planner. */
struct ast_type {
    char *name;
    ast_ident_t *schema; /* schema.name (the binder accepts pg_catalog only), or NULL */
    int quoted;          /* the name was a quoted identifier */
    int nmods;           /* 0, 1 or 2 modifiers: (p) or (p, s) */
    long mods[2];
    ast_field_list_t fields; /* STRUCT<...> fields; n == 0 otherwise */
    int pos, end;
};

/* A column definition in CREATE STREAM / CREATE TABLE. */
typedef struct ast_column_def {
    ast_ident_t *name;
    ast_type_t *type;
    int not_null; /* NOT NULL was written */
    int pos, end;
} ast_column_def_t;

typedef struct {
    int n;
    ast_column_def_t **items;
} ast_column_def_list_t;

/* ---- expressions -------------------------------------------------------- */

#define AST_EXPR_KINDS(X)                                                                  \
    X(LITERAL, "lit")       /* constant: lit, text, unit */                                \
    X(COLUMN, "col")        /* column or struct-field path: names */                       \
    X(PARAM, "param")       /* $n: param */                                                \
    X(FUNC, "func")         /* [schema.]f(args): name, names, args, distinct, star */      \
    X(CAST, "cast")         /* CAST(arg AS type) or arg::type: arg, type */                \
    X(CASE, "case")         /* CASE [arg] WHEN.. THEN.. [ELSE else_expr] END */            \
    X(UNARY, "unary")       /* op arg: op (NEG, PLUS, NOT), arg */                         \
    X(BINARY, "binary")     /* left op right: op, left, right */                           \
    X(IS, "is")             /* arg IS [NOT] NULL|TRUE|FALSE: arg, is_what, negated */      \
    X(IN, "in")             /* arg [NOT] IN (list): arg, list, negated */                  \
    X(BETWEEN, "between")   /* arg [NOT] BETWEEN lo AND hi: arg, lo, hi, negated */        \
    X(LIKE, "like")         /* arg [NOT] [I]LIKE pattern [ESCAPE escape]: arg, pattern,  \
                                escape, negated, icase */ \
    X(FIELD, "field")       /* (arg).name or f(..).name: arg, field */                     \
    X(SUBQUERY, "subquery") /* (SELECT ...) as a value: query */                           \
    X(EXISTS, "exists")     /* EXISTS (SELECT ...): query */                               \
    X(COLLATE, "collate")   /* arg COLLATE name: arg, names (the collation, dotted) */     \
    X(ARRAY, "array")       /* ARRAY(SELECT ...): query */

typedef enum {
#define X(k, s) AST_EXPR_##k,
    AST_EXPR_KINDS(X)
#undef X
        AST_EXPR__COUNT
} ast_expr_kind_t;

typedef enum {
    AST_LIT_NULL = 1,
    AST_LIT_BOOL,      /* text "true" / "false" */
    AST_LIT_INTEGER,   /* digits only, with a leading '-' when negated; the
                           binder picks INT, BIGINT or DECIMAL from the text */
    AST_LIT_NUMERIC,   /* has '.' or an exponent: 1.5, .5, 1e3, -2.5E-3 */
    AST_LIT_STRING,    /* 'text' with '' and E'' escapes undone */
    AST_LIT_TIMESTAMP, /* TIMESTAMP 'text' */
    AST_LIT_DATE,      /* DATE 'text' */
    AST_LIT_INTERVAL   /* INTERVAL 'text' [unit] / INTERVAL 15 MINUTES: text, unit */
} ast_lit_kind_t;

/* Operators of AST_EXPR_UNARY and AST_EXPR_BINARY, one line per kind. */
/* clang-format off */
#define AST_OPS(X)                                                                   \
    X(NEG, "-") X(PLUS, "+") X(NOT, "NOT")                                            \
    X(ADD, "+") X(SUB, "-") X(MUL, "*") X(DIV, "/") X(MOD, "%") X(CONCAT, "||")      \
    X(EQ, "=") X(NE, "<>") X(LT, "<") X(LE, "<=") X(GT, ">") X(GE, ">=")             \
    X(AND, "AND") X(OR, "OR")                                                        \
    X(IS_DISTINCT, "IS DISTINCT FROM") X(IS_NOT_DISTINCT, "IS NOT DISTINCT FROM")    \
    X(REGEX, "~") X(NREGEX, "!~") X(IREGEX, "~*") X(NIREGEX, "!~*")
/* clang-format on */

typedef enum {
#define X(k, s) AST_OP_##k,
    AST_OPS(X)
#undef X
        AST_OP__COUNT
} ast_op_t;

/* What AST_EXPR_IS tests. */
typedef enum { AST_IS_NULL = 1, AST_IS_TRUE, AST_IS_FALSE } ast_is_t;

/* One WHEN cond THEN result arm of a CASE. */
typedef struct ast_when {
    ast_expr_t *cond; /* for CASE x WHEN v: the value v */
    ast_expr_t *result;
    int pos, end;
} ast_when_t;

typedef struct {
    int n;
    ast_when_t **items;
} ast_when_list_t;

/* An expression. Only the fields named for its kind (see AST_EXPR_KINDS) are
 * meaningful; the others are zero. */
struct ast_expr {
    ast_expr_kind_t kind;
    int pos, end;

    ast_lit_kind_t lit; /* LITERAL */
    char *text;         /* LITERAL: value text (NULL for AST_LIT_NULL) */
    char *unit;         /* LITERAL INTERVAL: folded unit ("hour", "minutes") or NULL */

    ast_ident_list_t names; /* COLUMN: the dotted parts, n >= 1 (`t.window.start` = 3);
                                 the binder decides table, column or struct field.
                                 FUNC: the qualifier of schema.f(...) (n == 0 for f(...)).
                                 COLLATE: the collation's name parts.
                                 BINARY: the schema of OPERATOR(schema.op), or n == 0 */
    int param;              /* PARAM: n of $n (>= 0; $0 is left to the binder) */

    ast_ident_t *name;    /* FUNC: function name (the last part when qualified) */
    ast_expr_list_t args; /* FUNC: arguments (empty for f() and count(*)) */
    int distinct;         /* FUNC: f(DISTINCT ...) */
    int star;             /* FUNC: count(*) */

    ast_type_t *type; /* CAST */
    int cast_syntax;  /* CAST: 0 = CAST(x AS t), 1 = x::t */

    ast_op_t op;              /* UNARY, BINARY */
    ast_expr_t *arg;          /* UNARY, CAST, CASE (operand or NULL), IS, IN, BETWEEN,
                                 LIKE, FIELD */
    ast_expr_t *left, *right; /* BINARY */
    ast_when_list_t whens;    /* CASE, n >= 1 */
    ast_expr_t *else_expr;    /* CASE, or NULL */
    ast_is_t is_what;         /* IS */
    int negated;              /* IS, IN, BETWEEN, LIKE: the NOT form */
    ast_expr_list_t list;     /* IN (list); empty for IN (SELECT ...) */
    ast_select_t *query;      /* SUBQUERY, EXISTS, IN (SELECT ...) */
    ast_expr_t *lo, *hi;      /* BETWEEN */
    ast_expr_t *pattern;      /* LIKE */
    ast_expr_t *escape;       /* LIKE: the ESCAPE expression, or NULL */
    int icase;                /* LIKE: ILIKE */
    ast_ident_t *field;       /* FIELD */
    struct ast_window *over;  /* FUNC: f(...) OVER (...), or NULL */
    ast_ident_t *alias;       /* an argument of struct(x AS name, ...): the name, or NULL */
    int alias_at;             /* with alias: the position of its AS */
    ast_expr_t *filter;       /* FUNC: f(...) FILTER (WHERE filter), or NULL */

    int height; /* 1 for a leaf, else 1 + the highest child (<= PARSE_MAX_DEPTH) */
};

/* ---- SELECT ------------------------------------------------------------- */

/* WATERMARK col DELAY OF interval (on a FROM item or a CREATE STREAM). */
typedef struct ast_watermark {
    ast_expr_t *column; /* an AST_EXPR_COLUMN (maybe dotted) */
    ast_expr_t *delay;  /* AST_LIT_INTERVAL or AST_LIT_STRING literal */
    int pos, end;       /* from WATERMARK to the end of the delay */
} ast_watermark_t;

/* One select-list item: an expression with an optional alias, `*`, `t.*`
 * (t a table, or a struct column: the binder decides), or `(expr).*`. */
typedef struct ast_select_item {
    ast_expr_t *expr;           /* NULL for a star but (expr).*, whose struct it is */
    ast_ident_t *alias;         /* or NULL */
    int star;                   /* `*` or `qualifier.*` */
    ast_ident_list_t qualifier; /* the parts before `.*` (n == 0 for a bare `*`) */
    int pos, end;
} ast_select_item_t;

typedef struct {
    int n;
    ast_select_item_t **items;
} ast_select_item_list_t;

typedef enum {
    AST_FROM_TABLE = 1,
    AST_FROM_SUBQUERY,
    AST_FROM_JOIN,
    AST_FROM_FUNCTION
} ast_from_kind_t;
typedef enum {
    AST_JOIN_INNER = 1,
    AST_JOIN_LEFT,
    AST_JOIN_RIGHT,
    AST_JOIN_FULL,
    AST_JOIN_CROSS
} ast_join_t;

/* A FROM item. */
struct ast_from {
    ast_from_kind_t kind;
    int pos, end;
    ast_ident_t *schema;    /* TABLE: `schema.name`, or NULL */
    ast_ident_t *name;      /* TABLE */
    ast_select_t *subquery; /* SUBQUERY */
    ast_ident_t *alias; /* TABLE (optional), SUBQUERY (required), JOIN (parenthesised, optional) */
    ast_ident_list_t alias_cols; /* `alias (a, b)`: new names of its columns, or n == 0 */
    ast_watermark_t *watermark;  /* TABLE, SUBQUERY: or NULL */
    ast_join_t join;             /* JOIN */
    int natural;                 /* JOIN: NATURAL [type] JOIN (no ON, no USING) */
    ast_from_t *left, *right;    /* JOIN */
    ast_expr_t *on;              /* JOIN ... ON expr, or NULL */
    ast_ident_list_t using_cols; /* JOIN ... USING (cols) */
    ast_expr_list_t func_args;   /* FUNCTION: [schema.]name(func_args) */
};

typedef struct {
    int n;
    ast_from_t **items;
} ast_from_list_t;

typedef enum { AST_NULLS_DEFAULT = 0, AST_NULLS_FIRST, AST_NULLS_LAST } ast_nulls_t;

/* ORDER BY item. */
typedef struct ast_sort {
    ast_expr_t *expr;
    int desc; /* DESC was written */
    ast_nulls_t nulls;
    int pos, end;
} ast_sort_t;

typedef struct {
    int n;
    ast_sort_t **items;
} ast_sort_list_t;

/* A window frame: [ROWS | RANGE] BETWEEN start AND end (end CURRENT ROW
 * when only start is given); unit AST_FRAME_NONE when there is none. */
typedef enum { AST_FRAME_NONE = 0, AST_FRAME_ROWS, AST_FRAME_RANGE } ast_frame_unit_t;
typedef enum {
    AST_BOUND_UNBOUNDED_PRECEDING = 0,
    AST_BOUND_PRECEDING, /* offset PRECEDING */
    AST_BOUND_CURRENT_ROW,
    AST_BOUND_FOLLOWING, /* offset FOLLOWING */
    AST_BOUND_UNBOUNDED_FOLLOWING
} ast_bound_kind_t;
typedef struct {
    ast_bound_kind_t kind;
    struct ast_expr *offset; /* PRECEDING / FOLLOWING: the offset, else NULL */
} ast_frame_bound_t;
typedef struct {
    ast_frame_unit_t unit;
    ast_frame_bound_t start, end;
    int pos; /* of ROWS / RANGE */
} ast_frame_t;

/* OVER ([ref] [PARTITION BY partition] [ORDER BY order] [frame]) of a
 * window function call, OVER ref, or a WINDOW clause's definition. */
typedef struct ast_window {
    ast_ident_t *ref; /* the named window it starts from (OVER w, OVER (w ...)), or NULL */
    int ref_only;     /* OVER w: the named window as it is, frame included */
    ast_expr_list_t partition;
    ast_sort_list_t order;
    ast_frame_t frame;
    int pos, end;
} ast_window_t;
typedef struct {
    int n;
    ast_expr_list_t **items;
} ast_row_list_t;
typedef struct {
    int n;
    ast_select_t **items;
} ast_select_list_t;

/* One `name AS (window)` of a WINDOW clause. */
typedef struct ast_window_def {
    ast_ident_t *name;
    struct ast_window *window;
} ast_window_def_t;
typedef struct {
    int n;
    ast_window_def_t **items;
} ast_window_def_list_t;

/* One `name [(cols)] AS (query)` of a WITH clause. */
typedef struct ast_cte {
    ast_ident_t *name;
    ast_ident_list_t cols; /* column names, or n == 0 */
    ast_select_t *query;
    int pos, end;
} ast_cte_t;

typedef struct {
    int n;
    ast_cte_t **items;
} ast_cte_list_t;

typedef enum {
    AST_SELECT_SIMPLE = 1, /* SELECT ... FROM ... */
    AST_SELECT_VALUES,     /* VALUES (..), (..) */
    AST_SELECT_UNION       /* arm UNION [ALL] arm [UNION [ALL] arm ...] */
} ast_select_kind_t;

typedef enum {
    AST_DISTINCT_NONE = 0, /* also SELECT ALL */
    AST_DISTINCT_ALL,      /* SELECT DISTINCT: on all columns */
    AST_DISTINCT_ON        /* SELECT DISTINCT ON (distinct_on) [WITHIN WATERMARK] */
} ast_distinct_t;

/* A query expression. ORDER BY / LIMIT / OFFSET and WITH may be set on
 * every kind. A parenthesised arm of a UNION is an ast_select_t of its own. */
struct ast_select {
    ast_select_kind_t kind;
    int pos, end;
    ast_cte_list_t with; /* WITH name AS (...), ...: visible in the whole query */

    /* SIMPLE */
    ast_distinct_t distinct;
    ast_expr_list_t distinct_on;
    int within_watermark; /* DISTINCT ON (...) WITHIN WATERMARK */
    ast_select_item_list_t items;
    ast_from_list_t from; /* comma-separated items (implicit cross joins) */
    ast_expr_t *where;
    ast_expr_list_t group_by;
    ast_expr_t *having;
    ast_window_def_list_t windows; /* WINDOW name AS (...), ... */

    /* VALUES */
    ast_row_list_t rows;

    /* UNION: n >= 2; chains of the same kind are flattened */
    ast_select_list_t arms;
    int union_all; /* UNION ALL (1) or UNION [DISTINCT] (0) */

    ast_sort_list_t order_by;
    ast_expr_t *limit;  /* NULL when absent or LIMIT ALL */
    ast_expr_t *offset; /* or NULL */
};

/* ---- statements ---------------------------------------------------------- */

#define AST_STMT_KINDS(X)                 \
    X(SELECT, "SELECT")                   \
    X(CREATE_STREAM, "CREATE STREAM")     \
    X(CREATE_TABLE, "CREATE TABLE")       \
    X(CREATE_QUERY, "CREATE QUERY")       \
    X(DROP, "DROP")                       \
    X(ALTER, "ALTER")                     \
    X(INSERT, "INSERT")                   \
    X(DELETE, "DELETE")                   \
    X(SHOW, "SHOW")                       \
    X(DESCRIBE, "DESCRIBE")               \
    X(EXPLAIN, "EXPLAIN")                 \
    X(START_QUERY, "START QUERY")         \
    X(STOP_QUERY, "STOP QUERY")           \
    X(AWAIT_QUERY, "AWAIT QUERY")         \
    X(BEGIN, "BEGIN")                     \
    X(COMMIT, "COMMIT")                   \
    X(ROLLBACK, "ROLLBACK")               \
    X(SAVEPOINT, "SAVEPOINT")             \
    X(RELEASE, "RELEASE")                 \
    X(SET_TRANSACTION, "SET TRANSACTION") \
    X(SET, "SET")                         \
    X(RESET, "RESET")                     \
    X(DISCARD, "DISCARD")                 \
    X(COPY, "COPY")                       \
    X(PREPARE, "PREPARE")                 \
    X(EXECUTE, "EXECUTE")                 \
    X(DEALLOCATE, "DEALLOCATE")

typedef enum {
#define X(k, s) AST_STMT_##k,
    AST_STMT_KINDS(X)
#undef X
        AST_STMT__COUNT
} ast_stmt_kind_t;

typedef enum { AST_OBJ_STREAM = 1, AST_OBJ_TABLE, AST_OBJ_QUERY } ast_object_t;

typedef enum {
    AST_TRIGGER_DEFAULT = 0, /* no TRIGGER clause */
    AST_TRIGGER_PROCESSING_TIME,
    AST_TRIGGER_AVAILABLE_NOW,
    AST_TRIGGER_ONCE,
    AST_TRIGGER_CONTINUOUS
} ast_trigger_t;

typedef enum {
    AST_SHOW_QUERIES = 1,
    AST_SHOW_STREAMS,
    AST_SHOW_TABLES,
    AST_SHOW_PROGRESS,        /* SHOW PROGRESS q */
    AST_SHOW_RECENT_PROGRESS, /* SHOW RECENT PROGRESS q */
    AST_SHOW_VARIABLE /* SHOW name / SHOW ALL / SHOW TIME ZONE / SHOW TRANSACTION ISOLATION LEVEL */
} ast_show_t;

typedef enum { AST_SET_DEFAULT_SCOPE = 0, AST_SET_SESSION, AST_SET_LOCAL } ast_set_scope_t;

/* CREATE STREAM [IF NOT EXISTS] name [(cols)] USING connector [OPTIONS (...)]
 * [WATERMARK col DELAY OF interval] */
typedef struct {
    ast_ident_t *name;
    int if_not_exists;
    int has_columns; /* a column list was written */
    ast_column_def_list_t columns;
    ast_ident_t *connector;
    ast_option_list_t options;
    ast_watermark_t *watermark; /* or NULL */
} ast_create_stream_t;

/* CREATE TABLE [IF NOT EXISTS] name [(cols)] [USING format [OPTIONS (...)]] */
typedef struct {
    ast_ident_t *name;
    int if_not_exists;
    int has_columns;
    ast_column_def_list_t columns;
    ast_ident_t *format; /* or NULL (stored in the catalog) */
    ast_option_list_t options;
} ast_create_table_t;

/* CREATE QUERY [IF NOT EXISTS] name <clauses in any order> AS select */
typedef struct {
    ast_ident_t *name;
    int if_not_exists;
    ast_ident_t *sink;              /* SINK kind, or NULL */
    ast_option_list_t sink_options; /* OPTIONS written right after SINK kind */
    output_mode_t output_mode;      /* 0: no OUTPUT MODE clause */
    ast_trigger_t trigger;
    ast_expr_t *trigger_interval; /* PROCESSING TIME / CONTINUOUS: a string or interval literal */
    int trigger_pos, trigger_end; /* the TRIGGER clause's text; 0, 0 without one */
    char *checkpoint;             /* CHECKPOINT 'path', or NULL */
    ast_option_list_t options;    /* the query's own OPTIONS clause */
    ast_select_t *select;         /* select->pos/end give the query text */
} ast_create_query_t;

/* ALTER STREAM name SET OPTIONS (...)
 * ALTER QUERY name SET OPTIONS (...)        -- the sink's options
 * ALTER QUERY name SET TRIGGER trigger */
typedef struct {
    ast_object_t object; /* AST_OBJ_STREAM or AST_OBJ_QUERY */
    ast_ident_t *name;
    ast_option_list_t options;    /* SET OPTIONS */
    ast_trigger_t trigger;        /* SET TRIGGER; AST_TRIGGER_DEFAULT with OPTIONS */
    ast_expr_t *trigger_interval; /* PROCESSING TIME / CONTINUOUS */
    int trigger_pos, trigger_end; /* the `TRIGGER ...` text */
} ast_alter_t;

/* DROP {QUERY|STREAM|TABLE} [IF EXISTS] name */
typedef struct {
    ast_object_t object;
    int if_exists;
    ast_ident_t *name;
} ast_drop_t;

/* INSERT INTO name [(cols)] {VALUES (..), .. | select}. `query` is an
 * AST_SELECT_VALUES select for the VALUES form. */
typedef struct {
    ast_ident_t *table;
    ast_ident_list_t columns; /* n == 0 when no column list */
    ast_select_t *query;
} ast_insert_t;

/* DELETE FROM name [WHERE expr] */
typedef struct {
    ast_ident_t *table;
    ast_expr_t *where; /* or NULL */
} ast_delete_t;

/* SHOW ... */
typedef struct {
    ast_show_t what;
    ast_ident_t *name; /* PROGRESS/RECENT_PROGRESS: the query; VARIABLE: the
                           setting ("all", "timezone", "transaction_isolation",
                           dotted names joined with '.') */
} ast_show_stmt_t;

/* SET [SESSION|LOCAL] name {TO|=} value[, ...] | SET TIME ZONE value,
 * and RESET name | RESET ALL. */
typedef struct {
    ast_set_scope_t scope;
    char *name;             /* folded; "timezone" for TIME ZONE; "all" for RESET ALL */
    int is_default;         /* SET x TO DEFAULT / SET TIME ZONE DEFAULT|LOCAL */
    ast_expr_list_t values; /* SET: literals; identifiers and ON become strings */
} ast_set_stmt_t;

/* BEGIN/START TRANSACTION [modes], COMMIT, ROLLBACK [TO [SAVEPOINT] name],
 * SAVEPOINT name, RELEASE [SAVEPOINT] name, SET TRANSACTION modes and SET
 * SESSION CHARACTERISTICS AS TRANSACTION modes. Modes are kept as
 * PostgreSQL's setting values (NULL = not given). */
typedef struct {
    ast_ident_t *savepoint; /* ROLLBACK TO, SAVEPOINT, RELEASE; else NULL */
    const char *isolation;  /* "serializable", "repeatable read", ... */
    const char *read_only;  /* "on" (READ ONLY) or "off" (READ WRITE) */
    const char *deferrable; /* "on" or "off" */
    int session;            /* SET SESSION CHARACTERISTICS */
} ast_txn_stmt_t;
/* ---- COPY ---------------------------------------------------------------- */

/* Where COPY reads or writes: the client (STDIN / STDOUT, either word in
 * either direction, as PostgreSQL's grammar allows), a server file, or a
 * program's pipe. */
typedef enum { AST_COPY_CLIENT = 1, AST_COPY_FILE, AST_COPY_PROGRAM } ast_copy_target_t;

/* One COPY option. The old spelling is kept in the new one's words: CSV is
 * format 'csv', BINARY format 'binary', FORCE QUOTE a, b is force_quote
 * (a, b), FORCE NOT NULL is force_not_null, FORCE NULL force_null. */
typedef struct ast_copy_opt {
    char *name;   /* folded: "format", "header", "delimiter", "null", ... */
    char *value;  /* the argument's text ('x', csv, true, 5), NULL when none */
    int star;     /* force_quote * */
    int has_cols; /* a column list was given (cols) */
    ast_ident_list_t cols;
    int pos, end;
} ast_copy_opt_t;

typedef struct {
    int n;
    ast_copy_opt_t **items;
} ast_copy_opt_list_t;

/* COPY name [(cols)] {FROM | TO} target [[WITH] options] and
 * COPY (query) TO target [[WITH] options]. */
typedef struct {
    int from;                 /* COPY ... FROM (into a table); else TO */
    ast_ident_t *schema;      /* schema.name, or NULL */
    ast_ident_t *table;       /* NULL for COPY (query) TO */
    ast_ident_list_t columns; /* n == 0 when no column list */
    ast_select_t *query;      /* COPY (query) TO, else NULL */
    ast_copy_target_t target;
    char *file; /* FILE / PROGRAM: the string, else NULL */
    int target_pos;
    ast_copy_opt_list_t options;
} ast_copy_t;

typedef struct {
    int n;
    ast_type_t **items;
} ast_type_list_t;

/* PREPARE name [(types)] AS statement, EXECUTE name [(args)] and
 * DEALLOCATE [PREPARE] {name | ALL}. */
typedef struct {
    ast_ident_t *name;     /* NULL: DEALLOCATE ALL */
    ast_type_list_t types; /* PREPARE: the declared parameter types */
    ast_stmt_t *stmt;      /* PREPARE: the statement, whose text runs from
                                     stmt->pos to the end of the PREPARE */
    ast_expr_list_t args;  /* EXECUTE: the parameter values */
} ast_prepared_t;

/* A statement. `start`/`pos` and `end` delimit its own text in the parsed
 * string, without the terminating ';' (the catalog keeps this exact text). */
struct ast_stmt {
    ast_stmt_kind_t kind;
    union {
        int pos;
        int start;
    };
    int end;
    union {
        ast_select_t *select;              /* SELECT */
        ast_create_stream_t create_stream; /* CREATE_STREAM */
        ast_create_table_t create_table;   /* CREATE_TABLE */
        ast_create_query_t create_query;   /* CREATE_QUERY */
        ast_drop_t drop;                   /* DROP */
        ast_alter_t alter;                 /* ALTER */
        ast_insert_t insert;               /* INSERT */
        ast_delete_t del;                  /* DELETE */
        ast_show_stmt_t show;              /* SHOW */
        ast_ident_t *object_name;          /* DESCRIBE, START_QUERY, STOP_QUERY */
        struct {
            ast_ident_t *name;
            ast_expr_t *timeout; /* string or interval literal, or NULL */
        } await;                 /* AWAIT_QUERY */
        ast_stmt_t *explain;     /* EXPLAIN: a SELECT or CREATE_QUERY statement */
        ast_set_stmt_t set;      /* SET, RESET, DISCARD (name "all") */
        ast_txn_stmt_t txn;      /* BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE,
                                             SET_TRANSACTION */
        ast_copy_t copy;         /* COPY */
        ast_prepared_t prepared; /* PREPARE, EXECUTE, DEALLOCATE */
    };
};

/* The statements of one text, in order. */
typedef struct ast_stmt_list {
    int n;
    ast_stmt_t **items;
    int max_param; /* highest $n seen in the whole text, 0 if none */
} ast_stmt_list_t;

/* "SELECT", "CREATE STREAM", ... (also usable as a command tag stem);
 * "?" for an unknown kind. */
const char *ast_stmt_kind_name(ast_stmt_kind_t kind);
/* "lit", "col", ... as printed by the dumper; "?" when unknown. */
const char *ast_expr_kind_name(ast_expr_kind_t kind);
/* The operator's SQL spelling ("+", "<>", "AND", "IS DISTINCT FROM"). */
const char *ast_op_name(ast_op_t op);

/* Appends a deterministic one-line S-expression of the statement (or
 * expression, select) to `out`. The format is what tests/unit/test_parser.c
 * compares against; positions are not printed. */
void ast_dump_stmt(sl_buf_t *out, const ast_stmt_t *s);
void ast_dump_expr(sl_buf_t *out, const ast_expr_t *e);
void ast_dump_select(sl_buf_t *out, const ast_select_t *q);

#endif
