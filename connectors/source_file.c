/* The file source: new files of a directory, each read once, as Spark's
 * FileStreamSource.
 *
 * Files: regular files directly in `path` whose names do not start with
 * '.' or '_' (writers write ".x.tmp" and rename it in) — or, in a file
 * sink's output directory, the files its _sluice_metadata manifest lists —
 * taken in order of modification time (then name; latestFirst reverses),
 * at most maxFilesPerTrigger per batch (all with TRIGGER ONCE). One split
 * per file.
 *
 * The source log (Spark's FileStreamSourceLog) is `<dir>/<K>`: "v1" then
 * one JSON line per file {"path":"file:///...","timestamp":<mtime
 * ms>,"batchId":K}. The offset {"logOffset":K} says every file of logs
 * 0..K has been taken; K counts the batches that took files (Spark's
 * metadataLogCurrentOffset), so it equals the query's batch id until a
 * batch takes no file (no-data batches). The seen set is rebuilt from the
 * log at the first call after a start, so no file is taken twice.
 *
 * Crash safety. latest_offset(start J) decides which files log K = J+1
 * will hold and remembers them in memory; plan(J, K) takes them (or reads
 * log K when it exists); the runner then writes offsets/N naming K and,
 * at the same time, has write_ahead write log K — both durable before the
 * sink publishes the batch. So:
 *  - a crash before either is durable forgets the decision: nothing refers
 *    to it;
 *  - offsets/N durable, log K not: on restart the batch is re-run over
 *    (J, K] and plan decides log K afresh from the files not seen — the
 *    batch never reached a sink that kept it, so its content is first
 *    fixed by that log;
 *  - log K durable, offsets/N not: latest_offset finds a log newer than
 *    its start and returns it as the end (Spark does the same), so those
 *    files are taken by the next batch, not lost or duplicated.
 * The source never deletes a log, so logs 0..J of a start offset J must
 * all exist: one missing (a damaged checkpoint) is refused with 55000
 * rather than silently taking its files again. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/json_write.h"
#include "connectors/conn_int.h"
#include "connectors/dir_watch.h"
#include "connectors/format.h"
#include "model/json.h"
#include "common/failpoint.h"

typedef struct file_entry {
    const char *uri;  /* file:///... as logged */
    const char *path; /* local path */
    int64_t mtime_ms;
} file_entry_t;

typedef struct file_src {
    char *path;                  /* the watched directory, absolute */
    char *uri;                   /* its URI (describe) */
    const format_decoder_t *dec; /* immutable, shared by concurrent reads */
    int64_t max_files;           /* 0: no limit */
    bool latest_first;
    bool loaded;               /* the log has been read */
    conn_map_t seen;           /* uri -> log id */
    int64_t max_log;           /* newest log id, -1 when none */
    int64_t first_gap;         /* lowest id below max_log without a log at load, -1 */
    int64_t pending_id;        /* log id of the remembered decision, -1 */
    sl_arena_t *pending_arena; /* its entries */
    file_entry_t *pending;
    int npending;
    int64_t unlogged_id;       /* log id plan took from pending, for write_ahead; -1 */
    int nbeyond;               /* new files left out of it by maxFilesPerTrigger */
    conn_map_t *avail;         /* AVAILABLE NOW: the uris it may take, else NULL */
    format_bad_records_t *bad; /* badRecordsPath writer, or NULL */
    int watch;                 /* dir_watch descriptor, -1: the runner polls */
    bool meta_watched;         /* _sluice_metadata/ is watched too */
    bool incremental;          /* the last decision saw the whole directory: the next
                                     needs only `left` and the names the watch reports */
    char **left;               /* files the last decision left untaken (heap) */
    int nleft;
} file_src_t;

typedef struct file_split {
    const char *path;
} file_split_t;

/* ---- offsets --------------------------------------------------------------- */

/* {"logOffset":K}; a NULL start is -1 (nothing taken). */
static int parse_offset(const char *text, int64_t *out, sl_error_t *err)
{
    *out = -1;
    if (!text) return 0;
    const char *p = strstr(text, "\"logOffset\"");
    char *end;
    if (p && (p = strchr(p, ':'))) {
        errno = 0;
        long long v = strtoll(p + 1, &end, 10);
        if (!errno && end != p + 1 && v >= -1) return (*out = v), 0;
    }
    return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "invalid file source offset \"%s\"",
                        text);
}

static const char *offset_text(sl_arena_t *a, int64_t k)
{
    return sl_printf(a, "{\"logOffset\":%lld}", (long long)k);
}

/* ---- the source log --------------------------------------------------------- */

static exec_type_t log_line_type(sl_arena_t *a)
{
    static const char *const names[] = {"path", "timestamp", "batchId"};
    exec_type_t types[3] = {exec_type_of(EXEC_TYPE_STRING), exec_type_of(EXEC_TYPE_BIGINT),
                            exec_type_of(EXEC_TYPE_BIGINT)};
    return exec_type_struct(a, 3, names, types);
}

/* Parses log file text into entries (in `a`). */
static int log_parse(const char *file, const char *text, size_t n, sl_arena_t *a,
                     file_entry_t **out, int *count, sl_error_t *err)
{
    const char *nl = memchr(text, '\n', n);
    if (n < 2 || strncmp(text, "v1", 2) || (nl && nl - text != 2) || (!nl && n != 2))
        return sl_error_set(err, SL_ERR_IO_ERROR, "malformed file source log \"%s\"", file);
    int cap = 1;
    for (size_t i = 0; i < n; i++) cap += text[i] == '\n';
    *out = SL_NEW_ARRAY(a, file_entry_t, cap);
    *count = 0;
    exec_type_t t = log_line_type(a);
    for (const char *p = nl ? nl + 1 : text + n; p < text + n;) {
        const char *e = memchr(p, '\n', (size_t)(text + n - p));
        size_t len = e ? (size_t)(e - p) : (size_t)(text + n - p);
        exec_value_t v;
        char *path = NULL;
        if (len && (exec_json_parse_value(t, p, len, a, &v, err) < 0 || v.u.fields[0].is_null ||
                    !(path = conn_uri_path(a, v.u.fields[0].u.str.ptr, v.u.fields[0].u.str.len))))
            return sl_error_set(err, SL_ERR_IO_ERROR, "malformed file source log \"%s\"", file);
        if (len) {
            exec_str_t u = v.u.fields[0].u.str;
            int64_t ts = v.u.fields[1].is_null ? 0 : v.u.fields[1].u.i64;
            (*out)[(*count)++] = (file_entry_t){sl_strndup(a, u.ptr, u.len), path, ts};
        }
        p = e ? e + 1 : text + n;
    }
    return 0;
}

/* Reads log `id`: 1 with entries, 0 when absent, -1. */
static int log_read(source_t *s, int64_t id, sl_arena_t *a, file_entry_t **out, int *count,
                    sl_error_t *err)
{
    char *file = sl_printf(a, "%s/%lld", s->dir, (long long)id);
    sl_buf_t b = SL_BUF_INIT;
    int rc = sl_fs_read_file(file, &b, err);
    if (rc > 0 && log_parse(file, b.data, b.len, a, out, count, err) < 0) rc = -1;
    sl_buf_free(&b);
    return rc;
}

static int log_write(source_t *s, int64_t id, const file_entry_t *e, int n, sl_error_t *err)
{
    sl_buf_t b = SL_BUF_INIT;
    sl_buf_puts(&b, "v1");
    for (int i = 0; i < n; i++) {
        sl_buf_puts(&b, "\n{\"path\":");
        sl_json_escape(&b, e[i].uri, strlen(e[i].uri));
        sl_buf_printf(&b, ",\"timestamp\":%lld,\"batchId\":%lld}", (long long)e[i].mtime_ms,
                      (long long)id);
    }
    char name[24];
    snprintf(name, sizeof name, "%lld", (long long)id);
    int rc = sl_fs_mkdirs(s->dir, 0755, err) < 0
                 ? -1
                 : sl_fs_write_file(s->dir, name, b.data, b.len, 0, NULL, NULL, err);
    sl_buf_free(&b);
    return rc;
}

static void seen_add(file_src_t *f, int64_t id, const file_entry_t *e, int n)
{
    for (int i = 0; i < n; i++) conn_map_put(&f->seen, e[i].uri, strlen(e[i].uri), (uint64_t)id);
    if (id > f->max_log) f->max_log = id;
}

/* Rebuilds the seen set from every log file (first call after a start). */
static int log_load(source_t *s, sl_error_t *err)
{
    file_src_t *f = s->impl;
    if (f->loaded) return 0;
    if (!s->dir)
        return sl_error_set(err, SL_ERR_INTERNAL_ERROR,
                            "the file source needs a checkpoint directory");
    conn_log_file_t *logs;
    int n = conn_log_list(s->dir, &logs, err);
    sl_arena_t *tmp = sl_arena_new("file source log");
    int rc = n < 0 ? -1 : 0;
    int64_t next = 0; /* the id the next log should have */
    for (int i = 0; i < n && rc == 0; i++) {
        file_entry_t *e;
        int count;
        if (logs[i].compact) continue;
        if (logs[i].id != next && f->first_gap < 0) f->first_gap = next;
        next = logs[i].id + 1;
        rc = log_read(s, logs[i].id, tmp, &e, &count, err) < 0 ? -1 : 0;
        if (rc == 0) seen_add(f, logs[i].id, e, count);
    }
    free(logs);
    sl_arena_free(tmp);
    f->loaded = rc == 0;
    return rc;
}

/* The offset {"logOffset":J} says logs 0..J were taken and are durable
 * (the source never deletes them): without one, the files it named would
 * be taken again and the query would silently duplicate them. */
static int log_check(source_t *s, int64_t j, sl_error_t *err)
{
    const file_src_t *f = s->impl;
    int64_t missing = f->first_gap >= 0 ? f->first_gap : f->max_log + 1;
    if (missing > j) return 0;
    sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                 "file source log \"%s/%lld\" is missing", s->dir, (long long)missing);
    sl_error_detail(err,
                    "The checkpoint's offsets say the source took the files of logs 0 to "
                    "%lld; without log %lld the files it names would be read again.",
                    (long long)j, (long long)missing);
    return sl_error_hint(err, "Restore the file from a backup of the checkpoint (or write it "
                              "again with the files that batch took), or start the query with a "
                              "new checkpoint location. docs/operations.md tells how.");
}

/* log_load, then log_check against the start offset `start` (parsed into *j). */
static int log_ready(source_t *s, const char *start, int64_t *j, sl_error_t *err)
{
    if (log_load(s, err) < 0 || parse_offset(start, j, err) < 0) return -1;
    return log_check(s, *j, err);
}

/* ---- listing and deciding ------------------------------------------------------ */

/* By modification time, then URI; `desc` (latestFirst) reverses. */
static int entry_cmp(const void *a, const void *b, void *desc)
{
    const file_entry_t *x = a, *y = b;
    int c = x->mtime_ms < y->mtime_ms ? -1 : x->mtime_ms > y->mtime_ms ? 1 : strcmp(x->uri, y->uri);
    return *(const bool *)desc ? -c : c;
}

/* The data files of the directory: regular files whose names do not start
 * with '.' or '_' — or, when it is a file sink's output (it has
 * `_sluice_metadata/`), the files that sink committed, so that a query
 * reading another query's output never sees an unfinished batch. */
static int candidates(const file_src_t *f, sl_arena_t *a, const char ***paths, sl_error_t *err)
{
    char *meta = conn_path_join(a, f->path, "_sluice_metadata");
    struct stat st;
    if (stat(meta, &st) == 0 && S_ISDIR(st.st_mode))
        return format_manifest_files(meta, f->path, a, paths, err);
    DIR *d = opendir(f->path);
    if (!d) return conn_io_error(err, "list directory", f->path);
    int n = 0, cap = 16;
    *paths = SL_NEW_ARRAY(a, const char *, cap);
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.' || de->d_name[0] == '_') continue;
        if (n == cap) {
            *paths = sl_arena_realloc(a, *paths, sizeof **paths * (size_t)cap,
                                      sizeof **paths * (size_t)cap * 2);
            cap *= 2;
        }
        (*paths)[n++] = conn_path_join(a, f->path, de->d_name);
    }
    closedir(d);
    return n;
}

/* Watches a file sink's manifest directory once it exists (its files are
 * committed by a rename there); 1 when the directory is a sink's output. */
static int watch_manifest(file_src_t *f, sl_arena_t *a)
{
    if (f->meta_watched) return 1;
    char *meta = conn_path_join(a, f->path, "_sluice_metadata");
    struct stat st;
    if (stat(meta, &st) < 0 || !S_ISDIR(st.st_mode)) return 0;
    if (dir_watch_add(f->watch, meta) == 0) f->meta_watched = true;
    else { /* cannot see commits: poll */ dir_watch_close(f->watch);
        f->watch = -1;
    }
    return 1;
}

typedef struct name_list {
    sl_arena_t *a;
    const char *dir;
    const char **paths;
    int n, cap;
} name_list_t;

static void name_add(void *arg, const char *name)
{
    name_list_t *l = arg;
    if (name[0] == '.' || name[0] == '_') return;
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 16;
        l->paths = sl_arena_realloc(l->a, l->paths, sizeof *l->paths * (size_t)l->cap,
                                    sizeof *l->paths * (size_t)cap);
        l->cap = cap;
    }
    l->paths[l->n++] = conn_path_join(l->a, l->dir, name);
}

static int path_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Consumes the watch's events. When the last decision saw the whole
 * directory and the events tell every change since, the candidates are the
 * files it left untaken plus the names the events report, each once: their
 * count; -1 when the directory must be listed instead. */
static int watched_candidates(file_src_t *f, sl_arena_t *a, bool full, const char ***paths)
{
    if (f->watch < 0) return -1;
    name_list_t l = {.a = a, .dir = f->path};
    for (int i = 0; i < f->nleft; i++) name_add(&l, strrchr(f->left[i], '/') + 1);
    int complete = dir_watch_take(f->watch, name_add, &l);
    if (watch_manifest(f, a) || full || !complete || !f->incremental || f->avail) return -1;
    if (l.n) qsort(l.paths, (size_t)l.n, sizeof *l.paths, path_cmp);
    int k = 0; /* a file named by two events, or left and named again */
    for (int i = 0; i < l.n; i++)
        if (!k || strcmp(l.paths[k - 1], l.paths[i])) l.paths[k++] = l.paths[i];
    *paths = l.paths;
    return k;
}

static void left_clear(file_src_t *f)
{
    for (int i = 0; i < f->nleft; i++) free(f->left[i]);
    free(f->left);
    f->left = NULL;
    f->nleft = 0;
}

/* Files not seen yet (and allowed by AVAILABLE NOW), in the order they are
 * to be taken, entries in `a`. The directory is listed only when the watch
 * cannot tell what changed since the last decision (`full` asks for a
 * listing): a directory of 20,000 taken files costs about 8 ms to list. */
static int list_new(source_t *s, sl_arena_t *a, bool full, file_entry_t **out, int *n,
                    sl_error_t *err)
{
    file_src_t *f = s->impl;
    const char **paths;
    int np = watched_candidates(f, a, full, &paths);
    f->incremental = false; /* until decide() has taken what this finds */
    if (np < 0) np = candidates(f, a, &paths, err);
    if (np < 0) return -1;
    *out = SL_NEW_ARRAY(a, file_entry_t, np ? np : 1);
    *n = 0;
    sl_buf_t uri = SL_BUF_INIT;
    for (int i = 0; i < np; i++) {
        sl_buf_clear(&uri);
        conn_file_uri(&uri, paths[i]);
        if (conn_map_get(&f->seen, uri.data, uri.len)) continue; /* no stat for seen files */
        if (f->avail && !conn_map_get(f->avail, uri.data, uri.len)) continue;
        struct stat st;
        if (stat(paths[i], &st) < 0 || !S_ISREG(st.st_mode)) continue;
        (*out)[(*n)++] =
            (file_entry_t){sl_strndup(a, uri.data, uri.len), paths[i], conn_mtime_ms(&st)};
    }
    sl_buf_free(&uri);
    qsort_r(*out, (size_t)*n, sizeof **out, entry_cmp, &f->latest_first);
    return 0;
}

/* Decides the files of log `id` into the pending slot. */
static int decide(source_t *s, int64_t id, source_limit_t limit, sl_error_t *err)
{
    file_src_t *f = s->impl;
    sl_arena_reset(f->pending_arena);
    f->pending_id = -1;
    if (list_new(s, f->pending_arena, false, &f->pending, &f->npending, err) < 0) return -1;
    f->nbeyond = 0;
    if (limit != SOURCE_LIMIT_ALL && f->max_files && f->npending > f->max_files) {
        f->nbeyond = f->npending - (int)f->max_files;
        f->npending = (int)f->max_files;
    }
    /* the batch takes the first npending; the next decision starts from the rest */
    left_clear(f);
    f->left = sl_xcalloc((size_t)f->nbeyond + 1, sizeof *f->left);
    for (int i = 0; i < f->nbeyond; i++)
        f->left[f->nleft++] = sl_xstrdup(f->pending[f->npending + i].path);
    f->incremental = f->watch >= 0;
    f->pending_id = id;
    return 0;
}

/* ---- the source interface ---------------------------------------------------- */

static int file_initial(source_t *s, sl_arena_t *a, const char **out, sl_error_t *err)
{
    (void)s;
    (void)err;
    *out = offset_text(a, -1);
    return 0;
}

static int file_latest(source_t *s, const char *start, source_limit_t limit, sl_arena_t *a,
                       const char **end, const char **latest, sl_error_t *err)
{
    file_src_t *f = s->impl;
    int64_t j, k, beyond = 0;
    if (log_ready(s, start, &j, err) < 0) return -1;
    if (f->max_log > j) {
        k = f->max_log; /* logged before a crash, not yet in an offsets file */
    } else {
        if (decide(s, j + 1, limit, err) < 0) return -1;
        k = f->npending ? j + 1 : j;
        beyond = f->nbeyond > 0;
    }
    /* files held back by maxFilesPerTrigger make the latest offset the next
     * log id: the query is not caught up (AWAIT QUERY keeps waiting) */
    *end = offset_text(a, k);
    *latest = offset_text(a, k + beyond);
    return 0;
}

static int file_available_now(source_t *s, sl_error_t *err)
{
    file_src_t *f = s->impl;
    if (log_load(s, err) < 0) return -1;
    sl_arena_t *tmp = sl_arena_new("file source available now");
    file_entry_t *e;
    int n;
    int rc = list_new(s, tmp, true, &e, &n, err);
    if (rc == 0) {
        if (!f->avail) f->avail = sl_xcalloc(1, sizeof *f->avail);
        conn_map_clear(f->avail);
        for (int i = 0; i < n; i++) conn_map_put(f->avail, e[i].uri, strlen(e[i].uri), 1);
    }
    sl_arena_free(tmp);
    return rc;
}

/* The entries of log `id`: read when it exists, else decided now and left
 * for write_ahead to log. */
static int batch_log(source_t *s, int64_t id, int64_t last, sl_arena_t *a, file_entry_t **e, int *n,
                     sl_error_t *err)
{
    file_src_t *f = s->impl;
    int rc = log_read(s, id, a, e, n, err);
    if (rc != 0) return rc < 0 ? -1 : 0;
    if (id != last)
        return sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                            "file source log %lld is missing from \"%s\"", (long long)id, s->dir);
    if (f->pending_id != id && decide(s, id, SOURCE_LIMIT_DEFAULT, err) < 0) return -1;
    seen_add(f, id, f->pending, f->npending);
    *e = f->pending;
    *n = f->npending;
    f->pending_id = -1;
    f->unlogged_id = id; /* the entries stay in the pending arena until the next decide */
    return 0;
}

static int file_plan(source_t *s, int64_t batch_id, const char *start, const char *end,
                     sl_arena_t *a, source_split_t **splits, int *nsplits, sl_error_t *err)
{
    (void)batch_id;
    int64_t j, k;
    *splits = NULL;
    *nsplits = 0;
    if (log_ready(s, start, &j, err) < 0 || parse_offset(end, &k, err) < 0) return -1;
    int cap = 0;
    for (int64_t id = j + 1; id <= k; id++) {
        file_entry_t *e;
        int n;
        if (batch_log(s, id, k, a, &e, &n, err) < 0) return -1;
        *splits = sl_arena_realloc(a, *splits, sizeof **splits * (size_t)cap,
                                   sizeof **splits * (size_t)(cap + n + 1));
        cap += n + 1;
        for (int i = 0; i < n; i++) {
            file_split_t *fs = SL_NEW(a, file_split_t);
            fs->path = sl_strdup(a, e[i].path);
            (*splits)[*nsplits] = (source_split_t){*nsplits, fs};
            (*nsplits)++;
        }
    }
    return 0;
}

/* Logs what plan decided (worker thread, while the batch reads the files:
 * both only read the pending entries). */
static int file_write_ahead(source_t *s, int64_t batch_id, sl_error_t *err)
{
    (void)batch_id;
    file_src_t *f = s->impl;
    int64_t id = f->unlogged_id;
    if (id < 0) return 0;
    f->unlogged_id = -1;
    if (log_write(s, id, f->pending, f->npending, err) < 0) return -1;
    failpoint_hit("source.file.after_log"); /* offsets/N may still be in flight */
    return 0;
}

/* Files up to this size are read into the batch's arena; larger ones are
 * mapped. An unmap interrupts every CPU running one of the daemon's threads
 * (a TLB shootdown), which costs more than copying a small file. */
#define FILE_READ_MAX (1u << 20)

/* The bytes of an open file of `size` bytes: read into `a` when small
 * (*mapped = 0), else mapped (*mapped = 1); NULL with errno on failure. */
static void *file_bytes(int fd, size_t size, sl_arena_t *a, int *mapped)
{
    *mapped = size > FILE_READ_MAX;
    if (*mapped) {
        void *m = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
        return m == MAP_FAILED ? NULL : m;
    }
    char *buf = sl_alloc(a, size ? size : 1);
    for (size_t off = 0; off < size;) {
        ssize_t n = read(fd, buf + off, size - off);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return NULL;
        if (n == 0) { /* the file shrank: it was not complete when moved in */
            errno = EIO;
            return NULL;
        }
        off += (size_t)n;
    }
    return buf;
}

/* Reads (or maps) the file and hands its records to the decoder. */
static int file_read(source_t *s, const source_split_t *split, sl_arena_t *a, source_emit_fn emit,
                     void *emit_arg, sl_error_t *err)
{
    file_src_t *f = s->impl;
    const file_split_t *fs = split->data;
    int fd = open(fs->path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) {
        if (fd >= 0) close(fd);
        return conn_io_error(err, "read file", fs->path);
    }
    int mapped;
    void *map = file_bytes(fd, (size_t)st.st_size, a, &mapped);
    int e = errno;
    close(fd);
    errno = e;
    if (!map) return conn_io_error(err, "read file", fs->path);
    format_reader_t r;
    format_reader_init(&r, f->dec, a, emit, emit_arg);
    r.malformed = &s->malformed;
    r.dropped = &s->dropped;
    r.bad = f->bad;
    format_pos_t pos = {"file", fs->path, "line", 0};
    int rc = format_reader_text(&r, map, (size_t)st.st_size, &pos, err);
    if (rc == 0) rc = format_reader_flush(&r, err);
    format_reader_done(&r);
    if (mapped) munmap(map, (size_t)st.st_size);
    return rc;
}

static int file_change_fd(source_t *s)
{
    const file_src_t *f = s->impl;
    return f->watch;
}

static void file_describe(source_t *s, sl_buf_t *out)
{
    const file_src_t *f = s->impl;
    sl_buf_printf(out, "FileStreamSource[%s]", f->uri);
}

static void file_destroy(source_t *s)
{
    file_src_t *f = s->impl;
    if (!f) return;
    conn_map_free(&f->seen);
    if (f->avail) conn_map_free(f->avail);
    free(f->avail);
    sl_arena_free(f->pending_arena);
    format_bad_records_close(f->bad);
    dir_watch_close(f->watch);
    left_clear(f);
    s->impl = NULL;
}

static void file_metrics(source_t *s, const char *end, const char *latest, sl_buf_t *out)
{
    (void)end, (void)latest;
    const file_src_t *f = s->impl;
    conn_metric_bad_records(s, f->bad, out);
}

static const source_ops_t file_ops = {
    .name = "file",
    .initial_offset = file_initial,
    .latest_offset = file_latest,
    .prepare_available_now = file_available_now,
    .plan = file_plan,
    .write_ahead = file_write_ahead,
    .read_split = file_read,
    .change_fd = file_change_fd,
    .describe = file_describe,
    .metrics = file_metrics,
    .destroy = file_destroy,
};

/* ---- creation ------------------------------------------------------------------ */

/* Options other than the record format's. */
static int file_options(const conn_stream_t *rel, int64_t *max_files, bool *latest_first,
                        format_options_t *fmt, sl_error_t *err)
{
    const conn_desc_t *d = rel->connector;
    *max_files = 0;
    *latest_first = false;
    if (format_options_parse(d, rel->opts, rel->nopts, NULL, fmt, err) < 0 ||
        conn_opt_int64(d, rel->opts, rel->nopts, "maxFilesPerTrigger", 1, INT32_MAX, max_files,
                       err) < 0 ||
        conn_opt_bool(d, rel->opts, rel->nopts, "latestFirst", latest_first, err) < 0)
        return -1;
    if (fmt->kind == FORMAT_RAW)
        return conn_bad_option(err, "format", "raw", "A file stream reads json or csv.");
    const char *path = conn_option(d, rel->opts, rel->nopts, "path");
    if (!path || !*path)
        return conn_bad_option(err, "path", path ? path : "", "It must name a directory.");
    return 0;
}

int source_file_validate(const conn_stream_t *rel, sl_error_t *err)
{
    int64_t max_files;
    bool latest_first;
    format_options_t fmt;
    if (file_options(rel, &max_files, &latest_first, &fmt, err) < 0) return -1;
    sl_arena_t *tmp = sl_arena_new("file source check");
    const format_decoder_t *d =
        format_decoder_new(&fmt, rel->ncols, rel->col_names, rel->col_types, tmp, err);
    sl_arena_free(tmp);
    return d ? 0 : -1;
}

/* The absolute form of the watched directory, which must exist. */
static char *watched_dir(const char *path, sl_arena_t *a, sl_error_t *err)
{
    char *abs = realpath(path, NULL);
    struct stat st;
    if (!abs || stat(abs, &st) < 0) {
        free(abs);
        conn_io_error(err, "open the file stream's directory", path);
        return NULL;
    }
    char *out = sl_strdup(a, abs);
    free(abs);
    if (!S_ISDIR(st.st_mode)) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "path \"%s\" is not a directory", path);
        sl_error_hint(err, "A file stream reads the files of a directory.");
        return NULL;
    }
    return out;
}

int source_file_create(source_t *s, sl_arena_t *a, sl_error_t *err)
{
    const conn_stream_t *rel = s->rel;
    file_src_t *f = SL_NEW(a, file_src_t);
    format_options_t fmt;
    if (file_options(rel, &f->max_files, &f->latest_first, &fmt, err) < 0) return -1;
    f->dec = format_decoder_new(&fmt, rel->ncols, rel->col_names, rel->col_types, a, err);
    f->path = f->dec
                  ? watched_dir(conn_option(rel->connector, rel->opts, rel->nopts, "path"), a, err)
                  : NULL;
    if (!f->path) return -1;
    sl_buf_t uri = SL_BUF_INIT;
    conn_file_uri(&uri, f->path);
    f->uri = sl_strdup(a, uri.data);
    sl_buf_free(&uri);
    conn_map_init(&f->seen);
    f->max_log = -1;
    f->first_gap = -1;
    f->pending_id = -1;
    f->unlogged_id = -1;
    f->pending_arena = sl_arena_new("file source pending");
    f->watch = dir_watch_open(f->path);
    if (fmt.bad_records_dir) {
        char *name = sl_printf(a, "%s-source%d.json", s->query_name, s->index);
        f->bad = format_bad_records_open(fmt.bad_records_dir, name, fmt.bad_records_max_bytes,
                                         fmt.bad_records_max_files);
    }
    s->impl = f;
    s->ops = &file_ops;
    return 0;
}
