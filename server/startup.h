/* The startup file (config key startup_file): SQL run once when the daemon
 * starts, through an ordinary session; each statement's outcome is logged. */
#ifndef SL_STARTUP_H
#define SL_STARTUP_H

#include "server/server.h"

/* Reads `path` and submits it; returns at once (the work runs on the pool). */
void startup_run_file(srv_t *srv, const char *path);

#endif
