/* clients/cli_vars.c — \set variables: a sorted list of name/value pairs,
 * with psql's checks on the special variables that steer the CLI
 * (ON_ERROR_STOP, ECHO, VERBOSITY, ...). */
#include "clients/cli.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct cli_var {
    char *name;      /* variable name (letters, digits, underscores) */
    char *value;     /* its value, never NULL */
    cli_var_t *next; /* next by name */
};

typedef enum { VAR_BOOL, VAR_ENUM, VAR_INT } var_kind_t;

/* A special variable: the values it accepts. */
typedef struct {
    const char *name;          /* variable name */
    var_kind_t kind;           /* boolean, enumeration or integer */
    const char *const *values; /* VAR_ENUM: accepted values, NULL-terminated */
} special_t;

static const char *const echo_values[] = {"none", "errors", "queries", "all", NULL};
static const char *const verbosity_values[] = {"default", "verbose", "terse", "sqlstate", NULL};
static const char *const context_values[] = {"never", "errors", "always", NULL};
static const char *const histcontrol_values[] = {"none", "ignorespace", "ignoredups", "ignoreboth",
                                                 NULL};

static const special_t specials[] = {
    {"AUTOCOMMIT", VAR_BOOL, NULL},
    {"ON_ERROR_STOP", VAR_BOOL, NULL},
    {"QUIET", VAR_BOOL, NULL},
    {"SINGLELINE", VAR_BOOL, NULL},
    {"SINGLESTEP", VAR_BOOL, NULL},
    {"SHOW_ALL_RESULTS", VAR_BOOL, NULL},
    {"ECHO", VAR_ENUM, echo_values},
    {"VERBOSITY", VAR_ENUM, verbosity_values},
    {"SHOW_CONTEXT", VAR_ENUM, context_values},
    {"HISTCONTROL", VAR_ENUM, histcontrol_values},
    {"HISTSIZE", VAR_INT, NULL},
    {"IGNOREEOF", VAR_INT, NULL},
};

int cli_parse_bool(const char *value, bool *out)
{
    size_t n = strlen(value);
    if (n == 0) return -1;
    if (!strncasecmp(value, "true", n)) *out = true;
    else if (!strncasecmp(value, "false", n)) *out = false;
    else if (!strncasecmp(value, "yes", n)) *out = true;
    else if (!strncasecmp(value, "no", n)) *out = false;
    else if (n >= 2 && !strncasecmp(value, "on", n)) *out = true;
    else if (n >= 2 && !strncasecmp(value, "off", n)) *out = false;
    else if (!strcmp(value, "1")) *out = true;
    else if (!strcmp(value, "0")) *out = false;
    else return -1;
    return 0;
}

static bool valid_name(const char *name)
{
    if (!*name) return false;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        if (!(isalnum(*p) || *p == '_' || *p >= 0x80)) return false;
    return true;
}

static void list_values(const char *const *values, sl_buf_t *b)
{
    for (int i = 0; values[i]; i++) sl_buf_printf(b, "%s%s", i ? ", " : "", values[i]);
}

/* Logs psql's complaint and returns -1 when value does not suit the special. */
static int check_special(const special_t *s, const char *value)
{
    bool b;
    if (s->kind == VAR_BOOL && cli_parse_bool(value, &b) < 0) {
        cli_log(CLI_LOG_ERROR, "unrecognized value \"%s\" for \"%s\": Boolean expected", value,
                s->name);
        return -1;
    }
    if (s->kind == VAR_INT) {
        char *end;
        strtol(value, &end, 10);
        if (!*value || *end) {
            cli_log(CLI_LOG_ERROR, "invalid value \"%s\" for \"%s\": integer expected", value,
                    s->name);
            return -1;
        }
    }
    if (s->kind == VAR_ENUM) {
        for (int i = 0; s->values[i]; i++)
            if (!strcasecmp(value, s->values[i])) return 0;
        sl_buf_t avail = {0};
        list_values(s->values, &avail);
        cli_log(CLI_LOG_ERROR, "unrecognized value \"%s\" for \"%s\"\nAvailable values are: %s.",
                value, s->name, sl_buf_str(&avail));
        sl_buf_free(&avail);
        return -1;
    }
    return 0;
}

static const special_t *find_special(const char *name)
{
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
        if (!strcmp(specials[i].name, name)) return &specials[i];
    return NULL;
}

const char *cli_vars_get(const cli_vars_t *v, const char *name)
{
    for (const cli_var_t *p = v->head; p; p = p->next)
        if (!strcmp(p->name, name)) return p->value;
    return NULL;
}

static void remove_var(cli_vars_t *v, const char *name)
{
    for (cli_var_t **pp = &v->head; *pp; pp = &(*pp)->next)
        if (!strcmp((*pp)->name, name)) {
            cli_var_t *dead = *pp;
            *pp = dead->next;
            free(dead->name);
            free(dead->value);
            free(dead);
            return;
        }
}

int cli_vars_set(cli_vars_t *v, const char *name, const char *value)
{
    if (!valid_name(name)) {
        cli_log(CLI_LOG_ERROR, "invalid variable name: \"%s\"", name);
        return -1;
    }
    const special_t *s = find_special(name);
    if (s && value && check_special(s, value) < 0) return -1;
    if (!value) {
        remove_var(v, name);
        return 0;
    }
    cli_var_t **pp = &v->head;
    while (*pp && strcmp((*pp)->name, name) < 0) pp = &(*pp)->next;
    if (*pp && !strcmp((*pp)->name, name)) {
        char *copy = sl_xstrdup(value);
        free((*pp)->value);
        (*pp)->value = copy;
        return 0;
    }
    cli_var_t *n = sl_xmalloc(sizeof *n);
    n->name = sl_xstrdup(name);
    n->value = sl_xstrdup(value);
    n->next = *pp;
    *pp = n;
    return 0;
}

bool cli_vars_bool(const cli_vars_t *v, const char *name, bool dflt)
{
    const char *value = cli_vars_get(v, name);
    bool b;
    if (!value || cli_parse_bool(value, &b) < 0) return dflt;
    return b;
}

void cli_vars_list(const cli_vars_t *v, FILE *out)
{
    for (const cli_var_t *p = v->head; p; p = p->next)
        fprintf(out, "%s = '%s'\n", p->name, p->value);
}

void cli_vars_free(cli_vars_t *v)
{
    while (v->head) remove_var(v, v->head->name);
}
