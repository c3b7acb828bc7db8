/* tm-memory-store.c — one memory id: columns in time order and the analysis
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-analysis.h"
#include "tm-memory-store-private.h"

G_DEFINE_FINAL_TYPE (TmMemoryStore, tm_memory_store, G_TYPE_OBJECT)

static void
tm_memory_store_finalize (GObject *object)
{
  TmMemoryStore *self = (TmMemoryStore *) object;

  g_clear_pointer (&self->lod, tm_lod_free);
  g_clear_pointer (&self->peak_rows, g_ptr_array_unref);
  g_clear_pointer (&self->ctx, tm_host_context_unref);

  for (guint i = 0; i < self->n_json_activities; i++)
    tm_activity_clear (&self->json_activities[i]);
  g_free (self->json_activities);

  g_free (self->times);
  g_free (self->stack);
  g_free (self->heap);
  g_free (self->free_bytes);
  g_free (self->steps);
  g_free (self->steps_wide);
  g_free (self->addrs);
  g_free (self->frag);
  g_free (self->refs);
  g_free (self->partner);
  g_free (self->id);

  G_OBJECT_CLASS (tm_memory_store_parent_class)->finalize (object);
}

static void
tm_memory_store_class_init (TmMemoryStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tm_memory_store_finalize;
}

static void
tm_memory_store_init (TmMemoryStore *self)
{
  self->time_sorted = TRUE;
  self->complete = TRUE;
}

TmMemoryStore *
tm_memory_store_new (const char    *id,
                     TmHostContext *ctx)
{
  TmMemoryStore *self = g_object_new (TM_TYPE_MEMORY_STORE, NULL);

  self->id = g_strdup (id);
  if (ctx != NULL)
    self->ctx = tm_host_context_ref (ctx);

  return self;
}

static void
resize_columns (TmMemoryStore *self,
                guint          capacity)
{
  self->times = g_renew (gint64, self->times, capacity);
  self->stack = g_renew (gint64, self->stack, capacity);
  self->heap = g_renew (gint64, self->heap, capacity);
  self->free_bytes = g_renew (gint64, self->free_bytes, capacity);
  if (self->steps_wide != NULL)
    self->steps_wide = g_renew (gint64, self->steps_wide, capacity);
  else
    self->steps = g_renew (gint32, self->steps, capacity);
  self->frag = g_renew (double, self->frag, capacity);
  self->refs = g_renew (guint64, self->refs, capacity);
  if (self->addrs != NULL || self->ctx != NULL)
    self->addrs = g_renew (guint64, self->addrs, capacity);
  if (self->partner != NULL)
    self->partner = g_renew (guint32, self->partner, capacity);
  self->capacity = capacity;
}

guint
tm_memory_store_grow (TmMemoryStore *self)
{
  if (G_UNLIKELY (self->n == self->capacity))
    {
      /* Large blocks are mremap()ed by the allocator, so doubling costs
       * address space, not copies or resident memory. */
      guint capacity = self->capacity < 64 ? 64 : self->capacity * 2;

      g_assert (self->capacity < TM_NO_PARTNER / 2);
      resize_columns (self, capacity);
    }

  return self->n++;
}

void
tm_memory_store_trim (TmMemoryStore *self)
{
  if (self->n != self->capacity && self->n > 0)
    resize_columns (self, self->n);
}

void
tm_memory_store_set_step (TmMemoryStore *self,
                          guint          index,
                          gint64         step)
{
  if (self->steps_wide == NULL)
    {
      if (step >= G_MININT32 && step <= G_MAXINT32)
        {
          self->steps[index] = (gint32) step;
          return;
        }

      /* Rare: a step id beyond 32 bits. Widen this memory id's column. */
      self->steps_wide = g_new (gint64, MAX (self->capacity, 1));
      for (guint i = 0; i < self->n; i++)
        self->steps_wide[i] = self->steps[i];
      g_clear_pointer (&self->steps, g_free);
    }

  self->steps_wide[index] = step;
}

#define APPEND_COLUMN(T, col)                                              \
  G_STMT_START {                                                           \
    self->col = g_renew (T, self->col, MAX (n, 1));                        \
    memcpy (self->col + self->n, later->col, (gsize) later->n * sizeof (T)); \
    g_clear_pointer (&later->col, g_free);                                 \
  } G_STMT_END

void
tm_memory_store_append (TmMemoryStore *self,
                        TmMemoryStore *later)
{
  TmSummary *s = &self->summary;
  const TmSummary *l = &later->summary;
  guint n = self->n + later->n;

  g_return_if_fail (self->partner == NULL && later->partner == NULL);

  if (later->n == 0)
    return;

  if (self->n > 0 && later->times[0] < self->times[self->n - 1])
    self->time_sorted = FALSE;
  self->time_sorted &= later->time_sorted;
  self->has_free |= later->has_free;

  /* The summary folds in file order (§3.1): the later part's window peak
   * wins when it is at least as high. */
  s->peak_bytes_usage_lifetime = self->n > 0 ? MAX (s->peak_bytes_usage_lifetime, l->peak_bytes_usage_lifetime)
                                             : l->peak_bytes_usage_lifetime;
  s->last_peak_bytes_in_use = l->last_peak_bytes_in_use;
  s->n_allocations += l->n_allocations;
  s->n_deallocations += l->n_deallocations;
  if (later->have_window_peak && (!self->have_window_peak || l->peak_bytes_in_use >= s->peak_bytes_in_use))
    {
      s->peak_bytes_in_use = l->peak_bytes_in_use;
      s->peak_stats_peak_bytes_in_use = l->peak_stats_peak_bytes_in_use;
      s->peak_time_ps = l->peak_time_ps;
      s->peak_stack_bytes = l->peak_stack_bytes;
      s->peak_heap_bytes = l->peak_heap_bytes;
      s->peak_free_bytes = l->peak_free_bytes;
      s->peak_fragmentation = l->peak_fragmentation;
      s->memory_capacity = l->memory_capacity;
      self->have_window_peak = TRUE;
    }

  /* Step ids: both 32-bit, or both wide. */
  if ((self->steps_wide != NULL) != (later->steps_wide != NULL))
    {
      TmMemoryStore *narrow = self->steps_wide == NULL ? self : later;

      narrow->steps_wide = g_new (gint64, MAX (narrow->capacity, 1));
      for (guint i = 0; i < narrow->n; i++)
        narrow->steps_wide[i] = narrow->steps[i];
      g_clear_pointer (&narrow->steps, g_free);
    }

  APPEND_COLUMN (gint64, times);
  APPEND_COLUMN (gint64, stack);
  APPEND_COLUMN (gint64, heap);
  APPEND_COLUMN (gint64, free_bytes);
  if (self->steps_wide != NULL)
    APPEND_COLUMN (gint64, steps_wide);
  else
    APPEND_COLUMN (gint32, steps);
  APPEND_COLUMN (double, frag);
  APPEND_COLUMN (guint64, refs);
  APPEND_COLUMN (guint64, addrs);

  self->n = n;
  self->capacity = n;
  later->n = 0;
  later->capacity = 0;
}

#undef APPEND_COLUMN

void
tm_memory_store_alloc_partner (TmMemoryStore *self)
{
  if (self->partner == NULL)
    self->partner = g_new (guint32, MAX (self->capacity, 1));
  for (guint i = 0; i < self->n; i++)
    self->partner[i] = TM_NO_PARTNER;
}

const char *
tm_memory_store_get_id (TmMemoryStore *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), NULL);
  return self->id;
}

guint
tm_memory_store_get_n_snapshots (TmMemoryStore *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), 0);
  return self->n;
}

const gint64 *
tm_memory_store_get_times (TmMemoryStore *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), NULL);
  return self->times;
}

const gint64 *
tm_memory_store_get_stack (TmMemoryStore *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), NULL);
  return self->stack;
}

const gint64 *
tm_memory_store_get_heap (TmMemoryStore *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), NULL);
  return self->heap;
}

const gint64 *
tm_memory_store_get_free (TmMemoryStore *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), NULL);
  return self->free_bytes;
}

const double *
tm_memory_store_get_fragmentation (TmMemoryStore *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), NULL);
  return self->frag;
}

TmActivityKind
tm_memory_store_get_kind (TmMemoryStore *self,
                          guint          index)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), TM_ACTIVITY_UNKNOWN);
  g_return_val_if_fail (index < self->n, TM_ACTIVITY_UNKNOWN);
  return tm_memory_store_ref_kind (self->refs[index]);
}

gint64
tm_memory_store_get_step_id (TmMemoryStore *self,
                             guint          index)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), -1);
  g_return_val_if_fail (index < self->n, -1);
  return tm_memory_store_step (self, index);
}

gboolean
tm_memory_store_has_free_data (TmMemoryStore *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), FALSE);
  return self->has_free;
}

gboolean
tm_memory_store_is_complete (TmMemoryStore *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), FALSE);
  return self->complete;
}

TmLod *
tm_memory_store_get_lod (TmMemoryStore *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), NULL);
  return self->lod;
}

static char *
dup_str (TmStr s)
{
  return g_strndup (s.len > 0 ? (const char *) s.ptr : "", s.len);
}

static char *
data_type_name (gint64 value)
{
  /* An event without a data_type stat has no name (as in XProf). */
  return value == G_MININT64 ? g_strdup ("") : tm_data_type_name (value);
}

gboolean
tm_memory_store_get_activity (TmMemoryStore  *self,
                              guint           index,
                              TmActivity     *activity,
                              GError        **error)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), FALSE);
  g_return_val_if_fail (index < self->n, FALSE);
  g_return_val_if_fail (activity != NULL, FALSE);

  memset (activity, 0, sizeof *activity);

  if (self->ctx == NULL)
    {
      const TmActivity *src = &self->json_activities[self->refs[index] & TM_REF_OFFSET_MASK];

      *activity = *src;
      activity->op_name = g_strdup (src->op_name);
      activity->region_type = g_strdup (src->region_type);
      activity->data_type = g_strdup (src->data_type);
      activity->shape = g_strdup (src->shape);
    }
  else
    {
      TmMemEvent ev;
      const TmMemEvent *meta = &ev;
      TmMemEvent alloc;

      ev.kind = tm_memory_store_ref_kind (self->refs[index]);
      if (!tm_host_context_decode (self->ctx, self->refs[index] & TM_REF_OFFSET_MASK, &ev, error))
        return FALSE;

      /* A deallocation shows what its allocation was (§3.4). */
      if (ev.kind == TM_ACTIVITY_DEALLOCATION && self->partner[index] != TM_NO_PARTNER)
        {
          guint a = self->partner[index];

          alloc.kind = TM_ACTIVITY_ALLOCATION;
          if (!tm_host_context_decode (self->ctx, self->refs[a] & TM_REF_OFFSET_MASK, &alloc, error))
            return FALSE;
          meta = &alloc;
        }

      activity->kind = ev.kind;
      activity->requested_bytes = ev.requested_bytes;
      activity->allocation_bytes = ev.allocation_bytes;
      activity->address = ev.address;
      activity->peak_bytes_in_use = ev.peak_bytes_in_use;
      activity->op_name = dup_str (meta->op);
      activity->region_type = dup_str (meta->region);
      activity->data_type = data_type_name (meta->data_type);
      activity->shape = dup_str (meta->shape);
    }

  activity->time_ps = self->times[index];
  activity->step_id = tm_memory_store_step (self, index);
  activity->stack_bytes = self->stack[index];
  activity->heap_bytes = self->heap[index];
  activity->free_bytes = self->free_bytes[index];
  activity->fragmentation = self->frag[index];

  return TRUE;
}

const TmSummary *
tm_memory_store_get_summary (TmMemoryStore *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), NULL);
  return &self->summary;
}

GPtrArray *
tm_memory_store_get_peak_breakdown (TmMemoryStore *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), NULL);
  return self->peak_rows;
}

GPtrArray *
tm_memory_store_breakdown_at (TmMemoryStore *self,
                              gint64         t_ps)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), NULL);
  return tm_analysis_breakdown_at (self, t_ps);
}

guint
tm_memory_store_find_at_or_before (TmMemoryStore *self,
                                   gint64         t_ps)
{
  guint lo = 0, hi;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), 0);

  /* First index with time > t_ps, minus one. */
  hi = self->n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->times[mid] <= t_ps)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo > 0 ? lo - 1 : 0;
}

guint
tm_memory_store_find_nearest (TmMemoryStore *self,
                              gint64         t_ps)
{
  guint lo = 0, hi;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), 0);

  if (self->n == 0)
    return 0;

  /* First index with time >= t_ps. */
  hi = self->n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->times[mid] < t_ps)
        lo = mid + 1;
      else
        hi = mid;
    }

  if (lo == self->n)
    lo = self->n - 1;
  else if (lo > 0)
    {
      /* The previous distinct time may be nearer; take the first of it. */
      guint prev = lo - 1;
      guint64 d_prev = (guint64) (t_ps - self->times[prev]);
      guint64 d_next = (guint64) (self->times[lo] - t_ps);

      if (d_prev <= d_next && self->times[lo] != t_ps)
        {
          lo = prev;
          while (lo > 0 && self->times[lo - 1] == self->times[prev])
            lo--;
        }
    }

  return lo;
}

GArray *
tm_memory_store_sample_timeline (TmMemoryStore *self,
                                 guint          max_points)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), NULL);
  return tm_analysis_sample (self, max_points);
}

gsize
tm_memory_store_get_memory_size (TmMemoryStore *self)
{
  gsize size;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), 0);

  size = sizeof *self + (gsize) self->capacity * (4 * sizeof (gint64) + sizeof (double) +
                                                  sizeof (guint64) + sizeof (guint32) +
                                                  (self->steps_wide != NULL ? sizeof (gint64) : sizeof (gint32)));
  if (self->lod != NULL)
    size += tm_lod_get_memory_size (self->lod);
  if (self->peak_rows != NULL)
    size += self->peak_rows->len * sizeof (TmBreakdownRow);
  return size;
}
