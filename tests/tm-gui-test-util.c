/* tm-gui-test-util.c — helpers shared by the window tests (under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-gui-test-util.h"

static gboolean
wake_up_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

void
tm_test_iterate_until (gboolean (*cond) (gpointer),
                       gpointer   data)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  guint wake = g_timeout_add (20, wake_up_cb, NULL);

  while (!cond (data))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("timed out waiting");
      g_main_context_iteration (NULL, TRUE);
    }

  g_source_remove (wake);
}

void
tm_test_iterate_for (guint ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) ms * 1000;
  guint wake = g_timeout_add (10, wake_up_cb, NULL);

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (wake);
}

gboolean
tm_test_not_loading (gpointer data)
{
  return tm_window_get_state (TM_WINDOW (data)) != TM_WINDOW_STATE_LOADING;
}

gboolean
tm_test_all_loaded (gpointer data)
{
  if (g_application_get_is_busy (G_APPLICATION (data)))
    return FALSE;

  for (GList *l = gtk_application_get_windows (data); l; l = l->next)
    if (TM_IS_WINDOW (l->data) && tm_window_get_state (l->data) == TM_WINDOW_STATE_LOADING)
      return FALSE;

  return TRUE;
}

TmWindow *
tm_test_new_window (void)
{
  TmWindow *window = tm_window_new (NULL);

  g_object_ref_sink (window);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

void
tm_test_destroy_window (TmWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (window);
}

GtkWidget *
tm_test_template_child (gpointer    widget,
                        GType       type,
                        const char *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (widget), type, name);

  g_assert_nonnull (child);
  return GTK_WIDGET (child);
}

guint
tm_test_count_windows (GtkApplication *app)
{
  return g_list_length (gtk_application_get_windows (app));
}
