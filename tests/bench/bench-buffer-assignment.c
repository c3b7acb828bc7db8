/* bench-buffer-assignment.c — XProf's Memory Viewer of a large module
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A made-up module of 100 000 logical buffers (docs/performance.md): one
 * temporary allocation whose trace allocates every buffer, keeps a window
 * of a thousand live, shares every tenth with the one before, and frees
 * them all; plus a thousand parameters. Times decoding the HloProto, the
 * computation (target: 200 ms) and the JSON, best of TM_BENCH_RUNS (5), in
 * CPU time of this process, which a busy machine disturbs less than the
 * wall clock. Then the Memory Viewer page's charts of it
 * (tm-buffer-charts): made once, then each frame draws the heap chart and
 * the allocation chart at 1920 × 600 and the bars at 1920 wide into
 * images (target: 8 ms a frame), best of as many frames, on the wall
 * clock (the allocation chart's painter uses two threads) and in CPU time:
 * frames of a new size each (the painter runs), and frames of one size
 * with another buffer selected each (its picture is coloured again).
 * --charts-only leaves out the decoding, computing and JSON timings (a
 * profiler then sees the frames alone). --hash prints, instead of times,
 * a checksum of each chart's image at 1920 and 1919 pixels wide, with
 * nothing and then a buffer selected: two builds that print the same
 * lines draw the same pixels. --page WIDTH draws the frames at the sizes
 * the Memory Viewer page gives its charts when they are WIDTH pixels wide
 * (the heap chart 240 high, the allocation chart 280) rather than at
 * 1920 × 600.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cairo.h>

#include "tm-buffer-assignment.h"
#include "tm-buffer-charts.h"
#include "tm-chart-palette.h"
#include "tm-hlo-fixture.h"
#include "tm-memory-viewer-json.h"

#define N_BUFFERS 100000
#define N_PARAMETERS 1000
#define WINDOW 1000

static GBytes *
make_module (void)
{
  g_autoptr(TmHloFixture) f = tm_hlo_fixture_new ("bench_module", "main");
  Xla__BufferAllocationProto *temp = tm_hlo_fixture_add_allocation (f, 0, (gint64) WINDOW << 20, 0, 0);

  for (gint64 i = 0; i < N_BUFFERS + N_PARAMETERS; i++)
    {
      g_autofree char *name = g_strdup_printf ("fusion.%" G_GINT64_FORMAT, i);

      tm_hlo_fixture_add_instruction (f, name, i);
    }
  for (gint64 i = 0; i < N_BUFFERS; i++)
    {
      gint64 size = ((i * 7919) % 64 + 1) << 14;

      tm_hlo_fixture_assign (f, temp, i + 1, (i % WINDOW) << 20, size);
      tm_hlo_fixture_add_logical_buffer (f, i + 1, size, 0, i);
    }
  for (gint64 p = 0; p < N_PARAMETERS; p++)
    {
      Xla__BufferAllocationProto *a = tm_hlo_fixture_add_allocation (f, p + 1, 1 << 20, 0, TM_HLO_ALLOC_PARAMETER);
      gint64 id = N_BUFFERS + p + 1;

      tm_hlo_fixture_assign (f, a, id, 0, 1 << 20);
      tm_hlo_fixture_add_logical_buffer (f, id, 1 << 20, 0, N_BUFFERS + p);
    }

  tm_hlo_fixture_add_trace (f);
  for (gint64 i = 0; i < N_BUFFERS; i++)
    {
      if (i % 10 == 9)
        tm_hlo_fixture_add_event (f, TM_HLO_SHARE_WITH, i + 1, i);
      else
        tm_hlo_fixture_add_event (f, TM_HLO_ALLOC, i + 1, 0);
      if (i >= WINDOW)
        tm_hlo_fixture_add_event (f, TM_HLO_FREE, i + 1 - WINDOW, 0);
    }
  for (gint64 i = MAX (0, N_BUFFERS - WINDOW); i < N_BUFFERS; i++)
    tm_hlo_fixture_add_event (f, TM_HLO_FREE, i + 1, 0);
  return tm_hlo_fixture_serialize (f);
}

static gint64
wall_us (void)
{
  return g_get_monotonic_time ();
}

static gint64
cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Draws chart kind of charts at width × height into an image. */
static void
draw_chart (TmBufferCharts    *charts,
            TmBufferChartKind  kind,
            cairo_surface_t   *surface,
            int                width,
            int                height)
{
  cairo_t *cr = cairo_create (surface);
  g_autoptr(TmChartCanvas) canvas = tm_chart_canvas_new (cr, FALSE, TM_CHART_CANVAS_TEXT_DRAWN, NULL);
  TmChartPalette palette;

  tm_chart_palette_init_default (&palette, FALSE);
  tm_chart_canvas_set_palette (canvas, &palette);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  tm_buffer_charts_set_size (charts, kind, width, height);
  tm_buffer_charts_draw (charts, kind, canvas);
  cairo_destroy (cr);
}

/* The frames' size: the width of every chart, the heights of the heap
 * chart and of the allocation chart (see --page). */
static int chart_width = 1920;
static int heap_height = 600;
static int offsets_height = 600;

typedef struct
{
  double wall;
  double cpu;
  double part[TM_BUFFER_N_CHARTS];
} Frame;

/* Frames of the page's charts: with resize, every frame a new size, all
 * three charts drawn (the allocation chart's painter runs again: 1920 and
 * 1919 pixels wide in turn); without, one size and another buffer
 * selected in each, and the two charts a selection redraws on the page,
 * the bars and the allocation chart (whose picture is kept: only the
 * selected block's outline is new). Unmeasured parts are not drawn. */
static Frame
frames (TmBufferCharts           *charts,
        const TmBufferAssignment *r,
        int                       n,
        const int                *heights,
        gboolean                  resize)
{
  cairo_surface_t *surfaces[TM_BUFFER_N_CHARTS];
  Frame best = { G_MAXDOUBLE, G_MAXDOUBLE, { G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE } };

  for (guint k = 0; k < TM_BUFFER_N_CHARTS; k++)
    surfaces[k] = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, chart_width, heights[k]);
  for (int run = 0; run < n; run++)
    {
      int width = resize && run % 2 == 1 ? chart_width - 1 : chart_width;
      gint64 w0 = wall_us (), c0 = cpu_us ();

      if (!resize && r->max_heap->len > 0)
        tm_buffer_charts_select (charts, g_array_index (r->max_heap, TmHeapObject, run % r->max_heap->len).logical_buffer_id);
      for (guint k = 0; k < TM_BUFFER_N_CHARTS; k++)
        {
          gint64 p0 = wall_us ();

          if (!resize && k == TM_BUFFER_CHART_HEAP)
            continue;
          draw_chart (charts, k, surfaces[k], width, heights[k]);
          best.part[k] = MIN (best.part[k], (wall_us () - p0) / 1000.0);
        }
      best.wall = MIN (best.wall, (wall_us () - w0) / 1000.0);
      best.cpu = MIN (best.cpu, (cpu_us () - c0) / 1000.0);
    }
  for (guint k = 0; k < TM_BUFFER_N_CHARTS; k++)
    cairo_surface_destroy (surfaces[k]);
  return best;
}

/* FNV-1a over an image's pixels, row by row (not its padding). */
static guint64
image_checksum (cairo_surface_t *surface)
{
  const guint8 *data;
  int width, height, stride;
  guint64 h = G_GUINT64_CONSTANT (14695981039346656037);

  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  width = cairo_image_surface_get_width (surface);
  height = cairo_image_surface_get_height (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (int r = 0; r < height; r++)
    for (int i = 0; i < width * 4; i++)
      h = (h ^ data[(gsize) r * stride + i]) * G_GUINT64_CONSTANT (1099511628211);
  return h;
}

/* Checksums of the charts as the frames draw them: see --hash. */
static void
print_hashes (const TmBufferAssignment *r)
{
  g_autoptr(TmBufferCharts) charts = tm_buffer_charts_new (r);
  int heights[TM_BUFFER_N_CHARTS] = { 600, 200, 600 };
  const char *names[TM_BUFFER_N_CHARTS] = { "heap", "bars", "blocks" };

  for (int selected = 0; selected < 2; selected++)
    {
      if (selected && r->max_heap->len > 0)
        tm_buffer_charts_select (charts, g_array_index (r->max_heap, TmHeapObject, r->max_heap->len - 1).logical_buffer_id);
      for (int width = 1920; width >= 1919; width--)
        for (guint k = 0; k < TM_BUFFER_N_CHARTS; k++)
          {
            cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, heights[k]);

            draw_chart (charts, k, surface, width, heights[k]);
            printf ("%-6s %dx%d %s %016" G_GINT64_MODIFIER "x\n", names[k], width, heights[k],
                    selected ? "selected" : "none    ", image_checksum (surface));
            cairo_surface_destroy (surface);
          }
    }
}

static void
print_frames (const char  *what,
              const Frame *f,
              const int   *heights)
{
  printf ("%s:\n", what);
  if (f->part[TM_BUFFER_CHART_HEAP] < G_MAXDOUBLE)
    printf ("  heap %dx%-4d   %8.1f ms\n", chart_width, heights[TM_BUFFER_CHART_HEAP], f->part[TM_BUFFER_CHART_HEAP]);
  printf ("  bars %dx%-4d   %8.1f ms\n", chart_width, heights[TM_BUFFER_CHART_BARS], f->part[TM_BUFFER_CHART_BARS]);
  printf ("  blocks %dx%-4d %8.1f ms\n", chart_width, heights[TM_BUFFER_CHART_OFFSETS], f->part[TM_BUFFER_CHART_OFFSETS]);
  printf ("  frame           %8.1f ms wall, %.1f ms CPU   (target 8 ms: %s)\n", f->wall, f->cpu,
          f->wall <= 8 ? "met" : "MISSED");
}

static void
bench_frames (const TmBufferAssignment *r,
              int                       runs)
{
  g_autoptr(TmBufferCharts) charts = NULL;
  int heights[TM_BUFFER_N_CHARTS] = { heap_height, 0, offsets_height };
  double best_make = G_MAXDOUBLE;
  Frame resized, redrawn;

  for (int run = 0; run < runs; run++)
    {
      g_autoptr(TmBufferCharts) made = NULL;
      gint64 t0 = cpu_us ();

      made = tm_buffer_charts_new (r);
      best_make = MIN (best_make, (cpu_us () - t0) / 1000.0);
      g_set_object (&charts, made);
    }
  {
    cairo_surface_t *probe = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
    cairo_t *cr = cairo_create (probe);
    g_autoptr(TmChartCanvas) canvas = tm_chart_canvas_new (cr, FALSE, TM_CHART_CANVAS_TEXT_DRAWN, NULL);

    heights[TM_BUFFER_CHART_BARS] = tm_buffer_charts_get_bars_height (charts, canvas);
    cairo_destroy (cr);
    cairo_surface_destroy (probe);
  }
  resized = frames (charts, r, runs * 3, heights, TRUE);
  redrawn = frames (charts, r, runs * 3, heights, FALSE);

  printf ("the page's charts (%u program points, %u blocks), best of %d frames each:\n",
          tm_buffer_charts_get_n_points (charts), r->blocks->len, runs * 3);
  printf ("charts made       %8.1f ms CPU, once per module and memory space\n", best_make);
  print_frames ("a new size each frame (the allocation chart's painter runs)", &resized, heights);
  print_frames ("another buffer selected each frame (the bars and the allocation chart drawn again)", &redrawn, heights);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GBytes) bytes = make_module ();
  const char *runs_env = g_getenv ("TM_BENCH_RUNS");
  int runs = runs_env != NULL ? MAX (1, atoi (runs_env)) : 5;
  double best_decode = G_MAXDOUBLE, best_compute = G_MAXDOUBLE, best_json = G_MAXDOUBLE;
  gint64 peak = 0;
  guint n_objects = 0;
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  gboolean charts_only = FALSE;
  gboolean hash = FALSE;

  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], "--charts-only"))
      charts_only = TRUE;
    else if (g_str_equal (argv[i], "--hash"))
      hash = TRUE;
    else if (g_str_equal (argv[i], "--page") && i + 1 < argc && atoi (argv[i + 1]) > 1)
      {
        chart_width = atoi (argv[++i]);
        heap_height = 240;
        offsets_height = 280;
      }
    else
      {
        fprintf (stderr, "usage: %s [--charts-only | --hash] [--page WIDTH]\n", argv[0]);
        return 2;
      }

  for (int run = 0; run < runs && !charts_only && !hash; run++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TmHloProto) proto = NULL;
      g_autoptr(TmBufferAssignment) r = NULL;
      g_autofree char *json = NULL;
      TmMemoryViewerModule m = { "bench_module(1)", 0, NULL, NULL };
      gint64 t0, t1, t2, t3;

      t0 = cpu_us ();
      proto = tm_hlo_proto_decode (data, size, "bench_module(1)", &error);
      t1 = cpu_us ();
      if (proto == NULL)
        g_error ("%s", error->message);
      r = tm_buffer_assignment_compute (proto, "bench_module(1)", 0, TM_BUFFER_ASSIGNMENT_SMALL_BUFFER_SIZE,
                                        NULL, &error);
      t2 = cpu_us ();
      if (r == NULL)
        g_error ("%s", error->message);
      m.result = r;
      json = tm_memory_viewer_json ("bench", &m, 1, NULL);
      t3 = cpu_us ();

      best_decode = MIN (best_decode, (t1 - t0) / 1000.0);
      best_compute = MIN (best_compute, (t2 - t1) / 1000.0);
      best_json = MIN (best_json, (t3 - t2) / 1000.0);
      peak = tm_buffer_assignment_get_peak (r);
      n_objects = r->max_heap->len;
    }

  if (!charts_only && !hash)
    {
      printf ("module: %d logical buffers, %d parameters, HloProto %.1f MiB; peak %" G_GINT64_FORMAT " bytes, %u objects at the peak\n",
              N_BUFFERS, N_PARAMETERS, size / 1048576.0, peak, n_objects);
      printf ("CPU time, best of %d:\n", runs);
      printf ("decode   %8.1f ms\n", best_decode);
      printf ("compute  %8.1f ms   (target 200 ms: %s)\n", best_compute, best_compute <= 200 ? "met" : "MISSED");
      printf ("json     %8.1f ms\n", best_json);
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(TmHloProto) proto = tm_hlo_proto_decode (data, size, "bench_module(1)", &error);
    g_autoptr(TmBufferAssignment) r = NULL;

    if (proto == NULL)
      g_error ("%s", error->message);
    r = tm_buffer_assignment_compute (proto, "bench_module(1)", 0, TM_BUFFER_ASSIGNMENT_SMALL_BUFFER_SIZE, NULL, &error);
    if (r == NULL)
      g_error ("%s", error->message);
    if (hash)
      print_hashes (r);
    else
      bench_frames (r, runs);
  }
  return 0;
}
