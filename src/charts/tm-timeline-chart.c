/* tm-timeline-chart.c — the usage timeline's layers, in drawing order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-axes-layer.h"
#include "tm-baseline-layer.h"
#include "tm-chart-palette.h"
#include "tm-legend-layer.h"
#include "tm-line-layer.h"
#include "tm-mark-layer.h"
#include "tm-note-layer.h"
#include "tm-series-layer.h"
#include "tm-span-layer.h"
#include "tm-timeline-chart.h"
#include "tm-trace-layer.h"
#include "tm-types.h"

void
tm_timeline_layers_init (TmTimelineLayers *layers)
{
  g_return_if_fail (layers != NULL);

  layers->values = tm_axes_layer_new (TM_AXES_VALUES);
  layers->legend = tm_legend_layer_new ();
  layers->time = tm_axes_layer_new (TM_AXES_TIME);
  layers->series = tm_series_layer_new ();
  layers->line = tm_line_layer_new ();
  layers->base = tm_axes_layer_new (TM_AXES_BASE);
  layers->modules = tm_span_layer_new (TM_SPAN_BAND);
  layers->scope = tm_trace_layer_new ();
  layers->baseline = tm_baseline_layer_new ();
  layers->plan = tm_span_layer_new (TM_SPAN_LEVEL);
  tm_span_layer_set_palette_color (TM_SPAN_LAYER (layers->plan), TM_PALETTE_PLAN);
  layers->oom = tm_mark_layer_new (TM_MARK_LINE);
  layers->peak = tm_mark_layer_new (TM_MARK_PEAK);
  layers->selection = tm_mark_layer_new (TM_MARK_SELECTION);
  layers->lifetime = tm_span_layer_new (TM_SPAN_HIGHLIGHT);
  layers->note = tm_note_layer_new (TM_NOTE_TOP_LEFT);
  layers->caching_allocator = FALSE;
}

void
tm_timeline_layers_clear (TmTimelineLayers *layers)
{
  g_return_if_fail (layers != NULL);

  g_clear_object (&layers->values);
  g_clear_object (&layers->legend);
  g_clear_object (&layers->time);
  g_clear_object (&layers->series);
  g_clear_object (&layers->line);
  g_clear_object (&layers->base);
  g_clear_object (&layers->modules);
  g_clear_object (&layers->scope);
  g_clear_object (&layers->baseline);
  g_clear_object (&layers->plan);
  g_clear_object (&layers->oom);
  g_clear_object (&layers->peak);
  g_clear_object (&layers->selection);
  g_clear_object (&layers->lifetime);
  g_clear_object (&layers->note);
}

void
tm_timeline_layers_set_store (TmTimelineLayers *layers,
                              TmMemoryStore    *store)
{
  const TmSummary *summary = store != NULL ? tm_memory_store_get_summary (store) : NULL;

  g_return_if_fail (layers != NULL);

  tm_series_layer_set_store (TM_SERIES_LAYER (layers->series), store);
  tm_line_layer_set_store (TM_LINE_LAYER (layers->line), store);
  tm_legend_layer_set_free (TM_LEGEND_LAYER (layers->legend), store != NULL && tm_memory_store_has_free_data (store));
  tm_mark_layer_set (TM_MARK_LAYER (layers->peak), store != NULL && tm_memory_store_get_lod (store) != NULL,
                     summary != NULL ? summary->peak_time_ps : 0, summary != NULL ? summary->peak_bytes_in_use : 0);
}

void
tm_timeline_layers_set_hidden (TmTimelineLayers *layers,
                               guint             hidden)
{
  g_return_if_fail (layers != NULL);

  tm_series_layer_set_hidden (TM_SERIES_LAYER (layers->series), hidden & ((1u << TM_N_SERIES) - 1));
  tm_chart_layer_set_visible (layers->line, (hidden & TM_LEGEND_FRAGMENTATION) == 0 && !layers->caching_allocator);
  tm_legend_layer_set_hidden (TM_LEGEND_LAYER (layers->legend), hidden);
}

void
tm_timeline_layers_set_modules (TmTimelineLayers *layers,
                                GArray           *modules)
{
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (TmChartSpan));

  g_return_if_fail (layers != NULL);

  for (guint i = 0; modules != NULL && i < modules->len; i++)
    {
      const TmHloModule *m = &g_array_index (modules, TmHloModule, i);
      TmChartSpan span = { m->start_ps, m->end_ps, 0, i };

      g_array_append_val (spans, span);
    }
  tm_span_layer_set_spans (TM_SPAN_LAYER (layers->modules), (const TmChartSpan *) spans->data, spans->len);
}

void
tm_timeline_layers_set_segments (TmTimelineLayers *layers,
                                 TmSegments       *segments)
{
  g_return_if_fail (layers != NULL);

  layers->caching_allocator = segments != NULL;
  tm_mark_layer_set_out_of_memory (TM_MARK_LAYER (layers->oom), segments);
  tm_legend_layer_set_caching_allocator (TM_LEGEND_LAYER (layers->legend), segments != NULL);
  tm_axes_layer_set_percent (TM_AXES_LAYER (layers->values), segments == NULL);
}

void
tm_timeline_layers_set_plan (TmTimelineLayers  *layers,
                             const TmChartSpan *spans,
                             guint              n,
                             const char        *label,
                             const char        *legend)
{
  g_return_if_fail (layers != NULL);

  tm_span_layer_set_spans (TM_SPAN_LAYER (layers->plan), spans, n);
  tm_span_layer_set_label (TM_SPAN_LAYER (layers->plan), n > 0 ? label : NULL);
  tm_legend_layer_set_plan (TM_LEGEND_LAYER (layers->legend), n > 0 ? legend : NULL);
}

gint64
tm_timeline_layers_plan_max (const TmTimelineLayers *layers,
                             gint64                  start_ps,
                             gint64                  end_ps)
{
  const TmChartSpan *spans;
  gint64 max = 0;
  guint n;

  g_return_val_if_fail (layers != NULL, 0);

  spans = tm_span_layer_get_spans (TM_SPAN_LAYER (layers->plan), &n);
  for (guint i = 0; i < n; i++)
    if (spans[i].start_ps <= end_ps && spans[i].end_ps >= start_ps)
      max = MAX (max, spans[i].value);
  return max;
}

TmChart *
tm_timeline_layers_to_chart (const TmTimelineLayers *layers,
                             const TmChartGeometry  *geometry)
{
  TmChart *chart;
  TmChartLayer *order[] = {
    layers->values, layers->legend, layers->time, layers->series, layers->line, layers->base,
    layers->modules, layers->scope, layers->baseline, layers->plan, layers->oom, layers->peak, layers->selection, layers->lifetime,
    layers->note,
  };

  g_return_val_if_fail (layers != NULL && geometry != NULL, NULL);

  chart = tm_chart_new ();
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    tm_chart_add_layer (chart, order[i]);
  tm_chart_set_geometry (chart, geometry);
  return chart;
}

gint64
tm_timeline_chart_max_bytes (TmMemoryStore *store,
                             gint64         start_ps,
                             gint64         end_ps,
                             gboolean       capacity)
{
  TmLod *lod;
  TmLodBucket bucket;
  guint first, last;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), 0);

  lod = tm_memory_store_get_lod (store);
  if (lod == NULL || tm_lod_get_n_snapshots (lod) == 0)
    return 0;
  if (capacity)
    return tm_memory_store_has_free_data (store) ? tm_lod_get_max_total (lod) : tm_lod_get_max_used (lod);
  first = tm_memory_store_find_at_or_before (store, start_ps);
  last = tm_memory_store_find_at_or_before (store, end_ps);
  if (!tm_lod_query_indices (lod, first, MAX (first, last), &bucket) || !bucket.has_data)
    return tm_lod_get_max_used (lod);
  return bucket.used_max;
}
