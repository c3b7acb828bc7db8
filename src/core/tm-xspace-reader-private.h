/* tm-xspace-reader-private.h — the XSpace reader with explicit options
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For tests and fuzz targets only: they force the two-thread read on small
 * inputs, and the cut inside a line, to check that every way of reading
 * gives the same stores. Product code reads with the defaults
 * (tm_xspace_read()).
 */
#pragma once

#include "tm-xspace-reader.h"

G_BEGIN_DECLS

typedef struct
{
  /* Host planes of at least this many bytes are read by two threads
   * (when the machine has two cores). */
  gsize    parallel_min_bytes;
  /* When two threads read, always cut the line that holds the middle
   * byte, however close to the middle a cut between lines would be. */
  gboolean cut_lines;
} TmXSpaceReadOptions;

/* What tm_xspace_read() uses. */
#define TM_XSPACE_READ_PARALLEL_MIN_BYTES ((gsize) 16 << 20)

gboolean tm_xspace_read_with_options (TmSource                  *source,
                                      const TmXSpaceReadOptions *options,
                                      TmXSpaceResult            *result,
                                      TmProgressFunc             progress,
                                      gpointer                   progress_data,
                                      GCancellable              *cancellable,
                                      GError                   **error);

G_END_DECLS
