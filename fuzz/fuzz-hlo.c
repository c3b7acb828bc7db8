/* fuzz-hlo.c — HloProtos and XProf's Memory Viewer of them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Seeds: the modules of XProf's own tests as sidecar files (make-seeds.c).
 * The input is decoded as one HloProto, straight from the fuzzer's buffer,
 * and viewed in every memory space it uses (tm_fuzz_hlo()).
 */
#include "config.h"

#include "tm-fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  tm_fuzz_hlo (data, size);
  return 0;
}
