/* Clocks and Spark's timestamp format. */
#include "common/clock.h"

#include <stdio.h>
#include <time.h>

int64_t sl_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t sl_now_ms(void)
{
    return sl_now_us() / 1000;
}

int64_t sl_mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void sl_format_iso_ms(int64_t ms, char out[32])
{
    int64_t secs = ms >= 0 ? ms / 1000 : (ms - 999) / 1000;
    int millis = (int)(ms - secs * 1000);
    time_t t = (time_t)secs;
    struct tm tm;
    gmtime_r(&t, &tm);
    char buf[24];
    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out, 32, "%s.%03dZ", buf, millis);
}

int64_t sl_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
