/* tm-snapshot-columns.c — a table's column titles in PyTorch's words
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-snapshot-columns.h"

#define MADE_TITLE_KEY "tm-made-title"

void
tm_snapshot_columns_apply (GtkColumnView *view,
                           TmSession     *session,
                           TmMemoryStore *store)
{
  GListModel *columns;
  TmProfile *profile;
  gboolean snapshot;

  g_return_if_fail (GTK_IS_COLUMN_VIEW (view));

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
}
