/* tm-bench-util.h — helpers shared by the benchmarks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>
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
