/* tm-program-axes-layer.h — the axes of a chart in program order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Memory Viewer's charts (docs/buffer-assignment.md) have program
 * points, not times, on x: the point before each event of the heap
 * simulator trace and one after the last, point p drawn over [p, p + 1)
 * of the geometry's range (start_ps and end_ps hold points). This layer
 * draws the byte axis on the left with its grid (the geometry's y_max and
 * y_step, as TmAxesLayer does) and the program-point ruler under the plot
 * with whole-number ticks and its grid.
 */
#pragma once

#include "tm-chart-layer.h"

G_BEGIN_DECLS

#define TM_TYPE_PROGRAM_AXES_LAYER (tm_program_axes_layer_get_type ())

G_DECLARE_FINAL_TYPE (TmProgramAxesLayer, tm_program_axes_layer, TM, PROGRAM_AXES_LAYER, TmChartLayer)

typedef enum
{
  TM_PROGRAM_AXES_BYTES  = 1 << 0,  /* the byte axis and its grid */
  TM_PROGRAM_AXES_POINTS = 1 << 1,  /* the program-point ruler and its grid */
} TmProgramAxesParts;

TmChartLayer *tm_program_axes_layer_new (TmProgramAxesParts parts);

G_END_DECLS
