/* The tokenizer and parse_sql(): splits SQL text into tokens with a
 * character-class table (as SQLite's tokenize.c does), classifies the few
 * context-dependent keywords by peeking ahead, decodes identifiers and
 * literals into the arena, and pushes the tokens into the Lemon parser.
 * Also the error reporting shared with the grammar, with PostgreSQL's
 * messages and 1-based character positions.
 *
 * Token rules (PostgreSQL's, plus Spark's backquoted identifiers):
 *   identifiers  [A-Za-z_\x80-\xff][A-Za-z0-9_$\x80-\xff]*, folded to lower
 *                case; "quoted ""x""" and `quoted ``x```, kept exactly
 *   strings      'it''s' and E'\n escapes'
 *   numbers      12  1.5  .5  1.  1e3  1.5E-3 (a letter right after one is
 *                "trailing junk")
 *   parameters   $1 .. $65535
 *   operators    + - * / % || = <> != < <= > >= :: : ( ) , ; .
 *   comments     -- to end of line, and nested block comments */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "grammar.h"
#include "parser/parse_int.h"

#define MAX_PARAM 65535
#define MAX_NEAR_TEXT 400 /* bytes of source quoted in an error message */

/* ---- keywords ---------------------------------------------------------------- */

enum { KW_CAT_R = 'R', KW_CAT_U = 'U', KW_CAT_C = 'C' };

typedef struct {
    const char *word;
    unsigned char len;
    unsigned char cat;
    short code;
} kw_t;

static const kw_t kw_table[] = {
#define KW(w, tok, cat) {w, sizeof(w) - 1, KW_CAT_##cat, TK_##tok},
#include "parser/keywords.def"
#undef KW
};
#define KW_COUNT ((int)(sizeof kw_table / sizeof kw_table[0]))
#define KW_MAX_LEN 15

static int lower(int ch)
{
    return ch >= 'A' && ch <= 'Z' ? ch + 32 : ch;
}

/* Compares z[0..n) case-insensitively with a lower-case keyword. */
static int kw_cmp(const char *z, size_t n, const kw_t *k)
{
    size_t m = n < k->len ? n : k->len;
    for (size_t i = 0; i < m; i++) {
        int d = lower((unsigned char)z[i]) - (unsigned char)k->word[i];
        if (d) return d;
    }
    return n < k->len ? -1 : n > k->len;
}

static const kw_t *kw_find(const char *z, size_t n)
{
    if (n > KW_MAX_LEN) return NULL;
    int lo = 0, hi = KW_COUNT - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, d = kw_cmp(z, n, &kw_table[mid]);
        if (d == 0) return &kw_table[mid];
        if (d < 0) hi = mid - 1;
        else lo = mid + 1;
    }
    return NULL;
}

int parse_keyword_code(const char *word, size_t len)
{
    const kw_t *k = kw_find(word, len);
    return k ? k->code : 0;
}

int parse_is_reserved_word(const char *word, size_t len)
{
    const kw_t *k = kw_find(word, len);
    return k && k->cat == KW_CAT_R;
}

int parse_keyword_count(void)
{
    return KW_COUNT;
}

const char *parse_keyword_at(int i, int *code, int *category)
{
    if (i < 0 || i >= KW_COUNT) return NULL;
    *code = kw_table[i].code;
    *category = kw_table[i].cat;
    return kw_table[i].word;
}

int parse_token_fallback(int code)
{
    return parse_lemonFallback(code);
}

/* ---- character classes ---------------------------------------------------- */

enum {
    CC_ILLEGAL,
    CC_SPACE,
    CC_ALPHA,
    CC_DIGIT,
    CC_QUOTE,
    CC_DQUOTE,
    CC_BACKQUOTE,
    CC_DOLLAR,
    CC_MINUS,
    CC_SLASH,
    CC_DOT,
    CC_LP,
    CC_RP,
    CC_COMMA,
    CC_SEMI,
    CC_STAR,
    CC_PLUS,
    CC_PERCENT,
    CC_EQ,
    CC_LT,
    CC_GT,
    CC_BANG,
    CC_PIPE,
    CC_COLON,
    CC_TILDE,
    CC_LB,
    CC_RB
};

#define IL CC_ILLEGAL
#define SP CC_SPACE
#define AL CC_ALPHA
#define DI CC_DIGIT
static const unsigned char char_class[256] = {
    /*       0   1   2   3   4   5   6   7   8   9   a   b   c   d   e   f */
    /* 0x */ IL,
    IL,
    IL,
    IL,
    IL,
    IL,
    IL,
    IL,
    IL,
    SP,
    SP,
    SP,
    SP,
    SP,
    IL,
    IL,
    /* 1x */ IL,
    IL,
    IL,
    IL,
    IL,
    IL,
    IL,
    IL,
    IL,
    IL,
    IL,
    IL,
    IL,
    IL,
    IL,
    IL,
    /* 2x */ SP,
    CC_BANG,
    CC_DQUOTE,
    IL,
    CC_DOLLAR,
    CC_PERCENT,
    IL,
    CC_QUOTE,
    CC_LP,
    CC_RP,
    CC_STAR,
    CC_PLUS,
    CC_COMMA,
    CC_MINUS,
    CC_DOT,
    CC_SLASH,
    /* 3x */ DI,
    DI,
    DI,
    DI,
    DI,
    DI,
    DI,
    DI,
    DI,
    DI,
    CC_COLON,
    CC_SEMI,
    CC_LT,
    CC_EQ,
    CC_GT,
    IL,
    /* 4x */ IL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    /* 5x */ AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    CC_LB,
    IL,
    CC_RB,
    IL,
    AL,
    /* 6x */ CC_BACKQUOTE,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    /* 7x */ AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    IL,
    CC_PIPE,
    IL,
    CC_TILDE,
    IL,
    /* 8x */ AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    /* 9x */ AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    /* ax */ AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    /* bx */ AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    /* cx */ AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    /* dx */ AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    /* ex */ AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    /* fx */ AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
    AL,
};
#undef IL
#undef SP
#undef AL
#undef DI

/* Characters that continue an identifier (PostgreSQL also allows '$'). */
static int is_ident_char(unsigned char ch)
{
    int cc = char_class[ch];
    return cc == CC_ALPHA || cc == CC_DIGIT || ch == '$';
}

static int is_digit(unsigned char ch)
{
    return ch >= '0' && ch <= '9';
}

/* ---- scanning one token --------------------------------------------------------- */

#define SCAN_EOF 0
#define SCAN_SPACE (-1)
#define SCAN_ERROR (-2)

/* Flags of a scanned token. */
#define SF_QUOTED 1  /* "identifier" */
#define SF_BACKQ 2   /* `identifier` */
#define SF_ESCAPE 4  /* E'string' */
#define SF_KEYWORD 8 /* a word that is a keyword */

typedef struct scan_tok {
    int code;          /* TK_*, SCAN_SPACE, SCAN_ERROR or SCAN_EOF */
    size_t pos, len;   /* the token's bytes */
    int flags;         /* SF_* */
    const char *error; /* SCAN_ERROR: message stem ("unterminated quoted string") */
    size_t near_len;   /* SCAN_ERROR: bytes from pos quoted after "at or near" */
} scan_tok_t;

typedef struct {
    const char *z;
    size_t n;
} src_t;

static void scan_error(scan_tok_t *t, const char *msg, size_t near_len)
{
    t->code = SCAN_ERROR;
    t->error = msg;
    t->near_len = near_len;
}

static size_t utf8_char_len(const src_t *s, size_t i)
{
    unsigned char ch = (unsigned char)s->z[i];
    size_t n = ch >= 0xf0 ? 4 : ch >= 0xe0 ? 3 : ch >= 0xc0 ? 2 : 1;
    return i + n <= s->n ? n : s->n - i;
}

/* "--" comment to the end of the line, or nested block comments. */
static void scan_comment(const src_t *s, size_t i, scan_tok_t *t)
{
    t->code = SCAN_SPACE;
    if (s->z[i] == '-') {
        while (i < s->n && s->z[i] != '\n') i++;
        t->len = i - t->pos;
        return;
    }
    int depth = 1;
    i += 2;
    while (i < s->n) {
        char next = i + 1 < s->n ? s->z[i + 1] : '\0';
        if (s->z[i] == '/' && next == '*') {
            depth++;
            i += 2;
        } else if (s->z[i] == '*' && next == '/') {
            i += 2;
            if (--depth == 0) {
                t->len = i - t->pos;
                return;
            }
        } else {
            i++;
        }
    }
    t->len = s->n - t->pos;
    scan_error(t, "unterminated /* comment", t->len);
}

/* 'string' (q = '\''), "identifier" or `identifier`; the quote doubled
 * stands for itself; in E'' strings a backslash escapes the next byte. */
static void scan_quoted(const src_t *s, size_t i, char q, int escapes, scan_tok_t *t)
{
    i++;
    while (i < s->n) {
        if (escapes && s->z[i] == '\\' && i + 1 < s->n) {
            i += 2;
        } else if (s->z[i] == q) {
            if (i + 1 < s->n && s->z[i + 1] == q) {
                i += 2;
            } else {
                t->len = i + 1 - t->pos;
                return;
            }
        } else {
            i++;
        }
    }
    t->len = s->n - t->pos;
    scan_error(t, q == '\'' ? "unterminated quoted string" : "unterminated quoted identifier",
               t->len);
}

static void scan_string(const src_t *s, size_t i, int escapes, scan_tok_t *t)
{
    t->code = TK_STRING;
    if (escapes) t->flags |= SF_ESCAPE;
    scan_quoted(s, i, '\'', escapes, t);
}

static void scan_quoted_ident(const src_t *s, size_t i, char q, scan_tok_t *t)
{
    t->code = TK_ID;
    t->flags |= q == '"' ? SF_QUOTED : SF_BACKQ;
    scan_quoted(s, i, q, 0, t);
    if (t->code == TK_ID && t->len == 2) scan_error(t, "zero-length delimited identifier", 2);
}

/* Digits, an optional fraction and an optional exponent. */
static void scan_number(const src_t *s, size_t i, scan_tok_t *t)
{
    t->code = TK_INTEGER;
    while (i < s->n && is_digit((unsigned char)s->z[i])) i++;
    if (i < s->n && s->z[i] == '.' && !(i + 1 < s->n && s->z[i + 1] == '.')) {
        t->code = TK_FLOAT;
        i++;
        while (i < s->n && is_digit((unsigned char)s->z[i])) i++;
    }
    if (i < s->n && (s->z[i] == 'e' || s->z[i] == 'E')) {
        size_t j = i + 1;
        if (j < s->n && (s->z[j] == '+' || s->z[j] == '-')) j++;
        if (j < s->n && is_digit((unsigned char)s->z[j])) {
            t->code = TK_FLOAT;
            i = j;
            while (i < s->n && is_digit((unsigned char)s->z[i])) i++;
        }
    }
    t->len = i - t->pos;
    if (i < s->n && is_ident_char((unsigned char)s->z[i]))
        scan_error(t, "trailing junk after numeric literal", t->len + utf8_char_len(s, i));
}

/* $n parameters. */
static void scan_param(const src_t *s, size_t i, scan_tok_t *t)
{
    size_t j = i + 1;
    long value = 0;
    for (; j < s->n && is_digit((unsigned char)s->z[j]); j++)
        if (value <= MAX_PARAM) value = value * 10 + (s->z[j] - '0');
    t->len = j - t->pos;
    t->code = TK_PARAM;
    if (j == i + 1) {
        scan_error(t, "syntax error", 1);
    } else if (j < s->n && is_ident_char((unsigned char)s->z[j])) {
        scan_error(t, "trailing junk after parameter", t->len + utf8_char_len(s, j));
    } else if (value > MAX_PARAM) {
        scan_error(t, "parameter number too large", t->len);
    }
}

static void scan_word(const src_t *s, size_t i, scan_tok_t *t)
{
    if ((s->z[i] == 'e' || s->z[i] == 'E') && i + 1 < s->n && s->z[i + 1] == '\'') {
        scan_string(s, i + 1, 1, t);
        return;
    }
    while (i < s->n && is_ident_char((unsigned char)s->z[i])) i++;
    t->len = i - t->pos;
    const kw_t *k = kw_find(s->z + t->pos, t->len);
    t->code = k ? k->code : TK_ID;
    if (k) t->flags |= SF_KEYWORD;
}

/* The regular expression matches ~ ~* !~ !~* (one REGEX token; the
 * grammar reads which from the text). */
static void scan_regex(const src_t *s, size_t i, scan_tok_t *t)
{
    size_t j = i + (s->z[i] == '!') + 1;
    if (j < s->n && s->z[j] == '*') j++;
    t->code = TK_REGEX;
    t->len = j - i;
}

/* Operators of one or two characters: < <= <> > >= : :: != || (and the
 * regular expression matches, scan_regex) */
static void scan_operator(const src_t *s, size_t i, int cc, scan_tok_t *t)
{
    char next = i + 1 < s->n ? s->z[i + 1] : '\0';
    if (cc == CC_TILDE || (cc == CC_BANG && next == '~')) {
        scan_regex(s, i, t);
        return;
    }
    int one = SCAN_ERROR, two = SCAN_ERROR;
    switch (cc) {
    case CC_LT: one = TK_LT, two = next == '=' ? TK_LE : next == '>' ? TK_NE : SCAN_ERROR; break;
    case CC_GT: one = TK_GT, two = next == '=' ? TK_GE : SCAN_ERROR; break;
    case CC_COLON: one = TK_COLON, two = next == ':' ? TK_TYPECAST : SCAN_ERROR; break;
    case CC_BANG: two = next == '=' ? TK_NE : SCAN_ERROR; break;
    case CC_PIPE: two = next == '|' ? TK_CONCAT : SCAN_ERROR; break;
    default: break;
    }
    t->code = two != SCAN_ERROR ? two : one;
    t->len = two != SCAN_ERROR ? 2 : 1;
    if (t->code == SCAN_ERROR) scan_error(t, "syntax error", 1);
}

static const short single_char_token[] = {
    [CC_LP] = TK_LP,       [CC_RP] = TK_RP,       [CC_COMMA] = TK_COMMA,     [CC_SEMI] = TK_SEMI,
    [CC_STAR] = TK_STAR,   [CC_PLUS] = TK_PLUS,   [CC_PERCENT] = TK_PERCENT, [CC_EQ] = TK_EQ,
    [CC_MINUS] = TK_MINUS, [CC_SLASH] = TK_SLASH, [CC_DOT] = TK_DOT,         [CC_LB] = TK_LBRACKET,
    [CC_RB] = TK_RBRACKET,
};

/* Scans the token starting at byte i (i <= s->n) into t. */
static void scan_token(const src_t *s, size_t i, scan_tok_t *t)
{
    memset(t, 0, sizeof *t);
    t->pos = i;
    if (i >= s->n) return; /* SCAN_EOF */
    unsigned char ch = (unsigned char)s->z[i];
    char next = i + 1 < s->n ? s->z[i + 1] : '\0';
    int cc = char_class[ch];
    switch (cc) {
    case CC_SPACE:
        while (i < s->n && char_class[(unsigned char)s->z[i]] == CC_SPACE) i++;
        t->code = SCAN_SPACE;
        t->len = i - t->pos;
        return;
    case CC_ALPHA: scan_word(s, i, t); return;
    case CC_DIGIT: scan_number(s, i, t); return;
    case CC_QUOTE: scan_string(s, i, 0, t); return;
    case CC_DQUOTE: scan_quoted_ident(s, i, '"', t); return;
    case CC_BACKQUOTE: scan_quoted_ident(s, i, '`', t); return;
    case CC_DOLLAR: scan_param(s, i, t); return;
    case CC_MINUS:
    case CC_SLASH:
        if ((cc == CC_MINUS && next == '-') || (cc == CC_SLASH && next == '*')) {
            scan_comment(s, i, t);
            return;
        }
        break;
    case CC_DOT:
        if (is_digit((unsigned char)next)) {
            scan_number(s, i, t);
            return;
        }
        break;
    case CC_LT:
    case CC_GT:
    case CC_COLON:
    case CC_BANG:
    case CC_PIPE:
    case CC_TILDE: scan_operator(s, i, cc, t); return;
    case CC_ILLEGAL:
        t->len = 1;
        scan_error(t, "syntax error", 1);
        return;
    default: break;
    }
    t->code = single_char_token[cc];
    t->len = 1;
}

/* The next token at or after byte i that is not white space or a comment. */
static void scan_significant(const src_t *s, size_t i, scan_tok_t *t)
{
    do {
        scan_token(s, i, t);
        i = t->pos + t->len;
    } while (t->code == SCAN_SPACE);
}

/* ---- context-dependent keywords ---------------------------------------------- */

static int is_word(const scan_tok_t *t)
{
    return t->code == TK_ID || (t->flags & SF_KEYWORD);
}

/* WATERMARK name[.name...] DELAY: the start of a watermark clause. */
static int watermark_follows(const src_t *s, size_t i)
{
    scan_tok_t t;
    scan_significant(s, i, &t);
    if (!is_word(&t)) return 0;
    for (;;) {
        scan_significant(s, t.pos + t.len, &t);
        if (t.code != TK_DOT) return t.code == TK_DELAY;
        scan_significant(s, t.pos + t.len, &t);
        if (!is_word(&t)) return 0;
    }
}

/* Decides what a keyword means here, where LALR(1) could not: returns the
 * token code to push. `prev` is the code of the previous token. */
static int classify(const src_t *s, const scan_tok_t *t, int prev)
{
    if (!(t->flags & SF_KEYWORD)) return t->code;
    if (prev == TK_DOT) return TK_ID; /* t.select, window.end: field names */
    scan_tok_t n;
    size_t after = t->pos + t->len;
    switch (t->code) {
    case TK_TIMESTAMP:
    case TK_DATE: scan_significant(s, after, &n); return n.code == TK_STRING ? t->code : TK_ID;
    case TK_INTERVAL:
        scan_significant(s, after, &n);
        return n.code == TK_STRING || n.code == TK_INTEGER || n.code == TK_FLOAT ? t->code : TK_ID;
    case TK_OFFSET:
        scan_significant(s, after, &n);
        return n.code == TK_INTEGER || n.code == TK_FLOAT || n.code == TK_PARAM || n.code == TK_LP
                   ? t->code
                   : TK_ID;
    case TK_WATERMARK: return prev == TK_WITHIN || watermark_follows(s, after) ? t->code : TK_ID;
    case TK_LEFT:
    case TK_RIGHT: scan_significant(s, after, &n); return n.code == TK_LP ? TK_ID : t->code;
    case TK_NOT:
        scan_significant(s, after, &n);
        return n.code == TK_IN || n.code == TK_LIKE || n.code == TK_ILIKE || n.code == TK_BETWEEN
                   ? TK_NOT_LA
                   : t->code;
    case TK_WINDOW: /* WINDOW name AS (...); else a name (window(ts, '5 minutes'), a column) */
        scan_significant(s, after, &n);
        if (!is_word(&n)) return TK_ID;
        scan_significant(s, n.pos + n.len, &n);
        return n.code == TK_AS ? t->code : TK_ID;
    case TK_FILTER: /* f(...) FILTER (WHERE ...); else a name */
        scan_significant(s, after, &n);
        if (n.code != TK_LP) return TK_ID;
        scan_significant(s, n.pos + n.len, &n);
        return n.code == TK_WHERE ? t->code : TK_ID;
    case TK_EXISTS: /* EXISTS (SELECT ...), IF [NOT] EXISTS; else a name */
        scan_significant(s, after, &n);
        return n.code == TK_LP || prev == TK_IF || prev == TK_NOT ? t->code : TK_ID;
    default: return t->code;
    }
}

/* position(a IN b): the offset of the IN that separates the arguments (the
 * first IN at the call's own parenthesis depth, outside CASE ... END), or
 * -1 for position(a, b). `i` is just after the '('. LALR(1) cannot tell
 * this IN from `a IN (list)` when b starts with '(', as PostgreSQL's
 * grammar cannot either (it restricts a to b_expr). */
static long position_in(const src_t *s, size_t i)
{
    int depth = 0, cases = 0;
    for (;;) {
        scan_tok_t t;
        scan_significant(s, i, &t);
        if (t.code == SCAN_EOF || t.code == SCAN_ERROR || t.code == TK_SEMI) return -1;
        i = t.pos + t.len;
        if (t.code == TK_LP) depth++;
        else if (t.code == TK_RP && depth-- == 0) return -1;
        else if (depth == 0 && t.code == TK_CASE) cases++;
        else if (depth == 0 && t.code == TK_END && cases > 0) cases--;
        else if (depth == 0 && cases == 0 && t.code == TK_IN) return (long)t.pos;
    }
}

/* True when t is the unquoted word `position`. */
static int is_position(const src_t *s, const scan_tok_t *t)
{
    return t->code == TK_ID && !(t->flags & (SF_QUOTED | SF_BACKQ)) && t->len == 8 &&
           !strncasecmp(s->z + t->pos, "position", 8);
}

/* ---- token text ------------------------------------------------------------------ */

static char *fold_copy(sl_arena_t *a, const char *z, size_t n)
{
    char *r = sl_alloc(a, n + 1);
    for (size_t i = 0; i < n; i++) r[i] = (char)lower((unsigned char)z[i]);
    r[n] = '\0';
    return r;
}

/* The body of a quoted token without its quotes, doubled quotes undone. */
static char *unquote(sl_arena_t *a, const char *z, size_t n)
{
    char q = z[0], *r = sl_alloc(a, n), *p = r;
    for (size_t i = 1; i + 1 < n; i++) {
        *p++ = z[i];
        if (z[i] == q) i++;
    }
    *p = '\0';
    return r;
}

static int hex_value(char ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    ch = (char)lower((unsigned char)ch);
    return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* One backslash escape of an E'' string at z[i] (after the backslash);
 * writes the byte and returns how many source bytes it used. */
static size_t unescape_one(const char *z, size_t i, size_t end, char *out)
{
    switch (z[i]) {
    case 'b': *out = '\b'; return 1;
    case 'f': *out = '\f'; return 1;
    case 'n': *out = '\n'; return 1;
    case 'r': *out = '\r'; return 1;
    case 't': *out = '\t'; return 1;
    case 'x':
        if (i + 1 < end && hex_value(z[i + 1]) >= 0) {
            int v = hex_value(z[i + 1]);
            size_t used = 2;
            if (i + 2 < end && hex_value(z[i + 2]) >= 0) v = v * 16 + hex_value(z[i + 2]), used = 3;
            *out = (char)v;
            return used;
        }
        *out = 'x';
        return 1;
    default: *out = z[i]; return 1;
    }
}

/* E'...' (z points at the quote): escapes and doubled quotes undone. */
static char *unescape(sl_arena_t *a, const char *z, size_t n)
{
    char *r = sl_alloc(a, n), *p = r;
    size_t end = n - 1;
    for (size_t i = 1; i < end; i++) {
        if (z[i] == '\\' && i + 1 < end) {
            i += unescape_one(z, i + 1, end, p++);
        } else {
            *p++ = z[i];
            if (z[i] == '\'') i++;
        }
    }
    *p = '\0';
    return r;
}

/* The decoded text of a token (see parse_token_t.text), or NULL. */
static const char *token_text(parse_ctx_t *c, const scan_tok_t *t, int code)
{
    const char *z = c->sql + t->pos;
    if (t->flags & (SF_QUOTED | SF_BACKQ)) return unquote(c->a, z, t->len);
    if (t->code == TK_STRING) {
        if (t->flags & SF_ESCAPE) return unescape(c->a, z + 1, t->len - 1);
        return unquote(c->a, z, t->len);
    }
    if (t->code == TK_ID || (t->flags & SF_KEYWORD) || code == TK_ID)
        return fold_copy(c->a, z, t->len);
    if (t->code == TK_INTEGER || t->code == TK_FLOAT) return sl_strndup(c->a, z, t->len);
    if (t->code == TK_PARAM) return sl_strndup(c->a, z + 1, t->len - 1);
    return NULL;
}

/* ---- errors ------------------------------------------------------------------------ */

int parse_char_position(const char *sql, size_t len, size_t byte_offset)
{
    if (byte_offset > len) byte_offset = len;
    int chars = 0;
    for (size_t i = 0; i < byte_offset; i++)
        if (((unsigned char)sql[i] & 0xc0) != 0x80) chars++;
    return chars + 1;
}

/* Bytes of sql[pos..pos+n) that fit in a message without splitting a
 * UTF-8 character. */
static int near_len(const parse_ctx_t *c, size_t pos, size_t n)
{
    if (n <= MAX_NEAR_TEXT) return (int)n;
    n = MAX_NEAR_TEXT;
    while (n > 0 && ((unsigned char)c->sql[pos + n] & 0xc0) == 0x80) n--;
    return (int)n;
}

/* "<stem> at or near "<text>"" or "<stem> at end of input", at pos. */
static void error_near(parse_ctx_t *c, const char *stem, size_t pos, size_t n)
{
    if (c->failed) return;
    c->failed = 1;
    if (pos >= c->len) {
        sl_error_set(c->err, SL_ERR_SYNTAX_ERROR, "%s at end of input", stem);
    } else {
        int m = near_len(c, pos, n);
        sl_error_set(c->err, SL_ERR_SYNTAX_ERROR, "%s at or near \"%.*s\"", stem, m, c->sql + pos);
    }
    c->err->position = parse_char_position(c->sql, c->len, pos);
}

void pb_syntax_error(parse_ctx_t *c, const parse_token_t *t)
{
    error_near(c, "syntax error", (size_t)t->pos, (size_t)t->len);
}

void pb_error_at(parse_ctx_t *c, int pos, const char *fmt, ...)
{
    if (c->failed) return;
    c->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    sl_error_setv(c->err, SL_ERR_SYNTAX_ERROR, fmt, ap);
    va_end(ap);
    c->err->position = parse_char_position(c->sql, c->len, (size_t)pos);
}

void pb_stack_overflow(parse_ctx_t *c)
{
    if (c->failed) return;
    c->failed = 1;
    sl_error_set(c->err, SL_ERR_PROGRAM_LIMIT_EXCEEDED, "statement is too deeply nested");
    c->err->position = parse_char_position(c->sql, c->len, (size_t)c->prev_end);
}

/* ---- the driver ---------------------------------------------------------------------- */

typedef struct {
    void *parser;
    int at_start; /* the next token begins a statement */
    int fed;      /* a token was pushed */
} feed_t;

static void feed(parse_ctx_t *c, feed_t *f, int code, parse_token_t v)
{
    if (code != TK_SEMI && f->at_start) {
        c->stmt_start = v.pos;
        f->at_start = 0;
    }
    parse_lemon(f->parser, code, v);
    f->fed = 1;
    if (code == TK_SEMI) f->at_start = 1;
    else c->prev_end = v.pos + v.len;
}

/* Tokenizes the whole text into the parser; stops at the first error.
 * `pos_in` collects the offsets of position()'s IN separators found so far. */
static void feed_all(parse_ctx_t *c, feed_t *f)
{
    src_t s = {c->sql, c->len};
    size_t i = 0;
    int prev = 0, npos_in = 0;
    long *pos_in = NULL;
    scan_tok_t last = {0};
    while (!c->failed) {
        scan_tok_t t;
        scan_token(&s, i, &t);
        if (t.code == SCAN_EOF) break;
        i = t.pos + t.len;
        if (t.code == SCAN_SPACE) continue;
        if (t.code == SCAN_ERROR) {
            error_near(c, t.error, t.pos, t.near_len);
            break;
        }
        int code = classify(&s, &t, prev);
        if (code == TK_LP && is_position(&s, &last)) {
            long at = position_in(&s, t.pos + t.len);
            if (at >= 0) {
                pos_in = sl_arena_realloc(c->a, pos_in, sizeof *pos_in * (size_t)npos_in,
                                          sizeof *pos_in * (size_t)(npos_in + 1));
                pos_in[npos_in++] = at;
            }
        }
        for (int k = 0; code == TK_IN && k < npos_in; k++)
            if (pos_in[k] == (long)t.pos) code = TK_POS_IN;
        last = t;
        parse_token_t v = {(int)t.pos, (int)t.len, token_text(c, &t, code),
                           (t.flags & (SF_QUOTED | SF_BACKQ)) != 0};
        feed(c, f, code, v);
        prev = code;
    }
}

int parse_sql(const char *sql, size_t len, sl_arena_t *a, ast_stmt_list_t *out, sl_error_t *err)
{
    memset(out, 0, sizeof *out);
    if (len > INT_MAX / 2)
        return sl_error_set(err, SL_ERR_PROGRAM_LIMIT_EXCEEDED, "statement is too long");
    parse_ctx_t c = {.sql = sql, .len = len, .a = a, .err = err, .out = out};
    feed_t f = {.parser = parse_lemonAlloc(sl_xmalloc, &c), .at_start = 1};
    feed_all(&c, &f);
    if (!c.failed && !f.at_start) feed(&c, &f, TK_SEMI, (parse_token_t){(int)len, 0, NULL, 0});
    if (!c.failed && f.fed) parse_lemon(f.parser, 0, (parse_token_t){(int)len, 0, NULL, 0});
    parse_lemonFree(f.parser, free);
    if (c.failed) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    out->max_param = c.max_param;
    return 0;
}
