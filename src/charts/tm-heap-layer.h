/* tm-heap-layer.h — the Memory Viewer's heap over program order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * XProf's heap curves of one module and memory space
 * (docs/buffer-assignment.md): at each program point p, drawn over
 * [p, p + 1) of the geometry's range, the heap with padding as an area and
 * without padding as a line, each with the indefinite part added. Many
 * points to a pixel column are drawn as the column's largest, so every
 * point counts at any width. A legend names the two in the top margin.
 * The peak is TmMarkLayer's (TM_MARK_PEAK) at the point it was reached.
 */
#pragma once

#include "tm-chart-layer.h"

G_BEGIN_DECLS

#define TM_TYPE_HEAP_LAYER (tm_heap_layer_get_type ())

G_DECLARE_FINAL_TYPE (TmHeapLayer, tm_heap_layer, TM, HEAP_LAYER, TmChartLayer)

/* heap and unpadded (gint64 per point, the same length; references are
 * taken), and what every point has on top (the indefinite part). */
TmChartLayer *tm_heap_layer_new     (GArray      *heap,
                                     GArray      *unpadded,
                                     gint64       add);
/* The largest value drawn (with the part added): the top the value axis
 * must hold. */
gint64        tm_heap_layer_get_max (TmHeapLayer *self);

G_END_DECLS
