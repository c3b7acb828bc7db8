/* test-series-painter.c — the timeline's stacked areas, painted without a
 * widget or a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Known columns go in (a TmLod over a few hand-made snapshots), and the
 * image's pixel columns are checked row by row: which rows are transparent,
 * which carry a series' top line, its fill, or the fragmentation line.
 */

#include "config.h"

#include <math.h>

#include "tm-lod.h"
#include <string.h>

#include "tm-chart-palette.h"
#include "tm-series-painter.h"

#define HEIGHT 100
#define Y_MAX  100

/* The snapshots of one test: their columns, kept alive for the LOD. */
typedef struct
{
  guint   n;
  gint64 *times;
  gint64 *stack;
  gint64 *heap;
  gint64 *free_bytes;
  double *frag;
  TmLod  *lod;
} Data;

static Data *
data_new (guint n)
{
  Data *d = g_new0 (Data, 1);

  d->n = n;
  d->times = g_new0 (gint64, n);
  d->stack = g_new0 (gint64, n);
  d->heap = g_new0 (gint64, n);
  d->free_bytes = g_new0 (gint64, n);
  d->frag = g_new0 (double, n);
  for (guint i = 0; i < n; i++)
    d->times[i] = i;
  return d;
}

static TmLod *
data_lod (Data *d)
{
  if (d->lod == NULL)
    d->lod = tm_lod_new (d->n, d->times, d->stack, d->heap, d->free_bytes, d->frag);
  return d->lod;
}

static void
data_free (Data *d)
{
  g_clear_pointer (&d->lod, tm_lod_free);
  g_free (d->times);
  g_free (d->stack);
  g_free (d->heap);
  g_free (d->free_bytes);
  g_free (d->frag);
  g_free (d);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Data, data_free)

static void
light_palette (TmChartPalette *palette)
{
  TmChartColor black = { 0, 0, 0, 1 };

  tm_chart_palette_init (palette, &black, FALSE);
}

/* A colour as cairo stores it in ARGB32: premultiplied, native endian. */
static guint32
argb (const TmChartColor *c)
{
  guint a = (guint) lround (c->alpha * 255.0);
  guint r = (guint) lround (c->red * c->alpha * 255.0);
  guint g = (guint) lround (c->green * c->alpha * 255.0);
  guint b = (guint) lround (c->blue * c->alpha * 255.0);

  return (a << 24) | (r << 16) | (g << 8) | b;
}

static guint32
pixel (cairo_surface_t *surface,
       int              x,
       int              y)
{
  const guchar *data;
  int stride;

  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (x, <, cairo_image_surface_get_width (surface));
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (y, <, cairo_image_surface_get_height (surface));
  return ((const guint32 *) (data + (gsize) y * stride))[x];
}

/* Rows [from, to) of column x are all color. */
static void
assert_rows (cairo_surface_t *surface,
             int              x,
             int              from,
             int              to,
             guint32          color)
{
  for (int y = from; y < to; y++)
    {
      guint32 got = pixel (surface, x, y);

      if (got != color)
        g_error ("column %d row %d: 0x%08x, expected 0x%08x (rows %d–%d)", x, y, got, color, from, to - 1);
    }
}

/* The first row of column x that is not transparent, or the height. */
static int
top_row (cairo_surface_t *surface,
         int              x)
{
  int height = cairo_image_surface_get_height (surface);

  for (int y = 0; y < height; y++)
    if (pixel (surface, x, y) != 0)
      return y;
  return height;
}

/* One flat heap of 50 out of 100: above it nothing, a 2-row top line
 * around row 50, the fill down to the bottom; fragmentation 0 is a 2-row
 * line at the bottom edge, dashed 6 on, 4 off. */
static void
test_painter_flat_heap (void)
{
  g_autoptr(Data) d = data_new (40);
  g_autoptr(TmSeriesPainter) painter = tm_series_painter_new ();
  cairo_surface_t *surface;
  TmChartPalette p;
  guint32 line, fill;

  light_palette (&p);
  line = argb (&p.series[TM_SERIES_HEAP]);
  fill = argb (&p.series_fill[TM_SERIES_HEAP]);
  for (guint i = 0; i < d->n; i++)
    d->heap[i] = 50;

  surface = tm_series_painter_paint (painter, data_lod (d), 0, d->n - 1, 20, HEIGHT, 1, Y_MAX, FALSE, &p);
  g_assert_nonnull (surface);
  g_assert_cmpint (cairo_image_surface_get_format (surface), ==, CAIRO_FORMAT_ARGB32);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 20);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, HEIGHT);

  for (int x = 0; x < 20; x++)
    {
      guint32 bottom = pixel (surface, x, HEIGHT - 1);

      assert_rows (surface, x, 0, 49, 0);
      assert_rows (surface, x, 49, 51, line);
      assert_rows (surface, x, 51, HEIGHT - 1, fill);
      if (x % 10 < 6)
        {
          /* The fragmentation line over the fill: mostly its blue. */
          g_assert_cmpuint (bottom, !=, fill);
          g_assert_cmpuint (bottom & 0xff, >, (bottom >> 16) & 0xff);
        }
      else
        g_assert_cmpuint (bottom, ==, fill);
    }

  cairo_surface_destroy (surface);
}

/* Free over heap over stack: each a top line and a fill, in that order
 * down the column; without show_free the free area is not drawn. */
static void
test_painter_stacked (void)
{
  g_autoptr(Data) d = data_new (40);
  g_autoptr(TmSeriesPainter) painter = tm_series_painter_new ();
  cairo_surface_t *surface;
  TmChartPalette p;

  light_palette (&p);
  for (guint i = 0; i < d->n; i++)
    {
      d->stack[i] = 20;
      d->heap[i] = 30;        /* in use: 50 */
      d->free_bytes[i] = 30;  /* total: 80 */
      d->frag[i] = 1.0;       /* the line at the top edge, out of the way */
    }

  surface = tm_series_painter_paint (painter, data_lod (d), 0, d->n - 1, 8, HEIGHT, 1, Y_MAX, TRUE, &p);
  for (int x = 0; x < 8; x++)
    {
      assert_rows (surface, x, 2, 19, 0);
      assert_rows (surface, x, 19, 21, argb (&p.series[TM_SERIES_FREE]));
      assert_rows (surface, x, 21, 49, argb (&p.series_fill[TM_SERIES_FREE]));
      assert_rows (surface, x, 49, 51, argb (&p.series[TM_SERIES_HEAP]));
      assert_rows (surface, x, 51, 79, argb (&p.series_fill[TM_SERIES_HEAP]));
      assert_rows (surface, x, 79, 81, argb (&p.series[TM_SERIES_STACK]));
      assert_rows (surface, x, 81, HEIGHT, argb (&p.series_fill[TM_SERIES_STACK]));
    }
  cairo_surface_destroy (surface);

  /* No free data to show: transparent down to the heap's line. */
  surface = tm_series_painter_paint (painter, data_lod (d), 0, d->n - 1, 8, HEIGHT, 1, Y_MAX, FALSE, &p);
  for (int x = 0; x < 8; x++)
    {
      assert_rows (surface, x, 2, 49, 0);
      assert_rows (surface, x, 49, 51, argb (&p.series[TM_SERIES_HEAP]));
    }
  cairo_surface_destroy (surface);
}

/* Hidden series (the legend's toggles) are transparent where they were;
 * the others keep their rows, and the fragmentation line goes with its
 * toggle. */
static void
test_painter_hidden (void)
{
  g_autoptr(Data) d = data_new (40);
  g_autoptr(TmSeriesPainter) painter = tm_series_painter_new ();
  cairo_surface_t *surface;
  TmChartPalette p;

  light_palette (&p);
  for (guint i = 0; i < d->n; i++)
    {
      d->stack[i] = 20;
      d->heap[i] = 30;
      d->free_bytes[i] = 30;
      d->frag[i] = 0.9;       /* a line at row 10 */
    }

  tm_series_painter_set_hidden (painter, 1u << TM_SERIES_HEAP);
  surface = tm_series_painter_paint (painter, data_lod (d), 0, d->n - 1, 8, HEIGHT, 1, Y_MAX, TRUE, &p);
  for (int x = 0; x < 8; x++)
    {
      assert_rows (surface, x, 21, 49, argb (&p.series_fill[TM_SERIES_FREE]));
      assert_rows (surface, x, 49, 79, 0);
      assert_rows (surface, x, 81, HEIGHT, argb (&p.series_fill[TM_SERIES_STACK]));
    }
  /* The fragmentation's dashes are there in the first column. */
  g_assert_cmpuint (((guint32 *) cairo_image_surface_get_data (surface))[10 * cairo_image_surface_get_stride (surface) / 4], !=, 0);
  cairo_surface_destroy (surface);

  tm_series_painter_set_hidden (painter, (1u << TM_SERIES_STACK) | (1u << TM_SERIES_FREE) | TM_SERIES_PAINTER_FRAGMENTATION);
  surface = tm_series_painter_paint (painter, data_lod (d), 0, d->n - 1, 8, HEIGHT, 1, Y_MAX, TRUE, &p);
  for (int x = 0; x < 8; x++)
    {
      assert_rows (surface, x, 0, 49, 0);
      assert_rows (surface, x, 51, 79, argb (&p.series_fill[TM_SERIES_HEAP]));
      assert_rows (surface, x, 81, HEIGHT, 0);
    }
  cairo_surface_destroy (surface);
}

/* 1000 snapshots in 10 columns, one of them a single-sample spike: its
 * column reaches the spike's height, every other one stays flat. The
 * painter keeps its image between frames: a second frame without the
 * spike shows none of it. */
static void
test_painter_spike (void)
{
  g_autoptr(Data) d = data_new (1000);
  g_autoptr(TmSeriesPainter) painter = tm_series_painter_new ();
  cairo_surface_t *surface;
  TmChartPalette p;

  light_palette (&p);
  for (guint i = 0; i < d->n; i++)
    d->heap[i] = i == 555 ? 90 : 10;

  surface = tm_series_painter_paint (painter, data_lod (d), 0, d->n, 10, HEIGHT, 1, Y_MAX, FALSE, &p);
  for (int x = 0; x < 10; x++)
    g_assert_cmpint (top_row (surface, x), ==, x == 5 ? 9 : 89);
  g_assert_cmpuint (pixel (surface, 5, 9), ==, argb (&p.series[TM_SERIES_HEAP]));
  g_assert_cmpuint (pixel (surface, 5, 50), ==, argb (&p.series[TM_SERIES_HEAP]));
  cairo_surface_destroy (surface);

  d->heap[555] = 10;
  g_clear_pointer (&d->lod, tm_lod_free);
  surface = tm_series_painter_paint (painter, data_lod (d), 0, d->n, 10, HEIGHT, 1, Y_MAX, FALSE, &p);
  for (int x = 0; x < 10; x++)
    g_assert_cmpint (top_row (surface, x), ==, 89);
  cairo_surface_destroy (surface);
}

/* Columns before the first snapshot have no data: transparent. */
static void
test_painter_no_data (void)
{
  g_autoptr(Data) d = data_new (10);
  g_autoptr(TmSeriesPainter) painter = tm_series_painter_new ();
  cairo_surface_t *surface;
  TmChartPalette p;

  light_palette (&p);
  for (guint i = 0; i < d->n; i++)
    d->times[i] = 100 + i * 10;
  for (guint i = 0; i < d->n; i++)
    d->heap[i] = 50;

  /* [0, 200) over 20 columns of 10: the data starts at column 10. */
  surface = tm_series_painter_paint (painter, data_lod (d), 0, 200, 20, HEIGHT, 1, Y_MAX, FALSE, &p);
  for (int x = 0; x < 10; x++)
    assert_rows (surface, x, 0, HEIGHT, 0);
  for (int x = 10; x < 19; x++)
    g_assert_cmpint (top_row (surface, x), ==, 49);
  cairo_surface_destroy (surface);
}

/* At scale 2 the image is in device pixels, says so, and the lines are
 * 3 rows thick. */
static void
test_painter_scale (void)
{
  g_autoptr(Data) d = data_new (40);
  g_autoptr(TmSeriesPainter) painter = tm_series_painter_new ();
  cairo_surface_t *surface;
  TmChartPalette p;
  double sx, sy;

  light_palette (&p);
  for (guint i = 0; i < d->n; i++)
    d->heap[i] = 50;

  surface = tm_series_painter_paint (painter, data_lod (d), 0, d->n - 1, 40, 2 * HEIGHT, 2, Y_MAX, FALSE, &p);
  cairo_surface_get_device_scale (surface, &sx, &sy);
  g_assert_cmpfloat (sx, ==, 2.0);
  g_assert_cmpfloat (sy, ==, 2.0);
  for (int x = 0; x < 40; x++)
    {
      assert_rows (surface, x, 0, 99, 0);
      assert_rows (surface, x, 99, 102, argb (&p.series[TM_SERIES_HEAP]));
      assert_rows (surface, x, 102, 150, argb (&p.series_fill[TM_SERIES_HEAP]));
    }
  cairo_surface_destroy (surface);
}

/* The dark palette's shades. */
static void
test_painter_dark (void)
{
  g_autoptr(Data) d = data_new (40);
  g_autoptr(TmSeriesPainter) painter = tm_series_painter_new ();
  TmChartColor white = { 1, 1, 1, 1 };
  TmChartColor light_heap, dark_heap;
  cairo_surface_t *surface;
  TmChartPalette p;

  tm_chart_palette_init (&p, &white, TRUE);
  tm_chart_palette_get_color (TM_PALETTE_HEAP, FALSE, &light_heap);
  tm_chart_palette_get_color (TM_PALETTE_HEAP, TRUE, &dark_heap);
  g_assert_false (memcmp (&light_heap, &dark_heap, sizeof light_heap) == 0);
  g_assert_true (memcmp (&p.series[TM_SERIES_HEAP], &dark_heap, sizeof dark_heap) == 0);
  for (guint i = 0; i < d->n; i++)
    d->heap[i] = 50;

  surface = tm_series_painter_paint (painter, data_lod (d), 0, d->n - 1, 4, HEIGHT, 1, Y_MAX, FALSE, &p);
  g_assert_cmpuint (pixel (surface, 0, 50), ==, argb (&dark_heap));
  cairo_surface_destroy (surface);
}


/* Dense fragmentation (every column from 0 to 100 %) is a translucent
 * band with solid edges, not a solid block: the heap's fill shows
 * through it everywhere, at any zoom (docs/ui.md). */
static void
test_painter_dense_fragmentation (void)
{
  g_autoptr(Data) d = data_new (4000);
  g_autoptr(TmSeriesPainter) painter = tm_series_painter_new ();
  cairo_surface_t *surface;
  TmChartPalette p;
  guint32 fill;

  light_palette (&p);
  fill = argb (&p.series_fill[TM_SERIES_HEAP]);
  for (guint i = 0; i < d->n; i++)
    {
      d->heap[i] = 80;
      d->frag[i] = (i % 2) ? 1.0 : 0.0;
    }

  surface = tm_series_painter_paint (painter, data_lod (d), 0, d->n - 1, 40, HEIGHT, 1, Y_MAX, FALSE, &p);
  for (int x = 0; x < 40; x++)
    for (int y = 30; y < 90; y++)
      {
        guint32 got = pixel (surface, x, y);
        int dr = (int) ((got >> 16) & 0xff) - (int) ((fill >> 16) & 0xff);
        int dg = (int) ((got >> 8) & 0xff) - (int) ((fill >> 8) & 0xff);

        /* The heap's orange fill, tinted at most a little. */
        if (ABS (dr) > 40 || ABS (dg) > 40)
          g_error ("column %d row %d: 0x%08x covers the heap fill 0x%08x", x, y, got, fill);
      }
  cairo_surface_destroy (surface);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/series-painter/flat-heap", test_painter_flat_heap);
  g_test_add_func ("/series-painter/stacked", test_painter_stacked);
  g_test_add_func ("/series-painter/hidden", test_painter_hidden);
  g_test_add_func ("/series-painter/spike", test_painter_spike);
  g_test_add_func ("/series-painter/no-data", test_painter_no_data);
  g_test_add_func ("/series-painter/scale", test_painter_scale);
  g_test_add_func ("/series-painter/dark", test_painter_dark);
  g_test_add_func ("/series-painter/dense-fragmentation", test_painter_dense_fragmentation);

  return g_test_run ();
}
