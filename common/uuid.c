/* Random version-4 UUIDs from the kernel's random source. */
#include "common/uuid.h"

#include <stdio.h>
#include <sys/random.h>

int sl_uuid_v4(char out[37], sl_error_t *err)
{
    unsigned char b[16];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b)
        return sl_error_set(err, SL_ERR_IO_ERROR, "could not read random bytes for a uuid");
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* RFC 4122 variant */
    char *p = out;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) *p++ = '-';
        p += sprintf(p, "%02x", b[i]);
    }
    return 0;
}
