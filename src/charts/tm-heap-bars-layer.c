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

/* The object that owns each of a bar's width pixel columns (G_MAXUINT:
 * none): every object's share of the bar, [x0, x1) in pixels, touches
 * the columns it covers, and the largest of those that touch a column
 * owns it (the first of equals), as the memory map's painter lets the
 * largest own a pixel, so that every object shows at any count. */
static guint *
bar_owners (TmHeapBarsLayer *self,
            TmHeapBarsKind   kind,
            guint            width)
{
  GArray *values = values_of (self, kind);
  GArray *order = self->orders[kind];
  guint *owners = g_new (guint, MAX (width, 1));
  double total = 0, done = 0;
  guint n = self->sizes->len;

  for (guint c = 0; c < width; c++)
    owners[c] = G_MAXUINT;
  for (guint k = 0; k < n; k++)
    total += (double) MAX (g_array_index (values, gint64, k), 0);
  if (total <= 0 || width == 0)
    return owners;
  for (guint k = 0; k < n; k++)
    {
      guint object = order != NULL ? g_array_index (order, guint, k) : k;
      gint64 v = MAX (g_array_index (values, gint64, object), 0);
      double x0, x1;
      guint c0, c1;

      if (v <= 0)
        continue;
      x0 = done / total * width;
      done += (double) v;
      x1 = done / total * width;
      c0 = (guint) MIN (floor (x0), (double) width - 1);
      c1 = (guint) MAX ((double) c0, MIN (ceil (x1), (double) width) - 1);
      for (guint c = c0; c <= c1; c++)
        if (owners[c] == G_MAXUINT || v > g_array_index (values, gint64, owners[c]))
          owners[c] = object;
    }
  return owners;
}

typedef struct
{
  guint32 key;     /* colour and whether lit */
  guint   x;
  guint   width;
} Run;

static int
compare_runs (gconstpointer a,
              gconstpointer b)
{
  guint32 x = ((const Run *) a)->key, y = ((const Run *) b)->key;

  return x < y ? -1 : x > y;
}

/* On a vector canvas: the runs filled one colour at a time. */
static void
draw_bar_rects (cairo_t               *cr,
                const TmChartGeometry *g,
                GArray                *runs,
                double                 y)
{
  g_array_sort (runs, compare_runs);
  for (guint i = 0; i < runs->len;)
    {
      guint32 key = g_array_index (runs, Run, i).key, rgb = key >> 1;
      TmChartColor color = { ((rgb >> 16) & 0xff) / 255.0f, ((rgb >> 8) & 0xff) / 255.0f, (rgb & 0xff) / 255.0f,
                             (key & 1) ? 1.0f : 0.25f };

      for (; i < runs->len && g_array_index (runs, Run, i).key == key; i++)
        cairo_rectangle (cr, g->plot.x + g_array_index (runs, Run, i).x, y, g_array_index (runs, Run, i).width,
                         BAR_HEIGHT);
      tm_chart_set_source (cr, &color);
      cairo_fill (cr);
    }
}

/* On a raster canvas: one row of pixels, the runs' colours (a faded one
 * a quarter over the background), stretched to the bar's height. */
static void
draw_bar_image (TmHeapBarsLayer       *self,
                const TmChartPalette  *palette,
                cairo_t               *cr,
                const TmChartGeometry *g,
                GArray                *runs,
                guint                  width,
                double                 y)
{
  cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) MAX (width, 1), 1);
  guint32 *row = (guint32 *) (gpointer) cairo_image_surface_get_data (image);
  cairo_pattern_t *pattern;

  for (guint i = 0; i < runs->len; i++)
    {
      const Run *r = &g_array_index (runs, Run, i);
      guint32 rgb = r->key >> 1, pixel = 0xff000000u | rgb;

      if (!(r->key & 1))
        {
          /* Premultiplied, a quarter opaque. */
          pixel = 0x40000000u | ((((rgb >> 16) & 0xff) / 4) << 16) | ((((rgb >> 8) & 0xff) / 4) << 8) |
                  ((rgb & 0xff) / 4);
        }
      for (guint x = r->x; x < r->x + r->width && x < width; x++)
        row[x] = pixel;
    }
  cairo_surface_mark_dirty (image);
  cairo_save (cr);
  cairo_translate (cr, g->plot.x, y);
  cairo_scale (cr, 1, BAR_HEIGHT);
  cairo_set_source_surface (cr, image, 0, 0);
  pattern = cairo_get_source (cr);
  cairo_pattern_set_filter (pattern, CAIRO_FILTER_NEAREST);
  cairo_pattern_set_extend (pattern, CAIRO_EXTEND_PAD);
  cairo_rectangle (cr, 0, 0, width, 1);
  cairo_fill (cr);
  cairo_restore (cr);
  cairo_surface_destroy (image);
}

/* A bar at y: its runs of one owner. */
static void
draw_bar (TmHeapBarsLayer       *self,
          TmChartCanvas         *canvas,
          const TmChartGeometry *g,
          TmHeapBarsKind         kind,
          double                 y)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);
  guint width = (guint) MAX (lround (g->plot.width), 0);
  g_autofree guint *owners = bar_owners (self, kind, width);
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (Run));
  guint selected_x0 = 0, selected_x1 = 0;

  for (guint c = 0; c < width;)
    {
      guint object = owners[c];
      Run run = { 0, c, 1 };

      while (c + run.width < width && owners[c + run.width] == object)
        run.width++;
      c += run.width;
      if (object == G_MAXUINT)
        continue;
      run.key = (g_array_index (self->colors, guint32, object) << 1) |
                (self->lit == NULL || g_array_index (self->lit, guint8, object));
      g_array_append_val (runs, run);
      if (object == self->selected)
        {
          selected_x0 = selected_x1 > selected_x0 ? selected_x0 : run.x;
          selected_x1 = run.x + run.width;
        }
    }

  if (!tm_chart_canvas_is_vector (canvas))
    draw_bar_image (self, palette, cr, g, runs, width, y);
  else
    draw_bar_rects (cr, g, runs, y);
  /* A thin gap at the end of wide segments. */
  for (guint i = 0; i < runs->len; i++)
    if (g_array_index (runs, Run, i).width >= 4)
      cairo_rectangle (cr, g->plot.x + g_array_index (runs, Run, i).x + g_array_index (runs, Run, i).width - 1, y, 1,
                       BAR_HEIGHT);
  tm_chart_set_source (cr, &palette->background);
  cairo_fill (cr);

  if (selected_x1 > selected_x0)
    {
      cairo_rectangle (cr, g->plot.x + selected_x0 + 1, y + 1, MAX ((double) (selected_x1 - selected_x0) - 2, 1),
                       BAR_HEIGHT - 2);
      tm_chart_set_source (cr, &palette->fg);
      cairo_set_line_width (cr, 2);
      cairo_stroke (cr);
    }
}

static void
tm_heap_bars_layer_draw (TmChartLayer          *layer,
                         TmChartCanvas         *canvas,
                         const TmChartGeometry *g)
{
  TmHeapBarsLayer *self = TM_HEAP_BARS_LAYER (layer);
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  int th = title_height (canvas);
  double y = g->plot.y;

  for (guint kind = 0; kind < TM_HEAP_BARS_N; kind++)
    {
      double bar_y = y + th + TITLE_GAP;

      tm_chart_canvas_label (canvas, title (kind), g->plot.x, y, 0.0, 0.0, &palette->dim, NULL);
      tm_chart_canvas_rect (canvas, &palette->grid, g->plot.x, bar_y, g->plot.width, BAR_HEIGHT);
      if (!has_bytes (self, kind))
        tm_chart_canvas_label (canvas, kind == TM_HEAP_BARS_PADDING ? _("No padding") : _("Nothing"),
                               g->plot.x + 8, bar_y + BAR_HEIGHT / 2.0, 0.0, 0.5, &palette->dim, NULL);
      draw_bar (self, canvas, g, kind, bar_y);
      y = bar_y + BAR_HEIGHT + ROW_GAP;
    }
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
  guint width;

  g_return_val_if_fail (TM_IS_HEAP_BARS_LAYER (self), G_MAXUINT);

  th = title_height (canvas);
  width = (guint) MAX (lround (g->plot.width), 0);
  for (guint k = 0; k < TM_HEAP_BARS_N; k++)
    {
      double bar_y = row_y + th + TITLE_GAP;

      if (y >= bar_y && y < bar_y + BAR_HEIGHT && x >= g->plot.x && x < g->plot.x + width)
        {
          g_autofree guint *owners = bar_owners (self, k, width);

          if (kind != NULL)
            *kind = k;
          return owners[(guint) (x - g->plot.x)];
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
