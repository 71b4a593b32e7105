/* The checkpoint directory of a query: opening it (directories, the
 * `metadata` file with the query id) and the restart decision of Spark's
 * MicroBatchExecution.populateStartOffsets (reference §3.6). The log file
 * formats are in ckpt_log.c. */
#include "state/ckpt_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/private_file.h"
#include "common/log.h"
#include "common/uuid.h"
#include "state/state_int.h"

/* ---- metadata ---- */

static int parse_metadata(ckpt_t *c, const char *path, sl_error_t *err)
{
    json_error_t jerr;
    json_t *root = json_loadb(c->scratch.data, c->scratch.len, JSON_REJECT_DUPLICATES, &jerr);
    json_t *id = json_is_object(root) ? json_object_get(root, "id") : NULL;
    int ok =
        json_is_string(id) && json_string_length(id) > 0 && json_string_length(id) < sizeof c->id;
    if (ok) snprintf(c->id, sizeof c->id, "%s", json_string_value(id));
    json_decref(root);
    if (ok) return 0;
    sl_error_set(err, SL_ERR_IO_ERROR, "checkpoint metadata file \"%s\" is malformed", path);
    return sl_error_detail(err, "It must hold {\"id\":\"<query id>\"}.");
}

/* 1 when offsets/ or commits/ hold a log file (the query has run), 0, -1. */
static int has_logs(ckpt_t *c, sl_error_t *err)
{
    int64_t id;
    int rc = ckpt_log_latest(c->offsets_dir, &id, err);
    return rc != 0 ? rc : ckpt_log_latest(c->commits_dir, &id, err);
}

/* A checkpoint whose logs outlived its metadata: a new id would silently
 * make it another query (progress reports, the Kafka sink's transactional
 * id), so it is refused as inconsistent. */
static int metadata_missing(ckpt_t *c, const char *path, sl_error_t *err)
{
    sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                 "checkpoint metadata file \"%s\" is missing", path);
    sl_error_detail(err,
                    "The checkpoint \"%s\" holds offsets/ or commits/ files, so the query "
                    "ran on it before; a new query id would make it another query.",
                    c->dir);
    return sl_error_hint(err, "Restore the metadata file from a backup (or write {\"id\":\"<the "
                              "query's id>\"} into it), or start the query with a new checkpoint "
                              "location.");
}

/* Reads <dir>/metadata, creating it with a new id when absent from a
 * checkpoint that has no logs yet. */
static int load_metadata(ckpt_t *c, sl_error_t *err)
{
    char *path = sl_fs_path(c->dir, "metadata");
    int rc = sl_fs_read_file(path, &c->scratch, err);
    if (rc == 0 && (rc = has_logs(c, err)) != 0) {
        if (rc > 0) metadata_missing(c, path, err);
        free(path);
        return -1;
    }
    if (rc == 0) {
        char uuid[37];
        char text[64];
        rc = sl_uuid_v4(uuid, err);
        int n = snprintf(text, sizeof text, "{\"id\":\"%s\"}", uuid);
        if (rc == 0)
            rc = sl_fs_write_file(c->dir, "metadata", text, (size_t)n, SL_FW_NOREPLACE, NULL, NULL,
                                  err);
        /* Losing a creation race to another process is fine: read its id. */
        if (rc == 0 || !strcmp(err->sqlstate, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE))
            rc = sl_fs_read_file(path, &c->scratch, err);
    }
    if (rc > 0) rc = parse_metadata(c, path, err);
    free(path);
    return rc < 0 ? -1 : 0;
}

/* ---- open / close ---- */

/* Removes temporary files of interrupted writes in sources/<i>/. */
static int clean_source_logs(ckpt_t *c, sl_error_t *err)
{
    int64_t *ids;
    int n = sl_fs_list_ids(c->sources_dir, "", &ids, err);
    int rc = n < 0 ? -1 : 0;
    for (int i = 0; i < n && rc == 0; i++) {
        char name[24];
        snprintf(name, sizeof name, "%" PRId64, ids[i]);
        char *dir = sl_fs_path(c->sources_dir, name);
        rc = sl_fs_remove_temps(dir, err);
        free(dir);
    }
    free(ids);
    return rc;
}

static int make_dirs(ckpt_t *c, sl_error_t *err)
{
    const char *dirs[] = {c->dir, c->offsets_dir, c->commits_dir, c->sources_dir, c->state_dir};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
        if (sl_fs_mkdirs(dirs[i], SL_PRIVATE_DIR_MODE, err) < 0) return -1;
    const char *logs[] = {c->dir, c->offsets_dir, c->commits_dir};
    for (size_t i = 0; i < sizeof logs / sizeof *logs; i++)
        if (sl_fs_remove_temps(logs[i], err) < 0) return -1;
    return clean_source_logs(c, err);
}

ckpt_t *ckpt_open(const char *dir, sl_error_t *err)
{
    ckpt_t *c = sl_xcalloc(1, sizeof *c);
    c->dir = sl_xstrdup(dir);
    c->offsets_dir = sl_fs_path(dir, "offsets");
    c->commits_dir = sl_fs_path(dir, "commits");
    c->sources_dir = sl_fs_path(dir, "sources");
    c->state_dir = sl_fs_path(dir, "state");
    if (make_dirs(c, err) < 0 || load_metadata(c, err) < 0) {
        ckpt_close(c);
        return NULL;
    }
    return c;
}

void ckpt_close(ckpt_t *c)
{
    if (!c) return;
    free(c->dir);
    free(c->offsets_dir);
    free(c->commits_dir);
    free(c->sources_dir);
    free(c->state_dir);
    sl_buf_free(&c->scratch);
    free(c);
}

const char *ckpt_query_id(const ckpt_t *c)
{
    return c->id;
}

const char *ckpt_state_dir(const ckpt_t *c)
{
    return c->state_dir;
}

/* ---- restart ---- */

/* Sets the error for a checkpoint whose logs contradict each other; `fmt`
 * is the detail sentence. */
static int inconsistent(ckpt_t *c, sl_error_t *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int inconsistent(ckpt_t *c, sl_error_t *err, const char *fmt, ...)
{
    char detail[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE, "checkpoint \"%s\" is inconsistent",
                 c->dir);
    sl_error_detail(err, "%s", detail);
    return sl_error_hint(err, "Restore the checkpoint directory from a backup, or start the "
                              "query with a new checkpoint location.");
}

/* Reads offsets/<batch>, which must exist. */
static int must_read_offsets(ckpt_t *c, int64_t batch, sl_arena_t *a, ckpt_offsets_t *o,
                             sl_error_t *err)
{
    int rc = ckpt_offsets_read(c, batch, a, o, err);
    if (rc == 0)
        return inconsistent(c, err,
                            "The offsets of batch %" PRId64 " are missing (newest "
                            "batch %" PRId64 ").",
                            batch, batch + 1);
    return rc < 0 ? -1 : 0;
}

/* C == L: the last logged batch completed; the next one starts after it. */
static int recover_committed(ckpt_t *c, ckpt_offsets_t *last, ckpt_recovery_t *out, sl_error_t *err)
{
    int64_t next_wm = 0;
    int rc = ckpt_commit_read(c, out->latest_commit, &next_wm, err);
    if (rc <= 0)
        return rc < 0 ? -1
                      : inconsistent(c, err,
                                     "commits/%" PRId64 " vanished while "
                                     "reading (newest offsets %" PRId64 ").",
                                     out->latest_commit, out->latest_offsets);
    out->next_batch = out->latest_offsets + 1;
    out->has_start = 1;
    out->start = *last;
    out->meta = last->meta;
    if (next_wm > out->meta.watermark_ms) out->meta.watermark_ms = next_wm;
    return 0;
}

/* C < L or no commit: batch L is re-run over its logged offsets. */
static void recover_rerun(ckpt_t *c, ckpt_offsets_t *last, ckpt_recovery_t *out)
{
    int64_t l = out->latest_offsets, cm = out->latest_commit;
    if (cm < 0)
        SL_INFO("checkpoint", "no commit log present, re-running batch dir=%s batch=%" PRId64,
                c->dir, l);
    else if (cm < l - 1)
        SL_WARN("checkpoint",
                "batch completion log latest batch id is %" PRId64 ", which is not trailing "
                "batch id %" PRId64 " by one dir=%s",
                cm, l, c->dir);
    out->next_batch = l;
    out->rerun = 1;
    out->end = *last;
    out->meta = last->meta;
}

int ckpt_recover(ckpt_t *c, sl_arena_t *a, ckpt_recovery_t *out, sl_error_t *err)
{
    memset(out, 0, sizeof *out);
    out->latest_offsets = out->latest_commit = -1;
    int has_l = ckpt_offsets_latest(c, &out->latest_offsets, err);
    int has_c = has_l < 0 ? -1 : ckpt_commit_latest(c, &out->latest_commit, err);
    if (has_l < 0 || has_c < 0) return -1;
    if (!has_l) {
        if (has_c)
            return inconsistent(c, err, "commits/%" PRId64 " exists but offsets/ is empty.",
                                out->latest_commit);
        return 0; /* new query: batch 0 */
    }
    int64_t l = out->latest_offsets;
    if (has_c && out->latest_commit > l)
        return inconsistent(c, err,
                            "commits/%" PRId64 " is newer than the newest offsets/%" PRId64 ".",
                            out->latest_commit, l);
    ckpt_offsets_t last, prev;
    if (must_read_offsets(c, l, a, &last, err) < 0) return -1;
    if (l > 0 && must_read_offsets(c, l - 1, a, &prev, err) < 0) return -1;
    if (has_c && out->latest_commit == l) return recover_committed(c, &last, out, err);
    recover_rerun(c, &last, out);
    out->has_start = l > 0;
    if (l > 0) out->start = prev;
    return 0;
}
