/* tm-series-layer.h — the timeline's stacked areas: stack, heap and free
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Draws every snapshot of a memory store at any zoom: per pixel column of
 * the plot the smallest and largest values of its snapshots, read from the
 * store's LOD, as tm-series-painter lays them out (a fill up to the
 * smallest value, a full-colour band up to the largest). On a raster
 * canvas the plot is one image from the painter; on a vector canvas each
 * run of columns with the same rows is one rectangle, so an SVG holds
 * shapes, not a picture. Hidden series leave their place in the stack
 * empty.
 */
#pragma once

#include "tm-chart-layer.h"
#include "tm-memory-store.h"

G_BEGIN_DECLS

#define TM_TYPE_SERIES_LAYER (tm_series_layer_get_type ())

G_DECLARE_FINAL_TYPE (TmSeriesLayer, tm_series_layer, TM, SERIES_LAYER, TmChartLayer)

TmChartLayer  *tm_series_layer_new        (void);
/* The store drawn (a reference is taken; NULL draws nothing). */
void           tm_series_layer_set_store  (TmSeriesLayer *self,
                                           TmMemoryStore *store);
TmMemoryStore *tm_series_layer_get_store  (TmSeriesLayer *self);
/* The series left out: a mask of 1 << TmSeries. */
void           tm_series_layer_set_hidden (TmSeriesLayer *self,
                                           guint          hidden);
guint          tm_series_layer_get_hidden (TmSeriesLayer *self);

G_END_DECLS
