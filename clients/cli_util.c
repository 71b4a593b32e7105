/* clients/cli_util.c — the CLI's small runtime: checked allocation, growable
 * buffers, an arena for short-lived trees, and psql-style message logging
 * ("sluice:script.sql:3: error: ..."). */
#include "clients/cli.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- allocation ---------------------------------------------------------------------- */

static void *oom(void)
{
    /* Invariant: the CLI cannot do anything useful without memory. */
    fputs("sluice: out of memory\n", stderr);
    abort();
}

void *cli_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    return p ? p : oom();
}

void *cli_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    return q ? q : oom();
}

char *cli_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(cli_xmalloc(n), s, n);
}

/* ---- buffers ------------------------------------------------------------------------- */

static void buf_reserve(cli_buf_t *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1) cap *= 2;
    b->data = cli_xrealloc(b->data, cap);
    b->cap = cap;
}

void cli_buf_put(cli_buf_t *b, const char *s, size_t n)
{
    buf_reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void cli_buf_puts(cli_buf_t *b, const char *s)
{
    cli_buf_put(b, s, strlen(s));
}

void cli_buf_putc(cli_buf_t *b, char c)
{
    cli_buf_put(b, &c, 1);
}

void cli_buf_printf(cli_buf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    buf_reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void cli_buf_reset(cli_buf_t *b)
{
    b->len = 0;
    if (b->data) b->data[0] = '\0';
}

void cli_buf_free(cli_buf_t *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

const char *cli_buf_str(const cli_buf_t *b)
{
    return b->data ? b->data : "";
}

/* ---- arena --------------------------------------------------------------------------- */

#define ARENA_BLOCK 8192

struct cli_arena_block {
    cli_arena_block_t *next; /* older block */
    size_t used;             /* bytes handed out from data */
    size_t size;             /* bytes in data */
    _Alignas(16) unsigned char data[];
};

void *cli_arena_alloc(cli_arena_t *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    cli_arena_block_t *b = a->head;
    if (!b || b->size - b->used < n) {
        size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
        b = cli_xmalloc(sizeof *b + size);
        b->size = size;
        b->used = 0;
        b->next = a->head;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    return memset(p, 0, n);
}

char *cli_arena_strndup(cli_arena_t *a, const char *s, size_t n)
{
    char *p = cli_arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void cli_arena_free(cli_arena_t *a)
{
    while (a->head) {
        cli_arena_block_t *next = a->head->next;
        free(a->head);
        a->head = next;
    }
}

/* ---- logging ------------------------------------------------------------------------- */

static struct {
    const char *file;   /* locus: script name or NULL */
    unsigned long line; /* locus: line within file */
    bool terse;         /* no program name, no level label */
} log_state;

void cli_log_set_locus(const char *file, unsigned long line)
{
    log_state.file = file;
    log_state.line = line;
}

void cli_log_set_terse(bool terse)
{
    log_state.terse = terse;
}

static void log_prefix(cli_log_level_t level)
{
    if (!log_state.terse || log_state.file) {
        if (!log_state.terse) fputs("sluice:", stderr);
        if (log_state.file) {
            fprintf(stderr, "%s:", log_state.file);
            if (log_state.line > 0) fprintf(stderr, "%lu:", log_state.line);
        }
        fputc(' ', stderr);
    }
    if (log_state.terse) return;
    if (level == CLI_LOG_ERROR) fputs("error: ", stderr);
    else if (level == CLI_LOG_WARNING) fputs("warning: ", stderr);
    else if (level == CLI_LOG_HINT) fputs("hint: ", stderr);
}

void cli_log(cli_log_level_t level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    char *text = cli_xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    if (n > 0 && text[n - 1] == '\n') text[n - 1] = '\0';
    fflush(stdout);
    log_prefix(level);
    fprintf(stderr, "%s\n", text);
    free(text);
}
