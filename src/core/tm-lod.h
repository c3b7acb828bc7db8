/* tm-lod.h — multi-resolution min/max over one memory id's columns, for drawing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A TmLod answers "what are the smallest and largest values of stack,
 * stack + heap, stack + heap + free and fragmentation over these snapshots"
 * in O(log n) whatever the number of snapshots, so a frame that aggregates
 * every pixel column costs O(width · log n) and a one-sample spike is never
 * lost at any zoom. It knows only arrays, no other part of the core: the
 * store builds one over its own columns and owns it.
 *
 * Memory is a step function: a snapshot's values hold from its time until
 * the next snapshot. A time bucket [t0, t1) therefore shows the snapshot at
 * or before t0 (the value carried in) and every snapshot with a time in
 * [t0, t1).
 *
 * It borrows the columns (times, stack, heap, free, fragmentation; time
 * order) from their owner, which must keep them alive and unchanged for the
 * lifetime of the LOD. Built once (O(n)) in the loader's worker thread;
 * immutable afterwards, so every query is safe from any thread.
 *
 * Memory: one 64-byte summary per 32 snapshots, plus one per 8 summaries of
 * the level below (1/7 more), plus one 8-byte time per 32 snapshots:
 * about 2.55 bytes per snapshot (12.8 MB for 5 million), see
 * tm_lod_get_memory_size().
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _TmLod TmLod;

/* Extremes over a range of snapshots. "used" is stack + heap (what XProf
 * calls memory in use), "total" is stack + heap + free. */
typedef struct
{
  gboolean has_data;       /* FALSE: no snapshot shows in this bucket; the rest is 0 */
  guint    first;          /* snapshot indices shown, first..last inclusive */
  guint    last;
  gint64   stack_min;
  gint64   stack_max;
  gint64   used_min;
  gint64   used_max;
  gint64   total_min;
  gint64   total_max;
  double   frag_min;
  double   frag_max;
} TmLodBucket;

TmLod    *tm_lod_new                 (guint           n,
                                      const gint64   *times,
                                      const gint64   *stack,
                                      const gint64   *heap,
                                      const gint64   *free_bytes,
                                      const double   *fragmentation);
/* The same, for snapshots whose stack + heap + free is capacity at every
 * one (no column of free memory is needed). */
TmLod    *tm_lod_new_with_capacity   (guint           n,
                                      const gint64   *times,
                                      const gint64   *stack,
                                      const gint64   *heap,
                                      gint64          capacity,
                                      const double   *fragmentation);
void      tm_lod_free                (TmLod          *lod);

guint     tm_lod_get_n_snapshots     (const TmLod    *lod);
/* Bytes the LOD allocated (the borrowed columns not counted). */
gsize     tm_lod_get_memory_size     (const TmLod    *lod);

/* Overall extremes, O(1). */
gint64    tm_lod_get_max_total       (const TmLod    *lod);
gint64    tm_lod_get_max_used        (const TmLod    *lod);

/* Index of the first snapshot with time >= t_ps (n if none). hint is an
 * index known to be <= the answer (0 if unknown): sweeping left to right
 * with the previous answer as hint makes a frame's searches cheap. */
guint     tm_lod_lower_bound         (const TmLod    *lod,
                                      gint64          t_ps,
                                      guint           hint);

/* Extremes over snapshots first..last inclusive (last < n). Returns FALSE
 * (bucket->has_data = FALSE) when the range is empty or out of bounds. */
gboolean  tm_lod_query_indices       (const TmLod    *lod,
                                      guint           first,
                                      guint           last,
                                      TmLodBucket    *bucket);

/* Extremes of the step function over the time range [t0_ps, t1_ps): the
 * snapshot at or before t0_ps (unless one is exactly at t0_ps) and every
 * snapshot in the range. Nothing shows before the first snapshot or after
 * the last one. */
gboolean  tm_lod_query_time          (const TmLod    *lod,
                                      gint64          t0_ps,
                                      gint64          t1_ps,
                                      TmLodBucket    *bucket);

/* Fills n_columns buckets that split [start_ps, end_ps] into equal time
 * columns; column c covers [start + c·w, start + (c+1)·w), the last one
 * also includes end_ps. Returns how many columns have data.
 *
 * Where an aligned block of 32, 256, 2048 … snapshots around a boundary
 * lasts at most half a column, the boundary moves to the nearer edge of the
 * largest such block, so a zoomed-out frame never reads the big columns and
 * adds up few, large blocks: every snapshot still lands in exactly one
 * column (no spike is lost), at most a quarter column from where its time
 * puts it. The view's own two edges never move. Elsewhere columns are
 * exactly tm_lod_query_time() (with at most 64 snapshots per column on
 * average, computed in one pass over them). */
guint     tm_lod_query_columns       (const TmLod    *lod,
                                      gint64          start_ps,
                                      gint64          end_ps,
                                      guint           n_columns,
                                      TmLodBucket    *buckets);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmLod, tm_lod_free)

G_END_DECLS
