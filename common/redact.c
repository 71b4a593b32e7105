/* Secret options (common/redact.h): the rule that names a secret, the one
 * redaction every surface applies (option lists and stored statement
 * text), and the resolution of 'env:' and 'file:' references. */
#include "common/redact.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/buf.h"

static bool has_word(const char *lower, const char *word)
{
    return strstr(lower, word) != NULL;
}

static bool secret_name(const char *key, size_t n)
{
    char lower[256];
    if (n >= sizeof lower) n = sizeof lower - 1;
    for (size_t i = 0; i < n; i++) lower[i] = (char)tolower((unsigned char)key[i]);
    lower[n] = '\0';
    const char *k = strncmp(lower, "kafka.", 6) ? lower : lower + 6;
    return has_word(k, "password") || has_word(k, "secret") || has_word(k, "token") ||
           !strcmp(k, "sasl.jaas.config") || !strncmp(k, "ssl.key.", 8);
}

bool sl_secret_key(const char *key)
{
    return key && secret_name(key, strlen(key));
}

bool sl_secret_is_ref(const char *value)
{
    return value &&
           ((!strncmp(value, "env:", 4) && value[4]) || (!strncmp(value, "file:", 5) && value[5]));
}

/* The password of a URL in s[0..n) ("scheme://user:password@host..."):
 * true with [*from, *to) its bytes. */
static bool url_password(const char *s, size_t n, size_t *from, size_t *to)
{
    const char *scheme = memmem(s, n, "://", 3);
    if (!scheme) return false;
    size_t start = (size_t)(scheme - s) + 3, end = start;
    while (end < n && s[end] != '/' && s[end] != '?' && s[end] != '#') end++;
    const char *at = memrchr(s + start, '@', end - start);
    const char *colon = at ? memchr(s + start, ':', (size_t)(at - s) - start) : NULL;
    if (!colon) return false;
    *from = (size_t)(colon - s) + 1;
    *to = (size_t)(at - s);
    return true;
}

const char *sl_redact_value(const char *key, const char *value)
{
    size_t from, to;
    if (value && url_password(value, strlen(value), &from, &to)) return SL_REDACTED;
    if (!value || !sl_secret_key(key) || sl_secret_is_ref(value)) return value;
    return SL_REDACTED;
}

/* Appends the literal s..e with a URL's password replaced by SL_REDACTED. */
static bool put_url_redacted(sl_buf_t *b, const char *s, const char *e)
{
    size_t from, to;
    if (*s != '\'' || !url_password(s, (size_t)(e - s), &from, &to)) return false;
    sl_buf_append(b, s, from);
    sl_buf_puts(b, SL_REDACTED);
    sl_buf_append(b, s + to, (size_t)(e - s) - to);
    return true;
}

/* --- statement text ---------------------------------------------------- */

/* The end of a quoted token starting at s (q is the quote); doubled quotes
 * are part of it. */
static const char *quoted_end(const char *s, char q)
{
    const char *p = s + 1;
    while (*p) {
        if (*p == q && p[1] == q) p += 2;
        else if (*p == q) return p + 1;
        else p++;
    }
    return p;
}

static const char *comment_end(const char *p)
{
    if (p[0] == '-' && p[1] == '-') {
        const char *nl = strchr(p, '\n');
        return nl ? nl : p + strlen(p);
    }
    const char *e = strstr(p + 2, "*/");
    return e ? e + 2 : p + strlen(p);
}

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.';
}

/* The literal's text (without quotes or escapes) names a reference? */
static bool literal_is_ref(const char *s, const char *e)
{
    size_t n = (size_t)(e - s);
    char head[8] = {0};
    memcpy(head, s + 1, n - 1 < sizeof head - 1 ? n - 1 : sizeof head - 1);
    return (!strncmp(head, "env:", 4) && head[4] && head[4] != '\'') ||
           (!strncmp(head, "file:", 5) && head[5] && head[5] != '\'');
}

/* A name token (word, "identifier" or 'literal') as text without quotes. */
static bool token_is_secret(const char *s, const char *e)
{
    if (*s == '\'' || *s == '"') return e - s >= 2 && secret_name(s + 1, (size_t)(e - s - 2));
    return secret_name(s, (size_t)(e - s));
}

const char *sl_redact_sql(sl_arena_t *a, const char *sql)
{
    if (!sql) return NULL;
    sl_buf_t b = SL_BUF_INIT;
    bool after_secret = false; /* the last token named a secret option */
    const char *p = sql;
    while (*p) {
        const char *s = p, *e;
        if (isspace((unsigned char)*p) || *p == '=') {
            sl_buf_putc(&b, *p++);
            continue;
        }
        if ((p[0] == '-' && p[1] == '-') || (p[0] == '/' && p[1] == '*')) {
            e = comment_end(p);
            sl_buf_append(&b, s, (size_t)(e - s));
            p = e;
            continue;
        }
        if (*p == '\'' || *p == '"') e = quoted_end(p, *p);
        else if (word_char(*p))
            for (e = p; word_char(*e); e++) {
            }
        else e = p + 1;
        if (after_secret && *s == '\'' && !literal_is_ref(s, e))
            sl_buf_puts(&b, "'" SL_REDACTED "'");
        else if (!put_url_redacted(&b, s, e)) sl_buf_append(&b, s, (size_t)(e - s));
        after_secret = (*s == '\'' || *s == '"' || word_char(*s)) && token_is_secret(s, e);
        p = e;
    }
    const char *out = sl_strdup(a, b.data ? b.data : "");
    sl_buf_free(&b);
    return out;
}

/* --- references -------------------------------------------------------- */

static int resolve_file(sl_arena_t *a, const char *key, const char *path, const char **out,
                        sl_error_t *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return sl_error_set(err, SL_ERR_UNDEFINED_FILE,
                            "could not read secret reference \"file:%s\" of option \"%s\": %s",
                            path, key, strerror(errno));
    sl_buf_t b = SL_BUF_INIT;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) sl_buf_append(&b, chunk, n);
    fclose(f);
    size_t len = b.len;
    while (len > 0 && (b.data[len - 1] == '\n' || b.data[len - 1] == '\r')) len--;
    *out = sl_strndup(a, b.data ? b.data : "", len);
    sl_buf_free(&b);
    return 0;
}

int sl_secret_resolve(sl_arena_t *a, const char *key, const char *value, const char **out,
                      sl_error_t *err)
{
    *out = value;
    if (!sl_secret_is_ref(value)) return 0;
    if (value[0] == 'f') return resolve_file(a, key, value + 5, out, err);
    const char *v = getenv(value + 4);
    if (!v)
        return sl_error_set(err, SL_ERR_UNDEFINED_OBJECT,
                            "environment variable \"%s\" of secret reference \"%s\" (option "
                            "\"%s\") is not set",
                            value + 4, value, key);
    *out = sl_strdup(a, v);
    return 0;
}
