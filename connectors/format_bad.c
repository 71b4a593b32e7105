/* The bad-records file of a source (badRecordsPath): one JSON line per
 * malformed record appended to <dir>/<name>, rotated by size as logrotate
 * and log4j's RollingFileAppender do.
 *
 * Rotation. Before a record is appended, when the file is not empty and the
 * record would take it past max_bytes, the file is rotated: <name>.N (N =
 * max_files) is deleted, <name>.k renamed <name>.k+1 for k = N-1 .. 1, and
 * <name> renamed <name>.1 (deleted when N is 0); the record then goes to a
 * new, empty <name>. So a file holds more than max_bytes only when a single
 * record is longer than that, and a source's files take at most
 * (N + 1) x max_bytes. Numbers above N, left by a larger max_files, are
 * deleted at the next rotation (up to the first number missing).
 *
 * No record is dropped silently: it is written after the rotation has
 * succeeded, and a failed rotation or write fails the call (the read fails;
 * the batch is read again after a restart). A crash in the middle of a
 * rotation leaves a missing number among the old files, which later
 * rotations move up and out. The size of the current file is read from it
 * when it is opened (at the first record, and again after a failure), so
 * the bound holds across restarts and a lowered max_bytes applies at once.
 *
 * Thread-safe: the concurrent readers of a source's splits share one
 * writer; a mutex orders appends and rotations (one write call per record). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/durable.h"
#include "common/json_write.h"
#include "connectors/conn_int.h"
#include "connectors/format.h"

struct format_bad_records {
    pthread_mutex_t mu; /* guards every field below */
    char *dir;
    char *path;        /* <dir>/<name> */
    char *from, *to;   /* scratch for the numbered names <path>.<k> */
    size_t name_cap;   /* bytes of each scratch buffer */
    int64_t max_bytes; /* > 0 */
    int max_files;     /* old files kept, >= 0 */
    int fd;            /* the current file; -1 until a record, and after a failure */
    int64_t size;      /* bytes in the current file */
    int64_t written;   /* bytes this writer appended (progress) */
    int64_t rotations; /* rotations this writer made (progress) */
};

format_bad_records_t *format_bad_records_open(const char *dir, const char *file_name,
                                              int64_t max_bytes, int max_files)
{
    format_bad_records_t *b = sl_xcalloc(1, sizeof *b);
    pthread_mutex_init(&b->mu, NULL);
    b->dir = sl_xstrdup(dir);
    b->path = sl_xmalloc(strlen(dir) + strlen(file_name) + 2);
    sprintf(b->path, "%s/%s", dir, file_name);
    b->name_cap = strlen(b->path) + 16; /* ".<k>" with k an int */
    b->from = sl_xmalloc(b->name_cap);
    b->to = sl_xmalloc(b->name_cap);
    b->max_bytes = max_bytes;
    b->max_files = max_files;
    b->fd = -1;
    return b;
}

/* <path>.<k> in `buf` (one of b->from, b->to). */
static char *numbered(const format_bad_records_t *b, char *buf, int k)
{
    snprintf(buf, b->name_cap, "%s.%d", b->path, k);
    return buf;
}

/* Opens the current file when it is not open, reading its size. */
static int open_current(format_bad_records_t *b, sl_error_t *err)
{
    if (b->fd >= 0) return 0;
    if (sl_fs_mkdirs(b->dir, 0755, err) < 0) return -1;
    struct stat st;
    b->fd = open(b->path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (b->fd >= 0 && fstat(b->fd, &st) == 0) {
        b->size = st.st_size;
        return 0;
    }
    int rc = conn_io_error(err, "open bad records file", b->path);
    if (b->fd >= 0) close(b->fd);
    b->fd = -1;
    return rc;
}

/* Deletes <path>.k, <path>.k+1, ... up to the first that is missing. */
static int remove_from(format_bad_records_t *b, int k)
{
    for (;; k++)
        if (unlink(numbered(b, b->from, k)) < 0) return errno == ENOENT ? 0 : -1;
}

/* Renames `from` to `to`; a missing `from` is not an error. */
static int shift(const char *from, const char *to)
{
    return rename(from, to) == 0 || errno == ENOENT ? 0 : -1;
}

/* Deletes `path`; a missing one is not an error. */
static int drop(const char *path)
{
    return unlink(path) == 0 || errno == ENOENT ? 0 : -1;
}

/* Moves the current file to <path>.1 (the older ones one number up) and
 * opens a new one. On failure b->from names the file that could not be
 * moved or deleted. */
static int rotate_files(format_bad_records_t *b)
{
    int n = b->max_files;
    if (remove_from(b, n > 0 ? n : 1) < 0) return -1;
    for (int k = n - 1; k >= 1; k--)
        if (shift(numbered(b, b->from, k), numbered(b, b->to, k + 1)) < 0) return -1;
    strcpy(b->from, b->path);
    return n > 0 ? shift(b->path, numbered(b, b->to, 1)) : drop(b->path);
}

static int rotate(format_bad_records_t *b, sl_error_t *err)
{
    close(b->fd);
    b->fd = -1;
    if (rotate_files(b) < 0) return conn_io_error(err, "rotate bad records file", b->from);
    b->rotations++;
    return open_current(b, err);
}

/* One write of the whole line; a short write counts as a full disk. */
static int append(format_bad_records_t *b, const sl_buf_t *line, sl_error_t *err)
{
    ssize_t w = write(b->fd, line->data, line->len);
    if (w == (ssize_t)line->len) {
        b->size += (int64_t)line->len;
        b->written += (int64_t)line->len;
        return 0;
    }
    if (w >= 0) errno = ENOSPC;
    int rc = conn_io_error(err, "write bad records file", b->path);
    close(b->fd); /* the size is read again at the next record */
    b->fd = -1;
    return rc;
}

int format_bad_records_write(format_bad_records_t *b, const format_pos_t *pos, const char *rec,
                             size_t n, const char *reason, sl_error_t *err)
{
    sl_buf_t line = SL_BUF_INIT;
    sl_json_t j;
    sl_json_init(&j, &line, false);
    sl_json_object_begin(&j);
    sl_json_kv_string(&j, "path", pos->name);
    sl_json_kv_int(&j, pos->unit, pos->at);
    sl_json_key(&j, "record");
    sl_json_string_n(&j, rec, n);
    sl_json_kv_string(&j, "reason", reason);
    sl_json_object_end(&j);
    sl_buf_putc(&line, '\n');
    pthread_mutex_lock(&b->mu);
    int rc = open_current(b, err);
    if (rc == 0 && b->size > 0 && b->size + (int64_t)line.len > b->max_bytes) rc = rotate(b, err);
    if (rc == 0) rc = append(b, &line, err);
    pthread_mutex_unlock(&b->mu);
    sl_buf_free(&line);
    return rc;
}

void format_bad_records_metrics(format_bad_records_t *b, sl_buf_t *out)
{
    if (!b) return;
    pthread_mutex_lock(&b->mu);
    long long written = b->written, rotations = b->rotations;
    pthread_mutex_unlock(&b->mu);
    if (!written) return;
    sl_buf_printf(out, "%s\"badRecordsBytesWritten\":\"%lld\",\"badRecordsFilesRotated\":\"%lld\"",
                  out->len ? "," : "", written, rotations);
}

void format_bad_records_close(format_bad_records_t *b)
{
    if (!b) return;
    if (b->fd >= 0) close(b->fd);
    pthread_mutex_destroy(&b->mu);
    free(b->dir);
    free(b->path);
    free(b->from);
    free(b->to);
    free(b);
}
