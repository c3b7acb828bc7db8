/* tm-memory-store.c — one memory id: columns in time order, and their builder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Memory per snapshot beyond the mapped file (the budget is in
 * docs/performance.md), once finished:
 *   time, heap, free     3 × 8 = 24 bytes
 *   fragmentation (double)         8 bytes
 *   ref (file offset | kind << 62) 8 bytes
 *   partner (matching event index) 4 bytes
 *   stack                          8 bytes, or none while every stack
 *                                  value is 0 (zero pages once finished)
 *   ---------------------------------------
 *                                 44 bytes (52 with a stack), plus the
 *                                 LOD (about 2.6 bytes, tm-lod.h)
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

#include "tm-addr-map.h"
#include "tm-column.h"
#include "tm-memory-store.h"

#define TM_NO_PARTNER TM_MEMORY_STORE_NO_PARTNER
#define TM_REF_KIND_SHIFT 62
#define TM_REF_OFFSET_MASK ((G_GUINT64_CONSTANT (1) << TM_REF_KIND_SHIFT) - 1)
#define CANCEL_CHECK_INTERVAL 65536

struct _TmMemoryStore
{
  GObject          parent_instance;

  char            *id;

  guint            n;
  guint            capacity;
  gint64          *times;
  gint64          *stack;
  gint64          *heap;
  gint64          *free_bytes;
  /* Step ids as runs: run r covers the snapshots from run_starts[r] up to
   * the next run's start, all of step run_steps[r]. Raw group_id (-1 none)
   * in file order while loading; in time order and filled in once
   * finished. */
  guint32         *run_starts;
  gint64          *run_steps;
  guint            n_runs;
  guint            runs_capacity;
  double          *frag;
  guint64         *refs;       /* XSpace: file offset of the event's length prefix;
                                * JSON: index into json_activities; kind in the top bits */
  guint32         *partner;    /* alloc: event that ends it; dealloc: allocation it copies */
  guint64         *addrs;      /* while loading only: each event's address, for matching */
  guint32         *addrs32;    /* the same, narrow: address >> 8 under addr_high (see load_addr) */
  guint64          addr_high;  /* address >> 40 shared by every narrow address */
  gsize            stack_map_bytes; /* stack is a read-only mapping of zeros of this size */

  TmSummary        summary;
  gboolean         have_window_peak;

  /* Snapshots appended (tm_memory_store_append) whose columns are copied
   * in when finishing, which runs on two threads: counted and folded
   * already. */
  TmMemoryStore   *tail;

  TmLod           *lod;

  /* XSpace stores decode from the host plane. */
  TmHostContext   *ctx;
  /* XProf JSON stores keep XProf's metadata per point, and its results. */
  TmActivity      *json_activities;
  guint            n_json_activities;
  guint            json_capacity;
  GPtrArray       *xprof_peak_rows;  /* TmBreakdownRow */
  gint64           xprof_peak_step_id;

  /* Loading state. */
  guint            time_sorted : 1;
  guint            finished : 1;   /* set once by a successful finish */
  guint            complete : 1;
  guint            has_free : 1;
};

G_DEFINE_FINAL_TYPE (TmMemoryStore, tm_memory_store, G_TYPE_OBJECT)

static void append_tail (TmMemoryStore *self);

/* The run that holds snapshot index: the last one starting at or before
 * it. */
static inline guint
find_run_in (const guint32 *starts,
             guint          n_runs,
             guint          index)
{
  guint lo = 0, hi = n_runs;

  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (starts[mid] <= index)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

static inline guint
find_run (const TmMemoryStore *self,
          guint                index)
{
  return find_run_in (self->run_starts, self->n_runs, index);
}

static inline gint64
store_step (const TmMemoryStore *self,
            guint                index)
{
  return self->run_steps[find_run (self, index)];
}

static inline TmActivityKind
ref_kind (guint64 ref)
{
  return (TmActivityKind) (ref >> TM_REF_KIND_SHIFT);
}

/* A new column of count elements of col's type, zero-filled. */
#define COLUMN_NEW(col, count) \
  ((col) = tm_column_new ((count), sizeof *(col)))
#define COLUMN_RESIZE(col, old_count, new_count) \
  ((col) = tm_column_resize ((col), (old_count), (new_count), sizeof *(col)))
#define COLUMN_FREE(col, count)                                      \
  G_STMT_START {                                                     \
    tm_column_free ((col), (count), sizeof *(col));                  \
    (col) = NULL;                                                    \
  } G_STMT_END

static void
tm_memory_store_finalize (GObject *object)
{
  TmMemoryStore *self = (TmMemoryStore *) object;

  g_clear_pointer (&self->lod, tm_lod_free);
  g_clear_object (&self->tail);
  g_clear_pointer (&self->xprof_peak_rows, g_ptr_array_unref);
  g_clear_pointer (&self->ctx, tm_host_context_unref);
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
  COLUMN_RESIZE (self->free_bytes, old, capacity);
  COLUMN_RESIZE (self->frag, old, capacity);
  COLUMN_RESIZE (self->refs, old, capacity);
  if (self->addrs != NULL)
    COLUMN_RESIZE (self->addrs, old, capacity);
  else if (self->addrs32 != NULL || self->ctx != NULL)
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

/* Addresses while loading: 4 bytes each while every address is a multiple
 * of 256 with the same bits above bit 40 (allocators hand out aligned
 * blocks of one region), else 8 bytes. */
static inline guint64
load_addr (const TmMemoryStore *self,
           guint                index)
{
  if (self->addrs != NULL)
    return self->addrs[index];
  return (self->addr_high << 40) | ((guint64) self->addrs32[index] << 8);
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

/* Snapshot index (the next one) has this step id. */
static inline void
push_step (TmMemoryStore *self,
           guint          index,
           gint64         step)
{
  guint r = self->n_runs;

  if (r > 0 && self->run_steps[r - 1] == step)
    return;
  if (G_UNLIKELY (r == self->runs_capacity))
    {
      self->runs_capacity = MAX (64, self->runs_capacity * 2);
      self->run_starts = g_renew (guint32, self->run_starts, self->runs_capacity);
      self->run_steps = g_renew (gint64, self->run_steps, self->runs_capacity);
    }
  self->run_starts[r] = index;
  self->run_steps[r] = step;
  self->n_runs = r + 1;
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
  g_return_if_fail (self->ctx == NULL);
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
  guint capacity = tm_column_append_capacity (self->n, later->capacity);

  if (later->n == 0)
    return;

  g_assert (capacity < TM_NO_PARTNER);

  /* Kept stack columns and addresses: both narrow, or both kept or wide. */
  if ((self->stack != NULL) != (later->stack != NULL))
    keep_stack (self->stack == NULL ? self : later);
  if ((self->addrs32 != NULL && later->addrs32 != NULL && self->addr_high != later->addr_high) ||
      (self->addrs32 != NULL && later->addrs != NULL))
    widen_addrs (self);
  if (self->addrs != NULL && later->addrs32 != NULL)
    widen_addrs (later);

  APPEND_COLUMN (times);
  if (self->stack != NULL)
    APPEND_COLUMN (stack);
  APPEND_COLUMN (heap);
  APPEND_COLUMN (free_bytes);
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

/* ------------------------------------------------------------------ */
/* Finishing                                                            */

static void
alloc_partner (TmMemoryStore *self)
{
  if (self->partner == NULL)
    COLUMN_NEW (self->partner, self->capacity);
  for (guint i = 0; i < self->n; i++)
    self->partner[i] = TM_NO_PARTNER;
}

/* Matches every snapshot (time order) with earlier ones at the same
 * address; see the partner column above. A deallocation's partner is the
 * first allocation at its address since the last deallocation there
 * (docs/analysis.md step 4); an allocation's is the event that ends its
 * lifetime: the deallocation, or a later allocation at the same address
 * while it is live, which replaces it (as the breakdown's records do).
 * One map holds the live allocation of each address; a second, nearly
 * always empty, the first one where another came before any deallocation. */
static gboolean
match_all (TmMemoryStore  *s,
           const guint32  *perm,
           GCancellable   *cancellable,
           GError        **error)
{
  TmAddrMap *live = tm_addr_map_new ();
  TmAddrMap *first = tm_addr_map_new ();
  gsize n_first = 0;
  gboolean ok = TRUE;

  alloc_partner (s);

  /* i is the index in time order; perm (if any) maps it to file order,
   * where the addresses still are. */
  for (guint i = 0; i < s->n; i++)
    {
      guint src = perm != NULL ? perm[i] : i;
      guint64 addr = load_addr (s, src);
      guint32 other;

      if ((i % CANCEL_CHECK_INTERVAL) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }

      if (ref_kind (s->refs[src]) == TM_ACTIVITY_ALLOCATION)
        {
          if (tm_addr_map_exchange (live, addr, i, &other))
            {
              s->partner[other] = i;
              if (!tm_addr_map_lookup (first, addr, NULL))
                {
                  tm_addr_map_insert (first, addr, other);
                  n_first++;
                }
            }
        }
      else if (tm_addr_map_remove (live, addr, &other))
        {
          guint32 earliest;

          s->partner[other] = i;
          if (n_first > 0 && tm_addr_map_remove (first, addr, &earliest))
            {
              n_first--;
              s->partner[i] = earliest;
            }
          else
            s->partner[i] = other;
        }
    }

  tm_addr_map_free (first);
  tm_addr_map_free (live);
  return ok;
}

/* An 8-byte column (the bits of a double are copied as they are), written
 * into spare, the previous column's old memory when there is one: its
 * pages are already there, so only the first column faults new ones in. */
static void
gather_column8 (gpointer        column,
                const guint32  *perm,
                guint           n,
                guint64       **spare)
{
  guint64 **col = column;
  guint64 *sorted;

  if (*col == NULL)
    return;
  if (*spare != NULL)
    sorted = *spare;
  else
    COLUMN_NEW (sorted, n);
  for (guint j = 0; j < n; j++)
    sorted[j] = (*col)[perm[j]];
  *spare = *col;
  *col = sorted;
}

/* Joins neighbouring runs of the same step id. */
static void
merge_runs (TmMemoryStore *s)
{
  guint out = 0;

  for (guint r = 0; r < s->n_runs; r++)
    {
      if (out > 0 && s->run_steps[out - 1] == s->run_steps[r])
        continue;
      s->run_starts[out] = s->run_starts[r];
      s->run_steps[out] = s->run_steps[r];
      out++;
    }
  s->n_runs = out;
}

/* The step runs in time order: snapshot j is snapshot perm[j] of file
 * order. Events not in time order come from a few lines of the file read
 * one after the other, so perm takes turns between a few places in file
 * order, each moving forward: the last runs used are remembered, one per
 * place, and a run is looked up only when none of them holds the next
 * snapshot. */
#define RUN_HINTS 8

static void
permute_runs (TmMemoryStore  *s,
              const guint32  *perm)
{
  g_autofree guint32 *old_starts = g_steal_pointer (&s->run_starts);
  g_autofree gint64 *old_steps = g_steal_pointer (&s->run_steps);
  guint n_old = s->n_runs;
  guint hints[RUN_HINTS] = { 0 };
  guint next_hint = 0;

  s->n_runs = 0;
  s->runs_capacity = 0;
  for (guint j = 0; j < s->n; j++)
    {
      guint src = perm[j];
      guint r = G_MAXUINT;

      for (guint h = 0; h < RUN_HINTS; h++)
        {
          guint c = hints[h];

          /* The hinted run, or the one after it. */
          if (old_starts[c] <= src)
            {
              if (c + 1 == n_old || src < old_starts[c + 1])
                r = c;
              else if (c + 2 == n_old || src < old_starts[c + 2])
                r = c + 1;
              else
                continue;
              hints[h] = r;
              break;
            }
        }
      if (r == G_MAXUINT)
        {
          r = find_run_in (old_starts, n_old, src);
          hints[next_hint] = r;
          next_hint = (next_hint + 1) % RUN_HINTS;
        }
      push_step (s, j, old_steps[r]);
    }
}

#undef RUN_HINTS

/* sorted[j] = old[perm[j]] for every column, one column at a time. The
 * reads come from a few runs, each read in order, so this is fast; a
 * column is copied whole, which costs one column (8 bytes per event) while
 * it happens. */
static void
apply_permutation (TmMemoryStore  *s,
                   const guint32  *perm)
{
  guint64 *spare = NULL;

  gather_column8 (&s->times, perm, s->n, &spare);
  gather_column8 (&s->stack, perm, s->n, &spare);
  gather_column8 (&s->heap, perm, s->n, &spare);
  gather_column8 (&s->free_bytes, perm, s->n, &spare);
  gather_column8 (&s->frag, perm, s->n, &spare);
  gather_column8 (&s->refs, perm, s->n, &spare);
  COLUMN_FREE (spare, s->n);
  s->capacity = s->n;
}

gboolean
tm_memory_store_finish (TmMemoryStore  *s,
                        GCancellable   *cancellable,
                        GError        **error)
{
  gint64 last_valid_step = -1;
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

  if (s->addrs != NULL || s->addrs32 != NULL)
    ok = match_all (s, perm, cancellable, error);
  else
    alloc_partner (s);
  COLUMN_FREE (s->addrs, s->capacity);
  COLUMN_FREE (s->addrs32, s->capacity);

  if (perm != NULL)
    {
      if (ok)
        {
          apply_permutation (s, perm);
          permute_runs (s, perm);
        }
      g_free (perm);
      s->time_sorted = TRUE;
    }
  if (!ok)
    return FALSE;

  /* docs/analysis.md step 3, on runs (in time order now): a snapshot
   * without a step gets the one after the last step before it. */
  for (guint r = 0; r < s->n_runs; r++)
    {
      if (s->run_steps[r] == -1)
        s->run_steps[r] = tm_sat_add (last_valid_step, 1);
      else
        last_valid_step = s->run_steps[r];
    }
  merge_runs (s);

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
    g_once_init_leave (&self->lod, tm_lod_new (self->n, self->times, self->stack, self->heap,
                                               self->free_bytes, self->frag));
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

const guint32 *
tm_memory_store_get_partners (TmMemoryStore *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_STORE (self), NULL);
  return self->partner;
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

  size = sizeof *self + (gsize) self->capacity * ((self->stack_map_bytes > 0 ? 3 : 4) * sizeof (gint64) + sizeof (double) +
                                                  sizeof (guint64) + sizeof (guint32)) +
         (gsize) self->runs_capacity * (sizeof (guint32) + sizeof (gint64));
  if (g_atomic_pointer_get (&self->lod) != NULL)
    size += tm_lod_get_memory_size (self->lod);
  return size;
}
