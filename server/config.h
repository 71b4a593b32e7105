/* Configuration of sluiced: a postgresql.conf-style `key = value` file plus
 * `-c key=value` overrides, validated against the key table in
 * server/config_keys.def. */
#ifndef SL_CONFIG_H
#define SL_CONFIG_H

#include "common/buf.h"
#include "common/sl_error.h"

typedef struct conf {
#define CONF_STR(name, def, doc) char *name;
#define CONF_INT(name, def, lo, hi, doc) long name;
#define CONF_ENUM(name, def, values, doc) char *name;
#include "server/config_keys.def"
#undef CONF_STR
#undef CONF_INT
#undef CONF_ENUM
} conf_t;

/* A configuration holding every default. Free with conf_free(). */
conf_t *conf_new(void);
void conf_free(conf_t *c);
/* Sets one key from text; err names the key and the accepted values. */
int conf_set(conf_t *c, const char *key, const char *value, sl_error_t *err);
/* Reads a file of `key = value` lines (# comments, values optionally in
 * single quotes); err names file and line. */
int conf_load_file(conf_t *c, const char *path, sl_error_t *err);
/* Parses "key=value" (a -c argument). */
int conf_set_arg(conf_t *c, const char *arg, sl_error_t *err);
/* Writes the documented configuration file that lists every key with its default. */
void conf_describe(sl_buf_t *out);
/* Value of a key as text, for SHOW and logs; NULL for an unknown key. */
const char *conf_get_text(const conf_t *c, const char *key, char *tmp, size_t tmpsize);

#endif
