/* NESTED-LOOP JOIN: CROSS JOIN and ON conditions without an equality,
 * over a broadcast build side (children[1]); batch queries and
 * stream-static joins.
 *
 * open() gathers every build row into one batch. push() pairs each present
 * probe row with every build row through an op_join_emit_t, which gathers
 * EXEC_BATCH_ROWS pairs at a time into scratch memory, keeps those passing
 * the predicate and records which rows joined; unmatched probe rows of a
 * preserved probe side follow, null-extended. finish() emits the unmatched
 * build rows when the build side is preserved (the constructor requires a
 * single probe partition then). No state: the cost is probe x build
 * predicate evaluations, vectorised in chunks. */
#include "exec/op_join.h"
#include "exec/op_join_util.h"

typedef struct nl_config {
    op_join_type_t type;
    int probe_is_left;
    int probe_preserved, build_preserved;
    const exec_expr_t *pred;
    exec_prog_t *prog; /* compiled predicate; NULL for CROSS */
} nl_config_t;

typedef struct nl_state {
    exec_batch_t *build;
    uint8_t *build_matched; /* when the build side is preserved */
    op_join_emit_t emit;    /* side a = probe, side b = build */
} nl_state_t;

static int nl_open(op_t *op, sl_error_t *err)
{
    (void)err;
    const nl_config_t *cfg = op->node->config;
    const exec_pnode_t *probe = op->node->children[0], *build = op->node->children[1];
    nl_state_t *st = SL_NEW(op->ctx->arena, nl_state_t);
    op->state = st;
    op_join_emit_init(&st->emit, op, cfg->prog, cfg->probe_is_left, probe->ncols, probe->types,
                      build->ncols, build->types);
    st->build = op_join_broadcast_rows(op, build);
    if (cfg->build_preserved)
        st->build_matched =
            SL_NEW_ARRAY(op->ctx->arena, uint8_t, st->build->nrows ? st->build->nrows : 1);
    st->emit.b = st->build;
    st->emit.b_matched = st->build_matched;
    return 0;
}

static int nl_push(op_t *op, int input, exec_batch_t *b, sl_error_t *err)
{
    (void)input;
    const nl_config_t *cfg = op->node->config;
    nl_state_t *st = op->state;
    sl_arena_t *scratch = op->ctx->ectx->arena;
    uint32_t n = exec_batch_count(b), m = st->build->nrows;
    op->metrics->rows_in += n;
    uint8_t *matched = cfg->probe_preserved ? sl_alloc0(scratch, b->nrows ? b->nrows : 1) : NULL;
    st->emit.a = b;
    st->emit.a_matched = matched;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = exec_batch_row(b, k);
        for (uint32_t j = 0; j < m; j++)
            if (op_join_emit_pair(&st->emit, row, j, err) < 0) return -1;
    }
    if (op_join_emit_flush(&st->emit, err) < 0) return -1;
    if (matched && op_join_emit_unmatched(&st->emit, 0, b, matched, scratch, err) < 0) return -1;
    st->emit.a = NULL;
    st->emit.a_matched = NULL;
    return 0;
}

static int nl_finish(op_t *op, sl_error_t *err)
{
    const nl_config_t *cfg = op->node->config;
    nl_state_t *st = op->state;
    if (!cfg->build_preserved) return 0;
    return op_join_emit_unmatched(&st->emit, 1, st->build, st->build_matched, op->ctx->arena, err);
}

static void nl_close(op_t *op)
{
    (void)op;
}

static void nl_explain(const exec_pnode_t *node, sl_buf_t *out)
{
    const nl_config_t *cfg = node->config;
    sl_buf_printf(out, " %s", op_join_type_name(cfg->type));
    if (cfg->pred) {
        sl_buf_puts(out, " on ");
        exec_expr_format(cfg->pred, out);
    }
    sl_buf_printf(out, " probe %s, broadcast build", cfg->probe_is_left ? "left" : "right");
}

const op_ops_t op_nl_join_ops = {
    .name = "NestedLoopJoin",
    .open = nl_open,
    .push = nl_push,
    .finish = nl_finish,
    .close = nl_close,
    .explain = nl_explain,
};

exec_pnode_t *op_nl_join_plan(sl_arena_t *a, exec_pnode_t *probe, exec_pnode_t *build,
                              op_join_type_t type, int probe_is_left, const exec_expr_t *pred,
                              sl_error_t *err)
{
    nl_config_t *cfg = SL_NEW(a, nl_config_t);
    cfg->type = type;
    cfg->probe_is_left = probe_is_left;
    cfg->pred = type == OP_JOIN_CROSS ? NULL : pred;
    int left = type == OP_JOIN_LEFT || type == OP_JOIN_FULL;
    int right = type == OP_JOIN_RIGHT || type == OP_JOIN_FULL;
    cfg->probe_preserved = probe_is_left ? left : right;
    cfg->build_preserved = probe_is_left ? right : left;
    if (!op_join_is_broadcast(build)) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                     "nested-loop join needs a broadcast build side");
        return NULL;
    }
    if (cfg->build_preserved && !op_join_is_gather(probe)) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                     "%s join with a preserved broadcast side needs a single probe partition",
                     op_join_type_name(type));
        return NULL;
    }
    if (op_join_compile_pred(a, cfg->pred, &cfg->prog, err) < 0) return NULL;
    return op_join_node(a, &op_nl_join_ops, probe, build, probe_is_left, cfg);
}
