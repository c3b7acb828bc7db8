/* tm-buffer-row.h — one object live at a module's peak, as a table row
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A TmHeapObject of the Memory Viewer's result (tm-buffer-assignment) as
 * a GObject, for the column view's sorters: its position in program order
 * ("index"), sizes in bytes, and the strings the table shows. The strings
 * are copied; the row outlives the result.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-buffer-assignment.h"

G_BEGIN_DECLS

#define TM_TYPE_BUFFER_ROW (tm_buffer_row_get_type ())

G_DECLARE_FINAL_TYPE (TmBufferRow, tm_buffer_row, TM, BUFFER_ROW, GObject)

TmBufferRow *tm_buffer_row_new                   (const TmHeapObject *object,
                                                  guint               index);
guint        tm_buffer_row_get_index             (TmBufferRow        *self);
gint64       tm_buffer_row_get_logical_buffer_id (TmBufferRow        *self);
/* The object's name as the table shows it: its instruction with the
 * shape index, or the label of the small buffers taken together. */
const char  *tm_buffer_row_get_name              (TmBufferRow        *self);

/* A factory for a column showing property: a string (kind 0), bytes of
 * an int64 property in binary units, right-aligned, exact in the tooltip
 * (1), or a guint property as a number (2). */
GtkListItemFactory *tm_buffer_row_factory_new    (const char         *property,
                                                  int                 kind);

G_END_DECLS
