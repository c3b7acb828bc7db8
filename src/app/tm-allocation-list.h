/* tm-allocation-list.h — the Allocations tab's rows as a list model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GListModel over an array of allocation indices (tm-alloc-list's
 * answer): its items (TmAllocationItem) are made when the list view asks
 * for one, so a list of millions costs four bytes a row. Each item knows
 * its allocation and says what the columns show. No session: a model of
 * the allocations view.
 */
#pragma once

#include <gio/gio.h>

#include "tm-allocations.h"

G_BEGIN_DECLS

/* One allocation of an index, as a row. */
#define TM_TYPE_ALLOCATION_ITEM (tm_allocation_item_get_type ())

G_DECLARE_FINAL_TYPE (TmAllocationItem, tm_allocation_item, TM, ALLOCATION_ITEM, GObject)

TmAllocations *tm_allocation_item_get_allocations (TmAllocationItem *self);
guint          tm_allocation_item_get_index       (TmAllocationItem *self);
/* The op name as the views show it ("unknown" when the file has none;
 * docs/ui.md, "Values the file does not hold"), its region and data type. */
const char    *tm_allocation_item_get_op_name     (TmAllocationItem *self);
const char    *tm_allocation_item_get_region      (TmAllocationItem *self);
const char    *tm_allocation_item_get_data_type   (TmAllocationItem *self);
/* Decoded from the file on first use (or from shapes the index carries,
 * tm_allocation_list_set_shapes); "" when it cannot be read. */
const char    *tm_allocation_item_get_shape       (TmAllocationItem *self);

#define TM_TYPE_ALLOCATION_LIST (tm_allocation_list_get_type ())

G_DECLARE_FINAL_TYPE (TmAllocationList, tm_allocation_list, TM, ALLOCATION_LIST, GObject)

TmAllocationList *tm_allocation_list_new       (void);
/* Shows the allocations of allocations at indices (taken; NULL: none), in
 * that order. */
void              tm_allocation_list_set       (TmAllocationList *self,
                                                TmAllocations    *allocations,
                                                GArray           *indices);
TmAllocations    *tm_allocation_list_get_allocations (TmAllocationList *self);
/* The allocation index at position. */
guint             tm_allocation_list_get_index (TmAllocationList *self,
                                                guint             position);
/* The position of allocation index, or GTK's invalid position (G_MAXUINT). */
guint             tm_allocation_list_find      (TmAllocationList *self,
                                                guint             index);

/* Every shape of allocations, decoded once (tm_alloc_shapes_new), kept
 * with the index for the items; NULL until they are. */
#define TM_ALLOCATION_LIST_SHAPES_KEY "tm-alloc-shapes"

G_END_DECLS
