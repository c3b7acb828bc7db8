/* tm-program-axes-layer.c — the axes of a chart in program order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tm-chart-axes.h"
#include "tm-chart-palette.h"
#include "tm-format.h"
#include "tm-program-axes-layer.h"

struct _TmProgramAxesLayer
{
  TmChartLayer       parent_instance;

  TmProgramAxesParts parts;
};

G_DEFINE_FINAL_TYPE (TmProgramAxesLayer, tm_program_axes_layer, TM_TYPE_CHART_LAYER)

static void
draw_bytes (TmChartCanvas         *canvas,
            const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);

  if (g->y_max <= 0 || g->y_step <= 0)
    return;
  for (gint64 v = 0; v <= g->y_max; v += g->y_step)
    {
      double y = round (tm_chart_geometry_value_to_y (g, (double) v));
      g_autofree char *label = tm_chart_axes_trim_zeros (tm_format_bytes (v));

      tm_chart_canvas_rect (canvas, &palette->grid, g->plot.x, y - 0.5, g->plot.width, 1);
      tm_chart_canvas_label (canvas, label, g->plot.x - 8, y, 1.0, 0.5, &palette->dim, NULL);
    }
}

static void
draw_points (TmChartCanvas         *canvas,
             const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  double span = (double) (g->end_ps - g->start_ps);
  double top = g->plot.y + g->plot.height + 5;
  double unit_x = g->plot.x + g->plot.width + 7;
  double step;
  int unit_width;

  if (span <= 0)
    return;
  /* Whole points, about one label per 90 pixels. */
  step = MAX (1.0, tm_format_nice_step (span, (guint) MAX (2.0, g->plot.width / 90.0)));
  /* TRANSLATORS: the unit of the Memory Viewer's x axis, a position in the program's order */
  tm_chart_canvas_measure (canvas, _("point"), &unit_width, NULL);
  tm_chart_canvas_label (canvas, _("point"), unit_x, top, 0.0, 0.0, &palette->dim, NULL);

  for (double p = ceil ((double) g->start_ps / step) * step; p <= (double) g->end_ps; p += step)
    {
      double x = round (g->plot.x + (p - (double) g->start_ps) / span * g->plot.width);
      g_autofree char *label = tm_format_count ((guint64) MAX (p, 0));
      int width;

      tm_chart_canvas_rect (canvas, &palette->grid, x - 0.5, g->plot.y, 1, g->plot.height);
      tm_chart_canvas_rect (canvas, &palette->dim, x - 0.5, g->plot.y + g->plot.height, 1, 4);
      tm_chart_canvas_measure (canvas, label, &width, NULL);
      if (x + width / 2.0 > unit_x - 6 || x - width / 2.0 < 2)
        continue;
      tm_chart_canvas_label (canvas, label, round (x - width / 2.0), round (top), 0.0, 0.0, &palette->dim, NULL);
    }
}

static void
tm_program_axes_layer_draw (TmChartLayer          *layer,
                            TmChartCanvas         *canvas,
                            const TmChartGeometry *geometry)
{
  TmProgramAxesLayer *self = TM_PROGRAM_AXES_LAYER (layer);

  if (self->parts & TM_PROGRAM_AXES_BYTES)
    draw_bytes (canvas, geometry);
  if (self->parts & TM_PROGRAM_AXES_POINTS)
    draw_points (canvas, geometry);
}

static void
tm_program_axes_layer_class_init (TmProgramAxesLayerClass *klass)
{
  TM_CHART_LAYER_CLASS (klass)->draw = tm_program_axes_layer_draw;
}

static void
tm_program_axes_layer_init (TmProgramAxesLayer *self)
{
}

TmChartLayer *
tm_program_axes_layer_new (TmProgramAxesParts parts)
{
  TmProgramAxesLayer *self = g_object_new (TM_TYPE_PROGRAM_AXES_LAYER, NULL);

  self->parts = parts;
  return TM_CHART_LAYER (self);
}
