/* tm-allocations-view.h — every allocation of the range shown, as a table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Allocations tab (docs/ui.md, "The allocations"): the allocations of
 * the session's memory id whose lifetime meets the session's visible
 * range, one row each (op, size, region, data type, shape, address,
 * allocated at, freed at, lifetime), sortable by every column, filtered
 * by a text and a kind (all, never freed, temporary, freed in the same
 * step), over the figures of tm-allocation-figures. Selecting a row
 * selects its allocation in the session (the memory map and the timeline
 * show it); selecting one elsewhere selects its row. The rows are indices
 * (tm-allocation-list); filtering and sorting run in a worker
 * (tm-alloc-list), and only while the tab is shown. Takes a session and
 * nothing else.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-alloc-list.h"
#include "tm-alloc-stats.h"
#include "tm-allocation-list.h"
#include "tm-view.h"

G_BEGIN_DECLS

#define TM_TYPE_ALLOCATIONS_VIEW (tm_allocations_view_get_type ())

G_DECLARE_FINAL_TYPE (TmAllocationsView, tm_allocations_view, TM, ALLOCATIONS_VIEW, TmView)

GtkWidget        *tm_allocations_view_new             (void);

/* What the rows are kept by ("kind", "filter-text") and the threshold of a
 * temporary allocation ("temporary-ps", 1 ms at first). */
TmAllocListKind   tm_allocations_view_get_kind        (TmAllocationsView *self);
void              tm_allocations_view_set_kind        (TmAllocationsView *self,
                                                       TmAllocListKind    kind);
const char       *tm_allocations_view_get_filter_text (TmAllocationsView *self);
void              tm_allocations_view_set_filter_text (TmAllocationsView *self,
                                                       const char        *text);
gint64            tm_allocations_view_get_temporary_ps (TmAllocationsView *self);
void              tm_allocations_view_set_temporary_ps (TmAllocationsView *self,
                                                        gint64             temporary_ps);

/* For tests: TRUE while rows are being made ("pending"); the rows shown,
 * the table, and the figures of the range (NULL until made). */
gboolean          tm_allocations_view_get_pending     (TmAllocationsView *self);
TmAllocationList *tm_allocations_view_get_list        (TmAllocationsView *self);
GtkColumnView    *tm_allocations_view_get_column_view (TmAllocationsView *self);
const TmAllocStats *tm_allocations_view_get_stats     (TmAllocationsView *self);

G_END_DECLS
