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
 * time is one TM_MARK_LINE, events at given times (PyTorch's out-of-memory
 * events, say) would be another instance with many marks.
 */
#pragma once

#include "tm-chart-layer.h"

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
/* TM_MARK_LINE: the lines' colour (NULL: the palette's accent). */
void          tm_mark_layer_set_color (TmMarkLayer        *self,
                                       const TmChartColor *color);

G_END_DECLS
