/* tm-chart.h — a chart: layers drawn in order over one geometry
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A plain object, no widget: the window's chart widgets hold one and draw
 * it into their snapshot, the exports draw it into a PNG or an SVG
 * surface. The chart keeps its geometry (tm-chart-layer.h), set once per
 * size or range change, and its layers (TmChartLayer subclasses), each of
 * which draws itself from that geometry and its own inputs. The chart
 * calls its layers; the layers call the canvas and the painters; nothing
 * calls back up.
 */
#pragma once

#include "tm-chart-layer.h"

G_BEGIN_DECLS

#define TM_TYPE_CHART (tm_chart_get_type ())

G_DECLARE_FINAL_TYPE (TmChart, tm_chart, TM, CHART, GObject)

TmChart               *tm_chart_new          (void);
/* Appends layer (drawn after, so over, the ones before); a reference is
 * taken. */
void                   tm_chart_add_layer    (TmChart               *self,
                                              TmChartLayer          *layer);
guint                  tm_chart_get_n_layers (TmChart               *self);
TmChartLayer          *tm_chart_get_layer    (TmChart               *self,
                                              guint                  index);
const TmChartGeometry *tm_chart_get_geometry (TmChart               *self);
void                   tm_chart_set_geometry (TmChart               *self,
                                              const TmChartGeometry *geometry);
/* Draws every visible layer into canvas. */
void                   tm_chart_draw         (TmChart               *self,
                                              TmChartCanvas         *canvas);

G_END_DECLS
