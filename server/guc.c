/* Session settings: the table of known settings (guc.def), checking and
 * normalising values as PostgreSQL does (booleans, integers with time
 * units, enumerations, DateStyle, TimeZone, client_encoding, search_path),
 * and a session's values with the transaction stack that SET, SET LOCAL,
 * ROLLBACK and savepoints need.
 *
 * Each slot holds `cur` (the value in force) and `base` (what COMMIT
 * keeps: SET changes both, SET LOCAL only cur); NULL means the default.
 * Slots 0 .. GUC__COUNT-1 are the known settings, later ones placeholders.
 * BEGIN and each SAVEPOINT push a copy of every slot; ROLLBACK [TO] copies
 * one back. */
#include "server/guc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/version.h"

typedef enum { K_BOOL, K_INT, K_MS, K_ENUM, K_STRING, K_SPECIAL } guc_kind_t;

enum { F_REPORT = 1, F_FIXED = 2, F_TXN = 4 };
#define REPORT F_REPORT
#define FIXED F_FIXED
#define TXN F_TXN

static const struct {
    const char *name;
    guc_kind_t kind;
    const char *def;
    int flags;
    const char *values;
    const char *desc;
} gucs[GUC__COUNT] = {
#define GUC(id, name, kind, def, flags, values, desc) {name, K_##kind, def, flags, values, desc},
#include "server/guc.def"
#undef GUC
};

typedef struct guc_slot {
    char *name; /* placeholders only */
    char *cur, *base;
} guc_slot_t;

typedef struct guc_snap {
    int n;
    guc_slot_t *slots; /* name not owned */
} guc_snap_t;

struct guc {
    char *user;
    int n, cap;
    guc_slot_t *slots;
    int nsnaps;
    guc_snap_t *snaps; /* [0] = BEGIN, [i + 1] = savepoint i */
    char *reported[GUC__COUNT];
    int reported_once;
};

static char *dup_or_null(const char *s)
{
    return s ? sl_xstrdup(s) : NULL;
}

guc_t *guc_new(const char *user)
{
    guc_t *g = sl_xcalloc(1, sizeof *g);
    g->user = sl_xstrdup(user ? user : "");
    g->cap = GUC__COUNT + 8;
    g->n = GUC__COUNT;
    g->slots = sl_xcalloc((size_t)g->cap, sizeof *g->slots);
    return g;
}

static void snap_free(guc_snap_t *s)
{
    for (int i = 0; i < s->n; i++) {
        free(s->slots[i].cur);
        free(s->slots[i].base);
    }
    free(s->slots);
}

static void snaps_pop_to(guc_t *g, int n)
{
    while (g->nsnaps > n) snap_free(&g->snaps[--g->nsnaps]);
}

void guc_free(guc_t *g)
{
    if (!g) return;
    snaps_pop_to(g, 0);
    free(g->snaps);
    for (int i = 0; i < g->n; i++) {
        free(g->slots[i].name);
        free(g->slots[i].cur);
        free(g->slots[i].base);
    }
    for (int i = 0; i < GUC__COUNT; i++) free(g->reported[i]);
    free(g->slots);
    free(g->user);
    free(g);
}

int guc_find(const char *name)
{
    for (int i = 0; i < GUC__COUNT; i++)
        if (!strcasecmp(gucs[i].name, name)) return i;
    return -1;
}

const char *guc_name(guc_id_t id)
{
    return gucs[id].name;
}

const char *guc_description(guc_id_t id)
{
    return gucs[id].desc;
}

static const char *default_value(const guc_t *g, guc_id_t id)
{
    if (id == GUC_SESSION_AUTHORIZATION) return g->user;
    if (id == GUC_TRANSACTION_ISOLATION) return guc_value(g, GUC_DEFAULT_TRANSACTION_ISOLATION);
    if (id == GUC_TRANSACTION_READ_ONLY) return guc_value(g, GUC_DEFAULT_TRANSACTION_READ_ONLY);
    if (id == GUC_TRANSACTION_DEFERRABLE) return guc_value(g, GUC_DEFAULT_TRANSACTION_DEFERRABLE);
    return gucs[id].def;
}

const char *guc_value(const guc_t *g, guc_id_t id)
{
    return g->slots[id].cur ? g->slots[id].cur : default_value(g, id);
}

static int placeholder_slot(const guc_t *g, const char *name)
{
    for (int i = GUC__COUNT; i < g->n; i++)
        if (!strcasecmp(g->slots[i].name, name)) return i;
    return -1;
}

const char *guc_get(const guc_t *g, const char *name)
{
    int id = guc_find(name);
    if (id >= 0) return guc_value(g, (guc_id_t)id);
    int i = placeholder_slot(g, name);
    return i >= 0 ? g->slots[i].cur : NULL;
}

/* ---- values ---------------------------------------------------------------- */

static int invalid_value(sl_error_t *err, guc_id_t id, const char *value)
{
    return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                        "invalid value for parameter \"%s\": \"%s\"", gucs[id].name, value);
}

/* PostgreSQL's boolean spellings; -1 when none. */
static int parse_bool(const char *v)
{
    static const char *const yes[] = {"on", "true", "yes", "1", "t", "y"};
    static const char *const no[] = {"off", "false", "no", "0", "f", "n", "of"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        if (!strcasecmp(v, yes[i])) return 1;
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        if (!strcasecmp(v, no[i])) return 0;
    return -1;
}

/* An integer with an optional time unit (MS settings); -1 when malformed. */
static int parse_number(const char *v, int with_units, int64_t *out)
{
    static const struct {
        const char *unit;
        int64_t ms;
    } units[] = {{"ms", 1}, {"s", 1000}, {"min", 60000}, {"h", 3600000}, {"d", 86400000}};
    char *end;
    double x = strtod(v, &end);
    if (end == v) return -1;
    while (isspace((unsigned char)*end)) end++;
    int64_t mult = 1;
    if (*end && !with_units) return -1;
    if (*end) {
        size_t k = 0;
        while (k < sizeof units / sizeof *units && strcmp(end, units[k].unit)) k++;
        if (k == sizeof units / sizeof *units) return -1;
        mult = units[k].ms;
    }
    x *= (double)mult;
    if (x > 9.2e18 || x < -9.2e18) return -1;
    *out = (int64_t)(x < 0 ? x - 0.5 : x + 0.5);
    return 0;
}

/* Milliseconds as PostgreSQL shows them: the largest unit that divides evenly. */
static char *format_ms(int64_t ms)
{
    static const struct {
        const char *unit;
        int64_t ms;
    } units[] = {{"d", 86400000}, {"h", 3600000}, {"min", 60000}, {"s", 1000}};
    char buf[48];
    snprintf(buf, sizeof buf, "%lld%s", (long long)ms, ms ? "ms" : "");
    for (size_t i = 0; ms && i < sizeof units / sizeof *units; i++)
        if (ms % units[i].ms == 0) {
            snprintf(buf, sizeof buf, "%lld%s", (long long)(ms / units[i].ms), units[i].unit);
            break;
        }
    return sl_xstrdup(buf);
}

static int check_int(guc_id_t id, const char *v, char **out, sl_error_t *err)
{
    int ms = gucs[id].kind == K_MS;
    int64_t n, lo, hi;
    if (parse_number(v, ms, &n) < 0) {
        invalid_value(err, id, v);
        if (ms)
            sl_error_hint(
                err,
                "Valid units for this parameter are \"ms\", \"s\", \"min\", \"h\", and \"d\".");
        return -1;
    }
    sscanf(gucs[id].values, "%lld..%lld", (long long *)&lo, (long long *)&hi);
    if (n < lo || n > hi)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "%lld%s is outside the valid range for parameter \"%s\" (%lld .. %lld)",
                            (long long)n, ms ? " ms" : "", gucs[id].name, (long long)lo,
                            (long long)hi);
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)n);
    *out = ms ? format_ms(n) : sl_xstrdup(buf);
    return 0;
}

static int check_enum(guc_id_t id, const char *v, char **out, sl_error_t *err)
{
    const char *p = gucs[id].values;
    while (*p) {
        size_t n = strcspn(p, "|");
        if (strlen(v) == n && !strncasecmp(p, v, n)) {
            *out = sl_xstrndup(p, n);
            return 0;
        }
        p += n + (p[n] == '|');
    }
    invalid_value(err, id, v);
    sl_buf_t list = SL_BUF_INIT;
    for (p = gucs[id].values; *p; p++) {
        if (*p == '|') sl_buf_puts(&list, ", ");
        else sl_buf_putc(&list, *p);
    }
    sl_error_hint(err, "Available values: %s.", list.data);
    sl_buf_free(&list);
    return -1;
}

/* client_encoding: UTF8 under any of PostgreSQL's spellings of it, or
 * SQL_ASCII, which PostgreSQL answers with no conversion at all (libpq's
 * client_encoding=auto sends it from a C locale, as interactive psql does). */
static int check_client_encoding(const char *v, char **out, sl_error_t *err)
{
    char norm[32];
    size_t n = 0;
    for (const char *p = v; *p && n + 1 < sizeof norm; p++)
        if (isalnum((unsigned char)*p)) norm[n++] = (char)tolower((unsigned char)*p);
    norm[n] = 0;
    if (!strcmp(norm, "utf8") || !strcmp(norm, "unicode") || !strcmp(norm, "sqlascii")) {
        *out = sl_xstrdup(norm[0] == 's' ? "SQL_ASCII" : "UTF8");
        return 0;
    }
    invalid_value(err, GUC_CLIENT_ENCODING, v);
    return sl_error_detail(err, "sluice sends and reads text in UTF8 only.");
}

/* DateStyle: output style ISO (the only one sluice writes) and an order. */
static int check_datestyle(const guc_t *g, const char *v, char **out, sl_error_t *err)
{
    const char *cur = guc_value(g, GUC_DATESTYLE);
    const char *order = strstr(cur, "DMY") ? "DMY" : strstr(cur, "YMD") ? "YMD" : "MDY";
    char word[32];
    for (const char *p = v; *p;) {
        size_t n = strcspn(p, ", \t");
        if (n == 0 || n >= sizeof word) {
            p += n ? n : 1;
            continue;
        }
        memcpy(word, p, n);
        word[n] = 0;
        p += n;
        if (!strcasecmp(word, "ISO") || !strcasecmp(word, "DEFAULT")) continue;
        if (!strcasecmp(word, "MDY") || !strcasecmp(word, "US") || !strncasecmp(word, "NONEURO", 7))
            order = "MDY";
        else if (!strcasecmp(word, "DMY") || !strncasecmp(word, "EURO", 4)) order = "DMY";
        else if (!strcasecmp(word, "YMD")) order = "YMD";
        else {
            invalid_value(err, GUC_DATESTYLE, v);
            return sl_error_detail(err, "sluice writes dates and times in ISO style only.");
        }
    }
    char buf[16];
    snprintf(buf, sizeof buf, "ISO, %s", order);
    *out = sl_xstrdup(buf);
    return 0;
}

/* A numeric UTC offset: [UTC|GMT][+-]H[H][:MM] or a number of hours (pgjdbc
 * sends a JVM zone such as GMT+02:00 as GMT-02:00). */
static int is_offset(const char *v)
{
    if (!strncasecmp(v, "UTC", 3) || !strncasecmp(v, "GMT", 3)) v += 3;
    const char *p = v + (*v == '+' || *v == '-');
    if (!isdigit((unsigned char)*p)) return 0;
    while (isdigit((unsigned char)*p) || *p == ':' || *p == '.') p++;
    return *p == 0;
}

/* A zone of the system's time zone database; with no database on the
 * machine, any name of the database's form. */
static int is_zone_name(const char *v)
{
    if (!v[0] || v[0] == '/' || strstr(v, "..") || strlen(v) >= 200) return 0;
    for (const char *p = v; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("/_+-", *p)) return 0;
    struct stat st;
    char path[256];
    snprintf(path, sizeof path, "/usr/share/zoneinfo/%s", v);
    if (stat("/usr/share/zoneinfo", &st) != 0) return 1;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* TimeZone: UTC, an offset, or a zone name. */
static int check_timezone(const char *v, char **out, sl_error_t *err)
{
    int ok = !strcasecmp(v, "UTC") || !strcasecmp(v, "GMT") || !strcasecmp(v, "Z") ||
             is_offset(v) || is_zone_name(v);
    if (!ok) return invalid_value(err, GUC_TIMEZONE, v);
    *out = sl_xstrdup(!strcasecmp(v, "utc") ? "UTC" : v);
    return 0;
}

static int check_special(const guc_t *g, guc_id_t id, const char *v, char **out, sl_error_t *err)
{
    switch (id) {
    case GUC_CLIENT_ENCODING: return check_client_encoding(v, out, err);
    case GUC_DATESTYLE: return check_datestyle(g, v, out, err);
    case GUC_TIMEZONE: return check_timezone(v, out, err);
    case GUC_STANDARD_CONFORMING_STRINGS:
        if (parse_bool(v) == 1) {
            *out = sl_xstrdup("on");
            return 0;
        }
        invalid_value(err, id, v);
        return sl_error_detail(err,
                               "sluice always treats backslashes in string literals literally.");
    case GUC_SESSION_AUTHORIZATION:
        if (!strcmp(v, g->user)) {
            *out = sl_xstrdup(v);
            return 0;
        }
        invalid_value(err, id, v);
        return sl_error_detail(err, "A session keeps the user it logged in as.");
    default: *out = sl_xstrdup(v); return 0; /* search_path: any list of names */
    }
}

/* Checks `v` for setting `id`; *out gets PostgreSQL's spelling (malloc'd). */
static int check_value(const guc_t *g, guc_id_t id, const char *v, char **out, sl_error_t *err)
{
    switch (gucs[id].kind) {
    case K_BOOL: {
        int b = parse_bool(v);
        if (b < 0)
            return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                                "parameter \"%s\" requires a Boolean value", gucs[id].name);
        *out = sl_xstrdup(b ? "on" : "off");
        return 0;
    }
    case K_INT:
    case K_MS: return check_int(id, v, out, err);
    case K_ENUM: return check_enum(id, v, out, err);
    case K_STRING: *out = sl_xstrdup(v); return 0;
    case K_SPECIAL: return check_special(g, id, v, out, err);
    }
    return 0;
}

int64_t guc_int(const guc_t *g, guc_id_t id)
{
    const char *v = guc_value(g, id);
    if (gucs[id].kind == K_BOOL) return parse_bool(v) == 1;
    int64_t n = 0;
    parse_number(v, gucs[id].kind == K_MS, &n);
    return n;
}

/* ---- SET ------------------------------------------------------------------- */

static void slot_put(guc_slot_t *s, const char *v, int local)
{
    free(s->cur);
    s->cur = dup_or_null(v);
    if (local) return;
    free(s->base);
    s->base = dup_or_null(v);
}

static int placeholder_set(guc_t *g, const char *name, const char *value, int local)
{
    int i = placeholder_slot(g, name);
    if (i < 0) {
        if (g->n == g->cap) {
            g->cap *= 2;
            g->slots = sl_xrealloc(g->slots, sizeof *g->slots * (size_t)g->cap);
        }
        i = g->n++;
        memset(&g->slots[i], 0, sizeof g->slots[i]);
        g->slots[i].name = sl_xstrdup(name);
    }
    slot_put(&g->slots[i], value ? value : "", local);
    return 0;
}

/* A placeholder name: two or more non-empty parts joined by dots. */
static int is_placeholder(const char *name)
{
    const char *dot = strchr(name, '.');
    return dot && dot != name && dot[1] && name[strlen(name) - 1] != '.';
}

int guc_set(guc_t *g, const char *name, const char *value, int local, int in_block, sl_error_t *err)
{
    int id = guc_find(name);
    if (id < 0 && !is_placeholder(name))
        return sl_error_set(err, SL_ERR_UNDEFINED_OBJECT,
                            "unrecognized configuration parameter \"%s\"", name);
    if (id >= 0 && (gucs[id].flags & F_FIXED))
        return sl_error_set(err, SL_ERR_CANT_CHANGE_RUNTIME_PARAM,
                            "parameter \"%s\" cannot be changed", gucs[id].name);
    if ((local || (id >= 0 && (gucs[id].flags & F_TXN))) && !in_block) {
        char *ignored = NULL; /* still checked, as PostgreSQL does */
        int rc = id >= 0 && value ? check_value(g, (guc_id_t)id, value, &ignored, err) : 0;
        free(ignored);
        return rc < 0 ? -1 : 1;
    }
    if (id < 0) return placeholder_set(g, name, value, local);
    char *norm = NULL;
    if (value && check_value(g, (guc_id_t)id, value, &norm, err) < 0) return -1;
    slot_put(&g->slots[id], norm, local || (gucs[id].flags & F_TXN));
    free(norm);
    return 0;
}

void guc_reset_all(guc_t *g)
{
    for (int i = 0; i < GUC__COUNT; i++)
        if (!(gucs[i].flags & (F_FIXED | F_TXN))) slot_put(&g->slots[i], NULL, 0);
    for (int i = GUC__COUNT; i < g->n; i++) slot_put(&g->slots[i], NULL, 0);
}

/* ---- transactions -------------------------------------------------------------- */

void guc_txn_savepoint(guc_t *g)
{
    g->snaps = sl_xrealloc(g->snaps, sizeof *g->snaps * (size_t)(g->nsnaps + 1));
    guc_snap_t *s = &g->snaps[g->nsnaps++];
    s->n = g->n;
    s->slots = sl_xcalloc((size_t)g->n, sizeof *s->slots);
    for (int i = 0; i < g->n; i++) {
        s->slots[i].cur = dup_or_null(g->slots[i].cur);
        s->slots[i].base = dup_or_null(g->slots[i].base);
    }
}

void guc_txn_begin(guc_t *g)
{
    snaps_pop_to(g, 0);
    guc_txn_savepoint(g);
}

/* Copies snapshot `k` back; placeholders made since then lose their value. */
static void restore(guc_t *g, int k)
{
    const guc_snap_t *s = &g->snaps[k];
    for (int i = 0; i < g->n; i++) {
        free(g->slots[i].cur);
        free(g->slots[i].base);
        g->slots[i].cur = i < s->n ? dup_or_null(s->slots[i].cur) : NULL;
        g->slots[i].base = i < s->n ? dup_or_null(s->slots[i].base) : NULL;
    }
}

void guc_txn_rollback_to(guc_t *g, int level)
{
    if (level + 1 >= g->nsnaps) return;
    restore(g, level + 1);
    snaps_pop_to(g, level + 2);
}

void guc_txn_release(guc_t *g, int level)
{
    if (level + 1 < g->nsnaps) snaps_pop_to(g, level + 1);
}

void guc_txn_end(guc_t *g, int commit)
{
    if (!commit && g->nsnaps > 0) restore(g, 0);
    snaps_pop_to(g, 0);
    for (int i = 0; i < g->n; i++) {
        guc_slot_t *s = &g->slots[i];
        if (i < GUC__COUNT && (gucs[i].flags & F_TXN)) {
            slot_put(s, NULL, 0);
            continue;
        }
        free(s->cur);
        s->cur = dup_or_null(s->base);
    }
}

void guc_txn_property(guc_t *g, guc_id_t id, const char *value)
{
    slot_put(&g->slots[id], value, 1);
}

/* ---- ParameterStatus --------------------------------------------------------- */

void guc_report_changes(guc_t *g, void (*cb)(void *arg, const char *name, const char *value),
                        void *arg)
{
    for (int i = 0; i < GUC__COUNT; i++) {
        if (!(gucs[i].flags & F_REPORT)) continue;
        const char *v = guc_value(g, (guc_id_t)i);
        if (g->reported_once && g->reported[i] && !strcmp(g->reported[i], v)) continue;
        free(g->reported[i]);
        g->reported[i] = sl_xstrdup(v);
        cb(arg, gucs[i].name, v);
    }
    g->reported_once = 1;
}
