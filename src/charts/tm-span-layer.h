/* tm-span-layer.h — spans of time on a chart: HLO module runs, a
 * lifetime, a range being chosen, a level held over some time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The layer draws a list of spans [start_ps, end_ps] in one style:
 *
 *   TM_SPAN_BAND       in the geometry's HLO band under the plot, on a
 *                      faint strip, neighbours in alternate colours; spans
 *                      closer than a pixel merge into one block
 *   TM_SPAN_HIGHLIGHT  over the plot's whole height, tinted in the accent
 *                      colour, with 2 px edges and a 3 px top: what lived
 *                      over that time (a selected allocation)
 *   TM_SPAN_SELECTION  over the plot, tinted, with 1 px edges: a range the
 *                      user is dragging out
 *   TM_SPAN_LEVEL      a 2 px horizontal line at each span's value (on the
 *                      geometry's value axis) over its time, in the
 *                      layer's colour, labelled at its first visible span
 *
 * Each span carries a tag (an HLO module's index, say);
 * tm_span_layer_item_at() says which span is under a point, so that a
 * widget can describe it or act on a click. A new kind of span (an XLA
 * module's static peak over its executions, PyTorch segments' lifetimes)
 * is a new instance of this layer with its own spans and style.
 */
#pragma once

#include "tm-chart-layer.h"

G_BEGIN_DECLS

#define TM_TYPE_SPAN_LAYER (tm_span_layer_get_type ())

G_DECLARE_FINAL_TYPE (TmSpanLayer, tm_span_layer, TM, SPAN_LAYER, TmChartLayer)

typedef enum
{
  TM_SPAN_BAND,
  TM_SPAN_HIGHLIGHT,
  TM_SPAN_SELECTION,
  TM_SPAN_LEVEL,
} TmSpanStyle;

typedef struct
{
  gint64 start_ps;
  gint64 end_ps;     /* at least start_ps */
  gint64 value;      /* TM_SPAN_LEVEL: the height, in the value axis' unit */
  guint  tag;        /* what the span stands for */
} TmChartSpan;

#define TM_SPAN_NONE G_MAXUINT

TmChartLayer *tm_span_layer_new       (TmSpanStyle         style);
/* The spans drawn (copied; end before start is taken as start), kept in
 * order of start, then end, then tag. NULL or 0 draws nothing. */
void          tm_span_layer_set_spans (TmSpanLayer        *self,
                                       const TmChartSpan  *spans,
                                       guint               n);
guint         tm_span_layer_get_n_spans (TmSpanLayer      *self);
/* The spans as drawn, in their order: n of them, owned by the layer. */
const TmChartSpan *tm_span_layer_get_spans (TmSpanLayer   *self,
                                            guint         *n);
/* TM_SPAN_LEVEL: the line's colour (NULL: the palette's text colour) and
 * its label (NULL: none). */
void          tm_span_layer_set_color (TmSpanLayer        *self,
                                       const TmChartColor *color);
void          tm_span_layer_set_label (TmSpanLayer        *self,
                                       const char         *label);
/* TM_SPAN_LEVEL: the line's colour as a TmPaletteColor, in the canvas'
 * light or dark shade (over set_color; -1: none). */
void          tm_span_layer_set_palette_color (TmSpanLayer  *self,
                                               int           color);
/* How far from a level's line a point is still on it, in pixels. */
#define TM_SPAN_LEVEL_REACH 4.0

/* The tag of the span under (x, y) on geometry, or TM_SPAN_NONE: for
 * TM_SPAN_BAND over the band's rows (2 px around them), for TM_SPAN_LEVEL
 * within TM_SPAN_LEVEL_REACH pixels of the span's line, else over the
 * plot. The first span in order that holds the time under x. */
guint         tm_span_layer_item_at   (TmSpanLayer           *self,
                                       const TmChartGeometry *geometry,
                                       double                 x,
                                       double                 y);

G_END_DECLS
