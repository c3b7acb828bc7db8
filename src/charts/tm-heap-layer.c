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

/* Adds to cr's path the region under the steps of column values (one
 * polygon per stretch of columns with data), its steps moved dx right and
 * dy down; the left edge stays, the bottom moves down with them. */
static void
add_steps (cairo_t               *cr,
           const TmChartGeometry *g,
           const gint64          *values,
           guint                  width,
           double                 dx,
           double                 dy)
{
  double bottom = g->plot.y + g->plot.height + dy;
  gboolean open = FALSE;

  for (guint c = 0; c < width;)
    {
      gint64 v = values[c];
      guint run = 1;
      double y;

      while (c + run < width && values[c + run] == v)
        run++;
      if (v == G_MININT64)
        {
          if (open)
            {
              cairo_line_to (cr, g->plot.x + c + dx, bottom);
              cairo_close_path (cr);
            }
          open = FALSE;
          c += run;
          continue;
        }
      y = round (tm_chart_geometry_value_to_y (g, (double) v)) + dy;
      if (!open)
        {
          cairo_move_to (cr, g->plot.x + c, bottom);
          cairo_line_to (cr, g->plot.x + c, y);
          open = TRUE;
        }
      else
        cairo_line_to (cr, g->plot.x + c + dx, y);
      cairo_line_to (cr, g->plot.x + c + run + dx, y);
      c += run;
    }
  if (open)
    {
      cairo_line_to (cr, g->plot.x + width + dx, bottom);
      cairo_close_path (cr);
    }
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

  /* The padded heap's area; then its top edge, and the unpadded heap, as
   * lines of steps: what lies between the area and the area moved right
   * and down by the line's width (even-odd), so risers have that width
   * too. Whole polygons of axis-aligned edges, which cairo fills fast
   * however many columns there are. */
  add_steps (cr, g, padded, width, 0, 0);
  tm_chart_set_source (cr, &palette->series_fill[TM_SERIES_HEAP]);
  cairo_fill (cr);
  cairo_set_fill_rule (cr, CAIRO_FILL_RULE_EVEN_ODD);
  add_steps (cr, g, padded, width, 0, 0);
  add_steps (cr, g, padded, width, 1.5, 1.5);
  tm_chart_set_source (cr, &palette->series[TM_SERIES_HEAP]);
  cairo_fill (cr);
  add_steps (cr, g, unpadded, width, -1, -1);
  add_steps (cr, g, unpadded, width, 1, 1);
  tm_chart_set_source (cr, &palette->frag);
  cairo_fill (cr);
  cairo_set_fill_rule (cr, CAIRO_FILL_RULE_WINDING);
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
