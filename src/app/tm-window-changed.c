/* tm-window-changed.c — "The file changed on disk" and Reload
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A banner at the top of the profile page (a revealer above the summary
 * cards, pushing them down) when the file shown (of a run: the current host's) is overwritten, replaced,
 * truncated or removed after it was loaded: what is shown is the old data
 * until the user presses Reload (docs/ui.md, "When the file changes").
 * A GFileMonitor on the shown file says when to look; whether it changed
 * is what tm_window_get_file_changed() says (its modification time or
 * size differ from those at loading), so touching it back, or an event
 * for another file of the folder, shows nothing.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-window-private.h"

static void
check_now (TmWindow *self)
{
  gboolean changed;

  /* While a load runs, its end looks again. */
  if (self->load_cancellable != NULL)
    return;
  changed = self->shown.file != NULL && self->shown.state == TM_WINDOW_STATE_PROFILE &&
            tm_window_get_file_changed (self);
  gtk_revealer_set_reveal_child (self->changed_revealer, changed);
}

static void
monitor_changed_cb (GFileMonitor      *monitor,
                    GFile             *file,
                    GFile             *other_file,
                    GFileMonitorEvent  event,
                    TmWindow          *self)
{
  /* Attribute changes (a chmod) and the start of a write say nothing yet;
   * the end of a write, a replacement, a move or a removal do. */
  if (event == G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED || event == G_FILE_MONITOR_EVENT_PRE_UNMOUNT)
    return;
  check_now (self);
}

/* The shown content changed: watch its file. */
static void
shown_changed_cb (TmWindow   *self,
                  GParamSpec *pspec)
{
  GFile *file = self->shown.state == TM_WINDOW_STATE_PROFILE ? self->shown.file : NULL;

  if (self->load_cancellable != NULL)
    return;

  if (file == NULL || self->changed_file == NULL || !g_file_equal (file, self->changed_file))
    {
      if (self->changed_monitor != NULL)
        {
          g_file_monitor_cancel (self->changed_monitor);
          g_clear_object (&self->changed_monitor);
        }
      g_clear_object (&self->changed_file);
      if (file != NULL)
        {
          self->changed_file = g_object_ref (file);
          /* WATCH_MOVES: a file replaced by a rename (how editors and
           * profilers save) is an event of its own. */
          self->changed_monitor = g_file_monitor_file (file, G_FILE_MONITOR_WATCH_MOVES, NULL, NULL);
          if (self->changed_monitor != NULL)
            g_signal_connect_object (self->changed_monitor, "changed",
                                     G_CALLBACK (monitor_changed_cb), self, 0);
        }
    }
  check_now (self);
}

static void
reload_clicked_cb (TmWindow  *self,
                   GtkButton *button)
{
  gtk_revealer_set_reveal_child (self->changed_revealer, FALSE);
  tm_window_reload (self);
}

GtkWidget *
tm_window_get_changed_banner (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  return GTK_WIDGET (self->changed_revealer);
}

void
_tm_window_changed_init (TmWindow *self)
{
  g_signal_connect_object (self->changed_reload_button, "clicked",
                           G_CALLBACK (reload_clicked_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect (self, "notify::profile", G_CALLBACK (shown_changed_cb), NULL);
  g_signal_connect (self, "notify::state", G_CALLBACK (shown_changed_cb), NULL);
}

void
_tm_window_changed_dispose (TmWindow *self)
{
  if (self->changed_monitor != NULL)
    {
      g_file_monitor_cancel (self->changed_monitor);
      g_clear_object (&self->changed_monitor);
    }
  g_clear_object (&self->changed_file);
}
