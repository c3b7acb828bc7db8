/* tm-alloc-raster.h — the memory map's picture: the allocation index per pixel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Draws the rectangles of an allocation index (tm-allocations: x from an
 * allocation's start to its end, y over its addresses on the address axis
 * with long gaps cut) into a frame of pixels, where the largest allocation
 * touching a pixel owns it, so that every allocation in view shows at any
 * zoom (docs/analysis.md, "Allocations and the memory map"). A frame over
 * many allocations is drawn by two threads. The same painter draws any
 * list of rectangles (TmRasterRect): the Memory Viewer's allocation chart. No GTK: the window's memory map
 * paints from it and the command line's SVG export reads it too.
 */
#pragma once

#include "tm-allocations.h"

G_BEGIN_DECLS

/* The rectangle query aggregated per pixel: for a frame of width × height
 * pixels showing times [t0, t1] left to right and axis offsets [y0, y1]
 * bottom to top, cells (width × height, row 0 at the top) get in each pixel
 * the largest allocation that touches it (ties: the later one), or
 * TM_ALLOCATIONS_NONE. An allocation covers at least one pixel, so every
 * one in view shows. Returns the number of allocations in view. */
guint tm_alloc_raster_render       (TmAllocations         *allocations,
                                    gint64                 t0_ps,
                                    gint64                 t1_ps,
                                    double                 y0,
                                    double                 y1,
                                    guint                  width,
                                    guint                  height,
                                    guint32               *cells);

/* The same, a band of columns at a time, for drawing: the frame is cut
 * into bands of whole columns and func gets each band's keys as soon as it
 * is filled (small enough to stay in cache). In a band starting at column
 * x0, the pixel in column x0 + x and row r (row 0 at the top) has
 * keys[x × height + r], and tm_alloc_raster_key_index() of it and
 * index_mask gives the allocation (TM_ALLOCATIONS_NONE for an empty pixel,
 * whose key is 0). keys is only valid during the call. A frame over many
 * allocations is split in two halves of columns drawn by two threads (the
 * caller's and one more, joined before returning): func is then called
 * from both at once, for different columns, each half left to right. The
 * result does not depend on the split. Bands (and halves) start at
 * multiples of 16 columns whenever they are at least 16 columns wide, so
 * that a band's row of 4-byte pixels is whole 64-byte lines of an aligned
 * image. Returns the number of allocations in view. */
typedef void (*TmAllocRasterBandFunc) (guint          x0,
                                       guint          n_columns,
                                       guint          height,
                                       const guint32 *keys,
                                       guint32        index_mask,
                                       gpointer       user_data);

guint tm_alloc_raster_render_bands (TmAllocations         *allocations,
                                    gint64                 t0_ps,
                                    gint64                 t1_ps,
                                    double                 y0,
                                    double                 y1,
                                    guint                  width,
                                    guint                  height,
                                    TmAllocRasterBandFunc  func,
                                    gpointer               user_data);

/* A rectangle of another chart drawn by the same painter (the Memory
 * Viewer's allocation chart, docs/buffer-assignment.md): x over [x0, x1)
 * in the chart's unit, y over [y0, y1) on its axis; the largest bytes owns
 * a pixel, as the largest allocation does on the memory map. */
typedef struct
{
  double  x0;
  double  x1;
  double  y0;
  double  y1;
  guint64 bytes;
} TmRasterRect;

/* Told that columns [x0, x0 + n_columns) of a frame of owners are done
 * (tm_alloc_raster_render_rects()), while they are still in the cache:
 * for colouring them at once. Called from two threads at once for
 * different columns when the frame is drawn by two. */
typedef void (*TmAllocRasterColumnsFunc) (guint          x0,
                                          guint          n_columns,
                                          const guint32 *cells,
                                          guint          width,
                                          guint          height,
                                          gpointer       user_data);

/* The same painter over n_rects rectangles sorted by x0, for a frame
 * showing x in [x0, x1] left to right and y in [y0, y1] bottom to top:
 * cells (width × height, row 0 at the top) get in each pixel the index of
 * the rectangle that owns it (the largest bytes, ties: the later one), or
 * TM_ALLOCATIONS_NONE. Every rectangle in view covers at least one pixel.
 * Drawn in the same bands of columns (and halves on two threads for many
 * rectangles) as tm_alloc_raster_render_bands(), but straight into cells,
 * row by row; func (may be NULL) is told of each band when it is done.
 * Returns the number in view. */
guint tm_alloc_raster_render_rects (const TmRasterRect       *rects,
                                    guint                     n_rects,
                                    double                    x0,
                                    double                    x1,
                                    double                    y0,
                                    double                    y1,
                                    guint                     width,
                                    guint                     height,
                                    guint32                  *cells,
                                    TmAllocRasterColumnsFunc  func,
                                    gpointer                  user_data);

/* The allocation of a band's key, or TM_ALLOCATIONS_NONE for 0. */
static inline guint
tm_alloc_raster_key_index (guint32 key,
                           guint32 index_mask)
{
  return key == 0 ? TM_ALLOCATIONS_NONE : (key & index_mask) - 1;
}

G_END_DECLS
