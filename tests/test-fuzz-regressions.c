/* test-fuzz-regressions.c — every input the fuzzers ever broke on
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each file of tests/fuzz-regressions/ goes through what every fuzz target
 * does with it (fuzz/tm-fuzz.c), whichever target found it: load, and
 * either a failure with a message, or the whole analysis, every export, and
 * the XProf JSON export read back with the same figures (fuzz-xspace,
 * fuzz-xprof-json, fuzz-json-round-trip); the memory-only round trip
 * (fuzz-memory-only-round-trip); the summaries reader (fuzz-summaries);
 * one reading thread against two, and two with a line cut
 * (fuzz-two-threads); the input as an HloProto and its Memory Viewer
 * (fuzz-hlo); the pickle reader and PyTorch snapshots (fuzz-pickle).
 * A crash, a sanitizer report or a failed check fails the test. The files
 * are named after the target and what they broke
 * (tests/fuzz-regressions/README).
 */
#include "config.h"

#include <string.h>

#include "tm-fuzz.h"

static void
test_file (gconstpointer data)
{
  const char *path = data;
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gsize size;

  g_assert_true (g_file_get_contents (path, &contents, &size, &error));
  g_assert_no_error (error);
  tm_fuzz_json_round_trip ((const uint8_t *) contents, size);
  tm_fuzz_memory_only_round_trip ((const uint8_t *) contents, size);
  tm_fuzz_summaries ((const uint8_t *) contents, size);
  tm_fuzz_two_threads ((const uint8_t *) contents, size);
  tm_fuzz_hlo ((const uint8_t *) contents, size);
  tm_fuzz_pickle ((const uint8_t *) contents, size);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir_path = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  g_test_init (&argc, &argv, NULL);

  dir_path = g_test_build_filename (G_TEST_DIST, "fuzz-regressions", NULL);
  dir = g_dir_open (dir_path, 0, NULL);
  g_assert_nonnull (dir);
  for (const char *name; (name = g_dir_read_name (dir)) != NULL;)
    if (name[0] != '.' && strcmp (name, "README") != 0)
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *test = g_strconcat ("/fuzz-regressions/", name, NULL);

      g_test_add_data_func_full (test, g_build_filename (dir_path, name, NULL), test_file, g_free);
    }

  return g_test_run ();
}
