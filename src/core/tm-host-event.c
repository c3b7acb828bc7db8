/* tm-host-event.c — one memory event of the host plane, decoded from its bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Any field may come in any order and more than once (the later singular
 * value wins); unknown fields are skipped; a known field with the wrong wire
 * type is an error.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "tm-error.h"
#include "tm-host-event.h"

/* Stats the memory profile reads (docs/formats.md, section 1). */
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

typedef struct
{
  guint8  kind;
  guint8  scan_kind;   /* kind, or STAT_OTHER for a stat the loader leaves to later */
  TmStr   name;
} StatInfo;

/* What decode_event's fast path does with a stat, by metadata id. */
enum
{
  ACT_CHECK,   /* never read, or read later on demand: only check its shape */
  ACT_INT,     /* a plain integer field of the event, at int_offset */
  ACT_APPLY,   /* anything else: apply_stat() */
};

/* The integer fields of TmMemEvent that a stat sets as it is, by kind; 0
 * for the others (no such field is at offset 0). Sized to the last kind. */
G_STATIC_ASSERT (sizeof (TmMemEvent) <= G_MAXUINT8);
static const guint8 int_offsets[STAT_SHAPE + 1] = {
  [STAT_BYTES_RESERVED] = G_STRUCT_OFFSET (TmMemEvent, stack),
  [STAT_BYTES_ALLOCATED] = G_STRUCT_OFFSET (TmMemEvent, heap),
  [STAT_BYTES_AVAILABLE] = G_STRUCT_OFFSET (TmMemEvent, free_bytes),
  [STAT_PEAK_BYTES_IN_USE] = G_STRUCT_OFFSET (TmMemEvent, peak_bytes_in_use),
  [STAT_REQUESTED_BYTES] = G_STRUCT_OFFSET (TmMemEvent, requested_bytes),
  [STAT_ALLOCATION_BYTES] = G_STRUCT_OFFSET (TmMemEvent, allocation_bytes),
  [STAT_ADDR] = G_STRUCT_OFFSET (TmMemEvent, address),
  [STAT_GROUP_ID] = G_STRUCT_OFFSET (TmMemEvent, group_id),
  [STAT_DATA_TYPE] = G_STRUCT_OFFSET (TmMemEvent, data_type),
};

/* The wire tag of a stat's value (XStat fields 2 to 7), as the fast path
 * takes it. */
enum { VC_OTHER, VC_UINT64, VC_INT64, VC_REF, VC_DOUBLE, VC_STR };
static const guint8 value_class[256] = {
  [0x11] = VC_DOUBLE,  /* double_value, fixed 64 */
  [0x18] = VC_UINT64,  /* uint64_value */
  [0x20] = VC_INT64,   /* int64_value */
  [0x2a] = VC_STR,     /* str_value */
  [0x38] = VC_REF,     /* ref_value */
};

struct _TmHostContext
{
  gatomicrefcount  ref_count;
  TmSource        *source;
  guint            n_small;
  StatInfo        *small;      /* indexed by stat metadata id */
  guint8          *decode_act; /* ACT_*, by small metadata id, for a whole decode */
  guint8          *scan_act;   /* the same for the loader's scan */
  guint8          *int_offset; /* for ACT_INT, by small metadata id */
  GHashTable      *big;        /* gint64 id → StatInfo */
};

static StatKind
classify_stat_name (TmStr name)
{
  for (guint i = 0; i < G_N_ELEMENTS (stat_names); i++)
    if (tm_str_equal (name, stat_names[i].name))
      return stat_names[i].kind;
  return STAT_OTHER;
}

/* What the loader keeps of an event (tm_host_event_scan): the memory id,
 * the columns and the summary's figures, the step and the address. The
 * rest (sizes, op, region, data type, shape) is decoded from the event's
 * bytes when it is asked for. */
static StatKind
scan_kind (StatKind kind)
{
  switch (kind)
    {
    case STAT_REQUESTED_BYTES:
    case STAT_ALLOCATION_BYTES:
    case STAT_TF_OP:
    case STAT_REGION_TYPE:
    case STAT_DATA_TYPE:
    case STAT_SHAPE:
      return STAT_OTHER;
    default:
      return kind;
    }
}

gboolean
tm_host_event_is_memory_stat_name (TmStr name)
{
  return classify_stat_name (name) != STAT_OTHER;
}

TmHostContext *
tm_host_context_new (TmSource             *source,
                     const TmMetadataName *stats,
                     guint                 n_stats)
{
  TmHostContext *ctx = g_new0 (TmHostContext, 1);
  gint64 max_small = -1;

  g_atomic_ref_count_init (&ctx->ref_count);
  ctx->source = tm_source_ref (source);

  for (guint i = 0; i < n_stats; i++)
    if (stats[i].id >= 0 && stats[i].id < (gint64) TM_SMALL_ID_LIMIT && stats[i].id > max_small)
      max_small = stats[i].id;

  ctx->n_small = (guint) (max_small + 1);
  ctx->small = g_new0 (StatInfo, MAX (ctx->n_small, 1));
  ctx->decode_act = g_new0 (guint8, MAX (ctx->n_small, 1));
  ctx->scan_act = g_new0 (guint8, MAX (ctx->n_small, 1));
  ctx->int_offset = g_new0 (guint8, MAX (ctx->n_small, 1));

  for (guint i = 0; i < n_stats; i++)
    {
      const TmMetadataName *e = &stats[i];
      StatKind kind = classify_stat_name (e->name);
      StatInfo info = { (guint8) kind, (guint8) scan_kind (kind), e->name };

      if (e->id >= 0 && e->id < (gint64) ctx->n_small)
        {
          ctx->small[e->id] = info;
          guint8 apply = int_offsets[kind] != 0 ? ACT_INT : ACT_APPLY;

          ctx->int_offset[e->id] = int_offsets[kind];
          ctx->decode_act[e->id] = kind == STAT_OTHER ? ACT_CHECK : apply;
          ctx->scan_act[e->id] = scan_kind (kind) == STAT_OTHER ? ACT_CHECK : apply;
        }
      else
        {
          if (ctx->big == NULL)
            ctx->big = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
          g_hash_table_insert (ctx->big, g_memdup2 (&e->id, sizeof e->id), g_memdup2 (&info, sizeof info));
        }
    }

  return ctx;
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
      g_free (ctx->decode_act);
      g_free (ctx->scan_act);
      g_free (ctx->int_offset);
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

  /* The plain integer fields, where the fast path writes them too. */
  if (int_offsets[info->kind] != 0)
    {
      memcpy ((guint8 *) ev + int_offsets[info->kind], &ival, sizeof ival);
      return;
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
    case STAT_FRAGMENTATION:
      ev->fragmentation = vcase == VALUE_DOUBLE ? d
                          : vcase == VALUE_UINT64 ? (double) u
                          : vcase == VALUE_INT64 ? (double) (gint64) u
                          : 0.0;
      break;
    case STAT_TF_OP: ev->op = s; break;
    case STAT_REGION_TYPE: ev->region = s; break;
    case STAT_SHAPE: ev->shape = s; break;
    default:
      break;
    }
}


static inline guint32
load_le32 (const guint8 *p)
{
  guint32 w;

  memcpy (&w, p, sizeof w);
  return GUINT32_FROM_LE (w);
}

/* A varint of exactly len bytes (1 to 8) at p, with 8 bytes readable at p,
 * is well formed when every byte but the last has its continuation bit:
 * checked on one word, which is left in *word, masked to len bytes. */
static inline __attribute__ ((always_inline)) gboolean
load_short_varint (const guint8 *p,
                   guint         len,
                   guint64      *word)
{
  guint shift = 64 - 8 * len;
  guint64 x, stops;

  memcpy (&x, p, sizeof x);
  x = (GUINT64_FROM_LE (x) << shift) >> shift;
  *word = x;
  /* The bytes without a continuation bit, and those past the varint: the
   * lowest must be its last byte. */
  stops = ~x & G_GUINT64_CONSTANT (0x8080808080808080);
  return (stops & (~stops + 1)) == G_GUINT64_CONSTANT (1) << (8 * len - 1);
}

/* The value of a word from load_short_varint(): its 7-bit groups packed in
 * three steps instead of a loop per byte. */
static inline __attribute__ ((always_inline)) guint64
pack_short_varint (guint64 x)
{
  x &= G_GUINT64_CONSTANT (0x7f7f7f7f7f7f7f7f);
  x = ((x & G_GUINT64_CONSTANT (0x7f007f007f007f00)) >> 1) | (x & G_GUINT64_CONSTANT (0x007f007f007f007f));
  x = ((x & G_GUINT64_CONSTANT (0x3fff00003fff0000)) >> 2) | (x & G_GUINT64_CONSTANT (0x00003fff00003fff));
  x = ((x & G_GUINT64_CONSTANT (0x0fffffff00000000)) >> 4) | (x & G_GUINT64_CONSTANT (0x000000000fffffff));
  return x;
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
        case TM_XSTAT_METADATA_ID:
          if (!tm_wire_expect_type (&st, field, wt, TM_WIRE_VARINT, N_("in XStat.metadata_id"), error) ||
              !tm_wire_read_varint (&st, &md, error))
            return FALSE;
          break;

        case TM_XSTAT_DOUBLE:
          {
            guint64 bits;

            if (!tm_wire_expect_type (&st, field, wt, TM_WIRE_I64, N_("in XStat.double_value"), error) ||
                !tm_wire_read_fixed64 (&st, &bits, error))
              return FALSE;
            memcpy (&d, &bits, sizeof d);
            vcase = VALUE_DOUBLE;
          }
          break;

        case TM_XSTAT_UINT64:
        case TM_XSTAT_INT64:
        case TM_XSTAT_REF:
          if (!tm_wire_expect_type (&st, field, wt, TM_WIRE_VARINT, N_("in XStat"), error) ||
              !tm_wire_read_varint (&st, &u, error))
            return FALSE;
          vcase = field == TM_XSTAT_UINT64 ? VALUE_UINT64 : field == TM_XSTAT_INT64 ? VALUE_INT64 : VALUE_REF;
          break;

        case TM_XSTAT_STR:
        case TM_XSTAT_BYTES:
          if (!tm_wire_expect_type (&st, field, wt, TM_WIRE_LEN, N_("in XStat"), error) ||
              !tm_str_read (&st, &s, error))
            return FALSE;
          vcase = field == TM_XSTAT_STR ? VALUE_STR : VALUE_BYTES;
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

static inline __attribute__ ((always_inline)) gboolean
decode_event (TmHostContext  *ctx,
              TmWire          ev_wire,
              TmMemEvent     *ev,
              gboolean        scan,
              GError        **error)
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
        const guint8 *acts = scan ? ctx->scan_act : ctx->decode_act;
        guint n_small = ctx->n_small;
        /* Whatever starts before stop has 16 bytes of the file from its
         * start: a stat's header and a value word, or a varint field, are
         * read without more checks. The last bytes of the file take the
         * general path. */
        const guint8 *stop = ev_wire.limit - p < 16 ? p
                             : ev_wire.limit - 16 < end ? ev_wire.limit - 16 : end;

        while (p < stop)
          {
            const guint8 *stat_end = p + 2 + p[1];
            const guint8 *q = p + 5;
            guint id = p[3];
            guint act;
            guint vclass = value_class[p[4]];
            guint64 u = 0;
            double d = 0;
            TmStr str = { NULL, 0 };
            int vcase;

            /* The first four bytes of such a stat, as one little-endian
             * word: 0x22 (XEvent.stats), a length below 128, 0x08
             * (metadata_id), an id below 128. */
            if ((load_le32 (p) & 0x80ff80ffu) != 0x00080022u || id >= n_small)
              {
                /* The event's metadata_id or offset_ps: a varint of up to
                 * 8 bytes, read as one word. */
                if (p[0] == ((TM_XEVENT_METADATA_ID << 3) | TM_WIRE_VARINT) ||
                    p[0] == ((TM_XEVENT_OFFSET_PS << 3) | TM_WIRE_VARINT))
                  {
                    guint64 stops;
                    guint len;

                    memcpy (&u, p + 1, sizeof u);
                    u = GUINT64_FROM_LE (u);
                    stops = ~u & G_GUINT64_CONSTANT (0x8080808080808080);
                    if (stops == 0)
                      break;
                    len = ((guint) __builtin_ctzll (stops) >> 3) + 1;
                    if (p + 1 + len > end)
                      break;
                    u = pack_short_varint ((u << (64 - 8 * len)) >> (64 - 8 * len));
                    if (p[0] == ((TM_XEVENT_METADATA_ID << 3) | TM_WIRE_VARINT))
                      ev->metadata_id = u;
                    else
                      ev->offset_ps = (gint64) u;
                    p += 1 + len;
                    continue;
                  }
                break;
              }

            if (stat_end > end)
              break;
            act = acts[id];

            /* Stats the memory profile never reads, and those the loader
             * leaves for later, are only checked to have the usual shape
             * (ACT_CHECK): one value that ends the stat. Anything else may
             * hold a later metadata_id, which wins, so it takes the general
             * path; and a file the loader accepts decodes the same way
             * again on demand. */
            switch (vclass)
              {
              case VC_UINT64:
              case VC_INT64:
              case VC_REF:
                {
                  gsize len = (gsize) (stat_end - q);

                  if (len - 1 < 8)
                    {
                      /* The varint ends the stat: its length is known, so
                       * read it as one word. */
                      if (!load_short_varint (q, (guint) len, &u))
                        goto general;
                      if (act == ACT_CHECK)
                        {
                          p = stat_end;
                          continue;
                        }
                      u = pack_short_varint (u);
                      if (act == ACT_INT && vclass != VC_REF)
                        {
                          gint64 ival = (gint64) u;

                          memcpy ((guint8 *) ev + ctx->int_offset[id], &ival, sizeof ival);
                          p = stat_end;
                          continue;
                        }
                      q = stat_end;
                    }
                  else
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
                      if (q != stat_end)
                        goto general;
                    }
                  vcase = vclass == VC_UINT64 ? VALUE_UINT64 : vclass == VC_INT64 ? VALUE_INT64 : VALUE_REF;
                }
                break;

              case VC_DOUBLE:
                if (stat_end - q != 8)
                  goto general;
                memcpy (&u, q, 8);
                u = GUINT64_FROM_LE (u);
                memcpy (&d, &u, sizeof d);
                vcase = VALUE_DOUBLE;
                break;

              case VC_STR:
                if (q >= stat_end || q[0] >= 0x80 || q + 1 + q[0] != stat_end)
                  goto general;
                str.ptr = q + 1;
                str.len = q[0];
                vcase = VALUE_STR;
                break;

              default:
                goto general;
              }

            if (act != ACT_CHECK)
              apply_stat (ctx, ev, &ctx->small[id], vcase, u, d, str);
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
        case TM_XEVENT_STATS:
          if (!tm_wire_expect_type (&ev_wire, field, wt, TM_WIRE_LEN, N_("in XEvent.stats"), error) ||
              !tm_wire_read_len (&ev_wire, &st, error) ||
              !decode_stat (ctx, st, ev, error))
            return FALSE;
          break;

        case TM_XEVENT_OFFSET_PS:
        case TM_XEVENT_NUM_OCCURRENCES:
        case TM_XEVENT_METADATA_ID:
        case TM_XEVENT_DURATION_PS:
          if (!tm_wire_expect_type (&ev_wire, field, wt, TM_WIRE_VARINT, N_("in XEvent"), error) ||
              !tm_wire_read_varint (&ev_wire, &v, error))
            return FALSE;
          if (field == TM_XEVENT_OFFSET_PS)
            ev->offset_ps = (gint64) v;
          else if (field == TM_XEVENT_NUM_OCCURRENCES)
            ev->offset_ps = 0;
          else if (field == TM_XEVENT_METADATA_ID)
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

gboolean
tm_host_event_decode (TmHostContext  *ctx,
                      TmWire          ev_wire,
                      TmMemEvent     *ev,
                      GError        **error)
{
  return decode_event (ctx, ev_wire, ev, FALSE, error);
}

gboolean
tm_host_event_scan (TmHostContext  *ctx,
                    TmWire          ev_wire,
                    TmMemEvent     *ev,
                    GError        **error)
{
  return decode_event (ctx, ev_wire, ev, TRUE, error);
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
  return tm_host_event_decode (job->ctx, ev, job->event, error);
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
