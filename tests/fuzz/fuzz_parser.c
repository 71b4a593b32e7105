/* libFuzzer target for the SQL parser: parses arbitrary bytes, dumps every
 * statement, and checks the invariants the rest of sluice relies on
 * (statement ranges inside the text, error positions inside it plus one,
 * 42601 or 54000 only). `make FUZZ=1 fuzz` runs it with the keywords as a
 * dictionary (tests/fuzz/README.md); `make test` replays
 * tests/fuzz/corpus/parser. */
#include "tests/fuzz/fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/buf.h"
#include "parser/parser.h"

static void check(int ok)
{
    if (!ok) abort(); /* a broken invariant: libFuzzer saves the input */
}

static void check_ok(const char *sql, size_t len, const ast_stmt_list_t *l)
{
    sl_buf_t b = SL_BUF_INIT;
    check(l->max_param >= 0 && l->max_param <= 65535);
    for (int i = 0; i < l->n; i++) {
        const ast_stmt_t *s = l->items[i];
        check(s->start >= 0 && s->start < s->end && (size_t)s->end <= len);
        check(sql[s->start] != ';' && sql[s->end - 1] != ' ');
        ast_dump_stmt(&b, s);
        check(b.len > 0 && b.data[0] == '(');
        sl_buf_clear(&b);
    }
    sl_buf_free(&b);
}

static void check_error(const char *sql, size_t len, const ast_stmt_list_t *l,
                        const sl_error_t *err)
{
    check(l->n == 0);
    check(!strcmp(err->sqlstate, "42601") || !strcmp(err->sqlstate, "54000"));
    check(err->message[0] != '\0');
    if (strlen(sql) == len) /* no NUL inside: positions are meaningful */
        check(err->position >= 1 && err->position <= parse_char_position(sql, len, len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* an exact-size heap copy so that ASan catches reads past the end */
    char *sql = malloc(size ? size : 1);
    memcpy(sql, data, size);
    sl_arena_t *a = sl_arena_new("fuzz");
    ast_stmt_list_t l;
    sl_error_t err;
    sl_error_clear(&err);
    if (parse_sql(sql, size, a, &l, &err) == 0) {
        check_ok(sql, size, &l);
    } else {
        char *z = sl_strndup(a, sql, size);
        check_error(z, size, &l, &err);
    }
    sl_arena_free(a);
    free(sql);
    return 0;
}
