/* tm-breakdown-view.h — the table of allocations live at the peak or at a time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-view.h"

G_BEGIN_DECLS

#define TM_TYPE_BREAKDOWN_VIEW (tm_breakdown_view_get_type ())

G_DECLARE_FINAL_TYPE (TmBreakdownView, tm_breakdown_view, TM, BREAKDOWN_VIEW, TmView)

/* Allocations smaller than this are hidden while "hide-small" is set. */
#define TM_BREAKDOWN_SMALL_BYTES (G_GINT64_CONSTANT (1) << 20)

/* The table shows the allocations of the session's memory store live at
 * its selected time ("Live at 1 234.567 ms", with a "Back to Peak" button
 * that clears the selected time), or at the peak without one. */
GtkWidget     *tm_breakdown_view_new              (TmSession       *session);

/* FALSE while the table shows a selected time. */
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
gboolean       tm_breakdown_view_get_never_freed  (TmBreakdownView *self);
void           tm_breakdown_view_set_never_freed  (TmBreakdownView *self,
                                                   gboolean         never_freed);
void           tm_breakdown_view_focus_search     (TmBreakdownView *self);

/* The rows as shown (filtered and sorted): TmAllocationRow items. */
GListModel    *tm_breakdown_view_get_model        (TmBreakdownView *self);
/* The rows as shown, filtered and in the shown order, as the core's rows
 * (TmBreakdownRow, transfer full): what "Export Table as CSV" writes. */
GPtrArray     *tm_breakdown_view_dup_shown_rows   (TmBreakdownView *self);
/* Rows before filtering. */
guint          tm_breakdown_view_get_n_rows       (TmBreakdownView *self);
GtkColumnView *tm_breakdown_view_get_column_view  (TmBreakdownView *self);
GtkSelectionModel *tm_breakdown_view_get_selection (TmBreakdownView *self);

/* The selected rows as tab-separated values with a header line (NULL when
 * nothing is selected); what Ctrl+C puts on the clipboard. */
char          *tm_breakdown_view_get_selection_tsv (TmBreakdownView *self);

G_END_DECLS
