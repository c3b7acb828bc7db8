/* fuzz-xprof-json.c — the XProf memory-profile JSON and .json.gz reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An input is loaded as it is (JSON, or a gzip file), except that one
 * starting with 'Z' has the rest gzip-compressed first: so the mutations of
 * the JSON text also reach the reader through the gzip path, whose CRC a
 * mutated gzip file rarely passes.
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
  g_autoptr(TmProfile) profile = NULL;
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

  profile = tm_fuzz_load (data, size);
  if (profile != NULL)
    g_free (tm_fuzz_exercise (profile, NULL));
  return 0;
}
