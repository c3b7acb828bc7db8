/* tm-chart-node.h — chart layers drawn into a widget's snapshot
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The views that are charts (the timeline, the memory map) draw their
 * layers (src/charts, tm-chart-layer.h) with this: a cairo node over the
 * bounds given, on a canvas with the widget's label font, the palette's
 * colours and the widget's scale factor, in which each layer draws itself
 * over the geometry. A view groups its layers into nodes as it caches
 * them: what does not move with the range, what does, and what follows
 * the pointer.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-chart-layer.h"
#include "tm-palette.h"

G_BEGIN_DECLS

void tm_chart_node_append (GtkSnapshot           *snapshot,
                           GtkWidget             *widget,
                           const TmPalette       *palette,
                           const TmChartGeometry *geometry,
                           const graphene_rect_t *bounds,
                           TmChartLayer * const  *layers,
                           guint                  n_layers);

G_END_DECLS
