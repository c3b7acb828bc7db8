/* bench-allocations.c — the Allocations tab's work (docs/performance.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-allocations --generator GEN --dir DIR [--size-mib N] [--runs R]
 *
 * On a generated profile (DIR/bench-<N>mib.xplane.pb, made with GEN when
 * missing or older than GEN, shared with the other benchmarks; default
 * 1024 MiB or $TM_BENCH_SIZE_MIB), for the memory id with the most
 * allocations: the one-off allocation index and shapes, then what the tab
 * does in its worker each time the range, the sort or a filter changes
 * (tm_alloc_list_query and the figures of tm_alloc_stats_new), over the
 * whole profile and over a tenth of it. Figures are minima, medians and
 * maxima over R runs (default 5, or $TM_BENCH_RUNS); nothing fails on
 * time.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "tm-alloc-list.h"
#include "tm-alloc-stats.h"
#include "tm-profile.h"
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
        guint       n_rows)
{
  double min, median, max;

  g_array_sort (samples, tm_bench_compare_doubles);
  min = g_array_index (samples, double, 0);
  median = g_array_index (samples, double, samples->len / 2);
  max = g_array_index (samples, double, samples->len - 1);
  printf ("  %-40s min %8.1f ms  median %8.1f ms  max %8.1f ms", what, min, median, max);
  if (n_rows != G_MAXUINT)
    printf ("  (%u rows)", n_rows);
  printf ("\n");
}

typedef struct
{
  const char      *what;
  TmAllocListSort  sort;
  gboolean         descending;
  TmAllocListKind  kind;
  const char      *text;
} Case;

static void
bench_queries (TmAllocations *allocations,
               TmAllocShapes *shapes,
               gint64         start_ps,
               gint64         end_ps)
{
  static const Case cases[] = {
    { "allocation order (no sort)", TM_ALLOC_LIST_SORT_INDEX, FALSE, TM_ALLOC_LIST_ALL, NULL },
    { "sorted by size, largest first", TM_ALLOC_LIST_SORT_SIZE, TRUE, TM_ALLOC_LIST_ALL, NULL },
    { "sorted by op name", TM_ALLOC_LIST_SORT_OP, FALSE, TM_ALLOC_LIST_ALL, NULL },
    { "sorted by shape", TM_ALLOC_LIST_SORT_SHAPE, FALSE, TM_ALLOC_LIST_ALL, NULL },
    { "sorted by address", TM_ALLOC_LIST_SORT_ADDRESS, FALSE, TM_ALLOC_LIST_ALL, NULL },
    { "sorted by lifetime, longest first", TM_ALLOC_LIST_SORT_LIFETIME, TRUE, TM_ALLOC_LIST_ALL, NULL },
    { "text \"matmul\", sorted by size", TM_ALLOC_LIST_SORT_SIZE, TRUE, TM_ALLOC_LIST_ALL, "matmul" },
    { "text \"0x7f\" (addresses)", TM_ALLOC_LIST_SORT_INDEX, FALSE, TM_ALLOC_LIST_ALL, "0x7f" },
    { "temporary (1 ms), by size", TM_ALLOC_LIST_SORT_SIZE, TRUE, TM_ALLOC_LIST_TEMPORARY, NULL },
    { "freed in the same step", TM_ALLOC_LIST_SORT_INDEX, FALSE, TM_ALLOC_LIST_SAME_STEP, NULL },
    { "never freed", TM_ALLOC_LIST_SORT_INDEX, FALSE, TM_ALLOC_LIST_NEVER_FREED, NULL },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (double));
      TmAllocListQuery query = { start_ps, end_ps, cases[c].kind, TM_ALLOC_STATS_DEFAULT_TEMPORARY_PS,
                                 cases[c].text, cases[c].sort, cases[c].descending };
      guint n_rows = 0;

      for (int r = 0; r < runs; r++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(GArray) rows = NULL;
          double t0 = now_ms ();

          rows = tm_alloc_list_query (allocations, shapes, &query, NULL, &error);
          if (rows == NULL)
            g_error ("bench-allocations: %s", error->message);
          g_array_append_val (samples, (double) { now_ms () - t0 });
          n_rows = rows->len;
        }
      report (cases[c].what, samples, n_rows);
    }

  {
    g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (double));

    for (int r = 0; r < runs; r++)
      {
        g_autoptr(TmAllocStats) stats = NULL;
        double t0 = now_ms ();

        stats = tm_alloc_stats_new (allocations, start_ps, end_ps, TM_ALLOC_STATS_DEFAULT_TEMPORARY_PS, NULL, NULL);
        g_array_append_val (samples, (double) { now_ms () - t0 });
      }
    report ("the figures (tm_alloc_stats_new)", samples, G_MAXUINT);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *generator = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  gint64 size_mib = 1024;
  const char *env;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  const GOptionEntry entries[] = {
    { "generator", 0, 0, G_OPTION_ARG_FILENAME, &generator, "gen-large-profile", "PATH" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "Where generated profiles are kept", "DIR" },
    { "size-mib", 0, 0, G_OPTION_ARG_INT64, &size_mib, "Size of the generated profile", "N" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Timed runs per figure", "R" },
    { NULL }
  };
  g_autoptr(GFile) file = NULL;
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(TmAllocShapes) shapes = NULL;
  TmMemoryStore *store = NULL;
  TmAllocations *allocations;
  const TmSummary *summary;
  guint most = 0;
  double t0;

  if ((env = g_getenv ("TM_BENCH_SIZE_MIB")) != NULL)
    size_mib = g_ascii_strtoll (env, NULL, 10);
  if ((env = g_getenv ("TM_BENCH_RUNS")) != NULL)
    runs = atoi (env);
  context = g_option_context_new ("— the Allocations tab's work on a generated profile");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    g_error ("bench-allocations: %s", error->message);
  if (generator == NULL || dir == NULL)
    g_error ("bench-allocations: give --generator and --dir");
  runs = MAX (runs, 1);

  path = tm_bench_ensure_profile (generator, dir, size_mib, NULL, &error);
  if (path == NULL)
    g_error ("bench-allocations: %s", error->message);
  file = g_file_new_for_path (path);
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  if (profile == NULL)
    g_error ("bench-allocations: %s", error->message);
  for (guint m = 0; m < tm_profile_get_n_memory_ids (profile); m++)
    if (tm_memory_store_get_summary (tm_profile_get_memory_store (profile, m))->n_allocations > most)
      {
        store = tm_profile_get_memory_store (profile, m);
        most = tm_memory_store_get_summary (store)->n_allocations;
      }
  if (store == NULL)
    g_error ("bench-allocations: no memory id");
  summary = tm_memory_store_get_summary (store);

  t0 = now_ms ();
  allocations = tm_profile_lookup_allocations (profile, store);
  printf ("Allocations of %s, %s: %u (index built once in %.0f ms)\n", path, tm_memory_store_get_id (store),
          tm_allocations_get_n (allocations), now_ms () - t0);
  t0 = now_ms ();
  shapes = tm_alloc_shapes_new (allocations, NULL, &error);
  if (shapes == NULL)
    g_error ("bench-allocations: %s", error->message);
  printf ("  every shape decoded once (a shape sort or any text filter first): %.0f ms\n", now_ms () - t0);

  printf ("The whole profile:\n");
  bench_queries (allocations, shapes, summary->first_time_ps, summary->last_time_ps);
  printf ("A tenth of it (the middle):\n");
  {
    gint64 span = summary->last_time_ps - summary->first_time_ps;
    gint64 mid = summary->first_time_ps + span / 2;

    bench_queries (allocations, shapes, mid - span / 20, mid + span / 20);
  }
  return 0;
}
