/* tm-session.h — what a window shows: one profile, one memory id, one moment
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every view of the profile page (summary cards, timeline, memory map,
 * overview strip, HLO table, breakdown table, scope view) takes a session
 * and nothing else (TmView, tm-view.h, holds it). A view reads
 * the state from the session, changes it only through the session's setters
 * and redraws when the session notifies; no view calls another view.
 *
 * The session says what is shown, nothing derived: what is made from it
 * (the comparison, the scope index and the selected scope's series, the
 * allocation index) comes from query objects that each view asks
 * (tm-comparison-query, tm-scope-index-query, tm-scope-series-query,
 * tm-allocations-query); the session knows nothing of them.
 *
 * The state (every property is read-only: it changes through the setters
 * below, which keep it consistent, and notifies once per change):
 *   profile        the shown profile (NULL: none)
 *   memory-store   the shown memory id of that profile (NULL: none), and
 *                  with it the profile's analysis of that memory id
 *   viewport       the visible time range, shared by every time axis; the
 *                  session owns it for its whole life and sets its limits
 *                  to the memory id's data whenever the memory id changes
 *   selected-time  a time the user picked (has-selected-time); without one
 *                  the views show the window peak
 *   selected-scope a scope the user picked (tm-scopes; NULL: none): the
 *                  breakdown table filters to it, the timeline draws its
 *                  bytes over time, other views highlight its allocations
 *   selected-allocation
 *                  an allocation the user picked: its index in the memory
 *                  id's allocation index (tm-allocations-query), or
 *                  TM_ALLOCATIONS_NONE
 *   baseline       a memory id to compare with (NULL: no comparison), of
 *                  the baseline profile (another file, another host of the
 *                  run, or the shown profile itself); the comparison made
 *                  from it is tm-comparison-query's
 *   alignment      where the baseline's time axis is pinned to the memory
 *                  store's: start, peak or first step (docs/compare.md)
 *   run            the run of several hosts the window opened (tm-run-loader;
 *                  NULL: none): the run overview shows it; a view asks
 *                  for one of its hosts with tm_session_open_host(), and
 *                  whoever shows the session (the window) answers the
 *                  "open-host" signal
 *   static-selection
 *                  the Memory Viewer's module, memory space and op looked
 *                  for (tm-static-selection; NULL until the page shows a
 *                  module); cleared with the profile
 *
 * The baseline stays when the profile or the memory id changes (the
 * comparison is made again); tm_session_set_baseline (self, NULL, NULL)
 * ends it. While there is one, the viewport's limits also cover the
 * baseline's range, shifted by the alignment; the viewport's limits also
 * cover the profile's HLO modules.
 * Changing the profile or the memory id clears the selections and shows
 * the whole range. Plain GObject: no GTK, usable from tests without a
 * display.
 */
#pragma once

#include <glib-object.h>

#include "tm-allocations.h"
#include "tm-analysis.h"
#include "tm-compare.h"
#include "tm-memory-store.h"
#include "tm-profile.h"
#include "tm-run-loader.h"
#include "tm-scopes.h"
#include "tm-viewport.h"

G_BEGIN_DECLS

#define TM_TYPE_COMPARE_ALIGNMENT (tm_compare_alignment_get_type ())
GType tm_compare_alignment_get_type (void) G_GNUC_CONST;

#define TM_TYPE_SESSION (tm_session_get_type ())

G_DECLARE_FINAL_TYPE (TmSession, tm_session, TM, SESSION, GObject)

TmSession     *tm_session_new                    (void);

TmProfile     *tm_session_get_profile            (TmSession     *self);
/* Shows profile; the memory store becomes NULL until one is chosen. */
void           tm_session_set_profile            (TmSession     *self,
                                                  TmProfile     *profile);

TmMemoryStore *tm_session_get_memory_store       (TmSession     *self);
/* Shows store (one of the profile's, or NULL), all of its time range, with
 * no selected time. */
void           tm_session_set_memory_store       (TmSession     *self,
                                                  TmMemoryStore *store);

/* The profile's analysis of the memory store (NULL without one). */
TmAnalysis    *tm_session_get_analysis           (TmSession     *self);

/* The visible range; never NULL, the same object for the session's life. */
TmViewport    *tm_session_get_viewport           (TmSession     *self);

gboolean       tm_session_get_has_selected_time  (TmSession     *self);
gint64         tm_session_get_selected_time      (TmSession     *self);
void           tm_session_select_time            (TmSession     *self,
                                                  gint64         time_ps);
void           tm_session_clear_selected_time    (TmSession     *self);

/* The time the views show: the selected time, or else the window peak's
 * time (0 without a memory store). */
gint64         tm_session_get_shown_time         (TmSession     *self);

/* The selected scope (NULL: none); setting it copies scope. */
const TmScope *tm_session_get_selected_scope     (TmSession     *self);
void           tm_session_set_selected_scope     (TmSession     *self,
                                                  const TmScope *scope);
guint          tm_session_get_selected_allocation (TmSession    *self);
/* Selects allocation index of the memory id's allocation index (what
 * tm-allocations-query has), or none with TM_ALLOCATIONS_NONE. */
void           tm_session_select_allocation      (TmSession     *self,
                                                  guint          index);

/* Comparing (docs/compare.md). store is one of profile's memory ids; both
 * NULL end the comparison. */
void           tm_session_set_baseline           (TmSession     *self,
                                                  TmProfile     *profile,
                                                  TmMemoryStore *store);
TmMemoryStore *tm_session_get_baseline           (TmSession     *self);
TmProfile     *tm_session_get_baseline_profile   (TmSession     *self);
TmCompareAlignment tm_session_get_alignment      (TmSession     *self);
void           tm_session_set_alignment          (TmSession     *self,
                                                  TmCompareAlignment alignment);
/* What to add to a baseline time to place it on the memory store's time
 * axis for the alignment (0 without a baseline). */
gint64         tm_session_get_baseline_shift     (TmSession     *self);
TmRunLoader   *tm_session_get_run                (TmSession     *self);
void           tm_session_set_run                (TmSession     *self,
                                                  TmRunLoader   *run);
/* Emits "open-host" for host (an index of the run) and memory_id (NULL:
 * its busiest). */
void           tm_session_open_host              (TmSession     *self,
                                                  guint          host,
                                                  const char    *memory_id);

/* The Memory Viewer's choice (tm-static-selection.h; NULL: none yet). */
typedef struct _TmStaticSelection TmStaticSelection;
const TmStaticSelection *tm_session_get_static_selection (TmSession *self);
/* Copies selection (NULL: none). */
void           tm_session_set_static_selection   (TmSession     *self,
                                                  const TmStaticSelection *selection);

G_END_DECLS
