/* test-file-changed.c — the banner "The file changed on disk" and its
 * Reload button, under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A profile is shown, then replaced by a rename (as g_file_set_contents,
 * editors and profilers save) and overwritten in place: each time the
 * window says so once, at the top, keeps showing the old data, and Reload
 * shows the new.
 */
#include "config.h"

#include <fcntl.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "tm-fixture-writer.h"
#include "tm-gui-test-util.h"
#include "tm-memory-store.h"
#include "tm-profile.h"
#include "tm-window.h"

/* A profile of n allocations of 1 KiB each, all live at the end: its peak
 * is n KiB. */
static GBytes *
profile_bytes (guint n)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_get_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory", 0);

  for (guint i = 0; i < n; i++)
    {
      TmFixtureMemory m = {
        .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME, .allocator_name = "GPU_0_bfc",
        .bytes_allocated = 1024 * (gint64) (i + 1), .peak_bytes_in_use = 1024 * (gint64) (i + 1),
        .requested_bytes = 1024, .allocation_bytes = 1024, .addr = 4096 * (guint64) (i + 1),
        .tf_op = "op", .region_type = "output", .data_type = 1, .shape = "[256]",
      };

      tm_fixture_line_add_memory_event (line, TRUE, 1000 * (gint64) (i + 1), &m);
    }
  return tm_fixture_space_serialize (space);
}

static gboolean
banner_shown (gpointer data)
{
  return gtk_revealer_get_reveal_child (GTK_REVEALER (tm_window_get_changed_banner (data)));
}

static gboolean
banner_hidden (gpointer data)
{
  return !banner_shown (data);
}

static gint64
shown_peak (TmWindow *window)
{
  TmMemoryStore *store = tm_window_get_memory_store (window);

  g_assert_nonnull (store);
  return tm_memory_store_get_summary (store)->peak_bytes_in_use;
}

static GtkWidget *
find_button (GtkWidget *widget)
{
  if (GTK_IS_BUTTON (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
reload_and_wait (TmWindow *window)
{
  GtkWidget *button = find_button (tm_window_get_changed_banner (window));

  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_visible (button));
  g_signal_emit_by_name (button, "clicked");
  tm_test_iterate_until (tm_test_not_loading, window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
}

static void
test_replaced_and_overwritten (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) first = profile_bytes (2);
  g_autoptr(GBytes) second = profile_bytes (5);
  g_autoptr(GBytes) third = profile_bytes (9);
  g_autofree char *path = tm_fixture_write_bytes (first, NULL, "changing.xplane.pb", &error);
  TmWindow *window = tm_test_new_window ();
  TmProfile *before;
  const guint8 *data;
  gsize size;
  int fd;

  g_assert_no_error (error);
  tm_test_open_and_wait (window, path);
  g_assert_cmpint (shown_peak (window), ==, 2 * 1024);
  g_assert_false (banner_shown (window));
  /* Nothing changed: nothing said, however long we wait. */
  tm_test_iterate_for (300);
  g_assert_false (banner_shown (window));

  /* Replaced by a rename: said at once, the old data stays. */
  before = tm_window_get_profile (window);
  data = g_bytes_get_data (second, &size);
  g_assert_true (g_file_set_contents (path, (const char *) data, (gssize) size, &error));
  g_assert_no_error (error);
  tm_test_iterate_until (banner_shown, window);
  g_assert_true (tm_window_get_profile (window) == before);
  g_assert_cmpint (shown_peak (window), ==, 2 * 1024);
  if (g_getenv ("TM_TEST_SAVE_DIR") != NULL)
    tm_test_iterate_for (1000);  /* time for a screenshot of the banner */

  /* Reload: the new data, and the banner goes. */
  reload_and_wait (window);
  tm_test_iterate_until (banner_hidden, window);
  g_assert_cmpint (shown_peak (window), ==, 5 * 1024);

  /* Overwritten in place (truncated, then written). */
  data = g_bytes_get_data (third, &size);
  fd = open (path, O_WRONLY | O_TRUNC);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, data, size), ==, (gssize) size);
  g_assert_cmpint (close (fd), ==, 0);
  tm_test_iterate_until (banner_shown, window);
  g_assert_cmpint (shown_peak (window), ==, 5 * 1024);

  reload_and_wait (window);
  tm_test_iterate_until (banner_hidden, window);
  g_assert_cmpint (shown_peak (window), ==, 9 * 1024);

  /* Removed: said too (Reload would then say why it cannot open it). */
  g_assert_cmpint (g_unlink (path), ==, 0);
  tm_test_iterate_until (banner_shown, window);

  tm_test_destroy_window (window);
  tm_fixture_remove (path);
}

/* Another file of the same folder changing says nothing. */
static void
test_other_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) first = profile_bytes (3);
  g_autofree char *path = tm_fixture_write_bytes (first, NULL, "steady.xplane.pb", &error);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *other = g_build_filename (dir, "other.xplane.pb", NULL);
  TmWindow *window = tm_test_new_window ();

  g_assert_no_error (error);
  tm_test_open_and_wait (window, path);
  g_assert_true (g_file_set_contents (other, "x", 1, &error));
  g_assert_no_error (error);
  tm_test_iterate_for (500);
  g_assert_false (banner_shown (window));

  tm_test_destroy_window (window);
  g_unlink (other);
  tm_fixture_remove (path);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = NULL;
  int status;

  data_home = tm_test_gui_init (&argc, &argv);

  g_test_add_func ("/file-changed/replaced-and-overwritten", test_replaced_and_overwritten);
  g_test_add_func ("/file-changed/other-file", test_other_file);

  status = g_test_run ();
  tm_fixture_remove (data_home);
  return status;
}
