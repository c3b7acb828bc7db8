/* tm-trace-layer.c — one value per snapshot of a memory store, as a line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tm-chart-palette.h"
#include "tm-trace-layer.h"

struct _TmTraceLayer
{
  TmChartLayer   parent_instance;

  TmMemoryStore *store;
  GBytes        *values;
  char          *name;
  char          *label;
};

G_DEFINE_FINAL_TYPE (TmTraceLayer, tm_trace_layer, TM_TYPE_CHART_LAYER)

static void
tm_trace_layer_draw (TmChartLayer          *layer,
                     TmChartCanvas         *canvas,
                     const TmChartGeometry *g)
{
  TmTraceLayer *self = TM_TRACE_LAYER (layer);
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);
  const TmChartRect *plot = &g->plot;
  const gint64 *values, *times;
  TmChartColor color, outline;
  guint n, first;
  gsize size;
  int last_col = -1;
  double col_max = 0;
  gboolean drawing = FALSE;

  if (self->store == NULL || self->values == NULL || g->y_max <= 0)
    return;
  values = g_bytes_get_data (self->values, &size);
  n = tm_memory_store_get_n_snapshots (self->store);
  if (size < n * sizeof (gint64))
    return;
  times = tm_memory_store_get_times (self->store);
  first = tm_memory_store_find_at_or_before (self->store, g->start_ps);

  tm_chart_palette_color_for_name (self->name, palette->dark, &color);
  cairo_save (cr);
  cairo_rectangle (cr, plot->x, plot->y, plot->width, plot->height);
  cairo_clip (cr);
  cairo_set_line_width (cr, 2.0);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);

  /* A step line: each value holds until the next snapshot. */
  for (guint i = first; i < n; i++)
    {
      double x = MAX (tm_chart_geometry_time_to_x (g, times[i]), plot->x);
      double y = plot->y + plot->height * (1.0 - (double) values[i] / (double) g->y_max);
      int col = (int) floor (x);

      if (!drawing)
        {
          cairo_move_to (cr, x, y);
          drawing = TRUE;
          last_col = col;
          col_max = y;
        }
      else if (col != last_col)
        {
          cairo_line_to (cr, last_col + 0.5, col_max);
          cairo_line_to (cr, x, col_max);
          last_col = col;
          col_max = y;
        }
      else
        col_max = MIN (col_max, y);  /* the largest value is the smallest y */
      if (times[i] > g->end_ps)
        break;
    }
  if (drawing)
    {
      cairo_line_to (cr, last_col + 0.5, col_max);
      cairo_line_to (cr, plot->x + plot->width, col_max);
    }
  outline = palette->fg;
  outline.alpha = 0.7f;
  tm_chart_set_source (cr, &outline);
  cairo_set_line_width (cr, 4.0);
  cairo_stroke_preserve (cr);
  tm_chart_set_source (cr, &color);
  cairo_set_line_width (cr, 2.0);
  cairo_stroke (cr);
  cairo_restore (cr);

  if (self->label != NULL)
    tm_chart_canvas_label (canvas, self->label, plot->x + 6, plot->y + 4, 0.0, 0.0,
                           &palette->fg, &palette->background);
}

static void
tm_trace_layer_finalize (GObject *object)
{
  TmTraceLayer *self = TM_TRACE_LAYER (object);

  g_clear_object (&self->store);
  g_clear_pointer (&self->values, g_bytes_unref);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->label, g_free);

  G_OBJECT_CLASS (tm_trace_layer_parent_class)->finalize (object);
}

static void
tm_trace_layer_class_init (TmTraceLayerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_trace_layer_finalize;
  TM_CHART_LAYER_CLASS (klass)->draw = tm_trace_layer_draw;
}

static void
tm_trace_layer_init (TmTraceLayer *self)
{
}

TmChartLayer *
tm_trace_layer_new (void)
{
  return g_object_new (TM_TYPE_TRACE_LAYER, NULL);
}

void
tm_trace_layer_set_data (TmTraceLayer  *self,
                         TmMemoryStore *store,
                         GBytes        *values)
{
  g_return_if_fail (TM_IS_TRACE_LAYER (self));

  if (store == NULL || values == NULL)
    {
      g_clear_object (&self->store);
      g_clear_pointer (&self->values, g_bytes_unref);
      return;
    }
  g_set_object (&self->store, store);
  g_bytes_ref (values);
  g_clear_pointer (&self->values, g_bytes_unref);
  self->values = values;
}

void
tm_trace_layer_set_name (TmTraceLayer *self,
                         const char   *name,
                         const char   *label)
{
  g_return_if_fail (TM_IS_TRACE_LAYER (self));

  g_free (self->name);
  g_free (self->label);
  self->name = g_strdup (name);
  self->label = g_strdup (label);
}

gboolean
tm_trace_layer_has_data (TmTraceLayer *self)
{
  g_return_val_if_fail (TM_IS_TRACE_LAYER (self), FALSE);

  return self->store != NULL && self->values != NULL;
}
