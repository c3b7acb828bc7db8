/* tm-block-layer.h — rectangles of time × address on the memory map
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each block spans [start_ps, end_ps] in time and [axis_lo, axis_hi] on
 * the geometry's address axis (offsets of tm-allocations, with the long
 * gaps cut: the caller maps addresses with
 * tm_allocations_address_to_axis()). Drawn clipped to the plot and at
 * least a pixel in each direction, in one style:
 *
 *   TM_BLOCK_OUTLINE   a 1 px outline in the text colour (the allocation
 *                      under the pointer)
 *   TM_BLOCK_SELECTED  tinted in the accent colour, with a 2 px accent
 *                      outline (the selected allocation)
 *   TM_BLOCK_BAND      tinted, with a 1 px accent outline (a rubber band)
 *   TM_BLOCK_FILL      filled in the layer's colour (NULL: a faint text
 *                      colour): regions behind the allocations
 *
 * Another kind of region on the map, PyTorch's segments (an address range
 * over a time span, tm-segments), is another instance of this layer, in
 * TM_BLOCK_FILL under the allocations (tm_block_layer_set_segments()).
 */
#pragma once

#include "tm-allocations.h"
#include "tm-chart-layer.h"
#include "tm-segments.h"

G_BEGIN_DECLS

#define TM_TYPE_BLOCK_LAYER (tm_block_layer_get_type ())

G_DECLARE_FINAL_TYPE (TmBlockLayer, tm_block_layer, TM, BLOCK_LAYER, TmChartLayer)

typedef enum
{
  TM_BLOCK_OUTLINE,
  TM_BLOCK_SELECTED,
  TM_BLOCK_BAND,
  TM_BLOCK_FILL,
} TmBlockStyle;

typedef struct
{
  gint64 start_ps;
  gint64 end_ps;
  double axis_lo;   /* bottom, on the address axis */
  double axis_hi;   /* top */
} TmChartBlock;

TmChartLayer *tm_block_layer_new        (TmBlockStyle        style);
/* The blocks drawn (copied); NULL or 0: none. */
void          tm_block_layer_set_blocks (TmBlockLayer       *self,
                                         const TmChartBlock *blocks,
                                         guint               n);
guint         tm_block_layer_get_n_blocks (TmBlockLayer     *self);
const TmChartBlock *tm_block_layer_get_blocks (TmBlockLayer *self,
                                         guint              *n);
/* A caching allocator's segments (NULL: none) as the blocks, their
 * addresses on allocations' address axis (an end in a cut gap goes to the
 * break, as tm_allocations_address_to_axis() says). */
void          tm_block_layer_set_segments (TmBlockLayer     *self,
                                         TmSegments         *segments,
                                         TmAllocations      *allocations);
void          tm_block_layer_set_color  (TmBlockLayer       *self,
                                         const TmChartColor *color);
/* Where block is drawn on geometry: clipped to the plot, at least a pixel
 * in each direction. FALSE when it is outside the plot. */
gboolean      tm_block_layer_block_rect (const TmChartGeometry *geometry,
                                         const TmChartBlock    *block,
                                         TmChartRect           *rect);

G_END_DECLS
