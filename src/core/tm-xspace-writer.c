/* tm-xspace-writer.c — memory-only profiles
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What is kept follows the reader exactly (docs/formats.md sections 1 and 4): the
 * first plane named "/host:CPU", its lines, the events whose last
 * metadata_id names "MemoryAllocation" or "MemoryDeallocation", their stats
 * that the memory profile reads; the "XLA Modules" lines of every
 * "/device:TPU:" plane; for each metadata id used, the entry a reader ends
 * up with (the last one).
 *
 * How it is written (docs/formats.md, section 4): the planes, lines, metadata
 * entries and module events are messages of the protobuf-c code generated
 * from proto/xplane.proto, packed with its *_get_packed_size and
 * *_pack_to_buffer; a memory event is written field by field from the
 * records of the original, so its values keep their exact bytes. A
 * plane's and a line's size are counted in a first pass over the plane,
 * and the length-delimited headers written before their contents, so the
 * output goes to the stream in chunks of OUT_CHUNK bytes: memory holds one
 * chunk, one event and, per plane, one entry per line and metadata entry
 * of the input.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <protobuf-c/protobuf-c.h>

#include "tm-error.h"
#include "tm-export.h"
#include "tm-host-event.h"
#include "tm-output.h"
#include "tm-profile.h"
#include "tm-wire.h"
#include "tm-xplane.h"
#include "tm-input-picker.h"
#include "tm-xspace-writer.h"
#include "xplane.pb-c.h"

#define XLA_MODULES_LINE "XLA Modules"
#define OUT_CHUNK (256u << 10)
#define CHECK_INTERVAL 16384

typedef Tensorflow__Profiler__XPlane XPlane;
typedef Tensorflow__Profiler__XLine XLine;
typedef Tensorflow__Profiler__XEvent XEvent;
typedef Tensorflow__Profiler__XEventMetadata XEventMetadata;
typedef Tensorflow__Profiler__XStatMetadata XStatMetadata;
typedef Tensorflow__Profiler__XPlane__EventMetadataEntry EventMetadataEntry;
typedef Tensorflow__Profiler__XPlane__StatMetadataEntry StatMetadataEntry;

/* A metadata map as a reader sees it: id → the index of its last entry. */
typedef struct
{
  GArray     *names;     /* TmMetadataName, in file order */
  gint32     *small;     /* id → entry index, -1: none */
  guint       n_small;
  GHashTable *big;       /* gint64 id → entry index + 1 */
  guint8     *flags;     /* per entry: FLAG_* */
} IdIndex;

enum
{
  FLAG_MEMORY = 1 << 0,  /* a memory event name / a stat the memory profile reads */
  FLAG_USED   = 1 << 1,  /* written out */
};

typedef struct
{
  TmSource       *source;
  const guint8   *base;
  gsize           size;
  GOutputStream  *out;
  GCancellable   *cancellable;
  TmProgressFunc  progress;
  gpointer        progress_data;
  guint64         last_progress;
  guint64         n_checked;

  GByteArray     *chunk;     /* output not yet written */
  GByteArray     *scratch;   /* one event */
  gboolean        wrote_host;
  gboolean        wrote_plane;

  /* The plane being written. */
  const guint8   *plane_start;
  gsize           plane_len;
  TmXPlaneParts   parts;
  IdIndex         events;
  IdIndex         stats;
  GArray         *lines;     /* TmXLineInfo */
  GArray         *sizes;     /* guint64 per line: its events' bytes out; G_MAXUINT64: not kept */
} Writer;

/* ------------------------------------------------------------------ */
/* Output                                                              */

static guint
varint_size (guint64 v)
{
  guint n = 1;

  while (v >= 0x80)
    {
      v >>= 7;
      n++;
    }
  return n;
}

static void
append_varint (GByteArray *buf,
               guint64     v)
{
  guint8 tmp[10];
  guint n = 0;

  while (v >= 0x80)
    {
      tmp[n++] = (guint8) (v | 0x80);
      v >>= 7;
    }
  tmp[n++] = (guint8) v;
  g_byte_array_append (buf, tmp, n);
}

/* A length-delimited field's tag and length, written here: the message
 * follows in pieces. */
static void
append_len_header (GByteArray *buf,
                   guint32     field,
                   guint64     len)
{
  append_varint (buf, ((guint64) field << 3) | TM_WIRE_LEN);
  append_varint (buf, len);
}

static gsize
len_record_size (guint32 field,
                 guint64 len)
{
  return varint_size ((guint64) field << 3) + varint_size (len) + len;
}

typedef struct
{
  ProtobufCBuffer  base;
  GByteArray      *array;
} ArrayBuffer;

static void
array_buffer_append (ProtobufCBuffer *buffer,
                     size_t           len,
                     const uint8_t   *data)
{
  g_byte_array_append (((ArrayBuffer *) buffer)->array, data, (guint) len);
}

/* Packs a message with protobuf-c onto the end of buf. */
static void
append_message (GByteArray             *buf,
                const ProtobufCMessage *message)
{
  ArrayBuffer ab = { { array_buffer_append }, buf };

  protobuf_c_message_pack_to_buffer (message, &ab.base);
}

static gboolean
flush_chunk (Writer   *w,
             gboolean  all,
             GError  **error)
{
  if (w->chunk->len == 0 || (!all && w->chunk->len < OUT_CHUNK))
    return TRUE;
  if (!g_output_stream_write_all (w->out, w->chunk->data, w->chunk->len, NULL, w->cancellable, error))
    return FALSE;
  g_byte_array_set_size (w->chunk, 0);
  return TRUE;
}

/* Every CHECK_INTERVAL events: cancelled? progress. done counts each byte
 * of a kept plane twice (the pass that counts, the pass that writes). */
static gboolean
check_point (Writer        *w,
             const guint8  *at,
             guint          pass,
             GError       **error)
{
  guint64 done;

  if ((++w->n_checked % CHECK_INTERVAL) != 0)
    return TRUE;
  if (g_cancellable_set_error_if_cancelled (w->cancellable, error))
    return FALSE;
  done = 2 * (guint64) (w->plane_start - w->base) + pass * w->plane_len + (guint64) (at - w->plane_start);
  if (w->progress != NULL && done > w->last_progress)
    {
      w->last_progress = done;
      w->progress (done, 2 * (guint64) w->size, w->progress_data);
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Metadata                                                            */

static void
id_index_clear (IdIndex *index)
{
  g_clear_pointer (&index->names, g_array_unref);
  g_clear_pointer (&index->small, g_free);
  g_clear_pointer (&index->big, g_hash_table_unref);
  g_clear_pointer (&index->flags, g_free);
  index->n_small = 0;
}

static gboolean
id_index_build (IdIndex  *index,
                GArray   *wires,
                GError  **error)
{
  gint64 max_small;

  id_index_clear (index);
  index->names = g_array_new (FALSE, FALSE, sizeof (TmMetadataName));
  if (!tm_xplane_read_names (wires, index->names, &max_small, error))
    return FALSE;

  index->n_small = (guint) (max_small + 1);
  index->small = g_new (gint32, MAX (index->n_small, 1));
  memset (index->small, 0xff, sizeof (gint32) * MAX (index->n_small, 1));
  index->flags = g_new0 (guint8, MAX (index->names->len, 1));

  /* A later entry for the same id wins, as in the reader. */
  for (guint i = 0; i < index->names->len; i++)
    {
      const TmMetadataName *e = &g_array_index (index->names, TmMetadataName, i);

      if (e->id >= 0 && e->id < (gint64) index->n_small)
        index->small[e->id] = (gint32) i;
      else
        {
          if (index->big == NULL)
            index->big = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
          g_hash_table_insert (index->big, g_memdup2 (&e->id, sizeof e->id), GUINT_TO_POINTER (i + 1));
        }
    }
  return TRUE;
}

/* The entry index of id, or -1. */
static inline gint64
id_index_lookup (const IdIndex *index,
                 guint64        id)
{
  if (id < index->n_small)
    return index->small[id];
  if (index->big != NULL)
    return (gint64) GPOINTER_TO_UINT (g_hash_table_lookup (index->big, &id)) - 1;
  return -1;
}

static inline void
id_index_use (IdIndex *index,
              gint64   entry)
{
  if (entry >= 0)
    index->flags[entry] |= FLAG_USED;
}

/* A metadata map entry {key, value {id = key, name}}. A name with a NUL
 * byte cannot be a protobuf-c string (it would end there): that rare entry
 * is encoded here, byte for byte. */
static void
append_metadata_entry (GByteArray           *buf,
                       guint32               field,
                       const TmMetadataName *e)
{
  g_autofree char *name = g_strndup ((const char *) e->name.ptr, e->name.len);

  if (e->name.len > 0 && memchr (e->name.ptr, '\0', e->name.len) != NULL)
    {
      gsize value_len = 1 + varint_size ((guint64) e->id) + len_record_size (2, e->name.len);

      append_len_header (buf, field, 1 + varint_size ((guint64) e->id) + len_record_size (2, value_len));
      append_varint (buf, 1 << 3);
      append_varint (buf, (guint64) e->id);
      append_len_header (buf, 2, value_len);
      append_varint (buf, 1 << 3);
      append_varint (buf, (guint64) e->id);
      append_len_header (buf, 2, e->name.len);
      g_byte_array_append (buf, e->name.ptr, (guint) e->name.len);
      return;
    }

  /* One entry of a plane's map, as protobuf-c packs a plane that has only
   * it: the field's tag, length and entry. */
  if (field == TM_XPLANE_EVENT_METADATA)
    {
      XPlane plane = TENSORFLOW__PROFILER__XPLANE__INIT;
      EventMetadataEntry entry = TENSORFLOW__PROFILER__XPLANE__EVENT_METADATA_ENTRY__INIT;
      XEventMetadata value = TENSORFLOW__PROFILER__XEVENT_METADATA__INIT;
      EventMetadataEntry *entries[1] = { &entry };

      value.id = e->id;
      value.name = name;
      entry.key = e->id;
      entry.value = &value;
      plane.n_event_metadata = 1;
      plane.event_metadata = entries;
      append_message (buf, &plane.base);
    }
  else
    {
      XPlane plane = TENSORFLOW__PROFILER__XPLANE__INIT;
      StatMetadataEntry entry = TENSORFLOW__PROFILER__XPLANE__STAT_METADATA_ENTRY__INIT;
      XStatMetadata value = TENSORFLOW__PROFILER__XSTAT_METADATA__INIT;
      StatMetadataEntry *entries[1] = { &entry };

      value.id = e->id;
      value.name = name;
      entry.key = e->id;
      entry.value = &value;
      plane.n_stat_metadata = 1;
      plane.stat_metadata = entries;
      append_message (buf, &plane.base);
    }
}

/* The bytes of the used entries of index, as fields of a plane. */
static gsize
metadata_size (const IdIndex *index,
               guint32        field,
               GByteArray    *scratch)
{
  gsize total = 0;

  for (guint i = 0; i < index->names->len; i++)
    if (index->flags[i] & FLAG_USED)
      {
        g_byte_array_set_size (scratch, 0);
        append_metadata_entry (scratch, field, &g_array_index (index->names, TmMetadataName, i));
        total += scratch->len;
      }
  return total;
}

static gboolean
write_metadata (Writer         *w,
                const IdIndex  *index,
                guint32         field,
                GError        **error)
{
  for (guint i = 0; i < index->names->len; i++)
    if (index->flags[i] & FLAG_USED)
      {
        append_metadata_entry (w->chunk, field, &g_array_index (index->names, TmMetadataName, i));
        if (!flush_chunk (w, FALSE, error))
          return FALSE;
      }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Events                                                              */

/* One XStat: its last metadata_id, and whether its last value is a
 * ref_value (and which). FALSE if it is malformed. */
static gboolean
parse_stat (TmWire    st,
            guint64  *md,
            gboolean *is_ref,
            guint64  *ref)
{
  *md = 0;
  *is_ref = FALSE;

  while (!tm_wire_at_end (&st))
    {
      guint32 field;
      guint wt;
      guint64 v;

      if (!tm_wire_read_tag (&st, &field, &wt, NULL))
        return FALSE;
      switch (field)
        {
        case TM_XSTAT_METADATA_ID:
        case TM_XSTAT_UINT64:
        case TM_XSTAT_INT64:
        case TM_XSTAT_REF:
          if (wt != TM_WIRE_VARINT || !tm_wire_read_varint (&st, &v, NULL))
            return FALSE;
          if (field == TM_XSTAT_METADATA_ID)
            *md = v;
          else
            {
              *is_ref = field == TM_XSTAT_REF;
              *ref = v;
            }
          break;
        case TM_XSTAT_DOUBLE:
        case TM_XSTAT_STR:
        case TM_XSTAT_BYTES:
          if (wt != (field == TM_XSTAT_DOUBLE ? TM_WIRE_I64 : TM_WIRE_LEN) || !tm_wire_skip (&st, wt, NULL))
            return FALSE;
          *is_ref = FALSE;
          break;
        default:
          if (!tm_wire_skip (&st, wt, NULL))
            return FALSE;
          break;
        }
    }
  return TRUE;
}

/* A memory event as written: metadata_id, offset_ps and duration_ps as the
 * reader took them, then, in their order, the stats whose metadata names a
 * stat the memory profile reads, each the original record. A stat the
 * reader ignores (another name, no metadata, malformed) and unknown fields
 * are left out. Marks the metadata used. With out NULL, only counts. */
static gboolean
copy_memory_event (Writer               *w,
                   TmWire                ev,
                   const TmXEventHeader *hdr,
                   GByteArray           *out,
                   gsize                *size,
                   GError              **error)
{
  gsize n = 1 + varint_size (hdr->metadata_id);

  if (hdr->offset_ps != 0)
    n += 1 + varint_size ((guint64) hdr->offset_ps);
  if (hdr->duration_ps != 0)
    n += 1 + varint_size ((guint64) hdr->duration_ps);
  if (out != NULL)
    {
      append_varint (out, (TM_XEVENT_METADATA_ID << 3) | TM_WIRE_VARINT);
      append_varint (out, hdr->metadata_id);
      if (hdr->offset_ps != 0)
        {
          append_varint (out, (TM_XEVENT_OFFSET_PS << 3) | TM_WIRE_VARINT);
          append_varint (out, (guint64) hdr->offset_ps);
        }
      if (hdr->duration_ps != 0)
        {
          append_varint (out, (TM_XEVENT_DURATION_PS << 3) | TM_WIRE_VARINT);
          append_varint (out, (guint64) hdr->duration_ps);
        }
    }

  while (!tm_wire_at_end (&ev))
    {
      const guint8 *start = ev.p;
      guint32 field;
      guint wt;
      TmWire st;
      guint64 md, ref = 0;
      gboolean is_ref;
      gint64 entry;

      if (!tm_wire_read_tag (&ev, &field, &wt, error))
        return FALSE;
      if (field != TM_XEVENT_STATS)
        {
          if (!tm_wire_skip (&ev, wt, error))
            return FALSE;
          continue;
        }
      if (!tm_wire_expect_type (&ev, field, wt, TM_WIRE_LEN, N_("in XEvent.stats"), error) ||
          !tm_wire_read_len (&ev, &st, error))
        return FALSE;

      if (!parse_stat (st, &md, &is_ref, &ref))
        continue;
      entry = id_index_lookup (&w->stats, md);
      if (entry < 0 || !(w->stats.flags[entry] & FLAG_MEMORY))
        continue;

      id_index_use (&w->stats, entry);
      if (is_ref)
        id_index_use (&w->stats, id_index_lookup (&w->stats, ref));
      n += (gsize) (ev.p - start);
      if (out != NULL)
        g_byte_array_append (out, start, (guint) (ev.p - start));
    }

  *size = n;
  return TRUE;
}

/* What a line of a kept plane says before its events, as protobuf-c packs
 * it: name and timestamp (the events follow). */
static void
append_line_head (GByteArray        *buf,
                  const TmXLineInfo *info)
{
  XLine line = TENSORFLOW__PROFILER__XLINE__INIT;
  g_autofree char *name = g_strndup ((const char *) info->name.ptr, info->name.len);

  line.name = name;
  line.timestamp_ns = info->timestamp_ns;
  append_message (buf, &line.base);
}

static void
append_plane_head (GByteArray          *buf,
                   const TmXPlaneParts *parts)
{
  XPlane plane = TENSORFLOW__PROFILER__XPLANE__INIT;
  g_autofree char *name = g_strndup ((const char *) parts->name.ptr, parts->name.len);

  plane.name = name;
  append_message (buf, &plane.base);
}

/* An event of an "XLA Modules" line: what the reader takes of it. */
static void
append_module_event (GByteArray           *buf,
                     const TmXEventHeader *hdr)
{
  XEvent ev = TENSORFLOW__PROFILER__XEVENT__INIT;

  ev.metadata_id = (gint64) hdr->metadata_id;
  ev.data_case = TENSORFLOW__PROFILER__XEVENT__DATA_OFFSET_PS;
  ev.offset_ps = hdr->offset_ps;
  ev.duration_ps = hdr->duration_ps;
  append_message (buf, &ev.base);
}

/* One pass over the events of line i. pass 0 counts its bytes out (and
 * marks the metadata used), pass 1 writes them. */
static gboolean
line_events (Writer    *w,
             guint      i,
             gboolean   host,
             guint      pass,
             guint64   *bytes,
             GError   **error)
{
  const TmXLineInfo *info = &g_array_index (w->lines, TmXLineInfo, i);
  TmWire line = info->wire;
  guint64 total = 0;

  while (!tm_wire_at_end (&line))
    {
      guint32 field;
      guint wt;
      TmWire ev;
      TmXEventHeader hdr;
      gint64 entry;
      gsize n;

      if (!tm_wire_read_tag (&line, &field, &wt, error))
        return FALSE;
      if (field != TM_XLINE_EVENTS)
        {
          if (!tm_wire_skip (&line, wt, error))
            return FALSE;
          continue;
        }
      if (!tm_wire_expect_type (&line, field, wt, TM_WIRE_LEN, N_("in XLine.events"), error) ||
          !tm_wire_read_len (&line, &ev, error) ||
          !tm_xevent_scan_header (ev, &hdr, error))
        return FALSE;
      if (!check_point (w, line.p, pass, error))
        return FALSE;

      entry = id_index_lookup (&w->events, hdr.metadata_id);
      if (host)
        {
          if (entry < 0 || !(w->events.flags[entry] & FLAG_MEMORY))
            continue;
          g_byte_array_set_size (w->scratch, 0);
          if (!copy_memory_event (w, ev, &hdr, pass == 1 ? w->scratch : NULL, &n, error))
            return FALSE;
          if (pass == 1)
            {
              append_len_header (w->chunk, TM_XLINE_EVENTS, w->scratch->len);
              g_byte_array_append (w->chunk, w->scratch->data, w->scratch->len);
            }
        }
      else
        {
          g_byte_array_set_size (w->scratch, 0);
          append_module_event (w->scratch, &hdr);
          n = w->scratch->len;
          if (pass == 1)
            {
              append_len_header (w->chunk, TM_XLINE_EVENTS, n);
              g_byte_array_append (w->chunk, w->scratch->data, w->scratch->len);
            }
        }
      id_index_use (&w->events, entry);
      total += len_record_size (TM_XLINE_EVENTS, n);
      if (pass == 1 && !flush_chunk (w, FALSE, error))
        return FALSE;
    }

  *bytes = total;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Planes                                                              */

static void
plane_clear (Writer *w)
{
  tm_xplane_parts_clear (&w->parts);
  id_index_clear (&w->events);
  id_index_clear (&w->stats);
  g_clear_pointer (&w->lines, g_array_unref);
  g_clear_pointer (&w->sizes, g_array_unref);
}

/* Writes the kept part of a host plane (host) or a TPU plane. */
static gboolean
write_plane (Writer   *w,
             TmWire    plane,
             gboolean  host,
             GError  **error)
{
  gint64 min_ts = G_MAXINT64;
  guint min_line = G_MAXUINT;
  guint n_kept = 0;
  guint64 plane_len;

  plane_clear (w);
  w->plane_start = plane.p;
  w->plane_len = (gsize) (plane.end - plane.p);
  if (!tm_xplane_scan (plane, TRUE, &w->parts, error) ||
      !id_index_build (&w->events, w->parts.event_md, error))
    return FALSE;

  if (host)
    {
      if (!id_index_build (&w->stats, w->parts.stat_md, error))
        return FALSE;
      for (guint i = 0; i < w->events.names->len; i++)
        {
          TmStr name = g_array_index (w->events.names, TmMetadataName, i).name;

          if (tm_str_equal (name, "MemoryAllocation") || tm_str_equal (name, "MemoryDeallocation"))
            w->events.flags[i] |= FLAG_MEMORY;
        }
      for (guint i = 0; i < w->stats.names->len; i++)
        if (tm_host_event_is_memory_stat_name (g_array_index (w->stats.names, TmMetadataName, i).name))
          w->stats.flags[i] |= FLAG_MEMORY;
    }

  /* Every line's name and timestamp, read whole (the later value wins). */
  w->lines = g_array_sized_new (FALSE, TRUE, sizeof (TmXLineInfo), w->parts.lines->len);
  g_array_set_size (w->lines, w->parts.lines->len);
  w->sizes = g_array_sized_new (FALSE, TRUE, sizeof (guint64), w->parts.lines->len);
  g_array_set_size (w->sizes, w->parts.lines->len);
  for (guint i = 0; i < w->lines->len; i++)
    {
      TmXLineInfo *info = &g_array_index (w->lines, TmXLineInfo, i);

      if (!tm_xline_scan (g_array_index (w->parts.lines, TmWire, i), FALSE, info, error))
        return FALSE;
      if (info->timestamp_ns < min_ts)
        {
          min_ts = info->timestamp_ns;
          min_line = i;
        }
    }

  /* Pass 0: which lines are kept, and their sizes. A host line is kept if
   * it has a memory event, and the first line with the plane's earliest
   * timestamp is always kept: events are put on its clock
   * (docs/formats.md, section 1.6). A TPU plane keeps its "XLA Modules" lines. */
  for (guint i = 0; i < w->lines->len; i++)
    {
      const TmXLineInfo *info = &g_array_index (w->lines, TmXLineInfo, i);
      guint64 *size = &g_array_index (w->sizes, guint64, i);
      guint64 events = 0;

      *size = G_MAXUINT64;
      if (!host && !tm_str_equal (info->name, XLA_MODULES_LINE))
        continue;
      if (!line_events (w, i, host, 0, &events, error))
        return FALSE;
      if (!host || events > 0 || i == min_line)
        {
          g_byte_array_set_size (w->scratch, 0);
          append_line_head (w->scratch, info);
          *size = w->scratch->len + events;
          n_kept++;
        }
    }
  if (!host && n_kept == 0)
    return TRUE;

  /* The plane's length, then its parts in field order. */
  g_byte_array_set_size (w->scratch, 0);
  append_plane_head (w->scratch, &w->parts);
  plane_len = w->scratch->len;
  for (guint i = 0; i < w->sizes->len; i++)
    {
      guint64 size = g_array_index (w->sizes, guint64, i);

      if (size != G_MAXUINT64)
        plane_len += len_record_size (TM_XPLANE_LINES, size);
    }
  plane_len += metadata_size (&w->events, TM_XPLANE_EVENT_METADATA, w->scratch);
  if (host)
    plane_len += metadata_size (&w->stats, TM_XPLANE_STAT_METADATA, w->scratch);

  append_len_header (w->chunk, TM_XSPACE_PLANES, plane_len);
  append_plane_head (w->chunk, &w->parts);

  for (guint i = 0; i < w->lines->len; i++)
    {
      guint64 size = g_array_index (w->sizes, guint64, i);
      guint64 events = 0;
      gsize head;

      if (size == G_MAXUINT64)
        continue;
      append_len_header (w->chunk, TM_XPLANE_LINES, size);
      head = w->chunk->len;
      append_line_head (w->chunk, &g_array_index (w->lines, TmXLineInfo, i));
      head = w->chunk->len - head;
      if (!line_events (w, i, host, 1, &events, error))
        return FALSE;
      if (head + events != size)
        {
          g_set_error (error, TM_ERROR, TM_ERROR_CHANGED, _("changed while reading: the file was modified by another program"));
          return FALSE;
        }
    }

  if (!write_metadata (w, &w->events, TM_XPLANE_EVENT_METADATA, error) ||
      (host && !write_metadata (w, &w->stats, TM_XPLANE_STAT_METADATA, error)) ||
      !flush_chunk (w, FALSE, error))
    return FALSE;

  w->wrote_plane = TRUE;
  return TRUE;
}

static gboolean
write_job (gpointer   data,
           GError   **error)
{
  Writer *w = data;
  TmWire space;

  tm_wire_init (&space, w->base, w->size);
  for (;;)
    {
      TmWire plane;
      TmXPlaneParts head;
      gboolean found, host, tpu;

      if (!tm_xspace_next_plane (&space, &plane, &found, error))
        return FALSE;
      if (!found)
        break;
      if (!tm_xplane_scan (plane, FALSE, &head, error))
        return FALSE;

      /* The reader reads the first host plane only, and every TPU plane. */
      host = tm_xplane_is_host (&head) && !w->wrote_host;
      tpu = tm_xplane_is_tpu (&head);
      if (host || tpu)
        {
          if (!write_plane (w, plane, host, error))
            return FALSE;
          w->wrote_host |= host;
        }
      plane_clear (w);
      if (g_cancellable_set_error_if_cancelled (w->cancellable, error))
        return FALSE;
    }

  /* A profile without those planes still has planes: an empty one keeps
   * the file from being empty (which does not read as a profile). */
  if (!w->wrote_plane)
    {
      XPlane empty = TENSORFLOW__PROFILER__XPLANE__INIT;

      append_len_header (w->chunk, TM_XSPACE_PLANES, protobuf_c_message_get_packed_size (&empty.base));
      append_message (w->chunk, &empty.base);
    }
  return flush_chunk (w, TRUE, error);
}

gboolean
tm_xspace_write_memory_only (TmSource        *source,
                             GOutputStream   *out,
                             TmProgressFunc   progress,
                             gpointer         progress_data,
                             GCancellable    *cancellable,
                             GError         **error)
{
  Writer w = { 0 };
  TmInputFormat format;
  gboolean ok;

  g_return_val_if_fail (source != NULL, FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  w.source = source;
  w.base = tm_source_get_data (source);
  w.size = tm_source_get_size (source);
  if (!tm_input_picker_sniff_source (source, &format, error))
    return FALSE;
  if (!(tm_input_format_get_info (format)->features & TM_INPUT_HAS_MEMORY_ONLY_EXPORT))
    {
      if (format == TM_INPUT_FORMAT_XPROF_JSON)
        g_set_error (error, TM_ERROR, TM_ERROR_INVALID,
                     _("is an XProf memory-profile JSON: only an XSpace profile (*.xplane.pb) can be saved memory-only"));
      else
        g_set_error (error, TM_ERROR, TM_ERROR_INVALID,
                     /* TRANSLATORS: %s is a file format, such as "gathered host summaries (JSON Lines)" */
                     _("holds %s: only an XSpace profile (*.xplane.pb) can be saved memory-only"),
                     _(tm_input_format_get_info (format)->name));
      return FALSE;
    }

  w.out = out;
  w.cancellable = cancellable;
  w.progress = progress;
  w.progress_data = progress_data;
  w.chunk = g_byte_array_sized_new (OUT_CHUNK + 4096);
  w.scratch = g_byte_array_new ();

  ok = tm_source_run_guarded (source, write_job, &w, error);
  if (!ok)
    tm_xspace_explain_error (error);

  plane_clear (&w);
  g_byte_array_unref (w.chunk);
  g_byte_array_unref (w.scratch);
  if (ok && progress != NULL)
    progress (2 * (guint64) w.size, 2 * (guint64) w.size, progress_data);
  return ok;
}

gboolean
tm_xspace_save_memory_only (GFile           *input,
                            GFile           *dest,
                            TmProgressFunc   progress,
                            gpointer         progress_data,
                            GCancellable    *cancellable,
                            GError         **error)
{
  g_autofree char *path = NULL;
  g_autoptr(TmSource) source = NULL;
  g_autoptr(TmOutput) out = NULL;
  gboolean ok;

  g_return_val_if_fail (G_IS_FILE (input), FALSE);
  g_return_val_if_fail (G_IS_FILE (dest), FALSE);

  path = g_file_get_path (input);
  if (path == NULL)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_READ, _("cannot be read: only local files can be opened"));
      return FALSE;
    }
  source = tm_source_open (path, error);
  if (source == NULL)
    return FALSE;

  out = tm_output_open_file (dest, error);
  if (out == NULL)
    return FALSE;

  /* Written beside dest and renamed over it when complete (tm-output.h). */
  ok = tm_xspace_write_memory_only (source, tm_output_get_stream (out), progress, progress_data, cancellable, error);
  return tm_output_finish (out, ok, error);
}

/* ------------------------------------------------------------------ */
/* The round trip                                                      */

static GBytes *
export_to_bytes (TmProfile  *profile,
                 gboolean    summary,
                 GError    **error)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GBytes) bytes = NULL;
  gboolean ok = summary ? tm_export_summary_json (profile, "host", out, NULL, error)
                        : tm_export_xprof_json (profile, out, NULL, error);
  const char *data, *file, *after;
  gsize len;

  if (!ok || !g_output_stream_close (out, NULL, error))
    return NULL;
  bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
  if (!summary)
    return g_steal_pointer (&bytes);

  /* The summary names the file it came from, which differs by design:
   * compare everything but that member. Inside the escaped path a quote is
   * always escaped, so the next member's key ends it. */
  data = g_bytes_get_data (bytes, &len);
  file = g_strstr_len (data, len, ", \"file\": \"");
  after = file != NULL ? g_strstr_len (file, len - (gsize) (file - data), "\", \"format\": ") : NULL;
  if (file == NULL || after == NULL)
    return g_steal_pointer (&bytes);
  {
    GByteArray *cut = g_byte_array_sized_new (len);

    g_byte_array_append (cut, (const guint8 *) data, (guint) (file - data));
    g_byte_array_append (cut, (const guint8 *) after + 1, (guint) (len - (gsize) (after + 1 - data)));
    return g_byte_array_free_to_bytes (cut);
  }
}

static gboolean
compare_exports (TmProfile  *original,
                 TmProfile  *written,
                 gboolean    summary,
                 GError    **error)
{
  g_autoptr(GBytes) a = export_to_bytes (original, summary, error);
  g_autoptr(GBytes) b = NULL;
  const guint8 *pa, *pb;
  gsize la, lb, i;

  if (a == NULL || (b = export_to_bytes (written, summary, error)) == NULL)
    return FALSE;
  pa = g_bytes_get_data (a, &la);
  pb = g_bytes_get_data (b, &lb);
  for (i = 0; i < MIN (la, lb) && pa[i] == pb[i]; i++)
    ;
  if (i == la && i == lb)
    return TRUE;
  g_set_error (error, TM_ERROR, TM_ERROR_INVALID,
               "the memory-only profile reads differently: its %s differs at byte %" G_GSIZE_FORMAT,
               summary ? "summary JSON" : "XProf JSON", i);
  return FALSE;
}

gboolean
tm_xspace_writer_round_trip (const char  *path,
                             GError     **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(TmProfile) original = NULL;
  g_autoptr(TmProfile) written = NULL;
  g_autoptr(GFile) dest = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *basename = NULL;
  g_autofree char *dest_path = NULL;
  gboolean ok;

  g_return_val_if_fail (path != NULL, FALSE);

  file = g_file_new_for_path (path);
  basename = g_path_get_basename (path);
  dir = g_dir_make_tmp ("tidemark-memory-only-XXXXXX", error);
  if (dir == NULL)
    return FALSE;
  dest_path = g_build_filename (dir, basename, NULL);
  dest = g_file_new_for_path (dest_path);

  original = tm_profile_load (file, NULL, NULL, NULL, NULL);
  if (original == NULL || !(tm_profile_get_features (original) & TM_INPUT_HAS_MEMORY_ONLY_EXPORT))
    {
      /* Nothing to compare; the writer must still cope with the file. */
      tm_xspace_save_memory_only (file, dest, NULL, NULL, NULL, NULL);
      g_unlink (dest_path);
      g_rmdir (dir);
      return TRUE;
    }

  ok = tm_xspace_save_memory_only (file, dest, NULL, NULL, NULL, error) &&
       (written = tm_profile_load (dest, NULL, NULL, NULL, error)) != NULL &&
       compare_exports (original, written, FALSE, error) &&
       compare_exports (original, written, TRUE, error);

  g_clear_object (&written);
  g_unlink (dest_path);
  g_rmdir (dir);
  return ok;
}
