/* tm-series-layer.c — the timeline's stacked areas: stack, heap and free
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tm-chart-palette.h"
#include "tm-series-layer.h"
#include "tm-series-painter.h"

struct _TmSeriesLayer
{
  TmChartLayer     parent_instance;

  TmMemoryStore   *store;
  guint            hidden;
  TmSeriesPainter *painter;
};

G_DEFINE_FINAL_TYPE (TmSeriesLayer, tm_series_layer, TM_TYPE_CHART_LAYER)

static void
draw_raster (TmSeriesLayer         *self,
             TmChartCanvas         *canvas,
             const TmChartGeometry *g,
             TmLod                 *lod)
{
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);
  /* Device pixels per unit: the PNG export draws at 2. */
  int scale = tm_chart_canvas_get_scale (canvas);
  int width = (int) MAX (1.0, floor (g->plot.width * scale)), height = (int) MAX (1.0, floor (g->plot.height * scale));
  cairo_surface_t *image;

  if (width <= 0 || height <= 0)
    return;

  if (self->painter == NULL)
    self->painter = tm_series_painter_new ();
  /* The fragmentation is a layer of its own (tm-line-layer). */
  tm_series_painter_set_hidden (self->painter, self->hidden | TM_SERIES_PAINTER_FRAGMENTATION);
  image = tm_series_painter_paint (self->painter, lod, g->start_ps, g->end_ps, width, height, scale, g->y_max,
                                   tm_memory_store_has_free_data (self->store),
                                   tm_chart_canvas_get_palette (canvas));
  cairo_set_source_surface (cr, image, g->plot.x, g->plot.y);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_paint (cr);
  cairo_surface_destroy (image);
}

static void
draw_vector (TmSeriesLayer         *self,
             TmChartCanvas         *canvas,
             const TmChartGeometry *g,
             TmLod                 *lod)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);
  int width = (int) lround (g->plot.width), height = (int) lround (g->plot.height);
  gboolean show_stack = tm_series_painter_lod_has_stack (lod);
  gboolean show_free = tm_memory_store_has_free_data (self->store);
  g_autofree TmLodBucket *buckets = NULL;
  g_autofree TmSeriesColumn *columns = NULL;
  g_autofree gboolean *shown = NULL;
  int prev_top = -1, prev_bottom = -1;

  if (width <= 0 || height <= 0)
    return;

  buckets = g_new (TmLodBucket, width);
  columns = g_new (TmSeriesColumn, width);
  shown = g_new (gboolean, width);
  tm_lod_query_columns (lod, g->start_ps, g->end_ps, width, buckets);
  for (int x = 0; x < width; x++)
    shown[x] = tm_series_painter_column (&buckets[x], x, height, 1, g->y_max, show_stack, show_free,
                                         TM_SERIES_PAINTER_FRAGMENTATION, &prev_top, &prev_bottom, &columns[x]);

  /* One rectangle per run of columns whose piece has the same rows: the
   * steps of the data, as the image draws them. */
  for (int k = 0; k < TM_SERIES_N_PIECES; k++)
    {
      int series = k / 2;
      const TmChartColor *color = k % 2 == 0 ? &palette->series[series] : &palette->series_fill[series];

      if (self->hidden & (1u << series))
        continue;

      for (int x = 0; x < width;)
        {
          int top = columns[x].top[k], bottom = columns[x].bottom[k], run = 1;

          if (!shown[x] || bottom <= top)
            {
              x++;
              continue;
            }
          while (x + run < width && shown[x + run] &&
                 columns[x + run].top[k] == top && columns[x + run].bottom[k] == bottom)
            run++;
          cairo_rectangle (cr, g->plot.x + x, g->plot.y + top, run, bottom - top);
          tm_chart_set_source (cr, color);
          cairo_fill (cr);
          x += run;
        }
    }
}

static void
tm_series_layer_draw (TmChartLayer          *layer,
                      TmChartCanvas         *canvas,
                      const TmChartGeometry *geometry)
{
  TmSeriesLayer *self = TM_SERIES_LAYER (layer);
  TmLod *lod;

  if (self->store == NULL || geometry->y_max <= 0 ||
      (lod = tm_memory_store_get_lod (self->store)) == NULL)
    return;

  if (tm_chart_canvas_is_vector (canvas))
    draw_vector (self, canvas, geometry, lod);
  else
    draw_raster (self, canvas, geometry, lod);
}

static void
tm_series_layer_finalize (GObject *object)
{
  TmSeriesLayer *self = TM_SERIES_LAYER (object);

  g_clear_object (&self->store);
  g_clear_pointer (&self->painter, tm_series_painter_free);

  G_OBJECT_CLASS (tm_series_layer_parent_class)->finalize (object);
}

static void
tm_series_layer_class_init (TmSeriesLayerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_series_layer_finalize;
  TM_CHART_LAYER_CLASS (klass)->draw = tm_series_layer_draw;
}

static void
tm_series_layer_init (TmSeriesLayer *self)
{
}

TmChartLayer *
tm_series_layer_new (void)
{
  return g_object_new (TM_TYPE_SERIES_LAYER, NULL);
}

void
tm_series_layer_set_store (TmSeriesLayer *self,
                           TmMemoryStore *store)
{
  g_return_if_fail (TM_IS_SERIES_LAYER (self));

  g_set_object (&self->store, store);
}

TmMemoryStore *
tm_series_layer_get_store (TmSeriesLayer *self)
{
  g_return_val_if_fail (TM_IS_SERIES_LAYER (self), NULL);

  return self->store;
}

void
tm_series_layer_set_hidden (TmSeriesLayer *self,
                            guint          hidden)
{
  g_return_if_fail (TM_IS_SERIES_LAYER (self));

  self->hidden = hidden;
}

guint
tm_series_layer_get_hidden (TmSeriesLayer *self)
{
  g_return_val_if_fail (TM_IS_SERIES_LAYER (self), 0);

  return self->hidden;
}
