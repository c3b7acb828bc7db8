/* tm-alloc-stats.c — temporary allocations and the allocation rate per step
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The definitions are in docs/analysis.md, "Temporary allocations and the
 * rate per step".
 */
#include "config.h"

#include <string.h>

#include "tm-alloc-stats.h"

#define CANCEL_CHECK_INTERVAL 65536

typedef struct
{
  TmAllocStats  *stats;
  TmMemoryStore *store;
  const gint64  *times;
  GHashTable    *step_index;  /* step id → index in stats->steps + 1 */
  GError        *error;       /* the store variant's decoding */
  GCancellable  *cancellable;
  guint          seen;
  /* Lookups are mostly near the last one: the last runs of steps seen
   * (snapshots [from, to) have step step_id) and the last step's figures. */
  guint          start_from, start_to;
  gint64         start_step;
  guint          end_from[4], end_to[4];
  gint64         end_step[4];
  guint          end_next;
  TmStepStats   *last_step;
} Walk;


/* Whether an allocation made at start and freed at end (end >= start: the
 * store is in time order) lived at most threshold picoseconds. In unsigned
 * arithmetic, since the span of two extreme int64 times does not fit in one. */
static inline gboolean
lifetime_within (gint64 start,
                 gint64 end,
                 gint64 threshold)
{
  return threshold >= 0 && (guint64) end - (guint64) start <= (guint64) threshold;
}

static TmAllocStats *
stats_new (gint64 start_ps,
           gint64 end_ps,
           gint64 temporary_ps)
{
  TmAllocStats *stats = g_new0 (TmAllocStats, 1);

  stats->start_ps = start_ps;
  stats->end_ps = end_ps;
  stats->temporary_ps = temporary_ps;
  stats->steps = g_array_new (FALSE, TRUE, sizeof (TmStepStats));
  stats->busiest_step = G_MAXUINT;
  return stats;
}

void
tm_alloc_stats_free (TmAllocStats *stats)
{
  if (stats == NULL)
    return;
  g_array_unref (stats->steps);
  g_free (stats);
}

/* The step id of snapshot, through a cache of one run. */
static inline gint64
step_id_of (Walk   *walk,
            guint   snapshot,
            guint  *from,
            guint  *to,
            gint64 *step_id)
{
  if (snapshot < *from || snapshot >= *to)
    {
      *step_id = tm_memory_store_get_step_run (walk->store, snapshot, to);
      *from = snapshot;
    }
  return *step_id;
}

/* The step id of an end, through a cache of four runs: ends are mostly
 * in the runs just after their allocation's. */
static inline gint64
end_step_id_of (Walk  *walk,
                guint  snapshot)
{
  guint k;

  for (k = 0; k < G_N_ELEMENTS (walk->end_from); k++)
    if (snapshot >= walk->end_from[k] && snapshot < walk->end_to[k])
      return walk->end_step[k];
  k = walk->end_next;
  walk->end_next = (k + 1) % G_N_ELEMENTS (walk->end_from);
  walk->end_step[k] = tm_memory_store_get_step_run (walk->store, snapshot, &walk->end_to[k]);
  walk->end_from[k] = snapshot;
  return walk->end_step[k];
}

/* A step's figures in the walk's table. */
static TmStepStats *
step_of (Walk   *walk,
         gint64  step_id)
{
  gpointer index;

  if (walk->last_step != NULL && walk->last_step->step_id == step_id)
    return walk->last_step;
  if (!g_hash_table_lookup_extended (walk->step_index, &step_id, NULL, &index))
    return NULL;
  walk->last_step = &g_array_index (walk->stats->steps, TmStepStats, GPOINTER_TO_UINT (index) - 1);
  return walk->last_step;
}

static int
compare_steps (gconstpointer a,
               gconstpointer b)
{
  const TmStepStats *x = a;
  const TmStepStats *y = b;

  return x->step_id < y->step_id ? -1 : x->step_id > y->step_id;
}

/* Every step with a snapshot in the range, with its first and last time
 * there; walked run by run (tm_memory_store_get_step_run). */
static void
collect_steps (Walk *walk)
{
  TmAllocStats *stats = walk->stats;
  guint n = tm_memory_store_get_n_snapshots (walk->store);
  g_autoptr(GHashTable) seen = NULL;  /* step id (owned) → index in steps + 1 */
  guint first, last;

  if (n == 0 || stats->end_ps < walk->times[0] || stats->start_ps > walk->times[n - 1])
    return;
  last = tm_memory_store_find_at_or_before (walk->store, stats->end_ps);
  first = stats->start_ps <= walk->times[0] ? 0 : tm_memory_store_find_at_or_before (walk->store, stats->start_ps - 1) + 1;

  seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = first; i <= last;)
    {
      guint run_end;
      gint64 step_id = tm_memory_store_get_step_run (walk->store, i, &run_end);
      guint stop = MIN (run_end, last + 1);
      gpointer index;
      TmStepStats *step;

      if (!g_hash_table_lookup_extended (seen, &step_id, NULL, &index))
        {
          TmStepStats fresh = { 0 };

          fresh.step_id = step_id;
          fresh.first_time_ps = walk->times[i];
          fresh.last_time_ps = walk->times[i];
          g_array_append_val (stats->steps, fresh);
          index = GUINT_TO_POINTER (stats->steps->len);
          g_hash_table_insert (seen, g_memdup2 (&step_id, sizeof step_id), index);
        }
      step = &g_array_index (stats->steps, TmStepStats, GPOINTER_TO_UINT (index) - 1);
      step->first_time_ps = MIN (step->first_time_ps, walk->times[i]);
      step->last_time_ps = MAX (step->last_time_ps, walk->times[stop - 1]);
      i = stop;
    }
}

/* The table's keys point into the array: set them up only once it has
 * stopped growing. */
static void
index_steps (Walk *walk)
{
  g_hash_table_remove_all (walk->step_index);
  for (guint s = 0; s < walk->stats->steps->len; s++)
    g_hash_table_insert (walk->step_index, &g_array_index (walk->stats->steps, TmStepStats, s).step_id,
                         GUINT_TO_POINTER (s + 1));
}

/* One allocation made in the range: its allocation event start, the event
 * that ends it (or TM_ALLOCATIONS_OPEN), its bytes. */
static void
add_allocation (Walk   *walk,
                guint   start,
                guint   end,
                gint64  bytes)
{
  TmAllocStats *stats = walk->stats;
  gint64 start_step = step_id_of (walk, start, &walk->start_from, &walk->start_to, &walk->start_step);
  TmStepStats *step = step_of (walk, start_step);
  gboolean temporary = FALSE, same_step = FALSE;

  stats->n_allocations++;
  if (end == TM_ALLOCATIONS_OPEN)
    {
      stats->n_never_freed++;
      stats->never_freed_bytes += bytes;
    }
  /* Without sizes, only those never freed were decoded. */
  if (!stats->has_bytes)
    bytes = 0;
  stats->allocated_bytes += bytes;
  if (end != TM_ALLOCATIONS_OPEN)
    {
      stats->n_freed++;
      temporary = lifetime_within (walk->times[start], walk->times[end], stats->temporary_ps);
      /* Often in the run that made it: no lookup then. */
      same_step = end < walk->start_to ||
                  end_step_id_of (walk, end) == start_step;
    }
  if (temporary)
    {
      stats->n_temporary++;
      stats->temporary_bytes += bytes;
    }
  if (same_step)
    {
      stats->n_same_step++;
      stats->same_step_bytes += bytes;
    }
  /* Every allocation event in the range has its step in the table. */
  g_assert (step != NULL);
  step->n_allocations++;
  step->allocated_bytes += bytes;
  step->n_temporary += temporary;
  step->n_same_step += same_step;
}

static void
finish (Walk *walk)
{
  TmAllocStats *stats = walk->stats;

  for (guint s = 0; s < stats->steps->len; s++)
    {
      const TmStepStats *step = &g_array_index (stats->steps, TmStepStats, s);

      if (stats->busiest_step == G_MAXUINT ||
          step->n_allocations > g_array_index (stats->steps, TmStepStats, stats->busiest_step).n_allocations)
        stats->busiest_step = s;
    }
  g_hash_table_unref (walk->step_index);
}

static void
walk_init (Walk          *walk,
           TmMemoryStore *store,
           gint64         start_ps,
           gint64         end_ps,
           gint64         temporary_ps,
           GCancellable  *cancellable)
{
  walk->stats = stats_new (start_ps, end_ps, temporary_ps);
  walk->stats->has_bytes = TRUE;
  walk->store = store;
  walk->times = tm_memory_store_get_times (store);
  walk->step_index = g_hash_table_new (g_int64_hash, g_int64_equal);
  walk->error = NULL;
  walk->cancellable = cancellable;
  walk->seen = 0;
  walk->start_from = walk->start_to = 0;
  walk->start_step = 0;
  memset (walk->end_from, 0, sizeof walk->end_from);
  memset (walk->end_to, 0, sizeof walk->end_to);
  memset (walk->end_step, 0, sizeof walk->end_step);
  walk->end_next = 0;
  walk->last_step = NULL;
  collect_steps (walk);
  g_array_sort (walk->stats->steps, compare_steps);
  index_steps (walk);
}

TmAllocStats *
tm_alloc_stats_new (TmAllocations  *allocations,
                    gint64          start_ps,
                    gint64          end_ps,
                    gint64          temporary_ps,
                    GCancellable   *cancellable,
                    GError        **error)
{
  const TmAllocation *items;
  guint n, lo, hi;
  Walk walk;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (allocations), NULL);

  walk_init (&walk, tm_allocations_get_store (allocations), start_ps, end_ps, temporary_ps, cancellable);
  items = tm_allocations_get_all (allocations, &n);

  /* Items with an allocation event ascend by it, so by time: the first
   * made at or after start_ps, by bisection. */
  lo = 0;
  hi = n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (items[mid].start == TM_ALLOCATIONS_OPEN || walk.times[items[mid].start] < start_ps)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo; i < n && walk.times[items[i].start] <= end_ps; i++)
    {
      if (((i - lo) % CANCEL_CHECK_INTERVAL) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          finish (&walk);
          tm_alloc_stats_free (walk.stats);
          return NULL;
        }
      add_allocation (&walk, items[i].start, items[i].end, TM_ALLOCATION_BYTES (&items[i]));
    }
  finish (&walk);
  return walk.stats;
}

/* The bytes of one allocation as the index keeps them (tm-allocations.h):
 * decoded only for those never freed when there is no index. */
static gboolean
never_freed_size (Walk   *walk,
                  guint   start,
                  guint   end,
                  gint64 *bytes)
{
  guint64 address;

  *bytes = 0;
  if (end != TM_ALLOCATIONS_OPEN)
    return TRUE;
  if (!tm_memory_store_get_event_sizes (walk->store, start, &address, bytes, &walk->error))
    return FALSE;
  *bytes = CLAMP (*bytes, 0, (G_GINT64_CONSTANT (1) << 40) - 1);
  return TRUE;
}

/* XProf JSON (tm_allocations_foreach pairs its points). */
static gboolean
add_from_store (TmMemoryStore *store,
                guint32        start,
                guint32        end,
                gpointer       user_data)
{
  Walk *walk = user_data;
  gint64 bytes;

  if (start == TM_ALLOCATIONS_OPEN)
    return TRUE;
  if (!never_freed_size (walk, start, end, &bytes))
    return FALSE;
  add_allocation (walk, start, end, bytes);
  return TRUE;
}

/* A complete store, in one pass in time order over its partner column.
 * Whether an allocation ends in its own step needs the step of its end,
 * anywhere later: the steps are first written out as one index into the
 * table per snapshot (4 bytes each, for the walk only), since looking each
 * one up among the runs of steps took most of the time. */
static gboolean
sweep_store (Walk *walk)
{
  TmAllocStats *stats = walk->stats;
  const guint32 *partner = tm_memory_store_get_partners (walk->store);
  guint n = tm_memory_store_get_n_snapshots (walk->store);
  g_autofree guint32 *step_of_snapshot = tm_alloc_stats_number_steps (walk->store);
  g_autoptr(GArray) stats_index = g_array_new (FALSE, FALSE, sizeof (guint32));

  /* From the steps' numbers to their place in the figures. */
  for (guint i = 0; i < n; i++)
    if (step_of_snapshot[i] == stats_index->len)
      {
        TmStepStats *s = step_of (walk, tm_memory_store_get_step_id (walk->store, i));
        guint32 index;

        g_assert (s != NULL);
        index = (guint32) (s - &g_array_index (stats->steps, TmStepStats, 0));
        g_array_append_val (stats_index, index);
      }
  for (guint i = 0; i < n; i++)
    step_of_snapshot[i] = g_array_index (stats_index, guint32, step_of_snapshot[i]);

  for (guint i = 0; i < n; i++)
    {
      TmStepStats *s;
      guint end;
      gint64 bytes;

      if ((i % CANCEL_CHECK_INTERVAL) == 0 && g_cancellable_set_error_if_cancelled (walk->cancellable, &walk->error))
        return FALSE;
      if (tm_memory_store_get_kind (walk->store, i) != TM_ACTIVITY_ALLOCATION)
        continue;

      end = partner[i] == TM_MEMORY_STORE_NO_PARTNER ? TM_ALLOCATIONS_OPEN : partner[i];
      s = &g_array_index (stats->steps, TmStepStats, step_of_snapshot[i]);
      stats->n_allocations++;
      s->n_allocations++;
      if (end == TM_ALLOCATIONS_OPEN)
        {
          if (!never_freed_size (walk, i, end, &bytes))
            return FALSE;
          stats->n_never_freed++;
          stats->never_freed_bytes += bytes;
          continue;
        }
      stats->n_freed++;
      if (lifetime_within (walk->times[i], walk->times[end], stats->temporary_ps))
        {
          stats->n_temporary++;
          s->n_temporary++;
        }
      if (step_of_snapshot[end] == step_of_snapshot[i])
        {
          stats->n_same_step++;
          s->n_same_step++;
        }
    }
  return TRUE;
}

TmAllocStats *
tm_alloc_stats_new_for_store (TmMemoryStore  *store,
                              gint64          temporary_ps,
                              GCancellable   *cancellable,
                              GError        **error)
{
  const TmSummary *summary;
  gboolean ok;
  Walk walk;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), NULL);

  summary = tm_memory_store_get_summary (store);
  walk_init (&walk, store, summary->first_time_ps, summary->last_time_ps, temporary_ps, cancellable);
  walk.stats->has_bytes = FALSE;
  if (tm_memory_store_is_complete (store))
    ok = sweep_store (&walk);
  else
    ok = tm_allocations_foreach (store, add_from_store, &walk, cancellable, error);
  if (walk.error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&walk.error));
      ok = FALSE;
    }
  finish (&walk);
  if (!ok)
    {
      tm_alloc_stats_free (walk.stats);
      return NULL;
    }
  return walk.stats;
}

double
tm_alloc_stats_get_allocations_per_step (const TmAllocStats *stats)
{
  g_return_val_if_fail (stats != NULL, 0.0);
  return stats->steps->len > 0 ? (double) stats->n_allocations / stats->steps->len : 0.0;
}

double
tm_alloc_stats_get_bytes_per_step (const TmAllocStats *stats)
{
  g_return_val_if_fail (stats != NULL, 0.0);
  return stats->steps->len > 0 ? (double) stats->allocated_bytes / stats->steps->len : 0.0;
}

gboolean
tm_alloc_stats_is_temporary (TmAllocations *allocations,
                             guint          index,
                             gint64         temporary_ps)
{
  const TmAllocation *a;
  const gint64 *times;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (allocations), FALSE);

  a = tm_allocations_get (allocations, index);
  if (a == NULL || a->start == TM_ALLOCATIONS_OPEN || a->end == TM_ALLOCATIONS_OPEN)
    return FALSE;
  times = tm_memory_store_get_times (tm_allocations_get_store (allocations));
  return lifetime_within (times[a->start], times[a->end], temporary_ps);
}

gboolean
tm_alloc_stats_is_same_step (TmAllocations *allocations,
                             guint          index)
{
  TmMemoryStore *store;
  const TmAllocation *a;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (allocations), FALSE);

  a = tm_allocations_get (allocations, index);
  if (a == NULL || a->start == TM_ALLOCATIONS_OPEN || a->end == TM_ALLOCATIONS_OPEN)
    return FALSE;
  store = tm_allocations_get_store (allocations);
  return tm_memory_store_get_step_id (store, a->start) == tm_memory_store_get_step_id (store, a->end);
}

guint32 *
tm_alloc_stats_number_steps (TmMemoryStore *store)
{
  guint n;
  guint32 *numbers;
  g_autoptr(GHashTable) seen = NULL;  /* step id (owned) → number + 1 */

  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), NULL);

  n = tm_memory_store_get_n_snapshots (store);
  numbers = g_new (guint32, MAX (n, 1));
  seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; i < n;)
    {
      guint run_end;
      gint64 step_id = tm_memory_store_get_step_run (store, i, &run_end);
      gpointer number;

      if (!g_hash_table_lookup_extended (seen, &step_id, NULL, &number))
        {
          number = GUINT_TO_POINTER (g_hash_table_size (seen) + 1);
          g_hash_table_insert (seen, g_memdup2 (&step_id, sizeof step_id), number);
        }
      for (; i < run_end; i++)
        numbers[i] = GPOINTER_TO_UINT (number) - 1;
    }
  return numbers;
}
