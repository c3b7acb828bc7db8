/* tm-window-recent.c — the files and run folders opened lately
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The start page lists the last few profiles and run folders Tidemark
 * opened (GtkRecentManager, where the window adds what it opened), one
 * click each, with the name and the folder. One that no longer exists (a
 * deleted file, or a document portal path that no longer resolves after a
 * restart) is removed from the recent list, and a line under the list says
 * which. The main menu's "Open Recent" submenu has the same ones. Both open
 * through tm_application_open_files(), the application's one way to open
 * (docs/ui.md, "Recent files").
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-application.h"
#include "tm-portal.h"
#include "tm-window-private.h"

#define MAX_RECENT 6

/* The line under the list that says what was removed, and the names. */
#define REMOVED_LABEL_KEY "tm-recent-removed-label"
#define REMOVED_NAMES_KEY "tm-recent-removed-names"

/* Whether info is something Tidemark opened: added by this program, and a
 * profile or a folder. */
static gboolean
is_ours (GtkRecentInfo *info)
{
  const char *uri = gtk_recent_info_get_uri (info);
  const char *mime = gtk_recent_info_get_mime_type (info);
  const char *app = g_get_application_name ();

  if (app == NULL || !gtk_recent_info_has_application (info, app))
    return FALSE;

  /* What it opens, not what it exports (the save dialogs add those). */
  return g_str_has_suffix (uri, ".pb") || g_str_has_suffix (uri, ".json") ||
         g_str_has_suffix (uri, ".jsonl") || g_str_has_suffix (uri, ".gz") ||
         g_str_has_suffix (uri, ".pickle") || g_str_has_suffix (uri, ".pkl") ||
         g_strcmp0 (mime, "inode/directory") == 0;
}

static int
compare_modified (gconstpointer a,
                  gconstpointer b)
{
  GDateTime *ta = gtk_recent_info_get_modified (*(GtkRecentInfo **) a);
  GDateTime *tb = gtk_recent_info_get_modified (*(GtkRecentInfo **) b);

  return g_date_time_compare (tb, ta);
}

/* The newest first, at most MAX_RECENT. */
static GPtrArray *
list_recent (void)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  GPtrArray *ours = g_ptr_array_new_with_free_func ((GDestroyNotify) gtk_recent_info_unref);

  for (GList *l = items; l != NULL; l = l->next)
    if (is_ours (l->data))
      g_ptr_array_add (ours, gtk_recent_info_ref (l->data));
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);

  g_ptr_array_sort (ours, compare_modified);
  if (ours->len > MAX_RECENT)
    g_ptr_array_remove_range (ours, MAX_RECENT, ours->len - MAX_RECENT);
  return ours;
}

/* Removes from GtkRecentManager the local files and folders this program
 * added that no longer exist, and returns their names. */
static GPtrArray *
prune_recent (void)
{
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  GList *items = gtk_recent_manager_get_items (manager);
  GPtrArray *gone = g_ptr_array_new_with_free_func (g_free);

  for (GList *l = items; l != NULL; l = l->next)
    {
      const char *uri = gtk_recent_info_get_uri (l->data);
      g_autoptr(GFile) file = NULL;
      g_autoptr(GError) error = NULL;

      /* GtkRecentInfo can tell only of local files. */
      if (!is_ours (l->data) || !g_str_has_prefix (uri, "file://") || gtk_recent_info_exists (l->data))
        continue;
      file = g_file_new_for_uri (uri);
      if (gtk_recent_manager_remove_item (manager, uri, &error))
        g_ptr_array_add (gone, _tm_window_display_basename (file));
      else
        g_debug ("Cannot remove %s from the recent files: %s", uri, error->message);
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  return gone;
}

/* Says under the list which entries were removed since the window opened. */
static void
show_removed (TmWindow  *self,
              GPtrArray *gone)
{
  GtkLabel *label = g_object_get_data (G_OBJECT (self), REMOVED_LABEL_KEY);
  GPtrArray *names = g_object_get_data (G_OBJECT (self), REMOVED_NAMES_KEY);
  g_autofree char *text = NULL;

  for (guint i = 0; i < gone->len; i++)
    g_ptr_array_add (names, g_strdup (g_ptr_array_index (gone, i)));
  if (names->len == 0)
    return;

  if (names->len == 1)
    /* Translators: under the recent files; %s is a file or folder name */
    text = g_strdup_printf (_("%s no longer exists and was removed from the list"),
                            (const char *) g_ptr_array_index (names, 0));
  else
    /* Translators: under the recent files */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%u file or folder no longer exists and was removed from the list",
                                         "%u files or folders no longer exist and were removed from the list",
                                         names->len),
                            names->len);
  gtk_label_set_label (label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (label), text);
  gtk_widget_set_visible (GTK_WIDGET (label), TRUE);
}

static void
portal_answered_cb (gpointer object)
{
  _tm_window_recent_update (TM_WINDOW (object));
}

/* The folder of a recent file, as the title shows it: for a document
 * portal path, the folder on the host once the portal has told it. */
static char *
folder_of (TmWindow *self,
           GFile    *file)
{
  char *folder = tm_portal_display_folder (file, portal_answered_cb, G_OBJECT (self));

  return folder != NULL ? folder : g_strdup ("");
}

static void
open_uri (TmWindow   *self,
          const char *uri)
{
  g_autoptr(GFile) file = g_file_new_for_uri (uri);

  _tm_window_open_files (self, &file, 1);
}

static void
row_activated_cb (TmWindow      *self,
                  GtkListBoxRow *row,
                  GtkListBox    *list)
{
  const char *uri = g_object_get_data (G_OBJECT (row), "tm-uri");

  if (uri != NULL)
    open_uri (self, uri);
}

static GtkWidget *
make_row (TmWindow      *self,
          GtkRecentInfo *info)
{
  g_autoptr(GFile) file = g_file_new_for_uri (gtk_recent_info_get_uri (info));
  g_autofree char *name = _tm_window_display_basename (file);
  g_autofree char *folder = folder_of (self, file);
  gboolean is_folder = g_strcmp0 (gtk_recent_info_get_mime_type (info), "inode/directory") == 0;
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *icon = gtk_image_new_from_icon_name (is_folder ? "folder-symbolic" : "text-x-generic-symbolic");
  GtkWidget *title = gtk_label_new (name);
  GtkWidget *subtitle = gtk_label_new (folder);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_START);
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_add_css_class (subtitle, "dim-label");
  gtk_widget_add_css_class (subtitle, "caption");
  gtk_box_append (GTK_BOX (texts), title);
  gtk_box_append (GTK_BOX (texts), subtitle);
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), texts);
  gtk_widget_add_css_class (box, "tm-recent-row");
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);

  g_object_set_data_full (G_OBJECT (row), "tm-uri", g_strdup (gtk_recent_info_get_uri (info)), g_free);
  {
    g_autofree char *path = tm_portal_display_path (file);

    gtk_widget_set_tooltip_text (row, path);
  }

  return row;
}

void
_tm_window_recent_update (TmWindow *self)
{
  g_autoptr(GPtrArray) gone = prune_recent ();
  g_autoptr(GPtrArray) recent = list_recent ();
  GtkLabel *removed = g_object_get_data (G_OBJECT (self), REMOVED_LABEL_KEY);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))) != NULL)
    gtk_list_box_remove (self->recent_list, child);
  g_menu_remove_all (self->recent_menu);

  for (guint i = 0; i < recent->len; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (recent, i);
      g_autoptr(GFile) file = g_file_new_for_uri (gtk_recent_info_get_uri (info));
      g_autoptr(GMenuItem) item = NULL;
      g_autofree char *name = NULL;
      g_autofree char *folder = NULL;
      g_autofree char *label = NULL;

      gtk_list_box_append (self->recent_list, make_row (self, info));

      name = _tm_window_display_basename (file);
      folder = folder_of (self, file);
      /* Translators: an item of Open Recent: a file name and its folder */
      label = *folder != '\0' ? g_strdup_printf (_("%s — %s"), name, folder) : g_strdup (name);
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target (item, "win.open-recent", "s", gtk_recent_info_get_uri (info));
      g_menu_append_item (self->recent_menu, item);
    }

  show_removed (self, gone);
  gtk_widget_set_visible (self->recent_box, recent->len > 0 || gtk_widget_get_visible (GTK_WIDGET (removed)));
}

static void
open_recent_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  open_uri (TM_WINDOW (user_data), g_variant_get_string (parameter, NULL));
}

void
_tm_window_recent_init (TmWindow *self)
{
  g_autoptr(GSimpleAction) action = g_simple_action_new ("open-recent", G_VARIANT_TYPE_STRING);
  GtkWidget *removed;

  g_signal_connect (action, "activate", G_CALLBACK (open_recent_action), self);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (action));

  g_signal_connect_object (self->recent_list, "row-activated",
                           G_CALLBACK (row_activated_cb), self, G_CONNECT_SWAPPED);
  removed = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (removed), 0);
  /* Ellipsized, not wrapped: a wrapping label would make the start page,
   * and so the whole window, ask for height-for-width layout. */
  gtk_label_set_ellipsize (GTK_LABEL (removed), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (removed, "dim-label");
  gtk_widget_add_css_class (removed, "caption");
  gtk_widget_set_visible (removed, FALSE);
  gtk_box_append (GTK_BOX (self->recent_box), removed);
  g_object_set_data (G_OBJECT (self), REMOVED_LABEL_KEY, removed);
  g_object_set_data_full (G_OBJECT (self), REMOVED_NAMES_KEY,
                          g_ptr_array_new_with_free_func (g_free), (GDestroyNotify) g_ptr_array_unref);

  g_signal_connect_object (gtk_recent_manager_get_default (), "changed",
                           G_CALLBACK (_tm_window_recent_update), self, G_CONNECT_SWAPPED);
  _tm_window_recent_update (self);
}
