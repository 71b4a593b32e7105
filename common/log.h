/* Logging: one line per event on stderr,
 *   2026-11-29 15:44:49.123 UTC INFO  pgwire: listening addr=127.0.0.1 port=5433
 * timestamp, level, module, then a message whose variable parts are written as
 * key=value so that scripts (and the tests) can grep them. Thread-safe. */
#ifndef SL_LOG_H
#define SL_LOG_H

typedef enum { SL_LOG_DEBUG, SL_LOG_INFO, SL_LOG_WARN, SL_LOG_ERROR, SL_LOG_FATAL } sl_log_level_t;

/* Lines below `level` are dropped. */
void sl_log_set_level(sl_log_level_t level);
sl_log_level_t sl_log_get_level(void);
/* Parses "debug", "info", "warning"/"warn", "error"; -1 when unknown. */
int sl_log_level_parse(const char *s);
void sl_log(sl_log_level_t level, const char *module, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define SL_DEBUG(mod, ...) sl_log(SL_LOG_DEBUG, mod, __VA_ARGS__)
#define SL_INFO(mod, ...) sl_log(SL_LOG_INFO, mod, __VA_ARGS__)
#define SL_WARN(mod, ...) sl_log(SL_LOG_WARN, mod, __VA_ARGS__)
#define SL_ERROR(mod, ...) sl_log(SL_LOG_ERROR, mod, __VA_ARGS__)

#endif
