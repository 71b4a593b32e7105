/* The entry point every fuzz target defines (libFuzzer's), declared once for
 * the targets and for replay.c, the corpus replayer of normal builds. */
#ifndef SL_FUZZ_H
#define SL_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
