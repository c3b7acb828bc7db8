/* test-shortcuts-window.c — the shortcuts window: every gesture and key
 * the window has, named in words
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under Xvfb, with an application of its own (registered once per
 * process).
 */
#include "config.h"

#include <string.h>
#include <gtk/gtk.h>

#include "tm-application.h"
#include "tm-test-util.h"
#include "tm-window.h"
#include "tm-gui-test-util.h"

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

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = tm_test_gui_init (&argc, &argv);
  int status;

  g_test_add_func ("/shortcuts-window/gestures-and-keys", test_shortcuts_window);

  status = g_test_run ();

  tm_fixture_remove (data_home);
  return status;
}
