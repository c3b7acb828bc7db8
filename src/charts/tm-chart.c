/* tm-chart.c — a chart: layers drawn in order over one geometry
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-chart.h"

struct _TmChart
{
  GObject          parent_instance;

  GPtrArray       *layers;
  TmChartGeometry  geometry;
};

G_DEFINE_FINAL_TYPE (TmChart, tm_chart, G_TYPE_OBJECT)

static void
tm_chart_finalize (GObject *object)
{
  TmChart *self = TM_CHART (object);

  g_clear_pointer (&self->layers, g_ptr_array_unref);

  G_OBJECT_CLASS (tm_chart_parent_class)->finalize (object);
}

static void
tm_chart_class_init (TmChartClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_chart_finalize;
}

static void
tm_chart_init (TmChart *self)
{
  self->layers = g_ptr_array_new_with_free_func (g_object_unref);
  tm_chart_geometry_init (&self->geometry, 1, 1, FALSE, 0, 1, 0);
}

TmChart *
tm_chart_new (void)
{
  return g_object_new (TM_TYPE_CHART, NULL);
}

void
tm_chart_add_layer (TmChart      *self,
                    TmChartLayer *layer)
{
  g_return_if_fail (TM_IS_CHART (self));
  g_return_if_fail (TM_IS_CHART_LAYER (layer));

  g_ptr_array_add (self->layers, g_object_ref (layer));
}

guint
tm_chart_get_n_layers (TmChart *self)
{
  g_return_val_if_fail (TM_IS_CHART (self), 0);

  return self->layers->len;
}

TmChartLayer *
tm_chart_get_layer (TmChart *self,
                    guint    index)
{
  g_return_val_if_fail (TM_IS_CHART (self), NULL);
  g_return_val_if_fail (index < self->layers->len, NULL);

  return g_ptr_array_index (self->layers, index);
}

const TmChartGeometry *
tm_chart_get_geometry (TmChart *self)
{
  g_return_val_if_fail (TM_IS_CHART (self), NULL);

  return &self->geometry;
}

void
tm_chart_set_geometry (TmChart               *self,
                       const TmChartGeometry *geometry)
{
  g_return_if_fail (TM_IS_CHART (self));
  g_return_if_fail (geometry != NULL);

  self->geometry = *geometry;
}

void
tm_chart_draw (TmChart       *self,
               TmChartCanvas *canvas)
{
  g_return_if_fail (TM_IS_CHART (self));
  g_return_if_fail (canvas != NULL);

  for (guint i = 0; i < self->layers->len; i++)
    tm_chart_layer_draw (g_ptr_array_index (self->layers, i), canvas, &self->geometry);
}
