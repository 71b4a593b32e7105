/* exec text I/O: PostgreSQL-compatible text output and tolerant text input
 * for every scalar type (the formats are described in text_io.h). */
#include "model/text_io.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/json_write.h"
#include "model/decimal.h"

typedef unsigned __int128 u128;

/* ---- calendar ----------------------------------------------------------- */

int64_t exec_days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;                                  /* [0, 399] */
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1; /* [0, 365] */
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;          /* [0, 146096] */
    return era * 146097 + doe - 719468;
}

void exec_civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

int exec_days_in_month(int64_t y, int m)
{
    static const int dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : dim[m - 1];
}

exec_parse_status_t exec_timestamp_add_interval(int64_t ts, exec_interval_t iv, int64_t *out)
{
    if (iv.months) {
        int64_t days = exec_floor_div(ts, EXEC_USECS_PER_DAY);
        int64_t tod = ts - days * EXEC_USECS_PER_DAY, y;
        int m, d;
        exec_civil_from_days(days, &y, &m, &d);
        int64_t mi = y * 12 + (m - 1) + iv.months;
        y = exec_floor_div(mi, 12);
        m = (int)(mi - y * 12) + 1;
        if (d > exec_days_in_month(y, m)) d = exec_days_in_month(y, m);
        if (y < 0 || y > 10000) return EXEC_PARSE_RANGE;
        ts = exec_days_from_civil(y, m, d) * EXEC_USECS_PER_DAY + tod;
    }
    __int128 r = (__int128)ts + (__int128)iv.days * EXEC_USECS_PER_DAY + iv.micros;
    if (r < EXEC_TS_MIN || r >= EXEC_TS_END) return EXEC_PARSE_RANGE;
    *out = (int64_t)r;
    return EXEC_PARSE_OK;
}

__int128 exec_interval_span(exec_interval_t iv)
{
    return ((__int128)iv.months * 30 + iv.days) * EXEC_USECS_PER_DAY + iv.micros;
}

/* ---- scanning helpers ------------------------------------------------- */

typedef struct scan {
    const char *p, *end;
} scan_t;

static scan_t scan_trimmed(const char *s, size_t n)
{
    scan_t sc = {s, s + n};
    while (sc.p < sc.end && isspace((unsigned char)*sc.p)) sc.p++;
    while (sc.end > sc.p && isspace((unsigned char)sc.end[-1])) sc.end--;
    return sc;
}

static void skip_spaces(scan_t *sc)
{
    while (sc->p < sc->end && isspace((unsigned char)*sc->p)) sc->p++;
}

static bool at(const scan_t *sc, char c)
{
    return sc->p < sc->end && *sc->p == c;
}

static bool eat(scan_t *sc, char c)
{
    if (!at(sc, c)) return false;
    sc->p++;
    return true;
}

static bool at_digit(const scan_t *sc)
{
    return sc->p < sc->end && isdigit((unsigned char)*sc->p);
}

/* Reads 1..maxd digits; -1 when there is none. */
static int64_t read_digits(scan_t *sc, int maxd, int *count)
{
    int64_t v = 0;
    int k = 0;
    while (k < maxd && at_digit(sc)) v = v * 10 + (*sc->p++ - '0'), k++;
    if (count) *count = k;
    return k ? v : -1;
}

/* Case-insensitive match of a whole word at the cursor. */
static bool eat_word(scan_t *sc, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(sc->end - sc->p) < n || strncasecmp(sc->p, w, n)) return false;
    if (sc->p + n < sc->end && isalpha((unsigned char)sc->p[n])) return false;
    sc->p += n;
    return true;
}

/* ---- integers, doubles, booleans -------------------------------------- */

exec_parse_status_t exec_parse_int64(const char *s, size_t n, int64_t *out)
{
    scan_t sc = scan_trimmed(s, n);
    bool neg = eat(&sc, '-');
    if (!neg) eat(&sc, '+');
    if (!at_digit(&sc)) return EXEC_PARSE_SYNTAX;
    uint64_t v = 0;
    bool over = false;
    for (; at_digit(&sc); sc.p++) {
        unsigned d = (unsigned)(*sc.p - '0');
        if (v > (UINT64_MAX - d) / 10) over = true;
        else v = v * 10 + d;
    }
    if (sc.p != sc.end) return EXEC_PARSE_SYNTAX;
    if (over || v > (uint64_t)INT64_MAX + neg) return EXEC_PARSE_RANGE;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return EXEC_PARSE_OK;
}

exec_parse_status_t exec_parse_byte_size(const char *s, size_t n, int64_t *out)
{
    static const struct {
        const char *unit;
        int shift;
    } units[] = {{"bytes", 0}, {"b", 0},  {"k", 10},  {"kb", 10}, {"m", 20},
                 {"mb", 20},   {"g", 30}, {"gb", 30}, {"t", 40},  {"tb", 40}};
    scan_t sc = scan_trimmed(s, n);
    int64_t v = read_digits(&sc, 18, NULL);
    if (v < 0) return EXEC_PARSE_SYNTAX;
    if (at_digit(&sc)) return EXEC_PARSE_RANGE;
    skip_spaces(&sc);
    int shift = 0;
    if (sc.p < sc.end) {
        size_t i = 0, nunits = sizeof units / sizeof units[0];
        while (i < nunits && !eat_word(&sc, units[i].unit)) i++;
        if (i == nunits || sc.p != sc.end) return EXEC_PARSE_SYNTAX;
        shift = units[i].shift;
    }
    if (v > (INT64_MAX >> shift)) return EXEC_PARSE_RANGE;
    *out = v << shift;
    return EXEC_PARSE_OK;
}

exec_parse_status_t exec_parse_int32(const char *s, size_t n, int32_t *out)
{
    int64_t v;
    exec_parse_status_t st = exec_parse_int64(s, n, &v);
    if (st) return st;
    if (v < INT32_MIN || v > INT32_MAX) return EXEC_PARSE_RANGE;
    *out = (int32_t)v;
    return EXEC_PARSE_OK;
}

static bool special_double(scan_t sc, double *out)
{
    bool neg = eat(&sc, '-');
    if (!neg) eat(&sc, '+');
    size_t n = (size_t)(sc.end - sc.p);
    if ((n == 3 && !strncasecmp(sc.p, "inf", 3)) || (n == 8 && !strncasecmp(sc.p, "infinity", 8))) {
        *out = neg ? -INFINITY : INFINITY;
        return true;
    }
    if (n == 3 && !strncasecmp(sc.p, "nan", 3)) {
        *out = NAN;
        return true;
    }
    return false;
}

/* Digits, one optional point, an optional exponent: the only forms strtod
 * may see (no hex, no words). */
static bool plain_number(scan_t sc)
{
    if (!eat(&sc, '-')) eat(&sc, '+');
    int digits = 0;
    while (at_digit(&sc)) sc.p++, digits++;
    if (eat(&sc, '.'))
        while (at_digit(&sc)) sc.p++, digits++;
    if (!digits) return false;
    if (eat(&sc, 'e') || eat(&sc, 'E')) {
        if (!eat(&sc, '-')) eat(&sc, '+');
        if (!at_digit(&sc)) return false;
        while (at_digit(&sc)) sc.p++;
    }
    return sc.p == sc.end;
}

exec_parse_status_t exec_parse_double(const char *s, size_t n, double *out)
{
    scan_t sc = scan_trimmed(s, n);
    if (special_double(sc, out)) return EXEC_PARSE_OK;
    if (!plain_number(sc)) return EXEC_PARSE_SYNTAX;
    size_t len = (size_t)(sc.end - sc.p);
    char small[128];
    char *buf = len < sizeof small ? small : sl_xmalloc(len + 1);
    memcpy(buf, sc.p, len);
    buf[len] = '\0';
    errno = 0;
    double v = strtod(buf, NULL);
    int e = errno;
    if (buf != small) free(buf);
    if (e == ERANGE && (v == 0 || isinf(v))) return EXEC_PARSE_RANGE;
    *out = v;
    return EXEC_PARSE_OK;
}

exec_parse_status_t exec_parse_bool(const char *s, size_t n, uint8_t *out)
{
    static const struct {
        const char *w;
        uint8_t v;
    } words[] = {{"true", 1},  {"t", 1}, {"yes", 1}, {"y", 1}, {"on", 1},  {"1", 1},
                 {"false", 0}, {"f", 0}, {"no", 0},  {"n", 0}, {"off", 0}, {"0", 0}};
    scan_t sc = scan_trimmed(s, n);
    size_t len = (size_t)(sc.end - sc.p);
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i].w) == len && !strncasecmp(sc.p, words[i].w, len)) {
            *out = words[i].v;
            return EXEC_PARSE_OK;
        }
    return EXEC_PARSE_SYNTAX;
}

/* ---- decimals ---------------------------------------------------------- */

/* The digits of a decimal literal, leading zeros dropped, and the power of
 * ten the digit string is multiplied by. */
typedef struct dec_digits {
    const char *dig[2]; /* up to two runs (integer part, fraction) */
    int ndig[2];
    int total;   /* significant digits */
    int64_t exp; /* value = digits x 10^exp */
    bool neg;
} dec_digits_t;

static exec_parse_status_t scan_decimal(const char *s, size_t n, dec_digits_t *d)
{
    scan_t sc = scan_trimmed(s, n);
    memset(d, 0, sizeof *d);
    d->neg = eat(&sc, '-');
    if (!d->neg) eat(&sc, '+');
    const char *ip = sc.p;
    while (at_digit(&sc)) sc.p++;
    int ni = (int)(sc.p - ip), nf = 0;
    const char *fp = NULL;
    if (eat(&sc, '.')) {
        fp = sc.p;
        while (at_digit(&sc)) sc.p++;
        nf = (int)(sc.p - fp);
    }
    if (ni + nf == 0) return EXEC_PARSE_SYNTAX;
    int64_t e = 0;
    if (eat(&sc, 'e') || eat(&sc, 'E')) {
        bool eneg = eat(&sc, '-');
        if (!eneg) eat(&sc, '+');
        if (!at_digit(&sc)) return EXEC_PARSE_SYNTAX;
        while (at_digit(&sc)) {
            if (e < 100000) e = e * 10 + (*sc.p - '0');
            sc.p++;
        }
        if (eneg) e = -e;
    }
    if (sc.p != sc.end) return EXEC_PARSE_SYNTAX;
    while (ni > 0 && *ip == '0') ip++, ni--;
    if (ni == 0)
        while (nf > 0 && *fp == '0') fp++, nf--, e--;
    /* Dropping a fraction's leading zeros lowered `e` by as many, so the
     * value stays (ip fp) x 10^(e - nf). */
    d->dig[0] = ip;
    d->ndig[0] = ni;
    d->dig[1] = fp;
    d->ndig[1] = nf;
    d->total = ni + nf;
    d->exp = e - nf;
    return EXEC_PARSE_OK;
}

static char digit_at(const dec_digits_t *d, int i)
{
    return i < d->ndig[0] ? d->dig[0][i] : d->dig[1][i - d->ndig[0]];
}

exec_parse_status_t exec_parse_decimal(const char *s, size_t n, int p, int scale, exec_dec_t *out)
{
    dec_digits_t d;
    exec_parse_status_t st = scan_decimal(s, n, &d);
    if (st) return st;
    if (d.total == 0) {
        *out = 0;
        return EXEC_PARSE_OK;
    }
    int64_t shift = d.exp + scale; /* integer at `scale` = digits x 10^shift */
    int keep = shift >= 0 ? d.total : (int)(d.total + shift > -1 ? d.total + shift : -1);
    if (shift >= 0 && d.total + shift > p) return EXEC_PARSE_RANGE;
    u128 mag = 0;
    for (int i = 0; i < keep && i < d.total; i++) {
        if (i >= 39) return EXEC_PARSE_RANGE;
        mag = mag * 10 + (u128)(digit_at(&d, i) - '0');
    }
    if (shift > 0) mag *= (u128)exec_dec_pow10((int)shift);
    if (shift < 0 && keep >= 0 && keep < d.total && digit_at(&d, keep) >= '5') mag++;
    if (mag >= (u128)exec_dec_pow10(p)) return EXEC_PARSE_RANGE;
    *out = d.neg ? -(exec_dec_t)mag : (exec_dec_t)mag;
    return EXEC_PARSE_OK;
}

/* ---- timestamps and dates ---------------------------------------------- */

/* yyyy-m-d; FIELD errors are reported as RANGE by the callers' status. */
static exec_parse_status_t scan_date(scan_t *sc, int64_t *days)
{
    int ny;
    int64_t y = read_digits(sc, 6, &ny);
    if (y < 0 || ny < 4 || !eat(sc, '-')) return EXEC_PARSE_SYNTAX;
    int64_t m = read_digits(sc, 2, NULL);
    if (m < 0 || !eat(sc, '-')) return EXEC_PARSE_SYNTAX;
    int64_t d = read_digits(sc, 2, NULL);
    if (d < 0) return EXEC_PARSE_SYNTAX;
    if (m < 1 || m > 12 || d < 1 || d > exec_days_in_month(y, (int)m)) return EXEC_PARSE_RANGE;
    if (y < 1 || y > 9999) return EXEC_PARSE_RANGE;
    *days = exec_days_from_civil(y, (int)m, (int)d);
    return EXEC_PARSE_OK;
}

/* Fraction digits after the point, rounded to microseconds. */
static int64_t scan_fraction(scan_t *sc)
{
    int64_t us = 0;
    int k = 0;
    while (at_digit(sc)) {
        if (k < 6) us = us * 10 + (*sc->p - '0');
        else if (k == 6 && *sc->p >= '5') us++;
        k++;
        sc->p++;
    }
    for (; k < 6; k++) us *= 10;
    return us;
}

/* h:mm[:ss[.ffffff]] as microseconds of the day. */
static exec_parse_status_t scan_time(scan_t *sc, int64_t *us)
{
    int64_t h = read_digits(sc, 2, NULL);
    if (h < 0 || !eat(sc, ':')) return EXEC_PARSE_SYNTAX;
    int nm;
    int64_t mi = read_digits(sc, 2, &nm), s = 0, f = 0;
    if (mi < 0 || nm != 2) return EXEC_PARSE_SYNTAX;
    if (eat(sc, ':')) {
        int ns;
        s = read_digits(sc, 2, &ns);
        if (s < 0 || ns != 2) return EXEC_PARSE_SYNTAX;
        if (eat(sc, '.')) f = scan_fraction(sc);
    }
    if (h > 23 || mi > 59 || s > 59) return EXEC_PARSE_RANGE;
    *us = h * EXEC_USECS_PER_HOUR + mi * EXEC_USECS_PER_MINUTE + s * EXEC_USECS_PER_SEC + f;
    return EXEC_PARSE_OK;
}

/* Z | UTC | GMT | +hh[[:]mm]; the offset to subtract, in microseconds. */
static exec_parse_status_t scan_zone(scan_t *sc, int64_t *off)
{
    *off = 0;
    skip_spaces(sc);
    if (sc->p == sc->end) return EXEC_PARSE_OK;
    if (eat(sc, 'Z') || eat(sc, 'z') || eat_word(sc, "UTC") || eat_word(sc, "GMT"))
        return sc->p == sc->end ? EXEC_PARSE_OK : EXEC_PARSE_SYNTAX;
    int sign = eat(sc, '-') ? -1 : (eat(sc, '+') ? 1 : 0);
    if (!sign) return EXEC_PARSE_SYNTAX;
    int nh;
    int64_t h = read_digits(sc, 2, &nh), m = 0;
    if (h < 0 || nh != 2) return EXEC_PARSE_SYNTAX;
    eat(sc, ':');
    if (at_digit(sc)) {
        int nm;
        m = read_digits(sc, 2, &nm);
        if (nm != 2) return EXEC_PARSE_SYNTAX;
    }
    if (sc->p != sc->end) return EXEC_PARSE_SYNTAX;
    if (h > 15 || m > 59) return EXEC_PARSE_RANGE;
    *off = sign * (h * EXEC_USECS_PER_HOUR + m * EXEC_USECS_PER_MINUTE);
    return EXEC_PARSE_OK;
}

/* After the date: [T| ]time [zone], or nothing. */
static exec_parse_status_t scan_time_part(scan_t *sc, int64_t *us, int64_t *off)
{
    *us = *off = 0;
    if (sc->p == sc->end) return EXEC_PARSE_OK;
    if (!eat(sc, 'T') && !eat(sc, 't')) {
        if (!isspace((unsigned char)*sc->p)) return EXEC_PARSE_SYNTAX;
        skip_spaces(sc);
        /* a zone without a time, as pgjdbc's setDate sends: 2024-05-01 +00 */
        if (sc->p < sc->end && (*sc->p == '+' || *sc->p == '-')) return scan_zone(sc, off);
    }
    exec_parse_status_t st = scan_time(sc, us);
    if (st) return st;
    return scan_zone(sc, off);
}

exec_parse_status_t exec_parse_timestamp(const char *s, size_t n, int64_t *out)
{
    scan_t sc = scan_trimmed(s, n);
    int64_t days, us, off;
    exec_parse_status_t st = scan_date(&sc, &days);
    if (!st) st = scan_time_part(&sc, &us, &off);
    if (st) return st;
    int64_t ts = days * EXEC_USECS_PER_DAY + us - off;
    if (ts < EXEC_TS_MIN || ts >= EXEC_TS_END) return EXEC_PARSE_RANGE;
    *out = ts;
    return EXEC_PARSE_OK;
}

exec_parse_status_t exec_parse_date(const char *s, size_t n, int32_t *out)
{
    scan_t sc = scan_trimmed(s, n);
    int64_t days, us, off;
    exec_parse_status_t st = scan_date(&sc, &days);
    if (!st) st = scan_time_part(&sc, &us, &off);
    if (st) return st;
    *out = (int32_t)days;
    return EXEC_PARSE_OK;
}

/* ---- intervals --------------------------------------------------------- */

/* An interval being assembled, wide enough to detect overflow at the end. */
typedef struct iv_acc {
    __int128 months, days, micros;
} iv_acc_t;

typedef enum {
    U_US,
    U_MS,
    U_SEC,
    U_MIN,
    U_HOUR,
    U_DAY,
    U_WEEK,
    U_MONTH,
    U_YEAR,
    U_DECADE,
    U_CENTURY,
    U_NONE
} iv_unit_t;

static const struct {
    const char *name;
    iv_unit_t unit;
} unit_names[] = {
    {"microseconds", U_US},
    {"microsecond", U_US},
    {"usecs", U_US},
    {"usec", U_US},
    {"us", U_US},
    {"milliseconds", U_MS},
    {"millisecond", U_MS},
    {"msecs", U_MS},
    {"msec", U_MS},
    {"ms", U_MS},
    {"seconds", U_SEC},
    {"second", U_SEC},
    {"secs", U_SEC},
    {"sec", U_SEC},
    {"s", U_SEC},
    {"minutes", U_MIN},
    {"minute", U_MIN},
    {"mins", U_MIN},
    {"min", U_MIN},
    {"m", U_MIN},
    {"hours", U_HOUR},
    {"hour", U_HOUR},
    {"hrs", U_HOUR},
    {"hr", U_HOUR},
    {"h", U_HOUR},
    {"days", U_DAY},
    {"day", U_DAY},
    {"d", U_DAY},
    {"weeks", U_WEEK},
    {"week", U_WEEK},
    {"w", U_WEEK},
    {"months", U_MONTH},
    {"month", U_MONTH},
    {"mons", U_MONTH},
    {"mon", U_MONTH},
    {"years", U_YEAR},
    {"year", U_YEAR},
    {"yrs", U_YEAR},
    {"yr", U_YEAR},
    {"y", U_YEAR},
    {"decades", U_DECADE},
    {"decade", U_DECADE},
    {"centuries", U_CENTURY},
    {"century", U_CENTURY},
};

static iv_unit_t unit_lookup(const char *w, size_t n)
{
    for (size_t i = 0; i < sizeof unit_names / sizeof unit_names[0]; i++)
        if (strlen(unit_names[i].name) == n && !strncasecmp(w, unit_names[i].name, n))
            return unit_names[i].unit;
    return U_NONE;
}

/* A signed decimal number: integer part and fraction (as a double in [0,1)). */
typedef struct ivnum {
    int64_t ip;
    double frac;
    bool neg;
} ivnum_t;

static bool scan_ivnum(scan_t *sc, ivnum_t *v)
{
    v->neg = eat(sc, '-');
    if (!v->neg) eat(sc, '+');
    if (!at_digit(sc) && !(at(sc, '.') && sc->p + 1 < sc->end && isdigit((unsigned char)sc->p[1])))
        return false;
    v->ip = 0;
    while (at_digit(sc)) {
        if (v->ip > INT64_MAX / 100) return false;
        v->ip = v->ip * 10 + (*sc->p++ - '0');
    }
    v->frac = 0;
    if (eat(sc, '.')) {
        double scale = 0.1;
        while (at_digit(sc)) v->frac += (*sc->p++ - '0') * scale, scale /= 10;
    }
    return true;
}

/* Adds n units (a signed decimal) as PostgreSQL does: fractions of years go to
 * months, of months to 30-day days, of weeks/days to time. */
static void add_unit(iv_acc_t *acc, ivnum_t v, iv_unit_t u)
{
    static const int64_t us_per[] = {1, 1000, EXEC_USECS_PER_SEC, EXEC_USECS_PER_MINUTE,
                                     EXEC_USECS_PER_HOUR};
    int sign = v.neg ? -1 : 1;
    switch (u) {
    case U_US:
    case U_MS:
    case U_SEC:
    case U_MIN:
    case U_HOUR:
        acc->micros +=
            sign * ((__int128)v.ip * us_per[u] + (int64_t)llrint(v.frac * (double)us_per[u]));
        break;
    case U_DAY:
    case U_WEEK: {
        int k = u == U_WEEK ? 7 : 1;
        double fd = v.frac * k;
        acc->days += sign * ((__int128)v.ip * k + (int64_t)fd);
        acc->micros += sign * (int64_t)llrint((fd - floor(fd)) * (double)EXEC_USECS_PER_DAY);
        break;
    }
    case U_MONTH: {
        double fd = v.frac * 30;
        acc->months += sign * (__int128)v.ip;
        acc->days += sign * (int64_t)fd;
        acc->micros += sign * (int64_t)llrint((fd - floor(fd)) * (double)EXEC_USECS_PER_DAY);
        break;
    }
    default: {
        int k = u == U_YEAR ? 12 : u == U_DECADE ? 120 : 1200;
        acc->months += sign * ((__int128)v.ip * k + (int64_t)llrint(v.frac * k));
        break;
    }
    }
}

/* [-]h:mm[:ss[.f]] as a time of any length. */
static bool scan_iv_time(scan_t *sc, iv_acc_t *acc)
{
    scan_t save = *sc;
    bool neg = eat(sc, '-');
    if (!neg) eat(sc, '+');
    int nh;
    int64_t h = read_digits(sc, 12, &nh);
    if (h < 0 || !eat(sc, ':')) {
        *sc = save;
        return false;
    }
    int64_t m = read_digits(sc, 2, NULL), s = 0, f = 0;
    if (m < 0 || m > 59) return (*sc = save), false;
    if (eat(sc, ':')) {
        s = read_digits(sc, 2, NULL);
        if (s < 0 || s > 59) return (*sc = save), false;
        if (eat(sc, '.')) f = scan_fraction(sc);
    }
    __int128 us =
        (__int128)h * EXEC_USECS_PER_HOUR + m * EXEC_USECS_PER_MINUTE + s * EXEC_USECS_PER_SEC + f;
    acc->micros += neg ? -us : us;
    return true;
}

static exec_parse_status_t finish_interval(const iv_acc_t *acc, bool ago, exec_interval_t *out)
{
    int s = ago ? -1 : 1;
    if (acc->months > INT32_MAX || acc->months < -INT32_MAX || acc->days > INT32_MAX ||
        acc->days < -INT32_MAX || acc->micros > INT64_MAX || acc->micros < -INT64_MAX)
        return EXEC_PARSE_RANGE;
    out->months = s * (int32_t)acc->months;
    out->days = s * (int32_t)acc->days;
    out->micros = s * (int64_t)acc->micros;
    return EXEC_PARSE_OK;
}

/* ISO 8601 duration: P[nY][nM][nW][nD][T[nH][nM][nS]]. */
static exec_parse_status_t parse_iso_interval(scan_t sc, exec_interval_t *out)
{
    iv_acc_t acc = {0, 0, 0};
    bool time = false, any = false;
    while (sc.p < sc.end) {
        if (!time && (eat(&sc, 'T') || eat(&sc, 't'))) {
            time = true;
            continue;
        }
        ivnum_t v;
        if (!scan_ivnum(&sc, &v) || sc.p >= sc.end) return EXEC_PARSE_SYNTAX;
        char c = (char)toupper((unsigned char)*sc.p++);
        iv_unit_t u = c == 'Y' && !time   ? U_YEAR
                      : c == 'M'          ? (time ? U_MIN : U_MONTH)
                      : c == 'W' && !time ? U_WEEK
                      : c == 'D' && !time ? U_DAY
                      : c == 'H' && time  ? U_HOUR
                      : c == 'S' && time  ? U_SEC
                                          : U_NONE;
        if (u == U_NONE) return EXEC_PARSE_SYNTAX;
        add_unit(&acc, v, u);
        any = true;
    }
    return any ? finish_interval(&acc, false, out) : EXEC_PARSE_SYNTAX;
}

/* One "number [unit]" or time token of the verbose form. */
static bool scan_iv_item(scan_t *sc, iv_acc_t *acc)
{
    if (scan_iv_time(sc, acc)) return true;
    ivnum_t v;
    if (!scan_ivnum(sc, &v)) return false;
    skip_spaces(sc);
    const char *w = sc->p;
    while (sc->p < sc->end && isalpha((unsigned char)*sc->p)) sc->p++;
    iv_unit_t u = U_SEC; /* a bare number counts seconds, as in PostgreSQL */
    if (sc->p > w) {
        if (sc->p - w == 3 && !strncasecmp(w, "ago", 3)) {
            sc->p = w;
        } else if ((u = unit_lookup(w, (size_t)(sc->p - w))) == U_NONE) {
            return false;
        }
    }
    add_unit(acc, v, u);
    return true;
}

exec_parse_status_t exec_parse_interval(const char *s, size_t n, exec_interval_t *out)
{
    scan_t sc = scan_trimmed(s, n);
    if (eat_word(&sc, "interval")) skip_spaces(&sc);
    if (eat(&sc, 'P') || eat(&sc, 'p')) return parse_iso_interval(sc, out);
    if (eat(&sc, '@')) skip_spaces(&sc);
    iv_acc_t acc = {0, 0, 0};
    bool any = false, ago = false;
    while (skip_spaces(&sc), sc.p < sc.end) {
        if (eat_word(&sc, "ago")) {
            skip_spaces(&sc);
            if (sc.p != sc.end || !any) return EXEC_PARSE_SYNTAX;
            ago = true;
            break;
        }
        if (!scan_iv_item(&sc, &acc)) return EXEC_PARSE_SYNTAX;
        any = true;
    }
    return any ? finish_interval(&acc, ago, out) : EXEC_PARSE_SYNTAX;
}

/* Unit ranges of the Spark form: fields from `first` to `last` in the order
 * year, month | day, hour, minute, second. */
static const iv_unit_t range_order[] = {U_YEAR, U_MONTH, U_DAY, U_HOUR, U_MIN, U_SEC};

static int range_index(const char *w, size_t n)
{
    iv_unit_t u = unit_lookup(w, n);
    for (int i = 0; i < 6; i++)
        if (range_order[i] == u) return i;
    return -1;
}

/* `d h:m:s`-like text for the unit range [first, last]. */
static exec_parse_status_t parse_unit_range(scan_t sc, int first, int last, exec_interval_t *out)
{
    if ((first < 2) != (last < 2) || last <= first) return EXEC_PARSE_SYNTAX;
    bool neg = eat(&sc, '-');
    if (!neg) eat(&sc, '+');
    iv_acc_t acc = {0, 0, 0};
    for (int i = first; i <= last; i++) {
        if (i > first) {
            char sep = range_order[i] == U_MONTH ? '-' : range_order[i] == U_HOUR ? ' ' : ':';
            if (!eat(&sc, sep)) return EXEC_PARSE_SYNTAX;
        }
        ivnum_t v;
        if (at(&sc, '-') || at(&sc, '+') || !scan_ivnum(&sc, &v)) return EXEC_PARSE_SYNTAX;
        if (v.frac != 0 && i != last) return EXEC_PARSE_SYNTAX;
        v.neg = neg;
        add_unit(&acc, v, range_order[i]);
    }
    if (sc.p != sc.end) return EXEC_PARSE_SYNTAX;
    return finish_interval(&acc, false, out);
}

exec_parse_status_t exec_parse_interval_unit(const char *s, size_t n, const char *unit,
                                             exec_interval_t *out)
{
    scan_t sc = scan_trimmed(s, n);
    scan_t us = scan_trimmed(unit, strlen(unit));
    const char *w1 = us.p;
    while (us.p < us.end && isalpha((unsigned char)*us.p)) us.p++;
    size_t n1 = (size_t)(us.p - w1);
    skip_spaces(&us);
    if (us.p < us.end) {
        if (!eat_word(&us, "to")) return EXEC_PARSE_SYNTAX;
        skip_spaces(&us);
        int first = range_index(w1, n1), last = range_index(us.p, (size_t)(us.end - us.p));
        if (first < 0 || last < 0) return EXEC_PARSE_SYNTAX;
        return parse_unit_range(sc, first, last, out);
    }
    iv_unit_t u = unit_lookup(w1, n1);
    ivnum_t v;
    if (u == U_NONE || !scan_ivnum(&sc, &v) || sc.p != sc.end) return EXEC_PARSE_SYNTAX;
    iv_acc_t acc = {0, 0, 0};
    add_unit(&acc, v, u);
    return finish_interval(&acc, false, out);
}

/* ---- bytea ------------------------------------------------------------- */

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    c = (char)tolower((unsigned char)c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

exec_parse_status_t exec_parse_bytea(const char *s, size_t n, sl_arena_t *a, exec_str_t *out)
{
    char *buf = sl_alloc(a, n + 1);
    size_t k = 0;
    if (n >= 2 && s[0] == '\\' && s[1] == 'x') {
        for (size_t i = 2; i < n;) {
            if (isspace((unsigned char)s[i])) {
                i++;
                continue;
            }
            int hi = hexval(s[i]), lo = i + 1 < n ? hexval(s[i + 1]) : -1;
            if (hi < 0 || lo < 0) return EXEC_PARSE_SYNTAX;
            buf[k++] = (char)(hi << 4 | lo);
            i += 2;
        }
    } else {
        for (size_t i = 0; i < n;) {
            if (s[i] != '\\') {
                buf[k++] = s[i++];
            } else if (i + 1 < n && s[i + 1] == '\\') {
                buf[k++] = '\\';
                i += 2;
            } else if (i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' &&
                       s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
                buf[k++] = (char)((s[i + 1] - '0') << 6 | (s[i + 2] - '0') << 3 | (s[i + 3] - '0'));
                i += 4;
            } else {
                return EXEC_PARSE_SYNTAX;
            }
        }
    }
    out->ptr = buf;
    out->len = (uint32_t)k;
    return EXEC_PARSE_OK;
}

/* ---- formatting -------------------------------------------------------- */

void exec_format_double(double v, sl_buf_t *buf)
{
    if (isnan(v) || isinf(v) || v == 0) {
        sl_buf_puts(buf, isnan(v)     ? "NaN"
                         : isinf(v)   ? (v > 0 ? "Infinity" : "-Infinity")
                         : signbit(v) ? "-0"
                                      : "0");
        return;
    }
    if (v < 0) sl_buf_putc(buf, '-');
    char d[20];
    int e, n = sl_dtoa_shortest(v, d, &e);
    if (e < -4 || e >= 15) {
        sl_buf_putc(buf, d[0]);
        if (n > 1) {
            sl_buf_putc(buf, '.');
            sl_buf_append(buf, d + 1, (size_t)(n - 1));
        }
        sl_buf_printf(buf, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
        return;
    }
    if (e < 0) {
        sl_buf_puts(buf, "0.");
        for (int i = -1; i > e; i--) sl_buf_putc(buf, '0');
        sl_buf_append(buf, d, (size_t)n);
        return;
    }
    for (int i = 0; i <= e; i++) sl_buf_putc(buf, i < n ? d[i] : '0');
    if (n > e + 1) {
        sl_buf_putc(buf, '.');
        sl_buf_append(buf, d + e + 1, (size_t)(n - e - 1));
    }
}

void exec_format_decimal(exec_dec_t v, int scale, sl_buf_t *buf)
{
    char tmp[48];
    int n = 0;
    u128 mag = v < 0 ? -(u128)v : (u128)v;
    do {
        tmp[n++] = (char)('0' + (int)(mag % 10));
        mag /= 10;
    } while (mag || n <= scale);
    if (v < 0) sl_buf_putc(buf, '-');
    while (n > scale) sl_buf_putc(buf, tmp[--n]);
    if (scale > 0) sl_buf_putc(buf, '.');
    while (n > 0) sl_buf_putc(buf, tmp[--n]);
}

static void format_ymd(int64_t days, sl_buf_t *buf, bool *bc)
{
    int64_t y;
    int m, d;
    exec_civil_from_days(days, &y, &m, &d);
    *bc = y <= 0;
    sl_buf_printf(buf, "%04lld-%02d-%02d", (long long)(y <= 0 ? 1 - y : y), m, d);
}

void exec_format_timestamp(int64_t micros, sl_buf_t *buf)
{
    int64_t days = exec_floor_div(micros, EXEC_USECS_PER_DAY);
    int64_t tod = micros - days * EXEC_USECS_PER_DAY;
    bool bc;
    format_ymd(days, buf, &bc);
    int64_t s = tod / EXEC_USECS_PER_SEC, f = tod % EXEC_USECS_PER_SEC;
    sl_buf_printf(buf, " %02d:%02d:%02d", (int)(s / 3600), (int)(s / 60 % 60), (int)(s % 60));
    if (f) {
        char frac[8];
        snprintf(frac, sizeof frac, "%06d", (int)f);
        int k = 6;
        while (frac[k - 1] == '0') k--;
        sl_buf_putc(buf, '.');
        sl_buf_append(buf, frac, (size_t)k);
    }
    if (bc) sl_buf_puts(buf, " BC");
}

void exec_format_timestamp_iso(int64_t micros, sl_buf_t *buf)
{
    int64_t days = exec_floor_div(micros, EXEC_USECS_PER_DAY);
    int64_t tod = micros - days * EXEC_USECS_PER_DAY;
    int64_t y;
    int m, d;
    exec_civil_from_days(days, &y, &m, &d);
    int64_t s = tod / EXEC_USECS_PER_SEC;
    sl_buf_printf(buf, "%04lld-%02d-%02dT%02d:%02d:%02d.%03dZ", (long long)y, m, d, (int)(s / 3600),
                  (int)(s / 60 % 60), (int)(s % 60), (int)(tod % EXEC_USECS_PER_SEC / 1000));
}

void exec_format_date(int32_t days, sl_buf_t *buf)
{
    bool bc;
    format_ymd(days, buf, &bc);
    if (bc) sl_buf_puts(buf, " BC");
}

/* PostgreSQL's AddPostgresIntPart: " [+]N unit[s]". */
static void iv_part(sl_buf_t *buf, int64_t v, const char *unit, bool *is_zero, bool *is_before)
{
    if (v == 0) return;
    sl_buf_printf(buf, "%s%s%lld %s%s", *is_zero ? "" : " ", (*is_before && v > 0) ? "+" : "",
                  (long long)v, unit, v != 1 ? "s" : "");
    *is_before = v < 0;
    *is_zero = false;
}

void exec_format_interval(exec_interval_t iv, sl_buf_t *buf)
{
    bool is_zero = true, is_before = false;
    iv_part(buf, iv.months / 12, "year", &is_zero, &is_before);
    iv_part(buf, iv.months % 12, "mon", &is_zero, &is_before);
    iv_part(buf, iv.days, "day", &is_zero, &is_before);
    if (!is_zero && iv.micros == 0) return;
    bool minus = iv.micros < 0;
    uint64_t us = minus ? 0 - (uint64_t)iv.micros : (uint64_t)iv.micros;
    uint64_t s = us / 1000000, f = us % 1000000;
    sl_buf_printf(buf, "%s%s%02llu:%02llu:%02llu", is_zero ? "" : " ",
                  minus       ? "-"
                  : is_before ? "+"
                              : "",
                  (unsigned long long)(s / 3600), (unsigned long long)(s / 60 % 60),
                  (unsigned long long)(s % 60));
    if (f) {
        char frac[8];
        snprintf(frac, sizeof frac, "%06llu", (unsigned long long)f);
        int k = 6;
        while (frac[k - 1] == '0') k--;
        sl_buf_putc(buf, '.');
        sl_buf_append(buf, frac, (size_t)k);
    }
}

void exec_format_bytea(const char *p, size_t n, sl_buf_t *buf)
{
    static const char hex[] = "0123456789abcdef";
    sl_buf_reserve(buf, 2 + 2 * n);
    sl_buf_puts(buf, "\\x");
    for (size_t i = 0; i < n; i++) {
        char two[2] = {hex[(unsigned char)p[i] >> 4], hex[(unsigned char)p[i] & 15]};
        sl_buf_append(buf, two, 2);
    }
}

void exec_text_format(exec_type_t t, const void *cell, sl_buf_t *buf)
{
    switch (t.id) {
    case EXEC_TYPE_BOOLEAN: sl_buf_putc(buf, *(const uint8_t *)cell ? 't' : 'f'); break;
    case EXEC_TYPE_INT: sl_buf_printf(buf, "%d", *(const int32_t *)cell); break;
    case EXEC_TYPE_BIGINT: sl_buf_printf(buf, "%lld", (long long)*(const int64_t *)cell); break;
    case EXEC_TYPE_DOUBLE: exec_format_double(*(const double *)cell, buf); break;
    case EXEC_TYPE_DECIMAL: exec_format_decimal(*(const exec_dec_t *)cell, t.scale, buf); break;
    case EXEC_TYPE_STRING: {
        const exec_str_t *s = cell;
        sl_buf_append(buf, s->ptr, s->len);
        break;
    }
    case EXEC_TYPE_BINARY: {
        const exec_str_t *s = cell;
        exec_format_bytea(s->ptr, s->len, buf);
        break;
    }
    case EXEC_TYPE_TIMESTAMP: exec_format_timestamp(*(const int64_t *)cell, buf); break;
    case EXEC_TYPE_DATE: exec_format_date(*(const int32_t *)cell, buf); break;
    case EXEC_TYPE_INTERVAL: exec_format_interval(*(const exec_interval_t *)cell, buf); break;
    default: break; /* NULL and STRUCT are not scalars */
    }
}

/* ---- parse dispatch and errors ----------------------------------------- */

/* PostgreSQL's messages for bad bytea input: the first character that is
 * not a hex digit, an odd count of digits, or a bad escape. */
static int bytea_error(const char *s, size_t n, sl_error_t *err)
{
    if (n < 2 || s[0] != '\\' || s[1] != 'x')
        return sl_error_set(err, SL_ERR_INVALID_TEXT_REPRESENTATION,
                            "invalid input syntax for type bytea");
    for (size_t i = 2; i < n; i++)
        if (!isspace((unsigned char)s[i]) && hexval(s[i]) < 0)
            return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                                "invalid hexadecimal digit: \"%c\"", s[i]);
    return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                        "invalid hexadecimal data: odd number of digits");
}

int exec_text_error(exec_type_t t, exec_parse_status_t st, const char *s, size_t n, sl_error_t *err)
{
    if (t.id == EXEC_TYPE_BINARY) return bytea_error(s, n, err);
    int len = n > 200 ? 200 : (int)n;
    const char *name = exec_type_pg_name(t);
    bool datetime =
        t.id == EXEC_TYPE_TIMESTAMP || t.id == EXEC_TYPE_DATE || t.id == EXEC_TYPE_INTERVAL;
    if (st == EXEC_PARSE_SYNTAX)
        return sl_error_set(
            err, datetime ? SL_ERR_INVALID_DATETIME_FORMAT : SL_ERR_INVALID_TEXT_REPRESENTATION,
            "invalid input syntax for type %s: \"%.*s\"", name, len, s);
    switch (t.id) {
    case EXEC_TYPE_DECIMAL: {
        int ints = t.precision - t.scale;
        sl_error_set(err, SL_ERR_NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow");
        return sl_error_detail(
            err,
            "A field with precision %d, scale %d must round to an absolute value less than %s%d.",
            t.precision, t.scale, ints ? "10^" : "", ints ? ints : 1);
    }
    case EXEC_TYPE_DOUBLE:
        return sl_error_set(err, SL_ERR_NUMERIC_VALUE_OUT_OF_RANGE,
                            "\"%.*s\" is out of range for type double precision", len, s);
    case EXEC_TYPE_TIMESTAMP:
    case EXEC_TYPE_DATE:
        return sl_error_set(err, SL_ERR_DATETIME_FIELD_OVERFLOW,
                            "date/time field value out of range: \"%.*s\"", len, s);
    case EXEC_TYPE_INTERVAL:
        return sl_error_set(err, SL_ERR_DATETIME_FIELD_OVERFLOW,
                            "interval field value out of range: \"%.*s\"", len, s);
    default:
        return sl_error_set(err, SL_ERR_NUMERIC_VALUE_OUT_OF_RANGE,
                            "value \"%.*s\" is out of range for type %s", len, s, name);
    }
}

static exec_parse_status_t parse_cell(exec_type_t t, const char *s, size_t n, sl_arena_t *a,
                                      void *cell)
{
    switch (t.id) {
    case EXEC_TYPE_BOOLEAN: return exec_parse_bool(s, n, cell);
    case EXEC_TYPE_INT: return exec_parse_int32(s, n, cell);
    case EXEC_TYPE_BIGINT: return exec_parse_int64(s, n, cell);
    case EXEC_TYPE_DOUBLE: return exec_parse_double(s, n, cell);
    case EXEC_TYPE_DECIMAL: return exec_parse_decimal(s, n, t.precision, t.scale, cell);
    case EXEC_TYPE_STRING: {
        exec_str_t *str = cell;
        str->ptr = sl_strndup(a, s, n);
        str->len = (uint32_t)n;
        return EXEC_PARSE_OK;
    }
    case EXEC_TYPE_BINARY: return exec_parse_bytea(s, n, a, cell);
    case EXEC_TYPE_TIMESTAMP: return exec_parse_timestamp(s, n, cell);
    case EXEC_TYPE_DATE: return exec_parse_date(s, n, cell);
    case EXEC_TYPE_INTERVAL: return exec_parse_interval(s, n, cell);
    default: return EXEC_PARSE_SYNTAX;
    }
}

int exec_text_parse(exec_type_t t, const char *s, size_t n, sl_arena_t *a, void *cell,
                    sl_error_t *err)
{
    exec_parse_status_t st = parse_cell(t, s, n, a, cell);
    if (st == EXEC_PARSE_OK) return 0;
    if (t.id == EXEC_TYPE_STRUCT || t.id == EXEC_TYPE_NULL)
        return sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED, "cannot read type %s from text",
                            exec_type_pg_name(t));
    return exec_text_error(t, st, s, n, err);
}

int exec_text_array_element(exec_str_t s, uint32_t *i, sl_buf_t *out)
{
    uint32_t k = *i;
    int quoted = k < s.len && s.ptr[k] == '"';
    size_t start = out->len;
    for (k += quoted; k < s.len; k++) {
        char ch = s.ptr[k];
        if (quoted && ch == '\\' && k + 1 < s.len) ch = s.ptr[++k];
        else if (quoted && ch == '"') {
            k++;
            break;
        } else if (!quoted && (ch == ',' || ch == '}')) break;
        sl_buf_putc(out, ch);
    }
    *i = k;
    if (!quoted && out->len - start == 4 && !memcmp(out->data + start, "NULL", 4)) {
        out->len = start;
        return 0;
    }
    return 1;
}
