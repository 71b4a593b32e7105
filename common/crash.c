/* The fatal-signal handler of common/crash.h. Everything it does after the
 * signal is async-signal-safe: write(2) on the log's descriptor, the
 * clock, prctl for the thread's name, and glibc's backtrace(), whose
 * one-time loading of the unwinder happens at install, not in the
 * handler. Frames name functions when the binary exports its symbols
 * (sluiced links with -rdynamic); static functions show as offsets. */
#include "common/crash.h"

#include <execinfo.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

/* AddressSanitizer builds (gcc defines the first, clang has the second). */
#if defined(__SANITIZE_ADDRESS__)
#define CRASH_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CRASH_UNDER_ASAN 1
#endif
#endif
#ifndef CRASH_UNDER_ASAN
#define CRASH_UNDER_ASAN 0
#endif

#define CRASH_FD 2 /* the log (common/log.c writes to stderr) */
#define CRASH_FRAMES 64
#define CRASH_ALTSTACK (64 * 1024)

static const struct {
    int signum;
    const char *name, *what;
} crash_signals[] = {
    {SIGSEGV, "SIGSEGV", "invalid memory reference"},
    {SIGBUS, "SIGBUS", "bus error"},
    {SIGFPE, "SIGFPE", "arithmetic exception"},
    {SIGILL, "SIGILL", "illegal instruction"},
    {SIGABRT, "SIGABRT", "aborted"},
};
#define CRASH_NSIGNALS (sizeof crash_signals / sizeof *crash_signals)

/* A line being assembled on the handler's stack. */
typedef struct crash_line {
    char buf[512];
    size_t len;
} crash_line_t;

static void line_str(crash_line_t *l, const char *s)
{
    size_t n = strlen(s);
    if (n > sizeof l->buf - l->len) n = sizeof l->buf - l->len;
    memcpy(l->buf + l->len, s, n);
    l->len += n;
}

/* Appends v in `base` (10 or 16), zero-padded to `width` digits. */
static void line_num(crash_line_t *l, uint64_t v, unsigned base, int width)
{
    char d[24];
    int n = 0;
    do {
        d[n++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v && n < (int)sizeof d);
    while (n < width && n < (int)sizeof d) d[n++] = '0';
    while (n > 0 && l->len < sizeof l->buf) l->buf[l->len++] = d[--n];
}

/* The log's timestamp "YYYY-MM-DD HH:MM:SS.mmm UTC", without gmtime (not
 * async-signal-safe): days since the epoch to a civil date. */
static void line_time(crash_line_t *l)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t secs = ts.tv_sec, days = secs / 86400, rem = secs % 86400;
    int64_t z = days + 719468, era = z / 146097, doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
    int64_t day = doy - (153 * mp + 2) / 5 + 1, month = mp < 10 ? mp + 3 : mp - 9;
    int64_t year = yoe + era * 400 + (month <= 2);
    line_num(l, (uint64_t)year, 10, 4);
    line_str(l, "-");
    line_num(l, (uint64_t)month, 10, 2);
    line_str(l, "-");
    line_num(l, (uint64_t)day, 10, 2);
    line_str(l, " ");
    line_num(l, (uint64_t)(rem / 3600), 10, 2);
    line_str(l, ":");
    line_num(l, (uint64_t)(rem / 60 % 60), 10, 2);
    line_str(l, ":");
    line_num(l, (uint64_t)(rem % 60), 10, 2);
    line_str(l, ".");
    line_num(l, (uint64_t)(ts.tv_nsec / 1000000), 10, 3);
    line_str(l, " UTC FATAL crash: ");
}

static void line_write(crash_line_t *l)
{
    if (l->len == sizeof l->buf) l->len--;
    l->buf[l->len++] = '\n';
    for (size_t off = 0; off < l->len;) {
        ssize_t n = write(CRASH_FD, l->buf + off, l->len - off);
        if (n <= 0) return;
        off += (size_t)n;
    }
}

/* "received signal SIGSEGV (invalid memory reference) addr=0x0 pid=1 thread=sl-io; backtrace:" */
static void log_signal(const siginfo_t *si, const char *name, const char *what)
{
    crash_line_t l = {.len = 0};
    char thread[17] = "";
    prctl(PR_GET_NAME, thread, 0, 0, 0);
    line_time(&l);
    line_str(&l, "received signal ");
    line_str(&l, name);
    line_str(&l, " (");
    line_str(&l, what);
    line_str(&l, ")");
    if (si && si->si_code > 0) { /* sent by the kernel: a faulting address */
        line_str(&l, " addr=0x");
        line_num(&l, (uint64_t)(uintptr_t)si->si_addr, 16, 1);
    }
    line_str(&l, " pid=");
    line_num(&l, (uint64_t)getpid(), 10, 1);
    line_str(&l, " thread=");
    line_str(&l, thread);
    line_str(&l, "; backtrace:");
    line_write(&l);
}

static void crash_handler(int signum, siginfo_t *si, void *uctx)
{
    (void)uctx;
    const char *name = "signal", *what = "fatal signal";
    for (size_t i = 0; i < CRASH_NSIGNALS; i++)
        if (crash_signals[i].signum == signum) {
            name = crash_signals[i].name;
            what = crash_signals[i].what;
        }
    log_signal(si, name, what);
    void *frames[CRASH_FRAMES];
    int n = backtrace(frames, CRASH_FRAMES);
    backtrace_symbols_fd(frames, n, CRASH_FD);
    crash_line_t l = {.len = 0};
    line_time(&l);
    line_str(&l, "end of backtrace; dying of ");
    line_str(&l, name);
    line_write(&l);
    /* SA_RESETHAND restored the default action: the re-raised signal kills
     * the process as soon as the handler returns (a faulting instruction
     * would also fault again). */
    raise(signum);
}

void sl_crash_install(void)
{
    if (CRASH_UNDER_ASAN) return; /* ASan's handler reports more */
    void *warm[1];
    backtrace(warm, 1); /* loads the unwinder now: it allocates the first time */
    stack_t ss = {.ss_sp = malloc(CRASH_ALTSTACK), .ss_size = CRASH_ALTSTACK};
    if (ss.ss_sp && sigaltstack(&ss, NULL) < 0) free(ss.ss_sp);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = crash_handler;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < CRASH_NSIGNALS; i++) sigaction(crash_signals[i].signum, &sa, NULL);
}
