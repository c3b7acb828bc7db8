/* test-hlo-view.c — the HLO modules' table: its filter, the unnamed
 * module, selecting a module zooms the session's view to it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under Xvfb, in a window over the tour fixture
 * (tm_fixture_space_new_tour ()), whose two modules are "jit_train_step"
 * and one without a name.
 */
#include "config.h"

#include <gtk/gtk.h>

#include "tm-hlo-view.h"
#include "tm-test-util.h"
#include "tm-window.h"
#include "tm-gui-test-util.h"

#define MS G_GINT64_CONSTANT (1000000000)

static char *fixture_dir;
static char *tour_path;   /* tm_fixture_space_new_tour () */

static GtkWidget *
child (TmWindow   *window,
       const char *name)
{
  return tm_test_template_child (window, TM_TYPE_WINDOW, name);
}

static void
test_hlo_filter (void)
{
  TmWindow *window = tm_test_new_window ();
  TmHloView *hlo;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *filtered = NULL;

  gtk_window_set_default_size (GTK_WINDOW (window), 1175, 785);
  tm_test_open_and_wait (window, tour_path);
  hlo = TM_HLO_VIEW (child (window, "hlo_view"));
  g_assert_cmpuint (tm_hlo_view_get_n_shown (hlo), ==, 2);

  /* Sorted by start: the named one, then the one without a name, which
   * says so. */
  first = tm_hlo_view_dup_shown_name (hlo, 0);
  second = tm_hlo_view_dup_shown_name (hlo, 1);
  g_assert_cmpstr (first, ==, "jit_train_step");
  g_assert_cmpstr (second, ==, "unnamed module");

  /* The filter: by name, ignoring case; "unnamed" finds the unnamed. */
  tm_hlo_view_set_filter (hlo, "TRAIN");
  g_assert_cmpuint (tm_hlo_view_get_n_shown (hlo), ==, 1);
  tm_hlo_view_set_filter (hlo, "unnamed");
  g_assert_cmpuint (tm_hlo_view_get_n_shown (hlo), ==, 1);
  filtered = tm_hlo_view_dup_shown_name (hlo, 0);
  g_assert_cmpstr (filtered, ==, "unnamed module");
  tm_hlo_view_set_filter (hlo, "nothing like it");
  g_assert_cmpuint (tm_hlo_view_get_n_shown (hlo), ==, 0);
  tm_hlo_view_set_filter (hlo, NULL);
  g_assert_cmpuint (tm_hlo_view_get_n_shown (hlo), ==, 2);

  /* Selecting a module still zooms to it, filtered or not. */
  tm_hlo_view_set_filter (hlo, "unnamed");
  tm_hlo_view_select_module (hlo, 1);
  g_assert_cmpint (tm_viewport_get_start (tm_session_get_viewport (tm_window_get_session (window))), <=, 90 * MS);
  g_assert_cmpint (tm_viewport_get_start (tm_session_get_viewport (tm_window_get_session (window))), >, 50 * MS);

  tm_test_destroy_window (window);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = tm_test_gui_init (&argc, &argv);
  int status;

  tour_path = tm_test_write_tour (&fixture_dir);

  g_test_add_func ("/hlo-view/filter", test_hlo_filter);

  status = g_test_run ();

  tm_fixture_remove (fixture_dir);
  tm_fixture_remove (data_home);
  g_free (fixture_dir);
  g_free (tour_path);
  return status;
}
