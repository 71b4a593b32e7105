/* A small unit test framework. Each TEST runs in its own forked process with
 * a timeout (libuv's test-runner style); a failed CHECK ends that process.
 * The binary prints one line per test and closes with "N passed, N failed".
 * `test_x NAME` runs only the tests whose name contains NAME. */
#ifndef SL_UNIT_H
#define SL_UNIT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*unit_fn)(void);
void unit_register(const char *name, unit_fn fn, int timeout_s);
void unit_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));

#define TEST_TIMEOUT(name, secs)                                   \
    static void test_##name(void);                                 \
    __attribute__((constructor)) static void register_##name(void) \
    {                                                              \
        unit_register(#name, test_##name, secs);                   \
    }                                                              \
    static void test_##name(void)
#define TEST(name) TEST_TIMEOUT(name, 30)

#define CHECK(cond)                                                     \
    do {                                                                \
        if (!(cond)) unit_fail(__FILE__, __LINE__, "CHECK(%s)", #cond); \
    } while (0)
#define CHECK_INT(a, b)                                                                       \
    do {                                                                                      \
        long long a_ = (long long)(a), b_ = (long long)(b);                                   \
        if (a_ != b_)                                                                         \
            unit_fail(__FILE__, __LINE__, "%s == %lld, expected %s == %lld", #a, a_, #b, b_); \
    } while (0)
#define CHECK_STR(a, b)                                                                            \
    do {                                                                                           \
        const char *a_ = (a), *b_ = (b);                                                           \
        if (!a_ || !b_ || strcmp(a_, b_))                                                          \
            unit_fail(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", #a, a_ ? a_ : "(null)", \
                      b_ ? b_ : "(null)");                                                         \
    } while (0)

#endif
