/* tm-host-event.h — one memory event of the host plane, decoded from its bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The host plane's stat names (which stat is "bytes_allocated", which is
 * "tf_op" ...) and the decoder of one XEvent into a TmMemEvent, with strings
 * left in the mapped file (docs/formats.md, section 1). Uses tm-source (the mapped
 * file and its SIGBUS guard), tm-wire and tm-xplane (field numbers,
 * strings); knows nothing of stores.
 */
#pragma once

#include "tm-source.h"
#include "tm-types.h"
#include "tm-wire.h"
#include "tm-xplane.h"

G_BEGIN_DECLS

/* What decoding an event needs: the source, and the host plane's stat names
 * (for ref_value strings and stat kinds). Immutable once made; shared by
 * every store of the host plane. */
typedef struct _TmHostContext TmHostContext;

/* stats: the host plane's stat metadata (names point into source). */
TmHostContext *tm_host_context_new        (TmSource             *source,
                                           const TmMetadataName *stats,
                                           guint                 n_stats);
TmHostContext *tm_host_context_ref        (TmHostContext        *ctx);
void           tm_host_context_unref      (TmHostContext        *ctx);
TmSource      *tm_host_context_get_source (TmHostContext        *ctx);

/* Whether a stat metadata name is one the memory profile reads
 * (docs/formats.md, section 1: allocator_name, bytes_reserved, ... shape). */
gboolean       tm_host_event_is_memory_stat_name (TmStr             name);

/* One memory event, as the host plane stores it (docs/formats.md, section 1).
 * Strings point into the mapped file. */
typedef struct
{
  TmActivityKind kind;
  guint64        metadata_id;     /* the event metadata it names */
  gint64         offset_ps;       /* as stored (no line adjustment) */
  TmStr          memory_id;       /* for allocator_name */
  gint64         memory_id_int;   /* for index_on_host / device_ordinal */
  gboolean       memory_id_is_int;
  gint64         stack;
  gint64         heap;
  gint64         free_bytes;
  double         fragmentation;
  gint64         peak_bytes_in_use;
  gint64         requested_bytes;
  gint64         allocation_bytes;
  guint64        address;
  gint64         group_id;        /* -1 when absent */
  TmStr          op;
  TmStr          region;
  gint64         data_type;       /* G_MININT64 when absent */
  TmStr          shape;
} TmMemEvent;

/* Decodes a whole event (header and stats) from its bytes; the caller runs
 * it under the source's SIGBUS guard. event->kind is left as it was. This is
 * the loader's per-event decoder: the usual shape of a stat is read in a
 * tight loop, anything else is checked field by field. */
gboolean tm_host_event_decode   (TmHostContext  *ctx,
                                 TmWire          ev_wire,
                                 TmMemEvent     *event,
                                 GError        **error);

/* The loader's scan: the same, but stats the loader does not keep
 * (requested_bytes, allocation_bytes, tf_op, region_type, data_type, shape)
 * are skipped by their length when they have the usual shape, so they may
 * be left at their defaults. Everything the store keeps is decoded exactly
 * as tm_host_event_decode() does. */
gboolean tm_host_event_scan     (TmHostContext  *ctx,
                                 TmWire          ev_wire,
                                 TmMemEvent     *event,
                                 GError        **error);

/* Decodes the event whose length prefix is at file offset ref_offset, under
 * the source's SIGBUS guard. Set event->kind before: it is kept. */
gboolean tm_host_context_decode (TmHostContext  *ctx,
                                 guint64         ref_offset,
                                 TmMemEvent     *event,
                                 GError        **error);

G_END_DECLS
