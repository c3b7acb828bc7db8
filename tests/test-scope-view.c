/* test-scope-view.c — the icicle's pixels and the scope view with a session,
 * under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gi18n.h>

#include "tm-breakdown-cells.h"
#include "tm-breakdown-view.h"
#include "tm-gui-test-util.h"
#include "tm-palette.h"
#include "tm-allocations-query.h"
#include "tm-scope-index-query.h"
#include "tm-scope-series-query.h"
#include "tm-scope-view.h"
#include "tm-test-util.h"

static TmBreakdownRow *
row_new (const char *op,
         gint64      bytes,
         gboolean    special)
{
  TmBreakdownRow *row = g_new0 (TmBreakdownRow, 1);

  row->op_name = g_strdup (op);
  row->region_type = g_strdup ("output");
  row->data_type = g_strdup ("float");
  row->shape = g_strdup ("[1]");
  row->allocation_bytes = bytes;
  row->requested_bytes = bytes;
  row->n_occurrences = 1;
  row->special = special;
  return row;
}

static GdkTexture *
render_widget (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  g_autoptr(GError) error = NULL;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GskRenderNode *node;
  GdkTexture *texture;

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  g_assert_true (gsk_renderer_realize (renderer, NULL, &error));
  g_assert_no_error (error);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_render_node_unref (node);
  gsk_renderer_unrealize (renderer);
  return texture;
}

static gboolean
has_size (gpointer data)
{
  return gtk_widget_get_width (data) > 0;
}

/* Runs of exactly colour along row y: the longest one's length. */
static int
longest_run (const guchar  *pixels,
             gsize          stride,
             int            width,
             int            y,
             const GdkRGBA *color)
{
  guint8 r = (guint8) (color->red * 255 + 0.5), g = (guint8) (color->green * 255 + 0.5), b = (guint8) (color->blue * 255 + 0.5);
  int best = 0, run = 0;

  for (int x = 0; x < width; x++)
    {
      /* GDK_MEMORY_DEFAULT: B G R A, premultiplied; the fills are opaque. */
      const guchar *p = pixels + y * stride + x * 4;

      if (abs (p[2] - r) <= 1 && abs (p[1] - g) <= 1 && abs (p[0] - b) <= 1)
        run++;
      else
        run = 0;
      best = MAX (best, run);
    }
  return best;
}

/* The widest node is drawn widest, in its name's colour, in proportion. */
static void
test_icicle_pixels (void)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_breakdown_row_free);
  g_autoptr(TmScopeTree) tree = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *icicle = tm_icicle_new ();
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guchar *pixels = NULL;
  GdkRGBA big, small;
  int width, height, big_run, small_run;
  gsize stride;
  const TmScopeNode *root;

  g_ptr_array_add (rows, row_new ("big/a", 200, FALSE));
  g_ptr_array_add (rows, row_new ("big/b", 100, FALSE));
  g_ptr_array_add (rows, row_new ("small", 100, FALSE));
  tree = tm_scope_tree_new (rows, TM_SCOPE_GROUPING_NAME);
  root = tm_scope_tree_get_root (tree);

  gtk_widget_set_size_request (icicle, 400, 3 * TM_ICICLE_ROW_HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), icicle);
  tm_icicle_set_tree (TM_ICICLE (icicle), tree);
  gtk_window_present (GTK_WINDOW (window));
  tm_test_iterate_until (has_size, icicle);

  width = gtk_widget_get_width (icicle);
  height = gtk_widget_get_height (icicle);
  texture = render_widget (icicle);
  stride = (gsize) width * 4;
  pixels = g_malloc (stride * height);
  gdk_texture_download (texture, pixels, stride);

  tm_palette_color_for_name ("big", tm_palette_is_dark_style (icicle), &big);
  tm_palette_color_for_name ("small", tm_palette_is_dark_style (icicle), &small);
  g_assert_false (gdk_rgba_equal (&big, &small));
  big_run = longest_run (pixels, stride, width, TM_ICICLE_ROW_HEIGHT + TM_ICICLE_ROW_HEIGHT / 2 - 8, &big);
  small_run = longest_run (pixels, stride, width, TM_ICICLE_ROW_HEIGHT + TM_ICICLE_ROW_HEIGHT / 2 - 8, &small);
  g_test_message ("widths: big %d px, small %d px of %d", big_run, small_run, width);
  g_assert_cmpint (big_run, >, small_run);
  g_assert_cmpint (big_run, >=, width * 3 / 4 - 4);
  g_assert_cmpint (small_run, >=, width / 4 - 4);
  g_assert_cmpint (small_run, <=, width / 4 + 1);

  /* Hit-testing agrees with the picture; a node's area is its share. */
  g_assert_true (tm_icicle_node_at (TM_ICICLE (icicle), 10, TM_ICICLE_ROW_HEIGHT + 4) == root->children[0]);
  g_assert_true (tm_icicle_node_at (TM_ICICLE (icicle), width - 5, TM_ICICLE_ROW_HEIGHT + 4) == root->children[1]);
  g_assert_true (tm_icicle_node_at (TM_ICICLE (icicle), 10, 4) == root);

  /* The tooltip counts allocations with the right plural. */
  {
    g_autofree char *one = tm_icicle_describe_node (TM_ICICLE (icicle), root->children[1]);
    g_autofree char *two = tm_icicle_describe_node (TM_ICICLE (icicle), root->children[0]);

    g_assert_cmpstr (one, ==, "small\n100 B (100 bytes), 25.0 % of the memory in use\n1 allocation, 100 B requested");
    g_assert_true (g_str_has_suffix (two, "\n2 allocations, 300 B requested"));
  }

  /* Zoomed into "big": its children fill the width. */
  tm_icicle_set_focus (TM_ICICLE (icicle), root->children[0]);
  g_assert_true (tm_icicle_node_at (TM_ICICLE (icicle), width - 5, TM_ICICLE_ROW_HEIGHT + 4) ==
                 root->children[0]->children[1]);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A chain of only children (replica → bert → encoder, all of whose bytes
 * come from below, but for a sibling too small to draw) is one row named
 * by the joined path; its children are on the next row; a click on the
 * chain reaches its end, the branching scope. */
static void
test_icicle_chain (void)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_breakdown_row_free);
  g_autoptr(TmScopeTree) tree = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *icicle = tm_icicle_new ();
  const TmScopeNode *root, *replica, *bert, *encoder;
  graphene_rect_t a_replica, a_bert, a_encoder, a_child;

  g_ptr_array_add (rows, row_new ("replica/bert/encoder/a", 300, FALSE));
  g_ptr_array_add (rows, row_new ("replica/bert/encoder/b", 100, FALSE));
  /* A sibling too small to be drawn does not break the chain. */
  g_ptr_array_add (rows, row_new ("replica/tiny", 1, FALSE));
  tree = tm_scope_tree_new (rows, TM_SCOPE_GROUPING_NAME);
  root = tm_scope_tree_get_root (tree);
  replica = root->children[0];
  bert = replica->children[0];
  encoder = bert->children[0];
  g_assert_cmpstr (encoder->name, ==, "encoder");

  gtk_widget_set_size_request (icicle, 400, 4 * TM_ICICLE_ROW_HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), icicle);
  tm_icicle_set_tree (TM_ICICLE (icicle), tree);
  gtk_window_present (GTK_WINDOW (window));
  tm_test_iterate_until (has_size, icicle);

  /* One row for the chain, at depth 1; "a" right under it. */
  g_assert_true (tm_icicle_get_node_area (TM_ICICLE (icicle), replica, &a_replica));
  g_assert_true (tm_icicle_get_node_area (TM_ICICLE (icicle), bert, &a_bert));
  g_assert_true (tm_icicle_get_node_area (TM_ICICLE (icicle), encoder, &a_encoder));
  g_assert_true (graphene_rect_equal (&a_replica, &a_bert));
  g_assert_true (graphene_rect_equal (&a_replica, &a_encoder));
  g_assert_cmpfloat (a_replica.origin.y, ==, TM_ICICLE_ROW_HEIGHT);
  g_assert_true (tm_icicle_get_node_area (TM_ICICLE (icicle), encoder->children[0], &a_child));
  g_assert_cmpfloat (a_child.origin.y, ==, 2 * TM_ICICLE_ROW_HEIGHT);
  g_assert_true (tm_icicle_node_at (TM_ICICLE (icicle), 10, TM_ICICLE_ROW_HEIGHT + 4) == encoder);
  g_assert_true (tm_icicle_node_at (TM_ICICLE (icicle), 10, 2 * TM_ICICLE_ROW_HEIGHT + 4) == encoder->children[0]);
  /* Nothing on the fourth row: the chain took one row, not three. */
  g_assert_null (tm_icicle_node_at (TM_ICICLE (icicle), 10, 3 * TM_ICICLE_ROW_HEIGHT + 4));

  gtk_window_destroy (GTK_WINDOW (window));
}

static TmProfile *
load_fixture (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "l", 0);
  const char *ops[] = { "model/layer_0/MatMul", "model/layer_1/MatMul", "model/layer_0/Add", "loss" };
  const gint64 sizes[] = { 4000, 2000, 1000, 500 };
  g_autoptr(GError) error = NULL;
  gint64 heap = 0;
  TmProfile *profile;

  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    {
      TmFixtureMemory m = { 0 };

      heap += sizes[i];
      m.allocator_name = "GPU_0_bfc";
      m.bytes_allocated = heap;
      m.bytes_available = 100000 - heap;
      m.peak_bytes_in_use = heap;
      m.requested_bytes = sizes[i];
      m.allocation_bytes = sizes[i];
      m.addr = 1000 * (i + 1);
      m.tf_op = ops[i];
      m.region_type = "output";
      m.data_type = 1;
      m.shape = "[1]";
      m.has_group_id = TRUE;
      tm_fixture_line_add_memory_event (line, TRUE, 10 * (i + 1), &m);
    }
  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  return profile;
}

/* The view follows the session; a click in the picture selects a scope
 * in the session, zooms in, and selects its row. */
static gboolean
scope_index_ready (gpointer data)
{
  return !tm_scope_index_query_get_pending (tm_scope_index_query_get_for_session (data));
}

/* Whether a visible label below widget says text. */
static gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_is_visible (widget) &&
      g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (shows_label (c, text))
      return TRUE;
  return FALSE;
}

static void
test_view_and_session (void)
{
  g_autoptr(TmProfile) profile = load_fixture ();
  g_autoptr(TmSession) session = tm_session_new ();
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = tm_scope_view_new ();
  TmIcicle *icicle = TM_ICICLE (tm_scope_view_get_icicle (TM_SCOPE_VIEW (view)));
  GtkSelectionModel *selection;
  const TmScopeNode *root, *model;
  const TmScope *selected;
  g_autoptr(GtkTreeListRow) row = NULL;

  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  gtk_window_set_child (GTK_WINDOW (window), view);
  tm_view_set_session (TM_VIEW (view), session);
  /* What the timeline asks for: the selected scope's bytes over time. */
  tm_scope_series_query_get_for_session (session);
  tm_session_set_profile (session, profile);
  tm_session_set_memory_store (session, tm_profile_get_memory_store (profile, 0));
  gtk_window_present (GTK_WINDOW (window));
  tm_test_iterate_until (has_size, icicle);
  tm_test_iterate_for (50);

  g_assert_nonnull (tm_scope_view_get_tree (TM_SCOPE_VIEW (view)));
  root = tm_scope_tree_get_root (tm_scope_view_get_tree (TM_SCOPE_VIEW (view)));
  g_assert_cmpint (root->bytes, ==, 7500);
  model = root->children[0];
  g_assert_cmpstr (model->name, ==, "model");

  /* The table: by bytes first; a click on "Scope" sorts each level by
   * name, and back. The first row, selected, names its scope. */
  {
    GtkColumnView *cv = tm_scope_view_get_column_view (TM_SCOPE_VIEW (view));
    g_autoptr(GtkColumnViewColumn) name_col = g_list_model_get_item (gtk_column_view_get_columns (cv), 0);
    g_autoptr(GtkColumnViewColumn) bytes_col = g_list_model_get_item (gtk_column_view_get_columns (cv), 1);
    const char *expected[] = { "model", "loss", "model" };

    for (guint k = 0; k < G_N_ELEMENTS (expected); k++)
      {
        if (k == 1)
          gtk_column_view_sort_by_column (cv, name_col, GTK_SORT_ASCENDING);
        else if (k == 2)
          gtk_column_view_sort_by_column (cv, bytes_col, GTK_SORT_DESCENDING);
        tm_test_iterate_for (20);
        gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (gtk_column_view_get_model (cv)), 0);
        g_assert_nonnull (tm_session_get_selected_scope (session));
        g_assert_cmpstr (tm_session_get_selected_scope (session)->parts[0], ==, expected[k]);
        tm_session_set_selected_scope (session, NULL);
      }
  }

  g_signal_emit_by_name (icicle, "node-activated", model);
  selected = tm_session_get_selected_scope (session);
  g_assert_nonnull (selected);
  g_assert_cmpstr (selected->parts[0], ==, "model");
  g_assert_null (selected->parts[1]);
  g_assert_true (tm_icicle_get_focus (icicle) == model);
  g_assert_true (tm_icicle_get_selected (icicle) == model);
  selection = gtk_column_view_get_model (tm_scope_view_get_column_view (TM_SCOPE_VIEW (view)));
  row = g_object_ref (gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection)));
  g_assert_nonnull (row);

  /* Its bytes over time come from the scope index, built in a worker
   * since a scope was first selected (in the table above): none until it
   * is there. */
  if (tm_scope_index_query_get_pending (tm_scope_index_query_get_for_session (session)))
    g_assert_null (tm_scope_series_query_get_series (tm_scope_series_query_get_for_session (session)));
  tm_test_iterate_until (scope_index_ready, session);
  g_assert_false (tm_scope_index_query_get_pending (tm_scope_index_query_get_for_session (session)));
  /* Its bytes over time: 4000, 6000, 7000 at the allocations of model. */
  g_assert_cmpint (tm_test_scope_series_at (session, 3), ==, 7000);
  g_assert_cmpint (tm_test_scope_series_at (session, 0), ==, 4000);

  /* A time in the session: the tree follows, the selection stays. */
  tm_session_select_time (session, 20);
  tm_test_iterate_for (20);
  root = tm_scope_tree_get_root (tm_scope_view_get_tree (TM_SCOPE_VIEW (view)));
  g_assert_cmpint (root->bytes, ==, 6000);
  g_assert_nonnull (tm_session_get_selected_scope (session));
  g_assert_cmpstr (tm_icicle_get_selected (icicle)->name, ==, "model");

  /* Backspace-like: activating the focus zooms out. */
  g_signal_emit_by_name (icicle, "node-activated", tm_icicle_get_focus (icicle));
  g_assert_true (tm_icicle_get_focus (icicle) == root);

  /* Another grouping drops a scope of the old one; at a selected time
   * its tree waits for its index, and says so meanwhile. */
  tm_scope_view_set_grouping (TM_SCOPE_VIEW (view), TM_SCOPE_GROUPING_REGION);
  g_assert_null (tm_session_get_selected_scope (session));
  g_assert_true (tm_scope_index_query_get_pending (tm_scope_index_query_get_for_session (session)));
  g_assert_null (tm_scope_view_get_tree (TM_SCOPE_VIEW (view)));
  g_assert_true (shows_label (view, "Computing scopes…"));
  tm_test_iterate_until (scope_index_ready, session);
  tm_test_iterate_for (20);
  g_assert_nonnull (tm_scope_view_get_tree (TM_SCOPE_VIEW (view)));
  root = tm_scope_tree_get_root (tm_scope_view_get_tree (TM_SCOPE_VIEW (view)));
  g_assert_cmpstr (root->children[0]->name, ==, "output");

  /* Another memory store clears the scope. */
  tm_session_set_selected_scope (session, (TmScope *) &(TmScope) { TM_SCOPE_GROUPING_REGION, FALSE,
                                                                    (char *[]) { "output", NULL } });
  g_assert_nonnull (tm_session_get_selected_scope (session));
  tm_session_set_memory_store (session, NULL);
  g_assert_null (tm_session_get_selected_scope (session));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A profile with 24 ops in scope "big" and 24 in scope "small", all live
 * at the peak (the last event), over 64 MiB of heap that no allocation
 * accounts for: the table's "unused preallocated device memory" row. */
static char *
write_scoped_profile (const char *dir)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory", 0);
  g_autoptr(GError) error = NULL;
  gint64 heap = 64 << 20;
  char *path;

  for (guint i = 0; i < 48; i++)
    {
      g_autofree char *op = g_strdup_printf ("%s/layer_%u/MatMul", i < 24 ? "big" : "small", i);
      gint64 bytes = (i < 24 ? 8 << 20 : 2 << 20) + i * 4096;
      TmFixtureMemory m = { 0 };

      heap += bytes;
      m.allocator_name = "GPU_0_bfc";
      m.bytes_allocated = heap;
      m.bytes_available = (G_GINT64_CONSTANT (1) << 30) - heap;
      m.peak_bytes_in_use = heap;
      m.requested_bytes = bytes;
      m.allocation_bytes = bytes;
      m.addr = 0x100000000 + (guint64) i * 0x1000000;
      m.tf_op = op;
      m.region_type = "output";
      m.data_type = 1;
      m.shape = "[4,4]";
      m.has_group_id = TRUE;
      m.group_id = 1;
      tm_fixture_line_add_memory_event (line, TRUE, 1000 + i * 1000, &m);
    }
  path = tm_fixture_space_write (space, dir, "scoped.xplane.pb", &error);
  g_assert_no_error (error);
  return path;
}

/* The position of the table's row drawn at the top of its list. */
static guint
first_row_shown (GtkColumnView *column_view)
{
  GtkWidget *list = NULL;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (column_view)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      list = child;
  g_assert_nonnull (list);
  for (int y = 1; y < 40; y++)
    {
      GtkWidget *picked = gtk_widget_pick (list, 20, y, GTK_PICK_DEFAULT);
      GtkListItem *item = picked != NULL ? tm_breakdown_cell_find_item (picked, list) : NULL;

      if (item != NULL && gtk_list_item_get_item (item) != NULL)
        return gtk_list_item_get_position (item);
    }
  g_assert_not_reached ();
}

/* Scopes → a scope → All → Table: the table shows its largest row at its
 * top again, and the tree no longer highlights the scope. */
static void
test_all_then_table (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tm_fixture_make_temp_dir (&error);
  g_autofree char *path = write_scoped_profile (dir);
  TmWindow *window = tm_test_new_window ();
  TmSession *session = tm_window_get_session (window);
  GtkStack *lower = GTK_STACK (tm_test_find_widget (window, "lower_stack"));
  TmScopeView *scopes = TM_SCOPE_VIEW (tm_test_find_widget (window, "scope_view"));
  TmBreakdownView *table = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  GtkSelectionModel *tree_selection;
  const TmScopeNode *root;
  GtkWidget *all;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 820);
  tm_test_open_and_wait (window, path);
  gtk_stack_set_visible_child_name (lower, "scopes");
  tm_test_wait_layout_settled (GTK_WIDGET (window));

  /* The smaller scope, picked in the tree: the table keeps its rows. */
  root = tm_scope_tree_get_root (tm_scope_view_get_tree (scopes));
  for (guint i = 0; i < root->n_children; i++)
    if (g_strcmp0 (root->children[i]->name, "small") == 0)
      g_signal_emit_by_name (tm_scope_view_get_icicle (scopes), "node-activated", root->children[i]);
  g_assert_nonnull (tm_session_get_selected_scope (session));
  g_assert_cmpstr (tm_session_get_selected_scope (session)->parts[0], ==, "small");
  tm_test_wait_layout_settled (GTK_WIDGET (window));

  all = tm_test_find_button (GTK_WIDGET (scopes), "All");
  g_assert_nonnull (all);
  g_signal_emit_by_name (all, "clicked");
  g_assert_null (tm_session_get_selected_scope (session));
  tm_test_wait_layout_settled (GTK_WIDGET (window));
  tree_selection = gtk_column_view_get_model (tm_scope_view_get_column_view (scopes));
  g_assert_true (gtk_bitset_is_empty (gtk_selection_model_get_selection (tree_selection)));

  gtk_stack_set_visible_child_name (lower, "table");
  tm_test_wait_layout_settled (GTK_WIDGET (window));
  g_assert_cmpuint (first_row_shown (tm_breakdown_view_get_column_view (table)), ==, 0);

  tm_test_destroy_window (window);
  tm_fixture_remove (dir);
}

/* The special rows read as the table names them, translated: in Thai the
 * scope tree, the icicle and its tooltip say the table's words. */
static void
test_special_names (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tm_fixture_make_temp_dir (&error);
  g_autofree char *path = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  const char *thai = NULL;
  TmWindow *window;
  TmScopeView *scopes;
  const TmScopeNode *root;
  const TmScopeNode *special = NULL;
  g_autofree char *tooltip = NULL;

  tm_test_use_thai (TRUE);
  thai = g_dgettext (GETTEXT_PACKAGE, "unused preallocated device memory");
  g_assert_cmpstr (thai, !=, "unused preallocated device memory");
  path = write_scoped_profile (dir);
  window = tm_test_new_window ();
  scopes = TM_SCOPE_VIEW (tm_test_find_widget (window, "scope_view"));
  tm_test_open_and_wait (window, path);
  gtk_stack_set_visible_child_name (GTK_STACK (tm_test_find_widget (window, "lower_stack")), "scopes");
  tm_test_wait_layout_settled (GTK_WIDGET (window));

  tm_test_collect_label_text (GTK_WIDGET (scopes), text);
  g_assert_nonnull (strstr (text->str, thai));
  g_assert_null (strstr (text->str, "unused preallocated device memory"));
  root = tm_scope_tree_get_root (tm_scope_view_get_tree (scopes));
  for (guint i = 0; i < root->n_children; i++)
    if (root->children[i]->special)
      special = root->children[i];
  g_assert_nonnull (special);
  tooltip = tm_icicle_describe_node (TM_ICICLE (tm_scope_view_get_icicle (scopes)), special);
  g_assert_true (g_str_has_prefix (tooltip, thai));

  tm_test_destroy_window (window);
  tm_test_use_thai (FALSE);
  tm_fixture_remove (dir);
}

/* model/layer_0/MatMul (4000) and loss (500) are freed at 50 and 60;
 * model/layer_1/MatMul (2000) and model/layer_0/Add (1000) never are. */
static TmProfile *
load_leaky_fixture (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "l", 0);
  const struct { gboolean alloc; const char *op; gint64 bytes; guint64 addr; } evs[] = {
    { TRUE, "model/layer_0/MatMul", 4000, 1000 },
    { TRUE, "model/layer_1/MatMul", 2000, 2000 },
    { TRUE, "model/layer_0/Add", 1000, 3000 },
    { TRUE, "loss", 500, 4000 },
    { FALSE, NULL, 4000, 1000 },
    { FALSE, NULL, 500, 4000 },
  };
  g_autoptr(GError) error = NULL;
  gint64 heap = 0;
  TmProfile *profile;

  for (guint i = 0; i < G_N_ELEMENTS (evs); i++)
    {
      TmFixtureMemory m = { 0 };

      heap += evs[i].alloc ? evs[i].bytes : -evs[i].bytes;
      m.allocator_name = "GPU_0_bfc";
      m.bytes_allocated = heap;
      m.bytes_available = 100000 - heap;
      m.peak_bytes_in_use = heap;
      m.requested_bytes = evs[i].bytes;
      m.allocation_bytes = evs[i].bytes;
      m.addr = evs[i].addr;
      m.tf_op = evs[i].op;
      m.region_type = "output";
      m.data_type = 1;
      m.shape = "[1]";
      tm_fixture_line_add_memory_event (line, evs[i].alloc, 10 * (i + 1), &m);
    }
  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  return profile;
}

static gboolean
allocations_ready (gpointer data)
{
  return tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (data)) != NULL;
}

/* The scopes of what was never freed (docs/scopes.md, "Never freed"): the
 * two leaked allocations only, whatever the time shown; then back. */
static void
test_never_freed (void)
{
  g_autoptr(TmProfile) profile = load_leaky_fixture ();
  g_autoptr(TmSession) session = tm_session_new ();
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = tm_scope_view_new ();
  TmIcicle *icicle = TM_ICICLE (tm_scope_view_get_icicle (TM_SCOPE_VIEW (view)));
  const TmScopeNode *root, *model;
  g_autofree char *top = NULL;

  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  gtk_window_set_child (GTK_WINDOW (window), view);
  tm_view_set_session (TM_VIEW (view), session);
  tm_session_set_profile (session, profile);
  tm_session_set_memory_store (session, tm_profile_get_memory_store (profile, 0));
  gtk_window_present (GTK_WINDOW (window));
  tm_test_iterate_until (has_size, icicle);

  /* At the peak (all four live): 7500. */
  root = tm_scope_tree_get_root (tm_scope_view_get_tree (TM_SCOPE_VIEW (view)));
  g_assert_cmpint (root->bytes, ==, 7500);

  tm_scope_view_set_never_freed (TM_SCOPE_VIEW (view), TRUE);
  g_assert_true (tm_scope_view_get_never_freed (TM_SCOPE_VIEW (view)));
  tm_test_iterate_until (allocations_ready, session);
  tm_test_iterate_for (20);
  g_assert_nonnull (tm_scope_view_get_tree (TM_SCOPE_VIEW (view)));
  root = tm_scope_tree_get_root (tm_scope_view_get_tree (TM_SCOPE_VIEW (view)));
  g_assert_cmpint (root->bytes, ==, 3000);
  g_assert_cmpint (root->bytes, ==, tm_allocations_get_never_freed_bytes (tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session))));
  g_assert_cmpuint (root->n_allocations, ==, 2);
  g_assert_cmpuint (root->n_children, ==, 1);
  model = root->children[0];
  g_assert_cmpstr (model->name, ==, "model");
  g_assert_cmpint (model->children[0]->bytes, ==, 2000);
  g_assert_cmpstr (model->children[0]->name, ==, "layer_1");
  g_assert_true (shows_label (view, "Never freed — 2 allocations, 2.93 KiB"));
  top = tm_icicle_describe_node (icicle, root);
  g_assert_true (g_str_has_prefix (top, "All never-freed memory\n"));
  g_assert_nonnull (strstr (top, "of what was never freed"));

  /* Its scopes select as any other. */
  g_signal_emit_by_name (icicle, "node-activated", model);
  g_assert_cmpstr (tm_session_get_selected_scope (session)->parts[0], ==, "model");

  /* A time changes nothing here. */
  tm_session_select_time (session, 55);
  tm_test_iterate_for (20);
  g_assert_true (tm_scope_tree_get_root (tm_scope_view_get_tree (TM_SCOPE_VIEW (view))) == root);
  g_assert_true (tm_icicle_get_focus (icicle) == model);

  /* Off: live at 55 (the layer_0 MatMul is freed at 50): 3500. */
  tm_scope_view_set_never_freed (TM_SCOPE_VIEW (view), FALSE);
  tm_test_iterate_until (scope_index_ready, session);
  tm_test_iterate_for (20);
  root = tm_scope_tree_get_root (tm_scope_view_get_tree (TM_SCOPE_VIEW (view)));
  g_assert_cmpint (root->bytes, ==, 3500);
  top = (g_free (top), tm_icicle_describe_node (icicle, root));
  g_assert_true (g_str_has_prefix (top, "All live memory\n"));

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
has_matches (gpointer data)
{
  return tm_scope_search_get_matches (data)->len > 0;
}

static gboolean
says_no_match (gpointer data)
{
  return shows_label (data, "No match");
}

/* The colour drawn at the middle of node in the icicle. */
static guint32
node_pixel (TmIcicle          *icicle,
            const TmScopeNode *node)
{
  g_autoptr(GdkTexture) texture = render_widget (GTK_WIDGET (icicle));
  int width = gtk_widget_get_width (GTK_WIDGET (icicle));
  int height = gtk_widget_get_height (GTK_WIDGET (icicle));
  gsize stride = (gsize) width * 4;
  g_autofree guchar *pixels = g_malloc (stride * height);
  graphene_rect_t area;
  const guchar *p;

  g_assert_true (tm_icicle_get_node_area (icicle, node, &area));
  gdk_texture_download (texture, pixels, stride);
  /* Left of the label, below the outline. */
  p = pixels + (gsize) (area.origin.y + area.size.height - 4) * stride + (gsize) (area.origin.x + 3) * 4;
  return (guint32) p[2] << 16 | (guint32) p[1] << 8 | p[0];
}

/* Finding scopes (docs/scopes.md, "Finding a scope"): the matches in the
 * table's order, selected one by one, wrapping; the rest of the picture
 * dimmed; no match said so. */
static void
test_search (void)
{
  g_autoptr(TmProfile) profile = load_fixture ();
  g_autoptr(TmSession) session = tm_session_new ();
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = tm_scope_view_new ();
  TmIcicle *icicle = TM_ICICLE (tm_scope_view_get_icicle (TM_SCOPE_VIEW (view)));
  TmScopeSearch *search = tm_scope_view_get_search (TM_SCOPE_VIEW (view));
  GtkColumnView *cv = tm_scope_view_get_column_view (TM_SCOPE_VIEW (view));
  g_autoptr(GtkColumnViewColumn) name_col = g_list_model_get_item (gtk_column_view_get_columns (cv), 0);
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (cv));
  const TmScopeNode *root, *loss;
  const TmScope *selected;
  guint32 loss_before;

  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  gtk_window_set_child (GTK_WINDOW (window), view);
  tm_view_set_session (TM_VIEW (view), session);
  tm_session_set_profile (session, profile);
  tm_session_set_memory_store (session, tm_profile_get_memory_store (profile, 0));
  gtk_window_present (GTK_WINDOW (window));
  tm_test_iterate_until (has_size, icicle);
  tm_test_iterate_for (50);
  root = tm_scope_tree_get_root (tm_scope_view_get_tree (TM_SCOPE_VIEW (view)));
  loss = root->children[1];
  g_assert_cmpstr (loss->name, ==, "loss");
  loss_before = node_pixel (icicle, loss);

  /* model/layer_0/MatMul (4000) before model/layer_1/MatMul (2000). */
  gtk_editable_set_text (tm_scope_search_get_entry (search), "matmul");
  tm_test_iterate_until (has_matches, search);
  tm_test_iterate_for (20);
  g_assert_cmpuint (tm_scope_search_get_matches (search)->len, ==, 2);
  g_assert_true (shows_label (view, "1 of 2"));
  selected = tm_session_get_selected_scope (session);
  g_assert_nonnull (selected);
  g_assert_cmpstr (selected->parts[1], ==, "layer_0");
  g_assert_cmpstr (selected->parts[2], ==, "MatMul");
  /* Its row is revealed (its parents expanded) and selected. */
  {
    g_autoptr(GtkTreeListRow) row = g_object_ref (gtk_single_selection_get_selected_item (selection));

    g_assert_cmpuint (gtk_tree_list_row_get_depth (row), ==, 2);
  }
  g_assert_true (tm_scope_search_is_match (search, tm_scope_search_get_current (search)));
  /* The picture: what neither matches nor holds a match is dimmed. */
  g_assert_cmpuint (node_pixel (icicle, loss), !=, loss_before);

  /* Enter goes on, and wraps; the up arrow goes back. */
  g_signal_emit_by_name (tm_scope_search_get_entry (search), "activate");
  g_assert_cmpstr (tm_session_get_selected_scope (session)->parts[1], ==, "layer_1");
  g_assert_true (shows_label (view, "2 of 2"));
  tm_scope_search_move (search, TRUE);
  g_assert_cmpstr (tm_session_get_selected_scope (session)->parts[1], ==, "layer_0");
  tm_scope_search_move (search, FALSE);
  g_assert_cmpstr (tm_session_get_selected_scope (session)->parts[1], ==, "layer_1");

  /* The table sorted by name, Z to A: the matches follow its order. */
  gtk_column_view_sort_by_column (cv, name_col, GTK_SORT_DESCENDING);
  tm_test_iterate_for (20);
  g_assert_cmpstr (((const TmScopeNode *) g_ptr_array_index (tm_scope_search_get_matches (search), 0))->parent->name,
                   ==, "layer_1");
  g_assert_cmpstr (((const TmScopeNode *) g_ptr_array_index (tm_scope_search_get_matches (search), 1))->parent->name,
                   ==, "layer_0");

  /* No match. */
  gtk_editable_set_text (tm_scope_search_get_entry (search), "zzz");
  /* (Emptied first, then searched after the entry's delay.) */
  tm_test_iterate_until (says_no_match, view);
  g_assert_cmpuint (tm_scope_search_get_matches (search)->len, ==, 0);
  tm_test_iterate_for (50);
  g_assert_cmpuint (node_pixel (icicle, loss), ==, loss_before);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/scope-view/icicle-pixels", test_icicle_pixels);
  g_test_add_func ("/scope-view/icicle-chain", test_icicle_chain);
  g_test_add_func ("/scope-view/view-and-session", test_view_and_session);
  g_test_add_func ("/scope-view/all-then-table", test_all_then_table);
  g_test_add_func ("/scope-view/special-names", test_special_names);
  g_test_add_func ("/scope-view/never-freed", test_never_freed);
  g_test_add_func ("/scope-view/search", test_search);

  return g_test_run ();
}
