/* Unit test runner: forks one process per registered test, enforces its
 * timeout, prints the verdicts and the "N passed, N failed" closing line. */
#include "unit.h"

#include <signal.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_TESTS 1024

static struct {
    const char *name;
    unit_fn fn;
    int timeout;
} tests[MAX_TESTS];
static int ntests;

void unit_register(const char *name, unit_fn fn, int timeout_s)
{
    if (ntests == MAX_TESTS) {
        fprintf(stderr, "too many tests\n");
        exit(2);
    }
    tests[ntests].name = name;
    tests[ntests].fn = fn;
    tests[ntests].timeout = timeout_s;
    ntests++;
}

void unit_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "  %s:%d: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
    _exit(1);
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    int passed = 0, failed = 0;
    for (int i = 0; i < ntests; i++) {
        if (filter && !strstr(tests[i].name, filter)) continue;
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            alarm((unsigned)tests[i].timeout);
            tests[i].fn();
            fflush(stdout);
            _exit(0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            passed++;
            printf("ok   %s\n", tests[i].name);
        } else {
            failed++;
            if (WIFSIGNALED(status))
                printf("FAIL %s (%s)\n", tests[i].name,
                       WTERMSIG(status) == SIGALRM ? "timeout" : strsignal(WTERMSIG(status)));
            else printf("FAIL %s\n", tests[i].name);
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
