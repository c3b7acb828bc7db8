/* tm-mark-layer.c — a marked time on a chart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tm-chart-axes.h"
#include "tm-chart-palette.h"
#include "tm-format.h"
#include "tm-mark-layer.h"

struct _TmMarkLayer
{
  TmChartLayer parent_instance;

  TmMarkKind   kind;
  gboolean     set;
  gint64       time_ps;
  gint64       value;
};

G_DEFINE_FINAL_TYPE (TmMarkLayer, tm_mark_layer, TM_TYPE_CHART_LAYER)

static void
draw_peak (TmMarkLayer           *self,
           TmChartCanvas         *canvas,
           const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  const TmChartRect *plot = &g->plot;
  g_autofree char *bytes = NULL;
  g_autofree char *label = NULL;
  double x, y;
  gboolean right;

  x = round (tm_chart_geometry_time_to_x (g, self->time_ps)) + 0.5;
  y = tm_chart_geometry_value_to_y (g, (double) self->value);

  /* From the label down to the ring, not over the data. */
  tm_chart_canvas_dashed_vline (canvas, &palette->peak, x, plot->y, y - 7, 1.0, 4, 3);
  tm_chart_canvas_ring (canvas, &palette->fg, &palette->background, x, y, 5.5);

  bytes = tm_format_bytes (self->value);
  /* Translators: the marker at the highest stack + heap, e.g. "Peak 5.78 GiB" */
  label = g_strdup_printf (_("Peak %s"), bytes);
  right = x + 160 < plot->x + plot->width;
  tm_chart_canvas_label (canvas, label, right ? x + 8 : x - 8, plot->y + 4,
                         right ? 0.0 : 1.0, 0.0, &palette->fg, &palette->background);
}

static void
draw_selection (TmMarkLayer           *self,
                TmChartCanvas         *canvas,
                const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  const TmChartRect *plot = &g->plot;
  g_autofree char *label = NULL;
  double x = round (tm_chart_geometry_time_to_x (g, self->time_ps));

  tm_chart_canvas_rect (canvas, &palette->accent, x - 1, plot->y, 2, plot->height);
  label = tm_chart_axes_format_time (self->time_ps, g->end_ps - g->start_ps);
  tm_chart_canvas_label (canvas, label, CLAMP (x, plot->x + 40, plot->x + plot->width - 40),
                         plot->y + plot->height - 4, 0.5, 1.0, &palette->accent, &palette->background);
}

static void
tm_mark_layer_draw (TmChartLayer          *layer,
                    TmChartCanvas         *canvas,
                    const TmChartGeometry *geometry)
{
  TmMarkLayer *self = TM_MARK_LAYER (layer);

  if (!self->set || self->time_ps < geometry->start_ps || self->time_ps > geometry->end_ps ||
      geometry->y_max <= 0)
    return;

  if (self->kind == TM_MARK_PEAK)
    draw_peak (self, canvas, geometry);
  else
    draw_selection (self, canvas, geometry);
}

static void
tm_mark_layer_class_init (TmMarkLayerClass *klass)
{
  TM_CHART_LAYER_CLASS (klass)->draw = tm_mark_layer_draw;
}

static void
tm_mark_layer_init (TmMarkLayer *self)
{
}

TmChartLayer *
tm_mark_layer_new (TmMarkKind kind)
{
  TmMarkLayer *self = g_object_new (TM_TYPE_MARK_LAYER, NULL);

  self->kind = kind;
  return TM_CHART_LAYER (self);
}

void
tm_mark_layer_set (TmMarkLayer *self,
                   gboolean     set,
                   gint64       time_ps,
                   gint64       value)
{
  g_return_if_fail (TM_IS_MARK_LAYER (self));

  self->set = !!set;
  self->time_ps = time_ps;
  self->value = value;
}
