/* fuzz-xspace.c — the XSpace reader, the whole analysis and every export
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Seeds: the fixtures of tests/tm-fixture-writer.c as *.xplane.pb
 * (make-seeds.c). Any input the loader accepts goes through everything a
 * window or the command line does with it.
 */
#include "config.h"

#include "tm-fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(TmProfile) profile = tm_fuzz_load (data, size);

  if (profile != NULL)
    g_free (tm_fuzz_exercise (profile, NULL));
  return 0;
}
