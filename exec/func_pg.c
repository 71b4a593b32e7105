/* exec functions that PostgreSQL clients call in their catalog queries:
 * format_type(oid, typmod), to_regtype(text), the visibility and privilege
 * tests, the description and definition readers, pg_encoding_to_char,
 * quote_ident, pg_my_temp_schema, pg_is_other_temp_schema and the regular
 * expression matches behind ~, ~*, !~ and !~* (textregexeq and friends).
 *
 * What they answer follows from what sluice is: every relation, type and
 * function lives in a schema on the search path (public or pg_catalog), so
 * the *_is_visible tests are true; every role may use every object (sluice
 * has no privileges), so has_*_privilege is true; nothing has a comment, so
 * obj_description, col_description and shobj_description are NULL; there
 * are no indexes, constraints, statistics objects, triggers, rules or
 * partitions, so pg_get_indexdef, pg_get_constraintdef,
 * pg_get_statisticsobjdef[_columns], pg_get_triggerdef, pg_get_ruledef,
 * pg_get_partkeydef and pg_get_partition_constraintdef are NULL
 * (PostgreSQL's answer for an OID that is not one); pg_get_expr returns its expression text as stored. Regular
 * expressions are POSIX extended ones (PostgreSQL's ARE syntax is a
 * superset; the patterns tools send — anchors, groups, alternation,
 * classes — mean the same); an invalid one is 2201B. */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "exec/func_int.h"
#include "model/pgtype.h"
#include "model/text_io.h"

static const exec_type_t string_type = {.id = EXEC_TYPE_STRING};
static const exec_type_t bigint_type = {.id = EXEC_TYPE_BIGINT};
static const exec_type_t bool_type = {.id = EXEC_TYPE_BOOLEAN};

/* Argument i as an OID (BIGINT): integers and strings ('16384') convert. */
static int bind_oid_arg(exec_bind_t *b, int i, sl_error_t *err)
{
    exec_type_id_t t = exec_bind_type(b, i);
    if (t != EXEC_TYPE_NULL && t != EXEC_TYPE_STRING && !exec_type_is_integer(b->args[i]->type))
        return exec_bind_mismatch(b, err);
    return exec_bind_arg(b, i, bigint_type, true, err);
}

/* Every argument converted to what the signature declares: 'o' an OID, 'i'
 * an integer, 't' text, 'b' a boolean (text past the end of `kinds`). */
static int bind_args(exec_bind_t *b, const char *kinds, sl_error_t *err)
{
    size_t nk = strlen(kinds);
    for (int i = 0; i < b->nargs; i++) {
        char k = (size_t)i < nk ? kinds[i] : 't';
        int rc = k == 'o' || k == 'i' ? bind_oid_arg(b, i, err)
                 : k == 'b'           ? exec_bind_arg(b, i, bool_type, true, err)
                                      : exec_bind_arg(b, i, string_type, true, err);
        if (rc) return -1;
    }
    return 0;
}

/* A copy of n bytes (possibly none) in the batch arena. */
static exec_str_t arena_str(sl_arena_t *a, const char *p, size_t n)
{
    char *z = sl_alloc(a, n + 1);
    if (n) memcpy(z, p, n);
    z[n] = '\0';
    return (exec_str_t){(uint32_t)n, z};
}

/* Sets every row to `v` (a constant answer). */
static void fill_bool(const exec_fcall_t *c, bool v)
{
    FOR_ROWS(c, OUT(c, bool, i) = v);
}

/* Every row NULL. */
static void fill_null(const exec_fcall_t *c)
{
    uint8_t *nulls = exec_vec_make_nulls(c->arena, c->out, c->cap);
    FOR_ROWS(c, nulls[i] = 1);
}

/* ---- format_type / to_regtype ------------------------------------------------------ */

int exec_bind_format_type(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, "oi", err)) return -1;
    b->type = string_type;
    return 0;
}

/* Not strict: a NULL type modifier means none (as in PostgreSQL); a NULL
 * OID gives NULL. */
int exec_fn_format_type(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    sl_buf_t buf = SL_BUF_INIT;
    uint8_t *nulls = NULL;
    FOR_ROWS(c, {
        if (exec_vec_is_null(c->args[0], i)) {
            if (!nulls) nulls = exec_vec_make_nulls(c->arena, c->out, c->cap);
            nulls[i] = 1;
            continue;
        }
        int64_t mod = exec_vec_is_null(c->args[1], i) ? -1 : ARG(c, 1, int64_t, i);
        sl_buf_clear(&buf);
        exec_pgtype_format((uint32_t)ARG(c, 0, int64_t, i), (int32_t)mod, &buf);
        OUT(c, exec_str_t, i) = arena_str(c->arena, buf.data, buf.len);
    });
    sl_buf_free(&buf);
    return 0;
}

int exec_bind_to_regtype(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, "t", err)) return -1;
    b->type = bigint_type;
    return 0;
}

int exec_fn_to_regtype(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    uint8_t *nulls = NULL;
    FOR_ROWS(c, {
        exec_str_t s = ARG(c, 0, exec_str_t, i);
        char name[128];
        size_t n = s.len < sizeof name - 1 ? s.len : sizeof name - 1;
        if (n) memcpy(name, s.ptr, n);
        name[n] = '\0';
        const exec_pgtype_t *t = exec_pgtype_by_name(name);
        if (t) {
            OUT(c, int64_t, i) = t->oid;
        } else {
            if (!nulls) nulls = exec_vec_make_nulls(c->arena, c->out, c->cap);
            nulls[i] = 1;
        }
    });
    return 0;
}

/* ---- constant answers --------------------------------------------------------------- */

/* pg_table_is_visible(oid), pg_type_is_visible(oid), pg_function_is_visible(oid). */
int exec_bind_pg_is_visible(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, "o", err)) return -1;
    b->type = bool_type;
    return 0;
}

int exec_fn_pg_is_visible(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    fill_bool(c, true);
    return 0;
}

/* has_table_privilege([user,] object, privilege) and the schema, database,
 * column, function and sequence forms: objects by name (text) or OID. */
int exec_bind_has_privilege(exec_bind_t *b, sl_error_t *err)
{
    for (int i = 0; i < b->nargs; i++) {
        exec_type_id_t t = exec_bind_type(b, i);
        exec_type_t want = exec_type_is_integer(b->args[i]->type) ? bigint_type : string_type;
        if (t != EXEC_TYPE_NULL && t != EXEC_TYPE_STRING && !exec_type_is_integer(b->args[i]->type))
            return exec_bind_mismatch(b, err);
        if (exec_bind_arg(b, i, want, true, err)) return -1;
    }
    b->type = bool_type;
    return 0;
}

int exec_fn_has_privilege(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    fill_bool(c, true);
    return 0;
}

/* pg_is_other_temp_schema(oid): sluice has no temporary schemas. */
int exec_bind_pg_is_other_temp_schema(exec_bind_t *b, sl_error_t *err)
{
    return exec_bind_pg_is_visible(b, err);
}

int exec_fn_pg_is_other_temp_schema(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    fill_bool(c, false);
    return 0;
}

/* pg_my_temp_schema(): 0, no temporary schema. */
int exec_bind_pg_my_temp_schema(exec_bind_t *b, sl_error_t *err)
{
    (void)err;
    b->type = bigint_type;
    return 0;
}

int exec_fn_pg_my_temp_schema(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    FOR_ROWS(c, OUT(c, int64_t, i) = 0);
    return 0;
}

/* obj_description(oid[, catalog]), col_description(oid, attnum),
 * shobj_description(oid, catalog): no object has a comment. */
int exec_bind_pg_description(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, !strcmp(b->func->name, "col_description") ? "oi" : "ot", err)) return -1;
    b->type = string_type;
    return 0;
}

int exec_fn_pg_description(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    fill_null(c);
    return 0;
}

/* pg_get_indexdef(oid[, column, pretty]), pg_get_constraintdef(oid[,
 * pretty]) and the other definitions of objects sluice does not have. */
int exec_bind_pg_get_def(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, !strcmp(b->func->name, "pg_get_indexdef") ? "oib" : "ob", err)) return -1;
    b->type = string_type;
    return 0;
}

int exec_fn_pg_get_def(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    fill_null(c);
    return 0;
}

/* pg_get_expr(expression text, relation oid[, pretty]): the text itself. */
int exec_bind_pg_get_expr(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, "tob", err)) return -1;
    b->type = string_type;
    return 0;
}

int exec_fn_pg_get_expr(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    FOR_ROWS(c, OUT(c, exec_str_t, i) = ARG(c, 0, exec_str_t, i));
    return 0;
}

/* pg_encoding_to_char(int): sluice speaks UTF8 (6); SQL_ASCII is 0. */
int exec_bind_pg_encoding_to_char(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, "i", err)) return -1;
    b->type = string_type;
    return 0;
}

int exec_fn_pg_encoding_to_char(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    FOR_ROWS(c, {
        int64_t e = ARG(c, 0, int64_t, i);
        OUT(c, exec_str_t, i) = e == 6   ? (exec_str_t){4, "UTF8"}
                                : e == 0 ? (exec_str_t){9, "SQL_ASCII"}
                                         : (exec_str_t){0, ""};
    });
    return 0;
}

/* ---- quote_ident ------------------------------------------------------------------ */

int exec_bind_quote_ident(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, "t", err)) return -1;
    b->type = string_type;
    return 0;
}

/* Lower-case letters, digits and '_', not starting with a digit, stay bare. */
static bool ident_is_plain(exec_str_t s)
{
    if (s.len == 0 || (s.ptr[0] >= '0' && s.ptr[0] <= '9')) return false;
    for (uint32_t k = 0; k < s.len; k++) {
        char ch = s.ptr[k];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_')) return false;
    }
    return true;
}

int exec_fn_quote_ident(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    FOR_ROWS(c, {
        exec_str_t s = ARG(c, 0, exec_str_t, i);
        if (ident_is_plain(s)) {
            OUT(c, exec_str_t, i) = s;
            continue;
        }
        char *q = sl_alloc(c->arena, (size_t)s.len * 2 + 2);
        uint32_t n = 0;
        q[n++] = '"';
        for (uint32_t k = 0; k < s.len; k++) {
            if (s.ptr[k] == '"') q[n++] = '"';
            q[n++] = s.ptr[k];
        }
        q[n++] = '"';
        OUT(c, exec_str_t, i) = (exec_str_t){n, q};
    });
    return 0;
}

/* ---- regular expressions ------------------------------------------------------------ */

/* What bind prepares: the pattern compiled once when it is a constant. */
typedef struct regex_aux {
    int flags;    /* REG_* for regcomp */
    int negate;   /* !~ and !~* */
    int compiled; /* re holds the constant pattern */
    regex_t re;
} regex_aux_t;

static void regex_free_cb(void *arg)
{
    regfree(&((regex_aux_t *)arg)->re);
}

static int regex_compile(regex_t *re, const char *p, size_t n, int flags, sl_error_t *err)
{
    char stack[256], *pat = n < sizeof stack ? stack : sl_xmalloc(n + 1);
    if (n) memcpy(pat, p, n);
    pat[n] = '\0';
    int rc = regcomp(re, pat, flags);
    if (pat != stack) free(pat);
    if (rc == 0) return 0;
    char msg[128];
    regerror(rc, re, msg, sizeof msg);
    regfree(re);
    return sl_error_set(err, SL_ERR_INVALID_REGULAR_EXPRESSION, "invalid regular expression: %s",
                        msg);
}

int exec_bind_regex(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, "tt", err)) return -1;
    b->type = bool_type;
    if (b->check_only) return 0;
    const char *name = b->func->name;
    regex_aux_t *aux = SL_NEW(b->arena, regex_aux_t);
    aux->flags = REG_EXTENDED | REG_NOSUB | (strstr(name, "icregex") ? REG_ICASE : 0);
    aux->negate = strstr(name, "regexne") != NULL;
    b->aux = aux;
    const exec_expr_t *p = b->args[1];
    if (p->kind != EXEC_EXPR_CONST || p->value.is_null) return 0;
    if (regex_compile(&aux->re, p->value.u.str.ptr ? p->value.u.str.ptr : "", p->value.u.str.len,
                      aux->flags, err) < 0)
        return -1;
    aux->compiled = 1;
    sl_arena_on_reset(b->arena, regex_free_cb, aux);
    return 0;
}

static bool regex_match(const regex_t *re, exec_str_t s)
{
    char stack[256], *z = s.len < sizeof stack ? stack : sl_xmalloc((size_t)s.len + 1);
    if (s.len) memcpy(z, s.ptr, s.len);
    z[s.len] = '\0';
    bool hit = regexec(re, z, 0, NULL, 0) == 0;
    if (z != stack) free(z);
    return hit;
}

int exec_fn_regex(const exec_fcall_t *c, sl_error_t *err)
{
    const regex_aux_t *aux = c->aux;
    const uint32_t *rx = c->rows;
    for (uint32_t k = 0; k < c->nrows; k++) {
        uint32_t i = rx ? rx[k] : k;
        exec_str_t p = ARG(c, 1, exec_str_t, i);
        regex_t one;
        if (!aux->compiled && regex_compile(&one, p.ptr, p.len, aux->flags, err) < 0) return -1;
        bool hit = regex_match(aux->compiled ? &aux->re : &one, ARG(c, 0, exec_str_t, i));
        if (!aux->compiled) regfree(&one);
        OUT(c, bool, i) = hit != (bool)aux->negate;
    }
    return 0;
}

/* ---- array_to_string ---------------------------------------------------------------- */

/* sluice has no array type: the catalog relations show arrays in their
 * text form ({a,b}). array_to_string(text, sep) joins such a form's
 * elements with `sep` (double-quoted elements unquoted; NULL elements
 * left out, as PostgreSQL does without a null string). */
int exec_bind_array_to_string(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, "tt", err)) return -1;
    b->type = string_type;
    return 0;
}

int exec_fn_array_to_string(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    sl_buf_t buf = SL_BUF_INIT;
    FOR_ROWS(c, {
        exec_str_t s = ARG(c, 0, exec_str_t, i), sep = ARG(c, 1, exec_str_t, i);
        sl_buf_clear(&buf);
        uint32_t k = s.len && s.ptr[0] == '{' ? 1 : 0;
        int n = 0;
        while (k < s.len && s.ptr[k] != '}') {
            size_t mark = buf.len;
            if (n) sl_buf_append(&buf, sep.ptr, sep.len);
            if (exec_text_array_element(s, &k, &buf)) n++;
            else buf.len = mark;
            if (k < s.len && s.ptr[k] == ',') k++;
        }
        OUT(c, exec_str_t, i) = arena_str(c->arena, buf.data, buf.len);
    });
    sl_buf_free(&buf);
    return 0;
}

/* ---- array_contains ------------------------------------------------------------------ */

/* array_contains(array, value) (Spark's name; x = ANY (array) binds to it):
 * whether an element of the array's text form ({a,b}, or a vector's "1 2")
 * has the value's text. NULL for a NULL array or value. */
int exec_bind_array_contains(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, "tt", err)) return -1;
    b->type = bool_type;
    return 0;
}

static bool vector_contains(exec_str_t s, exec_str_t v)
{
    uint32_t k = 0;
    while (k < s.len) {
        while (k < s.len && s.ptr[k] == ' ') k++;
        uint32_t start = k;
        while (k < s.len && s.ptr[k] != ' ') k++;
        if (k > start && k - start == v.len && !memcmp(s.ptr + start, v.ptr, v.len)) return true;
    }
    return false;
}

static bool array_contains(exec_str_t s, exec_str_t v, sl_buf_t *buf)
{
    if (!s.len || s.ptr[0] != '{') return vector_contains(s, v);
    uint32_t k = 1;
    while (k < s.len && s.ptr[k] != '}') {
        sl_buf_clear(buf);
        if (exec_text_array_element(s, &k, buf) && buf->len == v.len &&
            !memcmp(buf->data, v.ptr, v.len))
            return true;
        if (k < s.len && s.ptr[k] == ',') k++;
    }
    return false;
}

int exec_fn_array_contains(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    sl_buf_t buf = SL_BUF_INIT;
    FOR_ROWS(c, OUT(c, bool, i) =
                    array_contains(ARG(c, 0, exec_str_t, i), ARG(c, 1, exec_str_t, i), &buf));
    sl_buf_free(&buf);
    return 0;
}

/* ---- element_at / array_upper ------------------------------------------------------- */

/* element_at(array, i) (Spark's name; a[i] binds to it): element i of an
 * array's text form ({a,b}: from 1) or of a vector's ("1 2": from 0, as
 * PostgreSQL's int2vector and oidvector count); NULL past either end. */
int exec_bind_element_at(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, "ti", err)) return -1;
    b->type = string_type;
    return 0;
}

/* Finds element `want` (0-based) of s into buf; false when there is none or it is NULL. */
static bool element_of(exec_str_t s, int64_t want, sl_buf_t *buf)
{
    int braces = s.len && s.ptr[0] == '{';
    uint32_t k = braces;
    for (int64_t i = 0; k < s.len && s.ptr[k] != '}'; i++) {
        sl_buf_clear(buf);
        int present;
        if (braces) {
            present = exec_text_array_element(s, &k, buf);
            if (k < s.len && s.ptr[k] == ',') k++;
        } else {
            while (k < s.len && s.ptr[k] == ' ') k++;
            uint32_t start = k;
            while (k < s.len && s.ptr[k] != ' ') k++;
            if (k == start) return false;
            sl_buf_append(buf, s.ptr + start, k - start);
            present = 1;
        }
        if (i == want) return present;
    }
    return false;
}

int exec_fn_element_at(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    sl_buf_t buf = SL_BUF_INIT;
    uint8_t *nulls = NULL;
    FOR_ROWS(c, {
        exec_str_t s = ARG(c, 0, exec_str_t, i);
        int64_t idx = ARG(c, 1, int64_t, i) - (s.len && s.ptr[0] == '{' ? 1 : 0);
        if (idx < 0 || !element_of(s, idx, &buf)) {
            if (!nulls) nulls = exec_vec_make_nulls(c->arena, c->out, c->cap);
            nulls[i] = 1;
            continue;
        }
        OUT(c, exec_str_t, i) = arena_str(c->arena, buf.data, buf.len);
    });
    sl_buf_free(&buf);
    return 0;
}

/* array_upper(array, 1): the upper bound of an array's text form (its
 * element count; a vector's count - 1); NULL for an empty array or another
 * dimension. */
int exec_bind_array_upper(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, "ti", err)) return -1;
    b->type = exec_type_of(EXEC_TYPE_INT);
    return 0;
}

/* Elements in an array's text form or a vector. */
static int64_t element_count(exec_str_t s, sl_buf_t *buf)
{
    int braces = s.len && s.ptr[0] == '{';
    uint32_t k = braces;
    int64_t n = 0;
    while (k < s.len && s.ptr[k] != '}') {
        if (braces) {
            exec_text_array_element(s, &k, buf);
            if (k < s.len && s.ptr[k] == ',') k++;
            n++;
            continue;
        }
        while (k < s.len && s.ptr[k] == ' ') k++;
        uint32_t start = k;
        while (k < s.len && s.ptr[k] != ' ') k++;
        n += k > start;
    }
    return n;
}

int exec_fn_array_upper(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    sl_buf_t buf = SL_BUF_INIT;
    uint8_t *nulls = NULL;
    FOR_ROWS(c, {
        exec_str_t s = ARG(c, 0, exec_str_t, i);
        int64_t n = element_count(s, &buf);
        if (ARG(c, 1, int64_t, i) != 1 || n == 0) {
            if (!nulls) nulls = exec_vec_make_nulls(c->arena, c->out, c->cap);
            nulls[i] = 1;
            continue;
        }
        OUT(c, int32_t, i) = (int32_t)(s.len && s.ptr[0] == '{' ? n : n - 1);
    });
    sl_buf_free(&buf);
    return 0;
}

/* pg_relation_is_publishable(oid): sluice has no logical replication. */
int exec_bind_pg_relation_is_publishable(exec_bind_t *b, sl_error_t *err)
{
    return exec_bind_pg_is_visible(b, err);
}

int exec_fn_pg_relation_is_publishable(const exec_fcall_t *c, sl_error_t *err)
{
    return exec_fn_pg_is_other_temp_schema(c, err);
}

/* ---- replace, pg_get_serial_sequence -------------------------------------------------- */

/* replace(s, from, to): every occurrence of `from` replaced (none when empty). */
int exec_bind_replace(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, "ttt", err)) return -1;
    b->type = string_type;
    return 0;
}

int exec_fn_replace(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    sl_buf_t buf = SL_BUF_INIT;
    FOR_ROWS(c, {
        exec_str_t s = ARG(c, 0, exec_str_t, i), from = ARG(c, 1, exec_str_t, i),
                   to = ARG(c, 2, exec_str_t, i);
        sl_buf_clear(&buf);
        for (uint32_t k = 0; k < s.len;) {
            if (from.len && k + from.len <= s.len && !memcmp(s.ptr + k, from.ptr, from.len)) {
                sl_buf_append(&buf, to.ptr, to.len);
                k += from.len;
            } else {
                sl_buf_putc(&buf, s.ptr[k++]);
            }
        }
        OUT(c, exec_str_t, i) = arena_str(c->arena, buf.data, buf.len);
    });
    sl_buf_free(&buf);
    return 0;
}

/* pg_get_serial_sequence(table, column): sluice has no sequences. */
int exec_bind_pg_get_serial_sequence(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, "tt", err)) return -1;
    b->type = string_type;
    return 0;
}

int exec_fn_pg_get_serial_sequence(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    fill_null(c);
    return 0;
}

/* ---- pg_get_function_arguments / pg_get_function_result ------------------------------ */

/* The catalogue entry a pg_proc OID names, or NULL. */
static const exec_func_t *func_of_oid(int64_t oid)
{
    int64_t i = oid - EXEC_FUNC_OID_BASE;
    return i >= 0 && i < exec_func_count() ? exec_func_at((int)i) : NULL;
}

/* The argument list of an entry's first signature: "string, int[, int]". */
static exec_str_t signature_args(const exec_func_t *f)
{
    const char *open = strchr(f->signatures, '(');
    const char *close = open ? strchr(open, ')') : NULL;
    if (!close) return (exec_str_t){0, ""};
    return (exec_str_t){(uint32_t)(close - open - 1), open + 1};
}

/* The result type of an entry called with its first signature's argument
 * types (the first word of each mandatory argument), or NULL when they do
 * not name types (an aggregate, "value"). */
static const char *result_type(const exec_func_t *f, sl_arena_t *a)
{
    exec_str_t s = signature_args(f);
    exec_type_t types[16];
    int n = 0;
    for (uint32_t k = 0; k < s.len && n < f->min_args && n < 16;) {
        uint32_t start = k;
        while (k < s.len && s.ptr[k] != ' ' && s.ptr[k] != ',' && s.ptr[k] != '[') k++;
        sl_error_t ignored = {0};
        if (exec_type_parse(s.ptr + start, k - start, a, &types[n], &ignored) < 0) return NULL;
        n++;
        while (k < s.len && s.ptr[k] != ',') k++;
        while (k < s.len && (s.ptr[k] == ',' || s.ptr[k] == ' ')) k++;
    }
    if (n < f->min_args) return NULL;
    const exec_func_t *found;
    exec_type_t ret;
    sl_error_t ignored = {0};
    if (f->kind != EXEC_FUNC_SCALAR ||
        exec_func_lookup(a, f->name, n, types, &found, &ret, &ignored) < 0)
        return NULL;
    return exec_type_pg_name(ret);
}

/* pg_get_function_arguments(oid) and pg_get_function_result(oid) (aux
 * marks the second): from the catalogue entry's signature; NULL for an OID
 * that is no function. */
int exec_bind_pg_get_function(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, "o", err)) return -1;
    b->type = string_type;
    b->aux = strstr(b->func->name, "result") ? (void *)b->func : NULL;
    return 0;
}

int exec_fn_pg_get_function(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    uint8_t *nulls = NULL;
    FOR_ROWS(c, {
        const exec_func_t *f = func_of_oid(ARG(c, 0, int64_t, i));
        const char *r = f && c->aux ? result_type(f, c->arena) : NULL;
        if (f && !c->aux) {
            OUT(c, exec_str_t, i) = signature_args(f);
        } else if (r) {
            OUT(c, exec_str_t, i) = (exec_str_t){(uint32_t)strlen(r), r};
        } else {
            if (!nulls) nulls = exec_vec_make_nulls(c->arena, c->out, c->cap);
            nulls[i] = 1;
        }
    });
    return 0;
}

/* ---- sizes, encodings, tablespaces ------------------------------------------------------ */

/* pg_table_size, pg_relation_size, pg_total_relation_size, pg_indexes_size,
 * pg_database_size: sluice does not track storage sizes (NULL). */
int exec_bind_pg_size(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, exec_bind_type(b, 0) == EXEC_TYPE_STRING ? "t" : "o", err)) return -1;
    b->type = bigint_type;
    return 0;
}

int exec_fn_pg_size(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    fill_null(c);
    return 0;
}

/* pg_size_pretty(bigint): PostgreSQL's rounding to bytes, kB, MB, GB, TB. */
int exec_bind_pg_size_pretty(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, "i", err)) return -1;
    b->type = string_type;
    return 0;
}

static const char *size_pretty(int64_t size, sl_arena_t *a)
{
    static const char *const units[] = {"bytes", "kB", "MB", "GB", "TB", "PB"};
    if (llabs(size) < 10 * 1024) return sl_printf(a, "%lld bytes", (long long)size);
    size /= 512; /* half-kB: one bit kept for rounding */
    int u = 1;
    for (; u < 5 && llabs(size) >= 10 * 1024 * 2 - 1; u++) size /= 1024;
    return sl_printf(a, "%lld %s", (long long)((size + (size > 0 ? 1 : -1)) / 2), units[u]);
}

int exec_fn_pg_size_pretty(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    FOR_ROWS(c, {
        const char *s = size_pretty(ARG(c, 0, int64_t, i), c->arena);
        OUT(c, exec_str_t, i) = (exec_str_t){(uint32_t)strlen(s), s};
    });
    return 0;
}

/* getdatabaseencoding(): UTF8. */
int exec_bind_getdatabaseencoding(exec_bind_t *b, sl_error_t *err)
{
    (void)err;
    b->type = string_type;
    return 0;
}

int exec_fn_getdatabaseencoding(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    FOR_ROWS(c, OUT(c, exec_str_t, i) = ((exec_str_t){4, "UTF8"}));
    return 0;
}

/* pg_tablespace_location(oid): '' (the default tablespace, the data directory). */
int exec_bind_pg_tablespace_location(exec_bind_t *b, sl_error_t *err)
{
    if (bind_args(b, "o", err)) return -1;
    b->type = string_type;
    return 0;
}

int exec_fn_pg_tablespace_location(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    FOR_ROWS(c, OUT(c, exec_str_t, i) = ((exec_str_t){0, ""}));
    return 0;
}
