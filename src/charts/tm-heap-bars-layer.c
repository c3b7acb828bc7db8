/* tm-heap-bars-layer.c — the buffers live at the peak as bars
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tm-chart-palette.h"
#include "tm-heap-bars-layer.h"

#define BAR_HEIGHT 22
#define TITLE_GAP 4
#define ROW_GAP 10

struct _TmHeapBarsLayer
{
  TmChartLayer parent_instance;

  GArray      *sizes;
  GArray      *padding;
  GArray      *colors;
  GArray      *orders[TM_HEAP_BARS_N];
  GArray      *lit;
  guint        selected;
};

G_DEFINE_FINAL_TYPE (TmHeapBarsLayer, tm_heap_bars_layer, TM_TYPE_CHART_LAYER)

static const char *
title (TmHeapBarsKind kind)
{
  switch (kind)
    {
    case TM_HEAP_BARS_ORDER:
      return _("By program order");
    case TM_HEAP_BARS_SIZE:
      return _("By size");
    case TM_HEAP_BARS_PADDING:
      return _("By padding");
    case TM_HEAP_BARS_N:
    default:
      g_assert_not_reached ();
    }
}

static int
title_height (TmChartCanvas *canvas)
{
  int height;

  tm_chart_canvas_measure (canvas, _("By program order"), NULL, &height);
  return height;
}

int
tm_heap_bars_layer_get_height (TmChartCanvas *canvas)
{
  return TM_HEAP_BARS_N * (title_height (canvas) + TITLE_GAP + BAR_HEIGHT) + (TM_HEAP_BARS_N - 1) * ROW_GAP;
}

static GArray *
values_of (TmHeapBarsLayer *self,
           TmHeapBarsKind   kind)
{
  return kind == TM_HEAP_BARS_PADDING ? self->padding : self->sizes;
}

static gboolean
has_bytes (TmHeapBarsLayer *self,
           TmHeapBarsKind   kind)
{
  GArray *values = values_of (self, kind);

  for (guint k = 0; k < values->len; k++)
    if (g_array_index (values, gint64, k) > 0)
      return TRUE;
  return FALSE;
}

/* Calls func for each segment of a bar: its object and its extent
 * [x0, x1), at least a pixel; returns FALSE when func stops. */
typedef gboolean (*SegmentFunc) (guint   object,
                                 double  x0,
                                 double  x1,
                                 gpointer data);

static void
walk_bar (TmHeapBarsLayer *self,
          TmHeapBarsKind   kind,
          double           x,
          double           width,
          SegmentFunc      func,
          gpointer         data)
{
  GArray *values = values_of (self, kind);
  GArray *order = self->orders[kind];
  double total = 0, done = 0, last = x;
  guint n = self->sizes->len;

  for (guint k = 0; k < n; k++)
    total += (double) MAX (g_array_index (values, gint64, k), 0);
  if (total <= 0)
    return;
  for (guint k = 0; k < n; k++)
    {
      guint object = order != NULL ? g_array_index (order, guint, k) : k;
      double v = (double) MAX (g_array_index (values, gint64, object), 0);
      double x1;

      if (v <= 0)
        continue;
      done += v;
      x1 = MAX (x + done / total * width, last + 1);
      if (!func (object, last, x1, data))
        return;
      last = x1;
    }
}

typedef struct
{
  TmHeapBarsLayer      *self;
  TmChartCanvas        *canvas;
  const TmChartPalette *palette;
  double                y;
  double                selected_x0;
  double                selected_x1;
} DrawData;

static gboolean
draw_segment (guint    object,
              double   x0,
              double   x1,
              gpointer data)
{
  DrawData *d = data;
  guint32 rgb = g_array_index (d->self->colors, guint32, object);
  TmChartColor color = { ((rgb >> 16) & 0xff) / 255.0f, ((rgb >> 8) & 0xff) / 255.0f, (rgb & 0xff) / 255.0f, 1.0f };

  if (d->self->lit != NULL && !g_array_index (d->self->lit, guint8, object))
    color.alpha = 0.25f;
  tm_chart_canvas_rect (d->canvas, &color, x0, d->y, x1 - x0, BAR_HEIGHT);
  /* A thin gap between wide segments. */
  if (x1 - x0 >= 4)
    tm_chart_canvas_rect (d->canvas, &d->palette->background, x1 - 1, d->y, 1, BAR_HEIGHT);
  if (object == d->self->selected)
    {
      d->selected_x0 = x0;
      d->selected_x1 = x1;
    }
  return TRUE;
}

static void
tm_heap_bars_layer_draw (TmChartLayer          *layer,
                         TmChartCanvas         *canvas,
                         const TmChartGeometry *g)
{
  TmHeapBarsLayer *self = TM_HEAP_BARS_LAYER (layer);
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);
  int th = title_height (canvas);
  double y = g->plot.y;

  for (guint kind = 0; kind < TM_HEAP_BARS_N; kind++)
    {
      DrawData d = { self, canvas, palette, 0, -1, -1 };

      tm_chart_canvas_label (canvas, title (kind), g->plot.x, y, 0.0, 0.0, &palette->dim, NULL);
      d.y = y + th + TITLE_GAP;
      tm_chart_canvas_rect (canvas, &palette->grid, g->plot.x, d.y, g->plot.width, BAR_HEIGHT);
      if (!has_bytes (self, kind))
        tm_chart_canvas_label (canvas, kind == TM_HEAP_BARS_PADDING ? _("No padding") : _("Nothing"),
                               g->plot.x + 8, d.y + BAR_HEIGHT / 2.0, 0.0, 0.5, &palette->dim, NULL);
      walk_bar (self, kind, g->plot.x, g->plot.width, draw_segment, &d);
      if (d.selected_x1 > d.selected_x0)
        {
          cairo_rectangle (cr, d.selected_x0 + 1, d.y + 1, MAX (d.selected_x1 - d.selected_x0 - 2, 1), BAR_HEIGHT - 2);
          tm_chart_set_source (cr, &palette->fg);
          cairo_set_line_width (cr, 2);
          cairo_stroke (cr);
        }
      y = d.y + BAR_HEIGHT + ROW_GAP;
    }
}

typedef struct
{
  double x;
  guint  found;
} HitData;

static gboolean
hit_segment (guint    object,
             double   x0,
             double   x1,
             gpointer data)
{
  HitData *h = data;

  if (h->x >= x0 && h->x < x1)
    {
      h->found = object;
      return FALSE;
    }
  return TRUE;
}

guint
tm_heap_bars_layer_object_at (TmHeapBarsLayer       *self,
                              TmChartCanvas         *canvas,
                              const TmChartGeometry *g,
                              double                 x,
                              double                 y,
                              TmHeapBarsKind        *kind)
{
  int th;
  double row_y = g->plot.y;

  g_return_val_if_fail (TM_IS_HEAP_BARS_LAYER (self), G_MAXUINT);

  th = title_height (canvas);
  for (guint k = 0; k < TM_HEAP_BARS_N; k++)
    {
      double bar_y = row_y + th + TITLE_GAP;
      HitData h = { x, G_MAXUINT };

      if (y >= bar_y && y < bar_y + BAR_HEIGHT)
        {
          walk_bar (self, k, g->plot.x, g->plot.width, hit_segment, &h);
          if (kind != NULL)
            *kind = k;
          return h.found;
        }
      row_y = bar_y + BAR_HEIGHT + ROW_GAP;
    }
  return G_MAXUINT;
}

static void
tm_heap_bars_layer_finalize (GObject *object)
{
  TmHeapBarsLayer *self = TM_HEAP_BARS_LAYER (object);

  g_clear_pointer (&self->sizes, g_array_unref);
  g_clear_pointer (&self->padding, g_array_unref);
  g_clear_pointer (&self->colors, g_array_unref);
  for (guint k = 0; k < TM_HEAP_BARS_N; k++)
    g_clear_pointer (&self->orders[k], g_array_unref);
  g_clear_pointer (&self->lit, g_array_unref);

  G_OBJECT_CLASS (tm_heap_bars_layer_parent_class)->finalize (object);
}

static void
tm_heap_bars_layer_class_init (TmHeapBarsLayerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_heap_bars_layer_finalize;
  TM_CHART_LAYER_CLASS (klass)->draw = tm_heap_bars_layer_draw;
}

static void
tm_heap_bars_layer_init (TmHeapBarsLayer *self)
{
  self->selected = G_MAXUINT;
}

TmChartLayer *
tm_heap_bars_layer_new (GArray *sizes,
                        GArray *padding,
                        GArray *colors,
                        GArray *by_size,
                        GArray *by_padding)
{
  TmHeapBarsLayer *self;

  g_return_val_if_fail (sizes != NULL && padding != NULL && colors != NULL, NULL);
  g_return_val_if_fail (by_size != NULL && by_padding != NULL, NULL);
  g_return_val_if_fail (padding->len == sizes->len && colors->len == sizes->len, NULL);
  g_return_val_if_fail (by_size->len == sizes->len && by_padding->len == sizes->len, NULL);

  self = g_object_new (TM_TYPE_HEAP_BARS_LAYER, NULL);
  self->sizes = g_array_ref (sizes);
  self->padding = g_array_ref (padding);
  self->colors = g_array_ref (colors);
  self->orders[TM_HEAP_BARS_SIZE] = g_array_ref (by_size);
  self->orders[TM_HEAP_BARS_PADDING] = g_array_ref (by_padding);
  return TM_CHART_LAYER (self);
}

void
tm_heap_bars_layer_set_selected (TmHeapBarsLayer *self,
                                 guint            object)
{
  g_return_if_fail (TM_IS_HEAP_BARS_LAYER (self));

  self->selected = object;
}

void
tm_heap_bars_layer_set_lit (TmHeapBarsLayer *self,
                            GArray          *lit)
{
  g_return_if_fail (TM_IS_HEAP_BARS_LAYER (self));
  g_return_if_fail (lit == NULL || lit->len == self->sizes->len);

  g_clear_pointer (&self->lit, g_array_unref);
  if (lit != NULL)
    self->lit = g_array_ref (lit);
}
