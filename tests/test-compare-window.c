/* test-compare-window.c — comparing in the window, under Xvfb: the
 * baseline's outline on the timeline, Compare With, Swap, End, a baseline
 * that fails to load
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "tm-axis.h"
#include "tm-comparison-query.h"
#include "tm-gui-test-util.h"
#include "tm-op-diff-view.h"
#include "tm-op-label.h"
#include "tm-session.h"
#include "tm-test-util.h"
#include "tm-timeline.h"
#include "tm-timeline-private.h"
#include "tm-window-compare.h"

/* One memory id: an allocation of bytes at t=1000 and a free at t=9000,
 * after a first small allocation at t=0 (heap first 100). */
static char *
write_profile (const char * const *ids,
               gint64              bytes,
               const char         *op,
               const char         *basename)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  g_autoptr(GError) error = NULL;
  char *path;

  for (guint i = 0; ids[i] != NULL; i++)
    {
      TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_get_plane (space, "/host:CPU"), ids[i], 0);
      const struct { gboolean alloc; gint64 t; gint64 heap; gint64 size; guint64 addr; const char *op; } evs[] = {
        { TRUE, 0, 100, 100, 0x10, "init" },
        { TRUE, 1000, 100 + bytes, bytes, 0x1000, op },
        { FALSE, 9000, 100, bytes, 0x1000, NULL },
      };

      for (guint e = 0; e < G_N_ELEMENTS (evs); e++)
        {
          TmFixtureMemory m = { 0 };

          m.allocator_name = ids[i];
          m.bytes_allocated = evs[e].heap;
          m.bytes_available = 4000 - evs[e].heap;
          m.peak_bytes_in_use = 100 + bytes;
          m.requested_bytes = evs[e].size;
          m.allocation_bytes = evs[e].size;
          m.addr = evs[e].addr;
          m.tf_op = evs[e].op;
          m.region_type = evs[e].op != NULL ? "output" : NULL;
          m.data_type = 1;
          m.has_group_id = TRUE;
          m.group_id = 1;
          tm_fixture_line_add_memory_event (line, evs[e].alloc, evs[e].t, &m);
        }
    }
  path = tm_fixture_space_write (space, NULL, basename, &error);
  g_assert_no_error (error);
  return path;
}

/* Pixels of the baseline's purple (#813d9c, light style) in column x of
 * the plot, and the topmost one's y (-1: none). */
static int
purple_top (GdkTexture *texture,
            int         x,
            int         y0,
            int         y1,
            guint      *count)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guchar *data = g_malloc ((gsize) width * height * 4);
  int top = -1;

  gdk_texture_download (texture, data, (gsize) width * 4);
  *count = 0;
  for (int y = MAX (y0, 0); y < MIN (y1, height); y++)
    {
      const guchar *px = data + (gsize) y * width * 4 + (gsize) x * 4;  /* B, G, R, A */

      if (px[2] > 110 && px[2] < 150 && px[1] > 45 && px[1] < 80 && px[0] > 135 && px[0] < 175)
        {
          if (top < 0)
            top = y;
          (*count)++;
        }
    }
  return top;
}

static GdkTexture *
render (TmTimeline *timeline)
{
  int width = gtk_widget_get_width (GTK_WIDGET (timeline));
  int height = gtk_widget_get_height (GTK_WIDGET (timeline));
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  g_autoptr(GError) error = NULL;
  GskRenderNode *nodes[2];
  GskRenderNode *container;
  GdkTexture *texture;

  g_assert_true (gsk_renderer_realize (renderer, NULL, &error));
  g_assert_no_error (error);
  nodes[0] = gsk_color_node_new (&(GdkRGBA) { 1, 1, 1, 1 }, &GRAPHENE_RECT_INIT (0, 0, width, height));
  nodes[1] = tm_timeline_render_node (timeline, width, height);
  container = gsk_container_node_new (nodes, 2);
  texture = gsk_renderer_render_texture (renderer, container, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_render_node_unref (container);
  gsk_render_node_unref (nodes[0]);
  gsk_render_node_unref (nodes[1]);
  gsk_renderer_unrealize (renderer);
  return texture;
}

/* The baseline (heap 100 + 3048) is drawn as an outline where its data
 * puts it, over the current profile (heap 100 + 1000); shifted by the
 * alignment; and gone when the comparison ends. */
static void
test_outline (void)
{
  const char *ids[] = { "GPU_0_bfc", NULL };
  g_autofree char *a = write_profile (ids, 1000, "small", "current.xplane.pb");
  g_autofree char *b = write_profile (ids, 3048, "big", "baseline.xplane.pb");
  g_autoptr(TmProfile) current = tm_test_load_path (a);
  g_autoptr(TmProfile) baseline = tm_test_load_path (b);
  g_autoptr(TmSession) session = tm_session_new ();
  GtkWidget *window = gtk_window_new ();
  TmTimeline *timeline = TM_TIMELINE (tm_timeline_new (session));
  g_autoptr(GdkTexture) before = NULL;
  g_autoptr(GdkTexture) during = NULL;
  g_autoptr(GdkTexture) after = NULL;
  TmTimelineLayout layout;
  guint count;
  int x, top, expected;

  tm_fixture_remove (a);
  tm_fixture_remove (b);
  gtk_window_set_default_size (GTK_WINDOW (window), 720, 320);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (timeline));
  gtk_window_present (GTK_WINDOW (window));
  tm_session_set_profile (session, current);
  tm_session_set_memory_store (session, tm_profile_get_memory_store (current, 0));
  tm_test_iterate_for (200);

  tm_timeline_get_layout (timeline, &layout);
  /* A column where both hold their allocation (t = 5000). */
  x = (int) (layout.plot.origin.x + layout.plot.size.width * 5000.0 / 9000.0);
  before = render (timeline);
  g_assert_cmpint (purple_top (before, x, 0, 320, &count), ==, -1);

  tm_session_set_baseline (session, baseline, tm_profile_get_memory_store (baseline, 0));
  g_assert_nonnull (tm_comparison_query_get_comparison (tm_comparison_query_get_for_session (session)));
  tm_test_iterate_for (100);
  tm_timeline_get_layout (timeline, &layout);
  during = render (timeline);
  top = purple_top (during, x, (int) layout.plot.origin.y, (int) (layout.plot.origin.y + layout.plot.size.height), &count);
  g_assert_cmpint (top, >=, 0);
  /* The y scale fits the baseline, whose 3148 bytes are above the
   * current's 1100; the line (2 px, with a halo) sits on that value. */
  g_assert_cmpint (layout.y_max, >=, 3148);
  expected = (int) tm_axis_value_to_y (&layout.plot, layout.y_max, 3148);
  g_assert_cmpint (ABS (top - expected), <=, 2);

  /* Aligned at the peaks: the same here (both peak at t=1000). */
  tm_session_set_alignment (session, TM_COMPARE_ALIGN_PEAK);
  g_assert_cmpint (tm_session_get_baseline_shift (session), ==, 0);

  tm_session_set_baseline (session, NULL, NULL);
  g_assert_null (tm_comparison_query_get_comparison (tm_comparison_query_get_for_session (session)));
  tm_test_iterate_for (100);
  after = render (timeline);
  g_assert_cmpint (purple_top (after, x, 0, 320, &count), ==, -1);

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
baseline_settled (gpointer data)
{
  return !tm_window_get_comparison_loading (TM_WINDOW (data));
}

static void
test_window_flow (void)
{
  const char *ids[] = { "GPU_0_bfc", "GPU_1_bfc", NULL };
  g_autofree char *a = write_profile (ids, 1000, "small", "current.xplane.pb");
  g_autofree char *b = write_profile (ids, 3048, "big", "baseline.xplane.pb");
  g_autofree char *missing = g_build_filename (g_get_tmp_dir (), "tidemark-missing-baseline.xplane.pb", NULL);
  g_autoptr(GFile) file_a = g_file_new_for_path (a);
  g_autoptr(GFile) file_b = g_file_new_for_path (b);
  g_autoptr(GFile) file_missing = g_file_new_for_path (missing);
  TmWindow *window = tm_test_new_window ();
  TmSession *session = tm_window_get_session (window);
  TmProfile *shown;
  const char *message;
  gboolean is_error;
  GtkStack *lower_stack;
  GtkWidget *diff;

  tm_window_open (window, file_a);
  tm_test_iterate_until (tm_test_not_loading, window);
  shown = tm_window_get_profile (window);
  g_assert_nonnull (shown);
  g_assert_null (tm_window_get_comparison_message (window, NULL));

  /* A baseline that cannot be read: its error in the bar, the profile stays. */
  tm_window_compare_with_file (window, file_missing);
  g_assert_true (tm_window_get_comparison_loading (window));
  tm_test_iterate_until (baseline_settled, window);
  message = tm_window_get_comparison_message (window, &is_error);
  g_assert_true (is_error);
  g_assert_nonnull (strstr (message, "tidemark-missing-baseline.xplane.pb"));
  g_assert_true (tm_window_get_profile (window) == shown);
  g_assert_null (tm_session_get_baseline (session));

  /* Another file. */
  tm_window_compare_with_file (window, file_b);
  tm_test_iterate_until (baseline_settled, window);
  message = tm_window_get_comparison_message (window, &is_error);
  g_assert_false (is_error);
  g_assert_nonnull (strstr (message, "−2.00 KiB"));
  g_assert_nonnull (tm_session_get_baseline (session));
  g_assert_cmpstr (tm_memory_store_get_id (tm_session_get_baseline (session)), ==,
                   tm_memory_store_get_id (tm_window_get_memory_store (window)));
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (window)), "compared with"));
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (window)), "baseline.xplane.pb"));
  lower_stack = GTK_STACK (tm_test_template_child (window, TM_TYPE_WINDOW, "lower_stack"));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (lower_stack), ==, "difference");
  diff = gtk_stack_get_visible_child (lower_stack);
  g_assert_true (TM_IS_OP_DIFF_VIEW (diff));
  /* small (new), big (gone), init (unchanged) and the unused row. */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (tm_op_diff_view_get_column_view (TM_OP_DIFF_VIEW (diff))))), >=, 2);

  /* Swap: the baseline's file is shown, compared with the other. */
  tm_window_swap_comparison (window);
  g_assert_true (g_file_equal (tm_window_get_file (window), file_b));
  g_assert_true (tm_session_get_baseline_profile (session) == shown);
  message = tm_window_get_comparison_message (window, NULL);
  g_assert_nonnull (strstr (message, "+2.00 KiB"));

  /* End: one click, the title without it. */
  tm_window_end_comparison (window);
  g_assert_null (tm_session_get_baseline (session));
  g_assert_null (strstr (gtk_window_get_title (GTK_WINDOW (window)), "compared with"));
  g_assert_null (tm_window_get_comparison_message (window, NULL));

  /* Another memory id of the shown file; swapping changes the memory id. */
  g_assert_true (tm_window_select_memory_id (window, "GPU_0_bfc"));
  g_assert_true (tm_window_compare_with_memory_id (window, "GPU_1_bfc"));
  g_assert_cmpstr (tm_memory_store_get_id (tm_session_get_baseline (session)), ==, "GPU_1_bfc");
  tm_window_swap_comparison (window);
  g_assert_cmpstr (tm_memory_store_get_id (tm_window_get_memory_store (window)), ==, "GPU_1_bfc");
  g_assert_cmpstr (tm_memory_store_get_id (tm_session_get_baseline (session)), ==, "GPU_0_bfc");
  g_assert_false (tm_window_compare_with_memory_id (window, "GPU_9_bfc"));

  /* Opening another file ends the comparison. */
  tm_window_open (window, file_a);
  tm_test_iterate_until (tm_test_not_loading, window);
  g_assert_null (tm_session_get_baseline (session));

  tm_test_destroy_window (window);
  tm_fixture_remove (a);
  tm_fixture_remove (b);
}

/* The Difference page is there only while comparing: ending the
 * comparison, or opening another file, shows the table again instead of
 * "Not comparing" over an empty table. */
static void
test_difference_page (void)
{
  const char *ids[] = { "GPU_0_bfc", NULL };
  g_autofree char *a = write_profile (ids, 1000, "small", "page-current.xplane.pb");
  g_autofree char *b = write_profile (ids, 3048, "big", "page-baseline.xplane.pb");
  g_autoptr(GFile) file_a = g_file_new_for_path (a);
  g_autoptr(GFile) file_b = g_file_new_for_path (b);
  TmWindow *window = tm_test_new_window ();
  GtkStack *lower_stack = GTK_STACK (tm_test_template_child (window, TM_TYPE_WINDOW, "lower_stack"));
  GtkStackPage *page;

  tm_window_open (window, file_a);
  tm_test_iterate_until (tm_test_not_loading, window);
  page = gtk_stack_get_page (lower_stack, gtk_stack_get_child_by_name (lower_stack, "difference"));
  g_assert_false (gtk_stack_page_get_visible (page));

  for (guint how = 0; how < 2; how++)
    {
      tm_window_compare_with_file (window, file_b);
      tm_test_iterate_until (baseline_settled, window);
      g_assert_cmpstr (gtk_stack_get_visible_child_name (lower_stack), ==, "difference");
      g_assert_true (gtk_stack_page_get_visible (page));

      if (how == 0)
        tm_window_end_comparison (window);
      else
        {
          tm_window_open (window, file_b);
          tm_test_iterate_until (tm_test_not_loading, window);
        }
      tm_test_iterate_for (20);
      g_assert_null (tm_session_get_baseline (tm_window_get_session (window)));
      g_assert_cmpstr (gtk_stack_get_visible_child_name (lower_stack), ==, "table");
      g_assert_false (gtk_stack_page_get_visible (page));
    }

  tm_test_destroy_window (window);
  tm_fixture_remove (a);
  tm_fixture_remove (b);
}

static void
find_op_labels (GtkWidget *widget,
                GPtrArray *found)
{
  if (TM_IS_OP_LABEL (widget))
    g_ptr_array_add (found, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    find_op_labels (child, found);
}

/* The labels under widget whose text starts with prefix, into found. */
static void
find_labels (GtkWidget  *widget,
             const char *prefix,
             GPtrArray  *found)
{
  if (GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_label (GTK_LABEL (widget)), prefix))
    g_ptr_array_add (found, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    find_labels (child, prefix, found);
}

/* Two runs of one Keras model, renumbered: the Difference table marks
 * every op matched by position with "≈", its tooltip names the baseline's
 * op, and the heading counts them. */
static void
test_op_diff_renumbered (void)
{
  g_autoptr(TmFixtureSpace) run_a = tm_fixture_space_new_keras_run (2, 11, 4, 1);
  g_autoptr(TmFixtureSpace) run_b = tm_fixture_space_new_keras_run (3, 14, 6, 2);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) baseline = tm_test_load_space (run_a, &error);
  g_autoptr(TmProfile) current = tm_test_load_space (run_b, &error);
  g_autoptr(TmSession) session = tm_session_new ();
  g_autoptr(GPtrArray) headings = g_ptr_array_new ();
  g_autoptr(GPtrArray) marks = g_ptr_array_new ();
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = tm_op_diff_view_new ();
  gboolean named = FALSE;

  g_assert_no_error (error);
  tm_session_set_profile (session, current);
  tm_session_set_memory_store (session, tm_profile_get_memory_store (current, 0));
  tm_session_set_baseline (session, baseline, tm_profile_get_memory_store (baseline, 0));
  g_object_set (view, "session", session, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 500);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  tm_test_wait_layout_settled (view);

  find_labels (view, "Ops at each profile’s own peak", headings);
  g_assert_cmpuint (headings->len, ==, 1);
  g_assert_nonnull (strstr (gtk_label_get_label (g_ptr_array_index (headings, 0)),
                            "\n≈ 8 ops matched by position: their names differ only in numeric suffixes"));
  find_labels (view, "≈", marks);
  g_assert_cmpuint (marks->len, ==, 8);
  for (guint i = 0; i < marks->len; i++)
    {
      const char *tooltip = gtk_widget_get_tooltip_text (g_ptr_array_index (marks, i));

      g_assert_true (g_str_has_prefix (tooltip, "Matched by its position among its siblings: the baseline calls it “sequential_2/"));
      named |= strstr (tooltip, "“sequential_2/dense_5/MatMul”") != NULL;
    }
  g_assert_true (named);

  /* Op names too long for their column drop whole scopes from their
   * start ("…/dense_7/MatMul"), never cut one in the middle. */
  {
    g_autoptr(GPtrArray) names = g_ptr_array_new ();
    guint shortened = 0;

    gtk_window_set_default_size (GTK_WINDOW (window), 760, 500);
    tm_test_wait_layout_settled (view);
    find_op_labels (view, names);
    g_assert_cmpuint (names->len, >, 0);
    for (guint i = 0; i < names->len; i++)
      {
        TmOpLabel *label = g_ptr_array_index (names, i);
        const char *shown = tm_op_label_get_shown_text (label);
        const char *text = tm_op_label_get_text (label);

        const char *slash = strrchr (text, '/');
        const char *last_two = text;
        const char *tail;

        if (g_strcmp0 (shown, text) == 0)
          continue;
        shortened++;
        g_assert_true (g_str_has_prefix (shown, "…"));
        tail = shown + strlen ("…");
        g_assert_true (g_str_has_suffix (text, tail));
        /* Whole scopes dropped ("…/dense_7/MatMul"), or else the last
         * two cut at their start ("…nse_7/MatMul"). */
        for (const char *p = text; slash != NULL && p < slash; p++)
          if (*p == '/')
            last_two = p + 1;
        if (tail[0] == '/')
          g_assert_true (text[strlen (text) - strlen (tail)] == '/');
        else
          g_assert_cmpuint (strlen (tail), <, strlen (last_two));
      }
    g_assert_cmpuint (shortened, >, 0);
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/compare-window/outline", test_outline);
  g_test_add_func ("/compare-window/flow", test_window_flow);
  g_test_add_func ("/compare-window/op-diff-renumbered", test_op_diff_renumbered);
  g_test_add_func ("/compare-window/difference-page", test_difference_page);

  return g_test_run ();
}
