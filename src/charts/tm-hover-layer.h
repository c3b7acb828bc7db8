/* tm-hover-layer.h — where the pointer is on a timeline: a crosshair and
 * a read-out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A vertical line at the time under the pointer; when there is a state at
 * that time, a dashed line across the plot at its value and a dot where
 * the two meet (docs/ui.md, "Picking"). The read-out (what the widget
 * says about that time) sits at the right end of the row above the plot.
 * The widget moves it on every motion; nothing else of the chart changes.
 */
#pragma once

#include "tm-chart-layer.h"

G_BEGIN_DECLS

#define TM_TYPE_HOVER_LAYER (tm_hover_layer_get_type ())

G_DECLARE_FINAL_TYPE (TmHoverLayer, tm_hover_layer, TM, HOVER_LAYER, TmChartLayer)

TmChartLayer *tm_hover_layer_new   (void);
/* The pointer at time_ps, with the state there at value (has_value: there
 * is one) and the read-out text (NULL: none); set = FALSE: no pointer. */
void          tm_hover_layer_set   (TmHoverLayer *self,
                                    gboolean      set,
                                    gint64        time_ps,
                                    gboolean      has_value,
                                    gint64        value,
                                    const char   *readout);
gboolean      tm_hover_layer_get_set (TmHoverLayer *self);

G_END_DECLS
