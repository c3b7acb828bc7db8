/* tm-series-painter.h — the timeline's stacked areas, column by column
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Turns the LOD buckets of a time range (tm_lod_query_columns(), one per
 * device-pixel column) into the stacked-area picture of the timeline's
 * plot: per series a fill up to the column's smallest value and a
 * full-colour band from there to its largest (at least 2 px: the series'
 * top line), so a column with a single-sample spike shows the spike; the
 * fragmentation on a 0–1 axis as a dashed line over them.
 *
 * The columns are painted straight into a cairo image surface, no widget
 * and no display needed: at 1920 columns the plot is one blit for any
 * renderer instead of thousands of render nodes. The painter keeps its
 * buffers (and two images) between frames so that a frame allocates
 * nothing.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "tm-lod.h"
#include "tm-chart-palette.h"

G_BEGIN_DECLS

typedef struct _TmSeriesPainter TmSeriesPainter;

/* What tm_series_painter_set_hidden() can hide: a series (1 << TmSeries)
 * or the fragmentation. */
#define TM_SERIES_PAINTER_FRAGMENTATION (1u << TM_N_SERIES)

/* The pieces of a column, top to bottom: a series' line (the band from
 * its smallest to its largest value, at least 2 px) over its fill. A
 * piece's series is piece / 2, a line when piece is even. */
typedef enum
{
  TM_SERIES_PIECE_FREE_LINE,
  TM_SERIES_PIECE_FREE_FILL,
  TM_SERIES_PIECE_HEAP_LINE,
  TM_SERIES_PIECE_HEAP_FILL,
  TM_SERIES_PIECE_STACK_LINE,
  TM_SERIES_PIECE_STACK_FILL,
  TM_SERIES_N_PIECES
} TmSeriesPiece;

/* Where the fragmentation swings over many rows within a pixel column, its
 * range is a band between two solid edges; the band is hatched, drawn in
 * one column of TM_SERIES_BAND_HATCH at TM_SERIES_BAND_ALPHA of the
 * fragmentation's colour, so that it reads as the fragmentation's spread
 * and the series under it keep their colour, not as an area of a colour
 * the legend does not have (docs/ui.md, "Fragmentation"). */
#define TM_SERIES_BAND_HATCH 3
#define TM_SERIES_BAND_ALPHA 0.40f

/* One column of the picture in rows of a height-row plot (row 0 at the
 * top): each piece covers rows [top, bottom) (empty when bottom <= top;
 * pieces never overlap), and the fragmentation rows
 * [frag_top, frag_bottom) (frag_top < 0: none in this column, a gap of the
 * dashes) of which [band_top, band_bottom) are the band between solid
 * edges (empty for a line), drawn in this column when band_drawn. */
typedef struct
{
  int      top[TM_SERIES_N_PIECES];
  int      bottom[TM_SERIES_N_PIECES];
  int      frag_top;
  int      frag_bottom;
  int      band_top;
  int      band_bottom;
  gboolean band_drawn;
} TmSeriesColumn;

TmSeriesPainter *tm_series_painter_new   (void);
void             tm_series_painter_free  (TmSeriesPainter *self);

/* Paints [start_ps, end_ps] of lod into a width × height image (device
 * pixels; the surface's device scale is set to scale, which also sets the
 * lines' thickness). A value of y_max bytes (> 0) is at the top row, 0
 * below the bottom one. The free area shows only with show_free; the stack
 * only where the data has any. Colours from palette's series, series_fill
 * and frag; pixels without data are transparent. Premultiplied ARGB32.
 * Returns a new reference. */
cairo_surface_t *tm_series_painter_paint (TmSeriesPainter *self,
                                          const TmLod     *lod,
                                          gint64           start_ps,
                                          gint64           end_ps,
                                          int              width,
                                          int              height,
                                          int              scale,
                                          gint64           y_max,
                                          gboolean         show_free,
                                          const TmChartPalette *palette);


/* Series the following paints leave out (transparent where they would
 * be; the others keep their place in the stack): a mask of
 * 1 << TM_SERIES_* and TM_SERIES_PAINTER_FRAGMENTATION. None at first. */
void             tm_series_painter_set_hidden (TmSeriesPainter *self,
                                               guint            hidden);

/* Whether the stack shows at all: only where the data has any. */
gboolean         tm_series_painter_lod_has_stack (const TmLod *lod);

/* The rows of column x (of LOD bucket b) in a height-row plot (device
 * pixels; scale sets the lines' thickness) whose top is y_max, leaving out
 * what hidden hides from the fragmentation (the series keep their rows;
 * the caller leaves hidden ones out). The fragmentation is joined to the
 * previous column through prev_ftop and prev_fbottom, -1 before the first
 * column. FALSE when the column has no data. The image of
 * tm_series_painter_paint() and the vector series layer both draw these
 * rows. */
gboolean         tm_series_painter_column        (const TmLodBucket *b,
                                                  int                x,
                                                  int                height,
                                                  int                scale,
                                                  gint64             y_max,
                                                  gboolean           show_stack,
                                                  gboolean           show_free,
                                                  guint              hidden,
                                                  int               *prev_ftop,
                                                  int               *prev_fbottom,
                                                  TmSeriesColumn    *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmSeriesPainter, tm_series_painter_free)

G_END_DECLS
