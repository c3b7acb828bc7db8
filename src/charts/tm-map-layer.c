/* tm-map-layer.c — the memory map's allocations as rectangles
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

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

  /* Or a list of rectangles (tm_map_layer_new_for_rects): their colours
   * (0xRRGGBB), which of them are lit (NULL: all) and the one outlined. */
  GArray        *rects;
  GArray        *colors;
  GArray        *lit;
  guint          selected;
  GArray        *backdrop;    /* TmRasterRect drawn under them, faded */
  /* The painter's last frame of them: the rectangle owning each pixel,
   * for the range and size it was made for. A redraw of the same frame
   * (another highlight, selection or colours) only colours it again. */
  guint32       *cells;
  guint          cells_width;
  guint          cells_height;
  double         cells_range[4];
  /* Those cells coloured, for a raster canvas: the outline of the
   * selected rectangle is drawn over it, so only the highlight and the
   * colours change it. */
  cairo_surface_t *picture;
  guint32        picture_background;
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
  guint n_spans = 0;
  const TmAddressSpan *spans = self->allocations != NULL ? tm_allocations_get_spans (self->allocations, &n_spans) : NULL;
  guint64 base = n_spans > 0 ? spans[0].address : 0;
  gint64 y_max, step;
  double span = self->y1 - self->y0;

  tm_chart_axes_byte_scale ((gint64) MAX (span, 1.0), g->plot.height, &y_max, &step);
  if (step <= 0)
    step = 1;
  for (double v = ceil (self->y0 / (double) step) * (double) step; v <= self->y1; v += (double) step)
    {
      double y = axis_to_y (self, g, v);
      guint64 address = self->allocations != NULL ? tm_allocations_axis_to_address (self->allocations, v) : (guint64) v;
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

/* ------------------------------------------------------------------ */
/* A list of rectangles, drawn by the same painter                      */

/* The colour of rectangle i, packed as a premultiplied opaque pixel,
 * dimmed towards the background when it is not lit. */
static guint32
rect_pixel (TmMapLayer   *self,
            guint         i,
            const guint32 background)
{
  guint32 rgb = g_array_index (self->colors, guint32, i);

  if (self->lit != NULL && !g_array_index (self->lit, guint8, i))
    {
      guint32 mixed = 0;

      /* A quarter of the colour over the background. */
      for (int shift = 0; shift <= 16; shift += 8)
        mixed |= ((((rgb >> shift) & 0xff) + 3 * ((background >> shift) & 0xff)) / 4) << shift;
      rgb = mixed;
    }
  return 0xff000000u | rgb;
}

static guint32
pack_color (const TmChartColor *c)
{
  return (guint32) (c->red * 255.0f + 0.5f) << 16 | (guint32) (c->green * 255.0f + 0.5f) << 8 |
         (guint32) (c->blue * 255.0f + 0.5f);
}

typedef struct
{
  guint32 *cells;    /* rectangle per pixel, row 0 at the top */
  guint    width;
} RectsTarget;

/* The band's keys as cells, sixteen columns at a time, each a row at a
 * time: the keys of sixteen columns stay in the cache for sixteen rows,
 * and a row of cells gets a whole cache line. */
#define RECTS_TILE 16

static void
rects_band (guint          x0,
            guint          n_columns,
            guint          height,
            const guint32 *keys,
            guint32        index_mask,
            gpointer       user_data)
{
  RectsTarget *t = user_data;

  for (guint xb = 0; xb < n_columns; xb += RECTS_TILE)
    {
      guint nx = MIN (RECTS_TILE, n_columns - xb);
      const guint32 *columns = keys + (gsize) xb * height;

      for (guint r = 0; r < height; r++)
        {
          guint32 *row = t->cells + (gsize) r * t->width + x0 + xb;

          for (guint x = 0; x < nx; x++)
            row[x] = tm_alloc_raster_key_index (columns[(gsize) x * height + r], index_mask);
        }
    }
}

/* The rectangle owning each pixel of the plot, the painter's frame, made
 * again only when the range or the size changed. */
static const guint32 *
rect_cells (TmMapLayer            *self,
            const TmChartGeometry *g,
            guint                  width,
            guint                  height)
{
  double range[4] = { (double) g->start_ps, (double) g->end_ps, self->y0, self->y1 };
  RectsTarget t = { NULL, width };

  if (self->cells != NULL && self->cells_width == width && self->cells_height == height &&
      memcmp (self->cells_range, range, sizeof range) == 0)
    return self->cells;
  g_free (self->cells);
  g_clear_pointer (&self->picture, cairo_surface_destroy);
  self->cells = g_new (guint32, (gsize) width * height);
  self->cells_width = width;
  self->cells_height = height;
  memcpy (self->cells_range, range, sizeof range);
  t.cells = self->cells;
  tm_alloc_raster_render_rects ((const TmRasterRect *) (gpointer) self->rects->data, self->rects->len,
                                range[0], range[1], range[2], range[3], width, height, rects_band, &t);
  return self->cells;
}

static void
draw_rect_list (TmMapLayer            *self,
                TmChartCanvas         *canvas,
                const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);
  guint width = (guint) lround (g->plot.width), height = (guint) lround (g->plot.height);
  guint32 background = pack_color (&palette->background);
  g_autofree guint32 *lut = NULL;
  const guint32 *cells;

  if (width == 0 || height == 0)
    return;

  /* The backdrop, faded, in one path. */
  for (guint i = 0; self->backdrop != NULL && i < self->backdrop->len; i++)
    {
      const TmRasterRect *b = &g_array_index (self->backdrop, TmRasterRect, i);
      double sx = g->plot.width / (double) (g->end_ps - g->start_ps), sy = g->plot.height / (self->y1 - self->y0);
      double x0 = g->plot.x + (b->x0 - (double) g->start_ps) * sx, x1 = g->plot.x + (b->x1 - (double) g->start_ps) * sx;
      double ya = g->plot.y + (self->y1 - b->y0) * sy, yb = g->plot.y + (self->y1 - b->y1) * sy;

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

  cells = rect_cells (self, g, width, height);
  /* Each rectangle's pixel, once per colouring rather than per pixel. */
  if (tm_chart_canvas_is_vector (canvas) || self->picture == NULL || self->picture_background != background)
    {
      lut = g_new (guint32, self->rects->len);
      for (guint i = 0; i < self->rects->len; i++)
        lut[i] = rect_pixel (self, i, background);
    }

  if (!tm_chart_canvas_is_vector (canvas))
    {
      if (self->picture == NULL || self->picture_background != background)
        {
          /* A picture: the cells coloured into an image, every pixel
           * written (empty ones transparent), so the buffer needs no
           * clearing. The pixels live as long as the image: a recording
           * canvas (a widget's snapshot) keeps it after this draw. */
          static const cairo_user_data_key_t pixels_key;
          int stride = cairo_format_stride_for_width (CAIRO_FORMAT_ARGB32, (int) width);
          guint32 *pixels = g_malloc ((gsize) stride * height);

          g_clear_pointer (&self->picture, cairo_surface_destroy);
          self->picture = cairo_image_surface_create_for_data ((unsigned char *) pixels, CAIRO_FORMAT_ARGB32,
                                                               (int) width, (int) height, stride);
          cairo_surface_set_user_data (self->picture, &pixels_key, pixels, g_free);
          self->picture_background = background;
          for (guint r = 0; r < height; r++)
            {
              const guint32 *in = cells + (gsize) r * width;
              guint32 *out = pixels + (gsize) r * (stride / 4);

              for (guint x = 0; x < width; x++)
                out[x] = in[x] == TM_ALLOCATIONS_NONE ? 0 : lut[in[x]];
            }
          cairo_surface_mark_dirty (self->picture);
        }
      cairo_set_source_surface (cr, self->picture, g->plot.x, g->plot.y);
      cairo_paint (cr);
    }
  else
    {
      /* Shapes: a rectangle per run of one rectangle's pixels in a row. */
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
            pixel = lut[owner];
            color = (TmChartColor) { ((pixel >> 16) & 0xff) / 255.0f, ((pixel >> 8) & 0xff) / 255.0f,
                                     (pixel & 0xff) / 255.0f, 1.0f };
            tm_chart_canvas_rect (canvas, &color, g->plot.x + x, g->plot.y + r, run, 1);
            x += run;
          }
    }

  /* The selected one, outlined (at least a pixel wide and high). */
  if (self->selected < self->rects->len)
    {
      const TmRasterRect *sel = &g_array_index (self->rects, TmRasterRect, self->selected);
      double sx = g->plot.width / (double) (g->end_ps - g->start_ps), sy = g->plot.height / (self->y1 - self->y0);
      double x0 = g->plot.x + (sel->x0 - (double) g->start_ps) * sx, x1 = g->plot.x + (sel->x1 - (double) g->start_ps) * sx;
      double ya = g->plot.y + (self->y1 - sel->y0) * sy, yb = g->plot.y + (self->y1 - sel->y1) * sy;

      cairo_rectangle (cr, floor (x0) - 1.5, floor (yb) - 1.5, MAX (ceil (x1) - floor (x0), 1) + 3,
                       MAX (ceil (ya) - floor (yb), 1) + 3);
      tm_chart_set_source (cr, &palette->fg);
      cairo_set_line_width (cr, 2);
      cairo_stroke (cr);
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

  if (self->rects != NULL)
    {
      cairo_save (cr);
      cairo_rectangle (cr, g->plot.x, g->plot.y, g->plot.width, g->plot.height);
      cairo_clip (cr);
      draw_rect_list (self, canvas, g);
      cairo_restore (cr);
      return;
    }

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
  g_clear_pointer (&self->rects, g_array_unref);
  g_clear_pointer (&self->colors, g_array_unref);
  g_clear_pointer (&self->lit, g_array_unref);
  g_clear_pointer (&self->backdrop, g_array_unref);
  g_clear_pointer (&self->cells, g_free);
  g_clear_pointer (&self->picture, cairo_surface_destroy);

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
  self->selected = G_MAXUINT;
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

TmChartLayer *
tm_map_layer_new_for_rects (GArray  *rects,
                            GArray  *colors,
                            guint64  axis_length)
{
  TmMapLayer *self;

  g_return_val_if_fail (rects != NULL && colors != NULL, NULL);
  g_return_val_if_fail (rects->len == colors->len, NULL);

  self = g_object_new (TM_TYPE_MAP_LAYER, NULL);
  self->rects = g_array_ref (rects);
  self->colors = g_array_ref (colors);
  self->y0 = 0;
  self->y1 = (double) MAX (axis_length, 1);
  return TM_CHART_LAYER (self);
}

void
tm_map_layer_set_lit (TmMapLayer *self,
                      GArray     *lit)
{
  g_return_if_fail (TM_IS_MAP_LAYER (self));
  g_return_if_fail (lit == NULL || (self->rects != NULL && lit->len == self->rects->len));

  g_clear_pointer (&self->lit, g_array_unref);
  if (lit != NULL)
    self->lit = g_array_ref (lit);
  /* Other colours: the picture is made again (its owners stay). */
  g_clear_pointer (&self->picture, cairo_surface_destroy);
}

void
tm_map_layer_set_selected (TmMapLayer *self,
                           guint       index)
{
  g_return_if_fail (TM_IS_MAP_LAYER (self));

  self->selected = index;
}

void
tm_map_layer_set_backdrop (TmMapLayer *self,
                           GArray     *rects)
{
  g_return_if_fail (TM_IS_MAP_LAYER (self));

  g_clear_pointer (&self->backdrop, g_array_unref);
  if (rects != NULL)
    self->backdrop = g_array_ref (rects);
}
