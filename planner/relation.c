/* Relation descriptions: column lookup. */
#include "planner/relation.h"

#include <string.h>

int plan_relation_column(const plan_relation_t *r, const char *name)
{
    for (int i = 0; i < r->stream.ncols; i++)
        if (!strcmp(r->stream.col_names[i], name)) return i;
    return -1;
}
