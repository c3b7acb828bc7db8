/* tm-heap-layer.c — the Memory Viewer's heap over program order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tm-chart-palette.h"
#include "tm-heap-layer.h"

struct _TmHeapLayer
{
  TmChartLayer parent_instance;

  GArray      *heap;
  GArray      *unpadded;
  gint64       add;
};

G_DEFINE_FINAL_TYPE (TmHeapLayer, tm_heap_layer, TM_TYPE_CHART_LAYER)

static inline gint64
value_at (GArray *values,
          guint   i,
          gint64  add)
{
  return (gint64) ((guint64) g_array_index (values, gint64, i) + (guint64) add);
}

/* The largest of values per pixel column of a plot width pixels wide
 * showing points [start, end): a column takes every point that touches
 * it. G_MININT64 where no point does. */
static gint64 *
column_maxima (GArray *values,
               gint64  add,
               double  start,
               double  end,
               guint   width)
{
  gint64 *out = g_new (gint64, width);
  const gint64 *v = (const gint64 *) (gpointer) values->data;
  double per_column = (end - start) / width;
  gint64 n = values->len;

  for (guint c = 0; c < width; c++)
    {
      gint64 p0 = (gint64) floor (start + c * per_column);
      gint64 p1 = (gint64) ceil (start + (c + 1) * per_column) - 1;
      gint64 best = G_MININT64;

      p0 = MAX (p0, 0);
      p1 = MIN (MAX (p1, p0), n - 1);
      for (gint64 p = p0; p <= p1; p++)
        best = MAX (best, v[p]);
      out[c] = best == G_MININT64 ? best : (gint64) ((guint64) best + (guint64) add);
    }
  return out;
}

static void
draw_legend (TmChartCanvas         *canvas,
             const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);
  double x = g->plot.x, y = g->plot.y - 15;
  TmChartRect box;

  tm_chart_canvas_rect (canvas, &palette->series_fill[TM_SERIES_HEAP], x, y - 5, 12, 10);
  tm_chart_canvas_rect (canvas, &palette->series[TM_SERIES_HEAP], x, y - 5, 12, 2);
  box = tm_chart_canvas_label (canvas, _("Heap with padding"), x + 17, y, 0.0, 0.5, &palette->fg, NULL);
  x = box.x + box.width + 18;
  cairo_move_to (cr, x, y);
  cairo_line_to (cr, x + 14, y);
  tm_chart_set_source (cr, &palette->frag);
  cairo_set_line_width (cr, 2);
  cairo_stroke (cr);
  tm_chart_canvas_label (canvas, _("Without padding"), x + 19, y, 0.0, 0.5, &palette->fg, NULL);
}

static void
tm_heap_layer_draw (TmChartLayer          *layer,
                    TmChartCanvas         *canvas,
                    const TmChartGeometry *g)
{
  TmHeapLayer *self = TM_HEAP_LAYER (layer);
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);
  double span = (double) (g->end_ps - g->start_ps);
  guint width = (guint) lround (g->plot.width);
  double bottom = g->plot.y + g->plot.height;
  gboolean started = FALSE;
  g_autofree gint64 *padded = NULL;
  g_autofree gint64 *unpadded = NULL;

  draw_legend (canvas, g);
  if (self->heap->len == 0 || span <= 0 || width == 0 || g->y_max <= 0)
    return;

  cairo_save (cr);
  cairo_rectangle (cr, g->plot.x, g->plot.y, g->plot.width, g->plot.height);
  cairo_clip (cr);
  padded = column_maxima (self->heap, self->add, (double) g->start_ps, (double) g->end_ps, width);
  unpadded = column_maxima (self->unpadded, self->add, (double) g->start_ps, (double) g->end_ps, width);

  /* The padded heap: a rectangle per run of columns of one height, all
   * in one path, then its top edge in another. */
  for (int pass = 0; pass < 2; pass++)
    {
      for (guint c = 0; c < width;)
        {
          gint64 v = padded[c];
          guint run = 1;
          double y;

          while (c + run < width && padded[c + run] == v)
            run++;
          if (v != G_MININT64)
            {
              y = round (tm_chart_geometry_value_to_y (g, (double) v));
              cairo_rectangle (cr, g->plot.x + c, y, run, pass == 0 ? bottom - y : 1.5);
            }
          c += run;
        }
      tm_chart_set_source (cr, pass == 0 ? &palette->series_fill[TM_SERIES_HEAP] : &palette->series[TM_SERIES_HEAP]);
      cairo_fill (cr);
    }

  /* The unpadded heap: a line of steps over the same columns. */
  for (guint c = 0; c < width;)
    {
      gint64 v = unpadded[c];
      guint run = 1;
      double y;

      while (c + run < width && unpadded[c + run] == v)
        run++;
      if (v != G_MININT64)
        {
          y = tm_chart_geometry_value_to_y (g, (double) v);
          if (!started)
            cairo_move_to (cr, g->plot.x + c, y);
          else
            cairo_line_to (cr, g->plot.x + c, y);
          cairo_line_to (cr, g->plot.x + c + run, y);
          started = TRUE;
        }
      c += run;
    }
  tm_chart_set_source (cr, &palette->frag);
  cairo_set_line_width (cr, 1.5);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_BEVEL);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
tm_heap_layer_finalize (GObject *object)
{
  TmHeapLayer *self = TM_HEAP_LAYER (object);

  g_clear_pointer (&self->heap, g_array_unref);
  g_clear_pointer (&self->unpadded, g_array_unref);

  G_OBJECT_CLASS (tm_heap_layer_parent_class)->finalize (object);
}

static void
tm_heap_layer_class_init (TmHeapLayerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_heap_layer_finalize;
  TM_CHART_LAYER_CLASS (klass)->draw = tm_heap_layer_draw;
}

static void
tm_heap_layer_init (TmHeapLayer *self)
{
}

TmChartLayer *
tm_heap_layer_new (GArray *heap,
                   GArray *unpadded,
                   gint64  add)
{
  TmHeapLayer *self;

  g_return_val_if_fail (heap != NULL && unpadded != NULL, NULL);
  g_return_val_if_fail (heap->len == unpadded->len, NULL);

  self = g_object_new (TM_TYPE_HEAP_LAYER, NULL);
  self->heap = g_array_ref (heap);
  self->unpadded = g_array_ref (unpadded);
  self->add = add;
  return TM_CHART_LAYER (self);
}

gint64
tm_heap_layer_get_max (TmHeapLayer *self)
{
  gint64 best = self->add;

  g_return_val_if_fail (TM_IS_HEAP_LAYER (self), 0);

  for (guint i = 0; i < self->heap->len; i++)
    best = MAX (best, value_at (self->heap, i, self->add));
  return best;
}
