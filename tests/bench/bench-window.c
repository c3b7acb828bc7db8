/* bench-window.c — launch to the first frame with the data, and memory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-window --tidemark TIDEMARK [--app APP] [--runs R] PROFILE
 *
 * Needs a display (run it under Xvfb, e.g. tests/xvfb-run-test.sh). Each
 * run starts `APP PROFILE`, APP being tidemark-bench-app (built beside
 * this benchmark; the application plus two hooks): the window prints the
 * monotonic clock when the first frame after the profile is shown has
 * been painted (summary cards, timeline and table with their data), and
 * again when the first frame with the memory map (the shown memory id's
 * allocation index, built after the first frame) has been painted. The
 * window is then left running until its memory has not grown for 2 s and
 * ended. Prints, per run, the time from the launch to those two frames,
 * the peak anonymous memory (RssAnon, polled every 2 ms) up to the first
 * and in all; then the same peak for `TIDEMARK --summary PROFILE` and the
 * ratio of the two, and bytes per memory event beyond 32 MiB
 * (docs/performance.md). Before each run of the window it runs the floor
 * (bench-floor: map the file, read every word) and gives the times to the
 * two frames as multiples of the floor's median too. A PyTorch snapshot
 * has targets of its own: the window with every event drawn in 4 s for
 * 1 GB.
 * Timing never makes it fail; it fails only if something does not work.
 */

#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <gio/gio.h>

#include "tm-memory-store.h"
#include "tm-profile.h"

#define MIB (1024.0 * 1024.0)

typedef struct
{
  gint64   start_us;
  gint64   shown_us;      /* the clock the window printed, or 0 */
  gint64   indexed_us;    /* the same for the first frame with the memory map, or 0 */
  gint64   anon_shown;    /* peak RssAnon up to the first frame, bytes */
  gint64   anon_peak;     /* peak RssAnon until exit, bytes */
  gint64   end_us;        /* when it exited */
  int      status;
} Run;

static gint64
rss_anon (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", (int) pid);
  g_autofree char *contents = NULL;
  const char *line;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return -1;
  line = strstr (contents, "\nRssAnon:");
  return line != NULL ? g_ascii_strtoll (line + 9, NULL, 10) * 1024 : -1;
}

static gboolean
run_once (char *const *argv,
          gboolean     window,
          Run         *run)
{
  g_autoptr(GString) output = g_string_new (NULL);
  int fds[2];
  pid_t pid;
  int wstatus = 0;
  gboolean exited = FALSE;
  gint64 grown_us = 0;

  memset (run, 0, sizeof *run);
  if (pipe (fds) != 0)
    {
      g_printerr ("bench-window: pipe: %s\n", g_strerror (errno));
      return FALSE;
    }

  fflush (stdout);
  run->start_us = g_get_monotonic_time ();
  pid = fork ();
  if (pid < 0)
    {
      g_printerr ("bench-window: fork: %s\n", g_strerror (errno));
      return FALSE;
    }
  if (pid == 0)
    {
      dup2 (fds[1], STDOUT_FILENO);
      close (fds[0]);
      close (fds[1]);
      if (window)
        {
          g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
        }
      execv (argv[0], argv);
      _exit (127);
    }
  close (fds[1]);

  while (!exited)
    {
      struct pollfd pfd = { fds[0], POLLIN, 0 };
      gint64 anon;

      if (poll (&pfd, 1, 2) > 0)
        {
          char buf[4096];
          gssize n = read (fds[0], buf, sizeof buf);
          const char *line;

          if (n > 0)
            g_string_append_len (output, buf, n);
          line = strstr (output->str, "tidemark-bench shown-us=");
          if (run->shown_us == 0 && line != NULL && strchr (line, '\n') != NULL)
            {
              run->shown_us = g_ascii_strtoll (line + strlen ("tidemark-bench shown-us="), NULL, 10);
              run->anon_shown = run->anon_peak;
            }
          line = strstr (output->str, "tidemark-bench indexed-us=");
          if (run->indexed_us == 0 && line != NULL && strchr (line, '\n') != NULL)
            run->indexed_us = g_ascii_strtoll (line + strlen ("tidemark-bench indexed-us="), NULL, 10);
        }
      anon = rss_anon (pid);
      if (anon > run->anon_peak)
        grown_us = g_get_monotonic_time ();
      run->anon_peak = MAX (run->anon_peak, anon);
      if (window && run->shown_us != 0 && g_get_monotonic_time () - grown_us > 2 * G_USEC_PER_SEC)
        {
          kill (pid, SIGTERM);
          waitpid (pid, &wstatus, 0);
          close (fds[0]);
          return TRUE;
        }
      if (waitpid (pid, &wstatus, WNOHANG) == pid)
        exited = TRUE;
    }
  run->end_us = g_get_monotonic_time ();
  close (fds[0]);
  run->status = WIFEXITED (wstatus) ? WEXITSTATUS (wstatus) : -1;
  if (window && run->shown_us == 0)
    {
      g_printerr ("bench-window: the window never reported its first frame (status %d)\n", run->status);
      return FALSE;
    }
  return run->status == 0;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *tidemark = NULL;
  g_autofree char *app = g_strdup (BENCH_WINDOW_APP);
  g_autofree char *floor_program = g_strdup (BENCH_FLOOR);
  g_auto(GStrv) files = NULL;
  int runs = 5;
  GOptionEntry entries[] = {
    { "tidemark", 0, 0, G_OPTION_ARG_FILENAME, &tidemark, "The tidemark executable (for --summary)", "PATH" },
    { "app", 0, 0, G_OPTION_ARG_FILENAME, &app, "The application with the frame hooks (default: tidemark-bench-app of this build)", "PATH" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Timed runs (default 5)", "R" },
    { "floor", 0, 0, G_OPTION_ARG_FILENAME, &floor_program, "The floor program (default: bench-floor of this build)", "PATH" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "PROFILE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("PROFILE - time the window up to its first frame with data");
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) map_times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) floor_times = g_array_new (FALSE, FALSE, sizeof (double));
  double floor_med, load[3] = { -1, -1, -1 };
  guint64 events = 0;
  gint64 window_anon = 0, window_anon_shown = 0, cli_anon = 0;
  double budget;
  gboolean snapshot;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || tidemark == NULL ||
      files == NULL || files[0] == NULL)
    {
      g_printerr ("bench-window: %s\n", error != NULL ? error->message : "--tidemark and a PROFILE are needed");
      return 2;
    }

  /* Memory events, counted in this process before any run. */
  file = g_file_new_for_commandline_arg (files[0]);
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  if (profile == NULL)
    {
      g_printerr ("bench-window: %s\n", error->message);
      return 1;
    }
  for (guint i = 0; i < tm_profile_get_n_memory_ids (profile); i++)
    events += tm_memory_store_get_n_snapshots (tm_profile_get_memory_store (profile, i));
  snapshot = tm_profile_get_format (profile) == TM_INPUT_FORMAT_TORCH_SNAPSHOT;
  g_clear_object (&profile);

  printf ("Tidemark window benchmark (docs/performance.md)\n");
  printf ("file              %s\n", files[0]);
  printf ("memory events     %" G_GUINT64_FORMAT "\n", events);
  printf ("processors        %u\n", g_get_num_processors ());
  if (getloadavg (load, 3) == 3)
    printf ("load average      %.2f %.2f %.2f (at the start)\n", load[0], load[1], load[2]);

  for (int r = 0; r < runs; r++)
    {
      char *window_argv[] = { app, files[0], NULL };
      char *floor_argv[] = { floor_program, files[0], NULL };
      Run run;
      double seconds;

      if (!run_once (floor_argv, FALSE, &run))
        {
          g_printerr ("bench-window: the floor program failed\n");
          return 1;
        }
      seconds = (run.end_us - run.start_us) / 1e6;
      g_array_append_val (floor_times, seconds);

      if (!run_once (window_argv, TRUE, &run))
        return 1;
      seconds = (run.shown_us - run.start_us) / 1e6;
      g_array_append_val (times, seconds);
      window_anon = MAX (window_anon, run.anon_peak);
      window_anon_shown = MAX (window_anon_shown, run.anon_shown);
      printf ("  run %d: launch → first frame with data %.3f s", r + 1, seconds);
      if (run.indexed_us != 0)
        {
          double map_seconds = (run.indexed_us - run.start_us) / 1e6;

          g_array_append_val (map_times, map_seconds);
          printf (", with the memory map %.3f s", map_seconds);
        }
      printf ("; peak anon %.1f MiB at the first frame, %.1f MiB in all\n",
              run.anon_shown / MIB, run.anon_peak / MIB);
    }

  for (int r = 0; r < MAX (runs / 2, 1); r++)
    {
      char *cli_argv[] = { tidemark, (char *) "--summary", files[0], NULL };
      Run run;

      if (!run_once (cli_argv, FALSE, &run))
        {
          g_printerr ("bench-window: tidemark --summary failed\n");
          return 1;
        }
      cli_anon = MAX (cli_anon, run.anon_peak);
    }

  g_array_sort (times, compare_double);
  g_array_sort (map_times, compare_double);
  g_array_sort (floor_times, compare_double);
  floor_med = g_array_index (floor_times, double, floor_times->len / 2);
  budget = 40.0 * (double) events + 32 * MIB;
  printf ("floor             best %.3f s, median %.3f s (bench-floor: map the file, read every word)\n",
          g_array_index (floor_times, double, 0), floor_med);
  if (snapshot)
    {
      /* A snapshot's targets are its own (docs/performance.md): 4 s for
       * 1 GiB, no budget per event. */
      printf ("window            best %.3f s, median %.3f s = %.2f × the floor (target ≤ 4 s for 1 GiB: %s)\n",
              g_array_index (times, double, 0), g_array_index (times, double, times->len / 2),
              g_array_index (times, double, times->len / 2) / floor_med,
              g_array_index (times, double, times->len / 2) <= 4.0 ? "met" : "MISSED");
      if (map_times->len > 0)
        printf ("  with the memory map  best %.3f s, median %.3f s\n",
                g_array_index (map_times, double, 0), g_array_index (map_times, double, map_times->len / 2));
      printf ("memory, command line  peak anon %.1f MiB\n", cli_anon / MIB);
      printf ("memory, window        peak anon %.1f MiB (%.1f MiB at the first frame) = %.2f × the command line's\n",
              window_anon / MIB, window_anon_shown / MIB, cli_anon > 0 ? (double) window_anon / cli_anon : 0.0);
      return 0;
    }
  printf ("window            best %.3f s, median %.3f s = %.2f × the floor (target ≤ 6 ×: %s)\n",
          g_array_index (times, double, 0), g_array_index (times, double, times->len / 2),
          g_array_index (times, double, times->len / 2) / floor_med,
          g_array_index (times, double, times->len / 2) <= 6 * floor_med ? "met" : "MISSED");
  if (map_times->len > 0)
    printf ("  with the memory map  best %.3f s, median %.3f s = %.2f × the floor (target ≤ 9 ×: %s)\n",
            g_array_index (map_times, double, 0), g_array_index (map_times, double, map_times->len / 2),
            g_array_index (map_times, double, map_times->len / 2) / floor_med,
            g_array_index (map_times, double, map_times->len / 2) <= 9 * floor_med ? "met" : "MISSED");
  printf ("memory, command line  peak anon %.1f MiB = %.1f bytes per event + 32 MiB (target ≤ 40: %s)\n",
          cli_anon / MIB, events > 0 ? (cli_anon - 32 * MIB) / (double) events : 0.0,
          cli_anon <= budget ? "met" : "MISSED");
  printf ("memory, window        peak anon %.1f MiB (%.1f MiB at the first frame) = %.2f × the command line's "
          "(target ≤ 1.3: %s)\n",
          window_anon / MIB, window_anon_shown / MIB, cli_anon > 0 ? (double) window_anon / cli_anon : 0.0,
          window_anon <= 1.3 * cli_anon ? "met" : "MISSED");
  return 0;
}
