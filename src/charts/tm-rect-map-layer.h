/* tm-rect-map-layer.h — a list of rectangles drawn as the memory map is
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Memory Viewer's allocation chart (docs/buffer-assignment.md): each
 * rectangle (TmRasterRect, sorted by x0) is x over [x0, x1) of the
 * geometry's x range (start_ps and end_ps in the rectangles' unit) and y
 * over [y0, y1) of its axis range (axis_y0 at the bottom of the plot,
 * axis_y1 at its top), with the offset axis on the left. Pixels are
 * owned as on the memory map, by tm-alloc-raster's painter (the largest
 * rectangle touching a pixel owns it; every rectangle in view covers at
 * least one), and coloured by tm-map-painter: on a raster canvas the plot
 * is one image, on a vector one a rectangle per run of one rectangle's
 * pixels in a row. Rectangles that are not lit are faded a quarter over
 * the background, as the memory map dims; a backdrop of other rectangles
 * (what the rectangles lie in) is drawn faded under them, and the
 * selected one is outlined over them.
 *
 * The painter's frame of owners is kept for its range and size, and the
 * coloured image for its colours too, so a redraw that only selects
 * another rectangle draws the kept image and the outline.
 */
#pragma once

#include "tm-alloc-raster.h"
#include "tm-chart-layer.h"

G_BEGIN_DECLS

#define TM_TYPE_RECT_MAP_LAYER (tm_rect_map_layer_get_type ())

G_DECLARE_FINAL_TYPE (TmRectMapLayer, tm_rect_map_layer, TM, RECT_MAP_LAYER, TmChartLayer)

/* rects (TmRasterRect, sorted by x0) and their colours (colors: guint32
 * 0xRRGGBB, one per rectangle); references are taken. */
TmChartLayer *tm_rect_map_layer_new          (GArray         *rects,
                                              GArray         *colors);
/* Which rectangles are drawn in their colour (lit: guint8 per rectangle,
 * a reference is taken); the others are faded. NULL: all. The array may
 * be changed and set again. */
void          tm_rect_map_layer_set_lit      (TmRectMapLayer *self,
                                              GArray         *lit);
/* Rectangles (TmRasterRect, a reference is taken) drawn faded under the
 * others. NULL: none. */
void          tm_rect_map_layer_set_backdrop (TmRectMapLayer *self,
                                              GArray         *rects);
/* The rectangle outlined (G_MAXUINT: none). */
void          tm_rect_map_layer_set_selected (TmRectMapLayer *self,
                                              guint           index);

G_END_DECLS
