/* exec types: descriptors, parsing of user-written type names and Spark DDL
 * schemas, canonical text, PostgreSQL wire identity. */
#include "model/types.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

exec_type_t exec_type_of(exec_type_id_t id)
{
    exec_type_t t = {.id = id};
    return t;
}

exec_type_t exec_type_decimal(int precision, int scale)
{
    exec_type_t t = {
        .id = EXEC_TYPE_DECIMAL, .precision = (uint8_t)precision, .scale = (uint8_t)scale};
    return t;
}

exec_type_t exec_type_struct(sl_arena_t *a, int n, const char *const *names,
                             const exec_type_t *types)
{
    exec_field_t *f = SL_NEW_ARRAY(a, exec_field_t, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) {
        f[i].name = sl_strdup(a, names[i]);
        f[i].type = types[i];
    }
    exec_type_t t = {.id = EXEC_TYPE_STRUCT, .nfields = (uint16_t)n, .fields = f};
    return t;
}

static const exec_field_t window_fields[2] = {
    {"start", {.id = EXEC_TYPE_TIMESTAMP}},
    {"end", {.id = EXEC_TYPE_TIMESTAMP}},
};

exec_type_t exec_type_window(void)
{
    exec_type_t t = {.id = EXEC_TYPE_STRUCT, .nfields = 2, .fields = window_fields};
    return t;
}

bool exec_type_equal(exec_type_t a, exec_type_t b)
{
    if (a.id != b.id) return false;
    if (a.id == EXEC_TYPE_DECIMAL) return a.precision == b.precision && a.scale == b.scale;
    if (a.id != EXEC_TYPE_STRUCT) return true;
    if (a.nfields != b.nfields) return false;
    for (int i = 0; i < a.nfields; i++) {
        if (strcasecmp(a.fields[i].name, b.fields[i].name)) return false;
        if (!exec_type_equal(a.fields[i].type, b.fields[i].type)) return false;
    }
    return true;
}

size_t exec_type_width(exec_type_t t)
{
    switch (t.id) {
    case EXEC_TYPE_BOOLEAN: return 1;
    case EXEC_TYPE_INT:
    case EXEC_TYPE_DATE: return 4;
    case EXEC_TYPE_BIGINT:
    case EXEC_TYPE_TIMESTAMP:
    case EXEC_TYPE_DOUBLE: return 8;
    case EXEC_TYPE_DECIMAL: return sizeof(exec_dec_t);
    case EXEC_TYPE_STRING:
    case EXEC_TYPE_BINARY: return sizeof(exec_str_t);
    case EXEC_TYPE_INTERVAL: return sizeof(exec_interval_t);
    default: return 0;
    }
}

bool exec_type_is_integer(exec_type_t t)
{
    return t.id == EXEC_TYPE_INT || t.id == EXEC_TYPE_BIGINT;
}

bool exec_type_is_numeric(exec_type_t t)
{
    return exec_type_is_integer(t) || t.id == EXEC_TYPE_DOUBLE || t.id == EXEC_TYPE_DECIMAL;
}

bool exec_type_is_varlen(exec_type_t t)
{
    return t.id == EXEC_TYPE_STRING || t.id == EXEC_TYPE_BINARY;
}

int exec_type_field_index(exec_type_t t, const char *name)
{
    if (t.id != EXEC_TYPE_STRUCT) return -1;
    for (int i = 0; i < t.nfields; i++)
        if (!strcasecmp(t.fields[i].name, name)) return i;
    return -1;
}

/* ---- parsing ---------------------------------------------------------- */

/* A cursor over the text being parsed. */
typedef struct tparse {
    const char *p, *end;
    const char *text; /* whole text, for messages */
    size_t len;
    sl_arena_t *a;
    sl_error_t *err;
} tparse_t;

static void skip_ws(tparse_t *t)
{
    while (t->p < t->end && isspace((unsigned char)*t->p)) t->p++;
}

/* Reads an identifier-like word into buf (lowercased); false when none. */
static bool read_word(tparse_t *t, char *buf, size_t cap)
{
    skip_ws(t);
    size_t n = 0;
    while (t->p < t->end && (isalnum((unsigned char)*t->p) || *t->p == '_')) {
        if (n + 1 < cap) buf[n++] = (char)tolower((unsigned char)*t->p);
        t->p++;
    }
    buf[n] = '\0';
    return n > 0;
}

/* Peeks at the next word without consuming it. */
static bool peek_word(tparse_t *t, const char *w)
{
    const char *save = t->p;
    char buf[32];
    bool ok = read_word(t, buf, sizeof buf) && !strcmp(buf, w);
    t->p = save;
    return ok;
}

static bool accept(tparse_t *t, char c)
{
    skip_ws(t);
    if (t->p < t->end && *t->p == c) {
        t->p++;
        return true;
    }
    return false;
}

static int syntax_error(tparse_t *t)
{
    return sl_error_set(t->err, SL_ERR_SYNTAX_ERROR, "syntax error in type \"%.*s\"", (int)t->len,
                        t->text);
}

static int read_int(tparse_t *t, int *out)
{
    skip_ws(t);
    long v = 0;
    const char *start = t->p;
    while (t->p < t->end && isdigit((unsigned char)*t->p) && v < 100000)
        v = v * 10 + (*t->p++ - '0');
    if (t->p == start) return syntax_error(t);
    *out = (int)v;
    return 0;
}

/* Optional "(n)" or "(n, m)" after a type name; missing parts stay -1. */
static int read_params(tparse_t *t, int *a, int *b)
{
    *a = *b = -1;
    if (!accept(t, '(')) return 0;
    if (read_int(t, a)) return -1;
    if (accept(t, ',') && read_int(t, b)) return -1;
    if (!accept(t, ')')) return syntax_error(t);
    return 0;
}

static int parse_decimal(tparse_t *t, exec_type_t *out)
{
    int p, s;
    if (read_params(t, &p, &s)) return -1;
    if (p < 0) p = EXEC_DECIMAL_DEFAULT_PRECISION;
    if (s < 0) s = 0;
    if (p < 1 || p > EXEC_DECIMAL_MAX_PRECISION)
        return sl_error_set(t->err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "decimal precision %d must be between 1 and %d", p,
                            EXEC_DECIMAL_MAX_PRECISION);
    if (s > p)
        return sl_error_set(t->err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "decimal scale %d must be between 0 and precision %d", s, p);
    *out = exec_type_decimal(p, s);
    return 0;
}

/* INTERVAL may carry Spark/PostgreSQL qualifiers (DAY TO SECOND ...): read
 * and ignore them; the value always holds months, days and microseconds. */
static void skip_interval_qualifier(tparse_t *t)
{
    static const char *units[] = {"year", "month", "day", "hour", "minute", "second", NULL};
    for (;;) {
        bool unit = false;
        for (int i = 0; units[i] && !unit; i++) unit = peek_word(t, units[i]);
        if (!unit && !peek_word(t, "to")) return;
        char buf[16];
        read_word(t, buf, sizeof buf);
    }
}

static int parse_type(tparse_t *t, exec_type_t *out);

/* Reads a name quoted by q (`name` or "name"; a doubled q stands for
 * itself), the cursor on the opening quote; NULL when unterminated. */
static char *read_quoted_name(tparse_t *t, char q)
{
    char *out = sl_alloc(t->a, (size_t)(t->end - t->p) + 1);
    size_t n = 0;
    for (t->p++; t->p < t->end; t->p++) {
        if (*t->p == q && !(t->p + 1 < t->end && t->p[1] == q)) {
            t->p++;
            out[n] = '\0';
            return out;
        }
        if (*t->p == q) t->p++;
        out[n++] = *t->p;
    }
    return NULL;
}

/* Reads a field name: a word, a `backquoted` (Spark) or a "double-quoted"
 * (SQL) name — the quoted forms allow reserved words and any character. */
static char *read_field_name(tparse_t *t)
{
    skip_ws(t);
    if (t->p < t->end && (*t->p == '`' || *t->p == '"')) return read_quoted_name(t, *t->p);
    const char *s = t->p;
    while (t->p < t->end && (isalnum((unsigned char)*t->p) || *t->p == '_')) t->p++;
    return t->p > s ? sl_strndup(t->a, s, (size_t)(t->p - s)) : NULL;
}

/* Fields "name[:] type, ..." up to `close` (or the end when close is 0). */
static int parse_fields(tparse_t *t, char close, exec_type_t *out)
{
    int n = 0, cap = 8;
    const char **names = sl_alloc(t->a, sizeof(char *) * (size_t)cap);
    exec_type_t *types = sl_alloc(t->a, sizeof(exec_type_t) * (size_t)cap);
    skip_ws(t);
    bool empty = close ? (t->p < t->end && *t->p == close) : t->p >= t->end;
    while (!empty) {
        if (n == cap) {
            names = sl_arena_realloc(t->a, names, sizeof(char *) * (size_t)cap,
                                     sizeof(char *) * (size_t)cap * 2);
            types = sl_arena_realloc(t->a, types, sizeof(exec_type_t) * (size_t)cap,
                                     sizeof(exec_type_t) * (size_t)cap * 2);
            cap *= 2;
        }
        if (!(names[n] = read_field_name(t))) return syntax_error(t);
        for (int i = 0; i < n; i++)
            if (!strcasecmp(names[i], names[n]))
                return sl_error_set(t->err, SL_ERR_DUPLICATE_COLUMN, "duplicate field name \"%s\"",
                                    names[n]);
        accept(t, ':');
        if (parse_type(t, &types[n++])) return -1;
        if (!accept(t, ',')) break;
    }
    if (close && !accept(t, close)) return syntax_error(t);
    *out = exec_type_struct(t->a, n, names, types);
    return 0;
}

static int unknown_type(tparse_t *t, const char *word)
{
    return sl_error_set(t->err, SL_ERR_UNDEFINED_OBJECT, "type \"%s\" does not exist", word);
}

/* Names that map straight to one type id. */
static const struct {
    const char *name;
    exec_type_id_t id;
} simple_names[] = {
    {"boolean", EXEC_TYPE_BOOLEAN},
    {"bool", EXEC_TYPE_BOOLEAN},
    {"int", EXEC_TYPE_INT},
    {"integer", EXEC_TYPE_INT},
    {"int4", EXEC_TYPE_INT},
    {"smallint", EXEC_TYPE_INT},
    {"int2", EXEC_TYPE_INT},
    {"tinyint", EXEC_TYPE_INT},
    {"short", EXEC_TYPE_INT},
    {"byte", EXEC_TYPE_INT},
    {"bigint", EXEC_TYPE_BIGINT},
    {"int8", EXEC_TYPE_BIGINT},
    {"long", EXEC_TYPE_BIGINT},
    {"float", EXEC_TYPE_DOUBLE},
    {"float8", EXEC_TYPE_DOUBLE},
    {"float4", EXEC_TYPE_DOUBLE},
    {"real", EXEC_TYPE_DOUBLE},
    {"string", EXEC_TYPE_STRING},
    {"text", EXEC_TYPE_STRING},
    {"binary", EXEC_TYPE_BINARY},
    {"bytea", EXEC_TYPE_BINARY},
    {"varbinary", EXEC_TYPE_BINARY},
    {"date", EXEC_TYPE_DATE},
    {"timestamp_ntz", EXEC_TYPE_TIMESTAMP},
    {"timestamptz", EXEC_TYPE_TIMESTAMP},
    {"timestamp_ltz", EXEC_TYPE_TIMESTAMP},
};

/* TIMESTAMP [WITH[OUT] TIME ZONE] */
static void skip_time_zone_words(tparse_t *t)
{
    if (!peek_word(t, "with") && !peek_word(t, "without")) return;
    char buf[16];
    read_word(t, buf, sizeof buf);
    if (peek_word(t, "time")) read_word(t, buf, sizeof buf);
    if (peek_word(t, "zone")) read_word(t, buf, sizeof buf);
}

/* Types whose names take words or parameters after them. */
static int parse_compound(tparse_t *t, const char *w, exec_type_t *out)
{
    int n, m;
    if (!strcmp(w, "decimal") || !strcmp(w, "numeric") || !strcmp(w, "dec"))
        return parse_decimal(t, out);
    if (!strcmp(w, "varchar") || !strcmp(w, "char") || !strcmp(w, "character")) {
        char buf[16];
        if (!strcmp(w, "character") && peek_word(t, "varying")) read_word(t, buf, sizeof buf);
        *out = exec_type_of(EXEC_TYPE_STRING);
        return read_params(t, &n, &m);
    }
    if (!strcmp(w, "double")) {
        char buf[16];
        if (peek_word(t, "precision")) read_word(t, buf, sizeof buf);
        *out = exec_type_of(EXEC_TYPE_DOUBLE);
        return 0;
    }
    if (!strcmp(w, "timestamp")) {
        skip_time_zone_words(t);
        *out = exec_type_of(EXEC_TYPE_TIMESTAMP);
        return 0;
    }
    if (!strcmp(w, "interval")) {
        skip_interval_qualifier(t);
        *out = exec_type_of(EXEC_TYPE_INTERVAL);
        return 0;
    }
    if (!strcmp(w, "struct")) {
        if (!accept(t, '<')) return syntax_error(t);
        return parse_fields(t, '>', out);
    }
    return unknown_type(t, w);
}

static int parse_type(tparse_t *t, exec_type_t *out)
{
    char w[64];
    if (!read_word(t, w, sizeof w)) return syntax_error(t);
    for (size_t i = 0; i < sizeof simple_names / sizeof simple_names[0]; i++)
        if (!strcmp(w, simple_names[i].name)) {
            *out = exec_type_of(simple_names[i].id);
            return 0;
        }
    return parse_compound(t, w, out);
}

static void tparse_init(tparse_t *t, const char *text, size_t len, sl_arena_t *a, sl_error_t *err)
{
    t->p = t->text = text;
    t->end = text + len;
    t->len = len;
    t->a = a;
    t->err = err;
}

int exec_type_parse(const char *text, size_t len, sl_arena_t *a, exec_type_t *out, sl_error_t *err)
{
    tparse_t t;
    tparse_init(&t, text, len, a, err);
    if (parse_type(&t, out)) return -1;
    skip_ws(&t);
    if (t.p != t.end) {
        const char *s = t.text;
        while (s < t.end && isspace((unsigned char)*s)) s++;
        /* "foo bar": report the whole text as the unknown type name. */
        if (isalpha((unsigned char)*t.p))
            return sl_error_set(err, SL_ERR_UNDEFINED_OBJECT, "type \"%.*s\" does not exist",
                                (int)(t.end - s), s);
        return syntax_error(&t);
    }
    return 0;
}

int exec_schema_parse(const char *text, size_t len, sl_arena_t *a, exec_type_t *out,
                      sl_error_t *err)
{
    tparse_t t;
    tparse_init(&t, text, len, a, err);
    if (parse_fields(&t, 0, out)) return -1;
    skip_ws(&t);
    if (t.p != t.end) return syntax_error(&t);
    return 0;
}

/* ---- names ------------------------------------------------------------ */

static bool plain_name(const char *s)
{
    if (!*s || isdigit((unsigned char)*s)) return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_') return false;
    return true;
}

/* `name`, a backquote inside doubled, as read_field_name reads it back. */
static void put_backquoted(sl_buf_t *buf, const char *name)
{
    sl_buf_putc(buf, '`');
    for (; *name; name++) {
        if (*name == '`') sl_buf_putc(buf, '`');
        sl_buf_putc(buf, *name);
    }
    sl_buf_putc(buf, '`');
}

void exec_type_format(exec_type_t t, sl_buf_t *buf)
{
    static const char *names[EXEC_TYPE_COUNT_] = {"NULL",      "BOOLEAN", "INT",      "BIGINT",
                                                  "DOUBLE",    "DECIMAL", "STRING",   "BINARY",
                                                  "TIMESTAMP", "DATE",    "INTERVAL", "STRUCT"};
    if (t.id == EXEC_TYPE_DECIMAL) {
        sl_buf_printf(buf, "DECIMAL(%d,%d)", t.precision, t.scale);
        return;
    }
    sl_buf_puts(buf, names[t.id]);
    if (t.id != EXEC_TYPE_STRUCT) return;
    sl_buf_putc(buf, '<');
    for (int i = 0; i < t.nfields; i++) {
        if (i) sl_buf_puts(buf, ", ");
        if (plain_name(t.fields[i].name)) sl_buf_puts(buf, t.fields[i].name);
        else put_backquoted(buf, t.fields[i].name);
        sl_buf_puts(buf, ": ");
        exec_type_format(t.fields[i].type, buf);
    }
    sl_buf_putc(buf, '>');
}

const char *exec_type_text(exec_type_t t, sl_arena_t *a)
{
    sl_buf_t b = SL_BUF_INIT;
    exec_type_format(t, &b);
    char *s = sl_strndup(a, b.data, b.len);
    sl_buf_free(&b);
    return s;
}

const char *exec_type_pg_name(exec_type_t t)
{
    static const char *names[EXEC_TYPE_COUNT_] = {
        "unknown", "boolean", "integer",   "bigint", "double precision", "numeric",
        "text",    "bytea",   "timestamp", "date",   "interval",         "struct"};
    return names[t.id];
}

exec_pg_type_t exec_type_pg(exec_type_t t)
{
    exec_pg_type_t pg = {25, -1, -1};
    switch (t.id) {
    case EXEC_TYPE_BOOLEAN: pg = (exec_pg_type_t){16, 1, -1}; break;
    case EXEC_TYPE_INT: pg = (exec_pg_type_t){23, 4, -1}; break;
    case EXEC_TYPE_BIGINT: pg = (exec_pg_type_t){20, 8, -1}; break;
    case EXEC_TYPE_DOUBLE: pg = (exec_pg_type_t){701, 8, -1}; break;
    case EXEC_TYPE_DECIMAL:
        pg = (exec_pg_type_t){1700, -1, ((int32_t)t.precision << 16 | t.scale) + 4};
        break;
    case EXEC_TYPE_BINARY: pg = (exec_pg_type_t){17, -1, -1}; break;
    case EXEC_TYPE_TIMESTAMP: pg = (exec_pg_type_t){1114, 8, -1}; break;
    case EXEC_TYPE_DATE: pg = (exec_pg_type_t){1082, 4, -1}; break;
    case EXEC_TYPE_INTERVAL: pg = (exec_pg_type_t){1186, 16, -1}; break;
    case EXEC_TYPE_STRUCT: pg = (exec_pg_type_t){114, -1, -1}; break;
    default: break;
    }
    return pg;
}
