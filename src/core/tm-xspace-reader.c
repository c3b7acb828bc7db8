/* tm-xspace-reader.c — XSpace → memory stores and HLO modules
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Walks planes, lines and events (docs/formats.md, section 1) with tm-wire, decodes
 * memory events with tm-host-event and hands them to tm-memory-store's
 * builder. Field numbers are those of proto/xplane.proto. Any field may come in any
 * order and more than once (the later singular value wins); unknown fields
 * are skipped; a known field with the wrong wire type is an error.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "tm-format.h"
#include "tm-host-event.h"
#include "tm-memory-store.h"
#include "tm-wire.h"
#include "tm-xplane.h"
#include "tm-xspace-reader-private.h"

#define DEVICE_PREFIX "/device:"
#define XLA_MODULES_LINE "XLA Modules"
#define CANCEL_CHECK_INTERVAL 16384

void
tm_xspace_result_clear (TmXSpaceResult *result)
{
  g_clear_pointer (&result->stores, g_ptr_array_unref);
  g_clear_pointer (&result->hlo_modules, g_array_unref);
  g_clear_pointer (&result->hlo_entries, g_array_unref);
}

/* ------------------------------------------------------------------ */
/* The reader                                                           */

#define RECENT_STORES 8

typedef struct
{
  TmMemoryStore *store;   /* NULL: unused */
  gboolean       is_int;
  gint64         id_int;
  TmStr          id_str;
} RecentStore;

typedef struct
{
  TmSource       *source;
  const TmXSpaceReadOptions *options;
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
  /* The stores of the last few memory ids met, most recent first: thread
   * lines interleave the events of a few allocators, so nearly every event
   * finds its store here without building its id. */
  RecentStore     recent[RECENT_STORES];
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

static gboolean
load_event_kinds (Reader      *r,
                  TmXPlaneParts  *parts,
                  GError     **error)
{
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (TmMetadataName));
  gint64 max_small;

  clear_event_kinds (r);
  if (!tm_xplane_read_names (parts->event_md, entries, &max_small, error))
    return FALSE;

  r->n_small_events = (guint) (max_small + 1);
  r->small_events = g_new0 (guint8, MAX (r->n_small_events, 1));

  for (guint i = 0; i < entries->len; i++)
    {
      const TmMetadataName *e = &g_array_index (entries, TmMetadataName, i);
      guint8 kind = tm_str_equal (e->name, "MemoryAllocation") ? TM_ACTIVITY_ALLOCATION
                    : tm_str_equal (e->name, "MemoryDeallocation") ? TM_ACTIVITY_DEALLOCATION
                    : TM_ACTIVITY_UNKNOWN;

      if (e->id >= 0 && e->id < (gint64) r->n_small_events)
        r->small_events[e->id] = kind;
      else
        {
          if (r->big_events == NULL)
            r->big_events = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
          g_hash_table_insert (r->big_events, g_memdup2 (&e->id, sizeof e->id), GUINT_TO_POINTER (kind));
        }
    }

  return TRUE;
}

/* The host plane's stat names, for decoding its events now and later. */
static gboolean
load_stat_metadata (Reader      *r,
                    TmXPlaneParts  *parts,
                    GError     **error)
{
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (TmMetadataName));
  gint64 max_small;

  if (!tm_xplane_read_names (parts->stat_md, entries, &max_small, error))
    return FALSE;

  g_clear_pointer (&r->ctx, tm_host_context_unref);
  r->ctx = tm_host_context_new (r->source, (const TmMetadataName *) (gpointer) entries->data, entries->len);
  return TRUE;
}

/* Whether two short names are equal: memcmp() without the call, for the
 * allocator names every event carries. */
static inline gboolean
same_bytes (const guint8 *a,
            const guint8 *b,
            gsize         len)
{
  guint64 x, y;

  if (len < 8)
    {
      for (gsize i = 0; i < len; i++)
        if (a[i] != b[i])
          return FALSE;
      return TRUE;
    }
  for (gsize i = 0; i + 8 < len; i += 8)
    {
      memcpy (&x, a + i, 8);
      memcpy (&y, b + i, 8);
      if (x != y)
        return FALSE;
    }
  memcpy (&x, a + len - 8, 8);
  memcpy (&y, b + len - 8, 8);
  return x == y;
}

static inline gboolean
recent_matches (const RecentStore *recent,
                const TmMemEvent  *ev)
{
  if (recent->is_int != ev->memory_id_is_int)
    return FALSE;
  if (ev->memory_id_is_int)
    return recent->id_int == ev->memory_id_int;
  return recent->id_str.len == ev->memory_id.len &&
         (recent->id_str.ptr == ev->memory_id.ptr ||
          same_bytes (recent->id_str.ptr, ev->memory_id.ptr, ev->memory_id.len));
}

static TmMemoryStore *
store_for_event (Reader           *r,
                 const TmMemEvent *ev)
{
  g_autofree char *id = NULL;
  TmMemoryStore *store;
  RecentStore found;
  guint k;

  for (k = 0; k < RECENT_STORES && r->recent[k].store != NULL; k++)
    if (recent_matches (&r->recent[k], ev))
      {
        found = r->recent[k];
        goto move_to_front;
      }

  if (ev->memory_id_is_int)
    id = g_strdup_printf ("%" G_GINT64_FORMAT, ev->memory_id_int);
  else
    id = tm_format_name_from_bytes ((const char *) ev->memory_id.ptr, ev->memory_id.len);

  store = g_hash_table_lookup (r->stores, id);
  if (store == NULL)
    {
      store = tm_memory_store_new (id, r->ctx);
      g_ptr_array_add (r->result->stores, store);
      g_hash_table_insert (r->stores, g_steal_pointer (&id), store);
    }

  found.store = store;
  found.is_int = ev->memory_id_is_int;
  found.id_int = ev->memory_id_int;
  found.id_str = ev->memory_id;
  k = MIN (k, RECENT_STORES - 1);

move_to_front:
  if (k > 0)
    memmove (&r->recent[1], &r->recent[0], k * sizeof (RecentStore));
  r->recent[0] = found;
  return found.store;
}

static inline void
append_memory_event (TmMemoryStore    *store,
                     const TmMemEvent *ev,
                     gint64            time_ps,
                     guint64           ref_offset)
{
  TmSnapshot snapshot;

  snapshot.time_ps = time_ps;
  snapshot.stack_bytes = ev->stack;
  snapshot.heap_bytes = ev->heap;
  snapshot.free_bytes = ev->free_bytes;
  snapshot.fragmentation = ev->fragmentation;
  snapshot.peak_bytes_in_use = ev->peak_bytes_in_use;
  snapshot.step_id = ev->group_id;
  snapshot.kind = ev->kind;
  snapshot.address = ev->address;
  snapshot.ref = ref_offset;
  tm_memory_store_add (store, &snapshot);
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
      const TmXLineInfo *info = &g_array_index (lines, TmXLineInfo, i);
      TmWire line = info->wire;
      /* Put every line on the clock of the earliest one (docs/formats.md, section 1). */
      gint64 adjust_ps = tm_sat_mul (tm_sat_sub (info->timestamp_ns, min_ts), 1000);
      const guint8 *counted = line.p;

      while (!tm_wire_at_end (&line))
        {
          guint32 field;
          guint wt;
          gsize len_offset;
          TmWire ev_wire;
          TmXEventHeader hdr;
          guint8 kind;

          if (!tm_wire_read_tag (&line, &field, &wt, error))
            return FALSE;

          if (field != TM_XLINE_EVENTS)
            {
              if (field == TM_XLINE_TIMESTAMP_NS)
                {
                  guint64 v;

                  if (!tm_wire_expect_type (&line, field, wt, TM_WIRE_VARINT, N_("in XLine.timestamp_ns"), error) ||
                      !tm_wire_read_varint (&line, &v, error))
                    return FALSE;
                  /* The line's clock is not what its header said: the
                   * caller reads the plane again, the careful way. */
                  if ((gint64) v != info->timestamp_ns)
                    r->line_clock_changed = TRUE;
                }
              else if (field == TM_XLINE_NAME)
                {
                  if (!tm_wire_expect_type (&line, field, wt, TM_WIRE_LEN, N_("in XLine.name"), error) ||
                      !tm_wire_skip (&line, wt, error))
                    return FALSE;
                }
              else if (!tm_wire_skip (&line, wt, error))
                return FALSE;
              continue;
            }

          if (!tm_wire_expect_type (&line, field, wt, TM_WIRE_LEN, N_("in XLine.events"), error))
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
          if (ev_wire.end - ev_wire.p >= 2 && ev_wire.p[0] == ((TM_XEVENT_METADATA_ID << 3) | TM_WIRE_VARINT) &&
              ev_wire.p[1] < 0x80 && lookup_event_kind (r, ev_wire.p[1]) != TM_ACTIVITY_UNKNOWN)
            {
              TmMemEvent ev;

              ev.kind = TM_ACTIVITY_UNKNOWN;
              if (!tm_host_event_scan (r->ctx, ev_wire, &ev, error))
                return FALSE;
              ev.kind = lookup_event_kind (r, ev.metadata_id);
              if (ev.kind != TM_ACTIVITY_UNKNOWN)
                append_memory_event (store_for_event (r, &ev), &ev, tm_sat_add (ev.offset_ps, adjust_ps), len_offset);
              continue;
            }

          if (!tm_xevent_scan_header (ev_wire, &hdr, error))
            return FALSE;


          kind = lookup_event_kind (r, hdr.metadata_id);
          if (kind != TM_ACTIVITY_UNKNOWN)
            {
              TmMemEvent ev;
              TmMemoryStore *store;

              ev.kind = kind;
              if (!tm_host_event_scan (r->ctx, ev_wire, &ev, error))
                return FALSE;
              store = store_for_event (r, &ev);
              append_memory_event (store, &ev, tm_sat_add (ev.offset_ps, adjust_ps), len_offset);
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
      const char *id = tm_memory_store_get_id (later);
      TmMemoryStore *store = g_hash_table_lookup (r->stores, id);

      if (store == NULL)
        {
          g_ptr_array_add (r->result->stores, g_object_ref (later));
          g_hash_table_insert (r->stores, g_strdup (id), later);
        }
      else
        tm_memory_store_append (store, later);
    }
}

typedef struct
{
  TmSource      *source;
  const GArray  *wires;   /* TmWire, one per line */
  GArray        *lines;   /* TmXLineInfo, filled in [from, to) */
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
    if (!tm_xline_scan (g_array_index (job->wires, TmWire, i), job->until_events,
                    &g_array_index (job->lines, TmXLineInfo, i), error))
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

/* Where to cut line (an XLine's body) so that its first part ends at or
 * after byte target: the start of the first field there. Returns NULL when
 * no cut would fall strictly inside the line, or on a malformed field (the
 * reading pass then reports it). */
static const guint8 *
field_boundary_after (TmWire        line,
                      const guint8 *target)
{
  const guint8 *start = line.p;

  while (line.p < target && !tm_wire_at_end (&line))
    {
      guint32 field;
      guint wt;

      /* Events: tag 0x22 and a length of one or two bytes, in a tight
       * loop; anything else, one field at a time. */
      if (line.end - line.p >= 3 && line.p[0] == 0x22 && line.p[1] < 0x80)
        {
          line.p += 2 + line.p[1];
          continue;
        }
      if (line.end - line.p >= 3 && line.p[0] == 0x22 && line.p[2] < 0x80)
        {
          line.p += 3 + ((gsize) (line.p[1] & 0x7f) | ((gsize) line.p[2] << 7));
          continue;
        }
      if (!tm_wire_read_tag (&line, &field, &wt, NULL) || !tm_wire_skip (&line, wt, NULL))
        return NULL;
    }

  return line.p > start && line.p < line.end ? line.p : NULL;
}

static gboolean
read_host_plane_once (Reader      *r,
                      TmXPlaneParts  *parts,
                      gboolean     careful,
                      GError     **error)
{
  g_autoptr(GArray) lines = g_array_new (FALSE, TRUE, sizeof (TmXLineInfo));
  gint64 min_ts = G_MAXINT64;
  gint64 done_a = 0, done_b = 0;
  gsize total = 0, half = 0;
  guint split;
  guint64 n_events = 0;
  HalfJob *job = NULL;
  GThread *thread = NULL;
  gboolean parallel;
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
  parallel = total >= r->options->parallel_min_bytes && parts->lines->len >= 1 && g_get_num_processors () >= 2;
  if (parallel && parts->lines->len >= 2)
    {
      for (split = 0; split < parts->lines->len - 1 && half < total / 2; split++)
        {
          const TmWire *w = &g_array_index (parts->lines, TmWire, split);
          half += (gsize) (w->end - w->p);
        }
      if (split == 0)
        split = 1;
    }

  /* Every line's timestamp is needed before any event is placed
   * (docs/formats.md, section 1). Writers put it before the events, so read what
   * each line says before its events; if the event pass then meets a
   * different timestamp after them, the caller reads again, carefully:
   * every line whole first. */
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
    min_ts = MIN (min_ts, g_array_index (lines, TmXLineInfo, i).timestamp_ns);
  if (lines->len > 0)
    {
      r->result->has_clock_origin = TRUE;
      r->result->clock_origin_ns = min_ts;
    }

  /* Lines can be few and long (a profile may hold all its memory events in
   * one): when the cut between lines is far from half the bytes, cut the
   * line that holds the middle between two of its events instead. Its two
   * parts are read as two lines with the same clock, the first by this
   * thread, so file order is kept. */
  if (parallel)
    {
      gsize before = 0;
      guint l;

      for (l = 0; l < lines->len; l++)
        {
          const TmWire *w = &g_array_index (lines, TmXLineInfo, l).wire;
          gsize size = (gsize) (w->end - w->p);

          if (before + size > total / 2)
            break;
          before += size;
        }
      if (l < lines->len)
        {
          TmXLineInfo *info = &g_array_index (lines, TmXLineInfo, l);
          const guint8 *middle = info->wire.p + (total / 2 - before);
          gsize off_by = MIN ((gsize) (middle - info->wire.p), (gsize) (info->wire.end - middle));
          const guint8 *cut = off_by > total / 64 || r->options->cut_lines
                              ? field_boundary_after (info->wire, middle) : NULL;

          if (cut != NULL)
            {
              TmXLineInfo second = *info;

              g_debug ("host plane: line %u cut at byte %" G_GSIZE_FORMAT " for two threads",
                       l, (gsize) (cut - r->base));

              info->wire.end = cut;
              second.wire.p = cut;
              g_array_insert_val (lines, l + 1, second);
              split = l + 1;
            }
        }
    }

  r->host_start = lines->len > 0 ? (gsize) (g_array_index (lines, TmXLineInfo, 0).wire.p - r->base) : 0;
  r->host_done_a = &done_a;
  r->host_done_b = &done_b;

  if (split < lines->len)
    {
      job = g_new0 (HalfJob, 1);
      job->reader = *r;
      job->reader.progress = NULL;
      job->reader.stores = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      memset (job->reader.recent, 0, sizeof job->reader.recent);
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
                 TmXPlaneParts  *parts,
                 GError     **error)
{
  if (!load_event_kinds (r, parts, error) ||
      !load_stat_metadata (r, parts, error))
    return FALSE;

  r->line_clock_changed = FALSE;
  if (!read_host_plane_once (r, parts, FALSE, error))
    return FALSE;
  if (!r->line_clock_changed)
    return TRUE;

  /* A line's timestamp came after its events: start this plane again. */
  g_ptr_array_set_size (r->result->stores, 0);
  g_hash_table_remove_all (r->stores);
  memset (r->recent, 0, sizeof r->recent);
  return read_host_plane_once (r, parts, TRUE, error);
}

static gboolean
read_tpu_plane (Reader      *r,
                TmXPlaneParts  *parts,
                GError     **error)
{
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (TmMetadataName));
  g_autoptr(GHashTable) names = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree char *device = NULL;
  gint64 max_small;

  if (!tm_xplane_read_names (parts->event_md, entries, &max_small, error))
    return FALSE;
  for (guint i = 0; i < entries->len; i++)
    {
      TmMetadataName *e = &g_array_index (entries, TmMetadataName, i);
      g_hash_table_insert (names, &e->id, &e->name);
    }

  device = g_strndup ((const char *) parts->name.ptr + strlen (DEVICE_PREFIX),
                      parts->name.len - strlen (DEVICE_PREFIX));

  for (guint i = 0; i < parts->lines->len; i++)
    {
      TmXLineInfo info;
      TmWire line;

      if (!tm_xline_scan (g_array_index (parts->lines, TmWire, i), FALSE, &info, error))
        return FALSE;
      if (!tm_str_equal (info.name, XLA_MODULES_LINE))
        continue;

      line = info.wire;
      while (!tm_wire_at_end (&line))
        {
          guint32 field;
          guint wt;
          TmWire ev_wire;
          TmXEventHeader hdr;
          TmHloModule module;
          const TmStr *name;

          if (!tm_wire_read_tag (&line, &field, &wt, error))
            return FALSE;
          if (field != TM_XLINE_EVENTS)
            {
              if (!tm_wire_skip (&line, wt, error))
                return FALSE;
              continue;
            }
          if (!tm_wire_read_len (&line, &ev_wire, error) ||
              !tm_xevent_scan_header (ev_wire, &hdr, error))
            return FALSE;

          name = g_hash_table_lookup (names, &hdr.metadata_id);
          module.id = r->result->hlo_modules->len;
          module.name = name != NULL ? tm_format_name_from_bytes ((const char *) name->ptr, name->len) : g_strdup ("");
          module.start_ps = hdr.offset_ps;
          module.end_ps = tm_sat_add (hdr.offset_ps, hdr.duration_ps);
          module.device = g_strdup (device);
          g_array_append_val (r->result->hlo_modules, module);
        }
    }

  return TRUE;
}

static gboolean
read_job (gpointer   data,
          GError   **error)
{
  Reader *r = data;
  TmWire space;

  tm_wire_init (&space, r->base, r->size);

  for (;;)
    {
      TmWire plane;
      TmXPlaneParts parts;
      gboolean found, is_host, is_tpu, is_metadata;

      if (!tm_xspace_next_plane (&space, &plane, &found, error))
        return FALSE;
      if (!found)
        break;

      r->result->n_planes++;

      if (!tm_xplane_scan (plane, FALSE, &parts, error))
        return FALSE;

      is_host = tm_xplane_is_host (&parts) && !r->result->has_host_plane;
      is_tpu = tm_xplane_is_tpu (&parts);
      is_metadata = tm_xplane_is_hlo_metadata (&parts);

      if (is_host || is_tpu || is_metadata)
        {
          gboolean ok;

          if (!tm_xplane_scan (plane, TRUE, &parts, error))
            {
              tm_xplane_parts_clear (&parts);
              return FALSE;
            }

          if (is_host)
            {
              r->result->has_host_plane = TRUE;
              ok = read_host_plane (r, &parts, error);
            }
          else if (is_tpu)
            ok = read_tpu_plane (r, &parts, error);
          else
            ok = tm_hlo_read_metadata_plane (r->source, &parts, r->result->hlo_entries, error);

          tm_xplane_parts_clear (&parts);
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
tm_xspace_read_with_options (TmSource                  *source,
                             const TmXSpaceReadOptions *options,
                             TmXSpaceResult            *result,
                             TmProgressFunc             progress,
                             gpointer                   progress_data,
                             GCancellable              *cancellable,
                             GError                   **error)
{
  Reader r = { 0 };
  gboolean ok;

  g_return_val_if_fail (source != NULL, FALSE);
  g_return_val_if_fail (options != NULL, FALSE);
  g_return_val_if_fail (result != NULL, FALSE);

  memset (result, 0, sizeof *result);
  result->stores = g_ptr_array_new_with_free_func (g_object_unref);
  result->hlo_modules = g_array_new (FALSE, FALSE, sizeof (TmHloModule));
  g_array_set_clear_func (result->hlo_modules, (GDestroyNotify) tm_hlo_module_clear);
  result->hlo_entries = tm_hlo_entries_new ();

  r.source = source;
  r.options = options;
  r.base = tm_source_get_data (source);
  r.size = tm_source_get_size (source);
  r.result = result;
  r.progress = progress;
  r.progress_data = progress_data;
  r.cancellable = cancellable;
  r.stores = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  ok = tm_source_run_guarded (source, read_job, &r, error);

  clear_event_kinds (&r);
  g_hash_table_unref (r.stores);
  g_clear_pointer (&r.ctx, tm_host_context_unref);

  if (!ok)
    {
      tm_xspace_result_clear (result);
      tm_xspace_explain_error (error);
      return FALSE;
    }

  report_progress (&r, r.size);
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
  static const TmXSpaceReadOptions defaults = { TM_XSPACE_READ_PARALLEL_MIN_BYTES, FALSE };

  return tm_xspace_read_with_options (source, &defaults, result, progress, progress_data, cancellable, error);
}
