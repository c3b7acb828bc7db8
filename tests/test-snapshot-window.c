/* test-snapshot-window.c — PyTorch snapshots in the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Snapshots written by Python's pickle module at test time ($TM_PYTHON):
 * the cards in PyTorch's words (and back for an XLA profile), the banner
 * of a snapshot without a trace, the details pane of a selected
 * allocation (a snapshot's stack, an XLA op's scopes), the error page
 * of a pickle that holds Python objects, and a snapshot's segments and
 * out-of-memory entries on the timeline and the memory map (drawn,
 * described, exported), the memory map of a snapshot without a trace
 * (its blocks across the width), and the Allocations tab first shown
 * after a table row was selected (every row listed, drawn, scrolled to
 * the selected one).
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <gtk/gtk.h>

#include "tm-allocations-query.h"
#include "tm-allocations-view.h"
#include "tm-breakdown-view.h"
#include "tm-block-layer.h"
#include "tm-chart-export.h"
#include "tm-mark-layer.h"
#include "tm-memory-map-private.h"
#include "tm-note-layer.h"
#include "tm-summary-cards.h"
#include "tm-timeline-private.h"
#include "tm-test-util.h"
#include "tm-window.h"
#include "tm-gui-test-util.h"

#define NNBSP "\u202f"

static char *fixture_dir;
static char *traced_path;    /* a trace, a block live from the start */
static char *untraced_path;  /* segments and blocks, no trace */
static char *global_path;    /* a STACK_GLOBAL in a trace entry */
static char *oom_path;       /* two segments, two oom entries */
static char *xspace_path;    /* the fixture writer's XProf example */

#define TRACED                                                                          \
  "{'segments': [{'device': 0, 'address': 4096, 'total_size': 8192, 'stream': 0,"        \
  "  'blocks': [{'address': 4096, 'size': 1024, 'requested_size': 1000,"                 \
  "              'state': 'active_allocated',"                                            \
  "              'frames': [{'name': 'inner', 'filename': '/srv/job/model.py', 'line': 3},"\
  "                         {'name': 'outer', 'filename': '/srv/job/train.py', 'line': 9}]},"\
  "             {'address': 5120, 'size': 7168, 'requested_size': 0, 'state': 'inactive', 'frames': []}]}],"\
  " 'device_traces': [[{'action': 'alloc', 'addr': 65536, 'size': 2048, 'stream': 0, 'time_us': 10,"\
  "                     'frames': [{'name': 'forward', 'filename': '/srv/job/layer.py', 'line': 42}]},"\
  "                    {'action': 'free_completed', 'addr': 65536, 'size': 2048, 'stream': 0, 'time_us': 20}]]}"

#define UNTRACED                                                                        \
  "{'segments': [{'device': 1, 'address': 4096, 'total_size': 4096, 'stream': 0,"        \
  "  'blocks': [{'address': 4096, 'size': 2048, 'requested_size': 2000, 'state': 'active_allocated', 'frames': []},"\
  "             {'address': 6144, 'size': 2048, 'requested_size': 2048, 'state': 'active_allocated', 'frames': []}]}],"\
  " 'device_traces': [[], [], []]}"

/* A segment for the whole trace (1 MiB at 1 MiB, half of it allocated),
 * one reserved and given back during it (4 MiB at 8 MiB, allocated and
 * freed inside), and two failures: one that says how much was free, one
 * that does not. */
#define OOM                                                                             \
  "{'segments': [{'device': 0, 'address': 1048576, 'total_size': 1048576, 'stream': 0,"  \
  "  'blocks': [{'address': 1048576, 'size': 524288, 'requested_size': 524288,"          \
  "              'state': 'active_allocated', 'frames': []},"                             \
  "             {'address': 1572864, 'size': 524288, 'requested_size': 0, 'state': 'inactive', 'frames': []}]}],"\
  " 'device_traces': [[{'action': 'alloc', 'addr': 1048576, 'size': 524288, 'stream': 0, 'time_us': 100},"\
  "   {'action': 'segment_alloc', 'addr': 8388608, 'size': 4194304, 'stream': 0, 'time_us': 200},"\
  "   {'action': 'alloc', 'addr': 8388608, 'size': 2097152, 'stream': 0, 'time_us': 300},"\
  "   {'action': 'oom', 'device_free': 1000000, 'size': 33554432, 'stream': 0, 'time_us': 400},"\
  "   {'action': 'free_completed', 'addr': 8388608, 'size': 2097152, 'stream': 0, 'time_us': 500},"\
  "   {'action': 'segment_free', 'addr': 8388608, 'size': 4194304, 'stream': 0, 'time_us': 800},"\
  "   {'action': 'oom', 'size': 67108864, 'stream': 0, 'time_us': 900},"\
  "   {'action': 'alloc', 'addr': 1310720, 'size': 4096, 'stream': 0, 'time_us': 1000}]]}"

static void
write_fixtures (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) oom = tm_test_python_pickle (OOM, 4);
  g_autoptr(GBytes) traced = tm_test_python_pickle (TRACED, 4);
  g_autoptr(GBytes) untraced = tm_test_python_pickle (UNTRACED, 4);
  /* h2 of docs/pytorch.md: a protocol 4 snapshot whose trace entry's
   * frames are posix.system (...), through STACK_GLOBAL and REDUCE. */
  static const guint8 global[] = {
    0x80, 4, '}', 0x94, 0x8c, 8, 's', 'e', 'g', 'm', 'e', 'n', 't', 's', 0x94, ']', 0x94, 's',
    0x8c, 6, 'f', 'r', 'a', 'm', 'e', 's',
    0x8c, 5, 'p', 'o', 's', 'i', 'x', 0x8c, 6, 's', 'y', 's', 't', 'e', 'm', 0x93,
    0x8c, 4, 't', 'r', 'u', 'e', 0x85, 'R', 's', '.',
  };
  g_autoptr(GBytes) global_bytes = g_bytes_new_static (global, sizeof global);
  TmFixtureSpace *space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GBytes) xspace = tm_fixture_space_serialize (space);

  tm_fixture_space_free (space);
  fixture_dir = g_dir_make_tmp ("tm-snapshot-window-XXXXXX", &error);
  g_assert_no_error (error);
  traced_path = tm_fixture_write_bytes (traced, fixture_dir, "traced.pickle", &error);
  g_assert_no_error (error);
  untraced_path = tm_fixture_write_bytes (untraced, fixture_dir, "untraced.pickle", &error);
  g_assert_no_error (error);
  global_path = tm_fixture_write_bytes (global_bytes, fixture_dir, "hostile.pickle", &error);
  g_assert_no_error (error);
  oom_path = tm_fixture_write_bytes (oom, fixture_dir, "oom.pickle", &error);
  g_assert_no_error (error);
  xspace_path = tm_fixture_write_bytes (xspace, fixture_dir, "example.xplane.pb", &error);
  g_assert_no_error (error);
}

static const char *
label_of (gpointer    root,
          const char *id)
{
  return gtk_label_get_label (GTK_LABEL (tm_test_find_widget (root, id)));
}

static gboolean
allocations_ready (gpointer data)
{
  return !tm_allocations_view_get_pending (data) && tm_allocations_view_get_stats (data) != NULL;
}

/* The first column view under widget, or NULL. */
static GtkWidget *
find_column_view (GtkWidget *widget)
{
  if (GTK_IS_COLUMN_VIEW (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_column_view (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The title of the column of root's table made as made, and whether it
 * is shown. */
static const char *
column_title (GtkWidget  *root,
              const char *made,
              gboolean   *visible)
{
  GtkWidget *view = find_column_view (root);
  GListModel *columns;

  g_assert_nonnull (view);
  columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (view));
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      const char *m = g_object_get_data (G_OBJECT (column), "tm-made-title");

      if (g_strcmp0 (m != NULL ? m : gtk_column_view_column_get_title (column), made) == 0)
        {
          *visible = gtk_column_view_column_get_visible (column);
          return gtk_column_view_column_get_title (column);
        }
    }
  g_error ("no column %s", made);
  return NULL;
}

/* The first widget of type under widget, or NULL. */
static GtkWidget *
find_of_type (GtkWidget *widget,
              GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_of_type (c, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_kind_dropdown (GtkWidget *root)
{
  GtkWidget *found = find_of_type (root, GTK_TYPE_DROP_DOWN);

  g_assert_nonnull (found);
  return found;
}

static GtkWidget *
find_search_entry (GtkWidget *root)
{
  GtkWidget *found = find_of_type (root, GTK_TYPE_SEARCH_ENTRY);

  g_assert_nonnull (found);
  return found;
}

static const char *
search_placeholder (GtkWidget *root)
{
  static char *text;

  g_clear_pointer (&text, g_free);
  g_object_get (find_search_entry (root), "placeholder-text", &text, NULL);
  return text;
}

/* The cards say allocated and reserved for a snapshot, and go back to
 * XLA's words for an XSpace profile in the same window. */
static void
test_cards (void)
{
  TmWindow *window = tm_test_new_window ();
  GtkWidget *cards;

  tm_test_open_and_wait (window, traced_path);
  cards = tm_test_find_widget (window, "summary_cards");
  g_assert_cmpstr (label_of (cards, "peak_title"), ==, "Peak Allocated");
  g_assert_cmpstr (label_of (cards, "capacity_title"), ==, "Reserved at the Peak");
  g_assert_cmpstr (label_of (cards, "lifetime_title"), ==, "At Snapshot Time");
  g_assert_cmpstr (label_of (cards, "heap_label"), ==, "Allocated");
  g_assert_cmpstr (label_of (cards, "free_label"), ==, "Not allocated");
  g_assert_false (gtk_widget_get_visible (tm_test_find_widget (cards, "stack_label")));
  g_assert_false (gtk_widget_get_visible (tm_test_find_widget (cards, "fragmentation_label")));
  /* The allocated peak: the block live from the start and the alloc. */
  g_assert_cmpstr (label_of (cards, "peak_value"), ==, "2.98 KiB");
  /* The trace's one alloc, one free, the block live from the start. */
  g_assert_cmpstr (label_of (cards, "allocations_value"), ==, "1");
  g_assert_cmpstr (label_of (cards, "deallocations_value"), ==, "1");
  g_assert_cmpstr (label_of (cards, "peak_step_value"), ==, "1");
  /* Tidemark's own fragmentation, at snapshot time, says whose it is. */
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_markup (tm_test_find_widget (cards, "lifetime_card")),
                            "Tidemark’s own"));
  g_assert_false (gtk_widget_get_visible (tm_test_find_widget (window, "trace_note")));
  /* No XProf JSON to export: the file holds nothing of XProf's. */
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export-xprof-json"));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export-csv"));
  /* The timeline in the same words: no stack or fragmentation, the
   * entry's action, stack and stream in its tooltip. */
  {
    TmTimeline *timeline = TM_TIMELINE (tm_test_find_widget (window, "timeline"));
    g_autofree char *legend = _tm_timeline_legend_tooltip (timeline, TM_SERIES_FLAG_FREE);
    g_autofree char *tip = tm_timeline_describe_snapshot (timeline, 1);

    g_assert_true (timeline->layers.caching_allocator);
    g_assert_false (tm_chart_layer_get_visible (timeline->layers.line));
    g_assert_cmpstr (legend, ==, "Click to hide Not allocated");
    g_assert_true (g_str_has_prefix (tip, "<b>alloc</b> · "));
    g_assert_nonnull (strstr (tip, "2.00 KiB requested\nStack: layer.py:42:forward\nstream 0\nAllocated 2.98 KiB · not allocated "));
    g_assert_null (strstr (tip, "stack"));
  }

  /* The table's columns: the stack, the action, the stream, no data
   * type. */
  {
    GtkWidget *table = tm_test_find_widget (window, "breakdown_view");
    gboolean visible = FALSE;

    g_assert_cmpstr (column_title (table, "Op Name", &visible), ==, "Stack");
    g_assert_true (visible);
    g_assert_cmpstr (column_title (table, "Region", &visible), ==, "Action");
    g_assert_cmpstr (column_title (table, "Shape", &visible), ==, "Stream");
    column_title (table, "Data Type", &visible);
    g_assert_false (visible);
    /* Its filter looks in the stacks. */
    g_assert_cmpstr (search_placeholder (table), ==, "Filter by stack frame");
  }
  /* The menu's series in the legend's words: no stack, heap, free or
   * fragmentation (their items hide with their actions). */
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "show-stack"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "show-heap"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "show-free"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "show-fragmentation"));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "show-allocated"));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "show-not-allocated"));
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-not-allocated", g_variant_new_boolean (FALSE));
  g_assert_cmphex (tm_timeline_get_hidden_series (TM_TIMELINE (tm_test_find_widget (window, "timeline"))), ==,
                   TM_SERIES_FLAG_FREE);
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-not-allocated", g_variant_new_boolean (TRUE));
  /* The memory map colours by stack, action or size; its last choice is
   * the size. */
  {
    GtkWidget *map = tm_test_find_widget (window, "memory_map");
    GtkDropDown *colour = GTK_DROP_DOWN (find_kind_dropdown (map));
    GListModel *modes = gtk_drop_down_get_model (colour);

    tm_test_wait_allocations (tm_window_get_session (window));
    g_assert_cmpuint (g_list_model_get_n_items (modes), ==, 3);
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (modes), 0), ==, "Stack");
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (modes), 1), ==, "Action");
    gtk_drop_down_set_selected (colour, 2);
    g_assert_cmpint (tm_memory_map_get_color_by (TM_MEMORY_MAP (map)), ==, TM_MEMORY_MAP_COLOR_SIZE);
    tm_memory_map_set_color_by (TM_MEMORY_MAP (map), TM_MEMORY_MAP_COLOR_OP);
    g_assert_cmpuint (gtk_drop_down_get_selected (colour), ==, 0);
  }

  /* The Allocations tab: no figures per step, since a snapshot has no
   * steps. */
  {
    TmAllocationsView *view = TM_ALLOCATIONS_VIEW (tm_test_find_widget (window, "allocations_view"));
    g_autoptr(GString) text = g_string_new (NULL);

    gtk_stack_set_visible_child_name (GTK_STACK (tm_test_find_widget (window, "lower_stack")), "allocations");
    tm_test_iterate_until (allocations_ready, view);
    tm_test_collect_label_text (GTK_WIDGET (view), text);
    g_assert_nonnull (strstr (text->str, "Freed in their step\n—\n"));
    g_assert_nonnull (strstr (text->str, "Per step\n—\n"));
    /* Nothing to choose by step, and the filter names the stack. */
    g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (find_kind_dropdown (GTK_WIDGET (view))))), ==, 3);
    g_assert_null (strstr (gtk_widget_get_tooltip_text (find_kind_dropdown (GTK_WIDGET (view))), "step"));
    g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (find_search_entry (GTK_WIDGET (view))), "stack frames"));
    gtk_stack_set_visible_child_name (GTK_STACK (tm_test_find_widget (window, "lower_stack")), "table");
  }

  tm_test_open_and_wait (window, xspace_path);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export-xprof-json"));
  {
    GtkWidget *table = tm_test_find_widget (window, "breakdown_view");
    gboolean visible = FALSE;

    g_assert_cmpstr (column_title (table, "Op Name", &visible), ==, "Op Name");
    g_assert_cmpstr (column_title (table, "Region", &visible), ==, "Region");
    column_title (table, "Data Type", &visible);
    g_assert_true (visible);
    g_assert_cmpstr (search_placeholder (table), ==, "Filter by op name");
  }
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "show-stack"));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "show-fragmentation"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "show-allocated"));
  tm_test_wait_allocations (tm_window_get_session (window));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (find_kind_dropdown (tm_test_find_widget (window, "memory_map"))))),
                    ==, 4);
  {
    GtkWidget *view = tm_test_find_widget (window, "allocations_view");

    gtk_stack_set_visible_child_name (GTK_STACK (tm_test_find_widget (window, "lower_stack")), "allocations");
    tm_test_iterate_until (allocations_ready, view);
    g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (find_kind_dropdown (view)))), ==, 4);
    g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (find_search_entry (view)), "op, region"));
    gtk_stack_set_visible_child_name (GTK_STACK (tm_test_find_widget (window, "lower_stack")), "table");
  }
  g_assert_false (TM_TIMELINE (tm_test_find_widget (window, "timeline"))->layers.caching_allocator);
  g_assert_true (tm_chart_layer_get_visible (TM_TIMELINE (tm_test_find_widget (window, "timeline"))->layers.line));
  g_assert_cmpstr (label_of (cards, "peak_title"), ==, "Peak Memory Use");
  g_assert_cmpstr (label_of (cards, "heap_label"), ==, "Heap");
  g_assert_true (gtk_widget_get_visible (tm_test_find_widget (cards, "stack_label")));
  g_assert_true (gtk_widget_get_visible (tm_test_find_widget (cards, "fragmentation_label")));
  g_assert_false (gtk_widget_get_visible (tm_test_find_widget (window, "trace_note")));
  tm_test_destroy_window (window);
}

/* A snapshot without a trace: its blocks, all live from the start, and a
 * banner that says why the timeline is flat. */
static void
test_untraced (void)
{
  TmWindow *window = tm_test_new_window ();
  GtkWidget *note;
  TmSession *session;
  TmAnalysis *analysis;

  tm_test_open_and_wait (window, untraced_path);
  session = tm_window_get_session (window);
  g_assert_cmpstr (tm_memory_store_get_id (tm_session_get_memory_store (session)), ==, "1");
  note = tm_test_find_widget (window, "trace_note");
  g_assert_true (gtk_widget_get_visible (note));
  g_assert_true (gtk_widget_get_mapped (note));
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (gtk_widget_get_last_child (gtk_widget_get_first_child (note)))),
                            "2 blocks live from the start, so the timeline is flat"));
  /* All at one time: a flat timeline. */
  g_assert_cmpint (tm_memory_store_get_summary (tm_session_get_memory_store (session))->last_time_ps, ==,
                   tm_memory_store_get_summary (tm_session_get_memory_store (session))->first_time_ps);
  /* Both blocks are rows of the table at the peak. */
  analysis = tm_session_get_analysis (session);
  g_assert_cmpuint (tm_analysis_get_peak_breakdown (analysis)->len, ==, 2);
  g_assert_cmpstr (label_of (tm_test_find_widget (window, "summary_cards"), "peak_step_value"), ==, "2");

  /* The memory map: with no time to spread them over, each block spans
   * the plot's width at its address, and a line says why there is no
   * time axis. */
  {
    TmMemoryMap *map = TM_MEMORY_MAP (tm_test_find_widget (window, "memory_map"));
    TmAllocations *allocations;
    g_autoptr(TmTestPicture) p = NULL;
    TmChartGeometry mg;
    int width = 900, height = 400;
    guint32 block;
    double y;

    tm_test_wait_allocations (session);
    allocations = tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session));
    g_assert_true (tm_allocations_is_moment (allocations));
    _tm_memory_map_compute_geometry (map, width, height, &mg);
    g_assert_true (mg.moment);
    g_assert_false (tm_chart_layer_get_visible (map->time_layer));
    g_assert_nonnull (strstr (tm_note_layer_get_text (TM_NOTE_LAYER (map->moment_layer)), "no time axis"));
    p = tm_test_render_node (tm_memory_map_render_node (map, width, height), width, height);
    /* The second block (6144, 2048 bytes): drawn at the plot's middle and
     * near its right edge, and picked there. */
    y = tm_chart_geometry_axis_to_y (&mg, tm_allocations_address_to_axis (allocations, 6144 + 1024));
    /* A colour of the palette, not the segment's faint grey. */
    block = tm_test_picture_pixel (p, mg.plot.x + mg.plot.width / 2, y);
    g_assert_cmpint (ABS ((int) ((block >> 16) & 0xff) - (int) (block & 0xff)), >, 0x30);
    g_assert_cmphex (tm_test_picture_pixel (p, mg.plot.x + 3, y), ==, block);
    g_assert_cmphex (tm_test_picture_pixel (p, mg.plot.x + mg.plot.width - 3, y), ==, block);
    map->geometry = mg;
    g_assert_cmpuint (_tm_memory_map_pick (map, mg.plot.x + mg.plot.width * 0.75, y), !=, TM_ALLOCATIONS_NONE);
    g_assert_cmpuint (tm_allocations_get (allocations, _tm_memory_map_pick (map, mg.plot.x + mg.plot.width * 0.75, y))->address,
                      ==, 6144);
    _tm_memory_map_update_geometry (map);
  }

  /* Another file: the banner goes. */
  tm_test_open_and_wait (window, traced_path);
  g_assert_false (gtk_widget_get_visible (note));
  tm_test_destroy_window (window);
}

/* The label under root after the label that says title (a heading, or a
 * fact's name beside its value), or NULL. */
static GtkWidget *
find_after (GtkWidget  *root,
            const char *title)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (GTK_IS_LABEL (c) && gtk_widget_get_visible (c) && g_str_equal (gtk_label_get_label (GTK_LABEL (c)), title) &&
          GTK_IS_LABEL (gtk_widget_get_next_sibling (c)))
        return gtk_widget_get_next_sibling (c);
      if ((found = find_after (c, title)) != NULL)
        return found;
    }
  return NULL;
}

static const char *
after_heading (GtkWidget  *details,
               const char *title)
{
  GtkWidget *label = find_after (details, title);

  if (label == NULL)
    g_error ("no “%s” in the details pane", title);
  return gtk_label_get_label (GTK_LABEL (label));
}

/* The allocation at address in the session's index. */
static guint
allocation_at (TmSession *session,
               guint64    address)
{
  TmAllocations *allocations;

  tm_test_wait_allocations (session);
  allocations = tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session));
  g_assert_nonnull (allocations);
  for (guint i = 0; i < tm_allocations_get_n (allocations); i++)
    if (tm_allocations_get (allocations, i)->address == address)
      return i;
  g_error ("no allocation at %" G_GUINT64_FORMAT, address);
  return TM_ALLOCATIONS_NONE;
}

/* The details pane: hidden without a selection; for a snapshot the top
 * frame and every frame with its whole file name, the block live from
 * the start as found at snapshot time; for XLA the op and its scopes. */
static void
test_details (void)
{
  TmWindow *window = tm_test_new_window ();
  TmSession *session;
  GtkWidget *details;

  tm_test_open_and_wait (window, traced_path);
  session = tm_window_get_session (window);
  details = tm_test_find_widget (window, "allocation_details");
  g_assert_false (gtk_widget_get_visible (details));

  tm_session_select_allocation (session, allocation_at (session, 65536));
  g_assert_true (gtk_widget_get_visible (details));
  g_assert_cmpstr (after_heading (details, "Top frame"), ==, "forward (/srv/job/layer.py:42)");
  g_assert_cmpstr (after_heading (details, "Stack, innermost first"), ==, "forward (/srv/job/layer.py:42)");

  tm_session_select_allocation (session, allocation_at (session, 4096));
  g_assert_cmpstr (after_heading (details, "Top frame"), ==, "inner (/srv/job/model.py:3)");
  g_assert_cmpstr (after_heading (details, "Stack, innermost first"), ==,
                   "inner (/srv/job/model.py:3)\nouter (/srv/job/train.py:9)");
  g_assert_cmpstr (after_heading (details, "Found as"), ==, "block at snapshot");
  g_assert_cmpstr (after_heading (details, "Freed at"), ==, "never freed");

  tm_session_select_allocation (session, TM_ALLOCATIONS_NONE);
  g_assert_false (gtk_widget_get_visible (details));

  /* XLA: the op, its name scopes. */
  tm_test_open_and_wait (window, xspace_path);
  {
    TmAllocations *allocations;
    TmActivity act = { 0 };
    guint index;

    tm_test_wait_allocations (session);
    allocations = tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session));
    for (index = 0; index < tm_allocations_get_n (allocations); index++)
      {
        g_assert_true (tm_memory_store_get_activity (tm_allocations_get_store (allocations),
                                                     tm_allocations_get_event (allocations, index), &act, NULL));
        if (strchr (act.op_name, '/') != NULL)
          break;
        tm_activity_clear (&act);
      }
    g_assert_cmpuint (index, <, tm_allocations_get_n (allocations));
    tm_session_select_allocation (session, index);
    g_assert_true (gtk_widget_get_visible (details));
    g_assert_cmpstr (after_heading (details, "Op"), ==, strrchr (act.op_name, '/') + 1);
    g_assert_true (g_str_has_prefix (act.op_name, after_heading (details, "Name scopes, outermost first")));
    tm_activity_clear (&act);
  }
  tm_test_destroy_window (window);
}

/* A pickle that holds Python objects: the error page says so in one line,
 * the message the command line prints. */
static void
test_refused (void)
{
  TmWindow *window = tm_test_new_window ();
  g_autoptr(GFile) file = g_file_new_for_path (global_path);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  const char *message;

  g_assert_null (profile);
  g_assert_error (error, TM_ERROR, TM_ERROR_UNSAFE);
  tm_window_open (window, file);
  tm_test_iterate_until (tm_test_not_loading, window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_ERROR);
  message = gtk_label_get_label (GTK_LABEL (tm_test_find_widget (window, "error_message")));
  g_assert_cmpstr (message, ==, error->message);
  g_assert_nonnull (strstr (message, "holds Python objects, not a memory snapshot: pickle opcode STACK_GLOBAL at byte 41"));
  g_assert_null (strchr (message, '\n'));
  g_assert_true (gtk_widget_get_mapped (tm_test_find_widget (window, "error_message")));
  tm_test_destroy_window (window);
}

/* How much red over the rest at (x, y), in 0..255 (a grey is 0). */
static int
redness (const TmTestPicture *p,
         double               x,
         double               y)
{
  guint32 c = tm_test_picture_pixel (p, x, y);
  int r = (c >> 16) & 0xff, g = (c >> 8) & 0xff, b = c & 0xff;

  return r - MAX (g, b);
}

/* The out-of-memory red (at least half of it, over white or a series) in
 * the pixel column left of x or at it: a 1 px line between them. */
static gboolean
red_line_at (const TmTestPicture *p,
             double               x,
             double               y)
{
  for (int dx = -1; dx <= 0; dx++)
    {
      guint32 c = tm_test_picture_pixel (p, x + dx, y);

      if (((c >> 16) & 0xff) > 0xc0 && ((c >> 8) & 0xff) < 0x98 && (c & 0xff) < 0x98)
        return TRUE;
    }
  return FALSE;
}

/* The out-of-memory entries: a red line each on the timeline, labelled,
 * with a tooltip that says what the entry says; the same lines on the
 * memory map, over its segments drawn as faint blocks behind the
 * allocations with a legend entry; both in the exported charts. */
static void
test_oom_and_segments (void)
{
  TmWindow *window = tm_test_new_window ();
  TmSession *session;
  TmSegments *segments;
  const TmOutOfMemory *oom;
  const TmSegment *seg;
  TmTimeline *timeline;
  TmMemoryMap *map;
  TmAllocations *allocations;
  const TmChartGeometry *g;
  guint n_oom = 0, n_seg = 0, n_blocks = 0;
  int width, height;
  TmChartPalette palette;

  tm_test_open_and_wait (window, oom_path);
  session = tm_window_get_session (window);
  segments = tm_profile_lookup_segments (tm_session_get_profile (session), tm_session_get_memory_store (session));
  g_assert_nonnull (segments);
  oom = tm_segments_get_out_of_memory (segments, &n_oom);
  seg = tm_segments_get_segments (segments, &n_seg);
  g_assert_cmpuint (n_oom, ==, 2);
  g_assert_cmpuint (n_seg, ==, 2);
  g_assert_cmpint (oom[0].requested_bytes, ==, 32 * 1024 * 1024);
  g_assert_cmpint (oom[0].device_free_bytes, ==, 1000000);
  g_assert_cmpint (oom[1].device_free_bytes, ==, -1);

  /* The timeline: a mark per entry, found under the pointer, described. */
  timeline = TM_TIMELINE (tm_test_find_widget (window, "timeline"));
  g = &timeline->geometry;
  g_assert_cmpfloat (g->plot.width, >, 100);
  g_assert_cmpuint (tm_mark_layer_get_n_marks (TM_MARK_LAYER (timeline->layers.oom)), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      double x = round (tm_chart_geometry_time_to_x (g, oom[i].time_ps));
      g_autofree char *text = tm_timeline_describe_out_of_memory (timeline, &oom[i]);

      g_assert_cmpint (tm_mark_layer_get_mark (TM_MARK_LAYER (timeline->layers.oom), i)->time_ps, ==, oom[i].time_ps);
      g_assert_true (tm_timeline_out_of_memory_at (timeline, x + 2, g->plot.y + g->plot.height / 2) == &oom[i]);
      g_assert_true (tm_timeline_out_of_memory_at (timeline, x - 2, g->plot.y + 10) == &oom[i]);
      if (i == 0)
        {
          g_assert_nonnull (strstr (text, "Device 0: an allocation of 32.0 MiB (33" NNBSP "554" NNBSP "432 bytes) failed"));
          g_assert_nonnull (strstr (text, "reported 977 KiB (1" NNBSP "000" NNBSP "000 bytes) free"));
          g_assert_nonnull (strstr (text, "Trace entry 3, an oom."));
        }
      else
        {
          g_assert_nonnull (strstr (text, "an allocation of 64.0 MiB"));
          g_assert_nonnull (strstr (text, "the entry does not say how much was free"));
          g_assert_nonnull (strstr (text, "Trace entry 6, an oom."));
        }
    }
  /* Not between them, nor over the plot. */
  g_assert_null (tm_timeline_out_of_memory_at (timeline, (tm_chart_geometry_time_to_x (g, oom[0].time_ps) +
                                                          tm_chart_geometry_time_to_x (g, oom[1].time_ps)) / 2,
                                               g->plot.y + g->plot.height / 2));
  g_assert_null (tm_timeline_out_of_memory_at (timeline, tm_chart_geometry_time_to_x (g, oom[0].time_ps), g->plot.y - 4));
  /* Drawn: a red line at each, none between. */
  width = gtk_widget_get_width (GTK_WIDGET (timeline));
  height = gtk_widget_get_height (GTK_WIDGET (timeline));
  {
    g_autoptr(TmTestPicture) p = tm_test_render_node (tm_timeline_render_node (timeline, width, height), width, height);
    double y = g->plot.y + g->plot.height * 0.45;
    double x0 = round (tm_chart_geometry_time_to_x (g, oom[0].time_ps));
    double x1 = round (tm_chart_geometry_time_to_x (g, oom[1].time_ps));

    g_assert_true (red_line_at (p, x0, y));
    g_assert_true (red_line_at (p, x1, y));
    g_assert_false (red_line_at (p, (x0 + x1) / 2, y));
    g_assert_false (red_line_at (p, x0 - 20, y));
  }

  /* The memory map: the segments as blocks under the allocations, the
   * same lines, a legend entry. */
  map = TM_MEMORY_MAP (tm_test_find_widget (window, "memory_map"));
  tm_test_wait_allocations (session);
  allocations = tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session));
  {
    const TmChartBlock *blocks = tm_block_layer_get_blocks (TM_BLOCK_LAYER (map->segments_layer), &n_blocks);
    g_autoptr(GString) legend = g_string_new (NULL);
    g_autoptr(TmTestPicture) p = NULL;
    gint64 span = seg[1].end_ps - seg[1].start_ps;
    TmChartGeometry mg;
    double y;
    guint32 freed, allocated, after;

    g_assert_cmpuint (n_blocks, ==, 2);
    for (guint i = 0; i < n_blocks; i++)
      {
        g_assert_cmpint (blocks[i].start_ps, ==, seg[i].start_ps);
        g_assert_cmpint (blocks[i].end_ps, ==, seg[i].end_ps);
        g_assert_cmpfloat (blocks[i].axis_lo, ==, tm_allocations_address_to_axis (allocations, seg[i].address));
      }
    g_assert_cmpuint (tm_mark_layer_get_n_marks (TM_MARK_LAYER (map->oom_layer)), ==, 2);
    tm_test_collect_label_text (map->legend_box, legend);
    g_assert_nonnull (strstr (legend->str, "Reserved (segments)"));

    /* Pixels in the second segment, over its allocation's addresses:
     * while allocated (400 µs) the allocation's colour, once freed
     * (600 µs) the segment's faint grey, once the segment was given back
     * (850 µs) nothing. */
    width = 900;
    height = 500;
    _tm_memory_map_compute_geometry (map, width, height, &mg);
    p = tm_test_render_node (tm_memory_map_render_node (map, width, height), width, height);
    y = tm_chart_geometry_axis_to_y (&mg, tm_allocations_address_to_axis (allocations, 8388608 + 1048576));
    allocated = tm_test_picture_pixel (p, tm_chart_geometry_time_to_x (&mg, seg[1].start_ps + span / 3), y);
    freed = tm_test_picture_pixel (p, tm_chart_geometry_time_to_x (&mg, seg[1].start_ps + span * 2 / 3), y);
    after = tm_test_picture_pixel (p, tm_chart_geometry_time_to_x (&mg, seg[1].end_ps + span / 12), y);
    g_assert_cmphex (after, ==, 0xffffff);
    g_assert_cmphex (freed, !=, 0xffffff);
    g_assert_cmphex (freed, !=, allocated);
    /* A grey: the text colour, faint. */
    g_assert_cmpint ((freed >> 8) & 0xff, <, 0xf4);
    g_assert_cmpint ((freed >> 8) & 0xff, >, 0xb0);
    g_assert_cmpint (redness (p, tm_chart_geometry_time_to_x (&mg, seg[1].start_ps + span * 2 / 3), y), <, 8);
  }

  /* The exports: the timeline's and the memory map's SVG. */
  {
    g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
    g_autoptr(TmChart) chart = NULL;
    g_autoptr(GError) error = NULL;
    TmTimelineChartOptions options;
    g_autofree char *svg = NULL;

    tm_chart_palette_init_default (&palette, FALSE);
    tm_timeline_chart_options_init (&options);
    options.segments = segments;
    chart = tm_chart_new_timeline (tm_session_get_memory_store (session), &options);
    g_assert_true (tm_chart_write_svg (chart, NULL, &palette, NULL, out, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (g_output_stream_close (out, NULL, NULL));
    svg = g_strndup (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)),
                     g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)));
    g_assert_nonnull (strstr (svg, ">OOM</text>"));
    g_clear_pointer (&svg, g_free);
    g_clear_object (&chart);
    g_clear_object (&out);

    /* The memory map's: its OOM labels. */
    out = g_memory_output_stream_new_resizable ();
    chart = tm_chart_new_memory_map (allocations, segments, 0, 0, 800, 300);
    g_assert_true (tm_chart_write_svg (chart, NULL, &palette, NULL, out, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (g_output_stream_close (out, NULL, NULL));
    svg = g_strndup (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)),
                     g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)));
    g_assert_nonnull (strstr (svg, ">OOM</text>"));
  }
  tm_test_destroy_window (window);
}

/* How many rows the Allocations tab lists, once listed. */
static guint
allocations_rows (TmWindow *window)
{
  GtkWidget *view = tm_test_find_widget (window, "allocations_view");

  gtk_stack_set_visible_child_name (GTK_STACK (tm_test_find_widget (window, "lower_stack")), "allocations");
  tm_test_iterate_until (allocations_ready, view);
  tm_test_iterate_for (200);
  tm_test_iterate_until (allocations_ready, view);
  return g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (find_column_view (view)))));
}

/* How many rows of the Allocations tab's list are drawn. */
static guint
drawn_rows (TmWindow *window)
{
  GtkWidget *view = find_column_view (tm_test_find_widget (window, "allocations_view"));
  guint n = 0;

  for (GtkWidget *list = gtk_widget_get_first_child (view); list != NULL; list = gtk_widget_get_next_sibling (list))
    if (GTK_IS_LIST_VIEW (list))
      for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
        if (gtk_widget_get_mapped (row) && gtk_widget_get_child_visible (row) && gtk_widget_get_height (row) > 0)
          n++;
  return n;
}

/* A row selected in the table selects its allocation in the Allocations
 * tab, among all the others: the tab lists as many rows as without it. */
static void
test_selection_then_allocations (gconstpointer data)
{
  const char *path = data;
  TmWindow *window = tm_test_new_window ();
  g_autofree char *real = NULL;
  GtkSelectionModel *selection;
  guint before, after;

  if (path == NULL)
    {
      const char *dir = g_getenv ("TM_REAL_PROFILES");

      if (dir == NULL)
        {
          g_test_skip ("TM_REAL_PROFILES is not set");
          tm_test_destroy_window (window);
          return;
        }
      real = g_build_filename (dir, "pytorch_cs336_memory_snapshot.pickle", NULL);
      g_assert_true (g_file_test (real, G_FILE_TEST_EXISTS));
      path = real;
    }
  tm_test_open_and_wait (window, path);
  tm_test_wait_allocations (tm_window_get_session (window));
  /* Every allocation live in the range, as the tab will list them. */
  before = tm_allocations_get_n (tm_allocations_query_get_allocations (
             tm_allocations_query_get_for_session (tm_window_get_session (window))));
  g_assert_cmpuint (before, >, 1);

  tm_breakdown_view_set_hide_small (TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view")), FALSE);
  tm_test_iterate_for (100);
  selection = tm_breakdown_view_get_selection (TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view")));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (selection)), >, 0);
  /* The first row that is one allocation. */
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (selection)) &&
                    tm_session_get_selected_allocation (tm_window_get_session (window)) == TM_ALLOCATIONS_NONE; i++)
    {
      gtk_selection_model_select_item (selection, i, TRUE);
      tm_test_iterate_for (50);
    }
  g_assert_cmpuint (tm_session_get_selected_allocation (tm_window_get_session (window)), !=, TM_ALLOCATIONS_NONE);
  after = allocations_rows (window);
  g_assert_cmpuint (after, ==, before);
  /* Drawn: the list scrolled to the selected row once laid out; scrolled
   * before, GTK drew one row over a blank list. */
  tm_test_iterate_for (300);
  g_assert_cmpuint (drawn_rows (window), >=, MIN (before, 2));
  /* Far down a long list, the selected row is in view. */
  if (before > 100)
    {
      GtkWidget *view = find_column_view (tm_test_find_widget (window, "allocations_view"));

      g_assert_cmpfloat (gtk_adjustment_get_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view))), >, 0);
    }
  tm_test_destroy_window (window);
}

/* The same, for a fixture written by main() (data: where its path is). */
static void
test_selection_then_allocations_ref (gconstpointer data)
{
  test_selection_then_allocations (*(char * const *) data);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = tm_test_gui_init (&argc, &argv);
  int status;

  write_fixtures ();
  g_test_add_func ("/snapshot-window/cards", test_cards);
  g_test_add_func ("/snapshot-window/untraced", test_untraced);
  g_test_add_func ("/snapshot-window/details", test_details);
  g_test_add_func ("/snapshot-window/refused", test_refused);
  g_test_add_func ("/snapshot-window/oom-and-segments", test_oom_and_segments);
  g_test_add_data_func ("/snapshot-window/selection-then-allocations/traced", &traced_path,
                        test_selection_then_allocations_ref);
  g_test_add_data_func ("/snapshot-window/selection-then-allocations/xspace", &xspace_path,
                        test_selection_then_allocations_ref);
  g_test_add_data_func ("/snapshot-window/selection-then-allocations/real", NULL, test_selection_then_allocations);
  status = g_test_run ();
  tm_fixture_remove (fixture_dir);
  tm_fixture_remove (data_home);
  return status;
}
