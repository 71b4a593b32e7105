/* The checkpoint's numbered logs: offsets/<N> (Spark's OffsetSeqLog v1),
 * commits/<N> (CommitLog v1) and the opaque sources/<i>/<N> logs, on top of
 * the generic write-once / read / latest / purge primitives of a numbered
 * directory (Spark's HDFSMetadataLog). */
#include "state/ckpt_int.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/private_file.h"
#include "state/state_int.h"

/* ---- generic numbered log ---- */

struct ckpt_staged {
    sl_fw_t fw;
    int fp;
    char before[48], after[48]; /* failpoint names */
};

int ckpt_log_stage(const char *dir, const char *log, int64_t id, const void *data, size_t len,
                   int fp, ckpt_staged_t **out, sl_error_t *err)
{
    char name[24];
    snprintf(name, sizeof name, "%" PRId64, id);
    char *path = sl_fs_path(dir, name);
    int exists = sl_fs_exists(path);
    free(path);
    if (exists) {
        sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                     "concurrent update to the log: %s/%" PRId64 " already exists", log, id);
        sl_error_detail(err, "Batch %" PRId64 " of this checkpoint was already written to %s/%s.",
                        id, dir, name);
        return sl_error_hint(err, "Make sure only one query uses this checkpoint directory.");
    }
    ckpt_staged_t *s = sl_xcalloc(1, sizeof *s);
    s->fp = fp;
    snprintf(s->before, sizeof s->before, "%s.before_rename", log);
    snprintf(s->after, sizeof s->after, "%s.after_rename", log);
    if (sl_fs_mkdirs(dir, SL_PRIVATE_DIR_MODE, err) < 0 || sl_fw_open(&s->fw, dir, name, err) < 0) {
        free(s);
        return -1;
    }
    if (sl_fw_write(&s->fw, data, len, err) < 0 || sl_fw_sync(&s->fw, err) < 0) {
        sl_fw_abort(&s->fw);
        free(s);
        return -1;
    }
    *out = s;
    return 0;
}

int ckpt_log_publish(ckpt_staged_t *s, sl_error_t *err)
{
    int rc = sl_fw_publish(&s->fw, SL_FW_NOREPLACE, s->fp ? s->before : NULL,
                           s->fp ? s->after : NULL, err);
    free(s);
    return rc;
}

void ckpt_staged_drop(ckpt_staged_t *s)
{
    if (!s) return;
    sl_fw_abort(&s->fw);
    free(s);
}

int ckpt_log_write(const char *dir, const char *log, int64_t id, const void *data, size_t len,
                   int fp, sl_error_t *err)
{
    ckpt_staged_t *s;
    if (ckpt_log_stage(dir, log, id, data, len, fp, &s, err) < 0) return -1;
    return ckpt_log_publish(s, err);
}

int ckpt_log_read(const char *dir, int64_t id, sl_buf_t *out, sl_error_t *err)
{
    char name[24];
    snprintf(name, sizeof name, "%" PRId64, id);
    char *path = sl_fs_path(dir, name);
    int rc = sl_fs_read_file(path, out, err);
    free(path);
    return rc;
}

int ckpt_log_latest(const char *dir, int64_t *id, sl_error_t *err)
{
    int64_t *ids;
    int n = sl_fs_list_ids(dir, "", &ids, err);
    if (n > 0) *id = ids[n - 1];
    free(ids);
    return n < 0 ? -1 : n > 0;
}

int ckpt_log_purge(const char *dir, int64_t before, sl_error_t *err)
{
    int64_t *ids;
    int n = sl_fs_list_ids(dir, "", &ids, err);
    int rc = n < 0 ? -1 : 0;
    for (int i = 0; i < n && rc == 0 && ids[i] < before; i++) {
        char name[24];
        snprintf(name, sizeof name, "%" PRId64, ids[i]);
        char *path = sl_fs_path(dir, name);
        if (unlink(path) < 0 && errno != ENOENT)
            rc = sl_error_set(err, SL_ERR_IO_ERROR, "could not remove file \"%s\": %s", path,
                              strerror(errno));
        free(path);
    }
    free(ids);
    return rc; /* no directory fsync: a removal a crash undoes is redone by the next purge */
}

/* ---- version line ---- */

int ckpt_check_version(const char *text, size_t len, int max_version, const char *file,
                       sl_error_t *err)
{
    const char *nl = memchr(text, '\n', len);
    size_t ll = nl ? (size_t)(nl - text) : len;
    int64_t v = ll >= 2 && text[0] == 'v' ? sl_fs_parse_id(text + 1, ll - 1) : -1;
    if (v <= 0) {
        sl_error_set(err, SL_ERR_IO_ERROR, "log file \"%s\" is malformed", file);
        return sl_error_detail(err, "Its first line must be a version such as \"v1\".");
    }
    if (v > max_version) {
        sl_error_set(err, SL_ERR_IO_ERROR,
                     "log file \"%s\" was written by a newer version of sluice", file);
        sl_error_detail(
            err, "The file has log version v%" PRId64 "; this version of sluice reads up to v%d.",
            v, max_version);
        return sl_error_hint(err, "Upgrade sluice, or start the query with a new checkpoint "
                                  "location.");
    }
    return (int)v;
}

/* Splits `text` (NUL-terminated, modified in place) into lines; a final
 * newline does not start an extra line. Returns the count; lines in `a`. */
static int split_lines(char *text, size_t len, sl_arena_t *a, char ***lines)
{
    int n = 1;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n' && i + 1 < len) n++;
    *lines = SL_NEW_ARRAY(a, char *, n);
    int k = 0;
    char *p = text;
    for (;;) {
        (*lines)[k++] = p;
        char *nl = strchr(p, '\n');
        if (!nl) break;
        *nl = '\0';
        p = nl + 1;
        if (!*p) break;
    }
    return k;
}

static char *log_file_name(const char *dir, int64_t id, sl_arena_t *a)
{
    return sl_printf(a, "%s/%" PRId64, dir, id);
}

/* ---- offsets/<N> ---- */

const char *ckpt_conf_get(const ckpt_batch_meta_t *m, const char *key)
{
    for (int i = 0; i < m->nconf; i++)
        if (!strcmp(m->conf[i].key, key)) return m->conf[i].value;
    return NULL;
}

static void meta_json(sl_buf_t *b, const ckpt_batch_meta_t *m)
{
    sl_buf_printf(b,
                  "{\"batchWatermarkMs\":%" PRId64 ",\"batchTimestampMs\":%" PRId64 ",\"conf\":{",
                  m->watermark_ms, m->timestamp_ms);
    for (int i = 0; i < m->nconf; i++) {
        if (i) sl_buf_putc(b, ',');
        state_json_quote(b, m->conf[i].key);
        sl_buf_putc(b, ':');
        state_json_quote(b, m->conf[i].value);
    }
    sl_buf_puts(b, "}}");
}

char *ckpt_batch_meta_json(const ckpt_batch_meta_t *m, sl_arena_t *a)
{
    sl_buf_t b = SL_BUF_INIT;
    meta_json(&b, m);
    char *s = sl_strndup(a, b.data, b.len);
    sl_buf_free(&b);
    return s;
}

int ckpt_offsets_write(ckpt_t *c, int64_t batch, const ckpt_offsets_t *o, sl_error_t *err)
{
    sl_buf_t *b = &c->scratch;
    sl_buf_clear(b);
    sl_buf_puts(b, "v1\n");
    meta_json(b, &o->meta);
    for (int i = 0; i < o->nsources; i++) {
        const char *s = o->sources[i];
        if (s && (!*s || strchr(s, '\n'))) {
            sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                         "offset of source %d is not one line of JSON", i);
            return sl_error_detail(err, "Offsets are written one per line in offsets/%" PRId64 ".",
                                   batch);
        }
        sl_buf_putc(b, '\n');
        sl_buf_puts(b, s ? s : "-");
    }
    return ckpt_log_write(c->offsets_dir, "offsets", batch, b->data, b->len, 1, err);
}

static int json_int_field(json_t *obj, const char *key, int64_t *out, const char *file,
                          sl_error_t *err)
{
    json_t *v = json_object_get(obj, key);
    *out = 0;
    if (!v) return 0;
    if (!json_is_integer(v))
        return sl_error_set(err, SL_ERR_IO_ERROR,
                            "log file \"%s\" is malformed: %s is not an "
                            "integer",
                            file, key);
    *out = (int64_t)json_integer_value(v);
    return 0;
}

static int parse_conf(json_t *conf, sl_arena_t *a, ckpt_batch_meta_t *m, const char *file,
                      sl_error_t *err)
{
    if (!conf) return 0;
    if (!json_is_object(conf))
        return sl_error_set(err, SL_ERR_IO_ERROR,
                            "log file \"%s\" is malformed: conf is not "
                            "an object",
                            file);
    m->conf = SL_NEW_ARRAY(a, ckpt_conf_entry_t, json_object_size(conf) + 1);
    const char *key;
    json_t *val;
    json_object_foreach(conf, key, val)
    {
        if (!json_is_string(val))
            return sl_error_set(err, SL_ERR_IO_ERROR,
                                "log file \"%s\" is malformed: conf "
                                "value of \"%s\" is not a string",
                                file, key);
        m->conf[m->nconf].key = sl_strdup(a, key);
        m->conf[m->nconf].value = sl_strdup(a, json_string_value(val));
        m->nconf++;
    }
    return 0;
}

/* Parses the metadata line of an offsets file. */
static int parse_meta(const char *line, sl_arena_t *a, ckpt_batch_meta_t *m, const char *file,
                      sl_error_t *err)
{
    json_error_t jerr;
    json_t *root = json_loads(line, JSON_REJECT_DUPLICATES, &jerr);
    if (!root || !json_is_object(root)) {
        json_decref(root);
        sl_error_set(err, SL_ERR_IO_ERROR, "log file \"%s\" is malformed", file);
        return sl_error_detail(err, "Its batch metadata is not a JSON object: %s.",
                               root ? "wrong type" : jerr.text);
    }
    int rc = json_int_field(root, "batchWatermarkMs", &m->watermark_ms, file, err);
    if (rc == 0) rc = json_int_field(root, "batchTimestampMs", &m->timestamp_ms, file, err);
    if (rc == 0) rc = parse_conf(json_object_get(root, "conf"), a, m, file, err);
    json_decref(root);
    return rc;
}

static int parse_offsets(char *text, size_t len, sl_arena_t *a, ckpt_offsets_t *out,
                         const char *file, sl_error_t *err)
{
    memset(out, 0, sizeof *out);
    if (ckpt_check_version(text, len, CKPT_LOG_VERSION, file, err) < 0) return -1;
    char **lines;
    int n = split_lines(text, len, a, &lines);
    const char *meta = n > 1 ? lines[1] : "";
    while (*meta == ' ' || *meta == '\t' || *meta == '\r') meta++;
    if (*meta) {
        out->has_meta = 1;
        if (parse_meta(meta, a, &out->meta, file, err) < 0) return -1;
    }
    out->nsources = n > 2 ? n - 2 : 0;
    out->sources = SL_NEW_ARRAY(a, const char *, out->nsources + 1);
    for (int i = 0; i < out->nsources; i++)
        out->sources[i] = strcmp(lines[i + 2], "-") ? sl_strdup(a, lines[i + 2]) : NULL;
    return 0;
}

int ckpt_offsets_read(ckpt_t *c, int64_t batch, sl_arena_t *a, ckpt_offsets_t *out, sl_error_t *err)
{
    int rc = ckpt_log_read(c->offsets_dir, batch, &c->scratch, err);
    if (rc <= 0) return rc;
    const char *file = log_file_name(c->offsets_dir, batch, a);
    if (parse_offsets(c->scratch.data, c->scratch.len, a, out, file, err) < 0) return -1;
    return 1;
}

int ckpt_offsets_peek_latest(const char *dir, sl_arena_t *a, ckpt_offsets_t *out, sl_error_t *err)
{
    char *offsets = sl_fs_path(dir, "offsets");
    int64_t batch;
    sl_buf_t text = SL_BUF_INIT;
    int rc = ckpt_log_latest(offsets, &batch, err);
    if (rc > 0) rc = ckpt_log_read(offsets, batch, &text, err);
    if (rc > 0) {
        const char *file = log_file_name(offsets, batch, a);
        rc = parse_offsets(text.data, text.len, a, out, file, err) < 0 ? -1 : 1;
        if (rc > 0 && !out->has_meta) {
            sl_error_set(err, SL_ERR_IO_ERROR, "log file \"%s\" is malformed", file);
            rc = sl_error_detail(err, "Its second line must be the batch metadata (JSON).");
        }
    }
    sl_buf_free(&text);
    free(offsets);
    return rc;
}

int ckpt_offsets_latest(ckpt_t *c, int64_t *batch, sl_error_t *err)
{
    return ckpt_log_latest(c->offsets_dir, batch, err);
}

int ckpt_offsets_purge(ckpt_t *c, int64_t before, sl_error_t *err)
{
    return ckpt_log_purge(c->offsets_dir, before, err);
}

/* ---- commits/<N> ---- */

int ckpt_commit_stage(ckpt_t *c, int64_t batch, int64_t next_watermark_ms, ckpt_staged_t **out,
                      sl_error_t *err)
{
    char text[64];
    int n = snprintf(text, sizeof text, "v1\n{\"nextBatchWatermarkMs\":%" PRId64 "}",
                     next_watermark_ms);
    return ckpt_log_stage(c->commits_dir, "commits", batch, text, (size_t)n, 1, out, err);
}

int ckpt_commit_publish(ckpt_staged_t *s, sl_error_t *err)
{
    return ckpt_log_publish(s, err);
}

int ckpt_commit_write(ckpt_t *c, int64_t batch, int64_t next_watermark_ms, sl_error_t *err)
{
    ckpt_staged_t *s;
    if (ckpt_commit_stage(c, batch, next_watermark_ms, &s, err) < 0) return -1;
    return ckpt_commit_publish(s, err);
}

static int parse_commit(char *text, size_t len, int64_t *wm, const char *file, sl_error_t *err)
{
    *wm = 0;
    if (ckpt_check_version(text, len, CKPT_LOG_VERSION, file, err) < 0) return -1;
    char *nl = strchr(text, '\n');
    if (!nl || !nl[1]) return 0;
    json_error_t jerr;
    json_t *root = json_loads(nl + 1, JSON_REJECT_DUPLICATES, &jerr);
    if (!root || !json_is_object(root)) {
        json_decref(root);
        sl_error_set(err, SL_ERR_IO_ERROR, "log file \"%s\" is malformed", file);
        return sl_error_detail(err, "Its commit metadata is not a JSON object: %s.",
                               root ? "wrong type" : jerr.text);
    }
    int rc = json_int_field(root, "nextBatchWatermarkMs", wm, file, err);
    json_decref(root);
    return rc;
}

int ckpt_commit_read(ckpt_t *c, int64_t batch, int64_t *next_watermark_ms, sl_error_t *err)
{
    int rc = ckpt_log_read(c->commits_dir, batch, &c->scratch, err);
    if (rc <= 0) return rc;
    char name[24];
    snprintf(name, sizeof name, "%" PRId64, batch);
    char *file = sl_fs_path(c->commits_dir, name);
    rc = parse_commit(c->scratch.data, c->scratch.len, next_watermark_ms, file, err);
    free(file);
    return rc < 0 ? -1 : 1;
}

int ckpt_commit_latest(ckpt_t *c, int64_t *batch, sl_error_t *err)
{
    return ckpt_log_latest(c->commits_dir, batch, err);
}

int ckpt_commits_purge(ckpt_t *c, int64_t before, sl_error_t *err)
{
    return ckpt_log_purge(c->commits_dir, before, err);
}
