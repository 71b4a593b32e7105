/* Helpers of the aggregation tests: batches from text cells, an INPUT
 * producer over fixed batches, running a plan with exec_run and reading
 * the result back as sorted text lines. */
#ifndef TEST_EXEC_AGG_UTIL_H
#define TEST_EXEC_AGG_UTIL_H

#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "model/batch.h"
#include "exec/stage.h"

#define TB_FN static __attribute__((unused))

/* A batch of `nrows` rows; cells[r * ncols + c] is the text of a cell, NULL for SQL NULL. */
TB_FN exec_batch_t *tb_batch(sl_arena_t *a, int ncols, const exec_type_t *types, int nrows,
                             const char *const *cells)
{
    exec_builder_t bld;
    exec_builder_init(&bld, a, ncols, types, (uint32_t)(nrows > 0 ? nrows : 1));
    for (int r = 0; r < nrows; r++) {
        uint32_t row = exec_builder_add_row(&bld);
        for (int c = 0; c < ncols; c++) {
            const char *s = cells[r * ncols + c];
            sl_error_t err;
            if (!s) exec_builder_set_null(&bld, c, row);
            else if (exec_builder_set_text(&bld, c, row, s, strlen(s), &err) < 0)
                unit_fail(__FILE__, __LINE__, "bad cell \"%s\": %s", s, err.message);
        }
    }
    return exec_builder_finish(&bld);
}

/* Batches one input task produces. */
typedef struct tb_input {
    exec_batch_t **batches;
    int n;
} tb_input_t;

TB_FN int tb_produce(void *arg, sl_arena_t *a, exec_emit_fn emit, void *emit_arg, sl_error_t *err)
{
    (void)a;
    tb_input_t *in = arg;
    for (int i = 0; i < in->n; i++)
        if (emit(emit_arg, in->batches[i], err) < 0) return -1;
    return 0;
}

TB_FN int tb_cmp(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* "a|b|c" lines of every result row (NULL as "NULL"), sorted, joined by '\n'. */
TB_FN char *tb_rows(const exec_result_t *r)
{
    int n = (int)r->nrows, k = 0;
    char **lines = calloc((size_t)n + 1, sizeof *lines);
    for (int i = 0; i < r->nbatches; i++) {
        const exec_batch_t *b = r->batches[i];
        for (uint32_t j = 0; j < exec_batch_count(b); j++) {
            uint32_t row = exec_batch_row(b, j);
            sl_buf_t line = SL_BUF_INIT;
            for (int c = 0; c < b->ncols; c++) {
                if (c) sl_buf_putc(&line, '|');
                if (!exec_vec_text(&b->cols[c], row, &line)) sl_buf_puts(&line, "NULL");
            }
            lines[k++] = sl_buf_steal(&line);
        }
    }
    qsort(lines, (size_t)k, sizeof *lines, tb_cmp);
    sl_buf_t out = SL_BUF_INIT;
    for (int i = 0; i < k; i++) {
        sl_buf_printf(&out, "%s%s", i ? "\n" : "", lines[i]);
        free(lines[i]);
    }
    free(lines);
    char *s = sl_buf_steal(&out);
    return s ? s : calloc(1, 1);
}

/* A batch context: batch 0, no watermarks, complete mode, no state. */
TB_FN op_ctx_t tb_ctx(void)
{
    op_ctx_t c;
    memset(&c, 0, sizeof c);
    c.mode = OUTPUT_COMPLETE;
    c.npartitions = 2;
    c.state_provider = "memory";
    return c;
}

TB_FN exec_pool_t *tb_pool(void)
{
    static exec_pool_t *pool;
    if (!pool) pool = exec_pool_new(2);
    return pool;
}

/* Runs the plan with one input task per element of ins, all feeding
 * `leaf`; returns tb_rows() of the result (caller frees), or NULL with
 * err set. The result (metrics) stays in *res for the caller to free. */
TB_FN char *tb_run(exec_pnode_t *root, const exec_pnode_t *leaf, tb_input_t *ins, int nins,
                   const op_ctx_t *base, exec_result_t *res, sl_error_t *err)
{
    exec_plan_number(root);
    exec_input_t inputs[16];
    for (int i = 0; i < nins; i++) {
        inputs[i].leaf = leaf;
        inputs[i].produce = tb_produce;
        inputs[i].arg = &ins[i];
        inputs[i].partition = i;
    }
    if (exec_run(root, base, 0, NULL, tb_pool(), inputs, nins, res, err) < 0) return NULL;
    return tb_rows(res);
}

#endif
