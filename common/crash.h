/* A crash leaves a trace: on a fatal signal (SIGSEGV, SIGBUS, SIGFPE,
 * SIGILL, SIGABRT) the process writes one log line naming the signal, a
 * backtrace (one frame a line), and a closing line to stderr — the log —
 * then dies of the same signal with its default action, so that the exit
 * status and any core dump are those of the original crash. */
#ifndef SL_CRASH_H
#define SL_CRASH_H

/* Installs the handlers (process-wide) and an alternate signal stack for
 * the calling thread, so that a stack overflow on it is reported too.
 * Does nothing in AddressSanitizer builds, whose own handler reports
 * crashes with more detail. Call once, early in main(). */
void sl_crash_install(void);

#endif
