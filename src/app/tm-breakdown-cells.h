/* tm-breakdown-cells.h — the breakdown table's cells
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The column factories of the breakdown table (tm-breakdown-view): the op
 * name in a TmOpLabel, the other columns in GtkInscriptions, which measure
 * and recycle cheaply. Each cell is made and filled in C: GTK 4.8's list
 * view keeps some 200 rows, each with a cell per column, and a
 * GtkBuilderListItemFactory parsed its template and bound expressions for
 * every one of them, a good part of the first frame. Tooltips are made
 * when asked for (query-tooltip), not when a row is bound: setting a
 * tooltip on a widget queries the pointer, which would make fast scrolling
 * slow. No session: a drawing helper of the table.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum
{
  TM_BREAKDOWN_CELL_OP,
  TM_BREAKDOWN_CELL_ALLOCATION,
  TM_BREAKDOWN_CELL_REQUESTED,
  TM_BREAKDOWN_CELL_OCCURRENCES,
  TM_BREAKDOWN_CELL_REGION,
  TM_BREAKDOWN_CELL_DATA_TYPE,
  TM_BREAKDOWN_CELL_SHAPE,
  TM_BREAKDOWN_N_CELLS,
} TmBreakdownCell;

/* The factory of a column's cells, for TmAllocationRow items. */
GtkListItemFactory *tm_breakdown_cell_factory_new (TmBreakdownCell cell);

/* A cell of text as the table's: a GtkInscription, cut at its end, or
 * for a number right-aligned, cut at its start, in tabular figures (the
 * allocations view's cells are made alike). */
GtkWidget          *tm_breakdown_cell_new_text    (gboolean         numeric);

/* The list item of a cell (or of the cell holding widget, when the pointer
 * is over a cell's padding), looking up from picked to stop; NULL if none. */
GtkListItem        *tm_breakdown_cell_find_item   (GtkWidget       *picked,
                                                   GtkWidget       *stop);

G_END_DECLS
