/* tm-torch-stores.c — a snapshot's devices as memory stores
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One store per device (its memory id): first one snapshot per allocation
 * live from the start, at the first entry's time, then one per trace
 * entry in entry order (docs/pytorch.md, "In the views"): heap = the
 * allocated series, free = reserved − allocated, no stack. A long trace
 * fills two stores on two threads from the walk's checkpoints, the second
 * appended to the first. Entries are decoded again from the pickle on
 * demand; a deallocation shows its allocation's stack. And per device its
 * segments over time and its out-of-memory entries (tm-segments).
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-torch-snapshot-private.h"
#include "tm-torch-stores.h"

/* A device's trace, as the store decodes it. */
typedef struct
{
  TmTorchSnapshot *snap;
  guint            device;
  GMutex           lock;
  GHashTable      *scopes;  /* frames word → its scope path ('/'-joined) */
  /* entry index → its pairing key, where that is not its address (below);
   * made before the store is filled, then only read */
  GHashTable      *keys;
  guint8          *keyed;   /* a bit per entry: whether keys holds it */
} Decoder;

/* Pairing keys. The store pairs an allocation with the first later
 * deallocation at its address, and XProf's table at the peak keeps one
 * allocation per address (docs/analysis.md, steps 4 and 6); PyTorch pairs
 * by its walk of the trace (docs/pytorch.md, "Allocations on the
 * timeline"). They agree but for allocations live from the start, whose
 * address the trace may use meanwhile, and allocations a second alloc at
 * their address left live: those, and the frees that end them, get keys
 * of their own, odd numbers, which no block address of PyTorch's
 * allocator is (those are multiples of 512). The store's address of an
 * event, and the decoder's sizes(), are its key; what the views show is
 * the address decode() gives. */
#define LIVE_KEY(k)   ((guint64) (k) * 2 + 1)
#define ORPHAN_KEY(i) ((G_GUINT64_CONSTANT (1) << 62) + (guint64) (i) * 2 + 1)

static void
set_key (Decoder *dec,
         guint    entry,
         guint64  key)
{
  g_hash_table_insert (dec->keys, GUINT_TO_POINTER (entry), g_memdup2 (&key, sizeof key));
  dec->keyed[entry / 8] |= (guint8) (1u << (entry % 8));
}

static void
make_keys (Decoder       *dec,
           TmTorchDevice *d)
{
  dec->keys = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  dec->keyed = g_new0 (guint8, d->n / 8 + 1);
  for (guint k = 0; k < d->figures.n_initially_allocated; k++)
    if (d->allocs[k].end >= 0)
      set_key (dec, (guint) d->allocs[k].end, LIVE_KEY (k));
  for (guint k = 0; k < d->orphans->len; k++)
    set_key (dec, g_array_index (d->orphans, guint32, k), ORPHAN_KEY (g_array_index (d->orphans, guint32, k)));
}

/* The pairing key of entry i at address. */
static guint64
key_of (Decoder *dec,
        guint    i,
        guint64  address)
{
  const guint64 *key;

  if (!(dec->keyed[i / 8] & (1u << (i % 8))))
    return address;
  key = g_hash_table_lookup (dec->keys, GUINT_TO_POINTER (i));
  return key != NULL ? *key : address;
}

/* Refs: an entry's index; LIVE_REF + k for the allocation k live from the
 * start (an index of tm_torch_snapshot_get_allocations()); STATE_REF for
 * the one snapshot of a device with neither. */
#define LIVE_REF  (G_GUINT64_CONSTANT (1) << 32)
#define STATE_REF (G_GUINT64_CONSTANT (2) << 32)

static void
decoder_free (gpointer data)
{
  Decoder *dec = data;

  g_mutex_clear (&dec->lock);
  g_hash_table_unref (dec->scopes);
  g_clear_pointer (&dec->keys, g_hash_table_unref);
  g_clear_pointer (&dec->keyed, g_free);
  tm_torch_snapshot_unref (dec->snap);
  g_free (dec);
}

/* The stack as a scope path: outermost frame first, one scope per frame
 * that PyTorch's filter keeps, joined by '/' (a '/' inside a frame becomes
 * '\'); "<non-python>" without frames. */
static char *
scope_path (Decoder       *dec,
            TmPickleValue  frames)
{
  char *path;

  g_mutex_lock (&dec->lock);
  path = g_strdup (g_hash_table_lookup (dec->scopes, &frames));
  g_mutex_unlock (&dec->lock);
  if (path != NULL)
    return path;

  {
    g_autofree char *stack = tm_torch_snapshot_format_stack (dec->snap, frames);
    TmPickleValue *key = g_new (TmPickleValue, 1);

    for (char *c = stack; *c != '\0'; c++)
      *c = *c == '/' ? '\\' : *c == ';' ? '/' : *c;
    *key = frames;
    g_mutex_lock (&dec->lock);
    if (g_hash_table_size (dec->scopes) < 1 << 20)
      g_hash_table_replace (dec->scopes, key, g_strdup (stack));
    else
      g_free (key);
    g_mutex_unlock (&dec->lock);
    return g_steal_pointer (&stack);
  }
}

static const char *
action_name (guint8 action)
{
  static const char * const names[] = {
    "alloc", "free_requested", "free_completed", "segment_alloc", "segment_free",
    "segment_map", "segment_unmap", "snapshot", "oom", "other",
  };

  return names[MIN (action, G_N_ELEMENTS (names) - 1)];
}

/* Where an allocation live from the start was found, as a region. */
static const char *
origin_name (TmTorchOrigin origin)
{
  return origin == TM_TORCH_ORIGIN_SNAPSHOT ? "block at snapshot" : "alloc not in trace";
}

/* The frames and stream of what ref is, for a decoded snapshot's names. */
static void
ref_frames (Decoder       *dec,
            TmTorchDevice *d,
            guint64        ref,
            TmPickleValue *frames,
            TmPickleValue *stream)
{
  *frames = TM_PICKLE_VALUE_NONE;
  *stream = TM_PICKLE_VALUE_NONE;
  if (ref < d->n)
    {
      TmTorchEntry entry;

      tm_torch_entry_read (dec->snap, d->entry[ref], &entry);
      *frames = entry.value[TM_TORCH_KEY_FRAMES];
      *stream = entry.value[TM_TORCH_KEY_STREAM];
    }
  else if (ref >= LIVE_REF && ref - LIVE_REF < d->n_allocs)
    {
      *frames = d->allocs[ref - LIVE_REF].frames;
      *stream = d->allocs[ref - LIVE_REF].stream;
    }
}

static gboolean
decode (gpointer     data,
        guint64      ref,
        guint64      meta_ref,
        TmActivity  *activity,
        GError     **error)
{
  Decoder *dec = data;
  TmTorchDevice *d = tm_torch_get_device (dec->snap, dec->device);
  TmPickle *p = dec->snap->pickle;
  TmPickleValue frames, stream, ignored;
  g_autofree char *stream_text = NULL;

  activity->data_type = g_strdup ("");
  if (ref < d->n)
    {
      TmTorchEntry entry;

      tm_torch_entry_read (dec->snap, d->entry[ref], &entry);
      tm_torch_entry_uint (p, &entry, TM_TORCH_KEY_ADDR, &activity->address);
      tm_torch_entry_int (p, &entry, TM_TORCH_KEY_SIZE, &activity->requested_bytes);
      activity->region_type = g_strdup (action_name (d->action[ref]));
    }
  else if (ref >= LIVE_REF && ref - LIVE_REF < d->n_allocs)
    {
      const TmTorchAllocation *a = &d->allocs[ref - LIVE_REF];

      activity->address = a->address;
      activity->requested_bytes = a->bytes;
      activity->region_type = g_strdup (origin_name (a->origin));
    }
  else
    {
      activity->op_name = g_strdup (_("(the state at snapshot time)"));
      activity->region_type = g_strdup ("snapshot");
      activity->shape = g_strdup ("");
      return TRUE;
    }
  activity->allocation_bytes = activity->requested_bytes;
  /* A deallocation shows its allocation's stack, its own stream. */
  ref_frames (dec, d, meta_ref, &frames, &ignored);
  ref_frames (dec, d, ref, &ignored, &stream);
  activity->op_name = scope_path (dec, frames);
  stream_text = tm_torch_snapshot_format_int (dec->snap, stream);
  activity->shape = g_strdup_printf ("stream %s", stream_text);
  return TRUE;
}

static gboolean
sizes (gpointer     data,
       guint64      ref,
       guint64     *address,
       gint64      *allocation_bytes,
       GError     **error)
{
  Decoder *dec = data;
  TmTorchDevice *d = tm_torch_get_device (dec->snap, dec->device);

  *address = 0;
  *allocation_bytes = 0;
  if (ref < d->n)
    {
      TmTorchEntry entry;

      tm_torch_entry_read_keys (dec->snap, d->entry[ref], 1u << TM_TORCH_KEY_ADDR | 1u << TM_TORCH_KEY_SIZE, &entry);
      tm_torch_entry_uint (dec->snap->pickle, &entry, TM_TORCH_KEY_ADDR, address);
      tm_torch_entry_int (dec->snap->pickle, &entry, TM_TORCH_KEY_SIZE, allocation_bytes);
      *address = key_of (dec, (guint) ref, *address);
    }
  else if (ref >= LIVE_REF && ref - LIVE_REF < d->n_allocs)
    {
      *address = LIVE_KEY (ref - LIVE_REF);
      *allocation_bytes = d->allocs[ref - LIVE_REF].bytes;
    }
  return TRUE;
}

static char *
stack (gpointer data,
       guint64  meta_ref)
{
  Decoder *dec = data;
  TmPickleValue frames, stream;

  ref_frames (dec, tm_torch_get_device (dec->snap, dec->device), meta_ref, &frames, &stream);
  return tm_torch_snapshot_format_frames (dec->snap, frames);
}

/* decode's names are the frames of meta_ref and the region, an action
 * (< 10) or an origin (10, 11): the key holds both. */
static gboolean
label (gpointer  data,
       guint64   ref,
       guint64   meta_ref,
       guint64  *address,
       gint64   *allocation_bytes,
       guint64  *key)
{
  Decoder *dec = data;
  TmTorchDevice *d = tm_torch_get_device (dec->snap, dec->device);
  TmPickleValue frames = TM_PICKLE_VALUE_NONE, ignored;
  guint region;

  if (ref < d->n)
    {
      TmTorchEntry entry;

      *address = 0;
      *allocation_bytes = 0;
      tm_torch_entry_read (dec->snap, d->entry[ref], &entry);
      tm_torch_entry_uint (dec->snap->pickle, &entry, TM_TORCH_KEY_ADDR, address);
      tm_torch_entry_int (dec->snap->pickle, &entry, TM_TORCH_KEY_SIZE, allocation_bytes);
      region = MIN (d->action[ref], 9);
      /* An allocation shows its own frames: the entry is read once. */
      if (meta_ref == ref)
        frames = entry.value[TM_TORCH_KEY_FRAMES];
    }
  else if (ref >= LIVE_REF && ref - LIVE_REF < d->n_allocs)
    {
      const TmTorchAllocation *a = &d->allocs[ref - LIVE_REF];

      *address = a->address;
      *allocation_bytes = a->bytes;
      region = a->origin == TM_TORCH_ORIGIN_SNAPSHOT ? 10 : 11;
    }
  else
    return FALSE;
  if (meta_ref != ref || ref >= d->n)
    ref_frames (dec, d, meta_ref, &frames, &ignored);
  if (frames >> 59 != 0)
    return FALSE;
  *key = frames << 4 | region;
  return TRUE;
}

static const TmMemoryStoreDecoder decoder = { decode, sizes, stack, label };

/* Microseconds since the first entry as picoseconds, saturating; the
 * entry index as microseconds without times. */
static gint64
entry_time_ps (TmTorchSnapshot    *self,
               TmTorchDevice      *d,
               const TmTorchEntry *entry,
               guint               index)
{
  gint64 t = 0;

  if (!d->figures.has_time)
    return tm_sat_mul (index, 1000000);
  tm_torch_entry_int (self->pickle, entry, TM_TORCH_KEY_TIME, &t);
  return tm_sat_mul (tm_sat_sub (t, d->figures.first_time_us), 1000000);
}

/* Entries of one microsecond are a picosecond apart, in order, after the
 * allocations live from the start (all at time 0), so that what the views
 * take as "at or before a time" ends at one entry, as PyTorch's walk does
 * (docs/pytorch.md, "In the views"). At most this many. */
#define MAX_TIES 999999

/* How many picoseconds after its microsecond entry i at time_ps comes:
 * one per entry before it there, and one for the allocations live from
 * the start. */
static gint64
ties_before (TmTorchSnapshot *self,
             TmTorchDevice   *d,
             guint            i,
             gint64           time_ps)
{
  gint64 n = 0;
  guint k = i;

  while (k > 0 && n < MAX_TIES)
    {
      TmTorchEntry entry;

      tm_torch_entry_read (self, d->entry[k - 1], &entry);
      if (entry_time_ps (self, d, &entry, k - 1) != time_ps)
        break;
      k--;
      n++;
    }
  if (k == 0 && time_ps == 0 && d->figures.n_initially_allocated > 0)
    n++;
  return MIN (n, MAX_TIES);
}

/* The bytes free_completed entry i frees: its size, unless the walk
 * noted others (d->freed, by entry). */
static gint64
freed_bytes (TmTorchDevice *d,
             guint          i,
             gint64         size)
{
  guint lo = 0, hi = d->freed->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const TmTorchFreed *f = &g_array_index (d->freed, TmTorchFreed, mid);

      if (f->entry == i)
        return f->bytes;
      if (f->entry < i)
        lo = mid + 1;
      else
        hi = mid;
    }
  return size;
}

/* Entries [from, to) of a device into store, starting from the walk's
 * state at checkpoint from / the snapshot's checkpoint. */
typedef struct
{
  TmTorchSnapshot *self;
  TmTorchDevice   *d;
  Decoder         *dec;
  TmMemoryStore   *store;
  guint            from;
  guint            to;
} Part;

static gpointer
fill_part (gpointer data)
{
  Part *part = data;
  TmTorchSnapshot *self = part->self;
  TmTorchDevice *d = part->d;
  const TmTorchFigures *f = &d->figures;
  const TmTorchCheckpoint *point = &g_array_index (d->checkpoints, TmTorchCheckpoint,
                                                   part->from / self->checkpoint);
  TmPickle *p = self->pickle;
  TmSnapshot snap = { 0 };
  gint64 v = tm_sat_add (f->initially_allocated_bytes, point->allocated_rel);
  gint64 high = tm_sat_add (f->initially_allocated_bytes, point->high_rel);
  gint64 r = tm_sat_add (f->reserved_bytes_at_start, point->reserved_rel);
  gint64 prev_ps = G_MININT64, ties = 0;

  g_assert (part->from % self->checkpoint == 0);
  snap.step_id = -1;
  for (guint i = part->from; i < part->to; i++)
    {
      TmTorchEntry entry;
      gint64 size = 0, time_ps;

      tm_torch_entry_read_keys (self, d->entry[i], 1u << TM_TORCH_KEY_ADDR | 1u << TM_TORCH_KEY_SIZE | 1u << TM_TORCH_KEY_TIME, &entry);
      time_ps = entry_time_ps (self, d, &entry, i);
      if (i == part->from)
        ties = ties_before (self, d, i, time_ps);
      else if (time_ps == prev_ps)
        ties = MIN (ties + 1, MAX_TIES);
      else
        ties = 0;
      prev_ps = time_ps;
      tm_torch_entry_int (p, &entry, TM_TORCH_KEY_SIZE, &size);
      snap.kind = TM_ACTIVITY_UNKNOWN;
      switch (d->action[i])
        {
        case TM_TORCH_ALLOC:
          v = tm_sat_add (v, size);
          snap.kind = TM_ACTIVITY_ALLOCATION;
          break;
        case TM_TORCH_FREE_COMPLETED:
          v = tm_sat_sub (v, freed_bytes (d, i, size));
          snap.kind = TM_ACTIVITY_DEALLOCATION;
          break;
        case TM_TORCH_SEGMENT_ALLOC:
        case TM_TORCH_SEGMENT_MAP:
          r = tm_sat_add (r, size);
          break;
        case TM_TORCH_SEGMENT_FREE:
        case TM_TORCH_SEGMENT_UNMAP:
          r = tm_sat_sub (r, size);
          break;
        default:
          break;
        }
      high = MAX (high, v);
      snap.time_ps = tm_sat_add (time_ps, ties);
      snap.heap_bytes = v;
      snap.free_bytes = MAX (tm_sat_sub (r, v), 0);
      snap.peak_bytes_in_use = high;
      snap.address = 0;
      if (snap.kind != TM_ACTIVITY_UNKNOWN)
        {
          tm_torch_entry_uint (p, &entry, TM_TORCH_KEY_ADDR, &snap.address);
          snap.address = key_of (part->dec, i, snap.address);
        }
      snap.ref = i;
      tm_memory_store_add (part->store, &snap);
    }
  return NULL;
}

static TmMemoryStore *
build_store (TmTorchSnapshot *self,
             guint            device)
{
  TmTorchDevice *d = tm_torch_get_device (self, device);
  const TmTorchFigures *f = &d->figures;
  Decoder *dec = g_new0 (Decoder, 1);
  TmMemoryStore *store;
  TmSnapshot snap = { 0 };
  gint64 v = 0;
  guint mid;

  dec->snap = tm_torch_snapshot_ref (self);
  dec->device = device;
  g_mutex_init (&dec->lock);
  dec->scopes = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  make_keys (dec, d);
  store = tm_memory_store_new_with_decoder (d->id, &decoder, dec, decoder_free);

  /* The allocations live from the start, at the first entry's time: the
   * heap climbs to v0 before the first entry. */
  snap.step_id = -1;
  snap.kind = TM_ACTIVITY_ALLOCATION;
  for (guint k = 0; k < f->n_initially_allocated; k++)
    {
      v = tm_sat_add (v, d->allocs[k].bytes);
      snap.time_ps = 0;
      snap.heap_bytes = v;
      snap.free_bytes = MAX (tm_sat_sub (f->reserved_bytes_at_start, v), 0);
      snap.peak_bytes_in_use = v;
      snap.address = LIVE_KEY (k);
      snap.ref = LIVE_REF + k;
      tm_memory_store_add (store, &snap);
    }
  if (d->n == 0)
    {
      /* No trace: the state at snapshot time, a flat timeline. */
      if (f->n_initially_allocated == 0)
        {
          snap.kind = TM_ACTIVITY_UNKNOWN;
          snap.time_ps = 0;
          snap.heap_bytes = 0;
          snap.free_bytes = MAX (f->reserved_bytes_at_start, 0);
          snap.peak_bytes_in_use = 0;
          snap.address = 0;
          snap.ref = STATE_REF;
          tm_memory_store_add (store, &snap);
        }
      return store;
    }

  /* The trace in two parts on two threads when it is long: the second
   * starts at the checkpoint nearest its middle. */
  mid = (d->n / 2 + self->checkpoint / 2) / self->checkpoint * self->checkpoint;
  if (d->n >= self->two_parts_min && mid > 0 && mid < d->n && g_get_num_processors () >= 2)
    {
      g_autoptr(TmMemoryStore) later = tm_memory_store_new_with_decoder (d->id, &decoder, dec, NULL);
      Part first = { self, d, dec, store, 0, mid };
      Part second = { self, d, dec, later, mid, d->n };
      GThread *thread = g_thread_new ("tidemark-torch-store", fill_part, &second);

      fill_part (&first);
      g_thread_join (thread);
      tm_memory_store_append (store, later);
    }
  else
    {
      Part all = { self, d, dec, store, 0, d->n };

      fill_part (&all);
    }
  return store;
}

GPtrArray *
tm_torch_snapshot_build_stores (TmTorchSnapshot *self)
{
  GPtrArray *stores = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_val_if_fail (self != NULL, stores);

  for (guint i = 0; i < self->devices->len; i++)
    g_ptr_array_add (stores, build_store (self, i));
  return stores;
}

/* ------------------------------------------------------------------ */
/* Segments and out-of-memory entries (tm-segments)                     */

/* A segment's address range not given back yet, and since when. */
typedef struct
{
  guint64 address;
  gint64  bytes;
  gint64  start_ps;
  gint64  start_entry;
  guint   flags;
} OpenRange;

static gint
compare_addresses (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/* The end of [address, address + bytes), saturating. */
static guint64
range_end (guint64 address,
           gint64  bytes)
{
  guint64 end;

  if (bytes <= 0 || __builtin_add_overflow (address, (guint64) bytes, &end))
    return bytes <= 0 ? address : G_MAXUINT64;
  return end;
}

static void
emit (GArray  *out,
      guint64  address,
      guint64  end,
      gint64   start_ps,
      gint64   end_ps,
      gint64   start_entry,
      gint64   end_entry,
      guint    flags)
{
  TmSegment s = { address, (gint64) MIN (end - address, (guint64) G_MAXINT64), start_ps, end_ps,
                  (TmSegmentFlags) flags, start_entry, end_entry };

  if (end > address)
    g_array_append_val (out, s);
}

static void
open_range (GTree   *open,
            guint64  address,
            guint64  end,
            gint64   start_ps,
            gint64   start_entry,
            guint    flags)
{
  OpenRange *r;

  if (end <= address)
    return;
  r = g_new (OpenRange, 1);
  r->address = address;
  r->bytes = (gint64) MIN (end - address, (guint64) G_MAXINT64);
  r->start_ps = start_ps;
  r->start_entry = start_entry;
  r->flags = flags;
  g_tree_replace (open, &r->address, r);
}

/* The open ranges that overlap [address, end), in address order. */
static GPtrArray *
overlapping (GTree   *open,
             guint64  address,
             guint64  end)
{
  GPtrArray *found = g_ptr_array_new ();
  GTreeNode *node = g_tree_lower_bound (open, &address);
  GTreeNode *before = node != NULL ? g_tree_node_previous (node) : g_tree_node_last (open);

  if (before != NULL)
    {
      OpenRange *r = g_tree_node_value (before);

      if (range_end (r->address, r->bytes) > address)
        g_ptr_array_add (found, r);
    }
  for (; node != NULL; node = g_tree_node_next (node))
    {
      OpenRange *r = g_tree_node_value (node);

      if (r->address >= end)
        break;
      g_ptr_array_add (found, r);
    }
  return found;
}

/* [address, end) is given back at time t by entry: the open ranges it
 * overlaps end then (what of them lies outside stays, from then on), and
 * with gaps, the parts of it no range held were reserved before the
 * trace. */
static void
close_range (GTree   *open,
             GArray  *out,
             guint64  address,
             guint64  end,
             gint64   t,
             gint64   entry,
             gboolean gaps)
{
  g_autoptr(GPtrArray) found = overlapping (open, address, end);
  guint64 at = address;

  for (guint i = 0; i < found->len; i++)
    {
      OpenRange r = *(OpenRange *) g_ptr_array_index (found, i);
      guint64 r_end = range_end (r.address, r.bytes);

      if (gaps && r.address > at)
        emit (out, at, r.address, 0, t, -1, entry, TM_SEGMENT_BEFORE_TRACE);
      at = MAX (at, r_end);
      emit (out, r.address, r_end, r.start_ps, t, r.start_entry, entry, r.flags);
      g_tree_remove (open, &r.address);
      open_range (open, r.address, MIN (r_end, address), t, entry, 0);
      open_range (open, MAX (r.address, end), r_end, t, entry, 0);
    }
  if (gaps && at < end)
    emit (out, at, end, 0, t, -1, entry, TM_SEGMENT_BEFORE_TRACE);
}

static gint
compare_segments (gconstpointer a,
                  gconstpointer b)
{
  const TmSegment *x = a, *y = b;

  if (x->start_ps != y->start_ps)
    return x->start_ps < y->start_ps ? -1 : 1;
  return x->address < y->address ? -1 : x->address > y->address;
}

static gint64
time_of (TmTorchSnapshot *self,
         TmTorchDevice   *d,
         guint            index,
         TmTorchEntry    *entry)
{
  gint64 t;

  tm_torch_entry_read (self, d->entry[index], entry);
  t = entry_time_ps (self, d, entry, index);
  return tm_sat_add (t, ties_before (self, d, index, t));
}

static TmSegments *
build_segments (TmTorchSnapshot *self,
                guint            device)
{
  TmTorchDevice *d = tm_torch_get_device (self, device);
  const TmTorchFigures *f = &d->figures;
  TmPickle *p = self->pickle;
  TmSegmentsState state = { 0 };
  g_autoptr(GTree) open = g_tree_new_full (compare_addresses, NULL, NULL, g_free);
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (TmSegment));
  TmSegments *segments;
  TmTorchEntry entry;
  gint64 last_ps = 0;

  state.n_trace_entries = f->n_entries;
  state.n_alloc_entries = f->n_allocations;
  state.n_free_entries = f->n_deallocations;
  state.n_initially_allocated = f->n_initially_allocated;
  state.initially_allocated_bytes = f->initially_allocated_bytes;
  state.peak_reserved_bytes = f->peak_reserved_bytes;
  state.n_segments = f->n_segments;
  state.n_blocks = f->n_blocks;
  state.reserved_bytes = f->snapshot_reserved_bytes;
  state.allocated_bytes = f->snapshot_allocated_bytes;
  state.free_internal_bytes = f->free_internal_bytes;
  state.free_external_bytes = f->free_external_bytes;
  state.largest_inactive_block_bytes = f->largest_inactive_block_bytes;
  if (f->free_external_bytes > 0)
    state.fragmentation = 1.0 - (double) f->largest_inactive_block_bytes / (double) f->free_external_bytes;
  segments = tm_segments_new (d->id, &state);
  if (d->n > 0)
    last_ps = time_of (self, d, d->n - 1, &entry);

  for (guint k = 0; k < d->events->len; k++)
    {
      guint i = g_array_index (d->events, guint32, k);
      gint64 t = time_of (self, d, i, &entry);
      guint64 address = 0;
      gint64 size = 0;

      tm_torch_entry_uint (p, &entry, TM_TORCH_KEY_ADDR, &address);
      tm_torch_entry_int (p, &entry, TM_TORCH_KEY_SIZE, &size);
      switch (d->action[i])
        {
        case TM_TORCH_SEGMENT_ALLOC:
        case TM_TORCH_SEGMENT_MAP:
          /* Over anything still open there (not in a consistent file). */
          close_range (open, out, address, range_end (address, size), t, i, FALSE);
          open_range (open, address, range_end (address, size), t, i, 0);
          break;
        case TM_TORCH_SEGMENT_FREE:
        case TM_TORCH_SEGMENT_UNMAP:
          close_range (open, out, address, range_end (address, size), t, i, TRUE);
          break;
        case TM_TORCH_OOM:
          {
            TmOutOfMemory oom = { t, size, -1, i };
            gint64 free_bytes;

            if (tm_torch_lookup_int (p, d->entry[i], "device_free", &free_bytes))
              oom.device_free_bytes = free_bytes;
            tm_segments_add_out_of_memory (segments, &oom);
          }
          break;
        default:
          break;
        }
    }

  /* At snapshot time: the segments no open range holds were there for
   * the whole trace; the open ranges until its end. */
  for (guint s = 0; s < d->segments->len; s++)
    {
      TmPickleValue seg = g_array_index (d->segments, TmPickleValue, s);
      guint64 address = 0, at;
      gint64 total = 0;
      g_autoptr(GPtrArray) found = NULL;

      tm_torch_lookup_addr (p, seg, "address", &address);
      tm_torch_lookup_int (p, seg, "total_size", &total);
      found = overlapping (open, address, range_end (address, total));
      at = address;
      for (guint i = 0; i < found->len; i++)
        {
          OpenRange *r = g_ptr_array_index (found, i);

          if (r->address > at)
            emit (out, at, r->address, 0, last_ps, -1, -1, TM_SEGMENT_BEFORE_TRACE | TM_SEGMENT_AT_SNAPSHOT);
          at = MAX (at, range_end (r->address, r->bytes));
        }
      if (at < range_end (address, total))
        emit (out, at, range_end (address, total), 0, last_ps, -1, -1,
              TM_SEGMENT_BEFORE_TRACE | TM_SEGMENT_AT_SNAPSHOT);
    }
  for (GTreeNode *node = g_tree_node_first (open); node != NULL; node = g_tree_node_next (node))
    {
      OpenRange *r = g_tree_node_value (node);

      emit (out, r->address, range_end (r->address, r->bytes), r->start_ps, last_ps, r->start_entry, -1,
            r->flags | TM_SEGMENT_AT_SNAPSHOT);
    }

  g_array_sort (out, compare_segments);
  for (guint k = 0; k < out->len; k++)
    tm_segments_add_segment (segments, &g_array_index (out, TmSegment, k));
  return segments;
}

GPtrArray *
tm_torch_snapshot_build_segments (TmTorchSnapshot *self)
{
  GPtrArray *all = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_val_if_fail (self != NULL, all);

  for (guint i = 0; i < self->devices->len; i++)
    g_ptr_array_add (all, build_segments (self, i));
  return all;
}
