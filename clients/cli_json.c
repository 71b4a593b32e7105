/* clients/cli_json.c — recursive-descent JSON parser (RFC 8259: objects,
 * arrays, strings with \uXXXX escapes and surrogate pairs, numbers, true,
 * false, null) building cli_json_t trees in an arena. Nesting is limited to
 * 64 levels so a hostile document cannot exhaust the stack. */
#include "clients/cli_json.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

typedef struct {
    const char *text; /* the document */
    size_t pos;       /* parse position */
    sl_arena_t *a;    /* node storage */
    char *err;        /* message buffer */
    size_t errlen;    /* its size */
    bool failed;      /* an error was recorded; keep the first message */
} parser_t;

static cli_json_t *parse_value(parser_t *p, int depth);

static cli_json_t *fail(parser_t *p, const char *what)
{
    if (!p->failed) snprintf(p->err, p->errlen, "%s at offset %zu", what, p->pos);
    p->failed = true;
    return NULL;
}

static void skip_ws(parser_t *p)
{
    while (p->text[p->pos] == ' ' || p->text[p->pos] == '\t' || p->text[p->pos] == '\n' ||
           p->text[p->pos] == '\r')
        p->pos++;
}

static cli_json_t *node(parser_t *p, cli_json_type_t type, size_t start)
{
    cli_json_t *n = sl_alloc0(p->a, sizeof *n);
    n->type = type;
    n->raw = p->text + start;
    return n;
}

static void finish(parser_t *p, cli_json_t *n)
{
    n->raw_len = (size_t)(p->text + p->pos - n->raw);
}

/* ---- strings ------------------------------------------------------------------------- */

static int hex4(const char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

static void put_utf8(sl_buf_t *b, unsigned cp)
{
    if (cp < 0x80) {
        sl_buf_putc(b, (char)cp);
    } else if (cp < 0x800) {
        sl_buf_putc(b, (char)(0xc0 | (cp >> 6)));
        sl_buf_putc(b, (char)(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        sl_buf_putc(b, (char)(0xe0 | (cp >> 12)));
        sl_buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
        sl_buf_putc(b, (char)(0x80 | (cp & 0x3f)));
    } else {
        sl_buf_putc(b, (char)(0xf0 | (cp >> 18)));
        sl_buf_putc(b, (char)(0x80 | ((cp >> 12) & 0x3f)));
        sl_buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
        sl_buf_putc(b, (char)(0x80 | (cp & 0x3f)));
    }
}

/* \uXXXX (and its low surrogate) at p->pos, just after the backslash-u. */
static bool unicode_escape(parser_t *p, sl_buf_t *b)
{
    int hi = hex4(p->text + p->pos);
    if (hi < 0) return false;
    p->pos += 4;
    unsigned cp = (unsigned)hi;
    if (hi >= 0xd800 && hi < 0xdc00 && p->text[p->pos] == '\\' && p->text[p->pos + 1] == 'u') {
        int lo = hex4(p->text + p->pos + 2);
        if (lo >= 0xdc00 && lo < 0xe000) {
            cp = 0x10000 + (((unsigned)hi - 0xd800) << 10) + ((unsigned)lo - 0xdc00);
            p->pos += 6;
        }
    }
    put_utf8(b, cp);
    return true;
}

static bool simple_escape(char c, sl_buf_t *b)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *at = c ? strchr(from, c) : NULL;
    if (!at) return false;
    sl_buf_putc(b, to[at - from]);
    return true;
}

/* A string at p->pos (the opening quote); decoded into the arena. */
static const char *parse_string_text(parser_t *p)
{
    sl_buf_t b = {0};
    sl_buf_puts(&b, "");
    p->pos++;
    for (;;) {
        char c = p->text[p->pos];
        if (c == '"') break;
        if (c == '\0' || (unsigned char)c < 0x20) {
            sl_buf_free(&b);
            fail(p, "unterminated string");
            return NULL;
        }
        p->pos++;
        if (c != '\\') {
            sl_buf_putc(&b, c);
            continue;
        }
        char e = p->text[p->pos++];
        bool ok = e == 'u' ? unicode_escape(p, &b) : simple_escape(e, &b);
        if (!ok) {
            sl_buf_free(&b);
            fail(p, "bad escape in string");
            return NULL;
        }
    }
    p->pos++;
    const char *s = sl_strndup(p->a, b.data, b.len);
    sl_buf_free(&b);
    return s;
}

/* ---- values -------------------------------------------------------------------------- */

static cli_json_t *parse_number(parser_t *p)
{
    size_t start = p->pos;
    const char *s = p->text + p->pos;
    char *end;
    double v = strtod(s, &end);
    if (end == s || (*s != '-' && (*s < '0' || *s > '9'))) return fail(p, "unexpected character");
    cli_json_t *n = node(p, CLI_JSON_NUMBER, start);
    n->num = v;
    p->pos += (size_t)(end - s);
    finish(p, n);
    return n;
}

static cli_json_t *parse_word(parser_t *p)
{
    static const struct {
        const char *word;
        cli_json_type_t type;
        double num;
    } words[] = {
        {"true", CLI_JSON_BOOL, 1}, {"false", CLI_JSON_BOOL, 0}, {"null", CLI_JSON_NULL, 0}};
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(words[i].word);
        if (strncmp(p->text + p->pos, words[i].word, n)) continue;
        cli_json_t *v = node(p, words[i].type, p->pos);
        v->num = words[i].num;
        p->pos += n;
        finish(p, v);
        return v;
    }
    return parse_number(p);
}

/* Elements of an array or members of an object, up to the closing char. */
static cli_json_t *parse_container(parser_t *p, int depth, bool object)
{
    cli_json_t *n = node(p, object ? CLI_JSON_OBJECT : CLI_JSON_ARRAY, p->pos);
    char close = object ? '}' : ']';
    cli_json_t **tail = &n->child;
    p->pos++;
    skip_ws(p);
    if (p->text[p->pos] == close) {
        p->pos++;
        finish(p, n);
        return n;
    }
    for (;;) {
        const char *key = NULL;
        skip_ws(p);
        if (object) {
            if (p->text[p->pos] != '"') return fail(p, "expected member name");
            if (!(key = parse_string_text(p))) return NULL;
            skip_ws(p);
            if (p->text[p->pos++] != ':') return fail(p, "expected ':'");
        }
        cli_json_t *v = parse_value(p, depth + 1);
        if (!v) return NULL;
        v->key = key;
        *tail = v;
        tail = &v->next;
        n->count++;
        skip_ws(p);
        char c = p->text[p->pos++];
        if (c == close) break;
        if (c != ',') return fail(p, "expected ',' or end of container");
    }
    finish(p, n);
    return n;
}

static cli_json_t *parse_value(parser_t *p, int depth)
{
    if (depth > MAX_DEPTH) return fail(p, "nesting too deep");
    skip_ws(p);
    char c = p->text[p->pos];
    if (c == '{' || c == '[') return parse_container(p, depth, c == '{');
    if (c == '"') {
        cli_json_t *n = node(p, CLI_JSON_STRING, p->pos);
        if (!(n->str = parse_string_text(p))) return NULL;
        finish(p, n);
        return n;
    }
    if (c == '\0') return fail(p, "unexpected end of input");
    return parse_word(p);
}

cli_json_t *cli_json_parse(const char *text, sl_arena_t *a, char *err, size_t errlen)
{
    parser_t p = {.text = text, .a = a, .err = err, .errlen = errlen};
    cli_json_t *root = parse_value(&p, 0);
    if (!root) return NULL;
    skip_ws(&p);
    if (text[p.pos] != '\0') return fail(&p, "trailing characters");
    return root;
}

/* ---- access -------------------------------------------------------------------------- */

const cli_json_t *cli_json_get(const cli_json_t *obj, const char *key)
{
    if (!obj || obj->type != CLI_JSON_OBJECT) return NULL;
    for (const cli_json_t *m = obj->child; m; m = m->next)
        if (!strcmp(m->key, key)) return m;
    return NULL;
}

double cli_json_num(const cli_json_t *obj, const char *key, double dflt)
{
    const cli_json_t *v = cli_json_get(obj, key);
    return v && v->type == CLI_JSON_NUMBER ? v->num : dflt;
}

const char *cli_json_str(const cli_json_t *obj, const char *key)
{
    const cli_json_t *v = cli_json_get(obj, key);
    return v && v->type == CLI_JSON_STRING ? v->str : NULL;
}
