/* sl_error: setting and copying the error struct; the SQLSTATE constants. */
#include "common/sl_error.h"

#include <stdio.h>
#include <string.h>

#define X(name, code) const char SL_ERR_##name[6] = code;
#include "common/sqlstates.def"
#undef X

int sl_error_setv(sl_error_t *err, const char *sqlstate, const char *fmt, va_list ap)
{
    if (!err) return -1;
    snprintf(err->sqlstate, sizeof err->sqlstate, "%s", sqlstate);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    err->detail[0] = '\0';
    err->hint[0] = '\0';
    err->position = 0;
    return -1;
}

int sl_error_set(sl_error_t *err, const char *sqlstate, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sl_error_setv(err, sqlstate, fmt, ap);
    va_end(ap);
    return -1;
}

int sl_error_detail(sl_error_t *err, const char *fmt, ...)
{
    if (!err) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->detail, sizeof err->detail, fmt, ap);
    va_end(ap);
    return -1;
}

int sl_error_hint(sl_error_t *err, const char *fmt, ...)
{
    if (!err) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->hint, sizeof err->hint, fmt, ap);
    va_end(ap);
    return -1;
}

void sl_error_clear(sl_error_t *err)
{
    memset(err, 0, sizeof *err);
}

int sl_error_isset(const sl_error_t *err)
{
    return err->sqlstate[0] != '\0';
}

void sl_error_copy(sl_error_t *dst, const sl_error_t *src)
{
    if (dst != src) memcpy(dst, src, sizeof *dst);
}
