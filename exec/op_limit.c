/* LIMIT / OFFSET and the streaming GLOBAL LIMIT.
 *
 * Both pass each pushed batch on as a shallow copy (in scratch memory)
 * whose selection keeps the rows wanted: rows are never copied, and batches
 * after the limit is reached are dropped whole.
 *
 * GLOBAL LIMIT state: one entry in state/<op_id>/<partition>, key empty,
 * value be64(rows emitted by the query so far). open() loads version
 * batch_id and reads it; finish() writes it back if it changed and commits
 * version batch_id + 1, so a re-run batch starts from the same count. In
 * batch mode (no state directory) it counts from 0, like LIMIT. */
#include "exec/op_limit.h"

#include "exec/op_join_util.h"

typedef struct limit_config {
    int64_t limit; /* -1 = none */
    int64_t offset;
} limit_config_t;

typedef struct limit_state {
    int64_t skipped; /* rows of the offset skipped so far */
    int64_t emitted; /* rows passed on (for GLOBAL LIMIT: by the query so far) */
    int64_t loaded;  /* GLOBAL LIMIT: the count in state at open */
    store_t *store;
} limit_state_t;

static int limit_open(op_t *op, sl_error_t *err)
{
    (void)err;
    op->state = SL_NEW(op->ctx->arena, limit_state_t);
    return 0;
}

/* Passes present rows first .. first+count-1 of b on. */
static int emit_range(op_t *op, exec_batch_t *b, uint32_t first, uint32_t count, sl_error_t *err)
{
    if (count == 0) return 0;
    sl_arena_t *scratch = op->ctx->ectx->arena;
    exec_batch_t *out = exec_batch_shallow_copy(b, scratch);
    if (first == 0 && count == exec_batch_count(b)) return op_emit(op, out, err);
    uint32_t *sel = sl_alloc(scratch, sizeof *sel * count);
    for (uint32_t i = 0; i < count; i++) sel[i] = exec_batch_row(b, first + i);
    out->sel = sel;
    out->nsel = count;
    return op_emit(op, out, err);
}

static int limit_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    (void)input;
    const limit_config_t *cfg = op->node->config;
    limit_state_t *st = op->state;
    uint32_t n = exec_batch_count(b);
    op->metrics->rows_in += n;
    int64_t skip = cfg->offset - st->skipped;
    if (skip > n) skip = n;
    st->skipped += skip;
    int64_t take = n - skip;
    if (cfg->limit >= 0 && take > cfg->limit - st->emitted) take = cfg->limit - st->emitted;
    st->emitted += take;
    return emit_range(op, b, (uint32_t)skip, (uint32_t)take, err);
}

static int limit_finish(op_t *op, sl_error_t *err)
{
    (void)op;
    (void)err;
    return 0;
}

static void limit_close(op_t *op)
{
    limit_state_t *st = op->state;
    if (st) op_join_store_release(op, st->store);
}

static void limit_explain(const exec_pnode_t *node, sl_buf_t *out)
{
    const limit_config_t *cfg = node->config;
    if (cfg->limit >= 0) sl_buf_printf(out, " %lld", (long long)cfg->limit);
    else sl_buf_puts(out, " ALL");
    if (cfg->offset) sl_buf_printf(out, " offset %lld", (long long)cfg->offset);
}

const op_ops_t op_limit_ops = {
    .name = "Limit",
    .open = limit_open,
    .push = limit_push,
    .finish = limit_finish,
    .close = limit_close,
    .explain = limit_explain,
};

/* ---- GLOBAL LIMIT ---- */

/* Its one state row: no key, the count of rows emitted so far. */
#define GLIMIT_KEY_SCHEMA ""
#define GLIMIT_VALUE_SCHEMA "count BIGINT"

static int glimit_state_schema(const exec_pnode_t *node, int i, const char **name, const char **key,
                               const char **value)
{
    (void)node;
    if (i > 0) return 0;
    *name = NULL;
    *key = GLIMIT_KEY_SCHEMA;
    *value = GLIMIT_VALUE_SCHEMA;
    return 1;
}

static int glimit_open(op_t *op, sl_error_t *err)
{
    limit_state_t *st = SL_NEW(op->ctx->arena, limit_state_t);
    op->state = st;
    if (!op->ctx->state_dir) return 0;
    st->store = op_join_store_open(op, NULL, GLIMIT_KEY_SCHEMA, GLIMIT_VALUE_SCHEMA, err);
    if (!st->store) return -1;
    const void *v;
    size_t vlen;
    int rc = store_get(st->store, "", 0, &v, &vlen, err);
    if (rc < 0) return -1;
    if (rc > 0 && vlen != 8) return sl_error_set(err, SL_ERR_IO_ERROR, "corrupt limit state");
    if (rc > 0) st->emitted = st->loaded = (int64_t)op_join_get_be64(v);
    return 0;
}

static int glimit_finish(op_t *op, sl_error_t *err)
{
    limit_state_t *st = op->state;
    if (!st->store) return 0;
    if (st->emitted != st->loaded) {
        sl_buf_t b = SL_BUF_INIT;
        op_join_put_be64(&b, (uint64_t)st->emitted);
        int rc = store_put(st->store, "", 0, b.data, b.len, err);
        sl_buf_free(&b);
        if (rc < 0) return -1;
    }
    return op_join_store_commit(op, &st->store, 1, 1, err);
}

const op_ops_t op_global_limit_ops = {
    .name = "globalLimit",
    .stateful = 1,
    .open = glimit_open,
    .push = limit_push,
    .finish = glimit_finish,
    .close = limit_close,
    .explain = limit_explain,
    .state_schema = glimit_state_schema,
};

static exec_pnode_t *limit_node(sl_arena_t *a, const op_ops_t *ops, exec_pnode_t *child,
                                int64_t limit, int64_t offset)
{
    limit_config_t *cfg = SL_NEW(a, limit_config_t);
    cfg->limit = limit;
    cfg->offset = offset;
    exec_pnode_t *n = exec_pnode_new(a, ops, child->ncols, cfg);
    exec_pnode_set_schema(a, n, child->names, child->types);
    n->nchildren = 1;
    n->children[0] = child;
    return n;
}

exec_pnode_t *op_limit_plan(sl_arena_t *a, exec_pnode_t *child, int64_t limit, int64_t offset,
                            sl_error_t *err)
{
    if (limit < -1 || offset < 0) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "%s must not be negative",
                     offset < 0 ? "OFFSET" : "LIMIT");
        return NULL;
    }
    return limit_node(a, &op_limit_ops, child, limit, offset);
}

exec_pnode_t *op_global_limit_plan(sl_arena_t *a, exec_pnode_t *child, int64_t limit, int op_id,
                                   sl_error_t *err)
{
    if (limit < 0) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "LIMIT must not be negative");
        return NULL;
    }
    exec_pnode_t *n = limit_node(a, &op_global_limit_ops, child, limit, 0);
    n->op_id = op_id;
    return n;
}
