/* Logging to stderr with a timestamp, level and module. */
#include "common/log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>

static sl_log_level_t log_level = SL_LOG_INFO;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static const char *const level_names[] = {"DEBUG", "INFO ", "WARN ", "ERROR", "FATAL"};

void sl_log_set_level(sl_log_level_t level)
{
    log_level = level;
}

sl_log_level_t sl_log_get_level(void)
{
    return log_level;
}

int sl_log_level_parse(const char *s)
{
    if (!strcasecmp(s, "debug")) return SL_LOG_DEBUG;
    if (!strcasecmp(s, "info")) return SL_LOG_INFO;
    if (!strcasecmp(s, "warning") || !strcasecmp(s, "warn")) return SL_LOG_WARN;
    if (!strcasecmp(s, "error")) return SL_LOG_ERROR;
    return -1;
}

void sl_log(sl_log_level_t level, const char *module, const char *fmt, ...)
{
    if (level < log_level) return;
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    gmtime_r(&tv.tv_sec, &tm);
    char ts[32];
    strftime(ts, sizeof ts, "%Y-%m-%d %H:%M:%S", &tm);
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&log_lock);
    fprintf(stderr, "%s.%03d UTC %s %s: %s\n", ts, (int)(tv.tv_usec / 1000), level_names[level],
            module, msg);
    fflush(stderr);
    pthread_mutex_unlock(&log_lock);
}
