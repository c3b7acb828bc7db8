/* tm-allocation-row.h — one row of the breakdown table, as a GObject
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "tm-types.h"

G_BEGIN_DECLS

#define TM_TYPE_ALLOCATION_ROW (tm_allocation_row_get_type ())

G_DECLARE_FINAL_TYPE (TmAllocationRow, tm_allocation_row, TM, ALLOCATION_ROW, GObject)

/* index is the row's position in the order the core gave (allocation bytes
 * descending ...); sorters fall back to it so that ties stay stable. */
TmAllocationRow *tm_allocation_row_new                  (const TmBreakdownRow *row,
                                                         guint                 index);

const char      *tm_allocation_row_get_op_name          (TmAllocationRow      *self);
gint64           tm_allocation_row_get_allocation_bytes (TmAllocationRow      *self);
gint64           tm_allocation_row_get_requested_bytes  (TmAllocationRow      *self);
guint64          tm_allocation_row_get_occurrences      (TmAllocationRow      *self);
const char      *tm_allocation_row_get_region_type      (TmAllocationRow      *self);
const char      *tm_allocation_row_get_data_type        (TmAllocationRow      *self);
const char      *tm_allocation_row_get_shape            (TmAllocationRow      *self);
gint64           tm_allocation_row_get_step_id          (TmAllocationRow      *self);
guint64          tm_allocation_row_get_address          (TmAllocationRow      *self);
gint64           tm_allocation_row_get_time_ps          (TmAllocationRow      *self);
gboolean         tm_allocation_row_get_special          (TmAllocationRow      *self);
guint            tm_allocation_row_get_index            (TmAllocationRow      *self);
/* The op the row is of: its name, or NULL for a special row or one whose
 * op the file does not name (docs/ui.md, "Memory Viewer": what an op's
 * buffers in the compiler's plans are looked up by). */
const char      *tm_allocation_row_get_named_op         (TmAllocationRow      *self);
/* The snapshot the row references (time order; G_MAXUINT for special rows). */
guint            tm_allocation_row_get_snapshot_index   (TmAllocationRow      *self);

/* The row as one line of tab-separated values (no newline): op name,
 * allocation bytes, requested bytes, occurrences, region, data type, shape.
 * Tabs and newlines inside fields become spaces. */
char            *tm_allocation_row_to_tsv               (TmAllocationRow      *self);

/* The op name as the table shows it (docs/ui.md, "Values the file does
 * not hold"). */
const char      *tm_allocation_row_get_display_name     (TmAllocationRow      *self);
/* The op cell's tooltip: the op, when and where it allocated, its step. */
char            *tm_allocation_row_describe             (TmAllocationRow      *self);

/* A copy of the core's row this row shows (free with
 * tm_breakdown_row_free()), for exporting what the table shows. */
TmBreakdownRow  *tm_allocation_row_dup_row              (TmAllocationRow      *self);

G_END_DECLS
