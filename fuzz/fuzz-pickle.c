/* fuzz-pickle.c — the pickle reader and PyTorch snapshots
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An input is read as it is (a pickle, or a gzip file), except that one
 * starting with 'Z' has the rest gzip-compressed first, so the mutations
 * of a pickle also reach the snapshot reader through its gzip path.
 */
#include "config.h"

#include <zlib.h>

#include "tm-fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree guint8 *gz = NULL;

  if (size >= 1 && data[0] == 'Z')
    {
      z_stream zs = { 0 };
      gsize cap = compressBound (size) + 64;

      gz = g_malloc (cap);
      tm_fuzz_check (deflateInit2 (&zs, 1, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
      zs.next_in = (Bytef *) data + 1;
      zs.avail_in = (uInt) (size - 1);
      zs.next_out = gz;
      zs.avail_out = (uInt) cap;
      tm_fuzz_check (deflate (&zs, Z_FINISH) == Z_STREAM_END);
      size = zs.total_out;
      deflateEnd (&zs);
      data = gz;
    }

  tm_fuzz_pickle (data, size);
  return 0;
}
