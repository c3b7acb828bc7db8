/* tm-op-diff-view.c — a comparison's diff by op name, as a table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-comparison-query.h"
#include "tm-format.h"
#include "tm-op-diff-view.h"
#include "tm-op-label.h"

/* ------------------------------------------------------------------ */
/* A row: one entry of the comparison, which it keeps alive            */

#define TM_TYPE_OP_DIFF_ITEM (tm_op_diff_item_get_type ())

G_DECLARE_FINAL_TYPE (TmOpDiffItem, tm_op_diff_item, TM, OP_DIFF_ITEM, GObject)

struct _TmOpDiffItem
{
  GObject               parent_instance;
  TmCompare            *compare;
  const TmCompareEntry *entry;
};

G_DEFINE_FINAL_TYPE (TmOpDiffItem, tm_op_diff_item, G_TYPE_OBJECT)

static void
tm_op_diff_item_dispose (GObject *object)
{
  g_clear_object (&TM_OP_DIFF_ITEM (object)->compare);
  G_OBJECT_CLASS (tm_op_diff_item_parent_class)->dispose (object);
}

static void
tm_op_diff_item_class_init (TmOpDiffItemClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tm_op_diff_item_dispose;
}

static void
tm_op_diff_item_init (TmOpDiffItem *self)
{
}

/* ------------------------------------------------------------------ */
/* The view                                                             */

typedef enum
{
  COLUMN_NAME,
  COLUMN_BASELINE,
  COLUMN_CURRENT,
  COLUMN_DELTA,
  COLUMN_CHANGE,
  COLUMN_STATUS,
} Column;

struct _TmOpDiffView
{
  TmView         parent_instance;

  GtkWidget     *box;
  GtkLabel      *heading;
  GtkColumnView *column_view;
  GListStore    *rows;
};

G_DEFINE_FINAL_TYPE (TmOpDiffView, tm_op_diff_view, TM_TYPE_VIEW)

static void
rebuild (TmOpDiffView *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmCompare *compare = session != NULL ? tm_comparison_query_get_comparison (tm_comparison_query_get_for_session (session)) : NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  GPtrArray *ops;
  g_autofree char *heading = NULL;

  if (compare != NULL)
    {
      const TmCompareFigure *peak = tm_compare_lookup_figure (compare, "peak_bytes_in_use");
      g_autofree char *delta = tm_format_bytes_delta (peak->delta);
      guint n_renumbered = 0;

      ops = tm_compare_get_op_diff (compare);
      for (guint i = 0; i < ops->len; i++)
        {
          TmOpDiffItem *item = g_object_new (TM_TYPE_OP_DIFF_ITEM, NULL);

          item->compare = g_object_ref (compare);
          item->entry = g_ptr_array_index (ops, i);
          n_renumbered += item->entry->renumbered;
          g_ptr_array_add (items, item);
        }
      /* Translators: the heading of the op diff; %s is the change of the peak, e.g. "+1.20 MiB" */
      heading = g_strdup_printf (_("Ops at each profile’s own peak, against the baseline — the peak changed by %s"), delta);
      if (n_renumbered > 0)
        {
          g_autofree char *matched = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                                   "≈ %u op matched by position: its names differ only in numeric suffixes",
                                                                   "≈ %u ops matched by position: their names differ only in numeric suffixes",
                                                                   n_renumbered),
                                                      n_renumbered);
          g_autofree char *both = g_strdup_printf ("%s\n%s", heading, matched);

          g_free (heading);
          heading = g_steal_pointer (&both);
        }
    }
  g_list_store_splice (self->rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->rows)),
                       items->pdata, items->len);
  gtk_label_set_label (self->heading, heading != NULL ? heading : _("Not comparing"));
}

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *list_item)
{
  Column column = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "tm-column"));
  GtkWidget *label;

  /* Op names drop whole scopes from their start to fit, as in the table
   * (docs/ui.md, "Long op names"). */
  if (column == COLUMN_NAME)
    {
      gtk_list_item_set_child (list_item, tm_op_label_new (NULL));
      return;
    }
  label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (label), column == COLUMN_STATUS ? 0 : 1);
  gtk_widget_add_css_class (label, "tm-numeric");
  gtk_list_item_set_child (list_item, label);
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *list_item)
{
  Column column = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "tm-column"));
  TmOpDiffItem *item = gtk_list_item_get_item (list_item);
  const TmCompareEntry *e = item->entry;
  GtkWidget *label = gtk_list_item_get_child (list_item);
  g_autofree char *text = NULL;
  g_autofree char *tooltip = NULL;

  switch (column)
    {
    case COLUMN_NAME:
      {
        g_autofree char *name = tm_op_label_display_name (e->name, FALSE);

        tm_op_label_set_text (TM_OP_LABEL (label), name);
        gtk_widget_set_tooltip_text (label, name);
      }
      return;
    case COLUMN_BASELINE:
      text = e->status == TM_COMPARE_NEW ? g_strdup ("—") : tm_format_bytes (e->baseline_bytes);
      tooltip = tm_format_bytes_exact (e->baseline_bytes);
      break;
    case COLUMN_CURRENT:
      text = e->status == TM_COMPARE_GONE ? g_strdup ("—") : tm_format_bytes (e->current_bytes);
      tooltip = tm_format_bytes_exact (e->current_bytes);
      break;
    case COLUMN_DELTA:
      text = tm_format_bytes_delta (e->delta);
      tooltip = tm_format_bytes_exact (e->delta);
      break;
    case COLUMN_CHANGE:
      text = tm_format_percent_change (e->delta, e->baseline_bytes);
      if (text == NULL)
        text = g_strdup ("—");
      break;
    case COLUMN_STATUS:
    default:
      if (e->renumbered)
        {
          /* Translators: the mark of an op matched by its position, its name
           * differing only in numeric suffixes; keep it one character */
          text = g_strdup (C_("compare", "≈"));
          tooltip = g_markup_printf_escaped (_("Matched by its position among its siblings: the baseline calls it “%s”"),
                                             e->baseline_name);
        }
      else
        text = g_strdup (e->status == TM_COMPARE_NEW ? _("new") : e->status == TM_COMPARE_GONE ? _("gone") : "");
      break;
    }
  gtk_label_set_label (GTK_LABEL (label), text);
  gtk_widget_set_tooltip_markup (label, tooltip);
}

static void
add_column (TmOpDiffView *self,
            const char   *title,
            Column        column)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkColumnViewColumn) col = NULL;

  g_object_set_data (G_OBJECT (factory), "tm-column", GINT_TO_POINTER (column));
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), NULL);
  col = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_resizable (col, TRUE);
  gtk_column_view_column_set_expand (col, column == COLUMN_NAME);
  gtk_column_view_append_column (self->column_view, col);
}

static void
session_changed (TmView    *view,
                 TmSession *old_session)
{
  rebuild (TM_OP_DIFF_VIEW (view));
}

static void
tm_op_diff_view_dispose (GObject *object)
{
  TmOpDiffView *self = TM_OP_DIFF_VIEW (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->rows);

  G_OBJECT_CLASS (tm_op_diff_view_parent_class)->dispose (object);
}

static void
tm_op_diff_view_class_init (TmOpDiffViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TmViewClass *view_class = TM_VIEW_CLASS (klass);

  object_class->dispose = tm_op_diff_view_dispose;
  view_class->session_changed = session_changed;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tm-op-diff-view");
}

static void
tm_op_diff_view_init (TmOpDiffView *self)
{
  GSignalGroup *signals;
  GtkWidget *scrolled;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->heading = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->heading, 0);
  gtk_label_set_ellipsize (self->heading, PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (GTK_WIDGET (self->heading), "heading");
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->heading));

  self->rows = g_list_store_new (TM_TYPE_OP_DIFF_ITEM);
  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (GTK_SELECTION_MODEL (
    gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->rows))))));
  gtk_widget_add_css_class (GTK_WIDGET (self->column_view), "data-table");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->column_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Difference by op"), -1);
  add_column (self, _("Op name"), COLUMN_NAME);
  add_column (self, _("Baseline at its peak"), COLUMN_BASELINE);
  add_column (self, _("This profile at its peak"), COLUMN_CURRENT);
  add_column (self, _("Difference"), COLUMN_DELTA);
  add_column (self, _("Change"), COLUMN_CHANGE);
  add_column (self, _("New or gone"), COLUMN_STATUS);

  scrolled = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->column_view));
  gtk_box_append (GTK_BOX (self->box), scrolled);

  signals = tm_view_get_session_signals (TM_VIEW (self));
  g_signal_group_connect_swapped (signals, "notify::memory-store", G_CALLBACK (rebuild), self);
  g_signal_group_connect_swapped (signals, "notify::baseline", G_CALLBACK (rebuild), self);
  rebuild (self);
}

GtkWidget *
tm_op_diff_view_new (void)
{
  return g_object_new (TM_TYPE_OP_DIFF_VIEW, NULL);
}

GtkColumnView *
tm_op_diff_view_get_column_view (TmOpDiffView *self)
{
  g_return_val_if_fail (TM_IS_OP_DIFF_VIEW (self), NULL);
  return self->column_view;
}
