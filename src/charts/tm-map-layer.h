/* tm-map-layer.h — the memory map's allocations as rectangles
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every allocation in view (tm-allocations: x from its start to its end,
 * y over its addresses on the address axis, long gaps cut) as a rectangle
 * of at least a pixel, coloured by its op (the window's "Colour by Op"
 * colours), with the address axis on the left: offsets from the lowest
 * address, and a double line with "≈" where a gap was cut. The geometry's
 * time range is x; the layer's axis range [y0, y1] is y (bottom to top).
 * A view of more than TM_MAP_LAYER_MAX_RECTS allocations is drawn from the
 * rasterizer instead (tm-alloc-raster): one rectangle per run of pixels of
 * one allocation in a row, still shapes, bounded by the plot's size.
 */
#pragma once

#include "tm-allocations.h"
#include "tm-chart-layer.h"

G_BEGIN_DECLS

#define TM_MAP_LAYER_MAX_RECTS 100000

#define TM_TYPE_MAP_LAYER (tm_map_layer_get_type ())

G_DECLARE_FINAL_TYPE (TmMapLayer, tm_map_layer, TM, MAP_LAYER, TmChartLayer)

/* The whole address axis of allocations (a reference is taken). */
TmChartLayer *tm_map_layer_new        (TmAllocations *allocations);
void          tm_map_layer_set_range  (TmMapLayer    *self,
                                       double         y0,
                                       double         y1);

/* The same painter over a list of rectangles (the Memory Viewer's
 * allocation chart, docs/buffer-assignment.md): rects (TmRasterRect,
 * sorted by x0) on the geometry's x range (start_ps and end_ps in the
 * rectangles' unit) and an axis of offsets from 0 to axis_length, with
 * their colours (colors: guint32 0xRRGGBB, one per rectangle; references
 * are taken). On a raster canvas the plot is one image; on a vector one,
 * a rectangle per run of a rectangle's pixels in a row. */
TmChartLayer *tm_map_layer_new_for_rects (GArray        *rects,
                                          GArray        *colors,
                                          guint64        axis_length);
/* Which rectangles are drawn in their colour (lit: guint8 per rectangle,
 * a reference is taken); the others are faded. NULL: all. */
void          tm_map_layer_set_lit     (TmMapLayer    *self,
                                        GArray        *lit);
/* Rectangles (TmRasterRect, a reference is taken) drawn faded under the
 * painter's picture: what the others lie in (an allocation holding its
 * buffers). NULL: none. */
void          tm_map_layer_set_backdrop (TmMapLayer   *self,
                                         GArray       *rects);
/* The rectangle outlined (G_MAXUINT: none). */
void          tm_map_layer_set_selected (TmMapLayer   *self,
                                         guint          index);

/* The colour of an op name on the memory map (empty: no name), light or
 * dark: a hue from the name's hash. */
void          tm_map_layer_name_color (const char    *name,
                                       gboolean       dark,
                                       TmChartColor  *out);

G_END_DECLS
