/* tm-axes-layer.h — a chart's axes: the byte axis, the fragmentation axis
 * and the time ruler, with their grids
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The byte axis on the left of the plot with its horizontal grid (ticks of
 * the geometry's y_step up to y_max), the fragmentation axis (0–100 %) on
 * the right in the fragmentation's colour, and the time ruler under the
 * plot (and under the HLO band when there is one) with the vertical grid
 * and the unit "ms" at its right end (tm-chart-axes.h).
 */
#pragma once

#include "tm-chart-layer.h"

G_BEGIN_DECLS

#define TM_TYPE_AXES_LAYER (tm_axes_layer_get_type ())

G_DECLARE_FINAL_TYPE (TmAxesLayer, tm_axes_layer, TM, AXES_LAYER, TmChartLayer)

typedef enum
{
  TM_AXES_VALUES = 1 << 0,  /* the byte and fragmentation axes, "ms" */
  TM_AXES_TIME   = 1 << 1,  /* the time ruler */
  TM_AXES_BASE   = 1 << 2,  /* the line along the bottom of the plot, over the data */
} TmAxesParts;

TmChartLayer *tm_axes_layer_new       (TmAxesParts  parts);
TmAxesParts   tm_axes_layer_get_parts (TmAxesLayer *self);
/* How far under the plot (or the HLO band) the time ruler's labels start:
 * 5 px unless set (the memory map's are 4 px under its plot). */
/* TM_AXES_VALUES: whether the fragmentation's axis (0 to 100 %) is
 * drawn right of the plot (by default it is). */
void          tm_axes_layer_set_percent   (TmAxesLayer *self,
                                           gboolean     percent);
void          tm_axes_layer_set_label_gap (TmAxesLayer *self,
                                           double       gap);

G_END_DECLS
