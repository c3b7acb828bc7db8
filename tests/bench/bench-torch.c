/* bench-torch.c — how fast and how lean opening a large PyTorch snapshot is
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-torch --tidemark TIDEMARK --generator GEN --dir DIR [--real REAL.pickle] [--size-mib N] [--runs R]
 *
 * Generates (or reuses, when newer than the generator) DIR/bench-torch-<N>mib.pickle
 * from REAL (by default the real cs336 snapshot in $TM_REAL_PROFILES)
 * with gen-torch-snapshot (N from --size-mib, else $TM_BENCH_SIZE_MIB,
 * else 1024), then prints the figures of
 * docs/performance.md, "PyTorch snapshots", each measurement in a child
 * process of its own:
 *   - `tidemark --summary FILE`, process start to exit: wall and CPU
 *     time, peak resident memory (the mapped file included) and peak
 *     anonymous memory; the target is 3 s and 3 GB;
 *   - in one process, the phases the command line and the window go
 *     through: reading the pickle, walking the trace, filling the stores
 *     (the window's memory ids), finishing and analysing them, the LOD
 *     the timeline draws from, each with its wall time.
 * The window itself: bench-window FILE (its target for a snapshot, 4 s).
 * Timing never makes it fail; it fails only if something does not work.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <gio/gio.h>

#include "tm-analysis.h"
#include "tm-bench-util.h"
#include "tm-format.h"
#include "tm-memory-store.h"
#include "tm-pickle.h"
#include "tm-torch-snapshot.h"
#include "tm-torch-stores.h"

#define MIB (1024.0 * 1024.0)

/* ------------------------------------------------------------------ */
/* The child: the phases                                               */

static double
seconds_since (gint64 *t)
{
  gint64 now = g_get_monotonic_time ();
  double s = (now - *t) / 1e6;

  *t = now;
  return s;
}

static int
child_phases (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmSource) source = NULL;
  g_autoptr(TmPickle) pickle = NULL;
  g_autoptr(TmTorchSnapshot) snap = NULL;
  g_autoptr(GPtrArray) stores = NULL;
  guint64 entries = 0;
  gint64 t = g_get_monotonic_time ();

  source = tm_source_open (path, &error);
  if (source == NULL)
    {
      g_printerr ("bench-torch: %s\n", error->message);
      return 1;
    }

  /* The pickle alone, then dropped: the snapshot reads it again. */
  pickle = tm_pickle_read (tm_source_get_data (source), tm_source_get_size (source), &error);
  if (pickle == NULL)
    {
      g_printerr ("bench-torch: %s\n", error->message);
      return 1;
    }
  printf ("parse_seconds=%.6f\n", seconds_since (&t));
  printf ("pickle_bytes=%" G_GSIZE_FORMAT "\n", tm_pickle_get_memory_size (pickle));
  g_clear_pointer (&pickle, tm_pickle_free);
  seconds_since (&t);

  snap = tm_torch_snapshot_read (source, NULL, &error);
  if (snap == NULL)
    {
      g_printerr ("bench-torch: %s\n", error->message);
      return 1;
    }
  printf ("read_seconds=%.6f\n", seconds_since (&t));
  printf ("snapshot_bytes=%" G_GSIZE_FORMAT "\n", tm_torch_snapshot_get_memory_size (snap));
  for (guint i = 0; i < tm_torch_snapshot_get_n_devices (snap); i++)
    entries += tm_torch_snapshot_get_figures (snap, i)->n_entries;
  printf ("entries=%" G_GUINT64_FORMAT "\n", entries);
  printf ("vm_hwm_read=%" G_GINT64_FORMAT "\n", tm_bench_status_field ("/proc/self/status", "VmHWM"));

  stores = tm_torch_snapshot_build_stores (snap);
  printf ("stores_seconds=%.6f\n", seconds_since (&t));
  for (guint i = 0; i < stores->len; i++)
    {
      g_autoptr(TmAnalysis) analysis = NULL;

      if (!tm_memory_store_finish (g_ptr_array_index (stores, i), NULL, &error) ||
          (analysis = tm_analysis_new (g_ptr_array_index (stores, i), NULL, &error)) == NULL)
        {
          g_printerr ("bench-torch: %s\n", error->message);
          return 1;
        }
    }
  printf ("finish_seconds=%.6f\n", seconds_since (&t));
  for (guint i = 0; i < stores->len; i++)
    tm_memory_store_get_lod (g_ptr_array_index (stores, i));
  printf ("lod_seconds=%.6f\n", seconds_since (&t));
  printf ("vm_hwm=%" G_GINT64_FORMAT "\n", tm_bench_status_field ("/proc/self/status", "VmHWM"));

  fflush (stdout);
  _exit (0);
}

/* ------------------------------------------------------------------ */
/* The parent                                                          */

static char *
ensure_snapshot (const char  *generator,
                 const char  *real,
                 const char  *dir,
                 gint64       size_mib,
                 GError     **error)
{
  g_autofree char *path = g_strdup_printf ("%s/bench-torch-%" G_GINT64_FORMAT "mib.pickle", dir, size_mib);
  g_autofree char *size_arg = g_strdup_printf ("%" G_GINT64_FORMAT, size_mib);
  const char *argv[] = { generator, "--size-mib", size_arg, real, path, NULL };
  int wait_status = 0;
  gint64 start = g_get_monotonic_time ();

  if (tm_bench_file_mtime (path) >= tm_bench_file_mtime (generator) &&
      tm_bench_file_mtime (path) >= tm_bench_file_mtime (real))
    {
      printf ("Reusing %s\n", path);
      return g_steal_pointer (&path);
    }
  printf ("Generating %s (%" G_GINT64_FORMAT " MiB) from %s…\n", path, size_mib, real);
  fflush (stdout);
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &wait_status, error) ||
      !g_spawn_check_wait_status (wait_status, error))
    return NULL;
  printf ("  generated in %.1f s\n", (g_get_monotonic_time () - start) / 1e6);
  return g_steal_pointer (&path);
}

static void
print_range (const char *what,
             GArray     *values,
             const char *unit)
{
  g_array_sort (values, tm_bench_compare_doubles);
  printf ("  %-28s best %.3f %s, median %.3f %s\n", what,
          g_array_index (values, double, 0), unit,
          g_array_index (values, double, values->len / 2), unit);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *tidemark = NULL;
  g_autofree char *generator = NULL;
  g_autofree char *real = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *child = NULL;
  g_autofree char *snapshot = NULL;
  gint64 size_mib = g_getenv ("TM_BENCH_SIZE_MIB") != NULL ? g_ascii_strtoll (g_getenv ("TM_BENCH_SIZE_MIB"), NULL, 10) : 1024;
  int runs = 5;
  GOptionEntry entries[] = {
    { "tidemark", 0, 0, G_OPTION_ARG_FILENAME, &tidemark, "The tidemark executable", "PATH" },
    { "generator", 0, 0, G_OPTION_ARG_FILENAME, &generator, "gen-torch-snapshot", "PATH" },
    { "real", 0, 0, G_OPTION_ARG_FILENAME, &real, "The real snapshot to repeat", "PICKLE" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "Where the generated snapshot is kept", "DIR" },
    { "size-mib", 0, 0, G_OPTION_ARG_INT64, &size_mib, "Its size in MiB (default 1024)", "N" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Timed runs (default 5)", "R" },
    { "child-phases", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &child, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- time opening a large PyTorch snapshot");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) walls = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpus = g_array_new (FALSE, FALSE, sizeof (double));
  gint64 max_rss = 0, max_anon = 0;
  g_autofree char *load = NULL;
  GStatBuf st;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-torch: %s\n", error->message);
      return 2;
    }
  if (child != NULL)
    return child_phases (child);
  if (real == NULL && g_getenv ("TM_REAL_PROFILES") != NULL)
    real = g_build_filename (g_getenv ("TM_REAL_PROFILES"), "pytorch_cs336_memory_snapshot.pickle", NULL);
  if (tidemark == NULL || generator == NULL || real == NULL || dir == NULL)
    {
      g_printerr ("bench-torch: --tidemark, --generator, --dir and --real (or $TM_REAL_PROFILES) are needed\n");
      return 2;
    }

  snapshot = ensure_snapshot (generator, real, dir, size_mib, &error);
  if (snapshot == NULL || g_stat (snapshot, &st) != 0)
    {
      g_printerr ("bench-torch: cannot make the snapshot: %s\n", error != NULL ? error->message : g_strerror (errno));
      return 1;
    }
  g_file_get_contents ("/proc/loadavg", &load, NULL, NULL);
  printf ("Tidemark PyTorch snapshot benchmark (docs/performance.md)\n");
  printf ("file              %s, %.1f MiB\n", snapshot, st.st_size / MIB);
  printf ("processors        %u; load average %s", g_get_num_processors (), load != NULL ? load : "?\n");

  /* Warm the page cache. */
  {
    g_autofree char *contents = NULL;

    g_file_get_contents (snapshot, &contents, NULL, NULL);
  }

  printf ("tidemark --summary, %d runs:\n", runs);
  for (int r = 0; r < runs; r++)
    {
      char *cli_argv[] = { tidemark, (char *) "--summary", snapshot, NULL };
      TmBenchChild result;

      if (!tm_bench_run_child (cli_argv, &result) || result.status != 0)
        {
          g_printerr ("bench-torch: tidemark --summary failed\n");
          return 1;
        }
      g_array_append_val (walls, result.wall_seconds);
      g_array_append_val (cpus, result.cpu_seconds);
      max_rss = MAX (max_rss, result.max_rss);
      max_anon = MAX (max_anon, result.max_anon);
      printf ("  run %d: %.3f s wall, %.3f s CPU, peak RSS %.0f MiB\n", r + 1,
              result.wall_seconds, result.cpu_seconds, result.max_rss / MIB);
      tm_bench_child_clear (&result);
    }
  print_range ("wall", walls, "s");
  print_range ("CPU (user + system)", cpus, "s");
  printf ("  peak RSS %.0f MiB (the mapped file included), peak anonymous %.0f MiB\n",
          max_rss / MIB, max_anon / MIB);
  printf ("  targets: ≤ 3 s wall (%s), < 3 GB (%s)\n",
          g_array_index (walls, double, 0) <= 3.0 ? "met" : "MISSED",
          max_rss < 3e9 ? "met" : "MISSED");

  {
    g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
    char *phase_argv[] = { self, (char *) "--child-phases", snapshot, NULL };
    TmBenchChild result;

    if (self == NULL || !tm_bench_run_child (phase_argv, &result) || result.status != 0)
      {
        g_printerr ("bench-torch: the phases failed\n");
        return 1;
      }
    printf ("the phases, in one process (%" G_GINT64_FORMAT " trace entries):\n",
            tm_bench_value_int (&result, "entries"));
    printf ("  %-28s %.3f s (%.0f MiB of values)\n", "pickle alone",
            tm_bench_value_double (&result, "parse_seconds"), tm_bench_value_int (&result, "pickle_bytes") / MIB);
    printf ("  %-28s %.3f s (%.0f MiB in all)\n", "snapshot: pickle and walk",
            tm_bench_value_double (&result, "read_seconds"), tm_bench_value_int (&result, "snapshot_bytes") / MIB);
    printf ("  %-28s %.3f s\n", "stores filled", tm_bench_value_double (&result, "stores_seconds"));
    printf ("  %-28s %.3f s\n", "stores finished, analysed", tm_bench_value_double (&result, "finish_seconds"));
    printf ("  %-28s %.3f s\n", "LOD", tm_bench_value_double (&result, "lod_seconds"));
    printf ("  peak RSS after the walk %.0f MiB, after the stores %.0f MiB\n",
            tm_bench_value_int (&result, "vm_hwm_read") / MIB, tm_bench_value_int (&result, "vm_hwm") / MIB);
    tm_bench_child_clear (&result);
  }
  return 0;
}
