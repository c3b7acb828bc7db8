/* tm-analysis.c — product.md §3 over one memory id's columns
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-analysis.h"

/* ------------------------------------------------------------------ */
/* Address map: linear probing, backward-shift deletion                 */

#define EMPTY_VALUE G_MAXUINT32

typedef struct
{
  guint64 key;
  guint32 value;
} Slot;

struct _TmAddrMap
{
  Slot  *slots;
  gsize  mask;
  gsize  count;
};

static inline gsize
hash_addr (guint64 addr)
{
  /* Addresses are aligned: mix the bits (a 64-bit finaliser). */
  addr ^= addr >> 33;
  addr *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  addr ^= addr >> 33;
  return (gsize) addr;
}

static void
addr_map_init_slots (TmAddrMap *map,
                     gsize      n_slots)
{
  map->slots = g_new (Slot, n_slots);
  for (gsize i = 0; i < n_slots; i++)
    map->slots[i].value = EMPTY_VALUE;
  map->mask = n_slots - 1;
}

TmAddrMap *
tm_addr_map_new (void)
{
  TmAddrMap *map = g_new0 (TmAddrMap, 1);

  addr_map_init_slots (map, 64);
  return map;
}

void
tm_addr_map_free (TmAddrMap *map)
{
  if (map == NULL)
    return;
  g_free (map->slots);
  g_free (map);
}

static void
addr_map_rehash (TmAddrMap *map)
{
  Slot *old = map->slots;
  gsize old_n = map->mask + 1;

  addr_map_init_slots (map, old_n * 2);
  for (gsize i = 0; i < old_n; i++)
    {
      if (old[i].value != EMPTY_VALUE)
        {
          gsize j = hash_addr (old[i].key) & map->mask;

          while (map->slots[j].value != EMPTY_VALUE)
            j = (j + 1) & map->mask;
          map->slots[j] = old[i];
        }
    }
  g_free (old);
}

gboolean
tm_addr_map_lookup (TmAddrMap *map,
                    guint64    addr,
                    guint32   *value)
{
  gsize j = hash_addr (addr) & map->mask;

  while (map->slots[j].value != EMPTY_VALUE)
    {
      if (map->slots[j].key == addr)
        {
          if (value != NULL)
            *value = map->slots[j].value;
          return TRUE;
        }
      j = (j + 1) & map->mask;
    }

  return FALSE;
}

void
tm_addr_map_insert (TmAddrMap *map,
                    guint64    addr,
                    guint32    value)
{
  gsize j;

  g_assert (value != EMPTY_VALUE);

  if ((map->count + 1) * 2 > map->mask + 1)
    addr_map_rehash (map);

  j = hash_addr (addr) & map->mask;
  while (map->slots[j].value != EMPTY_VALUE)
    {
      if (map->slots[j].key == addr)
        {
          map->slots[j].value = value;
          return;
        }
      j = (j + 1) & map->mask;
    }

  map->slots[j].key = addr;
  map->slots[j].value = value;
  map->count++;
}

gboolean
tm_addr_map_remove (TmAddrMap *map,
                    guint64    addr,
                    guint32   *value)
{
  gsize j = hash_addr (addr) & map->mask;

  while (map->slots[j].value != EMPTY_VALUE)
    {
      if (map->slots[j].key == addr)
        {
          gsize hole = j;

          if (value != NULL)
            *value = map->slots[j].value;

          /* Shift back the entries of the cluster that hashed before the hole. */
          for (gsize k = (j + 1) & map->mask; map->slots[k].value != EMPTY_VALUE; k = (k + 1) & map->mask)
            {
              gsize home = hash_addr (map->slots[k].key) & map->mask;

              if (((k - home) & map->mask) >= ((k - hole) & map->mask))
                {
                  map->slots[hole] = map->slots[k];
                  hole = k;
                }
            }
          map->slots[hole].value = EMPTY_VALUE;
          map->count--;
          return TRUE;
        }
      j = (j + 1) & map->mask;
    }

  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Matching                                                             */

/* Matches every snapshot (time order) with earlier ones at the same
 * address; see the partner column in tm-memory-store-private.h. */
static gboolean
match_all (TmMemoryStore  *s,
           const guint32  *perm,
           GCancellable   *cancellable,
           GError        **error)
{
  TmAddrMap *first = tm_addr_map_new ();
  TmAddrMap *live = tm_addr_map_new ();
  gboolean ok = TRUE;

  tm_memory_store_alloc_partner (s);

  /* i is the index in time order; perm (if any) maps it to file order,
   * where the addresses still are. */
  for (guint i = 0; i < s->n; i++)
    {
      guint src = perm != NULL ? perm[i] : i;
      guint64 addr = s->addrs[src];
      guint32 other;

      if ((i % 65536) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }

      if (tm_memory_store_ref_kind (s->refs[src]) == TM_ACTIVITY_ALLOCATION)
        {
          /* §3.4: remembered unless one is already remembered there. */
          if (!tm_addr_map_lookup (first, addr, NULL))
            tm_addr_map_insert (first, addr, i);

          /* Lifetimes: a new allocation at a live address replaces the old
           * one, as the breakdown's records do. */
          if (tm_addr_map_lookup (live, addr, &other))
            s->partner[other] = i;
          tm_addr_map_insert (live, addr, i);
        }
      else
        {
          if (tm_addr_map_remove (first, addr, &other))
            s->partner[i] = other;
          if (tm_addr_map_remove (live, addr, &other))
            s->partner[other] = i;
        }
    }

  tm_addr_map_free (first);
  tm_addr_map_free (live);
  return ok;
}

/* ------------------------------------------------------------------ */
/* Sorting by time                                                      */

typedef struct
{
  guint pos;   /* next index of the run */
  guint end;   /* one past its last index */
} Run;

/* Events of one memory id come as a few runs in time order (one per thread
 * line); merge them into a permutation. Ties go to the earlier run, which
 * is earlier in the file, so the sort is stable. */
static guint32 *
sort_permutation (const gint64 *times,
                  guint         n)
{
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (Run));
  guint32 *perm = g_new (guint32, n);
  guint *heap;
  guint n_heap;
  Run *r;
  guint out = 0;

  {
    Run run = { 0, 0 };

    for (guint i = 1; i <= n; i++)
      if (i == n || times[i] < times[i - 1])
        {
          run.end = i;
          g_array_append_val (runs, run);
          run.pos = i;
        }
  }

  r = (Run *) (gpointer) runs->data;
  heap = g_new (guint, runs->len);
  n_heap = 0;

#define RUN_LESS(a, b) (times[r[a].pos] < times[r[b].pos] || \
                        (times[r[a].pos] == times[r[b].pos] && (a) < (b)))

  for (guint i = 0; i < runs->len; i++)
    {
      guint k = n_heap++;

      heap[k] = i;
      while (k > 0 && RUN_LESS (heap[k], heap[(k - 1) / 2]))
        {
          guint t = heap[k];
          heap[k] = heap[(k - 1) / 2];
          heap[(k - 1) / 2] = t;
          k = (k - 1) / 2;
        }
    }

  while (n_heap > 0)
    {
      guint top = heap[0];
      guint k = 0;

      perm[out++] = r[top].pos++;
      if (r[top].pos == r[top].end)
        heap[0] = heap[--n_heap];

      for (;;)
        {
          guint l = 2 * k + 1, rr = l + 1, m = k;

          if (l < n_heap && RUN_LESS (heap[l], heap[m]))
            m = l;
          if (rr < n_heap && RUN_LESS (heap[rr], heap[m]))
            m = rr;
          if (m == k)
            break;
          {
            guint t = heap[k];
            heap[k] = heap[m];
            heap[m] = t;
          }
          k = m;
        }
    }

#undef RUN_LESS

  g_free (heap);
  g_assert (out == n);
  return perm;
}

#define GATHER_COLUMN(T, col)                        \
  G_STMT_START {                                     \
    if ((col) != NULL)                               \
      {                                              \
        T *sorted = g_new (T, MAX (s->n, 1));        \
        for (guint j = 0; j < s->n; j++)             \
          sorted[j] = (col)[perm[j]];                \
        g_free (col);                                \
        (col) = sorted;                              \
      }                                              \
  } G_STMT_END

/* sorted[j] = old[perm[j]] for every column, one column at a time. The
 * reads come from a few runs, each read in order, so this is fast; a
 * column is copied whole, which costs one column (8 bytes per event) while
 * it happens. */
static void
apply_permutation (TmMemoryStore  *s,
                   const guint32  *perm)
{
  GATHER_COLUMN (gint64, s->times);
  GATHER_COLUMN (gint64, s->stack);
  GATHER_COLUMN (gint64, s->heap);
  GATHER_COLUMN (gint64, s->free_bytes);
  GATHER_COLUMN (gint32, s->steps);
  GATHER_COLUMN (gint64, s->steps_wide);
  GATHER_COLUMN (double, s->frag);
  GATHER_COLUMN (guint64, s->refs);
  s->capacity = s->n;
}

#undef GATHER_COLUMN

/* ------------------------------------------------------------------ */
/* Breakdown rows                                                       */

static int
compare_rows (gconstpointer a,
              gconstpointer b)
{
  const TmBreakdownRow *x = *(const TmBreakdownRow * const *) a;
  const TmBreakdownRow *y = *(const TmBreakdownRow * const *) b;
  int c;

  if (x->allocation_bytes != y->allocation_bytes)
    return x->allocation_bytes > y->allocation_bytes ? -1 : 1;
  if (x->requested_bytes != y->requested_bytes)
    return x->requested_bytes > y->requested_bytes ? -1 : 1;
  if ((c = strcmp (x->op_name, y->op_name)) != 0)
    return c;
  if ((c = strcmp (x->region_type, y->region_type)) != 0)
    return c;
  if ((c = strcmp (x->data_type, y->data_type)) != 0)
    return c;
  if ((c = strcmp (x->shape, y->shape)) != 0)
    return c;
  /* Special rows first, then the earliest allocation: a merged row
   * references its earliest allocation. */
  if (x->special != y->special)
    return x->special ? -1 : 1;
  if (x->snapshot_index != y->snapshot_index)
    return x->snapshot_index < y->snapshot_index ? -1 : 1;
  return 0;
}

static gboolean
rows_equal (const TmBreakdownRow *x,
            const TmBreakdownRow *y)
{
  return x->allocation_bytes == y->allocation_bytes &&
         x->requested_bytes == y->requested_bytes &&
         strcmp (x->op_name, y->op_name) == 0 &&
         strcmp (x->region_type, y->region_type) == 0 &&
         strcmp (x->data_type, y->data_type) == 0 &&
         strcmp (x->shape, y->shape) == 0;
}

GPtrArray *
tm_analysis_sort_and_merge (GPtrArray *rows)
{
  GPtrArray *merged = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_breakdown_row_free);

  g_ptr_array_sort (rows, compare_rows);

  for (guint i = 0; i < rows->len; i++)
    {
      TmBreakdownRow *row = g_ptr_array_index (rows, i);
      TmBreakdownRow *last = merged->len > 0 ? g_ptr_array_index (merged, merged->len - 1) : NULL;

      if (last != NULL && rows_equal (last, row))
        {
          last->n_occurrences += row->n_occurrences;
          tm_breakdown_row_free (row);
        }
      else
        g_ptr_array_add (merged, row);
    }

  /* The elements moved to merged. */
  g_ptr_array_set_free_func (rows, NULL);
  g_ptr_array_set_size (rows, 0);

  return merged;
}

static TmBreakdownRow *
special_row (const char *op_name,
             const char *region_type,
             gint64      bytes,
             gint64      step_id)
{
  TmBreakdownRow *row = g_new0 (TmBreakdownRow, 1);

  row->op_name = g_strdup (op_name);
  row->region_type = g_strdup (region_type);
  row->data_type = tm_data_type_name (0);
  row->shape = g_strdup ("unknown");
  row->allocation_bytes = bytes;
  row->requested_bytes = bytes;
  row->n_occurrences = 1;
  row->step_id = step_id;
  row->snapshot_index = G_MAXUINT;
  row->special = TRUE;
  return row;
}

static TmBreakdownRow *
allocation_row (TmMemoryStore  *store,
                guint           index,
                GError        **error)
{
  TmActivity act;
  TmBreakdownRow *row;

  if (!tm_memory_store_get_activity (store, index, &act, error))
    return NULL;

  row = g_new0 (TmBreakdownRow, 1);
  row->op_name = g_steal_pointer (&act.op_name);
  row->region_type = g_steal_pointer (&act.region_type);
  row->data_type = g_steal_pointer (&act.data_type);
  row->shape = g_steal_pointer (&act.shape);
  row->allocation_bytes = act.allocation_bytes;
  row->requested_bytes = act.requested_bytes;
  row->n_occurrences = 1;
  row->step_id = act.step_id;
  row->address = act.address;
  row->time_ps = act.time_ps;
  row->snapshot_index = index;
  tm_activity_clear (&act);
  return row;
}

/* Reads an event's address and allocation size. */
static gboolean
event_sizes (TmMemoryStore  *store,
             guint           index,
             guint64        *address,
             gint64         *allocation_bytes,
             GError        **error)
{
  if (store->ctx != NULL)
    {
      TmMemEvent ev;

      ev.kind = tm_memory_store_ref_kind (store->refs[index]);
      if (!tm_host_context_decode (store->ctx, store->refs[index] & TM_REF_OFFSET_MASK, &ev, error))
        return FALSE;
      *address = ev.address;
      *allocation_bytes = ev.allocation_bytes;
    }
  else
    {
      const TmActivity *act = &store->json_activities[store->refs[index] & TM_REF_OFFSET_MASK];

      *address = act->address;
      *allocation_bytes = act->allocation_bytes;
    }
  return TRUE;
}

static gboolean
compute_peak_breakdown (TmMemoryStore  *s,
                        GCancellable   *cancellable,
                        GError        **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_breakdown_row_free);
  TmAddrMap *records = tm_addr_map_new ();
  gint64 unmapped = s->summary.peak_heap_bytes;
  gint64 unmapped_dealloc = 0;
  gint64 step = s->summary.peak_step_id;
  gboolean ok = TRUE;

  /* §3.6 */
  for (guint i = 0; i < s->n && ok; i++)
    {
      guint64 addr;
      gint64 bytes;

      if (s->times[i] > s->summary.peak_time_ps)
        break;
      if (tm_memory_store_step (s, i) != step)
        continue;

      if ((i % 16384) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }

      if (!event_sizes (s, i, &addr, &bytes, error))
        {
          ok = FALSE;
          break;
        }

      if (tm_memory_store_ref_kind (s->refs[i]) == TM_ACTIVITY_ALLOCATION)
        {
          tm_addr_map_insert (records, addr, i);
          unmapped -= bytes;
        }
      else
        {
          if (!tm_addr_map_remove (records, addr, NULL))
            unmapped_dealloc += bytes;
          unmapped += bytes;
        }
    }
  unmapped -= unmapped_dealloc;

  for (gsize j = 0; ok && j <= records->mask; j++)
    {
      if (records->slots[j].value != EMPTY_VALUE)
        {
          TmBreakdownRow *row = allocation_row (s, records->slots[j].value, error);

          if (row == NULL)
            ok = FALSE;
          else
            g_ptr_array_add (rows, row);
        }
    }
  tm_addr_map_free (records);

  if (!ok)
    return FALSE;

  if (unmapped > 0)
    g_ptr_array_add (rows, special_row ("unused preallocated device memory", "persist/dynamic", unmapped, step));
  if (s->summary.peak_stack_bytes > 0)
    g_ptr_array_add (rows, special_row ("stack", "stack", s->summary.peak_stack_bytes, step));

  s->peak_rows = tm_analysis_sort_and_merge (rows);
  return TRUE;
}

gboolean
tm_analysis_finish (TmMemoryStore  *s,
                    GCancellable   *cancellable,
                    GError        **error)
{
  gint64 last_valid_step = -1;
  gint64 peak_step = 0;

  guint32 *perm = NULL;
  gboolean ok = TRUE;

  tm_memory_store_trim (s);

  /* Sort by time (stable). Match allocations first, while the addresses
   * are in file order, so the address column is gone before the columns
   * are reordered: the peak stays near 64 bytes per event. */
  if (!s->time_sorted)
    perm = sort_permutation (s->times, s->n);

  if (s->addrs != NULL)
    ok = match_all (s, perm, cancellable, error);
  else
    tm_memory_store_alloc_partner (s);
  g_clear_pointer (&s->addrs, g_free);

  if (perm != NULL)
    {
      if (ok)
        apply_permutation (s, perm);
      g_free (perm);
      s->time_sorted = TRUE;
    }
  if (!ok)
    return FALSE;

  /* §3.3 */
  for (guint i = 0; i < s->n; i++)
    {
      gint64 step = tm_memory_store_step (s, i);

      if (step == -1)
        tm_memory_store_set_step (s, i, last_valid_step + 1);
      else
        last_valid_step = step;
    }

  /* §3.5 */
  for (guint i = 0; i < s->n; i++)
    if (s->stack[i] + s->heap[i] == s->summary.peak_bytes_in_use)
      peak_step = tm_memory_store_step (s, i);
  s->summary.peak_step_id = peak_step;

  s->summary.n_snapshots = s->n;
  if (s->n > 0)
    {
      s->summary.first_time_ps = s->times[0];
      s->summary.last_time_ps = s->times[s->n - 1];
    }

  if (s->peak_rows == NULL && !compute_peak_breakdown (s, cancellable, error))
    return FALSE;

  if (s->n > 0)
    s->lod = tm_lod_new (s->n, s->times, s->stack, s->heap, s->free_bytes, s->frag);

  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Live at t                                                            */

GPtrArray *
tm_analysis_breakdown_at (TmMemoryStore *s,
                          gint64         t_ps)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_breakdown_row_free);
  gint64 live_bytes = 0;
  guint end;
  guint at;

  if (s->n == 0 || t_ps < s->times[0])
    return tm_analysis_sort_and_merge (rows);

  at = tm_memory_store_find_at_or_before (s, t_ps);
  end = at + 1;

  for (guint i = 0; i < end; i++)
    {
      guint32 p;
      TmBreakdownRow *row;

      if (tm_memory_store_ref_kind (s->refs[i]) != TM_ACTIVITY_ALLOCATION)
        continue;
      p = s->partner[i];
      if (p != TM_NO_PARTNER && p < end)
        continue;

      row = allocation_row (s, i, NULL);
      if (row == NULL)
        continue;  /* the file changed under us: show what can be read */
      live_bytes += row->allocation_bytes;
      g_ptr_array_add (rows, row);
    }

  if (s->heap[at] - live_bytes > 0)
    g_ptr_array_add (rows, special_row (_("memory allocated before the profile"), "persist/dynamic",
                                        s->heap[at] - live_bytes, tm_memory_store_step (s, at)));
  if (s->stack[at] > 0)
    g_ptr_array_add (rows, special_row ("stack", "stack", s->stack[at], tm_memory_store_step (s, at)));

  return tm_analysis_sort_and_merge (rows);
}

/* ------------------------------------------------------------------ */
/* Sampling (§3.7)                                                      */

static void
max_box_filter (TmMemoryStore *s,
                GArray        *out,
                guint          width,
                guint          count,
                guint          start)
{
  for (guint b = 0; b < count; b++)
    {
      guint first = start + width * b;
      guint best = first;
      gint64 best_bytes = s->heap[first] + s->stack[first];

      for (guint i = first + 1; i < first + width; i++)
        {
          gint64 bytes = s->heap[i] + s->stack[i];

          if (bytes > best_bytes)
            {
              best = i;
              best_bytes = bytes;
            }
        }
      g_array_append_val (out, best);
    }
}

GArray *
tm_analysis_sample (TmMemoryStore *s,
                    guint          max_points)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint));

  if (max_points == 0 || s->n <= max_points)
    {
      for (guint i = 0; i < s->n; i++)
        g_array_append_val (out, i);
    }
  else
    {
      guint width = s->n / max_points;
      guint count1 = max_points * (width + 1) - s->n;
      guint count2 = max_points - count1;

      max_box_filter (s, out, width, count1, 0);
      max_box_filter (s, out, width + 1, count2, width * count1);
    }

  return out;
}
