/* tm-viewport.h — the visible time range of a timeline: zoom and pan maths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A plain object (no widget, no drawing) so that tests drive it without a
 * display. It keeps the visible range [start, end] inside the data range
 * [data-start, data-end] and at least min-span long (or the whole data when
 * that is shorter): whatever is asked, the view never inverts, never gets
 * shorter than the limit and never goes past the data. Times are
 * picoseconds on the profile clock.
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define TM_TYPE_VIEWPORT (tm_viewport_get_type ())

G_DECLARE_FINAL_TYPE (TmViewport, tm_viewport, TM, VIEWPORT, GObject)

/* 10 ns: at 1920 px still a few picoseconds per pixel. */
#define TM_VIEWPORT_DEFAULT_MIN_SPAN G_GINT64_CONSTANT (10000)

TmViewport *tm_viewport_new              (void);

/* Sets the data range and shows all of it. A range shorter than 1 ps is
 * widened to 1 ps. */
void        tm_viewport_set_limits       (TmViewport *self,
                                          gint64      data_start,
                                          gint64      data_end);
gint64      tm_viewport_get_data_start   (TmViewport *self);
gint64      tm_viewport_get_data_end     (TmViewport *self);

gint64      tm_viewport_get_min_span     (TmViewport *self);
void        tm_viewport_set_min_span     (TmViewport *self,
                                          gint64      min_span);

gint64      tm_viewport_get_start        (TmViewport *self);
gint64      tm_viewport_get_end          (TmViewport *self);
gint64      tm_viewport_get_span         (TmViewport *self);

/* Shows [start, end], swapped if inverted, then widened to the minimum
 * span around its centre and moved (not shrunk) inside the data. */
void        tm_viewport_set_range        (TmViewport *self,
                                          gint64      start,
                                          gint64      end);
/* Shows [start, end] (either order) with 4 % of its span free on each
 * side, as tm_viewport_set_range() shows a range: what zooming to one
 * thing (an HLO module's run) shows. */
void        tm_viewport_zoom_to          (TmViewport *self,
                                          gint64      start,
                                          gint64      end);
/* Shows all the data. */
void        tm_viewport_reset            (TmViewport *self);
gboolean    tm_viewport_is_zoomed        (TmViewport *self);
/* Data span / visible span (1.0 when showing everything). */
double      tm_viewport_get_zoom         (TmViewport *self);
gboolean    tm_viewport_can_zoom_in      (TmViewport *self);
gboolean    tm_viewport_can_zoom_out     (TmViewport *self);

/* Divides the span by factor (> 1 zooms in, < 1 out) keeping anchor_ps
 * where it is on screen, unless a limit stops it. */
void        tm_viewport_zoom             (TmViewport *self,
                                          double      factor,
                                          gint64      anchor_ps);
/* Same, the anchor given as a fraction of the visible range (0 = left
 * edge, 0.5 = centre, 1 = right edge). */
void        tm_viewport_zoom_at_fraction (TmViewport *self,
                                          double      factor,
                                          double      fraction);
/* Sets the span to span_ps keeping anchor_ps at fraction of the width: the
 * pinch gesture sets span and anchor together. */
void        tm_viewport_set_span_at      (TmViewport *self,
                                          gint64      span_ps,
                                          gint64      anchor_ps,
                                          double      fraction);

/* Moves the range by delta_ps (positive: later), stopping at the data's
 * ends. */
void        tm_viewport_pan              (TmViewport *self,
                                          gint64      delta_ps);
/* Moves the range by fraction of its span. */
void        tm_viewport_pan_fraction     (TmViewport *self,
                                          double      fraction);

/* Between times and x positions in a drawing width pixels wide. */
double      tm_viewport_time_to_x        (TmViewport *self,
                                          gint64      time_ps,
                                          double      width);
gint64      tm_viewport_x_to_time        (TmViewport *self,
                                          double      x,
                                          double      width);

G_END_DECLS
