/* test-output.c — outputs replaced only when complete: a full disk, a failed
 * write, pipes and devices as streams
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tm-export.h"
#include "tm-output.h"
#include "tm-output-private.h"
#include "tm-test-util.h"

#define OLD_CONTENTS "the old file, which must stay whole\n"

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* The names in dir, sorted, joined by spaces. */
static char *
list_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

static void
assert_contents (const char *path,
                 const char *expected)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (contents, ==, expected);
}

static void
test_replace (void)
{
  g_autofree char *dir = tm_fixture_make_temp_dir (NULL);
  g_autofree char *path = g_build_filename (dir, "out.txt", NULL);
  g_autofree char *link = g_build_filename (dir, "link.txt", NULL);
  g_autoptr(TmOutput) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *names = NULL;
  struct stat st;

  g_assert_true (g_file_set_contents (path, OLD_CONTENTS, -1, NULL));
  g_assert_cmpint (chmod (path, 0640), ==, 0);
  g_assert_cmpint (symlink ("out.txt", link), ==, 0);

  /* Through the link: the file it points to is replaced, the link stays. */
  out = tm_output_open (link, &error);
  g_assert_no_error (error);
  g_assert_false (tm_output_is_stream (out));
  g_assert_true (g_output_stream_write_all (tm_output_get_stream (out), "new\n", 4, NULL, NULL, &error));
  /* Until committed, the old file is whole. */
  assert_contents (path, OLD_CONTENTS);
  g_assert_true (tm_output_finish (out, TRUE, &error));
  g_assert_no_error (error);

  assert_contents (path, "new\n");
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  g_assert_cmpint (stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0640);
  names = list_dir (dir);
  g_assert_cmpstr (names, ==, "link.txt out.txt");

  g_unlink (link);
  tm_fixture_remove (path);
}

/* A write fails half way (ENOSPC injected): the old file stays, no
 * temporary file is left, and the message says so. */
static void
test_injected_no_space (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(TmProfile) profile = NULL;
  g_autofree char *dir = tm_fixture_make_temp_dir (NULL);
  g_autofree char *path = g_build_filename (dir, "out.json", NULL);
  g_autofree char *fresh = g_build_filename (dir, "fresh.json", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *names = NULL;
  g_autoptr(GError) error = NULL;

  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, OLD_CONTENTS, -1, NULL));

  for (guint round = 0; round < 2; round++)
    {
      const char *target = round == 0 ? path : fresh;
      g_autoptr(TmOutput) out = tm_output_open (target, &error);
      gboolean ok;

      g_assert_no_error (error);
      tm_output_inject_failure (out, 100, ENOSPC);
      ok = tm_export_xprof_json (profile, tm_output_get_stream (out), NULL, &error);
      g_assert_false (ok);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
      g_assert_false (tm_output_finish (out, ok, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
      expected = g_strdup_printf ("no space left on device: nothing was written to %s", target);
      g_assert_cmpstr (error->message, ==, expected);
      g_clear_pointer (&expected, g_free);
      g_clear_error (&error);
    }

  /* The old file is whole, the new one was never made, nothing else is there. */
  assert_contents (path, OLD_CONTENTS);
  names = list_dir (dir);
  g_assert_cmpstr (names, ==, "out.json");

  /* Freed without finishing: the same. */
  {
    g_autoptr(TmOutput) out = tm_output_open (fresh, &error);

    g_assert_no_error (error);
    g_assert_true (g_output_stream_write_all (tm_output_get_stream (out), "x", 1, NULL, NULL, &error));
  }
  g_clear_pointer (&names, g_free);
  names = list_dir (dir);
  g_assert_cmpstr (names, ==, "out.json");

  tm_fixture_remove (path);
}

static void
test_open_errors (void)
{
  g_autofree char *dir = tm_fixture_make_temp_dir (NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-folder", "out.csv", NULL);
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  TmOutput *out;

  out = tm_output_open (missing, &error);
  g_assert_null (out);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  expected = g_strdup_printf ("no such file or directory: nothing was written to %s", missing);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);

  out = tm_output_open (dir, &error);
  g_assert_null (out);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY);
  g_rmdir (dir);
}

/* A character device is written in place, never replaced. */
static void
test_device (void)
{
  g_autoptr(TmOutput) out = NULL;
  g_autoptr(GError) error = NULL;

  out = tm_output_open ("/dev/null", &error);
  g_assert_no_error (error);
  g_assert_true (tm_output_is_stream (out));
  g_assert_true (g_output_stream_write_all (tm_output_get_stream (out), "x", 1, NULL, NULL, &error));
  g_assert_true (tm_output_finish (out, TRUE, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test ("/dev/null", G_FILE_TEST_EXISTS));
}

/* tidemark --export -o /dev/stdout into a pipe (what g_spawn_sync gives it). */
static void
test_cli_pipe (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tm_fixture_space_write (space, NULL, "example.xplane.pb", &error);
  const char *formats[] = { "--export=csv", "--export=xprof-json", "--export=allocations", "--export=collapsed" };

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_auto(TmTestRun) r = { 0 };
      g_auto(TmTestRun) plain = { 0 };

      tm_test_run_cli (&r, NULL, formats[i], "-o", "/dev/stdout", path, NULL);
      g_assert_cmpstr (r.err, ==, "");
      g_assert_cmpint (r.status, ==, 0);
      tm_test_run_cli (&plain, NULL, formats[i], path, NULL);
      g_assert_cmpint (plain.status, ==, 0);
      g_assert_cmpstr (r.out, ==, plain.out);
      g_assert_cmpuint (strlen (r.out), >, 0);
    }
  tm_fixture_remove (path);
}

/* Fills the file system of dir up: a file that grows until ENOSPC. */
static void
fill_up (const char *dir)
{
  g_autofree char *filler = g_build_filename (dir, "filler", NULL);
  char block[4096];
  int fd = g_open (filler, O_WRONLY | O_CREAT | O_TRUNC, 0644);

  memset (block, 'f', sizeof block);
  while (fd >= 0 && write (fd, block, sizeof block) > 0)
    ;
  if (fd >= 0)
    close (fd);
}

/* A real full disk: a small tmpfs mounted by the test, as root. */
static void
test_cli_full_disk (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tm_fixture_space_write (space, NULL, "example.xplane.pb", &error);
  g_autofree char *mnt = tm_fixture_make_temp_dir (NULL);
  g_autofree char *dest = g_build_filename (mnt, "out", NULL);
  g_autofree char *expected = g_strdup_printf ("tidemark: no space left on device: nothing was written to %s\n", dest);
  const char *formats[] = { "--export=csv", "--export=xprof-json", "--export=allocations",
                            "--export=collapsed", "--export=memory-xplane" };

  g_assert_no_error (error);
  if (geteuid () != 0)
    {
      g_test_skip ("not root: no tmpfs to fill (test-output's injected failure covers it)");
      tm_fixture_remove (path);
      g_rmdir (mnt);
      return;
    }
  if (mount ("tmpfs", mnt, "tmpfs", MS_NOSUID | MS_NODEV, "size=16k") != 0)
    {
      g_autofree char *why = g_strdup_printf ("cannot mount a tmpfs: %s", g_strerror (errno));

      g_test_skip (why);
      tm_fixture_remove (path);
      g_rmdir (mnt);
      return;
    }

  /* What each run did, checked once the tmpfs is gone again (a failed
   * assertion must not leave it mounted). */
  TmTestRun runs[G_N_ELEMENTS (formats)] = { { 0 } };
  char *contents[G_N_ELEMENTS (formats)] = { NULL };
  char *names[G_N_ELEMENTS (formats)] = { NULL };

  g_file_set_contents (dest, OLD_CONTENTS, -1, NULL);
  fill_up (mnt);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      tm_test_run_cli (&runs[i], NULL, formats[i], "-o", dest, path, NULL);
      g_file_get_contents (dest, &contents[i], NULL, NULL);
      names[i] = list_dir (mnt);
    }
  g_assert_cmpint (umount (mnt), ==, 0);
  g_rmdir (mnt);
  tm_fixture_remove (path);

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_test_message ("%s: %s", formats[i], runs[i].err);
      g_assert_cmpint (runs[i].status, ==, 1);
      g_assert_cmpstr (runs[i].err, ==, expected);
      g_assert_cmpstr (contents[i], ==, OLD_CONTENTS);
      g_assert_cmpstr (names[i], ==, "filler out");
      tm_test_run_clear (&runs[i]);
      g_free (contents[i]);
      g_free (names[i]);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/output/replace", test_replace);
  g_test_add_func ("/output/injected-no-space", test_injected_no_space);
  g_test_add_func ("/output/open-errors", test_open_errors);
  g_test_add_func ("/output/device", test_device);
  g_test_add_func ("/output/cli-pipe", test_cli_pipe);
  g_test_add_func ("/output/cli-full-disk", test_cli_full_disk);

  return g_test_run ();
}
