/* test-memory-viewer-view.c — the Memory Viewer page in a window, under Xvfb
 * (docs/ui.md, "Memory Viewer")
 *
 * On the page's fixture (tm_hlo_fixture_new_viewer_space), a sidecar, a
 * profile whose modules' plans are missing, and the real MI300X profile
 * of $TM_REAL_PROFILES: nothing read at open, the default module, the
 * dropdowns, the table and its sort, the details, the keys, memory
 * spaces and modules honoured, an op's buffers, the plan against the run,
 * and the links with the timeline: a click on an execution opens its
 * module, its planned level is drawn (and exported) over its executions,
 * and the page goes back to them.
 */
#include "config.h"

#include <string.h>

#include "tm-allocation-row.h"
#include "tm-breakdown-view.h"
#include "tm-buffer-row.h"
#include "tm-chart-export.h"
#include "tm-fixture-writer.h"
#include "tm-gui-test-util.h"
#include "tm-hlo-fixture.h"
#include "tm-memory-viewer-query.h"
#include "tm-memory-viewer-view.h"
#include "tm-static-selection.h"
#include "tm-timeline-private.h"
#include "tm-viewport.h"
#include "tm-window.h"
#include "tm-test-util.h"

static char *fixture_dir;
static char *fixture_path;

#define MiB ((gint64) 1 << 20)

static GtkWidget *
get_view (TmWindow *window)
{
  GtkStack *stack = GTK_STACK (tm_test_template_child (window, TM_TYPE_WINDOW, "main_stack"));
  GtkWidget *view = gtk_stack_get_child_by_name (stack, "memory-viewer");

  g_assert_true (TM_IS_MEMORY_VIEWER_VIEW (view));
  return view;
}

static const char *
shown_page (TmWindow *window)
{
  return gtk_stack_get_visible_child_name (GTK_STACK (tm_test_template_child (window, TM_TYPE_WINDOW, "main_stack")));
}

static TmMemoryViewerQuery *
get_query (TmWindow *window)
{
  return tm_memory_viewer_query_get_for_session (tm_window_get_session (window));
}

static gboolean
result_ready (gpointer data)
{
  TmMemoryViewerQuery *query = get_query (data);

  return tm_memory_viewer_query_get_state (query) == TM_MEMORY_VIEWER_READY &&
         !tm_memory_viewer_query_get_pending (query) &&
         (tm_memory_viewer_query_get_result (query) != NULL || tm_memory_viewer_query_get_error (query) != NULL ||
          tm_memory_viewer_query_get_plans (query)->len == 0);
}

static gboolean
op_searched (gpointer data)
{
  return tm_memory_viewer_query_get_op_matches (get_query (data)) != NULL && result_ready (data);
}

static void
show_viewer (TmWindow *window)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "memory-viewer"));
  g_assert_cmpstr (shown_page (window), ==, "memory-viewer");
  tm_test_iterate_until (result_ready, window);
  tm_test_iterate_for (50);
}

static const TmStaticSelection *
selection (TmWindow *window)
{
  return tm_session_get_static_selection (tm_window_get_session (window));
}

static GListModel *
table (GtkWidget *view)
{
  GtkColumnView *column_view = GTK_COLUMN_VIEW (tm_test_template_child (view, TM_TYPE_MEMORY_VIEWER_VIEW,
                                                                        "column_view"));

  return G_LIST_MODEL (gtk_column_view_get_model (column_view));
}

static gint64
row_size (GListModel *model,
          guint       i)
{
  g_autoptr(TmBufferRow) row = g_list_model_get_item (model, i);
  gint64 size = 0;

  g_object_get (row, "size", &size, NULL);
  return size;
}

static const char *
dropdown_item (GtkWidget *view,
               const char *name,
               guint       i)
{
  GtkDropDown *dropdown = GTK_DROP_DOWN (tm_test_template_child (view, TM_TYPE_MEMORY_VIEWER_VIEW, name));
  g_autoptr(GtkStringObject) item = g_list_model_get_item (gtk_drop_down_get_model (dropdown), i);

  return item != NULL ? gtk_string_object_get_string (item) : NULL;
}

static guint
dropdown_n_items (GtkWidget  *view,
                  const char *name)
{
  GtkDropDown *dropdown = GTK_DROP_DOWN (tm_test_template_child (view, TM_TYPE_MEMORY_VIEWER_VIEW, name));

  return g_list_model_get_n_items (gtk_drop_down_get_model (dropdown));
}

/* Whether some label under widget has text containing needle. */
static gboolean
has_text (GtkWidget  *widget,
          const char *needle)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), needle) != NULL)
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (has_text (c, needle))
      return TRUE;
  return FALSE;
}

/* The header bar's toggle for the Memory Viewer page. */
static GtkWidget *
find_toggle (GtkWidget *widget)
{
  if (GTK_IS_TOGGLE_BUTTON (widget) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), "win.show-page") == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_toggle (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
switch_shown (TmWindow *window)
{
  GtkWidget *toggle = find_toggle (gtk_window_get_titlebar (GTK_WINDOW (window)));

  g_assert_nonnull (toggle);
  return gtk_widget_get_visible (gtk_widget_get_parent (toggle));
}

/* Sends a key to widget's key controller, as the keyboard would. */
static gboolean
press_key (GtkWidget *widget,
           guint      keyval)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (c))
        g_signal_emit_by_name (c, "key-pressed", keyval, 0, 0, &handled);
    }
  return handled;
}

/* The page on the fixture: nothing read at open, then the default, the
 * table, its sort, the details, the keys, another memory space, another
 * module, the plan against the run. */
static void
test_fixture (void)
{
  TmWindow *window = tm_test_new_window ();
  GtkWidget *view, *grid, *heap, *bars;
  GtkDropDown *space_dropdown, *module_dropdown;
  GtkColumnView *column_view;
  GListModel *model;
  const TmBufferAssignment *r;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  tm_test_open_and_wait (window, fixture_path);

  /* Opening reads no module, nor makes the page: both wait for it to be
   * shown. */
  g_assert_null (gtk_stack_get_child_by_name (GTK_STACK (tm_test_template_child (window, TM_TYPE_WINDOW, "main_stack")),
                                              "memory-viewer"));
  g_assert_cmpstr (shown_page (window), ==, "profile");
  g_assert_true (switch_shown (window));
  g_assert_cmpint (tm_memory_viewer_query_get_state (get_query (window)), ==, TM_MEMORY_VIEWER_IDLE);
  g_assert_null (selection (window));

  show_viewer (window);
  view = get_view (window);
  /* The default: the most heap simulator events, memory space 0. */
  g_assert_cmpstr (selection (window)->module, ==, "jit_train_step(1)");
  g_assert_cmpint (selection (window)->memory_space, ==, 0);
  r = tm_memory_viewer_query_get_result (get_query (window));
  g_assert_cmpint (tm_buffer_assignment_get_peak (r), ==, 18 * MiB + 4096);
  g_assert_cmpuint (dropdown_n_items (view, "module_dropdown"), ==, 3);
  g_assert_true (g_str_has_prefix (dropdown_item (view, "module_dropdown", 0), "jit_train_step(1) · 18.0 MiB"));
  g_assert_true (g_str_has_prefix (dropdown_item (view, "module_dropdown", 1), "test_module(2)"));
  g_assert_true (strstr (dropdown_item (view, "module_dropdown", 2), "b(3)") != NULL);
  g_assert_cmpuint (dropdown_n_items (view, "space_dropdown"), ==, 2);
  g_assert_true (has_text (view, "Padding Overhead"));
  g_assert_true (has_text (view, "counted twice"));

  /* The table: the objects at the peak, largest first. */
  model = table (view);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 5);
  g_assert_cmpint (row_size (model, 0), ==, 8 * MiB);
  g_assert_cmpint (row_size (model, 4), ==, 4096);
  column_view = GTK_COLUMN_VIEW (tm_test_template_child (view, TM_TYPE_MEMORY_VIEWER_VIEW, "column_view"));
  {
    g_autoptr(GtkColumnViewColumn) number = g_list_model_get_item (gtk_column_view_get_columns (column_view), 0);

    gtk_column_view_sort_by_column (column_view, number, GTK_SORT_ASCENDING);
    g_assert_cmpint (row_size (model, 0), ==, 4 * MiB);   /* param.0, first in program order */
    g_assert_cmpint (row_size (model, 3), ==, 5 * MiB);   /* fusion.2 */
  }

  /* Details of the row selected: shape with layout, padding, source. */
  grid = tm_test_template_child (view, TM_TYPE_MEMORY_VIEWER_VIEW, "details_grid");
  g_assert_true (has_text (grid, "Select a buffer"));
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model), 3);
  g_assert_true (has_text (grid, "fusion.2{0}"));
  g_assert_true (has_text (grid, "f32[1024,1024]{1,0}"));
  g_assert_true (has_text (grid, "1.00 MiB ("));
  g_assert_true (has_text (grid, "train.py:12"));
  g_assert_true (has_text (grid, "Temporary"));

  /* Keys: the heap's cursor, the bars' selection. */
  /* Each chart is the first child of its box, its read-out the second. */
  heap = gtk_widget_get_first_child (tm_test_template_child (view, TM_TYPE_MEMORY_VIEWER_VIEW, "heap_box"));
  g_assert_true (press_key (heap, GDK_KEY_Home));
  g_assert_true (has_text (view, "Point 0, before"));
  g_assert_true (press_key (heap, GDK_KEY_End));
  g_assert_true (has_text (view, "Point 8, after the last event"));
  g_assert_true (press_key (heap, GDK_KEY_Left));
  g_assert_true (has_text (view, "Point 7, before"));
  bars = gtk_widget_get_first_child (tm_test_template_child (view, TM_TYPE_MEMORY_VIEWER_VIEW, "bars_box"));
  g_assert_true (press_key (bars, GDK_KEY_Left));   /* from fusion.2 (3) to dot.1 (2) */
  g_assert_true (has_text (grid, "dot.1{0}"));
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model)), ==, 2);

  /* Another memory space: honoured, the module stays. */
  space_dropdown = GTK_DROP_DOWN (tm_test_template_child (view, TM_TYPE_MEMORY_VIEWER_VIEW, "space_dropdown"));
  gtk_drop_down_set_selected (space_dropdown, 1);
  tm_test_iterate_until (result_ready, window);
  tm_test_iterate_for (20);
  g_assert_cmpstr (selection (window)->module, ==, "jit_train_step(1)");
  g_assert_cmpint (selection (window)->memory_space, ==, 1);
  r = tm_memory_viewer_query_get_result (get_query (window));
  g_assert_cmpint (r->memory_space, ==, 1);
  g_assert_cmpint (tm_buffer_assignment_get_peak (r), ==, 256 << 10);
  g_assert_true (has_text (view, "Scoped VMEM"));
  g_assert_cmpuint (gtk_drop_down_get_selected (space_dropdown), ==, 1);
  g_assert_false (gtk_widget_get_visible (tm_test_template_child (view, TM_TYPE_MEMORY_VIEWER_VIEW, "compare_box")));

  /* Another module: honoured, in memory space 0. */
  module_dropdown = GTK_DROP_DOWN (tm_test_template_child (view, TM_TYPE_MEMORY_VIEWER_VIEW, "module_dropdown"));
  gtk_drop_down_set_selected (module_dropdown, 1);
  tm_test_iterate_until (result_ready, window);
  tm_test_iterate_for (20);
  g_assert_cmpstr (selection (window)->module, ==, "test_module(2)");
  g_assert_cmpint (selection (window)->memory_space, ==, 0);
  r = tm_memory_viewer_query_get_result (get_query (window));
  g_assert_cmpstr (r->module_name, ==, "test_module");
  g_assert_cmpuint (gtk_drop_down_get_selected (module_dropdown), ==, 1);

  /* A module that does not decode says why. */
  gtk_drop_down_set_selected (module_dropdown, 2);
  tm_test_iterate_until (result_ready, window);
  tm_test_iterate_for (20);
  g_assert_null (tm_memory_viewer_query_get_result (get_query (window)));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (tm_test_template_child (view, TM_TYPE_MEMORY_VIEWER_VIEW,
                                                                                        "module_stack"))), ==, "error");
  g_assert_true (has_text (view, "malformed"));

  /* Back to the memory profile: the same window, the same session. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "memory-profile"));
  g_assert_cmpstr (shown_page (window), ==, "profile");

  tm_test_destroy_window (window);
}

/* An op of the breakdown table leads to its buffers: the action on its
 * row shows the page, the module that has them, only them in the table. */
static void
test_op_link (void)
{
  TmWindow *window = tm_test_new_window ();
  TmBreakdownView *breakdown;
  GtkSelectionModel *rows;
  GtkWidget *view;
  guint found = G_MAXUINT;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  tm_test_open_and_wait (window, fixture_path);

  /* Start on another module, so that the op's module is shown for it. */
  show_viewer (window);
  view = get_view (window);
  tm_static_selection_show_module (tm_window_get_session (window), "test_module(2)", 0);
  tm_test_iterate_until (result_ready, window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "memory-profile"));

  breakdown = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  rows = gtk_column_view_get_model (tm_breakdown_view_get_column_view (breakdown));
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (rows)); i++)
    {
      g_autoptr(TmAllocationRow) row = g_list_model_get_item (G_LIST_MODEL (rows), i);

      if (g_str_equal (tm_allocation_row_get_op_name (row), "jit(train_step)/dot_general"))
        found = i;
    }
  g_assert_cmpuint (found, !=, G_MAXUINT);
  gtk_selection_model_select_item (rows, found, TRUE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (breakdown), "breakdown.show-buffers", NULL));
  g_assert_cmpstr (shown_page (window), ==, "memory-viewer");
  g_assert_cmpstr (selection (window)->op, ==, "jit(train_step)/dot_general");

  tm_test_iterate_until (op_searched, window);
  tm_test_iterate_for (50);
  tm_test_iterate_until (result_ready, window);
  g_assert_cmpstr (selection (window)->module, ==, "jit_train_step(1)");
  g_assert_cmpuint (tm_memory_viewer_query_get_op_matches (get_query (window))->len, ==, 1);
  g_assert_true (has_text (view, "2 buffers"));
  /* dot.1 is the op's only buffer at the peak in memory space 0. */
  g_assert_cmpuint (g_list_model_get_n_items (table (view)), ==, 1);
  g_assert_cmpint (row_size (table (view), 0), ==, 8 * MiB);

  /* Show All Buffers ends it. */
  g_signal_emit_by_name (tm_test_template_child (view, TM_TYPE_MEMORY_VIEWER_VIEW, "op_clear_button"), "clicked");
  g_assert_null (selection (window)->op);
  tm_test_iterate_for (20);
  g_assert_cmpuint (g_list_model_get_n_items (table (view)), ==, 5);

  tm_test_destroy_window (window);
}

/* A sidecar opened by itself opens on the page; a profile whose modules
 * ran (the XLA Modules line) but whose plans are nowhere says what to do. */
static void
test_sidecar_and_missing (void)
{
  g_autoptr(TmHloFixture) f = tm_hlo_fixture_new_viewer ();
  g_autoptr(GBytes) bytes = tm_hlo_fixture_serialize (f);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tm_fixture_make_temp_dir (&error);
  g_autofree char *side = tm_fixture_write_bytes (bytes, dir, "jit_step(4).hlo_proto.pb", &error);
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autofree char *plain = NULL;
  TmWindow *window = tm_test_new_window ();
  GtkWidget *view;

  g_assert_no_error (error);
  tm_fixture_space_add_hlo_module (space, 0, "jit_step(4)", 0, 100000);
  plain = tm_fixture_space_write (space, NULL, "ran.xplane.pb", &error);
  g_assert_no_error (error);

  {
    g_autoptr(GFile) file = g_file_new_for_path (side);

    tm_window_open (window, file);
  }
  tm_test_iterate_until (tm_test_not_loading, window);
  tm_test_iterate_until (result_ready, window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_NO_DATA);
  g_assert_cmpstr (shown_page (window), ==, "memory-viewer");
  g_assert_cmpstr (selection (window)->module, ==, "jit_step(4)");
  g_assert_cmpint (tm_buffer_assignment_get_peak (tm_memory_viewer_query_get_result (get_query (window))), ==,
                   18 * MiB + 4096);

  tm_test_open_and_wait (window, plain);
  g_assert_cmpstr (shown_page (window), ==, "profile");
  g_assert_true (switch_shown (window));
  show_viewer (window);
  view = get_view (window);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (tm_test_template_child (view, TM_TYPE_MEMORY_VIEWER_VIEW,
                                                                                        "state_stack"))), ==, "missing");
  g_assert_true (has_text (view, ".hlo_proto.pb"));
  g_assert_true (has_text (view, "Flatpak"));

  /* Another profile opened over the page: its own default, nothing of
   * the one before. */
  tm_test_open_and_wait (window, fixture_path);
  show_viewer (window);
  g_assert_cmpstr (selection (window)->module, ==, "jit_train_step(1)");
  g_assert_cmpuint (tm_memory_viewer_query_get_plans (get_query (window))->len, ==, 3);

  tm_test_destroy_window (window);
  tm_fixture_remove (plain);
  tm_fixture_remove (dir);
}

/* In a sandbox, a profile the document portal gave by itself: its folder,
 * and so its sidecars, are out of reach, so the page is there and says
 * what to do rather than nothing; the same profile elsewhere, with neither
 * modules nor sidecars, has no page. */
static void
test_lone_portal_document (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  g_autofree char *doc = g_build_filename (g_get_user_runtime_dir (), "doc", "a1b2c3", NULL);
  g_autofree char *path = NULL;
  g_autofree char *plain = NULL;
  TmWindow *window = tm_test_new_window ();
  GtkWidget *view;

  g_assert_cmpint (g_mkdir_with_parents (doc, 0700), ==, 0);
  path = tm_fixture_space_write (space, doc, "plain.xplane.pb", &error);
  g_assert_no_error (error);
  plain = tm_fixture_space_write (space, NULL, "plain.xplane.pb", &error);
  g_assert_no_error (error);

  tm_test_open_and_wait (window, plain);
  tm_test_iterate_for (200);
  g_assert_false (switch_shown (window));

  tm_test_open_and_wait (window, path);
  g_assert_true (switch_shown (window));
  show_viewer (window);
  view = get_view (window);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (tm_test_template_child (view, TM_TYPE_MEMORY_VIEWER_VIEW,
                                                                                        "state_stack"))), ==, "missing");
  tm_test_destroy_window (window);
  tm_fixture_remove (plain);
  tm_fixture_remove (path);
}

/* 800 × 600: the page fits the window's width. */
static void
test_small_window (void)
{
  TmWindow *window = tm_test_new_window ();

  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  tm_test_open_and_wait (window, fixture_path);
  show_viewer (window);
  tm_test_wait_layout_settled (GTK_WIDGET (window));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 800);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), <=, 600);
  tm_test_destroy_window (window);
}

/* The real MI300X profile: the convolution first, XProf's figures, no
 * run to set its plan against (a GPU profile times no module). */
static void
test_real_profile (void)
{
  g_autofree char *path = tm_test_real_profile ("jax_rocm_mi300x_conv.xplane.pb");
  TmWindow *window;
  GtkWidget *view;
  GtkDropDown *module_dropdown;

  if (path == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }
  window = tm_test_new_window ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  tm_test_open_and_wait (window, path);
  g_assert_cmpint (tm_memory_viewer_query_get_state (get_query (window)), ==, TM_MEMORY_VIEWER_IDLE);
  show_viewer (window);
  view = get_view (window);

  g_assert_cmpstr (selection (window)->module, ==, "jit_forward_3d_conv(15)");
  g_assert_cmpuint (dropdown_n_items (view, "module_dropdown"), ==, 8);
  g_assert_true (g_str_has_prefix (dropdown_item (view, "module_dropdown", 1), "jit__multi_slice(13)"));
  g_assert_true (g_str_has_prefix (dropdown_item (view, "module_dropdown", 7), "jit_convert_element_type(1)"));
  g_assert_cmpint (tm_buffer_assignment_get_peak (tm_memory_viewer_query_get_result (get_query (window))), ==,
                   1158144000);
  g_assert_cmpuint (g_list_model_get_n_items (table (view)), ==, 6);
  g_assert_true (has_text (view, "raised by"));
  g_assert_true (has_text (view, "only TPU profiles"));

  module_dropdown = GTK_DROP_DOWN (tm_test_template_child (view, TM_TYPE_MEMORY_VIEWER_VIEW, "module_dropdown"));
  gtk_drop_down_set_selected (module_dropdown, 2);
  tm_test_iterate_until (result_ready, window);
  g_assert_cmpstr (selection (window)->module, ==, "jit__normal(9)");
  g_assert_cmpint (tm_buffer_assignment_get_peak (tm_memory_viewer_query_get_result (get_query (window))), ==,
                   51118092);

  tm_test_destroy_window (window);
}

/* The links with the run: the fixture's one execution of
 * jit_train_step(1) (2–10 ns, 6 MiB in use before it) clicked on the
 * timeline's band opens its module on the page; its planned level (live
 * before + static peak) is then drawn over the execution, described,
 * exported, and "Show Executions" zooms the Memory Profile to it. */
static void
test_timeline_link (void)
{
  TmWindow *window = tm_test_new_window ();
  TmSession *session;
  TmTimeline *timeline;
  TmTimelineLayout layout;
  GtkGestureClick *click;
  const TmChartSpan *spans;
  const TmModulePlan *plan;
  TmViewport *viewport;
  g_autoptr(TmChart) chart = NULL;
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autofree char *tooltip = NULL;
  TmChartPalette palette;
  const char *svg;
  double x, y;
  guint n;

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  tm_test_open_and_wait (window, fixture_path);
  session = tm_window_get_session (window);
  timeline = TM_TIMELINE (tm_test_template_child (window, TM_TYPE_WINDOW, "timeline"));
  tm_test_iterate_for (100);

  /* No module chosen yet: no level. */
  spans = tm_span_layer_get_spans (TM_SPAN_LAYER (timeline->layers.plan), &n);
  g_assert_cmpuint (n, ==, 0);

  /* The band's execution, clicked: the capture-phase click claims it. */
  tm_timeline_get_layout (timeline, &layout);
  g_assert_cmpfloat (layout.hlo_band.size.height, >, 0);
  x = layout.plot.origin.x + layout.plot.size.width / 2;
  y = layout.hlo_band.origin.y + layout.hlo_band.size.height / 2;
  g_assert_cmpint (tm_timeline_get_module_at (timeline, x, y), ==, 0);
  click = tm_test_find_click_gesture (GTK_WIDGET (timeline), TRUE);
  g_assert_nonnull (click);
  g_signal_emit_by_name (click, "pressed", 1, x, y);
  g_assert_cmpstr (shown_page (window), ==, "memory-viewer");
  g_assert_nonnull (selection (window));
  g_assert_cmpstr (selection (window)->module, ==, "jit_train_step(1)");
  g_assert_cmpint (selection (window)->memory_space, ==, 0);
  tm_test_iterate_until (result_ready, window);
  tm_test_iterate_for (50);
  g_assert_cmpstr (selection (window)->module, ==, "jit_train_step(1)");
  g_assert_true (gtk_widget_get_visible (tm_test_template_child (get_view (window), TM_TYPE_MEMORY_VIEWER_VIEW,
                                                                 "run_button")));

  /* The level: 6 MiB live before + the static peak, over 2–10 ns. */
  plan = tm_memory_viewer_query_lookup_plan (get_query (window), "jit_train_step(1)");
  g_assert_nonnull (plan);
  g_assert_cmpint (plan->peak, ==, 18 * MiB + 4096);
  spans = tm_span_layer_get_spans (TM_SPAN_LAYER (timeline->layers.plan), &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (spans[0].start_ps, ==, 2000);
  g_assert_cmpint (spans[0].end_ps, ==, 10000);
  g_assert_cmpint (spans[0].value, ==, 24 * MiB + 4096);
  g_assert_cmpint (spans[0].tag, ==, 0);

  /* Back to the run: the Memory Profile, zoomed to the execution, whose
   * byte axis holds the level. */
  viewport = tm_session_get_viewport (session);
  tm_viewport_reset (viewport);
  g_assert_true (gtk_widget_activate_action (get_view (window), "viewer.show-executions", NULL));
  g_assert_cmpstr (shown_page (window), ==, "profile");
  g_assert_true (tm_viewport_is_zoomed (viewport));
  g_assert_cmpint (tm_viewport_get_start (viewport), <=, 2000);
  g_assert_cmpint (tm_viewport_get_end (viewport), >=, 10000);
  g_assert_cmpint (tm_viewport_get_end (viewport) - tm_viewport_get_start (viewport), <=, 10000);
  tm_test_iterate_for (100);
  tm_timeline_get_layout (timeline, &layout);
  g_assert_cmpint (layout.y_max, >=, 24 * MiB + 4096);

  /* On the line, the tooltip: the figures and the card's words. */
  x = layout.plot.origin.x + layout.plot.size.width / 2;
  y = layout.plot.origin.y + layout.plot.size.height * (1.0 - (double) (24 * MiB + 4096) / (double) layout.y_max);
  g_assert_cmpint (_tm_timeline_plan_at (timeline, x, y), ==, 0);
  g_assert_cmpint (_tm_timeline_plan_at (timeline, x, y + 20), ==, -1);
  tooltip = _tm_timeline_describe_plan (timeline, 0);
  g_assert_nonnull (strstr (tooltip, "Plan of jit_train_step(1)"));
  g_assert_nonnull (strstr (tooltip, "counted twice"));
  g_assert_nonnull (strstr (tooltip, "Click to open in the Memory Viewer"));

  /* In the SVG export too, with its legend entry. */
  chart = tm_window_build_timeline_chart (window, TRUE, &palette);
  g_assert_nonnull (chart);
  g_assert_true (tm_chart_write_svg (chart, NULL, &palette, NULL, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  svg = g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out));
  g_assert_nonnull (strstr (svg, ">Static peak 18.0 MiB + live before</text>"));
  g_assert_nonnull (strstr (svg, ">Plan of jit_train_step(1)</text>"));

  /* A click on the level opens the module too. */
  g_signal_emit_by_name (click, "pressed", 1, x, y);
  g_assert_cmpstr (shown_page (window), ==, "memory-viewer");

  /* Another module chosen: its level, none here (it never ran). */
  tm_static_selection_show_module (session, "test_module(2)", 0);
  tm_test_iterate_for (50);
  spans = tm_span_layer_get_spans (TM_SPAN_LAYER (timeline->layers.plan), &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_false (gtk_widget_get_visible (tm_test_template_child (get_view (window), TM_TYPE_MEMORY_VIEWER_VIEW,
                                                                  "run_button")));
  tm_test_destroy_window (window);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *runtime = g_dir_make_tmp ("tidemark-test-runtime-XXXXXX", NULL);
  g_autofree char *home = NULL;
  g_autoptr(GBytes) keep = NULL;
  g_autoptr(TmFixtureSpace) space = tm_hlo_fixture_new_viewer_space (&keep);
  g_autoptr(GError) error = NULL;
  int status;

  /* A runtime folder of its own, for a document portal's mount. */
  g_setenv ("XDG_RUNTIME_DIR", runtime, TRUE);
  home = tm_test_gui_init (&argc, &argv);
  fixture_dir = tm_fixture_make_temp_dir (&error);
  g_assert_no_error (error);
  fixture_path = tm_fixture_space_write (space, fixture_dir, "viewer.xplane.pb", &error);
  g_assert_no_error (error);

  g_test_add_func ("/memory-viewer-view/fixture", test_fixture);
  g_test_add_func ("/memory-viewer-view/op-link", test_op_link);
  g_test_add_func ("/memory-viewer-view/sidecar-and-missing", test_sidecar_and_missing);
  g_test_add_func ("/memory-viewer-view/lone-portal-document", test_lone_portal_document);
  g_test_add_func ("/memory-viewer-view/small-window", test_small_window);
  g_test_add_func ("/memory-viewer-view/real-profile", test_real_profile);
  g_test_add_func ("/memory-viewer-view/timeline-link", test_timeline_link);

  status = g_test_run ();
  tm_fixture_remove (fixture_dir);
  tm_fixture_remove (home);
  tm_fixture_remove (runtime);
  g_free (fixture_path);
  g_free (fixture_dir);
  return status;
}
