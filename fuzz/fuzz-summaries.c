/* fuzz-summaries.c — the summaries (JSON Lines) reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Seeds: `--summary --json` lines of the fixtures, one host per file and
 * all of them in one (make-seeds.c). The reader gets the fuzzer's buffer
 * as it is, without a terminating NUL, so a read past its end is caught.
 */
#include "config.h"

#include "tm-fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  tm_fuzz_summaries (data, size);
  return 0;
}
