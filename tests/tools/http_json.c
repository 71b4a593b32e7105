/* http_json: a small JSON probe for the HTTP tests (jansson; no jq needed).
 *
 *   http_json valid FILE        exit 0 when FILE holds one valid JSON document
 *   http_json keys FILE [PATH]  the member names of the object (at PATH), in
 *                               document order, one line, space-separated
 *   http_json get FILE PATH     the value at PATH: strings raw, anything else
 *                               as compact JSON; exit 1 when absent
 *   http_json len FILE [PATH]   the number of elements of the array (at PATH)
 *   http_json rows FILE P1 P2.. one line per element of the top-level array:
 *                               the values at P1, P2, ... separated by spaces
 *
 * FILE "-" reads standard input. PATH is dot-separated: object member names
 * and array indexes, e.g. `status.state`, `0.name`, `stateOperators.0.numRowsTotal`. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *load(const char *file)
{
    json_error_t e;
    json_t *v = !strcmp(file, "-") ? json_loadf(stdin, JSON_DECODE_ANY, &e)
                                   : json_load_file(file, JSON_DECODE_ANY, &e);
    if (!v) fprintf(stderr, "http_json: %s: line %d: %s\n", file, e.line, e.text);
    return v;
}

/* The value at a dot-separated path, or NULL. */
static json_t *walk(json_t *v, const char *path)
{
    if (!path || !*path) return v;
    char *copy = strdup(path), *save = NULL;
    for (char *part = strtok_r(copy, ".", &save); v && part; part = strtok_r(NULL, ".", &save)) {
        char *end;
        long i = strtol(part, &end, 10);
        v = json_is_array(v) && !*end ? json_array_get(v, (size_t)i) : json_object_get(v, part);
    }
    free(copy);
    return v;
}

static int cmd_keys(json_t *v)
{
    if (!json_is_object(v)) return 1;
    const char *k;
    json_t *x;
    int first = 1;
    json_object_foreach(v, k, x)
    {
        printf("%s%s", first ? "" : " ", k);
        first = 0;
    }
    printf("\n");
    return 0;
}

/* Prints a value: strings raw, anything else as compact JSON; "-" when absent. */
static void put(json_t *v, const char *end)
{
    if (!v) {
        printf("-%s", end);
    } else if (json_is_string(v)) {
        printf("%s%s", json_string_value(v), end);
    } else {
        char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_PRESERVE_ORDER);
        printf("%s%s", s, end);
        free(s);
    }
}

static int cmd_get(json_t *v)
{
    if (!v) return 1;
    put(v, "\n");
    return 0;
}

static int cmd_rows(json_t *v, int npaths, char **paths)
{
    if (!json_is_array(v)) return 1;
    size_t i;
    json_t *el;
    json_array_foreach(v, i, el)
    {
        for (int k = 0; k < npaths; k++) put(walk(el, paths[k]), k + 1 < npaths ? " " : "\n");
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: http_json valid|keys|get|len|rows FILE [PATH...]\n");
        return 2;
    }
    json_t *doc = load(argv[2]);
    if (!doc) return 1;
    int rows = !strcmp(argv[1], "rows");
    json_t *v = walk(doc, argc > 3 && !rows ? argv[3] : NULL);
    int rc = 2;
    if (!strcmp(argv[1], "valid")) rc = 0;
    else if (!strcmp(argv[1], "keys")) rc = cmd_keys(v);
    else if (!strcmp(argv[1], "get")) rc = cmd_get(v);
    else if (rows) rc = cmd_rows(v, argc - 3, argv + 3);
    else if (!strcmp(argv[1], "len"))
        rc = json_is_array(v) ? (printf("%zu\n", json_array_size(v)), 0) : 1;
    else fprintf(stderr, "http_json: unknown command %s\n", argv[1]);
    json_decref(doc);
    return rc;
}
