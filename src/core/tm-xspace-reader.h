/* tm-xspace-reader.h — XSpace → memory events and HLO modules
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads only what the memory profile needs: the memory events of the plane
 * named "/host:CPU" and the "XLA Modules" lines of TPU planes. Every other
 * plane, line and event is skipped by its length without being decoded; the
 * file is never decoded whole.
 */
#pragma once

#include <gio/gio.h>

#include "tm-source.h"
#include "tm-types.h"

G_BEGIN_DECLS

typedef struct _TmMemoryStore TmMemoryStore;

/* What a store needs to decode its events again: the source, and the host
 * plane's stat names (for ref_value strings and stat kinds). */
typedef struct _TmHostContext TmHostContext;

TmHostContext *tm_host_context_ref   (TmHostContext *ctx);
void           tm_host_context_unref (TmHostContext *ctx);
TmSource      *tm_host_context_get_source (TmHostContext *ctx);

typedef struct
{
  const guint8 *ptr;
  gsize         len;
} TmStr;

/* One memory event, as the host plane stores it (product.md §2.1). Strings
 * point into the mapped file. */
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
  gint64         data_type;
  TmStr          shape;
} TmMemEvent;

/* Decodes the event whose length prefix is at file offset ref_offset. Runs
 * under the source's SIGBUS guard. */
gboolean tm_host_context_decode (TmHostContext  *ctx,
                                 guint64         ref_offset,
                                 TmMemEvent     *event,
                                 GError        **error);

typedef struct
{
  GPtrArray *stores;         /* TmMemoryStore, in order of first appearance */
  GArray    *hlo_modules;    /* TmHloModule */
  gboolean   has_host_plane;
  guint      n_planes;
  guint64    n_host_events;  /* every event of the host plane */
} TmXSpaceResult;

void     tm_xspace_result_clear (TmXSpaceResult *result);

/* Fills result (stores are loaded but not yet analysed: see tm-analysis.h).
 * progress gets bytes of the file done. */
gboolean tm_xspace_read         (TmSource        *source,
                                 TmXSpaceResult  *result,
                                 TmProgressFunc   progress,
                                 gpointer         progress_data,
                                 GCancellable    *cancellable,
                                 GError         **error);

G_END_DECLS
