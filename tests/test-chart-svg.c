/* test-chart-svg.c — the timeline and the memory map as vector SVG
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The exported SVG holds shapes and text, never a picture: more than 100
 * <path> elements for a busy timeline, no <image>, no glyph outlines
 * (<symbol>), every label a <text> element, and a well-formed document.
 * The vector series cover the same pixels, in the same colours, as the
 * painter's image. The real GPU profile (TM_REAL_PROFILES) through the
 * command line too.
 */
#include "config.h"

#include <string.h>

#include "tm-chart-export.h"
#include "tm-fixture-writer.h"
#include "tm-series-layer.h"
#include "tm-test-util.h"

#define MIB (G_GINT64_CONSTANT (1) << 20)
#define BASE G_GUINT64_CONSTANT (0x7f0000000000)
#define N_STEPS 150

static void
add_event (TmFixtureLine *line,
           gboolean       allocation,
           gint64         time_ps,
           gint64         heap,
           gint64         size,
           guint64        addr,
           const char    *op)
{
  TmFixtureMemory m = {
    .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME,
    .allocator_name = "GPU_0_bfc",
    .bytes_allocated = heap,
    .bytes_available = 1024 * MIB - heap,
    .fragmentation = (double) (time_ps % 7) / 10.0,
    .peak_bytes_in_use = heap,
    .requested_bytes = size,
    .allocation_bytes = size,
    .addr = addr,
    .tf_op = op,
    .region_type = "output",
    .data_type = 1,
    .shape = "[4]",
  };

  tm_fixture_line_add_memory_event (line, allocation, time_ps, &m);
}

/* N_STEPS allocations of 1–4 MiB, every third one freed again at once: a
 * saw-tooth of many steps. */
static TmProfile *
load_profile (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "l", 0);
  g_autoptr(GError) error = NULL;
  gint64 heap = 0, t = 1000000;
  guint64 addr = BASE;
  TmProfile *profile;

  for (guint i = 0; i < N_STEPS; i++)
    {
      gint64 size = (gint64) (1 + i % 4) * MIB;
      g_autofree char *op = g_strdup_printf ("op_%u", i % 9);

      heap += size;
      add_event (line, TRUE, t, heap, size, addr, op);
      t += 1000000;
      if (i % 3 == 2)
        {
          heap -= size;
          add_event (line, FALSE, t, heap, size, addr, NULL);
          t += 1000000;
        }
      else
        addr += (guint64) size;
    }
  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  return profile;
}

static guint
count (const char *text,
       const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (text, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* The document parses as XML. */
static void
assert_well_formed (const char *svg)
{
  static const GMarkupParser parser = { NULL };
  g_autoptr(GMarkupParseContext) context = g_markup_parse_context_new (&parser, 0, NULL, NULL);
  g_autoptr(GError) error = NULL;
  const char *start = strstr (svg, "<svg");

  g_assert_nonnull (start);
  g_assert_true (g_markup_parse_context_parse (context, start, -1, &error) &&
                 g_markup_parse_context_end_parse (context, &error));
  g_assert_no_error (error);
}

static char *
write_svg (TmChart    *chart,
           const char *title)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  TmChartPalette palette;

  tm_chart_palette_init_default (&palette, FALSE);
  g_assert_true (tm_chart_write_svg (chart, title, &palette, NULL, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
}

static void
test_timeline_vector (void)
{
  g_autoptr(TmProfile) profile = load_profile ();
  TmMemoryStore *store = tm_profile_get_memory_store (profile, 0);
  g_autoptr(TmChart) chart = NULL;
  g_autofree char *svg = NULL;
  TmTimelineChartOptions options;

  tm_timeline_chart_options_init (&options);
  chart = tm_chart_new_timeline (store, &options);
  svg = write_svg (chart, "fixture · GPU_0_bfc");

  g_assert_cmpuint (count (svg, "<path"), >, 100);
  g_assert_cmpuint (count (svg, "<image"), ==, 0);
  /* cairo writes glyphs as symbols; the labels are text. */
  g_assert_cmpuint (count (svg, "<symbol"), ==, 0);
  g_assert_cmpuint (count (svg, "<text"), >, 10);
  g_assert_nonnull (strstr (svg, ">fixture · GPU_0_bfc</text>"));
  g_assert_nonnull (strstr (svg, ">Peak "));
  g_assert_nonnull (strstr (svg, ">Heap</text>"));
  g_assert_nonnull (strstr (svg, ">ms</text>"));
  assert_well_formed (svg);
}

static void
test_memory_map_vector (void)
{
  g_autoptr(TmProfile) profile = load_profile ();
  TmMemoryStore *store = tm_profile_get_memory_store (profile, 0);
  TmAllocations *allocations = tm_profile_lookup_allocations (profile, store);
  g_autoptr(TmChart) chart = NULL;
  g_autofree char *svg = NULL;

  g_assert_nonnull (allocations);
  chart = tm_chart_new_memory_map (allocations, NULL, 0, 0, 800, 300);
  svg = write_svg (chart, NULL);

  /* A rectangle per allocation, and the grid. */
  g_assert_cmpuint (count (svg, "<path"), >=, tm_allocations_get_n (allocations));
  g_assert_cmpuint (count (svg, "<image"), ==, 0);
  g_assert_cmpuint (count (svg, "<symbol"), ==, 0);
  g_assert_cmpuint (count (svg, "<text"), >, 3);
  assert_well_formed (svg);
}

/* The series as rectangles on a vector canvas and as the painter's image
 * on a raster one: the same pixels, colours within rounding. */
static void
test_vector_matches_image (void)
{
  g_autoptr(TmProfile) profile = load_profile ();
  TmMemoryStore *store = tm_profile_get_memory_store (profile, 0);
  g_autoptr(TmChartLayer) layer = tm_series_layer_new ();
  cairo_surface_t *images[2];
  TmChartGeometry geometry;
  const gint64 *times = tm_memory_store_get_times (store);
  guint n = tm_memory_store_get_n_snapshots (store);
  guint differ = 0, painted = 0;

  tm_series_layer_set_store (TM_SERIES_LAYER (layer), store);
  tm_chart_geometry_init (&geometry, 600, 260, FALSE, times[0], times[n - 1],
                          tm_lod_get_max_total (tm_memory_store_get_lod (store)));

  for (int v = 0; v < 2; v++)
    {
      cairo_t *cr;
      TmChartCanvas *canvas;

      images[v] = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 600, 260);
      cr = cairo_create (images[v]);
      cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
      canvas = tm_chart_canvas_new (cr, v == 1, TM_CHART_CANVAS_TEXT_DRAWN, NULL);
      tm_chart_layer_draw (layer, canvas, &geometry);
      tm_chart_canvas_free (canvas);
      cairo_destroy (cr);
      cairo_surface_flush (images[v]);
    }

  for (int y = 0; y < 260; y++)
    for (int x = 0; x < 600; x++)
      {
        const guint8 *a = cairo_image_surface_get_data (images[0]) + y * cairo_image_surface_get_stride (images[0]) + 4 * x;
        const guint8 *b = cairo_image_surface_get_data (images[1]) + y * cairo_image_surface_get_stride (images[1]) + 4 * x;

        if (a[3] != 0)
          painted++;
        for (int c = 0; c < 4; c++)
          if (ABS ((int) a[c] - (int) b[c]) > 1)
            {
              differ++;
              break;
            }
      }
  g_assert_cmpuint (painted, >, 600 * 100);
  g_assert_cmpuint (differ, ==, 0);
  cairo_surface_destroy (images[0]);
  cairo_surface_destroy (images[1]);
}

static void
test_png (void)
{
  g_autoptr(TmProfile) profile = load_profile ();
  g_autoptr(TmChart) chart = NULL;
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  TmTimelineChartOptions options;
  TmChartPalette palette;

  tm_timeline_chart_options_init (&options);
  chart = tm_chart_new_timeline (tm_profile_get_memory_store (profile, 0), &options);
  tm_chart_palette_init_default (&palette, TRUE);
  g_assert_true (tm_chart_write_png (chart, "title", &palette, NULL, 2, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  g_assert_cmpuint (g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)), >, 8);
  g_assert_cmpmem (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)), 8, "\x89PNG\r\n\x1a\n", 8);
}

static char *
cli_svg (const char *format,
         const char *profile_path)
{
  g_autofree char *dir = tm_fixture_make_temp_dir (NULL);
  g_autofree char *out = g_build_filename (dir, "out.svg", NULL);
  g_autofree char *option = g_strconcat ("--export=", format, NULL);
  g_auto(TmTestRun) run = { 0 };
  char *svg = NULL;

  tm_test_run_cli (&run, NULL, option, "-o", out, profile_path, NULL);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_file_get_contents (out, &svg, NULL, NULL));
  tm_fixture_remove (dir);
  return svg;
}

static void
test_cli (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autofree char *path = tm_fixture_space_write (space, NULL, "example.xplane.pb", NULL);
  g_autofree char *timeline = cli_svg ("svg", path);
  g_autofree char *map = cli_svg ("memory-map-svg", path);

  g_assert_cmpuint (count (timeline, "<image"), ==, 0);
  g_assert_cmpuint (count (timeline, "<path"), >, 20);
  g_assert_nonnull (strstr (timeline, ">example.xplane.pb · "));
  assert_well_formed (timeline);
  g_assert_cmpuint (count (map, "<image"), ==, 0);
  assert_well_formed (map);
  tm_fixture_remove (path);
}

static void
test_real_gpu (void)
{
  g_autofree char *path = tm_test_real_profile ("tf_gpu_multi_worker.xplane.pb");
  g_autofree char *svg = NULL;

  if (path == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }

  svg = cli_svg ("svg", path);
  g_assert_cmpuint (count (svg, "<path"), >, 100);
  g_assert_cmpuint (count (svg, "<image"), ==, 0);
  g_assert_cmpuint (count (svg, "<symbol"), ==, 0);
  g_assert_nonnull (strstr (svg, ">Peak 5.78 GiB</text>"));
  assert_well_formed (svg);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/chart-svg/timeline-vector", test_timeline_vector);
  g_test_add_func ("/chart-svg/memory-map-vector", test_memory_map_vector);
  g_test_add_func ("/chart-svg/vector-matches-image", test_vector_matches_image);
  g_test_add_func ("/chart-svg/png", test_png);
  g_test_add_func ("/chart-svg/cli", test_cli);
  g_test_add_func ("/chart-svg/real-gpu", test_real_gpu);

  return g_test_run ();
}
