/* sl_buf: growable heap byte buffer. */
#include "common/buf.h"
#include "common/arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sl_buf_free(sl_buf_t *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void sl_buf_clear(sl_buf_t *b)
{
    b->len = 0;
    if (b->data) b->data[0] = '\0';
}

void sl_buf_reserve(sl_buf_t *b, size_t n)
{
    if (b->len + n + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1) cap *= 2;
    b->data = sl_xrealloc(b->data, cap);
    b->cap = cap;
}

void sl_buf_append(sl_buf_t *b, const void *p, size_t n)
{
    sl_buf_reserve(b, n);
    if (n) memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void sl_buf_puts(sl_buf_t *b, const char *s)
{
    sl_buf_append(b, s, strlen(s));
}

void sl_buf_putc(sl_buf_t *b, char c)
{
    sl_buf_append(b, &c, 1);
}

void sl_buf_vprintf(sl_buf_t *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n <= 0) return;
    sl_buf_reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void sl_buf_printf(sl_buf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sl_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void sl_buf_put_u16be(sl_buf_t *b, uint16_t v)
{
    unsigned char c[2] = {(unsigned char)(v >> 8), (unsigned char)v};
    sl_buf_append(b, c, 2);
}

void sl_buf_put_u32be(sl_buf_t *b, uint32_t v)
{
    unsigned char c[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 8), (unsigned char)v};
    sl_buf_append(b, c, 4);
}

void sl_buf_put_u64be(sl_buf_t *b, uint64_t v)
{
    sl_buf_put_u32be(b, (uint32_t)(v >> 32));
    sl_buf_put_u32be(b, (uint32_t)v);
}

void sl_buf_set_u32be(sl_buf_t *b, size_t at, uint32_t v)
{
    unsigned char *c = (unsigned char *)b->data + at;
    c[0] = (unsigned char)(v >> 24);
    c[1] = (unsigned char)(v >> 16);
    c[2] = (unsigned char)(v >> 8);
    c[3] = (unsigned char)v;
}

void sl_buf_consume(sl_buf_t *b, size_t n)
{
    if (n >= b->len) {
        sl_buf_clear(b);
        return;
    }
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
    b->data[b->len] = '\0';
}

void sl_buf_truncate(sl_buf_t *b, size_t len)
{
    if (len >= b->len) return;
    b->len = len;
    b->data[len] = '\0';
}

char *sl_buf_steal(sl_buf_t *b)
{
    char *p = b->data ? b->data : sl_xstrdup("");
    b->data = NULL;
    b->len = b->cap = 0;
    return p;
}
