/* fuzz-json-round-trip.c — what we export as XProf JSON, we read back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Any profile that loads (XSpace or JSON) is exported as XProf's
 * memory-profile JSON and read again: the export must load, and, when no
 * name had to be replaced (docs/formats.md, section 1.10), with the same memory
 * ids, summaries, peak steps and breakdown rows.
 */
#include "config.h"

#include "tm-fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  tm_fuzz_json_round_trip (data, size);
  return 0;
}
