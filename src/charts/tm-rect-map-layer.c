/* tm-rect-map-layer.c — a list of rectangles drawn as the memory map is
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tm-chart-axes.h"
#include "tm-chart-palette.h"
#include "tm-format.h"
#include "tm-map-painter.h"
#include "tm-rect-map-layer.h"

struct _TmRectMapLayer
{
  TmChartLayer     parent_instance;

  GArray          *rects;       /* TmRasterRect, sorted by x0 */
  GArray          *colors;      /* guint32 0xRRGGBB per rectangle */
  GArray          *lit;         /* guint8 per rectangle; NULL: all */
  guint            selected;
  GArray          *backdrop;    /* TmRasterRect drawn under them, faded */
  TmMapPainter    *painter;
  /* The painter's last frame: the rectangle owning each pixel, for the
   * range and size it was made for. A redraw of the same frame (another
   * highlight, selection or colours) only colours it again. */
  guint32         *cells;
  guint            cells_width;
  guint            cells_height;
  gsize            cells_capacity;  /* pixels cells has room for */
  double           cells_range[4];
  /* Those cells coloured, for a raster canvas: the selected rectangle's
   * outline is drawn over it, so only the highlight and the colours
   * change it. */
  cairo_surface_t *picture;
  guint32          picture_background;
};

G_DEFINE_FINAL_TYPE (TmRectMapLayer, tm_rect_map_layer, TM_TYPE_CHART_LAYER)

static guint32
pack_color (const TmChartColor *c)
{
  return tm_map_color_pack (c->red, c->green, c->blue, 1);
}

/* x of a position on the geometry's x range (which holds the rectangles'
 * unit, not times). */
static double
rect_x (const TmChartGeometry *g,
        double                 x)
{
  return g->plot.x + (x - (double) g->start_ps) * g->plot.width / (double) (g->end_ps - g->start_ps);
}

/* The colour rectangle i is drawn in, opaque, faded when it is not lit. */
static guint32
rect_color (TmRectMapLayer *self,
            guint           i,
            guint32         background)
{
  guint32 color = 0xff000000u | g_array_index (self->colors, guint32, i);

  if (self->lit != NULL && !g_array_index (self->lit, guint8, i))
    color = tm_map_dim_color (color, background);
  return color;
}

/* The offsets on the left with their grid, from 0 at the bottom of the
 * axis. */
static void
draw_offset_axis (TmChartCanvas         *canvas,
                  const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  gint64 y_max, step;

  tm_chart_axes_byte_scale ((gint64) MAX (g->axis_y1 - g->axis_y0, 1.0), g->plot.height, &y_max, &step);
  if (step <= 0)
    step = 1;
  for (double v = ceil (g->axis_y0 / (double) step) * (double) step; v <= g->axis_y1; v += (double) step)
    {
      double y = tm_chart_geometry_axis_to_y (g, v);
      g_autofree char *text = tm_format_bytes ((gint64) v);

      tm_chart_canvas_rect (canvas, &palette->grid, g->plot.x, round (y), g->plot.width, 1);
      tm_chart_axes_trim_zeros (text);
      tm_chart_canvas_label (canvas, text, g->plot.x - 6, y, 1.0, 0.5, &palette->dim, NULL);
    }
}

/* Each rectangle's colour over background: once per picture rather than
 * per pixel. */
static guint32 *
rect_colors (TmRectMapLayer *self,
             guint32         background)
{
  guint32 *colors = g_new (guint32, MAX (self->rects->len, 1));

  for (guint i = 0; i < self->rects->len; i++)
    colors[i] = rect_color (self, i, background);
  return colors;
}

/* A picture being coloured as the painter finishes its bands. */
typedef struct
{
  guint32       *pixels;
  const guint32 *colors;
} PictureTarget;

static void
color_columns (guint          x0,
               guint          n_columns,
               const guint32 *cells,
               guint          width,
               guint          height,
               gpointer       user_data)
{
  PictureTarget *t = user_data;

  tm_map_paint_owner_columns (t->pixels, cells, (int) width, (int) height, (int) x0, (int) n_columns, t->colors);
}

/* Whether the painter's frame (the rectangle owning each pixel) is that
 * of g's range at width × height. */
static gboolean
cells_current (TmRectMapLayer        *self,
               const TmChartGeometry *g,
               guint                  width,
               guint                  height)
{
  double range[4] = { (double) g->start_ps, (double) g->end_ps, g->axis_y0, g->axis_y1 };

  return self->cells != NULL && self->cells_width == width && self->cells_height == height &&
         memcmp (self->cells_range, range, sizeof range) == 0;
}

/* The painter's frame of g's range at width × height, made again (only
 * when the range or the size changed); target (may be NULL) is coloured
 * as it is made. */
static void
make_cells (TmRectMapLayer        *self,
            const TmChartGeometry *g,
            guint                  width,
            guint                  height,
            PictureTarget         *target)
{
  double range[4] = { (double) g->start_ps, (double) g->end_ps, g->axis_y0, g->axis_y1 };

  g_clear_pointer (&self->picture, cairo_surface_destroy);
  /* A window being resized asks for a frame of a new size every time:
   * the memory of the last one is written over rather than given back
   * and faulted in again, page by page (an eighth more for growing). */
  if ((gsize) width * height > self->cells_capacity)
    {
      g_free (self->cells);
      self->cells_capacity = (gsize) width * height + (gsize) width * height / 8;
      self->cells = g_new (guint32, self->cells_capacity);
    }
  self->cells_width = width;
  self->cells_height = height;
  memcpy (self->cells_range, range, sizeof range);
  tm_alloc_raster_render_rects ((const TmRasterRect *) (gpointer) self->rects->data, self->rects->len,
                                range[0], range[1], range[2], range[3], width, height, self->cells,
                                target != NULL ? color_columns : NULL, target);
}

/* On a raster canvas: the cells coloured by the painter into one image,
 * one device pixel per pixel. A new frame of owners is coloured band by
 * band as the painter makes it (on its threads, while they are in the
 * cache); another highlight or background colours the kept frame
 * again. */
static void
draw_picture (TmRectMapLayer        *self,
              TmChartCanvas         *canvas,
              const TmChartGeometry *g,
              guint32                background)
{
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);
  int scale = tm_chart_canvas_get_scale (canvas);
  guint width = (guint) lround (g->plot.width) * (guint) scale, height = (guint) lround (g->plot.height) * (guint) scale;
  gboolean fresh = !cells_current (self, g, width, height);

  if (fresh || self->picture == NULL || self->picture_background != background)
    {
      g_autofree guint32 *colors = rect_colors (self, background);
      PictureTarget target = { tm_map_painter_take_pixels (self->painter, (int) width, (int) height), colors };

      g_clear_pointer (&self->picture, cairo_surface_destroy);
      if (fresh)
        make_cells (self, g, width, height, &target);
      else
        tm_map_paint_owner_columns (target.pixels, self->cells, (int) width, (int) height, 0, (int) width, colors);
      self->picture = tm_map_painter_image (self->painter, target.pixels, (int) width, (int) height);
      self->picture_background = background;
    }
  cairo_save (cr);
  cairo_translate (cr, g->plot.x, g->plot.y);
  cairo_scale (cr, g->plot.width / width, g->plot.height / height);
  cairo_set_source_surface (cr, self->picture, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  cairo_restore (cr);
}

/* On a vector canvas: shapes, a rectangle per run of one rectangle's
 * pixels in a row. */
static void
draw_runs (TmRectMapLayer        *self,
           TmChartCanvas         *canvas,
           const TmChartGeometry *g,
           guint32                background)
{
  guint width = (guint) lround (g->plot.width), height = (guint) lround (g->plot.height);
  g_autofree guint32 *colors = rect_colors (self, background);
  const guint32 *cells;

  if (!cells_current (self, g, width, height))
    make_cells (self, g, width, height, NULL);
  cells = self->cells;
  for (guint r = 0; r < height; r++)
    for (guint x = 0; x < width;)
      {
        guint32 owner = cells[(gsize) r * width + x];
        guint32 pixel;
        TmChartColor color;
        guint run = 1;

        if (owner == TM_ALLOCATIONS_NONE)
          {
            x++;
            continue;
          }
        while (x + run < width && cells[(gsize) r * width + x + run] == owner)
          run++;
        pixel = colors[owner];
        color = (TmChartColor) { ((pixel >> 16) & 0xff) / 255.0f, ((pixel >> 8) & 0xff) / 255.0f,
                                 (pixel & 0xff) / 255.0f, 1.0f };
        tm_chart_canvas_rect (canvas, &color, g->plot.x + x, g->plot.y + r, run, 1);
        x += run;
      }
}

static void
draw_plot (TmRectMapLayer        *self,
           TmChartCanvas         *canvas,
           const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);
  guint32 background = pack_color (&palette->background);

  if (lround (g->plot.width) <= 0 || lround (g->plot.height) <= 0)
    return;

  /* The backdrop, faded, in one path. */
  for (guint i = 0; self->backdrop != NULL && i < self->backdrop->len; i++)
    {
      const TmRasterRect *b = &g_array_index (self->backdrop, TmRasterRect, i);
      double x0 = rect_x (g, b->x0), x1 = rect_x (g, b->x1);
      double ya = tm_chart_geometry_axis_to_y (g, b->y0), yb = tm_chart_geometry_axis_to_y (g, b->y1);

      cairo_rectangle (cr, x0, yb, x1 - x0, ya - yb);
    }
  if (self->backdrop != NULL)
    {
      TmChartColor faded = palette->fg;

      faded.alpha = palette->dark ? 0.10f : 0.07f;
      tm_chart_set_source (cr, &faded);
      cairo_fill (cr);
    }
  if (self->rects->len == 0)
    return;

  if (!tm_chart_canvas_is_vector (canvas))
    draw_picture (self, canvas, g, background);
  else
    draw_runs (self, canvas, g, background);

  /* The selected one, outlined (at least a pixel wide and high). */
  if (self->selected < self->rects->len)
    {
      const TmRasterRect *sel = &g_array_index (self->rects, TmRasterRect, self->selected);
      double x0 = rect_x (g, sel->x0), x1 = rect_x (g, sel->x1);
      double ya = tm_chart_geometry_axis_to_y (g, sel->y0), yb = tm_chart_geometry_axis_to_y (g, sel->y1);

      cairo_rectangle (cr, floor (x0) - 1.5, floor (yb) - 1.5, MAX (ceil (x1) - floor (x0), 1) + 3,
                       MAX (ceil (ya) - floor (yb), 1) + 3);
      tm_chart_set_source (cr, &palette->fg);
      cairo_set_line_width (cr, 2);
      cairo_stroke (cr);
    }
}

static void
tm_rect_map_layer_draw (TmChartLayer          *layer,
                        TmChartCanvas         *canvas,
                        const TmChartGeometry *g)
{
  TmRectMapLayer *self = TM_RECT_MAP_LAYER (layer);
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);

  if (g->axis_y1 <= g->axis_y0 || g->end_ps <= g->start_ps)
    return;

  draw_offset_axis (canvas, g);
  cairo_save (cr);
  cairo_rectangle (cr, g->plot.x, g->plot.y, g->plot.width, g->plot.height);
  cairo_clip (cr);
  draw_plot (self, canvas, g);
  cairo_restore (cr);
}

static void
tm_rect_map_layer_finalize (GObject *object)
{
  TmRectMapLayer *self = TM_RECT_MAP_LAYER (object);

  g_clear_pointer (&self->rects, g_array_unref);
  g_clear_pointer (&self->colors, g_array_unref);
  g_clear_pointer (&self->lit, g_array_unref);
  g_clear_pointer (&self->backdrop, g_array_unref);
  g_clear_pointer (&self->cells, g_free);
  g_clear_pointer (&self->picture, cairo_surface_destroy);
  g_clear_pointer (&self->painter, tm_map_painter_free);

  G_OBJECT_CLASS (tm_rect_map_layer_parent_class)->finalize (object);
}

static void
tm_rect_map_layer_class_init (TmRectMapLayerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_rect_map_layer_finalize;
  TM_CHART_LAYER_CLASS (klass)->draw = tm_rect_map_layer_draw;
}

static void
tm_rect_map_layer_init (TmRectMapLayer *self)
{
  self->selected = G_MAXUINT;
  self->painter = tm_map_painter_new ();
}

TmChartLayer *
tm_rect_map_layer_new (GArray *rects,
                       GArray *colors)
{
  TmRectMapLayer *self;

  g_return_val_if_fail (rects != NULL && colors != NULL, NULL);
  g_return_val_if_fail (rects->len == colors->len, NULL);

  self = g_object_new (TM_TYPE_RECT_MAP_LAYER, NULL);
  self->rects = g_array_ref (rects);
  self->colors = g_array_ref (colors);
  return TM_CHART_LAYER (self);
}

void
tm_rect_map_layer_set_lit (TmRectMapLayer *self,
                           GArray         *lit)
{
  g_return_if_fail (TM_IS_RECT_MAP_LAYER (self));
  g_return_if_fail (lit == NULL || lit->len == self->rects->len);

  if (lit != NULL)
    g_array_ref (lit);
  g_clear_pointer (&self->lit, g_array_unref);
  self->lit = lit;
  /* Other colours: the picture is made again (its owners stay). */
  g_clear_pointer (&self->picture, cairo_surface_destroy);
}

void
tm_rect_map_layer_set_backdrop (TmRectMapLayer *self,
                                GArray         *rects)
{
  g_return_if_fail (TM_IS_RECT_MAP_LAYER (self));

  if (rects != NULL)
    g_array_ref (rects);
  g_clear_pointer (&self->backdrop, g_array_unref);
  self->backdrop = rects;
}

void
tm_rect_map_layer_set_selected (TmRectMapLayer *self,
                                guint           index)
{
  g_return_if_fail (TM_IS_RECT_MAP_LAYER (self));

  self->selected = index;
}
