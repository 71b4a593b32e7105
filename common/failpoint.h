/* Failpoints: named places in the commit protocol where a test can make the
 * process die as if the machine lost power (`_exit(137)`, no atexit
 * handlers, no stdio flush), to check what a restart finds on disk, and
 * guarded I/O calls that a test can make fail with EIO or ENOSPC, as a bad
 * or full disk would, to check that the query fails with the cause.
 *
 * A failpoint is armed either by the environment variable
 *     SLUICE_FAILPOINT=name[:count][=kind][@text][,...]
 * read once, at the first hit of the process, or by failpoint_set() (tests
 * that fork a child). `count` is the hit on which the point fires (default
 * 1: the first time it is reached). `kind` is what happens then:
 *   (none)   the process exits with status 137;
 *   segv     it dies of SIGSEGV instead (raise), as a crash would;
 *   eio      the guarded call fails with EIO instead of doing its work,
 *   enospc   or with ENOSPC; an error failpoint keeps failing every later
 *            hit too (a full disk stays full) until it is disarmed.
 * "@text" restricts the point to the files whose path contains `text`
 * (e.g. "fs.fsync=eio@/commits/"); points without a file never match it.
 * Error kinds only fire at failpoint_io() calls; failpoint_hit() ignores them.
 *
 * Names used by state/ (docs/checkpoints.md lists them all):
 *   offsets.before_rename  offsets.after_rename
 *   commits.before_rename  commits.after_rename
 *   state.before_commit    state.after_commit
 * Other modules (sinks) call failpoint_hit() with their own dotted names;
 * server/pgwire.c hits "pgwire.query" at each simple Query message.
 *
 * I/O points (failpoint_io), each hit with the file's path:
 *   fs.write  fs.fsync  fs.rename   every crash-safe write of state/ and
 *                                   connectors/ (logs, state files, the file
 *                                   sink's data files and manifests)
 *   rocksdb.write  rocksdb.checkpoint   the RocksDB state store's write
 *                                   batch and checkpoint (path: its directory)
 *
 * This is the one piece of process-wide mutable state in state/: it exists
 * for tests only and costs one relaxed atomic load per hit when nothing is
 * armed. Thread-safe. */
#ifndef SL_FAILPOINT_H
#define SL_FAILPOINT_H

/* Exit code of a process killed by a failpoint (128 + SIGKILL, as a shell
 * reports a kill -9). */
#define FAILPOINT_EXIT_CODE 137

/* Arms failpoints from a spec "name[:count][=kind][@text][,...]", replacing
 * whatever was armed (including what the environment variable said).
 * Returns 0, or -1 when the spec is malformed (then nothing is armed). */
int failpoint_set(const char *spec);

/* Disarms every failpoint. */
void failpoint_clear(void);

/* Marks that the code reached the point `name`; when `name` is armed and
 * this is its count-th hit, logs the name and calls _exit(137) (or raises
 * SIGSEGV, for "=segv"; if a handler returns, so does this). */
void failpoint_hit(const char *name);

/* Marks that the code is about to make I/O call `name` on `path`. Returns 0
 * when the call should go ahead, or the errno (EIO, ENOSPC) of an armed
 * error failpoint, also stored in errno, after logging the name, path and
 * cause; the caller then reports the failure as if the call had returned it.
 * A crash kind armed on `name` kills the process here as failpoint_hit does. */
int failpoint_io(const char *name, const char *path);

/* Number of times `name` was hit while armed (0 when not armed), for tests. */
int failpoint_hits(const char *name);

#endif
