/* connectors/ internals: crash-safe files, file URIs, option parsing,
 * bare-number offsets, the persisted start time of generated streams and
 * the byte-string hash map (conn_int.h). */
#include "connectors/conn_int.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/hash.h"
#include "common/private_file.h"
#include "common/failpoint.h"
#include "model/text_io.h"

/* ---- files ---------------------------------------------------------------- */

void conn_metric_bad_records(const source_t *s, format_bad_records_t *bad, sl_buf_t *out)
{
    long long n = atomic_load(&s->malformed);
    if (n) sl_buf_printf(out, "%s\"numMalformedRecords\":\"%lld\"", out->len ? "," : "", n);
    format_bad_records_metrics(bad, out);
}

int conn_io_error(sl_error_t *err, const char *what, const char *path)
{
    return sl_error_set(err, SL_ERR_IO_ERROR, "could not %s \"%s\": %s", what, path,
                        strerror(errno));
}

char *conn_path_join(sl_arena_t *a, const char *dir, const char *name)
{
    size_t n = strlen(dir), k = strlen(name);
    size_t slash = n && dir[n - 1] == '/' ? 0 : 1;
    char *p = sl_alloc(a, n + slash + k + 1);
    memcpy(p, dir, n);
    if (slash) p[n] = '/';
    memcpy(p + n + slash, name, k + 1);
    return p;
}

int64_t conn_mtime_ms(const struct stat *st)
{
    return (int64_t)st->st_mtim.tv_sec * 1000 + st->st_mtim.tv_nsec / 1000000;
}

/* ---- URIs ------------------------------------------------------------------ */

static bool uri_plain(unsigned char c)
{
    return isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~';
}

void conn_file_uri(sl_buf_t *out, const char *abs_path)
{
    static const char hex[] = "0123456789ABCDEF";
    sl_buf_puts(out, "file://");
    const unsigned char *p = (const unsigned char *)abs_path;
    while (*p) {
        const unsigned char *run = p;
        while (*p && uri_plain(*p)) p++;
        sl_buf_append(out, run, (size_t)(p - run)); /* a run of plain characters at once */
        if (!*p) break;
        char esc[3] = {'%', hex[*p >> 4], hex[*p & 15]};
        sl_buf_append(out, esc, 3);
        p++;
    }
}

static int hexval(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

char *conn_uri_path(sl_arena_t *a, const char *uri, size_t n)
{
    if (n >= 8 && !strncmp(uri, "file:///", 8)) uri += 7, n -= 7;
    else if (n >= 6 && !strncmp(uri, "file:/", 6)) uri += 5, n -= 5;
    if (n == 0 || uri[0] != '/') return NULL;
    char *o = sl_alloc(a, n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int hi, lo;
        if (uri[i] == '%' && i + 2 < n && (hi = hexval(uri[i + 1])) >= 0 &&
            (lo = hexval(uri[i + 2])) >= 0) {
            o[k++] = (char)(hi << 4 | lo);
            i += 2;
        } else {
            o[k++] = uri[i];
        }
    }
    o[k] = 0;
    return o;
}

/* ---- options ---------------------------------------------------------------- */

int conn_bad_option(sl_error_t *err, const char *key, const char *value, const char *hint_fmt, ...)
{
    sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "invalid value \"%s\" for option \"%s\"",
                 value, key);
    char hint[400];
    va_list ap;
    va_start(ap, hint_fmt);
    vsnprintf(hint, sizeof hint, hint_fmt, ap);
    va_end(ap);
    return sl_error_hint(err, "%s", hint);
}

static bool parse_int64(const char *s, int64_t *out)
{
    while (isspace((unsigned char)*s)) s++;
    if (!*s) return false;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    while (isspace((unsigned char)*end)) end++;
    if (errno || *end) return false;
    *out = v;
    return true;
}

int conn_opt_int64(const conn_desc_t *d, const conn_kv_t *o, int n, const char *key, int64_t min,
                   int64_t max, int64_t *out, sl_error_t *err)
{
    const char *v = conn_option(d, o, n, key);
    if (!v) return 0;
    int64_t x;
    if (!parse_int64(v, &x) || x < min || x > max) {
        if (max == INT64_MAX)
            return conn_bad_option(err, key, v, "It must be an integer of at least %lld.",
                                   (long long)min);
        return conn_bad_option(err, key, v, "It must be an integer from %lld to %lld.",
                               (long long)min, (long long)max);
    }
    *out = x;
    return 0;
}

int conn_opt_bool(const conn_desc_t *d, const conn_kv_t *o, int n, const char *key, bool *out,
                  sl_error_t *err)
{
    const char *v = conn_option(d, o, n, key);
    if (!v) return 0;
    if (!strcasecmp(v, "true")) *out = true;
    else if (!strcasecmp(v, "false")) *out = false;
    else return conn_bad_option(err, key, v, "Accepted values: true, false.");
    return 0;
}

/* Multiplier to seconds of a Spark time suffix, as a fraction num/den. */
static bool time_unit(const char *u, int64_t *num, int64_t *den)
{
    static const struct {
        const char *name;
        int64_t num, den;
    } units[] = {
        {"", 1, 1},   {"us", 1, 1000000}, {"ms", 1, 1000}, {"s", 1, 1},
        {"m", 60, 1}, {"min", 60, 1},     {"h", 3600, 1},  {"d", 86400, 1},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcasecmp(u, units[i].name)) return *num = units[i].num, *den = units[i].den, true;
    return false;
}

int conn_opt_seconds(const conn_desc_t *d, const conn_kv_t *o, int n, const char *key, int64_t *out,
                     sl_error_t *err)
{
    const char *v = conn_option(d, o, n, key);
    if (!v) return 0;
    const char *p = v;
    while (isspace((unsigned char)*p)) p++;
    int64_t x = 0, num, den;
    int digits = 0;
    for (; isdigit((unsigned char)*p) && digits < 15; p++, digits++) x = x * 10 + (*p - '0');
    char unit[8] = "";
    size_t k = 0;
    while (*p && !isspace((unsigned char)*p) && k < sizeof unit - 1) unit[k++] = *p++;
    unit[k] = 0;
    while (isspace((unsigned char)*p)) p++;
    if (!digits || *p || !time_unit(unit, &num, &den))
        return conn_bad_option(err, key, v,
                               "It must be a duration such as 10s, 5m or 1h "
                               "(units us, ms, s, m, min, h, d).");
    *out = x * num / den;
    return 0;
}

int conn_opt_bytes(const conn_desc_t *d, const conn_kv_t *o, int n, const char *key, int64_t *out,
                   sl_error_t *err)
{
    const char *v = conn_option(d, o, n, key);
    if (!v) return 0;
    int64_t x;
    if (exec_parse_byte_size(v, strlen(v), &x) != EXEC_PARSE_OK || x == 0)
        return conn_bad_option(err, key, v,
                               "It must be a positive size such as 64m, 512k or 1g "
                               "(units b, k, m, g, t; a bare number is bytes).");
    *out = x;
    return 0;
}

int conn_opt_choice(const conn_desc_t *d, const conn_kv_t *o, int n, const char *key,
                    const char *const *choices, int *out, sl_error_t *err)
{
    const char *v = conn_option(d, o, n, key);
    if (!v) return 0;
    sl_buf_t list = SL_BUF_INIT;
    for (int i = 0; choices[i]; i++) {
        if (!strcasecmp(v, choices[i])) {
            sl_buf_free(&list);
            *out = i;
            return 0;
        }
        sl_buf_printf(&list, "%s%s", i ? ", " : "", choices[i]);
    }
    conn_bad_option(err, key, v, "Accepted values: %s.", list.data);
    sl_buf_free(&list);
    return -1;
}

/* ---- offsets --------------------------------------------------------------- */

int conn_offset_parse_long(const char *text, int64_t *out, sl_error_t *err)
{
    if (!text || !parse_int64(text, out))
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "invalid offset \"%s\"",
                            text ? text : "(null)");
    return 0;
}

const char *conn_offset_long(sl_arena_t *a, int64_t v)
{
    return sl_printf(a, "%lld", (long long)v);
}

int conn_start_time(const char *dir, int64_t now_ms, int64_t *out, sl_error_t *err)
{
    *out = now_ms;
    if (!dir) return 0;
    sl_buf_t b = SL_BUF_INIT;
    char *path = sl_xmalloc(strlen(dir) + 3);
    sprintf(path, "%s/0", dir);
    int rc = sl_fs_read_file(path, &b, err);
    if (rc > 0) {
        int64_t v;
        if (strncmp(b.data, "v1\n", 3) || !parse_int64(b.data + 3, &v)) {
            sl_error_set(err, SL_ERR_IO_ERROR, "malformed start time file \"%s\"", path);
            rc = -1;
        } else {
            *out = v;
            rc = 0;
        }
    } else if (rc == 0) {
        sl_buf_printf(&b, "v1\n%lld", (long long)now_ms);
        rc = sl_fs_mkdirs(dir, 0755, err) < 0
                 ? -1
                 : sl_fs_write_file(dir, "0", b.data, b.len, 0, NULL, NULL, err);
    }
    free(path);
    sl_buf_free(&b);
    return rc;
}

int64_t conn_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

exec_type_t conn_type_copy(sl_arena_t *a, exec_type_t t)
{
    if (t.id != EXEC_TYPE_STRUCT) return t;
    exec_field_t *f = SL_NEW_ARRAY(a, exec_field_t, t.nfields ? t.nfields : 1);
    for (int i = 0; i < t.nfields; i++) {
        f[i].name = sl_strdup(a, t.fields[i].name);
        f[i].type = conn_type_copy(a, t.fields[i].type);
    }
    t.fields = f;
    return t;
}

/* ---- columns ---------------------------------------------------------------- */

int conn_stream_column(const conn_stream_t *rel, const char *name, exec_type_id_t type, int *index,
                       sl_error_t *err)
{
    *index = -1;
    for (int i = 0; i < rel->ncols; i++) {
        if (strcasecmp(rel->col_names[i], name)) continue;
        if (rel->col_types[i].id != type) {
            sl_error_set(err, SL_ERR_DATATYPE_MISMATCH, "column \"%s\" of stream \"%s\" must be %s",
                         name, rel->name ? rel->name : "?", exec_type_pg_name(exec_type_of(type)));
            return -1;
        }
        *index = i;
    }
    return 0;
}

/* ---- hash map --------------------------------------------------------------- */

static const char conn_map_tomb_[1];
#define CONN_MAP_TOMB conn_map_tomb_

void conn_map_init(conn_map_t *m)
{
    memset(m, 0, sizeof *m);
}

void conn_map_free(conn_map_t *m)
{
    free(m->slots);
    sl_arena_free(m->keys);
    memset(m, 0, sizeof *m);
}

void conn_map_clear(conn_map_t *m)
{
    if (m->slots) memset(m->slots, 0, m->cap * sizeof *m->slots);
    if (m->keys) sl_arena_reset(m->keys);
    m->n = m->used = 0;
}

/* The slot holding the key, or the first free slot of its probe sequence
 * (a tombstone when there is one before the empty slot). */
static conn_map_slot_t *map_find(const conn_map_t *m, const void *key, size_t len, uint64_t h)
{
    size_t mask = m->cap - 1;
    conn_map_slot_t *tomb = NULL;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        conn_map_slot_t *s = &m->slots[i];
        if (!s->key) return tomb ? tomb : s;
        if (s->key == CONN_MAP_TOMB) {
            if (!tomb) tomb = s;
        } else if (s->hash == h && s->len == len && !memcmp(s->key, key, len)) {
            return s;
        }
    }
}

static void map_grow(conn_map_t *m)
{
    conn_map_slot_t *old = m->slots;
    size_t ocap = m->cap;
    size_t ncap = ocap ? ocap : 16;
    while (m->n * 2 + 2 > ncap) ncap *= 2;
    m->slots = sl_xcalloc(ncap, sizeof *m->slots);
    m->cap = ncap;
    m->used = m->n;
    for (size_t i = 0; i < ocap; i++) {
        if (!old[i].key || old[i].key == CONN_MAP_TOMB) continue;
        *map_find(m, old[i].key, old[i].len, old[i].hash) = old[i];
    }
    free(old);
}

uint64_t *conn_map_get(const conn_map_t *m, const void *key, size_t len)
{
    if (!m->n) return NULL;
    conn_map_slot_t *s = map_find(m, key, len, sl_hash_bytes(key, len, SL_HASH_SEED));
    return s->key && s->key != CONN_MAP_TOMB ? &s->val : NULL;
}

int conn_map_put(conn_map_t *m, const void *key, size_t len, uint64_t val)
{
    if ((m->used + 1) * 4 > m->cap * 3) map_grow(m);
    uint64_t h = sl_hash_bytes(key, len, SL_HASH_SEED);
    conn_map_slot_t *s = map_find(m, key, len, h);
    if (s->key && s->key != CONN_MAP_TOMB) {
        s->val = val;
        return 0;
    }
    if (!m->keys) m->keys = sl_arena_new("conn map keys");
    if (!s->key) m->used++;
    char *k = sl_alloc(m->keys, len ? len : 1);
    memcpy(k, key, len);
    *s = (conn_map_slot_t){k, (uint32_t)len, h, val};
    m->n++;
    return 1;
}

int conn_map_del(conn_map_t *m, const void *key, size_t len)
{
    if (!m->n) return 0;
    conn_map_slot_t *s = map_find(m, key, len, sl_hash_bytes(key, len, SL_HASH_SEED));
    if (!s->key || s->key == CONN_MAP_TOMB) return 0;
    s->key = CONN_MAP_TOMB;
    m->n--;
    return 1;
}

/* ---- numbered logs ------------------------------------------------------------ */

static int log_file_cmp(const void *a, const void *b)
{
    const conn_log_file_t *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id ? 1 : x->compact - y->compact;
}

int conn_log_list(const char *dir, conn_log_file_t **out, sl_error_t *err)
{
    *out = NULL;
    DIR *d = opendir(dir);
    if (!d) return errno == ENOENT ? 0 : conn_io_error(err, "open directory", dir);
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        bool compact = len > 8 && !strcmp(e->d_name + len - 8, ".compact");
        int64_t id = sl_fs_parse_id(e->d_name, compact ? len - 8 : len);
        if (id < 0) continue;
        if (n == cap) *out = sl_xrealloc(*out, (cap = cap ? cap * 2 : 16) * sizeof **out);
        (*out)[n++] = (conn_log_file_t){id, compact};
    }
    closedir(d);
    if (n) qsort(*out, n, sizeof **out, log_file_cmp);
    return (int)n;
}

const conn_map_slot_t *conn_map_next(const conn_map_t *m, size_t *i)
{
    for (; *i < m->cap; (*i)++) {
        const conn_map_slot_t *s = &m->slots[*i];
        if (s->key && s->key != CONN_MAP_TOMB) {
            (*i)++;
            return s;
        }
    }
    return NULL;
}
