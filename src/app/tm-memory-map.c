/* tm-memory-map.c — every allocation of the shown memory id, over time and address
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The plot is one image: the core aggregates the allocations per pixel
 * (tm_alloc_raster_render(): the largest allocation touching a pixel owns
 * it, and every allocation owns at least one), and each pixel takes the
 * colour of its owner. The image is cached for the visible range and
 * size; the selection, hover, open-ended marks, breaks and axes are drawn
 * over it.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "tm-format.h"
#include "tm-memory-map-private.h"

#define MARK_WIDTH     5.0

/* ------------------------------------------------------------------ */
/* The canvas: a plain widget that draws for the map                    */

#define TM_TYPE_MEMORY_MAP_CANVAS (tm_memory_map_canvas_get_type ())
G_DECLARE_FINAL_TYPE (TmMemoryMapCanvas, tm_memory_map_canvas, TM, MEMORY_MAP_CANVAS, GtkWidget)

struct _TmMemoryMapCanvas
{
  GtkWidget    parent_instance;
  TmMemoryMap *map;  /* not referenced: the map owns the canvas */
};

G_DEFINE_FINAL_TYPE (TmMemoryMapCanvas, tm_memory_map_canvas, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_COLOR_BY,
  PROP_HIGHLIGHT_NEVER_FREED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TmMemoryMap, tm_memory_map, GTK_TYPE_WIDGET)

static void draw_map (TmMemoryMap *self,
                      GtkSnapshot *snapshot,
                      int          width,
                      int          height);

static void
tm_memory_map_canvas_snapshot (GtkWidget   *widget,
                               GtkSnapshot *snapshot)
{
  TmMemoryMapCanvas *canvas = TM_MEMORY_MAP_CANVAS (widget);

  if (canvas->map != NULL)
    draw_map (canvas->map, snapshot, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
}

static void
tm_memory_map_canvas_measure (GtkWidget      *widget,
                              GtkOrientation  orientation,
                              int             for_size,
                              int            *minimum,
                              int            *natural,
                              int            *minimum_baseline,
                              int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = TM_CHART_MARGIN_LEFT + TM_CHART_MARGIN_RIGHT + 100;
      *natural = 600;
    }
  else
    {
      *minimum = 90;
      *natural = 220;
    }
}

static void
tm_memory_map_canvas_class_init (TmMemoryMapCanvasClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->snapshot = tm_memory_map_canvas_snapshot;
  widget_class->measure = tm_memory_map_canvas_measure;
  gtk_widget_class_set_css_name (widget_class, "tm-memory-map-canvas");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
tm_memory_map_canvas_init (TmMemoryMapCanvas *self)
{
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "crosshair");
}

/* ------------------------------------------------------------------ */
/* Geometry                                                             */

void
tm_memory_map_get_plot (TmMemoryMap     *self,
                        graphene_rect_t *plot)
{
  int width, height;

  g_return_if_fail (TM_IS_MEMORY_MAP (self));

  width = self->forced_width > 0 ? self->forced_width : gtk_widget_get_width (self->canvas);
  height = self->forced_height > 0 ? self->forced_height : gtk_widget_get_height (self->canvas);
  graphene_rect_init (plot, TM_CHART_MARGIN_LEFT, TM_MAP_MARGIN_TOP,
                      MAX (width - TM_CHART_MARGIN_LEFT - TM_CHART_MARGIN_RIGHT, 1),
                      MAX (height - TM_MAP_MARGIN_TOP - TM_CHART_MARGIN_BOTTOM, 1));
}

gboolean
_tm_memory_map_has_data (TmMemoryMap *self)
{
  return self->allocations != NULL && self->viewport != NULL &&
         tm_allocations_get_n (self->allocations) > 0;
}

gint64
_tm_memory_map_x_to_time (TmMemoryMap *self,
                          double       x)
{
  graphene_rect_t plot;

  tm_memory_map_get_plot (self, &plot);
  return tm_viewport_x_to_time (self->viewport, x - plot.origin.x, plot.size.width);
}

double
_tm_memory_map_time_to_x (TmMemoryMap *self,
                          gint64       time_ps)
{
  graphene_rect_t plot;

  tm_memory_map_get_plot (self, &plot);
  return plot.origin.x + tm_viewport_time_to_x (self->viewport, time_ps, plot.size.width);
}

double
_tm_memory_map_y_to_axis (TmMemoryMap *self,
                          double       y)
{
  graphene_rect_t plot;

  tm_memory_map_get_plot (self, &plot);
  return self->y1 - (y - plot.origin.y) / plot.size.height * (self->y1 - self->y0);
}

double
_tm_memory_map_axis_to_y (TmMemoryMap *self,
                          double       offset)
{
  graphene_rect_t plot;

  tm_memory_map_get_plot (self, &plot);
  return plot.origin.y + (self->y1 - offset) / (self->y1 - self->y0) * plot.size.height;
}

/* Keeps the address range inside the axis, at least 16 bytes tall. */
void
_tm_memory_map_clamp_addresses (TmMemoryMap *self)
{
  double len = self->allocations != NULL ? (double) tm_allocations_get_axis_length (self->allocations) : 1.0;
  double span = CLAMP (self->y1 - self->y0, MIN (16.0, len), MAX (len, 1.0));

  if (len <= 0)
    len = 1;
  self->y0 = CLAMP (self->y0, 0.0, MAX (len - span, 0.0));
  self->y1 = self->y0 + span;
}

void
tm_memory_map_get_address_range (TmMemoryMap *self,
                                 double      *y0,
                                 double      *y1)
{
  g_return_if_fail (TM_IS_MEMORY_MAP (self));
  *y0 = self->y0;
  *y1 = self->y1;
}

void
tm_memory_map_set_address_range (TmMemoryMap *self,
                                 double       y0,
                                 double       y1)
{
  g_return_if_fail (TM_IS_MEMORY_MAP (self));

  self->y0 = MIN (y0, y1);
  self->y1 = MAX (y0, y1);
  _tm_memory_map_clamp_addresses (self);
  _tm_memory_map_invalidate (self);
}


/* ------------------------------------------------------------------ */
/* The image                                                            */

void
_tm_memory_map_invalidate (TmMemoryMap *self)
{
  self->tex_valid = FALSE;
  gtk_widget_queue_draw (self->canvas);
}

/* Colours a band of keys into the image, as the core fills it. Two
 * threads may paint at once, each its own columns: the painter is only
 * read. */
typedef struct
{
  const TmAllocation *items;
  guint32            *pixels;
  guint               width;
  guint32             dim_bg;
  const guint32      *label_colors;  /* NULL: by size */
  guint               n_label_colors;
  const guint8       *in_scope;
  gboolean            never_freed;
  guint32             size_colors[64];  /* by size: per size rank (bits of the byte count) */
} Painter;

/* The colour of the allocation of a (non-zero) key. */
static guint32
owner_color (const Painter *p,
             guint32        key,
             guint32        index_mask)
{
  guint c = tm_alloc_raster_key_index (key, index_mask);
  const TmAllocation *a = &p->items[c];
  guint64 bytes = (guint64) TM_ALLOCATION_BYTES (a);
  guint32 color;

  if (p->label_colors == NULL)
    color = p->size_colors[bytes == 0 ? 0 : 64 - __builtin_clzll (bytes)];
  else
    color = p->label_colors[MIN (TM_ALLOCATION_LABEL (a), p->n_label_colors)];
  if ((p->never_freed && a->end != TM_ALLOCATIONS_OPEN) || (p->in_scope != NULL && !p->in_scope[c]))
    color = _tm_memory_map_dim_color (color, p->dim_bg);
  return color;
}

/* Columns of keys are written into rows of pixels this many at a time:
 * a row's pixels of a tile are one cache line. */
#define PAINT_TILE 16

/* The pixels are written once and read by the renderer much later: a
 * whole line of them goes straight to memory, without the line being
 * read into the cache first (which would double the traffic). */
static inline void
write_line (guint32       *out,
            const guint32 *line)
{
#if defined(__SSE2__)
  for (guint k = 0; k < PAINT_TILE; k += 4)
    _mm_stream_si128 ((__m128i *) (out + k), _mm_load_si128 ((const __m128i *) (line + k)));
#else
  memcpy (out, line, PAINT_TILE * sizeof (guint32));
#endif
}

static void
paint_band (guint          x0,
            guint          n_columns,
            guint          height,
            const guint32 *keys,
            guint32        index_mask,
            gpointer       user_data)
{
  const Painter *p = user_data;
  guint32 last_key = 0, last_color = 0;
  guint32 line[PAINT_TILE] __attribute__ ((aligned (64)));

  /* Neighbours mostly share an owner, so the colour is looked up only
   * when the key changes (an empty pixel, key 0, is 0). */
  for (guint xb = 0; xb < n_columns; xb += PAINT_TILE)
    {
      guint nx = MIN (PAINT_TILE, n_columns - xb);
      const guint32 *columns = keys + (gsize) xb * height;
      guint32 *row = p->pixels + x0 + xb;
      /* Whole lines: the image is 64-byte aligned and so is every row. */
      gboolean whole = nx == PAINT_TILE && ((guintptr) row % 64) == 0 && (p->width % PAINT_TILE) == 0;

      for (guint r = 0; r < height; r++, row += p->width)
        {
          guint32 *out = whole ? line : row;

          for (guint x = 0; x < nx; x++)
            {
              guint32 key = columns[(gsize) x * height + r];

              if (key != last_key)
                {
                  last_key = key;
                  last_color = key == 0 ? 0 : owner_color (p, key, index_mask);
                }
              out[x] = last_color;
            }
          if (whole)
            write_line (row, line);
        }
    }
#if defined(__SSE2__)
  /* Streamed stores are weakly ordered: done before the band is. */
  _mm_sfence ();
#endif
}

/* The image's pixel buffers outlive the map's texture (a frame's render
 * node holds it), so a buffer comes back to the pool when its texture is
 * freed and the next image reuses it: a fresh buffer of a few MB would
 * cost a page fault per 4 KiB on every frame. */
struct _TmPixelPool
{
  gatomicrefcount ref;
  GMutex          mutex;
  gsize           size;            /* bytes of the kept buffers */
  gpointer        spare[2];
};

typedef struct
{
  TmPixelPool *pool;
  gpointer     pixels;
  gsize        size;
} PoolReturn;

static TmPixelPool *
pixel_pool_new (void)
{
  TmPixelPool *pool = g_new0 (TmPixelPool, 1);

  g_atomic_ref_count_init (&pool->ref);
  g_mutex_init (&pool->mutex);
  return pool;
}

static void
pixel_pool_unref (TmPixelPool *pool)
{
  if (!g_atomic_ref_count_dec (&pool->ref))
    return;
  for (guint k = 0; k < G_N_ELEMENTS (pool->spare); k++)
    g_aligned_free (pool->spare[k]);
  g_mutex_clear (&pool->mutex);
  g_free (pool);
}

/* A buffer of size bytes, 64-byte aligned, kept or new (not cleared). */
static gpointer
pixel_pool_take (TmPixelPool *pool,
                 gsize        size)
{
  gpointer pixels = NULL;

  g_mutex_lock (&pool->mutex);
  if (pool->size != size)
    {
      for (guint k = 0; k < G_N_ELEMENTS (pool->spare); k++)
        g_clear_pointer (&pool->spare[k], g_aligned_free);
      pool->size = size;
    }
  for (guint k = 0; k < G_N_ELEMENTS (pool->spare) && pixels == NULL; k++)
    pixels = g_steal_pointer (&pool->spare[k]);
  g_mutex_unlock (&pool->mutex);
  return pixels != NULL ? pixels : g_aligned_alloc (size, 1, 64);
}

/* GBytes' free function: the buffer goes back to the pool if it has room. */
static void
pixel_pool_return (gpointer data)
{
  PoolReturn *ret = data;
  TmPixelPool *pool = ret->pool;

  g_mutex_lock (&pool->mutex);
  for (guint k = 0; k < G_N_ELEMENTS (pool->spare) && ret->pixels != NULL && ret->size == pool->size; k++)
    if (pool->spare[k] == NULL)
      pool->spare[k] = g_steal_pointer (&ret->pixels);
  g_mutex_unlock (&pool->mutex);
  g_aligned_free (ret->pixels);
  pixel_pool_unref (pool);
  g_free (ret);
}

static void
build_texture (TmMemoryMap *self,
               int          width,
               int          height,
               const GdkRGBA *background)
{
  gint64 t0 = tm_viewport_get_start (self->viewport);
  gint64 t1 = tm_viewport_get_end (self->viewport);
  g_autoptr(GBytes) bytes = NULL;
  gsize n = (gsize) width * height;
  PoolReturn *ret;
  Painter p;

  if (self->tex_valid && self->texture != NULL && self->tex_t0 == t0 && self->tex_t1 == t1 &&
      self->tex_y0 == self->y0 && self->tex_y1 == self->y1 &&
      self->tex_width == width && self->tex_height == height)
    return;

  /* The old image's buffer can serve again unless a frame still holds it. */
  g_clear_object (&self->texture);
  p.items = tm_allocations_get_all (self->allocations, NULL);
  p.pixels = pixel_pool_take (self->pixel_pool, MAX (n, 1) * 4);
  p.width = width;
  p.dim_bg = _tm_memory_map_pack (background->red, background->green, background->blue, 1);
  p.label_colors = self->color_by == TM_MEMORY_MAP_COLOR_SIZE ? NULL : self->label_colors;
  p.n_label_colors = self->n_label_colors;
  p.in_scope = self->in_scope;
  p.never_freed = self->highlight_never_freed;
  for (guint rank = 0; rank < G_N_ELEMENTS (p.size_colors); rank++)
    p.size_colors[rank] = _tm_memory_map_size_color (self, rank == 0 ? 0 : G_GINT64_CONSTANT (1) << MIN (rank - 1, 62));
  tm_alloc_raster_render_bands (self->allocations, t0, t1, self->y0, self->y1, width, height, paint_band, &p);

  ret = g_new (PoolReturn, 1);
  ret->pool = self->pixel_pool;
  g_atomic_ref_count_inc (&ret->pool->ref);
  ret->pixels = p.pixels;
  ret->size = MAX (n, 1) * 4;
  bytes = g_bytes_new_with_free_func (p.pixels, n * 4, pixel_pool_return, ret);
  /* 0xAARRGGBB in native order is B, G, R, A in memory (little endian);
   * every pixel is opaque or fully transparent, so it is premultiplied. */
  self->texture = gdk_memory_texture_new (width, height,
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
                                          GDK_MEMORY_B8G8R8A8_PREMULTIPLIED,
#else
                                          GDK_MEMORY_A8R8G8B8_PREMULTIPLIED,
#endif
                                          bytes, (gsize) width * 4);
  self->tex_t0 = t0;
  self->tex_t1 = t1;
  self->tex_y0 = self->y0;
  self->tex_y1 = self->y1;
  self->tex_width = width;
  self->tex_height = height;
  self->tex_valid = TRUE;
}

/* ------------------------------------------------------------------ */
/* Drawing                                                              */

static void
append_outline (GtkSnapshot   *snapshot,
                const GdkRGBA *color,
                double         x,
                double         y,
                double         w,
                double         h,
                double         line)
{
  tm_axis_append_rect (snapshot, color, x - line, y - line, w + 2 * line, line);
  tm_axis_append_rect (snapshot, color, x - line, y + h, w + 2 * line, line);
  tm_axis_append_rect (snapshot, color, x - line, y, line, h);
  tm_axis_append_rect (snapshot, color, x + w, y, line, h);
}

/* The rectangle of allocation index on the canvas, clipped to the plot,
 * at least one pixel in each direction; FALSE when outside. */
static gboolean
allocation_rect (TmMemoryMap           *self,
                 const graphene_rect_t *plot,
                 guint                  index,
                 graphene_rect_t       *rect)
{
  const TmAllocation *a = tm_allocations_get (self->allocations, index);
  double x0 = _tm_memory_map_time_to_x (self, tm_allocations_get_start_time (self->allocations, index));
  double x1 = _tm_memory_map_time_to_x (self, tm_allocations_get_end_time (self->allocations, index));
  double ya = _tm_memory_map_axis_to_y (self, tm_allocations_address_to_axis (self->allocations, a->address));
  double yb = _tm_memory_map_axis_to_y (self, tm_allocations_address_to_axis (self->allocations,
                                                                              a->address + MAX (TM_ALLOCATION_BYTES (a), 1)));
  double left = plot->origin.x, right = plot->origin.x + plot->size.width;
  double top = plot->origin.y, bottom = plot->origin.y + plot->size.height;

  if (x1 < left || x0 > right || ya < top || yb > bottom)
    return FALSE;
  x0 = CLAMP (x0, left, right);
  x1 = CLAMP (x1, left, right);
  ya = CLAMP (ya, top, bottom);
  yb = CLAMP (yb, top, bottom);
  if (x1 - x0 < 1)
    x1 = x0 + 1;
  if (ya - yb < 1)
    yb = ya - 1;
  graphene_rect_init (rect, x0, yb, x1 - x0, ya - yb);
  return TRUE;
}

/* Open ends: a notch at the edge of the profile for each allocation made
 * before it (left) or never freed (right), when that edge is in view. */
static void
draw_open_marks (TmMemoryMap           *self,
                 GtkSnapshot           *snapshot,
                 const graphene_rect_t *plot,
                 const TmPalette       *palette)
{
  const TmSummary *s = tm_memory_store_get_summary (tm_allocations_get_store (self->allocations));
  double x_first = _tm_memory_map_time_to_x (self, s->first_time_ps);
  double x_last = _tm_memory_map_time_to_x (self, s->last_time_ps);
  gboolean left_in = x_first >= plot->origin.x - 1 && x_first <= plot->origin.x + plot->size.width;
  gboolean right_in = x_last >= plot->origin.x && x_last <= plot->origin.x + plot->size.width + 1;
  guint drawn = 0;

  if (!left_in && !right_in)
    return;

  /* The open-ended allocations, found once per index. */
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

  for (guint k = 0; k < self->open_ended->len && drawn < 20000; k++)
    {
      guint i = g_array_index (self->open_ended, guint, k);
      const TmAllocation *a = tm_allocations_get (self->allocations, i);
      graphene_rect_t r;

      if (!allocation_rect (self, plot, i, &r))
        continue;
      if (a->start == TM_ALLOCATIONS_OPEN && left_in)
        tm_axis_append_rect (snapshot, &palette->fg, x_first, r.origin.y, 2, r.size.height);
      if (a->end == TM_ALLOCATIONS_OPEN && right_in)
        {
          tm_axis_append_rect (snapshot, &palette->fg, x_last - 2, r.origin.y, 2, r.size.height);
          tm_axis_append_rect (snapshot, &palette->fg, x_last, r.origin.y + r.size.height / 2 - 0.5,
                               MARK_WIDTH, 1);
        }
      drawn++;
    }
}

static void
draw_address_axis (TmMemoryMap           *self,
                   GtkSnapshot           *snapshot,
                   PangoLayout           *layout,
                   const graphene_rect_t *plot,
                   const TmPalette       *palette)
{
  guint n_spans;
  const TmAddressSpan *spans = tm_allocations_get_spans (self->allocations, &n_spans);
  guint64 base = n_spans > 0 ? spans[0].address : 0;
  gint64 y_max, step;
  double span = self->y1 - self->y0;

  tm_axis_byte_scale ((gint64) MAX (span, 1.0), plot->size.height, &y_max, &step);
  if (step <= 0)
    step = 1;
  for (double v = ceil (self->y0 / (double) step) * (double) step; v <= self->y1; v += (double) step)
    {
      double y = _tm_memory_map_axis_to_y (self, v);
      guint64 address = tm_allocations_axis_to_address (self->allocations, v);
      g_autofree char *text = tm_format_bytes ((gint64) (address - base));

      tm_axis_append_rect (snapshot, &palette->grid, plot->origin.x, round (y), plot->size.width, 1);
      tm_axis_trim_zeros (text);
      tm_axis_draw_label (snapshot, layout, text, plot->origin.x - 6, y, 1.0, 0.5, &palette->dim, NULL);
    }

  /* Breaks: where a long unused gap was cut, a double line and "≈". */
  for (guint i = 1; i < n_spans; i++)
    {
      double gap_top = (double) spans[i].offset;
      double gap_bottom = (double) (spans[i - 1].offset + (spans[i - 1].end - spans[i - 1].address));
      double ym = _tm_memory_map_axis_to_y (self, (gap_top + gap_bottom) / 2);

      if (ym < plot->origin.y || ym > plot->origin.y + plot->size.height)
        continue;
      tm_axis_append_rect (snapshot, &palette->dim, plot->origin.x, round (ym) - 2, plot->size.width, 1);
      tm_axis_append_rect (snapshot, &palette->dim, plot->origin.x, round (ym) + 2, plot->size.width, 1);
      tm_axis_draw_label (snapshot, layout, "≈", plot->origin.x - 6, ym, 1.0, 0.5, &palette->fg, &palette->background);
    }
}

static void
draw_empty (TmMemoryMap           *self,
            GtkSnapshot           *snapshot,
            PangoLayout           *layout,
            const graphene_rect_t *plot,
            const TmPalette       *palette)
{
  const char *text;

  if (self->session == NULL || tm_session_get_memory_store (self->session) == NULL)
    return;
  /* The index comes a moment after the rest of the window: the time axis
   * is already where the map will be, with a quiet word in the plot. */
  if (self->allocations == NULL && tm_session_get_allocations_pending (self->session))
    {
      tm_axis_append_rect (snapshot, &palette->grid, plot->origin.x, plot->origin.y + plot->size.height,
                           plot->size.width, 1);
      tm_axis_draw_time_ruler (snapshot, layout, self->viewport, plot,
                               plot->origin.y + plot->size.height + 4, palette);
      text = _("Indexing allocations…");
    }
  else if (self->allocations == NULL)
    text = _("The allocations could not be read: the file changed on disk");
  else
    text = _("No allocations in this memory id");
  tm_axis_draw_label (snapshot, layout, text, plot->origin.x + plot->size.width / 2,
                      plot->origin.y + plot->size.height / 2, 0.5, 0.5, &palette->dim, NULL);
}

static void
draw_map (TmMemoryMap *self,
          GtkSnapshot *snapshot,
          int          width,
          int          height)
{
  g_autoptr(PangoLayout) layout = tm_axis_create_label_layout (self->canvas);
  TmPalette palette;
  graphene_rect_t plot;
  int scale = gtk_widget_get_scale_factor (self->canvas);
  guint selected;

  tm_palette_init_for_widget (&palette, self->canvas);
  tm_memory_map_get_plot (self, &plot);

  if (!_tm_memory_map_has_data (self))
    {
      draw_empty (self, snapshot, layout, &plot, &palette);
      return;
    }
  if (palette.dark != self->colors_dark)
    {
      _tm_memory_map_update_colors (self);
      self->tex_valid = FALSE;
    }

  build_texture (self, (int) plot.size.width * scale, (int) plot.size.height * scale, &palette.background);

  tm_axis_append_rect (snapshot, &palette.grid, plot.origin.x, plot.origin.y + plot.size.height,
                       plot.size.width, 1);
  draw_address_axis (self, snapshot, layout, &plot, &palette);
  gtk_snapshot_append_texture (snapshot, self->texture, &plot);
  draw_open_marks (self, snapshot, &plot, &palette);
  tm_axis_draw_time_ruler (snapshot, layout, self->viewport, &plot,
                           plot.origin.y + plot.size.height + 4, &palette);

  /* The shown time, as on the usage timeline. */
  if (self->session != NULL)
    {
      double x = _tm_memory_map_time_to_x (self, tm_session_get_shown_time (self->session));

      if (x >= plot.origin.x && x <= plot.origin.x + plot.size.width)
        tm_axis_append_rect (snapshot, &palette.accent, round (x) - 0.5, plot.origin.y, 1, plot.size.height);
    }

  selected = self->session != NULL ? tm_session_get_selected_allocation (self->session) : TM_ALLOCATIONS_NONE;
  if (self->hover != TM_ALLOCATIONS_NONE && self->hover != selected && !self->dragging)
    {
      graphene_rect_t r;

      if (allocation_rect (self, &plot, self->hover, &r))
        append_outline (snapshot, &palette.fg, r.origin.x, r.origin.y, r.size.width, r.size.height, 1);
    }
  if (selected != TM_ALLOCATIONS_NONE)
    {
      graphene_rect_t r;

      if (allocation_rect (self, &plot, selected, &r))
        {
          gtk_snapshot_append_color (snapshot, &palette.accent_fill, &r);
          append_outline (snapshot, &palette.accent, r.origin.x, r.origin.y, r.size.width, r.size.height, 2);
        }
    }

  if (self->banding && self->drag_moved)
    {
      graphene_rect_t band;

      graphene_rect_init (&band, MIN (self->drag_x0, self->drag_x1), MIN (self->drag_y0, self->drag_y1),
                          fabs (self->drag_x1 - self->drag_x0), fabs (self->drag_y1 - self->drag_y0));
      graphene_rect_intersection (&band, &plot, &band);
      gtk_snapshot_append_color (snapshot, &palette.accent_fill, &band);
      append_outline (snapshot, &palette.accent, band.origin.x, band.origin.y, band.size.width, band.size.height, 1);
    }
}

/* ------------------------------------------------------------------ */
/* Session                                                              */


static void
sync_store (TmMemoryMap *self)
{
  TmAllocations *allocations = self->session != NULL ? tm_session_get_allocations (self->session) : NULL;

  if (allocations != self->allocations)
    {
      g_set_object (&self->allocations, allocations);
      g_clear_pointer (&self->open_ended, g_array_unref);
      self->y0 = 0;
      self->y1 = allocations != NULL ? MAX ((double) tm_allocations_get_axis_length (allocations), 1.0) : 1.0;
      self->hover = TM_ALLOCATIONS_NONE;
      _tm_memory_map_update_colors (self);
      _tm_memory_map_sync_scope (self);
    }
  _tm_memory_map_invalidate (self);
}

static void
redraw (TmMemoryMap *self)
{
  gtk_widget_queue_draw (self->canvas);
}

static void
color_dropdown_selected_cb (TmMemoryMap *self)
{
  tm_memory_map_set_color_by (self, gtk_drop_down_get_selected (GTK_DROP_DOWN (self->color_dropdown)));
}

static void
never_freed_toggled_cb (TmMemoryMap *self)
{
  tm_memory_map_set_highlight_never_freed (self,
                                           gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->never_freed_toggle)));
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
tm_memory_map_dispose (GObject *object)
{
  TmMemoryMap *self = TM_MEMORY_MAP (object);
  GtkWidget *child;

  if (self->canvas != NULL)
    TM_MEMORY_MAP_CANVAS (self->canvas)->map = NULL;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  self->canvas = NULL;

  g_clear_object (&self->session_signals);
  g_clear_object (&self->viewport_signals);
  g_clear_object (&self->session);
  g_clear_object (&self->viewport);
  g_clear_object (&self->allocations);
  g_clear_object (&self->texture);
  g_clear_pointer (&self->pixel_pool, pixel_pool_unref);
  g_clear_pointer (&self->label_colors, g_free);
  g_clear_pointer (&self->open_ended, g_array_unref);
  g_clear_pointer (&self->in_scope, g_free);

  G_OBJECT_CLASS (tm_memory_map_parent_class)->dispose (object);
}

static void
tm_memory_map_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TmMemoryMap *self = TM_MEMORY_MAP (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_COLOR_BY:
      g_value_set_uint (value, self->color_by);
      break;
    case PROP_HIGHLIGHT_NEVER_FREED:
      g_value_set_boolean (value, self->highlight_never_freed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_memory_map_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  TmMemoryMap *self = TM_MEMORY_MAP (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      tm_memory_map_set_session (self, g_value_get_object (value));
      break;
    case PROP_COLOR_BY:
      tm_memory_map_set_color_by (self, g_value_get_uint (value));
      break;
    case PROP_HIGHLIGHT_NEVER_FREED:
      tm_memory_map_set_highlight_never_freed (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_memory_map_class_init (TmMemoryMapClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_memory_map_dispose;
  object_class->get_property = tm_memory_map_get_property;
  object_class->set_property = tm_memory_map_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL,
                         TM_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_COLOR_BY] =
    g_param_spec_uint ("color-by", NULL, NULL,
                       TM_MEMORY_MAP_COLOR_OP, TM_MEMORY_MAP_COLOR_SIZE, TM_MEMORY_MAP_COLOR_OP,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HIGHLIGHT_NEVER_FREED] =
    g_param_spec_boolean ("highlight-never-freed", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tm-memory-map");
  _tm_memory_map_input_class_init (widget_class);
}

static void
tm_memory_map_init (TmMemoryMap *self)
{
  GtkLayoutManager *box = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  GtkWidget *title;
  GtkWidget *color_label;
  const char *modes[] = { N_("Op"), N_("Region"), N_("Data type"), N_("Size"), NULL };
  const char *translated[G_N_ELEMENTS (modes)];
  self->pixel_pool = pixel_pool_new ();

  gtk_orientable_set_orientation (GTK_ORIENTABLE (box), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (box), 2);

  self->hover = TM_ALLOCATIONS_NONE;
  self->y1 = 1;

  self->header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_set_margin_start (self->header, 12);
  gtk_widget_set_margin_end (self->header, 12);
  gtk_widget_set_parent (self->header, GTK_WIDGET (self));

  title = gtk_label_new (_("Memory map"));
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_set_tooltip_text (title, _("Every allocation: x from its allocation to its deallocation, y its "
                                        "addresses. Shift+wheel or a vertical rubber band (Shift+drag) zooms "
                                        "addresses; click an allocation to select it."));
  gtk_box_append (GTK_BOX (self->header), title);

  color_label = gtk_label_new_with_mnemonic (_("_Colour by"));
  gtk_widget_add_css_class (color_label, "dim-label");
  gtk_box_append (GTK_BOX (self->header), color_label);
  for (guint i = 0; modes[i] != NULL; i++)
    translated[i] = _(modes[i]);
  translated[G_N_ELEMENTS (modes) - 1] = NULL;
  self->color_dropdown = gtk_drop_down_new_from_strings (translated);
  gtk_widget_set_valign (self->color_dropdown, GTK_ALIGN_CENTER);
  gtk_label_set_mnemonic_widget (GTK_LABEL (color_label), self->color_dropdown);
  g_signal_connect_object (self->color_dropdown, "notify::selected",
                           G_CALLBACK (color_dropdown_selected_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self->header), self->color_dropdown);

  self->never_freed_toggle = gtk_toggle_button_new_with_mnemonic (_("_Never freed"));
  gtk_widget_set_valign (self->never_freed_toggle, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (self->never_freed_toggle,
                               _("Highlight the allocations still live at the end of the profile"));
  g_signal_connect_object (self->never_freed_toggle, "toggled",
                           G_CALLBACK (never_freed_toggled_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self->header), self->never_freed_toggle);

  self->legend_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  gtk_widget_set_hexpand (self->legend_box, TRUE);
  gtk_widget_set_halign (self->legend_box, GTK_ALIGN_END);
  gtk_widget_set_overflow (self->legend_box, GTK_OVERFLOW_HIDDEN);
  gtk_box_append (GTK_BOX (self->header), self->legend_box);

  self->canvas = g_object_new (TM_TYPE_MEMORY_MAP_CANVAS, NULL);
  TM_MEMORY_MAP_CANVAS (self->canvas)->map = self;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->canvas),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Memory map"),
                                  -1);
  gtk_widget_set_parent (self->canvas, GTK_WIDGET (self));

  self->session_signals = g_signal_group_new (TM_TYPE_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "notify::memory-store", G_CALLBACK (sync_store), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::profile", G_CALLBACK (sync_store), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::allocations", G_CALLBACK (sync_store), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::allocations-pending", G_CALLBACK (redraw), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::selected-allocation", G_CALLBACK (redraw), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::selected-scope", G_CALLBACK (_tm_memory_map_sync_scope), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::selected-time", G_CALLBACK (redraw), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::has-selected-time", G_CALLBACK (redraw), self);
  self->viewport_signals = g_signal_group_new (TM_TYPE_VIEWPORT);
  g_signal_group_connect_swapped (self->viewport_signals, "changed", G_CALLBACK (redraw), self);

  _tm_memory_map_input_init (self);
}

/* ------------------------------------------------------------------ */
/* Public API                                                           */

GtkWidget *
tm_memory_map_new (TmSession *session)
{
  return g_object_new (TM_TYPE_MEMORY_MAP, "session", session, NULL);
}

TmSession *
tm_memory_map_get_session (TmMemoryMap *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_MAP (self), NULL);
  return self->session;
}

void
tm_memory_map_set_session (TmMemoryMap *self,
                           TmSession   *session)
{
  g_return_if_fail (TM_IS_MEMORY_MAP (self));
  g_return_if_fail (session == NULL || TM_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;

  g_clear_object (&self->viewport);
  if (session != NULL)
    self->viewport = g_object_ref (tm_session_get_viewport (session));
  g_signal_group_set_target (self->session_signals, session);
  g_signal_group_set_target (self->viewport_signals, self->viewport);
  sync_store (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

TmMemoryMapColor
tm_memory_map_get_color_by (TmMemoryMap *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_MAP (self), TM_MEMORY_MAP_COLOR_OP);
  return self->color_by;
}

void
tm_memory_map_set_color_by (TmMemoryMap      *self,
                            TmMemoryMapColor  color_by)
{
  g_return_if_fail (TM_IS_MEMORY_MAP (self));
  g_return_if_fail (color_by <= TM_MEMORY_MAP_COLOR_SIZE);

  if (self->color_by == color_by)
    return;
  self->color_by = color_by;
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->color_dropdown), color_by);
  _tm_memory_map_update_colors (self);
  _tm_memory_map_invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR_BY]);
}

gboolean
tm_memory_map_get_highlight_never_freed (TmMemoryMap *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_MAP (self), FALSE);
  return self->highlight_never_freed;
}

void
tm_memory_map_set_highlight_never_freed (TmMemoryMap *self,
                                         gboolean     highlight)
{
  g_return_if_fail (TM_IS_MEMORY_MAP (self));

  highlight = !!highlight;
  if (self->highlight_never_freed == highlight)
    return;
  self->highlight_never_freed = highlight;
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->never_freed_toggle), highlight);
  _tm_memory_map_invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIGHLIGHT_NEVER_FREED]);
}

GtkWidget *
tm_memory_map_get_canvas (TmMemoryMap *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_MAP (self), NULL);
  return self->canvas;
}

GskRenderNode *
tm_memory_map_render_node (TmMemoryMap *self,
                           int          width,
                           int          height)
{
  GtkSnapshot *snapshot;

  g_return_val_if_fail (TM_IS_MEMORY_MAP (self), NULL);

  self->forced_width = width;
  self->forced_height = height;
  snapshot = gtk_snapshot_new ();
  draw_map (self, snapshot, width, height);
  self->forced_width = 0;
  self->forced_height = 0;
  return gtk_snapshot_free_to_node (snapshot);
}
