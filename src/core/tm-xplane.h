/* tm-xplane.h — the structure of an XSpace: planes, lines, events, metadata
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Field numbers of proto/xplane.proto and walkers over the parts of a plane
 * (docs/formats.md, section 1) that find where things are without decoding them;
 * strings stay in the mapped file. Uses only tm-wire and tm-error.
 */
#pragma once

#include <string.h>
#include <glib/gi18n.h>

#include "tm-wire.h"

G_BEGIN_DECLS

/* Field numbers of proto/xplane.proto. */
enum { TM_XSPACE_PLANES = 1 };
enum { TM_XPLANE_ID = 1, TM_XPLANE_NAME = 2, TM_XPLANE_LINES = 3, TM_XPLANE_EVENT_METADATA = 4,
       TM_XPLANE_STAT_METADATA = 5 };
enum { TM_XLINE_NAME = 2, TM_XLINE_TIMESTAMP_NS = 3, TM_XLINE_EVENTS = 4 };
enum { TM_XEVENT_METADATA_ID = 1, TM_XEVENT_OFFSET_PS = 2, TM_XEVENT_DURATION_PS = 3, TM_XEVENT_STATS = 4,
       TM_XEVENT_NUM_OCCURRENCES = 5 };
enum { TM_XSTAT_METADATA_ID = 1, TM_XSTAT_DOUBLE = 2, TM_XSTAT_UINT64 = 3, TM_XSTAT_INT64 = 4, TM_XSTAT_STR = 5,
       TM_XSTAT_BYTES = 6, TM_XSTAT_REF = 7 };

/* The planes the readers look at (docs/formats.md, section 1). */
#define TM_HOST_PLANE_NAME "/host:CPU"
#define TM_TPU_PLANE_PREFIX "/device:TPU:"

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

/* Where the parts of a plane are. */
typedef struct
{
  TmStr   name;
  gboolean has_name;
  GArray *lines;      /* TmWire */
  GArray *event_md;   /* TmWire */
  GArray *stat_md;    /* TmWire */
} TmXPlaneParts;

static inline gboolean
tm_xplane_is_host (const TmXPlaneParts *parts)
{
  return parts->has_name && tm_str_equal (parts->name, TM_HOST_PLANE_NAME);
}

static inline gboolean
tm_xplane_is_tpu (const TmXPlaneParts *parts)
{
  return parts->has_name && tm_str_has_prefix (parts->name, TM_TPU_PLANE_PREFIX);
}

/* The next XSpace.planes field of space (a wire over the whole file), other
 * fields skipped: FALSE on an error; else TRUE, with *found FALSE at the end.
 * A file whose first tag does not read is neither an XSpace nor a JSON. */
gboolean tm_xspace_next_plane  (TmWire         *space,
                                TmWire         *plane,
                                gboolean       *found,
                                GError        **error);

/* When error says the bytes broke the protobuf structure (a bad tag,
 * wire type, length or truncation), puts first that the file is not a
 * profile or a damaged one, then the detail (docs/formats.md, section 1.9).
 * The readers of whole files call it once, where they fail. */
void     tm_xspace_explain_error (GError      **error);

void     tm_xplane_parts_clear (TmXPlaneParts  *parts);
/* One pass over the plane's top-level fields; with collect, remembers where
 * its lines and metadata entries are. */
gboolean tm_xplane_scan        (TmWire          plane,
                                gboolean        collect,
                                TmXPlaneParts  *parts,
                                GError        **error);
/* Reads the entries of a metadata map (TmWire elements) into names
 * (TmMetadataName); max_small is the largest id below TM_SMALL_ID_LIMIT
 * (-1: none). */
gboolean tm_xplane_read_names  (GArray         *wires,
                                GArray         *names,
                                gint64         *max_small,
                                GError        **error);

typedef struct
{
  TmWire   wire;
  TmStr    name;
  gint64   timestamp_ns;
} TmXLineInfo;

/* With until_events, stops at the first event: what the line says before
 * its events (where every writer puts its name and timestamp). */
gboolean tm_xline_scan         (TmWire          line,
                                gboolean        until_events,
                                TmXLineInfo    *info,
                                GError        **error);

/* The header fields of one event; stats are skipped. */
typedef struct
{
  guint64 metadata_id;
  gint64  offset_ps;
  gint64  duration_ps;
} TmXEventHeader;

static inline gboolean
tm_xevent_scan_header (TmWire       ev,
                   TmXEventHeader *hdr,
                   GError     **error)
{
  hdr->metadata_id = 0;
  hdr->offset_ps = 0;
  hdr->duration_ps = 0;

  while (!tm_wire_at_end (&ev))
    {
      guint32 field;
      guint wt;
      guint64 v;

      /* Stats are most of an event: skip runs of short ones in a tight
       * loop (tag 0x22, one-byte length). */
      while (ev.end - ev.p >= 2 && ev.p[0] == 0x22 && ev.p[1] < 0x80 &&
             ev.p + 2 + ev.p[1] <= ev.end)
        ev.p += 2 + ev.p[1];
      if (tm_wire_at_end (&ev))
        break;

      if (!tm_wire_read_tag (&ev, &field, &wt, error))
        return FALSE;

      switch (field)
        {
        case TM_XEVENT_METADATA_ID:
        case TM_XEVENT_OFFSET_PS:
        case TM_XEVENT_DURATION_PS:
        case TM_XEVENT_NUM_OCCURRENCES:
          if (!tm_wire_expect_type (&ev, field, wt, TM_WIRE_VARINT, N_("in XEvent"), error) ||
              !tm_wire_read_varint (&ev, &v, error))
            return FALSE;
          if (field == TM_XEVENT_METADATA_ID)
            hdr->metadata_id = v;
          else if (field == TM_XEVENT_OFFSET_PS)
            hdr->offset_ps = (gint64) v;
          else if (field == TM_XEVENT_DURATION_PS)
            hdr->duration_ps = (gint64) v;
          else
            hdr->offset_ps = 0;  /* oneof: num_occurrences clears offset_ps */
          break;

        case TM_XEVENT_STATS:
          if (!tm_wire_expect_type (&ev, field, wt, TM_WIRE_LEN, N_("in XEvent.stats"), error) ||
              !tm_wire_skip (&ev, wt, error))
            return FALSE;
          break;

        default:
          if (!tm_wire_skip (&ev, wt, error))
            return FALSE;
          break;
        }
    }

  return TRUE;
}

G_END_DECLS
