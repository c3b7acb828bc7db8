/* test-summary-cards.c — the summary cards: whole labels at 800 × 600, in
 * Thai and while comparing; cards that lead to their moment, under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gi18n.h>
#include <gtk/gtk.h>

#include "tm-breakdown-view.h"
#include "tm-gui-test-util.h"
#include "tm-memory-map.h"
#include "tm-summary-cards.h"
#include "tm-test-util.h"
#include "tm-window-compare.h"

#define MIB (G_GINT64_CONSTANT (1) << 20)

static char *fixture_dir;
static char *current_path;   /* the lifetime peak before the window peak */
static char *baseline_path;  /* the same, a little more of everything */

/* ------------------------------------------------------------------ */
/* Fixtures                                                            */

/* GPU_0_bfc: 100 MiB (scale) allocated at 1 ms and freed at 2 ms; 60 MiB
 * allocated at 3 ms while the stack holds 80 MiB, never freed. The heap's
 * lifetime peak is at 1 ms, the window peak (stack + heap) at 3 ms. */
static char *
write_profile (const char *basename,
               gint64      scale)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory", 0);
  g_autoptr(GError) error = NULL;
  const struct { gboolean alloc; gint64 t; gint64 stack; gint64 heap; gint64 bytes; guint64 addr; const char *op; } evs[] = {
    { TRUE, 1000000000, 0, 100 * scale, 100 * scale, 0x1000000, "model/dense/MatMul" },
    { FALSE, 2000000000, 0, 0, 100 * scale, 0x1000000, NULL },
    { TRUE, 3000000000, 80 * scale, 60 * scale, 60 * scale, 0x2000000, "model/conv/Conv2D" },
  };
  char *path;

  for (guint i = 0; i < G_N_ELEMENTS (evs); i++)
    {
      TmFixtureMemory m = { 0 };

      m.allocator_name = "GPU_0_bfc";
      m.bytes_reserved = evs[i].stack;
      m.bytes_allocated = evs[i].heap;
      m.bytes_available = 16 * 1024 * MIB - evs[i].stack - evs[i].heap;
      m.fragmentation = 0.015;
      m.peak_bytes_in_use = 100 * scale;
      m.requested_bytes = evs[i].bytes;
      m.allocation_bytes = evs[i].bytes;
      m.addr = evs[i].addr;
      m.tf_op = evs[i].op;
      m.region_type = "output";
      m.data_type = 1;
      m.shape = "[1024,1024]";
      m.has_group_id = TRUE;
      m.group_id = 1;
      tm_fixture_line_add_memory_event (line, evs[i].alloc, evs[i].t, &m);
    }
  path = tm_fixture_space_write (space, fixture_dir, basename, &error);
  g_assert_no_error (error);
  return path;
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static TmSummaryCards *
cards_of (TmWindow *window)
{
  return TM_SUMMARY_CARDS (tm_test_find_widget (window, "summary_cards"));
}

static GtkWidget *
card (TmWindow   *window,
      const char *name)
{
  return tm_test_template_child (cards_of (window), TM_TYPE_SUMMARY_CARDS, name);
}

/* Every label of the cards shows its whole text: a label that does not
 * wrap gets at least its natural width, and no label is ellipsized. */
static void
assert_labels_whole (GtkWidget  *widget,
                     const char *where)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) &&
      gtk_label_get_label (GTK_LABEL (widget))[0] != '\0')
    {
      int natural;

      if (!gtk_label_get_wrap (GTK_LABEL (widget)))
        {
          gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
          if (gtk_widget_get_width (widget) < natural)
            g_error ("%s: “%s” gets %d px of its %d", where, gtk_label_get_label (GTK_LABEL (widget)),
                     gtk_widget_get_width (widget), natural);
        }
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    assert_labels_whole (child, where);
}

/* Nor will one be cut at another size: none ellipsizes. */
static void
assert_no_ellipsis (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (widget)), ==, PANGO_ELLIPSIZE_NONE);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    assert_no_ellipsis (child);
}

/* A figure and its change in per cent stay on one line: no line of a
 * wrapped label opens a parenthesis it does not close. */
static void
assert_lines_keep_figures (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) && gtk_label_get_wrap (GTK_LABEL (widget)))
    {
      PangoLayout *layout = gtk_label_get_layout (GTK_LABEL (widget));
      const char *text = pango_layout_get_text (layout);

      for (GSList *l = pango_layout_get_lines_readonly (layout); l != NULL; l = l->next)
        {
          PangoLayoutLine *line = l->data;
          int depth = 0;

          for (int i = line->start_index; i < line->start_index + line->length; i++)
            depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
          if (depth != 0)
            g_error ("“%s” breaks a figure at a line's end", text);
        }
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    assert_lines_keep_figures (child);
}

static gboolean
baseline_loaded (gpointer data)
{
  return !tm_window_get_comparison_loading (data) &&
         tm_session_get_baseline (tm_window_get_session (data)) != NULL;
}

static TmWindow *
window_of_size (int width,
                int height)
{
  TmWindow *window = tm_test_new_window ();

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  tm_test_open_and_wait (window, current_path);
  return window;
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */

/* At 800 × 600, in English and in Thai, no title, key or figure of a
 * card is cut: the cards take two rows when one is too narrow. */
static void
test_narrow (void)
{
  for (guint thai = 0; thai < 2; thai++)
    {
      TmWindow *window;

      tm_test_use_thai (thai);
      window = window_of_size (800, 600);
      assert_labels_whole (GTK_WIDGET (cards_of (window)), thai ? "800 × 600, Thai" : "800 × 600");
      assert_no_ellipsis (GTK_WIDGET (cards_of (window)));
      tm_test_destroy_window (window);
    }
  tm_test_use_thai (FALSE);
}

/* While comparing, at the default size and at 1400 px: the cards' labels
 * stay whole (the At the Peak card's keys were cut to "…") and a change
 * "(+1.71 %)" stays on the line of its figure. */
static void
test_comparing (void)
{
  const int widths[] = { 1200, 1400 };

  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      g_autoptr(GFile) baseline = g_file_new_for_path (baseline_path);
      TmWindow *window = window_of_size (widths[i], 820);

      tm_window_compare_with_file (window, baseline);
      tm_test_iterate_until (baseline_loaded, window);
      tm_test_wait_layout_settled (GTK_WIDGET (window));
      assert_labels_whole (GTK_WIDGET (cards_of (window)), "comparing");
      assert_lines_keep_figures (GTK_WIDGET (cards_of (window)));
      tm_test_destroy_window (window);
    }
}

/* The card's shortcut for Return (Enter), or NULL. */
static GtkShortcut *
return_shortcut (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (controller)); k++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), k);
          g_autofree char *trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));

          if (g_str_equal (trigger, "Return"))
            return shortcut;  /* the controller keeps it */
        }
    }
  return NULL;
}

/* Activates card as Enter would (a click does the same). */
static void
activate_card (GtkWidget *widget)
{
  GtkShortcut *shortcut = return_shortcut (widget);

  g_assert_nonnull (shortcut);
  g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, widget, NULL));
}

/* A click (or Enter) on a card goes to its moment: Peak Memory Use to the
 * peak, brought into view; Lifetime Peak Heap to when the profile reached
 * it; the never-freed line filters the table and the map. Each
 * card's tooltip says what a click does. */
static void
test_cards_lead (void)
{
  TmWindow *window = window_of_size (1200, 820);
  TmSession *session = tm_window_get_session (window);
  TmViewport *viewport = tm_session_get_viewport (session);
  TmBreakdownView *table = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  TmMemoryMap *map = TM_MEMORY_MAP (tm_test_find_widget (window, "memory_map"));
  const char *cards[] = { "peak_card", "capacity_card", "lifetime_card", "at_peak_card", "activity_card" };
  GtkWidget *never_freed;

  tm_test_wait_allocations (session);
  tm_test_iterate_for (20);
  for (guint i = 0; i < G_N_ELEMENTS (cards); i++)
    {
      GtkWidget *w = card (window, cards[i]);

      g_test_message ("%s", cards[i]);
      g_assert_true (gtk_widget_get_focusable (w));
      g_assert_nonnull (return_shortcut (w));
      g_assert_nonnull (strstr (gtk_widget_get_tooltip_markup (w), "Click to"));
    }

  /* Somewhere else, zoomed in: the peak card selects the peak again and
   * shows it. */
  tm_session_select_time (session, 1500000000);
  tm_viewport_set_range (viewport, 1000000000, 1200000000);
  activate_card (card (window, "peak_card"));
  g_assert_false (tm_session_get_has_selected_time (session));
  g_assert_cmpint (tm_viewport_get_start (viewport), <=, 3000000000);
  g_assert_cmpint (tm_viewport_get_end (viewport), >=, 3000000000);

  /* The lifetime peak heap, at 1 ms, before the window peak. */
  activate_card (card (window, "lifetime_card"));
  g_assert_true (tm_session_get_has_selected_time (session));
  g_assert_cmpint (tm_session_get_selected_time (session), ==, 1000000000);
  g_assert_cmpint (tm_viewport_get_start (viewport), <=, 1000000000);
  g_assert_cmpint (tm_viewport_get_end (viewport), >=, 1000000000);

  /* Never freed: the table's filter and the map's (only those drawn, the
   * header saying so, Show All for the way back). */
  never_freed = card (window, "never_freed_button");
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_markup (never_freed), "Click to"));
  g_assert_false (gtk_check_button_get_active (tm_test_find_check (GTK_WIDGET (table), "_Never freed")));
  g_assert_false (tm_memory_map_get_never_freed_only (map));
  g_signal_emit_by_name (never_freed, "clicked");
  g_assert_true (gtk_check_button_get_active (tm_test_find_check (GTK_WIDGET (table), "_Never freed")));
  g_assert_true (tm_memory_map_get_never_freed_only (map));
  g_assert_true (gtk_widget_get_visible (tm_test_find_button (GTK_WIDGET (map), "Show _All")));
  g_signal_emit_by_name (tm_test_find_button (GTK_WIDGET (map), "Show _All"), "clicked");
  g_assert_false (tm_memory_map_get_never_freed_only (map));

  /* Activity shows the whole profile. */
  tm_viewport_set_range (viewport, 1000000000, 1200000000);
  activate_card (card (window, "activity_card"));
  g_assert_false (tm_viewport_is_zoomed (viewport));

  tm_test_destroy_window (window);
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
  current_path = write_profile ("current.xplane.pb", MIB);
  baseline_path = write_profile ("baseline.xplane.pb", MIB + 12 * 1024);

  g_test_add_func ("/summary-cards/narrow", test_narrow);
  g_test_add_func ("/summary-cards/comparing", test_comparing);
  g_test_add_func ("/summary-cards/cards-lead", test_cards_lead);

  status = g_test_run ();

  tm_fixture_remove (fixture_dir);
  tm_fixture_remove (data_home);
  return status;
}
