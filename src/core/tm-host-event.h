/* tm-host-event.h — one memory event of the host plane, decoded from its bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The host plane's stat names (which stat is "bytes_allocated", which is
 * "tf_op" ...) and the decoder of one XEvent into a TmMemEvent, with strings
 * left in the mapped file (docs/formats.md §1). Uses tm-source (the mapped
 * file and its SIGBUS guard) and tm-wire; knows nothing of stores.
 */
#pragma once

#include <string.h>

#include "tm-source.h"
#include "tm-types.h"
#include "tm-wire.h"

G_BEGIN_DECLS

/* Field numbers of proto/xplane.proto that an event's decoder reads. */
enum { TM_XEVENT_METADATA_ID = 1, TM_XEVENT_OFFSET_PS = 2, TM_XEVENT_DURATION_PS = 3, TM_XEVENT_STATS = 4,
       TM_XEVENT_NUM_OCCURRENCES = 5 };
enum { TM_XSTAT_METADATA_ID = 1, TM_XSTAT_DOUBLE = 2, TM_XSTAT_UINT64 = 3, TM_XSTAT_INT64 = 4, TM_XSTAT_STR = 5,
       TM_XSTAT_BYTES = 6, TM_XSTAT_REF = 7 };

/* Metadata ids below this are looked up in arrays, others in hash tables. */
#define TM_SMALL_ID_LIMIT (1u << 20)

/* A string in the mapped file. */
typedef struct
{
  const guint8 *ptr;
  gsize         len;
} TmStr;

static inline gboolean
tm_str_equal (TmStr       s,
              const char *cstr)
{
  gsize len = strlen (cstr);

  return s.len == len && memcmp (s.ptr, cstr, len) == 0;
}

static inline gboolean
tm_str_has_prefix (TmStr       s,
                   const char *prefix)
{
  gsize len = strlen (prefix);

  return s.len >= len && memcmp (s.ptr, prefix, len) == 0;
}

/* Reads a length-delimited field's bytes as a string. */
static inline gboolean
tm_str_read (TmWire  *w,
             TmStr   *out,
             GError **error)
{
  TmWire sub = { 0 };

  if (!tm_wire_read_len (w, &sub, error))
    return FALSE;
  out->ptr = sub.p;
  out->len = (gsize) (sub.end - sub.p);
  return TRUE;
}

/* One entry of a plane's metadata map: id → name. */
typedef struct
{
  gint64 id;
  TmStr  name;
} TmMetadataName;

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

/* One memory event, as the host plane stores it (docs/formats.md §1).
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

/* Decodes the event whose length prefix is at file offset ref_offset, under
 * the source's SIGBUS guard. Set event->kind before: it is kept. */
gboolean tm_host_context_decode (TmHostContext  *ctx,
                                 guint64         ref_offset,
                                 TmMemEvent     *event,
                                 GError        **error);

G_END_DECLS
