/* Random (version 4) UUIDs: query ids and run ids. */
#ifndef SL_UUID_H
#define SL_UUID_H

#include "common/sl_error.h"

/* Formats a random version-4 UUID (36 characters + NUL) into out. */
int sl_uuid_v4(char out[37], sl_error_t *err);

#endif
