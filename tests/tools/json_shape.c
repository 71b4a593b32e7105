/* json_shape: prints the shape of a JSON document read from stdin, one
 * "path type" line per value in document order (objects' keys in the order
 * they appear; arrays show their first element as [0]). Tests compare it
 * with the shape Spark's StreamingQueryProgress has. Exit 1 on bad JSON. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "object";
    case JSON_ARRAY: return "array";
    case JSON_STRING: return "string";
    case JSON_INTEGER: return "integer";
    case JSON_REAL: return "double";
    case JSON_TRUE:
    case JSON_FALSE: return "boolean";
    default: return "null";
    }
}

static void shape(const char *path, const json_t *v)
{
    if (*path) printf("%s %s\n", path, type_name(v));
    char sub[1024];
    if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x)
        {
            snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", k);
            shape(sub, x);
        }
    } else if (json_is_array(v) && json_array_size(v) > 0) {
        snprintf(sub, sizeof sub, "%s[0]", path);
        shape(sub, json_array_get(v, 0));
    }
}

int main(void)
{
    json_error_t err;
    json_t *root = json_loadf(stdin, JSON_DECODE_ANY, &err);
    if (!root) {
        fprintf(stderr, "json_shape: %s at line %d\n", err.text, err.line);
        return 1;
    }
    shape("", root);
    json_decref(root);
    return 0;
}
