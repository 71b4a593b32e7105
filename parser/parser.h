/* parser: SQL text to AST. The public entry point of the parser module.
 *
 * A hand-written tokenizer (parser/tokenize.c) pushes tokens into a Lemon
 * LALR(1) parser generated from parser/grammar.y; grammar actions build the
 * tree described in parser/ast.h in the caller's arena. The grammar is
 * syntax only: no catalog look-ups, no name or type resolution. */
#ifndef SL_PARSER_H
#define SL_PARSER_H

#include <stddef.h>

#include "common/arena.h"
#include "common/sl_error.h"
#include "parser/ast.h"

/* Parses every statement in sql[0..len) (not necessarily NUL-terminated)
 * into `out`, allocating all nodes in arena `a`. Returns 0, or -1 with err
 * filled: SQLSTATE 42601, PostgreSQL's messages (`syntax error at or near
 * "foo"`, `syntax error at end of input`, `unterminated quoted string at or
 * near "'abc"`, the same for an unterminated comment or quoted identifier), and
 * err->position = 1-based CHARACTER (not byte; UTF-8 aware) offset into the
 * whole text of the offending token, as PostgreSQL reports it so psql draws
 * its caret. Empty statements (";;", only comments) produce no entries.
 * On error `out` is left empty (n == 0). A statement nested too deeply for
 * the parser's stack fails with 54000 "statement is too deeply nested". */
int parse_sql(const char *sql, size_t len, sl_arena_t *a, ast_stmt_list_t *out, sl_error_t *err);

/* Converts a byte offset within sql into PostgreSQL's 1-based character
 * position (offsets past the end count as the end). */
int parse_char_position(const char *sql, size_t len, size_t byte_offset);

/* 1 when `word` (any case) is a keyword that cannot be used as a bare
 * identifier (it must be double-quoted), 0 otherwise. For quoting names in
 * generated SQL, as PostgreSQL's quote_identifier() does. */
int parse_is_reserved_word(const char *word, size_t len);

#endif
