/* tm-allocation-cells.h — the cells of the Allocations tab's table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The column factories of the allocations view (tm-allocations-view), for
 * TmAllocationItem rows: the op name in a TmOpLabel, the other columns in
 * GtkInscriptions, made and filled in C and with their tooltips made when
 * asked for, as the breakdown table's cells (tm-breakdown-cells.h says
 * why). Times in milliseconds; the open edges of a lifetime (made before
 * the profile, never freed) in words (docs/ui.md, "The allocations"). No
 * session: a drawing helper of the view.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* In the order of the columns, and of tm-alloc-list's sorts after
 * TM_ALLOC_LIST_SORT_INDEX. */
typedef enum
{
  TM_ALLOCATION_CELL_OP,
  TM_ALLOCATION_CELL_SIZE,
  TM_ALLOCATION_CELL_REGION,
  TM_ALLOCATION_CELL_DATA_TYPE,
  TM_ALLOCATION_CELL_SHAPE,
  TM_ALLOCATION_CELL_ADDRESS,
  TM_ALLOCATION_CELL_ALLOCATED_AT,
  TM_ALLOCATION_CELL_FREED_AT,
  TM_ALLOCATION_CELL_LIFETIME,
  TM_ALLOCATION_N_CELLS,
} TmAllocationCell;

/* The factory of a column's cells. */
GtkListItemFactory *tm_allocation_cell_factory_new (TmAllocationCell  cell);
/* What a cell of the column shows for item (a TmAllocationItem). */
char               *tm_allocation_cell_text        (TmAllocationCell  cell,
                                                    gpointer          item);

G_END_DECLS
