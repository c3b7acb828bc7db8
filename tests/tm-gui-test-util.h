/* tm-gui-test-util.h — main-loop helpers shared by the window tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-window.h"

static gboolean
tm_test_wake_up_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop until cond(data) holds; fails after a minute. */
static inline void
iterate_until (gboolean (*cond) (gpointer),
               gpointer   data)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  guint wake = g_timeout_add (20, tm_test_wake_up_cb, NULL);

  while (!cond (data))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("timed out waiting");
      g_main_context_iteration (NULL, TRUE);
    }

  g_source_remove (wake);
}

/* Runs the main loop for ms milliseconds. */
static inline void
iterate_for (guint ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) ms * 1000;
  guint wake = g_timeout_add (10, tm_test_wake_up_cb, NULL);

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (wake);
}

static inline gboolean
not_loading (gpointer data)
{
  return tm_window_get_state (TM_WINDOW (data)) != TM_WINDOW_STATE_LOADING;
}

/* No window of the application (data) is loading. */
static inline gboolean
all_loaded (gpointer data)
{
  for (GList *l = gtk_application_get_windows (data); l; l = l->next)
    if (TM_IS_WINDOW (l->data) && tm_window_get_state (l->data) == TM_WINDOW_STATE_LOADING)
      return FALSE;

  return TRUE;
}
