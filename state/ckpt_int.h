/* Internal to the checkpoint code (checkpoint.c, ckpt_log.c): the handle and
 * the numbered-log primitives shared by offsets/, commits/ and sources/. */
#ifndef SL_CKPT_INT_H
#define SL_CKPT_INT_H

#include "common/buf.h"
#include "state/checkpoint.h"

struct ckpt {
    char *dir;         /* as given to ckpt_open */
    char *offsets_dir; /* <dir>/offsets */
    char *commits_dir; /* <dir>/commits */
    char *sources_dir; /* <dir>/sources */
    char *state_dir;   /* <dir>/state */
    char id[40];       /* query id from <dir>/metadata */
    sl_buf_t scratch;  /* file contents being built or parsed */
};

/* Writes <dir>/<id> crash-safely, refusing to replace it; `log` ("offsets",
 * "commits", "sources") names the log in errors and the failpoints
 * "<log>.before_rename" / "<log>.after_rename" (none when fp is 0). */
int ckpt_log_write(const char *dir, const char *log, int64_t id, const void *data, size_t len,
                   int fp, sl_error_t *err);
/* ckpt_log_write in two steps: stage writes and fsyncs the temporary file,
 * publish renames it into place and fsyncs the directory (and frees). */
int ckpt_log_stage(const char *dir, const char *log, int64_t id, const void *data, size_t len,
                   int fp, ckpt_staged_t **out, sl_error_t *err);
int ckpt_log_publish(ckpt_staged_t *s, sl_error_t *err);
/* Reads <dir>/<id> into `out`; 1, 0 when absent, -1. */
int ckpt_log_read(const char *dir, int64_t id, sl_buf_t *out, sl_error_t *err);
/* Newest id; 1, 0 when none, -1. */
int ckpt_log_latest(const char *dir, int64_t *id, sl_error_t *err);
/* Deletes ids < before. */
int ckpt_log_purge(const char *dir, int64_t before, sl_error_t *err);

#endif
