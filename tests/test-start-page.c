/* test-start-page.c — the window's start page: the recent files, those
 * that no longer exist removed and said so, Open Recent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under Xvfb, with an application of its own (registered once per
 * process) and a recent-files list in a temporary XDG_DATA_HOME.
 */
#include "config.h"

#include <gtk/gtk.h>

#include "tm-application.h"
#include "tm-test-util.h"
#include "tm-window.h"
#include "tm-gui-test-util.h"

static char *fixture_dir;
static char *tour_path;   /* tm_fixture_space_new_tour () */

static GtkWidget *
child (TmWindow   *window,
       const char *name)
{
  return tm_test_template_child (window, TM_TYPE_WINDOW, name);
}

static gboolean
window_shows_profile (gpointer data)
{
  return tm_window_get_state (TM_WINDOW (data)) == TM_WINDOW_STATE_PROFILE;
}

static gboolean
recent_rows_at_least_1 (gpointer data)
{
  return gtk_widget_get_first_child (GTK_WIDGET (data)) != NULL;
}

/* The dim line the start page adds under the recent list. */
static GtkLabel *
recent_removed_label (TmWindow *window)
{
  GtkWidget *box = child (window, "recent_box");
  GtkWidget *last = gtk_widget_get_last_child (box);

  g_assert_true (GTK_IS_LABEL (last));
  return GTK_LABEL (last);
}

static void
test_recent_files (void)
{
  g_autoptr(TmApplication) app = tm_application_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *gone_path = g_build_filename (fixture_dir, "gone.xplane.pb", NULL);
  g_autofree char *gone_uri = g_filename_to_uri (gone_path, NULL, NULL);
  g_autofree char *fixture_uri = g_filename_to_uri (tour_path, NULL, NULL);
  GtkRecentManager *recent = gtk_recent_manager_get_default ();
  TmWindow *first, *second, *third;
  GtkWidget *list, *row_fixture = NULL, *row_gone = NULL;
  GtkLabel *removed;
  GMenuModel *menu;
  gboolean menu_has_fixture = FALSE, menu_has_gone = FALSE;

  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  /* A file opened once, and one that is gone since. The start page (as
   * after a restart) removes the gone one from the recent files, and says
   * so under the list. */
  {
    /* add_item asks the file's type first, asynchronously; add_full does
     * not. */
    GtkRecentData data = {
      .mime_type = (char *) "application/x-xplane+protobuf",
      .app_name = (char *) g_get_application_name (),
      .app_exec = (char *) "tidemark %u",
    };

    g_assert_true (gtk_recent_manager_add_full (recent, gone_uri, &data));
  }
  g_assert_true (gtk_recent_manager_has_item (recent, gone_uri));
  first = tm_window_new (app);
  gtk_window_present (GTK_WINDOW (first));
  g_assert_false (gtk_recent_manager_has_item (recent, gone_uri));
  removed = recent_removed_label (first);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (removed)));
  g_assert_cmpstr (gtk_label_get_label (removed), ==, "gone.xplane.pb no longer exists and was removed from the list");
  g_assert_true (gtk_widget_get_visible (child (first, "recent_box")));
  tm_test_open_and_wait (first, tour_path);

  /* A new window's start page lists the one that exists, and has nothing
   * to say. */
  second = tm_window_new (app);
  gtk_window_present (GTK_WINDOW (second));
  list = child (second, "recent_list");
  tm_test_iterate_until (recent_rows_at_least_1, list);
  g_assert_true (gtk_widget_get_visible (child (second, "recent_box")));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (recent_removed_label (second))));
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      const char *uri = g_object_get_data (G_OBJECT (row), "tm-uri");

      if (g_strcmp0 (uri, fixture_uri) == 0)
        row_fixture = row;
      if (g_strcmp0 (uri, gone_uri) == 0)
        row_gone = row;
    }
  g_assert_nonnull (row_fixture);
  g_assert_null (row_gone);
  g_assert_true (gtk_widget_get_sensitive (row_fixture));
  /* Newest first. */
  g_assert_true (gtk_widget_get_first_child (list) == row_fixture);

  /* Open Recent has the one that exists, not the removed one. */
  menu = G_MENU_MODEL (gtk_widget_get_template_child (GTK_WIDGET (second), TM_TYPE_WINDOW, "recent_menu"));
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autoptr(GVariant) target = g_menu_model_get_item_attribute_value (menu, i, G_MENU_ATTRIBUTE_TARGET, G_VARIANT_TYPE_STRING);

      menu_has_fixture |= g_strcmp0 (g_variant_get_string (target, NULL), fixture_uri) == 0;
      menu_has_gone |= g_strcmp0 (g_variant_get_string (target, NULL), gone_uri) == 0;
    }
  g_assert_true (menu_has_fixture);
  g_assert_false (menu_has_gone);

  /* One click opens it, in this window. */
  g_signal_emit_by_name (list, "row-activated", row_fixture);
  tm_test_iterate_until (window_shows_profile, second);
  {
    g_autoptr(GFile) opened = g_file_new_for_path (tour_path);

    g_assert_true (g_file_equal (tm_window_get_file (second), opened));
  }

  /* And the menu's item. */
  third = tm_window_new (app);
  gtk_window_present (GTK_WINDOW (third));
  g_action_group_activate_action (G_ACTION_GROUP (third), "open-recent", g_variant_new_string (fixture_uri));
  tm_test_iterate_until (window_shows_profile, third);

  gtk_window_destroy (GTK_WINDOW (first));
  gtk_window_destroy (GTK_WINDOW (second));
  gtk_window_destroy (GTK_WINDOW (third));
  tm_test_iterate_for (50);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = tm_test_gui_init (&argc, &argv);
  int status;

  tour_path = tm_test_write_tour (&fixture_dir);

  g_test_add_func ("/start-page/recent-files", test_recent_files);

  status = g_test_run ();

  tm_fixture_remove (fixture_dir);
  tm_fixture_remove (data_home);
  g_free (fixture_dir);
  g_free (tour_path);
  return status;
}
