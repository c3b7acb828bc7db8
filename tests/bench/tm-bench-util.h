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

/* Ensures DIR/bench-<N>mib.xplane.pb and its .info (what the generator
 * printed) exist and are newer than the generator, running it otherwise;
 * the benchmarks share these files. Returns the profile's path, and in
 * info_text (if not NULL) the .info's text. */
static inline char *
tm_bench_ensure_profile (const char  *generator,
                         const char  *dir,
                         gint64       size_mib,
                         char       **info_text,
                         GError     **error)
{
  g_autofree char *path = g_strdup_printf ("%s/bench-%" G_GINT64_FORMAT "mib.xplane.pb", dir, size_mib);
  g_autofree char *info_path = g_strconcat (path, ".info", NULL);
  g_autofree char *text = NULL;
  gint64 generator_time = tm_bench_file_mtime (generator);

  if (tm_bench_file_mtime (path) < generator_time || tm_bench_file_mtime (info_path) < generator_time ||
      !g_file_get_contents (info_path, &text, NULL, NULL))
    {
      g_autofree char *size_arg = g_strdup_printf ("%" G_GINT64_FORMAT, size_mib);
      const char *argv[] = { generator, "--size-mib", size_arg, path, NULL };
      int wait_status = 0;
      gint64 start = g_get_monotonic_time ();

      g_clear_pointer (&text, g_free);
      printf ("Generating %s (%" G_GINT64_FORMAT " MiB)…\n", path, size_mib);
      fflush (stdout);
      if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
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
