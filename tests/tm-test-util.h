/* tm-test-util.h — small helpers shared by the core tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <zlib.h>

#include "tm-fixture-writer.h"
#include "tm-profile-private.h"

/* For g_ptr_array_sort () of strings, byte-wise. */
static inline int
tm_test_compare_strings (gconstpointer a,
                         gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* data as one gzip member. */
static inline GBytes *
tm_test_gzip_bytes (const void *data,
                    gsize       size)
{
  gsize cap = compressBound (size) + 64;
  guint8 *gz = g_malloc (cap);
  z_stream zs = { 0 };

  g_assert_cmpint (deflateInit2 (&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY), ==, Z_OK);
  zs.next_in = (Bytef *) data;
  zs.avail_in = size;
  zs.next_out = gz;
  zs.avail_out = cap;
  g_assert_cmpint (deflate (&zs, Z_FINISH), ==, Z_STREAM_END);
  deflateEnd (&zs);
  return g_bytes_new_take (gz, zs.total_out);
}

/* A pickle written by Python ($TM_PYTHON): expr is a Python expression,
 * pickled at protocol into a temporary file, read back. */
static inline GBytes *
tm_test_python_pickle (const char *expr,
                       guint       protocol)
{
  const char *python = g_getenv ("TM_PYTHON");
  g_autofree char *path = NULL;
  g_autofree char *code = NULL;
  g_autofree char *err = NULL;
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize len = 0;
  int status;
  int fd;

  g_assert_nonnull (python);
  fd = g_file_open_tmp ("tm-pickle-XXXXXX", &path, &error);
  g_assert_no_error (error);
  close (fd);
  code = g_strdup_printf ("import pickle, sys\n"
                          "open(sys.argv[1], 'wb').write(pickle.dumps(%s, protocol=%u))\n",
                          expr, protocol);
  {
    const char *argv[] = { python, "-c", code, path, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                 NULL, &err, &status, &error));
  }
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("python failed: %s", err);
  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  g_assert_no_error (error);
  g_unlink (path);
  return g_bytes_new_take (g_steal_pointer (&data), len);
}

/* Writes bytes to a temp file, loads it, removes the file. */
static inline TmProfile *
tm_test_load_bytes (GBytes     *bytes,
                    const char *basename,
                    GError    **error)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  TmProfile *profile;

  path = tm_fixture_write_bytes (bytes, NULL, basename, error);
  if (path == NULL)
    return NULL;
  file = g_file_new_for_path (path);
  profile = tm_profile_load (file, NULL, NULL, NULL, error);
  tm_fixture_remove (path);
  return profile;
}

/* The same with the XSpace reader's options (tm-xspace-reader-private.h). */
static inline TmProfile *
tm_test_load_bytes_with_options (GBytes                    *bytes,
                                 const char                *basename,
                                 const TmXSpaceReadOptions *options,
                                 GError                   **error)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  TmProfile *profile;

  path = tm_fixture_write_bytes (bytes, NULL, basename, error);
  if (path == NULL)
    return NULL;
  file = g_file_new_for_path (path);
  profile = tm_profile_load_with_options (file, options, NULL, error);
  tm_fixture_remove (path);
  return profile;
}

static inline TmProfile *
tm_test_load_space (TmFixtureSpace *space,
                    GError        **error)
{
  g_autoptr(GBytes) bytes = tm_fixture_space_serialize (space);

  return tm_test_load_bytes (bytes, "fixture.xplane.pb", error);
}

/* Fills in one memory event of a test's table: m starts as zeros with
 * allocator GPU_0_bfc. */
typedef void (*TmTestMemoryFill) (gconstpointer    ev,
                                  TmFixtureMemory *m,
                                  gboolean        *allocation,
                                  gint64          *time_ps);

/* Loads a profile of one "/host:CPU" plane whose one line holds the n
 * memory events of evs (elements of ev_size bytes), each made by fill. */
static inline TmProfile *
tm_test_load_memory_events (gconstpointer    evs,
                            gsize            ev_size,
                            guint            n,
                            TmTestMemoryFill fill)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "l", 0);
  g_autoptr(GError) error = NULL;
  TmProfile *profile;

  for (guint i = 0; i < n; i++)
    {
      TmFixtureMemory m = { 0 };
      gboolean allocation = FALSE;
      gint64 time_ps = 0;

      m.allocator_name = "GPU_0_bfc";
      fill ((const guint8 *) evs + i * ev_size, &m, &allocation, &time_ps);
      tm_fixture_line_add_memory_event (line, allocation, time_ps, &m);
    }

  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  return profile;
}

/* Loads the profile at path, asserting it loads. */
static inline TmProfile *
tm_test_load_path (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  TmProfile *profile = tm_profile_load (file, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return profile;
}

/* The folder of the real profiles, or NULL (then real-profile tests skip).
 * When TM_REAL_PROFILES is set, a missing file fails the test. */
static inline char *
tm_test_real_profile (const char *name)
{
  const char *dir = g_getenv ("TM_REAL_PROFILES");
  char *path;

  if (dir == NULL || *dir == '\0')
    return NULL;
  path = g_build_filename (dir, name, NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    g_error ("TM_REAL_PROFILES is set but %s is missing", path);
  return path;
}

/* What a run of the command line printed, and its exit status. */
typedef struct
{
  char *out;
  char *err;
  int   status;
} TmTestRun;

static inline void
tm_test_run_clear (TmTestRun *run)
{
  g_free (run->out);
  g_free (run->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TmTestRun, tm_test_run_clear)

/* Runs tidemark (TM_TIDEMARK_EXE) with the arguments up to NULL and no
 * display at all; language, unless NULL, is set as LANGUAGE. */
static inline void
tm_test_run_cli (TmTestRun  *result,
                 const char *language,
                 const char *first,
                 ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  const char *exe = g_getenv ("TM_TIDEMARK_EXE");
  int wait_status;
  va_list ap;

  g_assert_nonnull (exe);
  envp = g_environ_unsetenv (envp, "DISPLAY");
  envp = g_environ_unsetenv (envp, "WAYLAND_DISPLAY");
  if (language != NULL)
    envp = g_environ_setenv (envp, "LANGUAGE", language, TRUE);

  g_ptr_array_add (argv, (char *) exe);
  va_start (ap, first);
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (argv, (char *) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);

  memset (result, 0, sizeof *result);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &result->out, &result->err, &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  result->status = WEXITSTATUS (wait_status);
}
