/* tm-mark-layer.h — a marked time on a chart: the window peak or the
 * selected time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TM_MARK_PEAK: a dashed line from the top of the plot down to a ring at
 * (time, value), labelled "Peak <bytes>" at the top, to the right of the
 * line when there is room. TM_MARK_SELECTION: a 2-px line in the accent
 * colour over the plot, labelled with the time at the bottom. Nothing is
 * drawn while the time is outside the geometry's range.
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
} TmMarkKind;

TmChartLayer *tm_mark_layer_new    (TmMarkKind   kind);
/* The mark at time_ps with value (bytes, for the peak's ring and label);
 * set = FALSE removes it. */
void          tm_mark_layer_set    (TmMarkLayer *self,
                                    gboolean     set,
                                    gint64       time_ps,
                                    gint64       value);

G_END_DECLS
