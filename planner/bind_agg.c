/* Result types of aggregate calls, for the binder. */
#include <string.h>

#include "exec/agg.h"
#include "planner/bind_int.h"

int bind_agg_type(const char *func, int distinct, int star, exec_type_t arg, exec_type_t *out,
                  sl_error_t *err)
{
    return exec_agg_result_type(func, distinct, star, arg, out, err);
}
