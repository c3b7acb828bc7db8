/* tm-memory-store-private.h — what tm-memory-store.c and tm-memory-store-sort.c share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The store's fields (their memory is described at the top of
 * tm-memory-store.c) and the small helpers both files use.
 */
#pragma once

#include "tm-column.h"
#include "tm-memory-store.h"

G_BEGIN_DECLS

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
  gint64          *free_bytes; /* NULL while free is the rest of free_capacity */
  gint64          *free_lazy;  /* that column, made when asked for (g_once) */
  gint64           free_capacity; /* stack + heap + free of every snapshot, n > 0 */
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
  /* Other readers' stores decode through their decoder. */
  const TmMemoryStoreDecoder *decoder;
  gpointer         decoder_data;
  GDestroyNotify   decoder_destroy;
  /* XProf JSON stores keep XProf's metadata per point, and its results. */
  TmActivity      *json_activities;
  guint            n_json_activities;
  guint            json_capacity;
  GPtrArray       *xprof_peak_rows;  /* TmBreakdownRow */
  gint64           xprof_peak_step_id;

  /* Set when the store is made and never changed: not a bit beside the
   * loading state's, whose byte a finishing thread writes while the window
   * already asks whether a store it does not show yet is complete. */
  gboolean         complete;

  /* Loading state. */
  guint            time_sorted : 1;
  guint            finished : 1;   /* set once by a successful finish */
  guint            has_free : 1;
};

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

/* tm-memory-store-sort.c: the steps of finishing. */

/* Fills in the partner column (see match_all there); FALSE only when
 * cancelled. perm (may be NULL) maps time order to file order. */
gboolean _tm_memory_store_match         (TmMemoryStore  *s,
                                         const guint32  *perm,
                                         GCancellable   *cancellable,
                                         GError        **error);
/* Puts every column and the step runs in time order. */
void     _tm_memory_store_sort_columns  (TmMemoryStore  *s,
                                         const guint32  *perm);
/* docs/analysis.md step 3, on the runs in time order. */
void     _tm_memory_store_fill_steps    (TmMemoryStore  *s);

G_END_DECLS
