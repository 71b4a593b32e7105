/* state/ byte helpers: CRC-32C for delta/snapshot files and json4s-style
 * JSON string quoting for the checkpoint logs. */
#include "state/state_int.h"

#include <pthread.h>
#include <stdio.h>

/* Slicing-by-8 tables for the reflected Castagnoli polynomial; filled once,
 * read-only afterwards. */
static uint32_t crc_table[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
        crc_table[0][i] = c;
    }
    for (int t = 1; t < 8; t++)
        for (int i = 0; i < 256; i++)
            crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xff];
}

uint32_t state_crc32c(uint32_t crc, const void *p, size_t n)
{
    pthread_once(&crc_once, crc_init);
    const unsigned char *s = p;
    uint32_t c = ~crc;
    while (n >= 8) {
        uint32_t lo = c ^ ((uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 |
                           (uint32_t)s[3] << 24);
        c = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^
            crc_table[5][(lo >> 16) & 0xff] ^ crc_table[4][lo >> 24] ^ crc_table[3][s[4]] ^
            crc_table[2][s[5]] ^ crc_table[1][s[6]] ^ crc_table[0][s[7]];
        s += 8;
        n -= 8;
    }
    while (n--) c = (c >> 8) ^ crc_table[0][(c ^ *s++) & 0xff];
    return ~c;
}

/* Decodes one UTF-8 sequence at s (NUL-terminated); returns its length and
 * the code point, or length 1 and -1 for an invalid byte. */
static int utf8_decode(const unsigned char *s, long *cp)
{
    int len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 1;
    long c = len == 1 ? s[0] : s[0] & (0x3f >> (len - 1));
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            *cp = -1;
            return 1;
        }
        c = c << 6 | (s[i] & 0x3f);
    }
    *cp = (len == 1 && s[0] >= 0x80) ? -1 : c;
    return len;
}

static int json4s_escapes(long c)
{
    return (c >= 0 && c < 0x20) || (c >= 0x80 && c < 0xa0) || (c >= 0x2000 && c < 0x2100);
}

void state_json_quote(sl_buf_t *b, const char *str)
{
    static const char short_esc[] = {'\b', 'b', '\f', 'f', '\n', 'n',  '\r', 'r',
                                     '\t', 't', '"',  '"', '\\', '\\', 0};
    const unsigned char *s = (const unsigned char *)str;
    sl_buf_putc(b, '"');
    while (*s) {
        const char *e = NULL;
        for (int i = 0; short_esc[i]; i += 2)
            if (*s == (unsigned char)short_esc[i]) e = &short_esc[i + 1];
        if (e) {
            sl_buf_putc(b, '\\');
            sl_buf_putc(b, *e);
            s++;
            continue;
        }
        long cp;
        int len = utf8_decode(s, &cp);
        if (json4s_escapes(cp)) sl_buf_printf(b, "\\u%04lx", cp);
        else sl_buf_append(b, s, (size_t)len);
        s += len;
    }
    sl_buf_putc(b, '"');
}
