/* Guards on the size of a query's state, looked at after each batch runs
 * and before its output is written:
 *  - sluice.stateStore.maxMemory: with the memory state store, the state
 *    of all stateful operators together may hold at most this many bytes;
 *    past it the batch fails (nothing of it is committed, so a restart with
 *    a higher limit re-runs it), with an error naming the largest operator,
 *    its rows and the ways out.
 *  - growth without a watermark: a stateful operator whose state grew in
 *    each of the last RUNNER_GROWTH_BATCHES batches while no watermark
 *    evicted any of it gets a warning, logged once and shown in progress
 *    ("warnings") until its state stops growing. */
#include "runtime/runner_int.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"

static double mb(int64_t bytes)
{
    return (double)bytes / (1024.0 * 1024.0);
}

/* The stateful node (index into spec.stateful) holding the most memory. */
static int largest_operator(const runner_t *r, const op_metrics_t *m, int64_t *total)
{
    int big = 0;
    *total = 0;
    for (int i = 0; i < r->spec.nstateful; i++) {
        int64_t b = m[r->spec.stateful[i]->id].memory_used_bytes;
        *total += b;
        if (b > m[r->spec.stateful[big]->id].memory_used_bytes) big = i;
    }
    return big;
}

int runner_check_state_memory(const runner_t *r, const op_metrics_t *m, sl_error_t *err)
{
    if (r->spec.state_max_memory <= 0 || r->spec.nstateful == 0 || !m ||
        strcmp(r->spec.state_provider, "memory"))
        return 0;
    int64_t total;
    int big = largest_operator(r, m, &total);
    if (total <= r->spec.state_max_memory) return 0;
    const exec_pnode_t *n = r->spec.stateful[big];
    const op_metrics_t *om = &m[n->id];
    sl_error_set(
        err, SL_ERR_OUT_OF_MEMORY,
        "the state of query \"%s\" needs %.1f MB, over sluice.stateStore.maxMemory (%.1f MB): "
        "operator %s (id %d) holds %lld rows in %.1f MB; give the input a watermark, use the "
        "rocksdb state store or raise the limit",
        r->spec.name, mb(total), mb(r->spec.state_max_memory), n->ops->name, big,
        (long long)om->num_rows_total, mb(om->memory_used_bytes));
    sl_error_detail(err,
                    "Batch %lld was not committed: the query resumes from it once its state fits "
                    "(re-create the query on the same CHECKPOINT with a higher limit).",
                    (long long)r->next_batch);
    return sl_error_hint(
        err, "Give the input a watermark (WATERMARK col DELAY OF interval) so that old "
             "state is dropped, run the query with 'sluice.stateStore' 'rocksdb' (a new "
             "checkpoint: the provider is pinned), or raise 'sluice.stateStore.maxMemory'.");
}

/* Whether no watermark evicted state of stateful node i in this batch. */
static int without_watermark(const op_wm_t *wm, int i)
{
    return !wm || wm[i].evict_ms == INT64_MIN;
}

void runner_watch_state_growth(runner_t *r, const op_metrics_t *m, const op_wm_t *wm)
{
    if (!m) return;
    for (int i = 0; i < r->spec.nstateful; i++) {
        runner_growth_t *g = &r->growth[i];
        const exec_pnode_t *n = r->spec.stateful[i];
        const op_metrics_t *om = &m[n->id];
        if (om->rows_in == 0) continue; /* a no-data batch says nothing either way */
        int grew =
            om->num_rows_total > g->rows && om->num_rows_removed == 0 && without_watermark(wm, i);
        g->streak = grew ? g->streak + 1 : 0;
        g->rows = om->num_rows_total;
        g->bytes = om->memory_used_bytes;
        if (g->streak < RUNNER_GROWTH_BATCHES) {
            g->warned = 0;
            continue;
        }
        if (g->warned) continue;
        g->warned = 1;
        SL_WARN("runner",
                "query=%s operator=%s id=%d state keeps growing with no watermark: %lld rows "
                "(%.1f MB) after %d batches that each added state and dropped none",
                r->spec.name, n->ops->name, i, (long long)g->rows, mb(g->bytes), g->streak);
    }
}

void runner_growth_warnings(const runner_t *r, sl_json_t *j)
{
    int any = 0;
    for (int i = 0; i < r->spec.nstateful; i++) {
        const runner_growth_t *g = &r->growth[i];
        if (g->streak < RUNNER_GROWTH_BATCHES) continue;
        if (!any) {
            sl_json_key(j, "warnings");
            sl_json_array_begin(j);
            any = 1;
        }
        char msg[400];
        snprintf(
            msg, sizeof msg,
            "the state of operator %s (id %d) has grown in each of the last %d batches with no "
            "watermark to drop it: %lld rows, %.1f MB; give the input a watermark, or bound the "
            "keys",
            r->spec.stateful[i]->ops->name, i, g->streak, (long long)g->rows, mb(g->bytes));
        sl_json_string(j, msg);
    }
    if (any) sl_json_array_end(j);
}
