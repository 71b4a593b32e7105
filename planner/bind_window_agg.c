/* The aggregate window functions, sum/count/avg/min/max(x) and count(*)
 * OVER (...), over one sorted partition (bind_window_rows.c sorts and splits the
 * rows and gives every row its frame, bind_window.c): each row's value is
 * the aggregate of x over the rows of its frame, with exec/agg.h's kernels,
 * so result types and semantics are those of the same aggregate in GROUP BY
 * (sum(int) bigint, sum over no value NULL, count over none 0).
 *
 * One running buffer (a single group) folds the frame as it moves: while a
 * row's frame starts where the previous one did and ends no earlier (the
 * default frames, ROWS/RANGE UNBOUNDED PRECEDING .. anything), only the
 * new rows are folded in, so a partition costs one pass; otherwise (a
 * sliding n PRECEDING start) the buffer is reset and the frame refolded. */
#include <string.h>

#include "exec/agg.h"
#include "planner/bind_int.h"

static const char *const aggregates[] = {"sum", "count", "avg", "min", "max"};

int bind_window_is_aggregate(const char *name, int nargs, int star)
{
    for (size_t i = 0; i < sizeof aggregates / sizeof *aggregates; i++)
        if (!strcmp(name, aggregates[i]))
            return star ? !strcmp(name, "count") && nargs == 0 : nargs == 1;
    return 0;
}

/* Argument 0 of every row of p as one vector of f's argument type. */
static exec_vec_t argument_vector(sl_arena_t *a, const exec_agg_t *f, const bind_window_part_t *p)
{
    exec_type_t t = f->kind == EXEC_AGG_COUNT_STAR ? exec_type_of(EXEC_TYPE_BIGINT) : f->arg_type;
    exec_vec_t v = exec_vec_new(a, t, (uint32_t)p->n);
    for (int64_t r = 0; r < p->n; r++) {
        exec_value_t x =
            f->kind == EXEC_AGG_COUNT_STAR ? exec_value_bigint(0) : p->rows[r][p->argbase];
        exec_vec_set_value(a, &v, (uint32_t)p->n, (uint32_t)r, &x);
    }
    return v;
}

/* The running buffer and the rows it holds (from..to, empty if to < from). */
typedef struct running {
    const exec_agg_t *f;
    exec_agg_state_t *st; /* in the arena: it frees its vectors when the arena resets */
    exec_vec_t arg;
    uint32_t *rows, *gids;
    int64_t from, to;
} running_t;

static int fold(running_t *run, int64_t first, int64_t last, sl_arena_t *a, sl_error_t *err)
{
    if (last < first) return 0;
    return exec_agg_update(run->f, run->st, &run->arg, run->rows + first,
                           (uint32_t)(last - first + 1), run->gids, a, err);
}

/* Makes the buffer hold rows first..last: extends it when it holds a
 * prefix of them, else resets it. */
static int move_frame(running_t *run, int64_t first, int64_t last, sl_arena_t *a, sl_error_t *err)
{
    if (first == run->from && last >= run->to && run->to >= first - 1) {
        if (fold(run, run->to + 1, last, a, err) < 0) return -1;
    } else {
        run->st->n = 0; /* re-initialises group 0's buffers */
        exec_agg_state_resize(run->f, run->st, 1);
        if (fold(run, first, last, a, err) < 0) return -1;
    }
    run->from = first;
    run->to = last;
    return 0;
}

static int current_value(running_t *run, sl_arena_t *a, exec_value_t *out, sl_error_t *err)
{
    exec_vec_t res;
    if (exec_agg_finalize(run->f, run->st->v, 1, &res, a, err) < 0) return -1;
    exec_vec_get_value(&res, 0, a, out);
    return 0;
}

int bind_window_agg_values(sl_arena_t *a, const exec_agg_t *f, const bind_window_part_t *p,
                           const int64_t *first, const int64_t *last, exec_value_t *out,
                           sl_error_t *err)
{
    running_t run = {.f = f, .arg = argument_vector(a, f, p), .from = 0, .to = -1};
    run.rows = SL_NEW_ARRAY(a, uint32_t, p->n > 0 ? p->n : 1);
    run.gids = SL_NEW_ARRAY(a, uint32_t, p->n > 0 ? p->n : 1); /* all group 0 */
    for (int64_t r = 0; r < p->n; r++) run.rows[r] = (uint32_t)r;
    run.st = SL_NEW(a, exec_agg_state_t);
    exec_agg_state_init(f, run.st, a);
    exec_agg_state_resize(f, run.st, 1);
    for (int64_t r = 0; r < p->n; r++) {
        if (move_frame(&run, first[r], last[r], a, err) < 0) return -1;
        if (current_value(&run, a, &out[r], err) < 0) return -1;
    }
    return 0;
}
