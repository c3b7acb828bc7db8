/* tm-window-toast.c — "Saved to …" after an export
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A revealer over the bottom of the window: where the file went and an
 * Open button that opens it with the desktop's application for it. It
 * hides itself after a few seconds, or at once with its close button
 * (docs/ui.md, "Export").
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-portal.h"
#include "tm-window-private.h"

#define TOAST_SECONDS 6

static gboolean
hide_toast_cb (gpointer data)
{
  TmWindow *self = data;

  self->toast_source = 0;
  gtk_revealer_set_reveal_child (self->toast_revealer, FALSE);
  return G_SOURCE_REMOVE;
}

static void
toast_open_cb (TmWindow  *self,
               GtkButton *button)
{
  if (self->toast_uri != NULL)
    gtk_show_uri (GTK_WINDOW (self), self->toast_uri, GDK_CURRENT_TIME);
  g_clear_handle_id (&self->toast_source, g_source_remove);
  hide_toast_cb (self);
}

static void
toast_close_cb (TmWindow  *self,
                GtkButton *button)
{
  g_clear_handle_id (&self->toast_source, g_source_remove);
  hide_toast_cb (self);
}

void
tm_window_show_saved (TmWindow *self,
                      GFile    *file)
{
  g_autofree char *name = _tm_window_display_basename (file);
  g_autofree char *path = tm_portal_display_path (file);
  g_autofree char *text = NULL;

  g_return_if_fail (TM_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  g_free (self->toast_uri);
  self->toast_uri = g_file_get_uri (file);

  /* Translators: the toast after an export: "Saved to run-timeline.png" */
  text = g_strdup_printf (_("Saved to %s"), name);
  gtk_label_set_label (self->toast_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->toast_label), path);
  gtk_revealer_set_reveal_child (self->toast_revealer, TRUE);

  g_clear_handle_id (&self->toast_source, g_source_remove);
  self->toast_source = g_timeout_add_seconds (TOAST_SECONDS, hide_toast_cb, self);
}

void
_tm_window_toast_init (TmWindow *self)
{
  g_signal_connect_object (self->toast_open_button, "clicked",
                           G_CALLBACK (toast_open_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->toast_close_button, "clicked",
                           G_CALLBACK (toast_close_cb), self, G_CONNECT_SWAPPED);
}

void
_tm_window_toast_dispose (TmWindow *self)
{
  g_clear_handle_id (&self->toast_source, g_source_remove);
  g_clear_pointer (&self->toast_uri, g_free);
}
