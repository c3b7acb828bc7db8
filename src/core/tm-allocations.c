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
#include "tm-allocations.h"

#define BLOCK_SHIFT 6
#define BLOCK_SIZE (1u << BLOCK_SHIFT)
#define BYTES_MASK ((G_GUINT64_CONSTANT (1) << 40) - 1)
#define MAX_LABEL ((1u << 24) - 1)
#define CANCEL_CHECK_INTERVAL 65536

struct _TmAllocations
{
  GObject        parent_instance;

  TmMemoryStore *store;
  const gint64  *times;
  gint64         first_time;
  gint64         last_time;

  TmAllocation  *items;
  guint          n;
  guint          n_open_start;  /* items[0 .. n_open_start) start before the profile */
  gint64        *block_max_end; /* per block of BLOCK_SIZE items: the latest end time */

  GPtrArray     *label_strings; /* three strings per label */
  TmAllocationLabel *labels;
  guint          n_labels;

  TmAddressSpan *spans;
  guint          n_spans;
  guint64        axis_length;

  guint          n_never_freed;
  gint64         never_freed_bytes;
};

G_DEFINE_FINAL_TYPE (TmAllocations, tm_allocations, G_TYPE_OBJECT)

static void
tm_allocations_finalize (GObject *object)
{
  TmAllocations *self = (TmAllocations *) object;

  g_clear_object (&self->store);
  g_free (self->items);
  g_free (self->block_max_end);
  g_clear_pointer (&self->label_strings, g_ptr_array_unref);
  g_free (self->labels);
  g_free (self->spans);

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
  TmActivity act;
  TmAllocation a;
  guint64 bytes;

  if (!tm_memory_store_get_activity (store, start != TM_ALLOCATIONS_OPEN ? start : end, &act, &b->error))
    return FALSE;
  bytes = act.allocation_bytes < 0 ? 0 : MIN ((guint64) act.allocation_bytes, BYTES_MASK);
  a.address = act.address;
  a.bytes_label = bytes | ((guint64) intern_label (b, &act) << 40);
  a.start = start;
  a.end = end;
  tm_activity_clear (&act);

  g_array_append_val (start == TM_ALLOCATIONS_OPEN ? b->open_start : b->items, a);
  return TRUE;
}

typedef struct
{
  guint64 address;
  guint64 end;
} Range;

/* Heap sort by address, in place: there are as many ranges as
 * allocations, and a merge sort's buffer of as many again was most of the
 * memory the index took while it was built (and kept in the builder
 * thread's malloc arena after). */
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
sort_ranges (Range *r,
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

static guint64
alloc_end_address (const TmAllocation *a)
{
  guint64 bytes = MAX (TM_ALLOCATION_BYTES (a), 1);

  return a->address > G_MAXUINT64 - bytes ? G_MAXUINT64 : a->address + bytes;
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
      r[i].end = alloc_end_address (&self->items[i]);
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

static gint64
start_time (TmAllocations      *self,
            const TmAllocation *a)
{
  return a->start == TM_ALLOCATIONS_OPEN ? self->first_time : self->times[a->start];
}

static gint64
end_time (TmAllocations      *self,
          const TmAllocation *a)
{
  return a->end == TM_ALLOCATIONS_OPEN ? self->last_time : self->times[a->end];
}

TmAllocations *
tm_allocations_new (TmMemoryStore  *store,
                    GCancellable   *cancellable,
                    GError        **error)
{
  g_autoptr(TmAllocations) self = NULL;
  Builder b;
  gboolean ok;
  guint n_blocks;

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
  b.label_strings = g_ptr_array_new_with_free_func (g_free);
  b.error = NULL;

  ok = tm_allocations_foreach (store, build_one, &b, cancellable, error);
  if (ok && b.error != NULL)
    {
      g_propagate_error (error, b.error);
      ok = FALSE;
    }
  g_hash_table_unref (b.label_ids);
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

  n_blocks = (self->n + BLOCK_SIZE - 1) / BLOCK_SIZE;
  self->block_max_end = g_new (gint64, MAX (n_blocks, 1));
  for (guint blk = 0; blk < n_blocks; blk++)
    {
      gint64 m = G_MININT64;

      for (guint i = blk * BLOCK_SIZE; i < MIN (self->n, (blk + 1) * BLOCK_SIZE); i++)
        m = MAX (m, end_time (self, &self->items[i]));
      self->block_max_end[blk] = m;
    }

  for (guint i = 0; i < self->n; i++)
    if (self->items[i].end == TM_ALLOCATIONS_OPEN)
      {
        self->n_never_freed++;
        self->never_freed_bytes += TM_ALLOCATION_BYTES (&self->items[i]);
      }

  build_spans (self);

  return g_steal_pointer (&self);
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
  return start_time (self, &self->items[index]);
}

gint64
tm_allocations_get_end_time (TmAllocations *self,
                             guint          index)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), 0);
  g_return_val_if_fail (index < self->n, 0);
  return end_time (self, &self->items[index]);
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

/* One past the last allocation whose start time is <= t. */
static guint
candidates_end (TmAllocations *self,
                gint64         t)
{
  guint lo = self->n_open_start, hi = self->n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->times[self->items[mid].start] <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Calls body for every allocation i whose time range meets [t0, t1];
 * blocks that all end before t0 are skipped. */
#define FOR_EACH_IN_TIME(self, t0, t1, i, a, ...)                              \
  G_STMT_START {                                                                \
    guint end_ = candidates_end ((self), (t1));                                 \
    for (guint blk_ = 0; blk_ * BLOCK_SIZE < end_; blk_++)                      \
      {                                                                         \
        if ((self)->block_max_end[blk_] < (t0))                                 \
          continue;                                                             \
        for (guint i = blk_ * BLOCK_SIZE; i < MIN (end_, (blk_ + 1) * BLOCK_SIZE); i++) \
          {                                                                     \
            const TmAllocation *a = &(self)->items[i];                          \
            if (end_time ((self), a) < (t0) || start_time ((self), a) > (t1))   \
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
  return a->address <= a1 && alloc_end_address (a) > a0;
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

/* The span holding address, or the last one below it (0 if none). */
static guint
find_span (TmAllocations *self,
           guint64        address)
{
  guint lo = 0, hi = self->n_spans;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->spans[mid].address <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > 0 ? lo - 1 : 0;
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
  return span_offset (&self->spans[find_span (self, address)], address);
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

/* The size class that decides who owns a pixel: bits of the byte count. */
static inline guint8
size_rank (const TmAllocation *a)
{
  guint64 bytes = TM_ALLOCATION_BYTES (a);

  return bytes == 0 ? 0 : (guint8) (64 - __builtin_clzll (bytes));
}

/* Pixel extent of [f0, f1) in a line of n pixels: the pixels it touches,
 * at least one, clamped to the line. f0 <= f1. Without branches: the
 * clamps are minima and maxima of doubles, and "ceil − 1" of a
 * non-negative f is its truncation, less one when f is whole. */
static inline void
pixel_extent (double  f0,
              double  f1,
              gint    n,
              gint   *p0,
              gint   *p1)
{
  double last = (double) (n - 1), a, b;
  gint ia, ib;

  a = f0 > 0 ? f0 : 0;
  a = a < last ? a : last;
  b = f1 > 0 ? f1 : 0;
  b = b < (double) n ? b : (double) n;
  ia = (gint) a;                                         /* floor */
  ib = (gint) b;
  ib -= (double) ib == b;                                /* ceil − 1 */
  *p0 = ia;
  *p1 = ib > ia ? ib : ia;
}

/* Each pixel keeps a key: (size rank + 1) << KEY_SHIFT | (index + 1), so
 * the largest key is the largest allocation and, among equals, the later
 * one; 0 is an empty pixel. Size ranks are at most 41 (bytes are below
 * 2^40), so a rank fits above KEY_SHIFT bits. When an index does not fit
 * below KEY_SHIFT bits, a key is index + 1 alone and a byte per pixel keeps
 * the rank beside it. */
#define KEY_SHIFT 26
#define KEY(rank, index) (((guint32) (rank) + 1) << KEY_SHIFT | ((index) + 1))

/* Keys of a band take about this many bytes, so that a band stays in the
 * second-level cache while it is filled and handed on. */
#define BAND_BYTES (192 * 1024)

/* Bands start at multiples of this many columns, when they are at least
 * that wide: a painter's row of them is whole cache lines of 4-byte
 * pixels. */
#define BAND_ALIGN 16

/* An allocation's pixels: columns x0..x1, rows r0..r1 (row 0 at the top). */
typedef struct
{
  gint    x0, x1, r0, r1;
  guint32 key;    /* as above; index + 1 alone with ranks */
  guint8  rank;
} Extent;

/* Fills the band's columns [bx, be) with the part of e inside them. */
static inline void
draw_extent (const Extent *e,
             guint32      *keys,
             guint8       *ranks,
             gint          bx,
             gint          be,
             guint         height)
{
  gint xa = MAX (e->x0, bx), xb = MIN (e->x1, be - 1);

  /* Most allocations of a wide view are a pixel or two: up to 2 columns
   * of up to 4 rows are drawn without branches, the pixels outside the
   * extent taking a maximum with 0, which changes nothing. */
  if (G_LIKELY (ranks == NULL && xb - xa <= 1 && xa + 1 < be && e->r1 - e->r0 <= 3 && e->r0 + 3 < (gint) height))
    {
      guint32 *column = keys + (gsize) (xa - bx) * height + e->r0;
      guint32 k0 = xb >= xa ? e->key : 0, k1 = xb > xa ? e->key : 0;
      gint rows = e->r1 - e->r0;

      for (gint r = 0; r < 4; r++)
        {
          guint32 m0 = r <= rows ? k0 : 0, m1 = r <= rows ? k1 : 0;

          column[r] = MAX (column[r], m0);
          column[height + r] = MAX (column[height + r], m1);
        }
      return;
    }
  if (G_LIKELY (ranks == NULL))
    for (gint x = xa; x <= xb; x++)
      {
        guint32 *column = keys + (gsize) (x - bx) * height;

        for (gint r = e->r0; r <= e->r1; r++)
          column[r] = MAX (column[r], e->key);
      }
  else
    for (gint x = xa; x <= xb; x++)
      {
        gsize column = (gsize) (x - bx) * height;

        for (gint r = e->r0; r <= e->r1; r++)
          if (e->rank >= ranks[column + r])
            {
              ranks[column + r] = e->rank;
              keys[column + r] = e->key;
            }
      }
}

/* One part of a frame: columns [col0, col1) of it, drawn by one thread. */
typedef struct
{
  TmAllocations        *self;
  gint64                t0_ps, t1_ps;
  double                y0, y1, sx, sy;
  gint                  width, height;
  gint                  col0, col1;
  TmAllocationsBandFunc func;
  gpointer              user_data;
  guint                 shown;   /* out: those whose first column is in the part */
} Part;

/* The first snapshot at or after t (times never decrease). */
static guint32
first_snapshot_at (TmAllocations *self,
                   gint64         t)
{
  guint lo = 0, hi = tm_memory_store_get_n_snapshots (self->store);

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->times[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
render_part (Part *part)
{
  TmAllocations *self = part->self;
  g_autofree guint32 *keys = NULL;
  g_autofree guint8 *ranks = NULL;
  g_autoptr(GArray) active = NULL;
  gboolean packed = self->n < (1u << KEY_SHIFT) - 1;
  guint32 index_mask = packed ? (1u << KEY_SHIFT) - 1 : G_MAXUINT32;
  gint w = part->width, h = part->height;
  guint height = (guint) h;
  guint band = MAX (BAND_BYTES / (height * sizeof (guint32)), 1);
  gboolean empty = part->t1_ps <= part->t0_ps || part->y1 <= part->y0 || self->n_spans == 0;
  double sx = part->sx, sy = part->sy, y0 = part->y0, y1 = part->y1;
  gint64 t0_ps = part->t0_ps;
  guint span = 0, i = 0, end = 0;
  guint32 first_end = 0;
  gint64 cut = part->t0_ps;
  Extent next;
  gboolean have_next = FALSE;

  /* Bands start on multiples of BAND_ALIGN columns (parts do too). */
  if (band >= BAND_ALIGN)
    band -= band % BAND_ALIGN;
  band = MIN (band, (guint) (part->col1 - part->col0));
  keys = g_new (guint32, (gsize) band * height);
  if (!packed)
    ranks = g_new (guint8, (gsize) band * height);
  active = g_array_new (FALSE, FALSE, sizeof (Extent));
  if (!empty)
    {
      end = candidates_end (self, part->t1_ps);
      /* An allocation that ends before cut ends left of the part: it is
       * skipped by its end snapshot alone (a margin of a picosecond and a
       * pixel keeps this on the safe side of rounding). */
      if (part->col0 > 1)
        cut = t0_ps + (gint64) ((double) (part->col0 - 1) / sx) - 1;
      first_end = first_snapshot_at (self, cut);
    }

  for (gint bx = part->col0; bx < part->col1; bx += (gint) band)
    {
      gint be = MIN (bx + (gint) band, part->col1);
      guint kept = 0;

      memset (keys, 0, (gsize) (be - bx) * height * sizeof (guint32));
      if (ranks != NULL)
        memset (ranks, 0, (gsize) (be - bx) * height);

      /* Those from earlier bands that reach into this one. */
      for (guint k = 0; k < active->len; k++)
        {
          const Extent *e = &g_array_index (active, Extent, k);

          draw_extent (e, keys, ranks, bx, be, height);
          if (e->x1 >= be)
            g_array_index (active, Extent, kept++) = *e;
        }
      g_array_set_size (active, kept);

      /* Then those that start in it: allocations come in start order, so
       * their first columns never decrease. */
      while (!empty)
        {
          if (!have_next)
            {
              const TmAllocation *a;
              const TmAddressSpan *s;
              guint64 axis;
              double ya, yb;

              if (i >= end)
                break;
              /* Skip blocks that all end before the part. */
              if ((i & (BLOCK_SIZE - 1)) == 0 && self->block_max_end[i >> BLOCK_SHIFT] < cut)
                {
                  i += BLOCK_SIZE;
                  continue;
                }
              a = &self->items[i];
              /* Ended before the part (an open end is G_MAXUINT32). */
              if (a->end < first_end)
                {
                  i++;
                  continue;
                }

              /* Spans are few and neighbours usually share one. */
              s = &self->spans[span];
              if (G_UNLIKELY (a->address < s->address || a->address >= s->end))
                {
                  span = find_span (self, a->address);
                  s = &self->spans[span];
                }
              /* An allocation lies in one span: spans are unions of them. */
              axis = s->offset + (a->address - s->address);
              ya = (double) axis;
              yb = (double) (axis + (alloc_end_address (a) - a->address));
              if (yb < y0 || ya > y1)
                {
                  i++;
                  continue;
                }
              pixel_extent ((double) (start_time (self, a) - t0_ps) * sx,
                            (double) (end_time (self, a) - t0_ps) * sx, w, &next.x0, &next.x1);
              /* Rows count from the top: the top row is the end address. */
              pixel_extent ((y1 - yb) * sy, (y1 - ya) * sy, h, &next.r0, &next.r1);
              next.rank = size_rank (a);
              next.key = packed ? KEY (next.rank, i) : i + 1;
              have_next = TRUE;
              i++;
              if (next.x1 < part->col0)
                {
                  have_next = FALSE;
                  continue;
                }
              if (next.x0 >= part->col0 && next.x0 < part->col1)
                part->shown++;
            }
          if (next.x0 >= be)
            break;
          draw_extent (&next, keys, ranks, bx, be, height);
          if (next.x1 >= be)
            g_array_append_val (active, next);
          have_next = FALSE;
        }

      part->func ((guint) bx, (guint) (be - bx), height, keys, index_mask, part->user_data);
    }
}

static gpointer
render_part_thread (gpointer data)
{
  render_part (data);
  return NULL;
}

/* A frame with at least this many candidate allocations is drawn by two
 * threads, each a half of the columns. */
#define SPLIT_MIN_CANDIDATES 50000

guint
tm_allocations_render_bands (TmAllocations        *self,
                             gint64                t0_ps,
                             gint64                t1_ps,
                             double                y0,
                             double                y1,
                             guint                 width,
                             guint                 height,
                             TmAllocationsBandFunc func,
                             gpointer              user_data)
{
  Part parts[2];
  guint n_parts = 1;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), 0);
  g_return_val_if_fail (func != NULL, 0);

  if (width == 0 || height == 0)
    return 0;

  parts[0] = (Part) {
    self, t0_ps, t1_ps, y0, y1, 0, 0, (gint) width, (gint) height, 0, (gint) width, func, user_data, 0
  };
  if (t1_ps > t0_ps && y1 > y0)
    {
      parts[0].sx = (double) width / (double) (t1_ps - t0_ps);
      parts[0].sy = (double) height / (y1 - y0);
    }
  if (width >= 2 && t1_ps > t0_ps && candidates_end (self, t1_ps) >= SPLIT_MIN_CANDIDATES)
    {
      parts[1] = parts[0];
      guint half = width / 2;

      if (half >= BAND_ALIGN)
        half -= half % BAND_ALIGN;
      parts[0].col1 = parts[1].col0 = (gint) half;
      n_parts = 2;
    }

  if (n_parts == 1)
    render_part (&parts[0]);
  else
    {
      GThread *thread = g_thread_new ("tm-map-part", render_part_thread, &parts[1]);

      render_part (&parts[0]);
      g_thread_join (thread);
    }
  return parts[0].shown + (n_parts == 2 ? parts[1].shown : 0);
}

typedef struct
{
  guint32 *cells;
  guint    width;
} RowsTarget;

static void
band_to_rows (guint          x0,
              guint          n_columns,
              guint          height,
              const guint32 *keys,
              guint32        index_mask,
              gpointer       user_data)
{
  RowsTarget *target = user_data;

  for (guint x = 0; x < n_columns; x++)
    for (guint r = 0; r < height; r++)
      target->cells[(gsize) r * target->width + x0 + x] = tm_allocations_key_index (keys[(gsize) x * height + r],
                                                                                    index_mask);
}

guint
tm_allocations_render (TmAllocations *self,
                       gint64         t0_ps,
                       gint64         t1_ps,
                       double         y0,
                       double         y1,
                       guint          width,
                       guint          height,
                       guint32       *cells)
{
  RowsTarget target = { cells, width };

  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), 0);
  g_return_val_if_fail (cells != NULL || (gsize) width * height == 0, 0);

  return tm_allocations_render_bands (self, t0_ps, t1_ps, y0, y1, width, height, band_to_rows, &target);
}

gsize
tm_allocations_get_memory_size (TmAllocations *self)
{
  gsize size;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), 0);

  size = sizeof *self + (gsize) self->n * sizeof (TmAllocation)
         + ((self->n + BLOCK_SIZE - 1) / BLOCK_SIZE) * sizeof (gint64)
         + (gsize) self->n_spans * sizeof (TmAddressSpan)
         + (gsize) self->n_labels * sizeof (TmAllocationLabel);
  for (guint i = 0; i < self->label_strings->len; i++)
    size += strlen (g_ptr_array_index (self->label_strings, i)) + 1;
  return size;
}
