/* tm-session.h — what a window shows: one profile, one memory id, one moment
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every view of the profile page (summary cards, timeline, overview strip,
 * HLO table, breakdown table) takes a session and nothing else. A view reads
 * the state from the session, changes it only through the session's setters
 * and redraws when the session notifies; no view calls another view.
 *
 * The state:
 *   profile        the shown profile (NULL: none)
 *   memory-store   the shown memory id of that profile (NULL: none), and
 *                  with it the profile's analysis of that memory id
 *   viewport       the visible time range, shared by every time axis; the
 *                  session owns it for its whole life and sets its limits
 *                  to the memory id's data whenever the memory id changes
 *   selected-time  a time the user picked (has-selected-time); without one
 *                  the views show the window peak
 *   y-scale        how tall the timeline's byte axis is: fit to the memory
 *                  in use in the visible range (the default), or the
 *                  device's capacity (docs/ui.md, "Y scale")
 *
 * Changing the profile or the memory id clears the selected time and shows
 * the whole range. Plain GObject: no GTK, usable from tests without a
 * display.
 */
#pragma once

#include <glib-object.h>

#include "tm-analysis.h"
#include "tm-memory-store.h"
#include "tm-profile.h"
#include "tm-viewport.h"

G_BEGIN_DECLS

typedef enum
{
  TM_Y_SCALE_FIT,
  TM_Y_SCALE_CAPACITY,
} TmYScale;

#define TM_TYPE_Y_SCALE (tm_y_scale_get_type ())
GType tm_y_scale_get_type (void) G_GNUC_CONST;

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

/* HLO modules of the profile (TmHloModule; NULL without a profile). */
GArray        *tm_session_get_hlo_modules        (TmSession     *self);

/* The visible range; never NULL, the same object for the session's life. */
TmViewport    *tm_session_get_viewport           (TmSession     *self);
/* Shows [start_ps, end_ps] with a little room on both sides. */
void           tm_session_zoom_to                (TmSession     *self,
                                                  gint64         start_ps,
                                                  gint64         end_ps);

gboolean       tm_session_get_has_selected_time  (TmSession     *self);
gint64         tm_session_get_selected_time      (TmSession     *self);
void           tm_session_select_time            (TmSession     *self,
                                                  gint64         time_ps);
void           tm_session_clear_selected_time    (TmSession     *self);

/* The time the views show: the selected time, or else the window peak's
 * time (0 without a memory store). */
gint64         tm_session_get_shown_time         (TmSession     *self);

TmYScale       tm_session_get_y_scale            (TmSession     *self);
void           tm_session_set_y_scale            (TmSession     *self,
                                                  TmYScale       y_scale);

G_END_DECLS
