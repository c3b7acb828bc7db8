/* test-usability.c — what a new user tripped over: the window at 800×600,
 * picking, the CSV of what is shown, fragmentation on dense data, Thai,
 * the shortcuts window, keys, values that are not in the file
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

#include "tm-allocation-row.h"
#include "tm-application.h"
#include "tm-breakdown-view.h"
#include "tm-format.h"
#include "tm-test-util.h"
#include "tm-timeline.h"
#include "tm-timeline-private.h"
#include "tm-window.h"
#include "tm-gui-test-util.h"

#define MIB (G_GINT64_CONSTANT (1) << 20)
#define GIB (G_GINT64_CONSTANT (1) << 30)

static char *fixture_dir;
static char *fixture_path;   /* GPU_0_bfc: named and unnamed allocations, HLO modules */


/* ------------------------------------------------------------------ */
/* Fixture                                                             */

/* GPU_0_bfc on a 16 GiB device: allocations at 1, 2, 3 … ms, a quiet
 * stretch from 10 to 90 ms, then more; one allocation with nothing but
 * its sizes (no op, no step, no address, no request); two HLO modules. */
static void
write_fixture (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixturePlane *host = tm_fixture_space_add_plane (space, "/host:CPU");
  TmFixtureLine *line = tm_fixture_plane_add_line (host, "Memory", 0);
  static const gint64 times_ms[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 90, 91, 92, 93 };
  g_autoptr(GError) error = NULL;
  gint64 heap = 0;

  for (guint i = 0; i < G_N_ELEMENTS (times_ms); i++)
    {
      g_autofree char *op = g_strdup_printf ("model/layer_%u/attention/dropout_%u/dropout/Cast", i, i % 3);
      TmFixtureMemory memory = {
        .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME,
        .allocator_name = "GPU_0_bfc",
      };
      gint64 bytes = (gint64) (i + 1) * 2 * MIB;

      heap += bytes;
      memory.bytes_allocated = heap;
      memory.bytes_available = 16 * GIB - heap;
      memory.fragmentation = (i % 2) ? 0.9 : 0.05;
      memory.peak_bytes_in_use = heap;
      memory.requested_bytes = bytes;
      memory.allocation_bytes = bytes;
      memory.addr = 0x7f0000000000 + (guint64) i * 0x1000000;
      memory.tf_op = op;
      memory.has_group_id = TRUE;
      memory.group_id = i < 2 ? 2 : 3;
      memory.region_type = "output";
      memory.data_type = 1;
      memory.shape = "[8,64]";
      if (i == 4)
        memory.absent = TM_FIXTURE_FIELD_TF_OP | TM_FIXTURE_FIELD_GROUP_ID |
                        TM_FIXTURE_FIELD_ADDR | TM_FIXTURE_FIELD_REQUESTED_BYTES |
                        TM_FIXTURE_FIELD_REGION_TYPE | TM_FIXTURE_FIELD_SHAPE;
      tm_fixture_line_add_memory_event (line, TRUE, times_ms[i] * 1000000000, &memory);
    }
  tm_fixture_space_add_hlo_module (space, 0, "jit_train_step", 1000000000, 9000000000);
  tm_fixture_space_add_hlo_module (space, 0, "", 90000000000, 93000000000);

  fixture_path = tm_fixture_space_write (space, fixture_dir, "usability.xplane.pb", &error);
  g_assert_no_error (error);
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static void
collect_labels (GtkWidget *widget,
                GString   *out)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_LABEL (child))
        {
          g_string_append (out, gtk_label_get_label (GTK_LABEL (child)));
          g_string_append_c (out, '\n');
        }
      collect_labels (child, out);
    }
}

static void
collect_shortcuts (GtkWidget *widget,
                   GPtrArray *out)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_SHORTCUTS_SHORTCUT (child))
        g_ptr_array_add (out, child);
      collect_shortcuts (child, out);
    }
}


/* Thai from the build tree's translations, for the rest of the test. */
static void
use_thai (gboolean thai)
{
  if (thai)
    {
      bindtextdomain (GETTEXT_PACKAGE, BUILD_LOCALEDIR);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      textdomain (GETTEXT_PACKAGE);
      g_setenv ("LANGUAGE", "th", TRUE);
    }
  else
    {
      /* Binding again also drops the translations gettext cached. */
      bindtextdomain (GETTEXT_PACKAGE, "/nonexistent");
      g_setenv ("LANGUAGE", "en", TRUE);
    }
  setlocale (LC_MESSAGES, "C.UTF-8");
}

static void
set_dark (gboolean dark)
{
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", dark, NULL);
}

/* ------------------------------------------------------------------ */
/* Bug 1: the window at 800×600                                        */

static void
assert_fits_800_600 (const char *path,
                     gboolean    thai,
                     gboolean    dark)
{
  TmWindow *window;
  int min_w, min_h, nat;

  use_thai (thai);
  set_dark (dark);
  window = tm_test_new_window ();
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  tm_test_open_and_wait (window, path);

  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, &nat, NULL, NULL);
  /* The toplevel's minimum height is the one for its minimum width. */
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_VERTICAL, min_w, &min_h, &nat, NULL, NULL);
  g_test_message ("%s%s%s: minimum %d × %d", path, thai ? " (Thai)" : "", dark ? " (dark)" : "", min_w, min_h);
  g_assert_cmpint (min_w, <=, 800);
  g_assert_cmpint (min_h, <=, 600);

  /* Opening a file does not make the window grow by itself. */
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 800);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), <=, 600);

  tm_test_destroy_window (window);
  use_thai (FALSE);
  set_dark (FALSE);
}

static void
test_window_800_600 (void)
{
  g_autofree char *gpu = tm_test_real_profile ("tf_gpu_multi_worker.xplane.pb");
  g_autofree char *tpu = tm_test_real_profile ("xprof_tpu_training.memory_profile.json");

  assert_fits_800_600 (fixture_path, FALSE, FALSE);
  assert_fits_800_600 (fixture_path, TRUE, FALSE);
  if (gpu == NULL || tpu == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }
  assert_fits_800_600 (gpu, FALSE, FALSE);
  assert_fits_800_600 (gpu, FALSE, TRUE);
  assert_fits_800_600 (gpu, TRUE, FALSE);
  assert_fits_800_600 (tpu, FALSE, FALSE);
  assert_fits_800_600 (tpu, TRUE, TRUE);
}

/* ------------------------------------------------------------------ */
/* Bug 2: hover and click answer for the time under the pointer         */

static gboolean
session_has_selected_time (gpointer data)
{
  return tm_session_get_has_selected_time (TM_SESSION (data));
}

static void
test_pick_under_pointer (void)
{
  TmWindow *window = tm_test_new_window ();
  TmSession *session;
  TmTimeline *timeline;
  TmTimelineLayout layout;
  GtkGestureClick *click;
  g_autofree char *markup = NULL;
  gint64 t = 55 * G_GINT64_CONSTANT (1000000000);   /* 55 ms: no event from 10 to 90 ms */
  gint64 pixel_ps;
  int double_click_ms = 400;
  guint index;
  double x;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  tm_test_open_and_wait (window, fixture_path);
  session = tm_window_get_session (window);
  timeline = TM_TIMELINE (tm_test_template_child (window, TM_TYPE_WINDOW, "timeline"));

  /* Zoomed into the quiet stretch: no event on screen. */
  tm_viewport_set_range (tm_session_get_viewport (session),
                         40 * G_GINT64_CONSTANT (1000000000), 60 * G_GINT64_CONSTANT (1000000000));
  tm_test_wait_layout_settled (GTK_WIDGET (window));
  tm_timeline_get_layout (timeline, &layout);
  x = layout.plot.origin.x + layout.plot.size.width * 0.75;
  pixel_ps = (gint64) (20e9 / layout.plot.size.width) + 1;

  /* The state at 55 ms is the one after the event at 10 ms (index 9),
   * not the nearer event at 90 ms, which is off screen. */
  g_assert_true (tm_timeline_pick (timeline, x, &index));
  g_assert_cmpuint (index, ==, 9);
  markup = tm_timeline_describe_snapshot (timeline, index);
  g_assert_nonnull (strstr (markup, "10.000 ms"));

  /* A click selects the time under the pointer. */
  click = tm_test_find_click_gesture (GTK_WIDGET (timeline), FALSE);
  g_assert_nonnull (click);
  g_signal_emit_by_name (click, "pressed", 1, x, layout.plot.origin.y + 20);
  g_signal_emit_by_name (click, "released", 1, x, layout.plot.origin.y + 20);
  g_object_get (gtk_widget_get_settings (GTK_WIDGET (timeline)), "gtk-double-click-time", &double_click_ms, NULL);
  /* Not before the double-click time has passed; then soon. */
  tm_test_iterate_for (double_click_ms / 2);
  g_assert_false (tm_session_get_has_selected_time (session));
  tm_test_iterate_until (session_has_selected_time, session);
  g_assert_cmpint (llabs (tm_session_get_selected_time (session) - t), <=, pixel_ps);

  /* "Live at" that time: the breakdown is the one at 55 ms, exact. */
  g_assert_false (tm_breakdown_view_get_at_peak (TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"))));
  g_assert_cmpint (tm_breakdown_view_get_time_ps (TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"))), ==,
                   tm_session_get_selected_time (session));
  g_assert_cmpuint (tm_breakdown_view_get_n_rows (TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"))), ==, 10);

  tm_test_destroy_window (window);
}

/* ------------------------------------------------------------------ */
/* Bug 3: the CSV is what the table shows                               */

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

  tm_test_open_and_wait (window, fixture_path);
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
/* Bug 7: keys go where they belong                                     */

static gboolean
focus_ring_drawn (TmTimeline *timeline)
{
  GtkWidget *widget = GTK_WIDGET (timeline);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guchar *data = NULL;
  TmTimelineLayout layout;
  int x, y;
  guchar *px;

  /* What the widget draws on screen, overlay included. */
  gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 1, 1, 1, 1 }, &GRAPHENE_RECT_INIT (0, 0, width, height));
  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_true (gsk_renderer_realize (renderer, NULL, NULL));
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_renderer_unrealize (renderer);
  data = g_malloc (width * height * 4);
  gdk_texture_download (texture, data, width * 4);

  /* The ring runs just outside the plot's top edge, in the accent. */
  tm_timeline_get_layout (timeline, &layout);
  x = (int) (layout.plot.origin.x + layout.plot.size.width / 2);
  y = (int) layout.plot.origin.y - 1;
  px = data + (gsize) y * width * 4 + (gsize) x * 4;
  return px[3] > 0 && px[0] > px[2] + 40;   /* blue over red: the accent */
}

static void
test_keys (void)
{
  TmWindow *window = tm_test_new_window ();
  TmBreakdownView *view;
  TmTimeline *timeline;
  TmViewport *viewport;
  GtkWidget *entry;
  gint64 span;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  tm_test_open_and_wait (window, fixture_path);
  view = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  timeline = TM_TIMELINE (tm_test_template_child (window, TM_TYPE_WINDOW, "timeline"));
  viewport = tm_session_get_viewport (tm_window_get_session (window));

  /* Typing in the table does not go into the filter ("+" zooms). */
  entry = tm_test_template_child (view, TM_TYPE_BREAKDOWN_VIEW, "search_entry");
  g_assert_null (gtk_search_entry_get_key_capture_widget (GTK_SEARCH_ENTRY (entry)));

  /* Zoom keys work with the table focused: the window's actions. */
  gtk_widget_grab_focus (GTK_WIDGET (tm_breakdown_view_get_column_view (view)));
  span = tm_viewport_get_span (viewport);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.zoom-in", NULL));
  g_assert_cmpint (tm_viewport_get_span (viewport), <, span);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.zoom-reset", NULL));
  g_assert_cmpint (tm_viewport_get_span (viewport), ==, span);

  /* A focused timeline shows a focus ring, a clicked one too. */
  g_assert_false (focus_ring_drawn (timeline));
  gtk_widget_grab_focus (GTK_WIDGET (timeline));
  tm_test_iterate_for (50);
  g_assert_true (focus_ring_drawn (timeline));

  tm_test_destroy_window (window);
}

/* ------------------------------------------------------------------ */
/* Bug 8: nothing made up for what the file does not say                */

static TmAllocationRow *
find_row (TmBreakdownView *view,
          gboolean       (*match) (TmAllocationRow *row))
{
  GListModel *model = tm_breakdown_view_get_model (view);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TmAllocationRow) row = g_list_model_get_item (model, i);

      if (match (row))
        return row;   /* the model keeps it */
    }
  return NULL;
}

static gboolean
is_unnamed (TmAllocationRow *row)
{
  return !tm_allocation_row_get_special (row) && tm_allocation_row_get_op_name (row)[0] == '\0';
}

static gboolean
is_unused_preallocated (TmAllocationRow *row)
{
  return g_str_equal (tm_allocation_row_get_op_name (row), "unused preallocated device memory");
}

static void
test_no_invented_values (void)
{
  TmWindow *window = tm_test_new_window ();
  TmBreakdownView *view;
  TmTimeline *timeline;
  TmAllocationRow *row;
  g_autofree char *tooltip = NULL;
  g_autofree char *event = NULL;

  tm_test_open_and_wait (window, fixture_path);
  view = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  tm_breakdown_view_set_hide_small (view, FALSE);
  /* Everything live at the end (the peak table has only step 3). */
  tm_session_select_time (tm_window_get_session (window), 93 * G_GINT64_CONSTANT (1000000000));

  /* The allocation with nothing but its sizes: "unknown" op, no address,
   * no step. */
  row = find_row (view, is_unnamed);
  g_assert_nonnull (row);
  g_assert_cmpstr (tm_allocation_row_get_display_name (row), ==, "unknown");
  tooltip = tm_allocation_row_describe (row);
  g_assert_nonnull (strstr (tooltip, "unknown"));
  g_assert_null (strstr (tooltip, "0x0"));
  g_assert_null (strstr (tooltip, "step -1"));

  /* Its event on the timeline. */
  timeline = TM_TIMELINE (tm_test_template_child (window, TM_TYPE_WINDOW, "timeline"));
  event = tm_timeline_describe_snapshot (timeline, 4);
  g_assert_null (strstr (event, "Step -1"));
  g_assert_null (strstr (event, "Requested 0 B"));
  g_assert_nonnull (strstr (event, "Op: unknown"));

  tm_test_destroy_window (window);
}

/* ------------------------------------------------------------------ */
/* Bug 5: Thai                                                          */

static void
test_thai (void)
{
  TmWindow *window;
  TmBreakdownView *view;
  TmAllocationRow *row;
  GtkColumnView *column_view;
  g_autoptr(GtkColumnViewColumn) shape = NULL;
  GtkWidget *detail;
  const char *exe = g_getenv ("TM_TIDEMARK_EXE");

  /* The program run from the build tree speaks Thai. */
  if (exe != NULL)
    {
      g_autofree char *err = NULL;
      g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "LANGUAGE", "th", TRUE);
      int status;

      env = g_environ_setenv (env, "LC_ALL", "C.UTF-8", TRUE);
      env = g_environ_unsetenv (env, "TIDEMARK_LOCALEDIR");
      g_assert_true (g_spawn_sync (NULL, (char *[]) { (char *) exe, "--export=bogus", "x", NULL }, env,
                                   G_SPAWN_DEFAULT, NULL, NULL, NULL, &err, &status, NULL));
      g_test_message ("%s", err);
      g_assert_nonnull (strstr (err, "รับค่า"));
    }

  use_thai (TRUE);
  window = tm_test_new_window ();
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  tm_test_open_and_wait (window, fixture_path);
  view = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));

  /* The special row at the peak is translated. */
  row = find_row (view, is_unused_preallocated);
  g_assert_nonnull (row);
  g_assert_cmpstr (tm_allocation_row_get_display_name (row), !=, "unused preallocated device memory");

  /* So is the Shape column. */
  column_view = tm_breakdown_view_get_column_view (view);
  shape = g_list_model_get_item (gtk_column_view_get_columns (column_view), 6);
  g_assert_cmpstr (gtk_column_view_column_get_title (shape), !=, "Shape");

  /* The Lifetime Peak Heap subtitle is whole at 800 × 600. */
  tm_test_iterate_for (100);
  detail = tm_test_template_child (TM_SUMMARY_CARDS (tm_test_find_widget (window, "summary_cards")), g_type_from_name ("TmSummaryCards"), "lifetime_detail");
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (detail))));

  tm_test_destroy_window (window);
  use_thai (FALSE);
}

/* ------------------------------------------------------------------ */
/* Gap: the y scale                                                     */

static void
test_y_scale (void)
{
  TmWindow *window = tm_test_new_window ();
  TmSession *session;
  TmTimeline *timeline;
  TmTimelineLayout layout;
  gint64 fit_all, fit_zoomed, capacity;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  tm_test_open_and_wait (window, fixture_path);
  session = tm_window_get_session (window);
  timeline = TM_TIMELINE (tm_test_template_child (window, TM_TYPE_WINDOW, "timeline"));

  /* Fit by default: about the memory in use (210 MiB), not the 16 GiB
   * device. */
  g_assert_cmpint (tm_timeline_get_y_scale (timeline), ==, TM_Y_SCALE_FIT);
  tm_timeline_get_layout (timeline, &layout);
  fit_all = layout.y_max;
  g_assert_cmpint (fit_all, >=, 210 * MIB);
  g_assert_cmpint (fit_all, <, 512 * MIB);

  /* Zoomed into the first 3 ms it fits again (6 + 4 + 2 MiB in use). */
  tm_viewport_set_range (tm_session_get_viewport (session), 0, 3 * G_GINT64_CONSTANT (1000000000));
  tm_timeline_get_layout (timeline, &layout);
  fit_zoomed = layout.y_max;
  g_assert_cmpint (fit_zoomed, >=, 12 * MIB);
  g_assert_cmpint (fit_zoomed, <, fit_all);

  /* Capacity: the whole device, from the menu's action. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "y-scale", g_variant_new_string ("capacity"));
  g_assert_cmpint (tm_timeline_get_y_scale (timeline), ==, TM_Y_SCALE_CAPACITY);
  tm_timeline_get_layout (timeline, &layout);
  capacity = layout.y_max;
  g_assert_cmpint (capacity, >=, 16 * GIB);

  tm_test_destroy_window (window);
}

/* ------------------------------------------------------------------ */
/* Bug 6: the shortcuts window                                         */

static gboolean
has_shortcut_titled (GPtrArray  *shortcuts,
                     const char *title)
{
  for (guint i = 0; i < shortcuts->len; i++)
    {
      g_autofree char *t = NULL;

      g_object_get (g_ptr_array_index (shortcuts, i), "title", &t, NULL);
      if (g_strcmp0 (t, title) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
test_shortcuts_window (void)
{
  g_autoptr(TmApplication) app = tm_application_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) shortcuts = g_ptr_array_new ();
  g_autoptr(GString) labels = g_string_new (NULL);
  static const char * const wanted[] = {
    "Zoom at the pointer",
    "Pan",
    "Zoom to a range",
    "Show the whole profile",
    "Show what was live at a time",
    "Back to the peak",
    "Export the timeline as PNG",
    "Export the table as CSV",
    "Export XProf memory profile",
  };
  GtkShortcutsWindow *overlay;
  TmWindow *window;

  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  window = tm_window_new (app);
  overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));
  g_assert_nonnull (overlay);
  gtk_widget_set_visible (GTK_WIDGET (overlay), TRUE);
  tm_test_iterate_for (100);

  collect_shortcuts (GTK_WIDGET (overlay), shortcuts);
  collect_labels (GTK_WIDGET (overlay), labels);

  /* The wheel is not a two-finger swipe. */
  for (guint i = 0; i < shortcuts->len; i++)
    {
      GtkShortcutType type;

      g_object_get (g_ptr_array_index (shortcuts, i), "shortcut-type", &type, NULL);
      g_assert_cmpint (type, !=, GTK_SHORTCUT_GESTURE_TWO_FINGER_SWIPE_RIGHT);
      g_assert_cmpint (type, !=, GTK_SHORTCUT_GESTURE_TWO_FINGER_SWIPE_LEFT);
    }

  /* Page Up and Page Down read as words, not key names. */
  g_assert_null (strstr (labels->str, "Page_Up"));
  g_assert_null (strstr (labels->str, "Page_Down"));
  g_assert_nonnull (strstr (labels->str, "Page Up"));

  for (guint i = 0; i < G_N_ELEMENTS (wanted); i++)
    {
      if (!has_shortcut_titled (shortcuts, wanted[i]))
        g_error ("no shortcut titled “%s”", wanted[i]);
    }

  gtk_window_destroy (GTK_WINDOW (overlay));
  gtk_window_destroy (GTK_WINDOW (window));
  tm_test_iterate_for (50);
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

  g_test_add_func ("/usability/window-800-600", test_window_800_600);
  g_test_add_func ("/usability/pick-under-pointer", test_pick_under_pointer);
  g_test_add_func ("/usability/csv-of-shown-rows", test_csv_of_shown_rows);
  g_test_add_func ("/usability/keys", test_keys);
  g_test_add_func ("/usability/no-invented-values", test_no_invented_values);
  g_test_add_func ("/usability/thai", test_thai);
  g_test_add_func ("/usability/y-scale", test_y_scale);
  g_test_add_func ("/usability/shortcuts-window", test_shortcuts_window);

  status = g_test_run ();

  tm_fixture_remove (fixture_dir);
  tm_fixture_remove (data_home);

  return status;
}
