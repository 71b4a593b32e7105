/* The window functions that read other rows of a partition, over its rows
 * sorted by the window's keys (bind_window_rows.c sorts and splits them): each row
 * is its partition and order keys, then the call's argument values, bound
 * for that row. first_value, last_value and nth_value read the row's frame
 * (rows frame_first..frame_last of the partition, empty when first > last;
 * bind_window.c computes it), the others ignore it, as PostgreSQL:
 *   lag(x [, off [, default]])   x `off` (1) rows before, else default (NULL)
 *   lead(x [, off [, default]])  x `off` rows after
 *   first_value(x)               x on the frame's first row
 *   last_value(x)                x on the frame's last row
 *   nth_value(x, n)              x on the frame's n-th row, NULL if shorter
 *   ntile(n)                     the bucket (1..n) of the row, the first
 *                                rows % n buckets one row larger
 * A NULL offset or bucket count gives NULL; a count <= 0 is 2201G and an
 * nth_value position <= 0 is 22016, as PostgreSQL. */
#include <string.h>

#include "planner/bind_int.h"

static const exec_value_t *arg(const bind_window_part_t *p, int64_t r, int j)
{
    return &p->rows[r][p->argbase + j];
}

static int offset_value(const bind_window_part_t *p, int64_t r, int sign, exec_value_t *out)
{
    int64_t off = 1;
    if (p->nargs > 1) {
        if (arg(p, r, 1)->is_null) return 0;
        off = arg(p, r, 1)->u.i64;
    }
    int64_t at = r + sign * off;
    if (at >= 0 && at < p->n) *out = *arg(p, at, 0);
    else if (p->nargs > 2) *out = *arg(p, r, 2);
    return 0;
}

static int ntile_value(const bind_window_part_t *p, int64_t r, exec_value_t *out, sl_error_t *err)
{
    const exec_value_t *b = arg(p, r, 0);
    if (b->is_null) return 0;
    if (b->u.i64 <= 0) {
        sl_error_set(err, SL_ERR_INVALID_ARGUMENT_FOR_NTILE,
                     "argument of ntile must be greater than zero");
        return -1;
    }
    int64_t k = b->u.i64 < p->n ? b->u.i64 : p->n, size = p->n / k, big = p->n % k;
    int64_t in_big = big * (size + 1); /* rows in the larger first buckets */
    int64_t tile = r < in_big ? r / (size + 1) : big + (r - in_big) / size;
    *out = exec_value_bigint(tile + 1);
    return 0;
}

static int nth_value(const bind_window_part_t *p, int64_t r, exec_value_t *out, sl_error_t *err)
{
    const exec_value_t *nth = arg(p, r, 1);
    if (nth->is_null) return 0;
    if (nth->u.i64 <= 0) {
        sl_error_set(err, SL_ERR_INVALID_ARGUMENT_FOR_NTH_VALUE,
                     "argument of nth_value must be greater than zero");
        return -1;
    }
    if (nth->u.i64 <= p->frame_last - p->frame_first + 1)
        *out = *arg(p, p->frame_first + nth->u.i64 - 1, 0);
    return 0;
}

int bind_window_value(const char *name, const bind_window_part_t *p, int64_t r, exec_value_t *out,
                      sl_error_t *err)
{
    if (!strcmp(name, "lag")) return offset_value(p, r, -1, out);
    if (!strcmp(name, "lead")) return offset_value(p, r, 1, out);
    if (!strcmp(name, "ntile")) return ntile_value(p, r, out, err);
    if (!strcmp(name, "nth_value")) return nth_value(p, r, out, err);
    if (p->frame_first <= p->frame_last)
        *out = *arg(p, !strcmp(name, "first_value") ? p->frame_first : p->frame_last, 0);
    return 0;
}
