/* The checkpoint of one continuous query: a directory in Spark Structured
 * Streaming's layout and file formats (docs/checkpoints.md):
 *
 *   metadata          {"id":"<uuid>"}                 query id, written once
 *   offsets/<N>       v1 / batch metadata / one line per source   (write-ahead log)
 *   commits/<N>       v1 / {"nextBatchWatermarkMs":<ms>}          (commit log)
 *   sources/<i>/<N>   opaque per-source log (file source: files taken by batch N;
 *                     Kafka: sources/<i>/0 = initial offsets)
 *   state/<op>/...    state stores (state/store.h)
 *
 * The micro-batch runner drives it the way Spark's MicroBatchExecution drives
 * OffsetSeqLog and CommitLog:
 *
 *   ckpt_open(dir)                       at query start
 *   ckpt_recover()                       which batch runs next, over which offsets
 *   loop:
 *     ckpt_offsets_write(N, ...)         before batch N runs (walCommit)
 *     ... run batch N, sink commits N, state stores commit version N+1 ...
 *     ckpt_commit_write(N, watermark)    after the sink (commitOffsets)
 *     ckpt_offsets_purge / ckpt_commits_purge (N - minBatchesToRetain)
 *
 * Every write is crash-safe (temp file, fsync, rename, fsync directory): a
 * reader never sees a partial file, and a log file once written is never
 * replaced (a second write of the same batch id fails with 55000
 * "concurrent update to the log"). Reads validate the version line.
 *
 * A ckpt_t is used by one thread at a time (the query's runner: its driver,
 * or the worker that writes offsets/N while the driver runs the batch and
 * waits for it); distinct checkpoints are independent. Strings returned by read functions live in
 * the caller's arena. */
#ifndef SL_CHECKPOINT_H
#define SL_CHECKPOINT_H

#include <stdint.h>

#include "common/arena.h"
#include "common/sl_error.h"

typedef struct ckpt ckpt_t;

/* Highest log version this build reads and the one it writes ("v1"). */
#define CKPT_LOG_VERSION 1

/* The settings sluice pins in the offsets log at the first run (the runner
 * may store others: the map is generic). */
#define CKPT_CONF_SHUFFLE_PARTITIONS "sluice.shufflePartitions"
#define CKPT_CONF_STATE_STORE "sluice.stateStore"
#define CKPT_CONF_WATERMARK_POLICY "sluice.multipleWatermarkPolicy"

/* ---- opening ---- */

/* Opens the checkpoint in `dir`, creating the directory, offsets/, commits/,
 * sources/ and state/ as needed, and `metadata` with a new random (v4) query
 * id when absent; reads the id otherwise. A `metadata` missing while
 * offsets/ or commits/ hold files is refused (55000, naming the file): the
 * query ran there before and must keep its id. Leftover temporary files of
 * an interrupted write are removed. */
ckpt_t *ckpt_open(const char *dir, sl_error_t *err);
void ckpt_close(ckpt_t *c);

/* The query id from `metadata` ("xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx"). */
const char *ckpt_query_id(const ckpt_t *c);
/* "<dir>/state": the root that store_open() takes. */
const char *ckpt_state_dir(const ckpt_t *c);

/* ---- batch metadata and offsets (offsets/<N>) ---- */

typedef struct ckpt_conf_entry {
    const char *key;   /* e.g. "sluice.shufflePartitions" */
    const char *value; /* always a string, as in Spark */
} ckpt_conf_entry_t;

/* Spark's OffsetSeqMetadata: the line after "v1" in offsets/<N>. */
typedef struct ckpt_batch_meta {
    int64_t watermark_ms;    /* batchWatermarkMs: event-time watermark batch N uses */
    int64_t timestamp_ms;    /* batchTimestampMs: processing time fixed for batch N */
    int nconf;               /* entries in conf */
    ckpt_conf_entry_t *conf; /* pinned settings, written in this order */
} ckpt_batch_meta_t;

/* The content of one offsets/<N> file. */
typedef struct ckpt_offsets {
    int has_meta; /* read: 0 when the metadata line is empty (very old Spark
                                 files); ckpt_offsets_write always writes `meta` */
    ckpt_batch_meta_t meta;
    int nsources;         /* one entry per source, in source-id order */
    const char **sources; /* each source's end offset as compact JSON text, or NULL
                                 when the source has no offset yet (written "-") */
} ckpt_offsets_t;

/* Writes offsets/<batch> ("v1\n<meta json>\n<src0>\n<src1>...", no trailing
 * newline). Fails with 55000 "concurrent update to the log" when it exists,
 * 22023 when a source offset contains a newline. Failpoints
 * offsets.before_rename, offsets.after_rename. */
int ckpt_offsets_write(ckpt_t *c, int64_t batch, const ckpt_offsets_t *o, sl_error_t *err);
/* Reads offsets/<batch> into `out` (strings in `a`). Returns 1, 0 when the
 * file does not exist, -1 on error (I/O, malformed, newer version). */
int ckpt_offsets_read(ckpt_t *c, int64_t batch, sl_arena_t *a, ckpt_offsets_t *out,
                      sl_error_t *err);
/* Sets *batch to the newest id in offsets/. Returns 1, 0 when empty, -1. */
int ckpt_offsets_latest(ckpt_t *c, int64_t *batch, sl_error_t *err);
/* The newest offsets/<N> of the checkpoint at `dir`, read without opening
 * the checkpoint (nothing is created, deleted or locked, so it is safe
 * while a query writes it): 1 with *out in `a`, 0 when there is none, -1
 * with ckpt_offsets_read's errors ("malformed", "written by a newer
 * version"; a file without batch metadata is malformed). */
int ckpt_offsets_peek_latest(const char *dir, sl_arena_t *a, ckpt_offsets_t *out, sl_error_t *err);
/* Deletes offsets/<id> for every id < `before` (not fsynced: recovery reads
 * only the newest entries, and the next purge removes what a crash kept). */
int ckpt_offsets_purge(ckpt_t *c, int64_t before, sl_error_t *err);

/* Serialises batch metadata exactly as Spark writes it (json4s compact:
 * {"batchWatermarkMs":..,"batchTimestampMs":..,"conf":{..}}) into `a`. */
char *ckpt_batch_meta_json(const ckpt_batch_meta_t *m, sl_arena_t *a);
/* The value of a pinned setting, or NULL. */
const char *ckpt_conf_get(const ckpt_batch_meta_t *m, const char *key);

/* ---- commit log (commits/<N>) ---- */

/* Writes commits/<batch> = "v1\n{"nextBatchWatermarkMs":<ms>}", where `ms`
 * is the watermark computed at the end of the batch (used by batch+1).
 * 55000 when it exists. Failpoints commits.before_rename, commits.after_rename. */
int ckpt_commit_write(ckpt_t *c, int64_t batch, int64_t next_watermark_ms, sl_error_t *err);
/* commits/<batch> in two steps, so that the fsync of its temporary file can
 * overlap the sink's commit: stage writes and fsyncs the temporary file
 * (55000 when commits/<batch> exists; nothing is visible yet; any thread),
 * publish renames it into place and fsyncs the directory — the batch is
 * committed then — and frees `s`; ckpt_staged_drop (NULL is fine) removes
 * a staged file that is not to be published. A crash leaves at most a
 * temporary file, which ckpt_open removes. */
typedef struct ckpt_staged ckpt_staged_t;
int ckpt_commit_stage(ckpt_t *c, int64_t batch, int64_t next_watermark_ms, ckpt_staged_t **s,
                      sl_error_t *err);
int ckpt_commit_publish(ckpt_staged_t *s, sl_error_t *err);
void ckpt_staged_drop(ckpt_staged_t *s);
/* Reads commits/<batch>; a missing second line or "{}" gives 0. Returns 1,
 * 0 when absent, -1. */
int ckpt_commit_read(ckpt_t *c, int64_t batch, int64_t *next_watermark_ms, sl_error_t *err);
/* Sets *batch to the newest id in commits/. Returns 1, 0 when empty, -1. */
int ckpt_commit_latest(ckpt_t *c, int64_t *batch, sl_error_t *err);
/* Deletes commits/<id> for every id < `before`. */
int ckpt_commits_purge(ckpt_t *c, int64_t before, sl_error_t *err);

/* Checks the first line of a log file's text: "v<k>" with 1 <= k <= max.
 * Returns k, or -1 with an error naming `file` (malformed, or written by a
 * newer sluice). For sources that keep versioned files in sources/. */
int ckpt_check_version(const char *text, size_t len, int max_version, const char *file,
                       sl_error_t *err);

/* ---- restart (Spark's populateStartOffsets) ---- */

/* What the runner does first after ckpt_open(). With L the newest offsets/
 * id and C the newest commits/ id:
 *   no offsets         new query: batch 0, no start offsets, watermark 0
 *   C == L             batch L+1, start = offsets/L, watermark =
 *                      max(L's batchWatermarkMs, commits/L nextBatchWatermarkMs)
 *   C < L (or none)    re-run batch L over exactly offsets/L (end), start =
 *                      offsets/L-1 (none when L == 0), L's metadata verbatim;
 *                      C < L-1 is logged as a warning
 *   C > L              error: the checkpoint is inconsistent */
typedef struct ckpt_recovery {
    int64_t next_batch;     /* id of the batch to run next */
    int rerun;              /* 1: next_batch was logged but not committed; run it
                               over `end` without asking sources for new offsets */
    int64_t latest_offsets; /* L, -1 when offsets/ is empty */
    int64_t latest_commit;  /* C, -1 when commits/ is empty */
    int has_start;          /* `start` is valid (0: sources begin at their
                               configured starting offsets) */
    ckpt_offsets_t start;   /* where next_batch starts reading */
    ckpt_offsets_t end;     /* rerun only: the logged end offsets of next_batch */
    ckpt_batch_meta_t meta; /* restored metadata: watermark to use for next_batch;
                               timestamp (rerun: the logged one, to reuse; else the
                               last batch's); pinned conf from offsets/L (nconf 0
                               for a new query: the runner pins its own) */
} ckpt_recovery_t;

/* Fills `out` (strings in `a`) by the rules above. */
int ckpt_recover(ckpt_t *c, sl_arena_t *a, ckpt_recovery_t *out, sl_error_t *err);

#endif
