/* clients/cli_signal.c — Ctrl-C. SIGINT never kills the CLI: it sets
 * cli_cancel_pressed, wakes any cli_signal_sleep through a self-pipe, and,
 * while a statement runs, sends the server a CancelRequest (PQcancel is safe
 * in a signal handler) — psql's behaviour. Handlers are installed without
 * SA_RESTART so that a blocked terminal read returns EINTR. */
#include "clients/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

volatile sig_atomic_t cli_cancel_pressed;
volatile sig_atomic_t cli_winch_pending;

static PGcancel *volatile cancel_obj; /* the running statement's cancel handle */
static int wake_pipe[2] = {-1, -1};   /* written by the handler, polled by sleeps */

static void write_err(const char *s)
{
    ssize_t rc = write(STDERR_FILENO, s, strlen(s));
    (void)rc;
}

static void on_sigint(int sig)
{
    (void)sig;
    int saved = errno;
    cli_cancel_pressed = 1;
    if (wake_pipe[1] >= 0) {
        ssize_t rc = write(wake_pipe[1], "x", 1);
        (void)rc;
    }
    PGcancel *c = cancel_obj;
    if (c) {
        char err[256];
        if (PQcancel(c, err, sizeof err)) {
            write_err("Cancel request sent\n");
        } else {
            write_err("Could not send cancel request: ");
            write_err(err);
        }
    }
    errno = saved;
}

static void on_sigwinch(int sig)
{
    (void)sig;
    cli_winch_pending = 1;
}

static void install(int sig, void (*fn)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: interrupt blocking reads */
    sigaction(sig, &sa, NULL);
}

void cli_signal_init(void)
{
    if (pipe(wake_pipe) == 0) {
        for (int i = 0; i < 2; i++) {
            fcntl(wake_pipe[i], F_SETFL, fcntl(wake_pipe[i], F_GETFL) | O_NONBLOCK);
            fcntl(wake_pipe[i], F_SETFD, FD_CLOEXEC);
        }
    }
    install(SIGINT, on_sigint);
    install(SIGWINCH, on_sigwinch);
}

void cli_signal_set_cancel_conn(PGconn *conn)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigprocmask(SIG_BLOCK, &block, &old);
    PGcancel *prev = cancel_obj;
    cancel_obj = conn ? PQgetCancel(conn) : NULL;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (prev) PQfreeCancel(prev);
}

static void drain_pipe(void)
{
    char buf[64];
    while (wake_pipe[0] >= 0 && read(wake_pipe[0], buf, sizeof buf) > 0) {
    }
}

bool cli_signal_sleep(long ms)
{
    double end = cli_now_ms() + (double)ms;
    while (!cli_cancel_pressed) {
        double left = end - cli_now_ms();
        if (left <= 0) return false;
        struct pollfd p = {.fd = wake_pipe[0], .events = POLLIN};
        int rc = poll(&p, wake_pipe[0] >= 0 ? 1 : 0, (int)(left + 0.999));
        if (rc > 0) drain_pipe();
    }
    drain_pipe();
    return true;
}
