/* tm-chart-node.c — chart layers drawn into a widget's snapshot
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-axis.h"
#include "tm-chart-node.h"

void
tm_chart_node_append (GtkSnapshot           *snapshot,
                      GtkWidget             *widget,
                      const TmPalette       *palette,
                      const TmChartGeometry *geometry,
                      const graphene_rect_t *bounds,
                      TmChartLayer * const  *layers,
                      guint                  n_layers)
{
  g_autoptr(PangoLayout) text = NULL;
  g_autoptr(TmChartCanvas) canvas = NULL;
  TmChartPalette colors;
  cairo_t *cr;

  g_return_if_fail (GTK_IS_SNAPSHOT (snapshot));
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (palette != NULL && geometry != NULL && bounds != NULL);

  if (n_layers == 0 || bounds->size.width <= 0 || bounds->size.height <= 0)
    return;

  text = tm_axis_create_label_layout (widget);
  cr = gtk_snapshot_append_cairo (snapshot, bounds);
  canvas = tm_chart_canvas_new_for_layout (cr, FALSE, TM_CHART_CANVAS_TEXT_DRAWN, text);
  tm_palette_to_chart (palette, &colors);
  tm_chart_canvas_set_palette (canvas, &colors);
  tm_chart_canvas_set_scale (canvas, gtk_widget_get_scale_factor (widget));
  for (guint i = 0; i < n_layers; i++)
    if (layers[i] != NULL)
      tm_chart_layer_draw (layers[i], canvas, geometry);
  g_clear_pointer (&canvas, tm_chart_canvas_free);
  cairo_destroy (cr);
}
