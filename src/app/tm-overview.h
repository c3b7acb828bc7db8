/* tm-overview.h — a thin strip with the whole profile and the visible range
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A view of a TmSession: draws memory in use (and free) over all the data,
 * the session's visible range as a window with the rest dimmed, the peak
 * and the selected time. Dragging moves the window, a click elsewhere
 * centres it there, the wheel zooms, a double-click shows everything.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-view.h"

G_BEGIN_DECLS

#define TM_TYPE_OVERVIEW (tm_overview_get_type ())

G_DECLARE_FINAL_TYPE (TmOverview, tm_overview, TM, OVERVIEW, TmView)

GtkWidget  *tm_overview_new          (TmSession  *session);

/* The x range of the visible window in widget coordinates, for tests. */
void        tm_overview_get_window   (TmOverview *self,
                                      double     *x0,
                                      double     *x1);

G_END_DECLS
