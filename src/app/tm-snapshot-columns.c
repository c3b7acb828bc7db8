/* tm-snapshot-columns.c — a table's column titles in PyTorch's words
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-snapshot-columns.h"

#define MADE_TITLE_KEY "tm-made-title"

gboolean
tm_snapshot_columns_apply (GtkColumnView *view,
                           TmSession     *session,
                           TmMemoryStore *store)
{
  GListModel *columns;
  TmProfile *profile;
  gboolean snapshot;

  g_return_val_if_fail (GTK_IS_COLUMN_VIEW (view), FALSE);

  profile = session != NULL ? tm_session_get_profile (session) : NULL;
  snapshot = profile != NULL && store != NULL && tm_profile_lookup_segments (profile, store) != NULL;
  columns = gtk_column_view_get_columns (view);
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      const char *made = g_object_get_data (G_OBJECT (column), MADE_TITLE_KEY);
      const char *title;
      gboolean visible = TRUE;

      if (made == NULL)
        {
          made = gtk_column_view_column_get_title (column);
          g_object_set_data_full (G_OBJECT (column), MADE_TITLE_KEY, g_strdup (made != NULL ? made : ""), g_free);
          made = g_object_get_data (G_OBJECT (column), MADE_TITLE_KEY);
        }
      title = made;
      if (snapshot && g_str_equal (made, _("Op Name")))
        /* Translators: a table's column of a PyTorch snapshot's stacks */
        title = C_("column", "Stack");
      else if (snapshot && g_str_equal (made, _("Region")))
        /* Translators: a table's column of a PyTorch snapshot's trace
         * actions (alloc, or how an allocation live from the start was
         * found) */
        title = C_("column", "Action");
      else if (snapshot && g_str_equal (made, C_("column", "Shape")))
        /* Translators: a table's column of a PyTorch snapshot's CUDA
         * streams */
        title = C_("column", "Stream");
      else if (snapshot && g_str_equal (made, _("Data Type")))
        visible = FALSE;
      if (g_strcmp0 (gtk_column_view_column_get_title (column), title) != 0)
        gtk_column_view_column_set_title (column, title);
      gtk_column_view_column_set_visible (column, visible);
    }
  return snapshot;
}

/* The text entry's words as made, kept on it under key. */
static const char *
made_text (GObject    *entry,
           const char *key,
           const char *property)
{
  const char *made = g_object_get_data (entry, key);

  if (made == NULL)
    {
      g_autofree char *text = NULL;

      g_object_get (entry, property, &text, NULL);
      g_object_set_data_full (entry, key, g_strdup (text != NULL ? text : ""), g_free);
      made = g_object_get_data (entry, key);
    }
  return made;
}

void
tm_snapshot_columns_apply_search (GtkEditable *entry,
                                  gboolean     snapshot)
{
  const char *placeholder, *tooltip;

  g_return_if_fail (GTK_IS_EDITABLE (entry));

  placeholder = made_text (G_OBJECT (entry), "tm-made-placeholder", "placeholder-text");
  tooltip = made_text (G_OBJECT (entry), "tm-made-tooltip", "tooltip-text");
  if (snapshot)
    {
      /* Translators: the placeholder of the filter of a PyTorch
       * snapshot's table, whose rows are stacks */
      placeholder = _("Filter by stack frame");
      tooltip = _("Show only rows whose stack contains this text (Ctrl+F)");
    }
  g_object_set (entry, "placeholder-text", placeholder, "tooltip-text", tooltip, NULL);
}

char *
tm_snapshot_columns_describe_no_match (TmSession     *session,
                                       TmMemoryStore *store,
                                       gboolean       hide_small,
                                       const char    *search)
{
  TmProfile *profile = session != NULL ? tm_session_get_profile (session) : NULL;

  g_return_val_if_fail (search != NULL, NULL);

  if (profile != NULL && store != NULL && tm_profile_lookup_segments (profile, store) != NULL)
    return hide_small ? g_strdup_printf (_("No stack of 1 MiB or more contains “%s”."), search)
                      : g_strdup_printf (_("No stack contains “%s”."), search);
  return hide_small ? g_strdup_printf (_("No op name of 1 MiB or more contains “%s”."), search)
                    : g_strdup_printf (_("No op name contains “%s”."), search);
}
