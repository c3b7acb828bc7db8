/* bench-scopes.c — scope tree and scope series times (docs/performance.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-scopes --generator GEN --dir DIR [--size-mib N] [--live N] [--runs R]
 *
 * 1. The scope tree at a time over N live allocations (default 500 000):
 *    a fixture of N allocations, never freed, under a few thousand op names
 *    four to seven scopes deep; the tree live at the end (the "live at t"
 *    rows, then the tree), and the tree from those rows alone.
 * 2. A generated profile (DIR/bench-<N>mib.xplane.pb, made with GEN when
 *    missing or older than GEN, shared with the other benchmarks; default
 *    1024 MiB or $TM_BENCH_SIZE_MIB): on the memory id with the most
 *    snapshots, the one-off scope index, then the series of a top-level
 *    scope and of a deep one.
 *
 * Figures are minima, medians and maxima over R runs (default 5, or
 * $TM_BENCH_RUNS).
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <glib/gstdio.h>

#include "tm-fixture-writer.h"
#include "tm-profile.h"
#include "tm-scopes.h"
#include "tm-bench-util.h"

static int runs = 5;

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

static void
report (const char *what,
        GArray     *samples,
        double      target_ms)
{
  double min, median, max;

  g_array_sort (samples, tm_bench_compare_doubles);
  min = g_array_index (samples, double, 0);
  median = g_array_index (samples, double, samples->len / 2);
  max = g_array_index (samples, double, samples->len - 1);
  printf ("  %-44s min %8.1f ms  median %8.1f ms  max %8.1f ms", what, min, median, max);
  if (target_ms > 0)
    printf ("  (target ≤ %.0f ms: %s)", target_ms, min <= target_ms ? "met" : "NOT met");
  printf ("\n");
}

static TmProfile *
load_path (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  TmProfile *profile = tm_profile_load (file, NULL, NULL, NULL, &error);

  if (profile == NULL)
    g_error ("bench-scopes: %s", error->message);
  return profile;
}

/* ------------------------------------------------------------------ */
/* 1. Many live allocations                                            */

static char *
write_live_fixture (guint n_live)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "l", 0);
  g_autoptr(GPtrArray) ops = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  gint64 heap = 0;
  char *path;

  /* 2 replicas × 24 layers × 4 blocks × 16 ops, some shallower. */
  for (guint r = 0; r < 2; r++)
    for (guint l = 0; l < 24; l++)
      for (guint b = 0; b < 4; b++)
        for (guint o = 0; o < 16; o++)
          g_ptr_array_add (ops, o < 12
                           ? g_strdup_printf ("replica_%u/bert/encoder/layer_%u/block_%u/attention/op_%u", r, l, b, o)
                           : g_strdup_printf ("replica_%u/bert/layer_%u/op_%u", r, l, o));

  for (guint i = 0; i < n_live; i++)
    {
      TmFixtureMemory m = { 0 };
      gint64 bytes = 256 * (1 + (i * 2654435761u) % 4096);

      heap += bytes;
      m.allocator_name = "GPU_0_bfc";
      m.bytes_allocated = heap;
      m.bytes_available = G_GINT64_CONSTANT (1) << 40;
      m.peak_bytes_in_use = heap;
      m.requested_bytes = bytes;
      m.allocation_bytes = bytes;
      m.addr = 0x10000 + (guint64) i * 0x100000;
      m.tf_op = g_ptr_array_index (ops, (i * 7919u) % ops->len);
      m.has_group_id = TRUE;
      m.group_id = 0;
      m.region_type = "output";
      m.data_type = 1 + i % 3;
      m.shape = "[1024, 1024]";
      tm_fixture_line_add_memory_event (line, TRUE, 1000 + (gint64) i * 10, &m);
    }

  path = tm_fixture_space_write (space, NULL, "bench-live.xplane.pb", &error);
  if (path == NULL)
    g_error ("bench-scopes: %s", error->message);
  return path;
}

static void
bench_live (guint n_live)
{
  g_autofree char *path = NULL;
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(GArray) at = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) rows_only = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) tree_only = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) peak = g_array_new (FALSE, FALSE, sizeof (double));
  TmAnalysis *analysis;
  TmMemoryStore *store;
  gint64 t_end;
  double start;

  printf ("Scope tree over %u live allocations\n", n_live);
  start = now_ms ();
  path = write_live_fixture (n_live);
  profile = load_path (path);
  printf ("  (fixture written and loaded in %.1f s)\n", (now_ms () - start) / 1000.0);
  analysis = tm_profile_get_analysis (profile, 0);
  store = tm_analysis_get_store (analysis);
  t_end = tm_memory_store_get_summary (store)->last_time_ps;

  for (int r = 0; r < runs; r++)
    {
      g_autoptr(GPtrArray) rows = NULL;
      g_autoptr(TmScopeTree) tree = NULL;
      g_autoptr(TmScopeTree) tree2 = NULL;
      g_autoptr(TmScopeTree) tree3 = NULL;
      double t0, t1, t2;

      t0 = now_ms ();
      rows = tm_analysis_breakdown_at (store, t_end);
      t1 = now_ms ();
      tree = tm_scope_tree_new (rows, TM_SCOPE_GROUPING_NAME);
      t2 = now_ms ();
      g_array_append_val (rows_only, (double) { t1 - t0 });
      g_array_append_val (tree_only, (double) { t2 - t1 });
      g_array_append_val (at, (double) { t2 - t0 });
      if (tm_scope_tree_get_root (tree)->n_allocations != n_live)
        g_error ("bench-scopes: the tree holds %" G_GUINT64_FORMAT " allocations",
                 tm_scope_tree_get_root (tree)->n_allocations);

      t0 = now_ms ();
      tree2 = tm_scope_tree_new_at (analysis, TRUE, 0, TM_SCOPE_GROUPING_NAME);
      t1 = now_ms ();
      g_array_append_val (peak, (double) { t1 - t0 });
      tree3 = tm_scope_tree_new (rows, TM_SCOPE_GROUPING_DATA_TYPE);
    }

  report ("tree live at t (rows + tree)", at, 50);
  report ("  of which the live-at-t rows", rows_only, 0);
  report ("  of which the tree from the rows", tree_only, 0);
  report ("tree at the peak (peak rows kept)", peak, 50);

  {
    g_autoptr(GArray) build = g_array_new (FALSE, FALSE, sizeof (double));
    g_autoptr(GArray) fast = g_array_new (FALSE, FALSE, sizeof (double));
    g_autoptr(TmScopeIndex) index = NULL;

    for (int r = 0; r < runs; r++)
      {
        g_autoptr(TmScopeTree) tree = NULL;
        double t0, t1, t2;

        g_clear_object (&index);
        t0 = now_ms ();
        index = tm_scope_index_new (store, TM_SCOPE_GROUPING_NAME, NULL, NULL);
        t1 = now_ms ();
        tree = tm_scope_index_tree_at (index, t_end);
        t2 = now_ms ();
        g_array_append_val (build, (double) { t1 - t0 });
        g_array_append_val (fast, (double) { t2 - t1 });
        if (tm_scope_tree_get_root (tree)->n_allocations != n_live)
          g_error ("bench-scopes: the index's tree differs");
      }
    report ("scope index (once per memory id and grouping)", build, 0);
    report ("tree live at t from the index", fast, 50);
  }
  tm_fixture_remove (path);
}

/* ------------------------------------------------------------------ */
/* 2. A generated profile                                              */

static void
bench_series (const char *path)
{
  g_autoptr(TmProfile) profile = load_path (path);
  g_autoptr(GArray) build = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) top = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) deep = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(TmScopeIndex) index = NULL;
  g_autoptr(TmScopeTree) tree = NULL;
  g_autoptr(TmScope) top_scope = NULL;
  g_autoptr(TmScope) deep_scope = NULL;
  const TmScopeNode *node;
  TmAnalysis *analysis;
  TmMemoryStore *store = NULL;
  guint n = 0;

  for (guint m = 0; m < tm_profile_get_n_memory_ids (profile); m++)
    if (tm_memory_store_get_n_snapshots (tm_profile_get_memory_store (profile, m)) > n)
      {
        store = tm_profile_get_memory_store (profile, m);
        n = tm_memory_store_get_n_snapshots (store);
      }
  if (store == NULL)
    g_error ("bench-scopes: no memory id");
  analysis = tm_profile_lookup_analysis (profile, store);

  printf ("Scope series on %s, %s: %u snapshots\n", path, tm_memory_store_get_id (store), n);

  tree = tm_scope_tree_new_at (analysis, FALSE, tm_memory_store_get_summary (store)->peak_time_ps,
                               TM_SCOPE_GROUPING_NAME);
  node = tm_scope_tree_get_root (tree);
  for (guint i = 0; i < node->n_children; i++)
    if (!node->children[i]->special)
      {
        node = node->children[i];
        break;
      }
  top_scope = tm_scope_tree_get_scope (tree, node);
  while (node->n_children > 0)
    node = node->children[0];
  deep_scope = tm_scope_tree_get_scope (tree, node);
  printf ("  top-level scope: %s; deep scope: %u levels\n", top_scope->parts[0], node->depth);

  for (int r = 0; r < runs; r++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree gint64 *a = NULL;
      g_autofree gint64 *b = NULL;
      double t0, t1, t2, t3;

      g_clear_object (&index);
      t0 = now_ms ();
      index = tm_scope_index_new (store, TM_SCOPE_GROUPING_NAME, NULL, &error);
      if (index == NULL)
        g_error ("bench-scopes: %s", error->message);
      t1 = now_ms ();
      a = tm_scope_index_series (index, top_scope);
      t2 = now_ms ();
      b = tm_scope_index_series (index, deep_scope);
      t3 = now_ms ();
      g_array_append_val (build, (double) { t1 - t0 });
      g_array_append_val (top, (double) { t2 - t1 });
      g_array_append_val (deep, (double) { t3 - t2 });
    }

  report ("scope index (once per memory id and grouping)", build, 0);
  report ("series of a top-level scope", top, 100);
  report ("series of a deep scope", deep, 100);
  printf ("  index memory: %.1f MiB (%.1f bytes per snapshot)\n",
          tm_scope_index_get_memory_size (index) / 1048576.0,
          (double) tm_scope_index_get_memory_size (index) / MAX (n, 1));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *generator = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  gint64 size_mib = 0;
  gint64 n_live = 500000;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  const GOptionEntry entries[] = {
    { "generator", 0, 0, G_OPTION_ARG_FILENAME, &generator, "gen-large-profile", "PATH" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "Where generated profiles are kept", "DIR" },
    { "size-mib", 0, 0, G_OPTION_ARG_INT64, &size_mib, "Size of the generated profile", "N" },
    { "live", 0, 0, G_OPTION_ARG_INT64, &n_live, "Live allocations for the tree", "N" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Timed runs", "R" },
    { NULL }
  };

  if (g_getenv ("TM_BENCH_RUNS") != NULL)
    runs = atoi (g_getenv ("TM_BENCH_RUNS"));
  context = g_option_context_new ("— scope benchmarks");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    g_error ("bench-scopes: %s", error->message);
  if (generator == NULL || dir == NULL)
    g_error ("bench-scopes: give --generator and --dir");
  runs = MAX (runs, 1);
  if (size_mib <= 0)
    size_mib = g_getenv ("TM_BENCH_SIZE_MIB") != NULL ? g_ascii_strtoll (g_getenv ("TM_BENCH_SIZE_MIB"), NULL, 10) : 1024;

  bench_live ((guint) MAX (n_live, 1));
  path = tm_bench_ensure_shaped_profile (generator, dir, size_mib, "dense", NULL, &error);
  if (path == NULL)
    g_error ("bench-scopes: generator failed: %s", error->message);
  bench_series (path);
  return 0;
}
