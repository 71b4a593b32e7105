/* Output mode names (output_mode.h). */
#include "model/output_mode.h"

const char *output_mode_name(output_mode_t m)
{
    return m == OUTPUT_UPDATE ? "update" : m == OUTPUT_COMPLETE ? "complete" : "append";
}
