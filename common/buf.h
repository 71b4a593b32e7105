/* sl_buf: a growable byte buffer on the heap, always NUL-terminated, for
 * building protocol messages, JSON documents and text. Big-endian integer
 * appenders serve the PostgreSQL wire format and the checkpoint files. */
#ifndef SL_BUF_H
#define SL_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sl_buf {
    char *data; /* NULL until the first append; then NUL-terminated */
    size_t len;
    size_t cap;
} sl_buf_t;

#define SL_BUF_INIT \
    {               \
        NULL, 0, 0  \
    }

void sl_buf_free(sl_buf_t *b);
/* The contents as a C string, "" while nothing was ever added. */
static inline const char *sl_buf_str(const sl_buf_t *b)
{
    return b->data ? b->data : "";
}
/* Drops the contents, keeps the memory. */
void sl_buf_clear(sl_buf_t *b);
/* Makes room for n more bytes. */
void sl_buf_reserve(sl_buf_t *b, size_t n);
void sl_buf_append(sl_buf_t *b, const void *p, size_t n);
void sl_buf_puts(sl_buf_t *b, const char *s);
void sl_buf_putc(sl_buf_t *b, char c);
void sl_buf_printf(sl_buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sl_buf_vprintf(sl_buf_t *b, const char *fmt, va_list ap);
void sl_buf_put_u16be(sl_buf_t *b, uint16_t v);
void sl_buf_put_u32be(sl_buf_t *b, uint32_t v);
void sl_buf_put_u64be(sl_buf_t *b, uint64_t v);
/* Overwrites 4 bytes at `at` (for length fields filled in after the body). */
void sl_buf_set_u32be(sl_buf_t *b, size_t at, uint32_t v);
/* Removes the first n bytes. */
void sl_buf_consume(sl_buf_t *b, size_t n);
/* Drops the bytes after the first `len` (a partly written message). */
void sl_buf_truncate(sl_buf_t *b, size_t len);
/* Hands the bytes to the caller (who frees them) and empties the buffer. */
char *sl_buf_steal(sl_buf_t *b);

static inline uint32_t sl_get_u32be(const void *p)
{
    const unsigned char *c = p;
    return (uint32_t)c[0] << 24 | (uint32_t)c[1] << 16 | (uint32_t)c[2] << 8 | c[3];
}
static inline uint16_t sl_get_u16be(const void *p)
{
    const unsigned char *c = p;
    return (uint16_t)(c[0] << 8 | c[1]);
}

#endif
