/* clients/cli_lex.c — the input scanner (see cli_lex.h): psql's rules for
 * where a statement ends ('...', E'...', "...", $tag$...$tag$, -- and nested
 * block comments, parentheses), backslash commands and their arguments, and
 * :name, :'name', :"name", :{?name} interpolation outside quotes. */
#include "clients/cli_lex.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static bool ident_char(unsigned char c)
{
    return isalnum(c) || c == '_' || c >= 0x80;
}

static bool ident_start(unsigned char c)
{
    return isalpha(c) || c == '_' || c >= 0x80;
}

static bool space_char(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static char peek(const cli_lex_t *lx, size_t ahead)
{
    return lx->pos + ahead < lx->len ? lx->line[lx->pos + ahead] : '\0';
}

void cli_lex_reset(cli_lex_t *lx)
{
    lx->state = CLI_LX_NORMAL;
    lx->paren_depth = 0;
    lx->comment_depth = 0;
    lx->dolq_tag[0] = '\0';
}

void cli_lex_setup(cli_lex_t *lx, const char *line, const cli_vars_t *vars)
{
    lx->line = line;
    lx->len = strlen(line);
    lx->pos = 0;
    lx->vars = vars;
}

bool cli_lex_in_quote(const cli_lex_t *lx)
{
    return lx->state != CLI_LX_NORMAL;
}

char cli_lex_prompt_state(const cli_lex_t *lx, const sl_buf_t *query)
{
    switch (lx->state) {
    case CLI_LX_COMMENT: return '*';
    case CLI_LX_SQUOTE:
    case CLI_LX_EQUOTE: return '\'';
    case CLI_LX_DQUOTE: return '"';
    case CLI_LX_DOLLAR: return '$';
    case CLI_LX_NORMAL: break;
    }
    if (lx->paren_depth > 0) return '(';
    return query->len > 0 ? '-' : '=';
}

/* ---- quoting ------------------------------------------------------------------------- */

void cli_lex_quote(const char *value, char quote, sl_buf_t *out)
{
    bool backslash = quote == '\'' && strchr(value, '\\');
    if (backslash) sl_buf_puts(out, " E");
    sl_buf_putc(out, quote);
    for (const char *p = value; *p; p++) {
        if (*p == quote || (backslash && *p == '\\')) sl_buf_putc(out, *p);
        sl_buf_putc(out, *p);
    }
    sl_buf_putc(out, quote);
}

/* ---- variables ----------------------------------------------------------------------- */

/* Length of a variable name starting at s (letters, digits, underscores). */
static size_t name_len(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && ident_char((unsigned char)s[n])) n++;
    return n;
}

static const char *var_lookup(const cli_lex_t *lx, const char *name, size_t n)
{
    if (!lx->vars || n == 0 || n >= 256) return NULL;
    char key[256];
    memcpy(key, name, n);
    key[n] = '\0';
    return cli_vars_get(lx->vars, key);
}

/* At ':' — appends the interpolation (or the text as it stands) to out and
 * advances past it. Handles :name, :'name', :"name", :{?name} and '::'. */
static void scan_colon(cli_lex_t *lx, sl_buf_t *out)
{
    const char *s = lx->line + lx->pos + 1;
    size_t rest = lx->len - lx->pos - 1;
    if (rest > 0 && s[0] == ':') {
        sl_buf_puts(out, "::");
        lx->pos += 2;
        return;
    }
    size_t n = name_len(s, rest);
    if (n > 0) {
        const char *v = var_lookup(lx, s, n);
        if (v) sl_buf_puts(out, v);
        else sl_buf_append(out, s - 1, n + 1);
        lx->pos += n + 1;
        return;
    }
    if (rest > 2 && (s[0] == '\'' || s[0] == '"')) {
        n = name_len(s + 1, rest - 1);
        if (n > 0 && n + 1 < rest && s[n + 1] == s[0]) {
            const char *v = var_lookup(lx, s + 1, n);
            if (v) cli_lex_quote(v, s[0], out);
            else sl_buf_append(out, s - 1, n + 3);
            lx->pos += n + 3;
            return;
        }
    }
    if (rest > 3 && s[0] == '{' && s[1] == '?') {
        n = name_len(s + 2, rest - 2);
        if (n > 0 && n + 2 < rest && s[n + 2] == '}') {
            sl_buf_puts(out, var_lookup(lx, s + 2, n) ? "TRUE" : "FALSE");
            lx->pos += n + 4;
            return;
        }
    }
    sl_buf_putc(out, ':');
    lx->pos++;
}

/* ---- SQL scanning -------------------------------------------------------------------- */

/* Length of a "$tag$" opener at line[pos], or 0 when there is none. */
static size_t dollar_tag_len(const cli_lex_t *lx)
{
    const char *s = lx->line + lx->pos;
    size_t rest = lx->len - lx->pos;
    if (rest >= 2 && s[1] == '$') return 2;
    if (rest < 3 || !ident_start((unsigned char)s[1])) return 0;
    size_t n = 1 + name_len(s + 1, rest - 1);
    if (n >= rest || s[n] != '$' || n + 1 >= sizeof lx->dolq_tag) return 0;
    /* A tag may not contain '$' itself; name_len stops before it. */
    return n + 1;
}

static bool last_is_ident(const sl_buf_t *q)
{
    return q->len > 0 &&
           (ident_char((unsigned char)q->data[q->len - 1]) || q->data[q->len - 1] == '$');
}

/* An opening quote: E'...' when the quote follows a lone E. */
static void open_single_quote(cli_lex_t *lx, sl_buf_t *q)
{
    bool e = q->len > 0 && (q->data[q->len - 1] == 'E' || q->data[q->len - 1] == 'e') &&
             (q->len == 1 || !ident_char((unsigned char)q->data[q->len - 2]));
    lx->state = e ? CLI_LX_EQUOTE : CLI_LX_SQUOTE;
    sl_buf_putc(q, '\'');
    lx->pos++;
}

static void open_dollar(cli_lex_t *lx, sl_buf_t *q)
{
    size_t n = dollar_tag_len(lx);
    if (n == 0 || last_is_ident(q)) {
        sl_buf_putc(q, '$');
        lx->pos++;
        return;
    }
    memcpy(lx->dolq_tag, lx->line + lx->pos, n);
    lx->dolq_tag[n] = '\0';
    sl_buf_append(q, lx->line + lx->pos, n);
    lx->pos += n;
    lx->state = CLI_LX_DOLLAR;
}

/* Inside quotes or comments: consumes one step, maybe leaving the state. */
static void scan_quoted(cli_lex_t *lx, sl_buf_t *q)
{
    char c = lx->line[lx->pos];
    size_t step = 1;
    switch (lx->state) {
    case CLI_LX_EQUOTE:
        if (c == '\\' && lx->pos + 1 < lx->len) step = 2;
        /* fall through */
    case CLI_LX_SQUOTE:
    case CLI_LX_DQUOTE: {
        char quote = lx->state == CLI_LX_DQUOTE ? '"' : '\'';
        if (c == quote && step == 1) {
            if (peek(lx, 1) == quote) step = 2;
            else lx->state = CLI_LX_NORMAL;
        }
        break;
    }
    case CLI_LX_DOLLAR: {
        size_t n = strlen(lx->dolq_tag);
        if (c == '$' && lx->len - lx->pos >= n && !memcmp(lx->line + lx->pos, lx->dolq_tag, n)) {
            step = n;
            lx->state = CLI_LX_NORMAL;
        }
        break;
    }
    case CLI_LX_COMMENT:
        if (c == '/' && peek(lx, 1) == '*') {
            lx->comment_depth++;
            step = 2;
        } else if (c == '*' && peek(lx, 1) == '/') {
            step = 2;
            if (--lx->comment_depth == 0) lx->state = CLI_LX_NORMAL;
        }
        break;
    case CLI_LX_NORMAL: break;
    }
    sl_buf_append(q, lx->line + lx->pos, step);
    lx->pos += step;
}

/* One step in plain SQL. Returns 1 when a statement or the scan ends. */
static int scan_normal(cli_lex_t *lx, sl_buf_t *q, cli_scan_t *res)
{
    char c = lx->line[lx->pos], next = peek(lx, 1);
    if (q->len == 0 && space_char((unsigned char)c)) {
        lx->pos++;
        return 0;
    }
    if (c == '-' && next == '-') {
        if (q->len > 0) sl_buf_append(q, lx->line + lx->pos, lx->len - lx->pos);
        lx->pos = lx->len;
        *res = CLI_SCAN_EOL;
        return 1;
    }
    if (c == '/' && next == '*') {
        lx->state = CLI_LX_COMMENT;
        lx->comment_depth = 1;
        sl_buf_puts(q, "/*");
        lx->pos += 2;
        return 0;
    }
    if (c == '\\') {
        if (next == ';' || next == ':') {
            sl_buf_putc(q, next);
            lx->pos += 2;
            return 0;
        }
        *res = CLI_SCAN_BACKSLASH;
        return 1;
    }
    switch (c) {
    case '\'': open_single_quote(lx, q); return 0;
    case '"': lx->state = CLI_LX_DQUOTE; break;
    case '$': open_dollar(lx, q); return 0;
    case ':': scan_colon(lx, q); return 0;
    case '(': lx->paren_depth++; break;
    case ')':
        if (lx->paren_depth > 0) lx->paren_depth--;
        break;
    case ';':
        if (lx->paren_depth == 0) {
            sl_buf_putc(q, ';');
            lx->pos++;
            *res = CLI_SCAN_SEMI;
            return 1;
        }
        break;
    default: break;
    }
    sl_buf_putc(q, c);
    lx->pos++;
    return 0;
}

cli_scan_t cli_lex_scan(cli_lex_t *lx, sl_buf_t *query)
{
    cli_scan_t res = CLI_SCAN_EOL;
    while (lx->pos < lx->len) {
        if (lx->state != CLI_LX_NORMAL) scan_quoted(lx, query);
        else if (scan_normal(lx, query, &res)) return res;
    }
    return CLI_SCAN_EOL;
}

/* ---- backslash commands -------------------------------------------------------------- */

char *cli_lex_cmd_name(cli_lex_t *lx)
{
    size_t start = ++lx->pos; /* past the backslash */
    while (lx->pos < lx->len && !space_char((unsigned char)lx->line[lx->pos]) &&
           lx->line[lx->pos] != '\\')
        lx->pos++;
    size_t n = lx->pos - start;
    char *name = sl_xmalloc(n + 1);
    memcpy(name, lx->line + start, n);
    name[n] = '\0';
    return name;
}

/* A backslash escape inside a single-quoted argument; returns bytes used. */
static size_t arg_escape(const char *s, size_t rest, sl_buf_t *out)
{
    if (rest < 2) {
        sl_buf_putc(out, '\\');
        return 1;
    }
    char c = s[1];
    switch (c) {
    case 'n': sl_buf_putc(out, '\n'); return 2;
    case 't': sl_buf_putc(out, '\t'); return 2;
    case 'b': sl_buf_putc(out, '\b'); return 2;
    case 'r': sl_buf_putc(out, '\r'); return 2;
    case 'f': sl_buf_putc(out, '\f'); return 2;
    default: break;
    }
    if (c >= '0' && c <= '7') {
        size_t n = 1;
        int v = 0;
        while (n < 4 && n < rest && s[n] >= '0' && s[n] <= '7') v = v * 8 + (s[n++] - '0');
        sl_buf_putc(out, (char)v);
        return n;
    }
    sl_buf_putc(out, c);
    return 2;
}

/* '...' argument: the text without quotes, '' and backslash escapes decoded. */
static void arg_squote(cli_lex_t *lx, sl_buf_t *out)
{
    lx->pos++;
    while (lx->pos < lx->len) {
        const char *s = lx->line + lx->pos;
        if (*s == '\'' && peek(lx, 1) == '\'') {
            sl_buf_putc(out, '\'');
            lx->pos += 2;
        } else if (*s == '\'') {
            lx->pos++;
            return;
        } else if (*s == '\\') {
            lx->pos += arg_escape(s, lx->len - lx->pos, out);
        } else {
            sl_buf_putc(out, *s);
            lx->pos++;
        }
    }
}

/* "..." argument: kept with its quotes, as psql does for ordinary arguments. */
static void arg_dquote(cli_lex_t *lx, sl_buf_t *out)
{
    sl_buf_putc(out, '"');
    lx->pos++;
    while (lx->pos < lx->len) {
        char c = lx->line[lx->pos++];
        sl_buf_putc(out, c);
        if (c == '"') {
            if (peek(lx, 0) != '"') return;
            sl_buf_putc(out, '"');
            lx->pos++;
        }
    }
}

static char *arg_whole_line(cli_lex_t *lx)
{
    size_t start = lx->pos, end = lx->len;
    while (end > start && space_char((unsigned char)lx->line[end - 1])) end--;
    lx->pos = lx->len;
    if (end == start) return NULL;
    char *s = sl_xmalloc(end - start + 1);
    memcpy(s, lx->line + start, end - start);
    s[end - start] = '\0';
    return s;
}

char *cli_lex_cmd_arg(cli_lex_t *lx, cli_arg_mode_t mode, char *quote)
{
    if (quote) *quote = 0;
    while (lx->pos < lx->len && space_char((unsigned char)lx->line[lx->pos])) lx->pos++;
    if (lx->pos >= lx->len || lx->line[lx->pos] == '\\') return NULL;
    if (mode == CLI_ARG_WHOLE_LINE) return arg_whole_line(lx);
    sl_buf_t out = {0};
    sl_buf_putc(&out, '\0'); /* allocate even for an empty '' argument */
    out.len = 0;
    while (lx->pos < lx->len) {
        char c = lx->line[lx->pos];
        if (space_char((unsigned char)c) || c == '\\') break;
        if (quote && !*quote && out.len == 0 && (c == '\'' || c == '"')) *quote = c;
        if (c == '\'') arg_squote(lx, &out);
        else if (c == '"') arg_dquote(lx, &out);
        else if (c == ':') scan_colon(lx, &out);
        else {
            sl_buf_putc(&out, c);
            lx->pos++;
        }
    }
    return out.data;
}

void cli_lex_cmd_finish(cli_lex_t *lx)
{
    while (lx->pos < lx->len && space_char((unsigned char)lx->line[lx->pos])) lx->pos++;
    if (peek(lx, 0) == '\\' && peek(lx, 1) == '\\') lx->pos += 2;
    /* A single backslash starts the next command; the SQL scanner sees it. */
}
