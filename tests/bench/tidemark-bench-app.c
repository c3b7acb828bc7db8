/* tidemark-bench-app.c — the application, reporting its first frames
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   tidemark-bench-app PROFILE
 *
 * For bench-window (docs/performance.md): Tidemark's application as
 * src/main.c runs it, plus two lines on standard output, both with the
 * monotonic clock: "tidemark-bench shown-us=N" once the first frame after
 * a window shows a profile has been painted, and "tidemark-bench
 * indexed-us=N" once the first frame with the shown memory id's
 * allocation index has been painted. The hooks use only the window's
 * public API, so the product itself carries no test hook.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>

#include "tm-allocations-query.h"
#include "tm-application.h"
#include "tm-window.h"

static void
print_clock (const char *what)
{
  g_print ("tidemark-bench %s=%" G_GINT64_FORMAT "\n", what, g_get_monotonic_time ());
  fflush (stdout);
}

static void
indexed_paint_cb (GdkFrameClock *clock,
                  gpointer       user_data)
{
  g_signal_handlers_disconnect_by_func (clock, indexed_paint_cb, user_data);
  print_clock ("indexed-us");
}

static void
allocations_cb (TmWindow           *window,
                GParamSpec         *pspec,
                TmAllocationsQuery *query)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));

  if (tm_allocations_query_get_allocations (query) == NULL || clock == NULL)
    return;
  g_signal_handlers_disconnect_by_func (query, allocations_cb, window);
  g_signal_connect (clock, "after-paint", G_CALLBACK (indexed_paint_cb), NULL);
  gtk_widget_queue_draw (GTK_WIDGET (window));
}

static void
shown_paint_cb (GdkFrameClock *clock,
                gpointer       user_data)
{
  g_signal_handlers_disconnect_by_func (clock, shown_paint_cb, user_data);
  print_clock ("shown-us");
}

/* The window shows a profile: the next frame painted has its data. */
static void
profile_cb (TmWindow   *window,
            GParamSpec *pspec,
            gpointer    user_data)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));

  if (tm_window_get_profile (window) == NULL || clock == NULL)
    return;
  g_signal_handlers_disconnect_by_func (window, profile_cb, user_data);
  g_signal_connect (clock, "after-paint", G_CALLBACK (shown_paint_cb), NULL);
  g_signal_connect_object (tm_allocations_query_get_for_session (tm_window_get_session (window)), "notify::allocations",
                           G_CALLBACK (allocations_cb), window, G_CONNECT_SWAPPED);
  gtk_widget_queue_draw (GTK_WIDGET (window));
}

static void
window_added_cb (GtkApplication *app,
                 GtkWindow      *window,
                 gpointer        user_data)
{
  if (TM_IS_WINDOW (window))
    g_signal_connect (window, "notify::profile", G_CALLBACK (profile_cb), NULL);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(TmApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = tm_application_new ();
  g_signal_connect (app, "window-added", G_CALLBACK (window_added_cb), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
