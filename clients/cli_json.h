/* clients/cli_json.h — a small JSON reader for \progress: parses a document
 * into a read-only tree in an arena. Each node keeps its source span, so a
 * value (a Kafka offset object, say) can be shown back compactly as sent. */
#ifndef SLUICE_CLI_JSON_H
#define SLUICE_CLI_JSON_H

#include "clients/cli.h"

typedef enum {
    CLI_JSON_NULL,
    CLI_JSON_BOOL,
    CLI_JSON_NUMBER,
    CLI_JSON_STRING,
    CLI_JSON_ARRAY,
    CLI_JSON_OBJECT,
} cli_json_type_t;

typedef struct cli_json cli_json_t;
struct cli_json {
    cli_json_type_t type;
    const char *raw;   /* the value's text in the parsed document */
    size_t raw_len;    /* its length */
    const char *key;   /* member name (decoded) inside an object, else NULL */
    const char *str;   /* CLI_JSON_STRING: decoded UTF-8 text */
    double num;        /* CLI_JSON_NUMBER: value; CLI_JSON_BOOL: 0 or 1 */
    cli_json_t *child; /* ARRAY/OBJECT: first element or member */
    cli_json_t *next;  /* next sibling */
    size_t count;      /* ARRAY/OBJECT: number of children */
};

/* Parses text (NUL-terminated) into nodes allocated from a. Returns the root,
 * or NULL with a message in err (errlen bytes) naming the offset. */
cli_json_t *cli_json_parse(const char *text, sl_arena_t *a, char *err, size_t errlen);

/* The member called key of an object, or NULL (also when obj is not one). */
const cli_json_t *cli_json_get(const cli_json_t *obj, const char *key);
/* A member's number, or dflt when missing or not a number. */
double cli_json_num(const cli_json_t *obj, const char *key, double dflt);
/* A member's string, or NULL when missing or not a string. */
const char *cli_json_str(const cli_json_t *obj, const char *key);

#endif
