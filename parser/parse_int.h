/* parser internals shared by the tokenizer (tokenize.c), the tree builders
 * (ast_build.c) and the Lemon grammar (grammar.y -> build/.../grammar.c):
 * the token value the tokenizer hands to the parser, the parse context
 * (Lemon's %extra_context) and the pb_* constructors the grammar actions
 * call. Not part of the public API: include parser/parser.h instead. */
#ifndef SL_PARSE_INT_H
#define SL_PARSE_INT_H

#include <stddef.h>

#include "parser/parser.h"

/* Expressions nested deeper than this are refused (54000) so that the
 * recursive passes over the tree (binder, dumper) stay within their stack. */
#define PARSE_MAX_DEPTH 1000

/* The value of one token (Lemon's %token_type). */
typedef struct parse_token {
    int pos;          /* byte offset of the token's first byte */
    int len;          /* bytes of source text; 0 for the end-of-input SEMI */
    const char *text; /* identifiers and keywords: folded or exact (quoted) name;
                          STRING: unescaped value; INTEGER/FLOAT: digits as written;
                          PARAM: the digits after '$'; NULL for punctuation */
    int quoted;       /* identifier written as "x" or `x` */
} parse_token_t;

/* The state of one parse_sql() call (Lemon's %extra_context). */
typedef struct parse_ctx {
    const char *sql; /* the whole text, for error messages */
    size_t len;
    sl_arena_t *a;        /* every node, list and string goes here */
    sl_error_t *err;      /* filled on the first error */
    int failed;           /* set on the first error; later errors are ignored */
    ast_stmt_list_t *out; /* statements parsed so far */
    int stmt_start;       /* byte offset of the current statement's first token */
    int prev_end;         /* end offset of the last token before the current one */
    int max_param;        /* highest $n seen */
} parse_ctx_t;

/* A generic view of every {int n; T **items;} list of ast.h. */
typedef struct {
    int n;
    void **items;
} pb_list_t;

/* Column list of CREATE STREAM/TABLE while it is being parsed. */
typedef struct {
    int has;
    ast_column_def_list_t list;
} pb_coldefs_t;

/* CREATE QUERY clauses while they are being parsed. */
typedef struct {
    ast_stmt_t *s;   /* an AST_STMT_CREATE_QUERY under construction */
    int after_sink;  /* the previous clause was SINK kind (without OPTIONS) */
    int has_options; /* the query's own OPTIONS clause was seen */
} pb_qclauses_t;

/* TRIGGER kind [interval]. */
typedef struct {
    ast_trigger_t kind;
    ast_expr_t *interval;
} pb_trigger_t;

/* SELECT [ALL | DISTINCT | DISTINCT ON (on) [WITHIN WATERMARK]]. */
typedef struct {
    ast_distinct_t kind;
    ast_expr_list_t on;
    int within;
} pb_distinct_t;

/* JOIN ... ON expr | USING (cols). */
typedef struct {
    ast_expr_t *on;
    ast_ident_list_t using_cols;
} pb_joincond_t;

/* A FROM item's alias: `name [(cols)]`; name NULL when absent. */
typedef struct {
    ast_ident_t *name;
    ast_ident_list_t cols;
} pb_alias_t;

/* CREATE TABLE's optional USING format OPTIONS (...). */
typedef struct {
    ast_ident_t *format;
    ast_option_list_t options;
} pb_using_t;

/* ORDER BY / LIMIT / OFFSET tail of a select. */
typedef struct {
    ast_expr_t *limit, *offset;
    int has_limit, has_offset, limit_pos, offset_pos;
} pb_limit_t;

/* --- errors (tokenize.c) --- */
/* Reports `syntax error at or near "<token text>"` (or `at end of input` for
 * a zero-length token) at the token; 42601. */
void pb_syntax_error(parse_ctx_t *c, const parse_token_t *t);
/* Transaction modes: the ones `m` gives replace those of `into`. */
void pb_txn_merge(ast_txn_stmt_t *into, const ast_txn_stmt_t *m);
/* Reports a 42601 error with the given message at byte offset `pos`. */
void pb_error_at(parse_ctx_t *c, int pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Reports the parser's stack overflow (54000). */
void pb_stack_overflow(parse_ctx_t *c);

/* --- builders (ast_build.c); none fails, errors go to c --- */
#define PB_ADD(c, list, item) pb_list_add((c), (pb_list_t *)&(list), (item))
void pb_list_add(parse_ctx_t *c, pb_list_t *l, void *item);

ast_ident_t *pb_ident(parse_ctx_t *c, const parse_token_t *t);
/* An identifier not taken from one token (dotted option keys, TIME ZONE). */
ast_ident_t *pb_ident_make(parse_ctx_t *c, char *name, int quoted, int pos, int end);
/* Joins the parts of a dotted name with '.'. */
char *pb_join_dotted(parse_ctx_t *c, const ast_ident_list_t *parts);
int pb_tok_end(const parse_token_t *t);

ast_expr_t *pb_expr(parse_ctx_t *c, ast_expr_kind_t kind, int pos, int end);
/* Sets e->height to child_height + 1; 54000 past PARSE_MAX_DEPTH. */
void pb_set_height(parse_ctx_t *c, ast_expr_t *e, int child_height);
ast_expr_t *pb_literal(parse_ctx_t *c, ast_lit_kind_t lit, const parse_token_t *t);
/* TIMESTAMP '...', DATE '...', INTERVAL '...' [unit]: `kw` is the keyword token,
 * `val` the string or number, `unit` the unit token or NULL. */
ast_expr_t *pb_typed_literal(parse_ctx_t *c, ast_lit_kind_t lit, const parse_token_t *kw,
                             const parse_token_t *val, const parse_token_t *unit);
ast_expr_t *pb_param(parse_ctx_t *c, const parse_token_t *t);
ast_expr_t *pb_column(parse_ctx_t *c, ast_ident_list_t parts);
ast_expr_t *pb_unary(parse_ctx_t *c, ast_op_t op, const parse_token_t *optok, ast_expr_t *arg);
ast_expr_t *pb_binary(parse_ctx_t *c, ast_op_t op, ast_expr_t *l, ast_expr_t *r);
ast_expr_t *pb_is(parse_ctx_t *c, ast_expr_t *arg, ast_is_t what, int negated,
                  const parse_token_t *last);
ast_expr_t *pb_in(parse_ctx_t *c, ast_expr_t *arg, ast_expr_list_t list, int negated,
                  const parse_token_t *rp);
ast_expr_t *pb_between(parse_ctx_t *c, ast_expr_t *arg, ast_expr_t *lo, ast_expr_t *hi,
                       int negated);
/* arg [NOT] IN (SELECT ...). */
ast_expr_t *pb_in_query(parse_ctx_t *c, ast_expr_t *arg, ast_select_t *q, int negated);
/* arg [NOT] [I]LIKE pat [ESCAPE esc] (esc may be NULL). */
ast_expr_t *pb_like(parse_ctx_t *c, ast_expr_t *arg, ast_expr_t *pat, ast_expr_t *esc, int negated,
                    int icase);
/* (SELECT ...) as a value (kind SUBQUERY, kw NULL) or EXISTS (SELECT ...). */
ast_expr_t *pb_subquery(parse_ctx_t *c, ast_expr_kind_t kind, const parse_token_t *kw,
                        ast_select_t *q);
ast_expr_t *pb_cast(parse_ctx_t *c, ast_expr_t *arg, ast_type_t *type, int syntax, int pos,
                    int end);
ast_expr_t *pb_func(parse_ctx_t *c, ast_ident_list_t name, ast_expr_list_t args, int distinct,
                    int star, const parse_token_t *rp);
ast_expr_t *pb_field(parse_ctx_t *c, ast_expr_t *arg, ast_ident_t *field);
ast_expr_t *pb_case(parse_ctx_t *c, const parse_token_t *kw, ast_expr_t *arg, ast_when_list_t whens,
                    ast_expr_t *else_expr, const parse_token_t *endtok);
/* --- SQL's keyword-separated function arguments (ast_special.c): each
 * checks that the function takes that form (42601 at the keyword otherwise)
 * and builds an ordinary AST_EXPR_FUNC --- */
/* name(s FROM a [FOR b]): substring/substr(s, a[, b]); extract(field FROM x)
 * as extract('field', x); trim(chars FROM s) as btrim(s, chars). */
/* f(args): a call whose arguments may carry names (struct(x AS name));
 * a name in any other function is a syntax error at its AS. */
ast_expr_t *pb_func_args(parse_ctx_t *c, ast_ident_list_t name, ast_expr_list_t args,
                         const parse_token_t *rp);
ast_expr_t *pb_func_from(parse_ctx_t *c, ast_ident_list_t name, ast_expr_t *s,
                         const parse_token_t *from, ast_expr_t *a, const parse_token_t *for_kw,
                         ast_expr_t *b, const parse_token_t *rp);
/* trim(BOTH|LEADING|TRAILING [chars] FROM s): btrim(s[, chars]), or
 * Spark's ltrim/rtrim([chars, ]s). */
ast_expr_t *pb_func_trim(parse_ctx_t *c, ast_ident_list_t name, const parse_token_t *side,
                         ast_expr_t *chars, ast_expr_t *s, const parse_token_t *rp);
/* position(sub IN s): position(sub, s). */
ast_expr_t *pb_func_position(parse_ctx_t *c, ast_ident_list_t name, ast_expr_t *sub, ast_expr_t *s,
                             const parse_token_t *rp);
/* Widens an expression's source range to [pos, end) (parentheses). */
ast_expr_t *pb_paren(ast_expr_t *e, const parse_token_t *lp, const parse_token_t *rp);

ast_type_t *pb_type(parse_ctx_t *c, const char *name, int quoted, int pos, int end);

ast_option_t *pb_option(parse_ctx_t *c, char *key, int key_quoted, int pos,
                        const parse_token_t *val, ast_optval_kind_t kind,
                        const parse_token_t *minus);

ast_select_t *pb_select(parse_ctx_t *c, ast_select_kind_t kind, int pos);
/* left UNION [ALL] right, flattening chains of the same kind. */
ast_select_t *pb_union(parse_ctx_t *c, ast_select_t *l, ast_select_t *r, int all);
/* Attaches ORDER BY / LIMIT / OFFSET to q (42601 when q already has one). */
ast_select_t *pb_select_tail(parse_ctx_t *c, ast_select_t *q, ast_sort_list_t order, int order_pos,
                             pb_limit_t lim, int end);
ast_from_t *pb_from(parse_ctx_t *c, ast_from_kind_t kind, int pos, int end);
/* One CTE: name [(cols)] AS (q); cols may be NULL. */
ast_cte_t *pb_cte(parse_ctx_t *c, ast_ident_t *name, const ast_ident_list_t *cols, ast_select_t *q);
/* Attaches WITH ctes to q (42601 "multiple WITH clauses not allowed" when q
 * already has one, as a parenthesised select may). */
ast_select_t *pb_with(parse_ctx_t *c, const parse_token_t *kw, ast_cte_list_t ctes,
                      ast_select_t *q);
ast_watermark_t *pb_watermark(parse_ctx_t *c, const parse_token_t *kw, ast_expr_t *col,
                              ast_expr_t *delay);

ast_stmt_t *pb_stmt(parse_ctx_t *c, ast_stmt_kind_t kind, int pos);
/* PREPARE name (types) AS stmt: a syntax error at stmt unless PostgreSQL
 * can prepare it (SELECT/VALUES, INSERT, DELETE). */
ast_stmt_t *pb_prepare(parse_ctx_t *c, int pos, ast_ident_t *name, const ast_type_list_t *types,
                       ast_stmt_t *stmt);
/* Called when a top-level statement is complete: records its text range and
 * appends it to c->out. */
void pb_add_stmt(parse_ctx_t *c, ast_stmt_t *s);
/* Applies one CREATE QUERY clause; `clause` names it for the duplicate error. */
int pb_qclause_dup(parse_ctx_t *c, int already, const char *clause, const parse_token_t *kw);
/* OUTPUT MODE <ident>: maps the word, or reports an error at it. */
output_mode_t pb_output_mode(parse_ctx_t *c, const ast_ident_t *word);

/* --- COPY (parser/ast_copy.c) --- */
typedef struct {
    ast_copy_target_t kind;
    char *file;
    int pos;
} pb_copy_target_t;
/* A COPY statement: `rel` (schema.name or name) for a table, else `q`. */
ast_stmt_t *pb_copy(parse_ctx_t *c, const parse_token_t *kw, const ast_ident_list_t *rel,
                    ast_select_t *q, int from, const pb_copy_target_t *t, ast_copy_opt_list_t opts);
/* An option `name [value]` starting at `pos`; val may be NULL. */
ast_copy_opt_t *pb_copy_opt(parse_ctx_t *c, const char *name, int pos, const parse_token_t *val);
/* An old-style word without argument: CSV, BINARY, HEADER, FREEZE, or any
 * other word as an option of that name (the statement refuses it). */
ast_copy_opt_t *pb_copy_old_word(parse_ctx_t *c, const ast_ident_t *word);
/* FORCE QUOTE ...: `word` must be QUOTE. */
ast_copy_opt_t *pb_copy_force(parse_ctx_t *c, const parse_token_t *kw, const ast_ident_t *word);

/* --- Lemon's generated entry points (%name parse_lemon) --- */
void *parse_lemonAlloc(void *(*malloc_fn)(size_t), parse_ctx_t *ctx);
void parse_lemon(void *p, int major, parse_token_t minor);
void parse_lemonFree(void *p, void (*free_fn)(void *));
int parse_lemonFallback(int token);

/* --- keyword table access (tokenize.c), for the unit tests --- */
/* The grammar token of a keyword (any case), or 0. */
int parse_keyword_code(const char *word, size_t len);
int parse_keyword_count(void);
/* Entry i of keywords.def: returns the word, sets its token and category
 * ('R', 'U' or 'C'); NULL past the end. */
const char *parse_keyword_at(int i, int *code, int *category);
/* The token a keyword falls back to in the grammar (TK_ID) or 0. */
int parse_token_fallback(int code);

/* ---- PostgreSQL catalog-query syntax (ast_pg.c) ---- */

/* l ~ r (the REGEX token's text says which match); `schema` is the
 * qualifier of OPERATOR(schema.~) (kept in names for the binder), or NULL. */
ast_expr_t *pb_regex(parse_ctx_t *c, const ast_ident_t *schema, const parse_token_t *op,
                     ast_expr_t *l, ast_expr_t *r);
/* x = ANY (array): array_contains(array, x). */
ast_expr_t *pb_any(parse_ctx_t *c, ast_expr_t *x, ast_expr_t *array, const parse_token_t *rp);
/* a[index]: element_at(a, index). */
ast_expr_t *pb_subscript(parse_ctx_t *c, ast_expr_t *a, ast_expr_t *index, const parse_token_t *rb);
/* [schema.]name[]: the type "name[]". */
ast_type_t *pb_array_type(parse_ctx_t *c, const ast_ident_t *schema, const ast_ident_t *name,
                          const parse_token_t *rb);
/* [schema.]f(args) [alias] in FROM. */
ast_from_t *pb_from_function(parse_ctx_t *c, const ast_ident_t *schema, ast_ident_t *name,
                             ast_expr_list_t args, const pb_alias_t *alias);
/* [ref] PARTITION BY p ORDER BY o frame: a window (ref may be NULL). */
ast_window_t *pb_window(parse_ctx_t *c, ast_ident_t *ref, ast_expr_list_t p, ast_sort_list_t o,
                        const ast_frame_t *frame);
/* f(...) OVER (w): lp and rp are its parentheses. */
ast_expr_t *pb_over(parse_ctx_t *c, ast_expr_t *f, ast_window_t *w, const parse_token_t *lp,
                    const parse_token_t *rp);
/* f(...) OVER name. */
ast_expr_t *pb_over_name(parse_ctx_t *c, ast_expr_t *f, ast_ident_t *name);
/* f(...) FILTER (WHERE cond). */
ast_expr_t *pb_filter(parse_ctx_t *c, ast_expr_t *f, ast_expr_t *cond, const parse_token_t *rp);
/* name AS (w) of a WINDOW clause. */
ast_window_def_t *pb_window_def(parse_ctx_t *c, ast_ident_t *name, ast_window_t *w,
                                const parse_token_t *lp, const parse_token_t *rp);
/* e COLLATE name. */
ast_expr_t *pb_collate(parse_ctx_t *c, ast_expr_t *e, ast_ident_list_t name);
/* schema.type in a cast (the binder accepts pg_catalog only). */
ast_type_t *pb_qualified_type(parse_ctx_t *c, const ast_ident_t *schema, const ast_ident_t *name);

#endif
