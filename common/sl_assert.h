/* SL_ASSERT: turns an invariant that a comment states ("the loop thread owns
 * this", "only while a submission is in flight") into a check. On unless
 * NDEBUG is defined, so the normal, sanitizer and fuzz builds all check;
 * a failure logs the condition with its place and aborts (the crash
 * handler then logs a backtrace). With NDEBUG the condition still has to
 * compile but is never evaluated. */
#ifndef SL_ASSERT_H
#define SL_ASSERT_H

#ifndef NDEBUG
#define SL_ASSERT(cond) ((cond) ? (void)0 : sl_assert_fail(#cond, __FILE__, __LINE__, __func__))
#else
#define SL_ASSERT(cond) ((void)sizeof(!(cond)))
#endif

/* Logs "assertion failed: COND (FILE:LINE FUNC)" at FATAL and aborts. */
_Noreturn void sl_assert_fail(const char *cond, const char *file, int line, const char *func);

#endif
