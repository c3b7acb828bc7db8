/* tm-map-layer.h — the memory map's allocations and its address axis
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every allocation in view (tm-allocations: x from its start to its end,
 * y over its addresses on the address axis, long gaps cut) at least a
 * pixel, coloured as tm-map-painter colours it (by op, region, data type
 * or size; dimmed when not highlighted), with the address axis on the
 * left: offsets from the lowest address, and a double line with "≈" where
 * a gap was cut. The geometry gives the time range (x) and the address
 * axis range (axis_y0 to axis_y1, bottom to top). A grid line marks the
 * bottom of the plot, with or without an index to draw.
 *
 * On a raster canvas the allocations are one image from the painter (the
 * window's memory map and a PNG); on a vector canvas each allocation in
 * view is a rectangle, or, over TM_MAP_LAYER_MAX_RECTS of them, one
 * rectangle per run of pixels of one allocation in a row (from
 * tm-alloc-raster): shapes still, bounded by the plot's size. With open
 * ends shown, an allocation made before the profile has a notch at the
 * profile's start, one never freed a notch and a tick at its end.
 */
#pragma once

#include "tm-allocations.h"
#include "tm-chart-layer.h"
#include "tm-map-painter.h"

G_BEGIN_DECLS

#define TM_MAP_LAYER_MAX_RECTS 100000

#define TM_TYPE_MAP_LAYER (tm_map_layer_get_type ())

G_DECLARE_FINAL_TYPE (TmMapLayer, tm_map_layer, TM, MAP_LAYER, TmChartLayer)

TmChartLayer  *tm_map_layer_new             (TmAllocations *allocations);
TmAllocations *tm_map_layer_get_allocations (TmMapLayer    *self);
/* The index drawn (a reference is taken; NULL draws nothing). */
void           tm_map_layer_set_allocations (TmMapLayer    *self,
                                             TmAllocations *allocations);
void           tm_map_layer_set_color_by    (TmMapLayer    *self,
                                             TmMapColorBy   color_by);
/* Which allocations are at full colour, the others dimmed: with
 * never_freed only those never freed; with in_scope (one byte per
 * allocation, a reference is taken; NULL: all) only those it marks. */
void           tm_map_layer_set_highlight   (TmMapLayer    *self,
                                             gboolean       never_freed,
                                             GBytes        *in_scope);
void           tm_map_layer_set_open_ends   (TmMapLayer    *self,
                                             gboolean       shown);
/* The colour of allocation index as drawn at full colour. */
guint32        tm_map_layer_color           (TmMapLayer    *self,
                                             guint          index,
                                             gboolean       dark);

G_END_DECLS
