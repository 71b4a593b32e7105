/* sl_error: the one error struct that travels from any module up to the
 * session, which turns it into a PostgreSQL ErrorResponse (fields C, M, D, H, P).
 *
 * Convention: functions that can fail take an `sl_error_t *err` and return a
 * negative int (or NULL); they fill `err` with sl_error_set(), which itself
 * returns -1 so that `return sl_error_set(err, ...)` reads naturally.
 * Messages follow PostgreSQL's style: the primary message is short and
 * lowercase without a final period; detail and hint are full sentences. */
#ifndef SL_ERROR_H
#define SL_ERROR_H

#include <stdarg.h>

#define X(name, code) extern const char SL_ERR_##name[6];
#include "common/sqlstates.def"
#undef X

typedef struct sl_error {
    char sqlstate[6];  /* five characters and NUL; "" when no error is set */
    char message[512]; /* primary message */
    char detail[1024]; /* optional, "" when absent */
    char hint[512];    /* optional, "" when absent */
    int position;      /* 1-based character offset into the statement text; 0 = none */
} sl_error_t;

/* Sets code and message, clears detail, hint and position. Returns -1. */
int sl_error_set(sl_error_t *err, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int sl_error_setv(sl_error_t *err, const char *sqlstate, const char *fmt, va_list ap);
/* Adds a detail / hint sentence to an error already set. Return -1. */
int sl_error_detail(sl_error_t *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int sl_error_hint(sl_error_t *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Clears the error. */
void sl_error_clear(sl_error_t *err);
/* True when an error is set. */
int sl_error_isset(const sl_error_t *err);
/* Copies src into dst (either may be a caller's struct). */
void sl_error_copy(sl_error_t *dst, const sl_error_t *src);

#endif
