/* tm-breakdown-cells.c — the breakdown table's cells
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-allocation-row.h"
#include "tm-breakdown-cells.h"
#include "tm-format.h"
#include "tm-op-label.h"

/* What a column's cell shows of its row. */
static char *
cell_text (TmBreakdownCell  cell,
           TmAllocationRow *row)
{
  switch (cell)
    {
    case TM_BREAKDOWN_CELL_OP:
      return g_strdup (tm_allocation_row_get_display_name (row));
    case TM_BREAKDOWN_CELL_ALLOCATION:
      return tm_format_bytes (tm_allocation_row_get_allocation_bytes (row));
    case TM_BREAKDOWN_CELL_REQUESTED:
      return tm_format_bytes (tm_allocation_row_get_requested_bytes (row));
    case TM_BREAKDOWN_CELL_OCCURRENCES:
      return tm_format_count (tm_allocation_row_get_occurrences (row));
    /* What the file leaves out reads "unknown", not a blank or "INVALID". */
    case TM_BREAKDOWN_CELL_REGION:
      return g_strdup (tm_op_label_display_value (tm_allocation_row_get_region_type (row)));
    case TM_BREAKDOWN_CELL_DATA_TYPE:
      return g_strdup (tm_op_label_display_value (tm_allocation_row_get_data_type (row)));
    case TM_BREAKDOWN_CELL_SHAPE:
      return g_strdup (tm_op_label_display_value (tm_allocation_row_get_shape (row)));
    case TM_BREAKDOWN_N_CELLS:
    default:
      g_assert_not_reached ();
    }
}

static gboolean
text_is_cut (GtkWidget  *widget,
             const char *text)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  int width;

  pango_layout_get_pixel_size (layout, &width, NULL);
  return width > gtk_widget_get_width (widget);
}

/* The tooltip of a cell: the op's description, exact bytes, what the
 * occurrences count, or (region, data type, shape) the whole text when the
 * column is too narrow for it. */
static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  TmBreakdownCell cell = GPOINTER_TO_INT (user_data);
  GtkListItem *list_item = g_object_get_data (G_OBJECT (widget), "tm-list-item");
  TmAllocationRow *row = list_item != NULL ? gtk_list_item_get_item (list_item) : NULL;
  g_autofree char *text = NULL;

  if (row == NULL)
    return FALSE;

  switch (cell)
    {
    case TM_BREAKDOWN_CELL_OP:
      text = tm_allocation_row_describe (row);
      break;
    case TM_BREAKDOWN_CELL_ALLOCATION:
      text = tm_format_bytes_exact (tm_allocation_row_get_allocation_bytes (row));
      break;
    case TM_BREAKDOWN_CELL_REQUESTED:
      text = tm_format_bytes_exact (tm_allocation_row_get_requested_bytes (row));
      break;
    case TM_BREAKDOWN_CELL_OCCURRENCES:
      {
        guint64 n = tm_allocation_row_get_occurrences (row);
        g_autofree char *count = tm_format_count (n);

        /* Translators: tooltip of the occurrences column */
        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "%s allocation of this op, size, region, type and shape",
                                             "%s allocations of this op, size, region, type and shape",
                                             n),
                                count);
      }
      break;
    case TM_BREAKDOWN_CELL_REGION:
    case TM_BREAKDOWN_CELL_DATA_TYPE:
    case TM_BREAKDOWN_CELL_SHAPE:
      {
        const char *shown = gtk_inscription_get_text (GTK_INSCRIPTION (widget));

        if (shown == NULL || shown[0] == '\0' || !text_is_cut (widget, shown))
          return FALSE;
        text = g_strdup (shown);
      }
      break;
    case TM_BREAKDOWN_N_CELLS:
    default:
      g_assert_not_reached ();
    }

  {
    g_autofree char *markup = g_markup_escape_text (text, -1);

    /* A long op name wraps (tm_op_label_new_tooltip). */
    gtk_tooltip_set_custom (tooltip, tm_op_label_new_tooltip (markup));
  }
  return TRUE;
}

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *list_item,
          gpointer                  user_data)
{
  TmBreakdownCell cell = GPOINTER_TO_INT (user_data);
  gboolean numeric = cell == TM_BREAKDOWN_CELL_ALLOCATION || cell == TM_BREAKDOWN_CELL_REQUESTED ||
                     cell == TM_BREAKDOWN_CELL_OCCURRENCES;
  GtkWidget *widget;

  widget = cell == TM_BREAKDOWN_CELL_OP ? tm_op_label_new (NULL) : tm_breakdown_cell_new_text (numeric);
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  /* The context menu and the tooltip find the row of a cell through it. */
  g_object_set_data (G_OBJECT (widget), "tm-list-item", list_item);
  g_signal_connect (widget, "query-tooltip", G_CALLBACK (query_tooltip_cb), user_data);
  gtk_list_item_set_child (list_item, widget);
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *list_item,
         gpointer                  user_data)
{
  TmBreakdownCell cell = GPOINTER_TO_INT (user_data);
  TmAllocationRow *row = gtk_list_item_get_item (list_item);
  GtkWidget *widget = gtk_list_item_get_child (list_item);
  g_autofree char *text = row != NULL ? cell_text (cell, row) : NULL;

  if (cell == TM_BREAKDOWN_CELL_OP)
    {
      tm_op_label_set_text (TM_OP_LABEL (widget), text);
      /* The rows XProf adds (unaccounted memory, …) stand apart. */
      if (row != NULL && tm_allocation_row_get_special (row))
        gtk_widget_add_css_class (widget, "tm-special-row");
      else
        gtk_widget_remove_css_class (widget, "tm-special-row");
    }
  else
    gtk_inscription_set_text (GTK_INSCRIPTION (widget), text);
}

GtkWidget *
tm_breakdown_cell_new_text (gboolean numeric)
{
  GtkWidget *widget = gtk_inscription_new (NULL);

  gtk_inscription_set_min_chars (GTK_INSCRIPTION (widget), 4);
  gtk_inscription_set_xalign (GTK_INSCRIPTION (widget), numeric ? 1.0f : 0.0f);
  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (widget),
                                     numeric ? GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_START
                                             : GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  if (numeric)
    gtk_widget_add_css_class (widget, "tm-numeric");
  return widget;
}

GtkListItemFactory *
tm_breakdown_cell_factory_new (TmBreakdownCell cell)
{
  GtkListItemFactory *factory;

  g_return_val_if_fail (cell < TM_BREAKDOWN_N_CELLS, NULL);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), GINT_TO_POINTER (cell));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), GINT_TO_POINTER (cell));
  return factory;
}

GtkListItem *
tm_breakdown_cell_find_item (GtkWidget *picked,
                             GtkWidget *stop)
{
  for (GtkWidget *w = picked; w != NULL && w != stop; w = gtk_widget_get_parent (w))
    {
      GtkWidget *child;
      GtkListItem *item;

      if ((item = g_object_get_data (G_OBJECT (w), "tm-list-item")))
        return item;

      /* Over a cell's padding, the cell is picked: look at its child. */
      child = gtk_widget_get_first_child (w);
      if (child != NULL && (item = g_object_get_data (G_OBJECT (child), "tm-list-item")))
        return item;
    }

  return NULL;
}
