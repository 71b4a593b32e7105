/* The file sink: exactly-once JSON or CSV files, Spark's FileStreamSink
 * with its log renamed _sluice_metadata.
 *
 * Batch N writes its rows into data files with deterministic names,
 * `part-<N>-<seq>.<json|csv>` (N and seq zero-padded to five digits; a new
 * file every FILE_SINK_ROLL_BYTES), each written under its final name (the
 * manifest, not a rename, makes it visible: as Spark's, a torn file of a
 * crashed attempt is listed nowhere). Then, at the same time on the I/O
 * pool, every data file and the directory are fsynced and the manifest
 * `<path>/_sluice_metadata/<N>` is written to a temporary file and fsynced
 * — all while the batch's write-ahead records are made durable — and once
 * they are (sink_await_ahead) the manifest is renamed into place and its
 * directory fsynced. The manifest has the format of Spark's
 * FileStreamSinkLog: "v1" then one JSON line per file
 *   {"path":"file:///...","size":..,"isDir":false,"modificationTime":..,
 *    "blockReplication":1,"blockSize":33554432,"action":"add"}
 * Every 10th batch ((N + 1) % 10 == 0) the manifest is written as
 * `N.compact` holding every entry so far, as Spark compacts its log;
 * readers take the newest compaction and the deltas after it.
 *
 * The manifest is the commit: files not in it are not part of the output
 * (format_read_path reads only what it lists). add_batch(N) when the
 * manifest of N exists (or a later one) logs "skipping already committed
 * batch N" and writes nothing; the first add_batch of a sink (the batch a
 * restart may replay) removes the data files an unfinished attempt of N
 * left, then writes them again under the same names.
 * Failpoints: sink.file.staged (data files and the manifest's temporary
 * file durable; the write-ahead may still be in flight),
 * sink.file.before_manifest, sink.file.after_manifest. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/log.h"
#include "connectors/conn_int.h"
#include "connectors/format.h"
#include "common/pool.h"
#include "common/failpoint.h"

#define FILE_SINK_META "_sluice_metadata"
#define FILE_SINK_ROLL_BYTES (128u << 20)
#define FILE_SINK_FLUSH_BYTES (1u << 20)
#define FILE_SINK_COMPACT_INTERVAL 10
/* What Hadoop's local file system reports as a file's block size. */
#define FILE_SINK_BLOCK_SIZE 33554432

typedef struct file_sink {
    char *path; /* output directory, absolute */
    char *meta; /* path/_sluice_metadata */
    format_encoder_t enc;
    bool header;
    const char *ext; /* "json" or "csv" */
    int64_t latest;  /* newest committed batch, -1 */
    bool cleaned;    /* an earlier attempt's files are gone (first add_batch) */
    exec_pool_t *io; /* where the fsyncs of a batch run together (NULL: in turn) */
} file_sink_t;

/* One data file being written. */
typedef struct part {
    int fd;        /* -1 when none is open */
    char name[64]; /* its name inside the output directory */
    uint64_t bytes;
} part_t;

/* ---- options -------------------------------------------------------------- */

static int sink_options(const conn_kv_t *o, int n, format_kind_t *kind, bool *header,
                        sl_error_t *err)
{
    static const char *const kinds[] = {"json", "csv", NULL};
    int k = 0;
    *header = false;
    if (conn_opt_choice(NULL, o, n, "format", kinds, &k, err) < 0 ||
        conn_opt_bool(NULL, o, n, "header", header, err) < 0)
        return -1;
    const char *path = conn_option(NULL, o, n, "path");
    if (path && !*path) return conn_bad_option(err, "path", path, "It must name a directory.");
    *kind = k == 1 ? FORMAT_CSV : FORMAT_JSON;
    return 0;
}

int sink_file_validate(const conn_desc_t *desc, output_mode_t mode, const sink_schema_t *schema,
                       const conn_kv_t *opts, int nopts, sl_error_t *err)
{
    (void)schema;
    format_kind_t kind;
    bool header;
    if (conn_check_mode(desc, mode, err) < 0) return -1;
    return sink_options(opts, nopts, &kind, &header, err);
}

/* ---- the manifest ---------------------------------------------------------- */

/* Newest committed batch id of the manifest directory, -1 when none. */
static int manifest_latest(const char *meta, int64_t *out, sl_error_t *err)
{
    conn_log_file_t *files;
    int n = conn_log_list(meta, &files, err);
    if (n < 0) return -1;
    *out = n ? files[n - 1].id : -1;
    free(files);
    return 0;
}

static bool manifest_has(const file_sink_t *f, int64_t id)
{
    char p[PATH_MAX];
    struct stat st;
    snprintf(p, sizeof p, "%s/%lld", f->meta, (long long)id);
    if (stat(p, &st) == 0) return true;
    snprintf(p, sizeof p, "%s/%lld.compact", f->meta, (long long)id);
    return stat(p, &st) == 0;
}

/* Appends the entry lines (with a leading newline each) of the manifest
 * as it stands before batch `id`: the newest compaction and the later deltas. */
static int manifest_lines(const file_sink_t *f, int64_t id, sl_buf_t *out, sl_error_t *err)
{
    conn_log_file_t *files;
    int n = conn_log_list(f->meta, &files, err), first = 0;
    if (n < 0) return -1;
    for (int i = 0; i < n; i++)
        if (files[i].compact && files[i].id < id) first = i;
    sl_buf_t text = SL_BUF_INIT;
    int rc = 0;
    char p[PATH_MAX];
    for (int i = first; i < n && rc == 0 && files[i].id < id; i++) {
        snprintf(p, sizeof p, "%s/%lld%s", f->meta, (long long)files[i].id,
                 files[i].compact ? ".compact" : "");
        rc = sl_fs_read_file(p, &text, err);
        if (rc > 0 && strncmp(text.data, "v1", 2))
            rc = sl_error_set(err, SL_ERR_IO_ERROR, "malformed manifest file \"%s\"", p);
        else if (rc > 0) sl_buf_append(out, text.data + 2, text.len - 2);
        rc = rc < 0 ? -1 : 0;
    }
    sl_buf_free(&text);
    free(files);
    return rc;
}

static void manifest_entry(const file_sink_t *f, const char *name, sl_buf_t *out)
{
    struct stat st;
    sl_buf_t path = SL_BUF_INIT;
    sl_buf_printf(&path, "%s/%s", f->path, name);
    if (stat(path.data, &st) < 0) memset(&st, 0, sizeof st);
    sl_buf_puts(out, "\n{\"path\":\"");
    conn_file_uri(out, path.data);
    sl_buf_printf(out,
                  "\",\"size\":%lld,\"isDir\":false,\"modificationTime\":%lld,"
                  "\"blockReplication\":1,\"blockSize\":%d,\"action\":\"add\"}",
                  (long long)st.st_size, (long long)conn_mtime_ms(&st), FILE_SINK_BLOCK_SIZE);
    sl_buf_free(&path);
}

/* The manifest of batch `id` (text and file name), listing `nfiles` data files. */
static int manifest_text(const file_sink_t *f, int64_t id, const part_t *files, int nfiles,
                         sl_buf_t *b, char name[40], sl_error_t *err)
{
    bool compact = (id + 1) % FILE_SINK_COMPACT_INTERVAL == 0;
    sl_buf_puts(b, "v1");
    int rc = compact ? manifest_lines(f, id, b, err) : 0;
    for (int i = 0; i < nfiles && rc == 0; i++) manifest_entry(f, files[i].name, b);
    snprintf(name, 40, "%lld%s", (long long)id, compact ? ".compact" : "");
    return rc;
}

/* ---- data files ------------------------------------------------------------ */

/* Removes the data files an unfinished attempt of batch `id` left. */
static int remove_attempt(const file_sink_t *f, int64_t id, sl_error_t *err)
{
    char prefix[48];
    snprintf(prefix, sizeof prefix, "part-%05lld-", (long long)id);
    DIR *d = opendir(f->path);
    if (!d) return conn_io_error(err, "list directory", f->path);
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) && rc == 0) {
        if (strncmp(e->d_name, prefix, strlen(prefix))) continue;
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", f->path, e->d_name);
        if (unlink(p) < 0 && errno != ENOENT) rc = conn_io_error(err, "remove file", p);
    }
    closedir(d);
    return rc;
}

static int part_open(const file_sink_t *f, int64_t id, int seq, part_t *p, sl_buf_t *buf,
                     sl_error_t *err)
{
    snprintf(p->name, sizeof p->name, "part-%05lld-%05d.%s", (long long)id, seq, f->ext);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", f->path, p->name);
    p->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    p->bytes = 0;
    if (p->fd < 0) return conn_io_error(err, "create file", path);
    if (f->header) format_encode_header(&f->enc, buf);
    return 0;
}

/* The full path of part `p` of `f`, into `path`. */
static const char *part_path(const file_sink_t *f, const part_t *p, char path[PATH_MAX])
{
    snprintf(path, PATH_MAX, "%s/%s", f->path, p->name);
    return path;
}

static int part_flush(const file_sink_t *f, part_t *p, sl_buf_t *buf, sl_error_t *err)
{
    char path[PATH_MAX];
    part_path(f, p, path);
    size_t off = 0;
    while (off < buf->len) {
        ssize_t w =
            failpoint_io("fs.write", path) ? -1 : write(p->fd, buf->data + off, buf->len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) return conn_io_error(err, "write file", path);
        off += (size_t)w;
    }
    p->bytes += buf->len;
    sl_buf_clear(buf);
    return 0;
}

/* The writing state of one add_batch. Finished parts stay open until
 * their fsync (sync_outputs). */
typedef struct writer {
    const file_sink_t *f;
    int64_t id;
    part_t part;
    sl_buf_t buf;
    part_t *done; /* finished files (heap) */
    int nfiles;
} writer_t;

/* Flushes the current part and moves it to the finished ones. */
static int writer_end_part(writer_t *w, sl_error_t *err)
{
    int rc = part_flush(w->f, &w->part, &w->buf, err);
    w->done[w->nfiles++] = w->part;
    w->part.fd = -1;
    return rc;
}

static int writer_row(writer_t *w, const exec_batch_t *b, uint32_t row, sl_error_t *err)
{
    if (w->part.fd < 0) {
        w->done = sl_xrealloc(w->done, sizeof *w->done * (size_t)(w->nfiles + 1));
        if (part_open(w->f, w->id, w->nfiles, &w->part, &w->buf, err) < 0) return -1;
    }
    format_encode_row(&w->f->enc, b, row, &w->buf);
    if (w->buf.len < FILE_SINK_FLUSH_BYTES) return 0;
    if (part_flush(w->f, &w->part, &w->buf, err) < 0) return -1;
    if (w->part.bytes < FILE_SINK_ROLL_BYTES) return 0;
    return writer_end_part(w, err);
}

static int write_rows(writer_t *w, exec_batch_t *const *batches, int n, int64_t *rows,
                      sl_error_t *err)
{
    *rows = 0;
    for (int i = 0; i < n; i++) {
        uint32_t count = exec_batch_count(batches[i]);
        for (uint32_t k = 0; k < count; k++)
            if (writer_row(w, batches[i], exec_batch_row(batches[i], k), err) < 0) return -1;
        *rows += count;
    }
    return w->part.fd >= 0 ? writer_end_part(w, err) : 0;
}

static void writer_free(writer_t *w)
{
    if (w->part.fd >= 0) close(w->part.fd);
    for (int i = 0; i < w->nfiles; i++)
        if (w->done[i].fd >= 0) close(w->done[i].fd);
    free(w->done);
    sl_buf_free(&w->buf);
}

/* What must be durable before the manifest is renamed into place: every
 * data file, the output directory, the manifest's temporary file. None
 * depends on another, so each is a task on the I/O pool and the disk
 * flushes overlap. */
typedef struct sync_job {
    writer_t *w;
    const sl_buf_t *manifest;
    const char *manifest_name;
    sl_fw_t *staged; /* the manifest's temporary file, published by file_add */
    int *rcs;
    sl_error_t *errs;
} sync_job_t;

static void sync_task(void *arg, int i)
{
    sync_job_t *j = arg;
    const file_sink_t *f = j->w->f;
    sl_error_t *err = &j->errs[i];
    if (i < j->w->nfiles) {
        part_t *p = &j->w->done[i];
        char path[PATH_MAX];
        part_path(f, p, path);
        int failed = failpoint_io("fs.fsync", path) || fsync(p->fd) < 0;
        j->rcs[i] = failed ? conn_io_error(err, "fsync file", path) : 0;
    } else if (i == j->w->nfiles) {
        j->rcs[i] = sl_fs_fsync_dir(f->path, err);
    } else {
        int rc = sl_fw_open(j->staged, f->meta, j->manifest_name, err);
        if (rc == 0 && sl_fw_write(j->staged, j->manifest->data, j->manifest->len, err) < 0) {
            sl_fw_abort(j->staged);
            rc = -1;
        }
        j->rcs[i] = rc == 0 ? sl_fw_sync(j->staged, err) : -1;
    }
}

static int sync_outputs(exec_pool_t *io, writer_t *w, const sl_buf_t *manifest, const char *name,
                        sl_fw_t *staged, sl_error_t *err)
{
    int n = w->nfiles + 2;
    sync_job_t j = {w,
                    manifest,
                    name,
                    staged,
                    sl_xcalloc((size_t)n, sizeof(int)),
                    sl_xcalloc((size_t)n, sizeof(sl_error_t))};
    exec_pool_join(io, exec_pool_start(io, sync_task, &j, n));
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++)
        if (j.rcs[i] < 0) {
            *err = j.errs[i];
            rc = -1;
        }
    free(j.rcs);
    free(j.errs);
    return rc;
}

static int file_add(sink_t *s, int64_t batch_id, exec_batch_t *const *batches, int n,
                    const sink_ahead_t *ahead, sl_error_t *err)
{
    file_sink_t *f = s->impl;
    if (batch_id <= f->latest || manifest_has(f, batch_id)) {
        SL_INFO("sink.file", "skipping already committed batch %lld query=%s", (long long)batch_id,
                s->query_name);
        s->last_output_rows = 0;
        return 0;
    }
    writer_t w = {.f = f, .id = batch_id, .part = {.fd = -1}};
    int64_t rows = 0;
    int rc = f->cleaned ? 0 : remove_attempt(f, batch_id, err);
    f->cleaned = rc == 0;
    if (rc == 0) rc = write_rows(&w, batches, n, &rows, err);
    sl_buf_t text = SL_BUF_INIT;
    char manifest[40];
    if (rc == 0) rc = manifest_text(f, batch_id, w.done, w.nfiles, &text, manifest, err);
    sl_fw_t staged = {.fd = -1};
    if (rc == 0) rc = sync_outputs(f->io, &w, &text, manifest, &staged, err);
    if (rc == 0) failpoint_hit("sink.file.staged");
    if (rc == 0) rc = sink_await_ahead(ahead, err);
    if (rc == 0) failpoint_hit("sink.file.before_manifest");
    if (rc == 0) rc = sl_fw_publish(&staged, 0, NULL, NULL, err);
    else sl_fw_abort(&staged);
    if (rc == 0) failpoint_hit("sink.file.after_manifest");
    writer_free(&w);
    sl_buf_free(&text);
    if (rc < 0) return -1;
    f->latest = batch_id;
    s->last_output_rows = rows;
    return 0;
}

static void file_describe(sink_t *s, sl_buf_t *out)
{
    const file_sink_t *f = s->impl;
    sl_buf_printf(out, "FileSink[%s]", f->path);
}

static void file_destroy(sink_t *s)
{
    (void)s;
}

static const sink_ops_t file_ops = {
    .name = "file",
    .add_batch = file_add,
    .describe = file_describe,
    .destroy = file_destroy,
};

/* The output directory: the path option or <data_dir>/output/<query>,
 * created, made absolute. */
static char *output_dir(const sink_t *s, sl_arena_t *a, sl_error_t *err)
{
    const char *path = conn_option(NULL, s->opts, s->nopts, "path");
    if (!path && !s->data_dir) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "the file sink needs a path");
        return NULL;
    }
    char *p = path ? sl_strdup(a, path) : sl_printf(a, "%s/output/%s", s->data_dir, s->query_name);
    if (sl_fs_mkdirs(p, 0755, err) < 0) return NULL;
    char *abs = realpath(p, NULL);
    if (!abs) {
        conn_io_error(err, "resolve path", p);
        return NULL;
    }
    p = sl_strdup(a, abs);
    free(abs);
    return p;
}

int sink_file_create(sink_t *s, const sink_env_t *env, sl_arena_t *a, sl_error_t *err)
{
    file_sink_t *f = SL_NEW(a, file_sink_t);
    f->io = env ? env->io_pool : NULL;
    format_kind_t kind;
    if (sink_options(s->opts, s->nopts, &kind, &f->header, err) < 0) return -1;
    if (!(f->path = output_dir(s, a, err))) return -1;
    f->meta = conn_path_join(a, f->path, FILE_SINK_META);
    if (sl_fs_mkdirs(f->meta, 0755, err) < 0 || manifest_latest(f->meta, &f->latest, err) < 0)
        return -1;
    f->ext = kind == FORMAT_CSV ? "csv" : "json";
    format_encoder_init(&f->enc, kind, ',', s->schema.ncols, s->schema.names);
    s->impl = f;
    s->ops = &file_ops;
    return 0;
}
