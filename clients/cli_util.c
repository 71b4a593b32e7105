/* clients/cli_util.c — psql-style message logging for the CLI
 * ("sluice:script.sql:3: error: ..."). */
#include "clients/cli.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- logging ------------------------------------------------------------------------- */

static struct {
    const char *file;   /* locus: script name or NULL */
    unsigned long line; /* locus: line within file */
    bool terse;         /* no program name, no level label */
} log_state;

void cli_log_set_locus(const char *file, unsigned long line)
{
    log_state.file = file;
    log_state.line = line;
}

void cli_log_set_terse(bool terse)
{
    log_state.terse = terse;
}

static void log_prefix(cli_log_level_t level)
{
    if (!log_state.terse || log_state.file) {
        if (!log_state.terse) fputs("sluice:", stderr);
        if (log_state.file) {
            fprintf(stderr, "%s:", log_state.file);
            if (log_state.line > 0) fprintf(stderr, "%lu:", log_state.line);
        }
        fputc(' ', stderr);
    }
    if (log_state.terse) return;
    if (level == CLI_LOG_ERROR) fputs("error: ", stderr);
    else if (level == CLI_LOG_WARNING) fputs("warning: ", stderr);
    else if (level == CLI_LOG_HINT) fputs("hint: ", stderr);
}

void cli_log(cli_log_level_t level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    char *text = sl_xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    if (n > 0 && text[n - 1] == '\n') text[n - 1] = '\0';
    fflush(stdout);
    log_prefix(level);
    fprintf(stderr, "%s\n", text);
    free(text);
}
