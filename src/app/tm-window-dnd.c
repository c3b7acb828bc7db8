/* tm-window-dnd.c — dropping files and run directories on the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One or more files (GdkFileList) or a single GFile may be dropped anywhere
 * on the window; while a drag hovers, a highlight covers the window. The
 * first file opens in this window, the others in windows of their own.
 */
#include "config.h"

#include "tm-window-private.h"

static GdkDragAction
drop_enter_cb (TmWindow      *self,
               double         x,
               double         y,
               GtkDropTarget *target)
{
  gtk_revealer_set_reveal_child (self->drop_revealer, TRUE);

  return GDK_ACTION_COPY;
}

static void
drop_leave_cb (TmWindow      *self,
               GtkDropTarget *target)
{
  gtk_revealer_set_reveal_child (self->drop_revealer, FALSE);
}

static gboolean
drop_cb (TmWindow      *self,
         const GValue  *value,
         double         x,
         double         y,
         GtkDropTarget *target)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);

  gtk_revealer_set_reveal_child (self->drop_revealer, FALSE);

  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    {
      GSList *list = gdk_file_list_get_files (g_value_get_boxed (value));

      for (const GSList *l = list; l != NULL; l = l->next)
        g_ptr_array_add (files, g_object_ref (l->data));
      g_slist_free (list);
    }
  else if (G_VALUE_HOLDS (value, G_TYPE_FILE))
    {
      g_ptr_array_add (files, g_value_dup_object (value));
    }

  if (files->len == 0)
    return FALSE;

  _tm_window_open_files (self, (GFile **) files->pdata, files->len);

  return TRUE;
}

void
_tm_window_dnd_init (TmWindow *self)
{
  GtkDropTarget *target;
  GType types[] = { GDK_TYPE_FILE_LIST, G_TYPE_FILE };

  target = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);
  gtk_drop_target_set_gtypes (target, types, G_N_ELEMENTS (types));

  g_signal_connect_object (target, "enter", G_CALLBACK (drop_enter_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (target, "leave", G_CALLBACK (drop_leave_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (target, "drop", G_CALLBACK (drop_cb), self, G_CONNECT_SWAPPED);

  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));
}
