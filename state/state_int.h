/* Internal helpers of state/ (not for other modules): crash-safe file
 * writing, directory listing of numbered files, CRC-32C, and the json4s
 * compact string quoting the checkpoint formats need.
 *
 * The durability rule every writer here follows: write a temporary file in
 * the same directory, fsync it, rename it over the final name, fsync the
 * directory. A reader therefore sees either the old state or the whole new
 * file, never a prefix of it. Temporary files start with '.' and end in
 * ".tmp", so listings of numbered files skip them. */
#ifndef SL_STATE_INT_H
#define SL_STATE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"
#include "common/sl_error.h"

/* Creates `path` and its missing parents (mode 0755). */
int state_mkdirs(const char *path, sl_error_t *err);
/* fsyncs a directory so that renames and unlinks in it are durable. */
int state_fsync_dir(const char *dir, sl_error_t *err);
/* Removes a file or a whole directory tree; a missing path is not an error. */
int state_rmtree(const char *path, sl_error_t *err);
/* 1 when `path` exists (any type), else 0. */
int state_exists(const char *path);
/* Removes temporary files (".<name>.<hex>.tmp") an interrupted write left in `dir`. */
int state_remove_temps(const char *dir, sl_error_t *err);
/* Joins "dir/name" into a malloc'd string. */
char *state_path(const char *dir, const char *name);

/* A file being written crash-safely; see the rule above. */
typedef struct state_fw {
    int fd;         /* the temporary file, -1 when closed */
    char *dir;      /* directory of both names */
    char *name;     /* final name inside dir */
    char *tmp;      /* temporary name inside dir */
    sl_buf_t buf;   /* bytes not yet written to fd */
    uint64_t bytes; /* total bytes written so far */
} state_fw_t;

/* Flags of state_fw_commit / state_write_file. */
#define STATE_FW_NOREPLACE 1 /* fail with 55000 "concurrent update" if the name exists */

/* Opens a temporary file for `dir`/`name`. */
int state_fw_open(state_fw_t *w, const char *dir, const char *name, sl_error_t *err);
/* Appends bytes (buffered). */
int state_fw_write(state_fw_t *w, const void *p, size_t n, sl_error_t *err);
/* Flushes, fsyncs, hits failpoint `fp_before` (may be NULL), renames to the
 * final name, fsyncs the directory, hits `fp_after`. Always releases `w`. */
int state_fw_commit(state_fw_t *w, int flags, const char *fp_before, const char *fp_after,
                    sl_error_t *err);
/* The two halves of state_fw_commit, for a caller that overlaps the fsync
 * of the temporary file with other work: sync flushes, fsyncs and closes it
 * (nothing is visible yet); publish hits `fp_before`, renames, fsyncs the
 * directory, hits `fp_after`. Each releases `w` when it fails; publish
 * always does. */
int state_fw_sync(state_fw_t *w, sl_error_t *err);
int state_fw_publish(state_fw_t *w, int flags, const char *fp_before, const char *fp_after,
                     sl_error_t *err);
/* Drops the temporary file and releases `w` (safe after a failed call). */
void state_fw_abort(state_fw_t *w);

/* One-shot crash-safe write of a whole file (state_fw_* in one call). */
int state_write_file(const char *dir, const char *name, const void *p, size_t n, int flags,
                     const char *fp_before, const char *fp_after, sl_error_t *err);

/* Reads a whole file into `out` (replacing its contents). Returns 1, 0 when
 * the file does not exist, -1 on another error. */
int state_read_file(const char *path, sl_buf_t *out, sl_error_t *err);

/* Lists files (or directories) of `dir` named "<decimal id><suffix>"
 * (suffix "" for logs), ids in canonical decimal without leading zeros;
 * other names are ignored. Sorted ascending into a malloc'd array that the
 * caller frees. Returns the count (0 when `dir` is missing) or -1. */
int state_list_ids(const char *dir, const char *suffix, int64_t **ids, sl_error_t *err);

/* Parses a canonical non-negative decimal id of `len` bytes; -1 if not one. */
int64_t state_parse_id(const char *s, size_t len);

/* CRC-32C (Castagnoli) of `n` bytes, continuing from `crc` (start with 0). */
uint32_t state_crc32c(uint32_t crc, const void *p, size_t n);

/* Appends `s` (UTF-8) as a JSON string the way json4s's compact printer
 * does: \" \\ \b \f \n \r \t, other controls and U+0080..U+009F,
 * U+2000..U+20FF as \uXXXX (lowercase hex); everything else verbatim. */
void state_json_quote(sl_buf_t *b, const char *s);

/* Monotonic clock in nanoseconds (for metrics). */
int64_t state_now_ns(void);

#endif
