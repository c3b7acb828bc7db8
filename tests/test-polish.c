/* test-polish.c — the gaps a user of other memory viewers notices: the
 * charts' room, legend toggles, long op names, recent files, range
 * figures, export polish, the HLO filter, host peaks, the special row
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under Xvfb. Fixtures are written with tm-fixture-writer; the real
 * profiles come from $TM_REAL_PROFILES (skipped when unset).
 */
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "tm-application.h"
#include "tm-allocation-row.h"
#include "tm-breakdown-view.h"
#include "tm-chart-export.h"
#include "tm-format.h"
#include "tm-hlo-view.h"
#include "tm-op-label.h"
#include "tm-test-util.h"
#include "tm-timeline.h"
#include "tm-timeline-private.h"
#include "tm-window.h"
#include "tm-gui-test-util.h"

#define MIB (G_GINT64_CONSTANT (1) << 20)
#define GIB (G_GINT64_CONSTANT (1) << 30)
#define MS  G_GINT64_CONSTANT (1000000000)

static char *fixture_dir;
static char *fixture_path;

/* ------------------------------------------------------------------ */
/* Fixture                                                             */

/* GPU_0_bfc on a 16 GiB device: an allocation of (i + 1) × 2 MiB at
 * 1, 2, 3 … 10 ms, then at 90–93 ms; the ones at 5 and 7 ms are freed at
 * 8 and 9 ms; long op names; two HLO modules, one without a name. */
static const gint64 times_ms[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 90, 91, 92, 93 };

static void
write_fixture (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixturePlane *host = tm_fixture_space_add_plane (space, "/host:CPU");
  TmFixtureLine *line = tm_fixture_plane_add_line (host, "Memory", 0);
  g_autoptr(GError) error = NULL;
  gint64 heap = 0;

  for (guint i = 0; i < G_N_ELEMENTS (times_ms); i++)
    {
      g_autofree char *op = g_strdup_printf ("replica_6/bert_span_labeler/bert_encoder_1/transformer/layer_%u/self_attention/dropout_%u/dropout/Cast", i, i % 3);
      TmFixtureMemory memory = {
        .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME,
        .allocator_name = "GPU_0_bfc",
      };
      gint64 bytes = (gint64) (i + 1) * 2 * MIB;

      heap += bytes;
      memory.bytes_allocated = heap;
      memory.bytes_available = 16 * GIB - heap;
      memory.fragmentation = 0.25;
      memory.peak_bytes_in_use = heap;
      memory.requested_bytes = bytes;
      memory.allocation_bytes = bytes;
      memory.addr = 0x7f0000000000 + (guint64) i * 0x1000000;
      memory.tf_op = op;
      memory.has_group_id = TRUE;
      memory.group_id = 2;
      memory.region_type = "output";
      memory.data_type = 1;
      memory.shape = "[8,64]";
      tm_fixture_line_add_memory_event (line, TRUE, times_ms[i] * MS, &memory);
    }
  tm_fixture_space_add_hlo_module (space, 0, "jit_train_step", 1 * MS, 9 * MS);
  tm_fixture_space_add_hlo_module (space, 0, "", 90 * MS, 93 * MS);

  fixture_path = tm_fixture_space_write (space, fixture_dir, "polish.xplane.pb", &error);
  g_assert_no_error (error);
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static GtkWidget *
child (TmWindow   *window,
       const char *name)
{
  return tm_test_template_child (window, TM_TYPE_WINDOW, name);
}

static int
min_height (GtkWidget *widget)
{
  int minimum = 0;

  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (widget),
                      &minimum, NULL, NULL, NULL);
  /* The allocation is inside the margins the measure counts. */
  return minimum - gtk_widget_get_margin_top (widget) - gtk_widget_get_margin_bottom (widget);
}

/* ------------------------------------------------------------------ */
/* The layout                                                          */

/* A chart is never given less than its minimum height, where GtkPaned
 * would shift it up and cut its top off. */
static void
assert_charts_whole (TmWindow *window)
{
  GtkWidget *timeline = child (window, "timeline");
  GtkWidget *map = child (window, "memory_map");

  g_assert_cmpint (gtk_widget_get_height (timeline), >=, min_height (timeline));
  if (gtk_widget_get_visible (map))
    g_assert_cmpint (gtk_widget_get_height (map), >=, min_height (map));
}

static void
test_layout (void)
{
  g_autofree char *gpu = tm_test_real_profile ("tf_gpu_multi_worker.xplane.pb");
  TmWindow *window = tm_test_new_window ();
  GtkPaned *paned, *chart_paned;
  TmTimelineLayout layout;
  int paned_h, chart_h, kept;

  /* The default size (as without a window manager). */
  gtk_window_set_default_size (GTK_WINDOW (window), 1175, 785);
  tm_test_open_and_wait (window, fixture_path);
  tm_test_iterate_for (400);
  paned = GTK_PANED (child (window, "paned"));
  chart_paned = GTK_PANED (child (window, "chart_paned"));

  /* The charts get about 60 % of the outer paned, the usage timeline
   * about 55 % of the charts. */
  paned_h = gtk_widget_get_height (GTK_WIDGET (paned));
  chart_h = gtk_widget_get_height (GTK_WIDGET (chart_paned));
  g_test_message ("paned %d at %d; chart paned %d at %d", paned_h, gtk_paned_get_position (paned),
                  chart_h, gtk_paned_get_position (chart_paned));
  g_assert_cmpint (gtk_paned_get_position (paned), >=, paned_h * 55 / 100);
  g_assert_cmpint (gtk_paned_get_position (paned), <=, paned_h * 65 / 100);
  g_assert_cmpint (gtk_paned_get_position (chart_paned), >=, chart_h * 50 / 100);
  g_assert_cmpint (gtk_paned_get_position (chart_paned), <=, chart_h * 60 / 100);
  /* The HLO table takes its share of the charts here (the memory map may
   * give way to it). */
  tm_timeline_get_layout (TM_TIMELINE (child (window, "timeline")), &layout);
  g_assert_cmpfloat (layout.plot.size.height, >=, 70);
  assert_charts_whole (window);

  /* Without HLO modules, both charts have room to read. */
  if (gpu != NULL)
    {
      tm_test_open_and_wait (window, gpu);
      /* Settled: the map's room is decided in an idle after a frame. */
      tm_test_iterate_for (400);
      tm_timeline_get_layout (TM_TIMELINE (child (window, "timeline")), &layout);
      g_test_message ("GPU: plot %g, map %d", layout.plot.size.height,
                      gtk_widget_get_height (child (window, "memory_map")));
      g_assert_cmpfloat (layout.plot.size.height, >=, 110);
      g_assert_true (gtk_widget_get_visible (child (window, "memory_map")));
      g_assert_cmpint (gtk_widget_get_height (child (window, "memory_map")), >=, 120);
      assert_charts_whole (window);
    }

  /* A position the user chose stays when the window grows (scaled with
   * it), and is not reset to the default share. */
  gtk_paned_set_position (paned, paned_h * 45 / 100);
  tm_test_iterate_for (100);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  tm_test_iterate_for (300);
  kept = gtk_paned_get_position (paned) * 100 / gtk_widget_get_height (GTK_WIDGET (paned));
  g_assert_cmpint (kept, >=, 42);
  g_assert_cmpint (kept, <=, 48);
  assert_charts_whole (window);

  /* At 800 × 600 the map gives way rather than cutting either chart. */
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  tm_test_iterate_for (300);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), <=, 600);
  assert_charts_whole (window);

  tm_test_destroy_window (window);
}

/* The shares are saved with the window state and used by the next window. */
static void
test_layout_saved (void)
{
  g_autoptr(GSettings) settings = tm_application_create_settings ();
  TmWindow *window;
  GtkPaned *paned;
  int paned_h;

  g_assert_nonnull (settings);
  g_settings_set_double (settings, "charts-share", 0.64);

  window = tm_test_new_window ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1175, 785);
  tm_test_open_and_wait (window, fixture_path);
  paned = GTK_PANED (child (window, "paned"));
  paned_h = gtk_widget_get_height (GTK_WIDGET (paned));
  g_assert_cmpint (gtk_paned_get_position (paned), >=, paned_h * 62 / 100);
  g_assert_cmpint (gtk_paned_get_position (paned), <=, paned_h * 66 / 100);

  /* Moved and closed: saved. */
  gtk_paned_set_position (paned, paned_h / 2);
  tm_test_iterate_for (100);
  gtk_window_close (GTK_WINDOW (window));
  tm_test_iterate_for (50);
  g_assert_cmpfloat_with_epsilon (g_settings_get_double (settings, "charts-share"), 0.5, 0.02);
  g_object_unref (window);

  g_settings_reset (settings, "charts-share");
}

/* ------------------------------------------------------------------ */
/* Legend toggles                                                      */

static void
test_legend_toggles (void)
{
  TmWindow *window = tm_test_new_window ();
  TmSession *session;
  TmTimeline *timeline;
  GtkGestureClick *click;
  double heap_x = -1, frag_x = -1;
  GVariant *state;

  gtk_window_set_default_size (GTK_WINDOW (window), 1175, 785);
  tm_test_open_and_wait (window, fixture_path);
  session = tm_window_get_session (window);
  timeline = TM_TIMELINE (child (window, "timeline"));

  /* The legend row: Stack, Heap, Free, Fragmentation, then the window
   * peak, which is no toggle. */
  for (double x = 0; x < 700; x += 2)
    {
      TmSeriesFlags at = tm_timeline_legend_at (timeline, x, 14);

      if (at == TM_SERIES_FLAG_HEAP && heap_x < 0)
        heap_x = x + 4;
      if (at == TM_SERIES_FLAG_FRAGMENTATION && frag_x < 0)
        frag_x = x + 4;
    }
  g_assert_cmpfloat (heap_x, >, 0);
  g_assert_cmpfloat (frag_x, >, heap_x);
  /* Not in the plot. */
  g_assert_cmpint (tm_timeline_legend_at (timeline, heap_x, 80), ==, TM_SERIES_FLAG_NONE);

  /* A click on Heap hides the heap, a second shows it. */
  click = tm_test_find_click_gesture (GTK_WIDGET (timeline), TRUE);
  g_assert_nonnull (click);
  g_assert_cmpint (tm_timeline_get_hidden_series (timeline), ==, TM_SERIES_FLAG_NONE);
  g_signal_emit_by_name (click, "pressed", 1, heap_x, 14.0);
  g_assert_cmpint (tm_timeline_get_hidden_series (timeline), ==, TM_SERIES_FLAG_HEAP);
  /* The click selected no time. */
  g_assert_false (tm_session_get_has_selected_time (session));
  g_signal_emit_by_name (click, "pressed", 1, frag_x, 14.0);
  g_assert_cmpint (tm_timeline_get_hidden_series (timeline), ==, TM_SERIES_FLAG_HEAP | TM_SERIES_FLAG_FRAGMENTATION);

  /* The menu's check items follow, and toggle too (the keyboard's way). */
  state = g_action_group_get_action_state (G_ACTION_GROUP (window), "show-heap");
  g_assert_false (g_variant_get_boolean (state));
  g_variant_unref (state);
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-heap", g_variant_new_boolean (TRUE));
  g_assert_cmpint (tm_timeline_get_hidden_series (timeline), ==, TM_SERIES_FLAG_FRAGMENTATION);
  g_signal_emit_by_name (click, "pressed", 1, frag_x, 14.0);
  g_assert_cmpint (tm_timeline_get_hidden_series (timeline), ==, TM_SERIES_FLAG_NONE);

  tm_test_destroy_window (window);
}

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
  tm_test_open_and_wait (window, fixture_path);
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
/* Recent files                                                        */

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
  g_autofree char *fixture_uri = g_filename_to_uri (fixture_path, NULL, NULL);
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
  tm_test_open_and_wait (first, fixture_path);

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
    g_autoptr(GFile) opened = g_file_new_for_path (fixture_path);

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

/* ------------------------------------------------------------------ */
/* HLO modules                                                         */

static void
test_hlo_filter (void)
{
  TmWindow *window = tm_test_new_window ();
  TmHloView *hlo;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *filtered = NULL;

  gtk_window_set_default_size (GTK_WINDOW (window), 1175, 785);
  tm_test_open_and_wait (window, fixture_path);
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

/* ------------------------------------------------------------------ */
/* Range figures                                                       */

static void
test_range_figures (void)
{
  TmWindow *window = tm_test_new_window ();
  TmTimeline *timeline;
  TmViewport *viewport;
  TmRangeFigures figures;
  g_autofree char *text = NULL;
  g_autofree char *zoomed_text = NULL;

  gtk_window_set_default_size (GTK_WINDOW (window), 1175, 785);
  tm_test_open_and_wait (window, fixture_path);
  timeline = TM_TIMELINE (child (window, "timeline"));
  viewport = tm_session_get_viewport (tm_window_get_session (window));

  /* In use: 6 MiB from 2 ms, then +6, +8 … MiB each ms up to 90 MiB at
   * 9 ms. */
  g_assert_true (tm_timeline_range_figures (timeline, 2500000000, 9500000000, &figures));
  g_assert_cmpint (figures.start_bytes, ==, 6 * MIB);
  g_assert_cmpint (figures.end_bytes, ==, 90 * MIB);
  g_assert_cmpint (figures.delta_bytes, ==, 84 * MIB);
  g_assert_cmpint (figures.peak_bytes, ==, 90 * MIB);
  g_assert_cmpint (figures.peak_time_ps, ==, 9 * MS);
  /* A stretch without events: no change, the peak is the state at its
   * start. */
  g_assert_true (tm_timeline_range_figures (timeline, 20 * MS, 80 * MS, &figures));
  g_assert_cmpint (figures.delta_bytes, ==, 0);
  g_assert_cmpint (figures.peak_bytes, ==, 110 * MIB);
  g_assert_cmpint (figures.peak_time_ps, ==, 20 * MS);

  /* No read-out until a band zooms. */
  g_assert_false (tm_timeline_get_shown_range (timeline, &figures));
  tm_timeline_show_range (timeline, 2500000000, 9500000000);
  g_assert_true (tm_timeline_get_shown_range (timeline, &figures));
  g_assert_cmpint (figures.start_ps, ==, tm_viewport_get_start (viewport));
  g_assert_cmpint (figures.end_ps, ==, tm_viewport_get_end (viewport));
  g_assert_cmpint (figures.delta_bytes, ==, 84 * MIB);
  text = tm_timeline_describe_range (timeline, &figures);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "Range 2.500 ms – 9.500 ms (7.000 ms)"));
  g_assert_nonnull (strstr (text, "change +84.0 MiB"));
  g_assert_nonnull (strstr (text, "peak 90.0 MiB at 9.000 ms"));

  /* The precision follows the zoom: a band of 2 µs reads in ns. */
  tm_timeline_show_range (timeline, 9 * MS, 9 * MS + 2000000);
  g_assert_true (tm_timeline_get_shown_range (timeline, &figures));
  zoomed_text = tm_timeline_describe_range (timeline, &figures);
  g_assert_nonnull (strstr (zoomed_text, "9.000000 ms"));

  /* Any other change of the view ends it. */
  tm_viewport_reset (viewport);
  g_assert_false (tm_timeline_get_shown_range (timeline, &figures));

  tm_test_destroy_window (window);
}

/* ------------------------------------------------------------------ */
/* Export polish                                                       */

static guint32
pixel_at (GskRenderNode *node,
          int            width,
          int            height,
          int            x,
          int            y)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);
  guint32 pixel;

  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  pixel = ((guint32 *) cairo_image_surface_get_data (surface))[y * cairo_image_surface_get_stride (surface) / 4 + x];
  cairo_surface_destroy (surface);
  return pixel & 0xffffff;
}

static void
test_export_polish (void)
{
  TmWindow *window = tm_test_new_window ();
  g_autoptr(GskRenderNode) light = NULL;
  g_autoptr(GskRenderNode) dark = NULL;
  g_autofree char *title = NULL;
  g_autoptr(GFile) saved = g_file_new_for_path ("/tmp/polish-GPU_0_bfc-timeline.png");
  int w = 0, h = 0, dw = 0, dh = 0;

  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1175, 785);
  tm_test_open_and_wait (window, fixture_path);
  tm_viewport_set_range (tm_session_get_viewport (tm_window_get_session (window)), 2 * MS, 9 * MS);

  /* The title line: file, memory id, the range shown in ms. */
  title = tm_window_dup_timeline_title (window);
  g_test_message ("%s", title);
  g_assert_true (g_str_has_prefix (title, "polish.xplane.pb · GPU_0_bfc · "));
  g_assert_nonnull (strstr (title, "2.000 ms – 9.000 ms"));

  /* Light from a dark window (the default of the dialog's check box), or
   * the window's own colours; the title line on top. */
  light = tm_window_build_timeline_image (window, TRUE, &w, &h);
  dark = tm_window_build_timeline_image (window, FALSE, &dw, &dh);
  g_assert_nonnull (light);
  g_assert_cmpint (h, ==, dh);
  g_assert_cmpint (h, >=, gtk_widget_get_height (child (window, "timeline")) + 24);
  g_assert_cmphex (pixel_at (light, w, h, 2, 2), ==, 0xffffff);
  g_assert_cmphex (pixel_at (dark, dw, dh, 2, 2), ==, 0x242424);

  /* The vector export draws the same range and size with the chart
   * layers: shapes and text, no picture. */
  {
    g_autoptr(TmChart) chart = NULL;
    g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
    g_autoptr(GError) error = NULL;
    const TmChartGeometry *g;
    TmChartPalette palette;
    const char *svg;

    chart = tm_window_build_timeline_chart (window, TRUE, &palette);
    g_assert_nonnull (chart);
    g = tm_chart_get_geometry (chart);
    g_assert_cmpint (g->start_ps, ==, 2 * MS);
    g_assert_cmpint (g->end_ps, ==, 9 * MS);
    g_assert_cmpint (g->width, ==, w);
    g_assert_cmpint (g->height + TM_CHART_TITLE_HEIGHT, ==, h);
    g_assert_false (palette.dark);
    g_assert_true (tm_chart_write_svg (chart, title, &palette, NULL, out, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
    g_assert_true (g_output_stream_close (out, NULL, NULL));
    svg = g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out));
    g_assert_null (strstr (svg, "<image"));
    g_assert_nonnull (strstr (svg, "<path"));
    g_assert_nonnull (strstr (svg, "2.000 ms – 9.000 ms</text>"));
    g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export-timeline-svg"));
  }

  /* The toast says where it went and can open it; it hides itself. */
  tm_window_show_saved (window, saved);
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (child (window, "toast_revealer"))));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (child (window, "toast_label"))), ==,
                   "Saved to polish-GPU_0_bfc-timeline.png");
  g_assert_true (gtk_widget_get_visible (child (window, "toast_open_button")));
  g_signal_emit_by_name (child (window, "toast_close_button"), "clicked");
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (child (window, "toast_revealer"))));

  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
  tm_test_destroy_window (window);
}

/* ------------------------------------------------------------------ */

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

  write_fixture ();

  g_test_add_func ("/polish/layout", test_layout);
  g_test_add_func ("/polish/layout-saved", test_layout_saved);
  g_test_add_func ("/polish/legend-toggles", test_legend_toggles);
  g_test_add_func ("/polish/op-name-shortening", test_op_name_shortening);
  g_test_add_func ("/polish/op-column", test_op_column);
  g_test_add_func ("/polish/recent-files", test_recent_files);
  g_test_add_func ("/polish/hlo-filter", test_hlo_filter);
  g_test_add_func ("/polish/range-figures", test_range_figures);
  g_test_add_func ("/polish/export", test_export_polish);

  status = g_test_run ();

  tm_fixture_remove (fixture_dir);
  tm_fixture_remove (data_home);
  g_free (fixture_dir);
  g_free (fixture_path);

  return status;
}
