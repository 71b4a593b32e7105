/* Whole-path reading for static tables (USING csv|json OPTIONS (path ...)):
 * one file, the data files of a directory, or — when the directory is a
 * file sink's output — exactly the files its _sluice_metadata manifest
 * lists (add minus delete, honouring N.compact files as Spark's
 * CompactibleFileStreamLog does). */
#include "connectors/format_int.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "connectors/conn_int.h"
#include "model/json.h"

#define MANIFEST_DIR "_sluice_metadata"

static int cmp_basename(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    const char *bx = strrchr(x, '/'), *by = strrchr(y, '/');
    int c = strcmp(bx ? bx + 1 : x, by ? by + 1 : y);
    return c ? c : strcmp(x, y);
}

/* ---- manifests ------------------------------------------------------------ */

/* The struct a manifest line is parsed as (other members are ignored). */
static exec_type_t manifest_line_type(sl_arena_t *a)
{
    static const char *const names[] = {"path", "action"};
    exec_type_t types[2] = {exec_type_of(EXEC_TYPE_STRING), exec_type_of(EXEC_TYPE_STRING)};
    return exec_type_struct(a, 2, names, types);
}

/* Applies one manifest file's entries to `live` (path -> 1 added). */
static int manifest_apply(const char *file, const char *text, size_t n, exec_type_t t,
                          sl_arena_t *a, conn_map_t *live, sl_error_t *err)
{
    const char *nl = memchr(text, '\n', n);
    if (strncmp(text, "v1", 2) || (nl ? nl - text : (long)n) != 2)
        return sl_error_set(err, SL_ERR_IO_ERROR, "malformed manifest file \"%s\"", file);
    for (const char *p = nl ? nl + 1 : text + n; p < text + n;) {
        const char *e = memchr(p, '\n', (size_t)(text + n - p));
        size_t len = e ? (size_t)(e - p) : (size_t)(text + n - p);
        exec_value_t v;
        if (len && exec_json_parse_value(t, p, len, a, &v, err) < 0) {
            sl_error_set(err, SL_ERR_IO_ERROR, "malformed manifest file \"%s\"", file);
            return -1;
        }
        if (len && !v.u.fields[0].is_null) {
            exec_str_t path = v.u.fields[0].u.str, act = v.u.fields[1].u.str;
            bool del = !v.u.fields[1].is_null && act.len == 6 && !memcmp(act.ptr, "delete", 6);
            if (del) conn_map_del(live, path.ptr, path.len);
            else conn_map_put(live, path.ptr, path.len, 1);
        }
        p = e ? e + 1 : text + n;
    }
    return 0;
}

/* Reads the files that make up the current manifest: the newest
 * compaction and the deltas after it (or every delta when none). */
static int manifest_load(const char *meta_dir, sl_arena_t *a, conn_map_t *live, sl_error_t *err)
{
    conn_log_file_t *files;
    int n = conn_log_list(meta_dir, &files, err);
    if (n < 0) return -1;
    int first = 0;
    for (int i = 0; i < n; i++)
        if (files[i].compact) first = i;
    exec_type_t t = manifest_line_type(a);
    sl_buf_t b = SL_BUF_INIT;
    int rc = 0;
    for (int i = first; i < n && rc == 0; i++) {
        char *path = sl_printf(a, "%s/%lld%s", meta_dir, (long long)files[i].id,
                               files[i].compact ? ".compact" : "");
        rc = sl_fs_read_file(path, &b, err);
        if (rc > 0) rc = manifest_apply(path, b.data, b.len, t, a, live, err);
    }
    sl_buf_free(&b);
    free(files);
    return rc < 0 ? -1 : 0;
}

int format_manifest_files(const char *meta_dir, const char *data_dir, sl_arena_t *a,
                          const char ***paths, sl_error_t *err)
{
    conn_map_t live;
    conn_map_init(&live);
    int rc = manifest_load(meta_dir, a, &live, err);
    *paths = SL_NEW_ARRAY(a, const char *, live.n ? live.n : 1);
    int k = 0;
    size_t it = 0;
    for (const conn_map_slot_t *s; rc == 0 && (s = conn_map_next(&live, &it));) {
        char *p = conn_uri_path(a, s->key, s->len);
        struct stat st;
        if (!p) continue;
        if (data_dir && stat(p, &st) < 0) {
            const char *base = strrchr(p, '/');
            p = conn_path_join(a, data_dir, base + 1);
        }
        (*paths)[k++] = p;
    }
    conn_map_free(&live);
    if (rc < 0) return -1;
    qsort(*paths, (size_t)k, sizeof **paths, cmp_basename);
    return k;
}

/* ---- directories and files ------------------------------------------------- */

/* Regular files of `dir` whose names do not start with '.' or '_', by name. */
static int data_files(const char *dir, sl_arena_t *a, const char ***paths, sl_error_t *err)
{
    DIR *d = opendir(dir);
    if (!d) return conn_io_error(err, "open directory", dir);
    int n = 0, cap = 16;
    *paths = SL_NEW_ARRAY(a, const char *, cap);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || e->d_name[0] == '_') continue;
        char *p = conn_path_join(a, dir, e->d_name);
        struct stat st;
        if (stat(p, &st) < 0 || !S_ISREG(st.st_mode)) continue;
        if (n == cap) {
            *paths = sl_arena_realloc(a, *paths, sizeof **paths * (size_t)cap,
                                      sizeof **paths * (size_t)cap * 2);
            cap *= 2;
        }
        (*paths)[n++] = p;
    }
    closedir(d);
    qsort(*paths, (size_t)n, sizeof **paths, cmp_basename);
    return n;
}

static int read_one(format_reader_t *r, const char *path, sl_buf_t *text, sl_error_t *err)
{
    int rc = sl_fs_read_file(path, text, err);
    if (rc == 0) {
        errno = ENOENT;
        return conn_io_error(err, "open file", path);
    }
    if (rc < 0) return -1;
    format_pos_t pos = {"file", path, "line", 0};
    return format_reader_text(r, text->data, text->len, &pos, err);
}

/* The files a table's path names. */
static int table_files(const char *path, sl_arena_t *a, const char ***paths, sl_error_t *err)
{
    struct stat st;
    if (stat(path, &st) < 0) return conn_io_error(err, "read table data at", path);
    if (!S_ISDIR(st.st_mode)) {
        *paths = SL_NEW_ARRAY(a, const char *, 1);
        (*paths)[0] = path;
        return 1;
    }
    char *meta = conn_path_join(a, path, MANIFEST_DIR);
    if (stat(meta, &st) == 0 && S_ISDIR(st.st_mode))
        return format_manifest_files(meta, path, a, paths, err);
    return data_files(path, a, paths, err);
}

int format_read_path(const conn_stream_t *rel, sl_arena_t *a, format_emit_fn emit, void *arg,
                     sl_error_t *err)
{
    const conn_desc_t *d = rel->connector;
    format_options_t o;
    if (!d || format_options_parse(d, rel->opts, rel->nopts, d->name, &o, err) < 0) {
        if (!d)
            sl_error_set(err, SL_ERR_INTERNAL_ERROR, "table \"%s\" has no file format", rel->name);
        return -1;
    }
    const char *path = conn_option(d, rel->opts, rel->nopts, "path");
    if (!path)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "table \"%s\" has no path",
                            rel->name);
    sl_arena_t *tmp = sl_arena_new("table read");
    const format_decoder_t *dec =
        format_decoder_new(&o, rel->ncols, rel->col_names, rel->col_types, tmp, err);
    const char **paths = NULL;
    int n = dec ? table_files(path, tmp, &paths, err) : -1;
    int rc = n < 0 ? -1 : 0;
    format_reader_t r;
    format_reader_init(&r, dec, a, emit, arg);
    sl_buf_t text = SL_BUF_INIT;
    for (int i = 0; i < n && rc == 0; i++) rc = read_one(&r, paths[i], &text, err);
    if (rc == 0) rc = format_reader_flush(&r, err);
    format_reader_done(&r);
    sl_buf_free(&text);
    sl_arena_free(tmp);
    return rc;
}
