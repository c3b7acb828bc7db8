/* tm-test-util.h — small helpers shared by the core tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>

#include "tm-fixture-writer.h"
#include "tm-profile.h"

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

static inline TmProfile *
tm_test_load_space (TmFixtureSpace *space,
                    GError        **error)
{
  g_autoptr(GBytes) bytes = tm_fixture_space_serialize (space);

  return tm_test_load_bytes (bytes, "fixture.xplane.pb", error);
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
