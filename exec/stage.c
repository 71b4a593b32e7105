/* Stage execution: cutting the plan into stages at exchanges, running each
 * stage's tasks on the pool, moving rows through exchange buffers, and
 * collecting the root's output and the operators' metrics. */
#include "exec/stage.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "exec/op_exchange.h"
#include "exec/stage_int.h"

typedef struct stage {
    const exec_pnode_t *root;
    const exec_pnode_t **members; /* nodes of the stage, post-order (children first) */
    int nmembers;
    const exec_pnode_t **xleaves; /* exchanges below the stage (not broadcast) */
    int nxleaves;
    const exec_input_t **inputs; /* input tasks of this stage's INPUT leaves */
    int ninputs;
    int ntasks;
    int nparts; /* partitions read from exchange leaves */
} stage_t;

typedef struct task_out {
    exec_batch_t **batches;
    int n, cap;
} task_out_t;

typedef struct stage_run {
    exec_run_state_t *rs;
    stage_t *st;
    const op_ctx_t *base;
    int64_t ts_ms;
    const atomic_int *cancel;
    sl_arena_t **arenas;   /* per task, created by the thread that runs it */
    op_metrics_t *metrics; /* ntasks * nnodes */
    task_out_t *outs;      /* per task, when the stage root is the plan root */
    int is_last;
    atomic_int failed;
    sl_error_t *errs; /* per task */
} stage_run_t;

/* ---- INPUT leaves ---- */

static int input_open(op_t *op, sl_error_t *err)
{
    (void)op;
    (void)err;
    return 0;
}

static int input_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    (void)input;
    op->metrics->rows_in += exec_batch_count(b);
    return op_emit(op, b, err);
}

static int input_finish(op_t *op, sl_error_t *err)
{
    (void)op;
    (void)err;
    return 0;
}

static void input_close(op_t *op)
{
    (void)op;
}

static void input_explain(const exec_pnode_t *node, sl_buf_t *out)
{
    if (node->config) sl_buf_printf(out, " %s", (const char *)node->config);
}

const op_ops_t op_input_ops = {
    .name = "Input",
    .open = input_open,
    .push = input_push,
    .finish = input_finish,
    .close = input_close,
    .explain = input_explain,
};

exec_pnode_t *op_input_plan(sl_arena_t *a, int ncols, const char *const *names,
                            const exec_type_t *types, const char *tag)
{
    exec_pnode_t *n = exec_pnode_new(a, &op_input_ops, ncols, tag ? sl_strdup(a, tag) : NULL);
    exec_pnode_set_schema(a, n, names, types);
    return n;
}

/* ---- the collector above the plan root ---- */

static int collect_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    (void)input;
    (void)err;
    task_out_t *o = op->state;
    /* The batch may live in scratch memory: copy its present rows. */
    exec_builder_t bld;
    exec_type_t *types = SL_NEW_ARRAY(op->ctx->arena, exec_type_t, b->ncols > 0 ? b->ncols : 1);
    for (int c = 0; c < b->ncols; c++) types[c] = b->cols[c].type;
    exec_builder_init(&bld, op->ctx->arena, b->ncols, types, exec_batch_count(b));
    exec_builder_append_batch(&bld, b);
    b = exec_builder_finish(&bld);
    if (o->n == o->cap) {
        int cap = o->cap ? o->cap * 2 : 8;
        o->batches =
            sl_arena_realloc(op->ctx->arena, o->batches, sizeof *o->batches * (size_t)o->cap,
                             sizeof *o->batches * (size_t)cap);
        o->cap = cap;
    }
    o->batches[o->n++] = b;
    return 0;
}

static const op_ops_t collect_ops = {.name = "Collect", .push = collect_push};

/* ---- plan shape ---- */

static int number_nodes(exec_pnode_t *n, int next)
{
    n->id = next++;
    for (int i = 0; i < n->nchildren; i++) next = number_nodes(n->children[i], next);
    return next;
}

int exec_plan_number(exec_pnode_t *root)
{
    return number_nodes(root, 0);
}

static int max_node_id(const exec_pnode_t *n)
{
    int m = n->id;
    for (int i = 0; i < n->nchildren; i++) {
        int c = max_node_id(n->children[i]);
        if (c > m) m = c;
    }
    return m;
}

static int is_broadcast(const exec_pnode_t *n)
{
    return op_is_exchange(n) && ((const op_exchange_config_t *)n->config)->broadcast;
}

/* Adds the members of the stage rooted at n (post-order) and its exchange leaves. */
static void collect_members(sl_arena_t *a, stage_t *st, const exec_pnode_t *n, int is_root, int cap)
{
    if (!is_root && op_is_exchange(n)) {
        if (!is_broadcast(n)) st->xleaves[st->nxleaves++] = n;
        return;
    }
    for (int i = 0; i < n->nchildren; i++) collect_members(a, st, n->children[i], 0, cap);
    st->members[st->nmembers++] = n;
}

/* Stages in execution order: the stages below a node before the node's own. */
static void collect_stages(sl_arena_t *a, const exec_pnode_t *n, int is_root, stage_t *stages,
                           int *nstages, int nnodes)
{
    for (int i = 0; i < n->nchildren; i++)
        collect_stages(a, n->children[i], 0, stages, nstages, nnodes);
    if (!is_root && !op_is_exchange(n)) return;
    stage_t *st = &stages[(*nstages)++];
    st->root = n;
    st->members = SL_NEW_ARRAY(a, const exec_pnode_t *, nnodes);
    st->xleaves = SL_NEW_ARRAY(a, const exec_pnode_t *, nnodes);
    collect_members(a, st, n, 1, nnodes);
}

static int stage_has_member(const stage_t *st, const exec_pnode_t *n)
{
    for (int i = 0; i < st->nmembers; i++)
        if (st->members[i] == n) return 1;
    return 0;
}

/* Decides the tasks of a stage: one per input of its INPUT leaves, else one
 * per partition of the exchanges it reads. */
static void stage_plan_tasks(sl_arena_t *a, stage_t *st, const exec_input_t *inputs, int ninputs)
{
    st->inputs = SL_NEW_ARRAY(a, const exec_input_t *, ninputs > 0 ? ninputs : 1);
    for (int i = 0; i < ninputs; i++)
        if (stage_has_member(st, inputs[i].leaf)) st->inputs[st->ninputs++] = &inputs[i];
    st->nparts = 1;
    for (int i = 0; i < st->nxleaves; i++)
        st->nparts = ((const op_exchange_config_t *)st->xleaves[i]->config)->npartitions;
    int has_input_leaf = 0;
    for (int i = 0; i < st->nmembers; i++)
        if (st->members[i]->ops == &op_input_ops) has_input_leaf = 1;
    st->ntasks = has_input_leaf ? st->ninputs : st->nparts;
}

/* ---- running a task ---- */

typedef struct task {
    stage_run_t *sr;
    int index;
    op_t *ops; /* per node id (members only) */
    op_ctx_t ctx;
    exec_ctx_t ectx;
    op_t collector;
    op_metrics_t collector_metrics;
} task_t;

/* Creates the op instances of the stage's members and links them. */
static void task_build(task_t *t)
{
    stage_run_t *sr = t->sr;
    stage_t *st = sr->st;
    t->ops = SL_NEW_ARRAY(t->ctx.arena, op_t, sr->rs->nnodes);
    for (int i = 0; i < st->nmembers; i++) {
        const exec_pnode_t *n = st->members[i];
        op_t *op = &t->ops[n->id];
        op->ops = n->ops;
        op->node = n;
        op->ctx = &t->ctx;
        op->metrics = &sr->metrics[t->index * sr->rs->nnodes + n->id];
        op->wm = (op_wm_t){INT64_MIN, INT64_MIN};
        if (t->ctx.wm && n->ops->stateful && n->op_id >= 0) op->wm = t->ctx.wm[n->op_id];
        for (int c = 0; c < n->nchildren; c++) {
            const exec_pnode_t *ch = n->children[c];
            if (!stage_has_member(st, ch)) continue;
            t->ops[ch->id].parent = op;
            t->ops[ch->id].parent_input = c;
        }
    }
    if (sr->is_last) {
        t->collector.ops = &collect_ops;
        t->collector.ctx = &t->ctx;
        t->collector.metrics = &t->collector_metrics;
        t->collector.state = &sr->outs[t->index];
        t->ops[st->root->id].parent = &t->collector;
    }
}

/* Pushes one batch into an op, then drops the scratch memory it used. */
static int push_into(task_t *t, op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    if (t->ectx.cancel && atomic_load(t->ectx.cancel))
        return sl_error_set(err, SL_ERR_QUERY_CANCELED, "canceling statement due to user request");
    int rc = op->ops->push(op, input, b, err);
    sl_arena_reset(t->ectx.arena);
    return rc;
}

typedef struct input_emit {
    task_t *t;
    op_t *leaf;
} input_emit_t;

static int input_emit_cb(void *arg, exec_batch_t *b, sl_error_t *err)
{
    input_emit_t *ie = arg;
    return push_into(ie->t, ie->leaf, 0, b, err);
}

/* Feeds the task's input: its producer, or its partition of every exchange leaf. */
static int task_drive(task_t *t, sl_error_t *err)
{
    stage_run_t *sr = t->sr;
    stage_t *st = sr->st;
    if (st->ninputs > 0 || st->nxleaves == 0) {
        if (t->index >= st->ninputs) return 0;
        const exec_input_t *in = st->inputs[t->index];
        input_emit_t ie = {t, &t->ops[in->leaf->id]};
        return in->produce(in->arg, t->ctx.arena, input_emit_cb, &ie, err);
    }
    for (int x = 0; x < st->nxleaves; x++) {
        const exec_pnode_t *xn = st->xleaves[x];
        exchange_buf_t *buf = &sr->rs->xbufs[xn->id];
        op_t *parent = NULL;
        int input = 0;
        for (int i = 0; i < st->nmembers && !parent; i++)
            for (int c = 0; c < st->members[i]->nchildren; c++)
                if (st->members[i]->children[c] == xn) {
                    parent = &t->ops[st->members[i]->id];
                    input = c;
                }
        for (int pt = 0; pt < buf->ntasks; pt++) {
            int slot = pt * buf->nparts + t->index;
            for (int i = 0; i < buf->counts[slot]; i++)
                if (push_into(t, parent, input, buf->lists[slot][i], err) < 0) return -1;
        }
    }
    return 0;
}

static int task_run(task_t *t, sl_error_t *err)
{
    stage_t *st = t->sr->st;
    int rc = 0, opened = 0;
    for (; opened < st->nmembers && rc == 0; opened++) {
        op_t *op = &t->ops[st->members[opened]->id];
        rc = op->ops->open(op, err);
    }
    if (rc == 0) rc = task_drive(t, err);
    for (int i = 0; rc == 0 && i < st->nmembers; i++) {
        op_t *op = &t->ops[st->members[i]->id];
        rc = op->ops->finish(op, err);
    }
    for (int i = 0; i < opened; i++) {
        op_t *op = &t->ops[st->members[i]->id];
        if (op->ops->close) op->ops->close(op);
    }
    return rc;
}

static void task_main(void *arg, int index)
{
    stage_run_t *sr = arg;
    if (atomic_load(&sr->failed)) return;
    task_t t = {.sr = sr, .index = index};
    t.ctx = *sr->base;
    /* the task's arenas are its own: created here, on the thread that runs
     * it; the driver frees them (exec_result_free) after the join */
    t.ctx.arena = sr->arenas[index] = sl_arena_new("task");
    t.ctx.task = index;
    t.ctx.partition = sr->st->ninputs > 0 ? sr->st->inputs[index]->partition : index;
    t.ctx.run = sr->rs;
    t.ectx.arena = sl_arena_new("scratch");
    t.ectx.batch_timestamp_ms = sr->ts_ms;
    t.ectx.cancel = sr->cancel;
    t.ctx.ectx = &t.ectx;
    task_build(&t);
    if (task_run(&t, &sr->errs[index]) < 0) atomic_store(&sr->failed, 1);
    sl_arena_free(t.ectx.arena);
}

/* ---- running a stage ---- */

static void init_xbuf(sl_arena_t *a, exec_run_state_t *rs, const stage_t *st)
{
    if (!op_is_exchange(st->root)) return;
    const op_exchange_config_t *cfg = st->root->config;
    exchange_buf_t *b = &rs->xbufs[st->root->id];
    b->ntasks = st->ntasks;
    b->nparts = cfg->broadcast ? 1 : cfg->npartitions;
    b->lists = SL_NEW_ARRAY(a, exec_batch_t **, b->ntasks * b->nparts + 1);
    b->counts = SL_NEW_ARRAY(a, int, b->ntasks * b->nparts + 1);
}

static void sum_metrics(op_metrics_t *dst, const op_metrics_t *src)
{
    dst->rows_in += src->rows_in;
    dst->rows_out += src->rows_out;
    dst->num_rows_total += src->num_rows_total;
    dst->num_rows_updated += src->num_rows_updated;
    dst->num_rows_removed += src->num_rows_removed;
    dst->num_rows_dropped_by_watermark += src->num_rows_dropped_by_watermark;
    dst->memory_used_bytes += src->memory_used_bytes;
    dst->all_updates_time_ms += src->all_updates_time_ms;
    dst->all_removals_time_ms += src->all_removals_time_ms;
    dst->commit_time_ms += src->commit_time_ms;
    dst->num_state_store_instances += src->num_state_store_instances;
    for (int i = 0; i < src->ncustom; i++) {
        int64_t prev = 0;
        for (int j = 0; j < dst->ncustom; j++)
            if (!strcmp(dst->custom_names[j], src->custom_names[i])) prev = dst->custom_values[j];
        op_metric_set(dst, src->custom_names[i], prev + src->custom_values[i]);
    }
    if (src->et_count) {
        if (!dst->et_count || src->et_min < dst->et_min) dst->et_min = src->et_min;
        if (!dst->et_count || src->et_max > dst->et_max) dst->et_max = src->et_max;
        dst->et_count += src->et_count;
        dst->et_sum += src->et_sum;
    }
}

static void gather_output(exec_result_t *out, stage_run_t *sr, sl_arena_t *a)
{
    int total = 0;
    for (int t = 0; t < sr->st->ntasks; t++) total += sr->outs[t].n;
    out->batches = SL_NEW_ARRAY(a, exec_batch_t *, total + 1);
    for (int t = 0; t < sr->st->ntasks; t++)
        for (int i = 0; i < sr->outs[t].n; i++) {
            exec_batch_t *b = sr->outs[t].batches[i];
            out->batches[out->nbatches++] = b;
            out->nrows += exec_batch_count(b);
        }
}

static int run_stage(exec_run_state_t *rs, stage_t *st, const op_ctx_t *base, int64_t ts_ms,
                     const atomic_int *cancel, exec_pool_t *pool, int is_last, exec_result_t *out,
                     sl_arena_t *a, sl_error_t *err)
{
    stage_run_t sr = {
        .rs = rs, .st = st, .base = base, .ts_ms = ts_ms, .cancel = cancel, .is_last = is_last};
    atomic_init(&sr.failed, 0);
    int nt = st->ntasks > 0 ? st->ntasks : 1;
    sr.arenas = SL_NEW_ARRAY(a, sl_arena_t *, nt);
    sr.metrics = SL_NEW_ARRAY(a, op_metrics_t, nt * rs->nnodes);
    sr.outs = SL_NEW_ARRAY(a, task_out_t, nt);
    sr.errs = SL_NEW_ARRAY(a, sl_error_t, nt);
    init_xbuf(a, rs, st);
    exec_pool_run(pool, task_main, &sr, st->ntasks);
    for (int t = 0; t < st->ntasks; t++)
        out->arenas[out->narenas++] = sr.arenas[t]; /* NULL: not run */
    for (int t = 0; t < st->ntasks; t++)
        for (int n = 0; n < rs->nnodes; n++)
            sum_metrics(&out->metrics[n], &sr.metrics[t * rs->nnodes + n]);
    if (atomic_load(&sr.failed)) {
        for (int t = 0; t < st->ntasks; t++)
            if (sl_error_isset(&sr.errs[t])) {
                sl_error_copy(err, &sr.errs[t]);
                break;
            }
        return -1;
    }
    if (is_last) gather_output(out, &sr, a);
    return 0;
}

static int count_arenas_needed(const stage_t *stages, int nstages)
{
    int n = 0;
    for (int i = 0; i < nstages; i++) n += stages[i].ntasks;
    return n;
}

int exec_run(const exec_pnode_t *root, const op_ctx_t *base, int64_t batch_timestamp_ms,
             const atomic_int *cancel, exec_pool_t *pool, const exec_input_t *inputs, int ninputs,
             exec_result_t *out, sl_error_t *err)
{
    memset(out, 0, sizeof *out);
    sl_arena_t *a = sl_arena_new("run");
    exec_run_state_t *rs = SL_NEW(a, exec_run_state_t);
    rs->root = root;
    rs->nnodes = max_node_id(root) + 1;
    rs->xbufs = SL_NEW_ARRAY(a, exchange_buf_t, rs->nnodes);
    stage_t *stages = SL_NEW_ARRAY(a, stage_t, rs->nnodes);
    int nstages = 0;
    collect_stages(a, root, 1, stages, &nstages, rs->nnodes);
    for (int i = 0; i < nstages; i++) stage_plan_tasks(a, &stages[i], inputs, ninputs);
    out->nnodes = rs->nnodes;
    out->metrics = sl_xcalloc((size_t)rs->nnodes, sizeof *out->metrics);
    out->arenas = sl_xcalloc((size_t)count_arenas_needed(stages, nstages) + 1, sizeof *out->arenas);
    out->arenas[out->narenas++] = a;
    for (int i = 0; i < nstages; i++) {
        if (run_stage(rs, &stages[i], base, batch_timestamp_ms, cancel, pool, i == nstages - 1, out,
                      a, err) < 0) {
            exec_result_free(out);
            return -1;
        }
    }
    return 0;
}

void exec_result_free(exec_result_t *r)
{
    for (int i = 0; i < r->narenas; i++) sl_arena_free(r->arenas[i]);
    free(r->arenas);
    free(r->metrics);
    memset(r, 0, sizeof *r);
}

exec_value_t *exec_result_column(const exec_result_t *r, int col, sl_arena_t *a, int64_t *n)
{
    exec_value_t *out = SL_NEW_ARRAY(a, exec_value_t, r->nrows > 0 ? r->nrows : 1);
    *n = 0;
    for (int bi = 0; bi < r->nbatches; bi++) {
        const exec_batch_t *b = r->batches[bi];
        for (uint32_t k = 0; k < exec_batch_count(b); k++) {
            exec_value_t v;
            exec_vec_get_value(&b->cols[col], exec_batch_row(b, k), a, &v);
            out[(*n)++] = exec_value_copy(a, &v);
        }
    }
    return out;
}

exchange_buf_t *exec_run_xbuf(const op_t *op, const exec_pnode_t *node)
{
    exec_run_state_t *rs = op->ctx->run;
    return &rs->xbufs[node->id];
}

int exec_broadcast_batches(const op_t *op, const exec_pnode_t *exchange, exec_batch_t ***out)
{
    exec_run_state_t *rs = op->ctx->run;
    exchange_buf_t *b = &rs->xbufs[exchange->id];
    int total = 0;
    for (int t = 0; t < b->ntasks; t++) total += b->counts[t];
    exec_batch_t **v = SL_NEW_ARRAY(op->ctx->arena, exec_batch_t *, total + 1);
    int n = 0;
    for (int t = 0; t < b->ntasks; t++)
        for (int i = 0; i < b->counts[t]; i++) v[n++] = b->lists[t][i];
    *out = v;
    return n;
}
