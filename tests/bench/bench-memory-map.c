/* bench-memory-map.c — allocation index and memory map times (docs/performance.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-memory-map [--runs R] [--cpu-time] [--hash] PROFILE.xplane.pb
 *
 * On the memory id with the most allocations:
 *   - index: tm_allocations_new() time and bytes per allocation;
 *   - frame: the core's part alone (tm_alloc_raster_render_bands, bands
 *     handed to a callback that does nothing), TmMemoryMap's render node
 *     for a 1920 × 600-px plot with the image rebuilt every run (the range
 *     pans a little), and that node rendered to a texture with the cairo
 *     renderer, at zoom levels around the peak;
 *   - the last drawing step alone: a 1920 × 600 texture node rendered with
 *     the cairo renderer;
 *   - picking: the allocation under a random pixel (±2 px, as the hover
 *     does), then its tooltip's decode from the file.
 * Needs a display (run under xvfb-run-test.sh). Figures are minima,
 * medians and maxima over R runs (default 15).
 *
 * --hash prints, instead of times, a checksum of what is drawn at each
 * zoom (the core's per-pixel allocations, and the frame rendered by cairo
 * coloured by op, by size and with never-freed highlighted): two builds
 * that print the same lines draw the same pixels.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <gtk/gtk.h>

#include "tm-alloc-raster.h"
#include "tm-allocations.h"
#include "tm-allocations-query.h"
#include "tm-axis.h"
#include "tm-memory-map.h"
#include "tm-profile.h"
#include "tm-session.h"
#include "tm-bench-util.h"

#define PLOT_WIDTH   1920
#define PLOT_HEIGHT  600
#define FRAME_WIDTH  (PLOT_WIDTH + TM_CHART_MARGIN_LEFT + TM_CHART_MARGIN_RIGHT)
#define FRAME_HEIGHT (PLOT_HEIGHT + 8 + TM_CHART_MARGIN_BOTTOM)

static int runs = 15;
static gboolean cpu_time = FALSE;
static gboolean hash = FALSE;

/* Wall time, or with --cpu-time the process's CPU time: every thread's,
 * so a frame drawn by two threads counts both (steadier on a shared
 * machine than wall time, and never less than the work done). */
static double
now_ms (void)
{
  struct timespec ts;

  if (!cpu_time)
    return g_get_monotonic_time () / 1000.0;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* CPU time of the calling thread and of the process, in ms. */
static void
cpu_now (double *thread,
         double *process)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  *thread = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  *process = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The busier thread's CPU time since (thread, process): the caller's
 * thread, or the rest of the process (the frame's second thread). */
static double
busier_since (double thread,
              double process)
{
  double t, p;

  cpu_now (&t, &p);
  t -= thread;
  p -= process;
  return MAX (t, p - t);
}

static void
ignore_band (guint          x0,
             guint          n_columns,
             guint          height,
             const guint32 *keys,
             guint32        index_mask,
             gpointer       user_data)
{
}

/* FNV-1a over bytes. */
static guint64
checksum (const guint8 *data,
          gsize         n)
{
  guint64 h = G_GUINT64_CONSTANT (14695981039346656037);

  for (gsize i = 0; i < n; i++)
    h = (h ^ data[i]) * G_GUINT64_CONSTANT (1099511628211);
  return h;
}

/* Checksums of what is drawn at the viewport's range: see --hash. */
static void
print_hashes (const char    *name,
              TmAllocations *allocations,
              TmViewport    *viewport,
              TmMemoryMap   *map,
              GskRenderer   *renderer)
{
  g_autofree guint32 *cells = g_new (guint32, PLOT_WIDTH * PLOT_HEIGHT);
  g_autofree guint8 *pixels = g_new (guint8, FRAME_WIDTH * FRAME_HEIGHT * 4);
  struct { TmMemoryMapColor color_by; gboolean never_freed; } modes[] = {
    { TM_MEMORY_MAP_COLOR_OP, FALSE }, { TM_MEMORY_MAP_COLOR_SIZE, FALSE }, { TM_MEMORY_MAP_COLOR_OP, TRUE },
  };
  guint shown;

  shown = tm_alloc_raster_render (allocations, tm_viewport_get_start (viewport), tm_viewport_get_end (viewport),
                                 0, (double) tm_allocations_get_axis_length (allocations),
                                 PLOT_WIDTH, PLOT_HEIGHT, cells);
  printf ("  %-12s shown %u cells %016" G_GINT64_MODIFIER "x", name, shown,
          checksum ((const guint8 *) cells, PLOT_WIDTH * PLOT_HEIGHT * 4));
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      GskRenderNode *node;
      GdkTexture *texture;

      tm_memory_map_set_color_by (map, modes[m].color_by);
      tm_memory_map_set_highlight_never_freed (map, modes[m].never_freed);
      node = tm_memory_map_render_node (map, FRAME_WIDTH, FRAME_HEIGHT);
      texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, FRAME_WIDTH, FRAME_HEIGHT));
      gdk_texture_download (texture, pixels, FRAME_WIDTH * 4);
      printf (" %016" G_GINT64_MODIFIER "x", checksum (pixels, FRAME_WIDTH * FRAME_HEIGHT * 4));
      g_object_unref (texture);
      gsk_render_node_unref (node);
    }
  tm_memory_map_set_color_by (map, TM_MEMORY_MAP_COLOR_OP);
  tm_memory_map_set_highlight_never_freed (map, FALSE);
  printf ("\n");
}

static void
print_stats (GArray *samples)
{
  g_array_sort (samples, tm_bench_compare_doubles);
  printf ("   %6.3f %6.3f %8.3f", g_array_index (samples, double, 0),
          g_array_index (samples, double, samples->len / 2),
          g_array_index (samples, double, samples->len - 1));
}

static void
print_min_median (GArray *samples)
{
  g_array_sort (samples, tm_bench_compare_doubles);
  printf ("   %6.3f %6.3f", g_array_index (samples, double, 0), g_array_index (samples, double, samples->len / 2));
}

int
main (int    argc,
      char **argv)
{
  GOptionEntry entries[] = {
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Timed runs per figure", "R" },
    { "cpu-time", 0, 0, G_OPTION_ARG_NONE, &cpu_time, "Measure this thread's CPU time, not wall time", NULL },
    { "hash", 0, 0, G_OPTION_ARG_NONE, &hash, "Print checksums of the drawn pixels instead of times", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("PROFILE — memory map benchmarks");
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(TmAllocations) fresh = NULL;
  g_autoptr(TmSession) session = NULL;
  TmAllocationsQuery *query;
  g_autoptr(GskRenderer) cairo = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  TmMemoryStore *store = NULL;
  TmAllocations *allocations;
  TmViewport *viewport;
  GtkWidget *map;
  const TmSummary *summary;
  double t0, span;
  struct { const char *name; double fraction; } zooms[] = {
    { "everything", 1.0 }, { "1/10", 0.1 }, { "1/100", 0.01 }, { "1/1000", 0.001 }, { "1/10000", 0.0001 },
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2)
    {
      fprintf (stderr, "usage: bench-memory-map [--runs R] [--cpu-time] [--hash] PROFILE\n");
      return 2;
    }
  gtk_init ();

  file = g_file_new_for_commandline_arg (argv[1]);
  t0 = now_ms ();
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  if (profile == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  printf ("load (without allocation indices)   %9.1f ms\n", now_ms () - t0);

  for (guint i = 0; i < tm_profile_get_n_memory_ids (profile); i++)
    {
      TmMemoryStore *s = tm_profile_get_memory_store (profile, i);

      if (store == NULL || tm_memory_store_get_summary (s)->n_allocations >
                           tm_memory_store_get_summary (store)->n_allocations)
        store = s;
    }
  summary = tm_memory_store_get_summary (store);

  t0 = now_ms ();
  fresh = tm_allocations_new (store, NULL, &error);
  g_assert_no_error (error);
  printf ("index of %s: %u allocations, %u labels\n", tm_memory_store_get_id (store),
          tm_allocations_get_n (fresh), tm_allocations_get_n_labels (fresh));
  printf ("  build                             %9.1f ms\n", now_ms () - t0);
  printf ("  memory                            %9.2f bytes per allocation (%.1f MiB with labels)\n",
          (double) tm_allocations_get_memory_size (fresh) / MAX (tm_allocations_get_n (fresh), 1),
          tm_allocations_get_memory_size (fresh) / 1048576.0);

  session = tm_session_new ();
  query = tm_allocations_query_get_for_session (session);
  tm_session_set_profile (session, profile);
  tm_session_set_memory_store (session, store);
  /* The query builds (or waits for) the index in a worker. */
  while (tm_allocations_query_get_pending (query))
    g_main_context_iteration (NULL, TRUE);
  allocations = tm_allocations_query_get_allocations (query);
  g_assert_nonnull (allocations);
  viewport = tm_session_get_viewport (session);
  map = g_object_ref_sink (tm_memory_map_new (session));
  cairo = gsk_cairo_renderer_new ();
  gsk_renderer_realize (cairo, NULL, &error);
  g_assert_no_error (error);

  if (hash)
    {
      span = (double) (summary->last_time_ps - summary->first_time_ps);
      printf ("\nChecksums: %d × %d-px plot; cells, frame by op, by size, never freed\n", PLOT_WIDTH, PLOT_HEIGHT);
      for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
        {
          gint64 w = MAX ((gint64) (span * zooms[z].fraction), 1000);

          tm_viewport_set_range (viewport, summary->peak_time_ps - w / 2, summary->peak_time_ps + w / 2);
          print_hashes (zooms[z].name, allocations, viewport, TM_MEMORY_MAP (map), cairo);
        }
      /* A quarter of the address axis, at a tenth of the time. */
      {
        double len = (double) tm_allocations_get_axis_length (allocations);
        gint64 w = (gint64) (span * 0.1);

        tm_viewport_set_range (viewport, summary->peak_time_ps - w / 2, summary->peak_time_ps + w / 2);
        tm_memory_map_set_address_range (TM_MEMORY_MAP (map), len * 0.4, len * 0.65);
        print_hashes ("1/10, 1/4 up", allocations, viewport, TM_MEMORY_MAP (map), cairo);
        tm_memory_map_set_address_range (TM_MEMORY_MAP (map), 0, len);
      }
      g_object_unref (map);
      gsk_renderer_unrealize (cairo);
      return 0;
    }

  printf ("\nFrame: %d × %d-px plot, around the peak; ms over %d runs (%s)\n", PLOT_WIDTH, PLOT_HEIGHT, runs,
          cpu_time ? "CPU time of every thread" : "wall time");
  printf ("  %-12s %9s %24s %24s %24s %15s %15s\n", "zoom", "in view", "core (bands)", "node (image rebuilt)",
          "node + cairo render", "core busier", "node busier");
  printf ("  %-12s %9s   %6s %6s %8s   %6s %6s %8s   %6s %6s %8s   %6s %6s   %6s %6s\n", "", "", "min", "median",
          "max", "min", "median", "max", "min", "median", "max", "min", "median", "min", "median");
  span = (double) (summary->last_time_ps - summary->first_time_ps);
  for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
    {
      g_autoptr(GArray) core = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) build = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) total = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) core_busier = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) build_busier = g_array_new (FALSE, FALSE, sizeof (double));
      gint64 w = MAX ((gint64) (span * zooms[z].fraction), 1000);
      g_autoptr(GArray) in_view = NULL;

      tm_viewport_set_range (viewport, summary->peak_time_ps - w / 2, summary->peak_time_ps + w / 2);
      in_view = tm_allocations_query (allocations, tm_viewport_get_start (viewport), tm_viewport_get_end (viewport),
                                      0, G_MAXUINT64);
      for (int r = 0; r < runs; r++)
        {
          GskRenderNode *node;
          GdkTexture *texture;
          double a, b, c, thread, process;

          tm_viewport_pan (viewport, (r % 2 ? 1 : -1) * MAX (w / 200, 1));
          a = now_ms ();
          cpu_now (&thread, &process);
          tm_alloc_raster_render_bands (allocations, tm_viewport_get_start (viewport), tm_viewport_get_end (viewport),
                                       0, (double) tm_allocations_get_axis_length (allocations),
                                       PLOT_WIDTH, PLOT_HEIGHT, ignore_band, NULL);
          c = busier_since (thread, process);
          b = now_ms () - a;
          g_array_append_val (core, b);
          g_array_append_val (core_busier, c);
          a = now_ms ();
          cpu_now (&thread, &process);
          node = tm_memory_map_render_node (TM_MEMORY_MAP (map), FRAME_WIDTH, FRAME_HEIGHT);
          c = busier_since (thread, process);
          g_array_append_val (build_busier, c);
          b = now_ms ();
          texture = gsk_renderer_render_texture (cairo, node, &GRAPHENE_RECT_INIT (0, 0, FRAME_WIDTH, FRAME_HEIGHT));
          c = now_ms ();
          g_object_unref (texture);
          gsk_render_node_unref (node);
          b -= a;
          c -= a;
          g_array_append_val (build, b);
          g_array_append_val (total, c);
        }
      printf ("  %-12s %9u", zooms[z].name, in_view->len);
      print_stats (core);
      print_stats (build);
      print_stats (total);
      print_min_median (core_busier);
      print_min_median (build_busier);
      printf ("\n");
    }

  /* The last drawing step alone: a plot-sized texture drawn by cairo. */
  {
    g_autoptr(GArray) draw = g_array_new (FALSE, FALSE, sizeof (double));
    g_autofree guint32 *pixels = g_new (guint32, PLOT_WIDTH * PLOT_HEIGHT);
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(GdkTexture) texture = NULL;
    GskRenderNode *node;

    for (guint p = 0; p < PLOT_WIDTH * PLOT_HEIGHT; p++)
      pixels[p] = 0xff000000u | g_rand_int (rand);
    bytes = g_bytes_new (pixels, PLOT_WIDTH * PLOT_HEIGHT * 4);
    texture = gdk_memory_texture_new (PLOT_WIDTH, PLOT_HEIGHT, GDK_MEMORY_DEFAULT, bytes, PLOT_WIDTH * 4);
    node = gsk_texture_node_new (texture, &GRAPHENE_RECT_INIT (0, 0, PLOT_WIDTH, PLOT_HEIGHT));
    for (int r = 0; r < runs; r++)
      {
        double a = now_ms (), ms;
        GdkTexture *out = gsk_renderer_render_texture (cairo, node, &GRAPHENE_RECT_INIT (0, 0, PLOT_WIDTH, PLOT_HEIGHT));

        ms = now_ms () - a;
        g_object_unref (out);
        g_array_append_val (draw, ms);
      }
    gsk_render_node_unref (node);
    printf ("\nThe plot's texture alone, cairo renderer; ms\n  %-25s", "texture node");
    print_stats (draw);
    printf ("\n");
  }

  /* Picking over the whole range: ±2 px around a random pixel. */
  {
    g_autoptr(GArray) pick = g_array_new (FALSE, FALSE, sizeof (double));
    g_autoptr(GArray) describe = g_array_new (FALSE, FALSE, sizeof (double));
    double len = (double) tm_allocations_get_axis_length (allocations);
    guint hits = 0;

    tm_viewport_reset (viewport);
    for (int r = 0; r < 1000; r++)
      {
        double x = g_rand_double (rand) * PLOT_WIDTH, y = g_rand_double (rand) * PLOT_HEIGHT;
        gint64 ts = tm_viewport_get_start (viewport), tspan = tm_viewport_get_span (viewport);
        gint64 ta = ts + (gint64) ((x - 2) / PLOT_WIDTH * tspan), tb = ts + (gint64) ((x + 2) / PLOT_WIDTH * tspan);
        double ya = (y - 2) / PLOT_HEIGHT * len, yb = (y + 2) / PLOT_HEIGHT * len;
        double a = now_ms (), ms;
        guint index = tm_allocations_pick (allocations, ta, tb,
                                           tm_allocations_axis_to_address (allocations, MAX (ya, 0)),
                                           tm_allocations_axis_to_address (allocations, yb));

        ms = now_ms () - a;
        g_array_append_val (pick, ms);
        if (index != TM_ALLOCATIONS_NONE)
          {
            TmActivity act;

            hits++;
            a = now_ms ();
            if (tm_memory_store_get_activity (store, tm_allocations_get_event (allocations, index), &act, NULL))
              tm_activity_clear (&act);
            ms = now_ms () - a;
            g_array_append_val (describe, ms);
          }
      }
    printf ("\nPicking, whole range, 1000 random pixels (%u hits); ms\n", hits);
    printf ("  %-25s", "pick");
    print_stats (pick);
    printf ("\n");
    if (describe->len > 0)
      {
        printf ("  %-25s", "decode for tooltip");
        print_stats (describe);
        printf ("\n");
      }
  }

  g_object_unref (map);
  gsk_renderer_unrealize (cairo);
  return 0;
}
