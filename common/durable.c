/* Durable files (durable.h): crash-safe writes (temp, fsync, rename, fsync
 * dir), whole-file reads, numbered-file listings, tree removal. */
#include "common/durable.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/arena.h"
#include "common/private_file.h"
#include "common/failpoint.h"

#define FW_FLUSH_AT (64 * 1024)

static int io_error(sl_error_t *err, const char *what, const char *path)
{
    int e = errno;
    return sl_error_set(err, SL_ERR_IO_ERROR, "could not %s \"%s\": %s", what, path, strerror(e));
}

char *sl_fs_path(const char *dir, const char *name)
{
    size_t dl = strlen(dir), nl = strlen(name);
    char *p = sl_xmalloc(dl + nl + 2);
    memcpy(p, dir, dl);
    p[dl] = '/';
    memcpy(p + dl + 1, name, nl + 1);
    return p;
}

int sl_fs_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

int sl_fs_mkdirs(const char *path, unsigned mode, sl_error_t *err)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return 0; /* the usual case: one call */
    char *p = sl_xstrdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        if (mkdir(p, (mode_t)mode) < 0 && errno != EEXIST) {
            io_error(err, "create directory", p);
            free(p);
            return -1;
        }
        *s = '/';
    }
    int rc = 0;
    if (mkdir(p, (mode_t)mode) < 0 && errno != EEXIST) rc = io_error(err, "create directory", p);
    free(p);
    return rc;
}

int sl_fs_fsync_dir(const char *dir, sl_error_t *err)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return io_error(err, "open directory", dir);
    int rc = 0;
    if (fsync(fd) < 0 && errno != EINVAL) rc = io_error(err, "fsync directory", dir);
    close(fd);
    return rc;
}

static int rm_dir_entries(const char *path, sl_error_t *err)
{
    DIR *d = opendir(path);
    if (!d) return errno == ENOENT ? 0 : io_error(err, "open directory", path);
    int rc = 0;
    struct dirent *de;
    while (rc == 0 && (de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        char *child = sl_fs_path(path, de->d_name);
        rc = sl_fs_rmtree(child, err);
        free(child);
    }
    closedir(d);
    return rc;
}

int sl_fs_rmtree(const char *path, sl_error_t *err)
{
    struct stat st;
    if (lstat(path, &st) < 0) return errno == ENOENT ? 0 : io_error(err, "stat", path);
    if (!S_ISDIR(st.st_mode)) {
        if (unlink(path) < 0 && errno != ENOENT) return io_error(err, "remove file", path);
        return 0;
    }
    if (rm_dir_entries(path, err) < 0) return -1;
    if (rmdir(path) < 0 && errno != ENOENT) return io_error(err, "remove directory", path);
    return 0;
}

static int is_temp_name(const char *name)
{
    size_t len = strlen(name);
    return name[0] == '.' && len > 5 && !strcmp(name + len - 4, ".tmp");
}

int sl_fs_remove_temps(const char *dir, sl_error_t *err)
{
    DIR *d = opendir(dir);
    if (!d) return errno == ENOENT ? 0 : io_error(err, "open directory", dir);
    int rc = 0;
    struct dirent *de;
    while (rc == 0 && (de = readdir(d))) {
        if (!is_temp_name(de->d_name)) continue;
        char *p = sl_fs_path(dir, de->d_name);
        rc = sl_fs_rmtree(p, err);
        free(p);
    }
    closedir(d);
    return rc;
}

/* ---- crash-safe writer ---- */

static void fw_release(sl_fw_t *w)
{
    if (w->fd >= 0) close(w->fd);
    w->fd = -1;
    free(w->dir);
    free(w->name);
    free(w->tmp);
    w->dir = w->name = w->tmp = NULL;
    sl_buf_free(&w->buf);
}

int sl_fw_open(sl_fw_t *w, const char *dir, const char *name, sl_error_t *err)
{
    memset(w, 0, sizeof *w);
    w->fd = -1;
    uint32_t r = 0;
    if (getrandom(&r, sizeof r, GRND_NONBLOCK) != sizeof r) r ^= (uint32_t)getpid();
    char tmpname[512];
    snprintf(tmpname, sizeof tmpname, ".%s.%08x.tmp", name, (unsigned)r);
    w->dir = sl_xstrdup(dir);
    w->name = sl_xstrdup(name);
    w->tmp = sl_fs_path(dir, tmpname);
    w->fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, SL_PRIVATE_FILE_MODE);
    if (w->fd < 0) {
        io_error(err, "create file", w->tmp);
        fw_release(w);
        return -1;
    }
    return 0;
}

static int fw_flush(sl_fw_t *w, sl_error_t *err)
{
    size_t off = 0;
    while (off < w->buf.len) {
        ssize_t n = failpoint_io("fs.write", w->tmp)
                        ? -1
                        : write(w->fd, w->buf.data + off, w->buf.len - off);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return io_error(err, "write file", w->tmp);
        off += (size_t)n;
    }
    sl_buf_clear(&w->buf);
    return 0;
}

int sl_fw_write(sl_fw_t *w, const void *p, size_t n, sl_error_t *err)
{
    sl_buf_append(&w->buf, p, n);
    w->bytes += n;
    if (w->buf.len >= FW_FLUSH_AT) return fw_flush(w, err);
    return 0;
}

/* Renames the temporary file to its final name, refusing to replace an
 * existing file when `noreplace`. Failpoint "fs.rename" is hit with the
 * final name (the temporary one is random). */
static int fw_rename(sl_fw_t *w, int noreplace, const char *final, sl_error_t *err)
{
    if (failpoint_io("fs.rename", final)) return io_error(err, "rename file", w->tmp);
    if (!noreplace) return rename(w->tmp, final) < 0 ? io_error(err, "rename file", w->tmp) : 0;
    if (renameat2(AT_FDCWD, w->tmp, AT_FDCWD, final, RENAME_NOREPLACE) == 0) return 0;
    if (errno == EINVAL || errno == ENOSYS) { /* file system without RENAME_NOREPLACE */
        if (link(w->tmp, final) == 0) {
            unlink(w->tmp);
            return 0;
        }
    }
    if (errno != EEXIST) return io_error(err, "rename file", w->tmp);
    sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                 "concurrent update to the log: \"%s\" already exists", final);
    sl_error_detail(err, "Another run of this query wrote the same file first.");
    return sl_error_hint(err, "Make sure only one query uses this checkpoint directory.");
}

/* A failed fsync leaves the page cache's state of the file unknown (the
 * kernel may have dropped the dirty pages and cleared the error), so the
 * file is never fsynced again or published: the temporary file is removed
 * and the caller fails; the next attempt writes a new one. */
int sl_fw_sync(sl_fw_t *w, sl_error_t *err)
{
    int rc = fw_flush(w, err);
    if (rc == 0 && (failpoint_io("fs.fsync", w->tmp) || fsync(w->fd) < 0))
        rc = io_error(err, "fsync file", w->tmp);
    if (rc == 0 && close(w->fd) < 0) rc = io_error(err, "close file", w->tmp);
    w->fd = -1;
    if (rc < 0) sl_fw_abort(w);
    return rc;
}

int sl_fw_publish(sl_fw_t *w, int flags, const char *fp_before, const char *fp_after,
                  sl_error_t *err)
{
    char *final = sl_fs_path(w->dir, w->name);
    if (fp_before) failpoint_hit(fp_before);
    int rc = fw_rename(w, flags & SL_FW_NOREPLACE, final, err);
    if (rc == 0) rc = sl_fs_fsync_dir(w->dir, err);
    free(final);
    if (rc < 0) {
        sl_fw_abort(w);
        return -1;
    }
    fw_release(w);
    if (fp_after) failpoint_hit(fp_after);
    return 0;
}

int sl_fw_commit(sl_fw_t *w, int flags, const char *fp_before, const char *fp_after,
                 sl_error_t *err)
{
    if (sl_fw_sync(w, err) < 0) return -1;
    return sl_fw_publish(w, flags, fp_before, fp_after, err);
}

void sl_fw_abort(sl_fw_t *w)
{
    if (w->tmp) unlink(w->tmp);
    fw_release(w);
}

int sl_fs_write_file(const char *dir, const char *name, const void *p, size_t n, int flags,
                     const char *fp_before, const char *fp_after, sl_error_t *err)
{
    sl_fw_t w;
    if (sl_fw_open(&w, dir, name, err) < 0) return -1;
    if (sl_fw_write(&w, p, n, err) < 0) {
        sl_fw_abort(&w);
        return -1;
    }
    return sl_fw_commit(&w, flags, fp_before, fp_after, err);
}

int sl_fs_read_file(const char *path, sl_buf_t *out, sl_error_t *err)
{
    sl_buf_clear(out);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? 0 : io_error(err, "open file", path);
    struct stat st;
    size_t want = fstat(fd, &st) == 0 && st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
    for (;;) {
        if (out->len + 1 >= out->cap) sl_buf_reserve(out, want);
        ssize_t n = read(fd, out->data + out->len, out->cap - out->len - 1);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            io_error(err, "read file", path);
            close(fd);
            return -1;
        }
        if (n == 0) break;
        out->len += (size_t)n;
        want = 4096; /* the file grew while being read */
    }
    out->data[out->len] = '\0';
    close(fd);
    return 1;
}

/* ---- numbered files ---- */

int64_t sl_fs_parse_id(const char *s, size_t len)
{
    if (len == 0 || len > 18 || (len > 1 && s[0] == '0')) return -1;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

static int cmp_id(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int sl_fs_list_ids(const char *dir, const char *suffix, int64_t **ids, sl_error_t *err)
{
    *ids = NULL;
    DIR *d = opendir(dir);
    if (!d) return errno == ENOENT ? 0 : io_error(err, "open directory", dir);
    size_t sl = strlen(suffix), n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len <= sl || memcmp(de->d_name + len - sl, suffix, sl)) continue;
        int64_t id = sl_fs_parse_id(de->d_name, len - sl);
        if (id < 0) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            *ids = sl_xrealloc(*ids, cap * sizeof **ids);
        }
        (*ids)[n++] = id;
    }
    closedir(d);
    if (n) qsort(*ids, n, sizeof **ids, cmp_id);
    return (int)n;
}
