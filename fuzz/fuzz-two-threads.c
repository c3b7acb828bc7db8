/* fuzz-two-threads.c — the XSpace reader's two-thread path against its one-thread path
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Seeds: the XSpace seeds (make-seeds.c). Fuzz inputs are far below the
 * size at which the reader splits a host plane between two threads, so
 * the split, and the cut inside a line, are forced for every input and the
 * result compared with one thread's (tm_fuzz_two_threads()).
 */
#include "config.h"

#include "tm-fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  tm_fuzz_two_threads (data, size);
  return 0;
}
