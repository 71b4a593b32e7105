/* SL_ASSERT: an invariant checked at run time.
 *
 * Active unless NDEBUG is defined: the normal build (-O2 -g) keeps it on,
 * and so do the SANITIZE and TSAN builds. A failed check prints the file,
 * the line, the function and the expression to stderr and aborts: it marks
 * a bug in sluice, never an error a client or the disk can cause (those
 * are sl_error_t). Keep the expression free of side effects: under NDEBUG
 * it is not evaluated. */
#ifndef SL_ASSERT_H
#define SL_ASSERT_H

#include <stdio.h>
#include <stdlib.h>

#ifdef NDEBUG
#define SL_ASSERT(expr) ((void)0)
#else
#define SL_ASSERT(expr) \
    (__builtin_expect(!!(expr), 1) ? (void)0 : sl_assert_fail(#expr, __FILE__, __LINE__, __func__))
#endif

/* Reports a failed SL_ASSERT and aborts (out of line: the check stays small). */
__attribute__((noreturn, cold, noinline, unused)) static void
sl_assert_fail(const char *expr, const char *file, int line, const char *func)
{
    fprintf(stderr, "FATAL: %s:%d: %s: assertion failed: %s\n", file, line, func, expr);
    abort();
}

#endif
