/* Secret options: which option names hold secrets, their redacted display,
 * the redaction of a stored statement's text, and secret references
 * ('env:NAME', 'file:/path') resolved when a stream or query starts. */
#ifndef SL_REDACT_H
#define SL_REDACT_H

#include <stdbool.h>

#include "common/arena.h"
#include "common/sl_error.h"

/* What every surface shows in place of a secret value. */
#define SL_REDACTED "********"

/* True for *password*, *secret*, *token*, sasl.jaas.config and ssl.key.*
 * (case-insensitive, with or without the "kafka." prefix). */
bool sl_secret_key(const char *key);

/* The value to show for key: SL_REDACTED for a secret holding a literal or
 * a URL with a password ("postgresql://u:pw@h/db"),
 * the value itself otherwise (a reference names no secret and is shown). */
const char *sl_redact_value(const char *key, const char *value);

/* The statement text with every string literal that follows a secret
 * option name replaced by '********', and the password of every URL in a
 * literal too; NULL stays NULL. */
const char *sl_redact_sql(sl_arena_t *a, const char *sql);

/* True if value is a secret reference ('env:NAME' or 'file:/path'). */
bool sl_secret_is_ref(const char *value);

/* Resolves a reference into *out (allocated in a; a literal is returned
 * unchanged). Fails with 42704 for an unset variable, 58P01 for a missing
 * or unreadable file, naming the option and the reference. */
int sl_secret_resolve(sl_arena_t *a, const char *key, const char *value, const char **out,
                      sl_error_t *err);

#endif
