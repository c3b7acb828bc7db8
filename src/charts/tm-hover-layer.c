/* tm-hover-layer.c — where the pointer is on a timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tm-chart-palette.h"
#include "tm-hover-layer.h"

struct _TmHoverLayer
{
  TmChartLayer parent_instance;

  gboolean     set;
  gint64       time_ps;
  gboolean     has_value;
  gint64       value;
  char        *readout;
};

G_DEFINE_FINAL_TYPE (TmHoverLayer, tm_hover_layer, TM_TYPE_CHART_LAYER)

static void
tm_hover_layer_draw (TmChartLayer          *layer,
                     TmChartCanvas         *canvas,
                     const TmChartGeometry *g)
{
  TmHoverLayer *self = TM_HOVER_LAYER (layer);
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  const TmChartRect *plot = &g->plot;
  TmChartColor line = palette->fg;
  double x, y;

  if (!self->set || g->y_max <= 0)
    return;

  /* At the pointer's time, at the height of the state then. */
  x = round (tm_chart_geometry_time_to_x (g, self->time_ps)) + 0.5;
  y = round (tm_chart_geometry_value_to_y (g, self->has_value ? (double) self->value : 0.0)) + 0.5;
  line.alpha = 0.45f;
  if (x >= plot->x && x <= plot->x + plot->width)
    {
      tm_chart_canvas_rect (canvas, &line, x - 0.5, plot->y, 1, plot->height);
      if (self->has_value)
        {
          for (double hx = plot->x; hx < plot->x + plot->width; hx += 6)
            tm_chart_canvas_rect (canvas, &line, hx, y - 0.5, 3, 1);
          tm_chart_canvas_dot (canvas, &palette->background, &palette->fg, x, y, 3.5);
        }
    }
  if (self->readout != NULL)
    tm_chart_canvas_label (canvas, self->readout, plot->x + plot->width, TM_CHART_TOP_ROW_Y, 1.0, 0.5,
                           &palette->fg, NULL);
}

static void
add_region (GArray *regions,
            double  x,
            double  y,
            double  width,
            double  height)
{
  TmChartRect r = { x, y, width, height };

  g_array_append_val (regions, r);
}

/* The line, the dashes, the dot and the read-out: not the plot between
 * them, which a moving pointer leaves as it was. */
static gboolean
tm_hover_layer_get_regions (TmChartLayer          *layer,
                            TmChartCanvas         *canvas,
                            const TmChartGeometry *g,
                            GArray                *regions)
{
  TmHoverLayer *self = TM_HOVER_LAYER (layer);
  const TmChartRect *plot = &g->plot;
  double x, y;
  int w, h;

  if (!self->set || g->y_max <= 0)
    return TRUE;
  x = round (tm_chart_geometry_time_to_x (g, self->time_ps)) + 0.5;
  y = round (tm_chart_geometry_value_to_y (g, self->has_value ? (double) self->value : 0.0)) + 0.5;
  if (x >= plot->x && x <= plot->x + plot->width)
    {
      add_region (regions, floor (x) - 1, plot->y, 3, plot->height);
      if (self->has_value)
        {
          /* The last dash may reach past the plot's right edge. */
          add_region (regions, plot->x, floor (y) - 1, plot->width + 3, 3);
          add_region (regions, floor (x) - 7, floor (y) - 7, 15, 15);
        }
    }
  if (self->readout != NULL)
    {
      tm_chart_canvas_measure (canvas, self->readout, &w, &h);
      add_region (regions, plot->x + plot->width - w - 2, TM_CHART_TOP_ROW_Y - h / 2.0 - 2, w + 4, h + 4);
    }
  return TRUE;
}

static void
tm_hover_layer_finalize (GObject *object)
{
  TmHoverLayer *self = TM_HOVER_LAYER (object);

  g_clear_pointer (&self->readout, g_free);

  G_OBJECT_CLASS (tm_hover_layer_parent_class)->finalize (object);
}

static void
tm_hover_layer_class_init (TmHoverLayerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_hover_layer_finalize;
  TM_CHART_LAYER_CLASS (klass)->draw = tm_hover_layer_draw;
  TM_CHART_LAYER_CLASS (klass)->get_regions = tm_hover_layer_get_regions;
}

static void
tm_hover_layer_init (TmHoverLayer *self)
{
}

TmChartLayer *
tm_hover_layer_new (void)
{
  return g_object_new (TM_TYPE_HOVER_LAYER, NULL);
}

void
tm_hover_layer_set (TmHoverLayer *self,
                    gboolean      set,
                    gint64        time_ps,
                    gboolean      has_value,
                    gint64        value,
                    const char   *readout)
{
  g_return_if_fail (TM_IS_HOVER_LAYER (self));

  self->set = !!set;
  self->time_ps = time_ps;
  self->has_value = !!has_value;
  self->value = value;
  g_free (self->readout);
  self->readout = set ? g_strdup (readout) : NULL;
}

gboolean
tm_hover_layer_get_set (TmHoverLayer *self)
{
  g_return_val_if_fail (TM_IS_HOVER_LAYER (self), FALSE);

  return self->set;
}
