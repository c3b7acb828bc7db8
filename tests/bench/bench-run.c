/* bench-run.c — the run overview's loader over many hosts: time and memory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-run --generator GEN --dir DIR [--hosts N] [--size-mib S] [--threads T]
 *
 * Writes N profiles of S MiB (default 64 × 16) into DIR/run-N-S (kept and
 * reused), summarises them all with tm-run-loader on T threads (default:
 * one per core) and prints the wall time and the peak resident memory of
 * the process (ru_maxrss). Run it once per host count to see memory stay
 * flat as hosts are added (docs/performance.md).
 */
#include "config.h"

#include <sys/resource.h>
#include <glib/gstdio.h>

#include "tm-run.h"
#include "tm-run-loader.h"

int
main (int    argc,
      char **argv)
{
  g_autofree char *generator = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *run_dir = NULL;
  int n_hosts = 64, size_mib = 16, threads = 0;
  GOptionEntry entries[] = {
    { "generator", 0, 0, G_OPTION_ARG_FILENAME, &generator, "gen-large-profile", "PATH" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "Where to keep the run", "DIR" },
    { "hosts", 0, 0, G_OPTION_ARG_INT, &n_hosts, "Hosts (default 64)", "N" },
    { "size-mib", 0, 0, G_OPTION_ARG_INT, &size_mib, "Size of each host's profile (default 16)", "S" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, "Worker threads (default: one per core)", "T" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- time the run overview");
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) run_file = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(TmRunLoader) loader = NULL;
  g_autofree char *first = NULL;
  TmRunItem *item;
  struct rusage usage;
  gint64 start;
  double seconds;
  guint n_failed = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || generator == NULL || dir == NULL)
    {
      g_printerr ("bench-run: %s\n", error != NULL ? error->message : "give --generator and --dir");
      return 2;
    }

  /* One generated profile, copied under each host's name (the overview's
   * work does not depend on the hosts differing). */
  run_dir = g_strdup_printf ("%s/run-%d-%d", dir, n_hosts, size_mib);
  g_mkdir_with_parents (run_dir, 0755);
  first = g_strdup_printf ("%s/worker-0.xplane.pb", run_dir);
  if (!g_file_test (first, G_FILE_TEST_EXISTS))
    {
      g_autofree char *size = g_strdup_printf ("%d", size_mib);
      const char *gen_argv[] = { generator, "-q", "-s", size, first, NULL };
      int status = 0;

      if (!g_spawn_sync (NULL, (char **) gen_argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error) ||
          !g_spawn_check_wait_status (status, &error))
        {
          g_printerr ("bench-run: %s\n", error->message);
          return 1;
        }
    }
  for (int h = 1; h < n_hosts; h++)
    {
      g_autofree char *path = g_strdup_printf ("%s/worker-%d.xplane.pb", run_dir, h);

      if (!g_file_test (path, G_FILE_TEST_EXISTS) && link (first, path) != 0)
        {
          g_autoptr(GFile) src = g_file_new_for_path (first);
          g_autoptr(GFile) dst = g_file_new_for_path (path);

          if (!g_file_copy (src, dst, G_FILE_COPY_NONE, NULL, NULL, NULL, &error))
            {
              g_printerr ("bench-run: %s\n", error->message);
              return 1;
            }
        }
    }

  run_file = g_file_new_for_path (run_dir);
  items = tm_run_expand (&run_file, 1, NULL, NULL);
  item = g_ptr_array_index (items, 0);

  start = g_get_monotonic_time ();
  loader = tm_run_loader_new (item->run_directory, (GFile **) item->hosts->pdata, item->hosts->len);
  tm_run_loader_start (loader, (guint) threads);
  while (tm_run_loader_get_n_done (loader) < item->hosts->len)
    g_main_context_iteration (NULL, TRUE);
  seconds = (g_get_monotonic_time () - start) / 1e6;

  for (guint i = 0; i < item->hosts->len; i++)
    n_failed += tm_run_loader_get_host_state (loader, i) == TM_RUN_HOST_FAILED;

  getrusage (RUSAGE_SELF, &usage);
  g_print ("run overview: %u hosts x %d MiB on %u threads: %.2f s, peak RSS %.1f MiB, %u failed\n",
           item->hosts->len, size_mib, threads > 0 ? (guint) threads : g_get_num_processors (),
           seconds, usage.ru_maxrss / 1024.0, n_failed);
  return n_failed > 0;
}
