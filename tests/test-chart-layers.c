/* test-chart-layers.c — the chart layers, each drawn alone from its inputs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layers draw into a cairo image (read back pixel by pixel) or keep their
 * labels on a canvas (TM_CHART_CANVAS_TEXT_ELEMENTS), with no widget: the
 * spans (an HLO band whose runs tell which one is under a point, a level
 * held over some spans), marks at many times, blocks on the address axis,
 * the regions a layer that follows the pointer draws in; a list of
 * rectangles drawn as the memory map is (the Memory Viewer's allocation
 * chart), the same on a raster and a vector canvas;
 * the timeline's layers in order with the band, as the command line
 * writes them. And three drawing bugs: the SVG's labels sit where a
 * raster canvas puts them, the memory map's tick labels give way to the
 * "≈" of a cut gap, dense fragmentation is a hatch, not a band of a colour
 * of its own.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <cairo-svg.h>

#include "tm-block-layer.h"
#include "tm-chart-export.h"
#include "tm-chart-palette.h"
#include "tm-hover-layer.h"
#include "tm-line-layer.h"
#include "tm-map-layer.h"
#include "tm-map-painter.h"
#include "tm-mark-layer.h"
#include "tm-rect-map-layer.h"
#include "tm-series-painter.h"
#include "tm-span-layer.h"
#include "tm-test-util.h"
#include "tm-timeline-chart.h"

#define MIB (G_GINT64_CONSTANT (1) << 20)
#define MS  G_GINT64_CONSTANT (1000000000)

/* ------------------------------------------------------------------ */
/* Drawing a layer alone                                                */

typedef struct
{
  cairo_surface_t *surface;
  TmChartCanvas   *canvas;
  cairo_t         *cr;
} Target;

/* A width × height image, white, with a light palette; with labels kept
 * (keep_labels) instead of drawn. */
static void
target_init (Target   *t,
             int       width,
             int       height,
             gboolean  keep_labels)
{
  t->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  t->cr = cairo_create (t->surface);
  cairo_set_source_rgb (t->cr, 1, 1, 1);
  cairo_paint (t->cr);
  t->canvas = tm_chart_canvas_new (t->cr, FALSE,
                                   keep_labels ? TM_CHART_CANVAS_TEXT_ELEMENTS : TM_CHART_CANVAS_TEXT_DRAWN, NULL);
}

static void
target_clear (Target *t)
{
  tm_chart_canvas_free (t->canvas);
  cairo_destroy (t->cr);
  cairo_surface_destroy (t->surface);
}

/* The pixel at (x, y) as 0xRRGGBB (the image is opaque). */
static guint32
pixel (Target *t,
       int     x,
       int     y)
{
  cairo_surface_flush (t->surface);
  return *(const guint32 *) (cairo_image_surface_get_data (t->surface) +
                             (gsize) y * cairo_image_surface_get_stride (t->surface) + 4 * x) & 0xffffff;
}

static guint32
rgb_of (const TmChartColor *c)
{
  return ((guint32) lround (c->red * 255) << 16) | ((guint32) lround (c->green * 255) << 8) |
         (guint32) lround (c->blue * 255);
}

static void
add_event (TmFixtureLine *line,
           gboolean       allocation,
           gint64         time_ps,
           gint64         heap,
           double         fragmentation,
           gint64         size,
           guint64        addr)
{
  TmFixtureMemory m = {
    .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME,
    .allocator_name = "GPU_0_bfc",
    .bytes_allocated = heap,
    .bytes_available = 1024 * MIB - heap,
    .fragmentation = fragmentation,
    .peak_bytes_in_use = heap,
    .requested_bytes = size,
    .allocation_bytes = size,
    .addr = addr,
    .tf_op = "op",
    .region_type = "output",
    .data_type = 1,
    .shape = "[4]",
  };

  tm_fixture_line_add_memory_event (line, allocation, time_ps, &m);
}

static TmProfile *
load (TmFixtureSpace *space)
{
  g_autoptr(GError) error = NULL;
  TmProfile *profile = tm_test_load_space (space, &error);

  g_assert_no_error (error);
  return profile;
}

/* ------------------------------------------------------------------ */
/* Spans                                                                */

/* The band draws each module run where its time is, alternate ones in
 * the two colours, and says which run is under a point. */
static void
test_span_band (void)
{
  g_autoptr(TmChartLayer) layer = tm_span_layer_new (TM_SPAN_BAND);
  const TmChartSpan spans[] = {
    { 60 * MS, 80 * MS, 0, 7 },
    { 10 * MS, 30 * MS, 0, 5 },
  };
  const TmChartPalette *palette;
  TmChartGeometry g;
  Target t;
  double y;

  tm_chart_geometry_init (&g, 222, 200, TRUE, 0, 100 * MS, 1024);
  tm_span_layer_set_spans (TM_SPAN_LAYER (layer), spans, G_N_ELEMENTS (spans));
  g_assert_cmpuint (tm_span_layer_get_n_spans (TM_SPAN_LAYER (layer)), ==, 2);
  target_init (&t, 222, 200, FALSE);
  palette = tm_chart_canvas_get_palette (t.canvas);
  tm_chart_layer_draw (layer, t.canvas, &g);

  /* 100 px for 100 ms: the first run (in time) is 10–30 ms. */
  y = g.hlo_band.y + g.hlo_band.height / 2;
  g_assert_cmphex (pixel (&t, (int) g.plot.x + 20, (int) y), ==, rgb_of (&palette->hlo[0]));
  g_assert_cmphex (pixel (&t, (int) g.plot.x + 70, (int) y), ==, rgb_of (&palette->hlo[1]));
  g_assert_cmphex (pixel (&t, (int) g.plot.x + 45, (int) y), !=, rgb_of (&palette->hlo[0]));
  g_assert_cmphex (pixel (&t, (int) g.plot.x + 20, (int) g.plot.y + 10), ==, 0xffffff);

  /* What is under a point: the run's tag, over the band only. */
  g_assert_cmpuint (tm_span_layer_item_at (TM_SPAN_LAYER (layer), &g, g.plot.x + 20, y), ==, 5);
  g_assert_cmpuint (tm_span_layer_item_at (TM_SPAN_LAYER (layer), &g, g.plot.x + 75, y), ==, 7);
  g_assert_cmpuint (tm_span_layer_item_at (TM_SPAN_LAYER (layer), &g, g.plot.x + 45, y), ==, TM_SPAN_NONE);
  g_assert_cmpuint (tm_span_layer_item_at (TM_SPAN_LAYER (layer), &g, g.plot.x + 20, g.plot.y + 10), ==, TM_SPAN_NONE);
  target_clear (&t);
}

/* A level: a line at the value over each span and nowhere else, labelled
 * once (what a module's static peak over its runs would be). */
static void
test_span_level (void)
{
  g_autoptr(TmChartLayer) layer = tm_span_layer_new (TM_SPAN_LEVEL);
  const TmChartSpan spans[] = {
    { 10 * MS, 30 * MS, 512, 0 },
    { 60 * MS, 80 * MS, 512, 1 },
  };
  TmChartColor red = { 1, 0, 0, 1 };
  TmChartGeometry g;
  GArray *labels;
  Target t;
  int y;

  tm_chart_geometry_init (&g, 222, 200, FALSE, 0, 100 * MS, 1024);
  g_assert_cmpint (g.y_max, ==, 1024);
  tm_span_layer_set_spans (TM_SPAN_LAYER (layer), spans, G_N_ELEMENTS (spans));
  tm_span_layer_set_color (TM_SPAN_LAYER (layer), &red);
  tm_span_layer_set_label (TM_SPAN_LAYER (layer), "static peak");
  target_init (&t, 222, 200, TRUE);
  tm_chart_layer_draw (layer, t.canvas, &g);

  y = (int) round (tm_chart_geometry_value_to_y (&g, 512));
  g_assert_cmphex (pixel (&t, (int) g.plot.x + 20, y), ==, 0xff0000);
  g_assert_cmphex (pixel (&t, (int) g.plot.x + 70, y), ==, 0xff0000);
  g_assert_cmphex (pixel (&t, (int) g.plot.x + 45, y), ==, 0xffffff);
  g_assert_cmphex (pixel (&t, (int) g.plot.x + 90, y), ==, 0xffffff);
  labels = tm_chart_canvas_get_labels (t.canvas);
  g_assert_cmpuint (labels->len, ==, 1);
  g_assert_cmpstr (g_array_index (labels, TmChartLabel, 0).text, ==, "static peak");
  /* A level is under a point near its line only. */
  g_assert_cmpuint (tm_span_layer_item_at (TM_SPAN_LAYER (layer), &g, g.plot.x + 70, y + 3), ==, 1);
  g_assert_cmpuint (tm_span_layer_item_at (TM_SPAN_LAYER (layer), &g, g.plot.x + 20, y - 3), ==, 0);
  g_assert_cmpuint (tm_span_layer_item_at (TM_SPAN_LAYER (layer), &g, g.plot.x + 20, y + 10), ==, TM_SPAN_NONE);
  g_assert_cmpuint (tm_span_layer_item_at (TM_SPAN_LAYER (layer), &g, g.plot.x + 45, y), ==, TM_SPAN_NONE);
  target_clear (&t);
}

static gboolean
is_red (guint32 rgb)
{
  return (rgb >> 16) == 0xff && ((rgb >> 8) & 0xff) < 0x90 && (rgb & 0xff) < 0x90;
}

/* Lines at many times, each with its label (what out-of-memory events
 * would be); none outside the range. */
static void
test_marks (void)
{
  g_autoptr(TmChartLayer) layer = tm_mark_layer_new (TM_MARK_LINE);
  const TmChartMark marks[] = {
    { 20 * MS, 0, "OOM" },
    { 70 * MS, 0, "OOM" },
    { 74 * MS, 0, "too close" },  /* its line, not its label */
    { 150 * MS, 0, "off the chart" },
  };
  TmChartColor red = { 1, 0, 0, 1 };
  TmChartGeometry g;
  GArray *labels;
  Target t;

  tm_chart_geometry_init (&g, 222, 200, FALSE, 0, 100 * MS, 1024);
  tm_mark_layer_set_marks (TM_MARK_LAYER (layer), marks, G_N_ELEMENTS (marks));
  tm_mark_layer_set_color (TM_MARK_LAYER (layer), &red);
  g_assert_cmpuint (tm_mark_layer_get_n_marks (TM_MARK_LAYER (layer)), ==, 4);
  target_init (&t, 222, 200, TRUE);
  tm_chart_layer_draw (layer, t.canvas, &g);

  /* A line a pixel wide, centred on the time (half on each of two
   * columns). */
  g_assert_true (is_red (pixel (&t, (int) g.plot.x + 20, (int) g.plot.y + 100)));
  g_assert_true (is_red (pixel (&t, (int) g.plot.x + 70, (int) g.plot.y + 100)));
  g_assert_true (is_red (pixel (&t, (int) g.plot.x + 74, (int) g.plot.y + 100)));
  g_assert_cmphex (pixel (&t, (int) g.plot.x + 45, (int) g.plot.y + 100), ==, 0xffffff);
  /* The line 4 ms after the second has no label: it would run into
   * the second's. */
  labels = tm_chart_canvas_get_labels (t.canvas);
  g_assert_cmpuint (labels->len, ==, 2);
  g_assert_cmpstr (g_array_index (labels, TmChartLabel, 1).text, ==, "OOM");

  /* The line under a point, within the slop. */
  g_assert_cmpuint (tm_mark_layer_item_at (TM_MARK_LAYER (layer), &g, g.plot.x + 22, g.plot.y + 50, 3), ==, 0);
  g_assert_cmpuint (tm_mark_layer_item_at (TM_MARK_LAYER (layer), &g, g.plot.x + 73, g.plot.y + 50, 3), ==, 2);
  g_assert_cmpuint (tm_mark_layer_item_at (TM_MARK_LAYER (layer), &g, g.plot.x + 45, g.plot.y + 50, 3), ==, TM_MARK_NONE);
  g_assert_cmpuint (tm_mark_layer_item_at (TM_MARK_LAYER (layer), &g, g.plot.x + 20, g.plot.y - 5, 3), ==, TM_MARK_NONE);
  target_clear (&t);
}

/* A block of time × address axis (what a PyTorch segment would be):
 * filled where it is, clipped to the plot, at least a pixel. */
static void
test_blocks (void)
{
  g_autoptr(TmChartLayer) layer = tm_block_layer_new (TM_BLOCK_FILL);
  const TmChartBlock blocks[] = {
    { 20 * MS, 40 * MS, 100, 300 },    /* inside */
    { 90 * MS, 200 * MS, 900, 1200 },  /* past the right and the top */
  };
  TmChartColor blue = { 0, 0, 1, 1 };
  TmChartGeometry g;
  TmChartRect r;
  Target t;

  tm_chart_geometry_init_map (&g, 222, 132, 0, 100 * MS, 0, 1000);
  g_assert_cmpfloat (g.plot.height, ==, 100);
  tm_block_layer_set_blocks (TM_BLOCK_LAYER (layer), blocks, G_N_ELEMENTS (blocks));
  tm_block_layer_set_color (TM_BLOCK_LAYER (layer), &blue);
  target_init (&t, 222, 132, FALSE);
  tm_chart_layer_draw (layer, t.canvas, &g);

  /* Axis 100–300 of 0–1000 over 100 rows: rows 70–90 from the top. */
  g_assert_cmphex (pixel (&t, (int) g.plot.x + 30, (int) g.plot.y + 80), ==, 0x0000ff);
  g_assert_cmphex (pixel (&t, (int) g.plot.x + 30, (int) g.plot.y + 60), ==, 0xffffff);
  g_assert_cmphex (pixel (&t, (int) g.plot.x + 95, (int) g.plot.y + 5), ==, 0x0000ff);
  g_assert_true (tm_block_layer_block_rect (&g, &blocks[1], &r));
  g_assert_cmpfloat (r.x + r.width, ==, g.plot.x + g.plot.width);
  g_assert_cmpfloat (r.y, ==, g.plot.y);
  /* A sliver still takes a pixel; a block off the plot is not drawn. */
  g_assert_true (tm_block_layer_block_rect (&g, &(TmChartBlock) { 50 * MS, 50 * MS, 500, 500 }, &r));
  g_assert_cmpfloat (r.width, ==, 1);
  g_assert_cmpfloat (r.height, ==, 1);
  g_assert_false (tm_block_layer_block_rect (&g, &(TmChartBlock) { 150 * MS, 160 * MS, 500, 600 }, &r));
  target_clear (&t);
}

/* The command line's timeline of a profile with HLO module runs has the
 * band under the plot, as the window draws it. */
static void
test_timeline_modules (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory", 0);
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(TmChart) chart = NULL;
  TmTimelineChartOptions options;
  const TmChartGeometry *g;
  TmChartPalette palette;
  Target t;
  guint band = 0;

  for (guint i = 0; i < 100; i++)
    add_event (line, TRUE, (gint64) i * MS, (gint64) (i + 1) * MIB, 0.1, MIB, 0x1000 + i * MIB);
  for (guint i = 0; i < 4; i++)
    tm_fixture_space_add_hlo_module (space, 0, "jit_step", (gint64) i * 25 * MS, (gint64) i * 25 * MS + 20 * MS);
  profile = load (space);

  tm_timeline_chart_options_init (&options);
  options.modules = tm_profile_get_hlo_modules (profile);
  chart = tm_chart_new_timeline (tm_profile_get_memory_store (profile, 0), &options);
  g = tm_chart_get_geometry (chart);
  g_assert_cmpfloat (g->hlo_band.height, ==, TM_CHART_HLO_BAND_HEIGHT);
  target_init (&t, g->width, g->height, FALSE);
  tm_chart_palette_init_default (&palette, FALSE);
  tm_chart_canvas_set_palette (t.canvas, &palette);
  tm_chart_draw (chart, t.canvas);
  for (int x = (int) g->plot.x; x < (int) (g->plot.x + g->plot.width); x++)
    {
      guint32 rgb = pixel (&t, x, (int) (g->hlo_band.y + g->hlo_band.height / 2));

      if (rgb == rgb_of (&palette.hlo[0]) || rgb == rgb_of (&palette.hlo[1]))
        band++;
    }
  /* Four runs of 20 ms every 25 ms over 99 ms: about four fifths. */
  g_assert_cmpuint (band, >, g->plot.width / 2);
  target_clear (&t);
}

/* ------------------------------------------------------------------ */
/* The drawing bugs                                                     */

/* An SVG's labels are laid out as on screen: each label's baseline and
 * box on a vector surface are where a raster canvas (the window, a PNG)
 * puts them. They were laid out with the vector surface's unhinted font
 * metrics, the time ruler's labels a pixel off the screen's. */
static void
test_svg_labels_as_on_screen (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(TmProfile) profile = load (space);
  g_autoptr(TmChart) chart = NULL;
  g_autoptr(PangoFontDescription) font = pango_font_description_from_string ("Cantarell 11");
  TmTimelineChartOptions options;
  GArray *labels[2];
  cairo_surface_t *surfaces[2];
  TmChartCanvas *canvases[2];
  cairo_t *crs[2];
  guint time_labels = 0;

  tm_timeline_chart_options_init (&options);
  chart = tm_chart_new_timeline (tm_profile_get_memory_store (profile, 0), &options);
  surfaces[0] = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, options.width, options.height);
  surfaces[1] = cairo_svg_surface_create (NULL, options.width, options.height);
  for (int i = 0; i < 2; i++)
    {
      crs[i] = cairo_create (surfaces[i]);
      canvases[i] = tm_chart_canvas_new (crs[i], i == 1, TM_CHART_CANVAS_TEXT_ELEMENTS, font);
      tm_chart_draw (chart, canvases[i]);
      labels[i] = tm_chart_canvas_get_labels (canvases[i]);
    }

  g_assert_cmpuint (labels[0]->len, ==, labels[1]->len);
  g_assert_cmpuint (labels[0]->len, >, 10);
  for (guint k = 0; k < labels[0]->len; k++)
    {
      const TmChartLabel *raster = &g_array_index (labels[0], TmChartLabel, k);
      const TmChartLabel *vector = &g_array_index (labels[1], TmChartLabel, k);

      g_assert_cmpstr (raster->text, ==, vector->text);
      g_assert_cmpfloat_with_epsilon (vector->baseline, raster->baseline, 0.01);
      g_assert_cmpfloat_with_epsilon (vector->x, raster->x, 0.01);
      g_assert_cmpfloat_with_epsilon (vector->box.y, raster->box.y, 0.01);
      g_assert_cmpfloat_with_epsilon (vector->box.height, raster->box.height, 0.01);
      if (raster->box.y > tm_chart_get_geometry (chart)->plot.y + tm_chart_get_geometry (chart)->plot.height)
        time_labels++;
    }
  g_assert_cmpuint (time_labels, >, 2);

  for (int i = 0; i < 2; i++)
    {
      tm_chart_canvas_free (canvases[i]);
      cairo_destroy (crs[i]);
      cairo_surface_destroy (surfaces[i]);
    }
}

static gboolean
boxes_overlap (const TmChartRect *a,
               const TmChartRect *b)
{
  return a->x < b->x + b->width && b->x < a->x + a->width &&
         a->y < b->y + b->height && b->y < a->y + a->height;
}

/* Two clusters of allocations 16 GiB apart: the address axis cuts the gap
 * to a break. At every height of the plot, no tick label of the address
 * axis touches the break's "≈" (they read "191 M≈" where they did). */
static void
test_map_breaks_clear_labels (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory", 0);
  g_autoptr(TmProfile) profile = NULL;
  guint64 base = G_GUINT64_CONSTANT (0x7f0000000000);
  TmAllocations *allocations;
  g_autoptr(TmChartLayer) layer = NULL;
  gint64 heap = 0;
  guint checked = 0;

  for (guint i = 0; i < 40; i++)
    {
      guint64 addr = (i < 20 ? base : base + (G_GUINT64_CONSTANT (16) << 30)) + (guint64) (i % 20) * 12 * MIB;

      heap += 12 * MIB;
      add_event (line, TRUE, (gint64) i * MS, heap, 0.1, 12 * MIB, addr);
    }
  profile = load (space);
  allocations = tm_profile_lookup_allocations (profile, tm_profile_get_memory_store (profile, 0));
  g_assert_nonnull (allocations);
  layer = tm_map_layer_new (allocations);

  for (int height = 80; height <= 420; height += 2)
    {
      TmChartGeometry g;
      GArray *labels;
      Target t;
      guint breaks = 0;

      tm_chart_geometry_init_map (&g, 500, height, 0, 40 * MS, 0, (double) tm_allocations_get_axis_length (allocations));
      target_init (&t, 500, height, TRUE);
      tm_chart_layer_draw (layer, t.canvas, &g);
      labels = tm_chart_canvas_get_labels (t.canvas);
      for (guint i = 0; i < labels->len; i++)
        {
          const TmChartLabel *mark = &g_array_index (labels, TmChartLabel, i);
          /* The break's background reaches a pixel further. */
          TmChartRect around = { mark->box.x - 4, mark->box.y - 1, mark->box.width + 8, mark->box.height + 2 };

          if (!g_str_equal (mark->text, "≈"))
            continue;
          breaks++;
          for (guint j = 0; j < labels->len; j++)
            {
              const TmChartLabel *tick = &g_array_index (labels, TmChartLabel, j);

              if (j != i && !g_str_equal (tick->text, "≈") && boxes_overlap (&around, &tick->box))
                g_error ("height %d: the label \"%s\" touches the break's \"≈\"", height, tick->text);
            }
        }
      g_assert_cmpuint (breaks, ==, 1);
      checked++;
      target_clear (&t);
    }
  g_assert_cmpuint (checked, >, 100);
}

/* Fragmentation swinging between 10 % and 90 % within every pixel column
 * (a dense profile): the columns' range is a hatch, one column in
 * TM_SERIES_BAND_HATCH, between its solid edges; the rest of the range
 * leaves the series under it as they are. A band over every column read
 * as a dark series missing from the legend. */
static void
test_dense_fragmentation (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory", 0);
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(TmChartLayer) layer = tm_line_layer_new ();
  TmChartGeometry g;
  Target t;
  guint tinted = 0, columns = 0;

  for (guint i = 0; i < 4000; i++)
    add_event (line, TRUE, (gint64) i * 1000000, 64 * MIB, i % 2 ? 0.9 : 0.1, 1024, 0x1000 + i * 1024);
  profile = load (space);
  tm_line_layer_set_store (TM_LINE_LAYER (layer), tm_profile_get_memory_store (profile, 0));
  tm_chart_geometry_init (&g, 222, 154, FALSE, 0, 4000 * G_GINT64_CONSTANT (1000000), 128 * MIB);
  g_assert_cmpfloat (g.plot.height, ==, 100);
  target_init (&t, 222, 154, FALSE);
  tm_chart_layer_draw (layer, t.canvas, &g);

  /* Half way up the 10–90 % range every column has the band's rows. */
  for (int x = (int) g.plot.x + 1; x < (int) (g.plot.x + g.plot.width) - 1; x++)
    {
      columns++;
      if (pixel (&t, x, (int) g.plot.y + 50) != 0xffffff)
        tinted++;
    }
  g_assert_cmpuint (tinted, >, 0);
  g_assert_cmpuint (tinted, <=, columns / TM_SERIES_BAND_HATCH + 1);
  /* The edges, at 90 % and 10 %, are solid in every column. */
  g_assert_cmphex (pixel (&t, (int) g.plot.x + 50, (int) round (g.plot.y + 10)), !=, 0xffffff);
  g_assert_cmphex (pixel (&t, (int) g.plot.x + 51, (int) round (g.plot.y + 90)), !=, 0xffffff);
  target_clear (&t);
}

/* A layer that follows the pointer or a selection says where it draws
 * (a widget redraws only there when it moves): every pixel it draws is
 * in one of its regions, its labels too. */
static void
assert_draws_in_regions (TmChartLayer          *layer,
                         const TmChartGeometry *g)
{
  g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (TmChartRect));
  Target t;
  guint drawn = 0;

  target_init (&t, g->width, g->height, FALSE);
  g_assert_true (tm_chart_layer_get_regions (layer, t.canvas, g, regions));
  g_assert_cmpuint (regions->len, >, 0);
  tm_chart_layer_draw (layer, t.canvas, g);
  for (int y = 0; y < g->height; y++)
    for (int x = 0; x < g->width; x++)
      {
        gboolean inside = FALSE;

        if (pixel (&t, x, y) == 0xffffff)
          continue;
        drawn++;
        for (guint i = 0; i < regions->len && !inside; i++)
          {
            const TmChartRect *r = &g_array_index (regions, TmChartRect, i);

            inside = x >= r->x && x < r->x + r->width && y >= r->y && y < r->y + r->height;
          }
        if (!inside)
          g_error ("%s draws at (%d, %d), outside its regions", G_OBJECT_TYPE_NAME (layer), x, y);
      }
  g_assert_cmpuint (drawn, >, 0);
  target_clear (&t);
}

static void
test_regions (void)
{
  TmChartGeometry g, map;
  g_autoptr(TmChartLayer) hover = tm_hover_layer_new ();
  g_autoptr(TmChartLayer) selection = tm_mark_layer_new (TM_MARK_SELECTION);
  g_autoptr(TmChartLayer) lines = tm_mark_layer_new (TM_MARK_LINE);
  g_autoptr(TmChartLayer) lifetime = tm_span_layer_new (TM_SPAN_HIGHLIGHT);
  g_autoptr(TmChartLayer) band = tm_span_layer_new (TM_SPAN_SELECTION);
  g_autoptr(TmChartLayer) outline = tm_block_layer_new (TM_BLOCK_OUTLINE);
  g_autoptr(TmChartLayer) selected = tm_block_layer_new (TM_BLOCK_SELECTED);
  const TmChartMark marks[] = { { 3 * MS, 0, "OOM at the start" }, { 97 * MS, 0, "OOM" } };
  const TmChartSpan spans[] = { { 40 * MS, 55 * MS, 0, 0 } };
  const TmChartBlock blocks[] = { { 20 * MS, 60 * MS, 200, 400 } };
  g_autoptr(TmChartLayer) level = tm_span_layer_new (TM_SPAN_LEVEL);
  g_autoptr(GArray) none = g_array_new (FALSE, FALSE, sizeof (TmChartRect));
  Target t;

  tm_chart_geometry_init (&g, 400, 200, FALSE, 0, 100 * MS, 1024);
  tm_chart_geometry_init_map (&map, 400, 200, 0, 100 * MS, 0, 1000);

  /* The pointer: its lines, its dot and its read-out at the top right. */
  tm_hover_layer_set (TM_HOVER_LAYER (hover), TRUE, 30 * MS, TRUE, 300, "30.000 ms · 300 B in use");
  assert_draws_in_regions (hover, &g);
  /* The selected time's line and label, near an edge too. */
  tm_mark_layer_set (TM_MARK_LAYER (selection), TRUE, 50 * MS, 0);
  assert_draws_in_regions (selection, &g);
  tm_mark_layer_set (TM_MARK_LAYER (selection), TRUE, 1 * MS, 0);
  assert_draws_in_regions (selection, &g);
  tm_mark_layer_set_marks (TM_MARK_LAYER (lines), marks, G_N_ELEMENTS (marks));
  assert_draws_in_regions (lines, &g);
  tm_span_layer_set_spans (TM_SPAN_LAYER (lifetime), spans, 1);
  assert_draws_in_regions (lifetime, &g);
  tm_span_layer_set_spans (TM_SPAN_LAYER (band), spans, 1);
  assert_draws_in_regions (band, &g);
  tm_block_layer_set_blocks (TM_BLOCK_LAYER (outline), blocks, 1);
  assert_draws_in_regions (outline, &map);
  tm_block_layer_set_blocks (TM_BLOCK_LAYER (selected), blocks, 1);
  assert_draws_in_regions (selected, &map);

  /* Nothing to draw: no region. A level may be anywhere. */
  target_init (&t, 400, 200, FALSE);
  tm_hover_layer_set (TM_HOVER_LAYER (hover), FALSE, 0, FALSE, 0, NULL);
  g_assert_true (tm_chart_layer_get_regions (hover, t.canvas, &g, none));
  g_assert_cmpuint (none->len, ==, 0);
  g_assert_false (tm_chart_layer_get_regions (level, t.canvas, &g, none));
  target_clear (&t);
}

/* ------------------------------------------------------------------ */
/* A list of rectangles                                                 */

/* The rectangles' plot of a 222 × 132 chart (a 100 × 100 plot over x 0
 * to 100 and offsets 0 to 1000), on a raster canvas or a vector one. */
static void
draw_rect_map (TmChartLayer          *layer,
               const TmChartGeometry *g,
               gboolean               vector,
               Target                *t)
{
  target_init (t, 222, 132, FALSE);
  if (vector)
    {
      tm_chart_canvas_free (t->canvas);
      t->canvas = tm_chart_canvas_new (t->cr, TRUE, TM_CHART_CANVAS_TEXT_ELEMENTS, NULL);
    }
  tm_chart_layer_draw (layer, t->canvas, g);
}

/* Every rectangle covers a pixel and the largest owns a shared one, as on
 * the memory map; those not lit are dimmed as the memory map dims; the
 * backdrop is faded under them and the selected one outlined. A vector
 * canvas draws the same pixels as shapes. */
static void
test_rect_map (void)
{
  const TmRasterRect list[] = {
    { 10, 40, 100, 300, 200 },    /* A */
    { 35, 45, 250, 260, 10 },     /* D: under A where they meet */
    { 50, 50.1, 500, 500.5, 1 },  /* a sliver */
    { 60, 90, 600, 900, 300 },    /* C: not lit */
  };
  const guint32 rgb[] = { 0xff0000, 0xffff00, 0x00ff00, 0x0000ff };
  const guint8 lit_flags[] = { 1, 1, 1, 0 };
  const TmRasterRect behind = { 0, 100, 950, 1000, 0 };
  g_autoptr(GArray) rects = g_array_new (FALSE, FALSE, sizeof (TmRasterRect));
  g_autoptr(GArray) colors = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) lit = g_array_new (FALSE, FALSE, sizeof (guint8));
  g_autoptr(GArray) backdrop = g_array_new (FALSE, FALSE, sizeof (TmRasterRect));
  g_autoptr(TmChartLayer) layer = NULL;
  TmChartGeometry g;
  guint32 fg, bg;
  gboolean sliver = FALSE;
  Target t, v;
  int px, py;

  g_array_append_vals (rects, list, G_N_ELEMENTS (list));
  g_array_append_vals (colors, rgb, G_N_ELEMENTS (rgb));
  g_array_append_vals (lit, lit_flags, G_N_ELEMENTS (lit_flags));
  g_array_append_val (backdrop, behind);
  layer = tm_rect_map_layer_new (rects, colors);
  tm_rect_map_layer_set_lit (TM_RECT_MAP_LAYER (layer), lit);
  tm_rect_map_layer_set_backdrop (TM_RECT_MAP_LAYER (layer), backdrop);
  tm_chart_geometry_init_map (&g, 222, 132, 0, 100, 0, 1000);
  g_assert_cmpfloat (g.plot.width, ==, 100);
  g_assert_cmpfloat (g.plot.height, ==, 100);
  px = (int) g.plot.x;
  py = (int) g.plot.y;

  draw_rect_map (layer, &g, FALSE, &t);
  fg = rgb_of (&tm_chart_canvas_get_palette (t.canvas)->fg);
  bg = rgb_of (&tm_chart_canvas_get_palette (t.canvas)->background);
  /* A over offsets 100–300: rows 70–90 from the top. */
  g_assert_cmphex (pixel (&t, px + 25, py + 80), ==, 0xff0000);
  g_assert_cmphex (pixel (&t, px + 37, py + 74), ==, 0xff0000);
  g_assert_cmphex (pixel (&t, px + 42, py + 74), ==, 0xffff00);
  g_assert_cmphex (pixel (&t, px + 25, py + 40), ==, 0xffffff);
  for (int dx = -1; dx <= 1; dx++)
    for (int dy = -1; dy <= 1; dy++)
      sliver |= pixel (&t, px + 50 + dx, py + 50 + dy) == 0x00ff00;
  g_assert_true (sliver);
  g_assert_cmphex (pixel (&t, px + 75, py + 25), ==, tm_map_dim_color (0xff0000ff, 0xff000000 | bg) & 0xffffff);
  g_assert_cmphex (pixel (&t, px + 50, py + 2), !=, 0xffffff);
  g_assert_cmphex (pixel (&t, px + 50, py + 2), !=, fg);

  /* Shapes on a vector canvas, pixel for pixel the same plot. */
  draw_rect_map (layer, &g, TRUE, &v);
  for (int y = py; y < py + 100; y++)
    for (int x = px; x < px + 100; x++)
      if (pixel (&t, x, y) != pixel (&v, x, y))
        g_error ("(%d, %d): 0x%06x on a raster canvas, 0x%06x on a vector one", x - px, y - py,
                 pixel (&t, x, y), pixel (&v, x, y));
  target_clear (&v);
  target_clear (&t);

  /* The selected one outlined left of its edge; all lit again: C in its
   * colour (the kept picture is coloured again). */
  tm_rect_map_layer_set_selected (TM_RECT_MAP_LAYER (layer), 0);
  tm_rect_map_layer_set_lit (TM_RECT_MAP_LAYER (layer), NULL);
  draw_rect_map (layer, &g, FALSE, &t);
  g_assert_cmphex (pixel (&t, px + 8, py + 80), ==, fg);
  g_assert_cmphex (pixel (&t, px + 25, py + 80), ==, 0xff0000);
  g_assert_cmphex (pixel (&t, px + 75, py + 25), ==, 0x0000ff);
  target_clear (&t);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/chart-layers/span-band", test_span_band);
  g_test_add_func ("/chart-layers/span-level", test_span_level);
  g_test_add_func ("/chart-layers/marks", test_marks);
  g_test_add_func ("/chart-layers/blocks", test_blocks);
  g_test_add_func ("/chart-layers/timeline-modules", test_timeline_modules);
  g_test_add_func ("/chart-layers/regions", test_regions);
  g_test_add_func ("/chart-layers/svg-labels-as-on-screen", test_svg_labels_as_on_screen);
  g_test_add_func ("/chart-layers/map-breaks-clear-labels", test_map_breaks_clear_labels);
  g_test_add_func ("/chart-layers/dense-fragmentation", test_dense_fragmentation);
  g_test_add_func ("/chart-layers/rect-map", test_rect_map);

  return g_test_run ();
}
