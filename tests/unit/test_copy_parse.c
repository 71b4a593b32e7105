/* COPY's grammar (parser/grammar.y's COPY block, parser/ast_copy.c): both
 * option syntaxes, the old words spelled as the new options, the targets,
 * and the syntax errors. SQL in, ast_dump_stmt() text out. */
#include <string.h>

#include "common/arena.h"
#include "common/buf.h"
#include "parser/parser.h"
#include "unit.h"

/* The dump of the statements of `sql`, or "ERROR <message> @<position>". */
static char *dump(sl_arena_t *a, const char *sql)
{
    ast_stmt_list_t l;
    sl_error_t err;
    if (parse_sql(sql, strlen(sql), a, &l, &err) < 0)
        return sl_printf(a, "ERROR %s @%d", err.message, err.position);
    sl_buf_t b = SL_BUF_INIT;
    for (int i = 0; i < l.n; i++) ast_dump_stmt(&b, l.items[i]);
    char *s = sl_strdup(a, b.data ? b.data : "");
    sl_buf_free(&b);
    return s;
}

#define CHECK_DUMP(sql, want)                      \
    do {                                           \
        sl_arena_t *arena_ = sl_arena_new("test"); \
        CHECK_STR(dump(arena_, sql), want);        \
        sl_arena_free(arena_);                     \
    } while (0)

TEST(copy_targets)
{
    CHECK_DUMP("COPY t TO STDOUT", "(copy to t client)");
    CHECK_DUMP("copy public.t (a, \"B\") from stdin", "(copy from t (columns a \"B\") client)");
    CHECK_DUMP("COPY t FROM STDOUT", "(copy from t client)");
    CHECK_DUMP("COPY t TO '/tmp/x'", "(copy to t (file '/tmp/x'))");
    CHECK_DUMP("COPY t FROM PROGRAM 'cat x'", "(copy from t (program 'cat x'))");
    CHECK_DUMP("COPY (SELECT a FROM t WHERE a > $1) TO STDOUT",
               "(copy to (select (items (col a)) (from (table t)) (where (> (col a) $1))) client)");
}

TEST(copy_option_list)
{
    CHECK_DUMP(
        "COPY t TO STDOUT (FORMAT csv, HEADER, DELIMITER ';', NULL 'x', QUOTE '''', ESCAPE '\\')",
        "(copy to t client (opt format csv) (opt header) (opt delimiter ;) (opt null x) (opt quote ') "
        "(opt escape \\))");
    CHECK_DUMP(
        "COPY t TO STDOUT WITH (FORCE_QUOTE *, HEADER false, ENCODING 'UTF8', FREEZE on)",
        "(copy to t client (opt force_quote *) (opt header false) (opt encoding UTF8) (opt freeze on))");
    CHECK_DUMP(
        "COPY t FROM STDIN (FORMAT 'csv', FORCE_NOT_NULL (a, b), FORCE_NULL (c), HEADER match)",
        "(copy from t client (opt format csv) (opt force_not_null (a b)) (opt force_null (c)) "
        "(opt header match))");
}

TEST(copy_old_words)
{
    CHECK_DUMP("COPY t TO STDOUT WITH CSV HEADER DELIMITER AS ',' NULL AS '' FORCE QUOTE a, b",
               "(copy to t client (opt format csv) (opt header) (opt delimiter ,) (opt null ) "
               "(opt force_quote (a b)))");
    CHECK_DUMP(
        "COPY t FROM STDIN CSV QUOTE '\"' ESCAPE '\\' FORCE NOT NULL a FORCE NULL b",
        "(copy from t client (opt format csv) (opt quote \") (opt escape \\) (opt force_not_null (a)) "
        "(opt force_null (b)))");
    CHECK_DUMP("COPY t TO STDOUT BINARY", "(copy to t client (opt format binary))");
    CHECK_DUMP("COPY t TO STDOUT FORCE QUOTE *", "(copy to t client (opt force_quote *))");
    CHECK_DUMP("COPY t TO STDOUT bogus",
               "(copy to t client (opt bogus))"); /* the statement refuses it */
}

TEST(copy_words_stay_identifiers)
{
    CHECK_DUMP(
        "SELECT copy, stdin, stdout, force, program FROM t",
        "(select (items (col copy) (col stdin) (col stdout) (col force) (col program)) (from (table t)))");
}

TEST(copy_syntax_errors)
{
    CHECK_DUMP("COPY t TO STDOUT FORCE NOTE a", "ERROR syntax error at or near \"note\" @24");
    CHECK_DUMP("COPY a.b.c TO STDOUT",
               "ERROR improper qualified name (too many dotted names): a.b.c @6");
    CHECK_DUMP("COPY t TO", "ERROR syntax error at end of input @10");
    CHECK_DUMP("COPY (SELECT 1) FROM STDIN", "ERROR syntax error at or near \"FROM\" @17");
    CHECK_DUMP("COPY t TO STDOUT (FORMAT csv,)", "ERROR syntax error at or near \")\" @30");
}
