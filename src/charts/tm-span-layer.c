/* tm-span-layer.c — spans of time on a chart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tm-chart-palette.h"
#include "tm-span-layer.h"

struct _TmSpanLayer
{
  TmChartLayer  parent_instance;

  TmSpanStyle   style;
  GArray       *spans;       /* TmChartSpan, sorted */
  gboolean      has_color;
  TmChartColor  color;
  int           palette_color;  /* a TmPaletteColor, or -1 */
  char         *label;
};

G_DEFINE_FINAL_TYPE (TmSpanLayer, tm_span_layer, TM_TYPE_CHART_LAYER)

static int
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const TmChartSpan *sa = a, *sb = b;

  if (sa->start_ps != sb->start_ps)
    return sa->start_ps < sb->start_ps ? -1 : 1;
  if (sa->end_ps != sb->end_ps)
    return sa->end_ps < sb->end_ps ? -1 : 1;
  return sa->tag < sb->tag ? -1 : sa->tag > sb->tag;
}

/* The band: modules closer than a pixel merge into one block. */
static void
draw_band (TmSpanLayer           *self,
           TmChartCanvas         *canvas,
           const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  const TmChartRect *band = &g->hlo_band;
  TmChartRect pending = { 0, 0, 0, 0 };
  double last_x1 = -1;
  int last_color = -1;

  if (band->height <= 0)
    return;

  tm_chart_canvas_rect (canvas, &palette->grid, band->x, band->y, band->width, band->height);
  for (guint i = 0; i < self->spans->len; i++)
    {
      const TmChartSpan *s = &g_array_index (self->spans, TmChartSpan, i);
      int color = i % 2;
      double x0, x1;

      if (s->start_ps > g->end_ps)
        break;
      if (s->end_ps < g->start_ps)
        continue;

      x0 = MAX (tm_chart_geometry_time_to_x (g, s->start_ps), band->x);
      x1 = MIN (tm_chart_geometry_time_to_x (g, s->end_ps), band->x + band->width);
      if (x1 - x0 < 1.0)
        x1 = x0 + 1.0;

      if (pending.width > 0 && x0 <= last_x1 + 0.5 &&
          (color == last_color || x1 - x0 < 2.0 || last_x1 - pending.x < 2.0))
        {
          last_x1 = MAX (last_x1, x1);
          pending.width = last_x1 - pending.x;
          continue;
        }
      if (pending.width > 0)
        tm_chart_canvas_rect (canvas, &palette->hlo[last_color], pending.x, pending.y, pending.width, pending.height);
      pending = (TmChartRect) { x0, band->y, x1 - x0, band->height };
      last_x1 = x1;
      last_color = color;
    }
  if (pending.width > 0)
    tm_chart_canvas_rect (canvas, &palette->hlo[last_color], pending.x, pending.y, pending.width, pending.height);
}

/* A lifetime or a range being chosen, over the plot's whole height. */
static void
draw_over_plot (TmSpanLayer           *self,
                TmChartCanvas         *canvas,
                const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  const TmChartRect *p = &g->plot;
  double left = p->x, right = p->x + p->width;

  for (guint i = 0; i < self->spans->len; i++)
    {
      const TmChartSpan *s = &g_array_index (self->spans, TmChartSpan, i);
      double x0 = tm_chart_geometry_time_to_x (g, s->start_ps);
      double x1 = tm_chart_geometry_time_to_x (g, s->end_ps);

      if (self->style == TM_SPAN_HIGHLIGHT)
        {
          if (x1 < left || x0 > right)
            continue;
          x0 = CLAMP (x0, left, right);
          x1 = MAX (CLAMP (x1, left, right), x0 + 1);
          tm_chart_canvas_rect (canvas, &palette->accent_fill, x0, p->y, x1 - x0, p->height);
          tm_chart_canvas_rect (canvas, &palette->accent, x0, p->y, 2, p->height);
          tm_chart_canvas_rect (canvas, &palette->accent, x1 - 2, p->y, 2, p->height);
          tm_chart_canvas_rect (canvas, &palette->accent, x0, p->y, x1 - x0, 3);
        }
      else
        {
          x0 = CLAMP (x0, left, right);
          x1 = CLAMP (x1, left, right);
          tm_chart_canvas_rect (canvas, &palette->accent_fill, x0, p->y, x1 - x0, p->height);
          tm_chart_canvas_rect (canvas, &palette->accent, x0, p->y, 1, p->height);
          tm_chart_canvas_rect (canvas, &palette->accent, x1 - 1, p->y, 1, p->height);
        }
    }
}

/* A level over each span, on the value axis. */
static void
draw_levels (TmSpanLayer           *self,
             TmChartCanvas         *canvas,
             const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  const TmChartColor *color = self->has_color ? &self->color : &palette->fg;
  const TmChartRect *p = &g->plot;
  gboolean labelled = self->label == NULL;
  TmChartColor named;

  if (self->palette_color >= 0)
    {
      tm_chart_palette_get_color ((TmPaletteColor) self->palette_color, palette->dark, &named);
      color = &named;
    }

  if (g->y_max <= 0)
    return;

  for (guint i = 0; i < self->spans->len; i++)
    {
      const TmChartSpan *s = &g_array_index (self->spans, TmChartSpan, i);
      double x0 = MAX (tm_chart_geometry_time_to_x (g, s->start_ps), p->x);
      double x1 = MIN (tm_chart_geometry_time_to_x (g, s->end_ps), p->x + p->width);
      double y = round (tm_chart_geometry_value_to_y (g, (double) s->value));

      if (x1 < x0 || y < p->y || y > p->y + p->height)
        continue;
      tm_chart_canvas_rect (canvas, color, x0, y - 1, MAX (x1 - x0, 1), 2);
      if (!labelled)
        {
          tm_chart_canvas_label (canvas, self->label, x0 + 4, y - 3, 0.0, 1.0, color, &palette->background);
          labelled = TRUE;
        }
    }
}

static void
tm_span_layer_draw (TmChartLayer          *layer,
                    TmChartCanvas         *canvas,
                    const TmChartGeometry *geometry)
{
  TmSpanLayer *self = TM_SPAN_LAYER (layer);

  if (self->spans->len == 0)
    return;

  switch (self->style)
    {
    case TM_SPAN_BAND:
      draw_band (self, canvas, geometry);
      break;
    case TM_SPAN_LEVEL:
      draw_levels (self, canvas, geometry);
      break;
    case TM_SPAN_HIGHLIGHT:
    case TM_SPAN_SELECTION:
    default:
      draw_over_plot (self, canvas, geometry);
      break;
    }
}

/* Over the plot, each span's columns (and its edges); the band and the
 * levels may be anywhere. */
static gboolean
tm_span_layer_get_regions (TmChartLayer          *layer,
                           TmChartCanvas         *canvas,
                           const TmChartGeometry *g,
                           GArray                *regions)
{
  TmSpanLayer *self = TM_SPAN_LAYER (layer);
  double left = g->plot.x, right = g->plot.x + g->plot.width;

  if (self->style == TM_SPAN_BAND || self->style == TM_SPAN_LEVEL)
    return FALSE;
  for (guint i = 0; i < self->spans->len; i++)
    {
      const TmChartSpan *s = &g_array_index (self->spans, TmChartSpan, i);
      double x0 = CLAMP (tm_chart_geometry_time_to_x (g, s->start_ps), left, right);
      double x1 = CLAMP (tm_chart_geometry_time_to_x (g, s->end_ps), left, right);
      TmChartRect r = { floor (x0) - 2, g->plot.y - 1, ceil (x1) - floor (x0) + 4, g->plot.height + 2 };

      g_array_append_val (regions, r);
    }
  return TRUE;
}

static void
tm_span_layer_finalize (GObject *object)
{
  TmSpanLayer *self = TM_SPAN_LAYER (object);

  g_clear_pointer (&self->spans, g_array_unref);
  g_clear_pointer (&self->label, g_free);

  G_OBJECT_CLASS (tm_span_layer_parent_class)->finalize (object);
}

static void
tm_span_layer_class_init (TmSpanLayerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_span_layer_finalize;
  TM_CHART_LAYER_CLASS (klass)->draw = tm_span_layer_draw;
  TM_CHART_LAYER_CLASS (klass)->get_regions = tm_span_layer_get_regions;
}

static void
tm_span_layer_init (TmSpanLayer *self)
{
  self->spans = g_array_new (FALSE, FALSE, sizeof (TmChartSpan));
  self->palette_color = -1;
}

TmChartLayer *
tm_span_layer_new (TmSpanStyle style)
{
  TmSpanLayer *self = g_object_new (TM_TYPE_SPAN_LAYER, NULL);

  self->style = style;
  return TM_CHART_LAYER (self);
}

void
tm_span_layer_set_spans (TmSpanLayer       *self,
                         const TmChartSpan *spans,
                         guint              n)
{
  g_return_if_fail (TM_IS_SPAN_LAYER (self));
  g_return_if_fail (spans != NULL || n == 0);

  g_array_set_size (self->spans, 0);
  for (guint i = 0; i < n; i++)
    {
      TmChartSpan s = spans[i];

      s.end_ps = MAX (s.end_ps, s.start_ps);
      g_array_append_val (self->spans, s);
    }
  g_array_sort (self->spans, compare_spans);
}

const TmChartSpan *
tm_span_layer_get_spans (TmSpanLayer *self,
                         guint       *n)
{
  g_return_val_if_fail (TM_IS_SPAN_LAYER (self), NULL);
  g_return_val_if_fail (n != NULL, NULL);

  *n = self->spans->len;
  return (const TmChartSpan *) self->spans->data;
}

guint
tm_span_layer_get_n_spans (TmSpanLayer *self)
{
  g_return_val_if_fail (TM_IS_SPAN_LAYER (self), 0);

  return self->spans->len;
}

void
tm_span_layer_set_color (TmSpanLayer        *self,
                         const TmChartColor *color)
{
  g_return_if_fail (TM_IS_SPAN_LAYER (self));

  self->has_color = color != NULL;
  if (color != NULL)
    self->color = *color;
}

void
tm_span_layer_set_palette_color (TmSpanLayer *self,
                                 int          color)
{
  g_return_if_fail (TM_IS_SPAN_LAYER (self));

  self->palette_color = color;
}

void
tm_span_layer_set_label (TmSpanLayer *self,
                         const char  *label)
{
  g_return_if_fail (TM_IS_SPAN_LAYER (self));

  g_free (self->label);
  self->label = g_strdup (label);
}

guint
tm_span_layer_item_at (TmSpanLayer           *self,
                       const TmChartGeometry *g,
                       double                 x,
                       double                 y)
{
  gint64 t;

  g_return_val_if_fail (TM_IS_SPAN_LAYER (self), TM_SPAN_NONE);
  g_return_val_if_fail (g != NULL, TM_SPAN_NONE);

  if (x < g->plot.x || x > g->plot.x + g->plot.width)
    return TM_SPAN_NONE;
  if (self->style == TM_SPAN_BAND)
    {
      if (g->hlo_band.height <= 0 || y < g->hlo_band.y - 2 || y > g->hlo_band.y + g->hlo_band.height + 2)
        return TM_SPAN_NONE;
    }
  else if (y < g->plot.y || y > g->plot.y + g->plot.height)
    return TM_SPAN_NONE;

  t = tm_chart_geometry_x_to_time (g, x);
  for (guint i = 0; i < self->spans->len; i++)
    {
      const TmChartSpan *s = &g_array_index (self->spans, TmChartSpan, i);

      if (s->start_ps > t)
        break;
      if (s->end_ps < t)
        continue;
      /* A level only near its line, as drawn (2 px, rounded). */
      if (self->style == TM_SPAN_LEVEL &&
          fabs (y - round (tm_chart_geometry_value_to_y (g, (double) s->value))) > TM_SPAN_LEVEL_REACH)
        continue;
      return s->tag;
    }
  return TM_SPAN_NONE;
}
