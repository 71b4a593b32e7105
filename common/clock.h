/* Clocks: wall time for timestamps (batchTimestampMs, progress) and a
 * monotonic clock for durations and timers. */
#ifndef SL_CLOCK_H
#define SL_CLOCK_H

#include <stdint.h>

/* Milliseconds / microseconds since the Unix epoch (wall clock). */
int64_t sl_now_ms(void);
int64_t sl_now_us(void);
/* Milliseconds of a monotonic clock (for measuring durations). */
int64_t sl_mono_ms(void);
/* Nanoseconds of the same clock (metrics of short operations). */
int64_t sl_mono_ns(void);
/* Formats epoch milliseconds as Spark does: 2016-12-05T20:54:20.827Z (24 bytes + NUL). */
void sl_format_iso_ms(int64_t ms, char out[32]);

#endif
