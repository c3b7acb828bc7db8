/* tm-memory-store.c — one memory id: columns in time order, and their builder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Memory per snapshot beyond the mapped file (the budget is in
 * docs/performance.md), once finished:
 *   time, heap           2 × 8 = 16 bytes
 *   fragmentation (double)         8 bytes
 *   ref (file offset | kind << 62) 8 bytes
 *   partner (matching event index) 4 bytes
 *   stack                          8 bytes, or none while every stack
 *                                  value is 0 (zero pages once finished)
 *   free                           8 bytes, or none while stack + heap +
 *                                  free is the same at every snapshot (the
 *                                  allocator's limit): free is the rest
 *   ---------------------------------------
 *                                 36 bytes (44 with a stack, 44 or 52
 *                                 with free), plus the LOD (about 2.6
 *                                 bytes, tm-lod.h)
 *   step ids, as runs: 12 bytes per run of equal step ids (a step has
 *   hundreds of events), so a fraction of a byte per snapshot
 * Everything else is decoded from the event's bytes on demand. While
 * loading, each event's address is kept until allocations and
 * deallocations are matched: 4 bytes while the addresses are multiples of
 * 256 with the same bits above bit 40, else 8. A file whose events are not
 * in time order needs a 4-byte sort permutation, and the sort writes each
 * 8-byte column into the previous one's memory (one spare column).
 *
 * Columns are tm-column's mappings of whole pages: one grows without a
 * copy, and the part a second reading thread loaded is appended by moving
 * its pages, not copying them (append_columns).
 */
#include "config.h"

#include <string.h>
#include <sys/mman.h>

#include "tm-format.h"
#include "tm-memory-store-private.h"

G_DEFINE_FINAL_TYPE (TmMemoryStore, tm_memory_store, G_TYPE_OBJECT)

static void append_tail (TmMemoryStore *self);

static void
tm_memory_store_finalize (GObject *object)
{
  TmMemoryStore *self = (TmMemoryStore *) object;

  g_clear_pointer (&self->lod, tm_lod_free);
  g_clear_object (&self->tail);
  g_clear_pointer (&self->xprof_peak_rows, g_ptr_array_unref);
  g_clear_pointer (&self->ctx, tm_host_context_unref);
  if (self->decoder_destroy != NULL)
    self->decoder_destroy (self->decoder_data);
  for (guint i = 0; i < self->n_json_activities; i++)
    tm_activity_clear (&self->json_activities[i]);
  g_free (self->json_activities);

  COLUMN_FREE (self->times, self->capacity);
  if (self->stack_map_bytes > 0)
    munmap (self->stack, self->stack_map_bytes);
  else
    COLUMN_FREE (self->stack, self->capacity);
  COLUMN_FREE (self->heap, self->capacity);
  COLUMN_FREE (self->free_bytes, self->capacity);
  COLUMN_FREE (self->free_lazy, self->n);
  g_free (self->run_starts);
  g_free (self->run_steps);
  COLUMN_FREE (self->addrs, self->capacity);
  COLUMN_FREE (self->addrs32, self->capacity);
  COLUMN_FREE (self->frag, self->capacity);
  COLUMN_FREE (self->refs, self->capacity);
  COLUMN_FREE (self->partner, self->capacity);
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
  self->xprof_peak_step_id = -1;
}

TmMemoryStore *
tm_memory_store_new (const char    *id,
                     TmHostContext *ctx)
{
  TmMemoryStore *self = g_object_new (TM_TYPE_MEMORY_STORE, NULL);

  self->id = g_strdup (id);
  if (ctx != NULL)
    self->ctx = tm_host_context_ref (ctx);
  self->complete = ctx != NULL;

  return self;
}

TmMemoryStore *
tm_memory_store_new_with_decoder (const char                 *id,
                                  const TmMemoryStoreDecoder *decoder,
                                  gpointer                    data,
                                  GDestroyNotify              destroy)
{
  TmMemoryStore *self = g_object_new (TM_TYPE_MEMORY_STORE, NULL);

  g_return_val_if_fail (decoder != NULL && decoder->decode != NULL && decoder->sizes != NULL, self);

  self->id = g_strdup (id);
  self->decoder = decoder;
  self->decoder_data = data;
  self->decoder_destroy = destroy;
  self->complete = TRUE;
  return self;
}

/* ------------------------------------------------------------------ */
/* Building                                                             */

static void
resize_columns (TmMemoryStore *self,
                guint          capacity)
{
  guint old = self->capacity;

  COLUMN_RESIZE (self->times, old, capacity);
  if (self->stack != NULL)
    COLUMN_RESIZE (self->stack, old, capacity);
  COLUMN_RESIZE (self->heap, old, capacity);
  if (self->free_bytes != NULL)
    COLUMN_RESIZE (self->free_bytes, old, capacity);
  COLUMN_RESIZE (self->frag, old, capacity);
  COLUMN_RESIZE (self->refs, old, capacity);
  if (self->addrs != NULL)
    COLUMN_RESIZE (self->addrs, old, capacity);
  else if (self->addrs32 != NULL || self->ctx != NULL || self->decoder != NULL)
    COLUMN_RESIZE (self->addrs32, old, capacity);
  if (self->partner != NULL)
    COLUMN_RESIZE (self->partner, old, capacity);
  self->capacity = capacity;
}

static inline guint
grow (TmMemoryStore *self)
{
  if (G_UNLIKELY (self->n == self->capacity))
    {
      /* Columns grow by mremap, so doubling costs address space, not
       * copies or resident memory. */
      guint capacity = self->capacity < 64 ? 64 : self->capacity * 2;

      g_assert (self->capacity < TM_NO_PARTNER / 2);
      resize_columns (self, capacity);
    }

  return self->n++;
}

static void
trim (TmMemoryStore *self)
{
  if (self->n != self->capacity && self->n > 0)
    resize_columns (self, self->n);
}

/* The stack column is not kept while every value is 0 (allocators that
 * report no stack): stack is NULL until a value is not 0, and a finished
 * store gets a read-only mapping of zero pages, which takes no memory. */
static void
keep_stack (TmMemoryStore *self)
{
  COLUMN_NEW (self->stack, self->capacity);
}

/* Free memory while stack + heap + free is the same at every snapshot:
 * capacity - stack - heap, when that holds exactly. */
static inline gboolean
rest_of_capacity (gint64  capacity,
                  gint64  stack,
                  gint64  heap,
                  gint64 *rest)
{
  return !__builtin_sub_overflow (capacity, stack, rest) &&
         !__builtin_sub_overflow (*rest, heap, rest);
}

static inline gint64
store_free (const TmMemoryStore *self,
            guint                index)
{
  gint64 rest = 0;

  if (self->free_bytes != NULL)
    return self->free_bytes[index];
  rest_of_capacity (self->free_capacity, self->stack != NULL ? self->stack[index] : 0,
                    self->heap[index], &rest);
  return rest;
}

/* Whether free memory stays the rest of one capacity at snapshot index
 * (the first one sets it). */
static inline gboolean
free_is_rest (TmMemoryStore    *self,
              guint             index,
              const TmSnapshot *snapshot)
{
  gint64 rest;

  if (index == 0)
    return !__builtin_add_overflow (snapshot->stack_bytes, snapshot->heap_bytes, &rest) &&
           !__builtin_add_overflow (rest, snapshot->free_bytes, &self->free_capacity);
  return rest_of_capacity (self->free_capacity, snapshot->stack_bytes, snapshot->heap_bytes, &rest) &&
         rest == snapshot->free_bytes;
}

/* Free memory stops being the rest of one capacity: the column, with the
 * first count values. */
static void
keep_free (TmMemoryStore *self,
           guint          count)
{
  gint64 *column;

  COLUMN_NEW (column, self->capacity);
  for (guint i = 0; i < count; i++)
    column[i] = store_free (self, i);
  self->free_bytes = column;
}

static void
map_zero_stack (TmMemoryStore *self)
{
  gsize bytes = (gsize) self->n * sizeof (gint64);
  void *zeros = mmap (NULL, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  if (zeros == MAP_FAILED)
    {
      COLUMN_NEW (self->stack, self->capacity);
      return;
    }
  self->stack = zeros;
  self->stack_map_bytes = bytes;
}

static void
widen_addrs (TmMemoryStore *self)
{
  guint64 *wide;

  COLUMN_NEW (wide, self->capacity);
  for (guint i = 0; i < self->n; i++)
    wide[i] = load_addr (self, i);
  COLUMN_FREE (self->addrs32, self->capacity);
  self->addrs = wide;
}

static inline void
set_addr (TmMemoryStore *self,
          guint          index,
          guint64        addr)
{
  if (self->addrs == NULL)
    {
      if (index == 0)
        self->addr_high = addr >> 40;
      if ((addr & 0xff) == 0 && (addr >> 40) == self->addr_high)
        {
          self->addrs32[index] = (guint32) (addr >> 8);
          return;
        }
      widen_addrs (self);
    }
  self->addrs[index] = addr;
}

/* docs/analysis.md step 1, in file order: folds part (the summary of
 * snapshots that come later in the file) into s. The lifetime peak is the
 * largest peak_bytes_in_use, the last one is the later part's; the window
 * peak is the later part's when it is at least as high (a snapshot is a
 * candidate when stack + heap >= 0: the fold starts from 0), with the
 * capacity stack + heap + free at that snapshot. */
/* The window peak's figures of part become s's. */
static inline void
take_window_peak (TmSummary       *s,
                  const TmSummary *part)
{
  s->peak_bytes_in_use = part->peak_bytes_in_use;
  s->peak_stats_peak_bytes_in_use = part->peak_stats_peak_bytes_in_use;
  s->peak_time_ps = part->peak_time_ps;
  s->peak_stack_bytes = part->peak_stack_bytes;
  s->peak_heap_bytes = part->peak_heap_bytes;
  s->peak_free_bytes = part->peak_free_bytes;
  s->peak_fragmentation = part->peak_fragmentation;
  s->memory_capacity = part->memory_capacity;
}

static inline __attribute__ ((always_inline)) void
summary_fold (TmSummary       *s,
              gboolean        *s_has_window_peak,
              gboolean         s_empty,
              const TmSummary *part,
              gboolean         part_has_window_peak)
{
  s->peak_bytes_usage_lifetime = s_empty ? part->peak_bytes_usage_lifetime
                                         : MAX (s->peak_bytes_usage_lifetime, part->peak_bytes_usage_lifetime);
  s->last_peak_bytes_in_use = part->last_peak_bytes_in_use;
  s->n_allocations += part->n_allocations;
  s->n_deallocations += part->n_deallocations;
  if (part_has_window_peak && (!*s_has_window_peak || part->peak_bytes_in_use >= s->peak_bytes_in_use))
    {
      take_window_peak (s, part);
      *s_has_window_peak = TRUE;
    }
}

void
tm_memory_store_add (TmMemoryStore    *self,
                     const TmSnapshot *snapshot)
{
  gint64 used = tm_sat_add (snapshot->stack_bytes, snapshot->heap_bytes);
  TmSummary *s;
  guint i;

  g_return_if_fail (TM_IS_MEMORY_STORE (self));
  g_return_if_fail (self->partner == NULL);

  if (G_UNLIKELY (self->tail != NULL))
    append_tail (self);
  i = grow (self);
  self->times[i] = snapshot->time_ps;
  if (G_UNLIKELY (snapshot->stack_bytes != 0) && self->stack == NULL)
    keep_stack (self);
  if (self->stack != NULL)
    self->stack[i] = snapshot->stack_bytes;
  self->heap[i] = snapshot->heap_bytes;
  if (self->free_bytes == NULL && !free_is_rest (self, i, snapshot))
    keep_free (self, i);
  if (self->free_bytes != NULL)
    self->free_bytes[i] = snapshot->free_bytes;
  self->frag[i] = snapshot->fragmentation;
  push_step (self, i, snapshot->step_id);
  self->refs[i] = snapshot->ref | ((guint64) snapshot->kind << TM_REF_KIND_SHIFT);
  if (self->addrs != NULL || self->addrs32 != NULL)
    set_addr (self, i, snapshot->address);
  if (i > 0 && snapshot->time_ps < self->times[i - 1])
    self->time_sorted = FALSE;
  if (snapshot->free_bytes != 0)
    self->has_free = TRUE;

  /* The summary of this one snapshot, folded in: summary_fold() with a
   * part of one snapshot, whose window peak is only made when it wins
   * (this runs for every event). */
  s = &self->summary;
  if (i == 0 || snapshot->peak_bytes_in_use > s->peak_bytes_usage_lifetime)
    s->peak_bytes_usage_lifetime = snapshot->peak_bytes_in_use;
  s->last_peak_bytes_in_use = snapshot->peak_bytes_in_use;
  s->n_allocations += snapshot->kind == TM_ACTIVITY_ALLOCATION;
  s->n_deallocations += snapshot->kind == TM_ACTIVITY_DEALLOCATION;
  if (used >= 0 && (!self->have_window_peak || used >= s->peak_bytes_in_use))
    {
      TmSummary part;

      part.peak_bytes_in_use = used;
      part.peak_stats_peak_bytes_in_use = used;
      part.peak_time_ps = snapshot->time_ps;
      part.peak_stack_bytes = snapshot->stack_bytes;
      part.peak_heap_bytes = snapshot->heap_bytes;
      part.peak_free_bytes = snapshot->free_bytes;
      part.peak_fragmentation = snapshot->fragmentation;
      part.memory_capacity = tm_sat_add (used, snapshot->free_bytes);
      take_window_peak (s, &part);
      self->have_window_peak = TRUE;
    }
}

void
tm_memory_store_add_activity (TmMemoryStore *self,
                              TmActivity    *activity)
{
  TmSnapshot snapshot;
  guint k;

  g_return_if_fail (TM_IS_MEMORY_STORE (self));
  g_return_if_fail (self->ctx == NULL && self->decoder == NULL);
  g_return_if_fail (activity != NULL);

  if (self->n_json_activities == self->json_capacity)
    {
      self->json_capacity = MAX (16, self->json_capacity * 2);
      self->json_activities = g_renew (TmActivity, self->json_activities, self->json_capacity);
    }
  k = self->n_json_activities++;
  self->json_activities[k] = *activity;
  memset (activity, 0, sizeof *activity);
  activity = &self->json_activities[k];

  snapshot.time_ps = activity->time_ps;
  snapshot.stack_bytes = activity->stack_bytes;
  snapshot.heap_bytes = activity->heap_bytes;
  snapshot.free_bytes = activity->free_bytes;
  snapshot.fragmentation = activity->fragmentation;
  snapshot.peak_bytes_in_use = activity->peak_bytes_in_use;
  snapshot.step_id = activity->step_id;
  snapshot.kind = activity->kind;
  snapshot.address = activity->address;
  snapshot.ref = k;
  tm_memory_store_add (self, &snapshot);
}

void
tm_memory_store_set_xprof_results (TmMemoryStore   *self,
                                   const TmSummary *summary,
                                   GPtrArray       *peak_rows,
                                   gint64           peak_step_id)
{
  TmSummary *s;

  g_return_if_fail (TM_IS_MEMORY_STORE (self));
  g_return_if_fail (summary != NULL);
  g_return_if_fail (peak_rows != NULL);

  s = &self->summary;
  s->peak_bytes_usage_lifetime = summary->peak_bytes_usage_lifetime;
  s->last_peak_bytes_in_use = summary->last_peak_bytes_in_use;
  s->peak_bytes_in_use = summary->peak_bytes_in_use;
  s->peak_time_ps = summary->peak_time_ps;
  s->peak_stack_bytes = summary->peak_stack_bytes;
  s->peak_heap_bytes = summary->peak_heap_bytes;
  s->peak_free_bytes = summary->peak_free_bytes;
  s->peak_fragmentation = summary->peak_fragmentation;
  s->peak_stats_peak_bytes_in_use = summary->peak_stats_peak_bytes_in_use;
  s->memory_capacity = summary->memory_capacity;

  g_clear_pointer (&self->xprof_peak_rows, g_ptr_array_unref);
  self->xprof_peak_rows = peak_rows;
  self->xprof_peak_step_id = peak_step_id;
}

#define APPEND_COLUMN(col)                                                   \
  G_STMT_START {                                                             \
    self->col = tm_column_append (self->col, self->n, self->capacity,       \
                                  later->col, later->n, later->capacity, sizeof *self->col); \
    later->col = NULL;                                                       \
  } G_STMT_END

/* Moves later's columns after this store's. */
static void
append_columns (TmMemoryStore *self,
                TmMemoryStore *later)
{
  guint capacity = tm_column_append_capacity (self->n, self->capacity, later->capacity);

  if (later->n == 0)
    return;

  g_assert (capacity < TM_NO_PARTNER);

  /* Kept stack columns and addresses: both narrow, or both kept or wide. */
  if ((self->stack != NULL) != (later->stack != NULL))
    keep_stack (self->stack == NULL ? self : later);
  /* Free memory: the rest of the same capacity in both, or both columns. */
  if (self->free_bytes == NULL && later->free_bytes == NULL && self->n > 0 &&
      self->free_capacity != later->free_capacity)
    keep_free (self, self->n);
  if (self->free_bytes != NULL && later->free_bytes == NULL)
    keep_free (later, later->n);
  if (self->free_bytes == NULL && later->free_bytes != NULL)
    keep_free (self, self->n);
  if ((self->addrs32 != NULL && later->addrs32 != NULL && self->addr_high != later->addr_high) ||
      (self->addrs32 != NULL && later->addrs != NULL))
    widen_addrs (self);
  if (self->addrs != NULL && later->addrs32 != NULL)
    widen_addrs (later);

  APPEND_COLUMN (times);
  if (self->stack != NULL)
    APPEND_COLUMN (stack);
  APPEND_COLUMN (heap);
  if (self->free_bytes != NULL)
    APPEND_COLUMN (free_bytes);
  else if (self->n == 0)
    self->free_capacity = later->free_capacity;
  APPEND_COLUMN (frag);
  for (guint r = 0; r < later->n_runs; r++)
    push_step (self, self->n + later->run_starts[r], later->run_steps[r]);
  later->n_runs = 0;
  APPEND_COLUMN (refs);
  if (self->addrs != NULL)
    APPEND_COLUMN (addrs);
  else if (self->addrs32 != NULL)
    APPEND_COLUMN (addrs32);

  if (self->n == 0)
    self->addr_high = later->addr_high;
  self->n += later->n;
  self->capacity = capacity;
  later->n = 0;
  later->capacity = 0;
}

static void
append_tail (TmMemoryStore *self)
{
  TmMemoryStore *tail = g_steal_pointer (&self->tail);

  if (tail != NULL)
    {
      append_columns (self, tail);
      g_object_unref (tail);
    }
}

void
tm_memory_store_append (TmMemoryStore *self,
                        TmMemoryStore *later)
{
  g_return_if_fail (TM_IS_MEMORY_STORE (self));
  g_return_if_fail (TM_IS_MEMORY_STORE (later));
  g_return_if_fail (self->partner == NULL && later->partner == NULL);

  if (later->n == 0)
    return;

  append_tail (self);
  append_tail (later);

  if (self->n > 0 && later->times[0] < self->times[self->n - 1])
    self->time_sorted = FALSE;
  self->time_sorted &= later->time_sorted;
  self->has_free |= later->has_free;

  /* The same fold as for one snapshot: later's summary comes later in the
   * file. */
  summary_fold (&self->summary, &self->have_window_peak, self->n == 0,
                &later->summary, later->have_window_peak);

  /* The columns are copied in when finishing (append_tail). */
  self->tail = g_object_ref (later);
}

#undef APPEND_COLUMN

void
tm_memory_store_append_all (TmMemoryStore  *self,
                            TmMemoryStore **later,
                            guint           n_later)
{
  guint room, n;

  g_return_if_fail (TM_IS_MEMORY_STORE (self));
  g_return_if_fail (self->partner == NULL);

  /* The room for all of them, made while the columns are one mapping each:
   * once pages are moved in, they cannot grow (tm-column.h). */
  append_tail (self);
  room = self->capacity;
  n = self->n;
  for (guint k = 0; k < n_later; k++)
    if (later[k]->n > 0)
      {
        append_tail (later[k]);
        room = tm_column_append_capacity (n, room, later[k]->capacity);
        n += later[k]->n;
      }
  g_assert (room < TM_NO_PARTNER);
  if (room > self->capacity)
    resize_columns (self, room);

  for (guint k = 0; k < n_later; k++)
    tm_memory_store_append (self, later[k]);
}

/* ------------------------------------------------------------------ */
/* Finishing                                                            */

gboolean
tm_memory_store_finish (TmMemoryStore  *s,
                        GCancellable   *cancellable,
                        GError        **error)
{
  guint32 *perm = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (s), FALSE);
  g_return_val_if_fail (s->partner == NULL, FALSE);

  append_tail (s);
  trim (s);

  /* Sort by time (stable, docs/analysis.md step 2). Match allocations
   * first, while the addresses are in file order, so the address column is
   * gone before the columns are reordered: the peak stays near 64 bytes
   * per event. */
  if (!s->time_sorted)
    {
      perm = tm_column_sort_permutation (s->times, s->n, cancellable, error);
      if (perm == NULL)
        return FALSE;
    }

  ok = _tm_memory_store_match (s, perm, cancellable, error);
  COLUMN_FREE (s->addrs, s->capacity);
  COLUMN_FREE (s->addrs32, s->capacity);

  if (perm != NULL)
    {
      if (ok)
        _tm_memory_store_sort_columns (s, perm);
      g_free (perm);
      s->time_sorted = TRUE;
    }
  if (!ok)
    return FALSE;

  _tm_memory_store_fill_steps (s);

  s->summary.n_snapshots = s->n;
  if (s->n > 0)
    {
      s->summary.first_time_ps = s->times[0];
      s->summary.last_time_ps = s->times[s->n - 1];
      if (s->stack == NULL)
        map_zero_stack (s);
      /* The LOD is built on first use (tm_memory_store_get_lod): printing
       * a summary never draws. */
    }
  s->finished = TRUE;

  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */

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
  return self->n + (self->tail != NULL ? self->tail->n : 0);
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

  if (self->free_bytes != NULL || self->n == 0)
    return self->free_bytes;

  /* Free memory is the rest of one capacity: the column is made for who
   * asks (any thread; the others wait), once the store is finished.
   * Drawing does not ask: the LOD takes the capacity. */
  g_return_val_if_fail (self->finished, NULL);
  if (g_once_init_enter (&self->free_lazy))
    {
      gint64 *column;

      COLUMN_NEW (column, self->n);
      for (guint i = 0; i < self->n; i++)
        column[i] = store_free (self, i);
      g_once_init_leave (&self->free_lazy, column);
    }
  return self->free_lazy;
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
  return ref_kind (self->refs[index]);
}

gint64
tm_memory_store_get_step_id (TmMemoryStore *self,
                             guint          index)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), -1);
  g_return_val_if_fail (index < self->n, -1);
  return store_step (self, index);
}

gint64
tm_memory_store_get_step_run (TmMemoryStore *self,
                              guint          index,
                              guint         *run_end)
{
  guint r;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), -1);
  g_return_val_if_fail (index < self->n, -1);
  g_return_val_if_fail (run_end != NULL, -1);

  r = find_run (self, index);
  *run_end = r + 1 < self->n_runs ? self->run_starts[r + 1] : self->n;
  return self->run_steps[r];
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

  /* Only a finished store with snapshots has one. Any thread may ask
   * first: one builds it, the others wait for it. */
  if (!self->finished || self->n == 0)
    return NULL;
  if (g_once_init_enter (&self->lod))
    g_once_init_leave (&self->lod,
                       self->free_bytes != NULL
                       ? tm_lod_new (self->n, self->times, self->stack, self->heap, self->free_bytes, self->frag)
                       : tm_lod_new_with_capacity (self->n, self->times, self->stack, self->heap,
                                                   self->free_capacity, self->frag));
  return self->lod;
}

/* A name whole: a NUL inside it is kept as TM_FORMAT_NUL (tm-format.h). */
static char *
dup_str (TmStr s)
{
  return tm_format_name_from_bytes ((const char *) s.ptr, s.len);
}

static char *
data_type_name (gint64 value)
{
  /* An event without a data_type stat has no name (as in XProf). */
  return value == G_MININT64 ? g_strdup ("") : tm_data_type_name (value);
}

/* The ref whose names an event shows: a matched deallocation shows its
 * allocation's. */
static guint64
meta_ref (TmMemoryStore *self,
          guint          index)
{
  if (ref_kind (self->refs[index]) == TM_ACTIVITY_DEALLOCATION && self->partner[index] != TM_NO_PARTNER)
    return self->refs[self->partner[index]] & TM_REF_OFFSET_MASK;
  return self->refs[index] & TM_REF_OFFSET_MASK;
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

  if (self->decoder != NULL)
    {
      activity->kind = ref_kind (self->refs[index]);
      if (!self->decoder->decode (self->decoder_data, self->refs[index] & TM_REF_OFFSET_MASK,
                                  meta_ref (self, index), activity, error))
        return FALSE;
      activity->kind = ref_kind (self->refs[index]);
    }
  else if (self->ctx == NULL)
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

      ev.kind = ref_kind (self->refs[index]);
      if (!tm_host_context_decode (self->ctx, self->refs[index] & TM_REF_OFFSET_MASK, &ev, error))
        return FALSE;

      /* A deallocation shows what its allocation was (docs/analysis.md step 4). */
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
  activity->step_id = store_step (self, index);
  activity->stack_bytes = self->stack[index];
  activity->heap_bytes = self->heap[index];
  activity->free_bytes = store_free (self, index);
  activity->fragmentation = self->frag[index];

  return TRUE;
}

const TmSummary *
tm_memory_store_get_summary (TmMemoryStore *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), NULL);
  return &self->summary;
}

const guint32 *
tm_memory_store_get_partners (TmMemoryStore *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), NULL);
  return self->partner;
}

char *
tm_memory_store_get_call_stack (TmMemoryStore *self,
                                guint          index)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), NULL);
  g_return_val_if_fail (index < self->n, NULL);

  if (self->decoder == NULL || self->decoder->stack == NULL)
    return NULL;
  return self->decoder->stack (self->decoder_data, meta_ref (self, index));
}

gboolean
tm_memory_store_get_label_key (TmMemoryStore *self,
                               guint          index,
                               guint64       *address,
                               gint64        *allocation_bytes,
                               guint64       *key)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), FALSE);
  g_return_val_if_fail (index < self->n, FALSE);

  if (self->decoder == NULL || self->decoder->label == NULL)
    return FALSE;
  return self->decoder->label (self->decoder_data, self->refs[index] & TM_REF_OFFSET_MASK,
                               meta_ref (self, index), address, allocation_bytes, key);
}

gboolean
tm_memory_store_get_event_sizes (TmMemoryStore  *self,
                                 guint           index,
                                 guint64        *address,
                                 gint64         *allocation_bytes,
                                 GError        **error)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), FALSE);
  g_return_val_if_fail (index < self->n, FALSE);

  if (self->decoder != NULL)
    return self->decoder->sizes (self->decoder_data, self->refs[index] & TM_REF_OFFSET_MASK,
                                 address, allocation_bytes, error);
  if (self->ctx != NULL)
    {
      TmMemEvent ev;

      ev.kind = ref_kind (self->refs[index]);
      if (!tm_host_context_decode (self->ctx, self->refs[index] & TM_REF_OFFSET_MASK, &ev, error))
        return FALSE;
      *address = ev.address;
      *allocation_bytes = ev.allocation_bytes;
    }
  else
    {
      const TmActivity *act = &self->json_activities[self->refs[index] & TM_REF_OFFSET_MASK];

      *address = act->address;
      *allocation_bytes = act->allocation_bytes;
    }
  return TRUE;
}

GPtrArray *
tm_memory_store_get_xprof_peak_breakdown (TmMemoryStore *self,
                                          gint64        *peak_step_id)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), NULL);
  if (peak_step_id != NULL)
    *peak_step_id = self->xprof_peak_step_id;
  return self->xprof_peak_rows;
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
tm_memory_store_find_lifetime_peak (TmMemoryStore *self)
{
  gint64 lifetime;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), G_MAXUINT);

  lifetime = self->summary.peak_bytes_usage_lifetime;
  for (guint i = 0; i < self->n; i++)
    if (self->heap[i] >= lifetime)
      return i;
  return G_MAXUINT;
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
      /* times[prev] < t_ps <= times[lo]: both distances fit in 64 unsigned
       * bits, even across the whole int64 range. */
      guint64 d_prev = (guint64) t_ps - (guint64) self->times[prev];
      guint64 d_next = (guint64) self->times[lo] - (guint64) t_ps;

      if (d_prev <= d_next && self->times[lo] != t_ps)
        {
          lo = prev;
          while (lo > 0 && self->times[lo - 1] == self->times[prev])
            lo--;
        }
    }

  return lo;
}

gsize
tm_memory_store_get_memory_size (TmMemoryStore *self)
{
  gsize size;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), 0);

  size = sizeof *self + (gsize) self->capacity * ((self->stack_map_bytes > 0 ? 2 : 3) * sizeof (gint64) + sizeof (double) +
                                                  sizeof (guint64) + sizeof (guint32)) +
         (gsize) self->runs_capacity * (sizeof (guint32) + sizeof (gint64));
  if (self->free_bytes != NULL)
    size += (gsize) self->capacity * sizeof (gint64);
  if (g_atomic_pointer_get (&self->free_lazy) != NULL)
    size += (gsize) self->n * sizeof (gint64);
  if (g_atomic_pointer_get (&self->lod) != NULL)
    size += tm_lod_get_memory_size (self->lod);
  return size;
}
