/* The list of a session's prepared statements (server/prepared.h). */
#include "server/prepared.h"

#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/clock.h"

prep_stmt_t *prep_find(prep_list_t *l, const char *name)
{
    for (prep_stmt_t *s = l->first; s; s = s->next)
        if (!strcmp(s->name, name)) return s;
    return NULL;
}

prep_stmt_t *prep_new(const char *name, const char *sql, size_t len, int ntypes)
{
    prep_stmt_t *s = sl_xcalloc(1, sizeof *s);
    s->name = sl_xstrdup(name);
    s->sql = sl_xstrndup(sql, len);
    s->len = len;
    s->statement = sl_xstrndup(sql, len);
    s->ntypes = ntypes;
    s->types = sl_xcalloc((size_t)ntypes + 1, sizeof *s->types);
    s->prepare_time = sl_now_us();
    return s;
}

void prep_add(prep_list_t *l, prep_stmt_t *s)
{
    s->next = l->first;
    l->first = s;
}

void prep_free(prep_stmt_t *s)
{
    free(s->name);
    free(s->sql);
    free(s->statement);
    free(s->types);
    free(s->inferred);
    free(s->cols);
    free(s);
}

int prep_drop(prep_list_t *l, const char *name)
{
    for (prep_stmt_t **pp = &l->first; *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->name, name)) continue;
        prep_stmt_t *s = *pp;
        *pp = s->next;
        prep_free(s);
        return 0;
    }
    return -1;
}

void prep_drop_named(prep_list_t *l)
{
    prep_stmt_t **pp = &l->first;
    while (*pp) {
        prep_stmt_t *s = *pp;
        if (!s->name[0]) {
            pp = &s->next;
            continue;
        }
        *pp = s->next;
        prep_free(s);
    }
}

void prep_clear(prep_list_t *l)
{
    while (l->first) {
        prep_stmt_t *s = l->first;
        l->first = s->next;
        prep_free(s);
    }
}

void prep_keep_columns(prep_stmt_t *s, int ncols, const sess_col_t *cols)
{
    size_t names = 0;
    for (int i = 0; i < ncols; i++) names += strlen(cols[i].name ? cols[i].name : "") + 1;
    s->ncols = ncols;
    s->cols = sl_xmalloc(sizeof *s->cols * (size_t)ncols + names);
    char *p = (char *)(s->cols + ncols);
    for (int i = 0; i < ncols; i++) {
        s->cols[i] = cols[i];
        size_t n = strlen(cols[i].name ? cols[i].name : "") + 1;
        memcpy(p, cols[i].name ? cols[i].name : "", n);
        s->cols[i].name = p;
        p += n;
    }
}
