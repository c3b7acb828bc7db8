/* tm-allocation-cells.c — the cells of the Allocations tab's table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-allocation-cells.h"
#include "tm-allocation-list.h"
#include "tm-breakdown-cells.h"
#include "tm-format.h"
#include "tm-op-label.h"

char *
tm_allocation_cell_text (TmAllocationCell cell,
                         gpointer         item)
{
  TmAllocations *allocations = tm_allocation_item_get_allocations (item);
  guint index = tm_allocation_item_get_index (item);
  const TmAllocation *a = tm_allocations_get (allocations, index);

  switch (cell)
    {
    case TM_ALLOCATION_CELL_OP:
      return g_strdup (tm_allocation_item_get_op_name (item));
    case TM_ALLOCATION_CELL_SIZE:
      return tm_format_bytes (TM_ALLOCATION_BYTES (a));
    /* What the file leaves out reads "unknown", as in the table, not a
     * blank or "INVALID" (docs/ui.md, "Values the file does not hold"). */
    case TM_ALLOCATION_CELL_REGION:
      return g_strdup (tm_op_label_display_value (tm_allocation_item_get_region (item)));
    case TM_ALLOCATION_CELL_DATA_TYPE:
      return g_strdup (tm_op_label_display_value (tm_allocation_item_get_data_type (item)));
    case TM_ALLOCATION_CELL_SHAPE:
      return g_strdup (tm_op_label_display_value (tm_allocation_item_get_shape (item)));
    case TM_ALLOCATION_CELL_ADDRESS:
      /* As the filter reads it (tm-alloc-list.h). */
      return g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", a->address);
    case TM_ALLOCATION_CELL_ALLOCATED_AT:
      if (a->start == TM_ALLOCATIONS_OPEN)
        /* Translators: an allocation's time when the profile holds only its deallocation */
        return g_strdup (_("before the profile"));
      return tm_format_time_ms (tm_allocations_get_start_time (allocations, index));
    case TM_ALLOCATION_CELL_FREED_AT:
      if (a->end == TM_ALLOCATIONS_OPEN)
        return g_strdup (_("never freed"));
      return tm_format_time_ms (tm_allocations_get_end_time (allocations, index));
    case TM_ALLOCATION_CELL_LIFETIME:
      {
        g_autofree char *d = tm_format_duration (tm_allocations_get_end_time (allocations, index) -
                                                 tm_allocations_get_start_time (allocations, index));

        /* An open edge: at least as long as the profile shows it. */
        if (a->start == TM_ALLOCATIONS_OPEN || a->end == TM_ALLOCATIONS_OPEN)
          return g_strdup_printf ("≥ %s", d);
        return g_steal_pointer (&d);
      }
    case TM_ALLOCATION_N_CELLS:
    default:
      g_assert_not_reached ();
    }
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  TmAllocationCell cell = GPOINTER_TO_INT (user_data);
  GtkListItem *list_item = g_object_get_data (G_OBJECT (widget), "tm-list-item");
  gpointer item = list_item != NULL ? gtk_list_item_get_item (list_item) : NULL;
  const TmAllocation *a;
  g_autofree char *text = NULL;

  if (item == NULL)
    return FALSE;
  a = tm_allocations_get (tm_allocation_item_get_allocations (item), tm_allocation_item_get_index (item));

  switch (cell)
    {
    case TM_ALLOCATION_CELL_OP:
      {
        g_autofree char *name = tm_allocation_cell_text (cell, item);

        text = tm_op_label_breakable (name);
      }
      break;
    case TM_ALLOCATION_CELL_REGION:
    case TM_ALLOCATION_CELL_DATA_TYPE:
    case TM_ALLOCATION_CELL_SHAPE:
      text = tm_allocation_cell_text (cell, item);
      break;
    case TM_ALLOCATION_CELL_SIZE:
      text = tm_format_bytes_exact (TM_ALLOCATION_BYTES (a));
      break;
    case TM_ALLOCATION_CELL_ALLOCATED_AT:
    case TM_ALLOCATION_CELL_LIFETIME:
    case TM_ALLOCATION_CELL_FREED_AT:
      if (a->start == TM_ALLOCATIONS_OPEN && cell != TM_ALLOCATION_CELL_FREED_AT)
        text = g_strdup (_("Allocated before the profile started: the profile holds only its deallocation"));
      else if (a->end == TM_ALLOCATIONS_OPEN && cell != TM_ALLOCATION_CELL_ALLOCATED_AT)
        text = g_strdup (_("Never freed: still live at the end of the profile"));
      break;
    case TM_ALLOCATION_CELL_ADDRESS:
    case TM_ALLOCATION_N_CELLS:
    default:
      break;
    }
  if (text == NULL || text[0] == '\0')
    return FALSE;
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
  TmAllocationCell cell = GPOINTER_TO_INT (user_data);
  gboolean numeric = cell == TM_ALLOCATION_CELL_SIZE || cell >= TM_ALLOCATION_CELL_ADDRESS;
  GtkWidget *widget;

  widget = cell == TM_ALLOCATION_CELL_OP ? tm_op_label_new (NULL) : tm_breakdown_cell_new_text (numeric);
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  g_object_set_data (G_OBJECT (widget), "tm-list-item", list_item);
  g_signal_connect (widget, "query-tooltip", G_CALLBACK (query_tooltip_cb), user_data);
  gtk_list_item_set_child (list_item, widget);
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *list_item,
         gpointer                  user_data)
{
  TmAllocationCell cell = GPOINTER_TO_INT (user_data);
  gpointer item = gtk_list_item_get_item (list_item);
  GtkWidget *widget = gtk_list_item_get_child (list_item);
  g_autofree char *text = item != NULL ? tm_allocation_cell_text (cell, item) : NULL;

  if (cell == TM_ALLOCATION_CELL_OP)
    tm_op_label_set_text (TM_OP_LABEL (widget), text);
  else
    gtk_inscription_set_text (GTK_INSCRIPTION (widget), text);
}

GtkListItemFactory *
tm_allocation_cell_factory_new (TmAllocationCell cell)
{
  GtkListItemFactory *factory;

  g_return_val_if_fail (cell < TM_ALLOCATION_N_CELLS, NULL);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), GINT_TO_POINTER (cell));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), GINT_TO_POINTER (cell));
  return factory;
}
