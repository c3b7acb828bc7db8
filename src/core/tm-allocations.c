/* tm-allocations.c — every allocation of one memory id: lifetime and address
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Built from the store's partner column (docs/analysis.md, "Allocations
 * and the memory map"); the layout is in the header.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tm-addr-map.h"
#include "tm-allocations-private.h"

#define BYTES_MASK ((G_GUINT64_CONSTANT (1) << 40) - 1)
#define MAX_LABEL ((1u << 24) - 1)
#define CANCEL_CHECK_INTERVAL 65536

G_DEFINE_FINAL_TYPE (TmAllocations, tm_allocations, G_TYPE_OBJECT)

static void
tm_allocations_finalize (GObject *object)
{
  TmAllocations *self = (TmAllocations *) object;

  g_clear_object (&self->store);
  g_free (self->items);
  g_free (self->block_max_end);
  g_clear_pointer (&self->label_strings, g_ptr_array_unref);
  /* A subset's labels and spans are its parent's. */
  if (self->parent == NULL)
    {
      g_free (self->labels);
      g_free (self->spans);
    }
  g_clear_object (&self->parent);
  g_free (self->parent_index);

  G_OBJECT_CLASS (tm_allocations_parent_class)->finalize (object);
}

static void
tm_allocations_class_init (TmAllocationsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_allocations_finalize;
}

static void
tm_allocations_init (TmAllocations *self)
{
}

/* ------------------------------------------------------------------ */
/* Pairing                                                              */

/* A store of XProf JSON keeps no partner column (its points are sampled):
 * pair them here by the same rule as the store's lifetimes. */
static guint32 *
pair_json (TmMemoryStore  *store,
           GError        **error)
{
  guint n = tm_memory_store_get_n_snapshots (store);
  g_autofree guint32 *partner = g_new (guint32, MAX (n, 1));
  g_autoptr(TmAddrMap) live = tm_addr_map_new ();

  for (guint i = 0; i < n; i++)
    partner[i] = TM_MEMORY_STORE_NO_PARTNER;

  for (guint i = 0; i < n; i++)
    {
      guint64 addr;
      gint64 bytes;
      guint32 other;

      if (!tm_memory_store_get_event_sizes (store, i, &addr, &bytes, error))
        return NULL;
      if (tm_memory_store_get_kind (store, i) == TM_ACTIVITY_ALLOCATION)
        {
          if (tm_addr_map_lookup (live, addr, &other))
            partner[other] = i;
          tm_addr_map_insert (live, addr, i);
        }
      else if (tm_addr_map_remove (live, addr, &other))
        partner[other] = i;
    }
  return g_steal_pointer (&partner);
}

gboolean
tm_allocations_foreach (TmMemoryStore    *store,
                        TmAllocationFunc  func,
                        gpointer          user_data,
                        GCancellable     *cancellable,
                        GError          **error)
{
  g_autofree guint32 *own = NULL;
  g_autofree guint8 *ended = NULL;
  const guint32 *partner;
  guint n;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  n = tm_memory_store_get_n_snapshots (store);
  if (n == 0)
    return TRUE;

  if (tm_memory_store_is_complete (store))
    partner = tm_memory_store_get_partners (store);
  else
    {
      own = pair_json (store, error);
      if (own == NULL)
        return FALSE;
      partner = own;
    }

  /* One bit per snapshot: the deallocations that end an allocation. An
   * allocation comes before what ends it, so one pass in time order
   * knows, at each deallocation, whether something ended there. */
  ended = g_new0 (guint8, n / 8 + 1);
  for (guint i = 0; i < n; i++)
    {
      TmActivityKind kind = tm_memory_store_get_kind (store, i);

      if ((i % CANCEL_CHECK_INTERVAL) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      if (kind == TM_ACTIVITY_ALLOCATION)
        {
          guint32 end = partner[i];

          if (end != TM_MEMORY_STORE_NO_PARTNER)
            ended[end >> 3] |= 1u << (end & 7);
          if (!func (store, i, end == TM_MEMORY_STORE_NO_PARTNER ? TM_ALLOCATIONS_OPEN : end, user_data))
            return TRUE;
        }
      else if (kind == TM_ACTIVITY_DEALLOCATION && (ended[i >> 3] & (1u << (i & 7))) == 0)
        {
          if (!func (store, TM_ALLOCATIONS_OPEN, i, user_data))
            return TRUE;
        }
    }
  return TRUE;
}

typedef struct
{
  guint   count;
  gint64  bytes;
  GError *error;
} NeverFreed;

static gboolean
count_never_freed_one (TmMemoryStore *store,
                       guint32        start,
                       guint32        end,
                       gpointer       user_data)
{
  NeverFreed *nf = user_data;
  guint64 addr;
  gint64 bytes;

  if (end != TM_ALLOCATIONS_OPEN)
    return TRUE;
  if (!tm_memory_store_get_event_sizes (store, start, &addr, &bytes, &nf->error))
    return FALSE;
  nf->count++;
  nf->bytes = tm_sat_add (nf->bytes, bytes);
  return TRUE;
}

gboolean
tm_allocations_count_never_freed (TmMemoryStore  *store,
                                  guint          *count,
                                  gint64         *bytes,
                                  GError        **error)
{
  NeverFreed nf = { 0, 0, NULL };

  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), FALSE);

  if (tm_memory_store_is_complete (store))
    {
      /* The same as the walk below, without its bookkeeping: an
       * allocation nothing ends is never freed. */
      const guint32 *partner = tm_memory_store_get_partners (store);
      guint n = tm_memory_store_get_n_snapshots (store);

      for (guint i = 0; i < n && nf.error == NULL; i++)
        if (partner[i] == TM_MEMORY_STORE_NO_PARTNER &&
            tm_memory_store_get_kind (store, i) == TM_ACTIVITY_ALLOCATION)
          count_never_freed_one (store, i, TM_ALLOCATIONS_OPEN, &nf);
    }
  else if (!tm_allocations_foreach (store, count_never_freed_one, &nf, NULL, error))
    return FALSE;
  if (nf.error != NULL)
    {
      g_propagate_error (error, nf.error);
      return FALSE;
    }
  *count = nf.count;
  *bytes = nf.bytes;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Building                                                             */

typedef struct
{
  GArray      *open_start;  /* TmAllocation */
  GArray      *items;       /* TmAllocation */
  GHashTable  *label_ids;   /* "op\x1fregion\x1fdtype" → id + 1 */
  GHashTable  *label_keys;  /* the store's label key → id + 1 */
  GPtrArray   *label_strings;
  GError      *error;
} Builder;

static guint
intern_label (Builder          *b,
              const TmActivity *act)
{
  g_autofree char *key = g_strconcat (act->op_name, "\x1f", act->region_type, "\x1f", act->data_type, NULL);
  gpointer id;
  guint n = b->label_strings->len / 3;

  if (g_hash_table_lookup_extended (b->label_ids, key, NULL, &id))
    return GPOINTER_TO_UINT (id) - 1;
  if (n >= MAX_LABEL)
    return MAX_LABEL;
  g_ptr_array_add (b->label_strings, g_strdup (act->op_name));
  g_ptr_array_add (b->label_strings, g_strdup (act->region_type));
  g_ptr_array_add (b->label_strings, g_strdup (act->data_type));
  g_hash_table_insert (b->label_ids, g_steal_pointer (&key), GUINT_TO_POINTER (n + 1));
  return n;
}

static gboolean
build_one (TmMemoryStore *store,
           guint32        start,
           guint32        end,
           gpointer       user_data)
{
  Builder *b = user_data;
  guint index = start != TM_ALLOCATIONS_OPEN ? start : end;
  TmActivity act;
  TmAllocation a;
  guint64 key;
  gint64 bytes;
  gpointer id = NULL;
  gboolean keyed = tm_memory_store_get_label_key (store, index, &a.address, &bytes, &key);

  /* Names once per label key, where the store has keys. */
  if (!keyed || !g_hash_table_lookup_extended (b->label_keys, &key, NULL, &id))
    {
      if (!tm_memory_store_get_activity (store, index, &act, &b->error))
        return FALSE;
      bytes = act.allocation_bytes;
      a.address = act.address;
      id = GUINT_TO_POINTER (intern_label (b, &act) + 1);
      tm_activity_clear (&act);
      if (keyed)
        g_hash_table_insert (b->label_keys, g_memdup2 (&key, sizeof key), id);
    }
  a.bytes_label = (bytes < 0 ? 0 : MIN ((guint64) bytes, BYTES_MASK)) |
                  ((guint64) (GPOINTER_TO_UINT (id) - 1) << 40);
  a.start = start;
  a.end = end;

  g_array_append_val (start == TM_ALLOCATIONS_OPEN ? b->open_start : b->items, a);
  return TRUE;
}

typedef struct
{
  guint64 address;
  guint64 end;
} Range;

/* Sorting by address, in place: there are as many ranges as allocations,
 * and a merge sort's buffer of as many again was most of the memory the
 * index took while it was built (and kept in the builder thread's malloc
 * arena after). An introsort: quicksort (Hoare's partition, which splits
 * runs of one address evenly: allocators reuse addresses), insertion sort
 * for short runs, heap sort where quicksort goes too deep. */
static void
sift_down (Range *r,
           gsize  root,
           gsize  n)
{
  Range v = r[root];

  for (;;)
    {
      gsize child = 2 * root + 1;

      if (child >= n)
        break;
      if (child + 1 < n && r[child + 1].address > r[child].address)
        child++;
      if (r[child].address <= v.address)
        break;
      r[root] = r[child];
      root = child;
    }
  r[root] = v;
}

static void
heap_sort (Range *r,
           gsize  n)
{
  for (gsize i = n / 2; i-- > 0;)
    sift_down (r, i, n);
  for (gsize end = n; end-- > 1;)
    {
      Range top = r[0];

      r[0] = r[end];
      r[end] = top;
      sift_down (r, 0, end);
    }
}

static void
insertion_sort (Range *r,
                gsize  n)
{
  for (gsize i = 1; i < n; i++)
    {
      Range v = r[i];
      gsize j = i;

      for (; j > 0 && r[j - 1].address > v.address; j--)
        r[j] = r[j - 1];
      r[j] = v;
    }
}

/* Pivots from places a xorshift picks: allocators' addresses come in
 * patterns (a trace repeated, blocks reused in turn) that defeat the
 * first, middle and last. */
static gsize
pick (guint64 *state,
      gsize    n)
{
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return (gsize) (*state % n);
}

static void
intro_sort (Range   *r,
            gsize    n,
            guint    depth,
            guint64 *state)
{
  while (n > 16)
    {
      guint64 a, b, c, pivot;
      gsize i, j;

      if (depth-- == 0)
        {
          heap_sort (r, n);
          return;
        }
      /* The median of three addresses. */
      a = r[pick (state, n)].address;
      b = r[pick (state, n)].address;
      c = r[pick (state, n)].address;
      pivot = a < b ? (b < c ? b : MAX (a, c)) : (a < c ? a : MAX (b, c));
      i = 0;
      j = n - 1;
      for (;;)
        {
          Range t;

          while (r[i].address < pivot)
            i++;
          while (r[j].address > pivot)
            j--;
          if (i >= j)
            break;
          t = r[i];
          r[i] = r[j];
          r[j] = t;
          i++;
          j--;
        }
      /* [0, j] ≤ pivot ≤ [j + 1, n): the smaller side first, the other
       * by the loop, so the stack stays shallow. */
      if (j + 1 < n - (j + 1))
        {
          intro_sort (r, j + 1, depth, state);
          r += j + 1;
          n -= j + 1;
        }
      else
        {
          intro_sort (r + j + 1, n - (j + 1), depth, state);
          n = j + 1;
        }
    }
  insertion_sort (r, n);
}

static void
sort_ranges (Range *r,
             gsize  n)
{
  guint64 state = G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  guint depth = 0;

  for (gsize m = n; m > 1; m >>= 1)
    depth += 2;
  intro_sort (r, n, depth, &state);
}


/* The address axis: the union of every allocation's addresses, split where
 * a gap is longer than a sixteenth of the used bytes (and at least 1 MiB);
 * each cut gap becomes a break of a fiftieth of the used bytes. */
static void
build_spans (TmAllocations *self)
{
  g_autofree Range *r = g_new (Range, MAX (self->n, 1));
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (TmAddressSpan));
  guint64 used = 0, cut, brk, offset = 0;
  guint n_merged = 0;

  if (self->n == 0)
    return;

  for (guint i = 0; i < self->n; i++)
    {
      r[i].address = self->items[i].address;
      r[i].end = tm_allocations_item_end_address (&self->items[i]);
    }
  sort_ranges (r, self->n);

  /* Overlapping and touching ranges merged, into the start of r. */
  for (guint i = 0; i < self->n; i++)
    {
      if (n_merged > 0 && r[i].address <= r[n_merged - 1].end)
        r[n_merged - 1].end = MAX (r[n_merged - 1].end, r[i].end);
      else
        r[n_merged++] = r[i];
    }
  for (guint i = 0; i < n_merged; i++)
    used += r[i].end - r[i].address;

  cut = MAX (used / 16, 1024 * 1024);
  brk = MAX (used / 50, 1);
  for (guint i = 0; i < n_merged; i++)
    {
      const Range *m = &r[i];
      TmAddressSpan *last = spans->len > 0 ? &g_array_index (spans, TmAddressSpan, spans->len - 1) : NULL;

      if (last != NULL && m->address - last->end <= cut)
        {
          offset += m->end - last->end;
          last->end = m->end;
        }
      else
        {
          TmAddressSpan s = { m->address, m->end, last != NULL ? offset + brk : 0 };

          g_array_append_val (spans, s);
          offset = s.offset + (m->end - m->address);
        }
    }

  self->axis_length = offset;
  self->n_spans = spans->len;
  self->spans = (TmAddressSpan *) g_array_free (g_steal_pointer (&spans), FALSE);
}



/* The latest end per block of items and what was never freed. */
static void
sum_items (TmAllocations *self)
{
  guint n_blocks = (self->n + BLOCK_SIZE - 1) / BLOCK_SIZE;

  self->block_max_end = g_new (gint64, MAX (n_blocks, 1));
  for (guint blk = 0; blk < n_blocks; blk++)
    {
      gint64 m = G_MININT64;

      for (guint i = blk * BLOCK_SIZE; i < MIN (self->n, (blk + 1) * BLOCK_SIZE); i++)
        m = MAX (m, tm_allocations_item_end (self, &self->items[i]));
      self->block_max_end[blk] = m;
    }

  for (guint i = 0; i < self->n; i++)
    if (self->items[i].end == TM_ALLOCATIONS_OPEN)
      {
        self->n_never_freed++;
        self->never_freed_bytes += TM_ALLOCATION_BYTES (&self->items[i]);
      }
}

TmAllocations *
tm_allocations_new (TmMemoryStore  *store,
                    GCancellable   *cancellable,
                    GError        **error)
{
  g_autoptr(TmAllocations) self = NULL;
  Builder b;
  gboolean ok;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), NULL);

  self = g_object_new (TM_TYPE_ALLOCATIONS, NULL);
  self->store = g_object_ref (store);
  self->times = tm_memory_store_get_times (store);
  self->first_time = tm_memory_store_get_summary (store)->first_time_ps;
  self->last_time = tm_memory_store_get_summary (store)->last_time_ps;

  b.open_start = g_array_new (FALSE, FALSE, sizeof (TmAllocation));
  b.items = g_array_sized_new (FALSE, FALSE, sizeof (TmAllocation),
                               tm_memory_store_get_summary (store)->n_allocations);
  b.label_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  b.label_keys = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  b.label_strings = g_ptr_array_new_with_free_func (g_free);
  b.error = NULL;

  ok = tm_allocations_foreach (store, build_one, &b, cancellable, error);
  if (ok && b.error != NULL)
    {
      g_propagate_error (error, b.error);
      ok = FALSE;
    }
  g_hash_table_unref (b.label_ids);
  g_hash_table_unref (b.label_keys);
  if (!ok)
    {
      g_array_unref (b.open_start);
      g_array_unref (b.items);
      g_ptr_array_unref (b.label_strings);
      return NULL;
    }

  /* Those from the profile's start first (in deallocation order), then
   * in allocation order: start times never decrease. */
  self->n_open_start = b.open_start->len;
  g_array_prepend_vals (b.items, b.open_start->data, b.open_start->len);
  g_array_unref (b.open_start);
  self->n = b.items->len;
  self->items = (TmAllocation *) g_array_free (b.items, FALSE);

  self->label_strings = b.label_strings;
  self->n_labels = self->label_strings->len / 3;
  self->labels = g_new (TmAllocationLabel, MAX (self->n_labels, 1));
  for (guint i = 0; i < self->n_labels; i++)
    {
      self->labels[i].op_name = g_ptr_array_index (self->label_strings, 3 * i);
      self->labels[i].region_type = g_ptr_array_index (self->label_strings, 3 * i + 1);
      self->labels[i].data_type = g_ptr_array_index (self->label_strings, 3 * i + 2);
    }

  sum_items (self);
  build_spans (self);

  return g_steal_pointer (&self);
}

TmAllocations *
tm_allocations_new_subset (TmAllocations *self,
                           const guint   *indices,
                           guint          n)
{
  TmAllocations *sub;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), NULL);
  g_return_val_if_fail (indices != NULL || n == 0, NULL);
  for (guint i = 0; i < n; i++)
    g_return_val_if_fail (indices[i] < self->n && (i == 0 || indices[i] > indices[i - 1]), NULL);

  sub = g_object_new (TM_TYPE_ALLOCATIONS, NULL);
  sub->store = g_object_ref (self->store);
  sub->times = self->times;
  sub->first_time = self->first_time;
  sub->last_time = self->last_time;
  sub->parent = g_object_ref (self);
  sub->labels = self->labels;
  sub->n_labels = self->n_labels;
  sub->spans = self->spans;
  sub->n_spans = self->n_spans;
  sub->axis_length = self->axis_length;

  /* In the parent's order, so start times still never decrease and those
   * from the profile's start still come first. */
  sub->n = n;
  sub->items = g_new (TmAllocation, MAX (n, 1));
  sub->parent_index = g_new (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      sub->items[i] = self->items[indices[i]];
      sub->parent_index[i] = indices[i];
      if (indices[i] < self->n_open_start)
        sub->n_open_start++;
    }
  sum_items (sub);
  return sub;
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */

TmMemoryStore *
tm_allocations_get_store (TmAllocations *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), NULL);
  return self->store;
}

guint
tm_allocations_get_n (TmAllocations *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), 0);
  return self->n;
}

const TmAllocation *
tm_allocations_get (TmAllocations *self,
                    guint          index)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), NULL);
  g_return_val_if_fail (index < self->n, NULL);
  return &self->items[index];
}

const TmAllocation *
tm_allocations_get_all (TmAllocations *self,
                        guint         *n_items)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), NULL);
  if (n_items != NULL)
    *n_items = self->n;
  return self->items;
}

const TmAllocationLabel *
tm_allocations_get_label (TmAllocations *self,
                          guint          label)
{
  static const TmAllocationLabel none = { "", "", "" };

  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), NULL);
  return label < self->n_labels ? &self->labels[label] : &none;
}

guint
tm_allocations_get_n_labels (TmAllocations *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), 0);
  return self->n_labels;
}

gint64
tm_allocations_get_start_time (TmAllocations *self,
                               guint          index)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), 0);
  g_return_val_if_fail (index < self->n, 0);
  return tm_allocations_item_start (self, &self->items[index]);
}

gint64
tm_allocations_get_end_time (TmAllocations *self,
                             guint          index)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), 0);
  g_return_val_if_fail (index < self->n, 0);
  return tm_allocations_item_end (self, &self->items[index]);
}

guint
tm_allocations_get_event (TmAllocations *self,
                          guint          index)
{
  const TmAllocation *a;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), 0);
  g_return_val_if_fail (index < self->n, 0);
  a = &self->items[index];
  return a->start != TM_ALLOCATIONS_OPEN ? a->start : a->end;
}

guint
tm_allocations_find_by_snapshot (TmAllocations *self,
                                 guint          snapshot)
{
  guint lo, hi;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), TM_ALLOCATIONS_NONE);

  lo = self->n_open_start;
  hi = self->n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->items[mid].start < snapshot)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < self->n && self->items[lo].start == snapshot ? lo : TM_ALLOCATIONS_NONE;
}

guint
tm_allocations_get_n_never_freed (TmAllocations *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), 0);
  return self->n_never_freed;
}

gint64
tm_allocations_get_never_freed_bytes (TmAllocations *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), 0);
  return self->never_freed_bytes;
}

GArray *
tm_allocations_query_never_freed (TmAllocations *self)
{
  GArray *out;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), NULL);

  out = g_array_sized_new (FALSE, FALSE, sizeof (guint), self->n_never_freed);
  for (guint i = 0; i < self->n; i++)
    if (self->items[i].end == TM_ALLOCATIONS_OPEN)
      g_array_append_val (out, i);
  return out;
}

GArray *
tm_allocations_query_never_freed_events (TmAllocations *self)
{
  GArray *out;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), NULL);

  /* Never freed means an allocation event that nothing ends, so start is
   * never open; in index order the events ascend. */
  out = g_array_sized_new (FALSE, FALSE, sizeof (guint), self->n_never_freed);
  for (guint i = self->n_open_start; i < self->n; i++)
    if (self->items[i].end == TM_ALLOCATIONS_OPEN)
      {
        guint event = self->items[i].start;

        g_array_append_val (out, event);
      }
  return out;
}

/* Calls body for every allocation i whose time range meets [t0, t1];
 * blocks that all end before t0 are skipped. */
#define FOR_EACH_IN_TIME(self, t0, t1, i, a, ...)                              \
  G_STMT_START {                                                                \
    guint end_ = tm_allocations_candidates_end ((self), (t1));                                 \
    for (guint blk_ = 0; blk_ * BLOCK_SIZE < end_; blk_++)                      \
      {                                                                         \
        if ((self)->block_max_end[blk_] < (t0))                                 \
          continue;                                                             \
        for (guint i = blk_ * BLOCK_SIZE; i < MIN (end_, (blk_ + 1) * BLOCK_SIZE); i++) \
          {                                                                     \
            const TmAllocation *a = &(self)->items[i];                          \
            if (tm_allocations_item_end ((self), a) < (t0) || tm_allocations_item_start ((self), a) > (t1))   \
              continue;                                                         \
            __VA_ARGS__                                                         \
          }                                                                     \
      }                                                                         \
  } G_STMT_END

static inline gboolean
meets_addresses (const TmAllocation *a,
                 guint64             a0,
                 guint64             a1)
{
  return a->address <= a1 && tm_allocations_item_end_address (a) > a0;
}

GArray *
tm_allocations_query (TmAllocations *self,
                      gint64         t0_ps,
                      gint64         t1_ps,
                      guint64        a0,
                      guint64        a1)
{
  GArray *out;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), NULL);

  out = g_array_new (FALSE, FALSE, sizeof (guint));
  FOR_EACH_IN_TIME (self, t0_ps, t1_ps, i, a,
    {
      if (meets_addresses (a, a0, a1))
        g_array_append_val (out, i);
    });
  return out;
}

guint
tm_allocations_pick (TmAllocations *self,
                     gint64         t0_ps,
                     gint64         t1_ps,
                     guint64        a0,
                     guint64        a1)
{
  guint best = TM_ALLOCATIONS_NONE;
  gint64 best_bytes = -1;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), TM_ALLOCATIONS_NONE);

  FOR_EACH_IN_TIME (self, t0_ps, t1_ps, i, a,
    {
      if (meets_addresses (a, a0, a1) && TM_ALLOCATION_BYTES (a) >= best_bytes)
        {
          best = i;
          best_bytes = TM_ALLOCATION_BYTES (a);
        }
    });
  return best;
}

const TmAddressSpan *
tm_allocations_get_spans (TmAllocations *self,
                          guint         *n_spans)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), NULL);
  *n_spans = self->n_spans;
  return self->spans;
}

guint64
tm_allocations_get_axis_length (TmAllocations *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), 0);
  return self->axis_length;
}

gboolean
tm_allocations_is_moment (TmAllocations *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), FALSE);
  return self->first_time == self->last_time;
}


static inline double
span_offset (const TmAddressSpan *s,
             guint64              address)
{
  if (address <= s->address)
    return (double) s->offset;
  if (address >= s->end)
    return (double) (s->offset + (s->end - s->address));
  return (double) s->offset + (double) (address - s->address);
}

double
tm_allocations_address_to_axis (TmAllocations *self,
                                guint64        address)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), 0);
  if (self->n_spans == 0)
    return 0;
  return span_offset (&self->spans[tm_allocations_find_span (self, address)], address);
}

guint64
tm_allocations_axis_to_address (TmAllocations *self,
                                double         offset)
{
  guint lo = 0, hi;
  const TmAddressSpan *s;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), 0);
  if (self->n_spans == 0)
    return 0;
  if (offset <= 0)
    return self->spans[0].address;

  hi = self->n_spans;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if ((double) self->spans[mid].offset <= offset)
        lo = mid + 1;
      else
        hi = mid;
    }
  s = &self->spans[lo > 0 ? lo - 1 : 0];
  if (offset >= (double) (s->offset + (s->end - s->address)))
    return s->end;
  return s->address + (guint64) (offset - (double) s->offset);
}

guint
tm_allocations_get_parent_index (TmAllocations *self,
                                 guint          index)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), TM_ALLOCATIONS_NONE);
  g_return_val_if_fail (index < self->n, TM_ALLOCATIONS_NONE);
  return self->parent_index != NULL ? self->parent_index[index] : index;
}

guint
tm_allocations_find_parent_index (TmAllocations *self,
                                  guint          parent_index)
{
  guint lo = 0, hi;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), TM_ALLOCATIONS_NONE);

  if (self->parent_index == NULL)
    return parent_index < self->n ? parent_index : TM_ALLOCATIONS_NONE;
  hi = self->n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->parent_index[mid] < parent_index)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < self->n && self->parent_index[lo] == parent_index ? lo : TM_ALLOCATIONS_NONE;
}

gsize
tm_allocations_get_memory_size (TmAllocations *self)
{
  gsize size;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), 0);

  size = sizeof *self + (gsize) self->n * sizeof (TmAllocation)
         + ((self->n + BLOCK_SIZE - 1) / BLOCK_SIZE) * sizeof (gint64);
  /* A subset's labels and spans are its parent's. */
  if (self->parent != NULL)
    return size + (gsize) self->n * sizeof (guint);
  size += (gsize) self->n_spans * sizeof (TmAddressSpan)
          + (gsize) self->n_labels * sizeof (TmAllocationLabel);
  for (guint i = 0; i < self->label_strings->len; i++)
    size += strlen (g_ptr_array_index (self->label_strings, i)) + 1;
  return size;
}
