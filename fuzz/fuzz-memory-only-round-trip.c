/* fuzz-memory-only-round-trip.c — read, write the memory-only profile,
 * read again: the memory profiles are equal
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Seeds: the XSpace corpus (make-seeds.c). An input that does not load as
 * an XSpace still goes through the writer, which must cope with it; one
 * that loads must give a memory-only profile whose XProf JSON and summary
 * JSON are those of the original, byte for byte (docs/formats.md, section 4).
 */
#include "config.h"

#include "tm-fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  tm_fuzz_memory_only_round_trip (data, size);
  return 0;
}
