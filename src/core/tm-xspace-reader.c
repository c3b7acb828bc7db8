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
#define PREFETCH_AHEAD 768
/* With two threads, a host plane is read in about this many parts. */
#define PARTS_PER_PLANE 64
/* A guessed event start is one that starts this many events in a row. */
#define SYNC_EVENTS 8
#define SYNC_SEARCH 65536

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
  gint64         *host_done;     /* bytes of host lines done by both threads (atomic) */
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

/* The fast walk over one event of the usual shape, [p, end) its body, all
 * of it at least 16 bytes before the end of the file: its top-level fields
 * hopped over by their tags and lengths, nothing inside a stat looked at.
 * Gives the event's last metadata_id (0 if none), which decides what it is
 * (docs/formats.md, section 1.2), and if has_offset is not NULL, whether it
 * has an offset_ps field (a stat never has one). FALSE on anything else (another field,
 * a varint of more than 8 bytes, a length of more than two bytes, a field
 * that runs past the event): the careful path reads that event, and says
 * what is wrong with it. */
static inline __attribute__ ((always_inline)) gboolean
walk_event (const guint8 *p,
            const guint8 *end,
            guint64      *metadata_id,
            gboolean     *has_offset)
{
  guint64 md_word = 0;
  guint md_len = 0;

  while (p < end)
    {
      guint8 tag = p[0];

      if (tag == ((TM_XEVENT_STATS << 3) | TM_WIRE_LEN))
        {
          if (p[1] < 0x80)
            p += 2 + p[1];
          else if (p[2] < 0x80)
            p += 3 + ((gsize) (p[1] & 0x7f) | ((gsize) p[2] << 7));
          else
            return FALSE;
        }
      else if (tag == ((TM_XEVENT_METADATA_ID << 3) | TM_WIRE_VARINT) ||
               tag == ((TM_XEVENT_OFFSET_PS << 3) | TM_WIRE_VARINT) ||
               tag == ((TM_XEVENT_DURATION_PS << 3) | TM_WIRE_VARINT) ||
               tag == ((TM_XEVENT_NUM_OCCURRENCES << 3) | TM_WIRE_VARINT))
        {
          guint64 word, stops;
          guint len;

          memcpy (&word, p + 1, sizeof word);
          word = GUINT64_FROM_LE (word);
          stops = ~word & G_GUINT64_CONSTANT (0x8080808080808080);
          if (stops == 0)
            return FALSE;
          len = ((guint) __builtin_ctzll (stops) >> 3) + 1;
          if (tag == ((TM_XEVENT_METADATA_ID << 3) | TM_WIRE_VARINT))
            {
              md_word = word;
              md_len = len;
            }
          if (has_offset != NULL && tag == ((TM_XEVENT_OFFSET_PS << 3) | TM_WIRE_VARINT))
            *has_offset = TRUE;
          p += 1 + len;
        }
      else
        return FALSE;
    }
  if (p != end)
    return FALSE;

  *metadata_id = md_len == 0 ? 0 : tm_wire_pack_short_varint (md_word, md_len);
  return TRUE;
}

/* Every CANCEL_CHECK_INTERVAL events: cancelled?, and the bytes read
 * since *counted (up to p) for the progress. */
static gboolean
check_point (Reader        *r,
             const guint8  *p,
             const guint8 **counted,
             GError       **error)
{
  if (check_cancelled (r, error))
    return FALSE;
  g_atomic_pointer_add (r->host_done, (gssize) (p - *counted));
  *counted = p;
  if (r->progress != NULL)
    report_progress (r, r->host_start + (gsize) g_atomic_pointer_get (r->host_done));
  return TRUE;
}

/* Reads the memory events of the part of a line from start (the line's
 * start or an event's tag) up to stop: the field that starts before stop
 * and every one before it. Sets *reached to where the last one ends, and
 * adds the bytes read to r->host_done, which the other thread may read. */
static gboolean
read_part (Reader             *r,
           const TmXLineInfo  *info,
           const guint8       *start,
           const guint8       *stop,
           gint64              min_ts,
           guint64            *n_events_out,
           const guint8      **reached,
           GError            **error)
{
  guint64 n_events = 0;
  TmWire line = info->wire;
  /* Put every line on the clock of the earliest one (docs/formats.md, section 1). */
  gint64 adjust_ps = tm_sat_mul (tm_sat_sub (info->timestamp_ns, min_ts), 1000);
  const guint8 *counted = start;
  /* Events that end before this are walked the fast way. */
  const guint8 *fast_end = line.limit - line.end >= 16 ? line.end
                           : line.limit - line.p > 16 ? line.limit - 16 : line.p;

  line.p = start;
  while (line.p < stop)
    {
      guint32 field;
      guint wt;
      gsize len_offset;
      TmWire ev_wire;
      TmXEventHeader hdr;
      guint8 kind;

      /* The usual event: tag 0x22, a length of one or two bytes, a
       * body walk_event() takes. Everything else, the careful way. */
      if (G_LIKELY (line.p[0] == ((TM_XLINE_EVENTS << 3) | TM_WIRE_LEN) && line.p < fast_end))
        {
          const guint8 *body = line.p + 2;
          gsize body_len = line.p[1];
          guint64 md;

          /* The walk is one chain of loads: ask for the bytes ahead
           * before they are needed. */
          __builtin_prefetch (line.p + PREFETCH_AHEAD);

          if (body_len >= 0x80)
            {
              body_len = (body_len & 0x7f) | ((gsize) line.p[2] << 7);
              body++;
            }
          if (line.p[1] < 0x80 || line.p[2] < 0x80)
            {
              const guint8 *body_end = body + body_len;

              if (body_end <= fast_end && walk_event (body, body_end, &md, NULL))
                {
                  len_offset = (gsize) (line.p + 1 - line.base);
                  line.p = body_end;

                  if (G_UNLIKELY ((++n_events % CANCEL_CHECK_INTERVAL) == 0) &&
                      !check_point (r, line.p, &counted, error))
                    return FALSE;

                  kind = lookup_event_kind (r, md);
                  if (kind != TM_ACTIVITY_UNKNOWN)
                    {
                      TmMemEvent ev;

                      ev_wire.base = line.base;
                      ev_wire.p = body;
                      ev_wire.end = body_end;
                      ev_wire.limit = line.limit;
                      ev.kind = kind;
                      if (!tm_host_event_scan (r->ctx, ev_wire, &ev, error))
                        return FALSE;
                      append_memory_event (store_for_event (r, &ev), &ev,
                                           tm_sat_add (ev.offset_ps, adjust_ps), len_offset);
                    }
                  continue;
                }
            }
        }

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

      if ((++n_events % CANCEL_CHECK_INTERVAL) == 0 && !check_point (r, line.p, &counted, error))
        return FALSE;

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
  g_atomic_pointer_add (r->host_done, (gssize) (line.p - counted));
  *reached = line.p;
  *n_events_out += n_events;
  return TRUE;
}

/* Where an event seems to start at or after from, within SYNC_SEARCH
 * bytes: a tag 0x22 whose event walk_event() takes and has a time, and so
 * on for SYNC_EVENTS events or up to the end of the line. A guess: the thread
 * that reads the part before it checks that it ends there. */
static const guint8 *
guess_event_start (const TmWire *line,
                   const guint8 *from)
{
  const guint8 *fast_end = line->limit - line->end >= 16 ? line->end
                           : line->limit - line->p > 16 ? line->limit - 16 : line->p;
  const guint8 *last = MIN (from + SYNC_SEARCH, fast_end);

  for (const guint8 *p = from; p < last; p++)
    {
      const guint8 *q = p;
      guint k;

      if (*p != ((TM_XLINE_EVENTS << 3) | TM_WIRE_LEN))
        continue;
      for (k = 0; k < SYNC_EVENTS && q < line->end; k++)
        {
          const guint8 *body = q + 2;
          gsize len = q[1];
          guint64 md;
          gboolean has_offset = FALSE;

          if (q >= fast_end || q[0] != ((TM_XLINE_EVENTS << 3) | TM_WIRE_LEN))
            break;
          if (len >= 0x80)
            {
              if (q[2] >= 0x80)
                break;
              len = (len & 0x7f) | ((gsize) q[2] << 7);
              body++;
            }
          /* Only events have an offset_ps: the last stats of an event
           * and the events after it would read as events too. */
          if (body + len > fast_end || !walk_event (body, body + len, &md, &has_offset) || !has_offset)
            break;
          q = body + len;
        }
      if (k == SYNC_EVENTS || q == line->end)
        return p;
    }
  return NULL;
}

/* A piece of the host plane's lines, read by whichever thread takes it
 * first; the pieces' stores are appended in file order. */
typedef struct
{
  guint           line;
  const guint8   *start;     /* the line's start, or a guessed event start */
  const guint8   *stop;      /* the next part's start, or the line's end */
  const guint8   *reached;   /* where reading it ended */
  TmXSpaceResult  result;
  guint64         n_events;
  gboolean        clock_changed;
  gboolean        ok;
  GError         *error;
} Part;

typedef struct
{
  Reader        *reader;     /* the calling thread's */
  Reader         base;       /* a copy of it made before the second thread
                              * starts, which every part starts from: the
                              * calling thread writes its progress to
                              * *reader while the other one reads */
  const GArray  *lines;      /* TmXLineInfo */
  Part          *parts;
  guint          n_parts;
  gint           next;       /* the next part to take (atomic) */
  gint           failed;     /* a part failed: take no more (atomic) */
  gint64         min_ts;
} PartQueue;

typedef struct
{
  PartQueue *queue;
  gboolean   progress;       /* this thread reports progress */
  Part      *part;
} PartJob;

static gboolean
part_guarded (gpointer   data,
              GError   **error)
{
  PartJob *job = data;
  Part *part = job->part;
  PartQueue *q = job->queue;
  Reader r = q->base;

  if (job->progress)
    r.last_progress = q->reader->last_progress;
  else
    r.progress = NULL;
  r.result = &part->result;
  r.stores = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r.line_clock_changed = FALSE;
  memset (r.recent, 0, sizeof r.recent);
  part->result.stores = g_ptr_array_new_with_free_func (g_object_unref);

  part->ok = read_part (&r, &g_array_index (q->lines, TmXLineInfo, part->line), part->start, part->stop,
                        q->min_ts, &part->n_events, &part->reached, error);
  part->clock_changed = r.line_clock_changed;
  g_hash_table_unref (r.stores);
  if (job->progress)
    q->reader->last_progress = r.last_progress;
  return part->ok;
}

static gpointer
part_worker (gpointer data)
{
  PartJob *job = data;
  PartQueue *q = job->queue;
  gint k;

  while (!g_atomic_int_get (&q->failed) && (k = g_atomic_int_add (&q->next, 1)) < (gint) q->n_parts)
    {
      job->part = &q->parts[k];
      if (!tm_source_run_guarded (q->reader->source, part_guarded, job, &job->part->error))
        {
          job->part->ok = FALSE;
          g_atomic_int_set (&q->failed, TRUE);
        }
    }
  return NULL;
}

/* The parts' stores, in file order: a memory id's first store is the
 * profile's, the later ones are appended to it all at once. */
static void
merge_parts (Reader     *r,
             const Part *parts,
             guint       n_parts)
{
  g_autoptr(GHashTable) laters = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                        (GDestroyNotify) g_ptr_array_unref);

  for (guint k = 0; k < n_parts; k++)
    for (guint i = 0; i < parts[k].result.stores->len; i++)
      {
        TmMemoryStore *store = g_ptr_array_index (parts[k].result.stores, i);
        const char *id = tm_memory_store_get_id (store);
        TmMemoryStore *first = g_hash_table_lookup (r->stores, id);
        GPtrArray *later;

        if (first == NULL)
          {
            g_ptr_array_add (r->result->stores, g_object_ref (store));
            g_hash_table_insert (r->stores, g_strdup (id), store);
            continue;
          }
        later = g_hash_table_lookup (laters, id);
        if (later == NULL)
          {
            later = g_ptr_array_new ();
            g_hash_table_insert (laters, (gpointer) tm_memory_store_get_id (first), later);
          }
        g_ptr_array_add (later, store);
      }

  for (guint i = 0; i < r->result->stores->len; i++)
    {
      TmMemoryStore *first = g_ptr_array_index (r->result->stores, i);
      GPtrArray *later = g_hash_table_lookup (laters, tm_memory_store_get_id (first));

      if (later != NULL)
        tm_memory_store_append_all (first, (TmMemoryStore **) later->pdata, later->len);
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

/* The parts of the lines: whole lines, and with two threads, lines cut
 * about every part_bytes at a guessed event start. */
static GArray *
make_parts (Reader       *r,
            const GArray *lines,
            gsize         part_bytes)
{
  GArray *parts = g_array_new (FALSE, TRUE, sizeof (Part));

  for (guint l = 0; l < lines->len; l++)
    {
      const TmWire *w = &g_array_index (lines, TmXLineInfo, l).wire;
      Part part = { 0 };

      part.line = l;
      part.start = w->p;
      for (const guint8 *at = w->p + part_bytes; part_bytes > 0 && at < w->end; at += part_bytes)
        {
          const guint8 *cut = guess_event_start (w, at);

          if (cut == NULL || cut >= w->end)
            continue;
          g_debug ("host plane: line %u cut at byte %" G_GSIZE_FORMAT " for two threads", l, (gsize) (cut - r->base));
          part.stop = cut;
          g_array_append_val (parts, part);
          part.start = cut;
          at = cut;
        }
      part.stop = w->end;
      g_array_append_val (parts, part);
    }
  return parts;
}

static void
clear_parts (GArray *parts)
{
  for (guint k = 0; k < parts->len; k++)
    {
      Part *part = &g_array_index (parts, Part, k);

      g_clear_pointer (&part->result.stores, g_ptr_array_unref);
      g_clear_error (&part->error);
    }
  g_array_unref (parts);
}

/* Every line read by this thread, whole, in file order. */
static gboolean
read_host_plane_alone (Reader        *r,
                       const GArray  *lines,
                       gint64         min_ts,
                       GError       **error)
{
  gint64 done = 0;
  guint64 n_events = 0;

  r->host_done = &done;
  for (guint l = 0; l < lines->len; l++)
    {
      const TmXLineInfo *info = &g_array_index (lines, TmXLineInfo, l);
      const guint8 *reached;

      if (!read_part (r, info, info->wire.p, info->wire.end, min_ts, &n_events, &reached, error))
        {
          r->host_done = NULL;
          return FALSE;
        }
    }
  r->host_done = NULL;
  r->result->n_host_events = n_events;
  return TRUE;
}

static gboolean
read_host_plane_once (Reader      *r,
                      TmXPlaneParts  *parts,
                      gboolean     careful,
                      GError     **error)
{
  g_autoptr(GArray) lines = g_array_new (FALSE, TRUE, sizeof (TmXLineInfo));
  gint64 min_ts = G_MAXINT64;
  gint64 done = 0;
  gsize total = 0, half = 0;
  guint split;
  guint64 n_events = 0;
  gboolean parallel;
  GArray *pieces;
  PartQueue queue = { 0 };
  PartJob first = { &queue, TRUE, NULL };
  PartJob second = { &queue, FALSE, NULL };
  GThread *thread = NULL;

  for (guint i = 0; i < parts->lines->len; i++)
    {
      const TmWire *w = &g_array_index (parts->lines, TmWire, i);
      total += (gsize) (w->end - w->p);
    }
  parallel = total >= r->options->parallel_min_bytes && parts->lines->len >= 1 && g_get_num_processors () >= 2;

  /* Every line's timestamp is needed before any event is placed
   * (docs/formats.md, section 1). Writers put it before the events, so read what
   * each line says before its events, on two threads when they are many;
   * if the event pass then meets a different timestamp after them, the
   * caller reads again, carefully: every line whole first. */
  split = parts->lines->len;
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
  g_array_set_size (lines, parts->lines->len);
  {
    ScanJob scan_first = { r->source, parts->lines, lines, 0, split, !careful, FALSE, NULL };
    ScanJob scan_second = { r->source, parts->lines, lines, split, parts->lines->len, !careful, TRUE, NULL };
    GThread *scanner = NULL;

    if (split < parts->lines->len)
      scanner = g_thread_new ("tidemark-scan", scan_job_thread, &scan_second);
    scan_first.ok = scan_job_guarded (&scan_first, &scan_first.error);
    if (scanner != NULL)
      g_thread_join (scanner);

    if (!scan_first.ok || !scan_second.ok)
      {
        g_propagate_error (error, !scan_first.ok ? g_steal_pointer (&scan_first.error)
                                                 : g_steal_pointer (&scan_second.error));
        g_clear_error (&scan_first.error);
        g_clear_error (&scan_second.error);
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

  r->host_start = lines->len > 0 ? (gsize) (g_array_index (lines, TmXLineInfo, 0).wire.p - r->base) : 0;
  r->host_done = &done;

  /* With two threads, the lines are read in parts of about a 64th of the
   * plane, taken from one queue by both threads in turn, so both stay
   * busy to the end whatever each part holds (a memory event costs more
   * than an other event walked past) and whatever else runs on the
   * machine. A part's start is a guess (the line is not walked from its
   * start to find it); it holds once the part before it has been read and
   * ends exactly there. When one does not, this thread reads the plane
   * again alone, line by line. Errors count in file order: a part's only
   * once every part before it held. */
  pieces = make_parts (r, lines, parallel ? MAX (total / (r->options->cut_lines ? 8 : PARTS_PER_PLANE), 1) : 0);
  queue.reader = r;
  queue.base = *r;
  queue.lines = lines;
  queue.parts = (Part *) (gpointer) pieces->data;
  queue.n_parts = pieces->len;
  queue.min_ts = min_ts;
  if (parallel && pieces->len > 1)
    thread = g_thread_new ("tidemark-read", part_worker, &second);
  part_worker (&first);
  if (thread != NULL)
    g_thread_join (thread);
  r->host_done = NULL;

  for (guint k = 0; k < queue.n_parts; k++)
    {
      Part *part = &queue.parts[k];

      if (!part->ok)
        {
          g_propagate_error (error, g_steal_pointer (&part->error));
          clear_parts (pieces);
          return FALSE;
        }
      if (part->reached != part->stop)
        {
          /* The next part's start was a wrong guess. */
          g_debug ("host plane: a part ends at byte %" G_GSIZE_FORMAT ", not where the next starts: read again",
                   (gsize) (part->reached - r->base));
          clear_parts (pieces);
          return read_host_plane_alone (r, lines, min_ts, error);
        }
    }

  merge_parts (r, queue.parts, queue.n_parts);
  for (guint k = 0; k < queue.n_parts; k++)
    {
      n_events += queue.parts[k].n_events;
      r->line_clock_changed |= queue.parts[k].clock_changed;
    }
  clear_parts (pieces);
  r->result->n_host_events = n_events;
  return TRUE;
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
