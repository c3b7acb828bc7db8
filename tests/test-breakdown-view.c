/* test-breakdown-view.c — the breakdown table: long op names, the op
 * column (it takes the width first), the CSV of the rows shown, values the
 * file does not hold, the heading keeping its time, the total saying when
 * XProf's rows do not add up
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under Xvfb, in a window over the tour fixture
 * (tm_fixture_space_new_tour ()); the real GPU profile comes from
 * $TM_REAL_PROFILES (skipped when unset).
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "tm-allocation-row.h"
#include "tm-breakdown-view.h"
#include "tm-op-label.h"
#include "tm-test-util.h"
#include "tm-window.h"
#include "tm-gui-test-util.h"

#define MS G_GINT64_CONSTANT (1000000000)

static char *fixture_dir;
static char *tour_path;   /* tm_fixture_space_new_tour () */

/* ------------------------------------------------------------------ */
/* Long op names                                                       */

static int
text_width (PangoLayout *layout,
            const char  *text)
{
  int w;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, NULL);
  return w;
}

static void
test_op_name_shortening (void)
{
  static const char *name = "replica_6/bert_span_labeler/bert_encoder_1/transformer/layer_0/self_attention/dropout_3/dropout/Cast";
  GtkWidget *label = tm_op_label_new (name);
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (label, NULL);
  int full = text_width (layout, name);
  int last_two = text_width (layout, "…/dropout/Cast");
  g_autofree char *whole = tm_op_label_shorten (layout, name, full);
  g_autofree char *three = tm_op_label_shorten (layout, name, text_width (layout, "…/dropout_3/dropout/Cast") + 2);
  g_autofree char *two = tm_op_label_shorten (layout, name, last_two + 2);
  g_autofree char *cut = tm_op_label_shorten (layout, name, last_two / 2);

  g_object_ref_sink (label);

  /* Room for all: unchanged. */
  g_assert_cmpstr (whole, ==, name);
  /* Whole scopes go from the start; the end stays. */
  g_assert_cmpstr (three, ==, "…/dropout_3/dropout/Cast");
  g_assert_cmpstr (two, ==, "…/dropout/Cast");
  /* Narrower than the last two: they are cut at their start. */
  g_assert_true (g_str_has_prefix (cut, "…"));
  g_assert_true (g_str_has_suffix (cut, "Cast"));
  g_assert_cmpint (text_width (layout, cut), <=, last_two / 2);

  g_object_unref (label);
}

static void
test_op_column (void)
{
  g_autofree char *gpu = tm_test_real_profile ("tf_gpu_multi_worker.xplane.pb");
  TmWindow *window = tm_test_new_window ();
  TmBreakdownView *view;
  GtkColumnView *column_view;
  g_autoptr(GtkColumnViewColumn) column = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  GListModel *rows;
  int widest = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 1175, 785);
  tm_test_open_and_wait (window, tour_path);
  view = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  column_view = tm_breakdown_view_get_column_view (view);
  column = g_list_model_get_item (gtk_column_view_get_columns (column_view), 0);
  rows = tm_breakdown_view_get_model (view);
  g_assert_cmpuint (g_list_model_get_n_items (rows), >, 0);

  /* The header menu's item widens the op column to its longest name. */
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (column_view), NULL);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(TmAllocationRow) row = g_list_model_get_item (rows, i);

      widest = MAX (widest, text_width (layout, tm_allocation_row_get_display_name (row)));
    }
  g_assert_nonnull (gtk_column_view_column_get_header_menu (column));
  gtk_column_view_column_set_fixed_width (column, 100);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "breakdown.fit-op-column", NULL));
  g_assert_cmpint (gtk_column_view_column_get_fixed_width (column), >=, widest);
  g_assert_cmpint (gtk_column_view_column_get_fixed_width (column), <=, widest + 40);

  /* The special rows say what they count, differently at the peak and at
   * a chosen time (docs/ui.md, "The special rows"). */
  if (gpu != NULL)
    {
      g_autoptr(TmAllocationRow) at_peak = NULL;
      g_autoptr(TmAllocationRow) at_time = NULL;
      g_autofree char *peak_tip = NULL;
      g_autofree char *time_tip = NULL;

      tm_test_open_and_wait (window, gpu);
      rows = tm_breakdown_view_get_model (view);
      at_peak = g_list_model_get_item (rows, 0);
      g_assert_true (tm_allocation_row_get_special (at_peak));
      g_assert_cmpstr (tm_allocation_row_get_op_name (at_peak), ==, "unused preallocated device memory");
      peak_tip = tm_allocation_row_describe (at_peak);
      g_assert_nonnull (strstr (peak_tip, "as XProf counts it"));

      tm_session_select_time (tm_window_get_session (window), 2200 * MS);
      tm_test_iterate_for (100);
      rows = tm_breakdown_view_get_model (view);
      at_time = g_list_model_get_item (rows, 0);
      g_assert_true (tm_allocation_row_get_special (at_time));
      g_assert_cmpstr (tm_allocation_row_get_op_name (at_time), ==, "memory allocated before the profile");
      time_tip = tm_allocation_row_describe (at_time);
      g_assert_nonnull (strstr (time_tip, "allocated before the profile began"));
    }

  tm_test_destroy_window (window);
}

/* ------------------------------------------------------------------ */
/* The CSV is what the table shows                                     */

static void
test_csv_of_shown_rows (void)
{
  TmWindow *window = tm_test_new_window ();
  TmBreakdownView *view;
  GtkColumnView *column_view;
  GListModel *columns;
  g_autoptr(GtkColumnViewColumn) occurrences = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) all = NULL;
  GListModel *shown;

  tm_test_open_and_wait (window, tour_path);
  view = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  column_view = tm_breakdown_view_get_column_view (view);
  columns = gtk_column_view_get_columns (column_view);
  occurrences = g_list_model_get_item (columns, 3);
  g_assert_cmpstr (gtk_column_view_column_get_title (occurrences), ==, "Occurrences");

  /* Filter "dropout_1", small rows shown, sorted by occurrences then
   * by allocation ascending as the column view does it. */
  tm_breakdown_view_set_hide_small (view, FALSE);
  tm_breakdown_view_set_filter_text (view, "dropout_1");
  gtk_column_view_sort_by_column (column_view, occurrences, GTK_SORT_ASCENDING);
  tm_test_iterate_for (50);
  shown = tm_breakdown_view_get_model (view);
  g_assert_cmpuint (g_list_model_get_n_items (shown), >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (shown), <, tm_breakdown_view_get_n_rows (view));

  rows = tm_window_dup_csv_rows (window, TRUE);
  g_assert_nonnull (rows);
  g_assert_cmpuint (rows->len, ==, g_list_model_get_n_items (shown));
  for (guint i = 0; i < rows->len; i++)
    {
      g_autoptr(TmAllocationRow) item = g_list_model_get_item (shown, i);
      const TmBreakdownRow *row = g_ptr_array_index (rows, i);

      g_assert_cmpstr (row->op_name, ==, tm_allocation_row_get_op_name (item));
      g_assert_cmpint (row->allocation_bytes, ==, tm_allocation_row_get_allocation_bytes (item));
      g_assert_nonnull (strstr (row->op_name, "dropout_1"));
    }

  /* The whole table is still there when asked for. */
  all = tm_window_dup_csv_rows (window, FALSE);
  g_assert_cmpuint (all->len, ==, tm_breakdown_view_get_n_rows (view));

  tm_test_destroy_window (window);
}

/* ------------------------------------------------------------------ */
/* Nothing made up for what the file does not say                      */

static gboolean
is_unnamed (TmAllocationRow *row)
{
  return !tm_allocation_row_get_special (row) && tm_allocation_row_get_op_name (row)[0] == '\0';
}

static void
test_no_invented_values (void)
{
  TmWindow *window = tm_test_new_window ();
  TmBreakdownView *view;
  TmAllocationRow *row;
  g_autofree char *tooltip = NULL;

  tm_test_open_and_wait (window, tour_path);
  view = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  tm_breakdown_view_set_hide_small (view, FALSE);
  /* Everything live at the end (the peak table has only step 3). */
  tm_session_select_time (tm_window_get_session (window), 93 * G_GINT64_CONSTANT (1000000000));

  /* The allocation with nothing but its sizes: "unknown" op, no address,
   * no step. */
  row = tm_test_find_row (view, is_unnamed);
  g_assert_nonnull (row);
  g_assert_cmpstr (tm_allocation_row_get_display_name (row), ==, "unknown");
  tooltip = tm_allocation_row_describe (row);
  g_assert_nonnull (strstr (tooltip, "unknown"));
  g_assert_null (strstr (tooltip, "0x0"));
  g_assert_null (strstr (tooltip, "step -1"));

  tm_test_destroy_window (window);
}

/* ------------------------------------------------------------------ */
/* A narrow window, and rows that do not add up                        */

#define MIB (G_GINT64_CONSTANT (1) << 20)

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
  g_autofree char *data_home = tm_test_gui_init (&argc, &argv);
  int status;

  tour_path = tm_test_write_tour (&fixture_dir);

  g_test_add_func ("/breakdown-view/op-name-shortening", test_op_name_shortening);
  g_test_add_func ("/breakdown-view/op-column", test_op_column);
  g_test_add_func ("/breakdown-view/csv-of-shown-rows", test_csv_of_shown_rows);
  g_test_add_func ("/breakdown-view/no-invented-values", test_no_invented_values);
  g_test_add_func ("/breakdown-view/narrow", test_narrow);
  g_test_add_func ("/breakdown-view/total", test_total);

  status = g_test_run ();

  tm_fixture_remove (fixture_dir);
  tm_fixture_remove (data_home);
  g_free (fixture_dir);
  g_free (tour_path);
  return status;
}
