/* tm-series-painter.c — the timeline's stacked areas, column by column
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tm-series-painter.h"

/* Premultiplied native-endian ARGB, GDK_MEMORY_DEFAULT's layout. */
static guint32
premultiply (const TmChartColor *c)
{
  guint a = (guint) lround (c->alpha * 255.0);
  guint r = (guint) lround (c->red * c->alpha * 255.0);
  guint g = (guint) lround (c->green * c->alpha * 255.0);
  guint b = (guint) lround (c->blue * c->alpha * 255.0);

  return (a << 24) | (r << 16) | (g << 8) | b;
}

/* Premultiplied src over dst. */
static inline guint32
over (guint32 src,
      guint32 dst)
{
  guint inverse = 255 - (src >> 24);
  guint32 out = 0;

  for (int shift = 0; shift < 32; shift += 8)
    {
      guint v = ((src >> shift) & 0xff) + (((dst >> shift) & 0xff) * inverse + 127) / 255;

      out |= MIN (v, 255u) << shift;
    }

  return out;
}

/* Where a column's colour changes, going down: from row y on it is color. */
typedef struct _PaintChange
{
  int     y;
  int     x;
  guint32 color;
} PaintChange;

/* A column is at most six segments (a line and a fill per series) with
 * gaps between them, the fragmentation over them: a line, or where it
 * spans many rows a translucent band between two solid edges. Each piece
 * splits into at most five changes. */
#define MAX_CHANGES 40

typedef struct
{
  PaintChange *changes;
  guint        n;
  int          x;
  int          frag_top;      /* rows of the fragmentation, or -1 */
  int          frag_bottom;
  guint32      frag;
  /* A band: rows [band_top, band_bottom) inside the fragmentation rows
   * are band over the series, the rest solid edges; band_top ==
   * band_bottom for a line. */
  int          band_top;
  int          band_bottom;
  guint32      band;
} ColumnPainter;

static inline void
add_change (ColumnPainter *p,
            int            y,
            guint32        color)
{
  p->changes[p->n++] = (PaintChange) { y, p->x, color };
}

/* Rows [a, b) are color, with the fragmentation over them where it is. */
static inline void
paint_piece (ColumnPainter *p,
             int            a,
             int            b,
             guint32        color)
{
  int bounds[4];
  guint32 colors[3];

  if (b <= a)
    return;

  if (p->frag_top < 0 || b <= p->frag_top || a >= p->frag_bottom)
    {
      add_change (p, a, color);
      return;
    }

  if (a < p->frag_top)
    add_change (p, a, color);

  /* Edge, band, edge (the band empty for a line). */
  bounds[0] = p->frag_top;
  bounds[1] = p->band_top;
  bounds[2] = p->band_bottom;
  bounds[3] = p->frag_bottom;
  colors[0] = over (p->frag, color);
  colors[1] = over (p->band, color);
  colors[2] = colors[0];
  for (int i = 0; i < 3; i++)
    {
      int from = MAX (a, bounds[i]), to = MIN (b, bounds[i + 1]);

      if (to > from)
        add_change (p, from, colors[i]);
    }

  if (b > p->frag_bottom)
    add_change (p, p->frag_bottom, color);
}

struct _TmSeriesPainter
{
  TmLodBucket     *buckets;
  guint            n_buckets_allocated;
  cairo_surface_t *surfaces[2];
  PaintChange     *changes;
  PaintChange     *sorted_changes;
  gsize            n_changes_allocated;
  guint            hidden;
};

TmSeriesPainter *
tm_series_painter_new (void)
{
  return g_new0 (TmSeriesPainter, 1);
}

void
tm_series_painter_free (TmSeriesPainter *self)
{
  if (self == NULL)
    return;

  g_free (self->buckets);
  g_free (self->changes);
  g_free (self->sorted_changes);
  for (guint i = 0; i < G_N_ELEMENTS (self->surfaces); i++)
    g_clear_pointer (&self->surfaces[i], cairo_surface_destroy);
  g_free (self);
}

/* An image of width × height device pixels to paint the series into:
 * one of the two kept from earlier frames when nothing else holds it any
 * more (so a frame costs no fresh 2–3 MB allocation and its page faults),
 * otherwise a new one. Flushed; its pixels are left as they were. */
static cairo_surface_t *
get_paint_surface (TmSeriesPainter *self,
                   int              width,
                   int              height)
{
  cairo_surface_t *surface = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (self->surfaces); i++)
    {
      cairo_surface_t *candidate = self->surfaces[i];

      if (candidate == NULL || cairo_surface_get_reference_count (candidate) > 1)
        continue;
      if (cairo_image_surface_get_width (candidate) != width ||
          cairo_image_surface_get_height (candidate) != height)
        {
          g_clear_pointer (&self->surfaces[i], cairo_surface_destroy);
          continue;
        }
      surface = candidate;
      cairo_surface_flush (surface);
      break;
    }

  if (surface == NULL)
    {
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
      for (guint i = 0; i < G_N_ELEMENTS (self->surfaces); i++)
        if (self->surfaces[i] == NULL ||
            cairo_surface_get_reference_count (self->surfaces[i]) == 1)
          {
            g_clear_pointer (&self->surfaces[i], cairo_surface_destroy);
            self->surfaces[i] = surface;
            break;
          }
      /* Both kept images still in use elsewhere: this one is not kept. */
      if (self->surfaces[0] != surface && self->surfaces[1] != surface)
        return surface;
    }

  return cairo_surface_reference (surface);
}

void
tm_series_painter_set_hidden (TmSeriesPainter *self,
                              guint            hidden)
{
  g_return_if_fail (self != NULL);

  self->hidden = hidden;
}

gboolean
tm_series_painter_lod_has_stack (const TmLod *lod)
{
  TmLodBucket all;

  g_return_val_if_fail (lod != NULL, FALSE);

  return tm_lod_query_indices (lod, 0, tm_lod_get_n_snapshots (lod) - 1, &all) && all.stack_max > 0;
}

gboolean
tm_series_painter_column (const TmLodBucket *b,
                          int                x,
                          int                height,
                          int                scale,
                          gint64             y_max,
                          gboolean           show_stack,
                          gboolean           show_free,
                          guint              hidden,
                          int               *prev_ftop,
                          int               *prev_fbottom,
                          TmSeriesColumn    *out)
{
  double y_scale = (double) height / (double) y_max;
  int line = scale > 1 ? 3 : 2;
  int frag_line = scale > 1 ? 3 : 2;
  int dash_on = 6 * scale, dash_period = 10 * scale;
  int s_min, s_max, u_min, u_max, t_min, t_max, f_top, f_bottom;
  int half_up = line / 2, half_down = (line + 1) / 2;
  int a[TM_SERIES_N_PIECES], e[TM_SERIES_N_PIECES];
  int cursor = 0;

  out->frag_top = out->frag_bottom = out->band_top = out->band_bottom = -1;
  out->band_drawn = FALSE;
  for (int k = 0; k < TM_SERIES_N_PIECES; k++)
    out->top[k] = out->bottom[k] = 0;

  if (!b->has_data)
    {
      *prev_ftop = *prev_fbottom = -1;
      return FALSE;
    }

  /* Values are >= 0: adding 0.5 and truncating rounds. */
  /* Values above y_max (the Fit scale of a zoomed view) stop at the top. */
#define ROW(v) MAX (0, (int) ((double) height - (double) (v) * y_scale + 0.5))

  /* Rows grow downwards: a larger value has a smaller row. */
  s_min = ROW (b->stack_min);
  s_max = ROW (b->stack_max);
  u_min = ROW (b->used_min);
  u_max = ROW (b->used_max);
  t_min = ROW (b->total_min);
  t_max = ROW (b->total_max);

#undef ROW

  /* Fragmentation on its 0–1 axis, joined to the previous column and
   * dashed along x (steep parts stay solid). */
  f_top = (int) (height - CLAMP (b->frag_max, 0.0, 1.0) * height + 0.5) - frag_line / 2;
  f_bottom = (int) (height - CLAMP (b->frag_min, 0.0, 1.0) * height + 0.5) + (frag_line + 1) / 2;
  if (*prev_ftop >= 0)
    {
      int joined_top = MIN (f_top, *prev_ftop + frag_line);
      int joined_bottom = MAX (f_bottom, *prev_fbottom - frag_line);

      *prev_ftop = f_top;
      *prev_fbottom = f_bottom;
      f_top = joined_top;
      f_bottom = joined_bottom;
    }
  else
    {
      *prev_ftop = f_top;
      *prev_fbottom = f_bottom;
    }
  if ((hidden & TM_SERIES_PAINTER_FRAGMENTATION) == 0 &&
      (x % dash_period < dash_on || f_bottom - f_top > 3 * frag_line))
    {
      out->frag_top = CLAMP (f_top, 0, height);
      out->frag_bottom = CLAMP (f_bottom, 0, height);
      /* Spanning many rows (fragmentation swinging within the
       * column): the range as a band, its extremes as solid edges. */
      if (f_bottom - f_top > 3 * frag_line)
        {
          out->band_top = CLAMP (f_top + frag_line, 0, height);
          out->band_bottom = CLAMP (f_bottom - frag_line, out->band_top, height);
          out->band_drawn = (x / scale) % TM_SERIES_BAND_HATCH == 0;
        }
      else
        out->band_top = out->band_bottom = out->frag_top;
    }

  /* Each series is a fill up to its smallest value and a full-strength
   * band from there to its largest (at least `line` rows: its top
   * line). Going down the column: free, heap, stack; a later series
   * (lower: stack <= stack + heap <= total) wins where they meet, and
   * a line wins over its own fill. */
  a[TM_SERIES_PIECE_STACK_LINE] = show_stack ? s_max - half_up : height;
  e[TM_SERIES_PIECE_STACK_LINE] = s_min + half_down;
  a[TM_SERIES_PIECE_STACK_FILL] = MAX (s_min, e[TM_SERIES_PIECE_STACK_LINE]);
  e[TM_SERIES_PIECE_STACK_FILL] = height;
  a[TM_SERIES_PIECE_HEAP_LINE] = MIN (u_max - half_up, a[TM_SERIES_PIECE_STACK_LINE]);
  e[TM_SERIES_PIECE_HEAP_LINE] = MIN (u_min + half_down, a[TM_SERIES_PIECE_STACK_LINE]);
  a[TM_SERIES_PIECE_HEAP_FILL] = MAX (u_min, e[TM_SERIES_PIECE_HEAP_LINE]);
  e[TM_SERIES_PIECE_HEAP_FILL] = show_stack ? MIN (s_max, a[TM_SERIES_PIECE_STACK_LINE]) : height;
  if (show_free)
    {
      a[TM_SERIES_PIECE_FREE_LINE] = MIN (t_max - half_up, a[TM_SERIES_PIECE_HEAP_LINE]);
      e[TM_SERIES_PIECE_FREE_LINE] = MIN (t_min + half_down, a[TM_SERIES_PIECE_HEAP_LINE]);
      a[TM_SERIES_PIECE_FREE_FILL] = MAX (t_min, e[TM_SERIES_PIECE_FREE_LINE]);
      e[TM_SERIES_PIECE_FREE_FILL] = MIN (u_max, a[TM_SERIES_PIECE_HEAP_LINE]);
    }
  else
    a[TM_SERIES_PIECE_FREE_LINE] = e[TM_SERIES_PIECE_FREE_LINE] =
      a[TM_SERIES_PIECE_FREE_FILL] = e[TM_SERIES_PIECE_FREE_FILL] = 0;
  if (!show_stack)
    a[TM_SERIES_PIECE_STACK_LINE] = e[TM_SERIES_PIECE_STACK_LINE] =
      a[TM_SERIES_PIECE_STACK_FILL] = e[TM_SERIES_PIECE_STACK_FILL] = 0;

  /* Top to bottom, each piece starts where the one above ended. */
  for (int k = 0; k < TM_SERIES_N_PIECES; k++)
    {
      int sa = CLAMP (a[k], cursor, height), sb = CLAMP (e[k], cursor, height);

      if (sb > sa)
        {
          out->top[k] = sa;
          out->bottom[k] = sb;
          cursor = sb;
        }
    }

  return TRUE;
}

cairo_surface_t *
tm_series_painter_paint (TmSeriesPainter *self,
                         const TmLod     *lod,
                         gint64           start_ps,
                         gint64           end_ps,
                         int              width,
                         int              height,
                         int              scale,
                         gint64           y_max,
                         gboolean         show_free,
                         const TmChartPalette *palette)
{
  gboolean show_stack;
  guint32 fill[TM_N_SERIES], top[TM_N_SERIES], frag, band;
  guint *row_starts, *next;
  guint32 *row;
  gsize n_changes = 0;
  cairo_surface_t *surface;
  guint32 *pixels;
  int stride;
  int prev_ftop = -1, prev_fbottom = -1;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (lod != NULL, NULL);
  g_return_val_if_fail (width > 0 && height > 0 && scale > 0, NULL);
  g_return_val_if_fail (y_max > 0, NULL);
  g_return_val_if_fail (palette != NULL, NULL);

  show_stack = tm_series_painter_lod_has_stack (lod);

  for (int s = 0; s < TM_N_SERIES; s++)
    {
      gboolean hidden = (self->hidden & (1u << s)) != 0;

      fill[s] = hidden ? 0 : premultiply (&palette->series_fill[s]);
      top[s] = hidden ? 0 : premultiply (&palette->series[s]);
    }
  frag = premultiply (&palette->frag);
  {
    TmChartColor faint = palette->frag;

    /* Dense fragmentation is a hatch the series show through. */
    faint.alpha *= TM_SERIES_BAND_ALPHA;
    band = premultiply (&faint);
  }

  if (self->n_buckets_allocated < (guint) width)
    {
      self->buckets = g_renew (TmLodBucket, self->buckets, width);
      self->n_buckets_allocated = width;
    }
  tm_lod_query_columns (lod, start_ps, end_ps, width, self->buckets);

  surface = get_paint_surface (self, width, height);
  pixels = (guint32 *) cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface) / 4;

  /* Each column becomes a few runs of rows, resolved into the rows where
   * its colour changes; then the image is written row by row, each row a
   * copy of the one above with those changes applied. Everything goes
   * through memory in order: painting column by column would touch a new
   * cache line and page with nearly every pixel. */
  if (self->n_changes_allocated < (gsize) width * MAX_CHANGES)
    {
      self->n_changes_allocated = (gsize) width * MAX_CHANGES;
      self->changes = g_renew (PaintChange, self->changes, self->n_changes_allocated);
      self->sorted_changes = g_renew (PaintChange, self->sorted_changes, self->n_changes_allocated);
    }
  row_starts = g_new0 (guint, height + 2);
  row = g_new0 (guint32, width);

  for (int x = 0; x < width; x++)
    {
      ColumnPainter painter = { self->changes + n_changes, 0, x, -1, -1, frag, 0, 0, band };
      TmSeriesColumn c;
      int cursor = 0;

      if (!tm_series_painter_column (&self->buckets[x], x, height, scale, y_max, show_stack, show_free,
                                     self->hidden, &prev_ftop, &prev_fbottom, &c))
        continue;

      if (c.frag_top >= 0)
        {
          painter.frag_top = c.frag_top;
          painter.frag_bottom = c.frag_bottom;
          painter.band_top = c.band_top;
          painter.band_bottom = c.band_bottom;
          painter.band = c.band_drawn ? band : 0;
        }
      for (int k = 0; k < TM_SERIES_N_PIECES; k++)
        if (c.bottom[k] > c.top[k])
          {
            int series = k / 2;
            guint32 color = k % 2 == 0 ? top[series] : fill[series];

            paint_piece (&painter, cursor, c.top[k], 0);
            paint_piece (&painter, c.top[k], c.bottom[k], color);
            cursor = c.bottom[k];
          }
      paint_piece (&painter, cursor, height, 0);

      g_assert (painter.n <= MAX_CHANGES);
      n_changes += painter.n;
    }

  /* Counting sort of the changes by row (stable: columns stay in order). */
  for (gsize i = 0; i < n_changes; i++)
    row_starts[self->changes[i].y + 1]++;
  for (int y = 0; y <= height; y++)
    row_starts[y + 1] += row_starts[y];
  next = g_memdup2 (row_starts, (height + 1) * sizeof (guint));
  for (gsize i = 0; i < n_changes; i++)
    self->sorted_changes[next[self->changes[i].y]++] = self->changes[i];

  for (int y = 0; y < height; y++)
    {
      for (guint i = row_starts[y]; i < row_starts[y + 1]; i++)
        row[self->sorted_changes[i].x] = self->sorted_changes[i].color;
      memcpy (pixels + (gsize) y * stride, row, (gsize) width * sizeof (guint32));
    }

  g_free (row_starts);
  g_free (next);
  g_free (row);

  cairo_surface_mark_dirty (surface);
  cairo_surface_set_device_scale (surface, scale, scale);

  return surface;
}

