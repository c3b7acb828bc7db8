/* tm-analysis.c — peak step, breakdowns and sampling of one memory id
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-addr-map.h"
#include "tm-analysis-private.h"

#define CANCEL_CHECK_INTERVAL 16384

struct _TmAnalysis
{
  GObject        parent_instance;

  TmMemoryStore *store;
  gint64         peak_step_id;
  GPtrArray     *peak_rows;  /* TmBreakdownRow */
};

G_DEFINE_FINAL_TYPE (TmAnalysis, tm_analysis, G_TYPE_OBJECT)

static void
tm_analysis_finalize (GObject *object)
{
  TmAnalysis *self = (TmAnalysis *) object;

  g_clear_pointer (&self->peak_rows, g_ptr_array_unref);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (tm_analysis_parent_class)->finalize (object);
}

static void
tm_analysis_class_init (TmAnalysisClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tm_analysis_finalize;
}

static void
tm_analysis_init (TmAnalysis *self)
{
}

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

/* docs/analysis.md step 6, the walk over snapshots [from, to): records
 * of the allocations (address → snapshot) and the sums the unmapped bytes
 * are made of. A later part starts without the records of the parts
 * before it: where it finds no record of its own (an address's first
 * allocation or deallocation in it), it notes a miss, which the join
 * applies to the earlier parts' records in order. */
typedef struct
{
  guint64  address;
  gint64   bytes;
  gboolean deallocation;
} Miss;

typedef struct
{
  TmMemoryStore *s;
  gint64         step;
  guint          from;
  guint          to;
  gboolean       later;       /* notes misses */
  TmAddrMap     *records;
  GArray        *misses;      /* Miss, in snapshot order */
  gint64         allocated;   /* Σ allocation bytes of its allocations */
  gint64         deallocated; /* Σ of its deallocations */
  gint64         unmatched;   /* Σ of its deallocations without a record */
  GCancellable  *cancellable;
  GError        *error;
} ReplayPart;

static gpointer
replay_part (gpointer data)
{
  ReplayPart *r = data;
  TmMemoryStore *s = r->s;

  for (guint i = r->from, run_end = r->from; i < r->to; i++)
    {
      guint64 addr;
      gint64 bytes;

      if ((i % CANCEL_CHECK_INTERVAL) == 0 && g_cancellable_set_error_if_cancelled (r->cancellable, &r->error))
        return NULL;
      if (i >= run_end && tm_memory_store_get_step_run (s, i, &run_end) != r->step)
        {
          /* Not this step up to the run's end. */
          i = run_end - 1;
          continue;
        }

      if (!tm_memory_store_get_event_sizes (s, i, &addr, &bytes, &r->error))
        return NULL;

      if (tm_memory_store_get_kind (s, i) == TM_ACTIVITY_ALLOCATION)
        {
          if (!tm_addr_map_exchange (r->records, addr, i, NULL) && r->later)
            {
              Miss miss = { addr, bytes, FALSE };

              g_array_append_val (r->misses, miss);
            }
          r->allocated = tm_sat_add (r->allocated, bytes);
        }
      /* Events of neither kind (a snapshot's segment or free_requested
       * entries, docs/pytorch.md) change no record. */
      else if (tm_memory_store_get_kind (s, i) == TM_ACTIVITY_DEALLOCATION)
        {
          if (!tm_addr_map_remove (r->records, addr, NULL))
            {
              r->unmatched = tm_sat_add (r->unmatched, bytes);
              if (r->later)
                {
                  Miss miss = { addr, bytes, TRUE };

                  g_array_append_val (r->misses, miss);
                }
            }
          r->deallocated = tm_sat_add (r->deallocated, bytes);
        }
    }
  return NULL;
}

static void
replay_part_clear (ReplayPart *r)
{
  g_clear_pointer (&r->records, tm_addr_map_free);
  g_clear_pointer (&r->misses, g_array_unref);
  g_clear_error (&r->error);
}

/* Below this many snapshots up to the peak, one thread walks them. */
static guint replay_two_parts_min = 1u << 20;

void
_tm_analysis_set_two_parts_min (guint n_snapshots)
{
  replay_two_parts_min = n_snapshots;
}

/* docs/analysis.md step 6: the allocations of the peak step made up to the
 * window peak and not freed by then, plus what the records cannot account
 * for. A long walk is split in two halves on two threads, joined by the
 * second half's misses: the same records and sums as one walk. */
static GPtrArray *
compute_peak_breakdown (TmMemoryStore  *s,
                        gint64          step,
                        GCancellable   *cancellable,
                        GError        **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_breakdown_row_free);
  const TmSummary *summary = tm_memory_store_get_summary (s);
  const gint64 *times = tm_memory_store_get_times (s);
  guint n = tm_memory_store_get_n_snapshots (s);
  guint end = 0;
  gboolean two = FALSE;
  ReplayPart parts[2];
  gint64 unmapped = summary->peak_heap_bytes;
  gint64 unmatched = 0;
  GError *failed = NULL;

  /* Snapshots up to the peak time (those at exactly the peak included). */
  while (end < n && times[end] <= summary->peak_time_ps)
    end = end + 1;
  two = end >= MAX (replay_two_parts_min, 2) && g_get_num_processors () >= 2;

  for (guint k = 0; k < 2; k++)
    {
      memset (&parts[k], 0, sizeof parts[k]);
      parts[k].s = s;
      parts[k].step = step;
      parts[k].records = tm_addr_map_new ();
      parts[k].misses = g_array_new (FALSE, FALSE, sizeof (Miss));
      parts[k].cancellable = cancellable;
    }
  parts[0].from = 0;
  parts[0].to = two ? end / 2 : end;
  parts[1].from = parts[0].to;
  parts[1].to = end;
  parts[1].later = TRUE;

  if (two)
    {
      GThread *thread = g_thread_new ("tidemark-breakdown", replay_part, &parts[1]);

      replay_part (&parts[0]);
      g_thread_join (thread);
    }
  else
    replay_part (&parts[0]);

  for (guint k = 0; k < 2 && failed == NULL; k++)
    if (parts[k].error != NULL)
      failed = g_steal_pointer (&parts[k].error);
  if (failed != NULL)
    {
      g_propagate_error (error, failed);
      replay_part_clear (&parts[0]);
      replay_part_clear (&parts[1]);
      return NULL;
    }

  /* The join: each miss of the second half meets the first's records as
   * the one walk would have; a deallocation that finds one there was not
   * unmatched after all. */
  for (guint m = 0; m < parts[1].misses->len; m++)
    {
      const Miss *miss = &g_array_index (parts[1].misses, Miss, m);

      if (tm_addr_map_remove (parts[0].records, miss->address, NULL) && miss->deallocation)
        parts[1].unmatched = tm_sat_sub (parts[1].unmatched, miss->bytes);
    }

  for (guint k = 0; k < 2; k++)
    {
      gsize pos = 0;
      guint32 index;

      unmapped = tm_sat_sub (unmapped, parts[k].allocated);
      unmapped = tm_sat_add (unmapped, parts[k].deallocated);
      unmatched = tm_sat_add (unmatched, parts[k].unmatched);
      while (tm_addr_map_iter_next (parts[k].records, &pos, NULL, &index))
        {
          TmBreakdownRow *row = allocation_row (s, index, error);

          if (row == NULL)
            {
              replay_part_clear (&parts[0]);
              replay_part_clear (&parts[1]);
              return NULL;
            }
          g_ptr_array_add (rows, row);
        }
    }
  unmapped = tm_sat_sub (unmapped, unmatched);
  replay_part_clear (&parts[0]);
  replay_part_clear (&parts[1]);

  if (unmapped > 0)
    g_ptr_array_add (rows, special_row ("unused preallocated device memory", "persist/dynamic", unmapped, step));
  if (summary->peak_stack_bytes > 0)
    g_ptr_array_add (rows, special_row ("stack", "stack", summary->peak_stack_bytes, step));

  return tm_analysis_sort_and_merge (rows);
}

TmAnalysis *
tm_analysis_new (TmMemoryStore  *store,
                 GCancellable   *cancellable,
                 GError        **error)
{
  g_autoptr(TmAnalysis) self = NULL;
  const TmSummary *summary;
  const gint64 *stack, *heap;
  GPtrArray *xprof_rows;
  gint64 xprof_step;
  guint n;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), NULL);

  self = g_object_new (TM_TYPE_ANALYSIS, NULL);
  self->store = g_object_ref (store);

  /* docs/analysis.md step 5: the step of the last snapshot at the window
   * peak. */
  summary = tm_memory_store_get_summary (store);
  stack = tm_memory_store_get_stack (store);
  heap = tm_memory_store_get_heap (store);
  n = tm_memory_store_get_n_snapshots (store);
  for (guint i = 0; i < n; i++)
    if (tm_sat_add (stack[i], heap[i]) == summary->peak_bytes_in_use)
      self->peak_step_id = tm_memory_store_get_step_id (store, i);

  xprof_rows = tm_memory_store_get_xprof_peak_breakdown (store, &xprof_step);
  if (xprof_rows != NULL)
    {
      /* XProf's rows are already in order; keep them as they are. */
      self->peak_rows = g_ptr_array_ref (xprof_rows);
      if (xprof_step >= 0)
        self->peak_step_id = xprof_step;
    }
  else
    {
      self->peak_rows = compute_peak_breakdown (store, self->peak_step_id, cancellable, error);
      if (self->peak_rows == NULL)
        return NULL;
    }

  return g_steal_pointer (&self);
}

TmMemoryStore *
tm_analysis_get_store (TmAnalysis *self)
{
  g_return_val_if_fail (TM_IS_ANALYSIS (self), NULL);
  return self->store;
}

gint64
tm_analysis_get_peak_step_id (TmAnalysis *self)
{
  g_return_val_if_fail (TM_IS_ANALYSIS (self), 0);
  return self->peak_step_id;
}

GPtrArray *
tm_analysis_get_peak_breakdown (TmAnalysis *self)
{
  g_return_val_if_fail (TM_IS_ANALYSIS (self), NULL);
  return self->peak_rows;
}

gsize
tm_analysis_get_memory_size (TmAnalysis *self)
{
  g_return_val_if_fail (TM_IS_ANALYSIS (self), 0);
  return sizeof *self + self->peak_rows->len * sizeof (TmBreakdownRow);
}

gint64
tm_analysis_rows_bytes (GPtrArray *rows)
{
  gint64 total = 0;

  g_return_val_if_fail (rows != NULL, 0);

  for (guint i = 0; i < rows->len; i++)
    {
      const TmBreakdownRow *row = g_ptr_array_index (rows, i);
      gint64 n = row->n_occurrences > (guint64) G_MAXINT64 ? G_MAXINT64 : (gint64) row->n_occurrences;

      total = tm_sat_add (total, tm_sat_mul (row->allocation_bytes, n));
    }
  return total;
}

/* ------------------------------------------------------------------ */
/* Live at t                                                            */

GPtrArray *
tm_analysis_breakdown_at (TmMemoryStore *s,
                          gint64         t_ps)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_breakdown_row_free);
  const gint64 *times, *stack, *heap;
  const guint32 *partners;
  gint64 live_bytes = 0;
  guint end;
  guint at;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (s), NULL);

  times = tm_memory_store_get_times (s);
  if (tm_memory_store_get_n_snapshots (s) == 0 || t_ps < times[0])
    return tm_analysis_sort_and_merge (rows);

  stack = tm_memory_store_get_stack (s);
  heap = tm_memory_store_get_heap (s);
  partners = tm_memory_store_get_partners (s);
  at = tm_memory_store_find_at_or_before (s, t_ps);
  end = at + 1;

  for (guint i = 0; i < end; i++)
    {
      guint32 p = partners[i];
      TmBreakdownRow *row;

      /* Ended by t (an allocation), or not an allocation at all (a
       * deallocation's partner comes before it). */
      if (p != TM_MEMORY_STORE_NO_PARTNER && p < end)
        continue;
      if (tm_memory_store_get_kind (s, i) != TM_ACTIVITY_ALLOCATION)
        continue;

      row = allocation_row (s, i, NULL);
      if (row == NULL)
        continue;  /* the file changed under us: show what can be read */
      live_bytes = tm_sat_add (live_bytes, row->allocation_bytes);
      g_ptr_array_add (rows, row);
    }

  if (tm_sat_sub (heap[at], live_bytes) > 0)
    g_ptr_array_add (rows, special_row (_("memory allocated before the profile"), "persist/dynamic",
                                        tm_sat_sub (heap[at], live_bytes), tm_memory_store_get_step_id (s, at)));
  if (stack[at] > 0)
    g_ptr_array_add (rows, special_row ("stack", "stack", stack[at], tm_memory_store_get_step_id (s, at)));

  return tm_analysis_sort_and_merge (rows);
}

/* ------------------------------------------------------------------ */
/* Sampling (docs/analysis.md step 7)                                   */

static void
max_box_filter (const gint64 *stack,
                const gint64 *heap,
                GArray       *out,
                guint         width,
                guint         count,
                guint         start)
{
  for (guint b = 0; b < count; b++)
    {
      guint first = start + width * b;
      guint best = first;
      gint64 best_bytes = tm_sat_add (heap[first], stack[first]);

      for (guint i = first + 1; i < first + width; i++)
        {
          gint64 bytes = tm_sat_add (heap[i], stack[i]);

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
  GArray *out;
  guint n;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (s), NULL);

  out = g_array_new (FALSE, FALSE, sizeof (guint));
  n = tm_memory_store_get_n_snapshots (s);
  if (max_points == 0 || n <= max_points)
    {
      for (guint i = 0; i < n; i++)
        g_array_append_val (out, i);
    }
  else
    {
      const gint64 *stack = tm_memory_store_get_stack (s);
      const gint64 *heap = tm_memory_store_get_heap (s);
      guint width = n / max_points;
      guint count1 = max_points * (width + 1) - n;
      guint count2 = max_points - count1;

      max_box_filter (stack, heap, out, width, count1, 0);
      max_box_filter (stack, heap, out, width + 1, count2, width * count1);
    }

  return out;
}
