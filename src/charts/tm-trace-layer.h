/* tm-trace-layer.h — one value per snapshot of a memory store, as a line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The selected scope's bytes over time (docs/scopes.md) on the timeline's
 * value axis: a step line (each value holds until the next snapshot) in
 * the colour of a name, over a darker outline so that it reads over any
 * series; per pixel column the largest value of the snapshots in it, so
 * that no spike is lost. Its label sits at the top left of the plot.
 */
#pragma once

#include "tm-chart-layer.h"
#include "tm-memory-store.h"

G_BEGIN_DECLS

#define TM_TYPE_TRACE_LAYER (tm_trace_layer_get_type ())

G_DECLARE_FINAL_TYPE (TmTraceLayer, tm_trace_layer, TM, TRACE_LAYER, TmChartLayer)

TmChartLayer *tm_trace_layer_new      (void);
/* values holds one gint64 per snapshot of store (its times); a reference
 * is taken of both. NULL draws nothing. */
void          tm_trace_layer_set_data (TmTraceLayer  *self,
                                       TmMemoryStore *store,
                                       GBytes        *values);
/* The line's colour is the stable colour of name
 * (tm_chart_palette_color_for_name()); label is drawn at the top left of
 * the plot (NULL: none). */
void          tm_trace_layer_set_name (TmTraceLayer  *self,
                                       const char    *name,
                                       const char    *label);
gboolean      tm_trace_layer_has_data (TmTraceLayer  *self);

G_END_DECLS
