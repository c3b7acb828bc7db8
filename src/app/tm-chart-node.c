/* tm-chart-node.c — chart layers drawn into a widget's snapshot
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

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

void
tm_chart_node_append_layer (GtkSnapshot           *snapshot,
                            GtkWidget             *widget,
                            const TmPalette       *palette,
                            const TmChartGeometry *geometry,
                            const graphene_rect_t *bounds,
                            TmChartLayer          *layer)
{
  g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (TmChartRect));
  g_autoptr(PangoLayout) text = NULL;
  cairo_surface_t *surface;
  TmChartCanvas *canvas;
  cairo_region_t *union_;
  gboolean bounded;
  cairo_t *cr;

  g_return_if_fail (TM_IS_CHART_LAYER (layer));

  /* The regions, its text measured in the widget's label font. */
  text = tm_axis_create_label_layout (widget);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cr = cairo_create (surface);
  canvas = tm_chart_canvas_new_for_layout (cr, FALSE, TM_CHART_CANVAS_TEXT_DRAWN, text);
  bounded = tm_chart_layer_get_regions (layer, canvas, geometry, regions);
  tm_chart_canvas_free (canvas);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);

  if (!bounded)
    {
      tm_chart_node_append (snapshot, widget, palette, geometry, bounds, &layer, 1);
      return;
    }

  /* The regions' union as rectangles that do not overlap, each a node
   * in which the layer draws (a node's cairo surface is bounded: what it
   * draws outside is cut off), so that no pixel is drawn twice. */
  union_ = cairo_region_create ();
  for (guint i = 0; i < regions->len; i++)
    {
      const TmChartRect *r = &g_array_index (regions, TmChartRect, i);
      cairo_rectangle_int_t box;

      box.x = (int) floor (r->x);
      box.y = (int) floor (r->y);
      box.width = (int) ceil (r->x + r->width) - box.x;
      box.height = (int) ceil (r->y + r->height) - box.y;
      cairo_region_union_rectangle (union_, &box);
    }
  for (int i = 0; i < cairo_region_num_rectangles (union_); i++)
    {
      cairo_rectangle_int_t box;
      graphene_rect_t region;

      cairo_region_get_rectangle (union_, i, &box);
      region = GRAPHENE_RECT_INIT (box.x, box.y, box.width, box.height);
      if (graphene_rect_intersection (&region, bounds, &region))
        tm_chart_node_append (snapshot, widget, palette, geometry, &region, &layer, 1);
    }
  cairo_region_destroy (union_);
}
