/* tm-line-layer.h — the timeline's fragmentation line on its 0–100 % axis
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fragmentation over the series as a dashed line, joined from one pixel
 * column to the next (steep parts stay solid); where a column's
 * fragmentation swings over more than a few pixels, its range is a hatch
 * (one column in three) between two solid edges (docs/ui.md,
 * "Fragmentation"), so the series under it keep their colour at any
 * density and nothing reads as a series of its own. The rows are those of
 * tm-series-painter; each run of columns with the same rows is one
 * rectangle on any canvas.
 */
#pragma once

#include "tm-chart-layer.h"
#include "tm-memory-store.h"

G_BEGIN_DECLS

#define TM_TYPE_LINE_LAYER (tm_line_layer_get_type ())

G_DECLARE_FINAL_TYPE (TmLineLayer, tm_line_layer, TM, LINE_LAYER, TmChartLayer)

TmChartLayer *tm_line_layer_new       (void);
/* The store drawn (a reference is taken; NULL draws nothing). */
void          tm_line_layer_set_store (TmLineLayer   *self,
                                       TmMemoryStore *store);

G_END_DECLS
