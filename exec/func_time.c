/* exec time functions: date_trunc(unit, ts), to_timestamp(s[, fmt]) with
 * Spark datetime patterns, current_timestamp() and current_date() (the batch's pinned time),
 * window() for tumbling windows, the window helpers the planner's window
 * operator uses, and session_window() (a row's initial session). All times
 * are UTC. */
#include <ctype.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#include "exec/func_int.h"
#include "model/text_io.h"

static const exec_type_t ts_type = {.id = EXEC_TYPE_TIMESTAMP};

/* ---- date_trunc ------------------------------------------------------------------ */

typedef enum {
    TR_YEAR,
    TR_QUARTER,
    TR_MONTH,
    TR_WEEK,
    TR_DAY,
    TR_HOUR,
    TR_MINUTE,
    TR_SECOND,
    TR_MILLI,
    TR_MICRO
} trunc_unit_t;

static int trunc_unit(const char *s, size_t n)
{
    static const struct {
        const char *name;
        trunc_unit_t u;
    } units[] = {{"year", TR_YEAR},       {"yyyy", TR_YEAR},         {"yy", TR_YEAR},
                 {"quarter", TR_QUARTER}, {"month", TR_MONTH},       {"mon", TR_MONTH},
                 {"mm", TR_MONTH},        {"week", TR_WEEK},         {"day", TR_DAY},
                 {"dd", TR_DAY},          {"hour", TR_HOUR},         {"minute", TR_MINUTE},
                 {"second", TR_SECOND},   {"millisecond", TR_MILLI}, {"microsecond", TR_MICRO}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strlen(units[i].name) == n && !strncasecmp(units[i].name, s, n)) return (int)units[i].u;
    return -1;
}

int exec_bind_date_trunc(exec_bind_t *b, sl_error_t *err)
{
    const char *u;
    size_t n;
    if (exec_bind_const_string(b, 0, &u, &n, err) || exec_bind_arg(b, 1, ts_type, false, err))
        return -1;
    int *unit = SL_NEW(b->arena, int);
    *unit = b->check_only || !u ? TR_MICRO : trunc_unit(u, n);
    if (*unit < 0)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "unit \"%.*s\" not recognized for type timestamp", (int)n, u);
    if (!b->check_only && !u) *unit = -1; /* date_trunc(NULL, ts) is NULL */
    exec_bind_consume(b, 0);
    b->aux = unit;
    b->type = ts_type;
    return 0;
}

static int64_t trunc_ts(int64_t ts, int unit)
{
    static const int64_t step[] = {0,
                                   0,
                                   0,
                                   0,
                                   EXEC_USECS_PER_DAY,
                                   EXEC_USECS_PER_HOUR,
                                   EXEC_USECS_PER_MINUTE,
                                   EXEC_USECS_PER_SEC,
                                   1000,
                                   1};
    if (unit >= TR_DAY) return ts - exec_floor_mod(ts, step[unit]);
    int64_t days = exec_floor_div(ts, EXEC_USECS_PER_DAY), y;
    int m, d;
    if (unit == TR_WEEK)
        return (days - exec_floor_mod(days + 3, 7)) * EXEC_USECS_PER_DAY; /* Mondays */
    exec_civil_from_days(days, &y, &m, &d);
    if (unit == TR_YEAR) m = 1;
    if (unit == TR_QUARTER) m = (m - 1) / 3 * 3 + 1;
    return exec_days_from_civil(y, m, 1) * EXEC_USECS_PER_DAY;
}

int exec_fn_date_trunc(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    int unit = *(const int *)c->aux;
    if (unit < 0) {
        c->out->nulls = exec_vec_make_nulls(c->arena, c->out, c->cap);
        memset(c->out->nulls, 1, c->cap);
        return 0;
    }
    FOR_ROWS(c, OUT(c, int64_t, i) = trunc_ts(ARG(c, 1, int64_t, i), unit));
    return 0;
}

/* ---- to_timestamp --------------------------------------------------------------------- */

typedef struct ts_fmt {
    const char *p; /* pattern, or NULL: the text input form */
    size_t n;
} ts_fmt_t;

int exec_bind_to_timestamp(exec_bind_t *b, sl_error_t *err)
{
    ts_fmt_t *f = SL_NEW(b->arena, ts_fmt_t);
    exec_type_id_t t = exec_bind_type(b, 0);
    if (b->nargs == 1 && (exec_type_is_numeric(b->args[0]->type) || t == EXEC_TYPE_DATE ||
                          t == EXEC_TYPE_TIMESTAMP)) {
        /* to_timestamp(seconds) / to_timestamp(date): a cast (Spark). */
        b->kernel = NULL;
        if (t != EXEC_TYPE_DECIMAL && exec_bind_arg(b, 0, ts_type, true, err)) return -1;
        if (t == EXEC_TYPE_DECIMAL &&
            (exec_bind_arg(b, 0, exec_type_of(EXEC_TYPE_DOUBLE), true, err) ||
             exec_bind_arg(b, 0, ts_type, true, err)))
            return -1;
    } else if (t != EXEC_TYPE_STRING && t != EXEC_TYPE_NULL) {
        return exec_bind_mismatch(b, err);
    }
    if (b->nargs == 2) {
        if (exec_bind_const_string(b, 1, &f->p, &f->n, err)) return -1;
        exec_bind_consume(b, 1);
    }
    b->aux = f;
    b->type = ts_type;
    if (!b->kernel) b->kernel = exec_fn_to_timestamp;
    return 0;
}

/* Fields a pattern fills. */
typedef struct ts_fields {
    int64_t year;
    int month, day, hour, minute, second, pm; /* pm: -1 none, 0 am, 1 pm */
    int64_t micros, offset_us;
} ts_fields_t;

static bool read_num(const char **s, const char *end, int min_d, int max_d, int64_t *v)
{
    int k = 0;
    *v = 0;
    while (*s < end && k < max_d && isdigit((unsigned char)**s))
        *v = *v * 10 + (*(*s)++ - '0'), k++;
    return k >= min_d;
}

static bool read_month_name(const char **s, const char *end, int *m)
{
    static const char *names[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                  "jul", "aug", "sep", "oct", "nov", "dec"};
    if (end - *s < 3) return false;
    for (int i = 0; i < 12; i++)
        if (!strncasecmp(*s, names[i], 3)) {
            *m = i + 1;
            *s += 3;
            return true;
        }
    return false;
}

static bool read_offset(const char **s, const char *end, int64_t *off)
{
    if (*s < end && (**s == 'Z' || **s == 'z')) return (*s)++, *off = 0, true;
    if (*s >= end || (**s != '+' && **s != '-')) return false;
    int sign = *(*s)++ == '-' ? -1 : 1;
    int64_t h, m = 0;
    if (!read_num(s, end, 2, 2, &h)) return false;
    if (*s < end && **s == ':') (*s)++;
    if (*s < end && isdigit((unsigned char)**s) && !read_num(s, end, 2, 2, &m)) return false;
    *off = sign * (h * EXEC_USECS_PER_HOUR + m * EXEC_USECS_PER_MINUTE);
    return true;
}

static bool read_fraction(const char **s, const char *end, int64_t *micros)
{
    const char *start = *s;
    int64_t v;
    if (!read_num(s, end, 1, 9, &v)) return false;
    int k = (int)(*s - start);
    for (; k < 6; k++) v *= 10;
    for (; k > 6; k--) v /= 10;
    *micros = v;
    return true;
}

static bool read_ampm(const char **s, const char *end, int *pm)
{
    if (end - *s < 2) return false;
    *pm = !strncasecmp(*s, "pm", 2) ? 1 : !strncasecmp(*s, "am", 2) ? 0 : -1;
    *s += 2;
    return *pm >= 0;
}

/* One pattern letter run (letter c repeated n times) read from s. When
 * another field follows with no separator (`yyyyMMdd`), a number takes
 * exactly its pattern's width, as Java's adjacent value parsing does. */
static bool read_field(char c, int n, bool adjacent, const char **s, const char *end,
                       ts_fields_t *f)
{
    switch (c) {
    case 'M':
        if (n >= 3) return read_month_name(s, end, &f->month);
        break;
    case 'S': return read_fraction(s, end, &f->micros);
    case 'a': return read_ampm(s, end, &f->pm);
    case 'X':
    case 'x':
    case 'Z': return read_offset(s, end, &f->offset_us);
    case 'y':
    case 'd':
    case 'H':
    case 'h':
    case 'm':
    case 's': break;
    default: return false;
    }
    int mind = c == 'y' ? (n == 2 ? 2 : 1) : n,
        maxd = c == 'y' ? (n == 2 ? 2 : 6) : (n > 2 ? n : 2);
    if (adjacent) mind = maxd = c == 'y' && n != 2 ? (n < 4 ? 4 : n) : (n > 2 ? n : 2);
    int64_t v;
    if (!read_num(s, end, mind, maxd, &v)) return false;
    switch (c) {
    case 'y': f->year = n == 2 ? 2000 + v : v; break;
    case 'M': f->month = (int)v; break;
    case 'd': f->day = (int)v; break;
    case 'H':
    case 'h': f->hour = (int)v; break;
    case 'm': f->minute = (int)v; break;
    default: f->second = (int)v; break;
    }
    return true;
}

/* Parses s against a Spark pattern; false when it does not match. */
static bool parse_with_pattern(const ts_fmt_t *fmt, exec_str_t str, int64_t *out)
{
    ts_fields_t f = {1970, 1, 1, 0, 0, 0, -1, 0, 0};
    const char *s = str.ptr, *end = s + str.len, *p = fmt->p, *pe = p + fmt->n;
    while (p < pe) {
        if (*p == '\'') { /* quoted literal; '' is a quote */
            for (p++; p < pe && !(*p == '\'' && !(p + 1 < pe && p[1] == '\'')); p++) {
                if (*p == '\'') p++;
                if (s >= end || *s++ != *p) return false;
            }
            p++;
        } else if (isalpha((unsigned char)*p)) {
            char c = *p;
            int n = 0;
            while (p < pe && *p == c) p++, n++;
            if (!read_field(c, n, p < pe && isalpha((unsigned char)*p), &s, end, &f)) return false;
        } else if (s >= end || *s++ != *p++) {
            return false;
        }
    }
    if (s != end) return false;
    if (f.pm >= 0) f.hour = f.hour % 12 + (f.pm ? 12 : 0);
    if (f.month < 1 || f.month > 12 || f.day < 1 || f.day > exec_days_in_month(f.year, f.month) ||
        f.hour > 23 || f.minute > 59 || f.second > 59 || f.year < 1 || f.year > 9999)
        return false;
    *out = exec_days_from_civil(f.year, f.month, f.day) * EXEC_USECS_PER_DAY +
           f.hour * EXEC_USECS_PER_HOUR + f.minute * EXEC_USECS_PER_MINUTE +
           f.second * EXEC_USECS_PER_SEC + f.micros - f.offset_us;
    return true;
}

/* Text that does not parse gives NULL (Spark's to_timestamp without ANSI). */
int exec_fn_to_timestamp(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    const ts_fmt_t *fmt = c->aux;
    if (c->args[0]->type.id == EXEC_TYPE_TIMESTAMP) {
        FOR_ROWS(c, OUT(c, int64_t, i) = ARG(c, 0, int64_t, i));
        return 0;
    }
    uint8_t *nl = exec_vec_make_nulls(c->arena, c->out, c->cap);
    FOR_ROWS(c, {
        exec_str_t s = ARG(c, 0, exec_str_t, i);
        bool ok = fmt->p ? parse_with_pattern(fmt, s, &OUT(c, int64_t, i))
                         : exec_parse_timestamp(s.ptr, s.len, &OUT(c, int64_t, i)) == EXEC_PARSE_OK;
        nl[i] = !ok;
    });
    return 0;
}

/* ---- current_timestamp ---------------------------------------------------------------------- */

int exec_bind_current_timestamp(exec_bind_t *b, sl_error_t *err)
{
    (void)err;
    b->type = ts_type;
    return 0;
}

int exec_fn_current_timestamp(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    int64_t now = c->ctx->batch_timestamp_ms * 1000;
    FOR_ROWS(c, OUT(c, int64_t, i) = now);
    return 0;
}

/* current_date(): the UTC date of the batch's pinned time, so every row of
 * a batch (and a replay of it) sees the same date, as in Spark. */
int exec_bind_current_date(exec_bind_t *b, sl_error_t *err)
{
    (void)err;
    b->type = exec_type_of(EXEC_TYPE_DATE);
    return 0;
}

int exec_fn_current_date(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    int64_t ms = c->ctx->batch_timestamp_ms, day_ms = 86400000;
    int32_t day = (int32_t)(ms >= 0 ? ms / day_ms : -((-ms + day_ms - 1) / day_ms));
    FOR_ROWS(c, OUT(c, int32_t, i) = day);
    return 0;
}

/* ---- windows --------------------------------------------------------------------------------- */

/* A constant fixed-length duration in microseconds (INTERVAL or text). */
static int duration_arg(const exec_expr_t *e, const char *what, bool positive, int64_t *us,
                        sl_error_t *err)
{
    exec_interval_t iv;
    if (e->kind != EXEC_EXPR_CONST || e->value.is_null ||
        (e->type.id != EXEC_TYPE_INTERVAL && e->type.id != EXEC_TYPE_STRING))
        return sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                            "the %s of window() must be a constant interval", what);
    if (e->type.id == EXEC_TYPE_INTERVAL) {
        iv = e->value.u.iv;
    } else if (exec_parse_interval(e->value.u.str.ptr, e->value.u.str.len, &iv)) {
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "invalid %s of window(): \"%.*s\"",
                            what, (int)e->value.u.str.len, e->value.u.str.ptr);
    }
    if (iv.months)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "the %s of window() cannot be given in months or years", what);
    if (__builtin_mul_overflow((int64_t)iv.days, EXEC_USECS_PER_DAY, us) ||
        __builtin_add_overflow(*us, iv.micros, us))
        return sl_error_set(err, SL_ERR_DATETIME_FIELD_OVERFLOW,
                            "the %s of window() is out of range", what);
    if (positive && *us <= 0)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "the %s of window() must be positive", what);
    return 0;
}

int exec_window_spec(exec_expr_t *const *args, int nargs, exec_window_spec_t *out, sl_error_t *err)
{
    if (args[0]->type.id != EXEC_TYPE_TIMESTAMP && args[0]->type.id != EXEC_TYPE_DATE)
        return sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                            "the first argument of window() must be a timestamp, not %s",
                            exec_type_pg_name(args[0]->type));
    if (duration_arg(args[1], "size", true, &out->size_us, err)) return -1;
    out->slide_us = out->size_us;
    out->start_us = 0;
    if (nargs > 2 && duration_arg(args[2], "slide", true, &out->slide_us, err)) return -1;
    if (nargs > 3 && duration_arg(args[3], "start", false, &out->start_us, err)) return -1;
    if (out->slide_us > out->size_us)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "the slide of window() must not exceed its size");
    int64_t overlap = out->size_us / out->slide_us + (out->size_us % out->slide_us != 0);
    if (overlap > EXEC_WINDOW_MAX_OVERLAP) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                     "a row would fall into %lld sliding windows; at most %d are allowed",
                     (long long)overlap, EXEC_WINDOW_MAX_OVERLAP);
        return sl_error_hint(err, "Use a slide of at least size / %d, or a tumbling window.",
                             EXEC_WINDOW_MAX_OVERLAP);
    }
    if (out->start_us <= -out->slide_us || out->start_us >= out->slide_us)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "the start of window() must be shorter than its slide");
    out->start_us = exec_floor_mod(out->start_us, out->slide_us);
    return 0;
}

int exec_window_bounds(int64_t ts, const exec_window_spec_t *w, int64_t *out, int max)
{
    int64_t last = ts - exec_floor_mod(ts - w->start_us, w->slide_us);
    int n = 0;
    for (int64_t s = last; s + w->size_us > ts; s -= w->slide_us) {
        if (n < max) {
            out[2 * n] = s;
            out[2 * n + 1] = s + w->size_us;
        }
        n++;
    }
    return n;
}

int exec_bind_window(exec_bind_t *b, sl_error_t *err)
{
    if (exec_bind_type(b, 0) == EXEC_TYPE_DATE && exec_bind_arg(b, 0, ts_type, false, err))
        return -1;
    if (exec_bind_type(b, 0) != EXEC_TYPE_TIMESTAMP) return exec_bind_mismatch(b, err);
    for (int i = 1; i < b->nargs; i++) {
        exec_type_id_t t = exec_bind_type(b, i);
        if (t != EXEC_TYPE_INTERVAL && t != EXEC_TYPE_STRING) return exec_bind_mismatch(b, err);
        exec_bind_consume(b, i);
    }
    b->type = exec_type_window();
    if (b->check_only) return 0;
    exec_window_spec_t *w = SL_NEW(b->arena, exec_window_spec_t);
    if (exec_window_spec(b->args, b->nargs, w, err)) return -1;
    if (w->slide_us != w->size_us) {
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                     "a sliding window() is only allowed in GROUP BY");
        return sl_error_hint(
            err,
            "A row falls into several sliding windows; the planner's window operator expands them.");
    }
    b->aux = w;
    return 0;
}

int exec_fn_window(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    const exec_window_spec_t *w = c->aux;
    int64_t *start = c->out->children[0].data, *end = c->out->children[1].data;
    FOR_ROWS(c, {
        int64_t ts = ARG(c, 0, int64_t, i);
        start[i] = ts - exec_floor_mod(ts - w->start_us, w->slide_us);
        end[i] = start[i] + w->size_us;
    });
    return 0;
}

/* ---- session windows --------------------------------------------------------------------- */

/* session_window(ts, gap): the row's initial session [ts, ts + gap) as a
 * window struct (Spark's SessionWindowing; the planner merges sessions in
 * GROUP BY). A constant gap (INTERVAL, or text like '5 minutes') is read
 * once and must be positive; any other gap is an INTERVAL per row (text is
 * cast), whose rows with a gap that is not positive the planner drops. */
typedef struct session_gap {
    bool constant;
    exec_interval_t gap;
} session_gap_t;

static int constant_gap(const exec_expr_t *e, exec_interval_t *iv, sl_error_t *err)
{
    if (e->value.is_null)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "the gap of session_window() must not be NULL");
    if (e->type.id == EXEC_TYPE_INTERVAL) {
        *iv = e->value.u.iv;
    } else if (exec_parse_interval(e->value.u.str.ptr, e->value.u.str.len, iv)) {
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "invalid gap of session_window(): \"%.*s\"", (int)e->value.u.str.len,
                            e->value.u.str.ptr);
    }
    if (iv->months < 0 || iv->days < 0 || iv->micros < 0 ||
        (iv->months | iv->days | iv->micros) == 0)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "the gap of session_window() must be positive");
    return 0;
}

int exec_bind_session_window(exec_bind_t *b, sl_error_t *err)
{
    if (exec_bind_type(b, 0) == EXEC_TYPE_DATE && exec_bind_arg(b, 0, ts_type, false, err))
        return -1;
    exec_type_id_t t = exec_bind_type(b, 1);
    if (exec_bind_type(b, 0) != EXEC_TYPE_TIMESTAMP ||
        (t != EXEC_TYPE_INTERVAL && t != EXEC_TYPE_STRING))
        return exec_bind_mismatch(b, err);
    b->type = exec_type_window();
    session_gap_t *g = SL_NEW(b->arena, session_gap_t);
    b->aux = g;
    if (b->check_only) return 0;
    if (b->args[1]->kind == EXEC_EXPR_CONST) {
        exec_bind_consume(b, 1);
        g->constant = true;
        return constant_gap(b->args[1], &g->gap, err);
    }
    exec_type_t iv = {.id = EXEC_TYPE_INTERVAL};
    return exec_bind_arg(b, 1, iv, true, err);
}

int exec_fn_session_window(const exec_fcall_t *c, sl_error_t *err)
{
    const session_gap_t *g = c->aux;
    int64_t *start = c->out->children[0].data, *end = c->out->children[1].data;
    bool bad = false;
    FOR_ROWS(c, {
        int64_t ts = ARG(c, 0, int64_t, i);
        exec_interval_t gap = g->constant ? g->gap : ARG(c, 1, exec_interval_t, i);
        start[i] = ts;
        bad |= exec_timestamp_add_interval(ts, gap, &end[i]) != EXEC_PARSE_OK;
    });
    if (bad) return sl_error_set(err, SL_ERR_DATETIME_FIELD_OVERFLOW, "timestamp out of range");
    return 0;
}
