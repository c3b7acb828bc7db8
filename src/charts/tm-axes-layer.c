/* tm-axes-layer.c — a chart's axes and their grids
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tm-axes-layer.h"
#include "tm-chart-axes.h"
#include "tm-chart-palette.h"
#include "tm-format.h"

struct _TmAxesLayer
{
  TmChartLayer parent_instance;

  TmAxesParts  parts;
  double       label_gap;
  gboolean     no_percent;
};

G_DEFINE_FINAL_TYPE (TmAxesLayer, tm_axes_layer, TM_TYPE_CHART_LAYER)

/* The top of the time ruler's labels (and of the unit). */
static double
label_top (const TmChartGeometry *g,
           double                 gap)
{
  return g->hlo_band.y + g->hlo_band.height + gap;
}

static void
draw_values (TmAxesLayer           *self,
             TmChartCanvas         *canvas,
             const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  double x0 = g->plot.x, y0 = g->plot.y, w = g->plot.width, h = g->plot.height;
  const double pcts[] = { 0.0, 0.25, 0.5, 0.75, 1.0 };

  if (g->y_max <= 0 || g->y_step <= 0)
    return;

  for (gint64 v = 0; v <= g->y_max; v += g->y_step)
    {
      double y = round (tm_chart_geometry_value_to_y (g, (double) v));
      g_autofree char *label = tm_chart_axes_trim_zeros (tm_format_bytes (v));

      tm_chart_canvas_rect (canvas, &palette->grid, x0, y - 0.5, w, 1);
      tm_chart_canvas_label (canvas, label, x0 - 8, y, 1.0, 0.5, &palette->dim, NULL);
    }

  /* Fragmentation, labels in the line's colour. */
  for (guint i = 0; i < G_N_ELEMENTS (pcts) && !self->no_percent; i++)
    {
      double y = round (y0 + h - pcts[i] * h);
      g_autofree char *label = NULL;

      if (h < 120 && (i == 1 || i == 3))
        continue;
      label = tm_chart_axes_trim_zeros (tm_format_percent (pcts[i]));
      tm_chart_canvas_rect (canvas, &palette->frag, x0 + w, y - 0.5, 4, 1);
      tm_chart_canvas_label (canvas, label, x0 + w + 7, y, 0.0, 0.5, &palette->frag, NULL);
    }

  tm_chart_canvas_label (canvas, _("ms"), x0 + w + 7, label_top (g, self->label_gap), 0.0, 0.0, &palette->dim, NULL);
}

static void
draw_time (TmAxesLayer           *self,
           TmChartCanvas         *canvas,
           const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  double x0 = g->plot.x, y0 = g->plot.y, w = g->plot.width, h = g->plot.height;
  double unit_x = x0 + w + 7;
  TmTimeTicks ticks;

  tm_chart_axes_time_ticks (g->start_ps, g->end_ps, w, &ticks);

  for (gint64 t = ticks.first_ps; t <= g->end_ps; t += ticks.step_ps)
    {
      double x = round (tm_chart_geometry_time_to_x (g, t));
      g_autofree char *label = tm_chart_axes_format_tick_ms (t, ticks.decimals);
      int width;

      tm_chart_canvas_rect (canvas, &palette->grid, x - 0.5, y0, 1, h);
      tm_chart_canvas_rect (canvas, &palette->dim, x - 0.5, y0 + h, 1, 4);

      /* Labels that would run into the unit or off the left edge go. */
      tm_chart_canvas_measure (canvas, label, &width, NULL);
      if (x + width / 2.0 > unit_x - 6 || x - width / 2.0 < 2)
        continue;
      tm_chart_canvas_label (canvas, label, round (x - width / 2.0), round (label_top (g, self->label_gap)), 0.0, 0.0,
                             &palette->dim, NULL);
    }
}

static void
tm_axes_layer_draw (TmChartLayer          *layer,
                    TmChartCanvas         *canvas,
                    const TmChartGeometry *geometry)
{
  TmAxesLayer *self = TM_AXES_LAYER (layer);

  if (self->parts & TM_AXES_VALUES)
    draw_values (self, canvas, geometry);
  if (self->parts & TM_AXES_TIME)
    draw_time (self, canvas, geometry);
  if (self->parts & TM_AXES_BASE)
    {
      const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
      const TmChartRect *p = &geometry->plot;

      tm_chart_canvas_rect (canvas, &palette->dim, p->x, round (p->y + p->height) - 0.5, p->width, 1);
    }
}

static void
tm_axes_layer_class_init (TmAxesLayerClass *klass)
{
  TM_CHART_LAYER_CLASS (klass)->draw = tm_axes_layer_draw;
}

static void
tm_axes_layer_init (TmAxesLayer *self)
{
  self->label_gap = 5;
}

TmChartLayer *
tm_axes_layer_new (TmAxesParts parts)
{
  TmAxesLayer *self = g_object_new (TM_TYPE_AXES_LAYER, NULL);

  self->parts = parts;
  return TM_CHART_LAYER (self);
}

TmAxesParts
tm_axes_layer_get_parts (TmAxesLayer *self)
{
  g_return_val_if_fail (TM_IS_AXES_LAYER (self), 0);

  return self->parts;
}

void
tm_axes_layer_set_label_gap (TmAxesLayer *self,
                             double       gap)
{
  g_return_if_fail (TM_IS_AXES_LAYER (self));

  self->label_gap = gap;
}

void
tm_axes_layer_set_percent (TmAxesLayer *self,
                           gboolean     percent)
{
  g_return_if_fail (TM_IS_AXES_LAYER (self));

  self->no_percent = !percent;
}
