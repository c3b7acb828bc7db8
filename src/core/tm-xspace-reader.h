/* tm-xspace-reader.h — XSpace → memory stores and HLO modules
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads only what the memory profile needs (docs/formats.md, section 1): the memory
 * events of the plane named "/host:CPU" and the "XLA Modules" lines of TPU
 * planes, and where the "/host:metadata" plane keeps each module's HloProto
 * (tm-hlo; not decoded here). Every other plane, line and event is skipped by its length
 * without being decoded; the file is never decoded whole. Uses tm-source,
 * tm-wire, tm-host-event and tm-memory-store.
 */
#pragma once

#include <gio/gio.h>

#include "tm-hlo.h"
#include "tm-memory-store.h"
#include "tm-source.h"
#include "tm-types.h"

G_BEGIN_DECLS

typedef struct
{
  GPtrArray *stores;         /* TmMemoryStore, in order of first appearance */
  GArray    *hlo_modules;    /* TmHloModule */
  GArray    *hlo_entries;    /* TmHloEntry: the HloProtos of "/host:metadata" (tm-hlo) */
  gboolean   has_host_plane;
  guint      n_planes;
  guint64    n_host_events;  /* every event of the host plane */
  /* Time 0 of the stores: the smallest timestamp_ns of the host plane's
   * lines (docs/formats.md, section 1.6), when it has lines. */
  gboolean   has_clock_origin;
  gint64     clock_origin_ns;
} TmXSpaceResult;

void     tm_xspace_result_clear (TmXSpaceResult *result);

/* Fills result; its stores are built but not finished (see
 * tm_memory_store_finish()). progress gets bytes of the file done. */
gboolean tm_xspace_read         (TmSource        *source,
                                 TmXSpaceResult  *result,
                                 TmProgressFunc   progress,
                                 gpointer         progress_data,
                                 GCancellable    *cancellable,
                                 GError         **error);

G_END_DECLS
