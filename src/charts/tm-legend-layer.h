/* tm-legend-layer.h — the timeline's legend row
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Stack, Heap, Free (when the store has free figures), Fragmentation, the
 * window peak's mark and, while there is one, an XLA module's planned
 * level (its static peak over its executions), laid out from the plot's left edge in the top
 * margin. A hidden series is drawn faded, struck through and with a hollow
 * swatch (docs/ui.md, "Legend"). tm_legend_layer_item_at() tells which
 * entry a point is on, for a widget that makes them toggles.
 */
#pragma once

#include "tm-chart-layer.h"

G_BEGIN_DECLS

#define TM_TYPE_LEGEND_LAYER (tm_legend_layer_get_type ())

G_DECLARE_FINAL_TYPE (TmLegendLayer, tm_legend_layer, TM, LEGEND_LAYER, TmChartLayer)

/* The entries: a series (1 << TmSeries), the fragmentation, or the
 * peak's mark, which toggles nothing. */
#define TM_LEGEND_FRAGMENTATION (1u << 3)
#define TM_LEGEND_PEAK          (1u << 4)
#define TM_LEGEND_PLAN          (1u << 5)

TmChartLayer *tm_legend_layer_new        (void);
/* Whether there is a Free entry. */
void          tm_legend_layer_set_free   (TmLegendLayer         *self,
                                          gboolean               has_free);
/* A caching allocator's memory id (a PyTorch snapshot's device): its
 * entries are Allocated (the heap series), Not allocated (free) and Peak,
 * as the cards say them; no Stack or Fragmentation. */
void          tm_legend_layer_set_caching_allocator (TmLegendLayer *self,
                                          gboolean               caching_allocator);
/* The planned level's entry: its label, or NULL for none. */
void          tm_legend_layer_set_plan   (TmLegendLayer         *self,
                                          const char            *label);
/* The entries drawn as hidden: a mask of 1 << TmSeries and
 * TM_LEGEND_FRAGMENTATION. */
void          tm_legend_layer_set_hidden (TmLegendLayer         *self,
                                          guint                  hidden);
/* The entry whose box holds (x, y) when drawn on canvas over geometry, or
 * 0. Without a canvas, the entries as the layer last drew them (a widget
 * asks on every motion without laying the legend out again). */
/* Whether the layer has drawn (and so laid out) its entries. */
gboolean      tm_legend_layer_is_laid_out (TmLegendLayer        *self);
guint         tm_legend_layer_item_at    (TmLegendLayer         *self,
                                          TmChartCanvas         *canvas,
                                          const TmChartGeometry *geometry,
                                          double                 x,
                                          double                 y);

G_END_DECLS
