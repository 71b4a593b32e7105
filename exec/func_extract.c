/* exec function extract(field, source) — SQL's extract(field FROM source)
 * — and its alias date_part('field', source): Spark's fields of a
 * TIMESTAMP or DATE (a DATE is its midnight), all INT but SECOND, a
 * DECIMAL(8, 6) with the microseconds. Times are UTC.
 *
 *   YEAR (Y, YEARS, YR, YRS)  QUARTER (QTR)  MONTH (MON, MONS, MONTHS)
 *   DAY (D, DAYS)  HOUR (H, HOURS, HR, HRS)  MINUTE (M, MIN, MINS, MINUTES)
 *   SECOND (S, SEC, SECONDS, SECS)  DOY (1 - 366)
 *   DAYOFWEEK (DOW: Sunday 1 .. Saturday 7)
 *   DAYOFWEEK_ISO (DOW_ISO: Monday 1 .. Sunday 7)
 *   WEEK (W, WEEKS: ISO 8601 week)  YEAROFWEEK (the ISO week's year)
 *
 * The field must be a constant; an unknown one is 22023 (Spark dropped
 * PostgreSQL's EPOCH, MILLISECONDS and the like in 3.0); a NULL field makes
 * every result NULL. */
#include <string.h>
#include <strings.h>

#include "exec/func_int.h"
#include "model/text_io.h"

typedef enum {
    XF_YEAR,
    XF_YEAROFWEEK,
    XF_QUARTER,
    XF_MONTH,
    XF_WEEK,
    XF_DAY,
    XF_DOW,
    XF_DOW_ISO,
    XF_DOY,
    XF_HOUR,
    XF_MINUTE,
    XF_SECOND,
    XF_NULL
} xfield_t;

static int field_of(const char *s, size_t n)
{
    static const struct {
        const char *name;
        xfield_t f;
    } names[] = {
        {"year", XF_YEAR},       {"y", XF_YEAR},        {"years", XF_YEAR},
        {"yr", XF_YEAR},         {"yrs", XF_YEAR},      {"yearofweek", XF_YEAROFWEEK},
        {"quarter", XF_QUARTER}, {"qtr", XF_QUARTER},   {"month", XF_MONTH},
        {"mon", XF_MONTH},       {"mons", XF_MONTH},    {"months", XF_MONTH},
        {"week", XF_WEEK},       {"w", XF_WEEK},        {"weeks", XF_WEEK},
        {"day", XF_DAY},         {"d", XF_DAY},         {"days", XF_DAY},
        {"dayofweek", XF_DOW},   {"dow", XF_DOW},       {"dayofweek_iso", XF_DOW_ISO},
        {"dow_iso", XF_DOW_ISO}, {"doy", XF_DOY},       {"hour", XF_HOUR},
        {"h", XF_HOUR},          {"hours", XF_HOUR},    {"hr", XF_HOUR},
        {"hrs", XF_HOUR},        {"minute", XF_MINUTE}, {"m", XF_MINUTE},
        {"min", XF_MINUTE},      {"mins", XF_MINUTE},   {"minutes", XF_MINUTE},
        {"second", XF_SECOND},   {"s", XF_SECOND},      {"sec", XF_SECOND},
        {"seconds", XF_SECOND},  {"secs", XF_SECOND},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i].name) == n && !strncasecmp(names[i].name, s, n)) return (int)names[i].f;
    return -1;
}

int exec_bind_extract(exec_bind_t *b, sl_error_t *err)
{
    const char *s;
    size_t n;
    static const exec_type_t ts_type = {.id = EXEC_TYPE_TIMESTAMP};
    if (exec_bind_const_string(b, 0, &s, &n, err)) return -1;
    exec_type_id_t t = exec_bind_type(b, 1);
    if (exec_bind_arg(b, 1, ts_type, t == EXEC_TYPE_DATE, err)) return -1;
    int *field = SL_NEW(b->arena, int);
    *field = b->check_only ? XF_YEAR : !s ? XF_NULL : field_of(s, n);
    if (*field < 0) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "extract field \"%.*s\" is not supported",
                     (int)n, s);
        return sl_error_hint(
            err, "Fields: YEAR, YEAROFWEEK, QUARTER, MONTH, WEEK, DAY, DAYOFWEEK (DOW), "
                 "DAYOFWEEK_ISO (DOW_ISO), DOY, HOUR, MINUTE, SECOND.");
    }
    exec_bind_consume(b, 0);
    b->aux = field;
    b->type = *field == XF_SECOND ? exec_type_decimal(8, 6) : exec_type_of(EXEC_TYPE_INT);
    return 0;
}

/* The ISO 8601 week (1-53) of a day, and the year it belongs to. */
static int iso_week(int64_t days, int64_t *year)
{
    int64_t thursday = days - exec_floor_mod(days + 3, 7) + 3; /* of the same Monday-based week */
    int m, d;
    exec_civil_from_days(thursday, year, &m, &d);
    return (int)((thursday - exec_days_from_civil(*year, 1, 1)) / 7 + 1);
}

static int32_t date_field(int64_t days, int f)
{
    int64_t y;
    int m, d;
    if (f == XF_WEEK || f == XF_YEAROFWEEK) {
        int w = iso_week(days, &y);
        return f == XF_WEEK ? w : (int32_t)y;
    }
    exec_civil_from_days(days, &y, &m, &d);
    switch (f) {
    case XF_YEAR: return (int32_t)y;
    case XF_QUARTER: return (m - 1) / 3 + 1;
    case XF_MONTH: return m;
    case XF_DAY: return d;
    case XF_DOW: return (int32_t)exec_floor_mod(days + 4, 7) + 1; /* 1970-01-01 was a Thursday */
    case XF_DOW_ISO: return (int32_t)exec_floor_mod(days + 3, 7) + 1;
    default: return (int32_t)(days - exec_days_from_civil(y, 1, 1) + 1); /* XF_DOY */
    }
}

int exec_fn_extract(const exec_fcall_t *c, sl_error_t *err)
{
    (void)err;
    int f = *(const int *)c->aux;
    if (f == XF_NULL) {
        c->out->nulls = exec_vec_make_nulls(c->arena, c->out, c->cap);
        memset(c->out->nulls, 1, c->cap);
        return 0;
    }
    FOR_ROWS(c, {
        int64_t ts = ARG(c, 1, int64_t, i), tod = exec_floor_mod(ts, EXEC_USECS_PER_DAY);
        if (f == XF_SECOND) OUT(c, exec_dec_t, i) = tod % EXEC_USECS_PER_MINUTE;
        else if (f == XF_HOUR) OUT(c, int32_t, i) = (int32_t)(tod / EXEC_USECS_PER_HOUR);
        else if (f == XF_MINUTE) OUT(c, int32_t, i) = (int32_t)(tod / EXEC_USECS_PER_MINUTE % 60);
        else OUT(c, int32_t, i) = date_field(exec_floor_div(ts, EXEC_USECS_PER_DAY), f);
    });
    return 0;
}
