/* tm-line-layer.c — the timeline's fragmentation line on its 0–100 % axis
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tm-chart-palette.h"
#include "tm-line-layer.h"
#include "tm-series-painter.h"

struct _TmLineLayer
{
  TmChartLayer   parent_instance;

  TmMemoryStore *store;
};

G_DEFINE_FINAL_TYPE (TmLineLayer, tm_line_layer, TM_TYPE_CHART_LAYER)

/* Rows [a, b) of columns [x, x + run) in color. */
static void
fill_rows (cairo_t               *cr,
           const TmChartGeometry *g,
           const TmChartColor    *color,
           int                    x,
           int                    run,
           int                    a,
           int                    b)
{
  if (b <= a)
    return;
  cairo_rectangle (cr, g->plot.x + x, g->plot.y + a, run, b - a);
  tm_chart_set_source (cr, color);
  cairo_fill (cr);
}

static gboolean
same_rows (const TmSeriesColumn *a,
           const TmSeriesColumn *b)
{
  return a->frag_top == b->frag_top && a->frag_bottom == b->frag_bottom &&
         a->band_top == b->band_top && a->band_bottom == b->band_bottom && a->band_drawn == b->band_drawn;
}

static void
tm_line_layer_draw (TmChartLayer          *layer,
                    TmChartCanvas         *canvas,
                    const TmChartGeometry *g)
{
  TmLineLayer *self = TM_LINE_LAYER (layer);
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);
  int width = (int) lround (g->plot.width), height = (int) lround (g->plot.height);
  g_autofree TmLodBucket *buckets = NULL;
  g_autofree TmSeriesColumn *columns = NULL;
  int prev_top = -1, prev_bottom = -1;
  TmChartColor faint;
  TmLod *lod;

  if (self->store == NULL || width <= 0 || height <= 0 || g->y_max <= 0 ||
      (lod = tm_memory_store_get_lod (self->store)) == NULL)
    return;

  /* Dense fragmentation is a hatch the series show through. */
  faint = palette->frag;
  faint.alpha *= TM_SERIES_BAND_ALPHA;

  buckets = g_new (TmLodBucket, width);
  columns = g_new (TmSeriesColumn, width);
  tm_lod_query_columns (lod, g->start_ps, g->end_ps, width, buckets);
  for (int x = 0; x < width; x++)
    if (!tm_series_painter_column (&buckets[x], x, height, 1, g->y_max, FALSE, FALSE, 0,
                                   &prev_top, &prev_bottom, &columns[x]))
      columns[x].frag_top = -1;

  for (int x = 0; x < width;)
    {
      const TmSeriesColumn *c = &columns[x];
      int run = 1;

      if (c->frag_top < 0)
        {
          x++;
          continue;
        }
      while (x + run < width && same_rows (c, &columns[x + run]))
        run++;
      /* Edge, band, edge (the band empty for a line). */
      fill_rows (cr, g, &palette->frag, x, run, c->frag_top, c->band_top);
      if (c->band_drawn)
        fill_rows (cr, g, &faint, x, run, c->band_top, c->band_bottom);
      fill_rows (cr, g, &palette->frag, x, run, MAX (c->band_bottom, c->frag_top), c->frag_bottom);
      x += run;
    }
}

static void
tm_line_layer_finalize (GObject *object)
{
  TmLineLayer *self = TM_LINE_LAYER (object);

  g_clear_object (&self->store);

  G_OBJECT_CLASS (tm_line_layer_parent_class)->finalize (object);
}

static void
tm_line_layer_class_init (TmLineLayerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_line_layer_finalize;
  TM_CHART_LAYER_CLASS (klass)->draw = tm_line_layer_draw;
}

static void
tm_line_layer_init (TmLineLayer *self)
{
}

TmChartLayer *
tm_line_layer_new (void)
{
  return g_object_new (TM_TYPE_LINE_LAYER, NULL);
}

void
tm_line_layer_set_store (TmLineLayer   *self,
                         TmMemoryStore *store)
{
  g_return_if_fail (TM_IS_LINE_LAYER (self));

  g_set_object (&self->store, store);
}
