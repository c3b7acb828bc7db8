/* tm-alloc-stats.h — what heaptrack users look for: temporary allocations
 * and the allocation rate per step
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Figures over the allocations made in a time range (docs/analysis.md,
 * "Temporary allocations and the rate per step"), with the lifetimes of the
 * allocation index (tm-allocations): how many were made, how many of them
 * were freed again within a threshold (temporary) or within the step that
 * made them, and per step how many were made and how many bytes. The
 * allocations from the profile's start were not made in the profile and
 * are not counted.
 *
 * Two ways to the same figures: over the allocation index for any range
 * (the window), or over a finished store's whole time range without an
 * index (the summaries, which leave the bytes out but those never freed).
 * Plain data, made in one call; safe from any thread.
 */
#pragma once

#include <gio/gio.h>

#include "tm-allocations.h"

G_BEGIN_DECLS

/* The threshold of a temporary allocation by default: 1 ms. */
#define TM_ALLOC_STATS_DEFAULT_TEMPORARY_PS G_GINT64_CONSTANT (1000000000)

/* One step of the range. */
typedef struct
{
  gint64  step_id;
  gint64  first_time_ps;     /* its first and last snapshot in the range */
  gint64  last_time_ps;
  guint   n_allocations;     /* made in it */
  gint64  allocated_bytes;
  guint   n_temporary;       /* of those, freed within the threshold */
  guint   n_same_step;       /* of those, freed within this step */
} TmStepStats;

typedef struct
{
  gint64  start_ps;          /* the range, closed */
  gint64  end_ps;
  gint64  temporary_ps;      /* the threshold */

  guint   n_allocations;     /* allocation events in the range */
  gint64  allocated_bytes;
  guint   n_freed;           /* of those, ended within the profile */
  guint   n_never_freed;     /* of those, ended by nothing */
  gint64  never_freed_bytes;
  guint   n_temporary;       /* freed at most temporary_ps after they were made */
  gint64  temporary_bytes;
  guint   n_same_step;       /* freed by an event of the step that made them */
  gint64  same_step_bytes;

  /* FALSE when made without the sizes (tm_alloc_stats_new_for_store):
   * every byte figure but never_freed_bytes is 0. */
  gboolean has_bytes;

  GArray *steps;             /* TmStepStats, by step id: each step with a snapshot in the range */
  guint   busiest_step;      /* index in steps of the one with the most allocations (the first of
                              * equals), G_MAXUINT without steps */
} TmAllocStats;

/* Over the allocation index: the allocations made in [start_ps, end_ps]. */
TmAllocStats *tm_alloc_stats_new           (TmAllocations  *allocations,
                                            gint64          start_ps,
                                            gint64          end_ps,
                                            gint64          temporary_ps,
                                            GCancellable   *cancellable,
                                            GError        **error);
/* Over a finished store, its whole time range, without an index: the
 * counts, and of the bytes only those never freed (has_bytes is FALSE;
 * decoding every size would make a summary much slower). Fails when
 * cancelled or when the mapped file changed. */
TmAllocStats *tm_alloc_stats_new_for_store (TmMemoryStore  *store,
                                            gint64          temporary_ps,
                                            GCancellable   *cancellable,
                                            GError        **error);
void          tm_alloc_stats_free          (TmAllocStats   *stats);

/* Whether allocation index of the index is temporary (made in the profile
 * and ended at most temporary_ps later), or ended by an event of the step
 * that made it: the rules the figures count by, for one allocation. */
gboolean      tm_alloc_stats_is_temporary  (TmAllocations  *allocations,
                                            guint           index,
                                            gint64          temporary_ps);
gboolean      tm_alloc_stats_is_same_step  (TmAllocations  *allocations,
                                            guint           index);

/* Every snapshot's step as a small number, equal for equal step ids (in
 * the order they first come), n_snapshots of them (g_free): for walks that
 * compare the steps of many snapshots, 4 bytes each instead of a search
 * among the runs of steps each time. */
guint32      *tm_alloc_stats_number_steps  (TmMemoryStore  *store);

/* Mean allocations and allocated bytes per step (0 without steps). */
double        tm_alloc_stats_get_allocations_per_step (const TmAllocStats *stats);
double        tm_alloc_stats_get_bytes_per_step       (const TmAllocStats *stats);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmAllocStats, tm_alloc_stats_free)

G_END_DECLS
