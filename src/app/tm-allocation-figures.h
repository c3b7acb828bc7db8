/* tm-allocation-figures.h — the Allocations tab's figures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What heaptrack users look for, over the allocations made in the range
 * shown (tm-alloc-stats; docs/analysis.md, "Temporary allocations and the
 * rate per step"): how many were made, how many were temporary (freed
 * within a threshold the user picks, 1 ms at first) or freed within their
 * step, and the allocations and bytes per step. A small panel of labels
 * and the threshold's spin button; no session: a drawing helper of the
 * allocations view, which hands it the figures.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-alloc-stats.h"

G_BEGIN_DECLS

#define TM_TYPE_ALLOCATION_FIGURES (tm_allocation_figures_get_type ())

G_DECLARE_FINAL_TYPE (TmAllocationFigures, tm_allocation_figures, TM, ALLOCATION_FIGURES, GtkWidget)

GtkWidget *tm_allocation_figures_new              (void);
/* The figures shown (copied from; NULL: "Counting…"). */
void       tm_allocation_figures_set_stats        (TmAllocationFigures *self,
                                                   const TmAllocStats  *stats);
/* Whether the profile has steps (a PyTorch snapshot has none: its
 * figures per step read "—"); for the next stats set. TRUE at first. */
void       tm_allocation_figures_set_has_steps    (TmAllocationFigures *self,
                                                   gboolean             has_steps);
/* The threshold of a temporary allocation, in picoseconds
 * ("temporary-ps", which the spin button sets). */
gint64     tm_allocation_figures_get_temporary_ps (TmAllocationFigures *self);
void       tm_allocation_figures_set_temporary_ps (TmAllocationFigures *self,
                                                   gint64               temporary_ps);

G_END_DECLS
