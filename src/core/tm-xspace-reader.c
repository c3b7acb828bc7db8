/* tm-xspace-reader.c — XSpace → memory events and HLO modules
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Field numbers are those of proto/xplane.proto. Any field may come in any
 * order and more than once (the later singular value wins); unknown fields
 * are skipped; a known field with the wrong wire type is an error.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "tm-analysis.h"
#include "tm-memory-store-private.h"
#include "tm-wire.h"
#include "tm-xspace-reader.h"

/* Field numbers. */
enum { XSPACE_PLANES = 1 };
enum { XPLANE_ID = 1, XPLANE_NAME = 2, XPLANE_LINES = 3, XPLANE_EVENT_METADATA = 4, XPLANE_STAT_METADATA = 5 };
enum { XLINE_NAME = 2, XLINE_TIMESTAMP_NS = 3, XLINE_EVENTS = 4 };
enum { XEVENT_METADATA_ID = 1, XEVENT_OFFSET_PS = 2, XEVENT_DURATION_PS = 3, XEVENT_STATS = 4, XEVENT_NUM_OCCURRENCES = 5 };
enum { XSTAT_METADATA_ID = 1, XSTAT_DOUBLE = 2, XSTAT_UINT64 = 3, XSTAT_INT64 = 4, XSTAT_STR = 5, XSTAT_BYTES = 6, XSTAT_REF = 7 };
enum { MAP_KEY = 1, MAP_VALUE = 2 };
enum { METADATA_ID = 1, METADATA_NAME = 2 };

/* Stats the memory profile reads (product.md §2.1). */
typedef enum
{
  STAT_OTHER = 0,
  STAT_ALLOCATOR_NAME,
  STAT_INDEX_ON_HOST,
  STAT_DEVICE_ORDINAL,
  STAT_BYTES_RESERVED,
  STAT_BYTES_ALLOCATED,
  STAT_BYTES_AVAILABLE,
  STAT_FRAGMENTATION,
  STAT_PEAK_BYTES_IN_USE,
  STAT_REQUESTED_BYTES,
  STAT_ALLOCATION_BYTES,
  STAT_ADDR,
  STAT_TF_OP,
  STAT_GROUP_ID,
  STAT_REGION_TYPE,
  STAT_DATA_TYPE,
  STAT_SHAPE,
} StatKind;

static const struct { const char *name; StatKind kind; } stat_names[] = {
  { "allocator_name", STAT_ALLOCATOR_NAME },
  { "index_on_host", STAT_INDEX_ON_HOST },
  { "device_ordinal", STAT_DEVICE_ORDINAL },
  { "bytes_reserved", STAT_BYTES_RESERVED },
  { "bytes_allocated", STAT_BYTES_ALLOCATED },
  { "bytes_available", STAT_BYTES_AVAILABLE },
  { "fragmentation", STAT_FRAGMENTATION },
  { "peak_bytes_in_use", STAT_PEAK_BYTES_IN_USE },
  { "requested_bytes", STAT_REQUESTED_BYTES },
  { "allocation_bytes", STAT_ALLOCATION_BYTES },
  { "addr", STAT_ADDR },
  { "tf_op", STAT_TF_OP },
  { "group_id", STAT_GROUP_ID },
  { "region_type", STAT_REGION_TYPE },
  { "data_type", STAT_DATA_TYPE },
  { "shape", STAT_SHAPE },
};

#define HOST_PLANE_NAME "/host:CPU"
#define TPU_PLANE_PREFIX "/device:TPU:"
#define DEVICE_PREFIX "/device:"
#define XLA_MODULES_LINE "XLA Modules"
/* Ids below this are looked up in arrays, others in a hash table. */
#define SMALL_ID_LIMIT (1u << 20)
#define CANCEL_CHECK_INTERVAL 16384

typedef struct
{
  guint8  kind;
  TmStr   name;
} StatInfo;

struct _TmHostContext
{
  gatomicrefcount  ref_count;
  TmSource        *source;
  guint            n_small;
  StatInfo        *small;      /* indexed by stat metadata id */
  GHashTable      *big;        /* gint64 id → StatInfo */
};

static gboolean
str_equal (TmStr       s,
           const char *cstr)
{
  gsize len = strlen (cstr);

  return s.len == len && memcmp (s.ptr, cstr, len) == 0;
}

static gboolean
str_has_prefix (TmStr       s,
                const char *prefix)
{
  gsize len = strlen (prefix);

  return s.len >= len && memcmp (s.ptr, prefix, len) == 0;
}

static StatKind
classify_stat_name (TmStr name)
{
  for (guint i = 0; i < G_N_ELEMENTS (stat_names); i++)
    if (str_equal (name, stat_names[i].name))
      return stat_names[i].kind;
  return STAT_OTHER;
}

TmHostContext *
tm_host_context_ref (TmHostContext *ctx)
{
  g_atomic_ref_count_inc (&ctx->ref_count);
  return ctx;
}

void
tm_host_context_unref (TmHostContext *ctx)
{
  if (g_atomic_ref_count_dec (&ctx->ref_count))
    {
      g_clear_pointer (&ctx->source, tm_source_unref);
      g_clear_pointer (&ctx->big, g_hash_table_unref);
      g_free (ctx->small);
      g_free (ctx);
    }
}

TmSource *
tm_host_context_get_source (TmHostContext *ctx)
{
  return ctx->source;
}

static inline const StatInfo *
lookup_stat (TmHostContext *ctx,
             guint64        id)
{
  if (id < ctx->n_small)
    return &ctx->small[id];
  if (ctx->big != NULL)
    return g_hash_table_lookup (ctx->big, &id);
  return NULL;
}

void
tm_xspace_result_clear (TmXSpaceResult *result)
{
  g_clear_pointer (&result->stores, g_ptr_array_unref);
  g_clear_pointer (&result->hlo_modules, g_array_unref);
}

/* ------------------------------------------------------------------ */
/* Field helpers                                                        */

static gboolean
expect_wire_type (TmWire    *w,
                  guint32    field,
                  guint      wire_type,
                  guint      expected,
                  const char *where,
                  GError   **error)
{
  if (G_LIKELY (wire_type == expected))
    return TRUE;

  /* where is a msgid (N_): translated only now, off the hot path. The tag
   * is one byte for every field number checked here. */
  tm_wire_set_wire_type_error (error, _(where), field, wire_type, tm_wire_offset (w) - 1);
  return FALSE;
}

static gboolean
read_str (TmWire  *w,
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

/* Reads a map<int64, X{id=1, name=2}> entry: key and the value's name. */
static gboolean
read_metadata_entry (TmWire   *entry,
                     gint64   *key,
                     TmStr    *name,
                     GError  **error)
{
  *key = 0;
  name->ptr = NULL;
  name->len = 0;

  while (!tm_wire_at_end (entry))
    {
      guint32 field;
      guint wt;

      if (!tm_wire_read_tag (entry, &field, &wt, error))
        return FALSE;

      if (field == MAP_KEY)
        {
          guint64 v;

          if (!expect_wire_type (entry, field, wt, TM_WIRE_VARINT, N_("in a metadata map key"), error) ||
              !tm_wire_read_varint (entry, &v, error))
            return FALSE;
          *key = (gint64) v;
        }
      else if (field == MAP_VALUE)
        {
          TmWire value;

          if (!expect_wire_type (entry, field, wt, TM_WIRE_LEN, N_("in a metadata map value"), error) ||
              !tm_wire_read_len (entry, &value, error))
            return FALSE;

          /* Occurrences of a message field merge: a later name wins. */
          while (!tm_wire_at_end (&value))
            {
              if (!tm_wire_read_tag (&value, &field, &wt, error))
                return FALSE;
              if (field == METADATA_NAME)
                {
                  if (!expect_wire_type (&value, field, wt, TM_WIRE_LEN, N_("in a metadata name"), error) ||
                      !read_str (&value, name, error))
                    return FALSE;
                }
              else if (!tm_wire_skip (&value, wt, error))
                return FALSE;
            }
        }
      else if (!tm_wire_skip (entry, wt, error))
        return FALSE;
    }

  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Plane structure                                                      */

typedef struct
{
  TmStr   name;
  gboolean has_name;
  GArray *lines;      /* TmWire */
  GArray *event_md;   /* TmWire */
  GArray *stat_md;    /* TmWire */
} PlaneParts;

static void
plane_parts_clear (PlaneParts *parts)
{
  g_clear_pointer (&parts->lines, g_array_unref);
  g_clear_pointer (&parts->event_md, g_array_unref);
  g_clear_pointer (&parts->stat_md, g_array_unref);
}

/* One pass over the plane's top-level fields; with collect, remembers where
 * its lines and metadata entries are. */
static gboolean
scan_plane (TmWire      plane,
            gboolean    collect,
            PlaneParts *parts,
            GError    **error)
{
  memset (parts, 0, sizeof *parts);
  if (collect)
    {
      parts->lines = g_array_new (FALSE, FALSE, sizeof (TmWire));
      parts->event_md = g_array_new (FALSE, FALSE, sizeof (TmWire));
      parts->stat_md = g_array_new (FALSE, FALSE, sizeof (TmWire));
    }

  while (!tm_wire_at_end (&plane))
    {
      guint32 field;
      guint wt;
      TmWire sub;

      if (!tm_wire_read_tag (&plane, &field, &wt, error))
        return FALSE;

      switch (field)
        {
        case XPLANE_NAME:
          if (!expect_wire_type (&plane, field, wt, TM_WIRE_LEN, N_("in XPlane.name"), error) ||
              !read_str (&plane, &parts->name, error))
            return FALSE;
          parts->has_name = TRUE;
          break;

        case XPLANE_LINES:
        case XPLANE_EVENT_METADATA:
        case XPLANE_STAT_METADATA:
          if (!expect_wire_type (&plane, field, wt, TM_WIRE_LEN,
                                 field == XPLANE_LINES ? N_("in XPlane.lines") : N_("in an XPlane metadata map"),
                                 error) ||
              !tm_wire_read_len (&plane, &sub, error))
            return FALSE;
          if (collect)
            g_array_append_val (field == XPLANE_LINES ? parts->lines
                                : field == XPLANE_EVENT_METADATA ? parts->event_md
                                : parts->stat_md,
                                sub);
          break;

        case XPLANE_ID:
          if (!expect_wire_type (&plane, field, wt, TM_WIRE_VARINT, N_("in XPlane.id"), error) ||
              !tm_wire_skip (&plane, wt, error))
            return FALSE;
          break;

        default:
          if (!tm_wire_skip (&plane, wt, error))
            return FALSE;
          break;
        }
    }

  return TRUE;
}

typedef struct
{
  TmWire   wire;
  TmStr    name;
  gint64   timestamp_ns;
} LineInfo;

/* With until_events, stops at the first event: what the line says before
 * its events (where every writer puts its name and timestamp). */
static gboolean
scan_line (TmWire    line,
           gboolean  until_events,
           LineInfo *info,
           GError  **error)
{
  info->wire = line;
  info->name.ptr = NULL;
  info->name.len = 0;
  info->timestamp_ns = 0;

  while (!tm_wire_at_end (&line))
    {
      guint32 field;
      guint wt;

      if (until_events && line.p[0] == ((XLINE_EVENTS << 3) | TM_WIRE_LEN))
        break;

      /* Events are most of a line: skip them in a tight loop (tag 0x22,
       * length below 16 KiB). */
      while (line.end - line.p >= 3 && line.p[0] == 0x22)
        {
          gsize len;
          const guint8 *q = line.p + 1;

          if (q[0] < 0x80)
            len = q[0], q += 1;
          else if (q[1] < 0x80)
            len = (gsize) (q[0] & 0x7f) | ((gsize) q[1] << 7), q += 2;
          else
            break;
          if (len > (gsize) (line.end - q))
            break;
          line.p = q + len;
        }
      if (tm_wire_at_end (&line))
        break;

      if (!tm_wire_read_tag (&line, &field, &wt, error))
        return FALSE;

      if (field == XLINE_NAME)
        {
          if (!expect_wire_type (&line, field, wt, TM_WIRE_LEN, N_("in XLine.name"), error) ||
              !read_str (&line, &info->name, error))
            return FALSE;
        }
      else if (field == XLINE_TIMESTAMP_NS)
        {
          guint64 v;

          if (!expect_wire_type (&line, field, wt, TM_WIRE_VARINT, N_("in XLine.timestamp_ns"), error) ||
              !tm_wire_read_varint (&line, &v, error))
            return FALSE;
          info->timestamp_ns = (gint64) v;
        }
      else if (field == XLINE_EVENTS)
        {
          if (!expect_wire_type (&line, field, wt, TM_WIRE_LEN, N_("in XLine.events"), error) ||
              !tm_wire_skip (&line, wt, error))
            return FALSE;
        }
      else if (!tm_wire_skip (&line, wt, error))
        return FALSE;
    }

  return TRUE;
}

/* The header fields of one event; stats are skipped. */
typedef struct
{
  guint64 metadata_id;
  gint64  offset_ps;
  gint64  duration_ps;
} EventHeader;

static inline gboolean
scan_event_header (TmWire       ev,
                   EventHeader *hdr,
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
        case XEVENT_METADATA_ID:
        case XEVENT_OFFSET_PS:
        case XEVENT_DURATION_PS:
        case XEVENT_NUM_OCCURRENCES:
          if (!expect_wire_type (&ev, field, wt, TM_WIRE_VARINT, N_("in XEvent"), error) ||
              !tm_wire_read_varint (&ev, &v, error))
            return FALSE;
          if (field == XEVENT_METADATA_ID)
            hdr->metadata_id = v;
          else if (field == XEVENT_OFFSET_PS)
            hdr->offset_ps = (gint64) v;
          else if (field == XEVENT_DURATION_PS)
            hdr->duration_ps = (gint64) v;
          else
            hdr->offset_ps = 0;  /* oneof: num_occurrences clears offset_ps */
          break;

        case XEVENT_STATS:
          if (!expect_wire_type (&ev, field, wt, TM_WIRE_LEN, N_("in XEvent.stats"), error) ||
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

/* ------------------------------------------------------------------ */
/* Memory events                                                        */

enum { VALUE_NONE, VALUE_DOUBLE, VALUE_UINT64, VALUE_INT64, VALUE_STR, VALUE_BYTES, VALUE_REF };

static inline gint64
double_to_int (double d)
{
  if (!isfinite (d) || d >= 9.2233720368547758e18 || d <= -9.2233720368547758e18)
    return 0;
  return (gint64) d;
}

static inline __attribute__ ((always_inline)) void
apply_stat (TmHostContext  *ctx,
            TmMemEvent     *ev,
            const StatInfo *info,
            int             vcase,
            guint64         u,
            double          d,
            TmStr           s)
{
  gint64 ival;

  if (info == NULL || info->kind == STAT_OTHER)
    return;

  switch (vcase)
    {
    case VALUE_DOUBLE: ival = double_to_int (d); break;
    case VALUE_UINT64:
    case VALUE_INT64: ival = (gint64) u; break;
    default: ival = 0; break;
    }

  /* A string stat is str_value or a ref_value naming a stat metadata entry. */
  if (vcase == VALUE_REF)
    {
      const StatInfo *ref = lookup_stat (ctx, u);

      s.ptr = NULL;
      s.len = 0;
      if (ref != NULL)
        s = ref->name;
    }
  else if (vcase != VALUE_STR)
    {
      s.ptr = NULL;
      s.len = 0;
    }

  switch ((StatKind) info->kind)
    {
    case STAT_ALLOCATOR_NAME:
      ev->memory_id = s;
      ev->memory_id_is_int = FALSE;
      break;
    case STAT_INDEX_ON_HOST:
    case STAT_DEVICE_ORDINAL:
      ev->memory_id_int = ival;
      ev->memory_id_is_int = TRUE;
      break;
    case STAT_BYTES_RESERVED: ev->stack = ival; break;
    case STAT_BYTES_ALLOCATED: ev->heap = ival; break;
    case STAT_BYTES_AVAILABLE: ev->free_bytes = ival; break;
    case STAT_FRAGMENTATION:
      ev->fragmentation = vcase == VALUE_DOUBLE ? d
                          : vcase == VALUE_UINT64 ? (double) u
                          : vcase == VALUE_INT64 ? (double) (gint64) u
                          : 0.0;
      break;
    case STAT_PEAK_BYTES_IN_USE: ev->peak_bytes_in_use = ival; break;
    case STAT_REQUESTED_BYTES: ev->requested_bytes = ival; break;
    case STAT_ALLOCATION_BYTES: ev->allocation_bytes = ival; break;
    case STAT_ADDR: ev->address = (guint64) ival; break;
    case STAT_TF_OP: ev->op = s; break;
    case STAT_GROUP_ID: ev->group_id = ival; break;
    case STAT_REGION_TYPE: ev->region = s; break;
    case STAT_DATA_TYPE: ev->data_type = ival; break;
    case STAT_SHAPE: ev->shape = s; break;
    case STAT_OTHER:
    default:
      break;
    }
}


static inline gboolean
decode_stat (TmHostContext *ctx,
             TmWire         st,
             TmMemEvent    *ev,
             GError       **error)
{
  guint64 md = 0;
  guint64 u = 0;
  double d = 0;
  TmStr s = { NULL, 0 };
  int vcase = VALUE_NONE;

  while (!tm_wire_at_end (&st))
    {
      guint32 field;
      guint wt;

      if (!tm_wire_read_tag (&st, &field, &wt, error))
        return FALSE;

      switch (field)
        {
        case XSTAT_METADATA_ID:
          if (!expect_wire_type (&st, field, wt, TM_WIRE_VARINT, N_("in XStat.metadata_id"), error) ||
              !tm_wire_read_varint (&st, &md, error))
            return FALSE;
          break;

        case XSTAT_DOUBLE:
          {
            guint64 bits;

            if (!expect_wire_type (&st, field, wt, TM_WIRE_I64, N_("in XStat.double_value"), error) ||
                !tm_wire_read_fixed64 (&st, &bits, error))
              return FALSE;
            memcpy (&d, &bits, sizeof d);
            vcase = VALUE_DOUBLE;
          }
          break;

        case XSTAT_UINT64:
        case XSTAT_INT64:
        case XSTAT_REF:
          if (!expect_wire_type (&st, field, wt, TM_WIRE_VARINT, N_("in XStat"), error) ||
              !tm_wire_read_varint (&st, &u, error))
            return FALSE;
          vcase = field == XSTAT_UINT64 ? VALUE_UINT64 : field == XSTAT_INT64 ? VALUE_INT64 : VALUE_REF;
          break;

        case XSTAT_STR:
        case XSTAT_BYTES:
          if (!expect_wire_type (&st, field, wt, TM_WIRE_LEN, N_("in XStat"), error) ||
              !read_str (&st, &s, error))
            return FALSE;
          vcase = field == XSTAT_STR ? VALUE_STR : VALUE_BYTES;
          break;

        default:
          if (!tm_wire_skip (&st, wt, error))
            return FALSE;
          break;
        }
    }

  apply_stat (ctx, ev, lookup_stat (ctx, md), vcase, u, d, s);
  return TRUE;
}

/* Decodes a whole memory event (header and stats). kind is left alone. */
static gboolean
decode_memory_event (TmHostContext *ctx,
                     TmWire         ev_wire,
                     TmMemEvent    *ev,
                     GError       **error)
{
  TmActivityKind kind = ev->kind;

  memset (ev, 0, sizeof *ev);
  ev->kind = kind;
  ev->group_id = -1;
  ev->data_type = G_MININT64;  /* absent: XProf leaves the name empty */

  while (!tm_wire_at_end (&ev_wire))
    {
      guint32 field;
      guint wt;
      guint64 v;
      TmWire st;

      /* Fast path for the usual shape of a stat, as every profiler writes
       * it: one-byte length, a metadata id below 128 first, then one value
       * that ends the stat exactly. Stats the memory profile does not use
       * are skipped by their length. Anything else takes the general path
       * below, which checks everything. */
      {
        const guint8 *p = ev_wire.p;
        const guint8 *end = ev_wire.end;

        while (end - p >= 6 && p[0] == 0x22 && p[1] < 0x80 && p[2] == 0x08 && p[3] < ctx->n_small &&
               p[3] < 0x80 && p + 2 + p[1] <= end)
          {
            const guint8 *stat_end = p + 2 + p[1];
            const StatInfo *info = &ctx->small[p[3]];
            const guint8 *q = p + 5;
            guint8 vtag = p[4];
            guint64 u = 0;
            double d = 0;
            TmStr str = { NULL, 0 };
            int vcase;

            if (info->kind == STAT_OTHER)
              {
                p = stat_end;
                continue;
              }

            if (vtag == 0x18 || vtag == 0x20 || vtag == 0x38)
              {
                guint shift = 0;

                for (;;)
                  {
                    if (q >= stat_end || shift > 63)
                      goto general;
                    u |= (guint64) (*q & 0x7f) << shift;
                    if (*q++ < 0x80)
                      break;
                    shift += 7;
                  }
                vcase = vtag == 0x18 ? VALUE_UINT64 : vtag == 0x20 ? VALUE_INT64 : VALUE_REF;
              }
            else if (vtag == 0x11 && stat_end - q == 8)
              {
                memcpy (&u, q, 8);
                u = GUINT64_FROM_LE (u);
                memcpy (&d, &u, sizeof d);
                q += 8;
                vcase = VALUE_DOUBLE;
              }
            else if (vtag == 0x2a && q < stat_end && q[0] < 0x80 && q + 1 + q[0] == stat_end)
              {
                str.ptr = q + 1;
                str.len = q[0];
                q = stat_end;
                vcase = VALUE_STR;
              }
            else
              goto general;

            if (q != stat_end)
              goto general;

            apply_stat (ctx, ev, info, vcase, u, d, str);
            p = stat_end;
          }

      general:
        ev_wire.p = p;
        if (tm_wire_at_end (&ev_wire))
          break;
      }

      if (!tm_wire_read_tag (&ev_wire, &field, &wt, error))
        return FALSE;

      switch (field)
        {
        case XEVENT_STATS:
          if (!expect_wire_type (&ev_wire, field, wt, TM_WIRE_LEN, N_("in XEvent.stats"), error) ||
              !tm_wire_read_len (&ev_wire, &st, error) ||
              !decode_stat (ctx, st, ev, error))
            return FALSE;
          break;

        case XEVENT_OFFSET_PS:
        case XEVENT_NUM_OCCURRENCES:
        case XEVENT_METADATA_ID:
        case XEVENT_DURATION_PS:
          if (!expect_wire_type (&ev_wire, field, wt, TM_WIRE_VARINT, N_("in XEvent"), error) ||
              !tm_wire_read_varint (&ev_wire, &v, error))
            return FALSE;
          if (field == XEVENT_OFFSET_PS)
            ev->offset_ps = (gint64) v;
          else if (field == XEVENT_NUM_OCCURRENCES)
            ev->offset_ps = 0;
          else if (field == XEVENT_METADATA_ID)
            ev->metadata_id = v;
          break;

        default:
          if (!tm_wire_skip (&ev_wire, wt, error))
            return FALSE;
          break;
        }
    }

  return TRUE;
}

typedef struct
{
  TmHostContext *ctx;
  guint64        offset;
  TmMemEvent    *event;
} DecodeJob;

static gboolean
decode_job (gpointer   data,
            GError   **error)
{
  DecodeJob *job = data;
  TmSource *source = job->ctx->source;
  TmWire w, ev;

  tm_wire_init (&w, tm_source_get_data (source), tm_source_get_size (source));
  if (job->offset >= tm_source_get_size (source))
    {
      g_set_error (error, TM_ERROR, TM_ERROR_CHANGED,
                   _("changed while reading: byte %" PRIu64 " is past the end"),
                   job->offset);
      return FALSE;
    }
  w.p = w.base + job->offset;
  if (!tm_wire_read_len (&w, &ev, error))
    return FALSE;
  return decode_memory_event (job->ctx, ev, job->event, error);
}

gboolean
tm_host_context_decode (TmHostContext  *ctx,
                        guint64         ref_offset,
                        TmMemEvent     *event,
                        GError        **error)
{
  DecodeJob job = { ctx, ref_offset, event };

  return tm_source_run_guarded (ctx->source, decode_job, &job, error);
}

/* ------------------------------------------------------------------ */
/* The reader                                                           */

typedef struct
{
  TmSource       *source;
  const guint8   *base;
  gsize           size;
  TmXSpaceResult *result;
  TmProgressFunc  progress;
  gpointer        progress_data;
  GCancellable   *cancellable;
  guint64         last_progress;

  TmHostContext  *ctx;

  /* Event metadata of the plane being read: id → kind. */
  guint           n_small_events;
  guint8         *small_events;
  GHashTable     *big_events;    /* gint64 → kind */

  GHashTable     *stores;        /* memory id (char *) → TmMemoryStore (borrowed) */
  gsize           host_start;    /* where the host plane's lines start */
  gint64         *host_done_a;   /* bytes of host lines done by each thread (atomic) */
  gint64         *host_done_b;
  gboolean        line_clock_changed;
  TmMemoryStore  *last_store;
  gboolean        last_is_int;
  gint64          last_int;
  TmStr           last_str;
} Reader;

static void
report_progress (Reader  *r,
                 gsize    offset)
{
  if (r->progress != NULL && offset > r->last_progress)
    {
      r->last_progress = offset;
      r->progress (offset, r->size, r->progress_data);
    }
}

static gboolean
check_cancelled (Reader  *r,
                 GError **error)
{
  return g_cancellable_set_error_if_cancelled (r->cancellable, error);
}

static guint8
lookup_event_kind (Reader  *r,
                   guint64  id)
{
  if (id < r->n_small_events)
    return r->small_events[id];
  if (r->big_events != NULL)
    return GPOINTER_TO_UINT (g_hash_table_lookup (r->big_events, &id));
  return 0;
}

static void
clear_event_kinds (Reader *r)
{
  g_clear_pointer (&r->small_events, g_free);
  g_clear_pointer (&r->big_events, g_hash_table_unref);
  r->n_small_events = 0;
}

typedef struct
{
  gint64 key;
  TmStr  name;
} Entry;

static gboolean
read_entries (GArray   *wires,
              GArray   *entries,
              gint64   *max_small,
              GError  **error)
{
  *max_small = -1;

  for (guint i = 0; i < wires->len; i++)
    {
      Entry e;

      if (!read_metadata_entry (&g_array_index (wires, TmWire, i), &e.key, &e.name, error))
        return FALSE;
      g_array_append_val (entries, e);
      if (e.key >= 0 && e.key < (gint64) SMALL_ID_LIMIT && e.key > *max_small)
        *max_small = e.key;
    }

  return TRUE;
}

static gboolean
load_event_kinds (Reader      *r,
                  PlaneParts  *parts,
                  GError     **error)
{
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  gint64 max_small;

  clear_event_kinds (r);
  if (!read_entries (parts->event_md, entries, &max_small, error))
    return FALSE;

  r->n_small_events = (guint) (max_small + 1);
  r->small_events = g_new0 (guint8, MAX (r->n_small_events, 1));

  for (guint i = 0; i < entries->len; i++)
    {
      const Entry *e = &g_array_index (entries, Entry, i);
      guint8 kind = str_equal (e->name, "MemoryAllocation") ? TM_ACTIVITY_ALLOCATION
                    : str_equal (e->name, "MemoryDeallocation") ? TM_ACTIVITY_DEALLOCATION
                    : TM_ACTIVITY_UNKNOWN;

      if (e->key >= 0 && e->key < (gint64) r->n_small_events)
        r->small_events[e->key] = kind;
      else
        {
          if (r->big_events == NULL)
            r->big_events = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
          g_hash_table_insert (r->big_events, g_memdup2 (&e->key, sizeof e->key), GUINT_TO_POINTER (kind));
        }
    }

  return TRUE;
}

static gboolean
load_stat_metadata (TmHostContext  *ctx,
                    PlaneParts     *parts,
                    GError        **error)
{
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  gint64 max_small;

  if (!read_entries (parts->stat_md, entries, &max_small, error))
    return FALSE;

  ctx->n_small = (guint) (max_small + 1);
  ctx->small = g_new0 (StatInfo, MAX (ctx->n_small, 1));

  for (guint i = 0; i < entries->len; i++)
    {
      const Entry *e = &g_array_index (entries, Entry, i);
      StatInfo info = { (guint8) classify_stat_name (e->name), e->name };

      if (e->key >= 0 && e->key < (gint64) ctx->n_small)
        ctx->small[e->key] = info;
      else
        {
          if (ctx->big == NULL)
            ctx->big = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
          g_hash_table_insert (ctx->big, g_memdup2 (&e->key, sizeof e->key), g_memdup2 (&info, sizeof info));
        }
    }

  return TRUE;
}

static TmMemoryStore *
store_for_event (Reader           *r,
                 const TmMemEvent *ev)
{
  g_autofree char *id = NULL;
  TmMemoryStore *store;

  if (r->last_store != NULL && r->last_is_int == ev->memory_id_is_int)
    {
      if (ev->memory_id_is_int ? ev->memory_id_int == r->last_int
                               : (ev->memory_id.len == r->last_str.len &&
                                  (ev->memory_id.len == 0 ||
                                   memcmp (ev->memory_id.ptr, r->last_str.ptr, ev->memory_id.len) == 0)))
        return r->last_store;
    }

  if (ev->memory_id_is_int)
    id = g_strdup_printf ("%" G_GINT64_FORMAT, ev->memory_id_int);
  else
    id = g_strndup (ev->memory_id.len > 0 ? (const char *) ev->memory_id.ptr : "", ev->memory_id.len);

  store = g_hash_table_lookup (r->stores, id);
  if (store == NULL)
    {
      store = tm_memory_store_new (id, r->ctx);
      g_ptr_array_add (r->result->stores, store);
      g_hash_table_insert (r->stores, g_steal_pointer (&id), store);
    }

  r->last_store = store;
  r->last_is_int = ev->memory_id_is_int;
  r->last_int = ev->memory_id_int;
  r->last_str = ev->memory_id;

  return store;
}

static void
append_memory_event (TmMemoryStore    *store,
                     const TmMemEvent *ev,
                     gint64            time_ps,
                     guint64           ref_offset)
{
  guint i = tm_memory_store_grow (store);
  TmSummary *s = &store->summary;
  gint64 used = ev->stack + ev->heap;

  store->times[i] = time_ps;
  store->stack[i] = ev->stack;
  store->heap[i] = ev->heap;
  store->free_bytes[i] = ev->free_bytes;
  store->frag[i] = ev->fragmentation;
  tm_memory_store_set_step (store, i, ev->group_id);
  store->refs[i] = ref_offset | ((guint64) ev->kind << TM_REF_KIND_SHIFT);
  store->addrs[i] = ev->address;
  if (i > 0 && time_ps < store->times[i - 1])
    store->time_sorted = FALSE;

  if (ev->free_bytes != 0)
    store->has_free = TRUE;

  /* §3.1, folding in file order. */
  if (i == 0 || ev->peak_bytes_in_use > s->peak_bytes_usage_lifetime)
    s->peak_bytes_usage_lifetime = ev->peak_bytes_in_use;
  s->last_peak_bytes_in_use = ev->peak_bytes_in_use;
  if (used >= s->peak_bytes_in_use)
    {
      s->peak_bytes_in_use = used;
      s->peak_stats_peak_bytes_in_use = used;
      s->peak_time_ps = time_ps;
      s->peak_stack_bytes = ev->stack;
      s->peak_heap_bytes = ev->heap;
      s->peak_free_bytes = ev->free_bytes;
      s->peak_fragmentation = ev->fragmentation;
      s->memory_capacity = used + ev->free_bytes;
      store->have_window_peak = TRUE;
    }

  if (ev->kind == TM_ACTIVITY_ALLOCATION)
    s->n_allocations++;
  else
    s->n_deallocations++;

}

/* Reads the memory events of lines [from, to). Adds what it has done to
 * *done (bytes of those lines), which another thread may read. */
static gboolean
read_lines (Reader        *r,
            const GArray  *lines,
            guint          from,
            guint          to,
            gint64         min_ts,
            gint64        *done,
            guint64       *n_events_out,
            GError       **error)
{
  guint64 n_events = 0;

  for (guint i = from; i < to; i++)
    {
      const LineInfo *info = &g_array_index (lines, LineInfo, i);
      TmWire line = info->wire;
      /* Put every line on the clock of the earliest one (§2.1). */
      gint64 adjust_ps = (gint64) ((guint64) (info->timestamp_ns - min_ts) * 1000u);
      const guint8 *counted = line.p;

      while (!tm_wire_at_end (&line))
        {
          guint32 field;
          guint wt;
          gsize len_offset;
          TmWire ev_wire;
          EventHeader hdr;
          guint8 kind;

          if (!tm_wire_read_tag (&line, &field, &wt, error))
            return FALSE;

          if (field != XLINE_EVENTS)
            {
              if (field == XLINE_TIMESTAMP_NS)
                {
                  guint64 v;

                  if (!expect_wire_type (&line, field, wt, TM_WIRE_VARINT, N_("in XLine.timestamp_ns"), error) ||
                      !tm_wire_read_varint (&line, &v, error))
                    return FALSE;
                  /* The line's clock is not what its header said: the
                   * caller reads the plane again, the careful way. */
                  if ((gint64) v != info->timestamp_ns)
                    r->line_clock_changed = TRUE;
                }
              else if (field == XLINE_NAME)
                {
                  if (!expect_wire_type (&line, field, wt, TM_WIRE_LEN, N_("in XLine.name"), error) ||
                      !tm_wire_skip (&line, wt, error))
                    return FALSE;
                }
              else if (!tm_wire_skip (&line, wt, error))
                return FALSE;
              continue;
            }

          if (!expect_wire_type (&line, field, wt, TM_WIRE_LEN, N_("in XLine.events"), error))
            return FALSE;
          len_offset = tm_wire_offset (&line);
          if (!tm_wire_read_len (&line, &ev_wire, error))
            return FALSE;

          if ((++n_events % CANCEL_CHECK_INTERVAL) == 0)
            {
              if (check_cancelled (r, error))
                return FALSE;
              g_atomic_pointer_add (done, (gssize) (line.p - counted));
              counted = line.p;
              if (r->progress != NULL)
                report_progress (r, r->host_start + (gsize) g_atomic_pointer_get (r->host_done_a) +
                                 (gsize) g_atomic_pointer_get (r->host_done_b));
            }

          /* Most events start with their metadata id: a memory event is
           * then decoded in one pass, and its last metadata id (a later one
           * wins) decides. Everything else gets its header read first. */
          if (ev_wire.end - ev_wire.p >= 2 && ev_wire.p[0] == ((XEVENT_METADATA_ID << 3) | TM_WIRE_VARINT) &&
              ev_wire.p[1] < 0x80 && lookup_event_kind (r, ev_wire.p[1]) != TM_ACTIVITY_UNKNOWN)
            {
              TmMemEvent ev;

              ev.kind = TM_ACTIVITY_UNKNOWN;
              if (!decode_memory_event (r->ctx, ev_wire, &ev, error))
                return FALSE;
              ev.kind = lookup_event_kind (r, ev.metadata_id);
              if (ev.kind != TM_ACTIVITY_UNKNOWN)
                append_memory_event (store_for_event (r, &ev), &ev, ev.offset_ps + adjust_ps, len_offset);
              continue;
            }

          if (!scan_event_header (ev_wire, &hdr, error))
            return FALSE;


          kind = lookup_event_kind (r, hdr.metadata_id);
          if (kind != TM_ACTIVITY_UNKNOWN)
            {
              TmMemEvent ev;
              TmMemoryStore *store;

              ev.kind = kind;
              if (!decode_memory_event (r->ctx, ev_wire, &ev, error))
                return FALSE;
              store = store_for_event (r, &ev);
              append_memory_event (store, &ev, ev.offset_ps + adjust_ps, len_offset);
            }
        }
      g_atomic_pointer_add (done, (gssize) (line.p - counted));
    }

  *n_events_out = n_events;
  return TRUE;
}

typedef struct
{
  Reader         reader;
  TmXSpaceResult result;
  const GArray  *lines;
  guint          from;
  guint          to;
  gint64         min_ts;
  guint64        n_events;
  gboolean       ok;
  GError        *error;
} HalfJob;

static gboolean
half_job_guarded (gpointer   data,
                  GError   **error)
{
  HalfJob *job = data;

  return read_lines (&job->reader, job->lines, job->from, job->to, job->min_ts,
                     job->reader.host_done_b, &job->n_events, error);
}

static gpointer
half_job_thread (gpointer data)
{
  HalfJob *job = data;

  job->ok = tm_source_run_guarded (job->reader.source, half_job_guarded, job, &job->error);
  return NULL;
}

/* Events from a helper thread's later lines follow this reader's in file
 * order: append them store by store. */
static void
merge_half (Reader         *r,
            TmXSpaceResult *half)
{
  for (guint i = 0; i < half->stores->len; i++)
    {
      TmMemoryStore *later = g_ptr_array_index (half->stores, i);
      TmMemoryStore *store = g_hash_table_lookup (r->stores, later->id);

      if (store == NULL)
        {
          g_ptr_array_add (r->result->stores, g_object_ref (later));
          g_hash_table_insert (r->stores, g_strdup (later->id), later);
        }
      else
        tm_memory_store_append (store, later);
    }
}

/* Host planes below this size are read by one thread; tests lower it with
 * TM_READ_PARALLEL_MIN_BYTES to check that both ways give the same. */
static gsize
parallel_min_bytes (void)
{
  const char *env = g_getenv ("TM_READ_PARALLEL_MIN_BYTES");

  return env != NULL ? (gsize) g_ascii_strtoull (env, NULL, 10) : 16u << 20;
}

typedef struct
{
  TmSource      *source;
  const GArray  *wires;   /* TmWire, one per line */
  GArray        *lines;   /* LineInfo, filled in [from, to) */
  guint          from;
  guint          to;
  gboolean       until_events;
  gboolean       ok;
  GError        *error;
} ScanJob;

static gboolean
scan_job_guarded (gpointer   data,
                  GError   **error)
{
  ScanJob *job = data;

  for (guint i = job->from; i < job->to; i++)
    if (!scan_line (g_array_index (job->wires, TmWire, i), job->until_events,
                    &g_array_index (job->lines, LineInfo, i), error))
      return FALSE;
  return TRUE;
}

static gpointer
scan_job_thread (gpointer data)
{
  ScanJob *job = data;

  job->ok = tm_source_run_guarded (job->source, scan_job_guarded, job, &job->error);
  return NULL;
}

static gboolean
read_host_plane_once (Reader      *r,
                      PlaneParts  *parts,
                      gboolean     careful,
                      GError     **error)
{
  g_autoptr(GArray) lines = g_array_new (FALSE, TRUE, sizeof (LineInfo));
  gint64 min_ts = G_MAXINT64;
  gint64 done_a = 0, done_b = 0;
  gsize total = 0, half = 0;
  guint split;
  guint64 n_events = 0;
  HalfJob *job = NULL;
  GThread *thread = NULL;
  gboolean ok;

  for (guint i = 0; i < parts->lines->len; i++)
    {
      const TmWire *w = &g_array_index (parts->lines, TmWire, i);
      total += (gsize) (w->end - w->p);
    }

  /* A large host plane is read by two threads: this one takes the first
   * lines, a helper the rest (about half the bytes each); the helper's
   * stores are appended to these afterwards, so file order is kept. Both
   * passes (line headers, then events) are split the same way. */
  split = parts->lines->len;
  if (total >= parallel_min_bytes () && parts->lines->len >= 2 && g_get_num_processors () >= 2)
    {
      for (split = 0; split < parts->lines->len - 1 && half < total / 2; split++)
        {
          const TmWire *w = &g_array_index (parts->lines, TmWire, split);
          half += (gsize) (w->end - w->p);
        }
      if (split == 0)
        split = 1;
    }

  /* Every line's timestamp is needed before any event is placed (§2.1).
   * Writers put it before the events, so read what each line says before
   * its events; if the event pass then meets a different timestamp after
   * them, the caller reads again, carefully: every line whole first. */
  g_array_set_size (lines, parts->lines->len);
  {
    ScanJob first = { r->source, parts->lines, lines, 0, split, !careful, FALSE, NULL };
    ScanJob second = { r->source, parts->lines, lines, split, parts->lines->len, !careful, TRUE, NULL };
    GThread *scanner = NULL;

    if (split < parts->lines->len)
      scanner = g_thread_new ("tidemark-scan", scan_job_thread, &second);
    first.ok = scan_job_guarded (&first, &first.error);
    if (scanner != NULL)
      g_thread_join (scanner);

    if (!first.ok || !second.ok)
      {
        g_propagate_error (error, !first.ok ? g_steal_pointer (&first.error) : g_steal_pointer (&second.error));
        g_clear_error (&first.error);
        g_clear_error (&second.error);
        return FALSE;
      }
  }

  for (guint i = 0; i < lines->len; i++)
    min_ts = MIN (min_ts, g_array_index (lines, LineInfo, i).timestamp_ns);

  r->host_start = lines->len > 0 ? (gsize) (g_array_index (lines, LineInfo, 0).wire.p - r->base) : 0;
  r->host_done_a = &done_a;
  r->host_done_b = &done_b;

  if (split < lines->len)
    {
      job = g_new0 (HalfJob, 1);
      job->reader = *r;
      job->reader.progress = NULL;
      job->reader.stores = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      job->reader.last_store = NULL;
      job->result.stores = g_ptr_array_new_with_free_func (g_object_unref);
      job->reader.result = &job->result;
      job->lines = lines;
      job->from = split;
      job->to = lines->len;
      job->min_ts = min_ts;
      thread = g_thread_new ("tidemark-read", half_job_thread, job);
    }

  ok = read_lines (r, lines, 0, split, min_ts, &done_a, &n_events, error);

  if (thread != NULL)
    {
      g_thread_join (thread);
      if (ok && !job->ok)
        {
          g_propagate_error (error, g_steal_pointer (&job->error));
          ok = FALSE;
        }
      if (ok)
        {
          merge_half (r, &job->result);
          n_events += job->n_events;
          r->line_clock_changed |= job->reader.line_clock_changed;
        }
      g_clear_error (&job->error);
      g_hash_table_unref (job->reader.stores);
      g_ptr_array_unref (job->result.stores);
      g_free (job);
    }

  r->host_done_a = NULL;
  r->host_done_b = NULL;
  r->result->n_host_events = n_events;
  return ok;
}

static gboolean
read_host_plane (Reader      *r,
                 PlaneParts  *parts,
                 GError     **error)
{
  if (!load_event_kinds (r, parts, error) ||
      !load_stat_metadata (r->ctx, parts, error))
    return FALSE;

  r->line_clock_changed = FALSE;
  if (!read_host_plane_once (r, parts, FALSE, error))
    return FALSE;
  if (!r->line_clock_changed)
    return TRUE;

  /* A line's timestamp came after its events: start this plane again. */
  g_ptr_array_set_size (r->result->stores, 0);
  g_hash_table_remove_all (r->stores);
  r->last_store = NULL;
  return read_host_plane_once (r, parts, TRUE, error);
}

static gboolean
read_tpu_plane (Reader      *r,
                PlaneParts  *parts,
                GError     **error)
{
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  g_autoptr(GHashTable) names = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree char *device = NULL;
  gint64 max_small;

  if (!read_entries (parts->event_md, entries, &max_small, error))
    return FALSE;
  for (guint i = 0; i < entries->len; i++)
    {
      Entry *e = &g_array_index (entries, Entry, i);
      g_hash_table_insert (names, &e->key, &e->name);
    }

  device = g_strndup ((const char *) parts->name.ptr + strlen (DEVICE_PREFIX),
                      parts->name.len - strlen (DEVICE_PREFIX));

  for (guint i = 0; i < parts->lines->len; i++)
    {
      LineInfo info;
      TmWire line;

      if (!scan_line (g_array_index (parts->lines, TmWire, i), FALSE, &info, error))
        return FALSE;
      if (!str_equal (info.name, XLA_MODULES_LINE))
        continue;

      line = info.wire;
      while (!tm_wire_at_end (&line))
        {
          guint32 field;
          guint wt;
          TmWire ev_wire;
          EventHeader hdr;
          TmHloModule module;
          const TmStr *name;

          if (!tm_wire_read_tag (&line, &field, &wt, error))
            return FALSE;
          if (field != XLINE_EVENTS)
            {
              if (!tm_wire_skip (&line, wt, error))
                return FALSE;
              continue;
            }
          if (!tm_wire_read_len (&line, &ev_wire, error) ||
              !scan_event_header (ev_wire, &hdr, error))
            return FALSE;

          name = g_hash_table_lookup (names, &hdr.metadata_id);
          module.id = r->result->hlo_modules->len;
          module.name = name != NULL && name->len > 0 ? g_strndup ((const char *) name->ptr, name->len) : g_strdup ("");
          module.start_ps = hdr.offset_ps;
          module.end_ps = hdr.offset_ps + hdr.duration_ps;
          module.device = g_strdup (device);
          g_array_append_val (r->result->hlo_modules, module);
        }
    }

  return TRUE;
}

static void
clear_hlo_module (gpointer data)
{
  TmHloModule *module = data;

  g_free (module->name);
  g_free (module->device);
}

static gboolean
read_job (gpointer   data,
          GError   **error)
{
  Reader *r = data;
  TmWire space;
  gboolean first = TRUE;

  tm_wire_init (&space, r->base, r->size);

  while (!tm_wire_at_end (&space))
    {
      guint32 field;
      guint wt;
      TmWire plane;
      PlaneParts parts;
      gboolean is_host, is_tpu;

      if (first)
        {
          g_autoptr(GError) inner = NULL;

          if (!tm_wire_read_tag (&space, &field, &wt, &inner))
            {
              g_set_error (error, TM_ERROR, TM_ERROR_NOT_PROTOBUF,
                           _("not a profile: the file is neither an XSpace protobuf nor a memory-profile JSON (%s)"),
                           inner->message);
              return FALSE;
            }
        }
      else if (!tm_wire_read_tag (&space, &field, &wt, error))
        return FALSE;
      first = FALSE;

      if (field != XSPACE_PLANES)
        {
          if (!tm_wire_skip (&space, wt, error))
            return FALSE;
          continue;
        }

      if (!expect_wire_type (&space, field, wt, TM_WIRE_LEN, N_("in XSpace.planes"), error) ||
          !tm_wire_read_len (&space, &plane, error))
        return FALSE;

      r->result->n_planes++;

      if (!scan_plane (plane, FALSE, &parts, error))
        return FALSE;

      is_host = parts.has_name && str_equal (parts.name, HOST_PLANE_NAME) && !r->result->has_host_plane;
      is_tpu = parts.has_name && str_has_prefix (parts.name, TPU_PLANE_PREFIX);

      if (is_host || is_tpu)
        {
          gboolean ok;

          if (!scan_plane (plane, TRUE, &parts, error))
            {
              plane_parts_clear (&parts);
              return FALSE;
            }

          if (is_host)
            {
              r->result->has_host_plane = TRUE;
              ok = read_host_plane (r, &parts, error);
            }
          else
            ok = read_tpu_plane (r, &parts, error);

          plane_parts_clear (&parts);
          if (!ok)
            return FALSE;
        }

      if (check_cancelled (r, error))
        return FALSE;
      report_progress (r, tm_wire_offset (&space));
    }

  return TRUE;
}

gboolean
tm_xspace_read (TmSource        *source,
                TmXSpaceResult  *result,
                TmProgressFunc   progress,
                gpointer         progress_data,
                GCancellable    *cancellable,
                GError         **error)
{
  Reader r = { 0 };
  gboolean ok;

  g_return_val_if_fail (source != NULL, FALSE);
  g_return_val_if_fail (result != NULL, FALSE);

  memset (result, 0, sizeof *result);
  result->stores = g_ptr_array_new_with_free_func (g_object_unref);
  result->hlo_modules = g_array_new (FALSE, FALSE, sizeof (TmHloModule));
  g_array_set_clear_func (result->hlo_modules, clear_hlo_module);

  r.source = source;
  r.base = tm_source_get_data (source);
  r.size = tm_source_get_size (source);
  r.result = result;
  r.progress = progress;
  r.progress_data = progress_data;
  r.cancellable = cancellable;
  r.stores = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r.ctx = g_new0 (TmHostContext, 1);
  g_atomic_ref_count_init (&r.ctx->ref_count);
  r.ctx->source = tm_source_ref (source);

  ok = tm_source_run_guarded (source, read_job, &r, error);

  clear_event_kinds (&r);
  g_hash_table_unref (r.stores);
  tm_host_context_unref (r.ctx);

  if (!ok)
    {
      tm_xspace_result_clear (result);
      return FALSE;
    }

  report_progress (&r, r.size);
  return TRUE;
}
