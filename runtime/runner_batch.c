/* One micro-batch: its inputs, its execution, its durable writes and the
 * order they must become durable in (SPEC §3):
 *
 *   offsets/N and the sources' logs   the write-ahead job, on the I/O pool,
 *                                      while the batch is read and run
 *   the sink's output                 staged (data files fsynced, manifest
 *                                      in a temporary file), then published
 *                                      once the write-ahead job is durable
 *   commits/N                         staged once the write-ahead is
 *                                      durable, published after the sink
 *
 * Each file follows the checkpoint's rule (temporary file, fsync, rename,
 * fsync directory); only the waiting overlaps.
 *
 * Threads: the query's driver thread owns the runner, its arenas (the
 * trigger arena above all) and its trigger info. A job on the I/O pool
 * gets everything it needs prepared by the driver before it starts (the
 * pinned settings of offsets/N are built in the trigger arena first),
 * allocates nothing from the driver's arenas, writes only its own result
 * slots and timing fields, and owns the checkpoint's log writer (r->ckpt,
 * whose scratch buffer builds offsets/N) until it is joined; the driver
 * reads the results after the join. */
#include "runtime/runner_int.h"

#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/sl_assert.h"
#include "common/pool.h"
#include "exec/wm_propagate.h"
#include "common/failpoint.h"

/* What offsets/N records: the end offsets, the watermark and timestamp of
 * the batch and the pinned settings; built by the driver thread. */
typedef struct offsets_rec {
    int64_t wm, ts;          /* batchWatermarkMs, batchTimestampMs */
    ckpt_conf_entry_t *conf; /* in the trigger arena */
    int nconf;
} offsets_rec_t;

static offsets_rec_t offsets_rec(runner_t *r, int64_t ts)
{
    offsets_rec_t rec = {.wm = r->watermark_ms, .ts = ts};
    rec.conf = runner_pinned_conf(r, &rec.nconf);
    return rec;
}

/* Writes offsets/N and purges log entries past the retention count. May run
 * on an I/O thread (the batch's ahead job): allocates from no arena. */
static int write_offsets(runner_t *r, runner_trigger_info_t *t, const offsets_rec_t *rec,
                         sl_error_t *err)
{
    int64_t t0 = sl_mono_ms();
    ckpt_offsets_t o = {.has_meta = 1, .nsources = r->spec.nsources, .sources = t->end};
    o.meta.watermark_ms = rec->wm;
    o.meta.timestamp_ms = rec->ts;
    o.meta.conf = rec->conf;
    o.meta.nconf = rec->nconf;
    if (ckpt_offsets_write(r->ckpt, t->batch_id, &o, err) < 0) return -1;
    int64_t keep = r->spec.min_batches_to_retain > 0 ? r->spec.min_batches_to_retain : 100;
    if (t->batch_id > keep) {
        sl_error_t ignored; /* a file left behind is removed by the next purge */
        ckpt_offsets_purge(r->ckpt, t->batch_id - keep, &ignored);
        ckpt_commits_purge(r->ckpt, t->batch_id - keep, &ignored);
    }
    t->d.wal_commit = sl_mono_ms() - t0;
    t->d.ran_wal = 1;
    return 0;
}

/* offsets/N is durable: sources may drop what the batch before took. */
static void sources_commit(runner_t *r)
{
    for (int i = 0; i < r->spec.nsources; i++) {
        source_t *s = r->spec.sources[i];
        if (s->ops->commit && r->committed[i]) s->ops->commit(s, r->committed[i]);
    }
}

int runner_write_ahead(runner_t *r, runner_trigger_info_t *t, int64_t ts, sl_error_t *err)
{
    r->status = "Writing offsets to log";
    offsets_rec_t rec = offsets_rec(r, ts);
    if (write_offsets(r, t, &rec, err) < 0) return -1;
    sources_commit(r);
    return 0;
}

/* commits/N staged (written and fsynced, not yet in place) on the I/O
 * pool while the sink publishes the batch; runner_commit_batch publishes
 * it. It starts once the write-ahead is durable, not before: until then
 * the disk has the writes the sink waits for to do. */
typedef struct commit_stage {
    runner_t *r;
    runner_trigger_info_t *t;
    int64_t wm; /* nextBatchWatermarkMs */
    int rc;
    sl_error_t err;
} commit_stage_t;

static void commit_stage_task(void *arg, int i)
{
    (void)i;
    commit_stage_t *c = arg;
    c->rc = ckpt_commit_stage(c->r->ckpt, c->t->batch_id, c->wm, &c->t->commit, &c->err);
}

/* ---- the batch's write-ahead job ----
 * offsets/N (unless a re-run: it is logged already) and every source's
 * write_ahead, each a task on the I/O pool, while the driver reads and
 * runs the batch and the sink stages its output; the sink waits for the job
 * (sink_await_ahead) before it publishes. The fsyncs of these writes and
 * of the sink's staged output overlap instead of following each other. */
typedef struct ahead_job {
    runner_t *r;
    runner_trigger_info_t *t;
    offsets_rec_t rec; /* what task 0 writes to offsets/N */
    int write_offsets; /* task 0 writes offsets/N */
    exec_pool_job_t *job;
    int joined;
    int *rcs; /* per task */
    sl_error_t *errs;
    int rc; /* after the join: 0, or -1 with err */
    sl_error_t err;
    commit_stage_t *stage; /* started after the join, or NULL */
    exec_pool_job_t *staging;
} ahead_job_t;

static void ahead_task(void *arg, int i)
{
    ahead_job_t *j = arg;
    if (i == 0) {
        if (j->write_offsets) j->rcs[0] = write_offsets(j->r, j->t, &j->rec, &j->errs[0]);
        return;
    }
    source_t *s = j->r->spec.sources[i - 1];
    if (s->ops->write_ahead) j->rcs[i] = s->ops->write_ahead(s, j->t->batch_id, &j->errs[i]);
}

static void ahead_start(runner_t *r, runner_trigger_info_t *t, int64_t ts, int offsets,
                        ahead_job_t *j)
{
    int n = r->spec.nsources + 1;
    *j = (ahead_job_t){.r = r, .t = t, .write_offsets = offsets};
    if (offsets) j->rec = offsets_rec(r, ts); /* before the job starts: the trigger arena is ours */
    j->rcs = SL_NEW_ARRAY(r->trigger_arena, int, n);
    j->errs = SL_NEW_ARRAY(r->trigger_arena, sl_error_t, n);
    j->job = exec_pool_start(r->spec.io_pool, ahead_task, j, n);
}

/* Joins the job (once) and starts staging commits/N; the job's first
 * error, if any. */
static int ahead_wait(void *arg, sl_error_t *err)
{
    ahead_job_t *j = arg;
    if (!j->joined) {
        exec_pool_join(j->r->spec.io_pool, j->job);
        j->joined = 1;
        for (int i = 0; i <= j->r->spec.nsources && j->rc == 0; i++)
            if (j->rcs[i] < 0) {
                j->rc = -1;
                j->err = j->errs[i];
            }
        if (j->rc == 0 && j->write_offsets) {
            failpoint_hit("runner.after_offsets");
            sources_commit(j->r);
        }
        if (j->rc == 0 && j->stage)
            j->staging = exec_pool_start(j->r->spec.io_pool, commit_stage_task, j->stage, 1);
    }
    if (j->rc < 0) *err = j->err;
    return j->rc;
}

/* Reads one split of a source, counting its rows. */
typedef struct split_input {
    source_t *src;
    source_split_t split;
    atomic_llong *rows;
} split_input_t;

typedef struct count_emit {
    exec_emit_fn emit;
    void *arg;
    atomic_llong *rows;
} count_emit_t;

static int count_rows_cb(void *arg, exec_batch_t *b, sl_error_t *err)
{
    count_emit_t *c = arg;
    atomic_fetch_add(c->rows, (long long)exec_batch_count(b));
    return c->emit(c->arg, b, err);
}

static int produce_split(void *arg, sl_arena_t *a, exec_emit_fn emit, void *emit_arg,
                         sl_error_t *err)
{
    split_input_t *si = arg;
    count_emit_t c = {emit, emit_arg, si->rows};
    return si->src->ops->read_split(si->src, &si->split, a, count_rows_cb, &c, err);
}

static exec_input_t *grow_inputs(sl_arena_t *a, exec_input_t *v, int n, int *cap)
{
    if (n < *cap) return v;
    v = sl_arena_realloc(a, v, sizeof *v * (size_t)*cap, sizeof *v * (size_t)*cap * 2);
    *cap *= 2;
    return v;
}

/* The inputs of the batch: every split of every source, then the static inputs. */
static int build_inputs(runner_t *r, runner_trigger_info_t *t, atomic_llong *rows,
                        exec_input_t **out, int *nout, sl_error_t *err)
{
    sl_arena_t *a = r->trigger_arena;
    int cap = r->spec.ninputs + 16, n = 0;
    exec_input_t *v = SL_NEW_ARRAY(a, exec_input_t, cap);
    int64_t t0 = sl_mono_ms();
    for (int k = 0; k < r->spec.ninputs; k++) {
        const runner_input_t *in = &r->spec.inputs[k];
        if (in->source < 0) {
            v = grow_inputs(a, v, n, &cap);
            v[n++] = (exec_input_t){.leaf = in->leaf, .produce = in->produce, .arg = in->arg};
            continue;
        }
        source_t *s = r->spec.sources[in->source];
        source_split_t *splits;
        int ns;
        if (s->ops->plan(s, t->batch_id, t->start[in->source], t->end[in->source], a, &splits, &ns,
                         err) < 0)
            return -1;
        for (int j = 0; j < ns; j++) {
            v = grow_inputs(a, v, n, &cap);
            split_input_t *si = SL_NEW(a, split_input_t);
            si->src = s;
            si->split = splits[j];
            si->rows = &rows[in->source];
            v[n++] = (exec_input_t){.leaf = in->leaf,
                                    .produce = produce_split,
                                    .arg = si,
                                    .partition = splits[j].partition};
        }
    }
    t->d.get_batch = sl_mono_ms() - t0;
    *out = v;
    *nout = n;
    return 0;
}

/* Folds the batch's event-time statistics into the watermark (Spark's WatermarkTracker). */
static void advance_watermark(runner_t *r, const op_metrics_t *metrics)
{
    int n = r->spec.nwatermarks;
    if (n == 0) return;
    int64_t global = r->node_wm[0];
    for (int i = 0; i < n; i++) {
        const op_metrics_t *m = &metrics[r->spec.watermarks[i]->id];
        if (m->et_count) {
            int64_t cand = m->et_max - r->spec.wm_delays[i];
            if (cand > r->node_wm[i]) r->node_wm[i] = cand;
        }
        int64_t w = r->node_wm[i];
        if (i == 0) global = w;
        else if (!strcmp(r->spec.watermark_policy, "max") ? w > global : w < global) global = w;
    }
    if (global > r->watermark_ms) r->watermark_ms = global;
}

/* The input watermarks of each stateful operator in this batch, propagated
 * from the query's watermark of the previous batch (late rows) and of this
 * one (eviction); NULL without watermarks. */
static const op_wm_t *operator_watermarks(runner_t *r)
{
    if (r->spec.nwatermarks == 0 || r->spec.nstateful == 0) return NULL;
    op_wm_t *wm = SL_NEW_ARRAY(r->trigger_arena, op_wm_t, r->spec.nstateful);
    exec_wm_propagate(r->spec.root, r->prev_batch_wm, r->watermark_ms, wm);
    return wm;
}

/* Hands the result to the sink, behind the write-ahead barrier, with
 * commits/N staged once that is passed when `stage_commit`. */
static int sink_step(runner_t *r, runner_trigger_info_t *t, int64_t sink_batch_id,
                     exec_result_t *res, ahead_job_t *ahead, int stage_commit, sl_error_t *err)
{
    commit_stage_t cs = {.r = r, .t = t, .wm = r->watermark_ms};
    if (stage_commit) ahead->stage = &cs;
    sink_ahead_t barrier = {ahead_wait, ahead};
    sl_error_t ignored;
    int rc = r->spec.sink->ops->add_batch(r->spec.sink, sink_batch_id, res->batches, res->nbatches,
                                          &barrier, err);
    if (rc < 0) ahead->stage = NULL; /* nothing to commit */
    if (ahead_wait(ahead, rc == 0 ? err : &ignored) < 0) rc = -1;
    exec_pool_join(r->spec.io_pool, ahead->staging);
    if (rc == 0 && cs.rc < 0) {
        *err = cs.err;
        rc = -1;
    }
    if (rc < 0) {
        ckpt_staged_drop(t->commit);
        t->commit = NULL;
    }
    return rc;
}

int runner_run_batch(runner_t *r, runner_trigger_info_t *t, int64_t ts, int64_t sink_batch_id,
                     int flags, sl_error_t *err)
{
    int ns = r->spec.nsources;
    atomic_llong *rows = SL_NEW_ARRAY(r->trigger_arena, atomic_llong, ns + 1);
    exec_input_t *inputs;
    int ninputs;
    if (build_inputs(r, t, rows, &inputs, &ninputs, err) < 0) return -1;
    ahead_job_t ahead;
    ahead_start(r, t, ts, flags & RUNNER_BATCH_OFFSETS, &ahead);
    r->status = "Processing new data";
    op_ctx_t base = {
        .batch_id = t->batch_id,
        .npartitions = r->spec.npartitions,
        .mode = r->spec.mode,
        .wm = operator_watermarks(r),
        .state_dir = ckpt_state_dir(r->ckpt),
        .state_provider = r->spec.state_provider,
        .is_replay = r->rerun,
        .stores = r->stores,
    };
    int64_t t0 = sl_mono_ms();
    exec_result_t res;
    if (exec_run(r->spec.root, &base, ts, r->spec.cancel, r->spec.pool, inputs, ninputs, &res,
                 err) < 0) {
        sl_error_t ignored;
        ahead_wait(&ahead, &ignored);
        return -1;
    }
    free(r->last_metrics);
    r->last_metrics = res.metrics;
    r->last_nnodes = res.nnodes;
    res.metrics = NULL;
    t->metrics = r->last_metrics;
    if (runner_check_state_memory(r, t->metrics, err) < 0) {
        sl_error_t ignored;
        ahead_wait(&ahead, &ignored);
        exec_result_free(&res);
        return -1;
    }
    runner_watch_state_growth(r, t->metrics, base.wm);
    advance_watermark(r, t->metrics); /* commits/N records the watermark the batch moved to */
    int rc = sink_step(r, t, sink_batch_id, &res, &ahead, flags & RUNNER_BATCH_COMMIT, err);
    t->d.add_batch = sl_mono_ms() - t0;
    t->d.ran_batch = 1;
    for (int i = 0; i < ns; i++) {
        t->rows[i] += atomic_load(&rows[i]);
        t->total_rows += atomic_load(&rows[i]);
    }
    t->output_rows += r->spec.sink->last_output_rows;
    exec_result_free(&res);
    return rc;
}

int runner_commit_batch(runner_t *r, runner_trigger_info_t *t, sl_error_t *err)
{
    SL_ASSERT(t->batch_id == r->next_batch);       /* batches commit in order, one at a time */
    SL_ASSERT(t->batch_wm_ms >= r->prev_batch_wm); /* the watermark never goes back */
    int64_t t0 = sl_mono_ms();
    ckpt_staged_t *staged = t->commit;
    t->commit = NULL;
    if (staged ? ckpt_commit_publish(staged, err) < 0
               : ckpt_commit_write(r->ckpt, t->batch_id, r->watermark_ms, err) < 0)
        return -1;
    t->d.commit_offsets = sl_mono_ms() - t0;
    for (int i = 0; i < r->spec.nsources; i++)
        r->committed[i] = t->end[i] ? sl_strdup(r->arena, t->end[i]) : NULL;
    r->evicted_wm = t->batch_wm_ms;
    r->prev_batch_wm = t->batch_wm_ms;
    r->next_batch = t->batch_id + 1;
    r->rerun = 0;
    return 0;
}
