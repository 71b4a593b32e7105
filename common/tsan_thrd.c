/* ThreadSanitizer builds only (make TSAN=1): the C11 <threads.h> calls
 * librdkafka makes, on top of the pthread calls TSan intercepts.
 *
 * glibc's thrd_create, mtx_* and cnd_* call glibc's internal pthread code
 * directly; gcc's TSan intercepts only the public pthread functions. So
 * librdkafka's threads would run without TSan's per-thread state (they
 * crash at their first malloc), and its locks and condition variables
 * would order nothing (every message handed from its threads to ours would
 * show as a race). Defined in the executable (the TSAN block of the
 * Makefile links this file in with -u thrd_create), these definitions take
 * precedence over glibc's for librdkafka. glibc lays mtx_t, cnd_t and
 * once_flag out as pthread_mutex_t, pthread_cond_t and pthread_once_t, and
 * implements each call as the pthread one on the same object, as here.
 * Other builds compile nothing. */
#if defined(__SANITIZE_THREAD__)
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <threads.h>

_Static_assert(sizeof(mtx_t) == sizeof(pthread_mutex_t), "mtx_t is a pthread mutex");
_Static_assert(sizeof(cnd_t) == sizeof(pthread_cond_t), "cnd_t is a pthread condition");
_Static_assert(sizeof(once_flag) == sizeof(pthread_once_t), "once_flag is a pthread once");

static int thrd_result(int rc)
{
    return rc == 0           ? thrd_success
           : rc == ETIMEDOUT ? thrd_timedout
           : rc == EBUSY     ? thrd_busy
           : rc == ENOMEM    ? thrd_nomem
                             : thrd_error;
}

typedef struct thrd_start_arg {
    thrd_start_t fn;
    void *arg;
} thrd_start_arg_t;

static void *thrd_trampoline(void *p)
{
    thrd_start_arg_t a = *(thrd_start_arg_t *)p;
    free(p);
    return (void *)(intptr_t)a.fn(a.arg);
}

int thrd_create(thrd_t *thr, thrd_start_t fn, void *arg)
{
    thrd_start_arg_t *a = malloc(sizeof *a);
    if (!a) return thrd_nomem;
    a->fn = fn;
    a->arg = arg;
    int rc = pthread_create(thr, NULL, thrd_trampoline, a);
    if (rc != 0) free(a);
    return thrd_result(rc == EAGAIN ? ENOMEM : rc);
}

int thrd_join(thrd_t thr, int *res)
{
    void *v;
    int rc = pthread_join(thr, &v);
    if (rc == 0 && res) *res = (int)(intptr_t)v;
    return thrd_result(rc);
}

int mtx_init(mtx_t *m, int type)
{
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    if (type & mtx_recursive) pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    int rc = pthread_mutex_init((pthread_mutex_t *)m, &attr);
    pthread_mutexattr_destroy(&attr);
    return thrd_result(rc);
}

int mtx_lock(mtx_t *m)
{
    return thrd_result(pthread_mutex_lock((pthread_mutex_t *)m));
}
int mtx_unlock(mtx_t *m)
{
    return thrd_result(pthread_mutex_unlock((pthread_mutex_t *)m));
}
void mtx_destroy(mtx_t *m)
{
    pthread_mutex_destroy((pthread_mutex_t *)m);
}

int cnd_init(cnd_t *c)
{
    return thrd_result(pthread_cond_init((pthread_cond_t *)c, NULL));
}
int cnd_signal(cnd_t *c)
{
    return thrd_result(pthread_cond_signal((pthread_cond_t *)c));
}
int cnd_broadcast(cnd_t *c)
{
    return thrd_result(pthread_cond_broadcast((pthread_cond_t *)c));
}
void cnd_destroy(cnd_t *c)
{
    pthread_cond_destroy((pthread_cond_t *)c);
}

int cnd_wait(cnd_t *c, mtx_t *m)
{
    return thrd_result(pthread_cond_wait((pthread_cond_t *)c, (pthread_mutex_t *)m));
}

int cnd_timedwait(cnd_t *restrict c, mtx_t *restrict m, const struct timespec *restrict ts)
{
    return thrd_result(pthread_cond_timedwait((pthread_cond_t *)c, (pthread_mutex_t *)m, ts));
}

void call_once(once_flag *flag, void (*fn)(void))
{
    pthread_once((pthread_once_t *)flag, fn);
}
#else
/* ISO C forbids an empty translation unit. */
typedef int sl_tsan_thrd_unused;
#endif
