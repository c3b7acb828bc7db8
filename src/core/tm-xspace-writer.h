/* tm-xspace-writer.h — memory-only profiles: an XSpace cut down to what the
 * memory profile reads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writes a valid *.xplane.pb that holds only the memory events of the host
 * plane (with the stats and metadata they use) and the "XLA Modules" lines
 * of TPU planes, in bounded chunks: what it holds and how it is written is
 * docs/formats.md, section 4. Reading it gives the same memory profile as reading
 * the original. Uses tm-source, tm-wire, tm-xplane, tm-host-event and the
 * protobuf-c code generated from proto/xplane.proto; the round-trip check
 * uses tm-profile and tm-export.
 */
#pragma once

#include <gio/gio.h>

#include "tm-source.h"
#include "tm-types.h"

G_BEGIN_DECLS

/* Writes the memory-only profile of source (an XSpace) to out, which it does
 * not close. Memory stays bounded whatever the size of the file; progress
 * gets a fraction of the work as done / total. An XProf memory-profile JSON
 * is refused (TM_ERROR_INVALID). */
gboolean tm_xspace_write_memory_only (TmSource        *source,
                                      GOutputStream   *out,
                                      TmProgressFunc   progress,
                                      gpointer         progress_data,
                                      GCancellable    *cancellable,
                                      GError         **error);

/* Opens input and writes its memory-only profile to dest, replacing it only
 * when everything was written: after an error or a cancel, dest is as it
 * was (or absent, if it was). */
gboolean tm_xspace_save_memory_only  (GFile           *input,
                                      GFile           *dest,
                                      TmProgressFunc   progress,
                                      gpointer         progress_data,
                                      GCancellable    *cancellable,
                                      GError         **error);

/* The round trip (for tests and fuzz targets): loads the profile at path,
 * writes its memory-only profile to a temporary file of the same base name,
 * loads that, and compares the two profiles' XProf memory-profile JSON and
 * summary JSON byte for byte. TRUE when they are equal, or when path does
 * not load as an XSpace at all (nothing to compare; the writer still runs
 * on it). FALSE with an error saying what differs, or why the memory-only
 * profile could not be written or read. */
gboolean tm_xspace_writer_round_trip (const char      *path,
                                      GError         **error);

G_END_DECLS
