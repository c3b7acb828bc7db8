/* tm-timeline-chart.h — the usage timeline's layers, in drawing order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One place that makes the timeline's layers and knows their order, for
 * every drawing of it: the window's timeline widget (which adds the
 * pointer's layers over them), its PNG and SVG exports, and the command
 * line's --export=svg. Each layer is an object with its own inputs
 * (tm-chart-layer.h); this file only makes them and sets the inputs that
 * come from the memory store.
 *
 *   under the data, not moving with the range:  values (byte and
 *       fragmentation axes), legend
 *   with the range:  time (ruler and grid), series (stack, heap, free),
 *       line (fragmentation), base (the line under the plot), modules (the
 *       HLO band), scope (the selected scope's bytes), baseline (a
 *       comparison's outline), plan (an XLA module's planned level over
 *       its executions), oom (a PyTorch snapshot's out-of-memory entries,
 *       a red line each), peak
 *   over it all:  selection (the selected time), lifetime (the selected
 *       allocation's), note (the range read-out)
 */
#pragma once

#include "tm-chart.h"
#include "tm-memory-store.h"
#include "tm-segments.h"
#include "tm-span-layer.h"

G_BEGIN_DECLS

typedef struct
{
  TmChartLayer *values;
  TmChartLayer *legend;
  TmChartLayer *time;
  TmChartLayer *series;
  TmChartLayer *line;
  TmChartLayer *base;
  TmChartLayer *modules;
  TmChartLayer *scope;
  TmChartLayer *baseline;
  TmChartLayer *plan;
  TmChartLayer *oom;
  TmChartLayer *peak;
  TmChartLayer *selection;
  TmChartLayer *lifetime;
  TmChartLayer *note;
  /* A PyTorch snapshot's memory id: no fragmentation (its line, axis and
   * legend entry), PyTorch's words in the legend. */
  gboolean      caching_allocator;
} TmTimelineLayers;

/* Makes every layer; clear drops them. */
void     tm_timeline_layers_init      (TmTimelineLayers       *layers);
void     tm_timeline_layers_clear     (TmTimelineLayers       *layers);
/* The store drawn: the series, the fragmentation, the peak and the
 * legend's Free entry (NULL: nothing). */
void     tm_timeline_layers_set_store (TmTimelineLayers       *layers,
                                       TmMemoryStore          *store);
/* The series and the fragmentation left out: a mask of 1 << TmSeries and
 * TM_LEGEND_FRAGMENTATION, for the series, the line and the legend. */
void     tm_timeline_layers_set_hidden (TmTimelineLayers      *layers,
                                        guint                  hidden);
/* The HLO modules (TmHloModule; NULL: none) as the band's spans, tagged
 * with their index. */
void     tm_timeline_layers_set_modules (TmTimelineLayers     *layers,
                                         GArray               *modules);
/* A caching allocator's segments (NULL: none, the XLA allocators): its
 * out-of-memory entries as lines labelled "OOM", and its words; before
 * tm_timeline_layers_set_hidden(). */
void     tm_timeline_layers_set_segments (TmTimelineLayers     *layers,
                                          TmSegments           *segments);
/* The planned level of an XLA module over its executions (TM_SPAN_LEVEL
 * spans, each with its level and the execution's index as its tag;
 * NULL or 0: none), with the line's label and the legend's entry (NULL:
 * none). */
void     tm_timeline_layers_set_plan  (TmTimelineLayers       *layers,
                                       const TmChartSpan      *spans,
                                       guint                   n,
                                       const char             *label,
                                       const char             *legend);
/* The highest planned level over [start_ps, end_ps], 0 for none: the byte
 * axis holds it too. */
gint64   tm_timeline_layers_plan_max  (const TmTimelineLayers *layers,
                                       gint64                  start_ps,
                                       gint64                  end_ps);
/* A chart of every layer in order, over geometry. */
TmChart *tm_timeline_layers_to_chart  (const TmTimelineLayers *layers,
                                       const TmChartGeometry  *geometry);

/* What the byte axis must hold for [start_ps, end_ps] of store: with
 * capacity the capacity (stack + heap + free, or the most in use without
 * free figures), else the most in use (stack + heap) in the range,
 * counting the state at its start (docs/ui.md, "Y scale"). 0 without a
 * LOD. */
gint64   tm_timeline_chart_max_bytes  (TmMemoryStore          *store,
                                       gint64                  start_ps,
                                       gint64                  end_ps,
                                       gboolean                capacity);

G_END_DECLS
