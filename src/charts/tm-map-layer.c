/* tm-map-layer.c — the memory map's allocations as rectangles
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tm-alloc-raster.h"
#include "tm-chart-axes.h"
#include "tm-chart-palette.h"
#include "tm-format.h"
#include "tm-map-layer.h"

struct _TmMapLayer
{
  TmChartLayer   parent_instance;

  TmAllocations *allocations;
  double         y0;
  double         y1;
};

G_DEFINE_FINAL_TYPE (TmMapLayer, tm_map_layer, TM_TYPE_CHART_LAYER)

static void
hsv_to_rgb (float  h,
            float  s,
            float  v,
            float *r,
            float *g,
            float *b)
{
  float f, p, q, t;
  int i;

  h = fmodf (h, 1.0f) * 6.0f;
  i = (int) floorf (h);
  f = h - (float) i;
  p = v * (1.0f - s);
  q = v * (1.0f - s * f);
  t = v * (1.0f - s * (1.0f - f));
  switch (i)
    {
    case 0: *r = v; *g = t; *b = p; break;
    case 1: *r = q; *g = v; *b = p; break;
    case 2: *r = p; *g = v; *b = t; break;
    case 3: *r = p; *g = q; *b = v; break;
    case 4: *r = t; *g = p; *b = v; break;
    default: *r = v; *g = p; *b = q; break;
    }
}

void
tm_map_layer_name_color (const char   *name,
                         gboolean      dark,
                         TmChartColor *out)
{
  guint h;

  g_return_if_fail (name != NULL && out != NULL);

  out->alpha = 1.0f;
  if (name[0] == '\0')
    {
      out->red = out->green = dark ? 0.45f : 0.62f;
      out->blue = dark ? 0.48f : 0.65f;
      return;
    }
  h = g_str_hash (name);
  hsv_to_rgb ((float) (h % 360) / 360.0f,
              dark ? 0.55f : 0.60f + (float) ((h >> 9) % 3) * 0.1f,
              dark ? 0.80f + (float) ((h >> 11) % 3) * 0.06f : 0.70f + (float) ((h >> 11) % 3) * 0.08f,
              &out->red, &out->green, &out->blue);
}

static double
axis_to_y (TmMapLayer            *self,
           const TmChartGeometry *g,
           double                 offset)
{
  return g->plot.y + (self->y1 - offset) / (self->y1 - self->y0) * g->plot.height;
}

static void
label_color (TmMapLayer   *self,
             guint         label,
             gboolean      dark,
             TmChartColor *out)
{
  const TmAllocationLabel *l = tm_allocations_get_label (self->allocations, label);

  tm_map_layer_name_color (l != NULL && l->op_name != NULL ? l->op_name : "", dark, out);
}

/* Each allocation in view as its own rectangle. */
static void
draw_rects (TmMapLayer            *self,
            TmChartCanvas         *canvas,
            const TmChartGeometry *g,
            GArray                *in_view)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);

  for (guint k = 0; k < in_view->len; k++)
    {
      guint i = g_array_index (in_view, guint, k);
      const TmAllocation *a = tm_allocations_get (self->allocations, i);
      double x0 = tm_chart_geometry_time_to_x (g, tm_allocations_get_start_time (self->allocations, i));
      double x1 = tm_chart_geometry_time_to_x (g, tm_allocations_get_end_time (self->allocations, i));
      double ya = axis_to_y (self, g, tm_allocations_address_to_axis (self->allocations, a->address));
      double yb = axis_to_y (self, g, tm_allocations_address_to_axis (self->allocations,
                                                                      a->address + (guint64) MAX (TM_ALLOCATION_BYTES (a), 1)));
      TmChartColor color;

      x0 = MAX (x0, g->plot.x);
      x1 = MIN (x1, g->plot.x + g->plot.width);
      yb = MAX (yb, g->plot.y);
      ya = MIN (ya, g->plot.y + g->plot.height);
      /* At least a pixel, so that every allocation shows. */
      if (x1 - x0 < 1)
        x1 = x0 + 1;
      if (ya - yb < 1)
        yb = ya - 1;
      label_color (self, TM_ALLOCATION_LABEL (a), palette->dark, &color);
      cairo_rectangle (cr, x0, yb, x1 - x0, ya - yb);
      tm_chart_set_source (cr, &color);
      cairo_fill (cr);
    }
}

/* Too many to draw one by one: a rectangle per run of one allocation's
 * pixels in a row. */
static void
draw_runs (TmMapLayer            *self,
           TmChartCanvas         *canvas,
           const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);
  guint width = (guint) lround (g->plot.width), height = (guint) lround (g->plot.height);
  g_autofree guint32 *cells = NULL;

  if (width == 0 || height == 0)
    return;
  cells = g_new (guint32, (gsize) width * height);
  tm_alloc_raster_render (self->allocations, g->start_ps, g->end_ps, self->y0, self->y1, width, height, cells);
  for (guint r = 0; r < height; r++)
    for (guint x = 0; x < width;)
      {
        guint32 owner = cells[(gsize) r * width + x];
        guint run = 1;
        TmChartColor color;

        if (owner == TM_ALLOCATIONS_NONE)
          {
            x++;
            continue;
          }
        while (x + run < width && cells[(gsize) r * width + x + run] == owner)
          run++;
        label_color (self, TM_ALLOCATION_LABEL (tm_allocations_get (self->allocations, owner)), palette->dark, &color);
        cairo_rectangle (cr, g->plot.x + x, g->plot.y + r, run, 1);
        tm_chart_set_source (cr, &color);
        cairo_fill (cr);
        x += run;
      }
}

static void
draw_address_axis (TmMapLayer            *self,
                   TmChartCanvas         *canvas,
                   const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  guint n_spans;
  const TmAddressSpan *spans = tm_allocations_get_spans (self->allocations, &n_spans);
  guint64 base = n_spans > 0 ? spans[0].address : 0;
  gint64 y_max, step;
  double span = self->y1 - self->y0;

  tm_chart_axes_byte_scale ((gint64) MAX (span, 1.0), g->plot.height, &y_max, &step);
  if (step <= 0)
    step = 1;
  for (double v = ceil (self->y0 / (double) step) * (double) step; v <= self->y1; v += (double) step)
    {
      double y = axis_to_y (self, g, v);
      guint64 address = tm_allocations_axis_to_address (self->allocations, v);
      g_autofree char *text = tm_format_bytes ((gint64) (address - base));

      tm_chart_canvas_rect (canvas, &palette->grid, g->plot.x, round (y), g->plot.width, 1);
      tm_chart_axes_trim_zeros (text);
      tm_chart_canvas_label (canvas, text, g->plot.x - 6, y, 1.0, 0.5, &palette->dim, NULL);
    }

  /* Breaks: where a long unused gap was cut, a double line and "≈". */
  for (guint i = 1; i < n_spans; i++)
    {
      double gap_top = (double) spans[i].offset;
      double gap_bottom = (double) (spans[i - 1].offset + (spans[i - 1].end - spans[i - 1].address));
      double ym = axis_to_y (self, g, (gap_top + gap_bottom) / 2);

      if (ym < g->plot.y || ym > g->plot.y + g->plot.height)
        continue;
      tm_chart_canvas_rect (canvas, &palette->dim, g->plot.x, round (ym) - 2, g->plot.width, 1);
      tm_chart_canvas_rect (canvas, &palette->dim, g->plot.x, round (ym) + 2, g->plot.width, 1);
      tm_chart_canvas_label (canvas, "≈", g->plot.x - 6, ym, 1.0, 0.5, &palette->fg, &palette->background);
    }
}

static void
tm_map_layer_draw (TmChartLayer          *layer,
                   TmChartCanvas         *canvas,
                   const TmChartGeometry *g)
{
  TmMapLayer *self = TM_MAP_LAYER (layer);
  g_autoptr(GArray) in_view = NULL;
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);

  if (self->y1 <= self->y0 || g->end_ps <= g->start_ps)
    return;

  draw_address_axis (self, canvas, g);

  cairo_rectangle (cr, g->plot.x, g->plot.y, g->plot.width, g->plot.height);
  cairo_clip (cr);
  in_view = tm_allocations_query (self->allocations, g->start_ps, g->end_ps,
                                  tm_allocations_axis_to_address (self->allocations, self->y0),
                                  tm_allocations_axis_to_address (self->allocations, self->y1));
  if (in_view->len <= TM_MAP_LAYER_MAX_RECTS)
    draw_rects (self, canvas, g, in_view);
  else
    draw_runs (self, canvas, g);
}

static void
tm_map_layer_finalize (GObject *object)
{
  TmMapLayer *self = TM_MAP_LAYER (object);

  g_clear_object (&self->allocations);

  G_OBJECT_CLASS (tm_map_layer_parent_class)->finalize (object);
}

static void
tm_map_layer_class_init (TmMapLayerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_map_layer_finalize;
  TM_CHART_LAYER_CLASS (klass)->draw = tm_map_layer_draw;
}

static void
tm_map_layer_init (TmMapLayer *self)
{
}

TmChartLayer *
tm_map_layer_new (TmAllocations *allocations)
{
  TmMapLayer *self;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (allocations), NULL);

  self = g_object_new (TM_TYPE_MAP_LAYER, NULL);
  self->allocations = g_object_ref (allocations);
  self->y0 = 0;
  self->y1 = (double) tm_allocations_get_axis_length (allocations);
  return TM_CHART_LAYER (self);
}

void
tm_map_layer_set_range (TmMapLayer *self,
                        double      y0,
                        double      y1)
{
  g_return_if_fail (TM_IS_MAP_LAYER (self));

  self->y0 = y0;
  self->y1 = y1;
}
