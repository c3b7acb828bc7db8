/* test-breakdown-view.c — the breakdown table in a window: the op column
 * takes the width first, the heading keeps its time, the total says when
 * XProf's rows do not add up, under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "tm-breakdown-view.h"
#include "tm-gui-test-util.h"
#include "tm-op-label.h"
#include "tm-test-util.h"

#define MIB (G_GINT64_CONSTANT (1) << 20)

static char *fixture_dir;

/* GPU_0_bfc: a 1000-byte heap from before the profile, then (all in the
 * peak step) an allocation of 256 bytes and one of 512 at the same
 * address with no free between them, then n_more allocations of 2 MiB
 * under long op names. XProf's table at the peak lists the second
 * allocation only: its rows add up to 256 bytes less than the peak. */
static char *
write_profile (const char *basename,
               guint       n_more)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory", 0);
  g_autoptr(GError) error = NULL;
  gint64 heap = 1000;
  char *path;

  for (guint i = 0; i < 2 + n_more; i++)
    {
      g_autofree char *op = g_strdup_printf ("replica_0/bert/encoder/layer_%u/attention/self/MatMul", i);
      gint64 bytes = i == 0 ? 256 : i == 1 ? 512 : 2 * MIB;
      TmFixtureMemory m = { 0 };

      heap += bytes;
      m.allocator_name = "GPU_0_bfc";
      m.bytes_allocated = heap;
      m.bytes_available = (G_GINT64_CONSTANT (1) << 30) - heap;
      m.peak_bytes_in_use = heap;
      m.requested_bytes = bytes;
      m.allocation_bytes = bytes;
      m.addr = i < 2 ? 0x10 : 0x100000 * (guint64) i;
      m.tf_op = op;
      m.region_type = "output";
      m.data_type = 19;
      m.shape = "[16,384,1024]";
      m.has_group_id = TRUE;
      m.group_id = 1;
      tm_fixture_line_add_memory_event (line, TRUE, 1000000 * (gint64) (i + 1), &m);
    }
  path = tm_fixture_space_write (space, fixture_dir, basename, &error);
  g_assert_no_error (error);
  return path;
}

static GtkLabel *
find_label_containing (GtkWidget  *widget,
                       const char *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget) &&
      strstr (gtk_label_get_label (GTK_LABEL (widget)), text) != NULL)
    return GTK_LABEL (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *found = find_label_containing (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static int
op_cell_width (GtkWidget *widget)
{
  if (TM_IS_OP_LABEL (widget) && gtk_widget_get_mapped (widget))
    return gtk_widget_get_width (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      int width = op_cell_width (child);

      if (width >= 0)
        return width;
    }
  return -1;
}

/* At 800 × 600 the op column gets the width first (it had about 95 px
 * while Region, Data Type and Shape kept theirs), and the heading keeps
 * the time of the peak. */
static void
test_narrow (void)
{
  g_autofree char *path = write_profile ("narrow.xplane.pb", 40);
  TmWindow *window = tm_test_new_window ();
  TmBreakdownView *table = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  GtkLabel *heading;
  int natural;

  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  tm_test_open_and_wait (window, path);
  g_test_message ("op column: %d px of %d", op_cell_width (GTK_WIDGET (table)), gtk_widget_get_width (GTK_WIDGET (table)));
  g_assert_cmpint (op_cell_width (GTK_WIDGET (table)), >=, 180);

  heading = find_label_containing (GTK_WIDGET (table), "Live at peak");
  g_assert_nonnull (heading);
  gtk_widget_measure (GTK_WIDGET (heading), GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (heading)), >=, natural);

  tm_test_destroy_window (window);
  g_remove (path);
}

/* The table says what its rows add up to; XProf's table at this peak
 * leaves out 256 bytes, and the total says so instead of silently not
 * adding up. XProf's own example adds up. */
static void
test_total (void)
{
  g_autofree char *path = write_profile ("short.xplane.pb", 0);
  g_autoptr(TmFixtureSpace) example = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  g_autofree char *example_path = tm_fixture_space_write (example, fixture_dir, "example.xplane.pb", &error);
  TmWindow *window = tm_test_new_window ();
  TmBreakdownView *table = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  GtkLabel *total;

  g_assert_no_error (error);
  tm_test_open_and_wait (window, path);
  total = find_label_containing (GTK_WIDGET (table), "in all rows");
  g_assert_nonnull (total);
  g_assert_nonnull (strstr (gtk_label_get_label (total), "256 B less than in use"));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (total)), "XProf"));

  tm_test_open_and_wait (window, example_path);
  total = find_label_containing (GTK_WIDGET (table), "in all rows");
  g_assert_nonnull (total);
  g_assert_null (strstr (gtk_label_get_label (total), "less"));

  /* Live at a time the rows are Tidemark's, which count what was
   * allocated before the profile: they add up. */
  tm_test_open_and_wait (window, path);
  tm_session_select_time (tm_window_get_session (window), 1500000);
  tm_test_iterate_for (20);
  total = find_label_containing (GTK_WIDGET (table), "in all rows");
  g_assert_nonnull (total);
  g_assert_null (strstr (gtk_label_get_label (total), "less"));

  tm_test_destroy_window (window);
  g_remove (path);
  g_remove (example_path);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  data_home = tm_test_gui_init (&argc, &argv);
  fixture_dir = tm_fixture_make_temp_dir (&error);
  g_assert_no_error (error);

  g_test_add_func ("/breakdown-view/narrow", test_narrow);
  g_test_add_func ("/breakdown-view/total", test_total);

  status = g_test_run ();

  tm_fixture_remove (fixture_dir);
  tm_fixture_remove (data_home);
  return status;
}
