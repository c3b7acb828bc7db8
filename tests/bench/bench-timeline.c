/* bench-timeline.c — timeline frame, hover and "live at t" times (docs/performance.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-timeline --generator GEN --dir DIR [--size-mib N] [--runs R]
 *
 * 1. The LOD alone over 5 000 000 synthetic snapshots: build time, bytes
 *    per snapshot, and the per-column aggregation of a 1920-column frame at
 *    zoom levels from everything down to a few snapshots.
 * 2. A generated profile (DIR/bench-<N>mib.xplane.pb, made with GEN when
 *    missing or older than GEN, shared with bench-open): the memory id with
 *    the most snapshots, N from --size-mib, else $TM_BENCH_TIMELINE_SIZE_MIB,
 *    else 5632 (5.5 GiB: about 5.1 million snapshots per GPU allocator).
 *    - frame: TmTimeline's render node for a 1920-px plot (widget 2042 ×
 *      400), everything rebuilt (the widget keeps the axes and legend
 *      between frames; this does not), and rendered to a texture with the
 *      cairo renderer (and with GL when $TM_BENCH_GL is set; under Xvfb
 *      that is llvmpipe, software), at zoom levels around the peak;
 *    - hover: nearest snapshot to a time + the tooltip text (decoded from
 *      the file);
 *    - live at t: tm_analysis_breakdown_at() across the profile.
 *    The frame and hover parts need a display (run under xvfb-run-test.sh).
 *
 * Figures are minima, medians and maxima over R runs (default 15, or
 * $TM_BENCH_RUNS): on a shared machine the minimum is the one to compare
 * with the targets.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <gsk/gl/gskglrenderer.h>

#include "tm-axis.h"
#include "tm-lod.h"
#include "tm-profile.h"
#include "tm-session.h"
#include "tm-timeline.h"
#include "tm-timeline-private.h"
#include "tm-bench-util.h"

#define SYNTHETIC_N   5000000u
#define FRAME_COLUMNS 1920
#define FRAME_WIDTH   (FRAME_COLUMNS + TM_CHART_MARGIN_LEFT + TM_CHART_MARGIN_RIGHT)
#define FRAME_HEIGHT  400

static int runs = 15;

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

typedef struct
{
  double min;
  double median;
  double max;
} Stats;

static Stats
stats_of (GArray *samples)
{
  Stats s = { 0, 0, 0 };

  if (samples->len == 0)
    return s;
  g_array_sort (samples, tm_bench_compare_doubles);
  s.min = g_array_index (samples, double, 0);
  s.median = g_array_index (samples, double, samples->len / 2);
  s.max = g_array_index (samples, double, samples->len - 1);
  return s;
}

/* ------------------------------------------------------------------ */
/* 1. The LOD over synthetic columns                                   */

static void
bench_lod (void)
{
  g_autofree gint64 *times = g_new (gint64, SYNTHETIC_N);
  g_autofree gint64 *stack = g_new (gint64, SYNTHETIC_N);
  g_autofree gint64 *heap = g_new (gint64, SYNTHETIC_N);
  g_autofree gint64 *free_bytes = g_new (gint64, SYNTHETIC_N);
  g_autofree double *frag = g_new (double, SYNTHETIC_N);
  g_autofree TmLodBucket *buckets = g_new (TmLodBucket, FRAME_COLUMNS);
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  g_autoptr(TmLod) lod = NULL;
  gint64 t = 0, h = G_GINT64_CONSTANT (1) << 32;
  double start;

  /* Bursty times (many events close together, some long gaps) and a
   * random-walk heap, like a training loop's allocator. */
  for (guint i = 0; i < SYNTHETIC_N; i++)
    {
      t += g_rand_int_range (rand, 0, 8) == 0 ? g_rand_int_range (rand, 100000, 5000000) : g_rand_int_range (rand, 1000, 40000);
      h += g_rand_int_range (rand, -(1 << 20), (1 << 20) + 1);
      h = CLAMP (h, 0, G_GINT64_CONSTANT (15) << 30);
      times[i] = t;
      stack[i] = 0;
      heap[i] = h;
      free_bytes[i] = (G_GINT64_CONSTANT (16) << 30) - h;
      frag[i] = g_rand_double (rand) * 0.2;
    }

  start = now_ms ();
  lod = tm_lod_new (SYNTHETIC_N, times, stack, heap, free_bytes, frag);
  printf ("LOD over %u synthetic snapshots\n", SYNTHETIC_N);
  printf ("  build                      %8.1f ms\n", now_ms () - start);
  printf ("  memory                     %8.2f bytes per snapshot (%.1f MiB)\n",
          (double) tm_lod_get_memory_size (lod) / SYNTHETIC_N,
          tm_lod_get_memory_size (lod) / 1048576.0);
  printf ("  %u columns, per frame:         min   median      max   (snapshots per column)\n", FRAME_COLUMNS);

  for (guint z = 0; z <= 10; z++)
    {
      g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (double));
      gint64 span = (times[SYNTHETIC_N - 1] - times[0]) >> (2 * z);
      Stats s;

      for (int r = 0; r < runs; r++)
        {
          /* A different place each run, so caches are not warm for it. */
          gint64 first = times[0] + (gint64) (g_rand_double (rand) * (double) (times[SYNTHETIC_N - 1] - times[0] - span));
          double t0 = now_ms (), ms;

          tm_lod_query_columns (lod, first, first + span, FRAME_COLUMNS, buckets);
          ms = now_ms () - t0;
          g_array_append_val (samples, ms);
        }
      s = stats_of (samples);
      printf ("    zoom 1/%-8u           %8.3f %8.3f %8.3f ms   (%.1f)\n", 1u << (2 * z), s.min, s.median, s.max,
              (double) SYNTHETIC_N / (1u << (2 * z)) / FRAME_COLUMNS);
    }
}

/* ------------------------------------------------------------------ */
/* 2. A generated profile                                              */

static GskRenderer *
offscreen_gl_renderer (void)
{
  g_autoptr(GError) error = NULL;
  GskRenderer *renderer = gsk_gl_renderer_new ();

  if (gsk_renderer_realize (renderer, NULL, &error))
    return renderer;
  g_object_unref (renderer);
  return NULL;
}

typedef struct
{
  const char *name;
  gint64      span;
} Zoom;

static void
bench_frames (TmProfile     *profile,
              TmMemoryStore *store)
{
  g_autoptr(TmSession) session = tm_session_new ();
  TmTimeline *timeline = TM_TIMELINE (g_object_ref_sink (tm_timeline_new (session)));
  TmViewport *viewport = tm_session_get_viewport (session);
  const TmSummary *summary = tm_memory_store_get_summary (store);
  const gint64 *times = tm_memory_store_get_times (store);
  guint n = tm_memory_store_get_n_snapshots (store);
  GskRenderer *cairo = gsk_cairo_renderer_new ();
  GskRenderer *gl = g_getenv ("TM_BENCH_GL") != NULL ? offscreen_gl_renderer () : NULL;
  gint64 data_span;
  Zoom zooms[8];
  guint n_zooms = 0;

  gsk_renderer_realize (cairo, NULL, NULL);
  /* A session shows a memory id of its profile. */
  tm_session_set_profile (session, profile);
  tm_session_set_memory_store (session, store);
  data_span = tm_viewport_get_span (viewport);

  zooms[n_zooms++] = (Zoom) { "everything", data_span };
  zooms[n_zooms++] = (Zoom) { "1/10", data_span / 10 };
  zooms[n_zooms++] = (Zoom) { "1/100", data_span / 100 };
  zooms[n_zooms++] = (Zoom) { "1/1000", data_span / 1000 };
  zooms[n_zooms++] = (Zoom) { "1/10000", data_span / 10000 };
  zooms[n_zooms++] = (Zoom) { "one step (8 ms)", G_GINT64_CONSTANT (8000000000) };
  zooms[n_zooms++] = (Zoom) { "~20 snapshots", MAX (data_span / n * 20, 1) };

  printf ("\nFrame: %d-px plot (widget %d × %d), %u snapshots, around the peak\n",
          FRAME_COLUMNS, FRAME_WIDTH, FRAME_HEIGHT, n);
  printf ("  %-16s %9s %26s %26s", "zoom", "shown", "build ms", "build + cairo render ms");
  if (gl != NULL)
    printf (" %26s", "build + GL render ms");
  printf ("\n  %-16s %9s", "", "");
  for (guint k = 0; k < (gl != NULL ? 3u : 2u); k++)
    printf ("   %7s %7s %7s", "min", "median", "max");
  printf ("\n");

  for (guint z = 0; z < n_zooms; z++)
    {
      g_autoptr(GArray) build = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) with_cairo = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) with_gl = g_array_new (FALSE, FALSE, sizeof (double));
      Stats b, c, g = { 0, 0 };
      guint shown;

      tm_viewport_set_range (viewport, summary->peak_time_ps - zooms[z].span / 2,
                             summary->peak_time_ps + zooms[z].span / 2);
      shown = tm_memory_store_find_at_or_before (store, tm_viewport_get_end (viewport))
              - tm_memory_store_find_at_or_before (store, tm_viewport_get_start (viewport)) + 1;

      for (int r = 0; r < runs; r++)
        {
          GskRenderNode *node;
          GdkTexture *texture;
          double t0, t1, t2, ms;
          /* Pan a little each run so nothing is cached between frames. */
          gint64 shift = (r % 2 ? 1 : -1) * (zooms[z].span / 100);

          tm_viewport_pan (viewport, shift);
          t0 = now_ms ();
          node = tm_timeline_render_node (timeline, FRAME_WIDTH, FRAME_HEIGHT);
          t1 = now_ms ();
          texture = gsk_renderer_render_texture (cairo, node, &GRAPHENE_RECT_INIT (0, 0, FRAME_WIDTH, FRAME_HEIGHT));
          t2 = now_ms ();
          g_object_unref (texture);

          ms = t1 - t0;
          g_array_append_val (build, ms);
          ms = t2 - t0;
          g_array_append_val (with_cairo, ms);

          if (gl != NULL)
            {
              double t3 = now_ms ();

              texture = gsk_renderer_render_texture (gl, node, &GRAPHENE_RECT_INIT (0, 0, FRAME_WIDTH, FRAME_HEIGHT));
              ms = (t1 - t0) + (now_ms () - t3);
              g_object_unref (texture);
              g_array_append_val (with_gl, ms);
            }
          gsk_render_node_unref (node);
        }

      b = stats_of (build);
      c = stats_of (with_cairo);
      if (gl != NULL)
        g = stats_of (with_gl);
      printf ("  %-16s %9u   %7.2f %7.2f %7.2f   %7.2f %7.2f %7.2f", zooms[z].name, shown,
              b.min, b.median, b.max, c.min, c.median, c.max);
      if (gl != NULL)
        printf ("   %7.2f %7.2f %7.2f", g.min, g.median, g.max);
      printf ("\n");
    }

  /* Hover: nearest snapshot to a time and its tooltip text. */
    {
      g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GRand) rand = g_rand_new_with_seed (11);
      Stats s;

      for (int r = 0; r < 1000; r++)
        {
          gint64 t = times[0] + (gint64) (g_rand_double (rand) * (double) (times[n - 1] - times[0]));
          double t0 = now_ms (), ms;
          guint index = tm_memory_store_find_nearest (store, t);
          g_autofree char *markup = tm_timeline_describe_snapshot (timeline, index);

          ms = now_ms () - t0;
          g_assert (markup != NULL);
          g_array_append_val (samples, ms);
        }
      s = stats_of (samples);
      printf ("\nHover (nearest snapshot + tooltip text), 1000 times: min %.3f ms, median %.3f ms, max %.3f ms\n",
              s.min, s.median, s.max);
    }

  gsk_renderer_unrealize (cairo);
  g_object_unref (cairo);
  if (gl != NULL)
    {
      gsk_renderer_unrealize (gl);
      g_object_unref (gl);
    }
  g_object_unref (timeline);
}

static void
bench_live_at_t (TmMemoryStore *store)
{
  g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (double));
  const gint64 *times = tm_memory_store_get_times (store);
  guint n = tm_memory_store_get_n_snapshots (store);
  guint rows = 0;
  Stats s;

  for (int r = 0; r <= 10; r++)
    {
      gint64 t = times[(guint) ((double) (n - 1) * r / 10)];
      double t0 = now_ms (), ms;
      g_autoptr(GPtrArray) breakdown = tm_analysis_breakdown_at (store, t);

      ms = now_ms () - t0;
      rows = MAX (rows, breakdown->len);
      g_array_append_val (samples, ms);
    }
  s = stats_of (samples);
  printf ("Live at t (breakdown_at), 11 times from start to end: min %.1f ms, median %.1f ms, max %.1f ms (up to %u rows)\n",
          s.min, s.median, s.max, rows);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *generator = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(TmProfile) profile = NULL;
  gint64 size_mib = 0;
  TmMemoryStore *store = NULL;
  gboolean have_display;
  double start;
  GOptionEntry entries[] = {
    { "generator", 0, 0, G_OPTION_ARG_FILENAME, &generator, "gen-large-profile", "PATH" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "Where the generated profile is kept", "DIR" },
    { "size-mib", 0, 0, G_OPTION_ARG_INT64, &size_mib, "Size of the generated profile", "N" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Timed runs per figure", "R" },
    { NULL }
  };

  context = g_option_context_new ("— timeline benchmarks");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-timeline: %s\n", error->message);
      return 2;
    }
  if (g_getenv ("TM_BENCH_RUNS") != NULL && runs == 15)
    runs = MAX (1, atoi (g_getenv ("TM_BENCH_RUNS")));
  if (size_mib <= 0)
    size_mib = g_getenv ("TM_BENCH_TIMELINE_SIZE_MIB") != NULL
               ? g_ascii_strtoll (g_getenv ("TM_BENCH_TIMELINE_SIZE_MIB"), NULL, 10)
               : 5632;

  have_display = gtk_init_check ();

  bench_lod ();

  if (generator == NULL || dir == NULL)
    {
      printf ("\nNo --generator/--dir: frame, hover and live-at-t figures skipped\n");
      return 0;
    }

  path = tm_bench_ensure_shaped_profile (generator, dir, size_mib, "dense", NULL, &error);
  if (path == NULL)
    {
      g_printerr ("bench-timeline: generator failed: %s\n", error->message);
      return 1;
    }

  file = g_file_new_for_path (path);
  start = now_ms ();
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  if (profile == NULL)
    {
      g_printerr ("bench-timeline: %s\n", error->message);
      return 1;
    }
  printf ("  loaded in %.1f s\n", (now_ms () - start) / 1000.0);

  for (guint i = 0; i < tm_profile_get_n_memory_ids (profile); i++)
    {
      TmMemoryStore *candidate = tm_profile_get_memory_store (profile, i);

      if (store == NULL || tm_memory_store_get_n_snapshots (candidate) > tm_memory_store_get_n_snapshots (store))
        store = candidate;
    }
  if (store == NULL || tm_memory_store_get_n_snapshots (store) == 0)
    {
      g_printerr ("bench-timeline: the generated profile has no memory events\n");
      return 1;
    }
  printf ("  memory id %s: %u snapshots, LOD %.2f bytes per snapshot\n",
          tm_memory_store_get_id (store), tm_memory_store_get_n_snapshots (store),
          (double) tm_lod_get_memory_size (tm_memory_store_get_lod (store)) / tm_memory_store_get_n_snapshots (store));

  if (have_display)
    bench_frames (profile, store);
  else
    printf ("\nNo display: frame and hover figures skipped (run under xvfb-run-test.sh)\n");

  printf ("\n");
  bench_live_at_t (store);

  return 0;
}
