/* tm-analysis.h — peak step, breakdowns and sampling of one memory id
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads a finished store (tm-memory-store) and returns results; never
 * writes into the store. A TmAnalysis is made once per memory id by the
 * loader, in its worker thread, and is immutable afterwards: every getter is
 * safe from any thread. Steps are those of docs/analysis.md.
 */
#pragma once

#include <gio/gio.h>

#include "tm-memory-store.h"

G_BEGIN_DECLS

#define TM_TYPE_ANALYSIS (tm_analysis_get_type ())

G_DECLARE_FINAL_TYPE (TmAnalysis, tm_analysis, TM, ANALYSIS, GObject)

/* Finds the peak step (step 5) and the breakdown at the window peak
 * (step 6) of a finished store. For a store of XProf JSON, XProf's own rows
 * and peak step are used where the file gives them. Fails only when
 * cancelled or when the mapped file changed. */
TmAnalysis      *tm_analysis_new                  (TmMemoryStore  *store,
                                                   GCancellable   *cancellable,
                                                   GError        **error);

TmMemoryStore   *tm_analysis_get_store            (TmAnalysis     *self);
/* The step (group id) in which memory use peaked. */
gint64           tm_analysis_get_peak_step_id     (TmAnalysis     *self);
/* The breakdown at the window peak, rows of TmBreakdownRow, sorted and
 * merged as XProf does; owned by the analysis. */
GPtrArray       *tm_analysis_get_peak_breakdown   (TmAnalysis     *self);
/* Bytes of heap the analysis uses. */
gsize            tm_analysis_get_memory_size      (TmAnalysis     *self);

/* Allocations live at time t_ps: made before or at t and not freed by t,
 * grouped like the peak table, plus a row for memory allocated before the
 * profile started (heap at t minus the tracked live bytes) when positive.
 * New array of TmBreakdownRow (free with g_ptr_array_unref). */
GPtrArray       *tm_analysis_breakdown_at         (TmMemoryStore  *store,
                                                   gint64          t_ps);

/* The bytes rows account for: allocation bytes times occurrences, added
 * up (saturating). XProf's peak table can add up to less or more than the
 * memory in use (docs/analysis.md, "When the table does not add up"). */
gint64           tm_analysis_rows_bytes           (GPtrArray      *rows);

/* XProf's max-box sampling to at most max_points (step 7): indices into the
 * store's columns. */
GArray          *tm_analysis_sample               (TmMemoryStore  *store,
                                                   guint           max_points);

/* Sorts rows (step 6 order, ties by snapshot index so that a merged row
 * references its earliest allocation) and merges equal neighbours. Takes
 * ownership of rows' elements; returns a new array. */
GPtrArray       *tm_analysis_sort_and_merge       (GPtrArray      *rows);

G_END_DECLS
