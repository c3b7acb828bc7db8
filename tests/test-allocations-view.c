/* test-allocations-view.c — the Allocations tab: rows, sort, filter,
 * figures and the selection shared with the memory map, under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "tm-allocations-query.h"
#include "tm-allocation-cells.h"
#include "tm-allocations-view.h"
#include "tm-chart-layer.h"
#include "tm-gui-test-util.h"
#include "tm-memory-map.h"
#include "tm-test-util.h"

#define US G_GINT64_CONSTANT (1000000)

typedef struct
{
  gboolean    alloc;
  gint64      time;    /* µs */
  guint64     addr;
  gint64      bytes;
  const char *op;
  const char *region;
  const char *shape;
  gint64      step;
} Ev;

/* The allocation index of these (tm-allocations: from the profile's start
 * first, then by allocation time):
 *
 *   index  made   ends     addr      bytes  op         region  shape
 *   0      open   1 µs     0x900     64     ""         ""      ""
 *   1      2 µs   4 µs     0x100     3 MiB  b/MatMul   output  [4, 8]     (2 µs, step 1 → 1)
 *   2      3 µs   never    0x400000  1 MiB  a/Conv     temp    [2]
 *   3      5 µs   8 µs     0x7f0000  2 MiB  c/Add      temp    [16, 16]   (3 µs, step 2 → 2)
 *   4      9 µs   never    0x300000  512 B  A/lower    persist [1]
 */
static const Ev events[] = {
  { FALSE, 1, 0x900, 64, NULL, NULL, NULL, 1 },
  { TRUE, 2, 0x100, 3 << 20, "b/MatMul", "output", "[4, 8]", 1 },
  { TRUE, 3, 0x400000, 1 << 20, "a/Conv", "temp", "[2]", 1 },
  { FALSE, 4, 0x100, 3 << 20, NULL, NULL, NULL, 1 },
  { TRUE, 5, 0x7f0000, 2 << 20, "c/Add", "temp", "[16, 16]", 2 },
  { FALSE, 8, 0x7f0000, 2 << 20, NULL, NULL, NULL, 2 },
  { TRUE, 9, 0x300000, 512, "A/lower", "persist", "[1]", 2 },
};

static void
fill_memory (gconstpointer    data,
             TmFixtureMemory *m,
             gboolean        *allocation,
             gint64          *time_ps)
{
  const Ev *ev = data;

  *allocation = ev->alloc;
  *time_ps = ev->time * US;
  m->bytes_allocated = 8 << 20;
  m->bytes_available = 64 << 20;
  m->peak_bytes_in_use = 8 << 20;
  m->requested_bytes = ev->bytes;
  m->allocation_bytes = ev->bytes;
  m->addr = ev->addr;
  m->tf_op = ev->op;
  m->region_type = ev->region;
  /* The deallocations name nothing: data type 0, XProf's "INVALID". */
  m->data_type = ev->alloc ? 1 : 0;
  m->shape = ev->shape;
  m->has_group_id = TRUE;
  m->group_id = ev->step;
}

static gboolean
view_ready (gpointer data)
{
  return !tm_allocations_view_get_pending (data) && tm_allocations_view_get_stats (data) != NULL;
}

/* Waits for the rows after a change and checks them, by allocation index. */
static void
assert_rows (TmAllocationsView *view,
             const guint       *expected,
             guint              n_expected)
{
  TmAllocationList *list = tm_allocations_view_get_list (view);
  guint n;

  tm_test_iterate_until (view_ready, view);
  n = g_list_model_get_n_items (G_LIST_MODEL (list));
  for (guint i = 0; i < n; i++)
    g_test_message ("row %u: %u", i, tm_allocation_list_get_index (list, i));
  g_assert_cmpuint (n, ==, n_expected);
  for (guint i = 0; i < n_expected; i++)
    g_assert_cmpuint (tm_allocation_list_get_index (list, i), ==, expected[i]);
}

#define ASSERT_ROWS(view, ...) \
  G_STMT_START { \
    static const guint expected_[] = { __VA_ARGS__ }; \
    assert_rows ((view), expected_, G_N_ELEMENTS (expected_)); \
  } G_STMT_END

typedef struct
{
  TmProfile         *profile;
  TmSession         *session;
  GtkWidget         *window;
  TmAllocationsView *view;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->profile = tm_test_load_memory_events (events, sizeof *events, G_N_ELEMENTS (events), fill_memory);
  f->session = tm_session_new ();
  tm_allocations_query_get_for_session (f->session);
  f->window = gtk_window_new ();
  f->view = TM_ALLOCATIONS_VIEW (tm_allocations_view_new ());
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 400);
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->view));
  tm_view_set_session (TM_VIEW (f->view), f->session);
  tm_session_set_profile (f->session, f->profile);
  tm_session_set_memory_store (f->session, tm_profile_get_memory_store (f->profile, 0));
  gtk_window_present (GTK_WINDOW (f->window));
  tm_test_wait_allocations (f->session);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_object_unref (f->session);
  g_object_unref (f->profile);
}

/* Every allocation of the range, in allocation order; the cells' text. */
static void
test_rows (Fixture       *f,
           gconstpointer  data)
{
  TmAllocationList *list = tm_allocations_view_get_list (f->view);
  g_autoptr(TmAllocationItem) never = NULL;
  g_autoptr(TmAllocationItem) first = NULL;
  g_autoptr(TmAllocationItem) matmul = NULL;
  struct { TmAllocationCell cell; const char *text; } cells[] = {
    { TM_ALLOCATION_CELL_OP, "b/MatMul" },
    { TM_ALLOCATION_CELL_SIZE, "3.00 MiB" },
    { TM_ALLOCATION_CELL_REGION, "output" },
    { TM_ALLOCATION_CELL_DATA_TYPE, "float" },
    { TM_ALLOCATION_CELL_SHAPE, "[4, 8]" },
    { TM_ALLOCATION_CELL_ADDRESS, "0x100" },
    { TM_ALLOCATION_CELL_ALLOCATED_AT, "0.002 ms" },
    { TM_ALLOCATION_CELL_FREED_AT, "0.004 ms" },
    { TM_ALLOCATION_CELL_LIFETIME, "2.00 µs" },
  };

  ASSERT_ROWS (f->view, 0, 1, 2, 3, 4);
  matmul = g_list_model_get_item (G_LIST_MODEL (list), 1);
  for (guint i = 0; i < G_N_ELEMENTS (cells); i++)
    {
      g_autofree char *text = tm_allocation_cell_text (cells[i].cell, matmul);

      g_assert_cmpstr (text, ==, cells[i].text);
    }
  /* The open edges in words; a missing op name as the table says it. */
  first = g_list_model_get_item (G_LIST_MODEL (list), 0);
  never = g_list_model_get_item (G_LIST_MODEL (list), 2);
  {
    g_autofree char *before = tm_allocation_cell_text (TM_ALLOCATION_CELL_ALLOCATED_AT, first);
    g_autofree char *op = tm_allocation_cell_text (TM_ALLOCATION_CELL_OP, first);
    g_autofree char *freed = tm_allocation_cell_text (TM_ALLOCATION_CELL_FREED_AT, never);
    g_autofree char *lifetime = tm_allocation_cell_text (TM_ALLOCATION_CELL_LIFETIME, never);

    g_assert_cmpstr (before, ==, "before the profile");
    g_assert_cmpstr (op, ==, "unknown");
    /* So are its region, data type and shape, as the table says them. */
    for (TmAllocationCell c = TM_ALLOCATION_CELL_REGION; c <= TM_ALLOCATION_CELL_SHAPE; c++)
      {
        g_autofree char *text = tm_allocation_cell_text (c, first);

        g_assert_cmpstr (text, ==, "unknown");
      }
    g_assert_cmpstr (freed, ==, "never freed");
    g_assert_cmpstr (lifetime, ==, "≥ 6.00 µs");
  }

  /* The range follows the session's viewport: [4.5, 7] µs holds 2 and 3. */
  tm_viewport_set_range (tm_session_get_viewport (f->session), 4500000, 7 * US);
  tm_test_iterate_for (10);
  g_assert_true (tm_allocations_view_get_pending (f->view));
  ASSERT_ROWS (f->view, 2, 3);
  tm_viewport_reset (tm_session_get_viewport (f->session));
  ASSERT_ROWS (f->view, 0, 1, 2, 3, 4);
}

/* A click on a column header sorts by it (each way); ties in allocation
 * order. */
static void
test_sort (Fixture       *f,
           gconstpointer  data)
{
  GtkColumnView *cv = tm_allocations_view_get_column_view (f->view);
  GListModel *columns = gtk_column_view_get_columns (cv);
  g_autoptr(GtkColumnViewColumn) op = g_list_model_get_item (columns, TM_ALLOCATION_CELL_OP);
  g_autoptr(GtkColumnViewColumn) size = g_list_model_get_item (columns, TM_ALLOCATION_CELL_SIZE);
  g_autoptr(GtkColumnViewColumn) address = g_list_model_get_item (columns, TM_ALLOCATION_CELL_ADDRESS);
  g_autoptr(GtkColumnViewColumn) freed = g_list_model_get_item (columns, TM_ALLOCATION_CELL_FREED_AT);
  g_autoptr(GtkColumnViewColumn) lifetime = g_list_model_get_item (columns, TM_ALLOCATION_CELL_LIFETIME);

  ASSERT_ROWS (f->view, 0, 1, 2, 3, 4);
  gtk_column_view_sort_by_column (cv, size, GTK_SORT_DESCENDING);
  ASSERT_ROWS (f->view, 1, 3, 2, 4, 0);
  gtk_column_view_sort_by_column (cv, size, GTK_SORT_ASCENDING);
  ASSERT_ROWS (f->view, 0, 4, 2, 3, 1);
  /* Byte-wise: "" < "A/lower" < "a/Conv" < "b/MatMul" < "c/Add". */
  gtk_column_view_sort_by_column (cv, op, GTK_SORT_ASCENDING);
  ASSERT_ROWS (f->view, 0, 4, 2, 1, 3);
  gtk_column_view_sort_by_column (cv, address, GTK_SORT_ASCENDING);
  ASSERT_ROWS (f->view, 1, 0, 4, 2, 3);
  gtk_column_view_sort_by_column (cv, freed, GTK_SORT_DESCENDING);
  ASSERT_ROWS (f->view, 2, 4, 3, 1, 0);
  gtk_column_view_sort_by_column (cv, lifetime, GTK_SORT_DESCENDING);
  ASSERT_ROWS (f->view, 2, 3, 1, 0, 4);
  /* No sort column: allocation order again. */
  gtk_column_view_sort_by_column (cv, NULL, GTK_SORT_ASCENDING);
  ASSERT_ROWS (f->view, 0, 1, 2, 3, 4);
}

/* The text and the kind keep rows; the figures follow the threshold. */
static void
test_filter_and_figures (Fixture       *f,
                         gconstpointer  data)
{
  const TmAllocStats *stats;

  ASSERT_ROWS (f->view, 0, 1, 2, 3, 4);
  tm_allocations_view_set_filter_text (f->view, "TEMP");
  ASSERT_ROWS (f->view, 2, 3);
  tm_allocations_view_set_filter_text (f->view, "0x7f");
  ASSERT_ROWS (f->view, 3);
  tm_allocations_view_set_filter_text (f->view, "[16");
  ASSERT_ROWS (f->view, 3);
  tm_allocations_view_set_filter_text (f->view, NULL);
  tm_allocations_view_set_kind (f->view, TM_ALLOC_LIST_NEVER_FREED);
  ASSERT_ROWS (f->view, 2, 4);
  tm_allocations_view_set_kind (f->view, TM_ALLOC_LIST_SAME_STEP);
  ASSERT_ROWS (f->view, 1, 3);

  /* Made in the range: 1 to 4; at 1 ms every freed one is temporary. */
  stats = tm_allocations_view_get_stats (f->view);
  g_assert_cmpuint (stats->n_allocations, ==, 4);
  g_assert_cmpint (stats->allocated_bytes, ==, (3 << 20) + (1 << 20) + (2 << 20) + 512);
  g_assert_cmpuint (stats->n_temporary, ==, 2);
  g_assert_cmpuint (stats->n_same_step, ==, 2);
  g_assert_cmpuint (stats->steps->len, ==, 2);

  /* 2.5 µs: only the 2 µs one. */
  tm_allocations_view_set_kind (f->view, TM_ALLOC_LIST_TEMPORARY);
  tm_allocations_view_set_temporary_ps (f->view, 2500000);
  ASSERT_ROWS (f->view, 1);
  stats = tm_allocations_view_get_stats (f->view);
  g_assert_cmpuint (stats->n_temporary, ==, 1);
  g_assert_cmpint (stats->temporary_bytes, ==, 3 << 20);
  g_assert_cmpint (stats->temporary_ps, ==, 2500000);
}

/* A row selects its allocation in the session, and the session's
 * selection selects the row (or none, when it is not listed). */
static void
test_selection (Fixture       *f,
                gconstpointer  data)
{
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (tm_allocations_view_get_column_view (f->view)));

  ASSERT_ROWS (f->view, 0, 1, 2, 3, 4);
  gtk_single_selection_set_selected (selection, 3);
  g_assert_cmpuint (tm_session_get_selected_allocation (f->session), ==, 3);
  tm_session_select_allocation (f->session, 1);
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 1);

  /* A new list keeps the selection where the allocation is. */
  tm_allocations_view_set_kind (f->view, TM_ALLOC_LIST_SAME_STEP);
  ASSERT_ROWS (f->view, 1, 3);
  g_assert_cmpuint (tm_session_get_selected_allocation (f->session), ==, 1);
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 0);
  /* Not listed: no row, and the session keeps it. */
  tm_session_select_allocation (f->session, 4);
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, GTK_INVALID_LIST_POSITION);
  g_assert_cmpuint (tm_session_get_selected_allocation (f->session), ==, 4);
  /* Activating a row zooms to its lifetime. */
  g_signal_emit_by_name (tm_allocations_view_get_column_view (f->view), "activate", 1);
  g_assert_true (tm_viewport_is_zoomed (tm_session_get_viewport (f->session)));
  g_assert_cmpint (tm_viewport_get_start (tm_session_get_viewport (f->session)), <=, 5 * US);
  g_assert_cmpint (tm_viewport_get_end (tm_session_get_viewport (f->session)), >=, 8 * US);
}

/* ------------------------------------------------------------------ */
/* In the window: the tab, and the map's selection                      */

static gboolean
has_rows (gpointer data)
{
  return view_ready (data) && g_list_model_get_n_items (G_LIST_MODEL (tm_allocations_view_get_list (data))) > 0;
}

/* A click on an allocation in the memory map selects its row; a row
 * selects its allocation in the map. Hidden, the tab makes no rows. */
static void
test_window (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "l", 0);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  TmWindow *window;
  TmSession *session;
  TmAllocationsView *view;
  GtkStack *lower;
  TmMemoryMap *map;
  GtkWidget *canvas;
  GtkGestureClick *click;
  graphene_rect_t plot;
  double y0, y1, x, y;
  guint big;
  GtkSingleSelection *selection;

  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    {
      TmFixtureMemory m = { 0 };
      gboolean allocation;
      gint64 time_ps;

      m.allocator_name = "GPU_0_bfc";
      fill_memory (&events[i], &m, &allocation, &time_ps);
      tm_fixture_line_add_memory_event (line, allocation, time_ps, &m);
    }
  path = tm_fixture_space_write (space, NULL, "allocations.xplane.pb", &error);
  g_assert_no_error (error);

  window = tm_test_new_window ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 900);
  tm_test_open_and_wait (window, path);
  session = tm_window_get_session (window);
  view = TM_ALLOCATIONS_VIEW (tm_test_find_widget (window, "allocations_view"));
  lower = GTK_STACK (tm_test_find_widget (window, "lower_stack"));
  map = TM_MEMORY_MAP (tm_test_find_widget (window, "memory_map"));

  /* Not shown: nothing made yet. */
  tm_test_iterate_for (200);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (tm_allocations_view_get_list (view))), ==, 0);
  g_assert_null (tm_allocations_view_get_stats (view));

  gtk_stack_set_visible_child_name (lower, "allocations");
  tm_test_iterate_until (has_rows, view);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (tm_allocations_view_get_list (view))), ==, 5);
  tm_test_wait_layout_settled (GTK_WIDGET (window));

  /* A click on b/MatMul (0x100, 2–4 µs) in the map. */
  canvas = tm_memory_map_get_canvas (map);
  click = tm_test_find_click_gesture (canvas, FALSE);
  g_assert_nonnull (click);
  big = tm_allocations_find_by_snapshot (tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session)), 1);
  g_assert_cmpuint (big, ==, 1);
  tm_memory_map_get_plot (map, &plot);
  tm_memory_map_get_address_range (map, &y0, &y1);
  x = plot.origin.x + tm_viewport_time_to_x (tm_session_get_viewport (session), 3 * US, plot.size.width);
  y = plot.origin.y + (y1 - tm_allocations_address_to_axis (tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session)), 0x100 + (1 << 20)))
                      / (y1 - y0) * plot.size.height;
  g_signal_emit_by_name (click, "pressed", 1, x, y);
  g_signal_emit_by_name (click, "released", 1, x, y);
  g_assert_cmpuint (tm_session_get_selected_allocation (session), ==, big);
  selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (tm_allocations_view_get_column_view (view)));
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 1);

  /* A row selects its allocation, which the map shows. */
  gtk_single_selection_set_selected (selection, 3);
  g_assert_cmpuint (tm_session_get_selected_allocation (session), ==, 3);

  tm_test_destroy_window (window);
  tm_fixture_remove (path);
}

static GtkWidget *
find_file_chooser (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) w = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER (w) && gtk_widget_get_visible (w))
        return w;
    }
  return NULL;
}

static gboolean
chooser_shown (gpointer data)
{
  return find_file_chooser () != NULL;
}

/* The dialog takes a file in its own time. */
static gboolean
chooser_has_file (gpointer data)
{
  g_autoptr(GFile) file = gtk_file_chooser_get_file (data);
  g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

  return path != NULL && g_str_has_suffix (path, "/leaks.folded") && strstr (path, "tidemark-fixture-") != NULL;
}

static gboolean
file_written (gpointer data)
{
  return g_file_test (data, G_FILE_TEST_IS_REGULAR);
}

/* Main menu → Export Never-Freed Scopes as Collapsed Stacks: a save
 * dialog, then the file the command line's --never-freed writes. */
static void
test_export_never_freed (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tm_fixture_space_write (space, NULL, "example.xplane.pb", &error);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *out = g_build_filename (dir, "leaks.folded", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autofree char *contents = NULL;
  TmWindow *window;
  GtkWidget *chooser;

  g_assert_no_error (error);
  window = tm_test_new_window ();
  tm_test_open_and_wait (window, path);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export-never-freed"));
  g_action_group_activate_action (G_ACTION_GROUP (window), "export-never-freed", NULL);
  tm_test_iterate_until (chooser_shown, NULL);
  chooser = find_file_chooser ();
  g_assert_cmpstr (gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (chooser)), ==,
                   "example-GPU_0_bfc-never-freed.folded");
  /* The dialog settles on a folder in its own time; then the fixture's. */
  tm_test_iterate_for (1000);
  g_assert_true (gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "leaks.folded");
  tm_test_iterate_until (chooser_has_file, chooser);
  gtk_widget_activate (gtk_dialog_get_widget_for_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT));
  tm_test_iterate_until (file_written, out);
  tm_test_iterate_for (100);
  g_assert_true (g_file_get_contents (out, &contents, NULL, NULL));
  /* XProf's example: mul_grad/Sum (300 bytes) is never freed. */
  g_assert_cmpstr (contents, ==, "mul_grad;Sum 300\n");

  tm_test_destroy_window (window);
  tm_fixture_remove (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = tm_test_gui_init (&argc, &argv);

  g_test_add ("/allocations-view/rows", Fixture, NULL, fixture_setup, test_rows, fixture_teardown);
  g_test_add ("/allocations-view/sort", Fixture, NULL, fixture_setup, test_sort, fixture_teardown);
  g_test_add ("/allocations-view/filter-and-figures", Fixture, NULL, fixture_setup, test_filter_and_figures, fixture_teardown);
  g_test_add ("/allocations-view/selection", Fixture, NULL, fixture_setup, test_selection, fixture_teardown);
  g_test_add_func ("/allocations-view/window", test_window);
  g_test_add_func ("/allocations-view/export-never-freed", test_export_never_freed);

  {
    int status = g_test_run ();

    tm_fixture_remove (home);
    return status;
  }
}
