/* The failure path of SL_ASSERT (common/sl_assert.h). */
#include "common/sl_assert.h"

#include <stdlib.h>

#include "common/log.h"

_Noreturn void sl_assert_fail(const char *cond, const char *file, int line, const char *func)
{
    sl_log(SL_LOG_FATAL, "assert", "assertion failed: %s (%s:%d %s)", cond, file, line, func);
    abort();
}
