/* Session merge (see session.h): sort the entries by (group, start, end,
 * number), then one pass that extends the current session while the next
 * entry of its group starts at or before its end. */
#include "exec/session.h"

#include <stdbool.h>
#include <stdlib.h>

typedef struct sort_entry {
    uint32_t group;
    uint32_t idx;
    int64_t start, end;
} sort_entry_t;

static int entry_cmp(const void *x, const void *y)
{
    const sort_entry_t *a = x, *b = y;
    if (a->group != b->group) return a->group < b->group ? -1 : 1;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    if (a->end != b->end) return a->end < b->end ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

void exec_sessions_merge(sl_arena_t *a, uint32_t n, const uint32_t *group, const int64_t *start,
                         const int64_t *end, exec_sessions_t *out)
{
    size_t cap = n ? n : 1;
    sort_entry_t *e = sl_alloc(a, sizeof *e * cap);
    for (uint32_t i = 0; i < n; i++) e[i] = (sort_entry_t){group[i], i, start[i], end[i]};
    qsort(e, n, sizeof *e, entry_cmp);
    out->order = sl_alloc(a, sizeof *out->order * cap);
    out->sid = sl_alloc(a, sizeof *out->sid * cap);
    out->first = sl_alloc(a, sizeof *out->first * cap);
    out->count = sl_alloc(a, sizeof *out->count * cap);
    out->start = sl_alloc(a, sizeof *out->start * cap);
    out->end = sl_alloc(a, sizeof *out->end * cap);
    uint32_t s = 0;
    for (uint32_t k = 0; k < n; k++) {
        const sort_entry_t *x = &e[k];
        out->order[k] = x->idx;
        bool extends = k > 0 && x->group == e[k - 1].group && x->start <= out->end[s - 1];
        if (extends) {
            if (x->end > out->end[s - 1]) out->end[s - 1] = x->end;
            out->count[s - 1]++;
        } else {
            out->first[s] = x->idx;
            out->count[s] = 1;
            out->start[s] = x->start;
            out->end[s] = x->end;
            s++;
        }
        out->sid[x->idx] = s - 1;
    }
    out->n = s;
}
