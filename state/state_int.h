/* Internal helpers of state/ (not for other modules): CRC-32C and the json4s
 * compact string quoting the checkpoint formats need. Files are written
 * through common/durable.h. */
#ifndef SL_STATE_INT_H
#define SL_STATE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"
#include "common/durable.h"
#include "common/sl_error.h"

/* CRC-32C (Castagnoli) of `n` bytes, continuing from `crc` (start with 0). */
uint32_t state_crc32c(uint32_t crc, const void *p, size_t n);

/* Appends `s` (UTF-8) as a JSON string the way json4s's compact printer
 * does: \" \\ \b \f \n \r \t, other controls and U+0080..U+009F,
 * U+2000..U+20FF as \uXXXX (lowercase hex); everything else verbatim. */
void state_json_quote(sl_buf_t *b, const char *s);

#endif
