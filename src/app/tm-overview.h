/* tm-overview.h — a thin strip with the whole profile and the visible range
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Follows a TmTimeline: draws memory in use (and free) over all the data,
 * the timeline's visible range as a window with the rest dimmed, the peak
 * and the selected time. Dragging moves the window, a click elsewhere
 * centres it there, the wheel zooms, a double-click shows everything.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-timeline.h"

G_BEGIN_DECLS

#define TM_TYPE_OVERVIEW (tm_overview_get_type ())

G_DECLARE_FINAL_TYPE (TmOverview, tm_overview, TM, OVERVIEW, GtkWidget)

GtkWidget  *tm_overview_new          (void);

/* The timeline to follow (NULL: none); not referenced beyond its life. */
void        tm_overview_set_timeline (TmOverview *self,
                                      TmTimeline *timeline);
TmTimeline *tm_overview_get_timeline (TmOverview *self);

/* The x range of the visible window in widget coordinates, for tests. */
void        tm_overview_get_window   (TmOverview *self,
                                      double     *x0,
                                      double     *x1);

G_END_DECLS
