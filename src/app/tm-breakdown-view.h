/* tm-breakdown-view.h — the table of allocations live at the peak or at a time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-analysis.h"
#include "tm-memory-store.h"

G_BEGIN_DECLS

#define TM_TYPE_BREAKDOWN_VIEW (tm_breakdown_view_get_type ())

G_DECLARE_FINAL_TYPE (TmBreakdownView, tm_breakdown_view, TM, BREAKDOWN_VIEW, GtkWidget)

/* Allocations smaller than this are hidden while "hide-small" is set. */
#define TM_BREAKDOWN_SMALL_BYTES (G_GINT64_CONSTANT (1) << 20)

GtkWidget     *tm_breakdown_view_new              (void);

/* Shows the peak breakdown of store (NULL: an empty table); analysis is
 * the store's (tm_profile_lookup_analysis()), NULL with store. */
void           tm_breakdown_view_set_store        (TmBreakdownView *self,
                                                   TmMemoryStore   *store,
                                                   TmAnalysis      *analysis);
TmMemoryStore *tm_breakdown_view_get_store        (TmBreakdownView *self);

/* Shows the allocations live at time_ps ("Live at 1 234.567 ms") with a
 * "Back to Peak" button. */
void           tm_breakdown_view_show_time        (TmBreakdownView *self,
                                                   gint64           time_ps);
/* Shows the peak breakdown again. */
void           tm_breakdown_view_show_peak        (TmBreakdownView *self);
gboolean       tm_breakdown_view_get_at_peak      (TmBreakdownView *self);
/* The time the table holds: the peak time when at the peak. */
gint64         tm_breakdown_view_get_time_ps      (TmBreakdownView *self);

gboolean       tm_breakdown_view_get_hide_small   (TmBreakdownView *self);
void           tm_breakdown_view_set_hide_small   (TmBreakdownView *self,
                                                   gboolean         hide_small);
const char    *tm_breakdown_view_get_filter_text  (TmBreakdownView *self);
/* Sets the search entry's text and applies it at once. */
void           tm_breakdown_view_set_filter_text  (TmBreakdownView *self,
                                                   const char      *text);
void           tm_breakdown_view_focus_search     (TmBreakdownView *self);

/* The rows as shown (filtered and sorted): TmAllocationRow items. */
GListModel    *tm_breakdown_view_get_model        (TmBreakdownView *self);
/* Rows before filtering. */
guint          tm_breakdown_view_get_n_rows       (TmBreakdownView *self);
GtkColumnView *tm_breakdown_view_get_column_view  (TmBreakdownView *self);
GtkSelectionModel *tm_breakdown_view_get_selection (TmBreakdownView *self);

/* The selected rows as tab-separated values with a header line (NULL when
 * nothing is selected); what Ctrl+C puts on the clipboard. */
char          *tm_breakdown_view_get_selection_tsv (TmBreakdownView *self);

G_END_DECLS
