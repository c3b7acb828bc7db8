/* tm-timeline.h — the memory timeline: stack, heap and free over time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Draws every snapshot of one memory id at any zoom: each pixel column shows
 * the smallest and largest values of its snapshots, read from the store's
 * TmLod. Stacked areas (stack, heap, free), fragmentation as a dashed line on
 * a right 0–100 % axis, byte and millisecond axes, the window peak, a legend,
 * HLO module spans as a thin band.
 *
 * Interaction: wheel zooms at the pointer (Ctrl+wheel too; touchpad scroll
 * pans), pinch zooms, drag pans, Shift+drag or right-drag zooms to a range,
 * double-click or Home shows everything, + − ← → when focused. Hovering
 * shows the state at the time under the pointer (the last snapshot at or
 * before it); a click selects that time (docs/ui.md, "Picking").
 *
 * A view of a TmSession (TmView): it draws the session's memory store
 * over the session's viewport, the HLO modules of the session's profile,
 * the selected time, scope and allocation and a comparison's baseline
 * (what it needs of them from the session's query objects), and changes
 * them only through the session. A click is drawn at once and given to
 * the session (tm_session_select_time()) when it is known not to be the
 * first half of a double-click (which shows everything and leaves the
 * session's selected time as it was).
 *
 * One chart widget, drawn by layer objects (tm-timeline-chart.h and
 * docs/architecture.md, "Adding a layer"); the exports draw the same
 * layers (tm_timeline_build_chart()).
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-chart.h"
#include "tm-chart-palette.h"
#include "tm-palette.h"
#include "tm-view.h"

G_BEGIN_DECLS

/* How tall the byte axis is: fit to the memory in use in the visible
 * range (the default), or the device's capacity (docs/ui.md, "Y scale"). */
typedef enum
{
  TM_Y_SCALE_FIT,
  TM_Y_SCALE_CAPACITY,
} TmYScale;

#define TM_TYPE_Y_SCALE (tm_y_scale_get_type ())
GType tm_y_scale_get_type (void) G_GNUC_CONST;

/* The usage timeline's series, for hiding them (docs/ui.md, "Legend"). */
typedef enum
{
  TM_SERIES_FLAG_NONE          = 0,
  TM_SERIES_FLAG_STACK         = 1 << 0,
  TM_SERIES_FLAG_HEAP          = 1 << 1,
  TM_SERIES_FLAG_FREE          = 1 << 2,
  TM_SERIES_FLAG_FRAGMENTATION = 1 << 3,
} TmSeriesFlags;

#define TM_TYPE_SERIES_FLAGS (tm_series_flags_get_type ())
GType tm_series_flags_get_type (void) G_GNUC_CONST;

#define TM_TYPE_TIMELINE (tm_timeline_get_type ())

G_DECLARE_FINAL_TYPE (TmTimeline, tm_timeline, TM, TIMELINE, TmView)

GtkWidget     *tm_timeline_new                (TmSession       *session);

/* The timeline's own view state (docs/ui.md, "Y scale" and "Legend"): the
 * byte axis' scale and the series turned off. */
TmYScale       tm_timeline_get_y_scale        (TmTimeline      *self);
void           tm_timeline_set_y_scale        (TmTimeline      *self,
                                               TmYScale         y_scale);
TmSeriesFlags  tm_timeline_get_hidden_series  (TmTimeline      *self);
void           tm_timeline_set_hidden_series  (TmTimeline      *self,
                                               TmSeriesFlags    hidden);
/* Hides a shown series or shows a hidden one. */
void           tm_timeline_toggle_series      (TmTimeline      *self,
                                               TmSeriesFlags    series);

/* What snapshot() draws for a width × height widget (the data, the axes,
 * the selections, a baseline, the range read-out; no pointer), uncached,
 * in palette's colours (a light image from a dark window): for exporting
 * the timeline as an image. */
GskRenderNode *tm_timeline_render_node_with_palette (TmTimeline      *self,
                                                     int              width,
                                                     int              height,
                                                     const TmPalette *palette);
/* The same layers as a chart of its own (new layer objects: it may be
 * drawn in another thread), for the vector export; NULL without data. */
TmChart       *tm_timeline_build_chart        (TmTimeline      *self,
                                               int              width,
                                               int              height);

/* The HLO module run drawn under widget (x, y), as an index of the
 * profile's modules, or -1: what a click on the band is about. */
int            tm_timeline_get_module_at      (TmTimeline      *self,
                                               double           x,
                                               double           y);

G_END_DECLS
