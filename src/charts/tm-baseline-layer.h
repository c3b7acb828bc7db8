/* tm-baseline-layer.h — a comparison's baseline, as an outline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * While the window compares (docs/compare.md), the baseline's memory in
 * use (stack + heap) on the same time axis, shifted by the alignment: per
 * pixel column the most in use in it, as a line, with a ring at the
 * baseline's peak and a label at the top right of the plot that names it.
 * tm_baseline_layer_max() is what the value axis must hold for it.
 */
#pragma once

#include "tm-chart-layer.h"
#include "tm-memory-store.h"

G_BEGIN_DECLS

#define TM_TYPE_BASELINE_LAYER (tm_baseline_layer_get_type ())

G_DECLARE_FINAL_TYPE (TmBaselineLayer, tm_baseline_layer, TM, BASELINE_LAYER, TmChartLayer)

TmChartLayer  *tm_baseline_layer_new       (void);
/* The baseline (a reference is taken; NULL draws nothing), what to add to
 * its times to place them on the chart's axis, and the label. */
void           tm_baseline_layer_set       (TmBaselineLayer *self,
                                            TmMemoryStore   *baseline,
                                            gint64           shift_ps,
                                            const char      *label);
TmMemoryStore *tm_baseline_layer_get_store (TmBaselineLayer *self);
/* The most the baseline has in use over [start_ps, end_ps] of the chart's
 * axis, or with capacity its capacity (stack + heap + free, or the most in
 * use without free figures); 0 without a baseline. */
gint64         tm_baseline_layer_max       (TmBaselineLayer *self,
                                            gint64           start_ps,
                                            gint64           end_ps,
                                            gboolean         capacity);

G_END_DECLS
