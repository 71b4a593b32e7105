/* Configuration: defaults, validation and parsing, all driven by the key
 * table in config_keys.def. */
#include "server/config.h"
#include "common/arena.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { KEY_STR, KEY_INT, KEY_ENUM } key_type_t;

typedef struct conf_key {
    const char *name;
    key_type_t type;
    const char *def;    /* default as text */
    long lo, hi;        /* bounds of KEY_INT */
    const char *values; /* "a|b|c" of KEY_ENUM */
    const char *doc;
    size_t offset; /* of the field in conf_t */
} conf_key_t;

#define STR_(x) #x
#define CONF_STR(name, def, doc) {#name, KEY_STR, def, 0, 0, NULL, doc, offsetof(conf_t, name)},
#define CONF_INT(name, def, lo, hi, doc) \
    {#name, KEY_INT, STR_(def), lo, hi, NULL, doc, offsetof(conf_t, name)},
#define CONF_ENUM(name, def, values, doc) \
    {#name, KEY_ENUM, def, 0, 0, values, doc, offsetof(conf_t, name)},
static const conf_key_t conf_keys[] = {
#include "server/config_keys.def"
};
#undef CONF_STR
#undef CONF_INT
#undef CONF_ENUM
#define NKEYS (sizeof conf_keys / sizeof conf_keys[0])

static const conf_key_t *key_find(const char *name)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (!strcmp(conf_keys[i].name, name)) return &conf_keys[i];
    return NULL;
}

static int enum_has(const char *values, const char *v)
{
    size_t n = strlen(v);
    for (const char *p = values; *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && !strncmp(p, v, n)) return 1;
        p += len + (bar ? 1 : 0);
    }
    return 0;
}

static int key_assign(conf_t *c, const conf_key_t *k, const char *value, sl_error_t *err)
{
    char *field = (char *)c + k->offset;
    switch (k->type) {
    case KEY_INT: {
        char *end;
        errno = 0;
        long v = strtol(value, &end, 10);
        if (errno || end == value || *end) {
            sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                         "invalid value for parameter \"%s\": \"%s\"", k->name, value);
            return sl_error_hint(err, "The value must be an integer.");
        }
        if (v < k->lo || v > k->hi) {
            sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                         "%ld is outside the valid range for parameter \"%s\" (%ld .. %ld)", v,
                         k->name, k->lo, k->hi);
            return -1;
        }
        memcpy(field, &v, sizeof v);
        return 0;
    }
    case KEY_ENUM:
        if (!enum_has(k->values, value)) {
            sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                         "invalid value for parameter \"%s\": \"%s\"", k->name, value);
            return sl_error_hint(err, "Available values: %s.", k->values);
        }
        /* fall through */
    case KEY_STR: {
        char **slot = (char **)(void *)field;
        free(*slot);
        *slot = sl_xstrdup(value);
        return 0;
    }
    }
    return -1;
}

conf_t *conf_new(void)
{
    conf_t *c = sl_xcalloc(1, sizeof *c);
    for (size_t i = 0; i < NKEYS; i++) {
        sl_error_t err;
        if (key_assign(c, &conf_keys[i], conf_keys[i].def, &err) < 0) {
            fprintf(stderr, "invalid default for %s: %s\n", conf_keys[i].name, err.message);
            abort(); /* the key table itself is wrong: a build-time invariant */
        }
    }
    return c;
}

void conf_free(conf_t *c)
{
    if (!c) return;
    for (size_t i = 0; i < NKEYS; i++)
        if (conf_keys[i].type != KEY_INT) free(*(char **)(void *)((char *)c + conf_keys[i].offset));
    free(c);
}

int conf_set(conf_t *c, const char *key, const char *value, sl_error_t *err)
{
    const conf_key_t *k = key_find(key);
    if (!k)
        return sl_error_set(err, SL_ERR_UNDEFINED_OBJECT,
                            "unrecognized configuration parameter \"%s\"", key);
    return key_assign(c, k, value, err);
}

int conf_set_arg(conf_t *c, const char *arg, sl_error_t *err)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return sl_error_set(err, SL_ERR_SYNTAX_ERROR, "expected key=value, got \"%s\"", arg);
    char key[128];
    size_t n = (size_t)(eq - arg);
    if (n >= sizeof key) n = sizeof key - 1;
    memcpy(key, arg, n);
    key[n] = '\0';
    while (n > 0 && isspace((unsigned char)key[n - 1])) key[--n] = '\0';
    const char *v = eq + 1;
    while (isspace((unsigned char)*v)) v++;
    return conf_set(c, key, v, err);
}

/* Parses one line into key and value (both in `line`, modified in place).
 * Returns 1 for a setting, 0 for a blank or comment line, -1 on bad syntax. */
static int parse_line(char *line, char **key, char **value)
{
    char *p = line;
    while (isspace((unsigned char)*p)) p++;
    if (*p == '\0' || *p == '#') return 0;
    *key = p;
    while (isalnum((unsigned char)*p) || *p == '_' || *p == '.') p++;
    char *kend = p;
    while (isspace((unsigned char)*p)) p++;
    if (*p == '=') p++;
    else if (kend == *key) return -1;
    *kend = '\0';
    while (isspace((unsigned char)*p)) p++;
    if (*p == '\'') {
        char *out = ++p;
        *value = out;
        for (;; p++) {
            if (*p == '\0') return -1;
            if (*p == '\'' && p[1] == '\'') {
                *out++ = '\'';
                p++;
                continue;
            }
            if (*p == '\'') break;
            *out++ = *p;
        }
        *out = '\0';
        p++;
        while (isspace((unsigned char)*p)) p++;
        return (*p == '\0' || *p == '#') ? 1 : -1;
    }
    *value = p;
    while (*p && *p != '#') p++;
    while (p > *value && isspace((unsigned char)p[-1])) p--;
    *p = '\0';
    return 1;
}

int conf_load_file(conf_t *c, const char *path, sl_error_t *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR,
                            "could not open configuration file "
                            "\"%s\": %s",
                            path, strerror(errno));
    char line[4096];
    int lineno = 0, rc = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        char *key, *value;
        int r = parse_line(line, &key, &value);
        if (r == 0) continue;
        if (r < 0) {
            rc = sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR, "syntax error in file \"%s\" line %d",
                              path, lineno);
            sl_error_hint(err, "Lines have the form: key = value, or key = 'quoted value'.");
            break;
        }
        if (conf_set(c, key, value, err) < 0) {
            char msg[sizeof err->message];
            snprintf(msg, sizeof msg, "%s (file \"%s\" line %d)", err->message, path, lineno);
            snprintf(err->message, sizeof err->message, "%s", msg);
            rc = -1;
            break;
        }
    }
    fclose(f);
    return rc;
}

/* Wraps a doc string into "# " comment lines of at most 78 columns. */
static void put_comment(sl_buf_t *out, const char *doc)
{
    const char *p = doc;
    while (*p) {
        size_t take = strlen(p);
        if (take > 76) {
            take = 76;
            while (take > 0 && p[take] != ' ') take--;
            if (take == 0) take = 76;
        }
        sl_buf_puts(out, "# ");
        sl_buf_append(out, p, take);
        sl_buf_putc(out, '\n');
        p += take;
        while (*p == ' ') p++;
    }
}

void conf_describe(sl_buf_t *out)
{
    sl_buf_puts(out, "# sluiced configuration. Generated from server/config_keys.def by\n"
                     "# `sluiced --describe-config`; every key is listed with its default.\n"
                     "# Format: key = value, or key = 'quoted value'; # starts a comment.\n"
                     "# `sluiced -c key=value` overrides a line of this file.\n");
    for (size_t i = 0; i < NKEYS; i++) {
        const conf_key_t *k = &conf_keys[i];
        sl_buf_putc(out, '\n');
        put_comment(out, k->doc);
        if (k->type == KEY_INT)
            sl_buf_printf(out, "# (integer, %ld .. %ld)\n%s = %s\n", k->lo, k->hi, k->name, k->def);
        else if (k->type == KEY_ENUM)
            sl_buf_printf(out, "# (one of %s)\n%s = '%s'\n", k->values, k->name, k->def);
        else sl_buf_printf(out, "%s = '%s'\n", k->name, k->def);
    }
}

const char *conf_get_text(const conf_t *c, const char *key, char *tmp, size_t tmpsize)
{
    const conf_key_t *k = key_find(key);
    if (!k) return NULL;
    const char *field = (const char *)c + k->offset;
    if (k->type == KEY_INT) {
        long v;
        memcpy(&v, field, sizeof v);
        snprintf(tmp, tmpsize, "%ld", v);
        return tmp;
    }
    return *(char *const *)(const void *)field;
}
