/* Durable files: the one library every layer writes files through (the
 * checkpoint logs and stores, the connectors' sinks and source logs, the
 * daemon's data directory).
 *
 * The durability rule every writer follows: write a temporary file in the
 * same directory, fsync it, rename it over the final name, fsync the
 * directory. A reader therefore sees either the old content or the whole new
 * file, never a prefix of it. Temporary files start with '.' and end in
 * ".tmp", so listings of numbered files skip them and openers may delete
 * them. Failpoints "fs.write", "fs.fsync" and "fs.rename" (common/failpoint.h)
 * make each step fail with EIO/ENOSPC in tests. */
#ifndef SL_DURABLE_H
#define SL_DURABLE_H

#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"
#include "common/sl_error.h"

/* Creates `path` and its missing parents with `mode` (SL_PRIVATE_DIR_MODE
 * for the daemon's own files, 0755 for a sink's output). */
int sl_fs_mkdirs(const char *path, unsigned mode, sl_error_t *err);
/* fsyncs a directory so that renames and unlinks in it are durable. */
int sl_fs_fsync_dir(const char *dir, sl_error_t *err);
/* Removes a file or a whole directory tree; a missing path is not an error. */
int sl_fs_rmtree(const char *path, sl_error_t *err);
/* 1 when `path` exists (any type), else 0. */
int sl_fs_exists(const char *path);
/* Removes temporary files (".<name>.<hex>.tmp") an interrupted write left in `dir`. */
int sl_fs_remove_temps(const char *dir, sl_error_t *err);
/* Joins "dir/name" into a malloc'd string. */
char *sl_fs_path(const char *dir, const char *name);

/* A file being written crash-safely; see the rule above. */
typedef struct sl_fw {
    int fd;         /* the temporary file, -1 when closed */
    char *dir;      /* directory of both names */
    char *name;     /* final name inside dir */
    char *tmp;      /* temporary name inside dir */
    sl_buf_t buf;   /* bytes not yet written to fd */
    uint64_t bytes; /* total bytes written so far */
} sl_fw_t;

/* Flags of sl_fw_commit / sl_fs_write_file. */
#define SL_FW_NOREPLACE 1 /* fail with 55000 "concurrent update" if the name exists */

/* Opens a temporary file for `dir`/`name`. */
int sl_fw_open(sl_fw_t *w, const char *dir, const char *name, sl_error_t *err);
/* Appends bytes (buffered). */
int sl_fw_write(sl_fw_t *w, const void *p, size_t n, sl_error_t *err);
/* Flushes, fsyncs, hits failpoint `fp_before` (may be NULL), renames to the
 * final name, fsyncs the directory, hits `fp_after`. Always releases `w`. */
int sl_fw_commit(sl_fw_t *w, int flags, const char *fp_before, const char *fp_after,
                 sl_error_t *err);
/* The two halves of sl_fw_commit, for a caller that overlaps the fsync
 * of the temporary file with other work: sync flushes, fsyncs and closes it
 * (nothing is visible yet); publish hits `fp_before`, renames, fsyncs the
 * directory, hits `fp_after`. Each releases `w` when it fails; publish
 * always does. */
int sl_fw_sync(sl_fw_t *w, sl_error_t *err);
int sl_fw_publish(sl_fw_t *w, int flags, const char *fp_before, const char *fp_after,
                  sl_error_t *err);
/* Drops the temporary file and releases `w` (safe after a failed call). */
void sl_fw_abort(sl_fw_t *w);

/* One-shot crash-safe write of a whole file (sl_fw_* in one call). */
int sl_fs_write_file(const char *dir, const char *name, const void *p, size_t n, int flags,
                     const char *fp_before, const char *fp_after, sl_error_t *err);

/* Reads a whole file into `out` (replacing its contents). Returns 1, 0 when
 * the file does not exist, -1 on another error. */
int sl_fs_read_file(const char *path, sl_buf_t *out, sl_error_t *err);

/* Lists files (or directories) of `dir` named "<decimal id><suffix>"
 * (suffix "" for logs), ids in canonical decimal without leading zeros;
 * other names are ignored. Sorted ascending into a malloc'd array that the
 * caller frees. Returns the count (0 when `dir` is missing) or -1. */
int sl_fs_list_ids(const char *dir, const char *suffix, int64_t **ids, sl_error_t *err);

/* Parses a canonical non-negative decimal id of `len` bytes; -1 if not one. */
int64_t sl_fs_parse_id(const char *s, size_t len);

#endif
