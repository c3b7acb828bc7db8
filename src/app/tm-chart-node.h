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

void tm_chart_node_append       (GtkSnapshot           *snapshot,
                                 GtkWidget             *widget,
                                 const TmPalette       *palette,
                                 const TmChartGeometry *geometry,
                                 const graphene_rect_t *bounds,
                                 TmChartLayer * const  *layers,
                                 guint                  n_layers);
/* One layer that follows the pointer or the selection: a node for each
 * region it draws in (tm_chart_layer_get_regions()), so that when it
 * moves GTK redraws those and not the chart under them; one node over
 * bounds when it may draw anywhere. */
void tm_chart_node_append_layer (GtkSnapshot           *snapshot,
                                 GtkWidget             *widget,
                                 const TmPalette       *palette,
                                 const TmChartGeometry *geometry,
                                 const graphene_rect_t *bounds,
                                 TmChartLayer          *layer);

G_END_DECLS
