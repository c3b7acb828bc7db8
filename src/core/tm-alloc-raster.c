/* tm-alloc-raster.c — the memory map's picture: the allocation index per pixel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads the index's arrays directly (tm-allocations-private.h): a frame
 * walks the allocations in start order once, skipping whole blocks that
 * end before it.
 */
#include "config.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "tm-alloc-raster.h"
#include "tm-allocations-private.h"

/* The size class that decides who owns a pixel: bits of the byte count. */
static inline guint8
bytes_rank (guint64 bytes)
{
  return bytes == 0 ? 0 : (guint8) (64 - __builtin_clzll (bytes));
}

static inline guint8
size_rank (const TmAllocation *a)
{
  return bytes_rank (TM_ALLOCATION_BYTES (a));
}

/* Pixel extent of [f0, f1) in a line of n pixels: the pixels it touches,
 * at least one, clamped to the line. f0 <= f1. Without branches: the
 * clamps are minima and maxima of doubles, and "ceil − 1" of a
 * non-negative f is its truncation, less one when f is whole. */
static inline void
pixel_extent (double  f0,
              double  f1,
              gint    n,
              gint   *p0,
              gint   *p1)
{
  double last = (double) (n - 1), a, b;
  gint ia, ib;

  a = f0 > 0 ? f0 : 0;
  a = a < last ? a : last;
  b = f1 > 0 ? f1 : 0;
  b = b < (double) n ? b : (double) n;
  ia = (gint) a;                                         /* floor */
  ib = (gint) b;
  ib -= (double) ib == b;                                /* ceil − 1 */
  *p0 = ia;
  *p1 = ib > ia ? ib : ia;
}

/* Each pixel keeps a key: (size rank + 1) << KEY_SHIFT | (index + 1), so
 * the largest key is the largest allocation and, among equals, the later
 * one; 0 is an empty pixel. Size ranks are at most 41 (bytes are below
 * 2^40), so a rank fits above KEY_SHIFT bits. When an index does not fit
 * below KEY_SHIFT bits, a key is index + 1 alone and a byte per pixel keeps
 * the rank beside it. */
#define KEY_SHIFT 26
#define KEY(rank, index) (((guint32) (rank) + 1) << KEY_SHIFT | ((index) + 1))

/* Keys of a band take about this many bytes, so that a band stays in the
 * second-level cache while it is filled and handed on. */
#define BAND_BYTES (192 * 1024)

/* Bands start at multiples of this many columns, when they are at least
 * that wide: a painter's row of them is whole cache lines of 4-byte
 * pixels. */
#define BAND_ALIGN 16

/* An allocation's pixels: columns x0..x1, rows r0..r1 (row 0 at the top). */
typedef struct
{
  gint    x0, x1, r0, r1;
  guint32 key;    /* as above; index + 1 alone with ranks */
  guint8  rank;
} Extent;

/* Fills the band's columns [bx, be) with the part of e inside them. */
static inline void
draw_extent (const Extent *e,
             guint32      *keys,
             guint8       *ranks,
             gint          bx,
             gint          be,
             guint         height)
{
  gint xa = MAX (e->x0, bx), xb = MIN (e->x1, be - 1);

  /* Most allocations of a wide view are a pixel or two: up to 2 columns
   * of up to 4 rows are drawn without branches, the pixels outside the
   * extent taking a maximum with 0, which changes nothing. */
  if (G_LIKELY (ranks == NULL && xb - xa <= 1 && xa + 1 < be && e->r1 - e->r0 <= 3 && e->r0 + 3 < (gint) height))
    {
      guint32 *column = keys + (gsize) (xa - bx) * height + e->r0;
      guint32 k0 = xb >= xa ? e->key : 0, k1 = xb > xa ? e->key : 0;
      gint rows = e->r1 - e->r0;

      for (gint r = 0; r < 4; r++)
        {
          guint32 m0 = r <= rows ? k0 : 0, m1 = r <= rows ? k1 : 0;

          column[r] = MAX (column[r], m0);
          column[height + r] = MAX (column[height + r], m1);
        }
      return;
    }
  /* One row (a wide, thin rectangle: a buffer of the Memory Viewer's
   * allocation chart, a long-lived small allocation): a strided line. */
  if (G_LIKELY (ranks == NULL) && e->r0 == e->r1)
    {
      guint32 *p = keys + (gsize) (xa - bx) * height + e->r0;

      for (gint x = xa; x <= xb; x++, p += height)
        *p = MAX (*p, e->key);
      return;
    }
  if (G_LIKELY (ranks == NULL))
    for (gint x = xa; x <= xb; x++)
      {
        guint32 *column = keys + (gsize) (x - bx) * height;

        for (gint r = e->r0; r <= e->r1; r++)
          column[r] = MAX (column[r], e->key);
      }
  else
    for (gint x = xa; x <= xb; x++)
      {
        gsize column = (gsize) (x - bx) * height;

        for (gint r = e->r0; r <= e->r1; r++)
          if (e->rank >= ranks[column + r])
            {
              ranks[column + r] = e->rank;
              keys[column + r] = e->key;
            }
      }
}

/* One part of a frame: columns [col0, col1) of it, drawn by one thread.
 * The rectangles come from an allocation index (self), or from a plain
 * list (rects, with the view's x range [x0, x1]). */
typedef struct
{
  TmAllocations        *self;
  const TmRasterRect   *rects;
  guint                 n_rects;
  double                x0, x1;
  gint64                t0_ps, t1_ps;
  double                y0, y1, sx, sy;
  gint                  width, height;
  gint                  col0, col1;
  TmAllocRasterBandFunc func;
  gpointer              user_data;
  guint32              *cells;          /* rects: the frame, row-major */
  TmAllocRasterColumnsFunc columns_func;  /* rects: told of each band done */
  guint                 shown;   /* out: those whose first column is in the part */
} Part;

/* The first snapshot at or after t (times never decrease). */
static guint32
first_snapshot_at (TmAllocations *self,
                   gint64         t)
{
  guint lo = 0, hi = tm_memory_store_get_n_snapshots (self->store);

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->times[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* One past the last rectangle whose x0 is <= x (they come sorted by x0). */
static guint
rects_end (const TmRasterRect *rects,
           guint               n,
           double              x)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (rects[mid].x0 <= x)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
render_part (Part *part)
{
  TmAllocations *self = part->self;
  g_autofree guint32 *keys = NULL;
  g_autofree guint8 *ranks = NULL;
  g_autoptr(GArray) active = NULL;
  gboolean packed = self->n < (1u << KEY_SHIFT) - 1;
  guint32 index_mask = packed ? (1u << KEY_SHIFT) - 1 : G_MAXUINT32;
  gint w = part->width, h = part->height;
  guint height = (guint) h;
  guint band = MAX (BAND_BYTES / (height * sizeof (guint32)), 1);
  gboolean empty = part->t1_ps <= part->t0_ps || part->y1 <= part->y0 || self->n_spans == 0;
  double sx = part->sx, sy = part->sy, y0 = part->y0, y1 = part->y1;
  gint64 t0_ps = part->t0_ps;
  guint span = 0, i = 0, end = 0;
  guint32 first_end = 0;
  gint64 cut = part->t0_ps;
  Extent next;
  gboolean have_next = FALSE;

  /* Bands start on multiples of BAND_ALIGN columns (parts do too). */
  if (band >= BAND_ALIGN)
    band -= band % BAND_ALIGN;
  band = MIN (band, (guint) (part->col1 - part->col0));
  keys = g_new (guint32, (gsize) band * height);
  if (!packed)
    ranks = g_new (guint8, (gsize) band * height);
  active = g_array_new (FALSE, FALSE, sizeof (Extent));
  if (!empty)
    {
      end = tm_allocations_candidates_end (self, part->t1_ps);
      /* An allocation that ends before cut ends left of the part: it is
       * skipped by its end snapshot alone (a margin of a picosecond and a
       * pixel keeps this on the safe side of rounding). */
      if (part->col0 > 1)
        cut = t0_ps + (gint64) ((double) (part->col0 - 1) / sx) - 1;
      first_end = first_snapshot_at (self, cut);
    }

  for (gint bx = part->col0; bx < part->col1; bx += (gint) band)
    {
      gint be = MIN (bx + (gint) band, part->col1);
      guint kept = 0;

      memset (keys, 0, (gsize) (be - bx) * height * sizeof (guint32));
      if (ranks != NULL)
        memset (ranks, 0, (gsize) (be - bx) * height);

      /* Those from earlier bands that reach into this one. */
      for (guint k = 0; k < active->len; k++)
        {
          const Extent *e = &g_array_index (active, Extent, k);

          draw_extent (e, keys, ranks, bx, be, height);
          if (e->x1 >= be)
            g_array_index (active, Extent, kept++) = *e;
        }
      g_array_set_size (active, kept);

      /* Then those that start in it: allocations come in start order, so
       * their first columns never decrease. */
      while (!empty)
        {
          if (!have_next)
            {
              const TmAllocation *a;
              const TmAddressSpan *s;
              guint64 axis;
              double ya, yb;

              if (i >= end)
                break;
              /* Skip blocks that all end before the part. */
              if ((i & (BLOCK_SIZE - 1)) == 0 && self->block_max_end[i >> BLOCK_SHIFT] < cut)
                {
                  i += BLOCK_SIZE;
                  continue;
                }
              a = &self->items[i];
              /* Ended before the part (an open end is G_MAXUINT32). */
              if (a->end < first_end)
                {
                  i++;
                  continue;
                }

              /* Spans are few and neighbours usually share one. */
              s = &self->spans[span];
              if (G_UNLIKELY (a->address < s->address || a->address >= s->end))
                {
                  span = tm_allocations_find_span (self, a->address);
                  s = &self->spans[span];
                }
              /* An allocation lies in one span: spans are unions of them. */
              axis = s->offset + (a->address - s->address);
              ya = (double) axis;
              yb = (double) (axis + (tm_allocations_item_end_address (a) - a->address));
              if (yb < y0 || ya > y1)
                {
                  i++;
                  continue;
                }
              pixel_extent ((double) (tm_allocations_item_start (self, a) - t0_ps) * sx,
                            (double) (tm_allocations_item_end (self, a) - t0_ps) * sx, w, &next.x0, &next.x1);
              /* Rows count from the top: the top row is the end address. */
              pixel_extent ((y1 - yb) * sy, (y1 - ya) * sy, h, &next.r0, &next.r1);
              next.rank = size_rank (a);
              next.key = packed ? KEY (next.rank, i) : i + 1;
              have_next = TRUE;
              i++;
              if (next.x1 < part->col0)
                {
                  have_next = FALSE;
                  continue;
                }
              if (next.x0 >= part->col0 && next.x0 < part->col1)
                part->shown++;
            }
          if (next.x0 >= be)
            break;
          draw_extent (&next, keys, ranks, bx, be, height);
          if (next.x1 >= be)
            g_array_append_val (active, next);
          have_next = FALSE;
        }

      part->func ((guint) bx, (guint) (be - bx), height, keys, index_mask, part->user_data);
    }
}

/* row[x] = MAX (row[x], key) for x in [xa, xb], four at a time where
 * SSE2 is (unsigned, as keys are: compared with their top bits flipped). */
static inline void
max_run (guint32 *row,
         gint     xa,
         gint     xb,
         guint32  key)
{
  gint x = xa;

#if defined(__SSE2__)
  const __m128i sign = _mm_set1_epi32 ((int) 0x80000000u);
  const __m128i k = _mm_set1_epi32 ((int) key);
  const __m128i k_signed = _mm_xor_si128 (k, sign);

  for (; x + 3 <= xb; x += 4)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) (gpointer) (row + x));
      __m128i less = _mm_cmplt_epi32 (_mm_xor_si128 (v, sign), k_signed);

      _mm_storeu_si128 ((__m128i *) (gpointer) (row + x),
                        _mm_or_si128 (_mm_andnot_si128 (less, v), _mm_and_si128 (less, k)));
    }
#endif
  for (; x <= xb; x++)
    row[x] = MAX (row[x], key);
}

/* Keys become what tm_alloc_raster_key_index() makes of them, for x in
 * [x0, x1): (key & index_mask) − 1, which is TM_ALLOCATIONS_NONE for the
 * 0 of an empty pixel too. */
static inline void
owners_run (guint32 *row,
            gint     x0,
            gint     x1,
            guint32  index_mask)
{
  gint x = x0;

  G_STATIC_ASSERT (TM_ALLOCATIONS_NONE == G_MAXUINT32);
#if defined(__SSE2__)
  {
    const __m128i mask = _mm_set1_epi32 ((int) index_mask);
    const __m128i one = _mm_set1_epi32 (1);

    for (; x + 4 <= x1; x += 4)
      {
        __m128i v = _mm_loadu_si128 ((const __m128i *) (gpointer) (row + x));

        _mm_storeu_si128 ((__m128i *) (gpointer) (row + x), _mm_sub_epi32 (_mm_and_si128 (v, mask), one));
      }
  }
#endif
  for (; x < x1; x++)
    row[x] = (row[x] & index_mask) - 1;
}

/* A rectangle's part in the band's columns [bx, be) of a frame of
 * row-major keys (stride keys a row): a run of keys in each of its rows,
 * so that the usual rectangle of the Memory Viewer's allocation chart (a
 * row or two, tens of columns) is a few contiguous stores. ranks, when
 * keys do not hold them, is the band's own, be − bx a row. */
static inline void
draw_rect_extent (const Extent *e,
                  guint32      *keys,
                  gsize         stride,
                  guint8       *ranks,
                  gint          bx,
                  gint          be)
{
  gint xa = MAX (e->x0, bx), xb = MIN (e->x1, be - 1);

  if (G_LIKELY (ranks == NULL))
    for (gint r = e->r0; r <= e->r1; r++)
      max_run (keys + (gsize) r * stride, xa, xb, e->key);
  else
    for (gint r = e->r0; r <= e->r1; r++)
      {
        guint32 *row = keys + (gsize) r * stride;
        guint8 *rank = ranks + (gsize) r * (gsize) (be - bx);

        for (gint x = xa; x <= xb; x++)
          if (e->rank >= rank[x - bx])
            {
              rank[x - bx] = e->rank;
              row[x] = e->key;
            }
      }
}

/* A part of a frame of rectangles: the same bands of columns and the same
 * keys as render_part(), but kept row by row in the frame itself (the
 * caller's cells), each band's keys made owners while they are still in
 * the cache. No band is copied or turned: a row of a band is a run of
 * the frame's row. */
static void
render_rect_part (Part *part)
{
  const TmRasterRect *rects = part->rects;
  guint32 *cells = part->cells;
  g_autofree guint8 *ranks = NULL;
  g_autoptr(GArray) active = NULL;
  gboolean packed = part->n_rects < (1u << KEY_SHIFT) - 1;
  guint32 index_mask = packed ? (1u << KEY_SHIFT) - 1 : G_MAXUINT32;
  gint w = part->width, h = part->height;
  gsize stride = (gsize) w;
  guint band = MAX (BAND_BYTES / ((guint) h * sizeof (guint32)), 1);
  gboolean empty = part->x1 <= part->x0 || part->y1 <= part->y0 || part->n_rects == 0;
  double sx = part->sx, sy = part->sy, y0 = part->y0, y1 = part->y1;
  double cut_x = part->x0;
  guint i = 0, end = 0;
  Extent next;
  gboolean have_next = FALSE;

  if (band >= BAND_ALIGN)
    band -= band % BAND_ALIGN;
  band = MIN (band, (guint) (part->col1 - part->col0));
  if (!packed)
    ranks = g_new (guint8, (gsize) band * (gsize) h);
  active = g_array_new (FALSE, FALSE, sizeof (Extent));
  if (!empty)
    {
      end = rects_end (rects, part->n_rects, part->x1);
      /* A rectangle that ends before cut_x ends left of the part (a
       * pixel's margin keeps this on the safe side of rounding). */
      if (part->col0 > 1)
        cut_x = part->x0 + (double) (part->col0 - 1) / sx;
    }

  for (gint bx = part->col0; bx < part->col1; bx += (gint) band)
    {
      gint be = MIN (bx + (gint) band, part->col1);
      gsize n_columns = (gsize) (be - bx);
      guint kept = 0;

      for (gint r = 0; r < h; r++)
        memset (cells + (gsize) r * stride + bx, 0, n_columns * sizeof (guint32));
      if (ranks != NULL)
        memset (ranks, 0, n_columns * (gsize) h);

      /* Those from earlier bands that reach into this one. */
      for (guint k = 0; k < active->len; k++)
        {
          const Extent *e = &g_array_index (active, Extent, k);

          draw_rect_extent (e, cells, stride, ranks, bx, be);
          if (e->x1 >= be)
            g_array_index (active, Extent, kept++) = *e;
        }
      g_array_set_size (active, kept);

      /* Then those that start in it, in the order of their first column. */
      while (!empty)
        {
          if (!have_next)
            {
              const TmRasterRect *rr;

              if (i >= end)
                break;
              rr = &rects[i++];
              /* Ends left of the part, or outside the axis range. */
              if (rr->x1 < cut_x || rr->y1 < y0 || rr->y0 > y1)
                continue;
              pixel_extent ((rr->x0 - part->x0) * sx, (rr->x1 - part->x0) * sx, w, &next.x0, &next.x1);
              pixel_extent ((y1 - rr->y1) * sy, (y1 - rr->y0) * sy, h, &next.r0, &next.r1);
              next.rank = bytes_rank (rr->bytes);
              next.key = packed ? KEY (next.rank, i - 1) : i;
              if (next.x1 < part->col0)
                continue;
              have_next = TRUE;
              if (next.x0 >= part->col0 && next.x0 < part->col1)
                part->shown++;
            }
          if (next.x0 >= be)
            break;
          draw_rect_extent (&next, cells, stride, ranks, bx, be);
          if (next.x1 >= be)
            g_array_append_val (active, next);
          have_next = FALSE;
        }

      /* The band's keys become owners. */
      for (gint r = 0; r < h; r++)
        owners_run (cells + (gsize) r * stride, bx, be, index_mask);
      if (part->columns_func != NULL)
        part->columns_func ((guint) bx, (guint) n_columns, cells, (guint) w, (guint) h, part->user_data);
    }
}

/* A part of either kind of frame. */
static void
render_any_part (Part *part)
{
  if (part->rects != NULL)
    render_rect_part (part);
  else
    render_part (part);
}

static gpointer
render_part_thread (gpointer data)
{
  render_any_part (data);
  return NULL;
}

/* A frame with at least this many candidate allocations is drawn by two
 * threads, each a half of the columns. */
#define SPLIT_MIN_CANDIDATES 50000

/* Draws the parts of a frame: one, or two halves of the columns on two
 * threads when there are many candidates. */
static guint
render_parts (Part  *first,
              guint  n_candidates)
{
  Part parts[2] = { *first, *first };
  guint n_parts = 1;
  guint width = (guint) first->width;

  if (width >= 2 && n_candidates >= SPLIT_MIN_CANDIDATES)
    {
      guint half = width / 2;

      if (half >= BAND_ALIGN)
        half -= half % BAND_ALIGN;
      parts[0].col1 = parts[1].col0 = (gint) half;
      n_parts = 2;
    }

  if (n_parts == 1)
    render_any_part (&parts[0]);
  else
    {
      GThread *thread = g_thread_new ("tm-map-part", render_part_thread, &parts[1]);

      render_any_part (&parts[0]);
      g_thread_join (thread);
    }
  return parts[0].shown + (n_parts == 2 ? parts[1].shown : 0);
}

/* What every frame's part starts with: the whole width, the axis range,
 * the scales (0 for an empty range; span is the x range's length) and
 * where the bands go. */
static void
part_init (Part                  *part,
           double                 span,
           double                 y0,
           double                 y1,
           guint                  width,
           guint                  height,
           TmAllocRasterBandFunc  func,
           gpointer               user_data)
{
  part->y0 = y0;
  part->y1 = y1;
  part->width = (gint) width;
  part->height = (gint) height;
  part->col1 = (gint) width;
  part->func = func;
  part->user_data = user_data;
  if (span > 0 && y1 > y0)
    {
      part->sx = (double) width / span;
      part->sy = (double) height / (y1 - y0);
    }
}

guint
tm_alloc_raster_render_bands (TmAllocations        *self,
                              gint64                t0_ps,
                              gint64                t1_ps,
                              double                y0,
                              double                y1,
                              guint                 width,
                              guint                 height,
                              TmAllocRasterBandFunc func,
                              gpointer              user_data)
{
  Part part = { 0 };

  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), 0);
  g_return_val_if_fail (func != NULL, 0);

  if (width == 0 || height == 0)
    return 0;

  part.self = self;
  part.t0_ps = t0_ps;
  part.t1_ps = t1_ps;
  /* The span as an integer first: times far from 0 keep it exact. */
  part_init (&part, t1_ps > t0_ps ? (double) (t1_ps - t0_ps) : 0, y0, y1, width, height, func, user_data);
  return render_parts (&part, t1_ps > t0_ps ? tm_allocations_candidates_end (self, t1_ps) : 0);
}

guint
tm_alloc_raster_render_rects (const TmRasterRect       *rects,
                              guint                     n_rects,
                              double                    x0,
                              double                    x1,
                              double                    y0,
                              double                    y1,
                              guint                     width,
                              guint                     height,
                              guint32                  *cells,
                              TmAllocRasterColumnsFunc  func,
                              gpointer                  user_data)
{
  /* An empty list is still a list of rectangles (render_any_part() tells
   * the two kinds of frame by it). */
  static const TmRasterRect none;
  Part part = { 0 };

  g_return_val_if_fail (rects != NULL || n_rects == 0, 0);
  g_return_val_if_fail (cells != NULL || (gsize) width * height == 0, 0);

  if (width == 0 || height == 0)
    return 0;

  part.rects = rects != NULL ? rects : &none;
  part.n_rects = n_rects;
  part.x0 = x0;
  part.x1 = x1;
  part.cells = cells;
  part.columns_func = func;
  part_init (&part, x1 - x0, y0, y1, width, height, NULL, user_data);
  return render_parts (&part, x1 > x0 ? rects_end (rects, n_rects, x1) : 0);
}

typedef struct
{
  guint32 *cells;
  guint    width;
} RowsTarget;

static void
band_to_rows (guint          x0,
              guint          n_columns,
              guint          height,
              const guint32 *keys,
              guint32        index_mask,
              gpointer       user_data)
{
  RowsTarget *target = user_data;

  for (guint x = 0; x < n_columns; x++)
    for (guint r = 0; r < height; r++)
      target->cells[(gsize) r * target->width + x0 + x] = tm_alloc_raster_key_index (keys[(gsize) x * height + r],
                                                                                    index_mask);
}

guint
tm_alloc_raster_render (TmAllocations *self,
                        gint64         t0_ps,
                        gint64         t1_ps,
                        double         y0,
                        double         y1,
                        guint          width,
                        guint          height,
                        guint32       *cells)
{
  RowsTarget target = { cells, width };

  g_return_val_if_fail (TM_IS_ALLOCATIONS (self), 0);
  g_return_val_if_fail (cells != NULL || (gsize) width * height == 0, 0);

  return tm_alloc_raster_render_bands (self, t0_ps, t1_ps, y0, y1, width, height, band_to_rows, &target);
}
