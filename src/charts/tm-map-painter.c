/* tm-map-painter.c — the memory map's picture, in colour
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "tm-alloc-raster.h"
#include "tm-map-painter.h"

guint32
tm_map_color_pack (double r,
                   double g,
                   double b,
                   double a)
{
  return ((guint32) (a * 255 + 0.5) << 24) | ((guint32) (r * 255 + 0.5) << 16) |
         ((guint32) (g * 255 + 0.5) << 8) | (guint32) (b * 255 + 0.5);
}

/* HSV to RGB as GTK computes it (gtk_hsv_to_rgb()), float for float, so
 * that a name has the colour it had when the window asked GTK. */
static void
hsv_to_rgb (float  h,
            float  s,
            float  v,
            float *r,
            float *g,
            float *b)
{
  float hue, f, p, q, t;

  if (s == 0.0)
    {
      *r = *g = *b = v;
      return;
    }
  hue = h * 6.0;
  if (hue == 6.0)
    hue = 0.0;
  f = hue - (int) hue;
  p = v * (1.0 - s);
  q = v * (1.0 - s * f);
  t = v * (1.0 - s * (1.0 - f));
  switch ((int) hue)
    {
    case 0: *r = v; *g = t; *b = p; break;
    case 1: *r = q; *g = v; *b = p; break;
    case 2: *r = p; *g = v; *b = t; break;
    case 3: *r = p; *g = q; *b = v; break;
    case 4: *r = t; *g = p; *b = v; break;
    default: *r = v; *g = p; *b = q; break;
    }
}

guint32
tm_map_color_for_name (const char *name,
                       gboolean    dark)
{
  guint h;
  float r, g, b;

  g_return_val_if_fail (name != NULL, 0);

  if (name[0] == '\0')
    return dark ? tm_map_color_pack (0.45, 0.45, 0.48, 1) : tm_map_color_pack (0.62, 0.62, 0.65, 1);
  h = g_str_hash (name);
  hsv_to_rgb ((float) (h % 360) / 360.0f,
              dark ? 0.55f : 0.60f + (float) ((h >> 9) % 3) * 0.1f,
              dark ? 0.80f + (float) ((h >> 11) % 3) * 0.06f : 0.70f + (float) ((h >> 11) % 3) * 0.08f,
              &r, &g, &b);
  return tm_map_color_pack (r, g, b, 1);
}

guint
tm_map_size_class (gint64 bytes)
{
  if (bytes < 1024)
    return 0;
  if (bytes < 1024 * 1024)
    return 1;
  if (bytes < 16 * 1024 * 1024)
    return 2;
  if (bytes < 256 * 1024 * 1024)
    return 3;
  return 4;
}

guint32
tm_map_size_class_color (guint    klass,
                         gboolean dark)
{
  static const double light[TM_MAP_N_SIZE_CLASSES][3] = {
    { 0.60, 0.76, 0.95 }, { 0.21, 0.52, 0.89 }, { 0.18, 0.76, 0.49 }, { 0.96, 0.61, 0.07 }, { 0.88, 0.11, 0.14 },
  };
  static const double darkc[TM_MAP_N_SIZE_CLASSES][3] = {
    { 0.45, 0.60, 0.80 }, { 0.38, 0.63, 0.92 }, { 0.34, 0.89, 0.54 }, { 1.00, 0.75, 0.30 }, { 1.00, 0.42, 0.42 },
  };
  const double *c;

  g_return_val_if_fail (klass < TM_MAP_N_SIZE_CLASSES, 0);

  c = dark ? darkc[klass] : light[klass];
  return tm_map_color_pack (c[0], c[1], c[2], 1);
}

guint32
tm_map_dim_color (guint32 color,
                  guint32 bg)
{
  guint32 r = (((color >> 16) & 0xff) + 3 * ((bg >> 16) & 0xff)) / 4;
  guint32 g = (((color >> 8) & 0xff) + 3 * ((bg >> 8) & 0xff)) / 4;
  guint32 b = ((color & 0xff) + 3 * (bg & 0xff)) / 4;

  return 0xff000000u | (r << 16) | (g << 8) | b;
}

const char *
tm_map_label_key (const TmAllocationLabel *label,
                  TmMapColorBy             color_by)
{
  g_return_val_if_fail (label != NULL, "");

  switch (color_by)
    {
    case TM_MAP_COLOR_REGION:
      return label->region_type;
    case TM_MAP_COLOR_DATA_TYPE:
      return label->data_type;
    case TM_MAP_COLOR_OP:
    case TM_MAP_COLOR_SIZE:
    default:
      return label->op_name;
    }
}

/* ------------------------------------------------------------------ */
/* The pixel buffers                                                    */

/* An image's buffer outlives the painter's reference to it (a frame's
 * drawing holds the image), so it comes back to the pool when the image
 * is destroyed and the next image reuses it. A window being resized asks
 * for a new size every frame: a kept buffer serves any image that fits
 * in it and is not under half its size, and a new one has room for an
 * eighth more, so that growing a little allocates (and faults in) nothing
 * either. */
typedef struct
{
  gatomicrefcount ref;
  GMutex          mutex;
  gpointer        spare[2];
} PixelPool;

typedef struct
{
  PixelPool *pool;
  gpointer   pixels;
} PoolReturn;

static cairo_user_data_key_t pool_return_key;

/* A buffer's capacity in bytes is kept in the 64 bytes before it. */
#define BUFFER_HEADER 64

static gpointer
buffer_new (gsize capacity)
{
  guint8 *block = g_aligned_alloc (capacity + BUFFER_HEADER, 1, 64);

  *(gsize *) (gpointer) block = capacity;
  return block + BUFFER_HEADER;
}

static gsize
buffer_capacity (gpointer pixels)
{
  return *(const gsize *) (gpointer) ((guint8 *) pixels - BUFFER_HEADER);
}

static void
buffer_free (gpointer pixels)
{
  if (pixels != NULL)
    g_aligned_free ((guint8 *) pixels - BUFFER_HEADER);
}

static PixelPool *
pixel_pool_new (void)
{
  PixelPool *pool = g_new0 (PixelPool, 1);

  g_atomic_ref_count_init (&pool->ref);
  g_mutex_init (&pool->mutex);
  return pool;
}

static void
pixel_pool_unref (PixelPool *pool)
{
  if (!g_atomic_ref_count_dec (&pool->ref))
    return;
  for (guint k = 0; k < G_N_ELEMENTS (pool->spare); k++)
    buffer_free (pool->spare[k]);
  g_mutex_clear (&pool->mutex);
  g_free (pool);
}

/* A buffer of at least size bytes, 64-byte aligned, kept or new (not
 * cleared). Kept ones too small or too large for it go. */
static gpointer
pixel_pool_take (PixelPool *pool,
                 gsize      size)
{
  gpointer pixels = NULL;

  g_mutex_lock (&pool->mutex);
  for (guint k = 0; k < G_N_ELEMENTS (pool->spare); k++)
    {
      gsize capacity;

      if (pool->spare[k] == NULL)
        continue;
      capacity = buffer_capacity (pool->spare[k]);
      if (pixels == NULL && capacity >= size && capacity / 2 <= size)
        pixels = g_steal_pointer (&pool->spare[k]);
      else if (capacity < size || capacity / 2 > size)
        g_clear_pointer (&pool->spare[k], buffer_free);
    }
  g_mutex_unlock (&pool->mutex);
  return pixels != NULL ? pixels : buffer_new (size + size / 8);
}

/* The image's destroy notify: the buffer goes back to the pool if it has
 * room. */
static void
pixel_pool_return (gpointer data)
{
  PoolReturn *ret = data;
  PixelPool *pool = ret->pool;

  g_mutex_lock (&pool->mutex);
  for (guint k = 0; k < G_N_ELEMENTS (pool->spare) && ret->pixels != NULL; k++)
    if (pool->spare[k] == NULL)
      pool->spare[k] = g_steal_pointer (&ret->pixels);
  g_mutex_unlock (&pool->mutex);
  buffer_free (ret->pixels);
  pixel_pool_unref (pool);
  g_free (ret);
}

/* ------------------------------------------------------------------ */
/* Painting                                                             */

struct _TmMapPainter
{
  PixelPool     *pool;
  /* Label colours, and what they were made for. */
  guint32       *label_colors;
  guint          n_label_colors;
  TmAllocations *colors_for;      /* not referenced: compared only */
  TmMapColorBy   colors_by;
  gboolean       colors_dark;
};

TmMapPainter *
tm_map_painter_new (void)
{
  TmMapPainter *self = g_new0 (TmMapPainter, 1);

  self->pool = pixel_pool_new ();
  return self;
}

void
tm_map_painter_free (TmMapPainter *self)
{
  if (self == NULL)
    return;
  pixel_pool_unref (self->pool);
  g_free (self->label_colors);
  g_free (self);
}

/* The label colours of allocations for the mode (by op for size). */
static void
update_colors (TmMapPainter  *self,
               TmAllocations *allocations,
               TmMapColorBy   color_by,
               gboolean       dark)
{
  guint n_labels;

  if (self->label_colors != NULL && self->colors_for == allocations && self->colors_by == color_by &&
      self->colors_dark == dark && self->n_label_colors == tm_allocations_get_n_labels (allocations))
    return;

  n_labels = tm_allocations_get_n_labels (allocations);
  g_free (self->label_colors);
  self->label_colors = g_new (guint32, n_labels + 1);
  self->n_label_colors = n_labels;
  for (guint l = 0; l < n_labels; l++)
    self->label_colors[l] = tm_map_color_for_name (tm_map_label_key (tm_allocations_get_label (allocations, l), color_by),
                                                   dark);
  self->label_colors[n_labels] = tm_map_color_for_name ("", dark);
  self->colors_for = allocations;
  self->colors_by = color_by;
  self->colors_dark = dark;
}

guint32
tm_map_painter_color (TmMapPainter       *self,
                      TmAllocations      *allocations,
                      const TmAllocation *a,
                      TmMapColorBy        color_by,
                      gboolean            dark)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (TM_IS_ALLOCATIONS (allocations) && a != NULL, 0);

  if (color_by == TM_MAP_COLOR_SIZE)
    return tm_map_size_class_color (tm_map_size_class (TM_ALLOCATION_BYTES (a)), dark);
  update_colors (self, allocations, color_by, dark);
  return self->label_colors[MIN (TM_ALLOCATION_LABEL (a), self->n_label_colors)];
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
    color = tm_map_dim_color (color, p->dim_bg);
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

/* The image over pixels (width × height, from the pool), whose buffer
 * comes back to the pool when the image is destroyed. */
static cairo_surface_t *
image_for_pixels (TmMapPainter *self,
                  guint32      *pixels,
                  int           width,
                  int           height)
{
  cairo_surface_t *image;
  PoolReturn *ret;

  /* 0xAARRGGBB in native order, premultiplied (every pixel is opaque or
   * fully transparent): cairo's ARGB32. */
  image = cairo_image_surface_create_for_data ((unsigned char *) pixels, CAIRO_FORMAT_ARGB32, width, height, width * 4);
  if (cairo_surface_status (image) != CAIRO_STATUS_SUCCESS)
    {
      buffer_free (pixels);
      return image;
    }
  ret = g_new (PoolReturn, 1);
  ret->pool = self->pool;
  g_atomic_ref_count_inc (&ret->pool->ref);
  ret->pixels = pixels;
  cairo_surface_set_user_data (image, &pool_return_key, ret, pixel_pool_return);
  return image;
}

cairo_surface_t *
tm_map_painter_paint (TmMapPainter            *self,
                      TmAllocations           *allocations,
                      gint64                   t0_ps,
                      gint64                   t1_ps,
                      double                   y0,
                      double                   y1,
                      int                      width,
                      int                      height,
                      const TmMapPaintOptions *options)
{
  gsize n = (gsize) MAX (width, 1) * MAX (height, 1);
  Painter p;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (TM_IS_ALLOCATIONS (allocations), NULL);
  g_return_val_if_fail (options != NULL, NULL);

  width = MAX (width, 1);
  height = MAX (height, 1);
  update_colors (self, allocations, options->color_by, options->dark);
  p.items = tm_allocations_get_all (allocations, NULL);
  p.pixels = pixel_pool_take (self->pool, n * 4);
  p.width = width;
  p.dim_bg = options->background;
  p.label_colors = options->color_by == TM_MAP_COLOR_SIZE ? NULL : self->label_colors;
  p.n_label_colors = self->n_label_colors;
  p.in_scope = options->in_scope;
  p.never_freed = options->never_freed;
  for (guint rank = 0; rank < G_N_ELEMENTS (p.size_colors); rank++)
    p.size_colors[rank] = tm_map_size_class_color (tm_map_size_class (rank == 0 ? 0 : G_GINT64_CONSTANT (1) << MIN (rank - 1, 62)),
                                                   options->dark);
  tm_alloc_raster_render_bands (allocations, t0_ps, t1_ps, y0, y1, width, height, paint_band, &p);

  return image_for_pixels (self, p.pixels, width, height);
}

guint32 *
tm_map_painter_take_pixels (TmMapPainter *self,
                            int           width,
                            int           height)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  return pixel_pool_take (self->pool, (gsize) width * height * 4);
}

void
tm_map_paint_owner_columns (guint32       *pixels,
                            const guint32 *cells,
                            int            width,
                            int            height,
                            int            x0,
                            int            n_columns,
                            const guint32 *colors)
{
  guint32 line[PAINT_TILE] __attribute__ ((aligned (64)));

  g_return_if_fail (pixels != NULL && cells != NULL && colors != NULL);
  g_return_if_fail (x0 >= 0 && n_columns >= 0 && x0 + n_columns <= width);

  for (int r = 0; r < height; r++)
    {
      const guint32 *in = cells + (gsize) r * width;
      guint32 *row = pixels + (gsize) r * width;

      for (int x = x0; x < x0 + n_columns; x += PAINT_TILE)
        {
          guint nx = MIN (PAINT_TILE, (guint) (x0 + n_columns - x));
          /* Whole lines streamed, as paint_band() writes them. */
          gboolean whole = nx == PAINT_TILE && ((guintptr) (row + x) % 64) == 0;
          guint32 *out = whole ? line : row + x;

          for (guint k = 0; k < nx; k++)
            out[k] = in[x + k] == TM_ALLOCATIONS_NONE ? 0 : colors[in[x + k]];
          if (whole)
            write_line (row + x, line);
        }
    }
#if defined(__SSE2__)
  _mm_sfence ();
#endif
}

cairo_surface_t *
tm_map_painter_image (TmMapPainter *self,
                      guint32      *pixels,
                      int           width,
                      int           height)
{
  g_return_val_if_fail (self != NULL && pixels != NULL, NULL);

  return image_for_pixels (self, pixels, width, height);
}

cairo_surface_t *
tm_map_painter_paint_owners (TmMapPainter  *self,
                             const guint32 *cells,
                             int            width,
                             int            height,
                             const guint32 *colors)
{
  guint32 *pixels;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (cells != NULL && colors != NULL, NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  pixels = tm_map_painter_take_pixels (self, width, height);
  tm_map_paint_owner_columns (pixels, cells, width, height, 0, width, colors);
  return image_for_pixels (self, pixels, width, height);
}
