/* Failpoints: named places in the commit protocol where a test can make the
 * process die as if the machine lost power (`_exit(137)`, no atexit
 * handlers, no stdio flush), to check what a restart finds on disk.
 *
 * A failpoint is armed either by the environment variable
 *     SLUICE_FAILPOINT=name[:count][=segv][,name[:count][=segv]...]
 * read once, at the first failpoint_hit() of the process, or by
 * failpoint_set() (tests that fork a child). `count` is the hit on which the
 * process dies (default 1: the first time the point is reached); with
 * "=segv" the process dies of SIGSEGV instead (raise), as a crash would.
 *
 * Names used by state/ (docs/checkpoints.md lists them all):
 *   offsets.before_rename  offsets.after_rename
 *   commits.before_rename  commits.after_rename
 *   state.before_commit    state.after_commit
 * Other modules (sinks) call failpoint_hit() with their own dotted names;
 * server/pgwire.c hits "pgwire.query" at each simple Query message.
 *
 * This is the one piece of process-wide mutable state in state/: it exists
 * for tests only and costs one relaxed atomic load per hit when nothing is
 * armed. Thread-safe. */
#ifndef SL_FAILPOINT_H
#define SL_FAILPOINT_H

/* Exit code of a process killed by a failpoint (128 + SIGKILL, as a shell
 * reports a kill -9). */
#define FAILPOINT_EXIT_CODE 137

/* Arms failpoints from a spec "name[:count][=segv][,...]", replacing
 * whatever was armed (including what the environment variable said).
 * Returns 0, or -1 when the spec is malformed (then nothing is armed). */
int failpoint_set(const char *spec);

/* Disarms every failpoint. */
void failpoint_clear(void);

/* Marks that the code reached the point `name`; when `name` is armed and
 * this is its count-th hit, logs the name and calls _exit(137) (or raises
 * SIGSEGV, for "=segv"; if a handler returns, so does this). */
void failpoint_hit(const char *name);

/* Number of times `name` was hit while armed (0 when not armed), for tests. */
int failpoint_hits(const char *name);

#endif
