/* tm-mark-layer.h — marked times on a chart: the window peak, the
 * selected time, or lines at given times
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TM_MARK_PEAK: a dashed line from the top of the plot down to a ring at
 * (time, value), labelled "Peak <bytes>" at the top, to the right of the
 * line when there is room. TM_MARK_SELECTION: a 2-px line in the accent
 * colour over the plot, labelled with the time at the bottom.
 * TM_MARK_LINE: a 1-px line over the plot in the layer's colour (the
 * accent colour unless set), with the mark's label at its top when it has
 * one. A mark whose time is outside the geometry's range is not drawn.
 *
 * A layer holds any number of marks of its kind: the memory map's shown
 * time is one TM_MARK_LINE, the timeline's PyTorch out-of-memory entries
 * another instance with many marks. Of lines close together only the
 * first is labelled; tm_mark_layer_item_at() says which line is under a
 * point, for a tooltip.
 */
#pragma once

#include "tm-chart-layer.h"
#include "tm-segments.h"

G_BEGIN_DECLS

#define TM_TYPE_MARK_LAYER (tm_mark_layer_get_type ())

G_DECLARE_FINAL_TYPE (TmMarkLayer, tm_mark_layer, TM, MARK_LAYER, TmChartLayer)

typedef enum
{
  TM_MARK_PEAK,
  TM_MARK_SELECTION,
  TM_MARK_LINE,
} TmMarkKind;

typedef struct
{
  gint64      time_ps;
  gint64      value;     /* TM_MARK_PEAK: the bytes at the ring */
  const char *label;     /* TM_MARK_LINE: the text at the top (NULL: none) */
} TmChartMark;

TmChartLayer *tm_mark_layer_new       (TmMarkKind          kind);
/* One mark at time_ps with value (bytes, for the peak's ring and label);
 * set = FALSE removes every mark. */
void          tm_mark_layer_set       (TmMarkLayer        *self,
                                       gboolean            set,
                                       gint64              time_ps,
                                       gint64              value);
/* The marks drawn (copied, labels too). */
void          tm_mark_layer_set_marks (TmMarkLayer        *self,
                                       const TmChartMark  *marks,
                                       guint               n);
guint         tm_mark_layer_get_n_marks (TmMarkLayer      *self);
const TmChartMark *tm_mark_layer_get_mark (TmMarkLayer    *self,
                                       guint               index);

#define TM_MARK_NONE G_MAXUINT

/* The index of the mark drawn nearest to x, within slop pixels, with y
 * in the plot; TM_MARK_NONE if none. */
guint         tm_mark_layer_item_at   (TmMarkLayer        *self,
                                       const TmChartGeometry *geometry,
                                       double              x,
                                       double              y,
                                       double              slop);
/* TM_MARK_LINE: a PyTorch snapshot's out-of-memory entries (segments
 * NULL: none), a red line each labelled "OOM", the requested bytes as
 * each mark's value, in trace order (an item's index is the entry's in
 * tm_segments_get_out_of_memory()). */
void          tm_mark_layer_set_out_of_memory (TmMarkLayer *self,
                                       TmSegments         *segments);
/* TM_MARK_LINE: the lines' colour (NULL: the palette's accent). */
void          tm_mark_layer_set_color (TmMarkLayer        *self,
                                       const TmChartColor *color);

G_END_DECLS
