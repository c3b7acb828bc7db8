/* tm-chart-layer.c — one part of a chart, which draws itself
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tm-chart-axes.h"
#include "tm-chart-layer.h"

typedef struct
{
  gboolean visible;
} TmChartLayerPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TmChartLayer, tm_chart_layer, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_VISIBLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

void
tm_chart_geometry_init (TmChartGeometry *g,
                        int              width,
                        int              height,
                        gboolean         hlo_band,
                        gint64           start_ps,
                        gint64           end_ps,
                        gint64           max_value)
{
  double plot_w = MAX (1, width - TM_CHART_MARGIN_LEFT - TM_CHART_MARGIN_RIGHT);
  double plot_h = MAX (1, height - TM_CHART_MARGIN_TOP - TM_CHART_MARGIN_BOTTOM
                          - (hlo_band ? TM_CHART_HLO_BAND_HEIGHT + TM_CHART_HLO_BAND_GAP : 0));

  g_return_if_fail (g != NULL);

  /* Whole, padding too: geometries are compared with memcmp(). */
  memset (g, 0, sizeof *g);
  g->width = width;
  g->height = height;
  g->plot = (TmChartRect) { TM_CHART_MARGIN_LEFT, TM_CHART_MARGIN_TOP, plot_w, plot_h };
  if (hlo_band)
    g->hlo_band = (TmChartRect) { TM_CHART_MARGIN_LEFT, TM_CHART_MARGIN_TOP + plot_h + TM_CHART_HLO_BAND_GAP,
                                  plot_w, TM_CHART_HLO_BAND_HEIGHT };
  else
    g->hlo_band = (TmChartRect) { TM_CHART_MARGIN_LEFT, TM_CHART_MARGIN_TOP + plot_h, plot_w, 0 };
  g->start_ps = start_ps;
  g->end_ps = end_ps;
  tm_chart_axes_byte_scale (max_value, plot_h, &g->y_max, &g->y_step);
  g->axis_y0 = 0;
  g->axis_y1 = 1;
}

void
tm_chart_geometry_init_map (TmChartGeometry *g,
                            int              width,
                            int              height,
                            gint64           start_ps,
                            gint64           end_ps,
                            double           axis_y0,
                            double           axis_y1)
{
  double plot_w = MAX (width - TM_CHART_MARGIN_LEFT - TM_CHART_MARGIN_RIGHT, 1);
  double plot_h = MAX (height - TM_CHART_MAP_MARGIN_TOP - TM_CHART_MARGIN_BOTTOM, 1);

  g_return_if_fail (g != NULL);

  /* Whole, padding too: geometries are compared with memcmp(). */
  memset (g, 0, sizeof *g);
  g->width = width;
  g->height = height;
  g->plot = (TmChartRect) { TM_CHART_MARGIN_LEFT, TM_CHART_MAP_MARGIN_TOP, plot_w, plot_h };
  g->hlo_band = (TmChartRect) { TM_CHART_MARGIN_LEFT, TM_CHART_MAP_MARGIN_TOP + plot_h, plot_w, 0 };
  g->start_ps = start_ps;
  g->end_ps = end_ps;
  g->y_max = 0;
  g->y_step = 0;
  g->axis_y0 = axis_y0;
  g->axis_y1 = axis_y1;
}

double
tm_chart_geometry_time_to_x (const TmChartGeometry *g,
                             gint64                 time_ps)
{
  return g->plot.x + (double) (time_ps - g->start_ps) * g->plot.width / (double) MAX (g->end_ps - g->start_ps, 1);
}

gint64
tm_chart_geometry_x_to_time (const TmChartGeometry *g,
                             double                 x)
{
  if (!(g->plot.width > 0.0))
    return g->start_ps;
  return g->start_ps + (gint64) llround ((x - g->plot.x) / g->plot.width * (double) (g->end_ps - g->start_ps));
}

double
tm_chart_geometry_value_to_y (const TmChartGeometry *g,
                              double                 value)
{
  return g->plot.y + g->plot.height - value / (double) g->y_max * g->plot.height;
}

double
tm_chart_geometry_axis_to_y (const TmChartGeometry *g,
                             double                 offset)
{
  return g->plot.y + (g->axis_y1 - offset) / (g->axis_y1 - g->axis_y0) * g->plot.height;
}

double
tm_chart_geometry_y_to_axis (const TmChartGeometry *g,
                             double                 y)
{
  return g->axis_y1 - (y - g->plot.y) / g->plot.height * (g->axis_y1 - g->axis_y0);
}

gboolean
tm_chart_geometry_in_plot (const TmChartGeometry *g,
                           double                 x,
                           double                 y)
{
  return x >= g->plot.x && x <= g->plot.x + g->plot.width &&
         y >= g->plot.y && y <= g->plot.y + g->plot.height;
}

static void
tm_chart_layer_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  TmChartLayer *self = TM_CHART_LAYER (object);

  switch (prop_id)
    {
    case PROP_VISIBLE:
      g_value_set_boolean (value, tm_chart_layer_get_visible (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_chart_layer_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  TmChartLayer *self = TM_CHART_LAYER (object);

  switch (prop_id)
    {
    case PROP_VISIBLE:
      tm_chart_layer_set_visible (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_chart_layer_class_init (TmChartLayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = tm_chart_layer_get_property;
  object_class->set_property = tm_chart_layer_set_property;

  properties[PROP_VISIBLE] =
    g_param_spec_boolean ("visible", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tm_chart_layer_init (TmChartLayer *self)
{
  TmChartLayerPrivate *priv = tm_chart_layer_get_instance_private (self);

  priv->visible = TRUE;
}

void
tm_chart_layer_draw (TmChartLayer          *self,
                     TmChartCanvas         *canvas,
                     const TmChartGeometry *geometry)
{
  TmChartLayerPrivate *priv = tm_chart_layer_get_instance_private (self);
  cairo_t *cr;

  g_return_if_fail (TM_IS_CHART_LAYER (self));
  g_return_if_fail (canvas != NULL && geometry != NULL);

  if (!priv->visible || TM_CHART_LAYER_GET_CLASS (self)->draw == NULL)
    return;

  /* A layer leaves the context as it found it. */
  cr = tm_chart_canvas_get_cairo (canvas);
  cairo_save (cr);
  TM_CHART_LAYER_GET_CLASS (self)->draw (self, canvas, geometry);
  cairo_restore (cr);
}

gboolean
tm_chart_layer_get_visible (TmChartLayer *self)
{
  TmChartLayerPrivate *priv = tm_chart_layer_get_instance_private (self);

  g_return_val_if_fail (TM_IS_CHART_LAYER (self), FALSE);

  return priv->visible;
}

void
tm_chart_layer_set_visible (TmChartLayer *self,
                            gboolean      visible)
{
  TmChartLayerPrivate *priv = tm_chart_layer_get_instance_private (self);

  g_return_if_fail (TM_IS_CHART_LAYER (self));

  visible = !!visible;
  if (priv->visible == visible)
    return;
  priv->visible = visible;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE]);
}

gboolean
tm_chart_layer_get_regions (TmChartLayer          *self,
                            TmChartCanvas         *canvas,
                            const TmChartGeometry *geometry,
                            GArray                *regions)
{
  TmChartLayerPrivate *priv = tm_chart_layer_get_instance_private (self);

  g_return_val_if_fail (TM_IS_CHART_LAYER (self), FALSE);
  g_return_val_if_fail (canvas != NULL && geometry != NULL && regions != NULL, FALSE);

  if (!priv->visible)
    return TRUE;
  if (TM_CHART_LAYER_GET_CLASS (self)->get_regions == NULL)
    return FALSE;
  return TM_CHART_LAYER_GET_CLASS (self)->get_regions (self, canvas, geometry, regions);
}
