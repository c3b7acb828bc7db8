/* bench-open.c — how fast and how lean opening a large profile is
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-open --generator GEN --tidemark TIDEMARK --floor FLOOR --dir DIR [--size-mib N] [--shape S]
 *   bench-open … --growth 64,256,1024,4608
 *
 * Generates (or reuses, keyed by size and shape) DIR/bench-<N>mib[-S].xplane.pb,
 * N from --size-mib, else $TM_BENCH_SIZE_MIB, else 1024, S from --shape,
 * else $TM_BENCH_SHAPE, else the generator's realistic default
 * (tm-bench-util.h), and prints figures for docs/performance.md, each
 * time also as a multiple of the floor: FLOOR (bench-floor) mapping the
 * file and reading every word, run before each timed run of the others:
 *   - tm_profile_load() → summary of every memory id (in a child process):
 *     wall time, MB/s, memory events/s, peak RSS and memory beyond the file;
 *   - `tidemark --summary FILE`, process start to exit;
 *   - the C++ full parse (bench-cxx-parse, when libprotobuf's C++ library
 *     was found at build time: --cxx-parse);
 *   - the baseline: read the whole file + protobuf-c
 *     tensorflow__profiler__xspace__unpack() (skip with TM_BENCH_SKIP_UNPACK=1).
 * $TM_BENCH_RUNS (default 3) sets how often the first two run.
 * With --growth, only `tidemark --summary` and the floor, at each size:
 * best and median time, the median's multiple of the floor's, CPU time,
 * peak anonymous memory, per memory event.
 *
 * Each measurement runs in its own child (this program again, with a
 * --child-* mode), so peak RSS figures are separate. Timing never makes it
 * fail; it fails only if something does not work (generation, loading, a
 * memory-event count that differs from what the generator wrote).
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>

#include "xplane.pb-c.h"

#include "tm-format.h"
#include "tm-memory-store.h"
#include "tm-profile.h"
#include "tm-bench-util.h"

#define MIB (G_GUINT64_CONSTANT (1024) * 1024)

/* ------------------------------------------------------------------ */
/* /proc helpers                                                       */

static gint64
self_status (const char *name)
{
  return tm_bench_status_field ("/proc/self/status", name);
}

/* ------------------------------------------------------------------ */
/* Child modes                                                         */

static int
child_load (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  guint64 snapshots = 0;
  guint64 store_bytes = 0;
  gint64 peak_sum = 0;
  gint64 start, end;
  guint n;

  start = g_get_monotonic_time ();
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  if (profile == NULL)
    {
      g_printerr ("bench-open: %s: %s\n", path, error->message);
      return 1;
    }

  n = tm_profile_get_n_memory_ids (profile);
  for (guint i = 0; i < n; i++)
    {
      TmMemoryStore *store = tm_profile_get_memory_store (profile, i);
      const TmSummary *summary = tm_memory_store_get_summary (store);

      snapshots += summary->n_snapshots;
      peak_sum += summary->peak_bytes_in_use;
    }
  end = g_get_monotonic_time ();

  for (guint i = 0; i < n; i++)
    store_bytes += tm_memory_store_get_memory_size (tm_profile_get_memory_store (profile, i)) +
                   tm_analysis_get_memory_size (tm_profile_get_analysis (profile, i));

  printf ("seconds=%.6f\n", (end - start) / 1e6);
  printf ("memory_events=%" G_GUINT64_FORMAT "\n", snapshots);
  printf ("memory_ids=%u\n", n);
  printf ("peak_sum=%" G_GINT64_FORMAT "\n", peak_sum);
  printf ("store_bytes=%" G_GUINT64_FORMAT "\n", store_bytes);
  printf ("vm_hwm=%" G_GINT64_FORMAT "\n", self_status ("VmHWM"));
  printf ("rss_anon_end=%" G_GINT64_FORMAT "\n", self_status ("RssAnon"));
  printf ("rss_file_end=%" G_GINT64_FORMAT "\n", self_status ("RssFile"));

  return 0;
}

static gboolean
is_memory_event_name (const char *name)
{
  return g_strcmp0 (name, "MemoryAllocation") == 0 ||
         g_strcmp0 (name, "MemoryDeallocation") == 0;
}

static int
child_unpack (const char *path)
{
  g_autoptr(GError) error = NULL;
  Tensorflow__Profiler__XSpace *space;
  char *contents = NULL;
  gsize size = 0;
  guint64 memory_events = 0;
  gint64 t0, t1, t2, t3;

  t0 = g_get_monotonic_time ();
  if (!g_file_get_contents (path, &contents, &size, &error))
    {
      g_printerr ("bench-open: %s\n", error->message);
      return 1;
    }
  t1 = g_get_monotonic_time ();

  space = tensorflow__profiler__xspace__unpack (NULL, size, (const guint8 *) contents);
  if (space == NULL)
    {
      g_printerr ("bench-open: protobuf-c could not unpack %s\n", path);
      return 1;
    }
  t2 = g_get_monotonic_time ();

  /* The memory walk: count the memory events of /host:CPU. */
  for (gsize p = 0; p < space->n_planes; p++)
    {
      Tensorflow__Profiler__XPlane *plane = space->planes[p];
      g_autoptr(GHashTable) memory_ids = NULL;

      if (g_strcmp0 (plane->name, "/host:CPU") != 0)
        continue;

      memory_ids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      for (gsize m = 0; m < plane->n_event_metadata; m++)
        if (plane->event_metadata[m]->value != NULL &&
            is_memory_event_name (plane->event_metadata[m]->value->name))
          g_hash_table_add (memory_ids, g_memdup2 (&plane->event_metadata[m]->key, sizeof (gint64)));

      for (gsize l = 0; l < plane->n_lines; l++)
        for (gsize e = 0; e < plane->lines[l]->n_events; e++)
          if (g_hash_table_contains (memory_ids, &plane->lines[l]->events[e]->metadata_id))
            memory_events++;
    }
  t3 = g_get_monotonic_time ();

  printf ("read_seconds=%.6f\n", (t1 - t0) / 1e6);
  printf ("unpack_seconds=%.6f\n", (t2 - t1) / 1e6);
  printf ("walk_seconds=%.6f\n", (t3 - t2) / 1e6);
  printf ("memory_events=%" G_GUINT64_FORMAT "\n", memory_events);
  printf ("vm_hwm=%" G_GINT64_FORMAT "\n", self_status ("VmHWM"));

  /* Freeing millions of small blocks only costs time: the process ends. */
  fflush (stdout);
  _exit (0);
}

/* ------------------------------------------------------------------ */
/* The profile to measure                                              */

/* The generator's "key: value" lines. */
static GHashTable *
parse_info (const char *info_text)
{
  GHashTable *info = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto(GStrv) lines = g_strsplit (info_text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *colon = strchr (lines[i], ':');

      if (colon != NULL)
        g_hash_table_insert (info, g_strndup (lines[i], colon - lines[i]), g_strdup (g_strstrip (colon + 1)));
    }
  return info;
}

/* Reads the file once (page cache) and touches every page through mmap. */
static void
warm_up (const char *path,
         guint64     size,
         double     *read_seconds,
         double     *mmap_seconds)
{
  g_autofree guint8 *buf = g_malloc (4 * MIB);
  volatile guint64 sum = 0;
  gint64 t0;
  int fd;

  *read_seconds = *mmap_seconds = -1;
  fd = g_open (path, O_RDONLY, 0);
  if (fd < 0)
    return;

  t0 = g_get_monotonic_time ();
  while (read (fd, buf, 4 * MIB) > 0)
    ;
  *read_seconds = (g_get_monotonic_time () - t0) / 1e6;

  if (size > 0)
    {
      void *map;

      t0 = g_get_monotonic_time ();
      map = mmap (NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
      if (map != MAP_FAILED)
        {
          const guint8 *p = map;
          guint64 s = 0;
          long page = sysconf (_SC_PAGESIZE);

          for (guint64 off = 0; off < size; off += page)
            s += p[off];
          sum = s;
          munmap (map, size);
          *mmap_seconds = (g_get_monotonic_time () - t0) / 1e6;
        }
    }
  (void) sum;
  close (fd);
}

/* ------------------------------------------------------------------ */
/* Report                                                              */

static double
median (GArray *values)
{
  g_array_sort (values, tm_bench_compare_doubles);
  if (values->len == 0)
    return -1;
  if (values->len % 2 == 1)
    return g_array_index (values, double, values->len / 2);
  return (g_array_index (values, double, values->len / 2 - 1) +
          g_array_index (values, double, values->len / 2)) / 2;
}

static char *
bytes_text (gint64 bytes)
{
  g_autofree char *human = tm_format_bytes (bytes);

  return g_strdup_printf ("%s (%" G_GINT64_FORMAT " B)", human, bytes);
}

static char *
cpu_model (void)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/cpuinfo", &contents, NULL, NULL))
    return g_strdup ("unknown CPU");
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "model name"))
      {
        const char *colon = strchr (lines[i], ':');

        if (colon != NULL)
          return g_strstrip (g_strdup (colon + 1));
      }
  return g_strdup ("unknown CPU");
}

static double
best_of (GArray *values)
{
  double best = G_MAXDOUBLE;

  for (guint i = 0; i < values->len; i++)
    best = MIN (best, g_array_index (values, double, i));
  return values->len > 0 ? best : -1;
}

/* One run of the floor program on path: its wall time, or -1. */
static double
run_floor (const char *floor_program,
           const char *path)
{
  char *argv[] = { (char *) floor_program, (char *) path, NULL };
  TmBenchChild result;
  double seconds = -1;

  if (tm_bench_run_child (argv, &result) && result.status == 0)
    seconds = result.wall_seconds;
  tm_bench_child_clear (&result);
  return seconds;
}

/* The C++ libprotobuf full parse of path (bench-cxx-parse), or -1. */
static double
run_cxx_parse (const char *cxx_parse,
               const char *path,
               guint64     expected_events,
               gint64     *hwm)
{
  char *argv[] = { (char *) cxx_parse, (char *) path, NULL };
  TmBenchChild result;
  double seconds = -1;

  *hwm = 0;
  if (tm_bench_run_child (argv, &result) && result.status == 0)
    {
      seconds = result.wall_seconds;
      *hwm = result.max_rss;
      if ((guint64) tm_bench_value_int (&result, "memory_events") != expected_events)
        printf ("  MISMATCH: the C++ parse counted %" G_GINT64_FORMAT " memory events\n",
                tm_bench_value_int (&result, "memory_events"));
    }
  else
    printf ("  failed (status %d); the machine may lack the memory\n", result.status);
  tm_bench_child_clear (&result);
  return seconds;
}

static int
run_parent (const char *generator,
            const char *tidemark,
            const char *floor_program,
            const char *cxx_parse,
            const char *dir,
            gint64      size_mib,
            const char *shape,
            guint       runs,
            gboolean    skip_unpack)
{
  g_autoptr(GHashTable) info = NULL;
  g_autofree char *info_text = NULL;
  g_autoptr(GError) ensure_error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *self = NULL;
  g_autofree char *cpu = cpu_model ();
  g_autofree char *size_text = NULL;
  g_autoptr(GArray) floor_times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) load_times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cli_times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cli_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  gint64 load_hwm = 0, load_anon = 0, load_store = 0, load_anon_end = 0;
  gint64 cli_rss = 0, cli_anon = 0;
  guint64 generated_events, read_events = 0;
  double read_s, mmap_s, best_load, best_cli, floor_med, cli_med;
  gboolean large = size_mib >= 4096;
  double target_ratio = large ? 4.5 : 4.0;
  GStatBuf st;
  int failures = 0;

  self = g_file_read_link ("/proc/self/exe", NULL);
  if (self == NULL)
    {
      g_printerr ("bench-open: cannot find my own executable\n");
      return 1;
    }

  path = tm_bench_ensure_shaped_profile (generator, dir, size_mib, shape, &info_text, &ensure_error);
  if (path == NULL)
    {
      g_printerr ("bench-open: generator failed: %s\n", ensure_error->message);
      return 1;
    }
  info = parse_info (info_text);
  if (g_stat (path, &st) != 0)
    {
      g_printerr ("bench-open: %s: %s\n", path, g_strerror (errno));
      return 1;
    }
  generated_events = g_ascii_strtoull (g_hash_table_lookup (info, "memory_events") ?: "0", NULL, 10);
  warm_up (path, st.st_size, &read_s, &mmap_s);

  size_text = bytes_text (st.st_size);
  printf ("\nTidemark open benchmark (docs/performance.md)\n");
  printf ("machine           %s, %ld CPUs\n", cpu, sysconf (_SC_NPROCESSORS_ONLN));
  {
    double load[3];

    if (getloadavg (load, 3) == 3)
      printf ("load average      %.2f %.2f %.2f (at the start)\n", load[0], load[1], load[2]);
  }
  printf ("file              %s\n", path);
  printf ("shape             %s: %s others per memory event, %s stats each; host lines %s; %s device planes, %s device events\n",
          shape != NULL ? shape : "realistic",
          (char *) g_hash_table_lookup (info, "others_per_memory_event") ?: "?",
          (char *) g_hash_table_lookup (info, "stats_per_event") ?: "?",
          (char *) g_hash_table_lookup (info, "host_lines") ?: "?",
          (char *) g_hash_table_lookup (info, "device_planes") ?: "?",
          (char *) g_hash_table_lookup (info, "device_events") ?: "?");
  printf ("size              %s\n", size_text);
  printf ("memory events     %" G_GUINT64_FORMAT " written by the generator (%.2f million per GiB)\n",
         generated_events, generated_events / ((double) st.st_size / (1024.0 * MIB)) / 1e6);
  printf ("read whole file   %.3f s (page cache, %.0f MB/s)\n", read_s, st.st_size / 1e6 / read_s);

  /* Every timed run: the floor, the core's load, the command line, in
   * turns, so that all see the same machine. */
  for (guint r = 0; r < runs; r++)
    {
      char *load_argv[] = { self, (char *) "--child-load", path, NULL };
      char *cli_argv[] = { (char *) tidemark, (char *) "--summary", path, NULL };
      TmBenchChild result;
      double seconds = run_floor (floor_program, path);

      if (seconds < 0)
        {
          g_printerr ("bench-open: the floor program failed on %s\n", path);
          return 1;
        }
      g_array_append_val (floor_times, seconds);

      if (!tm_bench_run_child (load_argv, &result) || result.status != 0)
        {
          g_printerr ("bench-open: loading failed (status %d)\n", result.status);
          tm_bench_child_clear (&result);
          return 1;
        }
      seconds = tm_bench_value_double (&result, "seconds");
      g_array_append_val (load_times, seconds);
      read_events = tm_bench_value_int (&result, "memory_events");
      load_hwm = MAX (load_hwm, tm_bench_value_int (&result, "vm_hwm"));
      load_anon = MAX (load_anon, result.max_anon);
      load_anon_end = MAX (load_anon_end, tm_bench_value_int (&result, "rss_anon_end"));
      load_store = tm_bench_value_int (&result, "store_bytes");
      if (r == 0)
        printf ("memory ids        %" G_GINT64_FORMAT "\n", tm_bench_value_int (&result, "memory_ids"));
      tm_bench_child_clear (&result);

      if (!tm_bench_run_child (cli_argv, &result) || result.status != 0)
        {
          g_printerr ("bench-open: %s --summary failed (status %d)\n", tidemark, result.status);
          tm_bench_child_clear (&result);
          return 1;
        }
      g_array_append_val (cli_times, result.wall_seconds);
      g_array_append_val (cli_cpu, result.cpu_seconds);
      cli_rss = MAX (cli_rss, result.max_rss);
      cli_anon = MAX (cli_anon, result.max_anon);
      if (r == 0)
        {
          g_auto(GStrv) lines = g_strsplit (result.output->str, "\n", -1);
          guint n_lines = g_strv_length (lines);

          printf ("\ntidemark --summary FILE (first run's output):\n");
          for (guint i = 0; i < n_lines && i < 12; i++)
            if (lines[i][0] != '\0')
              printf ("  | %s\n", lines[i]);
          if (n_lines > 12)
            printf ("  | … %u more lines\n", n_lines - 12);
        }
      tm_bench_child_clear (&result);
    }

  floor_med = median (floor_times);
  best_load = best_of (load_times);
  best_cli = best_of (cli_times);
  cli_med = median (cli_times);

  printf ("\nfloor: bench-floor FILE (map it, read every 8-byte word; one thread)\n");
  printf ("  process time    best %.3f s, median %.3f s (runs: %u)\n", best_of (floor_times), floor_med, runs);

  {
    g_autofree char *hwm = bytes_text (load_hwm);
    g_autofree char *anon = bytes_text (load_anon);
    g_autofree char *anon_end = bytes_text (load_anon_end);
    g_autofree char *store = bytes_text (load_store);
    gint64 beyond = MAX (load_hwm - (gint64) st.st_size, load_anon);
    g_autofree char *beyond_text = bytes_text (beyond);
    gint64 budget = 40 * (gint64) read_events + 32 * (gint64) MIB;
    g_autofree char *budget_text = bytes_text (budget);

    printf ("\ntm_profile_load → summary of every memory id (runs: %u, in-process time)\n", runs);
    printf ("  time            best %.3f s, median %.3f s = %.1f × the floor\n",
            best_load, median (load_times), median (load_times) / floor_med);
    printf ("  throughput      %.0f MB/s, %.2f million memory events/s (best run)\n",
           st.st_size / 1e6 / best_load, read_events / best_load / 1e6);
    printf ("  memory events   %" G_GUINT64_FORMAT " read\n", read_events);
    printf ("  peak RSS        %s (VmHWM: mapped file pages count too)\n", hwm);
    printf ("  peak anon RSS   %s (heap, polled every 2 ms); at the end %s\n", anon, anon_end);
    printf ("  stores report   %s (stores and analyses, all ids)\n", store);
    printf ("  beyond the file %s = %.1f bytes per memory event\n",
           beyond_text, read_events > 0 ? (double) beyond / read_events : 0.0);
  }

  if (generated_events != read_events)
    {
      printf ("  MISMATCH: the generator wrote %" G_GUINT64_FORMAT " memory events, the core read %" G_GUINT64_FORMAT "\n",
             generated_events, read_events);
      failures++;
    }

  {
    g_autofree char *rss = bytes_text (cli_rss);
    g_autofree char *anon = bytes_text (cli_anon);
    gint64 budget = 40 * (gint64) read_events + 32 * (gint64) MIB;

    printf ("\ntidemark --summary FILE, process start to exit (runs: %u)\n", runs);
    printf ("  process time    best %.3f s, median %.3f s = %.2f × the floor's median %.3f s\n",
            best_cli, cli_med, cli_med / floor_med, floor_med);
    printf ("  CPU time        median %.3f s (user + system, all threads)\n", median (cli_cpu));
    printf ("  throughput      %.0f MB/s, %.2f million memory events/s (median run)\n",
           st.st_size / 1e6 / cli_med, read_events / cli_med / 1e6);
    printf ("  max RSS         %s; peak anon RSS %s = %.1f bytes per memory event beyond 32 MiB\n",
            rss, anon, read_events > 0 ? (double) (cli_anon - 32 * (gint64) MIB) / read_events : 0.0);
    printf ("  target          ≤ %.1f × the floor: %s; memory ≤ 40 B/event + 32 MiB: %s\n",
            target_ratio, cli_med / floor_med <= target_ratio ? "met" : "MISSED",
            cli_anon <= budget ? "met" : "MISSED");
  }

  /* The C++ full parse. */
  printf ("\nC++ full parse: libprotobuf's XSpace::ParseFromArray of the whole file + the memory walk\n");
  if (cxx_parse == NULL || cxx_parse[0] == '\0')
    printf ("  not built (no libprotobuf C++ at build time); 18–25 s for a realistic 1 GiB profile was measured elsewhere\n");
  else if (skip_unpack)
    printf ("  skipped (TM_BENCH_SKIP_UNPACK)\n");
  else
    {
      gint64 hwm;
      double floor_s = run_floor (floor_program, path);
      double seconds = run_cxx_parse (cxx_parse, path, generated_events, &hwm);

      if (seconds > 0)
        {
          g_autofree char *hwm_text = bytes_text (hwm);

          printf ("  process time    %.3f s = %.1f × the floor (%.3f s in the same minute); peak RSS %s\n",
                  seconds, seconds / floor_s, floor_s, hwm_text);
          printf ("  versus Tidemark --summary: %.0f × faster (target ≥ 40 ×): %s\n",
                  seconds / cli_med, seconds / cli_med >= 40 ? "met" : "MISSED");
        }
    }

  /* protobuf-c baseline. */
  if (skip_unpack)
    {
      printf ("\nprotobuf-c baseline skipped (TM_BENCH_SKIP_UNPACK)\n");
    }
  else
    {
      char *argv[] = { self, (char *) "--child-unpack", path, NULL };
      TmBenchChild result;

      printf ("\nprotobuf-c baseline: read the whole file + tensorflow__profiler__xspace__unpack\n");
      if (!tm_bench_run_child (argv, &result) || result.status != 0)
        {
          printf ("  failed (status %d); the machine may lack the memory\n", result.status);
        }
      else
        {
          double total = tm_bench_value_double (&result, "read_seconds") + tm_bench_value_double (&result, "unpack_seconds") +
                         tm_bench_value_double (&result, "walk_seconds");
          gint64 hwm = tm_bench_value_int (&result, "vm_hwm");
          g_autofree char *hwm_text = bytes_text (hwm);
          gint64 events = tm_bench_value_int (&result, "memory_events");

          printf ("  read            %.3f s\n", tm_bench_value_double (&result, "read_seconds"));
          printf ("  unpack          %.3f s\n", tm_bench_value_double (&result, "unpack_seconds"));
          printf ("  memory walk     %.3f s (%" G_GINT64_FORMAT " memory events)\n",
                 tm_bench_value_double (&result, "walk_seconds"), events);
          printf ("  total           %.3f s, %.0f MB/s, %.2f million memory events/s\n",
                 total, st.st_size / 1e6 / total, events / total / 1e6);
          printf ("  peak RSS        %s = %.0f bytes per memory event beyond the file\n",
                 hwm_text, events > 0 ? (double) (hwm - st.st_size) / events : 0.0);
          printf ("  versus Tidemark %.0f× the time (--summary, median), %.0f× the memory beyond the file\n",
                 total / cli_med,
                 (double) (hwm - st.st_size) / MAX (load_hwm - (gint64) st.st_size, load_anon));
          if ((guint64) events != generated_events)
            {
              printf ("  MISMATCH: protobuf-c counted %" G_GINT64_FORMAT " memory events, the generator wrote %" G_GUINT64_FORMAT "\n",
                     events, generated_events);
              failures++;
            }
        }
      tm_bench_child_clear (&result);
    }

  return failures > 0 ? 1 : 0;
}

/* --growth: `tidemark --summary` and the floor on one generated profile
 * per size, a line each: time and memory per memory event, to show that
 * both grow linearly (docs/performance.md). */
static int
run_growth (const char *generator,
            const char *tidemark,
            const char *floor_program,
            const char *dir,
            const char *sizes,
            const char *shape,
            guint       runs)
{
  g_auto(GStrv) list = g_strsplit (sizes, ",", -1);
  g_autofree char *cpu = cpu_model ();
  double load[3] = { -1, -1, -1 };
  int failures = 0;

  getloadavg (load, 3);
  printf ("\nTidemark growth benchmark: tidemark --summary FILE, process start to exit; the floor: bench-floor FILE\n");
  printf ("machine %s, %ld CPUs, load average %.2f at the start; shape %s; %u runs per size; memory is the peak RssAnon\n",
          cpu, sysconf (_SC_NPROCESSORS_ONLN), load[0], shape != NULL ? shape : "realistic", runs);
  printf ("%10s %11s %8s %9s %8s %7s %7s %14s %8s %12s %9s\n",
          "size MiB", "mem events", "best s", "median s", "floor s", "×floor", "CPU s", "peak anon MiB", "B/event",
          "B/ev >32MiB", "ns/event");

  for (guint k = 0; list[k] != NULL; k++)
    {
      gint64 size_mib = g_ascii_strtoll (list[k], NULL, 10);
      g_autoptr(GHashTable) info = NULL;
      g_autofree char *info_text = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *path = NULL;
      g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) floors = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) cpus = g_array_new (FALSE, FALSE, sizeof (double));
      double read_s, mmap_s, best = G_MAXDOUBLE;
      gint64 anon = 0;
      guint64 events;
      GStatBuf st;

      if (size_mib <= 0)
        {
          g_printerr ("bench-open: --growth: \"%s\" is not a size in MiB\n", list[k]);
          return 1;
        }
      path = tm_bench_ensure_shaped_profile (generator, dir, size_mib, shape, &info_text, &error);
      if (path == NULL || g_stat (path, &st) != 0)
        {
          g_printerr ("bench-open: generator failed: %s\n", error != NULL ? error->message : g_strerror (errno));
          return 1;
        }
      info = parse_info (info_text);
      events = g_ascii_strtoull (g_hash_table_lookup (info, "memory_events") ?: "0", NULL, 10);
      warm_up (path, st.st_size, &read_s, &mmap_s);

      for (guint r = 0; r < runs; r++)
        {
          char *argv[] = { (char *) tidemark, (char *) "--summary", path, NULL };
          TmBenchChild result;
          double floor_s = run_floor (floor_program, path);

          g_array_append_val (floors, floor_s);
          if (!tm_bench_run_child (argv, &result) || result.status != 0)
            {
              g_printerr ("bench-open: %s --summary %s failed (status %d)\n", tidemark, path, result.status);
              tm_bench_child_clear (&result);
              failures++;
              break;
            }
          g_array_append_val (times, result.wall_seconds);
          g_array_append_val (cpus, result.cpu_seconds);
          best = MIN (best, result.wall_seconds);
          anon = MAX (anon, result.max_anon);
          tm_bench_child_clear (&result);
        }
      if (times->len == 0)
        continue;

      {
        double med = median (times), floor_med = median (floors);

        printf ("%10.1f %11" G_GUINT64_FORMAT " %8.3f %9.3f %8.3f %7.2f %7.3f %14.1f %8.1f %12.1f %9.1f\n",
                st.st_size / (double) MIB, events, best, med, floor_med, med / floor_med, median (cpus),
                anon / (double) MIB, events > 0 ? (double) anon / events : 0.0,
                events > 0 ? (double) MAX (anon - 32 * (gint64) MIB, 0) / events : 0.0,
                events > 0 ? med / events * 1e9 : 0.0);
      }
    }

  printf ("targets: 1 GiB ≤ 4 × the floor, 4.5 GiB ≤ 4.5 ×; ≤ 40 bytes per memory event + 32 MiB\n");
  return failures > 0 ? 1 : 0;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *generator = NULL;
  g_autofree char *tidemark = NULL;
  g_autofree char *floor_program = NULL;
  g_autofree char *cxx_parse = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *growth = NULL;
  g_autofree char *shape = NULL;
  gint64 size_mib = 0;
  const GOptionEntry entries[] = {
    { "generator", 0, 0, G_OPTION_ARG_FILENAME, &generator, "The gen-large-profile executable", "PATH" },
    { "tidemark", 0, 0, G_OPTION_ARG_FILENAME, &tidemark, "The tidemark executable", "PATH" },
    { "floor", 0, 0, G_OPTION_ARG_FILENAME, &floor_program, "The bench-floor executable", "PATH" },
    { "cxx-parse", 0, 0, G_OPTION_ARG_FILENAME, &cxx_parse, "The bench-cxx-parse executable, if built", "PATH" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "Where generated profiles are kept", "DIR" },
    { "size-mib", 0, 0, G_OPTION_ARG_INT64, &size_mib, "Profile size (default $TM_BENCH_SIZE_MIB or 1024)", "N" },
    { "shape", 0, 0, G_OPTION_ARG_STRING, &shape, "realistic, two-others or dense (default $TM_BENCH_SHAPE or realistic)", "S" },
    { "growth", 0, 0, G_OPTION_ARG_STRING, &growth, "Only tidemark --summary, at each of these sizes (e.g. 64,256,1024,4608)", "MIB,…" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  const char *env;
  guint runs = 5;

  if (argc == 3 && strcmp (argv[1], "--child-load") == 0)
    return child_load (argv[2]);
  if (argc == 3 && strcmp (argv[1], "--child-unpack") == 0)
    return child_unpack (argv[2]);

  context = g_option_context_new ("- time opening a large generated profile");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-open: %s\n", error->message);
      return 2;
    }
  if (generator == NULL || tidemark == NULL || floor_program == NULL || dir == NULL)
    {
      g_printerr ("bench-open: --generator, --tidemark, --floor and --dir are needed\n");
      return 2;
    }

  env = g_getenv ("TM_BENCH_SIZE_MIB");
  if (size_mib <= 0)
    size_mib = env != NULL ? g_ascii_strtoll (env, NULL, 10) : 1024;
  if (size_mib <= 0)
    {
      g_printerr ("bench-open: TM_BENCH_SIZE_MIB must be a positive number of MiB\n");
      return 2;
    }
  if (shape == NULL && g_getenv ("TM_BENCH_SHAPE") != NULL)
    shape = g_strdup (g_getenv ("TM_BENCH_SHAPE"));
  if (tm_bench_shape_args (shape) == NULL)
    {
      g_printerr ("bench-open: unknown shape \"%s\" (realistic, two-others or dense)\n", shape);
      return 2;
    }
  env = g_getenv ("TM_BENCH_RUNS");
  if (env != NULL)
    runs = CLAMP (g_ascii_strtoull (env, NULL, 10), 1, 100);

  if (growth != NULL)
    return run_growth (generator, tidemark, floor_program, dir, growth, shape, runs);
  return run_parent (generator, tidemark, floor_program, cxx_parse, dir, size_mib, shape, runs,
                     g_strcmp0 (g_getenv ("TM_BENCH_SKIP_UNPACK"), "1") == 0);
}
