/* tm-map-layer.c — the memory map's allocations and its address axis
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tm-alloc-raster.h"
#include "tm-block-layer.h"
#include "tm-chart-axes.h"
#include "tm-chart-palette.h"
#include "tm-format.h"
#include "tm-map-layer.h"

#define MARK_WIDTH     5.0
#define MAX_OPEN_MARKS 20000

struct _TmMapLayer
{
  TmChartLayer   parent_instance;

  TmAllocations *allocations;
  TmMapColorBy   color_by;
  gboolean       never_freed;
  GBytes        *in_scope;
  gboolean       open_ends;
  GArray        *open_ended;   /* indices of allocations with an open edge, found once */
  TmMapPainter  *painter;
  /* The last image and what it shows: drawn again as it is while
   * nothing of that changed (a frame that only moves the pointer). */
  cairo_surface_t *image;
  struct {
    TmAllocations *allocations;   /* compared only */
    GBytes        *in_scope;      /* compared only */
    gint64         t0, t1;
    double         y0, y1;
    int            width, height;
    TmMapPaintOptions options;
  }              image_key;
};

G_DEFINE_FINAL_TYPE (TmMapLayer, tm_map_layer, TM_TYPE_CHART_LAYER)

static TmChartColor
unpack (guint32 c)
{
  return (TmChartColor) { ((c >> 16) & 0xff) / 255.0f, ((c >> 8) & 0xff) / 255.0f, (c & 0xff) / 255.0f, 1.0f };
}

static guint32
pack_color (const TmChartColor *c)
{
  return tm_map_color_pack (c->red, c->green, c->blue, 1);
}

/* The block of allocation index on the address axis. */
static TmChartBlock
allocation_block (TmMapLayer *self,
                  guint       index)
{
  const TmAllocation *a = tm_allocations_get (self->allocations, index);

  return (TmChartBlock) {
    tm_allocations_get_start_time (self->allocations, index),
    tm_allocations_get_end_time (self->allocations, index),
    tm_allocations_address_to_axis (self->allocations, a->address),
    tm_allocations_address_to_axis (self->allocations, a->address + (guint64) MAX (TM_ALLOCATION_BYTES (a), 1)),
  };
}

/* The colour allocation index is drawn in, dimmed or not. */
static guint32
shown_color (TmMapLayer           *self,
             guint                 index,
             const TmChartPalette *palette)
{
  const TmAllocation *a = tm_allocations_get (self->allocations, index);
  guint32 color = tm_map_painter_color (self->painter, self->allocations, a, self->color_by, palette->dark);
  const guint8 *in_scope = self->in_scope != NULL ? g_bytes_get_data (self->in_scope, NULL) : NULL;

  if ((self->never_freed && a->end != TM_ALLOCATIONS_OPEN) || (in_scope != NULL && !in_scope[index]))
    color = tm_map_dim_color (color, pack_color (&palette->background));
  return color;
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
      TmChartBlock block = allocation_block (self, i);
      TmChartColor color = unpack (shown_color (self, i, palette));
      TmChartRect r;

      if (!tm_block_layer_block_rect (g, &block, &r))
        continue;
      cairo_rectangle (cr, r.x, r.y, r.width, r.height);
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
  tm_alloc_raster_render (self->allocations, g->start_ps, g->end_ps, g->axis_y0, g->axis_y1, width, height, cells);
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
        color = unpack (shown_color (self, owner, palette));
        cairo_rectangle (cr, g->plot.x + x, g->plot.y + r, run, 1);
        tm_chart_set_source (cr, &color);
        cairo_fill (cr);
        x += run;
      }
}

/* The painter's image, one device pixel per pixel. */
static void
draw_image (TmMapLayer            *self,
            TmChartCanvas         *canvas,
            const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);
  int scale = tm_chart_canvas_get_scale (canvas);
  int width = (int) g->plot.width * scale, height = (int) g->plot.height * scale;
  TmMapPaintOptions options = {
    self->color_by, palette->dark, pack_color (&palette->background), self->never_freed,
    self->in_scope != NULL ? g_bytes_get_data (self->in_scope, NULL) : NULL,
  };
  cairo_surface_t *image;

  if (width <= 0 || height <= 0)
    return;
  if (self->image == NULL || self->image_key.allocations != self->allocations ||
      self->image_key.in_scope != self->in_scope || self->image_key.t0 != g->start_ps ||
      self->image_key.t1 != g->end_ps || self->image_key.y0 != g->axis_y0 || self->image_key.y1 != g->axis_y1 ||
      self->image_key.width != width || self->image_key.height != height ||
      memcmp (&self->image_key.options, &options, sizeof options) != 0)
    {
      g_clear_pointer (&self->image, cairo_surface_destroy);
      self->image = tm_map_painter_paint (self->painter, self->allocations, g->start_ps, g->end_ps,
                                          g->axis_y0, g->axis_y1, width, height, &options);
      self->image_key.allocations = self->allocations;
      self->image_key.in_scope = self->in_scope;
      self->image_key.t0 = g->start_ps;
      self->image_key.t1 = g->end_ps;
      self->image_key.y0 = g->axis_y0;
      self->image_key.y1 = g->axis_y1;
      self->image_key.width = width;
      self->image_key.height = height;
      self->image_key.options = options;
    }
  image = self->image;
  cairo_save (cr);
  cairo_translate (cr, g->plot.x, g->plot.y);
  cairo_scale (cr, g->plot.width / width, g->plot.height / height);
  cairo_set_source_surface (cr, image, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  cairo_restore (cr);
}

/* Open ends: a notch at the edge of the profile for each allocation made
 * before it (left) or never freed (right), when that edge is in view. */
static void
draw_open_marks (TmMapLayer            *self,
                 TmChartCanvas         *canvas,
                 const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  const TmSummary *s = tm_memory_store_get_summary (tm_allocations_get_store (self->allocations));
  const TmChartRect *plot = &g->plot;
  double x_first = tm_chart_geometry_time_to_x (g, s->first_time_ps);
  double x_last = tm_chart_geometry_time_to_x (g, s->last_time_ps);
  gboolean left_in = x_first >= plot->x - 1 && x_first <= plot->x + plot->width;
  gboolean right_in = x_last >= plot->x && x_last <= plot->x + plot->width + 1;
  guint drawn = 0;

  if (!left_in && !right_in)
    return;

  if (self->open_ended == NULL)
    {
      guint n = tm_allocations_get_n (self->allocations);

      self->open_ended = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint i = 0; i < n; i++)
        {
          const TmAllocation *a = tm_allocations_get (self->allocations, i);

          if (a->start == TM_ALLOCATIONS_OPEN || a->end == TM_ALLOCATIONS_OPEN)
            g_array_append_val (self->open_ended, i);
        }
    }

  for (guint k = 0; k < self->open_ended->len && drawn < MAX_OPEN_MARKS; k++)
    {
      guint i = g_array_index (self->open_ended, guint, k);
      const TmAllocation *a = tm_allocations_get (self->allocations, i);
      TmChartBlock block = allocation_block (self, i);
      TmChartRect r;

      if (!tm_block_layer_block_rect (g, &block, &r))
        continue;
      if (a->start == TM_ALLOCATIONS_OPEN && left_in)
        tm_chart_canvas_rect (canvas, &palette->fg, x_first, r.y, 2, r.height);
      if (a->end == TM_ALLOCATIONS_OPEN && right_in)
        {
          tm_chart_canvas_rect (canvas, &palette->fg, x_last - 2, r.y, 2, r.height);
          tm_chart_canvas_rect (canvas, &palette->fg, x_last, r.y + r.height / 2 - 0.5, MARK_WIDTH, 1);
        }
      drawn++;
    }
}

/* The y of each break of the address axis in view: the middle of a long
 * unused gap that was cut. */
static GArray *
break_rows (TmMapLayer            *self,
            const TmChartGeometry *g)
{
  guint n_spans;
  const TmAddressSpan *spans = tm_allocations_get_spans (self->allocations, &n_spans);
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 1; i < n_spans; i++)
    {
      double gap_top = (double) spans[i].offset;
      double gap_bottom = (double) (spans[i - 1].offset + (spans[i - 1].end - spans[i - 1].address));
      double ym = tm_chart_geometry_axis_to_y (g, (gap_top + gap_bottom) / 2);

      if (ym >= g->plot.y && ym <= g->plot.y + g->plot.height)
        g_array_append_val (rows, ym);
    }
  return rows;
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
  g_autoptr(GArray) breaks = break_rows (self, g);
  gint64 y_max, step;
  double span = g->axis_y1 - g->axis_y0;
  int mark_height;

  /* A tick label that would touch a break's "≈" (whose background
   * reaches a pixel above and below it) gives way to it: the break says
   * more there. The grid line stays. */
  tm_chart_canvas_measure (canvas, "≈", NULL, &mark_height);
  tm_chart_axes_byte_scale ((gint64) MAX (span, 1.0), g->plot.height, &y_max, &step);
  if (step <= 0)
    step = 1;
  for (double v = ceil (g->axis_y0 / (double) step) * (double) step; v <= g->axis_y1; v += (double) step)
    {
      double y = tm_chart_geometry_axis_to_y (g, v);
      guint64 address = tm_allocations_axis_to_address (self->allocations, v);
      g_autofree char *text = tm_format_bytes ((gint64) (address - base));
      gboolean clear = TRUE;
      int height;

      tm_chart_canvas_rect (canvas, &palette->grid, g->plot.x, round (y), g->plot.width, 1);
      tm_chart_axes_trim_zeros (text);
      tm_chart_canvas_measure (canvas, text, NULL, &height);
      for (guint i = 0; i < breaks->len && clear; i++)
        clear = fabs (y - g_array_index (breaks, double, i)) >= (height + mark_height) / 2.0 + 2;
      if (clear)
        tm_chart_canvas_label (canvas, text, g->plot.x - 6, y, 1.0, 0.5, &palette->dim, NULL);
    }

  /* Breaks: where a long unused gap was cut, a double line and "≈". */
  for (guint i = 0; i < breaks->len; i++)
    {
      double ym = g_array_index (breaks, double, i);

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
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);

  /* The plot's bottom edge, also while the index is awaited. */
  tm_chart_canvas_rect (canvas, &palette->grid, g->plot.x, g->plot.y + g->plot.height, g->plot.width, 1);
  if (self->allocations == NULL || g->axis_y1 <= g->axis_y0 || g->end_ps <= g->start_ps)
    return;

  draw_address_axis (self, canvas, g);

  if (!tm_chart_canvas_is_vector (canvas) && !g->moment)
    draw_image (self, canvas, g);
  else
    {
      g_autoptr(GArray) in_view = tm_allocations_query (self->allocations, g->start_ps, g->end_ps,
                                                        tm_allocations_axis_to_address (self->allocations, g->axis_y0),
                                                        tm_allocations_axis_to_address (self->allocations, g->axis_y1));

      cairo_save (cr);
      cairo_rectangle (cr, g->plot.x, g->plot.y, g->plot.width, g->plot.height);
      cairo_clip (cr);
      /* At one moment a block is one rectangle across the plot, as many
       * as the snapshot's blocks. */
      if (in_view->len <= TM_MAP_LAYER_MAX_RECTS || g->moment)
        draw_rects (self, canvas, g, in_view);
      else
        draw_runs (self, canvas, g);
      cairo_restore (cr);
    }
  if (self->open_ends && !g->moment)
    draw_open_marks (self, canvas, g);
}

static void
tm_map_layer_finalize (GObject *object)
{
  TmMapLayer *self = TM_MAP_LAYER (object);

  g_clear_object (&self->allocations);
  g_clear_pointer (&self->in_scope, g_bytes_unref);
  g_clear_pointer (&self->open_ended, g_array_unref);
  g_clear_pointer (&self->image, cairo_surface_destroy);
  g_clear_pointer (&self->painter, tm_map_painter_free);

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
  self->painter = tm_map_painter_new ();
}

TmChartLayer *
tm_map_layer_new (TmAllocations *allocations)
{
  TmMapLayer *self;

  g_return_val_if_fail (allocations == NULL || TM_IS_ALLOCATIONS (allocations), NULL);

  self = g_object_new (TM_TYPE_MAP_LAYER, NULL);
  tm_map_layer_set_allocations (self, allocations);
  return TM_CHART_LAYER (self);
}

TmAllocations *
tm_map_layer_get_allocations (TmMapLayer *self)
{
  g_return_val_if_fail (TM_IS_MAP_LAYER (self), NULL);

  return self->allocations;
}

void
tm_map_layer_set_allocations (TmMapLayer    *self,
                              TmAllocations *allocations)
{
  g_return_if_fail (TM_IS_MAP_LAYER (self));
  g_return_if_fail (allocations == NULL || TM_IS_ALLOCATIONS (allocations));

  if (!g_set_object (&self->allocations, allocations))
    return;
  g_clear_pointer (&self->image, cairo_surface_destroy);
  g_clear_pointer (&self->open_ended, g_array_unref);
  g_clear_pointer (&self->in_scope, g_bytes_unref);
}

void
tm_map_layer_set_color_by (TmMapLayer   *self,
                           TmMapColorBy  color_by)
{
  g_return_if_fail (TM_IS_MAP_LAYER (self));

  if (self->color_by != color_by)
    g_clear_pointer (&self->image, cairo_surface_destroy);
  self->color_by = color_by;
}

void
tm_map_layer_set_highlight (TmMapLayer *self,
                            gboolean    never_freed,
                            GBytes     *in_scope)
{
  g_return_if_fail (TM_IS_MAP_LAYER (self));

  if (self->never_freed != !!never_freed || self->in_scope != in_scope)
    g_clear_pointer (&self->image, cairo_surface_destroy);
  self->never_freed = !!never_freed;
  if (in_scope != NULL)
    g_bytes_ref (in_scope);
  g_clear_pointer (&self->in_scope, g_bytes_unref);
  self->in_scope = in_scope;
}

void
tm_map_layer_set_open_ends (TmMapLayer *self,
                            gboolean    shown)
{
  g_return_if_fail (TM_IS_MAP_LAYER (self));

  self->open_ends = !!shown;
}

guint32
tm_map_layer_color (TmMapLayer *self,
                    guint       index,
                    gboolean    dark)
{
  g_return_val_if_fail (TM_IS_MAP_LAYER (self), 0);
  g_return_val_if_fail (self->allocations != NULL && index < tm_allocations_get_n (self->allocations), 0);

  return tm_map_painter_color (self->painter, self->allocations, tm_allocations_get (self->allocations, index),
                               self->color_by, dark);
}
