/* tm-run-overview.h — the run overview: every host and memory id of a run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A view of the session's run (tm-run-loader): a row per host and memory
 * id with its peak, capacity, share of capacity, time of the peak,
 * fragmentation at the peak, allocations and a sparkline of memory in use;
 * sortable by every column, the busiest row marked, a row per host while
 * it loads (with its progress) or when it failed (with its error).
 * Activating a row asks the session to open that host and memory id
 * (tm_session_open_host); the view keeps only what the run loader keeps,
 * the summaries.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-view.h"

G_BEGIN_DECLS

#define TM_TYPE_RUN_OVERVIEW (tm_run_overview_get_type ())

G_DECLARE_FINAL_TYPE (TmRunOverview, tm_run_overview, TM, RUN_OVERVIEW, TmView)

GtkWidget     *tm_run_overview_new             (TmSession     *session);

/* For tests: the rows as shown (sorted), and the column view. */
GListModel    *tm_run_overview_get_model       (TmRunOverview *self);
GtkColumnView *tm_run_overview_get_column_view (TmRunOverview *self);
/* The headline ("… peaked highest …"). */
const char    *tm_run_overview_get_headline    (TmRunOverview *self);

/* A row of the overview: one memory id of one host, or a host that is
 * loading, failed, or has no memory data. */
#define TM_TYPE_RUN_ROW (tm_run_row_get_type ())

G_DECLARE_FINAL_TYPE (TmRunRow, tm_run_row, TM, RUN_ROW, GObject)

guint              tm_run_row_get_host_index (TmRunRow *self);
const char        *tm_run_row_get_host       (TmRunRow *self);
/* NULL for a row that is not a memory id. */
const TmRunDevice *tm_run_row_get_device     (TmRunRow *self);
/* The host's error, or NULL. */
const char        *tm_run_row_get_error      (TmRunRow *self);
gboolean           tm_run_row_get_busiest    (TmRunRow *self);

G_END_DECLS
