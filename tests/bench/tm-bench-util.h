/* tm-bench-util.h — helpers shared by the benchmarks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

/* For g_array_sort() of doubles. */
static inline int
tm_bench_compare_doubles (gconstpointer a,
                          gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static inline gint64
tm_bench_file_mtime (const char *path)
{
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    return -1;
  return st.st_mtime;
}

/* The generator's shapes the benchmarks use (docs/performance.md, "The
 * generator"): NULL or "realistic" is its defaults, shaped like the real
 * GPU profile (5 other host events per memory event, 4 device planes);
 * "two-others" has 2 other events of 2 stats each per memory event, about
 * 4.2 million memory events per GiB; "dense" is the earlier generator's
 * shape: 4 100 memory events per MiB and few other events. */
static inline const char *const *
tm_bench_shape_args (const char *shape)
{
  static const char *const realistic[] = { NULL };
  static const char *const two_others[] = { "--others-per-memory-event", "2", "--stats-per-event", "2", NULL };
  static const char *const dense[] = { "--others-per-memory-event", "0.27", "--stats-per-event", "3",
                                       "--memory-events-per-mib", "4100", NULL };

  if (shape == NULL || g_strcmp0 (shape, "realistic") == 0)
    return realistic;
  if (g_strcmp0 (shape, "two-others") == 0)
    return two_others;
  if (g_strcmp0 (shape, "dense") == 0)
    return dense;
  return NULL;
}

/* Ensures DIR/bench-<N>mib[-SHAPE].xplane.pb (SHAPE as for
 * tm_bench_shape_args(); none for the realistic one) and its .info (what
 * the generator printed) exist and are newer than the generator, running
 * it otherwise; the benchmarks share these files. Returns the profile's
 * path, and in info_text (if not NULL) the .info's text. */
static inline char *
tm_bench_ensure_shaped_profile (const char  *generator,
                                const char  *dir,
                                gint64       size_mib,
                                const char  *shape,
                                char       **info_text,
                                GError     **error)
{
  const char *const *shape_args = tm_bench_shape_args (shape);
  gboolean named = shape != NULL && g_strcmp0 (shape, "realistic") != 0;
  g_autofree char *path = g_strdup_printf ("%s/bench-%" G_GINT64_FORMAT "mib%s%s.xplane.pb", dir, size_mib,
                                           named ? "-" : "", named ? shape : "");
  g_autofree char *info_path = g_strconcat (path, ".info", NULL);
  g_autofree char *text = NULL;
  gint64 generator_time = tm_bench_file_mtime (generator);

  if (shape_args == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "unknown shape \"%s\" (realistic, two-others or dense)", shape);
      return NULL;
    }

  if (tm_bench_file_mtime (path) < generator_time || tm_bench_file_mtime (info_path) < generator_time ||
      !g_file_get_contents (info_path, &text, NULL, NULL))
    {
      g_autofree char *size_arg = g_strdup_printf ("%" G_GINT64_FORMAT, size_mib);
      g_autoptr(GPtrArray) argv = g_ptr_array_new ();
      int wait_status = 0;
      gint64 start = g_get_monotonic_time ();

      g_ptr_array_add (argv, (char *) generator);
      g_ptr_array_add (argv, (char *) "--size-mib");
      g_ptr_array_add (argv, size_arg);
      for (guint i = 0; shape_args[i] != NULL; i++)
        g_ptr_array_add (argv, (char *) shape_args[i]);
      g_ptr_array_add (argv, path);
      g_ptr_array_add (argv, NULL);

      g_clear_pointer (&text, g_free);
      printf ("Generating %s (%" G_GINT64_FORMAT " MiB, shape %s)…\n", path, size_mib,
              shape != NULL ? shape : "realistic");
      fflush (stdout);
      if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                         &text, NULL, &wait_status, error) ||
          !g_spawn_check_wait_status (wait_status, error) ||
          !g_file_set_contents (info_path, text, -1, error))
        return NULL;
      printf ("  generated in %.1f s\n", (g_get_monotonic_time () - start) / 1e6);
    }
  else
    printf ("Reusing %s\n", path);

  if (info_text != NULL)
    *info_text = g_steal_pointer (&text);
  return g_steal_pointer (&path);
}

/* A "Name:   123 kB" field of /proc/<pid>/status in bytes, or -1. */
static inline gint64
tm_bench_status_field (const char *status_path,
                       const char *name)
{
  g_autofree char *contents = NULL;
  gsize name_len = strlen (name);

  if (!g_file_get_contents (status_path, &contents, NULL, NULL))
    return -1;

  for (const char *line = contents; line != NULL && *line != '\0';)
    {
      const char *next = strchr (line, '\n');

      if (strncmp (line, name, name_len) == 0 && line[name_len] == ':')
        return g_ascii_strtoll (line + name_len + 1, NULL, 10) * 1024;
      line = next != NULL ? next + 1 : NULL;
    }

  return -1;
}


/* ------------------------------------------------------------------ */
/* Running children                                                    */

typedef struct
{
  int         status;         /* exit status, or -1 if killed */
  double      wall_seconds;   /* fork to exit */
  double      cpu_seconds;    /* user + system, getrusage */
  gint64      max_rss;        /* getrusage ru_maxrss, bytes */
  gint64      max_anon;       /* largest RssAnon seen while polling, bytes */
  GHashTable *values;         /* key=value lines of its stdout */
  GString    *output;
} TmBenchChild;

static inline void
tm_bench_child_clear (TmBenchChild *result)
{
  g_clear_pointer (&result->values, g_hash_table_unref);
  if (result->output != NULL)
    g_string_free (result->output, TRUE);
  result->output = NULL;
}

static inline void
tm_bench_parse_values (TmBenchChild *result)
{
  g_auto(GStrv) lines = g_strsplit (result->output->str, "\n", -1);

  result->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *eq = strchr (lines[i], '=');

      if (eq != NULL)
        g_hash_table_insert (result->values, g_strndup (lines[i], eq - lines[i]), g_strdup (eq + 1));
    }
}

static inline double
tm_bench_value_double (const TmBenchChild *result,
                       const char        *key)
{
  const char *v = g_hash_table_lookup (result->values, key);

  return v != NULL ? g_ascii_strtod (v, NULL) : -1;
}

static inline gint64
tm_bench_value_int (const TmBenchChild *result,
                    const char        *key)
{
  const char *v = g_hash_table_lookup (result->values, key);

  return v != NULL ? g_ascii_strtoll (v, NULL, 10) : -1;
}

/* Runs argv, capturing stdout, polling its RssAnon every 2 ms. */
static inline gboolean
tm_bench_run_child (char *const  *argv,
                    TmBenchChild  *result)
{
  g_autofree char *status_path = NULL;
  int fds[2];
  pid_t pid;
  gint64 start;
  gboolean exited = FALSE;
  struct rusage usage;
  int wstatus = 0;

  memset (result, 0, sizeof *result);
  result->output = g_string_new (NULL);

  if (pipe (fds) != 0)
    {
      g_printerr ("bench: pipe: %s\n", g_strerror (errno));
      return FALSE;
    }

  fflush (stdout);
  fflush (stderr);
  start = g_get_monotonic_time ();
  pid = fork ();
  if (pid < 0)
    {
      g_printerr ("bench: fork: %s\n", g_strerror (errno));
      return FALSE;
    }
  if (pid == 0)
    {
      dup2 (fds[1], STDOUT_FILENO);
      close (fds[0]);
      close (fds[1]);
      execv (argv[0], argv);
      fprintf (stderr, "bench: cannot run %s: %s\n", argv[0], strerror (errno));
      _exit (127);
    }

  close (fds[1]);
  status_path = g_strdup_printf ("/proc/%d/status", (int) pid);

  while (!exited)
    {
      struct pollfd pfd = { fds[0], POLLIN, 0 };
      gint64 anon;
      pid_t r;

      if (poll (&pfd, 1, 2) > 0)
        {
          char buf[4096];
          gssize n = read (fds[0], buf, sizeof buf);

          if (n > 0)
            g_string_append_len (result->output, buf, n);
        }

      anon = tm_bench_status_field (status_path, "RssAnon");
      result->max_anon = MAX (result->max_anon, anon);

      r = wait4 (pid, &wstatus, WNOHANG, &usage);
      if (r == pid)
        exited = TRUE;
      else if (r < 0 && errno != EINTR)
        {
          g_printerr ("bench: wait: %s\n", g_strerror (errno));
          return FALSE;
        }
    }
  result->wall_seconds = (g_get_monotonic_time () - start) / 1e6;

  for (;;)
    {
      char buf[4096];
      gssize n = read (fds[0], buf, sizeof buf);

      if (n > 0)
        g_string_append_len (result->output, buf, n);
      else if (n == 0 || errno != EINTR)
        break;
    }
  close (fds[0]);

  result->status = WIFEXITED (wstatus) ? WEXITSTATUS (wstatus) : -1;
  result->max_rss = (gint64) usage.ru_maxrss * 1024;
  result->cpu_seconds = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 +
                        usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
  tm_bench_parse_values (result);

  return TRUE;
}

/* The same, in the generator's default (realistic) shape. */
static inline char *
tm_bench_ensure_profile (const char  *generator,
                         const char  *dir,
                         gint64       size_mib,
                         char       **info_text,
                         GError     **error)
{
  return tm_bench_ensure_shaped_profile (generator, dir, size_mib, NULL, info_text, error);
}
